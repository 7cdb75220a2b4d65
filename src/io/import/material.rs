//! Base colour of materials and the encoded images their textures use (loaded once each).

use gltf::json;

use super::container::{view_bytes, Parsed};
use crate::io::document::uri::{load_uri, sniff_mime};
use crate::model::Image;

/// Images referenced by base colour textures, loaded on first use.
pub(crate) struct Images {
    /// Model image index of each glTF image (`Some(None)`: tried and failed).
    slots: Vec<Option<Option<usize>>>,
    /// The loaded images, in first-use order.
    pub images: Vec<Image>,
}

impl Images {
    /// An empty table for `count` glTF images.
    pub fn new(count: usize) -> Self {
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
    let image: &json::Image = &doc.root.images[index];
    let path = format!("images[{index}]");
    let (data, uri_mime) = match (&image.uri, image.buffer_view) {
        (Some(uri), _) => {
            let loaded =
                load_uri(uri, base_dir, &format!("{path}.uri"), None).map_err(|f| f.message)?;
            (loaded.bytes, loaded.mime)
        }
        (None, Some(view)) => (
            view_bytes(doc, view.value(), &path)
                .map_err(|f| f.message)?
                .to_vec(),
            None,
        ),
        (None, None) => return Err("has neither a uri nor a bufferView".into()),
    };
    let mime = image
        .mime_type
        .as_ref()
        .map(|m| m.0.clone())
        .or(uri_mime)
        .filter(|m| m == "image/png" || m == "image/jpeg")
        .or_else(|| {
            sniff_mime(&data, image.uri.as_deref())
                .filter(|m| *m != "image/webp")
                .map(str::to_string)
        })
        .ok_or_else(|| "is neither PNG nor JPEG".to_string())?;
    Ok(Image {
        name: image.name.clone(),
        mime_type: mime,
        data,
    })
}

/// Base colour factor and texture (as a model image index) of a primitive's material.
pub(crate) fn base_color(
    doc: &Parsed,
    base_dir: Option<&std::path::Path>,
    material: Option<usize>,
    images: &mut Images,
    warnings: &mut Vec<String>,
) -> ([f32; 4], Option<usize>) {
    let Some(material) = material.and_then(|m| doc.root.materials.get(m)) else {
        return ([1.0; 4], None);
    };
    let pbr = &material.pbr_metallic_roughness;
    let factor = pbr.base_color_factor.0;
    let texture = pbr
        .base_color_texture
        .as_ref()
        .and_then(|info| doc.root.textures.get(info.index.value()))
        .and_then(|t| images.get(doc, base_dir, t.source.value(), warnings));
    (factor, texture)
}
