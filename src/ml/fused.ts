// The D-MPNN of src/ml/dmpnn.ts written directly on typed arrays: a forward pass and its
// hand-written backward pass over one batch, on the WebAssembly SIMD kernels of simd.ts, in one
// memory allocated once and grown only when a batch is larger than any before (no allocation
// per batch). Same model, same parameters and layout as dmpnn.ts (docs/models.md, "The model"
// and "Speed"); test/ml/fused.test.ts checks the outputs against the tfjs forward pass and the
// gradients against tfjs's automatic differentiation and finite differences.
//
// Forward, for a batch of A atoms, E directed bonds, M molecules, T = depth - 1:
//   Ai = XA W_ia; h0 = XE W_ib + Ai[src]; H0 = ReLU(h0)
//   t = 1..T: inc = segsum_dst(H_{t-1}); M_t = inc[src] - H_{t-1}[rev]; H_t = drop(ReLU(h0 + M_t W_h))
//   incF = segsum_dst(H_T); Ao = drop(ReLU(XA W_oa + incF W_om + b_o)); mol = scale * segsum_mol(Ao)
//   X0 = mol, or [mol, XF] with the F molecule features XF of a model that has them
//   FFN: in_0 = X0; out_k = in_k W_k + b_k; in_{k+1} = drop(ReLU(out_k))
// Backward: the same steps in reverse (the gradient of a gather is a segment sum and the other
// way round; of a ReLU followed by inverted dropout, g * scale where the output is positive).
import { ffnInputWidth, parameterShapes, type Architecture } from './dmpnn.js';
import { ATOM_FDIM as AF, BOND_FDIM as BF, type MolFeatures } from './featurize.js';
import { Prng } from './prng.js';
import { Arena } from './simd.js';

interface Layout {
  XA: number;
  XE: number;
  src: number;
  dst: number;
  rev: number;
  atomMol: number;
  /** molecule features, M x F (F > 0) */
  XF: number;
  /** the aggregated molecule vectors, M x h: ffnIn[0] itself without molecule features */
  mol: number;
  Ai: number;
  h0: number;
  /** H_0..H_T */
  H: number[];
  /** M_1..M_T at [t - 1] */
  M: number[];
  inc: number;
  incF: number;
  Ao: number;
  /** input and output of each FFN layer (ffnIn[0] is X0) */
  ffnIn: number[];
  ffnOut: number[];
  /** dropout masks (0 or 1 / (1 - rate)) of H_1..H_T, Ao and in_1..in_{L-1}; empty without dropout */
  maskH: number[];
  maskAo: number;
  maskF: number[];
  dH: number;
  dZ: number;
  dM: number;
  dh0: number;
  dA: number;
  dInc: number;
  dX: [number, number];
  dOut: number;
  /** the gemm kernel's packed panels */
  scratch: number;
}

export type LossKind = 'mse' | 'bce';

/** Floats in the parameters of a network of `arch`. */
export function parameterCount(arch: Architecture): number {
  return parameterShapes(arch).reduce((s, p) => s + p.shape.reduce((x, y) => x * y, 1), 0);
}

export class FusedNet {
  readonly arch: Architecture;
  /** floats in the parameters (and in the gradients), in parameterShapes order */
  readonly size: number;
  private readonly a: Arena;
  private readonly h: number;
  /** molecule features per molecule */
  private readonly F: number;
  private readonly T: number;
  /** byte offsets of each parameter and of its gradient */
  private readonly pOff: number[];
  private readonly gOff: number[];
  private readonly wT: number;
  private readonly base: number;
  private readonly widths: { in: number; out: number }[];
  /** the widest matrix (columns) of the network */
  private readonly maxWidth: number;
  private cap = { mols: 0, atoms: 0, edges: 0 };
  private L!: Layout;
  private nM = 0;
  private nA = 0;
  private nE = 0;
  /** aggregation scale of each molecule of the batch */
  private molScale = new Float32Array(0);
  private dropoutScale = 1;

