//! `minimax`: plain depth-limited minimax with a heuristic at the horizon, and
//! `minimax-stochastic`, which picks at random among the root moves whose value
//! is within a margin of the best.
//!
//! Values follow §7.12 of the language reference (`docs/language.md`): from the point of view of
//! the player the search is for, a decided game is worth +1 (won), 0 (draw) or
//! −1 (lost), multiplied by 0.99 per ply, and an unexpanded position gets the
//! heuristic squashed into (−0.4, 0.4). With more than two players the search is
//! "paranoid": every other player is assumed to play against the searching one.
//! A player who moves twice in a row (a move that does not pass the turn) is
//! handled naturally: the side to move, not the ply parity, decides max or min.
//! Turn extension (`ext`, default 4 plies): when the depth runs out while the
//! player who just moved moves again (pentago's place-then-twist, multi-jump
//! captures), the search goes on until that turn is over, so no position in the
//! middle of a turn is judged by the heuristic. `ext=0` gives plain minimax.

use crate::control::{Limits, SearchControl};
use crate::error::{AiError, Result};
use crate::heuristic::{squash, Heuristic};
use crate::spec::{MinimaxOpts, Spec};
use crate::stats::{Considered, Decision, SearchStats};
use crate::worker::{outcome, Worker};
use crate::{ensure_running, texts, Strategy};
use gamebot_rules::{Game, Move, State};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Discount per ply (§7.12): prefers quicker wins and slower losses.
pub(crate) const DISCOUNT: f64 = 0.99;

/// Evaluation from the point of view of the searching (root) player.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Evaluator {
    pub heuristic: Heuristic,
    pub scale: f64,
    pub root: i32,
}

impl Evaluator {
    pub fn new(game: &Game, h: Heuristic, scale: Option<f64>, root: i32) -> Result<Evaluator> {
        let heuristic = h.resolve(game)?;
        Ok(Evaluator {
            heuristic,
            scale: scale.unwrap_or_else(|| heuristic.default_scale()),
            root,
        })
    }
    /// +1 when the player to move is the root player (or an ally, never), −1 otherwise.
    #[inline]
    pub fn side(&self, st: &State) -> f64 {
        if st.player() == self.root {
            1.0
        } else {
            -1.0
        }
    }
    /// Value of a decided position for the side to move.
    #[inline]
    pub fn terminal(&self, st: &State) -> f64 {
        self.side(st) * outcome(st.outcome(), self.root)
    }
    /// Heuristic value of a running position for the side to move.
    pub fn leaf(&self, w: &mut Worker<'_>, st: &State) -> Result<f64> {
        let raw = self.heuristic.raw(w, st, self.root)?;
        Ok(self.side(st) * squash(raw, self.scale))
    }
}

/// The minimax player (both variants).
pub struct Minimax {
    opts: MinimaxOpts,
    rng: ChaCha8Rng,
}

impl Minimax {
    /// A minimax player with these options (either variant).
    pub fn new(opts: MinimaxOpts) -> Minimax {
        Minimax {
            rng: ChaCha8Rng::seed_from_u64(opts.seed.unwrap_or(0)),
            opts,
        }
    }
}

struct Run<'g, 'c> {
    w: Worker<'g>,
    ev: Evaluator,
    limits: &'c Limits,
    nodes: u64,
    aborted: bool,
}

impl Run<'_, '_> {
    /// Minimax value of `st` for its side to move; `mover` made the last move.
    fn value(&mut self, st: &State, depth: u32, mover: i32, ext: u32) -> Result<f64> {
        self.nodes += 1;
        if self.limits.stop() {
            self.aborted = true;
            return Ok(0.0);
        }
        if st.is_over() {
            return Ok(self.ev.terminal(st));
        }
        let (depth, ext) = match depth {
            0 if st.player() == mover && ext > 0 => (1, ext - 1),
            d => (d, ext),
        };
        if depth == 0 {
            return self.ev.leaf(&mut self.w, st);
        }
        let moves = self.w.moves(st)?;
        if moves.is_empty() {
            return Ok(0.0); // stuck: a draw (§7.11)
        }
        let side = self.ev.side(st);
        let mut best = f64::NEG_INFINITY;
        for mv in &moves {
            let c = self.w.child(st, mv)?;
            let v = self.value(&c, depth - 1, st.player(), ext)?;
            if self.aborted {
                return Ok(0.0);
            }
            let v = DISCOUNT * if self.ev.side(&c) == side { v } else { -v };
            best = best.max(v);
        }
        Ok(best)
    }
}

impl Strategy for Minimax {
    fn spec(&self) -> Spec {
        Spec::Minimax(self.opts.clone())
    }

    fn choose(&mut self, game: &Game, state: &State, ctl: &SearchControl) -> Result<Decision> {
        ensure_running(state)?;
        let o = self.opts.clone();
        let limits = Limits::new(None, &ctl.cancel);
        let mut run = Run {
            w: Worker::new(game),
            ev: Evaluator::new(game, o.heuristic, o.scale, state.player())?,
            limits: &limits,
            nodes: 1,
            aborted: false,
        };
        let mut moves = run.w.moves(state)?;
        if moves.is_empty() {
            return Err(AiError::NoMove(
                "the player to move has no legal move".into(),
            ));
        }
        if o.seed.is_some() {
            moves.shuffle(&mut self.rng);
        }
        let mut scored: Vec<(Move, f64, u64)> = Vec::new();
        for mv in &moves {
            let before = run.nodes;
            let c = run.w.child(state, mv)?;
            let v = run.value(&c, o.depth - 1, state.player(), o.ext)?;
            if run.aborted {
                break;
            }
            let v = DISCOUNT * if run.ev.side(&c) == 1.0 { v } else { -v };
            scored.push((mv.clone(), v, run.nodes - before));
        }
        if scored.is_empty() {
            // Cancelled before the first move was evaluated: any move will do.
            scored.push((moves[0].clone(), 0.0, 0));
        }
        let best = scored.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
        let pick = if o.stochastic {
            let near: Vec<usize> = (0..scored.len())
                .filter(|&i| scored[i].1 >= best - o.margin)
                .collect();
            near[self.rng.gen_range(0..near.len())]
        } else {
            scored.iter().position(|s| s.1 == best).unwrap_or(0)
        };
        let mv = scored[pick].0.clone();
        let value = scored[pick].1;
        let complete = !run.aborted && scored.len() == moves.len();
        let mut considered: Vec<Considered> = scored
            .iter()
            .map(|(m, v, n)| Considered {
                mv: game.move_text(m),
                value: *v,
                visits: *n,
                bound: false,
                proven: false,
            })
            .collect();
        considered.sort_by(|a, b| b.value.total_cmp(&a.value));
        let stats = SearchStats {
            strategy: self.spec().to_string(),
            nodes: run.nodes,
            iterations: 1,
            depth: o.depth,
            pv: texts(game, std::slice::from_ref(&mv)),
            value,
            seconds: limits.elapsed().as_secs_f64(),
            threads: 1,
            complete: complete && value.abs() > 0.5,
            considered,
            ..Default::default()
        };
        ctl.report(&stats);
        Ok(Decision { mv, stats })
    }
}
