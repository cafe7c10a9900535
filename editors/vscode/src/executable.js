// Finding `referee.path` before starting it, so that a missing executable gets a message that
// says what to do, not the client library's "spawn referee ENOENT".

const fs = require("fs");
const path = require("path");

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

module.exports = { resolve, missingMessage };
