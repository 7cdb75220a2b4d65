//! Where in the glTF JSON a parse error is: the byte offset (serde_json only gives a line and
//! column, useless in minified JSON) and the enclosing JSON path (`nodes[2].mesh`), found by
//! scanning the text up to that byte.

/// The error for `e`, a parse error of `json` (at byte `base` of `file`): `Invalid` with the
/// enclosing JSON path when there is one, else `Json`.
pub(crate) fn json_error(
    file: &str,
    e: &serde_json::Error,
    json: &[u8],
    base: usize,
) -> crate::GltfError {
    let l = locate(e, json, base);
    let message = format!("not valid glTF JSON: {}", l.message);
    match l.path {
        Some(path) => crate::GltfError::Invalid {
            file: file.to_string(),
            path,
            message,
        },
        None => crate::GltfError::Json {
            file: file.to_string(),
            message,
        },
    }
}

/// A JSON parse error located in the file.
pub(crate) struct Located {
    /// The enclosing glTF JSON path (`None` at the top level).
    pub path: Option<String>,
    /// What is wrong and where: `invalid type: ..., expected u32 (at byte 345)`.
    pub message: String,
}

/// Locates `e`, an error parsing `json`, which starts at byte `base` of the file (20 in a GLB,
/// 3 after a byte order mark).
pub(crate) fn locate(e: &serde_json::Error, json: &[u8], base: usize) -> Located {
    let text = e.to_string();
    let what = match text.rfind(" at line ") {
        Some(i) if e.line() > 0 => &text[..i],
        _ => text.as_str(),
    };
    if e.line() == 0 {
        return Located {
            path: None,
            message: what.to_string(),
        };
    }
    let offset = if e.classify() == serde_json::error::Category::Eof {
        json.len()
    } else {
        byte_offset(json, e.line(), e.column())
    };
    let at = if json.contains(&b'\n') {
        format!(
            "at byte {}, line {} column {}",
            base + offset,
            e.line(),
            e.column()
        )
    } else {
        format!("at byte {}", base + offset)
    };
    Located {
        path: path_at(json, offset),
        message: format!("{what} ({at})"),
    }
}

/// The 0-based byte of 1-based `line` and `column` (serde_json counts bytes), clamped to the
/// text.
fn byte_offset(json: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match json[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(json.len())
}

/// One open container while scanning.
enum Frame {
    /// An object: the current key, and whether its value has started.
    Object(Option<String>, bool),
    /// An array: the index of the current element.
    Array(usize),
}

/// The JSON path of the innermost value enclosing byte `offset` (the byte itself not scanned,
/// so an error just past a closing brace is in that object), or `None` at the top level.
fn path_at(json: &[u8], offset: usize) -> Option<String> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < offset.min(json.len()) {
        match json[i] {
            b'{' => stack.push(Frame::Object(None, false)),
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b':' => {
                if let Some(Frame::Object(_, value)) = stack.last_mut() {
                    *value = true;
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(key, value)) => {
                    *key = None;
                    *value = false;
                }
                None => {}
            },
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < json.len() && json[i] != b'"' {
                    i += if json[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Frame::Object(key, false)) = stack.last_mut() {
                    let end = i.min(json.len());
                    *key = Some(String::from_utf8_lossy(&json[start..end]).into_owned());
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Array(n) => path.push_str(&format!("[{n}]")),
            Frame::Object(Some(key), true) => {
                let plain =
                    !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
                if !plain {
                    path.push_str(&format!("[\"{key}\"]"));
                } else if path.is_empty() {
                    path.push_str(key);
                } else {
                    path.push('.');
                    path.push_str(key);
                }
            }
            Frame::Object(..) => {}
        }
    }
    (!path.is_empty()).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn located(json: &str) -> (Option<String>, String) {
        let e = match serde_json::from_str::<serde_json::Value>(json) {
            Err(e) => e,
            Ok(_) => panic!("{json} parsed"),
        };
        let l = locate(&e, json.as_bytes(), 0);
        (l.path, l.message)
    }

    /// Paths name array indices and keys; quoted keys with odd characters are bracketed.
    #[test]
    fn paths() {
        let p = |s: &str| path_at(s.as_bytes(), s.len());
        assert_eq!(
            p(r#"{"nodes":[{},{"mesh":"#).as_deref(),
            Some("nodes[1].mesh")
        );
        assert_eq!(
            p(r#"{"a":{"POS ITION":[1,"#).as_deref(),
            Some("a[\"POS ITION\"][1]")
        );
        assert_eq!(p(r#"{"a":"x\"}","b":"#).as_deref(), Some("b"));
        assert_eq!(p(r#"{"a":1,"#), None);
    }

    /// A syntax error in minified JSON gives the byte and the enclosing path; in multi-line
    /// JSON the line and column too.
    #[test]
    fn syntax_errors() {
        let (path, msg) = located(r#"{"nodes":[{"name":"a"},{"name":"b",}]}"#);
        assert_eq!(path.as_deref(), Some("nodes[1]"));
        assert_eq!(msg, "trailing comma (at byte 35)");
        let (path, msg) = located("{\n \"nodes\": [1,\n  x]}");
        assert_eq!(path.as_deref(), Some("nodes[1]"));
        assert_eq!(msg, "expected value (at byte 18, line 3 column 3)");
    }
}
