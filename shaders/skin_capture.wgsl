// Debug capture: morphs and skins vertices with the same `morph_vertex` and `skin_vertex` as
// the render pipeline and writes the results to a buffer for read-back. Prefixed with
// skinning.wgsl at pipeline creation. The vertex buffer is read as raw u32 words (floats
// bitcast, so bit-exact): VertexRaw is 20 words (position 0..3, normal 3..6, uv 6..8, joints
// 8..12 as u32, weights 12..16, skeleton joints 16..20).

struct CaptureParams {
    palette_base: u32,
    first_vertex: u32,
    vertex_count: u32,
    morph_base: u32,
    // the mesh's morph data, as the mesh's material holds it
    morph: vec4<u32>,
}

@group(0) @binding(0) var<uniform> params: CaptureParams;
@group(0) @binding(2) var<storage, read> vertices: array<u32>;
// Two entries per vertex: skinned position (w = 1) and skinned normal (w = 0).
@group(0) @binding(5) var<storage, read_write> skinned: array<vec4<f32>>;

@compute @workgroup_size(64)
fn cs_main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.vertex_count) {
        return;
    }
    let vertex = params.first_vertex + i;
    let o = vertex * 20u;
    let position = bitcast<vec3<f32>>(vec3<u32>(vertices[o], vertices[o + 1u], vertices[o + 2u]));
    let normal = bitcast<vec3<f32>>(vec3<u32>(vertices[o + 3u], vertices[o + 4u], vertices[o + 5u]));
    let joints = vec4<u32>(vertices[o + 8u], vertices[o + 9u], vertices[o + 10u], vertices[o + 11u]);
    let weights = bitcast<vec4<f32>>(
        vec4<u32>(vertices[o + 12u], vertices[o + 13u], vertices[o + 14u], vertices[o + 15u]));
    let m = morph_vertex(params.morph_base, params.morph, vertex, position, normal);
    let s = skin_vertex(params.palette_base, m.position, m.normal, joints, weights);
    skinned[2u * i] = vec4<f32>(s.position, 1.0);
    skinned[2u * i + 1u] = vec4<f32>(s.normal, 0.0);
}
