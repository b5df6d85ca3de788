//! A rosbag2 bag directory in the MCAP storage format, written with the
//! `mcap` crate: `metadata.yaml` (bag format version 9, storage `mcap`) and
//! `<name>_0.mcap` (profile `ros2`, schemas `ros2msg`, messages `cdr`, each
//! channel's offered QoS in its metadata as rosbag2 writes it).
//!
//! Crash safety: the MCAP file is written through [`TailWriter`], which
//! keeps the chunk being filled in memory and, at every flush, writes the
//! finished chunk followed by a provisional footer (no summary) and the
//! closing magic. A process killed at any moment therefore leaves a valid
//! MCAP file holding every chunk flushed so far, and `metadata.yaml` is
//! rewritten (atomically, by rename) after each flush with the counts of
//! what is on disk. [`BagWriter::finish`] writes the real summary and footer.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use gamebot_ros::{Durability, Qos, Reliability};
use serde::{Deserialize, Serialize};

use crate::schema::ros2msg_schema;
use crate::RecordError;

/// The MCAP magic that starts and ends a file.
const MAGIC: &[u8; 8] = b"\x89MCAP0\r\n";

/// The bytes of a footer record with no summary, then the closing magic.
fn provisional_tail() -> [u8; 37] {
    let mut t = [0u8; 37];
    t[0] = 0x02; // Footer opcode
    t[1..9].copy_from_slice(&20u64.to_le_bytes()); // record length
                                                   // summary_start, summary_offset_start (u64 each) and summary_crc (u32): zero
    t[29..37].copy_from_slice(MAGIC);
    t
}

/// A seekable writer over a file that holds everything since the last flush
/// in memory and, on flush, writes it followed by a provisional MCAP footer
/// (so the file on disk is always a complete MCAP file). Seeking back into
/// flushed data is an error (the MCAP writer only seeks within a chunk).
pub struct TailWriter {
    file: File,
    path: PathBuf,
    /// Bytes on disk that belong to the stream (the tail is after them).
    committed: u64,
    buf: Vec<u8>,
    /// Logical position in the stream.
    pos: u64,
    /// Whether [`flush`](Write::flush) adds the provisional tail.
    provisional: bool,
}

impl TailWriter {
    /// Creates (truncates) `path`.
    pub fn create(path: &Path) -> io::Result<TailWriter> {
        Ok(TailWriter {
            file: File::create(path)?,
            path: path.to_path_buf(),
            committed: 0,
            buf: Vec::new(),
            pos: 0,
            provisional: true,
        })
    }

    fn len(&self) -> u64 {
        self.committed + self.buf.len() as u64
    }

    /// Flushes without a provisional tail and cuts the file to the stream's
    /// length; used once the real footer has been written.
    pub fn close(mut self) -> io::Result<()> {
        self.provisional = false;
        self.flush()?;
        self.file.set_len(self.committed)?;
        self.file.sync_all()
    }

    /// The file written.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Write for TailWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.pos < self.committed {
            return Err(io::Error::other(format!(
                "{}: write at {} into data already flushed (up to {})",
                self.path.display(),
                self.pos,
                self.committed
            )));
        }
        let at = (self.pos - self.committed) as usize;
        if at > self.buf.len() {
            self.buf.resize(at, 0);
        }
        let overlap = (self.buf.len() - at).min(data.len());
        self.buf[at..at + overlap].copy_from_slice(&data[..overlap]);
        self.buf.extend_from_slice(&data[overlap..]);
        self.pos += data.len() as u64;
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.buf.is_empty() && !self.provisional {
            return self.file.flush();
        }
        let mut out = std::mem::take(&mut self.buf);
        let data_len = out.len() as u64;
        if self.provisional {
            out.extend_from_slice(&provisional_tail());
        }
        self.file.seek(SeekFrom::Start(self.committed))?;
        // One write of chunk + tail, so a kill leaves either the old tail or the new one.
        self.file.write_all(&out)?;
        self.file.flush()?;
        self.committed += data_len;
        Ok(())
    }
}

impl Seek for TailWriter {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.len().checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        match target {
            Some(t) if t >= self.committed => {
                self.pos = t;
                Ok(t)
            }
            _ => Err(io::Error::other(format!(
                "{}: seek {to:?} before data already flushed (up to {})",
                self.path.display(),
                self.committed
            ))),
        }
    }
}

