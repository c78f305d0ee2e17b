// Every job type, by name. A new type is one file in types/ and one line here.
import type { JobType } from './job-type.js';
import { bdeJob } from './types/bde.js';
import { clusterJob } from './types/cluster.js';
import { conformersJob } from './types/conformers.js';
import { depictJob } from './types/depict.js';
import { dockingJob } from './types/docking.js';
import { poseCheckJob } from './types/pose-check.js';
import { filterJob } from './types/filter.js';
import { frequenciesJob } from './types/frequencies.js';
import { optimizeJob, singlepointJob } from './types/optimize.js';
import { profileTableJob } from './types/profile-table.js';
import { propertiesJob } from './types/properties.js';
import { pkaJob } from './types/pka.js';
import { pocketsJob } from './types/pockets.js';
import { propertiesQmJob } from './types/properties-qm.js';
import { reactivityJob } from './types/reactivity.js';
import { receptorPrepareJob } from './types/receptor-prepare.js';
import { rerankJob } from './types/rerank.js';
import { scanJob } from './types/scan.js';
import { tautomersJob } from './types/tautomers.js';
import { similaritySearchJob } from './types/similarity-search.js';
import { substructureSearchJob } from './types/substructure-search.js';
import { mpnnPredictJob } from './types/mpnn-predict.js';
import { mpnnTrainJob } from './types/mpnn-train.js';
import { utilityRequestJob } from './types/utility.js';
import { waitJob } from './types/wait.js';

const TYPES: JobType[] = [
  propertiesJob,
  depictJob,
  similaritySearchJob,
  substructureSearchJob,
  clusterJob,
  filterJob,
  profileTableJob,
  waitJob,
  mpnnTrainJob,
  mpnnPredictJob,
  optimizeJob,
  singlepointJob,
  dockingJob,
  poseCheckJob,
  pocketsJob,
  conformersJob,
  frequenciesJob,
  scanJob,
  propertiesQmJob,
  rerankJob,
  pkaJob,
  tautomersJob,
  bdeJob,
  reactivityJob,
  receptorPrepareJob,
];

/** Types that run a feature's asynchronous requests (utilities, inference): never submitted through /jobs. */
const REQUEST_TYPE_LIST: JobType[] = [utilityRequestJob, mpnnPredictJob];

/** What /jobs/submit accepts. */
export const JOB_TYPES: ReadonlyMap<string, JobType> = new Map(TYPES.map((t) => [t.name, t]));
export const JOB_TYPE_NAMES = [...JOB_TYPES.keys()];
export const REQUEST_TYPES: ReadonlyMap<string, JobType> = new Map(REQUEST_TYPE_LIST.map((t) => [t.name, t]));
/** Every type a worker runs. */
export const RUNNABLE_TYPES: ReadonlyMap<string, JobType> = new Map([...JOB_TYPES, ...REQUEST_TYPES]);
