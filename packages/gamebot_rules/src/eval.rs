//! The expression evaluator (§5.4–§5.11).

use crate::expr::{Builtin, Expr, FuncId, LazyItem, VarId};
use crate::game::Game;
use crate::lexer::Op;
use crate::state::{Attr, State};
use crate::value::{Deferred, LazyMember, Str, Sym, Value};
use smallvec::SmallVec;
use std::sync::Arc;

/// Stack a nest of user-function calls may take, counted from the outermost
/// call: the recursion limit is a budget of stack, not a number of calls, so
/// a deep but light recursion (a function calling itself 300 times) runs,
/// while an unbounded one fails with an error long before the thread's stack
/// (2 MiB for a spawned thread) is gone.
pub(crate) const CALL_STACK_BUDGET: usize = 1 << 20;

/// Nested user-function calls allowed at most, whatever stack they take.
pub(crate) const MAX_CALL_DEPTH: u32 = 100_000;

/// Where the stack is now: the address of a local of the caller's frame.
#[inline(always)]
fn stack_mark() -> usize {
    let probe = 0u8;
    std::hint::black_box(&probe) as *const u8 as usize
}

/// The error of a recursion past [`CALL_STACK_BUDGET`] or [`MAX_CALL_DEPTH`].
#[cold]
#[inline(never)]
fn too_deep(depth: u32, used: usize, name: &str) -> Box<EvalError> {
    EvalError::new(format!(
        "recursion too deep: {depth} nested calls take {} KiB of stack, more than the \
         {} KiB (or {MAX_CALL_DEPTH} calls) a rule evaluation may (unbounded recursion in {name}?)",
        used / 1024,
        CALL_STACK_BUDGET / 1024
    ))
}

/// Evaluation steps (loop iterations plus user-function calls) one engine
/// operation may take by default: move generation, applying a move's rule
/// and followup, the scorings, the end-of-game checks, an `[EVALUATION]`.
/// Every expression tree is finite, so only loops and calls can make an
/// evaluation run long; counting them bounds the whole operation. The games
/// in `games/` need at most a few thousand steps per operation; ten million
/// take well under a second.
pub const DEFAULT_STEP_BUDGET: u64 = 10_000_000;

/// An evaluation error: a message plus the chain of user functions it happened in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    pub message: String,
    /// Innermost first: `function Name (line N)`.
    pub trace: Vec<String>,
}

impl EvalError {
    /// The error traced as raised in line `line` of function `function`
    /// (one entry more of [`EvalError::trace`]).
    #[cold]
    pub(crate) fn at_line(mut self: Box<Self>, function: &str, line: u32) -> Box<EvalError> {
        self.trace.push(format!("function {function} line {line}"));
        self
    }

    pub(crate) fn new(message: impl Into<String>) -> Box<EvalError> {
        // Boxed: keeps `Result<Value, _>` small on the hot path.
        Box::new(EvalError {
            message: message.into(),
            trace: Vec::new(),
        })
    }
}

impl std::error::Error for EvalError {}

/// Distinct frames of the call chain shown at most; the rest are counted.
const TRACE_SHOWN: usize = 8;

impl std::fmt::Display for EvalError {
    /// The message, then the call chain innermost first, a frame repeated
    /// by a recursion shown once with its count.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)?;
        let mut shown = 0;
        let mut rest = &self.trace[..];
        while let Some(first) = rest.first() {
            let run = rest.iter().take_while(|t| *t == first).count();
            if shown == TRACE_SHOWN {
                return write!(f, " (and {} more calls)", rest.len());
            }
            match run {
                1 => write!(f, " (in {first})")?,
                n => write!(f, " (in {first}, {n} times nested)")?,
            }
            shown += 1;
            rest = &rest[run..];
        }
        Ok(())
    }
}

type R<T> = Result<T, Box<EvalError>>;
type SetPair = (Arc<Vec<Value>>, Arc<Vec<Value>>);

/// The global variable namespace: one slot per variable name of the game.
#[derive(Clone, Debug)]
pub struct Vars {
    slots: Vec<Option<Value>>,
    /// Steps each operation may take ([`DEFAULT_STEP_BUDGET`] unless set).
    budget: u64,
    /// Steps left in the current operation.
    steps_left: u64,
    /// Evaluate with the tree-walking reference evaluator instead of the
    /// compiled form (see `compile.rs`); for tests that compare the two.
    pub(crate) reference: bool,
    /// Memoized calls of pure functions (`memo.rs`); used by the compiled form.
    pub(crate) memo: crate::memo::Memo,
    /// The variables written by register code (`pure.rs`, [`Vars::write_logged`])
    /// with their values before, so that an evaluation over registers that
    /// gives up can put them back ([`Vars::leave_logged`]) before its closures run.
    undo: Vec<(VarId, Option<Value>)>,
    /// Per variable, the logging evaluation (`undo_at`) that logged it last:
    /// an evaluation logs a variable's value before its first write only.
    undo_stamp: Vec<u64>,
    /// The number of the innermost logging evaluation running (0: none).
    undo_at: u64,
    /// The last number given to a logging evaluation.
    undo_last: u64,
    /// Evaluations over registers that write variables, nested: the log is
    /// emptied when the outermost one gives a value.
    undo_depth: u32,
}

impl Default for Vars {
    fn default() -> Vars {
        Vars::new(0)
    }
}

