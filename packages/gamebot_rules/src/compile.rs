//! The compiled form of the expression language (issue 18).
//!
//! Every expression of a game (rule conditions, `toLocations`, followups,
//! bonuses, scorings, end-of-game records, evaluations and every line of every
//! user function) is compiled once at load into a tree of closures. Each node
//! has a static type:
//!
//! - [`Node::Int`] for nodes that give an Int or fail (literals, arithmetic,
//!   `STATE`, `OWNER`, `PLAYER`, `SCORE`, `ZINDEX`, `ABS`, unary `-`),
//! - [`Node::Bool`] for nodes that give a Bool or fail (comparisons, `AND`,
//!   `OR`, `NOT`, `EMPTY`, loops, assignments, the state-changing built-ins),
//! - [`Node::Sym`] for nodes that give a known name (string literals,
//!   `CONTENT`, `ELTYPE`, `LOCATION`, `LOCTYPE`),
//! - [`Node::Val`] for the rest (variables, calls, sets, `IF` with mixed
//!   branches, interpolated strings in value position).
//!
//! Typed nodes return `i32`, `bool` or a symbol index instead of a [`Value`],
//! and their consumers call them without a type check. Name arguments of the
//! built-ins (`CONTENT("b($X,$Y)")`, `STATE("m($E)")`) compile to closures that
//! give a location or element id directly: a string literal is resolved at
//! load, an interpolated name through its template's table, and a name the
//! game does not know is `None` (the typed "no such name"), never a run-time
//! string. User functions are compiled with their parameter slots; calls bind
//! the evaluated arguments into them and run the compiled body.
//!
//! Semantics are those of the tree-walking evaluator in `eval.rs`, which stays
//! as the reference: the same values, the same order of evaluation (so the
//! same variable bindings and state changes), the same evaluation-budget steps
//! and the same error messages. Where the two share code (arithmetic errors,
//! set operators, `INDEX`, template lookups, function checks) the compiled form
//! calls the evaluator's helpers. `Scratch::set_reference_evaluator` switches
//! the engine back to the reference for tests that compare the two.

use crate::eval::{overflow, Ctx, EvalError, Name};
use crate::expr::{Builtin, Expr, FuncId, LazyItem, VarId};
use crate::game::{Function, SrcExpr};
use crate::lexer::Op;
use crate::memo::Read;
use crate::state::Attr;
use crate::value::{Deferred, LazyMember, Str, Sym, Value};
use std::sync::Arc;

type R<T> = Result<T, Box<EvalError>>;
type F<T> = Box<dyn Fn(&mut Ctx<'_>) -> R<T> + Send + Sync>;
type CBool = F<bool>;
type CInt = F<i32>;
type CSym = F<Sym>;
type CVal = F<Value>;
/// A location or element id; `None` when the name is not one.
type CId = F<Option<u16>>;

/// `$body` compiled with the constant `REC` true when the game has memoized
/// functions (the position reads are recorded, `memo.rs`), false otherwise
/// (no recording code at all).
macro_rules! rec {
    ($compiler:expr, $body:expr) => {
        if $compiler.record {
            const REC: bool = true;
            $body
        } else {
            const REC: bool = false;
            $body
        }
    };
}

/// Boxes a closure as a compiled node (the bound fixes the closure's
/// higher-ranked signature).
#[inline]
fn f<T, G>(g: G) -> F<T>
where
    G: Fn(&mut Ctx<'_>) -> R<T> + Send + Sync + 'static,
{
    Box::new(g)
}

/// A compiled expression with its static type.
pub(crate) enum Node {
    Val(CVal),
    Bool(CBool),
    Int(CInt),
    Sym(CSym),
}

impl Node {
    #[inline]
    fn value(&self, c: &mut Ctx<'_>) -> R<Value> {
        match self {
            Node::Val(f) => f(c),
            Node::Bool(f) => Ok(Value::Bool(f(c)?)),
            Node::Int(f) => Ok(Value::Int(f(c)?)),
            Node::Sym(f) => Ok(Value::Str(Str::Sym(f(c)?))),
        }
    }
}

/// An operand whose value is needed as a [`Value`]: literals and variables
/// are read in place instead of through a closure.
enum Opnd {
    Const(Value),
    Var(VarId),
    Node(Node),
}

impl Opnd {
    /// Evaluates the operand into variable `v` (Ints without a [`Value`] round trip).
    #[inline(always)]
    fn set(&self, c: &mut Ctx<'_>, v: VarId) -> R<()> {
        match self {
            Opnd::Const(Value::Int(i)) => c.vars.set_int(v, *i),
            Opnd::Node(Node::Int(f)) => {
                let i = f(c)?;
                c.vars.set_int(v, i);
            }
            Opnd::Var(w) => match c.vars.get(*w) {
                Some(Value::Int(i)) => {
                    let i = *i;
                    c.vars.set_int(v, i)
                }
                Some(x) => {
                    let x = x.clone();
                    c.vars.set(v, x)
                }
                None => return Err(unbound(c, *w)),
            },
            _ => {
                let x = self.get(c)?;
                c.vars.set(v, x);
            }
        }
        Ok(())
    }

    #[inline]
    fn get(&self, c: &mut Ctx<'_>) -> R<Value> {
        match self {
            Opnd::Const(v) => Ok(v.clone()),
            Opnd::Var(v) => match c.vars.get(*v) {
                Some(x) => Ok(x.clone()),
                None => Err(unbound(c, *v)),
            },
            Opnd::Node(n) => n.value(c),
        }
    }
}

#[cold]
#[inline(never)]
fn unbound(c: &Ctx<'_>, v: VarId) -> Box<EvalError> {
    EvalError::new(format!(
        "variable ${} is not bound",
        c.g.var_names[v as usize]
    ))
}

/// An operand of an integer operator: Ints travel as `i32`, anything else
/// as the [`Value`] the operator's error message shows.
enum IOp {
    Lit(i32),
    Var(VarId),
    Int(CInt),
    Other(Opnd),
}

impl IOp {
    #[inline(always)]
    fn get(&self, c: &mut Ctx<'_>) -> R<Result<i32, Value>> {
        match self {
            IOp::Lit(i) => Ok(Ok(*i)),
            IOp::Var(v) => match c.vars.get(*v) {
                Some(Value::Int(i)) => Ok(Ok(*i)),
                Some(other) => Ok(Err(other.clone())),
                None => Err(unbound(c, *v)),
            },
            IOp::Int(f) => Ok(Ok(f(c)?)),
            IOp::Other(o) => Ok(match o.get(c)? {
                Value::Int(i) => Ok(i),
                v => Err(v),
            }),
        }
    }
}

fn as_value_int(x: Result<i32, Value>) -> Value {
    match x {
        Ok(i) => Value::Int(i),
        Err(v) => v,
    }
}

/// An integer operator over two operands: `k` on two Ints, the evaluator's
/// error otherwise (both operands are evaluated first, left to right).
/// The usual shapes (variables, literals, Int-typed nodes) get closures of
/// their own that read Ints in place; anything else takes the general path.
fn int_bin<T: 'static>(
    x: IOp,
    y: IOp,
    op: Op,
    k: impl Fn(i32, i32) -> R<T> + Copy + Send + Sync + 'static,
) -> F<T> {
    match (x, y) {
        (IOp::Var(v), IOp::Lit(q)) => f(move |c| match c.vars.get(v) {
            Some(Value::Int(p)) => k(*p, q),
            _ => int_bin_slow(c, &IOp::Var(v), &IOp::Lit(q), op, k),
        }),
        (IOp::Lit(p), IOp::Var(w)) => f(move |c| match c.vars.get(w) {
            Some(Value::Int(q)) => k(p, *q),
            _ => int_bin_slow(c, &IOp::Lit(p), &IOp::Var(w), op, k),
        }),
        (IOp::Var(v), IOp::Var(w)) => f(move |c| match (c.vars.get(v), c.vars.get(w)) {
            (Some(Value::Int(p)), Some(Value::Int(q))) => k(*p, *q),
            _ => int_bin_slow(c, &IOp::Var(v), &IOp::Var(w), op, k),
        }),
        (IOp::Var(v), IOp::Int(b)) => f(move |c| match c.vars.get(v) {
            Some(&Value::Int(p)) => k(p, b(c)?),
            Some(other) => {
                let l = other.clone();
                let q = b(c)?;
                Err(c.ints_error(op, &l, &Value::Int(q)))
            }
            None => Err(unbound(c, v)),
        }),
        (IOp::Lit(p), IOp::Int(b)) => f(move |c| k(p, b(c)?)),
        (IOp::Int(a), IOp::Lit(q)) => f(move |c| k(a(c)?, q)),
        (IOp::Int(a), IOp::Int(b)) => f(move |c| {
            let p = a(c)?;
            k(p, b(c)?)
        }),
        (IOp::Int(a), IOp::Var(w)) => f(move |c| {
            let p = a(c)?;
            match c.vars.get(w) {
                Some(Value::Int(q)) => k(p, *q),
                _ => int_bin_slow(c, &IOp::Lit(p), &IOp::Var(w), op, k),
            }
        }),
        // A value node (a memoized call, `Run(..) > 0` of `reversi6-orig`)
        // against a literal.
        (IOp::Other(Opnd::Node(Node::Val(a))), IOp::Lit(q)) => f(move |c| match a(c)? {
            Value::Int(p) => k(p, q),
            v => Err(c.ints_error(op, &v, &Value::Int(q))),
        }),
        (x, y) => f(move |c| int_bin_slow(c, &x, &y, op, k)),
    }
}

/// The general path of [`int_bin`].
#[inline(never)]
fn int_bin_slow<T>(
    c: &mut Ctx<'_>,
    x: &IOp,
    y: &IOp,
    op: Op,
    k: impl Fn(i32, i32) -> R<T>,
) -> R<T> {
    let l = x.get(c)?;
    let r = y.get(c)?;
    match (l, r) {
        (Ok(p), Ok(q)) => k(p, q),
        (l, r) => Err(c.ints_error(op, &as_value_int(l), &as_value_int(r))),
    }
}

/// An argument bound to a parameter slot: flat, most common shape first.
enum Arg {
    Var(VarId),
    Lit(i32),
    Int(CInt),
    Other(Opnd),
}

impl Arg {
    /// Evaluates the argument into variable `p` ([`Opnd::set`]).
    #[inline(always)]
    fn set(&self, c: &mut Ctx<'_>, p: VarId) -> R<()> {
        match self {
            Arg::Var(w) => match c.vars.get(*w) {
                Some(&Value::Int(i)) => c.vars.set_int(p, i),
                Some(x) => {
                    let x = x.clone();
                    c.vars.set(p, x)
                }
                None => return Err(unbound(c, *w)),
            },
            Arg::Lit(i) => c.vars.set_int(p, *i),
            Arg::Int(f) => {
                let i = f(c)?;
                c.vars.set_int(p, i);
            }
            Arg::Other(o) => {
                let x = o.get(c)?;
                c.vars.set(p, x);
            }
        }
        Ok(())
    }
}

/// An argument of a memoized call whose key is read without binding the
/// parameters first ([`Compiler::key_args`]).
enum KeyArg {
    Var(VarId),
    /// A literal: its key and its value.
    Lit(u64, Value),
}

impl KeyArg {
    /// Binds the argument to parameter `p` as [`Arg::set`] would.
    #[inline(always)]
    fn set(&self, c: &mut Ctx<'_>, p: VarId) -> R<()> {
        match self {
            KeyArg::Var(w) => match c.vars.get(*w) {
                Some(&Value::Int(i)) => c.vars.set_int(p, i),
                Some(_) => copy_var(c, *w, p),
                None => return Err(unbound(c, *w)),
            },
            KeyArg::Lit(_, Value::Int(i)) => c.vars.set_int(p, *i),
            KeyArg::Lit(_, x) => set_value(c, p, x),
        }
        Ok(())
    }
}

/// `$p = $w` for a bound `$w` holding no Int (kept out of line: rare).
#[cold]
#[inline(never)]
fn copy_var(c: &mut Ctx<'_>, w: VarId, p: VarId) {
    if let Some(x) = c.vars.get(w).cloned() {
        c.vars.set(p, x);
    }
}

/// `$p = x` (kept out of line: rare).
#[cold]
#[inline(never)]
fn set_value(c: &mut Ctx<'_>, p: VarId, x: &Value) {
    c.vars.set(p, x.clone());
}

/// A member of a lazy-set literal.
enum LazyC {
    Defer(FuncId, Vec<Opnd>),
    Now(Opnd),
}

/// A guard line of a function body: only a Bool `false` stops the function.
enum Guard {
    Bool(CBool),
    Other(Node),
}

/// A compiled user function.
pub(crate) struct CFunc {
    name: String,
    guards: Vec<(Guard, u32)>,
    /// The last line, `None` for an empty body.
    last: Option<(Node, u32)>,
    /// The last line's sides when it is `A AND B` (for `call_split`).
    split: Option<(CBool, CBool)>,
    /// The whole body over registers (`pure::body`), when the function is
    /// inlinable but for being memoized: [`run_func`] tries it first.
    pure: Option<crate::pure::Code>,
}

impl CFunc {
    /// Whether calls that run the function run its body over registers
    /// first (`pure::body`).
    #[cfg(test)]
    pub(crate) fn has_pure_body(&self) -> bool {
        self.pure.is_some()
    }
}

/// A compiled top-level expression.
pub(crate) struct Compiled {
    whole: Node,
    /// Its sides when it is `A AND B` (hoisted rule conditions).
    and: Option<(CBool, CBool)>,
    /// Its arguments when it is a call `F(...)` (hoisted called conditions).
    call_args: Option<Vec<Arg>>,
    /// That call inlined over registers (`pure.rs`), when `F` is inlinable.
    split: Option<crate::pure::Split>,
    /// Its register form when it is a set of at most one location
    /// (`pure::Ty::Set`: [`crate::pure::NO_SET`] or the member's id), for
    /// `toLocations` without the set value ([`Ctx::run_loc_set`]).
    loc_set: Option<crate::pure::PInt>,
    /// Whether `whole` runs the expression specialized at load time
    /// (`specialize.rs`) first, and on an error undoes it and runs the
    /// original ([`Ctx::run_special`]).
    #[cfg_attr(not(test), allow(dead_code))]
    special: bool,
}

/// A rule's `toLocations` specialized for one `from` location
/// (`specialize.rs`, `Specializer::targets`), which runs in its place.
#[derive(Clone, Default)]
pub(crate) enum FromTargets {
    /// No residual: the expression runs.
    #[default]
    None,
    /// A residual that reads nothing: [`crate::pure::NO_SET`] or a location's id.
    Const(i32),
    /// A residual over registers (`pure.rs`, a set of at most one
    /// location).
    Regs {
        code: Arc<crate::pure::PInt>,
        /// Whether it reads no variable (so move generation need not bind
        /// the patterns' variables for it).
        closed: bool,
        /// A location that must be empty (`true`) or occupied (`false`)
        /// for the residual to give a target: it is `IF(c, s, {})` with
        /// `EMPTY(l)` or `NOT EMPTY(l)` first in `c` (so when the location
        /// is otherwise, `c` is false without reading more and the set is
        /// empty).
        needs: Option<(crate::model::LocationId, bool)>,
        /// A closed residual `IF(c, s, {})` taken apart ([`SplitTargets`]).
        split: Option<Arc<SplitTargets>>,
    },
}

/// A closed residual `IF(c, s, {})` of `toLocations` taken apart
/// (`Compiler::split_targets`): `c` as tests of the position
/// ([`PreTest`], asked where the residual would run) and `s`'s
/// targets. `nim`'s `take` from `row(2,1)` is `IF(EMPTY("row(2,2)") AND
/// (STATE("turn") == 1 OR STATE("turn") == 3), {FreeBin}, {})`: the test
/// is two reads of the position, and `{FreeBin}`, the same residual at
/// every `from` location, runs once a generation
/// (`Scratch::split_then`).
pub(crate) struct SplitTargets {
    pre: PreTest,
    pub then: ThenTargets,
}

/// The targets of the set `s` of a [`SplitTargets`].
pub(crate) enum ThenTargets {
    /// [`crate::pure::NO_SET`] or a location's id.
    Const(i32),
    /// A set of at most one location over registers that reads no
    /// variable, one code for every equal `s` of the game (so its value in
    /// a position is the same whichever rule or location asks).
    Regs(Arc<crate::pure::PInt>),
}

impl SplitTargets {
    /// `c`'s value in `st` when its tests tell it (as the evaluation gives
    /// it), `None` when they cannot: then the residual runs as a whole.
    #[inline(always)]
    pub(crate) fn ask(
        &self,
        st: &crate::state::State,
        calls: &[crate::memo::KeptCall],
    ) -> Option<bool> {
        // A closed residual reads no variable: every right side is a literal.
        self.pre.eval(
            st,
            &|rhs| rhs.with_player(crate::game::Filter::Any, 0),
            calls,
        )
    }
}

impl std::fmt::Debug for SplitTargets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let then = match &self.then {
            ThenTargets::Const(l) => format!("Const({l})"),
            ThenTargets::Regs(_) => "Regs".to_string(),
        };
        f.debug_struct("SplitTargets")
            .field("pre", &self.pre)
            .field("then", &then)
            .finish()
    }
}

impl std::fmt::Debug for FromTargets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FromTargets::None => f.write_str("None"),
            FromTargets::Const(l) => write!(f, "Const({l})"),
            FromTargets::Regs {
                closed,
                needs,
                split,
                ..
            } => {
                write!(
                    f,
                    "Regs(closed: {closed}, needs: {needs:?}, split: {split:?})"
                )
            }
        }
    }
}

/// A part of a hoisted rule condition specialized at load (`specialize.rs`):
/// `B` for one `to` target (`Specializer::right_side`, run in its place
/// once `A` was true for an element), or `A` for one element or `from`
/// location (`Specializer::left_side`, [`LeftChecks`]).
#[derive(Clone, Default)]
pub(crate) enum ConditionPart {
    /// No residual: the condition runs.
    #[default]
    None,
    /// A residual that reads nothing.
    Const(bool),
    /// A residual over registers (`pure.rs`).
    Regs(Arc<crate::pure::PBool>),
    /// `OWNER(e) op x` (`owner`) or `STATE(e) op x` of a named element,
    /// `x` a literal or a variable holding an Int: read in place.
    Attr {
        e: u16,
        owner: bool,
        op: Op,
        rhs: CheckRhs,
    },
    /// `EMPTY(l)` (`empty`) or `NOT EMPTY(l)` of a named location.
    Empty { l: u16, empty: bool },
    /// A residual over registers (`regs`) that is also an `AND`/`OR`/`NOT`
    /// of position tests and comparisons of kept closed calls with literals
    /// (`pre`, [`PreTest`]): asked before binding, what it decides skips the
    /// evaluation (`nim-orig`'s `(STATE("token") == 1 OR ..) AND (3 ==
    /// Left(2))` for every match but the top one of a row).
    Tested {
        pre: Arc<PreTest>,
        regs: Arc<crate::pure::PBool>,
    },
}

/// What [`ConditionPart::Tested`] asks before binding: each node gives its
/// value, or `None` when it cannot tell, as the evaluation would meet it —
/// `AND`/`OR` left to right, a first operand it cannot tell ends the test
/// (the evaluation might fail there), so a value given is the one the
/// evaluation gives.
#[derive(Clone, Debug)]
pub(crate) enum PreTest {
    /// Tests all of which hold (`any` false, an `AND`, or one test) or one
    /// of which holds (`any`, an `OR`): one loop, no nesting.
    Flat {
        any: bool,
        leaves: Box<[PreLeaf]>,
    },
    And(Box<[PreTest]>),
    Or(Box<[PreTest]>),
    Not(Box<PreTest>),
}

/// A test of [`PreTest`].
#[derive(Clone, Debug)]
pub(crate) enum PreLeaf {
    Const(bool),
    /// As [`ConditionPart::Attr`].
    Attr {
        e: u16,
        owner: bool,
        op: Op,
        rhs: CheckRhs,
    },
    /// As [`ConditionPart::Empty`].
    Empty {
        l: u16,
        empty: bool,
    },
    /// `OWNER(e)` (`owner`) or `STATE(e)` of a named element is one of the
    /// values of `mask`'s bits: an `OR` of `==` tests against literals
    /// 0–63 (`nim-orig`'s `STATE("token") == 1 OR STATE("token") == 3`).
    AttrIn {
        e: u16,
        owner: bool,
        mask: u64,
    },
    /// `v op lit`, `v` the value of the closed call kept in slot `slot` of
    /// `Memo::calls` when it is the value for the state's epoch (`pure.rs`,
    /// `CallCache`), or for its parent's when nothing under `reads` (what
    /// the call may read, [`Compiler::call_slot_reads`]) changed since.
    Call {
        slot: u16,
        op: Op,
        lit: i32,
        reads: u64,
    },
    /// Anything else.
    Unknown,
}

impl PreLeaf {
    fn of_part(t: ConditionPart) -> PreLeaf {
        match t {
            ConditionPart::Attr { e, owner, op, rhs } => PreLeaf::Attr { e, owner, op, rhs },
            ConditionPart::Empty { l, empty } => PreLeaf::Empty { l, empty },
            ConditionPart::Const(b) => PreLeaf::Const(b),
            _ => PreLeaf::Unknown,
        }
    }

