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
import { JobInputError } from '../job-type.js';
import { chemPool, clip, inputSummary, libraryEstimate, libraryFields, libraryJob, loadLibrary, MAX_SMILES_CHARS, moleculeSet, MORGAN, smilesRecord } from './molecule-jobs.js';
import { InputSummary, labelFields, MorganFingerprint } from './result-parts.js';

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

/** GET /jobs/result of a similarity_search job: `job_type`, these fields, then its ports and errors (libraryJob). */
const ResultFields = {
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
};

export const similaritySearchJob = libraryJob<Payload>(
  'similarity_search',
  { hits: 'molecules' },
  {
    methods: ['smiles', 'morgan', 'similarity'],
    summary: 'Molecules of a library most similar to a query SMILES (Tanimoto on Morgan fingerprints, radius 2, 2048 bits), above a threshold, best top_k',
    payload: Payload,
    result: { fields: ResultFields, description: 'similarity_search: the library molecules most similar to the query' },

    async estimate(p, ctx) {
      const bad = smilesShapeError(p.query.trim().split(/\s+/)[0] ?? '');
      if (bad) throw invalid(['query'], `not a SMILES: ${bad}`, p.query);
      return libraryEstimate(p, ctx, ['fingerprint'], { more: () => ({ fingerprint: 'Morgan radius 2, 2048 bits' }) });
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
      const library = await loadLibrary(ctx);
      const { items, errors } = library;
      const total = items.length;
      const top = new TopK(topK);
      let screened = 0;
      await library.run('morgan_similarity', { ...MORGAN, query: q.value.fp }, 'screened', (t, out) => {
        if (!out) return;
        if (out.ok && out.value.similarity !== null) {
          screened++;
          if (out.value.similarity >= threshold) top.add({ index: t.index, id: t.id, ...(t.name ? { name: t.name } : {}), smiles: t.smiles, similarity: out.value.similarity });
          return;
        }
        errors.failed(t, out);
      });
      const hits = top.result();
      return {
        result: {
          job_type: 'similarity_search',
          query: { smiles: p.query, bits_set: q.value.bits },
          fingerprint: { type: 'morgan', radius: MORGAN.radius, n_bits: MORGAN.nBits },
          metric: 'tanimoto',
          threshold,
          top_k: topK,
          input: inputSummary(p, total),
          summary: { molecules: total, screened, ...errors.breakdown(), above_threshold: top.above, returned: hits.length },
          hits,
          ports: { hits: 'the hits as a molecule set (SMILES records, metrics similarity and rank): usable as input_artifact_id with port "hits"' },
          ...errors.toJSON(),
        },
        ports: {
          hits: moleculeSet(hits.map((h) => smilesRecord(h, { similarity: h.similarity, rank: h.rank, index: h.index }))),
        },
      };
    },
  },
);
