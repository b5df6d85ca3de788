//! The SSC-32U command set as typed values, its encoder and parsers.
//!
//! Commands are ASCII and end with a carriage return (`\r`). Values are
//! validated when the typed value is built, so an out-of-range pulse or
//! channel can never reach the wire.
//!
//! | command | text | answer |
//! |---|---|---|
//! | group move | `#<ch>P<pulse>[S<speed>] ... [T<ms>]` | none |
//! | query movement | `Q` | `+` moving, `.` done |
//! | query pulse | `QP <ch>` (repeatable: `QP 0 QP 1`) | one byte per channel = pulse / 10 |
//! | version | `VER` | firmware string then `\r` |
//! | stop | `STOP <ch>` | none |

use std::fmt;

use thiserror::Error;

/// Number of servo channels of the SSC-32U.
pub const CHANNELS: usize = 32;
/// Smallest pulse width the board accepts, in µs.
pub const PULSE_MIN: u16 = 500;
/// Largest pulse width the board accepts, in µs.
pub const PULSE_MAX: u16 = 2500;
/// Centre pulse width, in µs.
pub const PULSE_CENTRE: u16 = 1500;
/// Largest speed (`S`, µs per second) and time (`T`, ms) the firmware's 16-bit fields hold.
pub const ARG_MAX: u32 = 65535;
/// Command terminator.
pub const CR: u8 = b'\r';

/// A value or command that cannot be encoded or was not understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProtocolError {
    /// Channel outside 0..=31.
    #[error("servo channel {0} out of range 0..=31")]
    Channel(u32),
    /// Pulse outside 500..=2500 µs.
    #[error("pulse width {0} µs out of range {PULSE_MIN}..={PULSE_MAX}")]
    Pulse(u32),
    /// Speed outside 1..=65535 µs/s.
    #[error("speed {0} µs/s out of range 1..=65535")]
    Speed(u32),
    /// Move time outside 1..=65535 ms.
    #[error("move time {0} ms out of range 1..=65535")]
    Time(u32),
    /// A group move without any channel.
    #[error("group move without any channel")]
    EmptyMove,
    /// The same channel twice in one group move or pulse query.
    #[error("channel {0} appears twice in one command")]
    DuplicateChannel(u8),
    /// A pulse query without any channel.
    #[error("pulse query without any channel")]
    EmptyQuery,
    /// Text that is not a command, with the byte offset where parsing failed.
    #[error("malformed command {text:?} at byte {at}: {why}")]
    Malformed {
        /// The offending command text.
        text: String,
        /// Byte offset of the problem.
        at: usize,
        /// What was expected.
        why: &'static str,
    },
    /// A response byte or string that is not what the firmware sends.
    #[error("unexpected response {0:?}")]
    Response(Vec<u8>),
}

/// A servo channel, 0..=31.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Channel(u8);

impl Channel {
    /// A channel, if `n` is within 0..=31.
    pub fn new(n: u32) -> Result<Self, ProtocolError> {
        if (n as usize) < CHANNELS {
            Ok(Channel(n as u8))
        } else {
            Err(ProtocolError::Channel(n))
        }
    }
    /// The channel number.
    pub fn get(self) -> u8 {
        self.0
    }
    /// The channel number as an index into per-channel arrays.
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// All 32 channels in order.
    pub fn all() -> impl Iterator<Item = Channel> {
        (0..CHANNELS as u8).map(Channel)
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A pulse width in µs, 500..=2500.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pulse(u16);

impl Pulse {
    /// The centre position, 1500 µs.
    pub const CENTRE: Pulse = Pulse(PULSE_CENTRE);
    /// A pulse, if `us` is within 500..=2500.
    pub fn new(us: u32) -> Result<Self, ProtocolError> {
        if (PULSE_MIN as u32..=PULSE_MAX as u32).contains(&us) {
            Ok(Pulse(us as u16))
        } else {
            Err(ProtocolError::Pulse(us))
        }
    }
    /// The width in µs.
    pub fn micros(self) -> u16 {
        self.0
    }
    /// The `QP` byte for this pulse (pulse / 10, truncated as the firmware does).
    pub fn qp_byte(self) -> u8 {
        (self.0 / 10) as u8
    }
}

impl fmt::Display for Pulse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A per-channel speed in µs of pulse change per second (`S`), 1..=65535.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Speed(u16);

impl Speed {
    /// A speed, if `us_per_s` is within 1..=65535.
    pub fn new(us_per_s: u32) -> Result<Self, ProtocolError> {
        if (1..=ARG_MAX).contains(&us_per_s) {
            Ok(Speed(us_per_s as u16))
        } else {
            Err(ProtocolError::Speed(us_per_s))
        }
    }
    /// The speed in µs per second.
    pub fn get(self) -> u16 {
        self.0
    }
}

/// A total move time in ms (`T`), 1..=65535.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MoveTime(u16);

impl MoveTime {
    /// A move time, if `ms` is within 1..=65535.
    pub fn new(ms: u32) -> Result<Self, ProtocolError> {
        if (1..=ARG_MAX).contains(&ms) {
            Ok(MoveTime(ms as u16))
        } else {
            Err(ProtocolError::Time(ms))
        }
    }
    /// The time in ms.
    pub fn millis(self) -> u16 {
        self.0
    }
}

/// One channel of a group move: `#<ch>P<pulse>[S<speed>]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ServoTarget {
    /// The channel.
    pub channel: Channel,
    /// Where it goes.
    pub pulse: Pulse,
    /// Its speed limit, if any.
    pub speed: Option<Speed>,
}

/// A group move: all channels start together and finish together.
///
/// The move lasts the longest of its constraints: the `T` time, and for
/// each channel with a speed, its distance divided by its speed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GroupMove {
    targets: Vec<ServoTarget>,
    time: Option<MoveTime>,
}

