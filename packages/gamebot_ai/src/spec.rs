//! Strategy strings: `name[:key=value,...]`, shared by the CLI, the planner node
//! parameters and tournaments. E.g. `alphabeta:depth=6`, `mcts:time=1s,threads=2`.
//!
//! Every strategy has one options type (e.g. [`AlphaBetaOpts`]) and one table
//! of [`OptionDef`]s describing each of its options once: name, value type,
//! documentation, how a value is read and validated, and how it is shown.
//! Parsing ([`Spec::from_str`]), the canonical form ([`Spec`]'s `Display`),
//! the help text ([`strategy_help`]) and the list of strategies
//! ([`STRATEGIES`]) all read these tables.

use crate::error::AiError;
use crate::heuristic::{Heuristic, UnknownHeuristic};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Which single-agent search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleKind {
    /// Depth-first: finds a solution, not necessarily a short one.
    Dfs,
    /// Breadth-first: a solution with the fewest moves.
    Bfs,
    /// A*: a cheapest solution when the heuristic never overestimates.
    Astar,
}

/// What a solution costs, for A*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// Every move costs 1.
    Moves,
    /// A move costs the increase of the solver's score (e.g. minutes in bridge-and-torch).
    Score,
    /// A move costs the decrease of the solver's score.
    NegScore,
}

/// Heuristic of A*: an estimate of the remaining cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleHeuristic {
    /// `eval` when the game has an `[EVALUATION]` record for the solver, else `none`.
    Auto,
    /// Minus the game's `[EVALUATION]` value (clamped at 0).
    Eval,
    /// 0 (A* becomes uniform-cost search).
    Zero,
}

/// Options of `random`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RandomOpts {
    pub seed: Option<u64>,
}

/// Options of `dfs`, `bfs`, `astar`.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleOpts {
    pub kind: PuzzleKind,
    /// Stop after expanding this many positions.
    pub nodes: u64,
    pub time: Option<Duration>,
    /// Longest path considered (dfs, bfs, astar).
    pub depth: Option<u32>,
    pub cost: Cost,
    pub heuristic: PuzzleHeuristic,
}

/// Options of `minimax` and `minimax-stochastic`.
#[derive(Clone, Debug, PartialEq)]
pub struct MinimaxOpts {
    pub depth: u32,
    /// Turn extension: plies searched past `depth` while the player who just moved moves again.
    pub ext: u32,
    pub heuristic: Heuristic,
    /// Raw heuristic difference that counts as clearly better (see [`crate::heuristic`]).
    pub scale: Option<f64>,
    /// Stochastic variant: pick uniformly among root moves within `margin` of the best.
    pub stochastic: bool,
    pub margin: f64,
    pub seed: Option<u64>,
}

/// Options of `alphabeta`.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaOpts {
    /// Deepest iteration; unlimited when only `time` is given.
    pub depth: Option<u32>,
    pub time: Option<Duration>,
    /// Turn extension, as in [`MinimaxOpts::ext`].
    pub ext: u32,
    /// Stop after this many nodes (keeps the last completed depth).
    pub nodes: Option<u64>,
    /// Transposition table size in MiB.
    pub tt_mb: usize,
    pub heuristic: Heuristic,
    pub scale: Option<f64>,
    /// Shuffles the root moves, so equal moves are chosen at random (reproducibly).
    pub seed: Option<u64>,
}

/// Flat Monte Carlo's way of ranking moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum McVariant {
    /// Mean result: win 1, draw 0, loss −1.
    Mean,
    /// Ratio of playouts won.
    Wins,
    /// Mean final score difference (own − best other).
    Score,
}

/// Options of `mc`.
#[derive(Clone, Debug, PartialEq)]
pub struct McOpts {
    /// Playouts per root move ([`McOpts::DEFAULT_PLAYOUTS`] when not given).
    pub playouts: Option<u64>,
    /// With a time budget, moves take turns until time is up (playouts then is a cap).
    pub time: Option<Duration>,
    pub variant: McVariant,
    /// Playouts stop (as a draw) after this many moves.
    pub limit: usize,
    pub seed: Option<u64>,
}

/// Options of `mcts`.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsOpts {
    /// Total iterations over all threads (split evenly between the trees).
    pub iterations: Option<u64>,
    pub time: Option<Duration>,
    /// Independent trees searched in parallel (root parallelism).
    pub threads: usize,
    /// UCT exploration constant.
    pub c: f64,
    /// Keep the subtree of the position reached between moves.
    pub reuse: bool,
    pub limit: usize,
    /// Playouts stop after this many moves and the heuristic judges the position.
    pub cutoff: Option<usize>,
    /// Heuristic for `cutoff`.
    pub heuristic: Heuristic,
    pub scale: Option<f64>,
    pub seed: Option<u64>,
}

