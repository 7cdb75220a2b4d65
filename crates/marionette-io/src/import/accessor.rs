//! A small, bounds-checked accessor reader over the glTF JSON (dense and sparse accessors,
//! strides, normalised integers). Types and component types are checked against what each use
//! allows before any byte is read, so malformed files give errors naming the glTF path.

use super::component::{
    component_name, decode_normalized, decode_plain, decode_uint, ComponentType, Type,
};
use super::container::{view_bytes, Parsed};
use crate::error::{Fault, FaultResult};

/// Accessors without a buffer view are zero-filled; refuse absurd sizes instead of allocating.
const MAX_ZERO_FILLED_BYTES: u64 = 1 << 30;

/// Which integer component types a float use accepts besides FLOAT.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ints {
    /// FLOAT only.
    None,
    /// Normalised BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT too (decoded to [-1, 1]).
    Normalized,
    /// Any BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT, normalised or as plain numbers
    /// (KHR_mesh_quantization).
    Any,
}

/// Whether accessor `index` holds no data at all: no `bufferView` and no `sparse`, so every
/// element is zero (glTF allows that; some uses cannot take it).
pub(crate) fn all_zero(doc: &Parsed, index: usize) -> bool {
    doc.root
        .accessors
        .get(index)
        .is_some_and(|a| a.buffer_view.is_none() && a.sparse.is_none())
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
    let kind = Type::from_name(&a.kind).ok_or_else(|| {
        Fault::new(
            path,
            format!(
                "accessor {index} has type '{}', which is not a glTF 2.0 accessor type",
                a.kind
            ),
        )
    })?;
    let component = ComponentType::from_gl(a.component_type).ok_or_else(|| {
        Fault::new(
            path,
            format!(
                "accessor {index} has componentType {}, which is not a glTF 2.0 component type",
                a.component_type
            ),
        )
    })?;
    let count = usize::try_from(a.count)
        .map_err(|_| Fault::new(path, format!("accessor {index} count is too large")))?;
    Ok(Header {
        index,
        kind,
        component,
        normalized: a.normalized,
        count,
    })
}

