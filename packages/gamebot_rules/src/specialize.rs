//! Partial evaluation at load time: of the end-of-game and scoring
//! expressions (issue 18, twenty-second step), and of rules' targets and
//! condition parts with a pattern's variables known (steps 23–25, see
//! "Rule targets and condition parts" below).
//!
//! An end-of-game check written the original way, `HasLine(1)`, calls a
//! function that loops over the board with constant bounds, calls helpers
//! with constant arguments and builds location names from them
//! (`"s($X,$Y)"`), checking afterwards whether they are on the board
//! (`IsValid`). All of that is known when the game loads; only the contents
//! of the squares are not. [`Specializer::top`] evaluates what is known and
//! leaves the rest, the *residual*: loops with constant bounds are unrolled
//! (`FORALL` into a chain of `AND`, `FORSOME` of `OR`), calls of functions
//! that cannot reach themselves are inlined (their body lines a chain of
//! `IF(line, rest, false)`), names whose parts are known become literals or,
//! when no location or element has them, the answer of the built-in for an
//! unknown name (`EMPTY` true, `CONTENT` `""`, `STATE` −1, …), and `LOCTYPE`
//! and `ELTYPE` of a literal name become the type's name. Then assignments
//! of literals to dead variables nothing reads are dropped, what that left
//! known is folded ([`simplify`]: `true AND x` is `x`), and a dead temporary
//! holding a position read (`$OC = CONTENT("s(1,2)")`) is read in place
//! ([`forward`]). `HasLine(1)` of the tic-tac-toe fixture becomes the eight
//! lines' ownership tests, `CONTENT("s(1,1)") == ""` and
//! `OWNER(CONTENT("s(1,1)")) == 1`, in `AND`/`OR` chains: 287 nodes where the
//! unrolled calls had 3,194.
//!
//! # When the residual is used
//! Only where it pays, which was measured (docs/BENCHMARKS.md, the
//! twenty-second step and the version tried before it): the residual runs
//! over registers where `pure.rs` can take it (`pure::compile_residual`)
//! and through the general closures otherwise, and it has no memo entries,
//! while the original's memoized calls and loop units recompute after a
//! move only what the move touched. So a residual is used when
//! - it assigns nothing and calls nothing (assignments are namespace writes
//!   in the closures; a counting loop, `nim-orig`'s `Left`, was twice as
//!   slow unrolled as over registers with its memo entries),
//! - it is at most [`MAX_NODES`] nodes (`connect4-orig`'s `HasFour`, 3,311
//!   nodes, was 5 % slower than its memoized rows run in full), or at most
//!   [`MAX_KEPT_NODES`] when it is a formula whose clauses are kept per
//!   position (`pure::compile_kept_formula`: `HasFour`, now 1,655 nodes,
//!   69 clauses of which a move reruns those reading what it changed, half
//!   the instructions of a game), and
//! - it is at most half of the unrolled and inlined expression (`frogs`'
//!   `Solved`, where nothing folds, runs better as its loops over registers).
//!
//! # Rule targets and condition parts
//! Move generation evaluates a rule's `toLocations` once per element and a
//! hoisted condition `A AND B` (`loader/independence.rs`) once per element
//! (`A`) and per target (`B`), each time binding the patterns' variables
//! and running the same helpers (`Hops($P, 1)`, `CanGo($E, $P, $C, $R)`)
//! with the same few values. [`Specializer::targets`] specializes
//! `toLocations` for each `from` location, [`Specializer::right_side`] `B`
//! for each target and [`Specializer::left_side`] `A` for each element or
//! each `from` location, with those variables known ([`Use::Targets`]):
//! `frogs`' `Hops(3, 1)` becomes `IF(EMPTY("pad(4)"), {"pad(4)"},
//! IF(EMPTY("pad(5)"), {"pad(5)"}, {}))`, `connect4-orig`'s `B` at `b(3,2)`
//! `NOT EMPTY("b(3,1)")`, its `A` for disc 5 `OWNER("d(5)") == $P`. Three
//! steps make such residuals free of assignments: a call whose value is
//! known and that only assigned literals to dead variables is that value
//! (`OnPads(8)` is `false`); a dead variable assigned in the branches of
//! `IF`s whose conditions cannot fail, or assigned a bound variable, is
//! replaced by its values ([`Resolve`]); and leading assignments of a
//! hoisted call that nothing reads are left out (they cannot fail). Calls
//! of functions with a loop stay calls (they run over registers, as in the
//! original), and the smaller of two sides of `AND`/`OR` that cannot fail
//! goes first (`nim`'s `EMPTY` of the next match before the turn's state).
//! Such a residual runs over registers only (`compile.rs`: `FromTargets`,
//! `ConditionPart`, `LeftChecks`); when the registers give up, the original
//! runs. Soundness: ARCHITECTURE, "Decisions".
//!
//! # Invariants
//! - **Order.** The residual performs the reads, writes and state changes
//!   of the original in the original order; it only leaves out the parts
//!   whose values were known (which read nothing and change nothing) and
//!   the branches a known condition does not take.
//! - **Variables.** Every assignment of the original (parameters bound by a
//!   call, loop variables, `=`) stays in the residual while the pass runs,
//!   so at every point the variables hold what they would hold in the
//!   original: a part that is not specialized (a call left as it is, a loop
//!   not unrolled, an interpolation with an unknown part) may read any of
//!   them. The one exception while the pass runs: an inlined call whose
//!   value is known and which only assigned literals to dead variables is
//!   replaced by its value (nothing of the call is left to read them, and
//!   nothing outside it reads a dead variable). Only at the end, an
//!   assignment to a *dead* variable (`memo::dead_vars`: no other
//!   invocation reads what it holds) is dropped when it is of a literal and
//!   nothing in the residual reads the variable, or when it is of a
//!   position read that can be read again in place (nothing between
//!   changes the state or the variable), or, in a residual of
//!   [`Use::Targets`], when [`Resolve`] replaced its reads by its values.
//! - **Nothing is guessed.** A part is folded only when its value is known
//!   and computing it cannot fail (an overflow, a division by zero or a
//!   kind mismatch stays in the residual and fails when it runs). Where the
//!   residual could differ in any way it cannot express (a line of a body
//!   that need not be Bool, a name no symbol has in a place that is not a
//!   built-in's argument), the pass gives up and the expression is
//!   compiled as written.
//! - **Errors are those of the original.** A residual that could change the
//!   state (a state-changing built-in, or a call of a function that can
//!   reach one) is not used. When the residual fails (it writes no
//!   variable), the evaluation budget is put back and the original runs
//!   (`Ctx::run_special`), so the error and its trace are exactly the
//!   original's. (What the residual leaves out are loop iterations and
//!   calls, which are budget steps: a residual that succeeds takes fewer
//!   steps than the original, as a memo entry that is used does.)
//! - **Bounded.** The walk stops after [`MAX_WORK`] nodes ([`MAX_KEPT_WORK`]
//!   for an end-of-game or scoring expression, whose residual is then used
//!   only as a kept formula), a loop of more
//!   than [`MAX_UNROLL`] iterations is left a loop, and a residual deeper
//!   than [`MAX_DEPTH`] is not used (the passes over it recurse).
//! - The reference evaluator never runs a residual (the digest test
//!   compares the two on every game).

use crate::expr::{Builtin, Expr, FuncId, LazyItem, VarId};
use crate::game::{Function, Template, TemplatePiece};
use crate::lexer::Op;
use crate::value::Sym;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// The largest residual used, in expression nodes.
pub(crate) const MAX_NODES: usize = 1024;
/// The largest end-of-game or scoring residual used when it is a formula
/// whose clauses are kept per position ([`Specializer::top`]).
pub(crate) const MAX_KEPT_NODES: usize = 4 * MAX_NODES;
/// The most nodes the walk visits before it gives up (a residual must be at
/// most half of them, so more would only be walked to be thrown away; the
/// walk costs a few hundred instructions a node at load).
pub(crate) const MAX_WORK: usize = 8 * MAX_NODES;
/// The most nodes the walk of an end-of-game or scoring expression visits:
/// one that visits more than [`MAX_WORK`] is used only as a kept formula
/// ([`Specializer::top`]).
pub(crate) const MAX_KEPT_WORK: usize = 8 * MAX_KEPT_NODES;
/// The largest residual of a rule's targets ([`Use::Targets`]) taken
/// further, in expression nodes, before and after the passes that follow
/// the walk.
pub(crate) const MAX_TARGET_NODES: usize = 128;
/// The most iterations of one loop unrolled.
pub(crate) const MAX_UNROLL: i64 = 64;
/// The deepest residual used (the passes over it recurse, on the loading
/// thread's stack).
pub(crate) const MAX_DEPTH: usize = 256;

