//! The compiled reasoner: a ground program evaluated in topological order.
//!
//! After grounding, atoms that depend on neither `true` nor `does` are static:
//! they are evaluated once and folded into the rules. The remaining dynamic
//! rules are ordered by the strongly connected components of the ground
//! dependency graph (a propositional network in evaluation order; a recursive
//! component is iterated to its least fixpoint, which is sound because negation
//! is stratified). Three programs are cut from it, each the cone of influence of
//! its outputs: `terminal` + `legal` (evaluated whenever a state is loaded),
//! `goal`, and `next` (evaluated after the joint move is set on the `does` inputs).
//!
//! A state is a bit set over the base propositions (every `t` of a reachable
//! `true(t)`) with a Zobrist hash.

use crate::error::{Diagnostic, GdlError, Pos, Result};
use crate::ground::{GAtom, GTerm, Ground, Terms};
use crate::kif::{self, SExpr};
use crate::syntax::{kw, Description, Symbols};
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};

/// A move of a role: a ground term of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub u32);

/// A position: the base propositions that hold, as a bit set, with its Zobrist hash.
#[derive(Clone, Debug, Eq)]
pub struct State {
    bits: Box<[u64]>,
    hash: u64,
}

impl PartialEq for State {
    fn eq(&self, o: &State) -> bool {
        self.hash == o.hash && self.bits == o.bits
    }
}

impl Hash for State {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.hash);
    }
}

impl State {
    /// The Zobrist hash (xor of the keys of the propositions that hold).
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Whether base proposition `i` holds.
    pub fn get(&self, i: usize) -> bool {
        self.bits[i / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, i: usize) {
        self.bits[i / 64] |= 1 << (i % 64);
    }
    /// Indices of the propositions that hold.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &b)| {
            (0..64)
                .filter(move |k| b >> k & 1 == 1)
                .map(move |k| w * 64 + k)
        })
    }
}

/// One evaluation step: an atom with its rules, or a recursive component.
#[derive(Clone, Debug)]
enum Step {
    One {
        atom: u32,
        rules: (u32, u32),
    },
    Loop {
        atoms: (u32, u32),
        rules: (u32, u32),
    },
}

/// A compiled program: steps over shared rule and literal arrays.
#[derive(Clone, Debug, Default)]
struct Program {
    steps: Vec<Step>,
}

/// A legal move entry of a role.
#[derive(Clone, Debug)]
struct LegalEntry {
    legal: u32,
    does: Option<u32>,
    mv: Move,
}

/// Per-thread evaluation memory: the value of every ground atom.
#[derive(Clone, Debug)]
pub struct Scratch {
    vals: Vec<bool>,
    does_set: Vec<u32>,
}

/// Statistics of the compiled form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Size {
    pub atoms: usize,
    pub ground_rules: usize,
    pub dynamic_rules: usize,
    pub base: usize,
}

/// A GDL game, ready to play.
#[derive(Clone, Debug)]
pub struct Game {
    /// Name (the file stem).
    pub name: String,
    syms: Symbols,
    terms: Terms,
    roles: Vec<String>,
    /// Base proposition i: its `true` atom and its term.
    base_true: Vec<u32>,
    base_term: Vec<u32>,
    base_of_term: FxHashMap<u32, usize>,
    zobrist: Vec<u64>,
    init: State,
    /// `next` atom -> base index.
    next_atoms: Vec<(u32, usize)>,
    legal: Vec<Vec<LegalEntry>>,
    goals: Vec<Vec<(u32, u8)>>,
    terminal: Option<u32>,
    does_atoms: Vec<u32>,
    static_vals: Vec<bool>,
    crules: Vec<(u32, u32, u32)>,
    lits: Vec<u32>,
    loop_atoms: Vec<u32>,
    prog_view: Program,
    prog_goal: Program,
    prog_next: Program,
    size: Size,
}

