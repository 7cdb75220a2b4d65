# Writes the seed files of the BVH and FBX fuzz corpora (fuzz/corpus/import_bvh/seed-*,
# fuzz/corpus/import_fbx/seed-*) from the Blender-made fixtures of tests/fixtures/mocap/:
#
#   python3 fuzz/make_mocap_seeds.py
#
# BVH: the run's hierarchy with its first frames, and hostile variants of it (cut inside the
# hierarchy and inside a frame, a bad channel, NaN and huge values, braces missing or extra, a
# zero frame time, a frame count far past the data, a block opened on the name's line, CRLF
# lines, a byte-order mark). FBX: the five-frame armature (tiny.fbx), cut at a few lengths and
# with bytes flipped at fixed places.
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MOCAP = os.path.join(ROOT, "tests", "fixtures", "mocap")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "seed-" + name), "wb") as f:
        f.write(data)


text = open(os.path.join(MOCAP, "capture_run.bvh")).read()
head, motion = text.split("MOTION", 1)
lines = motion.strip().splitlines()
small = head + "MOTION\nFrames: 3\n" + lines[1] + "\n" + "\n".join(lines[2:5]) + "\n"
bvh = {
    "run3.bvh": small,
    "cut_hierarchy.bvh": small[: len(head) // 2],
    "cut_frame.bvh": small[: len(small) - 40],
    "bad_channel.bvh": small.replace("Zrotation", "Wrotation", 1),
    "nan.bvh": small.replace(lines[2].split()[0], "nan", 1),
    "huge.bvh": small.replace(lines[2].split()[1], "1e39", 1),
    "brace_missing.bvh": small.replace("}", "", 1),
    "brace_extra.bvh": small.replace("}", "}\n}", 1),
    "zero_frame_time.bvh": small.replace(lines[1], "Frame Time: 0"),
    "frames_past_data.bvh": small.replace("Frames: 3", "Frames: 99999999999"),
    "same_line_brace.bvh": small.replace("ROOT Hips\n{", "ROOT Hips {"),
    "crlf_bom.bvh": "\ufeff" + small.replace("\n", "\r\n"),
    "no_motion.bvh": head,
}
for name, data in bvh.items():
    write("import_bvh", name, data.encode())

fbx = open(os.path.join(MOCAP, "tiny.fbx"), "rb").read()
write("import_fbx", "tiny.fbx", fbx)
for n in (27, 1000, len(fbx) // 2):
    write("import_fbx", "cut_%d.fbx" % n, fbx[:n])
flipped = bytearray(fbx)
for at in range(100, len(flipped), len(flipped) // 16):
    flipped[at] ^= 0xFF
write("import_fbx", "flipped.fbx", bytes(flipped))
print("wrote", len(bvh), "BVH and 5 FBX seeds")
