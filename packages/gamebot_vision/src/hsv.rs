//! Conversion of `[REALBOARD ELEMENT TYPES]` colour ranges (hue in degrees
//! 0–360 with wrap-around, saturation and value 0–1) to the integer scales of
//! OpenCV's 8-bit HSV images (hue 0–179 = degrees / 2, saturation and value 0–255).
//!
//! The rule used here makes the conversion exact: an OpenCV hue `H` is
//! accepted iff the signature accepts the hue `2·H` degrees, a saturation
//! `s` iff it accepts `s / 255`, and likewise for value.

use gamebot_rules::model::RealboardSignature;

/// An inclusive range of one 8-bit channel. `lo > hi` means empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelRange {
    pub lo: u8,
    pub hi: u8,
}

impl ChannelRange {
    /// Whether the range accepts nothing.
    pub fn is_empty(&self) -> bool {
        self.lo > self.hi
    }

    /// Whether `x` is inside the range.
    pub fn contains(&self, x: u8) -> bool {
        self.lo <= x && x <= self.hi
    }
}

/// A signature compiled to OpenCV's HSV scales: one or two hue intervals
/// (two when the degree interval wraps around 0) and one interval each for
/// saturation and value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HsvRange {
    /// Non-empty hue intervals on 0–179; at most two.
    pub hue: Vec<ChannelRange>,
    pub sat: ChannelRange,
    pub val: ChannelRange,
}

/// Largest OpenCV 8-bit hue (degrees 358).
const HUE_MAX: u8 = 179;

/// Integers `k` in 0..=max with `lo_real <= k * step <= hi_real`.
fn scaled_range(lo_real: f64, hi_real: f64, step: f64, max: u8) -> ChannelRange {
    // The small epsilon keeps values such as 0.4 * 255 = 101.99999 on the right side.
    const EPS: f64 = 1e-9;
    let lo = (lo_real / step - EPS).ceil().max(0.0);
    let hi = (hi_real / step + EPS).floor().min(max as f64);
    if lo > hi || hi < 0.0 || lo > max as f64 {
        ChannelRange { lo: 1, hi: 0 }
    } else {
        ChannelRange {
            lo: lo as u8,
            hi: hi as u8,
        }
    }
}

impl HsvRange {
    /// Compiles a signature. Hue bounds outside 0–360 are taken modulo 360 semantics
    /// of [`RealboardSignature::hue_matches`], evaluated exactly on every OpenCV hue.
    pub fn from_signature(sig: &RealboardSignature) -> HsvRange {
        let hue = if sig.hue_min < sig.hue_max {
            let r = scaled_range(sig.hue_min, sig.hue_max, 2.0, HUE_MAX);
            if r.is_empty() {
                vec![]
            } else {
                vec![r]
            }
        } else {
            // Wrap-around: h >= min or h <= max (equal bounds accept every hue).
            let upper = scaled_range(sig.hue_min, f64::INFINITY, 2.0, HUE_MAX);
            let lower = scaled_range(f64::NEG_INFINITY, sig.hue_max, 2.0, HUE_MAX);
            let mut v: Vec<ChannelRange> = [lower, upper]
                .into_iter()
                .filter(|r| !r.is_empty())
                .collect();
            // Merge when the two halves touch or overlap (e.g. min <= max + 2).
            if v.len() == 2 && v[0].hi as u16 + 1 >= v[1].lo as u16 {
                v = vec![ChannelRange {
                    lo: v[0].lo.min(v[1].lo),
                    hi: v[0].hi.max(v[1].hi),
                }];
            }
            v
        };
        HsvRange {
            hue,
            sat: scaled_range(sig.saturation_min, sig.saturation_max, 1.0 / 255.0, 255),
            val: scaled_range(sig.value_min, sig.value_max, 1.0 / 255.0, 255),
        }
    }

    /// Whether the range accepts no pixel at all.
    pub fn is_empty(&self) -> bool {
        self.hue.is_empty() || self.sat.is_empty() || self.val.is_empty()
    }

    /// Whether an OpenCV HSV pixel is accepted (used by tests and the renderer).
    pub fn contains(&self, h: u8, s: u8, v: u8) -> bool {
        self.hue.iter().any(|r| r.contains(h)) && self.sat.contains(s) && self.val.contains(v)
    }
}

