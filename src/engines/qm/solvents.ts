// The implicit solvents of the quantum-chemistry engines (docs/engines.md): xtb's ALPB names,
// and for each the dielectric constant MOPAC's COSMO takes.

/**
 * xtb's ALPB solvents (xtb documentation, "Implicit Solvation"), with the dielectric constant
 * MOPAC's COSMO takes for the same solvent (EPS=).
 */
export const SOLVENTS: Readonly<Record<string, number>> = {
  acetone: 20.7,
  acetonitrile: 37.5,
  aniline: 6.89,
  benzaldehyde: 17.8,
  benzene: 2.27,
  ch2cl2: 8.93,
  chcl3: 4.81,
  cs2: 2.64,
  dioxane: 2.21,
  dmf: 36.7,
  dmso: 46.7,
  ether: 4.33,
  ethylacetate: 6.02,
  furane: 2.94,
  hexadecane: 2.05,
  hexane: 1.88,
  methanol: 32.7,
  nitromethane: 35.9,
  octanol: 9.86,
  woctanol: 8.1,
  phenol: 12.4,
  toluene: 2.38,
  thf: 7.58,
  water: 78.4,
};
