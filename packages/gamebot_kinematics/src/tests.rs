//! Crate-level tests: URDF/YAML loading, FK, both IK solvers, the legacy formula,
//! trajectories and servo mapping on the project's two arms.

use crate::*;
use k::nalgebra::Vector3;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

fn al5d() -> Arm {
    Arm::load_named("al5d").expect("al5d loads")
}
fn desk6() -> Arm {
    Arm::load_named("desk6").expect("desk6 loads")
}

fn names(arm: &Arm) -> Vec<&str> {
    arm.joints().iter().map(|j| j.name.as_str()).collect()
}

// ---------------------------------------------------------------- loading

#[test]
fn urdfs_parse_and_joint_trees_match_the_yaml() {
    let a = al5d();
    assert_eq!(
        names(&a),
        [
            "base_yaw",
            "shoulder_pitch",
            "elbow_pitch",
            "wrist_pitch",
            "wrist_roll"
        ]
    );
    assert_eq!(a.gripper().name, "gripper_finger");
    assert_eq!(a.name(), "al5d");
    assert!(a.closed_form_status().is_ok());
    let d = desk6();
    assert_eq!(
        names(&d),
        [
            "base_yaw",
            "shoulder_pitch",
            "elbow_pitch",
            "forearm_roll",
            "wrist_pitch",
            "tool_roll"
        ]
    );
    assert_eq!(d.name(), "desk6");
    let why = d.closed_form_status().unwrap_err();
    assert!(why.to_string().contains("6 joints"), "{why}");
    // Every YAML joint is a URDF joint with the channel the YAML gives.
    for arm in [&a, &d] {
        for jc in &arm.config().joints {
            let j = arm
                .joints()
                .iter()
                .chain([arm.gripper()])
                .find(|j| j.name == jc.name)
                .unwrap();
            assert_eq!(j.servo.channel, jc.channel);
        }
    }
}

#[test]
fn mimic_finger_mirrors_the_driven_one() {
    let mut a = al5d();
    let home = a.home().to_vec();
    let tfs = a.link_transforms(&home, 0.012);
    let get = |n: &str| tfs.iter().find(|(l, _)| l == n).unwrap().1;
    let (l, r, g) = (
        get("left_finger_link"),
        get("right_finger_link"),
        get("gripper_link"),
    );
    let dl = g.inverse() * l;
    let dr = g.inverse() * r;
    assert!((dl.translation.vector.x - 0.012).abs() < 1e-12);
    assert!((dr.translation.vector.x + 0.012).abs() < 1e-12);
    assert_eq!(tfs.len(), 9, "every link has a transform");
}

#[test]
fn al5d_zero_pose_matches_the_published_dimensions() {
    let mut a = al5d();
    let (p, axis) = a.tool_point_axis(&[0.0; 5]);
    // Upper arm vertical from 5 cm, forearm and gripper straight forward.
    let expect = Vector3::new(0.0, 0.187325 + 0.085725, 0.05 + 0.14605);
    assert!((p - expect).norm() < 1e-12, "{p}");
    assert!((axis - Vector3::y()).norm() < 1e-12, "{axis}");
}

#[test]
fn effective_limits_respect_the_servo_range() {
    let a = al5d();
    for j in a.joints().iter().chain([a.gripper()]) {
        for v in [j.lower, j.upper] {
            let p = j.pulse_unchecked(v);
            assert!((499.9..=2500.1).contains(&p), "{} {v} -> {p}", j.name);
        }
    }
    // The wrist's horn offset: 500..2500 us is -110..+70 degrees.
    let w = &a.joints()[3];
    assert!(
        (w.lower.to_degrees() + 110.0).abs() < 0.01 && (w.upper.to_degrees() - 70.0).abs() < 0.01
    );
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(rel),
    )
    .unwrap()
}

fn load_modified(
    yaml: impl Fn(String) -> String,
    urdf: impl Fn(String) -> String,
) -> Result<Arm, LoadError> {
    Arm::from_strings(
        Path::new("arms/x.yaml"),
        &yaml(read("config/arms/al5d.yaml")),
        Path::new("x.urdf"),
        &urdf(read("urdf/al5d.urdf")),
    )
}

