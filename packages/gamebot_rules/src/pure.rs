//! Calls of small pure user functions inlined, their parameters and locals
//! in registers (issue 18, seventh step).
//!
//! An expression built only from Int and Bool literals, variables holding
//! Ints, the integer operators, `ABS`, unary `-`, the comparisons of two
//! Ints, `AND`, `OR`, `NOT`, `IF`, `EMPTY` and `CONTENT` of a literal
//! location name or of a template over one or two Ints (read through the
//! template's id table, `compile.rs`), `OWNER`/`STATE` of such a `CONTENT`
//! or of an element named the same way, comparisons of `CONTENT`'s values
//! ([`Ty::Elem`], issue 18 tenth step), and calls of *inlinable* user functions,
//! with at least one such call, is compiled (besides its usual closures,
//! `compile.rs`) into a [`Pure`] tree and that into closures over an array
//! of registers: a call costs no `enter`, no parameter binding in the
//! namespace, no run over the body's lines, and the operands that are
//! literals, variables or registers are read in place.
//!
//! Since the twelfth step of issue 18 also: location names (a string literal
//! naming a location, a template over one or two Ints; [`Ty::Loc`], the
//! location's id), sets of at most one location (`{}`, `{name}`;
//! [`Ty::Set`]), `FORALL`/`FORSOME` over a dead variable of the inlined call
//! (in a register; one budget step per iteration, as the closures take), and
//! assignments inside expressions (`IF(c, $res = {"pad($h1)"}, true)`) of a
//! variable the call holds in a register of its own. A root of type Loc or
//! Set gives the name, `{}` or the set built at load for the location
//! (`Game::loc_singletons`), the values the closures give; a name that is no
//! location gives up. So `toLocations=Hops($P, 1)` (`frogs`) and
//! `IF(.., {FreeBin}, {})` with `FreeBin` a `FORSOME` line and `"bin($k)"`
//! (`nim`) run over registers.
//!
//! Since the thirteenth step: `LOCTYPE(LOCATION(..))` of an element named in
//! place or of a `CONTENT` value ([`Ty::LType`], the index of the location's
//! type; compared with string literals), and whole function bodies over
//! registers ([`body`]): a function that is inlinable but for being memoized
//! (`nim-orig`'s `Left`, a counting `FORALL` over `STATE` and
//! `LOCTYPE(LOCATION(..))`) runs its body over registers when it runs as a
//! function — a memo miss, a plain run, a call from an expression that is
//! not itself inlined (`compile.rs` `run_func_reg`).
//!
//! Since the seventeenth step: a loop whose body counts, `IF(c, $n = $n +
//! k, true)` or `IF(c, true, $n = $n + k)` with `$n` in a register (`Left`'s
//! and `CountPlaced`'s bodies), increments the register in place
//! (`compile::counting_loop_reg`): no `IF`, assignment or `+` closure per
//! iteration, as the closures' counting loops since the eleventh step. And
//! a register or a variable plus or minus a literal is an operand read in
//! place ([`Leaf::RegAdd`], [`Leaf::VarAdd`]): no closure for `$x + 1`.
//!
//! Since the twenty-sixth step: an inlined call without arguments that reads
//! no variable of the namespace (`nim`'s `FreeBin`) is kept per state epoch
//! ([`CallCache`]); a loop whose body is `EMPTY`/`NOT EMPTY` of a location named
//! over its own register is one closure ([`scan_loop`]); a counting loop
//! whose condition compares `STATE`, `OWNER` or `LOCTYPE(LOCATION(..))` of
//! one element named over its register looks the name up once per iteration
//! in one closure ([`element_tests`]); and an `OR` of `AND`s (or `AND` of
//! `OR`s) with at least [`MIN_FORMULA_TESTS`] tests of the position is two
//! loops in one closure ([`Formula`], `tictactoe-orig`'s `HasLine`
//! residuals). Each gives the values, reads, give-ups and budget steps of
//! the closures it replaces (a kept value, like a memo entry, saves the
//! steps of the call).
//!
//! Since the twenty-eighth step: a counting loop may keep its counts
//! ([`ElemCount::lower_kept`]) when one of its comparisons has a right side
//! that is a parameter rather than a literal (`nim-orig`'s `Left($LR)`,
//! `STATE("m($LE)") == $LR`): one count per value of it, and loops of one
//! shape share their counts ([`kept_shape`]), so the end check's sum over
//! the rows and the rule condition's copies specialized per row read the
//! same counts. `memo::kept_count` knows these loops in the source's terms:
//! a function whose weight is such a loop is not memoized (the count kept
//! per position is cheaper than an entry's check). A call whose arguments
//! are integer literals and that reads no variable of the namespace is
//! closed like one without arguments: kept per state epoch ([`CallCache`]), one
//! slot per function, type and arguments (`Left(3)` in the copies of
//! `CanTake` specialized for the matches of row 3). A scan over a literal
//! range keeps where it stopped per position ([`KeptScan`]: `nim`'s
//! `FreeBin` looks at the bin it found last and on).
//!
//! A user function is inlinable when it is defined with as many parameters
//! as the call has arguments, is not memoized, all its parameters are dead
//! (`memo::dead_vars`: nothing can observe what a call leaves in them; since
//! the sixty-fourth step, below, others are held or written through), every
//! body line but the last assigns a variable (so it passes: an
//! assignment gives `true`), is a loop, or is a Bool
//! guard (a false one ends the call with `false`, §5.9: allowed when the
//! last line is Bool, Loc or Set — the register form gives up on a false
//! guard of a Loc or Set function — or when the line cannot be false,
//! `memo::always_true`), and the last line, the
//! guards and the assigned values are pure expressions themselves. Its parameters and dead locals live in
//! registers of the evaluation instead of the namespace; a dead variable is
//! mentioned by this one function only and read only after a write in the
//! same invocation, so no expression can tell the difference.
//!
//! Since the sixty-fourth step an inlined call may also write variables
//! that are not dead: a global that several functions share, a parameter
//! or loop variable that another function reads after the call
//! (`reversi6`'s `FlipRay` reads `Flanks`' `$dx`, `$dy` and `$k`). Such a
//! variable is *held* in registers like a dead one and written into the
//! namespace when the call ends — at a false guard line the ones written
//! so far ([`Inlined::outs`]), after the last line all of them
//! ([`Inlined::out_end`]) — when no function the call calls mentions it
//! (following calls: nothing else can see the namespace's value while the
//! call runs) and it is a parameter or written only by lines of its own
//! (so which writes happened is known at each line; a read before its first
//! write is the namespace's). Any other is *written through* at once
//! ([`Pure::Write`], [`Pure::LiveLoop`]) and read from the namespace. A
//! root whose tree writes variables runs through [`logged`]: the writes are
//! logged with the values before (`Vars::write_logged`), and put back when
//! the root gives up, so its closures run from the variables as they were.
//!
//! The evaluation has no side effect but the evaluation-budget steps of the
//! inlined calls (one per call, as `Ctx::enter_call` takes) and, in a game
//! with memoized functions, the position reads of `EMPTY` recorded for
//! `memo.rs` (as the closures record them). Whenever it cannot give the
//! value the closures would give — a variable unbound or not an Int, an
//! overflow, a division by zero, a name the id table cannot decide, the
//! budget or the recursion limits near — it gives up: the steps it took and
//! the reads it recorded are put back and the expression runs through its
//! closures, which give the value or the error of the reference evaluator.
//! So the value, the variables, the budget, the recorded reads and every
//! error are those of the closures. (Since the sixty-fourth step the
//! variables a call writes are a side effect too, put back on a give-up as
//! described above.)

use crate::compile::{Compiler, IdArg, IdTable};
use crate::eval::Ctx;
use crate::expr::{Builtin, Expr, VarId};
use crate::lexer::Op;
use crate::state::Attr;
use crate::value::Value;

mod reads;

/// Registers per evaluation (parameters and dead locals of inlined calls).
pub(crate) const REGS: usize = 16;
/// Inlined calls nested at most.
const MAX_NEST: u32 = 4;

/// A pure expression (see the module documentation).
pub(crate) enum Pure {
    Lit(i32),
    BoolLit(bool),
    /// A variable of the namespace that must hold an Int.
    Var(VarId),
    /// A register (an inlined call's parameter or dead local).
    Reg(u8),
    /// `+ - * / %` (Int) or a comparison (Bool) of two Ints.
    Bin(Op, Box<Pure>, Box<Pure>),
    And(Box<Pure>, Box<Pure>),
    Or(Box<Pure>, Box<Pure>),
    Not(Box<Pure>),
    Abs(Box<Pure>),
    Neg(Box<Pure>),
    If(Box<Pure>, Box<Pure>, Box<Pure>),
    Call(Box<Inlined>),
    /// `EMPTY(..)` of a literal location name or of a template over one or
    /// two Ints.
    Empty(Box<PLoc>),
    /// `CONTENT(..)` of a location named as for `EMPTY`: an [`Ty::Elem`].
    Content(Box<PLoc>),
    /// `OWNER(..)` (`Attr::Owner`) or `STATE(..)` (`Attr::State`) of an
    /// element: an Int.
    Attr(Attr, Box<PElem>),
    /// A location name built from a template over one or two Ints: a
    /// [`Ty::Loc`] (give up when the name is no location).
    Loc(Box<PLoc>),
    /// `LOCTYPE(LOCATION(..))` of an element: a [`Ty::LType`].
    LocTypeOf(Box<PElem>),
    /// `ELTYPE(..)` of an element: a [`Ty::EType`].
    ElTypeOf(Box<PElem>),
    /// An assignment of a variable held in a register of its own: `true`.
    Assign(u8, Box<Pure>),
    /// `FORALL` (`all`) or `FORSOME` with its variable in a register.
    Loop(Box<PLoop>),
    /// A call of a memoized function (issue 18 fifteenth step): its memo
    /// entry looked up, or, when its table is off, its body inlined.
    Memo(Box<PMemo>),
    /// An assignment, inside an inlined call, of a variable of the namespace
    /// that is not dead (a caller or another function reads what it leaves:
    /// a global shared by several functions, a parameter another function
    /// reads) to an Int: written through at once (`Vars::write_logged`), as
    /// the closures write it; `true`. (Issue 18, sixty-fourth step.)
    Write(VarId, Box<Pure>),
    /// `FORALL`/`FORSOME` over a variable that is not dead ([`LiveLoop`]).
    LiveLoop(Box<LiveLoop>),
}

/// A loop over a variable of the namespace that is not dead: the variable
/// written through before each iteration (`Vars::write_logged`), read by the
/// body from the namespace, as `compile::over_range` runs the closures'
/// loops; one budget step per iteration.
pub(crate) struct LiveLoop {
    all: bool,
    var: VarId,
    from: Pure,
    to: Pure,
    body: Pure,
}

/// A call of a memoized user function whose parameters are all dead, with
/// Int arguments (issue 18 fifteenth step): with its table on, the entry for
/// the argument values when one is valid (`compile::memo_call_reg`, what the
/// call's closures would use); with its table off (or bypassed), its body
/// inlined as any inlined call when the function is inlinable but for being
/// memoized. Anything else (no valid entry, no inlined form) gives up, so a
/// function runs, stores its entry and takes its budget steps only in the
/// closures, as without the registers.
pub(crate) struct PMemo {
    fid: crate::expr::FuncId,
    /// Whether the call may run the function (a miss, or its table off
    /// without `inline`): it is in tail position ([`Builder::tail`]: no
    /// give-up can follow, so the closures never rerun it after its entry
    /// is stored) and the function calls no memoized function, following
    /// calls (so a run that fails stores no entry either).
    run: bool,
    /// Whether the function has a body over registers
    /// (`Compiler::pure_bodies`): its runs try it first, as its closures do.
    reg_body: bool,
    /// Inlined calls enclosing this one: the call depth the closures would
    /// have here is the evaluation's plus `nest`.
    nest: u32,
    params: Box<[VarId]>,
    /// The arguments (Ints).
    keys: Vec<Pure>,
    /// The call inlined, for when the table is off.
    inline: Option<Inlined>,
}

/// A pure loop: `var` runs from `from` to `to` (both included, either
/// direction), one budget step per iteration, as `Compiler::run_loop`.
pub(crate) struct PLoop {
    all: bool,
    var: u8,
    from: Pure,
    to: Pure,
    body: Pure,
    /// The slot of its kept counts in `Memo::counts` ([`ElemCount`]).
    slot: Option<u16>,
}

/// The element of a pure `OWNER`/`STATE`.
pub(crate) enum PElem {
    /// An [`Ty::Elem`] value (the content of a location).
    Elem(Pure),
    /// An element named by a literal or a template over one or two Ints
    /// (`IdTable` of elements): `None` is no such element.
    Name(PLoc),
}

/// The location (or, in [`PElem::Name`], the element) named in place: a
/// literal name or a template over one or two Ints.
pub(crate) enum PLoc {
    Const(Option<u16>),
    One(Pure, IdTable),
    Two(Pure, Pure, IdTable),
}

/// A body line of an inlined call before its last.
pub(crate) enum Step {
    /// An assignment of a dead variable: into its register.
    Let(u8, Pure),
    /// A Bool line: `false` ends the call with `false`. The flag: it
    /// certainly gives `true` when it gives a value (`memo::always_true`:
    /// an `X OR true`, a loop whose body always gives `true`), so it is run
    /// for what it writes.
    Guard(Pure, bool),
}

/// An inlined call: its arguments into registers, its assignment lines, its
/// last line.
pub(crate) struct Inlined {
    /// How many inlined calls enclose this one, itself included.
    nest: u32,
    args: Vec<(u8, Pure)>,
    steps: Vec<Step>,
    body: Pure,
    /// A call without arguments that reads no variable of the namespace
    /// (`nim`'s `FreeBin`): a function of the position alone, so its value
    /// is kept per state epoch in this slot of `Memo::calls` (see
    /// [`CallCache`]).
    cache: Option<u16>,
    /// With `cache`: the slot is used by checks that run once a position
    /// alone ([`crate::compile::NewCallSlots::KnownReads`]), so it is given
    /// up when it keeps finding no value to use ([`CallCache`]).
    once: bool,
    /// With `cache`: the bits of `State::changed` standing for what the
    /// call may read of the position ([`Inlined::read_bits`]), so a value
    /// kept in the parent epoch holds when none of them changed since.
    reads: u64,
    /// Without `cache`, a call of one Int argument in a caller's register:
    /// that register and the slots of the function's calls with a literal
    /// argument, by the literal. A call whose argument has a slot takes
    /// the value kept there for the state's epoch, or keeps the value it
    /// gives there ([`call_int`]).
    keyed: Option<(u8, KeyedSlots)>,
    /// Variables that are not dead held in registers of the call
    /// ([`Entered::held`]): per line before the last (`steps`), what the
    /// call writes into the namespace when that line is a false guard (the
    /// call ends there); empty when the call holds none.
    outs: Vec<Box<[(VarId, Pure)]>>,
    /// What it writes when it gives its value.
    out_end: Box<[(VarId, Pure)]>,
}

/// An inlinable call entered ([`Builder::enter`]).
struct Entered<'a> {
    /// Its arguments into registers.
    argv: Vec<(u8, Pure)>,
    /// Its lines before the last.
    steps: Vec<Step>,
    /// Per step, what it publishes when it ends the call ([`Inlined::outs`]).
    outs: Vec<Box<[(VarId, Pure)]>>,
    /// The variables that are not dead and that the call holds in registers
    /// (see [`Builder::enter`]), in the order of their first writes.
    held: Vec<VarId>,
    /// The scope of its last line.
    inner: Scope,
    last: &'a Expr,
}

/// Where each variable of `held` is in `scope` (its latest slot), to be
/// written into the namespace ([`publish`]).
fn held_slots(held: &[VarId], scope: &Scope) -> Box<[(VarId, Pure)]> {
    held.iter()
        .filter_map(|&v| {
            let &(_, slot, _) = scope.iter().rev().find(|(w, ..)| *w == v)?;
            Some((
                v,
                match slot {
                    Slot::Reg(r) | Slot::Alias(r) => Pure::Reg(r),
                    Slot::Lit(i) => Pure::Lit(i),
                },
            ))
        })
        .collect()
}

/// [`Inlined::keyed`]: the slots of the literal arguments from `lo` on
/// (`u16::MAX`: none), at most [`MAX_CALL_SLOTS`] values.
#[derive(Clone)]
struct KeyedSlots {
    lo: i32,
    slots: Box<[u16]>,
}

impl KeyedSlots {
    fn new(list: &[(i32, u16)]) -> Option<KeyedSlots> {
        let lo = list.iter().map(|l| l.0).min()?;
        let hi = list.iter().map(|l| l.0).max()?;
        let n = usize::try_from(i64::from(hi) - i64::from(lo) + 1).ok()?;
        if n > MAX_CALL_SLOTS {
            return None;
        }
        let mut slots = vec![u16::MAX; n];
        for &(x, at) in list {
            slots[(x - lo) as usize] = at;
        }
        Some(KeyedSlots {
            lo,
            slots: slots.into(),
        })
    }

