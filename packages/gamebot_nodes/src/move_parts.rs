//! A robot move's transfers in parts, with the camera looking in between
//! wherever a transfer relies on an earlier one of the same move.
//!
//! Some moves chain their transfers: a reversi FLIP goes square → turn-over
//! station intake, then station exit → the same square; a pentago twist is a
//! cycle (`a` → buffer, `b` → `a`, `c` → `b`, …). When the gripper loses a
//! piece on the first transfer (it slips 2 cm above the grasp and falls back
//! where it lay), the next one puts a piece onto it: two pieces on one
//! square, one of them hidden from the camera for good, and a supply that
//! drains by one each time (the faults soaks of reversi and pentago stalled
//! so). Sent as one goal, nothing can notice in time.
//!
//! [`split`] cuts the move's transfers before every transfer that relies,
//! through a location the camera sees, on an earlier transfer of the part
//! under way: one that puts a piece where an earlier one took one from
//! ([`Expectation::Emptied`]), or takes one from where an earlier one put
//! it ([`Expectation::Filled`]). The referee sends one part per goal (the
//! arm parks after each, so the board is uncovered), and before the next
//! part checks on a stable observation that every expectation of the part
//! holds ([`unmet`]). A transfer whose piece is still seen where it took it
//! from ([`Expectation::redo`]) is made again, from where the piece lies.
//! Transfers that rely on nothing the camera sees (a station's intake and
//! exit) stay in one part, so moves without such chains (most moves of most
//! games) are one goal as before.

use gamebot_interfaces::msg::PhysicalAction as ActionMsg;

/// What the camera must show on a location once a part is done, because a
/// later transfer of the move relies on it.
#[derive(Clone, Debug, PartialEq)]
pub enum Expectation {
    /// `by` took the piece from its `from_location`, and a later transfer
    /// puts one there: the location must look empty.
    Emptied { by: ActionMsg },
    /// `by` put the piece on its `to_location`, and a later transfer takes
    /// it from there: the location must show a piece.
    Filled { by: ActionMsg },
}

impl Expectation {
    /// The transfer whose result this checks.
    pub fn by(&self) -> &ActionMsg {
        match self {
            Expectation::Emptied { by } | Expectation::Filled { by } => by,
        }
    }

    /// The location the camera looks at.
    pub fn location(&self) -> &str {
        match self {
            Expectation::Emptied { by } => &by.from_location,
            Expectation::Filled { by } => &by.to_location,
        }
    }

    /// Whether it holds, given whether the camera shows a piece on
    /// [`Self::location`].
    pub fn holds(&self, piece_seen: bool) -> bool {
        match self {
            Expectation::Emptied { .. } => !piece_seen,
            Expectation::Filled { .. } => piece_seen,
        }
    }

    /// When it does not hold: the transfer to make again, if the camera
    /// still sees a piece where [`Self::by`] took its piece
    /// (`seen_at(location)`: table position, cm, of a piece seen there) —
    /// the piece did not go; it is picked where it lies now. `None` when
    /// nothing lies there (the piece went astray on the way; the check of the
    /// whole move after the last part finds it).
    pub fn redo(&self, seen_at: impl Fn(&str) -> Option<[f64; 2]>) -> Option<ActionMsg> {
        let by = self.by();
        let [x, y] = seen_at(&by.from_location)?;
        let mut again = by.clone();
        again.from_position.x = x / 100.0;
        again.from_position.y = y / 100.0;
        Some(again)
    }
}

/// One goal's worth of a move: transfers the arm makes in one go, and what
/// the camera must show before the next part starts (empty for the last).
#[derive(Clone, Debug, PartialEq)]
pub struct MovePart {
    pub actions: Vec<ActionMsg>,
    pub then: Vec<Expectation>,
}

fn carries(a: &ActionMsg) -> bool {
    a.kind == ActionMsg::TRANSFER && a.from_location != a.to_location
}

