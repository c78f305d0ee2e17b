// Schemas of the reference papers (docs/papers.md): GET /papers, GET /papers/{paper_id},
// GET /papers/cite.
import { Type } from '@sinclair/typebox';
import { Nullable, pageSchema } from '../../api/schemas.js';

const MAX_OFFSET = 1_000_000_000;

export const PAPER_TOPICS = [
  'databases',
  'data-sets',
  'descriptors',
  'docking',
  'drug-likeness',
  'clustering',
  'fingerprints',
  'force-fields',
  'identifiers',
  'machine-learning',
  'quantum-chemistry',
  'similarity',
  'software',
  'solvation',
  'structural-alerts',
  'substructure',
] as const;

export const PaperAuthor = Type.Object(
  {
    family: Type.String({ description: 'Family name, or the name of a consortium' }),
    given: Type.String({ description: 'Given names or initials; empty for a consortium' }),
  },
  { $id: 'PaperAuthor', additionalProperties: false },
);

const paperFields = {
  id: Type.String({ description: 'Stable identifier, e.g. wildman-crippen-1999' }),
  type: Type.Union([Type.Literal('article'), Type.Literal('inproceedings'), Type.Literal('software')]),
  title: Type.String(),
  authors: Type.Array(Type.Ref(PaperAuthor), { description: 'All authors, in order' }),
  year: Nullable(Type.Integer(), { description: 'Year of publication (null for software cited as a whole)' }),
  venue: Type.String({ description: 'Journal, proceedings or publisher' }),
  volume: Nullable(Type.String()),
  issue: Nullable(Type.String()),
  pages: Nullable(Type.String({ description: 'Page range or article number' })),
  doi: Nullable(Type.String()),
  url: Type.String(),
  topics: Type.Array(Type.String()),
  methods: Type.Array(Type.String({ description: 'Crucible methods that rest on it, e.g. clogp, tpsa, qed, butina, morgan' })),
};

export const Paper = Type.Object(paperFields, { $id: 'Paper', additionalProperties: false });

export const PaperDetail = Type.Object(
  {
    ...paperFields,
    citation: Type.String({ description: 'Formatted reference (APA)' }),
    bibtex: Type.String({ description: 'BibTeX entry' }),
    ris: Type.String({ description: 'RIS record' }),
  },
  { $id: 'PaperDetail', additionalProperties: false },
);

export const PaperList = pageSchema('items', Paper, 'PaperList');

export const PaperListQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Words to find in the title, authors, venue, DOI or id (all must match, any case)' })),
    topic: Type.Optional(Type.Union(PAPER_TOPICS.map((t) => Type.Literal(t)))),
    method: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_]+$', description: 'A Crucible method, e.g. clogp, butina, morgan' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
  },
  { additionalProperties: false },
);

export const PaperIdParams = Type.Object({ paper_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

// What to cite for a result: a job (`process_id`), a workflow run (`workflow_run_id`), or both (the union).
export const CiteQuery = Type.Object(
  {
    process_id: Type.Optional(Type.String({ format: 'uuid', description: 'A job of yours, or one of your asynchronous inference requests (its request_id)' })),
    workflow_run_id: Type.Optional(Type.String({ format: 'uuid', description: 'A workflow run of yours: the methods of every step of it' })),
  },
  { additionalProperties: false },
);

export const CiteResponse = Type.Object(
  {
    process_id: Type.Optional(Type.String({ description: 'The job asked about' })),
    workflow_run_id: Type.Optional(Type.String({ description: 'The workflow run asked about' })),
    job_types: Type.Array(Type.String(), { description: "What ran: the job's type and the job types of the run's steps" }),
    models: Type.Optional(
      Type.Array(Type.String(), { description: 'The public models predicted with (public/<id>): the papers of the data sets they were trained on are among the items' }),
    ),
    methods: Type.Array(Type.String(), { description: 'The methods those ran, which the papers below describe' }),
    items: Type.Array(Type.Ref(PaperDetail)),
    bibtex: Type.String({ description: 'Every entry above in one BibTeX file' }),
  },
  { $id: 'CiteResponse', additionalProperties: false },
);

export const PAPERS_SCHEMAS = [PaperAuthor, Paper, PaperDetail, PaperList, CiteResponse];
