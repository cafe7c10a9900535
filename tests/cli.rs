//! The binary: exit codes, inputs of every kind, `show` and `random`.

use assert_cmd::Command;

fn referee() -> Command {
    Command::cargo_bin("referee").expect("binary builds")
}

fn stdout_of(args: &[&str]) -> (i32, String, String) {
    let out = referee().args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn exit_code_is_0_when_every_record_is_valid() {
    let (code, out, _) =
        stdout_of(&["verify", "samples/quadraphages/random-seed-1.txt", "samples/hexaphages/random-seed-1.txt"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches(": valid,").count(), 2);
}

#[test]
fn exit_code_is_1_when_any_record_is_illegal() {
    let (code, out, _) = stdout_of(&[
        "verify",
        "samples/quadraphages/random-seed-1.txt",
        "samples/quadraphages/broken/illegal-blocked.txt",
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("the path is blocked by X's stone on c7"), "{out}");
}

#[test]
fn exit_code_is_2_for_syntax_errors_unreadable_files_and_usage_errors() {
    assert_eq!(stdout_of(&["verify", "samples/quadraphages/broken/syntax-bad-token.txt"]).0, 2);
    let (code, _, err) = stdout_of(&["verify", "no/such/file.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.txt: cannot open"), "{err}");
    assert_eq!(stdout_of(&["verify"]).0, 2);
    assert_eq!(stdout_of(&["verify", "--format", "xml", "x"]).0, 2);
    assert_eq!(stdout_of(&["frobnicate"]).0, 2);
}

#[test]
fn verify_reads_folders_and_standard_input() {
    let (code, out, _) = stdout_of(&["verify", "--format", "json", "samples/"]);
    assert_eq!(code, 2, "the broken samples include syntax errors");
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
                    e.path().extension().is_some_and(|x| x == "txt") as usize
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
    let (_, out, _) = stdout_of(&["verify", "--format", "json", "samples/quadraphages/blog-page.txt"]);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    for key in ["file", "index", "game", "status", "errors", "claims", "score"] {
        assert!(first.get(key).is_some(), "missing {key}");
    }
    let e = &first["errors"][0];
    assert_eq!((e["line"].as_u64(), e["column"].as_u64(), e["token"].as_str()), (Some(28), Some(31), Some("d2d5")));
    let c = &first["claims"][0];
    assert_eq!(
        (c["kind"].as_str(), c["text"].as_str(), c["status"].as_str()),
        (Some("result"), Some("and wins 40-39"), Some("unchecked"))
    );
}

#[test]
fn invalid_utf8_empty_files_and_noise_get_clear_errors() {
    let dir = std::env::temp_dir().join(format!("referee-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("latin1.txt");
    std::fs::write(&bad, b"_xx_ _oo_\n1. .... .... 1 a7a8 \xe9\n").unwrap();
    let (code, _, err) = stdout_of(&["verify", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not valid UTF-8: byte 0xE9 at line 2, column 21"), "{err}");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    let (code, _, err) = stdout_of(&["verify", empty.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("no game record found"), "{err}");
    let noise = dir.join("noise.txt");
    let mut rng = fastrand::Rng::with_seed(3);
    let bytes: Vec<u8> = (0..2_000_000).map(|_| rng.u8(..)).collect();
    std::fs::write(&noise, bytes).unwrap();
    let (code, _, err) = stdout_of(&["verify", noise.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not valid UTF-8"), "{err}");
}

#[test]
fn show_prints_a_diagram_that_reads_back_as_the_same_position() {
    for (file, record) in
        [("samples/quadraphages/random-seed-1.txt", "1"), ("samples/hexaphages/random-seed-1.txt", "1")]
    {
        for ply in ["0", "7", "40"] {
            let (code, out, _) = stdout_of(&["show", file, "--record", record, "--ply", ply]);
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
    let (code, out, err) = stdout_of(&["show", "samples/quadraphages/blog-page.txt"]);
    assert_eq!(code, 0);
    assert!(err.contains("stopped at an illegal move at 28:31 (no O stone on d2)"), "{err}");
    insta::assert_snapshot!(out);
    let (code, _, err) = stdout_of(&["show", "samples/quadraphages/blog-page.txt", "--record", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("there is no record 3 (the file has 2)"), "{err}");
}

#[test]
fn random_games_are_reproducible_and_valid() {
    let (code, a, _) = stdout_of(&["random", "--game", "hexaphages", "--seed", "9"]);
    assert_eq!(code, 0);
    assert_eq!(a, stdout_of(&["random", "--game", "hexaphages", "--seed", "9"]).1);
    let out = referee().args(["verify", "-"]).write_stdin(a).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(stdout_of(&["random", "--game", "hexaphages", "--size", "6"]).0, 2);
}

#[test]
fn the_search_bound_is_reported_when_it_stops_the_search() {
    let file = "samples/quadraphages/claim-before-the-end-confirmed.txt";
    let (code, out, _) = stdout_of(&["verify", file]);
    assert_eq!(code, 0);
    assert!(out.contains("every one of its 7 reachable final scores gives X wins"), "{out}");
    let (code, out, _) = stdout_of(&["verify", "--search-limit", "100", file]);
    assert_eq!(code, 0, "an unchecked claim is not a false one");
    assert!(out.contains("unchecked: the record stops before the game is over; the search of every continuation stopped at its bound of 100 positions"), "{out}");
}

#[test]
fn quarod_and_petrify_play_verify_and_show() {
    for (game, size, glyphs) in [("quarod", "5", "B^ Bv B< B> W^ Wv W< W> .."), ("petrify", "7", "B O # .")] {
        let (code, record, _) = stdout_of(&["random", "--game", game, "--size", size, "--seed", "4"]);
        assert_eq!(code, 0);
        assert!(record.starts_with(&format!("[Game \"{}{}\"]", game[..1].to_uppercase(), &game[1..])), "{record}");
        let out = referee().args(["verify", "--format", "json", "-"]).write_stdin(record.clone()).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!((v["game"].as_str(), v["status"].as_str()), (Some(game), Some("valid")));
        assert_eq!(v["claims"][0]["status"].as_str(), Some("confirmed"));
        let dir = std::env::temp_dir().join(format!("referee-show-{game}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("r.txt");
        std::fs::write(&file, &record).unwrap();
        let (code, diagram, _) = stdout_of(&["show", file.to_str().unwrap(), "--ply", "6"]);
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
    let (code, _, err) = stdout_of(&["random", "--game", "petrify", "--size", "12"]);
    assert_eq!(code, 2);
    assert!(err.contains("12"), "{err}");
}

#[test]
fn the_searches_of_one_file_share_a_bounded_budget() {
    let records = "_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 X wins\n\n".repeat(7);
    let out = referee()
        .args(["verify", "--format", "json", "--search-limit", "50", "-"])
        .write_stdin(records)
        .output()
        .unwrap();
    let details: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["claims"][0]["detail"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(details.len(), 7);
    assert!(
        details[..4].iter().all(|d| d.ends_with("stopped at its bound of 50 positions (raise it with --search-limit)")),
        "{details:?}"
    );
    assert!(
        details[4..].iter().all(|d| d.contains("this file's searches have used up their budget of 200 positions")),
        "{details:?}"
    );
}
