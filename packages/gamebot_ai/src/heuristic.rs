//! Position evaluation at the search horizon. Nothing here knows any game:
//! the game-specific knowledge comes from the game file's `[EVALUATION]` section.

use crate::error::{AiError, Result};
use crate::worker::Worker;
use gamebot_rules::{Game, State};
use std::fmt;
use std::str::FromStr;

/// A heuristic: how good a running position is for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Heuristic {
    /// `eval` if the game has an `[EVALUATION]` section, else `score` if the
    /// game's scores ever change (`[SCORINGS]` or rule bonuses), else `pieces`.
    #[default]
    Auto,
    /// Own elements on relevant locations minus other players' (owner 0 counts for nobody).
    Pieces,
    /// Number of distinct moves of the player to move: positive when that is the
    /// evaluating player, negative otherwise.
    Mobility,
    /// The game's own scores (`[SCORINGS]`, rule bonuses): own score minus the best other score.
    Score,
    /// The game file's `[EVALUATION]` expression for the player. In a two-player
    /// game with only one player's record, the other player's value is its negation.
    Eval,
    /// Always 0: only decided games count.
    Zero,
}

/// Every heuristic name, for messages.
pub const HEURISTIC_NAMES: &str = "auto, pieces, mobility, score, eval, none";

/// A heuristic name that is not one of [`HEURISTIC_NAMES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown heuristic `{0}`; available: {HEURISTIC_NAMES}")]
pub struct UnknownHeuristic(pub String);

impl FromStr for Heuristic {
    type Err = UnknownHeuristic;
    fn from_str(s: &str) -> std::result::Result<Self, UnknownHeuristic> {
        Ok(match s {
            "auto" => Heuristic::Auto,
            "pieces" | "piece-count" => Heuristic::Pieces,
            "mobility" => Heuristic::Mobility,
            "score" | "scores" => Heuristic::Score,
            "eval" | "evaluation" | "game" => Heuristic::Eval,
            "none" | "zero" => Heuristic::Zero,
            _ => return Err(UnknownHeuristic(s.to_string())),
        })
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Heuristic::Auto => "auto",
            Heuristic::Pieces => "pieces",
            Heuristic::Mobility => "mobility",
            Heuristic::Score => "score",
            Heuristic::Eval => "eval",
            Heuristic::Zero => "none",
        })
    }
}

impl Heuristic {
    /// Replaces `Auto` with the concrete heuristic for `game`, and checks that
    /// `Eval` is possible.
    pub fn resolve(self, game: &Game) -> Result<Heuristic> {
        let has_scores = game.has_scoring();
        match self {
            Heuristic::Auto => Ok(if !game.evaluations().is_empty() {
                Heuristic::Eval
            } else if has_scores {
                Heuristic::Score
            } else {
                Heuristic::Pieces
            }),
            Heuristic::Eval => {
                let n = game.player_count() as i32;
                let have = |p: i32| game.has_evaluation(p);
                let ok = (1..=n).all(|p| have(p) || (n == 2 && have(3 - p)));
                if ok {
                    Ok(Heuristic::Eval)
                } else {
                    Err(AiError::Heuristic {
                        heuristic: "eval".into(),
                        game: game.name.clone(),
                        message: "the game file has no [EVALUATION] record for every player".into(),
                    })
                }
            }
            h => Ok(h),
        }
    }

    /// The raw value of a running position for `player` (any scale; larger is better).
    pub(crate) fn raw(self, w: &mut Worker<'_>, st: &State, player: i32) -> Result<f64> {
        let game = w.game;
        Ok(match self {
            Heuristic::Zero => 0.0,
            Heuristic::Pieces => pieces(game, st, player),
            Heuristic::Score => score(st, player),
            Heuristic::Mobility => {
                let n = w.moves(st)?.len() as f64;
                if st.player() == player {
                    n
                } else {
                    -n
                }
            }
            Heuristic::Eval => match game.evaluate(st, player, &mut w.sc)? {
                Some(v) => v as f64,
                None => match game.evaluate(st, 3 - player, &mut w.sc)? {
                    Some(v) if game.player_count() == 2 => -(v as f64),
                    _ => 0.0,
                },
            },
            Heuristic::Auto => {
                let h = self.resolve(game)?;
                return h.raw(w, st, player);
            }
        })
    }

