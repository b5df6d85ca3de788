//! The piece detector: HSV segmentation per colour signature, morphological
//! clean-up, connected components, size filtering, assignment of blobs to the
//! game's camera locations, and per-frame occlusion cues.
//!
//! Per frame the work is: one BGR→HSV conversion, then per signature one or
//! two `inRange` calls, an opening and a connected-components pass with
//! statistics; plus one foreground mask for occlusion and a 32×24 thumbnail
//! that the temporal filter compares between frames.

use opencv::core::{self, Mat, Point, Scalar, Size};
use opencv::imgproc;
use opencv::prelude::*;
use serde::Serialize;

use crate::board_model::VisionBoard;
use crate::calib::CameraCalibration;
use crate::cc::{Labeler, Run};
use crate::error::{CvContext, Result, VisionError};
use crate::geom::Homography;

/// Tuning of the detector. The defaults suit the project's 640×480 top-down
/// camera with 2 cm discs.
#[derive(Clone, Debug, PartialEq)]
pub struct DetectorConfig {
    /// Process at full (1) or half (2) resolution. Half resolution is about
    /// four times faster; blob areas and centroids are scaled back to full.
    pub downscale: u32,
    /// Side of the square opening kernel, in processed pixels (0 = no opening).
    pub open_kernel: i32,
    /// A signature blob or foreground region larger than this (full-resolution
    /// px²) means something covers the board. `None`: 4 × the largest `sizeMax`,
    /// at least 6000 px² (≈ 15 cm²).
    pub occluder_area_px: Option<f64>,
    /// Pixels with saturation at least this (0–1) are foreground...
    pub foreground_saturation: f64,
    /// ...and so are pixels with value at most this (0–1).
    pub foreground_value: f64,
    /// Whether to look for large foreground regions (arm, hand) at all.
    pub check_foreground: bool,
}

impl Default for DetectorConfig {
    fn default() -> Self {
        DetectorConfig {
            downscale: 2,
            open_kernel: 3,
            occluder_area_px: None,
            foreground_saturation: 0.3,
            foreground_value: 0.25,
            check_foreground: true,
        }
    }
}

/// A connected region accepted by a signature's colour range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Blob {
    /// Index into [`VisionBoard::signatures`].
    pub signature: usize,
    /// Index into [`VisionBoard::classes`].
    pub class: usize,
    /// Centroid in image pixels.
    pub image: (f64, f64),
    /// Centroid in board pixels (the game's `camera=` frame).
    pub board: (f64, f64),
    /// Area in full-resolution image px².
    pub area: f64,
    /// Bounding box in image pixels: x, y, width, height.
    pub bbox: (i32, i32, i32, i32),
    /// Index into [`VisionBoard::locations`] when assigned.
    pub location: Option<usize>,
}

/// What one camera location shows in one frame.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LocationObservation {
    /// Index into [`VisionBoard::locations`].
    pub index: usize,
    /// The piece class seen (index into [`VisionBoard::classes`]), or `None` for empty.
    pub class: Option<usize>,
    /// Index into [`Observation::blobs`] of the blob seen.
    pub blob: Option<usize>,
    /// 0–1: how sure the detector is of `class` (including of "empty").
    pub confidence: f32,
}

/// Why a frame is considered occluded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Occlusion {
    /// A blob of a piece colour far larger than any piece.
    LargeBlob { signature: usize, area: f64 },
    /// A large saturated or dark region that is no piece colour (hand, arm).
    LargeForeground { area: f64 },
    /// Such a region, bigger than a piece, coming in across the board's border.
    Intrusion { area: f64 },
    /// Much of the image changed since the previous frame (reported by the temporal filter).
    SuddenChange { fraction: f64 },
}

/// Side of the grey thumbnail kept for frame-to-frame change detection.
pub const THUMB_W: i32 = 32;

/// A blob under `sizeMax` is tried as two pieces only when it is at least this
/// elongated ([`Labeler::elongation`]): two equal discs whose centres are `d`
/// apart give `1 + d²/r²`, so 2 means centres at least one radius apart; a
/// single disc gives 1, and a disc seen slightly obliquely little more.
const MIN_PAIR_ELONGATION: f64 = 2.0;
/// Height of the thumbnail.
pub const THUMB_H: i32 = 24;

