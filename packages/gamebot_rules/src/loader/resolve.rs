//! Phase 2: records → resolved names. Elements get their type and starting
//! location, every name is interned, functions are indexed (the last
//! definition of a name wins), rules have their patterns matched against every
//! element and location once, and scorings, ends and evaluations are paired up.

use super::*;
use crate::lexer::pattern_pieces;
use crate::pattern::Pattern;

impl Loader<'_> {
    /// Resolves each element's type and initial location.
    pub(super) fn resolve_elements(&mut self) -> Vec<Element> {
        let mut elements = Vec::with_capacity(self.elements.len());
        let mut occupied: FxHashMap<usize, String> = FxHashMap::default();
        let elem_recs = std::mem::take(&mut self.elements);
        for r in &elem_recs {
            let etype = match &r.etype {
                None => {
                    self.err(r.line, 1, format!("element `{}` has no `type=`", r.name));
                    None
                }
                Some(v) => match self.etype_map.get(&v.text) {
                    Some(&t) => Some(t),
                    None => {
                        self.err(
                            v.line,
                            v.col,
                            format!("element `{}`: unknown element type `{}`", r.name, v.text),
                        );
                        None
                    }
                },
            };
            let loc = match &r.location {
                None => {
                    self.err(
                        r.line,
                        1,
                        format!("element `{}` has no `location=`", r.name),
                    );
                    None
                }
                Some(v) => match self.loc_map.get(&v.text) {
                    Some(&l) => {
                        if let Some(other) = occupied.insert(l, r.name.clone()) {
                            self.err(
                                v.line,
                                v.col,
                                format!(
                                    "elements `{other}` and `{}` both start on `{}`",
                                    r.name, v.text
                                ),
                            );
                        }
                        Some(l)
                    }
                    None => {
                        self.err(
                            v.line,
                            v.col,
                            format!("element `{}`: unknown location `{}`", r.name, v.text),
                        );
                        None
                    }
                },
            };
            if let (Some(t), Some(l)) = (etype, loc) {
                elements.push(Element {
                    name: r.name.clone(),
                    element_type: t,
                    location: l as LocationId,
                    owner: r.owner,
                    state: r.state,
                    zindex: r.zindex,
                    line: r.line,
                });
            }
        }
        elements
    }

    /// Interns every name so expressions compare them as symbols.
    pub(super) fn intern_names(&mut self, locations: &[Location], elements: &[Element]) {
        for n in locations
            .iter()
            .map(|l| &l.name)
            .chain(elements.iter().map(|e| &e.name))
        {
            self.names.sym(n);
        }
        for n in self
            .element_types
            .iter()
            .map(|t| t.name.clone())
            .chain(self.location_types.iter().map(|t| t.name.clone()))
            .collect::<Vec<_>>()
        {
            self.names.sym(&n);
        }
    }

    /// The functions in file order, and per function name its last definition.
    pub(super) fn resolve_functions(&mut self) -> (Vec<Function>, Vec<Option<Function>>) {
        let functions: Vec<Function> = std::mem::take(&mut self.functions)
            .into_iter()
            .map(|f| Function {
                name: f.name,
                params: f.params,
                body: f.body,
                line: f.line,
            })
            .collect();
        for f in &functions {
            self.names.func(&f.name);
        }
        let mut funcs: Vec<Option<Function>> = vec![None; self.names.func_names.len()];
        for f in &functions {
            funcs[self.names.func_map[&f.name] as usize] = Some(f.clone());
        }
        (functions, funcs)
    }

    /// Rules with their patterns matched; a rule that cannot be built is reported and dropped.
    pub(super) fn resolve_rules(
        &mut self,
        elements: &[Element],
        locations: &[Location],
    ) -> Vec<Rule> {
        let mut rules = Vec::new();
        for r in std::mem::take(&mut self.rules) {
            if let Some(rule) = self.build_rule(r, elements, locations) {
                rules.push(rule);
            }
        }
        rules
    }

    pub(super) fn resolve_scorings(&mut self) -> Vec<Scoring> {
        let mut scorings = Vec::new();
        for s in std::mem::take(&mut self.scorings) {
            if !s.failed && s.players.len() != s.scores.len() {
                self.err(
                    s.line,
                    1,
                    format!(
                        "scoring has {} `player=` but {} `score=` entries; they pair up",
                        s.players.len(),
                        s.scores.len()
                    ),
                );
            }
            scorings.push(Scoring {
                situation: s.situation,
                players: s.players,
                scores: s.scores,
            });
        }
        scorings
    }

    pub(super) fn resolve_ends(&mut self) -> Vec<EndCondition> {
        let mut ends = Vec::new();
        for (sit, win, line) in std::mem::take(&mut self.ends) {
            match win {
                Some(w) => ends.push(EndCondition {
                    situation: sit,
                    winner: w,
                    fast: None,
                    regs: None,
                }),
                None => self.warn(
                    line,
                    1,
                    "end-of-game `situation=` without a `winner=` is ignored",
                ),
            }
        }
        ends
    }

    pub(super) fn resolve_evaluations(&mut self) -> Vec<Evaluation> {
        let mut evaluations = Vec::new();
        for (p, v, line) in std::mem::take(&mut self.evaluations) {
            match v {
                Some(value) if p >= 1 && p as usize <= self.players.len() => {
                    evaluations.push(Evaluation { player: p, value })
                }
                Some(_) => self.err(line, 1, format!("[EVALUATION] player {p} does not exist")),
                None => self.err(line, 1, "[EVALUATION] record without `value=`"),
            }
        }
        evaluations
    }

    fn pattern(&mut self, v: &Val) -> Option<Pattern> {
        match pattern_pieces(&v.text) {
            Ok(pieces) => {
                let names = &mut self.names;
                let p = Pattern::new(&v.text, &pieces, |n| names.var(n));
                if p.has_literal_digits() {
                    self.warn(v.line, v.col, format!("pattern `{}` has literal digits besides its variables and can never match", v.text));
                }
                Some(p)
            }
            Err(e) => {
                self.err(v.line, v.col + e.col - 1, e.message);
                None
            }
        }
    }

    fn build_rule(
        &mut self,
        r: RuleRec,
        elements: &[Element],
        locations: &[Location],
    ) -> Option<Rule> {
        let (Some(ev), Some(fv)) = (r.element.clone(), r.from.clone()) else {
            self.err(
                r.line,
                1,
                format!("rule `{}` needs `element=` and `from=`", r.name),
            );
            return None;
        };
        if r.to.is_none() && r.to_locations.is_none() {
            self.err(
                r.line,
                1,
                format!("rule `{}` needs `to=` or `toLocations=`", r.name),
            );
            return None;
        }
        if r.award.len() != r.with.len() {
            self.err(
                r.line,
                1,
                format!(
                    "rule `{}` has {} awardPlayer= but {} withScore=",
                    r.name,
                    r.award.len(),
                    r.with.len()
                ),
            );
        }
        let element = self.pattern(&ev)?;
        let from = self.pattern(&fv)?;
        let to = match &r.to {
            Some(v) => Some(self.pattern(v)?),
            None => None,
        };
        let mut elem_matches = Vec::new();
        let mut elem_index = vec![u32::MAX; elements.len()];
        for (i, e) in elements.iter().enumerate() {
            if let Some(b) = element.matches(&e.name) {
                elem_index[i] = elem_matches.len() as u32;
                elem_matches.push((i as ElementId, b));
            }
        }
        let from_match: Vec<_> = locations.iter().map(|l| from.matches(&l.name)).collect();
        let mut to_matches = Vec::new();
        let mut to_index = vec![u32::MAX; locations.len()];
        for (i, l) in locations.iter().enumerate() {
            let m = match &to {
                Some(p) => p.matches(&l.name),
                None => Some(Default::default()),
            };
            if let Some(b) = m {
                to_index[i] = to_matches.len() as u32;
                to_matches.push((i as LocationId, b));
            }
        }
        if elem_matches.is_empty() {
            self.warn(
                ev.line,
                ev.col,
                format!(
                    "rule `{}`: element pattern `{}` matches no element",
                    r.name, ev.text
                ),
            );
        }
        let from_gate = crate::game::FromGate::table(&from_match, &[]);
        Some(Rule {
            name: r.name,
            line: r.line,
            element,
            from,
            to,
            to_locations: r.to_locations,
            condition: r.condition,
            followup: r.followup,
            player: r.player.map(|p| p.0).unwrap_or(Filter::Any),
            state: r.state.map(|p| p.0).unwrap_or(Filter::Any),
            bonuses: r.award.into_iter().zip(r.with).collect(),
            elem_matches,
            elem_index,
            from_match,
            to_matches,
            to_index,
            element_independent: false,
            hoist_first_conjunct: false,
            hoist_call: false,
            share_call_targets: false,
            gen_clear: Vec::new(),
            apply_clear: Vec::new(),
            known_binds: None,
            to_key: 0,
            fixed: None,
            gate: None,
            to_special: Box::default(),
            from_gate,
            right_special: Box::default(),
            simple_right: None,
            left_flat: false,
            flat_left: None,
            call_index: None,
            left_special: Default::default(),
            left_precheck: false,
            silent: false,
        })
    }
}
