// What the manifest promises: which files are records (firstLine), the language configuration,
// that only the user chooses the executable, and finding it.

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const os = require("os");
const path = require("path");
const manifest = require("../package.json");
const executable = require("../src/executable");

const root = path.join(__dirname, "..");
const samples = path.join(root, "..", "..", "samples");
const language = manifest.contributes.languages[0];

function files(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

test("the first line of every sample that opens with its record picks the language", () => {
  const firstLine = new RegExp(language.firstLine);
  const missed = files(samples)
    .filter((file) => !firstLine.test(fs.readFileSync(file, "utf8").split(/\r\n|\r|\n/)[0]))
    .map((file) => path.relative(samples, file));
  // These open with a diagram's letters or with prose: "Change Language Mode" or files.associations.
  assert.deepEqual(missed.sort(), [
    "hexaphages/designers-game-side5.txt",
    "mixed/newsletter-crlf-bom.txt",
    "mixed/old-mac-cr.txt",
  ]);
});

test("the first line of a chess game, or of prose, does not", () => {
  const firstLine = new RegExp(language.firstLine);
  for (const line of ['[Event "F/S Return Match"]', "1. e4 e5 2. Nf3 Nc6", "Quadraphages is a game for two", "# Notes"]) {
    assert.equal(firstLine.test(line), false, line);
  }
  for (const line of ['[Game "Splinter Quad"]', '[Event "Club night"] [Game "Quarod"]', "quadraphage", "Startup: quadraphages_9/9"]) {
    assert.equal(firstLine.test(line), true, line);
  }
});

test("the manifest's files exist, and .txt and .pgn are not claimed", () => {
  assert.ok(fs.existsSync(path.join(root, language.configuration)));
  assert.ok(fs.existsSync(path.join(root, manifest.contributes.grammars[0].path)));
  assert.deepEqual(language.extensions, [".record"]);
  assert.deepEqual(manifest.activationEvents, ["onLanguage:referee"]);
  assert.equal(manifest.contributes.configuration.properties["referee.path"].default, "referee");
  assert.equal(manifest.contributes.configuration.properties["referee.lenient"].default, false);
});

test("comments and words as grammar.md writes them", () => {
  const config = JSON.parse(fs.readFileSync(path.join(root, language.configuration), "utf8"));
  assert.deepEqual(config.comments, { lineComment: ";", blockComment: ["{", "}"] });
  // A word is a whole token, so completion replaces the move at the cursor whole.
  const word = new RegExp(config.wordPattern, "g");
  const words = "1. d4e5/f7 a3xa4 ---- .... 0-0-1 e9e10 pass".match(word);
  assert.deepEqual(words, ["1", "d4e5/f7", "a3xa4", "----", "....", "0-0-1", "e9e10", "pass"]);
});

test("the executable is found on PATH or at its path, and a missing one is named", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "referee-path-"));
  try {
    const program = path.join(dir, "referee");
    fs.writeFileSync(program, "#!/bin/sh\n", { mode: 0o755 });
    fs.writeFileSync(path.join(dir, "not-executable"), "", { mode: 0o644 });
    const env = { PATH: ["/nonexistent", dir].join(path.delimiter) };
    assert.equal(executable.resolve("referee", env, "linux"), program);
    assert.equal(executable.resolve(program, {}, "linux"), program);
    assert.equal(executable.resolve("not-executable", env, "linux"), undefined);
    assert.equal(executable.resolve("referee", { PATH: "/nonexistent" }, "linux"), undefined);
    assert.match(executable.missingMessage("referee"), /no `referee` on PATH.*"referee\.path"/);
    assert.match(executable.missingMessage("/opt/referee"), /no executable file \/opt\/referee/);
  } finally {
    fs.rmSync(dir, { recursive: true });
  }
});

test("referee.path is the user's alone: machine-scoped, and restricted in untrusted workspaces", () => {
  const setting = manifest.contributes.configuration.properties["referee.path"];
  // "machine": only user (or remote machine) settings may set it; a folder's settings.json cannot.
  assert.equal(setting.scope, "machine");
  const untrusted = manifest.capabilities.untrustedWorkspaces;
  assert.equal(untrusted.supported, "limited");
  assert.deepEqual(untrusted.restrictedConfigurations, ["referee.path"]);
  assert.match(untrusted.description, /referee\.path.*never taken from a folder's settings/);
  // referee.lenient changes only how records are judged: a folder may set it.
  assert.equal(manifest.contributes.configuration.properties["referee.lenient"].scope, undefined);
});

test("the command is the user's value or the default; a workspace's value is only reported as ignored", () => {
  const defaultValue = "referee";
  assert.deepEqual(executable.chosen({ defaultValue }), { command: "referee", ignored: undefined });
  assert.deepEqual(executable.chosen({ defaultValue, globalValue: "/opt/referee" }), { command: "/opt/referee", ignored: undefined });
  assert.deepEqual(executable.chosen({ defaultValue, workspaceValue: "./tools/referee" }), {
    command: "referee",
    ignored: "./tools/referee",
  });
  assert.deepEqual(executable.chosen({ defaultValue, globalValue: "/opt/referee", workspaceFolderValue: "/srv/x/referee" }), {
    command: "/opt/referee",
    ignored: "/srv/x/referee",
  });
  // A workspace that says what the user says changes nothing, so there is nothing to report.
  assert.deepEqual(executable.chosen({ defaultValue, globalValue: "/opt/referee", workspaceValue: "/opt/referee" }), {
    command: "/opt/referee",
    ignored: undefined,
  });
  // An empty user value, and no inspection at all (a setting VS Code does not know), mean the default.
  assert.equal(executable.chosen({ defaultValue, globalValue: "" }).command, "referee");
  assert.equal(executable.chosen(undefined).command, "referee");
});

test("a relative path is one with a directory part that is not absolute; a bare name is not one", () => {
  for (const command of ["./tools/referee", "tools/referee", "../referee", "~/bin/referee"]) {
    assert.equal(executable.isRelativePath(command, "linux"), true, command);
  }
  for (const command of ["referee", "/usr/local/bin/referee", "referee.exe"]) {
    assert.equal(executable.isRelativePath(command, "linux"), false, command);
  }
  for (const command of ["tools\\referee.exe", ".\\referee.exe", "tools/referee"]) {
    assert.equal(executable.isRelativePath(command, "win32"), true, command);
  }
  for (const command of ["C:\\Tools\\referee.exe", "\\\\server\\share\\referee.exe", "referee"]) {
    assert.equal(executable.isRelativePath(command, "win32"), false, command);
  }
  assert.match(executable.relativeMessage("./tools/referee"), /relative path \.\/tools\/referee, which is not started.*full path/);
});
