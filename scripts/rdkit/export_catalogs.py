#!/usr/bin/python3
"""Export the chemistry data that Crucible's TypeScript properties engine needs from
native RDKit (Debian python3-rdkit), so that nothing is retyped by hand.

Writes (under src/chem/data/):

  filter_catalogs.json  PAINS A/B/C and Brenk entries of RDKit's FilterCatalog:
                        name (entry description), SMARTS of the entry's compiled
                        pattern (RDKit builds it with mergeHs=True, so explicit-H query
                        atoms are already merged), min/max match counts, family, and the
                        exact prefilter data of the pattern (see prefilter()).
  qed.json              RDKit's rdkit.Chem.QED parameters: ADS parameters, weights,
                        acceptor SMARTS, structural-alert SMARTS, aliphatic-ring SMARTS
                        (and prefilter data of the acceptor and alert patterns).
  elements.json         RDKit's periodic table: symbol, average atomic weight, most
                        common isotope, the natural isotopes with exact mass and natural
                        abundance (percent), and the exact mass of every isotope RDKit
                        knows (for isotope-labelled atoms).

Run with the system interpreter (it has rdkit):  /usr/bin/python3 scripts/rdkit/export_catalogs.py
Add --verify to re-check every exported catalog entry against the live FilterCatalog over
/usr/share/RDKit/Data/NCI/first_5K.smi, and the prefilter data (below) against native
matches of every pattern (takes a minute or two).

How the catalog entries are read: the Python wrapper of RDKit 2022.09 does not expose an
entry's matcher (FilterCatalogEntry.GetFilterMatcher is missing), so the entry is
serialised (FilterCatalogEntry.Serialize, a boost text archive) and the SmartsMatcher
fields are read back from it: name, the pickled pattern molecule, min count, max count.
The pickled pattern is turned back into a query molecule (Chem.Mol(pickle)) and written as
SMARTS with Chem.MolToSmarts. The script asserts that the SMARTS round-trips (parse +
write gives the same text), that the name read from the archive equals the entry
description, and, where an entry matches a molecule of the NCI set, that the matcher
object RDKit returns (FilterMatch.filterMatch, a SmartsMatcher) has the same pattern and
counts.
"""
import json
import os
import re
import sys

import rdkit
from rdkit import Chem, RDLogger
from rdkit.Chem import QED, FilterCatalog

RDLogger.DisableLog('rdApp.*')

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
OUT = os.path.join(ROOT, 'src', 'chem', 'data')
NCI = '/usr/share/RDKit/Data/NCI/first_5K.smi'

FAMILIES = [('PAINS_A', 'pains'), ('PAINS_B', 'pains'), ('PAINS_C', 'pains'), ('BRENK', 'brenk')]
UINT_MAX = 4294967295

_HEAD = re.compile(rb'22 serialization::archive \d+[^\n]*\n[^\n]*\n1 0 0 (\d+) ')
_INT = re.compile(rb' (\d+) ')
_COUNTS = re.compile(rb' (\d+) (\d+) ')


def catalog(name):
    params = FilterCatalog.FilterCatalogParams()
    params.AddCatalog(getattr(FilterCatalog.FilterCatalogParams.FilterCatalogs, name))
    return FilterCatalog.FilterCatalog(params)


def parse_entry(entry):
    """Reads (name, pattern pickle, min_count, max_count) of a SmartsMatcher entry."""
    s = entry.Serialize()
    m = _HEAD.match(s)
    if not m:
        raise ValueError('unexpected archive layout: %r' % s[:80])
    pos = m.end()
    n = int(m.group(1))
    name = s[pos:pos + n].decode('utf-8')
    pos += n
    m = _INT.match(s, pos)
    plen = int(m.group(1))
    pos = m.end()
    pickle = s[pos:pos + plen]
    pos += plen
    m = _COUNTS.match(s, pos)
    if not m:
        raise ValueError('no counts after the pattern of %s' % name)
    return name, pickle, int(m.group(1)), int(m.group(2))


# ---- exact prefilter data ----------------------------------------------------------------
#
# For every query atom: the set of (element, aromatic) classes an atom must belong to for the
# query atom to match it, read from RDKit's own query tree (Atom.DescribeQuery). Classes are
# coded z + 1000 * aromatic. The analysis is conservative by construction: any node it does
# not fully understand (negations, recursive SMARTS, H counts, charges, ring queries, ...)
# allows every class, an AND node allows the intersection of its children, an OR node the
# union. A substructure match maps query atoms one-to-one onto molecule atoms, so a molecule
# with fewer atoms in a class set than the number of query atoms that require it (or fewer
# atoms than the query) cannot match: skipping the match then changes no result.

CLASSES = frozenset(z + 1000 * a for z in range(0, 119) for a in (0, 1))
AROMATIC = frozenset(c for c in CLASSES if c >= 1000)
ALIPHATIC = frozenset(c for c in CLASSES if c < 1000)
_LEAF = re.compile(r'^(\w+) (-?\d+) (=|!=) val$')


