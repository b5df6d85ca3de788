//! Logging: `tracing` events go to stderr and, once a node is attached, to
//! `/rosout` as `rcl_interfaces/msg/Log` (what `ros2 topic echo /rosout` and
//! rqt_console show). One rosout node per process: node executables have one.

use std::cell::Cell;
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};

use gamebot_interfaces::builtin_interfaces::Time;
use gamebot_interfaces::rcl_interfaces::Log;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_log::NormalizeEvent;
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::prelude::*;

use crate::{Bus, BusError, LogLevel, NodeOptions, Publisher, Qos};

struct RosoutSink {
    publisher: Publisher<Log>,
    logger: String,
    min_level: u8,
}

fn sink() -> &'static Mutex<Option<RosoutSink>> {
    static SINK: OnceLock<Mutex<Option<RosoutSink>>> = OnceLock::new();
    SINK.get_or_init(|| Mutex::new(None))
}

thread_local! {
    // Publishing may itself log (from the transport); never recurse.
    static IN_ROSOUT: Cell<bool> = const { Cell::new(false) };
}

fn tracing_level(l: LogLevel) -> Level {
    match l {
        LogLevel::Debug => Level::DEBUG,
        LogLevel::Info => Level::INFO,
        LogLevel::Warn => Level::WARN,
        LogLevel::Error | LogLevel::Fatal => Level::ERROR,
    }
}

fn rosout_level(l: &Level) -> u8 {
    match *l {
        Level::TRACE | Level::DEBUG => Log::DEBUG,
        Level::INFO => Log::INFO,
        Level::WARN => Log::WARN,
        Level::ERROR => Log::ERROR,
    }
}

/// The rcl logger name of a node: namespace and name joined with dots,
/// without the leading slash (`/game/referee` -> `game.referee`).
pub fn logger_name(fq_node: &str) -> String {
    fq_node.trim_start_matches('/').replace('/', ".")
}

/// Whether a log record comes from the DDS transport itself (RustDDS,
/// ros2-client and their I/O crates). Those stay on stderr only: publishing
/// one on `/rosout` makes the transport's event loop log again (e.g.
/// "PollEventSender.send: Resource temporarily unavailable" on another
/// thread, out of reach of the same-thread recursion guard), which fed
/// itself into tens of thousands of `/rosout` messages a second.
fn is_transport(target: &str) -> bool {
    const TRANSPORT: [&str; 5] = ["rustdds", "ros2_client", "mio", "async_io", "polling"];
    let krate = target.split("::").next().unwrap_or(target);
    TRANSPORT.contains(&krate)
}

/// A `tracing` layer that forwards events to the attached rosout publisher
/// (except the transport's own records, see [`is_transport`]).
pub struct RosoutLayer;

#[derive(Default)]
struct MessageVisitor {
    message: String,
    fields: String,
}

impl Visit for MessageVisitor {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message.push_str(value);
        } else {
            let _ = write!(self.fields, " {}={value}", field.name());
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.message, "{value:?}");
        } else {
            let _ = write!(self.fields, " {}={value:?}", field.name());
        }
    }
}

impl<S: Subscriber> Layer<S> for RosoutLayer {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        if IN_ROSOUT.with(|f| f.replace(true)) {
            return;
        }
        // Records bridged from `log` carry their real target only in the
        // normalized metadata.
        let normalized = event.normalized_metadata();
        let meta = normalized.as_ref().unwrap_or_else(|| event.metadata());
        if is_transport(meta.target()) {
            IN_ROSOUT.with(|f| f.set(false));
            return;
        }
        let guard = sink().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = guard.as_ref() {
            let level = rosout_level(meta.level());
            if level >= s.min_level {
                let mut v = MessageVisitor::default();
                event.record(&mut v);
                let log = Log {
                    stamp: Time::now(),
                    level,
                    name: s.logger.clone(),
                    msg: format!("{}{}", v.message, v.fields),
                    file: meta.file().unwrap_or("").to_string(),
                    function: meta.target().to_string(),
                    line: meta.line().unwrap_or(0),
                };
                let _ = s.publisher.publish(&log);
            }
        }
        drop(guard);
        IN_ROSOUT.with(|f| f.set(false));
    }
}

/// Installs the process-wide `tracing` subscriber: stderr output at the
/// node's `--log-level` (default info; `RUST_LOG`-style filtering is not
/// used so the ROS flag is the one switch) plus [`RosoutLayer`]. Does
/// nothing if a subscriber is already installed.
pub fn init(options: &NodeOptions) {
    let level = tracing_level(options.log_level.unwrap_or(LogLevel::Info));
    let filter = tracing_subscriber::filter::LevelFilter::from_level(level);
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_target(false);
    let _ = tracing_subscriber::registry()
        .with(fmt.with_filter(filter))
        .with(RosoutLayer.with_filter(filter))
        .try_init();
}

/// Starts publishing this process's log records on `/rosout` for `node`
/// (reliable, transient-local, depth 1000), from level `min_level` up.
pub fn attach_rosout(node: &impl Bus, min_level: LogLevel) -> Result<(), BusError> {
    let publisher = node.publisher::<Log>("/rosout", Qos::rosout())?;
    let mut g = sink().lock().unwrap_or_else(|e| e.into_inner());
    *g = Some(RosoutSink {
        publisher,
        logger: logger_name(&node.fully_qualified_name()),
        min_level: min_level.rosout_level(),
    });
    Ok(())
}

/// Stops publishing on `/rosout` (drops the publisher).
pub fn detach_rosout() {
    let mut g = sink().lock().unwrap_or_else(|e| e.into_inner());
    *g = None;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transport_records_stay_off_rosout() {
        assert!(is_transport("rustdds::rtps::writer"));
        assert!(is_transport("ros2_client"));
        assert!(!is_transport("gamebot_nodes::referee_node"));
        assert!(!is_transport("rustdds_like_but_ours"));
    }

    #[test]
    fn logger_names() {
        assert_eq!(logger_name("/referee"), "referee");
        assert_eq!(logger_name("/game/referee"), "game.referee");
    }
}
