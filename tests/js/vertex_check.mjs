// The true error of a bake, as a viewer shows it: every vertex of every mesh, played by three.js
// from the SOURCE file and from the BAKED file, compared in world space.
//
//   node tests/js/vertex_check.mjs SOURCE BAKED [--anim NAME]... [--times T,T,...]
//        [--between N] [--no-refine] [--raw-quaternions]
//
// For each animation present in both files (or each --anim, which must be in both), both files
// are parsed afresh (nodes the animation does not touch hold their rest pose) and played with
// tests/js/three_node.mjs's player (AnimationMixer, LoopOnce + clampWhenFinished, reset before
// each sample, then scene.updateMatrixWorld(true)). At every sample time each vertex's world
// position is computed on both sides and their distance taken.
//
// Vertices: a SkinnedMesh's vertex is skinned as three.js's SkinnedMesh.applyBoneTransform does
// (the sum over the 4 influences of skinIndex/skinWeight of
// weight_k * bone_k.matrixWorld * boneInverse_k * bindMatrix * p, then bindMatrixInverse, then
// mesh.matrixWorld as localToWorld does; GLTFLoader binds with an identity bindMatrix, so this
// is glTF's sum of weight_k * jointWorld_k * inverseBindMatrix_k * p), in f64 from the bone
// matrices of that sample; a plain Mesh's vertex is mesh.matrixWorld * p. The worst vertex of
// every animation is recomputed with three.js's own applyBoneTransform + localToWorld, and the
// two must agree within 1e-9 of the coordinates' size: the fast path is checked against three
// itself on every run.
// Quaternion keys (LINEAR, STEP) are normalised on both sides before playing, unless
// --raw-quaternions: three.js draws a non-unit key scaled by |q|^2 (see normalizeQuaternions).
// Morph targets are ignored on both sides (base positions; a bake does not carry weights
// channels), and so are instanced meshes, points and lines.
//
// Times (default): every key time of the source clip's tracks, every key time of the baked
// clip's tracks, and --between N (default 7) evenly spaced times strictly inside each interval
// between consecutive times of that union. On such an interval each side is one segment of each
// of its curves (LINEAR slerp/lerp, CUBICSPLINE Hermite or STEP hold), so the error is smooth
// there. A chord-vs-arc bump peaks in the middle, which an odd N samples exactly; a parabolic
// bump vanishing at the interval's ends and peaking anywhere else is underestimated by at most
// 1/(N+1)^2 of its height (1.6 % for N = 7). The samples are then refined: around each of the 4
// worst sample times of an animation (distinct peaks) a golden-section search over the
// neighbouring interval (24 steps) maximises the worst vertex distance. --times T,T,.. replaces
// the default times (no refinement); --no-refine keeps the dense times unrefined.
//
// Also a module: compare_gltf_transform.mjs imports vertexCheck().
//
// Output (stdout), distances in scene units (metres for glTF):
//   {"three":"r187","source":..,"baked":..,"between":7,"refine":true,
//    "animations":[{"name":..,"source_duration":..,"baked_duration":..,
//       "source_keys":..,"baked_keys":..,     // key counts summed over node (TRS) tracks
//       "source_morph_keys":..,"baked_morph_keys":..,  // the same over morph-weights tracks
//       "source_key_times":..,"baked_key_times":..,"samples":..,"vertices":..,
//       "source_keys_worst":W,"baked_keys_worst":W,"between_worst":W,"worst":W,
//       "f32_floor":d,           // see f32Floor below: float noise on this model
//       "non_unit_quaternions":{"source":{"keys":n,"worst":e},"baked":{..}} or null}],
//    "missing":[names of source animations the baked file lacks],
//    "worst":W + {"animation":..}}
//   W = {"distance":d,"time":t,"at":"source key"|"baked key"|"source+baked key"|"between"|"given",
//        "mesh":name,"node":glTF node or null,"mesh_index":..,"primitive":..,"vertex":i,
//        "skinned":bool,"bone":name or null,"bone_node":glTF node or null,"weight":w,
//        (a rigid mesh's bone: its nearest joint ancestor, weight 1)
//        "source_position":[x,y,z],"baked_position":[x,y,z]}
import { pathToFileURL } from 'node:url';

