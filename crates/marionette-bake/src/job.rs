//! What a bake is asked and what it answers: a [`BakeJob`] (its [`BakeSource`] and
//! [`Selection`]), the [`BakeProgress`] it reports, the [`BakeReport`] it returns and the
//! [`BakeError`]s it fails with. [`super::run`] runs one; the sources ([`super::sources`]) read
//! it.

use std::path::PathBuf;

use super::{BakeTakeError, Curves, ReduceStats};
use marionette_anim::graph::Take;
use marionette_io::GltfError;
use marionette_script::ScriptError;

/// What is baked.
#[derive(Clone, Debug, PartialEq)]
pub enum BakeSource {
    /// A Lua script's takes, evaluated as the preview evaluates them.
    Script {
        /// The `.lua` file.
        script: PathBuf,
        /// Which file is the character: `--rig` (which wins over the script's own
        /// `marionette.rig(file)`), and the one used when neither names one (else the built-in
        /// mannequin).
        rig: marionette_script::rigs::RigChoice,
    },
    /// Every clip of one rig put on another (`bake SOURCE --retarget-to CHARACTER`): a script
    /// underneath ([`marionette_script::retarget_map::bake_script`]), one take per clip.
    Retarget {
        /// The rig whose clips are retargeted.
        source: PathBuf,
        /// The character they are put on, and written into.
        character: PathBuf,
        /// A joint map file (what `marionette retarget-map` prints); `None`: the proposed map.
        map: Option<PathBuf>,
        /// The reference pose (over the map file's `rest`); `None`: the map file's, else each
        /// rig's rest.
        rest: Option<marionette_anim::retarget::ReferencePose>,
    },
    /// The clips of a glTF rig, resampled.
    Clips {
        /// The `.glb` / `.gltf` whose clips are baked.
        rig: PathBuf,
        /// The rig file the animations are written into (`None`: `rig` itself); it must have
        /// the same skeleton.
        into: Option<PathBuf>,
    },
}

/// Which takes (or clips) of the source are baked.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Selection {
    /// Every take of the script (every clip of the rig).
    #[default]
    All,
    /// These, in this order, once each (a clip may also be named by its index).
    Named(Vec<String>),
}

/// Everything a bake needs: what, how, and where to.
#[derive(Clone, Debug, PartialEq)]
pub struct BakeJob {
    /// What is baked.
    pub source: BakeSource,
    /// Which takes or clips.
    pub selection: Selection,
    /// Frames per second (`None`: a script take's own rate; a clip's own key times).
    pub fps: Option<f32>,
    /// World-space error budget of key reduction, in millimetres (0.1 is the CLI's default).
    pub tolerance_mm: f32,
    /// Morph weight tolerance of key reduction (`--morph-tolerance`; default
    /// [`DEFAULT_MORPH_TOLERANCE`](super::DEFAULT_MORPH_TOLERANCE), 0.001).
    pub morph_tolerance: f32,
    /// The output file: `.glb`, or `.gltf` with a `.bin` of the same stem beside it.
    pub output: PathBuf,
    /// Write the skeleton nodes and the animations only (not a copy of the rig).
    pub animation_only: bool,
    /// Allow the output to replace an existing file, an input (the script, a rig, a buffer)
    /// included. Without it an existing output (or, for `.gltf`, its `.bin`) is an error
    /// before anything is evaluated.
    pub force: bool,
    /// Remove root motion so the takes play in place (ground-plane travel and turning,
    /// relative to the first frame: [`keep_in_place`](marionette_anim::root_motion::keep_in_place)
    /// with [`RootMotionMode::Ground`](marionette_anim::root_motion::RootMotionMode::Ground)).
    pub in_place: bool,
    /// The key profile: LINEAR keys every client plays alike (the default), or CUBICSPLINE.
    pub curves: Curves,
    /// Rotations keyed as normalized 16-bit integers where the budget allows (the default;
    /// `false`: every key a float, the bytes of bakes before 16-bit keys).
    pub quantize: bool,
    /// The shell distance every joint's rotation error is measured at, in millimetres
    /// (`--shell-mm`); `None`: each joint's farthest skinned vertex
    /// ([`Shells::of_model`](super::Shells::of_model)).
    pub shell_mm: Option<f32>,
    /// Takes given as data (a script source only): each replaces the script's take of the same
    /// name, or is one more take after the script's (the editor passes takes edited or recorded
    /// in it, which live in its sidecar, not in the script).
    pub takes: Vec<Take>,
    /// Set it (from another thread, or a signal handler) to stop the bake at the next frame:
    /// [`run`](crate::run) then fails with [`BakeError::Cancelled`] and writes nothing.
    pub cancel: super::Cancel,
    /// Degrees per second over which a source clip's joint turn is noted as a capture's glitch
    /// (baked as it is).
    pub turn_limit: f32,
    /// Run script takes' bake passes (`passes = { ... }`) before baking (`--no-passes`:
    /// `false`, the raw graph).
    pub passes: bool,
}