#[test]
fn malformed_arm_files_give_named_errors() {
    let same = |s: String| s;
    let err = |y: &dyn Fn(String) -> String, u: &dyn Fn(String) -> String| {
        load_modified(y, u).unwrap_err().to_string()
    };
    // YAML: syntax, missing and unknown fields, with file and line.
    let e = err(
        &|s| s.replace("approach_height_m: 0.05", "approach_height_m: [oops"),
        &same,
    );
    assert!(e.starts_with("arms/x.yaml:"), "{e}");
    let e = err(
        &|s| s.replace("approach_height_m:", "aproach_height_m:"),
        &same,
    );
    assert!(e.contains("unknown field `aproach_height_m`"), "{e}");
    // Names that do not fit the URDF.
    let e = err(
        &|s| s.replace("- name: elbow_pitch", "- name: elbow"),
        &same,
    );
    assert!(e.contains("elbow"), "{e}");
    let e = err(&|s| s.replace("tool_link: tool0", "tool_link: tcp"), &same);
    assert_eq!(e, "arms/x.yaml: tool_link tcp is not a link of the URDF");
    let e = err(&|s| s.replace("channel: 4", "channel: 3"), &same);
    assert_eq!(e, "arms/x.yaml: channel 3 is used by two joints");
    let e = err(&|s| s.replace("open: 0.014", "open: 0.03"), &same);
    assert!(
        e.contains("gripper_finger = 0.0300 is outside its limits"),
        "{e}"
    );
    let e = err(&|s| s.replace("release: 0.012", "release: 0.02"), &same);
    assert!(
        e.contains("gripper release 0.02 must lie between closed (0.0085) and open (0.014)"),
        "{e}"
    );
    let e = err(
        &|s| s.replace("wrist_roll: 0.0}\n# Folded", "}\n# Folded"),
        &same,
    );
    assert_eq!(e, "arms/x.yaml: home: joint wrist_roll is missing");
    let e = err(
        &|s| {
            s.replace(
                "flip: {joint: wrist_roll, from: -1.57, to: 1.57",
                "flip: {joint: shoulder_pitch, from: -0.5, to: 0.5",
            )
        },
        &same,
    );
    assert!(
        e.contains("flip: turning shoulder_pitch moves the tool point"),
        "{e}"
    );
    let e = err(
        &|s| {
            s.replace(
                "us_per_rad: 636.6198\n    direction: 1\n    max_velocity: 1.0",
                "us_per_m: 636.6198\n    direction: 1\n    max_velocity: 1.0",
            )
        },
        &same,
    );
    assert!(e.contains("shoulder_pitch is revolute"), "{e}");
    // URDF: broken XML, dangling mimic (k would panic), loops, missing limits.
    let e = err(&same, &|s| s.replace("</robot>", ""));
    assert!(e.starts_with("x.urdf: invalid URDF"), "{e}");
    let e = err(&same, &|s| {
        s.replace("<mimic joint=\"gripper_finger\"", "<mimic joint=\"nope\"")
    });
    assert!(e.contains("mimics unknown joint nope"), "{e}");
    let e = err(&same, &|s| {
        s.replace("<parent link=\"base_link\"/>", "<parent link=\"tool0\"/>")
    });
    assert!(e.contains("loop") || e.contains("root"), "{e}");
    let e = err(&same, &|s| {
        s.replace(
            "<limit lower=\"-1.309\" upper=\"1.5708\"",
            "<limit lower=\"1.5708\" upper=\"-1.309\"",
        )
    });
    assert!(e.contains("elbow_pitch: needs <limit"), "{e}");
    let e = err(&same, &|s| {
        s.replace("<axis xyz=\"1 0 0\"/>", "<axis xyz=\"0 0 0\"/>")
    });
    assert!(e.contains("axis must be a non-zero vector"), "{e}");
    // A missing file names the path.
    let e = Arm::load("/nonexistent/arm.yaml").unwrap_err().to_string();
    assert!(e.starts_with("/nonexistent/arm.yaml: cannot read"), "{e}");
}

// ---------------------------------------------------------------- legacy formula (§8.3)

