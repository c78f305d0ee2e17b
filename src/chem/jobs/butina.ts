// Butina clustering (Butina, JCICS 39 (1999) 747) on Morgan bit vectors with Tanimoto
// distance, as RDKit's rdkit.ML.Cluster.Butina.ClusterData(dists, n, cutoff, isDistData=True)
// with the distances 1 - TanimotoSimilarity (reordering off, RDKit's default):
//
// 1. every pair (i, j) with 1 - Tanimoto(i, j) <= cutoff are neighbours;
// 2. molecules are taken by neighbour count descending (ties: higher index first);
// 3. a molecule not yet in a cluster becomes a centroid, and its neighbours not yet in a
//    cluster join it, in index order.
//
// Pass 1 (butina_count) counts neighbours, split into row ranges that run in parallel on the
// chemistry pool's threads over shared memory. Pass 2 (butina_assign) is sequential; instead
// of keeping every neighbour list (O(n^2) memory for dense sets) it recomputes the
// neighbours of each centroid among the molecules not yet assigned. Both passes return after
// `budgetMs` with how far they got, so that no item runs into the pool's item timeout and the
// job can stop between items when cancelled.
//
// Tanimoto as RDKit's TanimotoSimilarity (src/chem/similarity.ts), so neighbour decisions are
// bit-identical to native RDKit for the same fingerprints.
import { popcount, tanimoto } from '../similarity.js';
import type { ButinaAssignOptions, ButinaAssignOutcome, ButinaCountOutcome, ButinaOptions, FingerprintTable, RowRange } from './types.js';

/** Packs fingerprints (from morgan_fp) into shared memory, ordered by bits set, for the clustering passes. */
export function buildTable(fps: Uint8Array[], nBits: number): FingerprintTable {
  const n = fps.length;
  const sorted = fps.map((fp, k) => ({ k, fp, count: popcount(fp) })).sort((x, y) => x.count - y.count || x.k - y.k);
  const total = sorted.reduce((sum, e) => sum + e.count, 0);
  const t: FingerprintTable = {
    n,
    nBits,
    perm: new SharedArrayBuffer(Math.max(4, n * 4)),
    rank: new SharedArrayBuffer(Math.max(4, n * 4)),
    popcounts: new SharedArrayBuffer(Math.max(4, n * 4)),
    onBits: new SharedArrayBuffer(Math.max(2, total * 2)),
    offsets: new SharedArrayBuffer((n + 1) * 4),
  };
  const perm = new Int32Array(t.perm);
  const rank = new Int32Array(t.rank);
  const pc = new Int32Array(t.popcounts);
  const bits = new Uint16Array(t.onBits);
  const off = new Int32Array(t.offsets);
  let at = 0;
  for (const [pos, { k, fp, count }] of sorted.entries()) {
    perm[pos] = k;
    rank[k] = pos;
    pc[pos] = count;
    off[pos] = at;
    for (let byte = 0; byte < fp.length; byte++) {
      let v = fp[byte] ?? 0;
      while (v) {
        const low = v & -v;
        bits[at++] = (byte << 3) | (31 - Math.clz32(low));
        v &= v - 1;
      }
    }
  }
  off[n] = at;
  return t;
}

/** Fewest bits a neighbour of a molecule with `a` bits can have (Tanimoto <= min/max), one bit of margin for rounding. */
function minNeighbourBits(a: number, cutoff: number): number {
  return Math.max(0, Math.floor((1 - cutoff) * a) - 1);
}

/** Most bits a neighbour can have (Infinity when the cutoff admits any). */
function maxNeighbourBits(a: number, cutoff: number): number {
  return cutoff >= 1 ? Infinity : Math.ceil(a / (1 - cutoff)) + 1;
}

