//! Records of gamebot games.
//!
//! - [`bag`]: rosbag2 bag directories in MCAP storage (what `ros2 bag
//!   record -s mcap` writes), crash-safe; [`schema`]: their `ros2msg` schemas.
//! - [`cdr`]: the CDR encoding the DDS backend puts on the wire.
//! - [`replay`]: reading a bag back (the game it holds, its messages).
//! - [`db`]: the SQLite game database (WAL, migrations, safe for concurrent
//!   writers); [`stats`]: statistics over it (score with a 95 % interval, Elo).
//! - [`recorder_node`]: the `recorder` node, generic over `gamebot_ros::Bus`.
//!
//! Everything except `recorder_node` is pure: files in, files out.

#![forbid(unsafe_code)]

pub mod bag;
pub mod cdr;
pub mod db;
pub mod recorder_node;
pub mod replay;
pub mod schema;
pub mod stats;
pub mod tracker;

use std::path::{Path, PathBuf};

/// Errors of recording, replaying and the database; each names the file,
/// topic or type concerned.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// A file system error.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The MCAP library failed.
    #[error("{path}: MCAP: {message}")]
    Mcap {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// A file's content is not what it should be.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// No schema can be built for a type.
    #[error("schema of {type_name}: {message}")]
    Schema {
        /// The type.
        type_name: String,
        /// Why.
        message: String,
    },
    /// A message could not be encoded or decoded.
    #[error("CDR {what}: {message}")]
    Cdr {
        /// Topic or type.
        what: String,
        /// Why.
        message: String,
    },
    /// The database failed.
    #[error("database {path}: {source}")]
    Db {
        /// The database file.
        path: PathBuf,
        /// The SQLite error.
        source: rusqlite::Error,
    },
    /// The bus failed.
    #[error(transparent)]
    Bus(#[from] gamebot_ros::BusError),
    /// A bad parameter or argument.
    #[error("{0}")]
    Invalid(String),
}

impl RecordError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> RecordError {
        RecordError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
    pub(crate) fn mcap(path: &Path, e: mcap::McapError) -> RecordError {
        RecordError::Mcap {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}

impl From<gamebot_ros::ParamError> for RecordError {
    fn from(e: gamebot_ros::ParamError) -> Self {
        RecordError::Bus(e.into())
    }
}

/// Nanoseconds since the Unix epoch, now.
pub fn now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}