  /** `training` false: forward passes only (no memory for the backward pass). */
  constructor(
    arch: Architecture,
    private readonly training = true,
  ) {
    this.arch = arch;
    this.a = new Arena();
    this.h = arch.hidden_size;
    this.F = arch.extra_features ?? 0;
    this.T = arch.depth - 1;
    const shapes = parameterShapes(arch);
    const sizes = shapes.map((s) => s.shape.reduce((x, y) => x * y, 1));
    this.size = sizes.reduce((x, y) => x + y, 0);
    // parameters and gradients are each one contiguous region, parameter after parameter
    const p0 = this.a.alloc(this.size);
    const g0 = this.a.alloc(this.size);
    this.pOff = [];
    this.gOff = [];
    let at = 0;
    for (const n of sizes) {
      this.pOff.push(p0 + 4 * at);
      this.gOff.push(g0 + 4 * at);
      at += n;
    }
    this.widths = [];
    for (let k = 0; k < arch.ffn_layers; k++) this.widths.push({ in: k === 0 ? ffnInputWidth(arch) : this.h, out: k === arch.ffn_layers - 1 ? 1 : this.h });
    this.wT = this.a.alloc(Math.max(this.h * this.h, ...this.widths.map((w) => w.in * w.out)));
    this.maxWidth = Math.max(this.h, ...this.widths.flatMap((w) => [w.in, w.out]));
    this.base = this.a.mark;
    this.a.commit();
    if (arch.dropout > 0) this.dropoutScale = 1 / (1 - arch.dropout);
  }

  /** The parameters, a view into the network's memory (valid until the next load). */
  get params(): Float32Array {
    const at = (this.pOff[0] as number) / 4;
    return this.a.f32.subarray(at, at + this.size);
  }

  /** The gradients of the last backward pass, a view (valid until the next load). */
  get grads(): Float32Array {
    const at = (this.gOff[0] as number) / 4;
    return this.a.f32.subarray(at, at + this.size);
  }

  setParams(values: ArrayLike<number>): void {
    this.a.f32.set(values as Float32Array, (this.pOff[0] as number) / 4);
  }

  /** Sets the parameters from per-parameter arrays (dmpnn.ts's layout). */
  setWeights(weights: readonly Float32Array[]): void {
    weights.forEach((w, i) => this.a.f32.set(w, (this.pOff[i] as number) / 4));
  }

  /** The parameters as per-parameter arrays (copies). */
  weights(): Float32Array[] {
    return parameterShapes(this.arch).map(({ shape }, i) => {
      const at = (this.pOff[i] as number) / 4;
      return this.a.f32.slice(at, at + shape.reduce((x, y) => x * y, 1));
    });
  }

  private ensure(mols: number, atoms: number, edges: number): void {
    const c = this.cap;
    if (mols <= c.mols && atoms <= c.atoms && edges <= c.edges) return;
    const grow = (need: number, have: number) => (need <= have ? have : Math.max(need, Math.ceil(have * 1.25)));
    this.cap = { mols: grow(mols, c.mols), atoms: grow(atoms, c.atoms), edges: grow(edges, c.edges) };
    const { mols: M, atoms: A, edges: E } = this.cap;
    const h = this.h;
    const a = this.a;
    const drop = this.arch.dropout > 0 && this.training;
    const back = (n: number) => (this.training ? a.alloc(n) : 0);
    a.reset(this.base);
    const range = (n: number, size: number) => Array.from({ length: n }, () => a.alloc(size));
    const F = this.F;
    const ffnIn = this.widths.map((w) => a.alloc(M * w.in));
    const wide = Math.max(h, ...this.widths.map((w) => w.in));
    this.L = {
      XA: a.alloc(A * AF),
      XE: a.alloc(E * BF),
      src: a.alloc(E),
      dst: a.alloc(E),
      rev: a.alloc(E),
      atomMol: a.alloc(A),
      XF: F ? a.alloc(M * F) : 0,
      mol: F ? a.alloc(M * h) : (ffnIn[0] as number),
      Ai: a.alloc(A * h),
      h0: a.alloc(E * h),
      H: range(this.T + 1, E * h),
      M: range(this.T, E * h),
      inc: a.alloc(A * h),
      incF: a.alloc(A * h),
      Ao: a.alloc(A * h),
      ffnIn,
      ffnOut: this.widths.map((w) => a.alloc(M * w.out)),
      maskH: drop ? range(this.T, E * h) : [],
      maskAo: drop ? a.alloc(A * h) : 0,
      maskF: drop ? range(this.widths.length - 1, M * h) : [],
      dH: back(E * h),
      dZ: back(E * h),
      dM: back(E * h),
      dh0: back(E * h),
      dA: back(A * h),
      dInc: back(A * h),
      dX: [back(M * wide), back(M * wide)],
      dOut: back(M),
      scratch: a.alloc(Math.max(E, A, M, this.maxWidth, AF) * (this.maxWidth + 4)),
    };
    a.commit();
    this.molScale = new Float32Array(M);
  }