impl Vars {
    pub fn new(n: usize) -> Vars {
        Vars {
            slots: vec![None; n],
            budget: DEFAULT_STEP_BUDGET,
            steps_left: DEFAULT_STEP_BUDGET,
            reference: false,
            memo: crate::memo::Memo::default(),
            undo: Vec::new(),
            undo_stamp: vec![0; n],
            undo_at: 0,
            undo_last: 0,
            undo_depth: 0,
        }
    }
    /// Sets the steps per operation (takes effect at the next operation).
    pub fn set_budget(&mut self, steps: u64) {
        self.budget = steps;
    }
    /// The steps per operation.
    pub fn budget(&self) -> u64 {
        self.budget
    }
    /// Starts an engine operation: the full budget is available again.
    #[inline]
    pub fn start_operation(&mut self) {
        self.steps_left = self.budget;
    }
    /// Takes one step of the budget (a loop iteration or a function call).
    #[inline]
    pub(crate) fn step(&mut self) -> R<()> {
        match self.steps_left.checked_sub(1) {
            Some(left) => {
                self.steps_left = left;
                Ok(())
            }
            None => Err(self.exhausted()),
        }
    }
    #[cold]
    #[inline(never)]
    fn exhausted(&self) -> Box<EvalError> {
        EvalError::new(format!(
            "evaluation budget exhausted: more than {} loop iterations and function calls \
             in one operation (a FORALL/FORSOME range or a recursion too large for a rule file)",
            self.budget
        ))
    }
    /// Empties the namespace (a fresh one per engine operation, §5.4).
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            if s.is_some() {
                *s = None;
            }
        }
    }
    /// Unbinds the variables `vs` only (`Rule::gen_clear`).
    #[inline]
    pub(crate) fn clear_only(&mut self, vs: &[VarId]) {
        for &v in vs {
            if let Some(s) = self.slots.get_mut(v as usize) {
                if s.is_some() {
                    *s = None;
                }
            }
        }
    }
    #[inline]
    pub fn set(&mut self, v: VarId, value: Value) {
        self.slots[v as usize] = Some(value);
    }
    /// [`Vars::set`] of an Int: overwrites an Int in place (no drop of the old value).
    #[inline]
    pub fn set_int(&mut self, v: VarId, i: i32) {
        match &mut self.slots[v as usize] {
            Some(Value::Int(x)) => *x = i,
            slot => *slot = Some(Value::Int(i)),
        }
    }
    /// [`Vars::set_int`] by register code (`pure.rs`): the value before the
    /// running logging evaluation's first write of `v` is logged, for
    /// [`Vars::leave_logged`].
    #[inline(always)]
    pub(crate) fn write_logged(&mut self, v: VarId, i: i32) {
        let stamp = &mut self.undo_stamp[v as usize];
        if *stamp == self.undo_at {
            self.set_int(v, i);
        } else {
            *stamp = self.undo_at;
            let old = self.slots[v as usize].replace(Value::Int(i));
            self.undo.push((v, old));
        }
    }
    /// Enters an evaluation over registers that may write variables: the
    /// log's mark and the enclosing logging evaluation's number, for
    /// [`Vars::leave_logged`].
    #[inline]
    pub(crate) fn enter_logged(&mut self) -> (usize, u64) {
        self.undo_depth += 1;
        self.undo_last += 1;
        let outer = std::mem::replace(&mut self.undo_at, self.undo_last);
        (self.undo.len(), outer)
    }
    /// Leaves the evaluation entered at `mark` (inside the logging
    /// evaluation `outer`): when it gave up (`done` is false) the variables
    /// written since get their values before back, latest first (so each
    /// ends with the value it had at the mark); when it gave a value its
    /// writes stand (and are forgotten once no enclosing such evaluation can
    /// still give up). The enclosing evaluation logs a variable again on its
    /// next write (the stamp is this one's), so a give-up of its own puts
    /// back the value from before it.
    #[inline]
    pub(crate) fn leave_logged(&mut self, (mark, outer): (usize, u64), done: bool) {
        self.undo_at = outer;
        self.undo_depth -= 1;
        if !done {
            while self.undo.len() > mark {
                if let Some((v, old)) = self.undo.pop() {
                    self.slots[v as usize] = old;
                }
            }
        } else if self.undo_depth == 0 {
            self.undo.clear();
        }
    }
    /// The variable slots and the memo tables, borrowed together.
    #[inline]
    pub(crate) fn slots_and_memo(&mut self) -> (&mut [Option<Value>], &mut crate::memo::Memo) {
        (&mut self.slots, &mut self.memo)
    }
    /// Steps left in the current operation.
    pub(crate) fn steps_left(&self) -> u64 {
        self.steps_left
    }
    /// Puts the steps left back (a memoized call that is run again).
    pub(crate) fn set_steps_left(&mut self, steps: u64) {
        self.steps_left = steps;
    }
    /// The slot of a bound variable, for in-place updates.
    #[inline]
    pub(crate) fn get_mut(&mut self, v: VarId) -> Option<&mut Value> {
        self.slots[v as usize].as_mut()
    }
    #[inline]
    pub fn get(&self, v: VarId) -> Option<&Value> {
        self.slots[v as usize].as_ref()
    }
}

/// Read-only access during move generation; read-write when applying a move.
pub(crate) enum StateRef<'a> {
    Ro(&'a State),
    Rw(&'a mut State),
}

impl StateRef<'_> {
    #[inline]
    pub(crate) fn get(&self) -> &State {
        match self {
            StateRef::Ro(s) => s,
            StateRef::Rw(s) => s,
        }
    }
}

pub(crate) struct Ctx<'a> {
    pub g: &'a Game,
    pub st: StateRef<'a>,
    pub vars: &'a mut Vars,
    pub(crate) depth: u32,
    /// [`stack_mark`] at the outermost user-function call under way.
    stack_base: usize,
    /// Set by [`Ctx::call_split`]: the value of the first conjunct of the
    /// called function's last line, when its evaluation got there.
    pub first_conjunct: Option<bool>,
}

/// Whether evaluating `e` always gives a Bool (or fails), so that
/// [`Ctx::bool`] evaluates it exactly as [`Ctx::eval`] would.
fn bool_shaped(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Bool(_)
            | Expr::Binary(
                Op::And | Op::Or | Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge,
                ..
            )
            | Expr::Unary(Op::Not, _)
            | Expr::Builtin(Builtin::Empty, _)
            | Expr::Loop { .. }
            | Expr::Assign(..)
    )
}

