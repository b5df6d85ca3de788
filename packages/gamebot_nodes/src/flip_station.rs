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

/// How often per move the referee sends the arm to the station's exit for
/// a disc it cannot see in place of a supply piece it can (a grasp there
/// can slip too, leaving the disc where it was; a grasp where nothing lies
/// costs one blind trip). Four: a disc slipping back into the exit's cradle
/// four times in a row (0.15⁴ with the soaks' `slip`) is still fetched; the
/// camera cannot tell that from an exit that is empty (the disc slipped
/// back onto a pool stack, hidden under its top), where each try is a blind
/// trip: trying the exit on the regrasps' whole budget instead ended 2 of
/// 18 soak games in a call for help, so the budget stays small. For a
/// location nothing seen can fill, the exit is tried as long as the
/// regrasps' and corrections' budgets last.
pub const EXIT_TRIES: u32 = 4;

/// What the camera's count says about discs out of its view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unseen {
    /// Pieces of the expected position the camera sees nowhere
    /// ([`crate::referee_eyes::unseen_pieces`]).
    pub pieces: usize,
    /// Of those, how many may lie hidden in a stack instead: squares this
    /// move filled from a stacked supply that show no piece now (the piece
    /// slipped from the gripper and fell back onto the stack, where the
    /// camera sees only the top; the stack then serves, not the exit).
    pub maybe_in_a_stack: usize,
    /// Whether the count may send the arm to the exit instead of to a seen
    /// supply piece (the referee trusts it for a move's first look at the
    /// exit only); as a last resort, for a location nothing seen can fill,
    /// it always may.
    pub trusted: bool,
}

impl Unseen {
    /// How many discs are likely at the exit, as far as the count is trusted.
    pub fn at_exit(&self) -> usize {
        if self.trusted {
            self.pieces.saturating_sub(self.maybe_in_a_stack)
        } else {
            0
        }
    }
}

