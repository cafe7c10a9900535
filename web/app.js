// The page: an editor whose records referee judges as they are typed, the board of any position
// of the selected record, its repairs, and its downloads. referee itself is the WebAssembly
// module in pkg/ (web/src/lib.rs): every answer comes from it as JSON.
import init, * as referee from './pkg/referee_web.js';
import { SAMPLES } from './samples.js';
import { RULES } from './rules.js';

const $ = (id) => document.getElementById(id);
const editor = $('text');
const mirror = $('mirror');

// What the page shows: the text judged, its verdicts, the record selected and its frames.
const state = {
  text: '',
  records: [],
  record: 1,
  frames: [],
  frame: 0,
  game: null,
  repairsFor: null,
};

// Figures the browser tests read: the last judging's time, how many were made, the last repair
// search's time; and `time(text, n)`, the fastest of n judgings of a text, in milliseconds.
const stats = {
  verifyMs: null,
  verifications: 0,
  repairMs: null,
  time(text, n = 5) {
    let best = Infinity;
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      referee.verify(text);
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  },
};
window.refereeStats = stats;

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
  return { text, ply: n('ply'), record: n('record') };
}

function shareLink() {
  let hash = `r=${encodeText(state.text)}`;
  if (state.record > 1) hash += `&record=${state.record}`;
  if (state.frames.length) hash += `&ply=${state.frame}`;
  return `${location.origin}${location.pathname}#${hash}`;
}

// ---- the editor's marks: problems underlined, the current move highlighted ----

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function paintMirror() {
  const text = editor.value;
  const marks = [];
  for (const r of state.records) {
    for (const p of r.problems) {
      // A problem with no token (a missing tag, the end of the text) is marked on one character.
      const to = Math.max(p.at.to, Math.min(p.at.from + 1, text.length));
      marks.push({ from: p.at.from, to, cls: `problem ${p.kind}`, title: `${p.at.line}:${p.at.column} ${p.message}` });
    }
  }
  const frame = state.frames[state.frame];
  if (frame && frame.move) {
    marks.push({ from: frame.move.from, to: frame.move.to, cls: frame.illegal ? 'current illegal' : 'current', title: '' });
  }
  marks.sort((a, b) => a.from - b.from || b.to - a.to);
  let html = '';
  let at = 0;
  for (const m of marks) {
    if (m.from < at) continue; // overlapping marks: the first one wins
    html += escapeHtml(text.slice(at, m.from));
    html += `<mark class="${m.cls}">${escapeHtml(text.slice(m.from, m.to))}</mark>`;
    at = m.to;
  }
  html += escapeHtml(text.slice(at));
  // A final line end needs something after it to take its height.
  mirror.innerHTML = html + '\n ';
  syncScroll();
}

function syncScroll() {
  mirror.scrollTop = editor.scrollTop;
  mirror.scrollLeft = editor.scrollLeft;
}

function selectInEditor(from, to) {
  editor.focus({ preventScroll: true });
  editor.setSelectionRange(from, to);
  scrollEditorTo(from);
}

// Scrolls the editor so that the line holding offset `from` is in view: lines are of one height.
function scrollEditorTo(from) {
  const line = editor.value.slice(0, from).split('\n').length - 1;
  const height = parseFloat(getComputedStyle(editor).lineHeight) || 18;
  const top = line * height;
  if (top < editor.scrollTop || top > editor.scrollTop + editor.clientHeight - 2 * height) {
    editor.scrollTop = Math.max(0, top - editor.clientHeight / 3);
  }
  syncScroll();
}

// ---- judging ----

const STATUS_WORDS = {
  valid: 'valid',
  illegal: 'illegal move',
  refuted: 'claim refuted',
  syntax_error: 'syntax error',
  undecided: 'undecided',
};

function judge() {
  const text = editor.value;
  if (state.fresh) {
    state.fresh = false;
    state.frames = [];
    state.record = 1;
  }
  state.text = text;
  const t0 = performance.now();
  const answer = JSON.parse(referee.verify(text));
  const ms = performance.now() - t0;
  stats.verifyMs = ms;
  stats.verifications += 1;
  state.records = answer.records;
  if (state.record > state.records.length) state.record = Math.max(1, state.records.length);
  const n = state.records.length;
  const bad = state.records.filter((r) => r.status !== 'valid').length;
  $('status').textContent = n === 0
    ? (text.trim() ? 'No record found in this text.' : 'No text yet.')
    : `${n} record${n === 1 ? '' : 's'}: ${n - bad} valid, ${bad} with a problem. Judged in ${ms.toFixed(1)} ms.`;
  showVerdicts();
  paintMirror();
  selectRecord(state.record, null);
}

function place(at) {
  return `${at.line}:${at.column}`;
}

function rulesLink(game) {
  if (!game || !RULES.includes(game)) return null;
  return `rules/${game}.html`;
}

