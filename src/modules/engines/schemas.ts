// GET /engines (docs/engines.md).
import { Type } from '@sinclair/typebox';
import { ENGINE_NAMES } from '../../engines/catalog.js';

export const EngineInfo = Type.Object(
  {
    name: Type.Union(ENGINE_NAMES.map((n) => Type.Literal(n))),
    available: Type.Boolean({ description: 'Whether a live compute worker of this server found it (the API answers 503 engine-unavailable for a job that needs it otherwise)' }),
    version: Type.Union([Type.String(), Type.Null()]),
    path: Type.Union([Type.String(), Type.Null()], { description: 'Where the first worker that has it found it' }),
    job_types: Type.Array(Type.String(), { description: "The job types that use it and this server's workers can run" }),
    methods: Type.Array(Type.String(), { description: 'The methods it runs (GET /papers/cite names their papers)' }),
    debian_package: Type.String({ description: 'What to install where it is missing: apt-get install <package>' }),
    workers: Type.Integer({ description: 'Live compute workers that found it' }),
    summary: Type.String(),
  },
  { $id: 'EngineInfo', additionalProperties: false },
);

export const EngineList = Type.Object(
  {
    engines: Type.Array(Type.Ref(EngineInfo)),
    workers: Type.Integer({ description: 'Live compute workers of this server (serve processes with job slots and crucible worker processes)' }),
  },
  { $id: 'EngineList', additionalProperties: false },
);

export const ENGINES_SCHEMAS = [EngineInfo, EngineList];
