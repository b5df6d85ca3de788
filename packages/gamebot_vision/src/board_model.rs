//! What the camera needs to know about a game: its colour signatures and the
//! locations it can see, in *board camera pixels* — the `camera=` pixel frame
//! of game files (640×480, 20 px/cm top-down, see `config/boards/a4.yaml`).

use gamebot_rules::model::{
    ElementType, Location, LocationId, LocationType, RealboardSignature, Shape,
};
use gamebot_rules::Game;
use serde::Serialize;

use crate::error::{Result, VisionError};
use crate::hsv::HsvRange;

/// Maps table-plane centimetres (arm base frame: x right, y forward) to the
/// board pixel frame used by `camera=` and `point=` in game files: the
/// kinematics crate's [`PlaneMapping`](gamebot_kinematics::PlaneMapping), read
/// from the `pixels:` section of `config/boards/*.yaml` (other keys ignored).
pub use gamebot_kinematics::PlaneMapping as BoardMapping;

/// A colour class the detector can report: an element type name and the
/// state its colour stands for. Several signatures may share one class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceClass {
    /// Element type name (from the signature's `name=`).
    pub name: String,
    /// Element state the colour represents.
    pub state: i32,
    /// Index into the game's element types when the name matches one.
    pub element_type: Option<usize>,
}

/// A signature compiled for detection.
#[derive(Clone, Debug)]
pub struct CompiledSignature {
    /// The signature as written in the game file.
    pub source: RealboardSignature,
    /// Its OpenCV HSV ranges.
    pub range: HsvRange,
    /// Index into [`VisionBoard::classes`].
    pub class: usize,
}

/// A location the camera can see.
#[derive(Clone, Debug, Serialize)]
pub struct CameraLocation {
    /// Index in the game's locations.
    pub id: LocationId,
    pub name: String,
    /// Centre in board camera pixels (`camera=`).
    pub px: (f64, f64),
    /// Blobs whose centre lies within this many board pixels may be assigned here.
    pub radius: f64,
    /// From the location type (`relevant=no` → false).
    pub relevant: bool,
    /// The location type's shape, used for drawing.
    pub shape: Option<Shape>,
    /// It shares its camera centre with another location: a level of a stack
    /// (a pool column), of which the camera sees only the top piece.
    pub stacked: bool,
}

/// Whether two camera centres (board pixels) are the same spot: the levels
/// of a stack ([`CameraLocation::stacked`]).
pub fn same_spot(a: (f64, f64), b: (f64, f64)) -> bool {
    (a.0 - b.0).abs() < 1.0 && (a.1 - b.1).abs() < 1.0
}

/// A game's camera view: colour signatures and visible locations.
#[derive(Clone, Debug)]
pub struct VisionBoard {
    pub signatures: Vec<CompiledSignature>,
    pub classes: Vec<PieceClass>,
    /// Locations that have a `camera=` key, in game order.
    pub locations: Vec<CameraLocation>,
    /// For every game location, its index in `locations` (None when it has no `camera=`).
    pub camera_index: Vec<Option<usize>>,
    /// Board pixel ↔ table mapping.
    pub mapping: BoardMapping,
}

/// Fallback assignment radius (board px) for a location type without a shape: one piece radius.
const DEFAULT_RADIUS_PX: f64 = 20.0;

impl VisionBoard {
    /// Builds the camera view of a loaded game.
    pub fn from_game(game: &Game) -> Result<VisionBoard> {
        Self::from_parts(
            &game.element_types,
            &game.location_types,
            &game.locations,
            &game.realboard,
        )
    }