impl Game {
    /// Reads, checks and compiles a GDL file.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Game> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| GdlError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let mut g = Game::parse(&path.display().to_string(), &text)?;
        if let Some(stem) = path.file_stem() {
            g.name = stem.to_string_lossy().into_owned();
        }
        Ok(g)
    }

    /// Reads, checks and compiles a description; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Game> {
        let exprs = kif::read(file, text)?;
        Game::from_sexprs(file, &exprs)
    }

    /// Checks and compiles a description already read.
    pub fn from_sexprs(file: &str, exprs: &[SExpr]) -> Result<Game> {
        let d = Description::from_sexprs(file, exprs).map_err(GdlError::Invalid)?;
        let clauses = d.clauses().map_err(GdlError::Invalid)?;
        let errs = crate::check::check(&d, &clauses);
        if !errs.is_empty() {
            return Err(GdlError::Invalid(errs));
        }
        let g = crate::ground::ground(&clauses)?;
        compile(file, d.syms, g)
    }

    /// The roles, in the order of their `role` facts.
    pub fn roles(&self) -> &[String] {
        &self.roles
    }
    /// Index of a role by name.
    pub fn role_index(&self, name: &str) -> Option<usize> {
        let n = name.to_lowercase();
        self.roles.iter().position(|r| *r == n)
    }
    /// Sizes of the compiled form.
    pub fn size(&self) -> &Size {
        &self.size
    }
    /// The initial state.
    pub fn initial_state(&self) -> State {
        self.init.clone()
    }
    /// Fresh evaluation memory.
    pub fn scratch(&self) -> Scratch {
        Scratch {
            vals: self.static_vals.clone(),
            does_set: Vec::new(),
        }
    }

    fn empty_state(&self) -> State {
        State {
            bits: vec![0u64; self.base_true.len().div_ceil(64)].into_boxed_slice(),
            hash: 0,
        }
    }

    /// The hash recomputed from the bits (for checks).
    pub fn rebuild_hash(&self, st: &State) -> u64 {
        st.ones().fold(0, |h, i| h ^ self.zobrist[i])
    }

    fn run(&self, p: &Program, vals: &mut [bool]) {
        let body = |r: &(u32, u32, u32), vals: &[bool]| {
            self.lits[r.1 as usize..r.2 as usize]
                .iter()
                .all(|&l| vals[(l >> 1) as usize] != (l & 1 == 1))
        };
        for s in &p.steps {
            match *s {
                Step::One { atom, rules } => {
                    let v = self.crules[rules.0 as usize..rules.1 as usize]
                        .iter()
                        .any(|r| body(r, vals));
                    vals[atom as usize] = v;
                }
                Step::Loop { atoms, rules } => {
                    for &a in &self.loop_atoms[atoms.0 as usize..atoms.1 as usize] {
                        vals[a as usize] = false;
                    }
                    loop {
                        let mut changed = false;
                        for r in &self.crules[rules.0 as usize..rules.1 as usize] {
                            if !vals[r.0 as usize] && body(r, vals) {
                                vals[r.0 as usize] = true;
                                changed = true;
                            }
                        }
                        if !changed {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Loads `st` into `sc`: `terminal` and `legal` are then known.
    pub fn load_state(&self, st: &State, sc: &mut Scratch) {
        for (i, &a) in self.base_true.iter().enumerate() {
            sc.vals[a as usize] = st.get(i);
        }
        self.run(&self.prog_view, &mut sc.vals);
    }

    /// After [`Game::load_state`]: whether the state is terminal.
    pub fn loaded_terminal(&self, sc: &Scratch) -> bool {
        self.terminal.is_some_and(|t| sc.vals[t as usize])
    }

    /// After [`Game::load_state`]: the legal moves of `role` as indices into its move table.
    pub fn loaded_legal(&self, sc: &Scratch, role: usize, out: &mut Vec<u32>) {
        out.clear();
        for (i, e) in self.legal[role].iter().enumerate() {
            if sc.vals[e.legal as usize] {
                out.push(i as u32);
            }
        }
    }

    /// The move of a move-table index of `role`.
    pub fn move_of(&self, role: usize, index: u32) -> Move {
        self.legal[role][index as usize].mv
    }

    /// After [`Game::load_state`]: the goal of every role (`None`: no goal holds;
    /// with several, the highest).
    pub fn loaded_goals(&self, sc: &mut Scratch, out: &mut Vec<Option<u8>>) {
        self.run(&self.prog_goal, &mut sc.vals);
        out.clear();
        for g in &self.goals {
            out.push(
                g.iter()
                    .filter(|(a, _)| sc.vals[*a as usize])
                    .map(|(_, v)| *v)
                    .max(),
            );
        }
    }

    /// After [`Game::load_state`]: all goal values that hold for each role.
    pub fn loaded_goal_sets(&self, sc: &mut Scratch) -> Vec<Vec<u8>> {
        self.run(&self.prog_goal, &mut sc.vals);
        self.goals
            .iter()
            .map(|g| {
                g.iter()
                    .filter(|(a, _)| sc.vals[*a as usize])
                    .map(|(_, v)| *v)
                    .collect()
            })
            .collect()
    }

    /// After [`Game::load_state`]: the next state for a joint move given as
    /// move-table indices (one per role, each legal in the loaded state).
    pub fn loaded_next(&self, sc: &mut Scratch, choice: &[u32]) -> State {
        for &a in &sc.does_set {
            sc.vals[a as usize] = false;
        }
        sc.does_set.clear();
        for (r, &i) in choice.iter().enumerate() {
            if let Some(d) = self.legal[r][i as usize].does {
                sc.vals[d as usize] = true;
                sc.does_set.push(d);
            }
        }
        self.run(&self.prog_next, &mut sc.vals);
        let mut st = self.empty_state();
        let mut h = 0;
        for &(a, b) in &self.next_atoms {
            if sc.vals[a as usize] && !st.get(b) {
                st.set(b);
                h ^= self.zobrist[b];
            }
        }
        st.hash = h;
        st
    }

    /// Whether `st` is terminal.
    pub fn is_terminal(&self, st: &State, sc: &mut Scratch) -> bool {
        self.load_state(st, sc);
        self.loaded_terminal(sc)
    }

    /// The legal moves of every role in `st`.
    pub fn legal_moves(&self, st: &State, sc: &mut Scratch) -> Vec<Vec<Move>> {
        self.load_state(st, sc);
        let mut buf = Vec::new();
        (0..self.roles.len())
            .map(|r| {
                self.loaded_legal(sc, r, &mut buf);
                buf.iter().map(|&i| self.move_of(r, i)).collect()
            })
            .collect()
    }

    /// The goal of every role in `st`.
    pub fn goals(&self, st: &State, sc: &mut Scratch) -> Vec<Option<u8>> {
        self.load_state(st, sc);
        let mut out = Vec::new();
        self.loaded_goals(sc, &mut out);
        out
    }

    /// The state after a joint move (one move per role, in role order).
    /// Fails when a move is not legal.
    pub fn next_state(&self, st: &State, joint: &[Move], sc: &mut Scratch) -> Result<State> {
        if joint.len() != self.roles.len() {
            return Err(GdlError::BadMove(format!(
                "{} moves given for {} roles",
                joint.len(),
                self.roles.len()
            )));
        }
        self.load_state(st, sc);
        if self.loaded_terminal(sc) {
            return Err(GdlError::NoMove("the game is over".into()));
        }
        let mut choice = Vec::with_capacity(joint.len());
        for (r, m) in joint.iter().enumerate() {
            let i = self.legal[r]
                .iter()
                .position(|e| e.mv == *m && sc.vals[e.legal as usize])
                .ok_or_else(|| {
                    GdlError::BadMove(format!(
                        "`{}` is not a legal move of {}",
                        self.move_text(*m),
                        self.roles[r]
                    ))
                })?;
            choice.push(i as u32);
        }
        Ok(self.loaded_next(sc, &choice))
    }

    /// The KIF text of a move.
    pub fn move_text(&self, m: Move) -> String {
        self.term_text(m.0)
    }

    /// The KIF text of a ground term.
    pub fn term_text(&self, t: u32) -> String {
        match &self.terms.list[t as usize] {
            GTerm::Const(s) => self.syms.name(*s).to_string(),
            GTerm::Func(f, a) => {
                let mut s = format!("({}", self.syms.name(*f));
                for &x in a.iter() {
                    s.push(' ');
                    s.push_str(&self.term_text(x));
                }
                s.push(')');
                s
            }
        }
    }

    /// The ground term of an S-expression, when the game knows it.
    pub fn term_of(&self, e: &SExpr) -> Option<u32> {
        match e {
            SExpr::Atom(s, _) => self.terms.get(&GTerm::Const(self.syms.get(s)?)),
            SExpr::List(items, _) => {
                let f = self.syms.get(items.first()?.atom()?)?;
                let mut args = Vec::new();
                for x in &items[1..] {
                    args.push(self.term_of(x)?);
                }
                self.terms.get(&GTerm::Func(f, args.into_boxed_slice()))
            }
        }
    }

    /// Parses a move written in KIF (`(mark 1 1)`, `noop`); the move must be one
    /// the game can make for `role` (not necessarily legal now).
    pub fn parse_move(&self, role: usize, text: &str) -> Result<Move> {
        let e = kif::read("move", text).map_err(|d| GdlError::BadMove(d.to_string()))?;
        let [e] = e.as_slice() else {
            return Err(GdlError::BadMove(format!("`{text}` is not a single move")));
        };
        self.move_of_sexpr(role, e).ok_or_else(|| {
            GdlError::BadMove(format!("`{text}` is not a move of {}", self.roles[role]))
        })
    }

    /// The move of `role` written by `e`, when it is one.
    pub fn move_of_sexpr(&self, role: usize, e: &SExpr) -> Option<Move> {
        let t = self.term_of(e)?;
        self.legal[role].iter().find(|x| x.mv.0 == t).map(|x| x.mv)
    }

    /// The propositions that hold in `st`, as KIF text, sorted.
    pub fn state_text(&self, st: &State) -> Vec<String> {
        let mut v: Vec<String> = st
            .ones()
            .map(|i| self.term_text(self.base_term[i]))
            .collect();
        v.sort();
        v
    }

    /// Number of base propositions.
    pub fn base_len(&self) -> usize {
        self.base_true.len()
    }

    /// Every move `role` can ever make.
    pub fn all_moves(&self, role: usize) -> Vec<Move> {
        self.legal[role].iter().map(|e| e.mv).collect()
    }

    /// The state in which exactly the given propositions (KIF text) hold.
    pub fn state_from_text(&self, props: &[&str]) -> Result<State> {
        let mut st = self.empty_state();
        for p in props {
            let e = kif::read("state", p).map_err(|d| GdlError::BadMove(d.to_string()))?;
            let t = e
                .first()
                .and_then(|e| self.term_of(e))
                .and_then(|t| self.base_of_term.get(&t).copied())
                .ok_or_else(|| {
                    GdlError::BadMove(format!("`{p}` is not a proposition of the game"))
                })?;
            if !st.get(t) {
                st.set(t);
                st.hash ^= self.zobrist[t];
            }
        }
        Ok(st)
    }

    /// Number of does inputs (for statistics).
    pub fn does_len(&self) -> usize {
        self.does_atoms.len()
    }
}

/// Compiles a ground program.
fn compile(file: &str, syms: Symbols, g: Ground) -> Result<Game> {
    let n = g.atoms.len();
    let is_input = |a: u32| matches!(g.atoms[a as usize].rel, kw::TRUE | kw::DOES);
    let mut rules_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, r) in g.rules.iter().enumerate() {
        rules_of[r.head as usize].push(i);
    }
    // Strongly connected components of the ground dependency graph, in
    // dependency order (Tarjan emits a component after everything it depends on).
    let comps = tarjan(n, |a, out: &mut Vec<u32>| {
        for &ri in &rules_of[a as usize] {
            let r = &g.rules[ri];
            out.extend(r.pos.iter().copied());
            out.extend(r.neg.iter().copied());
        }
    });
    // Static atoms: no dependency on inputs. Evaluate them exactly.
    let mut dynamic = vec![false; n];
    let mut vals = vec![false; n];
    for comp in &comps {
        let dyn_ = comp.iter().any(|&a| {
            is_input(a)
                || rules_of[a as usize].iter().any(|&ri| {
                    let r = &g.rules[ri];
                    r.pos
                        .iter()
                        .chain(r.neg.iter())
                        .any(|&b| dynamic[b as usize] || is_input(b))
                })
        });
        for &a in comp {
            dynamic[a as usize] = dyn_;
        }
        if !dyn_ {
            // Least fixpoint of the component (negated atoms are in earlier components).
            loop {
                let mut changed = false;
                for &a in comp {
                    if vals[a as usize] {
                        continue;
                    }
                    let v = rules_of[a as usize].iter().any(|&ri| {
                        let r = &g.rules[ri];
                        r.pos.iter().all(|&b| vals[b as usize])
                            && r.neg.iter().all(|&b| !vals[b as usize])
                    });
                    if v {
                        vals[a as usize] = true;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
    }
    // Dynamic rules with static literals folded.
    let mut crules: Vec<(u32, u32, u32)> = Vec::new();
    let mut lits: Vec<u32> = Vec::new();
    let mut loop_atoms: Vec<u32> = Vec::new();
    let mut steps_all: Vec<(Vec<u32>, Step)> = Vec::new();
    for comp in &comps {
        if !dynamic[comp[0] as usize] || comp.iter().all(|&a| is_input(a)) {
            continue;
        }
        let start = crules.len() as u32;
        for &a in comp {
            for &ri in &rules_of[a as usize] {
                let r = &g.rules[ri];
                let mut ok = true;
                let ls = lits.len() as u32;
                for &b in &r.pos {
                    if dynamic[b as usize] {
                        lits.push(b << 1);
                    } else if !vals[b as usize] {
                        ok = false;
                    }
                }
                for &b in &r.neg {
                    if dynamic[b as usize] {
                        lits.push(b << 1 | 1);
                    } else if vals[b as usize] {
                        ok = false;
                    }
                }
                if ok {
                    // `does` literals first: they are false for all but one move, so
                    // most rules of `next` fail at their first literal.
                    lits[ls as usize..]
                        .sort_by_key(|&l| g.atoms[(l >> 1) as usize].rel != kw::DOES);
                    crules.push((a, ls, lits.len() as u32));
                } else {
                    lits.truncate(ls as usize);
                }
            }
        }
        let end = crules.len() as u32;
        let recursive = comp.len() > 1
            || rules_of[comp[0] as usize]
                .iter()
                .any(|&ri| g.rules[ri].pos.contains(&comp[0]));
        let step = if recursive {
            let s = loop_atoms.len() as u32;
            loop_atoms.extend(comp.iter().copied());
            Step::Loop {
                atoms: (s, loop_atoms.len() as u32),
                rules: (start, end),
            }
        } else {
            Step::One {
                atom: comp[0],
                rules: (start, end),
            }
        };
        steps_all.push((comp.clone(), step));
    }
    // Cones of influence.
    let cone = |targets: &[u32], exclude: &[bool]| -> (Program, Vec<bool>) {
        let mut need = vec![false; n];
        let mut todo: Vec<u32> = targets
            .iter()
            .copied()
            .filter(|&a| dynamic[a as usize])
            .collect();
        for &a in &todo {
            need[a as usize] = true;
        }
        while let Some(a) = todo.pop() {
            for &ri in &rules_of[a as usize] {
                let r = &g.rules[ri];
                for &b in r.pos.iter().chain(r.neg.iter()) {
                    if dynamic[b as usize] && !need[b as usize] {
                        need[b as usize] = true;
                        todo.push(b);
                    }
                }
            }
        }
        let steps = steps_all
            .iter()
            .filter(|(comp, _)| {
                comp.iter()
                    .any(|&a| need[a as usize] && !exclude[a as usize])
            })
            .map(|(_, s)| s.clone())
            .collect();
        (Program { steps }, need)
    };
    let rel_atoms = |rel| g.by_rel.get(&rel).cloned().unwrap_or_default();
    // Roles, in order of their facts.
    let mut role_terms = Vec::new();
    for a in rel_atoms(kw::ROLE) {
        if vals[a as usize] {
            role_terms.push(g.atoms[a as usize].args[0]);
        }
    }
    let term_name = |t: u32| -> String {
        match &g.terms.list[t as usize] {
            GTerm::Const(s) => syms.name(*s).to_string(),
            GTerm::Func(..) => format!("#{t}"),
        }
    };
    let roles: Vec<String> = role_terms.iter().map(|&t| term_name(t)).collect();
    let role_of = |t: u32| role_terms.iter().position(|&r| r == t);
    // Base propositions.
    let base_true = rel_atoms(kw::TRUE);
    let base_term: Vec<u32> = base_true
        .iter()
        .map(|&a| g.atoms[a as usize].args[0])
        .collect();
    let base_of_term: FxHashMap<u32, usize> =
        base_term.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x6764_6c5f_7a6f_6272);
    let zobrist: Vec<u64> = (0..base_true.len()).map(|_| rng.gen()).collect();
    let next_atoms: Vec<(u32, usize)> = rel_atoms(kw::NEXT)
        .into_iter()
        .filter_map(|a| {
            base_of_term
                .get(&g.atoms[a as usize].args[0])
                .map(|&b| (a, b))
        })
        .collect();
    let mut init = State {
        bits: vec![0u64; base_true.len().div_ceil(64)].into_boxed_slice(),
        hash: 0,
    };
    for a in rel_atoms(kw::INIT) {
        if vals[a as usize] {
            if let Some(&b) = base_of_term.get(&g.atoms[a as usize].args[0]) {
                if !init.get(b) {
                    init.set(b);
                    init.hash ^= zobrist[b];
                }
            }
        }
    }
    // Legal move tables.
    let mut legal: Vec<Vec<LegalEntry>> = vec![Vec::new(); roles.len()];
    for a in rel_atoms(kw::LEGAL) {
        let at = &g.atoms[a as usize];
        let Some(r) = role_of(at.args[0]) else {
            continue;
        };
        if !dynamic[a as usize] && !vals[a as usize] {
            continue;
        }
        let does = g.atom_id(&GAtom {
            rel: kw::DOES,
            args: at.args.clone(),
        });
        legal[r].push(LegalEntry {
            legal: a,
            does,
            mv: Move(at.args[1]),
        });
    }
    let mut goals: Vec<Vec<(u32, u8)>> = vec![Vec::new(); roles.len()];
    for a in rel_atoms(kw::GOAL) {
        let at = &g.atoms[a as usize];
        let Some(r) = role_of(at.args[0]) else {
            continue;
        };
        let v = term_name(at.args[1]);
        let Ok(v) = v.parse::<u8>() else {
            return Err(GdlError::Invalid(vec![Diagnostic::new(
                file,
                Pos { line: 1, col: 1 },
                format!(
                    "goal value `{v}` of role `{}` is not a number 0..100",
                    roles[r]
                ),
            )]));
        };
        if v > 100 {
            return Err(GdlError::Invalid(vec![Diagnostic::new(
                file,
                Pos { line: 1, col: 1 },
                format!("goal value {v} of role `{}` is above 100", roles[r]),
            )]));
        }
        goals[r].push((a, v));
    }
    let terminal = rel_atoms(kw::TERMINAL).first().copied();
    let does_atoms = rel_atoms(kw::DOES);
    let mut view_targets: Vec<u32> = legal.iter().flatten().map(|e| e.legal).collect();
    view_targets.extend(terminal);
    let none = vec![false; n];
    let (prog_view, view_need) = cone(&view_targets, &none);
    let goal_targets: Vec<u32> = goals.iter().flatten().map(|x| x.0).collect();
    let (prog_goal, _) = cone(&goal_targets, &view_need);
    let next_targets: Vec<u32> = next_atoms.iter().map(|x| x.0).collect();
    let (prog_next, _) = cone(&next_targets, &view_need);
    let size = Size {
        atoms: n,
        ground_rules: g.rules.len(),
        dynamic_rules: crules.len(),
        base: base_true.len(),
    };
    tracing::debug!(?size, "compiled {file}");
    Ok(Game {
        name: file.to_string(),
        syms,
        terms: g.terms,
        roles,
        base_true,
        base_term,
        base_of_term,
        zobrist,
        init,
        next_atoms,
        legal,
        goals,
        terminal,
        does_atoms,
        static_vals: vals,
        crules,
        lits,
        loop_atoms,
        prog_view,
        prog_goal,
        prog_next,
        size,
    })
}

/// Tarjan's strongly connected components, iterative; components come out in
/// reverse topological order of the edges `succ` (a component after all it reaches).
fn tarjan(n: usize, succ: impl Fn(u32, &mut Vec<u32>)) -> Vec<Vec<u32>> {
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on = vec![false; n];
    let mut stack = Vec::new();
    let mut comps = Vec::new();
    let mut next = 0u32;
    let mut adj: Vec<Vec<u32>> = Vec::with_capacity(n);
    for a in 0..n as u32 {
        let mut v = Vec::new();
        succ(a, &mut v);
        adj.push(v);
    }
    for root in 0..n as u32 {
        if index[root as usize] != NONE {
            continue;
        }
        let mut work: Vec<(u32, usize)> = vec![(root, 0)];
        index[root as usize] = next;
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on[root as usize] = true;
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if *i < adj[v as usize].len() {
                let w = adj[v as usize][*i];
                *i += 1;
                if index[w as usize] == NONE {
                    index[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push(w);
                    on[w as usize] = true;
                    work.push((w, 0));
                } else if on[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u as usize] = low[u as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on[w as usize] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comps.push(comp);
                }
            }
        }
    }
    comps
}
