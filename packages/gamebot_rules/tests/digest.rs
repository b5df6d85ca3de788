//! Identical playouts: seeded random games over every game in `games/` and
//! `games/bench/`, their move lists and state hashes folded into one digest
//! per game and compared with `tests/data/playout-digests.txt`.
//!
//! The expected digests were computed with the tree-walking evaluator before
//! the rule engine was compiled (issue 18); the engine's compiled form and the
//! reference evaluator (`Scratch::set_reference_evaluator`) must both give them, and so must the
//! moves applied as found legal (`Game::apply_legal`); any change of move generation
//! order, move application, end-of-game or scoring shows up here. When a game
//! file is added or deliberately changed, the failure message prints the line
//! to put in the data file.

use gamebot_rules::{Game, LegalMoves, Move};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

mod common;
use common::{game_files, rel};

/// Playouts per game (seeds 0..PLAYOUTS).
const PLAYOUTS: u64 = 40;
/// Moves per playout at most (the original benchmark's cut).
const MAX_MOVES: usize = 300;

const DATA: &str = "tests/data/playout-digests.txt";

/// FNV-1a, 64 bits: stable across platforms and Rust versions.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The digest of one game's seeded playouts, and the number of moves they
/// made. `found`: the moves applied as found legal (`Game::legal_moves_of`
/// and `Game::apply_legal`, as `gamebot bench rules` plays), else with
/// `Game::legal_moves_into` and `Game::apply_with`.
fn digest(game: &Game, reference: bool, found: bool) -> (u64, usize) {
    let mut h = Fnv::new();
    let mut moves_made = 0;
    let mut sc = game.scratch();
    sc.set_reference_evaluator(reference);
    // A hundredth of the default evaluation budget: the expected digests
    // contain no budget error, so every operation of these playouts stays
    // 100x below the default budget (and the budget changes no playout).
    sc.set_step_budget(gamebot_rules::DEFAULT_STEP_BUDGET / 100);
    let mut buf: Vec<Move> = Vec::new();
    let mut legal = LegalMoves::new();
    // One state refilled per playout, as `gamebot bench rules` does.
    let mut st = game.initial_state();
    for seed in 0..PLAYOUTS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        game.initial_state_into(&mut st);
        h.bytes(&st.hash().to_le_bytes());
        for _ in 0..=MAX_MOVES {
            let generated = if found {
                game.legal_moves_of(&st, &mut sc, &mut legal)
            } else {
                game.legal_moves_into(&st, &mut sc, &mut buf)
            };
            if let Err(e) = generated {
                h.bytes(format!("generation error: {e}\n").as_bytes());
                break;
            }
            let moves: &[Move] = if found { &legal } else { &buf };
            h.bytes(&(moves.len() as u64).to_le_bytes());
            if game.settle(&mut st, moves) {
                h.bytes(b"over");
                h.bytes(&st.hash().to_le_bytes());
                break;
            }
            let i = rng.gen_range(0..moves.len());
            let mv = &moves[i];
            h.bytes(game.move_text(mv).as_bytes());
            h.bytes(game.rule_name(mv).as_bytes());
            let applied = if found {
                game.apply_legal(&mut st, &legal, i, &mut sc)
            } else {
                game.apply_with(&mut st, mv, &mut sc)
            };
            if let Err(e) = applied {
                h.bytes(format!("apply error: {e}\n").as_bytes());
                break;
            }
            moves_made += 1;
            h.bytes(&st.hash().to_le_bytes());
            for s in st.scores() {
                h.bytes(&s.to_le_bytes());
            }
        }
    }
    (h.0, moves_made)
}

#[test]
fn seeded_playouts_are_identical() {
    let data_path = Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA);
    let data = std::fs::read_to_string(&data_path).expect("digest data file");
    let expected: Vec<(&str, &str)> = data
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_once(' ').expect("`name digest moves` lines"))
        .collect();
    let files = game_files();
    assert!(files.len() >= 16, "games not found: {files:?}");
    let mut failures = Vec::new();
    for f in &files {
        let game = Game::load(f).unwrap_or_else(|e| panic!("{e}"));
        let rel = rel(f);
        let (d, n) = digest(&game, false, false);
        let line = format!("{d:016x} {n}");
        // The tree-walking reference evaluator plays the same games.
        let (rd, rn) = digest(&game, true, false);
        if (rd, rn) != (d, n) {
            failures.push(format!(
                "{rel}: the compiled form gives {line}, the reference evaluator {rd:016x} {rn}"
            ));
        }
        // And so do the moves applied as found legal.
        let (fd, fn_) = digest(&game, false, true);
        if (fd, fn_) != (d, n) {
            failures.push(format!(
                "{rel}: the compiled form gives {line}, applying moves as found {fd:016x} {fn_}"
            ));
        }
        match expected.iter().find(|(name, _)| *name == rel) {
            Some((_, want)) if *want == line => {}
            Some((_, want)) => failures.push(format!("{rel}: expected {want}, got {line}")),
            None => failures.push(format!("{rel}: no expected digest; line: `{rel} {line}`")),
        }
    }
    for (name, _) in &expected {
        if !files.iter().any(|f| f.ends_with(name)) {
            failures.push(format!("{name}: in {DATA} but no such game file"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The digest really depends on the moves: a different seed set gives a different digest.
#[test]
fn digest_depends_on_the_playouts() {
    let root = common::games_dir();
    let g = Game::load(root.join("tictactoe.game")).unwrap();
    let (a, _) = digest(&g, false, false);
    let mut h = Fnv::new();
    h.bytes(b"x");
    assert_ne!(a, h.0);
    let g2 = Game::load(root.join("connect4.game")).unwrap();
    assert_ne!(digest(&g2, false, false).0, a);
}