    /// Builds the camera view from the game's model parts (useful without a full game).
    pub fn from_parts(
        element_types: &[ElementType],
        location_types: &[LocationType],
        locations: &[Location],
        realboard: &[RealboardSignature],
    ) -> Result<VisionBoard> {
        let mut classes: Vec<PieceClass> = Vec::new();
        let mut signatures = Vec::new();
        for sig in realboard {
            let range = HsvRange::from_signature(sig);
            if range.is_empty() {
                return Err(VisionError::Board(format!(
                    "line {}: signature `{}` accepts no colour (check its hue/saturation/value ranges)",
                    sig.line, sig.name
                )));
            }
            if sig.size_max < sig.size_min || sig.size_max <= 0 {
                return Err(VisionError::Board(format!(
                    "line {}: signature `{}` accepts no blob size (sizeMin {} sizeMax {})",
                    sig.line, sig.name, sig.size_min, sig.size_max
                )));
            }
            let class = match classes
                .iter()
                .position(|c| c.name == sig.name && c.state == sig.state)
            {
                Some(i) => i,
                None => {
                    classes.push(PieceClass {
                        name: sig.name.clone(),
                        state: sig.state,
                        element_type: element_types.iter().position(|t| t.name == sig.name),
                    });
                    classes.len() - 1
                }
            };
            signatures.push(CompiledSignature {
                source: sig.clone(),
                range,
                class,
            });
        }

        let mut camera_index = vec![None; locations.len()];
        let mut cams = Vec::new();
        for (i, loc) in locations.iter().enumerate() {
            let Some(p) = loc.camera else { continue };
            let lt = location_types.get(loc.location_type).ok_or_else(|| {
                VisionError::Board(format!(
                    "line {}: location `{}` has an unknown location type",
                    loc.line, loc.name
                ))
            })?;
            let radius = match lt.shape {
                Some(Shape::Circle { r }) if r > 0 => r as f64,
                Some(Shape::Rectangle { w, h }) if w > 0 && h > 0 => (w.min(h) / 2) as f64,
                _ => DEFAULT_RADIUS_PX,
            };
            camera_index[i] = Some(cams.len());
            cams.push(CameraLocation {
                id: i as LocationId,
                name: loc.name.clone(),
                px: (p.x as f64, p.y as f64),
                radius,
                relevant: lt.relevant,
                shape: lt.shape,
                stacked: false,
            });
        }
        // Neighbouring locations must not claim the same blob: cap each radius
        // at half the distance to the nearest distinct camera location.
        let pts: Vec<(f64, f64)> = cams.iter().map(|c| c.px).collect();
        for (i, c) in cams.iter_mut().enumerate() {
            c.stacked = pts
                .iter()
                .enumerate()
                .any(|(j, &q)| j != i && same_spot(q, c.px));
            let nearest = pts
                .iter()
                .map(|q| ((q.0 - c.px.0).powi(2) + (q.1 - c.px.1).powi(2)).sqrt())
                .filter(|d| *d > 0.5)
                .fold(f64::INFINITY, f64::min);
            if nearest.is_finite() {
                c.radius = c.radius.min(nearest / 2.0).max(4.0);
            }
        }
        Ok(VisionBoard {
            signatures,
            classes,
            locations: cams,
            camera_index,
            mapping: BoardMapping::default(),
        })
    }

    /// Replaces the board pixel ↔ table mapping (from a board YAML file).
    pub fn with_mapping(mut self, mapping: BoardMapping) -> VisionBoard {
        self.mapping = mapping;
        self
    }

    /// The class of an element type in a state, as the camera would report it:
    /// the exact (type, state) class when there is one, else any class of that type.
    pub fn class_for(&self, type_name: &str, state: i32) -> Option<usize> {
        self.classes
            .iter()
            .position(|c| c.name == type_name && c.state == state)
            .or_else(|| self.classes.iter().position(|c| c.name == type_name))
    }

    /// The first signature of a class (its colour is used for drawing).
    pub fn signature_of_class(&self, class: usize) -> Option<&CompiledSignature> {
        self.signatures.iter().find(|s| s.class == class)
    }

    /// Largest accepted blob area of any signature (camera px²).
    pub fn max_piece_area(&self) -> f64 {
        self.signatures
            .iter()
            .map(|s| s.source.size_max as f64)
            .fold(0.0, f64::max)
    }
}

#[cfg(test)]
pub(crate) mod testboard {
    //! A synthetic 4×4 game built in code, used by unit tests of this crate.
    use super::*;
    use gamebot_rules::model::{Pixel, RobotSpec};