    #[inline(always)]
    fn get(&self, x: i32) -> Option<usize> {
        let i = x.wrapping_sub(self.lo) as u32 as usize;
        self.slots
            .get(i)
            .filter(|&&at| at != u16::MAX)
            .map(|&at| at as usize)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ty {
    Int,
    Bool,
    /// What `CONTENT` gives, held in an `i32` like an Int: the occupant's
    /// element id, or [`NO_ELEM`] for `""` (an empty location or no such
    /// location). Only built when no element is named `""`, so that two
    /// such values are equal exactly when the names the closures compare
    /// are (element names are distinct symbols, none of them `""`).
    Elem,
    /// A location name (a string literal or a template naming a location),
    /// held as the location's id.
    Loc,
    /// A set of at most one location name (`{}` or `{name}`): [`NO_SET`] or
    /// the location's id.
    Set,
    /// What `LOCTYPE(LOCATION(..))` gives, held like an Int: the index of
    /// the element's location type, or [`NO_LTYPE`] for `""` (no such
    /// element: `LOCATION` gives `""`, and `LOCTYPE("")` is `""`). Only
    /// built when no location and no location type is named `""` and the
    /// location types' names are distinct (`Compiler::ltypes`), so that two
    /// such values are equal exactly when the names are.
    LType,
    /// What `ELTYPE(..)` gives, held like an Int: the index of the
    /// element's type, or [`NO_LTYPE`] for `""` (no such element). Only
    /// built when no element type is named `""` and their names are distinct
    /// (`Compiler::etypes`).
    EType,
}

/// The [`Ty::LType`] value of `""`.
pub(crate) const NO_LTYPE: i32 = -1;
/// The [`Ty::LType`] code of a string literal that is neither `""` nor a
/// location type's name: equal to no value `LOCTYPE(LOCATION(..))` gives.
const NOT_LTYPE: i32 = -2;

/// The [`Ty::Set`] value of `{}`.
pub(crate) const NO_SET: i32 = -1;

/// The [`Ty::Elem`] value of `""`.
pub(crate) const NO_ELEM: i32 = -1;
/// The [`Ty::Elem`] code of a string literal that is neither `""` nor an
/// element name: equal to no value `CONTENT` gives.
const NOT_ELEM: i32 = -2;

/// Builds [`Pure`] trees for one root expression.
struct Builder<'c, 'a> {
    c: &'c Compiler<'a>,
    regs: u8,
    calls: u32,
    /// Whether [`Ty::Elem`] values may be built.
    elems: bool,
    /// Whether [`Ty::LType`] values may be built.
    ltypes: bool,
    /// Whether [`Ty::EType`] values may be built.
    etypes: bool,
    /// The function whose whole body is built ([`body`]): its call at the
    /// root is built even though it is memoized.
    top: Option<crate::expr::FuncId>,
    /// Whether calls of memoized functions may be built ([`Pure::Memo`]).
    memo_calls: bool,
    /// Whether the expression being built is in tail position: once it has
    /// a value, nothing evaluated after it in the root can give up (it is
    /// the root, the second operand of an `AND`, `OR` or comparison in tail
    /// position, the operand of a `NOT` or a branch of an `IF` in tail
    /// position, or the last line of an inlined call in tail position). Set
    /// just before building it; [`Builder::build`] clears it for the
    /// operands.
    tail: bool,
    /// The memoized function whose call is being inlined for a
    /// [`PMemo::inline`]: built even though it is memoized.
    inline_memo: Option<crate::expr::FuncId>,
    /// Whether the tree writes variables of the namespace ([`Pure::Write`],
    /// [`Pure::LiveLoop`]): its root is then run through [`logged`], and
    /// the roots that keep or reuse values without running them refuse it.
    live: bool,
    /// Set just before a loop line over a held variable is built
    /// ([`Builder::enter`]): that loop takes no form that may leave its
    /// register unset (kept counts, [`KeptElemCount`], [`SummedCounts`]),
    /// since the call writes the register's last value into the variable.
    held_loop: bool,
}

/// The variables of one inlined call, with their types: each in a register,
/// or (a parameter whose argument is a literal or a register of the caller)
/// that literal or register itself (no copy, no register of its own: a
/// register is never written again while the call that allocated it runs,
/// since an assignment takes a new one).
type Scope = Vec<(VarId, Slot, Ty)>;

#[derive(Clone, Copy)]
enum Slot {
    /// A register of the call's own: it may be written in place (an
    /// assignment inside an expression, a loop variable).
    Reg(u8),
    /// A register of the caller (an aliased parameter): read only.
    Alias(u8),
    Lit(i32),
}

impl<'c, 'a> Builder<'c, 'a> {
    /// A builder at the root of an expression (in tail position, no
    /// register taken yet), building the whole body of `top` if given and
    /// calls of memoized functions when `memo_calls`.
    fn at_root(
        c: &'c Compiler<'a>,
        top: Option<crate::expr::FuncId>,
        memo_calls: bool,
    ) -> Builder<'c, 'a> {
        Builder {
            c,
            regs: 0,
            calls: 0,
            // Elem values need `""` to be no element's name (see `Ty::Elem`).
            elems: c.elem_id(c.empty_sym).is_none(),
            ltypes: c.ltypes,
            etypes: c.etypes,
            top,
            memo_calls,
            inline_memo: None,
            tail: true,
            live: false,
            held_loop: false,
        }
    }

    /// [`Pure::Write`] of `v` (the tree is then [`Builder::live`]).
    fn write(&mut self, v: VarId, x: Pure) -> Pure {
        self.live = true;
        #[cfg(test)]
        WRITES_BUILT.with(|n| n.set(n.get() + 1));
        Pure::Write(v, Box::new(x))
    }

    fn reg(&mut self) -> Option<u8> {
        if (self.regs as usize) < REGS {
            self.regs += 1;
            Some(self.regs - 1)
        } else {
            None
        }
    }

    /// `e` as a pure tree with its type; `scope` is `None` at the root (every
    /// variable read from the namespace) and the registers of the inlined
    /// call being built otherwise.
    fn build(&mut self, e: &Expr, scope: Option<&Scope>, nest: u32) -> Option<(Pure, Ty)> {
        // Whether `e` is in tail position ([`Builder::tail`]); its operands
        // are not unless marked so below.
        let tail = std::mem::replace(&mut self.tail, false);
        let built = self.build_at(e, scope, nest, tail);
        self.tail = false;
        built
    }

    /// [`Builder::build`] of `e`, in tail position when `tail`.
    fn build_at(
        &mut self,
        e: &Expr,
        scope: Option<&Scope>,
        nest: u32,
        tail: bool,
    ) -> Option<(Pure, Ty)> {
        Some(match e {
            &Expr::Int(i) => (Pure::Lit(i), Ty::Int),
            &Expr::Bool(b) => (Pure::BoolLit(b), Ty::Bool),
            &Expr::Var(v) => match scope {
                None => (Pure::Var(v), Ty::Int),
                Some(s) => match s.iter().rev().find(|(w, ..)| *w == v) {
                    Some(&(_, Slot::Reg(r) | Slot::Alias(r), ty)) => (Pure::Reg(r), ty),
                    Some(&(_, Slot::Lit(i), ty)) => (Pure::Lit(i), ty),
                    // A dead variable of another function, or read before
                    // this call writes it: not inlined.
                    None if self.c.dead.get(v as usize).copied().unwrap_or(true) => return None,
                    None => (Pure::Var(v), Ty::Int),
                },
            },
            Expr::Unary(Op::Not, x) => (
                Pure::Not(Box::new({
                    self.tail = tail;
                    self.of(x, Ty::Bool, scope, nest)?
                })),
                Ty::Bool,
            ),
            Expr::Unary(Op::Abs, x) => (
                Pure::Abs(Box::new(self.of(x, Ty::Int, scope, nest)?)),
                Ty::Int,
            ),
            Expr::Unary(Op::Sub, x) => (
                Pure::Neg(Box::new(self.of(x, Ty::Int, scope, nest)?)),
                Ty::Int,
            ),
            Expr::Binary(op @ (Op::Eq | Op::Ne), a, b)
                if self.elems || self.ltypes || self.etypes =>
            {
                // Two values of the same type (Int, Elem, LType, EType),
                // or an Elem, LType or EType and a string literal.
                let side = |b: &mut Self, x: &Expr| match *x {
                    Expr::Str(s) => Some(Err(s)),
                    _ => b.build(x, scope, nest).map(Ok),
                };
                let x = side(self, a)?;
                // The comparison cannot give up once its operands have
                // values: the second is in tail position if it is.
                self.tail = tail;
                let y = side(self, b)?;
                // A string literal compared with a value of type `t`.
                let lit = |b: &Self, s, t| match t {
                    Ty::Elem => Some(Pure::Lit(b.elem_code(s))),
                    Ty::LType => Some(Pure::Lit(b.ltype_code(s))),
                    Ty::EType => Some(Pure::Lit(b.etype_code(s))),
                    _ => None,
                };
                let (x, y) = match (x, y) {
                    (Ok((x, tx)), Ok((y, ty)))
                        if tx == ty && matches!(tx, Ty::Elem | Ty::Int | Ty::LType | Ty::EType) =>
                    {
                        (x, y)
                    }
                    (Ok((x, t)), Err(s)) => (x, lit(self, s, t)?),
                    (Err(s), Ok((y, t))) => (lit(self, s, t)?, y),
                    _ => return None,
                };
                (Pure::Bin(*op, Box::new(x), Box::new(y)), Ty::Bool)
            }
            Expr::Builtin(Builtin::LocType, a) if a.len() == 1 && self.ltypes => {
                let Expr::Builtin(Builtin::Location, x) = &a[0] else {
                    return None;
                };
                let [x] = &x[..] else { return None };
                (
                    Pure::LocTypeOf(Box::new(self.elem_arg(x, scope, nest)?)),
                    Ty::LType,
                )
            }
            Expr::Builtin(Builtin::ElType, a) if a.len() == 1 && self.etypes => (
                Pure::ElTypeOf(Box::new(self.elem_arg(&a[0], scope, nest)?)),
                Ty::EType,
            ),
            Expr::Binary(op, a, b) => {
                let (arg, ty) = match op {
                    Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Rem => (Ty::Int, Ty::Int),
                    Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => (Ty::Int, Ty::Bool),
                    Op::And | Op::Or => (Ty::Bool, Ty::Bool),
                    _ => return None,
                };
                let x = Box::new(self.of(a, arg, scope, nest)?);
                // `AND`, `OR` and the comparisons cannot give up once their
                // second operand has a value (the integer operators can).
                self.tail = tail && ty == Ty::Bool;
                let y = Box::new(self.of(b, arg, scope, nest)?);
                let p = match op {
                    Op::And => Pure::And(x, y),
                    Op::Or => Pure::Or(x, y),
                    _ => Pure::Bin(*op, x, y),
                };
                (p, ty)
            }
            Expr::Builtin(Builtin::If, a) if a.len() == 3 => {
                let cond = self.of(&a[0], Ty::Bool, scope, nest)?;
                self.tail = tail;
                let (t, ty) = self.build(&a[1], scope, nest)?;
                self.tail = tail;
                let f = self.of(&a[2], ty, scope, nest)?;
                (Pure::If(Box::new(cond), Box::new(t), Box::new(f)), ty)
            }
            Expr::Builtin(Builtin::Empty, a) if a.len() == 1 => {
                let loc = self.name(self.c.loc_in_place(&a[0])?, scope, nest)?;
                (Pure::Empty(Box::new(loc)), Ty::Bool)
            }
            Expr::Builtin(Builtin::Content, a) if a.len() == 1 && self.elems => {
                let loc = self.name(self.c.loc_in_place(&a[0])?, scope, nest)?;
                (Pure::Content(Box::new(loc)), Ty::Elem)
            }
            Expr::Builtin(b @ (Builtin::Owner | Builtin::State), a)
                if a.len() == 1 && self.elems =>
            {
                let attr = if *b == Builtin::Owner {
                    Attr::Owner
                } else {
                    Attr::State
                };
                let el = self.elem_arg(&a[0], scope, nest)?;
                (Pure::Attr(attr, Box::new(el)), Ty::Int)
            }
            Expr::Call(fid, args)
                if self.memo_calls
                    && self.c.memo_funcs.get(*fid as usize) == Some(&true)
                    && !(nest == 0 && self.top == Some(*fid))
                    && self.inline_memo != Some(*fid) =>
            {
                self.memo_call(*fid, args, scope, nest, tail)?
            }
            Expr::Call(fid, args) => self.inline_call(*fid, args, scope, nest, tail)?,
            // A location name: its id (a literal naming no location is left
            // to the closures).
            Expr::Str(_) => (
                Pure::Lit(i32::from(self.c.loc_in_place(e).and_then(
                    |id| match id {
                        IdArg::Const(l) => l,
                        _ => None,
                    },
                )?)),
                Ty::Loc,
            ),
            Expr::Interp(_) => match self.name(self.c.loc_in_place(e)?, scope, nest)? {
                PLoc::Const(l) => (Pure::Lit(i32::from(l?)), Ty::Loc),
                loc => (Pure::Loc(Box::new(loc)), Ty::Loc),
            },
            // `{}` and `{name}`: the set of at most one location.
            Expr::Set(xs) => match &xs[..] {
                [] => (Pure::Lit(NO_SET), Ty::Set),
                [x] => (self.of(x, Ty::Loc, scope, nest)?, Ty::Set),
                _ => return None,
            },
            // An assignment of a variable of this call held in a register
            // of its own, with a value of the same type: written in place.
            Expr::Assign(v, x) => match scope?.iter().rev().find(|(w, ..)| w == v) {
                Some(&(_, Slot::Reg(r), ty)) => {
                    let x = self.of(x, ty, scope, nest)?;
                    (Pure::Assign(r, Box::new(x)), Ty::Bool)
                }
                Some(_) => return None,
                // A variable that is not dead, inside an inlined call:
                // written through.
                None if self.c.dead.get(*v as usize) == Some(&false) => {
                    let x = self.of(x, Ty::Int, scope, nest)?;
                    (self.write(*v, x), Ty::Bool)
                }
                None => return None,
            },
            Expr::Loop {
                all,
                var,
                from,
                to,
                body,
            } => {
                let held = std::mem::take(&mut self.held_loop);
                // A memoized body (`memo::units`) keeps its table.
                if self
                    .c
                    .units
                    .iter()
                    .any(|u| u.0 == &**body as *const Expr as usize)
                {
                    return None;
                }
                let from = self.of(from, Ty::Int, scope, nest)?;
                let to = self.of(to, Ty::Int, scope, nest)?;
                // The variable: its register when this call already has one
                // for it, else (a dead variable) a new one, seen by the body.
                let mut inner = scope?.clone();
                let reg = match inner.iter().rev().find(|(w, ..)| w == var) {
                    Some(&(_, Slot::Reg(r), Ty::Int)) => r,
                    Some(_) => return None,
                    None if self.c.dead.get(*var as usize) == Some(&true) => {
                        let r = self.reg()?;
                        inner.push((*var, Slot::Reg(r), Ty::Int));
                        r
                    }
                    // A variable that is not dead: written through each
                    // iteration, read by the body from the namespace.
                    None if self.c.dead.get(*var as usize) == Some(&false) => {
                        let body = self.of(body, Ty::Bool, scope, nest)?;
                        self.live = true;
                        #[cfg(test)]
                        WRITES_BUILT.with(|n| n.set(n.get() + 1));
                        return Some((
                            Pure::LiveLoop(Box::new(LiveLoop {
                                all: *all,
                                var: *var,
                                from,
                                to,
                                body,
                            })),
                            Ty::Bool,
                        ));
                    }
                    None => return None,
                };
                let body = self.of(body, Ty::Bool, Some(&inner), nest)?;
                // A FORALL counting over elements ([`ElemCount`]) keeps its
                // counts per position.
                let slot = if *all && !held {
                    crate::compile::counting_reg(&body).and_then(|(cond, when, n, _)| {
                        let (tab, tests) = element_tests(cond, reg, false)?;
                        self.kept_slot(tab, &tests, reg, n, when)
                    })
                } else {
                    None
                };
                // A scan over a literal range ([`KeptScan`]) keeps where it
                // stopped per position.
                let slot = slot.or_else(|| {
                    let (tab, _) = scan_body(&body, reg)?;
                    let (a, b) = literal_bounds(&from, &to)?;
                    literal_range_ids(&tab, a, b)?;
                    let s = self.c.scan_slots.get();
                    self.c.scan_slots.set(s.checked_add(1)?);
                    Some(s)
                });
                // A sum of a call's values ([`SummedCounts`]) may keep what
                // its keys counted in its place in `Memo::sums`.
                let slot = slot.or_else(|| {
                    if held {
                        return None;
                    }
                    summing_call(&body)?;
                    let s = self.c.sum_slots.get();
                    self.c.sum_slots.set(s.checked_add(1)?);
                    Some(s)
                });
                (
                    Pure::Loop(Box::new(PLoop {
                        all: *all,
                        var: reg,
                        from,
                        to,
                        body,
                        slot,
                    })),
                    Ty::Bool,
                )
            }
            _ => return None,
        })
    }

    /// The first place in `Memo::counts` of a `FORALL` counting with `tests`
    /// of elements named through `tab` over register `var` into register
    /// `n` when the condition is `when` ([`ElemCount::lower_kept`]), or
    /// `None` when it keeps no counts ([`kept_shape`]). Loops of one shape
    /// share their places (a function's loop inlined in several places,
    /// copies specialized for different values of the keyed comparison):
    /// one loop's count is then the others'.
    fn kept_slot(
        &self,
        tab: IdTable,
        tests: &[ElemTest],
        var: u8,
        n: u8,
        when: bool,
    ) -> Option<u16> {
        let (keyed, sig) = kept_shape(tests, var, n)?;
        let mut shapes = self.c.kept_shapes.borrow_mut();
        if let Some(k) = shapes
            .iter()
            .find(|k| k.when == when && k.sig == sig && k.tab.same_table(&tab))
        {
            return Some(k.slot);
        }
        let slot = self.c.count_slots.get();
        let ways = if keyed.is_some() { KEY_WAYS } else { 1 };
        self.c.count_slots.set(slot.checked_add(ways)?);
        shapes.push(KeptShape {
            tab,
            sig,
            when,
            slot,
        });
        Some(slot)
    }

    /// An inlinable call of `fid` (see the module documentation): its
    /// arguments into registers (in the caller's `scope`), its lines before
    /// the last (assignments into registers, guards), the scope of its body
    /// and its last line.
    ///
    /// A variable that is not dead (another function reads what the call
    /// leaves in it: a global shared by several functions, a parameter read
    /// elsewhere) is *held* in registers like a dead one, and written into
    /// the namespace when the call ends ([`Inlined::outs`],
    /// [`Inlined::out_end`]), when no function the call calls mentions it
    /// (following calls: nothing else that runs while the call does can
    /// read or write the namespace's value meanwhile) and the variable is a
    /// parameter or is written only by lines of its own (an assignment
    /// line, a loop line), so that which writes happened is known at each
    /// line. Before its
    /// first write a read of it is the namespace's. Otherwise it is written
    /// through ([`Pure::Write`], [`Pure::LiveLoop`]) and read from the
    /// namespace.
    fn enter(
        &mut self,
        fid: crate::expr::FuncId,
        args: &[Expr],
        scope: Option<&Scope>,
        nest: u32,
    ) -> Option<Entered<'a>> {
        if nest >= MAX_NEST {
            return None;
        }
        let c: &'c Compiler<'a> = self.c;
        let func = c.funcs.get(fid as usize)?.as_ref()?;
        if func.params.len() != args.len()
            || (c.memo_funcs.get(fid as usize) == Some(&true)
                && !(nest == 0 && self.top == Some(fid))
                && self.inline_memo != Some(fid))
            || !func
                .params
                .iter()
                .all(|&p| c.dead.get(p as usize).is_some())
        {
            return None;
        }
        let (last, lines) = func.body.split_last()?;
        let mut argv = Vec::with_capacity(args.len());
        let mut inner: Scope = Vec::new();
        // Which variables that are not dead are held in registers: not
        // those a function it calls mentions (following calls: that
        // function could read or write the namespace's value while the
        // call runs), nor those written other than by a line of their own.
        let mut through: Vec<VarId> = Vec::new();
        for line in &func.body {
            line.expr.walk(&mut |x| match x {
                Expr::Assign(v, _) | Expr::Loop { var: v, .. } if !std::ptr::eq(x, &line.expr) => {
                    through.push(*v)
                }
                _ => {}
            });
        }
        let called = c.callee_mentions(fid);
        let holds = |v: VarId| {
            c.dead.get(v as usize) == Some(&false)
                && !through.contains(&v)
                && called.is_some_and(|m| !m.contains(&v))
        };
        let mut held: Vec<VarId> = Vec::new();
        // Parameters that are not dead (another function reads them, as
        // `reversi6`'s `FlipRay` reads `Flanks`' `$dx`): held, or written
        // through ([`Pure::Write`]) as the first lines of the call. The
        // closures bind each parameter right after evaluating its argument;
        // here the namespace is written after every argument is in its
        // register, so after such a parameter an argument must be plain (no
        // call, nothing written) and must not read a parameter written
        // before it (nor a held one itself).
        let mut writes: Vec<Step> = Vec::new();
        let mut written: Vec<VarId> = Vec::new();
        for (a, &p) in args.iter().zip(&func.params) {
            let (x, ty) = self.value(a, scope, nest)?;
            let hold = holds(p) && ty == Ty::Int;
            if c.dead.get(p as usize) == Some(&false) && !hold {
                if ty != Ty::Int || x.has_effects() {
                    return None;
                }
                written.push(p);
                let w = self.write(p, x);
                writes.push(Step::Guard(w, true));
                continue;
            }
            if hold {
                written.push(p);
                held.push(p);
            }
            if !written.is_empty() && (x.has_effects() || written.iter().any(|&w| x.reads_var(w))) {
                return None;
            }
            let slot = match x {
                Pure::Reg(r) => Slot::Alias(r),
                Pure::Lit(i) => Slot::Lit(i),
                x => {
                    let r = self.reg()?;
                    argv.push((r, x));
                    Slot::Reg(r)
                }
            };
            inner.push((p, slot, ty));
        }
        // A dead variable assigned inside an expression of the body, not
        // in a line of its own (`($j = 4 - $i) AND ..`): a register for
        // the whole call, an Int (another type gives up where it is
        // assigned). Every read of it follows a write in the same
        // invocation (`memo::dead_vars`), so the register is written first.
        // A variable whose line of its own comes before every such
        // expression needs none: that line's register serves them.
        let own_line = |v: VarId| {
            lines
                .iter()
                .position(|l| matches!(l.expr, Expr::Assign(w, _) if w == v))
        };
        for (at, line) in func.body.iter().enumerate() {
            let e = match &line.expr {
                Expr::Assign(_, x) => &**x,
                e => e,
            };
            let mut nested = Vec::new();
            e.walk(&mut |x| {
                if let Expr::Assign(v, _) = x {
                    nested.push(*v);
                }
            });
            for v in nested {
                if c.dead.get(v as usize) == Some(&true)
                    && !inner.iter().any(|(w, ..)| *w == v)
                    && own_line(v).is_none_or(|own| own >= at)
                {
                    let r = self.reg()?;
                    inner.push((v, Slot::Reg(r), Ty::Int));
                }
            }
        }
        // One entry per step: what a false guard there publishes.
        let mut outs: Vec<Box<[(VarId, Pure)]>> = writes.iter().map(|_| Box::default()).collect();
        let mut steps = writes;
        for line in lines {
            // A loop line over a held variable (its own register, or one
            // this call has for it already) must leave its register set.
            self.held_loop = matches!(&line.expr, Expr::Loop { var, .. } if holds(*var));
            match &line.expr {
                Expr::Assign(v, x) if c.dead.get(*v as usize) == Some(&true) => {
                    let (x, ty) = self.value(x, Some(&inner), nest + 1)?;
                    let r = self.reg()?;
                    steps.push(Step::Let(r, x));
                    inner.push((*v, Slot::Reg(r), ty));
                }
                // A held variable: into a register, as a dead one.
                Expr::Assign(v, x) if holds(*v) => {
                    let x = self.of(x, Ty::Int, Some(&inner), nest + 1)?;
                    let r = self.reg()?;
                    steps.push(Step::Let(r, x));
                    inner.push((*v, Slot::Reg(r), Ty::Int));
                    if !held.contains(v) {
                        held.push(*v);
                    }
                }
                // A variable that is not dead: written through.
                Expr::Assign(v, x) if c.dead.get(*v as usize) == Some(&false) => {
                    let x = self.of(x, Ty::Int, Some(&inner), nest + 1)?;
                    let w = self.write(*v, x);
                    steps.push(Step::Guard(w, true));
                }
                Expr::Assign(..) => return None,
                // A loop line over a dead variable: its register stays in
                // scope for the later lines (a loop that gives a value has
                // set its variable).
                Expr::Loop { var, .. }
                    if (c.dead.get(*var as usize) == Some(&true) || holds(*var))
                        && !inner.iter().any(|(w, ..)| w == var) =>
                {
                    let r = self.reg()?;
                    inner.push((*var, Slot::Reg(r), Ty::Int));
                    if holds(*var) && !held.contains(var) {
                        held.push(*var);
                    }
                    steps.push(Step::Guard(
                        self.of(&line.expr, Ty::Bool, Some(&inner), nest + 1)?,
                        crate::memo::always_true(&line.expr),
                    ));
                }
                e => steps.push(Step::Guard(
                    self.of(e, Ty::Bool, Some(&inner), nest + 1)?,
                    crate::memo::always_true(e),
                )),
            }
            // What a false guard line here publishes: the held variables
            // written before it, and its own loop's variable.
            outs.push(match steps.last() {
                Some(Step::Guard(..)) => held_slots(&held, &inner),
                _ => Box::default(),
            });
        }
        if !held.is_empty() {
            self.live = true;
        }
        Some(Entered {
            argv,
            steps,
            outs,
            held,
            inner,
            last: &last.expr,
        })
    }

    /// An inlinable call of `fid` (see [`Builder::enter`]) inlined.
    fn inline_call(
        &mut self,
        fid: crate::expr::FuncId,
        args: &[Expr],
        scope: Option<&Scope>,
        nest: u32,
        tail: bool,
    ) -> Option<(Pure, Ty)> {
        let mark = self.regs;
        let Entered {
            argv,
            steps,
            outs,
            held,
            inner,
            last,
        } = self.enter(fid, args, scope, nest)?;
        // The last line is evaluated last: in tail position if the call is.
        self.tail = tail;
        let (body, ty) = self.build(last, Some(&inner), nest + 1)?;
        // A false guard line gives `false`. In a Loc or Set
        // function the lowered call gives up then (`lower_int`); an
        // Int or Elem node is one the closures must give an Int for
        // (`Compiler::pure_node`), so such a function is inlined only
        // when its guard lines cannot be false.
        if matches!(ty, Ty::Int | Ty::Elem)
            && steps.iter().any(|s| matches!(s, Step::Guard(_, false)))
        {
            return None;
        }
        self.calls += 1;
        // The call's registers are above those of the enclosing
        // calls and free again once it has given its value (a
        // stack): its siblings and later lines reuse them.
        self.regs = mark;
        let mut call = Inlined {
            nest: nest + 1,
            args: argv,
            steps,
            body,
            cache: None,
            once: false,
            reads: u64::MAX,
            keyed: None,
            outs,
            out_end: held_slots(&held, &inner),
        };
        #[cfg(test)]
        if !call.out_end.is_empty() {
            HELD_CALLS_BUILT.with(|n| n.set(n.get() + 1));
        }
        // Integer literals as arguments (a call in a copy specialized for
        // one element, `nim-orig`'s `Left(3)`): as closed as none.
        if let Some(lits) = crate::expr::int_literals(args).filter(|_| !call.reads_namespace()) {
            // One slot per function, type and arguments: every such call
            // gives the same value in a position.
            use crate::compile::NewCallSlots;
            let reads = call.read_bits();
            let mut slots = self.c.call_slots.borrow_mut();
            let key = (fid, ty as u8, lits);
            let new = match self.c.new_call_slots.get() {
                NewCallSlots::None => false,
                NewCallSlots::All => true,
                NewCallSlots::KnownReads => {
                    reads != u64::MAX && self.c.moved_bits.borrow().iter().any(|b| b & reads == 0)
                }
            };
            let at = match slots.iter().position(|k| *k == key) {
                Some(at) => Some(at),
                None if new && slots.len() < MAX_CALL_SLOTS => {
                    slots.push(key);
                    self.c.call_slot_reads.borrow_mut().push(reads);
                    if self.c.new_call_slots.get() == NewCallSlots::KnownReads {
                        let once = self.c.once_slots.get() | 1 << (slots.len() - 1);
                        self.c.once_slots.set(once);
                    }
                    Some(slots.len() - 1)
                }
                None => None,
            };
            call.cache = at.map(|at| at as u16);
            call.once = at.is_some_and(|at| self.c.once_slot(at));
            call.reads = reads;
        } else if let [(_, Slot::Alias(reg), _)] = inner[..args.len().min(inner.len())] {
            // One argument in a caller's register (`nim-orig`'s end check
            // `Left($AR)`): the value given for a value that some call with
            // a literal argument has a slot for goes in that slot.
            if ty == Ty::Int && args.len() == 1 && !call.reads_namespace() {
                let list: Vec<(i32, u16)> = self
                    .c
                    .call_slots
                    .borrow()
                    .iter()
                    .enumerate()
                    .filter_map(|(at, (f, t, lits))| match lits[..] {
                        [x] if (*f, *t) == (fid, ty as u8) => Some((x, at as u16)),
                        _ => None,
                    })
                    .collect();
                call.keyed = KeyedSlots::new(&list).map(|k| (reg, k));
            }
        }
        Some((Pure::Call(Box::new(call)), ty))
    }

    /// A call of memoized function `fid` ([`Pure::Memo`]): its parameters
    /// all dead (so a hit need not bind them, as `Compiler::key_args`), its
    /// arguments Ints, and the function Bool, or Int-valued when inlined.
    fn memo_call(
        &mut self,
        fid: crate::expr::FuncId,
        args: &[Expr],
        scope: Option<&Scope>,
        nest: u32,
        tail: bool,
    ) -> Option<(Pure, Ty)> {
        let c: &'c Compiler<'a> = self.c;
        let func = c.funcs.get(fid as usize)?.as_ref()?;
        if func.params.len() != args.len()
            || args.len() > crate::memo::MAX_INPUTS
            || !func
                .params
                .iter()
                .all(|&p| c.dead.get(p as usize) == Some(&true))
        {
            return None;
        }
        let mut keys = Vec::with_capacity(args.len());
        for a in args {
            keys.push(self.of(a, Ty::Int, scope, nest)?);
        }
        // The call inlined, as an ordinary call of it would be; below the
        // root of the expression without memoized calls in it (inlining the
        // memoized calls of every inlined body multiplies the trees built
        // at load).
        let (mark, calls, outer, memo_calls) =
            (self.regs, self.calls, self.inline_memo, self.memo_calls);
        self.inline_memo = Some(fid);
        self.memo_calls = memo_calls && nest == 0;
        let inline = self.inline_call(fid, args, scope, nest, tail);
        (self.inline_memo, self.memo_calls) = (outer, memo_calls);
        self.regs = mark;
        self.calls = calls;
        let (inline, ty) = match inline {
            Some((Pure::Call(call), ty @ (Ty::Int | Ty::Bool))) => (Some(*call), ty),
            _ if c.bool_funcs.get(fid as usize) == Some(&true) => (None, Ty::Bool),
            _ => return None,
        };
        // Not counted as an inlined call: where the table is on, the
        // look-up is what the closures do, at the cost of the registers
        // (`compile` builds a root that is such a call alone).
        Some((
            Pure::Memo(Box::new(PMemo {
                fid,
                run: tail && !c.calls_memoized(fid),
                reg_body: c.pure_bodies.get(fid as usize) == Some(&true),
                nest,
                params: func.params.clone().into(),
                keys,
                inline,
            })),
            ty,
        ))
    }

    /// [`Builder::build`] of an operand that must have type `ty`.
    fn of(&mut self, e: &Expr, ty: Ty, scope: Option<&Scope>, nest: u32) -> Option<Pure> {
        let (p, t) = self.build(e, scope, nest)?;
        (t == ty).then_some(p)
    }

    /// [`Builder::build`] of a value a register holds (an argument, an
    /// assigned value): an Int or an Elem.
    fn value(&mut self, e: &Expr, scope: Option<&Scope>, nest: u32) -> Option<(Pure, Ty)> {
        let (p, t) = self.build(e, scope, nest)?;
        (t != Ty::Bool).then_some((p, t))
    }

    /// A name given in place (`Compiler::loc_in_place`/`elem_in_place`):
    /// its Int arguments in this scope.
    fn name(&mut self, id: IdArg, scope: Option<&Scope>, nest: u32) -> Option<PLoc> {
        let var = |b: &mut Self, v: VarId| b.of(&Expr::Var(v), Ty::Int, scope, nest);
        Some(match id {
            IdArg::Const(l) => PLoc::Const(l),
            IdArg::One(v, tab) => PLoc::One(var(self, v)?, tab),
            IdArg::Two(v, w, tab) => {
                let x = var(self, v)?;
                PLoc::Two(x, var(self, w)?, tab)
            }
            IdArg::Other(_) => return None,
        })
    }

    /// The element argument of `OWNER`, `STATE` or `LOCATION`: named in
    /// place, or an Elem value.
    fn elem_arg(&mut self, x: &Expr, scope: Option<&Scope>, nest: u32) -> Option<PElem> {
        Some(match self.c.elem_in_place(x) {
            Some(id) => PElem::Name(self.name(id, scope, nest)?),
            None if self.elems => PElem::Elem(self.of(x, Ty::Elem, scope, nest)?),
            None => return None,
        })
    }

    /// The [`Ty::LType`] value equal to the string literal `s`.
    fn ltype_code(&self, s: crate::value::Sym) -> i32 {
        if s == self.c.empty_sym {
            NO_LTYPE
        } else {
            match self.c.ltype_sym.iter().position(|&t| t == s) {
                Some(i) => i as i32,
                None => NOT_LTYPE,
            }
        }
    }

    /// The [`Ty::EType`] value equal to the string literal `s`.
    fn etype_code(&self, s: crate::value::Sym) -> i32 {
        if s == self.c.empty_sym {
            NO_LTYPE
        } else {
            match self.c.etype_sym.iter().position(|&t| t == s) {
                Some(i) => i as i32,
                None => NOT_LTYPE,
            }
        }
    }

    /// The [`Ty::Elem`] value equal to the string literal `s`.
    fn elem_code(&self, s: crate::value::Sym) -> i32 {
        if s == self.c.empty_sym {
            NO_ELEM
        } else {
            match self.c.elem_id(s) {
                Some(e) => i32::from(e),
                None => NOT_ELEM,
            }
        }
    }
}

/// `e` as register closures when it is pure and inlines at least one call
/// (pure expressions without calls have closures of their own in
/// `compile.rs`, as fast). Only operators, `IF` and calls are tried as roots.
pub(crate) fn compile(c: &Compiler<'_>, e: &Expr, top: bool) -> Option<Code> {
    compile_with(c, e, top, true)
}

/// [`compile`] of a residual (`specialize.rs`): also without any call (a
/// residual has none), where the registers still save the closures' values.
pub(crate) fn compile_residual(c: &Compiler<'_>, e: &Expr) -> Option<Code> {
    compile_with(c, e, true, false)
}

/// [`compile_residual`] of a residual's set of at most one location `{x}`
/// (the set of a `compile::SplitTargets`; `compile_residual` leaves a set
/// literal at the root to the caller).
pub(crate) fn compile_set(c: &Compiler<'_>, e: &Expr) -> Option<PInt> {
    let mut b = Builder::at_root(c, None, true);
    let (p, ty) = b.build(e, None, 0)?;
    (ty == Ty::Set && !b.live).then(|| lower_int(&p, c.record))
}

/// The leaves of `p`'s chain of `and` (else `or`) nodes, in order.
fn chain<'p>(p: &'p Pure, and: bool, out: &mut Vec<&'p Pure>) {
    match (p, and) {
        (Pure::And(a, b), true) | (Pure::Or(a, b), false) => {
            chain(a, and, out);
            chain(b, and, out);
        }
        _ => out.push(p),
    }
}

