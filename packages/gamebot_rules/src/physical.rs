//! Turning a rule move into what a robot arm must physically do.
//!
//! A rule move is not one pick-and-place: followups capture pieces, flip
//! discs, rotate whole board quadrants. The arm's work is derived from the
//! states before and after the move: every element whose location changed is
//! a transfer, every element that stayed but changed state is a flip. The
//! transfers are ordered so each target is free when the piece arrives, and a
//! cycle (a rotated quadrant) is broken through a free location used as a
//! temporary buffer.
//!
//! Games also keep bookkeeping in pieces that do not exist on the table
//! (phase markers, turn tokens). When a game gives camera positions, a piece
//! that stays among locations without `camera=` is virtual and gets no
//! action; and when a game gives camera colour signatures, a state change is
//! a physical flip only if the type has a signature for both states.

use crate::model::{ElementId, LocationId};
use crate::{Game, State};
use serde::Serialize;

/// One thing the arm does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum PhysicalAction {
    /// Pick the element up at `from` and put it down at `to`.
    Transfer {
        element: ElementId,
        from: LocationId,
        to: LocationId,
    },
    /// Turn the element over where it stands (its state changed, e.g. a Reversi disc).
    Flip {
        element: ElementId,
        at: LocationId,
        from_state: i32,
        to_state: i32,
    },
}

/// Why no plan exists.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("the two states belong to different games")]
    Mismatch,
    #[error("pieces move in a cycle and no free location is left to break it")]
    NoBuffer,
}

/// The physical actions that turn `before` into `after`.
pub fn physical_actions(
    game: &Game,
    before: &State,
    after: &State,
) -> Result<Vec<PhysicalAction>, PlanError> {
    let n = before.element_count();
    if n != after.element_count() || before.location_count() != after.location_count() {
        return Err(PlanError::Mismatch);
    }
    let on_table = |l: LocationId| on_table(game, l);
    let physical = |e: ElementId| on_table(before.location_of(e)) || on_table(after.location_of(e));
    // Pending transfers: element -> (current physical location, target).
    let mut pending: Vec<(ElementId, LocationId, LocationId)> = (0..n as ElementId)
        .filter(|&e| before.location_of(e) != after.location_of(e) && physical(e))
        .map(|e| (e, before.location_of(e), after.location_of(e)))
        .collect();
    // Physical occupancy as the plan proceeds.
    let mut occupant: Vec<Option<ElementId>> = (0..before.location_count() as LocationId)
        .map(|l| before.content(l))
        .collect();
    let mut out = Vec::new();
    while !pending.is_empty() {
        // Move any piece whose target is free now, in element order (deterministic).
        if let Some(i) = pending
            .iter()
            .position(|&(_, _, to)| occupant[to as usize].is_none())
        {
            let (e, from, to) = pending.remove(i);
            occupant[from as usize] = None;
            occupant[to as usize] = Some(e);
            out.push(PhysicalAction::Transfer {
                element: e,
                from,
                to,
            });
            continue;
        }
        // Every target is occupied by a piece that itself must move: a cycle. Park the
        // first piece on a location free both now and after the move, preferring an
        // irrelevant one (a supply slot) so the board stays readable.
        let free = |l: usize| occupant[l].is_none() && after.content(l as LocationId).is_none();
        let buffer = (0..occupant.len())
            .filter(|&l| free(l))
            .min_by_key(|&l| game.is_relevant(l as LocationId))
            .ok_or(PlanError::NoBuffer)? as LocationId;
        let (e, from, to) = pending[0];
        occupant[from as usize] = None;
        occupant[buffer as usize] = Some(e);
        out.push(PhysicalAction::Transfer {
            element: e,
            from,
            to: buffer,
        });
        pending[0] = (e, buffer, to);
    }
    for e in 0..n as ElementId {
        let (s0, s1) = (before.element_state(e), after.element_state(e));
        if s0 != s1 && physical(e) && visible_state_change(game, e, s0, s1) {
            out.push(PhysicalAction::Flip {
                element: e,
                at: after.location_of(e),
                from_state: s0,
                to_state: s1,
            });
        }
    }
    Ok(out)
}

