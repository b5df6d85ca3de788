//! What an inlined call may read: whether it reads a variable of the
//! namespace (`reads_namespace`: a call that does not is closed, a function
//! of the position), and of the position ([`Inlined::read_bits`], issue 18
//! twenty-ninth step) the bits of `State::changed` of the locations and
//! elements it names, so that a value kept for it is taken in a later
//! position when none of them changed (`pure::CallCache`). Load-time code
//! only, over one walk of the tree (`each_child`, `each_part`).

use super::{Inlined, PElem, PLoc, Pure, Step, REGS};

impl Inlined {
    /// (A call that holds variables that are not dead writes them at its
    /// end, [`Inlined::out_end`]: it counts as reading the namespace, so it
    /// is never kept per position.)
    pub(super) fn reads_namespace(&self) -> bool {
        let mut reads = self.publishes();
        self.each_part(&mut |p| reads |= p.reads_namespace());
        reads
    }

    /// Whether the call holds variables that are not dead, which it
    /// writes into the namespace when it ends.
    fn publishes(&self) -> bool {
        !self.out_end.is_empty() || self.outs.iter().any(|o| !o.is_empty())
    }

    /// The bits of `State::changed` of everything the call may read of the
    /// position, `u64::MAX` when that is not known: the locations and
    /// elements named by literals or by templates whose arguments are
    /// literals or registers with a known range of values (loop variables
    /// over literal ranges, parameters given such values), each name looked
    /// up in its table. A register's range is every value written into it
    /// anywhere in the call (assignments, arguments, loops), so it holds
    /// whatever the order of the writes; a register read but never written
    /// is unknown. Anything else that reads the position (an element given
    /// by value, a memoized call) gives `u64::MAX`.
    pub(super) fn read_bits(&self) -> u64 {
        let mut regs = [RegRange::Unwritten; REGS];
        // Every write joins its range in: monotone over the hulls of the
        // literals written, so it settles; give up if it does not soon.
        for _ in 0..16 {
            let before = regs;
            self.note_writes(&mut regs);
            if regs == before {
                let mut bits = 0u64;
                self.each_part(&mut |p| bits |= p.read_bits(&regs));
                return bits;
            }
        }
        u64::MAX
    }

    fn note_writes(&self, regs: &mut [RegRange; REGS]) {
        for (k, a) in &self.args {
            let r = a.range(regs);
            regs[*k as usize % REGS] = regs[*k as usize % REGS].join(r);
        }
        for s in &self.steps {
            if let Step::Let(k, x) = s {
                let r = x.range(regs);
                regs[*k as usize % REGS] = regs[*k as usize % REGS].join(r);
            }
        }
        self.each_part(&mut |p| p.note_writes(regs));
    }

    /// Calls `f` on the arguments, the lines and the last line.
    pub(super) fn each_part(&self, f: &mut dyn FnMut(&Pure)) {
        for (_, a) in &self.args {
            f(a);
        }
        for s in &self.steps {
            match s {
                Step::Let(_, x) | Step::Guard(x, _) => f(x),
            }
        }
        f(&self.body);
    }
}

/// The values a register may hold while a closed call runs
/// ([`Inlined::read_bits`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum RegRange {
    Unwritten,
    /// From `.0` to `.1`, both included (at most [`MAX_RANGE`] values).
    Within(i32, i32),
    Any,
}

/// The widest [`RegRange::Within`]: names looked up one by one.
const MAX_RANGE: i64 = 4096;

impl RegRange {
    fn join(self, o: RegRange) -> RegRange {
        match (self, o) {
            (RegRange::Unwritten, x) | (x, RegRange::Unwritten) => x,
            (RegRange::Within(a, b), RegRange::Within(c, d)) => {
                RegRange::within(a.min(c), b.max(d))
            }
            _ => RegRange::Any,
        }
    }

    fn within(lo: i32, hi: i32) -> RegRange {
        if i64::from(hi) - i64::from(lo) < MAX_RANGE {
            RegRange::Within(lo, hi)
        } else {
            RegRange::Any
        }
    }

    /// The values, `None` for unknown (a register read but never written
    /// is unknown).
    fn values(self) -> Option<std::ops::RangeInclusive<i32>> {
        match self {
            RegRange::Within(a, b) => Some(a..=b),
            _ => None,
        }
    }
}

impl Pure {
    /// Whether evaluating the expression may read a variable of the
    /// namespace ([`Pure::Var`]; a memoized call's entry may depend on
    /// variables it reads, so it counts as one). A variable written through
    /// ([`Pure::Write`], [`Pure::LiveLoop`]) counts too, and so does a
    /// call inside it that holds variables that are not dead (it writes
    /// them when it ends, [`Inlined::reads_namespace`]): such a call is no
    /// function of the position alone — a value kept for it would skip
    /// those writes.
    pub(super) fn reads_namespace(&self) -> bool {
        self.any_node(&mut |p| match p {
            Pure::Var(_) | Pure::Memo(_) | Pure::Write(..) | Pure::LiveLoop(_) => true,
            Pure::Call(c) => c.publishes(),
            _ => false,
        })
    }

    /// Whether evaluating the expression may run a call or write a
    /// variable of the namespace.
    pub(super) fn has_effects(&self) -> bool {
        self.any_node(&mut |p| {
            matches!(
                p,
                Pure::Call(_) | Pure::Memo(_) | Pure::Write(..) | Pure::LiveLoop(_)
            )
        })
    }

    /// Whether the expression reads variable `v` of the namespace (a call
    /// in it may: [`Pure::has_effects`] tells).
    pub(super) fn reads_var(&self, v: crate::expr::VarId) -> bool {
        self.any_node(&mut |p| matches!(*p, Pure::Var(w) if w == v))
    }

