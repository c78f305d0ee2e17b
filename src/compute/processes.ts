// Placement `process`: a job type's work as an external program (the quantum-chemistry,
// conformer and docking engines to come). The program gets `input` on stdin; stdout and stderr
// are collected (bounded); an abort (cancel, runtime limit, shutdown) kills it at once.
import { spawn } from 'node:child_process';
import { JobAborted } from './job-type.js';

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class ProcessFailed extends Error {
  constructor(
    readonly result: ProcessResult,
    command: string,
  ) {
    super(`${command} exited with code ${result.code}${result.stderr ? `: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`);
  }
}

const MAX_OUTPUT = 16 * 1024 * 1024;

export function runProcess(command: string, args: string[], opts: { signal: AbortSignal; input?: string | Buffer; cwd?: string; env?: NodeJS.ProcessEnv }): Promise<ProcessResult> {
  if (opts.signal.aborted) return Promise.reject(opts.signal.reason instanceof JobAborted ? opts.signal.reason : new JobAborted('cancelled'));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    const onAbort = () => child.kill('SIGKILL');
    opts.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => {
      if ((outBytes += c.length) <= MAX_OUTPUT) out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      if ((errBytes += c.length) <= MAX_OUTPUT) err.push(c);
    });
    child.stdin.on('error', () => undefined); // a program that exits without reading its input
    child.stdin.end(opts.input ?? '');
    child.on('error', (e) => {
      opts.signal.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.on('close', (code) => {
      opts.signal.removeEventListener('abort', onAbort);
      if (opts.signal.aborted) return reject(opts.signal.reason instanceof JobAborted ? opts.signal.reason : new JobAborted('cancelled'));
      const result = { code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
      if (result.code !== 0) reject(new ProcessFailed(result, command));
      else resolve(result);
    });
  });
}
