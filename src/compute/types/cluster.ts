// `cluster`: Butina clustering of a library on Morgan fingerprints (radius 2, 2048 bits) with
// Tanimoto distance and a distance `cutoff`, exactly as RDKit's
// rdkit.ML.Cluster.Butina.ClusterData(1 - TanimotoSimilarity distances, n, cutoff,
// isDistData=True) over the molecules RDKit can read, in input order (src/chem/jobs/butina.ts).
//
// The work grows with the square of the library (every pair is compared): the estimate
// says so, and the passes run on the chemistry pool in time slices (cancel is noticed within
// about half a second).
//
// Output (docs/jobs.md): result.json with the clusters (centroid first, members in input
// order), their sizes, each clustered molecule's cluster (index, id, name, SMILES; up to
// INLINE_ITEMS molecules), the counts and the per-item errors; port `clusters` with one JSON
// record per cluster; port `assignments`, a molecule set with one SMILES record per clustered
// molecule (metrics cluster and is_centroid).
import { Type, type Static } from '@sinclair/typebox';
import { butinaOrder, buildTable, rowWork } from '../../chem/jobs/butina.js';
import type { ButinaAssignOptions, ButinaOptions, RowRange } from '../../chem/jobs/types.js';
import type { OutputRecord } from '../job-type.js';
import { CALIBRATION } from './calibration.js';
import {
  checkAborted,
  chemPool,
  INLINE_ITEMS,
  inputSummary,
  jobLanes,
  libraryEstimate,
  libraryFields,
  libraryJob,
  loadLibrary,
  moleculeSet,
  MORGAN,
  smilesRecord,
  type LibraryItem,
} from './molecule-jobs.js';
import { InputSummary, labelFields, MorganFingerprint } from './result-parts.js';

const Payload = Type.Object(
  {
    ...libraryFields('The molecules to cluster'),
    cutoff: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        default: 0.35,
        description: 'Tanimoto distance threshold (0..1, default 0.35, i.e. similarity 0.65): two molecules are neighbours when 1 - similarity <= cutoff',
      }),
    ),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

/** Expected seconds of the pairwise passes for n molecules. */
export function pairSeconds(n: number): number {
  return (CALIBRATION.SAFETY * n * n * CALIBRATION.butinaPairNs) / 1e9;
}

/** Splits rows 0..n-1 into `parts` ranges of about equal work. */
function splitRows(work: Float64Array, parts: number): RowRange[] {
  let total = 0;
  for (const w of work) total += w;
  const out: RowRange[] = [];
  let from = 0;
  let acc = 0;
  for (const [i, w] of work.entries()) {
    acc += w;
    if (acc >= (total * (out.length + 1)) / parts && i + 1 > from) {
      out.push({ from, to: i + 1 });
      from = i + 1;
    }
  }
  if (from < work.length) out.push({ from, to: work.length });
  return out;
}

const Count = Type.Integer({ minimum: 0 });

/** GET /jobs/result of a cluster job: `job_type`, these fields, then its ports and errors (libraryJob). */
const ResultFields = {
  method: Type.Literal('butina'),
  fingerprint: MorganFingerprint,
  metric: Type.String({ description: 'tanimoto distance (1 - similarity)' }),
  cutoff: Type.Number(),
  input: InputSummary,
  summary: Type.Object(
    { molecules: Count, clustered: Count, clusters: Count, singletons: Count, largest: Count, unparseable: Count, too_large: Count, failed: Count },
    { additionalProperties: false },
  ),
  sizes: Type.Array(Count, { description: 'Cluster sizes, in cluster order' }),
  clusters: Type.Array(
    Type.Object(
      {
        cluster: Type.Integer({ minimum: 1 }),
        size: Type.Integer({ minimum: 1 }),
        centroid: Type.Object(labelFields, { additionalProperties: false }),
        members: Type.Array(Type.String(), { description: 'Molecule ids, centroid first' }),
        member_indices: Type.Array(Count),
      },
      { additionalProperties: false },
    ),
    { description: "Butina's order: largest first" },
  ),
  assignments: Type.Union(
    [Type.Array(Type.Object({ ...labelFields, cluster: Type.Integer({ minimum: 1 }), is_centroid: Type.Boolean() }, { additionalProperties: false })), Type.Null()],
    { description: 'Each clustered molecule in input order, up to 1,000 molecules (else null: the port has them)' },
  ),
  assignments_inline: Type.Boolean(),
};

