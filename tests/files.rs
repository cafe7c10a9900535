//! The files the commands write and read: output put in place only when complete, never over an
//! input or a file the run did not make; refusals exit as `verify` would, and usage errors with 2.

mod support;

use std::fs;
use std::path::Path;
use std::process::Stdio;

use support::{arg, outcome, referee_process, run};

const VALID: &str = "samples/quadraphages/random-seed-1.txt";

/// A Quarod record whose third move is no move at all: `verify` calls it a syntax error.
const BAD_TOKEN: &str = "[Game \"Quarod\"]\n[Size \"6\"]\n\n1. d2d1 swap 2. c5d5 f2e2 3. f4f5 zz9q *\n";

/// The text of a file in a temporary folder, written for a test.
fn written(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Files in `dir` whose name starts with a dot: temporary files left behind.
fn hidden_files(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

// `/dev/full` is Linux's.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_removes_nothing_and_a_good_one_leaves_no_temporary_file() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    // A link to a device that is always full: the write fails, and the link (which the run did not
    // make) is still there, as is the device.
    let full = dir.path().join("full.txt");
    symlink("/dev/full", &full).unwrap();
    for args in [
        vec!["show", VALID, "-o", arg(&full)],
        vec!["show", VALID, "--format", "svg", "-o", arg(&full)],
        vec!["convert", VALID, "--to", "json", "-o", arg(&full)],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{err}");
        assert!(fs::symlink_metadata(&full).unwrap().file_type().is_symlink(), "{args:?} removed the link");
    }
    // A file there already is replaced whole, keeping its permissions; no temporary file stays.
    let out = written(dir.path(), "out.txt", "old text");
    fs::set_permissions(&out, fs::Permissions::from_mode(0o640)).unwrap();
    let (code, _, err) = run(&["show", VALID, "-o", &out]);
    assert_eq!(code, 0, "{err}");
    let (_, diagram, _) = run(&["show", VALID]);
    assert_eq!(fs::read_to_string(&out).unwrap(), diagram);
    assert_eq!(fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o640);
    assert_eq!(hidden_files(dir.path()), Vec::<String>::new());
    // A run that refuses its record writes nothing, and leaves the file there as it was.
    let bad = written(dir.path(), "bad.txt", BAD_TOKEN);
    let (code, _, _) = run(&["convert", &bad, "--to", "json", "-o", &out]);
    assert_eq!(code, 1);
    assert_eq!(fs::read_to_string(&out).unwrap(), diagram);
    assert_eq!(hidden_files(dir.path()), Vec::<String>::new());
}

#[cfg(target_os = "linux")]
#[test]
fn dev_stdout_is_written_where_standard_output_goes() {
    let dir = tempfile::tempdir().unwrap();
    // Standard output appended to a log, as `>> log` does: the log keeps what it held.
    let log = written(dir.path(), "log.txt", "first\n");
    let append = fs::OpenOptions::new().append(true).open(&log).unwrap();
    let out = referee_process()
        .args(["show", VALID, "--format", "ascii", "-o", "/dev/stdout"])
        .stdout(Stdio::from(append))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let (_, diagram, _) = run(&["show", VALID]);
    assert_eq!(fs::read_to_string(&log).unwrap(), format!("first\n{diagram}"));
    assert_eq!(hidden_files(dir.path()), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn an_output_that_is_the_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let record = fs::read_to_string(VALID).unwrap();
    let input = written(dir.path(), "game.txt", &record);
    std::os::unix::fs::symlink(&input, dir.path().join("link.txt")).unwrap();
    let pictures = dir.path().join("pictures");
    fs::create_dir(&pictures).unwrap();
    // `render` names its GIF `game-1.gif`: here a second name of the input.
    fs::hard_link(&input, pictures.join("game-1.gif")).unwrap();
    let same = format!("{}/./game.txt", dir.path().display());
    let link = dir.path().join("link.txt");
    for args in [
        vec!["show", &input, "-o", &same],
        vec!["convert", &input, "--to", "canonical", "-o", arg(&link)],
        vec!["render", &input, "--format", "gif", "--out", arg(&pictures)],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("is the input file"), "{err}");
        assert_eq!(fs::read_to_string(&input).unwrap(), record, "{args:?} overwrote the input");
    }
}

#[test]
fn random_games_of_different_inputs_get_different_files_and_none_is_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let out = arg(dir.path());
    for players in ["2", "3"] {
        let (code, _, err) = run(&["random", "--game", "splinter", "--players", players, "--seed", "5", "-o", out]);
        assert_eq!(code, 0, "{err}");
    }
    let (code, _, err) = run(&["random", "--game", "splinter", "--seed", "5", "-o", out]);
    assert_eq!(code, 0, "{err}");
    let mut names: Vec<String> =
        fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["splinter-5.txt", "splinter-players2-5.txt", "splinter-players3-5.txt"]);
    let three = dir.path().join("splinter-players3-5.txt");
    fs::write(&three, "mine").unwrap();
    let (code, _, err) = run(&["random", "--game", "splinter", "--players", "3", "--seed", "5", "-o", out]);
    assert_eq!(code, 2);
    assert!(err.contains("splinter-players3-5.txt: the file exists already: not overwritten"), "{err}");
    assert_eq!(fs::read_to_string(&three).unwrap(), "mine");
}

