//! GPU morphing and skinning equal the CPU reference: the capture pass runs the render
//! pipeline's WGSL `morph_vertex` and `skin_vertex` (same file) over the uploaded vertices, morph
//! deltas, the shared palette buffer and the frame's morph table, and the result is compared
//! with `marionette_anim::morph_vertices` then `skin_vertices` (max error < 1e-4 m).

use crate::render_common;

use crate::render_common::{gpu, mannequin, testdata_file};
use glam::{Mat4, Vec3};
use marionette_anim::Model;
use marionette_anim::{morph_vertices, skin_vertices, Clip, PoseSource, Transform};
use marionette_render::{
    Bounds, Cast, Character, ClipPoses, GpuContext, OrbitCamera, Poser, Scene, Shot, SkinCapture,
    ViewOptions, OFFSCREEN_FORMAT,
};

/// A clip's poses with the morph weights replaced by `weights` (a face the clips keep at
/// rest, driven as a script would).
struct Faced<'m> {
    clip: ClipPoses<'m>,
    weights: Option<Vec<f32>>,
}

impl PoseSource for Faced<'_> {
    fn range(&self) -> (f32, f32) {
        self.clip.range()
    }
    fn pose_at(&mut self, time: f32, local: &mut Vec<Transform>) -> Mat4 {
        self.clip.pose_at(time, local)
    }
    fn morphs(&self) -> &[f32] {
        self.weights.as_deref().unwrap_or(self.clip.morphs())
    }
}

/// The rest pose (source 0), then every clip of `model` (source `1 + clip index`), then every
/// clip again with its morph weights set to a pattern (source `1 + clips + clip index`: each
/// target at `(k + 1) / (targets + 1)`, every third at zero, so some are inactive).
fn sources(model: &Model) -> Vec<Faced<'_>> {
    let n = model.skeleton.morphs().len();
    let pattern: Vec<f32> = (0..n)
        .map(|k| {
            if k % 3 == 2 {
                0.0
            } else {
                (k + 1) as f32 / (n + 1) as f32
            }
        })
        .collect();
    fn plain<'m>(model: &'m Model, c: Option<&'m Clip>) -> Faced<'m> {
        Faced {
            clip: ClipPoses::of(&model.skeleton, c),
            weights: None,
        }
    }
    std::iter::once(plain(model, None))
        .chain(model.clips.iter().map(|c| plain(model, Some(c))))
        .chain(model.clips.iter().map(|c| Faced {
            clip: ClipPoses::of(&model.skeleton, Some(c)),
            weights: Some(pattern.clone()),
        }))
        .collect()
}

/// What [`compare`] measured.
struct Compared {
    /// Largest position error, metres.
    position: f32,
    /// Largest normal error (unit-vector distance).
    normal: f32,
    /// Vertices checked.
    count: usize,
    /// Largest distance a morph target moved a vertex (before skinning), metres: the
    /// comparison covered morphing only when this is not zero.
    morphed: f32,
}

