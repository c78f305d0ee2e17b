#!/usr/bin/python3
"""Native RDKit reference values for Crucible's chemistry job types (similarity_search,
substructure_search, cluster): writes test/fixtures/chem/jobs-reference.json.

Fingerprints are rdMolDescriptors.GetMorganFingerprintAsBitVect(m, 2, nBits=2048), similarity
DataStructs.TanimotoSimilarity, substructure matches Mol.GetSubstructMatch/GetSubstructMatches
(defaults: uniquify, at most 1000 matches, no chirality) with Chem.MolFromSmarts or
Chem.MolFromSmiles queries, and clusters rdkit.ML.Cluster.Butina.ClusterData over the
distances 1 - BulkTanimotoSimilarity (isDistData=True, reordering off), the usual recipe.

Sets:
  - `library`: a small hand-picked library (drug analogue series, so that clusters and hits are
    not trivial) with one unparseable entry, used by the HTTP tests;
  - `reference`: every molecule of test/fixtures/chem/reference.json that native RDKit reads
    (about 1,150), used by the in-process clustering and fingerprint tests: per molecule the
    bit count and a hash of the set bits, and the Butina clusters at two cutoffs.

Run:  /usr/bin/python3 scripts/rdkit/jobs_reference.py
"""
import hashlib
import json
import os

import rdkit
from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import rdMolDescriptors
from rdkit.ML.Cluster import Butina

RDLogger.DisableLog('rdApp.*')

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
OUT = os.path.join(ROOT, 'test', 'fixtures', 'chem', 'jobs-reference.json')
REFERENCE = os.path.join(ROOT, 'test', 'fixtures', 'chem', 'reference.json')

LIBRARY = [
    # salicylates and benzoic acids
    'CC(=O)Oc1ccccc1C(=O)O',  # aspirin
    'OC(=O)c1ccccc1O',  # salicylic acid
    'COC(=O)c1ccccc1O',  # methyl salicylate
    'OC(=O)c1ccccc1',  # benzoic acid
    'CC(=O)Oc1ccccc1C(=O)OC',  # methyl acetylsalicylate
    # profens
    'CC(C)Cc1ccc(cc1)C(C)C(=O)O',  # ibuprofen
    'COc1ccc2cc(ccc2c1)C(C)C(=O)O',  # naproxen
    'CC(C(=O)O)c1ccc(c(F)c1)-c1ccccc1',  # flurbiprofen
    'CC(C(=O)O)c1cccc(c1)C(=O)c1ccccc1',  # ketoprofen
    # benzodiazepines
    'CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21',  # diazepam
    'OC1N=C(c2ccccc2)c2cc(Cl)ccc2NC1=O',  # oxazepam
    'CN1C(=O)C(O)N=C(c2ccccc2)c2cc(Cl)ccc21',  # temazepam
    'O=C1CN=C(c2ccccc2F)c2cc(Cl)ccc2N1',  # a fluoro analogue
    'Cc1nnc2n1-c1ccc(Cl)cc1C(c1ccccc1)=NC2',  # alprazolam
    # xanthines
    'Cn1cnc2c1c(=O)n(C)c(=O)n2C',  # caffeine
    'Cn1c(=O)c2[nH]cnc2n(C)c1=O',  # theophylline
    'Cn1cnc2c1c(=O)[nH]c(=O)n2C',  # theobromine
    # phenethylamines
    'NCCc1ccc(O)c(O)c1',  # dopamine
    'CNC[C@H](O)c1ccc(O)c(O)c1',  # adrenaline
    'NC[C@H](O)c1ccc(O)c(O)c1',  # noradrenaline
    'CC(N)Cc1ccccc1',  # amphetamine
    # steroids
    'C[C@]12CC[C@H]3[C@@H](CCC4=CC(=O)CC[C@@]43C)[C@@H]1CC[C@@H]2O',  # testosterone
    'C[C@]12CC[C@H]3[C@@H](CCc4cc(O)ccc43)[C@@H]1CC[C@@H]2O',  # estradiol
    'CC(=O)[C@H]1CC[C@H]2[C@@H]3CCC4=CC(=O)CC[C@]4(C)[C@H]3CC[C@]12C',  # progesterone
    # misc
    'CC(=O)Nc1ccc(O)cc1',  # paracetamol
    'CN1CCC[C@H]1c1cccnc1',  # nicotine
    'c1ccc2[nH]ccc2c1',  # indole
    'NCCc1c[nH]c2ccc(O)cc12',  # serotonin
    'CCO',  # ethanol
    'c1ccccc1',  # benzene
    'Oc1ccccc1',  # phenol
    'C1CCCCC1',  # cyclohexane
    'not a smiles',  # unparseable
    'OC(=O)C1=CC=CC=C1O',  # salicylic acid, Kekulé spelling
]

SIMILARITY_QUERIES = ['CC(=O)Oc1ccccc1C(=O)O', 'CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21', 'CC(C)Cc1ccc(cc1)C(C)C(=O)O']

