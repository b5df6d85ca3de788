//! Seeded faults, configured by a spec string such as
//! `slip=0.05,place_sigma_mm=2,nudge=0.02,servo_offset_deg=1.5,serial_drop=0.01,stall=0.005`.
//!
//! One table ([`OPTIONS`]) lists every option with its type, default, range
//! and meaning; it drives parsing, [`std::fmt::Display`] and [`help`].

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The faults the world injects. All zero (the default): a perfect world.
#[derive(Clone, Debug, PartialEq)]
pub struct FaultSpec {
    /// Probability that a carried piece slips out of the gripper during a carry.
    pub slip: f64,
    /// Standard deviation (mm, per horizontal axis) of where a released piece lands.
    pub place_sigma_mm: f64,
    /// Probability that putting a piece down nudges its nearest neighbour a few mm.
    pub nudge: f64,
    /// Largest fixed calibration error (degrees) between pulse and real angle per joint.
    pub servo_offset_deg: f64,
    /// Probability per group move that the serial line drops.
    pub serial_drop: f64,
    /// How long (sim seconds) a dropped line stays down.
    pub serial_down_s: f64,
    /// Probability per group move that the servos stall.
    pub stall: f64,
    /// How long (sim seconds) a stall lasts.
    pub stall_s: f64,
    /// Probability per camera frame that the camera goes dark.
    pub camera_dropout: f64,
    /// How long (sim seconds) a dark camera stays dark.
    pub camera_dropout_s: f64,
}

impl Default for FaultSpec {
    fn default() -> Self {
        let mut f = FaultSpec {
            slip: 0.0,
            place_sigma_mm: 0.0,
            nudge: 0.0,
            servo_offset_deg: 0.0,
            serial_drop: 0.0,
            serial_down_s: 0.0,
            stall: 0.0,
            stall_s: 0.0,
            camera_dropout: 0.0,
            camera_dropout_s: 0.0,
        };
        for o in OPTIONS {
            (o.set)(&mut f, o.default);
        }
        f
    }
}

/// The kind of value an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A probability in [0, 1].
    Probability,
    /// Millimetres.
    Millimetres,
    /// Degrees.
    Degrees,
    /// Seconds of simulation time.
    Seconds,
}

impl OptionKind {
    /// Short name for help tables.
    pub fn as_str(self) -> &'static str {
        match self {
            OptionKind::Probability => "probability",
            OptionKind::Millimetres => "mm",
            OptionKind::Degrees => "degrees",
            OptionKind::Seconds => "seconds",
        }
    }
}

/// One fault option.
pub struct FaultOption {
    /// Key in the spec string.
    pub name: &'static str,
    /// Value type.
    pub kind: OptionKind,
    /// Value when not given.
    pub default: f64,
    /// Accepted range (inclusive).
    pub min: f64,
    pub max: f64,
    /// What it does.
    pub doc: &'static str,
    get: fn(&FaultSpec) -> f64,
    set: fn(&mut FaultSpec, f64),
}

/// Every option, in the order they are printed.
pub const OPTIONS: &[FaultOption] = &[
    FaultOption {
        name: "slip",
        kind: OptionKind::Probability,
        default: 0.0,
        min: 0.0,
        max: 1.0,
        doc: "chance per carry that the piece slips from the gripper and falls",
        get: |f| f.slip,
        set: |f, v| f.slip = v,
    },
    FaultOption {
        name: "place_sigma_mm",
        kind: OptionKind::Millimetres,
        default: 0.0,
        min: 0.0,
        max: 20.0,
        doc: "standard deviation of the landing point of a released piece, per axis",
        get: |f| f.place_sigma_mm,
        set: |f, v| f.place_sigma_mm = v,
    },
    FaultOption {
        name: "nudge",
        kind: OptionKind::Probability,
        default: 0.0,
        min: 0.0,
        max: 1.0,
        doc: "chance per release that the nearest other piece (within 6 cm) is pushed 2-5 mm",
        get: |f| f.nudge,
        set: |f, v| f.nudge = v,
    },
    FaultOption {
        name: "servo_offset_deg",
        kind: OptionKind::Degrees,
        default: 0.0,
        min: 0.0,
        max: 10.0,
        doc: "each revolute joint gets a fixed error drawn in [-v, v] between pulse and real angle",
        get: |f| f.servo_offset_deg,
        set: |f, v| f.servo_offset_deg = v,
    },
    FaultOption {
        name: "serial_drop",
        kind: OptionKind::Probability,
        default: 0.0,
        min: 0.0,
        max: 1.0,
        doc: "chance per group move that the serial line drops (device gone, back after serial_down_s)",
        get: |f| f.serial_drop,
        set: |f, v| f.serial_drop = v,
    },
    FaultOption {
        name: "serial_down_s",
        kind: OptionKind::Seconds,
        default: 2.0,
        min: 0.0,
        max: 600.0,
        doc: "how long a dropped serial line stays down",
        get: |f| f.serial_down_s,
        set: |f, v| f.serial_down_s = v,
    },
    FaultOption {
        name: "stall",
        kind: OptionKind::Probability,
        default: 0.0,
        min: 0.0,
        max: 1.0,
        doc: "chance per group move that the servos stall (moves freeze, Q answers '+')",
        get: |f| f.stall,
        set: |f, v| f.stall = v,
    },
    FaultOption {
        name: "stall_s",
        kind: OptionKind::Seconds,
        default: 1.0,
        min: 0.0,
        max: 600.0,
        doc: "how long a stall lasts",
        get: |f| f.stall_s,
        set: |f, v| f.stall_s = v,
    },
    FaultOption {
        name: "camera_dropout",
        kind: OptionKind::Probability,
        default: 0.0,
        min: 0.0,
        max: 1.0,
        doc: "chance per camera frame that the camera goes dark (no frames for camera_dropout_s)",
        get: |f| f.camera_dropout,
        set: |f, v| f.camera_dropout = v,
    },
    FaultOption {
        name: "camera_dropout_s",
        kind: OptionKind::Seconds,
        default: 3.0,
        min: 0.0,
        max: 600.0,
        doc: "how long a dark camera stays dark",
        get: |f| f.camera_dropout_s,
        set: |f, v| f.camera_dropout_s = v,
    },
];

