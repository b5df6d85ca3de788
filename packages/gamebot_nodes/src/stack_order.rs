//! Pieces in a stack can only be taken from the top.
//!
//! Supplies are often stacks (several pieces on one point, one level per
//! `robot=` height), and a game usually marks them irrelevant, so every
//! piece of a supply gives an equivalent move. The rule engine does not
//! know which one lies on top; an arm or a hand must take that one.
//! [`prefer_top_of_stack`] picks, among the moves equivalent to a chosen one,
//! the move whose piece nothing lies on.

use gamebot_rules::{Game, Move, State};

/// Two places closer than this (m, horizontally) are the same stack.
const SAME_STACK_M: f64 = 0.005;

/// Whether the piece on location `l` has an occupied place above it
/// (same point on the table, higher up).
pub fn covered(
    game: &Game,
    state: &State,
    l: u16,
    place: &impl Fn(u16) -> Option<[f64; 3]>,
) -> bool {
    let Some(p) = place(l) else {
        return false;
    };
    (0..game.locations.len() as u16).any(|o| {
        o != l
            && state.content(o).is_some()
            && place(o).is_some_and(|q| {
                (q[0] - p[0]).hypot(q[1] - p[1]) < SAME_STACK_M && q[2] > p[2] + 1e-4
            })
    })
}

/// `mv`, or an equivalent legal move (same [`Game::equivalence_key`]) whose
/// moved pieces are not covered by other pieces, if `mv`'s are.
pub fn prefer_top_of_stack(
    game: &Game,
    state: &State,
    mv: &Move,
    place: impl Fn(u16) -> Option<[f64; 3]>,
) -> Move {
    let takes_covered = |m: &Move| {
        let mut next = state.clone();
        if game.apply(&mut next, m).is_err() {
            return true;
        }
        match gamebot_rules::physical_actions(game, state, &next) {
            Ok(acts) => acts.iter().any(|a| match *a {
                gamebot_rules::PhysicalAction::Transfer { from, .. } => {
                    covered(game, state, from, &place)
                }
                gamebot_rules::PhysicalAction::Flip { .. } => false,
            }),
            Err(_) => true,
        }
    };
    if !takes_covered(mv) {
        return mv.clone();
    }
    let key = game.equivalence_key(state, mv);
    let Ok(legal) = game.legal_moves(state) else {
        return mv.clone();
    };
    legal
        .into_iter()
        .filter(|m| game.equivalence_key(state, m) == key)
        .find(|m| !takes_covered(m))
        .unwrap_or_else(|| mv.clone())
}

/// For a move `text` (`element:from->to`) that is not legal because an
/// earlier move took a different but equivalent piece of the same supply
/// (the top of a stack instead of the one named): a legal move equivalent to
/// it (same [`Game::equivalence_key`]: same element type and state, from and
/// to the same places or the same kind of irrelevant place). `None` when
/// there is none, or `from` is a relevant place. Call it after
/// [`Game::find_move`] refused `text`.
pub fn equivalent_move(game: &Game, state: &State, text: &str) -> Option<Move> {
    let body = text.rsplit_once('@').map_or(text, |(b, _)| b);
    let (e, rest) = body.split_once(':')?;
    let (f, t) = rest.split_once("->")?;
    let element = game.elements.iter().position(|x| x.name == e)?;
    let from = game.locations.iter().position(|x| x.name == f)?;
    let to = game.locations.iter().position(|x| x.name == t)?;
    // Irrelevant places only: a relevant `from` must be exact.
    if game.is_relevant(from as u16) {
        return None;
    }
    let named = Move {
        element: element as u16,
        from: from as u16,
        to: to as u16,
        rule: 0,
        followup: None,
    };
    let key = game.equivalence_key(state, &named);
    // The named piece has left the supply (it is on the board now, perhaps
    // turned): its present state says nothing about the supply's pieces, so
    // any piece of its type from the same kind of place will do.
    let left = state.location_of(element as u16) != from as u16;
    let same = |k: gamebot_rules::EquivalenceKey| {
        if left {
            (k.0, k.1, k.2) == (key.0, key.1, key.2)
        } else {
            k == key
        }
    };
    game.legal_moves(state)
        .ok()?
        .into_iter()
        .find(|m| same(game.equivalence_key(state, m)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_naming_a_supply_piece_already_used_finds_an_equivalent_one() {
        let path = format!("{}/../../games/connect4.game", env!("CARGO_MANIFEST_DIR"));
        let game = Game::load(&path).unwrap();
        let mut st = game.initial_state();
        for t in ["r(11):sr(11)->b(1,1)", "y(1):sy(1)->b(2,1)"] {
            let m = game.find_move(&st, t).unwrap();
            game.apply(&mut st, &m).unwrap();
        }
        // r(11) is on the board: another red disc from the supply, same target.
        let text = "r(11):sr(11)->b(3,1)";
        assert!(game.find_move(&st, text).is_err());
        let m = equivalent_move(&game, &st, text).expect("an equivalent move");
        assert_eq!(game.locations[m.to as usize].name, "b(3,1)");
        assert!(game.elements[m.element as usize].name.starts_with("r("));
        assert_ne!(game.elements[m.element as usize].name, "r(11)");
        // A relevant from is exact; a target no rule allows has no equivalent.
        assert!(equivalent_move(&game, &st, "r(11):b(1,1)->b(3,1)").is_none());
        assert!(equivalent_move(&game, &st, "r(12):sr(12)->b(3,5)").is_none());
    }

    #[test]
    fn connect_four_takes_the_top_disc_of_a_supply_stack() {
        let path = format!("{}/../../games/connect4.game", env!("CARGO_MANIFEST_DIR"));
        let game = Game::load(&path).unwrap();
        let st = game.initial_state();
        let place = |l: u16| match game.locations[l as usize].robot {
            Some(gamebot_rules::RobotSpec::Cartesian(c)) => {
                Some([c[0] / 100.0, c[1] / 100.0, c[2] / 100.0])
            }
            _ => None,
        };
        let legal = game.legal_moves(&st).unwrap();
        // Some first moves take a disc that others lie on.
        let covered_move = legal
            .iter()
            .find(|m| {
                let mut n = st.clone();
                game.apply(&mut n, m).unwrap();
                gamebot_rules::physical_actions(&game, &st, &n)
                    .unwrap()
                    .iter()
                    .any(|a| matches!(*a, gamebot_rules::PhysicalAction::Transfer { from, .. } if covered(&game, &st, from, &place)))
            })
            .expect("connect four's supplies are stacks");
        let chosen = prefer_top_of_stack(&game, &st, covered_move, place);
        assert_ne!(&chosen, covered_move);
        assert_eq!(
            game.equivalence_key(&st, &chosen),
            game.equivalence_key(&st, covered_move)
        );
        let mut n = st.clone();
        game.apply(&mut n, &chosen).unwrap();
        for a in gamebot_rules::physical_actions(&game, &st, &n).unwrap() {
            if let gamebot_rules::PhysicalAction::Transfer { from, .. } = a {
                assert!(!covered(&game, &st, from, &place));
            }
        }
    }
}
