//! Positions for URDF errors. urdf-rs says what is wrong ("missing field
//! `name`", "invalid float literal", "Unexpected end of stream") but not
//! where. When it refuses a document, [`locate`] reads it again with
//! quick-xml, which knows byte offsets, to find the place:
//!
//! 1. an XML syntax error (unclosed or mismatched tag, bad attribute, a
//!    second root, text outside the root) → its line and column;
//! 2. otherwise the first child element of `<robot>` that urdf-rs refuses on
//!    its own (inside a copy of the original `<robot>` tag) → that element's
//!    line, tag and name, with urdf-rs's message for it;
//! 3. otherwise the problem is `<robot>` itself → its line.
//!
//! This runs only on the error path and never changes what is accepted: the
//! URDF is still parsed by urdf-rs alone.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// 1-based line and column (in characters) of byte `offset` of `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A child element of the root: its byte range, tag and `name` attribute.
struct Child {
    start: usize,
    end: usize,
    tag: String,
    name: Option<String>,
}

/// The root start tag's byte range and the root's children, or an XML error
/// at a byte offset.
struct Outline {
    root: (usize, usize),
    root_empty: bool,
    children: Vec<Child>,
}

fn tag_name(e: &BytesStart) -> String {
    String::from_utf8_lossy(e.name().as_ref()).into_owned()
}

fn name_attr(e: &BytesStart) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == b"name")
        .map(|a| String::from_utf8_lossy(&a.value).into_owned())
}

