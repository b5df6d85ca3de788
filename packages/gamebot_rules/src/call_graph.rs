//! The call graph of a game's user functions: which functions each body
//! calls (calls and the deferred calls of lazy sets, §7) and which it can
//! reach by following calls. One walk serves the load-time analyses that
//! need it: the dead variables (`memo::dead_vars`), which functions stay
//! memoized (`Game::assemble`) and what a call can write or change
//! (`specialize::Reach`).
//!
//! Invariant: `direct[g]` holds one entry per call site in `g`'s body, in
//! the order of [`Expr::walk`], including calls of undefined functions and
//! of `g` itself; `reach[g][h]` is true exactly when `h` is in `direct` of
//! `g` or of a function `g` reaches (so `reach[g][g]` is true for a
//! recursive `g`). Ids past the functions are kept in `direct` and never
//! reached.

use crate::expr::{Expr, FuncId, LazyItem};
use crate::game::Function;

/// Calls `f` with the callee of each call site of `e`, in walk order: the
/// calls, and the deferred calls of lazy sets.
pub(crate) fn call_sites(e: &Expr, mut f: impl FnMut(FuncId)) {
    e.walk(&mut |x| match x {
        Expr::Call(h, _) => f(*h),
        Expr::Lazy(items) => {
            for it in items.iter() {
                if let LazyItem::Defer(h, _) = it {
                    f(*h);
                }
            }
        }
        _ => {}
    });
}

/// Who calls whom among a game's functions (see the module documentation).
pub(crate) struct CallGraph {
    /// Per function: the callee of each call site of its body.
    pub direct: Vec<Vec<FuncId>>,
    /// Per function: the functions it can call, following calls.
    reach: Vec<Vec<bool>>,
}

impl CallGraph {
    pub(crate) fn new(funcs: &[Option<Function>]) -> CallGraph {
        let n = funcs.len();
        let direct: Vec<Vec<FuncId>> = funcs
            .iter()
            .map(|def| {
                let mut out = Vec::new();
                for l in def.iter().flat_map(|d| &d.body) {
                    call_sites(&l.expr, |h| out.push(h));
                }
                out
            })
            .collect();
        let reach = (0..n)
            .map(|g| {
                let mut seen = vec![false; n];
                let mut todo = direct[g].clone();
                while let Some(h) = todo.pop() {
                    let h = h as usize;
                    if h < n && !seen[h] {
                        seen[h] = true;
                        todo.extend_from_slice(&direct[h]);
                    }
                }
                seen
            })
            .collect();
        CallGraph { direct, reach }
    }

    /// Whether `g` can call `h`, following calls (`g` itself when recursive).
    pub(crate) fn reaches(&self, g: usize, h: usize) -> bool {
        self.reach
            .get(g)
            .and_then(|r| r.get(h))
            .copied()
            .unwrap_or(false)
    }

    /// The functions `g` can call, following calls, in id order.
    pub(crate) fn reached(&self, g: usize) -> impl Iterator<Item = usize> + '_ {
        let r = self.reach.get(g).map_or(&[][..], |r| &r[..]);
        r.iter().enumerate().filter(|(_, &x)| x).map(|(h, _)| h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(text: &str) -> (CallGraph, Vec<String>) {
        let g = crate::Game::parse("calls.game", text).unwrap();
        (CallGraph::new(&g.funcs), g.func_names.clone())
    }

    /// Calls, deferred calls, recursion through another function, a
    /// function called twice and one never called.
    #[test]
    fn reach_follows_calls_and_deferred_calls() {
        let text = format!(
            "{}[EXPRESSIONS]\nA($a)\nB($a) + B($a + 1)\nEND\n\
             B($b)\nIF($b > 3, 0, C($b))\nEND\n\
             C($c)\nB($c + 1)\nEND\n\
             Dd\n{{[\"s(1,1)\", E(1)]}}\nEND\n\
             E($e)\nSETSTATE(\"p(1)\", $e)\nEND\n\
             Ff\n1\nEND\n",
            crate::tests::grid()
        );
        let (cg, names) = graph(&text);
        let id = |n: &str| names.iter().position(|x| x == n).unwrap();
        let (a, b, c, d, e, f) = (id("A"), id("B"), id("C"), id("Dd"), id("E"), id("Ff"));
        assert_eq!(cg.direct[a], vec![b as FuncId, b as FuncId]);
        assert_eq!(cg.direct[d], vec![e as FuncId]);
        assert!(cg.direct[f].is_empty());
        assert_eq!(cg.reached(a).collect::<Vec<_>>(), {
            let mut v = vec![b, c];
            v.sort();
            v
        });
        assert!(cg.reaches(b, b) && cg.reaches(c, c) && !cg.reaches(a, a));
        assert!(cg.reaches(d, e) && !cg.reaches(e, d));
        assert!(!cg.reaches(f, f) && cg.reached(f).next().is_none());
        assert!(!cg.reaches(a, 999) && !cg.reaches(999, a));
    }
}