def _tree(text):
    """DescribeQuery text (two spaces of indent per depth) -> (label, children)."""
    lines = [l for l in text.split('\n') if l.strip()]
    pos = 0

    def node(depth):
        nonlocal pos
        label = lines[pos].strip()
        pos += 1
        children = []
        while pos < len(lines) and (len(lines[pos]) - len(lines[pos].lstrip(' '))) // 2 > depth:
            children.append(node(depth + 1))
        return (label, children)

    root = node(0)
    if pos != len(lines):
        raise AssertionError('unexpected query description: %r' % text)
    return root


def _classes(node):
    label, children = node
    m = _LEAF.match(label)
    if m:
        desc, val, op = m.group(1), int(m.group(2)), m.group(3)
        if op != '=':
            return CLASSES
        if desc == 'AtomAtomicNum':
            return frozenset((val, val + 1000)) & CLASSES
        if desc == 'AtomType':
            return frozenset((val,)) & CLASSES
        if desc == 'AtomIsAromatic' and val == 1:
            return AROMATIC
        if desc == 'AtomIsAliphatic' and val == 1:
            return ALIPHATIC
        return CLASSES
    if label == 'AtomAnd':
        out = CLASSES
        for c in children:
            out = out & _classes(c)
        return out
    if label == 'AtomOr':
        out = frozenset()
        for c in children:
            out = out | _classes(c)
        return out
    return CLASSES


def prefilter(pattern):
    """{'atoms': n, 'sets': [[k, [classes]], ...]} for a query molecule."""
    counts = {}
    for atom in pattern.GetAtoms():
        cls = _classes(_tree(atom.DescribeQuery()))
        if cls == CLASSES:
            continue
        key = tuple(sorted(cls))
        counts[key] = counts.get(key, 0) + 1
    sets = sorted(([k, list(key)] for key, k in counts.items()), key=lambda x: (len(x[1]), x[1]))
    return {'atoms': pattern.GetNumAtoms(), 'sets': sets}


def molecule_classes(mol):
    counts = {}
    for a in mol.GetAtoms():
        c = a.GetAtomicNum() + 1000 * int(a.GetIsAromatic())
        counts[c] = counts.get(c, 0) + 1
    return counts


def prefilter_allows(pf, mol_counts, n_atoms):
    if pf['atoms'] > n_atoms:
        return False
    for k, classes in pf['sets']:
        if sum(mol_counts.get(c, 0) for c in classes) < k:
            return False
    return True


def export_catalogs():
    entries = []
    for cat_name, family in FAMILIES:
        fc = catalog(cat_name)
        for i in range(fc.GetNumEntries()):
            e = fc.GetEntryWithIdx(i)
            name, pickle, min_count, max_count = parse_entry(e)
            if name != e.GetDescription():
                raise AssertionError('archive name %r != description %r' % (name, e.GetDescription()))
            pattern = Chem.Mol(pickle)
            smarts = Chem.MolToSmarts(pattern)
            again = Chem.MolFromSmarts(smarts)
            if again is None or Chem.MolToSmarts(again) != smarts:
                raise AssertionError('SMARTS of %s does not round-trip: %s' % (name, smarts))
            if pattern.GetNumAtoms() != again.GetNumAtoms() or pattern.GetNumBonds() != again.GetNumBonds():
                raise AssertionError('SMARTS of %s changes the pattern size' % name)
            entries.append({
                'family': family,
                'catalog': cat_name,
                'index': i,
                'name': name,
                'smarts': smarts,
                'min_count': min_count,
                'max_count': None if max_count == UINT_MAX else max_count,
                'prefilter': prefilter(again),
            })
    return entries


