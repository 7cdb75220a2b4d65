//! Base colour of materials and the encoded images their textures use (loaded once each).
//! Materials, textures and images are read leniently, straight from the JSON: a problem there
//! costs the mesh its colour or texture, with a warning, never the import.

use super::container::{view_bytes, Parsed};
use super::json_obj::Obj;
use crate::document::uri::{load_uri, sniff_mime};
use crate::error::{Fault, FaultResult};
use marionette_anim::model::Image;
use serde_json::Value;

/// Images referenced by base colour textures, loaded on first use.
pub(crate) struct Images {
    /// Model image index of each glTF image (`Some(None)`: tried and failed).
    slots: Vec<Option<Option<usize>>>,
    /// The loaded images, in first-use order.
    pub images: Vec<Image>,
}

impl Images {
    /// An empty table for the images of `doc`.
    pub fn new(doc: &Parsed) -> Self {
        let count = doc.root.json["images"].as_array().map_or(0, Vec::len);
        Self {
            slots: vec![None; count],
            images: Vec::new(),
        }
    }

    /// Model image index of glTF image `index`, loading it on first use. A missing or unreadable
    /// image gives `None` and one warning (the mesh is then drawn untextured).
    fn get(
        &mut self,
        doc: &Parsed,
        base_dir: Option<&std::path::Path>,
        index: usize,
        warnings: &mut Vec<String>,
    ) -> Option<usize> {
        let slot = self.slots.get_mut(index)?;
        if let Some(done) = *slot {
            return done;
        }
        let result = match load_image(doc, base_dir, index) {
            Ok(image) => {
                self.images.push(image);
                Some(self.images.len() - 1)
            }
            Err(message) => {
                warnings.push(format!(
                    "images[{index}]: {message}; meshes using it are drawn untextured"
                ));
                None
            }
        };
        *slot = Some(result);
        result
    }
}

fn load_image(
    doc: &Parsed,
    base_dir: Option<&std::path::Path>,
    index: usize,
) -> Result<Image, String> {
    let path = format!("images[{index}]");
    let image = Obj::new(&doc.root.json["images"][index], path.as_str()).map_err(|f| f.message)?;
    let field = |f: crate::error::Fault| format!("{}: {}", f.path, f.message);
    let uri = image.string("uri").map_err(field)?;
    let (data, uri_mime) = match (uri, image.index("bufferView").map_err(field)?) {
        (Some(uri), _) => {
            let loaded =
                load_uri(uri, base_dir, &format!("{path}.uri"), None).map_err(|f| f.message)?;
            (loaded.bytes, loaded.mime)
        }
        (None, Some(view)) => (
            view_bytes(doc, view, &path)
                .map_err(|f| f.message)?
                .to_vec(),
            None,
        ),
        (None, None) => return Err("has neither a uri nor a bufferView".into()),
    };
    let mime = image
        .string("mimeType")
        .map_err(field)?
        .map(str::to_string)
        .or(uri_mime)
        .filter(|m| m == "image/png" || m == "image/jpeg")
        .or_else(|| {
            sniff_mime(&data, uri)
                .filter(|m| *m != "image/webp")
                .map(str::to_string)
        })
        .ok_or_else(|| "is neither PNG nor JPEG".to_string())?;
    Ok(Image {
        name: image.string("name").ok().flatten().map(str::to_string),
        mime_type: mime,
        data,
    })
}

/// `json[key][i]` as an object; an error naming `referrer` when there is no such entry.
fn entry<'a>(json: &'a Value, key: &str, i: usize, referrer: &str) -> FaultResult<Obj<'a>> {
    match json.get(key).and_then(|a| a.get(i)) {
        Some(v) => Obj::new(v, format!("{key}[{i}]")),
        None => Err(Fault::new(referrer, format!("{key}[{i}] does not exist"))),
    }
}

/// The base colour factor and the image index of the base colour texture of `materials[m]`,
/// used by the primitive at `prim`.
fn material_base(doc: &Parsed, m: usize, prim: &str) -> FaultResult<([f32; 4], Option<usize>)> {
    let json = &doc.root.json;
    let material = entry(json, "materials", m, &format!("{prim}.material"))?;
    let Some(pbr) = material.object("pbrMetallicRoughness")? else {
        return Ok(([1.0; 4], None));
    };
    let factor = pbr.floats::<4>("baseColorFactor")?.unwrap_or([1.0; 4]);
    let Some(info) = pbr.object("baseColorTexture")? else {
        return Ok((factor, None));
    };
    let t = info.req_index("index")?;
    let texture = entry(json, "textures", t, &info.at("index"))?;
    let Some(source) = texture.index("source")? else {
        return Ok((factor, None)); // e.g. an image only in an extension (EXT_texture_webp)
    };
    entry(json, "images", source, &texture.at("source"))?;
    Ok((factor, Some(source)))
}

/// Base colour factor and texture (as a model image index) of a primitive's material. A
/// material, texture or image that cannot be read gives a warning and the default (white,
/// untextured).
pub(crate) fn base_color(
    doc: &Parsed,
    base_dir: Option<&std::path::Path>,
    prim: &str,
    material: Option<usize>,
    images: &mut Images,
    warnings: &mut Vec<String>,
) -> ([f32; 4], Option<usize>) {
    let Some(m) = material else {
        return ([1.0; 4], None);
    };
    let (factor, source) = match material_base(doc, m, prim) {
        Ok(found) => found,
        Err(f) => {
            let warning = format!("{f}; drawn untextured in white");
            if !warnings.contains(&warning) {
                warnings.push(warning);
            }
            return ([1.0; 4], None);
        }
    };
    let texture = source.and_then(|s| images.get(doc, base_dir, s, warnings));
    (factor, texture)
}
