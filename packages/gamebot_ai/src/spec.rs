//! Strategy strings: `name[:key=value,...]`, shared by the CLI, the planner node
//! parameters and tournaments. E.g. `alphabeta:depth=6`, `mcts:time=1s,threads=2`.

use crate::error::AiError;
use crate::heuristic::Heuristic;
use std::fmt::{self, Write as _};
use std::str::FromStr;
use std::time::Duration;

/// The strategies and their options, for error messages and `--help`.
pub const STRATEGY_HELP: &str = "\
random[:seed=N]
dfs|bfs|astar[:nodes=N,time=T,depth=N,cost=moves|score|-score,heuristic=auto|eval|none]
minimax[:depth=N,ext=N,heuristic=H,scale=X,seed=N]
minimax-stochastic[:depth=N,margin=X,ext=N,heuristic=H,scale=X,seed=N]
alphabeta[:depth=N,time=T,nodes=N,ext=N,tt=MB,heuristic=H,scale=X,seed=N]
mc[:playouts=N,time=T,variant=mean|wins|score,limit=N,seed=N]
mcts[:iterations=N,time=T,threads=N,c=X,reuse=yes|no,limit=N,cutoff=N,heuristic=H,scale=X,seed=N]
(T: 1s, 500ms, 1.5s, 2m; H: auto, pieces, mobility, score, eval, none;
 ext: plies searched past the depth while the same player moves again, default 4)";

const NAMES: &str = "random, dfs, bfs, astar, minimax, minimax-stochastic, alphabeta, mc, mcts";

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
    /// Playouts per root move.
    pub playouts: u64,
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
    Random { seed: Option<u64> },
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
            playouts: 100,
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

/// Parses a duration: `1s`, `500ms`, `1.5s`, `2m`, or a plain number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (e.g. 1s, 500ms, 1.5s, 2m)"))?;
    let secs = match unit {
        "ms" => v / 1000.0,
        "s" => v,
        "m" | "min" => v * 60.0,
        "h" => v * 3600.0,
        _ => return Err(format!("`{s}`: unknown time unit `{unit}` (ms, s, m, h)")),
    };
    if !(secs.is_finite() && secs > 0.0 && secs < 1e7) {
        return Err(format!("`{s}` must be a positive duration"));
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

struct Opts<'a> {
    strategy: &'a str,
    known: &'a [&'a str],
    items: Vec<(&'a str, &'a str)>,
}

impl<'a> Opts<'a> {
    fn bad(&self, message: String) -> AiError {
        AiError::BadOption {
            strategy: self.strategy.to_string(),
            message,
        }
    }
    fn parse<T: FromStr>(&self, key: &str, v: &str, what: &str) -> Result<T, AiError> {
        v.parse()
            .map_err(|_| self.bad(format!("`{key}={v}`: expected {what}")))
    }
}

fn split<'a>(strategy: &'a str, rest: &'a str, known: &'a [&'a str]) -> Result<Opts<'a>, AiError> {
    let mut o = Opts {
        strategy,
        known,
        items: Vec::new(),
    };
    for item in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((k, v)) = item.split_once('=') else {
            return Err(o.bad(format!(
                "option `{item}` must be key=value; options: {}",
                known.join(", ")
            )));
        };
        let (k, v) = (k.trim(), v.trim());
        if !known.contains(&k) {
            return Err(o.bad(format!(
                "unknown option `{k}`; options: {}",
                known.join(", ")
            )));
        }
        if o.items.iter().any(|(x, _)| *x == k) {
            return Err(o.bad(format!("option `{k}` given twice")));
        }
        o.items.push((k, v));
    }
    let _ = o.known;
    Ok(o)
}

fn positive<T: PartialOrd + Default + Copy>(
    o: &Opts,
    k: &str,
    v: &str,
    x: T,
) -> Result<T, AiError> {
    if x > T::default() {
        Ok(x)
    } else {
        Err(o.bad(format!("`{k}={v}` must be positive")))
    }
}

fn ext(o: &Opts, k: &str, v: &str) -> Result<u32, AiError> {
    let x: u32 = o.parse(k, v, "a number of plies")?;
    if x > 64 {
        return Err(o.bad(format!("`{k}={v}` must be at most 64")));
    }
    Ok(x)
}

