// Calibration of the chemistry job types' cost model (src/compute/types/calibration.ts):
//
//   node --import tsx scripts/calibrate-jobs.ts [--e2e] [--molecules N]
//
// A. Per-molecule CPU time of each task kind, in this process on one thread (RDKit MinimalLib
//    loaded here), over the reference molecules of test/fixtures/chem/reference.json (about
//    1,150 varied structures: drugs, NCI compounds, salts, large and small molecules). CPU time
//    (process.cpuUsage) rather than wall-clock time, so that other load on the machine does
//    not inflate the figures; the wall-clock time is printed beside it.
// B. Butina: CPU nanoseconds per pair (n^2 pairs, both passes) on 4,000 fingerprints.
// C. Result artifacts and inputs: CPU per record written (createFromRecords, ~1 KB JSON
//    records) and per molecule read back from an uploaded .smi molecule set.
// D. With --e2e: whole jobs through a real instance (PGlite, one runtime slot, the default
//    chemistry pool) at two sizes per type; runtime_seconds gives the fixed overhead and the
//    per-molecule slope as wall-clock time under the machine's current load.
//
// Prints every figure and the constants to copy into calibration.ts (docs/jobs.md keeps the
// record of each calibration).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { depictMolecule } from '../src/chem/depict.js';
import { describeItem } from '../src/chem/describe.js';
import { buildTable, butinaAssign, butinaCount, butinaOrder } from '../src/chem/jobs/butina.js';
import { molSmiles, morganFp, morganSimilarity, substructureMatch } from '../src/chem/jobs/handlers.js';
import { warmUp } from '../src/chem/properties/index.js';
import { loadRDKit } from '../src/chem/rdkit.js';
import { CALIBRATION } from '../src/compute/types/calibration.js';

