// A request body that stops arriving is answered 408 problem+json after the idle timeout and
// its connection closed (a multipart upload cut inside its file part waited forever, and held
// a SIGTERM for 5 minutes); a slow body that keeps sending is not cut.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

function rawRequest(base: string, head: string, parts: { data: string; afterMs: number }[], waitMs: number): Promise<{ text: string; ms: number }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    // The timers end with the connection: left running, they kept this file's process alive for `waitMs`.
    const timers: NodeJS.Timeout[] = [];
    const s = net.connect(Number(port), hostname, () => {
      s.write(head);
      for (const p of parts) timers.push(setTimeout(() => !s.destroyed && s.write(p.data), p.afterMs));
    });
    let text = '';
    s.on('data', (d: Buffer) => (text += d.toString()));
    s.on('close', () => {
      timers.forEach(clearTimeout);
      resolve({ text, ms: Date.now() - started });
    });
    s.on('error', reject);
    timers.push(setTimeout(() => s.destroy(), waitMs));
  });
}

describe('request body idle timeout', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness(BACKENDS[0], { CRUCIBLE_BODY_IDLE_TIMEOUT_SEC: '1' });
    token = (await h.user()).token;
  });
  after(async () => h?.close());

  it('a multipart upload cut inside its file part is a 408 problem within seconds, and the connection closes', async () => {
    const boundary = 'XyZ';
    const partial = `--${boundary}\r\nContent-Disposition: form-data; name="mode"\r\n\r\nmolecules\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.smi"\r\nContent-Type: text/plain\r\n\r\nCCO ethanol\nc1cc`;
    const head = `POST /api/v1/artifacts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${partial.length + 1000}\r\n\r\n`;
    const r = await rawRequest(h.base, head, [{ data: partial, afterMs: 10 }], 15_000);
    assert.match(r.text, /^HTTP\/1\.1 408 /);
    assert.match(r.text, /content-type: application\/problem\+json/i);
    const body = JSON.parse(r.text.slice(r.text.indexOf('\r\n\r\n') + 4)) as { status: number; retry: string; type: string };
    assert.deepEqual([body.status, body.retry, body.type], [408, 'timeout', '/api/v1/problems/http-408']);
    assert.ok(r.ms < 8_000, `answered and closed after ${r.ms} ms`);
  });

  it('a JSON body that stalls is a 408 too; one that keeps trickling in is served', async () => {
    const json = '{"smiles": ["CCO"]}';
    const head = (len: number) =>
      `POST /api/v1/describe HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${len}\r\n\r\n`;
    const stalled = await rawRequest(h.base, head(json.length), [{ data: json.slice(0, 5), afterMs: 10 }], 15_000);
    assert.match(stalled.text, /^HTTP\/1\.1 408 /);
    const parts = [...json].map((c, i) => ({ data: c, afterMs: 100 + i * 150 }));
    const slow = await rawRequest(h.base, head(json.length), parts, 20_000);
    assert.match(slow.text, /^HTTP\/1\.1 200 /, 'bytes every 150 ms keep the body alive past the 1 s idle timeout');
  });

  it('a body that arrived while the server was busy past the timeout is served, not cut', async () => {
    const json = '{"smiles": ["CCO"]}';
    const head = `POST /api/v1/describe HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${json.length}\r\n\r\n`;
    const { hostname, port } = new URL(h.base);
    // The client is another process: it sends the headers, then the body 400 ms later, while this
    // process (the server) is kept busy from 200 ms to 2,700 ms, in a phase after the I/O poll, so
    // that the idle timer is due before the waiting bytes are read.
    const client = spawn(
      process.execPath,
      [
        '-e',
        `const s = require('net').connect(${port}, '${hostname}', () => { s.write(${JSON.stringify(head)}); setTimeout(() => s.write(${JSON.stringify(json)}), 400); });
         let out = ''; s.on('data', (d) => (out += d)); s.on('close', () => process.stdout.write(out)); s.on('error', (e) => process.stdout.write('error ' + e.code));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let text = '';
    client.stdout.on('data', (d: Buffer) => (text += d.toString()));
    const exited = once(client, 'exit');
    await new Promise((r) => setTimeout(r, 200));
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        const until = Date.now() + 2_500;
        while (Date.now() < until);
        resolve();
      }),
    );
    await exited;
    assert.match(text, /^HTTP\/1\.1 200 /, text.slice(0, 300));
  });
});
