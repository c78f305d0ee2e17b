// Bootstrap of a chemistry worker thread when Crucible runs from its TypeScript sources (tests,
// `node --import tsx`): on Node 20 worker threads do not inherit tsx's loader, so register it
// in this thread, then load worker.ts. The compiled build (dist/) loads worker.js directly.
import { register } from 'tsx/esm/api';

register();
// (a dynamic import, so that it runs after register(): a static one would be loaded first)
const mod = await import('./worker.ts');
export default mod.default;
