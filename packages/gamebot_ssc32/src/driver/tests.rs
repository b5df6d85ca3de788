//! Driver ↔ emulator over a real pseudo-terminal. Move durations are checked
//! on the shared virtual clock, never against wall time.

use super::*;
use crate::emulator::{Emulator, EmulatorConfig, LogEntry, Outcome};
use crate::protocol::Speed;
use std::sync::mpsc::Receiver;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}
fn ch(n: u32) -> Channel {
    Channel::new(n).unwrap()
}
fn p(n: u32) -> Pulse {
    Pulse::new(n).unwrap()
}

/// An emulator on a virtual clock and a driver sharing that clock.
fn pair() -> (Emulator, Driver) {
    pair_with(9600, 9600)
}

fn pair_with(board_baud: u32, driver_baud: u32) -> (Emulator, Driver) {
    let emu = emulator(board_baud);
    let drv = Driver::open(config(&emu).baud(driver_baud)).expect("driver opens the emulator");
    (emu, drv)
}

fn emulator(baud: u32) -> Emulator {
    Emulator::start(EmulatorConfig {
        baud,
        clock: Clock::virtual_clock(),
        ..EmulatorConfig::default()
    })
    .expect("emulator starts")
}

fn config(emu: &Emulator) -> DriverConfig {
    let mut c = DriverConfig::new(emu.path().to_str().unwrap()).clock(emu.clock().clone());
    // Generous: the machine may be busy; only failures wait this long.
    c.read_timeout = Duration::from_secs(2);
    c
}

fn group(targets: &[(u32, u32)], t: Option<u32>) -> GroupMove {
    GroupMove::new(
        targets
            .iter()
            .map(|&(c, pl)| ServoTarget {
                channel: ch(c),
                pulse: p(pl),
                speed: None,
            })
            .collect(),
        t.map(|t| MoveTime::new(t).unwrap()),
    )
    .unwrap()
}

fn drain(log: &Receiver<LogEntry>) -> Vec<LogEntry> {
    log.try_iter().collect()
}

#[test]
fn handshake_reports_the_firmware() {
    let (_emu, drv) = pair();
    assert_eq!(drv.firmware(), "SSC32-V2.50USB");
}

#[test]
fn group_move_takes_the_commanded_time_on_the_simulated_clock() {
    let (emu, mut drv) = pair();
    let first = drv
        .move_and_wait(&group(&[(0, 1000), (1, 2000)], None))
        .unwrap();
    assert_eq!(
        first.elapsed,
        Duration::ZERO,
        "first pulses jump into place"
    );

    let before = emu.clock().now();
    let report = drv
        .move_and_wait(&group(&[(0, 2000), (1, 1000)], Some(1000)))
        .unwrap();
    let poll = drv.config().poll_interval;
    assert_eq!(report.expected, ms(1000));
    assert!(
        report.elapsed >= ms(1000) && report.elapsed <= ms(1000) + poll,
        "took {:?} of simulated time",
        report.elapsed
    );
    assert!(report.polls > 1, "completion found by polling Q");
    let rec = emu.last_move().unwrap();
    assert_eq!(rec.started, before);
    assert_eq!(rec.duration, ms(1000));
    assert_eq!(
        drv.read_pulses(&[ch(0), ch(1)]).unwrap(),
        vec![Some(p(2000)), Some(p(1000))]
    );
}

#[test]
fn speed_limit_longer_than_t_sets_the_duration() {
    let (emu, mut drv) = pair();
    drv.move_and_wait(&group(&[(4, 1000)], None)).unwrap();
    let m = GroupMove::new(
        vec![ServoTarget {
            channel: ch(4),
            pulse: p(1600),
            speed: Some(Speed::new(200).unwrap()),
        }],
        Some(MoveTime::new(1000).unwrap()),
    )
    .unwrap();
    let report = drv.move_and_wait(&m).unwrap();
    // 600 µs at 200 µs/s = 3 s, longer than T = 1 s.
    assert_eq!(report.expected, ms(3000));
    assert_eq!(emu.last_move().unwrap().duration, ms(3000));
    assert!(report.elapsed >= ms(3000) && report.elapsed <= ms(3010));
}

#[test]
fn qp_read_back_equals_the_targets_on_all_channels() {
    let (_emu, mut drv) = pair();
    let targets: Vec<(u32, u32)> = (0..32).map(|c| (c, 500 + c * 60)).collect();
    drv.move_and_wait(&group(&targets, None)).unwrap();
    let back = drv.read_all_pulses().unwrap();
    let want: Vec<_> = targets.iter().map(|&(_, pl)| Some(p(pl))).collect();
    assert_eq!(back, want);
}

