// Artifact names (docs/artifacts.md, "Names"): an upload keeps its file's name or the `name`
// it was given, a job result is named after its job type and ports, both shown by the upload's
// answer, GET /artifacts/{id} and every list item; a given name is checked (length, control
// characters) and covered by the Idempotency-Key; migration 017 names the rows from before.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { artifactNameIssue, resultName, uploadName } from '../../src/modules/artifacts/names.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { countRows, makeZip, upload } from './helpers.js';

describe('artifact names: defaults and checks', () => {
  it('an upload without a name is called by its file base name, without control characters', () => {
    assert.equal(uploadName('library.smi', 'molecules'), 'library.smi');
    assert.equal(uploadName('C:\\data\\screen/lib\u0007 1.csv', 'molecules'), 'lib 1.csv');
    assert.equal(uploadName('  \u0001 ', 'archive'), 'archive upload');
    assert.equal(uploadName('', 'file'), 'file upload');
    assert.equal([...uploadName(`${'é'.repeat(300)}.smi`, 'molecules')].length, 200);
  });

  it('a job result is called by its job type and ports other than result', () => {
    assert.equal(resultName('filter', ['result', 'molecules']), 'filter: molecules');
    assert.equal(resultName('properties', ['table', 'result', 'properties']), 'properties: properties, table');
    assert.equal(resultName('wait', ['result']), 'wait result');
  });

  it('a given name has at most 200 characters (code points) and no control characters', () => {
    assert.equal(artifactNameIssue('kinase library', ['name']), null);
    assert.equal(artifactNameIssue('🧪'.repeat(200), ['name']), null, '200 characters of two UTF-16 units each');
    assert.deepEqual([artifactNameIssue('x'.repeat(201), ['name'])?.type, artifactNameIssue('x'.repeat(201), ['name'])?.loc], ['string_too_long', ['name']]);
    for (const [bad, code, at] of [
      ['tab\there', 'U+0009', 4],
      ['bell\u0007', 'U+0007', 5],
      ['del\u007f', 'U+007F', 4],
      ['gpj.\u202Eexe', 'U+202E', 5],
      ['line\u2028two', 'U+2028', 5],
    ] as const) {
      const issue = artifactNameIssue(bad, ['name']);
      assert.equal(issue?.type, 'value_error', JSON.stringify(bad));
      assert.match(issue!.msg, new RegExp(`\\(${code.replace('+', '\\+')} at character ${at}\\)`));
    }
  });
});

