// Faster CPU kernels for the tfjs engine (dmpnn.ts; the default fused engine, fused.ts, does not
// use tfjs) for the graph operations and matrix products of message passing, replacing
// tfjs-backend-cpu's (forward computations only: the gradients stay tfjs's registered ones: the
// gradient of a gather is an unsorted segment sum and the other way round, that of a matrix
// product two matrix products).
//
// - UnsortedSegmentSum: tfjs's CPU kernel builds a mask per segment and sums it, O(segments x
//   rows x columns) with three temporary tensors per segment; one atom per segment made a
//   forward pass over 50 molecules take 20 s. Here: one pass over the rows, O(rows x columns).
// - GatherV2 along axis 0 (batchDims 0): tfjs's kernel computes coordinates element by element;
//   here whole rows are copied. Other gathers go to tfjs's kernel.
// - BatchMatMul of two matrices (rank 2): tfjs's kernel reaches about 0.8 GFLOP/s here; this one,
//   4 x 4 register blocks over a row-major A and a row-major B transposed, about 4 (sums in
//   double precision, rounded once to float32). Batched products go to tfjs's kernel.
// - Add, Sub, Multiply of two float32 tensors of one shape, or with a bias row or a scalar, and
//   Sum over the rows of a matrix (the bias gradient): tfjs's kernels take a modulo, or
//   coordinates, per element, and its Sum transposes the matrix first; Transpose when nothing
//   moves (the gather gradient asks for one) or of a matrix. Other cases go to tfjs.
import * as tf from '@tensorflow/tfjs-core';

interface CpuTensorInfo {
  dataId: object;
  shape: number[];
  dtype: tf.DataType;
}
interface CpuBackend {
  data: { get(dataId: object): { values: tf.TypedArray } };
  makeTensorInfo(shape: number[], dtype: tf.DataType, values: tf.TypedArray): CpuTensorInfo;
}
type KernelArgs = { inputs: Record<string, CpuTensorInfo>; backend: CpuBackend; attrs: Record<string, unknown> };
type KernelFunc = (args: KernelArgs) => CpuTensorInfo;

function newArray(dtype: tf.DataType, size: number): tf.TypedArray {
  return dtype === 'int32' ? new Int32Array(size) : new Float32Array(size);
}

const unsortedSegmentSum: KernelFunc = ({ inputs, backend, attrs }) => {
  const x = inputs.x as CpuTensorInfo;
  const ids = inputs.segmentIds as CpuTensorInfo;
  const numSegments = attrs.numSegments as number;
  const xv = backend.data.get(x.dataId).values;
  const iv = backend.data.get(ids.dataId).values;
  const rows = iv.length;
  const width = rows === 0 ? x.shape.slice(ids.shape.length).reduce((a, b) => a * b, 1) : xv.length / rows;
  const out = newArray(x.dtype, numSegments * width);
  for (let r = 0; r < rows; r++) {
    const s = iv[r] as number;
    if (s < 0 || s >= numSegments) continue;
    const o = s * width;
    const i = r * width;
    for (let c = 0; c < width; c++) out[o + c] = (out[o + c] as number) + (xv[i + c] as number);
  }
  return backend.makeTensorInfo([numSegments, ...x.shape.slice(ids.shape.length)], x.dtype, out);
};

function rowGather(fallback: KernelFunc): KernelFunc {
  return (args) => {
    const { inputs, backend, attrs } = args;
    const x = inputs.x as CpuTensorInfo;
    const indices = inputs.indices as CpuTensorInfo;
    const axis = attrs.axis as number;
    if (axis !== 0 || ((attrs.batchDims as number | undefined) ?? 0) !== 0 || x.dtype === 'string') return fallback(args);
    const xv = backend.data.get(x.dataId).values;
    const iv = backend.data.get(indices.dataId).values;
    const n = x.shape[0] as number;
    const width = x.shape.slice(1).reduce((a, b) => a * b, 1);
    const out = newArray(x.dtype, iv.length * width);
    for (let k = 0; k < iv.length; k++) {
      const r = iv[k] as number;
      if (r < 0 || r >= n) throw new Error(`GatherV2: the index value ${r} is not in [0, ${n - 1}]`);
      out.set(xv.subarray(r * width, (r + 1) * width), k * width);
    }
    return backend.makeTensorInfo([...indices.shape, ...x.shape.slice(1)], x.dtype, out);
  };
}

