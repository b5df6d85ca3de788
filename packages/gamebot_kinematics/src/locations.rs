//! Game locations turned into arm poses above and at the board.
//!
//! A location is given by the game's `robot=` key — three coordinates in cm in the arm
//! base frame, or the legacy ten angles in degrees (five above, five at), used as given —
//! or, when `robot=` is missing, by its `point=` pixel mapped onto the table through a
//! board placement. Cartesian positions are the board surface at the location's centre:
//! the arm goes to `approach_height_m` above it, then down to `grasp_height_m`.
//! With a board, Cartesian and `point=` positions go through its placement
//! ([`Board::to_arm_cm`]): they are given where the board file puts the sheet,
//! and the board's registration says where that is for the arm.

use crate::arm::Arm;
use crate::error::LocationError;
use crate::ik::{SolverChoice, SolverKind};
use crate::placement::Board;

/// Where the game file says the arm reaches a location (mirrors `gamebot_rules::model::RobotSpec`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RobotPosition {
    /// `x,y,z` in cm, arm base frame, z = 0 at the table.
    Cartesian([f64; 3]),
    /// Legacy angles in degrees: five for the pose above, five at grip height.
    Angles([f64; 10]),
}

/// A location as the game gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct LocationInput {
    /// Location name (for messages).
    pub name: String,
    /// The `robot=` key, if any.
    pub robot: Option<RobotPosition>,
    /// The `point=` pixel, if any (used with a board placement when `robot=` is missing).
    pub point: Option<[f64; 2]>,
}

/// Where a resolved location's coordinates came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoseSource {
    /// `robot=x,y,z`.
    Cartesian,
    /// `robot=` with ten angles.
    LegacyAngles,
    /// `point=` through the board placement.
    Board,
}

impl PoseSource {
    /// Short name for tables.
    pub fn as_str(self) -> &'static str {
        match self {
            PoseSource::Cartesian => "robot xyz",
            PoseSource::LegacyAngles => "robot angles",
            PoseSource::Board => "board point",
        }
    }
}

/// A location the arm can serve.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedLocation {
    /// Location name.
    pub name: String,
    /// Where the coordinates came from.
    pub source: PoseSource,
    /// The board surface point (m, base frame); for legacy angles, the tool point of the
    /// pose at the location minus the grasp height.
    pub point_m: [f64; 3],
    /// Arm joint values above the location.
    pub above: Vec<f64>,
    /// Arm joint values at grip height.
    pub at: Vec<f64>,
    /// Position errors of the two poses (m): IK residuals (0 for legacy angles).
    pub above_error_m: f64,
    pub at_error_m: f64,
    /// Solver used (None for legacy angles).
    pub solver: Option<SolverKind>,
}

impl Arm {
    /// Resolves one location. IK for the pose above is seeded from `seed`, the pose at the
    /// location from the pose above, so the descent is a small, continuous motion.
    pub fn resolve_location(
        &mut self,
        loc: &LocationInput,
        board: Option<&Board>,
        seed: &[f64],
    ) -> Result<ResolvedLocation, LocationError> {
        let name = loc.name.clone();
        let (source, point_cm) = match (loc.robot, loc.point, board) {
            (Some(RobotPosition::Angles(a)), _, _) => return self.resolve_legacy(&name, &a),
            (Some(RobotPosition::Cartesian(p)), _, _) => (PoseSource::Cartesian, p),
            (None, Some([u, v]), Some(b)) => (PoseSource::Board, b.pixel_to_table_cm(u, v)),
            _ => return Err(LocationError::NoPosition { name }),
        };
        // Both are given where the board file puts the sheet: its
        // registration says where that is for the arm.
        let point_cm = match board {
            Some(b) => b.to_arm_cm(point_cm),
            None => point_cm,
        };
        if !point_cm.iter().all(|v| v.is_finite()) {
            return Err(LocationError::NonFinite { name });
        }
        let p = point_cm.map(|v| v / 100.0);
        let up = |h: f64| [p[0], p[1], p[2] + h];
        let above = self
            .solve(up(self.config.approach_height_m), seed, SolverChoice::Auto)
            .map_err(|source| LocationError::Unreachable {
                name: name.clone(),
                which: "above",
                source,
            })?;
        let at = self
            .solve(up(self.config.grasp_height_m), &above.q, SolverChoice::Auto)
            .map_err(|source| LocationError::Unreachable {
                name: name.clone(),
                which: "at",
                source,
            })?;
        Ok(ResolvedLocation {
            name,
            source,
            point_m: p,
            above_error_m: above.position_error_m,
            at_error_m: at.position_error_m,
            solver: Some(at.solver),
            above: above.q,
            at: at.q,
        })
    }