/// The detector's view of one frame.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Observation {
    /// One entry per camera location, aligned with [`VisionBoard::locations`].
    pub locations: Vec<LocationObservation>,
    /// All accepted blobs (piece sized).
    pub blobs: Vec<Blob>,
    /// Indices into `blobs` of blobs that match no location (or lost a location to a better blob).
    pub unmatched: Vec<usize>,
    /// Set when this frame alone shows an occlusion.
    pub occlusion: Option<Occlusion>,
    /// 32×24 grey thumbnail of the frame (row-major).
    #[serde(skip)]
    pub thumbnail: Vec<u8>,
}

impl Observation {
    /// The class seen at a camera location (index into `board.locations`).
    pub fn class_at(&self, index: usize) -> Option<usize> {
        self.locations.get(index).and_then(|l| l.class)
    }

    /// Whether two observations agree on every location's content.
    pub fn same_content(&self, other: &Observation) -> bool {
        self.locations.len() == other.locations.len()
            && self
                .locations
                .iter()
                .zip(&other.locations)
                .all(|(a, b)| a.class == b.class)
    }
}

/// A blob that was too small to be a piece but may hint at one (for "empty" confidence).
struct Residue {
    board: (f64, f64),
    fraction: f64,
}

/// The detector for one game and one camera. Keeps scratch images between
/// frames, so `detect` takes `&mut self`; create one per thread.
pub struct Detector {
    board: VisionBoard,
    config: DetectorConfig,
    /// Image pixel → board pixel.
    to_board: Homography,
    /// Board pixel → image pixel.
    to_image: Homography,
    width: i32,
    height: i32,
    occluder_area: f64,
    /// Unexplained foreground crossing the board border above this area (px²) is an intrusion.
    intrusion_area: f64,
    /// The board's region of interest in processed pixels.
    roi: core::Rect,
    /// Union of every signature's cleaned mask (processed pixels).
    pieces: Mat,
    /// Every camera location's centre and assignment radius in image pixels.
    loc_image: Vec<(f64, f64, f64)>,
    kernel: Mat,
    work: Mat,
    hsv: Mat,
    mask: Mat,
    mask2: Mat,
    opened: Mat,
    labeler: Labeler,
    small: Mat,
    grey: Mat,
}

impl Detector {
    /// A detector for `board`. Without a calibration the image is taken to be
    /// the board pixel frame itself (640×480, the project's ideal camera).
    pub fn new(
        board: VisionBoard,
        calibration: Option<&CameraCalibration>,
        config: DetectorConfig,
    ) -> Result<Detector> {
        if !(config.downscale == 1 || config.downscale == 2) {
            return Err(VisionError::Board(format!(
                "detector downscale must be 1 or 2, not {}",
                config.downscale
            )));
        }
        let (to_board, width, height) = match calibration {
            Some(c) => (c.image_to_board_px, c.image_width, c.image_height),
            None => (Homography::IDENTITY, 640, 480),
        };
        let to_image = to_board
            .inverse()
            .ok_or_else(|| VisionError::Board("the calibration homography is singular".into()))?;
        let occluder_area = config
            .occluder_area_px
            .unwrap_or_else(|| (4.0 * board.max_piece_area()).max(6000.0));
        let k = config.open_kernel.max(1);
        let kernel = imgproc::get_structuring_element(
            imgproc::MORPH_RECT,
            Size::new(k, k),
            Point::new(-1, -1),
        )
        .cv("creating the morphology kernel")?;
        let loc_image = board
            .locations
            .iter()
            .map(|l| {
                let c = to_image.apply(l.px.0, l.px.1).unwrap_or((-1e9, -1e9));
                let e = to_image.apply(l.px.0 + l.radius, l.px.1).unwrap_or(c);
                let r = ((e.0 - c.0).powi(2) + (e.1 - c.1).powi(2)).sqrt();
                (c.0, c.1, r)
            })
            .collect();
        // Region of interest: all camera locations plus 1.5 cm (board px
        // converted by the mapping's scale), clipped to the image.
        let margin = 1.5 * board.mapping.scale_px_per_cm;
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for l in &board.locations {
            for (dx, dy) in [
                (-margin, -margin),
                (margin, -margin),
                (margin, margin),
                (-margin, margin),
            ] {
                if let Some((u, v)) = to_image.apply(l.px.0 + dx, l.px.1 + dy) {
                    x0 = x0.min(u);
                    y0 = y0.min(v);
                    x1 = x1.max(u);
                    y1 = y1.max(v);
                }
            }
        }
        let ds = config.downscale as f64;
        // Processed size: pyrDown rounds up.
        let d = config.downscale as i32;
        let (pw, ph) = ((width + d - 1) / d, (height + d - 1) / d);
        let roi = if x0 <= x1 {
            let rx0 = ((x0 / ds).floor() as i32).clamp(0, pw - 1);
            let ry0 = ((y0 / ds).floor() as i32).clamp(0, ph - 1);
            let rx1 = ((x1 / ds).ceil() as i32).clamp(rx0 + 1, pw);
            let ry1 = ((y1 / ds).ceil() as i32).clamp(ry0 + 1, ph);
            core::Rect::new(rx0, ry0, rx1 - rx0, ry1 - ry0)
        } else {
            core::Rect::new(0, 0, pw, ph)
        };
        let intrusion_area = (0.25 * board.max_piece_area()).max(300.0);
        Ok(Detector {
            intrusion_area,
            roi,
            pieces: Mat::default(),
            loc_image,
            board,
            config,
            to_board,
            to_image,
            width,
            height,
            occluder_area,
            kernel,
            work: Mat::default(),
            hsv: Mat::default(),
            mask: Mat::default(),
            mask2: Mat::default(),
            opened: Mat::default(),
            labeler: Labeler::default(),
            small: Mat::default(),
            grey: Mat::default(),
        })
    }

