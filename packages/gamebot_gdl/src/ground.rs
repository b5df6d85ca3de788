//! Grounding: instantiates every clause over the reachable domains.
//!
//! The domains are found by a relaxed bottom-up fixpoint that ignores negation,
//! reads `true(t)` as "t is an `init` or `next` fact" and `does(r, m)` as "
//! `legal(r, m)` is a fact": every ground atom that can hold in some reachable
//! state is in the relaxed model (an over-approximation). Each clause is then
//! instantiated with every binding of its positive literals in that model;
//! negated atoms outside the model are always false and drop out.

use crate::error::GdlError;
use crate::syntax::{kw, Atom, Clause, FLit, Sym, Term};
use rustc_hash::{FxHashMap, FxHashSet};

/// Limit on ground atoms.
pub const MAX_ATOMS: usize = 1_000_000;
/// Limit on ground rules.
pub const MAX_RULES: usize = 4_000_000;

/// A ground term (arguments are ids in [`Terms`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GTerm {
    Const(Sym),
    Func(Sym, Box<[u32]>),
}

/// Deepest nesting of function terms in the reachable domains (deeper means
/// an unbounded domain, e.g. a counter `(next (c (f ?x)))` without a limit).
pub const MAX_TERM_DEPTH: u16 = 40;

/// Hash-consed ground terms.
#[derive(Clone, Debug, Default)]
pub struct Terms {
    pub list: Vec<GTerm>,
    depth: Vec<u16>,
    map: FxHashMap<GTerm, u32>,
}

impl Terms {
    pub fn intern(&mut self, t: GTerm) -> u32 {
        if let Some(&i) = self.map.get(&t) {
            return i;
        }
        let i = self.list.len() as u32;
        let d = match &t {
            GTerm::Const(_) => 0,
            GTerm::Func(_, a) => 1 + a.iter().map(|&x| self.depth[x as usize]).max().unwrap_or(0),
        };
        self.depth.push(d);
        self.list.push(t.clone());
        self.map.insert(t, i);
        i
    }
    pub fn get(&self, t: &GTerm) -> Option<u32> {
        self.map.get(t).copied()
    }
}

/// A ground atom: relation and argument term ids.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GAtom {
    pub rel: Sym,
    pub args: Box<[u32]>,
}

/// A ground rule: head atom, positive and negative body atoms (atom ids).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GRule {
    pub head: u32,
    pub pos: Vec<u32>,
    pub neg: Vec<u32>,
}

/// The ground program.
#[derive(Debug, Default)]
pub struct Ground {
    pub terms: Terms,
    pub atoms: Vec<GAtom>,
    pub atom_map: FxHashMap<GAtom, u32>,
    pub by_rel: FxHashMap<Sym, Vec<u32>>,
    pub rules: Vec<GRule>,
}

impl Ground {
    fn add(&mut self, a: GAtom) -> Result<(u32, bool), GdlError> {
        if let Some(&i) = self.atom_map.get(&a) {
            return Ok((i, false));
        }
        if self.atoms.len() >= MAX_ATOMS {
            return Err(GdlError::TooLarge(format!(
                "more than {MAX_ATOMS} ground atoms"
            )));
        }
        let i = self.atoms.len() as u32;
        self.by_rel.entry(a.rel).or_default().push(i);
        self.atoms.push(a.clone());
        self.atom_map.insert(a, i);
        Ok((i, true))
    }

    /// Adds an atom of the relaxed model and what it implies (`init`/`next` -> `true`,
    /// `legal` -> `does`). Returns whether anything was new.
    fn add_relaxed(&mut self, a: GAtom) -> Result<bool, GdlError> {
        if a.args
            .iter()
            .any(|&t| self.terms.depth[t as usize] > MAX_TERM_DEPTH)
        {
            return Err(GdlError::TooLarge(format!(
                "terms nested deeper than {MAX_TERM_DEPTH} levels (an unbounded domain?)"
            )));
        }
        let rel = a.rel;
        let args = a.args.clone();
        let (_, new) = self.add(a)?;
        if new {
            match rel {
                kw::INIT | kw::NEXT => {
                    self.add(GAtom {
                        rel: kw::TRUE,
                        args,
                    })?;
                }
                kw::LEGAL => {
                    self.add(GAtom {
                        rel: kw::DOES,
                        args,
                    })?;
                }
                _ => {}
            }
        }
        Ok(new)
    }

