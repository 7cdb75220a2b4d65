// Reads a glTF's VRM spring bones (VRMC_springBone) with three-vrm's own loader plugin
// (@pixiv/three-vrm-springbone) and prints what it found as JSON, for
// tests/clients/vrm_springs.rs to compare with what Marionette reads and writes.
//
//   node tests/js/vrm_springs.mjs FILE
//
// Output (stdout): {"joints":[{"node":i,"child":j|null,"hitRadius":..,"stiffness":..,
//   "gravityPower":..,"gravityDir":[x,y,z],"dragForce":..,"colliders":n}],"colliders":n}
// Joints are three-vrm's VRMSpringBoneJoint objects (one per joint that moves, its `child`
// the next joint of its spring), nodes mapped back with parser.associations.
import { readGltf, objectsByNode, parse } from './three_node.mjs';

const { VRMSpringBoneLoaderPlugin } = await import('@pixiv/three-vrm-springbone');

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tests/js/vrm_springs.mjs FILE');
  process.exit(2);
}
const gltf = await parse(await readGltf(file), file, [
  (parser) => new VRMSpringBoneLoaderPlugin(parser),
]);
const manager = gltf.userData.vrmSpringBoneManager;
if (!manager) {
  process.stdout.write(JSON.stringify({ joints: [], colliders: 0 }) + '\n');
  process.exit(0);
}
const byObject = new Map();
for (const [node, obj] of objectsByNode(gltf)) byObject.set(obj, node);
const joints = [];
for (const j of manager.joints) {
  const s = j.settings;
  const colliders = (j.colliderGroups ?? []).reduce((n, g) => n + g.colliders.length, 0);
  joints.push({
    node: byObject.get(j.bone) ?? null,
    child: j.child ? (byObject.get(j.child) ?? null) : null,
    hitRadius: s.hitRadius,
    stiffness: s.stiffness,
    gravityPower: s.gravityPower,
    gravityDir: [s.gravityDir.x, s.gravityDir.y, s.gravityDir.z],
    dragForce: s.dragForce,
    colliders,
  });
}
joints.sort((a, b) => a.node - b.node);
process.stdout.write(JSON.stringify({ joints, colliders: manager.colliders.length }) + '\n');