/** C = op(A) op(B) for rank-2 inputs; op transposes when asked. */
function matMul2d(av: tf.TypedArray, bv: tf.TypedArray, m: number, k: number, n: number, transposeA: boolean, transposeB: boolean): Float32Array {
  // A as m x k row-major
  let a = av;
  if (transposeA) {
    a = new Float32Array(m * k);
    for (let p = 0; p < k; p++) for (let i = 0; i < m; i++) a[i * k + p] = av[p * m + i] as number;
  }
  // B transposed, n x k row-major
  let bt = bv;
  if (!transposeB) {
    bt = new Float32Array(n * k);
    for (let p = 0; p < k; p++) for (let j = 0; j < n; j++) bt[j * k + p] = bv[p * n + j] as number;
  }
  const c = new Float32Array(m * n);
  let i = 0;
  for (; i + 3 < m; i += 4) {
    const a0 = i * k;
    const a1 = a0 + k;
    const a2 = a1 + k;
    const a3 = a2 + k;
    let j = 0;
    for (; j + 3 < n; j += 4) {
      const b0 = j * k;
      const b1 = b0 + k;
      const b2 = b1 + k;
      const b3 = b2 + k;
      let s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0; // prettier-ignore
      let s20 = 0, s21 = 0, s22 = 0, s23 = 0, s30 = 0, s31 = 0, s32 = 0, s33 = 0; // prettier-ignore
      for (let p = 0; p < k; p++) {
        const x0 = a[a0 + p] as number;
        const x1 = a[a1 + p] as number;
        const x2 = a[a2 + p] as number;
        const x3 = a[a3 + p] as number;
        const y0 = bt[b0 + p] as number;
        const y1 = bt[b1 + p] as number;
        const y2 = bt[b2 + p] as number;
        const y3 = bt[b3 + p] as number;
        s00 += x0 * y0;
        s01 += x0 * y1;
        s02 += x0 * y2;
        s03 += x0 * y3; // prettier-ignore
        s10 += x1 * y0;
        s11 += x1 * y1;
        s12 += x1 * y2;
        s13 += x1 * y3; // prettier-ignore
        s20 += x2 * y0;
        s21 += x2 * y1;
        s22 += x2 * y2;
        s23 += x2 * y3; // prettier-ignore
        s30 += x3 * y0;
        s31 += x3 * y1;
        s32 += x3 * y2;
        s33 += x3 * y3; // prettier-ignore
      }
      const c0 = i * n + j;
      const c1 = c0 + n;
      const c2 = c1 + n;
      const c3 = c2 + n;
      c[c0] = s00;
      c[c0 + 1] = s01;
      c[c0 + 2] = s02;
      c[c0 + 3] = s03; // prettier-ignore
      c[c1] = s10;
      c[c1 + 1] = s11;
      c[c1 + 2] = s12;
      c[c1 + 3] = s13; // prettier-ignore
      c[c2] = s20;
      c[c2 + 1] = s21;
      c[c2 + 2] = s22;
      c[c2 + 3] = s23; // prettier-ignore
      c[c3] = s30;
      c[c3 + 1] = s31;
      c[c3 + 2] = s32;
      c[c3 + 3] = s33; // prettier-ignore
    }
    for (; j < n; j++) for (let r = 0; r < 4; r++) c[(i + r) * n + j] = dot(a, (i + r) * k, bt, j * k, k);
  }
  for (; i < m; i++) for (let j = 0; j < n; j++) c[i * n + j] = dot(a, i * k, bt, j * k, k);
  return c;
}

function dot(a: tf.TypedArray, ao: number, b: tf.TypedArray, bo: number, k: number): number {
  let s = 0;
  for (let p = 0; p < k; p++) s += (a[ao + p] as number) * (b[bo + p] as number);
  return s;
}

function matMul(fallback: KernelFunc): KernelFunc {
  return (args) => {
    const { inputs, backend, attrs } = args;
    const a = inputs.a as CpuTensorInfo;
    const b = inputs.b as CpuTensorInfo;
    if (a.shape.length !== 2 || b.shape.length !== 2 || a.dtype !== 'float32' || b.dtype !== 'float32') return fallback(args);
    const transposeA = attrs.transposeA === true;
    const transposeB = attrs.transposeB === true;
    const [ar, ac] = a.shape as [number, number];
    const [br, bc] = b.shape as [number, number];
    const m = transposeA ? ac : ar;
    const k = transposeA ? ar : ac;
    const n = transposeB ? br : bc;
    if ((transposeB ? bc : br) !== k) throw new Error(`MatMul: inner dimensions ${k} and ${transposeB ? bc : br} differ`);
    const c = matMul2d(backend.data.get(a.dataId).values, backend.data.get(b.dataId).values, m, k, n, transposeA, transposeB);
    return backend.makeTensorInfo([m, n], 'float32', c);
  };
}

const sameShape = (a: number[], b: number[]) => a.length === b.length && a.every((d, i) => d === b[i]);
/** True when `small` is the trailing dimensions of `big` (a row broadcast over the leading ones). */
const trailing = (big: number[], small: number[]) => small.length > 0 && small.length <= big.length && small.every((d, i) => d === big[big.length - small.length + i]);

type BinaryOp = 'add' | 'sub' | 'mul';