#[test]
fn legacy_formula_reproduces_the_reference_vectors() {
    let vectors: [([f64; 3], [f64; 10]); 4] = [
        (
            [-9.0, 20.0, 0.0],
            [
                -24.2277, -13.1188, 6.7473, -83.6285, 85.0, -24.2277, -24.0280, -7.3975, -58.5745,
                85.0,
            ],
        ),
        (
            [0.0, 20.0, 0.0],
            [
                0.0, -5.5822, -1.7502, -82.6676, 85.0, 0.0, -17.4964, -16.0684, -56.4352, 85.0,
            ],
        ),
        (
            [12.0, 9.0, 0.0],
            [
                53.1301, 14.3716, -20.5097, -83.8620, 85.0, 53.1301, 0.5474, -36.6274, -53.9200,
                85.0,
            ],
        ),
        (
            [0.0, 25.0, 3.0],
            [
                0.0, -25.8808, 32.0246, -96.1438, 85.0, 0.0, -29.9157, 10.9551, -71.0394, 85.0,
            ],
        ),
    ];
    for (p, want) in vectors {
        let got = legacy_al5d_angles(p[0], p[1], p[2]).unwrap();
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 5e-5, "{p:?}: got {got:?}");
        }
    }
    assert!(legacy_al5d_angles(0.0, 40.0, 0.0).is_err());
    let e = legacy_al5d_angles(0.0, 0.0, 0.0).unwrap_err();
    assert_eq!(e.to_string(), "unreachable position (0, 0, 0) cm");
}

#[test]
fn closed_form_on_the_urdf_agrees_with_the_legacy_formula() {
    let mut a = al5d();
    let home = a.home().to_vec();
    for p in [
        [-9.0, 20.0, 0.0],
        [0.0, 20.0, 0.0],
        [12.0, 9.0, 0.0],
        [0.0, 25.0, 3.0],
        [-5.0, 15.0, 2.0],
    ] {
        let legacy = legacy_al5d_angles(p[0], p[1], p[2]).unwrap();
        for (half, dz) in [(&legacy[..5], legacy::W), (&legacy[5..], 0.0)] {
            let t = [p[0] / 100.0, p[1] / 100.0, (p[2] + dz) / 100.0];
            let s = a.solve(t, &home, SolverChoice::ClosedForm).unwrap();
            let mapped = a.legacy_pose(half).unwrap();
            for (i, (got, want)) in s.q.iter().zip(&mapped).take(4).enumerate() {
                assert!(
                    (got - want).abs() < 1e-9,
                    "{p:?} joint {i}: {got} vs {want}"
                );
            }
            assert!(s.position_error_m < 1e-9 && s.axis_error_rad < 1e-9);
        }
    }
}

use crate::closed_form::legacy;

// ---------------------------------------------------------------- round trips

/// Random AL5D pose with the tool vertical (wrist pitch completes -90°), within limits.
fn random_vertical_al5d(arm: &Arm, rng: &mut ChaCha8Rng) -> Vec<f64> {
    loop {
        let mut q: Vec<f64> = arm
            .joints()
            .iter()
            .map(|j| rng.gen_range(j.lower..=j.upper))
            .collect();
        q[3] = -std::f64::consts::FRAC_PI_2 - q[1] - q[2];
        if arm.joints()[3].within(q[3]) {
            return q;
        }
    }
}

/// Random desk6 pose with the tool vertical: forearm roll and wrist pitch of the spherical
/// wrist are computed from the frames of the other joints.
fn random_vertical_desk6(arm: &mut Arm, rng: &mut ChaCha8Rng) -> Vec<f64> {
    loop {
        let mut q: Vec<f64> = arm
            .joints()
            .iter()
            .map(|j| rng.gen_range(j.lower..=j.upper))
            .collect();
        q[3] = 0.0;
        q[4] = 0.0;
        let tfs = arm.link_transforms(&q, 0.01);
        let r3 = tfs
            .iter()
            .find(|(l, _)| l == "wrist_link")
            .unwrap()
            .1
            .rotation;
        let u = r3.inverse() * -Vector3::z();
        let flip = if rng.gen_bool(0.5) {
            0.0
        } else {
            std::f64::consts::PI
        };
        let mut j4 = (-u.x).atan2(u.y) + flip;
        if j4 > std::f64::consts::PI {
            j4 -= 2.0 * std::f64::consts::PI;
        }
        let (s, c) = j4.sin_cos();
        let v = Vector3::new(c * u.x + s * u.y, -s * u.x + c * u.y, u.z);
        let j5 = (-v.y).atan2(v.z);
        q[3] = j4;
        q[4] = j5;
        if arm.joints()[3].within(j4) && arm.joints()[4].within(j5) {
            let (_, axis) = arm.tool_point_axis(&q);
            assert!(
                axis.z < -1.0 + 1e-9,
                "generator must give a vertical tool: {axis}"
            );
            return q;
        }
    }
}

struct RoundTrip {
    n: usize,
    ok: usize,
    worst_pos: f64,
    worst_axis: f64,
}

