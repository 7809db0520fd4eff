// A terminal you can read (issue 15, point 3), against the built site: long
// lines wrap at 1440x900, 1280x720 and 390x844 while an etcdctl `-w table`
// keeps its columns aligned (scrolling sideways as one block when it is wider
// than the terminal); a button's command runs on its machine and leaves the
// terminal's machine as it was, "Use NAME's terminal" moves it; Escape then
// Tab leaves the terminal's input. Screenshots go to e2e/out/terminal-*.png.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './helpers/site.mjs';
import { OUT, screenshot } from './helpers/browser.mjs';
import { INPUT, OUTPUT, pause, terminalText, type, waitForOutput, withPage as withPageAt } from './helpers/page.mjs';
import { join } from 'node:path';

let browser;
let server;
let failures = 0;

useSite((b, s) => {
  browser = b;
  server = s;
});

function withPage(fn, { viewport, name = `terminal-failure-${++failures}` } = {}) {
  return withPageAt(browser, server.url, fn, { viewport, name });
}

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
];

const prompt = (page) => page.locator('.term-input .prompt');
const machine = (page, name) => page.locator(`[data-testid="machine-${name}"]`);
const ENDPOINTS = '192.168.0.61:2379,192.168.0.62:2379,192.168.0.63:2379';

/** What the terminal's lines measure: each ordinary line's overflow, and each table's column positions. */
function measure(sel) {
  const out = document.querySelector(sel);
  const lines = [...out.children].filter((d) => !d.classList.contains('term-table'));
  const overflowing = lines
    .filter((d) => d.scrollWidth > d.clientWidth + 1)
    .map((d) => ({ text: d.textContent.slice(0, 80), scroll: d.scrollWidth, client: d.clientWidth }));
  const box = out.getBoundingClientRect();
  const outside = lines
    .filter((d) => d.getBoundingClientRect().right > box.right + 1)
    .map((d) => d.textContent.slice(0, 80));
  // Each table: the x of every `+` and `|` of each row, which must be equal row to row.
  const tables = [...out.querySelectorAll('.term-table')].map((t) => {
    const node = t.firstChild;
    const text = node?.textContent ?? '';
    const rows = [];
    let start = 0;
    for (const row of text.split('\n')) {
      const xs = [];
      for (let i = 0; i < row.length; i++) {
        if (row[i] === '+' || row[i] === '|') {
          const r = document.createRange();
          r.setStart(node, start + i);
          r.setEnd(node, start + i + 1);
          xs.push(Math.round(r.getBoundingClientRect().left * 10) / 10);
        }
      }
      rows.push(xs);
      start += row.length + 1;
    }
    return { rows, scroll: t.scrollWidth, client: t.clientWidth, whiteSpace: getComputedStyle(t).whiteSpace };
  });
  const longest = Math.max(...lines.map((d) => d.textContent.length));
  return {
    overflowing,
    outside,
    tables,
    longest,
    output: { scroll: out.scrollWidth, client: out.clientWidth },
  };
}

