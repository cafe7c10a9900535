//! What `verify`, `show` and `random` print: formats, quiet mode, colour, the summary, the JSON
//! schema, long lines, closed and full outputs, bulk generation.

mod support;

use support::{arg, json_lines, outcome, referee, referee_process, run};

const VALID: &str = "samples/quadraphages/random-seed-1.txt";
const ILLEGAL: &str = "samples/quadraphages/blog-page.txt";

#[test]
fn the_summary_counts_records_files_and_statuses() {
    let (code, _, err) = run(&["verify", VALID, ILLEGAL, "samples/quadraphages/broken/syntax-bad-token.txt"]);
    assert_eq!(code, 1);
    let summary = err.lines().last().unwrap();
    assert!(
        summary
            .starts_with("referee: 4 records in 3 files: 1 valid, 2 illegal, 0 refuted, 1 syntax error, 0 undecided; "),
        "{summary}"
    );
    assert!(summary.ends_with(" records/s)"), "{summary}");
    let (_, _, err) = run(&["verify", "--format", "json", VALID, "no/such.txt", "Cargo.toml"]);
    assert!(
        err.contains(
            "1 record in 2 files: 1 valid, 0 illegal, 0 refuted, 0 syntax errors, 0 undecided; 1 file without records; 1 input unreadable;"
        ),
        "{err}"
    );
}

/// A record whose moves are all legal but whose claim is false is `refuted`, not `illegal`: in
/// the human report, `--format short`, the JSON and the summary, and it fails the run (exit 1).
#[test]
fn a_false_claim_with_legal_moves_is_refuted_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("refuted.txt");
    // A finished game Black wins (`referee random --game quarod --size 4 --seed 3`), claimed for
    // White: the moves are all legal, the claim is false.
    let moves = "1. b3b2 c2c1 2. c3d3 c2xb2 3. b4a4 c2xc3 4. d4c4 b1a1 5. d2d1 a2a3 6. a2xa1\n\
                 c4xb4 7. c3xc4 pass 8. pass 0-1\n";
    std::fs::write(&file, format!("[Game \"Quarod\"]\n[Size \"4\"]\n\n{moves}")).unwrap();
    let file = arg(&file);
    let mut shown = String::new();
    for format in ["human", "short", "json"] {
        let (code, out, err) = run(&["verify", "--format", format, file]);
        assert_eq!(code, 1, "{format}");
        let summary = err.lines().last().unwrap();
        assert!(summary.contains(": 0 valid, 0 illegal, 1 refuted, 0 syntax errors, 0 undecided; "), "{summary}");
        shown.push_str(&format!("--- {format}\n{}", out.replace(file, "refuted.txt")));
    }
    assert_eq!(json_lines(&shown[shown.find("--- json").unwrap() + 9..])[0]["status"].as_str(), Some("refuted"));
    insta::assert_snapshot!(shown);
}

#[test]
fn quiet_prints_only_the_records_that_are_not_valid() {
    for format in ["human", "json", "short"] {
        let (code, out, err) = run(&["verify", "-q", "--format", format, VALID, ILLEGAL]);
        assert_eq!(code, 1);
        assert!(!out.contains("random-seed-1.txt"), "{format}: {out}");
        assert!(out.contains("blog-page.txt"), "{format}: {out}");
        assert!(err.contains("referee: 3 records in 2 files: 1 valid, 2 illegal"), "{err}");
    }
    let (code, out, _) = run(&["verify", "--quiet", VALID]);
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn short_prints_a_line_per_problem_as_compilers_do() {
    let (code, out, _) = run(&["verify", "--format", "short", VALID, ILLEGAL, "no/such.txt"]);
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "samples/quadraphages/blog-page.txt:28:31: illegal: no O stone on d2",
            "samples/quadraphages/blog-page.txt:57:21: illegal: a 3-cell move after O announced 4",
            "no/such.txt: unreadable: cannot open: No such file or directory (os error 2)",
        ]
    );
    // A record with several problems gives several lines.
    let (_, out, _) = run(&["verify", "--format", "short", "--lenient", "samples/quadraphages/blog-game-sample.txt"]);
    assert!(out.lines().count() > 3, "{out}");
    assert!(out.lines().all(|l| l.starts_with("samples/quadraphages/blog-game-sample.txt:")), "{out}");
}

