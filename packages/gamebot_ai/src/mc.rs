//! `mc`: flat Monte Carlo. Every root move gets the same number of uniformly
//! random playouts (or, with a time budget, the moves take turns until time is
//! up); the move with the best mean wins. Variants: mean result (win 1, draw 0,
//! loss −1), ratio of wins, or mean final score difference.

use crate::control::{Limits, SearchControl, Ticker};
use crate::error::{AiError, Result};
use crate::heuristic::squash;
use crate::spec::{McOpts, McVariant, Spec};
use crate::stats::{Considered, Decision, SearchStats};
use crate::worker::{outcome, Worker};
use crate::{ensure_running, Strategy};
use gamebot_rules::{Game, Outcome, State};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// The flat Monte Carlo player.
pub struct MonteCarlo {
    opts: McOpts,
    rng: ChaCha8Rng,
}

impl MonteCarlo {
    /// A Monte Carlo player with these options.
    pub fn new(opts: McOpts) -> MonteCarlo {
        MonteCarlo {
            rng: ChaCha8Rng::seed_from_u64(opts.seed.unwrap_or(0)),
            opts,
        }
    }
}

impl Strategy for MonteCarlo {
    fn spec(&self) -> Spec {
        Spec::Mc(self.opts.clone())
    }

    fn choose(&mut self, game: &Game, state: &State, ctl: &SearchControl) -> Result<Decision> {
        ensure_running(state)?;
        let o = self.opts.clone();
        let limits = Limits::new(o.time, &ctl.cancel);
        let mut ticker = Ticker::new(Duration::from_millis(100));
        let mut w = Worker::new(game);
        let me = state.player();
        let moves = w.moves(state)?;
        if moves.is_empty() {
            return Err(AiError::NoMove(
                "the player to move has no legal move".into(),
            ));
        }
        let children: Vec<State> = moves
            .iter()
            .map(|m| w.child(state, m))
            .collect::<Result<_>>()?;
        let mut n = vec![0u64; moves.len()];
        let mut sum = vec![0f64; moves.len()];
        let mut playouts = 0u64;
        let mut stats = SearchStats {
            strategy: self.spec().to_string(),
            threads: 1,
            ..Default::default()
        };
        // Unplayed moves rank last (only possible when stopped early or forced).
        let value_of = |sum: f64, n: u64| -> f64 {
            if n == 0 {
                return if moves.len() == 1 {
                    0.0
                } else {
                    f64::NEG_INFINITY
                };
            }
            let m = sum / n as f64;
            match o.variant {
                McVariant::Mean => m,
                McVariant::Wins => 2.0 * m - 1.0,
                McVariant::Score => squash(m, 8.0),
            }
        };
        if moves.len() > 1 {
            // The state each playout runs on, refilled from the child (no
            // allocation per playout).
            let mut s = children[0].clone();
            'outer: loop {
                let mut any = false;
                for i in 0..moves.len() {
                    if n[i] >= o.playouts() {
                        continue;
                    }
                    if limits.stop() {
                        break 'outer;
                    }
                    any = true;
                    s.clone_from(&children[i]);
                    let finished = w.playout(&mut s, &mut self.rng, o.limit, &ctl.cancel)?;
                    let winner = if finished { s.outcome() } else { Outcome::Draw };
                    let r = match o.variant {
                        McVariant::Mean => outcome(winner, me),
                        McVariant::Wins => f64::from(u8::from(winner == Outcome::Won(me))),
                        McVariant::Score => {
                            let sc = s.scores();
                            let own = sc[me as usize - 1] as f64;
                            let other = sc
                                .iter()
                                .enumerate()
                                .filter(|(j, _)| *j as i32 != me - 1)
                                .map(|(_, &x)| x as f64)
                                .fold(f64::NEG_INFINITY, f64::max);
                            if other.is_finite() {
                                own - other
                            } else {
                                own
                            }
                        }
                    };
                    n[i] += 1;
                    sum[i] += r;
                    playouts += 1;
                    if ticker.due() && ctl.progress.is_some() {
                        let b = (0..moves.len())
                            .max_by(|&a, &b| {
                                value_of(sum[a], n[a]).total_cmp(&value_of(sum[b], n[b]))
                            })
                            .unwrap_or(0);
                        stats.playouts = playouts;
                        stats.nodes = w.nodes;
                        stats.value = value_of(sum[b], n[b]);
                        stats.pv = vec![game.move_text(&moves[b])];
                        stats.seconds = limits.elapsed().as_secs_f64();
                        ctl.report(&stats);
                    }
                }
                if !any {
                    break;
                }
            }
        }
        // The first of the best (moves with no playout rank last).
        let mut best = 0;
        for i in 1..moves.len() {
            if value_of(sum[i], n[i]) > value_of(sum[best], n[best]) {
                best = i;
            }
        }
        let mut considered: Vec<Considered> = (0..moves.len())
            .map(|i| Considered {
                mv: game.move_text(&moves[i]),
                value: value_of(sum[i], n[i]).max(-1.0),
                visits: n[i],
                bound: false,
                proven: false,
            })
            .collect();
        considered.sort_by(|a, b| b.value.total_cmp(&a.value));
        stats.considered = considered;
        stats.playouts = playouts;
        stats.nodes = w.nodes;
        stats.value = value_of(sum[best], n[best]).max(-1.0);
        stats.pv = vec![game.move_text(&moves[best])];
        stats.seconds = limits.elapsed().as_secs_f64();
        stats.depth = 1;
        Ok(Decision {
            mv: moves[best].clone(),
            stats,
        })
    }
}
