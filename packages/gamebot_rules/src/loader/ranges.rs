//! Phase 5b: a warning for loops whose constant bounds alone exceed the
//! evaluation budget (`FORALL($i, 1, 2000000000, ...)`): such an expression
//! can only end with the budget error at run time.

use super::*;
use crate::eval::DEFAULT_STEP_BUDGET;
use crate::expr::{Expr, LazyItem};

/// Loop iterations an expression makes at least when every loop with
/// constant bounds runs to its end: sequential parts add up, a loop
/// multiplies its body's count (at least one step per iteration). Loops with
/// bounds known only at run time count as one pass of their body.
fn constant_iterations(e: &Expr) -> u128 {
    let sum = |xs: &[Expr]| {
        xs.iter()
            .map(constant_iterations)
            .fold(0u128, u128::saturating_add)
    };
    match e {
        Expr::Loop { from, to, body, .. } => {
            let bounds = constant_iterations(from).saturating_add(constant_iterations(to));
            let trips = match (&**from, &**to) {
                (Expr::Int(a), Expr::Int(b)) => (*a as i64 - *b as i64).unsigned_abs() as u128 + 1,
                _ => 1,
            };
            bounds.saturating_add(trips.saturating_mul(constant_iterations(body).max(1)))
        }
        Expr::Set(xs) | Expr::Call(_, xs) | Expr::Builtin(_, xs) => sum(xs),
        Expr::Lazy(items) => items
            .iter()
            .map(|it| match it {
                LazyItem::Defer(_, xs) => sum(xs),
                LazyItem::Now(x) => constant_iterations(x),
            })
            .fold(0u128, u128::saturating_add),
        Expr::Unary(_, x) | Expr::Assign(_, x) => constant_iterations(x),
        Expr::Binary(_, a, b) => constant_iterations(a).saturating_add(constant_iterations(b)),
        _ => 0,
    }
}

impl Loader<'_> {
    /// Warns about every expression whose constant loop ranges alone need
    /// more steps than one operation's evaluation budget.
    pub(super) fn check_loop_ranges(
        &mut self,
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
            all.extend(r.to_locations.iter().chain(&r.condition).chain(&r.followup));
            for (a, w) in &r.bonuses {
                all.extend([a, w]);
            }
        }
        for s in scorings {
            all.push(&s.situation);
            all.extend(s.players.iter().chain(&s.scores));
        }
        for e in ends {
            all.extend([&e.situation, &e.winner]);
        }
        all.extend(evaluations.iter().map(|e| &e.value));
        for se in all {
            let n = constant_iterations(&se.expr);
            if n > DEFAULT_STEP_BUDGET as u128 {
                self.warn(
                    se.line,
                    se.col,
                    format!(
                        "FORALL/FORSOME with constant bounds make {n} iterations here, more than \
                         the evaluation budget of {DEFAULT_STEP_BUDGET} steps per operation: \
                         evaluating it will stop with an error"
                    ),
                );
            }
        }
    }
}