    /// The board this detector looks for.
    pub fn board(&self) -> &VisionBoard {
        &self.board
    }

    /// Image pixel → board pixel homography in use.
    pub fn image_to_board(&self) -> Homography {
        self.to_board
    }

    /// Board pixel → image pixel homography in use.
    pub fn board_to_image(&self) -> Homography {
        self.to_image
    }

    /// Expected frame size.
    pub fn frame_size(&self) -> (i32, i32) {
        (self.width, self.height)
    }

    /// Checks that a frame is 8-bit BGR of the expected size. `source_name` names it in errors.
    pub fn check_frame(&self, frame: &Mat, source_name: &str) -> Result<()> {
        if frame.typ() != core::CV_8UC3 {
            return Err(VisionError::WrongFormat {
                source_name: source_name.into(),
                typ: frame.typ(),
                channels: frame.channels(),
            });
        }
        if frame.cols() != self.width || frame.rows() != self.height {
            return Err(VisionError::WrongSize {
                source_name: source_name.into(),
                got_w: frame.cols(),
                got_h: frame.rows(),
                want_w: self.width,
                want_h: self.height,
            });
        }
        Ok(())
    }

    /// Detects the pieces in one BGR frame.
    pub fn detect(&mut self, frame: &Mat) -> Result<Observation> {
        self.detect_named(frame, "frame")
    }

