//! The command line: clap types, and the wiring of library pieces. The library never sees clap.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand, ValueEnum};

use referee::game::{GameKind, Recorded, WithRecorded};
use referee::games::phages;
use referee::geometry::Geometry;
use referee::report::{self, HumanStyle};
use referee::verdict::Status;
use referee::verify::{self, VerifyOptions, DEFAULT_SEARCH_LIMIT};
use referee::write;

/// Largest input read from one file or from standard input.
const MAX_INPUT: u64 = 256 * 1024 * 1024;

#[derive(Parser, Debug)]
#[command(
    name = "referee",
    version,
    about = "Replays published records of abstract board games: finds the first illegal move or confirms the claimed result, and draws any position."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Verify every record in the given files and folders (`-` reads standard input).
    ///
    /// Exit code: 0 when every record is valid, 1 when any is illegal or cannot be judged,
    /// 2 when an input cannot be read or parsed.
    Verify {
        /// Files, folders (every .txt file below them) or `-`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Go on past illegal moves where the move can still be played as written, listing every violation.
        #[arg(long)]
        lenient: bool,
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Read every record as this game, whatever its text suggests: quadraphages, hexaphages,
        /// quarod, petrify, vadrantir or splinter.
        #[arg(long, value_parser = game_arg)]
        game: Option<GameKind>,
        /// Most positions searched to judge a result claimed before the game is over.
        #[arg(long, default_value_t = DEFAULT_SEARCH_LIMIT)]
        search_limit: usize,
    },
    /// Print a position of a record as a diagram in the published style.
    Show {
        file: PathBuf,
        /// Which record of the file (1-based).
        #[arg(long, default_value_t = 1)]
        record: usize,
        /// The position after this many moves (stone moves, stays and announcements); default: the last.
        #[arg(long)]
        ply: Option<usize>,
        /// Read the record as this game (see `verify --game`).
        #[arg(long, value_parser = game_arg)]
        game: Option<GameKind>,
    },
    /// Play a random legal game and write its record, with the computed result.
    Random {
        /// quadraphages, hexaphages, quarod, petrify, vadrantir or splinter.
        #[arg(long, value_parser = game_arg)]
        game: GameKind,
        /// Board size: the side of a square board, or of a hex board (hexaphages: 4 or 5).
        #[arg(long)]
        size: Option<u8>,
        /// Number of players, for games of more than two (splinter: 2 to 4).
        #[arg(long)]
        players: Option<u8>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    Human,
    Json,
}

/// Reads `--game`: a game's name, as `GameKind` spells it (the library knows nothing of clap).
fn game_arg(name: &str) -> Result<GameKind, String> {
    GameKind::from_name(name).ok_or_else(|| {
        let known: Vec<_> = GameKind::ALL.iter().map(|g| g.name()).collect();
        format!("unknown game `{name}`: one of {}", known.join(", "))
    })
}

/// An input that could not be read as text.
#[derive(Debug)]
struct InputError {
    message: String,
    line_col: Option<(usize, usize)>,
}

fn read_input(path: &Path) -> Result<String, InputError> {
    let err = |message: String| InputError { message, line_col: None };
    let mut bytes = Vec::new();
    let reader: Box<dyn Read> = if path == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| err(format!("cannot open: {e}")))?)
    };
    reader.take(MAX_INPUT + 1).read_to_end(&mut bytes).map_err(|e| err(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(err(format!("larger than {} MiB: split it into smaller files", MAX_INPUT / (1024 * 1024))));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let text = std::str::from_utf8(&e.as_bytes()[..good]).unwrap_or_default();
        let (line, col) = report::line_col(text, good);
        let byte = e.as_bytes()[good];
        InputError {
            message: format!("not valid UTF-8: byte 0x{byte:02X} at line {line}, column {col}"),
            line_col: Some((line, col)),
        }
    })
}

/// Files named on the command line, with folders expanded to the .txt files below them, sorted.
fn expand(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            collect_txt(p, &mut found);
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    out
}

fn collect_txt(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if e.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if p.is_dir() {
            collect_txt(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt") {
            out.push(p);
        }
    }
}

fn display_name(p: &Path) -> String {
    if p == Path::new("-") {
        "<stdin>".into()
    } else {
        p.display().to_string()
    }
}

fn file_error_json(file: &str, e: &InputError) -> String {
    let (line, column) = e.line_col.unwrap_or((1, 1));
    serde_json::json!({
        "file": file, "index": 0, "game": null, "status": "syntax_error",
        "errors": [{ "line": line, "column": column, "token": "", "message": e.message, "kind": "syntax", "legal": [] }],
        "claims": [], "moves": 0, "game_over": false, "score": null, "notes": [],
    })
    .to_string()
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Verify { paths, lenient, format, game, search_limit } => {
            let options = VerifyOptions { lenient, game, search_limit };
            verify_paths(&paths, options, format)
        }
        Command::Show { file, record, ply, game } => show(&file, record, ply, game),
        Command::Random { game, size, players, seed } => random(game, size, players, seed),
    }
}

