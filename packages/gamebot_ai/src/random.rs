//! `random`: a uniformly random legal move (from the raw move list, like the
//! reference's random player), from a seeded generator.

use crate::control::SearchControl;
use crate::error::{AiError, Result};
use crate::spec::{RandomOpts, Spec};
use crate::stats::{Decision, SearchStats};
use crate::{ensure_running, Strategy};
use gamebot_rules::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// The random player.
pub struct RandomPlayer {
    opts: RandomOpts,
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player; its seed is the options' (0 if none).
    pub fn new(opts: RandomOpts) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(opts.seed.unwrap_or(0)),
            opts,
        }
    }
}

impl Strategy for RandomPlayer {
    fn spec(&self) -> Spec {
        Spec::Random(self.opts.clone())
    }

    fn choose(&mut self, game: &Game, state: &State, _ctl: &SearchControl) -> Result<Decision> {
        ensure_running(state)?;
        let t = Instant::now();
        let legal = game.legal_moves(state)?;
        if legal.is_empty() {
            return Err(AiError::NoMove(
                "the player to move has no legal move".into(),
            ));
        }
        let mv = legal[self.rng.gen_range(0..legal.len())].clone();
        let stats = SearchStats {
            strategy: self.spec().to_string(),
            nodes: 1,
            pv: vec![game.move_text(&mv)],
            seconds: t.elapsed().as_secs_f64(),
            threads: 1,
            ..Default::default()
        };
        Ok(Decision { mv, stats })
    }
}
