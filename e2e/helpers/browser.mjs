// Debian's Chromium driven by playwright-core (never the `playwright` package,
// which downloads browsers). Flags keep it off the network: this machine has
// none besides loopback, and Chromium's background services would retry.
import { chromium } from 'playwright-core';
import { access, constants, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const ROOT = dirname(E2E_DIR);
// E2E_DIST points the suite at another build of the site (default: dist/).
export const DIST = process.env.E2E_DIST ?? join(ROOT, 'dist');
export const OUT = join(E2E_DIR, 'out');

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchBrowser() {
  await access(CHROMIUM, constants.X_OK).catch(() => {
    throw new Error(`${CHROMIUM} not found: run \`make test-tools\` (apt-get install chromium)`);
  });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export async function requireDist() {
  await access(join(DIST, 'index.html')).catch(() => {
    throw new Error(`${DIST}/index.html is missing: run \`make build\` first (make e2e does)`);
  });
}

/** Collects console errors, uncaught page errors, failed requests and HTTP errors. */
export function watchErrors(page) {
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.stack ?? err}`));
  page.on('requestfailed', (req) =>
    errors.push(`request failed: ${req.url()} (${req.failure()?.errorText})`),
  );
  page.on('response', (res) => {
    if (res.status() >= 400) errors.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return errors;
}

export async function screenshot(page, name) {
  await mkdir(OUT, { recursive: true });
  const path = join(OUT, name);
  await page.screenshot({ path, fullPage: true });
  return path;
}
