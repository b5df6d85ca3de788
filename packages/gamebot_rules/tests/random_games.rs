//! Random rule files: the compiled form against the reference evaluator.
//!
//! A small grammar-driven generator writes whole game files from a seed
//! (`ChaCha8Rng`, so a seed always gives the same text), mixing the
//! language's constructs freely so that the interactions of the compiled
//! form's fast paths get exercised (hoisted and tabulated conditions, kept
//! scans, memoized calls, functions inlined over registers, shared target
//! sets, specialized targets, incremental end-of-game checks, …). Each game
//! that loads is played with two scratches, one compiled and one with the
//! tree-walking reference evaluator (`Scratch::set_reference_evaluator`),
//! each reused across all playouts of that game (memo tables, kept values and
//! epochs carry over). At every ply the legal-move lists (or the errors) must
//! be equal; the chosen move is applied with each scratch to its own copy of
//! the state, and the results (state `Debug`, every element's location,
//! state, owner and z-index, or the error) must be equal; an `[EVALUATION]`,
//! when the game has one, must give the same value. Some playouts run with a
//! small step budget (the same on both scratches), so that budget exhaustion
//! is compared too, and every other playout on the compiled side goes through
//! `legal_moves_of` / `apply_legal` (moves applied as found legal).
//!
//! Two allowed differences (both documented by the engine): the compiled form
//! may take fewer budget steps than the reference evaluator (kept values,
//! memo entries, residuals), so where the reference evaluator runs out of
//! budget and the compiled form does not, the reference evaluator is asked
//! again with the default budget and must then give what the compiled form
//! gave (the playout stops there); and the depth at which a recursion is
//! "too deep" depends on the evaluators' frame sizes, so the numbers in that
//! message are not compared (as in `src/tests.rs`), and a recursion too deep
//! for the reference evaluator only stops the playout.
//!
//! What the generator emits:
//! - a grid board `s(X,Y)` of random size, sometimes a track `t(K)`, supplies
//!   `sup(P,K)` and bins `bin(P,K)` (relevant or not), a switch token on
//!   `sw(1)`/`sw(2)`, a plain `flagpos` holding a `flag` element with three
//!   states (a game phase, as the original authors' Reversi);
//! - two or three players, pieces named per player (`a(N)`, `b(N)`, `c(N)`)
//!   or shared names with owners (`m(N)`, `player=`), several element types
//!   with several states, random initial states, z-indexes, pieces placed on
//!   the board or left in the supply;
//! - `[EXPRESSIONS]` in two styles, mixed: lean functions and the "original
//!   authors' style" (`IsValid` checks of interpolated names that fall off
//!   the board, targets built step by step with `$RET = $RET UNION {...}`
//!   inside `IF`, lazy `[target, Followup(..)]` pairs, counting `FORALL`s,
//!   `FORSOME` scans, nested loops in end checks, captures moved to a bin with
//!   `FORSOME($I, B, 1, MOVE(...))`, helpers whose locals the caller reads,
//!   variables shared between functions, bounded recursion), plus random
//!   functions of every kind (Bool, Int, location, set, targets, effects)
//!   whose bodies come from a typed random expression grammar: arithmetic,
//!   comparisons, `AND`/`OR`/`NOT`, `IF`, `FORALL`/`FORSOME` over literal,
//!   variable and descending ranges, `EMPTY`/`CONTENT`/`OWNER`/`STATE`/
//!   `ZINDEX`/`LOCATION`/`LOCTYPE`/`ELTYPE`/`INDEX`/`INDEXA`/`UNINDEX` of
//!   literal and interpolated names (on and off the board), set operators,
//!   assignments, calls of calls;
//! - `[GAME RULES]`: placing from supplies, steps and captures on the board,
//!   removal into bins, a track, a switch; `condition=` (often `A AND B`
//!   with `A` over the element and `B` over the target), `toLocations=`,
//!   `followup=` (`NEXTPLAYER`, `SETSTATE`, `MOVE`, effect functions, turns
//!   passed only sometimes), `player=` literals and variables, `state=`,
//!   `awardPlayer`/`withScore`;
//! - `[SCORINGS]`, `[END OF GAME]` (counts, lines, occupied cells, scores,
//!   the flag, computed winners) and sometimes `[EVALUATION]`.
//!
//! One generated file in eight is mutated a little (a character, a line or a
//! number changed) to exercise the loader's error paths, which must never
//! panic; most of those and a few others do not load. They are counted, and
//! at least 60 % must load (about 90 % do). Evaluation errors at run time are
//! fine as long as both evaluators give the same one.
//!
//! Running:
//! - `cargo test -p gamebot_rules --test random_games` plays the default
//!   games (seeds `0..DEFAULT_GAMES`);
//! - `GAMEBOT_RANDOM_GAMES=N` plays seeds `0..N` instead (long runs: use
//!   `--release`), `GAMEBOT_RANDOM_GAMES_FIRST=F` starts at seed F;
//! - `GAMEBOT_RANDOM_GAMES_SEED=S` plays just seed S and prints its text;
//! - `GAMEBOT_RANDOM_GAMES_FILE=path` plays a game file (a hand-minimised
//!   reproducer) through the same comparison (its playouts are those of
//!   seed `GAMEBOT_RANDOM_GAMES_SEED`, default 0);
//! - `GAMEBOT_RANDOM_GAMES_KEEP_GOING=1` reports every failing seed at the
//!   end instead of stopping at the first one;
//!
//! A failure message holds the seed, the ply and the whole game text: save
//! the text as a file and run it with `GAMEBOT_RANDOM_GAMES_FILE`, or rerun
//! the seed. Reproducers found so far are kept in `tests/data/random-games/`
//! (a header says what disagreed) and played by `saved_reproducers_agree`;
//! add the next one there once minimised.
//!
//! Extending: add a construct to the typed generators (`int`, `bool`, `loc`,
//! `elem`, `set`, `targets`, `effect`), a template function to
//! `Gen::templates`, or a rule shape to `Gen::rules`; keep the failure rate
//! of loading and of the first plies low (the statistics printed with
//! `--nocapture` tell), or the new construct only tests error paths.

use gamebot_rules::{Game, LegalMoves, Move, State};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Games played by default (seeds `0..DEFAULT_GAMES`).
const DEFAULT_GAMES: u64 = 500;
/// Playouts per game.
const PLAYOUTS: u64 = 6;
/// Plies per playout at most.
const MAX_PLIES: usize = 40;
/// The step budget of the playouts without a small one: a hundredth of the
/// default, so that a runaway loop costs little (both sides get it).
const BUDGET: u64 = gamebot_rules::DEFAULT_STEP_BUDGET / 100;

// ---------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Bool,
    Int,
    Loc,
    Set,
    Targets,
    Effect,
    /// Never called by generated code (reads its caller's locals).
    Helper,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PKind {
    Int,
    Loc,
}

struct Func {
    name: String,
    params: Vec<(String, PKind)>,
    kind: Kind,
    /// Int variables the body assigns before its first guard: a caller that
    /// called it may read them afterwards (the original authors' `StepAt`).
    outputs: Vec<String>,
    /// Int variables the body reads without binding them: callers bind them
    /// first (variables shared between functions).
    inputs: Vec<String>,
    /// May change the state (callable from followups only).
    effects: bool,
}

#[derive(Clone)]
struct Env {
    ints: Vec<String>,
    strs: Vec<String>,
    effects: bool,
    /// The moved element's name (in a rule's expressions).
    moved: Option<String>,
}

impl Env {
    fn new(ints: &[&str], effects: bool) -> Env {
        Env {
            ints: ints.iter().map(|s| s.to_string()).collect(),
            strs: Vec::new(),
            effects,
            moved: None,
        }
    }
}

struct Gen {
    r: ChaCha8Rng,
    w: i32,
    h: i32,
    track: i32,
    players: i32,
    supply: i32,
    bins: i32,
    per_player: i32,
    owner_style: bool,
    orig: bool,
    flag: bool,
    switch: bool,
    /// Element types (name, states); 0 is `man`, 1 `king`.
    types: Vec<(String, i32)>,
    /// States every piece type has (safe for `SETSTATE` of any piece).
    min_states: i32,
    funcs: Vec<Func>,
    fresh: u32,
    /// The name of the element the rule being generated moves.
    cur_moved: Option<String>,
    /// A variable the rule's condition assigned, for its followup to read
    /// (Nim's followup reads what its condition computed).
    cond_var: Option<String>,
    /// Every move's followup (and every effect function, which deferred
    /// followups call) assigns `$fv` first, and scorings and end checks may
    /// read it (Squares' scoring reads a counter its followup set).
    fv: bool,
    /// The function whose body is being generated calls only functions
    /// below this index (no unbounded recursion).
    callable: usize,
}

const BASES: [&str; 3] = ["a", "b", "c"];

impl Gen {
    fn new(seed: u64) -> Gen {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        let w = r.gen_range(2..=5);
        let h = r.gen_range(2..=5);
        let track = if r.gen_bool(0.3) {
            r.gen_range(3..=6)
        } else {
            0
        };
        let players = if r.gen_bool(0.2) { 3 } else { 2 };
        let per_player = r.gen_range(2..=5);
        let supply = per_player;
        let bins = r.gen_range(1..=per_player + 1);
        let man = r.gen_range(1..=3);
        let king = r.gen_range(1..=3);
        let min_states = man.min(king);
        Gen {
            w,
            h,
            track,
            players,
            supply,
            bins,
            per_player,
            owner_style: r.gen_bool(0.5),
            orig: r.gen_bool(0.5),
            flag: r.gen_bool(0.5),
            switch: r.gen_bool(0.3),
            types: vec![("man".into(), man), ("king".into(), king)],
            min_states,
            funcs: Vec::new(),
            fresh: 0,
            cur_moved: None,
            cond_var: None,
            fv: false,
            callable: 0,
            r,
        }
    }

    fn chance(&mut self, p: f64) -> bool {
        self.r.gen_bool(p)
    }

    fn below(&mut self, n: usize) -> usize {
        self.r.gen_range(0..n)
    }