impl BakeJob {
    /// A job with the CLI's defaults: every take, the source's rate, 0.1 mm, a copy of the rig,
    /// root motion kept, inputs protected.
    pub fn new(source: BakeSource, output: impl Into<PathBuf>) -> Self {
        Self {
            source,
            selection: Selection::All,
            fps: None,
            tolerance_mm: 0.1,
            morph_tolerance: super::DEFAULT_MORPH_TOLERANCE,
            output: output.into(),
            animation_only: false,
            force: false,
            in_place: false,
            curves: Curves::Linear,
            quantize: true,
            shell_mm: None,
            takes: Vec::new(),
            cancel: super::Cancel::new(),
            turn_limit: marionette_anim::fast_turns::DEFAULT_TURN_LIMIT,
            passes: true,
        }
    }
}

/// Where a running bake is, reported through [`run`](crate::run)'s callback.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BakeProgress<'a> {
    /// The source is being loaded (the script compiled, the rig imported).
    Loading,
    /// `done` of `total` frames of take `take` (number `index` of `count`) are sampled.
    Sampling {
        /// Take (or clip) name.
        take: &'a str,
        /// Its position among the takes baked (0-based).
        index: usize,
        /// How many takes are baked.
        count: usize,
        /// Frames sampled so far.
        done: usize,
        /// Frames in the take.
        total: usize,
    },
    /// Take `take` is being key-reduced.
    Reducing {
        /// Take (or clip) name.
        take: &'a str,
        /// Its position among the takes baked (0-based).
        index: usize,
        /// How many takes are baked.
        count: usize,
    },
    /// The output is being written.
    Writing,
}

/// The result of one take.
#[derive(Clone, Debug, PartialEq)]
pub struct TakeResult {
    /// The take (or clip) name: the animation's name.
    pub name: String,
    /// Frames, keys and measured error of its reduction.
    pub stats: ReduceStats,
    /// The file the animation was written to.
    pub output: PathBuf,
}

/// A file written by a bake.
#[derive(Clone, Debug, PartialEq)]
pub struct WrittenFile {
    /// Where.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
}

/// What a bake did.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BakeReport {
    /// One entry per take, in the order baked.
    pub takes: Vec<TakeResult>,
    /// The files written (for `.gltf`, the `.bin` then the `.gltf`).
    pub files: Vec<WrittenFile>,
    /// Things the user should know (e.g. the rig had no file, so only the skeleton was written).
    pub notes: Vec<String>,
    /// What the script printed while it was loaded and baked.
    pub log: Vec<String>,
    /// The files the bake read: the script and what it `require`s, the rig, the files its
    /// clips came from (what a content key hashes).
    pub inputs: Vec<std::path::PathBuf>,
}

/// Why a bake failed. Nothing is written when a bake fails.
#[derive(Debug, thiserror::Error)]
pub enum BakeError {
    /// A setting of the job is unusable (rate, tolerance, output name, source kind).
    #[error("{0}")]
    Settings(String),
    /// The job's [`Cancel`](super::Cancel) flag was set: nothing was written.
    #[error("bake cancelled; nothing was written")]
    Cancelled,
    /// The output (or the `.bin` of a `.gltf` output) exists and `force` is off.
    #[error("'{path}' exists; pass --force to replace it")]
    Exists {
        /// The existing file, as the job names it.
        path: String,
    },
    /// The source has nothing to bake, or the selection names takes or clips it does not have.
    #[error("{input}: {message}")]
    Selection {
        /// The script or rig.
        input: String,
        /// What is wrong, with what there is.
        message: String,
    },
    /// The script failed to load or to evaluate (`file:line: message`).
    #[error(transparent)]
    Script(#[from] ScriptError),
    /// A rig could not be read, or the output could not be built or written.
    #[error(transparent)]
    Gltf(#[from] GltfError),
    /// A baked take is unusable (e.g. a non-finite pose).
    #[error(transparent)]
    Take(#[from] BakeTakeError),
    /// The reduced keys miss the error budget (a degenerate or huge source value); nothing is
    /// written.
    #[error("take '{take}': the keys are {max_mm:.4} mm off the source{at}, over the {budget_mm:.4} mm budget (degenerate or out-of-range input)")]
    OverBudget {
        /// Take (or clip) name.
        take: String,
        /// The measured maximum error, in millimetres (may be infinite or NaN).
        max_mm: f64,
        /// The budget, in millimetres.
        budget_mm: f32,
        /// Where (` at 1.0417 s on joint 'hand'`), or empty.
        at: String,
    },
    /// A take whose morph weights are farther from the reference than the weight tolerance
    /// (never written).
    #[error(
        "take '{take}': morph weights are off by up to {error} at {time:.4} s on '{target}', over \
         the weight tolerance {tolerance}"
    )]
    MorphOverBudget {
        /// Take (or clip) name.
        take: String,
        /// The measured maximum weight error.
        error: f32,
        /// The tolerance.
        tolerance: f32,
        /// Where.
        time: f32,
        /// Which target.
        target: String,
    },
}