/// A value known at load time.
#[derive(Clone, Debug, PartialEq)]
enum K {
    Int(i32),
    Bool(bool),
    Sym(Sym),
    /// A text the game has no symbol for (so no location or element has it).
    Text(String),
}

/// A specialized expression: known, or code left for run time.
enum S {
    K(K),
    E(Expr),
}

/// Why the pass gave up on an expression.
struct GiveUp;

/// What a residual is for, which decides the residuals used.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    /// An end-of-game or scoring expression ([`Specializer::top`]).
    Whole,
    /// A rule's `toLocations` for one `from` location or a part of a
    /// hoisted condition ([`Specializer::targets`], `right_side`,
    /// `left_side`); calls of functions with a loop are left as calls (they
    /// run over registers, `pure.rs`, as in the original).
    Targets,
}

type Sp = Result<S, GiveUp>;

/// What is known of the variables at a point: the known ones with their
/// values (few at a time, so a list: cloning it at each branch costs what
/// is known, not the game's number of variables).
#[derive(Clone, Default)]
struct Env(Vec<(VarId, K)>);

impl Env {
    fn get(&self, v: VarId) -> Option<&K> {
        self.0.iter().find(|(w, _)| *w == v).map(|(_, k)| k)
    }

    fn set(&mut self, v: VarId, k: Option<K>) {
        let at = self.0.iter().position(|(w, _)| *w == v);
        match (at, k) {
            (Some(i), Some(k)) => self.0[i].1 = k,
            (Some(i), None) => {
                self.0.swap_remove(i);
            }
            (None, Some(k)) => self.0.push((v, k)),
            (None, None) => {}
        }
    }
}

/// What the pass needs of a game: its functions, templates and names.
pub(crate) struct Specializer<'a> {
    pub funcs: &'a [Option<Function>],
    pub templates: &'a [Template],
    pub syms: &'a [Arc<str>],
    pub sym_map: &'a FxHashMap<Arc<str>, Sym>,
    pub sym_loc: &'a [u16],
    pub sym_elem: &'a [u16],
    /// Per location: the name of its type.
    pub loc_type: Vec<Sym>,
    /// Per element: the name of its type.
    pub elem_type: Vec<Sym>,
    pub empty_sym: Sym,
    pub dead: &'a [bool],
    /// What each function reaches ([`Reach::new`]), once per game.
    reach: Reach,
}

/// Per function, following calls and deferred calls: whether it can reach
/// itself, the variables it may write and mention, whether it may change
/// the state.
struct Reach {
    recursive: Vec<bool>,
    /// Whether the function's own body has a loop (a call of it is left as
    /// it is in a rule's targets, [`Use::Targets`]).
    loops: Vec<bool>,
    writes: Vec<FxHashSet<VarId>>,
    mentions: Vec<FxHashSet<VarId>>,
    effects: Vec<bool>,
}

/// Whether built-in `b` changes the state.
pub(crate) fn changes_state(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::Move
            | Builtin::SetOwner
            | Builtin::SetState
            | Builtin::SetZIndex
            | Builtin::NextPlayer
    )
}

fn writes_of(e: &Expr, out: &mut FxHashSet<VarId>) {
    e.walk(&mut |x| match x {
        Expr::Assign(v, _) | Expr::Loop { var: v, .. } => {
            out.insert(*v);
        }
        _ => {}
    });
}

impl Reach {
    fn new(funcs: &[Option<Function>], templates: &[Template]) -> Reach {
        let n = funcs.len();
        let calls = crate::call_graph::CallGraph::new(funcs);
        let mut writes = vec![FxHashSet::default(); n];
        let mut mentions = vec![FxHashSet::default(); n];
        let mut effects = vec![false; n];
        let mut loops = vec![false; n];
        for (g, def) in funcs.iter().enumerate() {
            let Some(def) = def else { continue };
            writes[g].extend(def.params.iter().copied());
            mentions[g].extend(def.params.iter().copied());
            for l in &def.body {
                writes_of(&l.expr, &mut writes[g]);
                crate::memo::mentions(&l.expr, templates, &mut mentions[g]);
                l.expr.walk(&mut |x| match x {
                    Expr::Builtin(b, _) => effects[g] |= changes_state(*b),
                    Expr::Loop { .. } => loops[g] = true,
                    _ => {}
                });
            }
        }
        // Everything reachable from each function (including itself when recursive).
        let mut recursive = vec![false; n];
        for g in 0..n {
            recursive[g] = calls.reaches(g, g);
            for h in calls.reached(g).filter(|&h| h != g) {
                let (w, m, e) = (writes[h].clone(), mentions[h].clone(), effects[h]);
                writes[g].extend(w);
                mentions[g].extend(m);
                effects[g] |= e;
            }
            // An undefined function called is an error, not an effect.
        }
        Reach {
            recursive,
            loops,
            writes,
            mentions,
            effects,
        }
    }
}

/// The walk's own state: what is known, and how much was done.
struct Walk<'s, 'a> {
    sp: &'s Specializer<'a>,
    reach: &'s Reach,
    env: Env,
    /// Calls inlined and loops unrolled (a residual without either is not worth using).
    changed: bool,
    /// Nodes made so far (the walk stops after `limit`).
    work: usize,
    limit: usize,
    /// What the residual is for.
    mode: Use,
    /// A function whose last line is taken to be this expression where it
    /// is inlined ([`Specializer::right_side`]).
    last_of: Option<(FuncId, Expr)>,
    /// A location known to be empty wherever the residual runs: the target
    /// of the part `B` of a condition ([`Specializer::right_side`]).
    empty: Option<u16>,
}

