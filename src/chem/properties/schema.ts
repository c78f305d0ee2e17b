// TypeBox schemas of the molecular-properties result (POST /api/v1/describe, `properties`
// job results). Register PROPERTIES_SCHEMAS with app.addSchema (in this order) and reference
// them by $id: MolecularProperties refers to RuleCheck and MassSpecHints, and MassSpecHints to
// MsAdduct and IsotopePeak, by $ref.
// Field definitions: docs/chemistry.md.
import { Type, type Static } from '@sinclair/typebox';

const RuleCheckSchema = Type.Object(
  {
    pass: Type.Boolean({ description: 'Whether the molecule passes the rule' }),
    violations: Type.Array(Type.String(), {
      description: "Names of the violated criteria, e.g. 'mw>500', 'clogp>5', 'hbd>5', 'hba>10' (Lipinski) or 'rotatable_bonds>10', 'tpsa>140' (Veber); empty when none",
    }),
  },
  { $id: 'RuleCheck', additionalProperties: false, description: 'Outcome of a drug-likeness rule: pass flag and the violated criteria' },
);

const MsAdductSchema = Type.Object(
  {
    adduct: Type.String({
      description:
        "Ion notation: '[M+H]+', '[M+Na]+', '[M+K]+', '[M+NH4]+', '[M-H]-', '[M+Cl]-', '[M+HCOO]-' for a neutral species; '[M]+', '[M]2+', '[M]-', ... for a species that carries a net charge",
    }),
    charge: Type.Integer({ description: 'Charge of the ion (signed), e.g. 1 or -1' }),
    mz: Type.Number({
      description:
        'm/z of the monoisotopic ion: (exact mass of the ion, electron mass included) / |charge|, built on the isotopes monoisotopic_mass uses (the most abundant natural isotope of each element)',
    }),
    formula: Type.String({ description: "Molecular formula of the ion in RDKit's notation, e.g. 'C9H9O4+'" }),
  },
  { $id: 'MsAdduct', additionalProperties: false, description: 'A common electrospray ion of the mass-spectrometry species and its monoisotopic m/z' },
);

const IsotopePeakSchema = Type.Object(
  {
    label: Type.String({
      description:
        "Nominal mass shift from the monoisotopic peak: 'M', 'M+1', 'M+2', ... ('M-1', 'M-2' for elements with a natural isotope lighter than the monoisotopic one: 10B, 50V, 54Fe)",
    }),
    mass: Type.Number({
      description:
        "Abundance-weighted mean exact mass (Da) of the isotopologues at this nominal shift (electron mass included for ions, as in RDKit ExactMolWt). The M peak is the species' monoisotopic mass (monoisotopic_mass for a one-fragment input), give or take a few micro-daltons where an element with a lighter natural isotope (B, V, Fe...) adds isotopologues of the same nominal mass",
    }),
    relative_abundance: Type.Number({ description: 'Intensity relative to the most intense peak of the pattern (= 100); peaks below 0.1 are left out' }),
  },
  { $id: 'IsotopePeak', additionalProperties: false, description: 'One peak of the natural isotope pattern (IUPAC abundances) of the mass-spectrometry species' },
);

const MassSpecHintsSchema = Type.Object(
  {
    adducts: Type.Array(Type.Ref(MsAdductSchema), { description: 'Common ESI ions of the species' }),
    isotopes: Type.Array(Type.Ref(IsotopePeakSchema), { description: 'Isotope pattern of the species, in mass order' }),
  },
  {
    $id: 'MassSpecHints',
    additionalProperties: false,
    description:
      'Mass-spectrometry hints for the species: the whole input when it is one fragment, otherwise its largest fragment (most heavy atoms). Null when the input has dummy atoms (*)',
  },
);

