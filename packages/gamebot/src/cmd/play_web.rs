//! `gamebot play GAME --web ADDR`: the in-process graph of referee, planner
//! and web UI (no arm, no camera). The person is a `human` player who plays
//! by clicking in the browser; the computer plays the other side(s) with
//! `--vs`. Runs until Ctrl-C.

use anyhow::Context;
use gamebot_nodes::{planner_node, referee_node};
use gamebot_ros::inproc::InProcBus;
use gamebot_ros::{NodeOptions, ParamValue, Shutdown};
use std::net::SocketAddr;

/// Runs the graph; the URL is printed on stdout once the page is served.
pub fn run(
    game: &str,
    strategy: &str,
    human_side: i32,
    seed: u64,
    addr: SocketAddr,
) -> anyhow::Result<i32> {
    let players = crate::common::load_game(game)?.player_count();
    let n = players as i32;
    if human_side < 0 || human_side > n {
        anyhow::bail!("--human-side must be between 0 and {n}");
    }
    let kinds: Vec<String> = (1..=n)
        .map(|p| {
            if p == human_side {
                "human".to_string()
            } else {
                format!("ai:{strategy}")
            }
        })
        .collect();
    let bus = InProcBus::new();
    let referee = bus.node(
        NodeOptions::new("referee")
            .param("game_file", ParamValue::String(game.to_string()))
            .param("player_kinds", ParamValue::StringArray(kinds))
            .param("seed", ParamValue::Integer(seed as i64)),
    )?;
    let planner = bus.node(NodeOptions::new("planner"))?;
    let web = bus.node(NodeOptions::new("web"))?;
    let shutdown = Shutdown::new();
    let s = shutdown.clone();
    ctrlc::set_handler(move || s.request()).context("installing the Ctrl-C handler")?;
    let cfg = gamebot_web::WebConfig {
        addr,
        ..Default::default()
    };
    std::thread::scope(|sc| -> anyhow::Result<()> {
        let (r, p) = (&referee, &planner);
        let (sd1, sd2) = (shutdown.clone(), shutdown.clone());
        let ref_thread = sc.spawn(move || {
            let out = referee_node::run(r, &sd1, false);
            sd1.request();
            out
        });
        let plan_thread = sc.spawn(move || {
            let out = planner_node::run(p, &sd2);
            sd2.request();
            out
        });
        let web_result = gamebot_web::run(&web, &shutdown, cfg);
        shutdown.request();
        let r = ref_thread
            .join()
            .map_err(|_| anyhow::anyhow!("the referee thread panicked"))?;
        let p = plan_thread
            .join()
            .map_err(|_| anyhow::anyhow!("the planner thread panicked"))?;
        web_result?;
        r.context("referee")?;
        p.context("planner")?;
        Ok(())
    })?;
    Ok(0)
}