impl<'a> Specializer<'a> {
    /// The pass over a game's expressions.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        funcs: &'a [Option<Function>],
        templates: &'a [Template],
        syms: &'a [Arc<str>],
        sym_map: &'a FxHashMap<Arc<str>, Sym>,
        sym_loc: &'a [u16],
        sym_elem: &'a [u16],
        loc_type: Vec<Sym>,
        elem_type: Vec<Sym>,
        empty_sym: Sym,
        dead: &'a [bool],
    ) -> Specializer<'a> {
        Specializer {
            reach: Reach::new(funcs, templates),
            funcs,
            templates,
            syms,
            sym_map,
            sym_loc,
            sym_elem,
            loc_type,
            elem_type,
            empty_sym,
            dead,
        }
    }

    /// The residual of an end-of-game or scoring expression, or `None` when
    /// the pass gave up, changed nothing worth having, or the residual is
    /// not used (see the module documentation). Such a residual assigns no
    /// variable and calls no function.
    ///
    /// With it, whether it is larger than [`MAX_NODES`] (at most
    /// [`MAX_KEPT_NODES`]) or its walk visited more than [`MAX_WORK`] nodes
    /// (at most [`MAX_KEPT_WORK`]): such a residual is used only when it is
    /// a formula whose clauses are kept per position
    /// (`pure::compile_kept_formula`; `connect4-orig`'s `HasFour`, 69 lines
    /// of four tests). (The walk is the same up to [`MAX_WORK`] nodes, so
    /// an expression whose walk stays under it has the residual it had.)
    pub(crate) fn top(&self, e: &Expr) -> Option<(Expr, bool)> {
        let (x, work) = self.residual(e, &[], Use::Whole, None, &FxHashSet::default(), None)?;
        // Used only where it pays (see the module documentation): small, at
        // most half the unrolled and inlined work, nothing assigned or called.
        let n = size(&x);
        (n <= MAX_KEPT_NODES && work >= 2 * n && !assigns(&x))
            .then_some((x, n > MAX_NODES || work > MAX_WORK))
    }

    /// The residual of a rule's `toLocations` for one `from` location, with
    /// the `from` pattern's variables `bound` (bound last before the
    /// expression runs, so they hold these values), or `None` (as
    /// [`Specializer::top`]); `readable` are the variables bound whenever
    /// it runs (those bound before the targets). It assigns no variable; it
    /// may call functions that change no state and write only dead
    /// variables ([`Use::Targets`]). With it, whether it reads no variable
    /// ([`Specializer::closed`]).
    pub(crate) fn targets(
        &self,
        e: &Expr,
        bound: &[(VarId, i32)],
        readable: &FxHashSet<VarId>,
    ) -> Option<(Expr, bool)> {
        let (x, _) = self.residual(e, bound, Use::Targets, None, readable, None)?;
        let closed = self.closed(&x);
        self.standalone(&x).then_some((x, closed))
    }

    /// The residual of the part `B` of a hoisted rule condition for one
    /// `to` target, the `to` pattern's variables `bound`: of `B` in `A AND
    /// B`, or, for a condition `F(..)` whose last line is `A AND B`, of the
    /// call with `B` in place of that line. Only a residual that reads
    /// nothing but the position ([`Specializer::closed`]): it gives what
    /// `B` gives at that target whatever the element (where `A` was true).
    /// For `F(..)`, the residual's leading assignments (the parameters
    /// bound to the element's variables, temporaries) are left out when
    /// they cannot fail or only read a variable: they are the same at every
    /// target of an element, and ran before `A` at its first target.
    /// `EMPTY(target)` is `true` and `CONTENT(target)` is `""` in it: a
    /// condition runs with its target empty.
    pub(crate) fn right_side(
        &self,
        cond: &Expr,
        bound: &[(VarId, i32)],
        target: u16,
    ) -> Option<Expr> {
        let none = FxHashSet::default();
        let x = match cond {
            Expr::Binary(Op::And, _, b) => {
                match self.residual(b, bound, Use::Targets, None, &none, Some(target)) {
                    Some((x, _)) => x,
                    None => self.unchanged(b)?,
                }
            }
            Expr::Call(f, _) => {
                let def = self.funcs.get(*f as usize)?.as_ref()?;
                let Expr::Binary(Op::And, _, b) = &def.body.last()?.expr else {
                    return None;
                };
                let last_of = Some((*f, (**b).clone()));
                let (x, _) =
                    self.residual(cond, bound, Use::Targets, last_of, &none, Some(target))?;
                // The assignments before `B'`: of a variable's value or of a
                // value that cannot fail.
                leading_stores_dropped(x, &|_, value, _| {
                    matches!(value, Expr::Var(_)) || stable(value)
                })
            }
            _ => return None,
        };
        (self.standalone(&x) && self.closed(&x)).then_some(x)
    }

    /// The residual of the part `A` of a hoisted rule condition (`A` in `A
    /// AND B`, or the call `F(..)` with `A` in place of its last line `A AND
    /// B`) with some of the variables bound before the targets known
    /// (`bound`: an element's or a `from` location's), or `None`. It may
    /// read only variables in `readable` (those bound before the targets,
    /// which hold the same values whenever `A` runs for that element or
    /// location, and the target's, bound when `A` runs at an element's first
    /// target): it gives what `A` gives there. A condition `F(..)` must be
    /// one that `loader/independence.rs` hoists (`Rule::hoist_call`).
    pub(crate) fn left_side(
        &self,
        cond: &Expr,
        bound: &[(VarId, i32)],
        readable: &FxHashSet<VarId>,
    ) -> Option<Expr> {
        let x = match cond {
            Expr::Binary(Op::And, a, _) => {
                match self.residual(a, bound, Use::Targets, None, readable, None) {
                    Some((x, _)) => x,
                    None => self.unchanged(a)?,
                }
            }
            Expr::Call(f, _) => {
                let def = self.funcs.get(*f as usize)?.as_ref()?;
                let Expr::Binary(Op::And, a, _) = &def.body.last()?.expr else {
                    return None;
                };
                let last_of = Some((*f, (**a).clone()));
                let (x, _) = self.residual(cond, bound, Use::Targets, last_of, readable, None)?;
                // Leading assignments nothing after them reads: the lines of
                // a hoisted call are assignments that cannot fail and its
                // arguments literals or bound variables
                // (`loader/independence.rs`), so leaving them out changes
                // nothing but what dead variables hold.
                leading_stores_dropped(x, &|v, _, rest| {
                    let mut r = FxHashSet::default();
                    reads_of(rest, self.templates, &self.reach, &mut r);
                    !r.contains(&v)
                })
            }
            _ => return None,
        };
        (self.standalone(&x) && self.reads_only(&x, readable)).then_some(x)
    }

    /// Whether a residual reads no variable outside `readable` (in it, in a
    /// template, in a called function but its dead ones).
    fn reads_only(&self, x: &Expr, readable: &FxHashSet<VarId>) -> bool {
        let dead = |v: VarId| self.is_dead(v);
        let mut ok = true;
        x.walk(&mut |y| match y {
            Expr::Var(v) => ok &= readable.contains(v),
            Expr::Interp(t) => {
                ok &= self
                    .templates
                    .get(*t as usize)
                    .is_some_and(|tpl| tpl.vars.iter().all(|v| readable.contains(v)))
            }
            Expr::Call(h, _) => {
                ok &= self
                    .reach
                    .mentions
                    .get(*h as usize)
                    .is_some_and(|m| m.iter().all(|&v| dead(v)))
            }
            _ => {}
        });
        ok
    }

    /// Whether a residual of [`Use::Targets`] can run in place of the
    /// expression: small, nothing assigned, calls only of functions that
    /// write dead variables alone (what a call leaves in them nothing reads).
    fn standalone(&self, x: &Expr) -> bool {
        let dead = |v: VarId| self.is_dead(v);
        let mut ok = size(x) <= MAX_TARGET_NODES;
        x.walk(&mut |y| match y {
            Expr::Assign(..) | Expr::Loop { .. } | Expr::Lazy(..) => ok = false,
            Expr::Call(h, _) => {
                ok &= self
                    .reach
                    .writes
                    .get(*h as usize)
                    .is_some_and(|ws| ws.iter().all(|&v| dead(v)))
            }
            _ => {}
        });
        ok
    }

    /// A side of `A AND B` as written when specializing it changed nothing
    /// ([`Specializer::residual`] gives `None` then) and it reads no
    /// variable and changes nothing: it runs in place of itself as a check
    /// (`nim-orig`'s `pass`, `STATE("token") > 1 AND true`, asked once per
    /// element before its targets). (Its size is checked with the
    /// residuals', `Specializer::standalone`.)
    fn unchanged(&self, x: &Expr) -> Option<Expr> {
        (!deeper_than(x, MAX_DEPTH) && !may_change_state(x, &self.reach) && self.closed(x))
            .then(|| x.clone())
    }

    /// Whether a residual reads no variable: none in it, none in a template,
    /// none a called function mentions but its dead ones (which it writes
    /// before it reads them).
    fn closed(&self, x: &Expr) -> bool {
        self.reads_only(x, &FxHashSet::default())
    }

    /// The residual after the passes, with the nodes the walk made, or
    /// `None` when the walk gave up, changed nothing or the result is too
    /// deep (or, for [`Use::Targets`], too large).
    fn residual(
        &self,
        e: &Expr,
        bound: &[(VarId, i32)],
        mode: Use,
        last_of: Option<(FuncId, Expr)>,
        readable: &FxHashSet<VarId>,
        empty: Option<u16>,
    ) -> Option<(Expr, usize)> {
        let reach = &self.reach;
        let mut env = Env::default();
        for &(v, x) in bound {
            env.set(v, Some(K::Int(x)));
        }
        let mut w = Walk {
            sp: self,
            reach,
            env,
            changed: false,
            work: 0,
            limit: match mode {
                Use::Whole => MAX_KEPT_WORK,
                Use::Targets => MAX_NODES,
            },
            mode,
            last_of,
            empty,
        };
        let out = w.spec(e).ok()?;
        if !w.changed {
            return None;
        }
        let expr = w.emit(out).ok()?;
        // The passes below recurse over the residual: a deep one is not used.
        if deeper_than(&expr, MAX_DEPTH) {
            return None;
        }
        // A rule's targets pay only when small, and the passes below cost
        // more than linear time (at every load).
        if mode == Use::Targets && size(&expr) > MAX_TARGET_NODES {
            return None;
        }
        let dead = |v: VarId| self.is_dead(v);
        // Drop assignments of literals to dead variables nothing reads.
        let mut reads = FxHashSet::default();
        reads_of(&expr, self.templates, reach, &mut reads);
        let expr = drop_stores(expr, &|v| dead(v) && !reads.contains(&v));
        let mut expr = simplify(expr);
        if may_change_state(&expr, reach) {
            return None;
        }
        // Dead variables assigned values that can be read anywhere: their
        // reads replaced by those values.
        let mut assigned = FxHashSet::default();
        if mode == Use::Targets {
            writes_of(&expr, &mut assigned);
        }
        let mut assigned: Vec<VarId> = assigned.into_iter().filter(|&v| dead(v)).collect();
        assigned.sort_unstable();
        for v in assigned {
            let mut written = FxHashSet::default();
            writes_of(&expr, &mut written);
            let mut calls = Vec::new();
            crate::call_graph::call_sites(&expr, |h| calls.push(h));
            for h in calls {
                if let Some(ws) = reach.writes.get(h as usize) {
                    written.extend(ws.iter().copied());
                }
            }
            if let Some(x) = (Resolve {
                v,
                sp: self,
                written: &written,
                readable,
            })
            .seq(&expr, None)
            {
                expr = simplify(x);
            }
        }
        // Temporaries holding a read of the position, read in place instead.
        let mut expr = forward(expr, &dead, reach);
        if self.elem_of(&K::Sym(self.empty_sym)).is_none() {
            expr = occupant_tests(expr, self.empty_sym);
        }
        if mode == Use::Targets {
            expr = cheaper_first(expr);
        }
        if deeper_than(&expr, MAX_DEPTH) {
            return None;
        }
        Some((expr, w.work))
    }

    /// Whether `v` is dead (`memo::dead_vars`).
    fn is_dead(&self, v: VarId) -> bool {
        self.dead.get(v as usize).copied().unwrap_or(false)
    }

    fn inlinable(&self, reach: &Reach, f: FuncId, argc: usize) -> bool {
        match self.funcs.get(f as usize) {
            Some(Some(def)) => {
                !reach.recursive[f as usize] && def.params.len() == argc && !def.body.is_empty()
            }
            _ => false,
        }
    }

    fn text_of(&self, k: &K) -> Option<String> {
        match k {
            K::Int(i) => Some(i.to_string()),
            K::Sym(s) => self.syms.get(*s as usize).map(|t| t.to_string()),
            K::Text(t) => Some(t.clone()),
            K::Bool(_) => None,
        }
    }

    fn known_text(&self, text: &str) -> K {
        match self.sym_map.get(text) {
            Some(&s) => K::Sym(s),
            None => K::Text(text.to_string()),
        }
    }

    fn loc_of(&self, k: &K) -> Option<u16> {
        id_in(self.sym_loc, k)
    }

    fn elem_of(&self, k: &K) -> Option<u16> {
        id_in(self.sym_elem, k)
    }
}

