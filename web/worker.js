// referee runs here, never on the page's thread: a judgement that searches for a second, a repair
// search, or a module that traps (a bug, or memory run out) cannot freeze the page or kill it.
// The page sends the compiled module once ({ module }), then questions ({ id, op, args }): each
// is answered { id, out, ms }, or { id, trap } when the module trapped. A module that trapped is
// left in an unknown state and answers nothing more: the page ends this worker and starts another
// (app.js, Engine). The page also ends a worker whose work a newer text has made useless.
import init, * as referee from './pkg/referee_web.js';

// The functions of web/src/lib.rs the page may call, and `time`, for the browser tests.
const OPS = new Set(['judge', 'judged_verdicts', 'judge_search', 'verify', 'positions', 'board', 'line_board', 'position_code', 'convert', 'repairs', 'limits', 'refusal', 'games', 'new_record', 'next_moves', 'play_move', 'trap', 'time']);

let ready = null;
let trapped = null;

// The fastest of n judgings of a text, in milliseconds.
function time(text, n) {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    referee.verify(text);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

onmessage = async (e) => {
  if (e.data.module) {
    ready = init({ module_or_path: e.data.module });
    return;
  }
  const { id, op, args } = e.data;
  await ready;
  if (trapped || !OPS.has(op)) {
    postMessage({ id, trap: trapped || `no such function: ${op}` });
    return;
  }
  const t0 = performance.now();
  try {
    const out = op === 'time' ? time(...args) : referee[op](...args);
    postMessage({ id, out, ms: performance.now() - t0 });
  } catch (err) {
    trapped = `${err.name}: ${err.message}`;
    postMessage({ id, trap: trapped });
  }
};
