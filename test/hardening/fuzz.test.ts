// Fuzzing the whole HTTP API from its own OpenAPI document (docs/reliability.md, "Fuzzing").
//
// The test reads /openapi.json and, for every operation, draws requests with fast-check (fixed
// seed): valid ones built from the operation's parameter and body schemas, and mutated ones
// (wrong types, huge and tiny numbers, huge strings, deep nesting, NUL and lone surrogates,
// bytes that are not UTF-8, invalid UUIDs and path traversal in path parameters, wrong content
// types, invalid JSON, prototype keys, missing and extra fields, bad credentials, bad
// Idempotency-Keys, other methods, malformed and truncated multipart). Every answer must be
// below 500; every error must be application/problem+json with type, title, status, detail,
// instance, request_id and retry (a 422 with the loc of each issue); no body may carry a stack
// trace, SQL, a database error or a server file path.
//
// CRUCIBLE_FUZZ_RUNS sets the number of requests (default 2,000), CRUCIBLE_FUZZ_SEED the seed,
// CRUCIBLE_FUZZ_REPORT a file to write the run's counts and findings to (JSON).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { ChildProcess } from 'node:child_process';
import { requester } from '../helpers/harness.js';
import { probeSummary, startLivenessProbe, collectGarbage } from '../helpers/liveness-probe.js';
import { startServe, type ServeProcess } from '../helpers/processes.js';
import { closedPortBase, LOOKUP_URL_VARS } from '../lookups/stand-in.js';
import { digest, multipart, targetsOf, toWire, type Credentials } from './mutations.js';
import { ANSWER_TIMEOUT_MS, excerpt, judge, type Finding } from './judge.js';
import { mutationsFor } from './mutation-catalogue.js';
import { draftArb, operationsOf, schemaContext, type Fixtures, type Operation } from './operations.js';
import { send, type Wire } from './wire.js';

const RUNS = Number(process.env.CRUCIBLE_FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.CRUCIBLE_FUZZ_SEED ?? 20_250_611);
const REPORT = process.env.CRUCIBLE_FUZZ_REPORT;
const CONCURRENCY = 12;
/** No request may keep /health/live waiting this long (docs/reliability.md, "Fuzzing"). */
const STALL_MS = 500;
/** At most SLOW_PER_100 probes in 100 may take this long: a busy 2-core CI machine slows a few. */
const SLOW_MS = 200;
const SLOW_PER_100 = 3;
/** Requests per minute per credential: under the enterprise tier's 6,000. */
const PER_CREDENTIAL_PER_MINUTE = 5_400;

/** Valid requests get this many shares of an operation's requests (mutations: see mutationsFor). */
const VALID_SHARES = 6;

interface Stream {
  op: Operation;
  kind: string;
  /** Requests by their index in the stream (see Mutation). */
  arb: fc.Arbitrary<(slot: number) => Wire>;
  shares: number;
}

/** One operation's streams of requests: valid drafts, and one stream per mutation that applies to it. */
function streamsOf(op: Operation, doc: any, fx: Fixtures, seed: number): Stream[] {
  const ctx = schemaContext(doc, fx, op.method);
  // GET /auth/logout ends the session it is called with: it gets the spare one.
  const creds: Credentials = op.path === '/api/v1/auth/logout' ? { token: fx.spareToken, key: fx.creds.key } : fx.creds;
  const drafts = draftArb(op, ctx);
  const queryNames = op.params.filter((p) => p.in === 'query').map((p) => p.name);
  const sample = fc.sample(drafts, { seed, numRuns: 1 })[0];
  const targets = sample ? targetsOf(sample, queryNames).length : 1;
  const valid: Stream = { op, kind: 'valid', shares: VALID_SHARES, arb: drafts.map((d) => () => toWire(op, d, creds, 'valid', 'valid')) };
  const mutated = mutationsFor(op, creds, targets).map(({ name, arb, shares }): Stream => ({
    op,
    kind: name,
    shares,
    arb: fc.tuple(drafts, arb).map(([d, m]) => (slot: number) => {
      const { draft, note } = m(d, slot);
      return toWire(op, draft, creds, name, note);
    }),
  }));
  return [valid, ...mutated];
}