    fn var(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn pick_str<'a>(&mut self, v: &'a [String]) -> Option<&'a String> {
        v.choose(&mut self.r)
    }

    /// Element name base of player `p` (or the shared `m`).
    fn base(&self, p: i32) -> &'static str {
        if self.owner_style {
            "m"
        } else {
            BASES[(p - 1) as usize]
        }
    }

    fn elem_count(&self) -> i32 {
        if self.owner_style {
            self.per_player * self.players
        } else {
            self.per_player
        }
    }

    fn any_base(&mut self) -> &'static str {
        if self.owner_style {
            "m"
        } else {
            let p = self.r.gen_range(1..=self.players);
            self.base(p)
        }
    }

    // --- leaves -----------------------------------------------------------

    fn int_lit(&mut self) -> String {
        let m = self.w.max(self.h) + 1;
        self.r.gen_range(0..=m).to_string()
    }

    fn int_var(&mut self, env: &Env) -> Option<String> {
        self.pick_str(&env.ints).map(|v| format!("${v}"))
    }

    fn int_leaf(&mut self, env: &Env) -> String {
        match self.below(10) {
            0..=3 => self.int_lit(),
            4..=7 => self.int_var(env).unwrap_or_else(|| self.int_lit()),
            8 => "PLAYER".into(),
            _ => {
                let p = self.r.gen_range(1..=self.players);
                format!("SCORE({p})")
            }
        }
    }

    /// A literal location name, sometimes off the board or unknown.
    fn loc_lit(&mut self) -> String {
        let s = match self.below(12) {
            0..=6 => {
                let off = self.chance(0.15);
                let x = if off {
                    self.r.gen_range(0..=self.w + 1)
                } else {
                    self.r.gen_range(1..=self.w)
                };
                let y = if off {
                    self.r.gen_range(0..=self.h + 1)
                } else {
                    self.r.gen_range(1..=self.h)
                };
                format!("s({x},{y})")
            }
            7 if self.track > 0 => format!("t({})", self.r.gen_range(1..=self.track)),
            8 => format!(
                "sup({},{})",
                self.r.gen_range(1..=self.players),
                self.r.gen_range(1..=self.supply)
            ),
            9 => format!(
                "bin({},{})",
                self.r.gen_range(1..=self.players),
                self.r.gen_range(1..=self.bins)
            ),
            10 if self.flag => "flagpos".into(),
            _ => "nowhere".into(),
        };
        format!("\"{s}\"")
    }

    /// An interpolated location name over bound Int variables.
    fn loc_interp(&mut self, env: &Env) -> Option<String> {
        if env.ints.is_empty() {
            return None;
        }
        let a = self.pick_str(&env.ints).unwrap().clone();
        let b = self.pick_str(&env.ints).unwrap().clone();
        Some(match self.below(8) {
            0..=4 => format!("\"s(${a},${b})\""),
            5 if self.track > 0 => format!("\"t(${a})\""),
            6 => format!("\"bin(${a},${b})\""),
            _ => format!("\"sup(${a},${b})\""),
        })
    }

    fn elem_lit(&mut self) -> String {
        match self.below(10) {
            0..=7 => {
                let b = self.any_base();
                let n = self.r.gen_range(1..=self.elem_count() + 1);
                format!("\"{b}({n})\"")
            }
            8 if self.flag => "\"flag\"".into(),
            8 | 9 if self.switch => "\"sw\"".into(),
            _ => "\"zz(1)\"".into(),
        }
    }

    // --- typed generators ---------------------------------------------------

    fn int(&mut self, env: &Env, d: u32) -> String {
        if d == 0 {
            return self.int_leaf(env);
        }
        let d = d - 1;
        match self.below(20) {
            0..=4 => self.int_leaf(env),
            5 | 6 => {
                let op = ["+", "-", "*", "+", "-"][self.below(5)];
                let a = self.int(env, d);
                let b = self.int(env, d);
                format!("({a}) {op} ({b})")
            }
            7 => {
                let a = self.int(env, d);
                if self.chance(0.8) {
                    let k = self.r.gen_range(1..=4);
                    let op = if self.chance(0.5) { "%" } else { "/" };
                    format!("({a}) {op} {k}")
                } else {
                    let b = self.int(env, d);
                    format!("({a}) / ({b})")
                }
            }
            8 => {
                let a = self.int(env, d);
                if self.chance(0.5) {
                    format!("ABS({a})")
                } else {
                    format!("-({a})")
                }
            }
            9 | 10 => {
                let e = self.elem(env, d);
                let f = ["STATE", "OWNER", "STATE", "OWNER", "ZINDEX"][self.below(5)];
                if f == "ZINDEX" && self.chance(0.7) {
                    // ZINDEX of an unknown element is an error: mostly known.
                    let b = self.any_base();
                    return format!("ZINDEX(\"{b}(1)\")");
                }
                format!("{f}({e})")
            }
            11 => {
                let l = self.loc(env, d);
                let f = if self.chance(0.5) { "STATE" } else { "OWNER" };
                format!("{f}(CONTENT({l}))")
            }
            12 => {
                let c = self.bool(env, d);
                let a = self.int(env, d);
                let b = self.int(env, d);
                format!("IF({c}, {a}, {b})")
            }
            13 => {
                // INDEX / INDEXA of a grid name (an error for other names).
                let l = self
                    .loc_interp(env)
                    .filter(|_| self.chance(0.7))
                    .unwrap_or_else(|| self.loc_lit());
                if self.chance(0.5) {
                    format!("INDEX({l})")
                } else {
                    format!("INDEXA({}, {l})", self.r.gen_range(1..=2))
                }
            }
            14 => {
                // A counting loop.
                let c = self.var("n");
                let v = self.var("i");
                let lo = self.range_bound(env);
                let hi = self.range_bound(env);
                let mut inner = env.clone();
                inner.ints.push(v.clone());
                let test = self.bool(&inner, d.min(2));
                let k = self.r.gen_range(1..=2);
                let body = match self.below(3) {
                    0 => format!("IF({test}, ${c} = ${c} + {k}, true)"),
                    1 => format!("IF({test}, true, ${c} = ${c} + {k})"),
                    _ => {
                        let x = self.int(&inner, 1);
                        format!("(${c} = ${c} + ({x})) OR true")
                    }
                };
                let f = if self.chance(0.8) {
                    "FORALL"
                } else {
                    "FORSOME"
                };
                format!("IF((${c} = 0) AND ({f}(${v}, {lo}, {hi}, {body}) OR true), ${c}, 0)")
            }
            15 => {
                // A guarded read of an occupant.
                let l = self.loc(env, 0);
                let f = if self.chance(0.5) { "OWNER" } else { "STATE" };
                let g = if self.chance(0.3) {
                    format!("({}) AND ", self.bool_leaf(env))
                } else {
                    String::new()
                };
                let dflt = self.int_leaf(env);
                format!("IF({g}NOT EMPTY({l}), {f}(CONTENT({l})), {dflt})")
            }
            _ => self
                .call(env, Kind::Int, d)
                .unwrap_or_else(|| self.int_leaf(env)),
        }
    }

    fn range_bound(&mut self, env: &Env) -> String {
        match self.below(6) {
            0..=3 => self.r.gen_range(0..=self.w.max(self.h)).to_string(),
            4 => self.int_var(env).unwrap_or_else(|| "1".into()),
            _ => format!("{} + 1", self.int_var(env).unwrap_or_else(|| "1".into())),
        }
    }

    fn str_cmp_operand(&mut self, env: &Env, d: u32) -> String {
        match self.below(8) {
            0 | 1 => {
                let l = self.loc(env, d);
                format!("CONTENT({l})")
            }
            2 => {
                let e = self.elem(env, d);
                format!("ELTYPE({e})")
            }
            3 => {
                let l = self.loc(env, d);
                format!("ELTYPE(CONTENT({l}))")
            }
            4 => {
                let e = self.elem(env, d);
                format!("LOCTYPE(LOCATION({e}))")
            }
            5 => {
                let l = self.loc(env, d);
                format!("LOCTYPE({l})")
            }
            6 => {
                let e = self.elem(env, d);
                format!("UNINDEX({e})")
            }
            _ => [
                "\"\"",
                "\"man\"",
                "\"king\"",
                "\"cell\"",
                "\"supply\"",
                "\"bin\"",
            ][self.below(6)]
            .to_string(),
        }
    }

    fn str_lit_for_cmp(&mut self) -> String {
        let mut v = vec![
            "\"\"".to_string(),
            "\"man\"".into(),
            "\"king\"".into(),
            "\"cell\"".into(),
            "\"supply\"".into(),
            "\"bin\"".into(),
        ];
        v.push(format!("\"{}\"", self.any_base()));
        let e = self.elem_lit();
        v.push(e);
        v.choose(&mut self.r).unwrap().clone()
    }

    fn bool_leaf(&mut self, env: &Env) -> String {
        match self.below(8) {
            0 => ["true", "false", "TRUE", "False"][self.below(4)].into(),
            1..=3 => {
                let l = if self.chance(0.6) {
                    self.loc_interp(env).unwrap_or_else(|| self.loc_lit())
                } else {
                    self.loc_lit()
                };
                if self.chance(0.3) {
                    format!("NOT EMPTY({l})")
                } else {
                    format!("EMPTY({l})")
                }
            }
            _ => {
                let op = ["==", "!=", "<", "<=", ">", ">="][self.below(6)];
                let a = self.int_leaf(env);
                let b = self.int_leaf(env);
                format!("({a}) {op} ({b})")
            }
        }
    }

    fn bool(&mut self, env: &Env, d: u32) -> String {
        if d == 0 {
            return self.bool_leaf(env);
        }
        let d = d - 1;
        let n = if env.effects { 30 } else { 26 };
        match self.below(n) {
            0..=3 => self.bool_leaf(env),
            4..=6 => {
                let op = ["==", "!=", "<", "<=", ">", ">="][self.below(6)];
                let a = self.int(env, d);
                let b = self.int(env, d);
                format!("({a}) {op} ({b})")
            }
            7 | 8 => {
                let a = self.str_cmp_operand(env, d);
                let b = if self.chance(0.6) {
                    self.str_lit_for_cmp()
                } else {
                    self.str_cmp_operand(env, d)
                };
                let op = if self.chance(0.7) { "==" } else { "!=" };
                format!("({a}) {op} ({b})")
            }
            9 => {
                let a = self.bool(env, d);
                format!("NOT ({a})")
            }
            10..=12 => {
                let op = if self.chance(0.5) { "AND" } else { "OR" };
                let a = self.bool(env, d);
                let b = self.bool(env, d);
                // Sometimes right-associative chains without parentheses.
                if self.chance(0.3) {
                    let c = self.bool_leaf(env);
                    let op2 = if self.chance(0.5) { "AND" } else { "OR" };
                    format!("({a}) {op} ({b}) {op2} {c}")
                } else {
                    format!("({a}) {op} ({b})")
                }
            }
            13 | 14 => {
                let v = self.var("i");
                let lo = self.range_bound(env);
                let hi = self.range_bound(env);
                let mut inner = env.clone();
                inner.ints.push(v.clone());
                let body = if self.chance(0.5) {
                    // A scan of the board along the loop variable.
                    let other = self.int_leaf(env);
                    let (x, y) = if self.chance(0.5) {
                        (format!("${v}"), other)
                    } else {
                        (other, format!("${v}"))
                    };
                    let t = self.var("t");
                    let w = self.var("u");
                    let head = format!("(${t} = {x}) AND (${w} = {y}) AND ");
                    inner.ints.push(t.clone());
                    inner.ints.push(w.clone());
                    let test = match self.below(4) {
                        0 => format!("EMPTY(\"s(${t},${w})\")"),
                        1 => format!("NOT EMPTY(\"s(${t},${w})\")"),
                        2 => format!(
                            "OWNER(CONTENT(\"s(${t},${w})\")) == {}",
                            self.r.gen_range(0..=self.players)
                        ),
                        _ => self.bool(&inner, d.min(2)),
                    };
                    format!("{head}({test})")
                } else {
                    self.bool(&inner, d.min(2))
                };
                let f = if self.chance(0.5) {
                    "FORALL"
                } else {
                    "FORSOME"
                };
                format!("{f}(${v}, {lo}, {hi}, {body})")
            }
            15 => {
                let c = self.bool(env, d);
                let a = self.bool(env, d);
                let b = self.bool(env, d);
                format!("IF({c}, {a}, {b})")
            }
            16 | 17 => {
                let l = self.loc(env, d);
                let s = self.set(env, d);
                match self.below(3) {
                    0 => format!("{l} IN ({s})"),
                    1 => {
                        let t = self.set(env, d);
                        format!("({s}) SUBSET ({t})")
                    }
                    _ => {
                        let t = self.set(env, d);
                        format!("({s}) == ({t})")
                    }
                }
            }
            18 | 19 => {
                // An assignment followed by a test reading it.
                let v = self.var("v");
                let val = self.int(env, d);
                let mut inner = env.clone();
                inner.ints.push(v.clone());
                let rest = self.bool(&inner, d);
                format!("(${v} = {val}) AND ({rest})")
            }
            20 => {
                let v = self.var("w");
                let val = self.loc(env, d);
                let mut inner = env.clone();
                inner.strs.push(v.clone());
                let rest = self.bool(&inner, d);
                format!("(${v} = {val}) AND ({rest})")
            }
            21..=25 => self
                .call(env, Kind::Bool, d)
                .unwrap_or_else(|| self.bool_leaf(env)),
            _ => self.effect(env, d),
        }
    }

    /// A state-changing expression (Bool).
    fn effect(&mut self, env: &Env, d: u32) -> String {
        match self.below(12) {
            0 | 1 => "NEXTPLAYER".into(),
            2..=6 => {
                let (f, v) = match self.below(5) {
                    0..=2 => {
                        let v = if self.chance(0.9) {
                            self.r.gen_range(1..=self.min_states).to_string()
                        } else {
                            self.int(env, d.min(1))
                        };
                        ("SETSTATE", v)
                    }
                    3 => ("SETOWNER", self.r.gen_range(0..=self.players).to_string()),
                    _ => ("SETZINDEX", self.int(env, d.min(1))),
                };
                match self.below(10) {
                    0..=4 => {
                        let l = self.loc(env, 0);
                        format!("IF(NOT EMPTY({l}), {f}(CONTENT({l}), {v}), true)")
                    }
                    5..=7 if env.moved.is_some() => {
                        format!("{f}({}, {v})", env.moved.clone().unwrap())
                    }
                    _ => {
                        let e = self.elem(env, d.min(1));
                        format!("{f}({e}, {v})")
                    }
                }
            }
            7 | 8 => {
                // Move what stands on a cell to a bin (first free slot).
                let l = self
                    .loc_interp(env)
                    .filter(|s| s.starts_with("\"s("))
                    .unwrap_or_else(|| self.loc_lit());
                let p = self.r.gen_range(1..=self.players);
                let k = self.var("k");
                let (lo, hi) = if self.chance(0.5) {
                    (self.bins, 1)
                } else {
                    (1, self.bins)
                };
                format!(
                    "IF(NOT EMPTY({l}), FORSOME(${k}, {lo}, {hi}, MOVE(CONTENT({l}), {l}, \"bin({p},${k})\")), true)"
                )
            }
            9 => {
                let c = self.bool(
                    &Env {
                        effects: false,
                        ..env.clone()
                    },
                    d.min(2),
                );
                let a = self.effect(env, d.saturating_sub(1));
                format!("IF({c}, {a}, true)")
            }
            _ => self
                .call(env, Kind::Effect, d)
                .unwrap_or_else(|| "NEXTPLAYER".into()),
        }
    }

    fn loc(&mut self, env: &Env, d: u32) -> String {
        let d = d.saturating_sub(1);
        match self.below(14) {
            0..=3 => self.loc_lit(),
            4..=8 => self.loc_interp(env).unwrap_or_else(|| self.loc_lit()),
            9 => {
                let e = self.elem(env, d);
                format!("LOCATION({e})")
            }
            10 if d > 0 => {
                let c = self.bool(env, d);
                let a = self.loc(env, d);
                let b = self.loc(env, d);
                format!("IF({c}, {a}, {b})")
            }
            11 if !env.strs.is_empty() => format!("${}", self.pick_str(&env.strs).unwrap()),
            12 | 13 if d > 0 => self
                .call(env, Kind::Loc, d)
                .unwrap_or_else(|| self.loc_lit()),
            _ => self.loc_lit(),
        }
    }

    fn elem(&mut self, env: &Env, d: u32) -> String {
        match self.below(10) {
            0..=3 => self.elem_lit(),
            4..=6 if !env.ints.is_empty() => {
                let b = self.any_base();
                let v = self.pick_str(&env.ints).unwrap().clone();
                format!("\"{b}(${v})\"")
            }
            _ => {
                let l = self.loc(env, d.saturating_sub(1));
                format!("CONTENT({l})")
            }
        }
    }

    fn set(&mut self, env: &Env, d: u32) -> String {
        let d = d.saturating_sub(1);
        match self.below(10) {
            0 => "{}".into(),
            1..=3 => {
                let n = self.below(3) + 1;
                let items: Vec<String> = (0..n).map(|_| self.loc(env, 0)).collect();
                format!("{{{}}}", items.join(", "))
            }
            4 => {
                let n = self.below(3) + 1;
                let items: Vec<String> = (0..n).map(|_| self.int_leaf(env)).collect();
                format!("{{{}}}", items.join(", "))
            }
            5..=7 if d > 0 => {
                let op = ["UNION", "INTERSECT", "SETMINUS", "UNION"][self.below(4)];
                let a = self.set(env, d);
                let b = self.set(env, d);
                format!("({a}) {op} ({b})")
            }
            8 if d > 0 => {
                let c = self.bool(env, d);
                let a = self.set(env, d);
                let b = self.set(env, d);
                format!("IF({c}, {a}, {b})")
            }
            _ => self.call(env, Kind::Set, d).unwrap_or_else(|| "{}".into()),
        }
    }

    /// A Set of targets that exist and are empty (mostly): guarded
    /// singletons, lazy pairs, calls of target functions.
    fn targets(&mut self, env: &Env, d: u32) -> String {
        let d = d.saturating_sub(1);
        match self.below(10) {
            0 => "{}".into(),
            1..=4 if !env.ints.is_empty() => {
                let x = self.int_var(env).unwrap();
                let y = self.int_var(env).unwrap();
                let (tx, ty) = (self.var("x"), self.var("y"));
                let dx = self.r.gen_range(-2..=2);
                let dy = self.r.gen_range(-2..=2);
                let mut inner = env.clone();
                inner.ints.push(tx.clone());
                inner.ints.push(ty.clone());
                let extra = if self.chance(0.5) {
                    format!(" AND ({})", self.bool(&inner, d.min(2)))
                } else {
                    String::new()
                };
                let member = if self.chance(0.3) {
                    let f = self.deferred(&inner).unwrap_or_default();
                    if f.is_empty() {
                        format!("\"s(${tx},${ty})\"")
                    } else {
                        format!("[\"s(${tx},${ty})\", {f}]")
                    }
                } else {
                    format!("\"s(${tx},${ty})\"")
                };
                format!(
                    "IF((${tx} = {x} + {dx}) AND (${ty} = {y} + {dy}) AND Free(${tx},${ty}){extra}, {{{member}}}, {{}})"
                )
                .replace("+ -", "- ")
            }
            5 | 6 if d > 0 => {
                let a = self.targets(env, d);
                let b = self.targets(env, d);
                format!("({a}) UNION ({b})")
            }
            7 if d > 0 => {
                let c = self.bool(env, d.min(2));
                let a = self.targets(env, d);
                let b = self.targets(env, d);
                format!("IF({c}, {a}, {b})")
            }
            8 => {
                // A free bin slot of a player, by a scan.
                let k = self.var("k");
                let p = self.r.gen_range(1..=self.players);
                format!(
                    "IF(FORSOME(${k}, 1, {}, EMPTY(\"bin({p},${k})\")), {{\"bin({p},${k})\"}}, {{}})",
                    self.bins
                )
            }
            _ => self
                .call(env, Kind::Targets, d)
                .unwrap_or_else(|| "{}".into()),
        }
    }

    /// A call of a user effect function, for a lazy pair (deferred).
    fn deferred(&mut self, env: &Env) -> Option<String> {
        let env = Env {
            effects: true,
            ..env.clone()
        };
        self.call_of(&env, Kind::Effect, 1, self.funcs.len())
    }

    /// A call of a user function of kind `kind` callable here, with
    /// arguments; `None` when there is none.
    fn call(&mut self, env: &Env, kind: Kind, d: u32) -> Option<String> {
        let limit = self.callable;
        self.call_of(env, kind, d, limit)
    }

    fn call_of(&mut self, env: &Env, kind: Kind, d: u32, limit: usize) -> Option<String> {
        let cands: Vec<usize> = (0..limit.min(self.funcs.len()))
            .filter(|&i| {
                let f = &self.funcs[i];
                f.kind == kind && (env.effects || !f.effects)
            })
            .collect();
        let &i = cands.choose(&mut self.r)?;
        let params: Vec<PKind> = self.funcs[i].params.iter().map(|p| p.1).collect();
        let name = self.funcs[i].name.clone();
        let inputs = self.funcs[i].inputs.clone();
        let args: Vec<String> = params
            .iter()
            .map(|k| match k {
                PKind::Int => self.int(env, d.min(1)),
                PKind::Loc => self.loc(env, d.min(1)),
            })
            .collect();
        let call = if args.is_empty() {
            if self.chance(0.2) {
                format!("{name}()")
            } else {
                name
            }
        } else {
            format!("{name}({})", args.join(", "))
        };
        // Bind the variables it reads from its callers first.
        let missing: Vec<String> = inputs
            .into_iter()
            .filter(|v| !env.ints.contains(v))
            .collect();
        if missing.is_empty() {
            return Some(call);
        }
        let mut binds = String::new();
        for v in &missing {
            let val = self.int_leaf(env);
            write!(binds, "(${v} = {val}) AND ").unwrap();
        }
        Some(format!("IF({binds}true, {call}, {call})"))
    }

    // --- functions ----------------------------------------------------------

    fn add_func(
        &mut self,
        out: &mut String,
        name: &str,
        params: &[(&str, PKind)],
        kind: Kind,
        body: &[String],
    ) {
        let ps: Vec<String> = params.iter().map(|p| format!("${}", p.0)).collect();
        if ps.is_empty() {
            writeln!(out, "{name}").unwrap();
        } else {
            let sep = if self.chance(0.3) { ", " } else { "," };
            writeln!(out, "{name}({})", ps.join(sep)).unwrap();
        }
        if kind == Kind::Effect && self.fv {
            writeln!(out, "$fv = {}", self.r.gen_range(0..=3)).unwrap();
        }
        for l in body {
            writeln!(out, "{l}").unwrap();
        }
        writeln!(out, "{}", if self.chance(0.9) { "END" } else { "end" }).unwrap();
        out.push('\n');
        self.funcs.push(Func {
            name: name.into(),
            params: params.iter().map(|p| (p.0.to_string(), p.1)).collect(),
            kind,
            outputs: Vec::new(),
            inputs: Vec::new(),
            effects: kind == Kind::Effect,
        });
    }

    /// The template functions of both styles (always defined: later
    /// functions and rules call them).
    fn templates(&mut self, out: &mut String) {
        let (w, h, b, n) = (self.w, self.h, self.bins, self.elem_count());
        // IsValid: the original authors' bounds check.
        let body = if self.chance(0.5) {
            vec![format!(
                "($vx >= 1) AND ($vx <= {w}) AND ($vy >= 1) AND ($vy <= {h})"
            )]
        } else {
            vec![
                "$vx >= 1".into(),
                format!("$vx <= {w}"),
                "$vy > 0".into(),
                format!("$vy < {}", h + 1),
            ]
        };
        self.add_func(
            out,
            "IsValid",
            &[("vx", PKind::Int), ("vy", PKind::Int)],
            Kind::Bool,
            &body,
        );
        let body = if self.chance(0.5) {
            vec!["IsValid($qx,$qy) AND EMPTY(\"s($qx,$qy)\")".into()]
        } else {
            vec!["IsValid($qx, $qy)".into(), "EMPTY(\"s($qx,$qy)\")".into()]
        };
        self.add_func(
            out,
            "Free",
            &[("qx", PKind::Int), ("qy", PKind::Int)],
            Kind::Bool,
            &body,
        );
        // Base($bp): the element name base of a player.
        let base_body = if self.owner_style {
            vec!["\"m\"".to_string()]
        } else if self.players == 2 {
            vec!["IF($bp == 1, \"a\", \"b\")".to_string()]
        } else {
            vec!["IF($bp == 1, \"a\", IF($bp == 2, \"b\", \"c\"))".to_string()]
        };
        self.add_func(out, "Base", &[("bp", PKind::Int)], Kind::Loc, &base_body);
        // Owner of what stands on s(x,y): by owner or by name.
        let mine = if self.owner_style {
            "OWNER($en) == $ep".to_string()
        } else {
            "UNINDEX($en) == Base($ep)".to_string()
        };
        let body = vec![
            "$en = CONTENT(\"s($ex,$ey)\")".to_string(),
            format!("IF(IsValid($ex,$ey) AND ($en != \"\"), NOT ({mine}), false)"),
        ];
        self.add_func(
            out,
            "Enemy",
            &[("ex", PKind::Int), ("ey", PKind::Int), ("ep", PKind::Int)],
            Kind::Bool,
            &body,
        );
        let body = vec![
            "$on = CONTENT(\"s($ox,$oy)\")".to_string(),
            format!(
                "($on != \"\") AND ({})",
                mine.replace("$en", "$on").replace("$ep", "$op")
            ),
        ];
        self.add_func(
            out,
            "Own",
            &[("ox", PKind::Int), ("oy", PKind::Int), ("op", PKind::Int)],
            Kind::Bool,
            &body,
        );
        // Count($kp): pieces of a player on the board, a counting loop.
        let test = match self.below(3) {
            0 => "Own($kx,$ky,$kp)".to_string(),
            1 if self.owner_style => "OWNER(CONTENT(\"s($kx,$ky)\")) == $kp".to_string(),
            _ => format!("{} == Base($kp)", "UNINDEX(CONTENT(\"s($kx,$ky)\"))"),
        };
        let test = if !self.owner_style && test.starts_with("OWNER") {
            "Own($kx,$ky,$kp)".to_string()
        } else {
            test
        };
        let (lx, hx) = if self.chance(0.3) { (w, 1) } else { (1, w) };
        let body = vec![
            "$kn = 0".to_string(),
            format!(
                "FORALL($kx, {lx}, {hx}, FORALL($ky, 1, {h}, IF({test}, $kn = $kn + 1, true)))"
            ),
            "$kn".to_string(),
        ];
        self.add_func(out, "Count", &[("kp", PKind::Int)], Kind::Int, &body);
        // Left($lp): pieces of a player still in a supply.
        let name = if self.owner_style {
            "\"m($li)\"".to_string()
        } else {
            "\"$lb($li)\"".to_string()
        };
        let mut body = Vec::new();
        if !self.owner_style {
            body.push("$lb = Base($lp)".to_string());
        }
        body.push("$ln = 0".to_string());
        let owner_test = if self.owner_style {
            format!("(OWNER({name}) == $lp) AND ")
        } else {
            String::new()
        };
        body.push(format!(
            "FORALL($li, 1, {n}, IF({owner_test}(LOCTYPE(LOCATION({name})) == \"supply\"), $ln = $ln + 1, true))"
        ));
        body.push("$ln".into());
        self.add_func(out, "Left", &[("lp", PKind::Int)], Kind::Int, &body);
        // FreeBin($fp): a scan; BinOf($gp): the slot's name.
        let (lo, hi) = if self.chance(0.5) { (1, b) } else { (b, 1) };
        self.add_func(
            out,
            "FreeBin",
            &[("fp", PKind::Int)],
            Kind::Bool,
            &[format!("FORSOME($fk, {lo}, {hi}, EMPTY(\"bin($fp,$fk)\"))")],
        );
        self.add_func(
            out,
            "BinOf",
            &[("gp", PKind::Int)],
            Kind::Targets,
            &["IF(FreeBin($gp), {\"bin($gp,$fk)\"}, {})".to_string()],
        );
        // Line($ax,$ay,$adx,$ady,$ap): a line of own pieces, the original way.
        let len = self.r.gen_range(2..=3);
        let mut body = Vec::new();
        let mut tests = vec!["Own($ax,$ay,$ap)".to_string()];
        for k in 2..=len {
            let (px, py) = if k == 2 {
                ("$ax".to_string(), "$ay".to_string())
            } else {
                (format!("$ax{}", k - 1), format!("$ay{}", k - 1))
            };
            body.push(format!("$ax{k} = {px} + $adx"));
            body.push(format!("$ay{k} = {py} + $ady"));
            tests.push(format!("Own($ax{k},$ay{k},$ap)"));
        }
        body.push(format!("IsValid($ax{len},$ay{len})"));
        let tests: Vec<String> = tests.iter().map(|t| format!("({t})")).collect();
        body.push(tests.join(" AND "));
        self.add_func(
            out,
            "Line",
            &[
                ("ax", PKind::Int),
                ("ay", PKind::Int),
                ("adx", PKind::Int),
                ("ady", PKind::Int),
                ("ap", PKind::Int),
            ],
            Kind::Bool,
            &body,
        );
        let dirs = ["1,0", "0,1", "1,1", "1,-1"];
        let k = self.r.gen_range(1..=4);
        let lines: Vec<String> = dirs[..k]
            .iter()
            .map(|d| format!("Line($hx,$hy,{d},$hp)"))
            .collect();
        self.add_func(
            out,
            "HasLine",
            &[("hp", PKind::Int)],
            Kind::Bool,
            &[format!(
                "FORSOME($hx, 1, {w}, FORSOME($hy, 1, {h}, {}))",
                lines.join(" OR ")
            )],
        );
        // Down($dn): bounded recursion.
        self.add_func(
            out,
            "Down",
            &[("dn", PKind::Int)],
            Kind::Int,
            &["IF($dn <= 0, 0, 1 + Down($dn - 1))".to_string()],
        );
        // StepAt($sdx,$sdy): sets $stx,$sty for its caller (which binds
        // $gx,$gy first).
        self.add_func(
            out,
            "StepAt",
            &[("sdx", PKind::Int), ("sdy", PKind::Int)],
            Kind::Bool,
            &[
                "$stx = $gx + $sdx".into(),
                "$sty = $gy + $sdy".into(),
                "EMPTY(\"s($stx,$sty)\")".into(),
                "IsValid($stx,$sty)".into(),
            ],
        );
        let f = self.funcs.last_mut().unwrap();
        f.outputs = vec!["stx".into(), "sty".into()];
        f.inputs = vec!["gx".into(), "gy".into()];
        // Captured($cx,$cy): the piece on s(cx,cy) goes to its owner's bin.
        let who = if self.owner_style {
            "$co = OWNER($ce)".to_string()
        } else if self.players == 2 {
            "$co = IF(UNINDEX($ce) == \"a\", 1, 2)".to_string()
        } else {
            "$co = IF(UNINDEX($ce) == \"a\", 1, IF(UNINDEX($ce) == \"b\", 2, 3))".to_string()
        };
        let (lo, hi) = if self.chance(0.6) { (b, 1) } else { (1, b) };
        let mut body = vec![
            "$ce = CONTENT(\"s($cx,$cy)\")".to_string(),
            "$ce != \"\"".to_string(),
            who,
            format!("FORSOME($ci, {lo}, {hi}, MOVE($ce, \"s($cx,$cy)\", \"bin($co,$ci)\"))"),
        ];
        if self.chance(0.7) {
            body.push("NEXTPLAYER".into());
        }
        self.add_func(
            out,
            "Captured",
            &[("cx", PKind::Int), ("cy", PKind::Int)],
            Kind::Effect,
            &body,
        );
        // Promote($px,$py): a piece reaching the last row changes state.
        let s = self.min_states;
        let row = if self.chance(0.5) { h } else { 1 };
        self.add_func(
            out,
            "Promote",
            &[("px", PKind::Int), ("py", PKind::Int)],
            Kind::Effect,
            &[
                "$pe = CONTENT(\"s($px,$py)\")".into(),
                format!("IF(($pe != \"\") AND ($py == {row}), SETSTATE($pe, {s}), true)"),
            ],
        );
        // Targets($tx,$ty,$tp): built step by step, the original way.
        let mut body = vec!["$RET = {}".to_string()];
        let all = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ];
        let k = self.r.gen_range(1..=4);
        let dirs: Vec<(i32, i32)> = all.choose_multiple(&mut self.r, k).cloned().collect();
        for (i, (dx, dy)) in dirs.iter().enumerate() {
            body.push(format!("$tn{i}x = $tx + {dx}").replace("+ -", "- "));
            body.push(format!("$tn{i}y = $ty + {dy}").replace("+ -", "- "));
            body.push(format!(
                "IF(Free($tn{i}x,$tn{i}y), $RET = $RET UNION {{\"s($tn{i}x,$tn{i}y)\"}}, true)"
            ));
            if self.chance(0.6) {
                body.push(format!("$tj{i}x = $tn{i}x + {dx}").replace("+ -", "- "));
                body.push(format!("$tj{i}y = $tn{i}y + {dy}").replace("+ -", "- "));
                let pair = if self.chance(0.8) {
                    format!("[\"s($tj{i}x,$tj{i}y)\", Captured($tn{i}x,$tn{i}y)]")
                } else {
                    format!("[\"s($tj{i}x,$tj{i}y)\", Promote($tj{i}x,$tj{i}y)]")
                };
                body.push(format!(
                    "IF(Enemy($tn{i}x,$tn{i}y,$tp) AND Free($tj{i}x,$tj{i}y), $RET = $RET UNION {{{pair}}}, true)"
                ));
            }
        }
        body.push("$RET".into());
        self.add_func(
            out,
            "Targets",
            &[("tx", PKind::Int), ("ty", PKind::Int), ("tp", PKind::Int)],
            Kind::Targets,
            &body,
        );
        // Hops($hx0,$hy0): the lean way, first free of two cells.
        let (dx, dy) = *all.choose(&mut self.r).unwrap();
        let body = vec![
            "$hres = {}".to_string(),
            format!("$h1x = $ox0 + {dx}").replace("+ -", "- "),
            format!("$h1y = $oy0 + {dy}").replace("+ -", "- "),
            format!("$h2x = $h1x + {dx}").replace("+ -", "- "),
            format!("$h2y = $h1y + {dy}").replace("+ -", "- "),
            "IF(Free($h1x,$h1y), $hres = {\"s($h1x,$h1y)\"}, IF(Free($h2x,$h2y), $hres = {\"s($h2x,$h2y)\"}, true))".into(),
            "$hres".into(),
        ];
        self.add_func(
            out,
            "Hops",
            &[("ox0", PKind::Int), ("oy0", PKind::Int)],
            Kind::Targets,
            &body,
        );
        // Steps: the original authors' AddStep over StepAt ($gx,$gy read).
        let k = self.r.gen_range(1..=4);
        let dirs: Vec<(i32, i32)> = all.choose_multiple(&mut self.r, k).cloned().collect();
        self.add_func(
            out,
            "AddStep",
            &[("asx", PKind::Int), ("asy", PKind::Int)],
            Kind::Helper,
            &[
                "StepAt($asx, $asy)".into(),
                "$sres = $sres UNION {\"s($stx,$sty)\"}".into(),
            ],
        );
        let mut body = vec!["$sres = {}".to_string()];
        for (dx, dy) in dirs {
            body.push(format!("AddStep({dx}, {dy}) OR true"));
        }
        body.push("$sres".into());
        self.add_func(out, "Steps", &[], Kind::Targets, &body);
        let f = self.funcs.last_mut().unwrap();
        f.inputs = vec!["gx".into(), "gy".into()];
        // RowCount($rcy): pieces in a row (memoizable: an input, a loop).
        let test = if self.chance(0.5) {
            "NOT EMPTY(\"s($rcx,$rcy)\")".to_string()
        } else {
            format!(
                "STATE(CONTENT(\"s($rcx,$rcy)\")) == {}",
                self.r.gen_range(1..=2)
            )
        };
        self.add_func(
            out,
            "RowCount",
            &[("rcy", PKind::Int)],
            Kind::Int,
            &[
                "$rcn = 0".into(),
                format!("FORALL($rcx, 1, {w}, IF({test}, $rcn = $rcn + 1, true))"),
                "$rcn".into(),
            ],
        );
        // FreeSlot: a closed scan of player 1's bins, and its slot (nim's
        // FreeBin).
        let q = self.r.gen_range(1..=self.players);
        self.add_func(
            out,
            "FreeSlot",
            &[],
            Kind::Loc,
            &[
                format!("FORSOME($fs, 1, {b}, EMPTY(\"bin({q},$fs)\"))"),
                format!("\"bin({q},$fs)\""),
            ],
        );
        // Promoted: a closed count over the elements against a literal.
        let mut lines = vec!["$pc = 0".to_string()];
        let st = self.r.gen_range(1..=2);
        let body = if self.owner_style {
            format!("FORALL($pi, 1, {n}, IF(STATE(\"m($pi)\") == {st}, $pc = $pc + 1, true))")
        } else {
            let bs = self.base(1);
            format!("FORALL($pi, 1, {n}, IF(STATE(\"{bs}($pi)\") == {st}, $pc = $pc + 1, true))")
        };
        lines.push(body);
        lines.push("$pc".into());
        self.add_func(out, "Promoted", &[], Kind::Int, &lines);
        // Total: a summing loop over a kept count keyed by its register.
        let np = self.players;
        self.add_func(
            out,
            "Total",
            &[],
            Kind::Int,
            &[
                "$tt = 0".into(),
                format!("FORALL($tr, 1, {np}, ($tt = $tt + Left($tr)) OR true)"),
                "$tt".into(),
            ],
        );
        // Mark: effect lines of literal elements only.
        let mut lines = Vec::new();
        if self.flag {
            lines.push(format!("SETSTATE(\"flag\", {})", self.r.gen_range(1..=3)));
        }
        if self.switch && self.chance(0.5) {
            lines.push("SETOWNER(\"sw\", 1)".into());
        }
        lines.push("NEXTPLAYER".into());
        self.add_func(out, "Mark", &[], Kind::Effect, &lines);
        // Phase: the flag's state, a closed call.
        let ph = if self.flag {
            "STATE(\"flag\")".to_string()
        } else {
            "PLAYER".to_string()
        };
        self.add_func(out, "Phase", &[], Kind::Int, &[ph]);
        // Below($bx,$by): a column filled from below (connect-4).
        self.add_func(
            out,
            "Below",
            &[("bx", PKind::Int), ("by", PKind::Int)],
            Kind::Bool,
            &[
                "$bb = $by - 1".into(),
                "($by == 1) OR NOT EMPTY(\"s($bx,$bb)\")".into(),
            ],
        );
        // CanGo($cn,$cp,$cx2,$cy2): a hoisted call, owner test first.
        let own = if self.owner_style {
            "OWNER(\"m($cn)\") == $cp".to_string()
        } else {
            "STATE(\"a($cn)\") >= 1".to_string()
        };
        let tail = match self.below(3) {
            0 => "(($cy2 == 1) OR NOT EMPTY(\"s($cx2,$cb)\"))".to_string(),
            1 => format!("(RowCount($cy2) < {})", self.r.gen_range(1..=w)),
            _ => "(($cx2 + $cy2) > 2)".to_string(),
        };
        self.add_func(
            out,
            "CanGo",
            &[
                ("cn", PKind::Int),
                ("cp", PKind::Int),
                ("cx2", PKind::Int),
                ("cy2", PKind::Int),
            ],
            Kind::Bool,
            &["$cb = $cy2 - 1".into(), format!("({own}) AND {tail}")],
        );
        // Winner: computed from counts.
        let body = if self.players == 2 {
            vec![
                "$W1 = Count(1)".to_string(),
                "$W2 = Count(2)".to_string(),
                "IF($W1 > $W2, 1, IF($W2 > $W1, 2, 0))".to_string(),
            ]
        } else {
            vec!["IF(Count(1) > Count(2), 1, IF(Count(3) > Count(2), 3, 2))".to_string()]
        };
        self.add_func(out, "Winner", &[], Kind::Int, &body);
    }

    /// A random function of a random kind.
    fn random_func(&mut self, out: &mut String, idx: usize) {
        let kind = [
            Kind::Bool,
            Kind::Bool,
            Kind::Int,
            Kind::Int,
            Kind::Loc,
            Kind::Set,
            Kind::Targets,
            Kind::Effect,
            Kind::Effect,
        ][self.below(9)];
        let name = format!("F{idx}{}", ["", "x", "_q", "Ab"][self.below(4)]);
        let np = self.below(4);
        let mut params: Vec<(String, PKind)> = Vec::new();
        for k in 0..np {
            let pk = if self.chance(0.8) {
                PKind::Int
            } else {
                PKind::Loc
            };
            // Mostly own parameter names; sometimes a rule's pattern
            // variable or a shared name (clobbering the caller's).
            let pname = match self.below(12) {
                0 => ["X", "Y", "A", "B", "N"][self.below(5)].to_string(),
                1 => "sh".to_string(),
                _ => format!("p{idx}{}", (b'a' + k as u8) as char),
            };
            if params.iter().any(|p| p.0 == pname) {
                continue;
            }
            params.push((pname, pk));
        }
        let mut env = Env {
            ints: params
                .iter()
                .filter(|p| p.1 == PKind::Int)
                .map(|p| p.0.clone())
                .collect(),
            strs: params
                .iter()
                .filter(|p| p.1 == PKind::Loc)
                .map(|p| p.0.clone())
                .collect(),
            effects: kind == Kind::Effect,
            moved: None,
        };
        // Variables shared with callers.
        let mut inputs = Vec::new();
        if self.chance(0.2) {
            let g = ["g1", "g2"][self.below(2)].to_string();
            if !env.ints.contains(&g) {
                env.ints.push(g.clone());
                inputs.push(g);
            }
        }
        self.callable = self.funcs.len();
        let mut body = Vec::new();
        let mut outputs = Vec::new();
        let lines = self.below(4);
        for _ in 0..lines {
            match self.below(6) {
                0..=2 => {
                    let v = self.var(&format!("l{idx}_"));
                    let val = self.int(&env, 2);
                    body.push(format!("${v} = {val}"));
                    if body.len() == outputs.len() + 1 {
                        outputs.push(v.clone());
                    }
                    env.ints.push(v);
                }
                3 => {
                    let v = self.var(&format!("s{idx}_"));
                    let val = self.loc(&env, 2);
                    body.push(format!("${v} = {val}"));
                    env.strs.push(v);
                }
                4 => {
                    // A guard, or a helper whose outputs we then read.
                    let c = self.call(&env, Kind::Bool, 2);
                    if let Some(c) = c {
                        let outs = self
                            .funcs
                            .iter()
                            .find(|f| c.starts_with(&format!("{}(", f.name)) || c == f.name)
                            .map(|f| f.outputs.clone())
                            .unwrap_or_default();
                        body.push(c);
                        env.ints.extend(outs);
                    } else {
                        let b = self.bool(&env, 2);
                        body.push(b);
                    }
                }
                _ => {
                    let b = self.bool(&env, 2);
                    body.push(b);
                }
            }
        }
        let d = 3;
        match kind {
            Kind::Bool => {
                let b = self.bool(&env, d);
                body.push(b)
            }
            Kind::Int => {
                let i = self.int(&env, d);
                body.push(i)
            }
            Kind::Loc => {
                let l = self.loc(&env, d);
                body.push(l)
            }
            Kind::Set => {
                let s = self.set(&env, d);
                body.push(s)
            }
            Kind::Targets => {
                if self.orig && !env.ints.is_empty() {
                    // Built step by step.
                    let r = self.var("RET");
                    body.push(format!("${r} = {{}}"));
                    for _ in 0..self.r.gen_range(1..=3) {
                        let t = self.targets(&env, 2);
                        let c = self.bool(&env, 1);
                        body.push(format!("IF({c}, ${r} = ${r} UNION ({t}), true)"));
                    }
                    body.push(format!("${r}"));
                } else {
                    let t = self.targets(&env, d);
                    body.push(t)
                }
            }
            Kind::Helper => unreachable!(),
            Kind::Effect => {
                for _ in 0..self.r.gen_range(1..=3) {
                    let e = self.effect(&env, 2);
                    body.push(e);
                }
            }
        }
        // A one-character line would be dropped (§2.1): avoid it.
        for l in &mut body {
            if l.trim().len() < 2 {
                *l = format!("({l})");
            }
        }
        let ps: Vec<(&str, PKind)> = params.iter().map(|p| (p.0.as_str(), p.1)).collect();
        self.add_func(out, &name, &ps, kind, &body);
        let f = self.funcs.last_mut().unwrap();
        f.outputs = outputs;
        f.inputs = inputs;
        f.effects = kind == Kind::Effect;
    }

    // --- the file -------------------------------------------------------------

    fn game(&mut self) -> String {
        let mut s = String::new();
        let (w, h) = (self.w, self.h);
        s.push_str("// generated by tests/random_games.rs\n[BOARD]\nimage=board.png\n\n");
        s.push_str("[ELEMENT TYPES]\n");
        for (name, k) in self.types.clone() {
            writeln!(s, "name={name}\nstates={k}").unwrap();
            for _ in 0..self.r.gen_range(0..=k) {
                s.push_str("image=x.png\npoint=0,0\n");
            }
        }
        s.push_str("name=token\nstates=3\n\n");
        s.push_str("[LOCATION TYPES]\nname=cell\nshape=circle(20)\n");
        let yes_no = |g: &mut Gen| if g.chance(0.5) { "yes" } else { "no" };
        let sup_rel = yes_no(self);
        let bin_rel = yes_no(self);
        writeln!(s, "name=supply\nrelevant={sup_rel}").unwrap();
        writeln!(s, "name=bin\nrelevant={bin_rel}").unwrap();
        s.push_str("name=track\nname=spot\n\n[LOCATIONS]\n");
        for y in 1..=h {
            for x in 1..=w {
                writeln!(s, "name=s({x},{y})\ntype=cell\npoint={},{}", x * 10, y * 10).unwrap();
            }
        }
        for k in 1..=self.track {
            writeln!(s, "name=t({k})\ntype=track").unwrap();
        }
        for p in 1..=self.players {
            for k in 1..=self.supply {
                writeln!(s, "name=sup({p},{k})\ntype=supply").unwrap();
            }
            for k in 1..=self.bins {
                writeln!(s, "name=bin({p},{k})\ntype=bin").unwrap();
            }
        }
        if self.flag {
            s.push_str("name=flagpos\ntype=spot\n");
        }
        if self.switch {
            s.push_str("name=sw(1)\ntype=spot\nname=sw(2)\ntype=spot\n");
        }
        s.push_str("\n[PLAYER NAMES]\n");
        for p in 1..=self.players {
            writeln!(s, "{p}=p{p}").unwrap();
        }
        if self.chance(0.2) {
            writeln!(s, "score={}", self.r.gen_range(0..=5)).unwrap();
        }
        // Elements: per player, on the board or in the supply.
        s.push_str("\n[MOVABLE ELEMENTS]\n");
        let mut cells: Vec<(i32, i32)> =
            (1..=w).flat_map(|x| (1..=h).map(move |y| (x, y))).collect();
        cells.shuffle(&mut self.r);
        let on_board_frac = self.r.gen_range(0.0..0.6);
        let mut n = 0;
        for p in 1..=self.players {
            for k in 1..=self.per_player {
                n += 1;
                let idx = if self.owner_style { n } else { k };
                let name = format!("{}({idx})", self.base(p));
                let ty = if self.chance(0.8) { "man" } else { "king" };
                let states = if ty == "man" {
                    self.types[0].1
                } else {
                    self.types[1].1
                };
                let loc = if self.chance(on_board_frac) && !cells.is_empty() {
                    let (x, y) = cells.pop().unwrap();
                    format!("s({x},{y})")
                } else {
                    format!("sup({p},{k})")
                };
                writeln!(s, "name={name}\ntype={ty}\nlocation={loc}").unwrap();
                if self.owner_style || self.chance(0.5) {
                    writeln!(s, "player={p}").unwrap();
                }
                if self.chance(0.3) {
                    writeln!(s, "state={}", self.r.gen_range(1..=states)).unwrap();
                }
                if self.chance(0.1) {
                    writeln!(s, "zindex={}", self.r.gen_range(0..=2)).unwrap();
                }
            }
        }
        if self.flag {
            s.push_str("name=flag\ntype=token\nlocation=flagpos\n");
        }
        if self.switch {
            s.push_str("name=sw\ntype=token\nlocation=sw(1)\n");
        }
        if self.track > 0 {
            // A runner on the track.
            s.push_str("name=runner\ntype=token\nlocation=t(1)\n");
        }
        s.push_str("\n[EXPRESSIONS]\n");
        self.fv = self.chance(0.3);
        self.templates(&mut s);
        let nf = self.r.gen_range(2..=7);
        for i in 0..nf {
            self.random_func(&mut s, i);
        }
        self.callable = self.funcs.len();
        s.push_str("[SCORINGS]\n");
        for _ in 0..self.below(3) {
            self.scoring(&mut s);
        }
        s.push_str("\n[END OF GAME]\n");
        for _ in 0..self.r.gen_range(1..=3) {
            self.end(&mut s);
        }
        if self.chance(0.25) {
            s.push_str("\n[EVALUATION]\n");
            let env = Env::new(&[], false);
            let v = self.int(&env, 3);
            writeln!(s, "player=1\nvalue={v}").unwrap();
        }
        s.push_str("\n[GAME RULES]\n");
        self.rules(&mut s);
        s
    }

    /// The variables bound after a move of any rule (every rule binds
    /// these names, §7.7), for scorings and end checks.
    fn after_move_env(&self) -> Env {
        if self.fv {
            Env::new(&["A", "B", "fv"], false)
        } else {
            Env::new(&["A", "B"], false)
        }
    }

    fn scoring(&mut self, s: &mut String) {
        let env = self.after_move_env();
        let sit = match self.below(4) {
            0 => "true".to_string(),
            1 => "TRUE".to_string(),
            _ => self.bool(&env, 2),
        };
        writeln!(s, "situation={sit}").unwrap();
        for _ in 0..self.r.gen_range(1..=2) {
            let p = match self.below(3) {
                0 => "PLAYER".to_string(),
                _ => self.r.gen_range(1..=self.players).to_string(),
            };
            let amount = match self.below(4) {
                0 => "1".to_string(),
                1 => format!("Count({p}) - SCORE({p})"),
                _ => {
                    let i = self.int(&env, 1);
                    format!("({i}) % 3")
                }
            };
            writeln!(s, "player={p}\nscore={amount}").unwrap();
        }
    }

    fn end(&mut self, s: &mut String) {
        let env = self.after_move_env();
        let p = self.r.gen_range(1..=self.players);
        let (sit, win) = match self.below(13) {
            9 => (
                format!("Promoted > {}", self.r.gen_range(1..=3)),
                "Winner".to_string(),
            ),
            10 => (
                format!("(Total == 0) OR (Count({p}) > {})", self.r.gen_range(3..=6)),
                p.to_string(),
            ),
            11 => {
                // Formulas of emptiness or state tests over literal names.
                let mut clauses = Vec::new();
                let st = self.r.gen_range(1..=2);
                let by_rows = self.chance(0.5);
                let (outer, inner) = if by_rows {
                    (self.h, self.w)
                } else {
                    (self.w, self.h)
                };
                for a in 1..=outer {
                    let t: Vec<String> = (1..=inner)
                        .map(|b| {
                            let (x, y) = if by_rows { (b, a) } else { (a, b) };
                            if st == 1 {
                                format!("(NOT EMPTY(\"s({x},{y})\"))")
                            } else {
                                format!("(STATE(CONTENT(\"s({x},{y})\")) == 2)")
                            }
                        })
                        .collect();
                    clauses.push(format!("({})", t.join(" AND ")));
                }
                (clauses.join(" OR "), "PLAYER".to_string())
            }
            0 => (
                format!("(Count({p}) == 0) AND (Left({p}) == 0)"),
                format!("{}", p % self.players + 1),
            ),
            1 => (format!("HasLine({p})"), p.to_string()),
            2 => {
                // A lean line formula over literal names.
                let mut clauses = Vec::new();
                for y in 1..=self.h {
                    let t: Vec<String> = (1..=self.w)
                        .map(|x| {
                            if self.owner_style {
                                format!("(OWNER(CONTENT(\"s({x},{y})\")) == {p})")
                            } else {
                                format!(
                                    "(UNINDEX(CONTENT(\"s({x},{y})\")) == \"{}\")",
                                    self.base(p)
                                )
                            }
                        })
                        .collect();
                    clauses.push(format!("({})", t.join(" AND ")));
                }
                (clauses.join(" OR "), p.to_string())
            }
            3 => (
                format!("NOT EMPTY(\"s({},{})\")", self.w, self.h),
                "PLAYER".to_string(),
            ),
            4 => (
                format!("(SCORE({p})) > {}", self.r.gen_range(3..=12)),
                p.to_string(),
            ),
            5 if self.flag => ("STATE(\"flag\") == 3".to_string(), "Winner".to_string()),
            6 => (
                format!("(Left({p}) == 0) AND (Count({p}) < 2)"),
                "Winner".to_string(),
            ),
            7 if self.track > 0 => (
                format!("NOT EMPTY(\"t({})\")", self.track),
                "PLAYER".to_string(),
            ),
            _ => {
                let mut b = self.bool(&env, 3);
                if self.chance(0.6) {
                    let k = self.r.gen_range(1..=3);
                    b = format!("(Count({p}) > {k}) AND ({b})");
                }
                let w = if self.chance(0.5) {
                    self.r.gen_range(0..=self.players).to_string()
                } else {
                    format!("({}) % {}", self.int(&env, 1), self.players + 1)
                };
                (b, w)
            }
        };
        writeln!(s, "situation={sit}\nwinner={win}\n").unwrap();
    }

    /// A followup: effects, usually passing the turn.
    fn followup(&mut self, env: &Env) -> String {
        let mut env = Env {
            effects: true,
            moved: self.cur_moved.clone(),
            ..env.clone()
        };
        if let Some(v) = self.cond_var.take() {
            env.ints.push(v);
        }
        let f = self.followup_of(&env);
        if self.fv {
            let v = self.int(
                &Env {
                    effects: false,
                    ..env.clone()
                },
                1,
            );
            format!("($fv = {v}) AND ({f})")
        } else {
            f
        }
    }

    fn followup_of(&mut self, env: &Env) -> String {
        let env = env.clone();
        match self.below(10) {
            0..=2 => "NEXTPLAYER".into(),
            3..=5 => {
                let e = self.effect(&env, 2);
                format!("({e}) AND NEXTPLAYER")
            }
            6 => {
                let c = self.bool(
                    &Env {
                        effects: false,
                        ..env.clone()
                    },
                    2,
                );
                format!("IF({c}, NEXTPLAYER, true)")
            }
            7 => {
                let e = self.effect(&env, 2);
                let f = self.effect(&env, 1);
                format!("{e} AND {f} AND NEXTPLAYER")
            }
            8 if env.ints.iter().any(|v| v == "A") && self.chance(0.6) => {
                "Promote($A,$B) AND NEXTPLAYER".into()
            }
            8 => "Mark".into(),
            _ => self.effect(&env, 2),
        }
    }

    fn player_filter(&mut self, p: i32) -> (String, Option<String>) {
        if self.owner_style {
            match self.below(4) {
                0 => (String::new(), None),
                1 => (format!("player={p}\n"), None),
                _ => (
                    "player=$P\n".into(),
                    Some("OWNER(\"m($N)\") == $P".to_string()),
                ),
            }
        } else if self.chance(0.15) {
            (String::new(), None)
        } else {
            (format!("player={p}\n"), None)
        }
    }

    fn state_filter(&mut self) -> (String, Vec<&'static str>) {
        match self.below(8) {
            0 => (format!("state={}\n", self.r.gen_range(1..=2)), vec![]),
            1 => ("state=$S\n".into(), vec!["S"]),
            _ => (String::new(), vec![]),
        }
    }

    /// `A AND B` with `A` over the element and `B` over the target (hoisted
    /// conditions), or anything.
    fn condition(
        &mut self,
        p: i32,
        owner: Option<String>,
        elem_vars: &[&str],
        all: &Env,
    ) -> String {
        let a_env = Env::new(elem_vars, false);
        self.cond_var = None;
        if self.chance(0.2) {
            // A variable the followup reads.
            let v = self.var("cv");
            let val = self.int(all, 1);
            let mut all2 = all.clone();
            all2.ints.push(v.clone());
            let rest = self.condition(p, owner, elem_vars, &all2);
            self.cond_var = Some(v.clone());
            return format!("(${v} = {val}) AND ({rest})");
        }
        let mut parts = Vec::new();
        if self.chance(0.35) {
            // The shapes the compiled form has fast paths for.
            let pv = if elem_vars.contains(&"P") {
                "$P".to_string()
            } else {
                p.to_string()
            };
            let k = self.r.gen_range(1..=3);
            return match self.below(6) {
                0 => "Below($A,$B)".into(),
                1 => format!("CanGo($N,{pv},$A,$B)"),
                2 => {
                    let b = self.bool(all, 2);
                    format!("(Phase == {k}) AND ({b})")
                }
                3 => {
                    let a = self.bool(&a_env, 1);
                    format!("(RowCount($B) < {k}) AND ({a})")
                }
                4 => match owner {
                    Some(o) => format!("({o}) AND Below($A,$B)"),
                    None => format!(
                        "(STATE({}) == 1) AND Below($A,$B)",
                        self.cur_moved.clone().unwrap()
                    ),
                },
                _ => {
                    let a = self.bool(&a_env, 2);
                    format!("({a}) AND (($A + $B) > {k})")
                }
            };
        }
        if let Some(o) = owner {
            parts.push(o);
        }
        match self.below(6) {
            0 => {}
            1 | 2 => {
                // B over the target only.
                let b_env = Env::new(&["A", "B"], false);
                let b = self.bool(&b_env, 2);
                parts.push(b);
            }
            3 => {
                let a = self.bool(&a_env, 2);
                parts.push(a);
                let b = self.bool(all, 2);
                parts.push(b);
            }
            _ => {
                let b = self.bool(all, 3);
                parts.push(b);
            }
        }
        if parts.is_empty() {
            return "true".into();
        }
        if self.chance(0.5) {
            // Often true: some moves in most positions.
            let last = parts.pop().unwrap();
            let lenient = if all.ints.iter().any(|v| v == "A") {
                format!("((($A + $B) % {}) == 0)", self.r.gen_range(1..=3))
            } else {
                "true".to_string()
            };
            parts.push(format!("({last}) OR {lenient}"));
        }
        parts
            .iter()
            .map(|p| format!("({p})"))
            .collect::<Vec<_>>()
            .join(" AND ")
    }

    fn rules(&mut self, s: &mut String) {
        let n = self.r.gen_range(2..=5);
        let mut made = 0;
        let ps: Vec<i32> = if self.owner_style {
            vec![1]
        } else {
            (1..=self.players).collect()
        };
        for i in 0..n {
            let shape = if i == 0 {
                [0, 2, 4][self.below(3)]
            } else {
                self.below(8)
            };
            for &p in &ps {
                let p = if self.owner_style {
                    self.r.gen_range(1..=self.players)
                } else {
                    p
                };
                let base = self.base(p);
                let (pf, owner) = self.player_filter(p);
                let (sf, svars) = self.state_filter();
                let name = format!("r{i}p{p}");
                self.cur_moved = Some(format!("\"{base}($N)\""));
                let mut env_vars: Vec<&str> = vec!["N"];
                if pf.contains("$P") {
                    env_vars.push("P");
                }
                env_vars.extend(svars.iter());
                let mut text = format!("name={name}\nelement={base}($N)\n{pf}{sf}");
                match shape {
                    0 | 1 => {
                        // Place from a supply.
                        text.push_str("from=sup($Q,$K)\nto=s($A,$B)\n");
                        let mut ev = env_vars.clone();
                        ev.extend(["Q", "K"]);
                        let elem_env = ev.clone();
                        ev.extend(["A", "B"]);
                        let all = Env::new(&ev, false);
                        let c = self.condition(p, owner, &elem_env, &all);
                        writeln!(text, "condition={c}").unwrap();
                        let f = self.followup(&all);
                        writeln!(text, "followup={f}").unwrap();
                    }
                    2 | 3 => {
                        // A step on the board.
                        text.push_str("from=s($X,$Y)\nto=s($A,$B)\n");
                        let mut ev = env_vars.clone();
                        ev.extend(["X", "Y"]);
                        let elem_env = ev.clone();
                        ev.extend(["A", "B"]);
                        let all = Env::new(&ev, false);
                        let mut c = self.condition(p, owner, &elem_env, &all);
                        if self.chance(0.7) {
                            let r = self.r.gen_range(1..=2);
                            c = format!(
                                "((ABS($A - $X)) <= {r}) AND ((ABS($B - $Y)) <= {r}) AND ({c})"
                            );
                        }
                        writeln!(text, "condition={c}").unwrap();
                        let f = self.followup(&all);
                        writeln!(text, "followup={f}").unwrap();
                    }
                    4 | 5 => {
                        // New style: toLocations.
                        text.push_str("from=s($X,$Y)\n");
                        if self.chance(0.8) {
                            text.push_str("to=s($A,$B)\n");
                        }
                        let mut ev = env_vars.clone();
                        ev.extend(["X", "Y"]);
                        let env = Env::new(&ev, false);
                        let t = match self.below(6) {
                            0 | 1 => format!("Targets($X,$Y,{p})"),
                            2 => "Hops($X,$Y)".into(),
                            5 if self.chance(0.5) => {
                                let c = self.bool(&env, 2);
                                format!("IF({c}, {{FreeSlot}}, {{}})")
                            }
                            3 => "IF(($gx = $X) AND ($gy = $Y), Steps, {})".into(),
                            _ => self.targets(&env, 3),
                        };
                        let t = match owner {
                            Some(o) if self.chance(0.7) => format!("IF({o}, {t}, {{}})"),
                            _ => t,
                        };
                        writeln!(text, "toLocations={t}").unwrap();
                        if self.chance(0.2) {
                            text.push_str("condition=true\n");
                        }
                        let mut fv = ev.clone();
                        if text.contains("to=s($A,$B)") {
                            fv.extend(["A", "B"]);
                        }
                        let f = self.followup(&Env::new(&fv, false));
                        writeln!(text, "followup={f}").unwrap();
                    }
                    6 => {
                        // Into a bin.
                        text.push_str("from=s($X,$Y)\nto=bin($A,$B)\n");
                        let mut ev = env_vars.clone();
                        ev.extend(["X", "Y"]);
                        let elem_env = ev.clone();
                        ev.extend(["A", "B"]);
                        let all = Env::new(&ev, false);
                        let c = self.condition(p, owner, &elem_env, &all);
                        writeln!(text, "condition=($A == {p}) AND ({c})").unwrap();
                        let f = self.followup(&all);
                        writeln!(text, "followup={f}").unwrap();
                    }
                    _ => {
                        if self.switch && self.chance(0.5) {
                            // The shared switch token passes the turn.
                            text = format!("name={name}\nelement=sw\nfrom=sw($A)\nto=sw($B)\n");
                            self.cur_moved = Some("\"sw\"".into());
                            let all = Env::new(&["A", "B"], false);
                            let c = self.bool(&all, 2);
                            writeln!(text, "condition={c}\nfollowup=NEXTPLAYER").unwrap();
                        } else if self.track > 0 {
                            text =
                                format!("name={name}\nelement=runner\n{pf}from=t($A)\nto=t($B)\n");
                            self.cur_moved = Some("\"runner\"".into());
                            let all = Env::new(&["A", "B"], false);
                            let c = self.bool(&all, 2);
                            writeln!(text, "condition=($B == $A + 1) AND ({c})").unwrap();
                            let f = self.followup(&all);
                            writeln!(text, "followup={f}").unwrap();
                        } else {
                            // A step back to the supply.
                            text.push_str("from=s($X,$Y)\nto=sup($A,$B)\n");
                            let all = Env::new(&["N", "X", "Y", "A", "B"], false);
                            let c = self.bool(&all, 2);
                            writeln!(text, "condition=($A == {p}) AND ({c})").unwrap();
                            writeln!(text, "followup=NEXTPLAYER").unwrap();
                        }
                    }
                }
                if self.chance(0.1) {
                    let q = self.r.gen_range(1..=self.players);
                    let amount = self.r.gen_range(-2..=3);
                    writeln!(text, "awardPlayer={q}\nwithScore={amount}").unwrap();
                    if self.chance(0.3) {
                        writeln!(text, "awardPlayer=PLAYER\nwithScore=1").unwrap();
                    }
                }
                s.push_str(&text);
                s.push('\n');
                made += 1;
            }
        }
        writeln!(s, "// {made} rules").unwrap();
    }
}