/// A spec string that cannot be used.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum FaultError {
    /// A key no option has.
    #[error("unknown fault `{key}` (known: {known})")]
    UnknownKey {
        /// The key given.
        key: String,
        /// The known keys, comma-separated.
        known: String,
    },
    /// An item without `=`, or with an empty key.
    #[error("fault spec item `{item}` is not KEY=VALUE")]
    Syntax {
        /// The item.
        item: String,
    },
    /// A value that is not a number or is out of its option's range.
    #[error("fault `{key}`: value `{value}` {reason}")]
    BadValue {
        /// The option.
        key: String,
        /// The value given.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The same key twice.
    #[error("fault `{key}` is given twice")]
    Duplicate {
        /// The option.
        key: String,
    },
}

impl FaultSpec {
    /// No faults at all.
    pub fn none() -> FaultSpec {
        FaultSpec::default()
    }

    /// Whether every fault is off (probabilities, errors and offsets zero).
    pub fn is_none(&self) -> bool {
        self.slip == 0.0
            && self.place_sigma_mm == 0.0
            && self.nudge == 0.0
            && self.servo_offset_deg == 0.0
            && self.serial_drop == 0.0
            && self.stall == 0.0
            && self.camera_dropout == 0.0
    }

    /// The value of an option by name.
    pub fn get(&self, name: &str) -> Option<f64> {
        OPTIONS
            .iter()
            .find(|o| o.name == name)
            .map(|o| (o.get)(self))
    }
}

impl FromStr for FaultSpec {
    type Err = FaultError;

    /// Parses `KEY=VALUE` items separated by commas (spaces around them are
    /// ignored); the empty string and `none` mean no faults.
    fn from_str(text: &str) -> Result<FaultSpec, FaultError> {
        let mut spec = FaultSpec::default();
        let text = text.trim();
        if text.is_empty() || text == "none" {
            return Ok(spec);
        }
        let mut seen: Vec<&str> = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            let Some((key, value)) = item.split_once('=') else {
                return Err(FaultError::Syntax { item: item.into() });
            };
            let (key, value) = (key.trim(), value.trim());
            if key.is_empty() {
                return Err(FaultError::Syntax { item: item.into() });
            }
            let Some(opt) = OPTIONS.iter().find(|o| o.name == key) else {
                return Err(FaultError::UnknownKey {
                    key: key.into(),
                    known: OPTIONS
                        .iter()
                        .map(|o| o.name)
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            };
            if seen.contains(&opt.name) {
                return Err(FaultError::Duplicate { key: key.into() });
            }
            seen.push(opt.name);
            let bad = |reason: String| FaultError::BadValue {
                key: key.into(),
                value: value.into(),
                reason,
            };
            let v: f64 = value
                .parse()
                .map_err(|_| bad(format!("is not a number ({})", opt.kind.as_str())))?;
            if !v.is_finite() || v < opt.min || v > opt.max {
                return Err(bad(format!(
                    "is out of range [{}, {}] ({})",
                    opt.min,
                    opt.max,
                    opt.kind.as_str()
                )));
            }
            (opt.set)(&mut spec, v);
        }
        Ok(spec)
    }
}

impl fmt::Display for FaultSpec {
    /// The options that differ from their defaults as `KEY=VALUE,...`, or
    /// `none`; parsing the text gives the same spec back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = OPTIONS
            .iter()
            .filter(|o| (o.get)(self) != o.default)
            .map(|o| format!("{}={}", o.name, (o.get)(self)))
            .collect();
        if items.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&items.join(","))
        }
    }
}