fn round_trip(arm: &mut Arm, n: usize, solver: SolverChoice, seed: u64) -> RoundTrip {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let home = arm.home().to_vec();
    let mut stats = RoundTrip {
        n: 0,
        ok: 0,
        worst_pos: 0.0,
        worst_axis: 0.0,
    };
    let mut prev = home.clone();
    while stats.n < n {
        let q = if arm.dof() == 5 {
            random_vertical_al5d(arm, &mut rng)
        } else {
            random_vertical_desk6(arm, &mut rng)
        };
        let (p, _) = arm.tool_point_axis(&q);
        // Targets on or above the table only.
        if p.z < 0.0 {
            continue;
        }
        stats.n += 1;
        // Half seeded from home, half from the previous solution (the arm's current pose).
        let seed_q = if stats.n & 1 == 0 {
            home.clone()
        } else {
            prev.clone()
        };
        match arm.solve([p.x, p.y, p.z], &seed_q, solver) {
            Ok(s) => {
                let (got, axis) = arm.tool_point_axis(&s.q);
                let pos = (got - p).norm();
                let ang = axis.dot(&-Vector3::z()).clamp(-1.0, 1.0).acos();
                for (v, j) in s.q.iter().zip(arm.joints()) {
                    assert!(
                        j.within(*v),
                        "{} = {v} outside [{}, {}]",
                        j.name,
                        j.lower,
                        j.upper
                    );
                }
                stats.worst_pos = stats.worst_pos.max(pos);
                stats.worst_axis = stats.worst_axis.max(ang);
                if pos < 1e-4 && ang < 0.5f64.to_radians() {
                    stats.ok += 1;
                }
                prev = s.q;
            }
            Err(e) => eprintln!("failed: {e}"),
        }
    }
    stats
}

fn assert_round_trip(r: &RoundTrip, what: &str) {
    eprintln!(
        "{what}: {}/{} ok, worst position error {:.3e} m, worst axis error {:.3e} rad",
        r.ok, r.n, r.worst_pos, r.worst_axis
    );
    assert!(
        r.ok as f64 >= 0.999 * r.n as f64,
        "{what}: only {}/{} succeeded",
        r.ok,
        r.n
    );
    assert!(r.worst_pos < 1e-4, "{what}: position error {}", r.worst_pos);
    assert!(
        r.worst_axis < 0.5f64.to_radians(),
        "{what}: axis error {}",
        r.worst_axis
    );
}

#[test]
fn al5d_numeric_round_trip_10000() {
    let r = round_trip(&mut al5d(), 10_000, SolverChoice::Numeric, 1);
    assert_round_trip(&r, "al5d numeric");
}

#[test]
fn al5d_closed_form_round_trip_10000() {
    let r = round_trip(&mut al5d(), 10_000, SolverChoice::ClosedForm, 2);
    assert_eq!(r.ok, r.n, "the closed form is exact on reachable targets");
    assert_round_trip(&r, "al5d closed form");
}

#[test]
fn desk6_numeric_round_trip_10000() {
    let r = round_trip(&mut desk6(), 10_000, SolverChoice::Numeric, 3);
    assert_round_trip(&r, "desk6 numeric");
}

#[test]
fn numeric_and_closed_form_agree() {
    let mut a = al5d();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let home = a.home().to_vec();
    let mut compared = 0;
    while compared < 2000 {
        let q = random_vertical_al5d(&a, &mut rng);
        let (p, _) = a.tool_point_axis(&q);
        let t = [p.x, p.y, p.z];
        let c = a.solve(t, &home, SolverChoice::ClosedForm).unwrap();
        let Ok(n) = a.solve(t, &home, SolverChoice::Numeric) else {
            continue;
        };
        compared += 1;
        let (pc, _) = a.tool_point_axis(&c.q);
        let (pn, _) = a.tool_point_axis(&n.q);
        assert!((pc - pn).norm() < 1e-4, "{t:?}: {pc} vs {pn}");
        // Seeded from the closed-form solution, the numeric solver stays on it.
        let n2 = a.solve(t, &c.q, SolverChoice::Numeric).unwrap();
        let dq: f64 =
            n2.q.iter()
                .zip(&c.q)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f64::max);
        assert!(
            dq < 1e-3,
            "{t:?}: numeric left the seed's branch by {dq} rad"
        );
    }
}

