// One rule for record ids (issue 32 point 2; docs/artifacts.md, "Molecule files"; src/record-ids.ts):
// an upload whose ids a job's results could not store is a 422 naming the entry (201 characters,
// 200 emoji counted as 400 UTF-16 code units, a control character), in a molecule file and in an
// archive's manifest; ids derived by a job (`<id>-<rank>`) never pass the rule, so a set of
// 199- and 200-unit ids runs a conformer search to completion and is charged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fitRecordId, MAX_RECORD_ID, recordIdProblem, suffixedRecordId } from '../../src/record-ids.js';
import { countRows, makeZip, upload } from '../artifacts/helpers.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const LONG_199 = 'a'.repeat(199);
/** 100 emoji: 200 UTF-16 code units, the most an id may have. */
const EMOJI_100 = '🧪'.repeat(100);

describe('record ids: the rule and derived ids', () => {
  it('counts UTF-16 code units, refuses control characters and lone surrogates', () => {
    assert.equal(recordIdProblem('x'.repeat(MAX_RECORD_ID)), null);
    assert.equal(recordIdProblem(EMOJI_100), null);
    assert.match(recordIdProblem('x'.repeat(201))!, /201 characters long; a record id has 1 to 200/);
    assert.match(recordIdProblem('🧪'.repeat(200))!, /400 characters long \(200 characters, counted as 400 UTF-16 code units/);
    assert.match(recordIdProblem('a\nb')!, /control character U\+000A at position 2/);
    assert.match(recordIdProblem('a\ud800b')!, /unpaired surrogate at position 2/);
    assert.match(recordIdProblem('')!, /empty/);
  });

  it('a suffix keeps the id when it fits, else cuts the base and tags it with its hash: within the rule, distinct, stable', () => {
    assert.equal(suffixedRecordId('mol7', '-3'), 'mol7-3');
    assert.equal(suffixedRecordId('x'.repeat(198), '-1'), `${'x'.repeat(198)}-1`);
    const a = suffixedRecordId(LONG_199, '-12');
    const b = suffixedRecordId(`${'a'.repeat(198)}b`, '-12');
    for (const id of [a, b]) {
      assert.equal(id.length, MAX_RECORD_ID);
      assert.equal(recordIdProblem(id), null);
      assert.ok(id.endsWith('-12') && id.startsWith('a'.repeat(180)), id);
    }
    assert.notEqual(a, b, 'bases differing only past the cut stay apart');
    assert.equal(suffixedRecordId(LONG_199, '-12'), a, 'the same base gives the same id');
    // Never half of a surrogate pair.
    const e = suffixedRecordId(EMOJI_100, '-1');
    assert.equal(recordIdProblem(e), null, e);
    assert.ok(e.length <= MAX_RECORD_ID);
    assert.equal(fitRecordId('short'), 'short');
    assert.equal(fitRecordId('z'.repeat(300)).length, MAX_RECORD_ID);
  });
});

for (const backend of BACKENDS) {
  describe(`record ids [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    const molecules = (token: string, name: string, content: string) => upload(h, { token }, { mode: 'molecules', file: { name, content } });

    it('an upload with an id the results cannot store is a 422 naming its row; nothing is stored', async () => {
      const u = await h.user();
      const cases: [string, string, RegExp][] = [
        ['long.csv', `id,smiles\nok,CCO\n${'x'.repeat(201)},CCC\n`, /^row 2 \(line 3\) has the id "x{40}"\.\.\.: the id is 201 characters long; a record id has 1 to 200/],
        ['emoji.csv', `smiles,id\nCCO,${'🧪'.repeat(200)}\n`, /^row 1 \(line 2\) has the id .*: the id is 400 characters long \(200 characters, counted as 400 UTF-16 code units/],
        [
          'emoji.sdf',
          `water\n\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 O   0  0\nM  END\n> <id>\n${'🧪'.repeat(200)}\n\n$$$$\n`,
          /^record 1 \(line 1\) has the id .*400 characters long/,
        ],
        ['tab.tsv', `id\tsmiles\n"a\tb"\tCCO\n`, /^row 1 \(line 2\) has the id "a\\tb": the id holds the control character U\+0009/],
      ];
      for (const [name, content, pattern] of cases) {
        const r = await molecules(u.token, name, content);
        assert.equal(r.status, 422, `${name}: ${JSON.stringify(r.body)}`);
        assert.deepEqual(r.body.errors[0].loc, ['body', 'file'], name);
        assert.match(r.body.errors[0].msg, pattern, name);
      }
      // Exactly at the rule: stored.
      const ok = await molecules(u.token, 'edge.csv', `id,smiles\n${'x'.repeat(200)},CCO\n${EMOJI_100},CC\n`);
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      assert.equal(await countRows(h, u.userId), 1, 'only the upload within the rule is stored');

      // An archive's manifest follows the same rule.
      const manifest = { job_type: 'upload', ports: { out: { format: 'txt', kind: 'file', records: [{ id: '🧪'.repeat(101), files: { primary: 'a.txt' } }] } } };
      const zip = await makeZip({ 'manifest.json': JSON.stringify(manifest), 'a.txt': 'hello' });
      const ar = await upload(h, { token: u.token }, { mode: 'archive', file: { name: 'a.zip', content: zip } });
      assert.equal(ar.status, 422, JSON.stringify(ar.body));
      const issue = ar.body.errors.find((e: { loc: unknown[] }) => JSON.stringify(e.loc) === JSON.stringify(['body', 'file', 'manifest.json', 'ports', 'out', 'records', 0, 'id']));
      assert.ok(issue, JSON.stringify(ar.body.errors));
      assert.equal(issue.type, 'string_too_long');
      assert.match(issue.msg, /202 characters long \(101 characters/);
    });

    it('ids of 199 and 200 code units through a conformer search: every derived id fits, the job completes and is charged', { timeout: 300_000 }, async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const up = await molecules(u.token, 'butanes.csv', `id,smiles\n${LONG_199},CCCC\n${EMOJI_100},CCCCC\n`);
      assert.equal(up.status, 201, JSON.stringify(up.body));
      const r = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'long ids', job_type: 'conformers', payload: { input_artifact_id: up.body.id, method: 'gfnff', max_conformers: 3, energy_window_kcal: 4 } },
      });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(u.token, r.body.process_id, undefined, 240_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const info = (await h.req('GET', `/api/v1/jobs/info?process_id=${r.body.process_id}`, { token: u.token })).body.info;
      assert.ok(info.charged_amount > 0, `charged ${info.charged_amount}`);

      const res = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token: u.token })).body;
      assert.deepEqual(
        res.items.map((i: { id: string; error: string | null }) => [i.id, i.error]),
        [
          [LONG_199, null],
          [EMOJI_100, null],
        ],
      );
      const manifest = (await h.req('GET', `/api/v1/artifacts/${done.result_artifact_id}`, { token: u.token })).body.manifest;
      const ids: string[] = manifest.ports.structures.records.map((x: { id: string }) => x.id);
      const conformers = res.items.reduce((n: number, i: { conformers: unknown[] }) => n + i.conformers.length, 0);
      assert.ok(conformers >= 3, `${conformers} conformers`);
      assert.equal(ids.length, conformers);
      assert.equal(new Set(ids).size, ids.length, 'derived ids are distinct');
      for (const id of ids) assert.equal(recordIdProblem(id), null, id);
      assert.deepEqual(
        ids.filter((id) => id.startsWith('a')),
        res.items[0].conformers.map((_: unknown, j: number) => suffixedRecordId(LONG_199, `-${j + 1}`)),
      );
      // The lowest conformer keeps the structure's own id.
      assert.deepEqual(
        manifest.ports.lowest.records.map((x: { id: string }) => x.id),
        [LONG_199, EMOJI_100],
      );
    });
  });
}
