// The part of Citation.js (@citation-js/core 0.7, CommonJS, no type declarations) that
// formats.ts uses: a Cite of CSL-JSON items, formatted as BibTeX or a bibliography.
declare module '@citation-js/core' {
  interface Cite {
    format(format: 'bibtex' | 'bibliography', options?: Record<string, unknown>): string;
  }
  const core: { Cite: new (data: unknown) => Cite };
  export default core;
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-csl';