export const clusterJob = libraryJob<Payload>(
  'cluster',
  { clusters: 'json', assignments: 'molecules' },
  {
    methods: ['smiles', 'morgan', 'similarity', 'butina'],
    summary: 'Butina clustering of a library on Morgan fingerprints (radius 2, 2048 bits) with a Tanimoto distance cutoff (default 0.35)',
    payload: Payload,
    result: { fields: ResultFields, description: 'cluster: Butina clusters of the molecules on Morgan fingerprints' },

    estimate: (p, ctx) =>
      libraryEstimate(p, ctx, ['fingerprint', 'writeRecord'], {
        pairSec: pairSeconds,
        more: (n) => ({ pairs: (n * (n - 1)) / 2 }),
        model: 'overhead + molecules x per-molecule cost + molecules^2 x per-pair cost (docs/jobs.md)',
      }),

    async run(ctx) {
      const cutoff = ctx.payload.cutoff ?? 0.35;
      const pool = chemPool(ctx);
      const library = await loadLibrary(ctx);
      const { items, errors } = library;
      const total = items.length;

      // Fingerprints of the molecules RDKit can read, in input order.
      const parsed: LibraryItem[] = [];
      const fps: Uint8Array[] = [];
      await library.run('morgan_fp', MORGAN, { label: 'fingerprints', from: 0.02, to: 0.15 }, (t, out) => {
        if (!out) return;
        if (out.ok && out.value.fp) {
          parsed.push(t);
          fps.push(out.value.fp);
        } else errors.failed(t, out);
      });

      const n = parsed.length;
      const clusters: number[][] = [];
      if (n > 0) {
        const table = buildTable(fps, MORGAN.nBits);
        fps.length = 0;
        const budgetMs = Math.max(20, Math.min(500, Math.floor(pool.itemTimeoutMs / 4)));
        const base: ButinaOptions = { table, cutoff, counts: new SharedArrayBuffer(Math.max(4, n * 4)), budgetMs };

        // Pass 1: neighbour counts, one time-sliced range per thread at a time.
        const work = rowWork(table, cutoff);
        let allPairs = 0;
        for (const w of work) allPairs += w;
        const lanes = jobLanes(ctx, pool);
        let pending = splitRows(work, lanes * 8);
        let donePairs = 0;
        while (pending.length) {
          checkAborted(ctx.signal);
          const now = pending.slice(0, lanes);
          const outs = await Promise.all(now.map(async (range) => ({ range, o: await pool.run('butina_count', range, base) })));
          const next: RowRange[] = [];
          for (const { range, o } of outs) {
            if (!o.ok) throw new Error(`clustering pass 1 failed: ${o.message}`);
            donePairs += o.value.pairs;
            if (o.value.next < range.to) next.push({ from: o.value.next, to: range.to });
          }
          pending = [...next, ...pending.slice(now.length)];
          ctx.progress(0.15 + (0.6 * donePairs) / Math.max(1, allPairs), `compared ${donePairs} of ${allPairs} candidate pairs`);
        }

        // Pass 2: centroids in RDKit's order, sequential and time-sliced.
        const order = butinaOrder(new Int32Array(base.counts));
        const orderBuf = new SharedArrayBuffer(Math.max(4, n * 4));
        new Int32Array(orderBuf).set(order);
        const assign: ButinaAssignOptions = { ...base, order: orderBuf, seen: new SharedArrayBuffer(Math.max(1, n)) };
        let pos = 0;
        while (pos < n) {
          checkAborted(ctx.signal);
          const o = await pool.run('butina_assign', pos, assign);
          if (!o.ok) throw new Error(`clustering pass 2 failed: ${o.message}`);
          pos = o.value.next;
          for (const c of o.value.clusters) clusters.push(c);
          ctx.progress(0.75 + (0.2 * pos) / n, `formed ${clusters.length} clusters`);
        }
      }
      checkAborted(ctx.signal);
      ctx.progress(0.95, 'writing the result');

      const member = (m: number): LibraryItem => {
        const t = parsed[m];
        if (!t) throw new Error(`clustering returned member ${m}, not one of the ${n} parsed molecules`);
        return t;
      };
      const described = clusters.map((members, k) => {
        const [first] = members;
        if (first === undefined) throw new Error(`clustering returned an empty cluster (${k + 1})`);
        const centroid = member(first);
        return {
          cluster: k + 1,
          size: members.length,
          centroid: { index: centroid.index, id: centroid.id, ...(centroid.name ? { name: centroid.name } : {}), smiles: centroid.smiles },
          members: members.map((m) => member(m).id),
          member_indices: members.map((m) => member(m).index),
        };
      });
      const clusterOf = new Int32Array(n);
      clusters.forEach((members, k) => members.forEach((m) => (clusterOf[m] = k + 1)));
      const sizes = clusters.map((c) => c.length);
      // Each clustered molecule's cluster, named as the input names it: its SMILES as given (or the
      // set's), and a set's record id and name (the `assignments` port holds them all).
      const isCentroid = (t: LibraryItem, cluster: number) => described[cluster - 1]?.member_indices[0] === t.index;
      const inline = n <= INLINE_ITEMS;
      const assignments = inline
        ? parsed.map((t, k) => ({
            index: t.index,
            id: t.id,
            ...(t.name ? { name: t.name } : {}),
            smiles: t.smiles,
            cluster: clusterOf[k] ?? 0,
            is_centroid: isCentroid(t, clusterOf[k] ?? 0),
          }))
        : null;
      return {
        result: {
          job_type: 'cluster',
          method: 'butina',
          fingerprint: { type: 'morgan', radius: MORGAN.radius, n_bits: MORGAN.nBits },
          metric: 'tanimoto distance (1 - similarity)',
          cutoff,
          input: inputSummary(ctx.payload, total),
          summary: {
            molecules: total,
            clustered: n,
            clusters: clusters.length,
            singletons: sizes.filter((s) => s === 1).length,
            largest: sizes.reduce((m, s) => (s > m ? s : m), 0),
            ...errors.breakdown(),
          },
          sizes,
          clusters: described,
          assignments,
          assignments_inline: inline,
          ports: {
            clusters: 'one JSON record per cluster (id cluster-<n>)',
            assignments: 'every clustered molecule as a molecule set (SMILES records named by the molecule ids, each line SMILES and name; metrics cluster, is_centroid and index)',
          },
          ...errors.toJSON(),
        },
        ports: {
          clusters: {
            format: 'json',
            kind: 'clusters',
            records: described.map((d): OutputRecord => ({
              id: `cluster-${d.cluster}`,
              files: { primary: { name: 'cluster.json', content: JSON.stringify(d), contentType: 'application/json' } },
              metrics: { size: d.size, centroid_index: d.centroid.index },
            })),
          },
          assignments: moleculeSet(
            parsed.map((t, k) => {
              // Every parsed molecule is in exactly one cluster; 0 (the array's fill) would mean none.
              const cluster = clusterOf[k] ?? 0;
              return smilesRecord(t, { cluster, is_centroid: isCentroid(t, cluster) ? 1 : 0, index: t.index });
            }),
          ),
        },
      };
    },
  },
);
