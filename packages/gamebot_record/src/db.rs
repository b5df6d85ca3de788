//! The game database: SQLite (bundled) through `rusqlite`, in WAL mode, with
//! numbered schema migrations recorded in `PRAGMA user_version`.
//!
//! Every finished or abandoned game is one row of `games`, with its seats in
//! `players` and its moves in `moves`. A game is written in one `BEGIN
//! IMMEDIATE` transaction, and connections wait (busy timeout) for each
//! other, so any number of processes (a tournament's jobs, the recorder,
//! `gamebot play`) can write at once without losing a game. A game's `uid`
//! is unique: writing the same game twice keeps one row.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use sha2::{Digest, Sha256};

use crate::RecordError;

/// The schema, one migration per entry; entry `i` takes the database from
/// version `i` to `i + 1`. Only ever append.
const MIGRATIONS: &[&str] = &[
    // 1: games, their seats and their moves.
    "CREATE TABLE games (
        id            INTEGER PRIMARY KEY,
        uid           TEXT NOT NULL UNIQUE,
        source        TEXT NOT NULL,
        game_name     TEXT NOT NULL,
        game_file     TEXT NOT NULL,
        game_hash     TEXT NOT NULL,
        arm           TEXT,
        started_at    TEXT NOT NULL,
        ended_at      TEXT,
        abandoned     INTEGER NOT NULL,
        winner        INTEGER,
        corrections   INTEGER NOT NULL DEFAULT 0,
        interventions INTEGER NOT NULL DEFAULT 0,
        faults        INTEGER NOT NULL DEFAULT 0,
        bag_path      TEXT
    );
    CREATE INDEX games_by_name ON games(game_name);
    CREATE INDEX games_by_start ON games(started_at);
    CREATE TABLE players (
        game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        name     TEXT NOT NULL,
        kind     TEXT NOT NULL,
        strategy TEXT NOT NULL,
        score    INTEGER,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE moves (
        game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply      INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        move     TEXT NOT NULL,
        think_ms INTEGER,
        arm_ms   INTEGER,
        PRIMARY KEY (game_id, ply)
    );",
];

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRecord {
    /// The player's name in the game file (`X`, `white`, ...).
    pub name: String,
    /// `human` or `ai`.
    pub kind: String,
    /// The AI strategy string; for a human, a name for them (`human` when unknown).
    pub strategy: String,
    /// Final score, when the game has scores.
    pub score: Option<i64>,
}

impl PlayerRecord {
    /// A seat from a player-kind string as the referee takes them: `human`,
    /// `human:<name>`, `ai:<strategy>` or a bare strategy.
    pub fn from_kind(name: &str, kind: &str) -> PlayerRecord {
        let (k, strategy) = if kind == "human" {
            ("human", "human".to_string())
        } else if let Some(who) = kind.strip_prefix("human:") {
            ("human", format!("human:{who}"))
        } else {
            ("ai", kind.strip_prefix("ai:").unwrap_or(kind).to_string())
        };
        PlayerRecord {
            name: name.to_string(),
            kind: k.to_string(),
            strategy,
            score: None,
        }
    }

    /// The identity statistics group by: the strategy, or the human's name.
    pub fn identity(&self) -> &str {
        &self.strategy
    }
}

/// One move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// Seat (1..n) that moved.
    pub seat: u32,
    /// `element:from->to`.
    pub text: String,
    /// Time from the position to the move (thinking), when known.
    pub think_ms: Option<u64>,
    /// Time the arm took to carry the move out, when there was an arm.
    pub arm_ms: Option<u64>,
}

