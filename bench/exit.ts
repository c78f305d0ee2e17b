// `npm run bench:exit`: the start/stop cycles of test/foundation/exit-cycles.ts at length. The
// tests run each kind of cycle once per backend; this runs 50 cycles of `crucible serve` per
// backend (idle, after a burst, during a long poll, during a running job, output on a pipe whose
// reader stalled or has gone, in turn) and 6 of `crucible worker` on PostgreSQL, with the same
// checks: every exit clean (code 0), within the shutdown deadline, the data directory unlocked.
// It stops at the first cycle that fails them (exit code 1) and prints the start-up and exit
// times per backend.
//
//   npm run bench:exit -- [--cycles 50] [--worker-cycles 6] [--backends pglite,postgres] [--json out.json]
//   CRUCIBLE_TEST_PG_URL selects the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres);
//   its cycles are skipped when it does not answer.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { BENCH_SERVE_CYCLES, BENCH_WORKER_CYCLES, killLeftovers, runServeCycles, runWorkerCycles, type CycleReport } from '../test/foundation/exit-cycles.js';
import { pgReachable } from './lib/pg.js';

const { values: args } = parseArgs({
  options: {
    cycles: { type: 'string', default: String(BENCH_SERVE_CYCLES) },
    'worker-cycles': { type: 'string', default: String(BENCH_WORKER_CYCLES) },
    backends: { type: 'string', default: 'pglite,postgres' },
    json: { type: 'string' },
  },
  strict: true,
});
const CYCLES = Number(args.cycles);
const WORKER_CYCLES = Number(args['worker-cycles']);
const pgUrl = process.env.CRUCIBLE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const log = (s: string) => process.stderr.write(`${s}\n`);
const pctile = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))] ?? NaN;
const summary = (xs: number[]) => ({ median: pctile(xs, 50), p95: pctile(xs, 95), max: Math.max(...xs) });

process.on('exit', killLeftovers);
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    killLeftovers();
    process.exit(130);
  });
}

const results: Record<string, CycleReport & { wallSec: number }> = {};
async function measure(label: string, run: () => Promise<CycleReport>): Promise<void> {
  log(`# ${label} ...`);
  const t0 = performance.now();
  const report = await run();
  const wallSec = Math.round((performance.now() - t0) / 100) / 10;
  results[label] = { ...report, wallSec };
  log(
    `${label}: ${report.cycles} cycles in ${wallSec} s; start-up ms ${JSON.stringify(summary(report.startMs))}; exit ms ${JSON.stringify(summary(report.exitMs))}; slowest exit per kind ${JSON.stringify(report.worstExitMs)}${report.repeated ? `; ${report.repeated} repeated (killed from outside)` : ''}`,
  );
}

const backends = args.backends.split(',').map((b) => b.trim());
try {
  if (backends.includes('pglite')) await measure('serve [pglite]', () => runServeCycles('pglite', CYCLES, log));
  if (backends.includes('postgres')) {
    if (pgUrl === '' || !(await pgReachable(pgUrl))) log(`# PostgreSQL does not answer at ${pgUrl.replace(/:[^:@/]*@/, ':***@')}: its cycles are skipped`);
    else {
      await measure('serve [postgres]', () => runServeCycles('postgres', CYCLES, log));
      if (WORKER_CYCLES > 0) await measure('worker [postgres]', () => runWorkerCycles(WORKER_CYCLES));
    }
  }
} catch (err) {
  log(`FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
if (args.json) fs.writeFileSync(args.json, JSON.stringify({ cycles: CYCLES, workerCycles: WORKER_CYCLES, results }, null, 2));
