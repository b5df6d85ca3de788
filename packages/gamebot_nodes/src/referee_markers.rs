//! What the referee believes, as RViz markers on `/visualization_marker_array`.
//!
//! [`markers`] is pure: from the game, the current state, an optional
//! selected location and the transfers being carried out it builds one
//! `MarkerArray` in `base_link` (metres):
//!
//! - `locations` — a flat grey disc on every location with a position;
//! - `pieces` — a cylinder per element on such a location, coloured by owner
//!   (stacks drawn one above the other);
//! - `targets` — a green sphere on every location the selected element can
//!   move to by a legal move (the physical transfers of each legal move that
//!   start at the selected location);
//! - `transfer` — an arrow per transfer of the move the arm carries out;
//! - `turn` — text above the board: whose turn it is, or the result.
//!
//! The first marker is a `DELETEALL`, so markers of a previous position
//! never linger. Positions come from the game's `robot=x,y,z` (cm, arm base
//! frame) through the board's registered placement, the same positions the
//! arm is sent to; locations given only by servo angles or board pixels have no
//! position the referee can know without the arm and board configuration,
//! and are not drawn.
//!
//! [`MarkerPublisher`] is the thin part the referee node holds.

use crate::referee_core::{ActionInfo, Played, RefereeCore};
use crate::NodeError;
use gamebot_interfaces::geometry_msgs::{Point, Pose, Vector3};
use gamebot_interfaces::std_msgs::{ColorRGBA, Header};
use gamebot_interfaces::visualization_msgs::{Marker, MarkerArray};
use gamebot_ros::{graph, Bus, Publisher};
use gamebot_rules::model::LocationId;
use gamebot_rules::{physical_actions, Game, PhysicalAction, State};

/// The frame every marker is given in.
pub const FRAME: &str = "base_link";

/// Height (m) of a piece cylinder.
pub const PIECE_HEIGHT_M: f64 = 0.01;
/// Diameter (m) of a piece cylinder.
pub const PIECE_DIAMETER_M: f64 = 0.02;

/// A transfer to draw as an arrow: element and its two positions (m).
#[derive(Clone, Debug, PartialEq)]
pub struct TransferArrow {
    pub element: String,
    pub from: [f64; 3],
    pub to: [f64; 3],
}

impl TransferArrow {
    /// The transfers among `actions` whose both ends have positions.
    pub fn from_actions(actions: &[ActionInfo]) -> Vec<TransferArrow> {
        actions
            .iter()
            .filter(|a| matches!(a.action, PhysicalAction::Transfer { .. }))
            .filter_map(|a| {
                Some(TransferArrow {
                    element: a.element.clone(),
                    from: cm_to_m(a.from_position?),
                    to: cm_to_m(a.to_position?),
                })
            })
            .collect()
    }
}

fn cm_to_m([x, y, z]: [f64; 3]) -> [f64; 3] {
    [x / 100.0, y / 100.0, z / 100.0]
}

/// Locations the element on `selected` can reach by one legal move: the
/// destinations of the legal moves' transfers that start there.
pub fn legal_targets(
    game: &Game,
    state: &State,
    selected: LocationId,
) -> Result<Vec<LocationId>, NodeError> {
    let mut out = Vec::new();
    if state.is_over() || state.content(selected).is_none() {
        return Ok(out);
    }
    let moves = game
        .legal_moves(state)
        .map_err(|e| NodeError::Config(format!("markers: legal moves: {e}")))?;
    for mv in moves {
        let mut next = state.clone();
        game.apply(&mut next, &mv)
            .map_err(|e| NodeError::Config(format!("markers: applying a legal move: {e}")))?;
        let actions = physical_actions(game, state, &next)
            .map_err(|e| NodeError::Config(format!("markers: physical actions: {e}")))?;
        for a in actions {
            if let PhysicalAction::Transfer { from, to, .. } = a {
                if from == selected && !out.contains(&to) {
                    out.push(to);
                }
            }
        }
    }
    out.sort_unstable();
    Ok(out)
}

fn colour(r: f32, g: f32, b: f32, a: f32) -> ColorRGBA {
    ColorRGBA { r, g, b, a }
}

/// Colour of a piece of `owner` (player number; 0 = nobody).
pub fn owner_colour(owner: i32) -> ColorRGBA {
    match owner {
        1 => colour(0.95, 0.95, 0.9, 1.0),
        2 => colour(0.1, 0.1, 0.12, 1.0),
        3 => colour(0.85, 0.15, 0.1, 1.0),
        4 => colour(0.1, 0.3, 0.85, 1.0),
        _ => colour(0.8, 0.6, 0.2, 1.0),
    }
}

fn point([x, y, z]: [f64; 3]) -> Point {
    Point { x, y, z }
}

