// The JS structure check against RDKit's verdict. The reference table
// (test/fixtures/lookups/structure/rdkit-reference.json) is the output of
// scripts/lookups/structure_reference.py run with RDKit 2022.09: for several hundred strings
// (real compound names, gene symbols, SMILES, CXSMILES, reaction SMILES, InChI, with trailing
// names) whether RDKit reads the first whitespace token as a SMILES or reaction of >= 2 atoms,
// or the string is an InChI. The JS check must agree on every string, except the listed ones
// where it holds back a string RDKit rejects: holding back is the safe side, sending a
// structure never is.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  firstToken,
  hasSmilesOnlySyntax,
  hasStructureInText,
  isInchi,
  looksLikeStructure,
  reactionAtomCount,
  rdkitReadsStructure,
  smilesAtomCount,
} from '../../src/lookups/structure.js';
import { fixture } from './stand-in.js';

interface Case {
  input: string;
  first_token: string;
  smiles_atoms: number | null;
  reaction_atoms: number | null;
  inchi: boolean;
  structure: boolean;
  kind: 'name' | 'gene' | 'smiles' | 'cxsmiles' | 'reaction' | 'inchi' | 'trailing-name';
}
const ref: { generator: string; rdkit: string; count: number; cases: Case[] } = fixture('structure/rdkit-reference.json');

/**
 * Every string the JS check holds back although RDKit does not read it as a structure, and why
 * that is the safe side. The test fails if one is missing here, or listed but no longer a
 * disagreement.
 */
const SAFE_SIDE: Record<string, string> = {
  c1cccc1: 'an aromatic ring RDKit cannot kekulise: kekulisation is not modelled, the syntax is unmistakably SMILES',
  n1cccc1: 'as above (pyrrole needs [nH] for RDKit)',
  'c1cccc1 some compound': 'as above, with a trailing name',
  'n1cccc1 some compound': 'as above, with a trailing name',
  'C[N](C)(C)C': 'a bracket atom over its valence: bracket-atom valences (charges, H counts) are not modelled',
  'C[N](C)(C)C some compound': 'as above, with a trailing name',
  'aspirin CC(=O)Oc1ccccc1C(=O)O': 'RDKit reads only the first token; the free-text rule also catches a pasted SMILES later in the name',
  'benzene (c1ccccc1)': 'a SMILES in brackets after a name (free-text rule, enclosing brackets stripped)',
  'Cc1ccccc1|c:1|': 'a CXSMILES block without the space: RDKit rejects the token, the free-text rule splits at | and finds toluene',
  'Cc1ccccc1|c:1| some compound': 'as above, with a trailing name',
  'the SMILES c1ccccc1O, please': 'a SMILES inside a sentence (free-text rule, trailing comma stripped)',
  "'CC(=O)O'": 'a quoted SMILES (free-text rule, quotes stripped)',
  "'CC(=O)O' some compound": 'as above, with a trailing name',
  'aspirin InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)': 'an InChI after a name is a structure too',
  '1S/C2H6O/c1-2-3/h3H,2H2,1H3': 'a standard InChI without its "InChI=" prefix is still a structure',
  'AuxInfo=1/1/N:3,2,1/rA:3nOCC/rB:s1;s2;/rC:;;;': "an InChI's AuxInfo carries atoms and connectivity",
};