    #[inline(always)]
    fn eval(
        &self,
        st: &crate::state::State,
        rhs: &impl Fn(CheckRhs) -> Option<i32>,
        calls: &[crate::memo::KeptCall],
    ) -> Option<bool> {
        match *self {
            PreLeaf::Const(b) => Some(b),
            PreLeaf::Attr {
                e,
                owner,
                op,
                rhs: r,
            } => attr_holds(st, e, owner, op, || rhs(r)),
            PreLeaf::Empty { l, empty } => Some(empty_holds(st, l, empty)),
            PreLeaf::AttrIn { e, owner, mask } => Some(
                u32::try_from(owner_or_state(st, e, owner))
                    .is_ok_and(|v| v < 64 && mask >> v & 1 != 0),
            ),
            PreLeaf::Call {
                slot,
                op,
                lit,
                reads,
            } => {
                let v = calls.get(slot as usize)?.value_in(st, reads)?;
                Some(crate::pure::compare(op, v, lit))
            }
            PreLeaf::Unknown => None,
        }
    }
}

/// [`PreTest::Flat`]: an `AND` (`any` false) or `OR` (`any`) of `leaves`,
/// the loop of [`decide`] written out (through it, a closure for the leaf,
/// `nim-orig` ran 1.6–2 % more instructions).
#[inline(always)]
fn flat_eval(
    any: bool,
    leaves: &[PreLeaf],
    st: &crate::state::State,
    rhs: &impl Fn(CheckRhs) -> Option<i32>,
    calls: &[crate::memo::KeptCall],
) -> Option<bool> {
    for l in leaves {
        if l.eval(st, rhs, calls)? == any {
            return Some(any);
        }
    }
    Some(!any)
}

/// An `AND` (`any` false) or `OR` (`any`) of the values `f` gives `xs`,
/// taken in order: the first that decides it decides it, the first unknown
/// one (`None`) before that leaves it unknown.
#[inline(always)]
fn decide<T>(any: bool, xs: &[T], f: impl Fn(&T) -> Option<bool>) -> Option<bool> {
    for x in xs {
        if f(x)? == any {
            return Some(any);
        }
    }
    Some(!any)
}

impl PreTest {
    #[inline(always)]
    fn eval(
        &self,
        st: &crate::state::State,
        rhs: &impl Fn(CheckRhs) -> Option<i32>,
        calls: &[crate::memo::KeptCall],
    ) -> Option<bool> {
        match self {
            PreTest::Flat { any, leaves } => flat_eval(*any, leaves, st, rhs, calls),
            x => x.eval_nested(st, rhs, calls),
        }
    }

    #[inline(never)]
    fn eval_nested(
        &self,
        st: &crate::state::State,
        rhs: &impl Fn(CheckRhs) -> Option<i32>,
        calls: &[crate::memo::KeptCall],
    ) -> Option<bool> {
        match self {
            PreTest::Flat { .. } => self.eval(st, rhs, calls),
            PreTest::And(xs) => decide(false, xs, |x| x.eval(st, rhs, calls)),
            PreTest::Or(xs) => decide(true, xs, |x| x.eval(st, rhs, calls)),
            PreTest::Not(x) => x.eval(st, rhs, calls).map(|b| !b),
        }
    }

    /// [`ConditionPart::precheck`] of a [`ConditionPart::Tested`] part (out
    /// of line: the tests of one element or square stay as short as they
    /// were, `tictactoe-orig` +1.5 % with this inlined).
    #[inline(never)]
    fn precheck(
        &self,
        st: &crate::state::State,
        player: crate::game::Filter,
        p: i32,
        calls: &[crate::memo::KeptCall],
    ) -> Option<bool> {
        self.eval(st, &|rhs: CheckRhs| rhs.with_player(player, p), calls)
    }

    fn leaf(l: PreLeaf) -> PreTest {
        PreTest::Flat {
            any: false,
            leaves: Box::new([l]),
        }
    }

    /// The single test it is.
    fn as_leaf(&self) -> Option<&PreLeaf> {
        match self {
            PreTest::Flat { leaves, .. } if leaves.len() == 1 => leaves.first(),
            _ => None,
        }
    }

    /// Whether it may tell anything.
    fn tells(&self) -> bool {
        match self {
            PreTest::Flat { leaves, .. } => {
                !matches!(leaves.first(), Some(PreLeaf::Unknown) | None)
            }
            PreTest::And(xs) | PreTest::Or(xs) => xs.first().is_some_and(PreTest::tells),
            PreTest::Not(x) => x.tells(),
        }
    }

    /// `AND` (`any` false) or `OR` of `xs`: one loop when they are all
    /// single tests, and an `OR` of `==` tests of one element's owner or
    /// state against literals 0–63 as one [`PreLeaf::AttrIn`].
    fn join(any: bool, xs: Vec<PreTest>) -> PreTest {
        let leaves: Option<Vec<PreLeaf>> = xs.iter().map(|x| x.as_leaf().cloned()).collect();
        let Some(leaves) = leaves else {
            return if any {
                PreTest::Or(xs.into())
            } else {
                PreTest::And(xs.into())
            };
        };
        if any {
            let mut found: Option<(u16, bool)> = None;
            let mut mask = 0u64;
            let all_eq = leaves.iter().all(|l| match *l {
                PreLeaf::Attr {
                    e,
                    owner,
                    op: Op::Eq,
                    rhs: CheckRhs::Lit(v),
                } if (0..64).contains(&v) && found.is_none_or(|f| f == (e, owner)) => {
                    found = Some((e, owner));
                    mask |= 1 << v;
                    true
                }
                _ => false,
            });
            if let (true, Some((e, owner))) = (all_eq, found) {
                return PreTest::leaf(PreLeaf::AttrIn { e, owner, mask });
            }
        }
        PreTest::Flat {
            any,
            leaves: leaves.into(),
        }
    }
}

/// [`LeftChecks`] whose parts are all one `AND`/`OR` of tests or none
/// (`Rule::left_flat`), laid out for the generation loop
/// (`Rule::flat_left`): per element or `from` location one head, its tests
/// in a list of their own. Asked as [`ConditionPart::precheck_flat`] asks
/// the part, without going through the part, its `Arc` and its `PreTest`
/// to reach them.
#[derive(Clone, Debug)]
pub(crate) struct FlatChecks {
    per_from: bool,
    heads: Box<[FlatHead]>,
}

/// One part's tests, and whether they are an `OR` (`any`) or an `AND`.
#[derive(Clone, Debug)]
struct FlatHead {
    any: bool,
    leaves: Box<[PreLeaf]>,
}

impl FlatChecks {
    /// The table of `checks` when every part is flat (a part that is none
    /// gives no value: one [`PreLeaf::Unknown`]).
    pub(crate) fn of(checks: &LeftChecks) -> Option<FlatChecks> {
        let (per_from, parts) = match checks {
            LeftChecks::None => return None,
            LeftChecks::PerElement(c) => (false, c),
            LeftChecks::PerFrom(c) => (true, c),
        };
        let mut heads = Vec::with_capacity(parts.len());
        for part in parts.iter() {
            heads.push(match part {
                ConditionPart::Tested { pre, .. } => match &**pre {
                    PreTest::Flat { any, leaves } => FlatHead {
                        any: *any,
                        leaves: leaves.iter().cloned().collect(),
                    },
                    _ => return None,
                },
                ConditionPart::None => FlatHead {
                    any: false,
                    leaves: Box::new([PreLeaf::Unknown]),
                },
                _ => return None,
            });
        }
        Some(FlatChecks {
            per_from,
            heads: heads.into(),
        })
    }

    /// What [`ConditionPart::precheck_flat`] gives for the part of the
    /// element `elem` (its index into `Rule::elem_matches`) on `from`;
    /// `None` too where [`LeftChecks::get`] has no part.
    #[inline(always)]
    pub(crate) fn ask(
        &self,
        elem: usize,
        from: usize,
        st: &crate::state::State,
        player: crate::game::Filter,
        p: i32,
        calls: &[crate::memo::KeptCall],
    ) -> Option<bool> {
        let h = self.heads.get(if self.per_from { from } else { elem })?;
        let rhs = &|rhs: CheckRhs| rhs.with_player(player, p);
        for l in h.leaves.iter() {
            if l.eval(st, rhs, calls)? == h.any {
                return Some(h.any);
            }
        }
        Some(!h.any)
    }

    /// The `from` locations indexed by the value of a kept closed call
    /// their test compares with a literal ([`CallIndex`]), when every
    /// location `from=` matches (`from_matches`) has such a test:
    /// per location an `AND` (`any` false) whose leaves before its first
    /// `v == lit` call test ([`PreLeaf::Call`] with [`Op::Eq`]) always give
    /// a value (a constant, an `EMPTY` test, an owner or state test against
    /// literals). `None` otherwise, or when two locations share one call
    /// and literal, the literals of a call span more than
    /// [`CallIndex::SPAN`], or the rule has more than 64 `elements` (the
    /// picked ones are bits of a `u64`).
    pub(crate) fn call_index(&self, from_matches: &[bool], elements: usize) -> Option<CallIndex> {
        if !self.per_from || elements > 64 {
            return None;
        }
        // Per location: the call's slot, what it may read, the literal.
        let mut found: Vec<(u16, u64, i32, u16)> = Vec::new();
        for (l, _) in from_matches.iter().enumerate().filter(|(_, m)| **m) {
            let h = self.heads.get(l)?;
            if h.any {
                return None;
            }
            let (slot, lit, reads) = h.leaves.iter().find_map(|x| match *x {
                PreLeaf::Const(_)
                | PreLeaf::Empty { .. }
                | PreLeaf::AttrIn { .. }
                | PreLeaf::Attr {
                    rhs: CheckRhs::Lit(_),
                    ..
                } => None,
                PreLeaf::Call {
                    slot,
                    op: Op::Eq,
                    lit,
                    reads,
                } => Some(Some((slot, lit, reads))),
                _ => Some(None),
            })??;
            found.push((slot, reads, lit, u16::try_from(l).ok()?));
        }
        found.sort_unstable();
        let mut groups = Vec::new();
        for at in found.chunk_by(|x, y| x.0 == y.0) {
            let (slot, reads, lo, _) = *at.first()?;
            let hi = at.last()?.2;
            if at.iter().any(|x| x.1 != reads) {
                return None;
            }
            let span = usize::try_from(i64::from(hi) - i64::from(lo)).ok()? + 1;
            if span > CallIndex::SPAN {
                return None;
            }
            let mut locs = vec![u16::MAX; span];
            for &(_, _, v, l) in at {
                let i = usize::try_from(i64::from(v) - i64::from(lo)).ok()?;
                if locs[i] != u16::MAX {
                    return None;
                }
                locs[i] = l;
            }
            groups.push(CallGroup {
                slot,
                reads,
                lo,
                locs: locs.into(),
            });
        }
        if groups.is_empty() {
            return None;
        }
        Some(CallIndex {
            groups: groups.into(),
        })
    }
}

/// The `from` locations of a rule whose every element's first test is
/// `AND`ed with `Call(..) == lit` (`nim-orig`'s `$K == Left($R)` for the
/// match on `row($R,$K)`), indexed by the call's value
/// ([`FlatChecks::call_index`]): when every call's value is kept for the
/// position, the elements that can pass are those on the locations the
/// values index — at most one per call — and move generation visits only
/// those (`Game::picked_element_moves`; skipping the others before asking
/// their test was `nim-orig` −8 % instructions a game, not visiting them
/// a further −7.4 %). Any other element
/// has a leaf that gives a value before its call test and a call test
/// that gives false, so its flat test ([`FlatChecks::ask`]) is false: it
/// would be skipped without binding anything.
#[derive(Clone, Debug)]
pub(crate) struct CallIndex {
    groups: Box<[CallGroup]>,
}

/// One kept call of a [`CallIndex`]: per value from `lo`, the location
/// whose test wants it (`u16::MAX`: none).
#[derive(Clone, Debug)]
struct CallGroup {
    slot: u16,
    reads: u64,
    lo: i32,
    locs: Box<[u16]>,
}

impl CallIndex {
    /// The widest range of literals one call may index.
    const SPAN: usize = 256;

    /// The elements on the locations the kept values index, as bits by
    /// their index into `Rule::elem_matches` (`elem_index`, per element);
    /// every bit (`u64::MAX`, every element tried) when some call's value
    /// is not kept for `st`, as [`PreLeaf::Call`] would find it.
    /// ([`FlatChecks::call_index`] gives none to a rule of more than 64
    /// elements.)
    #[inline]
    pub(crate) fn pick(
        &self,
        st: &crate::state::State,
        calls: &[crate::memo::KeptCall],
        elem_index: &[u32],
    ) -> u64 {
        if st.epoch == 0 {
            return u64::MAX;
        }
        let mut out = 0u64;
        for g in self.groups.iter() {
            let Some(v) = calls
                .get(g.slot as usize)
                .and_then(|k| k.value_in(st, g.reads))
            else {
                return u64::MAX;
            };
            let i = i64::from(v) - i64::from(g.lo);
            let Some(&l) = usize::try_from(i).ok().and_then(|i| g.locs.get(i)) else {
                continue;
            };
            if l == u16::MAX {
                continue;
            }
            if let Some(e) = st.content(l) {
                if let Some(&ei) = elem_index.get(e as usize).filter(|&&ei| ei < 64) {
                    out |= 1 << ei;
                }
            }
        }
        out
    }
}

impl ConditionPart {
    /// The part's value in `st` when it reads nothing but the position and
    /// the rule's player variable (`player`, a `player=$P` filter, holding
    /// `p`): a constant, an [`ConditionPart::Attr`] test against a literal
    /// or that variable, an [`ConditionPart::Empty`] test. `None` for any
    /// other part. Such a test has no effect and cannot fail, so move
    /// generation may ask it before binding anything
    /// (`Game::legal_moves_into`). Out of line: inlined, it grew the
    /// generation loop of games that never ask it (`nim` +1.5 %).
    #[inline(never)]
    pub(crate) fn precheck(
        &self,
        st: &crate::state::State,
        player: crate::game::Filter,
        p: i32,
        calls: &[crate::memo::KeptCall],
    ) -> Option<bool> {
        match *self {
            // The usual piece test, `OWNER(e) == $P` of the rule's player:
            // one read and one comparison.
            ConditionPart::Attr {
                e,
                owner: true,
                op: Op::Eq,
                rhs: CheckRhs::Var(v),
            } if player == crate::game::Filter::Var(v) => Some(st.owner(e) == p),
            ConditionPart::Const(b) => Some(b),
            ConditionPart::Tested { ref pre, .. } => pre.precheck(st, player, p, calls),
            _ => self.test_in(st, |rhs| rhs.with_player(player, p)),
        }
    }

    /// [`ConditionPart::precheck`] of a hoisted first conjunct asked by
    /// `rule_matches` when every such part of the rule is one `AND`/`OR` of
    /// tests ([`PreTest::Flat`], `Rule::left_flat`): read here, without a
    /// call more. (In `precheck`, which other parts and the targets' tests
    /// ask, the loop made `tictactoe-orig` 1.9 % slower.) Inlined: when the
    /// generation loop asked it too, `nim-orig` ran 3.6 % fewer
    /// instructions than with it out of line; that loop now asks the same
    /// tests from one table ([`FlatChecks`]).
    #[inline(always)]
    pub(crate) fn precheck_flat(
        &self,
        st: &crate::state::State,
        player: crate::game::Filter,
        p: i32,
        calls: &[crate::memo::KeptCall],
    ) -> Option<bool> {
        match self {
            ConditionPart::Tested { pre, .. } => match &**pre {
                PreTest::Flat { any, leaves } => {
                    // `flat_eval`'s loop written out: through it `nim-orig`
                    // ran 0.7 % more instructions.
                    let rhs = &|rhs: CheckRhs| rhs.with_player(player, p);
                    for l in leaves.iter() {
                        if l.eval(st, rhs, calls)? == *any {
                            return Some(*any);
                        }
                    }
                    Some(!*any)
                }
                pre => pre.precheck(st, player, p, calls),
            },
            t => t.precheck(st, player, p, calls),
        }
    }

    /// Whether it is a [`ConditionPart::Tested`] part whose tests are one
    /// `AND`/`OR` ([`ConditionPart::precheck_flat`]), or no part.
    pub(crate) fn is_flat(&self) -> bool {
        match self {
            ConditionPart::Tested { pre, .. } => matches!(**pre, PreTest::Flat { .. }),
            ConditionPart::None => true,
            _ => false,
        }
    }

    /// Whether [`ConditionPart::precheck`] gives a value (in any state).
    pub(crate) fn precheckable(&self, player: crate::game::Filter) -> bool {
        match *self {
            ConditionPart::Const(_) | ConditionPart::Empty { .. } => true,
            ConditionPart::Attr { rhs, .. } => rhs.with_player(player, 0).is_some(),
            ConditionPart::Tested { .. } => true,
            _ => false,
        }
    }

    /// The value in `st` of an [`ConditionPart::Attr`] part, its right
    /// operand's value given by `rhs` (`None`: give up), or of an
    /// [`ConditionPart::Empty`] part; `None` for any other part.
    #[inline(always)]
    fn test_in(
        &self,
        st: &crate::state::State,
        rhs: impl FnOnce(CheckRhs) -> Option<i32>,
    ) -> Option<bool> {
        match *self {
            ConditionPart::Attr {
                e,
                owner,
                op,
                rhs: r,
            } => attr_holds(st, e, owner, op, || rhs(r)),
            ConditionPart::Empty { l, empty } => Some(empty_holds(st, l, empty)),
            _ => None,
        }
    }
}

/// The test of [`ConditionPart::Attr`] and [`PreLeaf::Attr`]: `OWNER`
/// (`owner`) or `STATE` of element `e` in `st` against the right operand
/// `rhs` gives (`None`: it cannot tell) by `op`.
#[inline(always)]
fn attr_holds(
    st: &crate::state::State,
    e: u16,
    owner: bool,
    op: Op,
    rhs: impl FnOnce() -> Option<i32>,
) -> Option<bool> {
    let v = owner_or_state(st, e, owner);
    Some(crate::pure::compare(op, v, rhs()?))
}

/// The test of [`ConditionPart::Empty`] and [`PreLeaf::Empty`]: location
/// `l` is empty in `st` (`empty`), or occupied.
#[inline(always)]
pub(crate) fn empty_holds(st: &crate::state::State, l: u16, empty: bool) -> bool {
    st.content(l).is_none() == empty
}

/// `OWNER` (`owner`) or `STATE` of element `e` in `st`: what the tests of
/// [`ConditionPart::Attr`] and [`PreLeaf`] read.
#[inline(always)]
fn owner_or_state(st: &crate::state::State, e: u16, owner: bool) -> i32 {
    if owner {
        st.owner(e)
    } else {
        st.element_state(e)
    }
}

impl CheckRhs {
    /// The operand's value when it is a literal or the rule's `player=`
    /// variable (`player`) holding `p`.
    fn with_player(self, player: crate::game::Filter, p: i32) -> Option<i32> {
        match self {
            CheckRhs::Lit(i) => Some(i),
            CheckRhs::Var(v) if player == crate::game::Filter::Var(v) => Some(p),
            CheckRhs::Var(_) => None,
        }
    }
}

/// The right operand of [`ConditionPart::Attr`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum CheckRhs {
    Lit(i32),
    Var(VarId),
}

impl std::fmt::Debug for ConditionPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConditionPart::None => f.write_str("None"),
            ConditionPart::Const(b) => write!(f, "Const({b})"),
            ConditionPart::Regs(_) => f.write_str("Regs"),
            ConditionPart::Tested { pre, .. } => write!(f, "Tested({pre:?})"),
            ConditionPart::Attr { e, owner, op, rhs } => {
                write!(f, "Attr({e}, {owner}, {op:?}, {rhs:?})")
            }
            ConditionPart::Empty { l, empty } => write!(f, "Empty({l}, {empty})"),
        }
    }
}

/// The part `A` of a hoisted rule condition specialized per element or per
/// `from` location (`specialize.rs`, `Specializer::left_side`), which runs
/// in its place.
#[derive(Clone, Debug, Default)]
pub(crate) enum LeftChecks {
    #[default]
    None,
    /// By index into `Rule::elem_matches`.
    PerElement(Box<[ConditionPart]>),
    /// By `from` location.
    PerFrom(Box<[ConditionPart]>),
}

impl LeftChecks {
    /// Whether some check is one `f` holds for.
    pub(crate) fn any(&self, f: impl Fn(&ConditionPart) -> bool) -> bool {
        match self {
            LeftChecks::None => false,
            LeftChecks::PerElement(c) | LeftChecks::PerFrom(c) => c.iter().any(f),
        }
    }

    /// The check for the element `elem` (its index into
    /// `Rule::elem_matches`) on location `from`.
    pub(crate) fn get(&self, elem: usize, from: usize) -> Option<&ConditionPart> {
        match self {
            LeftChecks::None => None,
            LeftChecks::PerElement(c) => c.get(elem),
            LeftChecks::PerFrom(c) => c.get(from),
        }
    }
}

/// The compiled form of a [`SrcExpr`]; `None` only before the game is assembled.
#[derive(Clone, Default)]
pub(crate) struct Code(pub(crate) Option<Arc<Compiled>>);

