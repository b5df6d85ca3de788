//! Per-thread access to the rule engine: working memory, move buffers, node counting.

use crate::control::CancelToken;
use crate::error::Result;
use crate::playout::random_playout;
use gamebot_rules::{Game, LegalMoves, Move, Outcome, Scratch, State};
use rand::Rng;

/// One thread's view of the engine. Searches branch on [`Worker::moves`]: one
/// representative per equivalence class (§7.5), since equivalent moves lead to
/// equal states.
pub(crate) struct Worker<'g> {
    pub game: &'g Game,
    pub sc: Scratch,
    pub buf: LegalMoves,
    /// Positions whose moves were generated.
    pub nodes: u64,
}

impl<'g> Worker<'g> {
    pub fn new(game: &'g Game) -> Worker<'g> {
        Worker {
            game,
            sc: game.scratch(),
            buf: LegalMoves::new(),
            nodes: 0,
        }
    }

    /// The distinct moves of a position; empty when the game is over or the
    /// player to move is stuck (which ends the game as a draw, §7.11).
    pub fn moves(&mut self, st: &State) -> Result<Vec<Move>> {
        self.nodes += 1;
        self.game.legal_moves_of(st, &mut self.sc, &mut self.buf)?;
        Ok(self.game.distinct_moves(st, &self.buf))
    }

    /// The position after `mv`. Its hash is kept current through the move
    /// (tree searches look positions up by it).
    pub fn child(&mut self, st: &State, mv: &Move) -> Result<State> {
        let mut c = st.clone();
        c.keep_hash(true);
        self.game.apply_with(&mut c, mv, &mut self.sc)?;
        Ok(c)
    }

    /// A random playout ([`crate::playout::random_playout`]) until the game
    /// ends, `limit` moves were made or the search is cancelled. Returns whether
    /// the game ended (a stuck player ends it as a draw).
    pub fn playout(
        &mut self,
        st: &mut State,
        rng: &mut impl Rng,
        limit: usize,
        cancel: &CancelToken,
    ) -> Result<bool> {
        // A playout's positions are never looked up: the hash is computed
        // only if the final state is asked for it.
        st.keep_hash(false);
        let p = random_playout(
            self.game,
            st,
            rng,
            limit,
            || cancel.is_cancelled(),
            &mut self.sc,
            &mut self.buf,
        )?;
        self.nodes += p.generated as u64;
        Ok(p.finished)
    }
}

/// Outcome of a decided game for player `p`: 1 won, 0 draw, −1 lost.
#[inline]
pub(crate) fn outcome(o: Outcome, p: i32) -> f64 {
    match o {
        Outcome::Won(w) if w == p => 1.0,
        Outcome::Won(_) => -1.0,
        Outcome::Draw | Outcome::Running => 0.0,
    }
}