describe('structure check agrees with RDKit (scripts/lookups/structure_reference.py)', () => {
  test('the reference table is the committed RDKit output and covers every kind of string', () => {
    assert.equal(ref.generator, 'scripts/lookups/structure_reference.py');
    assert.match(ref.rdkit, /^2022\.09/);
    assert.equal(ref.cases.length, ref.count);
    assert.ok(ref.count >= 300, `${ref.count} strings`);
    for (const kind of ['name', 'gene', 'smiles', 'cxsmiles', 'reaction', 'inchi', 'trailing-name']) assert.ok(ref.cases.filter((c) => c.kind === kind).length >= 5, kind);
    for (const s of [
      'CS gas',
      'vitamin C',
      'Co',
      'NO',
      'CNP',
      'CC(=O)Oc1ccccc1C(=O)O aspirin',
      'Cc1ccccc1 |c:1|',
      'CCO>>CC=O',
      'inchi=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)',
    ])
      assert.ok(
        ref.cases.some((c) => c.input === s),
        s,
      );
  });

  test('never unsafe: every string RDKit reads as a structure is held back', () => {
    const leaks = ref.cases.filter((c) => c.structure && !looksLikeStructure(c.input)).map((c) => c.input);
    assert.deepEqual(leaks, []);
  });

  test('agrees on every string, except the listed safe-side disagreements', () => {
    const disagreements = ref.cases.filter((c) => looksLikeStructure(c.input) !== c.structure).map((c) => c.input);
    assert.deepEqual(disagreements.sort(), Object.keys(SAFE_SIDE).sort());
    for (const s of disagreements) assert.equal(looksLikeStructure(s), true, `${s}: a disagreement must hold back`);
  });

  test("the first-token reader alone (RDKit's own rule) agrees except where RDKit's sanitisation is not modelled", () => {
    const notModelled = ['c1cccc1', 'n1cccc1', 'c1cccc1 some compound', 'n1cccc1 some compound', 'C[N](C)(C)C', 'C[N](C)(C)C some compound'];
    const off = ref.cases.filter((c) => rdkitReadsStructure(c.input) !== c.structure).map((c) => c.input);
    assert.deepEqual(off.sort(), notModelled.sort());
  });

  test('atom counts: wherever RDKit reads the first token, the JS reader reads the same number of atoms', () => {
    for (const c of ref.cases) {
      assert.equal(firstToken(c.input), c.first_token, c.input);
      if (c.smiles_atoms !== null) assert.equal(smilesAtomCount(c.first_token), c.smiles_atoms, c.input);
      if (c.reaction_atoms !== null) assert.equal(reactionAtomCount(c.first_token), c.reaction_atoms, c.input);
    }
  });

  test('the audit cases', () => {
    for (const s of ['CC(=O)Oc1ccccc1C(=O)O aspirin', 'Cc1ccccc1 |c:1|', 'inchi=1S/C2H6O/c1-2-3/h3H,2H2,1H3', 'INCHI=1S/H2O/h1H2', 'CCO>>CC=O', 'CS gas', 'NO', 'CNP'])
      assert.equal(looksLikeStructure(s), true, s);
    for (const s of ['vitamin C', 'Co', 'aspirin', 'Cs', 'Sn', 'CFC', 'IFN', 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', 'InChIKey=BSYNRYMUTXBXSQ-UHFFFAOYSA-N'])
      assert.equal(looksLikeStructure(s), false, s);
    assert.equal(isInchi('inchi is a format'), false);
  });

  test('a 500-character SMILES is read without recursion trouble', () => {
    const long = 'C1' + 'C'.repeat(497) + '1';
    assert.equal(smilesAtomCount(long), 498);
    assert.equal(looksLikeStructure('c1ccccc1' + 'C'.repeat(492)), true);
  });
});

describe('free-text rule (targets, proteins, structures, ChEMBL target search, ID operations)', () => {
  test('gene symbols and identifiers that parse as SMILES are sent: no SMILES-only syntax', () => {
    for (const s of [
      'CS',
      'CNP',
      'FOS',
      'INS',
      'CCS',
      'SON',
      'NPS',
      'PC',
      'CP',
      'SNCB',
      'ICOS',
      'NO synthase',
      'CCO',
      'EGFR',
      'P00533',
      '4HHB',
      'ENSG00000146648',
      'EFO_0003060',
      'hemoglobin',
      'Na+/K+ ATPase',
      'NAD(P)H',
      'CS:GO',
      'IL-6',
      'c-Myc',
      'p53',
      'non-small cell lung carcinoma',
    ])
      assert.equal(hasStructureInText(s), false, s);
  });

  test('InChI (any case) and SMILES with SMILES-only syntax are held back, wherever they stand in the text', () => {
    for (const s of [
      'InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3',
      'inchi=1S/C2H6O/c1-2-3/h3H,2H2,1H3',
      'ligand InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3',
      'CC(=O)Oc1ccccc1C(=O)O',
      'CC(=O)Oc1ccccc1C(=O)O aspirin',
      'kinase inhibitor c1ccc2[nH]ccc2c1',
      'C1CCC1',
      'C=C',
      'C#N',
      '[Na+].[Cl-]',
      'CCO>>CC=O',
      'C[C@H](N)C(=O)O',
      'F/C=C/F',
      'c1ccccc1',
      '(c1ccccc1)',
      '"CC(=O)O"',
    ])
      assert.equal(hasStructureInText(s), true, s);
  });

  test('every structure of the reference table with SMILES-only syntax in its first token is caught by the free-text rule', () => {
    for (const c of ref.cases) if (c.structure && (c.inchi || hasSmilesOnlySyntax(c.first_token))) assert.equal(hasStructureInText(c.input), true, c.input);
  });

  test('what the free-text rule lets through is exactly the all-uppercase organic-subset strings (the documented exception)', () => {
    for (const c of ref.cases) {
      if (!c.structure || hasStructureInText(c.input)) continue;
      assert.match(c.first_token, /^(?:Cl|Br|[BCNOPSFI*-])+$/, `${c.input}: only uppercase organic-subset chains may pass`);
    }
  });
});