/// The error of an integer operation whose result does not fit in 32 bits.
#[cold]
#[inline(never)]
pub(crate) fn overflow(what: String) -> Box<EvalError> {
    EvalError::new(format!(
        "integer overflow: {what} does not fit in a 32-bit Int (-2147483648..2147483647)"
    ))
}

/// A string argument resolved against the game's names.
pub(crate) enum Name {
    Known(Sym),
    /// A text the game does not know (no element, location or literal of that name).
    Unknown,
}

impl<'a> Ctx<'a> {
    pub fn new(g: &'a Game, st: StateRef<'a>, vars: &'a mut Vars) -> Ctx<'a> {
        Ctx {
            g,
            st,
            vars,
            depth: 0,
            stack_base: 0,
            first_conjunct: None,
        }
    }

    /// The checks and bookkeeping of entering a user function: one budget
    /// step, and the recursion's stack within [`CALL_STACK_BUDGET`].
    /// Increments the call depth; the caller decrements it.
    #[inline]
    pub(crate) fn enter_call(&mut self, name: &str) -> R<()> {
        let here = stack_mark();
        if self.depth == 0 {
            self.stack_base = here;
        } else {
            let used = self.stack_base.abs_diff(here);
            if used > CALL_STACK_BUDGET || self.depth >= MAX_CALL_DEPTH {
                return Err(too_deep(self.depth, used, name));
            }
        }
        self.vars.step()?;
        self.depth += 1;
        Ok(())
    }

    /// Whether an inlined call (`pure.rs`) nested `nest` deep in the
    /// expression evaluated now is certainly within the limits
    /// [`Ctx::enter_call`] checks: well below [`MAX_CALL_DEPTH`] and half
    /// the [`CALL_STACK_BUDGET`] (the closures, which check exactly, take
    /// over otherwise).
    #[inline]
    pub(crate) fn inline_call_ok(&self, nest: u32) -> bool {
        self.depth == 0
            || (self.depth.saturating_add(nest) < MAX_CALL_DEPTH - 1
                && self.stack_base.abs_diff(stack_mark()) < CALL_STACK_BUDGET / 2)
    }

    /// Runs `f` at the call depth `nest` inlined calls (`pure.rs`) deeper
    /// than now, as the closures would be there: the depth raised by `nest`
    /// (and the stack's base marked, as [`Ctx::enter_call`] marks it at depth
    /// 0), then put back.
    #[inline(always)]
    pub(crate) fn nested<T>(&mut self, nest: u32, f: impl FnOnce(&mut Self) -> T) -> T {
        let depth = self.depth;
        if nest != 0 && depth == 0 {
            self.stack_base = stack_mark();
        }
        self.depth = depth + nest;
        let x = f(self);
        self.depth = depth;
        x
    }

    #[inline(always)]
    pub(crate) fn state_mut(&mut self, what: Builtin) -> R<&mut State> {
        match &mut self.st {
            StateRef::Rw(s) => Ok(s),
            StateRef::Ro(_) => Err(EvalError::new(format!(
                "{} changes the game state and may not be evaluated while moves are generated \
                 (conditions and toLocations must not change the state)",
                what.name()
            ))),
        }
    }

    #[inline]
    pub(crate) fn var(&self, v: VarId) -> R<&Value> {
        self.vars.get(v).ok_or_else(|| {
            EvalError::new(format!(
                "variable ${} is not bound",
                self.g.var_names[v as usize]
            ))
        })
    }

    pub(crate) fn text<'s>(&'s self, s: &'s Str) -> &'s str {
        match s {
            Str::Sym(s) => &self.g.syms[*s as usize],
            Str::Dyn(d) => d,
        }
    }

    fn int(&mut self, e: &Expr, what: &str) -> R<i32> {
        match e {
            Expr::Int(i) => return Ok(*i),
            Expr::Var(v) => {
                if let Some(Value::Int(i)) = self.vars.get(*v) {
                    return Ok(*i);
                }
            }
            _ => {}
        }
        match self.eval(e)? {
            Value::Int(i) => Ok(i),
            v => Err(EvalError::new(format!(
                "{what} must be an Int, got {} {}",
                v.kind(),
                self.show(&v)
            ))),
        }
    }

    /// Evaluates a Bool-valued operand. The usual Bool-producing shapes are
    /// evaluated here directly (no `Value` round trip through [`Ctx::eval`]);
    /// they behave exactly as their `eval` arms, which call back into these helpers.
    fn bool(&mut self, e: &Expr, what: &str) -> R<bool> {
        match e {
            Expr::Bool(b) => return Ok(*b),
            Expr::Binary(Op::And, a, b) => {
                return Ok(self.bool(a, "the left side of AND")?
                    && self.bool(b, "the right side of AND")?)
            }
            Expr::Binary(Op::Or, a, b) => {
                return Ok(
                    self.bool(a, "the left side of OR")? || self.bool(b, "the right side of OR")?
                )
            }
            Expr::Binary(op @ (Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge), a, b) => {
                return self.compare(*op, a, b)
            }
            Expr::Unary(Op::Not, x) => return Ok(!self.bool(x, "the operand of NOT")?),
            Expr::Builtin(Builtin::Empty, a) => return self.empty(&a[0]),
            Expr::Loop {
                all,
                var,
                from,
                to,
                body,
            } => return self.run_loop(*all, *var, from, to, body),
            Expr::Assign(v, x) => {
                let val = self.eval(x)?;
                self.vars.set(*v, val);
                return Ok(true);
            }
            _ => {}
        }
        match self.eval(e)? {
            Value::Bool(b) => Ok(b),
            v => Err(EvalError::new(format!(
                "{what} must be a Bool, got {} {}",
                v.kind(),
                self.show(&v)
            ))),
        }
    }

    /// One side of a condition `A AND B` (`left`: `A`), evaluated exactly as
    /// evaluating the whole `AND` evaluates it. Fails on any other shape.
    pub(crate) fn and_side(&mut self, e: &Expr, left: bool) -> R<bool> {
        match e {
            Expr::Binary(Op::And, a, _) if left => self.bool(a, "the left side of AND"),
            Expr::Binary(Op::And, _, b) => self.bool(b, "the right side of AND"),
            _ => Err(EvalError::new(
                "internal: a hoisted condition is not an AND",
            )),
        }
    }

    pub(crate) fn show(&self, v: &Value) -> String {
        crate::value::Display {
            value: v,
            syms: &self.g.syms,
        }
        .to_string()
    }

    /// Evaluates a string-valued argument and resolves it to a known name.
    fn name(&mut self, e: &Expr, what: &str) -> R<Name> {
        if let Expr::Interp(t) = e {
            return Ok(match self.template(*t)? {
                Some(s) => Name::Known(s),
                None => Name::Unknown,
            });
        }
        match self.eval(e)? {
            Value::Str(Str::Sym(s)) => Ok(Name::Known(s)),
            Value::Str(Str::Dyn(_)) => Ok(Name::Unknown),
            v => Err(EvalError::new(format!(
                "{what} must be a Str, got {} {}",
                v.kind(),
                self.show(&v)
            ))),
        }
    }

    fn location(&mut self, e: &Expr, what: &str) -> R<Option<u16>> {
        Ok(match self.name(e, what)? {
            Name::Known(s) => self.g.sym_location(s),
            Name::Unknown => None,
        })
    }

    fn element(&mut self, e: &Expr, what: &str) -> R<Option<u16>> {
        // `ELTYPE(CONTENT(..))` and friends: the occupant itself, without the
        // detour through its name (element names are unique, so the result is
        // the same; an empty or unknown location names `""`).
        if let Expr::Builtin(Builtin::Content, a) = e {
            let g = self.g;
            return Ok(match self.location(&a[0], "the argument of CONTENT")? {
                Some(l) => match self.st.get().content(l) {
                    Some(occupant) => Some(occupant),
                    None => g.sym_element(g.empty_sym),
                },
                None => g.sym_element(g.empty_sym),
            });
        }
        Ok(match self.name(e, what)? {
            Name::Known(s) => self.g.sym_element(s),
            Name::Unknown => None,
        })
    }

    fn str_arg(&mut self, e: &Expr, what: &str) -> R<Str> {
        match self.eval(e)? {
            Value::Str(s) => Ok(s),
            v => Err(EvalError::new(format!(
                "{what} must be a Str, got {} {}",
                v.kind(),
                self.show(&v)
            ))),
        }
    }

    /// Interpolates a template and looks the text up: `Some(sym)` when the game
    /// knows the text, `None` otherwise. Integer arguments go through the
    /// template's table; the text is built only when the table cannot decide.
    #[inline]
    pub(crate) fn template(&mut self, t: u32) -> R<Option<Sym>> {
        let tpl = &self.g.templates[t as usize];
        // Fast path (same answers as `Template::lookup`): every argument an Int
        // and the table dense, so no SmallVec and no hashing.
        if let Some(d) = &tpl.dense {
            let mut idx: usize = 0;
            let mut inside = true;
            let mut nonneg = true;
            // Plain slices: no SmallVec capacity test and no bounds check per argument.
            let (vars, mins, dims): (&[VarId], &[i32], &[u32]) = (&tpl.vars, &d.mins, &d.dims);
            for ((&v, &min), &dim) in vars.iter().zip(mins).zip(dims) {
                let Some(Value::Int(x)) = self.vars.get(v) else {
                    return self.template_slow(t);
                };
                nonneg &= *x >= 0;
                let off = x.wrapping_sub(min) as u32;
                if off >= dim {
                    inside = false;
                } else {
                    idx = idx * dim as usize + off as usize;
                }
            }
            if inside {
                let s = d.table[idx];
                if s != Sym::MAX {
                    return Ok(Some(s));
                }
            }
            if tpl.exhaustive && (nonneg || tpl.negatives_unknown) {
                return Ok(None);
            }
        }
        self.template_slow(t)
    }

    fn template_slow(&mut self, t: u32) -> R<Option<Sym>> {
        let tpl = &self.g.templates[t as usize];
        let mut ints: SmallVec<[i32; 4]> = SmallVec::new();
        let mut all_int = true;
        for &v in &tpl.vars {
            match self.var(v)? {
                Value::Int(i) => ints.push(*i),
                Value::Str(_) => all_int = false,
                other => {
                    return Err(EvalError::new(format!(
                        "cannot interpolate ${} holding a {} into a string",
                        self.g.var_names[v as usize],
                        other.kind()
                    )))
                }
            }
        }
        if all_int {
            if let Some(found) = tpl.lookup(&ints) {
                return Ok(found);
            }
        }
        let text = self.template_text(t)?;
        Ok(self.g.sym_of(&text))
    }

    /// The interpolated text itself.
    pub(crate) fn template_text(&mut self, t: u32) -> R<String> {
        let tpl = &self.g.templates[t as usize];
        let mut text = String::new();
        for p in &tpl.pieces {
            match p {
                crate::game::TemplatePiece::Text(s) => text.push_str(s),
                crate::game::TemplatePiece::Var(v) => match self.var(*v)? {
                    Value::Int(i) => text.push_str(&i.to_string()),
                    Value::Str(s) => text.push_str(self.text(s)),
                    other => {
                        return Err(EvalError::new(format!(
                            "cannot interpolate ${} holding a {} into a string",
                            self.g.var_names[*v as usize],
                            other.kind()
                        )))
                    }
                },
            }
        }
        Ok(text)
    }

    /// Calls a user function with already evaluated arguments (deferred followups).
    pub fn call_values(&mut self, f: FuncId, args: &[Value]) -> R<Value> {
        let func = self.func(f, args.len())?;
        for (p, a) in func.params.iter().zip(args) {
            self.vars.set(*p, a.clone());
        }
        self.run_body(f)
    }

    pub(crate) fn func(&self, f: FuncId, argc: usize) -> R<&'a crate::game::Function> {
        let g: &'a Game = self.g;
        let func = g.funcs[f as usize].as_ref().ok_or_else(|| {
            EvalError::new(format!("unknown function {}", g.func_names[f as usize]))
        })?;
        if func.params.len() != argc {
            return Err(EvalError::new(format!(
                "function {} takes {} argument(s), called with {argc}",
                func.name,
                func.params.len()
            )));
        }
        Ok(func)
    }

