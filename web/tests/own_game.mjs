// The page built with a game from outside the crate (web/own_game/: In a Row added to the
// registry's games through `referee_web::page!`), in headless Chromium: a pasted record of that
// game is judged as referee judges its own, its illegal move located and its board drawn.
// Run `web/build.sh web/own_game` first, then: cd web/tests && npm ci && node own_game.mjs
import { serve } from './serve.mjs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';

const here = new URL('.', import.meta.url).pathname;
const shots = resolve(process.env.SCREENSHOTS || join(here, 'screenshots'));
const { base, context, outside, close } = await serve(resolve(here, '..', 'own_game', 'dist'));
await mkdir(shots, { recursive: true });

const errors = [];
const page = await context.newPage();
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
await page.goto(base);
await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });

// Black's second c3 is on Black's own stone; the second record fills the board with no row.
const illegal = '[Game "In a Row"]\n[Size "5"]\n\n1. c3 d3 2. c3 d4 3. b2 e5 *\n';
const drawn = '[Game "In a Row"]\n\n1. a1 c1 2. b1 d1 3. e1 a2 4. c2 b2 5. d2 e2 6. a3 c3 7. b3 d3 '
  + '8. e3 a4 9. c4 b4 10. d4 e4 11. a5 c5 12. b5 d5 13. e5 0-0\n';
const before = await page.evaluate(() => window.refereeStats.verifications);
await page.locator('#text .cm-content').fill(`${illegal}\n${drawn}`);
await page.waitForFunction((n) => window.refereeStats.verifications > n, before, { timeout: 10000 });
await page.waitForFunction(() => window.refereeStats.idle(), null, { timeout: 60000 });

assert.match(await page.locator('.tagline').innerText(), /^Replays records of Quadraphages, .* Splinter Quad and In a Row:/);
const verdicts = page.locator('.verdict');
assert.equal(await verdicts.count(), 2);
assert.match(await verdicts.nth(0).locator('.badge').innerText(), /illegal/);
const problem = verdicts.nth(0).locator('li.problem.illegal').first();
assert.equal(await problem.locator('button.where').innerText(), '4:13');
assert.match(await problem.innerText(), /c3 already holds a Black stone/);
// No link to a rules page the build does not hold.
assert.equal(await problem.locator('a.rule').count(), 0);
assert.match(await verdicts.nth(1).locator('.badge').innerText(), /valid/);
assert.match(await verdicts.nth(1).innerText(), /the board is full with no 4 in a row/);
// The board of the record at hand is drawn by the game's own view: stones on a 5x5 board.
await page.waitForFunction(() => document.querySelectorAll('#board svg .figure').length > 0, null, { timeout: 10000 });
assert.ok(await page.locator('#board svg.game-inrow').count() > 0);
await page.screenshot({ path: join(shots, 'own-game.png') });
assert.deepEqual(outside, []);
assert.deepEqual(errors, []);
await close();
console.log(`ok   the page with In a Row added judged its records; screenshot in ${shots}/own-game.png`);
