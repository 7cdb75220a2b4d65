//! Instancing: 100 mannequins with different poses in one instanced draw (one palette buffer,
//! a palette base per instance) render as 100 distinct characters.

use crate::render_common;

use crate::render_common::{gpu, mannequin};
use glam::{Mat4, Vec3};
use marionette_render::{
    Bounds, Cast, Character, ClipPoses, OffscreenTarget, OrbitCamera, Poser, Scene, Shot,
    ViewOptions, OFFSCREEN_FORMAT,
};

const SIDE: usize = 10;
const SIZE: u32 = 800;
const CELL: i64 = (SIZE as usize / SIDE) as i64;

/// Each of 100 instances (walk, run and jump at spread-out times, on a 10x10 wall facing a
/// side-on camera) is visible in its own cell, and every pair of cells differs.
#[test]
fn hundred_instances_are_distinct() {
    let Some(ctx) = gpu() else { return };
    let model = mannequin();
    let clips: Vec<usize> = ["walk", "run", "jump"]
        .iter()
        .map(|n| model.clips.iter().position(|c| c.name == *n).expect("clip"))
        .collect();
    let mut sources: Vec<ClipPoses> = clips
        .iter()
        .map(|&c| ClipPoses::new(&model, Some(c)).expect("clip"))
        .collect();
    let spacing = 2.2;
    let mut characters = Vec::new();
    for i in 0..SIDE * SIDE {
        let (col, row) = (i % SIDE, i / SIDE);
        let source = i % clips.len();
        let c = &model.clips[clips[source]];
        let k = (i / clips.len()) as f32 / (SIDE * SIDE / clips.len() + 1) as f32;
        // Side view: the wall of characters lies in the Z-Y plane, the camera looks along -X.
        let world = Mat4::from_translation(Vec3::new(
            0.0,
            (SIDE - 1 - row) as f32 * spacing,
            (col as f32 - (SIDE as f32 - 1.0) / 2.0) * -spacing,
        ));
        characters.push(Character {
            world,
            source,
            time: c.start + (c.end - c.start) * k,
        });
    }
    let half = spacing * SIDE as f32 / 2.0;
    let bounds = Bounds {
        min: Vec3::new(-0.5, -0.2, -half),
        max: Vec3::new(0.5, spacing * SIDE as f32 - 0.2, half),
    };
    let mut camera = OrbitCamera {
        target: Vec3::ZERO,
        yaw: std::f32::consts::FRAC_PI_2,
        pitch: 0.0,
        distance: 1.0,
        fov_y: 10f32.to_radians(),
    };
    camera.frame(&bounds, 1.0);
    let target =
        OffscreenTarget::new(&ctx, SIZE, SIZE, ctx.sample_count(OFFSCREEN_FORMAT)).expect("target");
    let mut scene = Scene::new(&ctx, &model, OFFSCREEN_FORMAT, target.sample_count).expect("scene");
    let view = ViewOptions {
        grid: false,
        ..Default::default()
    };
    let img = scene
        .render_image(
            &ctx,
            &target,
            &model,
            Cast {
                sources: &mut sources,
                characters: &characters,
            },
            &view,
            &Shot { camera, bounds },
        )
        .expect("render");
    assert!(ctx.take_errors().is_empty(), "wgpu validation errors");
    img.save(render_common::output_dir().join("instances_100.png"))
        .expect("write image");
    assert_eq!(
        scene.palettes().len(),
        100 * scene.gpu.layout.len as usize,
        "one palette per instance in the shared buffer"
    );

    // Crop each character around its projected pelvis (root motion moves it inside the cell).
    let vp = camera.view_proj(1.0);
    let pelvis = model.skeleton.find("pelvis").expect("pelvis") as usize;
    let mut poser = Poser::new(&model);
    let bg = img.get_pixel(0, 0).0;
    let masks: Vec<Vec<bool>> = characters
        .iter()
        .map(|c| {
            let world = c.world * poser.pose_source(&model, &mut sources[c.source], c.time);
            let p = vp * (world * poser.joint_world[pelvis]).w_axis;
            let (x, y) = (
                ((p.x / p.w * 0.5 + 0.5) * SIZE as f32) as i64,
                ((0.5 - p.y / p.w * 0.5) * SIZE as f32) as i64,
            );
            let mut mask = Vec::with_capacity((CELL * CELL) as usize);
            for dy in -CELL / 2..CELL / 2 {
                for dx in -CELL / 2..CELL / 2 {
                    let (px, py) = (x + dx, y + dy);
                    let inside = px >= 0 && py >= 0 && px < SIZE as i64 && py < SIZE as i64;
                    mask.push(
                        inside
                            && img
                                .get_pixel(px as u32, py as u32)
                                .0
                                .iter()
                                .zip(bg.iter())
                                .any(|(a, b)| a.abs_diff(*b) > 24),
                    );
                }
            }
            mask
        })
        .collect();
    for (i, m) in masks.iter().enumerate() {
        let n = m.iter().filter(|b| **b).count();
        assert!(
            n > 150,
            "instance {i}: only {n} character pixels in its cell"
        );
    }
    let mut min_diff = usize::MAX;
    for i in 0..masks.len() {
        for j in i + 1..masks.len() {
            let d = masks[i]
                .iter()
                .zip(&masks[j])
                .filter(|(a, b)| a != b)
                .count();
            assert!(
                d >= 8,
                "instances {i} and {j} look the same ({d} pixels differ)"
            );
            min_diff = min_diff.min(d);
        }
    }
    eprintln!("100 instances: smallest silhouette difference between two cells: {min_diff} px");
}
