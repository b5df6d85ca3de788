//! The strategies on GDL games, and a whole GGP match between two in-process players.

use gamebot_ai::{CancelToken, SearchControl};
use gamebot_gdl::ai::strategy;
use gamebot_gdl::ggp::Player;
use gamebot_gdl::{Game, State};

fn load(name: &str) -> Game {
    Game::load(format!(
        "{}/../../games/gdl/{name}.gdl",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn play(g: &Game, steps: &[[&str; 2]]) -> State {
    let mut sc = g.scratch();
    let mut st = g.initial_state();
    for s in steps {
        let j = [
            g.parse_move(0, s[0]).unwrap(),
            g.parse_move(1, s[1]).unwrap(),
        ];
        st = g.next_state(&st, &j, &mut sc).unwrap();
    }
    st
}

/// x: (1 1) (1 2); o: (2 2) (3 3). x to move wins with (1 3); o must block it.
fn threat(g: &Game) -> State {
    play(
        g,
        &[
            ["(put 1 1)", "noop"],
            ["noop", "(put 2 2)"],
            ["(put 1 2)", "noop"],
            ["noop", "(put 3 3)"],
        ],
    )
}

#[test]
fn every_strategy_takes_the_win() {
    let g = load("tictactoe");
    let st = threat(&g);
    for s in [
        "alphabeta:depth=3",
        "minimax:depth=2",
        "mc:playouts=300,seed=1",
        "mcts:iterations=3000,seed=2",
    ] {
        let mut ai = strategy(s).unwrap();
        let d = ai.choose(&g, &st, 0, &SearchControl::new()).unwrap();
        assert_eq!(
            g.move_text(d.mv),
            "(put 1 3)",
            "{s}: {:?}",
            d.stats.considered
        );
    }
}

#[test]
fn alphabeta_blocks_and_solves_the_opening() {
    let g = load("tictactoe");
    // o to move must block (1 3) after x (1 1) (1 2) and o (2 2).
    let st = play(
        &g,
        &[
            ["(put 1 1)", "noop"],
            ["noop", "(put 2 2)"],
            ["(put 1 2)", "noop"],
        ],
    );
    let mut ai = strategy("alphabeta:depth=4").unwrap();
    let d = ai.choose(&g, &st, 1, &SearchControl::new()).unwrap();
    assert_eq!(g.move_text(d.mv), "(put 1 3)");
    // The whole game: a draw, proven.
    let mut ai = strategy("alphabeta:depth=9").unwrap();
    let d = ai
        .choose(&g, &g.initial_state(), 0, &SearchControl::new())
        .unwrap();
    assert!(d.stats.complete, "{:?}", d.stats);
    assert!(d.stats.value.abs() < 1e-9, "{}", d.stats.value);
}

#[test]
fn mcts_never_loses_tictactoe_to_random() {
    let g = load("tictactoe");
    let mut sc = g.scratch();
    for game in 0..6u64 {
        let me = (game % 2) as usize;
        let mut players = [
            strategy(&format!("mcts:iterations=3000,seed={game}")).unwrap(),
            strategy(&format!("random:seed={game}")).unwrap(),
        ];
        if me == 1 {
            players.swap(0, 1);
        }
        let mut st = g.initial_state();
        while !g.is_terminal(&st, &mut sc) {
            let j: Vec<_> = (0..2)
                .map(|r| {
                    players[r]
                        .choose(&g, &st, r, &SearchControl::new())
                        .unwrap()
                        .mv
                })
                .collect();
            st = g.next_state(&st, &j, &mut sc).unwrap();
        }
        let goals = g.goals(&st, &mut sc);
        assert!(goals[me].unwrap() >= 50, "game {game}: {goals:?}");
    }
}

#[test]
fn decoupled_uct_mixes_in_rock_paper_scissors_lizard_spock() {
    let g = load("rpsls");
    let mut ai = strategy("mcts:iterations=5000,seed=4").unwrap();
    let d = ai
        .choose(&g, &g.initial_state(), 0, &SearchControl::new())
        .unwrap();
    assert_eq!(d.stats.considered.len(), 5);
    // No throw dominates: decoupled statistics keep trying all five, and every
    // estimate stays near the value of the game (0).
    for c in &d.stats.considered {
        assert!(
            c.visits > 100 && c.value.abs() < 0.3,
            "{:?}",
            d.stats.considered
        );
    }
    // After right has won a round with spock, left's best reply...: still a legal throw.
    let st = play(&g, &[["(throw rock)", "(throw spock)"]]);
    let d = ai.choose(&g, &st, 1, &SearchControl::new()).unwrap();
    assert!(g.move_text(d.mv).starts_with("(throw "));
}

#[test]
fn cancelled_search_still_answers_a_legal_move() {
    let g = load("connect4");
    let cancel = CancelToken::new();
    cancel.cancel();
    let ctl = SearchControl::new().with_cancel(cancel);
    for s in ["mcts", "mc:time=10s", "alphabeta:time=10s"] {
        let mut ai = strategy(s).unwrap();
        let d = ai.choose(&g, &g.initial_state(), 0, &ctl).unwrap();
        assert!(g.move_text(d.mv).starts_with("(drop "), "{s}");
    }
    // Nothing to choose in a terminal state.
    let st = play(
        &load("tictactoe"),
        &[
            ["(put 1 1)", "noop"],
            ["noop", "(put 2 2)"],
            ["(put 1 2)", "noop"],
            ["noop", "(put 3 3)"],
            ["(put 1 3)", "noop"],
        ],
    );
    let t = load("tictactoe");
    assert!(strategy("random")
        .unwrap()
        .choose(&t, &st, 0, &SearchControl::new())
        .is_err());
    assert!(strategy("bfs")
        .unwrap()
        .choose(&t, &t.initial_state(), 0, &SearchControl::new())
        .is_err());
}

#[test]
fn ggp_match_between_two_players() {
    let text = std::fs::read_to_string(format!(
        "{}/../../games/gdl/tictactoe.gdl",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let g = load("tictactoe");
    let mut px = Player::new("mcts:iterations=500,seed=1".parse().unwrap());
    let mut po = Player::new("random:seed=2".parse().unwrap());
    assert_eq!(px.handle("(info)").unwrap(), "available");
    let start = |role: &str| format!("(START m7 {role} ({text}) 10 1)");
    assert_eq!(px.handle(&start("x")).unwrap(), "ready");
    assert_eq!(po.handle(&start("o")).unwrap(), "ready");
    assert_eq!(px.handle("(info)").unwrap(), "busy");
    // Errors: wrong match, illegal moves; the match goes on.
    assert!(px.handle("(play other nil)").is_err());
    assert!(px.handle("(play m7 ((put 1 1) (put 1 1)))").is_err());
    let mut sc = g.scratch();
    let mut st = g.initial_state();
    let mut last = "nil".to_string();
    let mut steps = 0;
    while !g.is_terminal(&st, &mut sc) {
        let mx = px.handle(&format!("(play m7 {last})")).unwrap();
        let mo = po.handle(&format!("(play m7 {last})")).unwrap();
        let j = [g.parse_move(0, &mx).unwrap(), g.parse_move(1, &mo).unwrap()];
        st = g.next_state(&st, &j, &mut sc).unwrap();
        last = format!("({mx} {mo})");
        steps += 1;
    }
    assert!((5..=9).contains(&steps));
    assert_eq!(px.handle(&format!("(stop m7 {last})")).unwrap(), "done");
    assert_eq!(po.handle(&format!("(stop m7 {last})")).unwrap(), "done");
    assert_eq!(px.handle("(info)").unwrap(), "available");
    assert!(px.handle("(abort m7)").is_err());
    assert!(px.handle("(start m8 nobody ((role x)) 1 1)").is_err());
}
