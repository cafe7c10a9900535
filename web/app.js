// The page: an editor whose records referee judges as they are typed, the board of any position
// of the selected record, its repairs, and its downloads. referee itself is the WebAssembly
// module in pkg/ (web/src/lib.rs), run in workers (worker.js), never on the page's thread: every
// answer comes from it as JSON, in a message.
import { SAMPLES } from './samples.js';
import { RULES } from './rules.js';
import { createEditor } from './editor.js';

const $ = (id) => document.getElementById(id);
// The editor (editor.js): it lays out only the lines in view, so a text of megabytes types fast.
const editor = createEditor($('editor'), {
  id: 'text',
  label: 'Record text',
  hint: 'Paste one or more game records here, drop a file on this box, or choose a sample above.',
  on: {
    change: edited,
    viewport: paintMarks,
    caret: caretMoved,
    // A text larger than the page judges is not pasted.
    paste: (pasted) => {
      const { from, to } = editor.selection;
      return refuses('The text with the paste', utf8Length(editor.value) - utf8Length(editor.value.slice(from, to)) + utf8Length(pasted));
    },
  },
});

// What the page shows: the text judged, its verdicts, the record selected, its lines of play (0
// the main line, k its variation k: positions' answer) and the frames of the line shown.
const state = {
  // The document judged last (the editor's, as it stood), and its text, made when first asked for.
  doc: null,
  get text() {
    return this.doc ? editor.textOf(this.doc) : '';
  },
  // The edits since the text last sent to the judge engine, which holds that text (`held`).
  changes: null,
  held: false,
  // Playing on the board: the moves offered at the end of the record shown, for which text and
  // record, whether the board takes them, and the cells pointed at so far.
  next: null,
  nextFor: null,
  playable: false,
  path: [],
  // Why the record shown cannot be judged, when it is undecided; null when it can.
  undecided: null,
  records: [],
  record: 1,
  lines: [],
  line: 0,
  frames: [],
  frame: 0,
  game: null,
  repairsFor: null,
  // Frames asked for: an answer for an earlier one is not shown.
  asked: 0,
  // The cell under the board's keyboard cursor, if any.
  cursor: null,
  // The board editor's board (loadSetup): its cells, what each shows, the palette and the glyph
  // chosen to place.
  setup: null,
  // What the notice under the status line says: `judge`, `refusal` or null (showNotice).
  notice: null,
};

// Figures the browser tests read: the last judging's time (in the worker), how many judgements
// were shown, whether one is running, how many boards were drawn, the last repair search's time,
// how many workers were replaced after a trap; `time(text, n)`, the fastest of n judgings of a
// text in milliseconds; `trap(engine)`, a trap in that engine's module, as a bug would make one
// (for `judge`, while it judges the editor's text).
const stats = {
  verifyMs: null,
  // When the last verdicts were shown (performance.now()).
  shownAt: null,
  verifications: 0,
  judging: false,
  drawn: 0,
  repairMs: null,
  restarts: 0,
  async time(text, n = 5) {
    return (await engines.view.call('time', text, n)).out;
  },
  trap(engine) {
    return engine === 'judge' ? judge('trap') : engines[engine].call('trap');
  },
  // Nothing waits: no judgement, drawing or repair search running, no typing about to be judged.
  idle() {
    return !queued && !state.judging && !state.searching && !Object.values(engines).some((e) => e.busy);
  },
};
window.refereeStats = stats;
// The editor, for the browser tests to set a selection as a person would with the mouse.
window.refereeEditor = editor;

// ---- referee, in workers ----

// The module is compiled once; each worker instantiates it.
const compiled = fetch(new URL('./pkg/referee_web_bg.wasm', import.meta.url))
  .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`pkg/referee_web_bg.wasm: ${r.status}`))))
  .then((bytes) => WebAssembly.compile(bytes));

// One worker and the questions it has not answered yet, started at the first question. `call`
// answers { out, ms }; or { trap } when the module trapped, and the worker is ended (the next
// question starts a fresh one); or { cancelled: true } when `restart` ended the worker first,
// because a newer text made its work useless.
class Engine {
  // The compiled module, which each worker instantiates.
  static module = null;

  constructor() {
    this.worker = null;
    this.pending = new Map();
    this.asked = 0;
    // The document whose text the worker holds (worker.js): a question about the same text sends
    // none, and one about a text a single edit away sends the edit, not megabytes.
    this.doc = null;
  }

  get busy() {
    return this.pending.size > 0;
  }

  start() {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.postMessage({ module: Engine.module });
    this.worker.onmessage = (e) => {
      const waiting = this.pending.get(e.data.id);
      if (!waiting) return;
      this.pending.delete(e.data.id);
      if (e.data.trap) {
        stats.restarts += 1;
        this.restart({ trap: e.data.trap });
      }
      waiting(e.data);
    };
    // The worker itself failed (its script did not load): the questions waiting fail with it.
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.restart({ trap: e.message || 'the worker stopped' });
    };
  }

  // Ends the worker; the questions it had not answered are answered `answer`.
  restart(answer = { cancelled: true }) {
    this.worker?.terminate();
    this.worker = null;
    this.doc = null;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const w of waiting) w(answer);
  }

  // Asks the worker `op(...args)`; an argument that is one of the editor's documents is the text
  // the worker holds, made from what it held (worker.js, `text`).
  call(op, ...args) {
    if (!this.worker) this.start();
    const id = ++this.asked;
    const sent = args.map((a) => (isDoc(a) ? { text: this.textFor(a) } : a));
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ id, op, args: sent });
    });
  }

  // How the worker is to have the text of `doc`: it holds it, or an edit of what it holds, or the
  // text itself.
  textFor(doc) {
    const held = this.doc;
    this.doc = doc;
    if (held === doc) return { held: true };
    const edit = held && oneEdit(changesBetween(held, doc));
    return edit ? { edit } : { whole: editor.textOf(doc) };
  }
}

// Whether `a` is a document of the editor's (a CodeMirror Text).
function isDoc(a) {
  return a !== null && typeof a === 'object' && typeof a.sliceString === 'function';
}

// The editor's last edits: each the document before, the document after and what changed.
const editLog = [];

// What changed from document `from` to document `to`, by the last edits; null when they do not
// lead from one to the other.
function changesBetween(from, to) {
  const first = editLog.findIndex((h) => h.before === from);
  if (first < 0) return null;
  let changes = null;
  for (const h of editLog.slice(first)) {
    changes = changes ? changes.compose(h.changes) : h.changes;
    if (h.after === to) return changes;
  }
  return null;
}

// `judge` judges texts, `view` draws and converts the record shown, `repairs` searches repairs.
const engines = { judge: new Engine(), view: new Engine(), repairs: new Engine() };

// What a trap in the module is told as.
function trapWords(doing, trap) {
  return `referee stopped while ${doing} (${trap}): a bug, or it ran out of memory. Your text is kept, and a `
    + 'change to it is judged afresh.';
}

// A question to the view engine whose answer is JSON; a trap is answered { ok: false, message }.
async function view(op, ...args) {
  const answer = await engines.view.call(op, ...args);
  if (answer.trap) return { ok: false, message: trapWords('drawing this record', answer.trap) };
  return answer.cancelled ? { ok: false, message: '' } : JSON.parse(answer.out);
}

// ---- the text and the link ----

