// Profiles the built site in headless Chromium: opens QUERY (a URL's query,
// such as '?lesson=001-learner-design&step=25'), waits for SELECTOR, and prints
// the real time it took and the 40 functions that spent the most of it (self
// time, ms, sampled every millisecond by Chrome's profiler).
//
//   node tools/profile_page.mjs [QUERY] [SELECTOR]
//
// Function names need a build that keeps wasm's name section (wasm-opt drops it):
//   sed 's/data-wasm-opt="z"/data-wasm-opt="0"/' index.html > index-names.html
//   trunk build --release --dist /tmp/dist-names index-names.html; rm index-names.html
//   E2E_DIST=/tmp/dist-names node tools/profile_page.mjs
// The whole profile is written to /tmp/page.cpuprofile (DevTools opens it).
import { writeFileSync } from 'node:fs';
import { launchBrowser, requireDist, DIST } from '../e2e/helpers/browser.mjs';
import { serveDir } from '../e2e/helpers/server.mjs';

const query = process.argv[2] ?? '?lesson=001-learner-design&step=25';
const selector = process.argv[3] ?? '[data-testid="lesson-etcd-line"]';
await requireDist();
const server = await serveDir(DIST);
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  await cdp.send('Profiler.start');
  const t0 = Date.now();
  await page.goto(`${server.url}${query}`, { waitUntil: 'load' });
  await page.locator(selector).first().waitFor({ timeout: 300_000 });
  console.log(`${query}: ${selector} after ${Date.now() - t0} ms`);
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync('/tmp/page.cpuprofile', JSON.stringify(profile));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const f = nodes.get(id).callFrame;
    const name = f.functionName || f.url || '(anonymous)';
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`${(us / 1000).toFixed(0).padStart(7)} ${name}`);
  }
} finally {
  await browser.close();
  await server.close();
}
