#!/usr/bin/env bash
# Side-by-side crowd benchmark: ozz-animation (benches/ozz/crowd.cc) against
# `marionette bench crowd`, same rig, clips, counts and frames, run alternately on one pinned
# core, R rounds; prints each round and the medians over rounds, with the ratio
# ozz / marionette (above 1: Marionette is faster) for both Marionette paths (scalar, SoA).
#
# Usage: OZZ_SRC=/path/to/ozz-animation-0.16.0 benches/ozz/compare.sh [MARIONETTE]
#   MARIONETTE  the marionette binary (default: target/release/marionette)
# Environment (all optional but OZZ_SRC):
#   OZZ_SRC     ozz-animation 0.16 source tree (required: headers and tinygltf come from it)
#   OZZ_BUILD   its CMake build directory (default: target/ozz-bench/build; built here, Release,
#               when it lacks the libraries or gltf2ozz)
#   OZZ_CXXFLAGS  extra compiler flags for ozz and crowd.cc (default: none, so SSE2 on x86-64;
#               e.g. "-mavx2 -mfma" for ozz's AVX2 paths; its own default build directory)
#   RIG         glTF rig (default: ../shared/testdata/gltf/Fox.glb)
#   CLIPS       two or more clip names, comma-separated (default: Walk,Run)
#   ROUNDS      rounds (default: 5)   CPU  core to pin to (default: 1)
#   COUNT, FRAMES, WARMUP   characters, timed and warm-up frames (default: 1000, 300, 30)
#   WORK        scratch directory (default: target/ozz-bench)
# Needs: cmake (3.24 or newer), g++, python3, taskset.
set -euo pipefail

