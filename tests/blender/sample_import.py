"""Blender side of tests/clients/mocap_blender.rs: import a BVH or FBX with Blender's own
importer, play each action at the requested frames (fractional: half frames) and print every
bone's world head in glTF coordinates (Y up, metres).

Run as: blender -b --factory-startup --python-exit-code 1 -P sample_import.py -- SPEC.json OUT.json
SPEC: {"file": path, "format": "bvh" | "fbx", "scale": metres per file unit (BVH),
       "clips": [{"name": str, "fps": number, "frames": [frame (from 0, may be fractional), ...]}]}
OUT:  {"clips": {name: {"action": str, "samples": [[frame, {bone: [x, y, z]}], ...]}}}
Blender is Z-up: glTF (x, y, z) is Blender (x, -z, y).
"""
import builtins
import json
import math
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
spec = json.load(open(args[0]))
out_path = args[1]

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
fps = spec["clips"][0]["fps"] if spec["clips"] else 30.0
scene.render.fps = int(round(fps))
scene.render.fps_base = scene.render.fps / fps

if spec["format"] == "bvh":
    # Debian's Blender 3.4 BVH importer opens files with mode "rU", which Python 3.11 refuses
    real_open = builtins.open

    def open_without_u(file, mode="r", *a, **k):
        return real_open(file, mode.replace("U", ""), *a, **k)

    builtins.open = open_without_u
    # the file's own axes (a Blender-written BVH is Z up): Blender's space is the file's
    axes = spec.get("axes", {"forward": "Y", "up": "Z"})
    bpy.ops.import_anim.bvh(filepath=spec["file"], global_scale=spec["scale"],
                            axis_forward=axes["forward"], axis_up=axes["up"],
                            update_scene_fps=False, update_scene_duration=True,
                            rotate_mode="NATIVE")
    builtins.open = real_open
else:
    bpy.ops.import_scene.fbx(filepath=spec["file"], use_anim=True, automatic_bone_orientation=False,
                             ignore_leaf_bones=False)

arms = [o for o in scene.objects if o.type == "ARMATURE"]
if not arms:
    raise SystemExit("no armature imported")
arm = arms[0]
if arm.animation_data is None:
    arm.animation_data_create()


def action_for(name):
    acts = [a for a in bpy.data.actions if any(fc.data_path.startswith("pose.bones") for fc in a.fcurves)]
    for a in acts:
        if a.name == name or a.name.endswith("|" + name) or a.name.startswith(name):
            return a
    for a in acts:
        if name in a.name:
            return a
    return acts[0] if len(acts) == 1 else None


def to_gltf(v):
    return [v.x, v.z, -v.y]


result = {"clips": {}}
for clip in spec["clips"]:
    action = action_for(clip["name"])
    if action is None:
        raise SystemExit("no action for clip %r (actions: %s)" % (clip["name"], [a.name for a in bpy.data.actions]))
    arm.animation_data.action = action
    first = action.frame_range[0]
    samples = []
    for f in clip["frames"]:
        whole = math.floor(first + f)
        scene.frame_set(int(whole), subframe=(first + f) - whole)
        heads = {pb.name: to_gltf(arm.matrix_world @ pb.head) for pb in arm.pose.bones}
        samples.append([f, heads])
    result["clips"][clip["name"]] = {"action": action.name, "samples": samples}
json.dump(result, open(out_path, "w"))
