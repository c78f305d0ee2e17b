// Saved workflow definitions (docs/workflows.md) on both databases: versions (PUT with a stale
// base_version is 409 version-conflict), soft delete and restore (of the definition or of an
// old version), forks, shares by email and by link with view or run permission, revoked at
// once; and the bad input of the issue: every problem located, 413 past 256 KiB, 51 steps,
// someone else's workflow, an unknown email.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { LIBRARY, waitForRun } from './helpers.js';

const SPEC = {
  name: 'triage',
  inputs: { library: { type: 'molecules' }, limit: { type: 'number', default: 300 } },
  steps: [{ id: 'keep', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: 'mw < 300' } }],
  outputs: { kept: '$steps.keep.outputs.molecules' },
};
const V2 = { ...SPEC, steps: [{ ...SPEC.steps[0]!, params: { expression: 'mw < 200' } }] };

type User = { token: string; userId: string; email: string };

for (const backend of BACKENDS) {
  describe(`workflow definitions [${backend.name}]`, () => {
    let h: Harness;
    let owner: User;
    let other: User;
    let third: User;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 2 });
      owner = await h.user();
      other = await h.user();
      third = await h.user();
      for (const u of [owner, other, third]) await h.credit(u.userId, 5);
    });
    after(() => h?.close());
    const save = (u: User, body: unknown, key?: string) => h.req('POST', '/api/v1/workflows', { token: u.token, body, ...(key ? { headers: { 'idempotency-key': key } } : {}) });
    const get = (u: User, id: string, q = '') => h.req('GET', `/api/v1/workflows/${id}${q}`, { token: u.token });

    it('saves version 1, adds versions with base_version, refuses a stale one with 409 version-conflict, reads any version', async () => {
      const key = crypto.randomUUID();
      const s = await save(owner, { spec: SPEC, description: 'first' }, key);
      assert.equal(s.status, 201, s.text);
      assert.deepEqual([s.body.version, s.body.latest_version, s.body.name, s.body.description, s.body.access, s.body.forked_from], [1, 1, 'triage', 'first', 'owner', null]);
      assert.deepEqual(s.body.spec, SPEC);
      // Idempotent: the same key gives the same definition, not a second one.
      const again = await save(owner, { spec: SPEC, description: 'first' }, key);
      assert.equal(again.status, 201);
      assert.equal(again.body.workflow_id, s.body.workflow_id);
      const id = s.body.workflow_id;

      const put = await h.req('PUT', `/api/v1/workflows/${id}`, { token: owner.token, body: { spec: V2, base_version: 1 } });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual([put.body.version, put.body.latest_version], [2, 2]);
      const stale = await h.req('PUT', `/api/v1/workflows/${id}`, { token: owner.token, body: { spec: SPEC, base_version: 1 } });
      assert.equal(stale.status, 409, stale.text);
      assert.equal(stale.body.type, '/api/v1/problems/version-conflict');
      assert.equal(stale.body.latest_version, 2);
      const missing = await h.req('PUT', `/api/v1/workflows/${id}`, { token: owner.token, body: { spec: SPEC } });
      assert.equal(missing.status, 422);
      assert.deepEqual(missing.body.errors[0].loc, ['body', 'base_version']);

      assert.deepEqual((await get(owner, id)).body.spec, V2);
      assert.deepEqual((await get(owner, id, '?version=1')).body.spec, SPEC);
      assert.equal((await get(owner, id, '?version=9')).status, 404);
      const versions = await h.req('GET', `/api/v1/workflows/${id}/versions`, { token: owner.token });
      assert.deepEqual(
        versions.body.versions.map((v: any) => [v.version, v.steps, v.restored_from]),
        [
          [2, 1, null],
          [1, 1, null],
        ],
      );

      // Delete: gone (404) until restored; listed among the deleted with its restore deadline.
      assert.equal((await h.req('DELETE', `/api/v1/workflows/${id}`, { token: owner.token })).status, 200);
      assert.equal((await get(owner, id)).status, 404);
      assert.equal((await h.req('POST', '/api/v1/workflows/runs', { token: owner.token, body: { workflow_id: id, inputs: { library: LIBRARY } } })).status, 404);
      const deleted = await h.req('GET', '/api/v1/workflows?deleted=true', { token: owner.token });
      assert.deepEqual(
        deleted.body.workflows.map((w: any) => w.workflow_id),
        [id],
      );
      assert.ok(!(await h.req('GET', '/api/v1/workflows', { token: owner.token })).body.workflows.some((w: any) => w.workflow_id === id));
      const restored = await h.req('POST', `/api/v1/workflows/${id}/restore`, { token: owner.token, body: {} });
      assert.equal(restored.status, 200, restored.text);
      assert.deepEqual([restored.body.version, restored.body.deleted_at], [2, null]);
      // Restoring an old version makes it the latest, as a new version.
      const old = await h.req('POST', `/api/v1/workflows/${id}/restore`, { token: owner.token, body: { version: 1 } });
      assert.deepEqual([old.body.version, old.body.spec], [3, SPEC]);
      assert.equal((await h.req('GET', `/api/v1/workflows/${id}/versions`, { token: owner.token })).body.versions[0].restored_from, 1);

      // Past 30 days a deleted definition is purged: nothing left to restore.
      assert.equal((await h.req('DELETE', `/api/v1/workflows/${id}`, { token: owner.token })).status, 200);
      await h.services.db.query(`UPDATE workflows SET deleted_at = now() - interval '31 days' WHERE id = $1`, [id]);
      assert.equal(await h.services.workflowDefinitions.purgeDeleted(), 1);
      assert.equal((await h.req('POST', `/api/v1/workflows/${id}/restore`, { token: owner.token, body: {} })).status, 404);
      const { rows } = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM workflow_versions WHERE workflow_id = $1', [id]);
      assert.equal(rows[0]!.n, 0);
    });

    it('forks (own, shared, template) with forked_from; shares by email with view or run permission, revoked at once', async () => {
      const id = (await save(owner, { spec: SPEC })).body.workflow_id;
      // Nobody else sees it.
      assert.equal((await get(other, id)).status, 404);
      assert.equal((await h.req('POST', `/api/v1/workflows/${id}/fork`, { token: other.token, body: {} })).status, 404);

      const unknown = await h.req('POST', `/api/v1/workflows/${id}/share`, { token: owner.token, body: { email: 'nobody@example.invalid', permission: 'view' } });
      assert.equal(unknown.status, 422, unknown.text);
      assert.deepEqual(unknown.body.errors[0].loc, ['body', 'email']);

      const view = await h.req('POST', `/api/v1/workflows/${id}/share`, { token: owner.token, body: { email: other.email, permission: 'view' } });
      assert.equal(view.status, 201, view.text);
      assert.deepEqual([view.body.kind, view.body.email, view.body.permission, view.body.token], ['user', other.email, 'view', undefined]);
      const seen = await get(other, id);
      assert.deepEqual([seen.status, seen.body.access], [200, 'view']);
      assert.ok((await h.req('GET', '/api/v1/workflows', { token: other.token })).body.workflows.some((w: any) => w.workflow_id === id && w.access === 'view'));
      // view: read and fork, but not run, change or share.
      const run = await h.req('POST', '/api/v1/workflows/runs', { token: other.token, body: { workflow_id: id, inputs: { library: LIBRARY } } });
      assert.equal(run.status, 404, run.text);
      assert.equal((await h.req('PUT', `/api/v1/workflows/${id}`, { token: other.token, body: { spec: V2, base_version: 1 } })).status, 404);
      assert.equal((await h.req('GET', `/api/v1/workflows/${id}/shares`, { token: other.token })).status, 404);
      const fork = await h.req('POST', `/api/v1/workflows/${id}/fork`, { token: other.token, body: { name: 'mine now' } });
      assert.equal(fork.status, 201, fork.text);
      assert.deepEqual([fork.body.name, fork.body.version, fork.body.access, fork.body.forked_from], ['mine now', 1, 'owner', { workflow_id: id, version: 1 }]);
      assert.deepEqual(fork.body.spec, SPEC);

      // run: the same share upgraded (one share per user); the run is charged to the runner.
      const up = await h.req('POST', `/api/v1/workflows/${id}/share`, { token: owner.token, body: { email: other.email, permission: 'run' } });
      assert.equal(up.body.share_id, view.body.share_id);
      const ownerWallet = (await h.req('GET', '/api/v1/wallet', { token: owner.token })).body;
      const started = await h.req('POST', '/api/v1/workflows/runs', { token: other.token, body: { workflow_id: id, inputs: { library: LIBRARY } } });
      assert.equal(started.status, 201, started.text);
      assert.deepEqual([started.body.workflow_id, started.body.version], [id, 1]);
      const done = await waitForRun(h, other.token, started.body.run_id);
      assert.equal(done.status, 'completed');
      assert.ok(done.charged_usd > 0);
      assert.deepEqual((await h.req('GET', '/api/v1/wallet', { token: owner.token })).body, ownerWallet, "the owner's wallet is not touched");
      assert.equal((await h.req('GET', `/api/v1/workflows/runs/${started.body.run_id}`, { token: owner.token })).status, 404, "the owner does not see the runner's run");

      const shares = await h.req('GET', `/api/v1/workflows/${id}/shares`, { token: owner.token });
      assert.deepEqual(
        shares.body.shares.map((s: any) => [s.email, s.permission]),
        [[other.email, 'run']],
      );
      const revoke = await h.req('DELETE', `/api/v1/workflows/${id}/shares/${view.body.share_id}`, { token: owner.token });
      assert.equal(revoke.status, 200, revoke.text);
      assert.equal((await get(other, id)).status, 404, 'revoked at once');
      assert.equal((await h.req('POST', '/api/v1/workflows/runs', { token: other.token, body: { workflow_id: id, inputs: { library: LIBRARY } } })).status, 404);
      assert.equal((await h.req('DELETE', `/api/v1/workflows/${id}/shares/${view.body.share_id}`, { token: owner.token })).status, 404);

      const tmpl = await h.req('POST', '/api/v1/workflows/library-triage/fork', { token: third.token, body: {} });
      assert.equal(tmpl.status, 201, tmpl.text);
      assert.deepEqual(tmpl.body.forked_from, { template_id: 'library-triage' });
    });

    it('a link share: its token shown once, readable by any signed-in holder, runnable with run permission, revocable', async () => {
      const id = (await save(owner, { spec: SPEC })).body.workflow_id;
      const key = crypto.randomUUID();
      const link = await h.req('POST', `/api/v1/workflows/${id}/share`, { token: owner.token, body: { link: true, permission: 'run' }, headers: { 'idempotency-key': key } });
      assert.equal(link.status, 201, link.text);
      assert.match(link.body.token, /^wfs_[A-Za-z0-9_-]{43}$/);
      assert.equal(link.body.url, `/api/v1/workflows/shared/${link.body.token}`);
      // Shown once: not in the list, not in an idempotent replay.
      const replay = await h.req('POST', `/api/v1/workflows/${id}/share`, { token: owner.token, body: { link: true, permission: 'run' }, headers: { 'idempotency-key': key } });
      assert.deepEqual([replay.status, replay.body.share_id, replay.body.token], [201, link.body.share_id, undefined]);
      const listed = await h.req('GET', `/api/v1/workflows/${id}/shares`, { token: owner.token });
      assert.ok(!listed.text.includes(link.body.token));
      assert.deepEqual(
        listed.body.shares.map((s: any) => [s.kind, s.permission]),
        [['link', 'run']],
      );
      const { rows } = await h.services.db.query<{ token_hash: string }>('SELECT token_hash FROM workflow_shares WHERE id = $1', [link.body.share_id]);
      assert.equal(rows[0]!.token_hash, crypto.createHash('sha256').update(link.body.token).digest('hex'), 'only its hash is stored');

      const read = await h.req('GET', link.body.url, { token: third.token });
      assert.deepEqual([read.status, read.body.workflow_id, read.body.access], [200, id, 'run']);
      const run = await h.req('POST', '/api/v1/workflows/runs', { token: third.token, body: { share_token: link.body.token, inputs: { library: LIBRARY } } });
      assert.equal(run.status, 201, run.text);
      await waitForRun(h, third.token, run.body.run_id);
      assert.equal((await h.req('DELETE', `/api/v1/workflows/${id}/shares/${link.body.share_id}`, { token: owner.token })).status, 200);
      assert.equal((await h.req('GET', link.body.url, { token: third.token })).status, 404);
      assert.equal((await h.req('POST', '/api/v1/workflows/runs', { token: third.token, body: { share_token: link.body.token, inputs: { library: LIBRARY } } })).status, 404);
    });

    it('a rerun checks access again: a revoked link or share, a share down to view, a deleted definition are 404', async () => {
      const id = (await save(owner, { spec: SPEC })).body.workflow_id;
      const share = (u: User | null, permission: string) =>
        h.req('POST', `/api/v1/workflows/${id}/share`, { token: owner.token, body: u ? { email: u.email, permission } : { link: true, permission } });
      const rerun = (u: User, runId: string) => h.req('POST', `/api/v1/workflows/runs/${runId}/rerun`, { token: u.token, body: {} });
      const runsOf = async (u: User) =>
        (await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM workflow_runs WHERE user_id = $1 AND workflow_id = $2', [u.userId, id])).rows[0]!.n;
      const link = (await share(null, 'run')).body;
      const byLink = await h.req('POST', '/api/v1/workflows/runs', { token: third.token, body: { share_token: link.token, inputs: { library: LIBRARY } } });
      assert.equal(byLink.status, 201, byLink.text);
      const userShare = (await share(other, 'run')).body;
      const byShare = await h.req('POST', '/api/v1/workflows/runs', { token: other.token, body: { workflow_id: id, inputs: { library: LIBRARY } } });
      assert.equal(byShare.status, 201, byShare.text);
      const own = await h.req('POST', '/api/v1/workflows/runs', { token: owner.token, body: { workflow_id: id, inputs: { library: LIBRARY } } });
      assert.equal(own.status, 201, own.text);
      for (const [u, r] of [
        [third, byLink],
        [other, byShare],
        [owner, own],
      ] as const)
        await waitForRun(h, u.token, r.body.run_id);

      // While the link is active its runs rerun, and so do their reruns.
      const again = await rerun(third, byLink.body.run_id);
      assert.equal(again.status, 201, again.text);
      assert.equal(again.body.rerun_of, byLink.body.run_id);
      await waitForRun(h, third.token, again.body.run_id);
      // Another active link of the same definition is not the one this run came through.
      await share(null, 'run');
      assert.equal((await h.req('DELETE', `/api/v1/workflows/${id}/shares/${link.share_id}`, { token: owner.token })).status, 200);
      const before = await runsOf(third);
      for (const runId of [byLink.body.run_id, again.body.run_id]) {
        const r = await rerun(third, runId);
        assert.equal(r.status, 404, r.text);
        assert.match(r.body.detail, new RegExp(`workflow ${id}`));
      }
      assert.equal(await runsOf(third), before, 'no run was started');

      // A user share down to view: no rerun; back to run: rerun.
      await share(other, 'view');
      assert.equal((await rerun(other, byShare.body.run_id)).status, 404);
      await share(other, 'run');
      const shared = await rerun(other, byShare.body.run_id);
      assert.equal(shared.status, 201, shared.text);
      await waitForRun(h, other.token, shared.body.run_id);
      assert.equal((await h.req('DELETE', `/api/v1/workflows/${id}/shares/${userShare.share_id}`, { token: owner.token })).status, 200);
      assert.equal((await rerun(other, byShare.body.run_id)).status, 404);

      // A deleted definition is 404 everywhere, its owner's reruns included, until restored.
      assert.equal((await h.req('DELETE', `/api/v1/workflows/${id}`, { token: owner.token })).status, 200);
      const gone = await rerun(owner, own.body.run_id);
      assert.equal(gone.status, 404, gone.text);
      assert.equal((await h.req('POST', `/api/v1/workflows/${id}/restore`, { token: owner.token, body: {} })).status, 200);
      const back = await rerun(owner, own.body.run_id);
      assert.equal(back.status, 201, back.text);
      await waitForRun(h, owner.token, back.body.run_id);
    });

    it('bad input: every problem located, 413 past 256 KiB, 51 steps, an expression that does not parse, unknown and missing inputs', async () => {
      const broken = await save(owner, {
        spec: {
          name: 'x',
          steps: [
            { id: 'a', job_type: 'teleport' },
            { id: 'a', job_type: 'filter', params: { expression: 'mw <= (500' } },
          ],
        },
      });
      assert.equal(broken.status, 422, broken.text);
      assert.deepEqual(broken.body.errors.map((e: any) => JSON.stringify(e.loc)).sort(), [
        '["body","spec","steps",0,"job_type"]',
        '["body","spec","steps",1,"id"]',
        '["body","spec","steps",1,"params","expression"]',
      ]);
      const big = { ...SPEC, description: 'x'.repeat(5000), steps: SPEC.steps.map((s) => ({ ...s, params: { ...s.params, pad: 'y'.repeat(300 * 1024) } })) };
      for (const [path, body] of [
        ['/api/v1/workflows', { spec: big }],
        ['/api/v1/workflows/runs', { spec: big }],
        ['/api/v1/workflows/validate', { spec: big }],
      ] as const) {
        const r = await h.req('POST', path, { token: owner.token, body });
        assert.equal(r.status, 413, `${path}: ${r.text.slice(0, 200)}`);
        assert.equal(r.body.type, '/api/v1/problems/payload-too-large');
      }
      const many = { name: 'many', steps: Array.from({ length: 51 }, (_, i) => ({ id: `w${i}`, job_type: 'wait', params: { seconds: 1 } })) };
      const r51 = await save(owner, { spec: many });
      assert.equal(r51.status, 422);
      assert.deepEqual(r51.body.errors[0].loc, ['body', 'spec', 'steps']);

      const runWith = (body: unknown) => h.req('POST', '/api/v1/workflows/runs', { token: owner.token, body });
      const noParse = await runWith({ spec: { ...SPEC, steps: [{ ...SPEC.steps[0]!, params: { expression: 'mw <= and' } }] }, inputs: { library: LIBRARY } });
      assert.equal(noParse.status, 422);
      assert.deepEqual(noParse.body.errors[0].loc, ['body', 'spec', 'steps', 0, 'params', 'expression']);
      const inputs = await runWith({ spec: SPEC, inputs: { libary: LIBRARY, limit: 'ten' } });
      assert.equal(inputs.status, 422);
      assert.deepEqual(
        inputs.body.errors.map((e: any) => e.loc),
        [
          ['body', 'inputs', 'libary'],
          ['body', 'inputs', 'library'],
          ['body', 'inputs', 'limit'],
        ],
      );
      const two = await runWith({ spec: SPEC, template_id: 'library-triage', inputs: { library: LIBRARY } });
      assert.equal(two.status, 422);
      const tmpl = await runWith({ template_id: 'no-such-template', inputs: {} });
      assert.deepEqual([tmpl.status, tmpl.body.errors[0].loc], [422, ['body', 'template_id']]);
      // None of these left a run behind.
      const runs = await h.req('GET', '/api/v1/workflows/runs?q=triage', { token: owner.token });
      assert.equal(runs.status, 200);
      const { rows } = await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM workflow_runs WHERE user_id = $1 AND spec->>'name' = 'x'`, [owner.userId]);
      assert.equal(rows[0]!.n, 0);
    });
  });
}
