//! Phase 3: element-independence analysis. A rule whose targets cannot depend
//! on which element is moved (no variable bound from the element, its state or
//! its source is read by `toLocations`/`condition`, following calls into user
//! functions and interpolated names) computes its targets once per position.

use super::*;
use crate::expr::Expr;
use rustc_hash::FxHashSet;

/// Sets [`Rule::element_independent`] for every rule.
pub(super) fn mark_element_independent(
    rules: &mut [Rule],
    funcs: &[Option<Function>],
    names: &Names,
) {
    let reads = FunctionReads::new(funcs);
    for r in rules.iter_mut() {
        let expr = r.to_locations.as_ref().or(r.condition.as_ref());
        let mut side: FxHashSet<VarId> = FxHashSet::default();
        for (_, b) in &r.elem_matches {
            side.extend(b.iter().map(|x| x.0));
        }
        side.extend(r.element.vars());
        if let Filter::Var(v) = r.state {
            side.insert(v);
        }
        if let Filter::Var(v) = r.player {
            side.remove(&v);
        }
        side.extend(r.from.vars());
        if r.to_locations.is_none() {
            if let Some(to) = &r.to {
                for v in to.vars() {
                    side.remove(&v);
                }
            }
        }
        r.element_independent = match expr {
            None => true,
            Some(e) => {
                let used = reads.of_expr(&e.expr, names);
                used.is_disjoint(&side)
            }
        };
    }
}

/// Sets [`Rule::hoist_first_conjunct`] for every rule: the rule generates its
/// targets from `to=` (no `toLocations`), its condition is `A AND B`, and
///
/// - `A` touches (reads or writes, following calls and interpolations) no
///   variable that `B` touches or that `to=` binds, and
/// - `A` writes none of the variables bound before the targets are tried (from
///   `element=`, `from=`, `state=`, `player=`).
///
/// Then `A` gives the same value, and leaves the same variables, at every target
/// of one element: the targets loop changes only `to=`'s variables and `B`'s,
/// which `A` does not touch, and `A`'s own writes. Those were unbound before
/// the first target (the namespace is cleared per element), so an evaluation
/// of `A` that read one before writing it would already have failed at the
/// first target with "not bound"; otherwise the evaluations run identically.
/// Move generation therefore evaluates `A` once per element (and stops trying
/// targets when it is false); evaluations it saves are not counted against the
/// evaluation budget.
pub(super) fn mark_hoistable_conditions(
    rules: &mut [Rule],
    funcs: &[Option<Function>],
    names: &Names,
) {
    let reads = FunctionReads::new(funcs);
    for r in rules.iter_mut() {
        r.hoist_first_conjunct = false;
        if r.to_locations.is_some() {
            continue;
        }
        let Some(Expr::Binary(crate::lexer::Op::And, a, b)) = r.condition.as_ref().map(|c| &c.expr)
        else {
            continue;
        };
        let touched_a = reads.of_expr(a, names);
        let mut others = reads.of_expr(b, names);
        for (_, tb) in &r.to_matches {
            others.extend(tb.iter().map(|x| x.0));
        }
        if let Some(to) = &r.to {
            others.extend(to.vars());
        }
        if !touched_a.is_disjoint(&others) {
            continue;
        }
        let mut bound: FxHashSet<VarId> = FxHashSet::default();
        for (_, eb) in &r.elem_matches {
            bound.extend(eb.iter().map(|x| x.0));
        }
        for fb in r.from_match.iter().flatten() {
            bound.extend(fb.iter().map(|x| x.0));
        }
        bound.extend(r.element.vars().chain(r.from.vars()));
        for f in [r.state, r.player] {
            if let Filter::Var(v) = f {
                bound.insert(v);
            }
        }
        r.hoist_first_conjunct = reads.writes_of(a).is_disjoint(&bound);
    }
}

/// Which variables an expression may touch, following calls into functions.
struct FunctionReads<'a> {
    funcs: &'a [Option<Function>],
}

impl<'a> FunctionReads<'a> {
    fn new(funcs: &'a [Option<Function>]) -> Self {
        FunctionReads { funcs }
    }

    /// Which variables an expression may write (assignments, loop variables,
    /// parameters of the functions it may call), following calls.
    fn writes_of(&self, e: &Expr) -> FxHashSet<VarId> {
        let mut vars = FxHashSet::default();
        let mut seen = FxHashSet::default();
        let mut todo: Vec<&Expr> = vec![e];
        while let Some(x) = todo.pop() {
            x.walk(&mut |y| match y {
                Expr::Assign(v, _) | Expr::Loop { var: v, .. } => {
                    vars.insert(*v);
                }
                Expr::Call(f, _) if seen.insert(*f) => {
                    if let Some(def) = &self.funcs[*f as usize] {
                        vars.extend(def.params.iter().copied());
                        for line in &def.body {
                            todo.push(&line.expr);
                        }
                    }
                }
                _ => {}
            });
        }
        vars
    }

    fn of_expr(&self, e: &Expr, names: &Names) -> FxHashSet<VarId> {
        let mut vars = FxHashSet::default();
        let mut seen = FxHashSet::default();
        let mut todo: Vec<&Expr> = vec![e];
        let mut template_ids: Vec<u32> = Vec::new();
        while let Some(x) = todo.pop() {
            x.walk(&mut |y| match y {
                Expr::Var(v) | Expr::Assign(v, _) => {
                    vars.insert(*v);
                }
                Expr::Loop { var, .. } => {
                    vars.insert(*var);
                }
                Expr::Interp(t) => template_ids.push(*t),
                Expr::Call(f, _) if seen.insert(*f) => {
                    if let Some(def) = &self.funcs[*f as usize] {
                        vars.extend(def.params.iter().copied());
                        for line in &def.body {
                            todo.push(&line.expr);
                        }
                    }
                }
                _ => {}
            });
        }
        for t in template_ids {
            for p in &names.templates[t as usize] {
                if let StrPiece::Var(n) = p {
                    vars.extend(names.var_map.get(n).copied());
                }
            }
        }
        vars
    }
}