/// A finished (or abandoned) game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Unique key: the same game written twice keeps one row.
    pub uid: String,
    /// What played it: `play`, `sim`, `tournament`, `referee`.
    pub source: String,
    /// The game's name.
    pub game_name: String,
    /// The rule file's path.
    pub game_file: String,
    /// SHA-256 of the rule file's content (hex), see [`content_hash`].
    pub game_hash: String,
    /// The arm, when one played.
    pub arm: Option<String>,
    /// RFC 3339 UTC, e.g. `2026-11-24T03:00:00.000Z`.
    pub started_at: String,
    /// RFC 3339 UTC.
    pub ended_at: Option<String>,
    /// Ended without a result.
    pub abandoned: bool,
    /// 0 for a draw, else the winning seat; `None` when abandoned.
    pub winner: Option<i32>,
    /// Seats in order (seat 1 first).
    pub players: Vec<PlayerRecord>,
    /// Moves in order.
    pub moves: Vec<MoveRecord>,
    /// Moves the referee rejected and that were made again.
    pub corrections: u32,
    /// Times a person had to step in (arm failures, observation mismatches).
    pub interventions: u32,
    /// Faults (arm failures, hardware faults).
    pub faults: u32,
    /// The bag the game was recorded in.
    pub bag_path: Option<String>,
}

/// SHA-256 of `bytes`, lower-case hex.
pub fn content_hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// SHA-256 of a file's content; a file that cannot be read hashes as "".
pub fn file_hash(path: &Path) -> String {
    std::fs::read(path)
        .map(|b| content_hash(&b))
        .unwrap_or_default()
}

/// Now, RFC 3339 UTC with milliseconds.
pub fn timestamp_now() -> String {
    format_time(chrono::Utc::now())
}

/// A time as stored in the database.
pub fn format_time(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// `$XDG_DATA_HOME/gamebot/games.sqlite3` (`~/.local/share/...` when unset).
pub fn default_path() -> Result<PathBuf, RecordError> {
    let base = match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => {
            let home = std::env::var_os("HOME").ok_or_else(|| {
                RecordError::Invalid(
                    "neither XDG_DATA_HOME nor HOME is set: give the database with --db".into(),
                )
            })?;
            PathBuf::from(home).join(".local/share")
        }
    };
    Ok(base.join("gamebot").join("games.sqlite3"))
}

/// An open game database.
pub struct GameDb {
    conn: Connection,
    path: PathBuf,
}

impl std::fmt::Debug for GameDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameDb({})", self.path.display())
    }
}

