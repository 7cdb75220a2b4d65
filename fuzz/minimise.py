# Adds to fuzz/corpus/<target>/ the inputs of a fuzz run that cover code edges nothing smaller
# covers, up to a size (libFuzzer's own merge, `cargo fuzz cmin`, keeps every input with a new
# *feature*, edge hit counts and comparisons included, which for these targets is tens of MB).
#
#   cargo +nightly fuzz build -s none TARGET
#   python3 fuzz/minimise.py TARGET MAX_BYTES fuzz/corpus-work/TARGET [more folders ...]
#
# libFuzzer's merge runs every input, smallest first, and records the edges each one covers
# first; an input is added when it covers such an edge and is at most MAX_BYTES long. The files
# already in fuzz/corpus/<target>/ are always kept.
import hashlib, os, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
target, limit, folders = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
binary = os.path.join(ROOT, "fuzz/target/x86_64-unknown-linux-gnu/release", target)
corpus = os.path.join(ROOT, "fuzz/corpus", target)

with tempfile.TemporaryDirectory() as tmp:
    control = os.path.join(tmp, "control")
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    # a merge into an empty folder records every input's coverage in the control file
    subprocess.run([binary, "-merge=1", "-merge_control_file=" + control, "-rss_limit_mb=4096",
                    "-timeout=10", empty, corpus] + folders,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    lines = open(control).read().splitlines()
    count = int(lines[0])
    files = lines[2:2 + count]
    cover = {}
    for line in lines[2 + count:]:
        parts = line.split()
        if parts and parts[0] == "COV":
            cover[int(parts[1])] = set(parts[2:])

existing = [i for i, f in enumerate(files) if os.path.dirname(f) == corpus]
added = edges = 0
for i, f in enumerate(files):
    new = cover.get(i, set())
    if not new or os.path.dirname(f) == corpus or os.path.getsize(f) > limit:
        continue
    data = open(f, "rb").read()
    name = hashlib.sha1(data).hexdigest()
    if not os.path.exists(os.path.join(corpus, name)):
        shutil.copy(f, os.path.join(corpus, name))
        added += 1
        edges += len(new)
print(f"{target}: {len(existing)} corpus files, {added} added (first to cover {edges} edges)")
