//! The rules pages say exactly what the engines do. Every fenced block of a game's page
//! (`docs/rules/<game>.md`) is one of two things, and is checked as such:
//!
//! - a record of the game (```` ```text ````), which referee must read and replay without a
//!   problem: the pages show the notation with records that stand;
//! - a worked example (```` ```text example ... ````): its diagrams are compared with the engine's
//!   drawing of the example's position, and each figure it states (the verdict on a move, a score,
//!   a record's problem, note or claim) with what the engine computes.
//!
//! A score written in a page's prose (two numbers joined by an en dash) must be one that a worked
//! example of its section states, so that a figure cannot be stated where no test reads it. A
//! move an example refuses must break the rule of the section the example stands in. The
//! conventions are written in docs/rules/README.md, "Worked examples".

use std::cell::OnceCell;
use std::path::PathBuf;
use std::sync::Arc;

use referee::format::{Recorded, WithGame};
use referee::game::{BreaksRule, Engine, Rule};
use referee::games::{game_of, GameKind};
use referee::render::ascii::diagram;
use referee::repair::{repair_source, RepairOptions};
use referee::report::{short_lines, Source};
use referee::verdict::{ClaimCheck, ProblemKind, Verdict};
use referee::verify::{verify_source, VerifyOptions};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fenced block of a rules page.
struct Block {
    /// The page's file name, and the line of the opening fence (1-based), for messages.
    page: String,
    line: usize,
    /// The explicit anchor of the section the block stands in.
    section: String,
    /// The fence's info string: `text`, or `text example` and the example's setup.
    info: String,
    body: Vec<String>,
}

impl Block {
    fn at(&self) -> String {
        format!("docs/rules/{}:{}", self.page, self.line)
    }
}

/// A game's rules page: its fenced blocks, and the prose of each section (outside the blocks).
struct Page {
    name: String,
    game: GameKind,
    blocks: Vec<Block>,
    prose: Vec<(String, String)>,
}

/// Every rules page named after a game, read into blocks and prose.
fn pages() -> Vec<Page> {
    GameKind::ALL
        .into_iter()
        .map(|game| {
            let name = format!("{}.md", game.name());
            let text = std::fs::read_to_string(root().join("docs/rules").join(&name)).unwrap();
            let (blocks, prose) = read_page(&name, &text);
            Page { name, game, blocks, prose }
        })
        .collect()
}

fn read_page(name: &str, text: &str) -> (Vec<Block>, Vec<(String, String)>) {
    let mut blocks = Vec::new();
    let mut prose: Vec<(String, String)> = vec![(String::new(), String::new())];
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(block) = &mut open {
            match line.starts_with("```") {
                true => blocks.push(open.take().unwrap()),
                false => block.body.push(line.trim_end().to_string()),
            }
        } else if let Some(info) = line.strip_prefix("```") {
            let section = prose.last().unwrap().0.clone();
            open = Some(Block { page: name.into(), line: i + 1, section, info: info.trim().into(), body: Vec::new() });
        } else if let Some(id) = line.strip_prefix("<a id=\"").and_then(|rest| rest.split_once('"')) {
            prose.push((id.0.to_string(), String::new()));
        } else {
            let section = &mut prose.last_mut().unwrap().1;
            section.push_str(line);
            section.push('\n');
        }
    }
    assert!(open.is_none(), "{name}: a fenced block is not closed");
    (blocks, prose)
}

/// What a worked example starts from, as its info string says.
#[derive(Default, Debug)]
struct Setup {
    /// `code=CODE`: the position a position code gives.
    code: Option<String>,
    /// `size=N`, `players=N`: the empty start of that board (common format).
    size: Option<u8>,
    players: Option<u8>,
    /// `setup`: the start is the example's (first) diagram, read as a record's setup diagram.
    from_diagram: bool,
    /// `moves=a,b`: moves played from the start before the (first) diagram.
    moves: Vec<String>,
    /// `record=PATH` (`lenient`: replayed leniently): the figures are about that sample record.
    record: Option<(String, bool)>,
    /// `cells`: the block draws the board's cell names.
    cells: bool,
}