#[test]
fn colour_follows_the_flag_then_no_color_and_clicolor_force() {
    let colored = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = referee();
        cmd.args(["verify"]).args(args).arg(ILLEGAL);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let (_, out, _) = outcome(cmd.output().unwrap());
        out.contains('\x1b')
    };
    assert!(!colored(&[], &[]), "a pipe gets no colour");
    assert!(colored(&["--color", "always"], &[]));
    assert!(colored(&["--color", "always", "--format", "short"], &[]));
    assert!(!colored(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
    assert!(colored(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(!colored(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
    assert!(colored(&["--color", "always"], &[("NO_COLOR", "1")]), "the flag is the user's last word");
    assert!(!colored(&["--color", "always", "--format", "json"], &[]), "JSON is never coloured");
    let (_, plain, _) = run(&["verify", "--color", "never", ILLEGAL]);
    let (_, painted, _) = run(&["verify", "--color", "always", ILLEGAL]);
    assert!(painted.contains("(quadraphages, line 1): \x1b[1m\x1b[31millegal\x1b[0m (1 problem)"), "{painted}");
    assert!(plain.contains("(quadraphages, line 1): illegal (1 problem)"), "{plain}");
}

/// The keys of a JSON object, in the order written.
fn keys(object: &str) -> Vec<String> {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
            let mut keys = Vec::new();
            while let Some((k, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                keys.push(k);
            }
            Ok(keys)
        }
    }
    serde_json::Deserializer::from_str(object).deserialize_map(Keys).unwrap()
}

const RECORD_KEYS: [&str; 15] = [
    "schema",
    "file",
    "index",
    "line",
    "game",
    "status",
    "moves",
    "game_over",
    "winner",
    "score",
    "score_with_stones",
    "position",
    "errors",
    "claims",
    "notes",
];

#[test]
fn json_fields_come_in_the_documented_order() {
    let (_, out, _) =
        run(&["verify", "--format", "json", ILLEGAL, "samples/vadrantir/random-side-5.txt", "no/such.txt"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(keys(lines[0]), RECORD_KEYS);
    let without_stones: Vec<&str> = RECORD_KEYS.into_iter().filter(|k| *k != "score_with_stones").collect();
    assert_eq!(keys(lines[2]), without_stones, "score_with_stones only for Quadraphages and Hexaphages");
    assert_eq!(keys(lines[3]), without_stones);
    let error = serde_json::to_string(&json_lines(lines[0])[0]["errors"][0]).unwrap();
    let error_start = lines[0].find("\"errors\":[").unwrap() + "\"errors\":[".len();
    let error_text = &lines[0][error_start..error_start + error.len()];
    // `alternatives` only on an illegal move.
    assert_eq!(
        keys(error_text),
        ["kind", "line", "column", "token", "message", "rule", "legal", "legal_count", "alternatives"]
    );
    let alternative_start = error_text.find("\"alternatives\":[").unwrap() + "\"alternatives\":[".len();
    // The blog game's one alternative stops at a later token: its object ends with that place's.
    let alternative_end = alternative_start + error_text[alternative_start..].find("}}").unwrap() + 2;
    assert_eq!(keys(&error_text[alternative_start..alternative_end]), ["move", "replays_to_end", "stops_at"]);
    let claims_start = lines[0].find("\"claims\":[").unwrap() + "\"claims\":[".len();
    let claim_end = claims_start + lines[0][claims_start..].find('}').unwrap() + 1;
    assert_eq!(
        keys(&lines[0][claims_start..claim_end]),
        ["kind", "text", "status", "reason", "line", "column", "detail"]
    );

    let v = json_lines(&out);
    assert_eq!((v[0]["schema"].as_u64(), v[0]["line"].as_u64()), (Some(3), Some(1)));
    assert!(lines[0].contains("\"score\":{\"X\":6,\"O\":5}"), "turn order, whole numbers: {}", lines[0]);
    assert_eq!(v[2]["winner"].as_str(), Some("Black"));
    assert!(lines[2].contains("\"score\":{\"Black\":4.5,\"White\":1}"), "half points: {}", lines[2]);
    assert_eq!((v[3]["index"].as_u64(), v[3]["status"].as_str()), (Some(0), Some("unreadable")));
    assert_eq!(v[3]["errors"][0]["kind"].as_str(), Some("input"));
}

/// A claim judged against a lenient replay past violations says how many, last in its object;
/// other claims have no such key.
#[test]
fn json_claims_judged_past_violations_say_how_many() {
    let (_, out, _) = run(&["verify", "--format", "json", "--lenient", ILLEGAL]);
    let lines: Vec<&str> = out.lines().collect();
    let v = json_lines(&out);
    for (line, (record, accepted)) in lines.iter().zip([(&v[0], 6), (&v[1], 2)]) {
        for c in record["claims"].as_array().unwrap() {
            assert_eq!(c["violations_accepted"].as_u64(), Some(accepted), "{c}");
            assert_ne!(c["status"].as_str(), Some("unchecked"), "{c}");
            assert!(c["detail"].as_str().unwrap().starts_with(&format!("as replayed, past {accepted} violations: ")));
        }
        let claims_start = line.find("\"claims\":[").unwrap() + "\"claims\":[".len();
        let claim_end = claims_start + line[claims_start..].find('}').unwrap() + 1;
        assert_eq!(
            keys(&line[claims_start..claim_end]),
            ["kind", "text", "status", "reason", "line", "column", "detail", "violations_accepted"]
        );
    }
    let (_, strict, _) = run(&["verify", "--format", "json", ILLEGAL]);
    assert!(!strict.contains("violations_accepted"), "{strict}");
}

#[test]
fn a_record_of_an_unknown_game_says_so() {
    let src = "[Game \"Chess\"]\n\n1. e4 e5 *\n";
    let (_, out, _) = outcome(referee().args(["verify", "-"]).write_stdin(src).output().unwrap());
    assert!(out.starts_with("<stdin>: record 1 (unknown game, line 1): "), "{out}");
    let (_, out, _) = outcome(referee().args(["verify", "--format", "json", "-"]).write_stdin(src).output().unwrap());
    assert!(json_lines(&out)[0]["game"].is_null(), "{out}");
}

#[test]
fn an_error_past_column_70000_is_reported_where_it_is_and_later_files_are_verified() {
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("long.txt");
    std::fs::write(&long, format!("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 {}zz\n", " ".repeat(70_000))).unwrap();
    let (code, out, err) = run(&["verify", arg(&long), VALID]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.contains("long.txt:2:70026]"), "{out}");
    assert!(out.contains("random-seed-1.txt: record 1 (quadraphages, line 1): valid"), "{out}");
    let drawn = out.lines().find(|l| l.contains("zz") && l.contains('│')).unwrap();
    assert!(drawn.chars().count() < 200, "the line is drawn cut: {drawn}");
    let (_, out, _) = run(&["verify", "--format", "short", arg(&long)]);
    assert!(out.contains("long.txt:2:70026: syntax_error: `zz`"), "{out}");
}

/// Standard output as a pipe whose reading end is already closed.
#[cfg(unix)]
fn closed_pipe() -> std::process::Stdio {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    unsafe { libc::close(fds[0]) };
    std::process::Stdio::from(unsafe { std::fs::File::from_raw_fd(fds[1]) })
}

/// A file over a mebibyte is verified a window at a time, the next window read while one is
/// judged: an output that fails mid-file still ends the run, at once and quietly.
#[cfg(unix)]
#[test]
fn a_closed_or_full_output_ends_a_large_file_read_ahead_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.txt");
    let record = std::fs::read_to_string(VALID).unwrap();
    std::fs::write(&big, format!("{record}\n").repeat((3 << 20) / record.len() + 1)).unwrap();
    let args = ["verify", "--format", "json", big.to_str().unwrap()];
    ends_quietly_on_a_failed_output(&args);
    // Written to a file, every record of every window is there, once.
    let (code, out, _) = outcome(referee_process().args(args).output().unwrap());
    let records = referee::record::read(&std::fs::read_to_string(&big).unwrap(), None).count();
    assert_eq!((code, out.lines().count()), (0, records));
}

#[cfg(unix)]
#[test]
fn a_closed_or_full_output_ends_the_run_quietly() {
    let commands: [&[&str]; 9] = [
        &["verify", "samples/"],
        &["convert", "samples/quarod/random-size-4.txt", "--to", "json"],
        &["convert", "samples/petrify/random-size-10.txt", "--to", "canonical"],
        &["verify", "--format", "json", "samples/quarod"],
        &["show", VALID],
        &["random", "--game", "quarod", "--count", "3"],
        &["random", "--game", "quadraphages"],
        &["show", VALID, "--format", "png"],
        &["book", "samples/quarod", "-o", "-"],
    ];
    for args in commands {
        ends_quietly_on_a_failed_output(args);
    }
}

/// The command `args` into a closed pipe exits 0, into `/dev/full` 2 with a message: never a
/// panic.
#[cfg(unix)]
fn ends_quietly_on_a_failed_output(args: &[&str]) {
    let (code, _, err) = outcome(referee_process().args(args).stdout(closed_pipe()).output().unwrap());
    assert_eq!((code, err.contains("panicked")), (0, false), "{args:?} into a closed pipe: {err}");
    if std::path::Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let (code, _, err) = outcome(referee_process().args(args).stdout(full).output().unwrap());
        assert_eq!(code, 2, "{args:?} into /dev/full: {err}");
        assert!(!err.contains("panicked") && err.contains("cannot write to standard output"), "{args:?}: {err}");
    }
}

#[test]
fn random_writes_many_games_that_verify_and_reproduce_from_their_seeds() {
    for game in ["hexaphages", "petrify"] {
        let (code, out, _) = run(&["random", "--game", game, "--count", "3"]);
        assert_eq!(code, 0);
        let checked = referee().args(["verify", "--format", "json", "-"]).write_stdin(out.clone()).output().unwrap();
        let (code, json, _) = outcome(checked);
        assert_eq!(code, 0, "{json}");
        assert_eq!(json_lines(&json).len(), 3);
        // Each record carries its seed, and the seeds follow each other.
        let seeds: Vec<u64> = out
            .lines()
            .filter_map(|l| l.strip_prefix("Seed: ").or_else(|| l.strip_prefix("[Seed \"")?.strip_suffix("\"]")))
            .map(|s| s.parse().unwrap())
            .collect();
        assert_eq!(seeds.len(), 3, "{out}");
        assert_eq!((seeds[1], seeds[2]), (seeds[0] + 1, seeds[0] + 2));
        let (_, again, _) = run(&["random", "--game", game, "--seed", &seeds[0].to_string(), "--count", "3"]);
        assert_eq!(again, out);
        let (_, second, _) = run(&["random", "--game", game, "--seed", &seeds[1].to_string()]);
        assert!(out.contains(&format!("\n\n{second}")), "games are separated by a blank line");
    }
}

#[test]
fn random_out_writes_one_file_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("new/games");
    let (code, out, err) =
        run(&["random", "--game", "vadrantir", "--seed", "40", "--count", "3", "--out", arg(&folder)]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let mut files: Vec<String> =
        std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    files.sort();
    assert_eq!(files, ["vadrantir-40.txt", "vadrantir-41.txt", "vadrantir-42.txt"]);
    let (code, _, err) = run(&["verify", arg(&folder)]);
    assert_eq!(code, 0);
    assert!(err.contains("3 records in 3 files: 3 valid"), "{err}");
    let written = std::fs::read_to_string(folder.join("vadrantir-41.txt")).unwrap();
    assert_eq!(written, run(&["random", "--game", "vadrantir", "--seed", "41"]).1);
}

/// `position` is the code of where the replay ended: what `show --format code` prints, the last
/// position of a valid record, the one before the first illegal move of an illegal one.
#[test]
fn json_position_is_the_code_show_prints() {
    for file in [VALID, ILLEGAL, "samples/splinter/random-4-players.txt", "samples/quarod/random-size-4.txt"] {
        let (_, out, _) = run(&["verify", "--format", "json", file]);
        let line = &json_lines(&out)[0];
        let (_, shown, err) = run(&["show", file, "--format", "code"]);
        assert_eq!(line["position"].as_str(), Some(shown.trim_end()), "{file}: {err}");
    }
    // Nothing replayed, no position.
    let (_, out, _) = run(&["verify", "--format", "json", "samples/quadraphages/broken/syntax-bad-token.txt"]);
    assert!(json_lines(&out)[0]["position"].is_null(), "{out}");
}

/// `--format csv`: a header and one row per record or file problem, in the JSON lines' order, each
/// cell the JSON line's field (the first problem of the main line and the result claim standing
/// for the lists), quoted where a cell holds a comma, a quote or a line break.
#[test]
fn csv_rows_are_the_json_lines_fields() {
    let inputs = ["samples/", "no/such.txt", "Cargo.toml"];
    let (_, json, _) = run(&[&["verify", "--format", "json"][..], &inputs].concat());
    let (code, csv_text, _) = run(&[&["verify", "--format", "csv"][..], &inputs].concat());
    assert_eq!(code, 2);
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = reader.headers().expect("a header").iter().map(String::from).collect();
    assert_eq!(header, referee::report::CSV_COLUMNS);
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("a row")).collect();
    let lines = json_lines(&json);
    assert_eq!(rows.len(), lines.len());
    assert!(rows.len() > 90);
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    for (row, line) in rows.iter().zip(&lines) {
        let cell = |name: &str| row.get(header.iter().position(|h| h == name).expect(name)).expect(name).to_string();
        for field in ["file", "index", "line", "game", "status", "moves", "game_over", "winner", "position"] {
            assert_eq!(cell(field), text(&line[field]), "{field}: {line}");
        }
        let errors = line["errors"].as_array().expect("errors");
        assert_eq!(cell("problems"), errors.len().to_string());
        let first = errors.iter().find(|e| e.get("variation").is_none()).or(errors.first());
        for (column, field) in [("problem_kind", "kind"), ("problem_line", "line"), ("problem_column", "column")] {
            assert_eq!(cell(column), first.map(|e| text(&e[field])).unwrap_or_default(), "{line}");
        }
        for (column, field) in [("problem_token", "token"), ("problem_message", "message"), ("problem_rule", "rule")] {
            assert_eq!(cell(column), first.map(|e| text(&e[field])).unwrap_or_default(), "{line}");
        }
        let claim = line["claims"].as_array().expect("claims").iter().find(|c| c["kind"] == "result");
        assert_eq!(cell("claim"), claim.map(|c| text(&c["text"])).unwrap_or_default());
        assert_eq!(cell("claim_status"), claim.map(|c| text(&c["status"])).unwrap_or_default());
        let score: Vec<String> =
            line["score"].as_object().map(|o| o.iter().map(|(k, v)| format!("{k}={v}")).collect()).unwrap_or_default();
        // serde_json keeps the object's order (preserve_order is not on): compare as sets.
        let mut ours: Vec<String> = cell("score").split(';').filter(|s| !s.is_empty()).map(String::from).collect();
        let mut theirs = score;
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{line}");
    }
    // A message with a comma is one quoted cell.
    assert!(csv_text
        .contains(",\"this record moves 2 stones per phase on a hex board of side 5 where each side has 3 stones; "));
}
