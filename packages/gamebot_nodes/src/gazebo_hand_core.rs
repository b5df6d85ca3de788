//! The simulated person's hand in Gazebo, pure part: which piece models to
//! put where for one person's turn (no transport; see [`crate::gazebo_hand`]
//! for the node).
//!
//! In the built-in simulator a hand carries the pieces (`sim_world`). In
//! Gazebo there is no hand: the node teleports each piece model with
//! Gazebo's set-pose service. What this module decides:
//!
//! - **Where things are.** The layout — each location's surface point, each
//!   element's model with its size, the off-board spot — is the one
//!   [`gamebot_gazebo::TableWorld::build`] computes for `gamebot gazebo
//!   world` (so the node and the SDF agree by construction). Where each
//!   model *is* comes from Gazebo only: the poses of the world's pose info
//!   ([`PoseTable`], from `tf2_msgs/TFMessage`, `child_frame_id` = model
//!   name).
//! - **Which physical actions.** The same [`hand_actions`] as `sim_world`:
//!   the rule engine's transfers and flips of the turn, the top piece of a
//!   stack preferred.
//! - **Which model each action moves** ([`plan`]). The rules track which
//!   element is where; the person takes what lies there (pieces of one type
//!   may have traded names through an inferred equivalent move). So each
//!   transfer takes the top-most model lying on its `from` (within
//!   [`ON_LOCATION_M`] in x/y, resting on the stack), and the plan is played
//!   on a location → stack map as it goes: a transfer from a place this turn
//!   already put a piece on (a twist's buffer) takes that piece; a flip
//!   turns the model this turn's transfer of that element moved, else the
//!   top model on the element's location. When nothing lies on `from`, a
//!   model of the same type on the nearest irrelevant location (a supply the
//!   camera does not tell apart) stands in, as in `sim_world`.
//! - **Target poses.** A transfer puts the model on the target location's
//!   x/y with its bottom on the top of the stack there (the location's
//!   surface when empty) — the world generator's stacking — keeping its
//!   orientation; a place without a position sends it to the off-board spot
//!   (stacked too). A flip turns the model over in place: its orientation
//!   rolled by π about the world x axis, its centre unchanged. Model poses
//!   are the cylinder's centre (bottom + height / 2), as in the SDF.
//!
//! Refusals name the piece, the location and why; nothing here panics on
//! input from the graph (malformed poses are errors naming the entry).

use crate::sim_world::hand_actions;
use gamebot_gazebo::{StationSpec, TableWorld};
use gamebot_interfaces::geometry_msgs::{Point, Pose, Quaternion};
use gamebot_interfaces::tf2_msgs::TFMessage;
use gamebot_rules::{Game, State};
use gamebot_sim::{HandAction, HandTarget};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A model lies on a location when its centre is this close in x/y (m): the
/// built-in simulator's hand uses the same (`World::top_piece_at`, at least
/// 15 mm).
pub const ON_LOCATION_M: f64 = 0.015;
/// A model whose bottom is more than this above the top of what lies under
/// it is not resting there (the gripper carries it, or it is falling).
pub const RESTING_GAP_M: f64 = 0.005;
/// Locations closer than this are one place (mill's bin slot k lies on
/// supply slot k).
const SAME_SPOT_M: f64 = 0.001;

/// A model's pose in the world: the position of its origin (the cylinder's
/// centre) in metres and its orientation as a unit quaternion `[x, y, z, w]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelPose {
    pub position: [f64; 3],
    pub orientation: [f64; 4],
}

impl ModelPose {
    /// Upright at `position`.
    pub fn upright(position: [f64; 3]) -> ModelPose {
        ModelPose {
            position,
            orientation: [0.0, 0.0, 0.0, 1.0],
        }
    }

    /// The same pose turned over: rolled by π about the world x axis
    /// (`q' = (1, 0, 0, 0) ⊗ q`), the position unchanged; the sign is chosen
    /// with `w ≥ 0`.
    pub fn turned_over(&self) -> ModelPose {
        let [x, y, z, w] = self.orientation;
        let mut q = [w, -z, y, -x];
        if q[3] < 0.0 {
            q = q.map(|c| -c);
        }
        ModelPose {
            position: self.position,
            orientation: q,
        }
    }

    /// Whether the model's own z axis points up (the piece lies the right
    /// way up rather than turned over).
    pub fn is_upright(&self) -> bool {
        let [x, y, _, _] = self.orientation;
        1.0 - 2.0 * (x * x + y * y) > 0.0
    }

