//! # gamebot_gdl
//!
//! The Game Description Language (GDL, in KIF syntax) as a second rule
//! front-end of gamebot, next to the project's own rule language.
//!
//! - [`kif`] reads the text (comments, case-insensitive symbols, `?variables`);
//! - [`syntax`] builds rules; [`check`] runs the static checks of GDL with
//!   `file:line:col` diagnostics (arity, safety, stratified negation, the
//!   recursion restriction, keyword placement, `does`-independence, `legal` per role);
//! - [`ground`] instantiates the rules over the reachable domains and [`game`]
//!   compiles them into an evaluation-ordered propositional program; states are
//!   bit sets with a Zobrist hash, moves are joint (one per role);
//! - [`validate`] plays random simulations to check playability, goals, termination
//!   and determinism, with a report per check;
//! - [`ai`] adapts the strategies named by [`gamebot_ai::Spec`] to GDL games
//!   (random, flat Monte Carlo, decoupled UCT, alpha-beta/minimax, bfs/dfs);
//! - [`ggp`] implements the player side of the general game playing protocol
//!   (message parsing and match state; the transport is the caller's).
//!
//! ```no_run
//! let game = gamebot_gdl::Game::load("games/gdl/tictactoe.gdl")?;
//! let mut sc = game.scratch();
//! let moves = game.legal_moves(&game.initial_state(), &mut sc);
//! println!("{} can play {}", game.roles()[0], moves[0].len());
//! # Ok::<(), gamebot_gdl::GdlError>(())
//! ```
#![forbid(unsafe_code)]

pub mod ai;
pub mod check;
mod error;
pub mod game;
pub mod ggp;
pub mod ground;
pub mod kif;
pub mod syntax;
pub mod validate;

pub use error::{Diagnostic, GdlError, Pos, Result};
pub use game::{Game, Move, Scratch, State};

/// Reads and checks a description without compiling it; returns every problem found.
pub fn check_text(file: &str, text: &str) -> Vec<Diagnostic> {
    let exprs = match kif::read(file, text) {
        Ok(e) => e,
        Err(d) => return vec![d],
    };
    let d = match syntax::Description::from_sexprs(file, &exprs) {
        Ok(d) => d,
        Err(e) => return e,
    };
    let clauses = match d.clauses() {
        Ok(c) => c,
        Err(e) => return e,
    };
    check::check(&d, &clauses)
}