/// The station's exit as a source of discs the camera cannot see. A disc
/// that slipped from the gripper on its way back from the station lies
/// there, the other side up already — off the sheet the camera watches, so
/// no correction would ever find it, and every supply piece taken in its
/// place is one the supply lacks later (the reversi faults soaks stopped on
/// an empty pool so, at the game's last ply).
///
/// The exit is taken for, in this order:
/// 1. a location turned over this move (`flipped`) that no seen piece can
///    fill (`uncorrectable`): its own disc is at the exit (`wants(location)`
///    is the correction that would fill it, its source still to be set);
/// 2. a correction that fills a turned location from a supply (an
///    irrelevant location, `is_supply`), the supply piece it took going to
///    an uncorrectable location that wants the same (`same_kind`: same
///    type, same side up), if there is one;
/// 3. any other uncorrectable location, when the camera misses a piece;
/// 4. any other correction from a supply: a disc left at the exit by an
///    earlier move.
///
/// 2 and 4 together take at most as many discs as are likely at the exit
/// ([`Unseen::at_exit`]), and at least one per turned location missing its
/// disc; 3 is the last resort before asking for help. A disc from the exit
/// is not turned on its way: one that came back from the station this move
/// shows the side the position wants (why the turned locations come
/// first); one left there earlier may not, and the next check turns it
/// over. Returns how many corrections changed. 2 and 4 only with
/// `instead_of_supply`: the caller limits those tries per move
/// ([`EXIT_TRIES`]), so when nothing lies there, the supply serves. The referee
/// trusts the camera's count (4) for a move's first look at the exit only: a
/// supply stack whose pieces drifted from the rules' count (a person's
/// stand-in taken from the nearest stack, a correction that took the bottom
/// piece) shows as a piece missed, and one blind trip is enough to learn
/// that.
#[allow(clippy::too_many_arguments)]
pub fn take_from_exit(
    corrections: &mut Vec<crate::referee_eyes::Correction>,
    uncorrectable: &mut Vec<String>,
    flipped: &[String],
    unseen: Unseen,
    instead_of_supply: bool,
    is_supply: impl Fn(&str) -> bool,
    station: &FlipStation,
    wants: impl Fn(&str) -> Option<crate::referee_eyes::Correction>,
    same_kind: impl Fn(&str, &str) -> bool,
) -> usize {
    let exit = station.exit_m();
    let from_exit = |k: &mut crate::referee_eyes::Correction| {
        k.from_location = STATION.into();
        k.from_cm = [exit[0] * 100.0, exit[1] * 100.0];
        k.turn_over = false;
    };
    let turned = |l: &str| flipped.iter().any(|f| f == l);
    let from_supply = |k: &crate::referee_eyes::Correction| {
        k.from_location != STATION && is_supply(&k.from_location)
    };
    // Every square turned this move whose disc is missing: the ones a
    // supply would fill and the ones nothing seen can fill (each disc went
    // through the station; one that is not back lies at the exit).
    let turned_missing = corrections
        .iter()
        .filter(|k| turned(&k.to_location) && from_supply(k))
        .count()
        + uncorrectable.iter().filter(|u| turned(u)).count();
    let mut budget = unseen.at_exit().max(turned_missing);
    let mut changed = 0;
    for turned_ones in [true, false] {
        // Locations no seen piece can fill.
        if turned_ones || unseen.pieces > 0 {
            let mut i = 0;
            while i < uncorrectable.len() {
                let wanted = (turned(&uncorrectable[i]) == turned_ones)
                    .then(|| wants(&uncorrectable[i]))
                    .flatten();
                let Some(mut k) = wanted else {
                    i += 1;
                    continue;
                };
                from_exit(&mut k);
                corrections.push(k);
                uncorrectable.remove(i);
                budget = budget.saturating_sub(1);
                changed += 1;
            }
        }
        // Corrections from a supply.
        let mut i = 0;
        while instead_of_supply && i < corrections.len() && budget > 0 {
            let k = &corrections[i];
            if turned(&k.to_location) != turned_ones || !from_supply(k) {
                i += 1;
                continue;
            }
            let freed = k.clone();
            from_exit(&mut corrections[i]);
            budget -= 1;
            changed += 1;
            i += 1;
            let Some(j) = uncorrectable
                .iter()
                .position(|u| same_kind(u, &freed.to_location))
            else {
                continue;
            };
            if let Some(w) = wants(&uncorrectable[j]) {
                corrections.push(crate::referee_eyes::Correction {
                    element: w.element,
                    to_location: w.to_location,
                    to_cm: w.to_cm,
                    ..freed
                });
                uncorrectable.remove(j);
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn correction(from: &str, to: &str) -> crate::referee_eyes::Correction {
        crate::referee_eyes::Correction {
            element: format!("d({to})"),
            element_type: "disc".into(),
            from_location: from.into(),
            from_cm: [-13.5, 9.0],
            from_level_cm: 0.0,
            to_location: to.into(),
            to_cm: Some([0.0, 18.0, 0.0]),
            turn_over: true,
        }
    }

    /// Exit-take with `flipped` = b(3,3), the pool as supply, every
    /// location wanting the same disc side, the camera missing `unseen`
    /// pieces; whether the corrections changed.
    fn exit_take_unseen(
        ks: &mut Vec<crate::referee_eyes::Correction>,
        uncorrectable: &mut Vec<String>,
        unseen: Unseen,
    ) -> usize {
        take_from_exit(
            ks,
            uncorrectable,
            &["b(3,3)".to_string()],
            unseen,
            true,
            |l| l.starts_with("pool("),
            &station(),
            |l| Some(correction("", l)),
            |_, _| true,
        )
    }

    fn exit_take(
        ks: &mut Vec<crate::referee_eyes::Correction>,
        uncorrectable: &mut Vec<String>,
    ) -> bool {
        exit_take_unseen(ks, uncorrectable, Unseen::default()) > 0
    }

    fn is_exit(k: &crate::referee_eyes::Correction) -> bool {
        let exit = station().exit_m();
        k.from_location == STATION
            && (k.from_cm[0] - exit[0] * 100.0).abs() < 1e-9
            && (k.from_cm[1] - exit[1] * 100.0).abs() < 1e-9
            && !k.turn_over
    }

    #[test]
    fn a_flipped_square_filled_from_a_supply_takes_from_the_exit_first() {
        let none = || Vec::<String>::new();
        // A square that was not turned over this move: the supply is right.
        let mut ks = vec![correction("pool(1)", "b(2,2)")];
        assert!(!exit_take(&mut ks, &mut none()));
        assert_eq!(ks[0].from_location, "pool(1)");
        // A piece on the board is a better source than the exit.
        let mut ks = vec![correction("b(4,4)", "b(3,3)")];
        assert!(!exit_take(&mut ks, &mut none()));
        // The turned square filled from the pool: from the exit, as it is.
        let mut ks = vec![
            correction("pool(1)", "b(2,2)"),
            correction("pool(2)", "b(3,3)"),
        ];
        assert!(exit_take(&mut ks, &mut none()));
        assert_eq!(ks[0].from_location, "pool(1)");
        assert!(is_exit(&ks[1]), "{:?}", ks[1]);
        assert_eq!(ks.len(), 2);
    }

    /// The pool has one disc for two empty squares, the turned one and the
    /// placed one: the exit fills the turned one, the pool disc the other.
    #[test]
    fn the_exit_stands_in_where_the_camera_sees_too_few_discs() {
        // The turned square itself found no disc.
        let mut ks = vec![correction("pool(1)", "b(6,6)")];
        let mut un = vec!["b(3,3)".to_string()];
        assert!(exit_take(&mut ks, &mut un));
        assert!(un.is_empty());
        assert_eq!(ks.len(), 2);
        assert_eq!(ks[1].to_location, "b(3,3)");
        assert!(is_exit(&ks[1]));
        // The pool disc went to the turned square; the placed one found none.
        let mut ks = vec![correction("pool(1)", "b(3,3)")];
        let mut un = vec!["b(6,6)".to_string()];
        assert!(exit_take(&mut ks, &mut un));
        assert!(un.is_empty());
        assert_eq!(ks.len(), 2);
        assert!(is_exit(&ks[0]) && ks[0].to_location == "b(3,3)");
        let moved = &ks[1];
        assert_eq!(
            (moved.from_location.as_str(), moved.to_location.as_str()),
            ("pool(1)", "b(6,6)")
        );
        assert_eq!(moved.element, "d(b(6,6))");
        assert!(
            moved.turn_over,
            "the pool disc's side as the check found it"
        );
        // Nothing turned is missing: the exit is not a source.
        let mut ks = vec![correction("pool(1)", "b(2,2)")];
        let mut un = vec!["b(6,6)".to_string()];
        assert!(!exit_take(&mut ks, &mut un));
        assert_eq!(un, ["b(6,6)"]);
    }

    /// Two squares turned this move are missing their discs (both slipped
    /// back into the exit's cradle): one no seen disc can fill, one a pool
    /// disc would fill. Both take from the exit, although the camera's count
    /// (blurred by the pool's stacks) says one disc: the first must not use
    /// up the budget the second needs (the reversi soak's game 46, whose
    /// pool was one short from then on).
    #[test]
    fn every_turned_square_missing_its_disc_takes_from_the_exit() {
        let flipped = ["b(2,4)".to_string(), "b(1,3)".to_string()];
        let mut ks = vec![correction("pool(17)", "b(1,3)")];
        let mut un = vec!["b(2,4)".to_string()];
        let n = take_from_exit(
            &mut ks,
            &mut un,
            &flipped,
            Unseen {
                pieces: 2,
                maybe_in_a_stack: 1,
                trusted: true,
            },
            true,
            |l| l.starts_with("pool("),
            &station(),
            |l| Some(correction("", l)),
            |_, _| true,
        );
        assert_eq!(n, 2);
        assert!(un.is_empty());
        assert_eq!(ks.len(), 2);
        assert!(ks.iter().all(is_exit), "{ks:?}");
    }

    /// Discs the camera misses, left at the exit by an earlier move: as
    /// many supply corrections or unfillable locations as are missing take
    /// from the exit, the location turned this move first.
    #[test]
    fn discs_the_camera_misses_are_looked_for_at_the_exit_in_any_move() {
        let none = || Vec::<String>::new();
        // Nothing turned this move, one disc unseen: the placed square's
        // correction takes from the exit.
        let mut ks = vec![correction("pool(1)", "b(2,2)")];
        assert_eq!(exit_take_unseen(&mut ks, &mut none(), seen_short(1, 0)), 1);
        assert!(is_exit(&ks[0]) && ks[0].to_location == "b(2,2)");
        // A square no seen disc can fill, one unseen: from the exit.
        let mut ks = vec![];
        let mut un = vec!["b(6,6)".to_string()];
        assert_eq!(exit_take_unseen(&mut ks, &mut un, seen_short(1, 0)), 1);
        assert!(un.is_empty() && is_exit(&ks[0]) && ks[0].to_location == "b(6,6)");
        // Two unseen, three squares filled from the pool, b(3,3) the one
        // turned this move: it first, then the next in order.
        let mut ks = vec![
            correction("pool(1)", "b(2,2)"),
            correction("pool(2)", "b(3,3)"),
            correction("pool(3)", "b(4,4)"),
        ];
        assert_eq!(exit_take_unseen(&mut ks, &mut none(), seen_short(2, 0)), 2);
        assert!(is_exit(&ks[1]) && is_exit(&ks[0]));
        assert_eq!(ks[2].from_location, "pool(3)", "the budget is two");
        // A correction already from the exit is not counted again, nor one
        // from a square on the board.
        let mut ks = vec![correction("b(5,5)", "b(2,2)")];
        assert_eq!(exit_take_unseen(&mut ks, &mut none(), seen_short(3, 0)), 0);
        let mut ks = vec![correction("pool(1)", "b(2,2)")];
        assert_eq!(exit_take_unseen(&mut ks, &mut none(), seen_short(3, 0)), 1);
        assert_eq!(exit_take_unseen(&mut ks, &mut none(), seen_short(3, 0)), 0);
        // The turned square's disc is missing even when the count misses it
        // (a stack hides the difference): its own disc is at the exit.
        let mut ks = vec![correction("pool(2)", "b(3,3)")];
        assert_eq!(exit_take_unseen(&mut ks, &mut none(), seen_short(0, 0)), 1);
        // The placement slipped back onto its stack (the camera sees the
        // stack's top as before) and the turned disc stayed at the exit: two
        // missing, one of them maybe in the stack. The turned square takes
        // from the exit, the placed one from the stack.
        let mut ks = vec![
            correction("pool(25)", "b(5,1)"),
            correction("pool(26)", "b(3,3)"),
        ];
        assert_eq!(exit_take_unseen(&mut ks, &mut none(), seen_short(2, 1)), 1);
        assert_eq!(ks[0].from_location, "pool(25)");
        assert!(is_exit(&ks[1]));
        let mut ks = vec![correction("pool(25)", "b(5,1)")];
        assert_eq!(exit_take_unseen(&mut ks, &mut none(), seen_short(1, 1)), 0);
        // A square nothing seen can fill: the exit is the last resort
        // whenever the camera misses a piece.
        let mut un = vec!["b(6,6)".to_string()];
        assert_eq!(exit_take_unseen(&mut vec![], &mut un, seen_short(1, 1)), 1);
        assert!(un.is_empty());
    }

    fn seen_short(pieces: usize, maybe_in_a_stack: usize) -> Unseen {
        Unseen {
            pieces,
            maybe_in_a_stack,
            trusted: true,
        }
    }

    /// After a move's first look at the exit, the count no longer replaces
    /// a seen supply piece, but still stands in for nothing at all.
    #[test]
    fn an_untrusted_count_is_only_a_last_resort() {
        let untrusted = Unseen {
            trusted: false,
            ..seen_short(1, 0)
        };
        let mut ks = vec![correction("pool(1)", "b(2,2)")];
        assert_eq!(exit_take_unseen(&mut ks, &mut vec![], untrusted), 0);
        let mut un = vec!["b(6,6)".to_string()];
        assert_eq!(exit_take_unseen(&mut vec![], &mut un, untrusted), 1);
        // The turned square's own disc is looked for all the same.
        let mut ks = vec![correction("pool(2)", "b(3,3)")];
        assert_eq!(exit_take_unseen(&mut ks, &mut vec![], untrusted), 1);
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
