#!/usr/bin/python3
"""RDKit's verdict on "is this compound name a structure?" for the JS check of
src/lookups/structure.ts.

docs/api-decisions.md, "Science lookups": a compound "name" that is an InChI or parses as a SMILES of two or more
atoms is a structure. RDKit's SMILES reader treats text after whitespace as the molecule's name
(and a CXSMILES |...| block after the SMILES as extensions), so what counts is the first
whitespace-separated token. For every string below this script records what RDKit 2022.09
(Debian python3-rdkit) makes of that token:

  smiles_atoms    atoms of Chem.MolFromSmiles(token) (sanitised, as a user's RDKit would read
                  it), or null when RDKit rejects it
  reaction_atoms  for a token with '>', the atoms of all templates of
                  rdChemReactions.ReactionFromSmarts(token, useSmiles=True), or null
  inchi           the string is an InChI: it starts with "InChI=" in any letter case (RDKit's
                  MolFromInchi would parse only the canonical spelling, but the rule is about
                  what leaves the service, so any case counts)
  structure       inchi, or smiles_atoms >= 2, or reaction_atoms >= 2

Run:  /usr/bin/python3 scripts/lookups/structure_reference.py > test/fixtures/lookups/structure/rdkit-reference.json
The output is committed; test/lookups/structure.test.ts asserts that the JS check agrees.
"""
import json
import re
import sys

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import rdChemReactions

RDLogger.DisableLog("rdApp.*")

# Real compound names, including names that are also valid SMILES (CS gas, NO, CNP, Co...),
# element symbols, formulas, abbreviations, IUPAC names and brand names.
NAMES = [
    "aspirin", "Aspirin", "ASPIRIN", "paracetamol", "acetaminophen", "ibuprofen", "caffeine",
    "vitamin C", "vitamin B12", "vitamin B6", "vitamin D3", "vitamin K1", "coenzyme Q10",
    "CS gas", "CS", "CN gas", "CN", "CR gas", "Co", "NO", "CO", "CO2", "NO2", "N2O", "SO2",
    "SO3", "H2O", "H2O2", "O2", "O3", "N2", "Cl2", "Br2", "I2", "F2", "ICl", "IF", "IBr", "BrCl",
    "ClF", "NaCl", "KCl", "KCN", "NaCN", "HCN", "HCl", "HF", "HBr", "NaOH", "KOH", "CaCO3",
    "Fe", "Fe2O3", "Cu", "CuSO4", "Ni", "Sn", "Sc", "Cs", "Os", "No", "Bi", "Po", "Pb", "Pt",
    "Ba", "Si", "Se", "Ca", "Na", "Nb", "Cf", "Cl", "Br", "I", "C", "N", "O", "S", "P", "B",
    "F", "B12", "OH", "CH4", "C2H6", "C6H6", "C2H5OH", "CH3COOH", "NH3", "NH4Cl", "PCl5", "SF6",
    "CCl4", "CHCl3", "CS2", "COS", "POCl3", "SOCl2", "BF3", "BBr3", "PBr3", "CBr4", "CI4",
    "NI3", "ClO2", "IO3", "BrO3",
    "CNP", "CNS", "CFC", "CFCs", "HFC", "PFOS", "PFOA", "PFAS", "PCB", "PCBs", "PCP", "DDT",
    "TNT", "LSD", "MDMA", "GHB", "THC", "CBD", "DMSO", "DMF", "THF", "DCM", "TFA", "EDTA",
    "ATP", "ADP", "AMP", "cAMP", "cGMP", "NAD", "NADH", "NADPH", "FAD", "CoA", "SAM", "BHT",
    "BHA", "PABA", "SDS", "TCEP", "DTT", "BSA", "PBS", "HEPES", "MOPS", "CHAPS", "Tris", "TEA",
    "DIPEA", "DBU", "DMAP", "NBS", "NCS", "NIS", "BOC", "Boc2O", "Fmoc", "TBS", "TMS", "TIPS",
    "PPh3", "BINAP", "DPPF", "Pd(PPh3)4", "Pd/C", "LiAlH4", "NaBH4", "DIBAL-H", "mCPBA",
    "PCC", "IBX", "DMP", "TEMPO", "AIBN", "BPO", "CSA", "PPTS", "TsOH", "MsCl", "TsCl",
    "glycine", "alanine", "D-glucose", "L-alanine", "L-DOPA", "D-(+)-glucose", "beta-carotene",
    "alpha-tocopherol", "(S)-ibuprofen", "(R)-thalidomide", "(+)-camphor", "(-)-menthol",
    "2-propanol", "1-butanol", "1,4-dioxane", "N,N-dimethylformamide", "cis-2-butene",
    "trans-resveratrol", "sodium chloride", "acetic acid", "benzene", "toluene", "naphthalene",
    "ethanol", "methanol", "propan-2-ol", "acetone", "chloroform", "water", "ammonia",
    "2-acetoxybenzoic acid", "2-(acetyloxy)benzoic acid", "N-(4-hydroxyphenyl)acetamide",
    "1,3,7-trimethylpurine-2,6-dione", "(2S)-2-aminopropanoic acid",
    "4-[(E)-2-phenylethenyl]phenol", "[2.2.2]cryptand", "benzo[a]pyrene",
    "dibenz[a,h]anthracene", "18-crown-6", "2,4,6-trinitrotoluene", "1H-indole", "9H-fluorene",
    "tert-butanol", "sec-butyl alcohol", "n-hexane", "o-xylene", "p-cresol", "m-cresol",
    "Tylenol", "Advil", "Lipitor", "Viagra", "Prozac", "Zoloft", "Xanax", "Valium", "Gleevec",
    "Herceptin", "Keytruda", "Co-codamol", "Z-drug", "Nurofen", "Panadol", "Ozempic",
    "imatinib", "gefitinib", "erlotinib", "osimertinib", "sildenafil", "atorvastatin",
    "metformin", "morphine", "codeine", "nicotine", "cocaine", "penicillin G", "amoxicillin",
    "cisplatin", "carboplatin", "doxorubicin", "paclitaxel", "warfarin", "heparin", "insulin",
    "Co(II) chloride", "Fe(III) oxide", "Cu(OH)2", "Ca(OH)2", "Mg(OH)2", "Al2(SO4)3",
    "CO gas", "NO synthase", "OCOC", "CCCC", "CCO", "CCN", "COC", "NCCO", "OCCO",
    "BBB", "PPP", "SSS", "FFF", "OOO", "NNN", "CCCCCCCC", "IOC", "SOC", "SOP", "POP", "COP",
    "BOP", "NOP", "CPC", "CIP", "CBS", "NCI", "FBI", "OSI", "SCI",
]