/**
 * `total` requests shared out over the streams by their shares (largest remainder), each stream
 * sampled from its own seed, then interleaved so that operations and mutations mix over the run.
 */
function plan(streams: Stream[], total: number, seed: number): (() => Wire)[] {
  const shares = streams.reduce((n, s) => n + s.shares, 0);
  const exact = streams.map((s) => (total * s.shares) / shares);
  const counts = exact.map(Math.floor);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  const missing = total - counts.reduce((a, b) => a + b, 0);
  for (let k = 0; k < missing; k++) counts[order[k % order.length]!.i]! += 1;
  const samples = streams.map((s, i) => (counts[i] ? fc.sample(s.arb, { seed: seed + i, numRuns: counts[i] }) : []));
  // Requests are built when sent (some bodies are megabytes): the plan holds drafts and mutations.
  const out: (() => Wire)[] = [];
  const rounds = Math.max(0, ...counts);
  for (let round = 0; round < rounds; round++)
    for (const l of samples) {
      const make = l[round];
      if (make) out.push(() => make(round));
    }
  return out;
}

// ---------------------------------------------------------------------------------------------

/** Spaces requests per credential so none goes over its per-minute limit. */
class Pacer {
  private readonly next = new Map<string, number>();
  constructor(private readonly gapMs: number) {}
  async wait(id: string): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.next.get(id) ?? 0);
    this.next.set(id, at + this.gapMs);
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }
}

function credentialOf(w: Wire): string {
  return `${w.headers.authorization ?? ''}|${w.headers['x-api-key'] ?? ''}`;
}

