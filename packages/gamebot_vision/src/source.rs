//! Where frames come from: a V4L2 camera through OpenCV's `VideoCapture`,
//! image files, or frames pushed in by the simulation. All deliver 8-bit BGR
//! [`Mat`]s.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::time::Duration;

use opencv::core::{Mat, Vector};
use opencv::prelude::*;
use opencv::videoio::{self, VideoCapture};

use crate::error::{CvContext, Result, VisionError};

/// A source of BGR frames.
pub trait FrameSource: Send {
    /// Human-readable name used in errors (device, file, "simulation").
    fn name(&self) -> String;
    /// The next frame. Errors are typed: a closed or exhausted source gives
    /// [`VisionError::EndOfStream`].
    fn next_frame(&mut self) -> Result<Mat>;
}

/// Reads an image file as 8-bit BGR. Missing, unreadable and corrupt files
/// give [`VisionError::ImageRead`] naming the file.
pub fn read_image(path: impl AsRef<Path>) -> Result<Mat> {
    let path = path.as_ref();
    let err = |reason: String| VisionError::ImageRead {
        path: path.to_path_buf(),
        reason,
    };
    // Read the bytes ourselves so that I/O errors keep their meaning
    // (imread reports every failure as an empty image).
    let bytes = gamebot_input::read_bounded(path, gamebot_input::IMAGE_LIMIT)
        .map_err(|e| err(e.to_string()))?;
    if bytes.is_empty() {
        return Err(err("the file is empty".into()));
    }
    let buf = Vector::<u8>::from_slice(&bytes);
    let m = opencv::imgcodecs::imdecode(&buf, opencv::imgcodecs::IMREAD_COLOR)
        .map_err(|e| err(format!("cannot decode: {e}")))?;
    if m.empty() {
        return Err(err(
            "not a readable image (corrupt or unsupported format)".into()
        ));
    }
    Ok(m)
}

/// Writes an image; the format follows the extension (`.png`, `.jpg`, ...).
pub fn write_image(path: impl AsRef<Path>, image: &Mat) -> Result<()> {
    let path = path.as_ref();
    let err = |reason: String| VisionError::ImageWrite {
        path: path.to_path_buf(),
        reason,
    };
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| format!(".{}", e.to_ascii_lowercase()))
        .ok_or_else(|| err("no file extension to choose the format (use .png)".into()))?;
    let mut buf = Vector::<u8>::new();
    let ok = opencv::imgcodecs::imencode(&ext, image, &mut buf, &Vector::new())
        .map_err(|e| err(format!("cannot encode: {e}")))?;
    if !ok {
        return Err(err(format!("cannot encode as {ext}")));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| err(e.to_string()))?;
    }
    std::fs::write(path, buf.as_slice()).map_err(|e| err(e.to_string()))
}

/// Width and height of a frame.
pub fn frame_size(frame: &Mat) -> (i32, i32) {
    (frame.cols(), frame.rows())
}

/// Builds a BGR frame from raw interleaved bytes (e.g. a `sensor_msgs/Image` in `bgr8`).
pub fn mat_from_bgr(width: i32, height: i32, data: &[u8]) -> Result<Mat> {
    let want = width.max(0) as usize * height.max(0) as usize * 3;
    if width <= 0 || height <= 0 || data.len() != want {
        return Err(VisionError::WrongSize {
            source_name: format!("raw frame of {} bytes", data.len()),
            got_w: width,
            got_h: height,
            want_w: width,
            want_h: height,
        });
    }
    let flat = Mat::from_slice(data).cv("wrapping raw bytes")?;
    let shaped = flat.reshape(3, height).cv("shaping raw bytes")?;
    shaped.try_clone().cv("copying raw bytes")
}

/// The raw interleaved bytes of a BGR frame.
pub fn bgr_bytes(frame: &Mat) -> Result<Vec<u8>> {
    if frame.is_continuous() {
        return Ok(frame.data_bytes().cv("reading frame bytes")?.to_vec());
    }
    let c = frame.try_clone().cv("copying a frame")?;
    Ok(c.data_bytes().cv("reading frame bytes")?.to_vec())
}

/// Which camera to open.
#[derive(Clone, Debug, PartialEq)]
pub enum CameraDevice {
    /// `/dev/videoN`.
    Index(i32),
    /// A device path such as `/dev/video2` or a video file.
    Path(PathBuf),
}

