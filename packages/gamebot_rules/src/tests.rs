//! Conformance tests against the language reference (`docs/language.md`): expression vectors (§13)
//! and the worked example *Hop* (§9).

use crate::eval::{Ctx, StateRef};
use crate::value::{Str, Value};
use crate::Game;

/// Evaluates `lines` (one expression per line, as a function body) in a fresh
/// namespace of a tiny game; returns the last line's value and the variables asked for.
fn run(defs: &str, lines: &[&str]) -> Result<Value, String> {
    let mut body = String::new();
    for l in lines {
        body.push_str(l);
        body.push('\n');
    }
    let text = format!(
        "[LOCATION TYPES]\nname=cell\n[LOCATIONS]\nname=s(3,4)\ntype=cell\nname=t(1)\ntype=cell\n\
         [ELEMENT TYPES]\nname=peg\nstates=2\n[PLAYER NAMES]\n1=a\n2=b\n\
         [MOVABLE ELEMENTS]\nname=p(1)\ntype=peg\nlocation=t(1)\n[EXPRESSIONS]\n{defs}\nProbe\n{body}END\n"
    );
    let g = Game::parse("probe.game", &text).map_err(|e| e.to_string())?;
    let mut st = g.initial_state();
    let mut sc = g.scratch();
    let f = g.func_names.iter().position(|n| n == "Probe").unwrap() as u32;
    Ctx::new(&g, StateRef::Rw(&mut st), &mut sc.vars)
        .call_values(f, &[])
        .map_err(|e| e.to_string())
}

fn int(v: Result<Value, String>) -> i32 {
    match v {
        Ok(Value::Int(i)) => i,
        other => panic!("expected Int, got {other:?}"),
    }
}
fn boolean(v: Result<Value, String>) -> bool {
    match v {
        Ok(Value::Bool(b)) => b,
        other => panic!("expected Bool, got {other:?}"),
    }
}

#[test]
fn arithmetic_vectors() {
    assert_eq!(int(run("", &["7 / 2"])), 3);
    assert_eq!(int(run("", &["(0-7) / 2"])), -3);
    assert_eq!(int(run("", &["7 % -3"])), 1);
    assert_eq!(int(run("", &["(0-7) % 3"])), -1);
    assert_eq!(int(run("", &["1 + 2 * 3"])), 7);
    assert_eq!(int(run("", &["2 * 3 + 1"])), 8);
    assert_eq!(int(run("", &["10 - 3 - 2"])), 9);
    assert_eq!(int(run("", &["1 - 2 + 3"])), -4);
    assert_eq!(int(run("", &["-1 + 2"])), -3);
    assert_eq!(int(run("", &["2147483647 + 1"])), i32::MIN);
    assert!(run("", &["1 / 0"]).is_err());
    assert!(run("", &["1 < 2 < 3"]).is_err());
}

#[test]
fn set_vectors() {
    assert!(boolean(run("", &["({1,2} UNION {2,3}) == {2,3,1}"])));
    assert!(boolean(run("", &["({1,2,2} UNION {3}) == {3,1,2,2}"])));
    assert!(!boolean(run("", &["{1,2} == {2,1}"])));
    assert!(boolean(run("", &["{} == {,}"])));
    assert!(!boolean(run("", &["\"3\" == 3"])));
    assert!(boolean(run("", &["2 IN {1,2}"])));
    assert!(run("", &["{1,2} UNION {2,3} == {2,3,1}"]).is_err());
    assert!(boolean(run("", &["{1} SUBSET {2,1}"])));
    assert!(boolean(run("", &["({1,2,3} INTERSECT {3,1}) == {1,3}"])));
    assert!(boolean(run("", &["({1,2,3} SETMINUS {2}) == {1,3}"])));
    assert!(run("", &["1 IN 2"]).is_err());
}

#[test]
fn loop_and_logic_vectors() {
    assert_eq!(int(run("", &["FORALL($I,1,0,true)", "$I"])), 0);
    assert_eq!(int(run("", &["FORSOME($I,3,1,$I == 2)", "$I"])), 2);
    assert!(boolean(run("", &["FORSOME($I,3,1,$I == 2)"])));
    assert!(run("", &["IF(false,1)"]).is_err());
    assert_eq!(int(run("", &["IF(true,1)"])), 1);
    assert!(run("", &["1 AND true"]).is_err());
    assert!(!boolean(run("", &["false AND 1"])));
    assert!(boolean(run("", &["true OR 1"])));
    assert!(run("", &["NOT 1"]).is_err());
    assert!(run("", &["$unbound"]).is_err());
}

