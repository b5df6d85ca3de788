//! What a search reports: the chosen move and statistics about how it was found.

use gamebot_rules::Move;
use serde::Serialize;

/// A root move the strategy considered, with its estimate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Considered {
    /// The move as `element:from->to`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Estimated value for the player to move, −1 (loss) .. 1 (win).
    pub value: f64,
    /// Visits (MCTS), playouts (Monte Carlo) or nodes searched below the move.
    pub visits: u64,
    /// True when `value` is only an upper bound (alpha-beta: the move was
    /// refuted, "at most this"); estimates (MCTS, Monte Carlo) are not bounds.
    pub bound: bool,
    /// True when `value` is the proven game-theoretic value (MCTS-Solver).
    pub proven: bool,
}

/// Statistics of one search.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SearchStats {
    /// The strategy, in canonical spec form.
    pub strategy: String,
    /// Positions whose moves were generated (tree nodes, playout steps, expansions).
    pub nodes: u64,
    /// Random playouts run (Monte Carlo, MCTS).
    pub playouts: u64,
    /// MCTS iterations or alpha-beta/minimax completed depths.
    pub iterations: u64,
    /// Depth reached: last completed search depth (alpha-beta, minimax), deepest
    /// tree node (MCTS), solution length (puzzle searches).
    pub depth: u32,
    /// Principal variation: the expected line of play, starting with the chosen move.
    pub pv: Vec<String>,
    /// Value of the position for the player to move, −1 (lost) .. 1 (won);
    /// a decided game is worth ±0.99^plies, heuristic estimates stay within ±0.4.
    pub value: f64,
    /// Thinking time in seconds.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
    /// Tree nodes or table entries kept from the previous move.
    pub reused: u64,
    /// True when the search was exhaustive, so `value` is exact (solved).
    pub complete: bool,
    /// The root moves with their estimates, best first.
    pub considered: Vec<Considered>,
}

impl SearchStats {
    /// Nodes per second of thinking time.
    pub fn nodes_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.nodes as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// The result of [`crate::Strategy::choose`].
#[derive(Clone, Debug)]
pub struct Decision {
    /// The move to play (a legal move of the position, with its followup).
    pub mv: Move,
    /// How it was found.
    pub stats: SearchStats,
}
