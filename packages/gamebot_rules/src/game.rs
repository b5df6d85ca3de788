//! A loaded game: the parsed file with every name resolved, ready to run.

use crate::error::{Diagnostic, LoadError};
use crate::expr::{Expr, VarId};
use crate::model::*;
use crate::pattern::{Bindings, Pattern};
use crate::state::{ElementAttrs, Meta, State};
use crate::value::{Str, Sym};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::path::Path;
use std::sync::Arc;

/// An expression with the place it was written.
#[derive(Clone, Debug)]
pub struct SrcExpr {
    pub expr: Expr,
    pub line: u32,
    pub col: u32,
    /// The compiled form (`compile.rs`), filled in when the game is assembled.
    pub(crate) code: crate::compile::Code,
}

/// A user function of `[EXPRESSIONS]`.
#[derive(Clone, Debug)]
pub struct Function {
    pub(crate) name: String,
    pub(crate) params: Vec<VarId>,
    pub(crate) body: Vec<SrcExpr>,
    pub(crate) line: u32,
}

impl Function {
    /// The function's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Number of parameters.
    pub fn arity(&self) -> usize {
        self.params.len()
    }
    /// Line of its header in the game file.
    pub fn line(&self) -> u32 {
        self.line
    }
}

/// Where a variable bound by matching a rule takes its value
/// ([`Rule::known_binds`]): the binding at that index of the element's,
/// the `from` location's or the target's match, or the moved element's
/// state or the player to move (a `state=`/`player=` variable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KnownBind {
    Elem(u8),
    From(u8),
    To(u8),
    State,
    Player,
}

/// `player=` / `state=` filter of a rule (§7.2 matchInt).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Any,
    Literal(i32),
    Var(VarId),
}

/// A `[GAME RULES]` record with its patterns matched in advance against every name.
#[derive(Clone, Debug)]
pub struct Rule {
    pub(crate) name: String,
    pub(crate) line: u32,
    pub(crate) element: Pattern,
    pub(crate) from: Pattern,
    pub(crate) to: Option<Pattern>,
    pub(crate) to_locations: Option<SrcExpr>,
    pub(crate) condition: Option<SrcExpr>,
    pub(crate) followup: Option<SrcExpr>,
    pub(crate) player: Filter,
    pub(crate) state: Filter,
    pub(crate) bonuses: Vec<(SrcExpr, SrcExpr)>,
    /// Elements matching `element`, in file order, with their bindings.
    pub(crate) elem_matches: Vec<(ElementId, Bindings)>,
    /// Per element: index into `elem_matches`, or `u32::MAX`.
    pub(crate) elem_index: Vec<u32>,
    /// Per location: bindings of `from`, if it matches.
    pub(crate) from_match: Vec<Option<Bindings>>,
    /// Locations matching `to` (all when `to` is absent), in file order.
    pub(crate) to_matches: Vec<(LocationId, Bindings)>,
    /// Per location: index into `to_matches`, or `u32::MAX`.
    pub(crate) to_index: Vec<u32>,
    /// True when the targets do not depend on which element is moved (see the
    /// gamebot_rules decisions in docs/ARCHITECTURE.md), so they are computed
    /// once per rule and position.
    pub(crate) element_independent: bool,
    /// True when `condition` is `A AND B` and `A` is the same for every
    /// target of one element (see `loader/independence.rs`), so move
    /// generation evaluates `A` once per element instead of once per target.
    pub(crate) hoist_first_conjunct: bool,
    /// True when `condition` is a call `F(...)` whose last line is `A AND B`
    /// and a false `A` makes the condition false for every target of one
    /// element (see `loader/independence.rs`): generation then stops trying
    /// that element's targets.
    pub(crate) hoist_call: bool,
    /// True when [`Rule::hoist_call`] holds and the rest `B` of the called
    /// function's last line cannot depend on the element, or
    /// [`Rule::hoist_first_conjunct`] holds and `B` of `A AND B` cannot (see
    /// `loader/independence.rs`): every element whose `A` is true gets the
    /// same targets, so generation computes them once per rule and position.
    pub(crate) share_call_targets: bool,
    /// The variables move generation unbinds before it evaluates this rule
    /// for an element (see `loader/independence.rs`,
    /// `mark_generation_clears`): those its `toLocations`/`condition` may
    /// touch, following calls and interpolations, except the ones bound from
    /// the patterns and filters before every evaluation.
    pub(crate) gen_clear: Vec<crate::expr::VarId>,
    /// The variables applying a move unbinds before it tries this rule
    /// (`loader/independence.rs`, `mark_apply_clears`): those the rule's
    /// patterns, filters, condition, bonuses and followup and the scorings
    /// and end-of-game checks may touch, following calls and interpolations.
    pub(crate) apply_clear: Vec<crate::expr::VarId>,
    /// The variables of the patterns and filters that applying a move of
    /// this rule found legal (`Game::apply_legal`) binds, each with where
    /// its value comes from (the last of its bindings in matching order):
    /// those the followup, the bonuses, the scorings and the end-of-game
    /// checks may read (`loader/independence.rs`, `mark_apply_clears`).
    /// The condition is not asked there, and nothing else of the operation
    /// reads the others. `None` where a move found legal must be matched
    /// as `Game::apply_with` matches it: its condition may write a live
    /// variable (not `Rule::silent`), the game has rule bonuses (every
    /// matching rule is compared; `Game::tabulate_fixed_conditions`), or a
    /// pattern has more than 256 slots. (A move to a `toLocations` target
    /// outside `to=` is matched as `apply_with` matches it too:
    /// `bind_known` asks.)
    pub(crate) known_binds: Option<Box<[(crate::expr::VarId, KnownBind)]>>,
    /// The index of the first rule whose `to_matches` are the same locations
    /// in the same order: rules with the same key share the list of empty
    /// ones during one generation (`Scratch::empty_to`).
    pub(crate) to_key: u32,
    /// The condition's value for every pair of a `from` and a `to` location,
    /// when it reads nothing of the state and, with only the two patterns'
    /// variables bound, gave a value for every pair when the game loaded
    /// (`Game::tabulate_fixed_conditions`): move generation looks it up
    /// instead of evaluating it.
    pub(crate) fixed: Option<FixedCondition>,
    /// For a condition `X AND Y` that is not tabulated whole (`fixed`) nor
    /// hoisted, whose `X` reads nothing of the state, assigns nothing,
    /// loops over nothing and calls no function: `X`'s value for every pair
    /// of a `from` location and a `to_matches` index (row `from`, as in
    /// [`FixedCondition::table`]), when it gave one for every pair with only
    /// the two patterns' variables bound when the game loaded. Move
    /// generation skips a target whose `X` is false without binding or
    /// evaluating anything: the condition would be false, and `X` takes no
    /// budget step and writes nothing (issue 18 step 66,
    /// `Game::tabulate_fixed_conditions`).
    pub(crate) gate: Option<Box<[bool]>>,
    /// Per `from` location (empty when none): `toLocations` specialized for
    /// it at load (`specialize.rs`, `Specializer::targets`), which move
    /// generation runs in its place.
    pub(crate) to_special: Box<[crate::compile::FromTargets]>,
    /// Per location, in one word ([`FromGate`]): whether `from=` matches
    /// it, and the location, and whether empty, that [`Rule::to_special`]'s
    /// residual there needs when it reads no variable
    /// (`FromTargets::Regs::needs`) — in a rule whose targets are not shared
    /// by every element (`element_independent`). Move generation asks it
    /// first of every element, and skips the element when `from=` does not
    /// match or the location is otherwise.
    pub(crate) from_gate: Box<[FromGate]>,
    /// Per `to_matches` entry (empty when none): the part `B` of a hoisted
    /// condition ([`Rule::hoist_first_conjunct`], [`Rule::hoist_call`])
    /// specialized for that target (`Specializer::right_side`), which move
    /// generation runs in its place once `A` was true for an element.
    pub(crate) right_special: Box<[crate::compile::ConditionPart]>,
    /// When every part of [`Rule::right_special`] (one per target) is a
    /// constant or an `EMPTY` test, per target: its location and that
    /// part. Once `A` is true, the targets are found by reading the
    /// position alone (`engine::simple_targets`).
    pub(crate) simple_right: Option<SimpleTargets>,
    /// The part `A` of a hoisted condition specialized per element or per
    /// `from` location (`Specializer::left_side`), which move generation
    /// runs in its place.
    pub(crate) left_special: crate::compile::LeftChecks,
    /// Whether some part of [`Rule::left_special`] can be asked before
    /// anything is bound (`ConditionPart::precheck`).
    pub(crate) left_precheck: bool,
    /// Every part of [`Rule::left_special`] is one `AND`/`OR` of tests
    /// (`ConditionPart::precheck_flat`; the generation loop asks them from
    /// [`Rule::flat_left`]).
    pub(crate) left_flat: bool,
    /// [`Rule::left_special`] as one table when `left_flat`, for the
    /// generation loop.
    pub(crate) flat_left: Option<crate::compile::FlatChecks>,
    /// [`Rule::flat_left`]'s `from` locations indexed by the kept call
    /// value each one's test wants (`FlatChecks::call_index`): move
    /// generation tries only the elements on the locations the values
    /// index.
    pub(crate) call_index: Option<crate::compile::CallIndex>,
    /// Whether the condition writes only dead variables (following calls),
    /// so that applying a move may take its value from
    /// [`Rule::left_special`] and [`Rule::right_special`].
    pub(crate) silent: bool,
}

