// Key counts of Marionette's bake against gltf-transform's `resample` at the same TRUE error:
// the worst vertex distance three.js shows between the source and the output (vertex_check.mjs).
//
//   node tests/js/compare_gltf_transform.mjs --marionette BIN [--bake-args "ARGS"]
//        [--out DIR] [--per-decade N] [--json OUT.json] FILE...
//
// For each FILE: `BIN bake FILE --all --force -o DIR/<stem>.marionette.glb ARGS` (its report
// lines are kept), then vertexCheck(source, bake) per animation. gltf-transform (the CLI pinned in
// tests/js/package.json) runs `resample FILE OUT --tolerance T` for T = 10^e, e from -7 to 0.5 in
// steps of 1/N decades (default N = 4; 0: no gltf-transform runs), each output measured the same
// way. gltf-transform keeps
// a subset of the source's key times (LINEAR and STEP samplers; CUBICSPLINE ones are left as
// they are), with a per-component value tolerance; Marionette resamples at its fps and reduces
// under a world-space budget.
//
// For each animation and each target error (Marionette's own worst vertex, and the 0.1 mm budget)
// the table gives the fewest keys gltf-transform wrote among the tolerances whose worst vertex is
// within that target, with that tolerance and its worst vertex ("-" when no tolerance reached it).
// Distances are mm of file units; keys are summed over node channels (sampler input counts;
// morph-weights channels are counted apart, in the JSON, and not compared); "f32
// floor" is vertex_check's float-noise measure of the model. Each row's where-column in the JSON
// names the worst vertex.
// --json writes every measurement (the sweep included).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { readGltf } from './three_node.mjs';
import { vertexCheck } from './vertex_check.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const gltfTransform = path.join(here, 'node_modules', '.bin', 'gltf-transform');

function usage(msg) {
  if (msg) console.error(`compare_gltf_transform: ${msg}`);
  console.error(
    'usage: node tests/js/compare_gltf_transform.mjs --marionette BIN [--bake-args "ARGS"] ' +
      '[--out DIR] [--per-decade N] [--json OUT.json] FILE...'
  );
  process.exit(2);
}

const args = process.argv.slice(2);
let marionette = null;
let bakeArgs = [];
let outDir = path.join(os.tmpdir(), `marionette-compare-${process.pid}`);
let perDecade = 4;
let jsonOut = null;
const files = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const value = () => args[++i] ?? usage(`${a} needs a value`);
  if (a === '--marionette') marionette = value();
  else if (a === '--bake-args') bakeArgs = value().split(/\s+/).filter(Boolean);
  else if (a === '--out') outDir = value();
  else if (a === '--per-decade') perDecade = Number(value());
  else if (a === '--json') jsonOut = value();
  else if (a.startsWith('--')) usage(`unknown option ${a}`);
  else files.push(a);
}
if (!marionette || files.length === 0) usage();
if (!Number.isInteger(perDecade) || perDecade < 0) usage('--per-decade takes an integer >= 0');
mkdirSync(outDir, { recursive: true });

const BUDGET_MM = 0.1;
const tolerances = [];
if (perDecade > 0) {
  for (let k = -7 * perDecade; k <= 0.5 * perDecade; k++) tolerances.push(10 ** (k / perDecade));
}

/** Runs a command; its stdout + stderr (throws with them on failure). */
function run(cmd, argv) {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    throw new Error(`${cmd} ${argv.join(' ')} failed:\n${e.stdout}\n${e.stderr}`);
  }
}

/** Marionette's report lines: name -> {keys, max_mm}. */
function parseReport(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    const m = line.match(/^(.*?)\s+\d+ frames\s+(\d+) \/\s+\d+ keys.*?max ([\d.]+) mm/);
    if (m) out.set(m[1].trim(), { keys: Number(m[2]), max_mm: Number(m[3]) });
  }
  return out;
}

const mm = (w) => (w ? w.distance * 1e3 : 0);