// `#r=` holds the text as UTF-8 in base64url without padding.
function encodeText(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeText(b64) {
  const base64 = b64.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

// Bytes of `text` in UTF-8, as referee counts a text's size, without encoding it.
function utf8Length(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A surrogate pair is four bytes, counted at its first half.
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? 4 : c >= 0xdc00 && c < 0xe000 ? 0 : 3;
  }
  return n;
}

// The page's bounds (web/src/lib.rs, limits): the most text it judges, in bytes, and the search's.
let limits = { text: Infinity };

// Whether the page turns down a text of `bytes` bytes that `what` would put in the editor (a
// file, a link, a paste); if it does, the notice says why, and that the editor keeps its text.
function refuses(what, bytes) {
  if (bytes <= limits.text) return false;
  engines.view.call('refusal', what, bytes).then((answer) => {
    showNotice(`${answer.out || `${what} is too large.`} It was not opened: the editor keeps its text.`, 'refusal');
  });
  return true;
}

// The notice under the status line, and what it is about (`from`): a text turned down stays said
// until the editor's text changes; a judgement's note, until the next judgement.
function showNotice(text, from = null) {
  const notice = $('notice');
  notice.hidden = !text;
  notice.replaceChildren(...(text ? withCode(text) : []));
  state.notice = text ? from : null;
}

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const r = params.get('r');
  if (r === null) return null;
  let text;
  try {
    text = decodeText(r);
  } catch (e) {
    return { error: 'the link does not hold a record (its #r= is not base64url)' };
  }
  const n = (k) => (params.has(k) && /^\d+$/.test(params.get(k)) ? Number(params.get(k)) : null);
  return { text, ply: n('ply'), record: n('record'), line: n('line') };
}

// Past this, browsers do not open a link at all (Chromium's bound is 2 MB of URL).
const LINK_OPENS = 2 * 1024 * 1024;
// Past this, mail and chat programs often cut a link, and some servers refuse it.
const LINK_TRAVELS = 8 * 1024;

function shareLink() {
  let hash = `r=${encodeText(state.text)}`;
  if (state.record > 1) hash += `&record=${state.record}`;
  if (state.line > 0) hash += `&line=${state.line}`;
  if (state.frames.length) hash += `&ply=${state.frame}`;
  return `${location.origin}${location.pathname}#${hash}`;
}

// ---- the editor's marks: problems underlined, the current move highlighted ----

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

