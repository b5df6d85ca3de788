//! Statistics over recorded games: per game and per player (AI strategy or
//! human): played, wins/draws/losses, score with a 95 % (Wilson) interval,
//! Elo across all games, average think and arm time per move, corrections
//! and interventions per game.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::db::GameRecord;

/// Elo every player starts with.
pub const ELO_START: f64 = 1500.0;
/// Elo update factor.
pub const ELO_K: f64 = 32.0;
/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// One player's (strategy's or human's) figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerStats {
    /// Strategy string, `human` or `human:<name>`.
    pub player: String,
    /// `ai` or `human`.
    pub kind: String,
    /// Seats taken in finished games.
    pub played: u64,
    /// Won.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
    /// Seats in abandoned games (not in the score).
    pub abandoned: u64,
    /// (wins + draws / 2) / played.
    pub score: f64,
    /// 95 % Wilson interval of the score, low end.
    pub score_low: f64,
    /// High end.
    pub score_high: f64,
    /// Elo after every recorded game, in order.
    pub elo: f64,
    /// Mean thinking time of the player's moves.
    pub think_ms_per_move: Option<f64>,
    /// Mean arm time of the player's moves (moves the arm carried out).
    pub arm_ms_per_move: Option<f64>,
    /// Corrections per game the player took part in.
    pub corrections_per_game: f64,
    /// Interventions per game the player took part in.
    pub interventions_per_game: f64,
}

/// One game's (rule file's) figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameStats {
    /// Game name.
    pub game: String,
    /// Games recorded (finished and abandoned).
    pub played: u64,
    /// Abandoned.
    pub abandoned: u64,
    /// Draws.
    pub draws: u64,
    /// Wins of seat 1, 2, ...
    pub wins_by_seat: Vec<u64>,
    /// Mean number of moves.
    pub moves_per_game: f64,
    /// Mean thinking time per move.
    pub think_ms_per_move: Option<f64>,
    /// Mean arm time per move carried out by the arm.
    pub arm_ms_per_move: Option<f64>,
    /// Corrections per game.
    pub corrections_per_game: f64,
    /// Interventions per game.
    pub interventions_per_game: f64,
}

/// Everything `gamebot stats` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    /// Per game, by name.
    pub games: Vec<GameStats>,
    /// Per player, best Elo first.
    pub players: Vec<PlayerStats>,
}

