// Many molecular graphs as one disconnected graph, for the D-MPNN's gather/scatter
// (tf.gather, tf.unsortedSegmentSum): atoms and directed bonds of every molecule stacked, with
// index arrays into the stack. Each undirected bond b of a molecule gives the directed bonds
// 2b (begin -> end) and 2b + 1 (end -> begin), each the other's reverse, as in chemprop.
import { ATOM_FDIM, BOND_FDIM, type MolFeatures } from './featurize.js';
import { tf } from './tf.js';

/** The stacked arrays of a batch (plain data: built anywhere, turned into tensors by toTensors). */
export interface BatchArrays {
  nMols: number;
  nAtoms: number;
  nEdges: number;
  /** nAtoms x ATOM_FDIM */
  atomX: Float32Array;
  /** nEdges x BOND_FDIM: a directed bond has its undirected bond's features */
  edgeX: Float32Array;
  /** source atom of each directed bond */
  src: Int32Array;
  /** target atom of each directed bond */
  dst: Int32Array;
  /** the reverse of each directed bond */
  rev: Int32Array;
  /** molecule of each atom */
  atomMol: Int32Array;
  /** atoms per molecule */
  atomCount: Float32Array;
  /** nMols x F molecule features, when the molecules have them (MolFeatures.extra) */
  molX: Float32Array | null;
  molFeatures: number;
}

export function stack(mols: readonly MolFeatures[]): BatchArrays {
  let nAtoms = 0;
  let nBonds = 0;
  for (const m of mols) {
    nAtoms += m.nAtoms;
    nBonds += m.nBonds;
  }
  const nEdges = 2 * nBonds;
  const F = mols[0]?.extra?.length ?? 0;
  const out: BatchArrays = {
    nMols: mols.length,
    nAtoms,
    nEdges,
    atomX: new Float32Array(nAtoms * ATOM_FDIM),
    edgeX: new Float32Array(nEdges * BOND_FDIM),
    src: new Int32Array(nEdges),
    dst: new Int32Array(nEdges),
    rev: new Int32Array(nEdges),
    atomMol: new Int32Array(nAtoms),
    atomCount: new Float32Array(mols.length),
    molX: F ? new Float32Array(mols.length * F) : null,
    molFeatures: F,
  };
  let a0 = 0;
  let e0 = 0;
  for (const [k, m] of mols.entries()) {
    out.atomX.set(m.atoms, a0 * ATOM_FDIM);
    out.atomMol.fill(k, a0, a0 + m.nAtoms);
    out.atomCount[k] = m.nAtoms;
    if (out.molX) {
      if (m.extra?.length !== F) throw new Error('every molecule of a batch needs the same molecule features');
      out.molX.set(m.extra, k * F);
    }
    for (let b = 0; b < m.nBonds; b++) {
      const e = e0 + 2 * b;
      const u = a0 + (m.bondAtoms[2 * b] as number);
      const v = a0 + (m.bondAtoms[2 * b + 1] as number);
      const row = m.bonds.subarray(b * BOND_FDIM, (b + 1) * BOND_FDIM);
      out.edgeX.set(row, e * BOND_FDIM);
      out.edgeX.set(row, (e + 1) * BOND_FDIM);
      out.src[e] = u;
      out.dst[e] = v;
      out.src[e + 1] = v;
      out.dst[e + 1] = u;
      out.rev[e] = e + 1;
      out.rev[e + 1] = e;
    }
    a0 += m.nAtoms;
    e0 += 2 * m.nBonds;
  }
  return out;
}

/** A batch as tensors; dispose with disposeBatch. */
export interface GraphBatch {
  nMols: number;
  nAtoms: number;
  nEdges: number;
  atomX: tf.Tensor2D;
  edgeX: tf.Tensor2D;
  src: tf.Tensor1D;
  dst: tf.Tensor1D;
  rev: tf.Tensor1D;
  atomMol: tf.Tensor1D;
  /** nMols x 1 */
  atomCount: tf.Tensor2D;
  /** nMols x F, or null */
  molX: tf.Tensor2D | null;
}

export function toTensors(b: BatchArrays): GraphBatch {
  return {
    nMols: b.nMols,
    nAtoms: b.nAtoms,
    nEdges: b.nEdges,
    atomX: tf.tensor2d(b.atomX, [b.nAtoms, ATOM_FDIM]),
    edgeX: tf.tensor2d(b.edgeX, [b.nEdges, BOND_FDIM]),
    src: tf.tensor1d(b.src, 'int32'),
    dst: tf.tensor1d(b.dst, 'int32'),
    rev: tf.tensor1d(b.rev, 'int32'),
    atomMol: tf.tensor1d(b.atomMol, 'int32'),
    atomCount: tf.tensor2d(b.atomCount, [b.nMols, 1]),
    molX: b.molX ? tf.tensor2d(b.molX, [b.nMols, b.molFeatures]) : null,
  };
}

export function disposeBatch(b: GraphBatch): void {
  tf.dispose([b.atomX, b.edgeX, b.src, b.dst, b.rev, b.atomMol, b.atomCount, ...(b.molX ? [b.molX] : [])]);
}