/// The id a symbol-indexed table (`sym_loc`, `sym_elem`) gives a known
/// name, `None` for no such name or a value that is not a name.
fn id_in(table: &[u16], k: &K) -> Option<u16> {
    match k {
        K::Sym(s) => table.get(*s as usize).copied().filter(|&i| i != u16::MAX),
        _ => None,
    }
}

/// Whether `e` gives a Bool whenever it gives a value.
fn is_bool(e: &Expr) -> bool {
    match e {
        Expr::Bool(_) | Expr::Assign(..) | Expr::Loop { .. } => true,
        Expr::Unary(Op::Not, _) => true,
        Expr::Binary(op, ..) => matches!(
            op,
            Op::Eq
                | Op::Ne
                | Op::Lt
                | Op::Le
                | Op::Gt
                | Op::Ge
                | Op::And
                | Op::Or
                | Op::In
                | Op::Subset
        ),
        Expr::Builtin(b, a) => match b {
            Builtin::Empty
            | Builtin::Move
            | Builtin::SetOwner
            | Builtin::SetState
            | Builtin::SetZIndex
            | Builtin::NextPlayer => true,
            Builtin::If => a.len() == 3 && is_bool(&a[1]) && is_bool(&a[2]),
            _ => false,
        },
        _ => false,
    }
}

/// Whether `e` nests deeper than `limit` (recursing at most `limit` deep).
fn deeper_than(e: &Expr, limit: usize) -> bool {
    if limit == 0 {
        return true;
    }
    let kids = |xs: &[Expr]| xs.iter().any(|x| deeper_than(x, limit - 1));
    match e {
        Expr::Set(xs) | Expr::Call(_, xs) | Expr::Builtin(_, xs) => kids(xs),
        Expr::Lazy(items) => items.iter().any(|it| match it {
            LazyItem::Defer(_, xs) => kids(xs),
            LazyItem::Now(x) => deeper_than(x, limit - 1),
        }),
        Expr::Loop { from, to, body, .. } => {
            deeper_than(from, limit - 1)
                || deeper_than(to, limit - 1)
                || deeper_than(body, limit - 1)
        }
        Expr::Unary(_, x) | Expr::Assign(_, x) => deeper_than(x, limit - 1),
        Expr::Binary(_, a, b) => deeper_than(a, limit - 1) || deeper_than(b, limit - 1),
        _ => false,
    }
}

/// `x` without the leading guards `IF($v = value, rest, false)` that
/// `drop(v, value, rest)` accepts, one after the other: each is `rest`
/// with `$v` assigned (an assignment gives `true`).
fn leading_stores_dropped(mut x: Expr, drop: &dyn Fn(VarId, &Expr, &Expr) -> bool) -> Expr {
    loop {
        match x {
            Expr::Builtin(Builtin::If, a)
                if a.len() == 3
                    && matches!(a[2], Expr::Bool(false))
                    && matches!(&a[0], Expr::Assign(v, value) if drop(*v, value, &a[1])) =>
            {
                x = a.into_vec().swap_remove(1);
            }
            other => return other,
        }
    }
}

/// The number of nodes of `e`.
pub(crate) fn size(e: &Expr) -> usize {
    let mut n = 0;
    e.walk(&mut |_| n += 1);
    n
}

fn may_change_state(e: &Expr, reach: &Reach) -> bool {
    let mut yes = false;
    e.walk(&mut |x| match x {
        Expr::Builtin(b, _) => yes |= changes_state(*b),
        Expr::Call(h, _) => yes |= reach.effects.get(*h as usize).copied().unwrap_or(false),
        _ => {}
    });
    yes
}

/// The variables `e` may read, following calls and deferred calls.
fn reads_of(e: &Expr, templates: &[Template], reach: &Reach, out: &mut FxHashSet<VarId>) {
    e.walk(&mut |x| match x {
        Expr::Var(v) => {
            out.insert(*v);
        }
        Expr::Interp(t) => {
            if let Some(tpl) = templates.get(*t as usize) {
                out.extend(tpl.vars.iter().copied());
            }
        }
        Expr::Call(h, _) => {
            if let Some(m) = reach.mentions.get(*h as usize) {
                out.extend(m.iter().copied());
            }
        }
        Expr::Lazy(items) => {
            for it in items.iter() {
                if let LazyItem::Defer(h, _) = it {
                    if let Some(m) = reach.mentions.get(*h as usize) {
                        out.extend(m.iter().copied());
                    }
                }
            }
        }
        _ => {}
    });
}

/// Drops `IF($v = literal, rest, false)` to `rest` and `($v = literal) AND
/// rest` to `rest` (where `rest` is Bool) for the variables `gone` accepts.
fn drop_stores(e: Expr, gone: &dyn Fn(VarId) -> bool) -> Expr {
    let lit = |x: &Expr| matches!(x, Expr::Int(_) | Expr::Bool(_) | Expr::Str(_));
    let mut rec = |x: Expr| drop_stores(x, gone);
    match e {
        Expr::Builtin(Builtin::If, a) if a.len() == 3 => {
            let mut a = a.into_vec();
            if let (Expr::Assign(v, x), Expr::Bool(false)) = (&a[0], &a[2]) {
                if lit(x) && gone(*v) {
                    return rec(a.swap_remove(1));
                }
            }
            Expr::Builtin(Builtin::If, a.into()).map_children(&mut rec)
        }
        Expr::Binary(Op::And, l, r) => {
            if let Expr::Assign(v, x) = &*l {
                if lit(x) && gone(*v) && is_bool(&r) {
                    return rec(*r);
                }
            }
            Expr::Binary(Op::And, l, r).map_children(&mut rec)
        }
        other => other.map_children(&mut rec),
    }
}

