//! Playing games between strategies: single games, round-robin tournaments in
//! parallel, scores with confidence intervals and Elo ratings.

use crate::control::{CancelToken, SearchControl};
use crate::error::{AiError, Result};
use crate::spec::Spec;
use crate::stats::Decision;
use crate::{build, Strategy};
use gamebot_rules::{Game, State};
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What one side spent in a game (or a tournament).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Moves chosen.
    pub moves: u64,
    /// Thinking time in seconds.
    pub seconds: f64,
    /// Positions searched (see [`crate::SearchStats::nodes`]).
    pub nodes: u64,
    /// Random playouts.
    pub playouts: u64,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.moves += o.moves;
        self.seconds += o.seconds;
        self.nodes += o.nodes;
        self.playouts += o.playouts;
    }
    /// Mean thinking time per move in seconds.
    pub fn seconds_per_move(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.seconds / self.moves as f64
        }
    }
    /// Positions searched per second of thinking.
    pub fn nodes_per_second(&self) -> f64 {
        self.per_second(self.nodes)
    }
    /// Playouts per second of thinking (MCTS: leaves judged, one an
    /// iteration unless the leaf is decided; with `cutoff=0` a leaf's moves
    /// are not generated, so this, not [`Tally::nodes_per_second`], is its
    /// search rate).
    pub fn playouts_per_second(&self) -> f64 {
        self.per_second(self.playouts)
    }
    fn per_second(&self, n: u64) -> f64 {
        if self.seconds > 0.0 {
            n as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// The record of one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// The moves played, as `element:from->to`.
    pub moves: Vec<String>,
    /// 0 draw (also when `truncated`), 1..N the winner.
    pub winner: i32,
    /// The game reached the ply limit and was scored as a draw.
    pub truncated: bool,
    /// Final scores.
    pub scores: Vec<i32>,
    /// Per player (index 0 = player 1).
    pub tally: Vec<Tally>,
}

/// Plays one game from the initial position; `players[i]` plays player i+1.
/// A game longer than `max_plies` is a draw. `on_move` sees each position with
/// the decision taken in it.
pub fn play_game(
    game: &Game,
    players: &mut [Box<dyn Strategy>],
    max_plies: usize,
    cancel: &CancelToken,
    mut on_move: impl FnMut(&State, &Decision),
) -> Result<GameRecord> {
    if players.len() != game.player_count() {
        return Err(AiError::Unsupported(format!(
            "game `{}` has {} player(s), but {} strategies were given",
            game.name,
            game.player_count(),
            players.len()
        )));
    }
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    let mut tally = vec![Tally::default(); players.len()];
    let ctl = SearchControl::new().with_cancel(cancel.clone());
    let mut sc = game.scratch();
    let mut legal = Vec::new();
    let mut truncated = false;
    loop {
        game.legal_moves_into(&state, &mut sc, &mut legal)?;
        if game.settle(&mut state, &legal) {
            break;
        }
        if moves.len() >= max_plies {
            truncated = true;
            break;
        }
        let p = state.player() as usize - 1;
        let d = players[p].choose(game, &state, &ctl)?;
        let t = &mut tally[p];
        t.moves += 1;
        t.seconds += d.stats.seconds;
        t.nodes += d.stats.nodes;
        t.playouts += d.stats.playouts;
        on_move(&state, &d);
        moves.push(game.move_text(&d.mv));
        game.apply_with(&mut state, &d.mv, &mut sc)?;
        if cancel.is_cancelled() {
            truncated = true;
            break;
        }
    }
    Ok(GameRecord {
        moves,
        winner: if truncated { 0 } else { state.outcome().code() },
        truncated,
        scores: state.scores().to_vec(),
        tally,
    })
}

/// Names for a list of strategy strings: a string listed again gets `#2`, `#3`, ...
pub fn player_names(specs: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(specs.len());
    for (i, s) in specs.iter().enumerate() {
        let k = specs[..i].iter().filter(|x| *x == s).count();
        out.push(if k == 0 {
            s.clone()
        } else {
            format!("{s}#{}", k + 1)
        });
    }
    out
}

/// A round-robin tournament between two-player strategies.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The players' names and strategies.
    pub players: Vec<(String, Spec)>,
    /// Games per pairing.
    pub games: usize,
    /// Alternate who moves first (otherwise the first-listed player of a pairing always starts).
    pub swap_sides: bool,
    /// Every game's seed is derived from this, its pairing and its number.
    pub seed: u64,
    /// Games played at the same time.
    pub jobs: usize,
    /// Games longer than this are draws.
    pub max_plies: usize,
}