impl Code {
    /// Whether it has a register form as a set of at most one location
    /// (`Compiled::loc_set`).
    #[cfg(test)]
    pub(crate) fn has_loc_set(&self) -> bool {
        self.0.as_ref().is_some_and(|c| c.loc_set.is_some())
    }

    /// Whether it is a call inlined for `call_split` (`pure::Split`).
    #[cfg(test)]
    pub(crate) fn has_split(&self) -> bool {
        self.0.as_ref().is_some_and(|c| c.split.is_some())
    }

    /// Whether it runs a residual (`specialize.rs`) in its place.
    #[cfg(test)]
    pub(crate) fn has_special(&self) -> bool {
        self.0.as_ref().is_some_and(|c| c.special)
    }
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Code(compiled)"
        } else {
            "Code(none)"
        })
    }
}

impl std::fmt::Debug for CFunc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CFunc({})", self.name)
    }
}

#[cold]
fn not_a(c: &Ctx<'_>, what: &str, kind: &str, v: &Value) -> Box<EvalError> {
    EvalError::new(format!(
        "{what} must be a{} {kind}, got {} {}",
        if kind == "Int" { "n" } else { "" },
        v.kind(),
        c.show(v)
    ))
}

/// What the compiler needs from the game being assembled.
pub(crate) struct Compiler<'a> {
    pub funcs: &'a [Option<Function>],
    pub func_names: &'a [String],
    pub sym_loc: &'a [u16],
    pub sym_elem: &'a [u16],
    pub templates: &'a [crate::game::Template],
    /// Per function: whether its last line is Bool-typed, so that it always
    /// gives a Bool (a false guard line gives `false` too) and its calls are
    /// Bool nodes. Empty in the first round (see [`Compiler::bool_funcs`]).
    pub bool_funcs: Vec<bool>,
    /// Per function: whether its calls are memoized (`memo.rs`).
    pub memo_funcs: Vec<bool>,
    /// Per function: whether it has a body over registers (`pure::body`),
    /// which its calls try first. Empty until the Bool functions are known.
    pub pure_bodies: Vec<bool>,
    /// Whether any function is memoized: then the built-ins record their
    /// reads of the position while a memoized call runs.
    pub record: bool,
    /// Per variable: whether what a call leaves in it is never read
    /// (`memo::dead_vars`).
    pub dead: &'a [bool],
    /// The symbol of `""`.
    pub empty_sym: Sym,
    /// Loop bodies memoized as units (`memo::units`): the body's address,
    /// its id in `Game::memo_info` (after the functions).
    pub units: Vec<(usize, FuncId)>,
    /// The symbols of the location types' names.
    pub ltype_sym: &'a [Sym],
    /// Whether `LOCTYPE(LOCATION(..))` may be held as a location type's
    /// index (`pure::Ty::LType`): no location and no location type is named
    /// `""`, and the types' names are distinct.
    pub ltypes: bool,
    /// The symbols of the element types' names.
    pub etype_sym: &'a [Sym],
    /// Whether `ELTYPE(..)` may be held as an element type's index
    /// (`pure::Ty::EType`): no element type is named `""`, and their names
    /// are distinct.
    pub etypes: bool,
    /// Set by [`Compiler::code`] just before it compiles a top-level
    /// expression or a side of a top-level `AND` (and by [`Compiler::func`]
    /// before a function's line), and cleared by the
    /// [`Compiler::node`] that compiles it: only there may a call of a
    /// memoized function alone be inlined for when its table is off
    /// (`pure::Code::OffInt`/`OffBool`; elsewhere, as an operand in a
    /// function body, it would cost a check per call for nothing when the
    /// table is on).
    pub top: std::cell::Cell<bool>,
    /// The sets of [`SplitTargets`] compiled so far, with their codes
    /// ([`Compiler::then_code`]).
    pub then_codes: std::cell::RefCell<Vec<(Expr, Arc<crate::pure::PInt>)>>,
    /// Per function, [`Compiler::callee_mentions`], found once.
    pub(crate) callee_mentions: std::cell::OnceCell<Vec<Option<rustc_hash::FxHashSet<VarId>>>>,
    /// The cache slots handed out to closed inlined calls
    /// (`pure::Inlined::cache`): the function, the type of its value and
    /// its arguments (integer literals, or none).
    pub call_slots: std::cell::RefCell<Vec<(FuncId, u8, Vec<i32>)>>,
    /// Per slot of [`Compiler::call_slots`], what its call may read of the
    /// position (`pure::Inlined::read_bits`; `u64::MAX`: not known).
    pub call_slot_reads: std::cell::RefCell<Vec<u64>>,
    /// The slots handed out under [`NewCallSlots::KnownReads`] (bit per
    /// slot): used by checks that run once a position alone.
    pub once_slots: std::cell::Cell<u64>,
    /// The `State::changed` bits of the locations of the elements some
    /// rule moves (`state::location_bit`), distinct: a move changes one of
    /// them at least, so a call reading all of them is never taken from
    /// the parent position (set before [`NewCallSlots::KnownReads`]).
    pub moved_bits: std::cell::RefCell<Vec<u64>>,
    /// Which closed inlined calls may get a new slot (see [`NewCallSlots`]).
    pub new_call_slots: std::cell::Cell<NewCallSlots>,
    /// Summing loops over calls handed a place in `Memo::sums`
    /// (`pure::SummedCounts`).
    pub sum_slots: std::cell::Cell<u16>,
    /// Counting loops handed a slot for their per-position counts
    /// (`pure::ElemCount`, `Memo::counts`).
    pub count_slots: std::cell::Cell<u16>,
    /// The shapes of those loops and their places (loops of one shape
    /// share them, `pure::Builder::kept_slot`).
    pub kept_shapes: std::cell::RefCell<Vec<crate::pure::KeptShape>>,
    /// Scans handed a slot for where they stopped (`pure::KeptScan`,
    /// `Memo::scans`).
    pub scan_slots: std::cell::Cell<u16>,
}

/// What a [`Compiler`] reads of the game being loaded: the parts of a
/// `Game` that exist before it is assembled.
#[derive(Clone, Copy)]
pub(crate) struct GameTables<'a> {
    pub funcs: &'a [Option<Function>],
    pub func_names: &'a [String],
    pub sym_loc: &'a [u16],
    pub sym_elem: &'a [u16],
    pub templates: &'a [crate::game::Template],
    pub dead: &'a [bool],
    pub empty_sym: Sym,
    pub ltype_sym: &'a [Sym],
    pub etype_sym: &'a [Sym],
}

impl<'a> Compiler<'a> {
    /// The variables that the functions function `f` calls, following
    /// calls, mention ([`mentioned_by_callees`]); `None` when `f` or a
    /// function it calls is not defined. Found for every function at the
    /// first call (`Compiler::callee_mentions`): every inlining of a call
    /// asks.
    pub(crate) fn callee_mentions(&self, f: FuncId) -> Option<&rustc_hash::FxHashSet<VarId>> {
        let all = self.callee_mentions.get_or_init(|| {
            self.funcs
                .iter()
                .map(|def| mentioned_by_callees(self, &def.as_ref()?.body))
                .collect()
        });
        all.get(f as usize)?.as_ref()
    }

    /// A compiler of `t`'s expressions with no memoized function, no unit,
    /// no recording and no Bool function known yet: the probe that asks
    /// whether a function can be inlined (`pure::inlinable`), and the base
    /// of the game's own compiler, which sets those.
    pub(crate) fn new(t: GameTables<'a>) -> Compiler<'a> {
        Compiler {
            funcs: t.funcs,
            func_names: t.func_names,
            sym_loc: t.sym_loc,
            sym_elem: t.sym_elem,
            templates: t.templates,
            bool_funcs: Vec::new(),
            memo_funcs: Vec::new(),
            pure_bodies: Vec::new(),
            record: false,
            dead: t.dead,
            empty_sym: t.empty_sym,
            units: Vec::new(),
            ltype_sym: t.ltype_sym,
            ltypes: crate::game::ltypes_sound(t.sym_loc, t.ltype_sym, t.empty_sym),
            etype_sym: t.etype_sym,
            etypes: crate::game::types_distinct(t.etype_sym, t.empty_sym),
            top: std::cell::Cell::new(false),
            then_codes: Default::default(),
            call_slots: Default::default(),
            call_slot_reads: Default::default(),
            once_slots: Default::default(),
            moved_bits: Default::default(),
            new_call_slots: Default::default(),
            count_slots: Default::default(),
            sum_slots: Default::default(),
            kept_shapes: Default::default(),
            scan_slots: Default::default(),
            callee_mentions: Default::default(),
        }
    }
}

/// The variables that the functions `body` calls, following calls
/// (`engine::reachable`), mention (`memo::mentions`, their parameters
/// included); `None` when a call is of no defined function.
fn mentioned_by_callees(
    c: &Compiler<'_>,
    body: &[SrcExpr],
) -> Option<rustc_hash::FxHashSet<VarId>> {
    let mut out = rustc_hash::FxHashSet::default();
    for line in body {
        let (defs, defined) = crate::engine::reachable(&line.expr, c.funcs);
        if !defined {
            return None;
        }
        for def in defs {
            out.extend(def.params.iter().copied());
            for l in &def.body {
                crate::memo::mentions(&l.expr, c.templates, &mut out);
            }
        }
    }
    Some(out)
}

/// `c` and `s` of a residual `IF(c, s, {})`.
fn if_or_nothing(r: &Expr) -> Option<(&Expr, &Expr)> {
    match r {
        Expr::Builtin(Builtin::If, a) => match &a[..] {
            [c, s, Expr::Set(none)] if none.is_empty() => Some((c, s)),
            _ => None,
        },
        _ => None,
    }
}

/// A Bool code over registers (`p`) also kept for a caller that runs it
/// directly, when `direct`: the closures built from the code returned
/// call it through the `Arc` given back (an end-of-game situation's,
/// `Compiler::code_end`).
fn share_bool(
    p: crate::pure::Code,
    direct: bool,
) -> (crate::pure::Code, Option<Arc<crate::pure::PBool>>) {
    match p {
        crate::pure::Code::Bool(p) if direct => {
            let p = Arc::new(p);
            let shared = p.clone();
            (
                crate::pure::Code::Bool(Box::new(move |c, r| p(c, r))),
                Some(shared),
            )
        }
        p => (p, None),
    }
}

/// In an id table of a template: no name the game knows; certainly unknown
/// when the template is exhaustive ([`IdTable::outside`]), otherwise the
/// table cannot decide: ask `Ctx::template`.
const ASK: u16 = u16::MAX;
/// In an id table of a template: the name is known but is no location (element).
const NONE: u16 = u16::MAX - 1;

/// What a name template's id table needs at run time.
#[derive(Clone)]
pub(crate) struct IdTable {
    t: u32,
    locations: bool,
    mins: [i32; 2],
    dims: [u32; 2],
    /// Row-major: the location (element) id of every known name, [`NONE`], or [`ASK`].
    ids: Box<[u16]>,
    /// A name built from arguments outside the table is certainly unknown
    /// (the template's `exhaustive`, and `negatives_unknown` or non-negative arguments).
    exhaustive: bool,
    negatives_unknown: bool,
}

impl IdTable {
    /// The general path: `Ctx::template`, then the symbol's id.
    #[inline(never)]
    fn ask(&self, c: &mut Ctx<'_>) -> R<Option<u16>> {
        Ok(match c.template(self.t)? {
            Some(s) if self.locations => c.g.sym_location(s),
            Some(s) => c.g.sym_element(s),
            None => None,
        })
    }

    /// The cell `idx` of a name built from arguments inside the table
    /// (`nonneg`: whether all of them are non-negative). A name the game
    /// does not know is certainly unknown when the template is exhaustive,
    /// as `Ctx::template` decides it.
    #[inline(always)]
    fn hit(&self, idx: usize, nonneg: impl FnOnce() -> bool) -> Option<Option<u16>> {
        match self.ids[idx] {
            ASK => self.outside(nonneg()),
            NONE => Some(None),
            id => Some(Some(id)),
        }
    }

    /// A name the table does not hold (`nonneg`: built from non-negative
    /// arguments): certainly unknown when the template is exhaustive (and
    /// negatives are unknown or the arguments non-negative), else undecided.
    #[inline(always)]
    fn outside(&self, nonneg: bool) -> Option<Option<u16>> {
        (self.exhaustive && (self.negatives_unknown || nonneg)).then_some(None)
    }

    /// Whether `other` gives the same ids for the same arguments (two
    /// interpolations of one name, `"m($LE)"` twice, are two templates
    /// with equal tables).
    pub(crate) fn same_table(&self, other: &IdTable) -> bool {
        self.locations == other.locations
            && self.mins == other.mins
            && self.dims == other.dims
            && self.ids == other.ids
            && self.exhaustive == other.exhaustive
            && self.negatives_unknown == other.negatives_unknown
    }

    /// The id of the name built from `x` (a template over one variable):
    /// `Some(None)` for no such name, `None` when the table cannot decide
    /// (then [`IdTable::ask`] builds the name).
    #[inline(always)]
    pub(crate) fn lookup1(&self, x: i32) -> Option<Option<u16>> {
        let o = x.wrapping_sub(self.mins[0]) as u32;
        if o < self.dims[0] {
            self.hit(o as usize, || x >= 0)
        } else {
            self.outside(x >= 0)
        }
    }

    /// [`IdTable::lookup1`] of a template over two variables.
    #[inline(always)]
    pub(crate) fn lookup2(&self, x: i32, y: i32) -> Option<Option<u16>> {
        let ox = x.wrapping_sub(self.mins[0]) as u32;
        let oy = y.wrapping_sub(self.mins[1]) as u32;
        if ox < self.dims[0] && oy < self.dims[1] {
            self.hit(ox as usize * self.dims[1] as usize + oy as usize, || {
                x >= 0 && y >= 0
            })
        } else {
            self.outside(x >= 0 && y >= 0)
        }
    }
}

/// Which closed inlined calls get a new slot in `Memo::calls`
/// (`pure::Inlined::cache`) while an expression compiles.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum NewCallSlots {
    /// None: a call takes the slot another call of the function has.
    #[default]
    None,
    /// Every one: rule conditions and targets, which run for many
    /// elements and targets of a position.
    All,
    /// Those whose reads are known (`pure::Inlined::read_bits`) and leave
    /// out the location of some element a rule moves (`moved_bits`): end
    /// and scoring checks run once a position, so a slot pays only when
    /// the value can be taken from an earlier position (`frogs` was 3.6 %
    /// slower with slots for every closed call there, `tictactoe-orig`
    /// 1.5 % with a slot for a count of all its pieces). Handed out only
    /// in games whose states track what changed anyway.
    KnownReads,
}

/// A location or element argument, resolved in place for the usual shapes
/// (a literal name, a template over one or two Int variables) instead of
/// through a closure of its own.
pub(crate) enum IdArg {
    Const(Option<u16>),
    One(VarId, IdTable),
    Two(VarId, VarId, IdTable),
    Other(CId),
}

impl IdArg {
    /// The id, or `None` when the name is not one.
    #[inline(always)]
    fn get(&self, c: &mut Ctx<'_>) -> R<Option<u16>> {
        match self {
            IdArg::Const(x) => Ok(*x),
            IdArg::One(v, tab) => {
                if let Some(Value::Int(x)) = c.vars.get(*v) {
                    if let Some(id) = tab.lookup1(*x) {
                        return Ok(id);
                    }
                }
                tab.ask(c)
            }
            IdArg::Two(v, w, tab) => {
                if let (Some(Value::Int(x)), Some(Value::Int(y))) = (c.vars.get(*v), c.vars.get(*w))
                {
                    if let Some(id) = tab.lookup2(*x, *y) {
                        return Ok(id);
                    }
                }
                tab.ask(c)
            }
            IdArg::Other(f) => f(c),
        }
    }
}