// `/dev/full` is Linux's.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_error_stops_no_conversion() {
    let dir = tempfile::tempdir().unwrap();
    let records = format!("{BAD_TOKEN}\n{}", fs::read_to_string(VALID).unwrap());
    let file = written(dir.path(), "two.txt", &records);
    let full = fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = referee_process().args(["convert", &file, "--to", "code"]).stderr(Stdio::from(full)).output().unwrap();
    let (code, out, _) = outcome(out);
    assert_eq!(code, 1, "the first record is refused, not a crash");
    assert_eq!(out.lines().count(), 1, "the second record is converted: {out}");
}

#[test]
fn a_syntax_error_or_no_game_is_said_as_verify_says_and_nothing_is_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let bad = written(dir.path(), "bad.txt", BAD_TOKEN);
    let tags = written(dir.path(), "tags.txt", "[Game \"Quarod\"]\n[Size \"5\"]\n");
    let small = written(dir.path(), "small.txt", "[Game \"Splinter Quad\"]\n[Size \"3\"]\n\n1. *\n");
    let mut said = String::new();
    for file in [&bad, &tags, &small] {
        let (verified, short, _) = run(&["verify", "--format", "short", file]);
        assert_eq!(verified, 1);
        for args in [vec!["show", file], vec!["show", file, "--format", "svg"]] {
            let (code, out, err) = run(&args);
            assert_eq!((code, out.as_str()), (1, ""), "{args:?}");
            assert!(err.starts_with(&short), "{args:?}: {err}");
            assert!(!err.contains("illegal"), "{args:?}: {err}");
        }
        let pictures = dir.path().join("pictures");
        let (code, _, err) = run(&["render", file, "--out", arg(&pictures)]);
        assert_eq!(code, 1);
        assert!(!pictures.exists(), "render wrote pictures");
        said += &err.replace(&format!("{}/", dir.path().display()), "");
    }
    insta::assert_snapshot!(said);
}

#[test]
fn record_zero_and_widths_not_drawn_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for args in [
        vec!["show", VALID, "--record", "0"],
        vec!["render", VALID, "--record", "0", "--out", arg(&out)],
        vec!["convert", VALID, "--record", "0", "--to", "json"],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("records are numbered from 1"), "{err}");
    }
    for width in ["64", "119", "4097", "8192"] {
        let (code, _, err) = run(&["show", VALID, "--format", "svg", "--width", width]);
        assert_eq!(code, 2, "{width}");
        assert!(err.contains(&format!("`{width}`: a width is 120 to 4096 pixels")), "{err}");
    }
    let (code, svg, _) = run(&["show", VALID, "--format", "svg", "--width", "4096"]);
    assert_eq!(code, 0);
    assert!(svg.contains("width=\"4096\""));
}

#[test]
fn a_file_too_large_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.txt");
    // Sparse: no disk is used, and reading it whole would take seconds.
    fs::File::create(&big).unwrap().set_len(300 << 20).unwrap();
    for command in ["show", "render", "convert"] {
        let mut args = vec![command, arg(&big)];
        match command {
            "render" => args.extend(["--out", arg(dir.path())]),
            "convert" => args.extend(["--to", "json"]),
            _ => {}
        }
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{command}");
        assert!(err.contains("big.txt: larger than 256 MiB"), "{err}");
    }
}

#[test]
fn convert_reports_refused_records_as_verify_does() {
    let dir = tempfile::tempdir().unwrap();
    let records: Vec<String> = (0..5).map(|k| BAD_TOKEN.replace("zz9q", &format!("zz{k}q"))).collect();
    let file = written(dir.path(), "bad.txt", &records.join("\n"));
    let (_, short, _) = run(&["verify", "--format", "short", &file]);
    let (code, _, err) = run(&["convert", &file, "--to", "json"]);
    assert_eq!(code, 1);
    let reports: String = err.lines().filter(|l| !l.starts_with("referee:")).map(|l| format!("{l}\n")).collect();
    assert_eq!(reports, short);
    assert_eq!(short.lines().count(), 5);
}

