// Which program `referee.path` names, and finding it before starting it, so that a missing
// executable gets a message that says what to do, not the client library's "spawn referee ENOENT".
//
// The extension runs only a program the user chose: a folder's `.vscode/settings.json` travels
// with the folder, and a path there (`./tools/referee`) would start a program the folder ships.
// So the setting is machine-scoped in the manifest and restricted in untrusted workspaces, and
// `chosen` below reads only the user's value, whatever an older VS Code lets a workspace set.

const fs = require("fs");
const path = require("path");

/** The command `referee.path` names, from `config.inspect("path")`: the user's (global) value, else
 * the default, else `referee`. A value of the workspace or of a workspace folder is never taken;
 * `ignored` is that value, when there is one, so the user can be told why it has no effect. */
function chosen(inspected = {}) {
  const command = inspected.globalValue || inspected.defaultValue || "referee";
  const ignored = inspected.workspaceFolderValue ?? inspected.workspaceValue;
  return { command, ignored: ignored !== undefined && ignored !== command ? ignored : undefined };
}

/** Whether `command` is a relative path: a directory part that is not absolute (`./tools/referee`,
 * `tools/referee`). Such a path would mean a different program in every folder, so it is refused
 * rather than resolved; a bare name is looked up on PATH. */
function isRelativePath(command, platform = process.platform) {
  const separators = platform === "win32" ? /[\\/]/ : /\//;
  const absolute = platform === "win32" ? path.win32.isAbsolute(command) : path.posix.isAbsolute(command);
  return separators.test(command) && !absolute;
}

/** The file `command` names: itself when it holds a directory part, else the first match on PATH
 * (with the PATHEXT endings on Windows); undefined when there is none. */
function resolve(command, env = process.env, platform = process.platform) {
  const executable = (file) => {
    try {
      fs.accessSync(file, platform === "win32" ? fs.constants.F_OK : fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  const endings = platform === "win32" ? ["", ...(env.PATHEXT || ".EXE;.CMD;.BAT;.COM").split(";")] : [""];
  const candidates = (base) => endings.map((ending) => base + ending);
  if (command.includes("/") || (platform === "win32" && command.includes("\\"))) {
    return candidates(command).find(executable);
  }
  const dirs = (env.PATH || env.Path || "").split(path.delimiter).filter((d) => d !== "");
  for (const dir of dirs) {
    const found = candidates(path.join(dir, command)).find(executable);
    if (found) return found;
  }
  return undefined;
}

/** The message shown when `command` cannot be found. */
function missingMessage(command) {
  const where = command.includes("/") || command.includes("\\") ? `There is no executable file ${command}` : `There is no \`${command}\` on PATH`;
  return `referee: ${where}, so records are not checked. Install referee (\`cargo install --path .\` in its repository) or set "referee.path" to the executable.`;
}

/** The message shown when `command` is a relative path. */
function relativeMessage(command) {
  return `referee: "referee.path" is the relative path ${command}, which is not started: a relative path would name a different program in every folder. Set it to the executable's full path, or to a name found on PATH.`;
}

/** The message shown when a workspace sets `referee.path`, which has no effect. */
function ignoredMessage(value) {
  return `referee: this workspace sets "referee.path" to ${value}, which is ignored: only your user settings choose the program the extension starts.`;
}

module.exports = { chosen, isRelativePath, resolve, missingMessage, relativeMessage, ignoredMessage };
