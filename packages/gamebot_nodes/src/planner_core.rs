//! The planner's logic: stateless — every request carries what it needs to
//! rebuild the position (game file and move history).

use crate::referee_core::{replay, RefereeError};
use gamebot_ai::{CancelToken, SearchControl, SearchStats, Spec};
use gamebot_rules::Game;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A planning request (mirrors the PlanMove action goal).
#[derive(Clone, Debug)]
pub struct PlanRequest {
    pub game_file: String,
    pub move_history: Vec<String>,
    /// Strategy string; empty = the planner's default.
    pub strategy: String,
    /// Optional time budget in ms, the strategy's `time` when it sets no budget of its own.
    pub time_budget_ms: u32,
    pub seed: u64,
}

/// A planned move.
#[derive(Clone, Debug)]
pub struct Plan {
    pub text: String,
    pub element: String,
    pub from: String,
    pub to: String,
    pub stats: SearchStats,
}

#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error(transparent)]
    Position(#[from] RefereeError),
    #[error(transparent)]
    Load(#[from] gamebot_rules::LoadError),
    #[error(transparent)]
    Ai(#[from] gamebot_ai::AiError),
}

/// Plans moves; caches loaded games by file path (games are immutable).
pub struct PlannerCore {
    default_strategy: String,
    games: Mutex<HashMap<String, Arc<Game>>>,
}

impl PlannerCore {
    pub fn new(default_strategy: &str) -> PlannerCore {
        PlannerCore {
            default_strategy: default_strategy.to_string(),
            games: Mutex::new(HashMap::new()),
        }
    }

    fn game(&self, path: &str) -> Result<Arc<Game>, PlanError> {
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(g) = games.get(path) {
            return Ok(g.clone());
        }
        let g = Arc::new(Game::load(path)?);
        games.insert(path.to_string(), g.clone());
        Ok(g)
    }

    /// The strategy a request resolves to: its own strategy string (or the
    /// planner's default), then, when the strategy did not set them, the
    /// request's time budget (anytime searches: `alphabeta`, `mc`, `mcts`) and
    /// seed (every strategy that takes one).
    pub fn spec(&self, req: &PlanRequest) -> Result<Spec, gamebot_ai::AiError> {
        let text = if req.strategy.trim().is_empty() {
            &self.default_strategy
        } else {
            &req.strategy
        };
        let mut spec: Spec = text.parse()?;
        if req.time_budget_ms > 0 {
            spec = spec.with_default_time(Duration::from_millis(req.time_budget_ms.into()));
        }
        if req.seed != 0 {
            spec = spec.with_default_seed(req.seed);
        }
        Ok(spec)
    }

    /// The canonical text of [`PlannerCore::spec`] (for logs); the strategy
    /// as given when it does not parse (planning then reports why).
    pub fn strategy_text(&self, req: &PlanRequest) -> String {
        match self.spec(req) {
            Ok(spec) => spec.to_string(),
            Err(_) if req.strategy.trim().is_empty() => self.default_strategy.clone(),
            Err(_) => req.strategy.clone(),
        }
    }

    /// Plans a move; `progress` sees intermediate statistics; `cancel` stops the search
    /// (anytime strategies then return their best move so far).
    pub fn plan(
        &self,
        req: &PlanRequest,
        cancel: CancelToken,
        progress: &(dyn Fn(&SearchStats) + Sync),
    ) -> Result<Plan, PlanError> {
        let game = self.game(&req.game_file)?;
        let state = replay(&game, &req.move_history)?;
        let mut ai = gamebot_ai::build(&self.spec(req)?);
        let ctl = SearchControl::new()
            .with_cancel(cancel)
            .with_progress(progress);
        let d = ai.choose(&game, &state, &ctl)?;
        Ok(Plan {
            text: game.move_text(&d.mv),
            element: game.elements[d.mv.element as usize].name.clone(),
            from: game.locations[d.mv.from as usize].name.clone(),
            to: game.locations[d.mv.to as usize].name.clone(),
            stats: d.stats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_a_legal_move_from_history() {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/tictactoe.game").to_string();
        let p = PlannerCore::new("alphabeta:depth=9");
        let req = PlanRequest {
            game_file: file.clone(),
            move_history: vec![],
            strategy: String::new(),
            time_budget_ms: 0,
            seed: 1,
        };
        let plan = p.plan(&req, CancelToken::new(), &|_| {}).unwrap();
        let g = Game::load(&file).unwrap();
        assert!(g.find_move(&g.initial_state(), &plan.text).is_ok());
        let bad = PlanRequest {
            move_history: vec!["zz:a->b".into()],
            ..req
        };
        assert!(p
            .plan(&bad, CancelToken::new(), &|_| {})
            .unwrap_err()
            .to_string()
            .contains("step 1"));
    }

    fn request(strategy: &str, time_budget_ms: u32, seed: u64) -> PlanRequest {
        PlanRequest {
            game_file: String::new(),
            move_history: vec![],
            strategy: strategy.into(),
            time_budget_ms,
            seed,
        }
    }

    #[test]
    fn requests_fill_in_what_the_strategy_leaves_open() {
        let p = PlannerCore::new("mcts:time=1s");
        let run = |strategy: &str, budget: u32, seed: u64| {
            p.spec(&request(strategy, budget, seed))
                .unwrap()
                .to_string()
        };
        assert_eq!(run("", 0, 5), "mcts:time=1s,seed=5", "the default");
        // A budget is added only where the strategy has none of its own.
        for s in ["mcts", "mc", "alphabeta"] {
            let sep = if s.contains(':') { ',' } else { ':' };
            assert_eq!(run(s, 250, 0), format!("{s}{sep}time=250ms"));
        }
        for s in [
            "mcts:iterations=50",
            "mc:playouts=100",
            "alphabeta:depth=3",
            "minimax",
            "bfs",
        ] {
            assert_eq!(run(s, 250, 0), s);
        }
        // Every strategy that takes a seed gets the request's, unless it has its own.
        for s in [
            "alphabeta:depth=3",
            "minimax:depth=2",
            "minimax-stochastic",
            "mc",
            "mcts",
            "random",
        ] {
            let sep = if s.contains(':') { ',' } else { ':' };
            assert_eq!(run(s, 0, 9), format!("{s}{sep}seed=9"));
        }
        for s in ["random:seed=4", "bfs", "astar"] {
            assert_eq!(run(s, 0, 9), s);
        }
        // A strategy name that merely starts like another is not mistaken for it.
        assert!(p.spec(&request("mcx", 0, 0)).is_err());
        assert_eq!(p.strategy_text(&request("mcx", 0, 0)), "mcx");
    }
}
