// `npm run graph`: the figures of the import graph between the parts of src (a part is a top-level
// directory or file of src): how many parts, how many edges between parts, the edges that run back
// up a layer and the import cycles (module level). The layers and rules are .dependency-cruiser.cjs's
// (docs/architecture.md, "What may import what"); type-only imports count.
// `node scripts/import-graph.mjs [root]` reads another checkout's src (the rules stay this one's).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(process.argv[2] ?? here);
/** @typedef {{ forbidden: { name: string }[]; options: Record<string, unknown>; layers: { name: string; parts: string[] }[] }} Config */
const load = /** @type {(id: string) => Config} */ (createRequire(import.meta.url));
const config = load(path.join(here, '.dependency-cruiser.cjs'));

process.chdir(root);
const result = await cruise(
  ['src'],
  { validate: true, ruleSet: { forbidden: config.forbidden.filter((r) => r.name === 'no-circular') }, ...config.options, tsConfig: undefined },
  {},
  { tsConfig: extractTSConfig(path.join(root, 'tsconfig.json')) },
);
if (typeof result.output === 'string') throw new Error('dependency-cruiser gave no cruise result');
const { modules, summary } = result.output;

/** @param {string} file */
const partOf = (file) => (file.startsWith('src/') ? file.split('/')[1] : null);
/** @type {Map<string, number>} */
const layerOf = new Map(config.layers.flatMap((l, i) => l.parts.map((p) => [p, i + 1])));

/** @type {Set<string>} */
const parts = new Set();
/** @type {Map<string, string[]>} edge "a -> b" and the imports that make it */
const edges = new Map();
for (const m of modules) {
  const a = partOf(m.source);
  if (!a) continue;
  parts.add(a);
  for (const d of m.dependencies) {
    const b = partOf(d.resolved);
    if (!b || b === a) continue;
    const key = `${a} -> ${b}`;
    edges.set(key, [...(edges.get(key) ?? []), `${m.source} -> ${d.resolved}`]);
  }
}

const unplaced = [...parts].filter((p) => !layerOf.has(p)).sort();
const up = [...edges].filter(([key]) => {
  const [a, b] = key.split(' -> ');
  return (layerOf.get(a) ?? 0) < (layerOf.get(b) ?? 0);
});
const cycles = summary.violations.filter((v) => v.rule.name === 'no-circular').map((v) => [v.from, ...(v.cycle ?? []).map((c) => c.name)].join(' -> '));

console.log(`import graph of ${path.relative(process.cwd(), path.join(root, 'src')) || 'src'} (${modules.filter((m) => partOf(m.source)).length} modules)`);
console.log(`parts: ${parts.size}`);
console.log(`edges between parts: ${edges.size}`);
console.log(`edges back up a layer: ${up.length}`);
for (const [key, via] of up) console.log(`  ${key} (layer ${layerOf.get(key.split(' -> ')[0])} -> ${layerOf.get(key.split(' -> ')[1])}): ${via.join(', ')}`);
console.log(`cycles: ${cycles.length}`);
for (const c of cycles) console.log(`  ${c}`);
if (unplaced.length) console.log(`parts in no layer (.dependency-cruiser.cjs): ${unplaced.join(', ')}`);
