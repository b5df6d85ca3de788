//! The physical and descriptive parts of a loaded game: element and location
//! types, locations with their board/camera/robot coordinates, camera colour
//! signatures, players. These are plain data; the rule machinery lives in
//! [`crate::Game`].

use serde::Serialize;

/// Index of an element (movable piece) in [`crate::Game::elements`].
pub type ElementId = u16;
/// Index of a location in [`crate::Game::locations`].
pub type LocationId = u16;

/// A pixel position `x,y` (board picture or camera image; origin top-left, y down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pixel {
    pub x: i32,
    pub y: i32,
}

/// Where the arm reaches a location (`robot=` key, §8.3 of `docs/language.md`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum RobotSpec {
    /// `x,y,z` in centimetres in the arm's base frame: x right, y forward, z up,
    /// z = 0 at the base plate. Converted to joint angles by the kinematics crate.
    Cartesian([f64; 3]),
    /// Legacy ten joint angles in degrees: five for the pose above the location,
    /// five at grip height (base, shoulder, elbow, wrist pitch, wrist rotate).
    Angles([f64; 10]),
}

/// Mouse-sensitive shape of a location type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Shape {
    /// Inside when the distance to the centre is strictly less than `r`.
    Circle { r: i32 },
    /// Inside when `|dx| < w/2` and `|dy| < h/2` (integer halving).
    Rectangle { w: i32, h: i32 },
}

impl Shape {
    /// Whether the offset `(dx, dy)` from the location's centre is inside the shape.
    pub fn contains(&self, dx: i32, dy: i32) -> bool {
        match *self {
            Shape::Circle { r } => (dx as i64).pow(2) + (dy as i64).pow(2) < (r as i64).pow(2),
            Shape::Rectangle { w, h } => dx.abs() < w / 2 && dy.abs() < h / 2,
        }
    }
}

/// A colour/size signature from `[REALBOARD ELEMENT TYPES]` used by the camera.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RealboardSignature {
    /// Element type name a matching blob is reported as.
    pub name: String,
    /// Element state this colour represents.
    pub state: i32,
    /// Hue interval in degrees 0–360; wraps around 0 when `hue_min >= hue_max`.
    pub hue_min: f64,
    pub hue_max: f64,
    /// Saturation interval 0–1, inclusive.
    pub saturation_min: f64,
    pub saturation_max: f64,
    /// Value (brightness) interval 0–1, inclusive.
    pub value_min: f64,
    pub value_max: f64,
    /// Accepted blob area in camera pixels, inclusive.
    pub size_min: i64,
    pub size_max: i64,
    /// Line of the record's `name=` in the game file.
    pub line: u32,
}

impl RealboardSignature {
    /// Whether a hue (degrees) lies in the signature's interval, wrap-around included.
    pub fn hue_matches(&self, h: f64) -> bool {
        if self.hue_min < self.hue_max {
            self.hue_min <= h && h <= self.hue_max
        } else {
            h >= self.hue_min || h <= self.hue_max
        }
    }
}

/// An `[ELEMENT TYPES]` record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ElementType {
    pub name: String,
    /// Number of states k; element states range over 1..=k.
    pub states: i32,
    /// Picture and hot spot per state (index 0 = state 1); may be shorter than `states`.
    pub images: Vec<(String, Pixel)>,
    pub line: u32,
}

/// A `[LOCATION TYPES]` record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LocationType {
    pub name: String,
    pub image: Option<String>,
    pub shape: Option<Shape>,
    pub hotspot: Pixel,
    /// `false` for `relevant=no`: interchangeable places such as supplies and bins.
    pub relevant: bool,
    pub line: u32,
}

/// A `[LOCATIONS]` record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Location {
    pub name: String,
    /// Index into [`crate::Game::location_types`].
    pub location_type: usize,
    /// Centre on the simulated board picture.
    pub point: Option<Pixel>,
    /// Centre in the camera image.
    pub camera: Option<Pixel>,
    /// How the arm reaches it.
    pub robot: Option<RobotSpec>,
    pub line: u32,
}

impl Location {
    /// Where the arm reaches it in centimetres in the arm's base frame, when
    /// the file gives a position (`robot=x,y,z`), not legacy joint angles.
    pub fn robot_cm(&self) -> Option<[f64; 3]> {
        match self.robot {
            Some(RobotSpec::Cartesian(c)) => Some(c),
            _ => None,
        }
    }
}

/// A `[MOVABLE ELEMENTS]` record (its initial placement).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Element {
    pub name: String,
    /// Index into [`crate::Game::element_types`].
    pub element_type: usize,
    pub location: LocationId,
    pub owner: i32,
    pub state: i32,
    pub zindex: i32,
    pub line: u32,
}
