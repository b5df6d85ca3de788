//! Reading a game file (§2, §3) into a [`Game`], one phase per module:
//!
//! - [`lines`]: lines → sections → records (key/value handlers per section);
//! - [`resolve`]: records → resolved names (element types and locations of
//!   elements, functions, rules with their patterns matched, scorings, ends,
//!   evaluations);
//! - [`independence`]: which rules' targets do not depend on the moved element;
//! - [`templates`]: interpolated strings compiled to tables of known names;
//! - [`checks`]: whole-file checks (players, missing keys, sizes, calls).

mod checks;
mod duplicates;
mod independence;
mod lines;
mod ranges;
mod resolve;
mod templates;

use crate::error::{Diagnostic, LoadError};
use crate::expr::{FuncId, Resolver, VarId};
use crate::game::*;
use crate::lexer::StrPiece;
use crate::model::*;
use crate::value::Sym;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Everything the loader hands to [`Game::assemble`].
pub(crate) struct Parts {
    pub board_image: Option<String>,
    pub realboard: Vec<RealboardSignature>,
    pub element_types: Vec<ElementType>,
    pub location_types: Vec<LocationType>,
    pub locations: Vec<Location>,
    pub elements: Vec<Element>,
    pub players: Vec<String>,
    pub initial_score: i32,
    pub functions: Vec<Function>,
    pub rules: Vec<Rule>,
    pub scorings: Vec<Scoring>,
    pub ends: Vec<EndCondition>,
    pub evaluations: Vec<Evaluation>,
    pub warnings: Vec<Diagnostic>,
    pub syms: Vec<Arc<str>>,
    pub sym_map: FxHashMap<Arc<str>, Sym>,
    pub var_names: Vec<String>,
    pub func_names: Vec<String>,
    pub funcs: Vec<Option<Function>>,
    pub templates: Vec<Template>,
}

#[derive(Default)]
struct Names {
    syms: Vec<Arc<str>>,
    sym_map: FxHashMap<Arc<str>, Sym>,
    var_names: Vec<String>,
    var_map: FxHashMap<String, VarId>,
    func_names: Vec<String>,
    func_map: FxHashMap<String, FuncId>,
    templates: Vec<Vec<StrPiece>>,
}

impl Resolver for Names {
    fn var(&mut self, name: &str) -> VarId {
        if let Some(&v) = self.var_map.get(name) {
            return v;
        }
        let v = self.var_names.len() as VarId;
        self.var_names.push(name.to_string());
        self.var_map.insert(name.to_string(), v);
        v
    }
    fn func(&mut self, name: &str) -> FuncId {
        if let Some(&f) = self.func_map.get(name) {
            return f;
        }
        let f = self.func_names.len() as FuncId;
        self.func_names.push(name.to_string());
        self.func_map.insert(name.to_string(), f);
        f
    }
    fn sym(&mut self, text: &str) -> Sym {
        if let Some(&s) = self.sym_map.get(text) {
            return s;
        }
        let s = self.syms.len() as Sym;
        let a: Arc<str> = Arc::from(text);
        self.syms.push(a.clone());
        self.sym_map.insert(a, s);
        s
    }
    fn template(&mut self, pieces: &[StrPiece]) -> u32 {
        for p in pieces {
            if let StrPiece::Var(v) = p {
                self.var(v);
            }
        }
        self.templates.push(pieces.to_vec());
        (self.templates.len() - 1) as u32
    }
}

/// A value with its position.
#[derive(Clone, Debug)]
struct Val {
    text: String,
    line: u32,
    col: u32,
}

struct ElemRec {
    name: String,
    etype: Option<Val>,
    location: Option<Val>,
    owner: i32,
    state: i32,
    zindex: i32,
    line: u32,
}

struct LocRec {
    loc: Location,
    has_type: bool,
}

#[derive(Default)]
struct RuleRec {
    name: String,
    line: u32,
    element: Option<Val>,
    from: Option<Val>,
    to: Option<Val>,
    to_locations: Option<SrcExpr>,
    condition: Option<SrcExpr>,
    followup: Option<SrcExpr>,
    player: Option<(Filter, u32)>,
    state: Option<(Filter, u32)>,
    award: Vec<SrcExpr>,
    with: Vec<SrcExpr>,
}

struct ScoringRec {
    situation: SrcExpr,
    players: Vec<SrcExpr>,
    scores: Vec<SrcExpr>,
    line: u32,
    /// A `player=`/`score=` failed to parse (already reported): the pair
    /// count would be off by that entry, so it is not checked.
    failed: bool,
}

struct FuncRec {
    name: String,
    params: Vec<VarId>,
    body: Vec<SrcExpr>,
    line: u32,
}

