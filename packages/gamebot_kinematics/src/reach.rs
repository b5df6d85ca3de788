//! Reachability of the table plane, and a PNG map of it with the board and a game's locations.

use crate::arm::Arm;
use crate::ik::SolverChoice;
use crate::placement::Board;
use image::{Rgb, RgbImage};
use std::path::Path;

/// Reachability of one table cell with the gripper vertical.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// The approach pose above the cell is reachable.
    pub above: bool,
    /// The grip pose at the cell is reachable.
    pub at: bool,
}

/// A grid of table cells (metres, arm base frame) and their reachability.
#[derive(Clone, Debug, PartialEq)]
pub struct ReachMap {
    /// Centre of cell (0, 0).
    pub x_min_m: f64,
    pub y_min_m: f64,
    /// Cell size.
    pub step_m: f64,
    pub nx: usize,
    pub ny: usize,
    /// Row-major, row 0 at `y_min_m`.
    pub cells: Vec<Reach>,
}

impl ReachMap {
    /// Cell containing a table point, if inside the map.
    pub fn at(&self, x: f64, y: f64) -> Option<Reach> {
        let i = ((x - self.x_min_m) / self.step_m + 0.5).floor();
        let j = ((y - self.y_min_m) / self.step_m + 0.5).floor();
        if i < 0.0 || j < 0.0 || i >= self.nx as f64 || j >= self.ny as f64 {
            return None;
        }
        Some(self.cells[j as usize * self.nx + i as usize])
    }

    /// Fraction of cells reachable both above and at.
    pub fn fraction_reachable(&self) -> f64 {
        let n = self.cells.iter().filter(|c| c.above && c.at).count();
        n as f64 / self.cells.len().max(1) as f64
    }
}

impl Arm {
    /// Quick reachability test for maps: the closed form where available (exact), else the
    /// numeric solver with a couple of restarts and no diagnosis.
    pub fn reachable_quick(&mut self, target: [f64; 3], seed: &[f64]) -> Option<Vec<f64>> {
        if self.closed_form.is_ok() {
            self.solve(target, seed, SolverChoice::ClosedForm)
                .ok()
                .map(|s| s.q)
        } else {
            self.numeric(target, seed, 2, false).ok().map(|s| s.q)
        }
    }

    /// Reachability of table cells over `x` × `y` (m, inclusive ranges) on a surface at
    /// height `surface_z_m`, at the approach and grasp heights of this arm.
    pub fn reach_map(
        &mut self,
        x: (f64, f64),
        y: (f64, f64),
        step_m: f64,
        surface_z_m: f64,
    ) -> ReachMap {
        let step = step_m.max(1e-3);
        let nx = ((x.1 - x.0) / step).floor() as usize + 1;
        let ny = ((y.1 - y.0) / step).floor() as usize + 1;
        let home = self.home.clone();
        let (ha, hg) = (self.config.approach_height_m, self.config.grasp_height_m);
        let mut cells = Vec::with_capacity(nx * ny);
        let mut row_seed = home.clone();
        for j in 0..ny {
            let mut seed = row_seed.clone();
            for i in 0..nx {
                let (px, py) = (x.0 + i as f64 * step, y.0 + j as f64 * step);
                let above = self.reachable_quick([px, py, surface_z_m + ha], &seed);
                let at_seed = above.clone().unwrap_or_else(|| seed.clone());
                let at = self.reachable_quick([px, py, surface_z_m + hg], &at_seed);
                if let Some(q) = &above {
                    // Neighbouring cells have neighbouring solutions: seed from here.
                    if i == 0 {
                        row_seed = q.clone();
                    }
                    seed = q.clone();
                }
                cells.push(Reach {
                    above: above.is_some(),
                    at: at.is_some(),
                });
            }
        }
        ReachMap {
            x_min_m: x.0,
            y_min_m: y.0,
            step_m: step,
            nx,
            ny,
            cells,
        }
    }
}

/// A location drawn on the map.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// Label (drawn in capitals).
    pub name: String,
    /// Table point (m).
    pub x_m: f64,
    pub y_m: f64,
    /// Reachable above and at.
    pub ok: bool,
}

/// Pixels per metre of the PNG map.
pub const MAP_PX_PER_M: f64 = 1200.0;