/// A Quadraphages record whose last line has a slip that `repair --write` can mend (its last
/// tokens deleted): the file is rewritten.
fn repairable() -> String {
    let head: String = fs::read_to_string(VALID).unwrap().lines().take(11).map(|l| format!("{l}\n")).collect();
    format!("{head}10. ---- ---- 3 f6f3 b6e6 h2h5 ---- 5  \n")
}

/// The names a run makes up (`render --out`'s pictures, `man --dir`'s pages) are never followed
/// through a link: a link planted there is refused, naming it, and the file it points to is left as
/// it was, as is the link. Without a link the same names are written, and written again.
#[cfg(unix)]
#[test]
fn a_link_at_a_name_the_run_makes_up_is_refused_and_never_followed() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    // The first three turns: 29 pictures, drawn quickly.
    let head: String = fs::read_to_string(VALID).unwrap().lines().take(5).map(|l| format!("{l}\n")).collect();
    let game = written(dir.path(), "game.txt", &head);
    let victim = written(dir.path(), "victim.txt", "not a picture\n");
    let out = dir.path().join("out");
    fs::create_dir(&out).unwrap();
    for (format, name) in
        [("svg", "game-1-ply000.svg"), ("png", "game-1-ply003.png"), ("gif", "game-1.gif"), ("html", "game-1.html")]
    {
        let link = out.join(name);
        symlink(&victim, &link).unwrap();
        let (code, _, err) = run(&["render", &game, "--format", format, "--out", arg(&out), "--width", "120"]);
        assert_eq!(code, 2, "{format}: {err}");
        assert!(err.contains(&format!("{}: is a link", link.display())), "{format}: {err}");
        assert_eq!(fs::read_to_string(&victim).unwrap(), "not a picture\n", "{format} wrote through the link");
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "{format} removed the link");
        fs::remove_file(&link).unwrap();
        // Without the link, the same pictures are written, and a second run replaces them.
        for _ in 0..2 {
            let (code, _, err) = run(&["render", &game, "--format", format, "--out", arg(&out), "--width", "120"]);
            assert_eq!(code, 0, "{format}: {err}");
            assert!(fs::symlink_metadata(&link).unwrap().is_file(), "{format}");
        }
    }
    // A second name of another file, planted at a picture's name: the name gets the picture, and
    // the file keeps its text.
    fs::remove_file(out.join("game-1.html")).unwrap();
    fs::hard_link(&victim, out.join("game-1.html")).unwrap();
    let (code, _, err) = run(&["render", &game, "--format", "html", "--out", arg(&out)]);
    assert_eq!(code, 0, "{err}");
    assert!(fs::read_to_string(out.join("game-1.html")).unwrap().contains("<html"));
    assert!(fs::read_to_string(&victim).unwrap() == "not a picture\n", "the file's other name was written");
    // A man page: a link to a file, and a link to nothing (which must not be created).
    let pages = dir.path().join("pages");
    fs::create_dir(&pages).unwrap();
    symlink(&victim, pages.join("referee.1")).unwrap();
    let (code, _, err) = run(&["man", "--dir", arg(&pages)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("{}: is a link", pages.join("referee.1").display())), "{err}");
    assert_eq!(fs::read_to_string(&victim).unwrap(), "not a picture\n");
    let nowhere = dir.path().join("nowhere.1");
    symlink(&nowhere, pages.join("referee-verify.1")).unwrap();
    let (code, _, err) = run(&["man", "verify", "--dir", arg(&pages)]);
    assert_eq!(code, 2, "{err}");
    assert!(!nowhere.exists(), "the link's target was created");
    assert_eq!(hidden_files(&pages), Vec::<String>::new());
    assert_eq!(hidden_files(&out), Vec::<String>::new());
}

