// What the console calls things (docs/console.md, "Jobs" and "Library"): a new job's default
// name, and a library item's name (a job's output by its job's name; docs/artifacts.md, "Listing").

/** The parts of an artifact list item a name is made from (ArtifactListItem). */
export interface Listed {
  name: string;
  origin: string;
  job_name?: string | null;
  job_type?: string | null;
  port: string;
}

/** A library item's name: a job's output is named after its job (its own name, e.g. "frequencies: plot, structures", says what the job wrote); an upload by its name. */
export function artifactName(item: Listed): string {
  return item.origin === 'job' && item.job_name ? item.job_name : item.name;
}

/** What a library item is, beside its name: a job's output its job type and port. */
export function artifactDetail(item: Listed): string {
  if (item.origin !== 'job') return '';
  return [item.job_type, item.port].filter(Boolean).join(' · ');
}

const clip = (s: string, n: number) => ([...s].length > n ? `${[...s].slice(0, n - 1).join('')}…` : s);

/**
 * A job's default name: "<job type> of <first molecule>" (and "and N more"), "<job type> of
 * <molecule set>" for a set from the library, else "<job type> <date and time>".
 */
export function defaultJobName(jobType: string, molecules: string[], setName: string | null, now = new Date()): string {
  const lines = molecules.map((l) => l.trim()).filter(Boolean);
  if (lines.length) {
    // A SMILES line may carry a name after it ("CCO ethanol"): the name reads better.
    const [smiles, ...rest] = lines[0]!.split(/\s+/);
    const first = clip(rest.length ? rest.join(' ') : smiles!, 60);
    return lines.length > 1 ? `${jobType} of ${first} and ${lines.length - 1} more` : `${jobType} of ${first}`;
  }
  if (setName) return `${jobType} of ${clip(setName, 80)}`;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${jobType} ${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}`;
}