  /** Stacks molecules src[idx[from..to)] into the network's batch (directed bonds 2b, 2b + 1 of bond b, as batch.ts). */
  load(src: readonly MolFeatures[], idx: ArrayLike<number>, from = 0, to = idx.length): void {
    let nA = 0;
    let nE = 0;
    for (let i = from; i < to; i++) {
      const m = src[idx[i] as number] as MolFeatures;
      nA += m.nAtoms;
      nE += 2 * m.nBonds;
    }
    const nM = to - from;
    this.ensure(nM, nA, nE);
    this.nM = nM;
    this.nA = nA;
    this.nE = nE;
    const { f32, i32 } = this.a;
    const L = this.L;
    const agg = this.arch.aggregation;
    const F = this.F;
    let a0 = 0;
    let e0 = 0;
    for (let k = 0; k < nM; k++) {
      const m = src[idx[from + k] as number] as MolFeatures;
      f32.set(m.atoms, L.XA / 4 + a0 * AF);
      i32.fill(k, L.atomMol / 4 + a0, L.atomMol / 4 + a0 + m.nAtoms);
      this.molScale[k] = agg === 'norm' ? 1 / this.arch.aggregation_norm : agg === 'mean' ? 1 / m.nAtoms : 1;
      if (F) {
        if (m.extra?.length !== F) throw new Error(`the network takes ${F} molecule features per molecule; a molecule has ${m.extra?.length ?? 0}`);
        f32.set(m.extra, L.XF / 4 + k * F);
      }
      for (let b = 0; b < m.nBonds; b++) {
        const e = e0 + 2 * b;
        const u = a0 + (m.bondAtoms[2 * b] as number);
        const v = a0 + (m.bondAtoms[2 * b + 1] as number);
        const row = L.XE / 4 + e * BF;
        for (let c = 0; c < BF; c++) {
          const x = m.bonds[b * BF + c] as number;
          f32[row + c] = x;
          f32[row + BF + c] = x;
        }
        i32[L.src / 4 + e] = u;
        i32[L.dst / 4 + e] = v;
        i32[L.src / 4 + e + 1] = v;
        i32[L.dst / 4 + e + 1] = u;
        i32[L.rev / 4 + e] = e + 1;
        i32[L.rev / 4 + e + 1] = e;
      }
      a0 += m.nAtoms;
      e0 += 2 * m.nBonds;
    }
  }

  private fillMask(at: number, n: number, rng: Prng): void {
    const f32 = this.a.f32;
    const p = this.arch.dropout;
    const s = this.dropoutScale;
    const o = at / 4;
    for (let i = 0; i < n; i++) f32[o + i] = rng.next() >= p ? s : 0;
  }

