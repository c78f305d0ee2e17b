#!/usr/bin/python3
"""Reference values from native RDKit (Debian python3-rdkit) for Crucible's D-MPNN
featuriser (src/ml/featurize.ts) and its Bemis-Murcko scaffolds (src/ml/scaffold.ts):
writes test/fixtures/ml/mpnn-features-reference.json, and src/ml/data/valence.json (the
periodic-table columns the conjugation rule and the scaffold's H counts read).

Molecules: every 10th structure of /usr/share/RDKit/Data/NCI/first_5K.smi (installed by
Debian rdkit-data), 500 in all, as the other fixtures pick them, plus the hand-picked set
below (charges, isotopes, stereo, iodine and heavier elements, radicals, hypervalent atoms).

Featurisation: chemprop v2's defaults, reproduced here in plain Python with RDKit calls
(chemprop itself is not installed): SimpleMoleculeMolGraphFeaturizer with
MultiHotAtomFeaturizer.v2() and MultiHotBondFeaturizer():

- atom, 72 values: one-hot with an unknown slot of atomic number (1..36, 53), total degree
  (0..5), formal charge (-1, -2, 1, 2, 0), chiral tag (0..3), total H count (0..4),
  hybridisation (S, SP, SP2, SP2D, SP3, SP3D, SP3D2); aromatic flag; 0.01 * mass;
- bond, 14 values: null-bond flag, bond type (single, double, triple, aromatic; no unknown
  slot), conjugated, in ring, stereo (0..5) with an unknown slot.

Each record keeps the hot positions of each atom vector and its mass value, the hot
positions of each bond vector, the raw RDKit values behind them (for diagnosis), and the
Bemis-Murcko scaffold (MurckoScaffold.GetScaffoldForMol): the indices of the input atoms it
keeps and its SMILES without stereo (MurckoScaffoldSmiles, includeChirality=False).

Run:  /usr/bin/python3 scripts/rdkit/mpnn_features_reference.py
"""
import json
import os
import sys

import rdkit
from rdkit import Chem, RDLogger
from rdkit.Chem.rdchem import BondStereo, BondType, HybridizationType
from rdkit.Chem.Scaffolds import MurckoScaffold

RDLogger.DisableLog('rdApp.*')

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
NCI = '/usr/share/RDKit/Data/NCI/first_5K.smi'
OUT = os.path.join(ROOT, 'test', 'fixtures', 'ml', 'mpnn-features-reference.json')
VALENCE_OUT = os.path.join(ROOT, 'src', 'ml', 'data', 'valence.json')