fn marker(ns: &str, id: i32, kind: i32) -> Marker {
    Marker {
        header: Header {
            frame_id: FRAME.into(),
            ..Default::default()
        },
        ns: ns.into(),
        id,
        r#type: kind,
        action: Marker::ADD,
        ..Default::default()
    }
}

fn at(p: [f64; 3]) -> Pose {
    Pose {
        position: point(p),
        ..Default::default()
    }
}

/// The marker array of `state`: see the module docs. `positions`: where
/// each location lies (m, `base_link`, in game order;
/// [`RefereeCore::location_positions_m`], through the registered placement).
pub fn markers(
    game: &Game,
    state: &State,
    positions: &[Option<[f64; 3]>],
    selected: Option<LocationId>,
    transfers: &[TransferArrow],
) -> Result<MarkerArray, NodeError> {
    let mut out = vec![Marker {
        action: Marker::DELETEALL,
        ..marker("", 0, Marker::CUBE)
    }];
    for (l, p) in positions.iter().enumerate() {
        let Some(p) = *p else { continue };
        let mut m = marker("locations", l as i32, Marker::CYLINDER);
        m.pose = at([p[0], p[1], p[2] + 0.0005]);
        m.scale = Vector3 {
            x: 0.025,
            y: 0.025,
            z: 0.001,
        };
        m.color = if game.is_relevant(l as LocationId) {
            colour(0.6, 0.6, 0.6, 0.5)
        } else {
            colour(0.4, 0.5, 0.7, 0.35)
        };
        m.text = game.locations[l].name.clone();
        out.push(m);
    }
    // Pieces: in z-order per location, each above the last.
    let mut stack_height = vec![0.0f64; game.locations.len()];
    let mut elements: Vec<usize> = (0..state.element_count()).collect();
    elements.sort_by_key(|&e| state.zindex(e as _));
    for e in elements {
        let l = state.location_of(e as _) as usize;
        let Some(p) = positions.get(l).copied().flatten() else {
            continue;
        };
        let mut m = marker("pieces", e as i32, Marker::CYLINDER);
        m.pose = at([p[0], p[1], p[2] + stack_height[l] + PIECE_HEIGHT_M / 2.0]);
        stack_height[l] += PIECE_HEIGHT_M;
        m.scale = Vector3 {
            x: PIECE_DIAMETER_M,
            y: PIECE_DIAMETER_M,
            z: PIECE_HEIGHT_M,
        };
        m.color = owner_colour(state.owner(e as _));
        m.text = game.elements[e].name.clone();
        out.push(m);
    }
    if let Some(sel) = selected {
        for to in legal_targets(game, state, sel)? {
            let Some(p) = positions.get(to as usize).copied().flatten() else {
                continue;
            };
            let mut m = marker("targets", to as i32, Marker::SPHERE);
            m.pose = at([p[0], p[1], p[2] + 0.005]);
            m.scale = Vector3 {
                x: 0.012,
                y: 0.012,
                z: 0.012,
            };
            m.color = colour(0.1, 0.8, 0.2, 0.8);
            m.text = game.locations[to as usize].name.clone();
            out.push(m);
        }
    }
    for (i, t) in transfers.iter().enumerate() {
        let lift = 0.04;
        let mut m = marker("transfer", i as i32, Marker::ARROW);
        m.points = vec![
            point([t.from[0], t.from[1], t.from[2] + lift]),
            point([t.to[0], t.to[1], t.to[2] + lift]),
        ];
        m.scale = Vector3 {
            x: 0.004,
            y: 0.008,
            z: 0.01,
        };
        m.color = colour(1.0, 0.55, 0.0, 0.9);
        m.text = t.element.clone();
        out.push(m);
    }
    let mut m = marker("turn", 0, Marker::TEXT_VIEW_FACING);
    let placed: Vec<[f64; 3]> = positions.iter().flatten().copied().collect();
    let centre = if placed.is_empty() {
        [0.0, 0.18, 0.0]
    } else {
        let n = placed.len() as f64;
        [
            placed.iter().map(|p| p[0]).sum::<f64>() / n,
            placed.iter().map(|p| p[1]).sum::<f64>() / n,
            placed.iter().map(|p| p[2]).fold(f64::MIN, f64::max),
        ]
    };
    m.pose = at([centre[0], centre[1], centre[2] + 0.12]);
    m.scale.z = 0.02;
    m.color = colour(1.0, 1.0, 1.0, 1.0);
    m.text = turn_text(game, state);
    out.push(m);
    Ok(MarkerArray { markers: out })
}

fn player_name(game: &Game, p: i32) -> String {
    game.players
        .get((p - 1).max(0) as usize)
        .cloned()
        .unwrap_or_else(|| format!("player {p}"))
}