fn parse_bool(o: &Opts, k: &str, v: &str) -> Result<bool, AiError> {
    match v {
        "yes" | "true" | "on" | "1" => Ok(true),
        "no" | "false" | "off" | "0" => Ok(false),
        _ => Err(o.bad(format!("`{k}={v}`: expected yes or no"))),
    }
}

impl FromStr for Spec {
    type Err = AiError;

    fn from_str(s: &str) -> Result<Spec, AiError> {
        let s = s.trim();
        let (name, rest) = s.split_once(':').unwrap_or((s, ""));
        let name = name.trim();
        match name {
            "random" => {
                let o = split(name, rest, &["seed"])?;
                let mut seed = None;
                for (k, v) in &o.items {
                    if *k == "seed" {
                        seed = Some(o.parse(k, v, "an integer")?);
                    }
                }
                Ok(Spec::Random { seed })
            }
            "dfs" | "bfs" | "astar" => {
                let o = split(
                    name,
                    rest,
                    &["nodes", "time", "depth", "cost", "heuristic", "h"],
                )?;
                let mut p = PuzzleOpts {
                    kind: match name {
                        "dfs" => PuzzleKind::Dfs,
                        "bfs" => PuzzleKind::Bfs,
                        _ => PuzzleKind::Astar,
                    },
                    ..Default::default()
                };
                for (k, v) in &o.items {
                    match *k {
                        "nodes" => p.nodes = positive(&o, k, v, o.parse(k, v, "a number")?)?,
                        "time" => p.time = Some(parse_duration(v).map_err(|e| o.bad(e))?),
                        "depth" => p.depth = Some(positive(&o, k, v, o.parse(k, v, "a number")?)?),
                        "cost" => {
                            p.cost = match *v {
                                "moves" => Cost::Moves,
                                "score" => Cost::Score,
                                "-score" | "negscore" => Cost::NegScore,
                                _ => {
                                    return Err(o.bad(format!(
                                        "`cost={v}`: expected moves, score or -score"
                                    )))
                                }
                            }
                        }
                        _ => {
                            p.heuristic = match *v {
                                "auto" => PuzzleHeuristic::Auto,
                                "eval" => PuzzleHeuristic::Eval,
                                "none" | "zero" => PuzzleHeuristic::Zero,
                                _ => {
                                    return Err(
                                        o.bad(format!("`{k}={v}`: expected auto, eval or none"))
                                    )
                                }
                            }
                        }
                    }
                }
                if p.kind != PuzzleKind::Astar && p.cost != Cost::Moves {
                    return Err(
                        o.bad("only astar weighs moves by cost; dfs and bfs count moves".into())
                    );
                }
                Ok(Spec::Puzzle(p))
            }
            "minimax" | "minimax-stochastic" => {
                let stochastic = name == "minimax-stochastic";
                let known: &[&str] = if stochastic {
                    &["depth", "ext", "heuristic", "h", "scale", "seed", "margin"]
                } else {
                    &["depth", "ext", "heuristic", "h", "scale", "seed"]
                };
                let o = split(name, rest, known)?;
                let mut m = MinimaxOpts {
                    stochastic,
                    ..Default::default()
                };
                for (k, v) in &o.items {
                    match *k {
                        "depth" => m.depth = positive(&o, k, v, o.parse(k, v, "a number")?)?,
                        "ext" => m.ext = ext(&o, k, v)?,
                        "heuristic" | "h" => m.heuristic = v.parse().map_err(|e| o.bad(e))?,
                        "scale" => m.scale = Some(positive(&o, k, v, o.parse(k, v, "a number")?)?),
                        "seed" => m.seed = Some(o.parse(k, v, "an integer")?),
                        _ => {
                            let x: f64 = o.parse(k, v, "a number")?;
                            if !(0.0..=2.0).contains(&x) {
                                return Err(o.bad(format!("`margin={v}` must be between 0 and 2")));
                            }
                            m.margin = x;
                        }
                    }
                }
                Ok(Spec::Minimax(m))
            }
            "alphabeta" => {
                let o = split(
                    name,
                    rest,
                    &[
                        "depth",
                        "time",
                        "ext",
                        "nodes",
                        "tt",
                        "heuristic",
                        "h",
                        "scale",
                        "seed",
                    ],
                )?;
                let mut a = AlphaBetaOpts::default();
                for (k, v) in &o.items {
                    match *k {
                        "depth" => a.depth = Some(positive(&o, k, v, o.parse(k, v, "a number")?)?),
                        "time" => a.time = Some(parse_duration(v).map_err(|e| o.bad(e))?),
                        "ext" => a.ext = ext(&o, k, v)?,
                        "nodes" => a.nodes = Some(positive(&o, k, v, o.parse(k, v, "a number")?)?),
                        "tt" => {
                            let x: usize = o.parse(k, v, "a size in MiB")?;
                            if !(1..=65536).contains(&x) {
                                return Err(o.bad(format!("`tt={v}` must be 1..65536 MiB")));
                            }
                            a.tt_mb = x;
                        }
                        "heuristic" | "h" => a.heuristic = v.parse().map_err(|e| o.bad(e))?,
                        "scale" => a.scale = Some(positive(&o, k, v, o.parse(k, v, "a number")?)?),
                        _ => a.seed = Some(o.parse(k, v, "an integer")?),
                    }
                }
                Ok(Spec::AlphaBeta(a))
            }
            "mc" => {
                let o = split(
                    name,
                    rest,
                    &["playouts", "time", "variant", "limit", "seed"],
                )?;
                let mut m = McOpts::default();
                for (k, v) in &o.items {
                    match *k {
                        "playouts" => m.playouts = positive(&o, k, v, o.parse(k, v, "a number")?)?,
                        "time" => m.time = Some(parse_duration(v).map_err(|e| o.bad(e))?),
                        "limit" => m.limit = positive(&o, k, v, o.parse(k, v, "a number")?)?,
                        "seed" => m.seed = Some(o.parse(k, v, "an integer")?),
                        _ => {
                            m.variant = match *v {
                                "mean" | "mean-score" => McVariant::Mean,
                                "wins" | "win-ratio" => McVariant::Wins,
                                "score" => McVariant::Score,
                                _ => {
                                    return Err(o.bad(format!(
                                        "`variant={v}`: expected mean, wins or score"
                                    )))
                                }
                            }
                        }
                    }
                }
                Ok(Spec::Mc(m))
            }
            "mcts" | "uct" => {
                let o = split(
                    name,
                    rest,
                    &[
                        "iterations",
                        "time",
                        "threads",
                        "c",
                        "cutoff",
                        "heuristic",
                        "h",
                        "scale",
                        "reuse",
                        "limit",
                        "seed",
                    ],
                )?;
                let mut m = MctsOpts::default();
                for (k, v) in &o.items {
                    match *k {
                        "iterations" => {
                            m.iterations = Some(positive(&o, k, v, o.parse(k, v, "a number")?)?)
                        }
                        "time" => m.time = Some(parse_duration(v).map_err(|e| o.bad(e))?),
                        "threads" => {
                            let t: usize = o.parse(k, v, "a number")?;
                            if !(1..=256).contains(&t) {
                                return Err(o.bad(format!("`threads={v}` must be 1..256")));
                            }
                            m.threads = t;
                        }
                        "c" => {
                            let c: f64 = o.parse(k, v, "a number")?;
                            if !(c.is_finite() && c >= 0.0) {
                                return Err(o.bad(format!("`c={v}` must be ≥ 0")));
                            }
                            m.c = c;
                        }
                        "reuse" => m.reuse = parse_bool(&o, k, v)?,
                        "cutoff" => m.cutoff = Some(o.parse(k, v, "a number of moves")?),
                        "heuristic" | "h" => m.heuristic = v.parse().map_err(|e| o.bad(e))?,
                        "scale" => m.scale = Some(positive(&o, k, v, o.parse(k, v, "a number")?)?),
                        "limit" => m.limit = positive(&o, k, v, o.parse(k, v, "a number")?)?,
                        _ => m.seed = Some(o.parse(k, v, "an integer")?),
                    }
                }
                Ok(Spec::Mcts(m))
            }
            _ => Err(AiError::UnknownStrategy {
                name: name.to_string(),
                available: NAMES.to_string(),
            }),
        }
    }
}

