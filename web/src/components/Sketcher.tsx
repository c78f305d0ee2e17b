// The structure editor of the Molecules page: openchemlib's CanvasEditor (BSD-3, cheminfo /
// Zakodium), loaded with a dynamic import when the page opens Draw, so the page's first load does
// not carry it. The drawn molecule is shown as SMILES as it changes; "Use this structure" hands it
// to the page. A SMILES typed (or a card's "Edit in the sketcher") is loaded into the editor, so
// keyboard users can start from text.
import { useEffect, useId, useRef, useState } from 'react';
import { loadOcl, type Ocl } from './sketcher/ocl.ts';
import { toSmiles } from './sketcher/records.ts';
import './sketcher/Sketcher.css';

type Editor = InstanceType<Ocl['CanvasEditor']>;

export interface SketcherProps {
  /** A SMILES to load into the editor; `key` changes to load the same SMILES again. */
  load: { smiles: string; key: number } | null;
  /** Called with the drawn molecule's SMILES. */
  onUse: (smiles: string) => void;
}

export default function Sketcher({ load, onUse }: SketcherProps) {
  const id = useId();
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<{ ocl: Ocl; editor: Editor } | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [smiles, setSmiles] = useState('');
  const [typed, setTyped] = useState('');
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let gone = false;
    let made: Editor | null = null;
    loadOcl()
      .then((ocl) => {
        if (gone || !host.current) return;
        made = new ocl.CanvasEditor(host.current, { initialMode: 'molecule' });
        editor.current = { ocl, editor: made };
        const e = made;
        e.setOnChangeListener((ev) => {
          if (ev.type === 'molecule') setSmiles(e.getMolecule().getAllAtoms() ? toSmiles(e.getMolecule()) : '');
        });
        setReady(true);
      })
      .catch((err: unknown) => setFailed(err instanceof Error ? err.message : String(err)));
    return () => {
      gone = true;
      editor.current = null;
      if (made && !made.isDestroyed) made.destroy();
    };
  }, []);

  function loadSmiles(text: string): boolean {
    const cur = editor.current;
    if (!cur) return false;
    try {
      const mol = cur.ocl.Molecule.fromSmiles(text.trim());
      cur.editor.setMolecule(mol);
      setSmiles(mol.getAllAtoms() ? toSmiles(mol) : '');
      setLoadError(null);
      return true;
    } catch (err) {
      setLoadError(`openchemlib cannot read "${text.trim()}": ${(err instanceof Error ? err.message : String(err)).replace(/^.*SmilesParser: /, '')}`);
      return false;
    }
  }

  // A SMILES handed over by the page (a card's "Edit in the sketcher"), once the editor is there.
  useEffect(() => {
    if (ready && load) {
      setTyped(load.smiles);
      loadSmiles(load.smiles);
    }
    // Only when a new SMILES is handed over (its key), not on every render.
  }, [ready, load?.key]);

  return (
    <div className="sketcher stack">
      {failed && (
        <div className="problem" role="alert">
          <strong>The structure editor could not be loaded</strong>
          <p>{failed}</p>
        </div>
      )}
      {!ready && !failed && <p className="muted">Loading the structure editor…</p>}
      <div className="sketcher-canvas" ref={host} role="application" aria-label="Structure editor" aria-describedby={`${id}-help`} aria-busy={!ready} />
      <p id={`${id}-help`} className="muted small">
        Pick a tool on the editor's toolbar, then click or drag on the drawing area. Keyboard users: type a SMILES below and load it.
      </p>
      <p className="small">
        Drawn:{' '}
        <output className="mono wrap" aria-live="polite" aria-label="Drawn structure as SMILES">
          {smiles || '(empty)'}
        </output>
      </p>
      <div className="row">
        <button type="button" disabled={!ready || !smiles} onClick={() => onUse(smiles)}>
          Use this structure
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!ready}
          onClick={() => {
            editor.current?.editor.clearAll();
            setSmiles('');
          }}
        >
          Clear the editor
        </button>
      </div>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          loadSmiles(typed);
        }}
      >
        <label htmlFor={`${id}-smiles`}>SMILES to edit</label>
        <input
          id={`${id}-smiles`}
          className="mono"
          spellCheck={false}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          aria-invalid={loadError ? true : undefined}
          aria-describedby={loadError ? `${id}-load-error` : undefined}
        />
        <button type="submit" className="secondary" disabled={!ready || !typed.trim()}>
          Load into the editor
        </button>
      </form>
      {loadError && (
        <p className="field-error" id={`${id}-load-error`} role="alert">
          {loadError}
        </p>
      )}
    </div>
  );
}
