// Writes <dist>/sw.js from web/sw.js: the service worker that keeps the page working offline,
// with the list of every file of the build and a version that is the hash of their contents.
// Usage: node web/tools/offline.mjs <dist>  (web/build.sh runs it last)
import { readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative, resolve, dirname } from 'node:path';

const dist = resolve(process.argv[2] || '');
if (!process.argv[2]) {
  console.error('usage: node offline.mjs <dist>');
  process.exit(2);
}
const walk = (dir) => readdirSync(dir).sort().flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? walk(path) : [path];
});
const files = walk(dist).filter((f) => relative(dist, f) !== 'sw.js');
const hash = createHash('sha256');
for (const f of files) hash.update(relative(dist, f)).update(readFileSync(f));
const version = hash.digest('hex').slice(0, 16);
// `./` too: the page is opened by its folder's address.
const list = ['./', ...files.map((f) => `./${relative(dist, f).split('\\').join('/')}`)];
const template = readFileSync(join(dirname(new URL(import.meta.url).pathname), '..', 'sw.js'), 'utf8');
writeFileSync(join(dist, 'sw.js'), template.replace('__VERSION__', version).replace('__FILES__', JSON.stringify(list)));
console.log(`offline: ${list.length} files cached by sw.js, version ${version}`);
