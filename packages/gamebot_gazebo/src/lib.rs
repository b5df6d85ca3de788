//! # gamebot_gazebo
//!
//! The Gazebo (Harmonic, SDF 1.9) world of a game, for `gamebot gazebo world`
//! and `launch/gazebo.launch.py`. Pure: no ROS, no Gazebo needed.
//!
//! [`TableWorld::build`] places everything exactly where the built-in
//! simulator ([`gamebot_sim::World`]) has it: the table (top at z = 0, the
//! arm's base plate on it), the board sheet from the board file, a mark on
//! every location with a position, every element of the game at its initial
//! location (radius from the game's camera signature, colour from its HSV
//! range, stacked like the simulator stacks), and the camera at the pose
//! recovered from the calibration file's homography with the simulated
//! camera's intrinsics. [`TableWorld::to_sdf`] writes it as an SDF element
//! tree with the world systems it needs (physics, sensors with ogre2, user
//! commands, scene broadcaster) and, on every piece, gz-sim's
//! DetachableJoint system so an arm controller can attach the gripped piece
//! to the gripper and release it (grasping small pieces by friction is
//! unreliable in Gazebo). [`check_sdf`] parses an SDF back and checks it
//! against the world: every piece at its location, the camera pose, names
//! unique, lengths in metres.
//!
//! Units: metres and radians in the SDF; the game files' `robot=` are
//! centimetres and are converted by the simulator.

#![forbid(unsafe_code)]

pub mod xml;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use gamebot_rules::{Game, State};
use gamebot_sim::{World, WorldConfig};
use gamebot_vision::calib::{BoardConfig, CameraCalibration};
use gamebot_vision::camera::CameraModel;
use gamebot_vision::hsv::hsv_to_bgr;
use gamebot_vision::render::Renderer;

pub use xml::El;

/// Errors of building, writing or checking a world.
#[derive(Debug, thiserror::Error)]
pub enum GazeboError {
    /// The simulated world could not be built (arm, board, camera files).
    #[error(transparent)]
    Sim(#[from] gamebot_sim::SimError),
    /// The board or camera file.
    #[error(transparent)]
    Vision(#[from] gamebot_vision::VisionError),
    /// The arm's URDF.
    #[error("{path}: {message}")]
    Urdf { path: PathBuf, message: String },
    /// The calibration gives no camera pose.
    #[error("{path}: {message}")]
    Calibration { path: PathBuf, message: String },
    /// Two models or visuals would have the same name.
    #[error("two SDF names `{0}`: element and location names must stay unique after sanitising")]
    DuplicateName(String),
    /// Writing XML.
    #[error("writing the SDF: {0}")]
    Xml(String),
    /// Reading XML.
    #[error("{origin}:{line}: {message}")]
    Parse {
        origin: String,
        line: usize,
        message: String,
    },
    /// The SDF does not match the world.
    #[error("{origin}: {}", problems.join("; "))]
    Check {
        origin: String,
        problems: Vec<String>,
    },
}

/// Name of the world (its topics are `/world/gamebot/...`).
pub const WORLD_NAME: &str = "gamebot";
/// Name the arm gets when spawned (`ros_gz_sim create -name`).
pub const ARM_MODEL: &str = "gamebot";
/// Gazebo topic of the camera images (bridged to `/camera/image_raw`).
pub const CAMERA_TOPIC: &str = "/gamebot/camera/image";
/// Gazebo topic of the camera info (bridged to `/camera/camera_info`).
pub const CAMERA_INFO_TOPIC: &str = "/gamebot/camera/camera_info";
/// Camera frames per second.
pub const CAMERA_RATE_HZ: f64 = 10.0;

/// Table top: x range, y range (m); the top is at z = 0.
const TABLE_X: [f64; 2] = [-0.4, 0.4];
const TABLE_Y: [f64; 2] = [-0.2, 0.5];
const TABLE_THICKNESS: f64 = 0.03;
/// The paper's thickness (m).
const SHEET_THICKNESS: f64 = 0.0002;
/// Mass of one piece (kg): a wooden disc of 2 cm by 1 cm is about 3 g.
const PIECE_MASS: f64 = 0.003;

/// What `gamebot gazebo world` needs besides the game.
#[derive(Clone, Debug)]
pub struct WorldSpec {
    /// Arm name (`al5d`, `desk6`) or arm YAML path.
    pub arm: String,
    /// Board placement: a name under `config/boards/` or a path.
    pub board: String,
    /// Camera calibration file.
    pub camera: PathBuf,
}

impl Default for WorldSpec {
    fn default() -> Self {
        WorldSpec {
            arm: "al5d".into(),
            board: "a4".into(),
            camera: PathBuf::from("config/camera/sim.yaml"),
        }
    }
}

/// A piece as a Gazebo model.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceModel {
    /// SDF model name (`piece_<element>`).
    pub model: String,
    /// Element and the location it starts on.
    pub element: String,
    pub location: String,
    /// Centre of the bottom face (m).
    pub position: [f64; 3],
    pub radius: f64,
    pub height: f64,
    /// RGBA, 0–1: the colour of the side up.
    pub colour: [f64; 4],
    /// RGBA of the side down, for a two-sided piece whose states the camera
    /// tells apart (then each side is a half-height visual).
    pub underside: Option<[f64; 4]>,
}

/// A location mark on the sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// SDF visual name (`mark_<location>`).
    pub visual: String,
    pub location: String,
    pub position: [f64; 3],
    pub relevant: bool,
}