/// A parsed strategy string.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    Random(RandomOpts),
    Puzzle(PuzzleOpts),
    Minimax(MinimaxOpts),
    AlphaBeta(AlphaBetaOpts),
    Mc(McOpts),
    Mcts(MctsOpts),
}

impl Default for PuzzleOpts {
    fn default() -> Self {
        PuzzleOpts {
            kind: PuzzleKind::Bfs,
            nodes: 2_000_000,
            time: None,
            depth: None,
            cost: Cost::Moves,
            heuristic: PuzzleHeuristic::Auto,
        }
    }
}
impl Default for MinimaxOpts {
    fn default() -> Self {
        MinimaxOpts {
            depth: 3,
            ext: DEFAULT_EXT,
            heuristic: Heuristic::Auto,
            scale: None,
            stochastic: false,
            margin: 0.1,
            seed: None,
        }
    }
}
impl Default for AlphaBetaOpts {
    fn default() -> Self {
        AlphaBetaOpts {
            depth: None,
            time: None,
            ext: DEFAULT_EXT,
            nodes: None,
            tt_mb: 16,
            heuristic: Heuristic::Auto,
            scale: None,
            seed: None,
        }
    }
}
impl Default for McOpts {
    fn default() -> Self {
        McOpts {
            playouts: None,
            time: None,
            variant: McVariant::Mean,
            limit: 1000,
            seed: None,
        }
    }
}
impl Default for MctsOpts {
    fn default() -> Self {
        MctsOpts {
            iterations: None,
            time: None,
            threads: 1,
            c: 0.7,
            reuse: true,
            limit: 1000,
            cutoff: None,
            heuristic: Heuristic::Auto,
            scale: None,
            seed: None,
        }
    }
}

/// Default turn extension of minimax and alpha-beta.
pub const DEFAULT_EXT: u32 = 4;

impl AlphaBetaOpts {
    /// Depth used when neither `depth` nor `time` is given.
    pub const DEFAULT_DEPTH: u32 = 4;
}
impl MctsOpts {
    /// Iterations used when neither `iterations` nor `time` is given.
    pub const DEFAULT_ITERATIONS: u64 = 10_000;
}
impl McOpts {
    /// Playouts per root move when `playouts` is not given.
    pub const DEFAULT_PLAYOUTS: u64 = 100;

    /// Playouts per root move (the cap when a time budget is given).
    pub fn playouts(&self) -> u64 {
        self.playouts.unwrap_or(Self::DEFAULT_PLAYOUTS)
    }
}

/// Why a duration does not parse.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DurationError {
    #[error("`{0}` is not a duration (e.g. 1s, 500ms, 1.5s, 2m)")]
    NotANumber(String),
    #[error("`{text}`: unknown time unit `{unit}` (ms, s, m, h)")]
    Unit { text: String, unit: String },
    #[error("`{0}` must be a positive duration")]
    NotPositive(String),
}

/// Parses a duration: `1s`, `500ms`, `1.5s`, `2m`, or a plain number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, DurationError> {
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let v: f64 = num
        .parse()
        .map_err(|_| DurationError::NotANumber(s.to_string()))?;
    let secs = match unit {
        "ms" => v / 1000.0,
        "s" => v,
        "m" | "min" => v * 60.0,
        "h" => v * 3600.0,
        _ => {
            return Err(DurationError::Unit {
                text: s.to_string(),
                unit: unit.to_string(),
            })
        }
    };
    if !(secs.is_finite() && secs > 0.0 && secs < 1e7) {
        return Err(DurationError::NotPositive(s.to_string()));
    }
    Ok(Duration::from_secs_f64(secs))
}

fn fmt_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if d.as_nanos().is_multiple_of(1_000_000) && ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else if d.as_nanos().is_multiple_of(1_000_000) && ms < 1000 {
        format!("{ms}ms")
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

/// What is wrong with one option's value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValueError {
    /// The value is not of the option's type.
    #[error("expected {0}")]
    Expected(&'static str),
    /// The value is of the right type but outside the allowed range.
    #[error("must be {0}")]
    OutOfRange(&'static str),
    #[error(transparent)]
    Duration(#[from] DurationError),
    #[error(transparent)]
    Heuristic(#[from] UnknownHeuristic),
}

/// One option of a strategy, defined once: everything that parses, shows,
/// documents or validates it reads this.
pub struct OptionDef<O: 'static> {
    /// The key in `name:key=value`.
    pub name: &'static str,
    /// Another accepted key (`h` for `heuristic`).
    pub alias: Option<&'static str>,
    /// The value's type as shown in help (`N`, `T`, `X`, `yes|no`, ...).
    pub value: &'static str,
    /// One line of documentation.
    pub doc: &'static str,
    /// Reads and validates a value into the options.
    pub read: fn(&mut O, &str) -> Result<(), ValueError>,
    /// The option's value in `o`, in the form `read` accepts; `None` when unset.
    pub show: fn(&O) -> Option<String>,
}

impl<O: 'static> OptionDef<O> {
    fn is(&self, key: &str) -> bool {
        self.name == key || self.alias == Some(key)
    }
}

/// An options type with its table.
pub trait StrategyOptions: Clone + Default + PartialEq + 'static {
    /// The options these settings accept (may depend on the variant, e.g.
    /// only `minimax-stochastic` has `margin`).
    fn table(&self) -> &'static [OptionDef<Self>];

    /// Checks that need several options together, after all were read.
    fn check(&self) -> Result<(), &'static str> {
        Ok(())
    }
}

