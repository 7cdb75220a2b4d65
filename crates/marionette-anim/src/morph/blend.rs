//! Morph weights blended as joints are ([`crate::blend`]): linearly, with the same weights, masks
//! and additive rule. Each function is a loop over the weights and does nothing for a rig
//! without morph targets (empty slices).

/// `a = lerp(a, b, t)` per weight.
#[inline]
pub fn lerp_in_place(a: &mut [f32], b: &[f32], t: f32) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += (y - *x) * t;
    }
}

/// `out = lerp(a, b, t)` per weight.
#[inline]
pub fn lerp_into(a: &[f32], b: &[f32], t: f32, out: &mut [f32]) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = x + (y - x) * t;
    }
}

/// `base = lerp(base, layer, weight * mask[k])` per weight; a weight beyond the mask's length
/// keeps the base.
#[inline]
pub fn layer_in_place(base: &mut [f32], layer: &[f32], mask: &[f32], weight: f32) {
    for (k, (x, y)) in base.iter_mut().zip(layer).enumerate() {
        let w = weight * mask.get(k).copied().unwrap_or(0.0);
        if w >= 1.0 {
            *x = *y;
        } else if w > 0.0 {
            *x += (y - *x) * w;
        }
    }
}

/// Starts an N-way blend: `acc *= weight`.
#[inline]
pub fn begin_accumulate(acc: &mut [f32], weight: f32) {
    for x in acc.iter_mut() {
        *x *= weight;
    }
}

/// Adds `weight * input` to the accumulating blend.
#[inline]
pub fn accumulate(acc: &mut [f32], input: &[f32], weight: f32) {
    for (x, y) in acc.iter_mut().zip(input) {
        *x += y * weight;
    }
}

/// Applies the additive difference `pose - reference` on top of `base`, scaled by
/// `weight * mask[k]` (no mask: weight 1 everywhere).
#[inline]
pub fn add_difference(
    base: &mut [f32],
    pose: &[f32],
    reference: &[f32],
    weight: f32,
    mask: Option<&[f32]>,
) {
    for (k, ((x, p), r)) in base.iter_mut().zip(pose).zip(reference).enumerate() {
        let w = weight * mask.map_or(1.0, |m| m.get(k).copied().unwrap_or(0.0));
        if w != 0.0 {
            *x += (p - r) * w;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lerp, masked layer, a three-way blend and an additive difference on three weights.
    #[test]
    fn weights_blend_like_translations() {
        let mut a = [0.0, 1.0, 0.5];
        lerp_in_place(&mut a, &[1.0, 0.0, 0.5], 0.25);
        assert_eq!(a, [0.25, 0.75, 0.5]);
        let mut base = [0.0; 3];
        layer_in_place(&mut base, &[1.0; 3], &[0.0, 0.5], 0.8);
        assert_eq!(base, [0.0, 0.4, 0.0]);
        let mut acc = [1.0, 0.0, 0.0];
        begin_accumulate(&mut acc, 0.5);
        accumulate(&mut acc, &[0.0, 1.0, 0.0], 0.25);
        accumulate(&mut acc, &[0.0, 0.0, 1.0], 0.25);
        assert_eq!(acc, [0.5, 0.25, 0.25]);
        let mut b = [0.2, 0.2, 0.2];
        add_difference(&mut b, &[1.0, 0.5, 0.0], &[0.0, 0.5, 0.0], 0.5, None);
        assert_eq!(b, [0.7, 0.2, 0.2]);
    }
}
