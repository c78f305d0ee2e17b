// No request may stall the server (docs/reliability.md, "Fuzzing"): a real `crucible serve`
// process gets generated filter expressions (nested `not`, unary minus and parentheses, the
// names every JavaScript object has, up to the 1,000-character limit) through every door that
// takes one: /jobs/estimate, /jobs/submit, /workflows/validate, /workflows/estimate and
// /workflows/runs. Meanwhile the test asks /health/live every 50 ms: no answer may take more
// than 200 ms, every request is answered below 500, and every accepted job ends.
//
// Before the fix (issue 22), 30 `not`s stalled the event loop for 11 s: each `not` evaluated its
// argument twice.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { spawnCrucible } from '../helpers/processes.js';

const STALL_MS = 200;
const PROBE_EVERY_MS = 50;
const RUNS = Number(process.env.CRUCIBLE_STALL_RUNS ?? 60);
const ADMIN = { username: 'admin@crucible.local', password: 'stall-admin-password-1' };
const NAMES = ['mw', 'clogp', 'qed', 'pains', 'lipinski', 'constructor', '__proto__', 'toString', 'hasOwnProperty'];

const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** Expressions from a small grammar, with long unary chains and deep parentheses, up to 1,000 characters. */
const expression: fc.Arbitrary<string> = fc
  .letrec<{ bool: string; num: string }>((tie) => ({
    bool: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('pains', 'lipinski', 'true', 'constructor', '__proto__'),
      fc.tuple(tie('num'), fc.constantFrom('<', '<=', '==', '!='), tie('num')).map(([a, op, b]) => `${a} ${op} ${b}`),
      fc.tuple(fc.integer({ min: 1, max: 300 }), tie('bool')).map(([n, b]) => `${'not '.repeat(n)}${b}`),
      fc.tuple(tie('bool'), fc.constantFrom('and', 'or'), tie('bool')).map(([a, op, b]) => `${a} ${op} ${b}`),
      fc.tuple(fc.integer({ min: 1, max: 200 }), tie('bool')).map(([n, b]) => `${'('.repeat(n)}${b}${')'.repeat(n)}`),
    ),
    num: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom(...NAMES, '5', '500', '1e308'),
      fc.tuple(fc.integer({ min: 1, max: 300 }), tie('num')).map(([n, x]) => `${'- '.repeat(n)}${x}`),
      fc.tuple(tie('num'), fc.constantFrom('+', '-', '*', '/'), tie('num')).map(([a, op, b]) => `${a} ${op} ${b}`),
    ),
  }))
  .bool.map((e) => e.slice(0, 1000));

/** The attacks that froze the server, whatever the generator draws. */
const ATTACKS = [`${'not '.repeat(30)}pains`, `${'not '.repeat(240)}pains`, `${'- '.repeat(40)}mw < 5`, `${'- '.repeat(300)}mw < 5`, 'constructor == constructor'];