import { THREE, readGltf, parse, player } from './three_node.mjs';

/** The glTF node index of obj or of its nearest ancestor that is a glTF node. */
function nodeOf(gltf, obj) {
  for (let o = obj; o; o = o.parent) {
    const a = gltf.parser.associations.get(o);
    if (a && a.nodes !== undefined) return a.nodes;
  }
  return null;
}

/** Every mesh of the scene that has vertices to compare, with its static data. */
function meshesOf(gltf) {
  const out = [];
  const seen = new Map();
  gltf.scene.traverse((obj) => {
    if (!obj.isMesh || obj.isInstancedMesh) return;
    const pos = obj.geometry.attributes.position;
    if (!pos) return;
    const assoc = gltf.parser.associations.get(obj) ?? {};
    const node = nodeOf(gltf, obj);
    const base = `${node}/${assoc.meshes}/${assoc.primitives ?? 0}/${obj.name}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    const count = pos.count;
    const p = new Float64Array(count * 3);
    for (let i = 0; i < count; i++) {
      p[3 * i] = pos.getX(i);
      p[3 * i + 1] = pos.getY(i);
      p[3 * i + 2] = pos.getZ(i);
    }
    const m = {
      key: `${base}#${n}`,
      obj,
      name: obj.name,
      node,
      meshIndex: assoc.meshes ?? null,
      primitive: assoc.primitives ?? 0,
      count,
      base: p,
      skinned: !!obj.isSkinnedMesh,
      world: new Float64Array(count * 3),
    };
    if (m.skinned) {
      const si = obj.geometry.attributes.skinIndex;
      const sw = obj.geometry.attributes.skinWeight;
      m.joints = new Uint32Array(count * 4);
      m.weights = new Float64Array(count * 4);
      for (let i = 0; i < count; i++) {
        for (let k = 0; k < 4; k++) {
          m.joints[4 * i + k] = si.getComponent(i, k);
          m.weights[4 * i + k] = sw.getComponent(i, k);
        }
      }
      m.palette = new Float64Array(16 * obj.skeleton.bones.length);
    }
    out.push(m);
  });
  return out;
}

const _m = new THREE.Matrix4();
const _n = new THREE.Matrix4();

/** World positions of every vertex of `m` at the current pose, into m.world. */
function skinAll(m) {
  const { obj, count, base, world } = m;
  if (!m.skinned) {
    const e = obj.matrixWorld.elements;
    for (let i = 0; i < count; i++) {
      const x = base[3 * i];
      const y = base[3 * i + 1];
      const z = base[3 * i + 2];
      world[3 * i] = e[0] * x + e[4] * y + e[8] * z + e[12];
      world[3 * i + 1] = e[1] * x + e[5] * y + e[9] * z + e[13];
      world[3 * i + 2] = e[2] * x + e[6] * y + e[10] * z + e[14];
    }
    return;
  }
  // palette_k = bone_k.matrixWorld * boneInverse_k * bindMatrix; the weighted sum of the
  // palette's points is then taken to world by matrixWorld * bindMatrixInverse once, as
  // applyBoneTransform (Vector3.applyMatrix4 of bindMatrixInverse) and localToWorld do
  const sk = obj.skeleton;
  const pal = m.palette;
  for (let b = 0; b < sk.bones.length; b++) {
    _m.multiplyMatrices(sk.bones[b].matrixWorld, sk.boneInverses[b]).multiply(obj.bindMatrix);
    pal.set(_m.elements, 16 * b);
  }
  const e = _n.multiplyMatrices(obj.matrixWorld, obj.bindMatrixInverse).elements;
  const { joints, weights } = m;
  for (let i = 0; i < count; i++) {
    const x = base[3 * i];
    const y = base[3 * i + 1];
    const z = base[3 * i + 2];
    let sx = 0;
    let sy = 0;
    let sz = 0;
    for (let k = 0; k < 4; k++) {
      const w = weights[4 * i + k];
      if (w === 0) continue;
      const o = 16 * joints[4 * i + k];
      sx += w * (pal[o] * x + pal[o + 4] * y + pal[o + 8] * z + pal[o + 12]);
      sy += w * (pal[o + 1] * x + pal[o + 5] * y + pal[o + 9] * z + pal[o + 13]);
      sz += w * (pal[o + 2] * x + pal[o + 6] * y + pal[o + 10] * z + pal[o + 14]);
    }
    world[3 * i] = e[0] * sx + e[4] * sy + e[8] * sz + e[12];
    world[3 * i + 1] = e[1] * sx + e[5] * sy + e[9] * sz + e[13];
    world[3 * i + 2] = e[2] * sx + e[6] * sy + e[10] * sz + e[14];
  }
}

