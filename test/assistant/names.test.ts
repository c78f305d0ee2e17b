// The builtin Assistant and names (docs/assistant.md, "Names of compounds" and "Which molecule
// set"), end to end on both databases: names it does not know are resolved through the compound
// lookup service (the local PubChem stand-in of test/lookups/stand-in.ts, never the network),
// with the service's source switch, cache and attribution; "my library" is the newest upload,
// never a newer workflow output, and an ambiguous one is a question listing the sets by name.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { lookup, standInEnv, StandIn } from '../lookups-api/setup.js';
import { LIBRARY, uploadSmiles } from '../workflows/helpers.js';
import { ask, newSession } from './helpers.js';

const SERTRALINE = 'CN[C@H]1CC[C@H](C2=CC=CC=C12)C3=CC(=C(C=C3)Cl)Cl';
const OLAPARIB = 'C1CC1C(=O)N2CCN(CC2)C(=O)C3=C(C=CC(=C3)CC4=NNC(=O)C5=CC=CC=C54)F';

for (const backend of onlyOn('pglite')) {
  describe(`assistant names [${backend.name}]`, () => {
    const standIn = new StandIn();
    let h: Harness;
    let off: Harness;
    let u: { token: string; userId: string };
    before(async () => {
      await standIn.start();
      h = await startHarness(backend, standInEnv(standIn), { workers: 1 });
      off = await startHarness(backend, standInEnv(standIn, { CRUCIBLE_LOOKUPS_DISABLED: 'pubchem' }));
      u = await h.user();
      await h.credit(u.userId, 5);
    });
    after(async () => {
      await h?.close();
      await off?.close();
      await standIn.stop();
    });
    const pubchemCalls = () => standIn.requests.filter((r) => r.path.startsWith('/rest/pug/compound/name/')).map((r) => decodeURIComponent(r.path.split('/')[5]!));

    it('"describe sertraline and olaparib": PubChem names through the lookup service, then RDKit properties, with the source', async () => {
      standIn.reset();
      const s = await newSession(h, u.token);
      const { events, text } = await ask(h, u.token, s, 'describe sertraline and olaparib');
      const calls = events.filter((e) => e.event === 'tool_call').map((e) => [e.data.name, e.data.arguments]);
      assert.deepEqual(calls, [
        ['lookup_compounds', { names: ['sertraline', 'olaparib'] }],
        ['describe_molecules', { smiles: [SERTRALINE, OLAPARIB] }],
      ]);
      const found = events.find((e) => e.event === 'tool_result' && e.data.name === 'lookup_compounds')!.data.result;
      assert.deepEqual(
        found.compounds.map((c: any) => [c.name, c.status, c.cid, c.title]),
        [
          ['sertraline', 'found', 68617, 'Sertraline'],
          ['olaparib', 'found', 23725625, 'Olaparib'],
        ],
      );
      const described = events.find((e) => e.event === 'tool_result' && e.data.name === 'describe_molecules')!.data.result.items;
      assert.deepEqual(
        described.map((i: any) => i.formula),
        ['C17H17Cl2N', 'C24H23FN4O3'],
      );
      assert.doesNotMatch(text, /did not find a molecule/);
      assert.match(text, /Looked up by name in PubChem: sertraline \(CID 68617, "Sertraline"\), olaparib \(CID 23725625, "Olaparib"\)\./);
      assert.match(text, /- sertraline: C17H17Cl2N, MW 306\.2\d/);
      assert.match(text, /- olaparib: C24H23FN4O3, MW 434\.4\d/);
      assert.ok(text.includes(`Source: ${found.attribution}`), text);
      assert.match(found.attribution, /^PubChem, National Center for Biotechnology Information/);
      assert.deepEqual(pubchemCalls().sort(), ['olaparib', 'sertraline'], 'one call per name, to the stand-in');

      // The same cache as POST /lookup/compounds: neither a second turn nor the endpoint calls PubChem again.
      await ask(h, u.token, await newSession(h, u.token), 'draw olaparib');
      const viaApi = await lookup(h, 'compounds', { names: ['sertraline'] }, { token: u.token });
      assert.equal(viaApi.status, 200);
      assert.equal(viaApi.body.compounds[0].cid, 68617);
      assert.equal(viaApi.body.attribution, found.attribution);
      assert.equal(pubchemCalls().length, 2);
    });

    it('says plainly when compound lookups are disabled, and sends nothing', async () => {
      standIn.reset();
      const v = await off.user();
      await off.credit(v.userId, 1);
      const s = await newSession(off, v.token);
      const { events, text } = await ask(off, v.token, s, 'describe sertraline and olaparib');
      const result = events.find((e) => e.event === 'tool_result')!.data;
      assert.deepEqual([result.name, result.ok, result.result.error.code], ['lookup_compounds', false, 'source-disabled']);
      assert.equal(events.filter((e) => e.event === 'tool_call').length, 1, 'nothing to describe');
      assert.match(text, /^Compound name lookups \(PubChem\) are disabled on this server, so I could not look up sertraline and olaparib\./);
      assert.match(text, /give its SMILES/);
      assert.equal(events.at(-1)!.data.status, 'completed');
      assert.equal(standIn.requests.length, 0);
    });

    it('"my library" is the newest upload, not a newer workflow output; several uploads: it asks, naming them', async () => {
      const w = await h.user();
      await h.credit(w.userId, 5);
      const kinase = await uploadSmiles(h, w.token, LIBRARY.slice(0, 5), 'kinase.smi');
      // A molecule set written later by a job (a workflow step's output, as in the issue).
      const output = await h.services.artifacts.createFromRecords({
        userId: w.userId,
        jobId: null,
        jobType: 'filter',
        ports: { molecules: { format: 'smiles', kind: 'molecules', records: [{ id: '1', files: { primary: { name: '1.smi', content: 'CCO\n' } } }] } },
      });
      const listed = (await h.req('GET', '/api/v1/artifacts?data_kind=molecules', { token: w.token })).body.items;
      assert.deepEqual(
        listed.map((i: any) => [i.artifact_id, i.name, i.origin]),
        [
          [output.artifactId, 'filter: molecules', 'job'],
          [kinase, 'kinase.smi', 'upload'],
        ],
      );

      const s = await newSession(h, w.token);
      const first = await ask(h, w.token, s, 'plan a solubility screen of my library');
      const plan = first.events.find((e) => e.event === 'plan');
      assert.ok(plan, first.text);
      assert.equal(plan.data.title, 'Solubility screen of kinase.smi');
      const card = (await h.req('GET', `/api/v1/assistant/plans/${plan.data.plan_id}`, { token: w.token })).body;
      assert.deepEqual(card.workflow, { template_id: 'solubility-screen', inputs: { library: kinase } });

      const fragments = await uploadSmiles(h, w.token, LIBRARY.slice(5), 'fragments.smi');
      const again = await ask(h, w.token, s, 'plan a solubility screen of my library');
      assert.equal(
        again.events.find((e) => e.event === 'plan'),
        undefined,
        'no card while it is unclear',
      );
      assert.ok(again.text.startsWith('You have uploaded several molecule sets, newest first:\n'), again.text);
      assert.ok(again.text.includes(`- "fragments.smi" (artifact ${fragments}, 5 molecules`), again.text);
      assert.ok(again.text.includes(`- "kinase.smi" (artifact ${kinase}, 5 molecules`), again.text);
      assert.ok(again.text.indexOf('fragments.smi') < again.text.indexOf('kinase.smi'), 'newest first');
      assert.ok(!again.text.includes(output.artifactId), 'a job output is not offered as "my library"');
      assert.match(again.text, /Which one should I use\? Say, for example, "plan a solubility screen of fragments\.smi"/);
      const { rows } = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM assistant_plans WHERE user_id = $1', [w.userId]);
      assert.equal(rows[0]!.n, 1, 'only the first turn made a card');

      const named = await ask(h, w.token, s, 'plan a solubility screen of kinase.smi');
      const namedPlan = named.events.find((e) => e.event === 'plan')!;
      assert.deepEqual((await h.req('GET', `/api/v1/assistant/plans/${namedPlan.data.plan_id}`, { token: w.token })).body.workflow.inputs, { library: kinase });
    });
  });
}
