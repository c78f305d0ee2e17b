// Child process: the baseline, a bare Fastify route with no logger, no hooks, no plugins.
import fastify from 'fastify';
import { handleProfileCommands } from './child-profiler.js';
import type { ChildReady, ParentCommand } from './protocol.js';

const app = fastify();
app.get('/', async () => ({ message: 'ok' }));
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };

const ready: ChildReady = { type: 'ready', url: `http://127.0.0.1:${port}`, pid: process.pid, db: null };
process.send!(ready);

handleProfileCommands();

process.on('message', async (msg: ParentCommand) => {
  if (msg.type !== 'stop') return;
  await app.close();
  process.exit(0);
});