/** three.js's own world position of vertex i of mesh m at the current pose. */
function threeVertex(m, i) {
  const v = new THREE.Vector3().fromBufferAttribute(m.obj.geometry.attributes.position, i);
  if (m.skinned) m.obj.applyBoneTransform(i, v);
  return m.obj.localToWorld(v);
}

/**
 * Normalises the key values of the clip's LINEAR and STEP quaternion tracks (in place); returns
 * {keys, worst}: how many keys were off unit length by more than 1e-6, and the largest
 * | |q| - 1 |. three.js hands a key's quaternion to Matrix4.compose as it is (at a key, between
 * two equal keys, and on the slerp branch of slerpFlat; only its nlerp branch, for keys less than
 * ~3.6 degrees apart, normalises), and compose then scales the joint by |q|^2: a source whose
 * keys are 1.5e-4 off unit (SimpleSkin) is drawn 0.45 mm off at 1.5 m. glTF means unit
 * rotations and a bake writes them, so both sides are compared as unit quaternions (CUBICSPLINE
 * results are normalised by three.js itself).
 */
function normalizeQuaternions(clip) {
  let keys = 0;
  let worst = 0;
  for (const track of clip.tracks) {
    if (!(track instanceof THREE.QuaternionKeyframeTrack)) continue;
    const v = track.values;
    if (v.length !== 4 * track.times.length) continue; // CUBICSPLINE: in, value, out per key
    for (let i = 0; i < v.length; i += 4) {
      const n = Math.hypot(v[i], v[i + 1], v[i + 2], v[i + 3]);
      if (n === 0) continue;
      const off = Math.abs(n - 1);
      if (off > 1e-6) keys++;
      worst = Math.max(worst, off);
      for (let k = 0; k < 4; k++) v[i + k] /= n;
    }
  }
  return { keys, worst };
}

/** The meshes of two parsed files, paired by glTF node, mesh and primitive: [[a, b], ...]. */
function pairMeshes(src, sourceFile, bak, bakedFile) {
  const bakMeshes = meshesOf(bak);
  const byKey = new Map(bakMeshes.map((m) => [m.key, m]));
  const pairs = [];
  for (const a of meshesOf(src)) {
    const b = byKey.get(a.key);
    if (!b) throw new Error(`mesh ${a.key} of ${sourceFile} is not in ${bakedFile}`);
    if (b.count !== a.count || b.skinned !== a.skinned) {
      throw new Error(`mesh ${a.key} differs in vertex count or skinning`);
    }
    pairs.push([a, b]);
  }
  if (pairs.length !== bakMeshes.length) {
    throw new Error(`${bakedFile} has meshes ${sourceFile} lacks`);
  }
  return pairs;
}

/** A function of t: the worst vertex of the pairs at time t, {distance, pair, vertex, time}. */
function measurer(pairs, playA, playB) {
  return (t) => {
    playA(t);
    playB(t);
    let best = { distance: -1, pair: null, vertex: -1 };
    for (const pair of pairs) {
      const [a, b] = pair;
      skinAll(a);
      skinAll(b);
      const wa = a.world;
      const wb = b.world;
      for (let i = 0; i < a.count; i++) {
        const dx = wa[3 * i] - wb[3 * i];
        const dy = wa[3 * i + 1] - wb[3 * i + 1];
        const dz = wa[3 * i + 2] - wb[3 * i + 2];
        const d = dx * dx + dy * dy + dz * dz;
        if (d > best.distance) best = { distance: d, pair, vertex: i };
      }
    }
    best.distance = Math.sqrt(Math.max(best.distance, 0));
    best.time = t;
    return best;
  };
}

