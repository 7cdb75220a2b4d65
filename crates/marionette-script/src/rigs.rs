//! Where a script's rig comes from: the file it names with `marionette.rig("file.glb")`
//! (relative to the script's folder, inside the project folder: the rule of [`marionette_io::files::confine`]),
//! else a default rig given by the caller, else the bundled
//! mannequin. One loader for every caller that runs scripts (`run`, `check`, `bake`, `render`,
//! the preview and the editor), so they all animate the same character. Lives at the edge with
//! [`marionette_io`] so [`crate`] itself never reads files of this kind.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::{Rig, RigLoader};
use marionette_anim::Model;
use marionette_io::files::confine::{Scope, ScopeKind};

/// The model a [`rig_loader`] loaded, once the script has asked for its rig.
pub type UsedModel = Rc<RefCell<Option<Rc<Model>>>>;

/// Resolves rigs for scripts (shared by `run`, `check`, `bake`, `render` and the preview): the
/// file the script names with `marionette.rig("file.glb")`, relative to the script's folder, else
/// `default_rig`, else the built-in mannequin. The returned cell holds the model that was used.
pub fn rig_loader(script: &Path, default_rig: Option<&Path>) -> (RigLoader, UsedModel) {
    let used: UsedModel = Rc::default();
    let used2 = used.clone();
    let default = default_rig.map(Path::to_path_buf);
    let dir = script.parent().map(Path::to_path_buf).unwrap_or_default();
    let project = marionette_io::files::confine::project_folder(script);
    let loader: RigLoader = Rc::new(move |name: Option<&str>| {
        let path: Option<PathBuf> = match name {
            Some(n) => {
                // the rule of marionette_io::files::confine: a rig the script names lies inside the project
                let scope = Scope::new(ScopeKind::Project, &project).map_err(|e| e.to_string())?;
                let path = dir.join(n);
                scope.check(&path, n).map_err(|e| e.to_string())?;
                Some(path)
            }
            None => default.clone(),
        };
        let (model, source) = match path {
            Some(p) => (
                marionette_io::import(&p).map_err(|e| e.to_string())?,
                p.display().to_string(),
            ),
            None => (marionette_anim::mannequin::build(), "mannequin".to_string()),
        };
        let rig = Rig::from_model(source, &model);
        *used2.borrow_mut() = Some(Rc::new(model));
        Ok(Rc::new(rig))
    });
    (loader, used)
}