  /**
   * Forward pass over the loaded batch; the outputs (one per molecule, scaled regression values
   * or logits) are returned as a view. `dropoutSeed` null: evaluation (no dropout).
   */
  forward(dropoutSeed: number | null): Float32Array {
    const { k, f32 } = this.a;
    const L = this.L;
    const h = this.h;
    const { nA, nE, nM } = this;
    const [W_ia, W_ib, W_h, W_oa, W_om, b_o] = this.pOff as [number, number, number, number, number, number];
    const rng = dropoutSeed !== null && this.arch.dropout > 0 && this.training ? new Prng(dropoutSeed) : null;
    const eh = nE * h;
    k.gemm(L.XA, AF, 1, W_ia, h, L.Ai, h, nA, AF, h, 0, L.scratch);
    k.gemm(L.XE, BF, 1, W_ib, h, L.h0, h, nE, BF, h, 0, L.scratch);
    k.gatherRows(L.h0, L.Ai, L.src, nE, h, 1);
    const H0 = L.H[0] as number;
    f32.copyWithin(H0 / 4, L.h0 / 4, L.h0 / 4 + eh);
    k.relu(H0, eh);
    for (let t = 1; t <= this.T; t++) {
      const prev = L.H[t - 1] as number;
      const Ht = L.H[t] as number;
      const Mt = L.M[t - 1] as number;
      k.segmentSum(L.inc, prev, L.dst, nE, nA, h);
      k.gatherSubRows(Mt, L.inc, L.src, prev, L.rev, nE, h);
      f32.copyWithin(Ht / 4, L.h0 / 4, L.h0 / 4 + eh);
      k.gemm(Mt, h, 1, W_h, h, Ht, h, nE, h, h, 1, L.scratch);
      k.relu(Ht, eh);
      if (rng) {
        this.fillMask(L.maskH[t - 1] as number, eh, rng);
        k.mulInPlace(Ht, L.maskH[t - 1] as number, eh);
      }
    }
    k.segmentSum(L.incF, L.H[this.T] as number, L.dst, nE, nA, h);
    k.gemm(L.XA, AF, 1, W_oa, h, L.Ao, h, nA, AF, h, 0, L.scratch);
    k.gemm(L.incF, h, 1, W_om, h, L.Ao, h, nA, h, h, 1, L.scratch);
    k.addBias(L.Ao, b_o, nA, h);
    k.relu(L.Ao, nA * h);
    if (rng) {
      this.fillMask(L.maskAo, nA * h, rng);
      k.mulInPlace(L.Ao, L.maskAo, nA * h);
    }
    k.segmentSum(L.mol, L.Ao, L.atomMol, nA, nM, h);
    this.scaleMolRows(L.mol, h);
    if (this.F) this.joinFeatures();
    for (let l = 0; l < this.widths.length; l++) {
      const { in: wi, out: wo } = this.widths[l] as { in: number; out: number };
      const inp = L.ffnIn[l] as number;
      const out = L.ffnOut[l] as number;
      k.gemm(inp, wi, 1, this.pOff[6 + 2 * l] as number, wo, out, wo, nM, wi, wo, 0, L.scratch);
      k.addBias(out, this.pOff[7 + 2 * l] as number, nM, wo);
      if (l + 1 < this.widths.length) {
        const next = L.ffnIn[l + 1] as number;
        f32.copyWithin(next / 4, out / 4, out / 4 + nM * wo);
        k.relu(next, nM * wo);
        if (rng) {
          this.fillMask(L.maskF[l] as number, nM * wo, rng);
          k.mulInPlace(next, L.maskF[l] as number, nM * wo);
        }
      }
    }
    const last = L.ffnOut[this.widths.length - 1] as number;
    return f32.subarray(last / 4, last / 4 + nM);
  }

  /** ffnIn[0] = [mol, XF], row by row. */
  private joinFeatures(): void {
    const f32 = this.a.f32;
    const { h, F, L } = this;
    const w = h + F;
    const x0 = (L.ffnIn[0] as number) / 4;
    for (let m = 0; m < this.nM; m++) {
      f32.copyWithin(x0 + m * w, L.mol / 4 + m * h, L.mol / 4 + (m + 1) * h);
      f32.copyWithin(x0 + m * w + h, L.XF / 4 + m * F, L.XF / 4 + (m + 1) * F);
    }
  }

  /** The first h columns of each row of an M x (h + F) matrix, packed in place into M x h (row m moves down, never over a row not yet moved). */
  private dropFeatureColumns(at: number): void {
    const f32 = this.a.f32;
    const { h, F } = this;
    const o = at / 4;
    for (let m = 1; m < this.nM; m++) f32.copyWithin(o + m * h, o + m * (h + F), o + m * (h + F) + h);
  }

  /** Rows of a molecule matrix times each molecule's aggregation scale. */
  private scaleMolRows(at: number, w: number): void {
    const f32 = this.a.f32;
    for (let m = 0; m < this.nM; m++) {
      const s = this.molScale[m] as number;
      const o = at / 4 + m * w;
      for (let c = 0; c < w; c++) f32[o + c] = (f32[o + c] as number) * s;
    }
  }

