//! `referee man`: a page for the program and for every command, each naming the options its
//! `--help` lists, referring only to pages written with it; printed or written into a folder.

mod support;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use support::{arg, run};

/// The commands `referee --help` lists (clap's own `help` aside, which has no page).
fn commands() -> Vec<String> {
    let (code, help, _) = run(&["--help"]);
    assert_eq!(code, 0);
    let listed = help.lines().skip_while(|line| *line != "Commands:").skip(1).take_while(|line| !line.is_empty());
    let names: Vec<String> = listed
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(String::from)
        .collect();
    assert!(names.len() >= 10, "{help}");
    names
}

/// The long options and the arguments a `--help` text lists, as `--format` and `<PATHS>`.
fn options_in_help(help: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in help.lines().filter(|line| line.starts_with("  ")) {
        let first = line.trim_start();
        if first.starts_with('-') {
            names.extend(first.split([',', ' ']).find(|word| word.starts_with("--")).map(String::from));
        } else if first.starts_with('<') {
            names.extend(first.split_whitespace().next().map(String::from));
        }
    }
    names
}

/// The pages `man --dir` writes into a new folder: file name → text.
fn all_pages(dir: &Path) -> Vec<(String, String)> {
    let (code, _, err) = run(&["man", "--dir", arg(dir)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("manual pages written to {}", dir.display())), "{err}");
    let mut pages: Vec<(String, String)> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            (path.file_name().unwrap().to_string_lossy().into_owned(), fs::read_to_string(&path).unwrap())
        })
        .collect();
    pages.sort();
    pages
}

/// What the page says for an option or an argument: `\-\-format`, `<\fIPATHS\fR>`.
fn roff(name: &str) -> String {
    match name.trim_end_matches("...").strip_prefix('<').and_then(|n| n.strip_suffix('>')) {
        Some(argument) => format!("<\\fI{argument}\\fR>"),
        None => name.replace('-', "\\-"),
    }
}

#[test]
fn every_command_has_a_page_that_names_its_options() {
    let dir = tempfile::tempdir().unwrap();
    let pages = all_pages(dir.path());
    let names: BTreeSet<String> = pages.iter().map(|(name, _)| name.clone()).collect();
    let mut expected: BTreeSet<String> = commands().iter().map(|c| format!("referee-{c}.1")).collect();
    expected.insert("referee.1".into());
    assert_eq!(names, expected);
    for (name, text) in &pages {
        let command = name.strip_prefix("referee-").and_then(|n| n.strip_suffix(".1"));
        let help = match command {
            Some(command) => run(&[command, "--help"]).1,
            None => run(&["--help"]).1,
        };
        let title = name.strip_suffix(".1").unwrap();
        assert!(text.contains(&format!(".TH {title} 1")), "{name}: its title");
        let options = options_in_help(&help);
        assert!(options.contains(&"--help".to_string()), "{name}: {help}");
        for option in options {
            assert!(text.contains(&roff(&option)), "{name} does not name {option}:\n{text}");
        }
    }
}

#[test]
fn the_pages_refer_only_to_pages_written_with_them() {
    let dir = tempfile::tempdir().unwrap();
    let pages = all_pages(dir.path());
    let mut references = BTreeSet::new();
    for (name, text) in &pages {
        // `referee\-verify(1)` under SUBCOMMANDS, `\fBreferee\fR(1)` under SEE ALSO.
        let plain = text.replace("\\-", "-").replace("\\fB", "").replace("\\fR", "");
        for (at, _) in plain.match_indices("(1)") {
            let before = &plain[..at];
            let start = before.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).map_or(0, |i| i + 1);
            let page = &before[start..];
            assert!(!page.is_empty(), "{name}: a reference without a name");
            references.insert(page.to_string());
            assert!(dir.path().join(format!("{page}.1")).is_file(), "{name} refers to {page}(1), which is not written");
        }
        if name != "referee.1" {
            assert!(plain.contains(".SH \"SEE ALSO\"\nreferee(1)"), "{name}: its SEE ALSO\n{text}");
        }
    }
    // The program's page names every command's.
    for command in commands() {
        assert!(references.contains(&format!("referee-{command}")), "no page refers to referee-{command}(1)");
    }
}

#[test]
fn a_page_is_printed_or_written_alone() {
    let dir = tempfile::tempdir().unwrap();
    let pages = all_pages(&dir.path().join("all"));
    let page = |file: &str| pages.iter().find(|(name, _)| name == file).map(|(_, text)| text.clone()).unwrap();
    let (code, printed, _) = run(&["man"]);
    assert_eq!(code, 0);
    assert_eq!(printed, page("referee.1"));
    let (code, printed, _) = run(&["man", "verify"]);
    assert_eq!(code, 0);
    assert_eq!(printed, page("referee-verify.1"));

    // One command's page into a folder: that page only, replacing one already there.
    let one = dir.path().join("one");
    fs::create_dir(&one).unwrap();
    fs::write(one.join("referee-show.1"), "an old page").unwrap();
    let (code, _, err) = run(&["man", "show", "--dir", arg(&one)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("1 manual page written to"), "{err}");
    let written: Vec<_> = fs::read_dir(&one).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(written, ["referee-show.1"]);
    assert_eq!(fs::read_to_string(one.join("referee-show.1")).unwrap(), page("referee-show.1"));
}

#[test]
fn an_unknown_command_or_a_folder_that_cannot_be_made_is_an_error() {
    let (code, out, err) = run(&["man", "verfiy"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("invalid value 'verfiy'") && err.contains("verify"), "{err}");
    assert_eq!(run(&["man", "help"]).0, 2, "clap's help command has no page");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    fs::write(&file, "not a folder").unwrap();
    let (code, _, err) = run(&["man", "--dir", arg(&file)]);
    assert_eq!(code, 2);
    assert!(err.contains("a-file: cannot create the folder"), "{err}");
    assert_eq!(fs::read_to_string(&file).unwrap(), "not a folder");
}

/// A whole page as it is written, its exit codes a list: `man`'s own.
#[test]
fn the_page_of_a_command() {
    let (code, page, _) = run(&["man", "man"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(page.replace(env!("CARGO_PKG_VERSION"), "[version]"));
}

/// `show`'s page, with its numbered diagrams (`--numbers`, `--from`, `--to`) and an example.
#[test]
fn the_page_of_show() {
    let (code, page, _) = run(&["man", "show"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(page.replace(env!("CARGO_PKG_VERSION"), "[version]"));
}
