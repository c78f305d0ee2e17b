// The TypeScript SDK (clients/typescript, issue 26): built with tsc, then run against a live
// server on both databases: login and refresh, describe, a job to completion with waitForJob,
// an upload and its download, a workflow run with waitForRun, a prediction, a streamed Assistant
// turn resumed after a dropped connection, a 422 and a 404 as ProblemErrors, an idempotent
// retry of a write whose answer was lost, and the list iterators. Then the README's examples,
// compiled with tsc --strict (no cast, no `!`) and run as written.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inspect, promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { BACKENDS, onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { buildSdk, castsIn, compileAsUser, readmeExamples, recordingFetch, TYPE_CHECKS, type Sdk } from './typescript-sdk.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LIBRARY = 'CCO ethanol\nc1ccccc1O phenol\nCC(=O)Oc1ccccc1C(=O)O aspirin\nCn1cnc2c1c(=O)n(C)c(=O)n2C caffeine\n';

let sdk: Sdk;
before(async () => {
  const built = await buildSdk();
  sdk = built.sdk;
  console.log(`# the SDK built with tsc in ${built.buildMs} ms`);
});

for (const backend of onlyOn('postgres')) {
  describe(`TypeScript SDK against a live server [${backend.name}]`, () => {
    let h: Harness;
    let user: { email: string; password: string; userId: string };
    let client: InstanceType<Sdk['Crucible']>;
    let library: string;
    before(async () => {
      // Access tokens of 6 s: every client here refreshes its token several times on the way.
      h = await startHarness(backend, { CRUCIBLE_ACCESS_TOKEN_TTL: '6' }, { workers: 2 });
      user = await h.user();
      await h.credit(user.userId, 20);
      client = await sdk.Crucible.login({ baseUrl: h.base, email: user.email, password: user.password });
    });
    after(() => h?.close());

    it('logs in, keeps the refresh token to itself and out of URLs, refreshes, logs out', async () => {
      const rec = recordingFetch();
      const c = await sdk.Crucible.login({ baseUrl: h.base, email: user.email, password: user.password, fetch: rec.fetch });
      assert.equal(c.credential, 'session');
      const login = rec.sent[0]!;
      assert.equal(login.url.pathname, '/api/v1/auth/login-email');
      assert.equal(login.headers.get('content-type'), 'application/x-www-form-urlencoded');
      assert.equal(login.headers.get('authorization'), null, 'login carries no credential');
      await c.refresh();
      const refresh = rec.sent[1]!;
      assert.deepEqual([refresh.method, refresh.url.pathname, refresh.url.search], ['POST', '/api/v1/auth/refresh', '']);
      const used = (JSON.parse(refresh.body ?? '{}') as { refresh_token?: string }).refresh_token ?? '';
      assert.ok(used.length > 20, 'the refresh token went in the body');
      // The client exposes no token: not as a property, not through inspection or JSON.
      const seen = inspect(c, { showHidden: true, depth: 8, getters: true }) + JSON.stringify(c);
      assert.ok(!seen.includes(used), 'the refresh token is not visible on the client');
      assert.equal((await c.get('/api/v1/auth/check')).message.length > 0, true);
      assert.ok(rec.sent.every((s) => !s.url.search.includes(used)));
      // The old refresh token was used once; the new pair works, so the session was not revoked.
      assert.equal(rec.sent.at(-1)!.status, 200);
      assert.match(await c.logout(), /logged out/i);
      assert.equal(c.credential, 'none');
      await assert.rejects(c.get('/api/v1/auth/check'), (e: unknown) => e instanceof sdk.ProblemError && e.status === 401 && e.retry === 'auth');
    });

    it('refreshes an access token about to expire once for concurrent requests (a refresh token is single use)', async () => {
      const rec = recordingFetch();
      const c = await sdk.Crucible.login({ baseUrl: h.base, email: user.email, password: user.password, fetch: rec.fetch });
      // The harness's tokens live 6 s: refreshed 1.2 s before they expire (a fifth of their lifetime).
      await new Promise((r) => setTimeout(r, 5_000));
      const wallets = await Promise.all(Array.from({ length: 6 }, () => c.get('/api/v1/wallet')));
      assert.deepEqual(
        wallets.map((w) => w.currency),
        Array(6).fill('USD'),
      );
      assert.equal(rec.sent.filter((s) => s.url.pathname === '/api/v1/auth/refresh').length, 1, 'one refresh for six requests');
      assert.ok(rec.sent.every((s) => s.status === 200));
    });

    it('describes molecules, typed', async () => {
      const { items } = await client.post('/api/v1/describe', { body: { smiles: ['CCO', 'c1ccccc1O', 'not a smiles'] } });
      assert.equal(items.length, 3);
      assert.equal(items[0]!.properties?.formula, 'C2H6O');
      assert.equal(items[0]!.properties?.mw.toFixed(2), '46.07');
      assert.equal(items[1]!.properties?.formula, 'C6H6O');
      assert.deepEqual([items[2]!.properties, items[2]!.error], [null, 'unparseable']);
    });

    it('runs a job to completion with waitForJob on the events feed and reads its typed result', async () => {
      const rec = recordingFetch();
      const c = await sdk.Crucible.login({ baseUrl: h.base, email: user.email, password: user.password, fetch: rec.fetch });
      const { process_id } = await c.post('/api/v1/jobs/submit', { body: { job_name: 'sdk-properties', job_type: 'properties', payload: { smiles: ['CCO', 'c1ccccc1O'] } } });
      assert.match(process_id, UUID);
      const submit = rec.sent.find((s) => s.url.pathname === '/api/v1/jobs/submit')!;
      assert.match(submit.headers.get('idempotency-key') ?? '', UUID, 'a write that takes a key gets one');
      const t0 = performance.now();
      const status = await c.waitForJob(process_id, { timeoutMs: 60_000 });
      const waitedMs = performance.now() - t0;
      assert.deepEqual([status.process_id, status.status], [process_id, 'completed']);
      assert.match(status.result_artifact_id ?? '', UUID);
      // The feed, not a status loop: a first read, the status, then long polls (one per 25 s).
      const polls = rec.sent.filter((s) => s.url.pathname === '/api/v1/events');
      assert.ok(polls.length <= 2 + Math.ceil(waitedMs / 25_000), `${polls.length} reads of the feed in ${Math.round(waitedMs)} ms`);
      assert.ok(polls.slice(1).every((p) => p.url.searchParams.get('wait') !== '0' && p.url.searchParams.get('subject_id') === process_id));
      const result = await c.get('/api/v1/jobs/result', { params: { query: { process_id } } });
      assert.equal(result.job_type, 'properties');
      if (result.job_type !== 'properties') return;
      assert.deepEqual(
        (result.items ?? []).map((i) => [i.smiles, i.properties?.formula]),
        [
          ['CCO', 'C2H6O'],
          ['c1ccccc1O', 'C6H6O'],
        ],
      );
      // A job that has already ended: the first read of the feed finds its event.
      const again = await c.waitForJob(process_id, { timeoutMs: 5_000 });
      assert.equal(again.status, 'completed');
    });

    it('sends a write again after a lost answer with the same Idempotency-Key: the server does it once', async () => {
      const token = await client.post('/api/v1/auth/api-keys', { body: { name: `sdk-${backend.name}` } });
      const rec = recordingFetch({ lose: (r, n) => r.method === 'POST' && new URL(r.url).pathname === '/api/v1/jobs/submit' && n === 0 });
      const keyed = new sdk.Crucible({ baseUrl: h.base, apiKey: token.api_key, fetch: rec.fetch, retry: { baseDelayMs: 50 } });
      assert.equal(keyed.credential, 'api-key');
      const name = `lost-answer-${backend.name}`;
      const { process_id } = await keyed.post('/api/v1/jobs/submit', { body: { job_name: name, job_type: 'wait', payload: { seconds: 1 } } });
      assert.equal(rec.sent.length, 2, 'sent twice');
      const [first, second] = rec.sent;
      assert.equal(first!.headers.get('x-api-key'), token.api_key);
      assert.match(first!.headers.get('idempotency-key') ?? '', UUID);
      assert.equal(second!.headers.get('idempotency-key'), first!.headers.get('idempotency-key'), 'the same key on the retry');
      assert.deepEqual([first!.status, second!.status, second!.replayed], [200, 200, true], 'the retry was answered with the first answer');
      const listed = await client.get('/api/v1/jobs/list', { params: { query: { q: name } } });
      assert.deepEqual(
        listed.items.map((j) => j.process_id),
        [process_id],
        'one job',
      );

      // A write without a key is not sent again when its answer is lost: it could happen twice.
      const rec2 = recordingFetch({ lose: (r) => new URL(r.url).pathname === '/api/v1/auth/api-keys' });
      const c2 = await sdk.Crucible.login({ baseUrl: h.base, email: user.email, password: user.password, fetch: rec2.fetch });
      await assert.rejects(c2.post('/api/v1/auth/api-keys', { body: { name: `once-${backend.name}` } }), TypeError);
      assert.equal(rec2.sent.filter((s) => s.url.pathname === '/api/v1/auth/api-keys').length, 1);
      await keyed.waitForJob(process_id, { timeoutMs: 30_000 });
    });

    it('uploads a molecule file and downloads the zip, a record and a byte range', async () => {
      const artifact = await client.upload({ file: new Blob([LIBRARY]), filename: 'library.smi', mode: 'molecules', name: 'sdk library' });
      library = artifact.id;
      assert.match(artifact.id, UUID);
      assert.equal(artifact.manifest.ports.molecules?.record_count, 4);
      const zip = await client.download(artifact.id);
      const bytes = new Uint8Array(await zip.arrayBuffer());
      assert.equal(zip.headers.get('content-type'), 'application/zip');
      assert.equal(bytes.length, artifact.size_bytes);
      assert.equal(Buffer.from(bytes.subarray(0, 2)).toString('latin1'), 'PK');
      const record = await client.download(artifact.id, { record: '4', port: 'molecules' });
      assert.match((await record.text()).trim(), /^Cn1cnc2c1c\(=O\)n\(C\)c\(=O\)n2C\b/);
      const part = await client.download(artifact.id, { range: { start: 2, end: 9 } });
      assert.equal(part.status, 206);
      assert.deepEqual(new Uint8Array(await part.arrayBuffer()), bytes.subarray(2, 10));
    });

    it('runs a workflow template with waitForRun', async () => {
      const run = await client.post('/api/v1/workflows/runs', { body: { template_id: 'library-triage', inputs: { library } } });
      assert.match(run.run_id, UUID);
      const done = await client.waitForRun(run.run_id, { timeoutMs: 120_000 });
      assert.equal(done.status, 'completed', done.message);
      assert.deepEqual(
        done.steps.map((s) => s.state),
        done.steps.map(() => 'completed'),
      );
      assert.equal(done.steps_done, done.steps_total);
      // The charge comes with the run (issue 32 point 12): what the wallet paid, the sum of its steps' costs.
      assert.ok(done.charged_usd > 0 && done.charged_usd <= done.reserved_usd);
      assert.ok(Math.abs(done.charged_usd - done.steps.reduce((a, s) => a + s.cost_usd, 0)) < 1e-6, `${done.charged_usd} = the steps' costs`);
      const ledger = await client.get('/api/v1/workflows/runs/{run_id}', { params: { path: { run_id: run.run_id } } });
      assert.equal(done.charged_usd, ledger.charged_usd);
    });

    it('predicts with a public model', async () => {
      const r = await client.post('/api/v1/inference/predict', { body: { model: 'public/esol-logs', smiles: ['CCO', 'c1ccccc1', 'xx'] } });
      assert.deepEqual([r.model, r.task, r.counted], ['public/esol-logs', 'regression', 1]);
      const [ethanol, benzene, bad] = r.predictions;
      // Log S in mol/L: ethanol mixes with water (ESOL's 1.10), benzene hardly (-1.64).
      assert.ok(Number.isFinite(ethanol!.prediction) && Number.isFinite(benzene!.prediction));
      assert.ok(ethanol!.prediction! > benzene!.prediction! + 1, `ethanol ${ethanol!.prediction}, benzene ${benzene!.prediction}`);
      assert.deepEqual([bad!.prediction, typeof bad!.error], [null, 'string']);
    });

    it('streams an Assistant turn and resumes with Last-Event-ID after the connection drops', async () => {
      const rec = recordingFetch({ cutStream: (r) => (new URL(r.url).pathname.endsWith('/stream') && !r.headers.has('last-event-id') ? 2 : null) });
      const c = await sdk.Crucible.login({ baseUrl: h.base, email: user.email, password: user.password, fetch: rec.fetch });
      const session = await c.post('/api/v1/assistant/sessions', { body: { title: 'sdk' } });
      const turn = await c.post('/api/v1/assistant/sessions/{session_id}/turns', {
        params: { path: { session_id: session.session_id } },
        body: { message: 'describe aspirin and caffeine' },
      });
      const events: { id: number; event: string }[] = [];
      let text = '';
      const tools: string[] = [];
      for await (const e of c.streamTurn(session.session_id, turn.turn_id)) {
        events.push({ id: e.id, event: e.event });
        if (e.event === 'delta') text += e.data.text;
        if (e.event === 'tool_call') tools.push(e.data.name);
      }
      const streams = rec.sent.filter((s) => s.url.pathname.endsWith('/stream'));
      assert.ok(streams.length >= 2, 'the stream was asked again');
      assert.equal(streams[1]!.headers.get('last-event-id'), '2', 'from the last event seen');
      assert.deepEqual(
        events.map((e) => e.id),
        events.map((_e, i) => i + 1),
        'every event once, in order',
      );
      assert.equal(events.at(-1)!.event, 'done');
      assert.ok(tools.includes('describe_molecules'), tools.join());
      assert.match(text, /C9H8O4/, 'aspirin described');
      assert.match(text, /C8H10N4O2/, 'caffeine described');
      const settled = await c.get('/api/v1/assistant/sessions/{session_id}/turns/{turn_id}', { params: { path: { session_id: session.session_id, turn_id: turn.turn_id } } });
      assert.equal(settled.status, 'completed');
    });

    it('throws a 422 and a 404 as ProblemErrors with the problem fields, without retrying them', async () => {
      const rec = recordingFetch();
      const c = await sdk.Crucible.login({ baseUrl: h.base, email: user.email, password: user.password, fetch: rec.fetch });
      const bad = await c.post('/api/v1/describe', { body: { smiles: [] } }).catch((e: unknown) => e);
      assert.ok(bad instanceof sdk.ProblemError);
      assert.deepEqual([bad.status, bad.slug, bad.retry, bad.instance], [422, 'http-422', 'validation', '/api/v1/describe']);
      assert.deepEqual(
        bad.errors.map((e) => [e.type, e.loc]),
        [['too_short', ['body', 'smiles']]],
      );
      const sent = rec.sent.filter((s) => s.url.pathname === '/api/v1/describe');
      assert.equal(sent.length, 1, 'not retried');
      assert.match(bad.request_id, /.+/);
      const missing = await c.get('/api/v1/jobs/status', { params: { query: { process_id: crypto.randomUUID() } } }).catch((e: unknown) => e);
      assert.ok(missing instanceof sdk.ProblemError);
      assert.deepEqual([missing.status, missing.slug, missing.retry, missing.title], [404, 'http-404', 'terminal', 'Not found']);
      assert.ok(sdk.isProblemError(missing, 'http-404'));
    });

    it('throws a 429 whose Retry-After is longer than it waits at once, with the hint', async () => {
      const rec = recordingFetch();
      const c = new sdk.Crucible({ baseUrl: h.base, fetch: rec.fetch });
      const email = `locked-${backend.name}@example.com`;
      for (let i = 0; i < 5; i++) await assert.rejects(c.login(email, 'wrong password'), (e: unknown) => e instanceof sdk.ProblemError && e.slug === 'invalid-credentials');
      const limited = await c.login(email, 'wrong password').catch((e: unknown) => e);
      assert.ok(limited instanceof sdk.ProblemError);
      assert.deepEqual([limited.status, limited.slug, limited.retry], [429, 'rate-limited', 'quota']);
      assert.ok((limited.retryAfterSec ?? 0) > 60, `Retry-After ${limited.retryAfterSec}`);
      assert.equal(rec.sent.length, 6, 'one request per call: nothing retried');
    });

    it('iterates over every item of a list, page after page, and over the events feed', async () => {
      for (let i = 0; i < 3; i++) await client.post('/api/v1/jobs/submit', { body: { job_name: `page-${i}`, job_type: 'wait', payload: { seconds: 1 } } });
      const total = (await client.get('/api/v1/jobs/list')).total;
      const seen: string[] = [];
      for await (const job of client.pages.jobs({ limit: 2 })) seen.push(job.process_id);
      assert.equal(seen.length, total);
      assert.equal(new Set(seen).size, total, 'no job twice');
      const waits: string[] = [];
      for await (const job of client.pages.jobs({ limit: 1, job_type: 'wait', status: ['queued', 'dispatched', 'running', 'completed'] })) waits.push(job.job_name);
      assert.ok(
        ['page-0', 'page-1', 'page-2'].every((n) => waits.includes(n)),
        waits.join(),
      );
      const artifacts: string[] = [];
      for await (const a of client.pages.artifacts({ limit: 1 })) artifacts.push(a.artifact_id);
      assert.ok(artifacts.includes(library));
      const ids: number[] = [];
      for await (const e of client.pages.events({ limit: 3 })) ids.push(e.event_id);
      assert.ok(ids.length >= 3);
      assert.deepEqual(
        ids,
        ids.map((_id, i) => i + 1),
        'every event of the feed once, in order',
      );
    });
  });
}

