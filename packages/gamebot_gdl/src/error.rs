//! Errors: positioned diagnostics of a description, and the crate's error type.

use std::fmt;

/// A 1-based line and column in a source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// One problem of a game description, printed `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub pos: Pos,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: &str, pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_string(),
            pos,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.pos.line, self.pos.col, self.message
        )
    }
}

/// Diagnostics joined one per line.
fn join(ds: &[Diagnostic]) -> String {
    ds.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// What can go wrong in this crate.
#[derive(Debug, thiserror::Error)]
pub enum GdlError {
    /// The description is malformed or breaks a rule of GDL.
    #[error("{}", join(.0))]
    Invalid(Vec<Diagnostic>),
    /// Reading a file failed.
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// Grounding produced more than the limit of propositions or rules.
    #[error("grounding too large: {0}")]
    TooLarge(String),
    /// A move that is not legal, or not a move of the game.
    #[error("{0}")]
    BadMove(String),
    /// The game is over or a role has nothing to do.
    #[error("no move: {0}")]
    NoMove(String),
    /// A strategy that cannot play this game.
    #[error("{0}")]
    Strategy(String),
    /// A GGP protocol message that cannot be understood.
    #[error("protocol: {0}")]
    Protocol(String),
}

impl GdlError {
    /// The diagnostics, when the error is about the description.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            GdlError::Invalid(d) => d,
            _ => &[],
        }
    }
}

impl From<Diagnostic> for GdlError {
    fn from(d: Diagnostic) -> Self {
        GdlError::Invalid(vec![d])
    }
}

/// Result of this crate.
pub type Result<T, E = GdlError> = std::result::Result<T, E>;
