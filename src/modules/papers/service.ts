// The reference papers behind Crucible's methods and data (docs/papers.md): a catalog kept as
// data (catalog.json, each entry checked against its publication), searchable, each paper with
// a formatted citation, BibTeX and RIS (written by Citation.js from the entry), and the papers
// to cite for a job: those of the methods it ran (its job type's `methodsOf(payload)` where the
// payload chooses the method, solvent or program, else the type's `methods`; src/compute/job-type.ts),
// the program that ran them, RDKit always among them, and for a prediction with a public model the
// paper of the data set it was trained on (its card's training_data.doi).
import { RUNNABLE_TYPES } from '../../compute/registry.js';
import { notFound } from '../../errors.js';
import { publicModels } from '../models/public.js';
import catalogJson from './catalog.json' with { type: 'json' };
import { bibtexOf, citationOf, risOf, type PaperEntry } from './formats.js';

export type { PaperEntry };

export interface PaperDetail extends PaperEntry {
  citation: string;
  bibtex: string;
  ris: string;
}

export interface PaperQuery {
  q?: string;
  topic?: string;
  method?: string;
  limit?: number;
  offset?: number;
}

/** The catalog as the API shows it (the `checked` notes stay in the repository). */
export const CATALOG: readonly PaperEntry[] = (catalogJson as (PaperEntry & { checked?: string })[]).map(({ checked: _checked, ...p }) => p);

/** Every method is cited with the software that runs it. */
const ALWAYS = ['rdkit'];

/**
 * The engine program behind an engine method (docs/papers.md: `xtb` and `mopac` name programs).
 * COSMO brings no program: MOPAC and NWChem both run it, and a DFT job names its engine itself.
 */
const PROGRAM_OF: Record<string, string> = { gfn2: 'xtb', gfn1: 'xtb', gfnff: 'xtb', alpb: 'xtb', pm7: 'mopac', pm6: 'mopac' };

/** One job to cite: its type and its payload (the method, solvent and program it chose). */
export interface CitedJob {
  job_type: string;
  payload?: unknown;
}

function haystack(p: PaperEntry): string {
  return [p.id, p.title, p.venue, p.doi ?? '', String(p.year ?? ''), ...p.authors.map((a) => `${a.given} ${a.family}`)].join(' ').toLowerCase();
}

export class PaperService {
  private readonly byId = new Map(CATALOG.map((p) => [p.id, p]));
  private readonly details = new Map<string, PaperDetail>();

  list(query: PaperQuery): { items: PaperEntry[]; total: number; limit: number; offset: number } {
    const words = (query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const hits = CATALOG.filter(
      (p) => (!query.topic || p.topics.includes(query.topic)) && (!query.method || p.methods.includes(query.method)) && words.every((w) => haystack(p).includes(w)),
    );
    const { limit = 50, offset = 0 } = query;
    return { items: hits.slice(offset, offset + limit), total: hits.length, limit, offset };
  }

  get(paperId: string): PaperDetail {
    const cached = this.details.get(paperId);
    if (cached) return cached;
    const p = this.byId.get(paperId);
    if (!p) throw notFound(`paper ${paperId}`);
    const detail = { ...p, citation: citationOf(p), bibtex: bibtexOf([p]), ris: risOf(p) };
    this.details.set(paperId, detail);
    return detail;
  }

  /**
   * The methods that jobs ran, plus RDKit: each job's `methodsOf(payload)` when its type has one
   * (a GFN2 job in the gas phase ran gfn2, not pm7 or cosmo), else its type's declaration; with
   * the program of each engine method (`xtb`, `mopac`).
   */
  methodsOf(jobs: CitedJob[]): string[] {
    const methods = new Set<string>(ALWAYS);
    for (const j of jobs) {
      const type = RUNNABLE_TYPES.get(j.job_type);
      if (!type) continue;
      const ran = type.methodsOf && j.payload && typeof j.payload === 'object' ? type.methodsOf(j.payload as never) : type.methods;
      for (const m of ran) {
        methods.add(m);
        if (PROGRAM_OF[m]) methods.add(PROGRAM_OF[m]);
      }
    }
    return [...methods].sort();
  }

  /**
   * The catalog entries of the data sets that public models (`public/<id>`) were trained on: the
   * entry whose DOI is the card's training_data.doi (any case). Users' models and unknown
   * references name none.
   */
  dataSetsOf(models: string[]): PaperEntry[] {
    const dois = new Set<string>();
    for (const ref of models) {
      if (!ref.startsWith('public/')) continue;
      const card = publicModels().get(ref.slice('public/'.length))?.card;
      const doi = (card?.training_data as { doi?: unknown } | undefined)?.doi;
      if (typeof doi === 'string') dois.add(doi.toLowerCase());
    }
    return CATALOG.filter((p) => p.doi !== null && dois.has(p.doi.toLowerCase()));
  }

  /**
   * The papers to cite for what ran: every catalog entry that describes one of its methods, and
   * the data sets of the public models it predicted with (whose methods, e.g. `esol`, join the list).
   */
  cite(jobs: CitedJob[], models: string[] = []): { methods: string[]; items: PaperDetail[]; bibtex: string } {
    const methods = new Set(this.methodsOf(jobs));
    for (const p of this.dataSetsOf(models)) for (const m of p.methods) methods.add(m);
    const sorted = [...methods].sort();
    const papers = CATALOG.filter((p) => p.methods.some((m) => methods.has(m)));
    return { methods: sorted, items: papers.map((p) => this.get(p.id)), bibtex: bibtexOf(papers) };
  }
}
