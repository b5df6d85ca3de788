//! The HTTP side: the embedded page and the WebSocket, on a tokio runtime of
//! its own. Each connection gets the snapshot, then every update; its
//! commands are checked ([`Command::parse`]) and carried out off the async
//! threads ([`crate::bridge::execute`]).

use crate::bridge::{execute, Clients, Outgoing, Shared};
use crate::protocol::{Command, Reply, MAX_COMMAND_BYTES};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use rust_embed::RustEmbed;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc, watch};

/// The page: `assets/` (index.html, style.css, and app.js bundled by esbuild
/// from `web/src/`), compiled into the binary.
#[derive(RustEmbed)]
#[folder = "assets/"]
struct Assets;

/// Commands one page may have in flight at once.
const MAX_IN_FLIGHT: usize = 4;

pub struct App {
    pub shared: Arc<Shared>,
    pub clients: Arc<Clients>,
    /// Origins allowed to open the WebSocket.
    pub origins: Vec<String>,
    pub games: Vec<String>,
    pub stop: watch::Receiver<bool>,
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/ws", get(ws_handler))
        .fallback(get(asset))
        .with_state(app)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

async fn asset(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    match Assets::get(path) {
        Some(file) => (
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            file.data.into_owned(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, format!("no such page: /{path}\n")).into_response(),
    }
}

/// Whether a WebSocket from `origin` may connect (browsers always send one;
/// a page served from elsewhere must not drive the robot).
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> Result<(), String> {
    match headers.get(header::ORIGIN) {
        None => Ok(()),
        Some(o) => {
            let o = o
                .to_str()
                .map_err(|_| "unreadable Origin header".to_string())?;
            if allowed.iter().any(|a| a.eq_ignore_ascii_case(o)) {
                Ok(())
            } else {
                Err(format!("origin {o} is not allowed to use this WebSocket"))
            }
        }
    }
}

async fn ws_handler(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if let Err(why) = origin_allowed(&headers, &app.origins) {
        tracing::warn!("web: refused a WebSocket: {why}");
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    ws.max_message_size(MAX_COMMAND_BYTES * 4)
        .on_upgrade(move |socket| connection(socket, app))
}

fn text(v: &impl serde::Serialize) -> Message {
    Message::Text(serde_json::to_string(v).unwrap_or_default().into())
}

async fn connection(socket: WebSocket, app: Arc<App>) {
    let (mut sink, mut stream) = socket.split();
    // Subscribe before taking the snapshot so no update falls in between.
    let mut updates = app.shared.tx.subscribe();
    let mut stop = app.stop.clone();
    let hello = json!({"type": "hello", "games": app.games, "sim": app.clients.has_sim_hand()});
    let mut ok = sink
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_ok();
    for t in app.shared.snapshot_frames() {
        if !ok {
            break;
        }
        ok = sink.send(Message::Text(t.to_string().into())).await.is_ok();
    }
    let (reply_tx, mut replies) = mpsc::channel::<Reply>(MAX_IN_FLIGHT * 2);
    let in_flight = Arc::new(AtomicUsize::new(0));
    let mut camera = [false; 2];
    while ok {
        tokio::select! {
            u = updates.recv() => {
                let m = match u {
                    Ok(Outgoing::Text(t)) => Some(Message::Text(t.to_string().into())),
                    Ok(Outgoing::Binary(b)) => camera
                        .get(b[0] as usize)
                        .copied()
                        .unwrap_or(false)
                        .then(|| Message::Binary(b.as_ref().clone().into())),
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        // A slow page: skip what it missed, send the latest of everything.
                        tracing::debug!("web: a page lagged by {n} updates; resending the snapshot");
                        for t in app.shared.snapshot_frames() {
                            if sink.send(Message::Text(t.to_string().into())).await.is_err() {
                                break;
                            }
                        }
                        None
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if let Some(m) = m {
                    ok = sink.send(m).await.is_ok();
                }
            }
            m = stream.next() => match m {
                Some(Ok(Message::Text(t))) => {
                    if let Some(r) = handle(&app, t.as_str(), &mut camera, &in_flight, &reply_tx) {
                        ok = sink.send(text(&r)).await.is_ok();
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    ok = sink.send(text(&Reply::bad_message("binary messages are not accepted; send JSON text"))).await.is_ok();
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
            Some(r) = replies.recv() => {
                ok = sink.send(text(&r)).await.is_ok();
            }
            _ = stop.changed() => break,
        }
    }
    for (ch, on) in camera.iter().enumerate() {
        if *on {
            app.shared.camera_wanted[ch].fetch_sub(1, Ordering::Relaxed);
        }
    }
    let _ = sink.close().await;
}

/// Handles one text frame; returns an immediate reply, or `None` when the
/// reply comes later through `reply_tx`.
fn handle(
    app: &Arc<App>,
    t: &str,
    camera: &mut [bool; 2],
    in_flight: &Arc<AtomicUsize>,
    reply_tx: &mpsc::Sender<Reply>,
) -> Option<Reply> {
    let cmd = match Command::parse(t) {
        Ok(c) => c,
        Err(e) => return Some(Reply::bad_message(e.to_string())),
    };
    if let Command::Camera {
        id, on, annotated, ..
    } = cmd
    {
        let ch = usize::from(annotated);
        if camera[ch] != on {
            camera[ch] = on;
            if on {
                app.shared.camera_wanted[ch].fetch_add(1, Ordering::Relaxed);
            } else {
                app.shared.camera_wanted[ch].fetch_sub(1, Ordering::Relaxed);
            }
        }
        return Some(Reply::ok(id, if on { "camera on" } else { "camera off" }));
    }
    if in_flight.fetch_add(1, Ordering::SeqCst) >= MAX_IN_FLIGHT {
        in_flight.fetch_sub(1, Ordering::SeqCst);
        return Some(Reply::err(
            cmd.id(),
            "too many commands in flight; wait for their replies",
        ));
    }
    let (app, in_flight, reply_tx) = (app.clone(), in_flight.clone(), reply_tx.clone());
    tokio::task::spawn_blocking(move || {
        let r = execute(&app.clients, &app.shared, cmd);
        in_flight.fetch_sub(1, Ordering::SeqCst);
        let _ = reply_tx.blocking_send(r);
    });
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins() {
        let allowed = vec!["http://127.0.0.1:8080".to_string()];
        let mut h = HeaderMap::new();
        assert!(origin_allowed(&h, &allowed).is_ok());
        h.insert(header::ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        assert!(origin_allowed(&h, &allowed).is_ok());
        h.insert(header::ORIGIN, "http://evil.example".parse().unwrap());
        assert!(origin_allowed(&h, &allowed)
            .unwrap_err()
            .contains("evil.example"));
    }

    #[test]
    fn the_page_is_embedded() {
        for f in ["index.html", "app.js", "style.css"] {
            assert!(Assets::get(f).is_some(), "{f} missing from assets/");
        }
    }
}
