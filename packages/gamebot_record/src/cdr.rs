//! CDR as on the wire: the 4-byte encapsulation header (`CDR_LE`: 00 01 00
//! 00) and the little-endian body, encoded by `cdr-encoding`, the encoder the
//! DDS backend (ros2-client) uses — so a bag holds exactly the bytes a ROS 2
//! node would have received.

use byteorder::{BigEndian, LittleEndian};
use serde::{de::DeserializeOwned, Serialize};

use crate::RecordError;

/// The encapsulation header of little-endian plain CDR.
pub const CDR_LE_HEADER: [u8; 4] = [0x00, 0x01, 0x00, 0x00];

/// Encodes a message with its encapsulation header.
pub fn encode<T: Serialize>(msg: &T, what: &str) -> Result<Vec<u8>, RecordError> {
    // The body is encoded on its own: CDR alignment counts from its start.
    let body = cdr_encoding::to_vec::<T, LittleEndian>(msg).map_err(|e| RecordError::Cdr {
        what: what.to_string(),
        message: e.to_string(),
    })?;
    let mut out = Vec::with_capacity(4 + body.len());
    out.extend_from_slice(&CDR_LE_HEADER);
    out.extend_from_slice(&body);
    Ok(out)
}

/// Decodes a message encoded with an encapsulation header (either byte order).
pub fn decode<T: DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T, RecordError> {
    let bad = |message: String| RecordError::Cdr {
        what: what.to_string(),
        message,
    };
    if bytes.len() < 4 {
        return Err(bad(format!(
            "{} bytes: no encapsulation header",
            bytes.len()
        )));
    }
    let body = &bytes[4..];
    let r = match bytes[1] {
        0x01 => cdr_encoding::from_bytes::<T, LittleEndian>(body),
        0x00 => cdr_encoding::from_bytes::<T, BigEndian>(body),
        k => return Err(bad(format!("encapsulation kind {k:#04x} is not plain CDR"))),
    };
    r.map(|(v, _)| v).map_err(|e| bad(e.to_string()))
}