/// Whether `p` is an `AND` (else an `OR`), and its chain's operands: the
/// clauses of a [`Formula`] it may be; `None` for any other node.
fn clause_chain(p: &Pure) -> Option<(bool, Vec<&Pure>)> {
    let and = match p {
        Pure::And(..) => true,
        Pure::Or(..) => false,
        _ => return None,
    };
    let mut clauses = Vec::new();
    chain(p, and, &mut clauses);
    Some((and, clauses))
}

/// [`compile_residual`] of a residual used only when it is a formula whose
/// clauses are kept per position ([`kept_formula_shape`]): `None`
/// otherwise (the residual is not to be used).
pub(crate) fn compile_kept_formula(c: &Compiler<'_>, e: &Expr) -> Option<Code> {
    let mut b = Builder::at_root(c, None, true);
    let (p, ty) = b.build(e, None, 0)?;
    (ty == Ty::Bool && b.calls == 0 && !b.live && kept_formula_shape(&p))
        .then(|| Code::Bool(lower_bool(&p, c.record)))
}

/// Whether `p` lowers to a [`KeptFormula`] ([`lower_bool`],
/// [`Formula::lower`], [`keepable`]): an `OR` of `AND`s or an `AND` of
/// `OR`s of tests of the position against literals and at most two
/// registers, 4 to 64 × [`KEPT_WORDS`] clauses.
fn kept_formula_shape(p: &Pure) -> bool {
    Formula::shape(p).is_some_and(|s| {
        s.keepable
            && s.tests >= MIN_FORMULA_TESTS
            && (MIN_KEPT_CLAUSES..=64 * KEPT_WORDS).contains(&s.clauses)
    })
}

fn compile_with(c: &Compiler<'_>, e: &Expr, top: bool, need_call: bool) -> Option<Code> {
    // (A residual may be a single built-in, `EMPTY("b(3,2)")`.)
    if !matches!(
        e,
        Expr::Binary(..) | Expr::Unary(..) | Expr::Call(..) | Expr::Builtin(Builtin::If, _)
    ) && (need_call || !matches!(e, Expr::Builtin(..)))
    {
        return None;
    }
    // Calls of memoized functions only in a root that is one such call
    // alone (`Code::OffInt`/`OffBool`), and in its inlined body; or in a
    // residual (`specialize.rs`), which has no closures of its own to fall
    // back on (the expression it stands for runs instead).
    let memo_calls = top
        && (!need_call
            || matches!(e, Expr::Call(f, _) if c.memo_funcs.get(*f as usize) == Some(&true)));
    let mut b = Builder::at_root(c, None, memo_calls);
    let (p, ty) = b.build(e, None, 0)?;
    let rec = c.record;
    // A residual must write no variable (`Ctx::run_special`).
    if b.live && !need_call {
        return None;
    }
    // A call of a memoized function alone: inlined for when its table is
    // off (`Code::OffInt`/`OffBool`), the closures otherwise.
    if let Pure::Memo(m) = &p {
        let call = m.inline.as_ref()?;
        let code = match ty {
            Ty::Int => Code::OffInt(m.fid, call_int(call, rec)),
            Ty::Bool => Code::OffBool(m.fid, call_bool(call, rec)),
            _ => return None,
        };
        return Some(code.logged(b.live));
    }
    if need_call && b.calls == 0 {
        return None;
    }
    let live = b.live;
    Some(Code::logged(
        match ty {
            Ty::Int => Code::Int(lower_int(&p, rec)),
            Ty::Bool => Code::Bool(lower_bool(&p, rec)),
            // An Elem at the root would have to become a name again: left to
            // the closures.
            Ty::Elem | Ty::LType | Ty::EType => return None,
            Ty::Loc => Code::Loc(lower_int(&p, rec)),
            Ty::Set => Code::Set(lower_int(&p, rec)),
        },
        live,
    ))
}

/// The closure of a root whose tree writes variables of the namespace
/// ([`Builder::live`]): what it wrote is put back when it gives up
/// (`Vars::leave_logged`), so that its closures then run from the
/// variables as they were — the give-up leaves no trace, as for any tree.
fn logged<T: 'static>(p: P<T>) -> P<T> {
    Box::new(move |c, r| {
        let mark = c.vars.enter_logged();
        let v = p(c, r);
        c.vars.leave_logged(mark, v.is_some());
        v
    })
}

impl Code {
    /// [`logged`] of the code's closure when `live`.
    fn logged(self, live: bool) -> Code {
        if !live {
            return self;
        }
        match self {
            Code::Int(p) => Code::Int(logged(p)),
            Code::Bool(p) => Code::Bool(logged(p)),
            Code::Loc(p) => Code::Loc(logged(p)),
            Code::Set(p) => Code::Set(logged(p)),
            Code::OffInt(f, p) => Code::OffInt(f, logged(p)),
            Code::OffBool(f, p) => Code::OffBool(f, logged(p)),
        }
    }
}

/// Whether a call of `f` with Int arguments can be inlined at the root of
/// an expression (under `c.memo_funcs`).
pub(crate) fn inlinable(c: &Compiler<'_>, f: crate::expr::FuncId) -> bool {
    let Some(Some(def)) = c.funcs.get(f as usize) else {
        return false;
    };
    let call = Expr::Call(f, def.params.iter().map(|&p| Expr::Var(p)).collect());
    let mut b = Builder::at_root(c, None, false);
    b.build(&call, None, 0).is_some()
}

/// The whole body of user function `f` over registers, for the calls that
/// run it as a function (`compile.rs` `run_func`: a memoized function's
/// misses and plain runs, a call in an expression that is not itself
/// inlined), with its parameters bound in the namespace: the call
/// `f($p1, .., $pn)` at the root, inlined as any call (so `f` must be
/// inlinable but for being memoized, and its calls of memoized functions are
/// not inlined). Only Int and Bool functions; a parameter that does not
/// hold an Int gives up.
pub(crate) fn body(c: &Compiler<'_>, f: crate::expr::FuncId) -> Option<Code> {
    let def = c.funcs.get(f as usize)?.as_ref()?;
    let call = Expr::Call(f, def.params.iter().map(|&p| Expr::Var(p)).collect());
    let mut b = Builder::at_root(c, Some(f), false);
    let (p, ty) = b.build(&call, None, 0)?;
    let rec = c.record;
    let code = match ty {
        Ty::Int => Code::Int(lower_int(&p, rec)),
        Ty::Bool => Code::Bool(lower_bool(&p, rec)),
        _ => return None,
    };
    Some(code.logged(b.live))
}

/// A hoisted rule condition `F(..)` whose last line is `A AND B`
/// (`Ctx::call_split`: `A`'s value is kept for the element's other targets),
/// with `F` inlined: its arguments, lines and both sides over registers.
pub(crate) struct Split {
    pro: Prologue,
    left: PBool,
    right: PBool,
}

/// [`Split`] of the call `F(args)` when `F` is inlinable and its last line is
/// `A AND B`.
pub(crate) fn compile_split(
    c: &Compiler<'_>,
    f: crate::expr::FuncId,
    args: &[Expr],
) -> Option<Split> {
    let mut b = Builder::at_root(c, None, false);
    let Entered {
        argv,
        steps,
        inner,
        last,
        ..
    } = b.enter(f, args, None, 0)?;
    let Expr::Binary(Op::And, x, y) = last else {
        return None;
    };
    let left = b.of(x, Ty::Bool, Some(&inner), 1)?;
    let right = b.of(y, Ty::Bool, Some(&inner), 1)?;
    // `A`'s value is kept for the element's other targets: no writes.
    if b.live {
        return None;
    }
    let rec = c.record;
    let call = Inlined {
        nest: 1,
        args: argv,
        steps,
        body: Pure::BoolLit(true),
        cache: None,
        once: false,
        reads: u64::MAX,
        keyed: None,
        outs: Vec::new(),
        out_end: Box::new([]),
    };
    Some(Split {
        pro: Prologue::of(&call, rec),
        left: lower_bool(&left, rec),
        right: lower_bool(&right, rec),
    })
}

impl Split {
    /// The call's value, with `A`'s value in `c.first_conjunct` when the
    /// lines before the last passed (as `call_split` leaves it); `None`:
    /// give up (the caller puts the budget and the recorded reads back).
    pub(crate) fn run(&self, c: &mut Ctx<'_>) -> Option<bool> {
        let mut r = [0; REGS];
        let passed = if self.pro.steps.is_empty() {
            self.pro.run::<false, true>(c, &mut r)?
        } else {
            self.pro.run::<true, true>(c, &mut r)?
        };
        if !passed {
            return Some(false);
        }
        let a = (self.left)(c, &mut r)?;
        c.first_conjunct = Some(a);
        if !a {
            return Some(false);
        }
        (self.right)(c, &mut r)
    }
}

/// Registers of one evaluation.
pub(crate) type Regs = [i32; REGS];

