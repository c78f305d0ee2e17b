// Progress that moves with the engine (issue 32, point 10; docs/jobs.md, "Progress"), on both
// databases: a conformer search reports its candidates optimised (n of N) and a scan its points
// (n of N), several increasing values before the end; a docking job moves past the receptor's
// preparation and reports Vina's own progress (its asterisks) while Vina runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { vinaProgressReader } from '../../src/engines/docking/vina.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { boxOf, P59_SMILES, readData, uploadFile } from './docking-helpers.js';

interface Seen {
  fraction: number;
  message: string | null;
  detail: Record<string, unknown>;
}

/**
 * Polls a job's status every 120 ms (500 a minute, under the credential's 600) until it ends; what
 * it reported while running, in order. A 429 (the file's earlier polls count too) waits out its
 * Retry-After, as a client would.
 */
async function watch(h: Harness, token: string, id: string, timeoutMs = 300_000): Promise<{ status: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = await h.req('GET', `/api/v1/jobs/status?process_id=${id}`, { token });
    if (s.status === 429) {
      await new Promise((r) => setTimeout(r, 1000 * Number(s.headers.get('retry-after') ?? 1)));
      continue;
    }
    assert.equal(s.status, 200, s.text);
    const { status, message, progress } = s.body as { status: string; message: string | null; progress: ({ fraction: number } & Record<string, unknown>) | null };
    if (['completed', 'error', 'cancelled'].includes(status)) return { status, seen };
    if (status === 'running' && progress) {
      const { fraction, ...detail } = progress;
      const last = seen.at(-1);
      if (!last || last.fraction !== fraction || last.message !== message) seen.push({ fraction, message, detail });
    }
    if (Date.now() > until) throw new Error(`job ${id} still ${status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 120));
  }
}

describe('progress: reading Vina', () => {
  it("counts Vina's asterisks after its ruler, whatever the chunks", () => {
    const told: number[] = [];
    const read = vinaProgressReader((f) => told.push(f));
    const head = 'Performing docking (random seed: 1) ... \n0%   10   20   30   40   50   60   70   80   90   100%\n|----|----|----|';
    read(Buffer.from(head));
    read(Buffer.from('----|----|----|----|----|----|----|\n**'));
    for (let k = 0; k < 48; k++) read(Buffer.from('*'));
    read(Buffer.from('*\n\nmode |   affinity | dist from best mode\n   1   -9.1  0  0\n'));
    assert.equal(told.length, 50);
    assert.deepEqual([told[0], told.at(-1)], [2 / 51, 1]);
    assert.ok(told.every((f, i) => i === 0 || f > told[i - 1]!));
  });
});

for (const backend of onlyOn('postgres')) {
  describe(`progress moves with the engine (${backend.name})`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1, runtime: { heartbeatMs: 200 } });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(async () => h?.close());

    const submit = async (job_type: string, payload: object) => {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: job_type, job_type, payload } });
      assert.equal(r.status, 200, r.text);
      return r.body.process_id as string;
    };
    const increasing = (seen: Seen[], what: string, min: number) => {
      const values = [...new Set(seen.map((s) => s.fraction))];
      const trace = JSON.stringify(seen.map((s) => [s.fraction, s.message]));
      assert.ok(values.length >= min, `${what}: ${values.length} distinct progress values: ${trace}`);
      values.forEach((v, i) => assert.ok(i === 0 || v > values[i - 1]!, `${what}: progress never goes back: ${trace}`));
    };

    it('a conformer search reports its candidates optimised, n of N; its estimate counts the candidates it optimises and is within 2x of the charge', async () => {
      const id = await submit('conformers', { molecules: ['CCCCCCO'], method: 'gfn2', max_conformers: 10 });
      const { status, seen } = await watch(h, token, id);
      assert.equal(status, 'completed');
      const info = (await h.req('GET', `/api/v1/jobs/info?process_id=${id}`, { token })).body.info;
      const search = (await h.req('GET', `/api/v1/jobs/result?process_id=${id}`, { token })).body.items[0].search as { candidates: number; sent_to_gfn2: number };
      // Hexanol's 4 rotatable bonds: 3^4 candidates, at most 3 x 10; the estimate assumed what the run did (not 30 GFN2 optimisations).
      const assumed = info.assumptions as { candidates_optimized: number; gfn2_optimizations: number };
      assert.equal(assumed.candidates_optimized, 30);
      assert.ok(search.candidates <= 30 && search.candidates >= 15, `candidates ${search.candidates}`);
      assert.ok(assumed.gfn2_optimizations <= 2 * Math.max(3, search.sent_to_gfn2), `GFN2 assumed ${assumed.gfn2_optimizations}, ran ${search.sent_to_gfn2}`);
      const ratio = info.expected_billing_cost / info.charged_amount;
      assert.ok(ratio <= 2, `estimate $${info.expected_billing_cost} against the charge $${info.charged_amount}: ${ratio.toFixed(2)}x`);
      increasing(seen, 'conformers', 3);
      const counted = seen.filter((s) => /(gfnff|gfn2) \d+ of \d+ candidates/.test(s.message ?? ''));
      assert.ok(counted.length >= 2, `candidates counted: ${JSON.stringify(seen.map((s) => s.message))}`);
      assert.ok(counted.every((s) => typeof s.detail.done === 'number' && typeof s.detail.total === 'number' && (s.detail.done as number) <= (s.detail.total as number)));
    });

    it('a scan reports its points, n of N', async () => {
      const { status, seen } = await watch(h, token, await submit('scan', { molecules: ['CCCC'], method: 'gfn2', dihedral: [0, 1, 2, 3], start_deg: 0, end_deg: 330, steps: 12 }));
      assert.equal(status, 'completed');
      increasing(seen, 'scan', 3);
      const points = seen.map((s) => /point (\d+) of 12/.exec(s.message ?? '')?.[1]).filter(Boolean);
      assert.ok(points.length >= 3, `points reported: ${JSON.stringify(seen.map((s) => s.message))}`);
      assert.ok(seen.every((s) => !/point/.test(s.message ?? '') || s.detail.total === 12));
      assert.ok(seen.some((s) => typeof s.detail.done === 'number' && s.detail.done > 0 && s.detail.done < 12));
    });

    it("docking moves past the receptor's preparation and reports Vina's progress while Vina runs", async () => {
      const receptor = await uploadFile(h, token, '5x72_receptorH.pdb', readData('5x72_receptorH.pdb'));
      const id = await submit('docking', { molecules: [P59_SMILES], receptor_artifact_id: receptor, box: boxOf('5x72'), exhaustiveness: 2 });
      const { status, seen } = await watch(h, token, id);
      assert.equal(status, 'completed');
      // The estimate counts p59's own torsions (RDKit's 2 rotatable bonds), not heavy atoms / 5 (24 / 5: 5).
      assert.deepEqual((await h.req('GET', `/api/v1/jobs/info?process_id=${id}`, { token })).body.info.assumptions.torsions, [2]);
      const preparing = seen.find((s) => /preparing the receptor/.test(s.message ?? ''))?.fraction ?? 0.01;
      const docking = seen.filter((s) => /docking with Vina, \d+%/.test(s.message ?? ''));
      assert.ok(docking.length >= 2, `Vina's progress reported: ${JSON.stringify(seen.map((s) => [s.fraction, s.message]))}`);
      assert.ok(
        docking.every((s) => s.fraction > preparing),
        'past the preparation',
      );
      const percents = docking.map((s) => Number(/(\d+)%/.exec(s.message!)![1]));
      assert.ok(
        percents.some((p) => p > 0 && p < 100),
        `a percentage between 0 and 100: ${percents.join(', ')}`,
      );
      // Then the poses' checks (docs/structure.md, "Docking's poses"), after Vina and before the end.
      const checking = seen.filter((s) => /checking the poses, \d+ of \d+/.test(s.message ?? ''));
      assert.ok(checking.length >= 1 && checking.every((s) => s.fraction >= docking[docking.length - 1]!.fraction), JSON.stringify(seen.map((s) => [s.fraction, s.message])));
      increasing(seen, 'docking', 3);
    });
  });
}
