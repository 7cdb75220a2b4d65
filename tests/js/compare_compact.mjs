// File size against accuracy, for any tool's output: each OUTPUT's animation is played by three.js
// on the SOURCE's own scene (tracks bound by node name, as an engine binds a clip to its
// character), so a tool that rewrites the mesh (gltfpack quantizes and reorders vertices) is
// measured on the same vertices as the others.
//
//   node tests/js/compare_compact.mjs SOURCE OUTPUT... [--between N]
//
// For each OUTPUT: its bytes, its keys (sampler input counts over node channels), and the worst
// distance of any vertex of the source's skinned meshes between each animation of the source and
// the output's animation of the same name (an output with one animation, against a source with
// one: those two), at every source key time and N (default 3) times inside each interval between
// them. Quaternion keys are played as three.js plays them (a 16-bit key is not renormalised:
// three.js draws it scaled by |q|^2). A source without a skinned mesh, or an output sharing no
// animation with it, is an error (exit 1).
// Output: one JSON line per OUTPUT: {"file", "bytes", "keys", "worst_mm", "at"} (`at`: the
// animation, time and vertex of the worst distance).
import { statSync } from 'node:fs';

import { THREE, parse, player, readGltf } from './three_node.mjs';

const args = process.argv.slice(2);
let between = 3;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--between') between = Number(args[++i]);
  else files.push(args[i]);
}
if (files.length < 2 || !Number.isInteger(between) || between < 0) {
  console.error('usage: node tests/js/compare_compact.mjs SOURCE OUTPUT... [--between N]');
  process.exit(2);
}
const [sourceFile, ...outputs] = files;

/** The skinned meshes of a parsed scene. */
function skinned(gltf) {
  const meshes = [];
  gltf.scene.traverse((o) => {
    if (o.isSkinnedMesh) meshes.push(o);
  });
  return meshes;
}

/** World positions of every vertex of `meshes`, flattened. */
function positions(meshes) {
  const out = [];
  const v = new THREE.Vector3();
  for (const m of meshes) {
    const n = m.geometry.attributes.position.count;
    for (let i = 0; i < n; i++) {
      m.getVertexPosition(i, v);
      m.localToWorld(v);
      out.push(v.x, v.y, v.z);
    }
  }
  return out;
}

const sourceBytes = await readGltf(sourceFile);
const reference = await parse(sourceBytes, sourceFile);
if (reference.animations.length === 0) {
  console.error(`${sourceFile}: no animation`);
  process.exit(1);
}
const refMeshes = skinned(reference);
if (refMeshes.length === 0) {
  console.error(`${sourceFile}: no skinned mesh to measure vertices on`);
  process.exit(1);
}

/** Per source animation: its sample times and the source's vertices at each (each played on a
 * fresh scene, so what it does not animate holds the rest pose). */
const wanted = [];
for (const { name } of reference.animations) {
  const fresh = await parse(sourceBytes, sourceFile);
  const clip = fresh.animations.find((a) => a.name === name);
  const meshes = skinned(fresh);
  const times = [...new Set(clip.tracks.flatMap((t) => Array.from(t.times)))].sort((a, b) => a - b);
  const sampleTimes = [];
  for (let k = 0; k < times.length; k++) {
    sampleTimes.push(times[k]);
    if (k + 1 < times.length) {
      for (let j = 1; j <= between; j++) {
        sampleTimes.push(times[k] + ((times[k + 1] - times[k]) * j) / (between + 1));
      }
    }
  }
  const refAt = player(fresh, clip);
  const want = sampleTimes.map((t) => {
    refAt(t);
    fresh.scene.updateMatrixWorld(true);
    return positions(meshes);
  });
  wanted.push({ clip, sampleTimes, want });
}

for (const file of outputs) {
  const out = await parse(await readGltf(file), file);
  let keys = 0;
  const json = out.parser.json;
  for (const a of json.animations ?? []) {
    for (const c of a.channels) {
      if (c.target.path !== 'weights') keys += json.accessors[a.samplers[c.sampler].input].count;
    }
  }
  let worst = 0;
  let where = null;
  let compared = 0;
  for (const { clip, sampleTimes, want } of wanted) {
    const single = out.animations.length === 1 && wanted.length === 1;
    const theirs = out.animations.find((a) => a.name === clip.name) ?? (single ? out.animations[0] : null);
    if (!theirs) continue;
    compared++;
    const scene = await parse(sourceBytes, sourceFile);
    const meshes = skinned(scene);
    const at = player(scene, theirs);
    sampleTimes.forEach((t, k) => {
      at(t);
      scene.scene.updateMatrixWorld(true);
      const got = positions(meshes);
      const ref = want[k];
      for (let i = 0; i < got.length; i += 3) {
        const d = Math.hypot(got[i] - ref[i], got[i + 1] - ref[i + 1], got[i + 2] - ref[i + 2]);
        if (d > worst) {
          worst = d;
          where = { animation: clip.name, time: t, vertex: i / 3 };
        }
      }
    });
  }
  if (compared === 0) {
    console.error(`${file}: no animation named as one of ${sourceFile}'s`);
    process.exit(1);
  }
  process.stdout.write(
    JSON.stringify({ file, bytes: statSync(file).size, keys, worst_mm: worst * 1e3, at: where }) + '\n'
  );
}