def verify_catalogs(entries, limit=None):
    """Checks the exported entries against the live catalogs over the NCI set."""
    live = {c: catalog(c) for c, _ in FAMILIES}
    rebuilt = {}
    for e in entries:
        rebuilt.setdefault(e['catalog'], []).append(
            (e, FilterCatalog.SmartsMatcher(e['name'], e['smarts'], e['min_count'],
                                            e['max_count'] if e['max_count'] is not None else UINT_MAX)))
    checked_matchers = set()
    qed_patterns = [(Chem.MolFromSmarts(sm), prefilter(Chem.MolFromSmarts(sm))) for sm in QED.AcceptorSmarts + QED.StructuralAlertSmarts]
    cat_patterns = [(Chem.MolFromSmarts(e['smarts']), e['prefilter']) for e in entries]
    skipped = 0
    tried = 0
    n = 0
    with open(NCI) as fh:
        for line in fh:
            smi = line.split()[0]
            mol = Chem.MolFromSmiles(smi)
            if mol is None:
                continue
            n += 1
            for cat_name, fc in live.items():
                want = [m.GetDescription() for m in fc.GetMatches(mol)]
                got = [e['name'] for e, sm in rebuilt[cat_name] if sm.HasMatch(mol)]
                if want != got:
                    raise AssertionError('%s %s: live %r, exported %r' % (smi, cat_name, want, got))
                for m in fc.GetMatches(mol):
                    for fm in m.GetFilterMatches(mol):
                        matcher = fm.filterMatch
                        key = (cat_name, matcher.GetName())
                        if key in checked_matchers or not hasattr(matcher, 'GetPattern'):
                            continue
                        checked_matchers.add(key)
                        cands = [e for e, _ in rebuilt[cat_name] if e['name'] == matcher.GetName()]
                        ok = any(Chem.MolToSmarts(matcher.GetPattern()) == e['smarts'] and
                                 matcher.GetMinCount() == e['min_count'] and
                                 (matcher.GetMaxCount() == UINT_MAX if e['max_count'] is None else matcher.GetMaxCount() == e['max_count'])
                                 for e in cands)
                        if not ok:
                            raise AssertionError('matcher of %s differs from the export' % matcher.GetName())
            counts = molecule_classes(mol)
            for q, pf in cat_patterns + qed_patterns:
                tried += 1
                if not prefilter_allows(pf, counts, mol.GetNumAtoms()):
                    skipped += 1
                    if mol.HasSubstructMatch(q):
                        raise AssertionError('prefilter would skip a match of %s in %s' % (Chem.MolToSmarts(q), smi))
            if limit and n >= limit:
                break
    print('verified %d molecules, %d matcher objects compared; prefilter skips %.1f%% of pattern matches'
          % (n, len(checked_matchers), 100.0 * skipped / max(1, tried)), file=sys.stderr)


def export_qed():
    props = list(QED.QEDproperties._fields)
    ads = {}
    for k in props:
        p = QED.adsParameters[k]
        ads[k] = {f: getattr(p, f) for f in QED.ADSparameter._fields}
    return {
        'source': 'rdkit.Chem.QED (Bickerton et al. 2012, Nat. Chem. 4, 90-98)',
        'properties': props,
        'ads_parameters': ads,
        'weights': {
            'mean': list(QED.WEIGHT_MEAN),
            'max': list(QED.WEIGHT_MAX),
            'none': list(QED.WEIGHT_NONE),
        },
        'default_weights': 'mean',
        'acceptor_smarts': list(QED.AcceptorSmarts),
        'structural_alert_smarts': list(QED.StructuralAlertSmarts),
        'acceptor_prefilter': [prefilter(Chem.MolFromSmarts(sm)) for sm in QED.AcceptorSmarts],
        'structural_alert_prefilter': [prefilter(Chem.MolFromSmarts(sm)) for sm in QED.StructuralAlertSmarts],
        'aliphatic_rings_smarts': Chem.MolToSmarts(QED.AliphaticRings),
    }


def export_elements():
    pt = Chem.GetPeriodicTable()
    elements = []
    for z in range(0, 119):
        isotopes = []
        known = []
        for a in range(max(1, z), 300):
            mass = pt.GetMassForIsotope(z, a)
            if mass <= 0:
                continue
            known.append([a, mass])
            ab = pt.GetAbundanceForIsotope(z, a)
            if ab > 0:
                isotopes.append([a, mass, ab])
        elements.append({
            'z': z,
            'symbol': pt.GetElementSymbol(z),
            'atomic_weight': pt.GetAtomicWeight(z),
            'most_common_isotope': pt.GetMostCommonIsotope(z),
            'most_common_isotope_mass': pt.GetMostCommonIsotopeMass(z),
            'natural_isotopes': isotopes,
            'isotope_masses': known,
        })
    return elements


def write(name, data, list_key=None):
    """Writes JSON; with list_key, that list gets one compact item per line."""
    path = os.path.join(OUT, name)
    with open(path, 'w') as fh:
        if list_key is None:
            # one top-level key per line, values compact
            fh.write('{\n')
            fh.write(',\n'.join('%s: %s' % (json.dumps(k), json.dumps(v, ensure_ascii=False, separators=(',', ':')))
                                for k, v in data.items()))
            fh.write('\n}')
        else:
            head = {k: v for k, v in data.items() if k != list_key}
            fh.write(json.dumps(head, ensure_ascii=False)[:-1])
            fh.write(', "%s": [\n' % list_key)
            fh.write(',\n'.join(json.dumps(x, ensure_ascii=False, separators=(',', ':')) for x in data[list_key]))
            fh.write('\n]}')
        fh.write('\n')
    print('wrote %s' % os.path.relpath(path, ROOT), file=sys.stderr)


def main():
    os.makedirs(OUT, exist_ok=True)
    meta = {'rdkit_version': rdkit.__version__, 'generator': 'scripts/rdkit/export_catalogs.py'}
    entries = export_catalogs()
    if '--verify' in sys.argv:
        verify_catalogs(entries)
    write('filter_catalogs.json', {**meta, 'entries': entries}, list_key='entries')
    write('qed.json', {**meta, **export_qed()})
    write('elements.json', {**meta, 'abundance_unit': 'percent', 'elements': export_elements()}, list_key='elements')


if __name__ == '__main__':
    main()
