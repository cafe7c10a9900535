//! The binary: exit codes, inputs of every kind, `show` and `random`.

mod support;

use support::{arg, json_lines, referee, run};

#[test]
fn exit_code_is_0_when_every_record_is_valid() {
    let (code, out, _) =
        run(&["verify", "samples/quadraphages/random-seed-1.txt", "samples/hexaphages/random-seed-1.txt"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches(": valid,").count(), 2);
}

#[test]
fn exit_code_is_1_when_any_record_is_illegal() {
    let (code, out, _) =
        run(&["verify", "samples/quadraphages/random-seed-1.txt", "samples/quadraphages/broken/illegal-blocked.txt"]);
    assert_eq!(code, 1);
    assert!(out.contains("the path is blocked by X's stone on c7"), "{out}");
}

#[test]
fn exit_code_is_1_for_syntax_errors_undecided_records_and_files_without_records() {
    assert_eq!(run(&["verify", "samples/quadraphages/broken/syntax-bad-token.txt"]).0, 1);
    assert_eq!(run(&["verify", "samples/hexaphages/designers-game-side5.txt"]).0, 1);
    let dir = tempfile::tempdir().unwrap();
    let prose = dir.path().join("prose.txt");
    std::fs::write(&prose, "A letter about the club's next meeting.\n").unwrap();
    let (code, _, err) = run(&["verify", prose.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("prose.txt: no game record found"), "{err}");
}

#[test]
fn exit_code_is_2_for_unreadable_inputs_and_usage_errors() {
    let (code, _, err) = run(&["verify", "no/such/file.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.txt: cannot open"), "{err}");
    let (code, _, _) = run(&["verify", "samples/quadraphages/broken/syntax-bad-token.txt", "no/such/file.txt"]);
    assert_eq!(code, 2, "an unreadable input outweighs an invalid record");
    assert_eq!(run(&["verify"]).0, 2);
    assert_eq!(run(&["verify", "--format", "xml", "x"]).0, 2);
    assert_eq!(run(&["frobnicate"]).0, 2);
}

#[test]
fn help_documents_the_exit_codes() {
    for args in [&["--help"][..], &["verify", "--help"]] {
        let (code, out, _) = run(args);
        assert_eq!(code, 0);
        assert!(out.contains("Exit codes:") && out.contains("2  the run could not do its job"), "{out}");
    }
}

#[test]
fn verify_reads_folders_and_standard_input() {
    let (code, out, _) = run(&["verify", "--format", "json", "samples/"]);
    assert_eq!(code, 1, "the broken samples include illegal records and syntax errors");
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    let files: std::collections::BTreeSet<_> = lines.iter().map(|l| l["file"].as_str().unwrap().to_string()).collect();
    fn txt_files(dir: &std::path::Path) -> usize {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| {
                if e.path().is_dir() {
                    txt_files(&e.path())
                } else {
                    e.path().extension().is_some_and(|x| x.eq_ignore_ascii_case("txt") || x.eq_ignore_ascii_case("pgn"))
                        as usize
                }
            })
            .sum()
    }
    assert_eq!(files.len(), txt_files(std::path::Path::new("samples")));
    let src = std::fs::read_to_string("samples/quadraphages/random-seed-2.txt").unwrap();
    let out = referee().args(["verify", "--format", "json", "-"]).write_stdin(src).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["file"].as_str(), v["status"].as_str(), v["game"].as_str()),
        (Some("<stdin>"), Some("valid"), Some("quadraphages"))
    );
}

#[test]
fn json_has_the_documented_fields() {
    let (_, out, _) = run(&["verify", "--format", "json", "samples/quadraphages/blog-page.txt"]);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let e = &first["errors"][0];
    assert_eq!((e["line"].as_u64(), e["column"].as_u64(), e["token"].as_str()), (Some(28), Some(31), Some("d2d5")));
    let c = &first["claims"][0];
    assert_eq!(
        (c["kind"].as_str(), c["text"].as_str(), c["status"].as_str(), c["reason"].as_str()),
        (Some("result"), Some("and wins 40-39"), Some("unchecked"), Some("illegal_moves"))
    );
}

