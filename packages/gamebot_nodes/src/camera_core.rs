//! The camera node's logic, independent of any transport: a frame source
//! (a V4L2 camera through OpenCV, a video file, an image file or a folder of
//! images for replays) that is reopened with back-off when it disappears or
//! stops delivering. Nothing here panics or gives up: a lost source is
//! reported once ([`Tick::Lost`]), then retried at growing intervals.

use gamebot_vision::source::{
    CameraDevice, CameraSource, CaptureSettings, FileSource, FrameSource,
};
use gamebot_vision::Mat;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where frames come from.
#[derive(Clone, Debug, PartialEq)]
pub enum CameraSpec {
    /// A camera (index or device path) or a video file, opened through OpenCV.
    Device(CameraDevice, CaptureSettings),
    /// Image files (one file, or every image of a folder in name order), looped.
    Files(PathBuf),
}

impl CameraSpec {
    /// Reads the `device` parameter: a number is a V4L2 index, `/dev/...` or a
    /// video file a device path; `source` (a file or folder of images) wins when given.
    pub fn from_params(device: &str, source: &str, settings: CaptureSettings) -> CameraSpec {
        if !source.trim().is_empty() {
            let p = PathBuf::from(source.trim());
            let is_video = p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                matches!(
                    e.to_ascii_lowercase().as_str(),
                    "mp4" | "avi" | "mkv" | "mov" | "webm"
                )
            });
            if is_video {
                return CameraSpec::Device(CameraDevice::Path(p), settings);
            }
            return CameraSpec::Files(p);
        }
        match device.trim().parse::<i32>() {
            Ok(i) => CameraSpec::Device(CameraDevice::Index(i), settings),
            Err(_) => {
                CameraSpec::Device(CameraDevice::Path(PathBuf::from(device.trim())), settings)
            }
        }
    }

    /// The name used in warnings and events.
    pub fn describe(&self) -> String {
        match self {
            CameraSpec::Device(d, _) => format!("camera {d}"),
            CameraSpec::Files(p) => format!("image source {}", p.display()),
        }
    }
}

/// The image files of a source path: the file itself, or a folder's images by name.
pub fn image_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let rd = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                matches!(
                    e.to_ascii_lowercase().as_str(),
                    "png" | "jpg" | "jpeg" | "bmp" | "ppm"
                )
            })
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!(
            "{}: no image files (png, jpg, bmp, ppm)",
            path.display()
        ));
    }
    Ok(files)
}

/// What the camera core has for the caller now.
pub enum Tick {
    /// A frame.
    Frame(Mat),
    /// The source just failed (reason names it); it will be reopened at the given time.
    Lost { reason: String, retry_at: Instant },
    /// The source came back after a loss (or opened for the first time after failures).
    Reopened,
    /// Nothing to do before this time (waiting to reopen).
    Wait(Instant),
}

/// First wait before reopening a lost source; doubles up to [`MAX_BACKOFF`].
pub const MIN_BACKOFF: Duration = Duration::from_millis(250);
/// Longest wait between reopen attempts.
pub const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// A frame source kept open.
pub struct CameraCore {
    spec: CameraSpec,
    source: Option<Box<dyn FrameSource>>,
    backoff: Duration,
    retry_at: Instant,
    /// Whether a loss was reported and not yet followed by a reopen.
    lost: bool,
    frames: u64,
}

impl CameraCore {
    /// A core for `spec`; the source is opened on the first [`CameraCore::next`].
    pub fn new(spec: CameraSpec) -> CameraCore {
        CameraCore {
            spec,
            source: None,
            backoff: MIN_BACKOFF,
            retry_at: Instant::now(),
            lost: false,
            frames: 0,
        }
    }

    pub fn spec(&self) -> &CameraSpec {
        &self.spec
    }
    /// Frames delivered so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    fn open(&self) -> Result<Box<dyn FrameSource>, String> {
        match &self.spec {
            CameraSpec::Device(d, s) => CameraSource::open(d.clone(), *s)
                .map(|c| Box::new(c) as Box<dyn FrameSource>)
                .map_err(|e| e.to_string()),
            CameraSpec::Files(p) => {
                image_files(p).map(|f| Box::new(FileSource::new(f, true)) as Box<dyn FrameSource>)
            }
        }
    }

    fn fail(&mut self, reason: String, now: Instant) -> Tick {
        self.source = None;
        self.retry_at = now + self.backoff;
        self.backoff = (self.backoff * 2).min(MAX_BACKOFF);
        if self.lost {
            // Already reported: keep quiet until it comes back.
            return Tick::Wait(self.retry_at);
        }
        self.lost = true;
        Tick::Lost {
            reason,
            retry_at: self.retry_at,
        }
    }

    /// Opens the source if needed (respecting the back-off) and reads one frame.
    pub fn next(&mut self, now: Instant) -> Tick {
        if self.source.is_none() {
            if now < self.retry_at {
                return Tick::Wait(self.retry_at);
            }
            match self.open() {
                Ok(s) => {
                    self.source = Some(s);
                    if self.lost {
                        self.lost = false;
                        self.backoff = MIN_BACKOFF;
                        return Tick::Reopened;
                    }
                }
                Err(e) => return self.fail(e, now),
            }
        }
        let src = self.source.as_mut().expect("opened above");
        match src.next_frame() {
            Ok(f) => {
                self.frames += 1;
                if self.lost {
                    self.lost = false;
                }
                self.backoff = MIN_BACKOFF;
                Tick::Frame(f)
            }
            Err(e) => {
                let reason = format!("{}: {e}", self.spec.describe());
                self.fail(reason, now)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_source_is_reported_once_then_retried_with_back_off() {
        let dir = std::env::temp_dir().join(format!("gamebot-camera-core-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let spec = CameraSpec::from_params("0", dir.to_str().unwrap(), CaptureSettings::default());
        assert_eq!(spec, CameraSpec::Files(dir.clone()));
        let mut c = CameraCore::new(spec);
        let t0 = Instant::now();
        let Tick::Lost { reason, retry_at } = c.next(t0) else {
            panic!("expected a loss")
        };
        assert!(reason.contains("gamebot-camera-core"), "{reason}");
        assert!(retry_at >= t0 + MIN_BACKOFF);
        // Before the retry time: wait; after: a second failure is quiet and waits longer.
        assert!(matches!(c.next(t0), Tick::Wait(_)));
        let Tick::Wait(second) = c.next(retry_at) else {
            panic!("expected a quiet wait")
        };
        assert!(second - retry_at >= MIN_BACKOFF * 2);
        // The folder appears with an image: the source reopens and delivers.
        std::fs::create_dir_all(&dir).unwrap();
        let img = gamebot_vision::source::mat_from_bgr(4, 2, &[50u8; 24]).unwrap();
        gamebot_vision::source::write_image(dir.join("a.png"), &img).unwrap();
        assert!(matches!(c.next(second), Tick::Reopened));
        for _ in 0..3 {
            assert!(matches!(c.next(second), Tick::Frame(_)), "files loop");
        }
        assert_eq!(c.frames(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
        // Device parameters.
        assert!(matches!(
            CameraSpec::from_params("/dev/video3", "", CaptureSettings::default()),
            CameraSpec::Device(CameraDevice::Path(_), _)
        ));
        assert!(matches!(
            CameraSpec::from_params("2", "", CaptureSettings::default()),
            CameraSpec::Device(CameraDevice::Index(2), _)
        ));
    }
}
