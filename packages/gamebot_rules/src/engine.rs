//! Move generation, validation and application (§7).

use crate::compile::{FromTargets, ThenTargets};
use crate::error::RuleError;
use crate::eval::{Ctx, EvalError, StateRef, Vars};
use crate::expr::{Builtin, Expr};
use crate::game::{EndTest, Filter, Game, Rule, SrcExpr};
use crate::model::{ElementId, LocationId};
use crate::pattern::Bindings;
use crate::state::{ElementAttrs, Outcome, State, StateError};
use crate::value::{Deferred, LazyMember, Str, Value};
use std::sync::Arc;

/// A move: an element goes from its location to an empty location, optionally
/// carrying a deferred followup (§7.1).
#[derive(Clone, Debug)]
pub struct Move {
    pub element: ElementId,
    pub from: LocationId,
    pub to: LocationId,
    /// The rule that generated it (index into [`Game::rules`]).
    pub rule: u16,
    /// Target-specific followup from a `toLocations` pair; replaces the rule's followup.
    pub followup: Option<Arc<Deferred>>,
}

impl PartialEq for Move {
    fn eq(&self, o: &Self) -> bool {
        self.element == o.element
            && self.from == o.from
            && self.to == o.to
            && self.rule == o.rule
            && match (&self.followup, &o.followup) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b) || (a.func == b.func && a.args == b.args),
                _ => false,
            }
    }
}

/// The legal moves of one position, as [`Game::legal_moves_of`] found them,
/// with what names that position: its epoch (`State::epoch`, the same
/// number only for the same contents; 0 names none) and the step budget
/// they were found with. [`Game::apply_legal`] applies one of them in a
/// state of that epoch without asking its rule's condition again: the
/// moves cannot be changed from outside, so the one applied is one that
/// was found legal there. Read as a slice of [`Move`]s.
#[derive(Clone, Debug, Default)]
pub struct LegalMoves {
    moves: Vec<Move>,
    pub(crate) epoch: u64,
    budget: u64,
    /// No move of the list carries a followup (its game's moves never do,
    /// `Game::moves_without_followups`): emptying it drops nothing.
    plain: bool,
}

impl LegalMoves {
    /// An empty list, naming no position.
    pub fn new() -> LegalMoves {
        LegalMoves::default()
    }

    /// Empties the list; it names no position.
    pub fn clear(&mut self) {
        self.moves.clear();
        self.epoch = 0;
    }
}

impl std::ops::Deref for LegalMoves {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves
    }
}

/// Reusable working memory for generation and application; one per thread.
pub struct Scratch {
    pub(crate) vars: Vars,
    pub(crate) targets: Vec<(LocationId, Option<Arc<Deferred>>)>,
    /// The targets of a [`Rule::share_call_targets`] rule for the elements
    /// whose first conjunct is true, once one such element was tried in the
    /// current position (`shared_valid`).
    pub(crate) shared: Vec<(LocationId, Option<Arc<Deferred>>)>,
    shared_valid: bool,
    /// The current element's targets are `shared` (its first conjunct is
    /// true and another element's targets were shared), not `targets`: the
    /// moves are made from `shared` without copying it.
    pub(crate) targets_shared: bool,
    /// The current element's hoisted first conjunct `A` is known true from
    /// its precheck in a condition writing only dead variables
    /// (`Game::legal_moves_into`): its targets need not run `A` again.
    pub(crate) known_a: bool,
    /// Indices into `to_matches` of the empty locations, computed in the
    /// current generation for the rules whose `Rule::to_key` is `empty_key`
    /// (`u32::MAX`: none yet): the state does not change during generation,
    /// so every element of those rules shares them.
    empty_to: Vec<u32>,
    empty_key: u32,
    /// The value of a [`crate::compile::ThenTargets::Regs`] code found in
    /// the current generation (the code's address, 0 for none, and the
    /// value): it reads no variable and the state does not change during
    /// generation, so every `from` location whose test was true shares it.
    split_then: (usize, i32),
    /// The next epoch this scratch gives a state and the end of its block
    /// (`compile::renew_epoch`; a scratch is not cloned, so no two hand
    /// out one epoch).
    pub(crate) epochs: (u64, u64),
}

/// What a position's move equivalence class is made of (§7.5): from (or its type
/// if irrelevant), to (likewise), element type, element state.
pub type EquivalenceKey = (u32, u32, u16, i32);

impl Scratch {
    /// Sets the evaluation budget: loop iterations plus user-function calls
    /// allowed in one operation (move generation, applying a move, the
    /// scorings, the end-of-game checks, an `[EVALUATION]`); default
    /// [`crate::eval::DEFAULT_STEP_BUDGET`]. An operation that needs more
    /// fails with a run-time error naming the expression it was in.
    pub fn set_step_budget(&mut self, steps: u64) {
        self.vars.set_budget(steps);
    }

    /// The evaluation budget per operation.
    pub fn step_budget(&self) -> u64 {
        self.vars.budget()
    }

    /// The budget steps the last operation took (for move generation, the
    /// whole of it; for applying a move, its last operation, the end
    /// checks). The compiled form takes at most the steps the reference
    /// evaluator takes for the same work, fewer where a kept value, a memo
    /// entry or a residual specialized at load replaces an evaluation
    /// (`tests/budgets.rs`).
    pub fn steps_taken(&self) -> u64 {
        self.vars.budget().saturating_sub(self.vars.steps_left())
    }

    /// Evaluates expressions with the tree-walking reference evaluator
    /// (`true`) instead of the compiled form the engine uses by default.
    /// Both give the same moves, states and errors, but for the evaluation
    /// budget: the compiled form may take fewer steps, so at a budget the
    /// reference evaluator runs out of, it may succeed or fail later
    /// ([`Scratch::steps_taken`]). This exists so tests can compare them.
    pub fn set_reference_evaluator(&mut self, on: bool) {
        self.vars.reference = on;
    }
}

/// The moves of rule `$r` (the `$ri`-th) for each of `$elements` (pairs
/// of an index into `Rule::elem_matches` and its entry, ascending), pushed
/// to `$out`: move generation's loop over a rule's elements, in
/// [`Game::legal_moves_into`] for every element and in
/// [`Game::picked_element_moves`] for the picked ones. A macro, so that
/// the loop over every element is the one inlined where it was: a shared
/// function (generic over the elements, inlined into both) made `nim`
/// +2.5 % CPU time, two inlined copies +6.2 % instructions. `$fresh` gives
/// the rule to each element's body: `|r| r` where the loop visits many
/// elements, `std::hint::black_box` where it visits few (the picked ones,
/// about 2.5 a call in `nim-orig`), so that the compiler does not load
/// some fifty of the rule's fields into stack slots before the loop, once
/// a call (154 instructions a call; `nim-orig` −2.1 % instructions,
/// −5.6 % CPU time).
macro_rules! element_moves {
    ($g:expr, $r:expr, $ri:expr, $st:expr, $sc:expr, $out:expr, $elements:expr, $fresh:expr) => {{
        let (g, r, ri, st): (&Game, &Rule, usize, &State) = ($g, $r, $ri, $st);
        let (sc, out): (&mut Scratch, &mut Vec<Move>) = ($sc, $out);
        let p = st.player();
        let mut have_targets = false;
        let needs_on = !sc.vars.reference;
        let mut elements = $elements;
        // The next element whose gate passes, in a loop of its own. An
        // element off the `from=` pattern is the usual case (pieces in
        // the supply, on the other side, taken); one whose location
        // `toLocations` specialized for it needs a location empty (or
        // occupied) that is not (`Rule::from_gate`) has no target
        // (`unbound_targets` finds the same): nothing to ask, bind or run.
        while let Some((ei, e, eb, from)) = elements.find_map(|(ei, (e, eb))| {
            let from = st.location_of(*e);
            let gate = r.from_gate[from as usize];
            (gate.is_from() && gate.passes(st, needs_on)).then_some((ei, e, eb, from))
        }) {
            let r: &Rule = $fresh(r);
            if let Filter::Literal(x) = r.state {
                if x != st.element_state(*e) {
                    continue;
                }
            }
            // A hoisted first conjunct `A` specialized for this element
            // or location that is one test of the position reading no
            // variable but the player's (`ConditionPart::precheck`):
            // false is false for every target, so the element has none
            // (what trying them finds), and nothing is bound or tried.
            // True is true for every target: in a condition that writes
            // only dead variables (`Rule::silent`) nothing after `A`
            // reads what it wrote, so `A` need not run again.
            let mut known_a = false;
            if r.left_precheck && !sc.vars.reference {
                let asked = match &r.flat_left {
                    Some(f) => f.ask(ei, from as usize, st, r.player, p, &sc.vars.memo.calls),
                    None => match r.left_special.get(ei, from as usize) {
                        Some(t) => ask_left(r, t, st, p, &sc.vars.memo.calls),
                        None => None,
                    },
                };
                match asked {
                    Some(false) => continue,
                    Some(true) => known_a = r.silent,
                    None => {}
                }
            }
            if !(have_targets && r.element_independent) {
                if g.moves_without_followups {
                    // No target of this game carries a followup: the
                    // list is emptied without visiting them, as
                    // `legal_moves_of` empties a list of moves
                    // (`tictactoe-orig` −1.2 % instructions a game).
                    std::mem::forget(sc.targets.drain(..));
                }
                sc.targets.clear();
                // Targets specialized for this location that read no
                // variable need no bindings.
                if !g.unbound_targets(r, from, st, sc)? {
                    // Unbinds what the evaluation may touch besides the
                    // pattern and filter variables bound next: the same
                    // as a full clear for everything it can read
                    // (`loader/independence.rs`, `mark_generation_clears`).
                    // Not when `A` is known and the targets come without
                    // evaluating anything (`Game::targets`: shared ones,
                    // or read in one pass): nothing reads the namespace,
                    // and the next evaluation clears and binds what it reads.
                    if !(known_a && read_free_targets(r, sc)) {
                        sc.vars.clear_only(&r.gen_clear);
                        bind(&mut sc.vars, eb);
                        if let Filter::Var(v) = r.state {
                            sc.vars.set_int(v, st.element_state(*e));
                        }
                        if let Filter::Var(v) = r.player {
                            sc.vars.set_int(v, p);
                        }
                        if let Some(fb) = &r.from_match[from as usize] {
                            bind(&mut sc.vars, fb);
                        }
                    }
                    sc.known_a = known_a;
                    g.targets(r, ei, from, st, sc)?;
                }
                have_targets = true;
            }
            if sc.targets_shared {
                moves_to(
                    out,
                    &sc.shared,
                    *e,
                    from,
                    ri as u16,
                    r.to_locations.is_none(),
                );
                // Set again by the next element whose targets are
                // shared (kept while they are reused for every element).
                sc.targets_shared = r.element_independent;
                continue;
            }
            if sc.targets.is_empty() {
                continue;
            }
            moves_to(
                out,
                &sc.targets,
                *e,
                from,
                ri as u16,
                r.to_locations.is_none(),
            );
        }
    }};
}

