//! Accessor element types and component types (by their glTF names and GL enums), and how
//! one component is decoded from little-endian bytes.

/// An accessor's component type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ComponentType {
    /// BYTE (5120).
    I8,
    /// UNSIGNED_BYTE (5121).
    U8,
    /// SHORT (5122).
    I16,
    /// UNSIGNED_SHORT (5123).
    U16,
    /// UNSIGNED_INT (5125).
    U32,
    /// FLOAT (5126).
    F32,
}

impl ComponentType {
    /// The type with this GL enum, if glTF has it.
    pub fn from_gl(value: u64) -> Option<Self> {
        Some(match value {
            5120 => Self::I8,
            5121 => Self::U8,
            5122 => Self::I16,
            5123 => Self::U16,
            5125 => Self::U32,
            5126 => Self::F32,
            _ => return None,
        })
    }

    /// The GL enum.
    pub fn gl(self) -> u32 {
        match self {
            Self::I8 => 5120,
            Self::U8 => 5121,
            Self::I16 => 5122,
            Self::U16 => 5123,
            Self::U32 => 5125,
            Self::F32 => 5126,
        }
    }

    /// Bytes per component.
    pub fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 => 1,
            Self::I16 | Self::U16 => 2,
            Self::U32 | Self::F32 => 4,
        }
    }
}

/// The glTF spelling of a component type, with its enum value: `FLOAT (5126)`.
pub(crate) fn component_name(c: ComponentType) -> String {
    let name = match c {
        ComponentType::I8 => "BYTE",
        ComponentType::U8 => "UNSIGNED_BYTE",
        ComponentType::I16 => "SHORT",
        ComponentType::U16 => "UNSIGNED_SHORT",
        ComponentType::U32 => "UNSIGNED_INT",
        ComponentType::F32 => "FLOAT",
    };
    format!("{name} ({})", c.gl())
}

/// An accessor's element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Type {
    /// SCALAR.
    Scalar,
    /// VEC2.
    Vec2,
    /// VEC3.
    Vec3,
    /// VEC4.
    Vec4,
    /// MAT2.
    Mat2,
    /// MAT3.
    Mat3,
    /// MAT4.
    Mat4,
}

const TYPES: [(Type, &str, usize); 7] = [
    (Type::Scalar, "SCALAR", 1),
    (Type::Vec2, "VEC2", 2),
    (Type::Vec3, "VEC3", 3),
    (Type::Vec4, "VEC4", 4),
    (Type::Mat2, "MAT2", 4),
    (Type::Mat3, "MAT3", 9),
    (Type::Mat4, "MAT4", 16),
];

impl Type {
    /// The type spelled `name` in glTF, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        TYPES.iter().find(|t| t.1 == name).map(|t| t.0)
    }

    /// The glTF spelling.
    pub fn name(self) -> &'static str {
        TYPES.iter().find(|t| t.0 == self).map_or("", |t| t.1)
    }

    /// Components per element.
    pub fn components(self) -> usize {
        TYPES.iter().find(|t| t.0 == self).map_or(1, |t| t.2)
    }
}

/// Decodes a normalised integer exactly as glTF 2.0 specifies (section 3.11); FLOAT is read
/// as is. `bytes` holds at least one component.
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

/// Decodes an integer component as the number it is (not normalised), FLOAT as is (for
/// KHR_mesh_quantization's plain integer attributes).
pub(crate) fn decode_plain(component: ComponentType, bytes: &[u8]) -> f32 {
    match component {
        ComponentType::I8 => bytes[0] as i8 as f32,
        ComponentType::I16 => i16::from_le_bytes([bytes[0], bytes[1]]) as f32,
        ComponentType::F32 => decode_normalized(component, bytes),
        _ => decode_uint(component, bytes) as f32,
    }
}

/// Decodes an unsigned integer component. `bytes` holds at least one component.
pub(crate) fn decode_uint(component: ComponentType, bytes: &[u8]) -> u32 {
    match component {
        ComponentType::I8 | ComponentType::U8 => bytes[0] as u32,
        ComponentType::I16 | ComponentType::U16 => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        ComponentType::U32 | ComponentType::F32 => {
            u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names and enums round-trip; unknown ones are `None`.
    #[test]
    fn names_and_enums() {
        for gl in [5120, 5121, 5122, 5123, 5125, 5126] {
            assert_eq!(ComponentType::from_gl(gl).map(|c| c.gl() as u64), Some(gl));
        }
        assert_eq!(ComponentType::from_gl(5124), None);
        assert_eq!(component_name(ComponentType::F32), "FLOAT (5126)");
        assert_eq!(Type::from_name("MAT4").map(Type::components), Some(16));
        assert_eq!(Type::from_name("NotaVEC3"), None);
        assert_eq!(Type::Vec3.name(), "VEC3");
    }

    /// Plain integers decode as the numbers they are, signed ones with their sign.
    #[test]
    fn plain_integers() {
        assert_eq!(decode_plain(ComponentType::I8, &[0xFF]), -1.0);
        assert_eq!(decode_plain(ComponentType::U8, &[0xFF]), 255.0);
        assert_eq!(
            decode_plain(ComponentType::I16, &(-300i16).to_le_bytes()),
            -300.0
        );
        assert_eq!(decode_plain(ComponentType::U16, &[0xFF, 0xFF]), 65535.0);
    }
}
