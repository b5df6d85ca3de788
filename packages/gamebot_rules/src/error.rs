//! Errors of loading and running games.

use crate::eval::EvalError;
use serde::Serialize;

/// One problem at a position in a game file (1-based line and column; 0 when not applicable).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// A game file failed to load. Holds every problem found, in file order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct LoadError {
    pub file: String,
    pub errors: Vec<Diagnostic>,
}

impl LoadError {
    pub(crate) fn single(file: &str, line: u32, col: u32, message: String) -> LoadError {
        LoadError {
            file: file.to_string(),
            errors: vec![Diagnostic { line, col, message }],
        }
    }
}

/// Errors printed by `Display`; the rest are counted (a random 50 MB file
/// would otherwise print ~100,000 lines). All stay in [`LoadError::errors`].
pub const ERRORS_SHOWN: usize = 100;

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, d) in self.errors.iter().take(ERRORS_SHOWN).enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}:{}:{}: {}", self.file, d.line, d.col, d.message)?;
        }
        if self.errors.len() > ERRORS_SHOWN {
            write!(
                f,
                "\n{}: {} more error(s) not shown",
                self.file,
                self.errors.len() - ERRORS_SHOWN
            )?;
        }
        Ok(())
    }
}

/// An error while generating or applying moves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// An expression failed at run time (type error, unbound variable, ...).
    #[error("{file}:{line}:{col}: {context}: {error}")]
    Eval {
        file: String,
        line: u32,
        col: u32,
        context: String,
        error: EvalError,
    },
    /// The move is not legal in this position.
    #[error("illegal move `{text}`: {reason}")]
    IllegalMove { text: String, reason: String },
    /// The move text could not be read.
    #[error("cannot read move `{text}`: {reason}")]
    BadMove { text: String, reason: String },
}