#[test]
fn consecutive_solutions_are_continuous() {
    // Sweep the tool across the board in 2 mm steps; each solve seeded from the last.
    for mut arm in [al5d(), desk6()] {
        let mut q = arm.home().to_vec();
        for choice in [SolverChoice::Numeric, SolverChoice::Auto] {
            for i in 0..=100 {
                let x = -0.10 + 0.002 * i as f64;
                let s = arm.solve([x, 0.18, 0.03], &q, choice).unwrap();
                if i > 0 {
                    let jump: f64 =
                        s.q.iter()
                            .zip(&q)
                            .map(|(a, b)| (a - b).abs())
                            .fold(0.0, f64::max);
                    assert!(jump < 0.05, "{}: jump of {jump} rad at x = {x}", arm.name());
                }
                q = s.q;
            }
        }
    }
}

// ---------------------------------------------------------------- errors

#[test]
fn unreachable_targets_say_how_far_and_why() {
    let mut a = al5d();
    let home = a.home().to_vec();
    // Far beyond the arm: about 60 - 37 cm away from the workspace, no limit involved.
    let e = a
        .solve([0.0, 0.60, 0.0], &home, SolverChoice::Auto)
        .unwrap_err();
    let IkError::Unreachable {
        distance_m, blocks, ..
    } = &e
    else {
        panic!("{e}")
    };
    assert!(*distance_m > 0.2 && *distance_m < 0.3, "{e}");
    assert!(blocks.0.is_empty(), "{e}");
    assert!(e.to_string().contains("beyond the arm's reach"), "{e}");
    // Behind the arm: geometrically reachable, but the base yaw cannot turn that far.
    let e = a
        .solve([0.05, -0.18, 0.02], &home, SolverChoice::Auto)
        .unwrap_err();
    let IkError::Unreachable {
        blocks, distance_m, ..
    } = &e
    else {
        panic!("{e}")
    };
    assert!(!blocks.0.is_empty(), "{e}");
    assert!(*distance_m > 0.01, "{e}");
    assert!(e.to_string().contains("blocked by joint limit"), "{e}");
    // The closed form alone reports the blocking limits too.
    let e = a
        .solve([0.05, -0.18, 0.02], &home, SolverChoice::ClosedForm)
        .unwrap_err();
    assert!(
        e.to_string().contains("base_yaw") || e.to_string().contains("shoulder_pitch"),
        "{e}"
    );
    // Bad inputs.
    assert!(matches!(
        a.solve([f64::NAN, 0.1, 0.0], &home, SolverChoice::Auto),
        Err(IkError::NonFinite { .. })
    ));
    assert_eq!(
        a.solve([0.0, 0.2, 0.0], &[0.0; 3], SolverChoice::Numeric)
            .unwrap_err(),
        IkError::SeedLength {
            got: 3,
            expected: 5
        }
    );
    let mut d = desk6();
    let h6 = d.home().to_vec();
    assert!(matches!(
        d.solve([0.0, 0.2, 0.0], &h6, SolverChoice::ClosedForm),
        Err(IkError::NoClosedForm { .. })
    ));
    let e = d
        .solve([0.0, 0.9, 0.0], &h6, SolverChoice::Auto)
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("target (0.0000, 0.9000, 0.0000) m is unreachable"),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever the target and seed, a returned solution is within every joint limit and
    /// reaches the target; an error is a typed unreachable error.
    #[test]
    fn solutions_never_violate_limits(
        x in -0.45f64..0.45, y in -0.45f64..0.45, z in -0.1f64..0.5,
        seed in proptest::collection::vec(-4.0f64..4.0, 6),
        numeric in any::<bool>(), six in any::<bool>(),
    ) {
        let mut arm = if six { desk6() } else { al5d() };
        let seed = &seed[..arm.dof()];
        let choice = if numeric { SolverChoice::Numeric } else { SolverChoice::Auto };
        match arm.solve([x, y, z], seed, choice) {
            Ok(s) => {
                for (v, j) in s.q.iter().zip(arm.joints()) {
                    prop_assert!(j.lower <= *v && *v <= j.upper, "{} = {}", j.name, v);
                }
                prop_assert!(arm.pulses(&s.q, None, "").is_ok());
                let (p, axis) = arm.tool_point_axis(&s.q);
                prop_assert!((p - Vector3::new(x, y, z)).norm() < 1e-4);
                prop_assert!(axis.z < -(0.5f64.to_radians().cos()));
            }
            Err(IkError::Unreachable { distance_m, blocks, .. }) => {
                prop_assert!(distance_m > 0.0 || !blocks.0.is_empty());
            }
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }
}

// ---------------------------------------------------------------- servo mapping

#[test]
fn pulses_map_both_ways_and_are_range_checked() {
    let a = al5d();
    let home = a.home().to_vec();
    let p = a.pulses(&home, Some(a.config().gripper.open), "").unwrap();
    assert_eq!(
        p.iter().map(|s| s.channel).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4, 5]
    );
    assert!((p[0].pulse_us - 1500.0).abs() < 1e-9);
    // Wrist: 1722.2 + 636.62 * -1.8708
    assert!((p[3].pulse_us - (1722.2 - 636.6198 * 1.8708)).abs() < 1e-6);
    assert!(
        (p[5].pulse_us - 1200.0).abs() < 1e-6,
        "gripper open (14 mm) = 2600 - 100000 us/m x 0.014 m = 1200 us"
    );
    let pairs: Vec<(u8, f64)> = p.iter().map(|s| (s.channel, s.pulse_us)).collect();
    let (q, g) = a.positions_from_pulses(&pairs, &[0.0; 5]).unwrap();
    for (x, y) in q.iter().zip(&home) {
        assert!((x - y).abs() < 1e-12);
    }
    assert!((g.unwrap() - a.config().gripper.open).abs() < 1e-12);
    assert_eq!(
        a.positions_from_pulses(&[(9, 1500.0)], &home).unwrap_err(),
        LimitError::UnknownChannel { channel: 9 }
    );
    let mut bad = home.clone();
    bad[1] = 1.7;
    let e = a.pulses(&bad, None, " (test)").unwrap_err().to_string();
    assert_eq!(
        e,
        "joint shoulder_pitch = 1.7000 is outside its limits [-1.5708, 1.5708] (test)"
    );
    let e = a.pulses(&home[..4], None, "").unwrap_err();
    assert!(matches!(
        e,
        LimitError::Length {
            expected: 5,
            got: 4,
            ..
        }
    ));
    bad[1] = f64::NAN;
    assert!(matches!(
        a.pulses(&bad, None, "").unwrap_err(),
        LimitError::NonFinite { .. }
    ));
}