/** Per animation name: {worst, at_source_keys, at_baked_keys, between, source_keys, keys}. */
async function measure(source, output) {
  const r = await vertexCheck({
    sourceFile: source,
    sourceBytes: await readGltf(source),
    bakedFile: output,
    bakedBytes: await readGltf(output),
  });
  const out = new Map();
  for (const a of r.animations) {
    out.set(a.name, {
      worst: mm(a.worst),
      at_source_keys: mm(a.source_keys_worst),
      at_baked_keys: mm(a.baked_keys_worst),
      between: mm(a.between_worst),
      source_keys: a.source_keys,
      keys: a.baked_keys,
      morph_keys: [a.source_morph_keys, a.baked_morph_keys],
      f32_floor: a.f32_floor * 1e3,
      where: a.worst
        ? `${a.worst.mesh} #${a.worst.vertex} at ${a.worst.time.toFixed(4)} s (${a.worst.at})`
        : '',
    });
  }
  return out;
}

const fmt = (x) => (x === null || x === undefined ? '-' : x < 10 ? x.toFixed(4) : x.toFixed(1));
const results = [];
const rows = [];
for (const file of files) {
  const stem = path.basename(file).replace(/\.(glb|gltf)$/i, '');
  const baked = path.join(outDir, `${stem}.marionette.glb`);
  const text = run(marionette, ['bake', file, '--all', '--force', '-o', baked, ...bakeArgs]);
  const report = parseReport(text);
  const ours = await measure(file, baked);
  const sweep = [];
  for (const t of tolerances) {
    const out = path.join(outDir, `${stem}.gltf-transform.glb`);
    run(gltfTransform, ['resample', file, out, '--tolerance', String(t)]);
    sweep.push({ tolerance: t, animations: Object.fromEntries(await measure(file, out)) });
    process.stderr.write(`${stem}: tolerance ${t.toExponential(2)} measured\n`);
  }
  /** Fewest gltf-transform keys of `name` with worst vertex <= target mm. */
  const fewest = (name, target) => {
    let best = null;
    for (const s of sweep) {
      const a = s.animations[name];
      if (a && a.worst <= target && (!best || a.keys < best.keys)) {
        best = { tolerance: s.tolerance, keys: a.keys, worst: a.worst };
      }
    }
    return best;
  };
  for (const [name, m] of ours) {
    const rep = report.get(name) ?? null;
    const atOurs = fewest(name, m.worst);
    const atBudget = fewest(name, BUDGET_MM);
    rows.push({
      file: path.basename(file),
      animation: name,
      source_keys: m.source_keys,
      report_max_mm: rep ? rep.max_mm : null,
      marionette_keys: m.keys,
      morph_keys_source_marionette: m.morph_keys,
      report_keys: rep ? rep.keys : null,
      worst_mm: m.worst,
      at_source_keys_mm: m.at_source_keys,
      at_baked_keys_mm: m.at_baked_keys,
      between_mm: m.between,
      f32_floor_mm: m.f32_floor,
      where: m.where,
      gltf_transform_at_marionette_error: atOurs,
      gltf_transform_at_budget: atBudget,
    });
  }
  results.push({ file, baked, bake_args: bakeArgs, report: Object.fromEntries(report), sweep });
}

const gt = (g) => (g ? `${g.keys} (tol ${g.tolerance.toExponential(1)}, ${fmt(g.worst)})` : '-');
const header = [
  'file',
  'animation',
  'src keys',
  'report max',
  '@src keys',
  '@bake keys',
  'between',
  'f32 floor',
  'Marionette keys',
  'gltf-transform keys @ same worst',
  'gltf-transform keys @ 0.1 mm',
];
const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
for (const r of rows) {
  lines.push(
    `| ${[
      r.file,
      r.animation,
      r.source_keys,
      fmt(r.report_max_mm),
      fmt(r.at_source_keys_mm),
      fmt(r.at_baked_keys_mm),
      fmt(r.between_mm),
      fmt(r.f32_floor_mm),
      r.marionette_keys,
      gt(r.gltf_transform_at_marionette_error),
      gt(r.gltf_transform_at_budget),
    ].join(' | ')} |`
  );
}
console.log(lines.join('\n'));
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ rows, results }, null, 1) + '\n');
