// Plays the animations of a glTF file with three.js and prints joint world matrices as JSON,
// for tests/bake_three.rs to compare with Marionette's bake.
//
//   node tests/js/three_check.mjs FILE SPEC.json
//
// SPEC.json: {"nodes": [glTF node indices], "animations": {"<name>": [times in seconds], ...}}
// Output (stdout): {"source":"three r187","animations":[{"name":..,"duration":..,
//   "samples":[{"time":..,"nodes":[{"node":i,"world":[16 floats, column-major]}]}]}]}
//
// Each animation is played alone on a freshly parsed scene (so nodes it does not animate hold
// their rest pose) by an AnimationMixer with LoopOnce + clampWhenFinished; before each sample
// the action is reset and mixer.setTime(t) evaluates it, then scene.updateMatrixWorld(true).
// Times are used as given (the caller passes f32 values). External buffers of a .gltf are read
// from disk and inlined as data URIs (Node's fetch cannot load files). Objects are mapped to glTF node
// indices with parser.associations. Textures are skipped (loadTexture resolves null).
import { readFile } from 'node:fs/promises';

import { readGltf, objectsByNode, sampleAnimations } from './three_node.mjs';

const [file, specFile] = process.argv.slice(2);
if (!file || !specFile) {
  console.error('usage: node tests/js/three_check.mjs FILE SPEC.json');
  process.exit(2);
}
const spec = JSON.parse(await readFile(specFile, 'utf8'));
const bytes = await readGltf(file);
const out = await sampleAnimations(bytes, file, spec.animations, objectsByNode, (objects) => {
  const nodes = [];
  for (const index of spec.nodes) {
    const obj = objects.get(index);
    if (obj) nodes.push({ node: index, world: Array.from(obj.matrixWorld.elements) });
  }
  return nodes;
});
process.stdout.write(JSON.stringify(out) + '\n');
