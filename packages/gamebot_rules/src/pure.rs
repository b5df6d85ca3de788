//! Calls of small pure user functions inlined, their parameters and locals
//! in registers (issue 18, seventh step).
//!
//! An expression built only from Int and Bool literals, variables holding
//! Ints, the integer operators, `ABS`, unary `-`, the comparisons of two
//! Ints, `AND`, `OR`, `NOT`, `IF` and calls of *inlinable* user functions,
//! with at least one such call, is compiled (besides its usual closures,
//! `compile.rs`) into a [`Pure`] tree and that into closures over an array
//! of registers: a call costs no `enter`, no parameter binding in the
//! namespace, no run over the body's lines, and the operands that are
//! literals, variables or registers are read in place.
//!
//! A user function is inlinable when it is defined with as many parameters
//! as the call has arguments, is not memoized, all its parameters are dead
//! (`memo::dead_vars`: nothing can observe what a call leaves in them), every
//! body line but the last assigns a dead variable (so it passes: an
//! assignment gives `true`), and the last line and the assigned values are
//! pure expressions themselves. Its parameters and dead locals live in
//! registers of the evaluation instead of the namespace; a dead variable is
//! mentioned by this one function only and read only after a write in the
//! same invocation, so no expression can tell the difference.
//!
//! The evaluation has no side effect but the evaluation-budget steps of the
//! inlined calls (one per call, as `Ctx::enter_call` takes). Whenever it
//! cannot give the value the closures would give — a variable unbound or not
//! an Int, an overflow, a division by zero, the budget or the recursion
//! limits near — it gives up: the steps it took are put back and the
//! expression runs through its closures, which give the value or the error
//! of the reference evaluator. So the value, the variables, the budget and
//! every error are those of the closures.

use crate::compile::Compiler;
use crate::eval::Ctx;
use crate::expr::{Builtin, Expr, VarId};
use crate::lexer::Op;
use crate::value::Value;

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
}

/// An inlined call: its arguments into registers, its assignment lines, its
/// last line.
pub(crate) struct Inlined {
    /// How many inlined calls enclose this one, itself included.
    nest: u32,
    args: Vec<(u8, Pure)>,
    lets: Vec<(u8, Pure)>,
    body: Pure,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ty {
    Int,
    Bool,
}

/// Builds [`Pure`] trees for one root expression.
struct Builder<'c, 'a> {
    c: &'c Compiler<'a>,
    regs: u8,
    calls: u32,
}

/// The variables of one inlined call held in registers.
type Scope = Vec<(VarId, u8)>;

impl Builder<'_, '_> {
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
        Some(match e {
            &Expr::Int(i) => (Pure::Lit(i), Ty::Int),
            &Expr::Bool(b) => (Pure::BoolLit(b), Ty::Bool),
            &Expr::Var(v) => match scope {
                None => (Pure::Var(v), Ty::Int),
                Some(s) => match s.iter().rev().find(|(w, _)| *w == v) {
                    Some(&(_, r)) => (Pure::Reg(r), Ty::Int),
                    // A dead variable of another function, or read before
                    // this call writes it: not inlined.
                    None if self.c.dead.get(v as usize).copied().unwrap_or(true) => return None,
                    None => (Pure::Var(v), Ty::Int),
                },
            },
            Expr::Unary(Op::Not, x) => (
                Pure::Not(Box::new(self.of(x, Ty::Bool, scope, nest)?)),
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
            Expr::Binary(op, a, b) => {
                let (arg, ty) = match op {
                    Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Rem => (Ty::Int, Ty::Int),
                    Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => (Ty::Int, Ty::Bool),
                    Op::And | Op::Or => (Ty::Bool, Ty::Bool),
                    _ => return None,
                };
                let x = Box::new(self.of(a, arg, scope, nest)?);
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
                let (t, ty) = self.build(&a[1], scope, nest)?;
                let f = self.of(&a[2], ty, scope, nest)?;
                (Pure::If(Box::new(cond), Box::new(t), Box::new(f)), ty)
            }
            Expr::Call(fid, args) => {
                if nest >= MAX_NEST {
                    return None;
                }
                let c = self.c;
                let func = c.funcs.get(*fid as usize)?.as_ref()?;
                if func.params.len() != args.len()
                    || c.memo_funcs.get(*fid as usize) == Some(&true)
                    || !func
                        .params
                        .iter()
                        .all(|&p| c.dead.get(p as usize) == Some(&true))
                {
                    return None;
                }
                let (last, lines) = func.body.split_last()?;
                // The arguments, in the caller's scope, in order.
                let mut argv = Vec::with_capacity(args.len());
                let mut inner: Scope = Vec::new();
                for (a, &p) in args.iter().zip(&func.params) {
                    let x = self.of(a, Ty::Int, scope, nest)?;
                    let r = self.reg()?;
                    argv.push((r, x));
                    inner.push((p, r));
                }
                let mut lets = Vec::new();
                for line in lines {
                    let Expr::Assign(v, x) = &line.expr else {
                        return None;
                    };
                    if c.dead.get(*v as usize) != Some(&true) {
                        return None;
                    }
                    let x = self.of(x, Ty::Int, Some(&inner), nest + 1)?;
                    let r = self.reg()?;
                    lets.push((r, x));
                    inner.push((*v, r));
                }
                let (body, ty) = self.build(&last.expr, Some(&inner), nest + 1)?;
                self.calls += 1;
                (
                    Pure::Call(Box::new(Inlined {
                        nest: nest + 1,
                        args: argv,
                        lets,
                        body,
                    })),
                    ty,
                )
            }
            _ => return None,
        })
    }