/// Whether `later` puts a piece where `earlier` took one, on a location the
/// camera sees.
fn puts_where_taken(later: &ActionMsg, earlier: &ActionMsg, sees: &impl Fn(&str) -> bool) -> bool {
    carries(later)
        && carries(earlier)
        && later.to_location == earlier.from_location
        && sees(&earlier.from_location)
}

/// Whether `later` takes a piece from where `earlier` put one, on a location
/// the camera sees.
fn takes_where_put(later: &ActionMsg, earlier: &ActionMsg, sees: &impl Fn(&str) -> bool) -> bool {
    carries(later)
        && carries(earlier)
        && later.from_location == earlier.to_location
        && sees(&earlier.to_location)
}

/// `actions` (a move's transfers, FLIPs already routed through the station)
/// in parts: a new part starts before every transfer that relies on an
/// earlier one of the part under way through a location `sees` (the camera
/// sees it and tells a piece from none). Each part's `then` lists, for its
/// transfers, what the camera can check that a later transfer relies on.
/// Without such chains the result is one part with every action.
pub fn split(actions: Vec<ActionMsg>, sees: impl Fn(&str) -> bool) -> Vec<MovePart> {
    let mut cuts = vec![0];
    for j in 0..actions.len() {
        let start = *cuts.last().expect("starts with 0");
        if actions[start..j].iter().any(|e| {
            puts_where_taken(&actions[j], e, &sees) || takes_where_put(&actions[j], e, &sees)
        }) {
            cuts.push(j);
        }
    }
    cuts.push(actions.len());
    cuts.windows(2)
        .map(|w| {
            let (part, later) = (&actions[w[0]..w[1]], &actions[w[1]..]);
            let mut then = Vec::new();
            for a in part {
                if later.iter().any(|l| puts_where_taken(l, a, &sees)) {
                    then.push(Expectation::Emptied { by: a.clone() });
                }
                if later.iter().any(|l| takes_where_put(l, a, &sees)) {
                    then.push(Expectation::Filled { by: a.clone() });
                }
            }
            MovePart {
                actions: part.to_vec(),
                then,
            }
        })
        .collect()
}

