// A Unix socket in the data dir through which `crucible users|wallet` reach a running server
// (the embedded database can be open in one process only). File mode 0600: only the
// account that runs the server can use it.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Services } from '../services.js';
import { UserInputError } from '../modules/users/service.js';
import { runAdminCommand, type AdminCommand } from './commands.js';

export const socketPath = (dataDir: string) => path.join(dataDir, 'crucible.sock');

export async function startAdminSocket(services: Services): Promise<() => Promise<void>> {
  const file = socketPath(services.config.dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.rmSync(file, { force: true }); // a leftover from a crashed run (the data dir lock says we own it)
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      try {
        const cmd = JSON.parse(body) as AdminCommand;
        reply(200, { ok: true, result: await runAdminCommand(services, cmd) });
      } catch (err) {
        if (err instanceof UserInputError || err instanceof SyntaxError) reply(400, { ok: false, error: err.message });
        else reply(500, { ok: false, error: 'the server failed to run the command; see its log' });
      }
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(file, () => resolve()));
  fs.chmodSync(file, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(file, { force: true });
    });
}

export class SocketUnavailable extends Error {}

/** Sends a command to the running server; SocketUnavailable when none listens. */
export function sendAdminCommand(dataDir: string, cmd: AdminCommand): Promise<unknown> {
  const file = socketPath(dataDir);
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: file, path: '/', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (data += c));
      res.on('end', () => {
        try {
          const parsed = JSON.parse(data) as { ok: boolean; result?: unknown; error?: string };
          if (parsed.ok) resolve(parsed.result);
          else reject(new UserInputError(parsed.error ?? 'the server refused the command'));
        } catch {
          reject(new Error('the running server sent an unreadable answer'));
        }
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') reject(new SocketUnavailable(err.message));
      else reject(err);
    });
    req.end(JSON.stringify(cmd));
  });
}
