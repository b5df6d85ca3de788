//! Uniformly random playouts, for `selfplay` and the rules benchmark.

use gamebot_rules::{Game, Move, RuleError, Scratch, State};
use rand::Rng;

/// The end of one random game.
pub struct Playout {
    pub state: State,
    /// Moves played.
    pub length: usize,
    /// Positions whose legal moves were generated (including the final one).
    pub positions: usize,
    /// Sum of the number of legal moves over those positions.
    pub branching_sum: usize,
    /// False when `max_moves` was reached before the game ended.
    pub finished: bool,
}

/// Plays uniformly random legal moves from `state` until the game ends or `max_moves` are made.
pub fn random_playout(
    game: &Game,
    mut state: State,
    rng: &mut impl Rng,
    max_moves: usize,
    scratch: &mut Scratch,
    buf: &mut Vec<Move>,
) -> Result<Playout, RuleError> {
    let mut length = 0;
    let mut positions = 0;
    let mut branching_sum = 0;
    loop {
        game.legal_moves_into(&state, scratch, buf)?;
        positions += 1;
        branching_sum += buf.len();
        if game.settle(&mut state, buf) {
            return Ok(Playout {
                state,
                length,
                positions,
                branching_sum,
                finished: true,
            });
        }
        if length >= max_moves {
            return Ok(Playout {
                state,
                length,
                positions,
                branching_sum,
                finished: false,
            });
        }
        let mv = &buf[rng.gen_range(0..buf.len())];
        game.apply_with(&mut state, mv, scratch)?;
        length += 1;
    }
}
