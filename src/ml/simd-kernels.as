// AssemblyScript source of the WebAssembly SIMD kernels of the fused D-MPNN (src/ml/fused.ts;
// docs/models.md, "Speed"). Compiled by `npm run build:simd` (scripts/ml/build-simd.ts, the
// assemblyscript package from npm) into src/ml/simd-wasm.ts; test/ml/simd.test.ts checks that
// the committed module is this source's compilation.
//
// Every argument named like an array is a byte offset into the module's memory: float32 arrays
// row-major, index arrays int32. Rows have `w` floats. Sums run in a fixed order (ascending
// row, ascending inner index), each lane of a 4-wide vector as its scalar tail would, so that a
// result never depends on where the blocking puts it, and float32 rounding after every step
// (a multiply, then an add: no fused multiply-add).

/**
 * C (m x n) = op(A) (m x k) B (k x n), or C += it when `acc`. Element (i, p) of op(A) is at
 * a + 4 (i sai + p sap) (A row-major: sai = lda, sap = 1; A transposed: sai = 1, sap = lda); B and
 * C are row-major with leading dimensions ldb and ldc. 4 x 8 register blocks over packed panels:
 * B's columns in blocks of 8, each block k rows of 8 contiguous floats, and 4 rows of op(A) as
 * k groups of 4, in `scratch` (k (8 floor(n / 8) + 4) floats), so that the inner loop reads
 * both in order (the transposed A of a weight gradient, X^T dZ, gains most).
 */
