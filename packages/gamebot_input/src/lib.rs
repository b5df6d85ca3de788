//! Reading untrusted input files safely.
//!
//! Every loader of the project (game files, arm/board/camera YAML, URDF,
//! images, move lists) reads through this crate, so one mechanism decides:
//!
//! - **how much is read**: [`read_bounded`] stops after a limit, so
//!   `/dev/zero`, `/dev/urandom` or a FIFO never make a loader read forever;
//!   the error names the file and the limit;
//! - **which encoding**: [`decode_text`] accepts UTF-8 (a leading byte-order
//!   mark is dropped), names UTF-16/UTF-32 files as such, and refuses other
//!   bytes with their line and column instead of turning them into U+FFFD;
//! - **how deep**: [`check_yaml_depth`] and [`check_xml_depth`] refuse
//!   documents nested deeper than a limit before a recursive parser sees them
//!   (deep nesting overflows the stack or makes parsing super-linear).

#![forbid(unsafe_code)]

use std::io::Read;
use std::path::Path;
use thiserror::Error;

/// Largest text input file (game, YAML, URDF, move list) read: 16 MiB.
pub const TEXT_LIMIT: u64 = 16 * 1024 * 1024;
/// Largest image file read: 64 MiB.
pub const IMAGE_LIMIT: u64 = 64 * 1024 * 1024;
/// Deepest nesting of YAML collections or XML elements accepted.
pub const DEPTH_LIMIT: usize = 64;

/// Why an input could not be read.
#[derive(Debug, Error)]
pub enum InputError {
    /// The file could not be opened or read.
    #[error("{path}: cannot read file: {source}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// More bytes than the limit (or an endless device).
    #[error("{path}: larger than the {limit}-byte limit for this kind of file (an endless device such as /dev/zero?); not read further")]
    TooLarge {
        /// The file.
        path: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// A text in an encoding other than UTF-8.
    #[error("{path}: the file is {encoding}; save it as UTF-8")]
    Encoding {
        /// The file.
        path: String,
        /// The detected encoding.
        encoding: &'static str,
    },
    /// Bytes that are not UTF-8.
    #[error("{path}:{line}:{column}: invalid UTF-8 byte 0x{byte:02x} (the file must be UTF-8)")]
    NotUtf8 {
        /// The file.
        path: String,
        /// 1-based line of the first bad byte.
        line: usize,
        /// 1-based column (in bytes) of the first bad byte.
        column: usize,
        /// The byte.
        byte: u8,
    },
    /// Nested deeper than [`DEPTH_LIMIT`].
    #[error("{path}:{line}: nested deeper than {limit} levels; refused")]
    TooDeep {
        /// The file.
        path: String,
        /// 1-based line where the limit was passed.
        line: usize,
        /// The limit.
        limit: usize,
    },
}

/// Reads at most `limit` bytes of `path`; more is an error, never a hang.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|source| InputError::Io {
        path: name.clone(),
        source,
    })?;
    read_bounded_from(file, &name, limit)
}

/// [`read_bounded`] from any reader (stdin, a socket); `name` is used in errors.
pub fn read_bounded_from(reader: impl Read, name: &str, limit: u64) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| InputError::Io {
            path: name.to_string(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge {
            path: name.to_string(),
            limit,
        });
    }
    Ok(bytes)
}

