//! A small, bounds-checked accessor reader over the glTF JSON (dense and sparse accessors,
//! strides, normalised integers). Types and component types are checked against what each use
//! allows before any byte is read, so malformed files give errors naming the glTF path.

use gltf::json::accessor::{ComponentType, Type};
use gltf::json::validation::Checked;

use super::container::{view_bytes, Parsed};
use crate::io::error::{Fault, FaultResult};

/// Accessors without a buffer view are zero-filled; refuse absurd sizes instead of allocating.
const MAX_ZERO_FILLED_BYTES: u64 = 1 << 30;

/// The glTF spelling of a component type, with its enum value.
pub(crate) fn component_name(c: ComponentType) -> String {
    let name = match c {
        ComponentType::I8 => "BYTE",
        ComponentType::U8 => "UNSIGNED_BYTE",
        ComponentType::I16 => "SHORT",
        ComponentType::U16 => "UNSIGNED_SHORT",
        ComponentType::U32 => "UNSIGNED_INT",
        ComponentType::F32 => "FLOAT",
    };
    format!("{name} ({})", c.as_gl_enum())
}

fn type_name(t: Type) -> &'static str {
    match t {
        Type::Scalar => "SCALAR",
        Type::Vec2 => "VEC2",
        Type::Vec3 => "VEC3",
        Type::Vec4 => "VEC4",
        Type::Mat2 => "MAT2",
        Type::Mat3 => "MAT3",
        Type::Mat4 => "MAT4",
    }
}

