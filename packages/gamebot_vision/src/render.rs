//! Synthetic camera frames: the board sheet, its locations and the pieces of
//! a position drawn through a pinhole camera, with shading, shadows, a
//! lighting gradient, Gaussian noise, blur, random piece offsets and an
//! optional arm-shaped occluder. Every frame comes with its ground truth.
//!
//! Pieces are cylinders (discs 2 cm across, 1 cm tall by default) coloured
//! from the game's `[REALBOARD ELEMENT TYPES]` signatures; element types
//! without a signature are drawn in a neutral grey the detector ignores.
//!
//! Two kinds of scene: a [`Scene`] puts pieces on game locations (snapped,
//! with optional random offsets: the vision tests' random positions); a
//! [`TableScene`] gives every piece its own continuous table position, size
//! and height (a simulated world as it actually is: pieces put down off
//! their square, stacks, a piece in the air in the gripper) plus convex
//! [`Solid`]s drawn over them in depth order: the links of an arm at its
//! real pose, a person's hand ([`Renderer::skin_bgr`]).

use gamebot_rules::model::{Location, LocationId, LocationType, RobotSpec};
use gamebot_rules::{Game, State};
use opencv::core::{self, Mat, Point, Scalar, Size, Vector, CV_16SC3, CV_8UC1, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board_model::VisionBoard;
use crate::calib::{dictionary, BoardConfig};
use crate::camera::CameraModel;
use crate::error::{CvContext, Result, VisionError};
use crate::geom::Vec3;
use crate::hsv::hsv_to_bgr;

/// A piece to draw: which element type, in which state, on which location.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenePiece {
    /// Index into the game's locations.
    pub location: LocationId,
    /// Element type name.
    pub element_type: String,
    /// Element state (selects the colour when signatures differ per state).
    pub state: i32,
}

/// A position to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub pieces: Vec<ScenePiece>,
}

/// The scene of a game state: every element on its current location.
pub fn scene_from_state(game: &Game, state: &State) -> Scene {
    let pieces = game
        .elements
        .iter()
        .enumerate()
        .map(|(e, el)| {
            let e = e as gamebot_rules::model::ElementId;
            ScenePiece {
                location: state.location_of(e),
                element_type: game.element_types[el.element_type].name.clone(),
                state: state.element_state(e),
            }
        })
        .collect();
    Scene { pieces }
}

/// A piece at a continuous table position (cm, arm base frame).
#[derive(Clone, Debug, PartialEq)]
pub struct TablePiece {
    /// Element type name (selects the colour with `state`).
    pub element_type: String,
    /// Element state.
    pub state: i32,
    /// Centre of the piece's bottom face on the table plane (cm).
    pub centre_cm: (f64, f64),
    /// Height of the bottom face above the table (cm): 0 on the table, more in a
    /// stack or in the gripper.
    pub base_z_cm: f64,
    /// Radius and height (cm).
    pub radius_cm: f64,
    pub height_cm: f64,
}

/// A convex solid drawn as the filled convex hull of its projected points:
/// an arm link's box or cylinder, a hand.
#[derive(Clone, Debug, PartialEq)]
pub struct Solid {
    /// Points on its surface (cm, arm base frame); 2 or more.
    pub points: Vec<Vec3>,
    /// Colour (B, G, R).
    pub bgr: [u8; 3],
}

/// A simulated table: pieces where they really are, and solids over them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableScene {
    pub pieces: Vec<TablePiece>,
    pub solids: Vec<Solid>,
}

/// Image degradations and extras.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// Standard deviation of additive Gaussian noise, in 8-bit grey levels.
    pub noise_sigma: f64,
    /// Gaussian blur sigma in pixels (0 = none).
    pub blur_sigma: f64,
    /// Lighting varies smoothly over the image by up to ± this fraction.
    pub light_gradient: f64,
    /// Pieces are displaced by up to this many cm from their location's centre.
    pub piece_offset_cm: f64,
    /// Draw an arm reaching over the board (the frame is then occluded).
    pub arm: bool,
    /// Draw the board file's ArUco markers.
    pub markers: bool,
    /// Seed of the lighting field; `None` draws it from the frame seed. A
    /// fixed value keeps the lighting of a sequence of frames constant, as in a room.
    pub lighting_seed: Option<u64>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            noise_sigma: 4.0,
            blur_sigma: 0.8,
            light_gradient: 0.12,
            piece_offset_cm: 0.2,
            arm: false,
            markers: false,
            lighting_seed: None,
        }
    }
}

impl RenderOptions {
    /// No noise, blur, gradient or offsets: the exact picture.
    pub fn clean() -> RenderOptions {
        RenderOptions {
            noise_sigma: 0.0,
            blur_sigma: 0.0,
            light_gradient: 0.0,
            piece_offset_cm: 0.0,
            arm: false,
            markers: false,
            lighting_seed: None,
        }
    }
}

/// A drawn piece and where it ended up.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedPiece {
    /// The location it stands on; for a [`TableScene`], the camera location
    /// whose centre lies within the piece's radius of its centre, else
    /// [`LocationId::MAX`] (off every location).
    pub location: LocationId,
    /// Index into [`VisionBoard::classes`] of the colour drawn; `None` for grey (undetectable) pieces.
    pub class: Option<usize>,
    /// Centre of the piece's top face in the image.
    pub image: (f64, f64),
    /// Whether another piece of a stack lies on top of it.
    pub covered: bool,
}

/// What a rendered frame shows.
#[derive(Clone, Debug, PartialEq)]
pub struct GroundTruth {
    /// Per camera location ([`VisionBoard::locations`] order): the class a
    /// perfect detector reports there (`None`: empty or undetectable).
    pub locations: Vec<Option<usize>>,
    pub pieces: Vec<PlacedPiece>,
    /// Whether the arm (or, in a [`TableScene`], any solid) hides part of a
    /// camera location.
    pub occluded: bool,
}

