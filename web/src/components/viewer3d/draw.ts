// What the 3D viewer draws (3Dmol.js): a molecule as sticks and balls; with a docking receptor,
// the protein as a cartoon, the residues within 5 Å of the pose as lines, and the pose as sticks
// with green carbons, the camera on the pocket.
import type { Viewer } from './load.ts';

type Model = ReturnType<Viewer['addModel']>;

export interface Drawn {
  ligand: Model;
  receptor: Model | null;
}

/** Replaces what `viewer` shows with `molblock` (and the receptor's PDB text); keeps the camera when `keepView`. */
export function draw(viewer: Viewer, molblock: string, receptorPdb: string | null, keepView: boolean): Drawn {
  const view = keepView ? viewer.getView() : null;
  viewer.spin(false);
  viewer.removeAllModels();
  const ligand = viewer.addModel(molblock, 'sdf');
  let receptor: Model | null = null;
  if (receptorPdb) {
    receptor = viewer.addModel(receptorPdb, 'pdb');
    receptor.setStyle({}, { cartoon: { color: 'spectrum', opacity: 0.85 } });
    // Waters and hetero groups (the crystal ligand among them) were not part of the docking.
    receptor.setStyle({ hetflag: true }, {});
    viewer.addStyle({ model: receptor, hetflag: false, byres: true, within: { distance: 5, sel: { model: ligand } } }, { line: { linewidth: 1.5 } });
    ligand.setStyle({}, { stick: { radius: 0.22, colorscheme: 'greenCarbon' } });
  } else {
    ligand.setStyle({}, { stick: { radius: 0.14 }, sphere: { scale: 0.22 } });
  }
  if (view) viewer.setView(view);
  else viewer.zoomTo(pocket(ligand, receptor));
  viewer.render();
  return { ligand, receptor };
}

/** What the camera frames: the molecule, or the pose with the receptor's residues within 8 Å (the pocket). */
function pocket(ligand: Model, receptor: Model | null) {
  return receptor ? { or: [{ model: ligand }, { model: receptor, byres: true, within: { distance: 8, sel: { model: ligand } } }] } : { model: ligand };
}

/** The camera back on the molecule (or the pocket). */
export function resetView(viewer: Viewer, drawn: Drawn | null): void {
  if (drawn) viewer.zoomTo(pocket(drawn.ligand, drawn.receptor), 300);
}