# Gene symbols, protein and disease names and other identifiers sent to the free-text
# operations (Open Targets, UniProt, RCSB, ChEMBL target search).
GENES = [
    "EGFR", "BRCA1", "BRCA2", "TP53", "p53", "KRAS", "BRAF", "ABL1", "CCR5", "CXCR4", "PCSK9",
    "IL6", "IL-6", "TNF", "INS", "GCG", "CYP3A4", "HER2", "c-Myc", "MYC", "CFTR", "SOD1",
    "NOS1", "NOS2", "NOS3", "SOS1", "SCN5A", "CNN1", "CCS", "CS", "CNP", "COCH", "CPS1",
    "SCO1", "SCO2", "FOS", "BOC", "CISH", "SOCS1", "NPC1", "ICOS", "SIK1", "CCNB1", "CBS",
    "SON", "CPB1", "NPS", "POC1A", "COPS5", "SNCB", "PC", "CP", "CO1", "BCO1", "SCN1A",
    "S100B", "CD4", "CD8A", "HLA-B", "APOE", "ACE2", "ESR1", "AR", "VEGFA", "PDCD1", "CTLA4",
    "ENSG00000146648", "EFO_0003060", "MONDO_0005148", "Orphanet_558", "CHEMBL25",
    "CHEMBL203", "P00533", "P69905", "Q9Y6K9", "A0A024R161", "C1CCC1", "4HHB", "1CRN",
    "pdb_00004hhb", "hemoglobin", "haemoglobin", "insulin receptor", "ATP synthase",
    "Na+/K+ ATPase", "5-HT2A", "NAD(P)H", "Cu/Zn SOD", "cytochrome c", "nitric oxide synthase",
    "non-small cell lung carcinoma", "type 2 diabetes", "COPD", "Alzheimer disease",
    "breast cancer", "asthma", "CS:GO", "IL-1beta", "TGF-beta", "NF-kB", "NO-synthase",
]