impl GroupMove {
    /// A group move; rejects an empty list and duplicate channels.
    pub fn new(targets: Vec<ServoTarget>, time: Option<MoveTime>) -> Result<Self, ProtocolError> {
        if targets.is_empty() {
            return Err(ProtocolError::EmptyMove);
        }
        if let Some(c) = first_duplicate(targets.iter().map(|t| t.channel)) {
            return Err(ProtocolError::DuplicateChannel(c.get()));
        }
        Ok(GroupMove { targets, time })
    }
    /// The channel targets, in command order.
    pub fn targets(&self) -> &[ServoTarget] {
        &self.targets
    }
    /// The `T` time, if any.
    pub fn time(&self) -> Option<MoveTime> {
        self.time
    }
}

fn first_duplicate(mut channels: impl Iterator<Item = Channel>) -> Option<Channel> {
    let mut seen = [false; CHANNELS];
    channels.find(|c| std::mem::replace(&mut seen[c.index()], true))
}

/// A command to the SSC-32U.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Command {
    /// `#<ch>P<pulse>[S<speed>] ... [T<ms>]`.
    Move(GroupMove),
    /// `Q`: is a move in progress?
    QueryMovement,
    /// `QP <ch>` for each channel, in one line; answered with one byte per channel.
    QueryPulse(Vec<Channel>),
    /// `VER`: firmware version.
    Version,
    /// `STOP <ch>`: stop the channel where it is now.
    Stop(Channel),
}

impl Command {
    /// A pulse query; rejects an empty list and duplicates.
    pub fn query_pulse(channels: Vec<Channel>) -> Result<Self, ProtocolError> {
        if channels.is_empty() {
            return Err(ProtocolError::EmptyQuery);
        }
        if let Some(c) = first_duplicate(channels.iter().copied()) {
            return Err(ProtocolError::DuplicateChannel(c.get()));
        }
        Ok(Command::QueryPulse(channels))
    }

    /// The bytes to send, including the terminating carriage return.
    pub fn encode(&self) -> Vec<u8> {
        let mut s = self.to_string().into_bytes();
        s.push(CR);
        s
    }

    /// Number of bytes the board answers with (0 for commands without answer;
    /// `None` for `VER`, whose answer ends with a carriage return instead).
    pub fn response_len(&self) -> Option<usize> {
        match self {
            Command::Move(_) | Command::Stop(_) => Some(0),
            Command::QueryMovement => Some(1),
            Command::QueryPulse(chs) => Some(chs.len()),
            Command::Version => None,
        }
    }

    /// Parses one command line (without or with its trailing `\r`), the way
    /// the firmware reads it: case-insensitive, spaces allowed between fields.
    pub fn parse(text: &str) -> Result<Command, ProtocolError> {
        Parser::new(text).command()
    }
}

