// Bootstrap of a gradient thread (grad-pool.ts) when Crucible runs from its TypeScript sources
// (see src/chem/worker-tsx.mjs): registers tsx in the thread, then loads grad-worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('./grad-worker.ts');
