//! Reading a game file (§2, §3): lines, sections, records, and the final
//! resolution of names that turns the records into a [`Game`].

use crate::error::{Diagnostic, LoadError};
use crate::expr::{self, Expr, FuncId, LazyItem, Resolver, VarId};
use crate::game::*;
use crate::lexer::{pattern_pieces, StrPiece, BUILTINS};
use crate::model::*;
use crate::pattern::Pattern;
use crate::value::Sym;
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;
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

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Section {
    Board,
    Realboard,
    ElementTypes,
    LocationTypes,
    Locations,
    PlayerNames,
    Elements,
    Expressions,
    Scorings,
    End,
    Rules,
    Evaluation,
}

fn section_of(name: &str) -> Option<Section> {
    Some(match name.to_ascii_uppercase().as_str() {
        "BOARD" => Section::Board,
        "REALBOARD ELEMENT TYPES" => Section::Realboard,
        "ELEMENT TYPES" => Section::ElementTypes,
        "LOCATION TYPES" => Section::LocationTypes,
        "LOCATIONS" => Section::Locations,
        "PLAYER NAMES" => Section::PlayerNames,
        "MOVABLE ELEMENTS" => Section::Elements,
        "EXPRESSIONS" => Section::Expressions,
        "SCORINGS" => Section::Scorings,
        "END OF GAME" => Section::End,
        "GAME RULES" => Section::Rules,
        "EVALUATION" => Section::Evaluation,
        _ => return None,
    })
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
}

