// referee runs here, never on the page's thread: a judgement that searches for a second, a repair
// search, or a module that traps (a bug, or memory run out) cannot freeze the page or kill it.
// The page sends the compiled module once ({ module }), then questions ({ id, op, args }): each
// is answered { id, out, ms }, or { id, trap } when the module trapped. A module that trapped is
// left in an unknown state and answers nothing more: the page ends this worker and starts another
// (app.js, Engine). The page also ends a worker whose work a newer text has made useless.
import init, * as referee from './pkg/referee_web.js';

// The functions of web/src/lib.rs the page may call, and `time`, for the browser tests.
const OPS = new Set(['judge', 'judge_edit', 'judged_verdicts', 'judge_search', 'verify', 'positions', 'board', 'line_board', 'position_code', 'convert', 'repairs', 'limits', 'refusal', 'games', 'new_record', 'setup_board', 'setup_record', 'code_record', 'next_moves', 'play_move', 'comment_move', 'trap', 'time']);

let ready = null;
let trapped = null;
// The text the page last sent: a question may give it again (`{ text: { held: true } }`), as an
// edit of it (`{ text: { edit: { from, to, inserted } } }`, UTF-16 offsets), or whole
// (`{ text: { whole } }`): the page sends megabytes only when it must.
let held = '';

function argument(a) {
  if (a === null || typeof a !== 'object' || !('text' in a)) return a;
  const t = a.text;
  if (t.whole !== undefined) held = t.whole;
  else if (t.edit) held = held.slice(0, t.edit.from) + t.edit.inserted + held.slice(t.edit.to);
  return held;
}

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
  // The text held follows every question, answered or not.
  const given = args.map(argument);
  if (trapped || !OPS.has(op)) {
    postMessage({ id, trap: trapped || `no such function: ${op}` });
    return;
  }
  const t0 = performance.now();
  try {
    const out = op === 'time' ? time(...given) : referee[op](...given);
    postMessage({ id, out, ms: performance.now() - t0 });
  } catch (err) {
    trapped = `${err.name}: ${err.message}`;
    postMessage({ id, trap: trapped });
  }
};