/// Draws the map: reachable area (green: above and at; yellow: one of them; grey: neither),
/// the board sheet, its grid and supply columns, the arm base, and each location (green
/// dot when reachable, red cross otherwise) with its name. Image up is +y (away from the arm).
pub fn render_map(
    map: &ReachMap,
    board: Option<&Board>,
    markers: &[Marker],
    title: &str,
) -> RgbImage {
    let s = MAP_PX_PER_M;
    let x0 = map.x_min_m - map.step_m / 2.0;
    let y0 = map.y_min_m - map.step_m / 2.0;
    let w = ((map.nx as f64) * map.step_m * s).round().max(1.0) as u32;
    let h = ((map.ny as f64) * map.step_m * s).round().max(1.0) as u32 + 24;
    let mut img = RgbImage::from_pixel(w, h, Rgb([255, 255, 255]));
    let to_px = |x: f64, y: f64| -> (f64, f64) { ((x - x0) * s, (h as f64) - (y - y0) * s) };
    for py in 24..h {
        for px in 0..w {
            let x = x0 + (px as f64 + 0.5) / s;
            let y = y0 + ((h - py) as f64 - 0.5) / s;
            let c = match map.at(x, y) {
                Some(Reach {
                    above: true,
                    at: true,
                }) => Rgb([196, 232, 190]),
                Some(Reach {
                    above: false,
                    at: false,
                })
                | None => Rgb([226, 226, 226]),
                Some(_) => Rgb([246, 232, 160]),
            };
            img.put_pixel(px, py, c);
        }
    }
    // Metric grid every 5 cm, for scale.
    let grid = Rgb([205, 205, 205]);
    let mut gx = (x0 / 0.05).ceil() * 0.05;
    while gx < x0 + w as f64 / s {
        let (px, _) = to_px(gx, 0.0);
        line(&mut img, px, 24.0, px, h as f64, grid);
        gx += 0.05;
    }
    let mut gy = (y0 / 0.05).ceil() * 0.05;
    while gy < y0 + (h - 24) as f64 / s {
        let (_, py) = to_px(0.0, gy);
        line(&mut img, 0.0, py, w as f64, py, grid);
        gy += 0.05;
    }
    if let Some(b) = board {
        let c = b.sheet.centre_cm;
        let (hw, hd) = (b.sheet.width_cm / 200.0, b.sheet.depth_cm / 200.0);
        rect(
            &mut img,
            to_px(c[0] / 100.0 - hw, c[1] / 100.0 - hd),
            to_px(c[0] / 100.0 + hw, c[1] / 100.0 + hd),
            Rgb([60, 60, 60]),
        );
        if let Some(g) = &b.grid {
            let half = g.size_cm / 200.0;
            let (cx, cy) = (g.centre_cm[0] / 100.0, g.centre_cm[1] / 100.0);
            rect(
                &mut img,
                to_px(cx - half, cy - half),
                to_px(cx + half, cy + half),
                Rgb([40, 80, 200]),
            );
        }
        for col in &b.columns {
            let (ax, ay) = to_px(col.x_cm / 100.0, col.y_min_cm / 100.0);
            let (bx, by) = to_px(col.x_cm / 100.0, col.y_max_cm / 100.0);
            line(&mut img, ax, ay, bx, by, Rgb([40, 80, 200]));
        }
    }
    // Arm base: a filled disc at the origin.
    let (bx, by) = to_px(0.0, 0.0);
    disc(&mut img, bx, by, 8.0, Rgb([30, 30, 30]));
    for m in markers {
        let (px, py) = to_px(m.x_m, m.y_m);
        if m.ok {
            disc(&mut img, px, py, 4.0, Rgb([20, 130, 40]));
        } else {
            let r = Rgb([210, 30, 30]);
            line(&mut img, px - 5.0, py - 5.0, px + 5.0, py + 5.0, r);
            line(&mut img, px - 5.0, py + 5.0, px + 5.0, py - 5.0, r);
            line(&mut img, px - 4.0, py - 5.0, px + 6.0, py + 5.0, r);
            line(&mut img, px - 4.0, py + 5.0, px + 6.0, py - 5.0, r);
        }
        text(
            &mut img,
            px as i64 + 6,
            py as i64 - 10,
            &m.name,
            1,
            Rgb([0, 0, 0]),
        );
    }
    text(&mut img, 4, 4, title, 2, Rgb([0, 0, 0]));
    img
}

/// Writes [`render_map`] to a PNG file.
pub fn write_map_png(
    path: &Path,
    map: &ReachMap,
    board: Option<&Board>,
    markers: &[Marker],
    title: &str,
) -> Result<(), image::ImageError> {
    render_map(map, board, markers, title).save_with_format(path, image::ImageFormat::Png)
}

