//! # gamebot_rules
//!
//! The S3Games board-game rule language: a loader for game files, an
//! interpreter for its expression language, a compact game state, move
//! generation and move application. The language reference is
//! `docs/language.md` in this repository; every section number (§) in this
//! crate refers to it.
//!
//! Design for speed: names are interned and patterns matched against every
//! element and location once at load, expressions are parsed into trees with
//! variable slots and then compiled into typed closures (`compile.rs`; the
//! tree-walking evaluator of `eval.rs` stays as the reference), interpolated
//! names are looked up through per-template tables straight to location and
//! element ids, a rule whose targets do not depend on the moved element
//! (the usual case for supply stacks) computes its targets once per position,
//! and calls of pure user functions are memoized, each entry checked against
//! the position reads it recorded (`memo.rs`).
//!
//! ```no_run
//! let game = gamebot_rules::Game::load("games/tictactoe.game")?;
//! let mut state = game.initial_state();
//! let moves = game.legal_moves(&state)?;
//! game.apply(&mut state, &moves[0])?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod call_graph;
mod compile;
mod engine;
mod error;
mod eval;
mod expr;
mod game;
mod lexer;
mod loader;
mod memo;
pub mod model;
mod pattern;
pub mod physical;
mod pure;
mod specialize;
mod state;
mod value;

#[cfg(test)]
mod tests;

pub use engine::{EquivalenceKey, LegalMoves, Move, Scratch};
pub use error::{Diagnostic, LoadError, RuleError};
pub use eval::{EvalError, DEFAULT_STEP_BUDGET};
pub use game::{EndCondition, Evaluation, Function, Game, Rule, Scoring};
pub use model::*;
pub use physical::{
    neighbours, on_table, physical_actions, visible_state_change, PhysicalAction, PlanError,
};
pub use state::{Attr, ElementAttrs, Outcome, State, StateError};
pub use value::{Deferred, Value};