impl GameDb {
    /// Opens (creating it and its directory when missing) and migrates the
    /// database at `path`.
    pub fn open(path: &Path) -> Result<GameDb, RecordError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| RecordError::io(dir, e))?;
        }
        let db_err = |source| RecordError::Db {
            path: path.to_path_buf(),
            source,
        };
        let conn = Connection::open(path).map_err(db_err)?;
        conn.busy_timeout(Duration::from_secs(30)).map_err(db_err)?;
        // WAL: readers never block the writer, writers queue on the lock.
        let mode: String = conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))
            .map_err(db_err)?;
        if !mode.eq_ignore_ascii_case("wal") {
            tracing::warn!(db = %path.display(), mode, "WAL mode not available");
        }
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(db_err)?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(db_err)?;
        let mut db = GameDb {
            conn,
            path: path.to_path_buf(),
        };
        db.migrate()?;
        Ok(db)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self, source: rusqlite::Error) -> RecordError {
        RecordError::Db {
            path: self.path.clone(),
            source,
        }
    }

    /// The schema version (number of migrations applied).
    pub fn schema_version(&self) -> Result<u32, RecordError> {
        self.conn
            .pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0))
            .map(|v| v as u32)
            .map_err(|e| self.err(e))
    }

    fn migrate(&mut self) -> Result<(), RecordError> {
        let path = self.path.clone();
        let err = |source| RecordError::Db {
            path: path.clone(),
            source,
        };
        // IMMEDIATE: two processes opening a new database migrate one after the other.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        let version: i64 = tx
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(err)?;
        let version = version.max(0) as usize;
        if version > MIGRATIONS.len() {
            return Err(RecordError::Invalid(format!(
                "database {}: schema version {version} is newer than this gamebot knows ({})",
                path.display(),
                MIGRATIONS.len()
            )));
        }
        for (i, m) in MIGRATIONS.iter().enumerate().skip(version) {
            tx.execute_batch(m).map_err(err)?;
            tx.pragma_update(None, "user_version", i as i64 + 1)
                .map_err(err)?;
        }
        tx.commit().map_err(err)
    }

    /// Writes a game; returns its row id. A game whose `uid` is already
    /// there is not written again (the existing id is returned).
    pub fn insert_game(&mut self, g: &GameRecord) -> Result<i64, RecordError> {
        let path = self.path.clone();
        let err = |source| RecordError::Db {
            path: path.clone(),
            source,
        };
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        if let Some(id) = tx
            .query_row("SELECT id FROM games WHERE uid = ?1", [&g.uid], |r| {
                r.get(0)
            })
            .optional()
            .map_err(err)?
        {
            return Ok(id);
        }
        tx.execute(
            "INSERT INTO games (uid, source, game_name, game_file, game_hash, arm, started_at,
                ended_at, abandoned, winner, corrections, interventions, faults, bag_path)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                g.uid,
                g.source,
                g.game_name,
                g.game_file,
                g.game_hash,
                g.arm,
                g.started_at,
                g.ended_at,
                g.abandoned,
                g.winner,
                g.corrections,
                g.interventions,
                g.faults,
                g.bag_path
            ],
        )
        .map_err(err)?;
        let id = tx.last_insert_rowid();
        {
            let mut ins = tx
                .prepare(
                    "INSERT INTO players (game_id, seat, name, kind, strategy, score)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(err)?;
            for (i, p) in g.players.iter().enumerate() {
                ins.execute(params![
                    id,
                    i as i64 + 1,
                    p.name,
                    p.kind,
                    p.strategy,
                    p.score
                ])
                .map_err(err)?;
            }
            let mut ins = tx
                .prepare(
                    "INSERT INTO moves (game_id, ply, seat, move, think_ms, arm_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(err)?;
            for (i, m) in g.moves.iter().enumerate() {
                ins.execute(params![
                    id,
                    i as i64,
                    m.seat,
                    m.text,
                    m.think_ms.map(|v| v as i64),
                    m.arm_ms.map(|v| v as i64)
                ])
                .map_err(err)?;
            }
        }
        tx.commit().map_err(err)?;
        Ok(id)
    }

    /// Number of games stored.
    pub fn game_count(&self) -> Result<u64, RecordError> {
        self.conn
            .query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(|e| self.err(e))
    }

    /// Reads games (with players and moves), oldest first, that match `filter`.
    pub fn games(&self, filter: &Filter) -> Result<Vec<GameRecord>, RecordError> {
        let e = |x| self.err(x);
        let mut q = self
            .conn
            .prepare(
                "SELECT id, uid, source, game_name, game_file, game_hash, arm, started_at,
                    ended_at, abandoned, winner, corrections, interventions, faults, bag_path
                 FROM games
                 WHERE (?1 IS NULL OR game_name = ?1) AND (?2 IS NULL OR started_at >= ?2)
                 ORDER BY started_at, id",
            )
            .map_err(e)?;
        let rows = q
            .query_map(params![filter.game, filter.since], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    GameRecord {
                        uid: r.get(1)?,
                        source: r.get(2)?,
                        game_name: r.get(3)?,
                        game_file: r.get(4)?,
                        game_hash: r.get(5)?,
                        arm: r.get(6)?,
                        started_at: r.get(7)?,
                        ended_at: r.get(8)?,
                        abandoned: r.get(9)?,
                        winner: r.get(10)?,
                        corrections: r.get(11)?,
                        interventions: r.get(12)?,
                        faults: r.get(13)?,
                        bag_path: r.get(14)?,
                        players: vec![],
                        moves: vec![],
                    },
                ))
            })
            .map_err(e)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(e)?;
        let mut pq = self
            .conn
            .prepare(
                "SELECT name, kind, strategy, score FROM players WHERE game_id = ?1 ORDER BY seat",
            )
            .map_err(e)?;
        let mut mq = self
            .conn
            .prepare(
                "SELECT seat, move, think_ms, arm_ms FROM moves WHERE game_id = ?1 ORDER BY ply",
            )
            .map_err(e)?;
        let mut out = vec![];
        for (id, mut g) in rows {
            g.players = pq
                .query_map([id], |r| {
                    Ok(PlayerRecord {
                        name: r.get(0)?,
                        kind: r.get(1)?,
                        strategy: r.get(2)?,
                        score: r.get(3)?,
                    })
                })
                .map_err(e)?
                .collect::<Result<_, _>>()
                .map_err(e)?;
            g.moves = mq
                .query_map([id], |r| {
                    Ok(MoveRecord {
                        seat: r.get(0)?,
                        text: r.get(1)?,
                        think_ms: r.get::<_, Option<i64>>(2)?.map(|v| v as u64),
                        arm_ms: r.get::<_, Option<i64>>(3)?.map(|v| v as u64),
                    })
                })
                .map_err(e)?
                .collect::<Result<_, _>>()
                .map_err(e)?;
            if let Some(p) = &filter.player {
                if !g.players.iter().any(|x| x.identity() == p) {
                    continue;
                }
            }
            out.push(g);
        }
        Ok(out)
    }
}

