//! Issue 20 at the command line: every reproduction of the bad-input probe
//! runs the debug binary and must end with an error message (exit 2 or 1)
//! or quietly (exit 0), never with a panic or a signal.

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};

fn gamebot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("gamebot runs")
}

/// Asserts a clean refusal: exit code 2 (clap or command error), no panic, the message present.
fn refused(args: &[&str], message: &str) {
    let o = gamebot(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(
        err.contains(message),
        "{args:?}: expected `{message}` in: {err}"
    );
}

#[test]
fn numeric_options_have_checked_ranges() {
    for bad in ["NaN", "inf", "1e20", "-1"] {
        let seconds = format!("--seconds={bad}");
        refused(
            &["bench", "rules", "games/tictactoe.game", &seconds],
            "accepted 0.001 to 86400 seconds",
        );
    }
    refused(
        &["bench", "vision", "--seconds=-1", "--frames", "0"],
        "invalid value",
    );
    refused(
        &["bench", "ssc32", "--iterations", "0"],
        "accepted 1 to 1000000",
    );
    refused(
        &["bench", "ssc32", "--bauds", "0"],
        "accepted 300 to 4000000 baud",
    );
    refused(
        &["ssc32", "probe", "--port", "/dev/null", "--baud", "0"],
        "baud",
    );
    refused(
        &[
            "reach",
            "games/tictactoe.game",
            "--png",
            "/tmp/r.png",
            "--step-cm",
            "10000",
        ],
        "accepted 0.1 to 50 cm",
    );
    refused(
        &["bench", "ik", "--arms", "al5d", "--step-cm", "0.001"],
        "accepted 0.1 to 50 cm",
    );
    refused(
        &["ssc32", "emulator", "--garbage", "18446744073709551615"],
        "accepted 0 to 65536 bytes",
    );
    refused(
        &[
            "render",
            "--game",
            "games/tictactoe.game",
            "--out",
            "/tmp/unused.png",
            "--offset",
            "1e300",
        ],
        "--offset",
    );
    refused(
        &[
            "render",
            "--game",
            "games/tictactoe.game",
            "--out",
            "/tmp/unused.png",
            "--noise",
            "NaN",
        ],
        "--noise",
    );
    refused(
        &["bench", "ai", "games/tictactoe.game", "--seconds=-1"],
        "--seconds",
    );
    refused(&["bench", "rules", "--max-moves", "0"], "--max-moves");
    refused(&["ik", "1e300", "0", "0"], "accepted -10 to 10 m");
    // Too large for the type is a range error, not "expected a number".
    refused(
        &["bench", "ssc32", "--iterations", "99999999999999999999999"],
        "out of range",
    );
}

#[test]
fn a_closed_stdout_pipe_ends_quietly() {
    for args in [
        &[
            "check",
            "games/tictactoe.game",
            "games/connect4.game",
            "games/alquerque.game",
        ][..],
        &[
            "bench",
            "rules",
            "--json",
            "games/tictactoe.game",
            "--seconds",
            "0.01",
        ][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args(args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close our end at once: every write of the child hits a broken pipe.
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {status:?} {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn endless_and_foreign_inputs_are_bounded_and_named() {
    let o = gamebot(&["check", "/dev/zero"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("/dev/zero:0:0: larger than the 16777216-byte limit"),
        "{out}"
    );
    // `check -` reads the game from standard input.
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let game = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../games/tictactoe.game"
    ))
    .unwrap();
    child.stdin.take().unwrap().write_all(&game).unwrap();
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.starts_with("<stdin>: ok: 2 player(s)"), "{out}");
}

#[test]
fn solve_refuses_a_two_player_game() {
    refused(
        &["solve", "games/tictactoe.game"],
        "solve is for one-player puzzles, and this game has 2 players",
    );
}

#[test]
fn a_missing_arm_does_not_show_the_build_checkout() {
    let o = gamebot(&["ik", "--arm", "no_such_arm", "0.1", "0.1", "0.1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("config/arms/no_such_arm.yaml: no arm named no_such_arm"),
        "{err}"
    );
    assert!(!err.contains("packages/gamebot_kinematics"), "{err}");
}

/// A scratch directory for one test, removed at the end.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("gamebot-hard-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }
    fn path(&self, f: &str) -> String {
        self.0.join(f).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

#[test]
fn calibrate_refuses_degenerate_points_in_any_orientation() {
    let dir = Scratch::new("calib");
    let image = dir.path("frame.png");
    let o = gamebot(&[
        "render",
        "--game",
        "games/tictactoe.game",
        "--out",
        &image,
        "--clean",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.path("cam.yaml");
    let calibrate = |points: &str, message: &str| {
        refused(
            &[
                "calibrate",
                "--image",
                &image,
                "--board",
                "config/boards/a4.yaml",
                "--out",
                &out,
                "--points",
                points,
            ],
            message,
        );
        assert!(
            !std::path::Path::new(&out).exists(),
            "{points}: a file was written"
        );
    };
    // The case (a diagonal gave a homography with 6e17 entries, exit 0), and others.
    calibrate("0,0 10,10 20,20 30,30", "the image points lie on one line");
    calibrate("5,0 5,100 5,200 5,300", "the image points lie on one line");
    calibrate(
        "10,10 600,10 10,10 10,400",
        "image points 1 and 3 are at the same place",
    );
    calibrate("0,0 100,100 200,200 0,300", "fit no invertible homography");
    // The sheet corners of the clean default view calibrate fine.
    let o = gamebot(&[
        "calibrate",
        "--image",
        &image,
        "--board",
        "config/boards/a4.yaml",
        "--out",
        &out,
        "--points",
        "20,0 620,0 620,420 20,420",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn render_refuses_impossible_poses_in_its_own_words() {
    for (pose, message) in [
        ("0,18,-50,0,0,0", "not above the table"),
        ("0,18,50,0,180,0", "faces away"),
        ("0,18,50,0,89.99,0", "camera at (0, 18, 50) cm"),
        ("0,18,50,1e300,0,0", "must be finite and within ±1e6"),
    ] {
        let o = gamebot(&[
            "render",
            "--game",
            "games/tictactoe.game",
            "--out",
            "/tmp/unused-pose.png",
            "--pose",
            pose,
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{pose}: {err}");
        assert!(
            err.contains(message),
            "{pose}: expected `{message}` in: {err}"
        );
        assert!(
            !err.contains("OpenCV(") && !err.contains("Assertion") && !err.contains(".cpp"),
            "{pose}: {err}"
        );
    }
}

#[test]
fn camera_files_are_validated_with_the_key_named() {
    let dir = Scratch::new("camfile");
    let image = dir.path("frame.png");
    let o = gamebot(&[
        "render",
        "--game",
        "games/tictactoe.game",
        "--out",
        &image,
        "--clean",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let good = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../config/camera/sim.yaml"
    ))
    .unwrap();
    let set = |key: &str, value: &str| -> String {
        good.lines()
            .map(|l| {
                if l.starts_with(&format!("{key}:")) {
                    format!("{key}: {value}")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut replaced = false;
    let first_entry = good
        .lines()
        .map(|l| {
            if !replaced && l.starts_with("- - ") {
                replaced = true;
                "- - 1e300"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(replaced);
    for (text, message) in [
        (first_entry, "image_to_table_cm[0][0] is 1e300"),
        (
            set("reprojection_max_px", ".nan"),
            "reprojection_max_px is NaN",
        ),
        (good.clone() + "\nfocal: 3\n", "unknown field `focal`"),
        (set("method", "magic"), "method `magic` is not one of"),
        (
            set("board", "config/boards/missing.yaml"),
            "board file `config/boards/missing.yaml` does not exist",
        ),
        (
            set("reprojection_rms_px", "-1"),
            "reprojection_rms_px is -1",
        ),
    ] {
        let cal = dir.path("cam.yaml");
        std::fs::write(&cal, &text).unwrap();
        refused(
            &[
                "detect",
                "--game",
                "games/tictactoe.game",
                "--image",
                &image,
                "--calibration",
                &cal,
            ],
            message,
        );
    }
}

#[test]
fn urdf_errors_carry_line_numbers() {
    let dir = Scratch::new("urdf");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let yaml = std::fs::read_to_string(format!("{root}/config/arms/al5d.yaml")).unwrap();
    let urdf_name = yaml
        .lines()
        .find_map(|l| l.strip_prefix("urdf:"))
        .unwrap()
        .trim()
        .to_string();
    let urdf = std::fs::read_to_string(format!("{root}/config/arms/{urdf_name}")).unwrap();
    let yaml = yaml
        .lines()
        .map(|l| {
            if l.starts_with("urdf:") {
                "urdf: x.urdf"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(dir.path("x.yaml"), yaml).unwrap();
    // The first </visual> dropped: quick-xml finds the mismatched end tag.
    let broken = urdf.replacen("</visual>", "", 1);
    let at = urdf[..urdf.find("</visual>").unwrap()].lines().count();
    std::fs::write(dir.path("x.urdf"), broken).unwrap();
    let o = gamebot(&["ik", "--arm", &dir.path("x.yaml"), "0.1", "0.1", "0.1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("x.urdf: invalid URDF: line "), "{err}");
    let line: usize = err
        .split("invalid URDF: line ")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no line number in {err}"));
    // Reported where the mismatch shows: at or shortly after the dropped tag.
    assert!(
        (at..at + 12).contains(&line),
        "line {line}, dropped at {at}: {err}"
    );
}
