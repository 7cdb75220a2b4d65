//! Reading the typed glTF JSON ([`super::schema`]) from the document, each part with [`Obj`] so
//! a problem names its JSON path, then checking its references ([`super::schema_refs`]).

use serde_json::Value;

use super::json_obj::Obj;
use super::schema::{
    Accessor, Animation, Buffer, Channel, Mesh, Node, Primitive, Root, Sampler, Skin, Sparse, View,
};
use super::schema_refs::check;
use crate::error::{Fault, FaultResult};

/// Every element of the top-level array `key`, read by `read`.
fn all<T>(
    o: &Obj<'_>,
    key: &str,
    read: impl FnMut(Obj<'_>) -> FaultResult<T>,
) -> FaultResult<Vec<T>> {
    o.objects(key)?.into_iter().map(read).collect()
}

fn name(o: &Obj<'_>) -> FaultResult<Option<String>> {
    Ok(o.string("name")?.map(str::to_string))
}

fn accessor(o: Obj<'_>) -> FaultResult<Accessor> {
    let buffer_view = o.index("bufferView")?;
    let byte_offset = o.uint("byteOffset")?;
    if buffer_view.is_none() && byte_offset.is_some() {
        return Err(Fault::new(
            o.at("byteOffset"),
            "is set but the accessor has no bufferView to offset into",
        ));
    }
    let component_type = o.req_uint("componentType")?;
    let normalized = o.boolean("normalized")?.unwrap_or(false);
    if normalized && matches!(component_type, 5125 | 5126) {
        return Err(Fault::new(
            o.at("normalized"),
            "is true, but only BYTE, UNSIGNED_BYTE, SHORT and UNSIGNED_SHORT accessors can be \
             normalized",
        ));
    }
    let count = o.req_uint("count")?;
    let sparse = match o.object("sparse")? {
        None => None,
        Some(s) => {
            let indices = s.req_object("indices")?;
            let values = s.req_object("values")?;
            let sparse_count = s.req_uint("count")?;
            if sparse_count > count {
                return Err(Fault::new(
                    s.at("count"),
                    format!("is {sparse_count}, more than the accessor's {count} elements"),
                ));
            }
            Some(Sparse {
                count: sparse_count,
                indices: (
                    indices.req_index("bufferView")?,
                    indices.uint("byteOffset")?.unwrap_or(0),
                    indices.req_uint("componentType")?,
                ),
                values: (
                    values.req_index("bufferView")?,
                    values.uint("byteOffset")?.unwrap_or(0),
                ),
            })
        }
    };
    Ok(Accessor {
        buffer_view,
        byte_offset: byte_offset.unwrap_or(0),
        component_type,
        normalized,
        count,
        kind: o.req_string("type")?.to_string(),
        sparse,
    })
}

fn view(o: Obj<'_>, warnings: &mut Vec<String>) -> FaultResult<View> {
    let byte_length = o.req_uint("byteLength")?;
    if byte_length == 0 {
        return Err(Fault::new(
            o.at("byteLength"),
            "is 0; a buffer view holds at least 1 byte",
        ));
    }
    let byte_stride = o.uint("byteStride")?;
    if let Some(s) = byte_stride {
        if !(4..=252).contains(&s) || s % 4 != 0 {
            warnings.push(format!(
                "{}: {s} is not a multiple of 4 from 4 to 252, as glTF requires; read as written",
                o.at("byteStride")
            ));
        } else if s > byte_length {
            warnings.push(format!(
                "{}: {s} is more than the view's byteLength {byte_length}; read as written",
                o.at("byteStride")
            ));
        }
    }
    Ok(View {
        buffer: o.req_index("buffer")?,
        byte_offset: o.uint("byteOffset")?.unwrap_or(0),
        byte_length,
        byte_stride,
    })
}

fn buffer(o: Obj<'_>, warnings: &mut Vec<String>) -> FaultResult<Buffer> {
    let byte_length = o.req_uint("byteLength")?;
    if byte_length == 0 {
        warnings.push(format!(
            "{}: is 0; a glTF buffer holds at least 1 byte",
            o.at("byteLength")
        ));
    }
    Ok(Buffer {
        uri: o.string("uri")?.map(str::to_string),
        byte_length,
    })
}

fn node(o: Obj<'_>) -> FaultResult<Node> {
    Ok(Node {
        name: name(&o)?,
        children: o.indices("children")?,
        matrix: o.floats("matrix")?,
        translation: o.floats("translation")?,
        rotation: o.floats("rotation")?,
        scale: o.floats("scale")?,
        mesh: o.index("mesh")?,
        skin: o.index("skin")?,
        weights: o.float_list("weights")?,
    })
}

fn skin(o: Obj<'_>) -> FaultResult<Skin> {
    if !o.has("joints") {
        return Err(Fault::new(o.at("joints"), "required property is missing"));
    }
    Ok(Skin {
        name: name(&o)?,
        joints: o.indices("joints")?,
        inverse_bind_matrices: o.index("inverseBindMatrices")?,
    })
}

fn mesh(o: Obj<'_>, warnings: &mut Vec<String>) -> FaultResult<Mesh> {
    if !o.has("primitives") {
        return Err(Fault::new(
            o.at("primitives"),
            "required property is missing",
        ));
    }
    let mut primitives = Vec::new();
    for p in o.objects("primitives")? {
        if !p.has("attributes") {
            return Err(Fault::new(
                p.at("attributes"),
                "required property is missing",
            ));
        }
        let attributes = attribute_map(&p, "attributes")?;
        let mut targets = Vec::new();
        for target in p.objects("targets")? {
            let mut attrs = Vec::new();
            for (key, value) in target.entries() {
                let path = format!("{}[\"{key}\"]", target.path());
                attrs.push((key.to_string(), attribute_index(&path, value)?));
            }

            targets.push(attrs);
        }
        primitives.push(Primitive {
            attributes,
            indices: p.index("indices")?,
            material: p.index("material")?,
            mode: p.uint("mode")?.unwrap_or(4),
            targets,
        });
    }
    Ok(Mesh {
        name: name(&o)?,
        primitives,
        weights: o.float_list("weights")?,
        target_names: target_names(&o, warnings),
    })
}

/// An attribute map (`attributes`): names to accessor indices, in file order.
fn attribute_map(p: &Obj<'_>, key: &str) -> FaultResult<Vec<(String, usize)>> {
    let mut attributes = Vec::new();
    for (name, value) in p.members(key)? {
        let path = format!("{}[\"{name}\"]", p.at(key));
        attributes.push((name.to_string(), attribute_index(&path, value)?));
    }
    Ok(attributes)
}

/// One attribute's accessor index.
fn attribute_index(path: &str, value: &Value) -> FaultResult<usize> {
    super::json_obj::as_uint(value)
        .and_then(|u| usize::try_from(u).ok())
        .ok_or_else(|| {
            Fault::new(
                path,
                format!(
                    "must be an index (a non-negative integer), not {}",
                    super::json_obj::describe(value)
                ),
            )
        })
}

/// `extras.targetNames` when it is an array of strings (what Blender and three.js write);
/// anything else there is not the file's fault (extras are free-form) and is ignored with a
/// warning, the targets then named `target<k>`.
fn target_names(o: &Obj<'_>, warnings: &mut Vec<String>) -> Option<Vec<String>> {
    let names = o.get("extras")?.get("targetNames")?;
    let list = names.as_array().and_then(|items| {
        items
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
    });
    if list.is_none() {
        warnings.push(format!(
            "{}.extras.targetNames: not an array of strings; ignored (targets named target0, \
             target1, ...)",
            o.path()
        ));
    }
    list
}

fn animation(o: Obj<'_>) -> FaultResult<Animation> {
    for key in ["channels", "samplers"] {
        if !o.has(key) {
            return Err(Fault::new(o.at(key), "required property is missing"));
        }
    }
    let mut channels = Vec::new();
    for c in o.objects("channels")? {
        let target = c.req_object("target")?;
        channels.push(Channel {
            sampler: c.req_index("sampler")?,
            node: target.index("node")?,
            path: target.req_string("path")?.to_string(),
        });
    }
    let mut samplers = Vec::new();
    for s in o.objects("samplers")? {
        samplers.push(Sampler {
            input: s.req_index("input")?,
            output: s.req_index("output")?,
            interpolation: s.string("interpolation")?.unwrap_or("LINEAR").to_string(),
        });
    }
    Ok(Animation {
        name: name(&o)?,
        channels,
        samplers,
    })
}

/// Reads the typed document from the glTF JSON (an object: the caller checks). Problems that
/// do not stop reading become `warnings`.
pub(crate) fn parse(json: Value, warnings: &mut Vec<String>) -> FaultResult<Root> {
    let o = Obj::new(&json, "")?;
    let root = Root {
        accessors: all(&o, "accessors", accessor)?,
        buffer_views: all(&o, "bufferViews", |v| view(v, warnings))?,
        buffers: all(&o, "buffers", |b| buffer(b, warnings))?,
        nodes: all(&o, "nodes", node)?,
        skins: all(&o, "skins", skin)?,
        meshes: all(&o, "meshes", |m| mesh(m, warnings))?,
        animations: all(&o, "animations", animation)?,
        json: Value::Null,
    };
    check(&root)?;
    Ok(Root { json, ..root })
}