fn positive<T: FromStr + PartialOrd + Default>(v: &str) -> Result<T, ValueError> {
    let x: T = v.parse().map_err(|_| ValueError::Expected("a number"))?;
    if x > T::default() {
        Ok(x)
    } else {
        Err(ValueError::OutOfRange("positive"))
    }
}

fn integer<T: FromStr>(v: &str, what: &'static str) -> Result<T, ValueError> {
    v.parse().map_err(|_| ValueError::Expected(what))
}

fn ext(v: &str) -> Result<u32, ValueError> {
    let x: u32 = integer(v, "a number of plies")?;
    if x > 64 {
        return Err(ValueError::OutOfRange("at most 64"));
    }
    Ok(x)
}

fn boolean(v: &str) -> Result<bool, ValueError> {
    match v {
        "yes" | "true" | "on" | "1" => Ok(true),
        "no" | "false" | "off" | "0" => Ok(false),
        _ => Err(ValueError::Expected("yes or no")),
    }
}

fn set<T>(slot: &mut T, value: T) -> Result<(), ValueError> {
    *slot = value;
    Ok(())
}

fn some<T: ToString>(x: &Option<T>) -> Option<String> {
    x.as_ref().map(T::to_string)
}

const HEURISTIC_DOC: &str =
    "position heuristic: auto, pieces, mobility, score, eval, none (see gamebot_ai::heuristic)";
const SCALE_DOC: &str = "raw heuristic difference that counts as clearly better";
const SEED_DOC: &str = "random seed (reproducible choices among equals)";
const EXT_DOC: &str = "plies searched past the depth while the same player moves again";

/// The options several strategies share, each defined once: expands to the
/// [`OptionDef`] of the options type's field of that name (`seed`, `time`,
/// `ext`, `heuristic`, `scale`, `limit`), with its usual or a given doc.
macro_rules! shared_option {
    (seed) => {
        shared_option!(seed, SEED_DOC)
    };
    (seed, $doc:expr) => {
        OptionDef {
            name: "seed",
            alias: None,
            value: "N",
            doc: $doc,
            read: |o, v| set(&mut o.seed, Some(integer(v, "an integer")?)),
            show: |o| some(&o.seed),
        }
    };
    (time, $doc:expr) => {
        OptionDef {
            name: "time",
            alias: None,
            value: "T",
            doc: $doc,
            read: |o, v| set(&mut o.time, Some(parse_duration(v)?)),
            show: |o| o.time.map(fmt_duration),
        }
    };
    (ext) => {
        OptionDef {
            name: "ext",
            alias: None,
            value: "N",
            doc: EXT_DOC,
            read: |o, v| set(&mut o.ext, ext(v)?),
            show: |o| Some(o.ext.to_string()),
        }
    };
    (heuristic) => {
        shared_option!(heuristic, HEURISTIC_DOC)
    };
    (heuristic, $doc:expr) => {
        OptionDef {
            name: "heuristic",
            alias: Some("h"),
            value: "H",
            doc: $doc,
            read: |o, v| set(&mut o.heuristic, v.parse()?),
            show: |o| Some(o.heuristic.to_string()),
        }
    };
    (scale) => {
        OptionDef {
            name: "scale",
            alias: None,
            value: "X",
            doc: SCALE_DOC,
            read: |o, v| set(&mut o.scale, Some(positive(v)?)),
            show: |o| some(&o.scale),
        }
    };
    (limit) => {
        OptionDef {
            name: "limit",
            alias: None,
            value: "N",
            doc: "playouts longer than this many moves count as draws",
            read: |o, v| set(&mut o.limit, positive(v)?),
            show: |o| Some(o.limit.to_string()),
        }
    };
}

const RANDOM_OPTIONS: &[OptionDef<RandomOpts>] = &[shared_option!(seed)];