/// The expectations the camera's view breaks (`piece_seen(location)`:
/// whether it shows a piece there).
pub fn unmet(then: &[Expectation], piece_seen: impl Fn(&str) -> bool) -> Vec<&Expectation> {
    then.iter()
        .filter(|e| !e.holds(piece_seen(e.location())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamebot_interfaces::geometry_msgs::Point;

    fn transfer(element: &str, from: &str, to: &str) -> ActionMsg {
        ActionMsg {
            kind: ActionMsg::TRANSFER,
            element: element.into(),
            from_location: from.into(),
            to_location: to.into(),
            from_position: Point {
                x: 0.1,
                y: 0.2,
                z: 0.01,
            },
            ..Default::default()
        }
    }

    /// The board's squares; the station and supply spots are not seen.
    fn sees(l: &str) -> bool {
        l.starts_with("sq")
    }

    fn locations(p: &MovePart) -> Vec<(&str, &str)> {
        p.actions
            .iter()
            .map(|a| (a.from_location.as_str(), a.to_location.as_str()))
            .collect()
    }

    #[test]
    fn independent_transfers_are_one_part() {
        let parts = split(
            vec![
                transfer("w1", "pool", "sq1"),
                transfer("b2", "sq2", "bin"),
                ActionMsg {
                    kind: ActionMsg::PARK,
                    ..Default::default()
                },
            ],
            sees,
        );
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].actions.len(), 3);
        assert!(parts[0].then.is_empty());
    }

    /// A reversi move: the new disc, then two flips through the station.
    #[test]
    fn flips_through_the_station_are_checked_between_their_legs() {
        let parts = split(
            vec![
                transfer("d1", "pool", "sq1"),
                transfer("d2", "sq2", "station"),
                transfer("d2", "station", "sq2"),
                transfer("d3", "sq3", "station"),
                transfer("d3", "station", "sq3"),
            ],
            sees,
        );
        let cut: Vec<Vec<(&str, &str)>> = parts.iter().map(locations).collect();
        assert_eq!(
            cut,
            vec![
                vec![("pool", "sq1"), ("sq2", "station")],
                vec![("station", "sq2"), ("sq3", "station")],
                vec![("station", "sq3")],
            ]
        );
        assert_eq!(parts[0].then.len(), 1);
        assert!(matches!(&parts[0].then[0], Expectation::Emptied { by } if by.element == "d2"));
        assert_eq!(parts[0].then[0].location(), "sq2");
        assert_eq!(parts[1].then[0].location(), "sq3");
        assert!(parts[2].then.is_empty());
    }

    /// A pentago twist's cycle through a buffer off the board: each
    /// transfer puts a marble where the one before took one.
    #[test]
    fn a_cycle_is_checked_after_every_transfer_that_empties_a_square() {
        let parts = split(
            vec![
                transfer("m1", "sqA", "buffer"),
                transfer("m2", "sqB", "sqA"),
                transfer("m3", "sqC", "sqB"),
                transfer("m1", "buffer", "sqC"),
            ],
            sees,
        );
        assert_eq!(parts.len(), 4, "{parts:?}");
        let wanted: Vec<Vec<&str>> = parts
            .iter()
            .map(|p| p.then.iter().map(|e| e.location()).collect())
            .collect();
        assert_eq!(wanted, vec![vec!["sqA"], vec!["sqB"], vec!["sqC"], vec![]]);
    }

    /// A piece carried across the board and on again from where it was put
    /// down: the square between must show it.
    #[test]
    fn taking_again_what_was_put_down_checks_it_is_there() {
        let parts = split(
            vec![transfer("p", "sq1", "sq2"), transfer("p", "sq2", "sq3")],
            sees,
        );
        assert_eq!(parts.len(), 2);
        assert!(matches!(&parts[0].then[..], [Expectation::Filled { .. }]));
        assert_eq!(parts[0].then[0].location(), "sq2");
        // Through an unseen place nothing can be checked: one part.
        let unseen = split(
            vec![transfer("p", "sq1", "hold"), transfer("p", "hold", "sq3")],
            sees,
        );
        assert_eq!(unseen.len(), 1);
    }

    #[test]
    fn a_piece_still_seen_where_it_was_taken_is_taken_again_where_it_lies() {
        let parts = split(
            vec![
                transfer("d2", "sq2", "station"),
                transfer("d2", "station", "sq2"),
            ],
            sees,
        );
        let then = &parts[0].then;
        // The camera still sees the disc on sq2: the leg slipped.
        let broken = unmet(then, |l| l == "sq2");
        assert_eq!(broken.len(), 1);
        let again = broken[0]
            .redo(|l| (l == "sq2").then_some([11.0, 19.5]))
            .unwrap();
        assert_eq!(again.from_location, "sq2");
        assert_eq!(again.to_location, "station");
        assert!((again.from_position.x - 0.11).abs() < 1e-12);
        assert!((again.from_position.y - 0.195).abs() < 1e-12);
        assert_eq!(again.from_position.z, 0.01, "the height is the plan's");
        // The square is empty: nothing to do again.
        assert!(unmet(then, |_| false).is_empty());
    }

    #[test]
    fn a_piece_that_went_astray_is_not_taken_again() {
        let parts = split(
            vec![transfer("p", "sq1", "sq2"), transfer("p", "sq2", "sq3")],
            sees,
        );
        // Nothing on sq2, nothing left on sq1: lost on the way.
        let broken = unmet(&parts[0].then, |_| false);
        assert_eq!(broken.len(), 1);
        assert_eq!(broken[0].redo(|_| None), None);
    }
}