/// Folds what dropping the stores left known: `true AND x` → `x`, `false
/// AND x` → `false`, `x AND true` → `x`, the same for `OR`, `IF` of a
/// literal, `NOT` of a literal (`x` Bool in each, so the value and the
/// evaluation are the same).
fn simplify(e: Expr) -> Expr {
    match e.map_children(&mut simplify) {
        Expr::Binary(op @ (Op::And | Op::Or), l, r) => {
            let and = op == Op::And;
            match (*l, *r) {
                (Expr::Bool(x), _) if x != and => Expr::Bool(x),
                (Expr::Bool(_), r) if is_bool(&r) => r,
                (l, Expr::Bool(y)) if y == and && is_bool(&l) => l,
                (l, r) => Expr::Binary(op, Box::new(l), Box::new(r)),
            }
        }
        Expr::Builtin(Builtin::If, a) if a.len() == 3 => {
            let mut a = a.into_vec();
            match a[0] {
                Expr::Bool(true) => a.swap_remove(1),
                Expr::Bool(false) => a.swap_remove(2),
                _ => Expr::Builtin(Builtin::If, a.into()),
            }
        }
        Expr::Unary(Op::Not, x) => match *x {
            Expr::Bool(b) => Expr::Bool(!b),
            x => Expr::Unary(Op::Not, Box::new(x)),
        },
        other => other,
    }
}

/// Whether `e` assigns a variable (`=`, a loop) or calls a function.
fn assigns(e: &Expr) -> bool {
    let mut yes = false;
    e.walk(&mut |x| {
        yes |= matches!(
            x,
            Expr::Assign(..) | Expr::Loop { .. } | Expr::Call(..) | Expr::Lazy(..)
        )
    });
    yes
}

/// Whether `e` gives the same value wherever it is evaluated in a residual
/// that changes no state, and cannot fail: a literal, `PLAYER`, or a
/// position read (`CONTENT`, `EMPTY`, `LOCATION`, `STATE`, `OWNER`,
/// `LOCTYPE`, `ELTYPE`) of a literal name.
fn stable(e: &Expr) -> bool {
    match e {
        Expr::Int(_) | Expr::Bool(_) | Expr::Str(_) => true,
        Expr::Builtin(Builtin::Player, a) => a.is_empty(),
        Expr::Builtin(
            Builtin::Content
            | Builtin::Empty
            | Builtin::Location
            | Builtin::State
            | Builtin::Owner
            | Builtin::LocType
            | Builtin::ElType,
            a,
        ) => a.len() == 1 && matches!(a[0], Expr::Str(_)),
        _ => false,
    }
}

/// Whether `c` gives a Bool and cannot fail: literals, `EMPTY` of a
/// literal name, `==` and `!=` of [`stable`] values (which never fail),
/// and `NOT`, `AND`, `OR`, `IF` of such.
fn infallible(c: &Expr) -> bool {
    match c {
        Expr::Bool(_) => true,
        Expr::Builtin(Builtin::Empty, a) => a.len() == 1 && matches!(a[0], Expr::Str(_)),
        Expr::Binary(Op::Eq | Op::Ne, a, b) => stable(a) && stable(b),
        Expr::Unary(Op::Not, x) => infallible(x),
        Expr::Binary(Op::And | Op::Or, a, b) => infallible(a) && infallible(b),
        Expr::Builtin(Builtin::If, a) => a.len() == 3 && a.iter().all(infallible),
        _ => false,
    }
}

/// Whether `x` gives the same value wherever it is read in a residual that
/// changes no state, and cannot fail: [`stable`], a set of such, an `IF`
/// of an [`infallible`] condition between such.
fn holdable(x: &Expr) -> bool {
    match x {
        Expr::Set(items) => items.iter().all(stable),
        Expr::Builtin(Builtin::If, a) => {
            a.len() == 3 && infallible(&a[0]) && holdable(&a[1]) && holdable(&a[2])
        }
        x => stable(x),
    }
}

/// A dead variable `v` taken out of a residual that changes no state: its
/// reads replaced by the values assigned to it ([`Resolve::seq`]).
struct Resolve<'s, 'a> {
    v: VarId,
    sp: &'s Specializer<'a>,
    /// The variables the residual may write (itself or through calls): a
    /// value that reads one of them is not [`Resolve::holdable`].
    written: &'s FxHashSet<VarId>,
    /// The variables bound whenever the residual runs (only their reads
    /// may replace reads of `v`: reading an unbound one is an error).
    readable: &'s FxHashSet<VarId>,
}

impl Resolve<'_, '_> {
    /// `e` without `v`, where `v` holds `val` when `e` starts (`None`:
    /// nothing the residual assigned, so `e` must not read it), or `None`
    /// when `e` is not of the shapes below. The shapes are those inlined
    /// calls leave: `IF($v = x, rest, false)` (an assignment gives `true`,
    /// so this is `rest` with `$v` holding `x`) and `IF(s, rest, false)`
    /// where the statement `s` is a tree of `IF`s whose conditions cannot
    /// fail and whose leaves are `$v = x` or `true` (`frogs`' `IF(c, $res =
    /// {..}, IF(d, $res = {..}, true))`): `s` always gives `true`, and `$v`
    /// holds the same tree over the values afterwards. The values are
    /// [`holdable`], so reading one where `$v` was read gives what `$v` held;
    /// the conditions of `s` are evaluated where the value is read (as
    /// often as it is), which, since they cannot fail and the state does not
    /// change, gives the same values.
    fn seq(&self, e: &Expr, val: Option<&Expr>) -> Option<Expr> {
        if !self.writes(e) {
            return self.read(e, val);
        }
        let Expr::Builtin(Builtin::If, a) = e else {
            return None;
        };
        if a.len() != 3 {
            return None;
        }
        if matches!(a[2], Expr::Bool(false)) {
            if let Expr::Assign(w, x) = &a[0] {
                if *w == self.v {
                    let x = self.value(x, val)?;
                    return self.seq(&a[1], Some(&x));
                }
            }
            if let Some(after) = self.after(&a[0], val) {
                return self.seq(&a[1], Some(&after));
            }
        }
        if self.writes(&a[0]) {
            return None;
        }
        Some(Expr::Builtin(
            Builtin::If,
            vec![
                self.read(&a[0], val)?,
                self.seq(&a[1], val)?,
                self.seq(&a[2], val)?,
            ]
            .into(),
        ))
    }

    /// What `v` holds after the statement `s` (see [`Resolve::seq`]).
    fn after(&self, s: &Expr, val: Option<&Expr>) -> Option<Expr> {
        match s {
            Expr::Assign(w, x) if *w == self.v => self.value(x, val),
            Expr::Bool(true) => val.cloned(),
            Expr::Builtin(Builtin::If, a) if a.len() == 3 && !self.writes(&a[0]) => {
                let c = self.read(&a[0], val)?;
                if !infallible(&c) {
                    return None;
                }
                let (x, y) = (self.after(&a[1], val)?, self.after(&a[2], val)?);
                Some(Expr::Builtin(Builtin::If, vec![c, x, y].into()))
            }
            _ => None,
        }
    }

    /// A value assigned to `v`, with `v`'s reads replaced: [`holdable`].
    fn value(&self, x: &Expr, val: Option<&Expr>) -> Option<Expr> {
        if self.writes(x) {
            return None;
        }
        let x = self.read(x, val)?;
        self.holdable(&x).then_some(x)
    }

    /// [`holdable`], or a variable bound whenever the residual runs that
    /// the residual does not write (it holds the same value wherever the
    /// residual reads it).
    fn holdable(&self, x: &Expr) -> bool {
        match x {
            Expr::Var(w) => self.readable.contains(w) && !self.written.contains(w),
            x => holdable(x),
        }
    }

    /// `e`, which writes no `v`, with `v`'s reads replaced by `val`; `None`
    /// when `e` may read `v` other than as `Var(v)` (by name in an
    /// interpolation, in a called function).
    fn read(&self, e: &Expr, val: Option<&Expr>) -> Option<Expr> {
        let v = self.v;
        let mentioned = |h: &FuncId| {
            self.sp
                .reach
                .mentions
                .get(*h as usize)
                .is_none_or(|m| m.contains(&v))
        };
        let (mut reads, mut other) = (false, false);
        e.walk(&mut |x| match x {
            Expr::Var(w) => reads |= *w == v,
            Expr::Interp(t) => {
                other |= self
                    .sp
                    .templates
                    .get(*t as usize)
                    .is_none_or(|tpl| tpl.vars.contains(&v))
            }
            Expr::Call(h, _) => other |= mentioned(h),
            Expr::Lazy(items) => {
                for it in items.iter() {
                    if let LazyItem::Defer(h, _) = it {
                        other |= mentioned(h);
                    }
                }
            }
            _ => {}
        });
        if other {
            return None;
        }
        if !reads {
            return Some(e.clone());
        }
        Some(substitute(e.clone(), v, val?))
    }

