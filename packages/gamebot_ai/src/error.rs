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
    /// An option is not written `key=value`.
    #[error("strategy `{strategy}`: option `{item}` must be key=value; options: {options}")]
    NotKeyValue {
        strategy: String,
        item: String,
        /// The strategy's options.
        options: String,
    },
    /// The strategy has no option of that name.
    #[error("strategy `{strategy}`: unknown option `{option}`; options: {options}")]
    UnknownOption {
        strategy: String,
        option: String,
        /// The strategy's options.
        options: String,
    },
    /// An option is given twice.
    #[error("strategy `{strategy}`: option `{option}` given twice")]
    RepeatedOption { strategy: String, option: String },
    /// An option's value is not of its type or out of range.
    #[error("strategy `{strategy}`: `{key}={value}`: {problem}")]
    BadValue {
        strategy: String,
        key: String,
        value: String,
        /// What is wrong with the value.
        problem: Box<crate::spec::ValueError>,
    },
    /// Options that cannot be used together.
    #[error("strategy `{strategy}`: {message}")]
    OptionConflict {
        strategy: String,
        message: &'static str,
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