fn setup(info: &str) -> Result<Setup, String> {
    let mut s = Setup::default();
    let mut lenient = false;
    for word in info.split_whitespace().skip(2) {
        match word.split_once('=') {
            Some(("code", v)) => s.code = Some(v.into()),
            Some(("size", v)) => s.size = Some(v.parse().map_err(|_| format!("size={v}"))?),
            Some(("players", v)) => s.players = Some(v.parse().map_err(|_| format!("players={v}"))?),
            Some(("moves", v)) => s.moves = v.split(',').map(String::from).collect(),
            Some(("record", v)) => s.record = Some((v.into(), false)),
            None if word == "setup" => s.from_diagram = true,
            None if word == "lenient" => lenient = true,
            None if word == "cells" => s.cells = true,
            _ => return Err(format!("`{word}` is no setup of a worked example")),
        }
    }
    if let Some(record) = &mut s.record {
        record.1 = lenient;
    }
    Ok(s)
}

/// The statements of a block: its lines from `from`, a line that starts with blanks continuing the
/// one before (so that a long figure fits the page).
fn statements(body: &[String], from: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in body.iter().skip(from).filter(|l| !l.is_empty()) {
        match (line.starts_with(' '), out.last_mut()) {
            (true, Some(last)) => {
                last.push(' ');
                last.push_str(line.trim());
            }
            _ => out.push(line.clone()),
        }
    }
    out
}

/// The diagrams of a position example, as the page draws them.
struct Drawn {
    /// The (first) diagram.
    before: Vec<String>,
    /// A second diagram beside it, drawn after a move, and the move.
    after: Option<(String, Vec<String>)>,
    /// The line after the diagrams.
    end: usize,
}

/// The diagrams of a position example: its lines up to the first blank line. A first line
/// `before ... after MOVE` holds two diagrams side by side, the second drawn after MOVE.
fn diagrams(body: &[String]) -> Drawn {
    let end = body.iter().position(|l| l.is_empty()).unwrap_or(body.len());
    let drawn = &body[..end];
    let Some(header) = drawn.first().filter(|h| h.starts_with("before")) else {
        return Drawn { before: drawn.to_vec(), after: None, end };
    };
    let split = header.find("after").expect("a `before` diagram with an `after MOVE` one");
    let after_move = header[split..].trim_start_matches("after").trim().to_string();
    let half = |l: &String, left: bool| match left {
        true => l.get(..split).unwrap_or(l).trim_end().to_string(),
        false => l.get(split..).unwrap_or("").trim_end().to_string(),
    };
    let before = drawn[1..].iter().map(|l| half(l, true)).collect();
    let after = drawn[1..].iter().map(|l| half(l, false)).collect();
    Drawn { before, after: Some((after_move, after)), end }
}

/// Whether the lines a page draws are the engine's drawing: its first line (the column letters)
/// and then any of its rows, in order; a page may leave out rows that say nothing (empty ones).
fn same_drawing(page: &[String], engine: &str) -> Result<(), String> {
    let lines: Vec<&str> = engine.lines().map(str::trim_end).collect();
    let mut rest = lines.iter();
    let found = page.first().map(String::as_str) == lines.first().copied() && page.iter().all(|l| rest.any(|e| e == l));
    match found {
        true => Ok(()),
        false => Err(format!("the page draws\n{}\nwhere the engine draws\n{engine}", page.join("\n"))),
    }
}

/// The record text that starts a common-format or published game as `s` says, for the position
/// code `verify` gives where it ends.
fn start_record(game: GameKind, s: &Setup, first_diagram: &[String]) -> String {
    let about = game.about();
    if about.format == referee::game::Format::Published {
        assert!(s.size.is_none() && s.players.is_none() && !s.from_diagram, "a published game starts from a code");
        return format!("{}\n_xx_ _oo_\n1. .... ....\n", about.title.to_uppercase());
    }
    let mut text = format!("[Game \"{}\"]\n", about.title);
    if let Some(size) = s.size {
        text.push_str(&format!("[Size \"{size}\"]\n"));
    }
    if let Some(players) = s.players {
        text.push_str(&format!("[Players \"{players}\"]\n"));
    }
    if s.from_diagram {
        text.push_str(&format!("Setup:\n{}\n", first_diagram.join("\n")));
    }
    text + "\n*\n"
}

