// Reference papers: the publications behind every method and data set Crucible uses, with
// citations in BibTeX and RIS, and what to cite for a job (docs/papers.md).
import type { Module } from '../../api/module.js';
import { paperRoutes } from './routes.js';
import { PAPERS_SCHEMAS } from './schemas.js';
import { PaperService } from './service.js';

declare module '../../services.js' {
  interface Services {
    papers: PaperService;
  }
}

export const papersModule: Module = {
  name: 'papers',
  provide: () => ({ papers: new PaperService() }),
  schemas: PAPERS_SCHEMAS,
  routes: paperRoutes,
};
