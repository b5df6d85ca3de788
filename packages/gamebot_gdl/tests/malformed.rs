//! Malformed descriptions: each problem is reported with its exact `file:line:col`.

use gamebot_gdl::{check_text, Game};

/// A small valid game of 6 lines; the cases append their text at line 7.
const BASE: &str = "(role a)
(init on)
(<= (legal a go) (true on))
(<= (next on) (does a go))
(<= terminal (not (true on)))
(goal a 100)
";

fn diags(text: &str) -> Vec<String> {
    check_text("t.gdl", text)
        .iter()
        .map(|d| d.to_string())
        .collect()
}

/// `extra` appended to the base game reports exactly `expected` among its problems.
fn expect(extra: &str, expected: &str) {
    let text = format!("{BASE}{extra}");
    let d = diags(&text);
    assert!(
        d.iter().any(|x| x == expected),
        "expected `{expected}` for\n{extra}\ngot {d:#?}"
    );
    // The compiler refuses it too, with the same message.
    let err = Game::parse("t.gdl", &text).unwrap_err().to_string();
    assert!(err.contains(expected), "{err}");
}

#[test]
fn base_is_valid() {
    assert_eq!(diags(BASE), Vec::<String>::new());
    let g = Game::parse("t.gdl", BASE).unwrap();
    assert_eq!(g.roles(), ["a"]);
}

// --- reader ---

#[test]
fn unclosed_parenthesis() {
    expect("(q a\n  (b)", "t.gdl:7:1: `(` is never closed");
}

#[test]
fn stray_closing_parenthesis() {
    expect("(q a))", "t.gdl:7:6: unmatched `)`");
}

#[test]
fn lone_question_mark() {
    expect("(q ? b)", "t.gdl:7:4: `?` without a variable name");
}

#[test]
fn nesting_too_deep() {
    let deep = format!("(q {}a{})", "(f ".repeat(250), ")".repeat(250));
    expect(&deep, "t.gdl:7:601: nesting deeper than 200 levels");
}

#[test]
fn control_character() {
    expect(
        "(q b\u{1}c)",
        "t.gdl:7:5: control character U+0001 in a symbol",
    );
}

// --- syntax ---

#[test]
fn rule_without_head() {
    expect("(<=)", "t.gdl:7:1: `<=` without a head");
}

#[test]
fn variable_as_head() {
    expect(
        "(<= ?x (true on))",
        "t.gdl:7:5: a variable (`?x`) cannot be a sentence",
    );
}

#[test]
fn variable_as_relation() {
    expect(
        "(<= (?r a) (true on))",
        "t.gdl:7:6: a relation name must be a symbol, not the variable `?r`",
    );
}

#[test]
fn empty_list_sentence() {
    expect("()", "t.gdl:7:1: empty list `()` is not a sentence");
}

#[test]
fn not_without_argument() {
    expect(
        "(<= (q a) (not))",
        "t.gdl:7:11: `not` takes exactly one literal",
    );
}

#[test]
fn distinct_with_one_term() {
    expect(
        "(<= (q a) (distinct a))",
        "t.gdl:7:11: `distinct` takes exactly two terms",
    );
}

#[test]
fn empty_or() {
    expect(
        "(<= (q a) (or))",
        "t.gdl:7:11: `or` needs at least one literal",
    );
}

#[test]
fn not_as_head() {
    expect(
        "(<= (not a) (true on))",
        "t.gdl:7:6: `not` cannot be the head of a rule",
    );
}

#[test]
fn function_without_arguments() {
    expect("(q (f))", "t.gdl:7:4: function `(f)` without arguments");
}

#[test]
fn list_as_function_name() {
    expect(
        "(q ((f) a))",
        "t.gdl:7:5: a function name must be a symbol, not a list",
    );
}

#[test]
fn implication_inside_body() {
    expect(
        "(<= (q ?x) (true ?x) (<= a))",
        "t.gdl:7:23: `<=` can only start a rule",
    );
}

// --- static checks ---

#[test]
fn relation_arity_mismatch() {
    expect(
        "(q a)\n(q a b)",
        "t.gdl:8:1: `q` used with 2 argument(s) here but 1 at 7:1",
    );
}