/// `SETSTATE`/`SETOWNER`/`SETZINDEX` (`b`, setting `which`) of element `e`
/// to `v` after its check of the value (`name` names the element in the
/// error, asked only then).
#[inline(always)]
fn set_attr(
    c: &mut Ctx<'_>,
    b: Builtin,
    which: Attr,
    e: u16,
    v: i32,
    name: impl FnOnce(&Ctx<'_>) -> String,
) -> R<bool> {
    let g = c.g;
    let fits = match which {
        Attr::State => {
            let el = &g.elements[e as usize];
            (1..=g.element_types[el.element_type].states).contains(&v)
        }
        Attr::Owner => (0..=g.players.len() as i32).contains(&v),
        _ => true,
    };
    if !fits {
        return Err(out_of_range(c, which, e, v, name(c)));
    }
    c.state_mut(b)?.set_attr(e, which, v);
    Ok(true)
}

#[cold]
#[inline(never)]
fn out_of_range(c: &Ctx<'_>, which: Attr, e: u16, v: i32, name: String) -> Box<EvalError> {
    let g = c.g;
    match which {
        Attr::State => {
            let k = g.element_types[g.elements[e as usize].element_type].states;
            EvalError::new(format!(
                "SETSTATE: state {v} out of range 1..{k} for `{name}`"
            ))
        }
        _ => EvalError::new(format!(
            "SETOWNER: owner {v} out of range 0..{}",
            g.players.len()
        )),
    }
}

/// `NEXTPLAYER`.
#[inline(always)]
fn next_player(c: &mut Ctx<'_>) -> R<bool> {
    let n = c.g.players.len() as i32;
    let st = c.state_mut(Builtin::NextPlayer)?;
    let p = st.player() % n + 1;
    st.set_player(p);
    Ok(true)
}

#[cfg(test)]
thread_local! {
    /// How many calls of functions of effects ([`run_effects`]) were
    /// compiled on this thread.
    pub(crate) static EFFECT_CALLS_BUILT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// How many assignments of a sum ([`Compiler::assign_sum`]) were
    /// compiled on this thread.
    pub(crate) static ASSIGN_SUMS_BUILT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// A line of a function all of whose lines are effects
/// ([`Compiler::effect_lines`]).
enum Effect {
    /// `SETSTATE`/`SETOWNER`/`SETZINDEX` (`b`) of the element named by the
    /// literal `name` (id `e`) to the value of `v`.
    Set {
        b: Builtin,
        which: Attr,
        e: u16,
        name: Sym,
        v: CInt,
        /// `v`'s expression when it is a literal, or an Int variable plus a
        /// literal: read in place, `v` running only when that cannot give
        /// the value (the variable not an Int, an overflow), for its error.
        quick: QuickInt,
    },
    NextPlayer,
}

/// [`Effect::Set`]'s value read in place.
#[derive(Clone, Copy)]
enum QuickInt {
    Lit(i32),
    /// `$v + q` (`$v - q` as `q` negated; `$v` alone as `q` = 0).
    VarAdd(VarId, i32),
    None,
}

impl QuickInt {
    fn of(e: &Expr) -> QuickInt {
        match *e {
            Expr::Int(i) => QuickInt::Lit(i),
            Expr::Var(v) => QuickInt::VarAdd(v, 0),
            Expr::Binary(Op::Add, ref x, ref y) => match (&**x, &**y) {
                (&Expr::Var(v), &Expr::Int(q)) | (&Expr::Int(q), &Expr::Var(v)) => {
                    QuickInt::VarAdd(v, q)
                }
                _ => QuickInt::None,
            },
            Expr::Binary(Op::Sub, ref x, ref y) => match (&**x, &**y) {
                (&Expr::Var(v), &Expr::Int(q)) if q != i32::MIN => QuickInt::VarAdd(v, -q),
                _ => QuickInt::None,
            },
            _ => QuickInt::None,
        }
    }

    #[inline(always)]
    fn get(self, c: &Ctx<'_>) -> Option<i32> {
        match self {
            QuickInt::Lit(i) => Some(i),
            QuickInt::VarAdd(v, q) => match c.vars.get(v) {
                Some(&Value::Int(i)) => i.checked_add(q),
                _ => None,
            },
            QuickInt::None => None,
        }
    }
}

/// The lines of a function of effects, its parameters bound and the call
/// entered: what [`run_lines_bool`] does with the lines' closures (each line
/// gives `true` or fails; the error traced with its line), without them.
fn run_effects(c: &mut Ctx<'_>, lines: &[(Effect, u32)], name: &str) -> R<bool> {
    for (effect, line) in lines {
        let done = match effect {
            Effect::Set {
                b,
                which,
                e,
                name,
                v,
                quick,
            } => {
                let value = match quick.get(c) {
                    Some(x) => Ok(x),
                    None => v(c),
                };
                match value {
                    Ok(v) => set_attr(c, *b, *which, *e, v, |c| {
                        c.text(&Str::Sym(*name)).to_string()
                    }),
                    Err(e) => Err(e),
                }
            }
            Effect::NextPlayer => next_player(c),
        };
        if let Err(e) = done {
            return Err(e.at_line(name, *line));
        }
    }
    Ok(true)
}

/// A comparison of a call with an integer literal, either side: the call,
/// the literal and the operator with the call on the left.
fn call_vs_literal(r: &Expr) -> Option<(&Expr, i32, Op)> {
    let Expr::Binary(op @ (Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge), x, y) = r else {
        return None;
    };
    match (&**x, &**y) {
        (call @ Expr::Call(..), &Expr::Int(i)) => Some((call, i, *op)),
        (&Expr::Int(i), call @ Expr::Call(..)) => {
            let op = match op {
                Op::Lt => Op::Gt,
                Op::Le => Op::Ge,
                Op::Gt => Op::Lt,
                Op::Ge => Op::Le,
                op => *op,
            };
            Some((call, i, op))
        }
        _ => None,
    }
}

fn known(table: &[u16], s: Sym) -> Option<u16> {
    table.get(s as usize).copied().filter(|&x| x != u16::MAX)
}

impl Compiler<'_> {
    /// The functions whose calls always give a Bool, given the current
    /// knowledge: compile every body and look at its last line. Knowing more
    /// Bool functions only turns more nodes into Bool nodes, never fewer, so
    /// repeating this reaches a fixed point.
    pub fn bool_funcs(&self) -> Vec<bool> {
        self.funcs
            .iter()
            .map(|f| {
                f.as_ref().is_some_and(|f| {
                    f.body
                        .last()
                        .is_some_and(|l| matches!(self.node(&l.expr), Node::Bool(_)))
                })
            })
            .collect()
    }

    /// Whether function `f` calls a memoized function or has a memoized
    /// loop body (`memo::units`), following calls.
    pub(crate) fn calls_memoized(&self, f: FuncId) -> bool {
        let mut seen = vec![false; self.funcs.len()];
        let mut todo = vec![f];
        let mut found = false;
        while let Some(g) = todo.pop() {
            let Some(Some(def)) = self.funcs.get(g as usize) else {
                continue;
            };
            for l in &def.body {
                l.expr.walk(&mut |x| {
                    if let Expr::Loop { body, .. } = x {
                        let at = &**body as *const Expr as usize;
                        found |= self.units.iter().any(|u| u.0 == at);
                    }
                    if let Expr::Call(h, _) = x {
                        found |= self.memo_funcs.get(*h as usize) == Some(&true);
                        if let Some(s) = seen.get_mut(*h as usize) {
                            if !*s {
                                *s = true;
                                todo.push(*h);
                            }
                        }
                    }
                });
            }
        }
        found
    }

    /// Compiles a top-level expression.
    pub fn code(&self, e: &Expr) -> Code {
        self.code_sharing(e, false).0
    }

    /// [`Compiler::code`], and when `direct` and the whole expression runs
    /// over registers as a Bool, that code too, shared with the closures
    /// ([`share_bool`]).
    fn code_sharing(&self, e: &Expr, direct: bool) -> (Code, Option<Arc<crate::pure::PBool>>) {
        let and = match e {
            Expr::Binary(Op::And, a, b) => Some((
                {
                    self.top.set(true);
                    self.bool(a, "the left side of AND")
                },
                {
                    self.top.set(true);
                    self.bool(b, "the right side of AND")
                },
            )),
            _ => None,
        };
        let call_args = match e {
            Expr::Call(_, args) => Some(args.iter().map(|a| self.arg(a)).collect()),
            _ => None,
        };
        let split = match e {
            Expr::Call(fid, args) => crate::pure::compile_split(self, *fid, args),
            _ => None,
        };
        // A set of at most one location over registers (`toLocations`).
        let loc_set = match e {
            Expr::Call(..) | Expr::Builtin(Builtin::If, _) => {
                match crate::pure::compile(self, e, false) {
                    Some(crate::pure::Code::Set(p)) => Some(p),
                    _ => None,
                }
            }
            _ => None,
        };
        self.top.set(true);
        let (whole, bool_code) = self.node_sharing(e, direct);
        let code = Code(Some(Arc::new(Compiled {
            whole,
            and,
            call_args,
            split,
            loc_set,
            special: false,
        })));
        (code, bool_code)
    }

    /// [`Compiler::code`] of an expression together with its residual
    /// (`specialize.rs`), which runs in its place.
    pub(crate) fn code_special(&self, e: &Expr, residual: Option<(Expr, bool)>) -> Code {
        self.special_code(e, residual, false).0
    }

    /// [`Compiler::code_special`] of an end-of-game situation, with a Bool
    /// code over registers to ask directly (`game::EndCondition::regs`,
    /// without the layers of [`Ctx::run_cond`] and [`Ctx::run_special`]
    /// around it): the residual's, or without a residual the situation's
    /// own, shared with the closures either way ([`share_bool`]).
    pub(crate) fn code_end(
        &self,
        e: &Expr,
        residual: Option<(Expr, bool)>,
    ) -> (Code, Option<Arc<crate::pure::PBool>>) {
        self.special_code(e, residual, true)
    }

    fn special_code(
        &self,
        e: &Expr,
        residual: Option<(Expr, bool)>,
        direct: bool,
    ) -> (Code, Option<Arc<crate::pure::PBool>>) {
        let (mut code, mut bool_code) = self.code_sharing(e, direct);
        if let (Some((r, kept_only)), Some(c)) = (residual, code.0.as_mut().and_then(Arc::get_mut))
        {
            self.top.set(true);
            // Over registers where they can take it (`pure.rs`), the
            // closures otherwise; a large one only as a kept formula.
            let node = match kept_only {
                true => match crate::pure::compile_kept_formula(self, &r) {
                    Some(p) => {
                        let shared;
                        (shared, bool_code) = share_bool(p, direct);
                        self.pure_node(shared, &r)
                    }
                    None => {
                        self.top.set(false);
                        return (code, bool_code);
                    }
                },
                false => match crate::pure::compile_residual(self, &r) {
                    Some(p) => {
                        let shared;
                        (shared, bool_code) = share_bool(p, direct);
                        self.pure_node(shared, &r)
                    }
                    None => {
                        bool_code = None;
                        self.node(&r)
                    }
                },
            };
            let original = std::mem::replace(&mut c.whole, Node::Bool(f(|_| Ok(false))));
            c.whole = Node::Val(f(move |c| c.run_special(&node, &original)));
            c.special = true;
        }
        (code, bool_code)
    }

    /// [`FromTargets`] of a residual of `toLocations`: a set literal of no
    /// or one location is known, anything else runs over registers where
    /// `pure.rs` can take it as a set of at most one location (and is not
    /// used otherwise).
    pub(crate) fn code_targets(&self, residual: Option<(Expr, bool)>) -> FromTargets {
        let Some((r, closed)) = residual else {
            return FromTargets::None;
        };
        match &r {
            Expr::Set(items) if items.is_empty() => FromTargets::Const(crate::pure::NO_SET),
            Expr::Set(items) => match &items[..] {
                [Expr::Str(s)] => match known(self.sym_loc, *s) {
                    Some(l) => FromTargets::Const(i32::from(l)),
                    None => FromTargets::None,
                },
                _ => FromTargets::None,
            },
            _ => {
                self.top.set(true);
                match crate::pure::compile_residual(self, &r) {
                    Some(crate::pure::Code::Set(p)) => FromTargets::Regs {
                        code: Arc::new(p),
                        closed,
                        needs: self.needs(&r),
                        // After the residual's closures: they hand out the
                        // calls' slots the tests may read.
                        split: if closed { self.split_targets(&r) } else { None },
                    },
                    _ => FromTargets::None,
                }
            }
        }
    }

    /// [`SplitTargets`] of a closed residual `IF(c, s, {})` of
    /// `toLocations`, when `c`'s tests may tell its value ([`PreTest`])
    /// and `s` is `{}`, a location's literal name or a set of at most one
    /// location over registers.
    fn split_targets(&self, r: &Expr) -> Option<Arc<SplitTargets>> {
        let (c, s) = if_or_nothing(r)?;
        let then = match s {
            Expr::Set(items) => match &items[..] {
                [] => ThenTargets::Const(crate::pure::NO_SET),
                [Expr::Str(l)] => ThenTargets::Const(i32::from(known(self.sym_loc, *l)?)),
                _ => self.then_code(s)?,
            },
            _ => self.then_code(s)?,
        };
        let pre = self.pretest(c);
        pre.tells().then(|| Arc::new(SplitTargets { pre, then }))
    }

    /// [`ThenTargets::Regs`] of a closed set `s`: the code of an equal one
    /// compiled before, or `s` compiled.
    fn then_code(&self, s: &Expr) -> Option<ThenTargets> {
        if let Some((_, p)) = self.then_codes.borrow().iter().find(|(x, _)| x == s) {
            return Some(ThenTargets::Regs(p.clone()));
        }
        self.top.set(true);
        let p = Arc::new(crate::pure::compile_set(self, s)?);
        self.then_codes.borrow_mut().push((s.clone(), p.clone()));
        Some(ThenTargets::Regs(p))
    }

    /// `FromTargets::Regs::needs` of a residual: `IF(c, s, {})` where `c`
    /// is, or starts with (`AND`), `EMPTY` or `NOT EMPTY` of a location's
    /// literal name.
    fn needs(&self, r: &Expr) -> Option<(crate::model::LocationId, bool)> {
        let (c, _) = if_or_nothing(r)?;
        let first = match c {
            Expr::Binary(Op::And, x, _) => &**x,
            c => c,
        };
        let (test, empty) = match first {
            Expr::Unary(Op::Not, x) => (&**x, false),
            x => (x, true),
        };
        match test {
            Expr::Builtin(Builtin::Empty, n) if n.len() == 1 => match n[0] {
                Expr::Str(s) => {
                    known(self.sym_loc, s).map(|l| (l as crate::model::LocationId, empty))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// [`ConditionPart`] of a residual of a part of a hoisted condition: a
    /// literal is known, anything else runs over registers where `pure.rs`
    /// can take it as a Bool (and is not used otherwise).
    pub(crate) fn code_check(&self, residual: Option<Expr>) -> ConditionPart {
        match residual {
            None => ConditionPart::None,
            Some(Expr::Bool(b)) => ConditionPart::Const(b),
            Some(r) => {
                if let Some(t) = self.position_test(&r) {
                    return t;
                }
                self.top.set(true);
                match crate::pure::compile_residual(self, &r) {
                    Some(crate::pure::Code::Bool(p)) => {
                        // After the closures: they hand out the calls' slots.
                        let pre = self.pretest(&r);
                        if pre.tells() {
                            ConditionPart::Tested {
                                pre: Arc::new(pre),
                                regs: Arc::new(p),
                            }
                        } else {
                            ConditionPart::Regs(Arc::new(p))
                        }
                    }
                    _ => ConditionPart::None,
                }
            }
        }
    }

    /// The [`PreTest`] of a residual.
    fn pretest(&self, r: &Expr) -> PreTest {
        if let Some(t) = self.position_test(r) {
            return PreTest::leaf(PreLeaf::of_part(t));
        }
        match r {
            Expr::Binary(op @ (Op::And | Op::Or), a, b) => {
                // Operands of nested operators of the same kind in one list.
                let mut xs = Vec::new();
                let mut todo = vec![&**b, &**a];
                while let Some(x) = todo.pop() {
                    match x {
                        Expr::Binary(o, p, q) if o == op => {
                            todo.push(q);
                            todo.push(p);
                        }
                        x => xs.push(self.pretest(x)),
                    }
                }
                PreTest::join(*op == Op::Or, xs)
            }
            Expr::Unary(Op::Not, x) => PreTest::Not(Box::new(self.pretest(x))),
            Expr::Bool(b) => PreTest::leaf(PreLeaf::Const(*b)),
            _ => PreTest::leaf(self.call_test(r).unwrap_or(PreLeaf::Unknown)),
        }
    }

    /// Whether slot `at` of [`Compiler::call_slots`] was handed out to a
    /// check that runs once a position ([`Compiler::once_slots`]).
    pub(crate) fn once_slot(&self, at: usize) -> bool {
        at < 64 && self.once_slots.get() >> at & 1 != 0
    }

    /// An end-of-game situation that compares a call with a slot with a
    /// literal ([`Compiler::call_test`]), as a [`crate::pure::KeptTest`].
    pub(crate) fn kept_test(&self, r: &Expr) -> Option<crate::pure::KeptTest> {
        let (call, _, _) = call_vs_literal(r)?;
        let PreLeaf::Call {
            slot,
            op,
            lit,
            reads,
        } = self.call_test(r)?
        else {
            return None;
        };
        let slot = usize::from(slot);
        Some(crate::pure::KeptTest::new(
            slot,
            reads,
            self.once_slot(slot),
            op,
            lit,
            crate::pure::kept_call_run(self, call, slot),
        ))
    }

    /// A comparison of a call with integer-literal arguments that has a slot
    /// (`pure::Inlined::cache`) with a literal, as a [`PreLeaf::Call`].
    fn call_test(&self, r: &Expr) -> Option<PreLeaf> {
        let (call, lit, op) = call_vs_literal(r)?;
        let Expr::Call(fid, args) = call else {
            return None;
        };
        let key = (
            *fid,
            crate::pure::Ty::Int as u8,
            crate::expr::int_literals(args)?,
        );
        let slot = self.call_slots.borrow().iter().position(|k| *k == key)?;
        let reads = self.call_slot_reads.borrow().get(slot).copied()?;
        Some(PreLeaf::Call {
            slot: slot as u16,
            op,
            lit,
            reads,
        })
    }

    /// A residual that is one test of the position read in place
    /// ([`ConditionPart::Attr`], [`ConditionPart::Empty`]): a closure call
    /// and the register file cost more than the test (`tictactoe-orig`'s
    /// `OWNER("p(3)") == $PP`, `connect4-orig`'s `NOT EMPTY("b(2,3)")`).
    pub(crate) fn position_test(&self, r: &Expr) -> Option<ConditionPart> {
        let named = |e: &Expr, table: &[u16]| match e {
            Expr::Str(s) => known(table, *s),
            _ => None,
        };
        match r {
            Expr::Builtin(Builtin::Empty, a) if a.len() == 1 => Some(ConditionPart::Empty {
                l: named(&a[0], self.sym_loc)?,
                empty: true,
            }),
            Expr::Unary(Op::Not, x) => match &**x {
                Expr::Builtin(Builtin::Empty, a) if a.len() == 1 => Some(ConditionPart::Empty {
                    l: named(&a[0], self.sym_loc)?,
                    empty: false,
                }),
                _ => None,
            },
            Expr::Binary(op @ (Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge), x, y) => {
                let (owner, a) = match &**x {
                    Expr::Builtin(Builtin::Owner, a) if a.len() == 1 => (true, a),
                    Expr::Builtin(Builtin::State, a) if a.len() == 1 => (false, a),
                    _ => return None,
                };
                let rhs = match &**y {
                    Expr::Int(i) => CheckRhs::Lit(*i),
                    Expr::Var(v) => CheckRhs::Var(*v),
                    _ => return None,
                };
                Some(ConditionPart::Attr {
                    e: named(&a[0], self.sym_elem)?,
                    owner,
                    op: *op,
                    rhs,
                })
            }
            _ => None,
        }
    }

    /// Compiles a user function's body.
    pub fn func(&self, fid: FuncId, func: &Function) -> CFunc {
        let (last, guards) = match func.body.split_last() {
            Some((last, guards)) => (Some(last), guards),
            None => (None, &[][..]),
        };
        CFunc {
            name: func.name.clone(),
            guards: guards
                .iter()
                .map(|l| {
                    self.top.set(true);
                    let g = match self.node(&l.expr) {
                        Node::Bool(b) => Guard::Bool(b),
                        n => Guard::Other(n),
                    };
                    (g, l.line)
                })
                .collect(),
            split: match last.map(|l| &l.expr) {
                Some(Expr::Binary(Op::And, a, b)) => Some((
                    self.bool(a, "the left side of AND"),
                    self.bool(b, "the right side of AND"),
                )),
                _ => None,
            },
            last: last.map(|l| {
                self.top.set(true);
                (self.node(&l.expr), l.line)
            }),
            pure: crate::pure::body(self, fid),
        }
    }

    fn iop(&self, e: &Expr) -> IOp {
        match *e {
            Expr::Int(i) => IOp::Lit(i),
            Expr::Var(v) => IOp::Var(v),
            _ => match self.node(e) {
                Node::Int(i) => IOp::Int(i),
                n => IOp::Other(Opnd::Node(n)),
            },
        }
    }

    /// [`Compiler::iop`] of an expression already compiled to `n`.
    fn iop_of(e: &Expr, n: Node) -> IOp {
        match (e, n) {
            (&Expr::Int(i), _) => IOp::Lit(i),
            (&Expr::Var(v), _) => IOp::Var(v),
            (_, Node::Int(i)) => IOp::Int(i),
            (_, n) => IOp::Other(Opnd::Node(n)),
        }
    }

    fn arg(&self, e: &Expr) -> Arg {
        match *e {
            Expr::Var(v) => Arg::Var(v),
            Expr::Int(i) => Arg::Lit(i),
            _ => match self.node(e) {
                Node::Int(f) => Arg::Int(f),
                n => Arg::Other(Opnd::Node(n)),
            },
        }
    }

    fn opnd(&self, e: &Expr) -> Opnd {
        match e {
            Expr::Int(i) => Opnd::Const(Value::Int(*i)),
            Expr::Bool(b) => Opnd::Const(Value::Bool(*b)),
            Expr::Str(s) => Opnd::Const(Value::Str(Str::Sym(*s))),
            Expr::Var(v) => Opnd::Var(*v),
            _ => Opnd::Node(self.node(e)),
        }
    }

    /// The reference evaluator for one node (shapes the parser never produces).
    fn fallback(e: &Expr) -> Node {
        let e = e.clone();
        Node::Val(f(move |c| c.eval(&e)))
    }

    fn node(&self, e: &Expr) -> Node {
        self.node_sharing(e, false).0
    }

    /// [`Compiler::node`], with its Bool code over registers when `direct`
    /// ([`share_bool`]).
    fn node_sharing(&self, e: &Expr, direct: bool) -> (Node, Option<Arc<crate::pure::PBool>>) {
        let top = self.top.replace(false);
        match crate::pure::compile(self, e, top) {
            Some(p) => {
                let (p, bool_code) = share_bool(p, direct);
                (self.pure_node(p, e), bool_code)
            }
            None => (self.node_slow(e), None),
        }
    }

    /// A pure expression (`pure.rs`): its tree evaluated over registers, and
    /// when that gives up, its closures ([`Compiler::node_slow`]) with the
    /// budget steps the tree took put back.
    fn pure_node(&self, p: crate::pure::Code, e: &Expr) -> Node {
        use crate::pure::Code;
        // Runs the register closures; when they give up, puts back the
        // budget steps (and, in a game with memoized functions, the
        // position reads recorded) and runs `$slow`.
        macro_rules! pure {
            ($p:ident, $slow:ident, $rec:expr) => {
                f(move |c| {
                    let steps = c.vars.steps_left();
                    let reads = if $rec { c.vars.memo.buf.len() } else { 0 };
                    match $p(c, &mut [0; crate::pure::REGS]) {
                        Some(x) => Ok(x),
                        None => {
                            c.vars.set_steps_left(steps);
                            if $rec {
                                c.vars.memo.buf.truncate(reads);
                            }
                            $slow(c)
                        }
                    }
                })
            };
        }
        // Runs the register closures only when the table of memoized
        // function `$fid` is off (`memo_on` would give `None`: its
        // closures run it plainly), `$slow` otherwise (also when the
        // scratch's tables are not yet this game's: the closures set
        // them up).
        macro_rules! off {
            ($fid:expr, $p:ident, $slow:ident, $rec:expr) => {
                f(move |c| {
                    let g = c.g;
                    if !c.vars.memo.runs_plainly(g.id, g.memo_info.len(), $fid) {
                        return $slow(c);
                    }
                    let steps = c.vars.steps_left();
                    let reads = if $rec { c.vars.memo.buf.len() } else { 0 };
                    match $p(c, &mut [0; crate::pure::REGS]) {
                        Some(x) => Ok(x),
                        None => {
                            c.vars.set_steps_left(steps);
                            if $rec {
                                c.vars.memo.buf.truncate(reads);
                            }
                            $slow(c)
                        }
                    }
                })
            };
        }
        match (p, self.node_slow(e)) {
            (Code::OffInt(fid, p), slow) => {
                let slow: CInt = match slow {
                    Node::Int(g) => g,
                    n => f(move |c| match n.value(c)? {
                        Value::Int(i) => Ok(i),
                        other => Err(EvalError::new(format!(
                            "internal: a pure Int expression gave {}",
                            other.kind()
                        ))),
                    }),
                };
                Node::Int(rec!(self, off!(fid, p, slow, REC)))
            }
            (Code::OffBool(fid, p), slow) => {
                let slow: CBool = match slow {
                    Node::Bool(g) => g,
                    n => f(move |c| match n.value(c)? {
                        Value::Bool(b) => Ok(b),
                        other => Err(EvalError::new(format!(
                            "internal: a pure Bool expression gave {}",
                            other.kind()
                        ))),
                    }),
                };
                Node::Bool(rec!(self, off!(fid, p, slow, REC)))
            }
            (Code::Int(p), slow) => {
                let slow: CInt = match slow {
                    Node::Int(g) => g,
                    n => f(move |c| match n.value(c)? {
                        Value::Int(i) => Ok(i),
                        other => Err(EvalError::new(format!(
                            "internal: a pure Int expression gave {}",
                            other.kind()
                        ))),
                    }),
                };
                Node::Int(rec!(self, pure!(p, slow, REC)))
            }
            (Code::Bool(p), slow) => {
                let slow: CBool = match slow {
                    Node::Bool(g) => g,
                    n => f(move |c| match n.value(c)? {
                        Value::Bool(b) => Ok(b),
                        other => Err(EvalError::new(format!(
                            "internal: a pure Bool expression gave {}",
                            other.kind()
                        ))),
                    }),
                };
                Node::Bool(rec!(self, pure!(p, slow, REC)))
            }
            (Code::Loc(p), slow) => {
                // The location's name, as the closures give it.
                let p = move |c: &mut Ctx<'_>, r: &mut crate::pure::Regs| {
                    let l = p(c, r)?;
                    let s = c.g.loc_sym.get(usize::try_from(l).ok()?)?;
                    Some(Value::Str(Str::Sym(*s)))
                };
                let slow: CVal = f(move |c| slow.value(c));
                Node::Val(rec!(self, pure!(p, slow, REC)))
            }
            (Code::Set(p), slow) => {
                // `{}` (one empty set shared, as a literal's), or the set of
                // one location built at load (`Game::loc_singletons`), as the
                // closures give it.
                let empty: Arc<Vec<Value>> = Arc::new(Vec::new());
                let p = move |c: &mut Ctx<'_>, r: &mut crate::pure::Regs| {
                    let l = p(c, r)?;
                    if l == crate::pure::NO_SET {
                        return Some(Value::Set(empty.clone()));
                    }
                    let set = c.g.loc_singletons.get(usize::try_from(l).ok()?)?;
                    Some(Value::Set(set.clone()))
                };
                let slow: CVal = f(move |c| slow.value(c));
                Node::Val(rec!(self, pure!(p, slow, REC)))
            }
        }
    }

    /// `$v = a + b` or `$v = a - b` with `a` and `b` variables or integer
    /// literals, not both literals (`reversi6`'s `$cx = $cx + $dx`): one
    /// closure that reads both Ints in place, adds or subtracts, and
    /// assigns, where the assignment's closure called the operator's. Any
    /// other case (an operand unbound or no Int, an overflow) runs the two
    /// closures it replaces, which give the error. For other shapes, `x`
    /// compiled as an operand (`Compiler::opnd`, once either way).
    fn assign_sum(&self, v: VarId, x: &Expr) -> Result<Node, Opnd> {
        // A variable (`Ok`) or a literal (`Err`).
        let leaf = |e: &Expr| match *e {
            Expr::Var(w) => Some(Ok(w)),
            Expr::Int(i) => Some(Err(i)),
            _ => None,
        };
        let shape = match x {
            Expr::Binary(op @ (Op::Add | Op::Sub), a, b) => match (leaf(a), leaf(b)) {
                (Some(Err(_)), Some(Err(_))) => None,
                (Some(la), Some(lb)) => Some((*op == Op::Add, la, lb)),
                _ => None,
            },
            _ => None,
        };
        let (add, la, lb, g) = match (shape, self.opnd(x)) {
            (Some((add, la, lb)), Opnd::Node(Node::Int(g))) => (add, la, lb, g),
            (_, opnd) => return Err(opnd),
        };
        #[cfg(test)]
        ASSIGN_SUMS_BUILT.with(|n| n.set(n.get() + 1));
        #[inline(always)]
        fn int_of(c: &Ctx<'_>, l: Result<VarId, i32>) -> Option<i32> {
            match l {
                Ok(w) => match c.vars.get(w) {
                    Some(&Value::Int(p)) => Some(p),
                    _ => None,
                },
                Err(i) => Some(i),
            }
        }
        Ok(Node::Bool(f(move |c| {
            let sum = match (int_of(c, la), int_of(c, lb)) {
                (Some(p), Some(q)) if add => p.checked_add(q),
                (Some(p), Some(q)) => p.checked_sub(q),
                _ => None,
            };
            let i = match sum {
                Some(i) => i,
                None => g(c)?,
            };
            c.vars.set_int(v, i);
            Ok(true)
        })))
    }

    /// [`Compiler::node`] without trying the pure form at the root.
    fn node_slow(&self, e: &Expr) -> Node {
        match e {
            &Expr::Int(i) => Node::Int(f(move |_| Ok(i))),
            &Expr::Bool(b) => Node::Bool(f(move |_| Ok(b))),
            &Expr::Str(s) => Node::Sym(f(move |_| Ok(s))),
            &Expr::Interp(t) => Node::Val(f(move |c| match c.template(t)? {
                Some(s) => Ok(Value::Str(Str::Sym(s))),
                None => c.interp_dyn(t),
            })),
            &Expr::Var(v) => Node::Val(f(move |c| Ok(c.var(v)?.clone()))),
            Expr::Set(items) => {
                let xs: Vec<Opnd> = items.iter().map(|x| self.opnd(x)).collect();
                let consts: Vec<Value> = xs
                    .iter()
                    .filter_map(|x| match x {
                        Opnd::Const(v) => Some(v.clone()),
                        _ => None,
                    })
                    .collect();
                if consts.len() == xs.len() {
                    // Members that are all literals: one set built at load,
                    // shared by every evaluation (values are immutable; the
                    // in-place `UNION` only changes a set nothing else holds).
                    let set = Arc::new(consts);
                    return Node::Val(f(move |_| Ok(Value::Set(set.clone()))));
                }
                if xs.len() == 1 {
                    // One member (`{"pad($h1)"}`, `{FreeBin}`): when it is a
                    // location name, the set `{name}` built at load for that
                    // location (`Game::loc_singletons`), shared instead of
                    // allocated; equal to a fresh one, and the in-place
                    // `UNION` never changes a shared set. Otherwise a new set.
                    let mut xs = xs;
                    let x = xs.swap_remove(0);
                    return Node::Val(f(move |c| {
                        let m = x.get(c)?;
                        if let Value::Str(Str::Sym(s)) = m {
                            if let Some(l) = c.g.sym_location(s) {
                                if let Some(set) = c.g.loc_singletons.get(l as usize) {
                                    return Ok(Value::Set(set.clone()));
                                }
                            }
                        }
                        Ok(Value::Set(Arc::new(vec![m])))
                    }));
                }
                Node::Val(f(move |c| {
                    let mut out = Vec::with_capacity(xs.len());
                    for x in &xs {
                        out.push(x.get(c)?);
                    }
                    Ok(Value::Set(Arc::new(out)))
                }))
            }
            Expr::Lazy(items) => {
                let xs: Vec<LazyC> = items
                    .iter()
                    .map(|it| match it {
                        LazyItem::Defer(fid, args) => {
                            LazyC::Defer(*fid, args.iter().map(|a| self.opnd(a)).collect())
                        }
                        LazyItem::Now(x) => LazyC::Now(self.opnd(x)),
                    })
                    .collect();
                Node::Val(f(move |c| {
                    let mut out = Vec::with_capacity(xs.len());
                    for it in &xs {
                        out.push(match it {
                            LazyC::Defer(fid, args) => {
                                let mut vals = Vec::with_capacity(args.len());
                                for a in args {
                                    vals.push(a.get(c)?);
                                }
                                LazyMember::Deferred(Arc::new(Deferred {
                                    func: *fid,
                                    args: vals,
                                }))
                            }
                            LazyC::Now(x) => LazyMember::Value(x.get(c)?),
                        });
                    }
                    Ok(Value::Lazy(Arc::new(out)))
                }))
            }
            Expr::Call(fid, args) => self.call(*fid, args),
            Expr::Loop {
                all,
                var,
                from,
                to,
                body,
            } => Node::Bool(self.run_loop(*all, *var, from, to, body)),
            Expr::Unary(Op::Not, x) => {
                let x = self.bool(x, "the operand of NOT");
                Node::Bool(f(move |c| Ok(!x(c)?)))
            }
            Expr::Unary(Op::Abs, x) => {
                let x = self.int(x, "the operand of ABS");
                Node::Int(f(move |c| {
                    let i = x(c)?;
                    i.checked_abs().ok_or_else(|| overflow(format!("ABS {i}")))
                }))
            }
            Expr::Unary(_, x) => {
                let x = self.int(x, "the operand of unary -");
                Node::Int(f(move |c| {
                    let i = x(c)?;
                    i.checked_neg().ok_or_else(|| overflow(format!("-({i})")))
                }))
            }
            Expr::Assign(v, x) => {
                let v = *v;
                if let Expr::Binary(Op::Union, l, r) = &**x {
                    if let (&Expr::Var(w), Expr::Set(items)) = (&**l, &**r) {
                        if w == v {
                            return Node::Bool(self.union_into(v, items));
                        }
                    }
                }
                // `$v = $a + $b` (or `-`, over variables and literals) in one
                // closure when both are Ints and the result fits; otherwise
                // (an error to give) through the closures below.
                let x_opnd = match self.assign_sum(v, x) {
                    Ok(n) => return n,
                    Err(o) => o,
                };
                // The usual shapes get closures of their own ([`Opnd::set`]'s cases).
                match x_opnd {
                    Opnd::Node(Node::Int(g)) => Node::Bool(f(move |c| {
                        let i = g(c)?;
                        c.vars.set_int(v, i);
                        Ok(true)
                    })),
                    Opnd::Const(Value::Int(i)) => Node::Bool(f(move |c| {
                        c.vars.set_int(v, i);
                        Ok(true)
                    })),
                    x => Node::Bool(f(move |c| {
                        x.set(c, v)?;
                        Ok(true)
                    })),
                }
            }
            Expr::Binary(op, a, b) => self.binary(*op, a, b, e),
            Expr::Builtin(b, args) => self.builtin(*b, args, e),
        }
    }

    /// A Bool operand: `what` names it in the error when it is something else.
    fn bool(&self, e: &Expr, what: &'static str) -> CBool {
        match e {
            &Expr::Var(v) => {
                return f(move |c| match c.var(v)? {
                    Value::Bool(b) => Ok(*b),
                    other => Err(not_a(c, what, "Bool", other)),
                })
            }
            // The chosen branch's value is checked as the IF's would be.
            Expr::Builtin(Builtin::If, a) => {
                let cond = self.bool(&a[0], "the condition of IF");
                let then = self.bool(&a[1], what);
                let els = a.get(2).map(|x| self.bool(x, what));
                return f(move |c| {
                    if cond(c)? {
                        then(c)
                    } else {
                        match &els {
                            Some(e) => e(c),
                            None => Err(no_else()),
                        }
                    }
                });
            }
            _ => {}
        }
        match self.node(e) {
            Node::Bool(b) => b,
            Node::Val(v) => f(move |c| match v(c)? {
                Value::Bool(b) => Ok(b),
                other => Err(not_a(c, what, "Bool", &other)),
            }),
            n => f(move |c| {
                let v = n.value(c)?;
                Err(not_a(c, what, "Bool", &v))
            }),
        }
    }

    /// An Int operand: `what` names it in the error when it is something else.
    fn int(&self, e: &Expr, what: &'static str) -> CInt {
        match e {
            &Expr::Var(v) => {
                return f(move |c| match c.var(v)? {
                    Value::Int(i) => Ok(*i),
                    other => Err(not_a(c, what, "Int", other)),
                })
            }
            Expr::Builtin(Builtin::If, a) => {
                let cond = self.bool(&a[0], "the condition of IF");
                let then = self.int(&a[1], what);
                let els = a.get(2).map(|x| self.int(x, what));
                return f(move |c| {
                    if cond(c)? {
                        then(c)
                    } else {
                        match &els {
                            Some(e) => e(c),
                            None => Err(no_else()),
                        }
                    }
                });
            }
            _ => {}
        }
        match self.node(e) {
            Node::Int(i) => i,
            Node::Val(v) => f(move |c| match v(c)? {
                Value::Int(i) => Ok(i),
                other => Err(not_a(c, what, "Int", &other)),
            }),
            n => f(move |c| {
                let v = n.value(c)?;
                Err(not_a(c, what, "Int", &v))
            }),
        }
    }

    /// A string argument as given (`ZINDEX`, `MOVE`, `SETSTATE`, `INDEX`…).
    fn str_arg(&self, e: &Expr, what: &'static str) -> F<Str> {
        match self.node(e) {
            Node::Sym(s) => f(move |c| Ok(Str::Sym(s(c)?))),
            Node::Val(v) => f(move |c| match v(c)? {
                Value::Str(s) => Ok(s),
                other => Err(not_a(c, what, "Str", &other)),
            }),
            n => f(move |c| {
                let v = n.value(c)?;
                Err(not_a(c, what, "Str", &v))
            }),
        }
    }

    /// A string argument resolved against the game's names.
    fn name(&self, e: &Expr, what: &'static str) -> F<Name> {
        if let &Expr::Interp(t) = e {
            return f(move |c| {
                Ok(match c.template(t)? {
                    Some(s) => Name::Known(s),
                    None => Name::Unknown,
                })
            });
        }
        if let &Expr::Var(v) = e {
            return f(move |c| match c.var(v)? {
                Value::Str(Str::Sym(s)) => Ok(Name::Known(*s)),
                Value::Str(Str::Dyn(_)) => Ok(Name::Unknown),
                other => Err(not_a(c, what, "Str", other)),
            });
        }
        match self.node(e) {
            Node::Sym(s) => f(move |c| Ok(Name::Known(s(c)?))),
            Node::Val(v) => f(move |c| match v(c)? {
                Value::Str(Str::Sym(s)) => Ok(Name::Known(s)),
                Value::Str(Str::Dyn(_)) => Ok(Name::Unknown),
                other => Err(not_a(c, what, "Str", &other)),
            }),
            n => f(move |c| {
                let v = n.value(c)?;
                Err(not_a(c, what, "Str", &v))
            }),
        }
    }

    /// An interpolated location (`locations`) or element name with one or two
    /// variables and a dense table: the id straight from a precomputed table
    /// (the same answers as `Ctx::template` followed by the symbol's id).
    fn id_template(&self, t: u32, locations: bool) -> Option<IdArg> {
        let tpl = self.templates.get(t as usize)?;
        let d = tpl.dense.as_ref()?;
        let by_sym = if locations {
            self.sym_loc
        } else {
            self.sym_elem
        };
        let ids: Box<[u16]> = d
            .table
            .iter()
            .map(|&s| {
                if s == Sym::MAX {
                    ASK
                } else {
                    known(by_sym, s).unwrap_or(NONE)
                }
            })
            .collect();
        let mut tab = IdTable {
            t,
            locations,
            mins: [0; 2],
            dims: [0; 2],
            ids,
            exhaustive: tpl.exhaustive,
            negatives_unknown: tpl.negatives_unknown,
        };
        match (tpl.vars.as_slice(), d.mins.as_slice(), d.dims.as_slice()) {
            (&[v], &[m], &[n]) => {
                (tab.mins[0], tab.dims[0]) = (m, n);
                Some(IdArg::One(v, tab))
            }
            (&[v, w], &[m0, m1], &[n0, n1]) => {
                tab.mins = [m0, m1];
                tab.dims = [n0, n1];
                Some(IdArg::Two(v, w, tab))
            }
            _ => None,
        }
    }

    /// A location argument in the shapes resolved in place (a literal
    /// name, a template over one or two Int variables; never
    /// [`IdArg::Other`]), or `None` for any other shape. `pure.rs` reads
    /// these too.
    pub(crate) fn loc_in_place(&self, e: &Expr) -> Option<IdArg> {
        match *e {
            Expr::Str(s) => Some(IdArg::Const(known(self.sym_loc, s))),
            Expr::Interp(t) => self.id_template(t, true),
            _ => None,
        }
    }

    /// [`Compiler::loc_in_place`] of an element name (its id table over
    /// the elements).
    pub(crate) fn elem_in_place(&self, e: &Expr) -> Option<IdArg> {
        match *e {
            Expr::Str(s) => Some(IdArg::Const(known(self.sym_elem, s))),
            Expr::Interp(t) => self.id_template(t, false),
            _ => None,
        }
    }

    /// The element named by symbol `s`.
    pub(crate) fn elem_id(&self, s: Sym) -> Option<u16> {
        known(self.sym_elem, s)
    }

    /// A location argument: its id, or `None` for a name that is no location.
    fn loc(&self, e: &Expr, what: &'static str) -> IdArg {
        if let Some(a) = self.loc_in_place(e) {
            return a;
        }
        match *e {
            Expr::Interp(t) => IdArg::Other(f(move |c| {
                Ok(match c.template(t)? {
                    Some(s) => c.g.sym_location(s),
                    None => None,
                })
            })),
            _ => {
                let n = self.name(e, what);
                IdArg::Other(f(move |c| {
                    Ok(match n(c)? {
                        Name::Known(s) => c.g.sym_location(s),
                        Name::Unknown => None,
                    })
                }))
            }
        }
    }

    /// An element argument: its id, or `None` for a name that is no element.
    fn elem(&self, e: &Expr, what: &'static str) -> IdArg {
        match e {
            // `ELTYPE(CONTENT(..))` and friends: the occupant itself (as `eval.rs`).
            Expr::Builtin(Builtin::Content, a) => {
                let l = self.loc(&a[0], "the argument of CONTENT");
                IdArg::Other(rec!(
                    self,
                    f(move |c| {
                        let g = c.g;
                        Ok(match l.get(c)? {
                            Some(l) => match c.rd_content::<REC>(l) {
                                Some(occupant) => Some(occupant),
                                None => g.sym_element(g.empty_sym),
                            },
                            None => g.sym_element(g.empty_sym),
                        })
                    })
                ))
            }
            &Expr::Str(s) => IdArg::Const(known(self.sym_elem, s)),
            &Expr::Interp(t) => self.id_template(t, false).unwrap_or_else(|| {
                IdArg::Other(f(move |c| {
                    Ok(match c.template(t)? {
                        Some(s) => c.g.sym_element(s),
                        None => None,
                    })
                }))
            }),
            _ => {
                let n = self.name(e, what);
                IdArg::Other(f(move |c| {
                    Ok(match n(c)? {
                        Name::Known(s) => c.g.sym_element(s),
                        Name::Unknown => None,
                    })
                }))
            }
        }
    }

    /// The lines of function `func` when every one is an effect whose
    /// closure [`run_effects`] can stand for: `SETSTATE`/`SETOWNER`/
    /// `SETZINDEX` of an element named by a literal, and `NEXTPLAYER`
    /// (`nim-orig`'s `Took`, `EndTurn`). A call of it then runs them in one
    /// closure (the lines' closures were three calls a followup).
    fn effect_lines(&self, func: &Function) -> Option<Box<[(Effect, u32)]>> {
        if func.body.is_empty() {
            return None;
        }
        func.body
            .iter()
            .map(|l| {
                let effect = match &l.expr {
                    Expr::Builtin(
                        b @ (Builtin::SetState | Builtin::SetOwner | Builtin::SetZIndex),
                        a,
                    ) if a.len() == 2 => {
                        let Expr::Str(name) = a[0] else {
                            return None;
                        };
                        let e = known(self.sym_elem, name)?;
                        let which = match b {
                            Builtin::SetState => Attr::State,
                            Builtin::SetOwner => Attr::Owner,
                            _ => Attr::ZIndex,
                        };
                        Effect::Set {
                            b: *b,
                            which,
                            e,
                            name,
                            v: self.int(&a[1], "the value argument"),
                            quick: QuickInt::of(&a[1]),
                        }
                    }
                    Expr::Builtin(Builtin::NextPlayer, a) if a.is_empty() => Effect::NextPlayer,
                    _ => return None,
                };
                Some((effect, l.line))
            })
            .collect()
    }

    fn call(&self, fid: FuncId, args: &[Expr]) -> Node {
        let argc = args.len();
        Node::Val(
            match self.funcs.get(fid as usize).and_then(Option::as_ref) {
                None => {
                    let name = self
                        .func_names
                        .get(fid as usize)
                        .cloned()
                        .unwrap_or_default();
                    f(move |_| Err(EvalError::new(format!("unknown function {name}"))))
                }
                Some(func) if func.params.len() != argc => {
                    let (name, n) = (func.name.clone(), func.params.len());
                    f(move |_| {
                        Err(EvalError::new(format!(
                            "function {name} takes {n} argument(s), called with {argc}"
                        )))
                    })
                }
                Some(func) => {
                    let params = func.params.clone();
                    // A function with a body over registers: tried first.
                    let reg = self.pure_bodies.get(fid as usize) == Some(&true);
                    if self.memo_funcs.get(fid as usize) == Some(&true) {
                        let is_bool = self.bool_funcs.get(fid as usize) == Some(&true);
                        if let Some(keys) = self.key_args(&params, args) {
                            let params: Box<[VarId]> = params.into();
                            return if reg {
                                memo_keyed_node::<true>(fid, params, keys, is_bool)
                            } else {
                                memo_keyed_node::<false>(fid, params, keys, is_bool)
                            };
                        }
                        let args: Box<[(VarId, Arg)]> = params
                            .iter()
                            .zip(args.iter())
                            .map(|(&p, a)| (p, self.arg(a)))
                            .collect();
                        return if reg {
                            memo_node::<true>(fid, args, is_bool)
                        } else {
                            memo_node::<false>(fid, args, is_bool)
                        };
                    }
                    // Each parameter with its argument: one slice to walk.
                    let args: Box<[(VarId, Arg)]> = params
                        .iter()
                        .zip(args.iter())
                        .map(|(&p, a)| (p, self.arg(a)))
                        .collect();
                    if self.bool_funcs.get(fid as usize) == Some(&true) {
                        if reg {
                            return Node::Bool(f(move |c| {
                                for (p, a) in args.iter() {
                                    a.set(c, *p)?;
                                }
                                match run_func_reg(c, fid)? {
                                    Value::Bool(b) => Ok(b),
                                    other => Err(EvalError::new(format!(
                                        "internal: a Bool function gave {}",
                                        other.kind()
                                    ))),
                                }
                            }));
                        }
                        if let Some(lines) = self.effect_lines(func) {
                            // What `run_func_bool` does: the function is
                            // defined and its body not empty.
                            let name = func.name.clone();
                            #[cfg(test)]
                            EFFECT_CALLS_BUILT.with(|n| n.set(n.get() + 1));
                            return Node::Bool(f(move |c| {
                                for (p, a) in args.iter() {
                                    a.set(c, *p)?;
                                }
                                c.enter_call(&name)?;
                                let done = run_effects(c, &lines, &name);
                                c.depth -= 1;
                                done
                            }));
                        }
                        return Node::Bool(f(move |c| {
                            for (p, a) in args.iter() {
                                a.set(c, *p)?;
                            }
                            run_func_bool(c, fid)
                        }));
                    }
                    if reg {
                        return Node::Val(f(move |c| {
                            for (p, a) in args.iter() {
                                a.set(c, *p)?;
                            }
                            run_func_reg(c, fid)
                        }));
                    }
                    f(move |c| {
                        // Sequential binding: a later argument sees earlier parameters (§5.9).
                        for (p, a) in args.iter() {
                            a.set(c, *p)?;
                        }
                        run_func(c, fid, false)
                    })
                }
            },
        )
    }

    /// The arguments of a call of a memoized function as [`KeyArg`]s, when a
    /// hit need not bind the parameters: every parameter is dead
    /// (`memo::dead_vars`: nothing reads what a call leaves in it), and every
    /// argument is a literal or a variable that is none of the parameters (so
    /// binding them one after the other gives the values read before).
    fn key_args(&self, params: &[VarId], args: &[Expr]) -> Option<Box<[KeyArg]>> {
        if !params
            .iter()
            .all(|&p| self.dead.get(p as usize).copied().unwrap_or(false))
        {
            return None;
        }
        args.iter()
            .map(|a| match *a {
                Expr::Var(v) if !params.contains(&v) => Some(KeyArg::Var(v)),
                Expr::Int(i) => Some(KeyArg::Lit(
                    crate::memo::key_of(&Value::Int(i))?,
                    Value::Int(i),
                )),
                Expr::Bool(b) => Some(KeyArg::Lit(
                    crate::memo::key_of(&Value::Bool(b))?,
                    Value::Bool(b),
                )),
                Expr::Str(t) => {
                    let v = Value::Str(Str::Sym(t));
                    Some(KeyArg::Lit(crate::memo::key_of(&v)?, v))
                }
                _ => None,
            })
            .collect()
    }

    /// `$V = $V UNION {a, b, ...}`: the members `a, b, ...` first, then those
    /// of `$V` that are none of them (`Ctx::binary_values`), computed in place
    /// when `$V` holds the only reference to its set (no other value can
    /// observe the change, and the old set is dropped by the assignment
    /// anyway); otherwise, or when an operand is no Set, as the general
    /// `UNION` and assignment. The operands are evaluated in the same order
    /// (`$V` read first, its "not bound" error before the members run).
    fn union_into(&self, v: VarId, items: &[Expr]) -> CBool {
        let xs: Vec<Opnd> = items.iter().map(|x| self.opnd(x)).collect();
        f(move |c| {
            let old = match c.vars.get(v) {
                Some(x) => x.clone(),
                None => return Err(unbound(c, v)),
            };
            let mut new: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::new();
            for x in &xs {
                new.push(x.get(c)?);
            }
            // In place only when the slot still holds the set read above
            // (the members' evaluation may have assigned `$V`) and nothing
            // but the slot and `old` refers to it.
            if let (Value::Set(o), Some(Value::Set(slot))) = (&old, c.vars.get_mut(v)) {
                if Arc::ptr_eq(o, slot) {
                    drop(old);
                    if let Some(vec) = Arc::get_mut(slot) {
                        vec.retain(|m| !new.iter().any(|n| n == m));
                        if new.len() == 1 {
                            // One member (`$RET = $RET UNION {"b($TX,$TY)"}`):
                            // an insert, without the splice's machinery.
                            vec.insert(0, new.into_iter().next().expect("one member"));
                        } else {
                            vec.splice(0..0, new);
                        }
                        return Ok(true);
                    }
                    if slot.is_empty() {
                        // A shared empty set (a literal `{}`): the union is
                        // the new members, in their order, as `Op::Union`
                        // gives it.
                        *slot = Arc::new(new.into_vec());
                        return Ok(true);
                    }
                    let l = c.vars.get(v).cloned().expect("bound above");
                    let r = Value::Set(Arc::new(new.into_vec()));
                    let u = c.binary_values(Op::Union, l, r)?;
                    c.vars.set(v, u);
                    return Ok(true);
                }
            }
            let r = Value::Set(Arc::new(new.into_vec()));
            let u = c.binary_values(Op::Union, old, r)?;
            c.vars.set(v, u);
            Ok(true)
        })
    }

    fn run_loop(&self, all: bool, var: VarId, from: &Expr, to: &Expr, body: &Expr) -> CBool {
        let from = self.int(from, "a loop's start");
        let to = self.int(to, "a loop's end");
        let what = if all {
            "a FORALL body"
        } else {
            "a FORSOME body"
        };
        let at = body as *const Expr as usize;
        let unit = self.units.iter().find(|u| u.0 == at).map(|u| u.1);
        if unit.is_none() {
            if let Some((cond, when, then, n, k)) = counting_body(body) {
                return self.counting_loop(all, var, from, to, (cond, when), then, n, k, what);
            }
            if let Some((n, x)) = summing_body(body) {
                return self.summing_loop(all, var, (from, to), body, n, x, what);
            }
        }
        let body = self.bool(body, what);
        let body = match unit {
            Some(u) => f(move |c| run_unit(c, u, &body)),
            None => body,
        };
        f(move |c| {
            let (a, b) = (from(c)?, to(c)?);
            over_range(c, var, a, b, all, |c| {
                let r = body(c)?;
                // FORALL stops at the first false body, FORSOME at the first true one.
                Ok((all != r).then_some(r))
            })
        })
    }

    /// A loop whose body counts, `IF(c, $n = $n + k, true)` or
    /// `IF(c, true, $n = $n + k)` ([`counting_body`]):
    /// the same steps as [`Compiler::run_loop`]'s closures (the budget step,
    /// the loop variable, the condition through its closure), but when the
    /// condition holds and `$n` holds an Int that `+ k` does not overflow,
    /// `$n` is incremented in place, without the `IF`, the assignment and the
    /// `+` closures (when the condition is false, for the second form). In every other case (`$n` unbound, not an Int, an
    /// overflow) the assignment's own closure runs and gives the value or
    /// the error the body's closures give. The body's value is `true`
    /// whenever it has one, so `FORALL` runs every iteration and `FORSOME`
    /// ends after the first, as the general loop does.
    #[allow(clippy::too_many_arguments)]
    fn counting_loop(
        &self,
        all: bool,
        var: VarId,
        from: CInt,
        to: CInt,
        (cond, when): (&Expr, bool),
        then: &Expr,
        n: VarId,
        k: i32,
        what: &'static str,
    ) -> CBool {
        let cond = self.bool(cond, "the condition of IF");
        let then = self.bool(then, what);
        f(move |c| {
            let (a, b) = (from(c)?, to(c)?);
            over_range(c, var, a, b, true, |c| {
                if cond(c)? == when {
                    match c.vars.get_mut(n) {
                        Some(Value::Int(x)) if x.checked_add(k).is_some() => *x += k,
                        _ => {
                            then(c)?;
                        }
                    }
                }
                // The body gave `true`: FORSOME stops, FORALL goes on to the end.
                Ok((!all).then_some(true))
            })
        })
    }

    /// A loop whose body sums, `($n = $n + x) OR true` ([`summing_body`];
    /// `nim-orig`'s `Total`): the same steps as [`Compiler::run_loop`]'s
    /// closures (the budget step and the loop variable per iteration), but when
    /// `$n` holds an Int, `x` runs through its closure and the sum is written to
    /// `$n` in place, without the `OR`, assignment and `+` closures; an `x` that
    /// is no Int and an overflow give the `+` closure's errors
    /// ([`int_bin_slow`]: `$n` read before `x` runs, then `x`, then the sum).
    /// When `$n` is unbound or holds no Int, the body's own closure runs (and
    /// gives the error the closures give). The body's value is `true` whenever
    /// it has one, so `FORALL` runs every iteration and `FORSOME` ends after the
    /// first, as the general loop does.
    #[allow(clippy::too_many_arguments)]
    fn summing_loop(
        &self,
        all: bool,
        var: VarId,
        (from, to): (CInt, CInt),
        body: &Expr,
        n: VarId,
        x: &Expr,
        what: &'static str,
    ) -> CBool {
        let x = self.iop(x);
        let body = self.bool(body, what);
        f(move |c| {
            let (a, b) = (from(c)?, to(c)?);
            over_range(c, var, a, b, true, |c| {
                match c.vars.get(n) {
                    Some(&Value::Int(p)) => match x.get(c)? {
                        Ok(q) => match p.checked_add(q) {
                            Some(sum) => c.vars.set_int(n, sum),
                            None => return Err(overflow(format!("{p} + {q}"))),
                        },
                        Err(v) => return Err(c.ints_error(Op::Add, &Value::Int(p), &v)),
                    },
                    _ => {
                        body(c)?;
                    }
                }
                // The body gave `true`: FORSOME stops, FORALL goes on to the end.
                Ok((!all).then_some(true))
            })
        })
    }

    fn binary(&self, op: Op, a: &Expr, b: &Expr, whole: &Expr) -> Node {
        match op {
            Op::And => {
                let a = self.bool(a, "the left side of AND");
                let b = self.bool(b, "the right side of AND");
                Node::Bool(f(move |c| Ok(a(c)? && b(c)?)))
            }
            Op::Or => {
                let a = self.bool(a, "the left side of OR");
                let b = self.bool(b, "the right side of OR");
                Node::Bool(f(move |c| Ok(a(c)? || b(c)?)))
            }
            Op::Eq | Op::Ne => {
                let eq = op == Op::Eq;
                // A variable against a name literal (`$OC == ""`): no Value copy.
                if let (&Expr::Var(v), &Expr::Str(s)) | (&Expr::Str(s), &Expr::Var(v)) = (a, b) {
                    return Node::Bool(f(move |c| match c.vars.get(v) {
                        Some(Value::Str(Str::Sym(x))) => Ok((*x == s) == eq),
                        Some(_) => Ok(!eq),
                        None => Err(unbound(c, v)),
                    }));
                }
                // Each side compiled once (compiling twice would be exponential in the nesting).
                match (self.node(a), self.node(b), a, b) {
                    (Node::Sym(x), Node::Sym(y), ..) => {
                        Node::Bool(f(move |c| Ok((x(c)? == y(c)?) == eq)))
                    }
                    // `ELTYPE(CONTENT(..)) == $t`: the name against a variable, no Value copy.
                    (Node::Sym(x), _, _, &Expr::Var(v)) => Node::Bool(f(move |c| {
                        let s = x(c)?;
                        match c.vars.get(v) {
                            Some(Value::Str(Str::Sym(y))) => Ok((s == *y) == eq),
                            Some(_) => Ok(!eq),
                            None => Err(unbound(c, v)),
                        }
                    })),
                    (_, Node::Sym(y), &Expr::Var(v), _) => {
                        Node::Bool(f(move |c| {
                            // The variable is read first, as the evaluator does.
                            let l = match c.vars.get(v) {
                                Some(Value::Str(Str::Sym(s))) => Some(*s),
                                Some(_) => None,
                                None => return Err(unbound(c, v)),
                            };
                            let r = y(c)?;
                            Ok((l == Some(r)) == eq)
                        }))
                    }
                    (na, nb, ..) => match (Self::iop_of(a, na), Self::iop_of(b, nb)) {
                        // A variable against an Int node or a literal (`$Q == $P + 1`):
                        // the variable read first, as below, without the operand dispatch.
                        (IOp::Var(v), IOp::Int(b)) => Node::Bool(f(move |c| match c.vars.get(v) {
                            Some(&Value::Int(p)) => Ok((p == b(c)?) == eq),
                            Some(other) => {
                                let l = other.clone();
                                Ok((l == Value::Int(b(c)?)) == eq)
                            }
                            None => Err(unbound(c, v)),
                        })),
                        (IOp::Var(v), IOp::Lit(q)) | (IOp::Lit(q), IOp::Var(v)) => {
                            Node::Bool(f(move |c| match c.vars.get(v) {
                                Some(&Value::Int(p)) => Ok((p == q) == eq),
                                Some(_) => Ok(!eq),
                                None => Err(unbound(c, v)),
                            }))
                        }
                        (IOp::Var(v), IOp::Var(w)) => {
                            Node::Bool(f(move |c| match (c.vars.get(v), c.vars.get(w)) {
                                (Some(&Value::Int(p)), Some(&Value::Int(q))) => Ok((p == q) == eq),
                                (Some(x), Some(y)) => Ok((x == y) == eq),
                                (None, _) => Err(unbound(c, v)),
                                (_, None) => Err(unbound(c, w)),
                            }))
                        }
                        (IOp::Int(a), IOp::Int(b)) => Node::Bool(f(move |c| {
                            let p = a(c)?;
                            Ok((p == b(c)?) == eq)
                        })),
                        (IOp::Int(a), IOp::Lit(q)) | (IOp::Lit(q), IOp::Int(a)) => {
                            Node::Bool(f(move |c| Ok((a(c)? == q) == eq)))
                        }
                        (IOp::Int(a), IOp::Var(w)) => Node::Bool(f(move |c| {
                            let p = a(c)?;
                            match c.vars.get(w) {
                                Some(&Value::Int(q)) => Ok((p == q) == eq),
                                Some(_) => Ok(!eq),
                                None => Err(unbound(c, w)),
                            }
                        })),
                        (x, y) => Node::Bool(f(move |c| {
                            let l = x.get(c)?;
                            let r = y.get(c)?;
                            Ok(match (l, r) {
                                (Ok(p), Ok(q)) => p == q,
                                (l, r) => as_value_int(l) == as_value_int(r),
                            } == eq)
                        })),
                    },
                }
            }
            Op::Lt => Node::Bool(int_bin(self.iop(a), self.iop(b), op, |p, q| Ok(p < q))),
            Op::Le => Node::Bool(int_bin(self.iop(a), self.iop(b), op, |p, q| Ok(p <= q))),
            Op::Gt => Node::Bool(int_bin(self.iop(a), self.iop(b), op, |p, q| Ok(p > q))),
            Op::Ge => Node::Bool(int_bin(self.iop(a), self.iop(b), op, |p, q| Ok(p >= q))),
            Op::Add => Node::Int(int_bin(self.iop(a), self.iop(b), op, |p, q| {
                p.checked_add(q)
                    .ok_or_else(|| overflow(format!("{p} + {q}")))
            })),
            Op::Sub => Node::Int(int_bin(self.iop(a), self.iop(b), op, |p, q| {
                p.checked_sub(q)
                    .ok_or_else(|| overflow(format!("{p} - {q}")))
            })),
            Op::Mul => Node::Int(int_bin(self.iop(a), self.iop(b), op, |p, q| {
                p.checked_mul(q)
                    .ok_or_else(|| overflow(format!("{p} * {q}")))
            })),
            Op::Div => Node::Int(int_bin(self.iop(a), self.iop(b), op, |p, q| {
                if q == 0 {
                    return Err(EvalError::new("division by zero"));
                }
                p.checked_div(q)
                    .ok_or_else(|| overflow(format!("{p} / {q}")))
            })),
            Op::Rem => Node::Int(int_bin(self.iop(a), self.iop(b), op, |p, q| {
                if q == 0 {
                    return Err(EvalError::new("remainder by zero"));
                }
                // `MIN % -1` is 0, which fits (only the quotient overflows).
                Ok(p.wrapping_rem(q))
            })),
            Op::In => {
                let (x, y) = (self.opnd(a), self.opnd(b));
                Node::Bool(f(move |c| {
                    let l = x.get(c)?;
                    let r = y.get(c)?;
                    Ok(matches!(c.binary_values(op, l, r)?, Value::Bool(true)))
                }))
            }
            Op::Subset | Op::Union | Op::Intersect | Op::SetMinus => {
                let (x, y) = (self.opnd(a), self.opnd(b));
                Node::Val(f(move |c| {
                    let l = x.get(c)?;
                    let r = y.get(c)?;
                    c.binary_values(op, l, r)
                }))
            }
            Op::Assign | Op::Not | Op::Abs => Self::fallback(whole),
        }
    }

    fn builtin(&self, b: Builtin, a: &[Expr], whole: &Expr) -> Node {
        match b {
            Builtin::If => {
                let cond = self.bool(&a[0], "the condition of IF");
                let then = self.node(&a[1]);
                let els = a.get(2).map(|x| self.node(x));
                match (then, els) {
                    (Node::Int(t), Some(Node::Int(e))) => {
                        Node::Int(f(move |c| if cond(c)? { t(c) } else { e(c) }))
                    }
                    (Node::Bool(t), Some(Node::Bool(e))) => {
                        Node::Bool(f(move |c| if cond(c)? { t(c) } else { e(c) }))
                    }
                    (Node::Sym(t), Some(Node::Sym(e))) => {
                        Node::Sym(f(move |c| if cond(c)? { t(c) } else { e(c) }))
                    }
                    (t, e) => Node::Val(f(move |c| {
                        if cond(c)? {
                            t.value(c)
                        } else {
                            match &e {
                                Some(e) => e.value(c),
                                None => Err(no_else()),
                            }
                        }
                    })),
                }
            }
            Builtin::Content => {
                let l = self.loc(&a[0], "the argument of CONTENT");
                rec!(
                    self,
                    Node::Sym(f(move |c| {
                        let g = c.g;
                        Ok(match l.get(c)? {
                            Some(l) => match c.rd_content::<REC>(l) {
                                Some(e) => g.elem_sym[e as usize],
                                None => g.empty_sym,
                            },
                            None => g.empty_sym,
                        })
                    }))
                )
            }
            Builtin::Empty => {
                let l = self.loc(&a[0], "the argument of EMPTY");
                rec!(
                    self,
                    Node::Bool(f(move |c| {
                        Ok(match l.get(c)? {
                            Some(l) => c.rd_content::<REC>(l).is_none(),
                            None => true,
                        })
                    }))
                )
            }
            Builtin::ElType => {
                let e = self.elem(&a[0], "the argument of ELTYPE");
                Node::Sym(f(move |c| {
                    let g = c.g;
                    Ok(match e.get(c)? {
                        Some(e) => g.etype_sym[g.elements[e as usize].element_type],
                        None => g.empty_sym,
                    })
                }))
            }
            Builtin::State => {
                let e = self.elem(&a[0], "the argument of STATE");
                rec!(
                    self,
                    Node::Int(f(move |c| {
                        Ok(match e.get(c)? {
                            Some(e) => c.rd_state::<REC>(e),
                            None => -1,
                        })
                    }))
                )
            }
            Builtin::Owner => {
                let e = self.elem(&a[0], "the argument of OWNER");
                rec!(
                    self,
                    Node::Int(f(move |c| {
                        Ok(match e.get(c)? {
                            Some(e) => c.rd_owner::<REC>(e),
                            None => -1,
                        })
                    }))
                )
            }
            Builtin::Player => rec!(self, Node::Int(f(|c| Ok(c.rd_player::<REC>())))),
            Builtin::Location => {
                let e = self.elem(&a[0], "the argument of LOCATION");
                rec!(
                    self,
                    Node::Sym(f(move |c| {
                        let g = c.g;
                        Ok(match e.get(c)? {
                            Some(e) => g.loc_sym[c.rd_location::<REC>(e) as usize],
                            None => g.empty_sym,
                        })
                    }))
                )
            }
            Builtin::LocType => {
                let l = self.loc(&a[0], "the argument of LOCTYPE");
                Node::Sym(f(move |c| {
                    let g = c.g;
                    Ok(match l.get(c)? {
                        Some(l) => g.ltype_sym[g.locations[l as usize].location_type],
                        None => g.empty_sym,
                    })
                }))
            }
            Builtin::ZIndex => {
                let s = self.str_arg(&a[0], "the argument of ZINDEX");
                Node::Int(f(move |c| {
                    let s = s(c)?;
                    match c.known_element(&s) {
                        Some(e) => Ok(c.st.get().zindex(e)),
                        None => Err(EvalError::new(format!(
                            "ZINDEX: unknown element `{}`",
                            c.text(&s)
                        ))),
                    }
                }))
            }
            Builtin::Index => {
                let s = self.str_arg(&a[0], "the argument of INDEX");
                Node::Val(f(move |c| {
                    let s = s(c)?;
                    c.index_value(&s)
                }))
            }
            Builtin::IndexA => {
                let k = self.int(&a[0], "the first argument of INDEXA");
                let s = self.str_arg(&a[1], "the second argument of INDEXA");
                Node::Val(f(move |c| {
                    let k = k(c)?;
                    let s = s(c)?;
                    c.index_a_value(k, &s)
                }))
            }
            Builtin::Unindex => {
                let s = self.str_arg(&a[0], "the argument of UNINDEX");
                Node::Val(f(move |c| {
                    let s = s(c)?;
                    c.unindex_value(&s)
                }))
            }
            Builtin::Score => {
                let p = self.int(&a[0], "the argument of SCORE");
                rec!(
                    self,
                    Node::Int(f(move |c| {
                        let p = p(c)?;
                        let n = c.g.players.len() as i32;
                        if p < 1 || p > n {
                            return Err(EvalError::new(format!(
                                "SCORE: player {p} does not exist (1..{n})"
                            )));
                        }
                        Ok(c.rd_score::<REC>(p as usize - 1))
                    }))
                )
            }
            Builtin::Move => {
                let es = self.str_arg(&a[0], "the element of MOVE");
                let fs = self.str_arg(&a[1], "the source of MOVE");
                let ts = self.str_arg(&a[2], "the target of MOVE");
                Node::Bool(f(move |c| {
                    let g = c.g;
                    let es = es(c)?;
                    let e = c.known_element(&es).ok_or_else(|| {
                        EvalError::new(format!("MOVE: unknown element `{}`", c.text(&es)))
                    })?;
                    let fs = fs(c)?;
                    let fl = c.known_location(&fs).ok_or_else(|| {
                        EvalError::new(format!("MOVE: unknown location `{}`", c.text(&fs)))
                    })?;
                    if c.st.get().location_of(e) != fl {
                        return Err(EvalError::new(format!(
                            "MOVE: element `{}` is not on `{}` but on `{}`",
                            c.text(&es),
                            c.text(&fs),
                            g.locations[c.st.get().location_of(e) as usize].name
                        )));
                    }
                    let ts = ts(c)?;
                    let t = c.known_location(&ts).ok_or_else(|| {
                        EvalError::new(format!("MOVE: unknown location `{}`", c.text(&ts)))
                    })?;
                    if c.st.get().content(t).is_some() {
                        return Ok(false);
                    }
                    c.state_mut(Builtin::Move)?.relocate(e, t);
                    Ok(true)
                }))
            }
            Builtin::SetState | Builtin::SetOwner | Builtin::SetZIndex => {
                let v = self.int(&a[1], "the value argument");
                let which = match b {
                    Builtin::SetState => Attr::State,
                    Builtin::SetOwner => Attr::Owner,
                    _ => Attr::ZIndex,
                };
                // A literal element name: its id found at load.
                if let Expr::Str(s) = &a[0] {
                    if let Some(e) = known(self.sym_elem, *s) {
                        let s = *s;
                        return Node::Bool(f(move |c| {
                            let v = v(c)?;
                            set_attr(c, b, which, e, v, |c| c.text(&Str::Sym(s)).to_string())
                        }));
                    }
                }
                let es = self.str_arg(&a[0], "the element argument");
                Node::Bool(f(move |c| {
                    let es = es(c)?;
                    let e = c.known_element(&es).ok_or_else(|| {
                        EvalError::new(format!("{}: unknown element `{}`", b.name(), c.text(&es)))
                    })?;
                    let v = v(c)?;
                    set_attr(c, b, which, e, v, |c| c.text(&es).to_string())
                }))
            }
            Builtin::NextPlayer => Node::Bool(f(next_player)),
            #[allow(unreachable_patterns)]
            _ => Self::fallback(whole),
        }
    }
}

#[cold]
/// A call of memoized function `fid` whose key is read from the arguments
/// ([`run_memo_keyed`]); a Bool node when `is_bool`.
fn memo_keyed_node<const REG: bool>(
    fid: FuncId,
    params: Box<[VarId]>,
    keys: Box<[KeyArg]>,
    is_bool: bool,
) -> Node {
    if is_bool {
        return Node::Bool(f(move |c| {
            match run_memo_keyed::<REG>(c, fid, &params, &keys)? {
                Value::Bool(b) => Ok(b),
                other => Err(EvalError::new(format!(
                    "internal: a Bool function gave {}",
                    other.kind()
                ))),
            }
        }));
    }
    Node::Val(f(move |c| run_memo_keyed::<REG>(c, fid, &params, &keys)))
}

/// A call of memoized function `fid` that binds its parameters first
/// ([`run_memo`]); a Bool node when `is_bool`.
fn memo_node<const REG: bool>(fid: FuncId, args: Box<[(VarId, Arg)]>, is_bool: bool) -> Node {
    if is_bool {
        return Node::Bool(f(move |c| {
            for (p, a) in args.iter() {
                a.set(c, *p)?;
            }
            match run_memo::<REG>(c, fid)? {
                Value::Bool(b) => Ok(b),
                other => Err(EvalError::new(format!(
                    "internal: a Bool function gave {}",
                    other.kind()
                ))),
            }
        }));
    }
    Node::Val(f(move |c| {
        for (p, a) in args.iter() {
            a.set(c, *p)?;
        }
        run_memo::<REG>(c, fid)
    }))
}

fn no_else() -> Box<EvalError> {
    EvalError::new("IF needs an else-branch here (its condition is false)")
}

/// Runs a compiled user function whose parameters are bound (`Ctx::run_body`).
fn run_func(c: &mut Ctx<'_>, fid: FuncId, split: bool) -> R<Value> {
    let (cf, last, last_line) = enter(c, fid)?;
    let result = run_lines(c, cf, last, last_line, split);
    c.depth -= 1;
    result
}

/// [`run_func`] trying the body over registers first (`CFunc::pure`): for
/// the calls of functions that have one (`Compiler::pure_bodies`), a
/// memoized function's misses and plain runs, and deferred calls. Out of
/// line, so that [`run_func`] stays as it was for the other calls.
#[inline(never)]
fn run_func_reg(c: &mut Ctx<'_>, fid: FuncId) -> R<Value> {
    let g: &crate::game::Game = c.g;
    let Some(cf) = g.cfuncs.get(fid as usize).and_then(Option::as_ref) else {
        return run_func(c, fid, false);
    };
    if let Some(p) = &cf.pure {
        if let Some(v) = run_pure_body(c, p) {
            return Ok(v);
        }
    }
    let (last, last_line) = enter_defined(c, cf)?;
    let result = run_lines(c, cf, last, last_line, false);
    c.depth -= 1;
    result
}

/// [`run_func_reg`] when `REG` (the function has a body over registers),
/// else [`run_func`].
#[inline(always)]
fn run_func_as<const REG: bool>(c: &mut Ctx<'_>, fid: FuncId) -> R<Value> {
    if REG {
        run_func_reg(c, fid)
    } else {
        run_func(c, fid, false)
    }
}

/// The body of function `fid` over registers (`pure::body`), its
/// parameters bound: its value, or `None` when it has no such form or the
/// registers give up — then the budget steps it took and the position reads
/// it recorded are put back, and the caller runs the closures. The call's
/// budget step and limits are the inlined call's (`pure.rs`), so the value,
/// the variables that can be read, the budget and the recorded reads are
/// those of [`enter`] and the body's closures.
#[inline(never)]
fn run_pure_body(c: &mut Ctx<'_>, code: &crate::pure::Code) -> Option<Value> {
    use crate::pure::Code;
    let steps = c.vars.steps_left();
    let reads = c.vars.memo.buf.len();
    let mut r = [0; crate::pure::REGS];
    let v = match code {
        Code::Int(p) => p(c, &mut r).map(Value::Int),
        Code::Bool(p) => p(c, &mut r).map(Value::Bool),
        Code::Loc(_) | Code::Set(_) | Code::OffInt(..) | Code::OffBool(..) => None,
    };
    if v.is_none() {
        c.vars.set_steps_left(steps);
        c.vars.memo.buf.truncate(reads);
    }
    v
}

/// The memo description of function or unit `fid` when its table is in use
/// for this game; `None`: it runs plainly.
#[inline(always)]
pub(crate) fn memo_on<'a>(c: &mut Ctx<'a>, fid: FuncId) -> Option<&'a crate::memo::MemoInfo> {
    let g = c.g;
    let info = g.memo_info.get(fid as usize).and_then(Option::as_ref)?;
    c.vars.memo.for_game(g.id, g.memo_info.len());
    (!c.vars.memo.is_off(fid)).then_some(info)
}

/// Fills `key` with the key values of the variables `inputs`, in order;
/// false when one has none (unbound, or a value no key holds).
#[inline(always)]
fn key_from_vars(c: &Ctx<'_>, key: &mut [u64], inputs: &[VarId]) -> bool {
    for (k, p) in key.iter_mut().zip(inputs) {
        match c.vars.get(*p).and_then(crate::memo::key_of) {
            Some(x) => *k = x,
            None => return false,
        }
    }
    true
}

/// [`run_func`] of a memoized function (`memo.rs`, where the equivalence
/// with the plain call is argued), its parameters bound.
fn run_memo<const REG: bool>(c: &mut Ctx<'_>, fid: FuncId) -> R<Value> {
    let Some(info) = memo_on(c, fid) else {
        return run_func_as::<REG>(c, fid);
    };
    let mut key: crate::memo::Key = [crate::memo::NO_INPUT; crate::memo::MAX_INPUTS];
    if !key_from_vars(c, &mut key, &info.inputs) {
        return run_func_as::<REG>(c, fid);
    }
    let st = c.st.get();
    let (slots, memo) = c.vars.slots_and_memo();
    if let Some(v) = memo.hit(slots, fid, &key, info.inputs.len(), st) {
        return Ok(v);
    }
    memo_miss::<REG>(c, fid, info, key)
}

/// A call of memoized function `fid` from the registers
/// ([`crate::pure::PMemo`]) with the Int argument values `vals`, its table
/// on (`info`, from [`memo_on`]): the value of a valid entry for these
/// values, as the call's closures ([`run_memo_keyed`]) would use it. `None`
/// (give up) for anything else — no entry, a stale one, a key the
/// arguments do not fill: the closures then run the call, store its entry
/// and take its budget steps exactly as without the registers (a miss run
/// here and given up later would leave an entry the closures' rerun uses,
/// saving the budget steps the closures would have taken).
#[inline(never)]
pub(crate) fn memo_call_reg(
    c: &mut Ctx<'_>,
    fid: FuncId,
    info: &crate::memo::MemoInfo,
    vals: &[i32],
) -> Option<Value> {
    let mut key: crate::memo::Key = [crate::memo::NO_INPUT; crate::memo::MAX_INPUTS];
    for (k, &x) in key.iter_mut().zip(vals) {
        *k = crate::memo::key_of(&Value::Int(x))?;
    }
    let n = vals.len();
    if !key_from_vars(c, &mut key[n..], &info.inputs[n..]) {
        return None;
    }
    if !info.writes.is_empty() {
        return None;
    }
    let st = c.st.get();
    c.vars.memo.valid_hit(fid, &key, info.inputs.len(), st)
}

/// [`memo_call_reg`] of a call that may run the function
/// ([`crate::pure::PMemo`] `run`: in tail position, and the function calls
/// no memoized function), `nest` inlined calls deep: what the call's
/// closures do ([`run_memo_keyed`] with these arguments) — the entry looked
/// up by the values, and on a miss (or when a key is missing) the parameters
/// bound and the function run ([`memo_miss`], [`plain_call_reg`]) at the
/// call depth the closures would have (the evaluation's plus `nest`).
/// `None`: give up (an error, or the limits near; nothing was stored, and
/// the closures give the error).
#[inline(never)]
pub(crate) fn memo_call_run<const REG: bool>(
    c: &mut Ctx<'_>,
    fid: FuncId,
    info: &crate::memo::MemoInfo,
    params: &[VarId],
    vals: &[i32],
    nest: u32,
) -> Option<Value> {
    let mut key: crate::memo::Key = [crate::memo::NO_INPUT; crate::memo::MAX_INPUTS];
    for (k, &x) in key.iter_mut().zip(vals) {
        *k = crate::memo::key_of(&Value::Int(x))?;
    }
    let n = vals.len();
    if !key_from_vars(c, &mut key[n..], &info.inputs[n..]) {
        return plain_call_reg::<REG>(c, fid, params, vals, nest);
    }
    let st = c.st.get();
    let (slots, memo) = c.vars.slots_and_memo();
    if let Some(v) = memo.hit(slots, fid, &key, info.inputs.len(), st) {
        return Some(v);
    }
    if !c.inline_call_ok(nest + 1) {
        return None;
    }
    for (&p, &x) in params.iter().zip(vals) {
        c.vars.set_int(p, x);
    }
    c.nested(nest, |c| memo_miss::<REG>(c, fid, info, key)).ok()
}

/// [`memo_call_run`] of a call that runs plainly (its table off, or a key
/// missing): the parameters bound and [`run_func_as`] at the call depth the
/// closures would have.
#[inline(never)]
pub(crate) fn plain_call_reg<const REG: bool>(
    c: &mut Ctx<'_>,
    fid: FuncId,
    params: &[VarId],
    vals: &[i32],
    nest: u32,
) -> Option<Value> {
    if !c.inline_call_ok(nest + 1) {
        return None;
    }
    for (&p, &x) in params.iter().zip(vals) {
        c.vars.set_int(p, x);
    }
    c.nested(nest, |c| run_func_as::<REG>(c, fid)).ok()
}

/// A call of a memoized function whose dead parameters (`memo::dead_vars`)
/// are bound only when it runs ([`Compiler::key_args`]): the key is read
/// from the arguments, and a hit binds nothing but what the entry holds. The
/// arguments are read in order, so an unbound one is the same error as when
/// binding; otherwise the parameters are bound and the call is [`run_memo`]'s.
fn run_memo_keyed<const REG: bool>(
    c: &mut Ctx<'_>,
    fid: FuncId,
    params: &[VarId],
    args: &[KeyArg],
) -> R<Value> {
    if let Some(v) = memo_keyed::<REG>(c, fid, params, args)? {
        return Ok(v);
    }
    // Not memoized now, or an argument without a key: the plain call.
    for (p, a) in params.iter().zip(args) {
        a.set(c, *p)?;
    }
    run_func_as::<REG>(c, fid)
}

/// The memoized part of [`run_memo_keyed`]: the call's value, or `None` when
/// it is to run plainly (nothing bound yet).
fn memo_keyed<const REG: bool>(
    c: &mut Ctx<'_>,
    fid: FuncId,
    params: &[VarId],
    args: &[KeyArg],
) -> R<Option<Value>> {
    let Some(info) = memo_on(c, fid) else {
        return Ok(None);
    };
    let mut key: crate::memo::Key = [crate::memo::NO_INPUT; crate::memo::MAX_INPUTS];
    for (k, a) in key.iter_mut().zip(args) {
        match a {
            KeyArg::Var(w) => match c.vars.get(*w).map(crate::memo::key_of) {
                Some(Some(x)) => *k = x,
                Some(None) => return Ok(None),
                None => return Err(unbound(c, *w)),
            },
            KeyArg::Lit(x, _) => *k = *x,
        }
    }
    if !key_from_vars(c, &mut key[params.len()..], &info.inputs[params.len()..]) {
        return Ok(None);
    }
    let st = c.st.get();
    let (slots, memo) = c.vars.slots_and_memo();
    if let Some(v) = memo.hit(slots, fid, &key, info.inputs.len(), st) {
        return Ok(Some(v));
    }
    for (p, a) in params.iter().zip(args) {
        a.set(c, *p)?;
    }
    memo_miss::<REG>(c, fid, info, key).map(Some)
}

/// A miss of [`run_memo`]: runs the function (its parameters bound) and
/// stores the entry.
fn memo_miss<const REG: bool>(
    c: &mut Ctx<'_>,
    fid: FuncId,
    info: &crate::memo::MemoInfo,
    key: crate::memo::Key,
) -> R<Value> {
    memo_miss_with(c, fid, info, key, |c| run_func_as::<REG>(c, fid))
}

/// [`memo_miss`] of function or unit `fid` whose evaluation is `run`.
#[inline(always)]
fn memo_miss_with(
    c: &mut Ctx<'_>,
    fid: FuncId,
    info: &crate::memo::MemoInfo,
    key: crate::memo::Key,
    run: impl Fn(&mut Ctx<'_>) -> R<Value>,
) -> R<Value> {
    let (slots, memo) = c.vars.slots_and_memo();
    // A miss: run it with the variables it may write (but its parameters)
    // unbound, their values saved on `Memo::saved` (a stack: nested misses
    // push above and pop back before this one goes on).
    let base = memo.saved.len();
    memo.saved
        .extend(info.saved.iter().map(|&v| slots[v as usize].clone()));
    for &v in &info.locals {
        slots[v as usize] = None;
    }
    let start = memo.buf.len();
    memo.depth += 1;
    let steps = c.vars.steps_left();
    let result = run(c);
    c.vars.memo.depth -= 1;
    let (slots, memo) = c.vars.slots_and_memo();
    match result {
        Ok(value) => {
            let epoch = c.st.get().epoch;
            let (slots, memo) = c.vars.slots_and_memo();
            memo.store(fid, key, info, start, slots, value.clone(), epoch);
            for (&v, old) in info.saved.iter().zip(memo.saved.drain(base..)) {
                if slots[v as usize].is_none() {
                    slots[v as usize] = old;
                }
            }
            Ok(value)
        }
        Err(e) => {
            // Back to the variables and budget before the call, and run it
            // plainly — from the outermost memoized attempt under way, which
            // reruns this call too.
            for (&v, old) in info.saved.iter().zip(memo.saved.drain(base..)) {
                slots[v as usize] = old;
            }
            memo.buf.truncate(start);
            let culprit = *memo.failed.get_or_insert(fid);
            if memo.depth != 0 {
                return Err(e);
            }
            memo.failed = None;
            memo.bypass += 1;
            c.vars.set_steps_left(steps);
            let plain = run(c);
            c.vars.memo.bypass -= 1;
            if plain.is_ok() {
                // The attempt failed only because it ran with variables
                // unbound: the innermost failing function reads one before
                // writing it, and is not memoized any more.
                c.vars.memo.turn_off(culprit);
            }
            plain
        }
    }
}

/// A loop body memoized as unit `u` (`memo::units`): evaluated in place
/// (no call), its entry looked up by the values of its inputs.
fn run_unit(c: &mut Ctx<'_>, u: FuncId, body: &CBool) -> R<bool> {
    let Some(info) = memo_on(c, u) else {
        return body(c);
    };
    let mut key: crate::memo::Key = [crate::memo::NO_INPUT; crate::memo::MAX_INPUTS];
    if !key_from_vars(c, &mut key, &info.inputs) {
        return body(c);
    }
    let st = c.st.get();
    let (slots, memo) = c.vars.slots_and_memo();
    let v = match memo.hit(slots, u, &key, info.inputs.len(), st) {
        Some(v) => v,
        None => memo_miss_with(c, u, info, key, |c| body(c).map(Value::Bool))?,
    };
    match v {
        Value::Bool(b) => Ok(b),
        other => Err(EvalError::new(format!(
            "internal: a loop body gave {}",
            other.kind()
        ))),
    }
}

/// [`run_func`] of a function whose last line is a Bool node.
fn run_func_bool(c: &mut Ctx<'_>, fid: FuncId) -> R<bool> {
    let (cf, last, last_line) = enter(c, fid)?;
    let result = run_lines_bool(c, cf, last, last_line);
    c.depth -= 1;
    result
}

fn run_lines_bool(c: &mut Ctx<'_>, cf: &CFunc, last: &Node, last_line: u32) -> R<bool> {
    let traced = |e: Box<EvalError>, line: u32| e.at_line(&cf.name, line);
    for (guard, line) in &cf.guards {
        let passed = match guard {
            Guard::Bool(b) => b(c),
            Guard::Other(n) => n.value(c).map(|v| !matches!(v, Value::Bool(false))),
        };
        match passed {
            Ok(true) => {}
            Ok(false) => return Ok(false),
            Err(e) => return Err(traced(e, *line)),
        }
    }
    match last {
        Node::Bool(b) => b(c).map_err(|e| traced(e, last_line)),
        n => match n.value(c).map_err(|e| traced(e, last_line))? {
            Value::Bool(b) => Ok(b),
            other => Err(EvalError::new(format!(
                "internal: function {} gave {} where a Bool was compiled",
                cf.name,
                other.kind()
            ))),
        },
    }
}

/// The checks and bookkeeping of entering a user function (`Ctx::run_body`):
/// defined, non-empty, [`Ctx::enter_call`]. Increments
/// the call depth; the caller decrements it.
#[inline(always)]
fn enter<'g>(c: &mut Ctx<'g>, fid: FuncId) -> R<(&'g CFunc, &'g Node, u32)> {
    let g: &'g crate::game::Game = c.g;
    let Some(cf) = g.cfuncs.get(fid as usize).and_then(Option::as_ref) else {
        return Err(EvalError::new(format!(
            "unknown function {}",
            g.func_names[fid as usize]
        )));
    };
    let (last, last_line) = enter_defined(c, cf)?;
    Ok((cf, last, last_line))
}

/// [`enter`] of a function that is defined.
#[inline(always)]
fn enter_defined<'g>(c: &mut Ctx<'g>, cf: &'g CFunc) -> R<(&'g Node, u32)> {
    let Some((last, last_line)) = &cf.last else {
        return Err(EvalError::new(format!(
            "function {} has an empty body",
            cf.name
        )));
    };
    c.enter_call(&cf.name)?;
    Ok((last, *last_line))
}