/// Java's `String.trim`: removes every character up to U+0020 at both ends.
fn trim_java(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

fn parse_int(t: &str) -> Option<i32> {
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

fn parse_real(t: &str) -> Option<f64> {
    trim_java(t).parse::<f64>().ok().filter(|v| v.is_finite())
}

fn int_list(t: &str) -> Option<Vec<i32>> {
    t.split(',').map(|x| parse_int(trim_java(x))).collect()
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
    };
    l.names.sym("");
    l.read(text);
    l.finish(name)
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

    fn read(&mut self, text: &str) {
        let mut section = Section::Board;
        for (i, raw) in text.split('\n').enumerate() {
            let line_no = i as u32 + 1;
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            let t = trim_java(raw);
            let lead = raw[..raw.len() - raw.trim_start_matches(|c: char| c <= ' ').len()]
                .chars()
                .count() as u32;
            if t.chars().count() < 2 {
                if !t.is_empty() {
                    let what = if self.open_func.is_some() {
                        " (inside a function body)"
                    } else {
                        ""
                    };
                    self.warn(
                        line_no,
                        lead + 1,
                        format!("line `{t}` is shorter than two characters and is ignored{what}"),
                    );
                }
                continue;
            }
            if t.starts_with("//") {
                continue;
            }
            if t.starts_with('[') {
                if !t.ends_with(']') {
                    self.err(line_no, lead + 1, "section header must end with `]`");
                    continue;
                }
                let inner = &t[1..t.len() - 1];
                match section_of(inner) {
                    Some(s) => section = s,
                    None => self.err(
                        line_no,
                        lead + 2,
                        format!(
                            "unknown section `[{inner}]`; expected one of BOARD, REALBOARD ELEMENT TYPES, ELEMENT TYPES, \
                             LOCATION TYPES, LOCATIONS, PLAYER NAMES, MOVABLE ELEMENTS, EXPRESSIONS, SCORINGS, \
                             END OF GAME, GAME RULES, EVALUATION"
                        ),
                    ),
                }
                continue;
            }
            if section == Section::Expressions {
                self.function_line(t, line_no, lead + 1);
                continue;
            }
            let Some(eq) = t.find('=') else {
                self.err(line_no, lead + 1, "expected `key=value`");
                continue;
            };
            let key = &t[..eq];
            let value = Val {
                text: t[eq + 1..].to_string(),
                line: line_no,
                col: lead + 1 + t[..eq + 1].chars().count() as u32,
            };
            let key_lc = key.to_ascii_lowercase();
            if key != key.trim() {
                self.warn(
                    line_no,
                    lead + 1,
                    format!("key `{key}` has surrounding spaces and is ignored (write `{}=` with no spaces)", key.trim()),
                );
                continue;
            }
            match section {
                Section::Board => self.board(key, &value),
                Section::Realboard => self.realboard(&key_lc, &value),
                Section::ElementTypes => self.element_type(&key_lc, &value),
                Section::LocationTypes => self.location_type(&key_lc, &value),
                Section::Locations => self.location(&key_lc, &value),
                Section::PlayerNames => self.player(&key_lc, &value),
                Section::Elements => self.element(&key_lc, &value),
                Section::Scorings => self.scoring(&key_lc, &value),
                Section::End => self.end(&key_lc, &value),
                Section::Rules => self.rule(&key_lc, &value),
                Section::Evaluation => self.evaluation(&key_lc, &value),
                Section::Expressions => unreachable!(),
            }
        }
    }

    fn unknown_key(&mut self, section: &str, key: &str, v: &Val) {
        let col = v.col.saturating_sub(key.len() as u32 + 1);
        self.warn(
            v.line,
            col,
            format!("unknown key `{key}` in [{section}] is ignored"),
        );
    }

    fn no_record(&mut self, section: &str, opener: &str, v: &Val) {
        self.err(
            v.line,
            v.col,
            format!("entry before the first `{opener}=` of [{section}]: no record to attach it to"),
        );
    }

    fn int(&mut self, v: &Val) -> Option<i32> {
        let r = parse_int(&v.text);
        if r.is_none() {
            self.err(
                v.line,
                v.col,
                format!("expected an integer, found `{}`", v.text),
            );
        }
        r
    }

    fn real(&mut self, v: &Val) -> Option<f64> {
        let r = parse_real(&v.text);
        if r.is_none() {
            self.err(
                v.line,
                v.col,
                format!("expected a number, found `{}`", v.text),
            );
        }
        r
    }

    fn pixel(&mut self, v: &Val) -> Option<Pixel> {
        match int_list(&v.text).as_deref() {
            Some([x, y]) => Some(Pixel { x: *x, y: *y }),
            _ => {
                self.err(
                    v.line,
                    v.col,
                    format!("expected `x,y` (two integers), found `{}`", v.text),
                );
                None
            }
        }
    }

    fn expr(&mut self, v: &Val) -> Option<SrcExpr> {
        match expr::parse(&v.text, &mut self.names) {
            Ok(e) => Some(SrcExpr {
                expr: e,
                line: v.line,
                col: v.col,
            }),
            Err(e) => {
                self.err(v.line, v.col + e.col - 1, e.message);
                None
            }
        }
    }

    fn board(&mut self, key: &str, v: &Val) {
        if key == "image" {
            self.board_image = Some(v.text.clone());
        } else {
            self.unknown_key("BOARD", key, v);
        }
    }

    fn realboard(&mut self, key: &str, v: &Val) {
        if key == "name" {
            self.realboard.push(RealboardSignature {
                name: v.text.clone(),
                state: 1,
                hue_min: 0.0,
                hue_max: 0.0,
                saturation_min: 0.0,
                saturation_max: 0.0,
                value_min: 0.0,
                value_max: 0.0,
                size_min: 0,
                size_max: 0,
                line: v.line,
            });
            return;
        }
        if self.realboard.is_empty() {
            return self.no_record("REALBOARD ELEMENT TYPES", "name", v);
        }
        let reals = [
            "huemin",
            "huemax",
            "saturationmin",
            "saturationmax",
            "valuemin",
            "valuemax",
        ];
        if reals.contains(&key) {
            if let Some(x) = self.real(v) {
                let r = self.realboard.last_mut().expect("checked");
                *match key {
                    "huemin" => &mut r.hue_min,
                    "huemax" => &mut r.hue_max,
                    "saturationmin" => &mut r.saturation_min,
                    "saturationmax" => &mut r.saturation_max,
                    "valuemin" => &mut r.value_min,
                    _ => &mut r.value_max,
                } = x;
            }
            return;
        }
        match key {
            "state" | "sizemin" | "sizemax" => {
                if let Some(x) = self.int(v) {
                    let r = self.realboard.last_mut().expect("checked");
                    match key {
                        "state" => r.state = x,
                        "sizemin" => r.size_min = x as i64,
                        _ => r.size_max = x as i64,
                    }
                }
            }
            _ => self.unknown_key("REALBOARD ELEMENT TYPES", key, v),
        }
    }

    fn element_type(&mut self, key: &str, v: &Val) {
        if key == "name" {
            let t = ElementType {
                name: v.text.clone(),
                states: 0,
                images: Vec::new(),
                line: v.line,
            };
            let idx = match self.etype_map.get(&v.text) {
                Some(&i) => {
                    self.element_types[i] = t;
                    i
                }
                None => {
                    self.element_types.push(t);
                    self.etype_map
                        .insert(v.text.clone(), self.element_types.len() - 1);
                    self.element_types.len() - 1
                }
            };
            self.etype_cur = Some(idx);
            self.etype_pending_image = None;
            self.etype_pairs = 0;
            return;
        }
        let Some(cur) = self.etype_cur else {
            return self.no_record("ELEMENT TYPES", "name", v);
        };
        match key {
            "states" => {
                // On a bad value the error is reported here; 1 keeps later checks quiet.
                let k = match self.int(v) {
                    Some(k) if k >= 1 => k,
                    Some(_) => {
                        self.err(v.line, v.col, "states must be at least 1");
                        1
                    }
                    None => 1,
                };
                self.element_types[cur].states = k;
            }
            "image" => self.etype_pending_image = Some(v.text.clone()),
            "point" => {
                let Some(p) = self.pixel(v) else { return };
                let k = self.element_types[cur].states;
                if k == 0 {
                    return self.err(
                        v.line,
                        v.col,
                        "`states=` must come before the first image/point pair",
                    );
                }
                if self.etype_pairs as i32 >= k {
                    return self.err(
                        v.line,
                        v.col,
                        format!("more image/point pairs than the {k} state(s) of this type"),
                    );
                }
                let img = self.etype_pending_image.clone().unwrap_or_default();
                self.element_types[cur].images.push((img, p));
                self.etype_pairs += 1;
            }
            _ => self.unknown_key("ELEMENT TYPES", key, v),
        }
    }

    fn location_type(&mut self, key: &str, v: &Val) {
        if key == "name" {
            let t = LocationType {
                name: v.text.clone(),
                image: None,
                shape: None,
                hotspot: Pixel { x: 0, y: 0 },
                relevant: true,
                line: v.line,
            };
            let idx = match self.ltype_map.get(&v.text) {
                Some(&i) => {
                    self.location_types[i] = t;
                    i
                }
                None => {
                    self.location_types.push(t);
                    self.ltype_map
                        .insert(v.text.clone(), self.location_types.len() - 1);
                    self.location_types.len() - 1
                }
            };
            self.ltype_cur = Some(idx);
            return;
        }
        let Some(cur) = self.ltype_cur else {
            return self.no_record("LOCATION TYPES", "name", v);
        };
        match key {
            "image" => self.location_types[cur].image = Some(v.text.clone()),
            "point" => {
                if let Some(p) = self.pixel(v) {
                    self.location_types[cur].hotspot = p;
                }
            }
            "relevant" => self.location_types[cur].relevant = v.text.eq_ignore_ascii_case("yes"),
            "shape" => {
                let t = v.text.replace([' ', '\t'], "");
                let lower = t.to_ascii_lowercase();
                let args = lower
                    .find('(')
                    .and_then(|p| lower.strip_suffix(')').map(|s| &s[p + 1..]))
                    .and_then(int_list);
                let shape = match (lower.split('(').next(), args.as_deref()) {
                    (Some("circle"), Some([r, ..])) => Some(Shape::Circle { r: *r }),
                    (Some("rectangular"), Some([w, h, ..])) => {
                        Some(Shape::Rectangle { w: *w, h: *h })
                    }
                    _ => None,
                };
                match shape {
                    Some(s) => self.location_types[cur].shape = Some(s),
                    None => self.err(
                        v.line,
                        v.col,
                        format!(
                            "expected `circle(r)` or `rectangular(w,h)`, found `{}`",
                            v.text
                        ),
                    ),
                }
            }
            _ => self.unknown_key("LOCATION TYPES", key, v),
        }
    }

    fn location(&mut self, key: &str, v: &Val) {
        if key == "name" {
            let rec = LocRec {
                loc: Location {
                    name: v.text.clone(),
                    location_type: 0,
                    point: None,
                    camera: None,
                    robot: None,
                    line: v.line,
                },
                has_type: false,
            };
            let idx = match self.loc_map.get(&v.text) {
                Some(&i) => {
                    self.locations[i] = rec;
                    i
                }
                None => {
                    self.locations.push(rec);
                    self.loc_map
                        .insert(v.text.clone(), self.locations.len() - 1);
                    self.locations.len() - 1
                }
            };
            self.loc_cur = Some(idx);
            return;
        }
        let Some(cur) = self.loc_cur else {
            return self.no_record("LOCATIONS", "name", v);
        };
        match key {
            "type" => match self.ltype_map.get(&v.text) {
                Some(&t) => {
                    self.locations[cur].loc.location_type = t;
                    self.locations[cur].has_type = true;
                }
                None => {
                    // Reported here; do not also report the location as untyped.
                    self.locations[cur].has_type = true;
                    self.err(
                        v.line,
                        v.col,
                        format!("unknown location type `{}` (location types must be defined earlier in the file)", v.text),
                    )
                }
            },
            "point" => {
                if let Some(p) = self.pixel(v) {
                    self.locations[cur].loc.point = Some(p);
                }
            }
            "camera" => {
                if let Some(p) = self.pixel(v) {
                    self.locations[cur].loc.camera = Some(p);
                }
            }
            "robot" => {
                let nums: Option<Vec<f64>> = v.text.split(',').map(parse_real).collect();
                match nums.as_deref() {
                    Some([x, y, z]) => {
                        self.locations[cur].loc.robot = Some(RobotSpec::Cartesian([*x, *y, *z]))
                    }
                    Some(a) if a.len() == 10 => {
                        let mut arr = [0.0; 10];
                        arr.copy_from_slice(a);
                        self.locations[cur].loc.robot = Some(RobotSpec::Angles(arr));
                    }
                    _ => self.err(
                        v.line,
                        v.col,
                        format!(
                            "robot= needs 3 coordinates (cm) or 10 angles (degrees), found `{}`",
                            v.text
                        ),
                    ),
                }
            }
            _ => self.unknown_key("LOCATIONS", key, v),
        }
    }

    fn player(&mut self, key: &str, v: &Val) {
        if key == "score" {
            if let Some(s) = self.int(v) {
                self.initial_score = s;
            }
            return;
        }
        let col = v.col.saturating_sub(key.len() as u32 + 1);
        match parse_int(key) {
            Some(n) if n == self.players.len() as i32 + 1 => self.players.push(v.text.clone()),
            Some(n) => self.err(
                v.line,
                col,
                format!("player number {n} out of order: expected {} (players are numbered 1, 2, ... in order)", self.players.len() + 1),
            ),
            None => self.err(v.line, col, format!("unknown key `{key}` in [PLAYER NAMES]: expected a player number or `score`")),
        }
    }

    fn element(&mut self, key: &str, v: &Val) {
        if key == "name" {
            let rec = ElemRec {
                name: v.text.clone(),
                etype: None,
                location: None,
                owner: 0,
                state: 1,
                zindex: 0,
                line: v.line,
            };
            let idx = match self.elem_map.get(&v.text) {
                Some(&i) => {
                    self.elements[i] = rec;
                    i
                }
                None => {
                    self.elements.push(rec);
                    self.elem_map
                        .insert(v.text.clone(), self.elements.len() - 1);
                    self.elements.len() - 1
                }
            };
            self.elem_cur = Some(idx);
            return;
        }
        let Some(cur) = self.elem_cur else {
            return self.no_record("MOVABLE ELEMENTS", "name", v);
        };
        match key {
            "type" => self.elements[cur].etype = Some(v.clone()),
            "location" => self.elements[cur].location = Some(v.clone()),
            "player" | "state" | "zindex" => {
                if let Some(x) = self.int(v) {
                    let r = &mut self.elements[cur];
                    match key {
                        "player" => r.owner = x,
                        "state" => r.state = x,
                        _ => r.zindex = x,
                    }
                }
            }
            _ => self.unknown_key("MOVABLE ELEMENTS", key, v),
        }
    }

    fn function_line(&mut self, t: &str, line: u32, col: u32) {
        if self.open_func.is_some() {
            if t.eq_ignore_ascii_case("end") {
                let f = self.open_func.take().expect("open");
                self.functions.push(f);
                return;
            }
            let v = Val {
                text: t.to_string(),
                line,
                col,
            };
            if let Some(e) = self.expr(&v) {
                self.open_func.as_mut().expect("open").body.push(e);
            }
            return;
        }
        if t.eq_ignore_ascii_case("end") {
            self.warn(
                line,
                col,
                "stray END outside a function definition is ignored",
            );
            return;
        }
        // A header: `Name` or `Name($P1,...)`.
        let (name, params) = match t.find('(') {
            None => (t, None),
            Some(p) => (&t[..p], Some(&t[p..])),
        };
        if name.is_empty() || name.contains([' ', '\t', '$', '"', ')', ',', '=']) {
            return self.err(
                line,
                col,
                format!("expected a function header `Name` or `Name($P1,...)`, found `{t}` (no space before `(`)"),
            );
        }
        if BUILTINS.contains(&name)
            || [
                "AND",
                "OR",
                "NOT",
                "ABS",
                "UNION",
                "INTERSECT",
                "SETMINUS",
                "SUBSET",
                "IN",
            ]
            .contains(&name)
            || name.eq_ignore_ascii_case("true")
            || name.eq_ignore_ascii_case("false")
            || name.starts_with(|c: char| c.is_ascii_digit())
        {
            return self.err(line, col, format!("`{name}` is a keyword, built-in or literal; a function of that name could never be called"));
        }
        let mut param_vars = Vec::new();
        if let Some(p) = params {
            let Some(inner) = p.strip_prefix('(').and_then(|s| s.strip_suffix(')')) else {
                return self.err(
                    line,
                    col + name.len() as u32,
                    "function parameters must be `($P1,$P2,...)`",
                );
            };
            if !inner.trim().is_empty() {
                for (k, part) in inner.split(',').enumerate() {
                    let part = part.trim();
                    let ok = part.len() > 1
                        && part.starts_with('$')
                        && !part[1..].contains(|c: char| "=!<>+-*/%(){}[],\"$ \t".contains(c));
                    if !ok {
                        return self.err(
                            line,
                            col + name.len() as u32,
                            format!("parameter {} must be a `$name`, found `{part}`", k + 1),
                        );
                    }
                    param_vars.push(self.names.var(&part[1..]));
                }
            }
        }
        self.open_func = Some(FuncRec {
            name: name.to_string(),
            params: param_vars,
            body: Vec::new(),
            line,
        });
    }

    fn scoring(&mut self, key: &str, v: &Val) {
        if key == "situation" {
            let Some(e) = self.expr(v) else {
                // Keep a placeholder so later player/score lines attach to this record, not the previous one.
                self.scorings.push(ScoringRec {
                    situation: SrcExpr {
                        expr: Expr::Bool(false),
                        line: v.line,
                        col: v.col,
                    },
                    players: Vec::new(),
                    scores: Vec::new(),
                    line: v.line,
                });
                return;
            };
            self.scorings.push(ScoringRec {
                situation: e,
                players: Vec::new(),
                scores: Vec::new(),
                line: v.line,
            });
            return;
        }
        if self.scorings.is_empty() {
            return self.no_record("SCORINGS", "situation", v);
        }
        match key {
            "player" => {
                if let Some(e) = self.expr(v) {
                    self.scorings.last_mut().expect("checked").players.push(e);
                }
            }
            "score" => {
                if let Some(e) = self.expr(v) {
                    self.scorings.last_mut().expect("checked").scores.push(e);
                }
            }
            _ => self.unknown_key("SCORINGS", key, v),
        }
    }

    fn end(&mut self, key: &str, v: &Val) {
        match key {
            "situation" => {
                let e = self.expr(v).unwrap_or(SrcExpr {
                    expr: Expr::Bool(false),
                    line: v.line,
                    col: v.col,
                });
                self.ends.push((e, None, v.line));
            }
            "winner" => {
                if self.ends.is_empty() {
                    return self.no_record("END OF GAME", "situation", v);
                }
                if let Some(e) = self.expr(v) {
                    self.ends.last_mut().expect("checked").1 = Some(e);
                }
            }
            _ => self.unknown_key("END OF GAME", key, v),
        }
    }

    fn evaluation(&mut self, key: &str, v: &Val) {
        match key {
            "player" => {
                if let Some(p) = self.int(v) {
                    self.evaluations.push((p, None, v.line));
                }
            }
            "value" => {
                if self.evaluations.is_empty() {
                    return self.no_record("EVALUATION", "player", v);
                }
                if let Some(e) = self.expr(v) {
                    self.evaluations.last_mut().expect("checked").1 = Some(e);
                }
            }
            _ => self.unknown_key("EVALUATION", key, v),
        }
    }

    fn filter(&mut self, v: &Val, what: &str) -> Option<Filter> {
        let e = self.expr(v)?;
        match e.expr {
            Expr::Int(i) => Some(Filter::Literal(i)),
            Expr::Var(var) => Some(Filter::Var(var)),
            _ => {
                self.err(v.line, v.col, format!("{what}= must be an integer or a `$variable` (any other expression would never match)"));
                None
            }
        }
    }

    fn rule(&mut self, key: &str, v: &Val) {
        if key == "name" {
            let rec = RuleRec {
                name: v.text.clone(),
                line: v.line,
                ..Default::default()
            };
            let idx = match self.rule_map.get(&v.text) {
                Some(&i) => {
                    self.rules[i] = rec;
                    i
                }
                None => {
                    self.rules.push(rec);
                    self.rule_map.insert(v.text.clone(), self.rules.len() - 1);
                    self.rules.len() - 1
                }
            };
            self.rule_cur = Some(idx);
            return;
        }
        let Some(cur) = self.rule_cur else {
            return self.no_record("GAME RULES", "name", v);
        };
        match key {
            "element" => self.rules[cur].element = Some(v.clone()),
            "from" => self.rules[cur].from = Some(v.clone()),
            "to" => self.rules[cur].to = Some(v.clone()),
            "tolocations" => self.rules[cur].to_locations = self.expr(v),
            "condition" => self.rules[cur].condition = self.expr(v),
            "followup" => self.rules[cur].followup = self.expr(v),
            "player" => self.rules[cur].player = self.filter(v, "player").map(|f| (f, v.line)),
            "state" => self.rules[cur].state = self.filter(v, "state").map(|f| (f, v.line)),
            "awardplayer" => {
                if let Some(e) = self.expr(v) {
                    self.rules[cur].award.push(e);
                }
            }
            "withscore" => {
                if let Some(e) = self.expr(v) {
                    self.rules[cur].with.push(e);
                }
            }
            "score" => self.warn(
                v.line,
                v.col,
                "rules have no `score=` key (use awardPlayer=/withScore=); ignored",
            ),
            _ => self.unknown_key("GAME RULES", key, v),
        }
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

    fn finish(mut self, name: &str) -> Result<Game, LoadError> {
        if let Some(f) = self.open_func.take() {
            self.warn(
                f.line,
                1,
                format!("function {} is not closed by END", f.name),
            );
            self.functions.push(f);
        }
        if self.players.is_empty() {
            self.err(
                0,
                0,
                "no players: [PLAYER NAMES] must list at least player 1 (`1=name`)",
            );
        }
        // Element types: every one needs states.
        for t in &self.element_types {
            if t.states == 0 {
                self.errors.push(Diagnostic {
                    line: t.line,
                    col: 1,
                    message: format!("element type `{}` has no `states=`", t.name),
                });
            }
        }
        for r in &self.locations {
            if !r.has_type {
                self.errors.push(Diagnostic {
                    line: r.loc.line,
                    col: 1,
                    message: format!("location `{}` has no `type=`", r.loc.name),
                });
            }
        }
        let locations: Vec<Location> = self.locations.iter().map(|r| r.loc.clone()).collect();
        // Elements: resolve type and initial location.
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
        if elements.len() > u16::MAX as usize - 1 || locations.len() > u16::MAX as usize - 1 {
            self.err(0, 0, "too many elements or locations (at most 65534 each)");
        }
        if elements.len() > locations.len() {
            self.err(0, 0, "more elements than locations");
        }
        // Intern every name so expressions compare them as symbols.
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
        // Functions: the last definition of a name wins.
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
        // Rules.
        let mut rules = Vec::new();
        for r in std::mem::take(&mut self.rules) {
            if let Some(rule) = self.build_rule(r, &elements, &locations) {
                rules.push(rule);
            }
        }
        let mut scorings = Vec::new();
        for s in std::mem::take(&mut self.scorings) {
            if s.players.len() != s.scores.len() {
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
        let mut ends = Vec::new();
        for (sit, win, line) in std::mem::take(&mut self.ends) {
            match win {
                Some(w) => ends.push(EndCondition {
                    situation: sit,
                    winner: w,
                }),
                None => self.warn(
                    line,
                    1,
                    "end-of-game `situation=` without a `winner=` is ignored",
                ),
            }
        }
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
        // Every call must name a defined function with the right number of arguments.
        let mut all: Vec<&SrcExpr> = Vec::new();
        for f in &functions {
            all.extend(f.body.iter());
        }
        for r in &rules {
            all.extend(
                r.to_locations
                    .iter()
                    .chain(r.condition.iter())
                    .chain(r.followup.iter()),
            );
            for (a, w) in &r.bonuses {
                all.push(a);
                all.push(w);
            }
        }
        for s in &scorings {
            all.push(&s.situation);
            all.extend(s.players.iter().chain(s.scores.iter()));
        }
        for e in &ends {
            all.push(&e.situation);
            all.push(&e.winner);
        }
        for e in &evaluations {
            all.push(&e.value);
        }
        let mut call_errors = Vec::new();
        for se in all {
            let mut check = |f: FuncId, argc: usize| match &funcs[f as usize] {
                None => call_errors.push(Diagnostic {
                    line: se.line,
                    col: se.col,
                    message: format!("unknown function {}", self.names.func_names[f as usize]),
                }),
                Some(def) if def.params.len() != argc => call_errors.push(Diagnostic {
                    line: se.line,
                    col: se.col,
                    message: format!(
                        "function {} takes {} argument(s), called with {argc}",
                        def.name,
                        def.params.len()
                    ),
                }),
                _ => {}
            };
            se.expr.walk(&mut |e| match e {
                Expr::Call(f, args) => check(*f, args.len()),
                Expr::Lazy(items) => {
                    for it in items.iter() {
                        if let LazyItem::Defer(f, args) = it {
                            check(*f, args.len());
                        }
                    }
                }
                _ => {}
            });
        }
        call_errors.dedup();
        self.errors.extend(call_errors);
        // Element-independence of each rule's targets (see Rule::element_independent).
        let reads = FunctionReads::new(&funcs);
        for r in &mut rules {
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
                    let used = reads.of_expr(&e.expr, &self.names);
                    used.is_disjoint(&side)
                }
            };
        }
        // Templates: cache the known texts each one can produce from integers.
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
        let from_match = locations.iter().map(|l| from.matches(&l.name)).collect();
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
        })
    }

    fn build_templates(&mut self) -> Vec<Template> {
        let raw = std::mem::take(&mut self.names.templates);
        let mut out = Vec::with_capacity(raw.len());
        for pieces in raw {
            let tpieces: Vec<TemplatePiece> = pieces
                .iter()
                .map(|p| match p {
                    StrPiece::Text(t) => TemplatePiece::Text(t.clone()),
                    StrPiece::Var(v) => TemplatePiece::Var(self.names.var(v)),
                })
                .collect();
            let vars: SmallVec<[VarId; 4]> = tpieces
                .iter()
                .filter_map(|p| match p {
                    TemplatePiece::Var(v) => Some(*v),
                    _ => None,
                })
                .collect();
            let mut cache = FxHashMap::default();
            // The template read as a pattern finds every known text it can produce from
            // non-negative integers; re-rendering rules out leading zeros.
            let as_pattern = Pattern::new("", &pieces, |n| {
                self.names.var_map.get(n).copied().unwrap_or(0)
            });
            if !as_pattern.has_literal_digits() {
                for (s, text) in self.names.syms.iter().enumerate() {
                    if let Some(b) = as_pattern.matches(text) {
                        let ints: SmallVec<[i32; 4]> = b.iter().map(|x| x.1).collect();
                        let mut rendered = String::new();
                        let mut k = 0;
                        for p in &tpieces {
                            match p {
                                TemplatePiece::Text(t) => rendered.push_str(t),
                                TemplatePiece::Var(_) => {
                                    rendered.push_str(&ints[k].to_string());
                                    k += 1;
                                }
                            }
                        }
                        if rendered == **text {
                            cache.insert(ints, s as Sym);
                        }
                    }
                }
            }
            let exhaustive = !as_pattern.has_literal_digits();
            let dense = dense_table(&cache, vars.len());
            if dense.is_some() {
                cache.clear();
            }
            out.push(Template {
                pieces: tpieces,
                vars,
                cache,
                dense,
                exhaustive,
            });
        }
        out
    }
}

