//! Fuzzes the expression compiler and evaluator: the input's lines become a
//! rule condition, a followup, a scoring and a helper function of a small game,
//! which is then played.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.split('\n').map(|l| l.replace('\r', ""));
    let cond = parts.next().unwrap_or_default();
    let follow = parts.next().unwrap_or_default();
    let body = parts.next().unwrap_or_default();
    let game = format!(
        "[LOCATION TYPES]\nname=cell\nname=bin\nrelevant=no\n[LOCATIONS]\n\
         name=s(1)\ntype=cell\nname=s(2)\ntype=cell\nname=s(3)\ntype=cell\nname=b(1)\ntype=bin\nname=b(2)\ntype=bin\n\
         [ELEMENT TYPES]\nname=peg\nstates=3\n[PLAYER NAMES]\n1=a\n2=b\n\
         [MOVABLE ELEMENTS]\nname=p(1)\ntype=peg\nlocation=b(1)\nname=q(1)\ntype=peg\nlocation=s(1)\n\
         [EXPRESSIONS]\nHelp($X)\n{body}\nEND\n\
         [SCORINGS]\nsituation={cond}\nplayer=PLAYER\nscore=1\n\
         [END OF GAME]\nsituation={follow}\nwinner=PLAYER\n\
         [GAME RULES]\nname=r\nelement=p($N)\nfrom=b($K)\nto=s($T)\ncondition={cond}\nfollowup={follow}\n"
    );
    let Ok(g) = gamebot_rules::Game::parse("fuzz.game", &game) else { return };
    let mut st = g.initial_state();
    for i in 0..6 {
        let Ok(moves) = g.legal_moves(&st) else { return };
        if g.settle(&mut st, &moves) {
            return;
        }
        if g.apply(&mut st, &moves[i % moves.len()]).is_err() {
            return;
        }
        st.check_consistency().expect("consistent state");
    }
});
