//! Memoized calls of pure user functions (issue 18, deliverable 2: cheaper
//! end-of-game checks and conditions where provably equivalent).
//!
//! A user function qualifies ([`analyse`]) when everything it can run,
//! following calls, only reads the position (no `MOVE`/`SET…`/`NEXTPLAYER`,
//! only the built-ins whose position reads are recorded, no lazy sets). Its
//! *inputs* are its parameters and the variables it reads but never writes
//! (following calls; `$X`, `$Y` bound from a rule's `to=` pattern, say): an
//! evaluation reads no other variable before writing it in the same
//! evaluation (checked at run time, below), so it is a function of its
//! inputs and of the position. It must have inputs (a function without any
//! is in practice a whole-board end check, stale after every move) and be
//! heavy enough ([`MIN_WEIGHT`]) for an entry to cost less than evaluating.
//!
//! A call of such a function in the compiled form (`compile.rs`,
//! `run_memo`) binds the parameters as always, then looks up the input
//! values in the function's table. An entry holds what one earlier evaluation
//! read from the position (each read with the value it gave, in order), the
//! values it left in the variables it wrote, and its value. When every
//! recorded read gives the same value in the current position, the
//! evaluation would take the same path again (it is deterministic given its
//! inputs and what it reads), so the entry's variables are written and its
//! value returned without running it. An entry also records the epoch of
//! the state its reads last held in (`State::epoch`, issue 18 seventeenth
//! step): a state has a number no other contents had when it is made and
//! after each move the engine applies, 0 after any other change, and a copy
//! keeps it, so in a state of that epoch (not 0) the reads hold without
//! being checked again — a position that looks a function up many times
//! (`nim-orig`'s `Left`, once per element of a row) checks its entry once.
//! A state also knows the epoch it derives from and a bit set over what
//! changed since (`State::parent`, `State::changed`, eighteenth step): an
//! entry whose reads held in that epoch and whose bits ([`Read::bit`]) miss
//! the changed ones holds too, unchecked ([`unchanged_since`]) — the end
//! check right after a move takes the entries of the rows, cells or pieces
//! the move left alone.
//!
//! On a miss the function runs with every variable it may write, other than
//! its own parameters, unbound first (their old values saved), while its
//! position reads are recorded. A success proves that every such variable it
//! read had been written earlier in the same evaluation (otherwise it would
//! have failed with "not bound", and errors always propagate), so the run is
//! the same as with the old values bound, and the same for any later call
//! with the same inputs and reads; variables it did not write get their old
//! values back, and the entry is stored. On an error the variables and the
//! evaluation budget are put back as they were and the call runs again
//! unmemoized, with no memoized calls below it either ([`Memo::bypass`]),
//! which gives exactly the original error (or, if the first run failed only
//! because a variable was unbound, the original value; such a call is not
//! stored). A failed attempt nested in another attempt does not rerun itself:
//! it passes the error up, and the outermost attempt reruns everything below
//! it plainly (its saved variables and budget cover the inner ones). So an
//! unbounded recursion through a memoized function costs one attempt and one
//! plain run before its "recursion too deep" error — rerunning at every level
//! would be quadratic, and with memoized calls inside the reruns exponential.
//! When the plain run succeeds, the attempt failed only because of the
//! unbound variables: the innermost function whose attempt failed reads a
//! variable before writing it (a helper adding to its caller's `$res`, say),
//! and is no longer memoized in that scratch.
//!
//! Dead variables ([`dead_vars`]) are left out of all of this: a variable
//! that only one non-recursive function mentions, and that it reads only
//! after writing it in the same invocation, is never read with a value an
//! earlier call left in it. So an entry neither holds nor writes it back, a
//! miss neither saves nor unbinds it (its reads are preceded by writes within
//! the evaluation anyway), and a call whose parameters are all dead reads its
//! key from the arguments and binds them only on a miss (`run_memo_keyed` in
//! `compile.rs`). What such a call leaves in dead variables may differ from
//! the plain evaluation; nothing can observe it.
//!
//! Entries are only an acceleration: values, variables that can be read,
//! state changes and errors are those of the plain evaluation. As with the other shared
//! evaluations of move generation (docs/ARCHITECTURE.md), an entry that is
//! used saves the evaluation-budget steps (and the call-depth checks) the
//! call would have taken. A function whose entries are often stale (in half
//! of the calls that found one, judged after 32 such calls) is no longer
//! memoized in that scratch.

use crate::expr::{Builtin, Expr, FuncId, LazyItem, VarId};
use crate::game::{Function, Template, TemplatePiece};
use crate::lexer::Op;
use crate::state::{State, NO_ELEMENT};
use crate::value::{Str, Value};
use rustc_hash::FxHashSet;

/// Per memoized function: its parameters and the variables it may write.
#[derive(Debug)]
pub(crate) struct MemoInfo {
    /// What an evaluation depends on besides the position: the parameters,
    /// then the variables it reads but never writes (following calls).
    pub inputs: Vec<VarId>,
    /// Every variable an evaluation may write (the parameters included)
    /// except the dead ones ([`dead_vars`]): what an entry holds.
    pub writes: Vec<VarId>,
    /// `writes` and the parameters: saved before a miss runs, and put back
    /// before a failed attempt runs again plainly (a parameter the body
    /// assigns must start from its argument again).
    pub saved: Vec<VarId>,
    /// `writes` without the function's own parameters: unbound on a miss.
    pub locals: Vec<VarId>,
}

/// Which functions are memoized (see the module documentation).
pub(crate) fn analyse(
    funcs: &[Option<Function>],
    templates: &[Template],
    dead: &[bool],
) -> Vec<Option<MemoInfo>> {
    (0..funcs.len())
        .map(|f| analyse_one(funcs, templates, dead, f as FuncId))
        .collect()
}

