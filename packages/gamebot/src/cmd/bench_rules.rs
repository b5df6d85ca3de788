//! `gamebot bench rules [GAME...] [--json]` — random playouts per second,
//! positions per second and mean branching factor, single-threaded.

use crate::common::load_game;
use gamebot_ai::playout::random_playout;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// Game files (default: every games/*.game and the original-style fixtures games/bench/*.game).
    games: Vec<String>,
    /// Print a JSON list instead of a table.
    #[arg(long)]
    json: bool,
    /// Measuring time per game, in seconds.
    #[arg(long, default_value_t = 3.0, value_parser = crate::limits::SECONDS)]
    seconds: f64,
    /// Playouts are cut after this many moves (as the original benchmark did).
    #[arg(long, default_value_t = 300, value_parser = crate::limits::MAX_MOVES)]
    max_moves: usize,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// One game's random-playout rates: the row of `gamebot bench rules` and
/// `gamebot gdl bench` (the same JSON objects for both front-ends).
#[derive(Serialize)]
pub(crate) struct Row {
    pub game: String,
    pub games_per_s: f64,
    pub positions_per_s: f64,
    pub mean_branching: f64,
    pub mean_length: f64,
}

/// Prints rows as JSON or as a table.
pub(crate) fn print_rows(rows: &[Row], json: bool) -> anyhow::Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(rows)?);
    } else {
        outln!(
            "{:<22} {:>12} {:>14} {:>10} {:>10}",
            "game",
            "games/s",
            "positions/s",
            "branching",
            "length"
        );
        for r in rows {
            outln!(
                "{:<22} {:>12.0} {:>14.0} {:>10.1} {:>10.1}",
                r.game,
                r.games_per_s,
                r.positions_per_s,
                r.mean_branching,
                r.mean_length
            );
        }
    }
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let mut games = crate::common::game_files_or_all(&a.games)?;
    if a.games.is_empty() {
        // The original-style fixtures (see docs/BENCHMARKS.md, "Rule engine").
        if let Ok(rd) = std::fs::read_dir("games/bench") {
            let mut fixtures: Vec<String> = rd
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "game"))
                .map(|p| p.display().to_string())
                .collect();
            fixtures.sort();
            games.extend(fixtures);
        }
    }
    let bar = indicatif::ProgressBar::new(games.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .expect("valid template"),
    );
    let mut rows = Vec::new();
    for path in &games {
        let game = load_game(path)?;
        bar.set_message(game.name.clone());
        let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
        let mut scratch = game.scratch();
        let mut buf = gamebot_rules::LegalMoves::new();
        let (mut n, mut positions, mut branching, mut length) = (0usize, 0usize, 0usize, 0usize);
        let budget = Duration::from_secs_f64(a.seconds);
        // One state refilled per game: no allocation per playout.
        let mut state = game.initial_state();
        let start = Instant::now();
        while start.elapsed() < budget || n == 0 {
            game.initial_state_into(&mut state);
            let p = random_playout(
                &game,
                &mut state,
                &mut rng,
                a.max_moves,
                || false,
                &mut scratch,
                &mut buf,
            )?;
            n += 1;
            positions += p.positions;
            branching += p.branching_sum;
            length += p.length;
        }
        let secs = start.elapsed().as_secs_f64();
        rows.push(Row {
            game: game.name.clone(),
            games_per_s: n as f64 / secs,
            positions_per_s: positions as f64 / secs,
            mean_branching: branching as f64 / positions.max(1) as f64,
            mean_length: length as f64 / n as f64,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    print_rows(&rows, a.json)?;
    Ok(0)
}
