//! An arm: its URDF as a `k` chain, its YAML configuration, joint limits and servo mapping.

use crate::closed_form::ClosedForm;
use crate::config::{ArmConfig, JointConfig};
use crate::error::{ClosedFormMismatch, LimitError, LoadError};
use k::nalgebra::{Isometry3, Vector3};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// How a joint moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointKind {
    /// Rotation with limits (radians).
    Revolute,
    /// Rotation without limits (radians).
    Continuous,
    /// Translation (metres).
    Prismatic,
}

/// A servo-driven joint of the arm.
#[derive(Clone, Debug, PartialEq)]
pub struct JointInfo {
    /// URDF joint name.
    pub name: String,
    /// Revolute, continuous or prismatic.
    pub kind: JointKind,
    /// Effective lower limit: the URDF limit narrowed to what the servo's pulse range reaches.
    pub lower: f64,
    /// Effective upper limit (see `lower`).
    pub upper: f64,
    /// Servo channel, calibration and speed limits from the YAML.
    pub servo: JointConfig,
}

impl JointInfo {
    /// Servo pulse (µs) for a joint value, unchecked.
    pub fn pulse_unchecked(&self, value: f64) -> f64 {
        self.servo.centre_us + f64::from(self.servo.direction) * self.servo.us_per_unit() * value
    }

    /// Joint value for a servo pulse (µs): the inverse of [`JointInfo::pulse_unchecked`].
    pub fn value_from_pulse(&self, pulse_us: f64) -> f64 {
        (pulse_us - self.servo.centre_us)
            / (f64::from(self.servo.direction) * self.servo.us_per_unit())
    }

    /// Whether `value` is within the effective limits (with a rounding margin).
    pub fn within(&self, value: f64) -> bool {
        value >= self.lower - LIMIT_EPS && value <= self.upper + LIMIT_EPS
    }

    /// Checks a value against the limits and the servo range; returns the pulse.
    pub fn checked_pulse(&self, value: f64, context: &str) -> Result<f64, LimitError> {
        if !value.is_finite() {
            return Err(LimitError::NonFinite {
                joint: self.name.clone(),
                context: context.to_string(),
            });
        }
        if !self.within(value) {
            return Err(LimitError::Joint {
                joint: self.name.clone(),
                value,
                lower: self.lower,
                upper: self.upper,
                context: context.to_string(),
            });
        }
        let pulse = self.pulse_unchecked(value);
        if pulse < self.servo.min_us - PULSE_EPS || pulse > self.servo.max_us + PULSE_EPS {
            return Err(LimitError::Pulse {
                joint: self.name.clone(),
                channel: self.servo.channel,
                pulse_us: pulse,
                min_us: self.servo.min_us,
                max_us: self.servo.max_us,
                context: context.to_string(),
            });
        }
        Ok(pulse.clamp(self.servo.min_us, self.servo.max_us))
    }
}

/// Tolerance when comparing a joint value to a limit (solutions are clamped, sums round).
pub(crate) const LIMIT_EPS: f64 = 1e-9;
const PULSE_EPS: f64 = 1e-6;

/// One servo command: channel and pulse width.
#[derive(Clone, Debug, PartialEq)]
pub struct ServoPulse {
    /// URDF joint name.
    pub joint: String,
    /// Controller channel.
    pub channel: u8,
    /// Pulse width in µs.
    pub pulse_us: f64,
}

/// A loaded arm. Kinematic queries take `&mut self` because `k` keeps joint positions
/// inside the chain; an `Arm` is therefore used by one thread at a time.
pub struct Arm {
    pub(crate) name: String,
    pub(crate) config_path: PathBuf,
    pub(crate) urdf_path: PathBuf,
    urdf_text: String,
    chain: k::Chain<f64>,
    pub(crate) tool: k::SerialChain<f64>,
    pub(crate) joints: Vec<JointInfo>,
    pub(crate) gripper: JointInfo,
    pub(crate) config: ArmConfig,
    pub(crate) home: Vec<f64>,
    pub(crate) park: Vec<f64>,
    pub(crate) closed_form: Result<ClosedForm, ClosedFormMismatch>,
    /// Per legacy angle: arm joint index, sign, offset (rad).
    pub(crate) legacy: Option<Vec<(usize, f64, f64)>>,
    /// Flip: arm joint index, from, to, extra lift.
    pub(crate) flip: Option<(usize, f64, f64, f64)>,
}

