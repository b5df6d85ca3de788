//! `gamebot play GAME --vs STRATEGY` — a person plays in the terminal against
//! any strategy of `gamebot_ai`, which shows what it considered.

use crate::board_text::render;
use crate::common::{legal_texts, load_game};
use anyhow::Context;
use gamebot_ai::{build, strategy_help, SearchControl, SearchStats, Spec};
use gamebot_rules::Outcome;
use std::io::{BufRead, Write};

#[derive(clap::Args)]
#[command(after_help = format!("Strategies:\n{}", strategy_help()))]
pub struct Args {
    /// Game file.
    game: String,
    /// The computer's strategy, e.g. random, alphabeta:time=1s, mcts:iterations=20000.
    #[arg(long, default_value = "random")]
    vs: String,
    /// Which player the person is (1..N); 0 lets the computer play every side
    /// (e.g. to watch a puzzle solver). One-player games are played by the person unless 0.
    #[arg(long, default_value_t = 1, value_parser = crate::limits::SIDE)]
    human_side: i32,
    /// Random seed of the computer player (unless the strategy sets its own).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many of the moves the computer considered to show.
    #[arg(long, default_value_t = 5, value_parser = crate::limits::SHOW)]
    show: usize,
    #[command(flatten)]
    db: super::record_db::DbArgs,
    /// Play in the browser instead: referee + planner + web UI in one process,
    /// the page served on ADDR (e.g. 127.0.0.1:8080; port 0 picks a free port).
    #[arg(long, value_name = "ADDR")]
    web: Option<std::net::SocketAddr>,
    /// The whole simulated robot: camera, detector, referee, planner, arm
    /// controller and servo bridge on the emulated SSC-32U, in one process.
    #[arg(long)]
    sim: bool,
    /// With --sim: the arm's strategy.
    #[arg(long, default_value = "mcts:time=1s")]
    robot: String,
    /// With --sim: `camera` (you type moves, the simulated hand makes them; the
    /// referee sees them on the camera) or `ai:STRATEGY` (the hand makes its moves).
    #[arg(long, default_value = "camera")]
    opponent: String,
    /// With --sim: the arm moves for every side.
    #[arg(long)]
    robot_plays_both: bool,
    /// With --sim: the arm (a name under config/arms/ or a YAML path).
    #[arg(long, default_value = "al5d")]
    arm: String,
    /// With --sim: real-time factor of the simulation (1 = real time).
    #[arg(long, default_value_t = 1.0, value_parser = crate::limits::SIM_SPEED)]
    speed: f64,
    /// With --sim: faults to inject, e.g. slip=0.05,place_sigma_mm=2.
    #[arg(long, default_value = "")]
    faults: String,
    /// With --sim: no web UI.
    #[arg(long)]
    no_web: bool,
    /// With --sim: how many games to play (each in a fresh simulated world;
    /// needs an AI opponent when more than one).
    #[arg(long, default_value_t = 1, value_parser = crate::limits::SIM_GAMES)]
    games: u32,
    /// With --sim: write what happened in every game (moves, who made them,
    /// whether the camera and the world agree, arm time, corrections, faults) as JSON.
    #[arg(long, value_name = "FILE.json")]
    summary: Option<std::path::PathBuf>,
    /// With --sim: record every game as a rosbag2 (MCAP) directory under DIR.
    #[arg(long, value_name = "DIR")]
    record: Option<std::path::PathBuf>,
}

