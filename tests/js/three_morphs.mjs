// Plays the animations of a glTF file with three.js and prints the morph target weights of every
// mesh node as JSON, for the morph target comparisons with Marionette and Blender.
//
//   node tests/js/three_morphs.mjs FILE SPEC.json
//
// SPEC.json: {"animations": {"<name>": [times in seconds], ...}}
// Output (stdout): {"source":"three r187","animations":[{"name":..,"duration":..,
//   "samples":[{"time":..,"nodes":[{"node":i,"weights":[..],"targets":[names] or null}]}]}]}
//
// Each animation is played alone on a freshly parsed scene, as three_check.mjs does (LoopOnce +
// clampWhenFinished, reset, mixer.setTime(t)), so meshes it does not animate hold their default
// weights (node weights, else mesh weights, else 0). A single-primitive mesh node is the Mesh
// itself; a multi-primitive one is a Group whose child Meshes (one per primitive, no node
// association of their own) share the node's weights: "weights" is the first primitive's, and
// "primitives" lists every primitive's when they differ. "targets" are the names from
// extras.targetNames (morphTargetDictionary), in target order, when the loader accepted them.
import { readFile } from 'node:fs/promises';

import { readGltf, sampleAnimations } from './three_node.mjs';

const [file, specFile] = process.argv.slice(2);
if (!file || !specFile) {
  console.error('usage: node tests/js/three_morphs.mjs FILE SPEC.json');
  process.exit(2);
}
const spec = JSON.parse(await readFile(specFile, 'utf8'));
const bytes = await readGltf(file);

/** glTF node index -> the meshes with morph targets that show it, in scene order. */
function morphMeshesByNode(gltf) {
  const nodeOf = (obj) => gltf.parser.associations.get(obj)?.nodes;
  const map = new Map();
  gltf.scene.traverse((obj) => {
    if (!obj.isMesh || !obj.morphTargetInfluences) return;
    // the Mesh is the node, or a primitive of the node's Group
    let node = nodeOf(obj);
    if (node === undefined && obj.parent?.isGroup) node = nodeOf(obj.parent);
    if (node === undefined) return;
    if (!map.has(node)) map.set(node, []);
    map.get(node).push(obj);
  });
  return new Map([...map].sort((a, b) => a[0] - b[0]));
}

/** Target names in target order, or null without a morphTargetDictionary. */
function targetNames(mesh) {
  if (!mesh.morphTargetDictionary) return null;
  const names = new Array(mesh.morphTargetInfluences.length).fill(null);
  for (const [name, i] of Object.entries(mesh.morphTargetDictionary)) names[i] = name;
  return names;
}

const out = await sampleAnimations(bytes, file, spec.animations, morphMeshesByNode, (meshes) => {
  const nodes = [];
  for (const [node, prims] of meshes) {
    const weights = prims.map((m) => Array.from(m.morphTargetInfluences));
    const entry = { node, weights: weights[0], targets: targetNames(prims[0]) };
    if (weights.some((w) => w.some((v, i) => v !== weights[0][i]))) entry.primitives = weights;
    nodes.push(entry);
  }
  return nodes;
});
process.stdout.write(JSON.stringify(out) + '\n');