/// A synthetic frame and its ground truth.
pub struct RenderedFrame {
    pub image: Mat,
    pub truth: GroundTruth,
}

/// Where every game location lies on the table.
fn location_cm(loc: &Location, board: &VisionBoard) -> Option<(f64, f64)> {
    // camera= first: the detector compares against it, so a piece drawn there
    // appears exactly where the game file says the camera sees the location.
    if let Some(p) = loc.camera.or(loc.point) {
        let [x, y] = board.mapping.to_table_cm(p.x as f64, p.y as f64);
        return Some((x, y));
    }
    match loc.robot {
        Some(RobotSpec::Cartesian([x, y, _])) => Some((x, y)),
        _ => None,
    }
}

/// Renders frames of one game seen by one camera. The static board layer is
/// drawn once; each frame costs the pieces plus the degradations.
pub struct Renderer {
    board: VisionBoard,
    camera: CameraModel,
    /// Table position (cm) of every game location.
    loc_cm: Vec<Option<(f64, f64)>>,
    loc_relevant: Vec<bool>,
    /// Distance (cm) from every location to its nearest distinct neighbour.
    loc_nn_cm: Vec<f64>,
    background_plain: Mat,
    background_markers: Mat,
    sheet_hsv: (f64, f64, f64),
    grey_hsv: (f64, f64, f64),
    piece_height_cm: f64,
}

/// Whether a colour (hue deg, s, v) — or a lighter/darker/noisier version of
/// it — would be accepted by a signature.
fn colour_collides(board: &VisionBoard, (h, s, v): (f64, f64, f64)) -> bool {
    let variants = [
        (s, v),
        (s, v * 0.8),
        (s, (v * 1.15).min(1.0)),
        ((s + 0.06).min(1.0), v),
        ((s - 0.06).max(0.0), v),
    ];
    board.signatures.iter().any(|sig| {
        variants.iter().any(|&(s, v)| {
            sig.source.hue_matches(h)
                && sig.source.saturation_min <= s
                && s <= sig.source.saturation_max
                && sig.source.value_min <= v
                && v <= sig.source.value_max
        })
    })
}

/// The first candidate colour no signature accepts (else the first candidate).
fn pick_colour(board: &VisionBoard, candidates: &[(f64, f64, f64)]) -> (f64, f64, f64) {
    candidates
        .iter()
        .copied()
        .find(|c| !colour_collides(board, *c))
        .unwrap_or(candidates[0])
}

fn scalar(bgr: [u8; 3]) -> Scalar {
    Scalar::new(bgr[0] as f64, bgr[1] as f64, bgr[2] as f64, 0.0)
}

fn hsv_scalar((h, s, v): (f64, f64, f64)) -> Scalar {
    scalar(hsv_to_bgr(h, s, v.clamp(0.0, 1.0)))
}

/// Sub-pixel bits used for polygon drawing.
const SHIFT: i32 = 4;

fn to_fixed(p: (f64, f64)) -> Point {
    let k = (1 << SHIFT) as f64;
    Point::new((p.0 * k).round() as i32, (p.1 * k).round() as i32)
}

impl Renderer {
    /// A renderer for a loaded game.
    pub fn from_game(
        game: &Game,
        board_cfg: &BoardConfig,
        camera: CameraModel,
    ) -> Result<Renderer> {
        let board = VisionBoard::from_game(game)?.with_mapping(board_cfg.camera_mapping);
        Self::new(
            board,
            &game.locations,
            &game.location_types,
            board_cfg,
            camera,
        )
    }

    /// A renderer from the game's parts.
    pub fn new(
        board: VisionBoard,
        locations: &[Location],
        location_types: &[LocationType],
        board_cfg: &BoardConfig,
        camera: CameraModel,
    ) -> Result<Renderer> {
        // An impossible view (below the table, facing away, edge-on, NaN) is
        // refused here with the pose named, before OpenCV draws anything.
        let (lo, hi) = board_cfg.sheet.bounds();
        camera.check_view(lo, hi).map_err(VisionError::Board)?;
        let loc_cm: Vec<Option<(f64, f64)>> =
            locations.iter().map(|l| location_cm(l, &board)).collect();
        let loc_relevant: Vec<bool> = locations
            .iter()
            .map(|l| {
                location_types
                    .get(l.location_type)
                    .is_none_or(|t| t.relevant)
            })
            .collect();

        // A piece may not be wider than its neighbourhood allows: cap its
        // radius at 0.42 × the distance to the nearest other location on the
        // table. When the game gives camera positions, locations without one
        // hold bookkeeping (a turn clock, a phase flag) and take no room.
        let any_camera = locations.iter().any(|l| l.camera.is_some());
        let table_cm: Vec<(f64, f64)> = loc_cm
            .iter()
            .zip(locations)
            .filter(|(_, l)| l.camera.is_some() || !any_camera)
            .filter_map(|(p, _)| *p)
            .collect();
        let loc_nn_cm: Vec<f64> = loc_cm
            .iter()
            .map(|p| {
                let Some(a) = p else { return f64::INFINITY };
                table_cm
                    .iter()
                    .map(|b| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt())
                    .filter(|d| *d > 0.05)
                    .fold(f64::INFINITY, f64::min)
            })
            .collect();
        let sheet_hsv = pick_colour(
            &board,
            &[
                (40.0, 0.08, 0.88),
                (0.0, 0.0, 0.80),
                (200.0, 0.05, 0.70),
                (0.0, 0.0, 0.55),
            ],
        );
        let grey_hsv = pick_colour(
            &board,
            &[(0.0, 0.02, 0.55), (0.0, 0.02, 0.40), (0.0, 0.02, 0.70)],
        );
        let mut r = Renderer {
            board,
            camera,
            loc_cm,
            loc_relevant,
            background_plain: Mat::default(),
            background_markers: Mat::default(),
            loc_nn_cm,
            sheet_hsv,
            grey_hsv,
            piece_height_cm: 1.0,
        };
        r.background_plain = r.draw_background(board_cfg, locations, location_types, false)?;
        r.background_markers = r.draw_background(board_cfg, locations, location_types, true)?;
        Ok(r)
    }