#[test]
fn invalid_utf8_empty_files_and_noise_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("latin1.txt");
    std::fs::write(&bad, b"_xx_ _oo_\n1. .... .... 1 a7a8 \xe9\n").unwrap();
    let (code, _, err) = run(&["verify", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not valid UTF-8: byte 0xE9 at line 2, column 21"), "{err}");
    let (code, out, _) = run(&["verify", "--format", "json", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["index"].as_u64(), v["status"].as_str(), v["game"].as_str()), (Some(0), Some("unreadable"), None));
    let e = &v["errors"][0];
    assert_eq!((e["kind"].as_str(), e["line"].as_u64(), e["column"].as_u64()), (Some("input"), Some(2), Some(21)));
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    let (code, _, err) = run(&["verify", empty.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("no game record found"), "{err}");
    let (_, out, _) = run(&["verify", "--format", "json", empty.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["status"].as_str(), v["errors"][0]["line"].as_u64()), (Some("no_record"), None));
    let noise = dir.path().join("noise.txt");
    let mut rng = fastrand::Rng::with_seed(3);
    let bytes: Vec<u8> = (0..2_000_000).map(|_| rng.u8(..)).collect();
    std::fs::write(&noise, bytes).unwrap();
    let (code, _, err) = run(&["verify", noise.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not valid UTF-8"), "{err}");
}

#[test]
fn show_prints_a_diagram_that_reads_back_as_the_same_position() {
    for (file, record) in
        [("samples/quadraphages/random-seed-1.txt", "1"), ("samples/hexaphages/random-seed-1.txt", "1")]
    {
        for ply in ["0", "7", "40"] {
            let (code, out, _) = run(&["show", file, "--record", record, "--ply", ply]);
            assert_eq!(code, 0);
            // Read the printed diagram back as a record's final-position diagram.
            let src = format!("_xx_ _oo_\n1. .... .... 1 a1a2\nFinal Position:{out}");
            let records = referee::record::parse(&src);
            let d = records[0].final_position.as_ref().expect("diagram read back");
            let drawn: String = d.cells.iter().map(|c| c.1).collect();
            let printed: String = out
                .lines()
                .skip(1)
                .flat_map(|l| l.split_whitespace())
                .filter(|w| w.len() == 1 && ".oxOX".contains(*w))
                .collect();
            assert_eq!(drawn, printed, "{file} ply {ply}");
        }
    }
}

#[test]
fn show_stops_at_an_illegal_move_and_says_so() {
    let (code, out, err) = run(&["show", "samples/quadraphages/blog-page.txt"]);
    assert_eq!(code, 1, "the record is not valid up to the position drawn, as verify says");
    assert!(err.contains("stopped at an illegal move at 28:31 (no O stone on d2)"), "{err}");
    insta::assert_snapshot!(out);
    let (code, _, err) = run(&["show", "samples/quadraphages/blog-page.txt", "--record", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("there is no record 3 (the file has 2)"), "{err}");
}

#[test]
fn show_exits_as_verify_does_when_the_record_is_not_valid_up_to_the_position() {
    let blog = "samples/quadraphages/blog-page.txt";
    // The blog's d2d5 is its 15th move (the fillers `....` are no moves): the 14 before it are legal.
    for (ply, code) in [("0", 0), ("14", 0), ("15", 1), ("30", 1)] {
        for format in ["ascii", "svg"] {
            let (got, out, err) = run(&["show", blog, "--ply", ply, "--format", format]);
            assert_eq!(got, code, "--ply {ply} --format {format}: {err}");
            assert!(!out.is_empty(), "the position is drawn all the same");
        }
    }
    let (code, out, err) = run(&["show", "samples/quadraphages/broken/syntax-bad-token.txt"]);
    assert_eq!((code, out.as_str()), (1, ""), "a syntax error: nothing to draw");
    assert!(err.contains(":3:31: syntax_error: `d8-d5` is not a stone move"), "{err}");
    let (code, _, err) = run(&["show", "samples/quadraphages/random-seed-1.txt"]);
    assert_eq!(code, 0, "{err}");
    for command in ["show", "render"] {
        assert!(run(&[command, "--help"]).1.contains("Exit codes:\n  0  "), "{command} --help");
    }
}

#[test]
fn random_games_are_reproducible_and_valid() {
    let (code, a, _) = run(&["random", "--game", "hexaphages", "--seed", "9"]);
    assert_eq!(code, 0);
    assert!(a.starts_with("Seed: 9\n"), "{a}");
    assert_eq!(a, run(&["random", "--game", "hexaphages", "--seed", "9"]).1);
    let out = referee().args(["verify", "-"]).write_stdin(a).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(run(&["random", "--game", "hexaphages", "--size", "6"]).0, 2);
}

#[test]
fn the_search_bound_is_reported_when_it_stops_the_search() {
    let file = "samples/quadraphages/claim-before-the-end-confirmed.txt";
    let (code, out, _) = run(&["verify", file]);
    assert_eq!(code, 0);
    assert!(out.contains("every one of its 7 reachable final scores gives X wins"), "{out}");
    let (code, out, _) = run(&["verify", "--search-limit", "100", file]);
    assert_eq!(code, 0, "an unchecked claim is not a false one");
    assert!(out.contains("unchecked: the record stops before the game is over; the search of every continuation stopped at 100 positions / "), "{out}");
    assert!(out.contains(", its bound of 100 positions (raise it with --search-limit)"), "{out}");
}

#[test]
fn quarod_and_petrify_play_verify_and_show() {
    for (game, size, glyphs) in [("quarod", "5", "B^ Bv B< B> W^ Wv W< W> .."), ("petrify", "7", "B O # .")] {
        let (code, record, _) = run(&["random", "--game", game, "--size", size, "--seed", "4"]);
        assert_eq!(code, 0);
        assert!(record.starts_with(&format!("[Game \"{}{}\"]", game[..1].to_uppercase(), &game[1..])), "{record}");
        let out = referee().args(["verify", "--format", "json", "-"]).write_stdin(record.clone()).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!((v["game"].as_str(), v["status"].as_str()), (Some(game), Some("valid")));
        assert_eq!(v["claims"][0]["status"].as_str(), Some("confirmed"));
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("r.txt");
        std::fs::write(&file, &record).unwrap();
        let (code, diagram, _) = run(&["show", file.to_str().unwrap(), "--ply", "6"]);
        assert_eq!(code, 0);
        let n: usize = size.parse().unwrap();
        assert_eq!(diagram.lines().count(), n + 1, "{diagram}");
        let allowed: Vec<&str> = glyphs.split(' ').collect();
        for row in diagram.lines().skip(1) {
            let cells: Vec<&str> = row.split_whitespace().collect();
            assert_eq!(cells.len(), n + 1, "{row}");
            assert!(cells[..n].iter().all(|c| allowed.contains(c)), "{row}");
        }
    }
    let (code, _, err) = run(&["random", "--game", "petrify", "--size", "12"]);
    assert_eq!(code, 2);
    assert!(err.contains("12"), "{err}");
    // A board with no start holds no game to play.
    let (code, out, err) = run(&["random", "--game", "splinter", "--size", "4"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("too small for the default start") && err.contains("--size"), "{err}");
}

/// The claims' details of `--format json` output, one a record, in order.
fn claim_details(out: &str) -> Vec<String> {
    json_lines(out).iter().map(|v| v["claims"][0]["detail"].as_str().expect("a claim").to_string()).collect()
}

#[test]
fn the_searches_of_standard_input_share_the_runs_bounded_budget() {
    let records = "_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 X wins\n\n".repeat(7);
    let out = referee()
        .args(["verify", "--format", "json", "--search-limit", "50", "-"])
        .write_stdin(records)
        .output()
        .unwrap();
    let details = claim_details(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(details.len(), 7);
    assert!(
        details[..4].iter().all(|d| d.contains("stopped at 50 positions / ")
            && d.ends_with("its bound of 50 positions (raise it with --search-limit)")),
        "{details:?}"
    );
    assert!(
        details[4..].iter().all(|d| d.ends_with(
            "this run's searches have used up their budget of 200 positions (raise it with --search-limit)"
        )),
        "{details:?}"
    );
}

/// A Quarod 4x4 record cut two moves before its end, claiming White's win: every continuation
/// gives it, as a search of 18 positions finds.
const CONFIRMED_IN_18: &str =
    "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 3. b1b2 d4c4 4. a3xa4 a2a1 5. a3xa2 d2c2 0-1\n";

/// A folder of `n` files, `000.txt` on, each holding `text`.
fn folder_of_files(n: usize, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..n {
        std::fs::write(dir.path().join(format!("{i:03}.txt")), text).unwrap();
    }
    dir
}

/// The positions a claim's search solved, as its detail says: `(N positions searched)`, or
/// `stopped at N positions`; none when it was not searched.
fn positions_searched(detail: &str) -> usize {
    let count = |s: &str| s.rsplit([' ', '(']).next().and_then(|n| n.parse().ok()).expect("a count");
    if let Some((before, _)) = detail.split_once(" positions searched)") {
        count(before)
    } else if let Some((before, _)) = detail.split_once(" positions / ") {
        count(before)
    } else {
        0
    }
}

#[test]
fn a_folder_of_many_claim_files_is_searched_within_one_budget_for_the_run() {
    // Issue 31: each file had a budget of its own, so that a run's searches grew with its files.
    // At 20 positions a claim, the run's budget is 80: four claims of 18 positions each, the fifth
    // cut short where the budget runs out, and the files after it say that it is spent.
    let dir = folder_of_files(60, CONFIRMED_IN_18);
    let (code, out, err) = run(&["verify", "--format", "json", "--search-limit", "20", arg(dir.path())]);
    assert_eq!(code, 0, "{err}");
    let details = claim_details(&out);
    assert_eq!(details.len(), 60);
    assert!(details[..4].iter().all(|d| d.ends_with("every continuation gives White wins (18 positions searched)")));
    assert!(
        details[4].ends_with(
            "this run's searches used up their budget of 80 positions during the search of every continuation, \
             which stopped at 8 positions / 0.0 MiB (raise it with --search-limit)"
        ),
        "{}",
        details[4]
    );
    let spent = "this run's searches have used up their budget of 80 positions (raise it with --search-limit)";
    assert!(details[5..].iter().all(|d| d.ends_with(spent)), "{details:#?}");
    assert_eq!(details.iter().map(|d| positions_searched(d)).sum::<usize>(), 80);
}

#[test]
fn a_run_gives_the_same_bytes_on_one_thread_as_on_many() {
    // Small files verified side by side, a file past a megabyte streamed between them, claims that
    // need a search in each, and a budget that runs out two thirds of the way: the budget is spent
    // in input order whatever thread verifies a file first.
    let dir = folder_of_files(40, CONFIRMED_IN_18);
    let valid = std::fs::read_to_string("samples/quarod/random-size-4.txt").unwrap();
    let mut big = String::new();
    while big.len() <= 1 << 20 {
        big.push_str(&format!("{valid}\n{CONFIRMED_IN_18}\n").repeat(50));
    }
    std::fs::write(dir.path().join("020-big.txt"), big).unwrap();
    for format in ["human", "json", "short"] {
        let args = |jobs: &'static str| {
            ["verify", "-j", jobs, "--format", format, "--search-limit", "200", arg(dir.path())].map(String::from)
        };
        let (code, one, err) = run(&args("1").each_ref().map(String::as_str));
        assert_eq!(code, 0, "{err}");
        if format == "json" {
            // 20 files before the big one, 24 claims in it; the 45th cut short, the rest spent.
            let details = claim_details(&one);
            let before_the_end: Vec<&String> = details.iter().filter(|d| d.contains("stops before")).collect();
            assert!(before_the_end[..44].iter().all(|d| d.ends_with("(18 positions searched)")));
            assert!(before_the_end[44].contains("used up their budget of 800 positions during the search"));
            assert!(before_the_end[45..].iter().all(|d| d.contains("have used up their budget of 800 positions")));
        }
        for jobs in ["2", "3", "8"] {
            let (_, many, _) = run(&args(jobs).each_ref().map(String::as_str));
            assert!(one == many, "{format}, -j {jobs}: the output differs from -j 1");
        }
    }
}

#[test]
fn completions_are_printed() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = run(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        // Every command is offered, and the values of an enumerated option.
        for word in ["verify", "show", "render", "repair", "random"] {
            assert!(out.contains(word), "{shell} completion lacks {word}");
        }
    }
    assert!(run(&["completions", "bash"]).1.contains("svg"), "--format values complete");
    assert_eq!(run(&["completions", "tcsh"]).0, 2, "an unknown shell is a usage error");
    // The manual pages: tests/man.rs.
}

#[test]
fn every_game_option_lists_the_games_and_reads_them_in_any_spelling() {
    for command in ["verify", "show", "render", "random", "repair"] {
        let (code, help, _) = run(&[command, "--help"]);
        assert_eq!(code, 0);
        for game in referee::GameKind::ALL {
            assert!(help.contains(&format!("- {game}:")), "{command} --help lacks {game}:\n{help}");
        }
    }
    // Completions offer the games too.
    assert!(run(&["completions", "fish"]).1.contains("vadrantir"));
    for name in ["Quarod", "SPLINTER", "Splinter Quad", "splinter-quad"] {
        let (code, record, err) = run(&["random", "--game", name, "--seed", "3"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(record.starts_with("[Game \""), "{name}: {record}");
    }
    let (code, _, err) = run(&["random", "--game", "quard"]);
    assert_eq!(code, 2);
    let names = referee::GameKind::ALL.map(|g| g.name()).join(", ");
    assert!(err.contains(&format!("[possible values: {names}]")), "{err}");
    assert!(err.contains("a similar value exists: 'quarod'"), "{err}");
}

#[test]
fn outputs_have_the_short_flag_o() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&["random", "--game", "quarod", "--seed", "5", "-o", support::arg(dir.path())]);
    assert_eq!(code, 0, "{err}");
    assert!(dir.path().join("quarod-5.txt").exists());
    for command in ["show", "render", "random"] {
        assert!(run(&[command, "--help"]).1.contains("-o, --out <"), "{command}");
    }
}

#[test]
fn codes_with_numbers_past_any_board_are_located_errors_in_every_command() {
    // Runs of empty cells at and past the integer limit, in a `[Position]` tag, after `Startup:`
    // and in a JSON document's `start_code`: each made the code reader panic ("capacity
    // overflow") in every command, and in a folder run no verdict of any file came out.
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    std::fs::create_dir(&records).unwrap();
    let write = |name: &str, text: &str| {
        let path = records.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let tag = write(
        "tag.txt",
        "[Game \"Quarod\"]\n[Position \"quarod_N18446744073709551615/4/4/4_b_0_0_-_-\"]\n\n1. a1b1 *\n",
    );
    let startup = write(
        "startup.txt",
        "QUADRAPHAGES\nStartup: quadraphages_2O99999999999999999999999/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i3-c1.g9\n\
         _xx_ _oo_\n1. .... .... 3 a7a8\n",
    );
    let valid = write("valid.txt", &std::fs::read_to_string("samples/quarod/random-size-4.txt").unwrap());
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    for (file, at, number) in [(&tag, "2:20", "18446744073709551615"), (&startup, "2:25", "99999999999999999999999")] {
        for args in [
            vec!["verify", file],
            vec!["show", file],
            vec!["render", file, "--out", out],
            vec!["repair", file],
            vec!["convert", file, "--to", "json"],
        ] {
            let (code, stdout, err) = run(&args);
            assert_eq!(code, 1, "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            let said = format!("{stdout}{err}");
            assert!(
                said.contains(at) && said.contains(&format!("this run of {number} goes past them")),
                "{args:?}: {said}"
            );
        }
    }
    // The JSON document of a valid record, its start code replaced.
    let (code, json, err) = run(&["convert", &valid, "--to", "json"]);
    assert_eq!(code, 0, "{err}");
    let mut doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    doc["start_code"] = "quarod_N18446744073709551615/4/4/4_b_0_0_-_-".into();
    let document = dir.path().join("document.json");
    std::fs::write(&document, doc.to_string()).unwrap();
    let (code, _, err) = run(&["convert", "--from", "json", support::arg(&document), "--to", "canonical"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("start_code: row 1 has 4 cells (3 left), and this run of 18446744073709551615 goes past them (at character 9 of the code)"),
        "{err}"
    );
    // A folder run gives every file's verdict.
    let (code, stdout, err) = run(&["verify", records.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1, "{err}");
    let statuses: Vec<(String, String)> = support::json_lines(&stdout)
        .iter()
        .map(|v| (v["file"].as_str().unwrap().rsplit('/').next().unwrap().to_string(), v["status"].to_string()))
        .collect();
    assert_eq!(
        statuses,
        [("startup.txt", "\"syntax_error\""), ("tag.txt", "\"syntax_error\""), ("valid.txt", "\"valid\"")]
            .map(|(f, s)| (f.to_string(), s.to_string()))
    );
}
