//! Dropping data nothing references any more (the keys of an animation replaced by a re-bake):
//! unreferenced accessors, then unreferenced buffer views, then the bytes no view covers, so
//! re-baking into the same file does not grow it.
//!
//! Accessor references are found by key wherever they occur (`attributes` and morph `targets`
//! of primitives and extensions such as `EXT_mesh_gpu_instancing`, `indices`,
//! `inverseBindMatrices`, animation sampler `input` / `output`); view references by the key
//! `bufferView` anywhere.

use serde_json::{json, Value};

use super::Document;

/// A walk over the references of one kind, calling the closure on each.
type Visitor = fn(&mut Value, &mut dyn FnMut(&mut Value));

/// Visits every accessor reference in `v` (by key; see the module docs).
fn accessor_refs(v: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                match (k.as_str(), &mut *x) {
                    (
                        "indices" | "inverseBindMatrices" | "input" | "output",
                        n @ Value::Number(_),
                    ) => f(n),
                    ("attributes", Value::Object(a)) => a.values_mut().for_each(&mut *f),
                    ("targets", Value::Array(t)) => {
                        for target in t.iter_mut() {
                            if let Value::Object(a) = target {
                                a.values_mut().filter(|n| n.is_number()).for_each(&mut *f);
                            } else {
                                accessor_refs(target, f);
                            }
                        }
                    }
                    _ => accessor_refs(x, f),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| accessor_refs(x, f)),
        _ => {}
    }
}

/// Visits every `bufferView` reference in `v`.
fn view_refs(v: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                if k == "bufferView" && x.is_number() {
                    f(x);
                } else {
                    view_refs(x, f);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| view_refs(x, f)),
        _ => {}
    }
}

/// Old index to new index when the entries not `used` are removed (`usize::MAX`: removed).
fn renumbering(used: &[bool]) -> Vec<usize> {
    let mut next = 0;
    used.iter()
        .map(|&u| {
            if u {
                next += 1;
                next - 1
            } else {
                usize::MAX
            }
        })
        .collect()
}

/// Keeps the entries of `items` marked `used`.
fn retain_used(items: &mut Value, used: &[bool]) {
    if let Some(items) = items.as_array_mut() {
        let mut i = 0;
        items.retain(|_| {
            i += 1;
            used.get(i - 1).copied().unwrap_or(true)
        });
    }
}

/// Drops the entries of `json[key]` that `refs` never visits outside that array, renumbering
/// the references.
fn prune_array(json: &mut Value, key: &str, refs: Visitor) {
    let mut items = json[key].take();
    let count = items.as_array().map_or(0, Vec::len);
    let mut used = vec![false; count];
    refs(json, &mut |n| {
        if let Some(u) = n.as_u64().and_then(|i| used.get_mut(i as usize)) {
            *u = true;
        }
    });
    if used.iter().any(|u| !u) {
        let map = renumbering(&used);
        refs(json, &mut |n| {
            if let Some(&m) = n.as_u64().and_then(|i| map.get(i as usize)) {
                *n = json!(m);
            }
        });
        retain_used(&mut items, &used);
    }
    if count > 0 {
        json[key] = items;
    } else if let Some(o) = json.as_object_mut() {
        o.remove(key);
    }
}

impl Document {
    /// Drops unreferenced accessors and buffer views and the bytes no view covers.
    pub fn prune(&mut self) {
        if self.json.get("accessors").is_some() {
            prune_array(&mut self.json, "accessors", accessor_refs);
        }
        if self.json.get("bufferViews").is_some() {
            prune_array(&mut self.json, "bufferViews", view_refs);
        }
        self.compact_bin();
    }

    /// Rewrites `bin` with only the bytes the views cover, in view order (4-byte aligned).
    fn compact_bin(&mut self) {
        let Some(views) = self.json["bufferViews"].as_array_mut() else {
            self.bin.clear();
            return;
        };
        let mut bin = Vec::with_capacity(self.bin.len());
        for v in views.iter_mut() {
            let off = v["byteOffset"].as_u64().unwrap_or(0) as usize;
            let len = v["byteLength"].as_u64().unwrap_or(0) as usize;
            let Some(bytes) = self.bin.get(off..off + len) else {
                continue; // out of range: left for the writer's validation
            };
            bin.resize(bin.len().next_multiple_of(4), 0);
            let at = bin.len();
            bin.extend_from_slice(bytes);
            if at == 0 {
                if let Some(o) = v.as_object_mut() {
                    o.remove("byteOffset");
                }
            } else {
                v["byteOffset"] = json!(at);
            }
        }
        self.bin = bin;
    }
}
