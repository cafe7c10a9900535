// Writes what the page takes from the repository at build time, into the dist folder given:
//   samples.js     the records of web/samples.json, embedded (the page fetches nothing else);
//   rules.js       the games whose rules page exists;
//   rules/*.html   docs/rules/<game>.md turned into HTML by the small Markdown reader below
//                  (headings with anchors, paragraphs, lists, tables, code, quotes, links,
//                  images); none yet is no error.
// Usage: node web/tools/site.mjs <repository> <dist>
import { readFileSync, writeFileSync, mkdirSync, readdirSync, existsSync, copyFileSync } from 'node:fs';
import { join, dirname, basename, resolve } from 'node:path';

const [root, dist] = process.argv.slice(2).map((p) => resolve(p));
if (!root || !dist) {
  console.error('usage: node site.mjs <repository> <dist>');
  process.exit(2);
}

// ---- samples ----
const list = JSON.parse(readFileSync(join(root, 'web', 'samples.json'), 'utf8'));
const samples = list.map((s) => ({ ...s, text: readFileSync(join(root, s.file), 'utf8') }));
writeFileSync(
  join(dist, 'samples.js'),
  `// Written by web/tools/site.mjs from web/samples.json: the records of the samples menu.\nexport const SAMPLES = ${JSON.stringify(samples, null, 1)};\n`,
);

// ---- rules ----
const rulesDir = join(root, 'docs', 'rules');
const pages = existsSync(rulesDir) ? readdirSync(rulesDir).filter((f) => f.endsWith('.md')).sort() : [];
const out = join(dist, 'rules');
mkdirSync(out, { recursive: true });
const games = [];
for (const page of pages) {
  const name = basename(page, '.md');
  const md = readFileSync(join(rulesDir, page), 'utf8');
  const { html, title } = markdown(md, (src) => asset(src, rulesDir, out), (info) => exampleBoard(info, name));
  const boards = html.includes('<referee-board') ? '<script type="module" src="../embed.js"></script>\n' : '';
  writeFileSync(join(out, `${name}.html`), document(title || name, boards + html));
  games.push(name);
}
// The grammar, which the rules pages link to for the notation.
if (existsSync(join(root, 'grammar.md'))) {
  const { html, title } = markdown(readFileSync(join(root, 'grammar.md'), 'utf8'), (src) => src);
  writeFileSync(join(dist, 'grammar.html'), document(title || 'grammar', html, ''));
}
writeFileSync(
  join(dist, 'rules.js'),
  `// Written by web/tools/site.mjs: the games with a rules page in rules/.\nexport const RULES = ${JSON.stringify(games)};\n`,
);
console.log(`site: ${samples.length} samples, ${games.length} rules pages${games.length ? ` (${games.join(', ')})` : ''}`);

// A worked example of the rules (docs/rules/README.md, "Worked examples") as a record to step
// through on the page (embed.js), when its setup gives one: moves from a board of a size, a
// position code of a game of the common format, or a sample record. Nothing for the others.
function exampleBoard(info, game) {
  const words = info.trim().split(/\s+/);
  if (words[0] !== 'text' || words[1] !== 'example') return '';
  const given = (k) => words.find((w) => w.startsWith(`${k}=`))?.slice(k.length + 1);
  const published = game.endsWith('phages');
  let record = null;
  if (given('record')) {
    record = readFileSync(join(root, given('record')), 'utf8');
  } else if (!published && given('moves') && !words.includes('setup')) {
    const moves = given('moves').split(',');
    const numbered = moves.map((m, k) => (k % 2 === 0 ? `${k / 2 + 1}. ${m}` : m)).join(' ');
    const players = given('players') ? `[Players "${given('players')}"]\n` : '';
    record = `[Game "${game}"]\n[Size "${given('size')}"]\n${players}\n${numbered} *\n`;
  } else if (!published && given('code')) {
    record = `[Game "${game}"]\n[Position "${given('code')}"]\n\n*\n`;
  }
  if (record === null) return '';
  const ply = given('moves') ? ` ply="${given('moves').split(',').length}"` : '';
  return `<referee-board record="${escape(record)}"${ply}></referee-board>`;
}

// An image the rules refer to, copied beside the pages; its new address.
function asset(src, from, to) {
  if (/^[a-z]+:/i.test(src) || src.startsWith('/')) return src;
  const file = resolve(from, src.split('#')[0]);
  if (!existsSync(file)) return src;
  mkdirSync(join(to, 'img'), { recursive: true });
  copyFileSync(file, join(to, 'img', basename(file)));
  return `img/${basename(file)}`;
}

