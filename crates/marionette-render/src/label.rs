//! Small text stamped into rendered images (a contact sheet's time under each cell), from a
//! built-in 5x7 pixel font of the few characters times need: digits, `.`, `-`, `:`, space and
//! the letters `s` and `f`. Other characters are left blank.

use image::{Rgba, RgbaImage};

/// Rows of a 5-pixel-wide glyph, top first (bit 4 is the left column).
fn glyph(c: char) -> Option<[u8; 7]> {
    Some(match c {
        '0' => [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        '1' => [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        '2' => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        '3' => [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        '4' => [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        '5' => [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        '6' => [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        '7' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        '8' => [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        '9' => [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        '.' => [0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C],
        '-' => [0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00],
        ':' => [0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00],
        's' => [0x00, 0x00, 0x0E, 0x10, 0x0E, 0x01, 0x1E],
        'f' => [0x06, 0x09, 0x08, 0x1C, 0x08, 0x08, 0x08],
        ' ' => [0; 7],
        _ => return None,
    })
}

/// Width in pixels of `text` drawn at `scale`.
pub fn text_width(text: &str, scale: u32) -> u32 {
    text.chars().count() as u32 * 6 * scale
}

/// Draws `text` with its top left at (`x`, `y`), `scale` pixels per font pixel, in white on a
/// dark box (clipped to the image).
pub fn stamp(img: &mut RgbaImage, x: u32, y: u32, text: &str, scale: u32) {
    let (w, h) = (text_width(text, scale) + 2 * scale, 9 * scale);
    fill(img, x, y, w, h, Rgba([0, 0, 0, 215]));
    for (i, c) in text.chars().enumerate() {
        let Some(rows) = glyph(c) else {
            continue;
        };
        let gx = x + scale + i as u32 * 6 * scale;
        for (r, bits) in rows.iter().enumerate() {
            for col in 0..5 {
                if bits & (0x10 >> col) != 0 {
                    let px = gx + col * scale;
                    let py = y + scale + r as u32 * scale;
                    fill(img, px, py, scale, scale, Rgba([255, 255, 255, 255]));
                }
            }
        }
    }
}

/// A one-pixel dark line along the right and bottom edges (a contact sheet's cells apart).
pub fn border(img: &mut RgbaImage) {
    let (w, h) = (img.width(), img.height());
    if w == 0 || h == 0 {
        return;
    }
    let dark = Rgba([20, 20, 24, 255]);
    fill(img, w - 1, 0, 1, h, dark);
    fill(img, 0, h - 1, w, 1, dark);
}

/// Blends `color` over the rectangle (clipped to the image).
fn fill(img: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32, color: Rgba<u8>) {
    let a = u32::from(color[3]);
    for py in y..(y + h).min(img.height()) {
        for px in x..(x + w).min(img.width()) {
            let p = img.get_pixel_mut(px, py);
            for k in 0..3 {
                let v = (u32::from(color[k]) * a + u32::from(p[k]) * (255 - a)) / 255;
                p[k] = v as u8;
            }
            p[3] = p[3].max(color[3]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_drawn_where_asked_and_clipped() {
        let mut img = RgbaImage::from_pixel(60, 20, Rgba([100, 100, 100, 255]));
        stamp(&mut img, 2, 2, "1.5 s", 1);
        // the box darkens its area; a "1" has its top pixel in its middle column
        assert!(img.get_pixel(2, 2)[0] < 100);
        assert_eq!(img.get_pixel(3 + 2, 3)[0], 255);
        // far right of the text is untouched
        assert_eq!(img.get_pixel(59, 19)[0], 100);
        // clipped at the edge: no panic
        stamp(&mut img, 55, 15, "12345", 2);
        assert_eq!(text_width("f12", 2), 36);
    }
}
