//! A readable text picture of a position, drawn from the locations' `point=` coordinates.

use gamebot_rules::{Game, State};
use std::collections::BTreeMap;

/// Groups nearly equal coordinates (within `tol` pixels) and returns a map value -> index.
fn axis(values: &mut Vec<i32>, tol: i32) -> BTreeMap<i32, usize> {
    values.sort_unstable();
    values.dedup();
    let mut map = BTreeMap::new();
    let mut idx = 0;
    let mut last: Option<i32> = None;
    for &v in values.iter() {
        if let Some(l) = last {
            if v - l > tol {
                idx += 1;
            }
        }
        map.insert(v, idx);
        last = Some(v);
    }
    map
}

/// One symbol per element type: its first letter, made unique.
pub fn type_symbols(game: &Game) -> Vec<char> {
    let mut used = std::collections::HashSet::new();
    game.element_types
        .iter()
        .map(|t| {
            let cands = t
                .name
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .chain("ABCDEFGHIJKLMNOPQRSTUVWXYZ123456789".chars());
            let mut chosen = '?';
            for c in cands {
                if used.insert(c) {
                    chosen = c;
                    break;
                }
            }
            chosen
        })
        .collect()
}

/// The symbol of one piece: its type's letter, upper case for state 2, the
/// state's digit after it for higher states.
fn piece_symbol(game: &Game, syms: &[char], state: &State, e: u16) -> String {
    let t = game.elements[e as usize].element_type;
    let c = syms[t];
    match state.element_state(e) {
        1 => c.to_ascii_lowercase().to_string(),
        2 if game.element_types[t].states == 2 && c.is_ascii_alphabetic() => {
            c.to_ascii_uppercase().to_string()
        }
        s => format!("{}{s}", c.to_ascii_lowercase()),
    }
}

/// Draws the board: relevant locations as a grid from their `point=` coordinates
/// (`.` empty, a piece symbol otherwise); interchangeable (irrelevant) locations
/// such as supplies and bins are summarised below by location type.
pub fn render(game: &Game, state: &State) -> String {
    let syms = type_symbols(game);
    let placed: Vec<(usize, i32, i32)> = game
        .locations
        .iter()
        .enumerate()
        .filter(|(i, _)| game.is_relevant(*i as u16))
        .filter_map(|(i, l)| l.point.map(|p| (i, p.x, p.y)))
        .collect();
    let mut out = String::new();
    if !placed.is_empty() {
        let mut xs: Vec<i32> = placed.iter().map(|p| p.1).collect();
        let mut ys: Vec<i32> = placed.iter().map(|p| p.2).collect();
        let xmap = axis(&mut xs, 8);
        let ymap = axis(&mut ys, 8);
        let cols = xmap.values().max().map_or(0, |m| m + 1);
        let rows = ymap.values().max().map_or(0, |m| m + 1);
        let mut cells: Vec<Vec<usize>> = vec![Vec::new(); cols * rows];
        for (i, x, y) in &placed {
            cells[ymap[y] * cols + xmap[x]].push(*i);
        }
        for r in 0..rows {
            let mut line = String::new();
            for c in 0..cols {
                let locs = &cells[r * cols + c];
                let pieces: Vec<String> = locs
                    .iter()
                    .filter_map(|&l| state.content(l as u16))
                    .map(|e| piece_symbol(game, &syms, state, e))
                    .collect();
                let cell = match (locs.len(), pieces.len()) {
                    (0, _) => String::new(),
                    (_, 0) => ".".to_string(),
                    (1, _) => pieces[0].clone(),
                    (_, n) => format!("{}x{n}", pieces[0]),
                };
                line.push_str(&format!("{cell:<4}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    // Supplies and bins: pieces per location type.
    for (t, lt) in game.location_types.iter().enumerate() {
        if lt.relevant {
            continue;
        }
        let mut count: std::collections::BTreeMap<String, usize> =
            std::collections::BTreeMap::new();
        for (l, loc) in game.locations.iter().enumerate() {
            if loc.location_type == t {
                if let Some(e) = state.content(l as u16) {
                    *count
                        .entry(piece_symbol(game, &syms, state, e))
                        .or_default() += 1;
                }
            }
        }
        let items: Vec<String> = count.iter().map(|(s, n)| format!("{n}×{s}")).collect();
        out.push_str(&format!(
            "{}: {}\n",
            lt.name,
            if items.is_empty() {
                "empty".to_string()
            } else {
                items.join(" ")
            }
        ));
    }
    let legend: Vec<String> = game
        .element_types
        .iter()
        .zip(&syms)
        .map(|(t, s)| format!("{}={}", s.to_ascii_lowercase(), t.name))
        .collect();
    out.push_str(&format!(
        "legend: {} (upper case or a digit: the piece's state)\n",
        legend.join(" ")
    ));
    out
}
