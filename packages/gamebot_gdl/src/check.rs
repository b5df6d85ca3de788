//! Static checks of a description, each error positioned `file:line:col`:
//! arity consistency, keyword placement, rule safety, stratified negation, the
//! GDL recursion restriction, `does`-independence of `init`/`legal`/`goal`/`terminal`,
//! `init` independent of `true`, and a `legal` rule for every role.

use crate::error::{Diagnostic, Pos};
use crate::syntax::{kw, Atom, Clause, Description, FLit, Sym, Term};
use rustc_hash::{FxHashMap, FxHashSet};

/// Runs every static check; returns the problems sorted by position.
pub fn check(d: &Description, clauses: &[Clause]) -> Vec<Diagnostic> {
    let mut c = Checker {
        d,
        errors: Vec::new(),
    };
    c.arities();
    c.placement();
    for cl in clauses {
        c.safety(cl);
    }
    let graph = Graph::new(clauses);
    c.stratification(clauses, &graph);
    c.recursion(clauses, &graph);
    c.does_dependency(clauses, &graph);
    c.roles(clauses);
    let mut e = c.errors;
    e.sort_by(|a, b| a.pos.cmp(&b.pos).then(a.message.cmp(&b.message)));
    e.dedup();
    e
}

struct Checker<'a> {
    d: &'a Description,
    errors: Vec<Diagnostic>,
}

/// The relation dependency graph: head relation -> (body relation, negative, position).
struct Graph {
    edges: FxHashMap<Sym, Vec<(Sym, bool, Pos)>>,
    /// Strongly connected component of every relation.
    scc: FxHashMap<Sym, usize>,
}

impl Graph {
    fn new(clauses: &[Clause]) -> Graph {
        let mut edges: FxHashMap<Sym, Vec<(Sym, bool, Pos)>> = FxHashMap::default();
        let mut nodes: Vec<Sym> = Vec::new();
        let mut seen = FxHashSet::default();
        for c in clauses {
            if seen.insert(c.head.rel) {
                nodes.push(c.head.rel);
            }
            let e = edges.entry(c.head.rel).or_default();
            for l in &c.body {
                match l {
                    FLit::Pos(a) => e.push((a.rel, false, a.pos)),
                    FLit::Neg(a) => e.push((a.rel, true, a.pos)),
                    _ => {}
                }
            }
        }
        for es in edges.values() {
            for (r, _, _) in es {
                if seen.insert(*r) {
                    nodes.push(*r);
                }
            }
        }
        // Tarjan's algorithm, iterative.
        let mut index: FxHashMap<Sym, usize> = FxHashMap::default();
        let mut low: FxHashMap<Sym, usize> = FxHashMap::default();
        let mut on: FxHashSet<Sym> = FxHashSet::default();
        let mut stack: Vec<Sym> = Vec::new();
        let mut scc: FxHashMap<Sym, usize> = FxHashMap::default();
        let mut next = 0usize;
        let mut ncomp = 0usize;
        let empty = Vec::new();
        for &root in &nodes {
            if index.contains_key(&root) {
                continue;
            }
            let mut work: Vec<(Sym, usize)> = vec![(root, 0)];
            index.insert(root, next);
            low.insert(root, next);
            next += 1;
            stack.push(root);
            on.insert(root);
            while let Some(&mut (v, ref mut i)) = work.last_mut() {
                let es = edges.get(&v).unwrap_or(&empty);
                if *i < es.len() {
                    let w = es[*i].0;
                    *i += 1;
                    if let std::collections::hash_map::Entry::Vacant(e) = index.entry(w) {
                        e.insert(next);
                        low.insert(w, next);
                        next += 1;
                        stack.push(w);
                        on.insert(w);
                        work.push((w, 0));
                    } else if on.contains(&w) {
                        let lw = index[&w];
                        let lv = low.get_mut(&v).expect("visited");
                        *lv = (*lv).min(lw);
                    }
                } else {
                    work.pop();
                    if let Some(&(u, _)) = work.last() {
                        let lv = low[&v];
                        let lu = low.get_mut(&u).expect("visited");
                        *lu = (*lu).min(lv);
                    }
                    if low[&v] == index[&v] {
                        while let Some(w) = stack.pop() {
                            on.remove(&w);
                            scc.insert(w, ncomp);
                            if w == v {
                                break;
                            }
                        }
                        ncomp += 1;
                    }
                }
            }
        }
        Graph { edges, scc }
    }

    fn same_scc(&self, a: Sym, b: Sym) -> bool {
        matches!((self.scc.get(&a), self.scc.get(&b)), (Some(x), Some(y)) if x == y)
    }

    /// Whether `from` depends (transitively, through rules) on `target`.
    fn depends(&self, from: Sym, target: Sym) -> bool {
        let mut seen = FxHashSet::default();
        let mut todo = vec![from];
        while let Some(r) = todo.pop() {
            for (b, _, _) in self.edges.get(&r).map(|v| v.as_slice()).unwrap_or(&[]) {
                if *b == target {
                    return true;
                }
                if seen.insert(*b) {
                    todo.push(*b);
                }
            }
        }
        false
    }
}

