// Morphed, skinned, instanced mesh drawing with hemisphere + key lighting, base colour texture
// and the weight heatmap debug view. Prefixed with skinning.wgsl at pipeline creation.

struct Frame {
    view_proj: mat4x4<f32>,
    eye: vec4<f32>,
    key_dir: vec4<f32>,
    // x: heatmap joint (0xffffffff = off)
    params: vec4<u32>,
}

struct Instance {
    world: mat4x4<f32>,
    tint: vec4<f32>,
    palette_base: u32,
    morph_base: u32,
    pad1: u32,
    pad2: u32,
}

struct Material {
    base_color: vec4<f32>,
    // the mesh's morph data (see `morph_vertex` in skinning.wgsl)
    morph: vec4<u32>,
}

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(2) var<storage, read> instances: array<Instance>;
@group(1) @binding(0) var<uniform> material: Material;
@group(1) @binding(1) var base_texture: texture_2d<f32>;
@group(1) @binding(2) var base_sampler: sampler;

struct VsIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) joints: vec4<u32>,
    @location(4) weights: vec4<f32>,
    @location(5) skeleton_joints: vec4<u32>,
}

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world_pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) tint: vec4<f32>,
    @location(4) heat: f32,
}

@vertex
fn vs_main(v: VsIn, @builtin(instance_index) instance_index: u32, @builtin(vertex_index) vertex_index: u32) -> VsOut {
    let inst = instances[instance_index];
    let m = morph_vertex(inst.morph_base, material.morph, vertex_index, v.position, v.normal);
    let s = skin_vertex(inst.palette_base, m.position, m.normal, v.joints, v.weights);
    let world = inst.world * vec4<f32>(s.position, 1.0);
    let n = (inst.world * vec4<f32>(s.normal, 0.0)).xyz;
    var heat = 0.0;
    for (var i = 0u; i < 4u; i = i + 1u) {
        if (v.skeleton_joints[i] == frame.params.x) {
            heat = heat + v.weights[i];
        }
    }
    var out: VsOut;
    out.clip = frame.view_proj * world;
    out.world_pos = world.xyz;
    out.normal = n;
    out.uv = v.uv;
    out.tint = inst.tint;
    out.heat = heat;
    return out;
}

// Cold (0) blue -> cyan -> green -> yellow -> red (1) warm.
fn heat_color(t: f32) -> vec3<f32> {
    let x = clamp(t, 0.0, 1.0);
    let r = clamp(2.0 * x - 0.5, 0.0, 1.0);
    let g = clamp(1.5 - abs(2.0 * x - 1.0) * 1.5, 0.0, 1.0);
    let b = clamp(1.0 - 2.0 * x + 0.25, 0.0, 1.0) * step(x, 0.75);
    return vec3<f32>(r, g, b);
}

@fragment
fn fs_main(in: VsOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    var albedo = material.base_color * textureSample(base_texture, base_sampler, in.uv);
    if (frame.params.x != 0xffffffffu) {
        albedo = vec4<f32>(heat_color(in.heat), 1.0);
    }
    let view = normalize(frame.eye.xyz - in.world_pos);
    // Meshes without normals are lit with flat face normals from screen-space derivatives
    // (computed unconditionally: derivatives need uniform control flow), turned to the viewer.
    var face = cross(dpdx(in.world_pos), dpdy(in.world_pos));
    if (dot(face, view) < 0.0) {
        face = -face;
    }
    var n = in.normal;
    if (length(n) < 1e-6) {
        n = face;
    } else if (!front) {
        n = -n;
    }
    if (length(n) < 1e-20) {
        n = view;
    }
    n = normalize(n);
    let sky = vec3<f32>(0.42, 0.46, 0.55);
    let ground = vec3<f32>(0.16, 0.14, 0.12);
    let hemi = mix(ground, sky, 0.5 + 0.5 * n.y);
    let key = max(dot(n, frame.key_dir.xyz), 0.0) * vec3<f32>(0.80, 0.76, 0.68);
    // clamp: dot may exceed 1 by rounding, and pow of a negative base is NaN.
    let rim = pow(clamp(1.0 - dot(n, view), 0.0, 1.0), 3.0) * 0.15;
    let lit = albedo.rgb * (hemi + key) + vec3<f32>(rim);
    return vec4<f32>(lit * in.tint.rgb, albedo.a * in.tint.a);
}
