//! Hand-checked facts about the games in `games/` (legal moves, outcomes,
//! scores, piece positions, evaluations), read from `tests/data/facts.txt`
//! and checked through the library API. The file's header documents its
//! format. Every failing check is collected and reported with its line number,
//! so one run shows all disagreements at once.

use gamebot_rules::{Game, Move, State};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn repo_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The legal moves as the CLI prints them (`gamebot legal`): sorted text,
/// `text@rule` where two rules generate the same text.
fn legal_texts(game: &Game, moves: &[Move]) -> Vec<String> {
    let mut texts: Vec<(String, &str)> = moves
        .iter()
        .map(|m| (game.move_text(m), game.rule_name(m)))
        .collect();
    texts.sort();
    texts.dedup();
    let mut out: Vec<String> = texts
        .iter()
        .enumerate()
        .map(|(i, (t, r))| {
            let dup =
                (i > 0 && texts[i - 1].0 == *t) || texts.get(i + 1).is_some_and(|n| n.0 == *t);
            if dup {
                format!("{t}@{r}")
            } else {
                t.clone()
            }
        })
        .collect();
    out.sort();
    out
}

/// One piece of an expansion item: literal text, a range `{a..b}` / `{k=a..b}`,
/// or a reference `{k}` / `{k+4}` / `{k-1}` to a named range of the same item.
#[derive(Debug)]
enum Piece {
    Lit(String),
    Range(Option<String>, i64, i64),
    Ref(String, i64),
}

fn parse_int(s: &str, item: &str) -> Result<i64, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("`{s}` is not an integer in `{item}`"))
}

fn parse_braces(inner: &str, item: &str) -> Result<Piece, String> {
    if let Some((lo, hi)) = inner.split_once("..") {
        let (name, lo) = match lo.split_once('=') {
            Some((n, l)) => (Some(n.trim().to_string()), l),
            None => (None, lo),
        };
        let (lo, hi) = (parse_int(lo, item)?, parse_int(hi, item)?);
        if lo > hi {
            return Err(format!("empty range {{{inner}}} in `{item}`"));
        }
        return Ok(Piece::Range(name, lo, hi));
    }
    let (name, off) = match inner.find(['+', '-']) {
        Some(p) => {
            let off = parse_int(&inner[p + 1..], item)?;
            let off = if inner.as_bytes()[p] == b'-' {
                -off
            } else {
                off
            };
            (&inner[..p], off)
        }
        None => (inner, 0),
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(format!("bad variable `{{{inner}}}` in `{item}`"));
    }
    Ok(Piece::Ref(name.to_string(), off))
}

/// Expands one item such as `d({k+4}):pool({k=1..32})` or `h({1..4},{1..5})`:
/// the cartesian product of its ranges, in order, with references filled in.
fn expand_item(item: &str) -> Result<Vec<String>, String> {
    let mut pieces = Vec::new();
    let mut rest = item;
    while let Some(open) = rest.find('{') {
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| format!("unclosed `{{` in `{item}`"))?
            + open;
        if open > 0 {
            pieces.push(Piece::Lit(rest[..open].to_string()));
        }
        pieces.push(parse_braces(&rest[open + 1..close], item)?);
        rest = &rest[close + 1..];
    }
    if rest.contains('}') {
        return Err(format!("unmatched `}}` in `{item}`"));
    }
    if !rest.is_empty() {
        pieces.push(Piece::Lit(rest.to_string()));
    }
    let ranges: Vec<(Option<&str>, i64, i64)> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Range(n, lo, hi) => Some((n.as_deref(), *lo, *hi)),
            _ => None,
        })
        .collect();
    for p in &pieces {
        if let Piece::Ref(n, _) = p {
            if !ranges.iter().any(|r| r.0 == Some(n.as_str())) {
                return Err(format!("`{{{n}}}` has no range `{{{n}=a..b}}` in `{item}`"));
            }
        }
    }
    let mut out = Vec::new();
    let mut idx: Vec<i64> = ranges.iter().map(|r| r.1).collect();
    loop {
        let mut s = String::new();
        let mut ri = 0;
        for p in &pieces {
            match p {
                Piece::Lit(t) => s.push_str(t),
                Piece::Range(..) => {
                    s.push_str(&idx[ri].to_string());
                    ri += 1;
                }
                Piece::Ref(n, off) => {
                    let k = ranges.iter().position(|r| r.0 == Some(n.as_str()));
                    // Checked above: every reference has its range.
                    let v = k.map(|k| idx[k]).unwrap_or_default();
                    s.push_str(&(v + off).to_string());
                }
            }
        }
        out.push(s);
        // Odometer over the ranges, last range fastest.
        let mut k = ranges.len();
        loop {
            if k == 0 {
                return Ok(out);
            }
            k -= 1;
            if idx[k] < ranges[k].2 {
                idx[k] += 1;
                break;
            }
            idx[k] = ranges[k].1;
        }
    }
}