/** First position whose popcount is >= v (popcounts ascend). */
function lowerBound(pc: Int32Array, v: number, lo = 0, hi = pc.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((pc[mid] ?? 0) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Views of a table plus a dense scratch row, made once per task. */
class Fps {
  readonly n: number;
  readonly perm: Int32Array;
  readonly rank: Int32Array;
  readonly pc: Int32Array;
  readonly bits: Uint16Array;
  readonly off: Int32Array;
  /** The current row's bits, one byte per bit. */
  readonly row: Uint8Array;
  constructor(t: FingerprintTable) {
    this.n = t.n;
    this.perm = new Int32Array(t.perm);
    this.rank = new Int32Array(t.rank);
    this.pc = new Int32Array(t.popcounts);
    this.bits = new Uint16Array(t.onBits);
    this.off = new Int32Array(t.offsets);
    this.row = new Uint8Array(t.nBits);
  }
  setRow(pos: number, v: 0 | 1): void {
    const { bits, row, off } = this;
    for (let p = off[pos] ?? 0, end = off[pos + 1] ?? 0; p < end; p++) {
      const bit = bits[p];
      if (bit !== undefined) row[bit] = v;
    }
  }
  /** Bits the current row has in common with position j. */
  common(j: number): number {
    const { bits, row, off } = this;
    let c = 0;
    // The hottest loop of the clustering: positions and bits are in range by construction
    // (offsets ascend to the length of `bits`, bits are < nBits), so no element is undefined.
    for (let p = off[j] ?? 0, end = off[j + 1] ?? 0; p < end; p++) c += row[bits[p] ?? 0] ?? 0;
    return c;
  }
  /** The molecule (input index) at position `pos` of the popcount order. */
  molecule(pos: number): number {
    const k = this.perm[pos];
    if (k === undefined) throw new Error(`fingerprint table: position ${String(pos)} out of range (n=${String(this.n)})`);
    return k;
  }
  /** The position of molecule `idx` in the popcount order. */
  position(idx: number): number {
    const pos = this.rank[idx];
    if (pos === undefined) throw new Error(`fingerprint table: molecule ${String(idx)} out of range (n=${String(this.n)})`);
    return pos;
  }
  /** Positions [lo, hi) that can hold neighbours of a molecule with `a` bits. */
  window(a: number, cutoff: number): [number, number] {
    const lo = lowerBound(this.pc, minNeighbourBits(a, cutoff));
    const maxB = maxNeighbourBits(a, cutoff);
    const hi = maxB === Infinity ? this.n : lowerBound(this.pc, maxB + 1, lo);
    return [lo, hi];
  }
}

/** RDKit's neighbour test: 1 - Tanimoto <= cutoff, with the current row having `a` bits. */
function near(f: Fps, a: number, j: number, cutoff: number): boolean {
  return 1 - tanimoto(f.common(j), a, f.pc[j] ?? 0) <= cutoff;
}

/** Work (pairs compared) of each row of pass 1, to split it into even ranges. */
export function rowWork(t: FingerprintTable, cutoff: number): Float64Array {
  const pc = new Int32Array(t.popcounts);
  const out = new Float64Array(t.n);
  for (let i = 0; i < t.n; i++) out[i] = Math.max(0, i - lowerBound(pc, minNeighbourBits(pc[i] ?? 0, cutoff), 0, i));
  return out;
}

/**
 * Pass 1: neighbour counts of the pairs (i, j), j < i by position, for rows i in [from, to).
 * Returns when the range is done or budgetMs has passed (checked after each row).
 */
export function butinaCount(range: RowRange, o: ButinaOptions): ButinaCountOutcome {
  const f = new Fps(o.table);
  const counts = new Int32Array(o.counts);
  const started = performance.now();
  let pairs = 0;
  let i = range.from;
  while (i < range.to) {
    const a = f.pc[i] ?? 0;
    const lo = lowerBound(f.pc, minNeighbourBits(a, o.cutoff), 0, i);
    f.setRow(i, 1);
    let mine = 0;
    for (let j = lo; j < i; j++) {
      if (near(f, a, j, o.cutoff)) {
        mine++;
        Atomics.add(counts, f.molecule(j), 1);
      }
    }
    f.setRow(i, 0);
    if (mine) Atomics.add(counts, f.molecule(i), mine);
    pairs += i - lo;
    i++;
    if (performance.now() - started > o.budgetMs) break;
  }
  return { next: i, pairs };
}

/**
 * Pass 2 from position `pos` of the order: forms clusters until the order is done or budgetMs
 * has passed (checked after each cluster).
 */
export function butinaAssign(pos: number, o: ButinaAssignOptions): ButinaAssignOutcome {
  const f = new Fps(o.table);
  const counts = new Int32Array(o.counts);
  const order = new Int32Array(o.order);
  const seen = new Uint8Array(o.seen);
  const n = f.n;
  const started = performance.now();
  const clusters: number[][] = [];
  let p = pos;
  while (p < n) {
    const idx = order[p++];
    if (idx === undefined) break; // p < n = order's length
    if (seen[idx]) continue;
    seen[idx] = 1;
    const members: number[] = [];
    if ((counts[idx] ?? 0) > 0) {
      // Its neighbours not yet in a cluster (then in index order, as RDKit's neighbour lists).
      const at = f.position(idx);
      const a = f.pc[at] ?? 0;
      const [lo, hi] = f.window(a, o.cutoff);
      f.setRow(at, 1);
      for (let j = lo; j < hi; j++) {
        const k = f.molecule(j);
        if (seen[k] || !near(f, a, j, o.cutoff)) continue;
        seen[k] = 1;
        members.push(k);
      }
      f.setRow(at, 0);
      members.sort((x, y) => x - y);
    }
    clusters.push([idx, ...members]);
    if (performance.now() - started > o.budgetMs) break;
  }
  return { next: p, clusters };
}

/** Neighbour-count order of pass 2: count descending, then index descending (Python's sort(reverse=True) of (count, index)). */
export function butinaOrder(counts: Int32Array): Int32Array {
  const idx = Array.from({ length: counts.length }, (_, i) => i);
  idx.sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0) || b - a);
  return Int32Array.from(idx);
}

/** The whole algorithm in one call (tests and small inputs): clusters as index lists, centroid first. */
export function butinaCluster(fps: Uint8Array[], nBits: number, cutoff: number): number[][] {
  const table = buildTable(fps, nBits);
  const counts = new SharedArrayBuffer(Math.max(4, fps.length * 4));
  const base: ButinaOptions = { table, cutoff, counts, budgetMs: Infinity };
  butinaCount({ from: 0, to: fps.length }, base);
  const order = butinaOrder(new Int32Array(counts));
  const orderBuf = new SharedArrayBuffer(Math.max(4, order.length * 4));
  new Int32Array(orderBuf).set(order);
  const seen = new SharedArrayBuffer(Math.max(1, fps.length));
  return butinaAssign(0, { ...base, order: orderBuf, seen }).clusters;
}