    /// Whether `e` may write `v` (itself or through a call).
    fn writes(&self, e: &Expr) -> bool {
        let v = self.v;
        let mut yes = false;
        e.walk(&mut |x| match x {
            Expr::Assign(w, _) | Expr::Loop { var: w, .. } => yes |= *w == v,
            Expr::Call(h, _) => {
                yes |= self
                    .sp
                    .reach
                    .writes
                    .get(*h as usize)
                    .is_none_or(|ws| ws.contains(&v))
            }
            _ => {}
        });
        yes
    }
}

/// `A AND B` and `A OR B` with both sides [`infallible`] and `B` the
/// smaller, turned round: both sides are read without effect and cannot
/// fail, so the order gives the same value, and the cheaper test first
/// often decides alone (`nim`'s per-location targets: the one `EMPTY` of
/// the next match before the two reads of the turn's state).
fn cheaper_first(e: Expr) -> Expr {
    match e.map_children(&mut cheaper_first) {
        Expr::Binary(op @ (Op::And | Op::Or), l, r)
            if infallible(&l) && infallible(&r) && size(&r) < size(&l) =>
        {
            Expr::Binary(op, r, l)
        }
        other => other,
    }
}

/// `IF(X == "", false, OWNER(X) == k)` and `IF(X != "", OWNER(X) == k,
/// false)` (the original files' ownership test of a square's occupant,
/// `Owns`, `Disc`) become `OWNER(X) == k`, and the same for `STATE`, where
/// `X` is [`stable`] and `k` an Int literal other than -1: `OWNER` and
/// `STATE` of `""`, which names no element (the caller checks), are -1, so
/// the comparison is false where the test was. (`k == OWNER(X)` as well.)
fn occupant_tests(e: Expr, empty: Sym) -> Expr {
    // `OWNER(X) == k` or `STATE(X) == k` with `X` stable: `X`.
    let attr_test = |y: &Expr| -> Option<Expr> {
        let Expr::Binary(Op::Eq, l, r) = y else {
            return None;
        };
        let (call, k) = match (&**l, &**r) {
            (c @ Expr::Builtin(..), Expr::Int(k)) | (Expr::Int(k), c @ Expr::Builtin(..)) => {
                (c, *k)
            }
            _ => return None,
        };
        match call {
            Expr::Builtin(Builtin::Owner | Builtin::State, a)
                if a.len() == 1 && k != -1 && stable(&a[0]) =>
            {
                Some(a[0].clone())
            }
            _ => None,
        }
    };
    // `X == ""` (`eq`) or `X != ""`: `X`.
    let empty_test = |c: &Expr, eq: bool| -> Option<Expr> {
        let Expr::Binary(op, l, r) = c else {
            return None;
        };
        if *op != if eq { Op::Eq } else { Op::Ne } {
            return None;
        }
        match (&**l, &**r) {
            (x, Expr::Str(s)) | (Expr::Str(s), x) if *s == empty && stable(x) => Some(x.clone()),
            _ => None,
        }
    };
    match e.map_children(&mut |x| occupant_tests(x, empty)) {
        Expr::Builtin(Builtin::If, a) if a.len() == 3 => {
            let mut a = a.into_vec();
            let hit = match (&a[1], &a[2]) {
                (Expr::Bool(false), y) => empty_test(&a[0], true)
                    .zip(attr_test(y))
                    .is_some_and(|(x, z)| x == z)
                    .then_some(2),
                (y, Expr::Bool(false)) => empty_test(&a[0], false)
                    .zip(attr_test(y))
                    .is_some_and(|(x, z)| x == z)
                    .then_some(1),
                _ => None,
            };
            match hit {
                Some(i) => a.swap_remove(i),
                None => Expr::Builtin(Builtin::If, a.into()),
            }
        }
        other => other,
    }
}

/// Replaces every `Var(v)` in `e` by `by`.
fn substitute(e: Expr, v: VarId, by: &Expr) -> Expr {
    match e {
        Expr::Var(w) if w == v => by.clone(),
        other => other.map_children(&mut |x| substitute(x, v, by)),
    }
}

/// `IF($v = e, rest, false)` → `rest` with `e` in place of `$v`, where `$v`
/// is dead (`gone`), `e` is [`stable`], and nothing in `rest` can write `$v`
/// or read it other than as `$v` (no loop, no interpolation over it, no
/// call of a function that writes it). The assignment gives `true`, so the
/// `IF` is `rest`; the residual changes no state, so `e` read later gives
/// what `$v` holds.
fn forward(e: Expr, gone: &dyn Fn(VarId) -> bool, reach: &Reach) -> Expr {
    let mut rec = |x: Expr| forward(x, gone, reach);
    match e {
        Expr::Builtin(Builtin::If, a) if a.len() == 3 => {
            let mut a = a.into_vec();
            if let (Expr::Assign(v, x), Expr::Bool(false)) = (&a[0], &a[2]) {
                let (v, x) = (*v, (**x).clone());
                if gone(v) && stable(&x) && !touches(&a[1], v, reach) {
                    return rec(substitute(a.swap_remove(1), v, &x));
                }
            }
            Expr::Builtin(Builtin::If, a.into()).map_children(&mut rec)
        }
        other => other.map_children(&mut rec),
    }
}

/// Whether `e` may write `v` or read it other than as `Var(v)`.
fn touches(e: &Expr, v: VarId, reach: &Reach) -> bool {
    let mut yes = false;
    e.walk(&mut |x| match x {
        Expr::Assign(w, _) => yes |= *w == v,
        // Conservative: a loop writes its variable, an interpolation may
        // read `$v` by name, a lazy set may defer a call that reads it.
        Expr::Loop { .. } | Expr::Interp(_) | Expr::Lazy(_) => yes = true,
        Expr::Call(h, _) => {
            yes |= reach
                .writes
                .get(*h as usize)
                .is_none_or(|ws| ws.contains(&v))
        }
        _ => {}
    });
    yes
}

/// Keeps what both environments know alike.
fn merge(a: &mut Env, b: &Env) {
    a.0.retain(|(v, k)| b.get(*v) == Some(k));
}

/// `IF(c, rest, false)`.
fn guard(c: Expr, rest: Expr) -> Expr {
    Expr::Builtin(Builtin::If, vec![c, rest, Expr::Bool(false)].into())
}

impl Walk<'_, '_> {
    fn emit(&self, s: S) -> Result<Expr, GiveUp> {
        Ok(match s {
            S::E(e) => e,
            S::K(K::Int(i)) => Expr::Int(i),
            S::K(K::Bool(b)) => Expr::Bool(b),
            S::K(K::Sym(s)) => Expr::Str(s),
            S::K(K::Text(_)) => return Err(GiveUp),
        })
    }

    fn tick(&mut self, n: usize) -> Result<(), GiveUp> {
        self.work += n;
        if self.work > self.limit {
            return Err(GiveUp);
        }
        Ok(())
    }

    /// Forgets what a call left as it is may write.
    fn forget_call(&mut self, f: FuncId) {
        if let Some(ws) = self.reach.writes.get(f as usize) {
            for &v in ws {
                self.env.set(v, None);
            }
        }
        if let Some(Some(def)) = self.sp.funcs.get(f as usize) {
            for &v in &def.params {
                self.env.set(v, None);
            }
        }
    }

    fn forget_writes(&mut self, e: &Expr) {
        let mut ws = FxHashSet::default();
        writes_of(e, &mut ws);
        let mut calls = Vec::new();
        crate::call_graph::call_sites(e, |h| calls.push(h));
        for v in ws {
            self.env.set(v, None);
        }
        for h in calls {
            self.forget_call(h);
        }
    }

