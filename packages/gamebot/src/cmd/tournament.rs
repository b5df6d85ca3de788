//! `gamebot tournament GAME --players S1 S2 [S3...] --games N` — a round robin
//! between strategies, games in parallel, with scores, 95 % intervals, Elo
//! ratings, time per move and nodes per second.

use crate::common::load_game;
use gamebot_ai::tournament::{
    elo_difference, player_names, run_tournament, TournamentConfig, TournamentResult,
};
use gamebot_ai::{strategy_help, CancelToken, Spec};
use std::collections::BTreeMap;

#[derive(clap::Args)]
#[command(after_help = format!("Strategies:\n{}", strategy_help()))]
pub struct Args {
    /// Game file (a two-player game): a rule file, or a GDL file (`.gdl`, played by `gamebot_gdl`).
    game: String,
    /// The strategies; one listed twice plays as two players (`#2` suffix).
    #[arg(long, num_args = 2.., required = true)]
    players: Vec<String>,
    /// Games per pairing.
    #[arg(long, default_value_t = 10, value_parser = crate::limits::GAMES)]
    games: usize,
    /// Alternate who moves first (otherwise the first-listed player of each pairing always does).
    #[arg(long)]
    swap_sides: bool,
    /// Seed of the tournament; every game gets its own seed from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time (default: the number of cores).
    #[arg(long, value_parser = crate::limits::THREADS)]
    jobs: Option<usize>,
    /// Games longer than this many moves are draws.
    #[arg(long, default_value_t = 1000, value_parser = crate::limits::PLIES)]
    max_plies: usize,
    /// Also write the results as JSON to this file.
    #[arg(long)]
    json: Option<String>,
    #[command(flatten)]
    db: super::record_db::DbArgs,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    if a.game.ends_with(".gdl") {
        return super::gdl::tournament(
            &a.game,
            &a.players,
            a.games,
            a.swap_sides,
            a.seed,
            a.max_plies,
        );
    }
    let game = load_game(&a.game)?;
    let names = player_names(&a.players);
    let players = a
        .players
        .iter()
        .zip(&names)
        .map(|(s, n)| Ok((n.clone(), s.parse::<Spec>()?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if a.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let cfg = TournamentConfig {
        players,
        games: a.games,
        swap_sides: a.swap_sides,
        seed: a.seed,
        jobs,
        max_plies: a.max_plies,
    };
    let pairs = names.len() * (names.len() - 1) / 2;
    outln!(
        "{}: {} players, {} games per pairing ({} games), {}, seed {}, {} jobs",
        game.name,
        names.len(),
        a.games,
        pairs * a.games,
        if a.swap_sides {
            "sides alternate"
        } else {
            "first-listed player moves first"
        },
        a.seed,
        jobs
    );
    let bar = indicatif::ProgressBar::new((pairs * a.games) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed} (eta {eta})",
        )
        .expect("valid template"),
    );
    let r = run_tournament(&game, &cfg, &CancelToken::new(), &|done, _| {
        bar.set_position(done as u64)
    });
    bar.finish_and_clear();
    let r = r?;
    print_result(&r)?;
    a.db.store(&db_records(&game, &a.game, &r));
    if let Some(path) = &a.json {
        std::fs::write(path, serde_json::to_string_pretty(&to_json(&r))? + "\n")
            .map_err(|e| anyhow::anyhow!("cannot write {path}: {e}"))?;
        outln!("\nwrote {path}");
    }
    Ok(0)
}

fn print_result(r: &TournamentResult) -> anyhow::Result<()> {
    let w = r.players.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    outln!(
        "\n{:<w$}  {:<w$}  {:>5} {:>5} {:>5} {:>5}  {:>6}  {:>15}  {:>16}",
        "player a",
        "player b",
        "games",
        "a won",
        "draws",
        "b won",
        "score",
        "95% interval",
        "Elo diff (95%)"
    );
    for p in &r.pairings {
        let (lo, hi) = p.interval();
        let elo = |s: f64| {
            let e = elo_difference(s);
            let e = if e.abs() < 0.5 { 0.0 } else { e };
            if e.abs() > 1500.0 {
                format!("{}inf", if e < 0.0 { "-" } else { "+" })
            } else {
                format!("{e:+.0}")
            }
        };
        outln!(
            "{:<w$}  {:<w$}  {:>5} {:>5} {:>5} {:>5}  {:>6.3}  [{:.3}, {:.3}]  {:>5} [{}, {}]",
            r.players[p.a],
            r.players[p.b],
            p.games,
            p.a_wins,
            p.draws,
            p.b_wins,
            p.score(),
            lo,
            hi,
            elo(p.score()),
            elo(lo),
            elo(hi)
        );
        if p.truncated > 0 {
            outln!(
                "  ({} games reached the move limit and count as draws)",
                p.truncated
            );
        }
    }
    let mut order: Vec<usize> = (0..r.players.len()).collect();
    order.sort_by(|&x, &y| r.elo[y].total_cmp(&r.elo[x]));
    outln!(
        "\n{:<w$}  {:>7}  {:>9}  {:>12}  {:>12}  {:>10}",
        "player",
        "Elo",
        "s/move",
        "nodes/s",
        "playouts/s",
        "moves"
    );
    for i in order {
        let t = &r.tally[i];
        outln!(
            "{:<w$}  {:>+7.0}  {:>9.4}  {:>12.0}  {:>12.0}  {:>10}",
            r.players[i],
            r.elo[i],
            t.seconds_per_move(),
            t.nodes_per_second(),
            t.playouts_per_second(),
            t.moves
        );
    }
    outln!("(Elo: maximum likelihood, mean 0, one virtual draw per pairing)");
    Ok(())
}

fn to_json(r: &TournamentResult) -> serde_json::Value {
    let elo: BTreeMap<&str, f64> = r
        .players
        .iter()
        .zip(&r.elo)
        .map(|(n, e)| (n.as_str(), (e * 10.0).round() / 10.0))
        .collect();
    let stats: BTreeMap<&str, serde_json::Value> = r
        .players
        .iter()
        .zip(&r.tally)
        .map(|(n, t)| {
            (
                n.as_str(),
                serde_json::json!({
                    "moves": t.moves,
                    "seconds_per_move": t.seconds_per_move(),
                    "nodes_per_second": t.nodes_per_second(),
                    "playouts": t.playouts,
                    "playouts_per_second": t.playouts_per_second(),
                }),
            )
        })
        .collect();
    serde_json::json!({
        "players": r.players,
        "pairings": r.pairings.iter().map(|p| serde_json::json!({
            "a": r.players[p.a],
            "b": r.players[p.b],
            "games": p.games,
            "a_wins": p.a_wins,
            "b_wins": p.b_wins,
            "draws": p.draws,
        })).collect::<Vec<_>>(),
        "elo": elo,
        "stats": stats,
    })
}

/// Every game of the tournament as a database record. Per-move thinking
/// times are the mean of that player's moves in that game (the tournament
/// measures a player's total per game).
fn db_records(
    game: &gamebot_rules::Game,
    file: &str,
    r: &TournamentResult,
) -> Vec<gamebot_record::db::GameRecord> {
    use gamebot_record::db::{self, GameRecord, MoveRecord, PlayerRecord};
    let now = db::timestamp_now();
    let hash = db::file_hash(std::path::Path::new(file));
    let run = format!("{}:{}", std::process::id(), gamebot_record::now_ns());
    r.games
        .iter()
        .map(|(k, g, b_first, rec)| {
            let p = &r.pairings[*k];
            let (first, second) = if *b_first { (p.b, p.a) } else { (p.a, p.b) };
            let seats = [first, second];
            let mean_ms = |seat: usize| {
                let t = &rec.tally[seat];
                (t.moves > 0).then(|| (t.seconds * 1000.0 / t.moves as f64).round() as u64)
            };
            GameRecord {
                uid: format!("tournament:{run}:{k}:{g}"),
                source: "tournament".into(),
                game_name: game.name.clone(),
                game_file: file.into(),
                game_hash: hash.clone(),
                arm: None,
                started_at: now.clone(),
                ended_at: Some(now.clone()),
                abandoned: false,
                winner: Some(rec.winner),
                players: seats
                    .iter()
                    .enumerate()
                    .map(|(i, &pl)| {
                        let mut x = PlayerRecord::from_kind(
                            &game.players[i],
                            &format!("ai:{}", r.players[pl]),
                        );
                        x.score = rec.scores.get(i).map(|&s| s as i64);
                        x
                    })
                    .collect(),
                moves: movers(game, &rec.moves)
                    .into_iter()
                    .zip(&rec.moves)
                    .map(|(seat, text)| MoveRecord {
                        seat,
                        text: text.clone(),
                        think_ms: (seat >= 1).then(|| mean_ms(seat as usize - 1)).flatten(),
                        arm_ms: None,
                    })
                    .collect(),
                corrections: 0,
                interventions: 0,
                faults: 0,
                bag_path: None,
            }
        })
        .collect()
}

/// Who made each move (1..n), by replaying the moves through the rules
/// (0 where a move cannot be replayed).
fn movers(game: &gamebot_rules::Game, moves: &[String]) -> Vec<u32> {
    let mut state = game.initial_state();
    let mut out = Vec::with_capacity(moves.len());
    for text in moves {
        let Ok(legal) = game.legal_moves(&state) else {
            break;
        };
        game.settle(&mut state, &legal);
        let p = state.player().max(0) as u32;
        let Ok(mv) = game.find_move(&state, text) else {
            break;
        };
        if game.apply(&mut state, &mv).is_err() {
            break;
        }
        out.push(p);
    }
    out.resize(moves.len(), 0);
    out
}