    /// [`Ctx::call`] of a function whose last line is `A AND B`, recording
    /// `A`'s value in [`Ctx::first_conjunct`] (the evaluation is unchanged).
    pub(crate) fn call_split(&mut self, f: FuncId, args: &[Expr]) -> R<Value> {
        self.first_conjunct = None;
        let func = self.func(f, args.len())?;
        for (p, a) in func.params.iter().zip(args.iter()) {
            let v = self.eval(a)?;
            self.vars.set(*p, v);
        }
        self.run_body_split(f, true)
    }

    fn run_body(&mut self, f: FuncId) -> R<Value> {
        self.run_body_split(f, false)
    }

    fn run_body_split(&mut self, f: FuncId, split: bool) -> R<Value> {
        let g: &'a Game = self.g;
        let Some(func) = g.funcs[f as usize].as_ref() else {
            return Err(EvalError::new(format!(
                "unknown function {}",
                g.func_names[f as usize]
            )));
        };
        if func.body.is_empty() {
            return Err(EvalError::new(format!(
                "function {} has an empty body",
                func.name
            )));
        }
        self.enter_call(&func.name)?;
        let result = self.run_lines(func, split);
        self.depth -= 1;
        result
    }

    /// The body lines of a function (§5.9): stop at the first Bool `false`,
    /// otherwise the last line's value.
    fn run_lines(&mut self, func: &crate::game::Function, split: bool) -> R<Value> {
        let Some((last, guards)) = func.body.split_last() else {
            return Ok(Value::Bool(true));
        };
        let traced = |e: Box<EvalError>, line: u32| e.at_line(&func.name, line);
        for line in guards {
            // A guard line's value only matters when it is `false`; shapes that
            // always give a Bool are evaluated as one.
            let passed = if bool_shaped(&line.expr) {
                self.bool(&line.expr, "a function body line")
            } else {
                self.eval(&line.expr)
                    .map(|v| !matches!(v, Value::Bool(false)))
            };
            match passed {
                Ok(true) => {}
                Ok(false) => return Ok(Value::Bool(false)),
                Err(e) => return Err(traced(e, line.line)),
            }
        }
        if split {
            if let Expr::Binary(Op::And, a, b) = &last.expr {
                // `binary`'s AND arm, with the left side's value kept.
                let left = self
                    .bool(a, "the left side of AND")
                    .map_err(|e| traced(e, last.line))?;
                self.first_conjunct = Some(left);
                if !left {
                    return Ok(Value::Bool(false));
                }
                return self
                    .bool(b, "the right side of AND")
                    .map(Value::Bool)
                    .map_err(|e| traced(e, last.line));
            }
        }
        self.eval(&last.expr).map_err(|e| traced(e, last.line))
    }

