// The TextMate grammar on the repository's samples: scopes of named tokens, lines counted from 1
// as the editor shows them.

const test = require("node:test");
const assert = require("node:assert/strict");
const { tokenize, tokenizeFile } = require("./tokens");

/** The token at the `nth` occurrence (from 1) of `text` on `line`, where `text` stands as a
 * word of its own (a letter or digit at its edge has none beside it). */
function at(lines, line, text, nth = 1) {
  const tokens = lines[line - 1];
  const source = tokens.map((t) => t.text).join("");
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const found = [...source.matchAll(new RegExp(`${/^[A-Za-z0-9]/.test(text) ? "(?<![A-Za-z0-9])" : ""}${escaped}${/[A-Za-z0-9]$/.test(text) ? "(?![A-Za-z0-9])" : ""}`, "g"))][nth - 1];
  assert.ok(found, `line ${line} has no occurrence ${nth} of ${text}: ${source}`);
  const token = tokens.find((t) => t.start <= found.index && found.index < t.start + t.text.length);
  return { text: token.text, scopes: token.scopes, column: found.index };
}

/** Asserts that `text` on `line` is one token, with `scope` among its scopes. */
function scoped(lines, line, text, scope, nth = 1) {
  const token = at(lines, line, text, nth);
  assert.equal(token.text, text, `line ${line}: ${text} is not one token: ${JSON.stringify(token)}`);
  assert.ok(token.scopes.includes(scope), `line ${line}: ${text} has ${token.scopes.join(" ")}, not ${scope}`);
}

/** Asserts that `piece` of the word `word` on `line` is one token, with `scope` among its scopes. */
function scopedIn(lines, line, word, piece, scope) {
  const column = at(lines, line, word).column + word.indexOf(piece);
  const token = lines[line - 1].find((t) => t.start === column);
  assert.ok(token && token.text === piece, `line ${line}: ${piece} of ${word} is not one token`);
  assert.ok(token.scopes.includes(scope), `line ${line}: ${piece} of ${word} has ${token.scopes.join(" ")}, not ${scope}`);
}

/** Asserts that `text` on `line` has no scope but the file's. */
function plain(lines, line, text) {
  const token = at(lines, line, text);
  assert.deepEqual(token.scopes, ["source.referee"], `line ${line}: ${text}`);
}

test("Quarod: tags, moves, board swaps, passes, the result, the final diagram", async () => {
  const l = await tokenizeFile("samples/quarod/random-size-4.txt");
  scoped(l, 1, "Game", "entity.name.tag.referee");
  scoped(l, 1, "[", "punctuation.definition.tag.begin.referee");
  scoped(l, 1, "Quarod", "string.quoted.double.referee");
  scoped(l, 4, "Result", "entity.name.tag.referee");
  scoped(l, 6, "1.", "constant.numeric.move-number.referee");
  scoped(l, 6, "c1d1", "keyword.other.move.referee");
  scopedIn(l, 6, "a3xa4", "a3", "keyword.other.move.referee");
  scopedIn(l, 6, "a3xa4", "x", "keyword.operator.capture.referee");
  scopedIn(l, 7, "b1xc1", "c1", "keyword.other.move.referee");
  scoped(l, 7, "pass", "keyword.other.move.pass.referee");
  scoped(l, 7, "0-1", "constant.language.result.referee");
  scoped(l, 9, "Final Position", "keyword.other.diagram-label.referee");
  scoped(l, 10, "a  b  c  d", "constant.other.letters.referee");
  scoped(l, 11, "Wv", "constant.language.piece.w.referee");
  scoped(l, 11, "B<", "constant.language.piece.b.referee");
  scoped(l, 11, "1", "constant.numeric.row.referee");
});

test("the blog page: titles, the start diagram, prose, headers, move lines, the claim, resignation", async () => {
  const l = await tokenizeFile("samples/quadraphages/blog-page.txt");
  scoped(l, 1, "QUADRAPHAGES", "entity.name.section.title.referee");
  scoped(l, 2, "Startup", "keyword.other.diagram-label.referee");
  scoped(l, 2, "a b c d e f g h i", "constant.other.letters.referee");
  scoped(l, 3, "O", "constant.language.piece.o.referee");
  scoped(l, 3, ".", "punctuation.definition.empty.referee");
  scoped(l, 5, "X", "constant.language.piece.x.referee");
  scoped(l, 9, "7", "constant.numeric.row.referee");
  // The rules between the diagram and the game are prose, though they hold numbers and letters.
  plain(l, 12, "In each turn a player (a) moves his stones rookwise, the previous # of cells;");
  plain(l, 13, "(b) announces a new number (between 1 and 8);");
  plain(l, 25, "Game Sample");
  scoped(l, 26, "_xx_", "entity.name.type.column.referee");
  scoped(l, 26, "_oo_", "entity.name.type.column.referee");
  scoped(l, 27, "1.", "constant.numeric.move-number.referee");
  scoped(l, 27, "....", "keyword.other.move.filler.referee");
  scoped(l, 27, "1", "constant.numeric.phase.referee", 2);
  scoped(l, 27, "a7a8", "keyword.other.move.stone.referee");
  scoped(l, 28, "d2d5", "keyword.other.move.stone.referee");
  scoped(l, 28, "2", "constant.numeric.phase.referee", 2);
  scoped(l, 29, "----", "keyword.other.move.stay.referee");
  scoped(l, 39, "and", "keyword.control.claim.referee");
  scoped(l, 39, "wins", "keyword.control.claim.referee");
  scoped(l, 39, "40-39", "constant.numeric.score.referee");
  scoped(l, 40, "Final Position", "keyword.other.diagram-label.referee");
  scoped(l, 41, "x", "constant.character.mark.x.referee");
  scoped(l, 41, "o", "constant.character.mark.o.referee");
  scoped(l, 53, "HEXAPHAGE", "entity.name.section.title.referee");
  // A header inside prose: the header is coloured, the prose is not.
  plain(l, 54, "========= (numbers up to 6) Rules as for quadraphage. ");
  scoped(l, 54, "_oo_", "entity.name.type.column.referee");
  scoped(l, 57, "g4m4", "keyword.other.move.stone.referee");
  scoped(l, 61, "resign", "keyword.control.resign.referee");
  scoped(l, 62, "abcdefghijklm", "constant.other.letters.referee");
  scoped(l, 64, "X", "constant.language.piece.x.referee");
  scoped(l, 70, "abcdefghijklm", "constant.other.letters.referee");
  plain(l, 72, "Post a Comment");
});

