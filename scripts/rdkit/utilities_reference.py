#!/usr/bin/python3
"""Reference values from native RDKit (Debian python3-rdkit) for the `convert` and
`fingerprints` utilities: writes test/fixtures/chem/utilities-reference.json.

Molecules: every 10th structure of /usr/share/RDKit/Data/NCI/first_5K.smi (installed by
Debian rdkit-data), 500 in all, plus a few hand-picked ones (charged, stereo, isotopes).

Each record: the input SMILES, and for a molecule RDKit reads: canonical SMILES, formula,
InChI and InChIKey, and the on-bits of the fingerprints Crucible offers, computed with RDKit's
fingerprint generators (the code MinimalLib runs): Morgan radius 2 (and feature invariants),
2048 bits; RDKit (paths 1..7) 2048 bits; atom pairs 2048 bits; topological torsions 2048
bits; MACCS keys (167 bits); pattern 2048 bits.

Debian builds RDKit without InChI support, so InChI and InChIKey come from Open Babel
(Debian openbabel, `obabel`, which links the IUPAC InChI library) reading the same SMILES: the
InChI is the IUPAC library's in both, and differs only where the two toolkits read a
structure differently (docs/utilities.md lists those).

Run:  /usr/bin/python3 scripts/rdkit/utilities_reference.py
"""
import json
import os
import subprocess

import rdkit
from rdkit import Chem, RDLogger
from rdkit.Chem import MACCSkeys, rdFingerprintGenerator, rdMolDescriptors

RDLogger.DisableLog('rdApp.*')

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
NCI = '/usr/share/RDKit/Data/NCI/first_5K.smi'
OUT = os.path.join(ROOT, 'test', 'fixtures', 'chem', 'utilities-reference.json')
EXTRA = ['CC(=O)Oc1ccccc1C(=O)O', 'C[C@H](N)C(=O)O', 'F/C=C/F', '[NH4+].[Cl-]', '[13CH4]', 'c1ccccc1[N+](=O)[O-]', 'not a molecule']


def on_bits(fp):
    return list(fp.GetOnBits())


def obabel(smiles, fmt):
    """Open Babel's InChI (or InChIKey) of a SMILES; None when it writes none."""
    r = subprocess.run(['obabel', f'-:{smiles}', f'-o{fmt}'], capture_output=True, text=True, check=False)
    line = r.stdout.strip().split('\n')[0].strip() if r.stdout.strip() else ''
    return line or None


def record(smiles):
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return {'smiles': smiles, 'ok': False}
    morgan = rdFingerprintGenerator.GetMorganGenerator(radius=2, fpSize=2048)
    feature = rdFingerprintGenerator.GetMorganGenerator(radius=2, fpSize=2048, atomInvariantsGenerator=rdFingerprintGenerator.GetMorganFeatureAtomInvGen())
    return {
        'smiles': smiles,
        'ok': True,
        'canonical_smiles': Chem.MolToSmiles(mol),
        'inchi': obabel(smiles, 'inchi'),
        'inchikey': obabel(smiles, 'inchikey'),
        'formula': rdMolDescriptors.CalcMolFormula(mol),
        'fingerprints': {
            'morgan': on_bits(morgan.GetFingerprint(mol)),
            'morgan_features': on_bits(feature.GetFingerprint(mol)),
            'rdkit': on_bits(rdFingerprintGenerator.GetRDKitFPGenerator(minPath=1, maxPath=7, fpSize=2048).GetFingerprint(mol)),
            'atom_pair': on_bits(rdFingerprintGenerator.GetAtomPairGenerator(fpSize=2048).GetFingerprint(mol)),
            'topological_torsion': on_bits(rdFingerprintGenerator.GetTopologicalTorsionGenerator(fpSize=2048).GetFingerprint(mol)),
            'maccs': on_bits(MACCSkeys.GenMACCSKeys(mol)),
            'pattern': on_bits(Chem.PatternFingerprint(mol, fpSize=2048)),
        },
    }


def main():
    with open(NCI) as f:
        nci = [line.split()[0] for line in f if line.strip()]
    smiles = nci[::10] + EXTRA
    out = {'rdkit_version': rdkit.__version__, 'inchi_from': subprocess.run(['obabel', '-V'], capture_output=True, text=True, check=False).stdout.strip(), 'source': 'NCI first_5K.smi, every 10th, plus extras', 'records': [record(s) for s in smiles]}
    with open(OUT, 'w') as f:
        json.dump(out, f, separators=(',', ':'))
        f.write('\n')
    print(f'{len(out["records"])} records, RDKit {rdkit.__version__} -> {os.path.relpath(OUT, ROOT)}')


if __name__ == '__main__':
    main()