fn components(t: Type) -> usize {
    match t {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 | Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

/// Decodes a normalised integer exactly as glTF 2.0 specifies (section 3.11).
pub(crate) fn decode_normalized(component: ComponentType, bytes: &[u8]) -> f32 {
    match component {
        ComponentType::I8 => (bytes[0] as i8 as f32 / 127.0).max(-1.0),
        ComponentType::U8 => bytes[0] as f32 / 255.0,
        ComponentType::I16 => (i16::from_le_bytes([bytes[0], bytes[1]]) as f32 / 32767.0).max(-1.0),
        ComponentType::U16 => u16::from_le_bytes([bytes[0], bytes[1]]) as f32 / 65535.0,
        ComponentType::U32 => {
            u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f32 / u32::MAX as f32
        }
        ComponentType::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
    }
}

fn decode_uint(component: ComponentType, bytes: &[u8]) -> u32 {
    match component {
        ComponentType::I8 | ComponentType::U8 => bytes[0] as u32,
        ComponentType::I16 | ComponentType::U16 => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        ComponentType::U32 | ComponentType::F32 => {
            u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
        }
    }
}

/// An accessor's header, checked against what a use allows.
struct Header {
    index: usize,
    kind: Type,
    component: ComponentType,
    normalized: bool,
    count: usize,
}

fn header(doc: &Parsed, index: usize, path: &str) -> FaultResult<Header> {
    let a = doc.root.accessors.get(index).ok_or_else(|| {
        Fault::new(
            path,
            format!(
                "accessor {index} does not exist (the file has {})",
                doc.root.accessors.len()
            ),
        )
    })?;
    let (Checked::Valid(kind), Checked::Valid(component)) = (a.type_, a.component_type) else {
        return Err(Fault::new(
            path,
            format!("accessor {index} has an invalid type"),
        ));
    };
    let count = usize::try_from(a.count.0)
        .map_err(|_| Fault::new(path, format!("accessor {index} count is too large")))?;
    Ok(Header {
        index,
        kind,
        component: component.0,
        normalized: a.normalized,
        count,
    })
}

fn check_type(h: &Header, path: &str, what: &str, kinds: &[Type]) -> FaultResult<()> {
    if kinds.contains(&h.kind) {
        return Ok(());
    }
    let allowed: Vec<&str> = kinds.iter().map(|&k| type_name(k)).collect();
    Err(Fault::new(
        path,
        format!(
            "accessor {} has type {}; {what} must be {}",
            h.index,
            type_name(h.kind),
            allowed.join(" or ")
        ),
    ))
}

fn wrong_component(h: &Header, path: &str, what: &str, allowed: &str) -> Fault {
    Fault::new(
        path,
        format!(
            "accessor {} has componentType {}{}; {what} must be {allowed}",
            h.index,
            component_name(h.component),
            if h.normalized { " normalized" } else { "" },
        ),
    )
}

/// Reads a float accessor of the given type(s), returning its components flattened.
///
/// With `allow_normalized`, the integer component types BYTE..UNSIGNED_SHORT with
/// `normalized: true` are accepted and decoded per spec.
pub(crate) fn read_floats(
    doc: &Parsed,
    index: usize,
    path: &str,
    what: &str,
    kinds: &[Type],
    allow_normalized: bool,
) -> FaultResult<(Vec<f32>, usize)> {
    let h = header(doc, index, path)?;
    check_type(&h, path, what, kinds)?;
    let ok = match h.component {
        ComponentType::F32 => true,
        ComponentType::U32 => false,
        _ => allow_normalized && h.normalized,
    };
    if !ok {
        let allowed = if allow_normalized {
            "FLOAT or a normalized BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT"
        } else {
            "FLOAT (5126)"
        };
        let mut fault = wrong_component(&h, path, what, allowed);
        if allow_normalized && !h.normalized && h.component != ComponentType::U32 {
            fault
                .message
                .push_str(" (set \"normalized\": true on the accessor)");
        }
        return Err(fault);
    }
    let bytes = gather(doc, &h, path)?;
    let size = h.component.size();
    let values = bytes
        .chunks_exact(size)
        .map(|c| decode_normalized(h.component, c))
        .collect();
    Ok((values, h.count))
}

/// Reads an unsigned-integer accessor of one type whose component type is one of `allowed`.
pub(crate) fn read_uints(
    doc: &Parsed,
    index: usize,
    path: &str,
    what: &str,
    kind: Type,
    allowed: &[ComponentType],
) -> FaultResult<(Vec<u32>, usize)> {
    let h = header(doc, index, path)?;
    check_type(&h, path, what, &[kind])?;
    if !allowed.contains(&h.component) {
        let names: Vec<String> = allowed.iter().map(|&c| component_name(c)).collect();
        return Err(wrong_component(&h, path, what, &names.join(" or ")));
    }
    let bytes = gather(doc, &h, path)?;
    let size = h.component.size();
    let values = bytes
        .chunks_exact(size)
        .map(|c| decode_uint(h.component, c))
        .collect();
    Ok((values, h.count))
}

/// Copies the accessor's elements, tightly packed, applying sparse substitution.
fn gather(doc: &Parsed, h: &Header, path: &str) -> FaultResult<Vec<u8>> {
    if matches!(h.kind, Type::Mat2 | Type::Mat3) && h.component.size() < 4 {
        return Err(Fault::new(
            path,
            format!(
                "accessor {}: padded small-component MAT2/MAT3 is not supported",
                h.index
            ),
        ));
    }
    let a = &doc.root.accessors[h.index];
    let elem = components(h.kind) * h.component.size();
    let total = (h.count as u64).saturating_mul(elem as u64);
    let mut out = match a.buffer_view {
        Some(view) => {
            let bytes = view_bytes(doc, view.value(), path)?;
            let stride = match doc.root.buffer_views[view.value()].byte_stride {
                Some(s) if s.0 < elem => {
                    return Err(Fault::new(
                        format!("bufferViews[{}].byteStride", view.value()),
                        format!(
                            "stride {} is smaller than the {elem}-byte elements of accessor {}",
                            s.0, h.index
                        ),
                    ))
                }
                Some(s) => s.0,
                None => elem,
            };
            let offset = a.byte_offset.map_or(0, |o| o.0) as usize;
            let needed = if h.count == 0 {
                Some(offset)
            } else {
                (h.count - 1)
                    .checked_mul(stride)
                    .and_then(|n| n.checked_add(offset))
                    .and_then(|n| n.checked_add(elem))
            };
            match needed {
                Some(n) if n <= bytes.len() => {}
                _ => {
                    return Err(Fault::new(
                        path,
                        format!(
                            "accessor {} needs {} elements of {elem} bytes from byte {offset} of \
                             bufferView {}, which has only {} bytes",
                            h.index,
                            h.count,
                            view.value(),
                            bytes.len()
                        ),
                    ))
                }
            }
            let mut out = Vec::with_capacity(h.count * elem);
            for i in 0..h.count {
                let at = offset + i * stride;
                out.extend_from_slice(&bytes[at..at + elem]);
            }
            out
        }
        None => {
            if total > MAX_ZERO_FILLED_BYTES {
                return Err(Fault::new(
                    path,
                    format!("accessor {} is too large ({total} bytes)", h.index),
                ));
            }
            vec![0; total as usize]
        }
    };
    if let Some(sparse) = &a.sparse {
        apply_sparse(doc, h, sparse, elem, &mut out, path)?;
    }
    Ok(out)
}

fn apply_sparse(
    doc: &Parsed,
    h: &Header,
    sparse: &gltf::json::accessor::sparse::Sparse,
    elem: usize,
    out: &mut [u8],
    path: &str,
) -> FaultResult<()> {
    let fault = |msg: String| Fault::new(path, format!("accessor {} sparse {msg}", h.index));
    let n = usize::try_from(sparse.count.0).unwrap_or(usize::MAX);
    if n > h.count {
        return Err(fault(format!(
            "count {n} exceeds the accessor's {} elements",
            h.count
        )));
    }
    let Checked::Valid(index_type) = sparse.indices.component_type else {
        return Err(fault("indices have an invalid componentType".to_string()));
    };
    let isize_ = index_type.0.size();
    let ibytes = view_bytes(doc, sparse.indices.buffer_view.value(), path)?;
    let ioff = sparse.indices.byte_offset.0 as usize;
    let vbytes = view_bytes(doc, sparse.values.buffer_view.value(), path)?;
    let voff = sparse.values.byte_offset.0 as usize;
    let ineeded = n.checked_mul(isize_).and_then(|x| x.checked_add(ioff));
    if ineeded.is_none_or(|x| x > ibytes.len()) {
        return Err(fault(format!(
            "indices need {n} x {isize_} bytes from byte {ioff} but the view has {}",
            ibytes.len()
        )));
    }
    let vneeded = n.checked_mul(elem).and_then(|x| x.checked_add(voff));
    if vneeded.is_none_or(|x| x > vbytes.len()) {
        return Err(fault(format!(
            "values need {n} x {elem} bytes from byte {voff} but the view has {}",
            vbytes.len()
        )));
    }
    let mut previous: Option<usize> = None;
    for k in 0..n {
        let target = decode_uint(index_type.0, &ibytes[ioff + k * isize_..]) as usize;
        if target >= h.count {
            return Err(fault(format!(
                "index {k} is {target}, outside the accessor's {} elements",
                h.count
            )));
        }
        if previous.is_some_and(|p| target <= p) {
            return Err(fault(format!(
                "indices must increase (index {k} is {target})"
            )));
        }
        previous = Some(target);
        let src = &vbytes[voff + k * elem..voff + (k + 1) * elem];
        out[target * elem..(target + 1) * elem].copy_from_slice(src);
    }
    Ok(())
}