/**
 * The f32 floor of an animation: the worst vertex distance between the source and the source
 * with every key value of the clip moved by one ulp (float32; the sign from a fixed
 * pseudo-random sequence), at its key times and half-way between them. What a bake whose every
 * key differs from the source's by one f32 rounding shows on this model: a measure of how much of
 * the distance is float noise (it grows with the model's size in file units).
 */
async function f32Floor(sourceBytes, sourceFile, name, rawQuaternions) {
  const a = await parse(sourceBytes, sourceFile);
  const b = await parse(sourceBytes, sourceFile);
  const clipA = a.animations.find((c) => c.name === name);
  const clipB = b.animations.find((c) => c.name === name);
  if (!rawQuaternions) {
    normalizeQuaternions(clipA);
    normalizeQuaternions(clipB);
  }
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  let seed = 12345;
  for (const track of clipB.tracks) {
    const v = track.values;
    for (let i = 0; i < v.length; i++) {
      f[0] = v[i];
      if (f[0] === 0) continue;
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      u[0] += seed & 0x10000 ? 1 : -1;
      v[i] = f[0];
    }
  }
  const pairs = pairMeshes(a, sourceFile, b, sourceFile);
  const measure = measurer(pairs, player(a, clipA), player(b, clipB));
  const { times } = keyTimes(clipA);
  let worst = 0;
  for (let k = 0; k < times.length; k++) {
    worst = Math.max(worst, measure(times[k]).distance);
    if (k + 1 < times.length) {
      worst = Math.max(worst, measure((times[k] + times[k + 1]) / 2).distance);
    }
  }
  return worst;
}

/**
 * The key times of a clip's node tracks (translation, rotation, scale; sorted, distinct), their
 * key count (sum over tracks) and the key count of its morph-weights tracks, which are left out
 * of the rest (morphs are not compared).
 */
function keyTimes(clip) {
  const set = new Set();
  let keys = 0;
  let morphKeys = 0;
  for (const track of clip.tracks) {
    if (track.name.endsWith('.morphTargetInfluences')) {
      morphKeys += track.times.length;
      continue;
    }
    keys += track.times.length;
    for (const t of track.times) set.add(t);
  }
  return { times: [...set].sort((a, b) => a - b), keys, morphKeys };
}

/**
 * The bone that moves vertex i of mesh m: a skinned vertex's largest-weight influence, a rigid
 * mesh's nearest ancestor that is a joint (three.js Bone) with weight 1; {bone, bone_node, weight}.
 */
function heaviest(m, i, gltf) {
  let bone = null;
  let weight = null;
  if (m.skinned) {
    let best = 0;
    for (let k = 1; k < 4; k++) if (m.weights[4 * i + k] > m.weights[4 * i + best]) best = k;
    bone = m.obj.skeleton.bones[m.joints[4 * i + best]];
    weight = m.weights[4 * i + best];
  } else {
    for (let o = m.obj.parent; o; o = o.parent) {
      if (o.isBone) {
        bone = o;
        weight = 1;
        break;
      }
    }
  }
  if (!bone) return { bone: null, bone_node: null, weight: null };
  const assoc = gltf.parser.associations.get(bone);
  return {
    bone: bone.name,
    bone_node: assoc && assoc.nodes !== undefined ? assoc.nodes : null,
    weight,
  };
}

/**
 * Compares every vertex of SOURCE and BAKED as three.js plays their animations of the same name
 * (the JSON object described at the top of this file). `anims`: names to compare (each must be
 * in both; default: every source animation the bake has); `times`: explicit sample times
 * (default: dense, see above). Throws on files it cannot pair up.
 */