    /// Whether `pred` holds for the expression or a node below it.
    fn any_node(&self, pred: &mut dyn FnMut(&Pure) -> bool) -> bool {
        if pred(self) {
            return true;
        }
        let mut found = false;
        self.each_child(&mut |p| {
            if !found {
                found = p.any_node(pred);
            }
        });
        found
    }

    /// Calls `f` on each direct sub-expression.
    fn each_child(&self, f: &mut dyn FnMut(&Pure)) {
        match self {
            Pure::Lit(_) | Pure::BoolLit(_) | Pure::Var(_) | Pure::Reg(_) => {}
            Pure::Bin(_, a, b) | Pure::And(a, b) | Pure::Or(a, b) => {
                f(a);
                f(b);
            }
            Pure::Not(a) | Pure::Abs(a) | Pure::Neg(a) | Pure::Assign(_, a) | Pure::Write(_, a) => {
                f(a)
            }
            Pure::If(a, b, c) => {
                f(a);
                f(b);
                f(c);
            }
            Pure::Call(call) => call.each_part(f),
            Pure::Empty(l) | Pure::Content(l) | Pure::Loc(l) => l.each_index(f),
            Pure::Attr(_, e) | Pure::LocTypeOf(e) | Pure::ElTypeOf(e) => match &**e {
                PElem::Elem(x) => f(x),
                PElem::Name(l) => l.each_index(f),
            },
            Pure::Loop(l) => {
                f(&l.from);
                f(&l.to);
                f(&l.body);
            }
            Pure::LiveLoop(l) => {
                f(&l.from);
                f(&l.to);
                f(&l.body);
            }
            Pure::Memo(m) => {
                for k in &m.keys {
                    f(k);
                }
                if let Some(call) = &m.inline {
                    call.each_part(f);
                }
            }
        }
    }

    /// The values the expression may give, as far as `regs` tell.
    fn range(&self, regs: &[RegRange; REGS]) -> RegRange {
        match *self {
            Pure::Lit(i) => RegRange::Within(i, i),
            Pure::Reg(k) => regs[k as usize % REGS],
            _ => RegRange::Any,
        }
    }

    /// Joins what the expression writes into registers into `regs`.
    fn note_writes(&self, regs: &mut [RegRange; REGS]) {
        match self {
            Pure::Loop(l) => {
                let r = match (l.from.range(regs), l.to.range(regs)) {
                    (RegRange::Within(a, b), RegRange::Within(c, d)) => {
                        RegRange::within(a.min(c), b.max(d))
                    }
                    (RegRange::Unwritten, _) | (_, RegRange::Unwritten) => RegRange::Unwritten,
                    _ => RegRange::Any,
                };
                let k = l.var as usize % REGS;
                regs[k] = regs[k].join(r);
            }
            Pure::Assign(k, x) => {
                let r = x.range(regs);
                regs[*k as usize % REGS] = regs[*k as usize % REGS].join(r);
            }
            Pure::Call(call) => return call.note_writes(regs),
            _ => {}
        }
        self.each_child(&mut |p| p.note_writes(regs));
    }

    /// [`Inlined::read_bits`] of the expression, its registers' values
    /// within `regs`.
    fn read_bits(&self, regs: &[RegRange; REGS]) -> u64 {
        use crate::state::{attr_bit, content_bit, location_bit};
        let own = match self {
            Pure::Var(_) | Pure::Memo(_) | Pure::Write(..) | Pure::LiveLoop(_) => return u64::MAX,
            Pure::Empty(l) | Pure::Content(l) => l.named_bits(regs, content_bit),
            Pure::Attr(_, e) | Pure::LocTypeOf(e) => {
                let bit = if matches!(self, Pure::Attr(..)) {
                    attr_bit
                } else {
                    location_bit
                };
                match &**e {
                    PElem::Name(l) => l.named_bits(regs, bit),
                    // Any element's.
                    PElem::Elem(_) => return u64::MAX,
                }
            }
            // A name's id and an element's type are no part of the position.
            _ => 0,
        };
        let mut bits = own;
        self.each_child(&mut |p| bits |= p.read_bits(regs));
        bits
    }
}

impl PLoc {
    /// Calls `f` on the template's arguments.
    fn each_index(&self, f: &mut dyn FnMut(&Pure)) {
        match self {
            PLoc::Const(_) => {}
            PLoc::One(x, _) => f(x),
            PLoc::Two(x, y, _) => {
                f(x);
                f(y);
            }
        }
    }

    /// `bit` of every id the name may be, its arguments within `regs`
    /// (`u64::MAX` when not known).
    fn named_bits(&self, regs: &[RegRange; REGS], bit: fn(usize) -> u64) -> u64 {
        let of = |id: Option<Option<u16>>| match id {
            Some(Some(id)) => Some(bit(id as usize)),
            Some(None) => Some(0),
            None => None,
        };
        let bits = match self {
            PLoc::Const(id) => of(Some(*id)),
            PLoc::One(x, t) => x.range(regs).values().and_then(|xs| {
                xs.map(|i| of(t.lookup1(i)))
                    .try_fold(0u64, |a, b| b.map(|b| a | b))
            }),
            PLoc::Two(x, y, t) => match (x.range(regs).values(), y.range(regs).values()) {
                (Some(xs), Some(ys))
                    if xs.clone().count() * ys.clone().count() <= MAX_RANGE as usize =>
                {
                    xs.flat_map(|i| ys.clone().map(move |j| (i, j)))
                        .map(|(i, j)| of(t.lookup2(i, j)))
                        .try_fold(0u64, |a, b| b.map(|b| a | b))
                }
                _ => None,
            },
        };
        bits.unwrap_or(u64::MAX)
    }
}
