// The headers of the pages a browser opens (issue 32; docs/api-decisions.md, "Browser pages"):
// the console's files at /app and the reference at /docs carry X-Content-Type-Options: nosniff
// and Referrer-Policy: no-referrer, their HTML a Content-Security-Policy, and the /docs page
// still works under its policy in Debian's chromium: it renders the API, "Try it out" calls the
// API, and the browser reports no policy violation.
// Run: node --import tsx --test test/web/page-headers.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { registerConsole } from '../../src/http/console.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { CHROMIUM, skipBrowser } from './browser.js';

function assertPageHeaders(r: Response, what: string, csp: RegExp | null): void {
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff', `${what}: nosniff`);
  assert.equal(r.headers.get('referrer-policy'), 'no-referrer', `${what}: referrer policy`);
  if (csp) assert.match(r.headers.get('content-security-policy') ?? '', csp, `${what}: CSP`);
}

describe("the console's files at /app", () => {
  // A console build of two files: the headers do not depend on what the build holds.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-console-files-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html lang="en"><head><title>c</title></head><body><script src="/app/assets/index-1.js"></script></body></html>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-1.js'), 'console.log(1);');
  const app = Fastify();
  let base = '';
  before(async () => {
    await registerConsole(app, dir);
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answer nosniff and no-referrer, and the page its CSP', async () => {
    const index = await fetch(`${base}/app/`);
    assert.equal(index.status, 200);
    assertPageHeaders(index, 'index.html', /script-src 'self'; .*frame-ancestors 'none'/);
    const script = await fetch(`${base}/app/assets/index-1.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    assertPageHeaders(script, 'a script', null);
    const redirect = await fetch(`${base}/app`, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assertPageHeaders(redirect, 'the redirect', null);
  });
});

for (const backend of BACKENDS) {
  describe(`the reference at /docs [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    it('answers its page with a CSP, and every file with nosniff and no-referrer', async () => {
      const page = await fetch(`${h.base}/docs/`);
      assert.equal(page.status, 200);
      assertPageHeaders(page, '/docs/', /default-src 'self'; script-src 'self'; .*connect-src 'self'; object-src 'none'/);
      assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /script-src[^;]*unsafe-inline/, 'no inline scripts');
      for (const file of ['/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-initializer.js', '/docs/json']) {
        const r = await fetch(`${h.base}${file}`);
        assert.equal(r.status, 200, file);
        assertPageHeaders(r, file, null);
      }
      // The API's own answers are not pages: none of this is added to them.
      const api = await fetch(`${h.base}/api/v1/health/live`);
      assert.equal(api.headers.get('content-security-policy'), null);
    });

    it('works under its policy in chromium', { skip: backend !== BACKENDS[0] ? 'the page does not depend on the database' : skipBrowser }, async () => {
      let browser: Browser | null = null;
      try {
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
        const page = await browser.newPage();
        const problems: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(m.text());
        });
        page.on('pageerror', (e) => problems.push(e.message));
        await page.addInitScript(() => {
          type Violation = { violatedDirective: string; blockedURI: string };
          const doc = (globalThis as unknown as { document: { addEventListener(t: string, f: (e: Violation) => void): void } }).document;
          doc.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
        });
        await page.goto(`${h.base}/docs/`);
        // Swagger UI renders the whole document (about 400 KB): slow on a busy 2-core machine.
        await page.locator('.swagger-ui .info .title').waitFor({ timeout: 120_000 });
        assert.match(await page.locator('.swagger-ui .info .title').innerText(), /Crucible API/);
        // "Try it out" on the liveness probe: the page calls the API (connect-src 'self').
        await page.locator('#operations-health-getLiveness .opblock-summary').click();
        await page.getByRole('button', { name: 'Try it out' }).click();
        const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/health/live'), { timeout: 30_000 });
        await page.getByRole('button', { name: 'Execute' }).click();
        assert.equal((await answer).status(), 200);
        await page.locator('#operations-health-getLiveness .live-responses-table').waitFor({ timeout: 30_000 });
        assert.deepEqual(problems, [], 'no CSP violation or script error');
      } finally {
        await browser?.close();
      }
    });
  });
}