SMILES = [
    "CC(=O)Oc1ccccc1C(=O)O", "CC(=O)OC1=CC=CC=C1C(=O)O", "OC(=O)c1ccccc1OC(C)=O", "c1ccccc1",
    "C1=CC=CC=C1", "c1ccccc1C(=O)O", "C1CC1", "C1CCCCC1", "CC", "C=C", "C#C", "C#N", "N#N",
    "O=O", "O=C=O", "[C-]#[O+]", "[O-][N+](=O)c1ccccc1", "CN(=O)=O", "C[N+](=O)[O-]",
    "[Na+].[Cl-]", "[Na]Cl", "[NH4+].[Cl-]", "[H][H]", "[2H][2H]", "[13CH4]", "[13C]C",
    "*C", "**", "C*", "[*]C", "C.C", "O.O", "CCO.O", "[Fe+2]", "[Fe+2].[O-2]", "[Cu+2].[O-]S(=O)(=O)[O-]",
    "C[C@H](N)C(=O)O", "C[C@@H](N)C(=O)O", "N[C@@H](C)C(=O)O", "F/C=C/F", "F/C=C\\F",
    "C/C=C/C", "CC(C)Cc1ccc(cc1)[C@@H](C)C(=O)O", "CN1C=NC2=C1C(=O)N(C(=O)N2C)C",
    "Cn1cnc2c1c(=O)n(C)c(=O)n2C", "CC(=O)Nc1ccc(O)cc1", "OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O",
    "c1ccc2ccccc2c1", "c1ccc2c(c1)[nH]c1ccccc12", "c1cc[nH]c1", "n1ccccc1", "c1ccncc1",
    "o1cccc1", "s1cccc1", "c1ccsc1", "c1cc[se]c1", "[se]1cccc1", "c1ccoc1", "b1ccccc1",
    "C1=CC=CN1", "C1CC2CCC1C2", "C12CCC1CC2", "C%10CCCCC%10", "C%(100)CCCCC%(100)",
    "C1CC%12CC1CC2", "C=1CCCCC=1", "C(C)(C)(C)C", "CC(C)(C)O", "ClC(Cl)(Cl)Cl", "FC(F)(F)F",
    "BrCCBr", "ICCI", "OCCO", "NCCN", "SCCS", "PCCP", "BCCB", "B(O)(O)O", "P(=O)(O)(O)O",
    "OS(=O)(=O)O", "O=S(=O)=O", "CS(=O)C", "CS(C)=O", "C[S+](C)[O-]", "[O-][Cl+3]([O-])([O-])O",
    "OCl(=O)(=O)=O", "C->N", "[Fe]<-N", "N->[Fe]", "[NH3]->[Cu+2]<-[NH3]", "C$C", "[C]=[C]",
    "C:C", "c:c", "C-C", "C-C-C", "C=C-C=C", "C#CC#C", "N=C=O", "C(=O)=O", "C(C)C", "C(C)(C)C",
    "C(C)1CC1", "C1CC(C)1", "CC(C)(C)(C)C", "C(C)(C)(C)(C)C", "CFC", "FFF", "IFN", "OFF",
    "c1cccc1", "c1ccccc", "c1ccc1", "n1cccc1", "C1CC", "C1CC2", "CC(", "CC)", "C(C", "C()C",
    "C((C))", "C.", ".C", "C..C", "C(.C)", "C=", "=C", "C-", "C11", "C1C1", "CC11", "C12CC12",
    "[Xx]", "[CH5]", "[C@TH1](F)(Cl)Br", "[NH4+:1]", "[CH3:1][OH:2]", "[U]", "[Uuo]", "[#6]C",
    "[C@@H](F)(Cl)Br", "[nH]1cccc1", "c1cc[nH]c1C", "C[nH]", "[nH]C", "cC", "Cc", "cc",
    "c1ccccc1c", "Oc1ccccc1", "Sc1ccccc1", "Clc1ccccc1", "Brc1ccccc1", "Ic1ccccc1",
    "Fc1ccccc1", "CN(C)(C)C", "C[N](C)(C)C", "CClC", "CBrC", "CI(C)C", "CI(C)(C)(C)(C)C",
    "CO(C)C", "C=C=C=C", "CC(=C)(C)C", "B(C)(C)(C)C", "CS(C)(C)(C)(C)(C)C", "CP(C)(C)(C)(C)(C)(C)C",
    "CN=N#N", "ON(=O)=O", "C[N](=O)=O", "N#N=O", "O=N#N", "C1CCCCC1 cyclohexane", "CCO ethanol", "CC(=O)Oc1ccccc1C(=O)O aspirin",
    "CC(=O)Oc1ccccc1C(=O)O\taspirin", "c1ccccc1  benzene", "CCCCCC hexane",
    "aspirin CC(=O)Oc1ccccc1C(=O)O", "benzene (c1ccccc1)", "Cc1ccccc1|c:1|", "ethanol, CCO.",
    "the SMILES c1ccccc1O, please", "'CC(=O)O'",
]