    /// The board view used for colours and ground truth.
    pub fn board(&self) -> &VisionBoard {
        &self.board
    }

    /// Where a game location is on the table (cm, arm base frame), as drawn.
    pub fn location_cm(&self, location: LocationId) -> Option<(f64, f64)> {
        self.loc_cm.get(location as usize).copied().flatten()
    }

    /// The camera.
    pub fn camera(&self) -> &CameraModel {
        &self.camera
    }

    /// Radius (cm) of a piece of `class` (`None`: undetectable grey) on a location:
    /// the disc whose image area is the geometric mean of the signature's
    /// `sizeMin`/`sizeMax` (1 cm for the usual 600–2500 px²), capped by the
    /// location's neighbourhood.
    pub fn piece_radius_cm(&self, class: Option<usize>, location: LocationId) -> f64 {
        let from_size = class
            .and_then(|c| self.board.signature_of_class(c))
            .map(|s| {
                let area = ((s.source.size_min.max(1) as f64) * (s.source.size_max as f64)).sqrt();
                (area / std::f64::consts::PI).sqrt() / self.board.mapping.scale_px_per_cm
            })
            .unwrap_or(1.0);
        let cap = self
            .loc_nn_cm
            .get(location as usize)
            .copied()
            .unwrap_or(f64::INFINITY)
            * 0.42;
        from_size.min(cap)
    }

    fn project(&self, p: Vec3) -> Option<(f64, f64)> {
        self.camera.project(p)
    }

    /// Projects a table-plane polygon (cm, height z) to fixed-point image points.
    fn poly(&self, pts: &[(f64, f64)], z: f64) -> Vector<Point> {
        let r = self.camera.rotation();
        pts.iter()
            .filter_map(|&(x, y)| self.camera.project_with(&r, [x, y, z]))
            .map(to_fixed)
            .collect()
    }

    fn fill(&self, img: &mut Mat, pts: &Vector<Point>, colour: Scalar) -> Result<()> {
        if pts.len() < 3 {
            return Ok(());
        }
        let polys: Vector<Vector<Point>> = Vector::from_iter([pts.clone()]);
        imgproc::fill_poly(
            img,
            &polys,
            colour,
            imgproc::LINE_AA,
            SHIFT,
            Point::new(0, 0),
        )
        .cv("filling a polygon")
    }

    fn outline(&self, img: &mut Mat, pts: &Vector<Point>, colour: Scalar, px: i32) -> Result<()> {
        let polys: Vector<Vector<Point>> = Vector::from_iter([pts.clone()]);
        imgproc::polylines(img, &polys, true, colour, px, imgproc::LINE_AA, SHIFT)
            .cv("drawing an outline")
    }

    fn circle_pts(c: (f64, f64), r: f64, n: usize) -> Vec<(f64, f64)> {
        (0..n)
            .map(|i| {
                let a = i as f64 / n as f64 * std::f64::consts::TAU;
                (c.0 + r * a.cos(), c.1 + r * a.sin())
            })
            .collect()
    }

    fn rect_pts(c: (f64, f64), hw: f64, hh: f64) -> Vec<(f64, f64)> {
        vec![
            (c.0 - hw, c.1 - hh),
            (c.0 + hw, c.1 - hh),
            (c.0 + hw, c.1 + hh),
            (c.0 - hw, c.1 + hh),
        ]
    }

    /// The static layer: table, sheet, location marks, optionally markers.
    fn draw_background(
        &self,
        cfg: &BoardConfig,
        locations: &[Location],
        location_types: &[LocationType],
        markers: bool,
    ) -> Result<Mat> {
        let table = pick_colour(
            &self.board,
            &[(30.0, 0.10, 0.42), (0.0, 0.0, 0.45), (0.0, 0.0, 0.62)],
        );
        let mut img = Mat::new_rows_cols_with_default(
            self.camera.height,
            self.camera.width,
            CV_8UC3,
            hsv_scalar(table),
        )
        .cv("allocating the background")?;
        let (lo, hi) = cfg.sheet.bounds();
        let sheet = self.poly(
            &[
                (lo[0], lo[1]),
                (hi[0], lo[1]),
                (hi[0], hi[1]),
                (lo[0], hi[1]),
            ],
            0.0,
        );
        self.fill(&mut img, &sheet, hsv_scalar(self.sheet_hsv))?;
        // Location marks in a mid grey: visible, unsaturated and not dark.
        let line = hsv_scalar((self.sheet_hsv.0, 0.03, (self.sheet_hsv.2 - 0.3).max(0.4)));
        let scale = self.board.mapping.scale_px_per_cm;
        let mut drawn: Vec<(f64, f64)> = Vec::new();
        for (i, loc) in locations.iter().enumerate() {
            let Some(c) = self.loc_cm[i] else { continue };
            if drawn
                .iter()
                .any(|d| (d.0 - c.0).abs() < 0.05 && (d.1 - c.1).abs() < 0.05)
            {
                continue; // stacked slots share one mark
            }
            drawn.push(c);
            let shape = location_types.get(loc.location_type).and_then(|t| t.shape);
            let pts = match shape {
                Some(gamebot_rules::model::Shape::Rectangle { w, h }) => {
                    Self::rect_pts(c, w as f64 / 2.0 / scale, h as f64 / 2.0 / scale)
                }
                Some(gamebot_rules::model::Shape::Circle { r }) => {
                    let cap = 0.5 * self.loc_nn_cm[i].min(2.4);
                    Self::circle_pts(c, (r as f64 / scale).min(cap), 48)
                }
                None => Self::circle_pts(c, 0.5 * self.loc_nn_cm[i].min(2.4), 48),
            };
            let poly = self.poly(&pts, 0.0);
            self.outline(&mut img, &poly, line, 1)?;
        }
        if markers {
            let dict = dictionary(&cfg.aruco)?;
            for m in &cfg.aruco.markers {
                self.draw_marker(&mut img, &dict, m)?;
            }
        }
        Ok(img)
    }