// A page of the site; `up` leads from its folder to the site's root.
function document(title, body, up = '../') {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · referee</title>
<link rel="stylesheet" href="${up}style.css">
</head>
<body class="rules">
<p><a href="${up}index.html">← referee</a></p>
${body}
</body>
</html>
`;
}

function escape(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// Text of a line: HTML tags written in the Markdown pass through, any other `<` and `&` is escaped.
function escapeText(s) {
  return s
    .split(/(<\/?[A-Za-z][^<>]*>)/)
    .map((part, i) => (i % 2 ? part : part.replace(/&(?![a-zA-Z]+;|#\d+;)/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('');
}

function slug(s) {
  return s.toLowerCase().replace(/<[^>]*>/g, '').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');
}

// A link into another Markdown page of the rules points to its HTML page, and one into the
// grammar to grammar.html.
function href(url) {
  return url
    .replace(/^(?:\.\.\/)+grammar\.md(#.*)?$/, '../grammar.html$1')
    .replace(/^(?:\.\/)?(?:(?:\.\.\/)*docs\/rules\/)?([\w-]+)\.md(#.*)?$/, '$1.html$2');
}

function inline(text, image) {
  const codes = [];
  let s = text.replace(/`([^`]+)`/g, (_, c) => {
    codes.push(`<code>${escape(c)}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  s = escapeText(s);
  s = s.replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_, alt, src) => `<img src="${escape(image(src))}" alt="${alt}">`);
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, t, url) => `<a href="${escape(href(url))}">${t}</a>`);
  s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/__([^_]+)__/g, '<strong>$1</strong>');
  s = s.replace(/(^|[^\w*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>').replace(/(^|\W)_([^_\s][^_]*)_(?=\W|$)/g, '$1<em>$2</em>');
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
}

// `example(info)`: what to show after a fenced block whose info string is `info` (HTML).
function markdown(md, image, example = () => '') {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const html = [];
  const used = new Set();
  let title = null;
  let i = 0;
  const isBlockStart = (l) => /^(#{1,6}\s|```|~~~|>|\s*[-*+]\s|\s*\d+[.)]\s|\|)/.test(l) || /^\s*$/.test(l);
  while (i < lines.length) {
    const line = lines[i];
    let m;
    if (/^\s*$/.test(line)) {
      i++;
    } else if ((m = line.match(/^(```|~~~)(.*)$/))) {
      const fence = m[1];
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith(fence); i++) body.push(lines[i]);
      i++;
      html.push(`<pre><code>${escape(body.join('\n'))}</code></pre>`);
      const after = example(m[2]);
      if (after) html.push(after);
    } else if ((m = line.match(/^(#{1,6})\s+(.*?)\s*(?:\{#([\w-]+)\})?\s*#*\s*$/))) {
      const level = m[1].length;
      let id = m[3] || slug(m[2]);
      for (let n = 2; !m[3] && used.has(id); n++) id = `${slug(m[2])}-${n}`;
      used.add(id);
      if (level === 1 && title === null) title = m[2].replace(/[`*_]/g, '');
      html.push(`<h${level} id="${id}">${inline(m[2], image)} <a class="anchor" href="#${id}" aria-label="link to this section">#</a></h${level}>`);
      i++;
    } else if (line.startsWith('>')) {
      const body = [];
      for (; i < lines.length && lines[i].startsWith('>'); i++) body.push(lines[i].replace(/^>\s?/, ''));
      html.push(`<blockquote>${markdown(body.join('\n'), image).html}</blockquote>`);
    } else if (line.startsWith('|')) {
      const rows = [];
      for (; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
      const cells = (r) => r.replace(/^\||\|\s*$/g, '').split('|').map((c) => c.trim());
      const head = /^\|?\s*:?-+/.test(rows[1] || '') ? cells(rows.shift()) : null;
      if (head) rows.shift();
      let t = '<table>';
      if (head) t += `<thead><tr>${head.map((c) => `<th>${inline(c, image)}</th>`).join('')}</tr></thead>`;
      t += `<tbody>${rows.map((r) => `<tr>${cells(r).map((c) => `<td>${inline(c, image)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
      html.push(t);
    } else if ((m = line.match(/^(\s*)([-*+]|\d+[.)])\s+/))) {
      const ordered = /\d/.test(m[2]);
      const indent = m[1].length;
      const items = [];
      while (i < lines.length) {
        const l = lines[i];
        const item = l.match(/^(\s*)([-*+]|\d+[.)])\s+(.*)$/);
        if (item && item[1].length === indent) {
          items.push([item[3]]);
          i++;
        } else if (items.length && /^\s*$/.test(l) && i + 1 < lines.length && /^\s+\S/.test(lines[i + 1])) {
          items[items.length - 1].push('');
          i++;
        } else if (items.length && /^\s+\S/.test(l) && (l.match(/^\s*/)[0].length > indent)) {
          items[items.length - 1].push(l.slice(Math.min(indent + 2, l.match(/^\s*/)[0].length)));
          i++;
        } else {
          break;
        }
      }
      const tag = ordered ? 'ol' : 'ul';
      html.push(`<${tag}>${items.map((it) => {
        const sub = markdown(it.join('\n'), image).html;
        // A one-paragraph item is written without its <p>.
        return `<li>${sub.replace(/^<p>([\s\S]*?)<\/p>/, '$1')}</li>`;
      }).join('')}</${tag}>`);
    } else if (/^\s*<a id="[^"]*"><\/a>\s*$/.test(line)) {
      // An anchor on a line of its own, as the rules pages give each section: as it is.
      html.push(line.trim());
      i++;
    } else if (/^\s*<\/?[A-Za-z]/.test(line) && !/^\s*<\/?(a|span|code|em|strong|b|i)\b/i.test(line)) {
      // A block of HTML written in the Markdown: as it is, up to a blank line.
      const body = [];
      for (; i < lines.length && !/^\s*$/.test(lines[i]); i++) body.push(lines[i]);
      html.push(body.join('\n'));
    } else if (/^(-{3,}|\*{3,}|_{3,})\s*$/.test(line)) {
      html.push('<hr>');
      i++;
    } else {
      const body = [line];
      for (i++; i < lines.length && !isBlockStart(lines[i]); i++) body.push(lines[i]);
      html.push(`<p>${inline(body.join('\n'), image)}</p>`);
    }
  }
  return { html: html.join('\n'), title };
}