    /// Evaluates an expression. Kept small (the bulky arms live in separate,
    /// non-inlined functions) so that its stack frame and register saves stay
    /// cheap: it runs once per node.
    pub fn eval(&mut self, e: &Expr) -> R<Value> {
        Ok(match e {
            Expr::Int(i) => Value::Int(*i),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Str(s) => Value::Str(Str::Sym(*s)),
            Expr::Interp(t) => match self.template(*t)? {
                Some(s) => Value::Str(Str::Sym(s)),
                None => self.interp_dyn(*t)?,
            },
            Expr::Var(v) => self.var(*v)?.clone(),
            Expr::Set(items) => self.eval_set(items)?,
            Expr::Lazy(items) => self.eval_lazy(items)?,
            Expr::Call(f, args) => self.call(*f, args)?,
            Expr::Loop {
                all,
                var,
                from,
                to,
                body,
            } => Value::Bool(self.run_loop(*all, *var, from, to, body)?),
            Expr::Unary(op, x) => match op {
                Op::Not => Value::Bool(!self.bool(x, "the operand of NOT")?),
                Op::Abs => {
                    let i = self.int(x, "the operand of ABS")?;
                    Value::Int(
                        i.checked_abs()
                            .ok_or_else(|| overflow(format!("ABS {i}")))?,
                    )
                }
                _ => {
                    let i = self.int(x, "the operand of unary -")?;
                    Value::Int(i.checked_neg().ok_or_else(|| overflow(format!("-({i})")))?)
                }
            },
            Expr::Assign(v, x) => {
                let val = self.eval(x)?;
                self.vars.set(*v, val);
                Value::Bool(true)
            }
            Expr::Binary(op, a, b) => self.binary(*op, a, b)?,
            Expr::Builtin(b, args) => self.builtin(*b, args)?,
        })
    }

    #[inline(never)]
    pub(crate) fn interp_dyn(&mut self, t: u32) -> R<Value> {
        Ok(Value::Str(Str::Dyn(Arc::new(self.template_text(t)?))))
    }

    #[inline(never)]
    fn eval_set(&mut self, items: &[Expr]) -> R<Value> {
        let mut out = Vec::with_capacity(items.len());
        for x in items.iter() {
            out.push(self.eval(x)?);
        }
        Ok(Value::Set(Arc::new(out)))
    }