/// Converts an OpenCV 8-bit HSV triple back to degrees / unit scales.
pub fn hsv_to_real(h: u8, s: u8, v: u8) -> (f64, f64, f64) {
    (h as f64 * 2.0, s as f64 / 255.0, v as f64 / 255.0)
}

/// Converts a colour given as hue degrees, saturation and value (0–1) to 8-bit BGR.
pub fn hsv_to_bgr(hue_deg: f64, s: f64, v: f64) -> [u8; 3] {
    let h = hue_deg.rem_euclid(360.0) / 60.0;
    let c = v * s;
    let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    let to8 = |f: f64| ((f + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    [to8(b), to8(g), to8(r)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sig(hmin: f64, hmax: f64, smin: f64, smax: f64, vmin: f64, vmax: f64) -> RealboardSignature {
        RealboardSignature {
            name: "p".into(),
            state: 1,
            hue_min: hmin,
            hue_max: hmax,
            saturation_min: smin,
            saturation_max: smax,
            value_min: vmin,
            value_max: vmax,
            size_min: 600,
            size_max: 2500,
            line: 1,
        }
    }

    #[test]
    fn red_wraps_into_two_intervals() {
        let r = HsvRange::from_signature(&sig(340.0, 15.0, 0.5, 1.0, 0.3, 1.0));
        assert_eq!(
            r.hue,
            vec![
                ChannelRange { lo: 0, hi: 7 },
                ChannelRange { lo: 170, hi: 179 }
            ]
        );
        assert_eq!(r.sat, ChannelRange { lo: 128, hi: 255 });
        assert_eq!(r.val, ChannelRange { lo: 77, hi: 255 });
        assert!(r.contains(3, 200, 200));
        assert!(r.contains(175, 200, 200));
        assert!(!r.contains(90, 200, 200));
    }

    #[test]
    fn plain_interval_and_equal_bounds() {
        let g = HsvRange::from_signature(&sig(90.0, 150.0, 0.4, 1.0, 0.2, 1.0));
        assert_eq!(g.hue, vec![ChannelRange { lo: 45, hi: 75 }]);
        let all = HsvRange::from_signature(&sig(0.0, 0.0, 0.0, 1.0, 0.0, 1.0));
        assert_eq!(all.hue, vec![ChannelRange { lo: 0, hi: 179 }]);
        // A record that omits the ranges (all zero) accepts only black, unsaturated pixels.
        let zero = HsvRange::from_signature(&sig(0.0, 0.0, 0.0, 0.0, 0.0, 0.0));
        assert!(zero.contains(10, 0, 0) && !zero.contains(10, 1, 0));
    }

    #[test]
    fn hsv_to_bgr_primaries() {
        assert_eq!(hsv_to_bgr(0.0, 1.0, 1.0), [0, 0, 255]);
        assert_eq!(hsv_to_bgr(120.0, 1.0, 1.0), [0, 255, 0]);
        assert_eq!(hsv_to_bgr(240.0, 1.0, 1.0), [255, 0, 0]);
        assert_eq!(hsv_to_bgr(360.0, 0.0, 0.5), [128, 128, 128]);
    }

    proptest! {
        /// The compiled range accepts an OpenCV pixel exactly when the
        /// signature accepts the same colour on the real scales.
        #[test]
        fn compiled_range_agrees_with_signature(
            hmin in 0.0f64..360.0, hmax in 0.0f64..360.0,
            s1 in 0.0f64..1.0, s2 in 0.0f64..1.0, v1 in 0.0f64..1.0, v2 in 0.0f64..1.0,
            h in 0u8..180, s in any::<u8>(), v in any::<u8>(),
        ) {
            let sg = sig(hmin, hmax, s1.min(s2), s1.max(s2), v1.min(v2), v1.max(v2));
            let r = HsvRange::from_signature(&sg);
            let (hd, sd, vd) = hsv_to_real(h, s, v);
            let want = sg.hue_matches(hd)
                && sg.saturation_min <= sd + 1e-9 && sd <= sg.saturation_max + 1e-9
                && sg.value_min <= vd + 1e-9 && vd <= sg.value_max + 1e-9;
            prop_assert_eq!(r.contains(h, s, v), want);
        }
    }
}
