//! A small element tree written and read with `quick-xml`: the SDF is built
//! as elements (never concatenated strings) and parsed back for checks.

use quick_xml::events::{BytesDecl, BytesStart, BytesText, Event};
use quick_xml::{Reader, Writer};

use crate::GazeboError;

/// One XML element: name, attributes, text and children.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct El {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub text: String,
    pub children: Vec<El>,
}

impl El {
    /// An empty element.
    pub fn new(name: &str) -> El {
        El {
            name: name.into(),
            ..El::default()
        }
    }

    /// Adds an attribute.
    pub fn attr(mut self, key: &str, value: impl ToString) -> El {
        self.attrs.push((key.into(), value.to_string()));
        self
    }

    /// Sets the text.
    pub fn text(mut self, text: impl ToString) -> El {
        self.text = text.to_string();
        self
    }

    /// Adds a child.
    pub fn child(mut self, c: El) -> El {
        self.children.push(c);
        self
    }

    /// Adds children.
    pub fn children(mut self, cs: impl IntoIterator<Item = El>) -> El {
        self.children.extend(cs);
        self
    }

    /// `<name>text</name>` as a child.
    pub fn leaf(self, name: &str, text: impl ToString) -> El {
        self.child(El::new(name).text(text))
    }

    /// The value of an attribute.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The first child called `name`.
    pub fn first(&self, name: &str) -> Option<&El> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child called `name`.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a El> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// Follows a path of child names.
    pub fn path(&self, names: &[&str]) -> Option<&El> {
        names.iter().try_fold(self, |e, n| e.first(n))
    }

    /// Every element of the tree (depth first, this one first).
    pub fn walk(&self) -> Vec<&El> {
        let mut out = vec![self];
        for c in &self.children {
            out.extend(c.walk());
        }
        out
    }

    fn write_to<W: std::io::Write>(&self, w: &mut Writer<W>) -> std::io::Result<()> {
        let mut start = BytesStart::new(self.name.as_str());
        for (k, v) in &self.attrs {
            start.push_attribute((k.as_str(), v.as_str()));
        }
        if self.children.is_empty() && self.text.is_empty() {
            return w.write_event(Event::Empty(start));
        }
        w.write_event(Event::Start(start.borrow()))?;
        if !self.text.is_empty() {
            w.write_event(Event::Text(BytesText::new(&self.text)))?;
        }
        for c in &self.children {
            c.write_to(w)?;
        }
        w.write_event(Event::End(start.to_end()))
    }

    /// The document: XML declaration, an optional comment, this element, indented.
    pub fn to_document(&self, comment: Option<&str>) -> Result<String, GazeboError> {
        let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
        let io = |e: std::io::Error| GazeboError::Xml(e.to_string());
        w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))
            .map_err(io)?;
        if let Some(c) = comment {
            // "--" may not appear inside a comment.
            let c = format!(" {} ", c.replace("--", "- -"));
            w.write_event(Event::Comment(BytesText::from_escaped(c.as_str())))
                .map_err(io)?;
        }
        self.write_to(&mut w).map_err(io)?;
        let mut out = String::from_utf8(w.into_inner())
            .map_err(|e| GazeboError::Xml(format!("not UTF-8: {e}")))?;
        out.push('\n');
        Ok(out)
    }

    /// Parses a document into its root element; `origin` names it in errors.
    pub fn parse(origin: &str, text: &str) -> Result<El, GazeboError> {
        let mut reader = Reader::from_str(text);
        let mut stack: Vec<El> = Vec::new();
        let mut root = None;
        let err = |pos: u64, m: String| GazeboError::Parse {
            origin: origin.into(),
            line: 1 + text.as_bytes()[..(pos as usize).min(text.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
            message: m,
        };
        loop {
            let pos = reader.buffer_position();
            let ev = reader.read_event().map_err(|e| err(pos, e.to_string()))?;
            match ev {
                Event::Start(s) | Event::Empty(s) if root.is_some() => {
                    let _ = s;
                    return Err(err(pos, "content after the root element".into()));
                }
                Event::Start(s) => stack.push(start_el(&s).map_err(|m| err(pos, m))?),
                Event::Empty(s) => {
                    let el = start_el(&s).map_err(|m| err(pos, m))?;
                    match stack.last_mut() {
                        Some(p) => p.children.push(el),
                        None => root = Some(el),
                    }
                }
                Event::Text(t) => {
                    let t = t.decode().map_err(|e| err(pos, e.to_string()))?;
                    match stack.last_mut() {
                        Some(top) => top.text.push_str(&t),
                        None if t.trim().is_empty() => {}
                        None => return Err(err(pos, "text outside the root element".into())),
                    }
                }
                Event::GeneralRef(r) => {
                    let name = r.decode().map_err(|e| err(pos, e.to_string()))?;
                    let t = quick_xml::escape::unescape(&format!("&{name};"))
                        .map_err(|e| err(pos, e.to_string()))?
                        .into_owned();
                    if let Some(top) = stack.last_mut() {
                        top.text.push_str(&t);
                    }
                }
                Event::End(_) => {
                    let mut el = stack
                        .pop()
                        .ok_or_else(|| err(pos, "unbalanced end tag".into()))?;
                    el.text = el.text.trim().to_string();
                    match stack.last_mut() {
                        Some(p) => p.children.push(el),
                        None => root = Some(el),
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        if !stack.is_empty() {
            return Err(err(text.len() as u64, "unclosed element".into()));
        }
        root.ok_or_else(|| err(0, "no root element".into()))
    }
}

fn start_el(s: &BytesStart) -> Result<El, String> {
    let name = String::from_utf8_lossy(s.name().as_ref()).into_owned();
    let mut el = El::new(&name);
    for a in s.attributes() {
        let a = a.map_err(|e| e.to_string())?;
        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
        let value = a.unescape_value().map_err(|e| e.to_string())?.into_owned();
        el.attrs.push((key, value));
    }
    Ok(el)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_escaping() {
        let doc = El::new("sdf")
            .attr("version", "1.9")
            .child(
                El::new("model")
                    .attr("name", "a<b&\"c\"")
                    .leaf("pose", "0 0 1 0 0 0"),
            )
            .leaf("text", "x < y & z")
            .child(El::new("empty"));
        let text = doc.to_document(Some("made -- by a test")).unwrap();
        assert!(text.contains("&lt;"));
        let back = El::parse("test", &text).unwrap();
        assert_eq!(back, doc);
    }

    #[test]
    fn malformed_input_is_an_error_with_a_line() {
        let e = El::parse("w.sdf", "<sdf>\n<world>\n</sdf>").unwrap_err();
        assert!(e.to_string().contains("w.sdf"), "{e}");
        assert!(El::parse("w.sdf", "").is_err());
    }
}