for (const backend of BACKENDS) {
  describe(`artifact names [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(async () => h?.close());

    const names = async (token: string) => {
      const r = await h.req('GET', '/api/v1/artifacts?include_archive=true', { token });
      assert.equal(r.status, 200, r.text);
      return r.body.items.map((i: any) => [i.artifact_id, i.port, i.name, i.origin]);
    };

    it('uploads keep their file name or the name given; GET and the list show it', async () => {
      const u = await h.user();
      const lib = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'kinase-library.smi', content: 'CCO a\nCCN b\n' } });
      const named = await upload(h, { token: u.token }, { mode: 'molecules', fields: { name: '  Fragment screen, May  ' }, file: { name: 'frag.smi', content: 'CCC\n' } });
      const file = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'notes.txt', content: 'hello' } });
      const zip = await makeZip({
        'manifest.json': JSON.stringify({ job_type: 'docking', ports: { poses: { format: 'sdf', kind: 'poses', records: [{ id: 'p', files: { primary: 'p.sdf' } }] } } }),
        'p.sdf': 'x',
      });
      const archive = await upload(h, { token: u.token }, { mode: 'archive', fields: { name: 'docking export' }, file: { name: 'export.zip', content: zip } });
      for (const r of [lib, named, file, archive]) assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.deepEqual(
        [lib, named, file, archive].map((r) => [r.body.name, r.body.origin]),
        [
          ['kinase-library.smi', 'upload'],
          ['Fragment screen, May', 'upload'],
          ['notes.txt', 'upload'],
          ['docking export', 'upload'],
        ],
      );
      const got = await h.req('GET', `/api/v1/artifacts/${named.body.id}`, { token: u.token });
      assert.deepEqual([got.body.name, got.body.origin], ['Fragment screen, May', 'upload']);
      assert.deepEqual(await names(u.token), [
        [archive.body.id, '*', 'docking export', 'upload'],
        [archive.body.id, 'poses', 'docking export', 'upload'],
        [file.body.id, '*', 'notes.txt', 'upload'],
        [file.body.id, 'file', 'notes.txt', 'upload'],
        [named.body.id, '*', 'Fragment screen, May', 'upload'],
        [named.body.id, 'molecules', 'Fragment screen, May', 'upload'],
        [lib.body.id, '*', 'kinase-library.smi', 'upload'],
        [lib.body.id, 'molecules', 'kinase-library.smi', 'upload'],
      ]);
      // An empty name counts as absent: the file's name.
      const empty = await upload(h, { token: u.token }, { mode: 'molecules', fields: { name: '   ' }, file: { name: 'b.smi', content: 'CO\n' } });
      assert.equal(empty.body.name, 'b.smi');
    });

    it('refuses a name that is too long or holds control characters (422 at body.name), storing nothing', async () => {
      const u = await h.user();
      for (const [name, type] of [
        ['x'.repeat(201), 'string_too_long'],
        ['two\nlines', 'value_error'],
        ['esc\u001b[31m', 'value_error'],
        ['rlo\u202Etxt.exe', 'value_error'],
        ['nul\u0000', 'string_unicode'],
        ['y'.repeat(1025), 'string_too_long'],
      ] as const) {
        const r = await upload(h, { token: u.token }, { mode: 'molecules', fields: { name }, file: { name: 'a.smi', content: 'CCO\n' } });
        assert.equal(r.status, 422, `${JSON.stringify(name.slice(0, 20))}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.errors.length, 1, JSON.stringify(r.body.errors));
        assert.deepEqual([r.body.errors[0].loc, r.body.errors[0].type], [['body', 'name'], type]);
      }
      assert.equal(await countRows(h, u.userId), 0);
      const ok = await upload(h, { token: u.token }, { mode: 'molecules', fields: { name: 'ü'.repeat(200) }, file: { name: 'a.smi', content: 'CCO\n' } });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      assert.equal(ok.body.name, 'ü'.repeat(200));
    });

    it('the Idempotency-Key covers the name: another name with the same key is 409', async () => {
      const u = await h.user();
      const file = { name: 'a.smi', content: 'CCO\n' };
      const first = await upload(h, { token: u.token }, { mode: 'molecules', fields: { name: 'one' }, file, idempotencyKey: 'named-1' });
      assert.equal(first.status, 201);
      const replay = await upload(h, { token: u.token }, { mode: 'molecules', fields: { name: 'one' }, file, idempotencyKey: 'named-1' });
      assert.deepEqual([replay.status, replay.body.id, replay.body.name], [201, first.body.id, 'one']);
      const other = await upload(h, { token: u.token }, { mode: 'molecules', fields: { name: 'two' }, file, idempotencyKey: 'named-1' });
      assert.equal(other.status, 409);
      assert.equal(await countRows(h, u.userId), 1);
    });

    it('a job result is named after its job type and ports', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const job = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'props', job_type: 'properties', payload: { smiles: ['CCO'] } } });
      assert.equal(job.status, 200, job.text);
      const done = await h.waitForJob(u.token, job.body.process_id);
      assert.equal(done.status, 'completed');
      const got = await h.req('GET', `/api/v1/artifacts/${done.result_artifact_id}`, { token: u.token });
      assert.deepEqual([got.body.name, got.body.origin], ['properties: properties, table', 'job']);
      assert.deepEqual(await names(u.token), [
        [done.result_artifact_id, '*', 'properties: properties, table', 'job'],
        [done.result_artifact_id, 'properties', 'properties: properties, table', 'job'],
        [done.result_artifact_id, 'result', 'properties: properties, table', 'job'],
        [done.result_artifact_id, 'table', 'properties: properties, table', 'job'],
      ]);
    });

    it('migration 017 names the rows from before it', async () => {
      const { db, drop } = await backend.create({ migrated: true });
      try {
        await db.query('ALTER TABLE artifacts DROP COLUMN name');
        const { rows } = await db.query<{ id: string }>(`INSERT INTO users (email, password_hash) VALUES ('names@example.com', 'x') RETURNING id`);
        const user = rows[0]!.id;
        const insert = async (origin: string, mode: string | null, jobType: string, manifest: unknown, ports: string[]) => {
          const a = await db.query<{ id: string }>(
            `INSERT INTO artifacts (user_id, origin, upload_mode, storage_key, size_bytes, sha256, job_type, manifest) VALUES ($1, $2, $3, gen_random_uuid()::text, 1, 'x', $4, $5) RETURNING id`,
            [user, origin, mode, jobType, JSON.stringify(manifest)],
          );
          for (const p of ports) await db.query(`INSERT INTO artifact_ports (artifact_id, port, data_kind, data_format) VALUES ($1, $2, 'k', 'f')`, [a.rows[0]!.id, p]);
          return a.rows[0]!.id;
        };
        const fileUpload = await insert('upload', 'file', 'upload', { ports: { file: { records: [{ id: 'report.pdf' }] } } }, ['file']);
        const molUpload = await insert('upload', 'molecules', 'upload', { ports: { molecules: { records: [{ id: '1' }] } } }, ['molecules']);
        const result = await insert('job', null, 'cluster', { ports: {} }, ['result', 'clusters', 'assignments']);
        const bare = await insert('job', null, 'wait', { ports: {} }, ['result']);
        const sql = fs.readFileSync(new URL('../../src/db/migrations/017_artifact_names.sql', import.meta.url), 'utf8');
        await db.exec(sql);
        const named = await db.query<{ id: string; name: string }>('SELECT id, name FROM artifacts');
        const byId = new Map(named.rows.map((r) => [r.id, r.name]));
        assert.deepEqual(
          [fileUpload, molUpload, result, bare].map((id) => byId.get(id)),
          ['report.pdf', 'molecules upload', 'cluster: assignments, clusters', 'wait result'],
        );
        await assert.rejects(db.query(`UPDATE artifacts SET name = NULL WHERE id = $1`, [bare]), /null/i);
      } finally {
        await drop();
      }
    });
  });
}
