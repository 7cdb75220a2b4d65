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
import path from 'node:path';

globalThis.self ??= globalThis;
if (typeof globalThis.ProgressEvent === 'undefined') {
  globalThis.ProgressEvent = class ProgressEvent extends Event {
    constructor(type, init = {}) {
      super(type);
      this.lengthComputable = init.lengthComputable ?? false;
      this.loaded = init.loaded ?? 0;
      this.total = init.total ?? 0;
    }
  };
}

const THREE = await import('three');
const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');

class NoTextures {
  constructor(parser) {
    this.name = 'MARIONETTE_no_textures';
    this.parser = parser;
  }
  loadTexture() {
    return Promise.resolve(null);
  }
}

async function parse(bytes, dir) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const loader = new GLTFLoader();
  loader.register((parser) => new NoTextures(parser));
  return loader.parseAsync(buffer, dir);
}

function objectsByNode(gltf) {
  const map = new Map();
  gltf.scene.traverse((obj) => {
    const assoc = gltf.parser.associations.get(obj);
    if (assoc && assoc.nodes !== undefined && !map.has(assoc.nodes)) map.set(assoc.nodes, obj);
  });
  return map;
}

const [file, specFile] = process.argv.slice(2);
if (!file || !specFile) {
  console.error('usage: node tests/js/three_check.mjs FILE SPEC.json');
  process.exit(2);
}
const spec = JSON.parse(await readFile(specFile, 'utf8'));
let bytes = await readFile(file);
// Node's fetch cannot read files: inline the external buffers of a .gltf as data URIs.
if (bytes.subarray(0, 4).toString('latin1') !== 'glTF') {
  const json = JSON.parse(bytes.toString('utf8'));
  for (const b of json.buffers ?? []) {
    if (b.uri && !b.uri.startsWith('data:')) {
      const data = await readFile(path.join(path.dirname(file), decodeURIComponent(b.uri)));
      b.uri = `data:application/octet-stream;base64,${data.toString('base64')}`;
    }
  }
  bytes = Buffer.from(JSON.stringify(json), 'utf8');
}
const dir = path.dirname(path.resolve(file)) + '/';
const out = { source: `three r${THREE.REVISION}`, animations: [] };
for (const [name, times] of Object.entries(spec.animations)) {
  const gltf = await parse(bytes, dir);
  const clip = gltf.animations.find((a) => a.name === name);
  if (!clip) {
    console.error(`${file}: no animation named '${name}'`);
    process.exit(1);
  }
  const objects = objectsByNode(gltf);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  const samples = [];
  for (const time of times) {
    action.reset().play();
    mixer.setTime(time);
    gltf.scene.updateMatrixWorld(true);
    const nodes = [];
    for (const index of spec.nodes) {
      const obj = objects.get(index);
      if (obj) nodes.push({ node: index, world: Array.from(obj.matrixWorld.elements) });
    }
    samples.push({ time, nodes });
  }
  out.animations.push({ name, duration: clip.duration, samples });
}
process.stdout.write(JSON.stringify(out) + '\n');
