// What to cite for engine jobs (issue 32, point 9; docs/papers.md, "The API"), on one
// database (onlyOn): GET /papers/cite names the method, the solvation model and the program a job ran
// (from its payload), not every method its job type could run: a GFN2 gas-phase frequencies job
// cites xtb, GFN2 and the thermochemistry, and no MOPAC, PM6, PM7, COSMO, GFN1 or GFN-FF; a PM7
// job in water cites MOPAC, PM7 and COSMO (and no xtb); a GFN2 job in water cites ALPB; a
// workflow run cites the union of what its steps ran.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

interface Cited {
  job_types: string[];
  methods: string[];
  items: { id: string }[];
}

const XTB = 'bannwarth-xtb-2021';
const GFN2 = 'bannwarth-gfn2-2019';
const GFN1 = 'grimme-gfn1-2017';
const GFNFF = 'spicher-gfnff-2020';
const ALPB = 'ehlert-alpb-2021';
const PM7 = 'stewart-pm7-2013';
const PM6 = 'stewart-pm6-2007';
const MOPAC = 'mopac';
const COSMO = 'klamt-cosmo-1993';
const RRHO = 'grimme-rrho-2012';

for (const backend of onlyOn('pglite')) {
  describe(`papers: what engine jobs ran (${backend.name})`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(async () => h?.close());

    const submit = async (job_type: string, payload: object) => {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: job_type, job_type, payload } });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id as string, undefined, 240_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      return r.body.process_id as string;
    };
    const cite = async (query: string): Promise<Cited & { ids: string[] }> => {
      const r = await h.req('GET', `/api/v1/papers/cite?${query}`, { token });
      assert.equal(r.status, 200, r.text);
      return { ...(r.body as Cited), ids: (r.body as Cited).items.map((p) => p.id) };
    };
    const none = (ids: string[], absent: string[], what: string) => {
      for (const id of absent) assert.ok(!ids.includes(id), `${id} not cited for ${what} (cited: ${ids.join(', ')})`);
    };

    it('a GFN2 gas-phase frequencies job cites xtb, GFN2, the thermochemistry and Open Babel, and nothing it did not run', async () => {
      const c = await cite(`process_id=${await submit('frequencies', { molecules: ['O'], method: 'gfn2' })}`);
      assert.deepEqual(c.job_types, ['frequencies']);
      assert.deepEqual(c.methods, ['gfn2', 'openbabel', 'rdkit', 'rrho', 'xtb']);
      assert.deepEqual(c.ids.sort(), [GFN2, XTB, RRHO, 'oboyle-openbabel-2011', 'rdkit'].sort());
      none(c.ids, [PM6, PM7, MOPAC, COSMO, GFN1, GFNFF, ALPB], 'a GFN2 gas-phase frequencies job');
    });

    it('a PM7 job in water cites MOPAC, PM7 and COSMO; a GFN2 job in water cites xtb, GFN2 and ALPB', async () => {
      const pm7 = await cite(`process_id=${await submit('singlepoint', { molecules: ['O'], method: 'pm7', solvent: 'water' })}`);
      for (const id of [MOPAC, PM7, COSMO]) assert.ok(pm7.ids.includes(id), `${id} cited for a PM7 job in water`);
      assert.deepEqual(pm7.methods, ['cosmo', 'mopac', 'openbabel', 'pm7', 'rdkit']);
      none(pm7.ids, [XTB, GFN2, GFN1, GFNFF, ALPB, PM6, RRHO], 'a PM7 job in water');

      const alpb = await cite(`process_id=${await submit('singlepoint', { molecules: ['O'], method: 'gfn2', solvent: 'water' })}`);
      for (const id of [XTB, GFN2, ALPB]) assert.ok(alpb.ids.includes(id), `${id} cited for a GFN2 job in water`);
      assert.deepEqual(alpb.methods, ['alpb', 'gfn2', 'openbabel', 'rdkit', 'xtb']);
      none(alpb.ids, [MOPAC, PM7, PM6, COSMO, GFN1, GFNFF], 'a GFN2 job in water');

      // Both at once: the union of the two jobs is not asked here; a PM6 gas-phase optimisation cites PM6 and MOPAC only.
      const pm6 = await cite(`process_id=${await submit('optimize', { molecules: ['C'], method: 'pm6' })}`);
      assert.deepEqual(pm6.methods, ['mopac', 'openbabel', 'pm6', 'rdkit']);
      none(pm6.ids, [COSMO, PM7, XTB], 'a PM6 gas-phase optimisation');
    });

    it('a workflow run cites the union of what its steps ran (a GFN-FF step and a PM7 step in water)', async () => {
      const spec = {
        name: 'two engines',
        inputs: { solvent: { type: 'string', default: 'water' } },
        steps: [
          { id: 'ff', job_type: 'optimize', params: { molecules: ['O'], method: 'gfnff' } },
          { id: 'pm7', job_type: 'singlepoint', params: { molecules: ['O'], method: 'pm7', solvent: '$inputs.solvent' } },
        ],
      };
      const run = await h.req('POST', '/api/v1/workflows/runs', { token, body: { spec, inputs: {} } });
      assert.equal(run.status, 201, run.text);
      const runId = run.body.run_id as string;
      // Cited at once (steps maybe not started: their params and the run's inputs) and once it ends (their jobs).
      for (let round = 0; round < 2; round++) {
        const c = await cite(`workflow_run_id=${runId}`);
        assert.deepEqual(c.job_types, ['optimize', 'singlepoint'], `round ${round}`);
        assert.deepEqual(c.methods, ['cosmo', 'gfnff', 'mopac', 'openbabel', 'pm7', 'rdkit', 'xtb'], `round ${round}`);
        for (const id of [XTB, GFNFF, MOPAC, PM7, COSMO]) assert.ok(c.ids.includes(id), `${id} cited for the run (round ${round})`);
        none(c.ids, [GFN2, GFN1, ALPB, PM6, RRHO], `the run (round ${round})`);
        for (let i = 0; i < 600 && round === 0; i++) {
          const st = (await h.req('GET', `/api/v1/workflows/runs/${runId}`, { token })).body.status;
          if (['completed', 'failed', 'cancelled'].includes(st)) {
            assert.equal(st, 'completed');
            break;
          }
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    });
  });
}
