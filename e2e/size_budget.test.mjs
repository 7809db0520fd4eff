// The first page's size budget: index.html and the wasm, JS and CSS it
// references, brotli q11, must stay within FIRST_PAGE_BUDGET_BROTLI
// (e2e/helpers/size.mjs). Growth past it is a decision, not an accident:
// README, "Size budget", says how to raise it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DIST, requireDist } from './helpers/browser.mjs';
import { FIRST_PAGE_BUDGET_BROTLI, ZERO, add, firstPageFiles, sizesByKind } from './helpers/size.mjs';

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

test('the first page stays within its brotli budget', async () => {
  await requireDist();
  const files = await firstPageFiles(DIST);
  assert.ok(files.some((f) => f.endsWith('.wasm')), `no wasm in ${files.join(', ')}`);
  const kinds = await sizesByKind(DIST, files);
  const total = Object.values(kinds).reduce(add, ZERO);
  const parts = Object.entries(kinds).map(([k, s]) => `${k} ${kb(s.brotli)}`).join(', ');
  console.log(`first page: ${kb(total.brotli)} brotli (${parts}); budget ${kb(FIRST_PAGE_BUDGET_BROTLI)}`);
  assert.ok(
    total.brotli <= FIRST_PAGE_BUDGET_BROTLI,
    `the first page is ${kb(total.brotli)} brotli, past its budget of ${kb(FIRST_PAGE_BUDGET_BROTLI)} ` +
      `(${parts}): make it smaller, or raise FIRST_PAGE_BUDGET_BROTLI in e2e/helpers/size.mjs ` +
      `and say in the commit what grew and why`,
  );
});