fn put(img: &mut RgbImage, x: i64, y: i64, c: Rgb<u8>) {
    if x >= 0 && y >= 0 && (x as u32) < img.width() && (y as u32) < img.height() {
        img.put_pixel(x as u32, y as u32, c);
    }
}

fn line(img: &mut RgbImage, x0: f64, y0: f64, x1: f64, y1: f64, c: Rgb<u8>) {
    let n = (x1 - x0).abs().max((y1 - y0).abs()).ceil().max(1.0) as usize;
    for i in 0..=n {
        let t = i as f64 / n as f64;
        put(
            img,
            (x0 + t * (x1 - x0)).round() as i64,
            (y0 + t * (y1 - y0)).round() as i64,
            c,
        );
    }
}

fn rect(img: &mut RgbImage, a: (f64, f64), b: (f64, f64), c: Rgb<u8>) {
    for d in 0..2 {
        let d = d as f64;
        line(img, a.0 + d, a.1, a.0 + d, b.1, c);
        line(img, b.0 - d, a.1, b.0 - d, b.1, c);
        line(img, a.0, a.1 - d, b.0, a.1 - d, c);
        line(img, a.0, b.1 + d, b.0, b.1 + d, c);
    }
}

fn disc(img: &mut RgbImage, cx: f64, cy: f64, r: f64, c: Rgb<u8>) {
    let ri = r.ceil() as i64;
    for dy in -ri..=ri {
        for dx in -ri..=ri {
            if ((dx * dx + dy * dy) as f64) <= r * r {
                put(img, cx.round() as i64 + dx, cy.round() as i64 + dy, c);
            }
        }
    }
}

/// 5×7 bitmap glyphs (rows top to bottom, bit 4 = leftmost column).
fn glyph(ch: char) -> [u8; 7] {
    match ch.to_ascii_uppercase() {
        '0' => [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        '1' => [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        '2' => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        '3' => [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        '4' => [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        '5' => [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        '6' => [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        '7' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        '8' => [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        '9' => [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        'A' => [0x0E, 0x11, 0x11, 0x11, 0x1F, 0x11, 0x11],
        'B' => [0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E],
        'C' => [0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E],
        'D' => [0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C],
        'E' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
        'F' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10],
        'G' => [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F],
        'H' => [0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        'I' => [0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E],
        'J' => [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C],
        'K' => [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11],
        'L' => [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F],
        'M' => [0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11],
        'N' => [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
        'O' => [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'P' => [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10],
        'Q' => [0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D],
        'R' => [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11],
        'S' => [0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E],
        'T' => [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
        'U' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'V' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04],
        'W' => [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A],
        'X' => [0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11],
        'Y' => [0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04],
        'Z' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F],
        ' ' => [0; 7],
        '-' => [0, 0, 0, 0x1F, 0, 0, 0],
        '_' => [0, 0, 0, 0, 0, 0, 0x1F],
        '.' => [0, 0, 0, 0, 0, 0x0C, 0x0C],
        ',' => [0, 0, 0, 0, 0x0C, 0x04, 0x08],
        ':' => [0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0],
        '(' => [0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02],
        ')' => [0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08],
        '/' => [0, 0x01, 0x02, 0x04, 0x08, 0x10, 0],
        '=' => [0, 0, 0x1F, 0, 0x1F, 0, 0],
        '+' => [0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0],
        '#' => [0x0A, 0x0A, 0x1F, 0x0A, 0x1F, 0x0A, 0x0A],
        '%' => [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03],
        _ => [0x0E, 0x11, 0x01, 0x02, 0x04, 0, 0x04],
    }
}

/// Draws text with the 5×7 font at integer `scale`; returns the width drawn.
fn text(img: &mut RgbImage, x: i64, y: i64, s: &str, scale: i64, c: Rgb<u8>) -> i64 {
    let mut cx = x;
    for ch in s.chars() {
        let g = glyph(ch);
        for (row, bits) in g.iter().enumerate() {
            for col in 0..5 {
                if bits & (0x10 >> col) != 0 {
                    for dy in 0..scale {
                        for dx in 0..scale {
                            put(img, cx + col * scale + dx, y + row as i64 * scale + dy, c);
                        }
                    }
                }
            }
        }
        cx += 6 * scale;
    }
    cx - x
}
