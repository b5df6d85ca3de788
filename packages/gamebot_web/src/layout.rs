//! The board as the page draws it: every location's centre and shape from the
//! game file's `point=` coordinates and location types, and each element
//! type's colour from its `[REALBOARD ELEMENT TYPES]` HSV signature. Pure:
//! knows nothing of the bus or HTTP.

use gamebot_rules::{Game, Shape};
use serde::Serialize;

/// One location of the board picture.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LocationLayout {
    pub name: String,
    pub location_type: String,
    /// Centre on the board picture (pixels, y down).
    pub x: f64,
    pub y: f64,
    /// `circle` or `rect`.
    pub shape: &'static str,
    /// Circle radius, or rectangle width/height (pixels).
    pub w: f64,
    pub h: f64,
    /// `false` for supplies and bins.
    pub relevant: bool,
    /// Where the arm reaches it, in metres in `base_link` (for the 3D view).
    pub robot: Option<[f64; 3]>,
}

/// One element type's colour.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ElementColour {
    pub element_type: String,
    /// Per state (index 0 = state 1): a CSS colour.
    pub colours: Vec<String>,
}

/// What the page needs to draw a game's board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardLayout {
    pub game_name: String,
    pub game_file: String,
    pub players: Vec<String>,
    pub locations: Vec<LocationLayout>,
    pub element_types: Vec<ElementColour>,
    /// Bounding box of the picture: min x, min y, width, height.
    pub view_box: [f64; 4],
}

/// Player colours used when an element type has no HSV signature.
const FALLBACK: [&str; 6] = [
    "#d33c3c", "#2f6fd6", "#2d9c48", "#d9a400", "#8a48c8", "#444444",
];

/// A CSS `hsl()` colour in the middle of an HSV signature's box.
pub fn hsv_css(
    hue_min: f64,
    hue_max: f64,
    s_min: f64,
    s_max: f64,
    v_min: f64,
    v_max: f64,
) -> String {
    // Hue intervals wrap around 0 when min >= max (e.g. red: 345..12).
    let hue = if hue_min >= hue_max {
        let span = 360.0 - hue_min + hue_max;
        (hue_min + span / 2.0).rem_euclid(360.0)
    } else {
        (hue_min + hue_max) / 2.0
    };
    // Aim for a saturated, fairly bright colour inside the box.
    let s = (s_min + 0.75 * (s_max - s_min)).clamp(0.0, 1.0);
    let v = (v_min + 0.8 * (v_max - v_min)).clamp(0.0, 1.0);
    // HSV -> HSL.
    let l = v * (1.0 - s / 2.0);
    let sl = if l <= 0.0 || l >= 1.0 {
        0.0
    } else {
        (v - l) / l.min(1.0 - l)
    };
    format!("hsl({:.0}, {:.0}%, {:.0}%)", hue, sl * 100.0, l * 100.0)
}

impl BoardLayout {
    /// The layout of a loaded game. Locations without `point=` are laid out
    /// in a row below the board so they stay visible and clickable.
    pub fn of(game: &Game, file: &str) -> BoardLayout {
        let mut locations = Vec::with_capacity(game.locations.len());
        let mut missing = 0usize;
        let (mut minx, mut miny, mut maxx, mut maxy) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for loc in &game.locations {
            let lt = &game.location_types[loc.location_type];
            let (shape, w, h) = match lt.shape {
                Some(Shape::Circle { r }) => ("circle", r as f64, r as f64),
                Some(Shape::Rectangle { w, h }) => ("rect", w as f64, h as f64),
                None => ("circle", 20.0, 20.0),
            };
            let (x, y) = match loc.point {
                Some(p) => (p.x as f64, p.y as f64),
                None => {
                    missing += 1;
                    (f64::NAN, f64::NAN)
                }
            };
            let robot = match loc.robot {
                Some(gamebot_rules::RobotSpec::Cartesian([x, y, z])) => {
                    Some([x / 100.0, y / 100.0, z / 100.0])
                }
                _ => None,
            };
            if x.is_finite() {
                let (rw, rh) = if shape == "circle" {
                    (w, w)
                } else {
                    (w / 2.0, h / 2.0)
                };
                minx = minx.min(x - rw);
                maxx = maxx.max(x + rw);
                miny = miny.min(y - rh);
                maxy = maxy.max(y + rh);
            }
            locations.push(LocationLayout {
                name: loc.name.clone(),
                location_type: lt.name.clone(),
                x,
                y,
                shape,
                w,
                h,
                relevant: lt.relevant,
                robot,
            });
        }
        if minx > maxx {
            (minx, miny, maxx, maxy) = (0.0, 0.0, 400.0, 0.0);
        }
        if missing > 0 {
            // A row of 40-pixel slots under the board.
            let per_row = (((maxx - minx) / 50.0).floor() as usize).max(1);
            for (i, l) in locations
                .iter_mut()
                .filter(|l| !l.x.is_finite())
                .enumerate()
            {
                l.x = minx + 25.0 + 50.0 * (i % per_row) as f64;
                l.y = maxy + 30.0 + 50.0 * (i / per_row) as f64;
                l.shape = "circle";
                l.w = 20.0;
                l.h = 20.0;
            }
            maxy += 30.0 + 50.0 * missing.div_ceil(per_row) as f64;
        }
        let pad = 10.0;
        let element_types = game
            .element_types
            .iter()
            .enumerate()
            .map(|(i, et)| {
                let colours = (1..=et.states.max(1))
                    .map(|state| {
                        game.realboard
                            .iter()
                            .find(|s| s.name == et.name && s.state == state)
                            .or_else(|| game.realboard.iter().find(|s| s.name == et.name))
                            .map(|s| {
                                hsv_css(
                                    s.hue_min,
                                    s.hue_max,
                                    s.saturation_min,
                                    s.saturation_max,
                                    s.value_min,
                                    s.value_max,
                                )
                            })
                            .unwrap_or_else(|| {
                                FALLBACK[(i + state as usize - 1) % FALLBACK.len()].into()
                            })
                    })
                    .collect();
                ElementColour {
                    element_type: et.name.clone(),
                    colours,
                }
            })
            .collect();
        BoardLayout {
            game_name: game.name.clone(),
            game_file: file.to_string(),
            players: game.players.clone(),
            locations,
            element_types,
            view_box: [
                minx - pad,
                miny - pad,
                maxx - minx + 2.0 * pad,
                maxy - miny + 2.0 * pad,
            ],
        }
    }

