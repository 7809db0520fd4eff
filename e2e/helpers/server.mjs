// A tiny static file server for the e2e suite: serves a directory (dist/) on
// 127.0.0.1 at a random free port, optionally under a URL prefix such as
// "/sub/path/". Only GET/HEAD; no directory listings; no path traversal.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * Serves `root` under `prefix` on 127.0.0.1. Resolves to
 * { url, origin, requests, close() }, where `url` is the prefix's full URL and
 * `requests` records every request as { method, path, status }.
 */
export async function serveDir(root, { prefix = '/' } = {}) {
  if (!prefix.startsWith('/') || !prefix.endsWith('/')) {
    throw new Error(`prefix must start and end with "/": ${prefix}`);
  }
  const base = resolve(root);
  const requests = [];

  const server = createServer(async (req, res) => {
    const record = (status) => requests.push({ method: req.method, path: req.url, status });
    const send = (status, body, headers = {}) => {
      record(status);
      res.writeHead(status, { 'cache-control': 'no-store', ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return send(405, 'method not allowed\n', { allow: 'GET, HEAD' });
      }
      const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (pathname === prefix.slice(0, -1) && prefix !== '/') {
        return send(301, '', { location: prefix });
      }
      if (!pathname.startsWith(prefix)) return send(404, 'not found\n');

      let file = normalize(join(base, pathname.slice(prefix.length)));
      if (file !== base && !file.startsWith(base + sep)) return send(403, 'forbidden\n');
      let info = await stat(file).catch(() => null);
      if (info?.isDirectory()) {
        if (!pathname.endsWith('/')) return send(301, '', { location: `${pathname}/` });
        file = join(file, 'index.html');
        info = await stat(file).catch(() => null);
      }
      if (!info?.isFile()) return send(404, 'not found\n');

      const body = await readFile(file);
      const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      return send(200, body, { 'content-type': type, 'content-length': body.length });
    } catch (err) {
      return send(500, `${err}\n`);
    }
  });

  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    url: `${origin}${prefix}`,
    requests,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