impl Game {
    /// The initial position (§6.2): a clone of the one built at load.
    pub fn initial_state(&self) -> State {
        self.initial.clone()
    }

    /// Makes `st` the initial position, as `*st = self.initial_state()`
    /// does, but in `st`'s own buffers: no allocation when `st` is a state
    /// of this game (for playouts that start many games, issue 18).
    pub fn initial_state_into(&self, st: &mut State) {
        st.clone_from(&self.initial);
    }

    /// Builds a state from its parts (element locations, attributes per
    /// element, player, outcome, scores), checking that it is a possible position.
    pub fn state_from_parts(
        &self,
        locations: Vec<LocationId>,
        attrs: Vec<ElementAttrs>,
        player: i32,
        outcome: Outcome,
        scores: Vec<i32>,
    ) -> Result<State, StateError> {
        let (ne, nl, np) = (
            self.elements.len(),
            self.locations.len(),
            self.players.len(),
        );
        let count = |what, got| StateError::Count {
            what,
            expected: ne,
            got,
        };
        if locations.len() != ne {
            return Err(count("element locations", locations.len()));
        }
        if attrs.len() != ne {
            return Err(count("element attributes", attrs.len()));
        }
        if scores.len() != np {
            return Err(StateError::Count {
                what: "scores",
                expected: np,
                got: scores.len(),
            });
        }
        if player < 1 || player as usize > np {
            return Err(StateError::Player {
                player,
                players: np,
            });
        }
        if outcome.winner().is_some_and(|w| w < 1 || w as usize > np) {
            return Err(StateError::Outcome {
                outcome,
                players: np,
            });
        }
        let mut seen = vec![false; nl];
        for (e, &l) in locations.iter().enumerate() {
            if l as usize >= nl {
                return Err(StateError::NoSuchLocation {
                    element: self.elements[e].name.clone(),
                    location: l,
                });
            }
            if std::mem::replace(&mut seen[l as usize], true) {
                return Err(StateError::TwoOnOne {
                    location: self.locations[l as usize].name.clone(),
                });
            }
        }
        let mut st = State::new(self.meta.clone(), locations, attrs, nl, scores);
        st.track = self.initial.track;
        st.set_player(player);
        st.set_outcome(outcome);
        Ok(st)
    }

    /// Fresh working memory for [`Game::legal_moves_into`] and [`Game::apply_with`].
    pub fn scratch(&self) -> Scratch {
        Scratch {
            vars: Vars::new(self.var_names.len()),
            targets: Vec::new(),
            shared: Vec::new(),
            shared_valid: false,
            targets_shared: false,
            known_a: false,
            empty_to: Vec::new(),
            empty_key: u32::MAX,
            split_then: (0, 0),
            epochs: (0, 0),
        }
    }

    /// All legal moves in file order of rules, elements and targets (§7.3).
    pub fn legal_moves(&self, st: &State) -> Result<Vec<Move>, RuleError> {
        let mut out = Vec::new();
        self.legal_moves_into(st, &mut self.scratch(), &mut out)?;
        Ok(out)
    }

    /// [`Game::legal_moves_into`] into a [`LegalMoves`], which then names
    /// the position `st` (when it has an epoch and the compiled evaluator
    /// runs) for [`Game::apply_legal`]. On error the list is empty and
    /// names no position.
    #[inline]
    pub fn legal_moves_of(
        &self,
        st: &State,
        sc: &mut Scratch,
        out: &mut LegalMoves,
    ) -> Result<(), RuleError> {
        out.epoch = 0;
        if out.plain {
            // Nothing to drop: the list is emptied without visiting its
            // moves (a forgotten drain leaves it empty or shorter, and
            // `legal_moves_into` clears what may be left; the moves it
            // leaks hold nothing). `tictactoe-orig` −3 % instructions a
            // game.
            std::mem::forget(out.moves.drain(..));
        }
        out.plain = self.moves_without_followups;
        if let Err(e) = self.legal_moves_into(st, sc, &mut out.moves) {
            out.moves.clear();
            return Err(e);
        }
        if !sc.vars.reference {
            out.epoch = st.epoch;
            out.budget = sc.step_budget();
        }
        Ok(())
    }

    /// Applies move `index` of `legal` ([`Game::apply_with`]). When `legal`
    /// names the position `st` is in (the same epoch, not 0), was found
    /// with no larger step budget than `sc` has and the compiled evaluator
    /// runs, the move's own rule is known to match it: its condition is not
    /// asked again where it writes only dead variables (`Rule::silent`), the
    /// game has no rule bonuses (which compare every matching rule), and a
    /// rule with `toLocations` has no condition (generation does not ask
    /// it, §7.3) and the move's target matches its `to=` (a set may give
    /// another).
    /// Rules before it are asked as `apply_with` asks them, so the rule
    /// chosen, the state after and any error are the same.
    #[inline]
    pub fn apply_legal(
        &self,
        st: &mut State,
        legal: &LegalMoves,
        index: usize,
        sc: &mut Scratch,
    ) -> Result<(), RuleError> {
        let Some(mv) = legal.moves.get(index) else {
            return Err(RuleError::IllegalMove {
                text: format!("move {index}"),
                reason: format!("the list has {} moves", legal.moves.len()),
            });
        };
        // (Without a known rule, the code `apply_with` runs.)
        let known = legal.epoch != 0
            && legal.epoch == st.epoch
            && legal.budget <= sc.step_budget()
            && !sc.vars.reference
            && self
                .rules
                .get(mv.rule as usize)
                .is_some_and(|r| r.known_binds.is_some());
        if known {
            self.apply_move::<true>(st, mv, sc)
        } else {
            self.apply_move::<false>(st, mv, sc)
        }
    }

    #[allow(clippy::boxed_local)] // the evaluator's errors arrive boxed
    pub(crate) fn eval_error(
        &self,
        se: &SrcExpr,
        context: String,
        error: Box<EvalError>,
    ) -> RuleError {
        RuleError::Eval {
            file: self.file.clone(),
            line: se.line,
            col: se.col,
            context,
            error: *error,
        }
    }

    /// Like [`Game::legal_moves`], reusing buffers. `out` is cleared first.
    pub fn legal_moves_into(
        &self,
        st: &State,
        sc: &mut Scratch,
        out: &mut Vec<Move>,
    ) -> Result<(), RuleError> {
        out.clear();
        if st.is_over() {
            return Ok(());
        }
        sc.vars.start_operation();
        // (What an earlier generation left, perhaps another game's, dropped
        // as it is: below, targets are emptied in place.)
        sc.targets.clear();
        sc.empty_key = u32::MAX;
        sc.split_then.0 = 0;
        // The game's initial position: what was kept there in an earlier
        // game (`Memo::bring_initial`).
        let initial = st.epoch != 0 && st.epoch == self.initial.epoch && !sc.vars.reference;
        if initial {
            sc.vars.memo.bring_initial(st.epoch);
        }
        let p = st.player();
        for (ri, r) in self.rules.iter().enumerate() {
            if let Filter::Literal(x) = r.player {
                if x != p {
                    continue;
                }
            }
            if let Some(t) = r.fixed.as_ref().filter(|_| !sc.vars.reference) {
                fixed_moves(r, t, ri as u16, st, out);
                continue;
            }
            sc.shared_valid = false;
            sc.targets_shared = false;
            // Only the elements the kept calls' values pick, when they
            // are kept (`Rule::call_index`): every other one's flat test
            // is false, so it would be skipped before binding anything.
            let picked = match &r.call_index {
                Some(x) if r.left_precheck && !sc.vars.reference => {
                    x.pick(st, &sc.vars.memo.calls, &r.elem_index)
                }
                _ => u64::MAX,
            };
            if picked == u64::MAX {
                element_moves!(
                    self,
                    r,
                    ri,
                    st,
                    sc,
                    out,
                    r.elem_matches.iter().enumerate(),
                    |r| r
                );
            } else {
                self.picked_element_moves(r, ri, st, sc, out, picked)?;
            }
        }
        if initial {
            sc.vars.memo.keep_initial(st.epoch);
        }
        Ok(())
    }