fn analyse_one(
    funcs: &[Option<Function>],
    templates: &[Template],
    dead: &[bool],
    f: FuncId,
) -> Option<MemoInfo> {
    let def = funcs.get(f as usize)?.as_ref()?;
    if def.body.is_empty() {
        return None;
    }
    let mut reads: FxHashSet<VarId> = FxHashSet::default();
    let mut writes: FxHashSet<VarId> = FxHashSet::default();
    let mut seen: FxHashSet<FuncId> = FxHashSet::default();
    let mut todo = vec![f];
    let mut pure = true;
    seen.insert(f);
    while let Some(g) = todo.pop() {
        let gd = funcs.get(g as usize).and_then(Option::as_ref)?;
        if gd.body.is_empty() {
            return None;
        }
        writes.extend(gd.params.iter().copied());
        for line in &gd.body {
            line.expr.walk(&mut |e| match e {
                Expr::Var(v) => {
                    reads.insert(*v);
                }
                Expr::Assign(v, _) => {
                    writes.insert(*v);
                }
                Expr::Loop { var, .. } => {
                    writes.insert(*var);
                }
                Expr::Interp(t) => match templates.get(*t as usize) {
                    Some(tpl) => {
                        for p in &tpl.pieces {
                            if let TemplatePiece::Var(v) = p {
                                reads.insert(*v);
                            }
                        }
                    }
                    None => pure = false,
                },
                Expr::Call(h, args) => match funcs.get(*h as usize).and_then(Option::as_ref) {
                    Some(hd) if hd.params.len() == args.len() => {
                        if seen.insert(*h) {
                            todo.push(*h);
                        }
                    }
                    _ => pure = false,
                },
                // Lazy sets carry deferred calls: not memoized.
                Expr::Lazy(_) => pure = false,
                // Shapes the compiled form leaves to the reference evaluator.
                Expr::Binary(Op::Assign | Op::Not | Op::Abs, ..) => pure = false,
                Expr::Builtin(b, _)
                    if !matches!(
                        b,
                        Builtin::If
                            | Builtin::Content
                            | Builtin::Empty
                            | Builtin::ElType
                            | Builtin::State
                            | Builtin::Owner
                            | Builtin::Player
                            | Builtin::Location
                            | Builtin::LocType
                            | Builtin::Score
                    ) =>
                {
                    pure = false
                }
                _ => {}
            });
        }
    }
    if !pure {
        return None;
    }
    // The variables it reads but never writes: inputs like the parameters.
    let mut free: Vec<VarId> = reads.difference(&writes).copied().collect();
    free.sort_unstable();
    if weight(funcs, templates, f, &mut Vec::new()) < MIN_WEIGHT {
        return None;
    }
    // What a call leaves in a dead variable is never read (`dead_vars`): a
    // hit does not write it, a miss neither saves nor unbinds it.
    let mut all: Vec<VarId> = writes
        .into_iter()
        .filter(|&v| !dead.get(v as usize).copied().unwrap_or(false))
        .collect();
    all.sort_unstable();
    let locals = all
        .iter()
        .copied()
        .filter(|v| !def.params.contains(v))
        .collect();
    let mut saved = all.clone();
    saved.extend(def.params.iter().filter(|p| !all.contains(p)));
    let mut inputs = def.params.clone();
    inputs.extend(free);
    if inputs.is_empty() || inputs.len() > MAX_INPUTS {
        // Without inputs, one entry for all calls: in practice a whole-board
        // scan (an end check), which every move makes stale.
        return None;
    }
    Some(MemoInfo {
        inputs,
        writes: all,
        saved,
        locals,
    })
}

/// Loop bodies memoized like functions ("units", issue 18 tenth step): the
/// body of a `FORALL`/`FORSOME` in a user function that assigns nothing,
/// and that qualifies as a function without parameters would ([`analyse`]:
/// position reads only, inputs — here the variables it reads, the loop
/// variable among them —, enough weight).
/// Gives each such body (by address) with its [`MemoInfo`]; the compiled form
/// numbers them after the functions (`Game::memo_info`).
///
/// A body may be a loop itself (nineteenth step): the outer body of
/// `FORSOME($X, .., FORSOME($Y, .., Line(..) OR ...))` is a unit whose inputs
/// are `$X` and the other variables the inner loop reads but does not write,
/// and whose writes are the inner loop's variable (unless dead) — what a
/// memoized function containing that loop would have, so the argument is
/// the same. On its miss the inner loop runs with its own unit: inner hits
/// add their entries' reads to the outer evaluation's ([`Memo::hit`] while
/// `depth` is not 0), inner misses record theirs, so the outer entry holds
/// every read its evaluation depended on. A board scan then looks up one
/// entry per row, and after a move only the rows whose reads changed look up
/// their squares' entries (`tictactoe-orig`'s `HasLine`, `connect4-orig`'s
/// `HasFour`).
///
/// A body is a function of its inputs and of the position exactly as a
/// function body is (`compile.rs` evaluates it in place: no call, no budget
/// step, no call depth, no trace line of its own), so the argument of the
/// module documentation carries over; the loop itself still takes its step
/// per iteration and sets its variable. An end check scanning the board
/// (`FORSOME($X, .., FORSOME($Y, .., Line($X,$Y,1,0,$P) OR ...))`) then looks
/// up one entry per square instead of one per call, and after a move only the
/// squares whose recorded reads changed run again.
pub(crate) fn units(
    funcs: &[Option<Function>],
    templates: &[Template],
    dead: &[bool],
) -> Vec<(*const Expr, MemoInfo)> {
    let mut bodies: Vec<(*const Expr, Expr)> = Vec::new();
    for def in funcs.iter().flatten() {
        for line in &def.body {
            line.expr.walk(&mut |e| {
                if let Expr::Loop { body, .. } = e {
                    let (mut plain, mut calls) = (true, 0);
                    body.walk(&mut |x| match x {
                        Expr::Assign(..) | Expr::Lazy(_) => plain = false,
                        Expr::Call(..) => calls += 1,
                        _ => {}
                    });
                    if plain && calls >= MIN_UNIT_CALLS {
                        bodies.push((&**body as *const Expr, (**body).clone()));
                    }
                }
            });
        }
    }
    let mut out = Vec::new();
    if bodies.is_empty() {
        return out;
    }
    let mut all: Vec<Option<Function>> = funcs.to_vec();
    for (at, b) in bodies {
        all.push(Some(Function {
            name: String::new(),
            params: Vec::new(),
            body: vec![crate::game::SrcExpr {
                expr: b,
                line: 0,
                col: 0,
                code: crate::compile::Code(None),
            }],
            line: 0,
        }));
        if let Some(info) = analyse_one(&all, templates, dead, (all.len() - 1) as FuncId) {
            out.push((at, info));
        }
        all.pop();
    }
    out
}

/// The calls a loop body must make to be a unit ([`units`]): a body with
/// one call replaces at most one lookup of that call's own entry (if it is
/// memoized) by one of its own, and after a move its entries are as stale as
/// the call's (measured: `reversi8`'s `EMPTY("b($X,$Y)") AND Legal($hc)`
/// took 6 % more instructions per game as a unit).
const MIN_UNIT_CALLS: u32 = 2;

