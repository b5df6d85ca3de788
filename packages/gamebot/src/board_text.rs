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

/// Draws the board: every cell shows its occupant's type symbol (with its state when > 1),
/// `.` for an empty location, a count for stacks of locations sharing one point.
pub fn render(game: &Game, state: &State) -> String {
    let syms = type_symbols(game);
    let placed: Vec<(usize, i32, i32)> = game
        .locations
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.point.map(|p| (i, p.x, p.y)))
        .collect();
    if placed.is_empty() {
        // No coordinates: list occupied locations instead.
        let mut out = String::new();
        for (i, l) in game.locations.iter().enumerate() {
            if let Some(e) = state.content(i as u16) {
                out.push_str(&format!("{}: {}\n", l.name, game.elements[e as usize].name));
            }
        }
        return out;
    }
    let mut xs: Vec<i32> = placed.iter().map(|p| p.1).collect();
    let mut ys: Vec<i32> = placed.iter().map(|p| p.2).collect();
    let xmap = axis(&mut xs, 8);
    let ymap = axis(&mut ys, 8);
    let cols = xmap.values().max().map_or(0, |m| m + 1);
    let rows = ymap.values().max().map_or(0, |m| m + 1);
    // Each cell collects the locations at it.
    let mut cells: Vec<Vec<usize>> = vec![Vec::new(); cols * rows];
    for (i, x, y) in &placed {
        cells[ymap[y] * cols + xmap[x]].push(*i);
    }
    let mut out = String::new();
    for r in 0..rows {
        for c in 0..cols {
            let locs = &cells[r * cols + c];
            let cell = match locs.len() {
                0 => "   ".to_string(),
                1 => match state.content(locs[0] as u16) {
                    Some(e) => {
                        let t = game.elements[e as usize].element_type;
                        let s = state.element_state(e);
                        if game.element_types[t].states > 1 {
                            format!("{}{:<2}", syms[t], s)
                        } else {
                            format!("{}  ", syms[t])
                        }
                    }
                    None => ".  ".to_string(),
                },
                _ => {
                    let n = locs
                        .iter()
                        .filter(|&&l| state.content(l as u16).is_some())
                        .count();
                    let t = locs
                        .iter()
                        .find_map(|&l| state.content(l as u16))
                        .map(|e| syms[game.elements[e as usize].element_type]);
                    match t {
                        Some(s) => format!("{s}{n:<2}"),
                        None => "0  ".to_string(),
                    }
                }
            };
            out.push_str(&cell);
        }
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    let legend: Vec<String> = game
        .element_types
        .iter()
        .zip(&syms)
        .map(|(t, s)| format!("{s}={}", t.name))
        .collect();
    out.push_str(&format!(
        "legend: {}  (a number after a symbol: its state, or pieces in a stack)\n",
        legend.join(" ")
    ));
    out
}
