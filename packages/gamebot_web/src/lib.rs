//! The gamebot web UI: a node that serves the page (embedded in the binary)
//! and one WebSocket per page over HTTP on 127.0.0.1, bridged to the graph
//! through any [`gamebot_ros::Bus`].
//!
//! - [`bridge`]: the bus thread (topics → snapshot + broadcast) and the
//!   commands carried out through the graph's services.
//! - [`server`]: axum routes, origin check, one task per connection.
//! - [`protocol`]: the messages, command parsing and checks (pure).
//! - [`registration`]: the board-to-arm registration wizard's state.
//! - [`layout`]: the board picture from the game file (pure).
//! - [`camera`]: frames to JPEG (pure).
//!
//! Embedding: [`start`] binds and returns a [`WebServer`] (its URL: port 0
//! picks a free one); [`run`] also prints the URL and blocks until shutdown.

#![forbid(unsafe_code)]

pub mod bridge;
pub mod camera;
pub mod layout;
pub mod protocol;
pub mod registration;
pub mod server;

use gamebot_ros::{Bus, BusError, Shutdown};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Settings of the web node.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// Where to listen (`127.0.0.1:8080`; port 0 picks a free port).
    pub addr: SocketAddr,
    /// Origins allowed besides the server's own (`http://127.0.0.1:PORT`,
    /// `http://localhost:PORT`).
    pub extra_origins: Vec<String>,
    /// Camera frames per second sent to a watching page, at most.
    pub camera_fps: f64,
    /// Folder whose `.game` files the new-game dialog offers.
    pub games_dir: PathBuf,
    /// Board file the registration wizard registers (a name under
    /// `config/boards/` or a path).
    pub board: String,
}

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            extra_origins: Vec::new(),
            camera_fps: 5.0,
            games_dir: PathBuf::from("games"),
            board: "a4".into(),
        }
    }
}

impl WebConfig {
    /// Reads the node's parameters `addr`, `camera_fps` and `games_dir`.
    pub fn declare<B: Bus>(bus: &B) -> Result<WebConfig, gamebot_ros::ParamError> {
        let d = WebConfig::default();
        let p = bus.parameters();
        Ok(WebConfig {
            addr: p.declare_parsed(
                "addr",
                &d.addr.to_string(),
                "HTTP address (127.0.0.1:PORT; port 0 picks a free port)",
                |t| t.parse::<SocketAddr>(),
            )?,
            extra_origins: p.declare_string_array(
                "extra_origins",
                &[],
                "origins allowed besides http://127.0.0.1:PORT and http://localhost:PORT",
            )?,
            camera_fps: p.declare_double(
                "camera_fps",
                d.camera_fps,
                0.1,
                30.0,
                "camera frames per second sent to a page, at most",
            )?,
            games_dir: PathBuf::from(p.declare_string(
                "games_dir",
                "games",
                "folder of .game files offered for a new game",
            )?),
            board: p.declare_string(
                "board",
                &d.board,
                "board file the registration wizard registers (config/boards/ name or path)",
            )?,
        })
    }
}

/// Why the web node could not start.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("web node: {0}")]
    Bus(#[from] BusError),
    #[error("web node: cannot start the HTTP runtime: {0}")]
    Runtime(#[source] std::io::Error),
}

/// A running web node.
pub struct WebServer {
    addr: SocketAddr,
    threads: Vec<JoinHandle<()>>,
}

impl WebServer {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
    /// `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
    /// Waits until the node stopped (after the shutdown request).
    pub fn join(self) {
        for t in self.threads {
            if t.join().is_err() {
                tracing::error!("web: a thread of the web node panicked");
            }
        }
    }
}

fn game_files(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("game"))
                .map(|p| p.to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Starts the web node: creates its endpoints on `bus`, binds `cfg.addr`, and
/// runs until `shutdown` is requested.
pub fn start<B: Bus>(bus: &B, shutdown: &Shutdown, cfg: WebConfig) -> Result<WebServer, WebError> {
    let topics = bridge::Topics::new(bus)?;
    let clients = Arc::new(bridge::Clients::new(bus)?);
    let listener = std::net::TcpListener::bind(cfg.addr).map_err(|source| WebError::Bind {
        addr: cfg.addr,
        source,
    })?;
    let addr = listener.local_addr().map_err(|source| WebError::Bind {
        addr: cfg.addr,
        source,
    })?;
    listener
        .set_nonblocking(true)
        .map_err(|source| WebError::Bind { addr, source })?;
    let port = addr.port();
    let mut origins = vec![
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
        format!("http://[::1]:{port}"),
        format!("http://{addr}"),
    ];
    origins.extend(cfg.extra_origins.iter().cloned());
    let mut shared = bridge::Shared::new(cfg.camera_fps);
    shared.board_file = cfg.board.clone();
    let shared = Arc::new(shared);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(16)
        .thread_name("gamebot-web")
        .enable_all()
        .build()
        .map_err(WebError::Runtime)?;
    let app = Arc::new(server::App {
        shared: shared.clone(),
        clients,
        origins,
        games: game_files(&cfg.games_dir),
        stop: stop_rx.clone(),
    });
    let http = std::thread::Builder::new()
        .name("web-http".into())
        .spawn(move || {
            let mut stop = stop_rx;
            rt.block_on(async move {
                let listener = match tokio::net::TcpListener::from_std(listener) {
                    Ok(l) => l,
                    Err(e) => {
                        tracing::error!("web: {addr}: {e}");
                        return;
                    }
                };
                let serve =
                    axum::serve(listener, server::router(app)).with_graceful_shutdown(async move {
                        let _ = stop.wait_for(|s| *s).await;
                    });
                if let Err(e) = serve.await {
                    tracing::error!("web: HTTP server on {addr}: {e}");
                }
            });
            rt.shutdown_timeout(std::time::Duration::from_secs(2));
        })
        .map_err(WebError::Runtime)?;
    let shutdown = shutdown.clone();
    let pump = std::thread::Builder::new()
        .name("web-bus".into())
        .spawn(move || {
            bridge::pump(topics, &shared, &shutdown);
            let _ = stop_tx.send(true);
        })
        .map_err(WebError::Runtime)?;
    tracing::info!("web UI on http://{addr}/");
    Ok(WebServer {
        addr,
        threads: vec![pump, http],
    })
}

/// Runs the web node until `shutdown`: prints its URL on stdout (the line
/// `http://127.0.0.1:PORT/`), then blocks. Returns the URL it served.
pub fn run<B: Bus>(bus: &B, shutdown: &Shutdown, cfg: WebConfig) -> Result<String, WebError> {
    let server = start(bus, shutdown, cfg)?;
    let url = server.url();
    println!("{url}");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    server.join();
    Ok(url)
}
