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

/// Sets [`Rule::gen_clear`] for every rule: the variables move generation
/// unbinds before evaluating the rule for an element, instead of the whole
/// namespace (and [`Rule::to_key`], which rules share a list of empty `to=`
/// locations).
///
/// Generation evaluates only a rule's `toLocations` (or, without one, its
/// `condition`), after binding `element=`'s and `from=`'s variables and the
/// `state=`/`player=` variables for the element, and (without `toLocations`)
/// `to=`'s variables for each target before its evaluation; a pattern match
/// binds every variable of its pattern. Such an evaluation reads and writes
/// only the variables in `FunctionReads::of_expr` of its expression
/// (following calls, with their parameters, and interpolated names): those
/// not bound from the patterns and filters are the ones that must be unbound
/// when it starts, as after a full clear; the rest of the namespace cannot
/// influence it. Every other operation that evaluates (`apply_with`,
/// `evaluate`) clears the whole namespace first, so what generation leaves in
/// other slots is never read. The set is computed before constant folding,
/// which can only remove variable references: it may hold more than needed,
/// which is harmless.
pub(super) fn mark_generation_clears(
    rules: &mut [Rule],
    funcs: &[Option<Function>],
    names: &Names,
) {
    // Rules with the same `to=` locations in the same order share their
    // list of empty ones in a generation (`Rule::to_key`).
    for i in 0..rules.len() {
        let same = |j: usize| {
            rules[j].to_matches.len() == rules[i].to_matches.len()
                && rules[j]
                    .to_matches
                    .iter()
                    .zip(&rules[i].to_matches)
                    .all(|(a, b)| a.0 == b.0)
        };
        let key = (0..i).find(|&j| same(j)).unwrap_or(i);
        rules[i].to_key = key as u32;
    }
    let reads = FunctionReads::new(funcs);
    for r in rules.iter_mut() {
        let Some(e) = r.to_locations.as_ref().or(r.condition.as_ref()) else {
            r.gen_clear = Vec::new();
            continue;
        };
        let mut rebound: FxHashSet<VarId> = r.element.vars().chain(r.from.vars()).collect();
        if let Filter::Var(v) = r.state {
            rebound.insert(v);
        }
        if let Filter::Var(v) = r.player {
            rebound.insert(v);
        }
        if r.to_locations.is_none() {
            if let Some(to) = &r.to {
                rebound.extend(to.vars());
            }
        }
        let mut clear: Vec<VarId> = reads
            .of_expr(&e.expr, names)
            .into_iter()
            .filter(|v| !rebound.contains(v))
            .collect();
        clear.sort_unstable();
        r.gen_clear = clear;
    }
}

/// Sets [`Rule::apply_clear`] for every rule: the variables applying a move
/// unbinds before it tries the rule, instead of the whole namespace (issue
/// 18, twenty-sixth step).
///
/// Applying a move evaluates, after the rule's pattern and filter variables
/// are bound, its `condition`, then (the rule chosen) its bonuses and
/// `followup`, then every scoring and end-of-game expression, without
/// unbinding anything between them. All of these read and write only the
/// variables in `FunctionReads::of_expr` of their expressions; so unbinding
/// those (the end checks' all of them: they read what the rule's
/// evaluations left) is, for every evaluation of the operation, the same as
/// a full clear. The rule's own pattern and filter variables are left out
/// unless the end checks read them: the rule's evaluations run only once
/// matching bound every one of them (a rule whose pattern fails is not
/// chosen, and the next rule unbinds what its own evaluations read; when
/// none matches, the namespace is cleared). Generation
/// (`Rule::gen_clear`) and the other operations unbind what they read in
/// the same way, so what an operation leaves in other slots is never read.
pub(super) fn mark_apply_clears(
    rules: &mut [Rule],
    scorings: &[Scoring],
    ends: &[EndCondition],
    funcs: &[Option<Function>],
    names: &Names,
) {
    let reads = FunctionReads::new(funcs);
    let mut after: FxHashSet<VarId> = FxHashSet::default();
    for s in scorings {
        for e in std::iter::once(&s.situation)
            .chain(&s.players)
            .chain(&s.scores)
        {
            after.extend(reads.of_expr(&e.expr, names));
        }
    }
    for e in ends {
        after.extend(reads.of_expr(&e.situation.expr, names));
        after.extend(reads.of_expr(&e.winner.expr, names));
    }
    for r in rules.iter_mut() {
        let mut clear = after.clone();
        let bound: FxHashSet<VarId> = r.pattern_vars().collect();
        for e in r
            .condition
            .iter()
            .chain(&r.followup)
            .chain(r.bonuses.iter().flat_map(|(a, w)| [a, w]))
        {
            clear.extend(
                reads
                    .of_expr(&e.expr, names)
                    .into_iter()
                    .filter(|v| !bound.contains(v)),
            );
        }
        let mut clear: Vec<VarId> = clear.into_iter().collect();
        clear.sort_unstable();
        r.apply_clear = clear;
        // What a move found legal binds: the pattern and filter variables
        // read after its (unasked) condition.
        let mut read: FxHashSet<VarId> = after.clone();
        for e in r
            .followup
            .iter()
            .chain(r.bonuses.iter().flat_map(|(a, w)| [a, w]))
        {
            read.extend(reads.of_expr(&e.expr, names));
        }
        r.known_binds = known_binds(r, &read);
    }
}

