// <referee-board>: a record shown inside any page (a blog post, a rules page), with its board,
// stepping, the verdict and the comments said of each position. One script, from wherever the page
// is published:
//
//   <script type="module" src="https://HOST/referee/embed.js"></script>
//   <referee-board record='[Game "Quarod"]
//   [Size "4"]
//
//   1. c1d1 d3c3 *'></referee-board>
//   <referee-board src="games/club-night.txt" ply="12"></referee-board>
//
// The record is the `record` attribute, else the file `src` names (fetched, relative to the
// page), else the element's own text; `index` picks a record of a text of several (1 by
// default), `ply` the position shown first (the last by default), `theme="dark"` the dark board. referee runs in a worker made
// from the page's own build (worker.js and pkg/ beside this script), never on the host page's
// thread; a host on another origin needs the build served with CORS (GitHub Pages is).
const base = new URL('.', import.meta.url);

// One worker for every board of the page, started by the first.
let engine = null;
function call(op, ...args) {
  if (!engine) {
    // A worker script must be of the page's origin: a module of one line imports the build's.
    const source = `import ${JSON.stringify(new URL('worker.js', base).href)};`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), { type: 'module' });
    const pending = new Map();
    worker.onmessage = (e) => {
      pending.get(e.data.id)?.(e.data);
      pending.delete(e.data.id);
    };
    const module = WebAssembly.compileStreaming(fetch(new URL('pkg/referee_web_bg.wasm', base)));
    engine = { worker, pending, asked: 0, ready: module.then((m) => worker.postMessage({ module: m })) };
  }
  const id = ++engine.asked;
  return engine.ready.then(() => new Promise((resolve) => {
    engine.pending.set(id, resolve);
    engine.worker.postMessage({ id, op, args });
  }));
}

// The answer of `op`, parsed; a trap is said as a failure.
async function ask(op, ...args) {
  const answer = await call(op, ...args);
  if (answer.trap) return { ok: false, message: `referee stopped (${answer.trap})` };
  return op === 'board' ? answer.out : JSON.parse(answer.out);
}

const STATUS = { valid: 'valid', illegal: 'illegal move', refuted: 'claim refuted', syntax_error: 'syntax error', undecided: 'undecided' };

const STYLE = `
  :host { display: block; max-width: 32rem; margin: 1rem 0; font: 15px/1.4 system-ui, sans-serif; color: #1d1d1f; }
  .frame { border: 1px solid #d0d4da; border-radius: 8px; padding: 0.6rem; background: #fff; }
  .board svg { display: block; width: 100%; height: auto; }
  .controls { display: flex; align-items: center; gap: 0.3rem; margin-top: 0.3rem; }
  .controls button { min-width: 2.4rem; min-height: 2rem; font: inherit; }
  .counter { margin-left: auto; color: #5f6368; font-size: 0.9em; }
  .verdict { margin: 0.4rem 0 0; font-size: 0.92em; }
  .badge { display: inline-block; padding: 0 0.45rem; border-radius: 999px; color: #fff; background: #1f7a3a; font-size: 0.85em; }
  .badge.illegal, .badge.syntax_error { background: #b3261e; }
  .badge.refuted, .badge.undecided { background: #9a6200; }
  .comment { margin: 0.3rem 0 0; padding-left: 0.5rem; border-left: 3px solid #2457a6; white-space: pre-wrap; }
  .error { color: #b3261e; }
`;

