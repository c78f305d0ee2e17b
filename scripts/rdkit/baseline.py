#!/usr/bin/python3
"""Native RDKit baseline for the /describe benchmark: one process, one thread, computing the
same property set as Crucible's describeMolecule (formula, MolWt, ExactMolWt, MolLogP, TPSA,
NumHBA, NumHBD, NumRotatableBonds, NumAromaticRings, heavy atoms, formal charge, QED, PAINS
A/B/C and Brenk matches) per molecule, and separately a 300x220 SVG depiction per molecule
(rdMolDraw2D.MolDraw2DSVG, atom labels as <text> like Crucible's, and separately with
FreeType glyph outlines, native RDKit's default), over the fixture set
(test/fixtures/chem/reference.json).

Prints one JSON object on stdout, e.g.
  {"rdkit_version": "2022.09.3", "molecules": 1146, "passes": 3,
   "describe_ms_per_molecule": 6.7, "svg_ms_per_molecule": 1.9, ...}
Per-molecule figures are from the best (fastest wall-clock) pass: a pass runs every molecule
once. *_cpu_ms_per_molecule is the CPU time of the process in that pass (less sensitive to
other load on the machine than wall-clock time).

Run: /usr/bin/python3 scripts/rdkit/baseline.py [--passes N] [--smiles FILE] [--limit N]
(--smiles: a .smi file, first column SMILES, instead of the fixture set)
"""
import argparse
import json
import os
import sys
import time

import rdkit
from rdkit import Chem, RDLogger
from rdkit.Chem import QED, Crippen, Descriptors, FilterCatalog, rdMolDescriptors
from rdkit.Chem.Draw import rdMolDraw2D

RDLogger.DisableLog('rdApp.*')

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
FIXTURES = os.path.join(ROOT, 'test', 'fixtures', 'chem', 'reference.json')


def catalog(names):
    params = FilterCatalog.FilterCatalogParams()
    for n in names:
        params.AddCatalog(getattr(FilterCatalog.FilterCatalogParams.FilterCatalogs, n))
    return FilterCatalog.FilterCatalog(params)


PAINS = catalog(['PAINS_A', 'PAINS_B', 'PAINS_C'])
BRENK = catalog(['BRENK'])


def describe(smiles):
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return None
    try:
        qed = QED.qed(mol)
    except Exception:  # noqa: BLE001
        qed = None
    return {
        'formula': rdMolDescriptors.CalcMolFormula(mol),
        'mw': Descriptors.MolWt(mol),
        'monoisotopic_mass': Descriptors.ExactMolWt(mol),
        'clogp': Crippen.MolLogP(mol),
        'tpsa': rdMolDescriptors.CalcTPSA(mol),
        'hba': rdMolDescriptors.CalcNumHBA(mol),
        'hbd': rdMolDescriptors.CalcNumHBD(mol),
        'rotatable_bonds': rdMolDescriptors.CalcNumRotatableBonds(mol),
        'aromatic_rings': rdMolDescriptors.CalcNumAromaticRings(mol),
        'heavy_atoms': mol.GetNumHeavyAtoms(),
        'formal_charge': Chem.GetFormalCharge(mol),
        'qed': qed,
        'pains': [e.GetDescription() for e in PAINS.GetMatches(mol)],
        'brenk': [e.GetDescription() for e in BRENK.GetMatches(mol)],
    }


def depict(smiles, freetype=False):
    """A 300x220 SVG. Without FreeType (the default here) atom labels are SVG <text>, the kind
    of document Crucible returns (MinimalLib with noFreetype); with FreeType (native RDKit's
    own default) labels are drawn as glyph outlines, which costs more."""
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return None
    d = rdMolDraw2D.MolDraw2DSVG(300, 220, -1, -1, not freetype)
    rdMolDraw2D.PrepareAndDrawMolecule(d, mol)
    d.FinishDrawing()
    return d.GetDrawingText()


def depict_freetype(smiles):
    return depict(smiles, freetype=True)


def timed(fn, smiles_list, passes):
    """Best pass: (wall seconds, CPU seconds of this process)."""
    best = None
    for _ in range(passes):
        t0 = time.perf_counter()
        c0 = time.process_time()
        for s in smiles_list:
            fn(s)
        dt = (time.perf_counter() - t0, time.process_time() - c0)
        best = dt if best is None or dt[0] < best[0] else best
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--passes', type=int, default=3)
    ap.add_argument('--smiles', help='a .smi file (first column SMILES) instead of the fixture set')
    ap.add_argument('--limit', type=int, default=0)
    args = ap.parse_args()
    if args.smiles:
        with open(args.smiles) as fh:
            smiles = [line.split()[0] for line in fh if line.strip()]
    else:
        with open(FIXTURES) as fh:
            smiles = [m['smiles'] for m in json.load(fh)['molecules']]
    if args.limit:
        smiles = smiles[:args.limit]
    # warm up (catalog and pattern initialisation happen at import time, but the first calls
    # also touch lazily built RDKit data such as the Crippen parameters)
    for s in smiles[:20]:
        describe(s)
        depict(s)
    t_desc = timed(describe, smiles, args.passes)
    t_svg = timed(depict, smiles, args.passes)
    t_svg_ft = timed(depict_freetype, smiles, args.passes)
    n = len(smiles)
    print(json.dumps({
        'rdkit_version': rdkit.__version__,
        'source': args.smiles or os.path.relpath(FIXTURES, ROOT),
        'molecules': n,
        'passes': args.passes,
        'threads': 1,
        'describe_ms_per_molecule': round(1000 * t_desc[0] / n, 4),
        'svg_ms_per_molecule': round(1000 * t_svg[0] / n, 4),
        'describe_molecules_per_second': round(n / t_desc[0], 2),
        'svg_molecules_per_second': round(n / t_svg[0], 2),
        'describe_cpu_ms_per_molecule': round(1000 * t_desc[1] / n, 4),
        'svg_cpu_ms_per_molecule': round(1000 * t_svg[1] / n, 4),
        'svg_freetype_ms_per_molecule': round(1000 * t_svg_ft[0] / n, 4),
        'svg_labels': 'text (noFreetype), as Crucible; svg_freetype_*: glyph outlines (native default)',
        'svg_size': [300, 220],
    }))


if __name__ == '__main__':
    sys.exit(main())