  /**
   * The loss of the forward pass just run, summed over the batch (MSE on `labels`, or binary
   * cross-entropy on logits), and the gradients of that sum divided by `denominator` (the whole
   * batch's size when this is a part of it) into `grads`. Call right after forward().
   */
  backward(labels: ArrayLike<number>, denominator: number, loss: LossKind): number {
    if (!this.training) throw new Error('this network computes forward passes only');
    const { k, f32 } = this.a;
    const L = this.L;
    const h = this.h;
    const { nA, nE, nM } = this;
    const s = this.dropoutScale;
    const nl = this.widths.length;
    const out = (L.ffnOut[nl - 1] as number) / 4;
    let total = 0;
    for (let i = 0; i < nM; i++) {
      const x = f32[out + i] as number;
      const y = labels[i] as number;
      if (loss === 'mse') {
        total += (x - y) * (x - y);
        f32[L.dOut / 4 + i] = (2 * (x - y)) / denominator;
      } else {
        total += Math.max(x, 0) - x * y + Math.log1p(Math.exp(-Math.abs(x)));
        f32[L.dOut / 4 + i] = (1 / (1 + Math.exp(-x)) - y) / denominator;
      }
    }
    // FFN
    let dX = L.dOut;
    for (let l = nl - 1; l >= 0; l--) {
      const { in: wi, out: wo } = this.widths[l] as { in: number; out: number };
      const W = this.pOff[6 + 2 * l] as number;
      k.gemm(L.ffnIn[l] as number, 1, wi, dX, wo, this.gOff[6 + 2 * l] as number, wo, wi, nM, wo, 0, L.scratch);
      k.columnSum(this.gOff[7 + 2 * l] as number, dX, nM, wo, 0);
      const dIn = L.dX[l % 2] as number;
      k.transpose(this.wT, W, wi, wo);
      k.gemm(dX, wo, 1, this.wT, wi, dIn, wi, nM, wo, wi, 0, L.scratch);
      if (l > 0) k.reluBackward(dIn, dIn, L.ffnIn[l] as number, nM * wi, s);
      else if (this.F) this.dropFeatureColumns(dIn);
      dX = dIn;
    }
    // aggregation and atom output
    const [, , W_h, , W_om] = this.pOff as [number, number, number, number, number];
    const [gW_ia, gW_ib, gW_h, gW_oa, gW_om, gb_o] = this.gOff as [number, number, number, number, number, number];
    this.scaleMolRows(dX, h);
    k.gatherRows(L.dA, dX, L.atomMol, nA, h, 0);
    k.reluBackward(L.dA, L.dA, L.Ao, nA * h, s);
    k.gemm(L.XA, 1, AF, L.dA, h, gW_oa, h, AF, nA, h, 0, L.scratch);
    k.gemm(L.incF, 1, h, L.dA, h, gW_om, h, h, nA, h, 0, L.scratch);
    k.columnSum(gb_o, L.dA, nA, h, 0);
    k.transpose(this.wT, W_om, h, h);
    k.gemm(L.dA, h, 1, this.wT, h, L.dInc, h, nA, h, h, 0, L.scratch);
    k.gatherRows(L.dH, L.dInc, L.dst, nE, h, 0);
    // message passing
    const eh = nE * h;
    k.transpose(this.wT, W_h, h, h);
    for (let t = this.T; t >= 1; t--) {
      k.reluBackward(L.dZ, L.dH, L.H[t] as number, eh, s);
      if (t === this.T) f32.copyWithin(L.dh0 / 4, L.dZ / 4, L.dZ / 4 + eh);
      else k.addInPlace(L.dh0, L.dZ, eh);
      k.gemm(L.M[t - 1] as number, 1, h, L.dZ, h, gW_h, h, h, nE, h, t === this.T ? 0 : 1, L.scratch);
      k.gemm(L.dZ, h, 1, this.wT, h, L.dM, h, nE, h, h, 0, L.scratch);
      k.segmentSum(L.dInc, L.dM, L.src, nE, nA, h);
      k.gatherSubRows(L.dH, L.dInc, L.dst, L.dM, L.rev, nE, h);
    }
    if (this.T === 0) f32.fill(0, L.dh0 / 4, L.dh0 / 4 + eh);
    k.reluBackward(L.dZ, L.dH, L.H[0] as number, eh, 1);
    k.addInPlace(L.dh0, L.dZ, eh);
    // input projections
    k.gemm(L.XE, 1, BF, L.dh0, h, gW_ib, h, BF, nE, h, 0, L.scratch);
    k.segmentSum(L.dA, L.dh0, L.src, nE, nA, h);
    k.gemm(L.XA, 1, AF, L.dA, h, gW_ia, h, AF, nA, h, 0, L.scratch);
    return total;
  }

  /** Raw outputs (no dropout) of molecules src[idx[...]], in chunks of `chunk` molecules, into `out` from `at`. */
  evaluate(src: readonly MolFeatures[], idx: ArrayLike<number>, out: Float32Array, at = 0, chunk = 256): void {
    for (let i = 0; i < idx.length; i += chunk) {
      const end = Math.min(idx.length, i + chunk);
      this.load(src, idx, i, end);
      out.set(this.forward(null), at + i);
    }
  }
}
