#!/usr/bin/python3
"""A Flask + native RDKit peer of Crucible's sync chemistry path, for `npm run bench:utilities`
(docs/performance.md, "Utilities"): the same three operations over HTTP/JSON, the way a small
Python service would serve them, with Debian's python3-rdkit (2022.09), python3-flask and
gunicorn. Not part of Crucible.

  POST /convert       {"molecules": [...]} -> {"items": [{"index", "smiles", "error", "detail"}]}
  POST /fingerprints  {"molecules": [...]} -> {"items": [{"index", "fingerprint" (on-bit list), "on_bits", "error", "detail"}]}
                      Morgan radius 2, 2048 bits
  POST /depict        {"smiles": [...]}    -> {"items": [{"svg", "error", "detail"}]}
                      300 x 220, atom labels as SVG <text> (noFreetype), as Crucible draws

A molecule RDKit cannot read is an item with "error": "unparseable", as in Crucible. No auth,
no size checks, no usage counting: the peer does less than Crucible per request.

Run (2 workers, one per core, keep-alive): gunicorn -w 2 -k gthread --threads 1 --keep-alive 30 -b 127.0.0.1:8765 --chdir scripts/rdkit flask_peer:app
"""
from flask import Flask, jsonify, request
from rdkit import Chem, RDLogger
from rdkit.Chem import rdFingerprintGenerator
from rdkit.Chem.Draw import rdMolDraw2D

RDLogger.DisableLog('rdApp.*')
app = Flask(__name__)
MORGAN = rdFingerprintGenerator.GetMorganGenerator(radius=2, fpSize=2048)


def _bad(index=None):
    item = {'error': 'unparseable', 'detail': 'RDKit could not read the SMILES'}
    if index is not None:
        item['index'] = index
    return item


@app.post('/convert')
def convert():
    items = []
    for i, s in enumerate(request.get_json()['molecules']):
        m = Chem.MolFromSmiles(s)
        items.append({'index': i, 'smiles': Chem.MolToSmiles(m), 'error': None, 'detail': None} if m is not None else _bad(i))
    return jsonify({'items': items})


@app.post('/fingerprints')
def fingerprints():
    items = []
    for i, s in enumerate(request.get_json()['molecules']):
        m = Chem.MolFromSmiles(s)
        if m is None:
            items.append(_bad(i))
            continue
        bits = list(MORGAN.GetFingerprint(m).GetOnBits())
        items.append({'index': i, 'fingerprint': bits, 'on_bits': len(bits), 'error': None, 'detail': None})
    return jsonify({'items': items})


@app.post('/depict')
def depict():
    items = []
    for s in request.get_json()['smiles']:
        m = Chem.MolFromSmiles(s)
        if m is None:
            items.append({'svg': None, **_bad()})
            continue
        d = rdMolDraw2D.MolDraw2DSVG(300, 220, -1, -1, True)
        rdMolDraw2D.PrepareAndDrawMolecule(d, m)
        d.FinishDrawing()
        items.append({'svg': d.GetDrawingText(), 'error': None, 'detail': None})
    return jsonify({'items': items})


@app.get('/health')
def health():
    return {'ok': True}
