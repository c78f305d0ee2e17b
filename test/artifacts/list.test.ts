// GET /artifacts (one item per port, paging, filters, include_archive) and idempotent uploads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { countRows, makeZip, storedObjects, upload } from './helpers.js';

for (const backend of BACKENDS) {
  describe(`artifact list and idempotent upload [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    const list = async (token: string, q = '') => {
      const r = await h.req('GET', `/api/v1/artifacts${q}`, { token });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };

    it('lists one item per port, newest first, with paging and filters', async () => {
      const u = await h.user();
      const a = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'a.smi', content: 'CCO\nCCN\nCCC\n' } });
      const b = await upload(h, { token: u.token }, { mode: 'file', fields: { data_kind: 'report', data_format: 'pdf' }, file: { name: 'r.pdf', content: '%PDF-1.4' } });
      const zip = await makeZip({
        'manifest.json': JSON.stringify({
          job_type: 'similarity_search',
          ports: {
            hits: { format: 'smiles', kind: 'molecules', records: [{ id: 'h1', files: { primary: 'h1.smi' } }] },
            scores: {
              format: 'json',
              kind: 'table',
              records: [
                { id: 's', files: { primary: 's.json' } },
                { id: 't', files: { primary: 's.json' } },
              ],
            },
          },
        }),
        'h1.smi': 'CCO\n',
        's.json': '[]',
      });
      const c = await upload(h, { token: u.token }, { mode: 'archive', file: { name: 'c.zip', content: zip } });
      for (const r of [a, b, c]) assert.equal(r.status, 201);

      const all = await list(u.token);
      assert.deepEqual(
        all.items.map((i: any) => [i.artifact_id, i.port, i.data_kind, i.data_format, i.record_count, i.is_virtual]),
        [
          [c.body.id, 'hits', 'molecules', 'smiles', 1, false],
          [c.body.id, 'scores', 'table', 'json', 2, false],
          [b.body.id, 'file', 'report', 'pdf', 1, false],
          [a.body.id, 'molecules', 'molecules', 'smiles', 3, false],
        ],
      );
      assert.equal(all.has_more, false);
      assert.equal(all.next_offset, null);
      const item = all.items[0];
      assert.deepEqual(Object.keys(item).sort(), [
        'artifact_id',
        'created_at',
        'data_format',
        'data_kind',
        'expires_at',
        'is_virtual',
        'job_id',
        'job_name',
        'job_type',
        'name',
        'origin',
        'port',
        'record_count',
        'run_id',
        'run_name',
        'size_bytes',
        'step_id',
      ]);
      assert.equal(item.job_type, 'similarity_search');
      assert.equal(item.size_bytes, c.body.size_bytes);
      assert.equal(item.job_id, null);

      const p1 = await list(u.token, '?limit=3');
      assert.equal(p1.items.length, 3);
      assert.equal(p1.has_more, true);
      assert.equal(p1.next_offset, 3);
      const p2 = await list(u.token, `?limit=3&offset=${p1.next_offset}`);
      assert.deepEqual(
        p2.items.map((i: any) => i.artifact_id),
        [a.body.id],
      );
      assert.equal(p2.has_more, false);
      assert.equal(p2.next_offset, null);

      const mols = await list(u.token, '?data_kind=molecules');
      assert.deepEqual(
        mols.items.map((i: any) => [i.artifact_id, i.port]),
        [
          [c.body.id, 'hits'],
          [a.body.id, 'molecules'],
        ],
      );
      const pdf = await list(u.token, '?data_format=pdf');
      assert.deepEqual(
        pdf.items.map((i: any) => i.artifact_id),
        [b.body.id],
      );
      assert.deepEqual((await list(u.token, '?data_kind=molecules&data_format=json')).items, []);

      // include_archive adds one virtual whole-archive item per artifact, before its ports.
      const withArchives = await list(u.token, '?include_archive=true');
      assert.equal(withArchives.items.length, 7);
      assert.deepEqual(
        withArchives.items.slice(0, 3).map((i: any) => [i.port, i.data_kind, i.data_format, i.is_virtual, i.record_count]),
        [
          ['*', 'archive', 'zip', true, 3],
          ['hits', 'molecules', 'smiles', false, 1],
          ['scores', 'table', 'json', false, 2],
        ],
      );
      assert.deepEqual(
        (await list(u.token, '?include_archive=true&data_kind=archive')).items.map((i: any) => i.artifact_id),
        [c.body.id, b.body.id, a.body.id],
      );
      assert.deepEqual((await list(u.token, '?data_kind=archive')).items, [], 'virtual items only with include_archive');

      // run_id: artifacts of a workflow run (set by the workflow engine).
      await h.services.db.query('UPDATE artifacts SET run_id = $1 WHERE id = $2', ['run-7', b.body.id]);
      assert.deepEqual(
        (await list(u.token, '?run_id=run-7')).items.map((i: any) => i.artifact_id),
        [b.body.id],
      );
      assert.equal((await list(u.token, '?run_id=run-7')).items[0].run_id, 'run-7');

      // Another user sees none of it.
      const other = await h.user();
      assert.deepEqual((await list(other.token, '?include_archive=true')).items, []);
    });

    it('validates the query (limit 1..100, offset >= 0, include_archive boolean)', async () => {
      const u = await h.user();
      for (const [q, loc, type] of [
        ['?limit=0', 'limit', 'greater_than_equal'],
        ['?limit=101', 'limit', 'less_than_equal'],
        ['?offset=-1', 'offset', 'greater_than_equal'],
        ['?include_archive=maybe', 'include_archive', 'bool_type'],
        ['?colour=red', 'colour', 'extra_forbidden'],
      ]) {
        const r = await h.req('GET', `/api/v1/artifacts${q}`, { token: u.token });
        assert.equal(r.status, 422, q);
        assert.deepEqual(r.body.errors[0].loc, ['query', loc], q);
        assert.equal(r.body.errors[0].type, type, q);
      }
    });

    it('a retried upload with the same Idempotency-Key returns the first artifact and stores one', async () => {
      const u = await h.user();
      const k = await h.key(u.token);
      const file = { name: 'a.smi', content: 'CCO\nCCN\n' };
      const first = await upload(h, { key: k.secret }, { mode: 'molecules', file, idempotencyKey: 'up-1' });
      assert.equal(first.status, 201);
      const objects = (await storedObjects(h)).length;
      const again = await upload(h, { key: k.secret }, { mode: 'molecules', file, idempotencyKey: 'up-1' });
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(again.body.id, first.body.id);
      assert.deepEqual(again.body, first.body);
      assert.equal(await countRows(h, u.userId), 1);
      assert.equal((await storedObjects(h)).length, objects, 'no second file');
      // The access token shares the account's key space.
      const viaToken = await upload(h, { token: u.token }, { mode: 'molecules', file, idempotencyKey: 'up-1' });
      assert.equal(viaToken.body.id, first.body.id);

      // Same key, other content (or other mode, other file name): 409, nothing stored.
      for (const o of [
        { mode: 'molecules', file: { name: 'a.smi', content: 'CCO\nCCC\n' } },
        { mode: 'file', file },
        { mode: 'molecules', file: { name: 'b.smi', content: file.content } },
      ]) {
        const r = await upload(h, { key: k.secret }, { ...o, idempotencyKey: 'up-1' });
        assert.equal(r.status, 409);
        assert.equal(r.body.type, '/api/v1/problems/idempotency-key-reused');
      }
      assert.equal(await countRows(h, u.userId), 1);
      assert.equal((await storedObjects(h)).length, objects);

      // A refused upload (422) is pinned too: the retry gets the same answer.
      const bad1 = await upload(h, { key: k.secret }, { mode: 'molecules', file: { name: 'x.csv', content: 'a,b\n1,2\n' }, idempotencyKey: 'up-2' });
      const bad2 = await upload(h, { key: k.secret }, { mode: 'molecules', file: { name: 'x.csv', content: 'a,b\n1,2\n' }, idempotencyKey: 'up-2' });
      assert.equal(bad1.status, 422);
      assert.equal(bad2.status, 422);
      assert.equal(bad2.headers.get('idempotent-replayed'), 'true');
      assert.equal(bad2.body.detail, bad1.body.detail);
    });

    it('concurrent duplicates with one key make one artifact', async () => {
      const u = await h.user();
      const file = { name: 'c.txt', content: 'x'.repeat(300_000) };
      const rs = await Promise.all(Array.from({ length: 4 }, () => upload(h, { token: u.token }, { mode: 'file', file, idempotencyKey: 'same' })));
      const created = rs.filter((r) => r.status === 201);
      assert.ok(created.length >= 1, rs.map((r) => r.status).join(','));
      for (const r of rs)
        assert.ok(r.status === 201 || (r.status === 409 && r.body.type === '/api/v1/problems/idempotency-key-in-progress'), `${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(new Set(created.map((r) => r.body.id)).size, 1);
      assert.equal(await countRows(h, u.userId), 1);
    });
  });
}