#[test]
fn builtin_vectors() {
    assert!(matches!(
        run("", &["CONTENT(\"nowhere\")"]),
        Ok(Value::Str(_))
    ));
    assert!(boolean(run("", &["CONTENT(\"nowhere\") == \"\""])));
    assert!(boolean(run("", &["EMPTY(\"nowhere\")"])));
    assert_eq!(int(run("", &["STATE(\"\")"])), -1);
    assert_eq!(int(run("", &["INDEXA(2,\"s(3,4)\")"])), 4);
    assert_eq!(int(run("", &["INDEX(\"s(3,4)\")"])), 3);
    assert!(boolean(run("", &["UNINDEX(\"s(3,4)\") == \"s\""])));
    assert!(boolean(run("", &["\"a b\" == \"ab\""])));
    assert!(boolean(run("", &["CONTENT(\"t(1)\") == \"p(1)\""])));
    assert!(boolean(run(
        "",
        &["$K = 1", "CONTENT(\"t($K)\") == \"p(1)\""]
    )));
    assert!(boolean(run("", &["$K = 0-3", "\"t($K)\" == \"t(-3)\""])));
    assert!(boolean(run(
        "",
        &["$X = 3", "$Y = 4", "\"s($X,$Y)\" == \"s(3,4)\""]
    )));
    assert!(boolean(run("", &["ELTYPE(\"p(1)\") == \"peg\""])));
    assert!(boolean(run("", &["LOCATION(\"p(1)\") == \"t(1)\""])));
    assert!(boolean(run("", &["LOCTYPE(\"t(1)\") == \"cell\""])));
    assert!(boolean(run(
        "",
        &["MOVE(\"p(1)\", \"t(1)\", \"s(3,4)\")", "EMPTY(\"t(1)\")"]
    )));
    assert!(run("", &["MOVE(\"p(1)\", \"s(3,4)\", \"t(1)\")"]).is_err());
    assert!(run("", &["SETSTATE(\"p(1)\", 3)"]).is_err());
    assert!(boolean(run(
        "",
        &["SETSTATE(\"p(1)\", 2)", "STATE(\"p(1)\") == 2"]
    )));
    assert!(boolean(run("", &["NEXTPLAYER", "PLAYER == 2"])));
    assert_eq!(int(run("", &["SCORE(2)"])), 0);
    assert!(run("", &["SCORE(3)"]).is_err());
}

#[test]
fn functions_bind_sequentially_and_globally() {
    let defs = "Pair($A,$B)\n$A * 10 + $B\nEND\nFact($N)\nIF($N <= 1, 1, $N * Fact($N - 1))\nEND\nGuard\n5\nfalse\n7\nEND";
    assert_eq!(int(run(defs, &["$A = 1", "$B = 2", "Pair($B,$A)"])), 24);
    assert_eq!(int(run(defs, &["Fact(5)"])), 120);
    assert!(!boolean(run(defs, &["Guard"])));
    assert!(run("Rec($N)\nRec($N)\nEND", &["Rec(1)"]).is_err());
}

#[test]
fn strings_interpolate_only_known_kinds() {
    assert!(run("", &["$S = {}", "\"t($S)\""]).is_err());
    assert!(matches!(
        run("", &["$S = \"x\"", "\"t($S)\""]),
        Ok(Value::Str(Str::Dyn(_)))
    ));
}

fn hop() -> Game {
    Game::load(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hop.game")).unwrap()
}

fn legal(g: &Game, st: &crate::State) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_moves(st)
        .unwrap()
        .iter()
        .map(|m| g.move_text(m))
        .collect();
    v.sort();
    v
}

#[test]
fn hop_trace_matches_the_reference() {
    let g = hop();
    let mut st = g.initial_state();
    let steps: &[(&[&str], &str, [i32; 2])] = &[
        (&["e(1):t(1)->t(2)"], "e(1):t(1)->t(2)", [0, 1]),
        (&["w(1):t(5)->t(4)"], "w(1):t(5)->t(4)", [1, 1]),
        (
            &["e(1):t(2)->t(3)", "e(2):tray(1)->t(1)"],
            "e(2):tray(1)->t(1)",
            [1, 2],
        ),
        (&["w(1):t(4)->t(3)"], "w(1):t(4)->t(3)", [2, 2]),
        (&["e(1):t(2)->t(4)"], "e(1):t(2)->t(4)", [2, 3]),
    ];
    for (i, (want, play, scores)) in steps.iter().enumerate() {
        let p = if i % 2 == 0 { 1 } else { 2 };
        assert_eq!(st.player(), p, "step {}", i + 1);
        assert_eq!(legal(&g, &st), want.to_vec(), "step {}", i + 1);
        let mv = g.find_move(&st, play).unwrap();
        g.apply(&mut st, &mv).unwrap();
        assert_eq!(st.scores(), scores, "step {}", i + 1);
        st.check_consistency().unwrap();
    }
    // The jump's deferred followup marked w(1) and passed the turn.
    let w = g.element_by_name("w(1)").unwrap();
    assert_eq!(st.element_state(w), 2);
    assert_eq!(st.player(), 2);
    assert_eq!(legal(&g, &st), vec!["w(1):t(3)->t(2)"]);
}

#[test]
fn hop_draw_when_stuck() {
    let g = hop();
    let mut st = g.initial_state();
    for m in ["e(1):t(1)->t(2)", "w(1):t(5)->t(4)", "e(1):t(2)->t(3)"] {
        let mv = g.find_move(&st, m).unwrap();
        g.apply(&mut st, &mv).unwrap();
    }
    let moves = g.legal_moves(&st).unwrap();
    assert!(moves.is_empty());
    assert!(g.settle(&mut st, &moves));
    assert_eq!(st.outcome(), crate::Outcome::Draw);
}

#[test]
fn illegal_moves_are_rejected_with_alternatives() {
    let g = hop();
    let st = g.initial_state();
    let e = g.find_move(&st, "e(1):t(1)->t(3)").unwrap_err().to_string();
    assert!(e.contains("e(1):t(1)->t(2)"), "{e}");
    assert!(g.find_move(&st, "nonsense").is_err());
    assert!(g
        .find_move(&st, "zz:t(1)->t(2)")
        .unwrap_err()
        .to_string()
        .contains("no element"));
}