describe("the SDK README's examples", () => {
  let h: Harness;
  let dir = '';
  before(async () => {
    h = await startHarness(BACKENDS[0], {}, { workers: 2 });
  });
  after(async () => {
    await h?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('compile under tsc --strict with no cast and no non-null assertion, and run against a live server', async () => {
    const blocks = readmeExamples();
    assert.ok(blocks.length >= 8, `${blocks.length} examples`);
    assert.deepEqual(castsIn(blocks.join('\n')), [], 'no cast, no `!`');
    const compiled = compileAsUser({ 'examples.ts': blocks.join('\n') });
    dir = compiled.dir;
    console.log(`# the README's examples compiled in ${compiled.compileMs} ms`);
    const u = await h.user();
    await h.credit(u.userId, 20);
    // Asynchronously: the server answering the examples runs in this process.
    const run = await promisify(execFile)(process.execPath, [path.join(compiled.out, 'examples.js')], {
      cwd: dir,
      env: { ...process.env, CRUCIBLE_URL: h.base, CRUCIBLE_EMAIL: u.email, CRUCIBLE_PASSWORD: u.password },
      encoding: 'utf8',
      timeout: 300_000,
    }).catch((err: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`the examples failed: ${err.message}\n${err.stderr ?? ''}\n${(err.stdout ?? '').slice(-3000)}`);
    });
    const out = run.stdout;
    for (const expected of [
      /^CCO C2H6O 46\.07$/m,
      /^Oc1ccccc1 C6H6O 94\.11$/m,
      /^job completed$/m,
      /^c1ccccc1O clogp 1\.39\d*$/m,
      /^Cc1ccc\(O\)cc1 clogp 1\.70\d*$/m,
      /^uploaded [0-9a-f-]{36} molecules: 3$/m,
      /^downloaded application\/zip \d+ bytes$/m,
      /^record 3: CC\(=O\)Oc1ccccc1C\(=O\)O/m,
      /^run completed( \w+:completed){4} charged \$0\.\d+$/m,
      /^logS CCO -?\d+\.\d\d log10\(mol\/L\) in domain$/m,
      /^\[tool describe_molecules\]$/m,
      /C9H8O4/,
      /^\[turn completed\]$/m,
      /^422 http-422 validation body\.smiles: too_short$/m,
      /^no such job: .+ \(request .+\)$/m,
      /^2 completed properties jobs$/m, // the job above and the run's properties step
      /^event \d+ workflow_run completed$/m,
      /^submitted with the key: completed$/m,
      /logged out/i,
    ])
      assert.match(out, expected);
  });

  it('refuse at compile time what the API refuses, and narrow results without a cast', () => {
    assert.deepEqual(castsIn(TYPE_CHECKS), []);
    const compiled = compileAsUser({ 'checks.ts': TYPE_CHECKS });
    fs.rmSync(compiled.dir, { recursive: true, force: true });
  });
});
