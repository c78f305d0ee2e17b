#!/usr/bin/python3
"""Native RDKit baseline for `npm run bench:utilities`: one process, one thread, doing what the
`convert` and `fingerprints` utilities do per molecule, over a .smi file:

- convert: MolFromSmiles + MolToSmiles (canonical) + MolToInchi + InchiToInchiKey. Debian's
  RDKit is built without InChI support, so there it is MolFromSmiles + MolToSmiles only (the
  output says so): the baseline then does less work than Crucible, which favours it.
- fingerprints: MolFromSmiles + Morgan radius 2, 2048 bits (rdFingerprintGenerator) + the on-bit list.

Prints one JSON object on stdout with molecules per second of the best (fastest) pass of each.

Run: /usr/bin/python3 scripts/rdkit/utilities_baseline.py --smiles FILE [--limit N] [--passes N]
"""
import argparse
import json
import time

import rdkit
from rdkit import Chem, RDLogger
from rdkit.Chem import rdFingerprintGenerator

RDLogger.DisableLog('rdApp.*')
INCHI = hasattr(Chem, 'MolToInchi') and Chem.inchi.INCHI_AVAILABLE if hasattr(Chem, 'inchi') else False


def convert(smiles):
    for s in smiles:
        m = Chem.MolFromSmiles(s)
        if m is None:
            continue
        Chem.MolToSmiles(m)
        if INCHI:
            Chem.InchiToInchiKey(Chem.MolToInchi(m))


def fingerprints(smiles):
    gen = rdFingerprintGenerator.GetMorganGenerator(radius=2, fpSize=2048)
    for s in smiles:
        m = Chem.MolFromSmiles(s)
        if m is None:
            continue
        list(gen.GetFingerprint(m).GetOnBits())


def best_rate(fn, smiles, passes):
    best = float('inf')
    for _ in range(passes):
        t = time.perf_counter()
        fn(smiles)
        best = min(best, time.perf_counter() - t)
    return len(smiles) / best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--smiles', required=True)
    ap.add_argument('--limit', type=int, default=5000)
    ap.add_argument('--passes', type=int, default=3)
    a = ap.parse_args()
    with open(a.smiles) as f:
        smiles = [line.split()[0] for line in f if line.strip()][: a.limit]
    print(json.dumps({
        'rdkit_version': rdkit.__version__,
        'molecules': len(smiles),
        'passes': a.passes,
        'inchi': bool(INCHI),
        'convert_per_sec': best_rate(convert, smiles, a.passes),
        'fingerprints_per_sec': best_rate(fingerprints, smiles, a.passes),
    }))


if __name__ == '__main__':
    main()
