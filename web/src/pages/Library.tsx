// Library (docs/console.md): molecule sets and files uploaded with a progress bar (POST /artifacts,
// multipart, by XMLHttpRequest for its upload progress; docs/artifacts.md "Uploads"), the
// artifacts listed a page at a time (GET /artifacts), downloaded (GET /artifacts/{id}/download),
// deleted (DELETE /artifacts/{id}), and storage against the tier's quota (GET /usage).
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { components } from 'crucible-client';
import { api, ok, saveDownload, uploadArtifact as upload } from '../api/client.ts';
import { issuesAt, localProblem, toProblem, type Problem } from '../api/problem.ts';
import { FieldError, ProblemView } from '../components/ProblemView.tsx';
import { artifactDetail, artifactName } from '../lib/names.ts';
import { bytes } from '../lib/units.ts';
import { ListTable } from '../components/ListTable.tsx';

type Item = components['schemas']['ArtifactListItem'];
type Usage = components['schemas']['UsageResponse'];
const PAGE = 20;

export default function Library() {
  const [items, setItems] = useState<Item[]>([]);
  const [offset, setOffset] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  const load = useCallback(async (at: number) => {
    try {
      const [list, u] = await Promise.all([ok(api.GET('/api/v1/artifacts', { params: { query: { limit: PAGE, offset: at } } })), ok(api.GET('/api/v1/usage'))]);
      setItems(list.items);
      setHasMore(list.has_more);
      setOffset(at);
      setUsage(u);
    } catch (err) {
      setProblem(toProblem(err));
    }
  }, []);
  useEffect(() => void load(0), [load]);

  async function download(item: Item) {
    setProblem(null);
    try {
      const port = item.is_virtual ? '' : `?port=${encodeURIComponent(item.port)}`;
      await saveDownload(`/api/v1/artifacts/${encodeURIComponent(item.artifact_id)}/download${port}`, `${item.artifact_id}.${item.data_format}`);
    } catch (err) {
      setProblem(toProblem(err));
    }
  }

  async function remove(item: Item) {
    if (!window.confirm(`Delete ${artifactName(item)}? Its file is removed for good.`)) return;
    setProblem(null);
    try {
      await ok(api.DELETE('/api/v1/artifacts/{artifact_id}', { params: { path: { artifact_id: item.artifact_id } } }));
      await load(offset);
    } catch (err) {
      setProblem(toProblem(err));
    }
  }

  const used = usage?.storage.used_bytes ?? 0;
  const quota = usage?.storage.quota_bytes ?? 0;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Library</h1>
      <ProblemView problem={problem} />
      {usage && (
        <p className="quota">
          <label htmlFor="storage-meter">Storage</label>{' '}
          <meter id="storage-meter" min={0} max={quota || 1} value={used} high={quota * 0.9}>
            {bytes(used)}
          </meter>{' '}
          <span>
            {bytes(used)} of {bytes(quota)}
          </span>
        </p>
      )}
      <Upload onDone={() => void load(0)} />
      <h2 className="section">Artifacts</h2>
      <ListTable label="Artifacts" columns={['Name', 'Kind', 'Records', 'Size', 'Created', 'Actions']} empty={items.length === 0 && 'Nothing stored yet.'}>
        {items.map((i) => (
          <tr key={`${i.artifact_id}/${i.port}`}>
            <td>
              {artifactName(i)}
              {i.origin === 'job' && <span className="muted small"> ({artifactDetail(i)})</span>}
            </td>
            <td>
              {i.data_kind} / {i.data_format}
            </td>
            <td>{i.record_count.toLocaleString()}</td>
            <td>{bytes(i.size_bytes)}</td>
            <td>{i.created_at ? new Date(i.created_at).toLocaleString() : '–'}</td>
            <td>
              <button type="button" className="secondary" onClick={() => void download(i)} aria-label={`Download ${artifactName(i)} ${i.port}`}>
                Download
              </button>{' '}
              <button type="button" className="danger" onClick={() => void remove(i)} aria-label={`Delete ${artifactName(i)} ${i.port}`}>
                Delete
              </button>
            </td>
          </tr>
        ))}
      </ListTable>
      <nav className="row pager" aria-label="Artifact pages">
        <button type="button" className="secondary" disabled={offset === 0} onClick={() => void load(Math.max(0, offset - PAGE))}>
          Previous
        </button>
        <span className="muted">
          {items.length ? `${offset + 1}–${offset + items.length}` : '0'}
          {hasMore ? '' : ` of ${offset + items.length}`}
        </span>
        <button type="button" className="secondary" disabled={!hasMore} onClick={() => void load(offset + PAGE)}>
          Next
        </button>
      </nav>
    </section>
  );
}

function Upload({ onDone }: { onDone: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    setDone(null);
    if (!file) return setProblem(localProblem(0, 'No file', 'Choose a .smi, .sdf or .csv file first.'));
    const form = new FormData();
    form.set('mode', 'molecules');
    if (name.trim()) form.set('name', name.trim());
    form.set('file', file);
    setProgress(0);
    try {
      const r = await upload(form, setProgress);
      setProgress(1);
      const count = r.manifest.ports.molecules?.record_count ?? 0;
      // Entries that could not be read are listed in the manifest (docs/artifacts.md, "Molecule files").
      const skipped = r.manifest.warnings.filter((w) => (w as { type?: string }).type !== 'truncated').length;
      setDone(`${r.name}: ${count.toLocaleString()} molecules stored.${skipped ? ` ${skipped} entries could not be read.` : ''}`);
      onDone();
    } catch (err) {
      setProgress(null);
      setProblem(toProblem(err));
    }
  }

  const fileIssues = issuesAt(problem, ['body', 'file']);
  return (
    <form className="keyform" onSubmit={(e) => void submit(e)} aria-labelledby="upload-title">
      <fieldset>
        <legend id="upload-title">Upload a molecule set</legend>
        <ProblemView problem={problem} fields={[['body', 'file']]} />
        <div className="grid2">
          <label>
            File (.smi, .sdf or .csv)
            <input
              type="file"
              accept=".smi,.smiles,.sdf,.sd,.mol,.csv,.tsv"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              aria-invalid={fileIssues.length > 0 || undefined}
              aria-describedby={fileIssues.length ? 'upload-file-error' : undefined}
            />
          </label>
          <label>
            Name (optional)
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
          </label>
        </div>
        <FieldError id="upload-file-error" messages={fileIssues} />
        <div className="row">
          <button type="submit" disabled={progress !== null && progress < 1}>
            Upload
          </button>
          {progress !== null && (
            <progress max={1} value={progress} aria-label="Upload progress">
              {Math.round(progress * 100)}%
            </progress>
          )}
          {progress !== null && <span className="muted">{Math.round(progress * 100)}%</span>}
        </div>
        {done && (
          <p role="status" className="notice">
            {done}
          </p>
        )}
      </fieldset>
    </form>
  );
}
