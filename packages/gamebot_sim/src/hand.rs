//! A person's hand: moves pieces as a person would (reach in from the far
//! side of the table, grab, lift, carry, put down a few mm off, withdraw),
//! taking simulation time, so the camera sees the hand while it happens.

use k::nalgebra::Vector3;

/// Where a hand puts a piece.
#[derive(Clone, Debug, PartialEq)]
pub enum HandTarget {
    /// A game location, by name.
    Location(String),
    /// A free point of the table (m, `base_link` frame).
    Table([f64; 2]),
}

/// One thing the person does.
#[derive(Clone, Debug, PartialEq)]
pub enum HandAction {
    /// Pick `element` up from location `from` and put it down at `to`.
    Transfer {
        element: String,
        from: String,
        to: HandTarget,
    },
    /// Turn `element` over where it lies (its state goes to the next one).
    Flip { element: String },
    /// Hold the hand over a table point (m) for `seconds`, covering part of the board.
    Cover { at: [f64; 2], seconds: f64 },
}

/// What happens when the hand reaches a key frame.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum HandEvent {
    None,
    /// The piece (index into the world's pieces) is taken.
    Grab(usize),
    /// The held piece is put down with its bottom centre here.
    Release(usize, [f64; 3]),
    /// The piece changes to this state.
    Flip(usize, i32),
}

/// A key frame: at `t` (sim seconds from the start) the hand is at `pos`
/// (the point under the palm, m) and `event` happens.
#[derive(Clone, Debug)]
pub(crate) struct Key {
    pub t: f64,
    pub pos: Vector3<f64>,
    pub event: HandEvent,
}

/// A running hand move.
#[derive(Clone, Debug)]
pub(crate) struct HandMove {
    /// Sim time the move started (s).
    pub start: f64,
    pub keys: Vec<Key>,
    /// Index of the next key whose event has not happened yet.
    pub next: usize,
    /// Piece in the hand and its offset below the palm point.
    pub holding: Option<usize>,
}

impl HandMove {
    /// Total duration (s).
    pub fn duration(&self) -> f64 {
        self.keys.last().map_or(0.0, |k| k.t)
    }

    /// Hand position at `t` seconds from the start (linear between keys).
    pub fn position(&self, t: f64) -> Vector3<f64> {
        let k = &self.keys;
        if k.is_empty() {
            return Vector3::zeros();
        }
        if t <= k[0].t {
            return k[0].pos;
        }
        for w in k.windows(2) {
            if t <= w[1].t {
                let f = if w[1].t > w[0].t {
                    (t - w[0].t) / (w[1].t - w[0].t)
                } else {
                    1.0
                };
                return w[0].pos + (w[1].pos - w[0].pos) * f;
            }
        }
        k[k.len() - 1].pos
    }
}

/// Builds key frames: the hand enters at `entry`, and visits each stop.
pub(crate) struct KeyBuilder {
    pub keys: Vec<Key>,
    pub t: f64,
    pub pos: Vector3<f64>,
}

impl KeyBuilder {
    pub fn new(entry: Vector3<f64>) -> KeyBuilder {
        KeyBuilder {
            keys: vec![Key {
                t: 0.0,
                pos: entry,
                event: HandEvent::None,
            }],
            t: 0.0,
            pos: entry,
        }
    }

    /// Moves to `pos` at `speed` m/s (at least `min_s` seconds), then fires `event`.
    pub fn go(&mut self, pos: Vector3<f64>, speed: f64, min_s: f64, event: HandEvent) {
        let d = (pos - self.pos).norm();
        self.t += (d / speed).max(min_s);
        self.pos = pos;
        self.keys.push(Key {
            t: self.t,
            pos,
            event,
        });
    }

    /// Stays where it is for `s` seconds.
    pub fn wait(&mut self, s: f64) {
        self.t += s;
        self.keys.push(Key {
            t: self.t,
            pos: self.pos,
            event: HandEvent::None,
        });
    }
}

/// Points (m) of the palm and forearm for drawing: a flattened box around the
/// palm point and a forearm box back to the entry side, far above the table.
pub(crate) fn hand_solids(palm: Vector3<f64>, entry: Vector3<f64>) -> Vec<Vec<Vector3<f64>>> {
    let mut palm_pts = Vec::new();
    for i in 0..16 {
        let a = i as f64 / 16.0 * std::f64::consts::TAU;
        for dz in [0.012, 0.035] {
            palm_pts.push(palm + Vector3::new(0.042 * a.cos(), 0.05 * a.sin() + 0.02, dz));
        }
    }
    // Fingers reaching down to the palm point.
    let mut fingers = Vec::new();
    for dx in [-0.02, 0.02] {
        for dy in [-0.01, 0.01] {
            fingers.push(palm + Vector3::new(dx, dy, 0.002));
            fingers.push(palm + Vector3::new(dx, dy + 0.03, 0.025));
        }
    }
    let wrist = palm + Vector3::new(0.0, 0.07, 0.05);
    let dir = entry - wrist;
    let side = Vector3::new(-dir.y, dir.x, 0.0);
    let side = if side.norm() > 1e-9 {
        side.normalize() * 0.035
    } else {
        Vector3::new(0.035, 0.0, 0.0)
    };
    let up = Vector3::new(0.0, 0.0, 0.02);
    let forearm = vec![
        wrist + side + up,
        wrist - side + up,
        wrist + side - up,
        wrist - side - up,
        entry + side * 1.3 + up,
        entry - side * 1.3 + up,
        entry + side * 1.3 - up,
        entry - side * 1.3 - up,
    ];
    vec![fingers, palm_pts, forearm]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_frames_interpolate_and_time_by_speed() {
        let mut b = KeyBuilder::new(Vector3::new(0.0, 0.4, 0.2));
        b.go(Vector3::new(0.0, 0.2, 0.2), 0.4, 0.1, HandEvent::None);
        b.wait(0.5);
        let m = HandMove {
            start: 0.0,
            keys: b.keys,
            next: 0,
            holding: None,
        };
        assert!((m.duration() - 1.0).abs() < 1e-9, "{}", m.duration());
        let p = m.position(0.25);
        assert!((p.y - 0.3).abs() < 1e-9, "{p:?}");
        assert_eq!(m.position(5.0), Vector3::new(0.0, 0.2, 0.2));
        assert_eq!(m.position(-1.0), Vector3::new(0.0, 0.4, 0.2));
    }
}