/// A closure over the registers; `None` means "give up".
type P<T> = Box<dyn Fn(&mut Ctx<'_>, &mut Regs) -> Option<T> + Send + Sync>;
pub(crate) type PInt = P<i32>;
pub(crate) type PBool = P<bool>;

/// A pure expression lowered to closures over registers; `None` from a
/// closure means "give up" (see the module documentation).
pub(crate) enum Code {
    Int(PInt),
    Bool(PBool),
    /// A [`Ty::Loc`]: the location's id.
    Loc(PInt),
    /// A [`Ty::Set`]: [`NO_SET`] or the member's location id.
    Set(PInt),
    /// A call of memoized function `.0` alone ([`PMemo`]), its body inlined:
    /// to run when the function's table is off (`compile::memo_on` gives
    /// `None`); its closures run otherwise.
    OffInt(crate::expr::FuncId, PInt),
    /// [`Code::OffInt`] of a Bool function.
    OffBool(crate::expr::FuncId, PBool),
}

#[inline]
fn fi<G>(g: G) -> PInt
where
    G: Fn(&mut Ctx<'_>, &mut Regs) -> Option<i32> + Send + Sync + 'static,
{
    Box::new(g)
}

#[inline]
fn fb<G>(g: G) -> PBool
where
    G: Fn(&mut Ctx<'_>, &mut Regs) -> Option<bool> + Send + Sync + 'static,
{
    Box::new(g)
}

/// An Int operand, read in place when it is a literal, a variable or a
/// register, or (issue 18 seventeenth step) a register or a variable plus or
/// minus a literal (`$l1 = $lx + $ldx` with `$ldx`'s argument a literal,
/// `$tr + 1`, `$sd - 1`): no closure for the sum.
pub(crate) enum Leaf {
    Lit(i32),
    Var(VarId),
    Reg(u8),
    /// A register plus a literal (`$l1 + 1`; `$x - 1` is `$x + -1`, `- q`
    /// for every `q` but `i32::MIN`, whose negation does not fit): read and
    /// added in place, an overflow gives up as the `+`/`-` closure does.
    RegAdd(u8, i32),
    /// A namespace variable (an Int, else give up) plus a literal, the same
    /// way.
    VarAdd(VarId, i32),
    /// A literal minus a register (`3 - $c`, the other player), the same
    /// way (issue 18 step 57: `reversi6-orig`'s `Run` compares each disc
    /// with `3 - $RC`).
    LitSubReg(i32, u8),
    Node(PInt),
}

impl Leaf {
    fn of(p: &Pure, rec: bool) -> Leaf {
        match p {
            &Pure::Lit(i) => Leaf::Lit(i),
            &Pure::Var(v) => Leaf::Var(v),
            &Pure::Reg(k) => Leaf::Reg(k),
            Pure::Bin(op @ (Op::Add | Op::Sub), x, y) => match (&**x, &**y, op) {
                (&Pure::Reg(k), &Pure::Lit(q), Op::Add)
                | (&Pure::Lit(q), &Pure::Reg(k), Op::Add) => Leaf::RegAdd(k, q),
                (&Pure::Reg(k), &Pure::Lit(q), Op::Sub) if q != i32::MIN => Leaf::RegAdd(k, -q),
                (&Pure::Var(v), &Pure::Lit(q), Op::Add)
                | (&Pure::Lit(q), &Pure::Var(v), Op::Add) => Leaf::VarAdd(v, q),
                (&Pure::Var(v), &Pure::Lit(q), Op::Sub) if q != i32::MIN => Leaf::VarAdd(v, -q),
                (&Pure::Lit(q), &Pure::Reg(k), Op::Sub) => Leaf::LitSubReg(q, k),
                _ => Leaf::Node(lower_int(p, rec)),
            },
            _ => Leaf::Node(lower_int(p, rec)),
        }
    }

    #[inline(always)]
    pub(crate) fn get(&self, c: &mut Ctx<'_>, r: &mut Regs) -> Option<i32> {
        match self {
            Leaf::Lit(i) => Some(*i),
            Leaf::Var(v) => match c.vars.get(*v) {
                Some(Value::Int(i)) => Some(*i),
                _ => None,
            },
            Leaf::Reg(k) => Some(r[*k as usize % REGS]),
            Leaf::RegAdd(k, q) => r[*k as usize % REGS].checked_add(*q),
            Leaf::LitSubReg(q, k) => q.checked_sub(r[*k as usize % REGS]),
            Leaf::VarAdd(v, q) => match c.vars.get(*v) {
                Some(Value::Int(i)) => i.checked_add(*q),
                _ => None,
            },
            Leaf::Node(g) => g(c, r),
        }
    }
}

/// `a op b` over two Int operands, `k` the operator; the usual operand
/// shapes get closures of their own (no dispatch on the operand kinds).
fn bin<T: 'static>(
    a: &Pure,
    b: &Pure,
    rec: bool,
    k: impl Fn(i32, i32) -> Option<T> + Copy + Send + Sync + 'static,
) -> P<T> {
    /// An Int variable of the namespace, or give up.
    macro_rules! var {
        ($c:expr, $v:expr) => {
            match $c.vars.get($v) {
                Some(Value::Int(i)) => *i,
                _ => return None,
            }
        };
    }
    match (Leaf::of(a, rec), Leaf::of(b, rec)) {
        (Leaf::Var(v), Leaf::Var(w)) => Box::new(move |c: &mut Ctx<'_>, _: &mut Regs| {
            let p = var!(c, v);
            k(p, var!(c, w))
        }),
        (Leaf::Var(v), Leaf::Lit(q)) => {
            Box::new(move |c: &mut Ctx<'_>, _: &mut Regs| k(var!(c, v), q))
        }
        (Leaf::Lit(p), Leaf::Var(w)) => {
            Box::new(move |c: &mut Ctx<'_>, _: &mut Regs| k(p, var!(c, w)))
        }
        (Leaf::Reg(x), Leaf::Reg(y)) => Box::new(move |_: &mut Ctx<'_>, r: &mut Regs| {
            k(r[x as usize % REGS], r[y as usize % REGS])
        }),
        (Leaf::Reg(x), Leaf::Lit(q)) => {
            Box::new(move |_: &mut Ctx<'_>, r: &mut Regs| k(r[x as usize % REGS], q))
        }
        (Leaf::Lit(p), Leaf::Reg(y)) => {
            Box::new(move |_: &mut Ctx<'_>, r: &mut Regs| k(p, r[y as usize % REGS]))
        }
        (Leaf::Node(g), Leaf::Lit(q)) => {
            Box::new(move |c: &mut Ctx<'_>, r: &mut Regs| k(g(c, r)?, q))
        }
        (Leaf::Node(g), Leaf::Node(h)) => Box::new(move |c: &mut Ctx<'_>, r: &mut Regs| {
            let p = g(c, r)?;
            k(p, h(c, r)?)
        }),
        (x, y) => Box::new(move |c: &mut Ctx<'_>, r: &mut Regs| {
            let p = x.get(c, r)?;
            k(p, y.get(c, r)?)
        }),
    }
}

/// What an inlined call does before its last line: its arguments into
/// their registers, the limits checked and one budget step
/// (`Ctx::enter_call`), its other lines (assignments into their registers,
/// guards).
struct Prologue {
    nest: u32,
    args: Vec<(u8, Leaf)>,
    /// The other lines when all are assignments (the usual case).
    lets: Vec<(u8, Leaf)>,
    /// The other lines when there are guards among them, in order.
    steps: Vec<PStep>,
}

enum PStep {
    Let(u8, Leaf),
    /// A guard line; with `true`, a line `X OR true` (`Step::Guard` flagged
    /// always true) lowered as `X`, run for what it writes and its
    /// give-ups, its value not asked (the closure for `OR true` saved,
    /// issue 18 step 59).
    /// With what the call publishes when the guard ends it ([`Inlined::outs`]).
    Guard(PBool, bool, Outs),
}

/// Variables held in registers and where ([`Inlined::outs`]), lowered.
type Outs = Box<[(VarId, Leaf)]>;

/// Writes the held variables `outs` into the namespace (logged: the root
/// is [`logged`]).
#[inline]
fn publish(c: &mut Ctx<'_>, r: &mut Regs, outs: &[(VarId, Leaf)]) -> Option<()> {
    for (v, x) in outs {
        let i = x.get(c, r)?;
        c.vars.write_logged(*v, i);
    }
    Some(())
}

impl Prologue {
    fn of(call: &Inlined, rec: bool) -> Prologue {
        let guards = call.steps.iter().any(|s| matches!(s, Step::Guard(..)));
        let mut pro = Prologue {
            nest: call.nest,
            args: call
                .args
                .iter()
                .map(|(k, a)| (*k, Leaf::of(a, rec)))
                .collect(),
            lets: Vec::new(),
            steps: Vec::new(),
        };
        for (at, s) in call.steps.iter().enumerate() {
            let outs = || -> Outs {
                call.outs
                    .get(at)
                    .map(|o| o.iter().map(|(v, x)| (*v, Leaf::of(x, rec))).collect())
                    .unwrap_or_default()
            };
            match s {
                Step::Let(k, a) if !guards => pro.lets.push((*k, Leaf::of(a, rec))),
                Step::Let(k, a) => pro.steps.push(PStep::Let(*k, Leaf::of(a, rec))),
                Step::Guard(Pure::Or(x, t), true) if matches!(**t, Pure::BoolLit(true)) => pro
                    .steps
                    .push(PStep::Guard(lower_bool(x, rec), true, outs())),
                Step::Guard(g, _) => {
                    pro.steps
                        .push(PStep::Guard(lower_bool(g, rec), false, outs()))
                }
            }
        }
        pro
    }

    /// Whether the call has nothing to run before its last line but the
    /// limits and its budget step ([`Prologue::enter`]): its arguments are
    /// literals or the caller's registers (`Builder::enter`'s aliases) and
    /// it has no other lines (`IsValid($x, $y)` inlined).
    fn is_bare(&self) -> bool {
        self.args.is_empty() && self.lets.is_empty() && self.steps.is_empty()
    }

    /// The limits checked (`OUTER`) and one budget step, as
    /// [`Prologue::run`] takes them; `None`: give up.
    ///
    /// Only the outermost inlined call of a tree (`nest` 1, [`Prologue::is_outer`])
    /// checks the limits, for the deepest call it may enclose ([`MAX_NEST`]):
    /// a call of `nest` 2 or more runs inside its enclosing calls' bodies
    /// (a call's arguments are in its caller's scope), at the same call
    /// depth (a memoized run below, `compile::memo_call_run`, puts it back),
    /// and the frames a body adds between them are those of one expression
    /// of bounded depth, which [`Ctx::inline_call_ok`]'s margin already
    /// allows for. `reversi6-orig`'s `Run`, `Colour` and `IsValid`, inlined
    /// in `CanFlip`'s body at call depth 1, spent 13 instructions a call on
    /// the check. Which of the two a call does is chosen when it is lowered
    /// (its closure), not tested per call: a test on the call's nest in the
    /// closures' shared code cost `nim`, whose calls run at depth 0, 2–3 %
    /// in CPU time for nothing.
    #[inline(always)]
    fn enter<const OUTER: bool>(c: &mut Ctx<'_>) -> Option<()> {
        if OUTER && !c.inline_call_ok(MAX_NEST) {
            return None;
        }
        c.vars.step().ok()
    }

    /// Whether the call is the outermost inlined call of its tree, the one
    /// that checks the limits ([`Prologue::enter`]).
    fn is_outer(&self) -> bool {
        self.nest <= 1
    }

    /// `Some(false)` when a guard line was false (the call gives `false`);
    /// `G`: whether the call has guard lines (`steps`), else only `lets`;
    /// `OUTER`: whether it checks the limits ([`Prologue::enter`]).
    #[inline(always)]
    fn run<const G: bool, const OUTER: bool>(&self, c: &mut Ctx<'_>, r: &mut Regs) -> Option<bool> {
        for (k, a) in &self.args {
            r[*k as usize % REGS] = a.get(c, r)?;
        }
        Prologue::enter::<OUTER>(c)?;
        if !G {
            for (k, a) in &self.lets {
                r[*k as usize % REGS] = a.get(c, r)?;
            }
            return Some(true);
        }
        for s in &self.steps {
            match s {
                PStep::Let(k, a) => r[*k as usize % REGS] = a.get(c, r)?,
                PStep::Guard(g, effect, outs) => {
                    if !g(c, r)? && !effect {
                        if !outs.is_empty() {
                            publish(c, r, outs)?;
                        }
                        return Some(false);
                    }
                }
            }
        }
        Some(true)
    }
}

/// Closed inlined calls cached per state epoch, at most (a game has a few).
const MAX_CALL_SLOTS: usize = 64;

/// A closed inlined call ([`Inlined::cache`]) with its value kept in slot
/// `slot` of `Memo::calls` with the epoch of the state it was computed in.
/// Two states of one epoch (not 0) have the same contents (`State::epoch`),
/// and the call reads nothing but the position, so in a state of that epoch
/// it gives the value kept; so it does in a state whose contents derive from
/// the epoch kept (`memo::EpochHistory::changed_from`) when nothing under
/// `reads` ([`Inlined::read_bits`]) changed since, and the value is kept
/// again for the state's epoch. A slot of checks that run once a position
/// alone (`once`) is given up after [`crate::memo::KeptCall::GIVE_UP`]
/// positions in a row without a value to use. Not used while a memoized
/// evaluation records its reads (a kept value would leave the call's reads
/// out of its entry). Like a used memo entry, a kept value saves the budget
/// steps of the call.
#[derive(Clone, Copy, Debug)]
struct CallCache {
    slot: usize,
    reads: u64,
    once: bool,
}

/// What [`CallCache::look`] found.
enum CallKept {
    /// The value to give.
    Value(i32),
    /// Run the call and keep its value for this epoch.
    Keep(u64),
    /// Run the call.
    Run,
}

impl CallCache {
    #[inline(always)]
    fn look(self, c: &mut Ctx<'_>) -> CallKept {
        self.look_in(c.st.get(), &mut c.vars.memo)
    }

    /// [`CallCache::look`] in `st` with the scratch's `memo`.
    #[inline(always)]
    fn look_in(self, st: &crate::state::State, memo: &mut crate::memo::Memo) -> CallKept {
        let epoch = st.epoch;
        if epoch == 0 || memo.depth != 0 {
            return CallKept::Run;
        }
        if let Some(&k) = memo.calls.get(self.slot) {
            if k.epoch == epoch {
                return CallKept::Value(k.value);
            }
            if self.once && k.misses >= crate::memo::KeptCall::GIVE_UP {
                return CallKept::Run;
            }
            // (An empty slot's epoch is 0, which no state derives from.)
            if self.reads != u64::MAX
                && memo
                    .history
                    .changed_from(st, k.epoch)
                    .is_some_and(|ch| ch & self.reads == 0)
            {
                memo.keep_call(self.slot, epoch, k.value, false);
                return CallKept::Value(k.value);
            }
        }
        CallKept::Keep(epoch)
    }

    /// The value kept, else `run`'s (kept when [`CallCache::look`] says so);
    /// `code` and `value` turn a value into what the slot holds and back.
    #[inline(always)]
    fn through<T: Copy>(
        self,
        c: &mut Ctx<'_>,
        r: &mut Regs,
        run: impl Fn(&mut Ctx<'_>, &mut Regs) -> Option<T>,
        code: fn(T) -> i32,
        value: fn(i32) -> T,
    ) -> Option<T> {
        match self.look(c) {
            CallKept::Value(v) => Some(value(v)),
            CallKept::Run => run(c, r),
            CallKept::Keep(epoch) => {
                let v = run(c, r)?;
                self.keep(c, epoch, code(v));
                Some(v)
            }
        }
    }

    #[inline(always)]
    fn keep(self, c: &mut Ctx<'_>, epoch: u64, v: i32) {
        c.vars.memo.keep_call(self.slot, epoch, v, self.once);
    }
}

/// An end-of-game situation that compares a closed call kept in a slot
/// ([`CallCache`]) with a literal (`nim-orig`'s `Total == 0`): in a state
/// where the slot holds the call's value (the same epoch, or one whose
/// reads did not change since, as the call's own closure finds it, the
/// slot then kept for this epoch), the comparison of that value is the
/// situation's value; the engine asks it before running the situation
/// (`Game::apply_with`: after a pass, `Total`'s value is its parent's).
/// When the slot is to be kept for this epoch, the call's prologue and
/// last line over registers (`run`, as [`call_int_run`] builds them for the
/// call inlined alone, [`kept_call_run`]) give the value, kept in the slot
/// as the call's own closure keeps it: the comparison of a literal cannot
/// fail, so this is the situation's closures without the layers above the
/// call (`nim-orig`'s `Total == 0` after a take).
#[derive(Clone)]
pub(crate) struct KeptTest {
    cache: CallCache,
    op: Op,
    lit: i32,
    run: Option<std::sync::Arc<PInt>>,
}

impl std::fmt::Debug for KeptTest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptTest")
            .field("cache", &self.cache)
            .field("op", &self.op)
            .field("lit", &self.lit)
            .field("run", &self.run.is_some())
            .finish()
    }
}

impl KeptTest {
    pub(crate) fn new(
        slot: usize,
        reads: u64,
        once: bool,
        op: Op,
        lit: i32,
        run: Option<PInt>,
    ) -> KeptTest {
        KeptTest {
            cache: CallCache { slot, reads, once },
            op,
            lit,
            run: run.map(std::sync::Arc::new),
        }
    }

    /// Whether a miss runs the call's body alone (`run`).
    #[cfg(test)]
    pub(crate) fn runs_alone(&self) -> bool {
        self.run.is_some()
    }

    /// The situation's value in the context's state when the slot holds
    /// the call's value, or `run` gives it (then kept in the slot); `None`:
    /// neither (the budget as it was; the situation's closures run).
    #[inline(always)]
    pub(crate) fn ask(&self, c: &mut Ctx<'_>) -> Option<bool> {
        match self.cache.look(c) {
            CallKept::Value(v) => Some(compare(self.op, v, self.lit)),
            CallKept::Keep(epoch) => {
                let run = self.run.as_deref()?;
                let steps = c.vars.steps_left();
                let reads = c.vars.memo.buf.len();
                match run(c, &mut [0; REGS]) {
                    Some(v) => {
                        self.cache.keep(c, epoch, v);
                        Some(compare(self.op, v, self.lit))
                    }
                    None => {
                        c.vars.set_steps_left(steps);
                        c.vars.memo.buf.truncate(reads);
                        None
                    }
                }
            }
            CallKept::Run => None,
        }
    }
}

/// The prologue and last line of call `e` of an Int function inlined alone
/// ([`call_int_run`]), when it is inlined with its value kept in slot
/// `slot` ([`Inlined::cache`]): what [`KeptTest`] runs on a miss.
pub(crate) fn kept_call_run(c: &Compiler<'_>, e: &Expr, slot: usize) -> Option<PInt> {
    let mut b = Builder::at_root(c, None, false);
    match b.build(e, None, 0)? {
        (Pure::Call(call), Ty::Int) if !b.live && call.cache.map(usize::from) == Some(slot) => {
            Some(call_int_run(&call, c.record))
        }
        _ => None,
    }
}

impl Inlined {
    /// [`Inlined::out_end`] lowered.
    fn lowered_end(&self, rec: bool) -> Outs {
        self.out_end
            .iter()
            .map(|(v, x)| (*v, Leaf::of(x, rec)))
            .collect()
    }

    fn call_cache(&self) -> Option<CallCache> {
        self.cache.map(|slot| CallCache {
            slot: slot as usize,
            reads: self.reads,
            once: self.once,
        })
    }
}

/// An inlined call of an Int (Loc, Set, Elem) function.
fn call_int(call: &Inlined, rec: bool) -> PInt {
    let run = call_int_run(call, rec);
    if let (None, Some((reg, list))) = (call.cache, &call.keyed) {
        let (reg, list) = (*reg as usize % REGS, list.clone());
        return fi(move |c, r| {
            let Some(slot) = list.get(r[reg]) else {
                return run(c, r);
            };
            let k = CallCache {
                slot,
                reads: u64::MAX,
                once: false,
            };
            k.through(c, r, &run, |v| v, |v| v)
        });
    }
    match call.call_cache() {
        Some(k) => fi(move |c, r| k.through(c, r, &run, |v| v, |v| v)),
        None => run,
    }
}

fn call_int_run(call: &Inlined, rec: bool) -> PInt {
    let pro = Prologue::of(call, rec);
    let body = lower_int(&call.body, rec);
    // A false guard line (a Loc or Set function, or a line that
    // cannot be false, `Builder::build`): the call gives `false`,
    // which no register holds; give up (`None`).
    let end = call.lowered_end(rec);
    if pro.is_outer() {
        prologue_then::<i32, true>(pro, body, None, end)
    } else {
        prologue_then::<i32, false>(pro, body, None, end)
    }
}

/// An inlined call's closure: its prologue (the limits checked when
/// `OUTER`, [`Prologue::enter`]), then `body`; `on_false` when a guard
/// line is false.
fn prologue_then<T: Copy + Send + Sync + 'static, const OUTER: bool>(
    pro: Prologue,
    body: P<T>,
    on_false: Option<T>,
    end: Outs,
) -> P<T> {
    // Held variables written into the namespace once the value is had.
    if !end.is_empty() {
        if pro.steps.is_empty() {
            return Box::new(move |c, r| {
                pro.run::<false, OUTER>(c, r)?;
                let v = body(c, r)?;
                publish(c, r, &end)?;
                Some(v)
            });
        }
        return Box::new(move |c, r| {
            if !pro.run::<true, OUTER>(c, r)? {
                return on_false;
            }
            let v = body(c, r)?;
            publish(c, r, &end)?;
            Some(v)
        });
    }
    if pro.is_bare() {
        return Box::new(move |c, r| {
            Prologue::enter::<OUTER>(c)?;
            body(c, r)
        });
    }
    if pro.steps.is_empty() {
        return Box::new(move |c, r| {
            pro.run::<false, OUTER>(c, r)?;
            body(c, r)
        });
    }
    Box::new(move |c, r| {
        if !pro.run::<true, OUTER>(c, r)? {
            return on_false;
        }
        body(c, r)
    })
}

/// An inlined call of a Bool function.
fn call_bool(call: &Inlined, rec: bool) -> PBool {
    let run = call_bool_run(call, rec);
    match call.call_cache() {
        Some(k) => fb(move |c, r| k.through(c, r, &run, i32::from, |v| v != 0)),
        None => run,
    }
}

fn call_bool_run(call: &Inlined, rec: bool) -> PBool {
    let pro = Prologue::of(call, rec);
    let body = lower_bool(&call.body, rec);
    let end = call.lowered_end(rec);
    if pro.is_outer() {
        prologue_then::<bool, true>(pro, body, Some(false), end)
    } else {
        prologue_then::<bool, false>(pro, body, Some(false), end)
    }
}

/// A call of a memoized function ([`PMemo`]): when its table is off,
/// `inline` (its body inlined), else (when it may run) its plain run
/// (`compile::plain_call_reg`); with the table on, its arguments' values and
/// `compile::memo_call_run` (when it may run) or the valid entry
/// `compile::memo_call_reg` finds; `out` turns the value into the node's.
/// Anything else gives up (the closures run the call).
fn memo_at<T: 'static>(
    m: &PMemo,
    rec: bool,
    inline: Option<P<T>>,
    out: fn(Value) -> Option<T>,
) -> P<T> {
    type Run = fn(
        &mut Ctx<'_>,
        crate::expr::FuncId,
        &crate::memo::MemoInfo,
        &[VarId],
        &[i32],
        u32,
    ) -> Option<Value>;
    type Plain = fn(&mut Ctx<'_>, crate::expr::FuncId, &[VarId], &[i32], u32) -> Option<Value>;
    let keys: Vec<Leaf> = m.keys.iter().map(|k| Leaf::of(k, rec)).collect();
    let (fid, nest, params, may_run) = (m.fid, m.nest, m.params.clone(), m.run);
    let (run, plain): (Run, Plain) = if m.reg_body {
        (
            crate::compile::memo_call_run::<true>,
            crate::compile::plain_call_reg::<true>,
        )
    } else {
        (
            crate::compile::memo_call_run::<false>,
            crate::compile::plain_call_reg::<false>,
        )
    };
    Box::new(move |c: &mut Ctx<'_>, r: &mut Regs| {
        let info = crate::compile::memo_on(c, fid);
        if info.is_none() {
            if let Some(inline) = &inline {
                return inline(c, r);
            }
            if !may_run {
                return None;
            }
        }
        let mut vals = [0; crate::memo::MAX_INPUTS];
        for (x, k) in vals.iter_mut().zip(&keys) {
            *x = k.get(c, r)?;
        }
        let vals = &vals[..keys.len()];
        out(match info {
            None => plain(c, fid, &params, vals, nest)?,
            Some(info) if may_run => run(c, fid, info, &params, vals, nest)?,
            Some(info) => crate::compile::memo_call_reg(c, fid, info, vals)?,
        })
    })
}

fn lower_int(p: &Pure, rec: bool) -> PInt {
    match p {
        &Pure::Lit(i) => fi(move |_, _| Some(i)),
        &Pure::Var(v) => fi(move |c, _| match c.vars.get(v) {
            Some(Value::Int(i)) => Some(*i),
            _ => None,
        }),
        &Pure::Reg(k) => fi(move |_, r| Some(r[k as usize % REGS])),
        Pure::Bin(op, a, b) => match op {
            Op::Add => bin(a, b, rec, i32::checked_add),
            Op::Sub => bin(a, b, rec, i32::checked_sub),
            Op::Mul => bin(a, b, rec, i32::checked_mul),
            Op::Div => bin(a, b, rec, i32::checked_div),
            // `MIN % -1` is 0 in the closures too (`wrapping_rem`).
            Op::Rem => bin(a, b, rec, |x, y| (y != 0).then(|| x.wrapping_rem(y))),
            _ => fi(|_, _| None),
        },
        // `ABS($v - $w)` of two variables in one closure (`puzzle8`).
        Pure::Abs(a) => match &**a {
            Pure::Bin(Op::Sub, x, y) if matches!((&**x, &**y), (Pure::Var(_), Pure::Var(_))) => {
                let (&Pure::Var(v), &Pure::Var(w)) = (&**x, &**y) else {
                    unreachable!()
                };
                crate::compile::abs_sub_vars(v, w)
            }
            _ => {
                let x = Leaf::of(a, rec);
                fi(move |c, r| x.get(c, r)?.checked_abs())
            }
        },
        Pure::Neg(a) => {
            let x = Leaf::of(a, rec);
            fi(move |c, r| x.get(c, r)?.checked_neg())
        }
        Pure::If(cond, t, e) => {
            // `IF([g AND] NOT EMPTY(n), OWNER/STATE(CONTENT(n)), d)`: the
            // location read once ([`guarded_read`]).
            if let Some((g, attr, loc, d)) = guarded_read(cond, t, e) {
                let of = move |c: &mut Ctx<'_>, o: Option<u16>, rec: bool| match o {
                    Some(e) => attr_read(c, attr, e, rec),
                    None => d,
                };
                return match g.map(|g| lower_bool(g, rec)) {
                    Some(g) => {
                        at_occupant(loc, rec, move |c, r| Some((!g(c, r)?).then_some(d)), of)
                    }
                    None => at_occupant(loc, rec, no_pre, of),
                };
            }
            // A branch that is a literal, a register or a variable (plus a
            // literal) is read in place (`IF(c, $n, 0)`), no closure for it.
            let (t, e) = (Leaf::of(t, rec), Leaf::of(e, rec));
            // `IF(($r op q) AND x, t, e)` with such a branch: the register's
            // comparison made in the `IF`'s closure too (issue 18 step 60).
            if let Pure::And(a, rest) = &**cond {
                if let (Some(cmp), false) = (
                    reg_cmp(a),
                    matches!((&t, &e), (Leaf::Node(_), Leaf::Node(_))),
                ) {
                    return if_fused(cmp, lower_bool(rest, rec), t, e);
                }
            }
            let cond = lower_bool(cond, rec);
            match (t, e) {
                (Leaf::Node(t), Leaf::Node(e)) => {
                    fi(move |c, r| if cond(c, r)? { t(c, r) } else { e(c, r) })
                }
                (t, e) => fi(move |c, r| {
                    if cond(c, r)? {
                        t.get(c, r)
                    } else {
                        e.get(c, r)
                    }
                }),
            }
        }
        Pure::Call(call) => call_int(call, rec),
        Pure::Memo(m) => {
            let inline = m.inline.as_ref().map(|call| call_int(call, rec));
            memo_at(m, rec, inline, |v| match v {
                Value::Int(i) => Some(i),
                _ => None,
            })
        }
        Pure::Content(loc) => content_at(loc, rec),
        Pure::Loc(loc) => {
            // No such location: give up (the closures give the name).
            let at = Named::of(loc, rec);
            fi(move |c, r| at.get(c, r)?.map(i32::from))
        }
        Pure::Attr(attr, el) => attr_of(*attr, el, rec),
        Pure::LocTypeOf(el) => loctype_of(el, rec),
        Pure::ElTypeOf(el) => eltype_of(el, rec),
        _ => fi(|_, _| None),
    }
}

/// A comparison of two Ints: its operator and operands.
fn cmp_of(p: &Pure) -> Option<(Op, &Pure, &Pure)> {
    match p {
        Pure::Bin(op @ (Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge), x, y) => {
            Some((*op, x, y))
        }
        _ => None,
    }
}