/// The body lines (§5.9): stop at the first Bool `false`, otherwise the last line's value.
/// Inlined into [`run_func`] and [`run_func_reg`] (called from both, it was
/// not, and every call paid for one more call).
#[inline(always)]
fn run_lines(c: &mut Ctx<'_>, cf: &CFunc, last: &Node, last_line: u32, split: bool) -> R<Value> {
    let traced = |e: Box<EvalError>, line: u32| e.at_line(&cf.name, line);
    for (guard, line) in &cf.guards {
        let passed = match guard {
            Guard::Bool(b) => b(c),
            Guard::Other(n) => n.value(c).map(|v| !matches!(v, Value::Bool(false))),
        };
        match passed {
            Ok(true) => {}
            Ok(false) => return Ok(Value::Bool(false)),
            Err(e) => return Err(traced(e, *line)),
        }
    }
    if split {
        if let Some((a, b)) = &cf.split {
            let left = a(c).map_err(|e| traced(e, last_line))?;
            c.first_conjunct = Some(left);
            if !left {
                return Ok(Value::Bool(false));
            }
            return b(c).map(Value::Bool).map_err(|e| traced(e, last_line));
        }
    }
    last.value(c).map_err(|e| traced(e, last_line))
}

/// Reads of the position by the compiled built-ins that memoized functions
/// may use, recorded while a memoized call is evaluated (`memo.rs`).
impl Ctx<'_> {
    #[inline(always)]
    pub(crate) fn rd_content<const R: bool>(&mut self, l: u16) -> Option<u16> {
        let x = self.st.get().content(l);
        if R {
            self.vars
                .memo
                .note(Read::Content(l, x.unwrap_or(crate::state::NO_ELEMENT)));
        }
        x
    }
    #[inline(always)]
    pub(crate) fn rd_state<const R: bool>(&mut self, e: u16) -> i32 {
        let x = self.st.get().element_state(e);
        if R {
            self.vars.memo.note(Read::State(e, x));
        }
        x
    }
    #[inline(always)]
    pub(crate) fn rd_owner<const R: bool>(&mut self, e: u16) -> i32 {
        let x = self.st.get().owner(e);
        if R {
            self.vars.memo.note(Read::Owner(e, x));
        }
        x
    }
    #[inline(always)]
    pub(crate) fn rd_location<const R: bool>(&mut self, e: u16) -> u16 {
        let x = self.st.get().location_of(e);
        if R {
            self.vars.memo.note(Read::Location(e, x));
        }
        x
    }
    #[inline(always)]
    fn rd_player<const R: bool>(&mut self) -> i32 {
        let x = self.st.get().player();
        if R {
            self.vars.memo.note(Read::Player(x));
        }
        x
    }
    #[inline(always)]
    fn rd_score<const R: bool>(&mut self, p: usize) -> i32 {
        let x = self.st.get().scores()[p];
        if R {
            self.vars.memo.note(Read::Score(p as u16, x));
        }
        x
    }
}