    fn spec(&mut self, e: &Expr) -> Sp {
        self.tick(1)?;
        Ok(match e {
            Expr::Int(i) => S::K(K::Int(*i)),
            Expr::Bool(b) => S::K(K::Bool(*b)),
            Expr::Str(s) => S::K(K::Sym(*s)),
            Expr::Var(v) => match self.env.get(*v) {
                Some(k) => S::K(k.clone()),
                None => S::E(Expr::Var(*v)),
            },
            Expr::Interp(t) => {
                let tpl = &self.sp.templates[*t as usize];
                let mut text = String::new();
                for p in &tpl.pieces {
                    match p {
                        TemplatePiece::Text(s) => text.push_str(s),
                        TemplatePiece::Var(v) => {
                            match self.env.get(*v).and_then(|k| self.sp.text_of(k)) {
                                Some(s) => text.push_str(&s),
                                None => return Ok(S::E(Expr::Interp(*t))),
                            }
                        }
                    }
                }
                S::K(self.sp.known_text(&text))
            }
            Expr::Assign(v, x) => {
                let x = self.spec(x)?;
                self.env.set(
                    *v,
                    match &x {
                        S::K(k) => Some(k.clone()),
                        S::E(_) => None,
                    },
                );
                S::E(Expr::Assign(*v, Box::new(self.emit(x)?)))
            }
            Expr::Set(items) => {
                let mut out = Vec::with_capacity(items.len());
                for it in items.iter() {
                    let s = self.spec(it)?;
                    out.push(self.emit(s)?);
                }
                S::E(Expr::Set(out.into()))
            }
            Expr::Lazy(items) => {
                let mut out = Vec::with_capacity(items.len());
                for it in items.iter() {
                    out.push(match it {
                        LazyItem::Defer(h, args) => {
                            let mut a = Vec::with_capacity(args.len());
                            for x in args.iter() {
                                let s = self.spec(x)?;
                                a.push(self.emit(s)?);
                            }
                            LazyItem::Defer(*h, a.into())
                        }
                        LazyItem::Now(x) => {
                            let s = self.spec(x)?;
                            LazyItem::Now(self.emit(s)?)
                        }
                    });
                }
                S::E(Expr::Lazy(out.into()))
            }
            Expr::Call(f, args) => self.call(*f, args)?,
            Expr::Loop {
                all,
                var,
                from,
                to,
                body,
            } => self.looped(*all, *var, from, to, body)?,
            Expr::Unary(op, x) => {
                let s = self.spec(x)?;
                match (op, s) {
                    (Op::Not, S::K(K::Bool(b))) => S::K(K::Bool(!b)),
                    (Op::Abs, S::K(K::Int(i))) if i.checked_abs().is_some() => {
                        S::K(K::Int(i.abs()))
                    }
                    (Op::Sub, S::K(K::Int(i))) if i.checked_neg().is_some() => S::K(K::Int(-i)),
                    (op, s) => S::E(Expr::Unary(*op, Box::new(self.emit(s)?))),
                }
            }
            Expr::Binary(Op::And | Op::Or, a, b) => {
                let and = matches!(e, Expr::Binary(Op::And, ..));
                let l = self.spec(a)?;
                match l {
                    S::K(K::Bool(x)) if x != and => S::K(K::Bool(x)),
                    S::K(K::Bool(_)) => {
                        let r = self.spec(b)?;
                        match r {
                            S::K(K::Bool(y)) => S::K(K::Bool(y)),
                            S::E(r) if is_bool(&r) => S::E(r),
                            r => {
                                let op = if and { Op::And } else { Op::Or };
                                S::E(Expr::Binary(
                                    op,
                                    Box::new(Expr::Bool(and)),
                                    Box::new(self.emit(r)?),
                                ))
                            }
                        }
                    }
                    S::K(_) => return Err(GiveUp),
                    S::E(l) => {
                        let before = self.env.clone();
                        let r = self.spec(b)?;
                        merge(&mut self.env, &before);
                        let op = if and { Op::And } else { Op::Or };
                        S::E(Expr::Binary(op, Box::new(l), Box::new(self.emit(r)?)))
                    }
                }
            }
            Expr::Binary(op, a, b) => {
                let l = self.spec(a)?;
                let r = self.spec(b)?;
                match (l, r) {
                    (S::K(x), S::K(y)) => match fold(*op, &x, &y) {
                        Some(k) => S::K(k),
                        None => S::E(Expr::Binary(
                            *op,
                            Box::new(self.emit(S::K(x))?),
                            Box::new(self.emit(S::K(y))?),
                        )),
                    },
                    (l, r) => S::E(Expr::Binary(
                        *op,
                        Box::new(self.emit(l)?),
                        Box::new(self.emit(r)?),
                    )),
                }
            }
            Expr::Builtin(Builtin::If, a) => {
                let c = self.spec(&a[0])?;
                match c {
                    S::K(K::Bool(x)) => {
                        let i = if x { 1 } else { 2 };
                        match a.get(i) {
                            Some(branch) => self.spec(branch)?,
                            None => return Err(GiveUp),
                        }
                    }
                    S::K(_) => return Err(GiveUp),
                    S::E(c) => {
                        let start = self.env.clone();
                        let mut out = vec![c];
                        let mut ends: Option<Env> = None;
                        for branch in a[1..].iter() {
                            self.env = start.clone();
                            let s = self.spec(branch)?;
                            out.push(self.emit(s)?);
                            match &mut ends {
                                None => ends = Some(self.env.clone()),
                                Some(m) => merge(m, &self.env),
                            }
                        }
                        self.env = ends.unwrap_or(start);
                        S::E(Expr::Builtin(Builtin::If, out.into()))
                    }
                }
            }
            Expr::Builtin(b, a) => self.builtin(*b, a)?,
        })
    }

    fn builtin(&mut self, b: Builtin, a: &[Expr]) -> Sp {
        let mut args = Vec::with_capacity(a.len());
        for x in a {
            args.push(self.spec(x)?);
        }
        // A built-in of one name whose answer does not depend on the state.
        if let (Some(S::K(k)), true) = (args.first(), a.len() == 1) {
            let sp = self.sp;
            let is_name = matches!(k, K::Sym(_) | K::Text(_));
            let empty = K::Sym(sp.empty_sym);
            let known = match b {
                Builtin::LocType if is_name => Some(match sp.loc_of(k) {
                    Some(l) => K::Sym(sp.loc_type[l as usize]),
                    None => empty,
                }),
                Builtin::ElType if is_name => Some(match sp.elem_of(k) {
                    Some(x) => K::Sym(sp.elem_type[x as usize]),
                    None => empty,
                }),
                Builtin::Content if is_name && sp.loc_of(k).is_none() => Some(empty),
                Builtin::Empty if is_name && sp.loc_of(k).is_none() => Some(K::Bool(true)),
                // The target of a move is empty where its condition runs
                // (generation tries empty targets only, `apply` rejects an
                // occupied one): a residual worth using.
                Builtin::Empty | Builtin::Content
                    if is_name && sp.loc_of(k).is_some() && sp.loc_of(k) == self.empty =>
                {
                    self.changed = true;
                    Some(if b == Builtin::Empty {
                        K::Bool(true)
                    } else {
                        empty
                    })
                }
                Builtin::Location if is_name && sp.elem_of(k).is_none() => Some(empty),
                Builtin::State | Builtin::Owner if is_name && sp.elem_of(k).is_none() => {
                    Some(K::Int(-1))
                }
                _ => None,
            };
            if let Some(k) = known {
                return Ok(S::K(k));
            }
        }
        let mut out = Vec::with_capacity(args.len());
        for s in args {
            out.push(self.emit(s)?);
        }
        Ok(S::E(Expr::Builtin(b, out.into())))
    }

    fn call(&mut self, f: FuncId, args: &[Expr]) -> Sp {
        let keep =
            self.mode == Use::Targets && self.reach.loops.get(f as usize).copied().unwrap_or(true);
        if keep || !self.sp.inlinable(self.reach, f, args.len()) {
            let mut out = Vec::with_capacity(args.len());
            for x in args {
                let s = self.spec(x)?;
                out.push(self.emit(s)?);
            }
            self.forget_call(f);
            return Ok(S::E(Expr::Call(f, out.into())));
        }
        self.changed = true;
        let def = self.sp.funcs[f as usize].as_ref().ok_or(GiveUp)?;
        // Parameters: each argument evaluated, then bound (§5.9).
        let mut binds = Vec::with_capacity(args.len());
        for (x, &p) in args.iter().zip(&def.params) {
            let s = self.spec(x)?;
            self.env.set(
                p,
                match &s {
                    S::K(k) => Some(k.clone()),
                    S::E(_) => None,
                },
            );
            binds.push(Expr::Assign(p, Box::new(self.emit(s)?)));
        }
        // Body lines: a Bool `false` stops the call with `false`.
        let (last, lines) = def.body.split_last().ok_or(GiveUp)?;
        let last = match &self.last_of {
            Some((g, x)) if *g == f => x.clone(),
            _ => last.expr.clone(),
        };
        let mut guards: Vec<(Expr, Option<Env>)> = Vec::new();
        let mut stopped = false;
        for l in lines {
            match self.spec(&l.expr)? {
                S::K(K::Bool(false)) => {
                    stopped = true;
                    break;
                }
                S::K(_) => {}
                S::E(x) if matches!(x, Expr::Assign(..)) => guards.push((x, None)),
                S::E(x) if is_bool(&x) => guards.push((x, Some(self.env.clone()))),
                S::E(_) => return Err(GiveUp),
            }
        }
        let last = if stopped {
            S::K(K::Bool(false))
        } else {
            self.spec(&last)?
        };
        // A known value, with only literals assigned to dead variables on
        // the way: the call is that value. (Nothing outside the call reads
        // what it left in a dead variable, and nothing of the call is left
        // to read it.)
        let dead = |v: &VarId| self.sp.is_dead(*v);
        let literal_dead = |x: &Expr| match x {
            Expr::Assign(v, x) => {
                dead(v) && matches!(**x, Expr::Int(_) | Expr::Bool(_) | Expr::Str(_))
            }
            _ => false,
        };
        if matches!(last, S::K(_))
            && binds.iter().all(literal_dead)
            && guards.iter().all(|(g, _)| literal_dead(g))
        {
            self.tick(1)?;
            return Ok(last);
        }
        let mut rest = self.emit(last)?;
        // A guard that may fail: afterwards, only what holds whether or not
        // the rest ran is known.
        for (g, at) in guards.into_iter().rev() {
            if let Some(at) = at {
                merge(&mut self.env, &at);
            }
            rest = guard(g, rest);
        }
        for b in binds.into_iter().rev() {
            rest = guard(b, rest);
        }
        self.tick(1)?;
        Ok(S::E(rest))
    }