    #[inline(never)]
    fn eval_lazy(&mut self, items: &[LazyItem]) -> R<Value> {
        let mut out = Vec::with_capacity(items.len());
        for it in items.iter() {
            out.push(match it {
                LazyItem::Defer(f, args) => {
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args.iter() {
                        vals.push(self.eval(a)?);
                    }
                    LazyMember::Deferred(Arc::new(Deferred {
                        func: *f,
                        args: vals,
                    }))
                }
                LazyItem::Now(x) => LazyMember::Value(self.eval(x)?),
            });
        }
        Ok(Value::Lazy(Arc::new(out)))
    }

    #[inline(never)]
    fn call(&mut self, f: FuncId, args: &[Expr]) -> R<Value> {
        let func = self.func(f, args.len())?;
        for (p, a) in func.params.iter().zip(args.iter()) {
            // Sequential binding: a later argument sees earlier parameters (§5.9).
            let v = self.eval(a)?;
            self.vars.set(*p, v);
        }
        self.run_body(f)
    }

    /// `FORALL` (`all`) / `FORSOME` (§5.8).
    fn run_loop(&mut self, all: bool, var: VarId, from: &Expr, to: &Expr, body: &Expr) -> R<bool> {
        let a = self.int(from, "a loop's start")?;
        let b = self.int(to, "a loop's end")?;
        let step: i64 = if a <= b { 1 } else { -1 };
        let what = if all {
            "a FORALL body"
        } else {
            "a FORSOME body"
        };
        let mut i = a as i64;
        loop {
            self.vars.step()?;
            self.vars.set(var, Value::Int(i as i32));
            let r = self.bool(body, what)?;
            if all != r {
                // FORALL stops at the first false body, FORSOME at the first true one.
                return Ok(r);
            }
            if i == b as i64 {
                return Ok(all);
            }
            i += step;
        }
    }

    /// `== != < <= > >=`.
    fn compare(&mut self, op: Op, a: &Expr, b: &Expr) -> R<bool> {
        let l = self.eval(a)?;
        let r = self.eval(b)?;
        self.compare_values(op, &l, &r)
    }

    /// `== != < <= > >=` on evaluated operands.
    pub(crate) fn compare_values(&self, op: Op, l: &Value, r: &Value) -> R<bool> {
        let (x, y) = match (l, r) {
            _ if op == Op::Eq => return Ok(l == r),
            _ if op == Op::Ne => return Ok(l != r),
            (Value::Int(x), Value::Int(y)) => (*x, *y),
            _ => return Err(self.ints_error(op, l, r)),
        };
        Ok(match op {
            Op::Lt => x < y,
            Op::Le => x <= y,
            Op::Gt => x > y,
            _ => x >= y,
        })
    }

    #[cold]
    pub(crate) fn ints_error(&self, op: Op, l: &Value, r: &Value) -> Box<EvalError> {
        EvalError::new(format!(
            "`{}` needs two Ints, got {} {} and {} {}",
            op.text(),
            l.kind(),
            self.show(l),
            r.kind(),
            self.show(r)
        ))
    }

    /// `EMPTY(loc)`.
    fn empty(&mut self, a: &Expr) -> R<bool> {
        Ok(match self.location(a, "the argument of EMPTY")? {
            Some(l) => self.st.get().content(l).is_none(),
            None => true,
        })
    }

    fn binary(&mut self, op: Op, a: &Expr, b: &Expr) -> R<Value> {
        match op {
            Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => {
                return Ok(Value::Bool(self.compare(op, a, b)?))
            }
            Op::And => {
                if !self.bool(a, "the left side of AND")? {
                    return Ok(Value::Bool(false));
                }
                return Ok(Value::Bool(self.bool(b, "the right side of AND")?));
            }
            Op::Or => {
                if self.bool(a, "the left side of OR")? {
                    return Ok(Value::Bool(true));
                }
                return Ok(Value::Bool(self.bool(b, "the right side of OR")?));
            }
            _ => {}
        }
        let l = self.eval(a)?;
        let r = self.eval(b)?;
        self.binary_values(op, l, r)
    }

    /// The arithmetic, `IN` and set operators on evaluated operands (shared
    /// with the compiled form, so both give the same values and errors).
    pub(crate) fn binary_values(&self, op: Op, l: Value, r: Value) -> R<Value> {
        let ints = |this: &Self| -> R<(i32, i32)> {
            match (&l, &r) {
                (Value::Int(x), Value::Int(y)) => Ok((*x, *y)),
                _ => Err(this.ints_error(op, &l, &r)),
            }
        };
        let sets = |this: &Self| -> R<SetPair> {
            match (&l, &r) {
                (Value::Set(x), Value::Set(y)) => Ok((x.clone(), y.clone())),
                _ => Err(EvalError::new(format!(
                    "`{}` needs two Sets, got {} {} and {} {}",
                    op.text(),
                    l.kind(),
                    this.show(&l),
                    r.kind(),
                    this.show(&r)
                ))),
            }
        };
        Ok(match op {
            Op::Add => {
                let (x, y) = ints(self)?;
                Value::Int(
                    x.checked_add(y)
                        .ok_or_else(|| overflow(format!("{x} + {y}")))?,
                )
            }
            Op::Sub => {
                let (x, y) = ints(self)?;
                Value::Int(
                    x.checked_sub(y)
                        .ok_or_else(|| overflow(format!("{x} - {y}")))?,
                )
            }
            Op::Mul => {
                let (x, y) = ints(self)?;
                Value::Int(
                    x.checked_mul(y)
                        .ok_or_else(|| overflow(format!("{x} * {y}")))?,
                )
            }
            Op::Div | Op::Rem => {
                let (x, y) = ints(self)?;
                if y == 0 {
                    return Err(EvalError::new(format!(
                        "{} by zero",
                        if op == Op::Div {
                            "division"
                        } else {
                            "remainder"
                        }
                    )));
                }
                Value::Int(if op == Op::Div {
                    x.checked_div(y)
                        .ok_or_else(|| overflow(format!("{x} / {y}")))?
                } else {
                    // `MIN % -1` is 0, which fits (only the quotient overflows).
                    x.wrapping_rem(y)
                })
            }
            Op::In => match &r {
                Value::Set(items) => Value::Bool(items.contains(&l)),
                _ => {
                    return Err(EvalError::new(format!(
                        "the right side of IN must be a Set, got {}",
                        r.kind()
                    )))
                }
            },
            Op::Subset => {
                let (x, y) = sets(self)?;
                Value::Bool(x.iter().all(|m| y.iter().any(|n| n == m)))
            }
            Op::Union => {
                let (x, y) = sets(self)?;
                let mut out: Vec<Value> = Vec::with_capacity(x.len() + y.len());
                out.extend(y.iter().cloned());
                for m in x.iter() {
                    if !y.iter().any(|n| n == m) {
                        out.push(m.clone());
                    }
                }
                Value::Set(Arc::new(out))
            }
            Op::Intersect => {
                let (x, y) = sets(self)?;
                Value::Set(Arc::new(
                    x.iter()
                        .filter(|m| y.iter().any(|n| n == *m))
                        .cloned()
                        .collect(),
                ))
            }
            Op::SetMinus => {
                let (x, y) = sets(self)?;
                Value::Set(Arc::new(
                    x.iter()
                        .filter(|m| !y.iter().any(|n| n == *m))
                        .cloned()
                        .collect(),
                ))
            }
            Op::Assign
            | Op::And
            | Op::Or
            | Op::Not
            | Op::Abs
            | Op::Eq
            | Op::Ne
            | Op::Lt
            | Op::Le
            | Op::Gt
            | Op::Ge => {
                unreachable!("handled by the parser/above")
            }
        })
    }