/// The outcome of one pairing, from the first-listed player's (a's) side.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Pairing {
    /// Index of player a.
    pub a: usize,
    /// Index of player b.
    pub b: usize,
    pub games: usize,
    pub a_wins: usize,
    pub b_wins: usize,
    pub draws: usize,
    /// Games that reached the ply limit (counted as draws).
    pub truncated: usize,
}

impl Pairing {
    /// a's score: (wins + draws/2) / games.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        (self.a_wins as f64 + 0.5 * self.draws as f64) / self.games as f64
    }
    /// 95 % Wilson interval of a's score.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.score(), self.games as f64, 1.96)
    }
}

/// Everything a tournament measured.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentResult {
    pub players: Vec<String>,
    pub pairings: Vec<Pairing>,
    /// Elo rating per player (mean 0).
    pub elo: Vec<f64>,
    /// Effort per player over all its games.
    pub tally: Vec<Tally>,
    /// Every game: (pairing, game number, whether b moved first, record).
    #[serde(skip)]
    pub games: Vec<(usize, usize, bool, GameRecord)>,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of game `g` of pairing `k`.
pub fn game_seed(seed: u64, k: usize, g: usize) -> u64 {
    mix(mix(seed ^ mix(k as u64)) ^ g as u64)
}

/// Runs the tournament; `progress(done, total)` is called after every game.
/// Games run on `jobs` threads; the results do not depend on `jobs` when the
/// strategies use iteration or depth budgets.
pub fn run_tournament(
    game: &Game,
    cfg: &TournamentConfig,
    cancel: &CancelToken,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<TournamentResult> {
    if game.player_count() != 2 {
        return Err(AiError::Unsupported(format!(
            "tournaments need a two-player game; `{}` has {} player(s)",
            game.name,
            game.player_count()
        )));
    }
    if cfg.players.len() < 2 {
        return Err(AiError::Unsupported(
            "a tournament needs at least two players".into(),
        ));
    }
    let n = cfg.players.len();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect();
    let tasks: Vec<(usize, usize)> = (0..pairs.len())
        .flat_map(|k| (0..cfg.games).map(move |g| (k, g)))
        .collect();
    let results: Mutex<Vec<Option<Result<GameRecord>>>> =
        Mutex::new((0..tasks.len()).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = CancelToken::new();
    let stop = |c: &CancelToken| c.is_cancelled() || failed.is_cancelled();
    std::thread::scope(|scope| {
        for _ in 0..cfg.jobs.max(1).min(tasks.len().max(1)) {
            scope.spawn(|| loop {
                let t = next.fetch_add(1, Ordering::Relaxed);
                if t >= tasks.len() || stop(cancel) {
                    break;
                }
                let (k, g) = tasks[t];
                let (a, b) = pairs[k];
                let b_first = cfg.swap_sides && g % 2 == 1;
                let seed = game_seed(cfg.seed, k, g);
                let (first, second) = if b_first { (b, a) } else { (a, b) };
                let mut players = vec![
                    build(&cfg.players[first].1.with_default_seed(seed)),
                    build(&cfg.players[second].1.with_default_seed(seed ^ 0x5eed)),
                ];
                let r = play_game(game, &mut players, cfg.max_plies, cancel, |_, _| {});
                if r.is_err() {
                    failed.cancel();
                }
                results.lock().unwrap_or_else(|e| e.into_inner())[t] = Some(r);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, tasks.len());
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut pairings: Vec<Pairing> = pairs
        .iter()
        .map(|&(a, b)| Pairing {
            a,
            b,
            ..Default::default()
        })
        .collect();
    let mut tally = vec![Tally::default(); n];
    let mut games = Vec::new();
    for (t, r) in results.into_iter().enumerate() {
        let (k, g) = tasks[t];
        let Some(r) = r else { continue };
        let rec = r.map_err(|e| {
            AiError::Unsupported(format!(
                "game {} of {} vs {} (seed {}) failed: {e}",
                g + 1,
                cfg.players[pairs[k].0].0,
                cfg.players[pairs[k].1].0,
                game_seed(cfg.seed, k, g)
            ))
        })?;
        let (a, b) = pairs[k];
        let b_first = cfg.swap_sides && g % 2 == 1;
        let (side_a, side_b) = if b_first { (2, 1) } else { (1, 2) };
        let p = &mut pairings[k];
        p.games += 1;
        match rec.winner {
            w if w == side_a => p.a_wins += 1,
            w if w == side_b => p.b_wins += 1,
            _ => p.draws += 1,
        }
        p.truncated += usize::from(rec.truncated);
        tally[a].add(&rec.tally[side_a as usize - 1]);
        tally[b].add(&rec.tally[side_b as usize - 1]);
        games.push((k, g, b_first, rec));
    }
    let elo = elo_ratings(n, &pairings);
    Ok(TournamentResult {
        players: cfg.players.iter().map(|p| p.0.clone()).collect(),
        pairings,
        elo,
        tally,
        games,
    })
}

/// Wilson score interval of a proportion `p` over `n` trials.
pub fn wilson(p: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo difference that corresponds to an expected score.
pub fn elo_difference(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Maximum-likelihood Elo ratings (Bradley–Terry, draws as half a win), with
/// one virtual draw per pairing so that a perfect score stays finite. Mean 0.
pub fn elo_ratings(n: usize, pairings: &[Pairing]) -> Vec<f64> {
    // Minorisation-maximisation: g_i <- W_i / sum_j n_ij / (g_i + g_j).
    let mut g = vec![1.0f64; n];
    let mut wins = vec![0.0f64; n];
    for p in pairings.iter().filter(|p| p.games > 0) {
        wins[p.a] += p.a_wins as f64 + 0.5 * p.draws as f64 + 0.5;
        wins[p.b] += p.b_wins as f64 + 0.5 * p.draws as f64 + 0.5;
    }
    for _ in 0..10_000 {
        let mut next = g.clone();
        let mut change = 0.0f64;
        for i in 0..n {
            let mut denom = 0.0;
            for p in pairings.iter().filter(|p| p.games > 0) {
                let games = p.games as f64 + 1.0;
                if p.a == i {
                    denom += games / (g[i] + g[p.b]);
                } else if p.b == i {
                    denom += games / (g[i] + g[p.a]);
                }
            }
            if denom > 0.0 {
                next[i] = wins[i] / denom;
            }
        }
        // Normalise: geometric mean 1 (rating mean 0).
        let mean_log = next.iter().map(|x| x.ln()).sum::<f64>() / n as f64;
        for (i, x) in next.iter_mut().enumerate() {
            *x = (x.ln() - mean_log).exp();
            change = change.max((*x / g[i]).ln().abs());
        }
        g = next;
        if change < 1e-10 {
            break;
        }
    }
    g.iter().map(|x| 400.0 * x.log10()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_get_suffixes() {
        let n = player_names(&["mcts".into(), "random".into(), "mcts".into(), "mcts".into()]);
        assert_eq!(n, ["mcts", "random", "mcts#2", "mcts#3"]);
    }

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(0.5, 100.0, 1.96);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(1.0, 100.0, 1.96);
        assert!(
            (lo - 0.963).abs() < 1e-3 && (hi - 1.0).abs() < 1e-9,
            "{lo} {hi}"
        );
    }

    #[test]
    fn elo_of_two_players_matches_the_score() {
        let p = Pairing {
            a: 0,
            b: 1,
            games: 99,
            a_wins: 75,
            b_wins: 24,
            draws: 0,
            truncated: 0,
        };
        let e = elo_ratings(2, &[p]);
        // One virtual draw: a scores 75.5 of 100.
        let want = elo_difference(0.755);
        assert!(((e[0] - e[1]) - want).abs() < 0.01, "{e:?} vs {want}");
        assert!((e[0] + e[1]).abs() < 1e-6);
    }

    #[test]
    fn elo_is_transitive_for_consistent_results() {
        let mk = |a, b, w, l| Pairing {
            a,
            b,
            games: w + l,
            a_wins: w,
            b_wins: l,
            ..Default::default()
        };
        let e = elo_ratings(3, &[mk(0, 1, 60, 40), mk(1, 2, 60, 40), mk(0, 2, 70, 30)]);
        assert!(e[0] > e[1] && e[1] > e[2], "{e:?}");
    }
}