    /// [`Self::detect`], naming the frame's source in errors.
    pub fn detect_named(&mut self, frame: &Mat, source_name: &str) -> Result<Observation> {
        self.check_frame(frame, source_name)?;
        let s = self.config.downscale as f64;
        if self.config.downscale == 2 {
            // 2×2 averaging: cheaper than pyrDown and it averages the noise as well.
            imgproc::resize(
                frame,
                &mut self.work,
                Size::new((frame.cols() + 1) / 2, (frame.rows() + 1) / 2),
                0.0,
                0.0,
                imgproc::INTER_AREA,
            )
            .cv("downscaling the frame")?;
        } else {
            frame.copy_to(&mut self.work).cv("copying the frame")?;
        }
        imgproc::cvt_color_def(&self.work, &mut self.hsv, imgproc::COLOR_BGR2HSV)
            .cv("converting to HSV")?;

        if self.pieces.size().cv("piece mask size")? != self.hsv.size().cv("frame size")? {
            self.pieces = Mat::new_size_with_default(
                self.hsv.size().cv("frame size")?,
                core::CV_8UC1,
                Scalar::all(0.0),
            )
            .cv("allocating the piece mask")?;
        } else {
            self.pieces
                .set_to_def(&Scalar::all(0.0))
                .cv("clearing the piece mask")?;
        }
        let mut lab = std::mem::take(&mut self.labeler);
        // Processed pixel centre → full-resolution pixel centre (2×2 area averaging).
        let full = |c: f64| c * s + (s - 1.0) / 2.0;
        let mut blobs: Vec<Blob> = Vec::new();
        let mut residues: Vec<Residue> = Vec::new();
        let mut occlusion: Option<Occlusion> = None;
        let area_scale = s * s;

        for si in 0..self.board.signatures.len() {
            let sig = &self.board.signatures[si];
            let (range, class) = (sig.range.clone(), sig.class);
            let (size_min, size_max) = (sig.source.size_min as f64, sig.source.size_max as f64);
            for (k, h) in range.hue.iter().enumerate() {
                let lo = Scalar::new(h.lo as f64, range.sat.lo as f64, range.val.lo as f64, 0.0);
                let hi = Scalar::new(h.hi as f64, range.sat.hi as f64, range.val.hi as f64, 0.0);
                if k == 0 {
                    core::in_range(&self.hsv, &lo, &hi, &mut self.mask).cv("thresholding")?;
                } else {
                    core::in_range(&self.hsv, &lo, &hi, &mut self.mask2).cv("thresholding")?;
                    core::bitwise_or_def(&self.mask, &self.mask2, &mut self.opened)
                        .cv("combining hue ranges")?;
                    std::mem::swap(&mut self.mask, &mut self.opened);
                }
            }
            let src = if self.config.open_kernel > 1 {
                imgproc::morphology_ex(
                    &self.mask,
                    &mut self.opened,
                    imgproc::MORPH_OPEN,
                    &self.kernel,
                    Point::new(-1, -1),
                    1,
                    core::BORDER_CONSTANT,
                    imgproc::morphology_default_border_value().cv("morphology border")?,
                )
                .cv("opening the mask")?;
                &self.opened
            } else {
                &self.mask
            };
            core::bitwise_or_def(&self.pieces, src, &mut self.mask2)
                .cv("collecting piece pixels")?;
            std::mem::swap(&mut self.pieces, &mut self.mask2);
            let (w, h) = (src.cols() as usize, src.rows() as usize);
            lab.label(src.data_bytes().cv("reading the mask")?, w, h, w);
            for (ci, c) in lab.components.iter().enumerate() {
                let area = c.area as f64 * area_scale;
                let (cx, cy) = (full(c.cx), full(c.cy));
                if area > self.occluder_area {
                    if occlusion.is_none() {
                        occlusion = Some(Occlusion::LargeBlob {
                            signature: si,
                            area,
                        });
                    }
                    continue;
                }
                if area < size_min {
                    // Too small for a piece; a sizeable remnant still lowers "empty" confidence.
                    if area >= 0.25 * size_min {
                        if let Some(b) = self.to_board.apply(cx, cy) {
                            residues.push(Residue {
                                board: b,
                                fraction: area / size_min,
                            });
                        }
                    }
                    continue;
                }
                let r = self.roi;
                let crosses = c.left <= r.x
                    || c.top <= r.y
                    || c.left + c.width >= r.x + r.width
                    || c.top + c.height >= r.y + r.height;
                if crosses && area > 4.0 * size_max {
                    // Far too big for this colour's pieces and coming in from
                    // outside the board: an arm or hand of that colour.
                    if occlusion.is_none() {
                        occlusion = Some(Occlusion::Intrusion { area });
                    }
                    continue;
                }
                // Touching pieces of one colour merge into one blob: split it by
                // the locations it covers. Above `sizeMax` it cannot be one piece;
                // below, it may be two small ones pushed together (the hand puts
                // pieces down a few mm off centre), and then it has room for two
                // pieces and is not round, while a piece lying between two
                // locations is round and stays whole.
                let maybe_two = area >= 2.0 * size_min && lab.elongation(ci) >= MIN_PAIR_ELONGATION;
                if area > size_max || maybe_two {
                    let parts = self.split_blob(&lab, ci, si, class, size_min);
                    if area > size_max || parts.len() >= 2 {
                        blobs.extend(parts);
                        continue;
                    }
                }
                let Some(board_px) = self.to_board.apply(cx, cy) else {
                    continue;
                };
                let sc = |v: i32| (v as f64 * s).round() as i32;
                blobs.push(Blob {
                    signature: si,
                    class,
                    image: (cx, cy),
                    board: board_px,
                    area,
                    bbox: (sc(c.left), sc(c.top), sc(c.width), sc(c.height)),
                    location: None,
                });
            }
        }
        self.labeler = lab;

        if occlusion.is_none() && self.config.check_foreground {
            occlusion = self.foreground_occlusion()?;
        }

        let thumbnail = self.thumbnail()?;
        let (locations, unmatched) = self.assign(&mut blobs, &residues);
        Ok(Observation {
            locations,
            blobs,
            unmatched,
            occlusion,
            thumbnail,
        })
    }