/// Per location of a rule ([`Rule::from_gate`]), what move generation asks
/// first of an element there, in one word: the pattern does not match
/// ([`FromGate::NOT_FROM`]), or it does and the residual there needs
/// nothing, or needs location `l` empty (or occupied). Read for every
/// element of a rule in every position: one load and one comparison for an
/// element off the pattern, instead of an `Option` of bindings and a
/// second table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FromGate(u32);

impl FromGate {
    /// `from=` does not match the location.
    pub(crate) const NOT_FROM: FromGate = FromGate(u32::MAX);

    /// The gates of a rule's locations: `from` (per location, whether
    /// `from=` matches) with `needs` (per location, the location needed
    /// empty or occupied, or empty for none).
    pub(crate) fn table(
        from: &[Option<Bindings>],
        needs: &[Option<(LocationId, bool)>],
    ) -> Box<[FromGate]> {
        from.iter()
            .enumerate()
            .map(|(l, fb)| match (fb, needs.get(l).copied().flatten()) {
                (None, _) => FromGate::NOT_FROM,
                (Some(_), None) => FromGate(0),
                (Some(_), Some((at, empty))) => {
                    FromGate(((u32::from(at) + 1) << 1) | u32::from(empty))
                }
            })
            .collect()
    }

    /// Whether `from=` matches the location.
    #[inline(always)]
    pub(crate) fn is_from(self) -> bool {
        self != FromGate::NOT_FROM
    }

    /// Of a location `from=` matches: the location needed, and whether
    /// empty (`None`: none needed).
    #[inline(always)]
    pub(crate) fn need(self) -> Option<(LocationId, bool)> {
        (self.is_from() && self.0 != 0)
            .then(|| (((self.0 >> 1) - 1) as LocationId, self.0 & 1 != 0))
    }

    /// Of a location `from=` matches ([`FromGate::is_from`]): whether an
    /// element there may have targets in `st` — the location the residual
    /// needs empty (or occupied) is so, or it needs none. `needs_on`
    /// false (the reference evaluator) takes every one as needing none.
    #[inline(always)]
    pub(crate) fn passes(self, st: &State, needs_on: bool) -> bool {
        match self.need().filter(|_| needs_on) {
            Some((at, empty)) => crate::compile::empty_holds(st, at, empty),
            None => true,
        }
    }
}

/// [`Rule::simple_right`]: per target its location and its part `B`, and
/// whether the targets can be read as bits ([`SimpleTargets::bits`]).
#[derive(Clone, Debug)]
pub(crate) struct SimpleTargets {
    /// Per target, in the order of `Rule::to_matches`: its location and
    /// its part `B`.
    pub(crate) list: Box<[(LocationId, TargetTest)]>,
    /// The targets as bits over their contents, when they allow it.
    pub(crate) bits: Option<TargetBits>,
}

/// Targets 4 to 64 locations with consecutive ids, in order, each of
/// whose `B` is true, false, or "the target `back` places before is
/// occupied", with one `back` for all (`tictactoe-orig`: every `B` true;
/// `nim-orig`'s `Slot`, discards filled from the first: the first true,
/// every other the one before, `back` 1; `connect4-orig`: the bottom row
/// true, every other square the one below, `back` 7). With bit `i` of
/// `empty` set when target `i` is empty, the targets are then
/// `empty & (always | (!empty << back) & below)` (`engine::simple_targets`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TargetBits {
    /// The first target's location id; the others follow it.
    pub(crate) start: usize,
    pub(crate) len: usize,
    /// Bit `i`: target `i`'s `B` is true.
    pub(crate) always: u64,
    /// Bit `i`: target `i`'s `B` is "target `i - back` is occupied".
    pub(crate) below: u64,
    /// 1 to 63 (1 when no `B` reads another target).
    pub(crate) back: u32,
}

impl SimpleTargets {
    pub(crate) fn new(list: Box<[(LocationId, TargetTest)]>) -> SimpleTargets {
        let bits = TargetBits::of(&list);
        SimpleTargets { list, bits }
    }
}

impl TargetBits {
    /// The fewest targets read as bits.
    pub(crate) const MIN_LEN: usize = 4;

    fn of(list: &[(LocationId, TargetTest)]) -> Option<TargetBits> {
        let start = usize::from(list.first()?.0);
        // (Fewer targets are read faster one by one: `nim`'s two token
        // spots took 86 instructions a call as bits, 67 in the loop.)
        if !(TargetBits::MIN_LEN..=64).contains(&list.len()) {
            return None;
        }
        let (mut always, mut below, mut back) = (0u64, 0u64, None);
        for (i, (l, t)) in list.iter().enumerate() {
            let l = usize::from(*l);
            if l != start + i {
                return None;
            }
            match t.part {
                TestPart::True => always |= 1 << i,
                TestPart::False => {}
                TestPart::Occupied => {
                    let at = usize::from(t.at);
                    if at < start || at >= l || *back.get_or_insert(l - at) != l - at {
                        return None;
                    }
                    below |= 1 << i;
                }
                TestPart::Empty => return None,
            }
        }
        Some(TargetBits {
            start,
            len: list.len(),
            always,
            below,
            back: back.unwrap_or(1) as u32,
        })
    }
}

/// A target's part `B` of a hoisted condition that reads the position
/// alone ([`Rule::simple_right`]): a constant, or whether a location is
/// empty or occupied, as `ConditionPart::Const` and `ConditionPart::Empty`.
/// Kept as the location the test reads (any one for a constant) and what
/// the part is, so that [`TargetTest::holds`] reads the location whatever
/// the part (as a match over data-carrying variants it ran `nim-orig` 1.6 %
/// more instructions).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TargetTest {
    at: LocationId,
    part: TestPart,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TestPart {
    False,
    True,
    Empty,
    Occupied,
}

