// One browser and one server of the built site (dist/) for a test file:
// `useSite((browser, server) => { … })` registers node:test's before and after
// hooks, hands both over once they run, and closes both at the end.
import { after, before } from 'node:test';
import { serveDir } from './server.mjs';
import { DIST, launchBrowser, requireDist } from './browser.mjs';

export function useSite(take) {
  let browser;
  let server;
  before(async () => {
    await requireDist();
    browser = await launchBrowser();
    server = await serveDir(DIST);
    take(browser, server);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}