#[test]
fn untouched_channels_read_as_off() {
    let (_emu, mut drv) = pair();
    assert_eq!(drv.read_pulses(&[ch(5), ch(6)]).unwrap(), vec![None, None]);
}

#[test]
fn trajectory_runs_as_timed_group_moves() {
    let (emu, mut drv) = pair();
    let frames = emu.subscribe_pulses();
    let pts = vec![
        TrajectoryPoint {
            pulses: vec![(ch(0), p(1500)), (ch(1), p(1500))],
            time_from_start: Duration::ZERO,
        },
        TrajectoryPoint {
            pulses: vec![(ch(0), p(1800)), (ch(1), p(1200))],
            time_from_start: ms(500),
        },
        TrajectoryPoint {
            pulses: vec![(ch(0), p(2000)), (ch(1), p(1000))],
            time_from_start: ms(1200),
        },
    ];
    let start = emu.clock().now();
    let reports = drv.run_trajectory(&pts).unwrap();
    let total = emu.clock().now() - start;
    assert_eq!(reports.len(), 3);
    assert_eq!(reports[1].expected, ms(500));
    assert_eq!(reports[2].expected, ms(700));
    assert!(total >= ms(1200) && total <= ms(1200) + 3 * drv.config().poll_interval);
    assert_eq!(
        drv.read_pulses(&[ch(0), ch(1)]).unwrap(),
        vec![Some(p(2000)), Some(p(1000))]
    );
    // The owner saw the outputs move monotonically and end on the targets.
    let mut seen = Vec::new();
    loop {
        let f = frames
            .recv_timeout(Duration::from_secs(2))
            .expect("final frame");
        seen.push(f.pulses[0]);
        if f.pulses[0] == 2000 && f.pulses[1] == 1000 && !f.moving {
            break;
        }
    }
    // A frame from before the first command (channel still unset, 0) may come first.
    let seen: Vec<u16> = seen.into_iter().skip_while(|&p| p == 0).collect();
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(seen.iter().all(|&p| (1500..=2000).contains(&p)), "{seen:?}");
    assert_eq!(emu.pulses().pulses[..2], [2000, 1000]);
}

#[test]
fn trajectory_validation() {
    let pt = |t| TrajectoryPoint {
        pulses: vec![(ch(0), p(1500))],
        time_from_start: ms(t),
    };
    assert!(matches!(
        trajectory_moves(&[pt(100), pt(100)]),
        Err(DriverError::Trajectory(_))
    ));
    assert!(matches!(
        trajectory_moves(&[pt(70_000)]),
        Err(DriverError::Trajectory(_))
    ));
    let empty = TrajectoryPoint {
        pulses: vec![],
        time_from_start: ms(5),
    };
    assert!(matches!(
        trajectory_moves(&[empty]),
        Err(DriverError::Trajectory(_))
    ));
    let ms_ = trajectory_moves(&[pt(0), pt(250)]).unwrap();
    assert_eq!(ms_[0].time(), None);
    assert_eq!(ms_[1].time(), Some(MoveTime::new(250).unwrap()));
}

#[test]
fn malformed_commands_are_ignored_like_the_firmware() {
    let emu = emulator(9600);
    let log = emu.subscribe_log();
    let mut port = serialport::new(emu.path().to_str().unwrap(), 9600)
        .timeout(Duration::from_secs(2))
        .open_native()
        .unwrap();
    port.write_all(b"HELLO\r#0P9999\r#1P1500\rQP 1\x1bQ\r")
        .unwrap();
    let mut b = [0u8; 1];
    port.read_exact(&mut b).unwrap();
    assert_eq!(
        &b, b".",
        "only Q answered; the ESC-cancelled QP and bad lines were not"
    );
    port.write_all(b"QP 1\r").unwrap();
    port.read_exact(&mut b).unwrap();
    assert_eq!(b[0], 150);
    let entries = drain(&log);
    let ignored = entries
        .iter()
        .filter(|e| matches!(e.outcome, Outcome::Ignored(_)))
        .count();
    assert_eq!(ignored, 2, "{entries:?}");
}

#[test]
fn missing_port_names_the_port() {
    let e = Driver::open(DriverConfig::new("/dev/ttyUSB-gamebot-missing")).unwrap_err();
    assert!(matches!(e, DriverError::NotFound { .. }));
    assert!(e.to_string().contains("/dev/ttyUSB-gamebot-missing"));
}