impl Spec {
    /// The strategy's name (`mcts`, `alphabeta`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Spec::Random { .. } => "random",
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

    /// The same strategy with `seed` filled in if the string did not set one, so a
    /// tournament can give every game its own reproducible randomness.
    pub fn with_default_seed(&self, seed: u64) -> Spec {
        let mut s = self.clone();
        let slot = match &mut s {
            Spec::Random { seed } => Some(seed),
            Spec::Puzzle(_) => None,
            Spec::Minimax(m) => Some(&mut m.seed),
            Spec::AlphaBeta(a) => Some(&mut a.seed),
            Spec::Mc(m) => Some(&mut m.seed),
            Spec::Mcts(m) => Some(&mut m.seed),
        };
        if let Some(slot) = slot {
            slot.get_or_insert(seed);
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
}

/// Canonical form: the name and every option that differs from its default.
impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut o = String::new();
        let mut add = |k: &str, v: String| {
            let _ = write!(o, "{}{k}={v}", if o.is_empty() { "" } else { "," });
        };
        match self {
            Spec::Random { seed } => {
                if let Some(s) = seed {
                    add("seed", s.to_string());
                }
            }
            Spec::Puzzle(p) => {
                let d = PuzzleOpts::default();
                if p.nodes != d.nodes {
                    add("nodes", p.nodes.to_string());
                }
                if let Some(t) = p.time {
                    add("time", fmt_duration(t));
                }
                if let Some(x) = p.depth {
                    add("depth", x.to_string());
                }
                match p.cost {
                    Cost::Moves => {}
                    Cost::Score => add("cost", "score".into()),
                    Cost::NegScore => add("cost", "-score".into()),
                }
                match p.heuristic {
                    PuzzleHeuristic::Auto => {}
                    PuzzleHeuristic::Eval => add("heuristic", "eval".into()),
                    PuzzleHeuristic::Zero => add("heuristic", "none".into()),
                }
            }
            Spec::Minimax(m) => {
                add("depth", m.depth.to_string());
                if m.ext != DEFAULT_EXT {
                    add("ext", m.ext.to_string());
                }
                if m.stochastic {
                    add("margin", m.margin.to_string());
                }
                if m.heuristic != Heuristic::Auto {
                    add("heuristic", m.heuristic.to_string());
                }
                if let Some(s) = m.scale {
                    add("scale", s.to_string());
                }
                if let Some(s) = m.seed {
                    add("seed", s.to_string());
                }
            }
            Spec::AlphaBeta(a) => {
                if let Some(x) = a.depth {
                    add("depth", x.to_string());
                }
                if let Some(t) = a.time {
                    add("time", fmt_duration(t));
                }
                if a.ext != DEFAULT_EXT {
                    add("ext", a.ext.to_string());
                }
                if let Some(n) = a.nodes {
                    add("nodes", n.to_string());
                }
                if a.tt_mb != AlphaBetaOpts::default().tt_mb {
                    add("tt", a.tt_mb.to_string());
                }
                if a.heuristic != Heuristic::Auto {
                    add("heuristic", a.heuristic.to_string());
                }
                if let Some(s) = a.scale {
                    add("scale", s.to_string());
                }
                if let Some(s) = a.seed {
                    add("seed", s.to_string());
                }
            }
            Spec::Mc(m) => {
                let d = McOpts::default();
                add("playouts", m.playouts.to_string());
                if let Some(t) = m.time {
                    add("time", fmt_duration(t));
                }
                match m.variant {
                    McVariant::Mean => {}
                    McVariant::Wins => add("variant", "wins".into()),
                    McVariant::Score => add("variant", "score".into()),
                }
                if m.limit != d.limit {
                    add("limit", m.limit.to_string());
                }
                if let Some(s) = m.seed {
                    add("seed", s.to_string());
                }
            }
            Spec::Mcts(m) => {
                let d = MctsOpts::default();
                if let Some(i) = m.iterations {
                    add("iterations", i.to_string());
                }
                if let Some(t) = m.time {
                    add("time", fmt_duration(t));
                }
                if m.threads != d.threads {
                    add("threads", m.threads.to_string());
                }
                if m.c != d.c {
                    add("c", m.c.to_string());
                }
                if m.reuse != d.reuse {
                    add("reuse", if m.reuse { "yes" } else { "no" }.into());
                }
                if m.limit != d.limit {
                    add("limit", m.limit.to_string());
                }
                if let Some(c) = m.cutoff {
                    add("cutoff", c.to_string());
                }
                if m.heuristic != Heuristic::Auto {
                    add("heuristic", m.heuristic.to_string());
                }
                if let Some(s) = m.scale {
                    add("scale", s.to_string());
                }
                if let Some(s) = m.seed {
                    add("seed", s.to_string());
                }
            }
        }
        if o.is_empty() {
            f.write_str(self.name())
        } else {
            write!(f, "{}:{o}", self.name())
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