impl StrategyOptions for RandomOpts {
    fn table(&self) -> &'static [OptionDef<Self>] {
        RANDOM_OPTIONS
    }
}

const PUZZLE_OPTIONS: &[OptionDef<PuzzleOpts>] = &[
    OptionDef {
        name: "nodes",
        alias: None,
        value: "N",
        doc: "stop after expanding this many positions",
        read: |o, v| set(&mut o.nodes, positive(v)?),
        show: |o| Some(o.nodes.to_string()),
    },
    shared_option!(time, "stop after this long"),
    OptionDef {
        name: "depth",
        alias: None,
        value: "N",
        doc: "longest path considered",
        read: |o, v| set(&mut o.depth, Some(positive(v)?)),
        show: |o| some(&o.depth),
    },
    OptionDef {
        name: "cost",
        alias: None,
        value: "moves|score|-score",
        doc: "what a move costs (astar only): 1, the rise or the fall of the solver's score",
        read: |o, v| {
            o.cost = match v {
                "moves" => Cost::Moves,
                "score" => Cost::Score,
                "-score" | "negscore" => Cost::NegScore,
                _ => return Err(ValueError::Expected("moves, score or -score")),
            };
            Ok(())
        },
        show: |o| {
            Some(
                match o.cost {
                    Cost::Moves => "moves",
                    Cost::Score => "score",
                    Cost::NegScore => "-score",
                }
                .into(),
            )
        },
    },
    OptionDef {
        name: "heuristic",
        alias: Some("h"),
        value: "auto|eval|none",
        doc: "A*'s estimate of the remaining cost: the game's [EVALUATION] or 0",
        read: |o, v| {
            o.heuristic = match v {
                "auto" => PuzzleHeuristic::Auto,
                "eval" => PuzzleHeuristic::Eval,
                "none" | "zero" => PuzzleHeuristic::Zero,
                _ => return Err(ValueError::Expected("auto, eval or none")),
            };
            Ok(())
        },
        show: |o| {
            Some(
                match o.heuristic {
                    PuzzleHeuristic::Auto => "auto",
                    PuzzleHeuristic::Eval => "eval",
                    PuzzleHeuristic::Zero => "none",
                }
                .into(),
            )
        },
    },
];

impl StrategyOptions for PuzzleOpts {
    fn table(&self) -> &'static [OptionDef<Self>] {
        PUZZLE_OPTIONS
    }
    fn check(&self) -> Result<(), &'static str> {
        if self.kind != PuzzleKind::Astar && self.cost != Cost::Moves {
            return Err("only astar weighs moves by cost; dfs and bfs count moves");
        }
        Ok(())
    }
}

/// Minimax's options; `minimax-stochastic` has one more (`margin`), so the
/// plain table is the first five entries of this one.
const MINIMAX_STOCHASTIC_OPTIONS: &[OptionDef<MinimaxOpts>] = &[
    OptionDef {
        name: "depth",
        alias: None,
        value: "N",
        doc: "plies searched",
        read: |o, v| set(&mut o.depth, positive(v)?),
        show: |o| Some(o.depth.to_string()),
    },
    shared_option!(ext),
    shared_option!(heuristic),
    shared_option!(scale),
    shared_option!(seed),
    OptionDef {
        name: "margin",
        alias: None,
        value: "X",
        doc: "root moves within this value of the best are chosen uniformly (0..2)",
        read: |o, v| {
            let x: f64 = integer(v, "a number")?;
            if !(0.0..=2.0).contains(&x) {
                return Err(ValueError::OutOfRange("between 0 and 2"));
            }
            set(&mut o.margin, x)
        },
        show: |o| Some(o.margin.to_string()),
    },
];

impl StrategyOptions for MinimaxOpts {
    fn table(&self) -> &'static [OptionDef<Self>] {
        if self.stochastic {
            MINIMAX_STOCHASTIC_OPTIONS
        } else {
            &MINIMAX_STOCHASTIC_OPTIONS[..5]
        }
    }
}

const ALPHABETA_OPTIONS: &[OptionDef<AlphaBetaOpts>] = &[
    OptionDef {
        name: "depth",
        alias: None,
        value: "N",
        doc: "deepest iteration (default 4 when no time is given, else unlimited)",
        read: |o, v| set(&mut o.depth, Some(positive(v)?)),
        show: |o| some(&o.depth),
    },
    shared_option!(time, "iterative deepening until this long has passed"),
    shared_option!(ext),
    OptionDef {
        name: "nodes",
        alias: None,
        value: "N",
        doc: "stop after this many nodes (keeps the last completed depth)",
        read: |o, v| set(&mut o.nodes, Some(positive(v)?)),
        show: |o| some(&o.nodes),
    },
    OptionDef {
        name: "tt",
        alias: None,
        value: "MB",
        doc: "transposition table size in MiB (1..65536)",
        read: |o, v| {
            let x: usize = integer(v, "a size in MiB")?;
            if !(1..=65536).contains(&x) {
                return Err(ValueError::OutOfRange("1..65536 MiB"));
            }
            set(&mut o.tt_mb, x)
        },
        show: |o| Some(o.tt_mb.to_string()),
    },
    shared_option!(heuristic),
    shared_option!(scale),
    shared_option!(
        seed,
        "shuffles the root moves, so equal moves are chosen at random (reproducibly)"
    ),
];