/// One QoS profile as rosbag2 writes it in `offered_qos_profiles` (bag
/// format version 9: string enums, durations as `{sec, nsec}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QosProfile {
    /// `keep_last`.
    pub history: String,
    /// Queue depth.
    pub depth: u64,
    /// `reliable` or `best_effort`.
    pub reliability: String,
    /// `volatile` or `transient_local`.
    pub durability: String,
    /// Unset: `{sec: 9223372036, nsec: 854775807}`.
    pub deadline: RosDuration,
    /// Unset, as above.
    pub lifespan: RosDuration,
    /// `automatic`.
    pub liveliness: String,
    /// Unset, as above.
    pub liveliness_lease_duration: RosDuration,
    /// `false`.
    pub avoid_ros_namespace_conventions: bool,
}

/// A duration in a QoS profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosDuration {
    /// Seconds.
    pub sec: i64,
    /// Nanoseconds.
    pub nsec: u32,
}

/// The "infinite" duration rmw reports for unset deadline/lifespan/lease.
const INFINITE: RosDuration = RosDuration {
    sec: 9_223_372_036,
    nsec: 854_775_807,
};

impl From<Qos> for QosProfile {
    fn from(q: Qos) -> Self {
        QosProfile {
            history: "keep_last".into(),
            depth: q.depth as u64,
            reliability: match q.reliability {
                Reliability::Reliable => "reliable",
                Reliability::BestEffort => "best_effort",
            }
            .into(),
            durability: match q.durability {
                Durability::Volatile => "volatile",
                Durability::TransientLocal => "transient_local",
            }
            .into(),
            deadline: INFINITE,
            lifespan: INFINITE,
            liveliness: "automatic".into(),
            liveliness_lease_duration: INFINITE,
            avoid_ros_namespace_conventions: false,
        }
    }
}

/// `{nanoseconds: n}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nanoseconds {
    /// Nanoseconds.
    pub nanoseconds: u64,
}

/// `{nanoseconds_since_epoch: n}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timestamp {
    /// Nanoseconds since the Unix epoch.
    pub nanoseconds_since_epoch: u64,
}

/// A topic's entry in `metadata.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopicMetadata {
    /// Topic name.
    pub name: String,
    /// Full type name, `pkg/msg/Name`.
    #[serde(rename = "type")]
    pub type_name: String,
    /// `cdr`.
    pub serialization_format: String,
    /// The QoS offered by the topic's publishers.
    pub offered_qos_profiles: Vec<QosProfile>,
    /// RIHS01 hash; empty (not computed).
    pub type_description_hash: String,
}

/// A topic and how many messages of it the bag holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopicWithCount {
    /// The topic.
    pub topic_metadata: TopicMetadata,
    /// Messages recorded.
    pub message_count: u64,
}

/// One storage file's entry in `metadata.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileInfo {
    /// Relative path.
    pub path: String,
    /// First message time.
    pub starting_time: Timestamp,
    /// Last minus first message time.
    pub duration: Nanoseconds,
    /// Messages in the file.
    pub message_count: u64,
}

/// `rosbag2_bagfile_information`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BagInfo {
    /// 9.
    pub version: u32,
    /// `mcap`.
    pub storage_identifier: String,
    /// Last minus first message time.
    pub duration: Nanoseconds,
    /// First message time.
    pub starting_time: Timestamp,
    /// All messages.
    pub message_count: u64,
    /// Per topic.
    pub topics_with_message_count: Vec<TopicWithCount>,
    /// Empty: no compression.
    pub compression_format: String,
    /// Empty: no compression.
    pub compression_mode: String,
    /// The storage files, relative to the bag directory.
    pub relative_file_paths: Vec<String>,
    /// Per file.
    pub files: Vec<FileInfo>,
    /// Free-form key/values (gamebot puts the game here).
    pub custom_data: BTreeMap<String, String>,
    /// ROS distribution the bag is meant for.
    pub ros_distro: String,
}

/// The whole `metadata.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BagMetadata {
    /// The information.
    pub rosbag2_bagfile_information: BagInfo,
}

impl BagMetadata {
    /// Reads `<dir>/metadata.yaml`.
    pub fn read(dir: &Path) -> Result<BagMetadata, RecordError> {
        let path = dir.join("metadata.yaml");
        let text = std::fs::read_to_string(&path).map_err(|e| RecordError::io(&path, e))?;
        serde_yaml::from_str(&text).map_err(|e| RecordError::Format {
            path: path.clone(),
            message: e.to_string(),
        })
    }
}

