// Bootstrap of an inference worker thread when Crucible runs from its TypeScript sources (see
// src/chem/worker-tsx.mjs): registers tsx in the thread, then loads inference-worker.ts.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./inference-worker.ts');
export default mod.default;