/// [`Rule::known_binds`]: each variable of `read` that matching rule `r`
/// binds, with the last of its bindings in the order matching binds them
/// (`element=`, `state=`, `player=`, `from=`, `to=`), in variable order.
/// A pattern's bindings are one per slot, in slot order
/// (`Pattern::matches`). `None` for a pattern of more than 256 slots.
fn known_binds(r: &Rule, read: &FxHashSet<VarId>) -> Option<Box<[(VarId, KnownBind)]>> {
    let mut last: Vec<(VarId, KnownBind)> = Vec::new();
    let mut put = |v: VarId, b: KnownBind| {
        if read.contains(&v) {
            last.retain(|x| x.0 != v);
            last.push((v, b));
        }
    };
    for (i, v) in r.element.vars().enumerate() {
        put(v, KnownBind::Elem(u8::try_from(i).ok()?));
    }
    if let Filter::Var(v) = r.state {
        put(v, KnownBind::State);
    }
    if let Filter::Var(v) = r.player {
        put(v, KnownBind::Player);
    }
    for (i, v) in r.from.vars().enumerate() {
        put(v, KnownBind::From(u8::try_from(i).ok()?));
    }
    for (i, v) in r.to.iter().flat_map(|t| t.vars()).enumerate() {
        put(v, KnownBind::To(u8::try_from(i).ok()?));
    }
    last.sort_unstable_by_key(|x| x.0);
    Some(last.into())
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
///
/// When moreover `B` touches no variable bound before the targets, the rule
/// shares its targets ([`Rule::share_call_targets`], issue 18 eighteenth
/// step): for two elements whose `A` is true, every variable `B` touches
/// holds the same value before `B` runs at each target (by induction over
/// the targets in order: all start unbound, as the namespace is cleared per
/// element for what the evaluation can touch; the target's bindings are the
/// same; `A` touches nothing `B` touches; `B`'s own earlier evaluations were
/// the same), and the state is the same (generation cannot change it): so
/// `B`, the condition's value when `A` is true, gives the same value (or
/// error) at every target, and both elements get the same targets — those
/// of the first element whose `A` is true, computed once per position
/// (`nim-orig`'s `CanTake($E,$R,$K) AND Slot($D)`).
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
        // `A AND B`, or a condition of one test `C` hoisted as `C AND true`
        // ([`one_test`]).
        let Some(cond) = r.condition.as_ref() else {
            continue;
        };
        let (a, b) = match &cond.expr {
            Expr::Binary(crate::lexer::Op::And, a, b) => (&**a, Some(&**b)),
            c if one_test(c) => (c, None),
            _ => continue,
        };
        let touched_a = reads.of_expr(a, names);
        let mut others = b.map(|b| reads.of_expr(b, names)).unwrap_or_default();
        for (_, tb) in &r.to_matches {
            others.extend(tb.iter().map(|x| x.0));
        }
        if let Some(to) = &r.to {
            others.extend(to.vars());
        }
        if !touched_a.is_disjoint(&others) {
            continue;
        }
        let bound = r.bound_before_targets();
        let hoist = reads.writes_of(a).is_disjoint(&bound);
        // [`Rule::share_call_targets`] for `A AND B`: `B` touches no variable
        // bound before the targets either.
        let share = hoist && b.is_none_or(|b| reads.of_expr(b, names).is_disjoint(&bound));
        if hoist && b.is_none() {
            if let Some(c) = r.condition.as_mut() {
                let test = std::mem::replace(&mut c.expr, Expr::Bool(true));
                c.expr = Expr::Binary(
                    crate::lexer::Op::And,
                    Box::new(test),
                    Box::new(Expr::Bool(true)),
                );
            }
        }
        r.hoist_first_conjunct = hoist;
        r.share_call_targets = share;
    }
    for r in rules.iter_mut() {
        if r.hoist_first_conjunct {
            r.hoist_call = false;
            continue;
        }
        let (hoist, share) = call_hoistable(r, funcs, names, &reads);
        r.hoist_call = hoist;
        r.share_call_targets = hoist && share;
    }
}