    /// [`element_moves!`] for the elements whose bits `picked` has
    /// (`CallIndex::pick`), in order: the same moves in the same order as
    /// for all of them, the others being those whose flat first conjunct
    /// is false (`nim-orig`: 4 elements of 16 visited a position, −7.4 %
    /// instructions a game). Out of line, so that the loop over every
    /// element in [`Game::legal_moves_into`] stays as it was.
    #[inline(never)]
    fn picked_element_moves(
        &self,
        r: &Rule,
        ri: usize,
        st: &State,
        sc: &mut Scratch,
        out: &mut Vec<Move>,
        picked: u64,
    ) -> Result<(), RuleError> {
        let mut bits = picked;
        let picked = std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let ei = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                ei
            })
        })
        .filter_map(|ei| Some((ei, r.elem_matches.get(ei)?)));
        element_moves!(self, r, ri, st, sc, out, picked, std::hint::black_box);
        Ok(())
    }

    /// The targets of `toLocations` specialized for location `from` when
    /// the residual reads no variable (`FromTargets::Const`, or
    /// `FromTargets::Regs` closed): pushed as [`Game::targets`] pushes
    /// them, without binding anything first. `false` when there is no such
    /// residual (or the reference evaluator is on) or the registers gave up.
    #[inline(always)]
    fn unbound_targets(
        &self,
        r: &Rule,
        from: LocationId,
        st: &State,
        sc: &mut Scratch,
    ) -> Result<bool, RuleError> {
        let Some(tl) = &r.to_locations else {
            return Ok(false);
        };
        let l = match r.to_special.get(from as usize) {
            _ if sc.vars.reference => return Ok(false),
            Some(FromTargets::Const(l)) => *l,
            Some(FromTargets::Regs {
                code,
                closed: true,
                needs,
                split,
            }) => {
                // A location the residual needs empty (or occupied) is not:
                // no target, nothing to run. (Asked already where the rule
                // asks it first, `Rule::from_gate`.)
                if needs.is_some_and(|(l, empty)| !crate::compile::empty_holds(st, l, empty))
                    && r.from_gate[from as usize].need().is_none()
                {
                    return Ok(true);
                }
                let l = match split {
                    Some(x) => self.split_targets(x, code, st, sc),
                    None => Ctx::new(self, StateRef::Ro(st), &mut sc.vars).run_loc_set_regs(code),
                };
                match l {
                    Some(l) => l,
                    None => return Ok(false),
                }
            }
            _ => return Ok(false),
        };
        if l != crate::pure::NO_SET {
            let loc = l as LocationId;
            if st.content(loc).is_some() {
                return Err(self.eval_error(
                    tl,
                    format!("rule `{}` toLocations", r.name),
                    self.occupied_target(loc),
                ));
            }
            sc.targets.push((loc, None));
        }
        Ok(true)
    }

    /// The value of a closed residual `IF(c, s, {})` taken apart (`x`,
    /// [`crate::compile::SplitTargets`]; `None`: the registers gave up):
    /// `{}` when `c`'s tests tell it is false, `s`'s value when true, else
    /// the residual's `code` run. The value of `s` over registers is found
    /// once a generation in a state with an epoch (what it may read does
    /// not change during generation; the steps it takes are not charged
    /// again, as a kept call's are not), and run every time in any other.
    #[inline(always)]
    fn split_targets(
        &self,
        x: &crate::compile::SplitTargets,
        code: &crate::pure::PInt,
        st: &State,
        sc: &mut Scratch,
    ) -> Option<i32> {
        let s = match (x.ask(st, &sc.vars.memo.calls), &x.then) {
            (Some(false), _) => return Some(crate::pure::NO_SET),
            (Some(true), ThenTargets::Const(l)) => return Some(*l),
            (Some(true), ThenTargets::Regs(s)) => s,
            (None, _) => {
                return Ctx::new(self, StateRef::Ro(st), &mut sc.vars).run_loc_set_regs(code)
            }
        };
        let key = Arc::as_ptr(s) as usize;
        if sc.split_then.0 == key {
            return Some(sc.split_then.1);
        }
        let l = Ctx::new(self, StateRef::Ro(st), &mut sc.vars).run_loc_set_regs(s)?;
        if st.epoch != 0 && sc.vars.memo.depth == 0 {
            sc.split_then = (key, l);
        }
        Some(l)
    }

    /// (Inlined where [`element_moves!`] is expanded: with two callers it
    /// was no longer inlined, `tictactoe-orig` +2.6 %.)
    #[inline(always)]
    fn targets(
        &self,
        r: &Rule,
        elem: usize,
        from: LocationId,
        st: &State,
        sc: &mut Scratch,
    ) -> Result<(), RuleError> {
        if let Some(tl) = &r.to_locations {
            let ctx_err = |e: Box<EvalError>| {
                self.eval_error(tl, format!("rule `{}` toLocations", r.name), e)
            };
            let mut ctx = Ctx::new(self, StateRef::Ro(st), &mut sc.vars);
            // Specialized for this `from` location (`specialize.rs`), or a
            // set of at most one location over registers: its member
            // checked and pushed as `push_target` does, without the set.
            // (A residual that reads no variable was tried before the
            // bindings, `unbound_targets`.)
            let special = match r.to_special.get(from as usize) {
                _ if ctx.vars.reference => None,
                Some(FromTargets::Regs {
                    code,
                    closed: false,
                    ..
                }) => ctx.run_loc_set_regs(code),
                _ => None,
            };
            if let Some(l) = special.or_else(|| ctx.run_loc_set(tl)) {
                if l != crate::pure::NO_SET {
                    let loc = l as LocationId;
                    if st.content(loc).is_some() {
                        return Err(ctx_err(self.occupied_target(loc)));
                    }
                    sc.targets.push((loc, None));
                }
                return Ok(());
            }
            let v = ctx.run(tl).map_err(ctx_err)?;
            // The members are read in place (no copy of the set): a lazy set
            // is checked for deferred calls first, as a whole, so its errors
            // come in the same order as before.
            match &v {
                Value::Set(items) => {
                    for m in items.iter() {
                        self.push_target(m, st, &mut sc.targets, &ctx_err)?;
                    }
                }
                Value::Lazy(items) => {
                    if items.iter().any(|m| matches!(m, LazyMember::Deferred(_))) {
                        return Err(ctx_err(EvalError::new(
                            "toLocations returned a lazy set directly; return a Set of targets and [target, Followup(...)] pairs",
                        )));
                    }
                    for m in items.iter() {
                        if let LazyMember::Value(m) = m {
                            self.push_target(m, st, &mut sc.targets, &ctx_err)?;
                        }
                    }
                }
                other => {
                    return Err(ctx_err(EvalError::new(format!(
                        "toLocations must give a Set, got {}",
                        other.kind()
                    ))));
                }
            }
            return Ok(());
        }
        if r.hoist_first_conjunct && sc.shared_valid {
            if sc.known_a {
                sc.targets_shared = true;
                return Ok(());
            }
            // With no empty target nothing is evaluated (§7.3: the
            // condition is asked per empty target), so `A` is not either:
            // its budget steps and errors would be the compiled form's own.
            empty_targets(r, st, sc);
            if sc.empty_to.is_empty() {
                return Ok(());
            }
            return crate::compile::shared_targets(self, r, elem, from, st, sc);
        }
        // The first conjunct's value when it is the same for every target
        // (`known_a`: true, from its precheck).
        let mut first: Option<bool> = sc.known_a.then_some(true);
        // One target `l` with the bindings `tb` of `to=` (the loop body of
        // both loops below).
        macro_rules! try_target {
            ($i:expr, $l:expr, $tb:expr) => {{
                let (i, l, tb): (usize, &LocationId, &Bindings) = ($i, $l, $tb);
                if r.condition.is_none() {
                    // Nothing reads the target's variables: every empty target.
                    // (The namespace is cleared before anything evaluates in it
                    // again, so leaving them unbound changes nothing.)
                    sc.targets.push((*l, None));
                    continue;
                }
                // Once the first conjunct is known true, `B` specialized
                // for this target reads no variable (`specialize.rs`,
                // `right_side`): it runs without the target's bindings.
                let known = match first {
                    Some(true) if !(r.hoist_call && sc.shared_valid) => {
                        match r.right_special.get(i) {
                            Some(&crate::compile::ConditionPart::Const(b))
                                if !sc.vars.reference =>
                            {
                                Some(b)
                            }
                            // An `EMPTY` test (`nim-orig`'s `Slot`) in place.
                            Some(&crate::compile::ConditionPart::Empty { l, empty })
                                if !sc.vars.reference =>
                            {
                                Some(crate::compile::empty_holds(st, l, empty))
                            }
                            // A test of the position read in place, without
                            // an evaluation context (`ConditionPart::precheck`).
                            Some(t) if !sc.vars.reference => t
                                .precheck(st, r.player, st.player(), &sc.vars.memo.calls)
                                .or_else(|| {
                                    Ctx::new(self, StateRef::Ro(st), &mut sc.vars).run_check(t)
                                }),
                            Some(t) => Ctx::new(self, StateRef::Ro(st), &mut sc.vars).run_check(t),
                            None => None,
                        }
                    }
                    _ => None,
                };
                if let Some(b) = known {
                    if b {
                        sc.targets.push((*l, None));
                    }
                    continue;
                }
                bind(&mut sc.vars, tb);
                let ok = match &r.condition {
                    None => true,
                    Some(c) if r.hoist_first_conjunct => {
                        let cond_err =
                            |e| self.eval_error(c, format!("rule `{}` condition", r.name), e);
                        let mut ctx = Ctx::new(self, StateRef::Ro(st), &mut sc.vars);
                        let a = match first {
                            Some(a) => a,
                            None => {
                                // `A` specialized for this element or
                                // location (`specialize.rs`), or as written.
                                let left = r.left_special.get(elem, from as usize);
                                let a = match left.and_then(|t| ctx.run_check(t)) {
                                    Some(a) => a,
                                    None => ctx.run_and_side(c, true).map_err(cond_err)?,
                                };
                                first = Some(a);
                                a
                            }
                        };
                        if !a {
                            // False for every target of this element.
                            break;
                        }
                        // `B` specialized for this target, or as written.
                        match r.right_special.get(i).and_then(|t| ctx.run_check(t)) {
                            Some(b) => b,
                            None => ctx.run_and_side(c, false).map_err(cond_err)?,
                        }
                    }
                    Some(
                        c @ SrcExpr {
                            expr: Expr::Call(..),
                            ..
                        },
                    ) if r.hoist_call => {
                        if first.is_none() {
                            // `A` specialized for this element or location.
                            first = r.left_special.get(elem, from as usize).and_then(|t| {
                                Ctx::new(self, StateRef::Ro(st), &mut sc.vars).run_check(t)
                            });
                        }
                        if first == Some(false) {
                            // The call's first conjunct is false for every target of this element.
                            break;
                        }
                        if first == Some(true) && sc.shared_valid {
                            // Its first conjunct is true: the targets are those of
                            // the first such element (`Rule::share_call_targets`).
                            sc.targets_shared = true;
                            return Ok(());
                        }
                        let mut ctx = Ctx::new(self, StateRef::Ro(st), &mut sc.vars);
                        // Its first conjunct is true: `B` specialized for
                        // this target, or the call as written.
                        let special = match first {
                            Some(true) => r.right_special.get(i).and_then(|t| ctx.run_check(t)),
                            _ => None,
                        };
                        match special {
                            Some(b) => b,
                            None => {
                                let v = ctx.run_call_split(c).map_err(|e| {
                                    self.eval_error(c, format!("rule `{}` condition", r.name), e)
                                })?;
                                first = ctx.first_conjunct;
                                matches!(v, Value::Bool(true))
                            }
                        }
                    }
                    Some(c) => Ctx::new(self, StateRef::Ro(st), &mut sc.vars)
                        .run_cond(c)
                        .map_err(|e| {
                            self.eval_error(c, format!("rule `{}` condition", r.name), e)
                        })?,
                };
                if ok {
                    sc.targets.push((*l, None));
                }
            }};
        }
        if first == Some(true)
            && r.hoist_call
            && sc.shared_valid
            && !r.hoist_first_conjunct
            && matches!(
                r.condition,
                Some(SrcExpr {
                    expr: Expr::Call(..),
                    ..
                })
            )
        {
            // A called condition whose first conjunct is known true, once
            // another element's targets were shared: the first empty
            // target's `try_target!` would share them without reading
            // anything (and with no empty target, the shared ones are
            // none too).
            sc.targets_shared = true;
            return Ok(());
        }
        let simple = r
            .simple_right
            .as_ref()
            .filter(|_| first == Some(true) && !sc.vars.reference);
        if let Some(list) = simple.filter(|_| !(r.hoist_call && sc.shared_valid)) {
            // `A` is true and every target's `B` a test of the position
            // (`Rule::simple_right`): what the loops below find, read in
            // one pass.
            simple_targets(list, st, &mut sc.targets);
        } else if let Some(g) = r.gate.as_deref().filter(|_| !sc.vars.reference) {
            // The condition's first conjunct tabulated (`Rule::gate`): a
            // target where it is false is skipped, nothing bound or run
            // (the condition is false there; `X` writes nothing and takes
            // no budget step).
            empty_targets(r, st, sc);
            let row = &g[from as usize * r.to_matches.len()..][..r.to_matches.len()];
            for &i in &sc.empty_to {
                if !row[i as usize] {
                    continue;
                }
                let (l, tb) = &r.to_matches[i as usize];
                try_target!(i as usize, l, tb);
            }
        } else if r.element_independent || r.condition.is_none() {
            // Targets computed once per position: straight over the locations.
            for (i, (l, tb)) in r.to_matches.iter().enumerate() {
                if st.content(*l).is_some() {
                    continue;
                }
                try_target!(i, l, tb);
            }
        } else {
            // Every element of the rule tries the same empty locations: found once.
            empty_targets(r, st, sc);
            for &i in &sc.empty_to {
                let (l, tb) = &r.to_matches[i as usize];
                try_target!(i as usize, l, tb);
            }
        }
        if r.share_call_targets && first == Some(true) && !sc.shared_valid {
            // The targets become the shared ones, not copied: this
            // element's moves are made from them as the next ones' are.
            // (What `targets` holds now, the shared ones of an earlier
            // rule or position, is emptied before it is filled again.)
            std::mem::swap(&mut sc.shared, &mut sc.targets);
            sc.shared_valid = true;
            sc.targets_shared = true;
        }
        Ok(())
    }

    /// One member of a `toLocations` set: a location name or a
    /// `[target, followup]` pair, appended to `targets` when it is valid.
    fn push_target(
        &self,
        m: &Value,
        st: &State,
        targets: &mut Vec<(LocationId, Option<Arc<Deferred>>)>,
        ctx_err: &dyn Fn(Box<EvalError>) -> RuleError,
    ) -> Result<(), RuleError> {
        let (target, followup) = match m {
            Value::Str(s) => (s, None),
            Value::Lazy(pair) if pair.len() >= 2 => {
                let t = match &pair[0] {
                    LazyMember::Value(Value::Str(s)) => s,
                    _ => return Err(ctx_err(EvalError::new("the first member of a [target, followup] pair must be a location name"))),
                };
                let f = match &pair[1] {
                    LazyMember::Deferred(d) => d.clone(),
                    _ => {
                        return Err(ctx_err(EvalError::new(
                            "the second member of a [target, followup] pair must be a user-function call (built-ins run immediately)",
                        )))
                    }
                };
                (t, Some(f))
            }
            Value::Set(_) => {
                return Err(ctx_err(EvalError::new(
                    "a {target, followup} pair runs its followup while moves are generated; write [target, Followup(...)]",
                )))
            }
            other => {
                return Err(ctx_err(EvalError::new(format!(
                    "toLocations members must be location names or [target, followup] pairs, got {}",
                    other.kind()
                ))))
            }
        };
        let loc = match target {
            Str::Sym(s) => self.sym_location(*s),
            Str::Dyn(_) => None,
        };
        let Some(loc) = loc else {
            let text = match target {
                Str::Sym(s) => self.syms[*s as usize].to_string(),
                Str::Dyn(d) => d.to_string(),
            };
            return Err(ctx_err(EvalError::new(format!(
                "toLocations gave `{text}`, which is not a location"
            ))));
        };
        if st.content(loc).is_some() {
            return Err(ctx_err(self.occupied_target(loc)));
        }
        targets.push((loc, followup));
        Ok(())
    }

    /// The error of a `toLocations` member that is occupied.
    fn occupied_target(&self, loc: LocationId) -> Box<EvalError> {
        EvalError::new(format!(
            "toLocations gave `{}`, which is occupied (targets must be empty)",
            self.locations[loc as usize].name
        ))
    }

    /// §7.6 step 3: does rule `r` match the move? Binds its variables on the way.
    fn rule_matches(
        &self,
        r: &Rule,
        st: &State,
        mv: &Move,
        vars: &mut Vars,
    ) -> Result<bool, RuleError> {
        let i = r.elem_index[mv.element as usize];
        if i == u32::MAX {
            return Ok(false);
        }
        bind(vars, &r.elem_matches[i as usize].1);
        let es = st.element_state(mv.element);
        match r.state {
            Filter::Literal(x) if x != es => return Ok(false),
            Filter::Var(v) => vars.set_int(v, es),
            _ => {}
        }
        match r.player {
            Filter::Literal(x) if x != st.player() => return Ok(false),
            Filter::Var(v) => vars.set_int(v, st.player()),
            _ => {}
        }
        let Some(fb) = &r.from_match[mv.from as usize] else {
            return Ok(false);
        };
        bind(vars, fb);
        let ti = r.to_index[mv.to as usize];
        if ti == u32::MAX {
            return Ok(false);
        }
        bind(vars, &r.to_matches[ti as usize].1);
        Ok(match &r.condition {
            None => true,
            Some(_) if r.fixed.as_ref().is_some_and(|t| t.silent) && !vars.reference => {
                r.fixed.as_ref().is_some_and(|t| t.get(mv.from, ti))
            }
            Some(c) => {
                let mut ctx = Ctx::new(self, StateRef::Ro(st), vars);
                // `A AND B` from the parts specialized for this element or
                // location and this target (a condition that writes only
                // dead variables), or as written.
                let parts = if r.silent {
                    match r.left_special.get(i as usize, mv.from as usize) {
                        // Asked first as generation asks it (the kept calls
                        // it reads are those generation found here).
                        Some(a) => {
                            // (Not through `Option::then`/`or_else`: their
                            // closures were calls of their own.)
                            let asked = if r.left_precheck {
                                ask_left(r, a, st, st.player(), &ctx.vars.memo.calls)
                            } else {
                                None
                            };
                            let left = match asked {
                                Some(v) => Some(v),
                                None => ctx.run_check(a),
                            };
                            match left {
                                Some(false) => Some(false),
                                // `B` read in place when it is a constant or an
                                // `EMPTY` test (`Rule::simple_right`).
                                Some(true) => match &r.simple_right {
                                    // (Not through `Option::map`: its
                                    // closure was a call of its own.)
                                    Some(s) if (ti as usize) < s.list.len() => {
                                        Some(s.list[ti as usize].1.holds(st))
                                    }
                                    Some(_) => None,
                                    None => r
                                        .right_special
                                        .get(ti as usize)
                                        .and_then(|b| ctx.run_check(b)),
                                },
                                None => None,
                            }
                        }
                        None => None,
                    }
                } else {
                    None
                };
                match parts {
                    Some(v) => v,
                    None => ctx.run_cond(c).map_err(|e| {
                        self.eval_error(c, format!("rule `{}` condition", r.name), e)
                    })?,
                }
            }
        })
    }

    /// Applies a move (§7.7). The move should come from [`Game::legal_moves`]
    /// (or [`Game::find_move`]); the element must be on `from` and `to` empty.
    /// On error the state may be partly changed: apply to a clone when that matters.
    pub fn apply(&self, st: &mut State, mv: &Move) -> Result<(), RuleError> {
        self.apply_with(st, mv, &mut self.scratch())
    }

    /// [`Game::apply`] reusing working memory.
    pub fn apply_with(&self, st: &mut State, mv: &Move, sc: &mut Scratch) -> Result<(), RuleError> {
        self.apply_move::<false>(st, mv, sc)
    }

    /// [`Game::apply_with`]; `KNOWN`: the move was found legal in `st` and
    /// its own rule's condition need not be asked ([`Game::apply_legal`]).
    fn apply_move<const KNOWN: bool>(
        &self,
        st: &mut State,
        mv: &Move,
        sc: &mut Scratch,
    ) -> Result<(), RuleError> {
        let illegal = |reason: String| RuleError::IllegalMove {
            text: self.move_text(mv),
            reason,
        };
        if mv.element as usize >= self.elements.len()
            || mv.from as usize >= self.locations.len()
            || mv.to as usize >= self.locations.len()
        {
            return Err(illegal("element or location out of range".into()));
        }
        if st.is_over() {
            return Err(illegal("the game is over".into()));
        }
        if st.location_of(mv.element) != mv.from {
            return Err(illegal(format!(
                "the element is on `{}`",
                self.locations[st.location_of(mv.element) as usize].name
            )));
        }
        if st.content(mv.to).is_some() {
            return Err(illegal("the target is occupied".into()));
        }
        let p = st.player();
        let vars = &mut sc.vars;
        vars.start_operation();
        // 1. Choose the rule.
        let mut chosen: Option<usize> = None;
        // A rule whose `element=` does not match the moved element is skipped
        // without clearing the namespace (it would bind nothing, and the next
        // rule tried clears first).
        let elem = mv.element as usize;
        if !self.has_bonuses {
            for (ri, r) in self.rules.iter().enumerate() {
                if r.elem_index[elem] == u32::MAX {
                    continue;
                }
                vars.clear_only(&r.apply_clear);
                // The move's own rule, found legal here: it matches; what
                // is read after its condition is bound.
                if KNOWN && ri == mv.rule as usize && bind_known(r, st, mv, vars) {
                    chosen = Some(ri);
                    break;
                }
                if self.rule_matches(r, st, mv, vars)? {
                    chosen = Some(ri);
                    break;
                }
            }
        } else {
            let mut best: Option<(usize, Option<i32>)> = None;
            for (ri, r) in self.rules.iter().enumerate() {
                if r.elem_index[elem] == u32::MAX {
                    continue;
                }
                vars.clear_only(&r.apply_clear);
                if !self.rule_matches(r, st, mv, vars)? {
                    continue;
                }
                let mut bonus: Option<i32> = None;
                for (a, w) in &r.bonuses {
                    let who =
                        self.eval_int(a, st, vars, &format!("rule `{}` awardPlayer", r.name))?;
                    if who == p {
                        let amount =
                            self.eval_int(w, st, vars, &format!("rule `{}` withScore", r.name))?;
                        bonus = Some(bonus.map_or(amount, |b: i32| b.max(amount)));
                    }
                }
                let better = match (best, bonus) {
                    (None, _) => true,
                    (Some((_, None)), Some(_)) => true,
                    (Some((_, Some(b))), Some(x)) => x > b,
                    _ => false,
                };
                if better {
                    best = Some((ri, bonus));
                }
            }
            chosen = best.map(|b| b.0);
            if let Some(ri) = chosen {
                // Re-match so the followup sees the chosen rule's own bindings (§11 defect 19).
                vars.clear();
                self.rule_matches(&self.rules[ri], st, mv, vars)?;
            }
        }
        let ri = match chosen {
            Some(ri) => ri,
            None => {
                // A generated move whose target its rule's `to=` does not describe: use the generating rule.
                let r = self
                    .rules
                    .get(mv.rule as usize)
                    .ok_or_else(|| illegal("no rule allows it".into()))?;
                if mv.followup.is_none() && r.to_locations.is_none() {
                    return Err(illegal("no rule allows it".into()));
                }
                vars.clear();
                let i = r.elem_index[mv.element as usize];
                if i == u32::MAX {
                    return Err(illegal("no rule allows it".into()));
                }
                bind(vars, &r.elem_matches[i as usize].1);
                if let Some(fb) = &r.from_match[mv.from as usize] {
                    bind(vars, fb);
                }
                mv.rule as usize
            }
        };
        let r = &self.rules[ri];
        // 2. Rule bonuses, in the state before the move.
        for (a, w) in &r.bonuses {
            let who = self.eval_int(a, st, vars, &format!("rule `{}` awardPlayer", r.name))?;
            let amount = self.eval_int(w, st, vars, &format!("rule `{}` withScore", r.name))?;
            let n = self.players.len() as i32;
            if who < 1 || who > n {
                return Err(self.eval_error(
                    a,
                    format!("rule `{}` awardPlayer", r.name),
                    EvalError::new(format!("player {who} does not exist (1..{n})")),
                ));
            }
            self.add_score(st, who, amount, w, || {
                format!("rule `{}` withScore", r.name)
            })?;
        }
        // 3. Relocate.
        st.relocate(mv.element, mv.to);
        // 4. Followup: the deferred one replaces the rule's.
        if let Some(d) = &mv.followup {
            let mut ctx = Ctx::new(self, StateRef::Rw(st), vars);
            ctx.run_call_values(d.func, &d.args).map_err(|e| {
                let f = self.funcs[d.func as usize].as_ref();
                RuleError::Eval {
                    file: self.file.clone(),
                    line: f.map(|f| f.line).unwrap_or(r.line),
                    col: 1,
                    context: format!(
                        "deferred followup {} of rule `{}`",
                        self.func_names[d.func as usize], r.name
                    ),
                    error: *e,
                }
            })?;
        } else if let Some(f) = &r.followup {
            Ctx::new(self, StateRef::Rw(st), vars)
                .run_effect(f)
                .map_err(|e| self.eval_error(f, format!("rule `{}` followup", r.name), e))?;
        }
        // 5. Scorings: an operation of their own for the evaluation budget.
        if self.renews_epochs && !self.scorings.is_empty() {
            crate::compile::renew_epoch(&mut sc.epochs, &mut vars.memo.history, st);
        }
        vars.start_operation();
        let n = self.players.len() as i32;
        for s in &self.scorings {
            let fire = Ctx::new(self, StateRef::Rw(st), vars)
                .run_cond(&s.situation)
                .map_err(|e| self.eval_error(&s.situation, "scoring situation".into(), e))?;
            if !fire {
                continue;
            }
            for (pe, se) in s.players.iter().zip(&s.scores) {
                let who = self.eval_int_rw(pe, st, vars, "scoring player")?;
                let amount = self.eval_int_rw(se, st, vars, "scoring score")?;
                if who < 1 || who > n {
                    return Err(self.eval_error(
                        pe,
                        "scoring player".into(),
                        EvalError::new(format!("player {who} does not exist (1..{n})")),
                    ));
                }
                self.add_score(st, who, amount, se, || "scoring score".into())?;
            }
        }
        // 6. End of game: the first true situation decides (another operation).
        if self.renews_epochs {
            crate::compile::renew_epoch(&mut sc.epochs, &mut vars.memo.history, st);
        }
        vars.start_operation();
        for end in &self.ends {
            // A kept call compared with a literal, from its slot when it
            // holds the call's value here, else from the call's body alone
            // (`pure::KeptTest`); one test of the position, read in place;
            // the residual over registers.
            let kept = match &end.fast {
                _ if vars.reference => None,
                Some(EndTest::Kept(t)) => t.ask(&mut Ctx::new(self, StateRef::Rw(st), vars)),
                Some(EndTest::Position(t)) => t.precheck(st, Filter::Any, p, &[]),
                None => None,
            };
            let kept = match (kept, &end.regs) {
                (None, Some(t)) if !vars.reference => {
                    Ctx::new(self, StateRef::Rw(st), vars).run_bool_regs(&t.0)
                }
                (kept, _) => kept,
            };
            let fire = match kept {
                Some(fire) => fire,
                None => Ctx::new(self, StateRef::Rw(st), vars)
                    .run_cond(&end.situation)
                    .map_err(|e| {
                        self.eval_error(&end.situation, "end-of-game situation".into(), e)
                    })?,
            };
            if fire {
                let w = self.eval_int_rw(&end.winner, st, vars, "end-of-game winner")?;
                if w < -1 || w > n {
                    return Err(self.eval_error(
                        &end.winner,
                        "end-of-game winner".into(),
                        EvalError::new(format!(
                            "winner {w} is neither 0 (draw) nor a player 1..{n}"
                        )),
                    ));
                }
                if let Some(o) = Outcome::from_code(w).filter(|o| o.is_over()) {
                    st.set_outcome(o);
                    break;
                }
            }
        }
        Ok(())
    }

    /// Adds `amount` to player `who`'s score (a checked player number); a sum
    /// outside 32 bits is an error at the expression `se` that gave the amount.
    fn add_score(
        &self,
        st: &mut State,
        who: i32,
        amount: i32,
        se: &SrcExpr,
        context: impl FnOnce() -> String,
    ) -> Result<(), RuleError> {
        st.add_score(who as usize - 1, amount).map_err(|old| {
            self.eval_error(
                se,
                context(),
                crate::eval::overflow(format!("the score of player {who}, {old} + {amount},")),
            )
        })
    }

    fn eval_int(
        &self,
        se: &SrcExpr,
        st: &State,
        vars: &mut Vars,
        what: &str,
    ) -> Result<i32, RuleError> {
        self.eval_int_in(se, StateRef::Ro(st), vars, what)
    }

    fn eval_int_rw(
        &self,
        se: &SrcExpr,
        st: &mut State,
        vars: &mut Vars,
        what: &str,
    ) -> Result<i32, RuleError> {
        self.eval_int_in(se, StateRef::Rw(st), vars, what)
    }

    /// Evaluates an expression that must give an Int, naming `what` on error.
    fn eval_int_in(
        &self,
        se: &SrcExpr,
        st: StateRef<'_>,
        vars: &mut Vars,
        what: &str,
    ) -> Result<i32, RuleError> {
        match Ctx::new(self, st, vars)
            .run(se)
            .map_err(|e| self.eval_error(se, what.into(), e))?
        {
            Value::Int(i) => Ok(i),
            v => Err(self.eval_error(
                se,
                what.into(),
                EvalError::new(format!("must be an Int, got {}", v.kind())),
            )),
        }
    }

    /// Ends the game as a draw when the player to move has no legal move (§7.11).
    /// Returns whether the game is over.
    pub fn settle(&self, st: &mut State, legal: &[Move]) -> bool {
        if !st.is_over() && legal.is_empty() {
            st.set_outcome(Outcome::Draw);
        }
        st.is_over()
    }

    /// The move as `element:from->to`.
    pub fn move_text(&self, mv: &Move) -> String {
        let e = self
            .elements
            .get(mv.element as usize)
            .map(|e| e.name.as_str())
            .unwrap_or("?");
        let f = self
            .locations
            .get(mv.from as usize)
            .map(|l| l.name.as_str())
            .unwrap_or("?");
        let t = self
            .locations
            .get(mv.to as usize)
            .map(|l| l.name.as_str())
            .unwrap_or("?");
        format!("{e}:{f}->{t}")
    }

    /// Name of the rule that generated a move.
    pub fn rule_name(&self, mv: &Move) -> &str {
        self.rules
            .get(mv.rule as usize)
            .map(|r| r.name.as_str())
            .unwrap_or("?")
    }

    /// Finds a legal move by its text `element:from->to` (optionally `@rule`).
    /// The generated move is returned, so its deferred followup comes along (§7.6).
    pub fn find_move(&self, st: &State, text: &str) -> Result<Move, RuleError> {
        let bad = |reason: &str| RuleError::BadMove {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let (body, rule) = match text.rsplit_once('@') {
            Some((b, r)) => (b, Some(r)),
            None => (text, None),
        };
        let (e, rest) = body
            .split_once(':')
            .ok_or_else(|| bad("expected `element:from->to`"))?;
        let (f, t) = rest
            .split_once("->")
            .ok_or_else(|| bad("expected `element:from->to`"))?;
        let legal = self.legal_moves(st)?;
        let found = legal.iter().find(|m| {
            self.elements[m.element as usize].name == e
                && self.locations[m.from as usize].name == f
                && self.locations[m.to as usize].name == t
                && rule.is_none_or(|r| self.rules[m.rule as usize].name == r)
        });
        match found {
            Some(m) => Ok(m.clone()),
            None => {
                let mut alts: Vec<String> = legal.iter().map(|m| self.move_text(m)).collect();
                alts.sort();
                alts.dedup();
                let reason = if self.element_by_name(e).is_none() {
                    format!("there is no element `{e}`")
                } else if self.location_by_name(f).is_none() || self.location_by_name(t).is_none() {
                    format!(
                        "there is no location `{}`",
                        if self.location_by_name(f).is_none() {
                            f
                        } else {
                            t
                        }
                    )
                } else if st.is_over() {
                    "the game is over".to_string()
                } else if alts.is_empty() {
                    "there are no legal moves".to_string()
                } else {
                    format!("legal moves are: {}", alts.join(" "))
                };
                Err(RuleError::IllegalMove {
                    text: text.to_string(),
                    reason,
                })
            }
        }
    }

    /// The equivalence class of a move in a position (§7.5), using the element's current state.
    pub fn equivalence_key(&self, st: &State, mv: &Move) -> EquivalenceKey {
        let side = |l: LocationId| {
            if self.meta.relevant[l as usize] {
                l as u32
            } else {
                0x8000_0000 | self.locations[l as usize].location_type as u32
            }
        };
        (
            side(mv.from),
            side(mv.to),
            self.meta.elem_type[mv.element as usize],
            st.element_state(mv.element),
        )
    }

    /// One representative (the first) of each equivalence class, in generation order.
    pub fn distinct_moves(&self, st: &State, moves: &[Move]) -> Vec<Move> {
        let mut seen = rustc_hash::FxHashSet::default();
        moves
            .iter()
            .filter(|m| seen.insert(self.equivalence_key(st, m)))
            .cloned()
            .collect()
    }

    /// The game's own evaluation of a position for `player` from `[EVALUATION]`, if it has one.
    pub fn evaluate(
        &self,
        st: &State,
        player: i32,
        sc: &mut Scratch,
    ) -> Result<Option<i32>, RuleError> {
        let Some(ev) = self.evaluations.iter().find(|e| e.player == player) else {
            return Ok(None);
        };
        sc.vars.clear();
        sc.vars.start_operation();
        self.eval_int(
            &ev.value,
            st,
            &mut sc.vars,
            &format!("[EVALUATION] player {player}"),
        )
        .map(Some)
    }
}