impl std::fmt::Display for CameraDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CameraDevice::Index(i) => write!(f, "{i} (/dev/video{i})"),
            CameraDevice::Path(p) => write!(f, "{}", p.display()),
        }
    }
}

/// Requested capture format; the driver may pick the nearest it supports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CaptureSettings {
    pub width: i32,
    pub height: i32,
    pub fps: f64,
}

impl Default for CaptureSettings {
    fn default() -> Self {
        CaptureSettings {
            width: 640,
            height: 480,
            fps: 30.0,
        }
    }
}

/// A V4L2 camera (or any source OpenCV's `VideoCapture` opens).
pub struct CameraSource {
    cap: VideoCapture,
    device: CameraDevice,
}

impl CameraSource {
    /// Opens a camera and requests the capture format. Fails with
    /// [`VisionError::Camera`] when the device does not exist or cannot deliver frames.
    pub fn open(device: CameraDevice, settings: CaptureSettings) -> Result<CameraSource> {
        // OpenCV prints its own warnings for missing devices; our error says it better.
        let _ = opencv::core::set_log_level(opencv::core::LogLevel::LOG_LEVEL_ERROR);
        let cam_err = |reason: String| VisionError::Camera {
            device: device.to_string(),
            reason,
        };
        if let CameraDevice::Path(p) = &device {
            if !p.exists() {
                return Err(cam_err("no such device or file".into()));
            }
        }
        let opened = match &device {
            CameraDevice::Index(i) => VideoCapture::new(*i, videoio::CAP_V4L2),
            CameraDevice::Path(p) => VideoCapture::from_file(p, videoio::CAP_ANY),
        };
        let mut cap = opened.map_err(|e| cam_err(format!("cannot open: {e}")))?;
        if !cap.is_opened().unwrap_or(false) {
            return Err(cam_err(
                "cannot open (no camera at that index, or it is busy / not permitted)".into(),
            ));
        }
        // Best effort: drivers ignore unsupported requests; the frame size is checked downstream.
        let _ = cap.set(videoio::CAP_PROP_FRAME_WIDTH, settings.width as f64);
        let _ = cap.set(videoio::CAP_PROP_FRAME_HEIGHT, settings.height as f64);
        let _ = cap.set(videoio::CAP_PROP_FPS, settings.fps);
        Ok(CameraSource { cap, device })
    }
}

impl FrameSource for CameraSource {
    fn name(&self) -> String {
        format!("camera {}", self.device)
    }

    fn next_frame(&mut self) -> Result<Mat> {
        let mut m = Mat::default();
        let ok = self.cap.read(&mut m).map_err(|e| VisionError::Camera {
            device: self.device.to_string(),
            reason: format!("read failed: {e}"),
        })?;
        if !ok || m.empty() {
            return Err(VisionError::EndOfStream {
                source_name: self.name(),
            });
        }
        Ok(m)
    }
}

/// Image files, delivered in order (optionally looping).
pub struct FileSource {
    files: Vec<PathBuf>,
    next: usize,
    repeat: bool,
}

impl FileSource {
    /// A source over the given files. With `repeat`, it starts over after the last one.
    pub fn new(files: Vec<PathBuf>, repeat: bool) -> FileSource {
        FileSource {
            files,
            next: 0,
            repeat,
        }
    }
}

impl FrameSource for FileSource {
    fn name(&self) -> String {
        match self
            .files
            .get(self.next.min(self.files.len().saturating_sub(1)))
        {
            Some(p) => p.display().to_string(),
            None => "empty file list".into(),
        }
    }

    fn next_frame(&mut self) -> Result<Mat> {
        if self.next >= self.files.len() {
            if self.repeat && !self.files.is_empty() {
                self.next = 0;
            } else {
                return Err(VisionError::EndOfStream {
                    source_name: "image files".into(),
                });
            }
        }
        let p = &self.files[self.next];
        self.next += 1;
        read_image(p)
    }
}

/// Frames pushed in from another thread (the simulation).
pub struct PushSource {
    rx: Receiver<Mat>,
    timeout: Duration,
}

/// The sending side of a [`PushSource`].
#[derive(Clone)]
pub struct PushHandle {
    tx: SyncSender<Mat>,
}

/// A bounded channel of frames: the simulation keeps the [`PushHandle`], the
/// consumer reads the [`PushSource`]. `next_frame` waits at most `timeout`.
pub fn push_channel(capacity: usize, timeout: Duration) -> (PushHandle, PushSource) {
    let (tx, rx) = std::sync::mpsc::sync_channel(capacity.max(1));
    (PushHandle { tx }, PushSource { rx, timeout })
}