const args = process.argv.slice(2);
const e2e = args.includes('--e2e');
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const reference = (JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/chem/reference.json'), 'utf8')).molecules as { smiles: string }[]).map((m) => m.smiles);

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function measure<T>(label: string, inputs: T[], f: (x: T) => unknown, rounds = 2): { cpu: number; wall: number } {
  for (const x of inputs.slice(0, 50)) f(x); // warm up
  const c0 = cpuMs();
  const w0 = performance.now();
  for (let r = 0; r < rounds; r++) for (const x of inputs) f(x);
  const n = inputs.length * rounds;
  const out = { cpu: (cpuMs() - c0) / n, wall: (performance.now() - w0) / n };
  console.log(`  ${label.padEnd(34)} cpu ${out.cpu.toFixed(3).padStart(8)} ms/mol   wall ${out.wall.toFixed(3).padStart(8)} ms/mol   (${n} items)`);
  return out;
}

console.log(
  `calibrate-jobs: ${new Date().toISOString()}, ${os.cpus().length} x ${os.cpus()[0]?.model}, node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`A. per-molecule CPU time, one thread, ${reference.length} reference molecules`);
const rdkit = await loadRDKit();
warmUp(rdkit);
rdkit.disable_logging();
const morgan = { radius: 2, nBits: 2048 };
const q = morganFp(rdkit, 'CC(=O)Oc1ccccc1C(=O)O', morgan).fp!;
const molblocks = reference.slice(0, 300).flatMap((s) => {
  const m = rdkit.get_mol(s);
  if (!m) return [];
  try {
    return [m.get_molblock()];
  } finally {
    m.delete();
  }
});
const A = {
  describe: measure('describe (all properties)', reference, (s) => describeItem(rdkit, s, { key: false }), 1),
  depict: measure('depict 300x220', reference, (s) => depictMolecule(rdkit, s, { width: 300, height: 220, key: false }), 1),
  fingerprint: measure('morgan_fp r2 2048', reference, (s) => morganFp(rdkit, s, morgan)),
  similarity: measure('morgan_similarity', reference, (s) => morganSimilarity(rdkit, s, { ...morgan, query: q })),
  substructure: measure('substructure_match c1ccccc1C(=O)O', reference, (s) => substructureMatch(rdkit, s, { query: 'c1ccccc1C(=O)O', format: 'smarts', useChirality: false })),
  substructureBroad: measure('substructure_match [#6]~[#7,#8]', reference, (s) => substructureMatch(rdkit, s, { query: '[#6]~[#7,#8]', format: 'smarts', useChirality: false })),
  molblock: measure('mol_smiles (molblock -> SMILES)', molblocks, (b) => molSmiles(rdkit, b)),
};

console.log('B. Butina pairs');
const fps: Uint8Array[] = [];
for (let k = 0; fps.length < 4000; k++) {
  for (const s of reference) {
    const r = morganFp(rdkit, k === 0 ? s : `${s}.${'C'.repeat(k)}`, morgan);
    if (r.fp) fps.push(r.fp);
    if (fps.length >= 4000) break;
  }
}
const butina: Record<string, number> = {};
for (const cutoff of [0.35, 0.6]) {
  const c0 = cpuMs();
  const w0 = performance.now();
  const table = buildTable(fps, 2048);
  const n = fps.length;
  const base = { table, cutoff, counts: new SharedArrayBuffer(n * 4), budgetMs: Infinity };
  butinaCount({ from: 0, to: n }, base);
  const order = new SharedArrayBuffer(n * 4);
  new Int32Array(order).set(butinaOrder(new Int32Array(base.counts)));
  const clusters = butinaAssign(0, { ...base, order, seen: new SharedArrayBuffer(n) }).clusters.length;
  const cpu = ((cpuMs() - c0) * 1e6) / (n * n);
  butina[cutoff] = cpu;
  console.log(
    `  cutoff ${cutoff}: ${n} molecules, ${clusters} clusters, cpu ${cpu.toFixed(2)} ns/pair (n^2), wall ${(((performance.now() - w0) * 1e6) / (n * n)).toFixed(2)} ns/pair`,
  );
}

// C and D need an instance.
const { loadConfig } = await import('../src/config.js');
const { createServices, closeServices } = await import('../src/instance.js');
const { buildApp } = await import('../src/http/app.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-calibrate-'));
const config = loadConfig({ LOG_LEVEL: 'silent', CRUCIBLE_DATA_DIR: dataDir, CRUCIBLE_CHEM_CACHE: '0' });
const services = await createServices(config);
const app = await buildApp(services, { logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const email = `calibrate-${crypto.randomBytes(4).toString('hex')}@example.com`;
const user = await services.users.create(email, 'calibrate calibrate calibrate', 'enterprise');
await services.wallet.credit(user.id, 1_000_000_000, 'calibration');
const login = await fetch(`${base}/api/v1/auth/login-email`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ username: email, password: 'calibrate calibrate calibrate' }),
});
const token = ((await login.json()) as { access_token: string }).access_token;
const auth = { authorization: `Bearer ${token}` };

console.log('C. artifacts');
const recordJson = JSON.stringify(describeItem(rdkit, 'CC(=O)Oc1ccccc1C(=O)O', { key: false }));
let c0 = cpuMs();
let w0 = performance.now();
const N = 2000;
await services.artifacts.createFromRecords({
  userId: user.id,
  jobId: null,
  jobType: 'calibration',
  ports: {
    p: {
      format: 'json',
      kind: 'properties',
      records: Array.from({ length: N }, (_, i) => ({
        id: String(i),
        files: { primary: { name: 'properties.json', content: recordJson, contentType: 'application/json' } },
        metrics: { mw: 180.2, clogp: 1.3 },
      })),
    },
  },
});
const writeRecord = { cpu: (cpuMs() - c0) / N, wall: (performance.now() - w0) / N };
console.log(`  write a ${recordJson.length}-byte JSON record: cpu ${writeRecord.cpu.toFixed(3)} ms, wall ${writeRecord.wall.toFixed(3)} ms`);
const smi = Array.from({ length: N }, (_, i) => `${reference[i % reference.length]} m${i}`).join('\n');
const form = new FormData();
form.append('mode', 'molecules');
form.append('file', new Blob([smi]), 'calibration.smi');
const up = (await (await fetch(`${base}/api/v1/artifacts`, { method: 'POST', body: form, headers: auth })).json()) as { id: string };
c0 = cpuMs();
w0 = performance.now();
let read = 0;
for await (const _ of services.artifacts.readMolecules(user.id, up.id)) read++;
const readArtifact = { cpu: (cpuMs() - c0) / read, wall: (performance.now() - w0) / read };
console.log(`  read a molecule of an uploaded .smi set: cpu ${readArtifact.cpu.toFixed(3)} ms, wall ${readArtifact.wall.toFixed(3)} ms (${read} molecules)`);

const e2eRows: string[] = [];
if (e2e) {
  console.log('D. whole jobs (wall-clock runtime_seconds under the current load)');
  const runtime = services.runtime(1, {});
  await runtime.start();
  const runJob = async (job_type: string, payload: Record<string, unknown>) => {
    const r = await fetch(`${base}/api/v1/jobs/submit`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ job_name: 'calibrate', job_type, payload }),
    });
    const pid = ((await r.json()) as { process_id: string }).process_id;
    for (;;) {
      const { rows } = await services.db.query<{ status: string; runtime_seconds: number; expected_runtime_sec: number; message: string }>(
        'SELECT status, runtime_seconds, expected_runtime_sec, message FROM jobs WHERE id = $1',
        [pid],
      );
      const job = rows[0];
      if (!job) throw new Error(`job ${pid} not found`);
      if (['completed', 'error', 'cancelled'].includes(job.status)) return job;
      await new Promise((res) => setTimeout(res, 100));
    }
  };
  const sizes = [100, 1000] as const;
  const lib = (n: number) => Array.from({ length: n }, (_, i) => reference[i % reference.length]);
  for (const [type, extra] of [
    ['properties', {}],
    ['depict', {}],
    ['similarity_search', { query: 'CC(=O)Oc1ccccc1C(=O)O' }],
    ['substructure_search', { query: 'c1ccccc1C(=O)O' }],
    ['cluster', {}],
  ] as const) {
    const small = { n: sizes[0], ...(await runJob(type, { ...extra, smiles: lib(sizes[0]) })) };
    const large = { n: sizes[1], ...(await runJob(type, { ...extra, smiles: lib(sizes[1]) })) };
    const got = [small, large];
    const slope = ((large.runtime_seconds - small.runtime_seconds) * 1000) / (sizes[1] - sizes[0]);
    const overhead = small.runtime_seconds - (slope * sizes[0]) / 1000;
    const row = `${type.padEnd(20)} ${got.map((g) => `n=${g.n}: ${g.runtime_seconds.toFixed(2)} s (expected ${g.expected_runtime_sec.toFixed(1)} s, ${g.status})`).join('   ')}   -> ${slope.toFixed(2)} ms/mol, overhead ${overhead.toFixed(2)} s`;
    e2eRows.push(row);
    console.log(`  ${row}`);
  }
  await runtime.stop();
}

await app.close();
await closeServices(services);
fs.rmSync(dataDir, { recursive: true, force: true });

const up2 = (x: number, step = 0.1) => Math.ceil(x / step) * step;
const constants = {
  perMoleculeMs: {
    // Reading plus converting a molblock: the estimate does not know whether a set is .smi or .sdf.
    readArtifact: up2(readArtifact.cpu + A.molblock.cpu, 0.05),
    writeRecord: up2(writeRecord.cpu, 0.05),
    describe: up2(A.describe.cpu),
    // An SVG record is several times larger than a properties record: drawing + one extra record write.
    depict: up2(A.depict.cpu + writeRecord.cpu),
    fingerprint: up2(A.fingerprint.cpu),
    substructure: up2(Math.max(A.substructure.cpu, A.substructureBroad.cpu)),
  },
  butinaPairNs: up2(Math.max(...Object.values(butina)), 0.5),
};
console.log('\nSuggested constants (CPU time per molecule on one thread, rounded up; calibration.ts applies SAFETY =', CALIBRATION.SAFETY, '):');
console.log(JSON.stringify(constants, null, 2));
