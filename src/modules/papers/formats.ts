// A catalog entry as a citation: BibTeX and a formatted reference (APA) written by Citation.js
// (@citation-js/core with its BibTeX and CSL plugins) from the entry as CSL-JSON, and RIS.
// BibTeX keys are the entry ids with `_` for `-` (Citation.js keeps a key only when it has no
// punctuation but `_`), so `wildman-crippen-1999` is cited as `wildman_crippen_1999`.
import core from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-csl';

/** A catalog entry (catalog.json, without its `checked` note). */
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

const CSL_TYPE: Record<PaperEntry['type'], string> = { article: 'article-journal', inproceedings: 'paper-conference', software: 'software' };

export const bibtexKey = (id: string): string => id.replaceAll('-', '_');

function csl(p: PaperEntry): Record<string, unknown> {
  return {
    id: p.id,
    'citation-key': bibtexKey(p.id),
    type: CSL_TYPE[p.type],
    title: p.title,
    // A consortium byline is one literal name, never split into family and given names.
    author: p.authors.map((a) => (a.given ? { family: a.family, given: a.given } : { literal: a.family })),
    ...(p.year !== null ? { issued: { 'date-parts': [[p.year]] } } : {}),
    ...(p.type === 'software' ? { publisher: p.venue } : { 'container-title': p.venue }),
    ...(p.volume !== null ? { volume: p.volume } : {}),
    ...(p.issue !== null ? { issue: p.issue } : {}),
    ...(p.pages !== null ? { page: p.pages } : {}),
    ...(p.doi !== null ? { DOI: p.doi } : {}),
    URL: p.url,
  };
}

export function bibtexOf(papers: readonly PaperEntry[]): string {
  if (papers.length === 0) return '';
  return new core.Cite(papers.map(csl)).format('bibtex').trim() + '\n';
}

const RIS_TYPE: Record<PaperEntry['type'], string> = { article: 'JOUR', inproceedings: 'CONF', software: 'COMP' };

/**
 * One RIS record ("XX  - value" lines, CRLF, TY first, ER last). Written here rather than by
 * Citation.js, whose RIS output (0.7) breaks every value after 70 characters, mid-word.
 */
export function risOf(p: PaperEntry): string {
  const lines: [string, string][] = [['TY', RIS_TYPE[p.type]]];
  for (const a of p.authors) lines.push(['AU', a.given ? `${a.family}, ${a.given}` : a.family]);
  lines.push(['TI', p.title]);
  lines.push([p.type === 'software' ? 'PB' : 'T2', p.venue]);
  if (p.year !== null) lines.push(['PY', String(p.year)]);
  if (p.volume !== null) lines.push(['VL', p.volume]);
  if (p.issue !== null) lines.push(['IS', p.issue]);
  if (p.pages !== null) {
    const [start, end] = p.pages.split(/[-–]/);
    lines.push(['SP', start ?? p.pages]);
    if (end) lines.push(['EP', end]);
  }
  if (p.doi !== null) lines.push(['DO', p.doi]);
  lines.push(['UR', p.url], ['ID', p.id]);
  return lines.map(([tag, value]) => `${tag}  - ${value.replace(/\s+/g, ' ')}\r\n`).join('') + 'ER  - \r\n';
}

export function citationOf(p: PaperEntry): string {
  return new core.Cite([csl(p)]).format('bibliography', { format: 'text', template: 'apa', lang: 'en-US' }).trim();
}
