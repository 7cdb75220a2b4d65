"""Blender side of tests/blender.rs: import a baked glTF headless, play each animation at the
requested times and print every bone's world head in glTF coordinates; optionally re-export.

Run as: blender -b --factory-startup --python-exit-code 1 -P sample.py -- SPEC.json OUT.json
SPEC: {"file": path, "reexport": path or null,
       "anims": [{"name": str, "fps": number, "times": [seconds, ...]}]}
OUT:  {"anims": {name: {"action": str, "samples": [[time, {bone: [x, y, z]}], ...]}}}
Blender is Z-up: glTF (x, y, z) is Blender (x, -z, y).
"""
import json
import sys

import numpy as np

# Blender 3.4's glTF importer uses aliases numpy 1.24 removed.
for alias, real in (("bool", bool), ("int", int), ("float", float), ("object", object), ("str", str)):
    if not hasattr(np, alias):
        setattr(np, alias, real)

import bpy  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
spec = json.load(open(args[0]))
out_path = args[1]

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
# One scene rate for the whole file (the importer places keys at time * fps, the exporter writes
# frame f at f / fps): the highest take rate, so every frame of every take is a whole frame when
# the rates divide it (30 and 60 fps takes in one file). A clip at its own irregular key times
# has no rate (null): its keys land between frames at any rate, and are read there.
fps = max((a["fps"] or 30.0 for a in spec["anims"]), default=30.0)
scene.render.fps = int(round(fps))
scene.render.fps_base = scene.render.fps / fps
bpy.ops.import_scene.gltf(filepath=spec["file"])

arms = [o for o in scene.objects if o.type == "ARMATURE"]
if not arms:
    raise SystemExit("no armature imported")


def rest_pose(arm):
    """Bones an action does not animate hold their rest pose (glTF), not the last action's."""
    for pb in arm.pose.bones:
        pb.location = (0.0, 0.0, 0.0)
        pb.rotation_mode = "QUATERNION"
        pb.rotation_quaternion = (1.0, 0.0, 0.0, 0.0)
        pb.scale = (1.0, 1.0, 1.0)


def action_for(arm, name):
    """The action the importer made for animation `name` on `arm` (named `name` or `name_<obj>`)."""
    cands = [a for a in bpy.data.actions if a.name == name or a.name.startswith(name + "_")]
    for a in cands:
        if any(fc.data_path.startswith("pose.bones") for fc in a.fcurves):
            bones = {b.name for b in arm.pose.bones}
            if any(fc.data_path.split('"')[1] in bones for fc in a.fcurves if '"' in fc.data_path):
                return a
    return cands[0] if cands else None


result = {"anims": {}}
for anim in spec["anims"]:
    actions = {}
    for arm in arms:
        if arm.animation_data is None:
            arm.animation_data_create()
        # NLA tracks the importer made would blend over the action: mute them
        for track in arm.animation_data.nla_tracks:
            track.mute = True
        rest_pose(arm)
        act = action_for(arm, anim["name"])
        arm.animation_data.action = act
        actions[arm.name] = act.name if act else None
    samples = []
    for t in anim["times"]:
        f = t * fps
        whole = int(np.floor(f))
        scene.frame_set(whole, subframe=f - whole)
        heads = {}
        for arm in arms:
            mw = arm.matrix_world
            for pb in arm.pose.bones:
                h = mw @ pb.head
                heads[pb.name] = [h.x, h.z, -h.y]
        samples.append([t, heads])
    result["anims"][anim["name"]] = {"action": json.dumps(actions), "samples": samples}

json.dump(result, open(out_path, "w"))

if spec.get("reexport"):
    for arm in arms:
        arm.animation_data.action = None
        rest_pose(arm)
        for track in arm.animation_data.nla_tracks:
            track.mute = False
    bpy.ops.export_scene.gltf(filepath=spec["reexport"], export_format="GLB", export_animations=True)