impl Ctx<'_> {
    /// Evaluates a top-level expression: its compiled form, or the reference
    /// evaluator when the scratch asks for it.
    #[inline]
    pub(crate) fn run(&mut self, se: &SrcExpr) -> R<Value> {
        match &se.code.0 {
            Some(code) if !self.vars.reference => code.whole.value(self),
            _ => self.eval(&se.expr),
        }
    }

    /// [`Ctx::run`] of a followup, whose value is not used (a Bool one's
    /// not made a [`Value`] to be dropped).
    #[inline]
    pub(crate) fn run_effect(&mut self, se: &SrcExpr) -> R<()> {
        match &se.code.0 {
            Some(code) if !self.vars.reference => match &code.whole {
                Node::Bool(b) => b(self).map(drop),
                n => n.value(self).map(drop),
            },
            _ => self.eval(&se.expr).map(drop),
        }
    }

    /// [`Ctx::run`] of a condition: whether it gives Bool `true`.
    #[inline]
    pub(crate) fn run_cond(&mut self, se: &SrcExpr) -> R<bool> {
        match &se.code.0 {
            Some(code) if !self.vars.reference => match &code.whole {
                Node::Bool(b) => b(self),
                n => Ok(matches!(n.value(self)?, Value::Bool(true))),
            },
            _ => Ok(matches!(self.eval(&se.expr)?, Value::Bool(true))),
        }
    }

    /// A Bool code over registers (a condition part's, an end-of-game
    /// situation's, `game::EndCondition::regs`): its value, or `None` when
    /// the registers give up; then the budget steps they took and the
    /// reads they recorded are put back, and the caller runs the
    /// expression.
    pub(crate) fn run_bool_regs(&mut self, p: &crate::pure::PBool) -> Option<bool> {
        let steps = self.vars.steps_left();
        let reads = self.vars.memo.buf.len();
        let v = p(self, &mut [0; crate::pure::REGS]);
        if v.is_none() {
            self.vars.set_steps_left(steps);
            self.vars.memo.buf.truncate(reads);
        }
        v
    }

    /// A residual (`specialize.rs`) in place of `whole`. It changes no
    /// state and writes no variable, so when it fails, putting back the
    /// budget and the reads recorded undoes it, and `whole` gives the
    /// original's error with its trace.
    #[inline(never)]
    pub(crate) fn run_special(&mut self, node: &Node, whole: &Node) -> R<Value> {
        let steps = self.vars.steps_left();
        let reads = self.vars.memo.buf.len();
        match node.value(self) {
            Ok(v) => Ok(v),
            Err(_) => {
                self.vars.set_steps_left(steps);
                self.vars.memo.buf.truncate(reads);
                whole.value(self)
            }
        }
    }

    /// One side of a condition `A AND B` (`Ctx::and_side`). Out of line:
    /// inlined into move generation it made the generation loop of games
    /// without such conditions slower (frogs-old +2 % instructions).
    #[inline(never)]
    pub(crate) fn run_and_side(&mut self, se: &SrcExpr, left: bool) -> R<bool> {
        match se.code.0.as_deref() {
            Some(Compiled {
                and: Some((a, b)), ..
            }) if !self.vars.reference => {
                if left {
                    a(self)
                } else {
                    b(self)
                }
            }
            _ => self.and_side(&se.expr, left),
        }
    }

    /// `se` over registers when it is a set of at most one location
    /// (`Compiled::loc_set`): `Some(NO_SET)` for `{}`, `Some(l)` for the set
    /// of location `l` — the set [`Ctx::run`] would give, without building
    /// it. `None` when there is no such form (or the reference evaluator is
    /// on) or the registers give up; then the budget steps they took and the
    /// reads they recorded are put back, and the caller runs [`Ctx::run`].
    pub(crate) fn run_loc_set(&mut self, se: &SrcExpr) -> Option<i32> {
        let p = se.code.0.as_deref()?.loc_set.as_ref()?;
        if self.vars.reference {
            return None;
        }
        self.run_loc_set_regs(p)
    }

    /// [`Ctx::run_check`] of a test read in place; not while a memoized
    /// evaluation records its reads (the closures record them). Out of
    /// line: inlined into `run_check`, and so into move generation, it
    /// changed the generation loop's code for every game (`nim` +1.2 %
    /// instructions without running it).
    #[inline(never)]
    fn run_position_test(&mut self, t: &ConditionPart) -> Option<bool> {
        if self.vars.memo.depth != 0 {
            return None;
        }
        let vars = &*self.vars;
        t.test_in(self.st.get(), |rhs| match rhs {
            CheckRhs::Lit(i) => Some(i),
            CheckRhs::Var(x) => match vars.get(x) {
                Some(&Value::Int(i)) => Some(i),
                _ => None,
            },
        })
    }

    /// A [`ConditionPart`]: its value, or `None` when there is none (or the
    /// reference evaluator is on) or the registers give up (the budget
    /// steps they took and the reads they recorded put back).
    pub(crate) fn run_check(&mut self, t: &ConditionPart) -> Option<bool> {
        match t {
            _ if self.vars.reference => None,
            ConditionPart::None => None,
            ConditionPart::Const(b) => Some(*b),
            ConditionPart::Attr { .. } | ConditionPart::Empty { .. } => self.run_position_test(t),
            ConditionPart::Regs(p) | ConditionPart::Tested { regs: p, .. } => self.run_bool_regs(p),
        }
    }

    /// [`Ctx::run_loc_set`] of a set of at most one location over registers.
    pub(crate) fn run_loc_set_regs(&mut self, p: &crate::pure::PInt) -> Option<i32> {
        let steps = self.vars.steps_left();
        let reads = self.vars.memo.buf.len();
        // `{}` or a location's id (anything else is not a set's value: give up).
        let v = p(self, &mut [0; crate::pure::REGS]).filter(|&l| {
            l == crate::pure::NO_SET || usize::try_from(l).is_ok_and(|l| l < self.g.locations.len())
        });
        if v.is_none() {
            self.vars.set_steps_left(steps);
            self.vars.memo.buf.truncate(reads);
        }
        v
    }

    /// A condition `F(...)` evaluated with its last line split (`Ctx::call_split`).
    pub(crate) fn run_call_split(&mut self, se: &SrcExpr) -> R<Value> {
        let Expr::Call(fid, args) = &se.expr else {
            return Err(EvalError::new(
                "internal: a hoisted condition is not a call",
            ));
        };
        match se.code.0.as_deref() {
            Some(Compiled {
                call_args: Some(cargs),
                split,
                ..
            }) if !self.vars.reference => {
                self.first_conjunct = None;
                if let Some(sp) = split {
                    // Inlined (`pure.rs`); when the registers give up, the
                    // budget steps and recorded reads are put back and the
                    // call runs as below.
                    let steps = self.vars.steps_left();
                    let reads = self.vars.memo.buf.len();
                    if let Some(v) = sp.run(self) {
                        return Ok(Value::Bool(v));
                    }
                    self.vars.set_steps_left(steps);
                    self.vars.memo.buf.truncate(reads);
                    self.first_conjunct = None;
                }
                let func = self.func(*fid, cargs.len())?;
                for (p, a) in func.params.iter().zip(cargs) {
                    a.set(self, *p)?;
                }
                run_func(self, *fid, true)
            }
            _ => self.call_split(*fid, args),
        }
    }

    /// Calls a user function with evaluated arguments (deferred followups).
    pub(crate) fn run_call_values(&mut self, fid: FuncId, args: &[Value]) -> R<Value> {
        if self.vars.reference {
            return self.call_values(fid, args);
        }
        let func = self.func(fid, args.len())?;
        for (p, a) in func.params.iter().zip(args) {
            self.vars.set(*p, a.clone());
        }
        run_func_reg(self, fid)
    }
}