/// Adds the variables `e` mentions (reads, writes, loop variables,
/// interpolations) to `out`.
pub(crate) fn mentions(e: &Expr, templates: &[Template], out: &mut FxHashSet<VarId>) {
    e.walk(&mut |x| match x {
        Expr::Var(v) | Expr::Assign(v, _) | Expr::Loop { var: v, .. } => {
            out.insert(*v);
        }
        Expr::Interp(t) => {
            if let Some(tpl) = templates.get(*t as usize) {
                out.extend(tpl.vars.iter().copied());
            }
        }
        _ => {}
    });
}

/// The variables no expression can observe once the invocation that wrote
/// them has returned ("dead" after it): a memo hit need not write them back,
/// and a miss need not save or unbind them.
///
/// `v` is dead when
/// - some user functions mention it (as a parameter, read, assignment, loop
///   variable or interpolation), and nothing outside the functions does
///   (`outside`: rule patterns and filters, conditions, `toLocations`,
///   followups, bonuses, scorings, end-of-game records, evaluations);
/// - no call in `exprs` (every expression of the game, the functions'
///   bodies included) binds it as a parameter before evaluating a later
///   argument that can call one of them (§5.9: each parameter is bound as
///   soon as its argument is evaluated, globally; in `Pos(0, Pos(3, 3))`
///   the inner call rebinds the outer's `$vx`, which the outer body then
///   reads: that argument runs between the write and the read, outside
///   the invocation);
/// - none of them can call itself or another of them (following calls and
///   deferred calls; issue 18 thirty-seventh step: until then, exactly one
///   function could mention it), and
/// - in each of them, every read of `v` is preceded, on every path of the
///   same invocation, by a write of `v` in that invocation ([`assigned`];
///   the parameters are written on entry).
///
/// Then every read of `v` happens inside an invocation of one of them, `g`,
/// after a write in that invocation, and no other code runs between the two
/// that could write `v` (only those functions write it, and none of them
/// runs inside `g`'s invocation: `g` calls none of them, itself included):
/// the value read is the one that write gave, whatever `v` held before. So what a
/// call leaves in `v` is never read; in particular an unrestored value after
/// a memo hit cannot change any value, variable that is read, state change or
/// error. (Errors end the operation; the engine itself reads no variable
/// slot.) The analysis is conservative about evaluation order: only the
/// order of body lines, of `AND`/`OR` operands, of an `IF`'s condition
/// before its branches, and of an assignment's value before the assignment
/// is relied on; operands of anything else are checked against what was
/// assigned before all of them.
pub(crate) fn dead_vars<'e>(
    funcs: &[Option<Function>],
    calls: &crate::call_graph::CallGraph,
    templates: &[Template],
    outside: &FxHashSet<VarId>,
    exprs: impl Iterator<Item = &'e Expr>,
    nvars: usize,
) -> Vec<bool> {
    // Per variable: the functions mentioning it.
    let mut owners: Vec<Vec<u32>> = vec![Vec::new(); nvars];
    let note = |v: VarId, g: u32, owners: &mut Vec<Vec<u32>>| {
        if let Some(o) = owners.get_mut(v as usize) {
            if !o.contains(&g) {
                o.push(g);
            }
        }
    };
    for (g, def) in funcs.iter().enumerate() {
        let Some(def) = def else { continue };
        for &p in &def.params {
            note(p, g as u32, &mut owners);
        }
        for line in &def.body {
            line.expr.walk(&mut |e| match e {
                Expr::Var(v) | Expr::Assign(v, _) | Expr::Loop { var: v, .. } => {
                    note(*v, g as u32, &mut owners)
                }
                Expr::Interp(t) => {
                    if let Some(tpl) = templates.get(*t as usize) {
                        for &v in &tpl.vars {
                            note(v, g as u32, &mut owners);
                        }
                    }
                }
                _ => {}
            });
        }
    }
    // Parameters bound before a later argument that can call a function
    // mentioning them.
    let mut rebound = vec![false; nvars];
    for e in exprs {
        e.walk(&mut |x| {
            let Expr::Call(f, args) = x else { return };
            let Some(def) = funcs.get(*f as usize).and_then(Option::as_ref) else {
                return;
            };
            for (i, a) in args.iter().enumerate().skip(1) {
                crate::call_graph::call_sites(a, |h| {
                    let h = h as usize;
                    for &p in def.params.iter().take(i) {
                        let o = owners.get(p as usize).map_or(&[][..], |o| &o[..]);
                        if o.iter()
                            .any(|&g| g as usize == h || calls.reaches(h, g as usize))
                        {
                            rebound[p as usize] = true;
                        }
                    }
                });
            }
        });
    }
    // Per function: the variables it may read before writing them.
    let early: Vec<FxHashSet<VarId>> = funcs
        .iter()
        .map(|def| {
            let mut early: FxHashSet<VarId> = FxHashSet::default();
            if let Some(def) = def {
                let mut s: FxHashSet<VarId> = def.params.iter().copied().collect();
                for line in &def.body {
                    assigned(&line.expr, templates, &mut s, &mut early);
                }
            }
            early
        })
        .collect();
    (0..nvars)
        .map(|v| {
            let o = &owners[v];
            !o.is_empty()
                && !outside.contains(&(v as VarId))
                && !rebound[v]
                && o.iter().all(|&g| {
                    let g = g as usize;
                    !early[g].contains(&(v as VarId))
                        && o.iter().all(|&h| !calls.reaches(g, h as usize))
                })
        })
        .collect()
}