# (query, how to read it: smarts | smiles)
SUBSTRUCTURE_QUERIES = [
    ('c1ccccc1C(=O)[OX2H1]', 'smarts'),  # aromatic carboxylic acid
    ('[OX2H][c]', 'smarts'),  # phenol OH
    ('c1ccccc1O', 'smarts'),  # a SMILES that is valid SMARTS
    ('C1=CC=CC=C1', 'smarts'),  # Kekulé benzene as SMARTS: aliphatic, no aromatic hit
    ('C1=CC=CC=C1', 'smiles'),  # Kekulé benzene as SMILES: aromatized, matches benzene rings
    ('[#6]C(=O)O[#6]', 'smarts'),  # ester
    ('N1C(=O)CN=C(c2ccccc2)c2ccccc21', 'smiles'),  # benzodiazepinone core
]

CUTOFFS = [0.35, 0.6]

# Molecules of reference.json that native RDKit 2022.09 reads but MinimalLib 2026.09 refuses
# (stricter valence rules: hexacoordinate Al with oxonium ligands, PF6 written with P(V)):
# left out of the `reference` set, so that both sides cluster the same molecules.
NOT_IN_MINIMALLIB = {
    'CC1=[O+][Al]23([O+]=C(C)C1)([O+]=C(C)CC(=[O+]2)C)[O+]=C(C)CC(=[O+]3)C',
    'CCCCCCCCCCCCCCCC[N+](C)(C)CC1=CC=CC=C1.F[P](F)(F)(F)(F)F',
}


def fingerprint(m):
    return rdMolDescriptors.GetMorganFingerprintAsBitVect(m, 2, nBits=2048)


def butina(fps, cutoff):
    dists = []
    for i in range(1, len(fps)):
        sims = DataStructs.BulkTanimotoSimilarity(fps[i], fps[:i])
        dists.extend([1 - x for x in sims])
    return [list(c) for c in Butina.ClusterData(dists, len(fps), cutoff, isDistData=True)]


def bits_hash(fp):
    return hashlib.sha1(','.join(str(b) for b in fp.GetOnBits()).encode()).hexdigest()[:16]


def main():
    lib_mols = [Chem.MolFromSmiles(s) for s in LIBRARY]
    parsed = [i for i, m in enumerate(lib_mols) if m is not None]
    lib_fps = {i: fingerprint(lib_mols[i]) for i in parsed}

    similarity = []
    for q in SIMILARITY_QUERIES:
        qfp = fingerprint(Chem.MolFromSmiles(q))
        similarity.append({'query': q, 'similarities': {str(i): DataStructs.TanimotoSimilarity(qfp, lib_fps[i]) for i in parsed}})

    substructure = []
    for q, how in SUBSTRUCTURE_QUERIES:
        qm = Chem.MolFromSmarts(q) if how == 'smarts' else Chem.MolFromSmiles(q)
        hits = {}
        for i in parsed:
            m = lib_mols[i]
            first = m.GetSubstructMatch(qm)
            if first:
                hits[str(i)] = {'atoms': list(first), 'count': len(m.GetSubstructMatches(qm))}
        substructure.append({'query': q, 'format': how, 'matches': hits})

    lib_clusters = {str(c): [[parsed[k] for k in cl] for cl in butina([lib_fps[i] for i in parsed], c)] for c in CUTOFFS}

    ref = json.load(open(REFERENCE))
    ref_smiles = [r['smiles'] for r in ref['molecules']]
    ref_mols = [Chem.MolFromSmiles(s) for s in ref_smiles]
    ref_parsed = [i for i, m in enumerate(ref_mols) if m is not None and ref_smiles[i] not in NOT_IN_MINIMALLIB]
    ref_fps = [fingerprint(ref_mols[i]) for i in ref_parsed]
    reference = {
        'source': 'test/fixtures/chem/reference.json (molecules native RDKit and MinimalLib read, input order)',
        'indices': ref_parsed,
        'bits': [fp.GetNumOnBits() for fp in ref_fps],
        'bits_sha1_16': [bits_hash(fp) for fp in ref_fps],
        'clusters': {str(c): butina(ref_fps, c) for c in CUTOFFS},
    }

    out = {
        'rdkit_version': rdkit.__version__,
        'generator': 'scripts/rdkit/jobs_reference.py',
        'fingerprint': 'GetMorganFingerprintAsBitVect(m, 2, nBits=2048)',
        'library': LIBRARY,
        'library_parsed': parsed,
        'library_on_bits': {str(i): list(lib_fps[i].GetOnBits()) for i in parsed},
        'similarity': similarity,
        'substructure': substructure,
        'library_clusters': lib_clusters,
        'reference': reference,
    }
    with open(OUT, 'w') as f:
        json.dump(out, f, separators=(',', ':'))
        f.write('\n')
    print(f'wrote {OUT}: library {len(LIBRARY)} ({len(parsed)} parsed), reference {len(ref_parsed)} molecules')
    for c in CUTOFFS:
        print(f'  cutoff {c}: library {len(lib_clusters[str(c)])} clusters, reference {len(reference["clusters"][str(c)])} clusters')


if __name__ == '__main__':
    main()
