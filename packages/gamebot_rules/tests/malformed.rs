//! Malformed game files: every problem is a typed error naming file:line:col.

use gamebot_rules::{Game, RuleError};

/// A small valid game; cases replace or append lines. Line numbers in comments.
const BASE: &[&str] = &[
    "[LOCATION TYPES]",       // 1
    "name=cell",              // 2
    "[LOCATIONS]",            // 3
    "name=a(1)",              // 4
    "type=cell",              // 5
    "name=a(2)",              // 6
    "type=cell",              // 7
    "[ELEMENT TYPES]",        // 8
    "name=peg",               // 9
    "states=1",               // 10
    "[PLAYER NAMES]",         // 11
    "1=one",                  // 12
    "[MOVABLE ELEMENTS]",     // 13
    "name=p(1)",              // 14
    "type=peg",               // 15
    "location=a(1)",          // 16
    "[GAME RULES]",           // 17
    "name=step",              // 18
    "element=p($N)",          // 19
    "from=a($F)",             // 20
    "to=a($T)",               // 21
    "condition=$T == $F + 1", // 22
];

fn text(replace: &[(usize, &str)], append: &[&str]) -> String {
    let mut lines: Vec<String> = BASE.iter().map(|s| s.to_string()).collect();
    for (n, l) in replace {
        lines[n - 1] = l.to_string();
    }
    lines.extend(append.iter().map(|s| s.to_string()));
    lines.join("\r\n")
}

#[track_caller]
fn fails_at(t: &str, line: u32, col: u32, needle: &str) {
    let err = match Game::parse("bad.game", t) {
        Ok(_) => panic!("expected a load error containing `{needle}`"),
        Err(e) => e,
    };
    let first = &err.errors[0];
    let msg = err.to_string();
    assert!(msg.contains(needle), "message `{msg}` lacks `{needle}`");
    assert_eq!(
        (first.line, first.col),
        (line, col),
        "position of `{}`",
        first.message
    );
    assert!(
        msg.starts_with(&format!("bad.game:{line}:{col}: ")),
        "{msg}"
    );
}

#[test]
fn base_is_valid() {
    let g = Game::parse("ok.game", &text(&[], &[])).unwrap();
    assert_eq!(g.legal_moves(&g.initial_state()).unwrap().len(), 1);
}

#[test]
fn section_and_entry_errors() {
    fails_at(&text(&[], &["[FOO]"]), 23, 2, "unknown section `[FOO]`");
    fails_at(&text(&[], &["[GAME RULES"]), 23, 1, "must end with `]`");
    fails_at(&text(&[], &["garbage"]), 23, 1, "expected `key=value`");
    fails_at(&text(&[], &["  garbage"]), 23, 3, "expected `key=value`");
    fails_at(
        &text(&[(17, "[SCORINGS]")], &[]),
        18,
        6,
        "entry before the first `situation=` of [SCORINGS]",
    );
}

#[test]
fn expression_syntax_errors() {
    fails_at(
        &text(&[(22, "condition=($T == 1")], &[]),
        22,
        11,
        "never closed",
    );
    fails_at(
        &text(&[(22, "condition=$T == ")], &[]),
        22,
        14,
        "expected an operand",
    );
    fails_at(
        &text(&[(22, "condition=$T == 99999999999")], &[]),
        22,
        17,
        "does not fit in 32 bits",
    );
    fails_at(
        &text(&[(22, "condition=$T == 1.5")], &[]),
        22,
        17,
        "malformed integer",
    );
    fails_at(
        &text(&[(22, "condition=3 = 4")], &[]),
        22,
        11,
        "left side of `=` must be a variable",
    );
    fails_at(
        &text(&[(22, "condition=FORALL(1, 1, 2, true)")], &[]),
        22,
        11,
        "first argument of FORALL must be a variable",
    );
    fails_at(&text(&[(22, "condition=(1]")], &[]), 22, 13, "closes `(`");
    fails_at(
        &text(&[(22, "condition=1,2")], &[]),
        22,
        12,
        "`,` outside brackets",
    );
    fails_at(
        &text(&[(22, "condition=$")], &[]),
        22,
        11,
        "variable name after `$`",
    );
    fails_at(
        &text(&[(22, "condition=\"abc")], &[]),
        22,
        11,
        "unterminated string",
    );
    fails_at(
        &text(&[(22, "condition=(1,2)")], &[]),
        22,
        11,
        "must contain one expression",
    );
    fails_at(
        &text(&[(22, "condition=EMPTY()")], &[]),
        22,
        11,
        "EMPTY takes 1 argument",
    );
    fails_at(
        &text(&[(22, "condition=F(1) 2")], &[]),
        22,
        16,
        "expected an operator",
    );
    fails_at(
        &text(&[(22, "condition=1 NOT 2")], &[]),
        22,
        13,
        "prefix operator",
    );
    fails_at(
        &text(&[(22, "condition=== 1")], &[]),
        22,
        11,
        "found operator `==`",
    );
    fails_at(
        &text(&[(22, "condition=\"$A$B\"")], &[]),
        22,
        14,
        "two variables directly",
    );
}