/// Definite assignment ([`dead_vars`]): adds to `s` the variables `e`
/// certainly writes when it gives a value, and to `early` those it may read
/// when not in `s` (nor written before in `e`).
fn assigned(
    e: &Expr,
    templates: &[Template],
    s: &mut FxHashSet<VarId>,
    early: &mut FxHashSet<VarId>,
) {
    // Operands whose order is not relied on: each checked against `s`.
    let unordered = |xs: &mut dyn Iterator<Item = &Expr>,
                     s: &mut FxHashSet<VarId>,
                     early: &mut FxHashSet<VarId>| {
        let base = s.clone();
        for x in xs {
            let mut sx = base.clone();
            assigned(x, templates, &mut sx, early);
            s.extend(sx);
        }
    };
    match e {
        Expr::Int(_) | Expr::Bool(_) | Expr::Str(_) => {}
        Expr::Var(v) => {
            if !s.contains(v) {
                early.insert(*v);
            }
        }
        Expr::Interp(t) => {
            if let Some(tpl) = templates.get(*t as usize) {
                for v in &tpl.vars {
                    if !s.contains(v) {
                        early.insert(*v);
                    }
                }
            }
        }
        Expr::Assign(v, x) => {
            assigned(x, templates, s, early);
            s.insert(*v);
        }
        Expr::Binary(Op::And | Op::Or, a, b) => {
            assigned(a, templates, s, early);
            let mut sb = s.clone();
            assigned(b, templates, &mut sb, early);
        }
        Expr::Builtin(Builtin::If, a) if !a.is_empty() => {
            assigned(&a[0], templates, s, early);
            let mut branches = a[1..].iter().map(|x| {
                let mut sx = s.clone();
                assigned(x, templates, &mut sx, early);
                sx
            });
            let first = branches.next();
            let second = branches.next();
            if let (Some(x), Some(y)) = (first, second) {
                s.extend(x.intersection(&y).copied().collect::<Vec<_>>());
            }
        }
        Expr::Loop {
            var,
            from,
            to,
            body,
            ..
        } => {
            unordered(&mut [&**from, &**to].into_iter(), s, early);
            let mut sb = s.clone();
            sb.insert(*var);
            assigned(body, templates, &mut sb, early);
            // A loop that gives a value has set its variable (its range has
            // at least one member, and the variable is set before the body).
            s.insert(*var);
        }
        Expr::Unary(_, x) => assigned(x, templates, s, early),
        Expr::Binary(_, a, b) => unordered(&mut [&**a, &**b].into_iter(), s, early),
        Expr::Set(xs) | Expr::Call(_, xs) | Expr::Builtin(_, xs) => {
            unordered(&mut xs.iter(), s, early)
        }
        Expr::Lazy(items) => {
            let mut all = items.iter().flat_map(|it| match it {
                LazyItem::Defer(_, xs) => xs.iter().collect::<Vec<_>>(),
                LazyItem::Now(x) => vec![x],
            });
            unordered(&mut all, s, early)
        }
    }
}

/// The static weight ([`weight`]) a function must have to be memoized: below it, looking
/// an entry up and checking it costs about as much as evaluating.
const MIN_WEIGHT: u32 = 64;

/// A function's static weight: the nodes of its body, plus the weight of the
/// function at every call site (a recursion counts once). A loop body counts
/// once, unless the body cannot stop the loop (a `FORALL` body that is always
/// true, a `FORSOME` body always false): then once per iteration of a
/// constant range (at most 64), else four times. Loops that may stop early
/// often stop at their first iterations, and counting them more memoized
/// cheap scans whose entries cost more to check than to evaluate. A
/// counting loop the compiled form keeps per position ([`kept_count`])
/// counts its body once too: after a move it tests again only the elements
/// that changed, cheaper than a memo entry's check (`nim-orig`'s `Left`
/// and the `CanTake` calling it are then not memoized).
fn weight(
    funcs: &[Option<Function>],
    templates: &[Template],
    f: FuncId,
    stack: &mut Vec<FuncId>,
) -> u32 {
    let Some(def) = funcs.get(f as usize).and_then(Option::as_ref) else {
        return 0;
    };
    if stack.contains(&f) {
        return 0;
    }
    stack.push(f);
    let w = def
        .body
        .iter()
        .map(|l| expr_weight(funcs, templates, &l.expr, stack))
        .fold(0u32, u32::saturating_add);
    stack.pop();
    w
}

fn expr_weight(
    funcs: &[Option<Function>],
    templates: &[Template],
    e: &Expr,
    stack: &mut Vec<FuncId>,
) -> u32 {
    let w = |x: &Expr, stack: &mut Vec<FuncId>| expr_weight(funcs, templates, x, stack);
    let sub = |xs: &[Expr], stack: &mut Vec<FuncId>| {
        xs.iter()
            .map(|x| w(x, stack))
            .fold(0u32, u32::saturating_add)
    };
    1u32.saturating_add(match e {
        Expr::Call(g, xs) => sub(xs, stack).saturating_add(weight(funcs, templates, *g, stack)),
        Expr::Set(xs) | Expr::Builtin(_, xs) => sub(xs, stack),
        Expr::Loop {
            all,
            from,
            to,
            body,
            ..
        } => {
            // A loop whose body cannot stop it runs its whole range.
            let times = if kept_count(e, templates) {
                1
            } else if always(body, *all) {
                match (&**from, &**to) {
                    (Expr::Int(a), Expr::Int(b)) => (a.abs_diff(*b) + 1).min(64),
                    _ => 4,
                }
            } else {
                1
            };
            w(from, stack)
                .saturating_add(w(to, stack))
                .saturating_add(w(body, stack).saturating_mul(times))
        }
        Expr::Unary(_, x) | Expr::Assign(_, x) => w(x, stack),
        Expr::Binary(_, a, b) => w(a, stack).saturating_add(w(b, stack)),
        _ => 0,
    })
}

/// Whether `e` is a counting loop the compiled form keeps per position
/// (`pure::ElemCount::lower_kept`, `pure::kept_shape`), in the source's
/// terms: a `FORALL` over a literal range of at most 64 values whose body
/// counts (`IF(c, $n = $n + k, true)` or its mirror) when `c`, a comparison
/// or an `AND` chain of comparisons, holds; each compares `STATE`, `OWNER`
/// or `LOCTYPE(LOCATION(..))` of the element named by one template over
/// the loop's variable alone with a literal, but for at most one compared
/// with a variable other than the loop's and the count's (or one plus or
/// minus a literal). Only the weight ([`weight`]) relies on it: a loop
/// taken here that the compiled form does not keep (a template naming no
/// element, say) is evaluated as before, merely not memoized.
fn kept_count(e: &Expr, templates: &[Template]) -> bool {
    let Expr::Loop {
        all: true,
        var,
        from,
        to,
        body,
    } = e
    else {
        return false;
    };
    let (Expr::Int(a), Expr::Int(b)) = (&**from, &**to) else {
        return false;
    };
    if a.abs_diff(*b) >= 64 {
        return false;
    }
    let Some((cond, _, _, n, _)) = crate::compile::counting_body(body) else {
        return false;
    };
    keyed_comparisons(cond, *var, n, templates, &mut None).is_some_and(|keyed| keyed <= 1)
}

