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

/// Which variables an expression may touch, following calls into functions.
struct FunctionReads<'a> {
    funcs: &'a [Option<Function>],
}

impl<'a> FunctionReads<'a> {
    fn new(funcs: &'a [Option<Function>]) -> Self {
        FunctionReads { funcs }
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
