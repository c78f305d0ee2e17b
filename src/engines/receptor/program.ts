// Crucible's PDBFixer program (docs/structure.md, "Receptor preparation"): a Python script run
// by Debian's python3-pdbfixer (with OpenMM) as the `pdbfixer` engine. Two commands, one request
// and one result per run (JSON files), like the RDKit program (src/engines/rdkit/program.ts):
//   fix:     drops every hydrogen (PDB2PQR adds them all again at the pH), lists the gaps in the
//            chains (missing residues, never built), lists and, when asked, adds the missing
//            heavy atoms of the residues present (side chains, backbone atoms, terminal OXT)
//   finish:  reads PDB2PQR's output, puts back any kept hetero group PDB2PQR dropped (it keeps
//            those it has no template for as they are, without hydrogens, and gives waters
//            theirs as WAT), writes element columns where missing, and counts atoms,
//            hydrogens and the residue names that carry a protonation state (HID, HIE, HIP, ASH,
//            GLH, LYN, CYX, CYM, ...).
import fs from 'node:fs';
import path from 'node:path';
import { ReceptorProblem } from '../docking/receptor.js';
import { lastLines, type EngineTools } from '../tools.js';
import { PYTHON_MAIN } from '../rdkit/program.js';

const PROGRAM = String.raw`# Crucible's PDBFixer program (docs/structure.md, "Receptor preparation"): Debian's
# python3-pdbfixer run as an engine. Reads request.json, writes result.json. Commands:
#   fix:     hydrogens out, gaps listed (not built), missing heavy atoms listed and added
#   finish:  kept hetero groups back after PDB2PQR, element columns, counts, residue names
import json, sys

BACKBONE = {"N", "CA", "C", "O", "OXT"}


def label(name, chain, number):
    return "%s %s %s" % (name, chain.strip() or "_", number.strip())


def cmd_fix(req):
    from pdbfixer import PDBFixer
    from openmm.app import Modeller, PDBFile

    fixer = PDBFixer(filename=req["input"])
    m = Modeller(fixer.topology, fixer.positions)
    m.delete([a for a in m.topology.atoms() if a.element is not None and a.element.symbol in ("H", "D")])
    fixer.topology, fixer.positions = m.topology, m.positions
    fixer.findMissingResidues()
    chains = list(fixer.topology.chains())
    gaps = []
    for (ci, ri), names in sorted(fixer.missingResidues.items()):
        chain = chains[ci]
        res = list(chain.residues())
        if ri < len(res):
            where = "before " + label(res[ri].name, chain.id, res[ri].id)
        else:
            where = "after " + label(res[-1].name, chain.id, res[-1].id)
        gaps.append({"chain": chain.id, "where": where, "residues": len(names), "terminal": ri == 0 or ri >= len(res)})
    # Missing residues (loops and tails) are never built: a modelled loop is a guess, and a
    # docking box near it would score against it.
    fixer.missingResidues = {}
    fixer.findMissingAtoms()
    changes = []
    for r, atoms in fixer.missingAtoms.items():
        names = [a.name for a in atoms]
        what = "side-chain atoms" if not BACKBONE.intersection(names) else "atoms"
        changes.append({"residue": label(r.name, r.chain.id, r.id), "what": "added %s %s" % (what, ", ".join(names)), "atoms": len(names)})
    for r, names in fixer.missingTerminals.items():
        changes.append({"residue": label(r.name, r.chain.id, r.id), "what": "added terminal atoms " + ", ".join(names), "atoms": len(names)})
    if req["fill"]:
        fixer.addMissingAtoms(seed=0)
    else:
        changes = []
    with open(req["output"], "w") as f:
        PDBFile.writeFile(fixer.topology, fixer.positions, f, keepIds=True)
    return {"changes": changes, "gaps": gaps}


def key(line):
    return (line[21:22], line[22:27], line[17:20].strip())


def element(line):
    e = line[76:78].strip()
    if e:
        return e.upper()
    name = line[12:16]
    return (name[0:2] if name[0].isalpha() else name[1:2]).strip().upper()


def cmd_finish(req):
    out = []
    seen = set()
    for line in open(req["pdb2pqr"]):
        line = line.rstrip("\n")
        if line.startswith(("ATOM  ", "HETATM")):
            if not line[76:78].strip():
                # PDB2PQR's atom names of proteins start with their element (H, C, N, O, S).
                line = line[:76].ljust(76) + line[12:16].strip()[0].rjust(2)
            seen.add(key(line)[:2])
            out.append(line)
        elif line.startswith("TER"):
            out.append("TER")
    restored = {}
    for line in open(req["fixed"]):
        # By chain and number: PDB2PQR renames what it keeps (HOH -> WAT).
        if line.startswith("HETATM") and key(line)[:2] not in seen:
            out.append(line.rstrip("\n"))
            restored[key(line)] = True
    atoms = hydrogens = 0
    names = {}
    for line in out:
        if line.startswith(("ATOM  ", "HETATM")):
            atoms += 1
            if element(line) in ("H", "D"):
                hydrogens += 1
            if line.startswith("ATOM  "):
                names[key(line)] = line[17:20].strip()
    with open(req["output"], "w") as f:
        f.write("\n".join(out + ["END"]) + "\n")
    return {
        "atoms": atoms,
        "hydrogens": hydrogens,
        "residues": [[n, k[0], k[1].strip()] for k, n in names.items()],
        "restored": [label(k[2], k[0], k[1]) for k in restored],
    }


COMMANDS = {"fix": cmd_fix, "finish": cmd_finish}

${PYTHON_MAIN}`;

/** Runs one command of the program in `dir`; PDBFixer's exception is a ReceptorProblem (the job's input). */
export async function runPdbfixer<T>(tools: EngineTools, dir: string, request: Record<string, unknown>, timeoutMs = 600_000): Promise<T> {
  fs.writeFileSync(path.join(dir, 'crucible_pdbfixer.py'), PROGRAM);
  fs.writeFileSync(path.join(dir, 'request.json'), JSON.stringify(request));
  const result = path.join(dir, 'result.json');
  fs.rmSync(result, { force: true });
  const r = await tools.run('pdbfixer', ['crucible_pdbfixer.py', 'request.json'], dir, { timeoutMs, threads: 1 });
  let out: { ok?: T; error?: string } | null = null;
  try {
    out = JSON.parse(fs.readFileSync(result, 'utf8')) as { ok?: T; error?: string };
  } catch {
    /* it stopped before writing */
  }
  if (out?.ok !== undefined) return out.ok;
  const what = request.command === 'fix' ? 'PDBFixer could not read or complete the structure' : "PDB2PQR's output could not be read";
  throw new ReceptorProblem(`${what}: ${out?.error ?? lastLines(r.stderr || r.stdout)}`);
}