function showVerdicts() {
  const box = $('verdicts');
  box.textContent = '';
  for (const r of state.records) {
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
        selectRecord(r.index, p.kind === 'illegal' && k === r.problems.findIndex((q) => q.kind === 'illegal') ? 'error' : null);
        selectInEditor(p.at.from, p.at.to);
      });
      li.append(where, ` ${p.kind}${p.token ? ' ' : ''}`);
      if (p.token) {
        const code = document.createElement('code');
        code.textContent = p.token;
        li.append(code);
      }
      li.append(`: ${p.message}`);
      if (p.rule) {
        // The section of the game's rules the move breaks.
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
      li.className = `claim ${c.status}`;
      li.textContent = `${place(c.at)} claim “${c.text}”: ${c.status}: ${c.detail}`;
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
    box.append(card);
  }
}

// ---- the board ----

// `frame`: a frame index, 'error' for the error diagram, or null to keep the frame shown (the
// last one for a record newly selected).
function selectRecord(index, frame) {
  const changed = index !== state.record || state.framesText !== state.text;
  state.record = index;
  for (const card of document.querySelectorAll('.verdict')) {
    card.classList.toggle('selected', Number(card.dataset.record) === index);
  }
  if (changed || state.frames.length === 0) {
    const answer = state.records.length ? JSON.parse(referee.positions(state.text, index)) : { ok: false, message: '' };
    // The same record edited keeps its frame; another record, or a new text, opens at its last
    // frame: the final position, or the error diagram.
    const keep = state.frames.length > 0 && index === state.shownRecord;
    state.framesText = state.text;
    state.shownRecord = index;
    if (answer.ok) {
      state.frames = answer.frames;
      state.game = answer.game;
      $('board-title').textContent = `${answer.title} · record ${index}`;
      const last = state.frames.length - 1;
      if (!keep || state.frame > last) state.frame = last;
    } else {
      state.frames = [];
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
  if (frame === 'error') {
    const e = state.frames.findIndex((f) => f.illegal);
    if (e >= 0) state.frame = e;
  } else if (typeof frame === 'number') {
    state.frame = Math.max(0, Math.min(frame, state.frames.length - 1));
  }
  showFrame();
}

function showMoves() {
  const list = $('moves');
  list.textContent = '';
  state.frames.forEach((f, k) => {
    if (!f.move) return;
    const li = document.createElement('li');
    li.dataset.frame = k;
    li.className = f.illegal ? 'illegal' : '';
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = state.text.slice(f.move.from, f.move.to);
    b.title = f.illegal ? 'the illegal move' : `ply ${f.ply}`;
    b.addEventListener('click', () => go(k));
    const n = document.createElement('span');
    n.className = 'n';
    n.textContent = f.illegal ? '✗' : `${f.ply}.`;
    li.append(n, b);
    list.append(li);
  });
}

function showFrame() {
  const count = state.frames.length;
  const slider = $('slider');
  slider.max = Math.max(0, count - 1);
  slider.value = state.frame;
  slider.disabled = count < 2;
  for (const id of ['first', 'prev', 'next', 'last']) $(id).disabled = count < 2;
  if (!count) {
    $('caption').textContent = '';
    $('counter').textContent = '0 / 0';
    $('code').textContent = '';
    paintMirror();
    return;
  }
  const f = state.frames[state.frame];
  $('board').innerHTML = referee.board(state.text, state.record, state.frame, 480, false);
  $('board').classList.toggle('illegal', f.illegal);
  $('caption').textContent = f.caption;
  $('counter').textContent = f.illegal ? `ply ${f.ply} · illegal move` : `ply ${f.ply} / ${lastPly()}`;
  for (const li of $('moves').children) {
    const on = Number(li.dataset.frame) === state.frame;
    li.classList.toggle('current', on);
    if (on) li.scrollIntoView({ block: 'nearest' });
  }
  const code = JSON.parse(referee.position_code(state.text, state.record, f.ply));
  $('code').textContent = code.ok ? code.code : '';
  paintMirror();
}

function lastPly() {
  const plain = state.frames.filter((f) => !f.illegal);
  return plain.length ? plain[plain.length - 1].ply : 0;
}

function go(frame) {
  if (!state.frames.length) return;
  state.frame = Math.max(0, Math.min(frame, state.frames.length - 1));
  showFrame();
}

// ---- repairs, searched in a worker so that typing never waits for them ----

let worker = null;
let asked = 0;

function findRepairs() {
  const r = state.records[state.record - 1];
  const box = $('repairs');
  if (!r || !r.problems.some((p) => p.kind === 'illegal')) {
    if (worker) { worker.terminate(); worker = null; }
    box.innerHTML = '<p class="muted">A record with an illegal move gets its best repairs here.</p>';
    state.repairsFor = null;
    return;
  }
  const key = `${state.record}\u0000${state.text}`;
  if (state.repairsFor === key) return;
  state.repairsFor = key;
  // A search still running is for a text that has changed: stop it.
  if (worker) worker.terminate();
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const id = ++asked;
  box.innerHTML = '<p class="muted searching">Searching for repairs…</p>';
  worker.onmessage = (e) => {
    if (e.data.id !== id) return;
    stats.repairMs = e.data.ms;
    showRepairs(JSON.parse(e.data.out), e.data.ms);
    worker.terminate();
    worker = null;
  };
  worker.onerror = (e) => {
    box.innerHTML = `<p class="error">The repair search failed: ${escapeHtml(e.message || 'unknown error')}</p>`;
  };
  worker.postMessage({ id, text: state.text, index: state.record });
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

function showRepairs(answer, ms) {
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
    const apply = document.createElement('button');
    apply.type = 'button';
    apply.className = 'apply';
    apply.textContent = 'Apply';
    apply.addEventListener('click', () => setText(c.text, { keepRecord: true }));
    li.append(edits, result, facts, apply);
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
  const at = f ? `-ply-${f.ply}${f.illegal ? '-illegal' : ''}` : '';
  return `${state.game || 'record'}-record-${state.record}${at}`;
}

function converted() {
  const answer = JSON.parse(referee.convert(state.text, state.record));
  $('convert-note').textContent = answer.ok ? '' : `Cannot convert record ${state.record}: ${answer.message}`;
  return answer.ok ? answer : null;
}

function fullSvg() {
  return referee.board(state.text, state.record, state.frame, 640, true);
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
  $('dl-canonical').addEventListener('click', () => {
    const c = converted();
    if (c) download(`${state.game}-record-${state.record}.txt`, c.canonical, 'text/plain');
  });
  $('dl-json').addEventListener('click', () => {
    const c = converted();
    if (c) download(`${state.game}-record-${state.record}.json`, c.json, 'application/json');
  });
  $('dl-code').addEventListener('click', () => {
    if ($('code').textContent) download(`${baseName()}.code.txt`, `${$('code').textContent}\n`, 'text/plain');
  });
  $('dl-svg').addEventListener('click', () => {
    const svg = fullSvg();
    if (svg) download(`${baseName()}.svg`, svg, 'image/svg+xml');
  });
  $('dl-png').addEventListener('click', async () => {
    const svg = fullSvg();
    if (!svg) return;
    try {
      download(`${baseName()}.png`, await pngOf(svg));
    } catch (e) {
      $('convert-note').textContent = `No PNG: ${e.message}`;
    }
  });
}

// ---- wiring ----

let timer = null;

function setText(text, { keepRecord = false, record = null, ply = null } = {}) {
  editor.value = text;
  editor.scrollTop = 0;
  if (!keepRecord) state.record = record || 1;
  state.frames = [];
  state.shownRecord = null;
  judge();
  if (ply !== null) go(ply);
}

function wire() {
  editor.addEventListener('input', (e) => {
    // A text pasted or dropped in is a new one: shown from its first record, at its end.
    if (e.inputType === 'insertFromPaste' || e.inputType === 'insertFromDrop') state.fresh = true;
    paintMirror();
    clearTimeout(timer);
    timer = setTimeout(judge, 300);
  });
  editor.addEventListener('scroll', syncScroll);
  // The record under the caret is the one shown.
  editor.addEventListener('click', () => {
    const at = editor.selectionStart;
    const r = state.records.find((x) => x.at.from <= at && at <= x.at.to);
    if (r && r.index !== state.record) selectRecord(r.index, null);
  });

  const box = $('editor');
  box.addEventListener('dragover', (e) => { e.preventDefault(); box.classList.add('drop'); });
  box.addEventListener('dragleave', () => box.classList.remove('drop'));
  box.addEventListener('drop', async (e) => {
    e.preventDefault();
    box.classList.remove('drop');
    const file = e.dataTransfer.files[0];
    if (file) setText(await file.text());
  });
  $('open').addEventListener('click', () => $('file').click());
  $('file').addEventListener('change', async () => {
    const file = $('file').files[0];
    if (file) setText(await file.text());
    $('file').value = '';
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

  $('first').addEventListener('click', () => go(0));
  $('prev').addEventListener('click', () => go(state.frame - 1));
  $('next').addEventListener('click', () => go(state.frame + 1));
  $('last').addEventListener('click', () => go(state.frames.length - 1));
  $('slider').addEventListener('input', () => go(Number($('slider').value)));
  document.addEventListener('keydown', (e) => {
    const typing = e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement && e.target.type !== 'range';
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
  setText(h.text, { record: h.record, ply: h.ply });
  return true;
}

async function main() {
  await init();
  wire();
  if (!loadHash()) judge();
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  $('status').textContent = `referee could not start: ${e.message}`;
  console.error(e);
});