impl StrategyOptions for AlphaBetaOpts {
    fn table(&self) -> &'static [OptionDef<Self>] {
        ALPHABETA_OPTIONS
    }
}

const MC_OPTIONS: &[OptionDef<McOpts>] = &[
    OptionDef {
        name: "playouts",
        alias: None,
        value: "N",
        doc: "playouts per root move (100 when not given; a cap with time)",
        read: |o, v| set(&mut o.playouts, Some(positive(v)?)),
        show: |o| some(&o.playouts),
    },
    shared_option!(time, "root moves take turns until this long has passed"),
    OptionDef {
        name: "variant",
        alias: None,
        value: "mean|wins|score",
        doc: "ranking: mean result, ratio of wins, or mean score difference",
        read: |o, v| {
            o.variant = match v {
                "mean" | "mean-score" => McVariant::Mean,
                "wins" | "win-ratio" => McVariant::Wins,
                "score" => McVariant::Score,
                _ => return Err(ValueError::Expected("mean, wins or score")),
            };
            Ok(())
        },
        show: |o| {
            Some(
                match o.variant {
                    McVariant::Mean => "mean",
                    McVariant::Wins => "wins",
                    McVariant::Score => "score",
                }
                .into(),
            )
        },
    },
    shared_option!(limit),
    shared_option!(seed),
];

impl StrategyOptions for McOpts {
    fn table(&self) -> &'static [OptionDef<Self>] {
        MC_OPTIONS
    }
}

const MCTS_OPTIONS: &[OptionDef<MctsOpts>] = &[
    OptionDef {
        name: "iterations",
        alias: None,
        value: "N",
        doc: "total iterations over all threads (10000 when neither this nor time is given)",
        read: |o, v| set(&mut o.iterations, Some(positive(v)?)),
        show: |o| some(&o.iterations),
    },
    shared_option!(time, "search until this long has passed"),
    OptionDef {
        name: "threads",
        alias: None,
        value: "N",
        doc: "independent trees searched in parallel (1..256)",
        read: |o, v| {
            let t: usize = integer(v, "a number")?;
            if !(1..=256).contains(&t) {
                return Err(ValueError::OutOfRange("1..256"));
            }
            set(&mut o.threads, t)
        },
        show: |o| Some(o.threads.to_string()),
    },
    OptionDef {
        name: "c",
        alias: None,
        value: "X",
        doc: "UCT exploration constant (≥ 0)",
        read: |o, v| {
            let c: f64 = integer(v, "a number")?;
            if !(c.is_finite() && c >= 0.0) {
                return Err(ValueError::OutOfRange("≥ 0"));
            }
            set(&mut o.c, c)
        },
        show: |o| Some(o.c.to_string()),
    },
    OptionDef {
        name: "reuse",
        alias: None,
        value: "yes|no",
        doc: "keep the subtree of the position reached between moves",
        read: |o, v| set(&mut o.reuse, boolean(v)?),
        show: |o| Some(if o.reuse { "yes" } else { "no" }.into()),
    },
    shared_option!(limit),
    OptionDef {
        name: "cutoff",
        alias: None,
        value: "N",
        doc: "playouts stop after this many moves and the heuristic judges the position",
        read: |o, v| set(&mut o.cutoff, Some(integer(v, "a number of moves")?)),
        show: |o| some(&o.cutoff),
    },
    shared_option!(
        heuristic,
        "heuristic for cutoff: auto, pieces, mobility, score, eval, none"
    ),
    shared_option!(scale),
    shared_option!(seed),
];

impl StrategyOptions for MctsOpts {
    fn table(&self) -> &'static [OptionDef<Self>] {
        MCTS_OPTIONS
    }
}