/// The position code where `text`'s one record ends; it must replay without a problem.
fn code_of_record(text: &str) -> Result<String, String> {
    let verdicts = verify_source(text, VerifyOptions::default());
    let [v] = verdicts.as_slice() else { return Err(format!("{} records in\n{text}", verdicts.len())) };
    let problems: Vec<&str> = v.problems.iter().map(|p| p.message.as_str()).collect();
    match (&v.position, problems.is_empty()) {
        (Some(code), true) => Ok(code.clone()),
        _ => Err(format!("the example's start does not stand: {problems:?}\n{text}")),
    }
}

/// A Quadraphages or Hexaphages code with the number in force set to `n`: the third field is the
/// side to move, the phase, the number and `f` in the first turn (grammar.md, Part V).
fn with_number(code: &str, n: u8) -> Result<String, String> {
    let mut fields: Vec<String> = code.split('_').map(String::from).collect();
    if !matches!(fields[0].as_str(), "quadraphages" | "hexaphages") || fields.len() < 3 {
        return Err(format!(
            "`with N,` sets the number in force of a Quadraphages or Hexaphages position, not of {code}"
        ));
    }
    let turn = &fields[2];
    let first_turn = if turn.ends_with('f') { "f" } else { "" };
    fields[2] = format!("{}{n}{first_turn}", &turn[..2]);
    Ok(fields.join("_"))
}

/// A worked example set in a position: its diagrams and its statements, checked with the engine.
struct PositionExample<'b> {
    block: &'b Block,
    code: String,
    moves: &'b [String],
    before: Vec<String>,
    after: Option<(String, Vec<String>)>,
    statements: Vec<String>,
}

impl WithGame for PositionExample<'_> {
    type Output = Result<usize, String>;

    fn run<G: Recorded>(self, _: &'static referee::game::About) -> Result<usize, String> {
        let mut pos = G::from_code(&self.code).map_err(|e| format!("{}: {e}", self.code))?;
        for m in self.moves {
            play(&mut pos, m)?;
        }
        same_drawing(&self.before, &diagram(&pos))?;
        let mut checked = 1;
        if let Some((m, after)) = &self.after {
            play(&mut pos, m)?;
            same_drawing(after, &diagram(&pos))?;
            checked += 1;
        }
        for statement in &self.statements {
            match statement.strip_prefix("with ").and_then(|s| s.split_once(", ")) {
                Some((n, rest)) => {
                    let n = n.parse().map_err(|_| format!("`with {n},` needs a number"))?;
                    let numbered = G::from_code(&with_number(&pos.code(), n)?).map_err(|e| e.to_string())?;
                    self.check(&numbered, rest)?;
                }
                None => self.check(&pos, statement)?,
            }
            checked += 1;
        }
        Ok(checked)
    }
}

impl PositionExample<'_> {
    /// `score: TEXT`: the score where the position stands, as reports print it; `MOVE: legal`;
    /// `MOVE: MESSAGE`: the engine's reason for refusing it, which must name the rule of the
    /// section the example stands in.
    fn check<G: Engine>(&self, pos: &G, statement: &str) -> Result<(), String> {
        let (what, stated) = statement.split_once(": ").ok_or_else(|| format!("`{statement}` states nothing"))?;
        let engine = match what {
            "score" => pos.score().to_string(),
            m => match judge(pos, m)? {
                Judged::Legal => "legal".to_string(),
                Judged::Refused(message, rule) => {
                    let anchor = Rule::of(pos.about(), rule).anchor();
                    if anchor != self.block.section && message == stated {
                        return Err(format!(
                            "{m} breaks the rule of #{anchor}, but its example stands under #{}",
                            self.block.section
                        ));
                    }
                    message
                }
            },
        };
        match engine == stated {
            true => Ok(()),
            false => Err(format!("the page says `{what}: {stated}`, the engine `{what}: {engine}`")),
        }
    }
}

