// The real `referee lsp` spoken to as the extension speaks to it: vscode-languageclient's own
// protocol library over the process's pipes, with the initializationOptions and the
// configuration changes the extension sends (src/options.js). REFEREE names the executable
// (default: the repository's target/debug/referee).

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { spawn } = require("child_process");
const { pathToFileURL } = require("url");
const rpc = require("vscode-languageserver-protocol/node");
const options = require("../src/options");

const repository = path.join(__dirname, "..", "..", "..");
const referee = process.env.REFEREE || path.join(repository, "target", "debug", "referee");
const blogPage = path.join(repository, "samples", "quadraphages", "blog-page.txt");
const uri = pathToFileURL(blogPage).href;

/** A stand-in for VS Code's configuration of the `referee` section. */
function configuration(values) {
  return { get: (name, fallback) => (name in values ? values[name] : fallback) };
}

/** Starts `referee lsp` and initialises it as the extension does with these settings. */
async function start(settings) {
  assert.ok(fs.existsSync(referee), `no referee executable at ${referee}: build it (cargo build) or set REFEREE`);
  const child = spawn(referee, ["lsp"], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const connection = rpc.createProtocolConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin),
  );
  // Each publication of diagnostics for the page, in order, for `published` to wait on.
  const publications = [];
  let waiting = [];
  connection.onNotification(rpc.PublishDiagnosticsNotification.type, (params) => {
    if (params.uri !== uri) return;
    publications.push(params.diagnostics);
    waiting.forEach((wake) => wake());
    waiting = [];
  });
  connection.listen();
  const init = await connection.sendRequest(rpc.InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: options.initializationOptions(configuration(settings)),
  });
  assert.ok(init.capabilities.hoverProvider, JSON.stringify(init));
  await connection.sendNotification(rpc.InitializedNotification.type, {});
  let read = 0;
  // The next publication; a server that publishes nothing fails the test rather than hang it.
  const published = async () => {
    while (publications.length <= read) {
      let timer;
      const woken = new Promise((wake) => waiting.push(wake));
      const late = new Promise((_, fail) => {
        timer = setTimeout(() => fail(new Error("referee lsp published no diagnostics within 20 s")), 20000);
      });
      await Promise.race([woken, late]).finally(() => clearTimeout(timer));
    }
    return publications[read++];
  };
  const stop = async () => {
    await connection.sendRequest(rpc.ShutdownRequest.type);
    await connection.sendNotification(rpc.ExitNotification.type);
    assert.equal(await exited, 0, "referee lsp exits with 0 after shutdown and exit");
    connection.dispose();
  };
  // Whatever a test left running: the process is ended, so that a failure cannot hang the run.
  const end = () => {
    connection.dispose();
    if (child.exitCode === null) child.kill();
  };
  return { connection, published, stop, end };
}

async function openBlogPage(connection) {
  await connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "referee", version: 1, text: fs.readFileSync(blogPage, "utf8") },
  });
}

/** The severity of the diagnostic starting at line:character (both from 0), if any. */
function severityAt(diagnostics, line, character) {
  return diagnostics.find((d) => d.range.start.line === line && d.range.start.character === character)?.severity;
}

test("the blog page's illegal moves at 28:31 and 57:21, then lenient replay switched on", { timeout: 60000 }, async () => {
  const { connection, published, stop, end } = await start({});
  try {
    await openBlogPage(connection);
    const found = await published();
    // 28:31 and 57:21 as the editor counts (from 1): d2d5 in the Quadraphages game, d5l5 in the
    // Hexaphages one.
    const first = found.find((d) => d.range.start.line === 27 && d.range.start.character === 30);
    assert.ok(first, JSON.stringify(found));
    assert.equal(first.message, "no O stone on d2");
    assert.equal(first.severity, rpc.DiagnosticSeverity.Error);
    assert.deepEqual(first.range.end, { line: 27, character: 34 });
    assert.equal(severityAt(found, 56, 20), rpc.DiagnosticSeverity.Error, JSON.stringify(found));
    assert.ok(
      found.every((d) => d.severity === rpc.DiagnosticSeverity.Error),
      "strict replay stops at a record's first illegal move: no hints",
    );

    const hover = await connection.sendRequest(rpc.HoverRequest.type, { textDocument: { uri }, position: { line: 27, character: 31 } });
    assert.match(hover.contents.value, /no O stone on d2/);

    // The setting changed as the extension passes it on: the later illegal moves become hints.
    await connection.sendNotification(
      rpc.DidChangeConfigurationNotification.type,
      options.didChangeConfiguration(configuration({ lenient: true })),
    );
    const lenient = await published();
    assert.equal(severityAt(lenient, 27, 30), rpc.DiagnosticSeverity.Error, JSON.stringify(lenient));
    assert.equal(severityAt(lenient, 29, 3), rpc.DiagnosticSeverity.Hint, "i6i9, past the first: " + JSON.stringify(lenient));
    await stop();
  } finally {
    end();
  }
});

test("lenient replay from the start, through initializationOptions", { timeout: 60000 }, async () => {
  const { connection, published, stop, end } = await start({ lenient: true });
  try {
    await openBlogPage(connection);
    const found = await published();
    assert.equal(severityAt(found, 27, 30), rpc.DiagnosticSeverity.Error, JSON.stringify(found));
    assert.equal(severityAt(found, 29, 3), rpc.DiagnosticSeverity.Hint, JSON.stringify(found));
    assert.equal(severityAt(found, 56, 20), rpc.DiagnosticSeverity.Error, JSON.stringify(found));
    await stop();
  } finally {
    end();
  }
});