impl TargetTest {
    /// The constant `b` (`at`: a location of the game, read and ignored).
    pub(crate) fn constant(b: bool, at: LocationId) -> TargetTest {
        let part = if b { TestPart::True } else { TestPart::False };
        TargetTest { at, part }
    }

    /// Location `l` is empty (`empty`) or occupied.
    pub(crate) fn empty(l: LocationId, empty: bool) -> TargetTest {
        let part = if empty {
            TestPart::Empty
        } else {
            TestPart::Occupied
        };
        TargetTest { at: l, part }
    }

    /// Its value in `st`.
    #[inline(always)]
    pub(crate) fn holds(self, st: &State) -> bool {
        let empty = st.content(self.at).is_none();
        self.part == TestPart::True
            || (self.part == TestPart::Empty && empty)
            || (self.part == TestPart::Occupied && !empty)
    }
}

impl Rule {
    /// The variables of its patterns (`element=`, `from=`, `to=`) and of
    /// its `state=`/`player=` filters: what matching a move binds.
    pub(crate) fn pattern_vars(&self) -> impl Iterator<Item = crate::expr::VarId> + '_ {
        let filter = |f: Filter| match f {
            Filter::Var(v) => Some(v),
            _ => None,
        };
        self.element
            .vars()
            .chain(self.from.vars())
            .chain(self.to.iter().flat_map(|t| t.vars()))
            .chain(filter(self.state))
            .chain(filter(self.player))
    }

    /// Variables bound before the rule's targets are tried (`element=`,
    /// `from=`, `state=`, `player=`).
    pub(crate) fn bound_before_targets(&self) -> rustc_hash::FxHashSet<crate::expr::VarId> {
        let mut bound = rustc_hash::FxHashSet::default();
        for (_, eb) in &self.elem_matches {
            bound.extend(eb.iter().map(|x| x.0));
        }
        for fb in self.from_match.iter().flatten() {
            bound.extend(fb.iter().map(|x| x.0));
        }
        bound.extend(self.element.vars().chain(self.from.vars()));
        for f in [self.state, self.player] {
            if let Filter::Var(v) = f {
                bound.insert(v);
            }
        }
        bound
    }
}

/// [`Rule::left_special`]: the part `A` of the rule's hoisted condition
/// `cond` specialized per element (with the element pattern's variables
/// that nothing binds later known) and per `from` location; the form whose
/// residuals are smaller in all, where there are any.
fn left_checks(
    r: &Rule,
    cond: &crate::expr::Expr,
    special: &crate::specialize::Specializer<'_>,
    compiler: &crate::compile::Compiler<'_>,
) -> crate::compile::LeftChecks {
    use crate::compile::LeftChecks;
    // Bound whenever `A` runs: at an element's first target, or before the
    // targets for a first conjunct that touches none of the target's.
    let mut readable = r.bound_before_targets();
    for (_, tb) in &r.to_matches {
        readable.extend(tb.iter().map(|x| x.0));
    }
    let mut later: rustc_hash::FxHashSet<crate::expr::VarId> = r.from.vars().collect();
    for fb in r.from_match.iter().flatten() {
        later.extend(fb.iter().map(|x| x.0));
    }
    for f in [r.state, r.player] {
        if let Filter::Var(v) = f {
            later.insert(v);
        }
    }
    // Residuals, their total size (a missing one counts as large) and how
    // many were tried.
    let residuals = |binds: &mut dyn Iterator<Item = Option<Vec<(crate::expr::VarId, i32)>>>| {
        let (mut total, mut tried) = (0usize, 0usize);
        let rs: Vec<Option<crate::expr::Expr>> = binds
            .map(|b| {
                let b = b?;
                tried += 1;
                let x = special.left_side(cond, &b, &readable);
                total += x
                    .as_ref()
                    .map_or(crate::specialize::MAX_TARGET_NODES, crate::specialize::size);
                x
            })
            .collect();
        (rs, total, tried.max(1))
    };
    let (by_elem, n_elem, k_elem) = residuals(&mut r.elem_matches.iter().map(|(_, eb)| {
        Some(
            eb.iter()
                .filter(|x| !later.contains(&x.0))
                .copied()
                .collect(),
        )
    }));
    let (by_from, n_from, k_from) = residuals(
        &mut r
            .from_match
            .iter()
            .map(|fb| fb.as_ref().map(|fb| fb.to_vec())),
    );
    let compile = |rs: Vec<Option<crate::expr::Expr>>| -> Option<Box<[_]>> {
        let checks: Box<[_]> = rs.into_iter().map(|x| compiler.code_check(x)).collect();
        checks
            .iter()
            .any(|t| !matches!(t, crate::compile::ConditionPart::None))
            .then_some(checks)
    };
    // The form with the smaller residuals on average first; on a tie the
    // one per location (its variables folded, not read).
    let from_first = n_from * k_elem <= n_elem * k_from;
    if from_first {
        if let Some(c) = compile(by_from) {
            return LeftChecks::PerFrom(c);
        }
        compile(by_elem).map_or(LeftChecks::None, LeftChecks::PerElement)
    } else {
        if let Some(c) = compile(by_elem) {
            return LeftChecks::PerElement(c);
        }
        compile(by_from).map_or(LeftChecks::None, LeftChecks::PerFrom)
    }
}

/// A rule condition's values by location pair ([`Rule::fixed`]).
#[derive(Clone, Debug)]
pub(crate) struct FixedCondition {
    /// `to_matches.len()`: the length of one `from` location's row.
    pub(crate) width: usize,
    /// Row `from` (a location id), column `i` (an index into `to_matches`).
    pub(crate) table: Box<[bool]>,
    /// Per `from` location, where its targets start in `list`
    /// (`from_match.len() + 1` entries).
    pub(crate) starts: Box<[u32]>,
    /// The targets whose entry is true, row after row, each row in
    /// `to_matches` order.
    pub(crate) list: Box<[LocationId]>,
    /// True when everything the condition may write is a dead variable
    /// (`memo::dead_vars`): nothing after it can read what it wrote, so
    /// applying a move looks its value up too.
    pub(crate) silent: bool,
}

impl FixedCondition {
    /// The values for the targets of `from`, in `to_matches` order.
    #[cfg(test)]
    pub(crate) fn row(&self, from: LocationId) -> &[bool] {
        let at = from as usize * self.width;
        &self.table[at..at + self.width]
    }

    /// The value for `from` and the `i`-th of `to_matches`.
    #[inline]
    pub(crate) fn get(&self, from: LocationId, i: u32) -> bool {
        self.table[from as usize * self.width + i as usize]
    }

    /// The targets of `from` whose entry is true, in `to_matches` order.
    #[inline]
    pub(crate) fn targets(&self, from: LocationId) -> &[LocationId] {
        let (a, b) = (self.starts[from as usize], self.starts[from as usize + 1]);
        &self.list[a as usize..b as usize]
    }
}

impl Rule {
    /// The rule's `name=`.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Line of its `name=` in the game file.
    pub fn line(&self) -> u32 {
        self.line
    }
    /// The `element=` pattern as written.
    pub fn element_pattern(&self) -> &str {
        &self.element.source
    }
    /// The `from=` pattern as written.
    pub fn from_pattern(&self) -> &str {
        &self.from.source
    }
    /// The `to=` pattern as written, if the rule has one.
    pub fn to_pattern(&self) -> Option<&str> {
        self.to.as_ref().map(|p| p.source.as_str())
    }
    /// Whether it awards scores (`awardPlayer=`/`withScore=`).
    pub fn has_bonuses(&self) -> bool {
        !self.bonuses.is_empty()
    }
}