/// Prints what a search found: value, effort, expected line and the best candidates.
pub fn print_thoughts(stats: &SearchStats, show: usize) -> anyhow::Result<()> {
    let mut effort = vec![format!("{} nodes", stats.nodes)];
    if stats.playouts > 0 {
        effort.push(format!("{} playouts", stats.playouts));
    }
    if stats.depth > 0 {
        effort.push(format!("depth {}", stats.depth));
    }
    if stats.reused > 0 {
        effort.push(format!("{} reused", stats.reused));
    }
    effort.push(format!("{:.2} s", stats.seconds));
    if stats.seconds > 0.0 {
        effort.push(format!("{:.0} nodes/s", stats.nodes_per_second()));
    }
    outln!(
        "  value {:+.3}{}; {}",
        stats.value,
        if stats.complete { " (solved)" } else { "" },
        effort.join(", ")
    );
    if stats.pv.len() > 1 {
        outln!("  expected line: {}", stats.pv.join(" "));
    }
    if show > 0 && stats.considered.len() > 1 {
        outln!("  considered ({} moves):", stats.considered.len());
        for c in stats.considered.iter().take(show) {
            let bound = if c.bound { "≤" } else { " " };
            let proven = if c.proven { " proven" } else { "" };
            outln!(
                "    {:<36} {bound}{:+.3}  {:>8}{proven}",
                c.mv,
                c.value,
                c.visits
            );
        }
    }
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    if a.sim {
        let web = if a.no_web {
            None
        } else {
            Some(a.web.unwrap_or_else(|| ([127, 0, 0, 1], 8080).into()))
        };
        return super::play_sim::run(super::play_sim::SimOptions {
            game: a.game,
            robot: a.robot,
            opponent: a.opponent,
            robot_plays_both: a.robot_plays_both,
            arm: a.arm,
            speed: a.speed,
            faults: a.faults,
            seed: a.seed,
            web,
            games: a.games,
            summary: a.summary,
            record: a.record,
            db: a.db.path()?,
        });
    }
    if let Some(addr) = a.web {
        return super::play_web::run(&a.game, &a.vs, a.human_side, a.seed, addr);
    }
    let game = load_game(&a.game)?;
    let spec: Spec = a.vs.parse()?;
    let n = game.player_count() as i32;
    if a.human_side < 0 || a.human_side > n {
        anyhow::bail!("--human-side must be between 0 and {n}");
    }
    let mut ai = build(&spec.with_default_seed(a.seed));
    let mut state = game.initial_state();
    let seats = (1..=n)
        .map(|p| {
            let human = a.human_side != 0 && (n == 1 || p == a.human_side);
            let kind = if human {
                "human".to_string()
            } else {
                format!("ai:{}", a.vs)
            };
            gamebot_record::db::PlayerRecord::from_kind(&game.players[p as usize - 1], &kind)
        })
        .collect();
    let mut log = super::record_db::GameLog::new("play", &game.name, &a.game, seats);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    loop {
        let legal = game.legal_moves(&state)?;
        outln!("\n{}", render(&game, &state));
        let scores: Vec<String> = state
            .scores()
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}: {s}", game.players[i]))
            .collect();
        outln!("scores: {}", scores.join(", "));
        if game.settle(&mut state, &legal) {
            let winner = match state.outcome() {
                Outcome::Won(w) => w,
                _ => 0,
            };
            a.db.store_one(log.finish(Some(winner), state.scores()));
            match state.outcome() {
                Outcome::Draw | Outcome::Running => outln!("Game over: draw."),
                Outcome::Won(w) => outln!(
                    "Game over: {} (player {w}) wins.",
                    game.players[w as usize - 1]
                ),
            }
            return Ok(0);
        }
        let p = state.player();
        let human = a.human_side != 0 && (n == 1 || p == a.human_side);
        let mv = if human {
            let shown = game.distinct_moves(&state, &legal);
            let texts = legal_texts(&game, &state, &shown);
            outln!("{} (player {p}) to move:", game.players[p as usize - 1]);
            for (i, t) in texts.iter().enumerate() {
                outln!("  {:>3}. {t}", i + 1);
            }
            loop {
                out!("your move (number or element:from->to, q to quit)> ");
                out.flush().ok();
                let Some(line) = lines.next() else {
                    outln!("\nno more input; stopping.");
                    a.db.store_one(log.finish(None, state.scores()));
                    return Ok(0);
                };
                let line = line.context("reading standard input")?;
                let line = line.trim();
                if line == "q" || line == "quit" {
                    a.db.store_one(log.finish(None, state.scores()));
                    return Ok(0);
                }
                let text = match line.parse::<usize>() {
                    Ok(n) if n >= 1 && n <= texts.len() => texts[n - 1].clone(),
                    Ok(_) => {
                        outln!("pick a number from 1 to {}", texts.len());
                        continue;
                    }
                    Err(_) => line.to_string(),
                };
                match game.find_move(&state, &text) {
                    Ok(m) => break m,
                    Err(e) => {
                        log.correction();
                        outln!("{e}")
                    }
                }
            }
        } else {
            let d = ai.choose(&game, &state, &SearchControl::new())?;
            outln!(
                "{} (player {p}, {}) plays {}",
                game.players[p as usize - 1],
                a.vs,
                game.move_text(&d.mv)
            );
            print_thoughts(&d.stats, a.show)?;
            d.mv
        };
        log.push_move(p, game.move_text(&mv));
        let mut next = state.clone();
        game.apply(&mut next, &mv)?;
        state = next;
    }
}
