//! Human-readable output of an observation: an annotated image (blobs,
//! assigned locations, confidences) and a serialisable report.

use std::collections::BTreeMap;

use opencv::core::{Mat, Point, Rect, Scalar};
use opencv::imgproc;
use opencv::prelude::*;
use serde::Serialize;

use crate::board_model::VisionBoard;
use crate::detect::{Detector, Observation, Occlusion};
use crate::error::{CvContext, Result};

/// Per-location detail of a report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LocationDetail {
    /// Element type seen, `None` for empty.
    pub element_type: Option<String>,
    /// Element state its colour stands for.
    pub state: Option<i32>,
    pub confidence: f32,
}

/// A blob that matches no location.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnmatchedBlob {
    pub element_type: String,
    pub state: i32,
    /// Centroid in image pixels.
    pub x: f64,
    pub y: f64,
    pub area: f64,
}

/// The observation in names, for printing and JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ObservationReport {
    /// Every relevant camera location: the element type seen or `null`.
    pub locations: BTreeMap<String, Option<String>>,
    pub unmatched: Vec<UnmatchedBlob>,
    /// Why the frame looks occluded, when it does.
    pub occluded: Option<String>,
    /// State and confidence per relevant location.
    pub details: BTreeMap<String, LocationDetail>,
}

/// A short description of an occlusion.
pub fn describe_occlusion(o: &Occlusion) -> String {
    match o {
        Occlusion::LargeBlob { area, .. } => format!("a piece-coloured blob of {area:.0} px^2"),
        Occlusion::LargeForeground { area } => {
            format!("a large dark or saturated region of {area:.0} px^2")
        }
        Occlusion::Intrusion { area } => {
            format!("something of {area:.0} px^2 reaching over the board's edge")
        }
        Occlusion::SuddenChange { fraction } => {
            format!("{:.0}% of the image changed at once", fraction * 100.0)
        }
    }
}

/// Builds the named report of an observation (relevant locations only).
pub fn report(board: &VisionBoard, obs: &Observation) -> ObservationReport {
    let mut locations = BTreeMap::new();
    let mut details = BTreeMap::new();
    for lo in &obs.locations {
        let loc = &board.locations[lo.index];
        if !loc.relevant {
            continue;
        }
        let class = lo.class.map(|c| &board.classes[c]);
        locations.insert(loc.name.clone(), class.map(|c| c.name.clone()));
        details.insert(
            loc.name.clone(),
            LocationDetail {
                element_type: class.map(|c| c.name.clone()),
                state: class.map(|c| c.state),
                confidence: (lo.confidence * 1000.0).round() / 1000.0,
            },
        );
    }
    let unmatched = obs
        .unmatched
        .iter()
        .map(|&bi| {
            let b = &obs.blobs[bi];
            let c = &board.classes[b.class];
            UnmatchedBlob {
                element_type: c.name.clone(),
                state: c.state,
                x: (b.image.0 * 10.0).round() / 10.0,
                y: (b.image.1 * 10.0).round() / 10.0,
                area: b.area.round(),
            }
        })
        .collect();
    ObservationReport {
        locations,
        unmatched,
        occluded: obs.occlusion.as_ref().map(describe_occlusion),
        details,
    }
}

/// Draws the observation over a copy of the frame: location circles (grey
/// empty, green occupied with type and confidence), blob boxes, red crosses on
/// unmatched blobs, and a banner when the frame looks occluded.
pub fn annotate(frame: &Mat, detector: &Detector, obs: &Observation) -> Result<Mat> {
    let mut img = frame.try_clone().cv("copying the frame")?;
    let board = detector.board();
    let to_img = detector.board_to_image();
    let green = Scalar::new(40.0, 200.0, 40.0, 0.0);
    let grey = Scalar::new(130.0, 130.0, 130.0, 0.0);
    let red = Scalar::new(30.0, 30.0, 230.0, 0.0);
    let white = Scalar::all(255.0);
    let black = Scalar::all(0.0);
    let text = |img: &mut Mat, s: &str, p: Point, scale: f64, col: Scalar| -> Result<()> {
        imgproc::put_text(
            img,
            s,
            p,
            imgproc::FONT_HERSHEY_SIMPLEX,
            scale,
            black,
            3,
            imgproc::LINE_AA,
            false,
        )
        .cv("drawing text")?;
        imgproc::put_text(
            img,
            s,
            p,
            imgproc::FONT_HERSHEY_SIMPLEX,
            scale,
            col,
            1,
            imgproc::LINE_AA,
            false,
        )
        .cv("drawing text")
    };
    for lo in &obs.locations {
        let loc = &board.locations[lo.index];
        let Some((u, v)) = to_img.apply(loc.px.0, loc.px.1) else {
            continue;
        };
        // Radius in image pixels: map a point one radius to the right.
        let r = to_img
            .apply(loc.px.0 + loc.radius, loc.px.1)
            .map(|(a, b)| ((a - u).powi(2) + (b - v).powi(2)).sqrt())
            .unwrap_or(loc.radius);
        let c = Point::new(u.round() as i32, v.round() as i32);
        let col = if lo.class.is_some() { green } else { grey };
        imgproc::circle(&mut img, c, r.round() as i32, col, 1, imgproc::LINE_AA, 0)
            .cv("drawing a location")?;
        if let Some(cl) = lo.class {
            let label = format!("{} {:.2}", board.classes[cl].name, lo.confidence);
            text(
                &mut img,
                &label,
                Point::new(c.x - 18, c.y - r as i32 - 3),
                0.35,
                white,
            )?;
        }
    }
    for (bi, b) in obs.blobs.iter().enumerate() {
        let (x, y, w, h) = b.bbox;
        let unmatched = obs.unmatched.contains(&bi);
        let col = if unmatched { red } else { green };
        imgproc::rectangle(&mut img, Rect::new(x, y, w, h), col, 1, imgproc::LINE_8, 0)
            .cv("drawing a blob")?;
        let c = Point::new(b.image.0.round() as i32, b.image.1.round() as i32);
        if unmatched {
            imgproc::draw_marker(
                &mut img,
                c,
                red,
                imgproc::MARKER_CROSS,
                14,
                2,
                imgproc::LINE_AA,
            )
            .cv("drawing a cross")?;
            let label = board.classes[b.class].name.clone();
            text(&mut img, &label, Point::new(c.x + 8, c.y - 8), 0.35, red)?;
        } else {
            imgproc::circle(&mut img, c, 2, col, -1, imgproc::LINE_AA, 0)
                .cv("drawing a centroid")?;
        }
    }
    if let Some(o) = &obs.occlusion {
        let s = format!("OCCLUDED: {}", describe_occlusion(o));
        text(&mut img, &s, Point::new(8, 20), 0.5, red)?;
    }
    Ok(img)
}