/// The text of game `seed`: one in eight is mutated a little (a character
/// deleted or inserted, a line deleted, doubled or moved, a number changed),
/// mostly into a file that does not load, for the loader's error paths (it
/// must never panic).
fn generate(seed: u64) -> String {
    let mut g = Gen::new(seed);
    let text = g.game();
    if g.chance(0.125) {
        mutate(&text, &mut g.r)
    } else {
        text
    }
}

fn mutate(text: &str, r: &mut ChaCha8Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for _ in 0..r.gen_range(1..=3) {
        let i = r.gen_range(0..lines.len());
        match r.gen_range(0..7) {
            0 => {
                let l = &mut lines[i];
                if !l.is_empty() {
                    let mut cs: Vec<char> = l.chars().collect();
                    cs.remove(r.gen_range(0..cs.len()));
                    *l = cs.into_iter().collect();
                }
            }
            1 => {
                const BITS: [&str; 16] = [
                    "(", ")", "[", "]", "{", "}", ",", "\"", "$", "=", "!", "<", " AND ", " NOT ",
                    "-", "END",
                ];
                let bit = BITS[r.gen_range(0..BITS.len())];
                let mut cs: Vec<char> = lines[i].chars().collect();
                let at = r.gen_range(0..=cs.len());
                for (k, c) in bit.chars().enumerate() {
                    cs.insert(at + k, c);
                }
                lines[i] = cs.into_iter().collect();
            }
            2 => {
                lines.remove(i);
                if lines.is_empty() {
                    lines.push(String::new());
                }
            }
            3 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            4 => {
                let l = lines.remove(i);
                let j = r.gen_range(0..=lines.len());
                lines.insert(j, l);
            }
            5 => {
                // A number replaced.
                let l = &lines[i];
                if let Some(pos) = l.find(|c: char| c.is_ascii_digit()) {
                    let end = l[pos..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(l.len(), |e| pos + e);
                    let new =
                        ["0", "-1", "99999999999", "2147483647", "65536", "7"][r.gen_range(0..6)];
                    lines[i] = format!("{}{new}{}", &l[..pos], &l[end..]);
                }
            }
            _ => {
                let l = &lines[i];
                lines[i] = l.chars().rev().collect();
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

// ---------------------------------------------------------------------------
// The comparison
// ---------------------------------------------------------------------------

#[derive(Default, Debug)]
struct Stats {
    games: u64,
    loaded: u64,
    playouts: u64,
    plies: u64,
    moves_compared: u64,
    gen_errors: u64,
    apply_errors: u64,
    budget_errors: u64,
    /// The reference evaluator ran out of budget, the compiled form did not
    /// or ran out elsewhere (allowed: it may take fewer steps).
    reference_out_of_budget: u64,
    ended: u64,
    /// Plies at which playouts ended (by end of game or no move).
    ended_at: [u64; 8],
    /// Plies at which playouts found no legal move.
    no_moves_at: [u64; 8],
    errors: std::collections::BTreeMap<String, u64>,
}

/// How the compiled form's result compares with the reference evaluator's.
#[derive(PartialEq, Eq, Debug)]
enum Verdict {
    Same,
    /// The compiled form takes at most the reference evaluator's steps (a
    /// kept value, a memo entry or a residual saves the steps of what it
    /// replaces; docs/ARCHITECTURE.md): when the reference evaluator runs
    /// out of budget, the compiled form may succeed or run out at another
    /// place. The playout stops there. The other way round is a failure.
    /// Likewise for the stack a recursion may take: the reference
    /// evaluator's frames are larger, so a deep recursion may be "too deep"
    /// for it only.
    ReferenceOutOfBudget,
    Differ,
}

/// An error's message as compared. The two evaluators' frames differ in
/// size, so a recursion runs out of its stack budget at different depths:
/// those counts are not compared (as `src/tests.rs` does).
fn error_text(e: &gamebot_rules::RuleError) -> String {
    let t = e.to_string();
    if t.contains("recursion too deep") {
        t.replace(|c: char| c.is_ascii_digit(), "")
    } else {
        t
    }
}

/// An error message without its position and context, for the statistics.
fn error_kind(e: &str) -> String {
    let e = e.split(" (in function").next().unwrap_or(e);
    let e = e.rsplit(": ").next().unwrap_or(e);
    e.chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .take(60)
        .collect()
}

fn out_of_budget(e: &str) -> bool {
    e.contains("evaluation budget exhausted")
}

/// `recheck` runs the reference evaluator again with the default budget
/// (given when the reference evaluator ran out and the compiled form did
/// not: then the compiled form must give what the reference evaluator gives
/// with enough budget).
fn verdict<T: PartialEq>(
    got: &Result<T, String>,
    exp: &Result<T, String>,
    recheck: impl FnOnce() -> Result<T, String>,
) -> (Verdict, Option<Result<T, String>>) {
    match (got, exp) {
        (Ok(a), Ok(b)) if a == b => (Verdict::Same, None),
        (Err(a), Err(b)) if a == b => (Verdict::Same, None),
        (_, Err(b)) if out_of_budget(b) => {
            if matches!(got, Err(a) if out_of_budget(a)) {
                return (Verdict::ReferenceOutOfBudget, None);
            }
            let again = recheck();
            let ok = match &again {
                Err(e) if out_of_budget(e) => true,
                r => r == got,
            };
            let v = if ok {
                Verdict::ReferenceOutOfBudget
            } else {
                Verdict::Differ
            };
            (v, Some(again))
        }
        // A deep recursion the compiled form's smaller frames can afford.
        (_, Err(b)) if too_deep(b) && got.as_ref().err().is_none_or(|a| too_deep(a)) => {
            (Verdict::ReferenceOutOfBudget, None)
        }
        _ => (Verdict::Differ, None),
    }
}

fn too_deep(e: &str) -> bool {
    e.contains("recursion too deep")
}

/// Everything of a state the two evaluators must agree on.
fn dump(st: &State) -> String {
    let mut s = format!("{st:?}");
    for e in 0..st.element_count() {
        let e = e as gamebot_rules::ElementId;
        write!(
            s,
            " {}:{}/{}/{}/{}",
            e,
            st.location_of(e),
            st.element_state(e),
            st.owner(e),
            st.zindex(e)
        )
        .unwrap();
    }
    s
}

fn moves_text(game: &Game, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| {
            let f = m
                .followup
                .as_ref()
                .map(|d| format!(" +{d:?}"))
                .unwrap_or_default();
            format!("{}@{}{f}", game.move_text(m), game.rule_name(m))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Plays the playouts of one game; `Err` describes a disagreement.
fn check_game(label: &str, text: &str, seed: u64, stats: &mut Stats) -> Result<(), String> {
    stats.games += 1;
    let game = match catch_unwind(AssertUnwindSafe(|| Game::parse("random.game", text))) {
        Ok(Ok(g)) => g,
        Ok(Err(_)) => return Ok(()),
        Err(p) => return Err(format!("Game::parse panicked: {}", panic_text(&p))),
    };
    stats.loaded += 1;
    let fail =
        |ply: String, what: String| -> String { format!("{label}: disagreement at {ply}: {what}") };
    let (mut sc, mut rsc) = (game.scratch(), game.scratch());
    rsc.set_reference_evaluator(true);
    let (mut moves, mut want) = (Vec::new(), Vec::new());
    let mut legal = LegalMoves::new();
    for playout in 0..PLAYOUTS {
        stats.playouts += 1;
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003) ^ playout);
        let budget = if playout % 3 == 2 {
            rng.gen_range(1..200)
        } else {
            BUDGET
        };
        sc.set_step_budget(budget);
        rsc.set_step_budget(budget);
        // Every other playout the compiled side applies moves as found legal.
        let found = playout % 2 == 1;
        let mut st = game.initial_state();
        for ply in 0..MAX_PLIES {
            let at = || format!("playout {playout} (budget {budget}, found {found}) ply {ply}");
            let got = catch_unwind(AssertUnwindSafe(|| {
                if found {
                    game.legal_moves_of(&st, &mut sc, &mut legal)
                        .map(|_| legal.to_vec())
                } else {
                    game.legal_moves_into(&st, &mut sc, &mut moves)
                        .map(|_| moves.clone())
                }
            }))
            .map_err(|p| {
                fail(
                    at(),
                    format!("compiled generation panicked: {}", panic_text(&p)),
                )
            })?
            .map_err(|e| error_text(&e));
            let exp = catch_unwind(AssertUnwindSafe(|| {
                game.legal_moves_into(&st, &mut rsc, &mut want)
                    .map(|_| want.clone())
            }))
            .map_err(|p| {
                fail(
                    at(),
                    format!("reference generation panicked: {}", panic_text(&p)),
                )
            })?
            .map_err(|e| error_text(&e));
            let (v, again) = verdict(&got, &exp, || {
                rsc.set_step_budget(gamebot_rules::DEFAULT_STEP_BUDGET);
                let r = game
                    .legal_moves_into(&st, &mut rsc, &mut want)
                    .map(|_| want.clone())
                    .map_err(|e| error_text(&e));
                rsc.set_step_budget(budget);
                r
            });
            match v {
                // Never more budget steps than the reference evaluator
                // (`Scratch::steps_taken`, `tests/budgets.rs`).
                Verdict::Same if got.is_ok() && sc.steps_taken() > rsc.steps_taken() => {
                    return Err(fail(
                        at(),
                        format!(
                            "generation took {} steps, the reference evaluator {}",
                            sc.steps_taken(),
                            rsc.steps_taken()
                        ),
                    ));
                }
                Verdict::Same => {}
                Verdict::ReferenceOutOfBudget => {
                    stats.reference_out_of_budget += 1;
                    break;
                }
                Verdict::Differ => {
                    let show = |r: &Result<Vec<Move>, String>| match r {
                        Ok(m) => format!("Ok[{}]", moves_text(&game, m)),
                        Err(e) => format!("Err({e})"),
                    };
                    let again = again
                        .map(|r| format!("\nreference with the default budget: {}", show(&r)))
                        .unwrap_or_default();
                    return Err(fail(
                        at(),
                        format!(
                            "legal moves differ in state {}\ncompiled:  {}\nreference: {}{again}",
                            dump(&st),
                            show(&got),
                            show(&exp)
                        ),
                    ));
                }
            }
            let list = match got {
                Ok(l) => l,
                Err(e) => {
                    stats.gen_errors += 1;
                    *stats.errors.entry(error_kind(&e)).or_default() += 1;
                    if e.contains("budget") {
                        stats.budget_errors += 1;
                    }
                    break;
                }
            };
            stats.moves_compared += list.len() as u64;
            stats.plies += 1;
            // The evaluation, when there is one.
            for p in 1..=game.player_count() as i32 {
                if game.has_evaluation(p) {
                    let a = game.evaluate(&st, p, &mut sc).map_err(|e| error_text(&e));
                    let b = game.evaluate(&st, p, &mut rsc).map_err(|e| error_text(&e));
                    let (v, _) = verdict(&a, &b, || {
                        rsc.set_step_budget(gamebot_rules::DEFAULT_STEP_BUDGET);
                        let r = game.evaluate(&st, p, &mut rsc).map_err(|e| error_text(&e));
                        rsc.set_step_budget(budget);
                        r
                    });
                    if v == Verdict::ReferenceOutOfBudget {
                        stats.reference_out_of_budget += 1;
                    } else if v == Verdict::Differ {
                        return Err(fail(
                            at(),
                            format!("[EVALUATION] differs: compiled {a:?}, reference {b:?}"),
                        ));
                    }
                }
            }
            if game.settle(&mut st, &list) {
                stats.ended += 1;
                stats.no_moves_at[ply.min(7)] += 1;
                break;
            }
            let i = rng.gen_range(0..list.len());
            let mv = list[i].clone();
            let mut st2 = st.clone();
            let st_before = st.clone();
            let before = dump(&st);
            let a = catch_unwind(AssertUnwindSafe(|| {
                if found {
                    game.apply_legal(&mut st, &legal, i, &mut sc)
                } else {
                    game.apply_with(&mut st, &mv, &mut sc)
                }
            }))
            .map_err(|p| fail(at(), format!("compiled apply panicked: {}", panic_text(&p))))?
            .map_err(|e| error_text(&e));
            let b = catch_unwind(AssertUnwindSafe(|| {
                game.apply_with(&mut st2, &mv, &mut rsc)
            }))
            .map_err(|p| {
                fail(
                    at(),
                    format!("reference apply panicked: {}", panic_text(&p)),
                )
            })?
            .map_err(|e| error_text(&e));
            let (da, db) = (dump(&st), dump(&st2));
            let (v, again) = verdict(
                &a.clone().map(|_| da.clone()),
                &b.clone().map(|_| db.clone()),
                || {
                    let mut st3 = st_before.clone();
                    rsc.set_step_budget(gamebot_rules::DEFAULT_STEP_BUDGET);
                    let r = game
                        .apply_with(&mut st3, &mv, &mut rsc)
                        .map(|_| dump(&st3))
                        .map_err(|e| error_text(&e));
                    rsc.set_step_budget(budget);
                    r
                },
            );
            if v == Verdict::ReferenceOutOfBudget {
                stats.reference_out_of_budget += 1;
                break;
            }
            if v == Verdict::Same && a.is_ok() && sc.steps_taken() > rsc.steps_taken() {
                return Err(fail(
                    at(),
                    format!(
                        "the end checks after {} took {} steps, the reference evaluator {}",
                        moves_text(&game, std::slice::from_ref(&mv)),
                        sc.steps_taken(),
                        rsc.steps_taken()
                    ),
                ));
            }
            if v == Verdict::Differ {
                return Err(fail(
                    at(),
                    format!(
                        "applying {} (move {i} of [{}]) to {before}\ncompiled:  {a:?} {da}\nreference: {b:?} {db}{}",
                        moves_text(&game, std::slice::from_ref(&mv)),
                        moves_text(&game, &list),
                        again
                            .map(|r| format!("\nreference with the default budget: {r:?}"))
                            .unwrap_or_default()
                    ),
                ));
            }
            if let Err(e) = a {
                stats.apply_errors += 1;
                *stats.errors.entry(error_kind(&e)).or_default() += 1;
                if e.contains("budget") {
                    stats.budget_errors += 1;
                }
                break;
            }
            if st.is_over() {
                stats.ended += 1;
                stats.ended_at[ply.min(7)] += 1;
                break;
            }
        }
    }
    Ok(())
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number"))
    })
}

fn run_seeds(seeds: impl Iterator<Item = u64>, print: bool) -> Stats {
    let keep_going = std::env::var("GAMEBOT_RANDOM_GAMES_KEEP_GOING").is_ok_and(|v| v != "0");
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for seed in seeds {
        let text = match catch_unwind(|| generate(seed)) {
            Ok(t) => t,
            Err(p) => panic!("the generator panicked on seed {seed}: {}", panic_text(&p)),
        };
        if print {
            eprintln!("{text}");
        }
        if let Err(msg) = check_game(&format!("seed {seed}"), &text, seed, &mut stats) {
            let full = format!(
                "{msg}\nreproduce: GAMEBOT_RANDOM_GAMES_SEED={seed} cargo test -p gamebot_rules --test random_games\n--- game text (seed {seed}) ---\n{text}--- end of game text ---"
            );
            if keep_going {
                eprintln!("FAILURE {}", msg.lines().next().unwrap_or(""));
                failures.push(full);
            } else {
                panic!("{full}");
            }
        }
    }
    eprintln!("{stats:?}");
    if !failures.is_empty() {
        panic!(
            "{} failing games:\n{}",
            failures.len(),
            failures.join("\n\n")
        );
    }
    stats
}

#[test]
fn random_games_agree_with_the_reference() {
    if let Ok(path) = std::env::var("GAMEBOT_RANDOM_GAMES_FILE") {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut stats = Stats::default();
        let seed = env_u64("GAMEBOT_RANDOM_GAMES_SEED").unwrap_or(0);
        if let Err(msg) = check_game(&path, &text, seed, &mut stats) {
            panic!("{msg}");
        }
        assert_eq!(stats.loaded, 1, "{path} does not load");
        eprintln!("{stats:?}");
        return;
    }
    if let Some(seed) = env_u64("GAMEBOT_RANDOM_GAMES_SEED") {
        run_seeds(std::iter::once(seed), true);
        return;
    }
    let n = env_u64("GAMEBOT_RANDOM_GAMES").unwrap_or(DEFAULT_GAMES);
    let first = env_u64("GAMEBOT_RANDOM_GAMES_FIRST").unwrap_or(0);
    let stats = run_seeds(first..first + n, false);
    if n < 50 {
        // Too few games for the proportions below to hold.
        return;
    }
    assert!(
        stats.loaded * 10 >= stats.games * 6,
        "only {} of {} generated games load",
        stats.loaded,
        stats.games
    );
    assert!(
        stats.moves_compared >= 20 * n,
        "only {} moves compared in {} games",
        stats.moves_compared,
        n
    );
    assert!(stats.plies >= 5 * n, "only {} plies played", stats.plies);
}

/// The same seed gives the same text.
#[test]
fn the_generator_is_deterministic() {
    for seed in [0, 1, 17, 12345] {
        assert_eq!(generate(seed), generate(seed));
    }
    assert_ne!(generate(1), generate(2));
}

/// The reproducers kept in `tests/data/random-games/` (disagreements found
/// by this generator, minimised by hand; each file's header says what
/// disagreed): the two evaluators agree on them now.
#[test]
fn saved_reproducers_agree() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/random-games");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut files: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    let mut failures = Vec::new();
    for f in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
    {
        let text = std::fs::read_to_string(f).unwrap();
        let mut stats = Stats::default();
        let label = f.display().to_string();
        match check_game(&label, &text, 0, &mut stats) {
            Err(msg) => failures.push(msg),
            Ok(()) if stats.loaded == 0 => failures.push(format!("{label}: does not load")),
            Ok(()) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
