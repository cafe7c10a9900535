// What the extension tells the server, apart from VS Code: the test client sends the same.

/** The settings the server reads, from an object with `get(name, default)` (a VS Code
 * WorkspaceConfiguration of the `referee` section, or a stand-in). */
function settings(config) {
  return { lenient: config.get("lenient", false) === true };
}

/** `initializationOptions` of the initialize request: `{ "lenient": bool }`. */
function initializationOptions(config) {
  return settings(config);
}

/** The params of workspace/didChangeConfiguration: the section under its name, as editors send it. */
function didChangeConfiguration(config) {
  return { settings: { referee: settings(config) } };
}

module.exports = { initializationOptions, didChangeConfiguration };