CXSMILES = [
    "Cc1ccccc1 |c:1|", "C[C@H](F)Cl |&1:1|", "CC(C)C |$;;label;$|", "C1CC1 |$_AV:1;2;3$|",
    "CC(=O)O |m:1:2|", "c1ccccc1 |c:0,2,4|", "*c1ccccc1 |$_R1;;;;;;$|", "CC |^1:0|",
    "C[C@@H](O)CC |o1:1| (R)-butan-2-ol", "CCO |$foo;bar;baz$| ethanol",
]

REACTIONS = [
    "CCO>>CC=O", "CC(=O)O.OCC>[H+]>CC(=O)OCC.O", "[CH3:1][OH:2]>>[CH2:1]=[O:2]", ">>",
    "C>>", ">>C", "C>>C", "CC>>", "C>C>C", "c1ccccc1>>C1CCCCC1", "CCO>>CC=O oxidation",
    "C=C.BrBr>>BrCCBr", "CC(=O)Cl.N>>CC(N)=O.Cl", "O>>[OH-].[H+]", "Co>>C", "CCO>",
    "CCO>>>CC", "CC>>C(", "C>N>O", "[Na+].[Cl-]>>[Na].Cl", "C->N>>C", "N->[Cu]>>N.[Cu]",
    "CC>>CC |c:1|", "C11>>C", "C1C1>>C",
]

INCHIS = [
    "InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)",
    "inchi=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)",
    "INCHI=1S/C2H6O/c1-2-3/h3H,2H2,1H3", "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3 ethanol",
    "InChI=1/C2H6O/c1-2-3/h3H,2H2,1H3", "InChI=1S/H2O/h1H2", "InChI=1S/CH4/h1H4",
    "  InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H", "InChi=1S/C6H6/c1-2-4-6-5-3-1/h1-6H",
    "aspirin InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)",
    "1S/C2H6O/c1-2-3/h3H,2H2,1H3", "AuxInfo=1/1/N:3,2,1/rA:3nOCC/rB:s1;s2;/rC:;;;",
    "BSYNRYMUTXBXSQ-UHFFFAOYSA-N", "LFQSCWFLJHTTHZ-UHFFFAOYSA-N", "InChIKey=BSYNRYMUTXBXSQ-UHFFFAOYSA-N",
]

INCHI_RE = re.compile(r"^\s*inchi=", re.IGNORECASE)


def first_token(s):
    parts = s.split()
    return parts[0] if parts else ""


def smiles_atoms(tok):
    if not tok:
        return None
    try:
        m = Chem.MolFromSmiles(tok)
    except Exception:
        return None
    return None if m is None else m.GetNumAtoms()


def reaction_atoms(tok):
    if ">" not in tok:
        return None
    try:
        r = rdChemReactions.ReactionFromSmarts(tok, useSmiles=True)
    except Exception:
        return None
    if r is None:
        return None
    n = 0
    for templates in (r.GetReactants(), r.GetAgents(), r.GetProducts()):
        for t in templates:
            n += t.GetNumAtoms()
    return n


def verdict(s):
    tok = first_token(s)
    sa = smiles_atoms(tok)
    ra = reaction_atoms(tok)
    inchi = bool(INCHI_RE.match(s))
    return {
        "input": s,
        "first_token": tok,
        "smiles_atoms": sa,
        "reaction_atoms": ra,
        "inchi": inchi,
        "structure": inchi or (sa is not None and sa >= 2) or (ra is not None and ra >= 2),
    }


def main():
    groups = [("name", NAMES), ("gene", GENES), ("smiles", SMILES), ("cxsmiles", CXSMILES), ("reaction", REACTIONS), ("inchi", INCHIS)]
    seen = set()
    rows = []
    for kind, items in groups:
        for s in items:
            if s in seen:
                continue
            seen.add(s)
            v = verdict(s)
            v["kind"] = kind
            rows.append(v)
    # Every SMILES again with a trailing name, as users paste them from files.
    for s in SMILES + REACTIONS:
        if " " in s or "\t" in s:
            continue
        t = s + " some compound"
        if t in seen:
            continue
        seen.add(t)
        v = verdict(t)
        v["kind"] = "trailing-name"
        rows.append(v)
    out = {
        "generator": "scripts/lookups/structure_reference.py",
        "rdkit": rdBase.rdkitVersion,
        "rule": "structure = InChI (any case) or first whitespace token parses (RDKit MolFromSmiles, sanitised) with >= 2 atoms, or as a reaction SMILES with >= 2 atoms",
        "count": len(rows),
        "cases": rows,
    }
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