fn check_type(h: &Header, path: &str, what: &str, kinds: &[Type]) -> FaultResult<()> {
    if kinds.contains(&h.kind) {
        return Ok(());
    }
    let allowed: Vec<&str> = kinds.iter().map(|&k| k.name()).collect();
    Err(Fault::new(
        path,
        format!(
            "accessor {} has type {}; {what} must be {}",
            h.index,
            h.kind.name(),
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

/// Reads a float accessor of the given type(s), returning its components flattened. Every
/// value must be finite.
///
/// `ints` says which integer component types are accepted besides FLOAT: normalised ones are
/// decoded per spec, plain ones (KHR_mesh_quantization) as the numbers they are.
/// What is wrong with accessor `index` as a glTF file must have it, read or not: its bytes
/// beyond its buffer view, an offset not a multiple of its component size (matrices: of 4), or a
/// float element that is NaN or infinite. `None` when nothing is (or when it is a kind the
/// reader does not take apart: a padded small-component matrix).
pub(crate) fn problem(doc: &Parsed, index: usize) -> Option<String> {
    let path = format!("accessors[{index}]");
    let h = header(doc, index, &path).ok()?;
    let a = &doc.root.accessors[index];
    if let Some(view) = a.buffer_view.and_then(|v| doc.root.buffer_views.get(v)) {
        let size = h.component.size() as u64;
        let matrix = matches!(h.kind, Type::Mat2 | Type::Mat3 | Type::Mat4);
        let align = if matrix { size.max(4) } else { size };
        if !a.byte_offset.is_multiple_of(align)
            || !(view.byte_offset + a.byte_offset).is_multiple_of(size)
        {
            let why = if matrix {
                "matrix accessors start on 4-byte boundaries"
            } else {
                "the size of its components"
            };
            return Some(format!(
                "byteOffset {} (byte {} of its buffer) is not a multiple of {align} ({why}, as \
                 glTF requires)",
                a.byte_offset,
                view.byte_offset + a.byte_offset,
            ));
        }
    }
    if matches!(h.kind, Type::Mat2 | Type::Mat3) && h.component.size() < 4 {
        return None;
    }
    let bytes = match gather(doc, &h, &path) {
        Ok(b) => b,
        Err(f) => return Some(f.message),
    };
    if h.component == ComponentType::F32 {
        let n = h.kind.components();
        let bad = bytes
            .chunks_exact(4)
            .map(|c| decode_plain(h.component, c))
            .position(|v| !v.is_finite());
        if let Some(i) = bad {
            return Some(format!("element {} is not a finite number", i / n));
        }
    }
    None
}

pub(crate) fn read_floats(
    doc: &Parsed,
    index: usize,
    path: &str,
    what: &str,
    kinds: &[Type],
    ints: Ints,
) -> FaultResult<(Vec<f32>, usize)> {
    let h = header(doc, index, path)?;
    check_type(&h, path, what, kinds)?;
    let ok = match h.component {
        ComponentType::F32 => true,
        ComponentType::U32 => false,
        _ => ints == Ints::Any || (ints == Ints::Normalized && h.normalized),
    };
    if !ok {
        let allowed = match ints {
            Ints::None => "FLOAT (5126)",
            Ints::Normalized => {
                "FLOAT or a normalized BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT"
            }
            Ints::Any => "FLOAT, BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT",
        };
        let mut fault = wrong_component(&h, path, what, allowed);
        if ints == Ints::Normalized && !h.normalized && h.component != ComponentType::U32 {
            fault
                .message
                .push_str(" (set \"normalized\": true on the accessor)");
        }
        return Err(fault);
    }
    let bytes = gather(doc, &h, path)?;
    let size = h.component.size();
    let decode = if h.normalized {
        decode_normalized
    } else {
        decode_plain
    };
    let values: Vec<f32> = bytes
        .chunks_exact(size)
        .map(|c| decode(h.component, c))
        .collect();
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        let n = h.kind.components();
        return Err(Fault::new(
            path,
            format!(
                "accessor {} element {} is not a finite number ({})",
                h.index,
                i / n,
                values[i]
            ),
        ));
    }
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
    let elem = h.kind.components() * h.component.size();
    let total = (h.count as u64).saturating_mul(elem as u64);
    let mut out = match a.buffer_view {
        Some(view) => {
            let bytes = view_bytes(doc, view, path)?;
            let stride = match doc.root.buffer_views[view].byte_stride {
                Some(s) if s < elem as u64 => {
                    return Err(Fault::new(
                        format!("bufferViews[{view}].byteStride"),
                        format!(
                            "stride {s} is smaller than the {elem}-byte elements of accessor {}",
                            h.index
                        ),
                    ))
                }
                Some(s) => usize::try_from(s).unwrap_or(usize::MAX),
                None => elem,
            };
            let offset = usize::try_from(a.byte_offset).unwrap_or(usize::MAX);
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
                            view,
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
    sparse: &super::schema::Sparse,
    elem: usize,
    out: &mut [u8],
    path: &str,
) -> FaultResult<()> {
    let fault = |msg: String| Fault::new(path, format!("accessor {} sparse {msg}", h.index));
    let n = usize::try_from(sparse.count).unwrap_or(usize::MAX);
    if n > h.count {
        return Err(fault(format!(
            "count {n} exceeds the accessor's {} elements",
            h.count
        )));
    }
    let (iview, ioff, itype) = sparse.indices;
    let index_type = ComponentType::from_gl(itype)
        .filter(|c| {
            matches!(
                c,
                ComponentType::U8 | ComponentType::U16 | ComponentType::U32
            )
        })
        .ok_or_else(|| {
            fault(format!(
                "indices have componentType {itype}; sparse indices must be UNSIGNED_BYTE, \
                 UNSIGNED_SHORT or UNSIGNED_INT"
            ))
        })?;
    let isize_ = index_type.size();
    let ibytes = view_bytes(doc, iview, path)?;
    let ioff = usize::try_from(ioff).unwrap_or(usize::MAX);
    let (vview, voff) = sparse.values;
    let vbytes = view_bytes(doc, vview, path)?;
    let voff = usize::try_from(voff).unwrap_or(usize::MAX);
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
        let target = decode_uint(index_type, &ibytes[ioff + k * isize_..]) as usize;
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