class RefereeBoard extends HTMLElement {
  static observedAttributes = ['record', 'src', 'index', 'ply'];

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.shadowRoot.innerHTML = `<style>${STYLE}</style><div class="frame" part="frame">
      <div class="board" part="board" aria-live="polite"></div>
      <div class="controls" part="controls">
        <button type="button" data-go="first" title="Start" aria-label="Start">«</button>
        <button type="button" data-go="prev" title="Back" aria-label="Back">‹</button>
        <button type="button" data-go="next" title="Forward" aria-label="Forward">›</button>
        <button type="button" data-go="last" title="End" aria-label="End">»</button>
        <span class="counter"></span>
      </div>
      <p class="verdict" part="verdict"></p>
      <div class="comments" part="comments"></div>
    </div>`;
    this.frames = [];
    this.frame = 0;
    this.text = '';
    for (const b of this.shadowRoot.querySelectorAll('button')) {
      b.addEventListener('click', () => {
        const to = { first: 0, prev: this.frame - 1, next: this.frame + 1, last: this.frames.length - 1 }[b.dataset.go];
        this.show(to);
      });
    }
    this.addEventListener('keydown', (e) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
      if (step) {
        e.preventDefault();
        this.show(this.frame + step);
      }
    });
  }

  connectedCallback() {
    // Focusable, for its arrow keys (an element may not set its attributes as it is made).
    if (!this.hasAttribute('tabindex')) this.tabIndex = 0;
    this.load();
  }

  attributeChangedCallback() {
    if (this.isConnected) this.load();
  }

  // The record's text: the attribute, the file, or the element's own text.
  async source() {
    if (this.hasAttribute('record')) return this.getAttribute('record');
    const src = this.getAttribute('src');
    if (src) {
      const response = await fetch(new URL(src, document.baseURI));
      if (!response.ok) throw new Error(`${src}: ${response.status}`);
      return response.text();
    }
    return this.textContent.trim();
  }

  async load() {
    const asked = (this.asked = (this.asked ?? 0) + 1);
    const $ = (sel) => this.shadowRoot.querySelector(sel);
    let text;
    try {
      text = await this.source();
    } catch (e) {
      $('.board').innerHTML = `<p class="error">${escape(String(e.message || e))}</p>`;
      return;
    }
    const index = Number(this.getAttribute('index')) || 1;
    const [drawn, verdicts] = await Promise.all([ask('positions', text, index), ask('verify', text)]);
    if (asked !== this.asked) return;
    this.text = text;
    this.index = index;
    const verdict = verdicts.records?.[index - 1];
    const said = $('.verdict');
    said.replaceChildren();
    if (verdict) {
      const badge = document.createElement('span');
      badge.className = `badge ${verdict.status}`;
      badge.textContent = STATUS[verdict.status] || verdict.status;
      const problem = verdict.problems[0];
      said.append(badge, ` ${verdict.title || 'record'} · ${verdict.moves} move${verdict.moves === 1 ? '' : 's'}`,
        problem ? ` · ${problem.at.line}:${problem.at.column} ${problem.token ? `${problem.token}: ` : ''}${problem.message}` : '');
    }
    if (!drawn.ok) {
      this.frames = [];
      $('.board').innerHTML = `<p class="error">${escape(drawn.message || 'no record to draw')}</p>`;
      this.showControls();
      return;
    }
    this.frames = drawn.frames;
    const ply = this.getAttribute('ply');
    const at = ply === null ? this.frames.length - 1 : this.frames.findIndex((f) => f.ply === Number(ply) && !f.illegal);
    this.show(at < 0 ? this.frames.length - 1 : at);
  }

  async show(k) {
    if (!this.frames.length) return;
    this.frame = Math.max(0, Math.min(k, this.frames.length - 1));
    const asked = (this.drawing = (this.drawing ?? 0) + 1);
    const svg = await ask('board', this.text, this.index, this.frame, 480, true, this.getAttribute('theme') === 'dark');
    if (asked !== this.drawing) return;
    const $ = (sel) => this.shadowRoot.querySelector(sel);
    $('.board').innerHTML = svg;
    const f = this.frames[this.frame];
    $('.comments').replaceChildren(...f.comments.map((c) => {
      const p = document.createElement('p');
      p.className = 'comment';
      p.textContent = c;
      return p;
    }));
    this.showControls();
  }

  showControls() {
    const $ = (sel) => this.shadowRoot.querySelector(sel);
    const last = this.frames.length - 1;
    for (const b of this.shadowRoot.querySelectorAll('button')) {
      b.disabled = last < 0 || (['first', 'prev'].includes(b.dataset.go) ? this.frame <= 0 : this.frame >= last);
    }
    const f = this.frames[this.frame];
    $('.counter').textContent = f ? `ply ${f.ply}${f.illegal ? ' · illegal move' : ''}` : '';
  }
}

function escape(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

customElements.define('referee-board', RefereeBoard);