/// Reads the whole document, checking that it is well formed; on an error,
/// its byte offset and a description.
fn outline(text: &str) -> Result<Outline, (usize, String)> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut root: Option<(usize, usize, bool)> = None;
    let mut root_closed = false;
    let mut children = Vec::new();
    let mut current: Option<Child> = None;
    loop {
        let before = reader.buffer_position() as usize;
        let event = reader
            .read_event()
            .map_err(|e| (reader.error_position() as usize, e.to_string()))?;
        let after = reader.buffer_position() as usize;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                let tag = tag_name(e);
                for a in e.attributes().with_checks(true) {
                    a.map_err(|why| (before, format!("in <{tag}>: {why}")))?;
                }
                if root_closed {
                    return Err((before, format!("a second root element <{tag}>")));
                }
                match open.len() {
                    0 => {
                        root = Some((before, after, empty));
                        root_closed = empty;
                    }
                    1 => {
                        let child = Child {
                            start: before,
                            end: after,
                            tag: tag.clone(),
                            name: name_attr(e),
                        };
                        if empty {
                            children.push(child);
                        } else {
                            current = Some(child);
                        }
                    }
                    _ => {}
                }
                if !empty {
                    open.push((tag, before));
                }
            }
            Event::End(_) => {
                // quick-xml has checked that the name matches the open tag.
                open.pop();
                match open.len() {
                    0 => root_closed = true,
                    1 => {
                        if let Some(mut c) = current.take() {
                            c.end = after;
                            children.push(c);
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(t) if open.is_empty() && t.iter().any(|b| !b.is_ascii_whitespace()) => {
                return Err((before, "text outside the root element".into()));
            }
            Event::Eof => {
                if let Some((tag, at)) = open.last() {
                    let (line, _) = line_col(text, *at);
                    return Err((
                        text.len(),
                        format!("<{tag}> opened on line {line} is never closed"),
                    ));
                }
                break;
            }
            _ => {}
        }
    }
    let Some((start, end, root_empty)) = root else {
        return Err((0, "no root element".into()));
    };
    Ok(Outline {
        root: (start, end),
        root_empty,
        children,
    })
}

/// The place of the error urdf-rs reported as `message` for `text`, as
/// `line L, column C: …` or `line L, <tag name="…">: …`.
pub(crate) fn locate(text: &str, message: &str) -> String {
    let o = match outline(text) {
        Ok(o) => o,
        Err((offset, why)) => {
            let (line, col) = line_col(text, offset);
            return format!("line {line}, column {col}: {why}");
        }
    };
    let (root_line, _) = line_col(text, o.root.0);
    let root_tag = &text[o.root.0..o.root.1];
    if o.root_empty {
        return format!("line {root_line}, <robot>: {message}");
    }
    let open_root = format!("{root_tag}</robot>");
    if let Err(e) = urdf_rs::read_from_string(&open_root) {
        // The root tag alone (not <robot>, no name, a bad attribute) is refused.
        return format!("line {root_line}, {}: {e}", shorten(root_tag));
    }
    for c in &o.children {
        let alone = format!("{root_tag}{}</robot>", &text[c.start..c.end]);
        if let Err(e) = urdf_rs::read_from_string(&alone) {
            let (line, _) = line_col(text, c.start);
            let what = match &c.name {
                Some(n) => format!("<{} name=\"{n}\">", c.tag),
                None => format!("<{}>", c.tag),
            };
            return format!("line {line}, {what}: {e}");
        }
    }
    // Every part is fine alone: the problem is how they go together.
    format!("line {root_line}, <robot>: {message}")
}

/// Prefixes a message of this crate's URDF checks with the line of the
/// element it is about. Such messages start with `joint NAME` or `link NAME`
/// (see `validate_urdf`); the first child of `<robot>` with that tag and name
/// gives the line. Other messages are returned unchanged.
pub(crate) fn at_element(text: &str, message: &str) -> String {
    let about = ["joint", "link"].into_iter().find_map(|tag| {
        let rest = message.strip_prefix(tag)?.strip_prefix(' ')?;
        let name = rest.split([' ', ':']).next()?;
        Some((tag, name))
    });
    let Some((tag, name)) = about else {
        return message.to_string();
    };
    let Ok(o) = outline(text) else {
        return message.to_string();
    };
    match o
        .children
        .iter()
        .find(|c| c.tag == tag && c.name.as_deref() == Some(name))
    {
        Some(c) => format!("line {}: {message}", line_col(text, c.start).0),
        None => message.to_string(),
    }
}

/// A start tag cut to a readable length.
fn shorten(tag: &str) -> String {
    if tag.chars().count() > 60 {
        tag.chars().take(60).collect::<String>() + "…"
    } else {
        tag.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"<?xml version="1.0"?>
<robot name="r">
  <link name="base"/>
  <link name="arm">
    <visual>
      <geometry><box size="1 1 1"/></geometry>
    </visual>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/>
    <child link="arm"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
"#;

    fn refused(text: &str) -> String {
        let e = urdf_rs::read_from_string(text)
            .expect_err("urdf-rs refuses it")
            .to_string();
        locate(text, &e)
    }

    #[test]
    fn the_example_is_accepted_by_urdf_rs() {
        urdf_rs::read_from_string(GOOD).unwrap();
        assert!(outline(GOOD).is_ok());
    }

    #[test]
    fn an_unclosed_tag_is_located() {
        let text = GOOD.replace("</visual>", "");
        let e = refused(&text);
        assert!(e.starts_with("line 8, column 3:"), "{e}");
        assert!(e.contains("</link>"), "{e}");
        let text = GOOD.replace("</robot>\n", "");
        let e = refused(&text);
        assert!(
            e.contains("<robot> opened on line 2 is never closed"),
            "{e}"
        );
    }

    #[test]
    fn a_bad_attribute_is_located() {
        let text = GOOD.replace(r#"<child link="arm"/>"#, r#"<child link=arm/>"#);
        let e = refused(&text);
        assert!(e.starts_with("line 11, column 5: in <child>"), "{e}");
    }

    #[test]
    fn a_bad_value_is_located_at_its_element() {
        let text = GOOD.replace(r#"lower="-1""#, r#"lower="minus one""#);
        let e = refused(&text);
        assert!(e.starts_with(r#"line 9, <joint name="j1">: "#), "{e}");
        let text = GOOD.replace(r#"<link name="arm">"#, r#"<link>"#);
        let e = refused(&text);
        assert!(e.starts_with("line 4, <link>: "), "{e}");
        assert!(e.contains("name"), "{e}");
    }

    #[test]
    fn root_problems_are_located_at_the_root() {
        // Every child fine alone: the root is blamed, with urdf-rs's message.
        assert_eq!(locate(GOOD, "why"), "line 2, <robot>: why");
        let text = GOOD.replace("</robot>\n", "</robot>\n<robot name=\"again\"/>\n");
        let e = locate(&text, "x");
        assert!(
            e.starts_with("line 15, column 1: a second root element"),
            "{e}"
        );
    }

    #[test]
    fn check_messages_get_the_line_of_their_element() {
        assert_eq!(
            at_element(GOOD, "joint j1 mimics itself"),
            "line 9: joint j1 mimics itself"
        );
        assert_eq!(
            at_element(GOOD, "link arm: something"),
            "line 4: link arm: something"
        );
        assert_eq!(at_element(GOOD, "no links"), "no links");
        assert_eq!(at_element(GOOD, "joint nope x"), "joint nope x");
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(line_col("ab\ncdé f", 8), (2, 5));
        assert_eq!(line_col("", 5), (1, 1));
    }
}