    /// As a `geometry_msgs/Pose`.
    pub fn to_msg(&self) -> Pose {
        let [x, y, z] = self.position;
        let [qx, qy, qz, qw] = self.orientation;
        Pose {
            position: Point { x, y, z },
            orientation: Quaternion {
                x: qx,
                y: qy,
                z: qz,
                w: qw,
            },
        }
    }
}

/// A piece as a Gazebo model.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceSpec {
    /// SDF model name (`piece_<element>`).
    pub model: String,
    /// The element the model was made for.
    pub element: String,
    pub element_type: String,
    /// Cylinder height and radius (m).
    pub height: f64,
    pub radius: f64,
    /// Where the world file puts it (a new game's layout).
    pub initial: ModelPose,
}

/// The Gazebo table of one game: where the locations are and which model
/// is which piece, as `gamebot gazebo world` wrote them.
#[derive(Clone, Debug)]
pub struct GazeboTable {
    game: Arc<Game>,
    /// By model name.
    pieces: BTreeMap<String, PieceSpec>,
    /// Element name → model name.
    model_of: BTreeMap<String, String>,
    /// Surface point (m) of each location id, if it has a place on the table.
    places: Vec<Option<[f64; 3]>>,
    /// Where pieces taken to a place without a position go.
    off_board: [f64; 3],
    /// The board's turn-over station.
    station: Option<StationSpec>,
}

/// One set-pose call of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The model to move.
    pub model: String,
    /// The rules' element the step is for (may differ from the model's own
    /// element: pieces of one type trade names).
    pub element: String,
    /// Where it goes.
    pub pose: ModelPose,
    /// The location it ends on (`off the board` for the off-board spot).
    pub location: String,
    /// The location a transfer takes it from: where the model lay (a
    /// stand-in's supply place, not the rules' one); none for a flip or a layout.
    pub from: Option<String>,
    /// What the step does, for messages (`piece_x1 from cell_1_1 to bin_1`).
    pub what: String,
}

impl GazeboTable {
    /// The table of `game` as `world` (built from that game) lays it out.
    pub fn new(game: Arc<Game>, world: &TableWorld) -> Result<GazeboTable, String> {
        let mut places = vec![None; game.locations.len()];
        for m in &world.marks {
            let l = game
                .locations
                .iter()
                .position(|l| l.name == m.location)
                .ok_or_else(|| {
                    format!(
                        "the world marks location {}, which game {} does not have",
                        m.location, game.name
                    )
                })?;
            places[l] = Some(m.position);
        }
        let mut pieces = BTreeMap::new();
        let mut model_of = BTreeMap::new();
        for p in &world.pieces {
            let e = game
                .elements
                .iter()
                .position(|e| e.name == p.element)
                .ok_or_else(|| {
                    format!(
                        "the world has a model for element {}, which game {} does not have",
                        p.element, game.name
                    )
                })?;
            let element_type = game.element_type_of(e as u16).name.clone();
            model_of.insert(p.element.clone(), p.model.clone());
            pieces.insert(
                p.model.clone(),
                PieceSpec {
                    model: p.model.clone(),
                    element: p.element.clone(),
                    element_type,
                    height: p.height,
                    radius: p.radius,
                    initial: ModelPose::upright([
                        p.position[0],
                        p.position[1],
                        p.position[2] + p.height / 2.0,
                    ]),
                },
            );
        }
        Ok(GazeboTable {
            game,
            pieces,
            model_of,
            places,
            off_board: world.off_board,
            station: world.flip_station,
        })
    }

    /// The game.
    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }

    /// The piece models, by name.
    pub fn pieces(&self) -> &BTreeMap<String, PieceSpec> {
        &self.pieces
    }

    /// The model of an element, if the world has one.
    pub fn model_of(&self, element: &str) -> Option<&str> {
        self.model_of.get(element).map(String::as_str)
    }

    /// The surface point (m) of a location, if it has a place on the table.
    pub fn place(&self, location: &str) -> Option<[f64; 3]> {
        let l = self
            .game
            .locations
            .iter()
            .position(|l| l.name == location)?;
        self.places[l]
    }

    /// The spot beside the sheet for pieces taken to a place without a position.
    pub fn off_board(&self) -> [f64; 3] {
        self.off_board
    }

    /// A new game's layout: every piece model where the world file puts it,
    /// upright.
    pub fn initial_layout(&self) -> Vec<Step> {
        self.pieces
            .values()
            .map(|p| Step {
                model: p.model.clone(),
                element: p.element.clone(),
                pose: p.initial,
                location: "its initial place".into(),
                from: None,
                what: format!("{} to its initial place", p.model),
            })
            .collect()
    }
}

