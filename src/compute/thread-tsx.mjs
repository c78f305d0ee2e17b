// Bootstrap of a job's worker thread when Crucible runs from its TypeScript sources (tests,
// `node --import tsx`): Node 20 worker threads do not inherit tsx's loader, so register it
// here, then run thread-entry.ts. The compiled build (dist/) starts thread-entry.js directly.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./thread-entry.ts', import.meta.url).href);
