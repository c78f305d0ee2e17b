// The 3D viewer (docs/console.md, "Jobs"): a result item's structures in 3Dmol.js (conformers,
// an optimised geometry, docking poses with their receptor, scan points), one at a time, chosen
// in a selector that shows each one's energy or score; for a properties_qm result, the isosurface
// of a cube file it wrote (the HOMO, the LUMO or the density), chosen in a second selector. 3Dmol is its own chunk, fetched when the
// first viewer mounts (viewer3d/load.ts). Keyboard: the view is focusable (arrows rotate, + and -
// zoom, 0 resets), and every action is also a button.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { toProblem } from '../api/problem.ts';
import { draw, drawSurface, resetView, type CubeKind, type Drawn } from './viewer3d/draw.ts';
import { cubeText, hasWebGL, load3Dmol, receptorPdb, type Viewer } from './viewer3d/load.ts';
import type { ItemStructures } from './viewer3d/structures.ts';
import './viewer3d/Viewer3D.css';

type Receptor = { artifactId: string; port: string } | { pdbId: string } | null;
/** A cube file of the item: its kind and where it is (the result artifact's `cubes` port, its record). */
export interface Cube {
  kind: CubeKind;
  artifactId: string;
  record: string;
}
const CUBE_LABELS: Record<CubeKind, string> = { homo: 'HOMO (±0.03)', lumo: 'LUMO (±0.03)', density: 'Electron density (0.01 e/Bohr³)' };

const STEP = 15;

