// Every feature module, in build order: a module's `provide` sees the services of those above
// it. Routes are mounted in this order too. A new API area is its folder and one line here.
import type { Module } from '../api/module.js';
import { artifactsModule } from './artifacts/index.js';
import { assistantModule } from './assistant/index.js';
import { authModule } from './auth/index.js';
import { depictModule } from './depict/index.js';
import { describeModule } from './describe/index.js';
import { enginesModule } from './engines/index.js';
import { eventsModule } from './events/index.js';
import { healthModule } from './health/index.js';
import { inferenceModule } from './inference/index.js';
import { jobsModule } from './jobs/index.js';
import { keysModule } from './keys/index.js';
import { lookupsModule } from './lookups/index.js';
import { modelsModule } from './models/index.js';
import { papersModule } from './papers/index.js';
import { usageModule } from './usage/index.js';
import { usersModule } from './users/index.js';
import { utilitiesModule } from './utilities/index.js';
import { walletModule } from './wallet/index.js';
import { workflowsModule } from './workflows/index.js';

export const MODULES: readonly Module[] = [
  healthModule,
  authModule,
  usersModule,
  walletModule,
  keysModule,
  eventsModule,
  artifactsModule,
  modelsModule,
  depictModule,
  describeModule,
  jobsModule,
  enginesModule,
  lookupsModule,
  papersModule,
  usageModule,
  utilitiesModule,
  inferenceModule,
  workflowsModule,
  assistantModule,
];