// The first of `records` (in text order) that ends at or after UTF-16 offset `at`.
function firstEndingAfter(records, at) {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (records[mid].at.to < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Marks the lines the editor has laid out (those in view, and a margin): a text of a hundred
// thousand lines has marks for its records in view only, found by halving, so this costs the
// same at every keystroke and scroll whatever the text's length.
function paintMarks() {
  const { from, to } = editor.visible();
  const length = editor.length;
  const marks = [];
  const mark = (start, end, cls) => {
    if (end > from && start < to) marks.push({ from: start, to: end, cls });
  };
  for (let k = firstEndingAfter(state.records, from); k < state.records.length; k++) {
    const r = state.records[k];
    if (r.at.from > to) break;
    for (const p of r.problems) {
      // A problem with no token (a missing tag, the end of the text) is marked on one character.
      mark(p.at.from, Math.max(p.at.to, Math.min(p.at.from + 1, length)), `problem ${p.kind}`);
    }
  }
  const frame = state.frames[state.frame];
  if (frame && frame.move && state.framesDoc === editor.doc) mark(frame.move.from, frame.move.to, frame.illegal ? 'current illegal' : 'current');
  editor.setMarks(marks);
}

function selectInEditor(from, to) {
  editor.select(from, to);
}

// Scrolls the editor so that offset `from` is in view.
function scrollEditorTo(from) {
  editor.scrollTo(from);
}

// The record under the caret is the one shown.
function caretMoved(at) {
  const k = firstEndingAfter(state.records, at);
  const r = state.records[k];
  if (r && r.at.from <= at && r.index !== state.record) selectRecord(r.index, null);
}

// ---- judging ----

const STATUS_WORDS = {
  valid: 'valid',
  illegal: 'illegal move',
  refuted: 'claim refuted',
  syntax_error: 'syntax error',
  undecided: 'undecided',
};

// Characters `from..to` of the text judged (UTF-16 units).
function slice(from, to) {
  return state.doc ? state.doc.sliceString(from, to) : '';
}

// Whether two keys (what an answer was asked about) are the same: field by field.
function sameKey(a, b) {
  return a !== null && b !== null && Object.keys(b).every((k) => a[k] === b[k]);
}

// Moves a place of the text (web/src/places.rs) by `shift`.
function movePlace(at, shift) {
  at.from += shift.units;
  at.to += shift.units;
  at.line += shift.lines;
  at.bytes[0] += shift.bytes;
  at.bytes[1] += shift.bytes;
}

// Moves the verdict `v` of a record after an edit before it (web/src/judging.rs, `shift`): its
// number, and every place it holds (verdict_json in web/src/lib.rs: its own, its problems', their
// alternatives' and its claims'). Called for each record after the edit, thousands a keystroke:
// it walks only these fields.
function moved(v, shift) {
  v.index += shift.records;
  movePlace(v.at, shift);
  for (const p of v.problems) {
    movePlace(p.at, shift);
    for (const a of p.alternatives) if (a.stops_at) movePlace(a.stops_at.at, shift);
  }
  for (const c of v.claims) movePlace(c.at, shift);
}

// Judges the editor's text in the judge engine (with `op`, the function of web/src/lib.rs that
// judges: `judge`, or `trap` for the tests). The engine keeps the text it judged last and judges
// again only the records an edit touched (web/src/judging.rs): its answer replaces those
// verdicts, and moves the ones after them. An edit made while a judgement runs is judged after
// it. Resolves true when the verdicts shown are the editor's text's.
async function judge(op = 'judge') {
  if (state.judging) {
    state.dirty = true;
    return state.judging;
  }
  state.judging = judgeNow(op).finally(() => { state.judging = null; });
  const done = await state.judging;
  if (state.dirty) {
    state.dirty = false;
    return judge();
  }
  if (done && state.waiting) searchClaims();
  return done;
}

// Past this many characters an edit is sent as the whole text instead: the editor makes the text
// of a document once for every worker, where each edit's text would be made again for each.
const LARGE_EDIT = 1 << 16;

// The one edit `changes` (a CodeMirror ChangeSet) make, as a worker takes it, or null when they
// make several, or one of more than LARGE_EDIT characters (a paste of megabytes).
function oneEdit(changes) {
  let edits = 0;
  let edit = null;
  changes?.iterChanges((fromA, toA, fromB, toB, inserted) => {
    edits += 1;
    edit = inserted.length > LARGE_EDIT ? null : { from: fromA, to: toA, inserted: inserted.toString() };
  });
  return edits === 1 ? edit : null;
}

async function judgeNow(op) {
  const doc = editor.doc;
  // Nothing changed since the text was judged (an edit judged at once, and asked again).
  if (op === 'judge' && state.held && doc === state.doc && !state.changes) return true;
  const edit = op === 'judge' && state.held ? oneEdit(state.changes) : null;
  state.changes = null;
  stats.judging = true;
  const shown = setTimeout(() => { $('status').textContent = 'Judging…'; }, 200);
  // The edit alone, when the engine holds the text it was made to: not a text of megabytes.
  let answer = edit ? await engines.judge.call('judge_edit', edit.from, edit.to, edit.inserted) : null;
  if (!answer?.out || JSON.parse(answer.out).missing) answer = await engines.judge.call(op, editor.textOf(doc));
  let verdicts = answer.trap
    ? { full: true, records: [], total: 0, bad: 0, waiting: 0, note: trapWords('judging this text', answer.trap) }
    : answer.cancelled ? null : JSON.parse(answer.out);
  // The engine holds this text now, unless it refused it or stopped.
  state.held = op === 'judge' && Boolean(verdicts) && !verdicts.refused && !answer.trap;
  if (!verdicts) {
    clearTimeout(shown);
    stats.judging = false;
    return false;
  }
  // The verdicts past the first chunk, asked for all at once: the engine answers them before any
  // later question, each parsed in a task of its own.
  const chunks = [];
  for (let next = verdicts.next; next !== null && next !== undefined;) {
    const more = await engines.judge.call('judged_verdicts', next, verdicts.upto);
    if (!more.out) break;
    const part = JSON.parse(more.out);
    chunks.push(part.records);
    next = part.next;
  }
  clearTimeout(shown);
  stats.judging = false;
  if (state.fresh) {
    state.fresh = false;
    clearFrames();
    state.record = 1;
  }
  state.doc = doc;
  stats.verifyMs = answer.ms ?? null;
  stats.verifications += 1;
  const records = verdicts.records.concat(...chunks);
  if (verdicts.full) {
    state.records = records;
  } else {
    const kept = verdicts.kept;
    for (let k = kept + verdicts.removed; k < state.records.length; k++) moved(state.records[k], verdicts.shift);
    state.records.splice(kept, verdicts.removed, ...records);
  }
  state.bad = verdicts.bad;
  state.waiting = verdicts.waiting;
  state.judgedMs = answer.ms ?? 0;
  if (state.record > state.records.length) state.record = Math.max(1, state.records.length);
  showStatus(verdicts.note);
  // Within a line (the records and lines after it where they were), only the cards of the
  // records judged again change.
  const shift = verdicts.shift;
  if (!verdicts.full && !state.problemsOnly && shift.records === 0 && shift.lines === 0) {
    updateVerdicts(verdicts.kept, records.length);
  } else {
    showVerdicts();
  }
  paintMarks();
  stats.shownAt = performance.now();
  await selectRecord(state.record, null);
  return true;
}

// The status line, and a judgement's note.
function showStatus(note) {
  const n = state.records.length;
  const waiting = state.waiting ? ` Searching ${state.waiting} claim${state.waiting === 1 ? '' : 's'}…` : '';
  $('status').textContent = n === 0
    ? (note ? 'Not judged.' : (editor.value.trim() ? 'No record found in this text.' : 'No text yet.'))
    : `${n} record${n === 1 ? '' : 's'}: ${n - state.bad} valid, ${state.bad} with a problem. Judged in ${state.judgedMs.toFixed(1)} ms.${waiting}`;
  if (note !== undefined) {
    if (note) showNotice(note, 'judge');
    else if (state.notice === 'judge') showNotice(null);
  }
}

// The claims that need a search of every continuation, searched one record at a time after the
// verdicts are shown: an edit meanwhile is judged between two searches.
async function searchClaims() {
  if (state.searching) return;
  state.searching = true;
  try {
    while (state.waiting && !state.judging && !state.dirty) {
      const doc = state.doc;
      const answer = await engines.judge.call('judge_search');
      if (!answer.out || doc !== state.doc) break;
      const found = JSON.parse(answer.out);
      state.waiting = found.waiting;
      if (!found.record) break;
      state.records[found.record.index - 1] = found.record;
      state.bad = found.bad;
      const card = document.querySelector(`.verdict[data-record="${found.record.index}"]`);
      if (card) card.replaceWith(verdictCard(found.record));
      showStatus();
    }
  } finally {
    state.searching = false;
  }
}

// Text with its `code` spans as code elements.
function withCode(text) {
  return text.split('`').map((part, k) => {
    if (k % 2 === 0) return part;
    const code = document.createElement('code');
    code.textContent = part;
    return code;
  });
}

function place(at) {
  return `${at.line}:${at.column}`;
}

function rulesLink(game) {
  if (!game || !RULES.includes(game)) return null;
  return `rules/${game}.html`;
}

// Verdict cards are made a hundred at a time: thousands take seconds to lay out.
const CARDS = 100;

// The records whose cards are shown: all, or those with a problem.
function shownRecords() {
  return state.problemsOnly ? state.records.filter((r) => r.status !== 'valid') : state.records;
}

// The verdict cards, as many as were shown (a hundred at least), made again: after an edit, a
// verdict may have changed anywhere.
function showVerdicts() {
  const list = shownRecords();
  const upto = Math.min(list.length, Math.max(CARDS, state.cards || 0));
  state.cards = 0;
  $('verdicts').replaceChildren();
  moreVerdicts(upto, list);
}

// The cards of records `from..from + count` (0-based) made again, those that are shown.
function updateVerdicts(from, count) {
  const cards = $('verdicts').querySelectorAll('.verdict');
  for (let k = from; k < Math.min(from + count, state.cards, cards.length); k++) {
    cards[k].replaceWith(verdictCard(state.records[k]));
  }
}

// The next `count` verdict cards (a hundred by default), and a button for the hundred after them.
function moreVerdicts(count = CARDS, list = shownRecords()) {
  const box = $('verdicts');
  box.querySelector('button.more')?.remove();
  const upto = Math.min(list.length, state.cards + count);
  box.append(...list.slice(state.cards, upto).map(verdictCard));
  state.cards = upto;
  if (upto < list.length) {
    const more = document.createElement('button');
    more.type = 'button';
    more.className = 'more';
    more.textContent = `Show the next ${Math.min(CARDS, list.length - upto)} verdicts (${upto} of ${list.length} shown)`;
    more.addEventListener('click', () => moreVerdicts());
    box.append(more);
  }
}

function verdictCard(r) {
  const card = document.createElement('article');
  card.className = `verdict ${r.status}${r.index === state.record ? ' selected' : ''}`;
  card.dataset.record = r.index;
  const head = document.createElement('h3');
  const title = r.title || 'unknown game';
  head.innerHTML = `<span class="badge ${r.status}">${STATUS_WORDS[r.status] || r.status}</span> `
    + `Record ${r.index} · <span class="game">${escapeHtml(title)}</span> · line ${r.at.line} · ${r.moves} move${r.moves === 1 ? '' : 's'}`;
  const link = rulesLink(r.game);
  if (link) head.innerHTML += ` · <a href="${link}" target="_blank" rel="noopener">rules</a>`;
  card.append(head);
  if (r.score) {
    const p = document.createElement('p');
    p.className = 'score';
    p.textContent = (r.game_over ? 'Final score: ' : 'Score where the replay ends: ') + r.score;
    card.append(p);
  }
  const list = document.createElement('ul');
  for (const [k, p] of r.problems.entries()) {
    const li = document.createElement('li');
    li.className = `problem ${p.kind}`;
    const where = document.createElement('button');
    where.type = 'button';
    where.className = 'where';
    where.textContent = place(p.at);
    where.addEventListener('click', (e) => {
      e.stopPropagation();
      selectRecord(r.index, p.kind === 'illegal' ? { illegal: p.at } : null);
      selectInEditor(p.at.from, p.at.to);
    });
    li.append(where, ` ${p.kind}${p.token ? ' ' : ''}`);
    if (p.token) {
      const code = document.createElement('code');
      code.textContent = p.token;
      li.append(code);
    }
    li.append(`: ${p.message}`);
    // The section of the game's rules the move breaks, when the build holds the game's rules page
    // (a build with a game of its own may not).
    if (p.rule && RULES.includes(p.rule.replace(/^rules\/|\.html#.*$/g, ''))) {
      const rule = document.createElement('a');
      rule.className = 'rule';
      rule.href = p.rule;
      rule.target = '_blank';
      rule.textContent = 'the rule';
      li.append(' (', rule, ')');
    }
    if (p.alternatives.length) {
      const alts = document.createElement('ul');
      alts.className = 'alternatives';
      for (const a of p.alternatives) {
        const ali = document.createElement('li');
        const code = document.createElement('code');
        code.textContent = a.move;
        ali.append('instead ', code, ': ', a.replays_to_end
          ? 'the rest replays to the end'
          : `the rest replays up to ${a.stops_at.token} at ${place(a.stops_at.at)}`);
        alts.append(ali);
      }
      li.append(alts);
    }
    if (p.legal.length) {
      const legal = document.createElement('p');
      legal.className = 'legal';
      const more = p.legal_count > p.legal.length ? ` (${p.legal_count} in all)` : '';
      legal.textContent = `legal there${more}: ${p.legal.join(' ')}`;
      li.append(legal);
    }
    list.append(li);
  }
  for (const c of r.claims) {
    const li = document.createElement('li');
    li.className = `claim ${c.status}${c.reason ? ` ${c.reason}` : ''}`;
    li.append(`${place(c.at)} claim “${c.text}”: ${c.status}: `, ...withCode(c.detail));
    list.append(li);
  }
  for (const note of r.notes) {
    const li = document.createElement('li');
    li.className = 'note';
    li.textContent = note;
    list.append(li);
  }
  if (list.children.length) card.append(list);
  card.addEventListener('click', (e) => {
    if (e.target.closest('a')) return;
    selectRecord(r.index, null);
    scrollEditorTo(r.at.from);
  });
  return card;
}

// ---- the board ----

// No record drawn: no line, no frame.
function clearFrames() {
  state.lines = [];
  state.line = 0;
  state.frames = [];
  state.undecided = null;
}

// Shows line `line` of the record (0 its main line, k its variation k), if it has it.
function showLine(line) {
  if (line === state.line || !state.lines[line]) return;
  state.line = line;
  state.frames = state.lines[line].frames;
  showMoves();
}

// `frame`: a frame index of the main line, `{ illegal: place }` for the error diagram of the
// illegal move at that place (of the main line or of a variation), or null to keep the frame
// shown (the last one of the main line for a record newly selected).
async function selectRecord(index, frame) {
  const changed = index !== state.record || state.framesDoc !== state.doc;
  state.record = index;
  for (const card of document.querySelectorAll('.verdict')) {
    card.classList.toggle('selected', Number(card.dataset.record) === index);
  }
  if (changed || state.frames.length === 0) {
    const doc = state.doc;
    const answer = state.records.length ? await view('positions', state.doc, index) : { ok: false, message: '' };
    // A newer text or another record was asked for meanwhile: its answer shows instead.
    if (doc !== state.doc || index !== state.record) return;
    // The same record edited keeps its frame; another record, or a new text, opens at its last
    // frame: the final position, or the error diagram.
    const keep = state.frames.length > 0 && index === state.shownRecord;
    state.framesDoc = state.doc;
    state.shownRecord = index;
    if (answer.ok) {
      // The same record edited keeps the variation shown while it has one of that number.
      state.lines = [{ line: 0, frames: answer.frames }];
      state.linesNote = answer.note;
      for (const v of answer.variations) state.lines[v.line] = v;
      // A record whose moves cannot be judged (undecided) is drawn as written, with no stop at an
      // "illegal" move: the verdict says why nothing is judged.
      const r = state.records[index - 1];
      state.undecided = r?.status === 'undecided' ? r.problems.find((p) => p.kind === 'undecided')?.message || '' : null;
      if (state.undecided !== null) {
        for (const l of state.lines) if (l) l.frames = l.frames.filter((f) => !f.illegal);
      }
      if (!keep || !state.lines[state.line]) state.line = 0;
      state.frames = state.lines[state.line].frames;
      state.game = answer.game;
      $('board-title').textContent = `${answer.title} · record ${index}`;
      const last = state.frames.length - 1;
      if (!keep || state.frame > last) state.frame = last;
    } else {
      clearFrames();
      state.game = state.records[index - 1]?.game || null;
      $('board-title').textContent = 'Board';
      $('board').innerHTML = `<p class="muted">${escapeHtml(answer.message || 'No record to draw yet.')}</p>`;
    }
    const link = rulesLink(state.game);
    $('rules').hidden = !link;
    if (link) $('rules').href = link;
    showMoves();
    findRepairs();
  }
  if (frame?.illegal) {
    for (const line of state.lines) {
      const e = line ? line.frames.findIndex((f) => f.illegal && f.move?.from === frame.illegal.from) : -1;
      if (e >= 0) {
        showLine(line.line);
        state.frame = e;
        break;
      }
    }
  } else if (typeof frame === 'number') {
    showLine(0);
    state.frame = Math.max(0, Math.min(frame, state.frames.length - 1));
  }
  await showFrame();
}

// What the frame a line stops at stops on: a token that is no move at all, or an illegal move.
function stopWords(f) {
  return f.syntax ? 'not a move' : 'illegal move';
}

// The move number the record writes before the token at `at` (UTF-16 offset): the last `N.` or
// `N...` before it on its line or the lines just above, as the record numbers its turns; null
// when it writes none there.
function turnBefore(at) {
  const head = slice(Math.max(0, at - 2000), at);
  let turn = null;
  for (const m of head.matchAll(/(?:^|\s)(\d+)\.(?:\.\.)?(?=\s|$)/g)) turn = m[1];
  return turn;
}

function showMoves() {
  const list = $('moves');
  list.textContent = '';
  // Moves go under the record's own turn numbers (`1. c1d1 d3c3 2. …`), each number once.
  let shown = null;
  state.frames.forEach((f, k) => {
    if (!f.move) return;
    const li = document.createElement('li');
    li.dataset.frame = k;
    li.className = f.illegal ? 'illegal' : '';
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = slice(f.move.from, f.move.to);
    b.title = f.illegal ? stopWords(f) : `ply ${f.ply}`;
    b.addEventListener('click', () => go(k));
    const n = document.createElement('span');
    n.className = 'n';
    const turn = turnBefore(f.move.from);
    n.textContent = f.illegal ? '✗' : turn !== null && turn !== shown ? `${turn}.` : '';
    if (!f.illegal && turn !== null) shown = turn;
    li.append(n, b);
    list.append(li);
  });
}

// Shows frame `state.frame`: its caption, counter and move at once, its board and position code
// once the view engine has drawn them (unless another frame was asked for meanwhile).
async function showFrame() {
  const count = state.frames.length;
  const slider = $('slider');
  slider.max = Math.max(0, count - 1);
  slider.value = state.frame;
  slider.disabled = count < 2;
  for (const id of ['first', 'prev', 'next', 'last']) $(id).disabled = count < 2;
  const asked = ++state.asked;
  if (!count) {
    showNotes(null);
    $('caption').textContent = '';
    $('counter').textContent = '0 / 0';
    $('code').textContent = '';
    paintMarks();
    return;
  }
  const f = state.frames[state.frame];
  $('caption').textContent = state.undecided !== null ? `${f.caption}\nNot judged: ${state.undecided}` : f.caption;
  $('counter').textContent = f.illegal ? `ply ${f.ply} · ${stopWords(f)}` : `ply ${f.ply} / ${lastPly()}`;
  for (const li of $('moves').children) {
    const on = Number(li.dataset.frame) === state.frame;
    li.classList.toggle('current', on);
    if (on) li.scrollIntoView({ block: 'nearest' });
  }
  paintMarks();
  showNotes(f);
  // A variation's positions come with their codes; the main line's are asked for.
  const [drawn, code] = await Promise.all([
    engines.view.call('line_board', state.doc, state.record, state.line, state.frame, 480, false, dark()),
    state.line ? { ok: true, code: f.code } : view('position_code', state.doc, state.record, f.ply),
  ]);
  if (asked !== state.asked) return;
  $('board').innerHTML = drawn.out ?? `<p class="error">${escapeHtml(code.message || '')}</p>`;
  $('board').classList.toggle('illegal', f.illegal);
  $('code').textContent = code.ok ? code.code : '';
  stats.drawn += 1;
  await offerMoves(asked);
}

// ---- playing on the board ----

// The moves that may be played at the end of the record shown, fetched once per text and record:
// the board is playable at its last position (of the main line, before any illegal move).
async function offerMoves(asked) {
  state.path = [];
  const f = state.frames[state.frame];
  // Any position of the main line: at its end a move is added, earlier it is a variation.
  const here = state.line === 0 && f && !f.illegal;
  const key = { doc: state.doc, record: state.record, ply: f?.ply };
  if (here && state.undecided === null && !sameKey(state.nextFor, key)) {
    state.next = JSON.parse((await engines.view.call('next_moves', state.doc, state.record, f.ply)).out);
    state.nextFor = key;
    if (asked !== state.asked) return;
  }
  state.playable = here && state.undecided === null && state.nextFor === key && state.next?.ok && !state.next.illegal;
  $('board').classList.toggle('playable', Boolean(state.playable));
  showPlay();
}

// Marks the cells a legal move goes on from the cells pointed at so far, and lists the moves
// that name no more cells as buttons.
function showPlay(said = null) {
  const box = $('play');
  box.replaceChildren();
  for (const c of $('board').querySelectorAll('.target, .chosen')) c.classList.remove('target', 'chosen');
  showCursor();
  if (!state.playable) return;
  const n = state.next;
  if (!n.moves.length) {
    box.append(el('span', 'note', 'The game is over: no move is played after its end.'));
    return;
  }
  const path = state.path;
  const going = n.moves.filter((m) => path.every((c, i) => m.cells[i] === c));
  const cell = (label) => $('board').querySelector(`.cell[data-cell="${label}"]`);
  for (const c of path) cell(c)?.classList.add('chosen');
  for (const m of going) if (m.cells.length > path.length) cell(m.cells[path.length])?.classList.add('target');
  const done = going.filter((m) => m.cells.length === path.length);
  if (said) box.append(el('span', 'refused', said));
  // Once a cell is pointed at, the moves that go on from it are also named, as the game writes
  // them (the rings alone do not say what a further cell chooses: Splinter Quad's group kept).
  const offered = path.length && going.length <= 12 ? going : done;
  if (offered.length) {
    box.append(el('span', 'note', path.length ? 'Play:' : 'Or play:'));
    for (const m of offered) box.append(button(m.text, `play ${m.text}`, () => playMove(m.text)));
  }
  if (path.length) box.append(button('Cancel', 'point at another cell', () => { state.path = []; showPlay(); }));
}

// The cell nearest the cursor in direction (dx, dy) (on the board as drawn: a hex board's too),
// the first cell when there is no cursor yet.
function moveCursor(dx, dy) {
  const cells = [...$('board').querySelectorAll('.cell[data-cell]')].map((c) => {
    const b = c.getBBox();
    return { label: c.dataset.cell, x: b.x + b.width / 2, y: b.y + b.height / 2 };
  });
  const here = cells.find((c) => c.label === state.cursor);
  let next = here ? null : cells[0];
  if (here) {
    let best = Infinity;
    for (const c of cells) {
      const along = (c.x - here.x) * dx + (c.y - here.y) * dy;
      const across = Math.abs((c.x - here.x) * dy - (c.y - here.y) * dx);
      if (along <= 1) continue;
      const score = along + 2 * across;
      if (score < best) [best, next] = [score, c];
    }
  }
  if (next) state.cursor = next.label;
  showCursor();
}

// Rings the cell under the keyboard's cursor, and says it.
function showCursor() {
  for (const c of $('board').querySelectorAll('.cursor')) c.classList.remove('cursor');
  const cell = state.cursor && $('board').querySelector(`.cell[data-cell="${state.cursor}"]`);
  if (cell) cell.classList.add('cursor');
  $('board').setAttribute('aria-label', state.cursor ? `Board: cell ${state.cursor}` : 'Board');
}

// A cell pointed at on the board: the move it completes is played; else the cells it may go on to
// are marked, or why no legal move goes there is said.
function pointAt(label) {
  if (!state.playable) return;
  const moves = state.next.moves;
  const starts = (path) => moves.filter((m) => path.every((c, i) => m.cells[i] === c));
  let path = [...state.path, label];
  if (!starts(path).length && state.path.length) path = [label];
  const going = starts(path);
  if (!going.length) {
    const goesOn = state.path.length > 0;
    state.path = [];
    showPlay(`${label}: no legal move ${goesOn ? 'goes on' : 'starts'} there.`);
    return;
  }
  state.path = path;
  const done = going.filter((m) => m.cells.length === path.length);
  if (done.length === 1 && going.length === 1) {
    playMove(done[0].text);
    return;
  }
  showPlay();
}

// Plays `move` at the position shown: at the record's end it is written there, earlier as a
// variation after the move it replaces, in the record's own layout and numbering, as an edit
// (Ctrl+Z takes it back); the board then shows the record's end.
async function playMove(move) {
  const ply = state.frames[state.frame].ply;
  const asked = state.doc;
  const answer = JSON.parse((await engines.view.call('play_move', asked, state.record, ply, move)).out);
  if (!answer.ok) {
    state.path = [];
    showPlay(answer.message);
    return;
  }
  // The record's own move: step to it.
  if (answer.same) {
    go(state.frame + 1);
    return;
  }
  state.shownRecord = null;
  if (!makeEdit(answer.edit, asked)) {
    showPlay('The text changed there meanwhile: play the move again.');
    return;
  }
  await judge();
}

function lastPly() {
  const plain = state.frames.filter((f) => !f.illegal);
  return plain.length ? plain[plain.length - 1].ply : 0;
}

// Shows frame `frame` of line `line` (of the line shown, by default).
function go(frame, line = state.line) {
  showLine(line);
  if (!state.frames.length) return Promise.resolve();
  state.frame = Math.max(0, Math.min(frame, state.frames.length - 1));
  return showFrame();
}

// Back to the line the variation shown leaves, where it leaves it.
function leave() {
  const v = state.lines[state.line];
  return state.line ? go(v.at, v.from) : Promise.resolve();
}

// ---- what was said of the position shown, and the variations that branch there ----

function button(text, title, action) {
  const b = el('button', null, text);
  b.type = 'button';
  if (title) b.title = title;
  b.addEventListener('click', action);
  return b;
}

// An element `tag` of class `cls` (if any) holding `children`: elements, and strings as text.
function el(tag, cls, ...children) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...children);
  return e;
}

// A comment typed for move `ply` of the main line, written after it in the record's notation
// (Ctrl+Z takes it back).
function commentForm(ply) {
  const form = el('form', 'say');
  const input = el('input');
  input.type = 'text';
  input.id = 'comment';
  input.placeholder = 'A comment on this move';
  input.setAttribute('aria-label', 'A comment on this move');
  const add = el('button', null, 'Add comment');
  add.type = 'submit';
  const said = el('span', 'refused');
  form.append(input, add, said);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!input.value.trim()) return;
    const asked = state.doc;
    const answer = await view('comment_move', asked, state.record, ply, input.value);
    if (!answer.ok || !makeEdit(answer.edit, asked)) {
      said.textContent = answer.ok ? 'The text changed there meanwhile: add it again.' : answer.message;
      return;
    }
    await judge();
  });
  return form;
}