export async function vertexCheck({
  sourceFile,
  sourceBytes,
  bakedFile,
  bakedBytes,
  anims = [],
  times: given = null,
  between = 7,
  refine = true,
  rawQuaternions = false,
}) {
  const out = {
    three: `r${THREE.REVISION}`,
    source: sourceFile,
    baked: bakedFile,
    between: given ? null : between,
    refine: given ? false : refine,
    raw_quaternions: rawQuaternions,
    animations: [],
    missing: [],
    worst: null,
  };

  const probe = await parse(sourceBytes, sourceFile);
  const probeBaked = await parse(bakedBytes, bakedFile);
  const bakedNames = new Set(probeBaked.animations.map((a) => a.name));
  let names;
  if (anims.length) {
    for (const w of anims) {
      for (const [g, f] of [
        [probe, sourceFile],
        [probeBaked, bakedFile],
      ]) {
        if (!g.animations.some((a) => a.name === w)) {
          throw new Error(`${f}: no animation named '${w}'`);
        }
      }
    }
    names = anims;
  } else {
    names = [];
    for (const a of probe.animations) {
      if (bakedNames.has(a.name)) names.push(a.name);
      else out.missing.push(a.name);
    }
  }

  for (const name of names) {
    const src = await parse(sourceBytes, sourceFile);
    const bak = await parse(bakedBytes, bakedFile);
    const srcClip = src.animations.find((a) => a.name === name);
    const bakClip = bak.animations.find((a) => a.name === name);
    const nonUnit = rawQuaternions
      ? null
      : { source: normalizeQuaternions(srcClip), baked: normalizeQuaternions(bakClip) };
    const pairs = pairMeshes(src, sourceFile, bak, bakedFile);
    const playSrc = player(src, srcClip);
    const playBak = player(bak, bakClip);
    const sk = keyTimes(srcClip);
    const bk = keyTimes(bakClip);
    const isSrcKey = new Set(sk.times);
    const isBakKey = new Set(bk.times);
    const measure = measurer(pairs, playSrc, playBak);


    // the sample times
    let times;
    const kind = new Map();
    if (given) {
      times = [...given];
      for (const t of times) kind.set(t, 'given');
    } else {
      const union = [...new Set([...sk.times, ...bk.times])].sort((a, b) => a - b);
      if (union.length === 0) union.push(0);
      times = [];
      for (let k = 0; k < union.length; k++) {
        const t0 = union[k];
        const s = isSrcKey.has(t0);
        const b = isBakKey.has(t0);
        times.push(t0);
        kind.set(t0, s && b ? 'source+baked key' : s ? 'source key' : 'baked key');
        if (k + 1 < union.length) {
          const t1 = union[k + 1];
          for (let j = 1; j <= between; j++) {
            const t = t0 + ((t1 - t0) * j) / (between + 1);
            if (t > t0 && t < t1 && !kind.has(t)) {
              times.push(t);
              kind.set(t, 'between');
            }
          }
        }
      }
    }

    const results = times.map((t) => {
      const r = measure(t);
      r.at = kind.get(t);
      return r;
    });

    if (!given && refine && results.length > 1) {
      const order = results.map((r, i) => i);
      order.sort((i, j) => results[j].distance - results[i].distance);
      // the 4 worst samples that are not neighbours of a worse one (distinct peaks)
      const peaks = [];
      for (const i of order) {
        if (peaks.length === 4) break;
        if (!peaks.some((p) => Math.abs(p - i) <= 1)) peaks.push(i);
      }
      const phi = (Math.sqrt(5) - 1) / 2;
      for (const i of peaks) {
        const lo = results[Math.max(i - 1, 0)].time;
        const hi = results[Math.min(i + 1, results.length - 1)].time;
        // golden-section search for the largest worst-vertex distance in [lo, hi]
        let a = lo;
        let b = hi;
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        let fc = measure(c);
        let fd = measure(d);
        const tried = [fc, fd];
        for (let step = 0; step < 24 && b - a > 1e-7; step++) {
          if (fc.distance >= fd.distance) {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = measure(c);
            tried.push(fc);
          } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = measure(d);
            tried.push(fd);
          }
        }
        for (const r of tried) {
          r.at = isSrcKey.has(r.time) || isBakKey.has(r.time) ? kind.get(r.time) : 'between';
          results.push(r);
        }
      }
    }

    /** The JSON record of a result (posing both scenes again at its time). */
    function record(r) {
      if (!r) return null;
      const [a, b] = r.pair;
      const i = r.vertex;
      playSrc(r.time);
      playBak(r.time);
      const pa = threeVertex(a, i);
      const pb = threeVertex(b, i);
      const d = pa.distanceTo(pb);
      // the fast path must be three.js's own arithmetic
      skinAll(a);
      skinAll(b);
      const scale = Math.max(1, Math.abs(pa.x), Math.abs(pa.y), Math.abs(pa.z));
      const fast = [a.world, b.world].map(
        (w) => new THREE.Vector3(w[3 * i], w[3 * i + 1], w[3 * i + 2])
      );
      if (fast[0].distanceTo(pa) > 1e-9 * scale || fast[1].distanceTo(pb) > 1e-9 * scale) {
        throw new Error(
          `internal: fast skinning disagrees with three.js at ${a.key} vertex ${i}: ` +
            `${fast[0].toArray()} vs ${pa.toArray()}`
        );
      }
      return {
        distance: d,
        time: r.time,
        at: r.at,
        mesh: a.name,
        node: a.node,
        mesh_index: a.meshIndex,
        primitive: a.primitive,
        vertex: i,
        skinned: a.skinned,
        ...heaviest(a, i, src),
        source_position: pa.toArray(),
        baked_position: pb.toArray(),
      };
    }

    const worstOf = (pred) => {
      let best = null;
      for (const r of results) if (pred(r) && (!best || r.distance > best.distance)) best = r;
      return best;
    };
    const worst = record(worstOf(() => true));
    const anim = {
      name,
      source_duration: srcClip.duration,
      baked_duration: bakClip.duration,
      source_keys: sk.keys,
      baked_keys: bk.keys,
      source_morph_keys: sk.morphKeys,
      baked_morph_keys: bk.morphKeys,
      source_key_times: sk.times.length,
      baked_key_times: bk.times.length,
      samples: results.length,
      vertices: pairs.reduce((n, [a]) => n + a.count, 0),
      source_keys_worst: record(worstOf((r) => r.at.startsWith('source'))),
      baked_keys_worst: record(worstOf((r) => r.at === 'baked key' || r.at === 'source+baked key')),
      between_worst: record(worstOf((r) => r.at === 'between')),
      worst,
      f32_floor: await f32Floor(sourceBytes, sourceFile, name, rawQuaternions),
      non_unit_quaternions: nonUnit,
    };
    out.animations.push(anim);
    if (worst && (!out.worst || worst.distance > out.worst.distance)) {
      out.worst = { animation: name, ...worst };
    }
  }
    return out;
}

