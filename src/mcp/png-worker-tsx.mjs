// Bootstrap of the PNG worker thread when Crucible runs from its TypeScript sources (tests,
// `node --import tsx`): on Node 20 worker threads do not inherit tsx's loader, so register it
// in this thread, then load png-worker.ts. The compiled build (dist/) loads png-worker.js.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./png-worker.ts');
export default mod.default;