describe('a terminal you can read', () => {
  for (const size of SIZES) {
    const tag = `${size.width}x${size.height}`;
    test(`long lines wrap and a table keeps its columns at ${tag}`, { timeout: 90_000 }, async () => {
      await withPage(
        async (page) => {
          await page.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
          await pause(page);
          await type(page, 'node03$ kill etcd');
          await type(page, 'ssh node01');
          // A table for the two live members and etcdctl's long reason for node03.
          await type(page, `etcdctl endpoint status -w table --endpoints=${ENDPOINTS}`);
          await waitForOutput(page, 'RAFT INDEX');
          await waitForOutput(page, 'Failed to get the status of endpoint 192.168.0.63:2379');
          // The error of a put to the stopped member: a long JSON warning line.
          await type(page, 'etcdctl --endpoints=192.168.0.63:2379 put a 1');
          await waitForOutput(page, 'context deadline exceeded');
          await page.locator(OUTPUT).evaluate((el) => {
            el.scrollTop = el.scrollHeight;
          });
          const m = await page.evaluate(measure, OUTPUT);
          assert.ok(m.longest > 150, `a long line is in the terminal (${m.longest} characters)`);
          assert.deepEqual(m.overflowing, [], 'no ordinary line is wider than the terminal');
          assert.deepEqual(m.outside, [], 'no ordinary line reaches past the terminal');
          assert.ok(m.output.scroll <= m.output.client + 1, `the terminal does not scroll sideways: ${JSON.stringify(m.output)}`);
          assert.equal(m.tables.length, 1, 'one table');
          const [table] = m.tables;
          assert.equal(table.whiteSpace, 'pre', 'a table never wraps');
          assert.ok(table.rows.length >= 5, `the table's rows: ${table.rows.length}`);
          for (const xs of table.rows) {
            assert.deepEqual(xs, table.rows[0], 'every row has its column borders where the first has them');
          }
          // Everything the person typed and etcdctl printed is in the text.
          const text = await terminalText(page);
          assert.match(text, /\| RAFT TERM \| RAFT INDEX \| RAFT APPLIED INDEX \| ERRORS \|/);
          assert.match(text, /Failed to get the status of endpoint 192\.168\.0\.63:2379 \(context deadline exceeded\)/);
          await page.locator('.terminal').screenshot({ path: join(OUT, `terminal-${tag}.png`) });
          await screenshot(page, `terminal-page-${tag}.png`);
          // Scrolled sideways as one block, the table shows its last columns, still aligned.
          const seen = await page.locator('[data-testid="terminal-table"]').evaluate((t) => {
            t.scrollLeft = t.scrollWidth;
            const node = t.firstChild;
            const at = node.textContent.indexOf('RAFT INDEX');
            const r = document.createRange();
            r.setStart(node, at);
            r.setEnd(node, at + 'RAFT INDEX'.length);
            const word = r.getBoundingClientRect();
            const box = t.getBoundingClientRect();
            return { inside: word.left >= box.left - 1 && word.right <= box.right + 1, word: word.left, box: box.left };
          });
          assert.ok(seen.inside, `RAFT INDEX is in view once the table is scrolled: ${JSON.stringify(seen)}`);
          const scrolled = await page.evaluate(measure, OUTPUT);
          for (const xs of scrolled.tables[0].rows) assert.deepEqual(xs, scrolled.tables[0].rows[0]);
          await page.locator('.terminal').screenshot({ path: join(OUT, `terminal-table-scrolled-${tag}.png`) });
        },
        { viewport: size },
      );
    });
  }

  test('a button runs on its machine and the prompt stays; "Use NAME\'s terminal" moves it', { timeout: 90_000 }, async () => {
    await withPage(
      async (page) => {
        await page.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
        await pause(page);
        assert.equal(await prompt(page).textContent(), 'node01$');
        for (const name of ['node03', 'node02']) {
          await machine(page, name).click();
          await page.locator('[data-testid="selected-machine"]', { hasText: name }).waitFor();
          await page.locator('[data-testid="action-stop"]').click();
          await page.locator(`${OUTPUT} > .echo`, { hasText: `${name}$ kill etcd` }).waitFor();
          assert.equal(await prompt(page).textContent(), 'node01$', `stopping ${name} leaves the terminal on node01`);
        }
        assert.match(await page.locator('.terminal h2').textContent(), /Terminal — node01/);
        // The put goes to node01, which is alive but has lost quorum.
        await type(page, 'etcdctl put a 1');
        await page.locator(`${OUTPUT} > .echo`, { hasText: 'node01$ etcdctl put a 1' }).waitFor();
        await waitForOutput(page, 'etcdserver: request timed out', 20_000);
        await page.locator(`${OUTPUT} > .echo`).last().scrollIntoViewIfNeeded();
        await screenshot(page, 'terminal-button-keeps-prompt.png');
        // node02 is still selected: its control types `ssh node02`.
        const use = page.locator('[data-testid="use-terminal"]');
        assert.equal(await use.textContent(), "Use node02's terminal");
        await use.click();
        await page.locator(`${OUTPUT} > .echo`, { hasText: 'node01$ ssh node02' }).waitFor();
        await page.locator('.term-input .prompt', { hasText: 'node02$' }).waitFor();
        await type(page, 'etcdctl put b 2');
        await page.locator(`${OUTPUT} > .echo`, { hasText: 'node02$ etcdctl put b 2' }).waitFor();
      },
      { viewport: { width: 1440, height: 900 } },
    );
  });

  test('Escape releases Tab from the terminal; typing takes it back', { timeout: 60_000 }, async () => {
    await withPage(
      async (page) => {
        const input = page.locator(INPUT);
        const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);
        await input.click();
        await input.pressSequentially('etcdctl mem');
        await input.press('Tab');
        assert.equal(await input.inputValue(), 'etcdctl member ', 'Tab completes');
        assert.equal(await focused(), 'terminal-input', 'and stays in the input');
        assert.match(await page.locator('[data-testid="terminal-hint"]').textContent(), /Esc then Tab leaves the terminal/);
        await input.press('Escape');
        assert.match(await page.locator('[data-testid="terminal-hint"]').textContent(), /Tab now moves to the next control/);
        await page.keyboard.press('Tab');
        const after = await focused();
        assert.notEqual(after, 'terminal-input', 'after Escape, Tab moves focus on');
        assert.equal(await input.inputValue(), 'etcdctl member ', 'and completes nothing');
        // Back in the input, typing makes Tab complete again.
        await input.focus();
        await input.pressSequentially('li');
        await input.press('Tab');
        assert.equal(await input.inputValue(), 'etcdctl member list ');
        assert.equal(await focused(), 'terminal-input');
        // Shift+Tab always moves back.
        await input.press('Shift+Tab');
        assert.notEqual(await focused(), 'terminal-input', 'Shift+Tab moves focus back');
      },
      { viewport: { width: 1280, height: 720 } },
    );
  });
});