    /// Every player's [`Heuristic::raw`] value (player `p` at index `p − 1`),
    /// each computed once: in a two-player game the player without an
    /// `[EVALUATION]` record gets the negation of the value already computed
    /// for the other, and mobility generates the moves once.
    pub(crate) fn raw_each(self, w: &mut Worker<'_>, st: &State) -> Result<Vec<f64>> {
        let game = w.game;
        let n = game.player_count() as i32;
        match self {
            Heuristic::Eval if n == 2 && game.has_evaluation(1) != game.has_evaluation(2) => {
                // One run of the one record (`raw` negates player 2's for
                // player 1 when only player 2 has one).
                let v = self.raw(w, st, 1)?;
                Ok(vec![v, -v])
            }
            Heuristic::Mobility => {
                let m = w.moves(st)?.len() as f64;
                let me = st.player();
                Ok((1..=n).map(|p| if p == me { m } else { -m }).collect())
            }
            Heuristic::Auto => self.resolve(game)?.raw_each(w, st),
            h => (1..=n).map(|p| h.raw(w, st, p)).collect(),
        }
    }

    /// A default scale for [`squash`]: the raw difference that counts as "clearly better".
    pub(crate) fn default_scale(self) -> f64 {
        match self {
            Heuristic::Eval => 50.0,
            _ => 8.0,
        }
    }
}

fn pieces(game: &Game, st: &State, player: i32) -> f64 {
    let mut v = 0i64;
    for l in 0..game.locations.len() {
        let l = l as u16;
        if !st.is_relevant(l) {
            continue;
        }
        if let Some(e) = st.content(l) {
            let o = st.owner(e);
            if o == player {
                v += 1;
            } else if o != 0 {
                v -= 1;
            }
        }
    }
    v as f64
}

fn score(st: &State, player: i32) -> f64 {
    let s = st.scores();
    let own = s[player as usize - 1] as f64;
    let best_other = s
        .iter()
        .enumerate()
        .filter(|(i, _)| *i as i32 != player - 1)
        .map(|(_, &x)| x as f64)
        .fold(f64::NEG_INFINITY, f64::max);
    if best_other.is_finite() {
        own - best_other
    } else {
        own
    }
}

/// Maps a raw heuristic value into (−0.4, 0.4), keeping its order, so that it
/// always ranks below a decided game (worth ±0.99^plies).
#[inline]
pub(crate) fn squash(raw: f64, scale: f64) -> f64 {
    0.4 * raw / (raw.abs() + scale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn squash_keeps_order_and_range(a in -1e6f64..1e6, b in -1e6f64..1e6, s in 0.5f64..100.0) {
            let (x, y) = (squash(a, s), squash(b, s));
            prop_assert!(x.abs() < 0.4 && y.abs() < 0.4);
            if a < b { prop_assert!(x <= y); }
        }
    }

    #[test]
    fn every_players_values_at_once_are_each_players_value() {
        use gamebot_rules::LegalMoves;
        use rand::{Rng, SeedableRng};
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        // reversi 8×8 and pentago: an [EVALUATION] record for player 1 only;
        // nim: scores; connect four: neither.
        for name in ["reversi8.game", "nim.game", "pentago.game", "connect4.game"] {
            let g = Game::load(format!("{dir}/{name}")).unwrap();
            let mut w = Worker::new(&g);
            let (mut sc, mut buf) = (g.scratch(), LegalMoves::new());
            let mut st = g.initial_state();
            let mut seen = 0;
            while !st.is_over() && seen < 30 {
                for h in [
                    Heuristic::Auto,
                    Heuristic::Pieces,
                    Heuristic::Mobility,
                    Heuristic::Score,
                    Heuristic::Zero,
                ]
                .into_iter()
                .chain(Heuristic::Eval.resolve(&g).ok())
                {
                    let each = h.raw_each(&mut w, &st).unwrap();
                    let one: Vec<f64> = (1..=g.player_count() as i32)
                        .map(|p| h.raw(&mut w, &st, p).unwrap())
                        .collect();
                    assert_eq!(each, one, "{name} {h} {}", st.hash());
                }
                g.legal_moves_of(&st, &mut sc, &mut buf).unwrap();
                if buf.is_empty() {
                    break;
                }
                g.apply_legal(&mut st, &buf, rng.gen_range(0..buf.len()), &mut sc)
                    .unwrap();
                seen += 1;
            }
            assert!(seen > 5, "{name}: {seen} positions");
        }
    }

    #[test]
    fn names_round_trip() {
        for n in ["auto", "pieces", "mobility", "score", "eval", "none"] {
            let h: Heuristic = n.parse().unwrap();
            assert_eq!(h.to_string(), n);
        }
        let e = "fancy".parse::<Heuristic>().unwrap_err();
        assert!(e.to_string().contains("mobility"), "{e}");
    }
}
