#!/usr/bin/python3
"""Reference values from native RDKit (Debian python3-rdkit) for Crucible's properties
engine tests: writes test/fixtures/chem/reference.json.

Molecules: every 5th structure of /usr/share/RDKit/Data/NCI/first_5K.smi (installed by
Debian rdkit-data) plus the hand-picked set below (drugs, salts, charged molecules, stereo,
isotopes, Cl/Br/S compounds, metals, known PAINS/Brenk hits, edge cases).

Each record carries the native value of every MolecularProperties field that RDKit defines
(formula, mw, monoisotopic_mass, clogp, tpsa, hba, hbd, rotatable_bonds, aromatic_rings,
heavy_atoms, formal_charge, qed, pains, brenk), hba_rdkit2026 (native NumHBA with the
RDKit 2026.03 acceptor fix applied, see below) and, for diagnosis, QED's eight raw
properties.

Run:  /usr/bin/python3 scripts/rdkit/make_fixtures.py [--step N]
"""
import json
import os
import sys

import rdkit
from rdkit import Chem, RDLogger
from rdkit.Chem import QED, Crippen, Descriptors, FilterCatalog, rdMolDescriptors

RDLogger.DisableLog('rdApp.*')

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
NCI = '/usr/share/RDKit/Data/NCI/first_5K.smi'
OUT = os.path.join(ROOT, 'test', 'fixtures', 'chem', 'reference.json')

