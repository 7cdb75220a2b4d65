//! Reading glTF JSON objects field by field, with errors in glTF words: every problem names the
//! JSON path (`accessors[3].sparse.count`) and says what the glTF schema wants there
//! ("required property is missing", "must be a non-negative integer, not the string \"x\""),
//! never the JSON parser's types.

use serde_json::{Map, Value};

use crate::error::{Fault, FaultResult};

/// The largest integer a JSON number written as a float (`1.0`) stands for exactly.
const MAX_EXACT_INTEGER: f64 = 9_007_199_254_740_992.0; // 2^53

/// What a JSON value is, in words, for error messages (`the string "x"`, `an array`).
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() > 40 => "a string".to_string(),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

/// A JSON number as a non-negative integer: `3` or `3.0` (glTF writers sometimes write
/// integers as floats), not `3.5`, `-1` or `1e300`.
pub(crate) fn as_uint(value: &Value) -> Option<u64> {
    if let Some(u) = value.as_u64() {
        return Some(u);
    }
    let f = value.as_f64()?;
    (f >= 0.0 && f.fract() == 0.0 && f <= MAX_EXACT_INTEGER).then_some(f as u64)
}

/// One JSON object of the glTF document, and its path.
#[derive(Clone)]
pub(crate) struct Obj<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Obj<'a> {
    /// `value` at `path` as an object; an error naming the path when it is something else.
    pub fn new(value: &'a Value, path: impl Into<String>) -> FaultResult<Self> {
        match value {
            Value::Object(map) => Ok(Obj {
                map,
                path: path.into(),
            }),
            other => Err(Fault::new(
                path,
                format!("must be a JSON object, not {}", describe(other)),
            )),
        }
    }

    /// The path of a member.
    pub fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// The object's own path (`meshes[0]`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The object's own members, in file order.
    pub fn entries(&self) -> Vec<(&'a str, &'a Value)> {
        self.map.iter().map(|(k, v)| (k.as_str(), v)).collect()
    }

    /// A member, `None` when absent (JSON `null` counts as absent).
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// Whether the member is present.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    fn wrong(&self, key: &str, wanted: &str, found: &Value) -> Fault {
        Fault::new(
            self.at(key),
            format!("must be {wanted}, not {}", describe(found)),
        )
    }

    fn missing(&self, key: &str) -> Fault {
        Fault::new(self.at(key), "required property is missing")
    }

    /// An optional non-negative integer.
    pub fn uint(&self, key: &str) -> FaultResult<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => as_uint(v)
                .map(Some)
                .ok_or_else(|| self.wrong(key, "a non-negative integer", v)),
        }
    }

    /// A required non-negative integer.
    pub fn req_uint(&self, key: &str) -> FaultResult<u64> {
        self.uint(key)?.ok_or_else(|| self.missing(key))
    }

    /// An optional index into a top-level array.
    pub fn index(&self, key: &str) -> FaultResult<Option<usize>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => as_uint(v)
                .and_then(|u| usize::try_from(u).ok())
                .map(Some)
                .ok_or_else(|| self.wrong(key, "an index (a non-negative integer)", v)),
        }
    }

    /// A required index into a top-level array.
    pub fn req_index(&self, key: &str) -> FaultResult<usize> {
        self.index(key)?.ok_or_else(|| self.missing(key))
    }

    /// An optional string.
    pub fn string(&self, key: &str) -> FaultResult<Option<&'a str>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(self.wrong(key, "a string", v)),
        }
    }

    /// A required string.
    pub fn req_string(&self, key: &str) -> FaultResult<&'a str> {
        self.string(key)?.ok_or_else(|| self.missing(key))
    }

    /// An optional boolean.
    pub fn boolean(&self, key: &str) -> FaultResult<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(self.wrong(key, "true or false", v)),
        }
    }

    /// An optional finite number (as f32).
    pub fn float(&self, key: &str) -> FaultResult<Option<f32>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let x = v.as_f64().ok_or_else(|| self.wrong(key, "a number", v))?;
        let f = x as f32;
        if !f.is_finite() {
            return Err(crate::error::Fault::new(
                self.at(key),
                format!("{x} is not a finite 32-bit number"),
            ));
        }
        Ok(Some(f))
    }

    /// An optional array of exactly `N` finite numbers (as f32).
    pub fn floats<const N: usize>(&self, key: &str) -> FaultResult<Option<[f32; N]>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let wanted = format!("an array of {N} numbers");
        let items = match v {
            Value::Array(items) if items.len() == N => items,
            Value::Array(items) => {
                return Err(Fault::new(
                    self.at(key),
                    format!("must be {wanted}, not {}", items.len()),
                ))
            }
            other => return Err(self.wrong(key, &wanted, other)),
        };
        let mut out = [0.0f32; N];
        for (i, (slot, item)) in out.iter_mut().zip(items).enumerate() {
            let x = item
                .as_f64()
                .ok_or_else(|| self.wrong(&format!("{key}[{i}]"), "a number", item))?;
            *slot = x as f32;
            if !slot.is_finite() {
                return Err(Fault::new(
                    format!("{}[{i}]", self.at(key)),
                    format!("{x} is not a finite 32-bit number"),
                ));
            }
        }
        Ok(Some(out))
    }

    /// An optional array of any number of finite numbers (as f32).
    pub fn float_list(&self, key: &str) -> FaultResult<Option<Vec<f32>>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let Value::Array(items) = v else {
            return Err(self.wrong(key, "an array of numbers", v));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let x = item
                .as_f64()
                .ok_or_else(|| self.wrong(&format!("{key}[{i}]"), "a number", item))?;
            let f = x as f32;
            if !f.is_finite() {
                return Err(Fault::new(
                    format!("{}[{i}]", self.at(key)),
                    format!("{x} is not a finite 32-bit number"),
                ));
            }
            out.push(f);
        }
        Ok(Some(out))
    }

    /// An optional array of indices (absent: empty).
    pub fn indices(&self, key: &str) -> FaultResult<Vec<usize>> {
        let items = self.array(key)?;
        items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                as_uint(v)
                    .and_then(|u| usize::try_from(u).ok())
                    .ok_or_else(|| {
                        self.wrong(
                            &format!("{key}[{i}]"),
                            "an index (a non-negative integer)",
                            v,
                        )
                    })
            })
            .collect()
    }

    /// An optional array (absent: empty).
    pub fn array(&self, key: &str) -> FaultResult<&'a [Value]> {
        match self.get(key) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(v) => Err(self.wrong(key, "an array", v)),
        }
    }

    /// The elements of an optional array (absent: none), each read as an object at
    /// `key[i]`.
    pub fn objects(&self, key: &str) -> FaultResult<Vec<Obj<'a>>> {
        let base = self.at(key);
        self.array(key)?
            .iter()
            .enumerate()
            .map(|(i, v)| Obj::new(v, format!("{base}[{i}]")))
            .collect()
    }

    /// An optional member read as an object.
    pub fn object(&self, key: &str) -> FaultResult<Option<Obj<'a>>> {
        self.get(key).map(|v| Obj::new(v, self.at(key))).transpose()
    }

    /// A required member read as an object.
    pub fn req_object(&self, key: &str) -> FaultResult<Obj<'a>> {
        self.object(key)?.ok_or_else(|| self.missing(key))
    }

    /// The members of an optional object (absent: none), in file order.
    pub fn members(&self, key: &str) -> FaultResult<Vec<(&'a str, &'a Value)>> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Object(map)) => Ok(map.iter().map(|(k, v)| (k.as_str(), v)).collect()),
            Some(v) => Err(self.wrong(key, "a JSON object", v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Integers written as floats are integers; fractions, negatives and huge floats are not.
    #[test]
    fn integers() {
        assert_eq!(as_uint(&json!(3)), Some(3));
        assert_eq!(as_uint(&json!(1.0)), Some(1));
        assert_eq!(as_uint(&json!(1.5)), None);
        assert_eq!(as_uint(&json!(-1)), None);
        assert_eq!(as_uint(&json!(1e300)), None);
        assert_eq!(as_uint(&json!("1")), None);
    }

    /// Errors name the member's path and say what the schema wants, in glTF words.
    #[test]
    fn errors_in_gltf_words() {
        let v = json!({"count": "x", "byteLength": 1.0, "min": [1, 2], "t": [1, "a", 3],
                       "big": [1e39, 0, 0], "empty": null});
        let o = Obj::new(&v, "accessors[3]").unwrap();
        assert_eq!(
            o.req_uint("count").unwrap_err().to_string(),
            "accessors[3].count: must be a non-negative integer, not the string \"x\""
        );
        assert_eq!(o.req_uint("byteLength"), Ok(1));
        assert_eq!(
            o.req_index("bufferView").unwrap_err().to_string(),
            "accessors[3].bufferView: required property is missing"
        );
        assert_eq!(o.index("empty"), Ok(None));
        assert_eq!(
            o.floats::<3>("min").unwrap_err().to_string(),
            "accessors[3].min: must be an array of 3 numbers, not 2"
        );
        assert_eq!(
            o.floats::<3>("t").unwrap_err().to_string(),
            "accessors[3].t[1]: must be a number, not the string \"a\""
        );
        assert!(o.floats::<3>("big").unwrap_err().path.ends_with("big[0]"));
        let not = json!([1, 2]);
        assert_eq!(
            Obj::new(&not, "nodes[0]").err().map(|f| f.to_string()),
            Some("nodes[0]: must be a JSON object, not an array".to_string())
        );
    }
}
