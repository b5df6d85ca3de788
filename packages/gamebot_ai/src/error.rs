//! Errors of the AI crate.

use gamebot_rules::RuleError;

/// Everything that can go wrong when choosing or running a strategy.
#[derive(Debug, thiserror::Error)]
pub enum AiError {
    /// The strategy string names no known strategy.
    #[error("unknown strategy `{name}`; available: {available}")]
    UnknownStrategy {
        /// The name as given.
        name: String,
        /// Every known strategy with its options.
        available: String,
    },
    /// A strategy option is unknown or has a bad value.
    #[error("strategy `{strategy}`: {message}")]
    BadOption {
        /// The strategy's name.
        strategy: String,
        /// What is wrong, listing the valid options where useful.
        message: String,
    },
    /// A heuristic cannot be used with this game.
    #[error("heuristic `{heuristic}` cannot be used with game `{game}`: {message}")]
    Heuristic {
        /// The heuristic's name.
        heuristic: String,
        /// The game's name.
        game: String,
        /// Why.
        message: String,
    },
    /// There is nothing to choose: the game is over or the player to move has no move.
    #[error("no move to choose: {0}")]
    NoMove(String),
    /// The strategy cannot work on this game (e.g. a step cost that is negative).
    #[error("{0}")]
    Unsupported(String),
    /// The rule engine failed while searching (a broken game file).
    #[error(transparent)]
    Rule(#[from] RuleError),
}

/// Result type of this crate.
pub type Result<T, E = AiError> = std::result::Result<T, E>;