/// Expands a list of items; items written `!item` are removed from the result.
fn expand_list(words: &[&str]) -> Result<Vec<String>, String> {
    let mut keep = Vec::new();
    let mut drop = Vec::new();
    for w in words {
        match w.strip_prefix('!') {
            Some(x) => drop.extend(expand_item(x)?),
            None => keep.extend(expand_item(w)?),
        }
    }
    for d in &drop {
        if !keep.contains(d) {
            return Err(format!("`!{d}` removes nothing"));
        }
    }
    keep.retain(|k| !drop.contains(k));
    Ok(keep)
}

/// `L... -> R...`: every expanded left item (`element:from`) to every right item (`to`).
fn expand_product(spec: &str) -> Result<Vec<String>, String> {
    let (l, r) = spec
        .split_once(" -> ")
        .ok_or_else(|| "expected `ELEMENT:FROM ... -> TO ...`".to_string())?;
    let l = expand_list(&l.split_whitespace().collect::<Vec<_>>())?;
    let r = expand_list(&r.split_whitespace().collect::<Vec<_>>())?;
    let mut out: Vec<String> = l
        .iter()
        .flat_map(|a| r.iter().map(move |b| format!("{a}->{b}")))
        .collect();
    out.sort();
    let n = out.len();
    out.dedup();
    if out.len() != n {
        return Err("the product lists a move twice".into());
    }
    Ok(out)
}

/// A short readable difference between two sorted lists.
fn list_diff(expected: &[String], actual: &[String]) -> String {
    let missing: Vec<&String> = expected.iter().filter(|m| !actual.contains(m)).collect();
    let extra: Vec<&String> = actual.iter().filter(|m| !expected.contains(m)).collect();
    let show = |v: &[&String]| {
        let mut s = v
            .iter()
            .take(8)
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        if v.len() > 8 {
            s.push_str(&format!(" ... ({} in all)", v.len()));
        }
        s
    };
    if missing.is_empty() && extra.is_empty() {
        // Same moves, but in another order or with repetitions.
        format!(
            "expected [{}], got [{}]",
            expected.join(" "),
            actual.join(" ")
        )
    } else {
        format!(
            "expected {} moves, got {}; missing: [{}]; unexpected: [{}]",
            expected.len(),
            actual.len(),
            show(&missing),
            show(&extra)
        )
    }
}

struct Failure {
    line: usize,
    game: String,
    fact: String,
    msg: String,
}

/// Walks facts.txt, keeping the current game, fact title and position.
#[derive(Default)]
struct Runner {
    game: Option<Game>,
    game_path: String,
    fact: String,
    /// `None` before the first `fact` line of a game or after a move of the fact failed.
    state: Option<State>,
    failures: Vec<Failure>,
    /// Per game: (fact blocks, check lines).
    counts: BTreeMap<String, (usize, usize)>,
}

impl Runner {
    fn fail(&mut self, line: usize, msg: String) {
        self.failures.push(Failure {
            line,
            game: self.game_path.clone(),
            fact: self.fact.clone(),
            msg,
        });
    }

