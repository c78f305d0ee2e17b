// The D-MPNN (directed message passing on bonds; Yang et al., J. Chem. Inf. Model. 2019, 59,
// 3370), as chemprop v2's BondMessagePassing + aggregation + FFN, in TensorFlow.js.
//
// For a directed bond v->w with source atom features x_v and bond features e_vw:
//   h0_vw = W_i [x_v, e_vw]                       (no bias, as chemprop)
//   h_vw  = ReLU(h0_vw)
//   repeat depth - 1 times:
//     m_vw = sum of h_kv over bonds k->v, minus h_wv (the reverse bond)
//     h_vw = dropout(ReLU(h0_vw + W_h m_vw))      (no bias)
//   atom v: a_v = dropout(ReLU(W_o [x_v, sum of h_kv over bonds k->v] + b_o))
//   molecule: sum of a_v / 100 ("norm", chemprop v2's default), or the mean, or the sum,
//     followed by the molecule features when the model has them (mol-features.ts)
//   FFN: ffn_layers linear layers (hidden width = hidden_size) with ReLU and dropout between
//   output: one value (regression, in scaled units) or one logit (classification).
// W_i and W_o act on concatenations; they are kept as their atom and bond (message) blocks,
// which is the same map, so that x_v W_i is computed once per atom and gathered per bond.
// Weights start as PyTorch's nn.Linear: uniform in +-1/sqrt(fan_in), from a seeded generator.
import type { GraphBatch } from './batch.js';
import { ATOM_FDIM, BOND_FDIM } from './featurize.js';
import type { Prng } from './prng.js';
import { tf } from './tf.js';

export type Aggregation = 'norm' | 'mean' | 'sum';

export interface Architecture {
  depth: number;
  hidden_size: number;
  /** linear layers in the FFN (chemprop v1's ffn_num_layers; chemprop v2's ffn-num-layers + 1) */
  ffn_layers: number;
  dropout: number;
  aggregation: Aggregation;
  /** divisor of the "norm" aggregation (chemprop v2: 100) */
  aggregation_norm: number;
  /** molecule features appended to the molecule vector before the FFN (mol-features.ts; absent: 0) */
  extra_features?: number;
}

/** Width of the FFN's input: the molecule vector and the molecule features. */
export function ffnInputWidth(arch: Architecture): number {
  return arch.hidden_size + (arch.extra_features ?? 0);
}

/** Name and shape of each parameter, in the order they are stored. */
export function parameterShapes(arch: Architecture): { name: string; shape: number[]; fanIn: number }[] {
  const h = arch.hidden_size;
  const out = [
    { name: 'W_i_atom', shape: [ATOM_FDIM, h], fanIn: ATOM_FDIM + BOND_FDIM },
    { name: 'W_i_bond', shape: [BOND_FDIM, h], fanIn: ATOM_FDIM + BOND_FDIM },
    { name: 'W_h', shape: [h, h], fanIn: h },
    { name: 'W_o_atom', shape: [ATOM_FDIM, h], fanIn: ATOM_FDIM + h },
    { name: 'W_o_msg', shape: [h, h], fanIn: ATOM_FDIM + h },
    { name: 'b_o', shape: [h], fanIn: ATOM_FDIM + h },
  ];
  for (let k = 0; k < arch.ffn_layers; k++) {
    const in_ = k === 0 ? ffnInputWidth(arch) : h;
    const out_ = k === arch.ffn_layers - 1 ? 1 : h;
    out.push({ name: `ffn_${k}_W`, shape: [in_, out_], fanIn: in_ });
    out.push({ name: `ffn_${k}_b`, shape: [out_], fanIn: in_ });
  }
  return out;
}

/** Fresh initial weights (PyTorch nn.Linear's default: U(-1/sqrt(fan_in), 1/sqrt(fan_in))). */
export function initialWeights(arch: Architecture, rng: Prng): Float32Array[] {
  return parameterShapes(arch).map(({ shape, fanIn }) => {
    const size = shape.reduce((a, b) => a * b, 1);
    const bound = 1 / Math.sqrt(fanIn);
    const w = new Float32Array(size);
    for (let i = 0; i < size; i++) w[i] = rng.uniform(-bound, bound);
    return w;
  });
}

let modelCounter = 0;