impl std::fmt::Debug for Arm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The chain's own Debug output runs to hundreds of kilobytes.
        f.debug_struct("Arm")
            .field("name", &self.name)
            .field("config", &self.config_path)
            .field("urdf", &self.urdf_path)
            .field(
                "joints",
                &self.joints.iter().map(|j| &j.name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

/// Finds `config/arms/<name>.yaml`: `name` may also be a path to a YAML file.
/// Searches the current directory and its ancestors, then the source checkout.
pub fn find_arm_config(name: &str) -> PathBuf {
    find_config("arms", name)
}

/// Finds `config/boards/<name>.yaml` the same way as [`find_arm_config`].
pub fn find_board_config(name: &str) -> PathBuf {
    find_config("boards", name)
}

/// Finds a project file by its path relative to the checkout (a camera
/// calibration, `config/camera/sim.yaml`): as given when absolute, else in
/// the current directory or its nearest ancestor that has it as a file, else
/// in the source checkout (so tests and `cargo run` work from anywhere).
/// Arm and board names are found through it ([`find_arm_config`]).
pub fn find_project_file(rel: &Path) -> PathBuf {
    if rel.is_absolute() {
        return rel.to_path_buf();
    }
    if let Ok(cwd) = std::env::current_dir() {
        for dir in cwd.ancestors() {
            let p = dir.join(rel);
            if p.is_file() {
                return p;
            }
        }
    }
    // The checkout this crate was built from: lets tests and `cargo run` work from anywhere.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

/// A named configuration that [`find_config`] did not find: names the
/// relative path searched, never the build machine's source checkout.
pub(crate) fn not_found(what: &str, kind: &str, name: &str) -> LoadError {
    let given = Path::new(name);
    if name.ends_with(".yaml") || name.ends_with(".yml") || name.contains('/') {
        return LoadError::Io {
            path: given.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
        };
    }
    LoadError::Config {
        path: Path::new("config").join(kind).join(format!("{name}.yaml")),
        message: format!(
            "no {what} named {name}: not found in the current directory or its parents"
        ),
    }
}

fn find_config(kind: &str, name: &str) -> PathBuf {
    let given = Path::new(name);
    if name.ends_with(".yaml") || name.ends_with(".yml") || name.contains('/') {
        return given.to_path_buf();
    }
    find_project_file(&Path::new("config").join(kind).join(format!("{name}.yaml")))
}

/// Reads a text input through the bounded reader (no endless devices, UTF-8 only).
pub(crate) fn read(path: &Path) -> Result<String, LoadError> {
    Ok(gamebot_input::read_text(path)?)
}

/// Parses YAML after refusing documents nested deeper than [`gamebot_input::DEPTH_LIMIT`].
pub(crate) fn parse_yaml<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
) -> Result<T, LoadError> {
    gamebot_input::check_yaml_depth(
        &path.display().to_string(),
        text,
        gamebot_input::DEPTH_LIMIT,
    )?;
    serde_yaml::from_str(text).map_err(|e| yaml_error(path, e))
}

/// Longest parser message kept: serde quotes the offending value, which for a
/// file that is not YAML at all (`--arm /etc/passwd`) would be the whole file.
const MESSAGE_MAX: usize = 160;

pub(crate) fn yaml_error(path: &Path, e: serde_yaml::Error) -> LoadError {
    let mut message = e.to_string();
    if message.chars().count() > MESSAGE_MAX {
        message = message.chars().take(MESSAGE_MAX).collect::<String>() + "…";
    }
    LoadError::Yaml {
        path: path.to_path_buf(),
        line: e.location().map(|l| l.line()).unwrap_or(0),
        message,
    }
}

impl Arm {
    /// Loads an arm from its YAML file (which names the URDF, relative to itself).
    pub fn load(yaml_path: impl AsRef<Path>) -> Result<Arm, LoadError> {
        let yaml_path = yaml_path.as_ref();
        let yaml = read(yaml_path)?;
        let config: ArmConfig = parse_yaml(yaml_path, &yaml)?;
        let urdf_path = yaml_path
            .parent()
            .unwrap_or(Path::new("."))
            .join(&config.urdf);
        let urdf = read(&urdf_path)?;
        Arm::from_parts(yaml_path, config, &urdf_path, urdf)
    }

    /// Builds an arm from YAML and URDF texts; the paths name them in error messages.
    pub fn from_strings(
        config_path: &Path,
        yaml: &str,
        urdf_path: &Path,
        urdf: &str,
    ) -> Result<Arm, LoadError> {
        let config: ArmConfig = parse_yaml(config_path, yaml)?;
        Arm::from_parts(config_path, config, urdf_path, urdf.to_string())
    }

    /// Loads `config/arms/<name>.yaml` (see [`find_arm_config`]).
    pub fn load_named(name: &str) -> Result<Arm, LoadError> {
        let path = find_arm_config(name);
        if !path.is_file() {
            return Err(not_found("arm", "arms", name));
        }
        Arm::load(path)
    }

    /// Builds an arm from an already parsed YAML and the URDF text; the paths name the
    /// sources in error messages.
    pub fn from_parts(
        config_path: &Path,
        config: ArmConfig,
        urdf_path: &Path,
        urdf_text: String,
    ) -> Result<Arm, LoadError> {
        let urdf_err = |message: String| LoadError::Urdf {
            path: urdf_path.to_path_buf(),
            message,
        };
        let cfg_err = |message: String| LoadError::Config {
            path: config_path.to_path_buf(),
            message,
        };
        gamebot_input::check_xml_depth(
            &urdf_path.display().to_string(),
            &urdf_text,
            gamebot_input::DEPTH_LIMIT,
        )?;
        // urdf-rs gives no position: locate the error with a line-aware XML reader.
        let robot = urdf_rs::read_from_string(&urdf_text)
            .map_err(|e| urdf_err(crate::urdf_locate::locate(&urdf_text, &e.to_string())))?;
        validate_urdf(&robot)
            .map_err(|m| urdf_err(crate::urdf_locate::at_element(&urdf_text, &m)))?;
        let root = robot_root(&robot).map_err(urdf_err)?;
        if root != config.base_link {
            return Err(cfg_err(format!(
                "base_link {} is not the root link of the URDF (the root is {root})",
                config.base_link
            )));
        }
        let chain: k::Chain<f64> = k::Chain::from(&robot);
        let tool_node = chain.find_link(&config.tool_link).ok_or_else(|| {
            cfg_err(format!(
                "tool_link {} is not a link of the URDF",
                config.tool_link
            ))
        })?;
        let tool = k::SerialChain::from_end(tool_node);
        let urdf_joints: HashMap<&str, &urdf_rs::Joint> =
            robot.joints.iter().map(|j| (j.name.as_str(), j)).collect();

        // Servo configuration per joint, checked for consistency.
        let mut by_name: HashMap<&str, &JointConfig> = HashMap::new();
        let mut channels = HashSet::new();
        for jc in &config.joints {
            if by_name.insert(jc.name.as_str(), jc).is_some() {
                return Err(cfg_err(format!("joint {} is listed twice", jc.name)));
            }
            if !channels.insert(jc.channel) {
                return Err(cfg_err(format!(
                    "channel {} is used by two joints",
                    jc.channel
                )));
            }
        }
        let make_info = |name: &str| -> Result<JointInfo, LoadError> {
            let uj = urdf_joints
                .get(name)
                .ok_or_else(|| cfg_err(format!("joint {name} is not in the URDF")))?;
            let jc = by_name
                .get(name)
                .ok_or_else(|| cfg_err(format!("joint {name} has no servo entry under joints:")))?;
            joint_info(uj, jc).map_err(cfg_err)
        };
        let arm_joint_names: Vec<String> = tool.iter_joints().map(|j| j.name.clone()).collect();
        if arm_joint_names.is_empty() {
            return Err(cfg_err(format!(
                "no movable joint between {} and {}",
                config.base_link, config.tool_link
            )));
        }
        let mut joints = Vec::new();
        for n in &arm_joint_names {
            if urdf_joints
                .get(n.as_str())
                .is_some_and(|j| j.mimic.is_some())
            {
                return Err(cfg_err(format!(
                    "arm joint {n} is a mimic joint; the tool chain must be independent"
                )));
            }
            joints.push(make_info(n)?);
        }
        let gripper = make_info(&config.gripper.joint)?;
        if arm_joint_names.contains(&config.gripper.joint) {
            return Err(cfg_err(format!(
                "gripper joint {} lies on the chain to {}",
                config.gripper.joint, config.tool_link
            )));
        }
        if urdf_joints[config.gripper.joint.as_str()].mimic.is_some() {
            return Err(cfg_err(format!(
                "gripper joint {} is a mimic joint",
                config.gripper.joint
            )));
        }
        for jc in &config.joints {
            if jc.name != config.gripper.joint && !arm_joint_names.contains(&jc.name) {
                return Err(cfg_err(format!(
                    "joint {} is neither on the chain from {} to {} nor the gripper",
                    jc.name, config.base_link, config.tool_link
                )));
            }
        }
        for (what, v) in [
            ("open", config.gripper.open),
            ("closed", config.gripper.closed),
        ] {
            gripper
                .checked_pulse(v, &format!(" (gripper {what})"))
                .map_err(|e| cfg_err(e.to_string()))?;
        }
        if let Some(r) = config.gripper.release {
            let (lo, hi) = if config.gripper.closed <= config.gripper.open {
                (config.gripper.closed, config.gripper.open)
            } else {
                (config.gripper.open, config.gripper.closed)
            };
            if !(lo..=hi).contains(&r) {
                return Err(cfg_err(format!(
                    "gripper release {r} must lie between closed ({}) and open ({})",
                    config.gripper.closed, config.gripper.open
                )));
            }
        }
        if !(config.gripper.settle_s >= 0.0 && config.gripper.settle_s.is_finite()) {
            return Err(cfg_err("gripper settle_s must be >= 0".into()));
        }

        let pose = |what: &str,
                    map: &std::collections::BTreeMap<String, f64>|
         -> Result<Vec<f64>, LoadError> {
            for k in map.keys() {
                if !arm_joint_names.contains(k) {
                    return Err(cfg_err(format!("{what}: {k} is not an arm joint")));
                }
            }
            joints
                .iter()
                .map(|j| {
                    let v = *map
                        .get(&j.name)
                        .ok_or_else(|| cfg_err(format!("{what}: joint {} is missing", j.name)))?;
                    j.checked_pulse(v, &format!(" ({what} pose)"))
                        .map_err(|e| cfg_err(e.to_string()))?;
                    Ok(v)
                })
                .collect()
        };
        let home = pose("home", &config.home)?;
        let park = pose("park", &config.park)?;
        let h = config.approach_height_m;
        let g = config.grasp_height_m;
        if !(h.is_finite() && g.is_finite() && h > g && h > 0.0) {
            return Err(cfg_err(format!(
                "approach_height_m ({h}) must be positive and above grasp_height_m ({g})"
            )));
        }
        let ik = &config.ik;
        if !(ik.tolerance_m > 0.0
            && ik.axis_tolerance_deg > 0.0
            && ik.max_iterations > 0
            && ik.axis_weight_m > 0.0)
        {
            return Err(cfg_err(
                "ik: tolerances, max_iterations and axis_weight_m must be positive".into(),
            ));
        }
        let index_of = |n: &str| arm_joint_names.iter().position(|a| a == n);
        let legacy = match &config.legacy_angles {
            None => None,
            Some(list) => {
                if list.len() != 5 {
                    return Err(cfg_err(format!(
                        "legacy_angles must list 5 joints (one per legacy angle), not {}",
                        list.len()
                    )));
                }
                let mut out = Vec::new();
                for la in list {
                    let i = index_of(&la.joint).ok_or_else(|| {
                        cfg_err(format!("legacy_angles: {} is not an arm joint", la.joint))
                    })?;
                    if !(la.sign == 1.0 || la.sign == -1.0) || !la.offset_deg.is_finite() {
                        return Err(cfg_err(format!(
                            "legacy_angles: {}: sign must be 1 or -1",
                            la.joint
                        )));
                    }
                    out.push((i, la.sign, la.offset_deg.to_radians()));
                }
                Some(out)
            }
        };
        let flip = match &config.flip {
            None => None,
            Some(f) => {
                let i = index_of(&f.joint)
                    .ok_or_else(|| cfg_err(format!("flip: {} is not an arm joint", f.joint)))?;
                for v in [f.from, f.to] {
                    joints[i]
                        .checked_pulse(v, " (flip)")
                        .map_err(|e| cfg_err(e.to_string()))?;
                }
                if !(f.lift_m >= 0.0 && f.lift_m.is_finite()) {
                    return Err(cfg_err("flip: lift_m must be >= 0".into()));
                }
                Some((i, f.from, f.to, f.lift_m))
            }
        };
        let name = robot.name.clone();
        let closed_form = ClosedForm::detect(&tool, &joints).map_err(ClosedFormMismatch);
        let mut arm = Arm {
            name,
            config_path: config_path.to_path_buf(),
            urdf_path: urdf_path.to_path_buf(),
            urdf_text,
            chain,
            tool,
            joints,
            gripper,
            config,
            home,
            park,
            closed_form,
            legacy,
            flip,
        };
        let home = arm.home.clone();
        if let Some((i, from, to, _)) = arm.flip {
            // The flip joint must turn the piece in place, not move the tool point.
            let (mut a, mut b) = (home.clone(), home.clone());
            a[i] = from;
            b[i] = to;
            let moved = (arm.fk(&a).translation.vector - arm.fk(&b).translation.vector).norm();
            if moved > 1e-3 {
                return Err(cfg_err(format!(
                    "flip: turning {} moves the tool point by {:.1} mm; use a joint that rolls about the tool axis",
                    arm.joints[i].name,
                    moved * 1000.0
                )));
            }
        }
        arm.set_positions(&home, arm.config.gripper.open);
        Ok(arm)
    }

    /// The URDF's robot name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The YAML this arm was loaded from.
    pub fn config_path(&self) -> &Path {
        &self.config_path
    }

    /// The URDF file.
    pub fn urdf_path(&self) -> &Path {
        &self.urdf_path
    }

    /// The URDF text (for `/robot_description`).
    pub fn urdf_text(&self) -> &str {
        &self.urdf_text
    }

    /// The parsed YAML.
    pub fn config(&self) -> &ArmConfig {
        &self.config
    }

    /// The arm joints, base to tool (the order of every joint vector of this crate).
    pub fn joints(&self) -> &[JointInfo] {
        &self.joints
    }

    /// Number of arm joints.
    pub fn dof(&self) -> usize {
        self.joints.len()
    }

    /// The gripper joint.
    pub fn gripper(&self) -> &JointInfo {
        &self.gripper
    }

    /// Home pose.
    pub fn home(&self) -> &[f64] {
        &self.home
    }

    /// Park pose.
    pub fn park(&self) -> &[f64] {
        &self.park
    }

    /// Whether the closed-form solver fits this arm, and why not.
    pub fn closed_form_status(&self) -> Result<(), ClosedFormMismatch> {
        self.closed_form.as_ref().map(|_| ()).map_err(Clone::clone)
    }

    /// Tool pose (`tool_link` in the base frame) for arm joint values.
    pub fn fk(&mut self, q: &[f64]) -> Isometry3<f64> {
        self.tool.set_joint_positions_unchecked(q);
        self.tool.end_transform()
    }

    /// Tool position and approach axis (the tool's z axis) for arm joint values.
    pub fn tool_point_axis(&mut self, q: &[f64]) -> (Vector3<f64>, Vector3<f64>) {
        let t = self.fk(q);
        (t.translation.vector, t.rotation * Vector3::z())
    }

    /// Sets arm and gripper positions in the whole tree (mimic joints follow).
    pub fn set_positions(&mut self, q: &[f64], gripper: f64) {
        self.tool.set_joint_positions_unchecked(q);
        if let Some(node) = self.chain.find(&self.gripper.name) {
            // Through the checked setter so that mimic joints follow; out-of-range values
            // are clamped rather than dropped.
            let g = gripper.clamp(self.gripper.lower, self.gripper.upper);
            let _ = node.set_joint_position(g);
        }
    }

    /// World transform of every link for the given arm and gripper positions (for TF and
    /// rendering), in tree order.
    pub fn link_transforms(&mut self, q: &[f64], gripper: f64) -> Vec<(String, Isometry3<f64>)> {
        self.set_positions(q, gripper);
        self.chain.update_transforms();
        self.chain
            .iter()
            .filter_map(|node| {
                let link = node.link().as_ref().map(|l| l.name.clone())?;
                Some((link, node.world_transform()?))
            })
            .collect()
    }

    /// Checks arm joint values against limits and servo ranges.
    pub fn check_limits(&self, q: &[f64], context: &str) -> Result<(), LimitError> {
        self.pulses(q, None, context).map(|_| ())
    }

    /// Servo pulses for arm joint values and optionally the gripper; every value is checked
    /// against its joint limits and every pulse against its servo's range.
    pub fn pulses(
        &self,
        q: &[f64],
        gripper: Option<f64>,
        context: &str,
    ) -> Result<Vec<ServoPulse>, LimitError> {
        if q.len() != self.joints.len() {
            return Err(LimitError::Length {
                expected: self.joints.len(),
                got: q.len(),
                context: context.to_string(),
            });
        }
        let mut out = Vec::with_capacity(q.len() + 1);
        for (j, &v) in self.joints.iter().zip(q) {
            out.push(ServoPulse {
                joint: j.name.clone(),
                channel: j.servo.channel,
                pulse_us: j.checked_pulse(v, context)?,
            });
        }
        if let Some(g) = gripper {
            out.push(ServoPulse {
                joint: self.gripper.name.clone(),
                channel: self.gripper.servo.channel,
                pulse_us: self.gripper.checked_pulse(g, context)?,
            });
        }
        Ok(out)
    }

    /// Joint values from pulses read back from the controller, as `(channel, µs)` pairs;
    /// returns arm joint values (missing channels keep `fallback`) and the gripper value.
    pub fn positions_from_pulses(
        &self,
        pulses: &[(u8, f64)],
        fallback: &[f64],
    ) -> Result<(Vec<f64>, Option<f64>), LimitError> {
        let mut q = fallback.to_vec();
        if q.len() != self.joints.len() {
            return Err(LimitError::Length {
                expected: self.joints.len(),
                got: q.len(),
                context: " (fallback pose)".into(),
            });
        }
        let mut g = None;
        for &(ch, us) in pulses {
            if let Some(i) = self.joints.iter().position(|j| j.servo.channel == ch) {
                q[i] = self.joints[i].value_from_pulse(us);
            } else if self.gripper.servo.channel == ch {
                g = Some(self.gripper.value_from_pulse(us));
            } else {
                return Err(LimitError::UnknownChannel { channel: ch });
            }
        }
        Ok((q, g))
    }

    /// Clamps arm joint values into the effective limits.
    pub fn clamp(&self, q: &mut [f64]) {
        for (v, j) in q.iter_mut().zip(&self.joints) {
            *v = v.clamp(j.lower, j.upper);
        }
    }
}

/// Effective limits and servo entry for one joint.
fn joint_info(uj: &urdf_rs::Joint, jc: &JointConfig) -> Result<JointInfo, String> {
    let name = &uj.name;
    let kind = match uj.joint_type {
        urdf_rs::JointType::Revolute => JointKind::Revolute,
        urdf_rs::JointType::Continuous => JointKind::Continuous,
        urdf_rs::JointType::Prismatic => JointKind::Prismatic,
        _ => {
            return Err(format!(
                "joint {name} is not revolute, continuous or prismatic"
            ))
        }
    };
    match (kind, jc.us_per_rad, jc.us_per_m) {
        (JointKind::Prismatic, None, Some(u))
        | (JointKind::Revolute | JointKind::Continuous, Some(u), None)
            if u.is_finite() && u > 0.0 => {}
        (JointKind::Prismatic, _, _) => {
            return Err(format!(
                "joint {name} is prismatic: give a positive us_per_m (and no us_per_rad)"
            ))
        }
        _ => {
            return Err(format!(
                "joint {name} is revolute: give a positive us_per_rad (and no us_per_m)"
            ))
        }
    }
    if jc.direction != 1 && jc.direction != -1 {
        return Err(format!("joint {name}: direction must be 1 or -1"));
    }
    if !(jc.min_us.is_finite()
        && jc.max_us.is_finite()
        && jc.min_us < jc.max_us
        && jc.centre_us.is_finite())
    {
        return Err(format!(
            "joint {name}: need finite centre_us and min_us < max_us"
        ));
    }
    if !(jc.max_velocity > 0.0
        && jc.max_velocity.is_finite()
        && jc.max_acceleration > 0.0
        && jc.max_acceleration.is_finite())
    {
        return Err(format!(
            "joint {name}: max_velocity and max_acceleration must be positive"
        ));
    }
    let (mut lower, mut upper) = match kind {
        JointKind::Continuous => (f64::NEG_INFINITY, f64::INFINITY),
        _ => (uj.limit.lower, uj.limit.upper),
    };
    let mut info = JointInfo {
        name: name.clone(),
        kind,
        lower,
        upper,
        servo: jc.clone(),
    };
    // Narrow to what the servo's pulse range can reach.
    let a = info.value_from_pulse(jc.min_us);
    let b = info.value_from_pulse(jc.max_us);
    lower = lower.max(a.min(b));
    upper = upper.min(a.max(b));
    if lower >= upper {
        return Err(format!(
            "joint {name}: the servo range {}..{} µs maps to {:.4}..{:.4}, outside the URDF limits",
            jc.min_us,
            jc.max_us,
            a.min(b),
            a.max(b)
        ));
    }
    info.lower = lower;
    info.upper = upper;
    Ok(info)
}

/// The root link: the one link that is no joint's child.
fn robot_root(robot: &urdf_rs::Robot) -> Result<String, String> {
    let children: HashSet<&str> = robot.joints.iter().map(|j| j.child.link.as_str()).collect();
    let roots: Vec<&str> = robot
        .links
        .iter()
        .map(|l| l.name.as_str())
        .filter(|l| !children.contains(l))
        .collect();
    match roots.as_slice() {
        [one] => Ok(one.to_string()),
        [] => Err("no root link (every link is some joint's child)".into()),
        many => Err(format!("more than one root link: {}", many.join(", "))),
    }
}

/// Largest joint origin offset or angle accepted: a tabletop arm is metres
/// across; 1e308 would overflow to infinity in the first transform.
const ORIGIN_MAX: f64 = 1000.0;

/// Checks what `k` assumes (it panics on some malformed trees) and what this crate needs.
/// A message about one element starts with `joint NAME` or `link NAME`: the
/// caller adds that element's line (`urdf_locate::at_element`).
fn validate_urdf(robot: &urdf_rs::Robot) -> Result<(), String> {
    if robot.links.is_empty() {
        return Err("no links".into());
    }
    let mut links = HashSet::new();
    let pose_ok = |p: &urdf_rs::Pose| {
        p.xyz
            .iter()
            .chain(p.rpy.iter())
            .all(|v| v.is_finite() && v.abs() <= ORIGIN_MAX)
    };
    for l in &robot.links {
        if !links.insert(l.name.as_str()) {
            return Err(format!("link {} is defined twice", l.name));
        }
        // Visuals are drawn (simulated camera, TF): an origin at 1e308 would
        // become infinite in the first transform.
        let origins = std::iter::once(("inertial", &l.inertial.origin))
            .chain(l.visual.iter().map(|v| ("visual", &v.origin)))
            .chain(l.collision.iter().map(|c| ("collision", &c.origin)));
        for (what, origin) in origins {
            if !pose_ok(origin) {
                return Err(format!(
                    "link {}: {what} origin must be finite, within ±{ORIGIN_MAX} (metres / radians)",
                    l.name
                ));
            }
        }
    }
    let mut joint_names = HashSet::new();
    let mut parent_of: HashMap<&str, &str> = HashMap::new();
    for j in &robot.joints {
        if !joint_names.insert(j.name.as_str()) {
            return Err(format!("joint {} is defined twice", j.name));
        }
        for l in [&j.parent.link, &j.child.link] {
            if !links.contains(l.as_str()) {
                return Err(format!("joint {} refers to unknown link {l}", j.name));
            }
        }
        if parent_of
            .insert(j.child.link.as_str(), j.parent.link.as_str())
            .is_some()
        {
            return Err(format!("link {} is the child of two joints", j.child.link));
        }
        let finite = j
            .origin
            .xyz
            .iter()
            .chain(j.origin.rpy.iter())
            .all(|v| v.is_finite() && v.abs() <= ORIGIN_MAX);
        if !finite {
            return Err(format!(
                "joint {}: origin must be finite, within ±{ORIGIN_MAX} (metres / radians)",
                j.name
            ));
        }
        match j.joint_type {
            urdf_rs::JointType::Fixed => {}
            urdf_rs::JointType::Revolute
            | urdf_rs::JointType::Continuous
            | urdf_rs::JointType::Prismatic => {
                let a = Vector3::new(j.axis.xyz[0], j.axis.xyz[1], j.axis.xyz[2]);
                if !(a.iter().all(|v| v.is_finite()) && a.norm() > 1e-9) {
                    return Err(format!("joint {}: axis must be a non-zero vector", j.name));
                }
                if j.joint_type != urdf_rs::JointType::Continuous
                    && !(j.limit.lower.is_finite()
                        && j.limit.upper.is_finite()
                        && j.limit.lower < j.limit.upper)
                {
                    return Err(format!(
                        "joint {}: needs <limit lower=.. upper=..> with lower < upper",
                        j.name
                    ));
                }
            }
            ref t => return Err(format!("joint {}: type {t:?} is not supported", j.name)),
        }
        if let Some(m) = &j.mimic {
            if m.joint == j.name {
                return Err(format!("joint {} mimics itself", j.name));
            }
            if !robot.joints.iter().any(|o| o.name == m.joint) {
                return Err(format!("joint {} mimics unknown joint {}", j.name, m.joint));
            }
            let (mul, off) = (m.multiplier.unwrap_or(1.0), m.offset.unwrap_or(0.0));
            if !(mul.is_finite() && off.is_finite() && mul.abs() <= 1e3 && off.abs() <= 1e3) {
                return Err(format!(
                    "joint {}: mimic multiplier/offset must be finite numbers within ±1000",
                    j.name
                ));
            }
        }
    }
    // Cycles: walking up from any link must end at a root within |links| steps.
    for l in &links {
        let mut cur = *l;
        for _ in 0..=links.len() {
            match parent_of.get(cur) {
                Some(p) => cur = p,
                None => break,
            }
        }
        if parent_of.contains_key(cur) {
            return Err(format!("the joints form a loop through link {l}"));
        }
    }
    Ok(())
}
