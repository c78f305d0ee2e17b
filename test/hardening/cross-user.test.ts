// Cross-user isolation, driven by /openapi.json: every operation that takes an id in its path
// or an id-like query parameter is called by a second account (B) with the first account's (A)
// real ids, and must not reveal or touch them: 404 (indistinguishable from an id that does not
// exist), a per-id 404 problem in batch answers, an empty page for list filters. The ids come
// from a table keyed by the parameter name: an id parameter the table does not know fails the
// test, so a new endpoint group (models, workflows, runs, sessions...) must add its entry here.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness, type Res } from '../helpers/harness.js';

/** What A owns; every id is real (created through the API, except the run id: see below). */
interface Owned {
  keyId: string;
  keySecret: string;
  uploadId: string;
  uploadBytes: string;
  moleculesId: string;
  resultArtifactId: string;
  completedJob: string;
  runningJob: string;
  runId: string;
  utilityRequest: string;
  inferenceRequest: string;
  workflowId: string;
  shareId: string;
  shareToken: string;
  sessionId: string;
  turnId: string;
  planId: string;
}

/** How B's call with A's id must be answered. */
type Expect =
  /** 404 problem, the same as for an id that does not exist. */
  | 'not-found'
  /** 200 with one entry per id, each a 404 problem. */
  | 'per-id-not-found'
  /** 200 with nothing of A's (a list filtered by A's id). */
  | 'sees-nothing'
  /** Not an account's resource (a catalog entry): B reads it as A does, and a missing one is 404. */
  | 'public';

interface IdParam {
  /** A's ids to try (each call takes one) in an operation on `path`. */
  values: (a: Owned, path: string) => string[];
  /** A well-formed id B does not have either (the 404 B's call must look like). */
  missing: () => string;
  /** The expectation, or one per operation path (a run id in a run's path vs a list filter). */
  expect: Expect | ((path: string) => Expect);
}

const uuid = () => crypto.randomUUID();

/**
 * Parameter name -> A's ids. A new id parameter in /openapi.json fails the walk until it has an
 * entry here (with A owning a real instance of the resource it names).
 */
const ID_PARAMS: Record<string, IdParam> = {
  key_id: { values: (a) => [a.keyId], missing: uuid, expect: 'not-found' },
  artifact_id: { values: (a) => [a.uploadId, a.moleculesId, a.resultArtifactId], missing: uuid, expect: 'not-found' },
  process_id: { values: (a) => [a.completedJob, a.runningJob], missing: uuid, expect: 'not-found' },
  process_ids: { values: (a) => [`${a.completedJob},${a.runningJob}`, a.runningJob], missing: uuid, expect: 'per-id-not-found' },
  subject_id: { values: (a) => [a.completedJob, a.runningJob], missing: uuid, expect: 'sees-nothing' },
  run_id: { values: (a) => [a.runId], missing: uuid, expect: (path) => (path.startsWith('/api/v1/workflows/runs/') ? 'not-found' : 'sees-nothing') },
  workflow_run_id: { values: (a) => [a.runId], missing: uuid, expect: 'not-found' },
  workflow_id: { values: (a) => [a.workflowId], missing: uuid, expect: (path) => (path === '/api/v1/workflows/runs' ? 'sees-nothing' : 'not-found') },
  share_id: { values: (a) => [a.shareId], missing: uuid, expect: 'not-found' },
  step_id: { values: () => ['keep'], missing: () => 'no-such-step', expect: 'not-found' },
  // A link token is a capability: whoever holds it reads the definition (a revoked or made-up one is 404).
  share_token: { values: (a) => [a.shareToken], missing: () => `wfs_${crypto.randomBytes(32).toString('base64url')}`, expect: 'public' },
  request_id: { values: (a, path) => [path.includes('/inference/') ? a.inferenceRequest : a.utilityRequest], missing: uuid, expect: 'not-found' },
  session_id: { values: (a) => [a.sessionId], missing: uuid, expect: 'not-found' },
  turn_id: { values: (a) => [a.turnId], missing: uuid, expect: 'not-found' },
  plan_id: { values: (a) => [a.planId], missing: uuid, expect: 'not-found' },
  paper_id: { values: () => ['wildman-crippen-1999', 'rdkit'], missing: () => 'no-such-paper-1999', expect: 'public' },
};

