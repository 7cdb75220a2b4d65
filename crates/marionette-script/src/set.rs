//! Live parameters from text, as `run --set speed=2.5 --set look=0,1.6,2` and `render --set`
//! give them: `NAME=VALUE` parsed by the parameter's kind (a number; `true`/`false`; `x,y,z`;
//! a trigger fires on `true`).

use super::api::strict::did_you_mean;
use super::error::ScriptError;
use super::runtime::ScriptedGraph;
use marionette_anim::graph::{ParamKind, ParamValue};

/// Splits `NAME=VALUE`.
pub fn split_assignment(text: &str) -> Result<(&str, &str), ScriptError> {
    match text.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Ok((n.trim(), v.trim())),
        _ => Err(ScriptError::msg(format!(
            "--set {text}: write NAME=VALUE (e.g. speed=2.5, crouch=true, look=0,1.6,2)"
        ))),
    }
}

impl ScriptedGraph {
    /// Sets the live parameter `name` from `text`, read by its kind: a float is a number, a bool
    /// `true`/`false`, a vec3 `x,y,z`, a trigger fires on `true`. Errors name the parameter and
    /// what its kind wants (and suggest a near name for an unknown one). A float outside the
    /// parameter's range is clamped to it, as the graph does, and the warning saying so (the
    /// range and the value used) is returned.
    pub fn set_text(&mut self, name: &str, text: &str) -> Result<Option<String>, ScriptError> {
        let params = self.graph().params();
        let Some(def) = params.defs().iter().find(|d| d.name == name) else {
            let names: Vec<&str> = params.defs().iter().map(|d| d.name.as_str()).collect();
            return Err(ScriptError::msg(format!(
                "--set {name}: unknown parameter{} (the script declares: {})",
                did_you_mean(name, names.iter().copied()),
                names.join(", ")
            )));
        };
        let bad = |want: &str| ScriptError::msg(format!("--set {name}={text}: {name} is {want}"));
        let number = |t: &str| t.trim().parse::<f32>().ok().filter(|v| v.is_finite());
        let value = match def.kind() {
            ParamKind::Float => {
                ParamValue::Float(number(text).ok_or_else(|| bad("a float: give a number"))?)
            }
            ParamKind::Bool => ParamValue::Bool(match text {
                "true" => true,
                "false" => false,
                _ => return Err(bad("a bool: give true or false")),
            }),
            ParamKind::Vec3 => {
                let parts: Option<Vec<f32>> = text.split(',').map(number).collect();
                match parts.as_deref() {
                    Some([x, y, z]) => ParamValue::Vec3(glam::Vec3::new(*x, *y, *z)),
                    _ => return Err(bad("a vec3: give x,y,z")),
                }
            }
            ParamKind::Trigger => {
                if text != "true" {
                    return Err(bad("a trigger: give true to fire it"));
                }
                return self
                    .fire(name)
                    .map(|()| None)
                    .map_err(|e| ScriptError::msg(format!("--set {name}: {e}")));
            }
        };
        let warning = match value {
            ParamValue::Float(v) if v < def.min || v > def.max => {
                // (cannot panic: the graph declared it with min <= max, both finite)
                let used = v.clamp(def.min, def.max);
                Some(format!(
                    "--set {name}={text}: outside {name}'s range [{}, {}]; using {used}",
                    def.min, def.max
                ))
            }
            _ => None,
        };
        self.set(name, value)
            .map(|()| warning)
            .map_err(|e| ScriptError::msg(format!("--set {name}={text}: {e}")))
    }
}