/// A help table of every option: name, type, default, range and meaning.
pub fn help() -> String {
    let mut out = String::from("fault options (KEY=VALUE,...):\n");
    for o in OPTIONS {
        out.push_str(&format!(
            "  {:<17} {:<11} default {:<4} range [{}, {}]  {}\n",
            o.name,
            o.kind.as_str(),
            o.default,
            o.min,
            o.max,
            o.doc
        ));
    }
    out
}

/// The kinds of fault the world counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaultKind {
    Slip,
    PlaceError,
    Nudge,
    ServoOffset,
    SerialDrop,
    Stall,
    /// The camera delivered no frames for a while (injected by the graph's
    /// `sim_world`, which owns the camera stream).
    CameraDropout,
}

impl FaultKind {
    /// The option name that causes it.
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::Slip => "slip",
            FaultKind::PlaceError => "place_sigma_mm",
            FaultKind::Nudge => "nudge",
            FaultKind::ServoOffset => "servo_offset_deg",
            FaultKind::SerialDrop => "serial_drop",
            FaultKind::Stall => "stall",
            FaultKind::CameraDropout => "camera_dropout",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_spec_parses_and_round_trips() {
        let text = "slip=0.05,place_sigma_mm=2,nudge=0.02,servo_offset_deg=1.5,serial_drop=0.01,stall=0.005";
        let f: FaultSpec = text.parse().unwrap();
        assert_eq!(f.slip, 0.05);
        assert_eq!(f.place_sigma_mm, 2.0);
        assert_eq!(f.nudge, 0.02);
        assert_eq!(f.servo_offset_deg, 1.5);
        assert_eq!(f.serial_drop, 0.01);
        assert_eq!(f.stall, 0.005);
        assert_eq!(f.serial_down_s, 2.0, "default");
        assert_eq!(f.to_string(), text);
        assert_eq!(f.to_string().parse::<FaultSpec>().unwrap(), f);
        assert!(!f.is_none());
        assert_eq!(f.get("stall_s"), Some(1.0));
    }

    #[test]
    fn empty_and_none_are_no_faults() {
        for t in ["", "  ", "none"] {
            let f: FaultSpec = t.parse().unwrap();
            assert!(f.is_none());
            assert_eq!(f.to_string(), "none");
        }
    }

    #[test]
    fn errors_name_the_key() {
        let e = "slip=0.1,wobble=3".parse::<FaultSpec>().unwrap_err();
        assert!(
            matches!(&e, FaultError::UnknownKey { key, .. } if key == "wobble"),
            "{e}"
        );
        assert!(e.to_string().contains("wobble") && e.to_string().contains("serial_drop"));
        let e = "slip=1.5".parse::<FaultSpec>().unwrap_err();
        assert!(
            matches!(&e, FaultError::BadValue { key, .. } if key == "slip"),
            "{e}"
        );
        assert!(e.to_string().contains("[0, 1]"), "{e}");
        let e = "place_sigma_mm=-1".parse::<FaultSpec>().unwrap_err();
        assert!(e.to_string().contains("place_sigma_mm"), "{e}");
        let e = "stall=abc".parse::<FaultSpec>().unwrap_err();
        assert!(e.to_string().contains("stall") && e.to_string().contains("not a number"));
        let e = "stall=NaN".parse::<FaultSpec>().unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
        let e = "slip".parse::<FaultSpec>().unwrap_err();
        assert!(matches!(e, FaultError::Syntax { .. }), "{e}");
        let e = "=3".parse::<FaultSpec>().unwrap_err();
        assert!(matches!(e, FaultError::Syntax { .. }), "{e}");
        let e = "slip=0.1,slip=0.2".parse::<FaultSpec>().unwrap_err();
        assert!(matches!(e, FaultError::Duplicate { .. }), "{e}");
    }

    #[test]
    fn help_lists_every_option() {
        let h = help();
        for o in OPTIONS {
            assert!(h.contains(o.name), "{}", o.name);
        }
        // Defaults are in range.
        for o in OPTIONS {
            assert!(o.min <= o.default && o.default <= o.max, "{}", o.name);
        }
    }
}
