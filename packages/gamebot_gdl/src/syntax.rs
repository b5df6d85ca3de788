//! The abstract syntax of a GDL description: rules over atoms and terms, built
//! from the S-expressions of [`crate::kif`].

use crate::error::{Diagnostic, Pos};
use crate::kif::SExpr;
use rustc_hash::FxHashMap;

/// An interned symbol.
pub type Sym = u32;

/// The symbol table. The GDL keywords are interned first, at fixed indices.
#[derive(Clone, Debug)]
pub struct Symbols {
    names: Vec<String>,
    map: FxHashMap<String, Sym>,
}

/// Keyword symbols (their indices in every [`Symbols`]).
pub mod kw {
    use super::Sym;
    pub const ROLE: Sym = 0;
    pub const INIT: Sym = 1;
    pub const TRUE: Sym = 2;
    pub const DOES: Sym = 3;
    pub const NEXT: Sym = 4;
    pub const LEGAL: Sym = 5;
    pub const GOAL: Sym = 6;
    pub const TERMINAL: Sym = 7;
    pub const BASE: Sym = 8;
    pub const INPUT: Sym = 9;
    pub const DISTINCT: Sym = 10;
    pub const NOT: Sym = 11;
    pub const OR: Sym = 12;
    pub const IMPLIES: Sym = 13;
    pub(crate) const ALL: [&str; 14] = [
        "role", "init", "true", "does", "next", "legal", "goal", "terminal", "base", "input",
        "distinct", "not", "or", "<=",
    ];
}

impl Default for Symbols {
    fn default() -> Self {
        let mut s = Symbols {
            names: Vec::new(),
            map: FxHashMap::default(),
        };
        for k in kw::ALL {
            s.intern(k);
        }
        s
    }
}

impl Symbols {
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(&s) = self.map.get(name) {
            return s;
        }
        let s = self.names.len() as Sym;
        self.names.push(name.to_string());
        self.map.insert(name.to_string(), s);
        s
    }
    pub fn get(&self, name: &str) -> Option<Sym> {
        self.map.get(name).copied()
    }
    pub fn name(&self, s: Sym) -> &str {
        &self.names[s as usize]
    }
}

/// A term of a rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A variable: index into the rule's variables.
    Var(u32),
    Const(Sym),
    Func(Sym, Vec<Term>),
}

impl Term {
    pub fn is_ground(&self) -> bool {
        match self {
            Term::Var(_) => false,
            Term::Const(_) => true,
            Term::Func(_, a) => a.iter().all(Term::is_ground),
        }
    }
    pub fn vars(&self, out: &mut Vec<u32>) {
        match self {
            Term::Var(v) => out.push(*v),
            Term::Const(_) => {}
            Term::Func(_, a) => a.iter().for_each(|t| t.vars(out)),
        }
    }
}

/// A relation applied to terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub rel: Sym,
    pub args: Vec<Term>,
    pub pos: Pos,
}

impl Atom {
    pub fn vars(&self) -> Vec<u32> {
        let mut v = Vec::new();
        self.args.iter().for_each(|t| t.vars(&mut v));
        v
    }
}

/// A body literal as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lit {
    Atom(Atom),
    Not(Box<Lit>, Pos),
    Distinct(Term, Term, Pos),
    Or(Vec<Lit>, Pos),
}

impl Lit {
    pub fn pos(&self) -> Pos {
        match self {
            Lit::Atom(a) => a.pos,
            Lit::Not(_, p) | Lit::Distinct(_, _, p) | Lit::Or(_, p) => *p,
        }
    }
}

/// A literal of a clause (a rule with `or` expanded away).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FLit {
    Pos(Atom),
    Neg(Atom),
    Distinct(Term, Term, Pos),
    /// `(not (distinct a b))`.
    Same(Term, Term, Pos),
}

/// A rule or fact (a fact has an empty body).
#[derive(Clone, Debug)]
pub struct Rule {
    pub head: Atom,
    pub body: Vec<Lit>,
    pub var_names: Vec<String>,
    pub pos: Pos,
}

/// A clause: a rule with a flat body, as the checks and the grounder see it.
#[derive(Clone, Debug)]
pub struct Clause {
    pub head: Atom,
    pub body: Vec<FLit>,
    pub nvars: u32,
    /// Index of the rule it came from.
    pub rule: usize,
}

/// A parsed description.
#[derive(Clone, Debug)]
pub struct Description {
    pub file: String,
    pub syms: Symbols,
    pub rules: Vec<Rule>,
}

/// Largest number of clauses one rule may expand to (`or` is expanded to DNF).
const MAX_EXPANSION: usize = 4096;