/// The most entries of one rule's [`crate::game::FixedCondition`].
const MAX_FIXED: usize = 1 << 16;

impl Game {
    /// Fills [`Rule::fixed`] of every rule whose condition can be tabulated.
    ///
    /// A condition qualifies when nothing it can run reads or changes the
    /// state ([`reads_no_state`]: no `CONTENT`, `EMPTY`, `LOCATION`, `STATE`,
    /// `OWNER`, `ZINDEX`, `PLAYER`, `SCORE`, state-changing built-in or lazy
    /// set, following calls) and the rule has no `toLocations`. It is then
    /// evaluated once for every pair of a location matching `from=` and one
    /// matching `to=`, in a fresh namespace with only those two patterns'
    /// variables bound. If every pair gives a value, the table is kept:
    /// since an unbound variable is an error, no evaluation read anything
    /// but those variables and what it wrote itself, so in move generation,
    /// with the same two bindings, it gives the same value whatever else is
    /// bound. What the evaluation writes is never read in generation (the
    /// next evaluation of this condition writes before it reads, and the
    /// other rules' evaluations unbind what they may read first,
    /// `Rule::gen_clear`); applying a move still evaluates the condition,
    /// so a followup reads what it wrote. If any pair fails (an error, the
    /// budget), the rule keeps evaluating its condition. A looked-up entry
    /// takes none of the budget steps its evaluation took, as a memo entry
    /// that is used does.
    pub(crate) fn tabulate_fixed_conditions(&mut self) {
        let mut tables = Vec::with_capacity(self.rules.len());
        let mut sc = self.scratch();
        let mut gates = Vec::with_capacity(self.rules.len());
        for r in &self.rules {
            // A condition that may write a variable bound per element is
            // tabulated neither whole nor by its first conjunct.
            let bound = r
                .condition
                .as_ref()
                .is_some_and(|c| self.writes_bound(r, c));
            let fixed = if bound {
                None
            } else {
                self.tabulate(r, &mut sc)
            };
            gates.push(if bound || fixed.is_some() {
                None
            } else {
                self.tabulate_gate(r, &mut sc)
            });
            tables.push(fixed);
        }
        for ((r, t), g) in self.rules.iter_mut().zip(tables).zip(gates) {
            r.fixed = t;
            r.gate = g;
        }
        // Conditions whose parts `A` and `B` are specialized, and which
        // write only dead variables: applying a move may use the parts too.
        let silent: Vec<bool> = self
            .rules
            .iter()
            .map(|r| r.condition.as_ref().is_some_and(|c| self.silent(c)))
            .collect();
        for (r, s) in self.rules.iter_mut().zip(silent) {
            r.silent = s;
            // A move found legal skips the condition only where what it
            // writes is dead and no bonus compares the matching rules
            // (`Rule::known_binds`), and never a `toLocations` rule's:
            // generation does not ask it (§7.3), so finding the move says
            // nothing of it (its value chooses the rule, its error stops
            // the move). (A `toLocations` target outside `to=` is asked in
            // `bind_known`.)
            if !(s || r.condition.is_none())
                || self.has_bonuses
                || (r.to_locations.is_some() && r.condition.is_some())
            {
                r.known_binds = None;
            }
        }
    }