    /// Joint values for one legacy five-angle pose (degrees); unmapped joints keep home.
    pub fn legacy_pose(&self, angles: &[f64]) -> Option<Vec<f64>> {
        let map = self.legacy.as_ref()?;
        let mut q = self.home.clone();
        for (&(i, sign, offset), a) in map.iter().zip(angles) {
            q[i] = sign * (a.to_radians() + offset);
        }
        Some(q)
    }

    fn resolve_legacy(
        &mut self,
        name: &str,
        a: &[f64; 10],
    ) -> Result<ResolvedLocation, LocationError> {
        if !a.iter().all(|v| v.is_finite()) {
            return Err(LocationError::NonFinite { name: name.into() });
        }
        let no_map = || LocationError::NoLegacyMapping {
            name: name.into(),
            arm: self.name.clone(),
        };
        let above = self.legacy_pose(&a[..5]).ok_or_else(no_map)?;
        let at = self.legacy_pose(&a[5..]).ok_or_else(no_map)?;
        for (which, q) in [("above", &above), ("at", &at)] {
            self.check_limits(q, "")
                .map_err(|source| LocationError::Limit {
                    name: name.into(),
                    which,
                    source,
                })?;
        }
        let (tip, _) = self.tool_point_axis(&at);
        Ok(ResolvedLocation {
            name: name.into(),
            source: PoseSource::LegacyAngles,
            point_m: [tip.x, tip.y, tip.z - self.config.grasp_height_m],
            above,
            at,
            above_error_m: 0.0,
            at_error_m: 0.0,
            solver: None,
        })
    }

    /// Resolves every location, each seeded from the home pose; one result per input.
    pub fn resolve_locations(
        &mut self,
        locs: &[LocationInput],
        board: Option<&Board>,
    ) -> Vec<Result<ResolvedLocation, LocationError>> {
        let home = self.home.clone();
        locs.iter()
            .map(|l| self.resolve_location(l, board, &home))
            .collect()
    }