    fn sym_value(s: Sym) -> Value {
        Value::Str(Str::Sym(s))
    }

    pub(crate) fn parse_indexes(&self, s: &Str, what: &str) -> R<(String, Vec<i32>)> {
        let t = self.text(s);
        match t.find('(') {
            None => Ok((t.to_string(), Vec::new())),
            Some(p) => {
                let inner = t[p + 1..].strip_suffix(')').ok_or_else(|| {
                    EvalError::new(format!(
                        "{what}: `{t}` is not an indexed name (missing `)`)"
                    ))
                })?;
                let idx = inner
                    .split(',')
                    .map(|x| x.parse::<i32>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| {
                        EvalError::new(format!("{what}: `{t}` has a non-integer index"))
                    })?;
                Ok((t[..p].to_string(), idx))
            }
        }
    }

    /// The built-ins that read the position; the rest (state changes, name
    /// parsing) are in `builtin_rare`, out of line.
    #[inline(always)] // into `eval`; `builtin_rare` calls back for the arms shared with it
    fn builtin(&mut self, b: Builtin, a: &[Expr]) -> R<Value> {
        let g = self.g;
        Ok(match b {
            Builtin::If => {
                if self.bool(&a[0], "the condition of IF")? {
                    self.eval(&a[1])?
                } else {
                    let e = a.get(2).ok_or_else(|| {
                        EvalError::new("IF needs an else-branch here (its condition is false)")
                    })?;
                    self.eval(e)?
                }
            }
            Builtin::Content => match self.location(&a[0], "the argument of CONTENT")? {
                Some(l) => match self.st.get().content(l) {
                    Some(e) => Self::sym_value(g.elem_sym[e as usize]),
                    None => Self::sym_value(g.empty_sym),
                },
                None => Self::sym_value(g.empty_sym),
            },
            Builtin::Empty => Value::Bool(self.empty(&a[0])?),
            Builtin::ElType => match self.element(&a[0], "the argument of ELTYPE")? {
                Some(e) => Self::sym_value(g.etype_sym[g.elements[e as usize].element_type]),
                None => Self::sym_value(g.empty_sym),
            },
            Builtin::State => match self.element(&a[0], "the argument of STATE")? {
                Some(e) => Value::Int(self.st.get().element_state(e)),
                None => Value::Int(-1),
            },
            Builtin::Owner => match self.element(&a[0], "the argument of OWNER")? {
                Some(e) => Value::Int(self.st.get().owner(e)),
                None => Value::Int(-1),
            },
            Builtin::Player => Value::Int(self.st.get().player()),
            _ => self.builtin_rare(b, a)?,
        })
    }

    #[inline(never)]
    fn builtin_rare(&mut self, b: Builtin, a: &[Expr]) -> R<Value> {
        let g = self.g;
        Ok(match b {
            Builtin::If
            | Builtin::Content
            | Builtin::Empty
            | Builtin::ElType
            | Builtin::State
            | Builtin::Owner
            | Builtin::Player => return self.builtin(b, a),
            Builtin::Location => match self.element(&a[0], "the argument of LOCATION")? {
                Some(e) => Self::sym_value(g.loc_sym[self.st.get().location_of(e) as usize]),
                None => Self::sym_value(g.empty_sym),
            },
            Builtin::LocType => match self.location(&a[0], "the argument of LOCTYPE")? {
                Some(l) => Self::sym_value(g.ltype_sym[g.locations[l as usize].location_type]),
                None => Self::sym_value(g.empty_sym),
            },
            Builtin::ZIndex => {
                let s = self.str_arg(&a[0], "the argument of ZINDEX")?;
                match self.known_element(&s) {
                    Some(e) => Value::Int(self.st.get().zindex(e)),
                    None => {
                        return Err(EvalError::new(format!(
                            "ZINDEX: unknown element `{}`",
                            self.text(&s)
                        )))
                    }
                }
            }
            Builtin::Index => {
                let s = self.str_arg(&a[0], "the argument of INDEX")?;
                return self.index_value(&s);
            }
            Builtin::IndexA => {
                let k = self.int(&a[0], "the first argument of INDEXA")?;
                let s = self.str_arg(&a[1], "the second argument of INDEXA")?;
                return self.index_a_value(k, &s);
            }
            Builtin::Unindex => {
                let s = self.str_arg(&a[0], "the argument of UNINDEX")?;
                return self.unindex_value(&s);
            }
            _ => self.builtin_rare2(b, a)?,
        })
    }