/// A comparison of a register with a literal (`$x >= 1` in an inlined
/// call): its operator, register and literal.
fn reg_cmp(p: &Pure) -> Option<(Op, u8, i32)> {
    match cmp_of(p)? {
        (op, &Pure::Reg(x), &Pure::Lit(q)) => Some((op, x, q)),
        _ => None,
    }
}

/// `$k` bound to the comparison `$op` of two Ints (a closure the compiler
/// sees through), in `$body`.
macro_rules! by_op {
    ($op:expr, $k:ident, $body:expr) => {
        match $op {
            Op::Eq => {
                let $k = |x: i32, y: i32| x == y;
                $body
            }
            Op::Ne => {
                let $k = |x: i32, y: i32| x != y;
                $body
            }
            Op::Lt => {
                let $k = |x: i32, y: i32| x < y;
                $body
            }
            Op::Le => {
                let $k = |x: i32, y: i32| x <= y;
                $body
            }
            Op::Gt => {
                let $k = |x: i32, y: i32| x > y;
                $body
            }
            _ => {
                let $k = |x: i32, y: i32| x >= y;
                $body
            }
        }
    };
}

/// `(r[x] op q) AND b` (`AND`) or `(r[x] op q) OR b` in one closure: the
/// comparison read in place, no call for it (issue 18 fifteenth step); and
/// when `b` is such a comparison too (`($op >= 1) AND ($op <= 7)`), both in
/// one closure without a call.
fn fused<const AND: bool>(op: Op, x: u8, q: i32, b: &Pure, rec: bool) -> PBool {
    let x = x as usize % REGS;
    if let Some((op2, y, q2)) = reg_cmp(b) {
        let y = y as usize % REGS;
        return by_op!(
            op,
            k,
            by_op!(
                op2,
                k2,
                fb(move |_, r| {
                    let v = k(r[x], q);
                    if AND != v {
                        return Some(v);
                    }
                    Some(k2(r[y], q2))
                })
            )
        );
    }
    let b = lower_bool(b, rec);
    by_op!(
        op,
        k,
        fb(move |c, r| {
            let v = k(r[x], q);
            if AND != v {
                return Some(v);
            }
            b(c, r)
        })
    )
}

/// A comparison of an Int with a literal, `(Run(..) > 0)` (one of a
/// register, [`reg_cmp`], is read in place).
fn node_cmp(p: &Pure) -> Option<(Op, &Pure, i32)> {
    match cmp_of(p)? {
        (op, x, &Pure::Lit(q)) => Some((op, x, q)),
        _ => None,
    }
}

/// `AND` (`AND`) or `OR` whose first operand compares an Int node with a
/// literal ([`node_cmp`]): the comparison made in the same closure, one
/// closure call fewer per evaluation (issue 18 step 58: `reversi6-orig`'s
/// `CanFlip`, an `OR` of eight `Run(..) > 0`).
fn fused_node<const AND: bool>(op: Op, x: &Pure, q: i32, b: &Pure, rec: bool) -> PBool {
    let x = lower_int(x, rec);
    let b = lower_bool(b, rec);
    by_op!(
        op,
        k,
        fb(move |c, r| {
            let v = k(x(c, r)?, q);
            if AND != v {
                return Some(v);
            }
            b(c, r)
        })
    )
}

/// `IF(($r op q) AND rest, t, e)` ([`lower_int`]): the comparison of
/// register `$r` with literal `q` made in the `IF`'s closure, as [`fused`]
/// makes it (`reversi6-orig`'s `Run` ends with `IF(($RN > 0) AND
/// (Colour(..) == $RC), $RN, 0)`: one closure call fewer per call).
fn if_fused((op, x, q): (Op, u8, i32), rest: PBool, t: Leaf, e: Leaf) -> PInt {
    let x = x as usize % REGS;
    by_op!(
        op,
        k,
        fi(move |c, r| {
            if k(r[x], q) && rest(c, r)? {
                t.get(c, r)
            } else {
                e.get(c, r)
            }
        })
    )
}

/// The assignments of an `AND` chain of register assignments, left to
/// right (`(a AND b) AND c` and `a AND (b AND c)` alike); `None` when an
/// operand is anything else.
fn assignments(p: &Pure) -> Option<Vec<(u8, &Pure)>> {
    fn walk<'p>(p: &'p Pure, out: &mut Vec<(u8, &'p Pure)>) -> Option<()> {
        match p {
            Pure::And(a, b) => {
                walk(a, out)?;
                walk(b, out)
            }
            Pure::Assign(k, x) => {
                out.push((*k, &**x));
                Some(())
            }
            _ => None,
        }
    }
    let mut out = Vec::new();
    walk(p, &mut out)?;
    Some(out)
}

/// A row of two or more register assignments ([`assignments`]) as one
/// closure writing them in order, `true`.
fn assignment_row(w: Vec<(u8, &Pure)>, rec: bool) -> PBool {
    let mut w: Vec<(usize, Leaf)> = w
        .into_iter()
        .map(|(k, x)| (k as usize % REGS, Leaf::of(x, rec)))
        .collect();
    if w.len() == 2 {
        let (k2, x2) = w.pop().expect("two");
        let (k1, x1) = w.pop().expect("two");
        return fb(move |c, r| {
            r[k1] = x1.get(c, r)?;
            r[k2] = x2.get(c, r)?;
            Some(true)
        });
    }
    if w.len() == 3 {
        let (k3, x3) = w.pop().expect("three");
        let (k2, x2) = w.pop().expect("three");
        let (k1, x1) = w.pop().expect("three");
        return fb(move |c, r| {
            r[k1] = x1.get(c, r)?;
            r[k2] = x2.get(c, r)?;
            r[k3] = x3.get(c, r)?;
            Some(true)
        });
    }
    let w: Box<[(usize, Leaf)]> = w.into();
    fb(move |c, r| {
        for (k, x) in w.iter() {
            r[*k] = x.get(c, r)?;
        }
        Some(true)
    })
}

fn lower_bool(p: &Pure, rec: bool) -> PBool {
    // The shape is checked first on the tree (a walk without building
    // anything: a rejected `AND` is checked again at each level below).
    if Formula::shape(p).is_some_and(|s| s.tests >= MIN_FORMULA_TESTS) {
        let mut tests = 0;
        let f = Formula::of(p, rec, &mut tests);
        debug_assert!(tests >= MIN_FORMULA_TESTS);
        if let Some(f) = if rec {
            f.lower::<true>()
        } else {
            f.lower::<false>()
        } {
            return f;
        }
    }
    match p {
        &Pure::BoolLit(b) => fb(move |_, _| Some(b)),
        Pure::Bin(op, a, b) => match op {
            Op::Eq => bin(a, b, rec, |x, y| Some(x == y)),
            Op::Ne => bin(a, b, rec, |x, y| Some(x != y)),
            Op::Lt => bin(a, b, rec, |x, y| Some(x < y)),
            Op::Le => bin(a, b, rec, |x, y| Some(x <= y)),
            Op::Gt => bin(a, b, rec, |x, y| Some(x > y)),
            Op::Ge => bin(a, b, rec, |x, y| Some(x >= y)),
            _ => fb(|_, _| None),
        },
        // A literal right side (`FORALL(..) OR true`): the left side runs,
        // for what it writes and its give-ups, and decides alone.
        Pure::And(a, b) | Pure::Or(a, b) if matches!(**b, Pure::BoolLit(_)) => {
            let (Pure::BoolLit(lit), and) = (&**b, matches!(p, Pure::And(..))) else {
                unreachable!()
            };
            let a = lower_bool(a, rec);
            match (and, *lit) {
                (true, true) | (false, false) => a,
                (_, lit) => fb(move |c, r| {
                    a(c, r)?;
                    Some(lit)
                }),
            }
        }
        // Assignments in a row (`($n = $n + 1) AND ($x = $x + $dx) AND ..`,
        // each `true`): one closure writing the registers in order.
        Pure::And(a, b) => match (assignments(p).filter(|w| w.len() >= 2), reg_cmp(a)) {
            (Some(w), _) => assignment_row(w, rec),
            (None, Some((op, x, q))) => fused::<true>(op, x, q, b, rec),
            (None, None) => match node_cmp(a) {
                Some((op, x, q)) => fused_node::<true>(op, x, q, b, rec),
                None => {
                    let (a, b) = (lower_bool(a, rec), lower_bool(b, rec));
                    fb(move |c, r| Some(a(c, r)? && b(c, r)?))
                }
            },
        },
        Pure::Or(a, b) => match (reg_cmp(a), node_cmp(a)) {
            (Some((op, x, q)), _) => fused::<false>(op, x, q, b, rec),
            (None, Some((op, x, q))) => fused_node::<false>(op, x, q, b, rec),
            (None, None) => {
                let (a, b) = (lower_bool(a, rec), lower_bool(b, rec));
                fb(move |c, r| Some(a(c, r)? || b(c, r)?))
            }
        },
        Pure::Not(a) => {
            let a = lower_bool(a, rec);
            fb(move |c, r| Some(!a(c, r)?))
        }
        Pure::If(cond, t, e) => {
            // `IF(x op y, .., false)` with a literal branch: the comparison
            // made in the `IF`'s closure (issue 18 step 59: the loop body of
            // `reversi6-orig`'s `Run`, `IF(Colour(..) == 3 - $RC, .., false)`).
            if let (Some((op, x, y)), &Pure::BoolLit(b)) = (cmp_of(cond), &**e) {
                let (x, y, t) = (Leaf::of(x, rec), Leaf::of(y, rec), lower_bool(t, rec));
                return by_op!(
                    op,
                    k,
                    fb(move |c, r| {
                        let p = x.get(c, r)?;
                        if k(p, y.get(c, r)?) {
                            t(c, r)
                        } else {
                            Some(b)
                        }
                    })
                );
            }
            let cond = lower_bool(cond, rec);
            // A literal branch (`IF(c, .., false)`) is given in place.
            match (&**t, &**e) {
                (_, &Pure::BoolLit(b)) => {
                    let t = lower_bool(t, rec);
                    fb(move |c, r| if cond(c, r)? { t(c, r) } else { Some(b) })
                }
                (&Pure::BoolLit(b), _) => {
                    let e = lower_bool(e, rec);
                    fb(move |c, r| if cond(c, r)? { Some(b) } else { e(c, r) })
                }
                _ => {
                    let (t, e) = (lower_bool(t, rec), lower_bool(e, rec));
                    fb(move |c, r| if cond(c, r)? { t(c, r) } else { e(c, r) })
                }
            }
        }
        Pure::Call(call) => call_bool(call, rec),
        Pure::Memo(m) => {
            let inline = m.inline.as_ref().map(|call| call_bool(call, rec));
            memo_at(m, rec, inline, |v| match v {
                Value::Bool(b) => Some(b),
                _ => None,
            })
        }
        Pure::Assign(k, x) => {
            let (k, x) = (*k, Leaf::of(x, rec));
            fb(move |c, r| {
                r[k as usize % REGS] = x.get(c, r)?;
                Some(true)
            })
        }
        Pure::Write(v, x) => {
            let (v, x) = (*v, Leaf::of(x, rec));
            fb(move |c, r| {
                let i = x.get(c, r)?;
                c.vars.write_logged(v, i);
                Some(true)
            })
        }
        Pure::LiveLoop(l) => {
            let (all, var) = (l.all, l.var);
            let (from, to) = (Leaf::of(&l.from, rec), Leaf::of(&l.to, rec));
            let body = lower_bool(&l.body, rec);
            fb(move |c, r| {
                let range = (from.get(c, r)?, to.get(c, r)?);
                over_range_with(c, r, range, all, |c, r, i| {
                    c.vars.write_logged(var, i);
                    let x = body(c, r)?;
                    // FORALL stops at the first false body, FORSOME at the
                    // first true one.
                    Some((all != x).then_some(x))
                })
            })
        }
        Pure::Loop(l) => {
            let (all, var) = (l.all, l.var);
            let (from, to) = (Leaf::of(&l.from, rec), Leaf::of(&l.to, rec));
            if let Some((cond, when, n, k)) = crate::compile::counting_reg(&l.body) {
                if let Some((tab, tests)) = element_tests(cond, var, rec) {
                    let count = ElemCount {
                        all,
                        var,
                        from,
                        to,
                        tab,
                        tests: tests.into(),
                        when,
                        n,
                        k,
                    };
                    let keeps = kept_shape(&count.tests, var, n).is_some();
                    return match (l.slot, rec) {
                        (Some(slot), true) if keeps => count.lower_kept::<true>(slot as usize),
                        (Some(slot), false) if keeps => count.lower_kept::<false>(slot as usize),
                        (_, true) => count.lower::<true>(),
                        (_, false) => count.lower::<false>(),
                    };
                }
                let cond = lower_bool(cond, rec);
                return crate::compile::counting_loop_reg(all, var, from, to, cond, when, n, k);
            }
            if let Some((tab, occupied)) = scan_body(&l.body, var) {
                let kept = l.slot.and_then(|slot| {
                    let (a, b) = literal_bounds(&l.from, &l.to)?;
                    let locs = literal_range_ids(&tab, a, b)?;
                    Some(KeptScan::new(slot, locs, a, if a <= b { 1 } else { -1 }))
                });
                let plain = if rec {
                    scan_loop::<true>(all, var, from, to, tab, occupied)
                } else {
                    scan_loop::<false>(all, var, from, to, tab, occupied)
                };
                return match kept {
                    Some(k) => k.lower(all, var, occupied, plain),
                    None => plain,
                };
            }
            // A summing body `($n = $n + x) OR true` (`nim-orig`'s `Total`):
            // the sum in place, no closure per node.
            if let Pure::Or(a, t) = &l.body {
                if let (Pure::Assign(n, sum), Pure::BoolLit(true)) = (&**a, &**t) {
                    if let Pure::Bin(Op::Add, m, x) = &**sum {
                        if matches!(**m, Pure::Reg(k) if k == *n) {
                            if let Some(f) =
                                summed_counts(all, var, &l.from, &l.to, *n, x, l.slot, rec)
                            {
                                return f;
                            }
                            let x = lower_int(x, rec);
                            return crate::compile::summing_loop_reg(all, var, from, to, *n, x);
                        }
                    }
                }
            }
            let body = lower_bool(&l.body, rec);
            fb(move |c, r| {
                let range = (from.get(c, r)?, to.get(c, r)?);
                over_range_reg(c, r, var, range, all, |c, r, _| {
                    let x = body(c, r)?;
                    // FORALL stops at the first false body, FORSOME at the first true one.
                    Some((all != x).then_some(x))
                })
            })
        }
        Pure::Empty(loc) => match (&**loc, rec) {
            (PLoc::Const(None), _) => fb(|_, _| Some(true)),
            (&PLoc::Const(Some(l)), false) => {
                fb(move |c, _| Some(c.rd_content::<false>(l).is_none()))
            }
            (&PLoc::Const(Some(l)), true) => {
                fb(move |c, _| Some(c.rd_content::<true>(l).is_none()))
            }
            (PLoc::One(..) | PLoc::Two(..), _) => empty_at(loc, rec),
        },
        _ => fb(|_, _| None),
    }
}

/// The tests of the position a [`Formula`] must hold for its single
/// closure to pay (below, the closures of `AND`/`OR` are as fast).
const MIN_FORMULA_TESTS: u32 = 3;

/// An `AND`/`OR` tree over tests of the position (issue 18,
/// twenty-sixth step). When it is an `OR` of `AND`s of tests or an `AND` of
/// `OR`s ([`Formula::lower`]) it is evaluated by one closure running two
/// loops over the tests: an end-of-game residual such as
/// `tictactoe-orig`'s `HasLine(1)` — eight lines of three
/// `OWNER(CONTENT("s(x,y)")) == 1` tests — is one closure call instead of
/// a closure per node and three per test. The order of evaluation, the
/// short-circuits, the reads (recorded when `REC`) and the give-ups are
/// those of the closures.
enum Formula {
    All(Box<[Formula]>),
    Any(Box<[Formula]>),
    Test(Test),
}

/// A leaf of a [`Formula`].
enum Test {
    /// `OWNER` (`owner`) or `STATE` of the occupant of location `loc`
    /// (−1 when it is empty, as `OWNER("")`), compared with `rhs` by `op`.
    Occupant {
        loc: u16,
        owner: bool,
        op: Op,
        rhs: Leaf,
    },
    /// `OWNER` or `STATE` of element `e`, compared with `rhs` by `op`.
    Element {
        e: u16,
        owner: bool,
        op: Op,
        rhs: Leaf,
    },
    /// `EMPTY(loc)` when `empty`, `NOT EMPTY(loc)` otherwise.
    Empty {
        loc: u16,
        empty: bool,
    },
    Const(bool),
    /// Any other Bool expression, through its closure.
    Other(PBool),
}

/// What [`Formula::shape`] finds of an `OR` of `AND`s or an `AND` of
/// `OR`s.
struct FormulaShape {
    clauses: usize,
    /// Its leaves that are tests of the position ([`test_shape`]).
    tests: u32,
    /// Every leaf is such a test against a literal or one of at most two
    /// registers, or a constant: the leaves a [`KeptFormula`] takes.
    keepable: bool,
}

impl Formula {
    /// The shape of `p` when it is an `OR` of `AND`s or an `AND` of `OR`s
    /// (the shapes [`Formula::lower`] takes), else `None`.
    fn shape(p: &Pure) -> Option<FormulaShape> {
        let (and, clauses) = clause_chain(p)?;
        let (mut tests, mut keepable, mut regs) = (0, true, Vec::new());
        let n = clauses.len();
        for c in clauses {
            let mut leaves = Vec::new();
            chain(c, !and, &mut leaves);
            for l in leaves {
                if matches!(l, Pure::And(..) | Pure::Or(..)) {
                    return None;
                }
                let rhs = match test_shape(l) {
                    Some(TestShape::Occupant { rhs, .. } | TestShape::Element { rhs, .. }) => {
                        Some(rhs)
                    }
                    Some(TestShape::Empty { .. }) => None,
                    None => {
                        keepable &= matches!(l, Pure::BoolLit(_))
                            || matches!(l, Pure::Empty(x) if matches!(**x, PLoc::Const(None)));
                        continue;
                    }
                };
                tests += 1;
                match rhs {
                    None | Some(Pure::Lit(_)) => {}
                    Some(&Pure::Reg(k)) if regs.contains(&k) => {}
                    Some(&Pure::Reg(k)) => regs.push(k),
                    Some(_) => keepable = false,
                }
            }
        }
        Some(FormulaShape {
            clauses: n,
            tests,
            keepable: keepable && regs.len() <= 2,
        })
    }

    /// `p` as a formula; `tests` counts its leaves that are tests of the
    /// position (not [`Test::Other`]).
    fn of(p: &Pure, rec: bool, tests: &mut u32) -> Formula {
        fn flat(p: &Pure, and: bool, rec: bool, tests: &mut u32, out: &mut Vec<Formula>) {
            match (p, and) {
                (Pure::And(a, b), true) | (Pure::Or(a, b), false) => {
                    flat(a, and, rec, tests, out);
                    flat(b, and, rec, tests, out);
                }
                _ => out.push(Formula::of(p, rec, tests)),
            }
        }
        let test = match p {
            Pure::And(..) | Pure::Or(..) => {
                let and = matches!(p, Pure::And(..));
                let mut out = Vec::new();
                flat(p, and, rec, tests, &mut out);
                return if and {
                    Formula::All(out.into())
                } else {
                    Formula::Any(out.into())
                };
            }
            &Pure::BoolLit(b) => return Formula::Test(Test::Const(b)),
            Pure::Empty(l) if matches!(**l, PLoc::Const(None)) => {
                return Formula::Test(Test::Const(true))
            }
            _ => match test_shape(p) {
                Some(TestShape::Occupant {
                    loc,
                    owner,
                    op,
                    rhs,
                }) => Test::Occupant {
                    loc,
                    owner,
                    op,
                    rhs: Leaf::of(rhs, rec),
                },
                Some(TestShape::Element { e, owner, op, rhs }) => Test::Element {
                    e,
                    owner,
                    op,
                    rhs: Leaf::of(rhs, rec),
                },
                Some(TestShape::Empty { loc, empty }) => Test::Empty { loc, empty },
                None => Test::Other(lower_bool(p, rec)),
            },
        };
        if !matches!(test, Test::Other(_)) {
            *tests += 1;
        }
        Formula::Test(test)
    }

    /// The formula as two nested loops over its tests when it is an `OR`
    /// of `AND`s of tests (`tictactoe-orig`'s `HasLine`) or an `AND` of
    /// `OR`s of tests (`nim`'s targets), a single `AND` or `OR` included;
    /// `None` for other shapes (the closures are as fast as a walk).
    fn lower<const REC: bool>(self) -> Option<PBool> {
        /// The tests of `f` when it is a test or a `dual` of tests.
        fn clause(f: &Formula, dual: bool) -> bool {
            match f {
                Formula::Test(_) => true,
                Formula::All(ys) if dual => ys.iter().all(|y| matches!(y, Formula::Test(_))),
                Formula::Any(ys) if !dual => ys.iter().all(|y| matches!(y, Formula::Test(_))),
                _ => false,
            }
        }
        fn tests(f: Formula) -> Box<[Test]> {
            match f {
                Formula::Test(t) => vec![t].into(),
                Formula::All(xs) | Formula::Any(xs) => xs
                    .into_vec()
                    .into_iter()
                    .filter_map(|x| match x {
                        Formula::Test(t) => Some(t),
                        _ => None,
                    })
                    .collect(),
            }
        }
        // `any`: an `OR` of clauses, each an `AND` of tests; else the dual.
        let (any, clauses): (bool, Box<[Box<[Test]>]>) = match self {
            Formula::Any(xs) if xs.iter().all(|x| clause(x, true)) => {
                (true, xs.into_vec().into_iter().map(tests).collect())
            }
            Formula::All(xs) if xs.iter().all(|x| clause(x, false)) => {
                (false, xs.into_vec().into_iter().map(tests).collect())
            }
            _ => return None,
        };
        // One word of clause bits where they fit, more where they do not.
        if clauses.len() <= 64 {
            if let Some(kept) = KeptFormula::<1>::of(&clauses) {
                return Some(kept.lower::<REC>(clauses, any));
            }
        } else if let Some(kept) = KeptFormula::<KEPT_WORDS>::of(&clauses) {
            return Some(kept.lower::<REC>(clauses, any));
        }
        Some(fb(move |c, r| run_clauses::<REC>(&clauses, any, c, r)))
    }
}

/// Whether clause `clause` of a [`Formula`] decides it: every test gave
/// `any` (the `AND` clause of an `OR` holds, the `OR` clause of an `AND`
/// fails). A clause of an `OR` stops at its first false test, one of an
/// `AND` at its first true one.
#[inline(always)]
fn decides<const REC: bool>(
    clause: &[Test],
    any: bool,
    c: &mut Ctx<'_>,
    r: &mut Regs,
) -> Option<bool> {
    for t in clause.iter() {
        if t.eval::<REC>(c, r)? != any {
            return Some(false);
        }
    }
    Some(true)
}