/// Whether a condition `C` is one test — a comparison, an `OR` or a
/// `NOT`, whose value is a Bool or an error of its own — which
/// [`mark_hoistable_conditions`] hoists as `C AND true` when `C` touches no
/// variable of the target and writes none bound before the targets, as
/// `nim-orig`'s `pass` (`STATE("token") > 1`). The same value or error:
/// `AND` evaluates `C` first and gives its value when it is a Bool; `true`
/// takes no budget step. The rule's element is then asked `C` once, before
/// its targets (`ConditionPart::precheck`), instead of at every target.
fn one_test(c: &Expr) -> bool {
    use crate::lexer::Op;
    match c {
        Expr::Binary(op, ..) => matches!(
            op,
            Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Or
        ),
        Expr::Unary(Op::Not, _) => true,
        _ => false,
    }
}

/// The smallest and largest value the patterns of `r` bind to `v`, if only
/// patterns bind it.
fn pattern_range(r: &Rule, v: VarId) -> Option<(i32, i32)> {
    if matches!(r.state, Filter::Var(s) if s == v) || matches!(r.player, Filter::Var(p) if p == v) {
        return None;
    }
    let all = r
        .elem_matches
        .iter()
        .map(|x| &x.1)
        .chain(r.from_match.iter().flatten())
        .chain(r.to_matches.iter().map(|x| &x.1));
    let mut range: Option<(i32, i32)> = None;
    for b in all {
        for &(w, x) in b.iter() {
            if w == v {
                range = Some(range.map_or((x, x), |(lo, hi)| (lo.min(x), hi.max(x))));
            }
        }
    }
    range
}