    /// [`Builder::build`] of an operand that must have type `ty`.
    fn of(&mut self, e: &Expr, ty: Ty, scope: Option<&Scope>, nest: u32) -> Option<Pure> {
        let (p, t) = self.build(e, scope, nest)?;
        (t == ty).then_some(p)
    }
}

/// `e` as register closures when it is pure and inlines at least one call
/// (pure expressions without calls have closures of their own in
/// `compile.rs`, as fast). Only operators, `IF` and calls are tried as roots.
pub(crate) fn compile(c: &Compiler<'_>, e: &Expr) -> Option<Code> {
    if !matches!(
        e,
        Expr::Binary(..) | Expr::Unary(..) | Expr::Call(..) | Expr::Builtin(Builtin::If, _)
    ) {
        return None;
    }
    let mut b = Builder {
        c,
        regs: 0,
        calls: 0,
    };
    let (p, ty) = b.build(e, None, 0)?;
    if b.calls == 0 {
        return None;
    }
    Some(match ty {
        Ty::Int => Code::Int(lower_int(&p)),
        Ty::Bool => Code::Bool(lower_bool(&p)),
    })
}

/// Registers of one evaluation.
pub(crate) type Regs = [i32; REGS];

/// A closure over the registers; `None` means "give up".
type P<T> = Box<dyn Fn(&mut Ctx<'_>, &mut Regs) -> Option<T> + Send + Sync>;
type PInt = P<i32>;
type PBool = P<bool>;

/// A pure expression lowered to closures over registers; `None` from a
/// closure means "give up" (see the module documentation).
pub(crate) enum Code {
    Int(PInt),
    Bool(PBool),
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
/// register.
enum Leaf {
    Lit(i32),
    Var(VarId),
    Reg(u8),
    Node(PInt),
}

impl Leaf {
    fn of(p: &Pure) -> Leaf {
        match *p {
            Pure::Lit(i) => Leaf::Lit(i),
            Pure::Var(v) => Leaf::Var(v),
            Pure::Reg(k) => Leaf::Reg(k),
            _ => Leaf::Node(lower_int(p)),
        }
    }

    #[inline(always)]
    fn get(&self, c: &mut Ctx<'_>, r: &mut Regs) -> Option<i32> {
        match self {
            Leaf::Lit(i) => Some(*i),
            Leaf::Var(v) => match c.vars.get(*v) {
                Some(Value::Int(i)) => Some(*i),
                _ => None,
            },
            Leaf::Reg(k) => Some(r[*k as usize % REGS]),
            Leaf::Node(g) => g(c, r),
        }
    }
}

/// `a op b` over two Int operands, `k` the operator; the usual operand
/// shapes get closures of their own (no dispatch on the operand kinds).
fn bin<T: 'static>(
    a: &Pure,
    b: &Pure,
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
    match (Leaf::of(a), Leaf::of(b)) {
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
/// (`Ctx::enter_call`), its assignment lines into their registers.
struct Prologue {
    nest: u32,
    args: Vec<(u8, Leaf)>,
    lets: Vec<(u8, Leaf)>,
}

impl Prologue {
    fn of(call: &Inlined) -> Prologue {
        Prologue {
            nest: call.nest,
            args: call.args.iter().map(|(k, a)| (*k, Leaf::of(a))).collect(),
            lets: call.lets.iter().map(|(k, a)| (*k, Leaf::of(a))).collect(),
        }
    }

    #[inline(always)]
    fn run(&self, c: &mut Ctx<'_>, r: &mut Regs) -> Option<()> {
        for (k, a) in &self.args {
            r[*k as usize % REGS] = a.get(c, r)?;
        }
        if !c.inline_call_ok(self.nest) {
            return None;
        }
        c.vars.step().ok()?;
        for (k, a) in &self.lets {
            r[*k as usize % REGS] = a.get(c, r)?;
        }
        Some(())
    }
}

fn lower_int(p: &Pure) -> PInt {
    match p {
        &Pure::Lit(i) => fi(move |_, _| Some(i)),
        &Pure::Var(v) => fi(move |c, _| match c.vars.get(v) {
            Some(Value::Int(i)) => Some(*i),
            _ => None,
        }),
        &Pure::Reg(k) => fi(move |_, r| Some(r[k as usize % REGS])),
        Pure::Bin(op, a, b) => match op {
            Op::Add => bin(a, b, i32::checked_add),
            Op::Sub => bin(a, b, i32::checked_sub),
            Op::Mul => bin(a, b, i32::checked_mul),
            Op::Div => bin(a, b, i32::checked_div),
            // `MIN % -1` is 0 in the closures too (`wrapping_rem`).
            Op::Rem => bin(a, b, |x, y| (y != 0).then(|| x.wrapping_rem(y))),
            _ => fi(|_, _| None),
        },
        Pure::Abs(a) => {
            let x = Leaf::of(a);
            fi(move |c, r| x.get(c, r)?.checked_abs())
        }
        Pure::Neg(a) => {
            let x = Leaf::of(a);
            fi(move |c, r| x.get(c, r)?.checked_neg())
        }
        Pure::If(cond, t, e) => {
            let (cond, t, e) = (lower_bool(cond), lower_int(t), lower_int(e));
            fi(move |c, r| if cond(c, r)? { t(c, r) } else { e(c, r) })
        }
        Pure::Call(call) => {
            let pro = Prologue::of(call);
            let body = lower_int(&call.body);
            fi(move |c, r| {
                pro.run(c, r)?;
                body(c, r)
            })
        }
        _ => fi(|_, _| None),
    }
}

fn lower_bool(p: &Pure) -> PBool {
    match p {
        &Pure::BoolLit(b) => fb(move |_, _| Some(b)),
        Pure::Bin(op, a, b) => match op {
            Op::Eq => bin(a, b, |x, y| Some(x == y)),
            Op::Ne => bin(a, b, |x, y| Some(x != y)),
            Op::Lt => bin(a, b, |x, y| Some(x < y)),
            Op::Le => bin(a, b, |x, y| Some(x <= y)),
            Op::Gt => bin(a, b, |x, y| Some(x > y)),
            Op::Ge => bin(a, b, |x, y| Some(x >= y)),
            _ => fb(|_, _| None),
        },
        Pure::And(a, b) => {
            let (a, b) = (lower_bool(a), lower_bool(b));
            fb(move |c, r| Some(a(c, r)? && b(c, r)?))
        }
        Pure::Or(a, b) => {
            let (a, b) = (lower_bool(a), lower_bool(b));
            fb(move |c, r| Some(a(c, r)? || b(c, r)?))
        }
        Pure::Not(a) => {
            let a = lower_bool(a);
            fb(move |c, r| Some(!a(c, r)?))
        }
        Pure::If(cond, t, e) => {
            let (cond, t, e) = (lower_bool(cond), lower_bool(t), lower_bool(e));
            fb(move |c, r| if cond(c, r)? { t(c, r) } else { e(c, r) })
        }
        Pure::Call(call) => {
            let pro = Prologue::of(call);
            let body = lower_bool(&call.body);
            fb(move |c, r| {
                pro.run(c, r)?;
                body(c, r)
            })
        }
        _ => fb(|_, _| None),
    }
}