test("the designers' first game: a header with initials, lines numbered without a period, an unlabelled final diagram", async () => {
  const l = await tokenizeFile("samples/quadraphages/designers-game-1.txt");
  scoped(l, 1, "_Bo_", "entity.name.type.column.referee");
  scoped(l, 1, "_Jx_", "entity.name.type.column.referee");
  scoped(l, 2, "c1b1", "keyword.other.move.stone.referee");
  scoped(l, 11, "10", "constant.numeric.move-number.referee");
  scoped(l, 11, "3", "constant.numeric.phase.referee");
  scoped(l, 11, "f6f3", "keyword.other.move.stone.referee");
  scoped(l, 11, "----", "keyword.other.move.stay.referee");
  scoped(l, 13, "resign", "keyword.control.resign.referee");
  scoped(l, 16, "x", "constant.character.mark.x.referee");
  scoped(l, 18, "O", "constant.language.piece.o.referee");
  scoped(l, 16, "1", "constant.numeric.row.referee");
  scoped(l, 25, "a b c d e f g h i", "constant.other.letters.referee");
});

test("Petrify: placements, captures, the result, blocks", async () => {
  const l = await tokenizeFile("samples/petrify/random-size-6.txt");
  scoped(l, 1, "Petrify", "string.quoted.double.referee");
  scoped(l, 6, "b5", "keyword.other.move.referee");
  scopedIn(l, 7, "c5xb5", "x", "keyword.operator.capture.referee");
  scoped(l, 9, "pass", "keyword.other.move.pass.referee");
  scoped(l, 9, "0-1", "constant.language.result.referee");
  scoped(l, 14, "#", "constant.language.block.referee");
  scoped(l, 13, "O", "constant.language.piece.o.referee");
});

test("Vadrantir: placements on the hex board, the result, a hex diagram", async () => {
  const l = await tokenizeFile("samples/vadrantir/random-side-5.txt");
  scoped(l, 1, "Vadrantir", "string.quoted.double.referee");
  scoped(l, 6, "n2", "keyword.other.move.referee");
  scoped(l, 9, "28.", "constant.numeric.move-number.referee");
  scoped(l, 9, "1-0", "constant.language.result.referee");
  scoped(l, 12, "abcdefghijklmnopq", "constant.other.letters.referee");
  scoped(l, 13, "W", "constant.language.piece.w.referee");
  scoped(l, 17, "5", "constant.numeric.row.referee");
});

test("Splinter Quad: three players, moves to two-digit rows, a result of three places, pieces", async () => {
  const l = await tokenizeFile("samples/splinter/random-3-players.txt");
  scoped(l, 1, "Splinter Quad", "string.quoted.double.referee");
  scoped(l, 3, "Players", "entity.name.tag.referee");
  scoped(l, 8, "e9e10", "keyword.other.move.referee");
  scoped(l, 9, "0-0-1", "constant.language.result.referee");
  scoped(l, 16, "3B", "constant.language.piece.referee");
  scoped(l, 16, "..", "punctuation.definition.empty.referee");
  scoped(l, 25, "13", "constant.numeric.row.referee");
});

test("comments of the common format: braces over several lines, and ; to the end of the line", async () => {
  const l = await tokenize(
    ['[Game "Quarod"]', '[Size "4"]', "", "1. d1d2 a2a3 {engaged", "in a row} 2. c3d3 c1b1 ; a line comment", "3. c4d4 *"].join("\n"),
  );
  scoped(l, 4, "{", "punctuation.definition.comment.begin.referee");
  scoped(l, 4, "engaged", "comment.block.referee");
  scoped(l, 5, "in a row", "comment.block.referee");
  scoped(l, 5, "2.", "constant.numeric.move-number.referee");
  scoped(l, 5, "c1b1", "keyword.other.move.referee");
  scoped(l, 5, " a line comment", "comment.line.semicolon.referee");
  scoped(l, 6, "*", "constant.language.result.referee");
});

test("text that only looks like a record stays plain", async () => {
  const l = await tokenize(["1. e4 e5 2. Nf3 Nc6 1-0", "We met on 12 May; 3 games were played.", "a bad cat"].join("\n"));
  plain(l, 1, "1. e4 e5 2. Nf3 Nc6 1-0");
  plain(l, 2, "We met on 12 May; 3 games were played.");
  plain(l, 3, "a bad cat");
});

test("a byte-order mark at a line's start, as joined files have, changes nothing", async () => {
  const l = await tokenize(["QUADRAPHAGES", "\uFEFF[Game \"Petrify\"]", "\uFEFF1. b5 a5 1-0", "\uFEFFHEXAPHAGES"].join("\n"));
  scoped(l, 2, "Game", "entity.name.tag.referee");
  scoped(l, 3, "b5", "keyword.other.move.referee");
  scoped(l, 3, "1-0", "constant.language.result.referee");
  scoped(l, 4, "HEXAPHAGES", "entity.name.section.title.referee");
});