/// The board's turn-over station (`flip_station` of the board file) in the
/// world (m): a piece let go within `capture_radius` of the intake comes to
/// rest at the exit turned over. In Gazebo the chute is not physics: the
/// `gazebo_hand` node carries a piece the arm let go there to the exit,
/// turned over, with the set-pose service (as the built-in simulator's world
/// does); the world file draws both spots.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StationSpec {
    pub intake: [f64; 3],
    pub exit: [f64; 3],
    pub capture_radius: f64,
}

/// A pose: position (m) and roll, pitch, yaw (rad, SDF's fixed-axis X-Y-Z).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub xyz: [f64; 3],
    pub rpy: [f64; 3],
}

impl Pose {
    /// The rotation matrix `Rz(yaw)·Ry(pitch)·Rx(roll)`.
    pub fn rotation(&self) -> [[f64; 3]; 3] {
        let [r, p, y] = self.rpy;
        let (sr, cr) = r.sin_cos();
        let (sp, cp) = p.sin_cos();
        let (sy, cy) = y.sin_cos();
        [
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ]
    }

    fn sdf(&self) -> String {
        let v: Vec<String> = self
            .xyz
            .iter()
            .chain(self.rpy.iter())
            .map(|x| format!("{}", round9(*x)))
            .collect();
        v.join(" ")
    }
}