// Beside the board: the variation shown and the way back, the glyphs of the move that led to frame
// `f` and the comments said of it, and the variations that branch at it. The writer's text is
// set as text, never as markup.
function showNotes(f) {
  const box = $('notes');
  box.textContent = '';
  if (state.line > 0) box.append(pathOf(state.line));
  if (!f) return;
  if (state.linesNote && state.frame === 0 && state.line === 0) box.append(el('p', 'muted', `${state.linesNote}.`));
  for (const g of f.glyphs) box.append(el('p', 'glyph', el('b', null, g.glyph), g.meaning ? ` ${g.meaning}` : ''));
  for (const c of f.comments) box.append(el('div', 'comment', c));
  if (state.line === 0 && f.ply >= 1 && !f.illegal) box.append(commentForm(f.ply));
  if (f.illegal && state.line > 0) box.append(el('p', 'stop', `The variation stops at this ${f.syntax ? 'token, which is not a move' : 'illegal move'}.`));
  const here = state.lines.filter((v) => v && v.line > 0 && v.from === state.line && v.at === state.frame);
  if (here.length) {
    const next = state.frames[state.frame + 1]?.move;
    const instead = el('span', null, 'Instead of', ...(next ? [' ', el('code', null, slice(next.from, next.to))] : []), ':');
    const div = el('div', 'branches', instead);
    for (const v of here) {
      const b = button(v.name, 'Step into this variation', () => go(1, v.line));
      b.className = 'branch';
      b.dataset.line = v.line;
      div.append(' ', b);
    }
    box.append(div);
  }
}