export function gemm(a: usize, sai: i32, sap: i32, b: usize, ldb: i32, c: usize, ldc: i32, m: i32, k: i32, n: i32, acc: i32, scratch: usize): void {
  const sp = (<usize>sap) << 2;
  const sb = (<usize>ldb) << 2;
  const sc = (<usize>ldc) << 2;
  const nb = n >> 3;
  const panel = (<usize>k) << 5; // bytes of one packed 8-column block of B
  for (let jb = 0; jb < nb; jb++) {
    let dst = scratch + (<usize>jb) * panel;
    let src = b + ((<usize>jb) << 5);
    for (let p = 0; p < k; p++) {
      v128.store(dst, v128.load(src));
      v128.store(dst, v128.load(src, 16), 16);
      dst += 32;
      src += sb;
    }
  }
  const packedA = scratch + (<usize>nb) * panel;
  let i = 0;
  for (; i + 4 <= m; i += 4) {
    const ar0 = a + ((<usize>(i * sai)) << 2);
    const ar1 = ar0 + ((<usize>sai) << 2);
    const ar2 = ar1 + ((<usize>sai) << 2);
    const ar3 = ar2 + ((<usize>sai) << 2);
    const pc0 = c + ((<usize>(i * ldc)) << 2);
    const pc1 = pc0 + sc;
    const pc2 = pc1 + sc;
    const pc3 = pc2 + sc;
    if (nb > 0) {
      let dst = packedA;
      let off: usize = 0;
      for (let p = 0; p < k; p++) {
        store<f32>(dst, load<f32>(ar0 + off));
        store<f32>(dst, load<f32>(ar1 + off), 4);
        store<f32>(dst, load<f32>(ar2 + off), 8);
        store<f32>(dst, load<f32>(ar3 + off), 12);
        dst += 16;
        off += sp;
      }
    }
    let j = 0;
    for (; j + 8 <= n; j += 8) {
      let c00 = f32x4.splat(0);
      let c01 = f32x4.splat(0);
      let c10 = f32x4.splat(0);
      let c11 = f32x4.splat(0);
      let c20 = f32x4.splat(0);
      let c21 = f32x4.splat(0);
      let c30 = f32x4.splat(0);
      let c31 = f32x4.splat(0);
      let pb = scratch + (<usize>(j >> 3)) * panel;
      let pa = packedA;
      for (let p = 0; p < k; p++) {
        const b0 = v128.load(pb);
        const b1 = v128.load(pb, 16);
        const a0 = v128.load32_splat(pa);
        const a1 = v128.load32_splat(pa, 4);
        const a2 = v128.load32_splat(pa, 8);
        const a3 = v128.load32_splat(pa, 12);
        c00 = f32x4.add(c00, f32x4.mul(a0, b0));
        c01 = f32x4.add(c01, f32x4.mul(a0, b1));
        c10 = f32x4.add(c10, f32x4.mul(a1, b0));
        c11 = f32x4.add(c11, f32x4.mul(a1, b1));
        c20 = f32x4.add(c20, f32x4.mul(a2, b0));
        c21 = f32x4.add(c21, f32x4.mul(a2, b1));
        c30 = f32x4.add(c30, f32x4.mul(a3, b0));
        c31 = f32x4.add(c31, f32x4.mul(a3, b1));
        pb += 32;
        pa += 16;
      }
      const o = (<usize>j) << 2;
      if (acc) {
        c00 = f32x4.add(v128.load(pc0 + o), c00);
        c01 = f32x4.add(v128.load(pc0 + o, 16), c01);
        c10 = f32x4.add(v128.load(pc1 + o), c10);
        c11 = f32x4.add(v128.load(pc1 + o, 16), c11);
        c20 = f32x4.add(v128.load(pc2 + o), c20);
        c21 = f32x4.add(v128.load(pc2 + o, 16), c21);
        c30 = f32x4.add(v128.load(pc3 + o), c30);
        c31 = f32x4.add(v128.load(pc3 + o, 16), c31);
      }
      v128.store(pc0 + o, c00);
      v128.store(pc0 + o, c01, 16);
      v128.store(pc1 + o, c10);
      v128.store(pc1 + o, c11, 16);
      v128.store(pc2 + o, c20);
      v128.store(pc2 + o, c21, 16);
      v128.store(pc3 + o, c30);
      v128.store(pc3 + o, c31, 16);
    }
    for (; j + 4 <= n; j += 4) {
      let c0 = f32x4.splat(0);
      let c1 = f32x4.splat(0);
      let c2 = f32x4.splat(0);
      let c3 = f32x4.splat(0);
      let pb = b + ((<usize>j) << 2);
      let off: usize = 0;
      for (let p = 0; p < k; p++) {
        const b0 = v128.load(pb);
        c0 = f32x4.add(c0, f32x4.mul(v128.load32_splat(ar0 + off), b0));
        c1 = f32x4.add(c1, f32x4.mul(v128.load32_splat(ar1 + off), b0));
        c2 = f32x4.add(c2, f32x4.mul(v128.load32_splat(ar2 + off), b0));
        c3 = f32x4.add(c3, f32x4.mul(v128.load32_splat(ar3 + off), b0));
        pb += sb;
        off += sp;
      }
      const o = (<usize>j) << 2;
      if (acc) {
        c0 = f32x4.add(v128.load(pc0 + o), c0);
        c1 = f32x4.add(v128.load(pc1 + o), c1);
        c2 = f32x4.add(v128.load(pc2 + o), c2);
        c3 = f32x4.add(v128.load(pc3 + o), c3);
      }
      v128.store(pc0 + o, c0);
      v128.store(pc1 + o, c1);
      v128.store(pc2 + o, c2);
      v128.store(pc3 + o, c3);
    }
    for (; j < n; j++) {
      dotColumn(ar0, sp, b, sb, pc0, j, k, acc);
      dotColumn(ar1, sp, b, sb, pc1, j, k, acc);
      dotColumn(ar2, sp, b, sb, pc2, j, k, acc);
      dotColumn(ar3, sp, b, sb, pc3, j, k, acc);
    }
  }
  for (; i < m; i++) {
    const ar = a + ((<usize>(i * sai)) << 2);
    const pc = c + ((<usize>(i * ldc)) << 2);
    let j = 0;
    for (; j + 4 <= n; j += 4) {
      let c0 = f32x4.splat(0);
      let pb = b + ((<usize>j) << 2);
      let off: usize = 0;
      for (let p = 0; p < k; p++) {
        c0 = f32x4.add(c0, f32x4.mul(v128.load32_splat(ar + off), v128.load(pb)));
        pb += sb;
        off += sp;
      }
      const o = (<usize>j) << 2;
      if (acc) c0 = f32x4.add(v128.load(pc + o), c0);
      v128.store(pc + o, c0);
    }
    for (; j < n; j++) dotColumn(ar, sp, b, sb, pc, j, k, acc);
  }
}

/** C[j] (+)= sum over p of A[p] B[p][j], in the order of the vector lanes. */
@inline
function dotColumn(ar: usize, sp: usize, b: usize, sb: usize, pc: usize, j: i32, k: i32, acc: i32): void {
  let s: f32 = 0;
  let pb = b + ((<usize>j) << 2);
  let off: usize = 0;
  for (let p = 0; p < k; p++) {
    s = s + load<f32>(ar + off) * load<f32>(pb);
    pb += sb;
    off += sp;
  }
  const o = pc + ((<usize>j) << 2);
  store<f32>(o, acc ? load<f32>(o) + s : s);
}

/** out[r] = x[idx[r]] for r < n (rows of w floats); with `acc`, out[r] += x[idx[r]]. */
export function gatherRows(out: usize, x: usize, idx: usize, n: i32, w: i32, acc: i32): void {
  const bytes = (<usize>w) << 2;
  for (let r = 0; r < n; r++) {
    const src = x + (<usize>load<i32>(idx + ((<usize>r) << 2))) * bytes;
    const dst = out + (<usize>r) * bytes;
    if (acc) addRow(dst, src, w);
    else memory.copy(dst, src, bytes);
  }
}

