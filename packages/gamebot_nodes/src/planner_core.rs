//! The planner's logic: stateless — every request carries what it needs to
//! rebuild the position (game file and move history).

use crate::referee_core::{replay, RefereeError};
use gamebot_ai::{CancelToken, SearchControl, SearchStats};
use gamebot_rules::Game;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A planning request (mirrors the PlanMove action goal).
#[derive(Clone, Debug)]
pub struct PlanRequest {
    pub game_file: String,
    pub move_history: Vec<String>,
    /// Strategy string; empty = the planner's default.
    pub strategy: String,
    /// Optional time budget in ms, appended to the strategy as `time=` when it has no budget.
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
    #[error("{0}")]
    Position(#[from] RefereeError),
    #[error("{0}")]
    Load(#[from] gamebot_rules::LoadError),
    #[error("{0}")]
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

    /// The strategy string a request resolves to.
    pub fn strategy_text(&self, req: &PlanRequest) -> String {
        let mut s = if req.strategy.trim().is_empty() {
            self.default_strategy.clone()
        } else {
            req.strategy.clone()
        };
        let has_budget = ["time=", "iterations=", "depth=", "playouts="]
            .iter()
            .any(|k| s.contains(k));
        if req.time_budget_ms > 0
            && !has_budget
            && (s.starts_with("mcts") || s.starts_with("alphabeta") || s.starts_with("mc"))
        {
            s.push(if s.contains(':') { ',' } else { ':' });
            s.push_str(&format!("time={}ms", req.time_budget_ms));
        }
        if req.seed != 0
            && !s.contains("seed=")
            && (s.starts_with("mcts") || s.starts_with("random") || s.starts_with("mc"))
        {
            s.push(if s.contains(':') { ',' } else { ':' });
            s.push_str(&format!("seed={}", req.seed));
        }
        s
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
        let mut ai = gamebot_ai::strategy(&self.strategy_text(req))?;
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
}