struct Loader<'a> {
    file: &'a str,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    names: Names,
    board_image: Option<String>,
    realboard: Vec<RealboardSignature>,
    element_types: Vec<ElementType>,
    etype_map: FxHashMap<String, usize>,
    etype_cur: Option<usize>,
    etype_pending_image: Option<String>,
    etype_pairs: usize,
    location_types: Vec<LocationType>,
    ltype_map: FxHashMap<String, usize>,
    ltype_cur: Option<usize>,
    locations: Vec<LocRec>,
    loc_map: FxHashMap<String, usize>,
    loc_cur: Option<usize>,
    players: Vec<String>,
    initial_score: i32,
    elements: Vec<ElemRec>,
    elem_map: FxHashMap<String, usize>,
    elem_cur: Option<usize>,
    open_func: Option<FuncRec>,
    functions: Vec<FuncRec>,
    scorings: Vec<ScoringRec>,
    ends: Vec<(SrcExpr, Option<SrcExpr>, u32)>,
    rules: Vec<RuleRec>,
    rule_map: FxHashMap<String, usize>,
    rule_cur: Option<usize>,
    evaluations: Vec<(i32, Option<SrcExpr>, u32)>,
    definitions: duplicates::Definitions,
}

pub(crate) fn load(name: &str, file: &str, text: &str) -> Result<Game, LoadError> {
    let mut l = Loader {
        file,
        errors: Vec::new(),
        warnings: Vec::new(),
        names: Names::default(),
        board_image: None,
        realboard: Vec::new(),
        element_types: Vec::new(),
        etype_map: FxHashMap::default(),
        etype_cur: None,
        etype_pending_image: None,
        etype_pairs: 0,
        location_types: Vec::new(),
        ltype_map: FxHashMap::default(),
        ltype_cur: None,
        locations: Vec::new(),
        loc_map: FxHashMap::default(),
        loc_cur: None,
        players: Vec::new(),
        initial_score: 0,
        elements: Vec::new(),
        elem_map: FxHashMap::default(),
        elem_cur: None,
        open_func: None,
        functions: Vec::new(),
        scorings: Vec::new(),
        ends: Vec::new(),
        rules: Vec::new(),
        rule_map: FxHashMap::default(),
        rule_cur: None,
        evaluations: Vec::new(),
        definitions: duplicates::Definitions::default(),
    };
    l.names.sym("");
    l.read(text);
    l.finish(name)
}

/// Opens the record `name` of a section (§3): a new one is appended, a name seen
/// before replaces its record in place. Returns the record's index.
fn open_record<T>(
    records: &mut Vec<T>,
    map: &mut FxHashMap<String, usize>,
    name: &str,
    rec: T,
) -> usize {
    match map.get(name) {
        Some(&i) => {
            records[i] = rec;
            i
        }
        None => {
            records.push(rec);
            map.insert(name.to_string(), records.len() - 1);
            records.len() - 1
        }
    }
}

impl Loader<'_> {
    fn err(&mut self, line: u32, col: u32, message: impl Into<String>) {
        self.errors.push(Diagnostic {
            line,
            col,
            message: message.into(),
        });
    }
    fn warn(&mut self, line: u32, col: u32, message: impl Into<String>) {
        self.warnings.push(Diagnostic {
            line,
            col,
            message: message.into(),
        });
    }

    /// Runs the phases after reading, in the order their diagnostics have always had.
    fn finish(mut self, name: &str) -> Result<Game, LoadError> {
        self.close_open_function();
        self.definitions.check(&mut self.errors, &mut self.warnings);
        for r in &self.realboard {
            if r.size_min < 0 || r.size_max < 0 || r.size_min > r.size_max {
                self.errors.push(Diagnostic {
                    line: r.line,
                    col: 1,
                    message: format!(
                        "signature `{}`: sizeMin={} and sizeMax={} must be non-negative with sizeMin ≤ sizeMax",
                        r.name, r.size_min, r.size_max
                    ),
                });
            }
        }
        self.check_records();
        let locations: Vec<Location> = self.locations.iter().map(|r| r.loc.clone()).collect();
        let elements = self.resolve_elements();
        self.check_sizes(&elements, &locations);
        self.intern_names(&locations, &elements);
        let (functions, funcs) = self.resolve_functions();
        let mut rules = self.resolve_rules(&elements, &locations);
        let scorings = self.resolve_scorings();
        let ends = self.resolve_ends();
        let evaluations = self.resolve_evaluations();
        self.check_calls(&funcs, &functions, &rules, &scorings, &ends, &evaluations);
        self.check_loop_ranges(&functions, &rules, &scorings, &ends, &evaluations);
        independence::mark_element_independent(&mut rules, &funcs, &self.names);
        independence::mark_hoistable_conditions(&mut rules, &funcs, &self.names);
        independence::mark_generation_clears(&mut rules, &funcs, &self.names);
        independence::mark_apply_clears(&mut rules, &scorings, &ends, &funcs, &self.names);
        let templates = self.build_templates();
        if !self.errors.is_empty() {
            self.errors.sort_by_key(|d| (d.line == 0, d.line, d.col));
            return Err(LoadError {
                file: self.file.to_string(),
                errors: self.errors,
            });
        }
        self.warnings.sort_by_key(|d| (d.line, d.col));
        let parts = Parts {
            board_image: self.board_image,
            realboard: self.realboard,
            element_types: self.element_types,
            location_types: self.location_types,
            locations,
            elements,
            players: self.players,
            initial_score: self.initial_score,
            functions,
            rules,
            scorings,
            ends,
            evaluations,
            warnings: self.warnings,
            syms: self.names.syms,
            sym_map: self.names.sym_map,
            var_names: self.names.var_names,
            func_names: self.names.func_names,
            funcs,
            templates,
        };
        Ok(Game::assemble(
            name.to_string(),
            self.file.to_string(),
            parts,
        ))
    }
}
