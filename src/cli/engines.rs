//! `referee suite`, `referee conformance` and `referee match`: referee as the judge of engines
//! that speak the protocol (docs/protocol.md). The work is the library's ([`crate::protocol`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use crate::game::About;
use crate::judge::Games;
use crate::protocol::conformance::{Checked, Conformance, Status};
use crate::protocol::suite::{read_suite, suite_of, write_suite, Entry};

use super::file::{self, Name};
use super::out::{note, Out};
use super::GameParser;

pub const CONFORMANCE_EXIT_CODES: &str = "\
Exit codes:
  0  the engine agrees with referee on every entry run
  1  it differs on some entry, or failed on it (crashed, did not answer in time, answered nonsense)
  2  the run could not do its job: the engine could not be started or did not greet (rgp), a suite
     could not be read, or a usage error";

#[derive(Args, Debug)]
pub struct SuiteArgs {
    /// Only this game's suite; default: every game's.
    #[arg(long, value_parser = GameParser)]
    game: Option<&'static About>,
    /// Write each game's suite to DIR/<game>.suite (the folder created if missing, a suite there
    /// replaced) rather than to standard output.
    #[arg(short, long, value_name = "DIR")]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ConformanceArgs {
    /// The engine to check: a command line, split into words as a shell splits them
    /// (`--engine "python3 my_engine.py --fast"`).
    #[arg(long, value_name = "CMD")]
    engine: String,
    /// Only this game's suite; default: every game's (an engine that plays one game wants this).
    #[arg(long, value_parser = GameParser)]
    game: Option<&'static About>,
    /// Read the suites from this folder (`<game>.suite` each, as `referee suite -o DIR` writes them)
    /// rather than make them: the same suites, unless the folder's were edited.
    #[arg(long, value_name = "DIR")]
    suite: Option<PathBuf>,
    /// Ask the perft counts of each position only this deep.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: Option<u32>,
    /// The longest wait for any one answer of the engine, in seconds; an engine that takes longer
    /// fails the entry and is started again.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    timeout: f64,
    /// human: a line per game, and each difference with the position where it is; json: one JSON
    /// object per entry per line (docs/protocol.md).
    #[arg(long, value_enum, default_value_t = Shown::Human)]
    format: Shown,
    /// Print every entry, the passed ones too (human format).
    #[arg(short, long)]
    verbose: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum Shown {
    Human,
    Json,
}

/// The games a command is about: the one `--game` names, or all of them.
fn chosen<S: Games>(games: S, game: Option<&'static About>) -> Vec<&'static About> {
    match game {
        Some(g) => vec![g],
        None => games.abouts(),
    }
}

pub fn suite<S: Games>(args: SuiteArgs, games: S) -> ExitCode {
    let mut out = Out::new();
    for game in chosen(games, args.game) {
        let text = match suite_of(games, game) {
            Ok(entries) => write_suite(game, &entries),
            Err(why) => {
                note(&format!("{}: no suite: {why}", game.name));
                return ExitCode::from(2);
            }
        };
        match &args.out {
            Some(dir) => {
                if let Err(e) = std::fs::create_dir_all(dir) {
                    note(&format!("{}: cannot create the folder: {e}", dir.display()));
                    return ExitCode::from(2);
                }
                let path = dir.join(format!("{}.suite", game.name));
                let code = file::write_file(&path, Path::new("-"), text.as_bytes(), Name::MadeUp);
                if code != ExitCode::SUCCESS {
                    return code;
                }
                note(&format!("{}: {} positions", path.display(), text.matches("\nid ").count()));
            }
            None => {
                if let Err(closed) = out.write(&text) {
                    return closed.exit_code();
                }
            }
        }
    }
    out.flush().map_or_else(|closed| closed.exit_code(), |()| ExitCode::SUCCESS)
}

/// The words of a command line, as a shell splits them; `Err` for an unclosed quote.
pub fn command_words(command: &str) -> Result<Vec<String>, String> {
    match shlex::split(command) {
        Some(words) if !words.is_empty() => Ok(words),
        Some(_) => Err("the engine's command is empty".into()),
        None => Err(format!("`{command}` is not a command line: a quote is not closed")),
    }
}

/// How long an answer may take, from a number of seconds.
pub fn wait_of(seconds: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("a time is a number of seconds above 0, not {seconds}"))
}

pub fn conformance<S: Games>(args: ConformanceArgs, games: S) -> ExitCode {
    let fail = |message: String| {
        note(&message);
        ExitCode::from(2)
    };
    let argv = match command_words(&args.engine) {
        Ok(argv) => argv,
        Err(why) => return fail(why),
    };
    let wait = match wait_of(args.timeout) {
        Ok(w) => w,
        Err(why) => return fail(why),
    };
    // The engine first: one that does not start is said at once, before the suites are made.
    let mut run = match Conformance::start(games, argv, wait) {
        Ok(run) => run,
        Err(fault) => return fail(format!("{}: {fault}", args.engine)),
    };
    let mut suites: Vec<(&'static About, Vec<Entry>)> = Vec::new();
    for game in chosen(games, args.game) {
        let entries = match &args.suite {
            Some(dir) => {
                let path = dir.join(format!("{}.suite", game.name));
                match std::fs::read_to_string(&path) {
                    Ok(text) => read_suite(&text).map_err(|e| format!("{}: {e}", path.display())),
                    // Without --game, a folder may hold the suites of some games only.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound && args.game.is_none() => continue,
                    Err(e) => Err(format!("{}: {e}", path.display())),
                }
            }
            None => suite_of(games, game),
        };
        match entries {
            Ok(entries) => suites.push((game, entries)),
            Err(why) => return fail(why),
        }
    }
    run.depth = args.depth;
    let mut out = Out::new();
    let (name, author) = run.engine();
    if args.format == Shown::Human {
        let by = author.map(|a| format!(" by {a}")).unwrap_or_default();
        let said = format!("{}{by}: {}\n", name.unwrap_or("an engine that gave no name"), args.engine);
        if let Err(closed) = out.write(&said) {
            return closed.exit_code();
        }
    }
    let mut failed = 0;
    let mut totals = (0, 0, 0, 0);
    // An engine that fails this many positions in a row is not asked the rest.
    const FAULTS_IN_A_ROW: usize = 3;
    let mut in_a_row = 0;
    'games: for (game, entries) in &suites {
        let mut counts = (0, 0, 0, 0);
        for entry in entries {
            if in_a_row == FAULTS_IN_A_ROW {
                let text =
                    format!("stopped: the engine failed {FAULTS_IN_A_ROW} positions in a row; the rest were not run\n");
                let text = if args.format == Shown::Json {
                    serde_json::json!({"stopped": text.trim_end()}).to_string() + "\n"
                } else {
                    text
                };
                if let Err(closed) = out.write(&text) {
                    return closed.exit_code();
                }
                failed += counts.1 + counts.2;
                break 'games;
            }
            let checked = run.check(game.name, entry);
            match &checked.status {
                Status::Passed => counts.0 += 1,
                Status::Differs(_) => counts.1 += 1,
                Status::Fault { .. } => counts.2 += 1,
                Status::Skipped { .. } => counts.3 += 1,
            }
            in_a_row = if matches!(checked.status, Status::Fault { .. }) { in_a_row + 1 } else { 0 };
            let text = match args.format {
                Shown::Json => serde_json::to_string(&checked).map(|j| j + "\n").unwrap_or_default(),
                Shown::Human => said(&checked, args.verbose),
            };
            if let Err(closed) = out.write(&text) {
                return closed.exit_code();
            }
        }
        failed += counts.1 + counts.2;
        totals = (totals.0 + counts.0, totals.1 + counts.1, totals.2 + counts.2, totals.3 + counts.3);
        if args.format == Shown::Human {
            if let Err(closed) = out.write(&format!("{}: {}\n", game.name, tally(counts))) {
                return closed.exit_code();
            }
        }
    }
    if args.format == Shown::Human && suites.len() > 1 {
        if let Err(closed) = out.write(&format!("all games: {}\n", tally(totals))) {
            return closed.exit_code();
        }
    }
    if let Err(closed) = out.flush() {
        return closed.exit_code();
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `52 positions: 51 passed, 1 differs`.
fn tally((passed, differ, faults, skipped): (usize, usize, usize, usize)) -> String {
    let mut parts = vec![format!("{passed} passed")];
    if differ > 0 {
        parts.push(format!("{differ} differ{}", if differ == 1 { "s" } else { "" }));
    }
    if faults > 0 {
        parts.push(format!("{faults} failed"));
    }
    if skipped > 0 {
        parts.push(format!("{skipped} skipped"));
    }
    let n = passed + differ + faults + skipped;
    format!("{n} position{}: {}", if n == 1 { "" } else { "s" }, parts.join(", "))
}

/// An entry in words, for a person: nothing for one that passed unless `verbose`.
fn said(checked: &Checked, verbose: bool) -> String {
    let name = format!("{} {}", checked.game, checked.id);
    match &checked.status {
        Status::Passed if verbose => format!("ok      {name}\n"),
        Status::Passed => String::new(),
        Status::Skipped { why } => format!("skipped {name}: {why}\n"),
        Status::Fault { fault } => format!("FAILED  {name}: {fault}\n"),
        Status::Differs(d) => {
            let list = |moves: &[String]| if moves.is_empty() { "none".to_string() } else { moves.join(" ") };
            let mut text = format!("DIFFERS {name}: {}\n", d.what);
            text += &format!("        at the position: position {}\n", d.position);
            if !d.code.is_empty() {
                text += &format!("        its code: {}\n", d.code);
            }
            if !d.only_referee.is_empty() || !d.only_engine.is_empty() {
                text += &format!("        moves only referee has: {}\n", list(&d.only_referee));
                text += &format!("        moves only the engine has: {}\n", list(&d.only_engine));
            }
            text
        }
    }
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine: a command line, split into words as a shell splits them. Two to four (Splinter
    /// Quad) engines; give the same command twice to play an engine against itself.
    #[arg(long = "engine", value_name = "CMD", required = true)]
    engines: Vec<String>,
    /// The game to play.
    #[arg(long, value_parser = GameParser)]
    game: &'static About,
    /// Board sizes, comma-separated, taken in turn game after game; default: the game's.
    #[arg(long, value_delimiter = ',', value_name = "N,...")]
    size: Vec<u8>,
    /// Player counts, comma-separated, taken in turn (splinter: 2 to 4); default: the game's.
    #[arg(long, value_delimiter = ',', value_name = "N,...")]
    players: Vec<u8>,
    /// How many games.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    games: u64,
    /// The time an engine has for a move, in milliseconds (`go movetime MS`).
    #[arg(long, default_value_t = 100, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: u64,
    /// How much later than --movetime an answer may come, in milliseconds, before the engine
    /// forfeits the game on time.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    margin: u64,
    /// Games played at once.
    #[arg(short = 'j', long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    /// The folder the records go to, one file per game (`<game>-<N>.txt`) as each ends, and the
    /// crosstable (`crosstable`, no extension: `referee verify DIR` reads the records only) at the end; created if missing. A file there is never
    /// overwritten: a folder holding a match's records already is refused.
    #[arg(short, long, value_name = "DIR")]
    out: PathBuf,
}

pub const MATCH_EXIT_CODES: &str = "\
Exit codes:
  0  every game was played and written (forfeits included)
  2  the match could not be played: an engine did not start, a record could not be written, or a
     usage error";

pub fn play_match<S: Games>(args: MatchArgs, games: S) -> ExitCode {
    use crate::protocol::matches::{crosstable, play, tally, Pairing, Rules, Standing};
    let fail = |message: String| {
        note(&message);
        ExitCode::from(2)
    };
    let game = args.game;
    if !(2..=4).contains(&args.engines.len()) {
        return fail(format!("a match takes two to four engines, not {}", args.engines.len()));
    }
    let mut engines = Vec::new();
    for command in &args.engines {
        match command_words(command) {
            Ok(argv) => engines.push(argv),
            Err(why) => return fail(why),
        }
    }
    let sizes: Vec<Option<u8>> =
        if args.size.is_empty() { vec![None] } else { args.size.iter().map(|&s| Some(s)).collect() };
    let counts: Vec<Option<u8>> =
        if args.players.is_empty() { vec![None] } else { args.players.iter().map(|&p| Some(p)).collect() };
    // Every board and player count the match rotates through, checked before any game.
    let mut boards = Vec::new();
    for &players in &counts {
        for &size in &sizes {
            match crate::protocol::held_start(games, game.name, size, players) {
                Ok(held) => boards.push((size, players, held.players())),
                Err(why) => return fail(format!("{}: {why}", game.name)),
            }
        }
    }
    let rules = Rules {
        game,
        engines,
        names: args.engines.clone(),
        movetime: Duration::from_millis(args.movetime),
        margin: Duration::from_millis(args.margin),
    };
    // Each board is played as many times in a row as there are engines, the seats turned by one
    // each time, so that every engine sits in every seat of every board equally often.
    let e = rules.engines.len();
    let pairing = |k: usize| {
        let (size, players, seats) = boards[(k / e) % boards.len()];
        Pairing { number: k + 1, size, players, seats: (0..seats).map(|s| (s + k) % e).collect() }
    };
    let total = args.games as usize;
    let width = total.to_string().len().max(3);
    let file = |k: usize| args.out.join(format!("{}-{:0width$}.txt", game.name, k));
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        return fail(format!("{}: cannot create the folder: {e}", args.out.display()));
    }
    if let Some(there) = (1..=total).map(file).chain([args.out.join("crosstable")]).find(|p| p.exists()) {
        return fail(format!("{} exists already: the folder holds a match; give another -o", there.display()));
    }
    // Each engine greets before the match starts: one that cannot play stops it at once.
    for (argv, name) in rules.engines.iter().zip(&rules.names) {
        if let Err(fault) = crate::protocol::client::Client::start(argv, Duration::from_secs(10)) {
            return fail(format!("{name}: {fault}"));
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, finished) = std::sync::mpsc::channel();
    let mut standings = vec![Standing::default(); e];
    let mut failed = None;
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.min(args.games as u16) {
            let send = send.clone();
            let (next, rules, pairing) = (&next, &rules, &pairing);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if k >= total {
                    return;
                }
                if send.send(play(games, rules, pairing(k))).is_err() {
                    return;
                }
            });
        }
        drop(send);
        let mut done = 0;
        for played in finished {
            let played = match played {
                Ok(p) => p,
                Err(why) => {
                    failed.get_or_insert(why);
                    next.store(total, std::sync::atomic::Ordering::Relaxed);
                    continue;
                }
            };
            if failed.is_some() {
                continue;
            }
            done += 1;
            let path = file(played.pairing.number);
            if let Err(why) = file::create_new(&path, played.record.as_bytes()) {
                failed = Some(why);
                next.store(total, std::sync::atomic::Ordering::Relaxed);
                continue;
            }
            tally(&mut standings, &played);
            note(&progress(&rules, &played, done, total));
        }
    });
    if let Some(why) = failed {
        return fail(why);
    }
    let mut table =
        format!("{}: {} games, movetime {} ms; records in {}\n", game.title, total, args.movetime, args.out.display());
    table += &crosstable(&rules.names, &standings);
    if let Err(why) = file::create_new(&args.out.join("crosstable"), table.as_bytes()) {
        return fail(why);
    }
    let mut out = Out::new();
    match out.write(&table).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(closed) => closed.exit_code(),
    }
}