impl fmt::Display for Command {
    /// The command text without the terminator.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Move(m) => {
                for t in &m.targets {
                    write!(f, "#{}P{}", t.channel, t.pulse)?;
                    if let Some(s) = t.speed {
                        write!(f, "S{}", s.0)?;
                    }
                }
                if let Some(t) = m.time {
                    write!(f, "T{}", t.0)?;
                }
                Ok(())
            }
            Command::QueryMovement => f.write_str("Q"),
            Command::QueryPulse(chs) => {
                for (i, c) in chs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "QP {c}")?;
                }
                Ok(())
            }
            Command::Version => f.write_str("VER"),
            Command::Stop(c) => write!(f, "STOP {c}"),
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    bytes: Vec<u8>,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        let trimmed = text.strip_suffix('\r').unwrap_or(text);
        Parser {
            text,
            bytes: trimmed.bytes().map(|b| b.to_ascii_uppercase()).collect(),
            pos: 0,
        }
    }

    fn err(&self, why: &'static str) -> ProtocolError {
        ProtocolError::Malformed {
            text: self.text.to_string(),
            at: self.pos,
            why,
        }
    }

    fn skip_spaces(&mut self) {
        while self.bytes.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_spaces();
        self.bytes.get(self.pos).copied()
    }

    fn keyword(&mut self, kw: &str) -> bool {
        self.skip_spaces();
        if self.bytes[self.pos..].starts_with(kw.as_bytes()) {
            self.pos += kw.len();
            true
        } else {
            false
        }
    }

    fn number(&mut self) -> Result<u32, ProtocolError> {
        self.skip_spaces();
        let start = self.pos;
        let mut n: u32 = 0;
        while let Some(d) = self.bytes.get(self.pos).filter(|b| b.is_ascii_digit()) {
            // Saturate: anything this long is out of every range anyway.
            n = n.saturating_mul(10).saturating_add((d - b'0') as u32);
            self.pos += 1;
        }
        if self.pos == start {
            Err(self.err("expected a number"))
        } else {
            Ok(n)
        }
    }

    fn end(&mut self) -> Result<(), ProtocolError> {
        if self.peek().is_none() {
            Ok(())
        } else {
            Err(self.err("unexpected text after the command"))
        }
    }

    fn command(mut self) -> Result<Command, ProtocolError> {
        match self.peek() {
            Some(b'#') => self.group_move(),
            Some(b'Q') => {
                if self.bytes[self.pos..].starts_with(b"QP") {
                    let mut chs = Vec::new();
                    while self.keyword("QP") {
                        chs.push(Channel::new(self.number()?)?);
                    }
                    self.end()?;
                    Command::query_pulse(chs)
                } else {
                    self.pos += 1;
                    self.end()?;
                    Ok(Command::QueryMovement)
                }
            }
            _ if self.keyword("VER") => {
                self.end()?;
                Ok(Command::Version)
            }
            _ if self.keyword("STOP") => {
                let c = Channel::new(self.number()?)?;
                self.end()?;
                Ok(Command::Stop(c))
            }
            None => Err(self.err("empty command")),
            _ => Err(self.err("unknown command")),
        }
    }

    fn group_move(&mut self) -> Result<Command, ProtocolError> {
        let mut targets = Vec::new();
        while self.peek() == Some(b'#') {
            self.pos += 1;
            let channel = Channel::new(self.number()?)?;
            if !self.keyword("P") {
                return Err(self.err("expected P<pulse>"));
            }
            let pulse = Pulse::new(self.number()?)?;
            let speed = if self.keyword("S") {
                Some(Speed::new(self.number()?)?)
            } else {
                None
            };
            targets.push(ServoTarget {
                channel,
                pulse,
                speed,
            });
        }
        let time = if self.keyword("T") {
            Some(MoveTime::new(self.number()?)?)
        } else {
            None
        };
        self.end()?;
        Ok(Command::Move(GroupMove::new(targets, time)?))
    }
}

/// The answer to `Q`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Movement {
    /// `+`: a move is in progress.
    Moving,
    /// `.`: all moves are complete.
    Done,
}

impl Movement {
    /// The byte the firmware sends.
    pub fn byte(self) -> u8 {
        match self {
            Movement::Moving => b'+',
            Movement::Done => b'.',
        }
    }
    /// Parses the answer byte.
    pub fn from_byte(b: u8) -> Result<Movement, ProtocolError> {
        match b {
            b'+' => Ok(Movement::Moving),
            b'.' => Ok(Movement::Done),
            _ => Err(ProtocolError::Response(vec![b])),
        }
    }
}