/** out[i] = a[i] op b[i % w] (or a[i % w] op b[i] when `swap`); one loop per op, no call per element. */
function binaryLoop(op: BinaryOp, big: tf.TypedArray, small: tf.TypedArray, swap: boolean): Float32Array {
  const out = new Float32Array(big.length);
  const w = small.length;
  if (op === 'add') {
    for (let i = 0, j = 0; i < out.length; i++, j = j + 1 === w ? 0 : j + 1) out[i] = (big[i] as number) + (small[j] as number);
  } else if (op === 'mul') {
    for (let i = 0, j = 0; i < out.length; i++, j = j + 1 === w ? 0 : j + 1) out[i] = (big[i] as number) * (small[j] as number);
  } else if (!swap) {
    for (let i = 0, j = 0; i < out.length; i++, j = j + 1 === w ? 0 : j + 1) out[i] = (big[i] as number) - (small[j] as number);
  } else {
    for (let i = 0, j = 0; i < out.length; i++, j = j + 1 === w ? 0 : j + 1) out[i] = (small[j] as number) - (big[i] as number);
  }
  return out;
}

function binary(op: BinaryOp, fallback: KernelFunc): KernelFunc {
  return (args) => {
    const { inputs, backend } = args;
    const a = inputs.a as CpuTensorInfo;
    const b = inputs.b as CpuTensorInfo;
    if (a.dtype !== 'float32' || b.dtype !== 'float32') return fallback(args);
    const av = backend.data.get(a.dataId).values;
    const bv = backend.data.get(b.dataId).values;
    if (sameShape(a.shape, b.shape) || bv.length === 1 || (trailing(a.shape, b.shape) && av.length >= bv.length)) {
      return backend.makeTensorInfo(a.shape, 'float32', binaryLoop(op, av, bv, false));
    }
    if (av.length === 1 || trailing(b.shape, a.shape)) return backend.makeTensorInfo(b.shape, 'float32', binaryLoop(op, bv, av, true));
    return fallback(args);
  };
}

/** Transposes that move nothing (tfjs's gather gradient asks for them) and matrix transposes. */
function transpose(fallback: KernelFunc): KernelFunc {
  return (args) => {
    const { inputs, backend, attrs } = args;
    const x = inputs.x as CpuTensorInfo;
    const perm = attrs.perm as number[];
    if (x.dtype === 'string' || x.dtype === 'complex64') return fallback(args);
    const xv = backend.data.get(x.dataId).values;
    if (perm.every((p, i) => p === i)) return backend.makeTensorInfo(x.shape.slice(), x.dtype, xv.slice());
    if (x.shape.length === 2 && perm[0] === 1 && perm[1] === 0) {
      const [r, c] = x.shape as [number, number];
      const out = newArray(x.dtype, r * c);
      for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out[j * r + i] = xv[i * c + j] as number;
      return backend.makeTensorInfo([c, r], x.dtype, out);
    }
    return fallback(args);
  };
}

function rowSum(fallback: KernelFunc): KernelFunc {
  return (args) => {
    const { inputs, backend, attrs } = args;
    const x = inputs.x as CpuTensorInfo;
    const axis = attrs.axis as number | number[];
    const axes = Array.isArray(axis) ? axis : [axis];
    if (x.dtype !== 'float32' || x.shape.length !== 2 || axes.length !== 1 || (axes[0] !== 0 && axes[0] !== -2)) return fallback(args);
    const [rows, cols] = x.shape as [number, number];
    const xv = backend.data.get(x.dataId).values;
    const acc = new Float64Array(cols);
    for (let r = 0; r < rows; r++) {
      const o = r * cols;
      for (let c = 0; c < cols; c++) acc[c] = (acc[c] as number) + (xv[o + c] as number);
    }
    return backend.makeTensorInfo(attrs.keepDims === true ? [1, cols] : [cols], 'float32', Float32Array.from(acc));
  };
}

/** Replaces the CPU kernel of `name` with make(tfjs's kernel). */
function replace(name: string, make: (fallback: KernelFunc) => KernelFunc): void {
  const k = tf.getKernel(name, 'cpu');
  if (!k) throw new Error(`the tfjs CPU backend has no ${name} kernel`);
  tf.unregisterKernel(name, 'cpu');
  tf.registerKernel({ ...k, kernelFunc: make(k.kernelFunc as unknown as KernelFunc) as unknown as tf.KernelFunc });
}

let registered = false;

/** Replaces the CPU kernels above (once per thread). */
export function registerGraphKernels(): void {
  if (registered) return;
  replace('GatherV2', rowGather);
  replace('UnsortedSegmentSum', () => unsortedSegmentSum);
  replace('BatchMatMul', matMul);
  replace('Add', (f) => binary('add', f));
  replace('Sub', (f) => binary('sub', f));
  replace('Multiply', (f) => binary('mul', f));
  replace('Transpose', transpose);
  replace('Sum', rowSum);
  registered = true;
}
