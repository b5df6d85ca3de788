//! `gamebot selfplay GAME --games N [--seed S]` — random against random.

use crate::common::load_game;
use gamebot_ai::playout::random_playout;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Game file.
    game: String,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = crate::limits::GAMES)]
    games: usize,
    /// Random seed (same seed, same games).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still running after this many moves counts as unfinished.
    #[arg(long, default_value_t = 1000, value_parser = crate::limits::MAX_MOVES)]
    max_moves: usize,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let game = load_game(&a.game)?;
    let n = game.player_count();
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let mut wins = vec![0usize; n + 1]; // index 0 = draws
    let mut unfinished = 0;
    let mut total_moves = 0usize;
    let mut scratch = game.scratch();
    let mut buf = gamebot_rules::LegalMoves::new();
    let bar = indicatif::ProgressBar::new(a.games as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed_precise}")
            .expect("valid template"),
    );
    let mut state = game.initial_state();
    let start = Instant::now();
    for _ in 0..a.games {
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
        total_moves += p.length;
        if p.finished {
            wins[state.outcome().winner().unwrap_or(0) as usize] += 1;
        } else {
            unfinished += 1;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    outln!(
        "game: {} ({} player(s)), {} games, seed {}",
        game.name,
        n,
        a.games,
        a.seed
    );
    for (p, name) in game.players.iter().enumerate() {
        outln!("  player {} ({name}) wins: {}", p + 1, wins[p + 1]);
    }
    outln!("  draws: {}", wins[0]);
    if unfinished > 0 {
        outln!("  unfinished after {} moves: {unfinished}", a.max_moves);
    }
    outln!(
        "  average length: {:.1} moves",
        total_moves as f64 / a.games.max(1) as f64
    );
    outln!(
        "  {:.0} games/s, {:.0} moves/s",
        a.games as f64 / secs,
        total_moves as f64 / secs
    );
    Ok(0)
}