    fn draw_marker(
        &self,
        img: &mut Mat,
        dict: &core::Ptr<opencv::aruco::Dictionary>,
        m: &crate::calib::MarkerSpec,
    ) -> Result<()> {
        let cells = dict.marker_size() + 2;
        let mut bits = Mat::default();
        opencv::aruco::draw_marker_def(dict, m.id, cells, &mut bits)
            .cv("drawing an ArUco marker")?;
        if bits.rows() != cells || bits.typ() != CV_8UC1 {
            return Err(VisionError::Calibration(format!(
                "ArUco marker {} could not be drawn",
                m.id
            )));
        }
        // The marker with a one-cell white quiet zone, 8 px per cell, warped
        // into the frame through the exact table → image homography (drawing
        // cell polygons would be off by the rasteriser's half-pixel rules).
        const PX: i32 = 8;
        let n = (cells + 2) * PX;
        let mut tile = Mat::new_rows_cols_with_default(n, n, CV_8UC3, Scalar::all(245.0))
            .cv("allocating a marker tile")?;
        for i in 0..cells {
            for j in 0..cells {
                if *bits.at_2d::<u8>(i, j).cv("reading marker bits")? < 128 {
                    let r = core::Rect::new((j + 1) * PX, (i + 1) * PX, PX, PX);
                    imgproc::rectangle(&mut tile, r, Scalar::all(20.0), -1, imgproc::LINE_8, 0)
                        .cv("drawing a marker cell")?;
                }
            }
        }
        // Tile pixel centre (px, py) ↔ table point; the tile spans the quiet-zone square.
        let side = m.size_cm * (cells + 2) as f64 / cells as f64;
        let k = side / n as f64;
        let (left, top) = (m.center_cm[0] - side / 2.0, m.center_cm[1] + side / 2.0);
        let tile_to_table = crate::geom::Homography([
            [k, 0.0, left + 0.5 * k],
            [0.0, -k, top - 0.5 * k],
            [0.0, 0.0, 1.0],
        ]);
        let h = self.camera.plane_homography(0.0).after(&tile_to_table);
        let hm = Mat::from_slice_2d(&h.0).cv("homography matrix")?;
        let size = img.size().cv("frame size")?;
        imgproc::warp_perspective(
            &tile,
            img,
            &hm,
            size,
            imgproc::INTER_LINEAR,
            core::BORDER_TRANSPARENT,
            Scalar::all(0.0),
        )
        .cv("warping a marker into the frame")?;
        Ok(())
    }

    /// Colour (hue, s, v) and class of a piece.
    fn piece_colour(&self, type_name: &str, state: i32) -> ((f64, f64, f64), Option<usize>) {
        let Some(class) = self.board.class_for(type_name, state) else {
            return (self.grey_hsv, None);
        };
        let Some(sig) = self.board.signature_of_class(class) else {
            return (self.grey_hsv, None);
        };
        let s = &sig.source;
        let hue = if s.hue_min < s.hue_max {
            (s.hue_min + s.hue_max) / 2.0
        } else if s.hue_min == s.hue_max {
            s.hue_min
        } else {
            ((s.hue_min + s.hue_max + 360.0) / 2.0).rem_euclid(360.0)
        };
        let sat = (s.saturation_min + s.saturation_max) / 2.0;
        let val = ((s.value_min + s.value_max) / 2.0).min(0.96);
        ((hue, sat.clamp(0.0, 1.0), val.clamp(0.0, 1.0)), Some(class))
    }

    /// Draws one frame of `scene`. The same seed gives the same frame.
    pub fn render(&self, scene: &Scene, opts: &RenderOptions, seed: u64) -> Result<RenderedFrame> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut img = if opts.markers {
            self.background_markers.try_clone()
        } else {
            self.background_plain.try_clone()
        }
        .cv("copying the background")?;

