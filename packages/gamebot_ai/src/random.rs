//! `random`: a uniformly random legal move (from the raw move list, like the
//! reference's random player), from a seeded generator.

use crate::control::SearchControl;
use crate::error::{AiError, Result};
use crate::spec::Spec;
use crate::stats::{Decision, SearchStats};
use crate::{ensure_running, Strategy};
use gamebot_rules::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// The random player.
pub struct RandomPlayer {
    spec: Spec,
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player; its seed is the spec's (0 if none).
    pub fn new(spec: Spec) -> RandomPlayer {
        let seed = match &spec {
            Spec::Random { seed } => seed.unwrap_or(0),
            _ => 0,
        };
        RandomPlayer {
            spec,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Strategy for RandomPlayer {
    fn spec(&self) -> &Spec {
        &self.spec
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
            strategy: self.spec.to_string(),
            nodes: 1,
            pv: vec![game.move_text(&mv)],
            seconds: t.elapsed().as_secs_f64(),
            threads: 1,
            ..Default::default()
        };
        Ok(Decision { mv, stats })
    }
}
