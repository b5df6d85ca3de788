//! Uniformly random playouts: the one implementation behind the playouts of
//! `mc` and `mcts` and the CLI's `gamebot selfplay` and `gamebot bench rules`.

use gamebot_rules::{Game, LegalMoves, RuleError, Scratch, State};
use rand::Rng;

/// What one random playout did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Playout {
    /// Moves played.
    pub length: usize,
    /// Positions reached, including the first and the final one.
    pub positions: usize,
    /// Positions whose legal moves were generated (those not already decided).
    pub generated: usize,
    /// Sum of the number of legal moves over `positions` (0 for decided ones).
    pub branching_sum: usize,
    /// False when `max_moves` was reached (or `stop` said so) before the game ended.
    pub finished: bool,
}

/// Plays uniformly random legal moves (the raw list, as the reference's random
/// player does) on `state` until the game ends (a stuck player ends it as a
/// draw, §7.11), `max_moves` were made or `stop` returns true (asked once per
/// move). `scratch` and `buf` are working memory reused between calls.
pub fn random_playout(
    game: &Game,
    state: &mut State,
    rng: &mut impl Rng,
    max_moves: usize,
    stop: impl Fn() -> bool,
    scratch: &mut Scratch,
    buf: &mut LegalMoves,
) -> Result<Playout, RuleError> {
    let mut p = Playout::default();
    loop {
        let decided = state.is_over();
        if decided {
            buf.clear();
        } else {
            game.legal_moves_of(state, scratch, buf)?;
            p.generated += 1;
        }
        p.positions += 1;
        p.branching_sum += buf.len();
        if decided || game.settle(state, buf) {
            p.finished = true;
            return Ok(p);
        }
        if p.length >= max_moves || stop() {
            return Ok(p);
        }
        game.apply_legal(state, buf, rng.gen_range(0..buf.len()), scratch)?;
        p.length += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn game(name: &str) -> Game {
        Game::load(format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn playouts_end_games_and_count_what_they_did() {
        let g = game("tictactoe.game");
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (mut sc, mut buf) = (g.scratch(), LegalMoves::new());
        for _ in 0..50 {
            let mut st = g.initial_state();
            let p =
                random_playout(&g, &mut st, &mut rng, 1000, || false, &mut sc, &mut buf).unwrap();
            assert!(p.finished && st.is_over());
            assert!((5..=9).contains(&p.length), "{p:?}");
            // Every move leads to a new position; a won final one is not generated.
            assert_eq!(p.positions, p.length + 1);
            assert!(p.generated == p.positions || p.generated + 1 == p.positions);
            // Tic-tac-toe: 9 moves in the first position, one fewer each move.
            assert!(p.branching_sum >= 9);
        }
    }

    #[test]
    fn limits_and_stop_cut_playouts_short() {
        let g = game("tictactoe.game");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (mut sc, mut buf) = (g.scratch(), LegalMoves::new());
        let mut st = g.initial_state();
        let p = random_playout(&g, &mut st, &mut rng, 2, || false, &mut sc, &mut buf).unwrap();
        assert_eq!((p.length, p.finished), (2, false));
        assert!(!st.is_over());
        let mut st = g.initial_state();
        let p = random_playout(&g, &mut st, &mut rng, 100, || true, &mut sc, &mut buf).unwrap();
        assert_eq!((p.length, p.positions, p.finished), (0, 1, false));
        // Same seed, same game.
        let run = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut st = g.initial_state();
            let (mut sc, mut buf) = (g.scratch(), LegalMoves::new());
            random_playout(&g, &mut st, &mut rng, 100, || false, &mut sc, &mut buf).unwrap();
            st
        };
        assert_eq!(run(7), run(7));
    }
}