    /// Whether condition `c` of rule `r` may write, following calls, a
    /// variable bound once per element before its targets are tried
    /// ([`Rule::bound_before_targets`]). Then an evaluation at one target
    /// may read what the evaluation at an earlier target wrote there
    /// (§5.4: one namespace per rule and element): its value is not the
    /// one it has with only the patterns bound, so the condition is not
    /// tabulated ([`Game::tabulate_fixed_conditions`] asks this before
    /// [`Game::tabulate`] and [`Game::tabulate_gate`]).
    fn writes_bound(&self, r: &Rule, c: &crate::game::SrcExpr) -> bool {
        let mut writes = rustc_hash::FxHashSet::default();
        !writes_following_calls(&c.expr, &self.funcs, &mut writes)
            || !writes.is_disjoint(&r.bound_before_targets())
    }

    /// Whether everything a condition may write, following calls, is a
    /// dead variable (so what it leaves in the namespace nothing reads).
    fn silent(&self, c: &crate::game::SrcExpr) -> bool {
        let mut writes = rustc_hash::FxHashSet::default();
        writes_following_calls(&c.expr, &self.funcs, &mut writes)
            && writes
                .iter()
                .all(|&v| self.dead.get(v as usize).copied().unwrap_or(false))
    }

    /// [`Rule::gate`]: the values of `X` in a condition `X AND Y` when `X`
    /// reads no state, assigns nothing, loops over nothing and calls no
    /// function (so it takes no budget step and writes nothing), for a rule
    /// whose condition is neither tabulated whole nor hoisted; `None` when
    /// any pair gives no value with only the patterns' variables bound.
    fn tabulate_gate(&self, r: &Rule, sc: &mut Scratch) -> Option<Box<[bool]>> {
        let c = r.condition.as_ref()?;
        if r.to_locations.is_some() || r.hoist_first_conjunct || r.hoist_call {
            return None;
        }
        let Expr::Binary(crate::lexer::Op::And, x, _) = &c.expr else {
            return None;
        };
        let mut plain = true;
        x.walk(&mut |y| {
            plain &= !matches!(
                y,
                Expr::Assign(..) | Expr::Loop { .. } | Expr::Call(..) | Expr::Lazy(_)
            )
        });
        if !plain || !reads_no_state(x, &self.funcs) {
            return None;
        }
        let table = self.by_pairs(r, sc, |ctx| match ctx.eval(x).ok()? {
            Value::Bool(b) => Some(b),
            _ => None,
        })?;
        // A gate that never closes saves nothing.
        table.iter().any(|&b| !b).then(|| table.into())
    }