describe('no request stalls /health/live', () => {
  let base = '';
  let token = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-stall-'));

  before(async () => {
    const serve = spawnCrucible(
      ['serve'],
      {
        CRUCIBLE_DATA_DIR: dir,
        PORT: '0',
        HOST: '127.0.0.1',
        CRUCIBLE_ADMIN_PASSWORD: ADMIN.password,
        CRUCIBLE_ADMIN_TIER: 'enterprise',
        CRUCIBLE_WORKERS: '2',
        CRUCIBLE_CHEM_THREADS: '2',
      },
      children,
    );
    await serve.ready;
    base = serve.output().match(/listening on (http:\/\/\S+)/)![1]!;
    const login = await fetch(`${base}/api/v1/auth/login-email`, { method: 'POST', body: new URLSearchParams(ADMIN) });
    token = ((await login.json()) as { access_token: string }).access_token;
  });
  after(async () => {
    for (const c of children.splice(0)) {
      if (c.exitCode !== null) continue;
      c.kill('SIGTERM');
      await new Promise((r) => c.once('exit', r));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = async (method: string, p: string, body?: unknown) => {
    const r = await fetch(`${base}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Record<string, any> };
  };

  /** The same expression through every door that takes one. */
  const doors = async (e: string, library: string[]) => {
    const payload = { smiles: library, expression: e };
    const spec = { name: 'stall', steps: [{ id: 'keep', job_type: 'filter', params: { smiles: library, expression: e } }], outputs: { kept: '$steps.keep.outputs.molecules' } };
    return Promise.all([
      call('POST', '/api/v1/jobs/estimate', { job_type: 'filter', payload }).then((r) => ['jobs/estimate', r] as const),
      call('POST', '/api/v1/jobs/submit', { job_name: 'stall', job_type: 'filter', payload }).then((r) => ['jobs/submit', r] as const),
      call('POST', '/api/v1/workflows/validate', { spec }).then((r) => ['workflows/validate', r] as const),
      call('POST', '/api/v1/workflows/estimate', { spec }).then((r) => ['workflows/estimate', r] as const),
      call('POST', '/api/v1/workflows/runs', { template_id: 'library-triage', inputs: { library, expression: e } }).then((r) => ['workflows/runs', r] as const),
    ]);
  };

  it(`answers ${RUNS} generated expressions and the known attacks through every door, /health/live always within ${STALL_MS} ms`, { timeout: 300_000 }, async (t) => {
    const exprs = [...ATTACKS, ...fc.sample(expression, { seed: 20_261_126, numRuns: RUNS })];
    const library = ['CCO', 'c1ccccc1O', 'CC(=O)Oc1ccccc1C(=O)O'];
    // Warm up (the first requests load code and compile schemas lazily) through every door, then probe.
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${base}/api/v1/health/live`)).status, 200);
    await doors('mw < 500', library);
    let probing = true;
    const latencies: number[] = [];
    const slow: string[] = [];
    const probe = (async () => {
      while (probing) {
        const t0 = performance.now();
        const r = await fetch(`${base}/api/v1/health/live`);
        await r.arrayBuffer();
        latencies.push(r.status === 200 ? performance.now() - t0 : Infinity);
        if (performance.now() - t0 > STALL_MS / 2) slow.push(`${(performance.now() - t0).toFixed(0)} ms at ${new Date().toISOString()}`);
        await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      }
    })();

    const jobs: string[] = [];
    const statuses = new Map<string, number>();
    const count = (door: string, status: number) => statuses.set(`${door} ${status}`, (statuses.get(`${door} ${status}`) ?? 0) + 1);
    try {
      for (const e of exprs) {
        const answers = await doors(e, library);
        for (const [door, r] of answers) {
          count(door, r.status);
          assert.ok(r.status < 500, `${door} ${JSON.stringify(e.slice(0, 80))}: ${r.status} ${JSON.stringify(r.body)}`);
          if (door === 'jobs/submit' && r.status === 200) jobs.push(String(r.body.process_id));
        }
        const accepted = answers.filter(([, r]) => r.status < 300).length;
        // An expression is accepted or refused by every door alike (validate answers 200 with valid: false).
        const valid = answers.find(([door]) => door === 'workflows/validate')![1].body.valid === true;
        assert.equal(accepted, valid ? 5 : 1, `${JSON.stringify(e.slice(0, 80))}: ${answers.map(([d, r]) => `${d} ${r.status}`).join(', ')}`);
      }
      // Every accepted job ends, while the probe keeps asking.
      for (const id of jobs) {
        const until = Date.now() + 120_000;
        for (;;) {
          const s = await call('GET', `/api/v1/jobs/status?process_id=${id}`);
          if (['completed', 'error', 'cancelled'].includes(String(s.body.status))) {
            assert.equal(s.body.status, 'completed', JSON.stringify(s.body));
            break;
          }
          assert.ok(Date.now() < until, `job ${id} still ${s.body.status}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    } finally {
      probing = false;
      await probe;
    }
    const refusedDeep = await call('POST', '/api/v1/jobs/submit', { job_name: 'deep', job_type: 'filter', payload: { smiles: library, expression: ATTACKS[1] } });
    assert.equal(refusedDeep.status, 422);
    assert.deepEqual(refusedDeep.body.errors[0].loc, ['body', 'payload', 'expression']);
    assert.ok(jobs.length > 5, `some jobs ran (${jobs.length}): ${[...statuses].join(', ')}`);
    const worst = Math.max(...latencies);
    const sorted = [...latencies].sort((a, b) => a - b);
    t.diagnostic(`/health/live: ${latencies.length} probes, median ${sorted[sorted.length >> 1]!.toFixed(1)} ms, worst ${worst.toFixed(1)} ms; ${[...statuses].join(', ')}`);
    assert.ok(latencies.length > 20, `${latencies.length} probes`);
    assert.ok(worst < STALL_MS, `${slow.join(', ')} /health/live took ${worst.toFixed(0)} ms at worst (${latencies.length} probes; ${[...statuses].join(', ')})`);
  });
});
