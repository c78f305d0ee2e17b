// The pose program (docs/structure.md, "Pose checks and interactions"): a Python script run by
// Debian's python3-rdkit as the `rdkit` engine. `check` measures one pose against its own
// distance-geometry bounds, its rings, its declared stereochemistry and the receptor, and writes
// the complex PLIP reads; `interactions` reads PLIP's XML report back onto the pose's atoms and
// draws the 2D diagram. Thresholds and their sources: docs/structure.md.
import { PYTHON_MAIN } from '../rdkit/program.js';

export const POSE_PROGRAM = {
  file: 'crucible_poses.py',
  source: String.raw`# Crucible's pose program (docs/structure.md, "Pose checks and interactions"): Debian's
# python3-rdkit run as the "rdkit" engine. Reads request.json, writes result.json. Commands:
#   check:        PoseBusters-style checks of one pose (heavy atoms only) against the receptor,
#                 and the complex PDB (receptor + the pose as HETATM residue LIG) for PLIP
#   interactions: PLIP's XML report read back onto the pose's atom indices, and the 2D diagram
import glob, json, math, os, sys
import xml.etree.ElementTree as ET
import numpy as np
from rdkit import Chem, RDLogger
from rdkit.Chem import rdDepictor
from rdkit.Chem.Draw import rdMolDraw2D
from rdkit.Chem.rdDistGeom import GetMoleculeBoundsMatrix

RDLogger.DisableLog("rdApp.*")
PT = Chem.GetPeriodicTable()

# Thresholds (docs/structure.md, "Pose checks and interactions"; PoseBusters' dock configuration)
BOND_TOL = 0.25      # a bond may be 25% outside its distance-geometry bounds
ANGLE_TOL = 0.25     # a 1-3 distance likewise
CLASH_TOL = 0.30     # a pair 3 or more bonds apart may come to 70% of its lower bound
FLAT_TOL = 0.25      # A: aromatic ring atoms from their best plane
PROTEIN_RATIO = 0.75 # ligand-protein heavy-atom distance / sum of vdW radii
FLAT_RINGS = ["[ar5^2]1[ar5^2][ar5^2][ar5^2][ar5^2]1", "[ar6^2]1[ar6^2][ar6^2][ar6^2][ar6^2][ar6^2]1"]


def read_pose(text):
    mol = Chem.MolFromMolBlock(text, removeHs=False, sanitize=True)
    if mol is None:
        raise ValueError("RDKit cannot read the pose")
    if mol.GetNumConformers() == 0 or not mol.GetConformer().Is3D():
        raise ValueError("the pose has no 3D coordinates")
    return mol


def rnd(x, n=3):
    return None if x is None else round(float(x), n)


def relative_error(d, lo, hi):
    """How far a distance is outside [lo, hi], relative to the bound it passes (0 inside)."""
    if d > hi:
        return (d - hi) / hi
    if d < lo:
        return (d - lo) / lo
    return 0.0


def geometry(mol):
    """Bond lengths, 1-3 distances (angles) and internal clashes against RDKit's bounds matrix."""
    heavy = [a.GetIdx() for a in mol.GetAtoms() if a.GetAtomicNum() > 1]
    bounds = GetMoleculeBoundsMatrix(mol, set15bounds=True, scaleVDW=True, doTriangleSmoothing=True, useMacrocycle14config=False)
    pos = mol.GetConformer().GetPositions()
    topo = Chem.GetDistanceMatrix(mol)
    worst = {"bond_lengths": None, "bond_angles": None, "internal_clash": None}
    counts = {"bond_lengths": [0, 0], "bond_angles": [0, 0], "internal_clash": [0, 0]}
    for x in range(len(heavy)):
        for y in range(x + 1, len(heavy)):
            i, j = heavy[x], heavy[y]
            lo, hi = bounds[max(i, j)][min(i, j)], bounds[min(i, j)][max(i, j)]
            d = float(np.linalg.norm(pos[i] - pos[j]))
            sep = topo[i][j]
            if sep == 1 or sep == 2:
                name, tol = ("bond_lengths", BOND_TOL) if sep == 1 else ("bond_angles", ANGLE_TOL)
                err = relative_error(d, lo, hi)
                score = abs(err)
                entry = {"atoms": [i, j], "distance_a": rnd(d), "lower_a": rnd(lo), "upper_a": rnd(hi), "relative_error": rnd(err)}
            else:
                name, tol = "internal_clash", CLASH_TOL
                err = min(0.0, (d - lo) / lo)
                score = -err
                entry = {"atoms": [i, j], "bonds_apart": int(sep), "distance_a": rnd(d), "lower_a": rnd(lo), "ratio_to_lower": rnd(d / lo)}
            counts[name][0] += 1
            if score > tol:
                counts[name][1] += 1
            if worst[name] is None or score > worst[name][0]:
                worst[name] = (score, entry)
    out = {}
    for name, (checked, bad) in counts.items():
        tol = {"bond_lengths": BOND_TOL, "bond_angles": ANGLE_TOL, "internal_clash": CLASH_TOL}[name]
        out[name] = {"passed": bad == 0, "checked": checked, "outside": bad, "tolerance": tol, "worst": worst[name][1] if worst[name] else None}
    return out


def flatness(mol):
    pos = mol.GetConformer().GetPositions()
    rings, worst = [], 0.0
    for smarts in FLAT_RINGS:
        for match in mol.GetSubstructMatches(Chem.MolFromSmarts(smarts)):
            if sorted(match) in [r["atoms"] for r in rings]:
                continue
            p = pos[list(match)]
            centred = p - p.mean(axis=0)
            normal = np.linalg.svd(centred)[2][-1]
            dev = float(np.max(np.abs(centred @ normal)))
            rings.append({"atoms": sorted(int(k) for k in match), "max_distance_a": rnd(dev)})
            worst = max(worst, dev)
    bad = [r for r in rings if r["max_distance_a"] > FLAT_TOL]
    return {"passed": not bad, "checked": len(rings), "outside": len(bad), "tolerance_a": FLAT_TOL, "max_distance_a": rnd(worst), "rings": rings}


def cip_centres(mol):
    Chem.AssignStereochemistry(mol, cleanIt=True, force=True)
    return {a.GetIdx(): a.GetProp("_CIPCode") for a in mol.GetAtoms() if a.HasProp("_CIPCode")}


def bond_stereo(mol):
    Chem.AssignStereochemistry(mol, cleanIt=True, force=True)
    out = {}
    for b in mol.GetBonds():
        s = b.GetStereo()
        if s in (Chem.BondStereo.STEREOE, Chem.BondStereo.STEREOZ):
            out[(b.GetBeginAtomIdx(), b.GetEndAtomIdx())] = "E" if s == Chem.BondStereo.STEREOE else "Z"
    return out


def stereo(text, reference):
    """Centres and double bonds from the 3D coordinates against the declared ones."""
    from3d = Chem.RemoveHs(read_pose(text), sanitize=True)
    # Heavy-atom indices of the pose after RemoveHs, back to the molblock's.
    full = read_pose(text)
    back = [a.GetIdx() for a in full.GetAtoms() if a.GetAtomicNum() > 1 or a.GetIsotope()]
    if len(back) != from3d.GetNumAtoms():
        back = list(range(from3d.GetNumAtoms()))
    Chem.AssignStereochemistryFrom3D(from3d)
    got_c, got_b = cip_centres(from3d), bond_stereo(from3d)
    if reference:
        ref = Chem.MolFromSmiles(reference)
        if ref is None:
            raise ValueError("RDKit cannot read the reference SMILES %r" % reference)
        match = from3d.GetSubstructMatch(ref, useChirality=False)
        if len(match) != ref.GetNumAtoms() or ref.GetNumAtoms() != from3d.GetNumAtoms():
            return {"passed": False, "source": "reference_smiles", "problem": "the pose is not the reference molecule (its heavy-atom graph differs)", "centres": [], "double_bonds": []}
        want_c = {match[k]: v for k, v in cip_centres(ref).items()}
        want_b = {}
        for (i, j), v in bond_stereo(ref).items():
            want_b[tuple(sorted((match[i], match[j])))] = v
        got_b = {tuple(sorted(k)): v for k, v in got_b.items()}
        source = "reference_smiles"
    else:
        declared = Chem.RemoveHs(read_pose(text), sanitize=True)
        has_parity = any(a.HasProp("molParity") and a.GetIntProp("molParity") in (1, 2) for a in declared.GetAtoms())
        if has_parity:
            Chem.AssignAtomChiralTagsFromMolParity(declared, replaceExistingTags=True)
            want_c = cip_centres(declared)
        else:
            want_c = None
        want_b = None
        source = "molblock_parity" if has_parity else "none"
    centres = []
    if want_c is not None:
        for k in sorted(set(want_c) | set(got_c)):
            if k in want_c:
                centres.append({"atom": back[k], "declared": want_c[k], "from_3d": got_c.get(k), "same": got_c.get(k) == want_c[k]})
    bonds = []
    if want_b is not None:
        for k in sorted(want_b):
            bonds.append({"atoms": [back[k[0]], back[k[1]]], "declared": want_b[k], "from_3d": got_b.get(k), "same": got_b.get(k) == want_b[k]})
    passed = all(c["same"] for c in centres) and all(b["same"] for b in bonds)
    note = None if source != "none" else "no stereo declared (no atom parity in the molblock and no reference_smiles): nothing to compare"
    return {"passed": passed, "source": source, "centres": centres, "double_bonds": bonds, **({"note": note} if note else {})}


def receptor_atoms(path):
    names, els, xyz = [], [], []
    for line in open(path):
        if not line.startswith(("ATOM", "HETATM")):
            continue
        el = line[76:78].strip() or "".join(c for c in line[12:16] if c.isalpha())[:1]
        el = el[:1].upper() + el[1:].lower()
        if el in ("H", "D"):
            continue
        xyz.append([float(line[30:38]), float(line[38:46]), float(line[46:54])])
        els.append(el)
        names.append("%s %s %d %s" % (line[17:20].strip(), line[21].strip() or "-", int(line[22:26]), line[12:16].strip()))
    return names, els, np.array(xyz).reshape(-1, 3)


def rvdw(el):
    try:
        return PT.GetRvdw(el)
    except Exception:
        return 1.8


def protein_clash(mol, receptor):
    names, els, xyz = receptor
    pos = mol.GetConformer().GetPositions()
    worst = None
    bad = 0
    radii = np.array([rvdw(e) for e in els])
    for a in mol.GetAtoms():
        if a.GetAtomicNum() <= 1:
            continue
        d = np.linalg.norm(xyz - pos[a.GetIdx()], axis=1)
        ratio = d / (radii + PT.GetRvdw(a.GetAtomicNum()))
        bad += int(np.sum(ratio < PROTEIN_RATIO))
        k = int(np.argmin(ratio))
        if worst is None or ratio[k] < worst["ratio"]:
            worst = {"ratio": rnd(ratio[k]), "ligand_atom": a.GetIdx(), "protein_atom": names[k], "distance_a": rnd(d[k])}
    near = float(min(np.min(np.linalg.norm(xyz - p, axis=1)) for p in pos)) if len(xyz) else None
    return {"passed": bad == 0, "clashing_pairs": bad, "threshold_ratio": PROTEIN_RATIO, "closest": worst, "nearest_protein_atom_a": rnd(near)}


def complex_pdb(mol, receptor_path, out_path):
    """The receptor's atoms renumbered 1..N, TER, then the pose as HETATM LIG Z 1 (serials N+2...)."""
    lines, n = [], 0
    for line in open(receptor_path):
        if line.startswith(("ATOM", "HETATM")):
            n += 1
            lines.append(line[:6] + "%5d" % (n % 100000) + line[11:].rstrip("\n"))
    lines.append("TER   %5d" % (n + 1))
    first = n + 2
    pos = mol.GetConformer().GetPositions()
    counts = {}
    for a in mol.GetAtoms():
        el = a.GetSymbol()
        counts[el] = counts.get(el, 0) + 1
        name = ("%s%d" % (el, counts[el]))[:4]
        name = (" " + name) if len(el) == 1 and len(name) < 4 else name
        x, y, z = pos[a.GetIdx()]
        q = a.GetFormalCharge()
        charge = "%d%s" % (abs(q), "+" if q > 0 else "-") if q else "  "
        lines.append("HETATM%5d %-4s LIG Z   1    %8.3f%8.3f%8.3f  1.00  0.00          %2s%2s" % ((first + a.GetIdx()) % 100000, name, x, y, z, el.upper(), charge))
    # A CONECT record per bond, repeated for each order of its Kekule form: Open Babel, inside PLIP,
    # reads bond orders from the repeats, and formal charges from columns 79-80 (without them
    # imatinib's piperazinium N-H to Ile 360 O is not found).
    kek = Chem.Mol(mol)
    Chem.Kekulize(kek, clearAromaticFlags=True)
    for b in kek.GetBonds():
        order = {Chem.BondType.DOUBLE: 2, Chem.BondType.TRIPLE: 3}.get(b.GetBondType(), 1)
        for _ in range(order):
            lines.append("CONECT%5d%5d" % (first + b.GetBeginAtomIdx(), first + b.GetEndAtomIdx()))
    lines.append("END")
    open(out_path, "w").write("\n".join(lines) + "\n")
    return first


def cmd_check(req):
    mol = read_pose(req["molblock"])
    receptor = receptor_atoms(req["receptor"])
    details = geometry(mol)
    details["aromatic_ring_flatness"] = flatness(mol)
    details["stereochemistry"] = stereo(req["molblock"], req.get("reference_smiles"))
    if details["stereochemistry"].get("problem", "").startswith("the pose is not the reference molecule"):
        return {"mismatch": "the pose's atoms do not match the ligand (its reference SMILES %s): its heavy-atom graph differs" % req["reference_smiles"]}
    details["protein_clash"] = protein_clash(mol, receptor)
    order = ["bond_lengths", "bond_angles", "aromatic_ring_flatness", "stereochemistry", "internal_clash", "protein_clash"]
    failed = [k for k in order if not details[k]["passed"]]
    first = complex_pdb(mol, req["receptor"], req["complex"])
    heavy = [a.GetIdx() for a in mol.GetAtoms() if a.GetAtomicNum() > 1]
    return {"checks": {"passed": not failed, "failed": failed, "details": details}, "first_serial": first, "heavy_atoms": len(heavy)}


# PLIP's XML elements (plipcmd -x, PLIP 2.2.2) and the ligand atoms each names.
KINDS = [
    ("hydrogen_bond", "hbond", "dist_d-a", lambda e: [e.findtext("acceptoridx") if e.findtext("protisdon") == "True" else e.findtext("donoridx")]),
    ("salt_bridge", "salt_bridge", "dist", lambda e: [i.text for i in e.iter("idx") if i in list(e.find("lig_idx_list") or [])]),
    ("pi_stack", "pi_stack", "centdist", lambda e: [i.text for i in (e.find("lig_idx_list") or [])]),
    ("pi_cation_interaction", "cation_pi", "dist", lambda e: [i.text for i in (e.find("lig_idx_list") or [])]),
    ("hydrophobic_interaction", "hydrophobic", "dist", lambda e: [e.findtext("ligcarbonidx")]),
    ("halogen_bond", "halogen", "dist", lambda e: [e.findtext("don_idx")]),
]


def plip_serials(out_dir):
    """PLIP's own renumbered complex (plipfixed.*.pdb): serial -> coordinates, to map back by position."""
    found = glob.glob(os.path.join(out_dir, "plipfixed.*.pdb"))
    coords = {}
    if found:
        for line in open(found[0]):
            if line.startswith("HETATM") and line[17:20] == "LIG":
                coords[int(line[6:11])] = np.array([float(line[30:38]), float(line[38:46]), float(line[46:54])])
    return coords


def cmd_interactions(req):
    mol = read_pose(req["molblock"])
    pos = mol.GetConformer().GetPositions()
    first = req["first_serial"]
    fixed = plip_serials(req["plip_dir"])

    def atom_of(serial):
        s = int(serial)
        if s in fixed:
            d = np.linalg.norm(pos - fixed[s], axis=1)
            k = int(np.argmin(d))
            if d[k] < 0.01:
                return k
        k = s - first
        return k if 0 <= k < mol.GetNumAtoms() else None

    root = ET.parse(os.path.join(req["plip_dir"], "report.xml")).getroot()
    out = []
    for site in root.iter("bindingsite"):
        ident = site.find("identifiers")
        if ident is None or ident.findtext("hetid") != "LIG":
            continue
        for tag, kind, dist_tag, atoms in KINDS:
            for e in site.iter(tag):
                lig = e.find("lig_idx_list")
                serials = [i.text for i in lig] if lig is not None and tag in ("salt_bridge", "pi_stack", "pi_cation_interaction") else atoms(e)
                idx = sorted({a for a in (atom_of(s) for s in serials if s) if a is not None})
                residue = "%s %s %s" % (e.findtext("restype"), e.findtext("reschain"), e.findtext("resnr"))
                item = {"type": kind, "ligand_atoms": idx, "residue": residue, "distance_a": rnd(e.findtext(dist_tag), 2)}
                out.append(item)
    order = {k[1]: n for n, k in enumerate(KINDS)}
    out.sort(key=lambda i: (order[i["type"]], i["distance_a"] if i["distance_a"] is not None else 99))
    return {"interactions": out, "svg": diagram(mol, out, req.get("title") or "")}


COLOURS = {"hbond": "#1f6fd1", "salt_bridge": "#c2185b", "pi_stack": "#2e9d3a", "cation_pi": "#e08a00", "hydrophobic": "#7a7a7a", "halogen": "#0097a7"}
LABELS = {"hbond": "hydrogen bond", "salt_bridge": "salt bridge", "pi_stack": "pi stacking", "cation_pi": "cation-pi", "hydrophobic": "hydrophobic", "halogen": "halogen bond"}


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def diagram(mol, interactions, title):
    """RDKit's 2D drawing of the ligand, the residues it touches around it, a dashed line per interaction."""
    heavy = [a.GetIdx() for a in mol.GetAtoms() if a.GetAtomicNum() > 1]
    flat = Chem.RemoveHs(mol)
    if flat.GetNumAtoms() != len(heavy):
        flat, heavy = Chem.Mol(mol), list(range(mol.GetNumAtoms()))
    to2d = {old: new for new, old in enumerate(heavy)}
    flat.RemoveAllConformers()
    rdDepictor.SetPreferCoordGen(True)
    rdDepictor.Compute2DCoords(flat)
    W, H, M = 900, 720, 170  # canvas; the molecule in the middle, labels in the margin M
    d = rdMolDraw2D.MolDraw2DSVG(W - 2 * M, H - 2 * M - 40)
    d.drawOptions().clearBackground = False
    d.drawOptions().addAtomIndices = False
    d.DrawMolecule(flat)
    d.FinishDrawing()
    body = d.GetDrawingText()
    inner = body[body.index(">", body.index("<svg")) + 1 : body.rindex("</svg>")]
    inner = "\n".join(l for l in inner.split("\n") if not l.startswith("<?xml") and not l.startswith("<!--"))
    drawn = {i: (d.GetDrawCoords(i).x + M, d.GetDrawCoords(i).y + M) for i in range(flat.GetNumAtoms())}
    cx = sum(p[0] for p in drawn.values()) / max(1, len(drawn))
    cy = sum(p[1] for p in drawn.values()) / max(1, len(drawn))

    def anchor(atoms):
        pts = [drawn[to2d[a]] for a in atoms if a in to2d]
        if not pts:
            return (cx, cy)
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))

    # One label per residue, at the angle of the ligand atoms it touches, spread apart on an ellipse.
    residues = {}
    for it in interactions:
        residues.setdefault(it["residue"], []).append(it)
    # Each label starts 130 px out from its atoms (away from the drawing's centre), then labels are
    # pushed off each other and off the molecule's box until none overlaps (docs/structure.md).
    xs, ys = [p[0] for p in drawn.values()], [p[1] for p in drawn.values()]
    mol_box = (min(xs) - 18, min(ys) - 18, max(xs) + 18, max(ys) + 18)
    boxes = []
    for res, its in sorted(residues.items()):
        ax, ay = anchor(sorted({a for it in its for a in it["ligand_atoms"]}))
        dx, dy = ax - cx, ay - cy
        norm = math.hypot(dx, dy) or 1.0
        dx, dy = (dx / norm, dy / norm) if math.hypot(ax - cx, ay - cy) > 1 else (0.0, -1.0)
        w = 16 + 9.0 * len(res)
        boxes.append({"res": res, "x": ax + 130 * dx, "y": ay + 130 * dy, "w": w, "h": 26})
    top, bottom = 40, H - 60

    def clamp(bx):
        bx["x"] = min(max(bx["x"], bx["w"] / 2 + 6), W - bx["w"] / 2 - 6)
        bx["y"] = min(max(bx["y"], top + 13), bottom - 13)

    for _ in range(400):
        moved = False
        for bx in boxes:
            clamp(bx)
            x0, y0, x1, y1 = bx["x"] - bx["w"] / 2, bx["y"] - 13, bx["x"] + bx["w"] / 2, bx["y"] + 13
            if x1 > mol_box[0] and x0 < mol_box[2] and y1 > mol_box[1] and y0 < mol_box[3]:
                up, down = y1 - mol_box[1], mol_box[3] - y0
                bx["y"] += -min(up, 8) if (up < down and bx["y"] - up > top) or bx["y"] + down > bottom else min(down, 8)
                moved = True
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                p, q = boxes[i], boxes[j]
                ox = (p["w"] + q["w"]) / 2 + 8 - abs(p["x"] - q["x"])
                oy = 26 + 8 - abs(p["y"] - q["y"])
                if ox > 0 and oy > 0:
                    sy = 1 if p["y"] <= q["y"] else -1
                    p["y"] -= sy * min(oy, 6) / 2
                    q["y"] += sy * min(oy, 6) / 2
                    moved = True
        if not moved:
            break
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">' % (W, H, W, H), '<rect width="100%%" height="100%%" fill="white"/>']
    labels = []
    for bx in boxes:
        res, lx, ly, w = bx["res"], bx["x"], bx["y"], bx["w"]
        for it in residues[res]:
            ax, ay = anchor(it["ligand_atoms"])
            parts.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2.2" stroke-dasharray="7,5" opacity="0.85"/>' % (ax, ay, lx, ly, COLOURS[it["type"]]))
        kinds = sorted({it["type"] for it in residues[res]}, key=list(COLOURS).index)
        labels.append('<g class="residue"><rect x="%.1f" y="%.1f" width="%.1f" height="26" rx="13" fill="white" stroke="%s" stroke-width="2"/>' % (lx - w / 2, ly - 13, w, COLOURS[kinds[0]]))
        labels.append('<text x="%.1f" y="%.1f" font-family="DejaVu Sans, Arial, sans-serif" font-size="15" text-anchor="middle" fill="#222">%s</text></g>' % (lx, ly + 5, esc(res)))
    parts.append('<g class="ligand" transform="translate(%d,%d)">%s</g>' % (M, M, inner))
    parts.extend(labels)
    used = [k for k in COLOURS if any(it["type"] == k for it in interactions)] or list(COLOURS)
    x = 20
    for k in used:
        parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2.5" stroke-dasharray="7,5"/>' % (x, H - 25, x + 34, H - 25, COLOURS[k]))
        parts.append('<text x="%d" y="%d" font-family="DejaVu Sans, Arial, sans-serif" font-size="14" fill="#222">%s</text>' % (x + 40, H - 20, LABELS[k]))
        x += 60 + 8 * len(LABELS[k])
    if title:
        parts.append('<text x="20" y="26" font-family="DejaVu Sans, Arial, sans-serif" font-size="16" fill="#222">%s</text>' % esc(title))
    if not interactions:
        parts.append('<text x="%d" y="%d" font-family="DejaVu Sans, Arial, sans-serif" font-size="15" text-anchor="middle" fill="#555">PLIP found no interaction</text>' % (W / 2, H - 50))
    parts.append("</svg>")
    return "\n".join(parts)


COMMANDS = {"check": cmd_check, "interactions": cmd_interactions}

${PYTHON_MAIN}`,
};