/// A `[SCORINGS]` record.
#[derive(Clone, Debug)]
pub struct Scoring {
    pub(crate) situation: SrcExpr,
    pub(crate) players: Vec<SrcExpr>,
    pub(crate) scores: Vec<SrcExpr>,
}

/// An `[END OF GAME]` record.
#[derive(Clone, Debug)]
pub struct EndCondition {
    pub(crate) situation: SrcExpr,
    pub(crate) winner: SrcExpr,
    /// The situation asked without its closures where it has one of these
    /// forms ([`EndTest`]).
    pub(crate) fast: Option<EndTest>,
    /// The situation's code over registers, its residual's or its own
    /// (`Compiler::code_end`), run without the closures' layers around it
    /// when `fast` cannot tell; when it gives
    /// up, the situation runs (`tictactoe-orig`'s `HasLine(1)`, a kept
    /// formula, and `CountPlaced == 9`, whose kept call gave up keeping).
    pub(crate) regs: Option<EndRegs>,
}

/// [`EndCondition::regs`].
#[derive(Clone)]
pub(crate) struct EndRegs(pub std::sync::Arc<crate::pure::PBool>);

impl std::fmt::Debug for EndRegs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EndRegs")
    }
}

/// An end-of-game situation of a form asked directly.
#[derive(Clone, Debug)]
pub(crate) enum EndTest {
    /// A kept call compared with a literal (`pure::KeptTest`).
    Kept(crate::pure::KeptTest),
    /// One test of the position against a literal (`EMPTY`/`NOT EMPTY` of
    /// a named location, `STATE`/`OWNER` of a named element compared with
    /// an Int literal: `Compiler::position_test`), read in place: it cannot
    /// fail, loop or call, so its value is the situation's (`nim`'s
    /// `NOT EMPTY("bin(16)")`).
    Position(crate::compile::ConditionPart),
}

impl EndCondition {
    /// Its kept-call test, if it is one.
    #[cfg(test)]
    pub(crate) fn kept(&self) -> Option<&crate::pure::KeptTest> {
        match &self.fast {
            Some(EndTest::Kept(k)) => Some(k),
            _ => None,
        }
    }

    /// Line of its `situation=`.
    pub fn line(&self) -> u32 {
        self.situation.line
    }
}

/// An `[EVALUATION]` record (gamebot extension for the AI): a player's heuristic value.
#[derive(Clone, Debug)]
pub struct Evaluation {
    pub(crate) player: i32,
    pub(crate) value: SrcExpr,
}

