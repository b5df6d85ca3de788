//! `gamebot stats [--game G] [--player P] [--since DATE] [--json]` — figures
//! over the game database: per game and per player (strategy or human).

use gamebot_record::db::{Filter, GameDb};
use gamebot_record::stats::{compute, Stats};

#[derive(clap::Args)]
pub struct Args {
    /// Only this game (its name, e.g. tictactoe).
    #[arg(long)]
    game: Option<String>,
    /// Only games with this player: a strategy string as recorded
    /// (`mcts:time=1s`), `human` or `human:<name>`.
    #[arg(long)]
    player: Option<String>,
    /// Only games started on or after this date (`YYYY-MM-DD`) or time (RFC 3339).
    #[arg(long)]
    since: Option<String>,
    /// Print JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// Game database [default: $XDG_DATA_HOME/gamebot/games.sqlite3].
    #[arg(long, value_name = "PATH")]
    db: Option<std::path::PathBuf>,
}

/// `YYYY-MM-DD` or an RFC 3339 time, as the database's UTC text.
fn since(s: &str) -> anyhow::Result<String> {
    if let Ok(d) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        return Ok(format!("{}T00:00:00.000Z", d.format("%Y-%m-%d")));
    }
    let t = chrono::DateTime::parse_from_rfc3339(s).map_err(|e| {
        anyhow::anyhow!("--since {s:?}: not a date (YYYY-MM-DD) or RFC 3339 time: {e}")
    })?;
    Ok(gamebot_record::db::format_time(
        t.with_timezone(&chrono::Utc),
    ))
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.0}"))
}

fn print(s: &Stats, n_games: usize) {
    println!("{n_games} games");
    println!(
        "\n{:<16} {:>6} {:>6} {:>6} {:>12} {:>7} {:>9} {:>9} {:>6} {:>6}",
        "game",
        "played",
        "aband.",
        "draws",
        "wins by seat",
        "moves",
        "think ms",
        "arm ms",
        "corr.",
        "interv."
    );
    for g in &s.games {
        let wins: Vec<String> = g.wins_by_seat.iter().map(|w| w.to_string()).collect();
        println!(
            "{:<16} {:>6} {:>6} {:>6} {:>12} {:>7.1} {:>9} {:>9} {:>6.2} {:>6.2}",
            g.game,
            g.played,
            g.abandoned,
            g.draws,
            wins.join("/"),
            g.moves_per_game,
            opt(g.think_ms_per_move),
            opt(g.arm_ms_per_move),
            g.corrections_per_game,
            g.interventions_per_game
        );
    }
    let w = s
        .players
        .iter()
        .map(|p| p.player.len())
        .max()
        .unwrap_or(6)
        .max(6);
    println!(
        "\n{:<w$} {:>5} {:>6} {:>4} {:>4} {:>4} {:>6}  {:>15} {:>6} {:>9} {:>9} {:>6} {:>6}",
        "player",
        "kind",
        "played",
        "won",
        "drew",
        "lost",
        "score",
        "95% interval",
        "Elo",
        "think ms",
        "arm ms",
        "corr.",
        "interv."
    );
    for p in &s.players {
        println!(
            "{:<w$} {:>5} {:>6} {:>4} {:>4} {:>4} {:>6.3}  [{:.3}, {:.3}] {:>6.0} {:>9} {:>9} {:>6.2} {:>6.2}",
            p.player,
            p.kind,
            p.played,
            p.wins,
            p.draws,
            p.losses,
            p.score,
            p.score_low,
            p.score_high,
            p.elo,
            opt(p.think_ms_per_move),
            opt(p.arm_ms_per_move),
            p.corrections_per_game,
            p.interventions_per_game
        );
    }
    println!("(score: wins + draws/2 per finished game; Elo: from 1500, K = 32, games in order)");
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let path = match &a.db {
        Some(p) => p.clone(),
        None => gamebot_record::db::default_path()?,
    };
    if !path.exists() {
        anyhow::bail!(
            "{}: no game database yet (play a game first, or give --db)",
            path.display()
        );
    }
    let db = GameDb::open(&path)?;
    // Elo and the figures use every game of the selection; --player only
    // narrows the rows shown (its opponents' ratings still count).
    let games = db.games(&Filter {
        game: a.game.clone(),
        player: None,
        since: a.since.as_deref().map(since).transpose()?,
    })?;
    let mut s = compute(&games);
    let mut n = games.len();
    if let Some(p) = &a.player {
        let mine: Vec<_> = games
            .iter()
            .filter(|g| g.players.iter().any(|x| x.identity() == p))
            .cloned()
            .collect();
        n = mine.len();
        let elo: Vec<(String, f64)> = s
            .players
            .iter()
            .map(|x| (x.player.clone(), x.elo))
            .collect();
        s = compute(&mine);
        s.players.retain(|x| &x.player == p);
        for x in &mut s.players {
            if let Some((_, e)) = elo.iter().find(|(id, _)| id == &x.player) {
                x.elo = *e;
            }
        }
    }
    if a.json {
        let v = serde_json::json!({ "database": path, "games_count": n, "games": s.games, "players": s.players });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("database {}", path.display());
        print(&s, n);
    }
    Ok(0)
}