/// [`Rule::hoist_call`]: the condition is `F(args)` with
///
/// - every argument an integer literal or a variable bound by the rule's
///   patterns (so binding the parameters cannot fail), none of them a
///   parameter of `F`, the parameters distinct;
/// - every line of `F` but the last an assignment `$W = x` (`$W` no parameter), `x` a literal, a
///   parameter or a parameter plus/minus a literal that cannot overflow for
///   any value the patterns bind (so these lines cannot fail and pass);
/// - the last line `A AND B`, where `A` touches no variable that `B`, the
///   other lines, `to=` or the parameters bound from target variables touch,
///   and writes no parameter and no variable bound before the targets; the
///   variables the other parameters are bound from are written by none of
///   `B` and the other lines.
///
/// Then at every target of one element the call binds the same values to
/// the parameters `A` reads, passes the other lines, and evaluates `A` exactly
/// as at the first target (same argument as for
/// [`mark_hoistable_conditions`]); so a false `A` at the first target means a
/// false condition, without error, at all of them.
///
/// The second result, [`Rule::share_call_targets`]: moreover `B` touches no
/// variable that can differ between elements — none bound before the targets
/// (`element=`, `from=`, `state=`, `player=`), no parameter bound from one of
/// those, no variable a guard line writes from such a parameter. Then, for two
/// elements whose `A` is true, every variable `B` touches holds the same value
/// before `B` runs at each target (by induction over the targets in order:
/// all start unbound, as the namespace is cleared per element; the target's
/// bindings, the parameters bound from target variables or literals and the
/// guard lines that `B` may read write the same values for both; `A` writes
/// nothing `B` touches; and `B`'s own earlier evaluations were the same), and
/// the state is the same (generation cannot change it): so `B`, which is the
/// condition's value when `A` is true, gives the same value (or error) at
/// every target, and both elements get the same target list.
fn call_hoistable(
    r: &Rule,
    funcs: &[Option<Function>],
    names: &Names,
    reads: &FunctionReads,
) -> (bool, bool) {
    const NO: (bool, bool) = (false, false);
    if r.to_locations.is_some() {
        return NO;
    }
    let Some(Expr::Call(f, args)) = r.condition.as_ref().map(|c| &c.expr) else {
        return NO;
    };
    let Some(def) = &funcs[*f as usize] else {
        return NO;
    };
    let params: FxHashSet<VarId> = def.params.iter().copied().collect();
    if def.params.len() != args.len() || params.len() != args.len() {
        return NO;
    }
    let Some((last, guards)) = def.body.split_last() else {
        return NO;
    };
    let Expr::Binary(crate::lexer::Op::And, a, b) = &last.expr else {
        return NO;
    };
    let bound = r.bound_before_targets();
    let mut to_vars: FxHashSet<VarId> = FxHashSet::default();
    for (_, tb) in &r.to_matches {
        to_vars.extend(tb.iter().map(|x| x.0));
    }
    if let Some(to) = &r.to {
        to_vars.extend(to.vars());
    }
    // Parameters and what they are bound from.
    let mut others = to_vars.clone();
    let mut sources: FxHashSet<VarId> = FxHashSet::default();
    let mut param_arg: Vec<(VarId, Option<VarId>)> = Vec::new();
    for (&p, arg) in def.params.iter().zip(args.iter()) {
        match arg {
            Expr::Int(_) => param_arg.push((p, None)),
            Expr::Var(v) if !params.contains(v) && (bound.contains(v) || to_vars.contains(v)) => {
                param_arg.push((p, Some(*v)));
                if to_vars.contains(v) {
                    others.insert(p);
                } else {
                    sources.insert(*v);
                }
            }
            _ => return NO,
        }
    }
    let range_of_param = |p: VarId| -> Option<(i32, i32)> {
        param_arg.iter().find(|x| x.0 == p).and_then(|x| match x.1 {
            Some(v) => pattern_range(r, v),
            None => match args[def.params.iter().position(|q| *q == p)?] {
                Expr::Int(i) => Some((i, i)),
                _ => None,
            },
        })
    };
    // Variables that may hold different values for different elements.
    let mut differing = bound.clone();
    for (p, from) in &param_arg {
        if from.is_some_and(|v| !to_vars.contains(&v)) {
            differing.insert(*p);
        }
    }
    let mut written_elsewhere = reads.writes_of(b);
    for g in guards {
        let Expr::Assign(w, x) = &g.expr else {
            return NO;
        };
        if params.contains(w) {
            return NO;
        }
        let safe = match &**x {
            Expr::Int(_) => true,
            Expr::Var(p) => params.contains(p),
            Expr::Binary(op @ (crate::lexer::Op::Add | crate::lexer::Op::Sub), l, k) => {
                match (&**l, &**k) {
                    (Expr::Var(p), Expr::Int(k)) if params.contains(p) => range_of_param(*p)
                        .is_some_and(|(lo, hi)| {
                            let f = |x: i32| match op {
                                crate::lexer::Op::Add => x.checked_add(*k),
                                _ => x.checked_sub(*k),
                            };
                            f(lo).is_some() && f(hi).is_some()
                        }),
                    _ => false,
                }
            }
            _ => false,
        };
        if !safe {
            return NO;
        }
        if reads
            .of_expr(x, names)
            .iter()
            .any(|v| differing.contains(v))
        {
            differing.insert(*w);
        }
        others.extend(reads.of_expr(&g.expr, names));
        written_elsewhere.extend(reads.writes_of(&g.expr));
    }
    others.extend(reads.of_expr(b, names));
    let touched_a = reads.of_expr(a, names);
    if !touched_a.is_disjoint(&others) || !sources.is_disjoint(&written_elsewhere) {
        return NO;
    }
    let writes_a = reads.writes_of(a);
    let hoist = writes_a.is_disjoint(&bound) && writes_a.is_disjoint(&params);
    (hoist, reads.of_expr(b, names).is_disjoint(&differing))
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