/// Reads `key=value,...` into `o` through its table.
fn read_options<O: StrategyOptions>(strategy: &str, mut o: O, rest: &str) -> Result<O, AiError> {
    let table = o.table();
    let options = || table.iter().map(|d| d.name).collect::<Vec<_>>().join(", ");
    let mut seen: Vec<&str> = Vec::new();
    for item in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((key, value)) = item.split_once('=') else {
            return Err(AiError::NotKeyValue {
                strategy: strategy.to_string(),
                item: item.to_string(),
                options: options(),
            });
        };
        let (key, value) = (key.trim(), value.trim());
        let Some(def) = table.iter().find(|d| d.is(key)) else {
            return Err(AiError::UnknownOption {
                strategy: strategy.to_string(),
                option: key.to_string(),
                options: options(),
            });
        };
        if seen.contains(&def.name) {
            return Err(AiError::RepeatedOption {
                strategy: strategy.to_string(),
                option: def.name.to_string(),
            });
        }
        seen.push(def.name);
        (def.read)(&mut o, value).map_err(|problem| AiError::BadValue {
            strategy: strategy.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            problem: Box::new(problem),
        })?;
    }
    o.check().map_err(|message| AiError::OptionConflict {
        strategy: strategy.to_string(),
        message,
    })?;
    Ok(o)
}

/// `key=value` of every option of `o` that differs from the default.
fn show_options<O: StrategyOptions>(o: &O) -> Vec<String> {
    let d = O::default();
    o.table()
        .iter()
        .filter_map(|def| {
            let v = (def.show)(o)?;
            ((def.show)(&d).as_deref() != Some(v.as_str())).then(|| format!("{}={v}", def.name))
        })
        .collect()
}

/// One option as documented in help.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionHelp {
    pub name: &'static str,
    pub alias: Option<&'static str>,
    pub value: &'static str,
    pub doc: &'static str,
    /// The default value; `None` when unset by default.
    pub default: Option<String>,
}

fn help_of<O: StrategyOptions>(o: O) -> Vec<OptionHelp> {
    o.table()
        .iter()
        .map(|def| OptionHelp {
            name: def.name,
            alias: def.alias,
            value: def.value,
            doc: def.doc,
            default: (def.show)(&o),
        })
        .collect()
}

/// A strategy: its name, what it does, and how its options are read.
pub struct StrategyDef {
    pub name: &'static str,
    /// Another accepted name.
    pub alias: Option<&'static str>,
    pub doc: &'static str,
    /// Reads the options part (after `name:`).
    parse: fn(&str, &str) -> Result<Spec, AiError>,
    /// The documented options with their defaults.
    help: fn() -> Vec<OptionHelp>,
}

impl StrategyDef {
    /// The options with their defaults, for help.
    pub fn options(&self) -> Vec<OptionHelp> {
        (self.help)()
    }
}

fn puzzle(kind: PuzzleKind) -> PuzzleOpts {
    PuzzleOpts {
        kind,
        ..Default::default()
    }
}

fn stochastic() -> MinimaxOpts {
    MinimaxOpts {
        stochastic: true,
        ..Default::default()
    }
}

/// Every strategy, in the order help lists them.
pub const STRATEGIES: &[StrategyDef] = &[
    StrategyDef {
        name: "random",
        alias: None,
        doc: "a uniformly random legal move",
        parse: |n, r| Ok(Spec::Random(read_options(n, RandomOpts::default(), r)?)),
        help: || help_of(RandomOpts::default()),
    },
    StrategyDef {
        name: "dfs",
        alias: None,
        doc: "puzzles: depth-first search (some solution)",
        parse: |n, r| Ok(Spec::Puzzle(read_options(n, puzzle(PuzzleKind::Dfs), r)?)),
        help: || help_of(puzzle(PuzzleKind::Dfs)),
    },
    StrategyDef {
        name: "bfs",
        alias: None,
        doc: "puzzles: breadth-first search (fewest moves)",
        parse: |n, r| Ok(Spec::Puzzle(read_options(n, puzzle(PuzzleKind::Bfs), r)?)),
        help: || help_of(puzzle(PuzzleKind::Bfs)),
    },
    StrategyDef {
        name: "astar",
        alias: None,
        doc: "puzzles: A* (cheapest solution)",
        parse: |n, r| Ok(Spec::Puzzle(read_options(n, puzzle(PuzzleKind::Astar), r)?)),
        help: || help_of(puzzle(PuzzleKind::Astar)),
    },
    StrategyDef {
        name: "minimax",
        alias: None,
        doc: "fixed-depth minimax (paranoid for more than two players)",
        parse: |n, r| Ok(Spec::Minimax(read_options(n, MinimaxOpts::default(), r)?)),
        help: || help_of(MinimaxOpts::default()),
    },
    StrategyDef {
        name: "minimax-stochastic",
        alias: None,
        doc: "minimax choosing at random among nearly best root moves",
        parse: |n, r| Ok(Spec::Minimax(read_options(n, stochastic(), r)?)),
        help: || help_of(stochastic()),
    },
    StrategyDef {
        name: "alphabeta",
        alias: None,
        doc: "iterative-deepening alpha-beta with a transposition table",
        parse: |n, r| {
            Ok(Spec::AlphaBeta(read_options(
                n,
                AlphaBetaOpts::default(),
                r,
            )?))
        },
        help: || help_of(AlphaBetaOpts::default()),
    },
    StrategyDef {
        name: "mc",
        alias: None,
        doc: "flat Monte Carlo: random playouts per root move",
        parse: |n, r| Ok(Spec::Mc(read_options(n, McOpts::default(), r)?)),
        help: || help_of(McOpts::default()),
    },
    StrategyDef {
        name: "mcts",
        alias: Some("uct"),
        doc: "Monte Carlo tree search (UCT), optionally on several threads",
        parse: |n, r| Ok(Spec::Mcts(read_options(n, MctsOpts::default(), r)?)),
        help: || help_of(MctsOpts::default()),
    },
];

