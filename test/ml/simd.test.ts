// The WebAssembly SIMD kernels of the fused D-MPNN (src/ml/simd-kernels.as): the committed
// module is the source's compilation, and each kernel gives what a plain loop gives, for sizes
// that fill the 4 x 8 blocks and sizes that leave tails.
// Run: node --import tsx --test test/ml/simd.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileSimd, moduleText } from '../../scripts/ml/build-simd.js';
import { Prng } from '../../src/ml/prng.js';
import { Arena } from '../../src/ml/simd.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Random floats into a new region of the arena; returns its byte offset. */
function fill(a: Arena, values: ArrayLike<number>): number {
  const at = a.alloc(values.length);
  a.commit();
  a.f32.set(values as Float32Array, at / 4);
  return at;
}
const rand = (rng: Prng, n: number) => Float32Array.from({ length: n }, () => rng.uniform(-1, 1));
const read = (a: Arena, at: number, n: number) => a.f32.slice(at / 4, at / 4 + n);

describe('SIMD kernels', () => {
  test('src/ml/simd-wasm.ts is the compilation of src/ml/simd-kernels.as (npm run build:simd)', async () => {
    const committed = fs.readFileSync(path.join(root, 'src/ml/simd-wasm.ts'), 'utf8');
    assert.equal(committed, moduleText(await compileSimd()));
  });

  test('gemm: A B, A^T B, accumulating, against a float32 loop in the same order, bit for bit', () => {
    const rng = new Prng(1);
    for (const [m, k, n] of [
      [8, 16, 16],
      [13, 7, 11],
      [1, 3, 5],
      [6, 0, 9],
      [17, 33, 300],
    ] as const) {
      for (const transposed of [false, true]) {
        for (const acc of [0, 1]) {
          const a = new Arena();
          const A = rand(rng, m * k);
          const B = rand(rng, k * n);
          const C0 = rand(rng, m * n);
          const pa = fill(a, A);
          const pb = fill(a, B);
          const pc = fill(a, C0);
          const scratch = a.alloc(k * (n + 4));
          a.commit();
          // A stored as m x k, or transposed: k x m
          const at = (i: number, p: number) => (transposed ? (A[p * m + i] as number) : (A[i * k + p] as number));
          if (transposed) a.k.gemm(pa, 1, m, pb, n, pc, n, m, k, n, acc, scratch);
          else a.k.gemm(pa, k, 1, pb, n, pc, n, m, k, n, acc, scratch);
          const got = read(a, pc, m * n);
          for (let i = 0; i < m; i++) {
            for (let j = 0; j < n; j++) {
              let s = 0;
              for (let p = 0; p < k; p++) s = Math.fround(s + Math.fround(at(i, p) * (B[p * n + j] as number)));
              const want = acc ? Math.fround((C0[i * n + j] as number) + s) : s;
              assert.equal(got[i * n + j], want, `${m}x${k}x${n} transposed ${transposed} acc ${acc}: C[${i}][${j}]`);
            }
          }
        }
      }
    }
  });

  test('gathers, segment sums, bias, column sums, ReLU and its gradient, transpose', () => {
    const rng = new Prng(2);
    const a = new Arena();
    const w = 7;
    const rows = 5;
    const X = rand(rng, rows * w);
    const Y = rand(rng, rows * w);
    const px = fill(a, X);
    const py = fill(a, Y);
    const idx = [4, 0, 0, 2, 3, 1];
    const pi = a.alloc(idx.length);
    const pj = a.alloc(idx.length);
    a.commit();
    a.i32.set(idx, pi / 4);
    a.i32.set([1, 2, 3, 4, 0, 0], pj / 4);
    const out = a.alloc(idx.length * w);
    a.commit();
    const row = (v: Float32Array, r: number) => Array.from(v.subarray(r * w, (r + 1) * w));

    a.k.gatherRows(out, px, pi, idx.length, w, 0);
    idx.forEach((r, i) => assert.deepEqual(row(read(a, out, idx.length * w), i), row(X, r)));
    a.k.gatherRows(out, px, pi, idx.length, w, 1);
    idx.forEach((r, i) =>
      assert.deepEqual(
        row(read(a, out, idx.length * w), i),
        row(X, r).map((v) => Math.fround(v + v)),
      ),
    );

    a.k.gatherSubRows(out, px, pi, py, pj, idx.length, w);
    const j = [1, 2, 3, 4, 0, 0];
    idx.forEach((r, i) =>
      assert.deepEqual(
        row(read(a, out, idx.length * w), i),
        row(X, r).map((v, c) => Math.fround(v - (Y[(j[i] as number) * w + c] as number))),
      ),
    );

    // segment sum of the 5 rows into 3 segments, rows ascending
    const seg = a.alloc(rows);
    a.commit();
    a.i32.set([2, 0, 2, 1, 0], seg / 4);
    a.k.segmentSum(out, px, seg, rows, 3, w);
    const sums = read(a, out, 3 * w);
    for (let c = 0; c < w; c++) {
      assert.equal(sums[c], Math.fround((X[w + c] as number) + (X[4 * w + c] as number)));
      assert.equal(sums[w + c], X[3 * w + c]);
      assert.equal(sums[2 * w + c], Math.fround((X[c] as number) + (X[2 * w + c] as number)));
    }

    const bias = fill(a, rand(rng, w));
    const b = read(a, bias, w);
    const pz = fill(a, X);
    a.k.addBias(pz, bias, rows, w);
    assert.deepEqual(
      read(a, pz, rows * w),
      X.map((v, i) => Math.fround(v + (b[i % w] as number))),
    );

    a.k.columnSum(out, px, rows, w, 0);
    for (let c = 0; c < w; c++) {
      let s = 0;
      for (let r = 0; r < rows; r++) s = Math.fround(s + (X[r * w + c] as number));
      assert.equal(read(a, out, w)[c], s);
    }

    const pr = fill(a, X);
    a.k.relu(pr, rows * w);
    const relu = read(a, pr, rows * w);
    assert.deepEqual(
      relu,
      X.map((v) => Math.max(v, 0)),
    );
    a.k.reluBackward(out, py, pr, rows * w, 2);
    assert.deepEqual(
      read(a, out, rows * w),
      Y.map((g, i) => ((relu[i] as number) > 0 ? Math.fround(g * 2) : 0)),
    );

    a.k.transpose(out, px, rows, w);
    const t = read(a, out, rows * w);
    for (let r = 0; r < rows; r++) for (let c = 0; c < w; c++) assert.equal(t[c * rows + r], X[r * w + c]);
  });
});
