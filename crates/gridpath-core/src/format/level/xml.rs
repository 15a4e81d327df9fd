//! A small XML element tree over `quick-xml` events, for `.tmx` and `.tsx` files: elements
//! with their attributes, children and text, and the line each starts on.

use quick_xml::events::{BytesStart, Event};

use super::LevelError;

/// The most nested elements accepted (a `.tmx` nests a handful, plus its group layers).
const MAX_DEPTH: usize = 256;

/// One element.
#[derive(Clone, Debug, Default)]
pub struct Element {
    /// Its name.
    pub name: String,
    /// Its attributes, in order.
    pub attributes: Vec<(String, String)>,
    /// Its child elements.
    pub children: Vec<Element>,
    /// Its text and CDATA, joined.
    pub text: String,
    /// The 1-based line it starts on.
    pub line: usize,
    /// How many empty `<tile>` children a `<data>` or `<chunk>` had; their `gid`s (0 when
    /// absent) stand in [`text`](Self::text), each followed by a comma.
    pub tiles: usize,
}

impl Element {
    /// An attribute's value.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The children of one name.
    pub fn children<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The first child of one name.
    pub fn child<'a>(&'a self, name: &'a str) -> Option<&'a Element> {
        self.children(name).next()
    }
}

/// Parses a whole document into its root element.
pub fn parse(text: &str) -> Result<Element, LevelError> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut lines = Lines::new(text);
    let mut stack: Vec<Element> = Vec::new();
    let mut root = None;
    loop {
        let at = lines.line_at(reader.buffer_position());
        let event = reader.read_event().map_err(|e| LevelError::Xml {
            line: lines.line_at(reader.error_position()),
            message: crate::format::shorten(&e.to_string(), crate::format::MAX_PARSER_MESSAGE),
        })?;
        let bad = |message: String| LevelError::Xml { line: at, message };
        match event {
            Event::Start(e) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(bad(format!("elements nested more than {MAX_DEPTH} deep")));
                }
                stack.push(element(&e, at).map_err(bad)?);
            }
            Event::Empty(e) => {
                // The `<tile gid="…"/>` of a layer's data in XML are kept as the parent's
                // CSV text, not as elements: a few bytes each instead of a whole element.
                if let Some(parent) = stack.last_mut()
                    && e.name().as_ref() == b"tile"
                    && (parent.name == "data" || parent.name == "chunk")
                {
                    let gid = e
                        .try_get_attribute("gid")
                        .map_err(|e| bad(e.to_string()))?
                        .map(|a| String::from_utf8_lossy(&a.value).into_owned());
                    parent.text.push_str(gid.as_deref().unwrap_or("0"));
                    parent.text.push(',');
                    parent.tiles += 1;
                    continue;
                }
                let element = element(&e, at).map_err(bad)?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(element),
                    None => root = Some(element),
                }
            }
            Event::End(_) => {
                let Some(done) = stack.pop() else {
                    return Err(bad("a closing tag without an opening one".to_owned()));
                };
                match stack.last_mut() {
                    Some(parent) => parent.children.push(done),
                    None => root = Some(done),
                }
            }
            Event::Text(t) => {
                if let Some(current) = stack.last_mut() {
                    let text = t.decode().map_err(|e| bad(e.to_string()))?;
                    current.text.push_str(&text);
                }
            }
            Event::CData(t) => {
                if let Some(current) = stack.last_mut() {
                    let text = t.decode().map_err(|e| bad(e.to_string()))?;
                    current.text.push_str(&text);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !stack.is_empty() {
        return Err(LevelError::Xml {
            line: lines.line_at(text.len() as u64),
            message: format!(
                "the element <{}> is not closed",
                stack[stack.len() - 1].name
            ),
        });
    }
    root.ok_or_else(|| LevelError::Xml {
        line: 1,
        message: "no root element".to_owned(),
    })
}

/// The 1-based line of a byte offset, counted on from the last offset asked for, so that a
/// document read front to back has its newlines counted once (not once for every element).
struct Lines<'a> {
    /// The document.
    text: &'a [u8],
    /// The offset counted up to.
    offset: usize,
    /// The line at `offset`.
    line: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text: text.as_bytes(),
            offset: 0,
            line: 1,
        }
    }

    /// The line `offset` stands on; an offset before the last one asked for counts again from
    /// the start (the parser's error positions may lie behind its read position).
    fn line_at(&mut self, offset: u64) -> usize {
        let offset = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.text.len());
        if offset < self.offset {
            self.offset = 0;
            self.line = 1;
        }
        self.line += self.text[self.offset..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.offset = offset;
        self.line
    }
}

fn element(start: &BytesStart<'_>, line: usize) -> Result<Element, String> {
    let name = String::from_utf8_lossy(start.name().as_ref()).into_owned();
    let mut attributes = Vec::new();
    for attribute in start.attributes() {
        let attribute = attribute.map_err(|e| e.to_string())?;
        let key = String::from_utf8_lossy(attribute.key.as_ref()).into_owned();
        let value = attribute
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map_err(|e| e.to_string())?;
        attributes.push((key, value.into_owned()));
    }
    Ok(Element {
        name,
        attributes,
        children: Vec::new(),
        text: String::new(),
        line,
        tiles: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_attributes_text_and_lines() {
        let root = parse(
            "<?xml version=\"1.0\"?>\n<map a=\"1 &amp; 2\">\n <data>1,2</data>\n <x/>\n</map>",
        )
        .unwrap();
        assert_eq!(root.name, "map");
        assert_eq!(root.attribute("a"), Some("1 & 2"));
        assert_eq!(root.child("data").unwrap().text, "1,2");
        assert_eq!(root.child("data").unwrap().line, 3);
        assert_eq!(root.children.len(), 2);
    }

    #[test]
    fn malformed_xml_names_the_line() {
        let e = parse("<map>\n<data>\n</map>").unwrap_err();
        assert!(matches!(e, LevelError::Xml { line: 3, .. }), "{e}");
        let deep = "<a>".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).is_err());
        assert!(parse("").is_err());
    }
}