#[test]
fn keyword_arity() {
    expect(
        "(<= (legal a) (true on))",
        "t.gdl:7:5: `legal` takes 2 argument(s), not 1",
    );
}

#[test]
fn function_arity_mismatch() {
    expect(
        "(q (f a))\n(q (f a b))",
        "t.gdl:8:1: function `f` used with 2 argument(s) here but 1 at 7:1",
    );
}

#[test]
fn true_as_head() {
    expect(
        "(<= (true on) (true on))",
        "t.gdl:7:5: `true` may only appear in rule bodies",
    );
}

#[test]
fn does_as_fact() {
    expect(
        "(does a go)",
        "t.gdl:7:1: `does` may only appear in rule bodies",
    );
}

#[test]
fn next_in_body() {
    expect(
        "(<= (q a) (next on))",
        "t.gdl:7:11: `next` may only appear as a head",
    );
}

#[test]
fn role_with_body() {
    expect(
        "(<= (role b) (true on))",
        "t.gdl:7:5: `role` may only appear in ground facts",
    );
}

#[test]
fn unsafe_head_variable() {
    expect(
        "(<= (q ?x) (true on))",
        "t.gdl:7:5: unsafe rule: variable `?x` of the head appears in no positive body literal",
    );
}

#[test]
fn unsafe_negated_variable() {
    expect(
        "(r b)\n(<= (q a) (true on) (not (r ?y)))",
        "t.gdl:8:26: unsafe rule: variable `?y` of a negated literal appears in no positive body literal",
    );
}

#[test]
fn unsafe_distinct_variable() {
    expect(
        "(<= (q a) (true on) (distinct ?z a))",
        "t.gdl:7:21: unsafe rule: variable `?z` of `distinct` appears in no positive body literal",
    );
}

#[test]
fn unstratified_negation() {
    expect(
        "(<= (q a) (true on) (not (r a)))\n(<= (r a) (q a))",
        "t.gdl:7:26: negation is not stratified: `q` depends on `(not r ...)` which depends on `q`",
    );
}

#[test]
fn recursion_restriction() {
    expect(
        "(s 1)\n(<= (q ?x) (q ?y) (s ?x))",
        "t.gdl:8:12: recursion restriction: argument `?y` of recursive `q` is neither ground, an argument of the head, nor bound by a non-recursive literal",
    );
}

#[test]
fn legal_depends_on_does() {
    expect(
        "(<= (legal a stop) (does a go))",
        "t.gdl:7:20: `legal` must not depend on `does`",
    );
}

#[test]
fn terminal_depends_on_does_indirectly() {
    expect(
        "(<= moved (does a go))\n(<= terminal moved)",
        "t.gdl:8:14: `terminal` must not depend on `does` (through `moved`)",
    );
}

#[test]
fn init_depends_on_true() {
    expect(
        "(<= (init off) (true on))",
        "t.gdl:7:16: `init` must not depend on `true`",
    );
}

#[test]
fn role_without_legal() {
    expect("(role b)", "t.gdl:7:1: role `b` has no `legal` rule");
}

#[test]
fn goal_value_not_a_number() {
    expect(
        "(goal a high)",
        "t.gdl:7:1: goal value `high` is not a number 0..100",
    );
    expect(
        "(goal a 101)",
        "t.gdl:7:1: goal value `101` is not a number 0..100",
    );
}

#[test]
fn no_roles() {
    let d = diags("(init on)\n(<= terminal (true on))");
    assert!(
        d.contains(&"t.gdl:1:1: the description has no `role` facts".to_string()),
        "{d:?}"
    );
}

#[test]
fn every_problem_is_reported() {
    let d = diags(&format!(
        "{BASE}(q a)\n(q a b)\n(<= (r ?x) (true on))\n(role b)"
    ));
    assert_eq!(d.len(), 4, "{d:#?}");
}

#[test]
fn case_insensitive_symbols() {
    let text = BASE.to_uppercase();
    assert_eq!(diags(&text), Vec::<String>::new());
    let g = Game::parse("t.gdl", &text).unwrap();
    assert_eq!(g.roles(), ["a"]);
}
