// The reference papers behind Crucible's methods and data (docs/papers.md): a catalog kept as
// data (catalog.json, each entry checked against its publication), searchable, each paper with
// a formatted citation, BibTeX and RIS (written by Citation.js from the entry), and the papers
// to cite for a job: those of the methods its job type declares (src/compute/job-type.ts,
// `methods`), RDKit always among them, and for a prediction with a public model the paper of the
// data set it was trained on (its card's training_data.doi).
import { RUNNABLE_TYPES } from '../../compute/registry.js';
import { notFound } from '../../errors.js';
import { publicModels } from '../models/public.js';
import catalogJson from './catalog.json' with { type: 'json' };
import { bibtexOf, citationOf, risOf } from './formats.js';

export interface PaperEntry {
  id: string;
  type: 'article' | 'inproceedings' | 'software';
  title: string;
  authors: { family: string; given: string }[];
  year: number | null;
  venue: string;
  volume: string | null;
  issue: string | null;
  pages: string | null;
  doi: string | null;
  url: string;
  topics: string[];
  methods: string[];
}

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

  /** The methods a job type runs (its declaration, plus RDKit). */
  methodsOf(jobTypes: string[]): string[] {
    const methods = new Set<string>(ALWAYS);
    for (const t of jobTypes) for (const m of RUNNABLE_TYPES.get(t)?.methods ?? []) methods.add(m);
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
  cite(jobTypes: string[], models: string[] = []): { methods: string[]; items: PaperDetail[]; bibtex: string } {
    const methods = new Set(this.methodsOf(jobTypes));
    for (const p of this.dataSetsOf(models)) for (const m of p.methods) methods.add(m);
    const sorted = [...methods].sort();
    const papers = CATALOG.filter((p) => p.methods.some((m) => methods.has(m)));
    return { methods: sorted, items: papers.map((p) => this.get(p.id)), bibtex: bibtexOf(papers) };
  }
}
