// The utilities over HTTP (docs/utilities.md) on one database (onlyOn): the catalog, each tool's
// values, bad input (nothing counted), the synchronous limits, asynchronous requests on the
// job runtime (counted ceil(molecules / 100), never charged, private, cancellable, large
// results in an artifact), and idempotent replays that count nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { uploadArtifact } from '../helpers/uploads.js';

const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';
/** Two saturated polycycles whose MCS takes RDKit longer than a second (measured). */
const SLOW_MCS = ['C1CC2CCC3CCC4CCC5CCC6CCC1C1C2C3C4C5C61', 'C1CC2CC3CCC4CCC5CC6CCC1C1C2C3C4C5C61'];

for (const backend of onlyOn('pglite')) {
  describe(`utilities [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    const run = (token: string, tool: string, input: unknown, headers: Record<string, string> = {}) =>
      h.req('POST', '/api/v1/utilities/run', { token, body: { tool, input }, headers });
    const calls = async (token: string) => (await h.req('GET', '/api/v1/usage', { token })).body.calls.utilities as number;
    async function waitRequest(token: string, id: string, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const r = await h.req('GET', `/api/v1/utilities/requests/${id}`, { token });
        assert.equal(r.status, 200, r.text);
        if (['completed', 'error', 'cancelled'].includes(r.body.status)) return r.body;
        if (Date.now() > until) throw new Error(`request ${id} still ${r.body.status}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    }

    it('GET /utilities lists the six tools with their input schemas and limits', async () => {
      const u = await h.user();
      const r = await h.req('GET', '/api/v1/utilities', { token: u.token });
      assert.equal(r.status, 200, r.text);
      const tools = r.body.tools as {
        name: string;
        input_schema: { properties: Record<string, unknown> };
        limits: { sync: Record<string, number>; async: Record<string, number> };
      }[];
      assert.deepEqual(
        tools.map((t) => t.name),
        ['convert', 'fingerprints', 'similarity', 'substructure', 'mcs', 'rgroups'],
      );
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      assert.deepEqual(byName.convert!.limits, { sync: { molecules: 100 }, async: { molecules: 100_000 } });
      assert.deepEqual(byName.similarity!.limits.sync, { queries: 20, library: 1000 });
      assert.equal(byName.substructure!.limits.sync.molecules, 1000);
      assert.ok('outputs' in byName.convert!.input_schema.properties && 'n_bits' in byName.fingerprints!.input_schema.properties);
    });

    it('convert, fingerprints, similarity, substructure, mcs and rgroups give RDKit values; each call counts 1', async () => {
      const u = await h.user();
      const conv = await run(u.token, 'convert', {
        molecules: [ASPIRIN, 'C1CC'],
        outputs: ['smiles', 'kekule_smiles', 'inchi', 'inchikey', 'formula', 'molblock', 'molblock_v3000'],
      });
      assert.equal(conv.status, 200, conv.text);
      const [a, bad] = conv.body.result.items;
      assert.deepEqual([a.smiles, a.kekule_smiles, a.inchikey, a.formula], ['CC(=O)Oc1ccccc1C(=O)O', 'CC(=O)OC1=CC=CC=C1C(=O)O', 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', 'C9H8O4']);
      assert.equal(a.inchi, 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)');
      assert.match(a.molblock, /V2000[\s\S]*M {2}END/);
      assert.match(a.molblock_v3000, /V3000/);
      assert.deepEqual([bad.error, bad.detail, bad.smiles], ['unparseable', 'unclosed ring', null]);
      assert.deepEqual(conv.body.result.counts, { molecules: 2, ok: 1, failed: 1 });
      // A molblock reads back to the same molecule.
      const back = await run(u.token, 'convert', { molecules: [a.molblock], outputs: ['smiles'] });
      assert.equal(back.body.result.items[0].smiles, a.smiles);

      const fp = await run(u.token, 'fingerprints', { molecules: ['c1ccccc1O'], n_bits: 64, format: 'hex' });
      const bits = await run(u.token, 'fingerprints', { molecules: ['c1ccccc1O'], n_bits: 64 });
      const hex = Buffer.from(fp.body.result.items[0].fingerprint as string, 'hex');
      const fromHex = [...Array(64).keys()].filter((i) => ((hex[i >> 3] ?? 0) >> (i & 7)) & 1);
      assert.deepEqual(fromHex, bits.body.result.items[0].fingerprint);
      assert.deepEqual(bits.body.result.items[0].fingerprint, [0, 1, 2, 5, 17, 22, 36, 39, 41, 47, 50]);
      const maccs = await run(u.token, 'fingerprints', { molecules: [ASPIRIN], type: 'maccs' });
      assert.equal(maccs.body.result.fingerprint.n_bits, 167);

      const sim = await run(u.token, 'similarity', { queries: ['c1ccccc1O'], library: ['c1ccccc1N', 'CCO', 'c1ccccc1O', 'X'], top_k: 2 });
      assert.equal(sim.status, 200, sim.text);
      assert.deepEqual(sim.body.result.items[0].hits, [
        { index: 2, smiles: 'c1ccccc1O', score: 1 },
        { index: 0, smiles: 'c1ccccc1N', score: 0.375 },
      ]);
      assert.equal(sim.body.result.items[0].query, 'c1ccccc1O');
      assert.equal(sim.body.result.items[0].above_threshold, 3);
      assert.deepEqual(
        sim.body.result.library_errors.map((e: { index: number }) => e.index),
        [3],
      );

      const sub = await run(u.token, 'substructure', { molecules: ['OCCO', 'CC', 'c1ccccc1O'], query: '[OX2H]', svg: true });
      assert.deepEqual(
        sub.body.result.items.map((i: { matches: number[][] }) => i.matches),
        [[[0], [3]], [], [[6]]],
      );
      assert.equal(sub.body.result.matched, 2);
      assert.equal(sub.body.result.items[1].svg, null);
      // Drawn as POST /depict draws the molecule (the same document frame, label font and colours), plus the highlights.
      const depicted = (await h.req('POST', '/api/v1/depict', { token: u.token, body: { smiles: ['OCCO'] } })).body.items[0].svg as string;
      const highlighted = sub.body.result.items[0].svg as string;
      const frame = (svg: string) => [/^<svg[^>]*>/.exec(svg)?.[0], /<rect [^>]*>/.exec(svg)?.[0]];
      const labels = (svg: string) => [...svg.matchAll(/<text [^>]*fill:(#[0-9A-F]{6})[^>]*>([^<]*)<\/text>/g)].map((m) => `${m[2]}${m[1]}`);
      assert.deepEqual(frame(highlighted), frame(depicted));
      assert.deepEqual(labels(highlighted), labels(depicted));
      assert.deepEqual(labels(depicted), ['O#FF0000', 'H#FF0000', 'H#FF0000', 'O#FF0000'], 'OH and HO, red');
      assert.equal((highlighted.match(/<ellipse [^>]*class="atom-(0|3)"/g) ?? []).length, 2, 'both hydroxyl oxygens highlighted');

      const mcs = await run(u.token, 'mcs', { molecules: ['c1ccccc1CCN', 'c1ccccc1CCO', 'oops('] });
      assert.deepEqual(
        [mcs.body.result.smarts, mcs.body.result.num_atoms, mcs.body.result.num_bonds, mcs.body.result.timed_out],
        ['[#6]1:[#6]:[#6]:[#6]:[#6]:[#6]:1-[#6]-[#6]', 8, 8, false],
      );
      assert.equal(mcs.body.result.items[2].error, 'unparseable');

      const rg = await run(u.token, 'rgroups', { cores: ['c1ccccc1'], molecules: ['Cc1ccccc1', 'CCO', 'Clc1ccc(C)cc1'] });
      assert.deepEqual(rg.body.result.items[2].rgroups, { R1: 'Cl[*:1]', R2: 'C[*:2]' });
      assert.equal(rg.body.result.items[0].core, 'c1cc([*:2])ccc1[*:1]');
      assert.deepEqual(rg.body.result.unmatched, [1]);
      assert.equal(await calls(u.token), 9);
    });

    it('an MCS that runs out of time answers timed_out with the best so far', async () => {
      const u = await h.user();
      const r = await run(u.token, 'mcs', { molecules: SLOW_MCS, timeout_sec: 1, atom_compare: 'any', bond_compare: 'any' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.result.timed_out, true);
      assert.ok(r.body.result.num_atoms > 0 && r.body.result.smarts.length > 0);
    });

    it('bad input is a 422 at its location and counts nothing', async () => {
      const u = await h.user();
      const unknown = await run(u.token, 'teleport', {});
      assert.equal(unknown.status, 422);
      assert.deepEqual(
        unknown.body.errors.map((e: { loc: unknown }) => e.loc),
        [['body', 'tool']],
      );
      const schema = await run(u.token, 'fingerprints', { molecules: ['CCO'], n_bits: 10, colour: 'red' });
      assert.equal(schema.status, 422);
      assert.deepEqual(schema.body.errors.map((e: { loc: unknown[] }) => e.loc.join('.')).sort(), ['body.input.colour', 'body.input.n_bits']);
      const smarts = await run(u.token, 'substructure', { molecules: ['CCO'], query: 'C(((' });
      assert.equal(smarts.status, 422);
      assert.deepEqual(smarts.body.errors[0].loc, ['body', 'input', 'query']);
      const over = await run(u.token, 'convert', { molecules: Array(101).fill('C') });
      assert.equal(over.status, 422);
      assert.deepEqual(over.body.errors[0].loc, ['body', 'input', 'molecules']);
      assert.match(over.body.errors[0].msg, /at most 100.*POST \/utilities\/submit/);
      const simOver = await run(u.token, 'similarity', { queries: Array(21).fill('C'), library: ['C'] });
      assert.deepEqual([simOver.status, simOver.body.errors[0].loc], [422, ['body', 'input', 'queries']]);
      const feature = await run(u.token, 'fingerprints', { molecules: ['CCO'], features: true });
      assert.deepEqual([feature.status, feature.body.errors[0].loc], [422, ['body', 'input', 'features']]);
      const both = await run(u.token, 'convert', { molecules: ['C'], input_artifact_id: 'x' });
      assert.deepEqual([both.status, both.body.errors[0].loc], [422, ['body', 'input', 'input_artifact_id']]);
      const core = await run(u.token, 'rgroups', { cores: ['c1ccccc1', '[[['], molecules: ['Cc1ccccc1'] });
      assert.deepEqual([core.status, core.body.errors[0].loc], [422, ['body', 'input', 'cores', 1]]);
      const inchi = await run(u.token, 'convert', { molecules: ['InChI=1S/CH4/h1H4'] });
      assert.deepEqual([inchi.status, inchi.body.result.items[0].error], [200, 'unsupported_format']);
      assert.equal(await calls(u.token), 1, 'only the call that answered 200 counted');
    });

    it('asynchronous requests: counted ceil(molecules/100), not charged, listed, private, results inline or in an artifact, deleted', async () => {
      const u = await h.user();
      const other = await h.user();
      const molecules = Array.from({ length: 250 }, (_, i) => (i % 50 === 7 ? 'C1CC' : 'c1ccccc1' + 'C'.repeat(i % 5)));
      const s = await h.req('POST', '/api/v1/utilities/submit', { token: u.token, body: { tool: 'convert', input: { molecules, outputs: ['smiles', 'inchikey'] } } });
      assert.equal(s.status, 200, s.text);
      const done = await waitRequest(u.token, s.body.request_id);
      assert.deepEqual([done.status, done.tool, done.molecules, done.counted, done.progress], ['completed', 'convert', 250, 3, 1]);
      assert.equal(done.result.items.length, 250);
      assert.equal(done.result.items[7].error, 'unparseable');
      assert.equal(done.result.items[1].smiles, 'Cc1ccccc1');
      assert.equal(await calls(u.token), 3);
      // Not a job: not listed with jobs, no ledger entry, 404 at /jobs/status.
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.total, 0);
      assert.equal((await h.req('GET', `/api/v1/jobs/status?process_id=${s.body.request_id}`, { token: u.token })).status, 404);
      assert.equal((await h.req('GET', '/api/v1/usage', { token: u.token })).body.jobs.count, 0);
      // Private.
      assert.equal((await h.req('GET', `/api/v1/utilities/requests/${s.body.request_id}`, { token: other.token })).status, 404);
      assert.equal((await h.req('DELETE', `/api/v1/utilities/requests/${s.body.request_id}`, { token: other.token })).status, 404);
      assert.equal((await h.req('GET', '/api/v1/utilities/requests', { token: other.token })).body.total, 0);
      const listed = await h.req('GET', '/api/v1/utilities/requests?status=completed', { token: u.token });
      assert.deepEqual(
        listed.body.items.map((i: { request_id: string }) => i.request_id),
        [s.body.request_id],
      );
      assert.equal((await h.req('GET', '/api/v1/utilities/requests?status=running', { token: u.token })).body.total, 0);

      // A result over 1 MiB is an artifact the caller downloads.
      const big = await h.req('POST', '/api/v1/utilities/submit', {
        token: u.token,
        body: { tool: 'convert', input: { molecules: Array(3000).fill(ASPIRIN), outputs: ['molblock_v3000'] } },
      });
      const bigDone = await waitRequest(u.token, big.body.request_id);
      assert.equal(bigDone.status, 'completed', bigDone.message);
      assert.equal(bigDone.result, null);
      assert.ok(bigDone.result_size_bytes > 1024 * 1024);
      const dl = await h.req('GET', `/api/v1/artifacts/${bigDone.result_artifact_id}/download?port=result&record=result`, { token: u.token });
      assert.equal(dl.status, 200);
      assert.equal(JSON.parse(dl.text).result.items.length, 3000);
      assert.equal(await calls(u.token), 33);

      const del = await h.req('DELETE', `/api/v1/utilities/requests/${s.body.request_id}`, { token: u.token });
      assert.deepEqual(del.body, { request_id: s.body.request_id, status: 'deleted' });
      assert.equal((await h.req('GET', `/api/v1/utilities/requests/${s.body.request_id}`, { token: u.token })).status, 404);
    });

    it('an asynchronous request on an uploaded set; a running request is cancelled by DELETE', async () => {
      const u = await h.user();
      const artifactId = await uploadArtifact(h, u.token, 'molecules', 'set.smi', ['c1ccccc1O phenol', 'CCO ethanol', 'CCN ethylamine'].join('\n'));
      const s = await h.req('POST', '/api/v1/utilities/submit', { token: u.token, body: { tool: 'substructure', input: { input_artifact_id: artifactId, query: '[OX2H]' } } });
      assert.equal(s.status, 200, s.text);
      const done = await waitRequest(u.token, s.body.request_id);
      assert.deepEqual(
        done.result.items.map((i: { matched: boolean }) => i.matched),
        [true, true, false],
      );
      const stranger = await h.user();
      const theirs = await h.req('POST', '/api/v1/utilities/submit', { token: stranger.token, body: { tool: 'convert', input: { input_artifact_id: artifactId } } });
      assert.equal(theirs.status, 404, 'another user cannot read the set');
      assert.equal(await calls(stranger.token), 0);

      const long = await h.req('POST', '/api/v1/utilities/submit', {
        token: u.token,
        body: { tool: 'convert', input: { molecules: Array(20_000).fill(ASPIRIN), outputs: ['json'] } },
      });
      assert.equal(long.status, 200, long.text);
      const c = await h.req('DELETE', `/api/v1/utilities/requests/${long.body.request_id}`, { token: u.token });
      assert.equal(c.status, 200, c.text);
      assert.equal(c.body.status, 'cancelled');
      assert.equal((await waitRequest(u.token, long.body.request_id)).status, 'cancelled');
    });

    it('API keys must send Idempotency-Key; a replay answers the first response and counts nothing', async () => {
      const u = await h.user();
      const k = await h.key(u.token);
      const missing = await h.req('POST', '/api/v1/utilities/run', { key: k.secret, body: { tool: 'convert', input: { molecules: ['CCO'] } } });
      assert.deepEqual([missing.status, missing.body.type], [400, '/api/v1/problems/missing-idempotency-key']);
      const headers = { 'idempotency-key': 'utility-1' };
      const first = await h.req('POST', '/api/v1/utilities/run', { key: k.secret, headers, body: { tool: 'convert', input: { molecules: ['CCO'] } } });
      const again = await h.req('POST', '/api/v1/utilities/run', { key: k.secret, headers, body: { tool: 'convert', input: { molecules: ['CCO'] } } });
      assert.equal(first.status, 200, first.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(again.text, first.text, 'the replay is the first response byte for byte');
      const sub = { 'idempotency-key': 'utility-2' };
      const s1 = await h.req('POST', '/api/v1/utilities/submit', { key: k.secret, headers: sub, body: { tool: 'convert', input: { molecules: ['CCO'] } } });
      const s2 = await h.req('POST', '/api/v1/utilities/submit', { key: k.secret, headers: sub, body: { tool: 'convert', input: { molecules: ['CCO'] } } });
      assert.equal(s2.body.request_id, s1.body.request_id);
      assert.equal((await h.req('GET', '/api/v1/utilities/requests', { token: u.token })).body.total, 1);
      assert.equal(await calls(u.token), 2);
    });
  });
}
