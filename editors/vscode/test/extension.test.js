// The bundle as VS Code loads it (dist/extension.js, built by `npm run build`), against a stand-in
// for the `vscode` module: what a user sees when the executable is missing. The client itself is
// vscode-languageclient's; client.test.js drives the server as it does.

const test = require("node:test");
const assert = require("node:assert/strict");
const Module = require("module");
const path = require("path");

/** A stand-in for the parts of `vscode` the extension calls; anything else the bundle touches
 * while loading is an empty class. */
function standIn(settings) {
  const seen = { errors: [], commands: new Map(), executed: [], listeners: [] };
  const known = {
    workspace: {
      workspaceFolders: undefined,
      getConfiguration: () => ({ get: (name, fallback) => (name in settings ? settings[name] : fallback) }),
      onDidChangeConfiguration: (listener) => {
        seen.listeners.push(listener);
        return { dispose() {} };
      },
    },
    window: {
      showErrorMessage: async (message, ...items) => {
        seen.errors.push({ message, items });
        return items[0];
      },
    },
    commands: {
      registerCommand: (id, run) => {
        seen.commands.set(id, run);
        return { dispose() {} };
      },
      executeCommand: async (...args) => seen.executed.push(args),
    },
  };
  const vscode = new Proxy(known, { get: (target, name) => (name in target ? target[name] : class {}) });
  return { vscode, seen };
}

function load(vscode) {
  const bundle = path.join(__dirname, "..", "dist", "extension.js");
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request === "vscode" ? vscode : load.call(this, request, ...rest);
  };
  try {
    delete require.cache[bundle];
    return require(bundle);
  } finally {
    Module._load = load;
  }
}

test("a missing executable: one error that names it and the setting, a button to the setting, no client", async () => {
  const { vscode, seen } = standIn({ path: "/nonexistent/referee" });
  const extension = load(vscode);
  const context = { subscriptions: [] };
  await extension.activate(context);
  await new Promise((settle) => setImmediate(settle)); // the button's answer
  assert.equal(seen.errors.length, 1);
  assert.match(seen.errors[0].message, /no executable file \/nonexistent\/referee.*"referee\.path"/);
  assert.deepEqual(seen.errors[0].items, ["Open Settings"]);
  assert.deepEqual(seen.executed, [["workbench.action.openSettings", "referee.path"]]);
  assert.ok(seen.commands.has("referee.restart"));
  assert.equal(context.subscriptions.length, 2);
  await extension.deactivate();
});
