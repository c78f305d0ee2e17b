// Shared parts of the web console's browser tests (docs/console.md, "Tests"): Debian's chromium
// driven by playwright-core (no browser download), the console built as `npm start` builds it,
// axe-core run in the page, screenshots into one directory, sign-in, and a page that collects
// script errors. CI fails when chromium is missing; elsewhere the tests skip with one line.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { BACKENDS } from '../helpers/backends.js';

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

/**
 * The screen sizes a flow runs at on a database: with PostgreSQL configured, the phone on PGlite
 * and the desktop on PostgreSQL, so each flow runs once per database and once per size; without
 * it, both sizes on PGlite. The layout does not depend on the database, and each run of a browser
 * flow costs a minute of CI (docs/console.md "Tests").
 */
export function viewportsFor(backend: { name: string }): readonly Viewport[] {
  if (backend.name !== 'pglite') return [VIEWPORTS[0]];
  return BACKENDS.length === 1 ? VIEWPORTS : [VIEWPORTS[1]];
}

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
