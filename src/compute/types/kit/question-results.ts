// The result documents of the chemistry-question job types (docs/questions.md, "pKa",
// "Tautomers", "Bond dissociation energies"), as JSON schemas: published in the OpenAPI
// document's components and checked against real results by the tests.
import { Type } from '@sinclair/typebox';
import { item, result } from './results.js';

const Num = Type.Number();
const Smiles = Type.String({ description: 'SMILES (RDKit canonical)' });

export const PkaResult = result(
  'PkaResult',
  'pka',
  item(
    {
      smiles: Smiles,
      sites: Type.Array(
        Type.Object(
          {
            atom_index: Type.Integer({ description: "The site atom, 0-based in the input's atom order" }),
            element: Type.String(),
            kind: Type.Union([Type.Literal('acid'), Type.Literal('base')], { description: 'acid: loses a proton; base: gains one (its pka is that of its conjugate acid)' }),
            class: Type.String({ description: 'The site class of the SMARTS catalogue (docs/questions.md, "pKa")' }),
            pka: Type.Union([Type.Number(), Type.Null()], { description: 'The micro pKa; null when the class has no calibration (see reason)' }),
            reason: Type.Union([Type.String(), Type.Null()], { description: 'Why pka is null' }),
            delta_kcal: Type.Union([Type.Number(), Type.Null()], { description: "E(deprotonated) - E(protonated) at GFN2/ALPB(water), kcal/mol, in the site's context" }),
          },
          { additionalProperties: false },
        ),
      ),
      microstates: Type.Array(Type.Object({ smiles: Smiles, charge: Type.Integer(), fraction: Num }, { additionalProperties: false }), {
        description: 'The protonation states at `ph` of at least 0.1%, most abundant first (at most 16)',
      }),
      dominant_smiles: Smiles,
      dominant_charge: Type.Integer(),
    },
    'The ionisable sites of a molecule, their pKa values and its charge state at the pH',
  ),
  { ph: Num, solvent: Type.Literal('water') },
);

export const TautomersResult = result(
  'TautomersResult',
  'tautomers',
  item(
    {
      smiles: Type.String({ description: 'The main tautomer (the most abundant)' }),
      tautomers: Type.Array(
        Type.Object(
          {
            smiles: Smiles,
            relative_kcal: Num,
            fraction: Num,
            energy_hartree: Type.Number({
              description: "What it is ranked by: its GFN2 free energy at 298.15 K, or (energy 'electronic') its energy plus the lowest's thermal part",
            }),
            energy: Type.Union([Type.Literal('free'), Type.Literal('electronic')], {
              description: 'free: within 10 kcal/mol of the lowest (at most 10 of them); electronic: the others',
            }),
            molblock: Type.String({ description: 'Its lowest structure, optimised (V2000, 3D)' }),
          },
          { additionalProperties: false },
        ),
        { description: 'Lowest first' },
      ),
      count: Type.Integer({ description: 'Tautomers RDKit enumerated' }),
    },
    'The tautomers of a molecule ranked by GFN2 energy in the solvent, with their populations',
  ),
  { solvent: Type.Union([Type.String(), Type.Null()]), temperature_k: Num },
);

export const BdeResult = result(
  'BdeResult',
  'bde',
  item(
    {
      bonds: Type.Array(
        Type.Object(
          {
            atoms: Type.Array(Type.Integer(), { minItems: 2, maxItems: 2, description: "0-based, the input's atom order (hydrogens after the heavy atoms)" }),
            elements: Type.Array(Type.String(), { minItems: 2, maxItems: 2 }),
            equivalent: Type.Integer({ description: 'Symmetry-equivalent bonds it stands for (hydrogens of one class)' }),
            bde_kcal_mol: Num,
            raw_kcal_mol: Num,
          },
          { additionalProperties: false },
        ),
        { description: 'Weakest first' },
      ),
      energies: Type.String({ description: 'What the energies are: gfn2, or the DFT method and basis' }),
    },
    "Homolytic bond dissociation enthalpies at 298 K, calibrated (raw: the method's own)",
  ),
  { energies: Type.String(), calibrated: Type.Boolean() },
);
