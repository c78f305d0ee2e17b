#!/usr/bin/python3
"""Reference values from native RDKit (Debian python3-rdkit) for the utilities (convert,
fingerprints, similarity, substructure, mcs, rgroups): writes
test/fixtures/chem/utilities-reference.json.

Molecules: every 10th structure of /usr/share/RDKit/Data/NCI/first_5K.smi (installed by
Debian rdkit-data), 500 in all, plus a few hand-picked ones (charged, stereo, isotopes).

Each record: the input SMILES, and for a molecule RDKit reads: canonical SMILES, formula,
InChI and InChIKey, and the on-bits of the fingerprints Crucible offers, computed with RDKit's
fingerprint generators (the code MinimalLib runs): Morgan radius 2 (and feature invariants),
2048 bits; RDKit (paths 1..7) 2048 bits; atom pairs 2048 bits; topological torsions 2048
bits; MACCS keys (167 bits); pattern 2048 bits.

Beside the per-molecule records: Tanimoto, Dice and cosine similarities of the first 20
molecules against all of them (Morgan radius 2, 2048 bits); the substructure matches of a few
SMARTS in every molecule (GetSubstructMatches, RDKit's defaults: uniquify, maxMatches 1000);
the MCS (rdFMCS.FindMCS, 10 s timeout) of 30 pairs and 10 triples of molecules that share a
ring system; and R-group decompositions (RGroupDecompose) of the molecules holding a core.

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
from rdkit import DataStructs
from rdkit.Chem import MACCSkeys, rdFingerprintGenerator, rdFMCS, rdMolDescriptors
from rdkit.Chem.rdRGroupDecomposition import RGroupDecompose

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
        'kekule_smiles': kekule_smiles(mol),
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


def kekule_smiles(mol):
    m = Chem.Mol(mol)
    Chem.Kekulize(m, clearAromaticFlags=True)
    return Chem.MolToSmiles(m, kekuleSmiles=True)


SMARTS = ['[OX2H]', 'c1ccccc1', '[#7]', 'C(=O)[O,N]', '[R2]', '[CX4][Cl,Br,I]']
RGROUP_CORES = ['c1ccccc1', 'c1ccncc1']


def similarity_section(mols):
    gen = rdFingerprintGenerator.GetMorganGenerator(radius=2, fpSize=2048)
    fps = [gen.GetFingerprint(m) if m is not None else None for m in mols]
    queries = [i for i, fp in enumerate(fps) if fp is not None][:20]
    out = []
    for q in queries:
        row = {'query': q, 'tanimoto': [], 'dice': [], 'cosine': []}
        for fp in fps:
            for metric, fn in (('tanimoto', DataStructs.TanimotoSimilarity), ('dice', DataStructs.DiceSimilarity), ('cosine', DataStructs.CosineSimilarity)):
                row[metric].append(None if fp is None else fn(fps[q], fp))
        out.append(row)
    return out


def substructure_section(mols):
    out = []
    for smarts in SMARTS:
        q = Chem.MolFromSmarts(smarts)
        out.append({'query': smarts, 'matches': [None if m is None else [list(t) for t in m.GetSubstructMatches(q, maxMatches=1000)] for m in mols]})
    return out


def ring_key(m):
    """The Murcko-like ring system key: sorted ring sizes (groups molecules for MCS)."""
    return tuple(sorted(len(r) for r in m.GetRingInfo().AtomRings()))


def mcs_section(smiles, mols):
    groups, seen = [], {}
    for i, m in enumerate(mols):
        if m is None or m.GetNumAtoms() > 40 or not m.GetRingInfo().NumRings():
            continue
        seen.setdefault(ring_key(m), []).append(i)
    pairs = [v[:2] for v in seen.values() if len(v) >= 2][:30]
    triples = [v[:3] for v in seen.values() if len(v) >= 3][:10]
    for idx in pairs + triples:
        r = rdFMCS.FindMCS([mols[i] for i in idx], timeout=10)
        groups.append({'molecules': [smiles[i] for i in idx], 'smarts': r.smartsString, 'num_atoms': r.numAtoms, 'num_bonds': r.numBonds, 'canceled': r.canceled})
    return groups


def rgroup_section(smiles, mols):
    out = []
    for core_smiles in RGROUP_CORES:
        core = Chem.MolFromSmiles(core_smiles)
        idx = [i for i, m in enumerate(mols) if m is not None and m.HasSubstructMatch(core) and m.GetNumAtoms() <= 30][:40]
        rows, unmatched = RGroupDecompose([core], [mols[i] for i in idx], asSmiles=True)
        out.append({'core': core_smiles, 'molecules': [smiles[i] for i in idx], 'rows': rows, 'unmatched': list(unmatched)})
    return out


def main():
    with open(NCI) as f:
        nci = [line.split()[0] for line in f if line.strip()]
    smiles = nci[::10] + EXTRA
    mols = [Chem.MolFromSmiles(s) for s in smiles]
    out = {
        'rdkit_version': rdkit.__version__,
        'inchi_from': subprocess.run(['obabel', '-V'], capture_output=True, text=True, check=False).stdout.strip(),
        'source': 'NCI first_5K.smi, every 10th, plus extras',
        'records': [record(s) for s in smiles],
        'similarity': similarity_section(mols),
        'substructure': substructure_section(mols),
        'mcs': mcs_section(smiles, mols),
        'rgroups': rgroup_section(smiles, mols),
    }
    with open(OUT, 'w') as f:
        json.dump(out, f, separators=(',', ':'))
        f.write('\n')
    print(f'{len(out["records"])} records, RDKit {rdkit.__version__} -> {os.path.relpath(OUT, ROOT)}')


if __name__ == '__main__':
    main()