// The variation `line`, the lines it lies in (each a button back to where the way leaves it) and
// a button back to the line it leaves.
function pathOf(line) {
  const nav = el('nav', 'path');
  nav.setAttribute('aria-label', 'Variation shown');
  const chain = [];
  for (let k = line; k !== 0; k = state.lines[k].from) chain.unshift(k);
  const crumb = (k, at) => {
    const b = button(k === 0 ? 'Main line' : state.lines[k].name, null, () => go(at, k));
    b.className = 'crumb';
    return b;
  };
  nav.append('Variation: ', crumb(0, state.lines[chain[0]].at));
  chain.forEach((k, i) => {
    nav.append(' › ');
    if (i === chain.length - 1) {
      nav.append(el('strong', null, state.lines[k].name));
    } else {
      nav.append(crumb(k, state.lines[chain[i + 1]].at));
    }
  });
  const from = state.lines[line].from;
  const back = button(`↩ Back to ${from === 0 ? 'the main line' : state.lines[from].name}`, 'Back to the line this variation leaves (Esc)', leave);
  back.className = 'back';
  back.id = 'back';
  nav.append(back);
  return nav;
}

// ---- repairs, searched in their own worker, ended when the text or the record changes ----

async function findRepairs() {
  const r = state.records[state.record - 1];
  const box = $('repairs');
  if (!r || !r.problems.some((p) => p.kind === 'illegal')) {
    if (engines.repairs.busy) engines.repairs.restart();
    box.innerHTML = '<p class="muted">A record with an illegal move gets its best repairs here.</p>';
    state.repairsFor = null;
    return;
  }
  const key = { doc: state.doc, record: state.record };
  if (sameKey(state.repairsFor, key)) return;
  state.repairsFor = key;
  // A search still running is for a text or a record no longer shown: stop it.
  if (engines.repairs.busy) engines.repairs.restart();
  // The search's bound is said, and it can be stopped: it may take seconds on a long record.
  const bound = (limits.repair_positions ?? 0).toLocaleString('en');
  const searching = el('p', 'muted searching', `Searching for repairs (at most ${bound} positions replayed)… `);
  searching.append(button('Stop', 'stop the search for repairs', () => {
    engines.repairs.restart();
    state.repairsFor = null;
    box.replaceChildren(el('p', 'muted', 'The search for repairs was stopped. Edit the record, or choose it again, to search again.'));
  }));
  box.replaceChildren(searching);
  const answer = await engines.repairs.call('repairs', state.doc, state.record);
  if (answer.cancelled || state.repairsFor !== key) return;
  if (answer.trap) {
    box.innerHTML = `<p class="error">${escapeHtml(trapWords('searching for repairs', answer.trap))}</p>`;
    return;
  }
  stats.repairMs = answer.ms;
  showRepairs(JSON.parse(answer.out), answer.ms, key.doc);
}