/// A finished game in a line: `game 3/100 (quarod size 4): A (Black) vs B (White): 1-0 by the rules, 23 moves`.
fn progress(
    rules: &crate::protocol::matches::Rules,
    played: &crate::protocol::matches::Played,
    done: usize,
    total: usize,
) -> String {
    use crate::protocol::matches::Ending;
    let p = &played.pairing;
    let mut board = rules.game.name.to_string();
    if let Some(size) = p.size {
        board += &format!(" size {size}");
    }
    if let Some(players) = p.players {
        board += &format!(" players {players}");
    }
    let seats: Vec<&str> = p.seats.iter().map(|&e| rules.names[e].as_str()).collect();
    let scores: Vec<String> = played
        .scores
        .iter()
        .map(|s| {
            if *s == 1.0 {
                "1".into()
            } else if *s == 0.0 {
                "0".into()
            } else {
                format!("{s:.2}")
            }
        })
        .collect();
    let how = match &played.ending {
        Ending::Rules(_) => "by the rules".to_string(),
        Ending::Adjudicated(_) => "adjudicated".to_string(),
        Ending::Forfeit(s, why) => format!("seat {} forfeits: {why}", s + 1),
    };
    format!(
        "game {} ({done}/{total} done, {board}): {}: {} {how}, {} moves",
        p.number,
        seats.join(" vs "),
        scores.join("-"),
        played.moves.len()
    )
}