impl Evaluation {
    /// The player whose value it gives.
    pub fn player(&self) -> i32 {
        self.player
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TemplatePiece {
    Text(String),
    Var(VarId),
}

/// An interpolated string with a table from integer arguments to known texts.
#[derive(Clone, Debug)]
pub(crate) struct Template {
    pub pieces: Vec<TemplatePiece>,
    pub vars: SmallVec<[VarId; 4]>,
    /// Known texts by integer arguments (when not dense).
    pub cache: FxHashMap<SmallVec<[i32; 4]>, Sym>,
    /// The same as a dense array when the argument ranges are small.
    pub dense: Option<DenseTable>,
    /// True when every known text this template can produce from non-negative
    /// integers is in the table (its literal text has no digits), so a miss means unknown.
    pub exhaustive: bool,
    /// True when no known text contains `-` followed by a digit: then a text
    /// rendered from a negative argument (off the board, `"s($X,$Y)"` with
    /// `$X = -1`) is certainly unknown too.
    pub negatives_unknown: bool,
}

/// Dense lookup of known texts: row-major over per-argument ranges.
#[derive(Clone, Debug)]
pub(crate) struct DenseTable {
    pub mins: SmallVec<[i32; 4]>,
    pub dims: SmallVec<[u32; 4]>,
    pub table: Vec<Sym>,
}

impl Template {
    /// `Some(Some(sym))` known, `Some(None)` certainly unknown, `None` undecided (build the text).
    #[inline]
    pub fn lookup(&self, ints: &[i32]) -> Option<Option<Sym>> {
        let found = match &self.dense {
            Some(d) => {
                let mut idx: usize = 0;
                let mut inside = true;
                for (k, &x) in ints.iter().enumerate() {
                    let off = x.wrapping_sub(d.mins[k]) as u32;
                    if off >= d.dims[k] {
                        inside = false;
                        break;
                    }
                    idx = idx * d.dims[k] as usize + off as usize;
                }
                if inside {
                    let s = d.table[idx];
                    (s != Sym::MAX).then_some(s)
                } else {
                    None
                }
            }
            None => self.cache.get(ints).copied(),
        };
        match found {
            Some(s) => Some(Some(s)),
            None if self.exhaustive && (self.negatives_unknown || ints.iter().all(|&x| x >= 0)) => {
                Some(None)
            }
            None => None,
        }
    }
}

/// A known text read as an indexed name `base(i,j,...)`, for `INDEX`, `INDEXA`
/// and `UNINDEX` without parsing at run time.
#[derive(Clone, Debug)]
pub(crate) struct Indexed {
    /// The text before the first `(` (the whole text without one): its
    /// symbol when it is a known text, else the owned string (`rbin` of a
    /// location `rbin(3)`), made once at load so that `UNINDEX` clones it
    /// instead of parsing the name and allocating (issue 18 step 65).
    pub base: Str,
    pub idx: SmallVec<[i32; 2]>,
}

/// Splits `base(i,j,...)` like the run-time parser does; `None` where that fails.
fn split_indexes(t: &str) -> Option<(&str, SmallVec<[i32; 2]>)> {
    match t.find('(') {
        None => Some((t, SmallVec::new())),
        Some(p) => {
            let inner = t[p + 1..].strip_suffix(')')?;
            let idx = inner
                .split(',')
                .map(|x| x.parse::<i32>().ok())
                .collect::<Option<SmallVec<_>>>()?;
            Some((&t[..p], idx))
        }
    }
}

/// A loaded game.
#[derive(Debug)]
pub struct Game {
    /// The game's name (file stem).
    pub name: String,
    /// The file it was loaded from, as given.
    pub file: String,
    pub board_image: Option<String>,
    pub realboard: Vec<RealboardSignature>,
    pub element_types: Vec<ElementType>,
    pub location_types: Vec<LocationType>,
    pub locations: Vec<Location>,
    pub elements: Vec<Element>,
    /// Player names; the number of players is their count.
    pub players: Vec<String>,
    pub initial_score: i32,
    pub(crate) functions: Vec<Function>,
    pub(crate) rules: Vec<Rule>,
    pub(crate) scorings: Vec<Scoring>,
    pub(crate) ends: Vec<EndCondition>,
    pub(crate) evaluations: Vec<Evaluation>,
    /// Problems worth a look that do not stop the game from loading.
    pub warnings: Vec<Diagnostic>,

    pub(crate) syms: Vec<Arc<str>>,
    pub(crate) sym_map: FxHashMap<Arc<str>, Sym>,
    pub(crate) sym_loc: Vec<u16>,
    pub(crate) sym_elem: Vec<u16>,
    pub(crate) loc_sym: Vec<Sym>,
    /// Per location: the set `{name}` of its name alone, built once at load
    /// and shared by every one-member set literal that gives it (`compile.rs`).
    pub(crate) loc_singletons: Vec<Arc<Vec<crate::value::Value>>>,
    pub(crate) elem_sym: Vec<Sym>,
    pub(crate) etype_sym: Vec<Sym>,
    pub(crate) ltype_sym: Vec<Sym>,
    pub(crate) empty_sym: Sym,
    pub(crate) var_names: Vec<String>,
    pub(crate) func_names: Vec<String>,
    /// Per function name: its definition (index into `functions`), if defined.
    pub(crate) funcs: Vec<Option<Function>>,
    /// Per function name: the compiled body of its definition (`compile.rs`).
    pub(crate) cfuncs: Vec<Option<crate::compile::CFunc>>,
    /// Per function name: whether and how its calls are memoized (`memo.rs`).
    pub(crate) memo_info: Vec<Option<crate::memo::MemoInfo>>,
    /// Whether a function or a loop body is memoized or an inlined call is
    /// cached per epoch (`pure::CallCache`): then the engine gives a state a
    /// fresh epoch after each move (`compile::renew_epoch`), for memo entries
    /// to be checked and closed calls to run once per position. (With a
    /// memoized function, its states also keep what changed since the last
    /// epoch, `State::track`, for entries not to be checked at all in the
    /// next position when nothing they read changed.)
    pub(crate) renews_epochs: bool,
    /// Whether no rule has `toLocations`, or no expression makes a lazy
    /// set: then no move carries a followup of its own (`Move::followup` is
    /// `None`; only the `[target, Followup(..)]` pairs of a `toLocations`
    /// set give one), so a list of its moves holds nothing to drop
    /// (`Game::legal_moves_of`).
    pub(crate) moves_without_followups: bool,
    /// Per variable: whether no expression can observe what a call leaves in
    /// it (`memo::dead_vars`); the tests compare the other variables only.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) dead: Vec<bool>,
    /// Distinguishes games (and so their memo tables) in a shared scratch.
    pub(crate) id: u64,
    pub(crate) templates: Vec<Template>,
    /// Per symbol: its indexed-name reading, `None` when it is not one.
    pub(crate) sym_indexed: Vec<Option<Indexed>>,
    pub(crate) meta: Arc<Meta>,
    /// The initial position (§6.2), built once at load from `elements`,
    /// `locations`, `players` and `initial_score`; [`Game::initial_state`]
    /// clones it.
    pub(crate) initial: State,
    pub(crate) has_bonuses: bool,
    loc_by_name: FxHashMap<String, LocationId>,
    elem_by_name: FxHashMap<String, ElementId>,
}

/// One more call of function `h` in `n` (per function); an id out of range
/// is not counted.
fn count_call(n: &mut [u32], h: crate::expr::FuncId) {
    if let Some(t) = n.get_mut(h as usize) {
        *t += 1;
    }
}

/// Calls `f` on every expression outside the user functions: the rules'
/// targets, conditions, followups and bonuses, the scorings, the end
/// conditions and the evaluations.
fn for_each_outside_expr<'a>(
    rules: &'a [Rule],
    scorings: &'a [Scoring],
    ends: &'a [EndCondition],
    evaluations: &'a [Evaluation],
    mut f: impl FnMut(&'a SrcExpr),
) {
    for r in rules {
        r.to_locations.iter().for_each(&mut f);
        r.condition.iter().for_each(&mut f);
        r.followup.iter().for_each(&mut f);
        for (a, w) in &r.bonuses {
            f(a);
            f(w);
        }
    }
    for sc in scorings {
        f(&sc.situation);
        sc.players.iter().for_each(&mut f);
        sc.scores.iter().for_each(&mut f);
    }
    for e in ends {
        f(&e.situation);
        f(&e.winner);
    }
    for e in evaluations {
        f(&e.value);
    }
}

impl Game {
    /// Loads a game file. A path without extension also tries `.game`.
    pub fn load(path: impl AsRef<Path>) -> Result<Game, LoadError> {
        let path = path.as_ref();
        let mut p = path.to_path_buf();
        if !p.exists() && p.extension().is_none() {
            p.set_extension("game");
        }
        let display = p.display().to_string();
        // Bounded (no endless devices), UTF-8 only (UTF-16 and stray bytes are named).
        let text = gamebot_input::read_text(&p).map_err(|e| match e {
            gamebot_input::InputError::NotUtf8 {
                line, column, byte, ..
            } => LoadError::single(
                &display,
                u32::try_from(line).unwrap_or(u32::MAX),
                u32::try_from(column).unwrap_or(u32::MAX),
                format!("invalid UTF-8 byte 0x{byte:02x} (game files are UTF-8)"),
            ),
            e => {
                let text = e.to_string();
                let message = text.strip_prefix(&format!("{display}: ")).unwrap_or(&text);
                LoadError::single(&display, 0, 0, message.to_string())
            }
        })?;
        let name = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| display.clone());
        Self::parse_named(&name, &display, &text)
    }

    /// Parses a game from text; `file` names it in messages.
    pub fn parse(file: &str, text: &str) -> Result<Game, LoadError> {
        let name = Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Self::parse_named(&name, file, text)
    }

    fn parse_named(name: &str, file: &str, text: &str) -> Result<Game, LoadError> {
        crate::loader::load(name, file, text)
    }

    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.players.len()
    }
    /// The user functions of `[EXPRESSIONS]`, in file order.
    pub fn functions(&self) -> &[Function] {
        &self.functions
    }
    /// The `[GAME RULES]`, in file order (a [`crate::Move`]'s `rule` indexes them).
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }
    /// The `[SCORINGS]` records.
    pub fn scorings(&self) -> &[Scoring] {
        &self.scorings
    }
    /// The `[END OF GAME]` records.
    pub fn ends(&self) -> &[EndCondition] {
        &self.ends
    }
    /// The `[EVALUATION]` records.
    pub fn evaluations(&self) -> &[Evaluation] {
        &self.evaluations
    }
    /// Whether the game has an `[EVALUATION]` value for `player`.
    pub fn has_evaluation(&self, player: i32) -> bool {
        self.evaluations.iter().any(|e| e.player == player)
    }
    /// Whether scores can change during play (scorings or rule bonuses).
    pub fn has_scoring(&self) -> bool {
        !self.scorings.is_empty() || self.has_bonuses
    }
    /// Location index by exact name.
    pub fn location_by_name(&self, name: &str) -> Option<LocationId> {
        self.loc_by_name.get(name).copied()
    }
    /// Element index by exact name.
    pub fn element_by_name(&self, name: &str) -> Option<ElementId> {
        self.elem_by_name.get(name).copied()
    }
    /// Element type of an element.
    pub fn element_type_of(&self, e: ElementId) -> &ElementType {
        &self.element_types[self.elements[e as usize].element_type]
    }
    /// Location type of a location.
    pub fn location_type_of(&self, l: LocationId) -> &LocationType {
        &self.location_types[self.locations[l as usize].location_type]
    }
    /// Whether a location counts for state identity.
    pub fn is_relevant(&self, l: LocationId) -> bool {
        self.meta.relevant[l as usize]
    }
    /// Name of a variable slot (for messages).
    pub fn var_name(&self, v: VarId) -> &str {
        &self.var_names[v as usize]
    }

    pub(crate) fn sym_of(&self, text: &str) -> Option<Sym> {
        self.sym_map.get(text).copied()
    }
    #[inline]
    pub(crate) fn sym_location(&self, s: Sym) -> Option<u16> {
        let l = self.sym_loc[s as usize];
        (l != u16::MAX).then_some(l)
    }
    #[inline]
    pub(crate) fn sym_element(&self, s: Sym) -> Option<u16> {
        let e = self.sym_elem[s as usize];
        (e != u16::MAX).then_some(e)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn assemble(name: String, file: String, parts: crate::loader::Parts) -> Game {
        let crate::loader::Parts {
            board_image,
            realboard,
            element_types,
            location_types,
            locations,
            elements,
            players,
            initial_score,
            functions,
            rules,
            scorings,
            ends,
            evaluations,
            warnings,
            syms,
            sym_map,
            var_names,
            func_names,
            funcs,
            templates,
        } = parts;
        let mut sym_loc = vec![u16::MAX; syms.len()];
        let mut sym_elem = vec![u16::MAX; syms.len()];
        let lookup = |t: &str| sym_map[t];
        let loc_sym: Vec<Sym> = locations.iter().map(|l| lookup(&l.name)).collect();
        let elem_sym: Vec<Sym> = elements.iter().map(|e| lookup(&e.name)).collect();
        let etype_sym: Vec<Sym> = element_types.iter().map(|t| lookup(&t.name)).collect();
        let ltype_sym: Vec<Sym> = location_types.iter().map(|t| lookup(&t.name)).collect();
        for (i, &s) in loc_sym.iter().enumerate() {
            sym_loc[s as usize] = i as u16;
        }
        for (i, &s) in elem_sym.iter().enumerate() {
            sym_elem[s as usize] = i as u16;
        }
        let relevant = locations
            .iter()
            .map(|l| location_types[l.location_type].relevant)
            .collect();
        let elem_type = elements.iter().map(|e| e.element_type as u16).collect();
        let meta = Arc::new(Meta::new(relevant, elem_type, element_types.len()));
        let mut initial = State::new(
            meta.clone(),
            elements.iter().map(|e| e.location).collect(),
            elements
                .iter()
                .map(|e| ElementAttrs {
                    state: e.state,
                    owner: e.owner,
                    zindex: e.zindex,
                })
                .collect(),
            locations.len(),
            vec![initial_score; players.len()],
        );
        let loc_by_name = locations
            .iter()
            .enumerate()
            .map(|(i, l)| (l.name.clone(), i as LocationId))
            .collect();
        let elem_by_name = elements
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.clone(), i as ElementId))
            .collect();
        let has_bonuses = rules.iter().any(|r| !r.bonuses.is_empty());
        // Compile every expression once (issue 18): see `compile.rs`.
        let (mut rules, mut scorings, mut ends, mut evaluations) =
            (rules, scorings, ends, evaluations);
        // Variables mentioned outside the user functions, and every
        // expression of the game (for `memo::dead_vars`).
        let mut outside = rustc_hash::FxHashSet::default();
        let mut exprs: Vec<&Expr> = funcs
            .iter()
            .flatten()
            .flat_map(|d| d.body.iter().map(|l| &l.expr))
            .collect();
        for_each_outside_expr(&rules, &scorings, &ends, &evaluations, |se| {
            crate::memo::mentions(&se.expr, &templates, &mut outside);
            exprs.push(&se.expr);
        });
        for r in &rules {
            outside.extend(r.pattern_vars());
        }
        let calls = crate::call_graph::CallGraph::new(&funcs);
        let dead = crate::memo::dead_vars(
            &funcs,
            &calls,
            &templates,
            &outside,
            exprs.into_iter(),
            var_names.len(),
        );
        // A dead variable is read only after a write in the same invocation:
        // what it held before is never read, so move generation need not
        // unbind it per element (`Rule::gen_clear`; issue 18 twelfth step).
        for r in &mut rules {
            r.gen_clear
                .retain(|&v| !dead.get(v as usize).copied().unwrap_or(false));
            r.apply_clear
                .retain(|&v| !dead.get(v as usize).copied().unwrap_or(false));
        }
        let mut memo_info = crate::memo::analyse(&funcs, &templates, &dead);
        // Loop bodies memoized as units, numbered after the functions.
        let mut units = Vec::new();
        for (body, info) in crate::memo::units(&funcs, &templates, &dead) {
            units.push((body as usize, memo_info.len() as crate::expr::FuncId));
            memo_info.push(Some(info));
        }
        // A compiler for asking whether a function can be inlined
        // (`pure::inlinable`) under a given set of memoized functions.
        let tables = crate::compile::GameTables {
            funcs: &funcs,
            func_names: &func_names,
            sym_loc: &sym_loc,
            sym_elem: &sym_elem,
            templates: &templates,
            dead: &dead,
            empty_sym: sym_map[""],
            ltype_sym: &ltype_sym,
            etype_sym: &etype_sym,
        };
        let mut probe = crate::compile::Compiler::new(tables);
        // Per function: its call sites outside the functions (rules,
        // scorings, end-of-game records, evaluations), which both rules
        // below count with the call sites in function bodies.
        let mut outside_calls = vec![0u32; funcs.len()];
        for_each_outside_expr(&rules, &scorings, &ends, &evaluations, |se| {
            crate::call_graph::call_sites(&se.expr, |h| count_call(&mut outside_calls, h))
        });
        // A memoized function called only from units' bodies, whose calls
        // `pure.rs` can inline, is not memoized: the unit's entry already
        // stands for its calls, and on a unit's miss the inlined calls cost
        // less than looking their own entries up (issue 18, tenth step).
        // Each call site counts once, also inside a unit that is a loop over
        // another unit (nineteenth step).
        if !units.is_empty() {
            let mut total = outside_calls.clone();
            let count =
                |e: &Expr, n: &mut Vec<u32>| crate::call_graph::call_sites(e, |h| count_call(n, h));
            for direct in &calls.direct {
                direct.iter().for_each(|&h| count_call(&mut total, h));
            }
            let mut inside = vec![0u32; funcs.len()];
            // The outermost units' bodies only: a unit's body may hold
            // another unit (a loop over units), whose calls it counts already.
            let is_unit = |at: usize| units.iter().any(|u| u.0 == at);
            let mut nested: rustc_hash::FxHashSet<usize> = rustc_hash::FxHashSet::default();
            for def in funcs.iter().flatten() {
                for l in &def.body {
                    l.expr.walk(&mut |x| {
                        if let Expr::Loop { body: b, .. } = x {
                            if is_unit(&**b as *const Expr as usize) {
                                b.walk(&mut |y| {
                                    if let Expr::Loop { body: c, .. } = y {
                                        nested.insert(&**c as *const Expr as usize);
                                    }
                                });
                            }
                        }
                    });
                }
            }
            for &(body, _) in &units {
                if nested.contains(&body) {
                    continue;
                }
                // SAFETY-free: the address is only compared, the body is found
                // again by walking the functions.
                for def in funcs.iter().flatten() {
                    for l in &def.body {
                        l.expr.walk(&mut |x| {
                            if let Expr::Loop { body: b, .. } = x {
                                if &**b as *const Expr as usize == body {
                                    count(b, &mut inside);
                                }
                            }
                        });
                    }
                }
            }
            let mut demote: Vec<bool> = (0..funcs.len())
                .map(|f| memo_info[f].is_some() && total[f] > 0 && total[f] == inside[f])
                .collect();
            // Those still inlinable when the others stay memoized, to a fixed point.
            loop {
                probe.memo_funcs = (0..memo_info.len())
                    .map(|f| memo_info[f].is_some() && !demote.get(f).copied().unwrap_or(false))
                    .collect();
                let still: Vec<bool> = (0..funcs.len())
                    .map(|f| demote[f] && crate::pure::inlinable(&probe, f as crate::expr::FuncId))
                    .collect();
                if still == demote {
                    break;
                }
                demote = still;
            }
            for (f, d) in demote.into_iter().enumerate() {
                if d {
                    memo_info[f] = None;
                }
            }
        }
        // The innermost of nested memoized functions (issue 18,
        // thirty-fifth step): a memoized function that calls no memoized
        // function (following calls), called only from the bodies of other
        // memoized functions (at least once) and of functions that change
        // the state, is not memoized when `pure.rs` can inline it there.
        // A caller's entry stands for its calls, as a unit's does for the
        // calls in its body (above); on the caller's miss, the inlined
        // calls cost less than looking their own entries up, and the
        // caller's body runs over registers (a call of a memoized function
        // in it that is not in tail position sends it to the closures,
        // `pure::PMemo`). The callers stay memoized: only the innermost
        // level is dropped. A state-changing function runs once per move
        // applied, so its calls are no reason to keep entries
        // (`reversi6-orig`'s `Run`, called from `CanFlip` eight times and
        // from the followup `FlipDir`).
        {
            let n = funcs.len();
            let memoized = |f: usize| memo_info.get(f).is_some_and(Option::is_some);
            let changes_state = |def: &Function| {
                def.body.iter().any(|l| {
                    let mut yes = false;
                    l.expr.walk(&mut |x| {
                        if let Expr::Builtin(b, _) = x {
                            yes |= crate::specialize::changes_state(*b)
                        }
                    });
                    yes
                })
            };
            // Per function: its call sites (but its own), those in memoized
            // functions' bodies, those in state-changing functions' bodies.
            let (mut total, mut in_memo, mut in_effect) =
                (outside_calls, vec![0u32; n], vec![0u32; n]);
            for (g, def) in funcs.iter().enumerate() {
                let Some(def) = def else { continue };
                let effect = changes_state(def);
                for &h in &calls.direct[g] {
                    let h = h as usize;
                    if h >= n || h == g {
                        continue;
                    }
                    total[h] += 1;
                    if memoized(g) {
                        in_memo[h] += 1;
                    } else if effect {
                        in_effect[h] += 1;
                    }
                }
            }
            // Whether a function calls a memoized one, following calls.
            let calls_memo: Vec<bool> = (0..n)
                .map(|f| calls.reached(f).any(|h| h != f && memoized(h)))
                .collect();
            let demote: Vec<bool> = (0..n)
                .map(|f| {
                    memoized(f)
                        && !calls_memo[f]
                        && in_memo[f] > 0
                        && in_memo[f] + in_effect[f] == total[f]
                })
                .collect();
            if demote.iter().any(|&d| d) {
                probe.memo_funcs = (0..memo_info.len())
                    .map(|f| memoized(f) && !demote.get(f).copied().unwrap_or(false))
                    .collect();
                let inline: Vec<bool> = (0..n)
                    .map(|f| demote[f] && crate::pure::inlinable(&probe, f as crate::expr::FuncId))
                    .collect();
                for (f, d) in inline.into_iter().enumerate() {
                    if d {
                        memo_info[f] = None;
                    }
                }
            }
        }
        // Units too: their entries take the parent epoch's check (`memo.rs`).
        initial.track = memo_info.iter().any(Option::is_some);
        let formulas_before = crate::pure::formula_ids();
        let mut compiler = crate::compile::Compiler {
            units,
            memo_funcs: memo_info.iter().map(Option::is_some).collect(),
            record: memo_info.iter().any(Option::is_some),
            ..crate::compile::Compiler::new(tables)
        };
        for _ in 0..4 {
            let known = compiler.bool_funcs();
            if known == compiler.bool_funcs {
                break;
            }
            compiler.bool_funcs = known;
        }
        compiler.pure_bodies = (0..funcs.len())
            .map(|f| crate::pure::body(&compiler, f as crate::expr::FuncId).is_some())
            .collect();
        let cfuncs = funcs
            .iter()
            .enumerate()
            .map(|(i, f)| {
                f.as_ref()
                    .map(|f| compiler.func(i as crate::expr::FuncId, f))
            })
            .collect();
        let mut compile = |se: &mut SrcExpr| se.code = compiler.code(&se.expr);
        for r in &mut rules {
            compiler
                .new_call_slots
                .set(crate::compile::NewCallSlots::All);
            r.to_locations.iter_mut().for_each(&mut compile);
            r.condition.iter_mut().for_each(&mut compile);
            compiler
                .new_call_slots
                .set(crate::compile::NewCallSlots::None);
            r.followup.iter_mut().for_each(&mut compile);
            for (a, w) in &mut r.bonuses {
                compile(a);
                compile(w);
            }
        }
        // Scorings and end-of-game checks partially evaluated first (`specialize.rs`).
        let special = crate::specialize::Specializer::new(
            &funcs,
            &templates,
            &syms,
            &sym_map,
            &sym_loc,
            &sym_elem,
            locations
                .iter()
                .map(|l| ltype_sym[l.location_type])
                .collect(),
            elements.iter().map(|e| etype_sym[e.element_type]).collect(),
            sym_map[""],
            &dead,
        );
        // `toLocations` specialized per `from` location.
        compiler
            .new_call_slots
            .set(crate::compile::NewCallSlots::All);
        for r in &mut rules {
            let Some(tl) = &r.to_locations else { continue };
            let readable = r.bound_before_targets();
            let special: Box<[_]> = r
                .from_match
                .iter()
                .map(|fb| {
                    fb.as_ref().map_or(crate::compile::FromTargets::None, |fb| {
                        compiler.code_targets(special.targets(&tl.expr, fb, &readable))
                    })
                })
                .collect();
            if special
                .iter()
                .any(|t| !matches!(t, crate::compile::FromTargets::None))
            {
                let needs: Box<[_]> = special
                    .iter()
                    .map(|t| match t {
                        crate::compile::FromTargets::Regs {
                            closed: true,
                            needs,
                            ..
                        } => *needs,
                        _ => None,
                    })
                    .collect();
                if !r.element_independent && needs.iter().any(Option::is_some) {
                    r.from_gate = FromGate::table(&r.from_match, &needs);
                }
                r.to_special = special;
            }
        }
        // The parts `B` (per target) and `A` (per element or `from`
        // location) of hoisted conditions. (A condition tabulated later,
        // `Game::tabulate_fixed_conditions`, is looked up before these.)
        for r in &mut rules {
            let Some(c) = r.condition.clone() else {
                continue;
            };
            if !(r.hoist_first_conjunct || r.hoist_call) {
                continue;
            }
            let checks: Box<[_]> = r
                .to_matches
                .iter()
                .map(|(l, tb)| compiler.code_check(special.right_side(&c.expr, tb, *l)))
                .collect();
            if checks
                .iter()
                .any(|t| !matches!(t, crate::compile::ConditionPart::None))
            {
                r.simple_right = r
                    .to_matches
                    .iter()
                    .zip(checks.iter())
                    .map(|((l, _), t)| match *t {
                        crate::compile::ConditionPart::Const(b) => {
                            Some((*l, TargetTest::constant(b, *l)))
                        }
                        crate::compile::ConditionPart::Empty { l: at, empty } => {
                            Some((*l, TargetTest::empty(at, empty)))
                        }
                        _ => None,
                    })
                    .collect::<Option<Box<[_]>>>()
                    .map(SimpleTargets::new);
                r.right_special = checks;
            }
            r.left_special = left_checks(r, &c.expr, &special, &compiler);
            r.left_precheck = (r.hoist_first_conjunct || r.hoist_call)
                && r.left_special.any(|t| t.precheckable(r.player));
            r.left_flat = r.left_precheck && !r.left_special.any(|t| !t.is_flat());
            r.flat_left = if r.left_flat {
                crate::compile::FlatChecks::of(&r.left_special)
            } else {
                None
            };
            r.call_index = r.flat_left.as_ref().and_then(|f| {
                let from_matches: Vec<bool> = r.from_match.iter().map(Option::is_some).collect();
                f.call_index(&from_matches, r.elem_matches.len())
            });
        }
        // Scorings, end-of-game checks and evaluations, after the rules so
        // that their closed calls take the slots the rules' calls have. They
        // run once a position: a closed call gets a slot of its own only
        // when its value can be taken from the parent position, which needs
        // a game whose states track what changed anyway (a game tracking
        // for them alone was slower: `frogs` +6 %).
        // Kept counts, scans and formulas (`pure::ElemCount`,
        // `pure::KeptScan`, `pure::KeptFormula`) are updated from the
        // parent epoch's by what changed since (`State::changed`), so a game
        // with one tracks changes. (Formula ids are handed out process-wide:
        // one made for another game compiled meanwhile only turns tracking
        // on for nothing.)
        let keeps = |c: &crate::compile::Compiler<'_>| {
            c.count_slots.get() != 0
                || c.scan_slots.get() != 0
                || crate::pure::formula_ids() != formulas_before
        };
        compiler
            .new_call_slots
            .set(if initial.track || keeps(&compiler) {
                crate::compile::NewCallSlots::KnownReads
            } else {
                crate::compile::NewCallSlots::None
            });
        {
            let mut moved: Vec<u64> = rules
                .iter()
                .flat_map(|r| &r.elem_matches)
                .map(|&(e, _)| crate::state::location_bit(e as usize))
                .collect();
            moved.sort_unstable();
            moved.dedup();
            *compiler.moved_bits.borrow_mut() = moved;
        }
        let mut compile_special =
            |se: &mut SrcExpr| se.code = compiler.code_special(&se.expr, special.top(&se.expr));
        for s in &mut scorings {
            compile_special(&mut s.situation);
            s.players.iter_mut().for_each(&mut compile_special);
            s.scores.iter_mut().for_each(&mut compile_special);
        }
        for e in &mut ends {
            let regs;
            (e.situation.code, regs) =
                compiler.code_end(&e.situation.expr, special.top(&e.situation.expr));
            compile_special(&mut e.winner);
            e.fast = match compiler.kept_test(&e.situation.expr) {
                Some(k) => Some(EndTest::Kept(k)),
                None => compiler
                    .position_test(&e.situation.expr)
                    .filter(|t| {
                        !matches!(
                            t,
                            crate::compile::ConditionPart::Attr {
                                rhs: crate::compile::CheckRhs::Var(_),
                                ..
                            }
                        )
                    })
                    .map(EndTest::Position),
            };
            e.regs = regs.map(EndRegs);
        }
        for e in &mut evaluations {
            e.value.code = compiler.code(&e.value.expr);
        }
        compiler
            .new_call_slots
            .set(crate::compile::NewCallSlots::None);
        // (Asked again: the checks just compiled may have made some.)
        if keeps(&compiler) {
            initial.track = true;
        }
        // Memo entries and the values of closed inlined calls
        // (`pure::CallCache`) are kept per epoch.
        let renews_epochs = initial.track || !compiler.call_slots.borrow().is_empty();
        // A move's own followup is the deferred call of a `[target,
        // Followup(..)]` pair, which only a lazy set (`Expr::Lazy`) makes.
        let mut lazy = false;
        let mut find_lazy = |se: &SrcExpr| {
            se.expr
                .walk(&mut |x| lazy |= matches!(x, crate::expr::Expr::Lazy(_)))
        };
        for_each_outside_expr(&rules, &scorings, &ends, &evaluations, &mut find_lazy);
        funcs
            .iter()
            .flatten()
            .flat_map(|f| &f.body)
            .for_each(&mut find_lazy);
        let moves_without_followups = rules.iter().all(|r| r.to_locations.is_none()) || !lazy;
        let sym_indexed = syms
            .iter()
            .map(|t| {
                split_indexes(t).map(|(base, idx)| Indexed {
                    base: match sym_map.get(base) {
                        Some(&s) => Str::Sym(s),
                        None => Str::Dyn(Arc::new(base.to_string())),
                    },
                    idx,
                })
            })
            .collect();
        let mut game = Game {
            name,
            file,
            board_image,
            realboard,
            element_types,
            location_types,
            locations,
            elements,
            players,
            initial_score,
            functions,
            rules,
            scorings,
            ends,
            evaluations,
            warnings,
            empty_sym: sym_map[""],
            syms,
            sym_map,
            sym_loc,
            sym_elem,
            loc_singletons: loc_sym
                .iter()
                .map(|&s| Arc::new(vec![crate::value::Value::Str(crate::value::Str::Sym(s))]))
                .collect(),
            loc_sym,
            elem_sym,
            etype_sym,
            ltype_sym,
            var_names,
            func_names,
            funcs,
            cfuncs,
            renews_epochs,
            moves_without_followups,
            memo_info,
            dead,
            id: {
                static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
                NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            },
            templates,
            sym_indexed,
            meta,
            initial,
            has_bonuses,
            loc_by_name,
            elem_by_name,
        };
        game.tabulate_fixed_conditions();
        game.unbind_unread_pattern_variables();
        game
    }

    /// Leaves out of the rules' pattern bindings (`elem_matches`,
    /// `from_match`, `to_matches`) the variables no expression mentions —
    /// in the user functions, the rules' targets, conditions, followups and
    /// bonuses, the scorings, end conditions and evaluations: move
    /// generation and application then do not bind them (`nim`'s `$K` of
    /// `to=bin($K)`). Nothing can read such a variable, so what it holds
    /// cannot matter. Run once everything else that looks at the bindings
    /// at load is done (the specializations, the tabulated conditions).
    fn unbind_unread_pattern_variables(&mut self) {
        let mut read = rustc_hash::FxHashSet::default();
        for_each_outside_expr(
            &self.rules,
            &self.scorings,
            &self.ends,
            &self.evaluations,
            |se| crate::memo::mentions(&se.expr, &self.templates, &mut read),
        );
        for f in self.funcs.iter().flatten() {
            for line in &f.body {
                crate::memo::mentions(&line.expr, &self.templates, &mut read);
            }
        }
        let keep = |b: &mut Bindings| b.retain(|x| read.contains(&x.0));
        for r in &mut self.rules {
            r.elem_matches.iter_mut().for_each(|(_, b)| keep(b));
            r.from_match.iter_mut().flatten().for_each(keep);
            r.to_matches.iter_mut().for_each(|(_, b)| keep(b));
        }
    }
}

/// Whether `LOCTYPE(LOCATION(..))` may be held as the index of a location
/// type (`pure::Ty::LType`): no location and no location type is named `""`
/// (the symbol `empty`), and no two location types share a name, so that
/// equal indices are exactly equal names.
pub(crate) fn ltypes_sound(sym_loc: &[u16], ltype_sym: &[Sym], empty: Sym) -> bool {
    sym_loc.get(empty as usize).is_none_or(|&l| l == u16::MAX) && types_distinct(ltype_sym, empty)
}

/// Whether no type name (`names`) is `""` (the symbol `empty`) and no two
/// types share a name: then types compare as their indices
/// (`pure::Ty::LType`, `pure::Ty::EType`).
pub(crate) fn types_distinct(names: &[Sym], empty: Sym) -> bool {
    let mut seen: Vec<Sym> = names.to_vec();
    seen.sort_unstable();
    seen.dedup();
    !names.contains(&empty) && seen.len() == names.len()
}