/// For [`kept_count`]: how many comparisons of the `AND` chain `c` have a
/// variable on the right (other than the loop's `var` and the count's `n`,
/// or one of those plus or minus a literal), when every comparison tests
/// `STATE`, `OWNER` or `LOCTYPE(LOCATION(..))` of the element named by one
/// template over `var` alone (`name`: its pieces, each occurrence having a
/// template of its own) against such a variable or a literal; `None`
/// otherwise.
fn keyed_comparisons<'t>(
    c: &Expr,
    var: VarId,
    n: VarId,
    templates: &'t [Template],
    name: &mut Option<&'t [TemplatePiece]>,
) -> Option<u32> {
    let Expr::Binary(op, x, y) = c else {
        return None;
    };
    if *op == Op::And {
        let left = keyed_comparisons(x, var, n, templates, name)?;
        return Some(left + keyed_comparisons(y, var, n, templates, name)?);
    }
    if !matches!(op, Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge) {
        return None;
    }
    let el = match &**x {
        Expr::Builtin(Builtin::State | Builtin::Owner, a) if a.len() == 1 => &a[0],
        Expr::Builtin(Builtin::LocType, a) if a.len() == 1 => match &a[0] {
            Expr::Builtin(Builtin::Location, l) if l.len() == 1 => &l[0],
            _ => return None,
        },
        _ => return None,
    };
    let Expr::Interp(t) = el else {
        return None;
    };
    let t = templates.get(*t as usize)?;
    if t.vars[..] != [var] || *name.get_or_insert(&t.pieces[..]) != &t.pieces[..] {
        return None;
    }
    let other = |v: VarId| v != var && v != n;
    match &**y {
        Expr::Int(_) | Expr::Str(_) => Some(0),
        Expr::Var(v) if other(*v) => Some(1),
        Expr::Binary(Op::Add | Op::Sub, p, q) if matches!((&**p, &**q), (Expr::Var(v), Expr::Int(_)) if other(*v)) => {
            Some(1)
        }
        _ => None,
    }
}

/// Whether a body line certainly gives `true` when it gives a value:
/// [`always`], or a `FORALL`/`FORSOME` whose body does, a loop nested in
/// it included (a loop runs at least once, §5.8: a range runs downwards
/// when `from > to`; so one whose body is always true is true, `FORSOME`
/// as `FORALL`).
pub(crate) fn always_true(e: &Expr) -> bool {
    match e {
        Expr::Loop { body, .. } => always_true(body),
        e => always(e, true),
    }
}

/// Whether `e` certainly gives `b` when it gives a value (assignments give
/// `true`; `X OR true`, `IF(c, true, true)`, ...).
fn always(e: &Expr, b: bool) -> bool {
    match e {
        Expr::Bool(x) => *x == b,
        Expr::Assign(..) => b,
        Expr::Binary(Op::Or, x, y) => {
            if b {
                always(x, true) || always(y, true)
            } else {
                always(x, false) && always(y, false)
            }
        }
        Expr::Binary(Op::And, x, y) => {
            if b {
                always(x, true) && always(y, true)
            } else {
                always(x, false) || always(y, false)
            }
        }
        Expr::Builtin(Builtin::If, a) => always(&a[1], b) && a.get(2).is_some_and(|e| always(e, b)),
        _ => false,
    }
}

/// One read of the position by a memoized evaluation, with what it gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Read {
    /// The occupant of a location ([`NO_ELEMENT`] when empty).
    Content(u16, u16),
    State(u16, i32),
    Owner(u16, i32),
    Location(u16, u16),
    Player(i32),
    /// A player's score (index from 0).
    Score(u16, i32),
}

impl Read {
    /// Whether the read gives the same value in `st` (always inlined: out
    /// of line, as it was once a second caller appeared, each look-up paid
    /// a call per read).
    #[inline(always)]
    fn holds(&self, st: &State) -> bool {
        match *self {
            Read::Content(l, x) => st.content(l).unwrap_or(NO_ELEMENT) == x,
            Read::State(e, x) => st.element_state(e) == x,
            Read::Owner(e, x) => st.owner(e) == x,
            Read::Location(e, x) => st.location_of(e) == x,
            Read::Player(x) => st.player() == x,
            Read::Score(p, x) => st.scores()[p as usize] == x,
        }
    }

    /// The bit of what the read reads in `State::changed`.
    fn bit(&self) -> u64 {
        match *self {
            Read::Content(l, _) => crate::state::content_bit(l as usize),
            Read::State(e, _) | Read::Owner(e, _) => crate::state::attr_bit(e as usize),
            Read::Location(e, _) => crate::state::location_bit(e as usize),
            Read::Player(_) | Read::Score(..) => crate::state::PLAYER_BIT,
        }
    }
}

/// The key of a parameter value; `None` for sets (not memoized).
#[inline]
pub(crate) fn key_of(v: &Value) -> Option<u64> {
    match v {
        Value::Int(i) => Some(*i as u32 as u64),
        Value::Bool(b) => Some(1 << 32 | *b as u64),
        Value::Str(Str::Sym(s)) => Some(2 << 32 | *s as u64),
        _ => None,
    }
}

#[derive(Clone, Debug)]
struct Entry {
    reads: Vec<Read>,
    /// The epoch (`State::epoch`) of a state in which every read held when
    /// last checked ([`valid_mark`]; [`NO_MARK`] for none): a state of that
    /// epoch has the same contents, so the reads hold in it without
    /// checking them again.
    valid_in: u64,
    /// The bits ([`Read::bit`]) of everything `reads` reads, 0 until first
    /// needed ([`entry_mask`]): when the
    /// reads held in a state of epoch `valid_in` and a state's contents are
    /// those of that epoch but for the items of `State::changed`
    /// (`State::parent`), no bit in both means they hold there too.
    mask: u64,
    /// The variables left holding Ints, and those holding anything else.
    ints: Vec<(VarId, i32)>,
    others: Vec<(VarId, Value)>,
    result: Value,
}

/// [`Entry::valid_in`] of an entry not checked in a state with an epoch
/// (no state has this epoch: they have 0 or one below it).
const NO_MARK: u64 = u64::MAX;

/// What [`Entry::valid_in`] records for reads that held in a state of
/// epoch `epoch`: the epoch, or [`NO_MARK`] for a state without one (0), so
/// that no state of epoch 0 ever skips the check.
#[inline(always)]
fn valid_mark(epoch: u64) -> u64 {
    epoch | u64::from(epoch == 0).wrapping_neg()
}

