// Linear blend skinning, shared by the render pipeline (mesh.wgsl) and the capture compute pass
// (skin_capture.wgsl): both are compiled as `skinning.wgsl + <shader>.wgsl`, so the GPU path
// that draws is the one the capture test compares with the CPU reference
// (`marionette::anim::skin_vertices`), and it follows the same steps: blend the matrices, then
// transform; normals by the blended matrix's inverse transpose, renormalised.
//
// Palette entry = armature * joint model matrix * inverse bind matrix (rigid meshes: without the
// inverse bind). All characters' palettes live in one storage buffer; each instance has a base.

@group(0) @binding(1) var<storage, read> palette: array<mat4x4<f32>>;

struct Skinned {
    position: vec3<f32>,
    normal: vec3<f32>,
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