/// The piece models' poses as Gazebo last reported them.
#[derive(Clone, Debug, Default)]
pub struct PoseTable {
    poses: BTreeMap<String, ModelPose>,
    messages: u64,
}

impl PoseTable {
    /// An empty table (nothing reported yet).
    pub fn new() -> PoseTable {
        PoseTable::default()
    }

    /// Takes the poses of `table`'s piece models from one pose-info message
    /// (other entities — the table, the arm's links, the pieces' links — are
    /// not pieces and are skipped). A piece's entry with a non-finite
    /// position or a quaternion far from unit length is an error naming it;
    /// the message's good entries are taken all the same. Returns how many
    /// piece poses were taken.
    pub fn update(&mut self, table: &GazeboTable, msg: &TFMessage) -> Result<usize, String> {
        self.messages += 1;
        let mut taken = 0;
        let mut bad = Vec::new();
        for (i, t) in msg.transforms.iter().enumerate() {
            let name = t.child_frame_id.as_str();
            if !table.pieces.contains_key(name) {
                continue;
            }
            let v = &t.transform.translation;
            let r = &t.transform.rotation;
            let position = [v.x, v.y, v.z];
            let q = [r.x, r.y, r.z, r.w];
            if !position.iter().all(|c| c.is_finite()) {
                bad.push(format!(
                    "entry {i} ({name}): position {position:?} is not finite"
                ));
                continue;
            }
            let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
            if !(n.is_finite() && (0.9..=1.1).contains(&n)) {
                bad.push(format!(
                    "entry {i} ({name}): orientation {q:?} is not a unit quaternion"
                ));
                continue;
            }
            self.poses.insert(
                name.to_string(),
                ModelPose {
                    position,
                    orientation: q.map(|c| c / n),
                },
            );
            taken += 1;
        }
        if bad.is_empty() {
            Ok(taken)
        } else {
            Err(format!("malformed pose info: {}", bad.join("; ")))
        }
    }

    /// A model's last reported pose.
    pub fn get(&self, model: &str) -> Option<&ModelPose> {
        self.poses.get(model)
    }

    /// Sets a model's pose (what a successful set-pose made it).
    pub fn set(&mut self, model: &str, pose: ModelPose) {
        self.poses.insert(model.to_string(), pose);
    }

    /// How many piece poses are known.
    pub fn len(&self) -> usize {
        self.poses.len()
    }

    /// Whether no piece pose is known.
    pub fn is_empty(&self) -> bool {
        self.poses.is_empty()
    }

    /// Pose-info messages seen.
    pub fn messages(&self) -> u64 {
        self.messages
    }
}

/// The places of the table as stacks of models, bottom first.
struct Stacks<'a> {
    table: &'a GazeboTable,
    /// Distinct spots: surface points (locations on one spot share it).
    spots: Vec<[f64; 3]>,
    /// Spot of each location id.
    spot_of: Vec<Option<usize>>,
    off_spot: usize,
    stacks: Vec<Vec<String>>,
    /// Every model's pose as the plan goes on.
    poses: BTreeMap<String, ModelPose>,
}