    /// Splits component `ci` of `lab` into one blob per location that holds
    /// at least 60 % of a minimal piece's area of it within the location's
    /// radius.
    fn split_blob(
        &self,
        lab: &Labeler,
        ci: usize,
        signature: usize,
        class: usize,
        size_min: f64,
    ) -> Vec<Blob> {
        let mut blobs = Vec::new();
        let s = self.config.downscale as f64;
        let c = lab.components[ci];
        let runs: Vec<Run> = lab.runs_of(ci).copied().collect();
        let mut done: Vec<(f64, f64)> = Vec::new();
        for &(cx, cy, r) in &self.loc_image {
            // Stacked slots share one centre: one blob per place.
            if done
                .iter()
                .any(|d| (d.0 - cx).abs() < 1.0 && (d.1 - cy).abs() < 1.0)
            {
                continue;
            }
            // Location centre and radius in processed pixels.
            let (px, py, pr) = (
                (cx - (s - 1.0) / 2.0) / s,
                (cy - (s - 1.0) / 2.0) / s,
                r / s,
            );
            if px < c.left as f64 - pr
                || px > (c.left + c.width) as f64 + pr
                || py < c.top as f64 - pr
                || py > (c.top + c.height) as f64 + pr
            {
                continue;
            }
            done.push((cx, cy));
            let (mut n, mut sx, mut sy) = (0usize, 0.0, 0.0);
            let (mut minx, mut miny, mut maxx, mut maxy) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
            for run in &runs {
                let dy = run.y as f64 - py;
                if dy.abs() > pr {
                    continue;
                }
                // The run's pixels within the disc: |x − px| ≤ half-chord.
                let half = (pr * pr - dy * dy).sqrt();
                let x0 = run.x0.max((px - half).ceil() as i32);
                let x1 = (run.x1 - 1).min((px + half).floor() as i32);
                if x1 < x0 {
                    continue;
                }
                let k = (x1 - x0 + 1) as usize;
                n += k;
                sx += k as f64 * (x0 + x1) as f64 / 2.0;
                sy += k as f64 * run.y as f64;
                minx = minx.min(x0);
                maxx = maxx.max(x1);
                miny = miny.min(run.y);
                maxy = maxy.max(run.y);
            }
            let area = n as f64 * s * s;
            if n == 0 || area < 0.6 * size_min {
                continue;
            }
            let full = |v: f64| v * s + (s - 1.0) / 2.0;
            let (ix, iy) = (full(sx / n as f64), full(sy / n as f64));
            let Some(board) = self.to_board.apply(ix, iy) else {
                continue;
            };
            let sc = |v: i32| (v as f64 * s).round() as i32;
            blobs.push(Blob {
                signature,
                class,
                image: (ix, iy),
                board,
                area,
                bbox: (sc(minx), sc(miny), sc(maxx - minx + 1), sc(maxy - miny + 1)),
                location: None,
            });
        }
        blobs
    }