/// Largest position error (m) and normal error (unit-vector distance) over all meshes, for
/// every character in `characters` (each checked at its own palette and morph bases; sources
/// as in [`sources`]).
fn compare(ctx: &GpuContext, model: &Model, characters: &[Character]) -> Compared {
    let mut sources = sources(model);
    let mut scene = Scene::new(ctx, model, OFFSCREEN_FORMAT, 1).expect("scene");
    let view = ViewOptions {
        grid: false,
        ..Default::default()
    };
    scene.prepare(
        ctx,
        model,
        Cast {
            sources: &mut sources,
            characters,
        },
        &view,
        &Shot {
            camera: OrbitCamera::default(),
            bounds: Bounds::EMPTY,
        },
        1.0,
    );
    let capture = SkinCapture::new(&ctx.device);
    let mut poser = Poser::new(model);
    let (mut max_p, mut max_n, mut checked, mut moved) = (0f32, 0f32, 0usize, 0f32);
    for (ci, c) in characters.iter().enumerate() {
        poser.pose_source(model, &mut sources[c.source], c.time);
        let instance = scene.instances()[ci];
        assert_eq!(instance.palette_base, ci as u32 * scene.gpu.layout.len);
        for (mi, mesh) in model.meshes.iter().enumerate() {
            let n = mesh.positions.len();
            let got = capture
                .run(ctx, &scene.gpu, &scene.renderer, &instance, mi)
                .expect("capture");
            // the CPU reference: morph (the mesh's set's weights), then skin
            let (mut morphed, mut morphed_n) = (mesh.positions.clone(), mesh.normals.clone());
            if let Some(set) = mesh.morph_set {
                let w = &poser.morphs()[model.skeleton.morphs().range(set)];
                morph_vertices(
                    &mesh.positions,
                    &mesh.normals,
                    &mesh.targets,
                    w,
                    &mut morphed,
                    &mut morphed_n,
                );
            }
            for (a, b) in morphed.iter().zip(&mesh.positions) {
                moved = moved.max(a.distance(*b));
            }
            let (positions, normals) = (&morphed, &morphed_n);
            let mut pos = vec![Vec3::ZERO; n];
            let mut nrm = vec![Vec3::ZERO; mesh.normals.len()];
            match mesh.skin {
                Some(s) => skin_vertices(
                    &poser.skin_palettes()[s],
                    &mesh.joints,
                    &mesh.weights,
                    positions,
                    normals,
                    &mut pos,
                    &mut nrm,
                ),
                None => {
                    let m: Mat4 = mesh
                        .node_joint
                        .map_or(model.skeleton.armature(), |j| poser.joint_world[j as usize]);
                    skin_vertices(
                        &[m],
                        &vec![[0; 4]; n],
                        &vec![[1.0, 0.0, 0.0, 0.0]; n],
                        positions,
                        normals,
                        &mut pos,
                        &mut nrm,
                    );
                }
            }
            for v in 0..n {
                max_p = max_p.max((got[v].0 - pos[v]).abs().max_element());
                if v < nrm.len() {
                    max_n = max_n.max((got[v].1 - nrm[v]).length());
                }
            }
            checked += n;
        }
    }
    assert!(ctx.take_errors().is_empty(), "wgpu validation errors");
    Compared {
        position: max_p,
        normal: max_n,
        count: checked,
        morphed: moved,
    }
}

/// The rest pose, three times of every clip, and the middle of every clip with its morph
/// weights set (see [`sources`]).
fn characters(model: &Model) -> Vec<Character> {
    let mut out = vec![Character {
        world: Mat4::IDENTITY,
        source: 0,
        time: 0.0,
    }];
    let clips = model.clips.len();
    for (ci, clip) in model.clips.iter().enumerate() {
        for k in 0..3 {
            out.push(Character {
                world: Mat4::IDENTITY,
                source: 1 + ci,
                time: clip.start + (clip.end - clip.start) * (0.17 + 0.31 * k as f32),
            });
        }
        out.push(Character {
            world: Mat4::IDENTITY,
            source: 1 + clips + ci,
            time: 0.5 * (clip.start + clip.end),
        });
    }
    out
}

/// Mannequin: rest pose and three times of every clip, all in one palette buffer.
#[test]
fn gpu_skinning_matches_cpu_mannequin() {
    let Some(ctx) = gpu() else { return };
    let model = mannequin();
    let c = compare(&ctx, &model, &characters(&model));
    let (p, n, count) = (c.position, c.normal, c.count);
    eprintln!(
        "mannequin: {count} vertices, max position error {p:e} m, max normal error {n:e}, \
         morphs moved vertices up to {:e} m",
        c.morphed
    );
    assert!(count > 1000);
    assert!(p < 1e-4, "max position error {p}");
    assert!(n < 1e-3, "max normal error {n}");
    // the face's targets were driven (blink, smile and jaw_open move millimetres)
    assert!(c.morphed > 1e-3, "no vertex was morphed ({})", c.morphed);
}

/// Fox (public glTF sample, centimetre-scale armature): same comparison.
#[test]
fn gpu_skinning_matches_cpu_fox() {
    let Some(path) = testdata_file("Fox.glb") else {
        return;
    };
    let Some(ctx) = gpu() else { return };
    let model = marionette_io::import(&path).expect("import Fox");
    let c = compare(&ctx, &model, &characters(&model));
    let (p, n, count) = (c.position, c.normal, c.count);
    eprintln!("Fox: {count} vertices, max position error {p:e} m, max normal error {n:e}");
    assert!(count > 1000);
    assert!(p < 1e-4, "max position error {p}");
    assert!(n < 1e-3, "max normal error {n}");
}