function editWords(e) {
  const at = place(e.at);
  switch (e.kind) {
    case 'replace': return e.from === e.to ? `${at} ${e.from} as written` : `${at} ${e.from} → ${e.to}`;
    case 'delete': return `${at} delete ${e.from}`;
    case 'insert': return e.at_end ? `${at} insert ${e.to} at the end` : `${at} insert ${e.to} before ${e.before}`;
    default: return `${at} ${e.kind} ${e.from} → ${e.to}`;
  }
}

// `asked`: the document the repairs are of.
function showRepairs(answer, ms, asked) {
  const box = $('repairs');
  box.textContent = '';
  if (!answer.ok || !answer.search) {
    box.innerHTML = `<p class="muted">${escapeHtml(answer.message || 'No repair was searched for this record.')}</p>`;
    return;
  }
  const s = answer.search;
  if (!s.candidates.length) {
    box.innerHTML = '<p class="muted">No repair found replays further.</p>';
  }
  const list = document.createElement('ol');
  list.className = 'repairs';
  for (const c of s.candidates) {
    const li = document.createElement('li');
    li.className = c.verifies ? 'verifies' : '';
    const edits = document.createElement('ul');
    edits.className = 'edits';
    for (const e of c.edits) {
      const ei = document.createElement('li');
      ei.textContent = editWords(e) + (e.expressible ? '' : ' (play that did not happen: the notation cannot write it)');
      edits.append(ei);
    }
    const result = document.createElement('p');
    result.className = 'result';
    result.textContent = c.replays_to_end
      ? `replays to the end (${c.moves} moves): ${c.score}`
      : `replays up to ${c.stops.token} at ${place(c.stops.at)}: ${c.stops.message}`;
    const facts = document.createElement('p');
    facts.className = 'facts';
    const parts = [];
    if (c.final_position) parts.push(`final diagram ${c.final_position}`);
    for (const k of c.claims) parts.push(`claim “${k.text}” ${k.status}`);
    parts.push(c.verifies ? 'the text then verifies as valid' : 'the text does not then verify as valid');
    facts.textContent = parts.join(' · ');
    // Only a repair whose text then verifies is offered: another would leave the record broken.
    if (c.verifies) {
      const apply = document.createElement('button');
      apply.type = 'button';
      apply.className = 'apply';
      apply.textContent = 'Apply';
      apply.addEventListener('click', () => {
        if (!makeEdit(c.edit, asked)) apply.replaceWith(el('span', 'refused', 'The text changed there: search again.'));
      });
      li.append(edits, result, facts, apply);
    } else {
      li.append(edits, result, facts, el('p', 'muted not-applied', 'Not offered: the text would not then verify as valid.'));
    }
    list.append(li);
  }
  box.append(list);
  const foot = document.createElement('p');
  foot.className = 'muted';
  foot.textContent = `Searched ${s.tried} candidates of up to ${s.depth} edits (${s.positions} tokens replayed) in ${(ms / 1000).toFixed(2)} s.`;
  box.append(foot);
}

// ---- downloads ----

function download(name, data, type) {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function baseName() {
  const f = state.frames[state.frame];
  const at = f ? `${state.line ? `-variation-${state.line}` : ''}-ply-${f.ply}${f.illegal ? '-illegal' : ''}` : '';
  return `${state.game || 'record'}-record-${state.record}${at}`;
}

async function converted() {
  const answer = await view('convert', state.doc, state.record);
  $('convert-note').textContent = answer.ok ? '' : `Cannot convert record ${state.record}: ${answer.message}`;
  return answer.ok ? answer : null;
}

async function fullSvg() {
  return (await engines.view.call('line_board', state.doc, state.record, state.line, state.frame, 640, true, false)).out || '';
}

function pngOf(svgText) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth * 2;
      canvas.height = img.naturalHeight * 2;
      const ctx = canvas.getContext('2d');
      ctx.scale(2, 2);
      ctx.drawImage(img, 0, 0);
      URL.revokeObjectURL(url);
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png');
    };
    img.onerror = () => reject(new Error('the SVG did not load'));
    img.src = url;
  });
}