// ---------------------------------------------------------------- trajectories

fn place(arm: &mut Arm, name: &str, x: f64, y: f64) -> ResolvedLocation {
    let home = arm.home().to_vec();
    arm.resolve_location(
        &LocationInput {
            name: name.into(),
            robot: Some(RobotPosition::Cartesian([x * 100.0, y * 100.0, 0.0])),
            point: None,
        },
        None,
        &home,
    )
    .unwrap()
}

fn check_trajectory(arm: &Arm, t: &Trajectory) {
    arm.check_trajectory(t).unwrap();
    let n = arm.dof();
    let mut lim: Vec<(f64, f64)> = arm
        .joints()
        .iter()
        .map(|j| (j.servo.max_velocity, j.servo.max_acceleration))
        .collect();
    lim.push((
        arm.gripper().servo.max_velocity,
        arm.gripper().servo.max_acceleration,
    ));
    let dt = 0.002;
    let samples = t.sample_every(dt);
    for w in samples.windows(2) {
        let ((t0, p0, v0), (t1, p1, v1)) = (&w[0], &w[1]);
        let h = t1 - t0;
        for i in 0..=n {
            // Continuous position, bounded speed and acceleration.
            assert!(
                (p1[i] - p0[i]).abs() <= lim[i].0 * h * (1.0 + 1e-6) + 1e-12,
                "jump in {i} at {t0}: {p0:?} -> {p1:?}, {:?}",
                t.waypoints
                    .iter()
                    .map(|w| (w.time_s, w.positions[i], &w.label))
                    .collect::<Vec<_>>()
            );
            assert!(v0[i].abs() <= lim[i].0 * (1.0 + 1e-9));
            // Across a waypoint the velocity is 0 on both sides, within a rest-to-rest segment
            // it changes by at most a_max · h.
            assert!(
                (v1[i] - v0[i]).abs() <= lim[i].1 * h * (1.0 + 1e-6) + 1e-9,
                "accel in {i} at {t0}"
            );
        }
        let (q, g) = (&p0[..n], p0[n]);
        arm.pulses(q, Some(g), "").unwrap();
    }
    // Waypoints are passed exactly and at rest, all joints together.
    for w in &t.waypoints {
        let (p, v) = t.sample(w.time_s);
        for i in 0..=n {
            assert!((p[i] - w.positions[i]).abs() < 1e-9);
            assert!(v[i].abs() < 1e-9);
        }
    }
}

