//! Lengths in files that do not say their unit (BVH), or say it in their own way (FBX), and the
//! options every non-glTF reader takes ([`ImportOptions`]).
//!
//! Marionette works in metres (glTF's unit). A file's lengths are multiplied by its unit's
//! size in metres. When no unit is given for a BVH, it is chosen from the body's height in the
//! file ([`Unit::guess`]) and a note says which; when one is given and the body comes out
//! shorter than 20 cm or taller than 10 m, a note says that too ([`height_note`]).

use std::fmt;

/// A length unit a file's numbers may be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Metres.
    M,
    /// Centimetres.
    Cm,
    /// Millimetres.
    Mm,
    /// Inches.
    In,
}

/// The units `--unit` accepts, as typed.
pub const UNIT_NAMES: &str = "m, cm, mm, in";

impl Unit {
    /// Every unit.
    pub const ALL: [Unit; 4] = [Unit::M, Unit::Cm, Unit::Mm, Unit::In];

    /// Its size in metres.
    pub fn metres(self) -> f32 {
        match self {
            Unit::M => 1.0,
            Unit::Cm => 0.01,
            Unit::Mm => 0.001,
            Unit::In => 0.0254,
        }
    }

    /// How it is typed (`m`, `cm`, `mm`, `in`).
    pub fn name(self) -> &'static str {
        match self {
            Unit::M => "m",
            Unit::Cm => "cm",
            Unit::Mm => "mm",
            Unit::In => "in",
        }
    }

    /// The unit typed as `text` (also the long names: `metres`, `inch`, ...).
    pub fn parse(text: &str) -> Option<Unit> {
        match text.trim().to_ascii_lowercase().as_str() {
            "m" | "metre" | "metres" | "meter" | "meters" => Some(Unit::M),
            "cm" | "centimetre" | "centimetres" | "centimeter" | "centimeters" => Some(Unit::Cm),
            "mm" | "millimetre" | "millimetres" | "millimeter" | "millimeters" => Some(Unit::Mm),
            "in" | "inch" | "inches" => Some(Unit::In),
            _ => None,
        }
    }

    /// The unit a body `height` units tall is most likely in: the first (metres, then
    /// centimetres, inches, millimetres) that makes it an adult's height (1 m to 2.2 m), else the
    /// first that makes it between 0.5 m and 2.5 m, else metres (a tiny or huge body: the note
    /// says so).
    pub fn guess(height: f32) -> Unit {
        let order = [Unit::M, Unit::Cm, Unit::In, Unit::Mm];
        let within = |low: f32, high: f32| {
            order
                .into_iter()
                .find(|u| (low..=high).contains(&(height * u.metres())))
        };
        within(1.0, 2.2)
            .or_else(|| within(0.5, 2.5))
            .unwrap_or(Unit::M)
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Unit {
    type Err = String;
    fn from_str(s: &str) -> Result<Unit, String> {
        Unit::parse(s)
            .ok_or_else(|| format!("'{s}' is not a length unit (use one of {UNIT_NAMES})"))
    }
}

/// How a non-glTF file is read. glTF files ignore it (glTF is in metres by definition).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// The unit of a BVH's lengths, or an FBX's in place of the one its header declares;
    /// `None`: a BVH's is guessed from the body's height, an FBX's is read from the file.
    pub unit: Option<Unit>,
}

/// The unit the command line names for every file a command reads (`--unit`), set once at
/// start-up by the binary: [`ImportOptions::command_line`] reads it.
static COMMAND_LINE_UNIT: std::sync::OnceLock<Unit> = std::sync::OnceLock::new();

/// Names the unit of every BVH and FBX file this process reads without its own options (the
/// command line's `--unit`). The first call wins; later calls are ignored.
pub fn set_command_line_unit(unit: Unit) {
    let _ = COMMAND_LINE_UNIT.set(unit);
}

impl ImportOptions {
    /// The options every reader uses unless told otherwise: the command line's `--unit`, if it
    /// named one ([`set_command_line_unit`]).
    pub fn command_line() -> ImportOptions {
        ImportOptions {
            unit: COMMAND_LINE_UNIT.get().copied(),
        }
    }

    /// These options, with the command line's unit where they name none.
    pub fn or_command_line(self) -> ImportOptions {
        ImportOptions {
            unit: self.unit.or(COMMAND_LINE_UNIT.get().copied()),
        }
    }
}

/// The shortest and tallest body, in metres, a chosen unit may give without a note.
pub const PLAUSIBLE_HEIGHT: (f32, f32) = (0.2, 10.0);

/// A note when a body `height_m` metres tall (in `unit`) is implausible, naming the file and
/// what to do; `None` when it is plausible.
pub fn height_note(label: &str, height_m: f32, unit: Unit) -> Option<String> {
    let (low, high) = PLAUSIBLE_HEIGHT;
    if height_m.is_nan() || (low..=high).contains(&height_m) || height_m == 0.0 {
        return None;
    }
    let raw = height_m / unit.metres();
    let better = Unit::guess(raw);
    let hint = if better != unit {
        format!("; if its numbers are in {better}, pass --unit {better} (or unit = \"{better}\")")
    } else {
        String::new()
    };
    Some(format!(
        "{label}: the body is {height_m:.3} m tall read in {unit} ({raw} units){hint}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_parse_and_guess_from_a_body_height() {
        assert_eq!(Unit::parse(" CM "), Some(Unit::Cm));
        assert_eq!(Unit::parse("inches"), Some(Unit::In));
        assert_eq!(Unit::parse("furlong"), None);
        assert!("yd".parse::<Unit>().unwrap_err().contains("m, cm, mm, in"));
        assert_eq!(Unit::guess(1.8), Unit::M);
        assert_eq!(Unit::guess(178.0), Unit::Cm);
        assert_eq!(Unit::guess(1780.0), Unit::Mm);
        assert_eq!(Unit::guess(500_000.0), Unit::M);
        // 65 units: an adult in inches before a child in centimetres
        assert_eq!(Unit::guess(65.0), Unit::In);
        assert_eq!(Unit::guess(0.7), Unit::M);
        for u in Unit::ALL {
            assert_eq!(Unit::parse(u.name()), Some(u));
        }
    }

    #[test]
    fn an_implausible_height_is_a_note_with_the_likely_unit() {
        assert_eq!(height_note("walk.bvh", 1.7, Unit::M), None);
        let note = height_note("walk.bvh", 170.0, Unit::M).unwrap();
        assert!(note.contains("170.000 m tall"), "{note}");
        assert!(note.contains("--unit cm"), "{note}");
        let tiny = height_note("walk.bvh", 0.017, Unit::Cm).unwrap();
        assert!(tiny.contains("--unit m"), "{tiny}");
    }
}