function wireDownloads() {
  $('dl-canonical').addEventListener('click', async () => {
    const c = await converted();
    if (c) download(`${state.game}-record-${state.record}.txt`, c.canonical, 'text/plain');
  });
  $('dl-json').addEventListener('click', async () => {
    const c = await converted();
    if (c) download(`${state.game}-record-${state.record}.json`, c.json, 'application/json');
  });
  $('dl-code').addEventListener('click', () => {
    if ($('code').textContent) download(`${baseName()}.code.txt`, `${$('code').textContent}\n`, 'text/plain');
  });
  $('dl-svg').addEventListener('click', async () => {
    const svg = await fullSvg();
    if (svg) download(`${baseName()}.svg`, svg, 'image/svg+xml');
  });
  $('dl-png').addEventListener('click', async () => {
    const svg = await fullSvg();
    if (!svg) return;
    try {
      download(`${baseName()}.png`, await pngOf(svg));
    } catch (e) {
      $('convert-note').textContent = `No PNG: ${e.message}`;
    }
  });
}

// ---- wiring ----

// Whether a judgement of the editor's text is about to start.
let queued = false;

async function setText(text, { keepRecord = false, record = null, ply = null, line = null } = {}) {
  showNotice(null);
  state.quiet = true;
  editor.setText(text);
  state.quiet = false;
  if (!keepRecord) state.record = record || 1;
  clearFrames();
  state.shownRecord = null;
  if ((await judge()) && ply !== null) await go(ply, line ?? 0);
}

// An edit of an answer made in the editor (a move added, a comment, a repair's tokens: `{ from,
// to, inserted }`, offsets of the text it was asked about, which the editor holds still), so
// that undo and redo (Ctrl+Z, Ctrl+Shift+Z) take it back and again, and the rest of the text, the
// caret's place in it and its scroll stay.
// `doc` is the document it was asked about: an edit typed since is kept, and the answer's edit is
// moved past it, unless it touched the same place (then nothing is made, and false says so).
function makeEdit(edit, doc) {
  let { from, to } = edit;
  if (doc !== editor.doc) {
    const since = changesBetween(doc, editor.doc);
    if (!since || since.touchesRange(from, to)) return false;
    [from, to] = [since.mapPos(from, -1), since.mapPos(to, 1)];
  }
  editor.replace(from, to, edit.inserted);
  return true;
}

// A file opened or dropped: its text, unless it is larger than the page judges.
async function openFile(file) {
  if (!refuses(file.name, file.size)) await setText(await file.text());
}

// An edit of the editor's text, by the writer or by the page: judged at once (only the records
// it touched are judged again), unless the page judges the text itself (`state.quiet`).
function edited(update) {
  editLog.push({ before: update.startState.doc, after: update.state.doc, changes: update.changes });
  if (editLog.length > 100) editLog.shift();
  state.changes = state.changes ? state.changes.compose(update.changes) : update.changes;
  // A text pasted or dropped in is a new one: shown from its first record, at its end.
  if (update.pasted) state.fresh = true;
  if (state.notice === 'refusal' || state.notice === 'share') showNotice(null);
  if (state.quiet) return;
  // Judged once the edits of this task (a paste and its line breaks) are made, before the next
  // frame is drawn.
  if (!queued) {
    queued = true;
    queueMicrotask(() => {
      queued = false;
      judge();
    });
  }
}

function wire() {
  const box = $('editor');
  box.addEventListener('dragover', (e) => { e.preventDefault(); box.classList.add('drop'); });
  box.addEventListener('dragleave', () => box.classList.remove('drop'));
  box.addEventListener('drop', async (e) => {
    e.preventDefault();
    box.classList.remove('drop');
    const file = e.dataTransfer.files[0];
    if (file) openFile(file);
  });
  $('open').addEventListener('click', () => $('file').click());
  $('file').addEventListener('change', async () => {
    const file = $('file').files[0];
    if (file) openFile(file);
    $('file').value = '';
  });
  $('problems-only').addEventListener('change', (e) => {
    state.problemsOnly = e.target.checked;
    state.cards = 0;
    showVerdicts();
  });

  const menu = $('samples');
  for (const group of [...new Set(SAMPLES.map((s) => s.group))]) {
    const og = document.createElement('optgroup');
    og.label = group;
    SAMPLES.forEach((s, i) => {
      if (s.group !== group) return;
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = s.label;
      og.append(o);
    });
    menu.append(og);
  }
  menu.addEventListener('change', () => {
    if (menu.value !== '') setText(SAMPLES[Number(menu.value)].text);
  });

  $('share').addEventListener('click', async () => {
    const link = shareLink();
    const length = link.length.toLocaleString('en');
    if (link.length > LINK_OPENS) {
      showNotice(`This text makes a link of ${length} characters, more than a browser opens: share the file instead.`, 'share');
      return;
    }
    if (link.length > LINK_TRAVELS) {
      showNotice(`This link is ${length} characters long: mail and chat programs often cut links past a few thousand characters, so it may not open where you send it. A file travels whole.`, 'share');
    }
    history.replaceState(null, '', link);
    const field = $('share-link');
    field.value = link;
    field.hidden = false;
    field.select();
    try {
      await navigator.clipboard.writeText(link);
      $('share').textContent = 'Link copied';
    } catch {
      $('share').textContent = 'Link below';
    }
    setTimeout(() => { $('share').textContent = 'Share link'; }, 2000);
  });

  $('board').addEventListener('click', (e) => {
    const at = e.target.closest?.('[data-cell]');
    if (at) pointAt(at.dataset.cell);
  });
  // Played by keys too: with the board focused, the arrow keys move a cursor from cell to cell
  // and Enter (or Space) points at the cell under it, as a click does; Escape lets go.
  $('board').addEventListener('keydown', (e) => {
    if (!state.playable || e.altKey || e.ctrlKey || e.metaKey) return;
    const way = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (way) moveCursor(...way);
    else if ((e.key === 'Enter' || e.key === ' ') && state.cursor) pointAt(state.cursor);
    else if (e.key === 'Escape' && state.path.length) {
      state.path = [];
      showPlay();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  });
  $('first').addEventListener('click', () => go(0));
  $('prev').addEventListener('click', () => go(state.frame - 1));
  $('next').addEventListener('click', () => go(state.frame + 1));
  $('last').addEventListener('click', () => go(state.frames.length - 1));
  $('slider').addEventListener('input', () => go(Number($('slider').value)));
  document.addEventListener('keydown', (e) => {
    // Keys typed in the editor (CodeMirror's content is editable) or a text field are theirs.
    const typing = e.target.isContentEditable || e.target instanceof HTMLTextAreaElement
      || e.target instanceof HTMLInputElement && e.target.type !== 'range';
    if (typing || e.altKey || e.ctrlKey || e.metaKey) return;
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }[e.key];
    if (step !== undefined) {
      e.preventDefault();
      go(state.frame + step);
    } else if (e.key === 'Home') {
      e.preventDefault();
      go(0);
    } else if (e.key === 'End') {
      e.preventDefault();
      go(state.frames.length - 1);
    } else if (e.key === 'Escape' && state.line > 0) {
      e.preventDefault();
      leave();
    }
  });
  wireDownloads();
  window.addEventListener('hashchange', loadHash);
  // The index of the rules pages, when the build wrote them.
  if (RULES.includes('README')) {
    const a = document.createElement('a');
    a.href = 'rules/README.html';
    a.target = '_blank';
    a.textContent = 'Rules of the games';
    document.querySelector('.tools').append(a);
  }
}

function loadHash() {
  const h = readHash();
  if (!h) return false;
  if (h.error) {
    $('status').textContent = h.error;
    return true;
  }
  if (refuses("The link's text", utf8Length(h.text))) return false;
  setText(h.text, { record: h.record, ply: h.ply, line: h.line });
  return true;
}

// The theme: as the system says (`auto`), or always light or dark, chosen with the switch and kept
// in this browser. The board is drawn in referee's dark style when the page is dark.
const THEMES = ['auto', 'dark', 'light'];
function theme() {
  return document.documentElement.dataset.theme || 'auto';
}
function dark() {
  const t = theme();
  return t === 'dark' || (t === 'auto' && window.matchMedia('(prefers-color-scheme: dark)').matches);
}
// Printing: the record shown goes under its board, as written.
window.addEventListener('beforeprint', () => {
  const r = state.records[state.record - 1];
  $('print-record').textContent = r ? slice(r.at.from, r.at.to) : '';
});