    fn line(&mut self, no: usize, raw: &str) {
        let text = raw.trim();
        if text.is_empty() || text.starts_with('#') {
            return;
        }
        let (cmd, arg) = text.split_once(' ').unwrap_or((text, ""));
        let arg = arg.trim();
        match cmd {
            "game" => {
                self.game_path = arg.to_string();
                self.fact.clear();
                self.state = None;
                self.game = match Game::load(repo_root().join(arg)) {
                    Ok(g) => Some(g),
                    Err(e) => {
                        self.fail(no, format!("cannot load the game: {e}"));
                        None
                    }
                };
                self.counts.entry(arg.to_string()).or_default();
            }
            "fact" => {
                self.fact = arg.to_string();
                self.state = self.game.as_ref().map(Game::initial_state);
                if self.game.is_some() {
                    self.counts.entry(self.game_path.clone()).or_default().0 += 1;
                }
            }
            _ => {
                let Some(game) = self.game.as_ref() else {
                    // The game did not load: already reported.
                    return;
                };
                if self.fact.is_empty() {
                    self.fail(no, format!("`{cmd}` outside a `fact` block"));
                    return;
                }
                if self.state.is_none() {
                    // An earlier move of this fact failed: already reported.
                    return;
                }
                if cmd != "moves" {
                    self.counts.entry(self.game_path.clone()).or_default().1 += 1;
                }
                if let Err(msg) = check(game, &mut self.state, cmd, arg) {
                    self.fail(no, msg);
                }
            }
        }
    }
}

/// Runs one directive on the current position. `moves` advances it (and
/// clears it on failure so the rest of the fact is skipped).
fn check(game: &Game, state: &mut Option<State>, cmd: &str, arg: &str) -> Result<(), String> {
    let st = state.as_mut().ok_or("no position")?;
    let legal = || -> Result<Vec<Move>, String> {
        game.legal_moves(st)
            .map_err(|e| format!("legal_moves failed: {e}"))
    };
    match cmd {
        "moves" => {
            for m in arg.split_whitespace() {
                let mv = game.find_move(st, m).and_then(|mv| game.apply(st, &mv));
                if let Err(e) = mv {
                    *state = None;
                    return Err(format!("move `{m}`: {e}"));
                }
            }
            Ok(())
        }
        "legal" => {
            let expected: Vec<String> = if arg == "none" {
                Vec::new()
            } else {
                arg.split_whitespace().map(str::to_string).collect()
            };
            let got = legal_texts(game, &legal()?);
            if got != expected {
                return Err(format!("legal moves: {}", list_diff(&expected, &got)));
            }
            Ok(())
        }
        "legal-count" | "distinct-count" => {
            let n: usize = arg.parse().map_err(|_| format!("bad count `{arg}`"))?;
            let mut moves = legal()?;
            if cmd == "distinct-count" {
                moves = game.distinct_moves(st, &moves);
            }
            let got = legal_texts(game, &moves).len();
            if got != n {
                return Err(format!("{cmd}: expected {n}, got {got}"));
            }
            Ok(())
        }
        "legal-first" => {
            let expected: Vec<&str> = arg.split_whitespace().collect();
            let got = legal_texts(game, &legal()?);
            let head: Vec<&str> = got
                .iter()
                .take(expected.len())
                .map(String::as_str)
                .collect();
            if head != expected {
                return Err(format!(
                    "first legal moves in sorted order: expected [{}], got [{}]",
                    expected.join(" "),
                    head.join(" ")
                ));
            }
            Ok(())
        }
        "legal-product" => {
            let expected = expand_product(arg).map_err(|e| format!("bad legal-product: {e}"))?;
            let got = legal_texts(game, &legal()?);
            if got != expected {
                return Err(format!("legal moves: {}", list_diff(&expected, &got)));
            }
            Ok(())
        }
        "illegal" => match game.find_move(st, arg) {
            Ok(_) => Err(format!("`{arg}` is legal, expected it to be rejected")),
            Err(_) => Ok(()),
        },
        "eval" => {
            let (p, v) = arg
                .split_once(' ')
                .ok_or_else(|| format!("expected `eval PLAYER VALUE`, got `{arg}`"))?;
            let p: i32 = p.parse().map_err(|_| format!("bad player `{p}`"))?;
            let v: i32 = v.trim().parse().map_err(|_| format!("bad value `{v}`"))?;
            let mut sc = game.scratch();
            match game.evaluate(st, p, &mut sc) {
                Ok(Some(got)) if got == v => Ok(()),
                Ok(Some(got)) => Err(format!(
                    "evaluation for player {p}: expected {v}, got {got}"
                )),
                Ok(None) => Err(format!("no [EVALUATION] for player {p}")),
                Err(e) => Err(format!("evaluation for player {p} failed: {e}")),
            }
        }
        "state" => {
            // As `gamebot state` does: a player without moves ends the game (docs/language.md §7.11).
            let mut settled = st.clone();
            let terminal = game.settle(&mut settled, &legal()?);
            let mut errs = Vec::new();
            for kv in arg.split_whitespace() {
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| format!("expected `key=value`, got `{kv}`"))?;
                let got = field(game, &settled, terminal, k)?;
                if got != v {
                    errs.push(format!("{k}: expected {v}, got {got}"));
                }
            }
            if errs.is_empty() {
                Ok(())
            } else {
                Err(format!("state: {}", errs.join("; ")))
            }
        }
        _ => Err(format!("unknown directive `{cmd}`")),
    }
}