/// A [`Formula`]'s clauses in order, up to the first that decides it.
#[inline(always)]
fn run_clauses<const REC: bool>(
    clauses: &[Box<[Test]>],
    any: bool,
    c: &mut Ctx<'_>,
    r: &mut Regs,
) -> Option<bool> {
    for clause in clauses.iter() {
        if decides::<REC>(clause, any, c, r)? {
            return Some(any);
        }
    }
    Some(!any)
}

/// Formulas handed an id for their kept clauses ([`KeptFormula`]).
static FORMULA_IDS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
/// Places for kept formulas in a scratch (`Memo::formulas`, by id).
pub(crate) const KEPT_FORMULAS: usize = 32;
/// The clauses a [`KeptFormula`] needs to pay: `nim`'s targets,
/// `(.. OR ..) AND EMPTY(..)` per `from` location, run once a position
/// each, were 6.9 % slower kept (and made the game track its changes).
const MIN_KEPT_CLAUSES: usize = 4;

/// The next formula id ([`KeptFormula`]): a game whose compilation moved it
/// has kept formulas, and tracks its changes.
pub(crate) fn formula_ids() -> u32 {
    FORMULA_IDS.load(std::sync::atomic::Ordering::Relaxed)
}

/// A [`Formula`] whose clauses test the position only (no other leaf)
/// against literals and at most two registers, over 4 to 64 clauses a
/// word of `W` (at most [`KEPT_WORDS`]): which clauses were evaluated and
/// which decided it are kept per state
/// epoch (`Memo::formulas`, [`KeptClauses`]), with the registers' values.
/// In a state of that epoch the value is the kept one; in a child of it
/// (`State::parent`) a clause is evaluated again only when something it
/// reads changed since (`State::changed`: the squares it reads, the
/// attributes of the elements it names, any element's attributes for a
/// square's occupant) or it was not evaluated, and a kept deciding clause
/// decides. The tests take no budget steps and cannot give up, so the
/// order they run in is not observable. Not while a memoized evaluation
/// records its reads, nor in a state that does not track its changes
/// (`State::track`): then the clauses run in order.
struct KeptFormula<const W: usize> {
    id: u32,
    /// The clauses that read what each bit of `State::changed` stands for.
    changes: ChangeIndex<W>,
    /// All clauses.
    all: [u64; W],
    /// The registers the right operands read.
    regs: [Option<u8>; 2],
}

/// The words of clause bits a [`KeptClauses`] holds: formulas of up to
/// 128 clauses are kept (`connect4-orig`'s `HasFour`, 69 lines of four).
const KEPT_WORDS: usize = 2;

/// What a [`KeptFormula`] found in a state of epoch `epoch`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeptClauses {
    id: u32,
    epoch: u64,
    key: [i32; 2],
    /// Clauses evaluated, and those of them that decide (the first words,
    /// as many as the formula has).
    known: [u64; KEPT_WORDS],
    decided: [u64; KEPT_WORDS],
}

impl KeptClauses {
    /// Whether a formula's clauses were kept in this place.
    #[cfg(test)]
    pub(crate) fn is_set(&self) -> bool {
        self.epoch != 0
    }

    /// Whether clauses past the 64th were evaluated.
    #[cfg(test)]
    pub(crate) fn is_wide(&self) -> bool {
        self.known[1..].iter().any(|&w| w != 0)
    }
}

/// Whether `clauses` can be a [`KeptFormula`]: 4 to 64 × [`KEPT_WORDS`]
/// of them, every test one of the position against a literal or one of
/// at most two registers; the registers if so.
fn keepable(clauses: &[Box<[Test]>]) -> Option<[Option<u8>; 2]> {
    if !(MIN_KEPT_CLAUSES..=64 * KEPT_WORDS).contains(&clauses.len()) {
        return None;
    }
    let mut regs: [Option<u8>; 2] = [None, None];
    let mut reg = |rhs: &Leaf| -> Option<()> {
        match *rhs {
            Leaf::Lit(_) => Some(()),
            Leaf::Reg(k) => {
                if regs.contains(&Some(k)) {
                    return Some(());
                }
                let free = regs.iter_mut().find(|x| x.is_none())?;
                *free = Some(k);
                Some(())
            }
            _ => None,
        }
    };
    for t in clauses.iter().flat_map(|c| c.iter()) {
        match t {
            Test::Occupant { rhs, .. } | Test::Element { rhs, .. } => reg(rhs)?,
            Test::Empty { .. } | Test::Const(_) => {}
            Test::Other(_) => return None,
        }
    }
    Some(regs)
}

impl<const W: usize> KeptFormula<W> {
    /// The kept formula of `clauses` when they are [`keepable`] and fit in
    /// `W` words.
    fn of(clauses: &[Box<[Test]>]) -> Option<KeptFormula<W>> {
        if clauses.len() > 64 * W {
            return None;
        }
        let regs = keepable(clauses)?;
        let any_attr = (0..19).fold(0u64, |m, e| m | crate::state::attr_bit(e));
        let mut changes = ChangeIndex::default();
        let mut all = [0u64; W];
        for (j, clause) in clauses.iter().enumerate() {
            let mut m = 0u64;
            for t in clause.iter() {
                m |= match t {
                    Test::Occupant { loc, .. } => {
                        crate::state::content_bit(*loc as usize) | any_attr
                    }
                    Test::Element { e, .. } => crate::state::attr_bit(*e as usize),
                    Test::Empty { loc, .. } => crate::state::content_bit(*loc as usize),
                    Test::Const(_) | Test::Other(_) => 0,
                };
            }
            changes.add(j, m);
            all[j / 64] |= 1 << (j % 64);
        }
        Some(KeptFormula {
            id: FORMULA_IDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            changes,
            all,
            regs,
        })
    }

    /// The closure of the formula of `clauses`: kept in a state that
    /// tracks its changes, run in order in any other.
    fn lower<const REC: bool>(self, clauses: Box<[Box<[Test]>]>, any: bool) -> PBool {
        fb(move |c, r| {
            if c.st.get().track {
                self.run::<REC>(&clauses, any, c, r)
            } else {
                run_clauses::<REC>(&clauses, any, c, r)
            }
        })
    }

    #[inline(never)]
    fn run<const REC: bool>(
        &self,
        clauses: &[Box<[Test]>],
        any: bool,
        c: &mut Ctx<'_>,
        r: &mut Regs,
    ) -> Option<bool> {
        let st = c.st.get();
        let epoch = st.epoch;
        if epoch == 0 || c.vars.memo.depth != 0 {
            return run_clauses::<REC>(clauses, any, c, r);
        }
        let key = self.regs.map(|k| k.map_or(0, |k| r[k as usize % REGS]));
        let place = self.id as usize % KEPT_FORMULAS;
        let kept = c
            .vars
            .memo
            .formulas
            .get(place)
            .filter(|k| k.id == self.id && k.key == key)
            .copied();
        let (mut known, mut decided) = ([0u64; W], [0u64; W]);
        match kept {
            Some(k) if k.epoch == epoch => {
                return Some(if k.decided.iter().any(|&d| d != 0) {
                    any
                } else {
                    !any
                })
            }
            Some(k) => {
                if let Some(changed) = crate::memo::EpochHistory::changed_from_parent(st, k.epoch) {
                    let touched = self.changes.touched_words(changed);
                    for w in 0..W {
                        known[w] = k.known[w] & !touched[w];
                        decided[w] = k.decided[w] & known[w];
                    }
                }
            }
            _ => {}
        }
        if decided.iter().all(|&d| d == 0) {
            // The clauses not known, in order.
            'words: for w in 0..W {
                let mut todo = self.all[w] & !known[w];
                while todo != 0 {
                    let j = todo.trailing_zeros();
                    let bit = 1u64 << j;
                    known[w] |= bit;
                    if decides::<false>(&clauses[w * 64 + j as usize], any, c, r)? {
                        decided[w] |= bit;
                        break 'words;
                    }
                    todo &= todo - 1;
                }
            }
        }
        let formulas = &mut c.vars.memo.formulas;
        if formulas.len() < KEPT_FORMULAS {
            formulas.resize(KEPT_FORMULAS, KeptClauses::default());
        }
        let mut kept = KeptClauses {
            id: self.id,
            epoch,
            key,
            ..KeptClauses::default()
        };
        kept.known[..W].copy_from_slice(&known);
        kept.decided[..W].copy_from_slice(&decided);
        formulas[place] = kept;
        Some(if decided.iter().any(|&d| d != 0) {
            any
        } else {
            !any
        })
    }
}

/// `x op y` when `p` compares (`==`, `!=`, `<`, `<=`, `>`, `>=`) an
/// operand `x` with a literal, a register or a variable `y` (an operand
/// the fused tests read in place, [`Leaf`]).
fn comparison(p: &Pure) -> Option<(Op, &Pure, &Pure)> {
    match p {
        Pure::Bin(op @ (Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge), x, y)
            if matches!(**y, Pure::Lit(_) | Pure::Reg(_) | Pure::Var(_)) =>
        {
            Some((*op, x, y))
        }
        _ => None,
    }
}

/// A test of the position as [`Formula`] takes it in place ([`Test`]
/// without its lowered operand).
enum TestShape<'p> {
    Occupant {
        loc: u16,
        owner: bool,
        op: Op,
        rhs: &'p Pure,
    },
    Element {
        e: u16,
        owner: bool,
        op: Op,
        rhs: &'p Pure,
    },
    Empty {
        loc: u16,
        empty: bool,
    },
}

/// The test of the position `p` is, if it is one: `OWNER`/`STATE` of the
/// occupant of a named location or of a named element compared with a
/// [`comparison`] operand, `EMPTY` or `NOT EMPTY` of a named location.
fn test_shape(p: &Pure) -> Option<TestShape<'_>> {
    let named = |l: &PLoc| match *l {
        PLoc::Const(Some(loc)) => Some(loc),
        _ => None,
    };
    match p {
        Pure::Empty(l) => Some(TestShape::Empty {
            loc: named(l)?,
            empty: true,
        }),
        Pure::Not(x) => match &**x {
            Pure::Empty(l) => Some(TestShape::Empty {
                loc: named(l)?,
                empty: false,
            }),
            _ => None,
        },
        _ => {
            let (op, x, rhs) = comparison(p)?;
            let Pure::Attr(a @ (Attr::Owner | Attr::State), el) = x else {
                return None;
            };
            let owner = *a == Attr::Owner;
            match &**el {
                PElem::Elem(Pure::Content(l)) => Some(TestShape::Occupant {
                    loc: named(l)?,
                    owner,
                    op,
                    rhs,
                }),
                PElem::Name(l) => Some(TestShape::Element {
                    e: named(l)?,
                    owner,
                    op,
                    rhs,
                }),
                _ => None,
            }
        }
    }
}

impl Test {
    #[inline(always)]
    fn eval<const REC: bool>(&self, c: &mut Ctx<'_>, r: &mut Regs) -> Option<bool> {
        let (v, op, rhs) = match self {
            &Test::Occupant {
                loc,
                owner,
                op,
                ref rhs,
            } => {
                let v = match c.rd_content::<REC>(loc) {
                    Some(e) if owner => c.rd_owner::<REC>(e),
                    Some(e) => c.rd_state::<REC>(e),
                    None => -1,
                };
                (v, op, rhs)
            }
            &Test::Element {
                e,
                owner,
                op,
                ref rhs,
            } => {
                let v = if owner {
                    c.rd_owner::<REC>(e)
                } else {
                    c.rd_state::<REC>(e)
                };
                (v, op, rhs)
            }
            &Test::Empty { loc, empty } => {
                return Some(c.rd_content::<REC>(loc).is_none() == empty);
            }
            &Test::Const(b) => return Some(b),
            Test::Other(f) => return f(c, r),
        };
        Some(compare(op, v, rhs.get(c, r)?))
    }
}

/// `v op w` for a comparison operator `op` (`>=` for any other).
#[inline(always)]
pub(crate) fn compare(op: Op, v: i32, w: i32) -> bool {
    let holds: u32 = match op {
        Op::Eq => 0b010,
        Op::Ne => 0b101,
        Op::Lt => 0b001,
        Op::Le => 0b011,
        Op::Gt => 0b100,
        _ => 0b110,
    };
    holds >> (u32::from(v > w) * 2 + u32::from(v == w)) & 1 != 0
}

/// What an [`ElemTest`] reads of the element.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ElemKey {
    State,
    Owner,
    /// `LOCTYPE(LOCATION(..))`.
    LocType,
}

/// One comparison of a counting loop's condition ([`element_tests`]): the
/// element's `key` against `rhs`, by `op`.
struct ElemTest {
    key: ElemKey,
    op: Op,
    rhs: Leaf,
}

/// The condition of a counting loop (`compile::counting_reg`) when it is a
/// comparison, or an `AND` chain of comparisons, of `STATE`, `OWNER` or
/// `LOCTYPE(LOCATION(..))` of the element named by one template over the
/// loop's own register with a literal, a register or a variable
/// (`nim-orig`'s `Left`: `(STATE("m($LE)") == $LR) AND
/// (LOCTYPE(LOCATION("m($LE)")) == "place")`, `tictactoe-orig`'s
/// `CountPlaced`): the template's table and the comparisons in order.
fn element_tests(cond: &Pure, var: u8, rec: bool) -> Option<(IdTable, Vec<ElemTest>)> {
    fn walk(
        p: &Pure,
        var: u8,
        rec: bool,
        tab: &mut Option<IdTable>,
        out: &mut Vec<ElemTest>,
    ) -> Option<()> {
        match p {
            Pure::And(a, b) => {
                walk(a, var, rec, tab, out)?;
                walk(b, var, rec, tab, out)
            }
            p => {
                let (op, x, y) = comparison(p)?;
                let (key, el) = match x {
                    Pure::Attr(Attr::State, el) => (ElemKey::State, el),
                    Pure::Attr(Attr::Owner, el) => (ElemKey::Owner, el),
                    Pure::LocTypeOf(el) => (ElemKey::LocType, el),
                    _ => return None,
                };
                let PElem::Name(PLoc::One(Pure::Reg(k), t)) = &**el else {
                    return None;
                };
                if *k != var || tab.as_ref().is_some_and(|u| !u.same_table(t)) {
                    return None;
                }
                *tab = Some(t.clone());
                out.push(ElemTest {
                    key,
                    op,
                    rhs: Leaf::of(y, rec),
                });
                Some(())
            }
        }
    }
    let (mut tab, mut out) = (None, Vec::new());
    walk(cond, var, rec, &mut tab, &mut out)?;
    Some((tab?, out))
}

/// A counting loop whose condition is [`element_tests`], in one closure:
/// per iteration the budget step and the register set as
/// `compile::counting_loop_reg` does, the element's id looked up once, then
/// the comparisons in order up to the first false one (the reads the
/// closures make, recorded when `REC`; no element: `STATE`/`OWNER` −1 and
/// `LOCTYPE` [`NO_LTYPE`], as `attr_of` and `loctype_of` give), and the
/// count register increased when the condition is `when`.
struct ElemCount {
    all: bool,
    var: u8,
    from: Leaf,
    to: Leaf,
    tab: IdTable,
    tests: Box<[ElemTest]>,
    when: bool,
    n: u8,
    k: i32,
}

impl ElemCount {
    /// Whether the condition holds for the element `id` names (the reads
    /// recorded when `REC`).
    #[inline(always)]
    fn holds<const REC: bool>(
        &self,
        c: &mut Ctx<'_>,
        r: &mut Regs,
        id: Option<u16>,
    ) -> Option<bool> {
        for t in self.tests.iter() {
            let v = Self::read::<REC>(c, id, t.key);
            if !compare(t.op, v, t.rhs.get(c, r)?) {
                return Some(false);
            }
        }
        Some(true)
    }

    /// [`ElemCount::read`] of element `e` in `st`, recording nothing.
    #[inline(always)]
    fn read_in(g: &crate::game::Game, st: &crate::state::State, e: u16, key: ElemKey) -> i32 {
        match key {
            ElemKey::State => st.element_state(e),
            ElemKey::Owner => st.owner(e),
            ElemKey::LocType => g.locations[st.location_of(e) as usize].location_type as i32,
        }
    }

    /// What a test reads of the element `id` names: its `key` (no element:
    /// `STATE`/`OWNER` −1, `LOCTYPE` [`NO_LTYPE`]).
    #[inline(always)]
    fn read<const REC: bool>(c: &mut Ctx<'_>, id: Option<u16>, key: ElemKey) -> i32 {
        match (id, key) {
            (None, ElemKey::LocType) => NO_LTYPE,
            (None, _) => -1,
            (Some(e), ElemKey::State) => c.rd_state::<REC>(e),
            (Some(e), ElemKey::Owner) => c.rd_owner::<REC>(e),
            (Some(e), ElemKey::LocType) => {
                let l = c.rd_location::<REC>(e);
                c.g.locations[l as usize].location_type as i32
            }
        }
    }

    fn lower<const REC: bool>(self) -> PBool {
        fb(move |c, r| self.run::<REC>(c, r))
    }

    /// The loop, an iteration at a time (out of line: its iterations
    /// inline into it, which two callers of an inlined form prevented).
    #[inline(never)]
    fn run<const REC: bool>(&self, c: &mut Ctx<'_>, r: &mut Regs) -> Option<bool> {
        let range = (self.from.get(c, r)?, self.to.get(c, r)?);
        over_range_reg(c, r, self.var, range, true, |c, r, i| {
            let id = self.tab.lookup1(i)?;
            if self.holds::<REC>(c, r, id)? == self.when {
                let x = &mut r[self.n as usize % REGS];
                *x = x.checked_add(self.k)?;
            }
            // The body gave `true`: FORSOME stops, FORALL goes on to the end.
            Some((!self.all).then_some(true))
        })
    }

    /// [`ElemCount::lower`] with what each iteration
    /// counted kept in slot `slot` of `Memo::counts` for the state's epoch
    /// ([`KeptCount`]; a loop with a keyed comparison, [`kept_shape`], keeps
    /// one count per value of its right side, in the place `slot + value mod
    /// KEY_WAYS`, and takes a kept count only for the same value). In a
    /// state of that epoch the count is the kept one;
    /// in a state whose parent epoch it is (`State::parent`), only the
    /// iterations whose element changed since (`State::changed`: its
    /// location for `LOCTYPE`, its attributes for `STATE`/`OWNER`) are
    /// tested again (over a literal range found from the changed bits,
    /// [`FixedRange`], without visiting the others). The loop's register ends at the last value and the
    /// budget is charged one step an iteration, as the loop would; without
    /// budget for all of them, or over more than 64 iterations, or in a
    /// state without an epoch, or while a memoized evaluation records its
    /// reads, the loop runs as `lower` runs it. The count
    /// is added at once: the partial sums of one sign of step lie between
    /// the start and the end, so one overflows exactly when the end does.
    fn lower_kept<const REC: bool>(self, slot: usize) -> PBool {
        let k = self.kept(slot);
        fb(move |c, r| k.run::<REC>(c, r))
    }

    /// The count kept in `slot` ([`ElemCount::lower_kept`]), to be run.
    fn kept(self, slot: usize) -> KeptElemCount {
        let attrs = self.tests.iter().any(|t| t.key != ElemKey::LocType);
        let locs = self.tests.iter().any(|t| t.key == ElemKey::LocType);
        let bits_of = move |e: u16| elem_bits(attrs, locs, e);
        // Over a literal range of at most 64 names the table decides: the
        // element of each iteration and the bits of what the tests read of
        // it (0: no such element, nothing to read).
        let fixed: Option<FixedRange> = match (&self.from, &self.to) {
            (&Leaf::Lit(a), &Leaf::Lit(b)) => literal_range_ids(&self.tab, a, b).map(|ids| {
                // The iterations to test again per bit of what changed
                // (none for no element: nothing to read).
                let mut changes = ChangeIndex::default();
                for (j, e) in ids.iter().enumerate() {
                    if let Some(e) = *e {
                        changes.add(j, bits_of(e));
                    }
                }
                (ids.iter().map(|e| e.unwrap_or(0)).collect(), changes)
            }),
            _ => None,
        };
        let keyed = kept_shape(&self.tests, self.var, self.n).and_then(|(k, _)| k);
        let lit = match (&self.from, &self.to) {
            (&Leaf::Lit(a), &Leaf::Lit(b)) => Some((a, b)),
            _ => None,
        };
        KeptElemCount {
            count: self,
            slot,
            lit,
            fixed,
            keyed,
            attrs,
            locs,
        }
    }
}

/// A summing loop `FORALL($v, a, b, ($n = $n + F($v)) OR true)` whose
/// `F($p)` is `$c = 0`, a kept counting loop into `$c` ([`ElemCount`]), `$c`
/// (`$p` in a register, or replaced by `$v`'s)
/// (`nim-orig`'s `Total`, the sum of `Left($AR)` over the rows), in one
/// closure: per iteration what [`call_int`] and its closures do — the
/// value kept in the call's slot for the argument ([`Inlined::keyed`]), else
/// the argument into `$p`, the call's depth check and budget step, `$c`
/// cleared, the count run as [`ElemCount::lower_kept`] runs it and its
/// value kept — without a closure per layer. `None` for any other loop.
#[allow(clippy::too_many_arguments)] // the loop's parts, as `counting_loop_reg` takes them
fn summed_counts(
    all: bool,
    var: u8,
    from: &Pure,
    to: &Pure,
    n: u8,
    x: &Pure,
    slot: Option<u16>,
    rec: bool,
) -> Option<PBool> {
    let id = usize::from(slot?);
    let Pure::Call(call) = x else {
        return None;
    };
    let (None, Some((kreg, slots))) = (call.cache, &call.keyed) else {
        return None;
    };
    // Its parameter in a register of its own, or (the argument a register)
    // replaced by that register.
    let p = match call.args.as_slice() {
        [] => None,
        [(p, Pure::Reg(arg))] if *arg == var => Some(*p),
        _ => return None,
    };
    let [Step::Let(c0, Pure::Lit(0)), Step::Guard(Pure::Loop(inner), _)] = call.steps.as_slice()
    else {
        return None;
    };
    if *kreg != var || !matches!(call.body, Pure::Reg(k) if k == *c0) {
        return None;
    }
    let slot = inner.slot?;
    let (cond, when, cn, k) = crate::compile::counting_reg(&inner.body)?;
    let (tab, tests) = element_tests(cond, inner.var, rec)?;
    let count = ElemCount {
        all: inner.all,
        var: inner.var,
        from: Leaf::of(&inner.from, rec),
        to: Leaf::of(&inner.to, rec),
        tab,
        tests: tests.into(),
        when,
        n: cn,
        k,
    };
    if cn != *c0 || kept_shape(&count.tests, count.var, count.n).is_none() {
        return None;
    }
    #[cfg(test)]
    SUMMED_COUNTS_BUILT.with(|n| n.set(n.get() + 1));
    let kept = count.kept(slot as usize);
    // The keyed comparison's right side is the argument itself (every
    // other one a literal, as `kept_shape` wants).
    let key_is_arg = kept.keyed.is_some_and(|i| {
        kept.count
            .tests
            .iter()
            .enumerate()
            .all(|(j, t)| match t.rhs {
                Leaf::Reg(k) => j == i && k == p.unwrap_or(var),
                Leaf::Lit(_) => j != i,
                _ => false,
            })
    });
    let sum = SummedCounts {
        id,
        all,
        var,
        from: Leaf::of(from, rec),
        to: Leaf::of(to, rec),
        n,
        p,
        c0: *c0,
        nest: call.nest,
        slots: slots.clone(),
        key_is_arg,
        count: kept,
    };
    Some(if rec {
        fb(move |c, r| sum.run::<true>(c, r))
    } else {
        fb(move |c, r| sum.run::<false>(c, r))
    })
}