function wireTheme() {
  const button = $('theme');
  const say = () => { button.textContent = `Theme: ${theme()}`; };
  say();
  button.addEventListener('click', () => {
    const next = THEMES[(THEMES.indexOf(theme()) + 1) % THEMES.length];
    if (next === 'auto') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = next;
    try {
      if (next === 'auto') localStorage.removeItem('referee-theme');
      else localStorage.setItem('referee-theme', next);
    } catch { /* a browser that keeps nothing still switches */ }
    say();
    showFrame();
  });
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (theme() === 'auto') showFrame();
  });
}

// New record: a record of any game of this build, board size and number of players, with no move
// yet, added at the end of the text (as an edit: Ctrl+Z takes it back) and shown.
function wireNewRecord() {
  const dialog = $('new-dialog');
  const game = $('new-game');
  const option = (value, text) => { const o = document.createElement('option'); o.value = value; o.textContent = text; return o; };
  game.replaceChildren(...state.games.map((g) => option(g.name, g.title)));
  const fill = () => {
    const g = state.games.find((x) => x.name === game.value);
    const sizes = [option(0, 'the game\'s default')];
    for (let n = g.sizes.smallest; n <= g.sizes.largest; n += g.sizes.step) sizes.push(option(n, String(n)));
    $('new-size').replaceChildren(...sizes);
    const players = [option(0, 'the game\'s default')];
    for (let n = g.players.fewest; n <= g.players.most && g.players.fewest !== g.players.most; n++) players.push(option(n, String(n)));
    $('new-players').replaceChildren(...players);
    $('new-players').disabled = players.length === 1;
    $('new-error').hidden = true;
  };
  game.addEventListener('change', fill);
  fill();
  const chosen = () => [game.value, Number($('new-size').value), Number($('new-players').value)];
  // The board editor follows the game, size and players chosen.
  for (const id of ['new-game', 'new-size', 'new-players']) $(id).addEventListener('change', () => { if ($('setup').open) loadSetup(...chosen()); });
  $('setup').addEventListener('toggle', () => { if ($('setup').open) loadSetup(...chosen()); });
  $('setup-code').addEventListener('change', typedCode);
  // Enter reads the code, and does not close the dialog.
  $('setup-code').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    typedCode();
  });
  $('new').addEventListener('click', () => dialog.showModal());
  $('new-create').addEventListener('click', async (e) => {
    e.preventDefault();
    const setUp = $('setup').open && state.setup;
    const answer = setUp ? await setupAnswer() : JSON.parse((await engines.view.call('new_record', ...chosen())).out);
    if (!answer.ok) {
      $('new-error').textContent = answer.message;
      $('new-error').hidden = false;
      return;
    }
    dialog.close();
    const text = editor.value;
    const before = text.trim() === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    // Shown once judged: the record after those of the text now.
    state.record = text.trim() === '' ? 1 : state.records.length + 1;
    editor.replace(text.length, text.length, before + answer.text);
    editor.select(editor.length);
  });
}

// ---- the board editor: a start position set up cell by cell ----

// The board to set up for `game` of `size` and `players`: its cells as the game's start shows
// them, and what a cell may show.
async function loadSetup(game, size, players) {
  const answer = JSON.parse((await engines.view.call('setup_board', game, size, players)).out);
  state.setup = answer.ok
    ? { cells: answer.cells, glyphs: answer.start.slice(), palette: answer.glyphs, chosen: answer.glyphs[1] ?? answer.glyphs[0], diagram: answer.diagram || '', code: null }
    : null;
  $('setup-why').hidden = answer.ok;
  $('setup-why').textContent = answer.ok ? '' : answer.message;
  drawSetup();
}

// The palette and the board: the start diagram's rows as the game draws them (a hex board's rows
// indented), each glyph a button as wide as its diagram column.
function drawSetup() {
  const s = state.setup;
  $('setup-palette').replaceChildren();
  $('setup-board').replaceChildren();
  if (!s) return;
  for (const g of s.palette) {
    const b = button(g, g === s.palette[0] ? 'an empty cell' : `place ${g}`, () => { s.chosen = g; drawSetup(); });
    b.setAttribute('aria-pressed', String(g === s.chosen));
    $('setup-palette').append(b);
  }
  let k = 0;
  for (const line of s.diagram.split('\n')) {
    const tokens = line.trim().split(/\s+/);
    if (tokens.length < 2 || !/^\d+\.?$/.test(tokens.at(-1))) continue;
    const row = el('span', 'row', line.match(/^ */)[0]);
    for (const _ of tokens.slice(0, -1)) {
      const at = k++;
      const glyph = () => s.glyphs[at];
      const b = button(glyph(), s.cells[at], () => {
        s.glyphs[at] = glyph() === s.chosen ? s.palette[0] : s.chosen;
        b.textContent = glyph();
        // The board as set up now: not the code typed before.
        s.code = null;
        checkSetup();
      });
      b.dataset.cell = s.cells[at];
      b.style.width = `${glyph().length + 1}ch`;
      row.append(b);
    }
    $('setup-board').append(row);
  }
  checkSetup();
}

// Says at once why the game cannot have the position set up, if it cannot, and gives its code.
async function checkSetup() {
  const s = state.setup;
  const answer = await setupAnswer();
  if (s !== state.setup) return;
  $('setup-why').hidden = answer.ok;
  $('setup-why').textContent = answer.ok ? '' : `Not a start of this game: ${answer.message}.`;
  if (answer.ok && s.code === null) {
    const code = await view('position_code', answer.text, 1, 0);
    if (s === state.setup && s.code === null) $('setup-code').value = code.ok ? code.code : '';
  }
}

// The record of the start set up: from its code when one was typed, else from its cells.
async function setupAnswer() {
  const s = state.setup;
  const game = $('new-game').value;
  if (s.code !== null) return JSON.parse((await engines.view.call('code_record', game, s.code)).out);
  return JSON.parse((await engines.view.call('setup_record', game, Number($('new-size').value), Number($('new-players').value), JSON.stringify(s.glyphs))).out);
}

// A position code typed: the board shows its position, and the record starts there (the side to
// move, marks and a turn under way, which the cells alone do not say).
async function typedCode() {
  const s = state.setup;
  if (!s) return;
  s.code = $('setup-code').value.trim();
  const answer = await setupAnswer();
  if (s !== state.setup) return;
  if (answer.ok && answer.cells.length === s.cells.length) {
    s.glyphs = answer.cells;
    const code = s.code;
    drawSetup();
    s.code = code;
  }
  $('setup-why').hidden = answer.ok;
  $('setup-why').textContent = answer.ok ? '' : `Not a position of this game: ${answer.message}.`;
}

// Names the games of this build in the tagline: a build with a game of its own adds it.
function nameGames(games) {
  const titles = games.map((g) => g.title);
  const list = titles.length > 1 ? `${titles.slice(0, -1).join(', ')} and ${titles.at(-1)}` : titles.join('');
  const tagline = document.querySelector('.tagline');
  tagline.textContent = tagline.textContent.replace(/^Replays records of [^:]*:/, `Replays records of ${list}:`);
}

async function main() {
  // Offline once opened (sw.js); a browser without service workers, or a page opened from a
  // file, works online all the same.
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('sw.js').catch(() => {});
  Engine.module = await compiled;
  limits = JSON.parse((await engines.view.call('limits')).out);
  state.games = JSON.parse((await engines.view.call('games')).out);
  nameGames(state.games);
  wireNewRecord();
  wireTheme();
  wire();
  document.body.dataset.ready = 'true';
  if (!loadHash()) await judge();
}

main().catch((e) => {
  $('status').textContent = `referee could not start: ${e.message}`;
  console.error(e);
});