die() {
    echo "compare.sh: $*" >&2
    exit 1
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

# Paths given relative to where the script is run from; defaults relative to the repository.
absolute() {
    case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$PWD" "$1" ;;
    esac
}

if [[ $# -gt 1 ]]; then
    die "one argument at most (the marionette binary); settings go in the environment (see the head of $0)"
fi
if [[ $# -eq 1 ]]; then
    marionette=$(absolute "$1")
else
    marionette="$root/target/release/marionette"
fi
[[ -n "${OZZ_SRC:-}" ]] || die "set OZZ_SRC to an ozz-animation 0.16 source tree (git clone --branch 0.16.0 https://github.com/guillaumeblanc/ozz-animation)"
ozz_src=$(absolute "$OZZ_SRC")
[[ -f "$ozz_src/CMakeLists.txt" && -d "$ozz_src/include/ozz" ]] ||
    die "OZZ_SRC=$OZZ_SRC is not an ozz-animation source tree (no CMakeLists.txt and include/ozz)"
tinygltf="$ozz_src/src/animation/offline/gltf/extern/tiny_gltf.h"
[[ -f "$tinygltf" ]] || die "OZZ_SRC=$OZZ_SRC lacks $tinygltf: ozz-animation 0.16 ships it"
work=$(absolute "${WORK:-$root/target/ozz-bench}")
read -r -a cxxflags <<<"${OZZ_CXXFLAGS:-}"
flavour=$(printf '%s' "${cxxflags[*]}" | tr -c 'A-Za-z0-9' '_')
ozz_build=$(absolute "${OZZ_BUILD:-$work/build${flavour:+-$flavour}}")
rig=$(absolute "${RIG:-$root/../shared/testdata/gltf/Fox.glb}")
clips=${CLIPS:-Walk,Run}
rounds=${ROUNDS:-5}
cpu=${CPU:-1}
count=${COUNT:-1000}
frames=${FRAMES:-300}
warmup=${WARMUP:-30}

[[ -x "$marionette" ]] || die "no marionette binary at $marionette: run cargo build --release, or give its path"
"$marionette" bench crowd --help 2>/dev/null | grep -q -- --json ||
    die "$marionette has no 'bench crowd --json' command: build a newer marionette"
[[ -f "$rig" ]] || die "no rig at $rig: set RIG to a skinned glTF with the clips $clips"
rig="$(cd "$(dirname "$rig")" && pwd)/$(basename "$rig")"
for n in "$rounds" "$cpu" "$count" "$frames" "$warmup"; do
    [[ "$n" =~ ^[0-9]+$ ]] || die "ROUNDS, CPU, COUNT, FRAMES and WARMUP take whole numbers, not '$n'"
done
[[ "$rounds" -ge 1 ]] || die "ROUNDS must be at least 1"
for tool in cmake g++ python3 taskset; do
    command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install -y cmake g++ python3 util-linux)"
done
taskset -c "$cpu" true 2>/dev/null || die "cannot pin to CPU $cpu (taskset -c $cpu): set CPU to a core of this machine"

version=$(sed -n 's/^set(OZZ_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\))/\2/p' "$ozz_src/CMakeLists.txt" | paste -sd. -)
[[ "$version" == 0.16.* ]] || echo "compare.sh: warning: OZZ_SRC is ozz-animation $version, not 0.16" >&2

# 1. ozz-animation's runtime libraries and gltf2ozz (Release: -O3, SSE2 as on any x86-64).
lib_anim="$ozz_build/src/animation/runtime/libozz_animation.a"
lib_base="$ozz_build/src/base/libozz_base.a"
gltf2ozz="$ozz_build/src/animation/offline/gltf/gltf2ozz"
mkdir -p "$work/rig"
if [[ ! -f "$lib_anim" || ! -f "$lib_base" || ! -x "$gltf2ozz" ]]; then
    echo "building ozz-animation $version in $ozz_build" >&2
    cmake -S "$ozz_src" -B "$ozz_build" -DCMAKE_BUILD_TYPE=Release \
        -Dozz_build_samples=OFF -Dozz_build_howtos=OFF -Dozz_build_tests=OFF \
        -Dozz_build_fbx=OFF -Dozz_build_gltf=ON -Dozz_build_tools=ON -Dozz_build_postfix=OFF \
        -DCMAKE_CXX_FLAGS="${cxxflags[*]}" \
        >"$work/cmake.log" 2>&1 || die "cmake configure failed; see $work.cmake.log"
    cmake --build "$ozz_build" --target ozz_animation ozz_base gltf2ozz -j "${JOBS:-2}" \
        >>"$work/cmake.log" 2>&1 || die "ozz build failed; see $work.cmake.log"
fi
[[ -f "$lib_anim" && -f "$lib_base" && -x "$gltf2ozz" ]] ||
    die "$ozz_build lacks libozz_animation.a, libozz_base.a or gltf2ozz (built with -Dozz_build_postfix=OFF?)"

# 2. The benchmark, against those libraries.
crowd="$work/ozz_crowd${flavour:+-$flavour}"
if [[ ! -x "$crowd" || "$here/crowd.cc" -nt "$crowd" || "$lib_anim" -nt "$crowd" ]]; then
    echo "compiling benches/ozz/crowd.cc" >&2
    g++ -std=c++17 -O3 -DNDEBUG -Wno-ignored-attributes "${cxxflags[@]}" -I"$ozz_src/include" -I"$ozz_src/src/animation/offline/gltf" \
        "$here/crowd.cc" "$lib_anim" "$lib_base" -o "$crowd" ||
        die "cannot compile $here/crowd.cc against $ozz_src"
fi

# 3. The rig, converted by gltf2ozz with its default settings (optimisation included).
rm -f "$work"/rig/*.ozz
(cd "$work/rig" && "$gltf2ozz" --file="$rig" >"$work/gltf2ozz.log" 2>&1) ||
    die "gltf2ozz could not convert $rig; see $work/gltf2ozz.log"
IFS=, read -r -a clip_names <<<"$clips"
[[ ${#clip_names[@]} -ge 2 ]] || die "CLIPS names two clips or more, not '$clips'"
clip_files=()
for c in "${clip_names[@]}"; do
    [[ -f "$work/rig/$c.ozz" ]] || die "gltf2ozz made no $c.ozz from $rig (it made: $(cd "$work/rig" && printf '%s ' *.ozz)); set CLIPS"
    clip_files+=("$work/rig/$c.ozz")
done

# 4. Alternate runs on one core; odd rounds start with ozz, even rounds with Marionette.
run_ozz() {
    taskset -c "$cpu" "$crowd" --skeleton "$work/rig/skeleton.ozz" --rig "$rig" \
        --count "$count" --frames "$frames" --warmup "$warmup" "${clip_files[@]}" >"$work/ozz-$1.json"
}
run_marionette() {
    taskset -c "$cpu" "$marionette" bench crowd "$rig" --clips "$clips" --count "$count" \
        --frames "$frames" --warmup "$warmup" --json >"$work/marionette-$1.json"
}
echo "ozz-animation $version vs $marionette, $count x $(basename "$rig") ($clips), $frames frames after $warmup, CPU $cpu, $rounds rounds" >&2
for r in $(seq 1 "$rounds"); do
    if ((r % 2)); then
        run_ozz "$r" || die "the ozz crowd failed (round $r)"
        run_marionette "$r" || die "marionette bench crowd failed (round $r)"
    else
        run_marionette "$r" || die "marionette bench crowd failed (round $r)"
        run_ozz "$r" || die "the ozz crowd failed (round $r)"
    fi
    echo "round $r/$rounds done" >&2
done

python3 - "$work" "$rounds" <<'EOF'
import json, statistics, sys

work, rounds = sys.argv[1], int(sys.argv[2])
STAGES = ["sample", "blend", "local_to_model_palette", "total", "one_pass"]
def load(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except ValueError as e:
        sys.exit(f"compare.sh: {path} is not the JSON of {what} ({e})")

rows = []
for r in range(1, rounds + 1):
    ozz = load(f"{work}/ozz-{r}.json", "benches/ozz/crowd.cc")
    mar = load(f"{work}/marionette-{r}.json", "marionette bench crowd --json")
    paths = {"ozz": ozz["paths"][0]}
    for p in mar.get("paths", []):
        if p["path"] in ("scalar", "soa"):
            paths[p["path"]] = p
    if set(paths) != {"ozz", "scalar", "soa"}:
        sys.exit(f"compare.sh: {work}/marionette-{r}.json lacks the scalar or soa path")
    rows.append(paths)

def med(values):
    return statistics.median(values)

def ratio(a, b):
    return a / b if b > 0 else float("nan")


names = ["ozz", "scalar", "soa"]
print(f"ozz-animation ({ozz['simd']}) vs marionette ({mar['simd']} SoA kernels): "
      f"{mar['count']} x {mar['rig']} ({mar['joints']} joints), clips {' + '.join(mar['clips'])}, "
      f"{mar['frames']} frames after {mar['warmup']} warm-up")
print()
print("round  ozz ms  scalar ms  soa ms  ozz/scalar  ozz/soa   (one-pass ms/frame, median of frames)")
for r, p in enumerate(rows, 1):
    o, s, v = (p[n]["one_pass"]["ms_median"] for n in names)
    print(f"{r:>5}  {o:6.3f}  {s:9.3f}  {v:6.3f}  {ratio(o, s):9.2f}x  {ratio(o, v):6.2f}x")
print()
print(f"medians over {rounds} rounds: ms/frame (ns/joint); ozz / marionette, median of per-round ratios")
print(f"{'stage':<34}{'ozz':>15}{'marionette scalar':>19}{'marionette soa':>16}"
      f"{'ozz/scalar':>12}{'ozz/soa':>9}")
summary = {"rounds": rounds, "stages": {}, "ratios": {}}

def line(label, value):
    # value(path, round) -> (ms, ns per joint or None)
    cells, entry = [], {}
    for n in names:
        ms = med([value(p, n)[0] for p in rows])
        ns = [value(p, n)[1] for p in rows]
        ns = None if ns[0] is None else med(ns)
        entry[n] = {"ms_median": ms, "ns_per_joint_median": ns}
        cells.append(f"{ms:.3f}" + ("" if ns is None else f" ({ns:.2f})"))
    for n in ("scalar", "soa"):
        entry["ozz/" + n] = med([ratio(value(p, "ozz")[0], value(p, n)[0]) for p in rows])
    print(f"{label:<34}{cells[0]:>15}{cells[1]:>19}{cells[2]:>16}"
          f"{entry['ozz/scalar']:>11.2f}x{entry['ozz/soa']:>8.2f}x")
    return entry

LABELS = {"local_to_model_palette": "local-to-model + palette",
          "total": "total, stage by stage", "one_pass": "total, one pass"}
for stage in STAGES:
    summary["stages"][stage] = line(
        LABELS.get(stage, stage),
        lambda p, n: (p[n][stage]["ms_median"], p[n][stage]["ns_per_joint_median"]))
print()
for n in ("scalar", "soa"):
    total = summary["stages"]["total"]["ozz/" + n]
    one = summary["stages"]["one_pass"]["ozz/" + n]
    summary["ratios"][n] = {"total": total, "one_pass": one}
    print(f"ozz / marionette {n:<6} (median of per-round ratios): {total:.2f}x stage by stage, "
          f"{one:.2f}x one pass")
print("(above 1: Marionette is faster; the issue's goal is 2x)")
print(f"runs: {work}/ozz-*.json, {work}/marionette-*.json; summary: {work}/summary.json")
with open(f"{work}/summary.json", "w") as f:
    json.dump(summary, f, indent=1)
EOF

# 5. Pose check: both runtimes evaluate the same pose. Character 7 of a crowd blending each clip
# with itself, after the same frames, against `marionette sample` at that clip time. ozz's keys
# are lossy (15-bit quaternion components, half-float translations, keyframe reduction), so
# expect differences of about 1e-2 in the rotation part and a half-float step in translations.
for c in "${clip_names[@]}"; do
    "$crowd" --skeleton "$work/rig/skeleton.ozz" --rig "$rig" --count 8 --frames "$frames" \
        --warmup "$warmup" --dump 7 "$work/rig/$c.ozz" "$work/rig/$c.ozz" >"$work/pose-$c-ozz.json" ||
        die "the ozz crowd failed (pose check, $c)"
    t=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["dump"]["times"][0])' "$work/pose-$c-ozz.json")
    "$marionette" sample "$rig" --clip "$c" --time "$t" --json >"$work/pose-$c-marionette.json" ||
        die "marionette sample failed (pose check, $c at $t s)"
done
python3 - "$work" "${clip_names[@]}" <<'EOF'
import json, sys

work, clips = sys.argv[1], sys.argv[2:]
print()
for c in clips:
    try:
        with open(f"{work}/pose-{c}-ozz.json") as f:
            dump = json.load(f)["dump"]
        with open(f"{work}/pose-{c}-marionette.json") as f:
            joints = json.load(f)["joints"]
    except (ValueError, KeyError) as e:
        sys.exit(f"compare.sh: pose check, {c}: unexpected output ({e!r}); see {work}/pose-{c}-*.json")
    rot = tra = size = 0.0
    for j in joints:
        if j["name"] not in dump["model"]:
            sys.exit(f"compare.sh: pose check: joint {j['name']} is not in the ozz skeleton")
        w, o = j["world"], dump["model"][j["name"]]
        rot = max([rot] + [abs(w[i] - o[i]) for i in range(12)])
        tra = max([tra] + [abs(w[i] - o[i]) for i in range(12, 15)])
        size = max([size] + [abs(w[i]) for i in range(12, 15)])
    print(f"pose check, {c} + {c}, character {dump['character']} at {dump['times'][0]:.4f} s, "
          f"{len(joints)} joints: model matrices within {rot:.2e} (rotation part) and {tra:.2e} "
          f"(translations, up to {size:.3g})")
    if rot > 0.05 or tra > 0.01 * size:
        print(f"compare.sh: warning: ozz and marionette disagree on {c}: not the same workload",
              file=sys.stderr)
EOF
