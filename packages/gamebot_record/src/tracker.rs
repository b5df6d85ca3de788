//! Follows one game through its `/game/state` and `/game/events` messages
//! and turns it into a [`GameRecord`] for the database when it ends (or is
//! abandoned). Pure: messages and receive times in, records out.
//!
//! Timings come from the states: a move's thinking time runs from the state
//! that gave the mover the turn (after the previous move's arm motion, if
//! any) to the state that shows the move; its arm time is how long the
//! referee then stayed in `PHASE_EXECUTING`.

use gamebot_interfaces::msg::{GameEvent, GameState};

use crate::db::{file_hash, format_time, GameRecord, MoveRecord, PlayerRecord};

/// The game being followed.
#[derive(Debug, Clone)]
pub struct GameTracker {
    source: String,
    arm: Option<String>,
    game_name: String,
    game_file: String,
    game_number: u32,
    started_ns: u64,
    last: Option<GameState>,
    moves: Vec<MoveRecord>,
    turn_started_ns: u64,
    executing_since: Option<u64>,
    corrections: u32,
    interventions: u32,
    faults: u32,
    finished: bool,
    bag_path: Option<String>,
}

/// The key of a game on `/game/state`: its file and its number.
pub fn game_key(s: &GameState) -> (String, u32) {
    (s.game_file.clone(), s.game_number)
}

fn ns_to_time(ns: u64) -> String {
    format_time(chrono::DateTime::from_timestamp_nanos(ns as i64))
}

impl GameTracker {
    /// Starts following the game `first` belongs to, seen at `now_ns`.
    pub fn new(source: &str, arm: Option<String>, first: &GameState, now_ns: u64) -> GameTracker {
        GameTracker {
            source: source.to_string(),
            arm,
            game_name: first.game_name.clone(),
            game_file: first.game_file.clone(),
            game_number: first.game_number,
            started_ns: now_ns,
            last: None,
            moves: vec![],
            turn_started_ns: now_ns,
            executing_since: None,
            corrections: 0,
            interventions: 0,
            faults: 0,
            finished: false,
            bag_path: None,
        }
    }

    /// Whether `s` belongs to this game.
    pub fn is_same_game(&self, s: &GameState) -> bool {
        s.game_file == self.game_file && s.game_number == self.game_number
    }

    /// The bag the game is recorded in.
    pub fn set_bag_path(&mut self, path: Option<String>) {
        self.bag_path = path;
    }

    /// Moves seen so far.
    pub fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// Whether the game has ended (a record was returned for it).
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// A state of this game, received at `now_ns`. Returns the game's
    /// record when this state ends it (once).
    pub fn on_state(&mut self, s: &GameState, now_ns: u64) -> Option<GameRecord> {
        let executing = s.phase == GameState::PHASE_EXECUTING;
        let prev_len = self.last.as_ref().map_or(0, |p| p.move_history.len());
        if s.move_history.len() > prev_len {
            // New moves: the last one is by the previous state's player.
            let mover = self
                .last
                .as_ref()
                .map_or(0, |p| p.current_player.max(0) as u32);
            for (i, text) in s.move_history.iter().enumerate().skip(prev_len) {
                let last_new = i + 1 == s.move_history.len();
                self.moves.push(MoveRecord {
                    seat: if last_new && i == prev_len { mover } else { 0 },
                    text: text.clone(),
                    think_ms: (last_new && i == prev_len)
                        .then(|| now_ns.saturating_sub(self.turn_started_ns) / 1_000_000),
                    arm_ms: None,
                });
            }
            self.turn_started_ns = now_ns;
        }
        match (self.executing_since, executing) {
            (None, true) => self.executing_since = Some(now_ns),
            (Some(since), false) => {
                if let Some(m) = self.moves.last_mut() {
                    m.arm_ms = Some(now_ns.saturating_sub(since) / 1_000_000);
                }
                self.executing_since = None;
                // The next player's thinking starts when the arm is done.
                self.turn_started_ns = now_ns;
            }
            _ => {}
        }
        self.last = Some(s.clone());
        if !self.finished && s.winner >= 0 && !executing {
            self.finished = true;
            return Some(self.record(now_ns, false));
        }
        None
    }

    /// An event of this game.
    pub fn on_event(&mut self, e: &GameEvent) {
        if e.game_number != self.game_number {
            return;
        }
        match e.kind {
            GameEvent::MOVE_REJECTED => self.corrections += 1,
            GameEvent::OBSERVATION_MISMATCH => self.interventions += 1,
            GameEvent::ARM_FAILED => {
                self.interventions += 1;
                self.faults += 1;
            }
            _ => {}
        }
    }