fn round9(x: f64) -> f64 {
    let r = (x * 1e9).round() / 1e9;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// The camera sensor.
#[derive(Clone, Debug, PartialEq)]
pub struct CameraSpec {
    /// Pose of the camera link: x along the view, z up in the image.
    pub pose: Pose,
    pub width: u32,
    pub height: u32,
    pub fx: f64,
    pub fy: f64,
    pub cx: f64,
    pub cy: f64,
}

impl CameraSpec {
    /// Horizontal field of view (rad).
    pub fn hfov(&self) -> f64 {
        2.0 * (self.width as f64 / (2.0 * self.fx)).atan()
    }

    /// Pixel (u, v) where a world point (m) appears, if in front.
    pub fn project(&self, p: [f64; 3]) -> Option<(f64, f64)> {
        let g = self.pose.rotation();
        let d = [
            p[0] - self.pose.xyz[0],
            p[1] - self.pose.xyz[1],
            p[2] - self.pose.xyz[2],
        ];
        // Camera link axes (columns of g): X forward, Y left, Z up.
        let dot = |i: usize| g[0][i] * d[0] + g[1][i] * d[1] + g[2][i] * d[2];
        let (fwd, left, up) = (dot(0), dot(1), dot(2));
        if fwd <= 1e-9 {
            return None;
        }
        Some((self.cx - self.fx * left / fwd, self.cy - self.fy * up / fwd))
    }
}

/// Everything the SDF world holds.
#[derive(Clone, Debug, PartialEq)]
pub struct TableWorld {
    pub game: String,
    pub arm: String,
    /// Link of the arm pieces are attached to when gripped.
    pub gripper_link: String,
    /// Sheet centre and size (m).
    pub sheet_centre: [f64; 2],
    pub sheet_size: [f64; 2],
    /// The sheet's turn about its centre (rad, counter-clockwise), from the
    /// board's registered placement.
    pub sheet_yaw: f64,
    pub marks: Vec<Mark>,
    pub pieces: Vec<PieceModel>,
    pub camera: CameraSpec,
    /// The spot beside the sheet where a person puts pieces taken off the
    /// board to a place without a position (the built-in simulator's
    /// `off_board_spot`), at the board surface's height (m).
    pub off_board: [f64; 3],
    /// The board's turn-over station, if it has one.
    pub flip_station: Option<StationSpec>,
}

/// `[A-Za-z0-9_-]` kept, anything else `_`.
pub fn sanitise(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The Gazebo model name of an element's piece (`piece_<element>`,
/// sanitised; two elements giving the same name are refused by
/// [`TableWorld::build`]).
pub fn piece_model(element: &str) -> String {
    format!("piece_{}", sanitise(element))
}

/// Gazebo's attach / detach topics of a piece model.
pub fn grip_topics(piece_model: &str) -> (String, String) {
    (
        format!("/{WORLD_NAME}/grip/{piece_model}/attach"),
        format!("/{WORLD_NAME}/grip/{piece_model}/detach"),
    )
}

/// Gazebo topic of every entity's pose in the world (gz-sim's
/// SceneBroadcaster, `gz.msgs.Pose_V`); bridged to the ROS topic of the same
/// name as `tf2_msgs/msg/TFMessage` (each pose's `child_frame_id` is the
/// entity's name: a piece's model name).
pub fn pose_info_topic(world: &str) -> String {
    format!("/world/{world}/pose/info")
}

/// Gazebo's set-pose service of a world (gz-sim's UserCommands system,
/// `ros_gz_interfaces/srv/SetEntityPose` through ros_gz_bridge).
pub fn set_pose_service(world: &str) -> String {
    format!("/world/{world}/set_pose")
}

/// The bridge file of a world: `base` (the static entries of
/// `config/gz_bridge.yaml`: `/clock`, the camera; kept as written, comments
/// and all) followed by the world's pose info ([`pose_info_topic`],
/// `GZ_TO_ROS`, read by `gazebo_hand`) and two `ROS_TO_GZ` entries per
/// piece, its attach and detach topics (`std_msgs/msg/Empty` ↔
/// `gz.msgs.Empty`, the same name on both sides), which the
/// `arm_controller` publishes in Gazebo mode. The set-pose service is not
/// in this file: `launch/gazebo.launch.py` bridges it on the command line.
pub fn bridge_yaml(base: &str, world: &TableWorld) -> String {
    let mut out = base.trim_end().to_string();
    let poses = pose_info_topic(WORLD_NAME);
    out.push_str(&format!(
        "\n\n# Generated by `gamebot gazebo world --bridge`: the world's entity poses\n\
         # (gazebo_hand finds the piece models with them).\n\
         \n- ros_topic_name: {poses}\n  gz_topic_name: {poses}\n  \
         ros_type_name: tf2_msgs/msg/TFMessage\n  gz_type_name: gz.msgs.Pose_V\n  \
         direction: GZ_TO_ROS\n"
    ));
    out.push_str(
        "\n# The DetachableJoint topics of every piece (the arm_controller's\n\
         # gazebo_grip mode).\n",
    );
    for p in &world.pieces {
        let (attach, detach) = grip_topics(&p.model);
        for topic in [attach, detach] {
            out.push_str(&format!(
                "\n- topic_name: {topic}\n  ros_type_name: std_msgs/msg/Empty\n  \
                 gz_type_name: gz.msgs.Empty\n  direction: ROS_TO_GZ\n"
            ));
        }
    }
    out
}

type M3 = [[f64; 3]; 3];

fn mul(a: &M3, b: &M3) -> M3 {
    let mut m = [[0.0; 3]; 3];
    for (i, row) in m.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    m
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn norm(a: [f64; 3]) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}

fn scale(a: [f64; 3], s: f64) -> [f64; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// The camera pose from a calibration (image pixel → table cm homography)
/// and the camera's intrinsics: the table-to-image homography is
/// `K·[r1 r2 t]` up to scale, so `K⁻¹·H` gives two rotation columns and the
/// translation (Zhang's decomposition for a plane).
pub fn camera_from_calibration(
    calibration: &CameraCalibration,
    intrinsics: &CameraModel,
    path: &Path,
) -> Result<CameraSpec, GazeboError> {
    let bad = |m: &str| GazeboError::Calibration {
        path: path.to_path_buf(),
        message: m.into(),
    };
    let h = calibration
        .image_to_table_cm
        .inverse()
        .ok_or_else(|| bad("image_to_table_cm is not invertible"))?
        .0;
    let k_inv: M3 = [
        [1.0 / intrinsics.fx, 0.0, -intrinsics.cx / intrinsics.fx],
        [0.0, 1.0 / intrinsics.fy, -intrinsics.cy / intrinsics.fy],
        [0.0, 0.0, 1.0],
    ];
    let m = mul(&k_inv, &h);
    let col = |j: usize| [m[0][j], m[1][j], m[2][j]];
    let n1 = norm(col(0));
    if !(n1.is_finite() && n1 > 0.0) {
        return Err(bad("the homography gives no camera pose"));
    }
    let mut lambda = 1.0 / n1;
    // The table must lie in front of the camera (positive depth).
    if col(2)[2] * lambda < 0.0 {
        lambda = -lambda;
    }
    let r1 = scale(col(0), lambda);
    let r2 = scale(col(1), lambda);
    let t = scale(col(2), lambda); // cm
                                   // Nearest rotation: r2 made orthogonal to r1, r3 their cross product.
    let d = r1[0] * r2[0] + r1[1] * r2[1] + r1[2] * r2[2];
    let r2 = [r2[0] - d * r1[0], r2[1] - d * r1[1], r2[2] - d * r1[2]];
    let r2 = scale(r2, 1.0 / norm(r2));
    let r3 = cross(r1, r2);
    // R (world→optical) has columns r1 r2 r3; the optical axes in the world
    // are its rows.
    let x_o = [r1[0], r2[0], r3[0]];
    let y_o = [r1[1], r2[1], r3[1]];
    let z_o = [r1[2], r2[2], r3[2]];
    let centre = [
        -(x_o[0] * t[0] + y_o[0] * t[1] + z_o[0] * t[2]) / 100.0,
        -(x_o[1] * t[0] + y_o[1] * t[1] + z_o[1] * t[2]) / 100.0,
        -(x_o[2] * t[0] + y_o[2] * t[1] + z_o[2] * t[2]) / 100.0,
    ];
    // Gazebo's camera link: X = optical z (view), Y = −optical x, Z = −optical y.
    let gx = z_o;
    let gy = scale(x_o, -1.0);
    let gz = scale(y_o, -1.0);
    let g = [
        [gx[0], gy[0], gz[0]],
        [gx[1], gy[1], gz[1]],
        [gx[2], gy[2], gz[2]],
    ];
    let rpy = if g[2][0].abs() > 1.0 - 1e-12 {
        // Looking straight up or down: roll and yaw share one axis; roll = 0.
        let pitch = if g[2][0] < 0.0 {
            std::f64::consts::FRAC_PI_2
        } else {
            -std::f64::consts::FRAC_PI_2
        };
        [0.0, pitch, (-g[0][1]).atan2(g[1][1])]
    } else {
        [
            g[2][1].atan2(g[2][2]),
            (-g[2][0]).asin(),
            g[1][0].atan2(g[0][0]),
        ]
    };
    Ok(CameraSpec {
        pose: Pose { xyz: centre, rpy },
        width: calibration.image_width as u32,
        height: calibration.image_height as u32,
        fx: intrinsics.fx,
        fy: intrinsics.fy,
        cx: intrinsics.cx,
        cy: intrinsics.cy,
    })
}

fn gripper_link(arm: &gamebot_kinematics::Arm) -> Result<String, GazeboError> {
    let path = arm.urdf_path().to_path_buf();
    let robot = urdf_rs::read_from_string(arm.urdf_text()).map_err(|e| GazeboError::Urdf {
        path: path.clone(),
        message: e.to_string(),
    })?;
    let joint = &arm.config().gripper.joint;
    robot
        .joints
        .iter()
        .find(|j| &j.name == joint)
        .map(|j| j.parent.link.clone())
        .ok_or_else(|| GazeboError::Urdf {
            path,
            message: format!("no joint `{joint}` (the arm's gripper joint)"),
        })
}

impl TableWorld {
    /// The world of `game` in its initial state, placed as the built-in
    /// simulator places it.
    pub fn build(game: &Game, spec: &WorldSpec) -> Result<TableWorld, GazeboError> {
        let state: State = game.initial_state();
        let camera_path = gamebot_kinematics::find_project_file(&spec.camera);
        let config = WorldConfig {
            arm: spec.arm.clone(),
            board: spec.board.clone(),
            camera: camera_path.clone(),
            ..WorldConfig::default()
        };
        let intrinsics = config.camera_model;
        // The simulator's world gives positions, sizes and stacking; it is
        // dropped at once (its emulated serial port goes with it).
        let sim = World::new(game, &state, config)?;
        let gripper_link = gripper_link(sim.arm())?;
        let board_path = gamebot_kinematics::find_board_config(&spec.board);
        let board = BoardConfig::load(&board_path)?;
        let renderer = Renderer::from_game(game, &board, intrinsics)?;
        let calibration = CameraCalibration::load(&camera_path)?;
        let camera = camera_from_calibration(&calibration, &intrinsics, &camera_path)?;

        let mut names = HashSet::new();
        let mut unique = |n: String| -> Result<String, GazeboError> {
            if names.insert(n.clone()) {
                Ok(n)
            } else {
                Err(GazeboError::DuplicateName(n))
            }
        };
        let mut marks = Vec::new();
        for (l, loc) in game.locations.iter().enumerate() {
            if let Some(p) = sim.location_position(l as _) {
                marks.push(Mark {
                    visual: unique(format!("mark_{}", sanitise(&loc.name)))?,
                    location: loc.name.clone(),
                    position: p,
                    relevant: game.is_relevant(l as _),
                });
            }
        }
        let mut pieces = Vec::new();
        // A piece's colour as the camera knows it: the middle of its class's
        // HSV signature.
        let colour_of = |element_type: &str, st: i32| {
            renderer
                .board()
                .class_for(element_type, st)
                .and_then(|c| renderer.board().signature_of_class(c))
                .map(|sig| {
                    let s = &sig.source;
                    let hue = if s.hue_min <= s.hue_max {
                        (s.hue_min + s.hue_max) / 2.0
                    } else {
                        ((s.hue_min + s.hue_max + 360.0) / 2.0).rem_euclid(360.0)
                    };
                    let sat = ((s.saturation_min + s.saturation_max) / 2.0).clamp(0.0, 1.0);
                    let val = ((s.value_min + s.value_max) / 2.0).clamp(0.0, 0.96);
                    let [b, g, r] = hsv_to_bgr(hue, sat, val);
                    [r as f64 / 255.0, g as f64 / 255.0, b as f64 / 255.0, 1.0]
                })
        };
        for p in sim.pieces() {
            let colour = colour_of(&p.element_type, p.state).unwrap_or([0.5, 0.5, 0.5, 1.0]);
            // A two-sided piece (reversi's disc) shows its other state's
            // colour on its underside: turned over, the camera sees the change.
            let states = game
                .element_types
                .iter()
                .find(|t| t.name == p.element_type)
                .map_or(1, |t| t.states);
            let underside = (states == 2)
                .then(|| colour_of(&p.element_type, p.state % 2 + 1))
                .flatten()
                .filter(|c| *c != colour);
            let location = game.locations[state.location_of(p.element) as usize]
                .name
                .clone();
            pieces.push(PieceModel {
                model: unique(piece_model(&p.name))?,
                element: p.name,
                location,
                position: p.position,
                radius: p.radius,
                height: p.height,
                colour,
                underside,
            });
        }
        let (lo, hi) = board.sheet.bounds();
        // The sheet's box follows a registered placement (shift and turn);
        // the marks and pieces come from the world, which applies it too.
        let yaw = sim
            .board()
            .placement
            .map_or(0.0, |p| p.rotation_deg.to_radians());
        let c = sim
            .board()
            .to_arm_cm([(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0, 0.0]);
        let spot = sim.off_board_spot();
        let off_board = [spot[0], spot[1], sim.board().pixels.surface_z_cm / 100.0];
        let flip_station = sim.board().flip_station.map(|f| StationSpec {
            intake: f.intake_m(),
            exit: f.exit_m(),
            capture_radius: f.capture_radius_cm / 100.0,
        });
        Ok(TableWorld {
            off_board,
            flip_station,
            game: game.name.clone(),
            arm: sim.arm().name().to_string(),
            gripper_link,
            sheet_centre: [c[0] / 100.0, c[1] / 100.0],
            sheet_size: [(hi[0] - lo[0]) / 100.0, (hi[1] - lo[1]) / 100.0],
            sheet_yaw: yaw,
            marks,
            pieces,
            camera,
        })
    }

    /// The SDF document.
    pub fn to_sdf(&self) -> Result<String, GazeboError> {
        let plugin =
            |file: &str, name: &str| El::new("plugin").attr("filename", file).attr("name", name);
        let mut world = El::new("world")
            .attr("name", WORLD_NAME)
            .child(
                El::new("physics")
                    .attr("name", "1ms")
                    .attr("type", "ignored")
                    .leaf("max_step_size", 0.001)
                    .leaf("real_time_factor", 1.0),
            )
            .child(plugin("gz-sim-physics-system", "gz::sim::systems::Physics"))
            .child(
                plugin("gz-sim-sensors-system", "gz::sim::systems::Sensors")
                    .leaf("render_engine", "ogre2"),
            )
            .child(plugin(
                "gz-sim-user-commands-system",
                "gz::sim::systems::UserCommands",
            ))
            .child(plugin(
                "gz-sim-scene-broadcaster-system",
                "gz::sim::systems::SceneBroadcaster",
            ))
            .leaf("gravity", "0 0 -9.8")
            .child(
                El::new("light")
                    .attr("name", "sun")
                    .attr("type", "directional")
                    .leaf("cast_shadows", "false")
                    .leaf("pose", "0 0 2 0 0 0")
                    .leaf("diffuse", "0.9 0.9 0.9 1")
                    .leaf("specular", "0.2 0.2 0.2 1")
                    .leaf("direction", "-0.2 0.1 -0.9"),
            );
        world = world.child(self.table());
        world = world.child(self.board());
        for p in &self.pieces {
            world = world.child(self.piece(p));
        }
        if let Some(f) = &self.flip_station {
            world = world.child(station_model(f));
        }
        world = world.child(self.camera_model());
        let doc = El::new("sdf").attr("version", "1.9").child(world);
        doc.to_document(Some(&format!(
            "gamebot world of {} for the {} arm, written by `gamebot gazebo world`. Units: m, rad.",
            self.game, self.arm
        )))
    }

    fn table(&self) -> El {
        let size = [
            TABLE_X[1] - TABLE_X[0],
            TABLE_Y[1] - TABLE_Y[0],
            TABLE_THICKNESS,
        ];
        let centre = [
            (TABLE_X[0] + TABLE_X[1]) / 2.0,
            (TABLE_Y[0] + TABLE_Y[1]) / 2.0,
            -TABLE_THICKNESS / 2.0,
        ];
        static_box("table", centre, size, [0.55, 0.4, 0.25, 1.0])
    }

    fn board(&self) -> El {
        let size = [self.sheet_size[0], self.sheet_size[1], SHEET_THICKNESS];
        let centre = [
            self.sheet_centre[0],
            self.sheet_centre[1],
            SHEET_THICKNESS / 2.0,
        ];
        let mut model = static_box("board", centre, size, [0.97, 0.97, 0.95, 1.0]);
        // The model turned with the sheet; the marks (given in the world)
        // are placed in its frame.
        let yaw = self.sheet_yaw;
        if let Some(pose) = model.children.iter_mut().find(|c| c.name == "pose") {
            *pose = El::new("pose").text(
                Pose {
                    xyz: centre,
                    rpy: [0.0, 0.0, yaw],
                }
                .sdf(),
            );
        }
        let (sin, cos) = yaw.sin_cos();
        // The marks: visuals of the board's link, drawn just above the paper.
        let link = model
            .children
            .iter_mut()
            .find(|c| c.name == "link")
            .expect("static_box makes a link");
        for m in &self.marks {
            let (dx, dy) = (m.position[0] - centre[0], m.position[1] - centre[1]);
            let rel = [
                cos * dx + sin * dy,
                -sin * dx + cos * dy,
                m.position[2] - centre[2] + SHEET_THICKNESS,
            ];
            let rgba = if m.relevant {
                [0.35, 0.35, 0.35, 1.0]
            } else {
                [0.3, 0.4, 0.7, 1.0]
            };
            link.children.push(
                El::new("visual")
                    .attr("name", &m.visual)
                    .leaf(
                        "pose",
                        Pose {
                            xyz: rel,
                            rpy: [0.0; 3],
                        }
                        .sdf(),
                    )
                    .child(
                        El::new("geometry").child(
                            El::new("cylinder")
                                .leaf("radius", 0.004)
                                .leaf("length", 0.0002),
                        ),
                    )
                    .child(material(rgba)),
            );
        }
        model
    }

    /// One visual in the piece's colour, or, for a two-sided piece, two
    /// halves: the side up and the underside.
    fn piece_visuals(&self, p: &PieceModel) -> Vec<El> {
        let half = |name: &str, z: f64, rgba: [f64; 4]| {
            El::new("visual")
                .attr("name", name)
                .leaf(
                    "pose",
                    Pose {
                        xyz: [0.0, 0.0, round9(z)],
                        rpy: [0.0; 3],
                    }
                    .sdf(),
                )
                .child(
                    El::new("geometry").child(
                        El::new("cylinder")
                            .leaf("radius", round9(p.radius))
                            .leaf("length", round9(p.height / 2.0)),
                    ),
                )
                .child(material(rgba))
        };
        match p.underside {
            Some(under) => vec![
                half("visual", p.height / 4.0, p.colour),
                half("underside", -p.height / 4.0, under),
            ],
            None => vec![El::new("visual")
                .attr("name", "visual")
                .child(
                    El::new("geometry").child(
                        El::new("cylinder")
                            .leaf("radius", round9(p.radius))
                            .leaf("length", round9(p.height)),
                    ),
                )
                .child(material(p.colour))],
        }
    }

    fn piece(&self, p: &PieceModel) -> El {
        let geometry = || {
            El::new("geometry").child(
                El::new("cylinder")
                    .leaf("radius", round9(p.radius))
                    .leaf("length", round9(p.height)),
            )
        };
        let ixx = PIECE_MASS * (3.0 * p.radius * p.radius + p.height * p.height) / 12.0;
        let izz = PIECE_MASS * p.radius * p.radius / 2.0;
        let (attach, detach) = grip_topics(&p.model);
        El::new("model")
            .attr("name", &p.model)
            .leaf(
                "pose",
                Pose {
                    xyz: [p.position[0], p.position[1], p.position[2] + p.height / 2.0],
                    rpy: [0.0; 3],
                }
                .sdf(),
            )
            .child(
                El::new("link")
                    .attr("name", "link")
                    .child(
                        El::new("inertial").leaf("mass", PIECE_MASS).child(
                            El::new("inertia")
                                .leaf("ixx", round9(ixx))
                                .leaf("iyy", round9(ixx))
                                .leaf("izz", round9(izz))
                                .leaf("ixy", 0)
                                .leaf("ixz", 0)
                                .leaf("iyz", 0),
                        ),
                    )
                    .child(
                        El::new("collision")
                            .attr("name", "collision")
                            .child(geometry())
                            .child(
                                El::new("surface").child(
                                    El::new("friction")
                                        .child(El::new("ode").leaf("mu", 0.8).leaf("mu2", 0.8)),
                                ),
                            ),
                    )
                    .children(self.piece_visuals(p)),
            )
            .child(
                El::new("plugin")
                    .attr("filename", "gz-sim-detachable-joint-system")
                    .attr("name", "gz::sim::systems::DetachableJoint")
                    .leaf("parent_link", "link")
                    .leaf("child_model", ARM_MODEL)
                    .leaf("child_link", &self.gripper_link)
                    .leaf("attach_topic", attach)
                    .leaf("detach_topic", detach)
                    .leaf("suppress_child_warning", "true"),
            )
    }

    fn camera_model(&self) -> El {
        let c = &self.camera;
        El::new("model")
            .attr("name", "camera")
            .leaf("static", "true")
            .leaf("pose", c.pose.sdf())
            .child(
                El::new("link").attr("name", "link").child(
                    El::new("sensor")
                        .attr("name", "camera")
                        .attr("type", "camera")
                        .leaf("always_on", "true")
                        .leaf("update_rate", CAMERA_RATE_HZ)
                        .leaf("visualize", "false")
                        .leaf("topic", CAMERA_TOPIC)
                        .child(
                            El::new("camera")
                                .attr("name", "camera")
                                .leaf("camera_info_topic", CAMERA_INFO_TOPIC)
                                .leaf("horizontal_fov", round9(c.hfov()))
                                .child(
                                    El::new("image")
                                        .leaf("width", c.width)
                                        .leaf("height", c.height)
                                        .leaf("format", "R8G8B8"),
                                )
                                .child(El::new("clip").leaf("near", 0.05).leaf("far", 3.0))
                                .child(
                                    El::new("lens").child(
                                        El::new("intrinsics")
                                            .leaf("fx", c.fx)
                                            .leaf("fy", c.fy)
                                            .leaf("cx", c.cx)
                                            .leaf("cy", c.cy)
                                            .leaf("s", 0),
                                    ),
                                )
                                .leaf("optical_frame_id", "camera_optical_frame"),
                        ),
                ),
            )
    }
}

/// The turn-over station's marks: a static model at the intake with two
/// flat visuals (no collision: a piece rests on the table under them), the
/// intake's capture disc and the exit pad.
fn station_model(f: &StationSpec) -> El {
    let disc = |name: &str, xyz: [f64; 3], radius: f64, rgba: [f64; 4]| {
        El::new("visual")
            .attr("name", name)
            .leaf("pose", Pose { xyz, rpy: [0.0; 3] }.sdf())
            .child(
                El::new("geometry").child(
                    El::new("cylinder")
                        .leaf("radius", round9(radius))
                        .leaf("length", 0.0002),
                ),
            )
            .child(material(rgba))
    };
    let lift = SHEET_THICKNESS + 0.0002;
    let exit = [
        round9(f.exit[0] - f.intake[0]),
        round9(f.exit[1] - f.intake[1]),
        round9(f.exit[2] - f.intake[2] + lift),
    ];
    El::new("model")
        .attr("name", STATION_MODEL)
        .leaf("static", "true")
        .leaf(
            "pose",
            Pose {
                xyz: f.intake.map(round9),
                rpy: [0.0; 3],
            }
            .sdf(),
        )
        .child(
            El::new("link")
                .attr("name", "link")
                .child(disc(
                    "intake",
                    [0.0, 0.0, lift],
                    f.capture_radius,
                    [0.2, 0.6, 0.3, 1.0],
                ))
                .child(disc("exit", exit, 0.008, [0.6, 0.6, 0.2, 1.0])),
        )
}

/// The model name of the turn-over station's marks.
pub const STATION_MODEL: &str = "flip_station";

fn material(rgba: [f64; 4]) -> El {
    let c = rgba.map(|x| format!("{}", round9(x))).join(" ");
    El::new("material")
        .leaf("ambient", &c)
        .leaf("diffuse", &c)
        .leaf("specular", "0.1 0.1 0.1 1")
}

fn static_box(name: &str, centre: [f64; 3], size: [f64; 3], rgba: [f64; 4]) -> El {
    let geometry = || {
        El::new("geometry")
            .child(El::new("box").leaf("size", size.map(|x| format!("{}", round9(x))).join(" ")))
    };
    El::new("model")
        .attr("name", name)
        .leaf("static", "true")
        .leaf(
            "pose",
            Pose {
                xyz: centre,
                rpy: [0.0; 3],
            }
            .sdf(),
        )
        .child(
            El::new("link")
                .attr("name", "link")
                .child(
                    El::new("collision")
                        .attr("name", "collision")
                        .child(geometry()),
                )
                .child(
                    El::new("visual")
                        .attr("name", "visual")
                        .child(geometry())
                        .child(material(rgba)),
                ),
        )
}

fn numbers(origin: &str, what: &str, text: &str, n: usize) -> Result<Vec<f64>, String> {
    let v: Result<Vec<f64>, _> = text.split_whitespace().map(str::parse::<f64>).collect();
    match v {
        Ok(v) if v.len() == n && v.iter().all(|x| x.is_finite()) => Ok(v),
        _ => Err(format!(
            "{origin}: {what} `{text}` is not {n} finite numbers"
        )),
    }
}

/// Parses `sdf` and checks it against `world`: one model per piece at its
/// location's position (bottom on the surface), the location marks, the
/// camera sensor at the calibrated pose with the bridged topics and image
/// size, the world systems, unique names, every length in metres (all
/// poses within 2 m of the arm's base).
pub fn check_sdf(origin: &str, sdf: &str, world: &TableWorld) -> Result<(), GazeboError> {
    let root = El::parse(origin, sdf)?;
    let mut problems = Vec::new();
    let Some(w) = root.first("world") else {
        return Err(GazeboError::Check {
            origin: origin.into(),
            problems: vec!["no <world>".into()],
        });
    };
    if root.name != "sdf" {
        problems.push(format!("root element is <{}>, not <sdf>", root.name));
    }
    if w.get("name") != Some(WORLD_NAME) {
        problems.push(format!("world is not named {WORLD_NAME}"));
    }
    for (file, name) in [
        ("gz-sim-physics-system", "gz::sim::systems::Physics"),
        ("gz-sim-sensors-system", "gz::sim::systems::Sensors"),
        (
            "gz-sim-user-commands-system",
            "gz::sim::systems::UserCommands",
        ),
        (
            "gz-sim-scene-broadcaster-system",
            "gz::sim::systems::SceneBroadcaster",
        ),
    ] {
        let found = w
            .all("plugin")
            .find(|p| p.get("filename") == Some(file) && p.get("name") == Some(name));
        match found {
            None => problems.push(format!("world system {name} missing")),
            Some(p) if file == "gz-sim-sensors-system" => {
                if p.first("render_engine").map(|e| e.text.as_str()) != Some("ogre2") {
                    problems.push("the sensors system does not render with ogre2".into());
                }
            }
            Some(_) => {}
        }
    }
    // Names unique among models, and among the visuals of each link.
    let mut models = HashSet::new();
    for m in w.all("model") {
        let n = m.get("name").unwrap_or("");
        if !models.insert(n.to_string()) {
            problems.push(format!("model name `{n}` used twice"));
        }
        for link in m.all("link") {
            let mut seen = HashSet::new();
            for v in link.all("visual") {
                let n = v.get("name").unwrap_or("");
                if !seen.insert(n) {
                    problems.push(format!("visual `{n}` used twice in a link"));
                }
            }
        }
    }
    // Metres: every pose within 2 m of the base.
    for e in w.walk() {
        if e.name == "pose" {
            match numbers(origin, "pose", &e.text, 6) {
                Ok(v) if v[..3].iter().any(|x| x.abs() > 2.0) => problems.push(format!(
                    "pose `{}` lies more than 2 m away: not in metres?",
                    e.text
                )),
                Ok(_) => {}
                Err(m) => problems.push(m),
            }
        }
    }
    let model = |name: &str| w.all("model").find(|m| m.get("name") == Some(name));
    let pose_of = |m: &El| -> Result<Vec<f64>, String> {
        numbers(
            origin,
            "pose",
            m.first("pose").map(|p| p.text.as_str()).unwrap_or(""),
            6,
        )
    };
    let close = |a: f64, b: f64| (a - b).abs() < 1e-6;
    for p in &world.pieces {
        let Some(m) = model(&p.model) else {
            problems.push(format!("no model for element {} ({})", p.element, p.model));
            continue;
        };
        match pose_of(m) {
            Ok(v) => {
                if !(close(v[0], p.position[0])
                    && close(v[1], p.position[1])
                    && close(v[2] - p.height / 2.0, p.position[2]))
                {
                    problems.push(format!(
                        "{} is at {:?}, not on {} at {:?}",
                        p.element, v, p.location, p.position
                    ));
                }
            }
            Err(e) => problems.push(e),
        }
        let cyl = m.path(&["link", "collision", "geometry", "cylinder"]);
        let r = cyl
            .and_then(|c| c.first("radius"))
            .and_then(|r| r.text.parse::<f64>().ok());
        if !r.is_some_and(|r| close(r, p.radius)) {
            problems.push(format!("{}: collision radius is not {}", p.model, p.radius));
        }
        let (attach, detach) = grip_topics(&p.model);
        let dj = m
            .all("plugin")
            .find(|pl| pl.get("name") == Some("gz::sim::systems::DetachableJoint"));
        match dj {
            None => problems.push(format!("{}: no DetachableJoint system", p.model)),
            Some(dj) => {
                let text = |n: &str| dj.first(n).map(|e| e.text.as_str());
                if text("child_link") != Some(world.gripper_link.as_str())
                    || text("attach_topic") != Some(attach.as_str())
                    || text("detach_topic") != Some(detach.as_str())
                {
                    problems.push(format!(
                        "{}: DetachableJoint link or topics differ",
                        p.model
                    ));
                }
            }
        }
    }
    let piece_models = w
        .all("model")
        .filter(|m| m.get("name").is_some_and(|n| n.starts_with("piece_")))
        .count();
    if piece_models != world.pieces.len() {
        problems.push(format!(
            "{piece_models} piece models for {} pieces",
            world.pieces.len()
        ));
    }
    if let Some(board) = model("board") {
        let marks = board
            .first("link")
            .map(|l| {
                l.all("visual")
                    .filter(|v| v.get("name").is_some_and(|n| n.starts_with("mark_")))
                    .count()
            })
            .unwrap_or(0);
        if marks != world.marks.len() {
            problems.push(format!(
                "{marks} location marks for {} locations",
                world.marks.len()
            ));
        }
    } else {
        problems.push("no board model".into());
    }
    match (&world.flip_station, model(STATION_MODEL)) {
        (Some(f), Some(m)) => match pose_of(m) {
            Ok(v) => {
                let at = |name: &str| {
                    m.first("link")
                        .and_then(|l| l.all("visual").find(|v| v.get("name") == Some(name)))
                        .and_then(|v| pose_of(v).ok())
                };
                let near = |a: [f64; 3], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]) < 1e-6;
                if !near(f.intake, [v[0], v[1]]) || at("intake").is_none() {
                    problems.push("the turn-over station's intake is not at the board's".into());
                }
                match at("exit") {
                    Some(e) if near(f.exit, [v[0] + e[0], v[1] + e[1]]) => {}
                    _ => problems.push("the turn-over station's exit is not at the board's".into()),
                }
            }
            Err(e) => problems.push(e),
        },
        (Some(_), None) => problems.push("no turn-over station model".into()),
        (None, Some(_)) => problems.push("a turn-over station the board does not have".into()),
        (None, None) => {}
    }
    match model("camera") {
        None => problems.push("no camera model".into()),
        Some(cam) => {
            match pose_of(cam) {
                Ok(v) => {
                    let ok = v[..3]
                        .iter()
                        .zip(world.camera.pose.xyz)
                        .chain(v[3..].iter().zip(world.camera.pose.rpy))
                        .all(|(a, b)| (a - b).abs() < 1e-6);
                    if !ok {
                        problems.push(format!(
                            "camera pose {v:?} is not the calibrated {:?}",
                            world.camera.pose
                        ));
                    }
                }
                Err(e) => problems.push(e),
            }
            let sensor = cam
                .path(&["link", "sensor"])
                .filter(|s| s.get("type") == Some("camera"));
            match sensor {
                None => problems.push("camera model has no camera sensor".into()),
                Some(s) => {
                    let text = |p: &[&str]| s.path(p).map(|e| e.text.clone()).unwrap_or_default();
                    if text(&["topic"]) != CAMERA_TOPIC {
                        problems.push(format!("camera topic is not {CAMERA_TOPIC}"));
                    }
                    if text(&["camera", "camera_info_topic"]) != CAMERA_INFO_TOPIC {
                        problems.push(format!("camera info topic is not {CAMERA_INFO_TOPIC}"));
                    }
                    if text(&["camera", "image", "width"]) != world.camera.width.to_string()
                        || text(&["camera", "image", "height"]) != world.camera.height.to_string()
                    {
                        problems.push("camera image size differs from the calibration".into());
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(GazeboError::Check {
            origin: origin.into(),
            problems,
        })
    }
}

#[cfg(test)]
mod tests;