#[test]
fn transfer_flip_and_park_trajectory() {
    for mut arm in [al5d(), desk6()] {
        let a = place(&mut arm, "a", -0.06, 0.14);
        let b = place(&mut arm, "b", 0.135, 0.25);
        let home = arm.home().to_vec();
        let open = arm.config().gripper.open;
        let t = arm
            .plan(
                &home,
                open,
                &[
                    Action::Transfer { from: &a, to: &b },
                    Action::Flip { at: &b },
                    Action::Park,
                ],
            )
            .unwrap();
        let labels: Vec<&str> = t.waypoints.iter().map(|w| w.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "start",
                "above a",
                "at a",
                "close",
                "close settle",
                "above a",
                "above b",
                "at b",
                "open",
                "open settle",
                "above b",
                "above b",
                "at b",
                "close",
                "close settle",
                "lift b",
                "turn b",
                "at b",
                "open",
                "open settle",
                "above b",
                "park"
            ],
            "{}",
            arm.name()
        );
        assert!(
            t.duration() > 3.0 && t.duration() < 60.0,
            "{}",
            t.duration()
        );
        check_trajectory(&arm, &t);
        // The piece is carried: closed between the grip and the release.
        let n = arm.dof();
        let closed = arm.config().gripper.closed;
        assert!((t.waypoints[5].positions[n] - closed).abs() < 1e-12);
        assert_eq!(t.joint_names.last().unwrap(), "gripper_finger");
    }
}

#[test]
fn trajectory_starting_closed_opens_first_and_rejects_bad_starts() {
    let mut arm = al5d();
    let a = place(&mut arm, "a", 0.0, 0.12);
    let b = place(&mut arm, "b", 0.0, 0.24);
    let home = arm.home().to_vec();
    let closed = arm.config().gripper.closed;
    let t = arm
        .plan(
            &home,
            closed,
            &[Action::Transfer { from: &a, to: &b }, Action::Home],
        )
        .unwrap();
    assert_eq!(t.waypoints[1].label, "open");
    assert_eq!(t.waypoints.last().unwrap().label, "home");
    check_trajectory(&arm, &t);
    let mut bad = home.clone();
    bad[0] = 2.0;
    let e = arm.plan(&bad, closed, &[Action::Park]).unwrap_err();
    assert!(
        e.to_string()
            .contains("base_yaw = 2.0000 is outside its limits"),
        "{e}"
    );
    // A location whose stored pose was tampered with is caught before anything is sent.
    let mut evil = a.clone();
    evil.at[2] = -1.5;
    let e = arm
        .plan(
            &home,
            closed,
            &[Action::Transfer {
                from: &evil,
                to: &b,
            }],
        )
        .unwrap_err();
    assert!(e.to_string().contains("at waypoint 4 (at a)"), "{e}");
}

#[test]
fn flip_needs_a_configured_manoeuvre() {
    let yaml = read("config/arms/al5d.yaml");
    let yaml = yaml.split("\nflip:").next().unwrap().to_string();
    let mut arm = Arm::from_strings(
        Path::new("x.yaml"),
        &yaml,
        Path::new("al5d.urdf"),
        &read("urdf/al5d.urdf"),
    )
    .unwrap();
    let a = place(&mut arm, "a", 0.0, 0.15);
    let home = arm.home().to_vec();
    let e = arm
        .plan(&home, 0.016, &[Action::Flip { at: &a }])
        .unwrap_err();
    assert_eq!(e, TrajectoryError::NoFlip { arm: "al5d".into() });
}

// ---------------------------------------------------------------- reach map

#[test]
fn reach_map_covers_the_board_for_both_arms() {
    let board = Board::load_named("a4").unwrap();
    for mut arm in [al5d(), desk6()] {
        // The grid and the supply columns of the shared layout, 1 cm cells.
        let map = arm.reach_map((-0.10, 0.10), (0.08, 0.28), 0.01, 0.0);
        assert_eq!((map.nx, map.ny), (21, 21));
        assert!(
            map.cells.iter().all(|c| c.above && c.at),
            "{}: grid not fully reachable",
            arm.name()
        );
        for x in [-0.135, 0.135] {
            let col = arm.reach_map((x, x), (0.09, 0.27), 0.01, 0.0);
            assert!(
                col.cells.iter().all(|c| c.above && c.at),
                "{}: column x={x}",
                arm.name()
            );
        }
        // Far away is not reachable.
        let far = arm.reach_map((0.0, 0.0), (0.6, 0.6), 0.01, 0.0);
        assert!(!far.cells[0].at);
        let img = render_map(
            &map,
            Some(&board),
            &[Marker {
                name: "a1".into(),
                x_m: 0.0,
                y_m: 0.18,
                ok: true,
            }],
            "test",
        );
        assert_eq!(img.width(), (0.21 * reach::MAP_PX_PER_M).round() as u32);
    }
}