/// Decodes a text file: UTF-8 with an optional byte-order mark; UTF-16/32
/// and invalid bytes are errors naming the encoding or the position.
pub fn decode_text(name: &str, bytes: Vec<u8>) -> Result<String, InputError> {
    let encoding = if bytes.starts_with(&[0x00, 0x00, 0xFE, 0xFF]) {
        Some("UTF-32 (big-endian)")
    } else if bytes.starts_with(&[0xFF, 0xFE, 0x00, 0x00]) {
        Some("UTF-32 (little-endian)")
    } else if bytes.starts_with(&[0xFE, 0xFF]) {
        Some("UTF-16 (big-endian)")
    } else if bytes.starts_with(&[0xFF, 0xFE]) {
        Some("UTF-16 (little-endian)")
    } else if bytes.len() >= 2 && bytes[0] != 0 && bytes[1] == 0 {
        // ASCII text as UTF-16 without a byte-order mark: every other byte is zero.
        Some("UTF-16 (little-endian, no byte-order mark)")
    } else if bytes.len() >= 2 && bytes[0] == 0 && bytes[1] != 0 {
        Some("UTF-16 (big-endian, no byte-order mark)")
    } else {
        None
    };
    if let Some(encoding) = encoding {
        return Err(InputError::Encoding {
            path: name.to_string(),
            encoding,
        });
    }
    let mut bytes = bytes;
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = &bytes[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = at
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        InputError::NotUtf8 {
            path: name.to_string(),
            line,
            column,
            byte: bytes[at],
        }
    })
}

/// [`read_bounded`] with [`TEXT_LIMIT`], then [`decode_text`].
pub fn read_text(path: &Path) -> Result<String, InputError> {
    decode_text(&path.display().to_string(), read_bounded(path, TEXT_LIMIT)?)
}

/// Refuses YAML nested deeper than `limit`.
///
/// A conservative scan, not a parser: the depth of a line is its flow depth
/// (open `[`/`{` outside quotes and comments) plus its block depth (one per
/// indentation step, and one per `- ` / `? ` indicator that opens a nested
/// collection on the same line). Ordinary configuration files are far below
/// any sensible limit; a document made to be deep is refused in linear time.
pub fn check_yaml_depth(name: &str, text: &str, limit: usize) -> Result<(), InputError> {
    let mut flow = 0usize;
    // Indentation columns of the enclosing block collections.
    let mut indents: Vec<usize> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let too_deep = || InputError::TooDeep {
            path: name.to_string(),
            line: n + 1,
            limit,
        };
        let content = line.trim_start_matches(' ');
        let indent = line.len() - content.len();
        if flow == 0 && !content.is_empty() && !content.starts_with('#') {
            while indents.last().is_some_and(|&i| i >= indent) {
                indents.pop();
            }
            indents.push(indent);
        }
        // Block indicators that open a nested collection on this line: `- - x`.
        let mut rest = content;
        let mut inline = 0usize;
        while let Some(r) = rest.strip_prefix("- ").or_else(|| rest.strip_prefix("? ")) {
            inline += 1;
            rest = r.trim_start_matches(' ');
        }
        let (mut quote, mut prev) = (None::<char>, ' ');
        let mut max_flow = flow;
        for c in rest.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '#') if prev == ' ' || prev == '\t' => break,
                (None, '[' | '{') => {
                    flow += 1;
                    max_flow = max_flow.max(flow);
                }
                (None, ']' | '}') => flow = flow.saturating_sub(1),
                _ => {}
            }
            prev = c;
        }
        if indents.len() + inline + max_flow > limit {
            return Err(too_deep());
        }
    }
    Ok(())
}

/// Refuses XML with elements nested deeper than `limit`, in linear time.
///
/// Counts open elements (`<a>` opens, `</a>` and `<a/>` close), skipping
/// comments, processing instructions, declarations and CDATA sections.
pub fn check_xml_depth(name: &str, text: &str, limit: usize) -> Result<(), InputError> {
    let bytes = text.as_bytes();
    let (mut i, mut depth, mut line) = (0usize, 0usize, 1usize);
    let skip_to = |from: usize, end: &str| -> usize {
        text[from..]
            .find(end)
            .map_or(bytes.len(), |p| from + p + end.len())
    };
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'<' => {
                let rest = &text[i..];
                let end = if rest.starts_with("<!--") {
                    skip_to(i, "-->")
                } else if rest.starts_with("<![CDATA[") {
                    skip_to(i, "]]>")
                } else if rest.starts_with("<?") {
                    skip_to(i, "?>")
                } else if rest.starts_with("<!") || rest.starts_with("</") {
                    if rest.starts_with("</") {
                        depth = depth.saturating_sub(1);
                    }
                    skip_to(i, ">")
                } else {
                    let end = tag_end(bytes, i);
                    if bytes.get(end.wrapping_sub(2)) != Some(&b'/') {
                        depth += 1;
                        if depth > limit {
                            return Err(InputError::TooDeep {
                                path: name.to_string(),
                                line,
                                limit,
                            });
                        }
                    }
                    end
                };
                line += bytes[i..end.min(bytes.len())]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                i = end;
            }
            _ => i += 1,
        }
    }
    Ok(())
}

