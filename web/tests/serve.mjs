// A built page (a dist/ folder of web/build.sh) served on a local port and opened in headless
// Chromium (Debian's /usr/bin/chromium, driven by playwright-core; no browser download): shared by
// browser.mjs (referee's page) and own_game.mjs (the page with a game from outside the crate).
// Any request that leaves the local server is refused and kept in `outside`: a page must fetch
// nothing from the network.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname, normalize } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

// Serves `dist` and opens a browser on it: { base, context, outside, close }.
export async function serve(dist) {
  if (!existsSync(join(dist, 'index.html'))) {
    console.error(`${dist}/index.html is missing: run web/build.sh first`);
    process.exit(2);
  }
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(dist, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(dist)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const profile = await mkdtemp(join(tmpdir(), 'referee-web-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // `gc()` for the timing tests: they start from a heap the tests before them have left
      // collected, so that a pause they measure is their own page's.
      '--js-flags=--expose-gc',
    ],
    viewport: { width: 1400, height: 1000 },
  });
  const outside = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(base) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  const close = async () => {
    await context.close();
    server.close();
    await rm(profile, { recursive: true, force: true });
  };
  return { base, context, outside, close };
}
