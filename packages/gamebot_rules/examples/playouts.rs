//! Seeded random playouts of one game, for instruction counts:
//!
//! ```text
//! cargo build --release -p gamebot_rules --example playouts
//! valgrind --tool=callgrind target/release/examples/playouts games/G.game N
//! ```
//!
//! Instructions per game = (count with N) − (count with N = 0, loading only), divided by N.
//! The loop is the one of `gamebot bench rules`: one state refilled with
//! `initial_state_into` per game, `legal_moves_of`, `settle`,
//! a uniformly random move (ChaCha8, seed 1), `apply_legal`, games cut at 300 moves.
//! Prints the number of moves made and a hash of the final states, so two
//! builds can be checked to play the same games. A third argument `reference`
//! runs the tree-walking reference evaluator instead of the compiled form.

use gamebot_rules::{Game, LegalMoves};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(file), Some(n)) = (args.next(), args.next()) else {
        return Err("usage: playouts GAME-FILE N".into());
    };
    let n: usize = n.parse()?;
    let reference = match args.next().as_deref() {
        None => false,
        Some("reference") => true,
        Some(other) => {
            return Err(format!("unknown option `{other}` (expected `reference`)").into())
        }
    };
    let game = Game::load(&file)?;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut sc = game.scratch();
    sc.set_reference_evaluator(reference);
    let mut legal = LegalMoves::new();
    let (mut moves, mut digest) = (0usize, 0u64);
    let mut st = game.initial_state();
    for _ in 0..n {
        game.initial_state_into(&mut st);
        for _ in 0..=300 {
            game.legal_moves_of(&st, &mut sc, &mut legal)?;
            if game.settle(&mut st, &legal) {
                break;
            }
            game.apply_legal(&mut st, &legal, rng.gen_range(0..legal.len()), &mut sc)?;
            moves += 1;
        }
        digest = digest.rotate_left(7) ^ st.hash();
    }
    println!("{file}: {n} games, {moves} moves, final-state digest {digest:016x}");
    Ok(())
}