    /// `value` for every pair of a `from` location (row) and a `to_matches`
    /// index (column) of rule `r`, each evaluated in the initial state with
    /// only the two patterns' variables bound; `None` when a pair gives
    /// none or the table would be larger than [`MAX_FIXED`].
    fn by_pairs(
        &self,
        r: &Rule,
        sc: &mut Scratch,
        mut value: impl FnMut(&mut Ctx<'_>) -> Option<bool>,
    ) -> Option<Vec<bool>> {
        let width = r.to_matches.len();
        if width == 0 || r.from_match.len().checked_mul(width)? > MAX_FIXED {
            return None;
        }
        let mut table = vec![false; r.from_match.len() * width];
        for (from, fb) in r.from_match.iter().enumerate() {
            let Some(fb) = fb else { continue };
            for (i, (_, tb)) in r.to_matches.iter().enumerate() {
                sc.vars.clear();
                sc.vars.start_operation();
                bind(&mut sc.vars, fb);
                bind(&mut sc.vars, tb);
                let v = value(&mut Ctx::new(
                    self,
                    StateRef::Ro(&self.initial),
                    &mut sc.vars,
                ));
                table[from * width + i] = v?;
            }
        }
        sc.vars.clear();
        Some(table)
    }

    fn tabulate(&self, r: &Rule, sc: &mut Scratch) -> Option<crate::game::FixedCondition> {
        let c = r.condition.as_ref()?;
        if r.to_locations.is_some() || !reads_no_state(&c.expr, &self.funcs) {
            return None;
        }
        let table = self.by_pairs(r, sc, |ctx| ctx.run_cond(c).ok())?;
        let (width, nfrom) = (r.to_matches.len(), r.from_match.len());
        let mut starts = Vec::with_capacity(nfrom + 1);
        let mut list = Vec::new();
        for from in 0..nfrom {
            starts.push(list.len() as u32);
            let row = &table[from * width..(from + 1) * width];
            list.extend(
                r.to_matches
                    .iter()
                    .zip(row)
                    .filter(|(_, &ok)| ok)
                    .map(|((l, _), _)| *l),
            );
        }
        starts.push(list.len() as u32);
        // What the condition may write, following calls: all dead, so
        // applying a move need not evaluate it either.
        let silent = self.silent(c);
        Some(crate::game::FixedCondition {
            width,
            table: table.into(),
            starts: starts.into(),
            list: list.into(),
            silent,
        })
    }
}

/// The indexes into `r.to_matches` of its empty locations, in
/// `sc.empty_to`: found once per position for every element of the rule
/// and the rules with the same `to_key`.
#[inline(always)]
fn empty_targets(r: &Rule, st: &State, sc: &mut Scratch) {
    if sc.empty_key != r.to_key {
        sc.empty_to.clear();
        sc.empty_to.extend(
            r.to_matches
                .iter()
                .enumerate()
                .filter(|(_, (l, _))| st.content(*l).is_none())
                .map(|(i, _)| i as u32),
        );
        sc.empty_key = r.to_key;
    }
}

/// The moves by rule `r` (the `rule`-th), whose condition is tabulated
/// ([`Rule::fixed`]): for each of its elements, in the order and with the
/// filters of [`Game::legal_moves_into`], one to every empty target whose
/// entry is true, in `to_matches` order — the moves evaluating the
/// condition would give. Nothing is evaluated, so no variable need be bound.
#[inline(never)]
fn fixed_moves(
    r: &Rule,
    t: &crate::game::FixedCondition,
    rule: u16,
    st: &State,
    out: &mut Vec<Move>,
) {
    for (e, _) in &r.elem_matches {
        if let Filter::Literal(x) = r.state {
            if x != st.element_state(*e) {
                continue;
            }
        }
        let from = st.location_of(*e);
        if r.from_match[from as usize].is_none() {
            continue;
        }
        for &to in t.targets(from) {
            if st.content(to).is_none() {
                out.push(Move {
                    element: *e,
                    from,
                    to,
                    rule,
                    followup: None,
                });
            }
        }
    }
}

/// The defined functions `e` can call, following calls, each once, and
/// whether every function it can call is defined.
pub(crate) fn reachable<'g>(
    e: &Expr,
    funcs: &'g [Option<crate::game::Function>],
) -> (Vec<&'g crate::game::Function>, bool) {
    let mut seen = vec![false; funcs.len()];
    let mut found: Vec<&crate::game::Function> = Vec::new();
    let mut defined = true;
    let mut calls = Vec::new();
    let look = |x: &Expr, calls: &mut Vec<usize>| {
        x.walk(&mut |y| {
            if let Expr::Call(f, _) = y {
                calls.push(*f as usize);
            }
        })
    };
    look(e, &mut calls);
    while let Some(f) = calls.pop() {
        match funcs.get(f) {
            Some(Some(def)) => {
                if !seen[f] {
                    seen[f] = true;
                    found.push(def);
                    def.body.iter().for_each(|l| look(&l.expr, &mut calls));
                }
            }
            _ => defined = false,
        }
    }
    (found, defined)
}

