"""Blender side of the morph target comparisons: import a glTF headless, play each animation at
the requested times and record every shape key value (glTF morph weight) of every mesh.

Run as: blender -b --factory-startup --python-exit-code 1 -P shape_keys.py -- SPEC.json OUT.json
SPEC: {"file": path, "anims": [{"name": str, "fps": number or null, "times": [seconds, ...]}]}
OUT:  {"nodes": {object: glTF node index},
       "anims": {name: {"actions": {object: action name or null},
                        "samples": [[time, {object: {shape key: value}}], ...]}}}

How Blender 3.4's importer stores glTF weights animation (io_import_scene_gltf2 3.4.50):
- a mesh object is named after its glTF node, else its glTF mesh ("Mesh_<i>" if unnamed); but a
  skinned mesh node that is animated (a weights channel is enough) becomes an empty with the
  node's name plus a mesh object named after the glTF mesh, so "Face.001" for node and mesh
  "Face" (hence "nodes" in OUT, from a hook on the importer); its shape keys are "Basis" plus
  one key per target that morphs POSITION, named extras.targetNames[i], else the name of the
  target's POSITION accessor, else "target_<i>" (".001" suffixes against duplicates and "Basis");
- for every animation with a weights channel on the object's node, an action
  "<animation>_<object>" (unnamed animations are "Anim_<index>"; ".001" for duplicate names)
  with one fcurve key_blocks["<key>"].value per key, stashed on a muted, locked NLA track named
  after the animation on mesh.shape_keys.animation_data; the first animation is left active.
  glTF times become frames time * scene.render.fps (the integer rate, fps_base ignored);
  LINEAR -> LINEAR, STEP -> CONSTANT, CUBICSPLINE -> BEZIER with AUTO handles (the file's
  tangents are dropped, so CUBICSPLINE curves differ between keys);
- the key values before any action plays are the node's weights, else the mesh's, else 0.
Each animation here gets its own NLA track's action on every mesh (tracks stay muted); a mesh
the animation does not animate gets no action and holds those defaults. A key value is clamped
to [slider_min, slider_max]; the importer widens that range only to fit each curve's first
value, so animated weights outside [0, 1] after the first key are clamped.
"""
import json
import sys
import warnings

import numpy as np

# Blender 3.4's glTF importer uses aliases numpy 1.24 removed (probing np.str warns: silenced).
with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    for alias, real in (("bool", bool), ("int", int), ("float", float), ("object", object), ("str", str)):
        if not hasattr(np, alias):
            setattr(np, alias, real)

import bpy  # noqa: E402
from io_scene_gltf2.blender.imp.gltf2_blender_node import BlenderNode  # noqa: E402

# Tag each mesh object with its glTF node index (object names do not always follow node names)
# and its default key values, set from the node or mesh weights as the object is made: the
# import ends with an evaluation at the current frame with the first animation active, which
# overwrites the key values.
_create_mesh_object = BlenderNode.create_mesh_object


def create_mesh_object(gltf, vnode):
    obj = _create_mesh_object(gltf, vnode)
    obj["gltf_node"] = vnode.mesh_node_idx
    if obj.data is not None and obj.data.shape_keys is not None:
        obj["gltf_defaults"] = {kb.name: kb.value for kb in obj.data.shape_keys.key_blocks}
    return obj


BlenderNode.create_mesh_object = staticmethod(create_mesh_object)

args = sys.argv[sys.argv.index("--") + 1:]
spec = json.load(open(args[0]))
out_path = args[1]

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
# One scene rate for the whole file, as sample.py: the highest take rate. The importer places
# keys at time * scene.render.fps, so samples are read at frame time * scene.render.fps too.
fps = max((a["fps"] or 30.0 for a in spec["anims"]), default=30.0)
scene.render.fps = int(round(fps))
scene.render.fps_base = scene.render.fps / fps
rate = scene.render.fps
bpy.ops.import_scene.gltf(filepath=spec["file"])

meshes = [o for o in scene.objects if o.type == "MESH" and o.data.shape_keys is not None]
if not meshes:
    raise SystemExit("no mesh with shape keys imported")


def keys_of(obj):
    """The shape keys of obj that are glTF morph targets (all but the reference key, Basis)."""
    ref = obj.data.shape_keys.reference_key
    return [kb for kb in obj.data.shape_keys.key_blocks if kb != ref]


defaults = {obj.name: obj["gltf_defaults"].to_dict() for obj in meshes}


def action_for(key, name):
    """The action of the NLA track the importer named after animation `name`, if any."""
    if key.animation_data is None:
        return None
    for track in key.animation_data.nla_tracks:
        if track.name == name and len(track.strips):
            return track.strips[0].action
    return None


result = {"nodes": {obj.name: obj.get("gltf_node") for obj in meshes}, "anims": {}}
for anim in spec["anims"]:
    actions = {}
    for obj in meshes:
        key = obj.data.shape_keys
        if key.animation_data is None:
            key.animation_data_create()
        # NLA tracks the importer made would blend over the action: mute them
        for track in key.animation_data.nla_tracks:
            track.mute = True
        act = action_for(key, anim["name"])
        key.animation_data.action = act
        # keys the action does not drive hold the defaults, not the last animation's values
        for kb in keys_of(obj):
            kb.value = defaults[obj.name][kb.name]
        actions[obj.name] = act.name if act else None
    samples = []
    for t in anim["times"]:
        f = t * rate
        whole = int(np.floor(f))
        scene.frame_set(whole, subframe=f - whole)
        values = {obj.name: {kb.name: kb.value for kb in keys_of(obj)} for obj in meshes}
        samples.append([t, values])
    result["anims"][anim["name"]] = {"actions": actions, "samples": samples}

json.dump(result, open(out_path, "w"))