impl<'a> Stacks<'a> {
    fn new(table: &'a GazeboTable, poses: &PoseTable) -> Stacks<'a> {
        let mut spots: Vec<[f64; 3]> = Vec::new();
        let mut spot = |p: [f64; 3]| -> usize {
            match spots
                .iter()
                .position(|s| (s[0] - p[0]).hypot(s[1] - p[1]) < SAME_SPOT_M)
            {
                Some(i) => i,
                None => {
                    spots.push(p);
                    spots.len() - 1
                }
            }
        };
        let spot_of: Vec<Option<usize>> = table.places.iter().map(|p| p.map(&mut spot)).collect();
        let off_spot = spot(table.off_board);
        let mut stacks: Vec<Vec<(f64, String)>> = vec![Vec::new(); spots.len()];
        for (model, pose) in &poses.poses {
            let Some(spec) = table.pieces.get(model) else {
                continue;
            };
            let p = pose.position;
            let nearest = spots
                .iter()
                .enumerate()
                .map(|(i, s)| (i, (s[0] - p[0]).hypot(s[1] - p[1])))
                .filter(|(_, d)| *d <= ON_LOCATION_M)
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((i, _)) = nearest {
                stacks[i].push((p[2] - spec.height / 2.0, model.clone()));
            }
        }
        let stacks = stacks
            .into_iter()
            .zip(&spots)
            .map(|(mut s, at)| {
                s.sort_by(|a, b| a.0.total_cmp(&b.0));
                // Only what rests on the stack below counts.
                let mut top = at[2];
                let mut out = Vec::new();
                for (bottom, model) in s {
                    if bottom <= top + RESTING_GAP_M {
                        top = top.max(bottom + table.pieces[&model].height);
                        out.push(model);
                    }
                }
                out
            })
            .collect();
        Stacks {
            table,
            spots,
            spot_of,
            off_spot,
            stacks,
            poses: poses.poses.clone(),
        }
    }

    fn location_spot(&self, name: &str) -> Option<usize> {
        let l = self
            .table
            .game
            .locations
            .iter()
            .position(|l| l.name == name)?;
        self.spot_of[l]
    }

    /// Height (m) of the top of the stack on a spot (its surface when empty).
    fn top(&self, spot: usize) -> f64 {
        self.stacks[spot]
            .iter()
            .map(|m| self.poses[m].position[2] + self.table.pieces[m].height / 2.0)
            .fold(self.spots[spot][2], f64::max)
    }

    /// A model of `element_type` on top of the irrelevant location nearest
    /// to `spot`: what a person takes when the rules' piece is not where they
    /// track it (a supply the camera does not tell apart).
    fn stand_in(&self, element_type: &str, spot: usize) -> Option<(usize, String, String)> {
        let at = self.spots[spot];
        let g = &self.table.game;
        let mut best: Option<(f64, usize, String, String)> = None;
        for (l, loc) in g.locations.iter().enumerate() {
            if g.is_relevant(l as u16) {
                continue;
            }
            let Some(s) = self.spot_of[l] else {
                continue;
            };
            let Some(top) = self.stacks[s].last() else {
                continue;
            };
            if self.table.pieces[top].element_type != element_type {
                continue;
            }
            let p = self.spots[s];
            let d = (p[0] - at[0]).hypot(p[1] - at[1]);
            if best.as_ref().is_none_or(|(bd, _, _, _)| d < *bd) {
                best = Some((d, s, top.clone(), loc.name.clone()));
            }
        }
        best.map(|(_, s, m, l)| (s, m, l))
    }
}

/// The set-pose calls that make the person's turn `text` (one or more rule
/// moves separated by spaces) from `state`, with the models where `poses`
/// says. Refuses an illegal move, a move from a place where no model of
/// the right type lies, an element without a model, and a start with no
/// pose info at all — naming the piece and the location.
pub fn plan(
    table: &GazeboTable,
    state: &State,
    text: &str,
    poses: &PoseTable,
) -> Result<Vec<Step>, String> {
    let game = &table.game;
    let place = |l: u16| table.places.get(l as usize).copied().flatten();
    let off = table.off_board;
    let (actions, _) = hand_actions(game, state, text, place, [off[0], off[1]])?;
    if poses.is_empty() {
        return Err("Gazebo has reported no piece pose yet".into());
    }
    let mut s = Stacks::new(table, poses);
    let mut steps = Vec::new();
    // Element → the model this turn's transfer of it moved.
    let mut taken: BTreeMap<String, String> = BTreeMap::new();
    for a in actions {
        match a {
            HandAction::Transfer { element, from, to } => {
                let e = game
                    .elements
                    .iter()
                    .position(|x| x.name == element)
                    .ok_or_else(|| format!("no element {element}"))?;
                let ty = game.element_type_of(e as u16).name.clone();
                let fs = s
                    .location_spot(&from)
                    .ok_or_else(|| format!("{element} comes from {from}, which has no place"))?;
                let (spot, model, from) = match s.stacks[fs].last() {
                    Some(m) => (fs, m.clone(), from),
                    None => s.stand_in(&ty, fs).ok_or_else(|| {
                        format!(
                            "{element} is to be taken from {from}, but no piece model lies there \
                             (nor a {ty} on a supply place) in the poses Gazebo reported"
                        )
                    })?,
                };
                let spec = &table.pieces[&model];
                if spec.element_type != ty {
                    return Err(format!(
                        "{element} ({ty}) is to be taken from {from}, but the model on top there \
                         is {model}, a {}",
                        spec.element_type
                    ));
                }
                s.stacks[spot].pop();
                let (ts, location) = match &to {
                    HandTarget::Location(l) => (
                        s.location_spot(l)
                            .ok_or_else(|| format!("{element} goes to {l}, which has no place"))?,
                        l.clone(),
                    ),
                    HandTarget::Table(_) => (s.off_spot, "off the board".to_string()),
                };
                let at = s.spots[ts];
                let bottom = s.top(ts);
                let pose = ModelPose {
                    position: [at[0], at[1], bottom + spec.height / 2.0],
                    orientation: s.poses[&model].orientation,
                };
                s.stacks[ts].push(model.clone());
                s.poses.insert(model.clone(), pose);
                taken.insert(element.clone(), model.clone());
                steps.push(Step {
                    what: format!("{model} ({element}) from {from} to {location}"),
                    model,
                    element,
                    pose,
                    location,
                    from: Some(from),
                });
            }
            HandAction::Flip { element } => {
                let e = game
                    .elements
                    .iter()
                    .position(|x| x.name == element)
                    .ok_or_else(|| format!("no element {element}"))?;
                let at = &game.locations[state.location_of(e as u16) as usize].name;
                let model = match taken.get(&element) {
                    Some(m) => m.clone(),
                    None => {
                        let sp = s.location_spot(at).ok_or_else(|| {
                            format!("{element} is to be turned over on {at}, which has no place")
                        })?;
                        s.stacks[sp].last().cloned().ok_or_else(|| {
                            format!(
                                "{element} is to be turned over on {at}, but no piece model lies \
                                 there in the poses Gazebo reported"
                            )
                        })?
                    }
                };
                let pose = s.poses[&model].turned_over();
                s.poses.insert(model.clone(), pose);
                let location = steps
                    .iter()
                    .rev()
                    .find(|st: &&Step| st.model == model)
                    .map(|st| st.location.clone())
                    .unwrap_or_else(|| at.clone());
                steps.push(Step {
                    what: format!("{model} ({element}) turned over on {location}"),
                    model,
                    element,
                    pose,
                    location,
                    from: None,
                });
            }
            HandAction::Cover { .. } => {}
        }
    }
    if steps.is_empty() {
        return Err(format!("{text} moves no piece on the table"));
    }
    Ok(steps)
}

/// The turn-over station in Gazebo (the chute of the built-in simulator's
/// world, `World::release`): every piece model the arm has let go (not in
/// `attached`, the models the gripper holds by the DetachableJoint topics)
/// resting within the station's capture radius of the intake — its bottom
/// at most [`RESTING_GAP_M`] above the intake — goes to the exit turned
/// over, its bottom on the top of what lies there (several at once stack).
/// Nothing without a station.
pub fn station_turns(
    table: &GazeboTable,
    poses: &PoseTable,
    attached: &BTreeSet<String>,
) -> Vec<Step> {
    let Some(f) = table.station else {
        return Vec::new();
    };
    let xy = |a: [f64; 3], b: [f64; 3]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let bottom = |model: &str, p: &ModelPose| p.position[2] - table.pieces[model].height / 2.0;
    let mut steps = Vec::new();
    let mut exit_top = f.exit[2];
    for (model, p) in &poses.poses {
        if xy(p.position, f.exit) <= ON_LOCATION_M {
            exit_top = exit_top.max(p.position[2] + table.pieces[model].height / 2.0);
        }
    }
    for (model, p) in &poses.poses {
        if attached.contains(model)
            || xy(p.position, f.intake) > f.capture_radius
            || bottom(model, p) > f.intake[2] + RESTING_GAP_M
        {
            continue;
        }
        let spec = &table.pieces[model];
        let mut pose = p.turned_over();
        pose.position = [f.exit[0], f.exit[1], exit_top + spec.height / 2.0];
        exit_top += spec.height;
        steps.push(Step {
            model: model.clone(),
            element: spec.element.clone(),
            pose,
            location: "the turn-over station's exit".into(),
            from: None,
            what: format!("{model} through the turn-over station"),
        });
    }
    steps
}

/// Whether `seen` shows a step done: within 5 mm of the target position and
/// the same side up.
pub fn reached(target: &ModelPose, seen: &ModelPose) -> bool {
    let d = (0..3)
        .map(|i| (target.position[i] - seen.position[i]).powi(2))
        .sum::<f64>()
        .sqrt();
    d <= 0.005 && target.is_upright() == seen.is_upright()
}

#[cfg(test)]
mod tests;
