//! Helpers shared by the subcommands.

use anyhow::{bail, Context, Result};
use gamebot_rules::{Game, Move, State};

/// Loads a game, turning load errors into one message with every `file:line:col`.
pub fn load_game(path: &str) -> Result<Game> {
    Game::load(path).map_err(|e| anyhow::anyhow!("{e}"))
}

/// Splits a `--moves` argument (whitespace separated) or reads a `--moves-file` (one per line).
pub fn move_list(moves: Option<&str>, file: Option<&str>) -> Result<Vec<String>> {
    let mut out: Vec<String> = moves
        .map(|m| m.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    if let Some(f) = file {
        let text = gamebot_input::read_text(std::path::Path::new(f))
            .with_context(|| format!("cannot read moves file {f}"))?;
        out.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_string),
        );
    }
    Ok(out)
}

/// A move list failed at a step; exit code 2 territory.
#[derive(Debug)]
pub struct StepError(pub String);
impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for StepError {}

/// Applies one move given as text at step `step` (1-based), with a message naming both on failure.
pub fn apply_text(game: &Game, state: &mut State, step: usize, text: &str) -> Result<Move> {
    let mv = game
        .find_move(state, text)
        .map_err(|e| StepError(format!("step {step}: {e}")))?;
    let mut next = state.clone();
    if let Err(e) = game.apply(&mut next, &mv) {
        bail!(StepError(format!(
            "step {step}: applying `{text}` failed: {e}"
        )));
    }
    *state = next;
    Ok(mv)
}

/// The legal moves as sorted text; equal texts from different rules get `@rule`.
pub fn legal_texts(game: &Game, state: &State, moves: &[Move]) -> Vec<String> {
    let mut texts: Vec<(String, &str)> = moves
        .iter()
        .map(|m| (game.move_text(m), game.rule_name(m)))
        .collect();
    texts.sort();
    texts.dedup();
    let mut out = Vec::with_capacity(texts.len());
    for (i, (t, r)) in texts.iter().enumerate() {
        let dup = (i > 0 && texts[i - 1].0 == *t) || texts.get(i + 1).is_some_and(|n| n.0 == *t);
        out.push(if dup { format!("{t}@{r}") } else { t.clone() });
    }
    let _ = state;
    out.sort();
    out
}

/// The given game files, or every `games/*.game` (sorted) when none are given.
pub fn game_files_or_all(given: &[String]) -> Result<Vec<String>> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    let mut found: Vec<String> = std::fs::read_dir("games")
        .context("cannot list games/ (run from the repository root or name the game files)")?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .map(|p| p.display().to_string())
        .collect();
    found.sort();
    Ok(found)
}
