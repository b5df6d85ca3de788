//! The six games of games/gdl: hand-checked legal moves, terminal states and
//! goals; every game passes the static checks and the validator.

use gamebot_gdl::validate::{validate, Options};
use gamebot_gdl::{Game, State};

fn path(name: &str) -> String {
    format!("{}/../../games/gdl/{name}.gdl", env!("CARGO_MANIFEST_DIR"))
}

fn load(name: &str) -> Game {
    Game::load(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Plays joint moves given as KIF texts, one slice per step in role order.
fn play(g: &Game, steps: &[&[&str]]) -> State {
    let mut sc = g.scratch();
    let mut st = g.initial_state();
    for (i, step) in steps.iter().enumerate() {
        let joint: Vec<_> = step
            .iter()
            .enumerate()
            .map(|(r, m)| {
                g.parse_move(r, m)
                    .unwrap_or_else(|e| panic!("step {i}: {e}"))
            })
            .collect();
        st = g
            .next_state(&st, &joint, &mut sc)
            .unwrap_or_else(|e| panic!("step {i}: {e}"));
    }
    st
}

/// Sorted legal move texts per role.
fn legal(g: &Game, st: &State) -> Vec<Vec<String>> {
    let mut sc = g.scratch();
    g.legal_moves(st, &mut sc)
        .into_iter()
        .map(|ms| {
            let mut v: Vec<String> = ms.into_iter().map(|m| g.move_text(m)).collect();
            v.sort();
            v
        })
        .collect()
}

fn terminal(g: &Game, st: &State) -> bool {
    g.is_terminal(st, &mut g.scratch())
}

fn goals(g: &Game, st: &State) -> Vec<Option<u8>> {
    g.goals(st, &mut g.scratch())
}

#[test]
fn all_games_pass_check_and_validation() {
    for name in [
        "tictactoe",
        "tictactoe-misere",
        "rpsls",
        "connect4",
        "puzzle8",
        "hex",
    ] {
        let text = std::fs::read_to_string(path(name)).unwrap();
        assert_eq!(gamebot_gdl::check_text(name, &text), vec![], "{name}");
        let g = load(name);
        let r = validate(
            &g,
            &Options {
                games: 30,
                max_steps: 200,
                seed: 3,
            },
        );
        assert!(r.passed(), "{name}:\n{r}");
    }
}

#[test]
fn tictactoe_moves_terminal_and_goals() {
    let g = load("tictactoe");
    assert_eq!(g.roles(), ["x", "o"]);
    let st = g.initial_state();
    let l = legal(&g, &st);
    assert_eq!(l[0].len(), 9);
    assert_eq!(l[0][0], "(put 1 1)");
    assert_eq!(l[1], ["noop"]);
    assert!(!terminal(&g, &st));
    let st = play(&g, &[&["(put 2 2)", "noop"]]);
    let l = legal(&g, &st);
    assert_eq!(l[0], ["noop"]);
    assert_eq!(l[1].len(), 8);
    assert!(!l[1].contains(&"(put 2 2)".to_string()));
    // x completes row 1.
    let won = play(
        &g,
        &[
            &["(put 1 1)", "noop"],
            &["noop", "(put 2 2)"],
            &["(put 1 2)", "noop"],
            &["noop", "(put 3 3)"],
            &["(put 1 3)", "noop"],
        ],
    );
    assert!(terminal(&g, &won));
    assert_eq!(goals(&g, &won), [Some(100), Some(0)]);
    // A draw: x o x / x o o / o x x.
    let draw = play(
        &g,
        &[
            &["(put 1 1)", "noop"],
            &["noop", "(put 1 2)"],
            &["(put 1 3)", "noop"],
            &["noop", "(put 2 2)"],
            &["(put 2 1)", "noop"],
            &["noop", "(put 2 3)"],
            &["(put 3 2)", "noop"],
            &["noop", "(put 3 1)"],
            &["(put 3 3)", "noop"],
        ],
    );
    assert!(terminal(&g, &draw));
    assert_eq!(goals(&g, &draw), [Some(50), Some(50)]);
    // Illegal: the cell is taken, and not x's turn.
    let mut sc = g.scratch();
    let st = play(&g, &[&["(put 1 1)", "noop"]]);
    let bad = [
        g.parse_move(0, "noop").unwrap(),
        g.parse_move(1, "(put 1 1)").unwrap(),
    ];
    assert!(g.next_state(&st, &bad, &mut sc).is_err());
    assert!(g.parse_move(0, "(put 4 4)").is_err());
}

#[test]
fn misere_completing_a_line_loses() {
    let g = load("tictactoe-misere");
    let st = g.initial_state();
    assert_eq!(legal(&g, &st)[0].len(), 9);
    let lost = play(
        &g,
        &[
            &["(mark 1 1)", "noop"],
            &["noop", "(mark 2 2)"],
            &["(mark 1 2)", "noop"],
            &["noop", "(mark 3 3)"],
            &["(mark 1 3)", "noop"],
        ],
    );
    assert!(terminal(&g, &lost));
    assert_eq!(goals(&g, &lost), [Some(0), Some(100)]);
    let mid = play(&g, &[&["(mark 1 1)", "noop"]]);
    assert!(!terminal(&g, &mid));
    assert_eq!(legal(&g, &mid)[1].len(), 8);
}

#[test]
fn rpsls_is_simultaneous_best_of_three() {
    let g = load("rpsls");
    assert_eq!(g.roles(), ["left", "right"]);
    let st = g.initial_state();
    let l = legal(&g, &st);
    let all = [
        "(throw lizard)",
        "(throw paper)",
        "(throw rock)",
        "(throw scissors)",
        "(throw spock)",
    ];
    assert_eq!(l, [all.to_vec(), all.to_vec()]);
    // Spock vaporizes rock, lizard eats paper: right wins twice.
    let st = play(&g, &[&["(throw rock)", "(throw spock)"]]);
    assert!(!terminal(&g, &st));
    assert_eq!(legal(&g, &st)[0].len(), 5);
    let st = play(
        &g,
        &[
            &["(throw rock)", "(throw spock)"],
            &["(throw paper)", "(throw lizard)"],
        ],
    );
    assert!(terminal(&g, &st));
    assert_eq!(goals(&g, &st), [Some(0), Some(100)]);
    // Three ties.
    let tie: &[&str] = &["(throw spock)", "(throw spock)"];
    let st = play(&g, &[tie, tie, tie]);
    assert!(terminal(&g, &st));
    assert_eq!(goals(&g, &st), [Some(50), Some(50)]);
    // One win each and a tie.
    let st = play(
        &g,
        &[
            &["(throw scissors)", "(throw paper)"],
            &["(throw scissors)", "(throw rock)"],
            &["(throw lizard)", "(throw lizard)"],
        ],
    );
    assert!(terminal(&g, &st));
    assert_eq!(goals(&g, &st), [Some(50), Some(50)]);
}

#[test]
fn connect4_drops_fill_and_win() {
    let g = load("connect4");
    let st = g.initial_state();
    let l = legal(&g, &st);
    assert_eq!(l[0].len(), 7);
    assert_eq!(l[1], ["noop"]);
    // Discs fall: the second disc in column 4 lands on row 2.
    let st = play(&g, &[&["(drop 4)", "noop"], &["noop", "(drop 4)"]]);
    assert_eq!(
        g.state_text(&st),
        ["(cell 4 1 red)", "(cell 4 2 black)", "(control red)"]
    );
    // Red stacks four in column 1 while black plays column 2.
    let r: &[&str] = &["(drop 1)", "noop"];
    let b: &[&str] = &["noop", "(drop 2)"];
    let st = play(&g, &[r, b, r, b, r, b]);
    assert!(!terminal(&g, &st));
    let st = play(&g, &[r, b, r, b, r, b, r]);
    assert!(terminal(&g, &st));
    assert_eq!(goals(&g, &st), [Some(100), Some(0)]);
    // A full column is no longer legal.
    let c: &[&str] = &["noop", "(drop 1)"];
    let st = play(&g, &[r, c, r, c, r, c]);
    assert!(!legal(&g, &st)[0].contains(&"(drop 1)".to_string()));
    assert_eq!(legal(&g, &st)[0].len(), 6);
    // A diagonal for black: (2 1) (3 2) (4 3) (5 4).
    let st = play(
        &g,
        &[
            &["(drop 3)", "noop"],
            &["noop", "(drop 2)"],
            &["(drop 4)", "noop"],
            &["noop", "(drop 3)"],
            &["(drop 5)", "noop"],
            &["noop", "(drop 6)"],
            &["(drop 4)", "noop"],
            &["noop", "(drop 4)"],
            &["(drop 5)", "noop"],
            &["noop", "(drop 7)"],
            &["(drop 5)", "noop"],
        ],
    );
    assert!(!terminal(&g, &st), "{:?}", g.state_text(&st));
    let st2 = {
        let mut sc = g.scratch();
        let j = [
            g.parse_move(0, "noop").unwrap(),
            g.parse_move(1, "(drop 5)").unwrap(),
        ];
        g.next_state(&st, &j, &mut sc).unwrap()
    };
    assert!(terminal(&g, &st2), "{:?}", g.state_text(&st2));
    assert_eq!(goals(&g, &st2), [Some(0), Some(100)]);
}

#[test]
fn puzzle8_slides_and_solves() {
    let g = load("puzzle8");
    assert_eq!(g.roles(), ["solver"]);
    let st = g.initial_state();
    // The blank is at (2 3): tiles at (1 3), (3 3), (2 2) can slide.
    assert_eq!(
        legal(&g, &st),
        [["(slide 1 3)", "(slide 2 2)", "(slide 3 3)"]]
    );
    let st2 = play(&g, &[&["(slide 2 2)"]]);
    assert!(g.state_text(&st2).contains(&"(cell 2 2 b)".to_string()));
    assert!(g.state_text(&st2).contains(&"(cell 2 3 2)".to_string()));
    assert!(g.state_text(&st2).contains(&"(step 1)".to_string()));
    assert_eq!(goals(&g, &st2), [Some(0)]);
    // Breadth-first search finds the 7-move solution.
    let mut ai = gamebot_gdl::ai::strategy("bfs").unwrap();
    let ctl = gamebot_ai::SearchControl::new();
    let d = ai.choose(&g, &st, 0, &ctl).unwrap();
    assert_eq!(d.stats.pv.len(), 7, "{:?}", d.stats.pv);
    let plan: Vec<&str> = d.stats.pv.iter().map(String::as_str).collect();
    let steps: Vec<[&str; 1]> = plan.iter().map(|m| [*m]).collect();
    let refs: Vec<&[&str]> = steps.iter().map(|s| s.as_slice()).collect();
    let solved = play(&g, &refs);
    assert!(terminal(&g, &solved));
    assert_eq!(goals(&g, &solved), [Some(100)]);
}

#[test]
fn hex_chains_are_found_recursively() {
    let g = load("hex");
    let st = g.initial_state();
    assert_eq!(legal(&g, &st)[0].len(), 25);
    // Red: (2 1) (1 2) (1 3) (1 4) (1 5), a chain through a diagonal contact.
    let b = |m: &'static str| -> [&'static str; 2] { ["noop", m] };
    let r = |m: &'static str| -> [&'static str; 2] { [m, "noop"] };
    let steps = [
        r("(place 2 1)"),
        b("(place 3 1)"),
        r("(place 1 2)"),
        b("(place 3 2)"),
        r("(place 1 3)"),
        b("(place 3 3)"),
        r("(place 1 4)"),
        b("(place 3 4)"),
    ];
    let refs: Vec<&[&str]> = steps.iter().map(|s| s.as_slice()).collect();
    let st = play(&g, &refs);
    assert!(!terminal(&g, &st));
    let mut all = refs.clone();
    let last = r("(place 1 5)");
    all.push(&last);
    let st = play(&g, &all);
    assert!(terminal(&g, &st));
    assert_eq!(goals(&g, &st), [Some(100), Some(0)]);
    // (1 1) (2 2) (3 3) (4 4) (5 5) do not touch each other: no chain.
    let steps = [
        r("(place 1 1)"),
        b("(place 1 5)"),
        r("(place 2 2)"),
        b("(place 2 5)"),
        r("(place 3 3)"),
        b("(place 3 5)"),
        r("(place 4 4)"),
        b("(place 4 5)"),
        r("(place 5 5)"),
    ];
    let refs: Vec<&[&str]> = steps.iter().map(|s| s.as_slice()).collect();
    let st = play(&g, &refs);
    assert!(!terminal(&g, &st));
    // Blue joins column 1 to column 5 along row 3.
    let steps = [
        r("(place 1 1)"),
        b("(place 1 3)"),
        r("(place 2 1)"),
        b("(place 2 3)"),
        r("(place 3 1)"),
        b("(place 3 3)"),
        r("(place 4 1)"),
        b("(place 4 3)"),
        r("(place 1 5)"),
        b("(place 5 3)"),
    ];
    let refs: Vec<&[&str]> = steps.iter().map(|s| s.as_slice()).collect();
    let st = play(&g, &refs);
    assert!(terminal(&g, &st));
    assert_eq!(goals(&g, &st), [Some(0), Some(100)]);
}
