// Every job type, by name. A new type is one file in types/ and one line here.
import type { JobType } from './job-type.js';
import { clusterJob } from './types/cluster.js';
import { depictJob } from './types/depict.js';
import { propertiesJob } from './types/properties.js';
import { similaritySearchJob } from './types/similarity-search.js';
import { substructureSearchJob } from './types/substructure-search.js';
import { waitJob } from './types/wait.js';

const TYPES: JobType[] = [propertiesJob, depictJob, similaritySearchJob, substructureSearchJob, clusterJob, waitJob];

export const JOB_TYPES: ReadonlyMap<string, JobType> = new Map(TYPES.map((t) => [t.name, t]));
export const JOB_TYPE_NAMES = [...JOB_TYPES.keys()];
