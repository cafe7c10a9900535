// Tokenising files with the extension's TextMate grammar, as VS Code does (vscode-textmate on the
// Oniguruma regular expressions compiled to WebAssembly).

const fs = require("fs");
const path = require("path");
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const root = path.join(__dirname, "..");

let registry;
async function grammar() {
  if (!registry) {
    const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    registry = new textmate.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
        createOnigString: (s) => new oniguruma.OnigString(s),
      }),
      loadGrammar: async (scopeName) => {
        if (scopeName !== "source.referee") return null;
        const file = path.join(root, "syntaxes", "referee.tmLanguage.json");
        return textmate.parseRawGrammar(fs.readFileSync(file, "utf8"), file);
      },
    });
  }
  return registry.loadGrammar("source.referee");
}

/** The lines of `text` (split as VS Code splits them: LF, CRLF or CR), each a list of tokens
 * `{ text, start, scopes }`. */
async function tokenize(text) {
  const g = await grammar();
  let stack = textmate.INITIAL;
  return text.split(/\r\n|\r|\n/).map((line) => {
    const result = g.tokenizeLine(line, stack);
    stack = result.ruleStack;
    return result.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), start: t.startIndex, scopes: t.scopes }));
  });
}

/** The tokens of a file of the repository (a path from its root). */
async function tokenizeFile(file) {
  return tokenize(fs.readFileSync(path.join(root, "..", "..", file), "utf8"));
}

module.exports = { tokenize, tokenizeFile, root };
