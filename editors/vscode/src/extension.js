// The VS Code client of `referee lsp`: starts the server for documents of the language `referee`
// and passes it the `referee.lenient` setting; everything else the server does.

const vscode = require("vscode");
const { LanguageClient, DidChangeConfigurationNotification } = require("vscode-languageclient/node");
const options = require("./options");
const executable = require("./executable");

/** @type {LanguageClient | undefined} */
let client;

/** An error about `referee.path`, with a button to the setting. Not awaited: the message stays until
 * the user closes it, and activation should not wait. */
function settingError(message) {
  vscode.window.showErrorMessage(message, "Open Settings").then((choice) => {
    if (choice === "Open Settings") {
      vscode.commands.executeCommand("workbench.action.openSettings", "referee.path");
    }
  });
}

async function start() {
  const config = vscode.workspace.getConfiguration("referee");
  // Only the user's value: see src/executable.js for why a workspace's is never run.
  const { command, ignored } = executable.chosen(config.inspect("path"));
  if (ignored !== undefined) {
    vscode.window.showWarningMessage(executable.ignoredMessage(ignored));
  }
  if (executable.isRelativePath(command)) {
    settingError(executable.relativeMessage(command));
    return;
  }
  const found = executable.resolve(command);
  if (!found) {
    settingError(executable.missingMessage(command));
    return;
  }
  client = new LanguageClient(
    "referee",
    "referee",
    { command: found, args: ["lsp"] },
    {
      documentSelector: [{ language: "referee" }],
      initializationOptions: options.initializationOptions(config),
    },
  );
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    vscode.window.showErrorMessage(`referee: \`${found} lsp\` did not start: ${error.message || error}`);
  }
}

async function stop() {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop().catch(() => undefined);
  }
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("referee.path")) {
        await stop();
        await start();
      } else if (event.affectsConfiguration("referee.lenient") && client) {
        const config = vscode.workspace.getConfiguration("referee");
        await client.sendNotification(DidChangeConfigurationNotification.type, options.didChangeConfiguration(config));
      }
    }),
    vscode.commands.registerCommand("referee.restart", async () => {
      await stop();
      await start();
    }),
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