/// A file without write permission is refused, as the shell's `>` refuses it, and left as it
/// was; the folder it is in being writable does not matter. Root may write any file, so the tests
/// (which may run as root) show the rule that holds for root too: a file nobody may write (mode
/// 0444) is never replaced.
#[cfg(unix)]
#[test]
fn a_read_only_file_is_refused_and_left_as_it_was() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let read_only = |path: &str| fs::set_permissions(path, fs::Permissions::from_mode(0o444)).unwrap();
    let slip = written(dir.path(), "slip.txt", &repairable());
    read_only(&slip);
    let (code, _, err) = run(&["repair", "--write", "--time-limit", "600", &slip]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("cannot write {slip}: it is read-only (mode 0444)")), "{err}");
    assert_eq!(fs::read_to_string(&slip).unwrap(), repairable());
    let out = written(dir.path(), "out.txt", "kept\n");
    read_only(&out);
    for args in [
        vec!["show", VALID, "-o", &out],
        vec!["show", VALID, "--format", "svg", "-o", &out],
        vec!["convert", VALID, "--to", "json", "-o", &out],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(&format!("cannot write {out}: it is read-only (mode 0444)")), "{err}");
        assert_eq!(fs::read_to_string(&out).unwrap(), "kept\n", "{args:?}");
        assert_eq!(fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o444);
    }
    // A picture or a page of an earlier run, made read-only since, is refused too.
    let pages = dir.path().join("pages");
    fs::create_dir(&pages).unwrap();
    let page = written(&pages, "referee-show.1", "kept\n");
    read_only(&page);
    let (code, _, err) = run(&["man", "show", "--dir", arg(&pages)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("referee-show.1: it is read-only"), "{err}");
    assert_eq!(fs::read_to_string(&page).unwrap(), "kept\n");
    assert_eq!(hidden_files(dir.path()), Vec::<String>::new());
    assert_eq!(hidden_files(&pages), Vec::<String>::new());
}

/// A file with a second name (a hard link) keeps it: `repair --write` and `-o` write the new text
/// into the file itself, so that both names show it, where a file renamed into place would have
/// left the other name with the old text.
#[cfg(unix)]
#[test]
fn a_file_with_two_names_is_written_in_place_and_keeps_both() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let slip = written(dir.path(), "slip.txt", &repairable());
    let other = dir.path().join("other-name.txt");
    fs::hard_link(&slip, &other).unwrap();
    let inode = fs::metadata(&slip).unwrap().ino();
    let (code, _, err) = run(&["repair", "--write", "--time-limit", "600", &slip]);
    assert_eq!(code, 0, "{err}");
    let repaired = fs::read_to_string(&slip).unwrap();
    assert!(repaired.ends_with("10. b6b3 ----  \n"), "{repaired}");
    assert_eq!(fs::read_to_string(&other).unwrap(), repaired, "the other name shows the repair");
    assert_eq!((fs::metadata(&slip).unwrap().ino(), fs::metadata(&slip).unwrap().nlink()), (inode, 2));
    // A shorter text written over a longer one leaves nothing of the old one after it.
    let out = written(dir.path(), "out.txt", &"old text\n".repeat(10_000));
    fs::hard_link(&out, dir.path().join("out-too.txt")).unwrap();
    let (code, _, err) = run(&["show", VALID, "-o", &out]);
    assert_eq!(code, 0, "{err}");
    let (_, diagram, _) = run(&["show", VALID]);
    assert_eq!(fs::read_to_string(&out).unwrap(), diagram);
    assert_eq!(fs::read_to_string(dir.path().join("out-too.txt")).unwrap(), diagram);
    assert_eq!(hidden_files(dir.path()), Vec::<String>::new());
}

/// A line longer than `verify` holds at once (256 MiB) is skipped up to the blank line after it,
/// said where it starts as a problem with the file (exit code 2), and the records after it are
/// verified; before, it ended the file's verification there. The line is a sparse run of NUL
/// bytes, which takes no disk; the run holds the 256 MiB, about twice that at its peak while the
/// text grows (550 MB), and takes a few seconds.
#[test]
fn verify_skips_a_line_longer_than_it_holds_and_verifies_the_records_after_it() {
    use std::io::{Seek, SeekFrom, Write};
    let record = fs::read_to_string(VALID).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.txt");
    let mut file = fs::File::create(&path).unwrap();
    write!(file, "{record}\nNotes: ").unwrap();
    file.seek(SeekFrom::Current(257 << 20)).unwrap();
    write!(file, "\n\n{record}").unwrap();
    drop(file);
    let (code, out, err) = run(&["verify", "--format", "json", arg(&path)]);
    assert_eq!(code, 2, "{err}");
    let lines = support::json_lines(&out);
    let said: Vec<(u64, &str, u64)> = lines
        .iter()
        .map(|l| (l["index"].as_u64().unwrap(), l["status"].as_str().unwrap(), l["line"].as_u64().unwrap()))
        .collect();
    let notes = record.lines().count() as u64 + 2;
    assert_eq!(said, [(1, "valid", 1), (0, "unreadable", notes), (2, "valid", notes + 2)]);
    assert_eq!(
        lines[1]["errors"][0]["message"],
        format!(
            "line {notes} starts a line or record longer than 256 MiB, more than referee holds at once: skipped up to the blank line at line {}",
            notes + 1
        )
    );
    assert!(
        err.contains(
            "2 records in 1 file: 2 valid, 0 illegal, 0 refuted, 0 syntax errors, 0 undecided; 1 input unreadable"
        ),
        "{err}"
    );
}