    /// Looks for an occluder among the *unexplained* foreground: pixels that
    /// are saturated or dark but match no piece colour, inside the board's
    /// region of interest. A component is an occluder when it is large, or
    /// when it crosses the region's border (arms and hands come in from
    /// outside) and is bigger than a piece.
    fn foreground_occlusion(&mut self) -> Result<Option<Occlusion>> {
        let s = self.config.downscale as f64;
        let sat = (self.config.foreground_saturation * 255.0).ceil();
        let val = (self.config.foreground_value * 255.0).floor();
        let roi = self.roi;
        let hsv = Mat::roi(&self.hsv, roi).cv("cropping to the board")?;
        // Background = unsaturated and not dark.
        core::in_range(
            &hsv,
            &Scalar::new(0.0, 0.0, val + 1.0, 0.0),
            &Scalar::new(255.0, sat - 1.0, 255.0, 0.0),
            &mut self.mask,
        )
        .cv("thresholding the background")?;
        let explained = Mat::roi(&self.pieces, roi).cv("cropping the piece mask")?;
        // Unexplained foreground = not background and not a piece colour.
        core::bitwise_or_def(&self.mask, &explained, &mut self.mask2)
            .cv("combining background and pieces")?;
        core::bitwise_not_def(&self.mask2, &mut self.mask).cv("inverting")?;
        imgproc::morphology_ex(
            &self.mask,
            &mut self.opened,
            imgproc::MORPH_OPEN,
            &self.kernel,
            Point::new(-1, -1),
            1,
            core::BORDER_CONSTANT,
            imgproc::morphology_default_border_value().cv("morphology border")?,
        )
        .cv("opening the foreground")?;
        let (w, h) = (self.opened.cols() as usize, self.opened.rows() as usize);
        self.labeler.label(
            self.opened.data_bytes().cv("reading the foreground")?,
            w,
            h,
            w,
        );
        let mut found: Option<Occlusion> = None;
        for c in &self.labeler.components {
            let area = c.area as f64 * s * s;
            let touches = c.left == 0
                || c.top == 0
                || c.left + c.width == roi.width
                || c.top + c.height == roi.height;
            if area > self.occluder_area {
                return Ok(Some(Occlusion::LargeForeground { area }));
            }
            if touches && area > self.intrusion_area && found.is_none() {
                found = Some(Occlusion::Intrusion { area });
            }
        }
        Ok(found)
    }

    /// A small grey copy of the working image for frame differencing.
    fn thumbnail(&mut self) -> Result<Vec<u8>> {
        imgproc::resize(
            &self.work,
            &mut self.small,
            Size::new(THUMB_W, THUMB_H),
            0.0,
            0.0,
            imgproc::INTER_AREA,
        )
        .cv("making the thumbnail")?;
        imgproc::cvt_color_def(&self.small, &mut self.grey, imgproc::COLOR_BGR2GRAY)
            .cv("making the thumbnail grey")?;
        Ok(self.grey.data_bytes().cv("reading the thumbnail")?.to_vec())
    }

