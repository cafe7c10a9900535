// The bundle as VS Code loads it (dist/extension.js, built by `npm run build`), against a stand-in
// for the `vscode` module: what a user sees when the executable is missing. The client itself is
// vscode-languageclient's; client.test.js drives the server as it does.

const test = require("node:test");
const assert = require("node:assert/strict");
const Module = require("module");
const fs = require("fs");
const os = require("os");
const path = require("path");
const executable = require("../src/executable");

const manifest = require("../package.json");

/** A stand-in for the parts of `vscode` the extension calls; anything else the bundle touches
 * while loading is an empty class. `user` and `workspace` are the `referee` section's values in
 * the user's and the workspace's settings. `get` lets the workspace's win, as VS Code does for a
 * setting a workspace may set, and as an older VS Code might even for a machine-scoped one: the
 * extension must read `inspect` to keep to the user's. */
function standIn({ user = {}, workspace = {}, folders = undefined } = {}) {
  const seen = { errors: [], warnings: [], commands: new Map(), executed: [], listeners: [] };
  const defaults = (name) => manifest.contributes.configuration.properties[`referee.${name}`]?.default;
  const known = {
    workspace: {
      workspaceFolders: folders?.map((folder) => ({ uri: { fsPath: folder } })),
      getConfiguration: () => ({
        get: (name, fallback) => workspace[name] ?? user[name] ?? fallback,
        inspect: (name) => ({
          key: `referee.${name}`,
          defaultValue: defaults(name),
          globalValue: user[name],
          workspaceValue: workspace[name],
        }),
      }),
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
      showWarningMessage: async (message, ...items) => {
        seen.warnings.push({ message, items });
        return undefined;
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
  const { vscode, seen } = standIn({ user: { path: "/nonexistent/referee" } });
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

/** Activates the extension with these settings, and lets the error's button answer. */
async function activated(settings) {
  const { vscode, seen } = standIn(settings);
  const extension = load(vscode);
  await extension.activate({ subscriptions: [] });
  await new Promise((settle) => setImmediate(settle));
  await extension.deactivate();
  return seen;
}

/** A folder that ships its own `tools/referee`, a program that leaves a file `ran` beside it when
 * it runs; and PATH and the working directory set so that nothing else is found, the working
 * directory being the folder (where a relative path would find the program). */
async function inFolderWithItsOwnProgram(run) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "referee-folder-"));
  const program = path.join(folder, "tools", "referee");
  fs.mkdirSync(path.dirname(program));
  fs.writeFileSync(program, '#!/bin/sh\ntouch "$(dirname "$0")/ran"\n', { mode: 0o755 });
  const saved = { PATH: process.env.PATH, cwd: process.cwd() };
  process.env.PATH = path.join(folder, "nothing-here");
  process.chdir(folder);
  try {
    // Were it chosen, the folder's program would be found and started.
    assert.equal(executable.resolve(program), program);
    await run({ folder, program });
    assert.equal(fs.existsSync(path.join(folder, "tools", "ran")), false, "the folder's program ran");
  } finally {
    process.chdir(saved.cwd);
    process.env.PATH = saved.PATH;
    fs.rmSync(folder, { recursive: true });
  }
}

test("a workspace's referee.path is ignored: the default is looked up on PATH, and the user is told why", async () => {
  await inFolderWithItsOwnProgram(async ({ folder, program }) => {
    for (const value of ["./tools/referee", program]) {
      const seen = await activated({ workspace: { path: value }, folders: [folder] });
      assert.equal(seen.errors.length, 1, value);
      assert.match(seen.errors[0].message, /no `referee` on PATH/);
      assert.equal(seen.warnings.length, 1, value);
      assert.equal(seen.warnings[0].message, `referee: this workspace sets "referee.path" to ${value}, which is ignored: only your user settings choose the program the extension starts.`);
    }
  });
});

test("the user's referee.path is the one taken, whatever the workspace says", async () => {
  await inFolderWithItsOwnProgram(async ({ folder, program }) => {
    const seen = await activated({ user: { path: "/nonexistent/user-referee" }, workspace: { path: program }, folders: [folder] });
    assert.equal(seen.errors.length, 1);
    assert.match(seen.errors[0].message, /no executable file \/nonexistent\/user-referee/);
    assert.match(seen.warnings[0].message, /sets "referee\.path" to .*tools\/referee, which is ignored/);
  });
});

test("a relative referee.path is refused, not taken from the workspace folder or the working directory", async () => {
  await inFolderWithItsOwnProgram(async ({ folder }) => {
    for (const value of ["./tools/referee", "tools/referee"]) {
      const seen = await activated({ user: { path: value }, folders: [folder] });
      assert.deepEqual(seen.warnings, []);
      assert.equal(seen.errors.length, 1, value);
      assert.equal(
        seen.errors[0].message,
        `referee: "referee.path" is the relative path ${value}, which is not started: a relative path would name a different program in every folder. Set it to the executable's full path, or to a name found on PATH.`,
      );
      assert.deepEqual(seen.errors[0].items, ["Open Settings"]);
      assert.deepEqual(seen.executed, [["workbench.action.openSettings", "referee.path"]]);
    }
  });
});