/** The command line: arguments, then the JSON on stdout; exit 1 on files it cannot compare. */
async function main() {
  const usage = (msg) => {
    if (msg) console.error(`vertex_check: ${msg}`);
    console.error(
      'usage: node tests/js/vertex_check.mjs SOURCE BAKED [--anim NAME]... [--times T,T,...] ' +
        '[--between N] [--no-refine] [--raw-quaternions]'
    );
    process.exit(2);
  };
  const args = process.argv.slice(2);
  const files = [];
  const anims = [];
  let times = null;
  let between = 7;
  let refine = true;
  let rawQuaternions = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--anim') anims.push(args[++i] ?? usage('--anim needs a name'));
    else if (a === '--times') {
      const s = args[++i] ?? usage('--times needs a list');
      times = s.split(',').map(Number);
      if (times.some((t) => !Number.isFinite(t) || t < 0)) usage(`bad --times: ${s}`);
    } else if (a === '--between') {
      between = Number(args[++i]);
      if (!Number.isInteger(between) || between < 0) usage('--between takes an integer >= 0');
    } else if (a === '--no-refine') refine = false;
    else if (a === '--raw-quaternions') rawQuaternions = true;
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else files.push(a);
  }
  if (files.length !== 2) usage();
  const [sourceFile, bakedFile] = files;
  try {
    const out = await vertexCheck({
      sourceFile,
      sourceBytes: await readGltf(sourceFile),
      bakedFile,
      bakedBytes: await readGltf(bakedFile),
      anims,
      times,
      between,
      refine,
      rawQuaternions,
    });
    process.stdout.write(JSON.stringify(out) + '\n');
  } catch (e) {
    console.error(`vertex_check: ${e.message}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