/// A dense table over the argument ranges of `cache`, when it has at most 65536 cells.
fn dense_table(cache: &FxHashMap<SmallVec<[i32; 4]>, Sym>, arity: usize) -> Option<DenseTable> {
    if cache.is_empty() || arity == 0 {
        return None;
    }
    let mut mins: SmallVec<[i32; 4]> = SmallVec::from_elem(i32::MAX, arity);
    let mut maxs: SmallVec<[i32; 4]> = SmallVec::from_elem(i32::MIN, arity);
    for k in cache.keys() {
        for (i, &x) in k.iter().enumerate() {
            mins[i] = mins[i].min(x);
            maxs[i] = maxs[i].max(x);
        }
    }
    let mut cells: u64 = 1;
    let mut dims: SmallVec<[u32; 4]> = SmallVec::new();
    for i in 0..arity {
        let d = (maxs[i] as i64 - mins[i] as i64 + 1) as u64;
        cells = cells.saturating_mul(d);
        dims.push(d.min(u32::MAX as u64) as u32);
    }
    if cells > 65_536 {
        return None;
    }
    let mut table = vec![Sym::MAX; cells as usize];
    for (k, &s) in cache {
        let mut idx = 0usize;
        for (i, &x) in k.iter().enumerate() {
            idx = idx * dims[i] as usize + (x - mins[i]) as usize;
        }
        table[idx] = s;
    }
    Some(DenseTable { mins, dims, table })
}

/// Which variables an expression may touch, following calls into functions.
struct FunctionReads<'a> {
    funcs: &'a [Option<Function>],
}

impl<'a> FunctionReads<'a> {
    fn new(funcs: &'a [Option<Function>]) -> Self {
        FunctionReads { funcs }
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