/// `<player> to move`, or the result.
pub fn turn_text(game: &Game, state: &State) -> String {
    let o = state.outcome();
    if o.is_over() {
        match o.winner() {
            Some(w) => format!("{}: {} wins", game.name, player_name(game, w)),
            None => format!("{}: draw", game.name),
        }
    } else {
        format!(
            "{}: {} to move",
            game.name,
            player_name(game, state.player())
        )
    }
}

/// The referee's marker publisher: remembers the transfers of the latest
/// move (what the arm is carrying out) and republishes with every state.
pub struct MarkerPublisher {
    publisher: Publisher<MarkerArray>,
    transfers: Vec<TransferArrow>,
    selected: Option<LocationId>,
}

impl MarkerPublisher {
    /// Advertises [`graph::MARKERS`].
    pub fn new<B: Bus>(bus: &B) -> Result<MarkerPublisher, NodeError> {
        Ok(MarkerPublisher {
            publisher: bus.publisher_on(&graph::MARKERS)?,
            transfers: Vec::new(),
            selected: None,
        })
    }

    /// A move was played: its transfers are drawn until the next one.
    pub fn moved(&mut self, played: &Played) {
        self.transfers = TransferArrow::from_actions(&played.actions);
    }

    /// Selects the element on a location (its legal targets are drawn), or none.
    pub fn select(&mut self, location: Option<LocationId>) {
        self.selected = location;
    }