        // Stack pieces that share a table point; draw bottom-up.
        struct Item {
            piece: usize,
            at: (f64, f64),
            level: usize,
        }
        let mut items: Vec<Item> = Vec::new();
        for (i, p) in scene.pieces.iter().enumerate() {
            let Some(Some(c)) = self.loc_cm.get(p.location as usize) else {
                continue;
            };
            let level = items
                .iter()
                .filter(|it| (it.at.0 - c.0).abs() < 0.05 && (it.at.1 - c.1).abs() < 0.05)
                .count();
            items.push(Item {
                piece: i,
                at: *c,
                level,
            });
        }
        let max_level: Vec<usize> = items
            .iter()
            .map(|it| {
                items
                    .iter()
                    .filter(|o| (o.at.0 - it.at.0).abs() < 0.05 && (o.at.1 - it.at.1).abs() < 0.05)
                    .map(|o| o.level)
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by_key(|&i| items[i].level);

        let light_dir = {
            let a: f64 = rng.gen_range(0.0..std::f64::consts::TAU);
            (a.cos(), a.sin())
        };
        let mut truth = vec![None; self.board.locations.len()];
        let mut placed = Vec::new();
        let h = self.piece_height_cm;
        // Offsets are drawn per stack so a stack stays a stack.
        let mut stack_offsets: Vec<((f64, f64), (f64, f64))> = Vec::new();
        for &ii in &order {
            let it = &items[ii];
            let p = &scene.pieces[it.piece];
            let off = match stack_offsets
                .iter()
                .find(|(a, _)| (a.0 - it.at.0).abs() < 0.05 && (a.1 - it.at.1).abs() < 0.05)
            {
                Some((_, o)) => *o,
                None => {
                    let o = if opts.piece_offset_cm > 0.0 {
                        let a: f64 = rng.gen_range(0.0..std::f64::consts::TAU);
                        let d = opts.piece_offset_cm * rng.gen_range(0.0f64..1.0).sqrt();
                        (d * a.cos(), d * a.sin())
                    } else {
                        (0.0, 0.0)
                    };
                    stack_offsets.push((it.at, o));
                    o
                }
            };
            let c = (it.at.0 + off.0, it.at.1 + off.1);
            let z0 = it.level as f64 * h;
            let (colour, class) = self.piece_colour(&p.element_type, p.state);
            let r = self.piece_radius_cm(class, p.location);
            let tint: f64 = rng.gen_range(-0.03..0.03);
            let colour = (
                colour.0,
                colour.1,
                (colour.2 * (1.0 + tint)).clamp(0.0, 1.0),
            );
            self.draw_piece(&mut img, c, z0, r, h, colour, light_dir)?;
            let image = self.project([c.0, c.1, z0 + h]).unwrap_or((-1.0, -1.0));
            let covered = it.level < max_level[ii];
            if !covered {
                if let Some(ci) = self
                    .board
                    .camera_index
                    .get(p.location as usize)
                    .copied()
                    .flatten()
                {
                    truth[ci] = class;
                }
            }
            placed.push(PlacedPiece {
                location: p.location,
                class,
                image,
                covered,
            });
        }

        let occluded = if opts.arm {
            self.draw_arm(&mut img, &mut rng)?
        } else {
            false
        };
        self.finish(&mut img, opts, seed, &mut rng)?;
        Ok(RenderedFrame {
            image: img,
            truth: GroundTruth {
                locations: truth,
                pieces: placed,
                occluded,
            },
        })
    }

    /// A skin colour (B, G, R) that no colour signature of the game accepts,
    /// for drawing a person's hand.
    pub fn skin_bgr(&self) -> [u8; 3] {
        let (h, s, v) = pick_colour(
            &self.board,
            &[
                (24.0, 0.42, 0.86),
                (18.0, 0.35, 0.78),
                (30.0, 0.50, 0.70),
                (10.0, 0.30, 0.62),
            ],
        );
        hsv_to_bgr(h, s, v)
    }

    /// Draws one frame of a [`TableScene`]: every piece at its own position
    /// and height, then the solids, everything in order of height (what is
    /// higher hides what is lower, as seen from the camera above). The
    /// ground truth's `locations` hold, per camera location, the class of
    /// the topmost piece standing on it (within its radius, not hidden
    /// under another piece, not in the air); `occluded` says whether a solid
    /// hides part of a camera location. `piece_offset_cm` and `arm` of
    /// `opts` are ignored: positions are the scene's.
    pub fn render_table(
        &self,
        scene: &TableScene,
        opts: &RenderOptions,
        seed: u64,
    ) -> Result<RenderedFrame> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut img = if opts.markers {
            self.background_markers.try_clone()
        } else {
            self.background_plain.try_clone()
        }
        .cv("copying the background")?;
        let light_dir = {
            let a: f64 = rng.gen_range(0.0..std::f64::consts::TAU);
            (a.cos(), a.sin())
        };
        let mut mask =
            Mat::new_rows_cols_with_default(img.rows(), img.cols(), CV_8UC1, Scalar::all(0.0))
                .cv("allocating the occluder mask")?;
        // Painter's order: pieces by top height, solids by mean height.
        enum Item {
            Piece(usize),
            Solid(usize),
        }
        let mut items: Vec<(f64, Item)> = Vec::new();
        for (i, p) in scene.pieces.iter().enumerate() {
            items.push((p.base_z_cm + p.height_cm, Item::Piece(i)));
        }
        for (i, sd) in scene.solids.iter().enumerate() {
            let n = sd.points.len().max(1) as f64;
            let z = sd.points.iter().map(|p| p[2]).sum::<f64>() / n;
            items.push((z, Item::Solid(i)));
        }
        items.sort_by(|a, b| a.0.total_cmp(&b.0));
        let rot = self.camera.rotation();
        for (_, item) in &items {
            match *item {
                Item::Piece(i) => {
                    let p = &scene.pieces[i];
                    let (colour, _) = self.piece_colour(&p.element_type, p.state);
                    let tint: f64 = rng.gen_range(-0.03..0.03);
                    let colour = (
                        colour.0,
                        colour.1,
                        (colour.2 * (1.0 + tint)).clamp(0.0, 1.0),
                    );
                    self.draw_piece(
                        &mut img,
                        p.centre_cm,
                        p.base_z_cm,
                        p.radius_cm,
                        p.height_cm,
                        colour,
                        light_dir,
                    )?;
                }
                Item::Solid(i) => {
                    let sd = &scene.solids[i];
                    let pts: Vector<Point> = sd
                        .points
                        .iter()
                        .filter_map(|&q| self.camera.project_with(&rot, q))
                        .map(to_fixed)
                        .collect();
                    if pts.len() < 3 {
                        continue;
                    }
                    let mut hull = Vector::<Point>::new();
                    imgproc::convex_hull(&pts, &mut hull, false, true).cv("solid outline")?;
                    self.fill(&mut img, &hull, scalar(sd.bgr))?;
                    self.fill(&mut mask, &hull, Scalar::all(255.0))?;
                }
            }
        }
        // Ground truth: the topmost piece resting on each location.
        let mut truth = vec![None; self.board.locations.len()];
        let mut placed = Vec::with_capacity(scene.pieces.len());
        for (i, p) in scene.pieces.iter().enumerate() {
            let (_, class) = self.piece_colour(&p.element_type, p.state);
            let near = |q: &TablePiece| {
                (q.centre_cm.0 - p.centre_cm.0).hypot(q.centre_cm.1 - p.centre_cm.1)
                    < q.radius_cm + p.radius_cm
            };
            let covered =
                scene.pieces.iter().enumerate().any(|(j, q)| {
                    j != i && near(q) && q.base_z_cm >= p.base_z_cm + 0.5 * p.height_cm
                });
            let location = self
                .loc_cm
                .iter()
                .enumerate()
                .filter(|(l, _)| self.board.camera_index.get(*l).copied().flatten().is_some())
                .filter_map(|(l, c)| c.map(|c| (l, c)))
                .map(|(l, c)| (l, (c.0 - p.centre_cm.0).hypot(c.1 - p.centre_cm.1)))
                .filter(|(_, d)| *d < p.radius_cm)
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(l, _)| l as LocationId);
            // A piece in the air (carried) rests on nothing.
            let resting = p.base_z_cm < 0.3
                || scene.pieces.iter().enumerate().any(|(j, q)| {
                    j != i && near(q) && (q.base_z_cm + q.height_cm - p.base_z_cm).abs() < 0.3
                });
            if let (Some(l), false, true) = (location, covered, resting) {
                if let Some(ci) = self.board.camera_index.get(l as usize).copied().flatten() {
                    truth[ci] = class;
                }
            }
            let image = self
                .project([p.centre_cm.0, p.centre_cm.1, p.base_z_cm + p.height_cm])
                .unwrap_or((-1.0, -1.0));
            placed.push(PlacedPiece {
                location: location.unwrap_or(LocationId::MAX),
                class,
                image,
                covered,
            });
        }
        let occluded = self.mask_hides_a_location(&mask)?;
        self.finish(&mut img, opts, seed, &mut rng)?;
        Ok(RenderedFrame {
            image: img,
            truth: GroundTruth {
                locations: truth,
                pieces: placed,
                occluded,
            },
        })
    }

    /// One cylinder standing on the plane z = `z0` (cm): shadow (on the table
    /// only), side, top face and highlight.
    #[allow(clippy::too_many_arguments)]
    fn draw_piece(
        &self,
        img: &mut Mat,
        c: (f64, f64),
        z0: f64,
        r: f64,
        h: f64,
        colour: (f64, f64, f64),
        light_dir: (f64, f64),
    ) -> Result<()> {
        if z0 < 0.05 {
            // Soft shadow away from the light.
            let sc = (c.0 - 0.18 * light_dir.0, c.1 - 0.18 * light_dir.1);
            let sh = self.poly(&Self::circle_pts(sc, r * 1.04, 40), 0.0);
            let (sh_h, sh_s, sh_v) = self.sheet_hsv;
            self.fill(img, &sh, hsv_scalar((sh_h, sh_s, sh_v * 0.72)))?;
        }
        let bottom = Self::circle_pts(c, r, 40);
        let mut side_pts: Vector<Point> = self.poly(&bottom, z0);
        for q in self.poly(&bottom, z0 + h) {
            side_pts.push(q);
        }
        let mut hull = Vector::<Point>::new();
        imgproc::convex_hull(&side_pts, &mut hull, false, true).cv("piece outline")?;
        self.fill(
            img,
            &hull,
            hsv_scalar((colour.0, colour.1, colour.2 * 0.55)),
        )?;
        let top = self.poly(&bottom, z0 + h);
        self.fill(img, &top, hsv_scalar(colour))?;
        // A gentle highlight towards the light: brighter, same hue and saturation.
        let hc = (c.0 + 0.3 * r * light_dir.0, c.1 + 0.3 * r * light_dir.1);
        let hl = self.poly(&Self::circle_pts(hc, 0.45 * r, 24), z0 + h);
        self.fill(img, &hl, hsv_scalar((colour.0, colour.1, colour.2 * 1.07)))
    }

    /// Whether the mask covers part of a camera location's disc (the area a
    /// piece there would show).
    fn mask_hides_a_location(&self, mask: &Mat) -> Result<bool> {
        let rot = self.camera.rotation();
        for (i, p) in self.loc_cm.iter().enumerate() {
            let (Some(c), Some(_)) = (p, self.board.camera_index.get(i).copied().flatten()) else {
                continue;
            };
            let r = 0.8 * self.piece_radius_cm(None, i as LocationId);
            for k in 0..=8 {
                let (x, y) = if k == 8 {
                    *c
                } else {
                    let a = k as f64 * std::f64::consts::FRAC_PI_4;
                    (c.0 + r * a.cos(), c.1 + r * a.sin())
                };
                let Some((u, v)) = self.camera.project_with(&rot, [x, y, 0.0]) else {
                    continue;
                };
                let (u, v) = (u.round() as i32, v.round() as i32);
                if u >= 0
                    && v >= 0
                    && u < mask.cols()
                    && v < mask.rows()
                    && *mask.at_2d::<u8>(v, u).cv("reading the occluder mask")? > 0
                {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Lighting, noise and blur, shared by both scene kinds.
    fn finish(
        &self,
        img: &mut Mat,
        opts: &RenderOptions,
        seed: u64,
        rng: &mut ChaCha8Rng,
    ) -> Result<()> {
        if opts.light_gradient > 0.0 {
            let mut light_rng = match opts.lighting_seed {
                Some(s) => ChaCha8Rng::seed_from_u64(s),
                None => ChaCha8Rng::seed_from_u64(rng.gen()),
            };
            self.apply_lighting(img, opts.light_gradient, &mut light_rng)?;
        }
        if opts.noise_sigma > 0.0 {
            let mut noise =
                Mat::new_rows_cols_with_default(img.rows(), img.cols(), CV_16SC3, Scalar::all(0.0))
                    .cv("allocating noise")?;
            let mut cvrng = core::RNG::new(seed ^ 0x9E37_79B9_7F4A_7C15).cv("seeding noise")?;
            cvrng
                .fill(
                    &mut noise,
                    core::RNG_NORMAL,
                    &Scalar::all(0.0),
                    &Scalar::all(opts.noise_sigma),
                    false,
                )
                .cv("generating noise")?;
            let mut out = Mat::default();
            core::add(&*img, &noise, &mut out, &core::no_array(), core::CV_8U)
                .cv("adding noise")?;
            *img = out;
        }
        if opts.blur_sigma > 0.0 {
            let mut out = Mat::default();
            imgproc::gaussian_blur(
                &*img,
                &mut out,
                Size::new(0, 0),
                opts.blur_sigma,
                opts.blur_sigma,
                core::BORDER_REPLICATE,
            )
            .cv("blurring")?;
            *img = out;
        }
        Ok(())
    }

    /// Multiplies the image by a smooth random field in [1 − a, 1 + a].
    fn apply_lighting(&self, img: &mut Mat, a: f64, rng: &mut ChaCha8Rng) -> Result<()> {
        let a = a.clamp(0.0, 0.9);
        let (gw, gh) = (4, 3);
        let mut small = Mat::new_rows_cols_with_default(gh, gw, CV_8UC3, Scalar::all(128.0))
            .cv("allocating the light field")?;
        for y in 0..gh {
            for x in 0..gw {
                let f: f64 = rng.gen_range(1.0 - a..=1.0 + a);
                let v = (f * 128.0).round().clamp(0.0, 255.0) as u8;
                *small
                    .at_2d_mut::<core::Vec3b>(y, x)
                    .cv("writing the light field")? = core::Vec3b::from([v, v, v]);
            }
        }
        let mut field = Mat::default();
        imgproc::resize(
            &small,
            &mut field,
            Size::new(img.cols(), img.rows()),
            0.0,
            0.0,
            imgproc::INTER_LINEAR,
        )
        .cv("scaling the light field")?;
        let mut out = Mat::default();
        core::multiply(&*img, &field, &mut out, 1.0 / 128.0, -1).cv("applying the light")?;
        *img = out;
        Ok(())
    }

    /// An AL5D-like arm coming in from the base (in front of the image's lower
    /// edge) with its gripper over a random location. Returns whether it hides
    /// part of any camera location (the frame's ground-truth occlusion).
    fn draw_arm(&self, img: &mut Mat, rng: &mut ChaCha8Rng) -> Result<bool> {
        let relevant: Vec<(f64, f64)> = self
            .loc_cm
            .iter()
            .zip(&self.loc_relevant)
            .filter_map(|(p, r)| if *r { *p } else { None })
            .collect();
        let target = if relevant.is_empty() {
            (rng.gen_range(-8.0..8.0), rng.gen_range(10.0..26.0))
        } else {
            relevant[rng.gen_range(0..relevant.len())]
        };
        let tz: f64 = rng.gen_range(1.5..6.0);
        let base: Vec3 = [0.0, 0.0, 8.0];
        let elbow: Vec3 = [target.0 * 0.45, target.1 * 0.45, 24.0];
        let wrist: Vec3 = [target.0, target.1, tz + 8.0];
        let tip: Vec3 = [target.0, target.1, tz];
        let black = hsv_scalar((0.0, 0.0, 0.10));
        let dark = hsv_scalar((220.0, 0.10, 0.18));
        let silver = hsv_scalar((0.0, 0.0, 0.62));
        let mut mask =
            Mat::new_rows_cols_with_default(img.rows(), img.cols(), CV_8UC1, Scalar::all(0.0))
                .cv("allocating the arm mask")?;
        let mut link =
            |img: &mut Mat, a: Vec3, b: Vec3, width_cm: f64, col: Scalar| -> Result<()> {
                let (Some(pa), Some(pb)) = (self.project(a), self.project(b)) else {
                    return Ok(());
                };
                let depth = self.camera.to_camera(a)[2]
                    .min(self.camera.to_camera(b)[2])
                    .max(1.0);
                let w = (self.camera.fx * width_cm / depth).round().max(1.0) as i32;
                let (fa, fb) = (to_fixed(pa), to_fixed(pb));
                imgproc::line(img, fa, fb, col, w, imgproc::LINE_AA, SHIFT)
                    .cv("drawing the arm")?;
                imgproc::line(
                    &mut mask,
                    fa,
                    fb,
                    Scalar::all(255.0),
                    w,
                    imgproc::LINE_8,
                    SHIFT,
                )
                .cv("drawing the arm mask")
            };
        link(img, base, elbow, 3.4, black)?;
        link(img, elbow, wrist, 2.8, dark)?;
        link(
            img,
            [elbow[0], elbow[1], elbow[2] + 1.0],
            [wrist[0], wrist[1], wrist[2] + 1.0],
            0.8,
            silver,
        )?;
        link(img, wrist, tip, 3.6, black)?;
        // Gripper fingers.
        let dx = 1.4;
        link(
            img,
            [tip[0] - dx, tip[1], tip[2] + 2.0],
            [tip[0] - dx, tip[1], tip[2]],
            0.6,
            silver,
        )?;
        link(
            img,
            [tip[0] + dx, tip[1], tip[2] + 2.0],
            [tip[0] + dx, tip[1], tip[2]],
            0.6,
            silver,
        )?;

        // Does the arm hide part of a location?
        self.mask_hides_a_location(&mask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_model::testboard;
    use crate::detect::{Detector, DetectorConfig};

    fn renderer(camera: CameraModel) -> Renderer {
        let (_, lt, locs, _) = testboard::parts();
        Renderer::new(
            testboard::board(),
            &locs,
            &lt,
            &BoardConfig::default(),
            camera,
        )
        .unwrap()
    }

    fn scene() -> Scene {
        let p = |l: u16, t: &str| ScenePiece {
            location: l,
            element_type: t.into(),
            state: 1,
        };
        Scene {
            pieces: vec![
                p(0, "red"),
                p(5, "blue"),
                p(15, "red"),
                p(16, "red"),
                p(20, "blue"),
                p(9, "ghost"),
            ],
        }
    }

    #[test]
    fn clean_render_puts_pieces_on_their_camera_pixels() {
        let r = renderer(CameraModel::default());
        let f = r.render(&scene(), &RenderOptions::clean(), 1).unwrap();
        assert_eq!((f.image.cols(), f.image.rows()), (640, 480));
        let b = r.board();
        for p in &f.truth.pieces {
            let ci = b.camera_index[p.location as usize].unwrap();
            let (u, v) = b.locations[ci].px;
            // The top face is 1 cm up: at most ~7 px of parallax at the image edge.
            assert!(
                (p.image.0 - u).abs() < 8.0 && (p.image.1 - v).abs() < 8.0,
                "{p:?}"
            );
        }
        assert_eq!(f.truth.locations[0], b.class_for("red", 1));
        assert_eq!(
            f.truth.locations[9], None,
            "unknown types are grey, undetectable"
        );
        assert!(!f.truth.occluded);
    }

    #[test]
    fn same_seed_same_frame() {
        let r = renderer(CameraModel::default());
        let o = RenderOptions::default();
        let a = r.render(&scene(), &o, 7).unwrap();
        let b = r.render(&scene(), &o, 7).unwrap();
        let c = r.render(&scene(), &o, 8).unwrap();
        let bytes = |m: &Mat| m.data_bytes().unwrap().to_vec();
        assert_eq!(bytes(&a.image), bytes(&b.image));
        assert_ne!(bytes(&a.image), bytes(&c.image));
    }

    #[test]
    fn detector_reads_noisy_renders() {
        let r = renderer(CameraModel::default());
        let mut d = Detector::new(testboard::board(), None, DetectorConfig::default()).unwrap();
        for seed in 0..20 {
            let f = r.render(&scene(), &RenderOptions::default(), seed).unwrap();
            let obs = d.detect(&f.image).unwrap();
            for (i, l) in obs.locations.iter().enumerate() {
                assert_eq!(l.class, f.truth.locations[i], "seed {seed} location {i}");
            }
            assert!(obs.occlusion.is_none(), "seed {seed}: {:?}", obs.occlusion);
        }
    }

    #[test]
    fn table_scene_draws_pieces_where_they_are_and_solids_over_them() {
        let r = renderer(CameraModel::default());
        let b = r.board();
        let loc = |l: usize| r.loc_cm[l].unwrap();
        let ci = |l: usize| b.camera_index[l].unwrap();
        let piece = |t: &str, c: (f64, f64), z: f64| TablePiece {
            element_type: t.into(),
            state: 1,
            centre_cm: c,
            base_z_cm: z,
            radius_cm: 1.0,
            height_cm: 1.0,
        };
        let (a, c5) = (loc(0), loc(5));
        let off = (a.0 + 0.3, a.1 - 0.2);
        let mut scene = TableScene {
            pieces: vec![
                piece("red", off, 0.0),
                // A stack: blue on red on location 15.
                piece("red", loc(15), 0.0),
                piece("blue", loc(15), 1.0),
                // In the air (carried) over location 20: rests on nothing.
                piece("blue", loc(20), 3.0),
            ],
            solids: vec![],
        };
        let f = r.render_table(&scene, &RenderOptions::clean(), 1).unwrap();
        assert_eq!(f.truth.locations[ci(0)], b.class_for("red", 1));
        assert_eq!(f.truth.locations[ci(15)], b.class_for("blue", 1));
        assert_eq!(
            f.truth.locations[ci(20)],
            None,
            "carried pieces are on no location"
        );
        assert!(f.truth.pieces[1].covered && !f.truth.pieces[2].covered);
        assert!(!f.truth.occluded);
        // Drawn at its own position, not snapped: the top face projects there.
        let want = r.project([off.0, off.1, 1.0]).unwrap();
        assert!((f.truth.pieces[0].image.0 - want.0).abs() < 1e-9);
        let mut d = Detector::new(testboard::board(), None, DetectorConfig::default()).unwrap();
        let obs = d.detect(&f.image).unwrap();
        assert_eq!(obs.class_at(ci(0)), b.class_for("red", 1));
        assert_eq!(obs.class_at(ci(15)), b.class_for("blue", 1));
        // A dark box over location 5, high above the table, hides it.
        let mut pts = Vec::new();
        for dx in [-3.0, 3.0] {
            for dy in [-3.0, 3.0] {
                for z in [10.0, 12.0] {
                    pts.push([c5.0 + dx, c5.1 + dy, z]);
                }
            }
        }
        scene.solids.push(Solid {
            points: pts,
            bgr: [30, 30, 30],
        });
        let f = r.render_table(&scene, &RenderOptions::clean(), 1).unwrap();
        assert!(f.truth.occluded);
        assert!(r.skin_bgr() != [0, 0, 0]);
    }

    #[test]
    fn arm_is_seen_as_occlusion() {
        let r = renderer(CameraModel::default());
        let mut d = Detector::new(testboard::board(), None, DetectorConfig::default()).unwrap();
        let o = RenderOptions {
            arm: true,
            ..RenderOptions::default()
        };
        let mut occluded = 0;
        for seed in 0..20 {
            let f = r.render(&scene(), &o, seed).unwrap();
            if f.truth.occluded {
                occluded += 1;
                let obs = d.detect(&f.image).unwrap();
                assert!(obs.occlusion.is_some(), "seed {seed}");
            }
        }
        assert!(occluded >= 10, "{occluded}");
    }

    #[test]
    fn bookkeeping_spots_off_the_table_take_no_room_from_a_piece() {
        // Alquerque's clock spot (no camera=) lies 2 cm from p(5,1); the pieces
        // on p(5,1) and on p(3,3) are the same size all the same.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/alquerque.game");
        let game = Game::load(path).unwrap();
        let r =
            Renderer::from_game(&game, &BoardConfig::default(), CameraModel::default()).unwrap();
        let class = r.board().class_for("redman", 1);
        assert!(class.is_some());
        let at = |n: &str| {
            let l = game.locations.iter().position(|l| l.name == n).unwrap();
            r.piece_radius_cm(class, l as LocationId)
        };
        assert!(
            (at("p(5,1)") - at("p(3,3)")).abs() < 1e-9,
            "{} vs {}",
            at("p(5,1)"),
            at("p(3,3)")
        );
        assert!(at("p(5,1)") > 0.9, "{}", at("p(5,1)"));
    }
}