/// The 95 % Wilson score interval of `score` over `n` trials.
pub fn wilson_interval(score: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let centre = (score + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (score * (1.0 - score) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Expected score of a player rated `a` against one rated `b`.
pub fn elo_expected(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

#[derive(Default)]
struct Acc {
    kind: String,
    played: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    abandoned: u64,
    think: (f64, u64),
    arm: (f64, u64),
    corrections: u64,
    interventions: u64,
    games: u64,
}

/// A game's figures while counting: stats, (think sum, n), (arm sum, n), moves.
type GameAcc = (GameStats, (f64, u64), (f64, u64), u64);

fn mean((sum, n): (f64, u64)) -> Option<f64> {
    (n > 0).then(|| sum / n as f64)
}

/// Computes the statistics of `games` (oldest first: Elo depends on order).
pub fn compute(games: &[GameRecord]) -> Stats {
    let mut players: BTreeMap<String, Acc> = BTreeMap::new();
    let mut elo: BTreeMap<String, f64> = BTreeMap::new();
    let mut per_game: BTreeMap<String, GameAcc> = BTreeMap::new();
    for g in games {
        let n_seats = g.players.len();
        let entry = per_game.entry(g.game_name.clone()).or_insert_with(|| {
            (
                GameStats {
                    game: g.game_name.clone(),
                    played: 0,
                    abandoned: 0,
                    draws: 0,
                    wins_by_seat: vec![],
                    moves_per_game: 0.0,
                    think_ms_per_move: None,
                    arm_ms_per_move: None,
                    corrections_per_game: 0.0,
                    interventions_per_game: 0.0,
                },
                (0.0, 0),
                (0.0, 0),
                0,
            )
        });
        let (gs, think, arm, moves) = entry;
        gs.played += 1;
        *moves += g.moves.len() as u64;
        gs.corrections_per_game += g.corrections as f64;
        gs.interventions_per_game += g.interventions as f64;
        if gs.wins_by_seat.len() < n_seats {
            gs.wins_by_seat.resize(n_seats, 0);
        }
        match g.winner {
            _ if g.abandoned => gs.abandoned += 1,
            Some(0) | None => gs.draws += 1,
            Some(w) if w >= 1 && (w as usize) <= n_seats => gs.wins_by_seat[w as usize - 1] += 1,
            Some(_) => {}
        }
        for m in &g.moves {
            if let Some(t) = m.think_ms {
                think.0 += t as f64;
                think.1 += 1;
            }
            if let Some(t) = m.arm_ms {
                arm.0 += t as f64;
                arm.1 += 1;
            }
        }

        for (i, p) in g.players.iter().enumerate() {
            let seat = i as u32 + 1;
            let a = players.entry(p.identity().to_string()).or_default();
            a.kind = p.kind.clone();
            a.games += 1;
            a.corrections += g.corrections as u64;
            a.interventions += g.interventions as u64;
            for m in g.moves.iter().filter(|m| m.seat == seat) {
                if let Some(t) = m.think_ms {
                    a.think.0 += t as f64;
                    a.think.1 += 1;
                }
                if let Some(t) = m.arm_ms {
                    a.arm.0 += t as f64;
                    a.arm.1 += 1;
                }
            }
            if g.abandoned {
                a.abandoned += 1;
                continue;
            }
            a.played += 1;
            match g.winner {
                Some(w) if w == seat as i32 => a.wins += 1,
                Some(0) | None => a.draws += 1,
                Some(_) => a.losses += 1,
            }
        }

        // Elo: every pair of seats with different players is one encounter;
        // all of a game's updates are computed from the ratings before it.
        if !g.abandoned {
            let ids: Vec<&str> = g.players.iter().map(|p| p.identity()).collect();
            let result = |seat: usize| -> f64 {
                match g.winner {
                    Some(w) if w == seat as i32 + 1 => 1.0,
                    Some(0) | None => 0.5,
                    Some(_) => 0.0,
                }
            };
            let mut delta: BTreeMap<&str, f64> = BTreeMap::new();
            for i in 0..ids.len() {
                for j in 0..ids.len() {
                    if i == j || ids[i] == ids[j] {
                        continue;
                    }
                    let ri = *elo.get(ids[i]).unwrap_or(&ELO_START);
                    let rj = *elo.get(ids[j]).unwrap_or(&ELO_START);
                    // Pairwise result of i against j.
                    let s = match (result(i), result(j)) {
                        (a, b) if a > b => 1.0,
                        (a, b) if a < b => 0.0,
                        _ => 0.5,
                    };
                    *delta.entry(ids[i]).or_default() += ELO_K * (s - elo_expected(ri, rj));
                }
            }
            for (id, d) in delta {
                *elo.entry(id.to_string()).or_insert(ELO_START) += d;
            }
        }
    }

    let mut players: Vec<PlayerStats> = players
        .into_iter()
        .map(|(id, a)| {
            let score = if a.played == 0 {
                0.0
            } else {
                (a.wins as f64 + a.draws as f64 / 2.0) / a.played as f64
            };
            let (lo, hi) = wilson_interval(score, a.played);
            let per_game = |x: u64| {
                if a.games == 0 {
                    0.0
                } else {
                    x as f64 / a.games as f64
                }
            };
            PlayerStats {
                elo: *elo.get(&id).unwrap_or(&ELO_START),
                player: id,
                kind: a.kind,
                played: a.played,
                wins: a.wins,
                draws: a.draws,
                losses: a.losses,
                abandoned: a.abandoned,
                score,
                score_low: lo,
                score_high: hi,
                think_ms_per_move: mean(a.think),
                arm_ms_per_move: mean(a.arm),
                corrections_per_game: per_game(a.corrections),
                interventions_per_game: per_game(a.interventions),
            }
        })
        .collect();
    players.sort_by(|a, b| b.elo.total_cmp(&a.elo).then(a.player.cmp(&b.player)));
    let games = per_game
        .into_values()
        .map(|(mut gs, think, arm, moves)| {
            let n = gs.played.max(1) as f64;
            gs.moves_per_game = moves as f64 / n;
            gs.corrections_per_game /= n;
            gs.interventions_per_game /= n;
            gs.think_ms_per_move = mean(think);
            gs.arm_ms_per_move = mean(arm);
            gs
        })
        .collect();
    Stats { games, players }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{MoveRecord, PlayerRecord};

    fn game(a: &str, b: &str, winner: Option<i32>) -> GameRecord {
        GameRecord {
            uid: format!("{a}-{b}-{winner:?}"),
            source: "test".into(),
            game_name: "g".into(),
            game_file: "g.game".into(),
            game_hash: String::new(),
            arm: None,
            started_at: "2026-01-01T00:00:00.000Z".into(),
            ended_at: None,
            abandoned: winner.is_none(),
            winner,
            players: vec![
                PlayerRecord::from_kind("A", a),
                PlayerRecord::from_kind("B", b),
            ],
            moves: vec![
                MoveRecord {
                    seat: 1,
                    text: "m".into(),
                    think_ms: Some(100),
                    arm_ms: Some(2000),
                },
                MoveRecord {
                    seat: 2,
                    text: "n".into(),
                    think_ms: Some(300),
                    arm_ms: None,
                },
            ],
            corrections: 2,
            interventions: 1,
            faults: 0,
            bag_path: None,
        }
    }

    #[test]
    fn wilson_matches_the_formula_at_known_points() {
        // 8 of 10: the textbook interval is (0.490, 0.943).
        let (lo, hi) = wilson_interval(0.8, 10);
        assert!(
            (lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson_interval(0.5, 0), (0.0, 1.0));
        let (lo, hi) = wilson_interval(1.0, 5);
        assert!(hi == 1.0 && lo > 0.5);
    }

    #[test]
    fn one_win_moves_elo_by_half_k() {
        let s = compute(&[game("ai:a", "ai:b", Some(1))]);
        let a = s.players.iter().find(|p| p.player == "a").unwrap();
        let b = s.players.iter().find(|p| p.player == "b").unwrap();
        assert_eq!(a.elo, ELO_START + ELO_K / 2.0);
        assert_eq!(b.elo, ELO_START - ELO_K / 2.0);
        assert_eq!((a.wins, a.losses, b.losses), (1, 0, 1));
    }

    #[test]
    fn figures_of_a_small_record() {
        let games = [
            game("ai:a", "human", Some(1)),
            game("ai:a", "human", Some(0)),
            game("ai:a", "human", Some(2)),
            game("ai:a", "human", None),
        ];
        let s = compute(&games);
        let a = s.players.iter().find(|p| p.player == "a").unwrap();
        assert_eq!(
            (a.played, a.wins, a.draws, a.losses, a.abandoned),
            (3, 1, 1, 1, 1)
        );
        assert_eq!(a.score, 0.5);
        assert_eq!(a.think_ms_per_move, Some(100.0));
        assert_eq!(a.arm_ms_per_move, Some(2000.0));
        assert_eq!(a.corrections_per_game, 2.0);
        let h = s.players.iter().find(|p| p.player == "human").unwrap();
        assert_eq!(h.kind, "human");
        assert_eq!(h.arm_ms_per_move, None);
        assert_eq!(h.think_ms_per_move, Some(300.0));
        // Symmetric results: Elo sums stay at 2 x start.
        assert!((a.elo + h.elo - 2.0 * ELO_START).abs() < 1e-9);
        let g = &s.games[0];
        assert_eq!((g.played, g.abandoned, g.draws), (4, 1, 1));
        assert_eq!(g.wins_by_seat, vec![1, 1]);
        assert_eq!(g.moves_per_game, 2.0);
        assert_eq!(g.think_ms_per_move, Some(200.0));
    }
}
