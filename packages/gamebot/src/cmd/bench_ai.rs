//! `gamebot bench ai [GAME...]` — search speed per game: alpha-beta nodes/s,
//! MCTS playouts/s on one thread and on several (root parallelism) with the
//! speed-up, and how long a search takes to stop after it is cancelled.

use crate::common::load_game;
use gamebot_ai::{strategy, CancelToken, SearchControl, SearchStats};
use gamebot_rules::{Game, State};
use serde::Serialize;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// Game files (default: every two-player games/*.game).
    games: Vec<String>,
    /// Search time per measurement, in seconds.
    #[arg(long, default_value_t = 2.0, value_parser = crate::limits::SECONDS)]
    seconds: f64,
    /// Threads of the multi-threaded MCTS run (default: the number of cores).
    #[arg(long, value_parser = crate::limits::THREADS)]
    threads: Option<usize>,
    /// Print a JSON list instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Row {
    game: String,
    alphabeta_nodes_per_s: f64,
    alphabeta_depth: u32,
    mcts_playouts_per_s_1: f64,
    mcts_nodes_per_s_1: f64,
    threads: usize,
    mcts_playouts_per_s_n: f64,
    speedup: f64,
    cancel_ms: f64,
}

fn think(game: &Game, state: &State, spec: &str) -> anyhow::Result<SearchStats> {
    let mut ai = strategy(spec)?;
    Ok(ai.choose(game, state, &SearchControl::new())?.stats)
}

/// Milliseconds from `cancel()` to the search returning (the worst of the strategies).
fn cancel_latency(game: &Game, state: &State) -> anyhow::Result<f64> {
    let mut worst: f64 = 0.0;
    for spec in [
        "alphabeta:time=1h",
        "mcts:time=1h",
        "mcts:time=1h,threads=2",
    ] {
        let cancel = CancelToken::new();
        let c2 = cancel.clone();
        let stamp = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            c2.cancel();
            Instant::now()
        });
        let mut ai = strategy(spec)?;
        ai.choose(game, state, &SearchControl::new().with_cancel(cancel))?;
        let returned = Instant::now();
        let cancelled = stamp.join().expect("the cancelling thread does not panic");
        worst = worst.max(returned.saturating_duration_since(cancelled).as_secs_f64() * 1000.0);
    }
    Ok(worst)
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let games = crate::common::game_files_or_all(&a.games)?;
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    let secs = a.seconds;
    let bar = indicatif::ProgressBar::new(games.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .expect("valid template"),
    );
    let mut rows = Vec::new();
    for path in &games {
        let game = load_game(path)?;
        bar.set_message(game.name.clone());
        if game.player_count() != 2 && a.games.is_empty() {
            bar.inc(1);
            continue;
        }
        let state = game.initial_state();
        let ab = think(&game, &state, &format!("alphabeta:time={secs}s"))?;
        let m1 = think(
            &game,
            &state,
            &format!("mcts:time={secs}s,threads=1,reuse=no"),
        )?;
        let mn = think(
            &game,
            &state,
            &format!("mcts:time={secs}s,threads={threads},reuse=no"),
        )?;
        let per_s = |s: &SearchStats, x: u64| {
            if s.seconds > 0.0 {
                x as f64 / s.seconds
            } else {
                0.0
            }
        };
        let p1 = per_s(&m1, m1.playouts);
        let pn = per_s(&mn, mn.playouts);
        rows.push(Row {
            game: game.name.clone(),
            alphabeta_nodes_per_s: per_s(&ab, ab.nodes),
            alphabeta_depth: ab.depth,
            mcts_playouts_per_s_1: p1,
            mcts_nodes_per_s_1: per_s(&m1, m1.nodes),
            threads,
            mcts_playouts_per_s_n: pn,
            speedup: if p1 > 0.0 { pn / p1 } else { 0.0 },
            cancel_ms: cancel_latency(&game, &state)?,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(0);
    }
    outln!(
        "{:<14} {:>12} {:>6} {:>13} {:>12} {:>15} {:>8} {:>10}",
        "game",
        "ab nodes/s",
        "depth",
        "mcts po/s 1t",
        "nodes/s 1t",
        format!("mcts po/s {threads}t"),
        "speedup",
        "cancel ms"
    );
    for r in &rows {
        outln!(
            "{:<14} {:>12.0} {:>6} {:>13.0} {:>12.0} {:>15.0} {:>8.2} {:>10.2}",
            r.game,
            r.alphabeta_nodes_per_s,
            r.alphabeta_depth,
            r.mcts_playouts_per_s_1,
            r.mcts_nodes_per_s_1,
            r.mcts_playouts_per_s_n,
            r.speedup,
            r.cancel_ms
        );
    }
    Ok(0)
}