    /// The record of a game that ends unfinished (`None` when nothing was
    /// played, or it already ended).
    pub fn abandon(&mut self, now_ns: u64) -> Option<GameRecord> {
        if self.finished || self.moves.is_empty() {
            return None;
        }
        self.finished = true;
        Some(self.record(now_ns, true))
    }

    fn record(&self, now_ns: u64, abandoned: bool) -> GameRecord {
        let last = self.last.clone().unwrap_or_default();
        let mut players: Vec<PlayerRecord> = last
            .players
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let kind = last.player_kinds.get(i).map_or("human", |k| k.as_str());
                let mut p = PlayerRecord::from_kind(name, kind);
                p.score = last.scores.get(i).map(|&v| v as i64);
                p
            })
            .collect();
        if players.is_empty() {
            players = last
                .player_kinds
                .iter()
                .enumerate()
                .map(|(i, k)| PlayerRecord::from_kind(&format!("player{}", i + 1), k))
                .collect();
        }
        GameRecord {
            uid: format!(
                "{}:{}:{}:{}",
                self.source, self.game_file, self.game_number, self.started_ns
            ),
            source: self.source.clone(),
            game_name: self.game_name.clone(),
            game_file: self.game_file.clone(),
            game_hash: file_hash(std::path::Path::new(&self.game_file)),
            arm: self.arm.clone(),
            started_at: ns_to_time(self.started_ns),
            ended_at: Some(ns_to_time(now_ns)),
            abandoned,
            winner: (!abandoned).then_some(last.winner),
            players,
            moves: self.moves.clone(),
            corrections: self.corrections,
            interventions: self.interventions,
            faults: self.faults,
            bag_path: self.bag_path.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(history: &[&str], player: i32, winner: i32, phase: u8) -> GameState {
        GameState {
            game_name: "tictactoe".into(),
            game_file: "games/tictactoe.game".into(),
            game_number: 1,
            move_history: history.iter().map(|s| s.to_string()).collect(),
            players: vec!["X".into(), "O".into()],
            player_kinds: vec!["human".into(), "ai:random".into()],
            current_player: player,
            winner,
            phase,
            ..Default::default()
        }
    }

    const MS: u64 = 1_000_000;

    #[test]
    fn moves_timings_and_result() {
        let s0 = state(&[], 1, -1, GameState::PHASE_WAITING_FOR_HUMAN);
        let mut t = GameTracker::new("referee", None, &s0, 0);
        assert!(t.on_state(&s0, 0).is_none());
        // X thinks 4 s, then O plans 1 s and the arm takes 3 s.
        t.on_state(&state(&["a"], 2, -1, GameState::PHASE_PLANNING), 4000 * MS);
        t.on_state(
            &state(&["a", "b"], 1, -1, GameState::PHASE_EXECUTING),
            5000 * MS,
        );
        t.on_event(&GameEvent {
            kind: GameEvent::MOVE_REJECTED,
            game_number: 1,
            ..Default::default()
        });
        t.on_state(
            &state(&["a", "b"], 1, -1, GameState::PHASE_WAITING_FOR_HUMAN),
            8000 * MS,
        );
        let r = t
            .on_state(
                &state(&["a", "b", "c"], 2, 1, GameState::PHASE_GAME_OVER),
                10_000 * MS,
            )
            .expect("game over gives the record");
        assert_eq!(r.winner, Some(1));
        assert!(!r.abandoned);
        let m: Vec<_> = r
            .moves
            .iter()
            .map(|m| (m.seat, m.text.as_str(), m.think_ms, m.arm_ms))
            .collect();
        assert_eq!(
            m,
            vec![
                (1, "a", Some(4000), None),
                (2, "b", Some(1000), Some(3000)),
                (1, "c", Some(2000), None)
            ]
        );
        assert_eq!(r.corrections, 1);
        assert_eq!(r.players[1].strategy, "random");
        // Only once; and a finished game is not abandoned.
        assert!(t
            .on_state(
                &state(&["a", "b", "c"], 2, 1, GameState::PHASE_GAME_OVER),
                11_000 * MS
            )
            .is_none());
        assert!(t.abandon(12_000 * MS).is_none());
    }

    #[test]
    fn abandoned_game_with_moves_is_recorded() {
        let s0 = state(&[], 1, -1, 0);
        let mut t = GameTracker::new("referee", None, &s0, 0);
        assert!(t.abandon(1).is_none(), "nothing played: no record");
        t.on_state(&s0, 0);
        t.on_state(&state(&["a"], 2, -1, 1), MS);
        let r = t.abandon(2 * MS).unwrap();
        assert!(r.abandoned);
        assert_eq!(r.winner, None);
        assert_eq!(r.moves.len(), 1);
    }
}
