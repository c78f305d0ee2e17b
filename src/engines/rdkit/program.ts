// Crucible's RDKit program (docs/questions.md): a Python script run by
// Debian's python3-rdkit as the `rdkit` engine. It finds ionisable sites by the SMARTS catalogue
// it is given (src/engines/questions/sites.ts), builds protonation states, enumerates tautomers,
// lists the bonds to break, and embeds 3D conformers (ETKDG, then MMFF94 or UFF). xtb does every
// energy; the script only builds structures. One request and one result per run (JSON files).
import fs from 'node:fs';
import path from 'node:path';
import { discoverEngines } from '../discovery.js';
import { localTools } from '../local-tools.js';
import { makeScratch, removeScratch } from '../scratch.js';
import { ItemFailure, lastLines, type EngineTools } from '../tools.js';

/** The end of every embedded Python program: run request.json's command, write result.json (`ok` or `error`). */
export const PYTHON_MAIN = String.raw`if __name__ == "__main__":
    request = json.load(open(sys.argv[1]))
    try:
        result = {"ok": COMMANDS[request["command"]](request)}
    except Exception as err:
        result = {"error": "%s: %s" % (type(err).__name__, err)}
    json.dump(result, open("result.json", "w"))
`;

const PROGRAM = String.raw`# Crucible's RDKit program (docs/questions.md): Debian's python3-rdkit
# run as an engine. Reads request.json, writes result.json. Commands:
#   sites:      the ionisable sites of each molecule (SMARTS catalogue given in the request)
#   forms:      protonation states of one molecule: SMILES, charge and 3D conformers of each
#   tautomers:  RDKit's tautomer enumeration, with 3D conformers of each tautomer
#   bonds:      a molecule's X-H bonds (one per set of symmetry-equivalent hydrogens) or the
#               bonds given, checked, and the parent's 3D conformers
#   fragments:  the two radicals of each bond broken, with their own 3D conformers
#   pose:       a 3D pose (molblock) with its missing hydrogens added at computed positions
#               (heavy atoms and any hydrogens given kept, new ones appended), and 3D conformers
#               of the same molecule in the same atom order (a pose's strain, src/engines/poses)
# Atom indices are the input SMILES's (heavy atoms as written, then the hydrogens AddHs adds).
import json, sys
from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem, rdMolDescriptors
from rdkit.Chem.MolStandardize import rdMolStandardize

RDLogger.DisableLog("rdApp.*")


def read(text):
    """A SMILES or a molblock (its atom order kept)."""
    mol = Chem.MolFromMolBlock(text) if "\n" in text.strip() else Chem.MolFromSmiles(text)
    if mol is None:
        raise ValueError("RDKit cannot read the structure")
    return mol


def neutral(text):
    return rdMolStandardize.Uncharger().uncharge(read(text))


def conformers(mol, count, seed, rms=0.3):
    """ETKDG conformers with every hydrogen, MMFF94-minimised (UFF where MMFF has no types), pruned, lowest first."""
    mh = Chem.AddHs(mol)
    if count <= 0:
        return mh, []
    params = AllChem.ETKDGv3()
    params.randomSeed = seed
    params.pruneRmsThresh = rms
    params.numThreads = 1
    ids = list(AllChem.EmbedMultipleConfs(mh, numConfs=count, params=params))
    if not ids:
        params.useRandomCoords = True
        ids = list(AllChem.EmbedMultipleConfs(mh, numConfs=count, params=params))
    if not ids:
        raise ValueError("RDKit could not embed the structure in 3D")
    if AllChem.MMFFHasAllMoleculeParams(mh):
        res = AllChem.MMFFOptimizeMoleculeConfs(mh, maxIters=2000, numThreads=1)
    else:
        res = AllChem.UFFOptimizeMoleculeConfs(mh, maxIters=2000, numThreads=1)
    order = sorted(range(len(ids)), key=lambda i: res[i][1])
    blocks = [full_bond_lines(Chem.MolToMolBlock(mh, confId=ids[i], kekulize=True)) for i in order]
    return mh, blocks


def full_bond_lines(block):
    """RDKit writes a V2000 bond line's first four fields only; xtb's reader wants all seven."""
    lines = block.split("\n")
    atoms, bonds = int(lines[3][0:3]), int(lines[3][3:6])
    for k in range(4 + atoms, 4 + atoms + bonds):
        lines[k] = lines[k][:12].ljust(12) + "  0  0  0"
    return "\n".join(lines)


def smiles_of(mol):
    return Chem.MolToSmiles(Chem.RemoveHs(mol))


def site_matches(mol, catalogue):
    """Each site atom once, with the first catalogue entry that matches it (the catalogue is ordered)."""
    seen = {}
    for entry in catalogue:
        patt = Chem.MolFromSmarts(entry["smarts"])
        for match in mol.GetSubstructMatches(patt, uniquify=True, maxMatches=1000):
            atom = match[entry.get("atom", 0)]
            if atom not in seen:
                seen[atom] = entry
    return [
        {"atom_index": a, "element": mol.GetAtomWithIdx(a).GetSymbol(), "class": e["class"], "kind": e["kind"], "hydrogens": mol.GetAtomWithIdx(a).GetTotalNumHs()}
        for a, e in sorted(seen.items())
    ]


def cmd_sites(req):
    mol = neutral(req["smiles"])
    return {
        "smiles": Chem.MolToSmiles(mol),
        "charge": Chem.GetFormalCharge(mol),
        "rotatable": rdMolDescriptors.CalcNumRotatableBonds(mol),
        "sites": site_matches(mol, req["catalogue"]),
    }


def changed(mol, sites, state):
    """The molecule with each site whose state is 1 changed: an acid loses a proton, a base gains one."""
    rw = Chem.RWMol(mol)
    for site, on in zip(sites, state):
        if not on:
            continue
        atom = rw.GetAtomWithIdx(site["atom_index"])
        h = atom.GetTotalNumHs()
        atom.SetNoImplicit(True)
        if site["kind"] == "acid":
            if h < 1:
                raise ValueError("site %d has no proton to lose" % site["atom_index"])
            atom.SetNumExplicitHs(h - 1)
            atom.SetFormalCharge(atom.GetFormalCharge() - 1)
        else:
            atom.SetNumExplicitHs(h + 1)
            atom.SetFormalCharge(atom.GetFormalCharge() + 1)
    m = rw.GetMol()
    Chem.SanitizeMol(m)
    return m


def cmd_forms(req):
    mol = neutral(req["smiles"])
    out = []
    for state in req["states"]:
        m = changed(mol, req["sites"], state)
        _, blocks = conformers(m, req.get("conformers", 0), req.get("seed", 42))
        out.append({"smiles": smiles_of(m), "charge": Chem.GetFormalCharge(m), "molblocks": blocks})
    return out


def with_stereo(mol, t):
    """The tautomer t of mol with mol's sp3 stereocentres back where t still has them (the same
    hydrogens, single bonds only): RDKit's enumerator clears every centre that takes part in a
    shift, in every form (docs/questions.md, "Tautomers"). Atoms keep their indices in t."""
    t = Chem.Mol(t)
    for a in mol.GetAtoms():
        b = t.GetAtomWithIdx(a.GetIdx())
        if (
            a.GetChiralTag() != Chem.ChiralType.CHI_UNSPECIFIED
            and b.GetChiralTag() == Chem.ChiralType.CHI_UNSPECIFIED
            and b.GetTotalNumHs() == a.GetTotalNumHs()
            and all(x.GetBondType() == Chem.BondType.SINGLE for x in b.GetBonds())
        ):
            b.SetChiralTag(a.GetChiralTag())
    Chem.AssignStereochemistry(t, cleanIt=True, force=True)
    return t


def cmd_tautomers(req):
    mol = read(req["smiles"])
    enum = rdMolStandardize.TautomerEnumerator()
    enum.SetMaxTautomers(req["max"] + 1)
    enum.SetMaxTransforms(10000)
    result = enum.Enumerate(mol)
    tautomers = [with_stereo(mol, t) for t in result]
    if len(tautomers) > req["max"]:
        return {"count": len(tautomers), "over": True, "tautomers": []}
    out = []
    for t in tautomers:
        _, blocks = conformers(t, req.get("conformers", 0), req.get("seed", 42))
        out.append({"smiles": Chem.MolToSmiles(t), "charge": Chem.GetFormalCharge(t), "molblocks": blocks})
    canon = Chem.MolToSmiles(with_stereo(mol, enum.Canonicalize(mol)))
    return {"count": len(out), "over": False, "canonical": canon, "tautomers": out}


def cmd_bonds(req):
    """The bonds to break: those given (checked), else one X-H bond per set of symmetry-equivalent hydrogens on C, N, O and S; and the parent's conformers."""
    mol = read(req["smiles"])
    mh = Chem.AddHs(mol)
    ranks = list(Chem.CanonicalRankAtoms(mh, breakTies=False))
    bonds = req.get("bonds")
    out = []
    if not bonds:
        seen = set()
        for atom in mh.GetAtoms():
            if atom.GetSymbol() not in ("C", "N", "O", "S"):
                continue
            for nb in atom.GetNeighbors():
                if nb.GetAtomicNum() == 1 and ranks[nb.GetIdx()] not in seen:
                    seen.add(ranks[nb.GetIdx()])
                    equivalent = sum(1 for r in ranks if r == ranks[nb.GetIdx()])
                    out.append({"atoms": [atom.GetIdx(), nb.GetIdx()], "equivalent": equivalent})
    else:
        for i, j in bonds:
            if j < 0 and 0 <= i < mh.GetNumAtoms():
                # [i, -1]: a hydrogen of atom i (the calibration names bonds by their heavy atom).
                hs = [nb.GetIdx() for nb in mh.GetAtomWithIdx(int(i)).GetNeighbors() if nb.GetAtomicNum() == 1]
                j = hs[0] if hs else j
            out.append({"atoms": [i, j], "equivalent": 1})
    for b in out:
        i, j = b["atoms"]
        if min(i, j) < 0 or max(i, j) >= mh.GetNumAtoms():
            b["error"] = "the molecule has %d atoms with its hydrogens" % mh.GetNumAtoms()
            continue
        bond = mh.GetBondBetweenAtoms(int(i), int(j))
        b["elements"] = [mh.GetAtomWithIdx(int(i)).GetSymbol(), mh.GetAtomWithIdx(int(j)).GetSymbol()]
        if bond is None:
            b["error"] = "atoms %d and %d are not bonded" % (i, j)
        elif bond.GetBondType() != Chem.BondType.SINGLE or bond.IsInRing():
            b["error"] = "only a single bond outside rings breaks into two radicals here"
    _, blocks = conformers(mol, req.get("conformers", 0), req.get("seed", 42))
    return {"smiles": Chem.MolToSmiles(mol), "atoms": mh.GetNumAtoms(), "bonds": out, "molblocks": blocks}


def cmd_fragments(req):
    """The two radicals (or radical and atom) of each bond [i, j], with 3D conformers of each (an atom has none)."""
    mh = Chem.AddHs(read(req["smiles"]))
    out = []
    for i, j in req["bonds"]:
        rw = Chem.RWMol(mh)
        rw.RemoveBond(int(i), int(j))
        for k in (i, j):
            a = rw.GetAtomWithIdx(int(k))
            a.SetNoImplicit(True)
            a.SetNumRadicalElectrons(a.GetNumRadicalElectrons() + 1)
        broken = rw.GetMol()
        Chem.SanitizeMol(broken)
        sides = []
        for ids in Chem.GetMolFrags(broken, asMols=False, sanitizeFrags=False):
            sub = Chem.RWMol(broken)
            for k in sorted(set(range(broken.GetNumAtoms())) - set(ids), reverse=True):
                sub.RemoveAtom(k)
            piece = sub.GetMol()
            Chem.SanitizeMol(piece)
            blocks = conformers(piece, req.get("conformers", 0), req.get("seed", 42))[1] if piece.GetNumAtoms() > 1 else []
            sides.append({"atoms": sorted(ids), "smiles": Chem.MolToSmiles(piece), "molblocks": blocks})
        out.append({"bond": [i, j], "sides": sides})
    return out


def cmd_pose(req):
    """The pose with every hydrogen (AddHs addCoords: the pose's atoms keep their coordinates), and the conformers of that molecule (same atom order; stereo from the pose's 3D)."""
    mol = Chem.MolFromMolBlock(req["molblock"], removeHs=False, sanitize=True)
    if mol is None or mol.GetNumConformers() == 0:
        raise ValueError("RDKit cannot read the pose")
    Chem.AssignStereochemistryFrom3D(mol)
    mh = Chem.AddHs(mol, addCoords=True)
    _, blocks = conformers(mh, req.get("conformers", 0), req.get("seed", 42))
    radicals = sum(a.GetNumRadicalElectrons() for a in mh.GetAtoms())
    return {
        "molblock": full_bond_lines(Chem.MolToMolBlock(mh, kekulize=True)),
        "hydrogens_added": mh.GetNumAtoms() - mol.GetNumAtoms(),
        "heavy_atoms": [a.GetIdx() for a in mh.GetAtoms() if a.GetAtomicNum() > 1],
        "charge": Chem.GetFormalCharge(mh),
        "multiplicity": radicals + 1,
        "rotatable": rdMolDescriptors.CalcNumRotatableBonds(mh),
        "smiles": smiles_of(mh),
        "molblocks": blocks,
    }


COMMANDS = {"sites": cmd_sites, "pose": cmd_pose, "forms": cmd_forms, "tautomers": cmd_tautomers, "bonds": cmd_bonds, "fragments": cmd_fragments}

${PYTHON_MAIN}`;