impl Description {
    /// Builds the description from S-expressions; collects every syntax error.
    pub fn from_sexprs(file: &str, exprs: &[SExpr]) -> Result<Description, Vec<Diagnostic>> {
        let mut b = Builder {
            file,
            syms: Symbols::default(),
            vars: Vec::new(),
            errors: Vec::new(),
        };
        let mut rules = Vec::new();
        for e in exprs {
            if let Some(r) = b.rule(e) {
                rules.push(r);
            }
        }
        if b.errors.is_empty() {
            Ok(Description {
                file: file.to_string(),
                syms: b.syms,
                rules,
            })
        } else {
            Err(b.errors)
        }
    }

    /// Every rule expanded into clauses (disjunctions distributed, negations pushed to atoms).
    pub fn clauses(&self) -> Result<Vec<Clause>, Vec<Diagnostic>> {
        let mut out = Vec::new();
        let mut errors = Vec::new();
        for (i, r) in self.rules.iter().enumerate() {
            let mut bodies: Vec<Vec<FLit>> = vec![Vec::new()];
            for l in &r.body {
                let alts = match expand(l, false) {
                    Ok(a) => a,
                    Err(p) => {
                        errors.push(Diagnostic::new(
                            &self.file,
                            p,
                            "`or` expands to too many clauses",
                        ));
                        bodies.clear();
                        break;
                    }
                };
                if bodies.len() * alts.len() > MAX_EXPANSION {
                    errors.push(Diagnostic::new(
                        &self.file,
                        l.pos(),
                        "`or` expands to too many clauses",
                    ));
                    bodies.clear();
                    break;
                }
                let mut next = Vec::with_capacity(bodies.len() * alts.len());
                for b in &bodies {
                    for a in &alts {
                        let mut nb = b.clone();
                        nb.extend(a.iter().cloned());
                        next.push(nb);
                    }
                }
                bodies = next;
            }
            for body in bodies {
                out.push(Clause {
                    head: r.head.clone(),
                    body,
                    nvars: r.var_names.len() as u32,
                    rule: i,
                });
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    /// A term as KIF text.
    pub fn term_text(&self, t: &Term, vars: &[String]) -> String {
        match t {
            Term::Var(v) => vars
                .get(*v as usize)
                .cloned()
                .unwrap_or_else(|| format!("?v{v}")),
            Term::Const(s) => self.syms.name(*s).to_string(),
            Term::Func(f, a) => {
                let mut s = format!("({}", self.syms.name(*f));
                for x in a {
                    s.push(' ');
                    s.push_str(&self.term_text(x, vars));
                }
                s.push(')');
                s
            }
        }
    }
}

/// The alternatives (each a conjunction) of a literal; `neg` when under `not`.
fn expand(l: &Lit, neg: bool) -> Result<Vec<Vec<FLit>>, Pos> {
    Ok(match (l, neg) {
        (Lit::Atom(a), false) => vec![vec![FLit::Pos(a.clone())]],
        (Lit::Atom(a), true) => vec![vec![FLit::Neg(a.clone())]],
        (Lit::Distinct(x, y, p), false) => vec![vec![FLit::Distinct(x.clone(), y.clone(), *p)]],
        (Lit::Distinct(x, y, p), true) => vec![vec![FLit::Same(x.clone(), y.clone(), *p)]],
        (Lit::Not(inner, _), n) => expand(inner, !n)?,
        (Lit::Or(ls, _), false) => {
            let mut out = Vec::new();
            for x in ls {
                out.extend(expand(x, false)?);
                if out.len() > MAX_EXPANSION {
                    return Err(l.pos());
                }
            }
            out
        }
        // not (or a b ...) = (not a) and (not b) ...
        (Lit::Or(ls, p), true) => {
            let mut acc: Vec<Vec<FLit>> = vec![Vec::new()];
            for x in ls {
                let alts = expand(x, true)?;
                if acc.len() * alts.len() > MAX_EXPANSION {
                    return Err(*p);
                }
                let mut next = Vec::new();
                for a in &acc {
                    for b in &alts {
                        let mut n = a.clone();
                        n.extend(b.iter().cloned());
                        next.push(n);
                    }
                }
                acc = next;
            }
            acc
        }
    })
}

struct Builder<'a> {
    file: &'a str,
    syms: Symbols,
    vars: Vec<String>,
    errors: Vec<Diagnostic>,
}

impl Builder<'_> {
    fn err(&mut self, pos: Pos, msg: impl Into<String>) {
        self.errors.push(Diagnostic::new(self.file, pos, msg));
    }

    fn rule(&mut self, e: &SExpr) -> Option<Rule> {
        self.vars.clear();
        let pos = e.pos();
        let (head, body) = match e {
            SExpr::List(items, _) if items.first().and_then(SExpr::atom) == Some("<=") => {
                let Some(h) = items.get(1) else {
                    self.err(pos, "`<=` without a head");
                    return None;
                };
                let head = self.atom(h, true)?;
                let mut body = Vec::new();
                let mut ok = true;
                for b in &items[2..] {
                    match self.lit(b) {
                        Some(l) => body.push(l),
                        None => ok = false,
                    }
                }
                if !ok {
                    return None;
                }
                (head, body)
            }
            _ => (self.atom(e, true)?, Vec::new()),
        };
        Some(Rule {
            head,
            body,
            var_names: std::mem::take(&mut self.vars),
            pos,
        })
    }

    fn lit(&mut self, e: &SExpr) -> Option<Lit> {
        if let SExpr::List(items, p) = e {
            match items.first().and_then(SExpr::atom) {
                Some("not") => {
                    if items.len() != 2 {
                        self.err(*p, "`not` takes exactly one literal");
                        return None;
                    }
                    return Some(Lit::Not(Box::new(self.lit(&items[1])?), *p));
                }
                Some("or") => {
                    if items.len() < 2 {
                        self.err(*p, "`or` needs at least one literal");
                        return None;
                    }
                    let mut ls = Vec::new();
                    for x in &items[1..] {
                        ls.push(self.lit(x)?);
                    }
                    return Some(Lit::Or(ls, *p));
                }
                Some("distinct") => {
                    if items.len() != 3 {
                        self.err(*p, "`distinct` takes exactly two terms");
                        return None;
                    }
                    let a = self.term(&items[1])?;
                    let b = self.term(&items[2])?;
                    return Some(Lit::Distinct(a, b, *p));
                }
                _ => {}
            }
        }
        Some(Lit::Atom(self.atom(e, false)?))
    }

    fn atom(&mut self, e: &SExpr, head: bool) -> Option<Atom> {
        match e {
            SExpr::Atom(s, p) => {
                if s.starts_with('?') {
                    self.err(*p, format!("a variable (`{s}`) cannot be a sentence"));
                    return None;
                }
                if let Some(m) = self.misplaced(s, head) {
                    self.err(*p, m);
                    return None;
                }
                Some(Atom {
                    rel: self.syms.intern(s),
                    args: Vec::new(),
                    pos: *p,
                })
            }
            SExpr::List(items, p) => {
                let Some(first) = items.first() else {
                    self.err(*p, "empty list `()` is not a sentence");
                    return None;
                };
                let Some(name) = first.atom() else {
                    self.err(first.pos(), "a relation name must be a symbol, not a list");
                    return None;
                };
                if name.starts_with('?') {
                    self.err(
                        first.pos(),
                        format!("a relation name must be a symbol, not the variable `{name}`"),
                    );
                    return None;
                }
                if let Some(m) = self.misplaced(name, head) {
                    self.err(first.pos(), m);
                    return None;
                }
                let rel = self.syms.intern(name);
                let mut args = Vec::new();
                for a in &items[1..] {
                    args.push(self.term(a)?);
                }
                Some(Atom { rel, args, pos: *p })
            }
        }
    }

    /// Why a keyword cannot stand where a relation is expected.
    fn misplaced(&self, name: &str, head: bool) -> Option<String> {
        match name {
            "<=" => Some("`<=` can only start a rule".into()),
            "not" | "or" | "distinct" if head => {
                Some(format!("`{name}` cannot be the head of a rule"))
            }
            _ => None,
        }
    }

    fn term(&mut self, e: &SExpr) -> Option<Term> {
        match e {
            SExpr::Atom(s, p) => {
                if s.starts_with('?') {
                    let i = match self.vars.iter().position(|v| v == s) {
                        Some(i) => i,
                        None => {
                            self.vars.push(s.clone());
                            self.vars.len() - 1
                        }
                    };
                    Some(Term::Var(i as u32))
                } else if s == "<=" || s == "not" || s == "or" {
                    self.err(*p, format!("`{s}` cannot be used as a term"));
                    None
                } else {
                    Some(Term::Const(self.syms.intern(s)))
                }
            }
            SExpr::List(items, p) => {
                let Some(first) = items.first() else {
                    self.err(*p, "empty list `()` is not a term");
                    return None;
                };
                let Some(name) = first.atom() else {
                    self.err(first.pos(), "a function name must be a symbol, not a list");
                    return None;
                };
                if name.starts_with('?') {
                    self.err(
                        first.pos(),
                        format!("a function name must be a symbol, not the variable `{name}`"),
                    );
                    return None;
                }
                let f = self.syms.intern(name);
                let mut args = Vec::new();
                for a in &items[1..] {
                    args.push(self.term(a)?);
                }
                if args.is_empty() {
                    self.err(*p, format!("function `({name})` without arguments"));
                    return None;
                }
                Some(Term::Func(f, args))
            }
        }
    }
}
