//! Phase 5: whole-file checks — at least one player, every element type with
//! states and every location with a type, the size limits of ids, and every
//! call naming a defined function with the right number of arguments.

use super::*;
use crate::expr::{Expr, LazyItem};

impl Loader<'_> {
    /// Records that lack a required key.
    pub(super) fn check_records(&mut self) {
        if self.players.is_empty() {
            self.err(
                0,
                0,
                "no players: [PLAYER NAMES] must list at least player 1 (`1=name`)",
            );
        }
        // Element types: every one needs states.
        for t in &self.element_types {
            if t.states == 0 {
                self.errors.push(Diagnostic {
                    line: t.line,
                    col: 1,
                    message: format!("element type `{}` has no `states=`", t.name),
                });
            }
        }
        for r in &self.locations {
            if !r.has_type {
                self.errors.push(Diagnostic {
                    line: r.loc.line,
                    col: 1,
                    message: format!("location `{}` has no `type=`", r.loc.name),
                });
            }
        }
    }

    /// Element and location ids are `u16` with `u16::MAX` reserved.
    pub(super) fn check_sizes(&mut self, elements: &[Element], locations: &[Location]) {
        if elements.len() > u16::MAX as usize - 1 || locations.len() > u16::MAX as usize - 1 {
            self.err(0, 0, "too many elements or locations (at most 65534 each)");
        }
        if elements.len() > locations.len() {
            self.err(0, 0, "more elements than locations");
        }
    }

    /// Every call must name a defined function with the right number of arguments.
    pub(super) fn check_calls(
        &mut self,
        funcs: &[Option<Function>],
        functions: &[Function],
        rules: &[Rule],
        scorings: &[Scoring],
        ends: &[EndCondition],
        evaluations: &[Evaluation],
    ) {
        let mut all: Vec<&SrcExpr> = Vec::new();
        for f in functions {
            all.extend(f.body.iter());
        }
        for r in rules {
            all.extend(
                r.to_locations
                    .iter()
                    .chain(r.condition.iter())
                    .chain(r.followup.iter()),
            );
            for (a, w) in &r.bonuses {
                all.push(a);
                all.push(w);
            }
        }
        for s in scorings {
            all.push(&s.situation);
            all.extend(s.players.iter().chain(s.scores.iter()));
        }
        for e in ends {
            all.push(&e.situation);
            all.push(&e.winner);
        }
        for e in evaluations {
            all.push(&e.value);
        }
        let mut call_errors = Vec::new();
        for se in all {
            let mut check = |f: FuncId, argc: usize| match &funcs[f as usize] {
                None => call_errors.push(Diagnostic {
                    line: se.line,
                    col: se.col,
                    message: format!("unknown function {}", self.names.func_names[f as usize]),
                }),
                Some(def) if def.params.len() != argc => call_errors.push(Diagnostic {
                    line: se.line,
                    col: se.col,
                    message: format!(
                        "function {} takes {} argument(s), called with {argc}",
                        def.name,
                        def.params.len()
                    ),
                }),
                _ => {}
            };
            se.expr.walk(&mut |e| match e {
                Expr::Call(f, args) => check(*f, args.len()),
                Expr::Lazy(items) => {
                    for it in items.iter() {
                        if let LazyItem::Defer(f, args) = it {
                            check(*f, args.len());
                        }
                    }
                }
                _ => {}
            });
        }
        call_errors.dedup();
        self.errors.extend(call_errors);
    }
}
