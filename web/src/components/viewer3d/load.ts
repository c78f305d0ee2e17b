// 3Dmol.js, loaded on first use: `import('3dmol')` makes it a chunk of its own, fetched only when a
// result has 3D structures (issue 28, point 5). Its non-module build creates a Blob worker URL
// for molecular surfaces when it loads; the console never asks for a molecular surface (an
// orbital's or the density's isosurface from a cube file is drawn on the page's own thread), so
// no worker runs and the page's CSP (script-src 'self', no worker-src) holds. Nothing here uses eval: 3Dmol
// evaluates callbacks given as strings only, and the console passes none.
import { authFetch } from '../../api/client.ts';

export type Mol3D = typeof import('3dmol');
export type Viewer = ReturnType<Mol3D['createViewer']>;

let once: Promise<Mol3D> | null = null;
/** The 3Dmol module (fetched once). */
export function load3Dmol(): Promise<Mol3D> {
  once ??= import('3dmol').catch((err: unknown) => {
    once = null;
    throw err;
  });
  return once;
}

const receptors = new Map<string, Promise<string>>();
/** A receptor's PDB text (GET /artifacts/{id}/download?port=<port>), fetched once per page. */
export function receptorPdb(artifactId: string, port: string): Promise<string> {
  const key = `${artifactId}/${port}`;
  let p = receptors.get(key);
  if (!p) {
    p = authFetch(`/api/v1/artifacts/${encodeURIComponent(artifactId)}/download?port=${encodeURIComponent(port)}`).then((r) => r.text());
    p.catch(() => receptors.delete(key));
    receptors.set(key, p);
  }
  return p;
}

/** Whether this browser can draw WebGL at all (3Dmol needs it). */
export function hasWebGL(): boolean {
  try {
    const c = document.createElement('canvas');
    return !!(c.getContext('webgl2') ?? c.getContext('webgl'));
  } catch {
    return false;
  }
}

const cubes = new Map<string, Promise<string>>();
/** A cube file of a properties_qm result (GET /artifacts/{id}/download?port=cubes&record=<id>), fetched once per page. */
export function cubeText(artifactId: string, record: string): Promise<string> {
  const key = `${artifactId}/${record}`;
  let p = cubes.get(key);
  if (!p) {
    p = authFetch(`/api/v1/artifacts/${encodeURIComponent(artifactId)}/download?port=cubes&record=${encodeURIComponent(record)}`).then((r) => {
      if (!r.ok) throw new Error(`the cube file answered ${r.status}`);
      return r.text();
    });
    p.catch(() => cubes.delete(key));
    cubes.set(key, p);
  }
  return p;
}
