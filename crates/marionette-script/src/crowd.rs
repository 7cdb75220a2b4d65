//! A crowd of scripted characters (`marionette bench crowd --script S`): every character runs
//! its own instance of a script's whole graph and every frame is timed per stage — evaluate
//! (advance the graph, evaluate it, run `post`), local-to-model, skin palette.
//!
//! Each character has its own Lua state: the script is loaded once per character (the rig is
//! shared). One state for all would share whatever the script's Lua keeps between frames — a
//! `post` closure's upvalues, its globals, a predicate's locals — so characters would step on
//! each other; a state costs memory instead ([`ScriptCrowd::lua_memory`]).
//!
//! Character `i` starts `i * 0.37` seconds into live playback (modulo [`PHASE_SPAN`]), with
//! the script's parameters at their defaults.

use glam::Mat4;

use super::{LoadedScript, ScriptError, ScriptedGraph};
use marionette_anim::crowd::timed;
use marionette_anim::{local_to_model, Skin, Transform};

/// Starting times are spread over this many seconds (`i * 0.37` modulo this), so setting up a
/// large crowd does not simulate minutes of play.
pub const PHASE_SPAN: f64 = 10.0;

/// Wall time of each stage of one frame, in seconds, over the whole crowd.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScriptStageTimes {
    /// Advancing and evaluating every character's graph, `post` included.
    pub evaluate: f64,
    /// Local-to-model matrices.
    pub local_to_model: f64,
    /// Skin palettes.
    pub palette: f64,
}

impl ScriptStageTimes {
    /// The frame's total.
    pub fn total(&self) -> f64 {
        self.evaluate + self.local_to_model + self.palette
    }
}

/// One character: its script instance and matrices.
struct Character {
    graph: ScriptedGraph,
    model: Vec<Mat4>,
    palette: Vec<Mat4>,
}

/// Characters each running their own instance of one script. See the module docs.
pub struct ScriptCrowd {
    characters: Vec<Character>,
    skin: Option<Skin>,
}

impl ScriptCrowd {
    /// `count` characters, each from its own `load()` of the script, character `i` started
    /// `i * 0.37` s (modulo [`PHASE_SPAN`]) into live playback; no palette stage until
    /// [`ScriptCrowd::set_skin`].
    pub fn new(
        count: usize,
        mut load: impl FnMut() -> Result<LoadedScript, ScriptError>,
    ) -> Result<Self, ScriptError> {
        let mut characters = Vec::with_capacity(count);
        for i in 0..count {
            let mut graph = ScriptedGraph::new(load()?)?;
            graph.seek((i as f64 * 0.37) % PHASE_SPAN);
            let n = graph.pose().len();
            characters.push(Character {
                graph,
                model: vec![Mat4::IDENTITY; n],
                palette: Vec::new(),
            });
        }
        Ok(ScriptCrowd {
            characters,
            skin: None,
        })
    }

    /// Computes skin palettes for `skin` (of the script's rig) from the next frame on; `None`
    /// leaves the palette stage out.
    pub fn set_skin(&mut self, skin: Option<Skin>) {
        let n = skin.as_ref().map_or(0, |s| s.joints.len());
        for c in &mut self.characters {
            c.palette = vec![Mat4::IDENTITY; n];
        }
        self.skin = skin;
    }

    /// Number of characters.
    pub fn len(&self) -> usize {
        self.characters.len()
    }

    /// True for a crowd of nobody.
    pub fn is_empty(&self) -> bool {
        self.characters.is_empty()
    }

    /// Joints per character (0 for an empty crowd).
    pub fn joints(&self) -> usize {
        self.characters.first().map_or(0, |c| c.graph.pose().len())
    }

    /// Bytes the characters' Lua states hold, all together.
    pub fn lua_memory(&self) -> usize {
        self.characters
            .iter()
            .map(|c| c.graph.script().lua_memory())
            .sum()
    }

    /// Advances every character by `dt` and evaluates one frame, stage by stage.
    pub fn frame(&mut self, dt: f32) -> ScriptStageTimes {
        let chars = &mut self.characters;
        let evaluate = timed(|| {
            for ch in chars.iter_mut() {
                ch.graph.advance(dt);
            }
        });
        let local_to_model = timed(|| {
            for ch in chars.iter_mut() {
                let skeleton = &ch.graph.script().rig.skeleton;
                let pose: &[Transform] = ch.graph.pose();
                local_to_model(skeleton, pose, 0..pose.len(), &mut ch.model);
            }
        });
        let skin = self.skin.as_ref();
        let palette = timed(|| {
            if let Some(skin) = skin {
                for ch in chars.iter_mut() {
                    let armature = ch.graph.script().rig.skeleton.armature();
                    skin.palette(&ch.model, armature, &mut ch.palette);
                }
            }
        });
        ScriptStageTimes {
            evaluate,
            local_to_model,
            palette,
        }
    }

    /// Character `i`'s running script.
    pub fn graph(&self, i: usize) -> Option<&ScriptedGraph> {
        self.characters.get(i).map(|c| &c.graph)
    }

    /// Model matrices of character `i` after the last frame.
    pub fn model(&self, i: usize) -> Option<&[Mat4]> {
        self.characters.get(i).map(|c| c.model.as_slice())
    }

    /// Skin palette of character `i` after the last frame (empty without a skin).
    pub fn palette(&self, i: usize) -> Option<&[Mat4]> {
        self.characters.get(i).map(|c| c.palette.as_slice())
    }

    /// The first runtime error of a character's `post` or predicates, with the character's
    /// index.
    pub fn runtime_error(&self) -> Option<(usize, ScriptError)> {
        self.characters
            .iter()
            .enumerate()
            .find_map(|(i, c)| c.graph.runtime_error().map(|e| (i, e)))
    }
}