HAND_PICKED = [
    # drugs
    ('aspirin', 'CC(=O)Oc1ccccc1C(=O)O'),
    ('caffeine', 'Cn1cnc2c1c(=O)n(C)c(=O)n2C'),
    ('ibuprofen', 'CC(C)Cc1ccc(cc1)C(C)C(=O)O'),
    ('paracetamol', 'CC(=O)Nc1ccc(O)cc1'),
    ('nicotine', 'CN1CCC[C@H]1c1cccnc1'),
    ('atorvastatin', 'CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O'),
    ('imatinib', 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1'),
    ('sildenafil', 'CCCc1nn(C)c2c(=O)[nH]c(-c3cc(S(=O)(=O)N4CCN(C)CC4)ccc3OCC)nc12'),
    ('diazepam', 'CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21'),
    ('morphine', 'CN1CC[C@]23c4c5ccc(O)c4O[C@H]2[C@@H](O)C=C[C@H]3[C@H]1C5'),
    ('penicillin G', 'CC1(C)S[C@@H]2[C@H](NC(=O)Cc3ccccc3)C(=O)N2[C@H]1C(=O)O'),
    ('omeprazole', 'COc1ccc2[nH]c([S@@](=O)Cc3ncc(C)c(OC)c3C)nc2c1'),
    ('celecoxib', 'Cc1ccc(-c2cc(C(F)(F)F)nn2-c2ccc(S(N)(=O)=O)cc2)cc1'),
    ('metformin', 'CN(C)C(=N)N=C(N)N'),
    ('warfarin', 'CC(=O)CC(c1ccccc1)c1c(O)c2ccccc2oc1=O'),
    ('ciprofloxacin', 'OC(=O)c1cn(C2CC2)c2cc(N3CCNCC3)c(F)cc2c1=O'),
    ('tamoxifen', 'CC/C(=C(\\c1ccccc1)c1ccc(OCCN(C)C)cc1)c1ccccc1'),
    ('chloroquine', 'CCN(CC)CCCC(C)Nc1ccnc2cc(Cl)ccc12'),
    ('haloperidol', 'OC1(CCN(CCCC(=O)c2ccc(F)cc2)CC1)c1ccc(Cl)cc1'),
    ('furosemide', 'NS(=O)(=O)c1cc(C(=O)O)c(NCc2ccco2)cc1Cl'),
    ('clopidogrel', 'COC(=O)[C@H](c1ccccc1Cl)N1CCc2sccc2C1'),
    ('dopamine', 'NCCc1ccc(O)c(O)c1'),
    ('quercetin', 'O=c1c(O)c(-c2ccc(O)c(O)c2)oc2cc(O)cc(O)c12'),
    ('curcumin', 'COc1cc(/C=C/C(=O)CC(=O)/C=C/c2ccc(O)c(OC)c2)ccc1O'),
    ('cyclosporin A', 'CC[C@H]1C(=O)N(CC(=O)N([C@H](C(=O)N[C@H](C(=O)N([C@H](C(=O)N[C@H](C(=O)N[C@@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N1)[C@@H]([C@H](C)C/C=C/C)O)C)C(C)C)C)CC(C)C)C)CC(C)C)C)C)C)CC(C)C)C)C(C)C)CC(C)C)C)C'),
    ('taxol', 'CC(=O)O[C@@]12CO[C@@H]1C[C@H](O)[C@]1(C)C(=O)[C@H](OC(C)=O)C3=C(C)[C@@H](OC(=O)[C@H](O)[C@@H](NC(=O)c4ccccc4)c4ccccc4)C[C@@](O)([C@@H](OC(=O)c4ccccc4)[C@H]21)C3(C)C'),
    ('vancomycin aglycone fragment', 'N[C@@H](CC(C)C)C(=O)N[C@H]1C(=O)N[C@@H](CC(N)=O)C(=O)N[C@H]2C(=O)N[C@H]3C(=O)N[C@H](C(=O)N[C@@H](C(=O)O)c4cc(O)cc(O)c4-c4cc3ccc4O)[C@H](O)c3ccc(c(Cl)c3)Oc3cc2cc(c3O)Oc2ccc(cc2Cl)[C@H]1O'),
    ('testosterone', 'C[C@]12CC[C@H]3[C@@H](CCC4=CC(=O)CC[C@@]43C)[C@@H]1CC[C@@H]2O'),
    ('glucose', 'OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O'),
    ('adenosine triphosphate', 'Nc1ncnc2c1ncn2[C@@H]1O[C@H](COP(=O)(O)OP(=O)(O)OP(=O)(O)O)[C@@H](O)[C@H]1O'),
    # salts and multi-fragment inputs
    ('sodium acetate', 'CC(=O)[O-].[Na+]'),
    ('metformin hydrochloride', 'Cl.CN(C)C(=N)N=C(N)N'),
    ('sodium chloride', '[Na+].[Cl-]'),
    ('ibuprofen sodium', '[Na+].CC(C)Cc1ccc(cc1)C(C)C(=O)[O-]'),
    ('sertraline hydrochloride', 'Cl.CN[C@H]1CC[C@@H](c2ccc(Cl)c(Cl)c2)c2ccccc21'),
    ('amlodipine besylate', 'CCOC(=O)C1=C(COCCN)NC(C)=C(C(=O)OC)C1c1ccccc1Cl.OS(=O)(=O)c1ccccc1'),
    ('calcium carbonate', '[Ca+2].[O-]C([O-])=O'),
    ('magnesium sulfate', '[Mg+2].[O-]S([O-])(=O)=O'),
    ('potassium trifluoroborate', 'FC(F)(F)[B-](F)(F)F.[K+]'),
    ('ethanol water', 'CCO.O'),
    ('cisplatin', 'N.N.Cl[Pt]Cl'),
    # charged molecules
    ('tetramethylammonium', 'C[N+](C)(C)C'),
    ('acetate', 'CC(=O)[O-]'),
    ('choline', 'C[N+](C)(C)CCO'),
    ('glycine zwitterion', '[NH3+]CC(=O)[O-]'),
    ('pyridinium', 'c1cc[nH+]cc1'),
    ('ammonium', '[NH4+]'),
    ('sulfate dianion', '[O-]S([O-])(=O)=O'),
    ('paraquat', 'C[n+]1ccc(-c2cc[n+](C)cc2)cc1'),
    ('proton', '[H+]'),
    ('hydride', '[H-]'),
    ('nitro benzene', 'O=[N+]([O-])c1ccccc1'),
    ('trimethylsulfonium', 'C[S+](C)C'),
    ('guanidinium', 'NC(N)=[NH2+]'),
    ('phosphate trianion', '[O-]P([O-])([O-])=O'),
    # stereo
    ('L-alanine', 'C[C@H](N)C(=O)O'),
    ('D-alanine', 'C[C@@H](N)C(=O)O'),
    ('trans-difluoroethene', 'F/C=C/F'),
    ('cis-difluoroethene', 'F/C=C\\F'),
    ('thalidomide (R)', 'O=C1CC[C@@H](N2C(=O)c3ccccc3C2=O)C(=O)N1'),
    ('allene axial', 'CC=C=CC'),
    ('tartaric acid meso', 'O[C@@H]([C@H](O)C(=O)O)C(=O)O'),
    # isotopes
    ('13C-methane', '[13CH4]'),
    ('CD3Cl', '[2H]C([2H])([2H])Cl'),
    ('15N-ammonia', '[15NH3]'),
    ('18O-water', '[18OH2]'),
    ('deuterated benzene', '[2H]c1c([2H])c([2H])c([2H])c([2H])c1[2H]'),
    ('13C-glucose', 'OC[C@H]1O[13CH](O)[C@H](O)[C@@H](O)[C@@H]1O'),
    ('34S-thiophene', 'c1cc[34s]c1'),
    ('tritium water', '[3H]O[3H]'),
    ('deuterium', '[2H][2H]'),
    ('11C-raclopride-like', '[11CH3]Oc1c(Cl)cc(Cl)c(O)c1C(=O)NC[C@@H]1CCCN1CC'),
    # Cl / Br / S / I / P / Si / B
    ('chlorobenzene', 'Clc1ccccc1'),
    ('bromobenzene', 'Brc1ccccc1'),
    ('iodobenzene', 'Ic1ccccc1'),
    ('dichloromethane', 'ClCCl'),
    ('chloroform', 'ClC(Cl)Cl'),
    ('carbon tetrachloride', 'ClC(Cl)(Cl)Cl'),
    ('dibromomethane', 'BrCBr'),
    ('bromoform', 'BrC(Br)Br'),
    ('hexachlorobenzene', 'Clc1c(Cl)c(Cl)c(Cl)c(Cl)c1Cl'),
    ('2,4,6-tribromophenol', 'Oc1c(Br)cc(Br)cc1Br'),
    ('thiophene', 'c1ccsc1'),
    ('dimethyl sulfoxide', 'CS(C)=O'),
    ('sulfolane', 'O=S1(=O)CCCC1'),
    ('dimethyl disulfide', 'CSSC'),
    ('thiophenol', 'Sc1ccccc1'),
    ('sulfanilamide', 'Nc1ccc(cc1)S(N)(=O)=O'),
    ('methionine', 'CSCC[C@H](N)C(=O)O'),
    ('elemental sulfur S8', 'S1SSSSSSS1'),
    ('triphenylphosphine', 'c1ccc(cc1)P(c1ccccc1)c1ccccc1'),
    ('tetramethylsilane', 'C[Si](C)(C)C'),
    ('phenylboronic acid', 'OB(O)c1ccccc1'),
    ('trifluoroacetic acid', 'OC(=O)C(F)(F)F'),
    ('PFOS', 'OS(=O)(=O)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)F'),
    ('1-bromo-4-chlorobenzene', 'Clc1ccc(Br)cc1'),
    ('selenophene', 'c1cc[se]c1'),
    # metals and organometallics
    ('ferrocene (ionic)', '[cH-]1cccc1.[cH-]1cccc1.[Fe+2]'),
    ('methylmercury chloride', 'C[Hg]Cl'),
    ('tin tetramethyl', 'C[Sn](C)(C)C'),
    ('iron', '[Fe]'),
    ('uranium', '[U]'),
    ('zinc diacetate', 'CC(=O)[O-].CC(=O)[O-].[Zn+2]'),
    # PAINS / Brenk positives
    ('rhodanine ene', 'S=C1SC(=Cc2ccccc2)C(=O)N1'),
    ('azobenzene', 'c1ccc(cc1)N=Nc1ccccc1'),
    ('catechol', 'Oc1ccccc1O'),
    ('benzoquinone', 'O=C1C=CC(=O)C=C1'),
    ('anil_di_alk', 'CN(C)c1ccc(C=Cc2ccccc2)cc1'),
    ('hydroxyphenyl hydrazone', 'Oc1ccccc1C=NNc1ccccc1'),
    ('michael acceptor', 'C=CC(=O)OC'),
    ('aldehyde', 'O=Cc1ccccc1'),
    ('alkyl iodide', 'CCCCI'),
    ('isocyanate', 'CN=C=O'),
    ('epoxide', 'CC1OC1'),
    ('thiol', 'CCS'),
    ('azide', 'CN=[N+]=[N-]'),
    ('phenol mannich', 'Oc1ccccc1CN1CCCCC1'),
    ('ene_cyano', 'N#CC(C#N)=Cc1ccc(O)cc1'),
    ('quinone methide like', 'O=C1C=CC(=Cc2ccccc2)C=C1'),
    ('triester', 'CC(=O)OCC(COC(C)=O)OC(C)=O'),
    ('polyene', 'CC=CC=CC=CC=CC'),
    ('heptane chain', 'CCCCCCCCCCCC'),
    ('crown ether', 'C1COCCOCCOCCOCCOCCO1'),
    # edge cases
    ('water', 'O'),
    ('methane', 'C'),
    ('hydrogen chloride', 'Cl'),
    ('hydrogen', '[HH]'),
    ('dummy atom', '*C(=O)O'),
    ('radical', '[CH3]'),
    ('carbene', '[CH2]'),
    ('helium', '[He]'),
    ('cubane', 'C12C3C4C1C5C2C3C45'),
    ('adamantane', 'C1C2CC3CC1CC(C2)C3'),
    ('coronene', 'c1cc2ccc3ccc4ccc5ccc6ccc1c7c2c3c4c5c67'),
    ('buckminsterfullerene', 'c12c3c4c5c1c1c6c7c2c2c8c3c3c9c4c4c%10c5c5c1c1c6c6c%11c7c2c2c7c8c3c3c8c9c4c4c9c%10c5c5c1c1c6c6c%11c2c2c7c3c3c8c4c4c9c5c1c1c6c2c3c41'),
    ('porphine', 'c1cc2cc3ccc(cc4ccc(cc5ccc(cc1n2)[nH]5)n4)[nH]3'),
    ('long alkane C60', 'C' * 60),
    ('spiro', 'C1CCC2(CC1)CCCC2'),
    ('macrocycle', 'C1CCCCCCCCCCCCCCCCCCCCCCCCCCCCC1'),
    ('peptide', 'NCC(=O)N[C@@H](C)C(=O)N[C@@H](Cc1ccccc1)C(=O)N[C@@H](CS)C(=O)N[C@@H](CCCNC(N)=N)C(=O)O'),
    ('nucleotide', 'Cc1cn([C@H]2C[C@H](O)[C@@H](COP(=O)(O)O)O2)c(=O)[nH]c1=O'),
    ('aromatic N-oxide', '[O-][n+]1ccccc1'),
    ('hypervalent iodine', 'CC(=O)OI(OC(C)=O)c1ccccc1'),
    ('sulfur hexafluoride', 'FS(F)(F)(F)(F)F'),
    ('xenon difluoride', 'F[Xe]F'),
    ('many Br', 'Brc1c(Br)c(Br)c(Br)c(Br)c1Br'),
    ('many Cl and S', 'Clc1sc(Cl)c(Cl)c1Cl'),
]


def catalog(names):
    params = FilterCatalog.FilterCatalogParams()
    for n in names:
        params.AddCatalog(getattr(FilterCatalog.FilterCatalogParams.FilterCatalogs, n))
    return FilterCatalog.FilterCatalog(params)


# RDKit 2026.03 fixed NumHBA (rdkit/rdkit#8997, PR #9060): the aromatic-nitrogen term of the
# acceptor SMARTS went from $([nH0,o,s;+0]) to $([nH0X2,o,s;+0]), so neutral aromatic N with
# three connections (N-substituted pyrrole / pyridone type) are no longer acceptors. MinimalLib
# 2026.09 has the fix, this native 2022.09 has not. hba_rdkit2026 applies the fix to the native
# count: it removes the atoms only the old term matched (the other terms match no aromatic n).
PRE_8997_EXTRA_ACCEPTORS = Chem.MolFromSmarts('[nH0;+0;!X2]')

PAINS = catalog(['PAINS_A', 'PAINS_B', 'PAINS_C'])
BRENK = catalog(['BRENK'])


def describe(mol):
    try:
        qp = QED.properties(mol)
        qed = QED.qed(mol, qedProperties=qp)
        qprops = dict(qp._asdict())
    except Exception:  # noqa: BLE001 - QED raises ValueError/OverflowError for odd inputs
        qed = None
        qprops = None
    return {
        'formula': rdMolDescriptors.CalcMolFormula(mol),
        'mw': Descriptors.MolWt(mol),
        'monoisotopic_mass': Descriptors.ExactMolWt(mol),
        'clogp': Crippen.MolLogP(mol),
        'tpsa': rdMolDescriptors.CalcTPSA(mol),
        'hba': rdMolDescriptors.CalcNumHBA(mol),
        'hba_rdkit2026': rdMolDescriptors.CalcNumHBA(mol) - len(mol.GetSubstructMatches(PRE_8997_EXTRA_ACCEPTORS)),
        'hbd': rdMolDescriptors.CalcNumHBD(mol),
        'rotatable_bonds': rdMolDescriptors.CalcNumRotatableBonds(mol),
        'aromatic_rings': rdMolDescriptors.CalcNumAromaticRings(mol),
        'heavy_atoms': mol.GetNumHeavyAtoms(),
        'formal_charge': Chem.GetFormalCharge(mol),
        'qed': qed,
        'qed_properties': qprops,
        'pains': [e.GetDescription() for e in PAINS.GetMatches(mol)],
        'brenk': [e.GetDescription() for e in BRENK.GetMatches(mol)],
    }


def molecules(step):
    out = []
    with open(NCI) as fh:
        for i, line in enumerate(fh):
            if i % step:
                continue
            parts = line.split()
            out.append(('NCI %s' % parts[1], 'nci', parts[0]))
    for name, smi in HAND_PICKED:
        out.append((name, 'hand', smi))
    return out


def main():
    step = 5
    if '--step' in sys.argv:
        step = int(sys.argv[sys.argv.index('--step') + 1])
    records = []
    skipped = []
    for name, source, smi in molecules(step):
        mol = Chem.MolFromSmiles(smi)
        if mol is None:
            skipped.append(smi)
            continue
        records.append({'name': name, 'source': source, 'smiles': smi, 'ref': describe(mol)})
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, 'w') as fh:
        json.dump({
            'rdkit_version': rdkit.__version__,
            'generator': 'scripts/rdkit/make_fixtures.py',
            'nci_step': step,
            'unparseable_in_native': skipped,
            'molecules': records,
        }, fh, indent=None, separators=(',', ':'))
        fh.write('\n')
    print('wrote %d molecules (%d unparseable skipped) to %s' % (len(records), len(skipped), os.path.relpath(OUT, ROOT)),
          file=sys.stderr)


if __name__ == '__main__':
    main()
