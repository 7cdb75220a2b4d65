// three.js in plain Node, as Marionette's test clients use it (reference.mjs, three_check.mjs):
// the browser globals GLTFLoader touches, a loader that skips textures (no image decoding in
// Node), external .gltf buffers inlined (Node's fetch cannot read files), glTF node index ->
// object mapping, and a player that samples one animation the way glTF viewers do.
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

export const THREE = await import('three');
const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');

/** GLTFLoader plugin that skips textures. */
class NoTextures {
  constructor(parser) {
    this.name = 'MARIONETTE_no_textures';
    this.parser = parser;
  }
  loadTexture() {
    return Promise.resolve(null);
  }
}

/** A glTF/GLB file's bytes, with the external buffers of a .gltf inlined as data URIs. */
export async function readGltf(file) {
  const bytes = await readFile(file);
  if (bytes.subarray(0, 4).toString('latin1') === 'glTF') return bytes;
  const json = JSON.parse(bytes.toString('utf8'));
  for (const b of json.buffers ?? []) {
    if (b.uri && !b.uri.startsWith('data:')) {
      const data = await readFile(path.join(path.dirname(file), decodeURIComponent(b.uri)));
      b.uri = `data:application/octet-stream;base64,${data.toString('base64')}`;
    }
  }
  return Buffer.from(JSON.stringify(json), 'utf8');
}

/**
 * Parses bytes from readGltf into a fresh three.js scene (every node at its rest pose);
 * `plugins` are more GLTFLoader plugin factories (e.g. three-vrm's spring bones).
 */
export function parse(bytes, file, plugins = []) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const loader = new GLTFLoader();
  loader.register((parser) => new NoTextures(parser));
  for (const plugin of plugins) loader.register(plugin);
  return loader.parseAsync(buffer, path.dirname(path.resolve(file)) + '/');
}

/** Map glTF node index -> three.js object in the loaded default scene. */
export function objectsByNode(gltf) {
  const map = new Map();
  gltf.scene.traverse((obj) => {
    const assoc = gltf.parser.associations.get(obj);
    if (assoc && assoc.nodes !== undefined && !map.has(assoc.nodes)) map.set(assoc.nodes, obj);
  });
  return map;
}

/**
 * A function that poses gltf.scene at time t of `clip`: an AnimationMixer with LoopOnce +
 * clampWhenFinished (a time at or past the end holds the last key, as glTF viewers do); the
 * action is reset before every sample, then scene.updateMatrixWorld(true).
 */
export function player(gltf, clip) {
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  return (time) => {
    action.reset().play();
    mixer.setTime(time);
    gltf.scene.updateMatrixWorld(true);
  };
}

/**
 * Plays each animation of `animations` ({"<name>": [times in seconds]}) alone on a freshly
 * parsed scene (so what it does not animate holds its rest) and reads it at each time: the
 * output both three_check.mjs and three_morphs.mjs print, {source, animations: [{name,
 * duration, samples: [{time, nodes}]}]}, where `nodes` is `read(state)` with the scene posed
 * and `state = prepare(gltf)` once per animation. A missing animation ends the process (1).
 */
export async function sampleAnimations(bytes, file, animations, prepare, read) {
  const out = { source: `three r${THREE.REVISION}`, animations: [] };
  for (const [name, times] of Object.entries(animations)) {
    const gltf = await parse(bytes, file);
    const clip = gltf.animations.find((a) => a.name === name);
    if (!clip) {
      console.error(`${file}: no animation named '${name}'`);
      process.exit(1);
    }
    const state = prepare(gltf);
    const poseAt = player(gltf, clip);
    const samples = [];
    for (const time of times) {
      poseAt(time);
      samples.push({ time, nodes: read(state) });
    }
    out.animations.push({ name, duration: clip.duration, samples });
  }
  return out;
}
