//! What the CLI tests share: the binary with a clean colour environment, and its output.

#![allow(dead_code)]

use assert_cmd::Command;

/// The binary, with no colour settings inherited from the environment.
pub fn referee() -> Command {
    Command::from_std(referee_process())
}

/// The same, as a plain process (its standard output can be any file).
pub fn referee_process() -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("referee"));
    cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE").env_remove("CLICOLOR");
    cmd
}

/// Exit code, standard output and standard error of a finished command.
pub fn outcome(out: std::process::Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Runs the binary with `args`: exit code, standard output, standard error.
pub fn run(args: &[&str]) -> (i32, String, String) {
    outcome(referee().args(args).output().expect("runs"))
}

/// The JSON objects of `--format json` output, one per line.
pub fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

/// A path as an argument.
pub fn arg(p: &std::path::Path) -> &str {
    p.to_str().expect("temporary paths are UTF-8")
}