/// Whether `e`'s reads held in the epoch `st`'s contents derive from
/// (`State::parent`, not 0: `valid_in` is never 0) and none of them reads
/// an item changed since (`State::changed`): then they hold in `st`.
#[inline(always)]
fn unchanged_since(e: &mut Entry, st: &State) -> bool {
    if e.valid_in != st.parent {
        return false;
    }
    if e.mask == 0 {
        e.mask = entry_mask(&e.reads);
    }
    e.mask & st.changed == 0
}

/// [`Entry::mask`] of `reads`, computed when first needed (most entries of
/// some games are never looked up in a state derived from the epoch they
/// were checked in): 0 for "not yet", so an entry without reads computes it
/// at each use, for nothing.
#[inline(never)]
fn entry_mask(reads: &[Read]) -> u64 {
    reads.iter().fold(0, |m, r| m | r.bit())
}

/// Input values of a call, [`NO_INPUT`] after the last (at most [`MAX_INPUTS`]).
pub(crate) type Key = [u64; MAX_INPUTS];
/// Inputs a memoized function may have.
pub(crate) const MAX_INPUTS: usize = 8;
/// Fills the unused places of a [`Key`] (no [`key_of`] gives it).
pub(crate) const NO_INPUT: u64 = u64::MAX;

/// The entries of one function: open addressing over the keys' used words
/// (a key of `n` inputs hashes and compares `n` words, not [`MAX_INPUTS`]).
#[derive(Clone, Debug, Default)]
struct Table {
    /// Per place: 1 + the index of its entry in `entries`, 0 when free. A
    /// power of two, at least twice the entries (up to [`PLACES`]); empty
    /// until the first store.
    places: Vec<u32>,
    entries: Vec<(Key, Entry)>,
    /// Calls that found an entry, and those whose entry was still valid.
    tries: u32,
    hits: u32,
    off: bool,
}

/// Places of a full table (a power of two, twice [`CAPACITY`]).
const PLACES: usize = 2 * CAPACITY;

/// The hash of a key of `n` inputs.
#[inline(always)]
fn hash(key: &Key, n: usize) -> u64 {
    let mut h: u64 = 0;
    for &w in &key[..n] {
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    h
}

impl Table {
    fn turn_off(&mut self) {
        self.off = true;
        self.places = Vec::new();
        self.entries = Vec::new();
    }

    /// The first place of a hash.
    #[inline(always)]
    fn first(&self, h: u64) -> usize {
        (h >> (64 - self.places.len().trailing_zeros())) as usize
    }

    /// The entry of `key`: the existing one, or a new one (the table is
    /// emptied first when it holds [`CAPACITY`] entries).
    fn entry(&mut self, key: Key, n: usize) -> &mut Entry {
        if let Some(i) = self.find(&key, n) {
            return &mut self.entries[i].1;
        }
        if self.entries.len() >= CAPACITY {
            self.entries.clear();
            self.places.iter_mut().for_each(|p| *p = 0);
        } else if 2 * (self.entries.len() + 1) > self.places.len() {
            // Twice the places, the entries placed again.
            let size = (2 * self.places.len()).clamp(16, PLACES);
            self.places = vec![0; size];
            for j in 0..self.entries.len() {
                let i = self.free_place(&self.entries[j].0, n);
                self.places[i] = j as u32 + 1;
            }
        }
        let i = self.free_place(&key, n);
        self.entries.push((
            key,
            Entry {
                reads: Vec::new(),
                valid_in: NO_MARK,
                mask: 0,
                ints: Vec::new(),
                others: Vec::new(),
                result: Value::Bool(false),
            },
        ));
        self.places[i] = self.entries.len() as u32;
        &mut self.entries.last_mut().expect("pushed").1
    }

    /// The index in `entries` of `key`'s entry (`n` inputs), if any.
    #[inline(always)]
    fn find(&self, key: &Key, n: usize) -> Option<usize> {
        if self.places.is_empty() {
            return None;
        }
        let mask = self.places.len() - 1;
        let mut i = self.first(hash(key, n));
        loop {
            let at = self.places[i];
            if at == 0 {
                return None;
            }
            // Word by word (a slice comparison calls `memcmp`).
            let k = &self.entries[at as usize - 1].0;
            if k[..n].iter().zip(&key[..n]).all(|(a, b)| a == b) {
                return Some(at as usize - 1);
            }
            i = (i + 1) & mask;
        }
    }

    /// The first free place on `key`'s probe sequence (there is one).
    fn free_place(&self, key: &Key, n: usize) -> usize {
        let mask = self.places.len() - 1;
        let mut i = self.first(hash(key, n));
        while self.places[i] != 0 {
            i = (i + 1) & mask;
        }
        i
    }
}

/// Entries per function at most (the table is emptied when it is full).
const CAPACITY: usize = 4096;
/// Calls that found an entry (evaluations run) after which a function's
/// hit rate (cost) is judged.
const TRIAL: u32 = 32;

/// The memo tables of one scratch (they live in [`crate::eval::Vars`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Memo {
    /// The game the tables belong to (`Game::id`).
    game: u64,
    tables: Vec<Table>,
    /// Memoized evaluations under way: reads are recorded when non-zero.
    pub depth: u32,
    /// The reads of the evaluations under way, outermost first.
    pub buf: Vec<Read>,
    /// The values of the variables the misses under way saved before
    /// running (`compile::memo_miss_with`), outermost first.
    pub saved: Vec<Option<Value>>,
    /// Plain reruns under way (after a failed memoized attempt): calls below
    /// them are not memoized.
    pub bypass: u32,
    /// The innermost memoized attempt that failed, while the failure goes up
    /// to the outermost attempt.
    pub failed: Option<FuncId>,
    /// Per cache slot of a closed inlined call (`pure::CallCache`).
    pub calls: Vec<KeptCall>,
    /// Per counting loop with a slot (`pure::ElemCount`): what it counted
    /// in a state of some epoch.
    pub counts: Vec<crate::pure::KeptCount>,
    /// Per place of a formula with kept clauses (`pure::KeptFormula`, by
    /// id): what it found in a state of some epoch.
    pub formulas: Vec<crate::pure::KeptClauses>,
    /// Per summed loop of kept counts (`pure::SummedCounts`, by id): what
    /// its keys counted in a state of some epoch.
    pub sums: Vec<crate::pure::KeptSum>,
    /// Per scan with a slot (`pure::KeptScan`): where it stopped in a
    /// state of some epoch.
    pub scans: Vec<crate::pure::ScanStop>,
    /// The recent epochs handed out with their parents
    /// (`compile::renew_epoch`).
    pub history: Box<EpochHistory>,
    /// The values of the calls and counts kept in the game's initial
    /// position ([`Memo::bring_initial`]).
    initial: InitialKept,
}

