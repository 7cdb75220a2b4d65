//! A word on what the importer does not read: a mesh no node uses is not imported, and an
//! accessor that breaks glTF's rules (bytes past its view, misaligned, NaN in a float) is named
//! even when nothing Marionette reads uses it, so a file with errors never imports in silence.
//! Data Marionette reads is checked where it is read (an error naming its path).

use super::accessor;
use super::container::Parsed;

/// Warnings for meshes no node instances and for accessors that break glTF's rules.
pub(crate) fn check(doc: &Parsed, warnings: &mut Vec<String>) {
    let mut used = vec![false; doc.root.meshes.len()];
    for node in &doc.root.nodes {
        if let Some(slot) = node.mesh.and_then(|m| used.get_mut(m)) {
            *slot = true;
        }
    }
    for (m, mesh) in doc.root.meshes.iter().enumerate() {
        if !used[m] {
            let name = mesh
                .name
                .as_deref()
                .map_or(String::new(), |n| format!(" '{n}'"));
            warnings.push(format!(
                "meshes[{m}]{name}: no node uses this mesh; not imported"
            ));
        }
    }
    // one line per accessor, at most a screenful
    const MOST: usize = 16;
    let bad: Vec<String> = (0..doc.root.accessors.len())
        .filter_map(|i| accessor::problem(doc, i).map(|p| format!("accessors[{i}]: {p}")))
        .collect();
    let more = bad.len().saturating_sub(MOST);
    warnings.extend(bad.into_iter().take(MOST));
    if more > 0 {
        warnings.push(format!("and {more} more accessors with problems"));
    }
}
