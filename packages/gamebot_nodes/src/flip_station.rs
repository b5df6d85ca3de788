//! Turning a piece over through the board's turn-over station.
//!
//! Neither arm can turn a flat disc over in its gripper: the fingers hold
//! it by its rim, so the disc's faces stay perpendicular to the tool axis
//! and every wrist motion the arm can make with the tool pointing down
//! leaves the same face up. Exchanging the disc for one of the other colour
//! from a supply would need about twice the discs (the number showing each
//! colour never changes) and a supply sorted by colour. So a FLIP is
//! carried out through a turn-over station fixed to the table
//! ([`gamebot_kinematics::FlipStation`], the board file's `flip_station`):
//! the arm carries the disc to the station's intake and lets it go; it
//! comes out at the exit the other side up; the arm carries it back. The
//! simulated world models the station the same way (`gamebot_sim`), so the
//! disc is turned only because the gripper took it there.
//!
//! [`through_station`] rewrites an `ExecuteMove` goal's actions so; the
//! referee and `gamebot sim execute` both send goals through it.

use gamebot_interfaces::geometry_msgs::Point;
use gamebot_interfaces::msg::PhysicalAction as ActionMsg;
use gamebot_kinematics::FlipStation;

/// The location name the station's ends carry in a goal.
pub const STATION: &str = "flip station";

fn point([x, y, z]: [f64; 3]) -> Point {
    Point { x, y, z }
}

/// `actions` with every FLIP replaced by two transfers through `station`:
/// from the piece's location to the intake, and from the exit back (the
/// piece's neighbours go with both, for the end on the board). Without a
/// station the actions are returned unchanged (an arm controller refuses a
/// FLIP, saying what is missing).
pub fn through_station(actions: Vec<ActionMsg>, station: Option<&FlipStation>) -> Vec<ActionMsg> {
    let Some(f) = station else {
        return actions;
    };
    let mut out = Vec::with_capacity(actions.len());
    for a in actions {
        if a.kind != ActionMsg::FLIP {
            out.push(a);
            continue;
        }
        out.push(ActionMsg {
            kind: ActionMsg::TRANSFER,
            to_location: STATION.into(),
            to_position: point(f.intake_m()),
            ..a.clone()
        });
        out.push(ActionMsg {
            kind: ActionMsg::TRANSFER,
            from_location: STATION.into(),
            from_position: point(f.exit_m()),
            ..a
        });
    }
    out
}

/// After a goal that turned pieces over at `flipped` (their locations) went
/// wrong: the first correction that fills one of those locations from a
/// supply (an irrelevant location) takes the piece from the station's exit
/// instead, where a piece that slipped on its way back lies — off the sheet
/// the camera watches, so no correction would ever find it, and every supply
/// piece taken in its place is one the supply lacks later. Returns whether a
/// correction was changed (the exit is tried once per move: if nothing lies
/// there the next corrections take from the supply again).
pub fn take_from_exit(
    corrections: &mut [crate::referee_eyes::Correction],
    flipped: &[String],
    is_supply: impl Fn(&str) -> bool,
    station: &FlipStation,
) -> bool {
    let exit = station.exit_m();
    let Some(k) = corrections
        .iter_mut()
        .find(|k| flipped.contains(&k.to_location) && is_supply(&k.from_location))
    else {
        return false;
    };
    k.from_location = STATION.into();
    k.from_cm = [exit[0] * 100.0, exit[1] * 100.0];
    // It came out of the chute the other side up: as the position wants it.
    k.turn_over = false;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flipped_square_filled_from_a_supply_takes_from_the_exit_first() {
        use crate::referee_eyes::Correction;
        let f = station();
        let c = |from: &str, to: &str| Correction {
            element: "d(1)".into(),
            element_type: "disc".into(),
            from_location: from.into(),
            from_cm: [-13.5, 9.0],
            to_location: to.into(),
            to_cm: Some([0.0, 18.0, 0.0]),
            turn_over: true,
        };
        let flipped = vec!["b(3,3)".to_string()];
        let supply = |l: &str| l.starts_with("pool(");
        // A square that was not turned over this move: the supply is right.
        let mut ks = vec![c("pool(1)", "b(2,2)")];
        assert!(!take_from_exit(&mut ks, &flipped, supply, &f));
        assert_eq!(ks[0].from_location, "pool(1)");
        // A piece on the board is a better source than the exit.
        let mut ks = vec![c("b(4,4)", "b(3,3)")];
        assert!(!take_from_exit(&mut ks, &flipped, supply, &f));
        // The turned square filled from the pool: from the exit, as it is.
        let mut ks = vec![c("pool(1)", "b(2,2)"), c("pool(2)", "b(3,3)")];
        assert!(take_from_exit(&mut ks, &flipped, supply, &f));
        assert_eq!(ks[0].from_location, "pool(1)");
        let k = &ks[1];
        assert_eq!(k.from_location, STATION);
        let exit = f.exit_m();
        assert!((k.from_cm[0] - exit[0] * 100.0).abs() < 1e-9);
        assert!((k.from_cm[1] - exit[1] * 100.0).abs() < 1e-9);
        assert!(!k.turn_over);
    }

    fn station() -> FlipStation {
        let b = gamebot_kinematics::Board::load_named("a4").unwrap();
        b.flip_station.expect("a4 has a turn-over station")
    }

    #[test]
    fn a_flip_becomes_two_transfers_through_the_station_and_nothing_else_changes() {
        let at = Point {
            x: 0.015,
            y: 0.135,
            z: 0.0,
        };
        let transfer = ActionMsg {
            kind: ActionMsg::TRANSFER,
            element: "d(5)".into(),
            from_location: "pool(1)".into(),
            to_location: "b(4,2)".into(),
            to_position: at.clone(),
            ..Default::default()
        };
        let flip = ActionMsg {
            kind: ActionMsg::FLIP,
            element: "d(2)".into(),
            from_location: "b(4,3)".into(),
            to_location: "b(4,3)".into(),
            from_position: at.clone(),
            to_position: at.clone(),
            from_state: 1,
            to_state: 2,
            neighbours: vec![Point::default()],
            ..Default::default()
        };
        let f = station();
        let out = through_station(vec![transfer.clone(), flip.clone()], Some(&f));
        assert_eq!(out.len(), 3);
        assert_eq!(out[0], transfer);
        assert!(out[1..].iter().all(|a| a.kind == ActionMsg::TRANSFER));
        assert!(out[1..]
            .iter()
            .all(|a| a.element == "d(2)" && a.neighbours.len() == 1));
        assert_eq!(
            (out[1].from_location.as_str(), out[1].to_location.as_str()),
            ("b(4,3)", STATION)
        );
        assert_eq!(out[1].from_position, at);
        assert_eq!(out[1].to_position, point(f.intake_m()));
        assert_eq!(
            (out[2].from_location.as_str(), out[2].to_location.as_str()),
            (STATION, "b(4,3)")
        );
        assert_eq!(out[2].from_position, point(f.exit_m()));
        assert_eq!(out[2].to_position, at);
        // No station: unchanged.
        assert_eq!(through_station(vec![flip.clone()], None), vec![flip]);
    }
}