/// Decodes one `QP` answer byte: 0 means the channel has never been given a
/// pulse (its output is off); otherwise the pulse is `byte × 10` µs.
pub fn pulse_from_qp_byte(b: u8) -> Result<Option<Pulse>, ProtocolError> {
    if b == 0 {
        return Ok(None);
    }
    Pulse::new(b as u32 * 10)
        .map(Some)
        .map_err(|_| ProtocolError::Response(vec![b]))
}

/// Encodes one `QP` answer byte (the inverse of [`pulse_from_qp_byte`]).
pub fn qp_byte(pulse: Option<Pulse>) -> u8 {
    pulse.map_or(0, Pulse::qp_byte)
}

/// Parses a `VER` answer (the bytes before the terminating `\r`): printable
/// ASCII, not empty.
pub fn parse_version(bytes: &[u8]) -> Result<String, ProtocolError> {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if bytes.is_empty() || !bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        return Err(ProtocolError::Response(bytes.to_vec()));
    }
    Ok(String::from_utf8_lossy(bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ch(n: u32) -> Channel {
        Channel::new(n).unwrap()
    }
    fn p(n: u32) -> Pulse {
        Pulse::new(n).unwrap()
    }

    #[test]
    fn encodes_the_firmware_syntax() {
        let m = GroupMove::new(
            vec![
                ServoTarget {
                    channel: ch(0),
                    pulse: p(1500),
                    speed: Some(Speed::new(750).unwrap()),
                },
                ServoTarget {
                    channel: ch(31),
                    pulse: p(2500),
                    speed: None,
                },
            ],
            Some(MoveTime::new(1000).unwrap()),
        )
        .unwrap();
        assert_eq!(Command::Move(m).encode(), b"#0P1500S750#31P2500T1000\r");
        assert_eq!(Command::QueryMovement.encode(), b"Q\r");
        assert_eq!(
            Command::query_pulse(vec![ch(0), ch(5)]).unwrap().encode(),
            b"QP 0 QP 5\r"
        );
        assert_eq!(Command::Version.encode(), b"VER\r");
        assert_eq!(Command::Stop(ch(3)).encode(), b"STOP 3\r");
    }

    #[test]
    fn rejects_out_of_range_values_before_encoding() {
        assert_eq!(Channel::new(32), Err(ProtocolError::Channel(32)));
        assert_eq!(Pulse::new(499), Err(ProtocolError::Pulse(499)));
        assert_eq!(Pulse::new(2501), Err(ProtocolError::Pulse(2501)));
        assert_eq!(Speed::new(0), Err(ProtocolError::Speed(0)));
        assert_eq!(MoveTime::new(65536), Err(ProtocolError::Time(65536)));
        assert_eq!(GroupMove::new(vec![], None), Err(ProtocolError::EmptyMove));
        let t = ServoTarget {
            channel: ch(1),
            pulse: p(1000),
            speed: None,
        };
        assert_eq!(
            GroupMove::new(vec![t, t], None),
            Err(ProtocolError::DuplicateChannel(1))
        );
        assert_eq!(Command::query_pulse(vec![]), Err(ProtocolError::EmptyQuery));
    }

    #[test]
    fn parses_like_the_firmware() {
        let c = Command::parse("#5 P1600 s500 #1p900 t2000\r").unwrap();
        assert_eq!(c.to_string(), "#5P1600S500#1P900T2000");
        assert_eq!(Command::parse("q"), Ok(Command::QueryMovement));
        assert_eq!(
            Command::parse("QP 3 QP 4"),
            Ok(Command::QueryPulse(vec![ch(3), ch(4)]))
        );
        assert_eq!(Command::parse("ver"), Ok(Command::Version));
        assert_eq!(Command::parse("STOP 7"), Ok(Command::Stop(ch(7))));
        for bad in [
            "",
            "#",
            "#0",
            "#0P",
            "#0P400",
            "#32P1500",
            "#0P1500X",
            "Q 1",
            "QP",
            "QP 40",
            "VERX",
            "STOP",
            "hello",
            "#0P1500#0P1600",
            "T100",
        ] {
            assert!(Command::parse(bad).is_err(), "{bad:?} should not parse");
        }
    }

    #[test]
    fn decodes_responses() {
        assert_eq!(Movement::from_byte(b'+'), Ok(Movement::Moving));
        assert_eq!(Movement::from_byte(b'.'), Ok(Movement::Done));
        assert!(Movement::from_byte(b'x').is_err());
        assert_eq!(pulse_from_qp_byte(150), Ok(Some(p(1500))));
        assert_eq!(pulse_from_qp_byte(0), Ok(None));
        assert!(pulse_from_qp_byte(49).is_err());
        assert!(pulse_from_qp_byte(251).is_err());
        assert_eq!(
            parse_version(b"SSC32-V2.50USB\r").unwrap(),
            "SSC32-V2.50USB"
        );
        assert!(parse_version(b"\x00\xffSSC").is_err());
        assert!(parse_version(b"").is_err());
    }

    fn arb_target() -> impl Strategy<Value = ServoTarget> {
        (0u32..32, 500u32..=2500, proptest::option::of(1u32..=65535)).prop_map(|(c, p, s)| {
            ServoTarget {
                channel: Channel::new(c).unwrap(),
                pulse: Pulse::new(p).unwrap(),
                speed: s.map(|s| Speed::new(s).unwrap()),
            }
        })
    }

    fn arb_command() -> impl Strategy<Value = Command> {
        prop_oneof![
            (
                proptest::collection::vec(arb_target(), 1..32),
                proptest::option::of(1u32..=65535)
            )
                .prop_map(|(mut ts, t)| {
                    let mut seen = [false; CHANNELS];
                    ts.retain(|t| !std::mem::replace(&mut seen[t.channel.index()], true));
                    Command::Move(GroupMove::new(ts, t.map(|t| MoveTime::new(t).unwrap())).unwrap())
                }),
            Just(Command::QueryMovement),
            proptest::sample::subsequence((0u32..32).collect::<Vec<_>>(), 1..32)
                .prop_shuffle()
                .prop_map(|chs| Command::query_pulse(
                    chs.into_iter().map(|c| Channel::new(c).unwrap()).collect()
                )
                .unwrap()),
            Just(Command::Version),
            (0u32..32).prop_map(|c| Command::Stop(Channel::new(c).unwrap())),
        ]
    }

    proptest! {
        #[test]
        fn encode_parse_round_trip(cmd in arb_command()) {
            let bytes = cmd.encode();
            prop_assert_eq!(bytes.last(), Some(&CR));
            prop_assert_eq!(bytes.iter().filter(|&&b| b == CR).count(), 1);
            let text = std::str::from_utf8(&bytes).unwrap();
            prop_assert_eq!(Command::parse(text), Ok(cmd.clone()));
            // Lower case and spaces between fields mean the same to the firmware.
            let mut spaced = text.to_ascii_lowercase();
            if matches!(cmd, Command::Move(_)) {
                spaced = spaced.replace('p', " p ").replace('#', " #").replace('t', " t");
            }
            prop_assert_eq!(Command::parse(&spaced), Ok(cmd));
        }

        #[test]
        fn parse_never_panics(text in "\\PC{0,40}") {
            let _ = Command::parse(&text);
        }

        #[test]
        fn parse_rejects_or_accepts_only_valid_values(c in 0u32..100, p in 0u32..4000) {
            let r = Command::parse(&format!("#{c}P{p}"));
            prop_assert_eq!(r.is_ok(), c < 32 && (500..=2500).contains(&p));
        }

        #[test]
        fn qp_byte_round_trip(tens in 50u32..=250) {
            let pulse = Pulse::new(tens * 10).unwrap();
            prop_assert_eq!(pulse_from_qp_byte(qp_byte(Some(pulse))), Ok(Some(pulse)));
        }

        #[test]
        fn qp_byte_truncates_like_the_firmware(us in 500u32..=2500) {
            let pulse = Pulse::new(us).unwrap();
            let back = pulse_from_qp_byte(pulse.qp_byte()).unwrap().unwrap();
            prop_assert!(back <= pulse && pulse.micros() - back.micros() < 10);
        }

        #[test]
        fn version_round_trip(v in "[ -~]{1,30}") {
            let mut bytes = v.clone().into_bytes();
            bytes.push(CR);
            prop_assert_eq!(parse_version(&bytes), Ok(v));
        }
    }
}
