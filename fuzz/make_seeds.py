# Writes the seed files of the fuzz corpus (fuzz/corpus/<target>/seed-*) from files of this
# repository only (the shared sample models are not redistributed here, see README "Test data").
#
#   python3 fuzz/make_seeds.py [path/to/marionette]
#
# - the skinned triangle of tests/bake/malformed.rs (2 joints, 1 triangle, 1 rotation clip) as .gltf
#   and .glb;
# - tests/golden/interpolation_modes.gltf (STEP, CUBICSPLINE, normalised integer rotations, an
#   unnamed clip starting after 0, a rotated and scaled armature) as .gltf and .glb;
# - with a marionette binary: two clips of the bundled mannequin baked animation-only
#   (skeleton nodes + one clip each, no mesh) as .glb and as .gltf with the buffer embedded;
# - assets/mannequin.glb itself (mesh, skin, every clip) for the importer;
# - scripts/*.lua, the scripts under fuzz/seeds/ and the hostile-script corpus
#   (tests/fixtures/hostile/) for the script target.
import base64, json, os, shutil, struct, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def glb(doc, buf):
    js = json.dumps(doc, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    buf = buf + b"\0" * (-len(buf) % 4)
    total = 12 + 8 + len(js) + (8 + len(buf) if buf else 0)
    out = b"glTF" + struct.pack("<II", 2, total) + struct.pack("<I", len(js)) + b"JSON" + js
    if buf:
        out += struct.pack("<I", len(buf)) + b"BIN\0" + buf
    return out


def embedded(doc, buf):
    doc = json.loads(json.dumps(doc))
    doc["buffers"] = [{"byteLength": len(buf),
                       "uri": "data:application/octet-stream;base64," + base64.b64encode(buf).decode()}]
    return json.dumps(doc, separators=(",", ":")).encode()


def split_gltf(text):
    """A .gltf with one data-URI buffer -> (JSON without the URI, buffer bytes)."""
    doc = json.loads(text)
    uri = doc["buffers"][0]["uri"]
    buf = base64.b64decode(uri.split(",", 1)[1])
    del doc["buffers"][0]["uri"]
    return doc, buf


def split_glb(data):
    (json_len,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + json_len])
    rest = data[20 + json_len:]
    buf = rest[8:8 + struct.unpack_from("<I", rest, 0)[0]] if len(rest) >= 8 else b""
    return doc, buf


def triangle():
    """The valid document of tests/bake/malformed.rs."""
    f = lambda *v: struct.pack("<%df" % len(v), *v)
    b = bytearray(264)
    b[0:36] = f(0, 0, 0, 1, 0, 0, 0, 1, 0)
    for v in range(3):
        b[36 + 4 * v:40 + 4 * v] = bytes([0, 1, 0, 0])
        b[48 + 16 * v:64 + 16 * v] = f(0.5, 0.5, 0, 0)
    ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    down = list(ident)
    down[13] = -1
    b[96:160] = f(*ident)
    b[160:224] = f(*down)
    b[224:232] = f(0, 1)
    s = 0.5 ** 0.5
    b[232:264] = f(0, 0, 0, 1, 0, 0, s, s)
    view = lambda o, n: {"buffer": 0, "byteOffset": o, "byteLength": n}
    doc = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"name": "body", "mesh": 0, "skin": 0},
                  {"name": "hip", "children": [2], "translation": [0.0, 1.0, 0.0]},
                  {"name": "spine"}],
        "meshes": [{"name": "body", "primitives": [
            {"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
        "skins": [{"joints": [1, 2], "inverseBindMatrices": 3}],
        "animations": [{"name": "wave",
                        "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}}],
                        "samplers": [{"input": 4, "output": 5, "interpolation": "LINEAR"}]}],
        "buffers": [{"byteLength": 264}],
        "bufferViews": [view(0, 36), view(36, 12), view(48, 48), view(96, 128), view(224, 8),
                        view(232, 32)],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]},
            {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "MAT4"},
            {"bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR",
             "min": [0.0], "max": [1.0]},
            {"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC4"}],
    }
    return doc, bytes(b)


def write(targets, name, data):
    for t in targets:
        os.makedirs(os.path.join(CORPUS, t), exist_ok=True)
        with open(os.path.join(CORPUS, t, "seed-" + name), "wb") as f:
            f.write(data)


GLB = ["import_glb", "bake_clips"]
GLTF = ["import_gltf", "bake_clips"]

doc, buf = triangle()
write(GLTF, "triangle.gltf", embedded(doc, buf))
write(GLB, "triangle.glb", glb(doc, buf))

with open(os.path.join(ROOT, "tests/golden/interpolation_modes.gltf"), "rb") as f:
    text = f.read()
write(GLTF, "interpolation_modes.gltf", text)
write(GLB, "interpolation_modes.glb", glb(*split_gltf(text)))

write(["import_glb"], "mannequin.glb", open(os.path.join(ROOT, "assets/mannequin.glb"), "rb").read())

if len(sys.argv) > 1:
    with tempfile.TemporaryDirectory() as tmp:
        for clip in ["idle", "jump"]:
            out = os.path.join(tmp, clip + ".glb")
            subprocess.run([sys.argv[1], "bake", os.path.join(ROOT, "assets/mannequin.glb"),
                            "--clip", clip, "--animation-only", "--quiet", "-o", out], check=True)
            data = open(out, "rb").read()
            write(GLB, "mannequin_%s.glb" % clip, data)
            write(GLTF, "mannequin_%s.gltf" % clip, embedded(*split_glb(data)))

os.makedirs(os.path.join(CORPUS, "script_load"), exist_ok=True)
for folder, prefix in [(os.path.join(ROOT, "scripts"), "seed-"),
                       (os.path.join(ROOT, "fuzz", "seeds"), "seed-"),
                       (os.path.join(ROOT, "tests", "fixtures", "hostile"), "seed-hostile-")]:
    for name in sorted(os.listdir(folder)):
        if name.endswith(".lua") and not name.endswith(".d.lua"):
            shutil.copy(os.path.join(folder, name),
                        os.path.join(CORPUS, "script_load", prefix + name))