/** Runs one command of the program in `dir`; its failure (RDKit's exception) is an ItemFailure. */
export async function runRdkit<T>(tools: EngineTools, dir: string, request: Record<string, unknown>, timeoutMs = 300_000): Promise<T> {
  return runPythonProgram<T>(tools, dir, { file: 'crucible_rdkit.py', source: PROGRAM }, request, timeoutMs);
}

/**
 * Runs a Python program of RDKit's (request.json in, result.json out: {ok} or {error}) as the
 * `rdkit` engine in `dir`; its failure (the program's exception) is an ItemFailure.
 */
export async function runPythonProgram<T>(
  tools: EngineTools,
  dir: string,
  program: { file: string; source: string },
  request: Record<string, unknown>,
  timeoutMs = 300_000,
): Promise<T> {
  fs.writeFileSync(path.join(dir, program.file), program.source);
  fs.writeFileSync(path.join(dir, 'request.json'), JSON.stringify(request));
  const result = path.join(dir, 'result.json');
  fs.rmSync(result, { force: true });
  const r = await tools.run('rdkit', [program.file, 'request.json'], dir, { timeoutMs, threads: 1 });
  let out: { ok?: T; error?: string } | null = null;
  try {
    out = JSON.parse(fs.readFileSync(result, 'utf8')) as { ok?: T; error?: string };
  } catch {
    /* it stopped before writing */
  }
  if (out?.ok !== undefined) return out.ok;
  throw new ItemFailure('engine_failed', `RDKit: ${out?.error ?? lastLines(r.stderr || r.stdout)}`);
}

/**
 * One command of the program in this process (a job type's checks at submit): null when this
 * process has no rdkit engine, or when RDKit fails on the input (the job then says why).
 */
export async function runRdkitHere<T>(request: Record<string, unknown>, timeoutMs = 20_000): Promise<T | null> {
  if (!(await discoverEngines()).rdkit.available) return null;
  const dir = makeScratch('rdkit-submit');
  try {
    return await runRdkit<T>(await localTools(1), dir, request, timeoutMs);
  } catch (err) {
    if (err instanceof ItemFailure) return null;
    throw err;
  } finally {
    removeScratch(dir);
  }
}
