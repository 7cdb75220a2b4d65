// Morph targets, then linear blend skinning, shared by the render pipeline (mesh.wgsl) and the
// capture compute pass (skin_capture.wgsl): both are compiled as `skinning.wgsl + <shader>.wgsl`,
// so the GPU path that draws is the one the capture test compares with the CPU reference
// (`marionette::anim::morph_vertices`, then `skin_vertices`), and it follows the same steps: add
// each active target's deltas, blend the matrices, then transform; normals by the blended
// matrix's inverse transpose, renormalised.
//
// Palette entry = armature * joint model matrix * inverse bind matrix (rigid meshes: without the
// inverse bind). All characters' palettes live in one storage buffer; each instance has a base.
//
// Morph deltas of every mesh live in one storage buffer (two vec4 per vertex per target:
// position delta, normal delta). Each frame, each character's active targets are listed in the
// morph table: at the character's morph base, one header per morph set (first entry, count);
// each entry is (target, weight bits). Only targets with a non-zero weight are listed, so a
// face at rest costs one header read per vertex, and a rig without morph targets none.

@group(0) @binding(1) var<storage, read> palette: array<mat4x4<f32>>;
@group(0) @binding(3) var<storage, read> morph_deltas: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> morph_table: array<vec2<u32>>;

const NO_MORPH: u32 = 0xffffffffu;

struct Skinned {
    position: vec3<f32>,
    normal: vec3<f32>,
}

// A mesh's morph data: x = its morph set (NO_MORPH: none), y = its vertex count, z = its first
// vertex in the shared vertex buffer, w = its first delta in `morph_deltas`.
// Adds the active targets of the mesh's set (listed at `morph_base`) to one vertex.
fn morph_vertex(morph_base: u32, mesh: vec4<u32>, vertex: u32, position: vec3<f32>, normal: vec3<f32>) -> Skinned {
    var p = position;
    var n = normal;
    if (mesh.x != NO_MORPH) {
        let local = vertex - mesh.z;
        let header = morph_table[morph_base + mesh.x];
        for (var i = 0u; i < header.y; i = i + 1u) {
            let entry = morph_table[header.x + i];
            let w = bitcast<f32>(entry.y);
            let at = mesh.w + (entry.x * mesh.y + local) * 2u;
            p = p + morph_deltas[at].xyz * w;
            n = n + morph_deltas[at + 1u].xyz * w;
        }
    }
    return Skinned(p, n);
}

// Skins one vertex with up to four influences (zero weights skipped).
fn skin_vertex(base: u32, position: vec3<f32>, normal: vec3<f32>, joints: vec4<u32>, weights: vec4<f32>) -> Skinned {
    var m = mat4x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    for (var i = 0u; i < 4u; i = i + 1u) {
        let w = weights[i];
        if (w != 0.0) {
            m = m + palette[base + joints[i]] * w;
        }
    }
    let p = (m * vec4<f32>(position, 1.0)).xyz;
    // Inverse transpose of the upper 3x3 = cofactor matrix / det; the scale is renormalised away,
    // only the sign of det matters. A degenerate matrix transforms the normal directly.
    let a = m[0].xyz;
    let b = m[1].xyz;
    let c = m[2].xyz;
    let cof = mat3x3<f32>(cross(b, c), cross(c, a), cross(a, b));
    let det = dot(a, cross(b, c));
    var n = vec3<f32>(0.0);
    if (abs(det) > 1.17549435e-38) {
        n = (cof * normal) * sign(det);
    } else {
        n = mat3x3<f32>(a, b, c) * normal;
    }
    let len = length(n);
    if (len > 0.0) {
        n = n / len;
    }
    return Skinned(p, n);
}