/** out[r] = x[ix[r]] - y[iy[r]] for r < n. */
export function gatherSubRows(out: usize, x: usize, ix: usize, y: usize, iy: usize, n: i32, w: i32): void {
  const bytes = (<usize>w) << 2;
  for (let r = 0; r < n; r++) {
    const px = x + (<usize>load<i32>(ix + ((<usize>r) << 2))) * bytes;
    const py = y + (<usize>load<i32>(iy + ((<usize>r) << 2))) * bytes;
    const po = out + (<usize>r) * bytes;
    let c = 0;
    for (; c + 4 <= w; c += 4) {
      const o = (<usize>c) << 2;
      v128.store(po + o, f32x4.sub(v128.load(px + o), v128.load(py + o)));
    }
    for (; c < w; c++) {
      const o = (<usize>c) << 2;
      store<f32>(po + o, load<f32>(px + o) - load<f32>(py + o));
    }
  }
}

/** out (nSeg rows) = 0, then out[seg[r]] += x[r] for r < n in ascending r. */
export function segmentSum(out: usize, x: usize, seg: usize, n: i32, nSeg: i32, w: i32): void {
  const bytes = (<usize>w) << 2;
  memory.fill(out, 0, (<usize>nSeg) * bytes);
  for (let r = 0; r < n; r++) {
    addRow(out + (<usize>load<i32>(seg + ((<usize>r) << 2))) * bytes, x + (<usize>r) * bytes, w);
  }
}

@inline
function addRow(dst: usize, src: usize, w: i32): void {
  let c = 0;
  for (; c + 4 <= w; c += 4) {
    const o = (<usize>c) << 2;
    v128.store(dst + o, f32x4.add(v128.load(dst + o), v128.load(src + o)));
  }
  for (; c < w; c++) {
    const o = (<usize>c) << 2;
    store<f32>(dst + o, load<f32>(dst + o) + load<f32>(src + o));
  }
}

/** x[r] += bias for each of `rows` rows. */
export function addBias(x: usize, bias: usize, rows: i32, w: i32): void {
  const bytes = (<usize>w) << 2;
  for (let r = 0; r < rows; r++) addRow(x + (<usize>r) * bytes, bias, w);
}

/** out[c] (+)= sum over rows of x[r][c], rows ascending. */
export function columnSum(out: usize, x: usize, rows: i32, w: i32, acc: i32): void {
  const bytes = (<usize>w) << 2;
  if (!acc) memory.fill(out, 0, bytes);
  for (let r = 0; r < rows; r++) addRow(out, x + (<usize>r) * bytes, w);
}

/** x = max(x, 0), n floats. */
export function relu(x: usize, n: i32): void {
  const zero = f32x4.splat(0);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = x + ((<usize>i) << 2);
    v128.store(o, f32x4.max(v128.load(o), zero));
  }
  for (; i < n; i++) {
    const o = x + ((<usize>i) << 2);
    store<f32>(o, max<f32>(load<f32>(o), 0));
  }
}

/** out = h > 0 ? g * scale : 0, n floats (the gradient through ReLU and inverted dropout, from the output h). */
export function reluBackward(out: usize, g: usize, h: usize, n: i32, scale: f32): void {
  const zero = f32x4.splat(0);
  const s = f32x4.splat(scale);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = (<usize>i) << 2;
    v128.store(out + o, v128.and(f32x4.mul(v128.load(g + o), s), f32x4.gt(v128.load(h + o), zero)));
  }
  for (; i < n; i++) {
    const o = (<usize>i) << 2;
    store<f32>(out + o, load<f32>(h + o) > 0 ? load<f32>(g + o) * scale : 0);
  }
}

/** x += y, n floats. */
export function addInPlace(x: usize, y: usize, n: i32): void {
  addRow(x, y, n);
}

/** x *= m, n floats (a dropout mask of 0 and 1 / (1 - rate)). */
export function mulInPlace(x: usize, m: usize, n: i32): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = x + ((<usize>i) << 2);
    v128.store(o, f32x4.mul(v128.load(o), v128.load(m + ((<usize>i) << 2))));
  }
  for (; i < n; i++) {
    const o = (<usize>i) << 2;
    store<f32>(x + o, load<f32>(x + o) * load<f32>(m + o));
  }
}

/** out (c x r) = x (r x c) transposed. */
export function transpose(out: usize, x: usize, r: i32, c: i32): void {
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < c; j++) store<f32>(out + ((<usize>(j * r + i)) << 2), load<f32>(x + ((<usize>(i * c + j)) << 2)));
  }
}