    /// Loads the game file and returns its layout.
    pub fn load(file: &str) -> Result<BoardLayout, gamebot_rules::LoadError> {
        Ok(BoardLayout::of(&Game::load(file)?, file))
    }

    /// Moves the 3D view's `robot` positions where the arm finds them: through
    /// `board`'s registered placement (unchanged without one).
    pub fn place_on(&mut self, board: &gamebot_kinematics::Board) {
        for l in &mut self.locations {
            if let Some(p) = l.robot {
                let c = board.to_arm_cm(p.map(|v| v * 100.0));
                l.robot = Some(c.map(|v| v / 100.0));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games_dir() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games")
    }

    #[test]
    fn a_registered_board_moves_the_3d_positions() {
        let path = games_dir().join("tictactoe.game");
        let mut l = BoardLayout::load(path.to_str().unwrap()).unwrap();
        let before = l.clone();
        let a4 = gamebot_kinematics::Board::load_named("a4").unwrap();
        l.place_on(&a4);
        assert_eq!(l, before, "no placement: unchanged");
        let text = std::fs::read_to_string(a4.path()).unwrap()
            + "placement: {offset_mm: [5, 0], rotation_deg: 0}\n";
        let moved = gamebot_kinematics::Board::parse(a4.path(), &text).unwrap();
        l.place_on(&moved);
        for (a, b) in before.locations.iter().zip(&l.locations) {
            if let (Some(a), Some(b)) = (a.robot, b.robot) {
                assert!(
                    (b[0] - a[0] - 0.005).abs() < 1e-12 && b[1] == a[1],
                    "{}",
                    a[0]
                );
            }
        }
    }

    #[test]
    fn tictactoe_layout_has_every_location_at_its_point() {
        let path = games_dir().join("tictactoe.game");
        let l = BoardLayout::load(path.to_str().unwrap()).unwrap();
        let c = l.locations.iter().find(|l| l.name == "cell(2,2)").unwrap();
        assert_eq!(
            (c.x, c.y, c.shape, c.w, c.h),
            (320.0, 240.0, "rect", 110.0, 110.0)
        );
        assert!(c.relevant);
        let s = l.locations.iter().find(|l| l.name == "sx(1)").unwrap();
        assert_eq!(
            (s.x, s.y, s.shape, s.relevant),
            (50.0, 420.0, "circle", false)
        );
        assert_eq!(c.robot, Some([0.0, 0.18, 0.0]));
        // Every location inside the view box.
        let [x0, y0, w, h] = l.view_box;
        for loc in &l.locations {
            assert!(
                loc.x >= x0 && loc.x <= x0 + w && loc.y >= y0 && loc.y <= y0 + h,
                "{}",
                loc.name
            );
        }
        // Crosses red, noughts blue, from the HSV signatures.
        let cross = &l
            .element_types
            .iter()
            .find(|e| e.element_type == "cross")
            .unwrap()
            .colours[0];
        let nought = &l
            .element_types
            .iter()
            .find(|e| e.element_type == "nought")
            .unwrap()
            .colours[0];
        assert!(
            cross.starts_with("hsl(359,") || cross.starts_with("hsl(358,"),
            "{cross}"
        );
        assert!(nought.starts_with("hsl(225,"), "{nought}");
    }

    #[test]
    fn every_shipped_game_has_a_layout() {
        for entry in std::fs::read_dir(games_dir()).unwrap() {
            let p = entry.unwrap().path();
            if p.extension().and_then(|e| e.to_str()) != Some("game") {
                continue;
            }
            let l = BoardLayout::load(p.to_str().unwrap()).unwrap();
            assert!(!l.locations.is_empty(), "{}", p.display());
            assert!(l
                .locations
                .iter()
                .all(|l| l.x.is_finite() && l.y.is_finite()));
            assert!(l.view_box[2] > 0.0 && l.view_box[3] > 0.0);
        }
    }

    #[test]
    fn hue_wraps_around_zero() {
        assert!(hsv_css(350.0, 10.0, 0.5, 1.0, 0.5, 1.0).starts_with("hsl(0,"));
        assert!(hsv_css(100.0, 140.0, 0.5, 1.0, 0.5, 1.0).starts_with("hsl(120,"));
    }
}
