//! Phase 1: lines → sections → records. Each section has a key handler; a
//! record's opening key (`name=`, `situation=`, `player=`) starts a record,
//! the other keys fill the current one.

use super::*;
use crate::expr::{self, Expr};
use crate::lexer::BUILTINS;

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

impl Loader<'_> {
    pub(super) fn read(&mut self, text: &str) {
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
            let kind = match section {
                Section::ElementTypes => Some("element type"),
                Section::LocationTypes => Some("location type"),
                Section::Locations => Some("location"),
                Section::Elements => Some("element"),
                Section::Rules => Some("rule"),
                _ => None,
            };
            if let Some(kind) = kind {
                let opening = key_lc == "name";
                self.definitions
                    .entry(kind, opening, &key_lc, &value.text, line_no);
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

    /// Parses an expression and folds its constants.
    fn expr(&mut self, v: &Val) -> Option<SrcExpr> {
        self.parse_expr(v).map(|se| SrcExpr {
            expr: se.expr.fold(),
            ..se
        })
    }

    /// Parses an expression as written.
    fn parse_expr(&mut self, v: &Val) -> Option<SrcExpr> {
        match expr::parse(&v.text, &mut self.names) {
            Ok(e) => Some(SrcExpr {
                expr: e,
                line: v.line,
                col: v.col,
                code: Default::default(),
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
                // §5: hue in degrees 0–360, saturation and value 0–1.
                let max = if key.starts_with("hue") { 360.0 } else { 1.0 };
                if !(0.0..=max).contains(&x) {
                    return self.err(
                        v.line,
                        v.col,
                        format!("{key}={x} is out of range: accepted 0 to {max}"),
                    );
                }
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
            let idx = open_record(&mut self.element_types, &mut self.etype_map, &v.text, t);
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
            let idx = open_record(&mut self.location_types, &mut self.ltype_map, &v.text, t);
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
            "relevant" => match v.text.trim().to_ascii_lowercase().as_str() {
                "yes" => self.location_types[cur].relevant = true,
                "no" => self.location_types[cur].relevant = false,
                other => self.err(
                    v.line,
                    v.col,
                    format!("relevant=`{other}`: expected yes or no"),
                ),
            },
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
            let idx = open_record(&mut self.locations, &mut self.loc_map, &v.text, rec);
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
            let idx = open_record(&mut self.elements, &mut self.elem_map, &v.text, rec);
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
                        code: Default::default(),
                    },
                    players: Vec::new(),
                    scores: Vec::new(),
                    line: v.line,
                    failed: false,
                });
                return;
            };
            self.scorings.push(ScoringRec {
                situation: e,
                players: Vec::new(),
                scores: Vec::new(),
                line: v.line,
                failed: false,
            });
            return;
        }
        if self.scorings.is_empty() {
            return self.no_record("SCORINGS", "situation", v);
        }
        match key {
            "player" | "score" => {
                let parsed = self.expr(v);
                let rec = self.scorings.last_mut().expect("checked");
                match parsed {
                    Some(e) if key == "player" => rec.players.push(e),
                    Some(e) => rec.scores.push(e),
                    None => rec.failed = true,
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
                    code: Default::default(),
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
        // Unfolded: `player=-1` stays the error it always was.
        let e = self.parse_expr(v)?;
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
            let idx = open_record(&mut self.rules, &mut self.rule_map, &v.text, rec);
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

    /// An unclosed function at the end of the file is kept, with a warning.
    pub(super) fn close_open_function(&mut self) {
        if let Some(f) = self.open_func.take() {
            self.warn(
                f.line,
                1,
                format!("function {} is not closed by END", f.name),
            );
            self.functions.push(f);
        }
    }
}