struct TopicEntry {
    meta: TopicMetadata,
    channel: Arc<mcap::Channel<'static>>,
    /// Messages written (in memory or on disk).
    written: u64,
    /// Messages on disk as of the last flush.
    flushed: u64,
}

/// Writes one bag directory. Topics are added with their type and QoS;
/// messages are CDR bytes (with their 4-byte encapsulation header, as on the
/// wire) and a receive time in nanoseconds since the epoch.
pub struct BagWriter {
    dir: PathBuf,
    file_name: String,
    writer: Option<mcap::Writer<TailWriter>>,
    topics: Vec<TopicEntry>,
    /// (first, last) log time of flushed messages, and of all messages.
    flushed_span: Option<(u64, u64)>,
    span: Option<(u64, u64)>,
    custom_data: BTreeMap<String, String>,
}

impl BagWriter {
    /// Creates the directory `dir` (which must not exist yet, as with
    /// `ros2 bag record -o`) and its MCAP file `<dir name>_0.mcap`.
    pub fn create(dir: &Path) -> Result<BagWriter, RecordError> {
        if dir.exists() {
            return Err(RecordError::io(
                dir,
                io::Error::new(io::ErrorKind::AlreadyExists, "bag directory already exists"),
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| RecordError::io(dir, e))?;
        let stem = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("bag")
            .to_string();
        let file_name = format!("{stem}_0.mcap");
        let path = dir.join(&file_name);
        let sink = TailWriter::create(&path).map_err(|e| RecordError::io(&path, e))?;
        let writer = mcap::WriteOptions::new()
            .profile("ros2")
            .library(concat!("gamebot_record-", env!("CARGO_PKG_VERSION")))
            .compression(None)
            // Chunks end only when we flush (or at 4 MiB).
            .chunk_size(Some(4 << 20))
            .create(sink)
            .map_err(|e| RecordError::mcap(&path, e))?;
        let mut bag = BagWriter {
            dir: dir.to_path_buf(),
            file_name,
            writer: Some(writer),
            topics: vec![],
            flushed_span: None,
            span: None,
            custom_data: BTreeMap::new(),
        };
        bag.flush()?;
        Ok(bag)
    }

    /// The bag directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn mcap_path(&self) -> PathBuf {
        self.dir.join(&self.file_name)
    }

    /// Sets a `custom_data` entry of `metadata.yaml`.
    pub fn set_custom_data(&mut self, key: &str, value: &str) {
        self.custom_data.insert(key.to_string(), value.to_string());
    }

    /// Adds a topic (once per name) and returns its index for [`write`](Self::write).
    pub fn add_topic(
        &mut self,
        name: &str,
        type_name: &str,
        qos: Qos,
    ) -> Result<usize, RecordError> {
        if let Some(i) = self.topics.iter().position(|t| t.meta.name == name) {
            return Ok(i);
        }
        let schema_text = ros2msg_schema(type_name)?;
        let profiles = vec![QosProfile::from(qos)];
        let qos_yaml = serde_yaml::to_string(&profiles).map_err(|e| RecordError::Format {
            path: self.mcap_path(),
            message: e.to_string(),
        })?;
        let mut metadata = BTreeMap::new();
        metadata.insert("offered_qos_profiles".to_string(), qos_yaml);
        metadata.insert("topic_type_hash".to_string(), String::new());
        let channel = Arc::new(mcap::Channel {
            id: self.topics.len() as u16 + 1,
            topic: name.to_string(),
            schema: Some(Arc::new(mcap::Schema {
                id: self.topics.len() as u16 + 1,
                name: type_name.to_string(),
                encoding: "ros2msg".to_string(),
                data: schema_text.into_bytes().into(),
            })),
            message_encoding: "cdr".to_string(),
            metadata,
        });
        self.topics.push(TopicEntry {
            meta: TopicMetadata {
                name: name.to_string(),
                type_name: type_name.to_string(),
                serialization_format: "cdr".to_string(),
                offered_qos_profiles: profiles,
                type_description_hash: String::new(),
            },
            channel,
            written: 0,
            flushed: 0,
        });
        Ok(self.topics.len() - 1)
    }

    /// Writes one message of topic `topic` (an index from [`add_topic`](Self::add_topic)).
    pub fn write(&mut self, topic: usize, log_time_ns: u64, cdr: &[u8]) -> Result<(), RecordError> {
        let path = self.mcap_path();
        let entry = self
            .topics
            .get_mut(topic)
            .ok_or_else(|| RecordError::Format {
                path: path.clone(),
                message: format!("no topic with index {topic}"),
            })?;
        let writer = self.writer.as_mut().ok_or_else(|| RecordError::Format {
            path: path.clone(),
            message: "bag already finished".into(),
        })?;
        writer
            .write(&mcap::Message {
                channel: entry.channel.clone(),
                sequence: entry.written as u32,
                log_time: log_time_ns,
                publish_time: log_time_ns,
                data: std::borrow::Cow::Borrowed(cdr),
            })
            .map_err(|e| RecordError::mcap(&path, e))?;
        entry.written += 1;
        self.span = Some(match self.span {
            None => (log_time_ns, log_time_ns),
            Some((a, b)) => (a.min(log_time_ns), b.max(log_time_ns)),
        });
        Ok(())
    }

    /// Messages written so far (in memory or on disk).
    pub fn message_count(&self) -> u64 {
        self.topics.iter().map(|t| t.written).sum()
    }

    /// Ends the current chunk, writes it to disk followed by a provisional
    /// footer, and rewrites `metadata.yaml` to match what is on disk.
    pub fn flush(&mut self) -> Result<(), RecordError> {
        let path = self.mcap_path();
        if let Some(w) = self.writer.as_mut() {
            w.flush().map_err(|e| RecordError::mcap(&path, e))?;
        }
        for t in &mut self.topics {
            t.flushed = t.written;
        }
        self.flushed_span = self.span;
        self.write_metadata(false)
    }

    fn info(&self, all: bool) -> BagInfo {
        let span = if all { self.span } else { self.flushed_span };
        let (start, end) = span.unwrap_or((0, 0));
        let count = |t: &TopicEntry| if all { t.written } else { t.flushed };
        let total: u64 = self.topics.iter().map(count).sum();
        BagInfo {
            version: 9,
            storage_identifier: "mcap".into(),
            duration: Nanoseconds {
                nanoseconds: end - start,
            },
            starting_time: Timestamp {
                nanoseconds_since_epoch: start,
            },
            message_count: total,
            topics_with_message_count: self
                .topics
                .iter()
                .map(|t| TopicWithCount {
                    topic_metadata: t.meta.clone(),
                    message_count: count(t),
                })
                .collect(),
            compression_format: String::new(),
            compression_mode: String::new(),
            relative_file_paths: vec![self.file_name.clone()],
            files: vec![FileInfo {
                path: self.file_name.clone(),
                starting_time: Timestamp {
                    nanoseconds_since_epoch: start,
                },
                duration: Nanoseconds {
                    nanoseconds: end - start,
                },
                message_count: total,
            }],
            custom_data: self.custom_data.clone(),
            ros_distro: "jazzy".into(),
        }
    }

    fn write_metadata(&self, all: bool) -> Result<(), RecordError> {
        let meta = BagMetadata {
            rosbag2_bagfile_information: self.info(all),
        };
        let path = self.dir.join("metadata.yaml");
        let text = serde_yaml::to_string(&meta).map_err(|e| RecordError::Format {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let tmp = self.dir.join(".metadata.yaml.tmp");
        std::fs::write(&tmp, text).map_err(|e| RecordError::io(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| RecordError::io(&path, e))
    }

    /// Writes the MCAP summary, the `rosbag2` metadata record and the footer,
    /// and the final `metadata.yaml`. Returns the bag's metadata.
    pub fn finish(mut self) -> Result<BagInfo, RecordError> {
        let path = self.mcap_path();
        let info = self.info(true);
        let Some(mut writer) = self.writer.take() else {
            return Ok(info);
        };
        let serialized = serde_yaml::to_string(&BagMetadata {
            rosbag2_bagfile_information: info.clone(),
        })
        .map_err(|e| RecordError::Format {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let mut md = BTreeMap::new();
        md.insert("serialized_metadata".to_string(), serialized);
        writer
            .write_metadata(&mcap::records::Metadata {
                name: "rosbag2".into(),
                metadata: md,
            })
            .map_err(|e| RecordError::mcap(&path, e))?;
        writer.finish().map_err(|e| RecordError::mcap(&path, e))?;
        writer
            .into_inner()
            .close()
            .map_err(|e| RecordError::io(&path, e))?;
        self.write_metadata(true)?;
        Ok(info)
    }
}

impl Drop for BagWriter {
    fn drop(&mut self) {
        // Leave the file as after the last flush (already valid); the mcap
        // writer's own drop would try to finish through a half-state.
        if let Some(w) = self.writer.take() {
            std::mem::forget(w);
        }
    }
}