/// The kept call values (slot, value) and counts (slot, count) of a state
/// of epoch `epoch` (0: none yet).
#[derive(Clone, Debug, Default)]
struct InitialKept {
    epoch: u64,
    calls: Vec<(usize, i32)>,
    counts: Vec<(usize, crate::pure::KeptCount)>,
}

/// The value of a closed inlined call kept in a slot (`pure::CallCache`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeptCall {
    /// The epoch of the state it was last computed or taken in (0: none).
    pub epoch: u64,
    pub value: i32,
    /// Positions in a row whose call found no value to use: at
    /// [`KeptCall::GIVE_UP`] the slot is no longer used in this scratch
    /// (an end check whose every move changes what it reads, as
    /// `tictactoe-orig`'s, would only pay for keeping the value).
    pub misses: u32,
}

impl KeptCall {
    /// The kept value when it holds in `st` without writing anything: kept
    /// for `st`'s epoch, or for its parent's when nothing under `reads`
    /// (what the call may read) changed since. What a precheck may read
    /// (`compile::PreLeaf::Call`, `compile::CallIndex::pick`).
    #[inline(always)]
    pub(crate) fn value_in(&self, st: &State, reads: u64) -> Option<i32> {
        // (Not through `bool::then`: where this is not inlined into its
        // caller, its closure was a call of its own.)
        if st.epoch != 0
            && (self.epoch == st.epoch
                || EpochHistory::changed_from_parent(st, self.epoch)
                    .is_some_and(|ch| ch & reads == 0))
        {
            Some(self.value)
        } else {
            None
        }
    }

    pub const GIVE_UP: u32 = 64;
}

/// Epochs [`EpochHistory`] remembers (the last ones handed out).
const HISTORY: usize = 16;
/// Parents [`EpochHistory::changed_since`] follows at most.
const HISTORY_DEPTH: usize = 2;

/// The recent epochs a scratch handed out, each with the parent epoch and
/// what changed since (`State::parent`, `State::changed`): a fact about the
/// epoch whatever state or scratch meets it (epochs are handed out once,
/// `compile::epoch_block`), so a kept value from a grandparent epoch is
/// updated by what changed since instead of computed afresh (a kept count
/// of `nim-orig` not asked for in the position after a pass).
#[derive(Clone, Debug, Default)]
pub(crate) struct EpochHistory {
    /// At `epoch % HISTORY`: the epoch, its parent and what changed.
    at: [(u64, u64, u64); HISTORY],
}

impl EpochHistory {
    /// `epoch` was handed out to a state whose contents are those of
    /// epoch `parent` (not 0) but for the items of `changed`.
    #[inline(always)]
    pub(crate) fn record(&mut self, epoch: u64, parent: u64, changed: u64) {
        if parent != 0 {
            self.at[epoch as usize % HISTORY] = (epoch, parent, changed);
        }
    }

    /// The bits of the items changed between a state of epoch `at` and
    /// `st` when `st`'s contents derive from it (`st`'s parent, or an
    /// ancestor remembered here), else `None`.
    #[inline(always)]
    pub(crate) fn changed_from(&self, st: &State, at: u64) -> Option<u64> {
        match Self::changed_from_parent(st, at) {
            Some(changed) => Some(changed),
            None => self.changed_since(st, at),
        }
    }

    /// [`EpochHistory::changed_from`] for the parent only.
    #[inline(always)]
    pub(crate) fn changed_from_parent(st: &State, at: u64) -> Option<u64> {
        (at == st.parent && at != 0).then_some(st.changed)
    }

    /// [`EpochHistory::changed_from`] past the parent.
    #[inline(never)]
    fn changed_since(&self, st: &State, at: u64) -> Option<u64> {
        let (mut changed, mut e) = (st.changed, st.parent);
        for _ in 0..HISTORY_DEPTH {
            if e == 0 || at == 0 {
                return None;
            }
            if e == at {
                return Some(changed);
            }
            let (epoch, parent, c) = self.at[e as usize % HISTORY];
            if epoch != e {
                return None;
            }
            changed |= c;
            e = parent;
        }
        None
    }
}

impl Memo {
    /// Makes the tables those of game `id` with `n` functions (checked on
    /// every memoized call: always inlined, the reset out of line).
    #[inline(always)]
    pub fn for_game(&mut self, id: u64, n: usize) {
        if self.game != id || self.tables.len() != n {
            self.reset(id, n);
        }
    }

    #[inline(never)]
    fn reset(&mut self, id: u64, n: usize) {
        self.game = id;
        self.tables = vec![Table::default(); n];
        self.depth = 0;
        self.buf.clear();
        self.saved.clear();
        self.bypass = 0;
        self.failed = None;
        self.calls.clear();
        self.sums.clear();
        self.initial = InitialKept::default();
    }

    /// Keeps the value of the closed inlined call of `slot` in a state of
    /// epoch `epoch` (`pure::CallCache`), computed (`miss`) or taken from an
    /// earlier epoch (the slot made first, out of line, when it is new).
    #[inline(always)]
    pub fn keep_call(&mut self, slot: usize, epoch: u64, value: i32, miss: bool) {
        if self.calls.len() <= slot {
            self.new_call_slot(slot);
        }
        let k = &mut self.calls[slot];
        k.misses = if miss { k.misses + 1 } else { 0 };
        (k.epoch, k.value) = (epoch, value);
    }

    /// In a state of epoch `epoch`, the game's initial position (every
    /// game starts in that epoch, `Game::initial_state_into`): the call
    /// values and counts [`Memo::keep_initial`] kept for it put back in
    /// their slots (every game would compute them again in its first
    /// position, the later positions having taken the slots; `nim-orig`'s
    /// four `Left` counts, 6 % of its instructions). A call slot keeps its
    /// misses (`KeptCall::GIVE_UP` counts positions of every game).
    #[inline(never)]
    pub(crate) fn bring_initial(&mut self, epoch: u64) {
        if self.initial.epoch != epoch {
            return;
        }
        for &(slot, value) in &self.initial.calls {
            if let Some(k) = self.calls.get_mut(slot) {
                (k.epoch, k.value) = (epoch, value);
            }
        }
        for &(slot, count) in &self.initial.counts {
            if let Some(k) = self.counts.get_mut(slot) {
                *k = count;
            }
        }
    }