#[test]
fn unknown_names_and_arity() {
    fails_at(
        &text(&[(22, "condition=Foo($T)")], &[]),
        22,
        11,
        "unknown function Foo",
    );
    fails_at(
        &text(
            &[],
            &[
                "[EXPRESSIONS]",
                "F($A)",
                "$A",
                "END",
                "[GAME RULES]",
                "name=other",
                "element=p($N)",
                "from=a($F)",
                "to=a($T)",
                "condition=F(1, 2)",
            ],
        ),
        32,
        11,
        "takes 1 argument(s), called with 2",
    );
    fails_at(
        &text(&[(15, "type=pegg")], &[]),
        15,
        6,
        "unknown element type `pegg`",
    );
    fails_at(
        &text(&[(16, "location=a(9)")], &[]),
        16,
        10,
        "unknown location `a(9)`",
    );
    fails_at(
        &text(&[(5, "type=cel")], &[]),
        5,
        6,
        "unknown location type `cel`",
    );
    fails_at(
        &text(
            &[],
            &[
                "[MOVABLE ELEMENTS]",
                "name=p(2)",
                "type=peg",
                "location=a(1)",
            ],
        ),
        26,
        10,
        "both start on `a(1)`",
    );
}

#[test]
fn record_errors() {
    fails_at(
        &text(&[(12, "2=two")], &[]),
        12,
        1,
        "player number 2 out of order",
    );
    fails_at(
        &text(&[(12, "x=two")], &[]),
        12,
        1,
        "expected a player number",
    );
    fails_at(
        &text(&[(10, "states=two")], &[]),
        10,
        8,
        "expected an integer",
    );
    fails_at(
        &text(&[(10, "// no states")], &[]),
        9,
        1,
        "has no `states=`",
    );
    fails_at(
        &text(
            &[],
            &[
                "[ELEMENT TYPES]",
                "name=x",
                "states=1",
                "image=a.png",
                "point=1,1",
                "image=b.png",
                "point=1,1",
            ],
        ),
        29,
        7,
        "more image/point pairs",
    );
    fails_at(
        &text(&[(2, "name=cell\r\nshape=triangle(3)")], &[]),
        3,
        7,
        "expected `circle(r)`",
    );
    fails_at(
        &text(&[(5, "type=cell\r\nrobot=1,2")], &[]),
        6,
        7,
        "robot= needs 3 coordinates",
    );
    fails_at(
        &text(&[(5, "type=cell\r\npoint=1;2")], &[]),
        6,
        7,
        "expected `x,y`",
    );
    fails_at(
        &text(&[(20, "// no from")], &[]),
        18,
        1,
        "needs `element=` and `from=`",
    );
    fails_at(
        &text(&[(21, "// no to")], &[]),
        18,
        1,
        "needs `to=` or `toLocations=`",
    );
    fails_at(
        &text(&[(21, "to=a($T)\r\nplayer=1+1")], &[]),
        22,
        8,
        "player= must be an integer or a `$variable`",
    );
    fails_at(
        &text(&[], &["awardPlayer=1"]),
        18,
        1,
        "1 awardPlayer= but 0 withScore=",
    );
    fails_at(
        &text(&[], &["[SCORINGS]", "situation=true", "player=1"]),
        24,
        1,
        "1 `player=` but 0 `score=`",
    );
    fails_at(
        &text(&[(17, "[GAME RULES]\r\nelement=p($N)")], &[]),
        18,
        9,
        "before the first `name=`",
    );
    fails_at(
        &text(&[], &["[EXPRESSIONS]", "Foo ($A)", "$A", "END"]),
        24,
        1,
        "no space before `(`",
    );
    fails_at(
        &text(&[], &["[EXPRESSIONS]", "MOVE($A)", "$A", "END"]),
        24,
        1,
        "could never be called",
    );
    fails_at(
        &text(&[(11, "[SCORINGS]"), (12, "// none")], &[]),
        0,
        0,
        "no players",
    );
}

#[test]
fn runtime_errors_name_the_rule_and_line() {
    let g = Game::parse("rt.game", &text(&[(22, "condition=$T + (1 == $F)")], &[])).unwrap();
    let e = g.legal_moves(&g.initial_state()).unwrap_err();
    match &e {
        RuleError::Eval {
            line, col, context, ..
        } => {
            assert_eq!((*line, *col), (22, 11));
            assert!(context.contains("rule `step` condition"));
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(e.to_string().contains("needs two Ints"), "{e}");
    // Unbound variable inside a function names the function.
    let g = Game::parse(
        "rt.game",
        &text(
            &[(22, "condition=Gx")],
            &["[EXPRESSIONS]", "Gx", "$nothing", "END"],
        ),
    )
    .unwrap();
    let e = g.legal_moves(&g.initial_state()).unwrap_err().to_string();
    assert!(
        e.contains("variable $nothing is not bound") && e.contains("function Gx line 25"),
        "{e}"
    );
    // State changes during generation are reported.
    let g = Game::parse("rt.game", &text(&[(22, "condition=NEXTPLAYER")], &[])).unwrap();
    assert!(g
        .legal_moves(&g.initial_state())
        .unwrap_err()
        .to_string()
        .contains("NEXTPLAYER changes the game state"));
}

#[test]
fn missing_file_names_the_path() {
    let e = Game::load("/nonexistent/dir/x.game")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("/nonexistent/dir/x.game:0:0: cannot read file"),
        "{e}"
    );
}

#[test]
fn warnings_do_not_stop_loading() {
    let g = Game::parse(
        "w.game",
        &text(
            &[],
            &["name =x", "[EXPRESSIONS]", "Fn", "5", "true", "END", "END"],
        ),
    )
    .unwrap();
    let msgs: Vec<&str> = g.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        msgs.iter().any(|m| m.contains("surrounding spaces")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("shorter than two characters")),
        "{msgs:?}"
    );
    assert!(msgs.iter().any(|m| m.contains("stray END")), "{msgs:?}");
}
