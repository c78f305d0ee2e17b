// `similarity_search`: the molecules of a library most similar to a query molecule, by
// Tanimoto similarity of Morgan fingerprints (radius 2, 2048 bits: RDKit
// GetMorganFingerprintAsBitVect(m, 2, 2048) and DataStructs.TanimotoSimilarity).
//
// Output (docs/jobs.md): result.json with the hits (similarity >= threshold, best first, at
// most top_k; ties by input order), the counts and the per-item errors; port `hits`, a
// molecule set (kind `molecules`, SMILES records, metrics similarity and rank) that another
// job can take as input_artifact_id + port "hits".
import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../errors.js';
import { smilesShapeError } from '../../chem/formats/smiles-shape.js';
import { JobInputError, type JobType, type OutputRecord } from '../job-type.js';
import { linearEstimate } from './calibration.js';
import { chemPool, clip, countLibrary, ErrorLog, failureCode, inputSummary, libraryFields, loadLibrary, MAX_SMILES_CHARS, MORGAN, phase, runChunks } from './molecule-jobs.js';
import { errorFields, InputSummary, labelFields, MorganFingerprint, portsField, resultSchema } from './result-parts.js';

export const MAX_TOP_K = 10_000;

const Payload = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: MAX_SMILES_CHARS, description: 'The query molecule, as SMILES' }),
    ...libraryFields('The library to search'),
    threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0.7, description: 'Smallest Tanimoto similarity of a hit (0..1, default 0.7)' })),
    top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TOP_K, default: 100, description: `Most hits returned, best first (1..${MAX_TOP_K}, default 100)` })),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

export interface Hit {
  rank: number;
  index: number;
  id: string;
  name?: string;
  smiles: string;
  similarity: number;
}

/** Keeps the best `k` of a stream of hits: similarity descending, then input order. */
class TopK {
  private items: Omit<Hit, 'rank'>[] = [];
  above = 0;
  constructor(private readonly k: number) {}
  add(h: Omit<Hit, 'rank'>): void {
    this.above++;
    this.items.push(h);
    if (this.items.length >= 2 * this.k + 1000) this.trim();
  }
  private trim(): void {
    this.items.sort((a, b) => b.similarity - a.similarity || a.index - b.index);
    this.items.length = Math.min(this.items.length, this.k);
  }
  result(): Hit[] {
    this.trim();
    return this.items.map((h, i) => ({ rank: i + 1, ...h }));
  }
}

const Count = Type.Integer({ minimum: 0 });

/** GET /jobs/result of a similarity_search job. */
const Result = resultSchema(
  'similarity_search',
  {
    query: Type.Object({ smiles: Type.String(), bits_set: Type.Integer({ description: "On bits of the query's fingerprint" }) }, { additionalProperties: false }),
    fingerprint: MorganFingerprint,
    metric: Type.Literal('tanimoto'),
    threshold: Type.Number(),
    top_k: Type.Integer(),
    input: InputSummary,
    summary: Type.Object(
      { molecules: Count, screened: Count, unparseable: Count, too_large: Count, failed: Count, above_threshold: Count, returned: Count },
      { additionalProperties: false },
    ),
    hits: Type.Array(Type.Object({ rank: Type.Integer({ minimum: 1 }), ...labelFields, similarity: Type.Number() }, { additionalProperties: false }), {
      description: 'Similarity >= threshold, best first (ties in input order), at most top_k',
    }),
    ports: portsField(['hits']),
    ...errorFields,
  },
  'similarity_search: the library molecules most similar to the query',
);

export const similaritySearchJob: JobType<Payload> = {
  name: 'similarity_search',
  ports: { inputs: { molecules: { type: 'molecules', field: 'input_artifact_id', portField: 'port', inline: 'smiles' } }, outputs: { hits: 'molecules' } },
  runsOn: 'chem-pool',
  methods: ['smiles', 'morgan', 'similarity'],
  summary: 'Molecules of a library most similar to a query SMILES (Tanimoto on Morgan fingerprints, radius 2, 2048 bits), above a threshold, best top_k',
  payload: Payload,
  result: Result,

  async estimate(p, ctx) {
    const bad = smilesShapeError(p.query.trim().split(/\s+/)[0] ?? '');
    if (bad) throw invalid(['query'], `not a SMILES: ${bad}`, p.query);
    const { n, source } = await countLibrary(p, ctx);
    return {
      expectedRuntimeSec: linearEstimate(n, source === 'artifact' ? ['readArtifact', 'fingerprint'] : ['fingerprint'], ctx.resource.vcpu),
      assumptions: { molecules: n, input: source, fingerprint: 'Morgan radius 2, 2048 bits', model: 'overhead + molecules x per-molecule cost (docs/jobs.md)' },
    };
  },

  async run(ctx) {
    const p = ctx.payload;
    const threshold = p.threshold ?? 0.7;
    const topK = p.top_k ?? 100;
    const pool = chemPool(ctx);
    // The query first: an unreadable query is the user's input error, found before any work.
    const q = await pool.run('morgan_fp', p.query, MORGAN);
    if (!q.ok || !q.value.fp) {
      const why = q.ok ? q.value.error : q.failure;
      throw new JobInputError(`query: RDKit cannot read ${JSON.stringify(clip(p.query, 100))} as a molecule (${why})`);
    }
    const errors = new ErrorLog();
    const items = await loadLibrary(ctx, pool, errors);
    const total = items.length;
    const top = new TopK(topK);
    let screened = 0;
    await runChunks(
      ctx,
      pool,
      'morgan_similarity',
      items,
      (t) => t.smiles,
      { ...MORGAN, query: q.value.fp },
      (t, out) => {
        if (!out) return;
        if (out.ok && out.value.similarity !== null) {
          screened++;
          if (out.value.similarity >= threshold) top.add({ index: t.index, id: t.id, ...(t.name ? { name: t.name } : {}), smiles: t.smiles, similarity: out.value.similarity });
          return;
        }
        errors.add(t, out.ok ? (out.value.error ?? 'failed') : failureCode(out), out.ok ? undefined : out.message);
      },
      phase(ctx, total, 0.05, 0.95, 'screened'),
    );
    const hits = top.result();
    const c = errors.counts;
    return {
      result: {
        job_type: 'similarity_search',
        query: { smiles: p.query, bits_set: q.value.bits },
        fingerprint: { type: 'morgan', radius: MORGAN.radius, n_bits: MORGAN.nBits },
        metric: 'tanimoto',
        threshold,
        top_k: topK,
        input: inputSummary(p, total),
        summary: {
          molecules: total,
          screened,
          unparseable: c.unparseable ?? 0,
          too_large: c.too_large ?? 0,
          failed: errors.total - (c.unparseable ?? 0) - (c.too_large ?? 0),
          above_threshold: top.above,
          returned: hits.length,
        },
        hits,
        ports: { hits: 'the hits as a molecule set (SMILES records, metrics similarity and rank): usable as input_artifact_id with port "hits"' },
        ...errors.toJSON(),
      },
      ports: {
        hits: {
          format: 'smiles',
          kind: 'molecules',
          records: hits.map((h): OutputRecord => ({
            id: h.id,
            files: { primary: { name: 'molecule.smi', content: `${h.smiles}\t${h.name ?? h.id}\n`, contentType: 'chemical/x-daylight-smiles' } },
            metrics: { similarity: h.similarity, rank: h.rank, index: h.index },
          })),
        },
      },
    };
  },
};