impl PushHandle {
    /// Offers a frame; when the consumer lags and the channel is full the
    /// frame is dropped (a camera drops frames too) and `Ok(false)` returned.
    /// Fails when the consumer is gone.
    pub fn push(&self, frame: Mat) -> Result<bool> {
        match self.tx.try_send(frame) {
            Ok(()) => Ok(true),
            Err(TrySendError::Full(_)) => Ok(false),
            Err(TrySendError::Disconnected(_)) => Err(VisionError::EndOfStream {
                source_name: "simulation frame consumer".into(),
            }),
        }
    }
}

impl FrameSource for PushSource {
    fn name(&self) -> String {
        "simulation".into()
    }

    fn next_frame(&mut self) -> Result<Mat> {
        match self.rx.recv_timeout(self.timeout) {
            Ok(m) => Ok(m),
            Err(RecvTimeoutError::Timeout) => Err(VisionError::Camera {
                device: "simulation".into(),
                reason: format!("no frame within {:?}", self.timeout),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(VisionError::EndOfStream {
                source_name: "simulation".into(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Scalar, CV_8UC3};

    /// A file in a directory of the test's own (`test`), which the test
    /// removes when it ends.
    fn tmp(test: &str, name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gbv-src-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d.join(name)
    }

    #[test]
    fn image_round_trip_and_corrupt_files() {
        let img =
            Mat::new_rows_cols_with_default(48, 64, CV_8UC3, Scalar::new(10.0, 20.0, 30.0, 0.0))
                .unwrap();
        let p = tmp("round_trip", "a.png");
        write_image(&p, &img).unwrap();
        let back = read_image(&p).unwrap();
        assert_eq!(bgr_bytes(&back).unwrap(), bgr_bytes(&img).unwrap());

        let bad = tmp("round_trip", "bad.png");
        std::fs::write(&bad, b"\x89PNG\r\n\x1a\nnot really").unwrap();
        let e = read_image(&bad).unwrap_err().to_string();
        assert!(e.contains("bad.png") && e.contains("cannot"), "{e}");
        let e = read_image(tmp("round_trip", "none.png"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("none.png"), "{e}");
        let e = write_image(tmp("round_trip", "noext"), &img)
            .unwrap_err()
            .to_string();
        assert!(e.contains("extension"), "{e}");
        std::fs::remove_dir_all(p.parent().unwrap()).unwrap();
    }

    #[test]
    fn raw_bytes_round_trip() {
        let data: Vec<u8> = (0..4 * 3 * 3).map(|i| i as u8).collect();
        let m = mat_from_bgr(4, 3, &data).unwrap();
        assert_eq!((m.cols(), m.rows(), m.channels()), (4, 3, 3));
        assert_eq!(bgr_bytes(&m).unwrap(), data);
        assert!(mat_from_bgr(4, 3, &data[1..]).is_err());
    }

    #[test]
    fn missing_camera_is_a_clear_error() {
        let e = CameraSource::open(CameraDevice::Index(97), CaptureSettings::default())
            .err()
            .unwrap()
            .to_string();
        assert!(e.starts_with("camera 97"), "{e}");
        let e = CameraSource::open(
            CameraDevice::Path("/dev/video-does-not-exist".into()),
            CaptureSettings::default(),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(e.contains("no such device"), "{e}");
    }

    #[test]
    fn file_and_push_sources() {
        let img = Mat::new_rows_cols_with_default(8, 8, CV_8UC3, Scalar::all(5.0)).unwrap();
        let p = tmp("sources", "f.png");
        write_image(&p, &img).unwrap();
        let mut s = FileSource::new(vec![p.clone()], false);
        assert!(s.next_frame().is_ok());
        assert!(matches!(
            s.next_frame(),
            Err(VisionError::EndOfStream { .. })
        ));

        let (h, mut src) = push_channel(1, Duration::from_millis(10));
        assert!(h.push(img.clone()).unwrap());
        assert!(
            !h.push(img.clone()).unwrap(),
            "full channel drops the frame"
        );
        assert_eq!(src.next_frame().unwrap().rows(), 8);
        assert!(matches!(src.next_frame(), Err(VisionError::Camera { .. })));
        drop(h);
        assert!(matches!(
            src.next_frame(),
            Err(VisionError::EndOfStream { .. })
        ));
        std::fs::remove_dir_all(p.parent().unwrap()).unwrap();
    }
}