fn reserved_arity(s: Sym) -> Option<usize> {
    Some(match s {
        kw::ROLE | kw::INIT | kw::TRUE | kw::NEXT | kw::BASE => 1,
        kw::DOES | kw::LEGAL | kw::GOAL | kw::INPUT => 2,
        kw::TERMINAL => 0,
        _ => return None,
    })
}

impl Checker<'_> {
    fn err(&mut self, pos: Pos, msg: impl Into<String>) {
        self.errors.push(Diagnostic::new(&self.d.file, pos, msg));
    }
    fn name(&self, s: Sym) -> &str {
        self.d.syms.name(s)
    }

    fn arities(&mut self) {
        let mut rels: FxHashMap<Sym, (usize, Pos)> = FxHashMap::default();
        let mut funcs: FxHashMap<Sym, (usize, Pos)> = FxHashMap::default();
        let mut atoms: Vec<&Atom> = Vec::new();
        let mut terms: Vec<(&Term, Pos)> = Vec::new();
        for r in &self.d.rules {
            atoms.push(&r.head);
            let mut todo: Vec<&crate::syntax::Lit> = r.body.iter().collect();
            while let Some(l) = todo.pop() {
                match l {
                    crate::syntax::Lit::Atom(a) => atoms.push(a),
                    crate::syntax::Lit::Not(x, _) => todo.push(x),
                    crate::syntax::Lit::Or(xs, _) => todo.extend(xs.iter()),
                    crate::syntax::Lit::Distinct(a, b, p) => {
                        terms.push((a, *p));
                        terms.push((b, *p));
                    }
                }
            }
        }
        atoms.sort_by_key(|a| a.pos);
        for a in &atoms {
            let n = a.args.len();
            if let Some(k) = reserved_arity(a.rel) {
                if k != n {
                    self.err(
                        a.pos,
                        format!("`{}` takes {k} argument(s), not {n}", self.name(a.rel)),
                    );
                }
            } else {
                match rels.get(&a.rel) {
                    Some(&(k, p)) if k != n => self.err(
                        a.pos,
                        format!(
                            "`{}` used with {n} argument(s) here but {k} at {}:{}",
                            self.name(a.rel),
                            p.line,
                            p.col
                        ),
                    ),
                    Some(_) => {}
                    None => {
                        rels.insert(a.rel, (n, a.pos));
                    }
                }
            }
            for t in &a.args {
                terms.push((t, a.pos));
            }
        }
        while let Some((t, p)) = terms.pop() {
            let (f, n) = match t {
                Term::Var(_) => continue,
                Term::Const(s) => (*s, 0),
                Term::Func(s, a) => {
                    for x in a {
                        terms.push((x, p));
                    }
                    (*s, a.len())
                }
            };
            match funcs.get(&f) {
                Some(&(k, q)) if k != n => {
                    let (first, second) = if q <= p {
                        ((k, q), (n, p))
                    } else {
                        ((n, p), (k, q))
                    };
                    let msg = format!(
                        "function `{}` used with {} argument(s) here but {} at {}:{}",
                        self.name(f),
                        second.0,
                        first.0,
                        first.1.line,
                        first.1.col
                    );
                    self.err(second.1, msg);
                }
                Some(&(_, q)) if p < q => {
                    funcs.insert(f, (n, p));
                }
                Some(_) => {}
                None => {
                    funcs.insert(f, (n, p));
                }
            }
        }
    }

    fn placement(&mut self) {
        for r in &self.d.rules {
            let h = &r.head;
            match h.rel {
                kw::TRUE | kw::DOES => self.err(
                    h.pos,
                    format!("`{}` may only appear in rule bodies", self.name(h.rel)),
                ),
                kw::ROLE if !r.body.is_empty() || !r.var_names.is_empty() => {
                    self.err(h.pos, "`role` may only appear in ground facts")
                }
                kw::GOAL => {
                    if let Some(Term::Const(v)) | Some(Term::Func(v, _)) = h.args.get(1) {
                        let name = self.name(*v);
                        let ok = matches!(h.args.get(1), Some(Term::Const(_)))
                            && name.parse::<u8>().is_ok_and(|x| x <= 100);
                        if !ok {
                            let text = self.d.term_text(&h.args[1], &r.var_names);
                            self.err(h.pos, format!("goal value `{text}` is not a number 0..100"));
                        }
                    }
                }
                _ => {}
            }
            let mut todo: Vec<&crate::syntax::Lit> = r.body.iter().collect();
            while let Some(l) = todo.pop() {
                match l {
                    crate::syntax::Lit::Atom(a) => match a.rel {
                        kw::INIT | kw::NEXT | kw::BASE | kw::INPUT => self.err(
                            a.pos,
                            format!("`{}` may only appear as a head", self.name(a.rel)),
                        ),
                        _ => {}
                    },
                    crate::syntax::Lit::Not(x, _) => todo.push(x),
                    crate::syntax::Lit::Or(xs, _) => todo.extend(xs.iter()),
                    crate::syntax::Lit::Distinct(..) => {}
                }
            }
        }
    }

    fn safety(&mut self, c: &Clause) {
        let mut bound = FxHashSet::default();
        for l in &c.body {
            if let FLit::Pos(a) = l {
                bound.extend(a.vars());
            }
        }
        let names = &self.d.rules[c.rule].var_names;
        let mut report = |this: &mut Self, vars: Vec<u32>, pos: Pos, what: &str| {
            for v in vars {
                if !bound.contains(&v) {
                    let n = names.get(v as usize).map(String::as_str).unwrap_or("?");
                    this.err(
                        pos,
                        format!("unsafe rule: variable `{n}` of {what} appears in no positive body literal"),
                    );
                    bound.insert(v);
                }
            }
        };
        report(self, c.head.vars(), c.head.pos, "the head");
        for l in &c.body {
            match l {
                FLit::Neg(a) => report(self, a.vars(), a.pos, "a negated literal"),
                FLit::Distinct(x, y, p) | FLit::Same(x, y, p) => {
                    let mut v = Vec::new();
                    x.vars(&mut v);
                    y.vars(&mut v);
                    report(self, v, *p, "`distinct`")
                }
                FLit::Pos(_) => {}
            }
        }
    }

    fn stratification(&mut self, clauses: &[Clause], g: &Graph) {
        for c in clauses {
            for l in &c.body {
                if let FLit::Neg(a) = l {
                    if g.same_scc(c.head.rel, a.rel) {
                        self.err(
                            a.pos,
                            format!(
                                "negation is not stratified: `{}` depends on `(not {} ...)` which depends on `{}`",
                                self.name(c.head.rel),
                                self.name(a.rel),
                                self.name(c.head.rel)
                            ),
                        );
                    }
                }
            }
        }
    }

    fn recursion(&mut self, clauses: &[Clause], g: &Graph) {
        for c in clauses {
            for l in &c.body {
                let FLit::Pos(a) = l else { continue };
                if !g.same_scc(c.head.rel, a.rel) {
                    continue;
                }
                // Variables bound by positive literals outside the recursive component.
                let mut outside = FxHashSet::default();
                for m in &c.body {
                    if let FLit::Pos(b) = m {
                        if !g.same_scc(c.head.rel, b.rel) {
                            outside.extend(b.vars());
                        }
                    }
                }
                for t in &a.args {
                    let ok = t.is_ground()
                        || c.head.args.contains(t)
                        || matches!(t, Term::Var(v) if outside.contains(v));
                    if !ok {
                        let names = &self.d.rules[c.rule].var_names;
                        self.err(
                            a.pos,
                            format!(
                                "recursion restriction: argument `{}` of recursive `{}` is neither ground, an argument of the head, nor bound by a non-recursive literal",
                                self.d.term_text(t, names),
                                self.name(a.rel)
                            ),
                        );
                        break;
                    }
                }
            }
        }
    }

    fn does_dependency(&mut self, clauses: &[Clause], g: &Graph) {
        for c in clauses {
            let forbidden: &[Sym] = match c.head.rel {
                kw::LEGAL | kw::GOAL | kw::TERMINAL => &[kw::DOES],
                kw::INIT => &[kw::DOES, kw::TRUE],
                _ => continue,
            };
            for l in &c.body {
                let a = match l {
                    FLit::Pos(a) | FLit::Neg(a) => a,
                    _ => continue,
                };
                for &f in forbidden {
                    if a.rel == f || g.depends(a.rel, f) {
                        let via = if a.rel == f {
                            String::new()
                        } else {
                            format!(" (through `{}`)", self.name(a.rel))
                        };
                        self.err(
                            a.pos,
                            format!(
                                "`{}` must not depend on `{}`{via}",
                                self.name(c.head.rel),
                                self.name(f)
                            ),
                        );
                    }
                }
            }
        }
    }

    fn roles(&mut self, clauses: &[Clause]) {
        let roles: Vec<&Atom> = self
            .d
            .rules
            .iter()
            .filter(|r| r.head.rel == kw::ROLE && r.body.is_empty())
            .map(|r| &r.head)
            .collect();
        if roles.is_empty() {
            self.err(
                Pos { line: 1, col: 1 },
                "the description has no `role` facts",
            );
        }
        for r in roles {
            let Some(name) = r.args.first() else { continue };
            let has = |rel: Sym| {
                clauses.iter().any(|c| {
                    c.head.rel == rel
                        && matches!(c.head.args.first(), Some(t) if matches!(t, Term::Var(_)) || t == name)
                })
            };
            let text = self.d.term_text(name, &[]);
            if !has(kw::LEGAL) {
                self.err(r.pos, format!("role `{text}` has no `legal` rule"));
            }
            if !has(kw::GOAL) {
                self.err(r.pos, format!("role `{text}` has no `goal` rule"));
            }
        }
        if !clauses.iter().any(|c| c.head.rel == kw::TERMINAL) {
            self.err(
                Pos { line: 1, col: 1 },
                "the description has no `terminal` rule",
            );
        }
        if !clauses.iter().any(|c| c.head.rel == kw::INIT) {
            self.err(
                Pos { line: 1, col: 1 },
                "the description has no `init` facts",
            );
        }
    }
}
