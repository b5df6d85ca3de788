//! The validator GGP courses use, after the static checks: random simulations
//! showing in practice that every non-terminal state reached gives each role
//! a legal move, every terminal state gives each role one goal in 0..100, games
//! end within a bound, and the game is deterministic (the same joint move from
//! the same state always gives the same state, with a consistent hash).

use crate::game::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// Options of [`validate`].
#[derive(Clone, Debug)]
pub struct Options {
    /// Random games played.
    pub games: usize,
    /// A game longer than this fails the termination check.
    pub max_steps: usize,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            games: 200,
            max_steps: 1000,
            seed: 1,
        }
    }
}

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckResult {
    pub name: &'static str,
    pub passed: bool,
    /// What was verified, or the first counter-example.
    pub detail: String,
}

/// A report per check, with statistics of the simulations.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub checks: Vec<CheckResult>,
    pub games: usize,
    pub states: usize,
    pub mean_length: f64,
    /// Mean goal of each role over the games that ended.
    pub mean_goals: Vec<f64>,
}

impl Report {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.checks {
            writeln!(
                f,
                "{} {}: {}",
                if c.passed { "ok  " } else { "FAIL" },
                c.name,
                c.detail
            )?;
        }
        write!(
            f,
            "{} random games, {} states, mean length {:.1}, mean goals {:?}",
            self.games, self.states, self.mean_length, self.mean_goals
        )
    }
}

/// First counter-example of a check, if any.
#[derive(Default)]
struct Finding(Option<String>);

impl Finding {
    fn note(&mut self, f: impl FnOnce() -> String) {
        if self.0.is_none() {
            self.0 = Some(f());
        }
    }
}

/// Runs the simulations.
pub fn validate(game: &Game, o: &Options) -> Report {
    let mut rng = ChaCha8Rng::seed_from_u64(o.seed);
    let mut sc = game.scratch();
    let mut sc2 = game.scratch();
    let n = game.roles().len();
    let (mut playable, mut goals, mut ends, mut determ) = (
        Finding::default(),
        Finding::default(),
        Finding::default(),
        Finding::default(),
    );
    let mut states = 0usize;
    let mut length = 0usize;
    let mut ended = 0usize;
    let mut goal_sum = vec![0f64; n];
    let mut buf = Vec::new();
    let describe = |st: &State, steps: usize| -> String {
        format!(
            "after {steps} steps in {{{}}}",
            game.state_text(st).join(" ")
        )
    };
    for _ in 0..o.games {
        let mut st = game.initial_state();
        let mut steps = 0usize;
        loop {
            states += 1;
            if game.rebuild_hash(&st) != st.hash() {
                determ.note(|| {
                    format!(
                        "hash differs from the rebuilt hash {}",
                        describe(&st, steps)
                    )
                });
            }
            game.load_state(&st, &mut sc);
            if game.loaded_terminal(&sc) {
                let sets = game.loaded_goal_sets(&mut sc);
                for (r, s) in sets.iter().enumerate() {
                    match s.as_slice() {
                        [g] => goal_sum[r] += *g as f64,
                        [] => goals.note(|| {
                            format!(
                                "role {} has no goal in the terminal state {}",
                                game.roles()[r],
                                describe(&st, steps)
                            )
                        }),
                        many => goals.note(|| {
                            format!(
                                "role {} has several goals {many:?} in the terminal state {}",
                                game.roles()[r],
                                describe(&st, steps)
                            )
                        }),
                    }
                }
                ended += 1;
                break;
            }
            if steps >= o.max_steps {
                ends.note(|| format!("a random game did not end within {} steps", o.max_steps));
                break;
            }
            let mut choice = Vec::with_capacity(n);
            for r in 0..n {
                game.loaded_legal(&sc, r, &mut buf);
                if buf.is_empty() {
                    playable.note(|| {
                        format!(
                            "role {} has no legal move {}",
                            game.roles()[r],
                            describe(&st, steps)
                        )
                    });
                    break;
                }
                choice.push(buf[rng.gen_range(0..buf.len())]);
            }
            if choice.len() < n {
                break;
            }
            let next = game.loaded_next(&mut sc, &choice);
            // Determinism: the same joint move with fresh memory, and through the checked API.
            game.load_state(&st, &mut sc2);
            let again = game.loaded_next(&mut sc2, &choice);
            let joint: Vec<_> = choice
                .iter()
                .enumerate()
                .map(|(r, &i)| game.move_of(r, i))
                .collect();
            let third = game.next_state(&st, &joint, &mut sc2);
            if again != next || third.as_ref().ok() != Some(&next) {
                determ.note(|| {
                    format!(
                        "the same joint move gave different states {}",
                        describe(&st, steps)
                    )
                });
            }
            st = next;
            steps += 1;
        }
        length += steps;
    }
    let result = |name, f: Finding, ok: String| match f.0 {
        None => CheckResult {
            name,
            passed: true,
            detail: ok,
        },
        Some(d) => CheckResult {
            name,
            passed: false,
            detail: d,
        },
    };
    let checks = vec![
        result(
            "playable",
            playable,
            format!("every role had a legal move in all {states} non-terminal states reached"),
        ),
        result(
            "goals",
            goals,
            format!("every role had exactly one goal in 0..100 in all {ended} terminal states"),
        ),
        result(
            "termination",
            ends,
            format!("all {} games ended within {} steps", o.games, o.max_steps),
        ),
        result(
            "deterministic",
            determ,
            "every joint move gave the same state (and hash) when repeated".into(),
        ),
    ];
    Report {
        checks,
        games: o.games,
        states,
        mean_length: length as f64 / o.games.max(1) as f64,
        mean_goals: goal_sum.iter().map(|s| s / ended.max(1) as f64).collect(),
    }
}