/** `onChosen`: told which of the set's structures is shown (a docking pose's diagram follows it). */
export function Viewer3D({ set, receptor = null, cubes = [], onChosen }: { set: ItemStructures; receptor?: Receptor; cubes?: Cube[]; onChosen?: (k: number) => void }) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const viewer = useRef<Viewer | null>(null);
  const drawn = useRef<Drawn | null>(null);
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [chosen, setChosen] = useState(0);
  useEffect(() => onChosen?.(chosen), [chosen, onChosen]);
  const [spinning, setSpinning] = useState(false);
  const [pdb, setPdb] = useState<string | null>(null);
  const [receptorNote, setReceptorNote] = useState<string | null>(null);
  const [surface, setSurface] = useState<CubeKind | ''>('');
  const [surfaceNote, setSurfaceNote] = useState<string | null>(null);
  const artifactId = receptor && 'artifactId' in receptor ? receptor.artifactId : null;
  const port = receptor && 'port' in receptor ? receptor.port : 'file';
  const pdbId = receptor && 'pdbId' in receptor ? receptor.pdbId : null;
  const current = set.structures[Math.min(chosen, set.structures.length - 1)];

  // 3Dmol and its WebGL canvas, once per viewer.
  useEffect(() => {
    let gone = false;
    if (!hasWebGL()) {
      setFailure('This browser has no WebGL, which the 3D viewer needs.');
      return;
    }
    load3Dmol().then(
      (mol) => {
        if (gone || !box.current) return;
        viewer.current = mol.createViewer(box.current, { backgroundColor: 'white', antialias: true });
        setReady(true);
      },
      (err: unknown) => !gone && setFailure(`The 3D viewer could not load: ${(err as Error).message}`),
    );
    return () => {
      gone = true;
      viewer.current?.spin(false);
      viewer.current?.clear();
      viewer.current = null;
    };
  }, []);

  // The docking receptor: the result's `receptor` port (or an older result's uploaded file), read through the public download.
  useEffect(() => {
    setPdb(null);
    setReceptorNote(null);
    if (pdbId)
      setReceptorNote(`The receptor, PDB entry ${pdbId}, is not shown: this result was stored before jobs kept the receptor as docked. Run the docking again to see it here.`);
    if (!artifactId) return;
    let gone = false;
    setReceptorNote('Loading the receptor…');
    receptorPdb(artifactId, port).then(
      (text) => {
        if (gone) return;
        setPdb(text);
        setReceptorNote(null);
      },
      (err: unknown) => !gone && setReceptorNote(`The receptor could not be loaded: ${toProblem(err).detail || toProblem(err).title}`),
    );
    return () => {
      gone = true;
    };
  }, [artifactId, port, pdbId]);

  // What is shown: the chosen structure (and the receptor); a new pose keeps the camera on the pocket.
  useEffect(() => {
    const v = viewer.current;
    if (!ready || !v || !current) return;
    const sameScene = drawn.current !== null && drawn.current.receptor !== null && pdb !== null;
    drawn.current = draw(v, current.molblock, pdb, sameScene);
    setSpinning(false);
  }, [ready, current, pdb]);

  // The chosen cube file's isosurfaces over the structure (none: no surface).
  useEffect(() => {
    const v = viewer.current;
    if (!ready || !v) return;
    const cube = cubes.find((c) => c.kind === surface);
    if (!cube) {
      drawSurface(v, null);
      setSurfaceNote(null);
      return;
    }
    let gone = false;
    setSurfaceNote(`Loading the ${cube.kind === 'density' ? 'density' : cube.kind.toUpperCase()} cube file…`);
    cubeText(cube.artifactId, cube.record).then(
      (text) => {
        if (gone || !viewer.current) return;
        drawSurface(viewer.current, { kind: cube.kind, text });
        setSurfaceNote(null);
      },
      (err: unknown) => !gone && setSurfaceNote(`The cube file could not be loaded: ${toProblem(err).detail || toProblem(err).title}`),
    );
    return () => {
      gone = true;
    };
  }, [ready, surface, cubes]);

  // 3Dmol follows the window's size; a container that changes alone (the phone's rotation, a panel) is told here.
  useEffect(() => {
    const el = box.current;
    if (!el || !ready || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => viewer.current?.resize().render());
    ro.observe(el);
    return () => ro.disconnect();
  }, [ready]);

  const act = (what: 'left' | 'right' | 'up' | 'down' | 'in' | 'out' | 'reset' | 'spin') => {
    const v = viewer.current;
    if (!v) return;
    if (what === 'left' || what === 'right') v.rotate(what === 'left' ? -STEP : STEP, 'y', 150);
    else if (what === 'up' || what === 'down') v.rotate(what === 'up' ? -STEP : STEP, 'x', 150);
    else if (what === 'in' || what === 'out') v.zoom(what === 'in' ? 1.25 : 0.8, 150);
    else if (what === 'reset') resetView(v, drawn.current);
    else {
      v.spin(spinning ? false : 'y', 0.5);
      setSpinning(!spinning);
    }
  };
  const onKey = (e: KeyboardEvent) => {
    const keys: Record<string, Parameters<typeof act>[0]> = {
      ArrowLeft: 'left',
      ArrowRight: 'right',
      ArrowUp: 'up',
      ArrowDown: 'down',
      '+': 'in',
      '=': 'in',
      '-': 'out',
      '0': 'reset',
      Home: 'reset',
    };
    const what = keys[e.key];
    if (!what) return;
    e.preventDefault();
    act(what);
  };

  const title = `3D view of ${set.name}`;
  const many = set.structures.length > 1;
  return (
    <div className="viewer3d">
      {many ? (
        <div className="field viewer3d-choice">
          <label htmlFor={`${id}-choice`}>
            {set.kind} ({set.structures.length})
          </label>
          <select id={`${id}-choice`} value={chosen} onChange={(e) => setChosen(Number(e.target.value))}>
            {set.structures.map((s, k) => (
              <option key={k} value={k}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <p className="small viewer3d-label">{current?.label}</p>
      )}
      {cubes.length > 0 && (
        <div className="field viewer3d-choice">
          <label htmlFor={`${id}-surface`}>Surface</label>
          <select id={`${id}-surface`} value={surface} onChange={(e) => setSurface(e.target.value as CubeKind | '')}>
            <option value="">None</option>
            {cubes.map((c) => (
              <option key={c.kind} value={c.kind}>
                {CUBE_LABELS[c.kind]}
              </option>
            ))}
          </select>
        </div>
      )}
      <div ref={box} className="viewer3d-canvas" role="region" aria-label={title} aria-describedby={`${id}-keys`} aria-busy={!ready && !failure} tabIndex={0} onKeyDown={onKey}>
        {!ready && !failure && (
          <p className="viewer3d-wait muted" role="status">
            Loading the 3D viewer…
          </p>
        )}
      </div>
      {failure && (
        <p className="problem" role="alert">
          {failure}
        </p>
      )}
      {surfaceNote && (
        <p className="muted small" role="status">
          {surfaceNote}
        </p>
      )}
      {receptorNote && (
        <p className="muted small" role="status">
          {receptorNote}
        </p>
      )}
      <p id={`${id}-keys`} className="muted small">
        {current ? `${current.label}. ` : ''}
        {pdb ? 'The receptor as a cartoon, its residues within 5 Å of the pose as lines, the pose with green carbons. ' : ''}
        Drag to rotate, scroll to zoom; with the view focused, the arrow keys rotate, + and − zoom, 0 resets.
      </p>
      <div className="row viewer3d-tools" role="group" aria-label="3D view controls">
        <button type="button" className="secondary" disabled={!ready} onClick={() => act('left')}>
          Rotate left
        </button>
        <button type="button" className="secondary" disabled={!ready} onClick={() => act('right')}>
          Rotate right
        </button>
        <button type="button" className="secondary" disabled={!ready} onClick={() => act('in')}>
          Zoom in
        </button>
        <button type="button" className="secondary" disabled={!ready} onClick={() => act('out')}>
          Zoom out
        </button>
        <button type="button" className="secondary" disabled={!ready} onClick={() => act('reset')}>
          Reset view
        </button>
        <button type="button" className="secondary" disabled={!ready} aria-pressed={spinning} onClick={() => act('spin')}>
          Spin
        </button>
      </div>
    </div>
  );
}
