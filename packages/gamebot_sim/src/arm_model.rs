//! The arm as the world sees it: joint values from servo pulses (through the
//! arm YAML's mapping, plus any calibration error), link poses from the URDF
//! (forward kinematics of the whole tree), the link visuals as convex solids
//! for contacts and drawing, and the fingers' geometry in the tool frame.

use std::collections::HashMap;

use gamebot_kinematics::{Arm, JointKind};
use k::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use crate::SimError;

/// One visual primitive of a link, in the link frame.
#[derive(Clone, Debug)]
pub(crate) struct Visual {
    pub link: String,
    pub origin: Isometry3<f64>,
    /// Sample points (m, visual frame) used for contacts: a grid through the
    /// whole volume, at most ~4 mm apart.
    pub samples: Vec<Point3<f64>>,
    /// Hull points (m, visual frame) for drawing.
    pub hull: Vec<Point3<f64>>,
    /// Radius of a sphere about the visual origin holding the whole primitive.
    pub bound: f64,
    pub bgr: [u8; 3],
    /// Whether the link is a finger (moves with the gripper joint).
    pub finger: bool,
}

/// A visual placed in the world.
pub(crate) struct PlacedVisual<'a> {
    pub visual: &'a Visual,
    pub pose: Isometry3<f64>,
}

/// What the world needs of the arm at one instant.
#[derive(Clone, Debug)]
pub struct ArmState {
    /// Arm joint values (URDF units), in the arm YAML's joint order, as the
    /// joints really are (with any calibration error).
    pub joints: Vec<f64>,
    /// Gripper joint value: each fingertip's distance from the centre line (m).
    pub gripper: f64,
    /// The tool frame (`tool_link`) in `base_link`.
    pub tool: Isometry3<f64>,
}

pub(crate) struct ArmModel {
    pub arm: Arm,
    pub visuals: Vec<Visual>,
    /// Per arm joint, the fixed error added to the value from the pulse (rad or m).
    pub offsets: Vec<f64>,
    /// Fingertip span along the tool's z axis (m, tool frame): [lo, hi].
    pub finger_z: (f64, f64),
    /// Half the fingers' extent along the tool's y axis (m).
    pub finger_half_width: f64,
    tool_link: String,
}

fn rgba_to_bgr(rgba: [f64; 4]) -> [u8; 3] {
    let c = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    [c(rgba[2]), c(rgba[1]), c(rgba[0])]
}

fn pose(p: &urdf_rs::Pose) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(p.xyz[0], p.xyz[1], p.xyz[2]),
        UnitQuaternion::from_euler_angles(p.rpy[0], p.rpy[1], p.rpy[2]),
    )
}

/// Evenly spaced values over [-h, h], at most `step` apart, at least 2.
fn spread(h: f64, step: f64) -> Vec<f64> {
    let n = ((2.0 * h / step).ceil() as usize).clamp(1, 24) + 1;
    (0..n)
        .map(|i| -h + 2.0 * h * i as f64 / (n - 1) as f64)
        .collect()
}