const MolecularPropertiesSchema = Type.Object(
  {
    formula: Type.String({ description: "Molecular formula as RDKit CalcMolFormula writes it (C, H, then alphabetical; net charge appended, e.g. 'C2H3O2-')" }),
    mw: Type.Number({ description: 'Average molecular weight (RDKit Descriptors.MolWt), g/mol' }),
    monoisotopic_mass: Type.Number({ description: 'Exact monoisotopic mass (RDKit Descriptors.ExactMolWt), Da; electron mass accounted for ions' }),
    clogp: Type.Number({ description: 'Wildman-Crippen logP (RDKit Crippen.MolLogP)' }),
    tpsa: Type.Number({ description: 'Topological polar surface area, Ertl 2000, N and O contributions only (RDKit CalcTPSA default), Å²' }),
    hba: Type.Integer({ description: 'Hydrogen-bond acceptors (RDKit rdMolDescriptors.CalcNumHBA = Lipinski.NumHAcceptors)' }),
    hbd: Type.Integer({ description: 'Hydrogen-bond donors (RDKit rdMolDescriptors.CalcNumHBD = Lipinski.NumHDonors)' }),
    rotatable_bonds: Type.Integer({ description: 'Rotatable bonds (RDKit CalcNumRotatableBonds, default = Strict definition)' }),
    aromatic_rings: Type.Integer({ description: 'Aromatic rings of the SSSR (RDKit CalcNumAromaticRings)' }),
    heavy_atoms: Type.Integer({ description: 'Atoms with atomic number > 1 (RDKit GetNumHeavyAtoms)' }),
    formal_charge: Type.Integer({ description: 'Net formal charge (sum over atoms)' }),
    qed: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description: "Quantitative estimate of drug-likeness (Bickerton 2012) with RDKit QED.qed's default (mean) weights; null when it cannot be computed",
    }),
    lipinski: Type.Ref(RuleCheckSchema, {
      description: "Lipinski rule of five on mw, clogp, hbd and hba above ('mw>500', 'clogp>5', 'hbd>5', 'hba>10'); passes with at most one violation",
    }),
    veber: Type.Ref(RuleCheckSchema, { description: "Veber rule: rotatable_bonds <= 10 and tpsa <= 140 ('rotatable_bonds>10', 'tpsa>140'); passes with no violation" }),
    alerts: Type.Object(
      {
        pains: Type.Array(Type.String(), { description: "Matched PAINS A/B/C filters, RDKit FilterCatalog entry descriptions, e.g. 'catechol_A(92)'" }),
        brenk: Type.Array(Type.String(), { description: "Matched Brenk filters, RDKit FilterCatalog entry descriptions, e.g. 'aldehyde'" }),
      },
      { additionalProperties: false, description: 'Structural alerts, in RDKit catalog order' },
    ),
    ms: Type.Union([Type.Ref(MassSpecHintsSchema), Type.Null()], { description: MassSpecHintsSchema.description }),
  },
  { $id: 'MolecularProperties', additionalProperties: false, description: 'Molecular properties computed with RDKit from one SMILES' },
);

/** Register with app.addSchema in this order. */
export const PROPERTIES_SCHEMAS = [RuleCheckSchema, MsAdductSchema, IsotopePeakSchema, MassSpecHintsSchema, MolecularPropertiesSchema];

export type RuleCheck = Static<typeof RuleCheckSchema>;
export type MsAdduct = Static<typeof MsAdductSchema>;
export type IsotopePeak = Static<typeof IsotopePeakSchema>;
export type MassSpecHints = Static<typeof MassSpecHintsSchema>;
export type MolecularProperties = Static<typeof MolecularPropertiesSchema>;

type DescribeError = 'unparseable' | 'too_large' | 'describe_failed';
export interface MoleculeIdentifiers {
  canonical_smiles: string;
  inchi: string | null;
  inchikey: string | null;
}

export interface DescribeResult {
  properties: MolecularProperties | null;
  error: DescribeError | null;
  /** Why, when error is set (e.g. "unclosed ring", "explicit valence for atom # 3 C, 5, is greater than permitted"). */
  detail: string | null;
  /** Canonical SMILES, InChI and InChIKey, when asked for and the molecule was read. */
  identifiers?: MoleculeIdentifiers;
}
