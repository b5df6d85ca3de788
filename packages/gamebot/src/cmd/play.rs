//! `gamebot play GAME` — a person plays in the terminal against the computer.

use crate::board_text::render;
use crate::common::{legal_texts, load_game};
use anyhow::Context;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, Write};

#[derive(clap::Args)]
pub struct Args {
    /// Game file.
    game: String,
    /// The computer's strategy.
    #[arg(long, default_value = "random")]
    vs: String,
    /// Which player the person is (1 or 2); one-player games are always played by the person.
    #[arg(long, default_value_t = 1)]
    human_side: i32,
    /// Random seed of the computer player.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let game = load_game(&a.game)?;
    if a.vs != "random" {
        anyhow::bail!("unknown strategy `{}`: available: random", a.vs);
    }
    if a.human_side < 1 || a.human_side as usize > game.player_count() {
        anyhow::bail!("--human-side must be between 1 and {}", game.player_count());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let mut state = game.initial_state();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    let mut turn = 0;
    loop {
        let legal = game.legal_moves(&state)?;
        println!("\n{}", render(&game, &state));
        let scores: Vec<String> = state
            .scores()
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}: {s}", game.players[i]))
            .collect();
        println!("scores: {}", scores.join(", "));
        if game.settle(&mut state, &legal) {
            match state.winner() {
                0 => println!("Game over: draw."),
                w => println!(
                    "Game over: {} (player {w}) wins.",
                    game.players[w as usize - 1]
                ),
            }
            return Ok(0);
        }
        let p = state.player();
        let human = game.player_count() == 1 || p == a.human_side;
        let mv = if human {
            let shown = game.distinct_moves(&state, &legal);
            let texts = legal_texts(&game, &state, &shown);
            println!("{} (player {p}) to move:", game.players[p as usize - 1]);
            for (i, t) in texts.iter().enumerate() {
                println!("  {:>3}. {t}", i + 1);
            }
            loop {
                print!("your move (number or element:from->to, q to quit)> ");
                out.flush().ok();
                let Some(line) = lines.next() else {
                    println!("\nno more input; stopping.");
                    return Ok(0);
                };
                let line = line.context("reading standard input")?;
                let line = line.trim();
                if line == "q" || line == "quit" {
                    return Ok(0);
                }
                let text = match line.parse::<usize>() {
                    Ok(n) if n >= 1 && n <= texts.len() => texts[n - 1].clone(),
                    Ok(_) => {
                        println!("pick a number from 1 to {}", texts.len());
                        continue;
                    }
                    Err(_) => line.to_string(),
                };
                match game.find_move(&state, &text) {
                    Ok(m) => break m,
                    Err(e) => println!("{e}"),
                }
            }
        } else {
            let m = legal[rng.gen_range(0..legal.len())].clone();
            println!(
                "{} (player {p}, {}) plays {}",
                game.players[p as usize - 1],
                a.vs,
                game.move_text(&m)
            );
            m
        };
        let mut next = state.clone();
        game.apply(&mut next, &mv)?;
        state = next;
        turn += 1;
        let _ = turn;
    }
}
