//! `gamebot state GAME [--moves ...]` — the position after the moves, as JSON.

use crate::common::{apply_text, load_game, move_list};
use serde_json::{json, Map, Value};

#[derive(clap::Args)]
pub struct Args {
    /// Game file.
    game: String,
    /// Moves to apply, separated by whitespace.
    #[arg(long)]
    moves: Option<String>,
    /// Read the moves from a file instead, one per line.
    #[arg(long)]
    moves_file: Option<String>,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let game = load_game(&a.game)?;
    let moves = move_list(a.moves.as_deref(), a.moves_file.as_deref())?;
    let mut state = game.initial_state();
    for (i, m) in moves.iter().enumerate() {
        if let Err(e) = apply_text(&game, &mut state, i + 1, m) {
            eprintln!("error: {e:#}");
            return Ok(2);
        }
    }
    let legal = game.legal_moves(&state)?;
    let terminal = game.settle(&mut state, &legal);
    let mut scores = Map::new();
    for (i, s) in state.scores().iter().enumerate() {
        scores.insert((i + 1).to_string(), json!(s));
    }
    let mut locations = Map::new();
    let mut states = Map::new();
    for (i, e) in game.elements.iter().enumerate() {
        let e_id = i as u16;
        locations.insert(
            e.name.clone(),
            json!(game.locations[state.location_of(e_id) as usize].name),
        );
        states.insert(e.name.clone(), json!(state.element_state(e_id)));
    }
    let v = json!({
        "player": state.player(),
        "terminal": terminal,
        "winner": state.outcome().code(),
        "scores": Value::Object(scores),
        "locations": Value::Object(locations),
        "states": Value::Object(states),
    });
    outln!("{}", serde_json::to_string(&v)?);
    Ok(0)
}