/// RobotExpressive (three face meshes with Angry, Surprised and Sad, rigidly attached to the
/// head): its clips keep the weights at zero, so the faced characters drive them; the GPU's
/// morphing then skinning equals the CPU's.
#[test]
fn gpu_morphing_matches_cpu_robot() {
    let Some(path) = testdata_file("RobotExpressive.glb") else {
        return;
    };
    let Some(ctx) = gpu() else { return };
    let model = marionette_io::import(&path).expect("import RobotExpressive");
    assert_eq!(model.skeleton.morphs().len(), 9);
    let c = compare(&ctx, &model, &characters(&model));
    eprintln!(
        "RobotExpressive: {} vertices, max position error {:e} m, max normal error {:e}, \
         morphs moved vertices up to {:e} m",
        c.count, c.position, c.normal, c.morphed
    );
    assert!(c.morphed > 1e-3, "no vertex was morphed ({})", c.morphed);
    assert!(c.position < 1e-4, "max position error {}", c.position);
    assert!(c.normal < 1e-3, "max normal error {}", c.normal);
}

/// A two-joint model whose only mesh is rigidly attached to the animated joint (glTF node
/// animation: no skin): the GPU places it with the joint's world matrix, like the CPU.
#[test]
fn rigid_node_animated_mesh() {
    use glam::Quat;
    use marionette_anim::{
        Clip, Interpolation, JointTracks, Skeleton, SkinnedMesh, Track, Transform,
    };
    let Some(ctx) = gpu() else { return };
    let skeleton = Skeleton::new(
        vec!["root".into(), "arm".into()],
        vec![None, Some(0)],
        vec![
            Transform::IDENTITY,
            Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
        ],
        Mat4::from_scale(Vec3::splat(2.0)),
    )
    .expect("skeleton")
    .skeleton;
    let mut tracks = JointTracks::new(1);
    tracks.rotation = Some(Track {
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0],
        values: vec![
            Quat::IDENTITY,
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        ],
    });
    let mesh = SkinnedMesh {
        name: "box".into(),
        skin: None,
        node_joint: Some(1),
        positions: vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.2, 0.0, 0.0),
            Vec3::new(0.2, 0.8, 0.0),
            Vec3::new(0.0, 0.8, 0.0),
        ],
        normals: vec![Vec3::Z; 4],
        indices: vec![0, 1, 2, 0, 2, 3],
        base_color: [0.8, 0.3, 0.2, 1.0],
        ..Default::default()
    };
    let model = Model {
        skeleton,
        joint_nodes: vec![0, 1],
        meshes: vec![mesh],
        clips: vec![Clip::new("swing", vec![tracks])],
        ..Default::default()
    };
    let chars: Vec<Character> = [0.0, 0.5, 1.0]
        .iter()
        .map(|&time| Character {
            world: Mat4::IDENTITY,
            source: 1,
            time,
        })
        .collect();
    let c = compare(&ctx, &model, &chars);
    let (p, n, count) = (c.position, c.normal, c.count);
    assert_eq!(count, 12);
    assert!(p < 1e-5 && n < 1e-5, "errors {p} {n}");
    // At t = 1 the tip (0, 0.8) of the box is rotated to (-0.8, 0) around the arm joint at
    // (0, 1), then scaled by the armature: (-1.6, 2.0, 0).
    let mut poser = Poser::new(&model);
    poser.pose_source(
        &model,
        &mut ClipPoses::new(&model, Some(0)).expect("clip"),
        1.0,
    );
    let tip = poser.joint_world[1].transform_point3(Vec3::new(0.0, 0.8, 0.0));
    assert!(tip.abs_diff_eq(Vec3::new(-1.6, 2.0, 0.0), 1e-5), "{tip}");
    // And it renders, differently at the two ends of the clip.
    let render = |time| {
        marionette_render::render_model(
            &ctx,
            &model,
            &marionette_render::RenderRequest {
                clip: Some(0),
                time,
                ..Default::default()
            },
        )
        .expect("render")
    };
    let (a, b) = (render(0.0), render(1.0));
    let (differ, _) = render_common::diff(&a, &b, 40);
    assert!(
        differ > 200,
        "the rigid mesh did not move ({differ} pixels differ)"
    );
}
