// Shared parts of the web console's browser tests (docs/console.md, "Tests"): Debian's chromium
// driven by playwright-core (no browser download), the console built as `npm start` builds it,
// axe-core run in the page, screenshots into one directory, sign-in, and a page that collects
// script errors. CI fails when chromium is missing; elsewhere the tests skip with one line.
// `browserSuite` sets a file's tests up: the browser, a server per database, one test per
// screen size of that database, each in a fresh browser context.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { onlyOn, type Backend } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

export const CHROMIUM = process.env.CRUCIBLE_CHROMIUM ?? '/usr/bin/chromium';
const root = path.resolve(import.meta.dirname, '..', '..');
const ci = process.env.CI === 'true' || process.env.CI === '1';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium && ci) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package`);
/** The `skip` option of a browser suite: false, or why it skips. */
export const skipBrowser: false | string = !haveChromium && `no ${CHROMIUM}: apt-get install chromium`;

export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

const [DESKTOP, PHONE] = VIEWPORTS;

/** Where screenshots go: CRUCIBLE_SCREENSHOTS, or one temp dir per process (printed at launch). */
export const shots = process.env.CRUCIBLE_SCREENSHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-console-'));
fs.mkdirSync(shots, { recursive: true });

let axeSource: string | null = null;

/** Builds the console if needed (scripts/build-if-needed.mjs) and launches Debian's chromium. */
export async function launchBrowser(): Promise<Browser> {
  execFileSync(process.execPath, ['-e', "import('./scripts/build-if-needed.mjs').then((m) => m.buildConsoleIfNeeded())"], { cwd: root, stdio: 'inherit' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  console.log(`screenshots: ${shots}`);
  return browser;
}

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function axe(page: Page): Promise<{ id: string; impact: string; help: string; targets: string[] }[]> {
  axeSource ??= fs.readFileSync(path.join(root, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const w = globalThis as unknown as {
      axe: { run(ctx: string, opts: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> };
    };
    const r = await w.axe.run('html', { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Asserts that axe finds no serious or critical violation on the page. */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await axe(page), [], what);
}

export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  /** Script errors and console errors seen so far. */
  errors: string[];
  /** The errors other than the failed-resource lines a handled 401 or 422, or an emulated network loss, logs. */
  scriptErrors: () => string[];
}

/** A fresh context at the viewport, with its page collecting script and console errors. */
export async function openConsole(browser: Browser, vp: { width: number; height: number }): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  // Which resource failed: the console's "Failed to load resource" line does not say.
  page.on('response', (r) => {
    if (r.status() === 404 || r.status() >= 500) console.log(`console test: ${r.status()} ${r.request().method()} ${r.url()}`);
  });
  return { context, page, errors, scriptErrors: () => errors.filter((e) => !/status of (401|422)|net::ERR_INTERNET_DISCONNECTED/.test(e)) };
}

/** What a flow of a browser suite gets: its server, its database, its screen size and a fresh page. */
export interface Flow extends ConsolePage {
  h: Harness;
  backend: Backend;
  vp: Viewport;
  /** Opens the console at `#/<route>` and signs in as `user`. */
  openAs: (route: string, user: { email: string; password: string }) => Promise<void>;
  /**
   * The page as it is now, on a phone (390x844): nothing wider than the screen, no serious or
   * critical axe violation, `check` if given, a screenshot `<name>-phone`; then back to the
   * flow's size.
   */
  atPhone: (name: string, check?: () => Promise<void>) => Promise<void>;
}

/** Resizes `page` to a phone and checks it there (Flow.atPhone). */
async function checkAtPhone(page: Page, back: Viewport, name: string, check?: () => Promise<void>): Promise<void> {
  await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
  await page.waitForTimeout(300);
  const width = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
  assert.equal(width, PHONE.width, `${name}: nothing wider than the phone`);
  assert.deepEqual(await axe(page), [], `${name} (phone)`);
  await check?.();
  await snap(page, `${name}-phone`);
  await page.setViewportSize({ width: back.width, height: back.height });
}

/** A browser suite on one database: its server and browser (set once the suite's hooks ran), and its flows. */
export interface Suite {
  readonly h: Harness;
  readonly browser: Browser;
  readonly backend: Backend;
  /**
   * A test run once, in a fresh browser context (closed after it), at 1280x800 or at `at`; its
   * last state is then checked at phone size too (Flow.atPhone).
   */
  flow(title: string, body: (flow: Flow) => Promise<void>, options?: { at?: Viewport }): void;
}

/**
 * A file of browser tests (docs/console.md, "Tests"): Debian's chromium launched once, then a
 * server on the database `on` names (onlyOn: PGlite when no PostgreSQL is configured; `env`,
 * `harness` options) that `body` declares its flows against. The console does not depend on the
 * database, and each flow costs a minute of CI: the files are spread over both databases, each
 * flow runs once. Skipped with `skip` (default: when chromium is missing).
 */
export function browserSuite(
  name: string,
  options: { on: Backend['name']; skip?: false | string; env?: Record<string, string>; harness?: Parameters<typeof startHarness>[2] },
  body: (suite: Suite) => void,
): void {
  describe(name, { skip: options.skip ?? skipBrowser }, () => {
    let browser: Browser;
    before(async () => {
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
    });
    for (const backend of onlyOn(options.on)) {
      describe(backend.name, () => {
        let h: Harness;
        before(async () => {
          h = await startHarness(backend, options.env ?? {}, options.harness ?? {});
        });
        after(async () => h?.close());
        const run = (title: string, vp: Viewport, fn: (flow: Flow) => Promise<void>) => async () => {
          const opened = await openConsole(browser, vp);
          const openAs = async (route: string, user: { email: string; password: string }) => {
            await opened.page.goto(`${h.base}/app/#/${route}`);
            await signIn(opened.page, user.email, user.password);
          };
          const atPhone = (shot: string, check?: () => Promise<void>) => checkAtPhone(opened.page, vp, shot, check);
          const name = `${backend.name}-${title.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`;
          try {
            await fn({ ...opened, h, backend, vp, openAs, atPhone });
            await atPhone(`${name}-end`);
          } catch (err) {
            // What the page showed when the flow failed, beside the other screenshots.
            await snap(opened.page, `${name}-failed`).catch(() => undefined);
            throw err;
          } finally {
            await opened.context.close();
          }
        };
        body({
          get h() {
            return h;
          },
          get browser() {
            return browser;
          },
          backend,
          flow(title, fn, flowOptions = {}) {
            const vp = flowOptions.at ?? DESKTOP;
            it(`${title} (${vp.width}x${vp.height}, then ${PHONE.width}x${PHONE.height})`, run(title, vp, fn));
          },
        });
      });
    }
  });
}
