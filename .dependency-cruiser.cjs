// The import rules of src (docs/architecture.md, "What may import what"), checked by
// dependency-cruiser in test/architecture/layering.test.ts and counted by scripts/import-graph.mjs.
// A part of src is a top-level directory or file; each part sits in one layer, and a file imports
// only from its own layer or a lower one. Type-only imports count (tsPreCompilationDeps).

/** The layers, lowest first; every part of src is in exactly one. */
const LAYERS = [
  {
    name: 'foundation',
    parts: ['errors.ts', 'validation.ts', 'config.ts', 'paths.ts', 'log.ts', 'record-ids.ts', 'version.ts', 'scheduler.ts', 'db', 'storage'],
  },
  { name: 'domain libraries', parts: ['chem', 'ml', 'engines'] },
  { name: 'job runtime and lookups', parts: ['compute', 'lookups'] },
  { name: 'workflows, the Assistant and the tool catalogue', parts: ['workflows', 'assistant', 'catalogue'] },
  { name: 'the core container and the route vocabulary', parts: ['services.ts', 'api'] },
  { name: 'feature modules', parts: ['modules', 'admin'] },
  { name: 'MCP', parts: ['mcp'] },
  { name: 'the instance', parts: ['instance.ts'] },
  { name: 'HTTP', parts: ['http'] },
  { name: 'the CLI', parts: ['main.ts'] },
];

/** @param {string} s */
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A path pattern matching every file of the given parts of src.
 * @param {string[]} parts
 */
const partsPath = (parts) => `^src/(${parts.map((p) => (p.endsWith('.ts') ? `${esc(p)}$` : `${esc(p)}/`)).join('|')})`;

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${i + 1}-no-import-up`,
  comment: `${layer.name} (${layer.parts.join(', ')}) imports nothing from a higher layer`,
  severity: 'error',
  from: { path: partsPath(layer.parts) },
  to: { path: partsPath(LAYERS.slice(i + 1).flatMap((l) => l.parts)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
const config = {
  forbidden: [
    { name: 'no-circular', comment: 'no import cycle, type-only imports included', severity: 'error', from: {}, to: { circular: true } },
    ...layerRules,
    {
      name: 'no-modules-or-http-below',
      comment: 'the domain libraries, workflows, the Assistant and the tool catalogue never import src/modules or src/http',
      severity: 'error',
      from: { path: partsPath(['chem', 'ml', 'engines', 'workflows', 'assistant', 'catalogue']) },
      to: { path: partsPath(['modules', 'http']) },
    },
    {
      name: 'libraries-not-compute',
      comment: 'chem, ml and engines never import the job runtime',
      severity: 'error',
      from: { path: partsPath(['chem', 'ml', 'engines']) },
      to: { path: partsPath(['compute']) },
    },
    {
      name: 'compute-not-modules',
      comment: 'compute declares ports; modules fill them',
      severity: 'error',
      from: { path: partsPath(['compute']) },
      to: { path: partsPath(['modules']) },
    },
    {
      name: 'only-http-and-main-import-http',
      comment: 'src/http is the HTTP server: only itself and the CLI entry import it',
      severity: 'error',
      from: { path: '^src/', pathNot: partsPath(['http', 'main.ts']) },
      to: { path: partsPath(['http']) },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mts', '.js', '.mjs', '.json'] },
  },
};

// dependency-cruiser refuses unknown keys in its configuration: the layers ride along unlisted.
Object.defineProperty(config, 'layers', { value: LAYERS, enumerable: false });

module.exports = config;