/// The index after the `>` closing the start tag at `start`, quotes respected.
fn tag_end(bytes: &[u8], start: usize) -> usize {
    let mut quote = None;
    for (k, &b) in bytes.iter().enumerate().skip(start + 1) {
        match (quote, b) {
            (Some(q), b) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'>') => return k + 1,
            _ => {}
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_devices_are_cut_at_the_limit() {
        let e = read_bounded(Path::new("/dev/zero"), 4096).unwrap_err();
        assert!(matches!(e, InputError::TooLarge { limit: 4096, .. }), "{e}");
        assert!(e.to_string().contains("/dev/zero"), "{e}");
        let e = read_text(Path::new("/dev/urandom")).unwrap_err();
        assert!(e.to_string().contains("limit"), "{e}");
    }

    #[test]
    fn exactly_the_limit_is_accepted() {
        let b = read_bounded_from(&[7u8; 10][..], "x", 10).unwrap();
        assert_eq!(b.len(), 10);
        assert!(read_bounded_from(&[7u8; 11][..], "x", 10).is_err());
    }

    #[test]
    fn encodings_are_named() {
        let e = decode_text("f", vec![0xFF, 0xFE, b'a', 0]).unwrap_err();
        assert!(e.to_string().contains("UTF-16 (little-endian)"), "{e}");
        let e = decode_text(
            "f",
            "name=x".encode_utf16().flat_map(u16::to_le_bytes).collect(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("UTF-16"), "{e}");
        assert_eq!(
            decode_text("f", b"\xEF\xBB\xBFname=x".to_vec()).unwrap(),
            "name=x"
        );
    }

    #[test]
    fn invalid_utf8_is_positioned() {
        let e = decode_text("g.game", b"ok\nname=a\xFFb\n".to_vec()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "g.game:2:7: invalid UTF-8 byte 0xff (the file must be UTF-8)"
        );
    }

    #[test]
    fn yaml_depth() {
        let ok = "a:\n  b:\n    - 1\n    - [2, {c: 3}]\n# [[[[[[[[[[\nd: '[[[[[['\n";
        check_yaml_depth("ok.yaml", ok, 8).unwrap();
        let deep = format!("a: {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let e = check_yaml_depth("d.yaml", &deep, DEPTH_LIMIT).unwrap_err();
        assert!(
            e.to_string().starts_with("d.yaml:1: nested deeper than 64"),
            "{e}"
        );
        let dashes = format!("{}x\n", "- ".repeat(1000));
        assert!(check_yaml_depth("d.yaml", &dashes, DEPTH_LIMIT).is_err());
        let mut indented = String::new();
        for i in 0..100 {
            indented.push_str(&format!("{}k{i}:\n", " ".repeat(i)));
        }
        assert!(check_yaml_depth("d.yaml", &indented, DEPTH_LIMIT).is_err());
        assert!(check_yaml_depth("d.yaml", &indented, 200).is_ok());
    }

    #[test]
    fn xml_depth() {
        let ok = "<?xml version=\"1.0\"?>\n<!-- <a><a><a> -->\n<robot name=\"r>\"><link name=\"a\"/><joint><x/></joint></robot>";
        check_xml_depth("ok.urdf", ok, 2).unwrap();
        assert!(check_xml_depth("ok.urdf", ok, 1).is_err());
        let deep = format!("<robot>\n{}", "<visual>".repeat(30_000));
        let e = check_xml_depth("d.urdf", &deep, DEPTH_LIMIT).unwrap_err();
        assert_eq!(
            e.to_string(),
            "d.urdf:2: nested deeper than 64 levels; refused"
        );
    }
}