    fn looped(&mut self, all: bool, var: VarId, from: &Expr, to: &Expr, body: &Expr) -> Sp {
        let f = self.spec(from)?;
        let t = self.spec(to)?;
        let (lo, hi) = match (&f, &t) {
            (S::K(K::Int(a)), S::K(K::Int(b))) => (*a, *b),
            _ => return self.kept_loop(all, var, f, t, body),
        };
        let n = (i64::from(lo) - i64::from(hi)).abs() + 1;
        if n > MAX_UNROLL {
            return self.kept_loop(all, var, f, t, body);
        }
        self.changed = true;
        let step: i32 = if lo <= hi { 1 } else { -1 };
        // Parts of the chain: each `($var = i) AND body_i`, known parts dropped.
        let mut parts: Vec<Expr> = Vec::new();
        let mut exits: Option<Env> = None;
        let mut done = false;
        let mut i = lo;
        for _ in 0..n {
            self.env.set(var, Some(K::Int(i)));
            let s = self.spec(body)?;
            let set = Expr::Assign(var, Box::new(Expr::Int(i)));
            match s {
                // FORALL goes on at true and stops at false; FORSOME the other way.
                S::K(K::Bool(b)) if b == all => parts.push(set),
                S::K(K::Bool(_)) => {
                    parts.push(set);
                    done = true;
                }
                S::E(x) if is_bool(&x) => {
                    parts.push(Expr::Binary(Op::And, Box::new(set), Box::new(x)));
                    match &mut exits {
                        None => exits = Some(self.env.clone()),
                        Some(m) => merge(m, &self.env),
                    }
                }
                _ => return Err(GiveUp),
            }
            if done {
                break;
            }
            i = i.wrapping_add(step);
        }
        if let Some(m) = exits {
            merge(&mut self.env, &m);
        }
        // The chain. A part that is only an assignment is true: for FORSOME
        // it is a disjunct that never holds, kept for its assignment.
        let result = all != done; // the loop's value once every part ran
        let mut chain = Expr::Bool(result);
        if let Some(lastp) = parts.pop() {
            let lastp = match lastp {
                x @ Expr::Assign(..) => {
                    Expr::Binary(Op::And, Box::new(x), Box::new(Expr::Bool(result)))
                }
                x => x,
            };
            chain = lastp;
            for p in parts.into_iter().rev() {
                let p = match p {
                    x @ Expr::Assign(..) if !all => {
                        Expr::Binary(Op::And, Box::new(x), Box::new(Expr::Bool(false)))
                    }
                    x => x,
                };
                let op = if all { Op::And } else { Op::Or };
                chain = Expr::Binary(op, Box::new(p), Box::new(chain));
            }
        }
        self.tick(1)?;
        Ok(S::E(chain))
    }

    fn kept_loop(&mut self, all: bool, var: VarId, f: S, t: S, body: &Expr) -> Sp {
        let from = self.emit(f)?;
        let to = self.emit(t)?;
        // The body may run many times: nothing it writes is known in it or after it.
        self.env.set(var, None);
        self.forget_writes(body);
        let s = self.spec(body)?;
        let body = self.emit(s)?;
        self.env.set(var, None);
        self.forget_writes(&body);
        Ok(S::E(Expr::Loop {
            all,
            var,
            from: Box::new(from),
            to: Box::new(to),
            body: Box::new(body),
        }))
    }
}

/// `x op y` of two known values, when it cannot fail.
fn fold(op: Op, x: &K, y: &K) -> Option<K> {
    use K::*;
    Some(match (op, x, y) {
        (Op::Add, Int(a), Int(b)) => Int(a.checked_add(*b)?),
        (Op::Sub, Int(a), Int(b)) => Int(a.checked_sub(*b)?),
        (Op::Mul, Int(a), Int(b)) => Int(a.checked_mul(*b)?),
        (Op::Div, Int(a), Int(b)) => Int(a.checked_div(*b)?),
        (Op::Rem, Int(a), Int(b)) => Int(a.checked_rem(*b)?),
        (Op::Lt, Int(a), Int(b)) => Bool(a < b),
        (Op::Le, Int(a), Int(b)) => Bool(a <= b),
        (Op::Gt, Int(a), Int(b)) => Bool(a > b),
        (Op::Ge, Int(a), Int(b)) => Bool(a >= b),
        (Op::Eq, a, b) => Bool(a == b),
        (Op::Ne, a, b) => Bool(a != b),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(op: Op, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    fn state(s: Sym) -> Expr {
        Expr::Builtin(Builtin::State, vec![Expr::Str(s)].into())
    }

    fn empty(s: Sym) -> Expr {
        Expr::Builtin(Builtin::Empty, vec![Expr::Str(s)].into())
    }

    /// The ownership test of a square's occupant becomes one comparison;
    /// not for -1 (the `OWNER` of `""`), not for two different squares.
    #[test]
    fn an_occupant_test_is_one_comparison() {
        let (none, s1, s2) = (0, 7, 8);
        let content = |s: Sym| Expr::Builtin(Builtin::Content, vec![Expr::Str(s)].into());
        let owner = |x: Expr| Expr::Builtin(Builtin::Owner, vec![x].into());
        let test = |at: Sym, of: Sym, k: i32| {
            Expr::Builtin(
                Builtin::If,
                vec![
                    bin(Op::Eq, content(at), Expr::Str(none)),
                    Expr::Bool(false),
                    bin(Op::Eq, owner(content(of)), Expr::Int(k)),
                ]
                .into(),
            )
        };
        assert_eq!(
            occupant_tests(test(s1, s1, 1), none),
            bin(Op::Eq, owner(content(s1)), Expr::Int(1))
        );
        assert_eq!(occupant_tests(test(s1, s1, -1), none), test(s1, s1, -1));
        assert_eq!(occupant_tests(test(s1, s2, 1), none), test(s1, s2, 1));
        // The `!=` form.
        let ne = Expr::Builtin(
            Builtin::If,
            vec![
                bin(Op::Ne, content(s2), Expr::Str(none)),
                bin(Op::Eq, Expr::Int(2), owner(content(s2))),
                Expr::Bool(false),
            ]
            .into(),
        );
        assert_eq!(
            occupant_tests(ne, none),
            bin(Op::Eq, Expr::Int(2), owner(content(s2)))
        );
    }

    /// The smaller of two infallible sides goes first; a side that may
    /// fail (`>` of a state and a literal: `STATE` of a name could be any
    /// value, but `>` needs Ints) keeps the order.
    #[test]
    fn the_cheaper_infallible_side_goes_first() {
        let turn = bin(
            Op::Or,
            bin(Op::Eq, state(1), Expr::Int(1)),
            bin(Op::Eq, state(1), Expr::Int(3)),
        );
        let e = bin(Op::And, turn.clone(), empty(5));
        assert_eq!(cheaper_first(e), bin(Op::And, empty(5), turn.clone()));
        let gt = bin(Op::Gt, state(1), Expr::Int(1));
        let e = bin(Op::And, gt, empty(5));
        assert_eq!(cheaper_first(e.clone()), e);
        // Already in order.
        let e = bin(Op::Or, empty(5), turn);
        assert_eq!(cheaper_first(e.clone()), e);
    }
}