/// Pieces closer than this (m, horizontally) to an action's end stand on the
/// same spot: under it in a stack, not beside it.
const SAME_SPOT_M: f64 = 0.002;

/// For each action of `plan` (carried out in order from `before`), the table
/// positions of the pieces standing within `radius_m` (horizontally) of either
/// end when the action starts: the pieces the gripper's fingers must keep
/// clear of. The moving element and the pieces stacked on the same spot are
/// left out, and so are pieces without a table position (`place` gives the
/// position of a location, metres, in the arm's frame).
pub fn neighbours(
    game: &Game,
    before: &State,
    plan: &[PhysicalAction],
    place: impl Fn(LocationId) -> Option<[f64; 3]>,
    radius_m: f64,
) -> Vec<Vec<[f64; 3]>> {
    let mut occupant: Vec<Option<ElementId>> = (0..before.location_count() as LocationId)
        .map(|l| before.content(l))
        .collect();
    let places: Vec<Option<[f64; 3]>> = (0..occupant.len() as LocationId)
        .map(|l| if on_table(game, l) { place(l) } else { None })
        .collect();
    let flat = |a: [f64; 3], b: [f64; 3]| (a[0] - b[0]).hypot(a[1] - b[1]);
    plan.iter()
        .map(|a| {
            let (element, from, to) = match *a {
                PhysicalAction::Transfer { element, from, to } => (element, from, to),
                PhysicalAction::Flip { element, at, .. } => (element, at, at),
            };
            let ends: Vec<[f64; 3]> = [from, to]
                .iter()
                .filter_map(|&l| places[l as usize])
                .collect();
            let near: Vec<[f64; 3]> = occupant
                .iter()
                .zip(&places)
                .filter(|(o, _)| matches!(o, Some(e) if *e != element))
                .filter_map(|(_, p)| *p)
                .filter(|&p| {
                    ends.iter().any(|&c| flat(p, c) < radius_m)
                        && ends.iter().all(|&c| flat(p, c) >= SAME_SPOT_M)
                })
                .collect();
            if let PhysicalAction::Transfer { element, from, to } = *a {
                occupant[from as usize] = None;
                occupant[to as usize] = Some(element);
            }
            near
        })
        .collect()
}

/// Whether location `l` is a place on the table: every location when the
/// game gives no camera positions, otherwise those with `camera=`. A piece
/// that stays among the other places is bookkeeping (a turn counter, a phase
/// flag) with no body on the table.
pub fn on_table(game: &Game, l: LocationId) -> bool {
    game.locations[l as usize].camera.is_some()
        || !game.locations.iter().any(|l| l.camera.is_some())
}

