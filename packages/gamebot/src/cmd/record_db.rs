//! The game database options shared by `play`, `tournament` and `stats`
//! (`--db PATH`, `--no-db`), and a builder for the record of a game played
//! in this process.

use std::path::PathBuf;
use std::time::Instant;

use gamebot_record::db::{self, GameDb, GameRecord, MoveRecord, PlayerRecord};

/// `--db PATH` / `--no-db`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct DbArgs {
    /// Game database (SQLite) [default: $XDG_DATA_HOME/gamebot/games.sqlite3].
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Do not write the game(s) to the database.
    #[arg(long, conflicts_with = "db")]
    pub no_db: bool,
}

impl DbArgs {
    /// The database to write to, or `None` with `--no-db`.
    pub fn path(&self) -> anyhow::Result<Option<PathBuf>> {
        if self.no_db {
            return Ok(None);
        }
        Ok(Some(match &self.db {
            Some(p) => p.clone(),
            None => db::default_path()?,
        }))
    }

    /// Writes `games`; a database that cannot be written is reported on
    /// stderr (naming it) and is not an error of the game itself.
    pub fn store(&self, games: &[GameRecord]) {
        let path = match self.path() {
            Ok(Some(p)) => p,
            Ok(None) => return,
            Err(e) => {
                eprintln!("games not stored: {e:#}");
                return;
            }
        };
        let r = GameDb::open(&path).and_then(|mut d| {
            for g in games {
                d.insert_game(g)?;
            }
            Ok(())
        });
        match r {
            Ok(()) => eprintln!(
                "stored {} game{} in {}",
                games.len(),
                if games.len() == 1 { "" } else { "s" },
                path.display()
            ),
            Err(e) => eprintln!("games not stored: {e}"),
        }
    }
}

/// The record of a game being played here.
pub struct GameLog {
    record: GameRecord,
    turn_started: Instant,
}

impl GameLog {
    /// A new game of `game_file` (`name`) with these seats.
    pub fn new(source: &str, name: &str, game_file: &str, players: Vec<PlayerRecord>) -> GameLog {
        let started_at = db::timestamp_now();
        GameLog {
            record: GameRecord {
                uid: format!(
                    "{source}:{}:{}:{started_at}",
                    std::process::id(),
                    gamebot_record::now_ns()
                ),
                source: source.into(),
                game_name: name.into(),
                game_file: game_file.into(),
                game_hash: db::file_hash(std::path::Path::new(game_file)),
                arm: None,
                started_at,
                ended_at: None,
                abandoned: true,
                winner: None,
                players,
                moves: vec![],
                corrections: 0,
                interventions: 0,
                faults: 0,
                bag_path: None,
            },
            turn_started: Instant::now(),
        }
    }

    /// A move by `seat` (1..n); its thinking time is the time since the
    /// previous move (or the start).
    pub fn push_move(&mut self, seat: i32, text: String) {
        let think = self.turn_started.elapsed().as_millis() as u64;
        self.record.moves.push(MoveRecord {
            seat: seat.max(0) as u32,
            text,
            think_ms: Some(think),
            arm_ms: None,
        });
        self.turn_started = Instant::now();
    }

    /// A move that was refused and made again.
    pub fn correction(&mut self) {
        self.record.corrections += 1;
    }

    /// The finished game (`winner`: 0 draw, else the seat), or `None` for an
    /// abandoned one. `None` when nothing was played and nobody won.
    pub fn finish(mut self, winner: Option<i32>, scores: &[i32]) -> Option<GameRecord> {
        if winner.is_none() && self.record.moves.is_empty() {
            return None;
        }
        self.record.ended_at = Some(db::timestamp_now());
        self.record.abandoned = winner.is_none();
        self.record.winner = winner;
        for (p, s) in self.record.players.iter_mut().zip(scores) {
            p.score = Some(*s as i64);
        }
        Some(self.record)
    }
}

impl DbArgs {
    /// Writes one game, if there is one.
    pub fn store_one(&self, game: Option<GameRecord>) {
        if let Some(g) = game {
            self.store(&[g]);
        }
    }
}