impl ArmModel {
    pub fn new(arm: Arm) -> Result<ArmModel, SimError> {
        let urdf_err = |message: String| SimError::Urdf {
            path: arm.urdf_path().to_path_buf(),
            message,
        };
        let robot =
            urdf_rs::read_from_string(arm.urdf_text()).map_err(|e| urdf_err(e.to_string()))?;
        let materials: HashMap<&str, [f64; 4]> = robot
            .materials
            .iter()
            .filter_map(|m| m.color.as_ref().map(|c| (m.name.as_str(), c.rgba.0)))
            .collect();
        // Finger links: children of the gripper joint and of joints mimicking it.
        let gripper = arm.gripper().name.clone();
        let finger_links: Vec<String> = robot
            .joints
            .iter()
            .filter(|j| j.name == gripper || j.mimic.as_ref().is_some_and(|m| m.joint == gripper))
            .map(|j| j.child.link.clone())
            .collect();
        if finger_links.is_empty() {
            return Err(urdf_err(format!(
                "no link moves with the gripper joint {gripper}"
            )));
        }
        const STEP: f64 = 0.004;
        let mut visuals = Vec::new();
        for link in &robot.links {
            for v in &link.visual {
                let (samples, hull, bound) = match &v.geometry {
                    urdf_rs::Geometry::Box { size } => {
                        let h = [size[0] / 2.0, size[1] / 2.0, size[2] / 2.0];
                        let mut samples = Vec::new();
                        for x in spread(h[0], STEP) {
                            for y in spread(h[1], STEP) {
                                for z in spread(h[2], STEP) {
                                    samples.push(Point3::new(x, y, z));
                                }
                            }
                        }
                        let mut hull = Vec::new();
                        for sx in [-1.0, 1.0] {
                            for sy in [-1.0, 1.0] {
                                for sz in [-1.0, 1.0] {
                                    hull.push(Point3::new(sx * h[0], sy * h[1], sz * h[2]));
                                }
                            }
                        }
                        (
                            samples,
                            hull,
                            (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt(),
                        )
                    }
                    urdf_rs::Geometry::Cylinder { radius, length }
                    | urdf_rs::Geometry::Capsule { radius, length } => {
                        let (r, hl) = (*radius, length / 2.0);
                        let mut samples = Vec::new();
                        let rings = spread(r, STEP).len();
                        for z in spread(hl, STEP) {
                            samples.push(Point3::new(0.0, 0.0, z));
                            for ri in 1..rings {
                                let rr = r * ri as f64 / (rings - 1) as f64;
                                let n =
                                    ((std::f64::consts::TAU * rr / STEP).ceil() as usize).max(6);
                                for i in 0..n {
                                    let a = i as f64 / n as f64 * std::f64::consts::TAU;
                                    samples.push(Point3::new(rr * a.cos(), rr * a.sin(), z));
                                }
                            }
                        }
                        let mut hull = Vec::new();
                        for z in [-hl, hl] {
                            for i in 0..16 {
                                let a = i as f64 / 16.0 * std::f64::consts::TAU;
                                hull.push(Point3::new(r * a.cos(), r * a.sin(), z));
                            }
                        }
                        (samples, hull, (r * r + hl * hl).sqrt())
                    }
                    urdf_rs::Geometry::Sphere { radius } => {
                        let r = *radius;
                        let mut samples = vec![Point3::origin()];
                        let mut hull = Vec::new();
                        for i in 0..12 {
                            for j in 0..6 {
                                let a = i as f64 / 12.0 * std::f64::consts::TAU;
                                let b = (j as f64 + 0.5) / 6.0 * std::f64::consts::PI;
                                let p = Point3::new(
                                    r * a.cos() * b.sin(),
                                    r * a.sin() * b.sin(),
                                    r * b.cos(),
                                );
                                samples.push(p);
                                hull.push(p);
                            }
                        }
                        (samples, hull, r)
                    }
                    // Meshes are not loaded: such a link is neither drawn nor touches.
                    urdf_rs::Geometry::Mesh { .. } => continue,
                };
                let rgba = v
                    .material
                    .as_ref()
                    .and_then(|m| {
                        m.color
                            .as_ref()
                            .map(|c| c.rgba.0)
                            .or_else(|| materials.get(m.name.as_str()).copied())
                    })
                    .unwrap_or([0.3, 0.3, 0.3, 1.0]);
                visuals.push(Visual {
                    link: link.name.clone(),
                    origin: pose(&v.origin),
                    samples,
                    hull,
                    bound,
                    bgr: rgba_to_bgr(rgba),
                    finger: finger_links.contains(&link.name),
                });
            }
        }
        let tool_link = arm.config().tool_link.clone();
        let mut m = ArmModel {
            offsets: vec![0.0; arm.dof()],
            arm,
            visuals,
            finger_z: (0.0, 0.0),
            finger_half_width: 0.0,
            tool_link,
        };
        // Finger span in the tool frame, measured at the home pose (it does not
        // depend on the pose, and the opening only moves fingers along x).
        let home = m.arm.home().to_vec();
        let open = m.arm.config().gripper.open;
        let st = m.state(&home, open);
        let (mut lo, mut hi, mut w) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
        let inv = st.tool.inverse();
        for pv in m.placed(&home, open) {
            if !pv.visual.finger {
                continue;
            }
            for p in &pv.visual.hull {
                let t = inv * (pv.pose * p);
                lo = lo.min(t.z);
                hi = hi.max(t.z);
                w = w.max(t.y.abs());
            }
        }
        if !(lo.is_finite() && hi > lo) {
            return Err(SimError::Urdf {
                path: m.arm.urdf_path().to_path_buf(),
                message: "the finger links have no box, cylinder or sphere visuals".into(),
            });
        }
        m.finger_z = (lo, hi);
        m.finger_half_width = w;
        Ok(m)
    }

    /// Draws each revolute joint's calibration error in [-max, max] (rad).
    pub fn set_offsets(&mut self, offsets: Vec<f64>) {
        self.offsets = offsets;
    }

    /// Revolute joints (the ones a servo offset applies to).
    pub fn revolute(&self) -> Vec<bool> {
        self.arm
            .joints()
            .iter()
            .map(|j| j.kind != JointKind::Prismatic)
            .collect()
    }

    /// Joint values from the servo outputs (`pulses[channel]` in µs, 0 = off);
    /// channels that are off keep `fallback`.
    pub fn joints_from_pulses(
        &self,
        pulses: &[u16],
        fallback: &[f64],
        fallback_gripper: f64,
    ) -> (Vec<f64>, f64) {
        let mut pairs: Vec<(u8, f64)> = Vec::new();
        for j in self.arm.joints() {
            let p = pulses.get(j.servo.channel as usize).copied().unwrap_or(0);
            if p != 0 {
                pairs.push((j.servo.channel, p as f64));
            }
        }
        let g = self.arm.gripper();
        let gp = pulses.get(g.servo.channel as usize).copied().unwrap_or(0);
        if gp != 0 {
            pairs.push((g.servo.channel, gp as f64));
        }
        // Channels come from the arm itself, so the mapping cannot fail on them.
        let (mut q, gv) = self
            .arm
            .positions_from_pulses(&pairs, fallback)
            .unwrap_or_else(|_| (fallback.to_vec(), None));
        for (v, o) in q.iter_mut().zip(&self.offsets) {
            *v += o;
        }
        (q, gv.unwrap_or(fallback_gripper))
    }

    /// The arm's state for joint values (already including any offsets).
    pub fn state(&mut self, q: &[f64], gripper: f64) -> ArmState {
        let links = self.arm.link_transforms(q, gripper);
        let tool = links
            .iter()
            .find(|(n, _)| *n == self.tool_link)
            .map(|(_, t)| *t)
            .unwrap_or_else(|| self.arm.fk(q));
        ArmState {
            joints: q.to_vec(),
            gripper,
            tool,
        }
    }

    /// Every visual with its world pose for joint values.
    pub fn placed(&mut self, q: &[f64], gripper: f64) -> Vec<PlacedVisual<'_>> {
        let links: HashMap<String, Isometry3<f64>> =
            self.arm.link_transforms(q, gripper).into_iter().collect();
        self.visuals
            .iter()
            .filter_map(|v| {
                links.get(&v.link).map(|t| PlacedVisual {
                    visual: v,
                    pose: t * v.origin,
                })
            })
            .collect()
    }
}

/// A point in the tool frame of `tool`.
pub(crate) fn to_tool(tool: &Isometry3<f64>, p: Vector3<f64>) -> Vector3<f64> {
    (tool.inverse() * Point3::from(p)).coords
}
