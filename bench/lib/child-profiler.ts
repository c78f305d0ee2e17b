// In a server child: answers the parent's profile-start / profile-stop commands with the V8
// sampling CPU profiler (the profiler behind `node --cpu-prof`), so that a profile covers the
// measured load window only, not start-up.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { ChildReply, ParentCommand } from './protocol.js';

export function handleProfileCommands(): void {
  let session: Session | null = null;
  process.on('message', async (msg: ParentCommand) => {
    if (msg.type === 'profile-start') {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 }); // µs
      await session.post('Profiler.start');
      process.send!({ type: 'profile-started' } satisfies ChildReply);
    } else if (msg.type === 'profile-stop' && session) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      session = null;
      fs.writeFileSync(msg.file, JSON.stringify(profile));
      process.send!({ type: 'profile-written', file: msg.file } satisfies ChildReply);
    }
  });
}