/** Request bodies of operations that need one to reach their id check (keyed "METHOD path"). */
const BODIES: Record<string, unknown> = {
  'PATCH /api/v1/auth/api-keys/{key_id}': { name: 'taken-over', allow_structure_search: false },
  'PUT /api/v1/workflows/{workflow_id}': { spec: { name: 'taken over', steps: [{ id: 'w', job_type: 'wait', params: { seconds: 1 } }] }, base_version: 1 },
  'POST /api/v1/workflows/{workflow_id}/restore': {},
  'POST /api/v1/workflows/{workflow_id}/fork': {},
  'POST /api/v1/workflows/{workflow_id}/share': { link: true, permission: 'run' },
  'POST /api/v1/workflows/runs/{run_id}/rerun': { reuse_completed: true },
  'PATCH /api/v1/assistant/sessions/{session_id}': { title: 'taken over' },
  'POST /api/v1/assistant/sessions/{session_id}/turns/estimate': { message: 'describe aspirin' },
  'POST /api/v1/assistant/sessions/{session_id}/turns': { message: 'describe aspirin' },
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A path parameter, or a query parameter named like an id (`..._id`, `..._ids`, `id`) or typed as a uuid. */
function isIdParam(p: { in: string; name: string; schema?: { format?: string } }): boolean {
  if (p.in === 'path') return true;
  if (p.in !== 'query') return false;
  return /(^|_)ids?$/i.test(p.name) || /Ids?$/.test(p.name) || p.schema?.format === 'uuid';
}

interface Operation {
  id: string;
  method: string;
  path: string;
  idParams: { in: 'path' | 'query'; name: string }[];
  requiredQuery: string[];
  hasBody: boolean;
  credentials: ('key' | 'token')[];
}

function operationsWithIds(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of Object.keys(item)) {
      if (!METHODS.includes(method)) continue;
      const op = item[method];
      const params: any[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const idParams = params.filter(isIdParam).map((p) => ({ in: p.in, name: p.name }));
      if (idParams.length === 0) continue;
      const security: Record<string, unknown>[] = op.security ?? doc.security ?? [];
      const credentials: ('key' | 'token')[] = [];
      if (security.some((s) => 'ApiKeyAuth' in s)) credentials.push('key');
      if (security.some((s) => 'BearerAuth' in s)) credentials.push('token');
      out.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        idParams,
        requiredQuery: params.filter((p) => p.in === 'query' && p.required && !isIdParam(p)).map((p) => p.name),
        hasBody: Boolean(op.requestBody),
        credentials,
      });
    }
  }
  return out;
}

function isProblem(r: { status: number; type?: unknown; title?: unknown }, status: number): boolean {
  return r.status === status && typeof r.type === 'string' && typeof r.title === 'string';
}

/** Every id of A's that must never appear in an answer to B. */
function ownedIds(a: Owned): string[] {
  return [a.keyId, a.uploadId, a.moleculesId, a.resultArtifactId, a.completedJob, a.runningJob, a.runId, a.utilityRequest, a.inferenceRequest, a.sessionId, a.turnId, a.planId];
}

async function uploadAs(h: Harness, key: string, mode: 'file' | 'molecules', name: string, content: string): Promise<string> {
  const form = new FormData();
  form.append('mode', mode);
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  const r = await fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { 'x-api-key': key, 'idempotency-key': uuid() } });
  const body = (await r.json()) as { id: string };
  assert.equal(r.status, 201, `upload ${name}: ${JSON.stringify(body)}`);
  return body.id;
}

