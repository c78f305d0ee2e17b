// Starts a server child process (bench/lib/*-server.ts) and reads its CPU time.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildReady, ChildReply, ChildStats, ParentCommand } from './protocol.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServerChild {
  ready: ChildReady;
  proc: ChildProcess;
  /** User + system CPU seconds the child has used so far (from /proc). */
  cpuSeconds(): number;
  stop(): Promise<void>;
  /** Sends a command; for the profile commands, resolves when the child has answered. */
  send(cmd: ParentCommand): Promise<void>;
  /** The chemistry pool's counters and the main thread's event-loop use (Crucible child only). */
  stats(): Promise<ChildStats>;
}

const CLK_TCK = 100; // Linux USER_HZ

function procCpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the ")" that closes the command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return NaN;
  }
}

export async function startChild(script: string, env: Record<string, string | undefined>, execArgv: string[] = []): Promise<ServerChild> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined) delete childEnv[k];
  const proc = fork(path.join(ROOT, 'bench', 'lib', script), [], {
    cwd: ROOT,
    env: childEnv,
    execArgv: ['--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'], // stdout (the request log at LOG_LEVEL=info) goes to /dev/null
  });
  const ready = await new Promise<ChildReady>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${script} exited (${code}) before it was ready`));
    proc.once('exit', onExit);
    proc.once('message', (m: ChildReady) => {
      proc.off('exit', onExit);
      resolve(m);
    });
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    ready,
    proc,
    cpuSeconds: () => procCpuSeconds(proc.pid!),
    stats() {
      return new Promise((resolve) => {
        const onMessage = (m: ChildReply) => {
          if (m.type !== 'stats') return;
          proc.off('message', onMessage);
          resolve(m);
        };
        proc.on('message', onMessage);
        proc.send({ type: 'stats' } satisfies ParentCommand);
      });
    },
    send(cmd) {
      if (cmd.type === 'stop' || cmd.type === 'stats') {
        proc.send(cmd);
        return Promise.resolve();
      }
      const answer = cmd.type === 'profile-start' ? 'profile-started' : 'profile-written';
      return new Promise((resolve) => {
        const onMessage = (m: ChildReply) => {
          if (m.type !== answer) return;
          proc.off('message', onMessage);
          resolve();
        };
        proc.on('message', onMessage);
        proc.send(cmd);
      });
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.send({ type: 'stop' } satisfies ParentCommand);
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    },
  };
}