/// The strategy named `name` (or its alias).
pub fn find_strategy(name: &str) -> Option<&'static StrategyDef> {
    STRATEGIES
        .iter()
        .find(|s| s.name == name || s.alias == Some(name))
}

fn strategy_names() -> String {
    STRATEGIES
        .iter()
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The strategies and their options with types, defaults and documentation,
/// generated from [`STRATEGIES`] (for `--help` and error messages).
pub fn strategy_help() -> String {
    help_text(STRATEGIES.iter())
}

/// [`strategy_help`] for some strategies only (e.g. the puzzle searches).
pub fn strategy_help_of(names: &[&str]) -> String {
    help_text(STRATEGIES.iter().filter(|s| names.contains(&s.name)))
}

fn help_text<'a>(strategies: impl Iterator<Item = &'a StrategyDef>) -> String {
    let mut out = String::new();
    for s in strategies {
        let alias = s.alias.map(|a| format!(" (or {a})")).unwrap_or_default();
        out.push_str(&format!("{}{alias} — {}\n", s.name, s.doc));
        for o in s.options() {
            let key = match o.alias {
                Some(a) => format!("{}|{a}", o.name),
                None => o.name.to_string(),
            };
            let default = o
                .default
                .map(|d| format!(" [default {d}]"))
                .unwrap_or_default();
            out.push_str(&format!(
                "    {:<22} {}{default}\n",
                format!("{key}={}", o.value),
                o.doc
            ));
        }
    }
    out.push_str(
        "Write NAME or NAME:key=value,key=value. \
         T is a duration (1s, 500ms, 1.5s, 2m); N an integer; X a number;\n\
         H a heuristic (auto, pieces, mobility, score, eval, none).\n",
    );
    out
}

impl FromStr for Spec {
    type Err = AiError;

    fn from_str(s: &str) -> Result<Spec, AiError> {
        let s = s.trim();
        let (name, rest) = s.split_once(':').unwrap_or((s, ""));
        let name = name.trim();
        let def = find_strategy(name).ok_or_else(|| AiError::UnknownStrategy {
            name: name.to_string(),
            available: strategy_names(),
        })?;
        (def.parse)(def.name, rest)
    }
}

impl Spec {
    /// The strategy's name (`mcts`, `alphabeta`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Spec::Random(_) => "random",
            Spec::Puzzle(p) => match p.kind {
                PuzzleKind::Dfs => "dfs",
                PuzzleKind::Bfs => "bfs",
                PuzzleKind::Astar => "astar",
            },
            Spec::Minimax(m) if m.stochastic => "minimax-stochastic",
            Spec::Minimax(_) => "minimax",
            Spec::AlphaBeta(_) => "alphabeta",
            Spec::Mc(_) => "mc",
            Spec::Mcts(_) => "mcts",
        }
    }

    /// The random seed, for strategies that take one.
    fn seed_mut(&mut self) -> Option<&mut Option<u64>> {
        match self {
            Spec::Random(r) => Some(&mut r.seed),
            Spec::Puzzle(_) => None,
            Spec::Minimax(m) => Some(&mut m.seed),
            Spec::AlphaBeta(a) => Some(&mut a.seed),
            Spec::Mc(m) => Some(&mut m.seed),
            Spec::Mcts(m) => Some(&mut m.seed),
        }
    }

    /// The same strategy with `seed` filled in if the string did not set one, so a
    /// tournament (or the planner) can give every game its own reproducible randomness.
    /// Strategies without a seed are returned unchanged.
    pub fn with_default_seed(&self, seed: u64) -> Spec {
        let mut s = self.clone();
        if let Some(slot) = s.seed_mut() {
            slot.get_or_insert(seed);
        }
        s
    }

    /// The same strategy with a time budget when it is an anytime search
    /// (`alphabeta`, `mc`, `mcts`) and the string set no budget of its own
    /// (`time`, or `depth`/`playouts`/`iterations`). Others are returned unchanged.
    pub fn with_default_time(&self, budget: Duration) -> Spec {
        let mut s = self.clone();
        let slot = match &mut s {
            Spec::AlphaBeta(a) if a.depth.is_none() => Some(&mut a.time),
            Spec::Mc(m) if m.playouts.is_none() => Some(&mut m.time),
            Spec::Mcts(m) if m.iterations.is_none() => Some(&mut m.time),
            _ => None,
        };
        if let Some(slot) = slot {
            slot.get_or_insert(budget);
        }
        s
    }

    /// Whether the strategy may use several threads.
    pub fn threads(&self) -> usize {
        match self {
            Spec::Mcts(m) => m.threads,
            _ => 1,
        }
    }

    fn options_text(&self) -> Vec<String> {
        match self {
            Spec::Random(o) => show_options(o),
            Spec::Puzzle(o) => show_options(o),
            Spec::Minimax(o) => show_options(o),
            Spec::AlphaBeta(o) => show_options(o),
            Spec::Mc(o) => show_options(o),
            Spec::Mcts(o) => show_options(o),
        }
    }
}

