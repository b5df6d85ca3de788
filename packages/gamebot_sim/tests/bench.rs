//! Cost of the simulated world: physics ticks while the arm moves, and
//! camera frames. Not a test of speed (nothing is asserted about time); run
//! with `cargo test --release -p gamebot_sim --test bench -- --ignored --nocapture`.

mod common;

use std::time::{Duration, Instant};

use common::*;
use gamebot_kinematics::{Action, Arm};

#[test]
#[ignore]
fn world_step_and_render_cost() {
    for (game_name, arm_name) in [
        ("tictactoe", "al5d"),
        ("reversi8", "al5d"),
        ("tictactoe", "desk6"),
    ] {
        let g = game(game_name);
        let s = g.initial_state();
        let mut w = world(&g, &s, arm_name, "none", 1);
        let mut drv = driver(&w);
        let mut arm = Arm::load_named(arm_name).unwrap();
        let park = arm.park().to_vec();
        let open = arm.config().gripper.open;
        let traj = arm
            .plan(&park, open, &[Action::Home, Action::Park])
            .unwrap();
        let pts = points(&arm, &traj, 0.05);
        drv.run_trajectory(&pts).unwrap();
        // The world replays the whole motion (every 5 ms tick) now.
        let ticks = (w.clock().now().as_secs_f64() / 0.005).ceil();
        let t0 = Instant::now();
        w.update().unwrap();
        let step = t0.elapsed().as_secs_f64();
        // Frames: one of the arm over the board, then the arm parked.
        let n = 30;
        let t1 = Instant::now();
        for _ in 0..n {
            w.step(Duration::from_millis(100)).unwrap();
            let f = w.render().unwrap();
            assert_eq!(gamebot_vision::source::frame_size(&f.image), (640, 480));
        }
        let frame = t1.elapsed().as_secs_f64() / n as f64;
        println!(
            "{game_name:<10} {arm_name:<6} pieces {:>3}: {ticks:.0} ticks of 5 ms in {:.1} ms = {:.1} us/tick ({:.0}x real time); step 100 ms + render: {:.2} ms/frame",
            w.pieces().len(),
            step * 1e3,
            step / ticks * 1e6,
            ticks * 0.005 / step,
            frame * 1e3,
        );
    }
}