describe('fuzzing every operation of the OpenAPI document', () => {
  let h: ServeProcess;
  let fx: Fixtures;
  let doc: any;
  const children: ChildProcess[] = [];

  before(async () => {
    // Lookups go to a closed local port: they fail fast (upstream_error) and never leave the machine.
    const closed = await closedPortBase();
    // A real `crucible serve` process (API only), so that the liveness probe measures the server
    // alone. A truncated body is answered 408 after 1 s without a byte, inside the client's 2 s
    // patience. The fuzzing account is the first-start admin, on the enterprise tier.
    h = await startServe(
      {
        ...Object.fromEntries(LOOKUP_URL_VARS.map((v) => [v, closed])),
        CRUCIBLE_BODY_IDLE_TIMEOUT_SEC: '1',
        CRUCIBLE_WORKERS: '0',
        CRUCIBLE_CHEM_THREADS: '2',
        CRUCIBLE_ADMIN_TIER: 'enterprise',
        CRUCIBLE_ADMIN_CREDIT_USD: '1000000',
      },
      children,
    );
    const req = requester(h.base);
    const login = async () => {
      const r = await req('POST', '/api/v1/auth/login-email', { form: h.admin });
      assert.equal(r.status, 200, r.text);
      return r.body as { access_token: string; refresh_token: string };
    };
    const newKey = async (name: string) => {
      const r = await req('POST', '/api/v1/auth/api-keys', { token: first.access_token, body: { name } });
      assert.equal(r.status, 200, r.text);
      return { id: String(r.body.id), secret: String(r.body.api_key) };
    };
    const first = await login();
    const u = { token: first.access_token, email: h.admin.username, password: h.admin.password };
    const key = await newKey('fuzz');
    const second = { body: await login() };
    const upload = async (name: string) => {
      const r = await req('POST', '/api/v1/artifacts', {
        token: u.token,
        headers: { 'idempotency-key': crypto.randomUUID() },
        raw: {
          body: multipart(
            [
              { name: 'mode', value: 'molecules' },
              { name: 'file', value: Buffer.from('CCO ethanol\nc1ccccc1 benzene\nCC(=O)Oc1ccccc1C(=O)O aspirin\n'), filename: name },
            ],
            'b0undary',
          ),
          type: 'multipart/form-data; boundary=b0undary',
        },
      });
      assert.equal(r.status, 201, r.text);
      return String(r.body.id);
    };
    const submit = async (name: string) => {
      const r = await req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: name, job_type: 'wait', payload: { seconds: 5 } } });
      assert.equal(r.status, 200, r.text);
      return String(r.body.process_id);
    };
    fx = {
      creds: { token: u.token, key: key.secret },
      spareToken: second.body.access_token,
      spareRefresh: second.body.refresh_token,
      email: u.email,
      password: u.password,
      artifact: { keep: await upload('keep.smi'), doomed: await upload('doomed.smi') },
      key: { keep: (await newKey('fuzz-keep')).id, doomed: (await newKey('fuzz-doomed')).id },
      job: { keep: await submit('fuzz keep'), doomed: await submit('fuzz doomed') },
    };
    const d = await req('GET', '/openapi.json');
    assert.equal(d.status, 200);
    doc = d.body;
  });

  after(async () => {
    await h?.close();
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  });

  it(`answers ${RUNS} generated requests without a 5xx, with problem+json errors that leak nothing`, { timeout: 600_000 }, async (t) => {
    const started = Date.now();
    const ops = operationsOf(doc);
    assert.ok(ops.length >= 30, `the document lists ${ops.length} operations`);
    const streams = ops.flatMap((op, i) => streamsOf(op, doc, fx, SEED + 100_000 + i));
    const wires = plan(streams, RUNS, SEED);

    const base = new URL(h.base);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const pacer = new Pacer(60_000 / PER_CREDENTIAL_PER_MINUTE);
    const extraLeaks = [h.dataDir, process.cwd()];
    const byStatus = new Map<string, number>();
    const byKind = new Map<string, Map<string, number>>();
    const findings: Finding[] = [];
    let slowest = { ms: 0, what: '' };
    const msByOp = new Map<string, number>();
    const byOp = new Map<string, Map<string, number>>();
    let next = 0;
    const worker = async () => {
      for (;;) {
        const make = wires[next++];
        if (!make) return;
        const w = make();
        await pacer.wait(credentialOf(w));
        const o = await send(base, agent, w, ANSWER_TIMEOUT_MS);
        const label = o.status ? String(o.status) : `no answer (${o.error === 'aborted' ? 'truncated, aborted after 2 s' : o.error})`;
        byStatus.set(label, (byStatus.get(label) ?? 0) + 1);
        const k = byKind.get(w.kind) ?? new Map<string, number>();
        k.set(label, (k.get(label) ?? 0) + 1);
        byKind.set(w.kind, k);
        msByOp.set(w.op, (msByOp.get(w.op) ?? 0) + o.ms);
        const perOp = byOp.get(w.op) ?? new Map<string, number>();
        perOp.set(label, (perOp.get(label) ?? 0) + 1);
        byOp.set(w.op, perOp);
        if (o.ms > slowest.ms) slowest = { ms: o.ms, what: `${w.method} ${w.op.split(' ')[1]} [${w.kind}] ${w.note}` };
        for (const problem of judge(w, o, extraLeaks)) {
          findings.push({
            op: w.op,
            kind: w.kind,
            note: w.note,
            method: w.method,
            path: excerpt(w.path, 160),
            sent: w.body
              ? `${w.headers['content-type'] ?? '(no content-type)'} ${excerpt(w.body.toString('utf8'), 160)} [${w.body.length} bytes, sha ${digest(w.body)}]`
              : '(no body)',
            status: o.status,
            problem,
            body: excerpt(o.body.toString('utf8')),
          });
        }
      }
    };
    // The stall property: while the requests run, /health/live is asked every 100 ms from a thread
    // of its own. A route compiles its response serializers on its first answers (a one-off cost
    // of up to ~150 ms under load, docs/reliability.md): one valid and one invalid request per
    // operation first, unjudged (but never a logout or a delete, which would spend fixtures).
    for (const st of streams.filter((x) => (x.kind === 'valid' || x.kind === 'wrong-type') && x.op.method !== 'DELETE' && !x.op.path.endsWith('/logout'))) {
      const [make] = fc.sample(st.arb, { seed: SEED, numRuns: 1 });
      if (make) await send(base, agent, make(0), ANSWER_TIMEOUT_MS);
    }
    collectGarbage();
    const probe = startLivenessProbe(h.base, 100);
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const live = await probe.stop();
    agent.destroy();
    const seconds = (Date.now() - started) / 1000;

    // The report: counts by status and by mutation, then each distinct finding once.
    const sorted = [...byStatus].sort(([a], [b]) => a.localeCompare(b));
    t.diagnostic(
      `${wires.length} requests over ${ops.length} operations (${streams.length} streams, ${streams.reduce((n, s) => n + s.shares, 0)} shares) in ${seconds.toFixed(1)} s (seed ${SEED}); slowest ${slowest.ms} ms: ${slowest.what}`,
    );
    const busiest = [...msByOp].sort(([, a], [, b]) => b - a).slice(0, 3);
    t.diagnostic(`most time (sum of answer times): ${busiest.map(([op, ms]) => `${op} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
    t.diagnostic(`by status: ${sorted.map(([s, n]) => `${s}: ${n}`).join(', ')}`);
    for (const [kind, m] of [...byKind].sort(([a], [b]) => a.localeCompare(b)))
      t.diagnostic(
        `  ${kind}: ${[...m]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([s, n]) => `${s}: ${n}`)
          .join(', ')}`,
      );
    const groups = new Map<string, { count: number; first: Finding }>();
    for (const f of findings) {
      const key = `${f.op} [${f.kind}] ${f.status} ${f.problem.replace(/"[^"]{20,}"/g, '"…"')}`;
      const g = groups.get(key);
      if (g) g.count++;
      else groups.set(key, { count: 1, first: f });
    }
    const lines = [...groups].map(
      ([key, { count, first }]) => `${key} (x${count})\n    e.g. ${first.method} ${first.path} — ${first.note}\n    sent: ${first.sent}\n    got ${first.status}: ${first.body}`,
    );
    for (const l of lines) t.diagnostic(l);
    if (REPORT)
      fs.writeFileSync(
        REPORT,
        JSON.stringify(
          {
            seed: SEED,
            requests: wires.length,
            operations: ops.length,
            seconds,
            byStatus: Object.fromEntries(sorted),
            byKind: Object.fromEntries([...byKind].map(([k, m]) => [k, Object.fromEntries(m)])),
            byOperation: Object.fromEntries([...byOp].map(([k, m]) => [k, Object.fromEntries(m)])),
            findings: [...groups].map(([key, g]) => ({ key, ...g })),
          },
          null,
          2,
        ),
      );
    const worstLive = Math.max(...live);
    t.diagnostic(`/health/live during the run: ${probeSummary(live)}`);
    assert.equal(wires.length, RUNS, 'every planned request was sent');
    assert.ok(worstLive < STALL_MS, `no request may stall /health/live: it took ${worstLive.toFixed(0)} ms at worst`);
    const slow = live.filter((ms) => ms >= SLOW_MS).length;
    assert.ok(slow * 100 <= SLOW_PER_100 * live.length, `${slow} of ${live.length} /health/live answers took ${SLOW_MS} ms or more`);
    assert.equal(findings.length, 0, `${findings.length} findings in ${groups.size} groups:\n${lines.join('\n')}`);
  });
});
