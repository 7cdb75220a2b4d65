//! Foot slide: how far a planted joint travels over the ground while it is planted (the
//! horizontal path length over a [`Contact`], in millimetres).

use super::{Contact, Motion};

/// The horizontal path length of the contact's joint over its frames, millimetres.
pub fn travel_mm(m: &Motion, c: &Contact) -> f32 {
    (c.start + 1..=c.end)
        .map(|f| {
            let d = m.position(f, c.joint) - m.position(f - 1, c.joint);
            (d.x * d.x + d.z * d.z).sqrt()
        })
        .sum::<f32>()
        * 1000.0
}

/// The slide of a set of contacts: the worst one and the mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slide {
    /// The largest travel of one contact, mm.
    pub worst_mm: f32,
    /// The mean travel per contact, mm.
    pub mean_mm: f32,
    /// The contact that slides worst.
    pub worst: Contact,
}

/// The slide of `contacts` (`None` without contacts).
pub fn foot_slide(m: &Motion, contacts: &[Contact]) -> Option<Slide> {
    let travels: Vec<f32> = contacts.iter().map(|c| travel_mm(m, c)).collect();
    let (k, worst) = travels
        .iter()
        .copied()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    Some(Slide {
        worst_mm: worst,
        mean_mm: travels.iter().sum::<f32>() / travels.len() as f32,
        worst: contacts[k],
    })
}
