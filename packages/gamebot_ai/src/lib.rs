//! # gamebot_ai
//!
//! Strategies that play any game of [`gamebot_rules`]: nothing in this crate
//! knows a particular game. Game-specific knowledge enters only through the
//! game file: its end conditions and scores, and its optional `[EVALUATION]`
//! section, a per-player expression used as the heuristic. Section numbers
//! (§) refer to the rule language reference, `docs/language.md`.
//!
//! - `random` — uniformly random legal moves (seeded);
//! - `dfs`, `bfs`, `astar` — single-agent search for puzzles, with cycle
//!   detection by state identity ([`puzzle`]);
//! - `minimax`, `minimax-stochastic` — depth-limited minimax with a heuristic
//!   at the horizon ([`minimax`]);
//! - `alphabeta` — negamax with alpha-beta, iterative deepening, a transposition
//!   table keyed by the Zobrist hash, TT/killer/history move ordering ([`alphabeta`]);
//! - `mc` — flat Monte Carlo ([`mc`]);
//! - `mcts` — UCT with tree reuse, proven-win/loss propagation and root
//!   parallelism on a rayon pool ([`mcts`]).
//!
//! Strategies are named by strings ([`Spec`]) such as `alphabeta:depth=6` or
//! `mcts:time=1s,threads=2`, shared by the CLI, the planner node and
//! tournaments ([`tournament`]). Every search reports [`SearchStats`] and can be
//! cancelled from another thread through its [`CancelToken`].
//!
//! ```no_run
//! use gamebot_ai::{Strategy, SearchControl};
//! let game = gamebot_rules::Game::load("games/connect4.game")?;
//! let mut ai = gamebot_ai::strategy("mcts:iterations=2000,seed=7")?;
//! let d = ai.choose(&game, &game.initial_state(), &SearchControl::new())?;
//! println!("{} (value {:.2}, {} playouts)", game.move_text(&d.mv), d.stats.value, d.stats.playouts);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

pub mod alphabeta;
mod control;
mod error;
pub mod heuristic;
pub mod mc;
pub mod mcts;
pub mod minimax;
pub mod playout;
pub mod puzzle;
pub mod random;
mod spec;
mod stats;
pub mod tournament;
mod worker;

pub use control::{CancelToken, ProgressFn, SearchControl};
pub use error::{AiError, Result};
pub use heuristic::Heuristic;
pub use spec::{
    find_strategy, parse_duration, strategy_help, strategy_help_of, AlphaBetaOpts, Cost,
    DurationError, McOpts, McVariant, MctsOpts, MinimaxOpts, OptionDef, OptionHelp,
    PuzzleHeuristic, PuzzleKind, PuzzleOpts, RandomOpts, Spec, StrategyDef, StrategyOptions,
    ValueError, STRATEGIES,
};
pub use stats::{Considered, Decision, SearchStats};

use gamebot_rules::{Game, State};

/// A player: chooses a move in a position. Instances keep what they learnt
/// between moves of one game (search trees, transposition tables, plans); use
/// a fresh instance per game.
pub trait Strategy: Send {
    /// The strategy's spec (its name and options).
    fn spec(&self) -> Spec;

    /// Chooses a move for the player to move in `state`. Fails with
    /// [`AiError::NoMove`] when the game is over or the player has no legal move.
    fn choose(&mut self, game: &Game, state: &State, ctl: &SearchControl) -> Result<Decision>;
}

/// Builds a strategy from its spec.
pub fn build(spec: &Spec) -> Box<dyn Strategy> {
    match spec {
        Spec::Random(o) => Box::new(random::RandomPlayer::new(o.clone())),
        Spec::Puzzle(o) => Box::new(puzzle::PuzzlePlayer::new(o.clone())),
        Spec::Minimax(o) => Box::new(minimax::Minimax::new(o.clone())),
        Spec::AlphaBeta(o) => Box::new(alphabeta::AlphaBeta::new(o.clone())),
        Spec::Mc(o) => Box::new(mc::MonteCarlo::new(o.clone())),
        Spec::Mcts(o) => Box::new(mcts::Mcts::new(o.clone())),
    }
}

/// Parses a strategy string and builds the strategy.
pub fn strategy(text: &str) -> Result<Box<dyn Strategy>> {
    Ok(build(&text.parse()?))
}

/// Fails when there is nothing to choose in `state`.
pub(crate) fn ensure_running(state: &State) -> Result<()> {
    if state.is_over() {
        return Err(AiError::NoMove("the game is over".into()));
    }
    Ok(())
}

/// The moves as text.
pub(crate) fn texts(game: &Game, moves: &[gamebot_rules::Move]) -> Vec<String> {
    moves.iter().map(|m| game.move_text(m)).collect()
}

/// The move of `state` equivalent (§7.5) to `mv`, a move found in `seen`, a
/// position equal to `state`. Equal positions may differ in which interchangeable
/// piece sits where (irrelevant locations), so a move remembered from `seen`
/// (a search tree, a plan) must be re-found among `state`'s own moves.
pub(crate) fn translate(
    game: &Game,
    seen: &State,
    mv: &gamebot_rules::Move,
    state: &State,
) -> Result<gamebot_rules::Move> {
    let key = game.equivalence_key(seen, mv);
    game.legal_moves(state)?
        .into_iter()
        .find(|m| game.equivalence_key(state, m) == key)
        .ok_or_else(|| {
            AiError::NoMove(format!(
                "`{}` has no equivalent in the position",
                game.move_text(mv)
            ))
        })
}
