// QED, quantitative estimate of drug-likeness (Bickerton, Paolini, Besnard, Muresan,
// Hopkins, Nat. Chem. 4, 90-98, 2012), exactly as RDKit's rdkit.Chem.QED.qed computes it:
// eight properties mapped through asymmetric double sigmoid (ADS) functions and combined as
// a weighted geometric mean with the default ("mean") weights. The parameters, weights and
// SMARTS are data exported from RDKit (src/chem/data/qed.json).
import { QED_DATA, type AdsParameter, type QedProperty } from './data.js';

export type QedProperties = Record<QedProperty, number>;

/** RDKit QED.ads: the asymmetric double sigmoid, normalised by its maximum. */
function ads(x: number, p: AdsParameter): number {
  const exp1 = 1 + Math.exp((-1 * (x - p.C + p.D / 2)) / p.E);
  const exp2 = 1 + Math.exp((-1 * (x - p.C - p.D / 2)) / p.F);
  const dx = p.A + (p.B / exp1) * (1 - 1 / exp2);
  return dx / p.DMAX;
}

/**
 * RDKit QED.qed from the eight properties. Returns null where Python's math would raise
 * (math.exp overflow, log of a non-positive desirability): RDKit's qed fails there too.
 */
export function qedFromProperties(props: QedProperties, weights: readonly number[] = QED_DATA.weights.mean): number | null {
  let t = 0;
  let wsum = 0;
  for (const [i, name] of QED_DATA.properties.entries()) {
    const w = weights[i];
    if (w === undefined) throw new Error(`QED: no weight for property ${name} (${String(weights.length)} weights given)`);
    const x = props[name];
    const p = QED_DATA.ads_parameters[name];
    const e1 = Math.exp((-1 * (x - p.C + p.D / 2)) / p.E);
    const e2 = Math.exp((-1 * (x - p.C - p.D / 2)) / p.F);
    if (!Number.isFinite(x) || !Number.isFinite(e1) || !Number.isFinite(e2)) return null;
    const d = ads(x, p);
    if (!(d > 0)) return null;
    t += w * Math.log(d);
    wsum += w;
  }
  const q = Math.exp(t / wsum);
  return Number.isFinite(q) ? q : null;
}
