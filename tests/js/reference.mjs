// Reference poses from a real glTF client (three.js), committed as golden JSON for
// tests/reference_poses.rs.
//
// Re-run (from the repository root, after `npm ci --prefix tests/js`):
//
//   node tests/js/reference.mjs tests/golden \
//     ../shared/testdata/gltf/Fox.glb ../shared/testdata/gltf/RobotExpressive.glb \
//     ../shared/testdata/gltf/SimpleSkin.gltf assets/mannequin.glb \
//     tests/golden/interpolation_modes.gltf
//
// Re-run it for assets/mannequin.glb whenever the mannequin is regenerated with new clips.
//
// For each FILE it writes OUT_DIR/<file stem>.poses.json:
//   {"source":"three r187","file":"Fox.glb",
//    "rest":{"nodes":[NODE...]},
//    "clips":[{"name":..,"gltf_name":..,"duration":..,"samples":[{"time":..,"nodes":[NODE...]}]}]}
//   "name" is three's clip name (it invents "animation_<i>" for an unnamed animation);
//   "gltf_name" is the name in the file, or null.
//   NODE = {"node":glTF index,"name":glTF name,"translation":[3],"rotation":[x,y,z,w],
//           "scale":[3],"world":[16 floats, column-major]}
//
// How the poses are taken:
// - The file is parsed with GLTFLoader.parseAsync in plain Node (textures are skipped by a plugin
//   whose loadTexture resolves null); the default scene is the root.
// - Each clip is played alone on a freshly parsed scene (so every node it does not animate holds
//   its rest pose) by an AnimationMixer with LoopOnce + clampWhenFinished, so a time at or past
//   the end holds the last key, as glTF viewers do. Before every sample the action is reset and
//   mixer.setTime(t) evaluates it; then scene.updateMatrixWorld(true).
// - Times per clip: 0, three irregular interior times (0.137 d, 0.5 d + 0.0123, 0.873 d; not on
//   keys), exactly d, and d + 0.5, where d is three's clip duration (the latest key time); each
//   rounded to the nearest f32 (see sampleTimes).
// - Nodes stored: every skin joint, every animation target, and all their ancestors. Objects are
//   mapped to glTF node indices with parser.associations; names are the glTF JSON names (three
//   sanitises and de-duplicates its own object names).
// - "world" is object.matrixWorld.elements: the node's world transform in the glTF scene.
//   Skinned-mesh bind matrices play no part: only node transforms are compared.
// - Numbers are written at full double precision (three samples keys in f32 and composes
//   matrices in f64).

import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';

import { THREE, readGltf, parse, objectsByNode, player } from './three_node.mjs';

/** glTF node indices to store: skin joints, animation targets, and their ancestors. */
function nodesOfInterest(json) {
  const nodes = json.nodes ?? [];
  const parent = new Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => (n.children ?? []).forEach((c) => (parent[c] = i)));
  const keep = new Set();
  const add = (i) => {
    for (let n = i; n >= 0 && !keep.has(n); n = parent[n]) keep.add(n);
  };
  for (const skin of json.skins ?? []) skin.joints.forEach(add);
  for (const anim of json.animations ?? []) {
    for (const ch of anim.channels) if (ch.target.node !== undefined) add(ch.target.node);
  }
  return [...keep].sort((a, b) => a - b);
}

function snapshot(gltf, wanted) {
  gltf.scene.updateMatrixWorld(true);
  const objects = objectsByNode(gltf);
  const json = gltf.parser.json;
  const out = [];
  for (const index of wanted) {
    const obj = objects.get(index);
    if (!obj) continue; // not in the default scene
    out.push({
      node: index,
      name: json.nodes[index].name ?? null,
      translation: obj.position.toArray(),
      rotation: obj.quaternion.toArray(),
      scale: obj.scale.toArray(),
      world: Array.from(obj.matrixWorld.elements),
    });
  }
  return out;
}

// Times are rounded to f32 so that Marionette (f32 seconds) samples exactly the same instant: an
// f64 time differs from its f32 rounding by up to 3e-8 s, which at a fast joint moves a rotation
// by several times the f32 precision and, through a long chain under a x100 armature, the
// world matrix by ~1e-4.
function sampleTimes(d) {
  return [0, 0.137 * d, 0.5 * d + 0.0123, 0.873 * d, d, d + 0.5].map(Math.fround);
}

async function reference(file) {
  const bytes = await readGltf(file);
  const first = await parse(bytes, file);
  const wanted = nodesOfInterest(first.parser.json);
  const result = {
    source: `three r${THREE.REVISION}`,
    file: path.basename(file),
    rest: { nodes: snapshot(first, wanted) },
    clips: [],
  };
  for (let c = 0; c < first.animations.length; c++) {
    const gltf = await parse(bytes, file); // fresh rest pose for every clip
    const clip = gltf.animations[c];
    const poseAt = player(gltf, clip);
    const samples = [];
    for (const time of sampleTimes(clip.duration)) {
      poseAt(time);
      samples.push({ time, nodes: snapshot(gltf, wanted) });
    }
    const gltfName = gltf.parser.json.animations[c].name ?? null;
    result.clips.push({ name: clip.name, gltf_name: gltfName, duration: clip.duration, samples });
  }
  return result;
}

const [outDir, ...files] = process.argv.slice(2);
if (!outDir || files.length === 0) {
  console.error('usage: node tests/js/reference.mjs OUT_DIR FILE...');
  process.exit(2);
}
await mkdir(outDir, { recursive: true });
for (const file of files) {
  const result = await reference(file);
  const stem = path.basename(file).replace(/\.(glb|gltf)$/i, '');
  const out = path.join(outDir, `${stem}.poses.json`);
  await writeFile(out, JSON.stringify(result) + '\n');
  const nodes = result.rest.nodes.length;
  console.log(`${out}: ${result.clips.length} clips, ${nodes} nodes per sample`);
}
