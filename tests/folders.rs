//! Walking folders: links, loops, FIFOs, unreadable folders, extensions; each file once, in
//! path order, and the run always ends.

#![cfg(unix)]

mod support;

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::Duration;

use support::{arg, json_lines, outcome, referee, run};

const QUADRAPHAGES: &str = "samples/quadraphages/random-seed-1.txt";
const QUAROD: &str = "samples/quarod/random-size-4.txt";

fn copy(sample: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(sample, to).unwrap();
}

/// A temporary folder holding copies of samples: (sample, path inside the folder).
fn folder_of(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (sample, name) in files {
        copy(sample, &dir.path().join(name));
    }
    dir
}

/// How many times each file was verified, by the name a record's `file` gives it, and stderr.
fn verified(args: &[&str]) -> (i32, BTreeMap<String, usize>, String) {
    let out = referee().args(args).timeout(Duration::from_secs(60)).output().unwrap();
    let (code, out, err) = outcome(out);
    let mut files = BTreeMap::new();
    for v in json_lines(&out) {
        *files.entry(v["file"].as_str().unwrap().to_string()).or_insert(0) += 1;
    }
    (code, files, err)
}

fn names(files: &BTreeMap<String, usize>, root: &Path) -> Vec<String> {
    files.keys().map(|f| f.strip_prefix(arg(root)).unwrap_or(f).to_string()).collect()
}

#[test]
fn links_to_each_others_folders_and_to_a_parent_verify_each_file_once_and_end() {
    let dir = folder_of(&[(QUADRAPHAGES, "a/one.txt"), (QUAROD, "b/two.txt"), (QUAROD, "c/three.txt")]);
    let root = dir.path();
    symlink("../b", root.join("a/to-b")).unwrap();
    symlink("../a", root.join("b/to-a")).unwrap();
    symlink("..", root.join("c/up")).unwrap();
    let (code, files, err) = verified(&["verify", "--format", "json", arg(root)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(names(&files, root), ["/a/one.txt", "/a/to-b/two.txt", "/c/three.txt"], "{files:?}");
    assert!(files.values().all(|&n| n == 1), "{files:?}");
    // Each loop is said once, naming the link.
    assert_eq!(err.matches("a loop: not followed").count(), 2, "{err}");
    assert_eq!(err.matches("/a/to-b/to-a: a link back to").count(), 1, "{err}");
    assert_eq!(err.matches("/c/up: a link back to").count(), 1, "{err}");
    // A folder named again, or a file inside one named before, is not verified again.
    let (_, files, _) =
        verified(&["verify", "--format", "json", arg(root), arg(&root.join("b")), arg(&root.join("c/three.txt"))]);
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files.values().all(|&n| n == 1), "{files:?}");
}

#[test]
fn a_fifo_named_like_a_record_is_skipped_with_a_note() {
    let dir = folder_of(&[(QUAROD, "game.txt")]);
    let fifo = dir.path().join("x.txt");
    let c = std::ffi::CString::new(arg(&fifo)).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
    let (code, files, err) = verified(&["verify", "--format", "json", arg(dir.path())]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(names(&files, dir.path()), ["/game.txt"]);
    assert!(err.contains("x.txt: a named pipe (FIFO), not a file: skipped"), "{err}");
}

#[test]
fn a_link_to_nothing_is_unreadable_when_named_like_a_record_and_a_note_otherwise() {
    let dir = folder_of(&[(QUAROD, "game.txt")]);
    symlink("gone", dir.path().join("gone.txt")).unwrap();
    symlink("gone", dir.path().join("gone.md")).unwrap();
    symlink("gone", dir.path().join(".gone.txt")).unwrap();
    let (code, out, err) = run(&["verify", "--format", "short", arg(dir.path())]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        out.ends_with("/gone.txt: unreadable: a link to nothing: No such file or directory (os error 2)\n"),
        "{out}"
    );
    assert!(err.contains("/gone.md: a link to nothing: skipped"), "{err}");
    assert!(!out.contains(".gone.txt") && !err.contains(".gone.txt"), "hidden: {out}{err}");
}

/// Runs `args` as the user nobody when this test runs as root (root reads any folder), if
/// setpriv can; `None` when it cannot, and the test is skipped.
fn run_unprivileged(args: &[&str]) -> Option<(i32, String, String)> {
    if unsafe { libc::geteuid() } != 0 {
        return Some(run(args));
    }
    let setpriv = ["--reuid=65534", "--regid=65534", "--clear-groups"];
    let works = std::process::Command::new("setpriv").args(setpriv).arg("true").status().is_ok_and(|s| s.success());
    if !works {
        eprintln!("running as root without setpriv: the unreadable-folder test is skipped");
        return None;
    }
    let bin = assert_cmd::cargo::cargo_bin("referee");
    let out = std::process::Command::new("setpriv").args(setpriv).arg(bin).args(args).output().unwrap();
    Some(outcome(out))
}

#[test]
fn an_unreadable_folder_or_file_is_an_input_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder_of(&[(QUAROD, "open/game.txt"), (QUAROD, "locked/game.txt"), (QUAROD, "open/secret.txt")]);
    let root = dir.path();
    let mode = |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    mode(root, 0o755);
    mode(&root.join("locked"), 0o000);
    mode(&root.join("open/secret.txt"), 0o000);
    let Some((code, out, err)) = run_unprivileged(&["verify", "--format", "short", arg(root)]) else { return };
    mode(&root.join("locked"), 0o755);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("/locked: unreadable: cannot read: Permission denied"), "{out}");
    assert!(out.contains("/open/secret.txt: unreadable: cannot open: Permission denied"), "{out}");
    assert!(err.contains("1 record in 1 file: 1 valid") && err.contains("2 inputs unreadable"), "{err}");
}