/// Which games to read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only this game (by name).
    pub game: Option<String>,
    /// Only games with this player (strategy or human name).
    pub player: Option<String>,
    /// Only games started at or after this time (RFC 3339 or a date `YYYY-MM-DD`).
    pub since: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample(uid: &str, winner: Option<i32>) -> GameRecord {
        GameRecord {
            uid: uid.into(),
            source: "test".into(),
            game_name: "tictactoe".into(),
            game_file: "games/tictactoe.game".into(),
            game_hash: content_hash(b"x"),
            arm: None,
            started_at: "2026-11-24T03:00:00.000Z".into(),
            ended_at: Some("2026-11-24T03:01:00.000Z".into()),
            abandoned: winner.is_none(),
            winner,
            players: vec![
                PlayerRecord::from_kind("X", "ai:random"),
                PlayerRecord::from_kind("O", "human"),
            ],
            moves: vec![
                MoveRecord {
                    seat: 1,
                    text: "x:hand->a1".into(),
                    think_ms: Some(5),
                    arm_ms: None,
                },
                MoveRecord {
                    seat: 2,
                    text: "o:hand->b2".into(),
                    think_ms: Some(700),
                    arm_ms: Some(3000),
                },
            ],
            corrections: 1,
            interventions: 0,
            faults: 0,
            bag_path: None,
        }
    }

    #[test]
    fn games_round_trip_and_uid_is_unique() {
        let dir = tempdir();
        let path = dir.join("sub/games.sqlite3");
        let mut db = GameDb::open(&path).unwrap();
        assert_eq!(db.schema_version().unwrap() as usize, MIGRATIONS.len());
        let g = sample("a", Some(1));
        let id = db.insert_game(&g).unwrap();
        assert_eq!(db.insert_game(&g).unwrap(), id);
        db.insert_game(&sample("b", None)).unwrap();
        assert_eq!(db.game_count().unwrap(), 2);
        let back = db.games(&Filter::default()).unwrap();
        assert_eq!(back[0], g);
        assert!(back[1].abandoned);
        // Reopening does not migrate again.
        drop(db);
        let db = GameDb::open(&path).unwrap();
        assert_eq!(db.game_count().unwrap(), 2);
        let only_human = Filter {
            player: Some("random".into()),
            ..Filter::default()
        };
        assert_eq!(db.games(&only_human).unwrap().len(), 2);
        let nobody = Filter {
            player: Some("mcts".into()),
            ..Filter::default()
        };
        assert!(db.games(&nobody).unwrap().is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn unwritable_directory_is_an_error_naming_it() {
        let e = GameDb::open(Path::new("/proc/gamebot-no/games.sqlite3")).unwrap_err();
        assert!(e.to_string().contains("/proc/gamebot-no"), "{e}");
    }

    #[test]
    fn player_kinds() {
        let p = PlayerRecord::from_kind("X", "ai:mcts:time=1s");
        assert_eq!((p.kind.as_str(), p.identity()), ("ai", "mcts:time=1s"));
        let p = PlayerRecord::from_kind("O", "human:ann");
        assert_eq!((p.kind.as_str(), p.identity()), ("human", "human:ann"));
    }

    pub(crate) fn tempdir() -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "gamebot-record-{}-{}",
            std::process::id(),
            crate::now_ns()
        ));
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