/// A counting loop body `IF(c, $n = $n + k, true)` or `IF(c, true, $n = $n + k)`
/// (or `k + $n`, `k` an Int literal): its condition, the condition's value
/// that counts, the assignment, `$n` and `k`.
pub(crate) fn counting_body(body: &Expr) -> Option<(&Expr, bool, &Expr, VarId, i32)> {
    let Expr::Builtin(Builtin::If, a) = body else {
        return None;
    };
    let (cond, when, then) = match &a[..] {
        [cond, then, Expr::Bool(true)] => (cond, true, then),
        [cond, Expr::Bool(true), then] => (cond, false, then),
        _ => return None,
    };
    let Expr::Assign(n, x) = then else {
        return None;
    };
    let Expr::Binary(Op::Add, l, r) = &**x else {
        return None;
    };
    let k = match (&**l, &**r) {
        (&Expr::Var(v), &Expr::Int(k)) | (&Expr::Int(k), &Expr::Var(v)) if v == *n => k,
        _ => return None,
    };
    Some((cond, when, then, *n, k))
}

/// A counting loop body over registers, `IF(c, $n = $n + k, true)` or
/// `IF(c, true, $n = $n + k)` with `$n` in register `n` (`+ k` or `k +`):
/// `c`, the branch that counts (`true` for the first form), `n` and `k`.
pub(crate) fn counting_reg(
    body: &crate::pure::Pure,
) -> Option<(&crate::pure::Pure, bool, u8, i32)> {
    let crate::pure::Pure::If(cond, t, e) = body else {
        return None;
    };
    let (when, assign) = match (&**t, &**e) {
        (a, crate::pure::Pure::BoolLit(true)) => (true, a),
        (crate::pure::Pure::BoolLit(true), a) => (false, a),
        _ => return None,
    };
    let crate::pure::Pure::Assign(n, x) = assign else {
        return None;
    };
    let crate::pure::Pure::Bin(Op::Add, a, b) = &**x else {
        return None;
    };
    match (&**a, &**b) {
        (&crate::pure::Pure::Reg(r), &crate::pure::Pure::Lit(k))
        | (&crate::pure::Pure::Lit(k), &crate::pure::Pure::Reg(r))
            if r == *n =>
        {
            Some((cond, when, *n, k))
        }
        _ => None,
    }
}