    pub fn atom_id(&self, a: &GAtom) -> Option<u32> {
        self.atom_map.get(a).copied()
    }
}

/// A clause prepared for joining: positive literals in join order.
struct Prepared<'c> {
    clause: &'c Clause,
    order: Vec<&'c Atom>,
}

fn prepare(c: &Clause) -> Prepared<'_> {
    let mut pos: Vec<&Atom> = c
        .body
        .iter()
        .filter_map(|l| match l {
            FLit::Pos(a) => Some(a),
            _ => None,
        })
        .collect();
    // Greedy: next the literal with the fewest unbound variables (ground first);
    // among equals, non-state relations (usually small static tables) first.
    let mut bound: FxHashSet<u32> = FxHashSet::default();
    let mut order = Vec::new();
    while !pos.is_empty() {
        let (i, _) = pos
            .iter()
            .enumerate()
            .min_by_key(|(_, a)| {
                let v = a.vars();
                let unbound = v.iter().filter(|x| !bound.contains(x)).count();
                (unbound, a.rel == kw::TRUE || a.rel == kw::DOES)
            })
            .expect("non-empty");
        let a = pos.remove(i);
        bound.extend(a.vars());
        order.push(a);
    }
    Prepared { clause: c, order }
}

/// Matches a pattern against a ground term, extending the binding (undone by `trail`).
fn unify(terms: &Terms, p: &Term, g: u32, bind: &mut [Option<u32>], trail: &mut Vec<u32>) -> bool {
    match p {
        Term::Var(v) => match bind[*v as usize] {
            Some(x) => x == g,
            None => {
                bind[*v as usize] = Some(g);
                trail.push(*v);
                true
            }
        },
        Term::Const(s) => terms.list[g as usize] == GTerm::Const(*s),
        Term::Func(f, args) => match &terms.list[g as usize] {
            GTerm::Func(h, gargs) if h == f && gargs.len() == args.len() => args
                .iter()
                .zip(gargs.iter())
                .all(|(a, &b)| unify(terms, a, b, bind, trail)),
            _ => false,
        },
    }
}

/// The ground term of a pattern under a binding (interning new compound terms).
fn instantiate(terms: &mut Terms, t: &Term, bind: &[Option<u32>]) -> Option<u32> {
    Some(match t {
        Term::Var(v) => bind[*v as usize]?,
        Term::Const(s) => terms.intern(GTerm::Const(*s)),
        Term::Func(f, args) => {
            let mut a = Vec::with_capacity(args.len());
            for x in args {
                a.push(instantiate(terms, x, bind)?);
            }
            terms.intern(GTerm::Func(*f, a.into_boxed_slice()))
        }
    })
}

fn instantiate_atom(terms: &mut Terms, a: &Atom, bind: &[Option<u32>]) -> Option<GAtom> {
    let mut args = Vec::with_capacity(a.args.len());
    for t in &a.args {
        args.push(instantiate(terms, t, bind)?);
    }
    Some(GAtom {
        rel: a.rel,
        args: args.into_boxed_slice(),
    })
}

/// What [`join`] calls with each complete binding.
type Visit<'a> = dyn FnMut(&mut Ground, &[Option<u32>]) -> Result<(), GdlError> + 'a;