// ---------------------------------------------------------------- hardening (issue 20)

#[test]
fn hostile_urdf_and_yaml_are_refused_with_a_reason() {
    let same = |s: String| s;
    let err = |y: &dyn Fn(String) -> String, u: &dyn Fn(String) -> String| {
        load_modified(y, u).unwrap_err().to_string()
    };
    // 30,000 nested <visual> elements: refused before the recursive parser sees them.
    let e = err(&same, &|s| {
        s.replacen("<visual>", &"<visual>".repeat(30_000), 1)
    });
    assert!(e.contains("x.urdf:24: nested deeper than 64 levels"), "{e}");
    // A YAML nested 100,000 levels deep: refused in linear time.
    let e = err(
        &|s| {
            format!(
                "{s}\nextra: {}1{}\n",
                "[".repeat(100_000),
                "]".repeat(100_000)
            )
        },
        &same,
    );
    assert!(e.contains("arms/x.yaml:"), "{e}");
    assert!(e.contains("nested deeper than 64 levels"), "{e}");
    // A joint that mimics itself, a NaN multiplier, an origin at 1e308.
    let mimic = |m: &'static str| {
        move |s: String| {
            s.replacen(
                "<joint name=\"elbow_pitch\" type=\"revolute\">",
                &format!("<joint name=\"elbow_pitch\" type=\"revolute\">{m}"),
                1,
            )
        }
    };
    let e = err(&same, &mimic("<mimic joint=\"elbow_pitch\"/>"));
    assert!(e.contains("joint elbow_pitch mimics itself"), "{e}");
    let e = err(
        &same,
        &mimic("<mimic joint=\"base_yaw\" multiplier=\"NaN\"/>"),
    );
    assert!(e.contains("mimic multiplier/offset must be finite"), "{e}");
    let e = err(&same, &|s| {
        // The first origin inside the base_yaw joint gets z = 1e308.
        let (head, tail) = s.split_at(s.find("<joint name=\"base_yaw\"").unwrap());
        let at = tail.find("<origin xyz=\"").unwrap() + "<origin xyz=\"".len();
        let end = at + tail[at..].find('"').unwrap();
        format!("{head}{}0 0 1e308{}", &tail[..at], &tail[end..])
    });
    assert!(e.contains("origin must be finite, within ±1000"), "{e}");
    // The same in a link's visual (drawn by the simulated camera), with the link's line.
    let e = err(&same, &|s| {
        let at = s.find("<visual>").unwrap();
        let o = at + s[at..].find("<origin xyz=\"").unwrap() + "<origin xyz=\"".len();
        let end = o + s[o..].find('"').unwrap();
        format!("{}1e308 0 0{}", &s[..o], &s[end..])
    });
    assert!(e.contains(": visual origin must be finite"), "{e}");
    assert!(e.contains("invalid URDF: line "), "{e}");
}

#[test]
fn a_file_that_is_not_yaml_is_not_dumped_into_the_error() {
    let dir = std::env::temp_dir().join(format!("gamebot-kin-passwd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("passwd");
    let line = "root:x:0:0:root:/root:/bin/bash\n";
    std::fs::write(&f, line.repeat(200)).unwrap();
    let e = Arm::load(&f).unwrap_err().to_string();
    assert!(e.len() < 400, "{} bytes: {e}", e.len());
    std::fs::remove_dir_all(&dir).unwrap();
    // A missing named arm names the searched relative path, not the build checkout.
    let e = Arm::load_named("no_such_arm").unwrap_err().to_string();
    assert_eq!(
        e,
        "config/arms/no_such_arm.yaml: no arm named no_such_arm: not found in the current directory or its parents"
    );
    let e = Arm::load("/dev/zero").unwrap_err().to_string();
    assert!(e.contains("limit"), "{e}");
}