    /// Keeps the call values and counts of epoch `epoch` (the game's
    /// initial position, once its moves were generated) for
    /// [`Memo::bring_initial`], once per epoch.
    #[inline(never)]
    pub(crate) fn keep_initial(&mut self, epoch: u64) {
        if self.initial.epoch == epoch {
            return;
        }
        self.initial.epoch = epoch;
        self.initial.calls.clear();
        self.initial.calls.extend(
            self.calls
                .iter()
                .enumerate()
                .filter(|(_, k)| k.epoch == epoch)
                .map(|(i, k)| (i, k.value)),
        );
        self.initial.counts.clear();
        self.initial.counts.extend(
            self.counts
                .iter()
                .enumerate()
                .filter(|(_, k)| k.epoch() == epoch)
                .map(|(i, k)| (i, *k)),
        );
    }

    #[cold]
    #[inline(never)]
    fn new_call_slot(&mut self, slot: usize) {
        self.calls.resize(slot + 1, KeptCall::default());
    }

    /// Stops memoizing `f` in this scratch.
    pub fn turn_off(&mut self, f: FuncId) {
        self.tables[f as usize].turn_off();
    }

    /// Whether calls of `f` are not memoized now.
    #[inline]
    pub fn is_off(&self, f: FuncId) -> bool {
        self.bypass != 0 || self.tables[f as usize].off
    }

    /// Whether these are the tables of game `id` with `n` functions and
    /// calls of `f` are not memoized now: then [`Memo::for_game`] would
    /// change nothing and [`Memo::is_off`] is true. `false` when the tables
    /// are another game's.
    #[inline(always)]
    pub fn runs_plainly(&self, id: u64, n: usize, f: FuncId) -> bool {
        self.game == id
            && self.tables.len() == n
            && (self.bypass != 0 || self.tables[f as usize].off)
    }

    /// Records a read when a memoized evaluation is under way.
    #[inline(always)]
    pub fn note(&mut self, r: Read) {
        if self.depth != 0 {
            self.record(r);
        }
    }

    #[inline(never)]
    fn record(&mut self, r: Read) {
        self.buf.push(r);
    }

    /// A valid entry for the call of `f` (a function or a loop body, a
    /// unit) with parameter values `key` in `st`: writes its variables into
    /// `slots` and gives its value. An entry whose reads held in a state of
    /// `st`'s epoch is not checked again ([`Entry::valid_in`]: `Left` of
    /// `nim-orig` is looked up once per element of its row), nor one whose
    /// reads held in the epoch `st` derives from and read nothing changed
    /// since ([`unchanged_since`]: the end check after a move, a unit in the
    /// next position); any other is checked read by read.
    pub fn hit(
        &mut self,
        slots: &mut [Option<Value>],
        f: FuncId,
        key: &Key,
        n: usize,
        st: &State,
    ) -> Option<Value> {
        let t = &mut self.tables[f as usize];
        let i = t.find(key, n)?;
        // Judged on the calls that found an entry (a cold table misses anyway).
        t.tries += 1;
        let e = &mut t.entries[i].1;
        if e.valid_in != st.epoch {
            if !(unchanged_since(e, st) || e.reads.iter().all(|r| r.holds(st))) {
                if t.tries >= TRIAL && t.hits < t.tries / 2 {
                    t.turn_off();
                }
                return None;
            }
            e.valid_in = valid_mark(st.epoch);
        }
        t.hits = t.hits.saturating_add(1);
        for &(v, i) in &e.ints {
            match &mut slots[v as usize] {
                // The usual case: an Int over an Int, no drop.
                Some(Value::Int(old)) => *old = i,
                slot => *slot = Some(Value::Int(i)),
            }
        }
        for (v, x) in &e.others {
            slots[*v as usize] = Some(x.clone());
        }
        if self.depth != 0 {
            self.buf.extend_from_slice(&e.reads);
        }
        Some(e.result.clone())
    }

    /// The value of a valid entry for the call of `f` with parameter values
    /// `key` in `st` whose evaluation writes no variable (`MemoInfo::writes`
    /// empty), counted as [`Memo::hit`] counts it; `None`, with nothing
    /// counted, when there is no entry or it is stale (the closures then look
    /// it up again and count it, `compile::memo_call_reg`).
    pub fn valid_hit(&mut self, f: FuncId, key: &Key, n: usize, st: &State) -> Option<Value> {
        let t = &mut self.tables[f as usize];
        let i = t.find(key, n)?;
        let e = &mut t.entries[i].1;
        if e.valid_in != st.epoch {
            if !(unchanged_since(e, st) || e.reads.iter().all(|r| r.holds(st))) {
                return None;
            }
            e.valid_in = valid_mark(st.epoch);
        }
        t.tries += 1;
        t.hits = t.hits.saturating_add(1);
        if self.depth != 0 {
            self.buf.extend_from_slice(&e.reads);
        }
        Some(e.result.clone())
    }

    /// Stores the evaluation whose reads start at `start` in [`Memo::buf`]
    /// and which left the variables `info.writes` (those bound) in `slots`.
    /// `epoch` is the epoch of the state it read (a memoized evaluation
    /// changes nothing, so its reads hold there: [`Entry::valid_in`]).
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        f: FuncId,
        key: Key,
        info: &MemoInfo,
        start: usize,
        slots: &[Option<Value>],
        result: Value,
        epoch: u64,
    ) {
        let (n, vars) = (info.inputs.len(), &info.writes);
        let t = &mut self.tables[f as usize];
        if !t.off {
            let e = t.entry(key, n);
            e.reads.clear();
            e.reads.extend_from_slice(&self.buf[start..]);
            e.valid_in = valid_mark(epoch);
            e.mask = 0;
            e.ints.clear();
            e.others.clear();
            for &v in vars {
                match &slots[v as usize] {
                    Some(Value::Int(i)) => e.ints.push((v, *i)),
                    Some(x) => e.others.push((v, x.clone())),
                    None => {}
                }
            }
            e.result = result;
        }
        if self.depth == 0 {
            self.buf.clear();
        }
    }
}