/// Reads and plays a move the example says is played; it must be legal.
fn play<G: Engine>(pos: &mut G, text: &str) -> Result<(), String> {
    let m = G::parse_move(text).map_err(|e| format!("{text}: {e}"))?;
    let m = pos.resolve(m).map_err(|e| format!("{text}: {e}"))?;
    pos.play(m).map_err(|e| format!("{text}: {e}"))
}

/// What the engine says of a written move here.
enum Judged {
    Legal,
    /// Refused: why, and the rule it breaks.
    Refused(String, &'static str),
}

/// Whether a written move is legal here, or why not. `Err` when it is no move of the notation.
fn judge<G: Engine>(pos: &G, text: &str) -> Result<Judged, String> {
    let written = G::parse_move(text).map_err(|e| format!("{text}: {e}"))?;
    let checked = pos.resolve(written).and_then(|m| pos.check(m));
    Ok(checked.map_or_else(|e| Judged::Refused(e.to_string(), e.rule()), |()| Judged::Legal))
}

/// The line the human report prints for a claim, without the search's count, which says how the
/// engine found the figure rather than what it is: `claim `TEXT`: STATUS: DETAIL`.
fn claim_line(c: &ClaimCheck) -> String {
    let detail = match c.detail.rsplit_once(" (") {
        Some((rest, tail)) if tail.ends_with("searched)") || tail == "no search needed)" => rest,
        _ => &c.detail,
    };
    format!("claim `{}`: {}: {detail}", c.text, c.status.name())
}

/// A worked example about a sample record: its statements, checked against `verify` (leniently
/// when the example says so) and against its best repair.
fn check_record(block: &Block, path: &str, lenient: bool, game: GameKind) -> Result<usize, String> {
    let text = std::fs::read_to_string(root().join(path)).map_err(|e| format!("{path}: {e}"))?;
    let verdicts = verify_source(&text, VerifyOptions { lenient, ..VerifyOptions::default() });
    let [v] = verdicts.as_slice() else { return Err(format!("{path} holds {} records, not one", verdicts.len())) };
    if v.game.map(|a| a.name) != Some(game.name()) {
        return Err(format!("{path} is not a record of {}", game.title()));
    }
    let source = Source::new(path, Arc::new(text.clone()));
    let shorts = short_lines(&source, v, false);
    // Repaired once, when a statement is about the repair: it searches.
    let best = OnceCell::new();
    let repaired = || {
        let found = best.get_or_init(|| {
            let options = RepairOptions { time_limit: None, ..RepairOptions::default() };
            let records = repair_source(&text, VerifyOptions::default(), options, None).map_err(|e| e.to_string())?;
            let best = records[0].search.as_ref().and_then(|s| s.candidates.first().cloned());
            best.ok_or_else(|| format!("{path}: no repair found"))
        });
        found.as_ref().map_err(Clone::clone)
    };
    let statements = statements(&block.body, 0);
    for statement in &statements {
        let (holds, said) = if let Some(note) = statement.strip_prefix("note: ") {
            (v.notes.iter().any(|n| n == note), format!("notes: {:?}", v.notes))
        } else if statement.starts_with("claim ") {
            let claims: Vec<String> = v.claims.iter().map(claim_line).collect();
            (claims.contains(statement), claims.join("\n"))
        } else if let Some(said) = statement.strip_prefix("repaired, ") {
            let best = repaired()?;
            let claims: Vec<String> = best.claims.iter().map(claim_line).collect();
            let score = format!("score: {}", best.score);
            let holds = (best.replays_to_end && said == score) || claims.iter().any(|c| c == said);
            (holds, format!("repaired, replaying to the end: {}, {score}\n{}", best.replays_to_end, claims.join("\n")))
        } else {
            let problem =
                shorts.lines().any(|l| l.strip_prefix(path).and_then(|l| l.strip_prefix(':')) == Some(statement));
            (problem && links_a_heading(v, statement)?, shorts.clone())
        };
        if !holds {
            return Err(format!("{path}: the page says `{statement}`; referee says\n{said}"));
        }
    }
    Ok(statements.len())
}

/// The illegal move a record's problem line names links to a section heading of its game's page.
fn links_a_heading(v: &Verdict, line: &str) -> Result<bool, String> {
    let Some(rule) = v.problems.iter().filter(|p| p.kind == ProblemKind::Illegal).find_map(|p| p.rule) else {
        return Ok(true);
    };
    let page = std::fs::read_to_string(root().join(rule.to_string().split('#').next().unwrap())).unwrap();
    match page.contains(&format!("<a id=\"{}\"></a>\n#", rule.anchor())) {
        true => Ok(true),
        false => Err(format!("`{line}` links to {rule}, which is no heading")),
    }
}

/// The cell names a page draws for a board: each row's labels, each at twice its column's index.
fn check_cells(block: &Block, game: GameKind, s: &Setup) -> Result<usize, String> {
    let code = code_of_record(&start_record(game, s, &[]))?;
    struct BoardOf(String);
    impl WithGame for BoardOf {
        type Output = Result<referee::geometry::Geometry, String>;
        fn run<G: Recorded>(self, _: &'static referee::game::About) -> Self::Output {
            G::from_code(&self.0).map(|p| p.geometry()).map_err(|e| e.to_string())
        }
    }
    let g = game.with_game(BoardOf(code))?;
    let drawn: Vec<String> = (0..g.height())
        .map(|row| {
            let mut line = String::new();
            for c in g.row_cells(row) {
                let label = g.label(c);
                line.push_str(&" ".repeat(2 * label.col as usize - line.len()));
                line.push_str(&label.to_string());
            }
            line
        })
        .collect();
    match drawn == block.body {
        true => Ok(drawn.len()),
        false => {
            Err(format!("the page draws\n{}\nwhere the board's cells are\n{}", block.body.join("\n"), drawn.join("\n")))
        }
    }
}

/// Checks one worked example; how many of its diagrams and statements were compared.
fn check_example(block: &Block, game: GameKind) -> Result<usize, String> {
    let s = setup(&block.info)?;
    if let Some((path, lenient)) = &s.record {
        return check_record(block, path, *lenient, game);
    }
    if s.cells {
        return check_cells(block, game, &s);
    }
    let Drawn { before, after, end } = diagrams(&block.body);
    let code = match &s.code {
        Some(code) => code.clone(),
        None => code_of_record(&start_record(game, &s, &before))?,
    };
    if game_of(&code).map_err(|e| e.to_string())? != game {
        return Err(format!("{code} is not a position of {}", game.title()));
    }
    if s.from_diagram && !s.moves.is_empty() {
        return Err("`setup` draws the start, so no move comes before it".into());
    }
    let example =
        PositionExample { block, code, moves: &s.moves, before, after, statements: statements(&block.body, end) };
    game.with_game(example)
}

/// A block that is no worked example shows the notation: a record of the page's game that stands.
fn check_record_block(block: &Block, game: GameKind) -> Result<usize, String> {
    let text = block.body.join("\n") + "\n";
    let verdicts = verify_source(&text, VerifyOptions::default());
    if verdicts.is_empty() {
        return Err("neither a worked example (```text example) nor a record".into());
    }
    for v in &verdicts {
        if v.game.map(|a| a.name) != Some(game.name()) {
            return Err(format!("a record of {:?}, on the page of {}", v.game.map(|a| a.name), game.title()));
        }
        if let Some(p) = v.problems.first() {
            return Err(format!("the record does not stand: {}", p.message));
        }
    }
    Ok(verdicts.len())
}

/// The pairs of numbers next to each other in a line: `X 37 O 35` gives (37, 35).
fn number_pairs(line: &str) -> Vec<(u32, u32)> {
    let numbers: Vec<u32> = line.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    numbers.windows(2).map(|w| (w[0], w[1])).collect()
}

/// The scores a section's prose writes (`38–37`), outside code spans.
fn prose_scores(prose: &str) -> Vec<(u32, u32)> {
    let outside_code: String = prose.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let mut scores = Vec::new();
    for (i, _) in outside_code.match_indices('–') {
        let before: String = outside_code[..i].chars().rev().take_while(char::is_ascii_digit).collect();
        let after: String = outside_code[i + '–'.len_utf8()..].chars().take_while(char::is_ascii_digit).collect();
        if let (Ok(a), Ok(b)) = (before.chars().rev().collect::<String>().parse(), after.parse()) {
            scores.push((a, b));
        }
    }
    scores
}

#[test]
fn every_worked_example_of_the_rules_pages_is_what_the_engine_computes() {
    let mut failures = Vec::new();
    let (mut examples, mut figures) = (0, 0);
    for page in pages() {
        for block in &page.blocks {
            let result = match block.info.as_str() {
                "text" => check_record_block(block, page.game),
                info if info.starts_with("text example") => {
                    examples += 1;
                    check_example(block, page.game)
                }
                info => Err(format!(
                    "```{info}: a rules page's block is a record (```text) or a worked example (```text example)"
                )),
            };
            match result {
                Ok(n) => figures += n,
                Err(why) => failures.push(format!("{}: {why}", block.at())),
            }
        }
        assert!(!page.blocks.is_empty(), "{} has no block", page.name);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The pages' examples, and the figures they state: the loops met them.
    assert!(examples >= 17 && figures >= 45, "{examples} examples, {figures} figures");
}

#[test]
fn a_score_in_a_rules_pages_prose_is_one_its_sections_examples_state() {
    let mut seen = 0;
    for page in pages() {
        for (section, prose) in &page.prose {
            let stated: Vec<(u32, u32)> = page
                .blocks
                .iter()
                .filter(|b| &b.section == section && b.info.starts_with("text example"))
                .flat_map(|b| statements(&b.body, 0))
                .flat_map(|s| number_pairs(&s))
                .collect();
            for (a, b) in prose_scores(prose) {
                assert!(
                    stated.contains(&(a, b)),
                    "docs/rules/{}#{section} writes {a}–{b}, which no worked example of the section states",
                    page.name
                );
                seen += 1;
            }
        }
    }
    // The blog's game in quadraphages.md#quadraphages-score gives its final count in prose.
    assert!(seen >= 1, "{seen} scores in prose");
}

/// The readers the two tests above rely on: a block's statements, diagrams side by side, scores
/// in prose, the number in force set in a code.
#[test]
fn the_example_readers_read_what_the_pages_write() {
    let body: Vec<String> =
        ["before    after a2b2", "a  b      a  b", "1K ..     .. 1K", "", "x: y", "  z"].map(String::from).to_vec();
    let drawn = diagrams(&body);
    assert_eq!(drawn.before, ["a  b", "1K .."]);
    assert_eq!(drawn.after, Some(("a2b2".to_string(), vec!["a  b".to_string(), ".. 1K".to_string()])));
    assert_eq!(statements(&body, drawn.end), ["x: y z"]);
    assert_eq!(prose_scores("X 37, 39–37 with stones; `40–39` in code; 1 to 8"), [(39, 37)]);
    assert_eq!(number_pairs("X 37 O 35 marked cells (X 39"), [(37, 35), (35, 39)]);
    assert_eq!(with_number("quadraphages_9/9_xa3_c2-g2", 5).unwrap(), "quadraphages_9/9_xa5_c2-g2");
    assert_eq!(with_number("hexaphages_4/5_xb0f_d3-g2", 2).unwrap(), "hexaphages_4/5_xb2f_d3-g2");
    assert!(with_number("quarod_4/4/4/4_b_0_0_-_-", 2).is_err());
    assert!(setup("text example size=4 moves=a1b1,c1d1").is_ok_and(|s| s.size == Some(4) && s.moves.len() == 2));
    assert!(setup("text example sized=4").is_err());
    assert!(same_drawing(&["a b".into(), ". X 2.".into()], "a b\n. . 1.\n. X 2.\n").is_ok());
    assert!(same_drawing(&["a b".into(), ". O 2.".into()], "a b\n. . 1.\n. X 2.\n").is_err());
}