/// Calls `f` with every binding of the clause's positive literals in `g`'s atoms.
fn join(
    g: &mut Ground,
    p: &Prepared,
    k: usize,
    bind: &mut Vec<Option<u32>>,
    f: &mut Visit,
) -> Result<(), GdlError> {
    if k == p.order.len() {
        return f(g, bind);
    }
    let a = p.order[k];
    // All arguments bound: one lookup.
    if a.args.iter().all(|t| {
        let mut v = Vec::new();
        t.vars(&mut v);
        v.iter().all(|x| bind[*x as usize].is_some())
    }) {
        if let Some(ga) = instantiate_atom(&mut g.terms, a, bind) {
            if g.atom_map.contains_key(&ga) {
                join(g, p, k + 1, bind, f)?;
            }
        }
        return Ok(());
    }
    let n = g.by_rel.get(&a.rel).map_or(0, Vec::len);
    let mut trail = Vec::new();
    for i in 0..n {
        let id = g.by_rel[&a.rel][i];
        trail.clear();
        let args = &g.atoms[id as usize].args;
        let ok = args.len() == a.args.len()
            && a.args
                .iter()
                .zip(args.iter())
                .all(|(t, &x)| unify(&g.terms, t, x, bind, &mut trail));
        if ok {
            join(g, p, k + 1, bind, f)?;
        }
        for v in &trail {
            bind[*v as usize] = None;
        }
    }
    Ok(())
}

/// Whether the `distinct`/`same` literals hold under a complete binding.
fn tests_hold(terms: &mut Terms, c: &Clause, bind: &[Option<u32>]) -> bool {
    for l in &c.body {
        match l {
            FLit::Distinct(x, y, _)
                if instantiate(terms, x, bind) == instantiate(terms, y, bind) =>
            {
                return false;
            }
            FLit::Same(x, y, _) if instantiate(terms, x, bind) != instantiate(terms, y, bind) => {
                return false;
            }
            _ => {}
        }
    }
    true
}

/// Grounds the clauses (which passed the static checks).
pub fn ground(clauses: &[Clause]) -> Result<Ground, GdlError> {
    let mut g = Ground::default();
    let prepared: Vec<Prepared> = clauses.iter().map(prepare).collect();
    // Relaxed fixpoint.
    loop {
        let mut changed = false;
        for p in &prepared {
            let mut heads: Vec<GAtom> = Vec::new();
            let mut bind = vec![None; p.clause.nvars as usize];
            join(&mut g, p, 0, &mut bind, &mut |g, b| {
                if tests_hold(&mut g.terms, p.clause, b) {
                    if let Some(h) = instantiate_atom(&mut g.terms, &p.clause.head, b) {
                        heads.push(h);
                    }
                }
                Ok(())
            })?;
            for h in heads {
                changed |= g.add_relaxed(h)?;
            }
        }
        if !changed {
            break;
        }
    }
    // Instantiation.
    let mut rules: FxHashSet<GRule> = FxHashSet::default();
    let mut ordered = Vec::new();
    for p in &prepared {
        let mut bind = vec![None; p.clause.nvars as usize];
        let mut out: Vec<GRule> = Vec::new();
        join(&mut g, p, 0, &mut bind, &mut |g, b| {
            if !tests_hold(&mut g.terms, p.clause, b) {
                return Ok(());
            }
            let Some(h) = instantiate_atom(&mut g.terms, &p.clause.head, b) else {
                return Ok(());
            };
            let Some(head) = g.atom_id(&h) else {
                return Ok(());
            };
            let mut pos = Vec::new();
            let mut neg = Vec::new();
            for l in &p.clause.body {
                match l {
                    FLit::Pos(a) => {
                        if let Some(x) =
                            instantiate_atom(&mut g.terms, a, b).and_then(|x| g.atom_id(&x))
                        {
                            pos.push(x);
                        }
                    }
                    FLit::Neg(a) => {
                        if let Some(x) =
                            instantiate_atom(&mut g.terms, a, b).and_then(|x| g.atom_id(&x))
                        {
                            neg.push(x);
                        }
                    }
                    _ => {}
                }
            }
            pos.sort_unstable();
            pos.dedup();
            neg.sort_unstable();
            neg.dedup();
            out.push(GRule { head, pos, neg });
            if out.len() > MAX_RULES {
                return Err(GdlError::TooLarge(format!(
                    "more than {MAX_RULES} ground rules"
                )));
            }
            Ok(())
        })?;
        for r in out {
            if rules.insert(r.clone()) {
                ordered.push(r);
                if ordered.len() > MAX_RULES {
                    return Err(GdlError::TooLarge(format!(
                        "more than {MAX_RULES} ground rules"
                    )));
                }
            }
        }
    }
    g.rules = ordered;
    Ok(g)
}
