"""Builds a small skinned face with shape keys in Blender and exports it as GLB, for the morph
target comparisons (tests/blender/shape_keys.py, tests/js/three_morphs.mjs).

Run as: blender -b --factory-startup --python-exit-code 1 -P make_shape_keys.py -- OUT.glb
            [--sample] [--interp BEZIER|LINEAR|CONSTANT]

Scene (24 fps, frames 0..48 = 0..2 s), all deterministic:
  "Rig"  armature, bones "root" (0,0,0)->(0,0,1) and "head" (0,0,1)->(0,0,1.5), head child of root;
  "Face" smooth UV sphere (r 0.25, 16 x 8: 114 vertices) around the head, skinned to both bones
         (weights blend root -> head with height), shape keys Basis, "smile", "blink", "jaw_open"
         each moving its own region by a few centimetres.
One animation, "Talk": action "Talk_face" on the shape keys (keys at frames 0 6 12 18 30 42 48,
values in [0, 1]; smile BEZIER, blink LINEAR, jaw_open CONSTANT, or all --interp) and action
"Talk_rig" on the armature (head nods about X, BEZIER quaternion keys at 0 16 32 48). Both are
the active actions and are exported merged under one name (export_nla_strips=False, merged name
"Talk").

glTF has one sampler per weights channel, so the three curves share one interpolation. Mixed
interpolations (the default) make the exporter bake the channel: one LINEAR key per frame (49),
with or without --sample. With --interp and no --sample the keys are kept: BEZIER ->
CUBICSPLINE (tangents from the handles), LINEAR -> LINEAR, CONSTANT -> STEP, 7 keys each.
--sample (export_force_sampling=True) bakes everything, joints included (T/R/S of both bones).
extras.targetNames is written whatever export_extras says. Runs give the same positions, skin and
animation bytes; the exporter's normals may differ in the last bit and its triangle order vary.
"""
import sys

import bmesh
import bpy
from mathutils import Quaternion, Vector

args = sys.argv[sys.argv.index("--") + 1:]
out_path = args[0]
force_sampling = "--sample" in args[1:]
uniform = args[args.index("--interp") + 1] if "--interp" in args else None

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 24
scene.render.fps_base = 1.0
scene.frame_start = 0
scene.frame_end = 48

# Armature: root bone up the Z axis, head bone on top of it.
arm_data = bpy.data.armatures.new("Rig")
rig = bpy.data.objects.new("Rig", arm_data)
scene.collection.objects.link(rig)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="EDIT")
root = arm_data.edit_bones.new("root")
root.head, root.tail = (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)
head = arm_data.edit_bones.new("head")
head.head, head.tail = (0.0, 0.0, 1.0), (0.0, 0.0, 1.5)
head.parent = root
head.use_connect = True
bpy.ops.object.mode_set(mode="OBJECT")

# Face: a UV sphere centred at z = 1.25, from z = 1.0 to 1.5.
mesh = bpy.data.meshes.new("Face")
bm = bmesh.new()
bmesh.ops.create_uvsphere(bm, u_segments=16, v_segments=8, radius=0.25)
bmesh.ops.translate(bm, vec=(0.0, 0.0, 1.25), verts=bm.verts)
bm.to_mesh(mesh)
bm.free()
mesh.polygons.foreach_set("use_smooth", [True] * len(mesh.polygons))  # one glTF vertex per vertex
face = bpy.data.objects.new("Face", mesh)
scene.collection.objects.link(face)
face.parent = rig

# Skinning: head weight rises linearly with height over the sphere, root takes the rest.
vg_root = face.vertex_groups.new(name="root")
vg_head = face.vertex_groups.new(name="head")
for v in mesh.vertices:
    w = min(max((v.co.z - 1.0) / 0.5, 0.0), 1.0)
    if w < 1.0:
        vg_root.add([v.index], 1.0 - w, "REPLACE")
    if w > 0.0:
        vg_head.add([v.index], w, "REPLACE")
mod = face.modifiers.new(name="Armature", type="ARMATURE")
mod.object = rig

# Shape keys (Blender is Z-up, -Y is the front): each moves its own region of the sphere.
face.shape_key_add(name="Basis")
regions = {
    # name: (vertex filter on the basis position, offset in metres)
    "smile": (lambda c: c.y < -0.1 and 1.05 < c.z < 1.26, (0.0, -0.01, 0.03)),
    "blink": (lambda c: c.y < -0.1 and c.z > 1.3, (0.0, 0.0, -0.02)),
    "jaw_open": (lambda c: c.z < 1.15, (0.0, -0.02, -0.05)),
}
for name, (inside, offset) in regions.items():
    kb = face.shape_key_add(name=name, from_mix=False)
    for v in mesh.vertices:
        if inside(v.co):
            kb.data[v.index].co = v.co + Vector(offset)

# Shape-key action: the three keys share key frames (irregularly spaced); by default each curve
# has its own interpolation, or all have the one given by --interp.
key = mesh.shape_keys
key.animation_data_create()
key.animation_data.action = bpy.data.actions.new("Talk_face")
frames = [0, 6, 12, 18, 30, 42, 48]
curves = {
    "smile": ("BEZIER", [0.0, 0.2, 1.0, 0.6, 0.3, 0.8, 0.8]),
    "blink": ("LINEAR", [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0]),
    "jaw_open": ("CONSTANT", [0.0, 0.5, 0.5, 1.0, 0.25, 0.0, 0.0]),
}
for name, (interp, values) in curves.items():
    kb = key.key_blocks[name]
    for frame, value in zip(frames, values):
        kb.value = value
        kb.keyframe_insert("value", frame=frame)
    kb.value = 0.0
for fc in key.animation_data.action.fcurves:
    interp = uniform or curves[fc.data_path.split('"')[1]][0]
    for kp in fc.keyframe_points:
        kp.interpolation = interp
    fc.update()

# Armature action: the head nods about X (quaternion keys, Bezier).
rig.animation_data_create()
rig.animation_data.action = bpy.data.actions.new("Talk_rig")
pb = rig.pose.bones["head"]
pb.rotation_mode = "QUATERNION"
for frame, angle in [(0, 0.0), (16, 0.3), (32, -0.2), (48, 0.0)]:
    pb.rotation_quaternion = Quaternion((1.0, 0.0, 0.0), angle)
    pb.keyframe_insert("rotation_quaternion", frame=frame)
pb.rotation_quaternion = (1.0, 0.0, 0.0, 0.0)
scene.frame_set(0)

bpy.ops.export_scene.gltf(
    filepath=out_path,
    export_format="GLB",
    export_animations=True,
    export_frame_range=True,
    export_force_sampling=force_sampling,
    export_nla_strips=False,
    export_nla_strips_merged_animation_name="Talk",
    export_morph=True,
    export_morph_normal=True,
    export_skins=True,
    export_extras=False,
)