    /// `INDEX` of an evaluated name.
    pub(crate) fn index_value(&self, s: &Str) -> R<Value> {
        if let Some(&i) = self.indexed(s).and_then(|x| x.idx.first()) {
            return Ok(Value::Int(i));
        }
        let (_, idx) = self.parse_indexes(s, "INDEX")?;
        Ok(Value::Int(*idx.first().ok_or_else(|| {
            EvalError::new(format!("INDEX: `{}` has no index", self.text(s)))
        })?))
    }

    /// `INDEXA(k, name)` of evaluated arguments.
    pub(crate) fn index_a_value(&self, k: i32, s: &Str) -> R<Value> {
        if k >= 1 {
            if let Some(&i) = self.indexed(s).and_then(|x| x.idx.get(k as usize - 1)) {
                return Ok(Value::Int(i));
            }
        }
        let (_, idx) = self.parse_indexes(s, "INDEXA")?;
        if k < 1 || k as usize > idx.len() {
            return Err(EvalError::new(format!(
                "INDEXA: `{}` has no index number {k}",
                self.text(s)
            )));
        }
        Ok(Value::Int(idx[k as usize - 1]))
    }

    /// `UNINDEX` of an evaluated name.
    pub(crate) fn unindex_value(&self, s: &Str) -> R<Value> {
        if let Some(x) = self.indexed(s) {
            return Ok(Value::Str(x.base.clone()));
        }
        let (base, _) = self.parse_indexes(s, "UNINDEX")?;
        Ok(match self.g.sym_of(&base) {
            Some(sym) => Self::sym_value(sym),
            None => Value::Str(Str::Dyn(Arc::new(base))),
        })
    }

    #[inline(never)]
    fn builtin_rare2(&mut self, b: Builtin, a: &[Expr]) -> R<Value> {
        let g = self.g;
        Ok(match b {
            Builtin::Score => {
                let p = self.int(&a[0], "the argument of SCORE")?;
                let n = g.players.len() as i32;
                if p < 1 || p > n {
                    return Err(EvalError::new(format!(
                        "SCORE: player {p} does not exist (1..{n})"
                    )));
                }
                Value::Int(self.st.get().scores()[p as usize - 1])
            }
            Builtin::Move => {
                let es = self.str_arg(&a[0], "the element of MOVE")?;
                let e = self.known_element(&es).ok_or_else(|| {
                    EvalError::new(format!("MOVE: unknown element `{}`", self.text(&es)))
                })?;
                let fs = self.str_arg(&a[1], "the source of MOVE")?;
                let f = self.known_location(&fs).ok_or_else(|| {
                    EvalError::new(format!("MOVE: unknown location `{}`", self.text(&fs)))
                })?;
                if self.st.get().location_of(e) != f {
                    return Err(EvalError::new(format!(
                        "MOVE: element `{}` is not on `{}` but on `{}`",
                        self.text(&es),
                        self.text(&fs),
                        g.locations[self.st.get().location_of(e) as usize].name
                    )));
                }
                let ts = self.str_arg(&a[2], "the target of MOVE")?;
                let t = self.known_location(&ts).ok_or_else(|| {
                    EvalError::new(format!("MOVE: unknown location `{}`", self.text(&ts)))
                })?;
                if self.st.get().content(t).is_some() {
                    return Ok(Value::Bool(false));
                }
                self.state_mut(b)?.relocate(e, t);
                Value::Bool(true)
            }
            Builtin::SetState | Builtin::SetOwner | Builtin::SetZIndex => {
                let es = self.str_arg(&a[0], "the element argument")?;
                let e = self.known_element(&es).ok_or_else(|| {
                    EvalError::new(format!(
                        "{}: unknown element `{}`",
                        b.name(),
                        self.text(&es)
                    ))
                })?;
                let v = self.int(&a[1], "the value argument")?;
                let which = match b {
                    Builtin::SetState => {
                        let k = g.element_types[g.elements[e as usize].element_type].states;
                        if v < 1 || v > k {
                            return Err(EvalError::new(format!(
                                "SETSTATE: state {v} out of range 1..{k} for `{}`",
                                self.text(&es)
                            )));
                        }
                        Attr::State
                    }
                    Builtin::SetOwner => {
                        let n = g.players.len() as i32;
                        if v < 0 || v > n {
                            return Err(EvalError::new(format!(
                                "SETOWNER: owner {v} out of range 0..{n}"
                            )));
                        }
                        Attr::Owner
                    }
                    _ => Attr::ZIndex,
                };
                self.state_mut(b)?.set_attr(e, which, v);
                Value::Bool(true)
            }
            Builtin::NextPlayer => {
                let n = g.players.len() as i32;
                let st = self.state_mut(b)?;
                let p = st.player() % n + 1;
                st.set_player(p);
                Value::Bool(true)
            }
            // Handled by `builtin`/`builtin_rare`, which call here for the rest.
            _ => return self.builtin_rare(b, a),
        })
    }

    /// The precomputed indexed-name reading of a known text (misses and
    /// errors take the parsing path, which reports them).
    pub(crate) fn indexed(&self, s: &Str) -> Option<&'a crate::game::Indexed> {
        let g: &'a Game = self.g;
        match s {
            Str::Sym(s) => g.sym_indexed[*s as usize].as_ref(),
            Str::Dyn(_) => None,
        }
    }

    pub(crate) fn known_element(&self, s: &Str) -> Option<u16> {
        match s {
            Str::Sym(s) => self.g.sym_element(*s),
            Str::Dyn(_) => None,
        }
    }
    pub(crate) fn known_location(&self, s: &Str) -> Option<u16> {
        match s {
            Str::Sym(s) => self.g.sym_location(*s),
            Str::Dyn(_) => None,
        }
    }
}