HAND_PICKED = [
    ('aspirin', 'CC(=O)Oc1ccccc1C(=O)O'),
    ('caffeine', 'Cn1cnc2c1c(=O)n(C)c(=O)n2C'),
    ('L-alanine', 'C[C@H](N)C(=O)O'),
    ('D-alanine', 'C[C@@H](N)C(=O)O'),
    ('trans-difluoroethene', 'F/C=C/F'),
    ('cis-difluoroethene', 'F/C=C\\F'),
    ('tamoxifen', 'CC/C(=C(\\c1ccccc1)c1ccc(OCCN(C)C)cc1)c1ccccc1'),
    ('curcumin', 'COc1cc(/C=C/C(=O)CC(=O)/C=C/c2ccc(O)c(OC)c2)ccc1O'),
    ('allene', 'CC=C=CC'),
    ('ring E/Z', 'C1CCC/C=C/CCC1'),
    ('oxime', 'C/C(=N/O)c1ccccc1'),
    ('13C-methane', '[13CH4]'),
    ('CD3Cl', '[2H]C([2H])([2H])Cl'),
    ('deuterated benzene', '[2H]c1c([2H])c([2H])c([2H])c([2H])c1[2H]'),
    ('unknown isotope', '[500C]C'),
    ('iodobenzene', 'Ic1ccccc1'),
    ('triiodide', 'I[I-]I'),
    ('selenophene', 'c1cc[se]c1'),
    ('tellurophene', 'c1cc[te]c1'),
    ('tin tetramethyl', 'C[Sn](C)(C)C'),
    ('cisplatin', 'N.N.Cl[Pt]Cl'),
    ('ferrocene (ionic)', '[cH-]1cccc1.[cH-]1cccc1.[Fe+2]'),
    ('uranium', '[U]'),
    ('sodium acetate', 'CC(=O)[O-].[Na+]'),
    ('tetramethylammonium', 'C[N+](C)(C)C'),
    ('glycine zwitterion', '[NH3+]CC(=O)[O-]'),
    ('nitrobenzene', 'O=[N+]([O-])c1ccccc1'),
    ('sulfate dianion', '[O-]S([O-])(=O)=O'),
    ('carbanion -3', '[CH-3]'),
    ('dication +3', '[Al+3]'),
    ('methyl radical', '[CH3]'),
    ('ethyl radical', 'C[CH2]'),
    ('carbene', '[CH2]=C'),
    ('dimethyl sulfoxide', 'CS(C)=O'),
    ('sulfolane', 'O=S1(=O)CCCC1'),
    ('SF6', 'FS(F)(F)(F)(F)F'),
    ('PCl5', 'ClP(Cl)(Cl)(Cl)Cl'),
    ('triphenylphosphine', 'c1ccc(cc1)P(c1ccccc1)c1ccccc1'),
    ('phosphine oxide', 'CP(C)(C)=O'),
    ('phenylboronic acid', 'OB(O)c1ccccc1'),
    ('acetonitrile', 'CC#N'),
    ('phenylacetylene', 'C#Cc1ccccc1'),
    ('isocyanide', '[C-]#[N+]C'),
    ('azide', 'CN=[N+]=[N-]'),
    ('diazomethane', 'C=[N+]=[N-]'),
    ('ketene', 'C=C=O'),
    ('carbon dioxide', 'O=C=O'),
    ('hydrogen cyanide', 'C#N'),
    ('pyridine N-oxide', '[O-][n+]1ccccc1'),
    ('thiophene', 'c1ccsc1'),
    ('furan', 'c1ccoc1'),
    ('pyrrole', 'c1cc[nH]c1'),
    ('indole', 'c1ccc2[nH]ccc2c1'),
    ('methanol', 'CO'),
    ('water', 'O'),
    ('proton', '[H+]'),
    ('hydrogen', '[H][H]'),
    ('hydride', '[H-]'),
    ('explicit H on carbon', '[H]C([H])([H])C'),
    ('many Hs', '[SiH4]'),
    ('xenon tetrafluoride', 'F[Xe](F)(F)F'),
    ('spiro', 'C1CCC2(CC1)CCCC2'),
    ('adamantane', 'C1C2CC3CC1CC(C2)C3'),
    ('biphenyl', 'c1ccc(-c2ccccc2)cc1'),
    ('linked rings', 'c1ccccc1CCOC(=O)C1CCNCC1'),
    ('N-methylpyrrole', 'Cn1cccc1'),
    ('N-methylpiperidinium', 'C[N+]1(C)CCCCC1'),
    ('exocyclic oxo', 'O=C1CCCCC1'),
    ('exocyclic imine', 'CN=C1CCCCC1'),
    ('chiral ring atom', 'C[C@H]1CCCC[C@@H]1O'),
    ('macrocycle', 'C1CCCCCCCCCCC1'),
    ('acyclic', 'CCCCCC(=O)O'),
]

ATOMIC_NUMS = list(range(1, 37)) + [53]
DEGREES = list(range(6))
FORMAL_CHARGES = [-1, -2, 1, 2, 0]
CHIRAL_TAGS = list(range(4))
NUM_HS = list(range(5))
HYBRIDIZATIONS = [
    HybridizationType.S,
    HybridizationType.SP,
    HybridizationType.SP2,
    HybridizationType.SP2D,
    HybridizationType.SP3,
    HybridizationType.SP3D,
    HybridizationType.SP3D2,
]
BOND_TYPES = [BondType.SINGLE, BondType.DOUBLE, BondType.TRIPLE, BondType.AROMATIC]
STEREOS = [
    BondStereo.STEREONONE,
    BondStereo.STEREOANY,
    BondStereo.STEREOZ,
    BondStereo.STEREOE,
    BondStereo.STEREOCIS,
    BondStereo.STEREOTRANS,
]


def one_hot(value, choices):
    """Position of value in choices, or len(choices) (the unknown slot)."""
    return choices.index(value) if value in choices else len(choices)


def atom_vector(a):
    """chemprop v2's MultiHotAtomFeaturizer.v2(): (hot positions, mass value at position 71)."""
    feats = [
        (a.GetAtomicNum(), ATOMIC_NUMS),
        (a.GetTotalDegree(), DEGREES),
        (a.GetFormalCharge(), FORMAL_CHARGES),
        (int(a.GetChiralTag()), CHIRAL_TAGS),
        (int(a.GetTotalNumHs()), NUM_HS),
        (a.GetHybridization(), HYBRIDIZATIONS),
    ]
    hot = []
    i = 0
    for value, choices in feats:
        hot.append(i + one_hot(value, choices))
        i += len(choices) + 1
    if a.GetIsAromatic():
        hot.append(i)
    return hot, 0.01 * a.GetMass()