for (const backend of BACKENDS) {
  describe(`cross-user isolation, walked from /openapi.json [${backend.name}]`, () => {
    let h: Harness;
    let doc: any;
    let a: Owned;
    let aAuth: { token: string; key: string; userId: string };
    let bAuth: { token: string; key: string; userId: string };
    let walletBefore: unknown;

    before(async () => {
      h = await startHarness(backend, {}, { workers: 2 });
      doc = (await h.req('GET', '/openapi.json')).body;
      const ua = await h.user();
      const ub = await h.user();
      await h.credit(ua.userId, 1);
      await h.credit(ub.userId, 1);
      const ka = await h.key(ua.token, { name: 'a-key' });
      const kb = await h.key(ub.token, { name: 'b-key' });
      aAuth = { token: ua.token, key: ka.secret, userId: ua.userId };
      bAuth = { token: ub.token, key: kb.secret, userId: ub.userId };

      const uploadBytes = `A's private notes ${uuid()}\n`;
      const uploadId = await uploadAs(h, ka.secret, 'file', 'notes.txt', uploadBytes);
      const moleculesId = await uploadAs(h, ka.secret, 'molecules', 'set.smi', 'CCO ethanol\nc1ccccc1 benzene\n');

      const submit = async (name: string, seconds: number) => {
        const r = await h.req('POST', '/api/v1/jobs/submit', {
          key: ka.secret,
          headers: { 'idempotency-key': uuid() },
          body: { job_name: name, job_type: 'wait', payload: { seconds } },
        });
        assert.equal(r.status, 200, r.text);
        return r.body.process_id as string;
      };
      const completedJob = await submit('a-done', 1);
      const runningJob = await submit('a-running', 120);
      const done = await h.waitForJob(ua.token, completedJob, ['completed']);
      assert.ok(done.result_artifact_id, 'the completed job has a result artifact');
      await h.waitForJob(ua.token, runningJob, ['running']);

      // A's saved workflow, a share of it, and a finished run (whose step results carry its run id).
      const spec = {
        name: 'a-flow',
        inputs: { library: { type: 'molecules' } },
        steps: [{ id: 'keep', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: 'mw < 100' } }],
      };
      const saved = await h.req('POST', '/api/v1/workflows', { key: ka.secret, headers: { 'idempotency-key': uuid() }, body: { spec } });
      assert.equal(saved.status, 201, saved.text);
      const workflowId = saved.body.workflow_id as string;
      const share = await h.req('POST', `/api/v1/workflows/${workflowId}/share`, {
        key: ka.secret,
        headers: { 'idempotency-key': uuid() },
        body: { link: true, permission: 'view' },
      });
      assert.equal(share.status, 201, share.text);
      const run = await h.req('POST', '/api/v1/workflows/runs', {
        key: ka.secret,
        headers: { 'idempotency-key': uuid() },
        body: { workflow_id: workflowId, inputs: { library: moleculesId } },
      });
      assert.equal(run.status, 201, run.text);
      const runId = run.body.run_id as string;
      for (let i = 0; i < 300; i++) {
        const r = await h.req('GET', `/api/v1/workflows/runs/${runId}/status`, { token: ua.token });
        if (r.body.status === 'completed') break;
        await new Promise((res) => setTimeout(res, 100));
      }

      const utility = await h.req('POST', '/api/v1/utilities/submit', {
        key: ka.secret,
        headers: { 'idempotency-key': uuid() },
        body: { tool: 'convert', input: { input_artifact_id: moleculesId } },
      });
      assert.equal(utility.status, 200, utility.text);
      const utilityRequest = utility.body.request_id as string;
      for (let i = 0; i < 300; i++) {
        const r = await h.req('GET', `/api/v1/utilities/requests/${utilityRequest}`, { token: ua.token });
        if (r.body.status === 'completed') break;
        await new Promise((res) => setTimeout(res, 100));
      }

      const inference = await h.req('POST', '/api/v1/inference/submit', {
        key: ka.secret,
        headers: { 'idempotency-key': uuid() },
        body: { model: 'public/esol-logs', input_artifact_id: moleculesId },
      });
      assert.equal(inference.status, 200, inference.text);
      const inferenceRequest = inference.body.request_id as string;
      for (let i = 0; i < 300; i++) {
        const r = await h.req('GET', `/api/v1/inference/requests/${inferenceRequest}`, { token: ua.token });
        if (r.body.status === 'completed') break;
        await new Promise((res) => setTimeout(res, 100));
      }

      // A's Assistant session with a finished turn that proposed a plan card (access token only).
      const session = await h.req('POST', '/api/v1/assistant/sessions', { token: ua.token, body: { title: 'a-private' } });
      assert.equal(session.status, 201, session.text);
      const sessionId = session.body.session_id as string;
      const turn = await h.req('POST', `/api/v1/assistant/sessions/${sessionId}/turns`, { token: ua.token, body: { message: `plan a triage of artifact ${moleculesId}` } });
      assert.equal(turn.status, 202, turn.text);
      const turnId = turn.body.turn_id as string;
      for (let i = 0; i < 300; i++) {
        const r = await h.req('GET', `/api/v1/assistant/sessions/${sessionId}/turns/${turnId}`, { token: ua.token });
        if (r.body.status !== 'running') break;
        await new Promise((res) => setTimeout(res, 50));
      }
      const plans = (await h.req('GET', `/api/v1/assistant/sessions/${sessionId}`, { token: ua.token })).body.plans;
      assert.equal(plans.length, 1, 'the turn proposed a plan card');

      a = {
        keyId: ka.id,
        keySecret: ka.secret,
        uploadId,
        uploadBytes,
        moleculesId,
        resultArtifactId: done.result_artifact_id,
        completedJob,
        runningJob,
        runId,
        utilityRequest,
        inferenceRequest,
        workflowId,
        shareId: share.body.share_id,
        shareToken: share.body.token,
        sessionId,
        turnId,
        planId: plans[0].plan_id,
      };
      walletBefore = (await h.req('GET', '/api/v1/wallet', { token: ua.token })).body;
    });
    after(async () => h?.close());

    /** One call of `op` with `values` for its id params (by name), as B or A with one credential. */
    function call(op: Operation, values: Record<string, string>, who: { token: string; key: string }, cred: 'key' | 'token'): Promise<Res> {
      let url = op.path;
      const query = new URLSearchParams();
      for (const p of op.idParams) {
        const v = values[p.name];
        assert.ok(v !== undefined, `${op.id}: a value for ${p.name}`);
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(v));
        else query.set(p.name, v);
      }
      const qs = query.toString();
      return h.req(op.method, qs ? `${url}?${qs}` : url, {
        ...(cred === 'key' ? { key: who.key } : { token: who.token }),
        // A fresh Idempotency-Key on writes (API-key callers must send one), so the id check is reached.
        ...(op.method === 'GET' ? {} : { headers: { 'idempotency-key': uuid() } }),
        ...(op.hasBody ? { body: BODIES[op.id] } : {}),
      });
    }

    it('B gets 404 (or nothing) for every id of A that any operation takes; an unknown id parameter fails', async (t) => {
      const ops = operationsWithIds(doc);
      // Every operation's id parameters must be in the table, its required non-id query
      // parameters must be none, and a body it takes must be in BODIES: fail with what to add.
      const unknown: string[] = [];
      for (const op of ops) {
        for (const p of op.idParams) if (!ID_PARAMS[p.name]) unknown.push(`${op.id}: ${p.in} parameter "${p.name}" (add it to ID_PARAMS with an id A owns)`);
        for (const q of op.requiredQuery) unknown.push(`${op.id}: required query parameter "${q}" (give it a value)`);
        if (op.hasBody && !(op.id in BODIES)) unknown.push(`${op.id}: takes a request body (add a valid one to BODIES)`);
        if (op.credentials.length === 0) unknown.push(`${op.id}: takes an id but no credential (a public route with an id must be reviewed)`);
      }
      assert.deepEqual(unknown, [], 'every id parameter in /openapi.json is mapped to an id of A');

      const walkedParams = new Set<string>();
      const failures: string[] = [];
      let calls = 0;
      const aIds = ownedIds(a);
      // Reads first: a write that wrongly succeeded (a delete) must not hide a read that would leak.
      const ordered = [...ops.filter((o) => o.method === 'GET'), ...ops.filter((o) => o.method !== 'GET')];
      for (const op of ordered) {
        const names = [...new Set(op.idParams.map((p) => p.name))];
        // The table row of each id param; the expectation of the operation is the strictest one
        // (a path id makes it a 404 even when a query id is a list filter).
        const rows = names.map((n) => ID_PARAMS[n]!);
        const expects = rows.map((r) => (typeof r.expect === 'function' ? r.expect(op.path) : r.expect));
        const expect: Expect = expects.includes('not-found')
          ? 'not-found'
          : expects.includes('per-id-not-found')
            ? 'per-id-not-found'
            : expects.every((e) => e === 'public')
              ? 'public'
              : 'sees-nothing';
        // Each of A's values of each param, the other params at their first value.
        const combos: Record<string, string>[] = [];
        for (const [i, n] of names.entries()) {
          for (const v of rows[i]!.values(a, op.path)) combos.push(Object.fromEntries(names.map((m, j) => [m, m === n ? v : rows[j]!.values(a, op.path)[0]!])));
        }
        const missing = Object.fromEntries(names.map((n, i) => [n, rows[i]!.missing()]));
        for (const n of names) walkedParams.add(n);

        for (const cred of op.credentials) {
          // What an id that exists nowhere looks like to B: A's must look the same.
          const ref = await call(op, missing, bAuth, cred);
          calls++;
          for (const values of combos) {
            const r = await call(op, values, bAuth, cred);
            calls++;
            const what = `${op.id} as B (${cred}) with ${JSON.stringify(values)}`;
            if (expect === 'not-found') {
              if (!isProblem(r.body ?? {}, 404) || r.status !== 404) failures.push(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
              else if (ref.status !== 404 || ref.body?.type !== r.body.type || ref.body?.title !== r.body.title)
                failures.push(`${what}: differs from a missing id (${ref.status} ${ref.text.slice(0, 200)} vs ${r.text.slice(0, 200)})`);
            } else if (expect === 'public') {
              if (r.status !== 200 || ref.status !== 404) failures.push(`${what}: a public entry answered ${r.status}, a missing one ${ref.status}`);
            } else if (expect === 'per-id-not-found') {
              const asked = Object.values(values)
                .flatMap((v) => v.split(','))
                .filter((v) => aIds.includes(v));
              if (r.status !== 200) failures.push(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
              else {
                for (const id of asked) {
                  const entry = r.body?.[id];
                  if (!entry || !isProblem(entry, 404)) failures.push(`${what}: entry ${id} is ${JSON.stringify(entry)?.slice(0, 300)}`);
                }
                const refEntry = Object.values<any>(ref.body ?? {})[0];
                if (ref.status !== 200 || !refEntry || !isProblem(refEntry, 404)) failures.push(`${what}: a missing id answered ${ref.status} ${ref.text.slice(0, 200)}`);
              }
            } else {
              const arrays = Object.entries<any>(r.body ?? {}).filter(([, v]) => Array.isArray(v));
              const leaked = aIds.filter((id) => r.text.includes(id));
              if (r.status !== 200) failures.push(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
              else if (arrays.length === 0) failures.push(`${what}: no list in the answer to check (${r.text.slice(0, 200)})`);
              else if (arrays.some(([, v]) => v.length > 0) || leaked.length > 0) failures.push(`${what}: B sees A's data: ${r.text.slice(0, 400)}`);
            }
          }
        }
      }
      t.diagnostic(`${ops.length} operations with ids, ${calls} calls as B; parameters: ${[...walkedParams].sort().join(', ')}`);
      assert.deepEqual(failures, [], "B is refused every one of A's resources");
      // The walk found the id parameters that exist today (a broken walk must not pass vacuously).
      for (const p of [
        'key_id',
        'artifact_id',
        'process_id',
        'process_ids',
        'subject_id',
        'run_id',
        'workflow_id',
        'share_id',
        'share_token',
        'step_id',
        'session_id',
        'turn_id',
        'plan_id',
      ])
        assert.ok(walkedParams.has(p), `the walk reached ${p}`);
    });

    it('the ids B was refused are real: A reads each of them with the same read operations', async () => {
      // Positive control: for every read (GET) operation of the walk, A's own call is not a 404,
      // and A's list filters find A's resources.
      for (const op of operationsWithIds(doc)) {
        const names = [...new Set(op.idParams.map((p) => p.name))];
        if (op.method !== 'GET' || !names.every((n) => ID_PARAMS[n])) continue; // unknown ones fail the walk above
        for (const n of names) {
          for (const v of ID_PARAMS[n]!.values(a, op.path)) {
            const values = Object.fromEntries(names.map((m) => [m, m === n ? v : ID_PARAMS[m]!.values(a, op.path)[0]!]));
            const r = await call(op, values, aAuth, op.credentials[0]!);
            const what = `${op.id} as A with ${JSON.stringify(values)}`;
            assert.notEqual(r.status, 404, `${what}: ${r.text.slice(0, 300)}`);
            const expect = ID_PARAMS[n]!.expect;
            const expected = typeof expect === 'function' ? expect(op.path) : expect;
            if (expected === 'sees-nothing' && !(n === 'subject_id' && v === a.runningJob)) {
              // A's filter finds A's resource (a running job has no event yet; a run's step results carry its id).
              assert.ok(r.text.includes(v), `${what}: A's filter finds it: ${r.text.slice(0, 300)}`);
            }
            if (expected === 'per-id-not-found') {
              assert.equal(r.status, 200);
              for (const id of v.split(',')) assert.notEqual(r.body?.[id]?.status, 404, `${what}: A's entry ${id}`);
            }
          }
        }
      }
    });

    it("B cannot use A's artifacts as a job input, find A's jobs by text, or see them in its own lists", async () => {
      for (const path of ['/api/v1/jobs/estimate', '/api/v1/jobs/submit']) {
        const r = await h.req('POST', path, {
          key: bAuth.key,
          headers: { 'idempotency-key': uuid() },
          body: { ...(path.endsWith('/submit') ? { job_name: 'steal' } : {}), job_type: 'properties', payload: { input_artifact_id: a.moleculesId } },
        });
        assert.equal(r.status, 404, `${path} with A's input artifact: ${r.text}`);
      }
      const q = await h.req('GET', `/api/v1/jobs/list?q=${a.completedJob}`, { key: bAuth.key });
      assert.equal(q.status, 200);
      assert.deepEqual(q.body.items, [], `jobs/list?q=<A's job>: ${q.text.slice(0, 300)}`);
      const qn = await h.req('GET', `/api/v1/jobs/list?q=a-done`, { key: bAuth.key });
      assert.deepEqual(qn.body.items, [], `jobs/list?q=<A's job name>: ${qn.text.slice(0, 300)}`);
      for (const [path, cred] of [
        ['/api/v1/jobs/list', 'key'],
        ['/api/v1/artifacts?include_archive=true', 'key'],
        ['/api/v1/events', 'key'],
        ['/api/v1/auth/api-keys', 'token'],
        ['/api/v1/artifacts/usage', 'key'],
      ] as const) {
        const r = await h.req('GET', path, cred === 'key' ? { key: bAuth.key } : { token: bAuth.token });
        assert.equal(r.status, 200, `${path}: ${r.text}`);
        for (const id of ownedIds(a)) assert.ok(!r.text.includes(id), `${path} as B shows A's ${id}: ${r.text.slice(0, 300)}`);
      }
      const usage = await h.req('GET', '/api/v1/artifacts/usage', { key: bAuth.key });
      assert.equal(usage.body.artifact_count, 0, "A's artifacts do not count for B");
    });

    it("A's resources are unchanged by B's attempts (key works, artifacts download, jobs untouched, wallet the same)", async () => {
      // The key: still A's, same name, the old secret still authenticates (not revoked, not rotated).
      const check = await h.req('GET', '/api/v1/auth/check', { key: a.keySecret });
      assert.equal(check.status, 200, `A's key after B's revoke/rotate/patch: ${check.text}`);
      const key = await h.req('GET', `/api/v1/auth/api-keys/${a.keyId}`, { token: aAuth.token });
      assert.equal(key.status, 200);
      assert.equal(key.body.name, 'a-key', 'not renamed by B');
      // The artifacts: all there, the upload's bytes intact.
      const dl = await h.req('GET', `/api/v1/artifacts/${a.uploadId}/download`, { key: a.keySecret });
      assert.equal(dl.status, 200, dl.text.slice(0, 300));
      const info = await h.req('GET', `/api/v1/artifacts/${a.uploadId}`, { key: a.keySecret });
      const port = Object.values<any>(info.body.manifest.ports)[0];
      const record = port?.records?.[0]?.id as string | undefined;
      assert.ok(record, 'the upload has a record');
      const member = await h.req('GET', `/api/v1/artifacts/${a.uploadId}/download?record=${encodeURIComponent(record)}`, { key: a.keySecret });
      assert.equal(member.status, 200);
      assert.equal(member.text, a.uploadBytes, "the upload's content is unchanged");
      for (const id of [a.moleculesId, a.resultArtifactId]) {
        assert.equal((await h.req('GET', `/api/v1/artifacts/${id}`, { key: a.keySecret })).status, 200, `artifact ${id} still there`);
        assert.equal((await h.req('GET', `/api/v1/artifacts/${id}/download`, { key: a.keySecret })).status, 200, `artifact ${id} still downloads`);
      }
      // The jobs: the running one still running and not cancel-requested; the completed one and its result still there.
      const running = await h.req('GET', `/api/v1/jobs/info?process_id=${a.runningJob}`, { key: a.keySecret });
      assert.equal(running.status, 200);
      assert.equal(running.body.info.status, 'running', "B's cancel did not cancel A's job");
      assert.equal(running.body.info.cancel_requested, false);
      const result = await h.req('GET', `/api/v1/jobs/result?process_id=${a.completedJob}`, { key: a.keySecret });
      assert.equal(result.status, 200, "B's delete did not delete A's job");
      assert.deepEqual(result.body, { job_type: 'wait', slept_seconds: 1 });
      const ev = await h.req('GET', `/api/v1/events?subject_id=${a.completedJob}`, { key: a.keySecret });
      assert.deepEqual(
        ev.body.events.map((e: { status: string }) => e.status),
        ['completed'],
        "A's job has its one event",
      );
      // A's Assistant session and plan card: B could not rename, delete, approve or reject them.
      const session = await h.req('GET', `/api/v1/assistant/sessions/${a.sessionId}`, { token: aAuth.token });
      assert.equal(session.body.title, 'a-private');
      assert.deepEqual(
        session.body.plans.map((p: { plan_id: string; status: string }) => [p.plan_id, p.status]),
        [[a.planId, 'proposed']],
      );
      const bTurns = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM assistant_turns WHERE user_id = $1', [bAuth.userId]);
      assert.deepEqual(bTurns.rows, [{ n: 0 }], 'B started no turn');
      // The money: B's attempts moved nothing of A's, and B has no job.
      assert.deepEqual((await h.req('GET', '/api/v1/wallet', { token: aAuth.token })).body, walletBefore);
      const bJobs = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE user_id = $1', [bAuth.userId]);
      assert.deepEqual(bJobs.rows, [{ n: 0 }], 'B made no job');
      const aRows = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM artifacts WHERE user_id = $1', [aAuth.userId]);
      assert.deepEqual(
        aRows.rows,
        [{ n: 6 }],
        "A's six artifacts (two uploads, a job's result, a utility and an inference request's results, a workflow step's result) are still A's",
      );
    });

    it('A itself can still do what B was refused (the refusals were about ownership, not the resource)', async () => {
      const cancel = await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${a.runningJob}`, { key: a.keySecret });
      assert.equal(cancel.status, 200, cancel.text);
      await h.waitForJob(aAuth.token, a.runningJob, ['cancelled']);
      const del = await h.req('DELETE', `/api/v1/jobs/delete?process_id=${a.completedJob}`, { key: a.keySecret });
      assert.equal(del.status, 200, del.text);
      const delArt = await h.req('DELETE', `/api/v1/artifacts/${a.uploadId}`, { key: a.keySecret });
      assert.equal(delArt.status, 200, delArt.text);
      const delRun = await h.req('DELETE', `/api/v1/workflows/runs/${a.runId}`, { key: a.keySecret });
      assert.equal(delRun.status, 200, delRun.text);
      const delFlow = await h.req('DELETE', `/api/v1/workflows/${a.workflowId}`, { key: a.keySecret });
      assert.equal(delFlow.status, 200, delFlow.text);
      const rot = await h.req('POST', `/api/v1/auth/api-keys/${a.keyId}/rotate`, { token: aAuth.token });
      assert.equal(rot.status, 200, rot.text);
      const revoke = await h.req('DELETE', `/api/v1/auth/api-keys/${a.keyId}`, { token: aAuth.token });
      assert.equal(revoke.status, 200, revoke.text);
    });
  });
}
