//! Saving a rendered image: PNG as is, JPEG (`.jpg`/`.jpeg`) without the alpha channel, encoded
//! in memory and written through a temporary file renamed into place ([`marionette_io::write_file`]),
//! so an interrupted command never leaves a partial image. The overwrite rule is the caller's.

use std::path::Path;

use super::RenderError;

/// Saves `image` to `path` in the format its extension names (PNG unless `.jpg`/`.jpeg`).
pub fn save_image(image: &image::RgbaImage, path: &Path) -> Result<(), RenderError> {
    let jpeg = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("jpg") || e.eq_ignore_ascii_case("jpeg"));
    let mut bytes = std::io::Cursor::new(Vec::new());
    let encoded = if jpeg {
        image::DynamicImage::ImageRgba8(image.clone())
            .to_rgb8()
            .write_to(&mut bytes, image::ImageFormat::Jpeg)
    } else {
        image.write_to(&mut bytes, image::ImageFormat::Png)
    };
    encoded.map_err(|error| RenderError::Encode {
        path: path.display().to_string(),
        error,
    })?;
    marionette_io::write_file(path, bytes.get_ref())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PNG keeps the pixels and alpha; JPEG is written as 3-channel RGB.
    #[test]
    fn png_and_jpeg() {
        let dir = std::env::temp_dir().join(format!("marionette-img-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let img = image::RgbaImage::from_pixel(4, 3, image::Rgba([10, 200, 30, 128]));
        save_image(&img, &dir.join("a.png")).unwrap();
        assert_eq!(image::open(dir.join("a.png")).unwrap().to_rgba8(), img);
        save_image(&img, &dir.join("a.JPG")).unwrap();
        let jpg = image::open(dir.join("a.JPG")).unwrap();
        assert_eq!(jpg.color(), image::ColorType::Rgb8);
        assert_eq!((jpg.width(), jpg.height()), (4, 3));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