    /// Assigns blobs to their nearest location within its radius, resolves
    /// conflicts, and computes per-location confidences.
    fn assign(
        &self,
        blobs: &mut [Blob],
        residues: &[Residue],
    ) -> (Vec<LocationObservation>, Vec<usize>) {
        let locs = &self.board.locations;
        let nearest = |p: (f64, f64)| -> Option<(usize, f64)> {
            let mut best: Option<(usize, f64)> = None;
            for (i, l) in locs.iter().enumerate() {
                let d2 = (l.px.0 - p.0).powi(2) + (l.px.1 - p.1).powi(2);
                if best.is_none_or(|(_, b)| d2 < b) {
                    best = Some((i, d2));
                }
            }
            best.and_then(|(i, d2)| {
                let d = d2.sqrt();
                (d <= locs[i].radius).then_some((i, d))
            })
        };

        // Per location: candidate blobs with their scores.
        let mut cands: Vec<Vec<(usize, f64)>> = vec![Vec::new(); locs.len()];
        let mut unmatched = Vec::new();
        for (bi, b) in blobs.iter().enumerate() {
            match nearest(b.board) {
                Some((li, d)) => {
                    let r = locs[li].radius;
                    let dist_score = 1.0 - 0.5 * (d / r).powi(2);
                    let (_, _, w, h) = b.bbox;
                    let fill = b.area / ((w.max(1) * h.max(1)) as f64);
                    // A disc fills π/4 of its box; ragged or elongated blobs fill less.
                    let fill_score = (fill / 0.7).min(1.0);
                    cands[li].push((bi, dist_score * fill_score));
                }
                None => unmatched.push(bi),
            }
        }
        let mut residue = vec![0.0f64; locs.len()];
        for r in residues {
            if let Some((li, _)) = nearest(r.board) {
                residue[li] = residue[li].max(r.fraction.min(1.0));
            }
        }

        let mut out = Vec::with_capacity(locs.len());
        for (li, c) in cands.iter().enumerate() {
            if c.is_empty() {
                out.push(LocationObservation {
                    index: li,
                    class: None,
                    blob: None,
                    confidence: (1.0 - residue[li]).clamp(0.0, 1.0) as f32,
                });
                continue;
            }
            // The best blob wins: highest score weighted by area (two overlapping
            // signatures on one piece: the one covering more of it).
            let weight = |&(bi, sc): &(usize, f64)| sc * blobs[bi].area;
            let (best_i, best) = c
                .iter()
                .enumerate()
                .max_by(|a, b| weight(a.1).total_cmp(&weight(b.1)))
                .map(|(i, x)| (i, *x))
                .unwrap_or((0, c[0]));
            let total: f64 = c.iter().map(|&(bi, _)| blobs[bi].area).sum();
            let exclusivity = blobs[best.0].area / total;
            for (k, &(bi, _)) in c.iter().enumerate() {
                if k != best_i {
                    unmatched.push(bi);
                }
            }
            blobs[best.0].location = Some(li);
            out.push(LocationObservation {
                index: li,
                class: Some(blobs[best.0].class),
                blob: Some(best.0),
                confidence: (best.1 * exclusivity).clamp(0.0, 1.0) as f32,
            });
        }
        unmatched.sort_unstable();
        (out, unmatched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_model::{testboard, VisionBoard};
    use opencv::core::{Scalar, CV_8UC3};

    fn blank() -> Mat {
        // Light cream board, BGR.
        Mat::new_rows_cols_with_default(480, 640, CV_8UC3, Scalar::new(200.0, 220.0, 225.0, 0.0))
            .unwrap()
    }

    fn disc(img: &mut Mat, x: i32, y: i32, bgr: (f64, f64, f64)) {
        imgproc::circle(
            img,
            Point::new(x, y),
            20,
            Scalar::new(bgr.0, bgr.1, bgr.2, 0.0),
            -1,
            imgproc::LINE_AA,
            0,
        )
        .unwrap();
    }

    #[test]
    fn finds_discs_on_their_locations() {
        for downscale in [1, 2] {
            let board = testboard::board();
            let cfg = DetectorConfig {
                downscale,
                ..Default::default()
            };
            let mut d = Detector::new(board.clone(), None, cfg).unwrap();
            let mut img = blank();
            let l0 = &board.locations[0];
            let l5 = &board.locations[5];
            disc(
                &mut img,
                l0.px.0 as i32 + 3,
                l0.px.1 as i32 - 2,
                (30.0, 30.0, 220.0),
            );
            disc(
                &mut img,
                l5.px.0 as i32,
                l5.px.1 as i32,
                (220.0, 90.0, 30.0),
            );
            // A red disc far from every location.
            disc(&mut img, 320, 30, (30.0, 30.0, 220.0));
            let obs = d.detect(&img).unwrap();
            assert_eq!(obs.class_at(0), board.class_for("red", 1));
            assert_eq!(obs.class_at(5), board.class_for("blue", 1));
            let occupied = obs.locations.iter().filter(|l| l.class.is_some()).count();
            assert_eq!(occupied, 2);
            assert_eq!(obs.unmatched.len(), 1);
            let u = &obs.blobs[obs.unmatched[0]];
            assert!((u.image.0 - 320.0).abs() < 1.5 && (u.image.1 - 30.0).abs() < 1.5);
            assert!((u.area - 1257.0).abs() < 120.0, "area {}", u.area);
            assert!(obs.occlusion.is_none());
            assert!(obs.locations.iter().all(|l| l.confidence > 0.5));
        }
    }

    #[test]
    fn two_touching_small_pieces_are_two_pieces_and_one_between_two_places_is_one() {
        let board = testboard::board();
        // Neighbours on one row (pitch 50 px, radius 24).
        let (a, b) = (&board.locations[0], &board.locations[1]);
        assert!((b.px.0 - a.px.0 - 50.0).abs() < 1e-9 && (b.px.1 - a.px.1).abs() < 1e-9);
        let red = (30.0, 30.0, 220.0);
        for downscale in [1, 2] {
            let cfg = DetectorConfig {
                downscale,
                ..Default::default()
            };
            let mut d = Detector::new(board.clone(), None, cfg).unwrap();
            // Two discs of radius 18 (≈ 1,020 px each), each put down 7 px off
            // centre towards the other: they touch, and their one blob is under
            // sizeMax (2,500).
            let mut img = blank();
            let y = a.px.1 as i32;
            for x in [a.px.0 as i32 + 7, b.px.0 as i32 - 7] {
                imgproc::circle(
                    &mut img,
                    Point::new(x, y),
                    18,
                    Scalar::new(red.0, red.1, red.2, 0.0),
                    -1,
                    imgproc::LINE_AA,
                    0,
                )
                .unwrap();
            }
            let obs = d.detect(&img).unwrap();
            assert_eq!(
                obs.class_at(0),
                board.class_for("red", 1),
                "downscale {downscale}"
            );
            assert_eq!(
                obs.class_at(1),
                board.class_for("red", 1),
                "downscale {downscale}"
            );
            assert!(
                obs.unmatched.is_empty(),
                "downscale {downscale}: {:?}",
                obs.unmatched
            );
            // One disc of radius 20 lying halfway between the two places: one
            // piece, on neither (it is round, so it is not split).
            let mut img = blank();
            disc(&mut img, ((a.px.0 + b.px.0) / 2.0) as i32, y, red);
            let obs = d.detect(&img).unwrap();
            assert_eq!(obs.blobs.len(), 1, "downscale {downscale}");
            assert_eq!(obs.unmatched, vec![0], "downscale {downscale}");
            assert!(obs.locations.iter().all(|l| l.class.is_none()));
        }
    }

    #[test]
    fn locations_at_the_image_border_work_at_both_scales() {
        let (et, lt, mut locs, rb) = testboard::parts();
        locs[0].camera = Some(gamebot_rules::model::Pixel { x: 639, y: 479 });
        locs[1].camera = Some(gamebot_rules::model::Pixel { x: 0, y: 0 });
        let board = VisionBoard::from_parts(&et, &lt, &locs, &rb).unwrap();
        for downscale in [1, 2] {
            let cfg = DetectorConfig {
                downscale,
                ..Default::default()
            };
            let mut d = Detector::new(board.clone(), None, cfg).unwrap();
            let mut img = blank();
            disc(&mut img, 630, 470, (30.0, 30.0, 220.0));
            let obs = d.detect(&img).unwrap();
            assert_eq!(
                obs.class_at(0),
                board.class_for("red", 1),
                "downscale {downscale}"
            );
        }
    }

    #[test]
    fn large_dark_region_is_an_occlusion() {
        let mut d = Detector::new(testboard::board(), None, DetectorConfig::default()).unwrap();
        let mut img = blank();
        imgproc::rectangle(
            &mut img,
            core::Rect::new(200, 150, 120, 330),
            Scalar::new(40.0, 40.0, 40.0, 0.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        let obs = d.detect(&img).unwrap();
        assert!(
            matches!(obs.occlusion, Some(Occlusion::LargeForeground { .. })),
            "{:?}",
            obs.occlusion
        );
    }

    #[test]
    fn wrong_frames_are_clear_errors() {
        let mut d = Detector::new(testboard::board(), None, DetectorConfig::default()).unwrap();
        let small = Mat::new_rows_cols_with_default(240, 320, CV_8UC3, Scalar::all(0.0)).unwrap();
        let e = d.detect_named(&small, "cam.png").unwrap_err().to_string();
        assert_eq!(e, "cam.png: frame is 320x240, expected 640x480");
        let grey =
            Mat::new_rows_cols_with_default(480, 640, core::CV_8UC1, Scalar::all(0.0)).unwrap();
        let e = d.detect(&grey).unwrap_err().to_string();
        assert!(e.contains("not 8-bit BGR"), "{e}");
    }
}