    /// Load-time validation: every location must be reachable above and at the board.
    /// Locations without any position are skipped when `require_all` is false (a game may
    /// have places the arm never serves, e.g. off-board counters).
    pub fn validate_locations(
        &mut self,
        locs: &[LocationInput],
        board: Option<&Board>,
        require_all: bool,
    ) -> Result<Vec<ResolvedLocation>, LocationError> {
        let mut out = Vec::new();
        for r in self.resolve_locations(locs, board) {
            match r {
                Ok(l) => out.push(l),
                Err(LocationError::NoPosition { .. }) if !require_all => {}
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn al5d() -> Arm {
        Arm::load_named("al5d").unwrap()
    }

    #[test]
    fn cartesian_location_reaches_above_and_at() {
        let mut arm = al5d();
        let loc = LocationInput {
            name: "c3".into(),
            robot: Some(RobotPosition::Cartesian([4.0, 20.0, 0.0])),
            point: None,
        };
        let home = arm.home().to_vec();
        let r = arm.resolve_location(&loc, None, &home).unwrap();
        let (pa, _) = arm.tool_point_axis(&r.above);
        let (pg, _) = arm.tool_point_axis(&r.at);
        assert!((pa - k::nalgebra::Vector3::new(0.04, 0.20, 0.05)).norm() < 1e-4);
        assert!((pg - k::nalgebra::Vector3::new(0.04, 0.20, 0.005)).norm() < 1e-4);
        assert_eq!(r.source, PoseSource::Cartesian);
    }

    #[test]
    fn board_point_is_used_without_robot() {
        let mut arm = al5d();
        let board = Board::load_named("a4").unwrap();
        // Pixel of (x, y) = (-5, 12) cm.
        let loc = LocationInput {
            name: "p".into(),
            robot: None,
            point: Some([320.0 - 100.0, 480.0 - 20.0 * 6.0]),
        };
        let home = arm.home().to_vec();
        let r = arm.resolve_location(&loc, Some(&board), &home).unwrap();
        assert_eq!(r.source, PoseSource::Board);
        assert!((r.point_m[0] + 0.05).abs() < 1e-12 && (r.point_m[1] - 0.12).abs() < 1e-12);
        let e = arm.resolve_location(&loc, None, &home).unwrap_err();
        assert_eq!(e, LocationError::NoPosition { name: "p".into() });
    }

    #[test]
    fn a_registered_board_moves_robot_and_point_locations_alike() {
        let mut arm = al5d();
        let plain = Board::load_named("a4").unwrap();
        let text = std::fs::read_to_string(plain.path()).unwrap()
            + "placement: {offset_mm: [7, -4], rotation_deg: 1.5}\n";
        let moved = Board::parse(plain.path(), &text).unwrap();
        let home = arm.home().to_vec();
        let cart = LocationInput {
            name: "c".into(),
            robot: Some(RobotPosition::Cartesian([-10.0, 28.0, 0.0])),
            point: None,
        };
        let px = LocationInput {
            name: "p".into(),
            robot: None,
            point: Some([320.0 - 200.0, 480.0 - 20.0 * 22.0]),
        };
        // Without a placement, exactly the old positions.
        let r = arm.resolve_location(&cart, Some(&plain), &home).unwrap();
        assert_eq!(r.point_m, [-0.10, 0.28, 0.0]);
        for loc in [&cart, &px] {
            let r = arm.resolve_location(loc, Some(&moved), &home).unwrap();
            // (-10, 28) is 10 cm left of and 10 cm beyond the centre (0, 18).
            let (s, c) = 1.5f64.to_radians().sin_cos();
            let want = [-10.0 * c - 10.0 * s + 0.7, 18.0 - 10.0 * s + 10.0 * c - 0.4];
            assert!(
                (r.point_m[0] * 100.0 - want[0]).abs() < 1e-9
                    && (r.point_m[1] * 100.0 - want[1]).abs() < 1e-9,
                "{}: {:?} vs {want:?}",
                loc.name,
                r.point_m
            );
            let (tip, _) = arm.tool_point_axis(&r.at);
            assert!((tip.x - r.point_m[0]).hypot(tip.y - r.point_m[1]) < 1e-4);
        }
    }

    #[test]
    fn unreachable_location_is_named() {
        let mut arm = al5d();
        let locs = vec![
            LocationInput {
                name: "ok".into(),
                robot: Some(RobotPosition::Cartesian([0.0, 18.0, 0.0])),
                point: None,
            },
            LocationInput {
                name: "far".into(),
                robot: Some(RobotPosition::Cartesian([0.0, 60.0, 0.0])),
                point: None,
            },
        ];
        let e = arm.validate_locations(&locs, None, true).unwrap_err();
        assert!(
            matches!(&e, LocationError::Unreachable { name, which: "above", .. } if name == "far"),
            "{e}"
        );
        assert!(
            e.to_string()
                .starts_with("location far: above pose unreachable"),
            "{e}"
        );
    }

    #[test]
    fn legacy_angles_are_used_as_given() {
        let mut arm = al5d();
        // §8.3 vector for robot=0,20,0.
        let a = [
            0.0, -5.5822, -1.7502, -82.6676, 85.0, 0.0, -17.4964, -16.0684, -56.4352, 85.0,
        ];
        let loc = LocationInput {
            name: "l".into(),
            robot: Some(RobotPosition::Angles(a)),
            point: None,
        };
        let home = arm.home().to_vec();
        let r = arm.resolve_location(&loc, None, &home).unwrap();
        assert_eq!(r.source, PoseSource::LegacyAngles);
        assert!((r.at[1] - (-17.4964f64).to_radians()).abs() < 1e-12);
        // The legacy 'at' pose puts the fingertips on the board at (0, 20) cm.
        let (tip, axis) = arm.tool_point_axis(&r.at);
        assert!(
            (tip - k::nalgebra::Vector3::new(0.0, 0.20, 0.0)).norm() < 1e-5,
            "{tip}"
        );
        assert!(axis.z < -0.99999);
        // Out-of-limit legacy angles are rejected, naming the location and joint.
        let mut bad = a;
        bad[6] = -120.0;
        let loc = LocationInput {
            name: "bad".into(),
            robot: Some(RobotPosition::Angles(bad)),
            point: None,
        };
        let e = arm.resolve_location(&loc, None, &home).unwrap_err();
        assert!(
            e.to_string()
                .contains("location bad: at pose: joint shoulder_pitch"),
            "{e}"
        );
    }

    #[test]
    fn legacy_angles_need_a_mapping() {
        let mut arm = Arm::load_named("desk6").unwrap();
        let loc = LocationInput {
            name: "l".into(),
            robot: Some(RobotPosition::Angles([0.0; 10])),
            point: None,
        };
        let home = arm.home().to_vec();
        let e = arm.resolve_location(&loc, None, &home).unwrap_err();
        assert!(matches!(e, LocationError::NoLegacyMapping { .. }), "{e}");
    }
}