#[cfg(test)]
thread_local! {
    /// How many loops [`summed_counts`] built on this thread (tests ask
    /// whether a game's loop took that form).
    pub(crate) static SUMMED_COUNTS_BUILT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// How many inlined calls holding variables that are not dead
    /// ([`Inlined::out_end`]) were built on this thread.
    pub(crate) static HELD_CALLS_BUILT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// How many variables written through ([`Pure::Write`],
    /// [`Pure::LiveLoop`]) were built on this thread.
    pub(crate) static WRITES_BUILT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The call a loop body `($n = $n + F(..)) OR true` sums ([`summed_counts`]).
fn summing_call(body: &Pure) -> Option<&Inlined> {
    let Pure::Or(a, t) = body else {
        return None;
    };
    let (Pure::Assign(n, sum), Pure::BoolLit(true)) = (&**a, &**t) else {
        return None;
    };
    let Pure::Bin(Op::Add, m, x) = &**sum else {
        return None;
    };
    match (&**m, &**x) {
        (&Pure::Reg(k), Pure::Call(call)) if k == *n => Some(call),
        _ => None,
    }
}

/// What a [`SummedCounts`] loop's keys `keys` counted in a state of epoch
/// `epoch` (0: nothing yet): per key in order, the iterations counted (bit
/// `j`: the `j`th) and how many.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeptSum {
    epoch: u64,
    keys: (i32, i32),
    counted: [u64; KEY_WAYS as usize],
    ones: [u32; KEY_WAYS as usize],
}

/// [`summed_counts`]: the loop's `all`, register, bounds and sum register
/// `n`; the call's parameter's register `p` (none: replaced by `var`),
/// count register `c0`, depth and slots.
struct SummedCounts {
    /// Its place in `Memo::sums` (`Compiler::sum_slots`).
    id: usize,
    all: bool,
    var: u8,
    from: Leaf,
    to: Leaf,
    n: u8,
    p: Option<u8>,
    c0: u8,
    nest: u32,
    slots: KeyedSlots,
    /// The count's keyed comparison's right side is the call's argument,
    /// every other one a literal.
    key_is_arg: bool,
    count: KeptElemCount,
}

impl SummedCounts {
    #[inline(always)]
    fn run<const REC: bool>(&self, c: &mut Ctx<'_>, r: &mut Regs) -> Option<bool> {
        let range = (self.from.get(c, r)?, self.to.get(c, r)?);
        if let Some(v) = self.run_sum(c, r, range) {
            return v;
        }
        if let Some(v) = self.run_kept(c, r, range) {
            self.keep_sum(c, range);
            return v;
        }
        let (var, n) = (self.var as usize % REGS, self.n as usize % REGS);
        // The call (`call_int_run`): `Prologue::run`, the count, `$c`.
        let call = |c: &mut Ctx<'_>, r: &mut Regs| -> Option<i32> {
            if let Some(p) = self.p {
                r[p as usize % REGS] = r[var];
            }
            if !c.inline_call_ok(self.nest) {
                return None;
            }
            c.vars.step().ok()?;
            let c0 = self.c0 as usize % REGS;
            r[c0] = 0;
            if !self.count.run::<REC>(c, r)? {
                return None;
            }
            Some(r[c0])
        };
        over_range_reg(c, r, self.var, range, true, |c, r, _| {
            let s = r[n];
            let v = match self.slots.get(r[var]) {
                None => call(c, r)?,
                Some(slot) => CallCache {
                    slot,
                    reads: u64::MAX,
                    once: false,
                }
                .through(c, r, call, |v| v, |v| v)?,
            };
            r[n] = s.checked_add(v)?;
            Some((!self.all).then_some(true))
        })
    }
}

impl SummedCounts {
    /// [`SummedCounts::run`] from what its keys counted in an earlier
    /// epoch ([`KeptSum`]), when the count is keyed by the call's argument
    /// over a literal range of elements, the loop a `FORALL` over at most
    /// [`KEY_WAYS`] keys, and [`SummedCounts::run_kept`]'s conditions hold:
    /// in a state of that epoch the counts kept; in one deriving from it
    /// (`memo::EpochHistory::changed_from`) the iterations whose element
    /// changed since, found once, tested again for every key. Then as the
    /// loop would: each key's count kept in its call's slot, added to the
    /// sum in order, the registers left as the loop leaves them, the steps
    /// of every key's loop step, call and iterations charged. The keys'
    /// own count slots are not kept up to date: a count asked alone finds
    /// them older. `None`: no such kept sum, or not sure (then
    /// [`SummedCounts::run_kept`] runs and [`SummedCounts::keep_sum`] keeps
    /// what it counted); `Some(None)`: give up.
    #[inline(always)]
    fn run_sum(&self, c: &mut Ctx<'_>, r: &mut Regs, (ka, kb): (i32, i32)) -> Option<Option<bool>> {
        let (a, b) = self.count.lit?;
        let (elems, changes) = self.count.fixed.as_ref()?;
        let keyed = self.count.keyed?;
        let iterations = span(a, b);
        let keys = span(ka, kb);
        let st = c.st.get();
        let epoch = st.epoch;
        // (`keys` and `iterations` are small once the first tests passed:
        // their product is the budget the loop takes, compared without a
        // division.)
        if !self.key_is_arg
            || !self.all
            || keys > KEY_WAYS as u64
            || epoch == 0
            || iterations > 64
            || c.vars.memo.depth != 0
            || !c.inline_call_ok(self.nest)
            || c.vars.steps_left() < keys * (2 + iterations)
        {
            return None;
        }
        let g = c.g;
        let memo = &mut c.vars.memo;
        let rec = memo
            .sums
            .get_mut(self.id)
            .filter(|k| k.epoch != 0 && k.keys == (ka, kb))?;
        if rec.epoch != epoch {
            let changed = memo.history.changed_from(st, rec.epoch)?;
            let touched = changes.touched(changed);
            let s = &self.count.count;
            let step_k: i32 = if ka <= kb { 1 } else { -1 };
            // Per element changed, what its keyed comparison reads and
            // whether the other comparisons (against literals,
            // `kept_shape`) hold: read once, then compared with every key
            // (the keyed one's right side is the key, `key_is_arg`). The
            // record is updated in place: what it holds then is what the
            // keys count in this state, whatever follows.
            let kt = &s.tests[keyed];
            let mut todo = touched;
            while todo != 0 {
                let bit = todo.trailing_zeros();
                let e = elems[bit as usize];
                let lhs = ElemCount::read_in(g, st, e, kt.key);
                let mut others = true;
                for (j, t) in s.tests.iter().enumerate() {
                    others &= j == keyed
                        || matches!(t.rhs, Leaf::Lit(x) if compare(t.op, ElemCount::read_in(g, st, e, t.key), x));
                }
                let m = 1u64 << bit;
                for ki in 0..keys as usize {
                    let key = ka + step_k * ki as i32;
                    let now = (others && compare(kt.op, lhs, key)) == s.when;
                    if now != (rec.counted[ki] & m != 0) {
                        rec.counted[ki] ^= m;
                        rec.ones[ki] = if now {
                            rec.ones[ki] + 1
                        } else {
                            rec.ones[ki] - 1
                        };
                    }
                }
                todo &= todo - 1;
            }
            rec.epoch = epoch;
        }
        let ones = rec.ones;
        let (n, c0) = (self.n as usize % REGS, self.c0 as usize % REGS);
        let step_k: i64 = if ka <= kb { 1 } else { -1 };
        let mut v = 0;
        for (ki, &count) in ones.iter().enumerate().take(keys as usize) {
            let key = i64::from(ka) + step_k * ki as i64;
            let total = i64::from(self.count.count.k) * i64::from(count);
            let Ok(x) = i32::try_from(total) else {
                return Some(None);
            };
            v = x;
            if let Some(at) = self.slots.get(key as i32) {
                c.vars.memo.keep_call(at, epoch, v, false);
            }
            match r[n].checked_add(v) {
                Some(x) => r[n] = x,
                None => return Some(None),
            }
        }
        // The registers as the loop leaves them.
        r[self.var as usize % REGS] = kb;
        if let Some(p) = self.p {
            r[p as usize % REGS] = kb;
        }
        r[c0] = v;
        r[self.count.count.var as usize % REGS] = b;
        c.vars
            .set_steps_left(c.vars.steps_left() - keys * (2 + iterations));
        Some(Some(true))
    }

    /// After [`SummedCounts::run_kept`] in a state with an epoch: what
    /// every key counted there, from the keys' count slots when each was
    /// kept in this epoch, kept for [`SummedCounts::run_sum`].
    #[inline(never)]
    fn keep_sum(&self, c: &mut Ctx<'_>, (ka, kb): (i32, i32)) {
        let epoch = c.st.get().epoch;
        let keys = span(ka, kb);
        if !self.key_is_arg
            || !self.all
            || self.count.fixed.is_none()
            || keys > KEY_WAYS as u64
            || epoch == 0
            || c.vars.memo.depth != 0
        {
            return;
        }
        let Some((a, b)) = self.count.lit else {
            return;
        };
        let step_k: i32 = if ka <= kb { 1 } else { -1 };
        let mut rec = KeptSum {
            epoch,
            keys: (ka, kb),
            ..KeptSum::default()
        };
        for ki in 0..keys as usize {
            let key = ka + step_k * ki as i32;
            let slot = self.count.slot + key.rem_euclid(KEY_WAYS as i32) as usize;
            match c.vars.memo.counts.get(slot) {
                Some(k) if k.epoch == epoch && k.key == key && k.range == (a, b) => {
                    rec.counted[ki] = k.counted;
                    rec.ones[ki] = k.ones;
                }
                _ => return,
            }
        }
        let sums = &mut c.vars.memo.sums;
        if sums.len() <= self.id {
            sums.resize(self.id + 1, KeptSum::default());
        }
        sums[self.id] = rec;
    }

    /// [`SummedCounts::run`] when everything it needs is sure before it
    /// starts: a state with an epoch, no memoized evaluation recording, the
    /// count's literal range of at most 64 iterations, the call depth
    /// allowed and the budget for every key's loop step, call step and
    /// iterations. Then per key what the loop, the call and the count do,
    /// without checking those again: the value kept in the call's slot for
    /// this epoch, else the count ([`KeptElemCount::count_kept`], the
    /// iterations to test again found once for the counts kept together)
    /// and its value kept there; the steps those take charged at the end.
    /// `None`: not sure, run as the closures would.
    #[inline(always)]
    fn run_kept(
        &self,
        c: &mut Ctx<'_>,
        r: &mut Regs,
        (ka, kb): (i32, i32),
    ) -> Option<Option<bool>> {
        let (a, b) = self.count.lit?;
        let iterations = span(a, b);
        let keys = span(ka, kb);
        let epoch = c.st.get().epoch;
        if epoch == 0
            || iterations > 64
            || c.vars.memo.depth != 0
            || !c.inline_call_ok(self.nest)
            || c.vars.steps_left() / (2 + iterations) < keys
        {
            return None;
        }
        let (var, n, c0) = (
            self.var as usize % REGS,
            self.n as usize % REGS,
            self.c0 as usize % REGS,
        );
        let mut used = 0u64;
        let mut touched = (0u64, 0u64);
        let step: i64 = if ka <= kb { 1 } else { -1 };
        let mut i = i64::from(ka);
        let end = loop {
            used += 1;
            r[var] = i as i32;
            let slot = self.slots.get(i as i32);
            let kept = slot
                .and_then(|at| c.vars.memo.calls.get(at))
                .filter(|k| k.epoch == epoch)
                .map(|k| k.value);
            let v = match kept {
                Some(v) => v,
                None => {
                    if let Some(p) = self.p {
                        r[p as usize % REGS] = i as i32;
                    }
                    used += 1 + iterations;
                    r[c0] = 0;
                    let ks = if self.key_is_arg {
                        let key = i as i32;
                        Some((
                            key,
                            self.count.slot + key.rem_euclid(KEY_WAYS as i32) as usize,
                        ))
                    } else {
                        self.count.key_slot(c, r)
                    };
                    let Some((key, at)) = ks else {
                        return Some(None);
                    };
                    if self
                        .count
                        .count_kept(c, r, key, at, (a, b), &mut touched)
                        .is_none()
                    {
                        return Some(None);
                    }
                    let v = r[c0];
                    if let Some(at) = slot {
                        c.vars.memo.keep_call(at, epoch, v, false);
                    }
                    v
                }
            };
            match r[n].checked_add(v) {
                Some(x) => r[n] = x,
                None => return Some(None),
            }
            if !self.all {
                break true;
            }
            if i == i64::from(kb) {
                break true;
            }
            i += step;
        };
        c.vars.set_steps_left(c.vars.steps_left() - used);
        Some(Some(end))
    }
}

/// The values from `a` to `b`, both included, either direction.
#[inline(always)]
fn span(a: i32, b: i32) -> u64 {
    (i64::from(b) - i64::from(a)).unsigned_abs() + 1
}

/// What the tests of a kept count read of element `e`: the bits of
/// `State::changed` for its attributes (`attrs`) and location (`locs`).
#[inline(always)]
fn elem_bits(attrs: bool, locs: bool, e: u16) -> u64 {
    let e = e as usize;
    (if attrs { crate::state::attr_bit(e) } else { 0 })
        | (if locs {
            crate::state::location_bit(e)
        } else {
            0
        })
}

/// An [`ElemCount`] kept across positions in `Memo::counts`
/// ([`ElemCount::lower_kept`]): `fixed`, the elements of its literal range
/// and the iterations per changed bit; `keyed`, its keyed comparison
/// ([`kept_shape`]); `attrs`/`locs`, what its tests read.
struct KeptElemCount {
    count: ElemCount,
    slot: usize,
    /// Its range when both ends are literals.
    lit: Option<(i32, i32)>,
    fixed: Option<FixedRange>,
    keyed: Option<usize>,
    attrs: bool,
    locs: bool,
}

impl KeptElemCount {
    /// The loop run, its count added to its register.
    #[inline(always)]
    fn run<const REC: bool>(&self, c: &mut Ctx<'_>, r: &mut Regs) -> Option<bool> {
        let s = &self.count;
        let (key, slot) = self.key_slot(c, r)?;
        let (a, b) = match self.lit {
            Some(ab) => ab,
            None => (s.from.get(c, r)?, s.to.get(c, r)?),
        };
        let iterations = span(a, b);
        let epoch = c.st.get().epoch;
        if epoch == 0
            || iterations > 64
            || c.vars.memo.depth != 0
            || c.vars.steps_left() < iterations
        {
            return s.run::<REC>(c, r);
        }
        self.count_kept(c, r, key, slot, (a, b), &mut (0, 0))?;
        c.vars.set_steps_left(c.vars.steps_left() - iterations);
        Some(true)
    }

    /// The keyed comparison's right side and the count's place in
    /// `Memo::counts` for it. The right side is the same in every iteration
    /// (it reads neither the loop's register nor the count's,
    /// `kept_shape`), so it is read once.
    #[inline(always)]
    fn key_slot(&self, c: &mut Ctx<'_>, r: &mut Regs) -> Option<(i32, usize)> {
        Some(match self.keyed {
            Some(i) => {
                let key = self.count.tests[i].rhs.get(c, r)?;
                (key, self.slot + key.rem_euclid(KEY_WAYS as i32) as usize)
            }
            None => (0, self.slot),
        })
    }

    /// The count over `a..=b` (at most 64 iterations) with `key` in place
    /// `slot`, in a state with an epoch, no memoized evaluation recording:
    /// the kept one, or the kept one with the iterations whose element
    /// changed tested again, or counted afresh; added to the count's
    /// register and kept. The budget is the caller's to charge. `touched`:
    /// the kept epoch the iterations to test again were last found for
    /// with them (a loop over counts kept together finds them once).
    #[inline(always)]
    fn count_kept(
        &self,
        c: &mut Ctx<'_>,
        r: &mut Regs,
        key: i32,
        slot: usize,
        (a, b): (i32, i32),
        touched: &mut (u64, u64),
    ) -> Option<()> {
        let s = &self.count;
        let (attrs, locs) = (self.attrs, self.locs);
        let bits_of = move |e: u16| elem_bits(attrs, locs, e);
        let iterations = span(a, b);
        let st = c.st.get();
        let epoch = st.epoch;
        let kept = c
            .vars
            .memo
            .counts
            .get(slot)
            .copied()
            .filter(|k| k.range == (a, b) && k.key == key);
        let step: i32 = if a <= b { 1 } else { -1 };
        // Whether the count is the one kept for this epoch (nothing to
        // store then).
        let mut same = false;
        let since = kept
            .filter(|k| k.epoch != epoch)
            .and_then(|k| c.vars.memo.history.changed_from(st, k.epoch));
        // The iterations counted (bit `j`: the `j`th) and how many.
        let (counted, ones) = match (kept, since) {
            (Some(k), _) if k.epoch == epoch => {
                same = true;
                (k.counted, k.ones)
            }
            (Some(k), Some(changed)) => {
                let (mut counted, mut ones) = (k.counted, k.ones);
                // Iteration `bit` tested again: whether it counts now.
                let mut update = |bit: u32, now: bool| {
                    let m = 1u64 << bit;
                    if now != (counted & m != 0) {
                        counted ^= m;
                        ones = if now { ones + 1 } else { ones - 1 };
                    }
                };
                if let Some((elems, changes)) = &self.fixed {
                    // The elements of a literal range, looked up once:
                    // the iterations whose element changed found from
                    // the changed bits.
                    if touched.0 != k.epoch {
                        *touched = (k.epoch, changes.touched(changed));
                    }
                    let mut todo = touched.1;
                    while todo != 0 {
                        let bit = todo.trailing_zeros();
                        r[s.var as usize % REGS] = a + step * bit as i32;
                        let now = s.holds::<false>(c, r, Some(elems[bit as usize]))? == s.when;
                        update(bit, now);
                        todo &= todo - 1;
                    }
                } else {
                    let mut i = a;
                    for bit in 0..iterations as u32 {
                        if let Some(e) = s.tab.lookup1(i)? {
                            if bits_of(e) & changed != 0 {
                                r[s.var as usize % REGS] = i;
                                update(bit, s.holds::<false>(c, r, Some(e))? == s.when);
                            }
                        }
                        i = i.wrapping_add(step);
                    }
                }
                (counted, ones)
            }
            _ => {
                let mut counted = 0u64;
                let mut i = a;
                for bit in 0..iterations {
                    let id = s.tab.lookup1(i)?;
                    r[s.var as usize % REGS] = i;
                    if s.holds::<false>(c, r, id)? == s.when {
                        counted |= 1 << bit;
                    }
                    i = i.wrapping_add(step);
                }
                (counted, counted.count_ones())
            }
        };
        let x = &mut r[s.n as usize % REGS];
        let total = i64::from(*x) + i64::from(s.k) * i64::from(ones);
        *x = i32::try_from(total).ok()?;
        r[s.var as usize % REGS] = b;
        if !same {
            let counts = &mut c.vars.memo.counts;
            if counts.len() <= slot {
                counts.resize(slot + 1, KeptCount::default());
            }
            counts[slot] = KeptCount {
                epoch,
                range: (a, b),
                key,
                counted,
                ones,
            };
        }
        Some(())
    }
}

/// A kept count's literal range ([`ElemCount::lower_kept`]): the element of
/// each iteration (0 for no such element) and the iterations each bit of
/// `State::changed` concerns.
type FixedRange = (Box<[u16]>, ChangeIndex);

/// Which items of a kept value (a count's iterations, a formula's
/// clauses, a scan's locations; at most 64 per word, `W` words) read what
/// each bit of `State::changed` stands for, so that the items a change
/// touches are found from its bits without visiting the others.
pub(crate) struct ChangeIndex<const W: usize = 1> {
    /// Per bit, the items reading what it stands for.
    by_bit: Box<[[u64; W]; 64]>,
    /// The bits some item reads.
    union: u64,
}

impl<const W: usize> Default for ChangeIndex<W> {
    fn default() -> ChangeIndex<W> {
        ChangeIndex {
            by_bit: Box::new([[0; W]; 64]),
            union: 0,
        }
    }
}

impl<const W: usize> ChangeIndex<W> {
    /// Item `j` reads what the bits of `mask` stand for.
    fn add(&mut self, j: usize, mut mask: u64) {
        self.union |= mask;
        while mask != 0 {
            self.by_bit[mask.trailing_zeros() as usize][j / 64] |= 1 << (j % 64);
            mask &= mask - 1;
        }
    }

    /// The items reading something under `changed`, `W` words of them.
    #[inline(always)]
    fn touched_words(&self, changed: u64) -> [u64; W] {
        let (mut hit, mut items) = (changed & self.union, [0u64; W]);
        while hit != 0 {
            let by = &self.by_bit[hit.trailing_zeros() as usize];
            for (i, b) in items.iter_mut().zip(by) {
                *i |= b;
            }
            hit &= hit - 1;
        }
        items
    }
}

impl ChangeIndex {
    /// The items reading something under `changed`.
    #[inline(always)]
    fn touched(&self, changed: u64) -> u64 {
        let [items] = self.touched_words(changed);
        items
    }
}

/// The ids `tab` gives the names of the literal range from `a` to `b`
/// (either direction, at most 64 values), in order (`None`: no such
/// name), when the table decides every one.
fn literal_range_ids(tab: &IdTable, a: i32, b: i32) -> Option<Vec<Option<u16>>> {
    if a.abs_diff(b) >= 64 {
        return None;
    }
    let step = if a <= b { 1 } else { -1 };
    let mut out = Vec::new();
    let mut i = a;
    loop {
        out.push(tab.lookup1(i)?);
        if i == b {
            return Some(out);
        }
        i += step;
    }
}

/// The places in `Memo::counts` of a counting loop with a keyed comparison
/// ([`kept_shape`]): the counts of this many values of its right side (the
/// rows of `nim-orig`'s `Left($LR)`) are kept at once.
const KEY_WAYS: u16 = 8;

