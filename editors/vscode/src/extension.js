// The VS Code client of `referee lsp`: starts the server for documents of the language `referee`
// and passes it the `referee.lenient` setting; everything else the server does.

const path = require("path");
const vscode = require("vscode");
const { LanguageClient, DidChangeConfigurationNotification } = require("vscode-languageclient/node");
const options = require("./options");
const executable = require("./executable");

/** @type {LanguageClient | undefined} */
let client;

async function start() {
  const config = vscode.workspace.getConfiguration("referee");
  const command = config.get("path", "referee") || "referee";
  // A relative path with a directory part means the first workspace folder's.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const wanted = folder && !path.isAbsolute(command) && /[\\/]/.test(command) ? path.join(folder, command) : command;
  const found = executable.resolve(wanted);
  if (!found) {
    // Not awaited: the message stays until the user closes it, and activation should not wait.
    vscode.window.showErrorMessage(executable.missingMessage(command), "Open Settings").then((choice) => {
      if (choice === "Open Settings") {
        vscode.commands.executeCommand("workbench.action.openSettings", "referee.path");
      }
    });
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
