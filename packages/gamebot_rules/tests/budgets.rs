//! Small evaluation budgets: the compiled form against the reference evaluator.
//!
//! The budget (`Scratch::set_step_budget`, issue 20) counts loop iterations and
//! function calls per engine operation. The compiled form may take fewer steps
//! than the tree-walking reference evaluator for the same work — a kept value, a
//! used memo entry or a residual specialized at load saves the steps of the
//! evaluation it replaces (`docs/ARCHITECTURE.md`, "Evaluation budget") — but
//! never more: a position the reference evaluator can generate, a move it can
//! apply, the compiled form can too, with the same result. So, with the same
//! budget on both, at every ply of seeded random games over every game file:
//! - both succeed and give the same moves (or the same state after the move);
//! - or the reference evaluator runs out of budget and the compiled form
//!   succeeds or runs out too (the playout ends there);
//! - nothing else: the compiled form running out alone, or any other error
//!   that differs, fails the test.
//!
//! `tests/digest.rs` checks the same games at a budget no operation reaches.

use gamebot_rules::{Game, Move, RuleError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod common;
use common::{game_files, rel};

/// Playouts per game (seeds 0..PLAYOUTS), each with its own budget.
const PLAYOUTS: u64 = 200;
/// Plies per playout at most.
const MAX_PLIES: usize = 80;
/// Budgets are drawn log-uniformly from 1..=MAX_BUDGET steps: below, around
/// and above what the games' operations take.
const MAX_BUDGET: f64 = 20_000.0;

fn out_of_budget(r: &Result<(), RuleError>) -> bool {
    matches!(r, Err(RuleError::Eval { error, .. }) if error.message.starts_with("evaluation budget exhausted"))
}

/// How one operation went on both evaluators.
enum Step {
    /// Both succeeded.
    Both,
    /// The reference evaluator ran out of budget; the compiled form
    /// succeeded or ran out too.
    ReferenceOut,
}

/// Classifies `compiled` against `reference`, or says what is wrong.
fn judge(
    compiled: &Result<(), RuleError>,
    reference: &Result<(), RuleError>,
) -> Result<Step, String> {
    match (compiled, reference) {
        (Ok(()), Ok(())) => Ok(Step::Both),
        (_, r) if out_of_budget(r) && (compiled.is_ok() || out_of_budget(compiled)) => {
            Ok(Step::ReferenceOut)
        }
        (Err(a), Err(b)) if a.to_string() == b.to_string() => Ok(Step::ReferenceOut),
        (a, b) => Err(format!("compiled {a:?}, reference {b:?}")),
    }
}

#[derive(Default)]
struct Tally {
    compared: usize,
    reference_out: usize,
    finished: usize,
}

fn play(game: &Game, name: &str, tally: &mut Tally) {
    let (mut sc, mut rsc) = (game.scratch(), game.scratch());
    rsc.set_reference_evaluator(true);
    let (mut moves, mut want): (Vec<Move>, Vec<Move>) = (Vec::new(), Vec::new());
    for seed in 0..PLAYOUTS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let budget = rng.gen_range(0.0..MAX_BUDGET.ln()).exp() as u64;
        sc.set_step_budget(budget);
        rsc.set_step_budget(budget);
        let mut st = game.initial_state();
        let at = |ply: usize| format!("{name}, seed {seed}, budget {budget}, ply {ply}");
        for ply in 0..MAX_PLIES {
            let c = game.legal_moves_into(&st, &mut sc, &mut moves);
            let r = game.legal_moves_into(&st, &mut rsc, &mut want);
            match judge(&c, &r) {
                Ok(Step::Both) => assert_eq!(moves, want, "{}: moves", at(ply)),
                Ok(Step::ReferenceOut) => {
                    tally.reference_out += 1;
                    break;
                }
                Err(e) => panic!("{}: generation: {e}", at(ply)),
            }
            tally.compared += moves.len();
            if game.settle(&mut st, &moves) {
                tally.finished += 1;
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())].clone();
            let mut st2 = st.clone();
            let c = game.apply_with(&mut st, &mv, &mut sc);
            let r = game.apply_with(&mut st2, &mv, &mut rsc);
            match judge(&c, &r) {
                Ok(Step::Both) => {
                    assert_eq!(format!("{st:?}"), format!("{st2:?}"), "{}: state", at(ply))
                }
                Ok(Step::ReferenceOut) => {
                    tally.reference_out += 1;
                    break;
                }
                Err(e) => panic!("{}: applying {}: {e}", at(ply), game.move_text(&mv)),
            }
        }
    }
}

#[test]
fn the_compiled_form_never_needs_more_budget_than_the_reference() {
    let files = game_files();
    assert!(files.len() >= 16, "games not found: {files:?}");
    let mut tally = Tally::default();
    for f in &files {
        let game = Game::load(f).unwrap_or_else(|e| panic!("{e}"));
        play(&game, &rel(f), &mut tally);
    }
    eprintln!(
        "{} moves compared, {} playouts ran out of budget, {} finished",
        tally.compared, tally.reference_out, tally.finished
    );
    // Neither vacuous nor unbounded: many moves compared, the budget biting
    // in some playouts, and others played to their end under it.
    assert!(tally.compared > 50_000, "{} moves compared", tally.compared);
    assert!(
        tally.reference_out > 50,
        "{} playouts ran out",
        tally.reference_out
    );
    assert!(tally.finished > 50, "{} playouts finished", tally.finished);
}

/// The property above, measured: at the default budget, every generation
/// and every move's end checks take no more budget steps on the compiled form
/// than on the reference evaluator (`Scratch::steps_taken`), over seeded
/// random games of every game file.
#[test]
fn the_compiled_form_takes_no_more_steps_than_the_reference() {
    let files = game_files();
    let (mut operations, mut fewer) = (0usize, 0usize);
    for f in &files {
        let game = Game::load(f).unwrap_or_else(|e| panic!("{e}"));
        let (mut sc, mut rsc) = (game.scratch(), game.scratch());
        rsc.set_reference_evaluator(true);
        let (mut moves, mut want): (Vec<Move>, Vec<Move>) = (Vec::new(), Vec::new());
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut st = game.initial_state();
            for ply in 0..MAX_PLIES {
                let at = format!("{}, seed {seed}, ply {ply}", rel(f));
                game.legal_moves_into(&st, &mut sc, &mut moves).unwrap();
                game.legal_moves_into(&st, &mut rsc, &mut want).unwrap();
                assert_eq!(moves, want, "{at}");
                let (c, r) = (sc.steps_taken(), rsc.steps_taken());
                assert!(c <= r, "{at}: generation took {c} steps, the reference {r}");
                operations += 1;
                fewer += usize::from(c < r);
                if game.settle(&mut st, &moves) {
                    break;
                }
                let mv = moves[rng.gen_range(0..moves.len())].clone();
                let mut st2 = st.clone();
                game.apply_with(&mut st, &mv, &mut sc).unwrap();
                game.apply_with(&mut st2, &mv, &mut rsc).unwrap();
                let (c, r) = (sc.steps_taken(), rsc.steps_taken());
                assert!(
                    c <= r,
                    "{at}: the end checks took {c} steps, the reference {r}"
                );
                operations += 1;
                fewer += usize::from(c < r);
            }
        }
    }
    eprintln!("{operations} operations, {fewer} with fewer steps compiled");
    assert!(
        operations > 10_000 && fewer > 1_000,
        "{operations} operations, {fewer} fewer"
    );
}