def bond_vector(b):
    """chemprop v2's MultiHotBondFeaturizer(): hot positions (the null flag, 0, never set here)."""
    hot = []
    i = 1
    bt = one_hot(b.GetBondType(), BOND_TYPES)
    if bt != len(BOND_TYPES):
        hot.append(i + bt)
    i += len(BOND_TYPES)
    if b.GetIsConjugated():
        hot.append(i)
    if b.IsInRing():
        hot.append(i + 1)
    i += 2
    hot.append(i + one_hot(int(b.GetStereo()), [int(s) for s in STEREOS]))
    return hot


def scaffold(mol):
    """Bemis-Murcko scaffold: input atom indices kept, and its SMILES without stereo."""
    copy = Chem.Mol(mol)
    for a in copy.GetAtoms():
        a.SetIntProp('crucible_idx', a.GetIdx())
    scaf = MurckoScaffold.GetScaffoldForMol(copy)
    kept = sorted(a.GetIntProp('crucible_idx') for a in scaf.GetAtoms())
    return kept, MurckoScaffold.MurckoScaffoldSmiles(mol=mol, includeChirality=False)


def record(name, source, smiles):
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return None
    atoms = []
    for a in mol.GetAtoms():
        hot, mass = atom_vector(a)
        atoms.append({
            'hot': hot,
            'mass': mass,
            'raw': [a.GetAtomicNum(), a.GetTotalDegree(), a.GetFormalCharge(), int(a.GetChiralTag()), a.GetTotalNumHs(),
                    str(a.GetHybridization()), int(a.GetIsAromatic())],
        })
    bonds = []
    for b in mol.GetBonds():
        bonds.append({
            'atoms': [b.GetBeginAtomIdx(), b.GetEndAtomIdx()],
            'hot': bond_vector(b),
            'raw': [str(b.GetBondType()), int(b.GetIsConjugated()), int(b.IsInRing()), str(b.GetStereo())],
        })
    kept, scaffold_smiles = scaffold(mol)
    return {
        'name': name,
        'source': source,
        'smiles': smiles,
        'atoms': atoms,
        'bonds': bonds,
        'scaffold_atoms': kept,
        'scaffold_smiles': scaffold_smiles,
    }


def molecules():
    out = []
    with open(NCI) as fh:
        for i, line in enumerate(fh):
            if i % 10:
                continue
            parts = line.split()
            out.append(('NCI %s' % parts[1], 'nci', parts[0]))
    for name, smi in HAND_PICKED:
        out.append((name, 'hand', smi))
    return out


def valence_table():
    """[z, default valence, outer-shell electrons, allowed valences] for z = 0..118 (RDKit's periodic table)."""
    pt = Chem.GetPeriodicTable()
    return [[z, pt.GetDefaultValence(z), pt.GetNOuterElecs(z), list(pt.GetValenceList(z))] for z in range(0, 119)]


def main():
    records = []
    skipped = []
    for name, source, smi in molecules():
        r = record(name, source, smi)
        if r is None:
            skipped.append(smi)
        else:
            records.append(r)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, 'w') as fh:
        json.dump({
            'rdkit_version': rdkit.__version__,
            'generator': 'scripts/rdkit/mpnn_features_reference.py',
            'featurizer': 'chemprop v2 defaults: MultiHotAtomFeaturizer.v2 (72), MultiHotBondFeaturizer (14)',
            'unparseable_in_native': skipped,
            'molecules': records,
        }, fh, indent=None, separators=(',', ':'))
        fh.write('\n')
    os.makedirs(os.path.dirname(VALENCE_OUT), exist_ok=True)
    with open(VALENCE_OUT, 'w') as fh:
        json.dump({
            'rdkit_version': rdkit.__version__,
            'generator': 'scripts/rdkit/mpnn_features_reference.py',
            'note': '[z, default valence (-1: none), outer-shell electrons, allowed valences] from RDKit\'s periodic table',
            'elements': valence_table(),
        }, fh, indent=None, separators=(',', ':'))
        fh.write('\n')
    print('wrote %d molecules (%d unparseable skipped) to %s' % (len(records), len(skipped), os.path.relpath(OUT, ROOT)),
          file=sys.stderr)


if __name__ == '__main__':
    main()