fn verify_paths(paths: &[PathBuf], options: VerifyOptions, format: Format) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let style =
        HumanStyle { color: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(), width: 80 };
    let mut worst = 0u8;
    let files = expand(paths);
    if files.is_empty() {
        eprintln!(
            "referee: no .txt files found in {}",
            paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        );
        return ExitCode::from(2);
    }
    for path in files {
        let name = display_name(&path);
        let src = match read_input(&path) {
            Ok(s) => Arc::new(s),
            Err(e) => {
                worst = 2;
                match format {
                    Format::Json => {
                        let _ = writeln!(out, "{}", file_error_json(&name, &e));
                    }
                    Format::Human => eprintln!("referee: {name}: {}", e.message),
                }
                continue;
            }
        };
        let verdicts = verify::verify_source(&src, options);
        let source = report::Source::new(name.clone(), src.clone());
        if verdicts.is_empty() {
            worst = 2;
            let e = InputError {
                message:
                    "no game record found: a record is a run of numbered move lines like `1. .... .... 1 a7a8 i3i2`"
                        .into(),
                line_col: None,
            };
            match format {
                Format::Json => {
                    let _ = writeln!(out, "{}", file_error_json(&name, &e));
                }
                Format::Human => eprintln!("referee: {name}: {}", e.message),
            }
        }
        for v in &verdicts {
            worst = worst.max(match v.status {
                Status::Valid => 0,
                Status::Illegal | Status::Undecided => 1,
                Status::SyntaxError => 2,
            });
            let text = match format {
                Format::Json => report::json_line(&source, v) + "\n",
                Format::Human => report::human(&source, v, style) + "\n",
            };
            if out.write_all(text.as_bytes()).is_err() {
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::from(worst)
}

fn show(file: &Path, index: usize, ply: Option<usize>, game: Option<GameKind>) -> ExitCode {
    let name = display_name(file);
    let src = match read_input(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("referee: {name}: {}", e.message);
            return ExitCode::from(2);
        }
    };
    let options = VerifyOptions { game, ..VerifyOptions::default() };
    match verify::position_diagram(&src, index, ply, options) {
        Err((span, message)) => {
            let (line, col) = report::line_col(&src, span.start);
            if span.is_empty() && span.start == 0 {
                eprintln!("referee: {name}: {message}");
            } else {
                eprintln!("referee: {name}:{line}:{col}: {message}");
            }
            ExitCode::from(2)
        }
        Ok((diagram, note)) => {
            match note {
                Some(verify::ShowNote::StoppedAt { span, message }) => {
                    let (line, col) = report::line_col(&src, span.start);
                    eprintln!(
                        "referee: {name}: stopped at an illegal move at {line}:{col} ({message}); showing the position before it"
                    );
                }
                Some(verify::ShowNote::Short { moves }) => {
                    eprintln!("referee: {name}: the record has only {moves} moves; showing the last position");
                }
                None => {}
            }
            print!("{diagram}");
            ExitCode::SUCCESS
        }
    }
}

fn random(game: GameKind, size: Option<u8>, players: Option<u8>, seed: u64) -> ExitCode {
    struct Random {
        size: Option<u8>,
        players: Option<u8>,
        seed: u64,
    }
    impl WithRecorded for Random {
        type Output = Result<String, String>;
        fn run<G: Recorded>(self) -> Self::Output {
            let start = G::start(self.size, self.players)?;
            let moves = referee::random::random_game(&start, self.seed, 1_000_000);
            Ok(write::write_common_record(&start, &moves, &[("Seed", self.seed.to_string())]))
        }
    }
    let text = match game.with_recorded(Random { size, players, seed }) {
        Some(text) => text,
        None if players.is_some_and(|p| p != 2) => Err(format!("{game} is a game for two players")),
        None => {
            let geometry = match (game, size) {
                (GameKind::Quadraphages, s) => Geometry::Square { size: s.unwrap_or(9) },
                (_, s) => Geometry::Hex { side: s.unwrap_or(4) },
            };
            match phages::notation::default_start(geometry) {
                Some(start) => {
                    let moves = referee::random::random_game(&start, seed, 1_000_000);
                    Ok(phages::notation::write_record(&start, &moves))
                }
                None => Err(format!("no start position is known for {game} of size {}", size.unwrap_or(0))),
            }
        }
    };
    match text {
        Ok(t) => {
            print!("{t}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("referee: {e}");
            ExitCode::from(2)
        }
    }
}