/// Canonical form: the name and every option that differs from its default.
impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = self.options_text();
        if o.is_empty() {
            f.write_str(self.name())
        } else {
            write!(f, "{}:{}", self.name(), o.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_examples_parse() {
        for s in [
            "random",
            "dfs",
            "bfs",
            "astar",
            "minimax:depth=3",
            "minimax-stochastic:depth=3,margin=0.1",
            "alphabeta:time=1s",
            "alphabeta:depth=6",
            "alphabeta:depth=3,ext=0",
            "minimax:depth=2,ext=2,heuristic=pieces",
            "mc:playouts=500",
            "mcts:time=1s,threads=2",
            "mcts:iterations=20000,seed=7",
            "mcts:time=1s,cutoff=4,heuristic=eval",
        ] {
            let spec: Spec = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
            // The canonical form parses back to the same spec.
            let again: Spec = spec.to_string().parse().unwrap();
            assert_eq!(again, spec, "{s} -> {spec}");
        }
    }

    #[test]
    fn options_are_read() {
        let Spec::Mcts(m) = "mcts:time=1.5s,threads=2,c=1.2,reuse=no".parse().unwrap() else {
            panic!()
        };
        assert_eq!(m.time, Some(Duration::from_millis(1500)));
        assert_eq!((m.threads, m.c, m.reuse), (2, 1.2, false));
        let Spec::AlphaBeta(a) = "alphabeta:time=250ms,heuristic=eval".parse().unwrap() else {
            panic!()
        };
        assert_eq!(a.time, Some(Duration::from_millis(250)));
        assert_eq!(a.heuristic, Heuristic::Eval);
        assert_eq!(
            "alphabeta:time=250ms".parse::<Spec>().unwrap().to_string(),
            "alphabeta:time=250ms"
        );
        assert_eq!(
            "mcts:time=2s".parse::<Spec>().unwrap().to_string(),
            "mcts:time=2s"
        );
    }

    #[test]
    fn errors_name_what_exists() {
        let e = "montecarlo".parse::<Spec>().unwrap_err().to_string();
        assert!(
            e.contains("unknown strategy `montecarlo`")
                && e.contains("mcts")
                && e.contains("alphabeta"),
            "{e}"
        );
        let e = "mcts:iters=5".parse::<Spec>().unwrap_err().to_string();
        assert!(
            e.contains("unknown option `iters`") && e.contains("iterations"),
            "{e}"
        );
        let e = "alphabeta:depth=x".parse::<Spec>().unwrap_err().to_string();
        assert!(e.contains("depth=x"), "{e}");
        let e = "alphabeta:time=3parsecs"
            .parse::<Spec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("unit"), "{e}");
        assert!("minimax:depth=0".parse::<Spec>().is_err());
        assert!("minimax:margin=0.1".parse::<Spec>().is_err());
        assert!("mcts:threads=0".parse::<Spec>().is_err());
        assert!("bfs:cost=score".parse::<Spec>().is_err());
        assert!("mcts:seed".parse::<Spec>().is_err());
        assert!("mcts:seed=1,seed=2".parse::<Spec>().is_err());
    }

    #[test]
    fn default_seed_fills_only_missing_seeds() {
        let s: Spec = "mcts:seed=7".parse().unwrap();
        assert_eq!(s.with_default_seed(3), s);
        let s: Spec = "mcts".parse().unwrap();
        assert_eq!(s.with_default_seed(3).to_string(), "mcts:seed=3");
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("0.5").unwrap(), Duration::from_millis(500));
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("").is_err());
    }
}
