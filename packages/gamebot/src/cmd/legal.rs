//! `gamebot legal GAME [--moves ...] [--every-step] [--distinct]` — a stable,
//! scriptable listing of legal moves (used for differential testing).

use crate::common::{apply_text, legal_texts, load_game, move_list};

#[derive(clap::Args)]
pub struct Args {
    /// Game file.
    game: String,
    /// Moves to apply first, separated by whitespace (`element:from->to`).
    #[arg(long)]
    moves: Option<String>,
    /// Read the moves from a file instead, one per line.
    #[arg(long)]
    moves_file: Option<String>,
    /// Print one line per prefix 0..n of the moves: that position's legal moves, space separated.
    #[arg(long)]
    every_step: bool,
    /// One representative per move equivalence class (docs/language.md §7.5).
    #[arg(long)]
    distinct: bool,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let game = load_game(&a.game)?;
    let moves = move_list(a.moves.as_deref(), a.moves_file.as_deref())?;
    let mut state = game.initial_state();
    let listing = |state: &gamebot_rules::State| -> anyhow::Result<Vec<String>> {
        let all = game.legal_moves(state)?;
        let shown = if a.distinct {
            game.distinct_moves(state, &all)
        } else {
            all
        };
        Ok(legal_texts(&game, state, &shown))
    };
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
        if a.every_step {
            out.push_str(&listing(&state)?.join(" "));
            out.push('\n');
        }
        if let Err(e) = apply_text(&game, &mut state, i + 1, m) {
            out!("{out}");
            eprintln!("error: {e:#}");
            return Ok(2);
        }
    }
    let last = listing(&state)?;
    if a.every_step {
        out.push_str(&last.join(" "));
        out.push('\n');
    } else {
        for l in last {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out!("{out}");
    Ok(0)
}