/// Adds to `out` the variables `e` may write, following calls (parameters,
/// assignments, loop variables); `false` when it calls a function that is
/// not defined.
fn writes_following_calls(
    e: &Expr,
    funcs: &[Option<crate::game::Function>],
    out: &mut rustc_hash::FxHashSet<crate::expr::VarId>,
) -> bool {
    let (defs, defined) = reachable(e, funcs);
    let bodies = defs.iter().flat_map(|d| d.body.iter().map(|l| &l.expr));
    for x in std::iter::once(e).chain(bodies) {
        x.walk(&mut |y| {
            if let Expr::Assign(v, _) | Expr::Loop { var: v, .. } = y {
                out.insert(*v);
            }
        });
    }
    out.extend(defs.iter().flat_map(|d| d.params.iter().copied()));
    defined
}

/// Whether nothing `e` can run, following calls, reads or changes the state
/// ([`Game::tabulate_fixed_conditions`]). A call of an undefined function
/// fails when it runs: the evaluation at load says so.
fn reads_no_state(e: &Expr, funcs: &[Option<crate::game::Function>]) -> bool {
    let (defs, _) = reachable(e, funcs);
    let bodies = defs.iter().flat_map(|d| d.body.iter().map(|l| &l.expr));
    let mut ok = true;
    for x in std::iter::once(e).chain(bodies) {
        x.walk(&mut |y| match y {
            Expr::Builtin(b, _) => {
                ok &= matches!(
                    b,
                    Builtin::If
                        | Builtin::LocType
                        | Builtin::ElType
                        | Builtin::Index
                        | Builtin::IndexA
                        | Builtin::Unindex
                )
            }
            Expr::Lazy(_) => ok = false,
            _ => {}
        });
    }
    ok
}