/// One field of the (settled) position, as text.
fn field(game: &Game, st: &State, terminal: bool, key: &str) -> Result<String, String> {
    let element = |name: &str| {
        game.element_by_name(name)
            .ok_or_else(|| format!("there is no element `{name}`"))
    };
    if let Some(name) = key.strip_prefix("loc:") {
        let loc = st.location_of(element(name)?);
        return Ok(game.locations[loc as usize].name.clone());
    }
    if let Some(name) = key.strip_prefix("state:") {
        return Ok(st.element_state(element(name)?).to_string());
    }
    if let Some(p) = key.strip_prefix("score:") {
        let p: usize = p.parse().map_err(|_| format!("bad player `{p}`"))?;
        return p
            .checked_sub(1)
            .and_then(|i| st.scores().get(i))
            .map(i32::to_string)
            .ok_or_else(|| format!("there is no player {p}"));
    }
    match key {
        "player" => Ok(st.player().to_string()),
        "winner" => Ok(st.outcome().code().to_string()),
        "terminal" => Ok(terminal.to_string()),
        _ => Err(format!("unknown state field `{key}`")),
    }
}

#[test]
fn game_facts_hold() {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/facts.txt"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut r = Runner::default();
    for (i, l) in text.lines().enumerate() {
        r.line(i + 1, l);
    }
    let summary: Vec<String> = r
        .counts
        .iter()
        .map(|(g, (f, c))| format!("{g}: {f} facts, {c} checks"))
        .collect();
    println!("{}", summary.join("\n"));
    let checks: usize = r.counts.values().map(|c| c.1).sum();
    assert!(checks > 0, "{}: no checks found", path.display());
    if !r.failures.is_empty() {
        let list: Vec<String> = r
            .failures
            .iter()
            .map(|f| {
                format!(
                    "facts.txt:{} [{}] {}: {}",
                    f.line,
                    f.game,
                    if f.fact.is_empty() { "-" } else { &f.fact },
                    f.msg
                )
            })
            .collect();
        panic!(
            "{} of {checks} game-fact checks failed:\n{}",
            r.failures.len(),
            list.join("\n")
        );
    }
}

#[test]
fn expansion_syntax() {
    assert_eq!(
        expand_item("d({k+4}):pool({k=1..2})").unwrap(),
        ["d(5):pool(1)", "d(6):pool(2)"]
    );
    assert_eq!(
        expand_item("h({1..2},{3..4})").unwrap(),
        ["h(1,3)", "h(1,4)", "h(2,3)", "h(2,4)"]
    );
    assert_eq!(
        expand_item("x({k=2..2}):sx({k-1})").unwrap(),
        ["x(2):sx(1)"]
    );
    assert_eq!(
        expand_list(&["p({1..3})", "!p(2)"]).unwrap(),
        ["p(1)", "p(3)"]
    );
    assert_eq!(
        expand_product("a({k=1..2}):s({k}) -> t(1) t(2)").unwrap(),
        [
            "a(1):s(1)->t(1)",
            "a(1):s(1)->t(2)",
            "a(2):s(2)->t(1)",
            "a(2):s(2)->t(2)"
        ]
    );
    assert!(expand_item("p({k})").is_err(), "reference without a range");
    assert!(expand_item("p({3..1})").is_err(), "empty range");
    assert!(expand_item("p({1..2").is_err(), "unclosed brace");
    assert!(
        expand_list(&["p(1)", "!p(2)"]).is_err(),
        "removal of nothing"
    );
    assert!(expand_product("a -> b").is_ok());
    assert!(expand_product("a b").is_err(), "missing arrow");
    assert!(expand_product("a a -> b").is_err(), "duplicate move");
}
