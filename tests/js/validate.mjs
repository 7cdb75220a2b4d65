// Runs the Khronos glTF validator on each file given:
//   node tests/js/validate.mjs FILE.glb|FILE.gltf ...
// Prints each file's error / warning / info / hint counts and every message, and exits with
// status 1 when any file has errors (2 when a file cannot be read). External resources of a
// .gltf (buffers, images) are loaded relative to the file.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator');

const SEVERITY = ['error', 'warning', 'info', 'hint'];

async function validate(file) {
  const bytes = await readFile(file);
  const dir = path.dirname(file);
  const report = await validator.validateBytes(new Uint8Array(bytes), {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: async (uri) => {
      const data = await readFile(path.join(dir, decodeURIComponent(uri)));
      return new Uint8Array(data);
    },
  });
  const i = report.issues;
  console.log(
    `${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`,
  );
  for (const m of i.messages) {
    console.log(`  ${SEVERITY[m.severity] ?? m.severity} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
  }
  return i.numErrors;
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node tests/js/validate.mjs FILE...');
  process.exit(2);
}
let errors = 0;
for (const f of files) {
  try {
    errors += await validate(f);
  } catch (e) {
    console.error(`${f}: cannot validate: ${e.message ?? e}`);
    process.exit(2);
  }
}
process.exit(errors > 0 ? 1 : 0);