/// Binds what [`Rule::known_binds`] names for move `mv` of rule `r`, found
/// legal in `st` (`Game::apply_legal`): the values matching would give
/// them. `false` (nothing of the operation read yet) if a match it reads
/// is missing, which a move of `r` found legal has.
#[inline(always)]
fn bind_known(r: &Rule, st: &State, mv: &Move, vars: &mut Vars) -> bool {
    use crate::game::KnownBind;
    let Some(plan) = r.known_binds.as_deref() else {
        return false;
    };
    // A target outside `to=` (a `toLocations` set may give one; any other
    // rule's found moves match it): matching fails for the rule, and
    // `apply_with` chooses another or the move's own rule without its
    // `to=` bindings.
    if r.to_locations.is_some()
        && r.to_index
            .get(mv.to as usize)
            .is_none_or(|&i| i == u32::MAX)
    {
        return false;
    }
    for &(v, b) in plan {
        let x = match b {
            KnownBind::Elem(k) => r
                .elem_index
                .get(mv.element as usize)
                .and_then(|&i| r.elem_matches.get(i as usize))
                .and_then(|m| m.1.get(k as usize)),
            KnownBind::From(k) => r
                .from_match
                .get(mv.from as usize)
                .and_then(|m| m.as_ref())
                .and_then(|m| m.get(k as usize)),
            KnownBind::To(k) => r
                .to_index
                .get(mv.to as usize)
                .and_then(|&i| r.to_matches.get(i as usize))
                .and_then(|m| m.1.get(k as usize)),
            KnownBind::State => {
                vars.set_int(v, st.element_state(mv.element));
                continue;
            }
            KnownBind::Player => {
                vars.set_int(v, st.player());
                continue;
            }
        };
        match x {
            Some(&(_, x)) => vars.set_int(v, x),
            None => return false,
        }
    }
    true
}

#[inline(always)]
fn bind(vars: &mut Vars, b: &Bindings) {
    for &(v, x) in b.as_slice() {
        vars.set_int(v, x);
    }
}

/// Rule `r`'s first conjunct `t` asked before binding, the player `p` to
/// move ([`ConditionPart::precheck`], or `precheck_flat` when every such
/// part of the rule is one `AND`/`OR` of tests, `Rule::left_flat`).
#[inline(always)]
fn ask_left(
    r: &Rule,
    t: &crate::compile::ConditionPart,
    st: &State,
    p: i32,
    calls: &[crate::memo::KeptCall],
) -> Option<bool> {
    if r.left_flat {
        t.precheck_flat(st, r.player, p, calls)
    } else {
        t.precheck(st, r.player, p, calls)
    }
}

/// Whether `Game::targets` finds rule `r`'s targets, once its hoisted
/// `A` is known true (`Scratch::known_a`), without evaluating anything:
/// another element's shared ones, or read in one pass
/// ([`Rule::simple_right`]) — the paths it takes first then.
#[inline(always)]
fn read_free_targets(r: &Rule, sc: &Scratch) -> bool {
    r.to_locations.is_none()
        && ((r.hoist_first_conjunct && sc.shared_valid)
            || (r.simple_right.is_some() && !(r.hoist_call && sc.shared_valid)))
}

/// The empty targets of a rule whose part `B` holds in `st`, in order,
/// appended to `targets`, when `A` is true and every `B` is a constant or
/// an `EMPTY` test (`simple`, [`Rule::simple_right`]); from the range's
/// contents as bits when they allow it (`game::TargetBits`).
#[inline(never)]
fn simple_targets(
    simple: &crate::game::SimpleTargets,
    st: &State,
    targets: &mut Vec<(LocationId, Option<Arc<Deferred>>)>,
) {
    let list = &simple.list;
    if let Some((b, contents)) = simple
        .bits
        .and_then(|b| Some((b, st.loc_elem.get(b.start..b.start + b.len)?)))
    {
        // Bit `i`: target `i` is empty; then its `B` as bits (`TargetBits`).
        let empty = contents.iter().rev().fold(0u64, |m, &e| {
            (m << 1) | u64::from(e == crate::state::NO_ELEMENT)
        });
        let mut found = empty & (b.always | ((!empty << (b.back % 64)) & b.below));
        while found != 0 {
            let i = found.trailing_zeros() as usize;
            targets.push(((b.start + i) as LocationId, None));
            found &= found - 1;
        }
        return;
    }
    // (The target's own emptiness first: both are reads of the position,
    // and a full target, the usual one, needs no more.)
    for &(l, b) in list.iter() {
        if st.content(l).is_none() && b.holds(st) {
            targets.push((l, None));
        }
    }
}

/// The moves of element `e` from `from` by rule `rule` to `targets` (its
/// own, or another element's shared ones, `Scratch::targets_shared`),
/// appended to `out`; `plain` when the targets are a `to=` pattern's alone
/// (no `toLocations`), which carry no followup of their own.
#[inline(always)]
fn moves_to(
    out: &mut Vec<Move>,
    targets: &[(LocationId, Option<Arc<Deferred>>)],
    e: ElementId,
    from: LocationId,
    rule: u16,
    plain: bool,
) {
    if plain {
        plain_moves_to(out, targets, e, from, rule);
    } else {
        moves_with_followups_to(out, targets, e, from, rule);
    }
}

/// [`moves_to`] of targets that may carry followups. Out of line: inlined,
/// the generation loop's code changed for every game (`nim` 1.6 % slower).
#[inline(never)]
fn moves_with_followups_to(
    out: &mut Vec<Move>,
    targets: &[(LocationId, Option<Arc<Deferred>>)],
    e: ElementId,
    from: LocationId,
    rule: u16,
) {
    let mv = |to, followup| Move {
        element: e,
        from,
        to,
        rule,
        followup,
    };
    // One target without a followup of its own (the usual `toLocations`
    // over registers): a push, without the extend's set-up.
    if let [(t, None)] = targets {
        out.push(mv(*t, None));
        return;
    }
    out.extend(targets.iter().map(|(t, f)| mv(*t, f.clone())));
}

/// [`moves_to`] of targets without followups: plain copies, no reference
/// counts to test (`tictactoe` −1.8 % instructions a game).
#[inline(never)]
fn plain_moves_to(
    out: &mut Vec<Move>,
    targets: &[(LocationId, Option<Arc<Deferred>>)],
    e: ElementId,
    from: LocationId,
    rule: u16,
) {
    let mv = |to| Move {
        element: e,
        from,
        to,
        rule,
        followup: None,
    };
    if let [(t, _)] = targets {
        out.push(mv(*t));
        return;
    }
    out.extend(targets.iter().map(|(t, _)| mv(*t)));
}