/// A loop over registers whose body counts ([`counting_reg`]; built by
/// `pure::lower_bool`, issue 18 seventeenth step): the steps of the general
/// loop (a budget step and the variable's register per iteration, the
/// condition's closure), but the count incremented in its register in
/// place, without the `IF`, the assignment and the `+` closures (an
/// overflow gives up, as the `+` closure does). The body's value is `true`
/// whenever it has one, so `FORALL` runs every iteration and `FORSOME` ends
/// after the first, as the general loop does. It lives here and not in
/// `pure.rs` for the reason [`abs_sub_vars`] does: there it moved the
/// crate's codegen units (`connect4-orig` +0.17 %, `frogs` +0.2 %, in code
/// they did not change).
#[allow(clippy::too_many_arguments)]
pub(crate) fn counting_loop_reg(
    all: bool,
    var: u8,
    from: crate::pure::Leaf,
    to: crate::pure::Leaf,
    cond: crate::pure::PBool,
    when: bool,
    n: u8,
    k: i32,
) -> crate::pure::PBool {
    Box::new(move |c: &mut Ctx<'_>, r: &mut crate::pure::Regs| {
        let range = (from.get(c, r)?, to.get(c, r)?);
        crate::pure::over_range_reg(c, r, var, range, true, |c, r, _| {
            if cond(c, r)? == when {
                let x = &mut r[n as usize % crate::pure::REGS];
                *x = x.checked_add(k)?;
            }
            // The body gave `true`: FORSOME stops, FORALL goes on to the end.
            Some((!all).then_some(true))
        })
    })
}

/// A summing loop over registers (`pure::lower_bool`, issue 18
/// twenty-ninth step): `FORALL`/`FORSOME` over `var` whose body is `($n =
/// $n + x) OR true`, `x` an Int over the registers — per iteration the
/// budget step, the loop variable, `$n` read, then `x`, then the sum
/// (overflow gives up, as the `+` closure does); the body is `true`, so
/// `FORALL` runs to the end and `FORSOME` stops after the first. Here
/// rather than in `pure.rs` for the reason of [`counting_loop_reg`].
pub(crate) fn summing_loop_reg(
    all: bool,
    var: u8,
    from: crate::pure::Leaf,
    to: crate::pure::Leaf,
    n: u8,
    x: crate::pure::PInt,
) -> crate::pure::PBool {
    Box::new(move |c: &mut Ctx<'_>, r: &mut crate::pure::Regs| {
        let range = (from.get(c, r)?, to.get(c, r)?);
        let n = n as usize % crate::pure::REGS;
        crate::pure::over_range_reg(c, r, var, range, true, |c, r, _| {
            let s = r[n];
            let v = x(c, r)?;
            r[n] = s.checked_add(v)?;
            Some((!all).then_some(true))
        })
    })
}

/// `ABS($v - $w)` of two namespace variables as one closure over registers
/// (`pure::lower_int`; issue 18 sixteenth step: `puzzle8`'s `Adjacent`, two
/// closures less per distance). `None` (give up, the closures report it)
/// when a variable is unbound or no Int, or the difference or `ABS`
/// overflows. It lives here, out of line, and not in `pure.rs`: there it
/// moved the crate's codegen units (the `error` module into another one)
/// and made `connect4-orig` 0.2 % and `frogs` 0.08 % slower, games with no
/// `ABS`.
#[inline(never)]
pub(crate) fn abs_sub_vars(v: VarId, w: VarId) -> crate::pure::PInt {
    Box::new(move |c: &mut Ctx<'_>, _: &mut crate::pure::Regs| {
        let p = match c.vars.get(v) {
            Some(Value::Int(i)) => *i,
            _ => return None,
        };
        let q = match c.vars.get(w) {
            Some(Value::Int(i)) => *i,
            _ => return None,
        };
        p.checked_sub(q)?.checked_abs()
    })
}

/// Epochs a scratch (or a new state) takes from [`EPOCH_BLOCKS`] at a time.
const EPOCH_BLOCK: u64 = 1 << 20;
/// The next block of epochs (block 0, epochs below [`EPOCH_BLOCK`], is
/// never handed out: 0 is no epoch).
static EPOCH_BLOCKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The first epoch of a block of [`EPOCH_BLOCK`] epochs no one has had yet
/// in this process (the taker hands them out): never 0.
pub(crate) fn epoch_block() -> u64 {
    EPOCH_BLOCKS
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        .checked_mul(EPOCH_BLOCK)
        .expect("state epochs exhausted")
}

/// Gives `st` a fresh epoch when a mutator has set it to 0, from `epochs`
/// (the next and the end of the scratch's block): the engine, once a move's
/// changes are made, so the end checks and the next generation share the
/// memo entries they check (`memo.rs`, `Entry::valid_in`). A scratch is not
/// cloned and blocks are handed out once, so no two states get one epoch
/// this way. `history` remembers the epoch with its parent.
#[inline(never)]
pub(crate) fn renew_epoch(
    epochs: &mut (u64, u64),
    history: &mut crate::memo::EpochHistory,
    st: &mut crate::state::State,
) {
    if st.epoch == 0 {
        if epochs.0 == epochs.1 {
            let b = epoch_block();
            *epochs = (b, b + EPOCH_BLOCK);
        }
        st.epoch = epochs.0;
        epochs.0 += 1;
        history.record(st.epoch, st.parent, st.changed);
    }
}

/// The targets of an element of a rule whose condition `A AND B` has
/// its first conjunct hoisted and shares its targets
/// ([`crate::game::Rule::share_call_targets`]; `Game::targets` in
/// `engine.rs`), once an earlier element's `A` was true
/// in this position (`Scratch::shared_valid`): `A` evaluated once (it
/// touches no variable of `to=`, so not binding a target's changes
/// nothing; the element has targets to try, the same empty locations as
/// the earlier element), then the earlier element's targets when it is
/// true and none when false — what trying every target would give.
#[inline(never)]
pub(crate) fn shared_targets(
    g: &crate::game::Game,
    r: &crate::game::Rule,
    elem: usize,
    from: crate::model::LocationId,
    st: &crate::state::State,
    sc: &mut crate::engine::Scratch,
) -> Result<(), crate::error::RuleError> {
    let Some(c) = &r.condition else {
        return Ok(());
    };
    let mut ctx = Ctx::new(g, crate::eval::StateRef::Ro(st), &mut sc.vars);
    // `A` specialized for this element or location, or as written.
    let a = match r
        .left_special
        .get(elem, from as usize)
        .and_then(|t| ctx.run_check(t))
    {
        Some(a) => a,
        None => ctx
            .run_and_side(c, true)
            .map_err(|e| g.eval_error(c, format!("rule `{}` condition", r.name), e))?,
    };
    // The moves are made from the shared list (`Scratch::targets_shared`).
    sc.targets_shared = a;
    Ok(())
}

/// The iterations of a `FORALL`/`FORSOME` over `a..=b` (counting down when
/// `b < a`) as the compiled loops run them: per iteration the budget step,
/// the loop variable `var` set, then `body`, whose `Some(v)` ends the loop
/// with `v`; after the last iteration the loop gives `end`. One skeleton for
/// [`Compiler::run_loop`]'s general loop and its counting and summing forms.
#[inline(always)]
fn over_range(
    c: &mut Ctx<'_>,
    var: VarId,
    a: i32,
    b: i32,
    end: bool,
    mut body: impl FnMut(&mut Ctx<'_>) -> R<Option<bool>>,
) -> R<bool> {
    let step: i64 = if a <= b { 1 } else { -1 };
    let mut i = a as i64;
    loop {
        c.vars.step()?;
        c.vars.set_int(var, i as i32);
        if let Some(v) = body(c)? {
            return Ok(v);
        }
        if i == b as i64 {
            return Ok(end);
        }
        i += step;
    }
}

/// A summing loop body (issue 18 nineteenth step), `($n = $n + x) OR true`:
/// `$n` and `x` (any expression).
fn summing_body(body: &Expr) -> Option<(VarId, &Expr)> {
    let Expr::Binary(Op::Or, a, t) = body else {
        return None;
    };
    let (Expr::Assign(n, sum), Expr::Bool(true)) = (&**a, &**t) else {
        return None;
    };
    let Expr::Binary(Op::Add, l, x) = &**sum else {
        return None;
    };
    match **l {
        Expr::Var(v) if v == *n => Some((*n, &**x)),
        _ => None,
    }
}