#[test]
fn folders_give_txt_and_pgn_files_in_any_case_and_ext_changes_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for name in ["a.pgn", "b.TXT", "c.Pgn", "d.text", "e.md", "sub/f.txt", ".hidden/g.txt", ".h.txt"] {
        copy(QUAROD, &root.join(name));
    }
    let (code, files, _) = verified(&["verify", "--format", "json", arg(root)]);
    assert_eq!(code, 0);
    assert_eq!(names(&files, root), ["/a.pgn", "/b.TXT", "/c.Pgn", "/sub/f.txt"]);
    let (_, files, _) = verified(&["verify", "--format", "json", "--ext", "txt,pgn,text", arg(root)]);
    assert_eq!(names(&files, root), ["/a.pgn", "/b.TXT", "/c.Pgn", "/d.text", "/sub/f.txt"]);
    let (_, files, _) = verified(&["verify", "--format", "json", "--ext", ".MD", arg(root)]);
    assert_eq!(names(&files, root), ["/e.md"]);
    // A file named on the command line is read whatever its extension.
    let (code, files, _) = verified(&["verify", "--format", "json", arg(&root.join("e.md"))]);
    assert_eq!((code, files.len()), (0, 1));
    // A folder with no such file holds no record.
    let (code, out, _) = run(&["verify", "--format", "short", "--ext", "gif", arg(root)]);
    assert_eq!(code, 1);
    assert!(out.ends_with(": no_record: no .gif file in this folder\n"), "{out}");
}

#[test]
fn many_files_come_in_path_order_and_no_progress_bar_is_drawn_into_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..250 {
        copy(QUAROD, &dir.path().join(format!("{}/{i:03}.txt", i % 3)));
    }
    let (code, out, err) = run(&["verify", "--format", "json", arg(dir.path())]);
    assert_eq!(code, 0);
    let files: Vec<String> = json_lines(&out).iter().map(|v| v["file"].as_str().unwrap().to_string()).collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!((files.len(), &files), (250, &sorted));
    assert_eq!(err.lines().count(), 1, "only the summary: {err}");
    assert!(!err.contains('\x1b'), "{err}");
}