/// What a kept count's iteration tests, for sharing places between loops
/// (`Builder::kept_slot`): per comparison what it reads, its operator and
/// its literal (`None` for the keyed comparison).
type KeptSig = Vec<(ElemKey, Op, Option<i32>)>;

/// The places in `Memo::counts` of the counting loops of one shape
/// (`Compiler::kept_shapes`): the names' table, the comparisons
/// ([`KeptSig`]), the condition's value that counts, the first place.
pub(crate) struct KeptShape {
    tab: IdTable,
    sig: KeptSig,
    when: bool,
    slot: u16,
}

/// Whether a `FORALL` counting with `tests` over register `var` into
/// register `n` keeps its counts ([`ElemCount::lower_kept`]): each
/// comparison is against a literal but for at most one whose right side is
/// a register other than `var` and `n`, a variable, or one of those plus a
/// literal — the same value in every iteration. Then what an iteration
/// counts depends on the position and on the value of that comparison's
/// right side only. Gives the *keyed* comparison — that one, else the first
/// comparison of a `STATE` or `OWNER` with a literal, else none — whose
/// value picks one of [`KEY_WAYS`] places, and the loop's [`KeptSig`]
/// (loops of one signature, keyed value and range count the same: a copy of
/// `nim-orig`'s `Left($LR)` specialized for row 3, `STATE("m($LE)") == 3`,
/// takes the count the end check's `Left($AR)` kept for `$AR` = 3).
fn kept_shape(tests: &[ElemTest], var: u8, n: u8) -> Option<(Option<usize>, KeptSig)> {
    let mut keyed = None;
    for (i, t) in tests.iter().enumerate() {
        match t.rhs {
            Leaf::Lit(_) => {}
            Leaf::Reg(k) | Leaf::RegAdd(k, _) if k != var && k != n && keyed.is_none() => {
                keyed = Some(i)
            }
            Leaf::Var(_) | Leaf::VarAdd(..) if keyed.is_none() => keyed = Some(i),
            _ => return None,
        }
    }
    let keyed = keyed.or_else(|| tests.iter().position(|t| t.key != ElemKey::LocType));
    let sig = tests
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let lit = match t.rhs {
                Leaf::Lit(x) if Some(i) != keyed => Some(x),
                _ => None,
            };
            (t.key, t.op, lit)
        })
        .collect();
    Some((keyed, sig))
}

/// What a counting loop with a slot ([`ElemCount::lower_kept`]) counted in
/// a state of epoch `epoch` (0: nothing yet) over the range `range` with
/// `key` the value of its keyed comparison's right side (0 without one):
/// bit `j` for the `j`th iteration, `ones` the bits set (kept up to date as
/// bits change: the machines built for have no population count
/// instruction, and counting the bits in software cost a tenth of a count
/// brought forward).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeptCount {
    epoch: u64,
    range: (i32, i32),
    key: i32,
    counted: u64,
    ones: u32,
}

impl KeptCount {
    /// The epoch of the state it was counted in (0: none).
    pub(crate) fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Whether a count was kept in this slot.
    #[cfg(test)]
    pub(crate) fn is_set(&self) -> bool {
        self.epoch != 0
    }
}

/// The iterations of a `FORALL`/`FORSOME` over registers from `a` to `b`
/// (counting down when `b < a`) as every loop over registers runs them: per
/// iteration the budget step (give up when it runs out) and the loop's
/// register `var` set, then `body`, whose `Some(v)` ends the loop with `v`
/// (`None` from `body`: give up); after the last iteration the loop gives
/// `end`. The register form of `compile::over_range`.
#[inline(always)]
pub(crate) fn over_range_reg(
    c: &mut Ctx<'_>,
    r: &mut Regs,
    var: u8,
    range: (i32, i32),
    end: bool,
    mut body: impl FnMut(&mut Ctx<'_>, &mut Regs, i32) -> Option<Option<bool>>,
) -> Option<bool> {
    over_range_with(c, r, range, end, |c, r, i| {
        r[var as usize % REGS] = i;
        body(c, r, i)
    })
}

/// [`over_range_reg`] without the register: `body` gets each value (a
/// [`LiveLoop`] writes it into its variable).
#[inline(always)]
fn over_range_with(
    c: &mut Ctx<'_>,
    r: &mut Regs,
    (a, b): (i32, i32),
    end: bool,
    mut body: impl FnMut(&mut Ctx<'_>, &mut Regs, i32) -> Option<Option<bool>>,
) -> Option<bool> {
    let step: i64 = if a <= b { 1 } else { -1 };
    let mut i = i64::from(a);
    loop {
        c.vars.step().ok()?;
        if let Some(v) = body(c, r, i as i32)? {
            return Some(v);
        }
        if i == i64::from(b) {
            return Some(end);
        }
        i += step;
    }
}

/// A loop body `EMPTY("t($k)")` or `NOT EMPTY("t($k)")` over the loop's
/// own register `k` (`nim`'s `FreeBin`, `FORSOME($k, 1, 16,
/// EMPTY("bin($k)"))`): the template's table and whether the body is
/// negated (true when the location must be occupied).
fn scan_body(body: &Pure, var: u8) -> Option<(IdTable, bool)> {
    let (loc, occupied) = match body {
        Pure::Empty(loc) => (loc, false),
        Pure::Not(x) => match &**x {
            Pure::Empty(loc) => (loc, true),
            _ => return None,
        },
        _ => return None,
    };
    match &**loc {
        PLoc::One(Pure::Reg(k), tab) if *k == var => Some((tab.clone(), occupied)),
        _ => None,
    }
}

/// A loop whose body is a [`scan_body`], in one closure: per iteration the
/// budget step and the register set as the general loop does, then the
/// location's id from the table (give up when it cannot decide) and its
/// occupant read (recorded when `REC`, as `empty_at` does); no closure call
/// per iteration.
fn scan_loop<const REC: bool>(
    all: bool,
    var: u8,
    from: Leaf,
    to: Leaf,
    tab: IdTable,
    occupied: bool,
) -> PBool {
    fb(move |c, r| {
        let range = (from.get(c, r)?, to.get(c, r)?);
        over_range_reg(c, r, var, range, all, |c, _, i| {
            let empty = match tab.lookup1(i)? {
                Some(l) => c.rd_content::<REC>(l).is_none(),
                None => true,
            };
            let x = empty != occupied;
            Some((all != x).then_some(x))
        })
    })
}

/// The bounds of a loop over a literal range.
fn literal_bounds(from: &Pure, to: &Pure) -> Option<(i32, i32)> {
    match (from, to) {
        (&Pure::Lit(a), &Pure::Lit(b)) => Some((a, b)),
        _ => None,
    }
}

/// A scan ([`scan_body`]) over a literal range that keeps, per state
/// epoch, the iteration it stopped at (`Memo::scans`, slot `slot`; issue
/// 18 twenty-eighth step: `nim`'s `FreeBin`, the first empty bin). In a
/// state of that epoch the stop is the kept one; in a child of it
/// (`State::parent`), or a later descendant the epoch history remembers
/// (`memo::EpochHistory::changed_from`: the scan was not asked in the
/// positions between, step 53), the iterations before the first one whose
/// location changed since (`State::changed`, found from the changed bits,
/// [`ChangeIndex`]) did not stop the loop before and still do not, so the scan
/// goes on from that one, unless it lies after the kept stop, which then
/// stands. The loop's register ends at the stop (the last value when it
/// ran to the end) and the budget is charged one step per iteration up to
/// it, as the loop would; without budget for them, in a state without an
/// epoch or while a memoized evaluation records its reads, the loop runs
/// as [`scan_loop`] runs it.
pub(crate) struct KeptScan {
    slot: usize,
    locs: Box<[Option<u16>]>,
    /// The iterations whose location each bit of `State::changed` stands
    /// for.
    changes: ChangeIndex,
    /// The register's first value and its step.
    a: i32,
    step: i32,
}

/// Where a [`KeptScan`] stopped in a state of epoch `epoch` (0: nothing
/// yet): the iteration, or the number of iterations when none stopped it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ScanStop {
    epoch: u64,
    stop: u32,
}

impl ScanStop {
    /// Whether a stop was kept in this slot.
    #[cfg(test)]
    pub(crate) fn is_set(&self) -> bool {
        self.epoch != 0
    }
}

impl KeptScan {
    /// The scan of slot `slot` visiting `locs`, its register counting from
    /// `a` by `step`.
    fn new(slot: u16, locs: Vec<Option<u16>>, a: i32, step: i32) -> KeptScan {
        let mut changes = ChangeIndex::default();
        for (j, l) in locs.iter().enumerate() {
            if let Some(l) = *l {
                changes.add(j, crate::state::content_bit(l as usize));
            }
        }
        KeptScan {
            slot: slot as usize,
            locs: locs.into_boxed_slice(),
            changes,
            a,
            step,
        }
    }

    /// The iteration at which the loop stops in `st`, looking from
    /// iteration `j` on (the ones before it do not stop it), or the number
    /// of iterations.
    #[inline(always)]
    fn scan_from(&self, st: &crate::state::State, mut j: usize, all: bool, occupied: bool) -> u32 {
        while j < self.locs.len() {
            let empty = self.locs[j].is_none_or(|l| st.content(l).is_none());
            if (empty != occupied) != all {
                break;
            }
            j += 1;
        }
        j as u32
    }

    /// The scan (`FORALL` when `all`, over register `var`, its body true
    /// for an occupied location when `occupied`) with its stop kept; `plain`
    /// is the scan as [`scan_loop`] runs it.
    fn lower(self, all: bool, var: u8, occupied: bool, plain: PBool) -> PBool {
        let n = self.locs.len() as u32;
        fb(move |c, r| {
            let st = c.st.get();
            let epoch = st.epoch;
            if epoch == 0 || c.vars.memo.depth != 0 {
                return plain(c, r);
            }
            let kept = c.vars.memo.scans.get(self.slot).copied();
            let since = kept
                .filter(|k| k.epoch != epoch)
                .and_then(|k| c.vars.memo.history.changed_from(st, k.epoch));
            let (stop, same) = match (kept, since) {
                (Some(k), _) if k.epoch == epoch => (k.stop, true),
                (Some(k), Some(changed)) => {
                    // The first iteration whose location changed (64:
                    // none, after every stop).
                    let first = self.changes.touched(changed).trailing_zeros();
                    if first > k.stop {
                        (k.stop, false)
                    } else {
                        (self.scan_from(st, first as usize, all, occupied), false)
                    }
                }
                _ => (self.scan_from(st, 0, all, occupied), false),
            };
            // One budget step per iteration run, as the loop takes them.
            let steps = u64::from(if stop < n { stop + 1 } else { n });
            if c.vars.steps_left() < steps {
                return plain(c, r);
            }
            c.vars.set_steps_left(c.vars.steps_left() - steps);
            r[var as usize % REGS] = self.a + self.step * stop.min(n - 1) as i32;
            if !same {
                let scans = &mut c.vars.memo.scans;
                if scans.len() <= self.slot {
                    scans.resize(self.slot + 1, ScanStop::default());
                }
                scans[self.slot] = ScanStop { epoch, stop };
            }
            // Stopped: the body's value that stops the loop (`true` for
            // FORSOME, `false` for FORALL); else the loop's end value.
            Some(if stop < n { !all } else { all })
        })
    }
}

/// `EMPTY` of a templated location name: the id from the template's table
/// (give up when the table cannot decide), `true` for no such location.
fn empty_at(loc: &PLoc, rec: bool) -> PBool {
    at_occupant(loc, rec, no_pre, |_, o, _| o.is_none())
}

/// The id named by a [`PLoc`] (a location, or an element for
/// [`PElem::Name`]): `Some(None)` for no such name, `None` when the id
/// table cannot decide (give up).
enum Named {
    Const(Option<u16>),
    One(Leaf, IdTable),
    Two(Leaf, Leaf, IdTable),
    /// A name over two registers (the usual template inside an inlined
    /// call, `"b($CX,$CY)"`): read without `Leaf`'s dispatch.
    Regs(usize, usize, IdTable),
}

impl Named {
    fn of(loc: &PLoc, rec: bool) -> Named {
        match loc {
            &PLoc::Const(l) => Named::Const(l),
            PLoc::Two(Pure::Reg(x), Pure::Reg(y), tab) => {
                Named::Regs(*x as usize % REGS, *y as usize % REGS, tab.clone())
            }
            PLoc::One(x, tab) => Named::One(Leaf::of(x, rec), tab.clone()),
            PLoc::Two(x, y, tab) => Named::Two(Leaf::of(x, rec), Leaf::of(y, rec), tab.clone()),
        }
    }

    #[inline(always)]
    fn get(&self, c: &mut Ctx<'_>, r: &mut Regs) -> Option<Option<u16>> {
        match self {
            Named::Const(l) => Some(*l),
            Named::One(x, tab) => tab.lookup1(x.get(c, r)?),
            Named::Two(x, y, tab) => {
                let p = x.get(c, r)?;
                tab.lookup2(p, y.get(c, r)?)
            }
            Named::Regs(x, y, tab) => tab.lookup2(r[*x], r[*y]),
        }
    }
}

/// `IF([g AND] NOT EMPTY(n), OWNER/STATE(CONTENT(n)), d)` with the same
/// name `n` twice (`reversi6-orig`'s `Colour`): the guard `g` (if any), the
/// attribute and the name of the `CONTENT`, and `d`. The occupant is then
/// read once: `NOT EMPTY` is false for an empty location and for a name
/// that is no location, [`at_occupant`]'s `None` for both. Between the
/// test and the branch nothing runs, so the name's operands (literals,
/// registers, variables) have the same values in both.
fn guarded_read<'p>(
    c: &'p Pure,
    t: &'p Pure,
    e: &Pure,
) -> Option<(Option<&'p Pure>, Attr, &'p PLoc, i32)> {
    let &Pure::Lit(d) = e else { return None };
    let Pure::Attr(attr @ (Attr::Owner | Attr::State), el) = t else {
        return None;
    };
    let PElem::Elem(Pure::Content(read)) = &**el else {
        return None;
    };
    let (g, test) = match c {
        Pure::And(g, test) => (Some(&**g), &**test),
        test => (None, test),
    };
    let Pure::Not(test) = test else { return None };
    let Pure::Empty(tested) = &**test else {
        return None;
    };
    same_name(read, tested).then_some((g, *attr, &**read, d))
}

/// Whether two location names built in place certainly name the same
/// location when read one after the other with nothing run between: equal
/// tables over the same literals, registers or variables.
fn same_name(a: &PLoc, b: &PLoc) -> bool {
    fn same(x: &Pure, y: &Pure) -> bool {
        match (x, y) {
            (Pure::Lit(i), Pure::Lit(j)) => i == j,
            (Pure::Reg(i), Pure::Reg(j)) => i == j,
            (Pure::Var(v), Pure::Var(w)) => v == w,
            _ => false,
        }
    }
    match (a, b) {
        (PLoc::Const(l), PLoc::Const(m)) => l == m,
        (PLoc::One(x, t), PLoc::One(y, u)) => same(x, y) && t.same_table(u),
        (PLoc::Two(x1, y1, t), PLoc::Two(x2, y2, u)) => {
            same(x1, x2) && same(y1, y2) && t.same_table(u)
        }
        _ => false,
    }
}

/// No test before a location's occupant is read ([`at_occupant`]).
fn no_pre<T>(_: &mut Ctx<'_>, _: &mut Regs) -> Option<Option<T>> {
    Some(None)
}

/// `OWNER`/`STATE` (`attr`) of element `e`, the read recorded when `rec`
/// (a literal where it is inlined).
#[inline(always)]
fn attr_read(c: &mut Ctx<'_>, attr: Attr, e: u16, rec: bool) -> i32 {
    match (attr, rec) {
        (Attr::Owner, true) => c.rd_owner::<true>(e),
        (Attr::Owner, false) => c.rd_owner::<false>(e),
        (_, true) => c.rd_state::<true>(e),
        (_, false) => c.rd_state::<false>(e),
    }
}

/// A closure reading the occupant of the location `loc` names in place and
/// giving `f` of it (`None`: an empty location or a name that is no
/// location; the flag: `rec`), inside the closure of what uses it
/// ([`empty_at`], [`content_at`], [`attr_of`], [`eltype_of`],
/// [`guarded_read`]). First `pre`: its `Some(v)` gives `v` before the
/// location is read (a guard that fails). It gives up when `pre`, an
/// operand of the name or the id table does. One closure per shape of the
/// name (a name over two registers reads them without `Leaf`'s dispatch)
/// and per `rec`, so none of them dispatches on those at run time:
/// measured, one closure dispatching on the shape for `EMPTY` and
/// `CONTENT` took 0.5–3.3 % more instructions a game (`jumping-orig` the
/// most).
fn at_occupant<T, Pre, F>(loc: &PLoc, rec: bool, pre: Pre, f: F) -> P<T>
where
    T: 'static,
    Pre: Fn(&mut Ctx<'_>, &mut Regs) -> Option<Option<T>> + Send + Sync + 'static,
    F: Fn(&mut Ctx<'_>, Option<u16>, bool) -> T + Send + Sync + 'static,
{
    fn boxed<T, G>(g: G) -> P<T>
    where
        G: Fn(&mut Ctx<'_>, &mut Regs) -> Option<T> + Send + Sync + 'static,
    {
        Box::new(g)
    }
    macro_rules! arms {
        ($rec:literal) => {{
            // The occupant of location `id` (`None`: no such location), then `f`.
            macro_rules! then {
                ($c:expr, $id:expr) => {{
                    let o = match $id {
                        Some(l) => $c.rd_content::<$rec>(l),
                        None => None,
                    };
                    Some(f($c, o, $rec))
                }};
            }
            match Named::of(loc, rec) {
                Named::Const(l) => boxed(move |c, r| {
                    if let Some(v) = pre(c, r)? {
                        return Some(v);
                    }
                    then!(c, l)
                }),
                Named::One(x, tab) => boxed(move |c, r| {
                    if let Some(v) = pre(c, r)? {
                        return Some(v);
                    }
                    let id = tab.lookup1(x.get(c, r)?)?;
                    then!(c, id)
                }),
                Named::Two(x, y, tab) => boxed(move |c, r| {
                    if let Some(v) = pre(c, r)? {
                        return Some(v);
                    }
                    let p = x.get(c, r)?;
                    let id = tab.lookup2(p, y.get(c, r)?)?;
                    then!(c, id)
                }),
                Named::Regs(x, y, tab) => boxed(move |c, r| {
                    if let Some(v) = pre(c, r)? {
                        return Some(v);
                    }
                    let id = tab.lookup2(r[x], r[y])?;
                    then!(c, id)
                }),
            }
        }};
    }
    if rec {
        arms!(true)
    } else {
        arms!(false)
    }
}

/// `CONTENT` of a location named in place: the occupant's id, or
/// [`NO_ELEM`] for an empty location or a name that is no location (the
/// closures give `""` for both).
fn content_at(loc: &PLoc, rec: bool) -> PInt {
    at_occupant(loc, rec, no_pre, |_, o, _| o.map_or(NO_ELEM, i32::from))
}

/// `OWNER`/`STATE` of an element: -1 for no element (an Elem value
/// [`NO_ELEM`], or a name that is no element), as the closures give.
fn attr_of(attr: Attr, el: &PElem, rec: bool) -> PInt {
    /// The attribute of element `id` (`None`: no such element).
    macro_rules! attr {
        ($c:expr, $id:expr, $rec:literal) => {
            Some(match $id {
                Some(e) => attr_read($c, attr, e, $rec),
                None => -1,
            })
        };
    }
    if !matches!(attr, Attr::Owner | Attr::State) {
        return fi(|_, _| None);
    }
    match el {
        // Of the content of a location named in place
        // (`STATE(CONTENT("b($x,$y)"))`): the occupant read here, no
        // closure for `CONTENT` (the same reads, in the same order).
        PElem::Elem(Pure::Content(loc)) => {
            at_occupant(loc, rec, no_pre, move |c, o, rec| match o {
                Some(e) => attr_read(c, attr, e, rec),
                None => -1,
            })
        }
        PElem::Elem(x) => {
            let x = Leaf::of(x, rec);
            // `NO_ELEM` (and only it: the other values are ids) is no element.
            if rec {
                fi(move |c, r| attr!(c, u16::try_from(x.get(c, r)?).ok(), true))
            } else {
                fi(move |c, r| attr!(c, u16::try_from(x.get(c, r)?).ok(), false))
            }
        }
        PElem::Name(n) => {
            let at = Named::of(n, rec);
            if rec {
                fi(move |c, r| attr!(c, at.get(c, r)?, true))
            } else {
                fi(move |c, r| attr!(c, at.get(c, r)?, false))
            }
        }
    }
}

/// `LOCTYPE(LOCATION(..))` of an element: the index of its location's type,
/// [`NO_LTYPE`] for no element (an Elem value [`NO_ELEM`], or a name that is
/// no element), as the closures give `""`. The element's location is a read
/// of the position (recorded for the memo as `LOCATION` records it); the
/// location's type is not.
fn loctype_of(el: &PElem, rec: bool) -> PInt {
    macro_rules! ltype {
        ($c:expr, $id:expr, $rec:literal) => {
            Some(match $id {
                Some(e) => {
                    let l = $c.rd_location::<$rec>(e);
                    $c.g.locations[l as usize].location_type as i32
                }
                None => NO_LTYPE,
            })
        };
    }
    match el {
        PElem::Elem(x) => {
            let x = Leaf::of(x, rec);
            if rec {
                fi(move |c, r| ltype!(c, u16::try_from(x.get(c, r)?).ok(), true))
            } else {
                fi(move |c, r| ltype!(c, u16::try_from(x.get(c, r)?).ok(), false))
            }
        }
        PElem::Name(n) => {
            let at = Named::of(n, rec);
            if rec {
                fi(move |c, r| ltype!(c, at.get(c, r)?, true))
            } else {
                fi(move |c, r| ltype!(c, at.get(c, r)?, false))
            }
        }
    }
}

/// `ELTYPE(..)` of an element: the index of its type, [`NO_LTYPE`] for no
/// element (an Elem value [`NO_ELEM`], or a name that is no element), as the
/// closures give `""`. An element's type never changes: no read of the
/// position.
fn eltype_of(el: &PElem, rec: bool) -> PInt {
    let ty = |c: &Ctx<'_>, id: Option<u16>| match id {
        Some(e) => c.g.elements[e as usize].element_type as i32,
        None => NO_LTYPE,
    };
    match el {
        // Of the content of a location named in place, as in [`attr_of`].
        PElem::Elem(Pure::Content(loc)) => at_occupant(loc, rec, no_pre, move |c, o, _| ty(c, o)),
        PElem::Elem(x) => {
            let x = Leaf::of(x, rec);
            fi(move |c, r| {
                let id = u16::try_from(x.get(c, r)?).ok();
                Some(ty(c, id))
            })
        }
        PElem::Name(n) => {
            let at = Named::of(n, rec);
            fi(move |c, r| {
                let id = at.get(c, r)?;
                Some(ty(c, id))
            })
        }
    }
}