    /// Publishes the markers of the referee's current position. Errors are
    /// logged, not returned: markers are a view and must not stop the game.
    pub fn publish(&mut self, core: &RefereeCore) {
        if core.history().is_empty() {
            self.transfers.clear();
        }
        match markers(
            core.game(),
            core.state(),
            &core.location_positions_m(),
            self.selected,
            &self.transfers,
        ) {
            Ok(m) => {
                if let Err(e) = self.publisher.publish(&m) {
                    tracing::warn!("{}: {e}", graph::MARKERS.name);
                }
            }
            Err(e) => tracing::warn!("{}: {e}", graph::MARKERS.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee_core::PlayerKind;
    use gamebot_ros::inproc::InProcBus;
    use gamebot_ros::NodeOptions;
    use std::collections::BTreeMap;
    use std::sync::Arc;

    fn game(name: &str) -> Arc<Game> {
        let path = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../games"))
            .join(name);
        Arc::new(Game::load(&path).unwrap())
    }

    fn humans(g: &Game) -> Vec<PlayerKind> {
        vec![PlayerKind::Human; g.player_count()]
    }

    fn by_ns<'a>(a: &'a MarkerArray, ns: &str) -> Vec<&'a Marker> {
        a.markers.iter().filter(|m| m.ns == ns).collect()
    }

    /// Every piece marker sits on its element's location, each occupied
    /// positioned location has exactly its pieces, and the text names the
    /// player to move — checked against the state after each move.
    #[test]
    fn pieces_follow_the_state_through_a_game() {
        let g = game("tictactoe.game");
        let mut core = RefereeCore::new(g.clone(), humans(&g)).unwrap();
        for text in ["a:b2", "a:a1", "a:c3"] {
            let text = core
                .legal_texts()
                .into_iter()
                .find(|t| t.ends_with(&text[2..]))
                .unwrap_or_else(|| core.legal_texts()[0].clone());
            let played = core.submit(&text).unwrap();
            let arrows = TransferArrow::from_actions(&played.actions);
            let pos = core.location_positions_m();
            let a = markers(&g, core.state(), &pos, None, &arrows).unwrap();
            assert_eq!(a.markers[0].action, Marker::DELETEALL);
            let st = core.state();
            let mut expected = BTreeMap::new();
            for e in 0..st.element_count() {
                let l = st.location_of(e as _);
                if let Some(p) = pos[l as usize] {
                    expected.insert(e as i32, p);
                }
            }
            let pieces = by_ns(&a, "pieces");
            assert_eq!(pieces.len(), expected.len());
            for m in pieces {
                let p = expected[&m.id];
                assert!((m.pose.position.x - p[0]).abs() < 1e-9);
                assert!((m.pose.position.y - p[1]).abs() < 1e-9);
                assert!(m.pose.position.z > p[2]);
                assert_eq!(m.text, g.elements[m.id as usize].name);
                assert_eq!(m.color, owner_colour(st.owner(m.id as _)));
                assert_eq!(m.header.frame_id, FRAME);
            }
            // The move's transfer as an arrow ending on its destination.
            let arrows = by_ns(&a, "transfer");
            assert_eq!(arrows.len(), played.actions.len());
            let to = played.actions[0].to_position.unwrap();
            assert!((arrows[0].points[1].x - to[0] / 100.0).abs() < 1e-9);
            assert!((arrows[0].points[1].y - to[1] / 100.0).abs() < 1e-9);
            let turn = by_ns(&a, "turn");
            assert_eq!(turn.len(), 1);
            assert_eq!(turn[0].text, turn_text(&g, st));
            assert!(turn[0].text.contains(&player_name(&g, st.player())));
        }
        let pos = core.location_positions_m();
        let locs = by_ns(
            &markers(&g, core.state(), &pos, None, &[]).unwrap(),
            "locations",
        )
        .len();
        assert_eq!(locs, pos.iter().flatten().count());
    }

    /// The selected piece's targets are exactly the destinations of the
    /// legal moves that start from its location.
    #[test]
    fn targets_of_the_selected_piece_are_its_legal_destinations() {
        let g = game("alquerque.game");
        let core = RefereeCore::new(g.clone(), humans(&g)).unwrap();
        let st = core.state();
        let moves = g.legal_moves(st).unwrap();
        // Some location the first legal move starts from.
        let mut next = st.clone();
        g.apply(&mut next, &moves[0]).unwrap();
        let first = physical_actions(&g, st, &next).unwrap();
        let PhysicalAction::Transfer { from, .. } = first[0] else {
            panic!("alquerque moves are transfers")
        };
        let targets = legal_targets(&g, st, from).unwrap();
        assert!(!targets.is_empty());
        for mv in &moves {
            let mut n = st.clone();
            g.apply(&mut n, mv).unwrap();
            for a in physical_actions(&g, st, &n).unwrap() {
                if let PhysicalAction::Transfer { from: f, to, .. } = a {
                    if f == from {
                        assert!(targets.contains(&to));
                    }
                }
            }
        }
        let pos = core.location_positions_m();
        let a = markers(&g, st, &pos, Some(from), &[]).unwrap();
        let shown: Vec<i32> = by_ns(&a, "targets").iter().map(|m| m.id).collect();
        let want: Vec<i32> = targets
            .iter()
            .filter(|&&t| pos[t as usize].is_some())
            .map(|&t| t as i32)
            .collect();
        assert_eq!(shown, want);
        // An empty location selects nothing.
        let empty = (0..g.locations.len() as LocationId)
            .find(|&l| st.content(l).is_none())
            .unwrap();
        assert!(legal_targets(&g, st, empty).unwrap().is_empty());
    }

    /// The node's hook: the markers of the position arrive on the bus.
    #[test]
    fn markers_are_published_on_the_in_process_bus() {
        let graph_bus = InProcBus::new();
        let bus = graph_bus.node(NodeOptions::new("referee")).unwrap();
        let rviz = graph_bus.node(NodeOptions::new("rviz")).unwrap();
        let sub = rviz.subscription_on(&graph::MARKERS).unwrap();
        let g = game("tictactoe.game");
        let mut core = RefereeCore::new(g.clone(), humans(&g)).unwrap();
        let mut p = MarkerPublisher::new(&bus).unwrap();
        let played = core.submit(&core.legal_texts()[0].clone()).unwrap();
        p.moved(&played);
        p.publish(&core);
        let got = sub.recv_timeout(std::time::Duration::from_secs(5)).unwrap();
        let want = markers(
            &g,
            core.state(),
            &core.location_positions_m(),
            None,
            &TransferArrow::from_actions(&played.actions),
        )
        .unwrap();
        assert_eq!(got, want);
        assert_eq!(by_ns(&got, "transfer").len(), 1);
        assert!(!by_ns(&got, "pieces").is_empty());
    }

    /// A registered board moves what RViz shows exactly as it moves the
    /// positions sent to the arm.
    #[test]
    fn markers_follow_the_registered_placement() {
        let g = game("tictactoe.game");
        let mut core = RefereeCore::new(g.clone(), humans(&g)).unwrap();
        let plain = core.location_positions_m();
        let a4 = gamebot_kinematics::Board::load_named("a4").unwrap();
        let text = std::fs::read_to_string(a4.path()).unwrap()
            + "placement: {offset_mm: [7, -4], rotation_deg: 0}\n";
        core.set_board(Some(
            gamebot_kinematics::Board::parse(a4.path(), &text).unwrap(),
        ));
        let moved = core.location_positions_m();
        let a = markers(&g, core.state(), &moved, None, &[]).unwrap();
        let locations = by_ns(&a, "locations");
        assert!(!locations.is_empty());
        for m in locations {
            let (p, q) = (plain[m.id as usize].unwrap(), moved[m.id as usize].unwrap());
            assert!((q[0] - p[0] - 0.007).abs() < 1e-9 && (q[1] - p[1] + 0.004).abs() < 1e-9);
            assert!((m.pose.position.x - q[0]).abs() < 1e-9);
            assert!((m.pose.position.y - q[1]).abs() < 1e-9);
        }
    }
}