/** The parameters of one network as tfjs variables (names unique in this thread's engine). */
export class DmpnnParams {
  readonly vars: tf.Variable[];

  constructor(
    readonly arch: Architecture,
    weights: readonly Float32Array[],
    trainable: boolean,
  ) {
    const id = `dmpnn${++modelCounter}`;
    const shapes = parameterShapes(arch);
    if (weights.length !== shapes.length) throw new Error(`expected ${shapes.length} weight arrays, got ${weights.length}`);
    this.vars = shapes.map(({ name, shape }, i) => {
      const init = tf.tensor(weights[i] as Float32Array, shape);
      try {
        return tf.variable(init, trainable, `${id}/${name}`);
      } finally {
        init.dispose();
      }
    });
  }

  /** The current weights, copied out. */
  read(): Float32Array[] {
    return this.vars.map((v) => Float32Array.from(v.dataSync() as Float32Array));
  }

  /** Overwrites the weights (e.g. with the best epoch's). */
  write(weights: readonly Float32Array[]): void {
    this.vars.forEach((v, i) => {
      const value = tf.tensor(weights[i] as Float32Array, v.shape);
      v.assign(value);
      value.dispose();
    });
  }

  dispose(): void {
    for (const v of this.vars) v.dispose();
  }
}

/** Dropout seeds for one forward pass in training; null in evaluation. */
export type DropoutSeeds = (() => number) | null;

function dropout(x: tf.Tensor2D, rate: number, seeds: DropoutSeeds): tf.Tensor2D {
  if (!seeds || rate <= 0) return x;
  return tf.dropout(x, rate, undefined, seeds()) as tf.Tensor2D;
}

/** Forward pass: one output per molecule, shape [nMols]. Call inside tf.tidy (or variableGrads). */
export function forward(p: DmpnnParams, b: GraphBatch, seeds: DropoutSeeds): tf.Tensor1D {
  const { arch } = p;
  const [W_ia, W_ib, W_h, W_oa, W_om, b_o] = p.vars as [tf.Variable, tf.Variable, tf.Variable, tf.Variable, tf.Variable, tf.Variable];
  const h = arch.hidden_size;
  const atomIn = tf.matMul(b.atomX, W_ia as tf.Tensor2D);
  const h0 = tf.add(tf.gather(atomIn, b.src), tf.matMul(b.edgeX, W_ib as tf.Tensor2D)) as tf.Tensor2D;
  let H = tf.relu(h0);
  for (let t = 1; t < arch.depth && b.nEdges > 0; t++) {
    const incoming = tf.unsortedSegmentSum(H, b.dst, b.nAtoms);
    const m = tf.sub(tf.gather(incoming, b.src), tf.gather(H, b.rev)) as tf.Tensor2D;
    H = dropout(tf.relu(tf.add(h0, tf.matMul(m, W_h as tf.Tensor2D))) as tf.Tensor2D, arch.dropout, seeds);
  }
  const incoming = b.nEdges > 0 ? tf.unsortedSegmentSum(H, b.dst, b.nAtoms) : tf.zeros([b.nAtoms, h]);
  const atomH = dropout(
    tf.relu(tf.add(tf.add(tf.matMul(b.atomX, W_oa as tf.Tensor2D), tf.matMul(incoming as tf.Tensor2D, W_om as tf.Tensor2D)), b_o)) as tf.Tensor2D,
    arch.dropout,
    seeds,
  );
  const summed = tf.unsortedSegmentSum(atomH, b.atomMol, b.nMols);
  let x: tf.Tensor2D = arch.aggregation === 'mean' ? tf.div(summed, b.atomCount) : arch.aggregation === 'norm' ? tf.div(summed, tf.scalar(arch.aggregation_norm)) : summed;
  if (arch.extra_features) {
    if (!b.molX) throw new Error('the network takes molecule features and the batch has none');
    x = tf.concat([x, b.molX], 1);
  }
  const ffn = p.vars.slice(6);
  for (let k = 0; k < arch.ffn_layers; k++) {
    if (k > 0) x = dropout(tf.relu(x), arch.dropout, seeds);
    x = tf.add(tf.matMul(x, ffn[2 * k] as tf.Tensor2D), ffn[2 * k + 1] as tf.Tensor1D);
  }
  return tf.reshape(x, [b.nMols]);
}