#[test]
fn busy_port_is_reported_as_busy() {
    let (emu, _drv) = pair();
    let e = Driver::open(config(&emu)).unwrap_err();
    assert!(matches!(e, DriverError::Busy { .. }), "{e}");
    assert!(e.to_string().contains(emu.path().to_str().unwrap()));
}

#[test]
fn permission_denied_mentions_dialout() {
    let e = classify_open_error(
        "/dev/ttyUSB0",
        9600,
        serialport::Error::new(
            serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied),
            "Permission denied",
        ),
    );
    assert!(matches!(e, DriverError::PermissionDenied { .. }));
    assert!(e.to_string().contains("dialout") && e.to_string().contains("/dev/ttyUSB0"));
    // Through the OS too, when not root (root may open anything).
    if unsafe { libc::geteuid() } != 0 {
        let dir = std::env::temp_dir().join(format!("gamebot-ssc32-perm-{}", std::process::id()));
        std::fs::write(&dir, b"").unwrap();
        std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o000))
            .unwrap();
        let e = Driver::open(DriverConfig::new(dir.to_str().unwrap())).unwrap_err();
        let _ = std::fs::remove_file(&dir);
        assert!(matches!(e, DriverError::PermissionDenied { .. }), "{e}");
    }
}

#[test]
fn wrong_baud_fails_the_handshake_with_a_hint() {
    let emu = emulator(9600);
    let log = emu.subscribe_log();
    let mut c = config(&emu).baud(115200);
    c.read_timeout = ms(200);
    let e = Driver::open(c).unwrap_err();
    assert!(
        matches!(e, DriverError::Handshake { baud: 115200, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("--baud 9600"));
    let entries = drain(&log);
    assert!(entries
        .iter()
        .all(|e| e.outcome == Outcome::WrongBaud { client: 115200 }));
    assert!(!entries.is_empty());
    // The right rate works on the same device.
    assert!(Driver::open(config(&emu).baud(9600)).is_ok());
}

#[test]
fn paced_line_still_answers_correctly() {
    let emu = Emulator::start(EmulatorConfig {
        clock: Clock::virtual_clock(),
        pace_line: true,
        ..EmulatorConfig::default()
    })
    .unwrap();
    let mut drv = Driver::open(config(&emu)).unwrap();
    drv.move_and_wait(&group(&[(7, 2210)], None)).unwrap();
    assert_eq!(drv.read_pulses(&[ch(7)]).unwrap(), vec![Some(p(2210))]);
}

#[test]
fn the_common_115200_rate_works() {
    let (_emu, drv) = pair_with(115200, 115200);
    assert_eq!(drv.config().baud, 115200);
}

#[test]
fn disconnect_mid_move_fails_within_the_deadline() {
    let (emu, mut drv) = pair();
    drv.move_and_wait(&group(&[(0, 1000)], None)).unwrap();
    let expected = drv.start_move(&group(&[(0, 2000)], Some(5000))).unwrap();
    let clock = emu.clock().clone();
    let t0 = clock.now();
    std::thread::scope(|s| {
        s.spawn(|| {
            // Pull the plug a second into the move (simulated time).
            while clock.now() < t0 + ms(1000) {
                std::thread::sleep(Duration::from_micros(200));
            }
            emu.disconnect();
        });
        let e = drv.wait_done(expected, &[ch(0)]).unwrap_err();
        assert!(matches!(e, DriverError::Disconnected { .. }), "{e}");
        assert!(e.to_string().contains(emu.slave_path().to_str().unwrap()));
    });
    assert!(clock.now() - t0 < drv.config().deadline(expected));
    assert!(!emu.is_connected());
    assert!(matches!(
        drv.movement(),
        Err(DriverError::Disconnected { .. })
    ));
}

#[test]
fn stalled_move_times_out_then_stops() {
    let (emu, mut drv) = pair();
    let log = emu.subscribe_log();
    drv.move_and_wait(&group(&[(2, 1000)], None)).unwrap();
    emu.set_stall(true);
    let t0 = emu.clock().now();
    let e = drv
        .move_and_wait(&group(&[(2, 2000)], Some(1000)))
        .unwrap_err();
    let waited = emu.clock().now() - t0;
    match &e {
        DriverError::MoveTimeout {
            expected,
            waited: w,
            channels,
            ..
        } => {
            assert_eq!(*expected, ms(1000));
            assert_eq!(channels, &vec![2]);
            assert!(*w >= drv.config().deadline(ms(1000)));
        }
        other => panic!("expected MoveTimeout, got {other}"),
    }
    assert!(waited <= drv.config().deadline(ms(1000)) + drv.config().poll_interval);
    // STOP ended the move even though the servo is still stalled.
    assert_eq!(drv.movement().unwrap(), Movement::Done);
    // (The emulator has now processed everything sent before that Q.)
    let stops: Vec<_> = drain(&log)
        .into_iter()
        .filter(|e| e.outcome == Outcome::Executed(Command::Stop(ch(2))))
        .collect();
    assert_eq!(stops.len(), 1, "STOP sent after the deadline");
    assert_eq!(drv.read_pulses(&[ch(2)]).unwrap(), vec![Some(p(1000))]);
}

#[test]
fn garbage_once_is_ignored() {
    let (emu, mut drv) = pair();
    drv.move_and_wait(&group(&[(0, 1230)], None)).unwrap();
    emu.inject_garbage(&[0xff, 0x00, b'+', 0x7e]);
    assert_eq!(drv.read_pulses(&[ch(0)]).unwrap(), vec![Some(p(1230))]);
    emu.inject_garbage(b".");
    drv.move_and_wait(&group(&[(0, 1500)], Some(100))).unwrap();
    emu.inject_garbage(&[b'S', b'S', 0x0d]);
    assert_eq!(drv.version().unwrap(), "SSC32-V2.50USB");
}

#[test]
fn persistent_garbage_is_an_error() {
    let (emu, mut drv) = pair();
    emu.set_garbage_per_response(3).unwrap();
    let e = drv.movement().unwrap_err();
    assert!(matches!(e, DriverError::Garbage { attempts: 4, .. }), "{e}");
    emu.set_garbage_per_response(0).unwrap();
    assert_eq!(drv.movement().unwrap(), Movement::Done);
}

#[test]
fn slow_responses_within_the_timeout_work() {
    let (emu, mut drv) = pair();
    emu.set_response_delay(ms(30));
    assert_eq!(drv.movement().unwrap(), Movement::Done);
    assert_eq!(drv.version().unwrap(), "SSC32-V2.50USB");
}

#[test]
fn responses_slower_than_the_timeout_fail_then_recover() {
    let emu = emulator(9600);
    let mut c = config(&emu);
    c.read_timeout = ms(100);
    let mut drv = Driver::open(c).unwrap();
    emu.set_response_delay(ms(400));
    let e = drv.movement().unwrap_err();
    assert!(matches!(e, DriverError::Timeout { .. }), "{e}");
    assert!(e.to_string().contains(emu.path().to_str().unwrap()));
    emu.set_response_delay(Duration::ZERO);
    // Let the late answer ('.') land in the input buffer: it must not be
    // mistaken for the next answer (as a QP byte it would read 460 µs).
    std::thread::sleep(ms(600));
    drv.move_and_wait(&group(&[(9, 700)], None)).unwrap();
    assert_eq!(drv.read_pulses(&[ch(9)]).unwrap(), vec![Some(p(700))]);
}

#[test]
fn stop_all_stops_every_moving_channel() {
    let (emu, mut drv) = pair();
    drv.move_and_wait(&group(&[(0, 1000), (5, 1000)], None))
        .unwrap();
    drv.start_move(&group(&[(0, 2000), (5, 2000)], Some(1000)))
        .unwrap();
    // Q is answered in order, so the move has started before the clock moves.
    assert_eq!(drv.movement().unwrap(), Movement::Moving);
    emu.clock().advance(ms(500));
    drv.stop_all().unwrap();
    assert_eq!(drv.movement().unwrap(), Movement::Done);
    assert_eq!(
        drv.read_pulses(&[ch(0), ch(5)]).unwrap(),
        vec![Some(p(1500)), Some(p(1500))]
    );
}

#[test]
fn planned_duration_is_never_too_short() {
    let (_emu, mut drv) = pair();
    let fast = GroupMove::new(
        vec![ServoTarget {
            channel: ch(3),
            pulse: p(1500),
            speed: Some(Speed::new(1000).unwrap()),
        }],
        None,
    )
    .unwrap();
    // Position unknown: assume the full 2000 µs range.
    assert_eq!(drv.planned_duration(&fast), ms(2000));
    drv.move_and_wait(&group(&[(3, 1400)], None)).unwrap();
    assert_eq!(drv.planned_duration(&fast), ms(100));
}