/// Whether the camera can tell the element's two states apart (so the piece
/// really turns over): true when the game gives no colour signatures at all,
/// otherwise only when its type has a signature for both states. A state
/// change the camera cannot see is bookkeeping (a counter kept in a piece).
pub fn visible_state_change(game: &Game, e: ElementId, s0: i32, s1: i32) -> bool {
    if game.realboard.is_empty() {
        return true; // no colour information: assume every state is physical
    }
    let t = &game.element_type_of(e).name;
    let has = |s: i32| game.realboard.iter().any(|r| &r.name == t && r.state == s);
    has(s0) && has(s1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RING: &str = "[LOCATION TYPES]\nname=cell\nname=spare\nrelevant=no\n[LOCATIONS]\n\
        name=c(1)\ntype=cell\nname=c(2)\ntype=cell\nname=c(3)\ntype=cell\nname=c(4)\ntype=cell\nname=s(1)\ntype=spare\n\
        [ELEMENT TYPES]\nname=disc\nstates=2\n[PLAYER NAMES]\n1=a\n\
        [MOVABLE ELEMENTS]\nname=d(1)\ntype=disc\nlocation=c(1)\nname=d(2)\ntype=disc\nlocation=c(2)\nname=d(3)\ntype=disc\nlocation=c(3)\n\
        [EXPRESSIONS]\nRotate\nMOVE(\"d(3)\", \"c(3)\", \"s(1)\")\nMOVE(\"d(2)\", \"c(2)\", \"c(3)\")\nMOVE(\"d(3)\", \"s(1)\", \"c(2)\")\nSETSTATE(\"d(2)\", 2)\nEND\n\
        [GAME RULES]\nname=spin\nelement=d($N)\nfrom=c($F)\nto=c($T)\ncondition=$F == 1\nfollowup=Rotate\n";

    /// The ring game before and after `d(1):c(1)->c(4)`, whose followup
    /// swaps d(2) and d(3) through s(1) and flips d(2).
    fn ring_move() -> (Game, State, State) {
        let g = Game::parse("ring.game", RING).unwrap();
        let before = g.initial_state();
        let mut after = before.clone();
        let mv = g.find_move(&before, "d(1):c(1)->c(4)").unwrap();
        g.apply(&mut after, &mv).unwrap();
        (g, before, after)
    }

    #[test]
    fn a_cycle_is_broken_through_a_free_location_and_flips_come_last() {
        let (g, before, after) = ring_move();
        // d(1) went c1->c4 by the move; the followup then swapped d(2) and d(3) through s(1).
        let plan = physical_actions(&g, &before, &after).unwrap();
        // Replaying the plan on a physical board must end in `after`, each step onto a free place.
        let mut occ: Vec<Option<u16>> = (0..before.location_count() as u16)
            .map(|l| before.content(l))
            .collect();
        for a in &plan {
            if let PhysicalAction::Transfer { element, from, to } = a {
                assert_eq!(occ[*from as usize], Some(*element));
                assert!(occ[*to as usize].is_none(), "{plan:?}");
                occ[*from as usize] = None;
                occ[*to as usize] = Some(*element);
            }
        }
        let want: Vec<Option<u16>> = (0..after.location_count() as u16)
            .map(|l| after.content(l))
            .collect();
        assert_eq!(occ, want);
        assert!(matches!(
            plan.last(),
            Some(PhysicalAction::Flip { to_state: 2, .. })
        ));
    }

    #[test]
    fn a_pure_rotation_needs_a_buffer() {
        let g = Game::parse("ring.game", RING).unwrap();
        let before = g.initial_state();
        let after = g
            .state_from_parts(
                vec![1, 2, 0],
                vec![
                    crate::ElementAttrs {
                        state: 1,
                        owner: 0,
                        zindex: 0
                    };
                    3
                ],
                1,
                crate::Outcome::Running,
                vec![0],
            )
            .unwrap();
        let plan = physical_actions(&g, &before, &after).unwrap();
        assert_eq!(plan.len(), 4, "{plan:?}"); // three moves plus one detour through a free location
    }

    #[test]
    fn neighbours_are_the_pieces_near_either_end_as_the_plan_proceeds() {
        let (g, before, after) = ring_move();
        let plan = physical_actions(&g, &before, &after).unwrap();
        // c(n) stand 3 cm apart on a line, s(1) at the end, 3 cm past c(4).
        let place = |l: LocationId| Some([0.03 * l as f64, 0.2, 0.0]);
        let near = neighbours(&g, &before, &plan, place, 0.035);
        assert_eq!(near.len(), plan.len());
        // d(1) c(1)->c(4): d(2) stands beside c(1); c(3) (d(3)) beside c(4).
        assert_eq!(
            plan[0],
            PhysicalAction::Transfer {
                element: 0,
                from: 0,
                to: 3
            }
        );
        let xs = |v: &[[f64; 3]]| {
            v.iter()
                .map(|p| (p[0] * 100.0).round() as i32)
                .collect::<Vec<_>>()
        };
        assert_eq!(xs(&near[0]), vec![3, 6]);
        // Later actions see c(1) empty: d(1) stands at c(4) (x = 9 cm) from then on.
        for n in &near[1..] {
            assert!(!xs(n).contains(&0), "{near:?}");
        }
        assert!(near[1..].iter().any(|n| xs(n).contains(&9)), "{near:?}");
        // Nothing within 1 mm: no neighbours; a piece on the same spot is under, not beside.
        assert!(neighbours(&g, &before, &plan, place, 0.001)
            .iter()
            .all(|n| n.is_empty()));
        let stacked = |_: LocationId| Some([0.0, 0.2, 0.0]);
        assert!(neighbours(&g, &before, &plan, stacked, 1.0)
            .iter()
            .all(|n| n.is_empty()));
    }
}