    /// Red and blue discs; a 4×4 grid (2.5 cm pitch) plus two supply columns of four slots.
    pub fn parts() -> (
        Vec<ElementType>,
        Vec<LocationType>,
        Vec<Location>,
        Vec<RealboardSignature>,
    ) {
        let et = vec![
            ElementType {
                name: "red".into(),
                states: 1,
                images: vec![],
                line: 1,
            },
            ElementType {
                name: "blue".into(),
                states: 1,
                images: vec![],
                line: 2,
            },
        ];
        let lt = vec![
            LocationType {
                name: "cell".into(),
                image: None,
                shape: Some(Shape::Circle { r: 24 }),
                hotspot: Pixel { x: 0, y: 0 },
                relevant: true,
                line: 3,
            },
            LocationType {
                name: "supply".into(),
                image: None,
                shape: Some(Shape::Rectangle { w: 44, h: 44 }),
                hotspot: Pixel { x: 0, y: 0 },
                relevant: false,
                line: 4,
            },
        ];
        let m = BoardMapping::default();
        let pixel = |x: f64, y: f64| {
            let [u, v] = m.to_pixel(x, y);
            Pixel {
                x: u.round() as i32,
                y: v.round() as i32,
            }
        };
        let mut locs = Vec::new();
        for r in 0..4 {
            for c in 0..4 {
                let x = -3.75 + 2.5 * c as f64;
                let y = 14.25 + 2.5 * r as f64;
                let p = pixel(x, y);
                locs.push(Location {
                    name: format!("c({},{})", c + 1, r + 1),
                    location_type: 0,
                    point: Some(p),
                    camera: Some(p),
                    robot: Some(RobotSpec::Cartesian([x, y, 0.0])),
                    line: 10,
                });
            }
        }
        for (side, x) in [("r", -13.5), ("b", 13.5)] {
            for i in 0..4 {
                let y = 12.0 + 3.0 * i as f64;
                let p = pixel(x, y);
                locs.push(Location {
                    name: format!("{side}({})", i + 1),
                    location_type: 1,
                    point: Some(p),
                    camera: Some(p),
                    robot: Some(RobotSpec::Cartesian([x, y, 0.0])),
                    line: 20,
                });
            }
        }
        let sig = |name: &str, hmin, hmax| RealboardSignature {
            name: name.into(),
            state: 1,
            hue_min: hmin,
            hue_max: hmax,
            saturation_min: 0.45,
            saturation_max: 1.0,
            value_min: 0.25,
            value_max: 1.0,
            size_min: 600,
            size_max: 2500,
            line: 30,
        };
        let rb = vec![sig("red", 340.0, 20.0), sig("blue", 200.0, 250.0)];
        (et, lt, locs, rb)
    }

    /// The compiled board of [`parts`].
    pub fn board() -> VisionBoard {
        let (et, lt, l, rb) = parts();
        VisionBoard::from_parts(&et, &lt, &l, &rb).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_matches_convention() {
        let m = BoardMapping::default();
        assert_eq!(m.to_pixel(0.0, 6.0), [320.0, 480.0]);
        assert_eq!(m.to_pixel(-16.0, 30.0), [0.0, 0.0]);
        let [x, y] = m.to_table_cm(100.0, 200.0);
        let [u, v] = m.to_pixel(x, y);
        assert!((u - 100.0).abs() < 1e-9 && (v - 200.0).abs() < 1e-9);
        let r = BoardMapping {
            rotation_deg: 17.0,
            y_flipped: false,
            ..m
        };
        let [x, y] = r.to_table_cm(123.0, 45.0);
        let [u, v] = r.to_pixel(x, y);
        assert!((u - 123.0).abs() < 1e-9 && (v - 45.0).abs() < 1e-9);
    }

    #[test]
    fn board_from_parts_radii_and_classes() {
        let b = testboard::board();
        assert_eq!(b.classes.len(), 2);
        assert_eq!(b.locations.len(), 24);
        // Grid pitch 2.5 cm = 50 px, so the circle(24) radius stays 24 (< 25).
        assert_eq!(b.locations[0].radius, 24.0);
        assert!(b.locations.iter().filter(|l| !l.relevant).count() == 8);
        assert_eq!(b.class_for("blue", 1), Some(1));
        assert_eq!(b.class_for("blue", 2), Some(1));
        assert_eq!(b.class_for("green", 1), None);
    }

    #[test]
    fn locations_sharing_a_camera_centre_are_stacked() {
        let (et, lt, mut l, rb) = testboard::parts();
        assert!(testboard::board().locations.iter().all(|c| !c.stacked));
        let p = l[20].camera;
        l[21].camera = p;
        let b = VisionBoard::from_parts(&et, &lt, &l, &rb).unwrap();
        let stacked: Vec<&str> = b
            .locations
            .iter()
            .filter(|c| c.stacked)
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(stacked, [l[20].name.as_str(), l[21].name.as_str()]);
    }

    #[test]
    fn empty_signature_is_a_clear_error() {
        let (et, lt, l, mut rb) = testboard::parts();
        rb[0].saturation_min = 0.9;
        rb[0].saturation_max = 0.1;
        let e = VisionBoard::from_parts(&et, &lt, &l, &rb).unwrap_err();
        assert!(e.to_string().contains("line 30"), "{e}");
    }
}
