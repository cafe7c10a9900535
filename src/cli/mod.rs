//! The command line: clap types, and the wiring of library pieces. The library never sees clap.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::game::About;
use crate::games::GameKind;
use crate::verify::DEFAULT_SEARCH_LIMIT;

mod book;
mod convert;
mod engines;
pub mod file;
mod generate;
mod man;
mod out;
mod perft;
mod picture;
mod repair;
mod show;
mod verify;

const EXIT_CODES: &str = "\
Exit codes:
  0  every record is valid
  1  some record is not valid (illegal, refuted: a false claim, syntax error, undecided), or a file
     holds no record
  2  the run could not do its job: an input could not be read (missing, not permitted, not UTF-8),
     or a usage error";

const SHOW_EXIT_CODES: &str = "\
Exit codes:
  0  the position is drawn, and the record is valid up to it
  1  the record is not valid up to that position, as verify would say: an illegal move at or before
     it (the position before that move is drawn, and the move named on standard error), or a
     syntax error or no known start (nothing is drawn); or the file holds no record
  2  the run could not do its job: the file could not be read or written, there is no record N, or
     a usage error (--from and --to that number no move among them)";

const RENDER_EXIT_CODES: &str = "\
Exit codes:
  0  every position of the record is drawn
  1  the record has an illegal move (the positions before it and that move in red are drawn), or it
     cannot be replayed: a syntax error or no known start (nothing is drawn); or the file holds no
     record
  2  the run could not do its job: the file could not be read, a picture could not be written, there
     is no record N, or a usage error (--from and --to that number no move among them)";

#[derive(Parser, Debug)]
#[command(
    name = "referee",
    version,
    about = "Replays published records of abstract board games: finds the first illegal move or confirms the claimed result, and draws any position.",
    after_help = EXIT_CODES
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Verify every record in the given files and folders (`-` reads standard input).
    ///
    /// Files named on the command line are read whatever their name; folders are walked (links
    /// followed, each file once, hidden entries passed over) for the files with one of the `--ext`
    /// extensions, in path order. A summary goes to standard error at the end.
    #[command(after_help = EXIT_CODES)]
    Verify(VerifyArgs),
    /// Draw a position of a record: a text diagram in the published style, or an SVG, PNG or TikZ
    /// picture.
    ///
    /// Without --ply, the last position; when the record has an illegal move, the position before
    /// it (pictures draw that move in red, the legal moves faint and the reason under the board).
    /// With --numbers, a numbered diagram: the position after the last move numbered, each cell a
    /// move was played at (from --from to --to) carrying that move's number, as the record numbers
    /// it: `referee show samples/quadraphages/designers-game-1.txt --numbers --from 2 --to 5 -o q.png`.
    /// For a paper, the same picture as LaTeX (TikZ: vector paths, and text in the document's
    /// font): `referee show samples/quadraphages/designers-game-1.txt --numbers -o q.tex` writes a
    /// document that `pdflatex q.tex` compiles alone, 80 mm wide; with `--tex fragment`, a picture
    /// that a document loading tex/referee.sty sets with `\refereediagram[60mm]{q}`.
    #[command(after_help = SHOW_EXIT_CODES)]
    Show(ShowArgs),
    /// Draw every position of a record into a folder: SVG, PNG or TikZ pictures, an animated GIF,
    /// or a self-contained HTML replay page.
    #[command(after_help = RENDER_EXIT_CODES)]
    Render(picture::RenderArgs),
    /// Make a PDF booklet of the records of files and folders, for print: for each record its
    /// tags, numbered diagrams with the moves and comments beside them, and its verdict.
    ///
    /// A diagram after every --every move numbers (and after the moves whose comments draw
    /// markup, and at --at), each numbering the moves since the one before, as `show --numbers`
    /// does; an illegal record ends on the board before its first illegal move and its report as
    /// `verify` gives it. A collection starts with a contents page; every page is numbered, and
    /// the PDF's outline lists the records. Text is selectable (DejaVu Sans, embedded), diagrams
    /// are vectors: `referee book samples/ -o samples.pdf`.
    #[command(after_help = book::EXIT_CODES)]
    Book(book::BookArgs),
    /// Play random legal games and write their records, with the computed results.
    Random(RandomArgs),
    /// Print a shell completion script: `referee completions bash > ~/.local/share/bash-completion/completions/referee`.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page of referee or of one of its commands (roff), or write them all into a
    /// folder.
    ///
    /// `referee man verify | man -l -` shows a page. `referee man --dir ~/.cargo/share/man/man1`
    /// puts them all beside the binary `cargo install` made, where man-db looks for the programs
    /// on PATH: `man referee-verify` then finds its page.
    #[command(after_help = man::EXIT_CODES)]
    Man(man::ManArgs),
    /// Search for the smallest sets of token edits after which a record replays further, ideally
    /// to its end, and check its claims and final diagram against each repair.
    ///
    /// Edits: another legal move in place of one, a token or a stretch of play (a phase, a
    /// half-turn) deleted or inserted, two tokens swapped. Repairs rank by: replays to the end,
    /// final diagram matches, claims hold, fewest edits, earliest first edit. Exit code 0 when the
    /// best repair of every record replays to the end with its diagram and claims confirmed.
    /// `--write` writes the repairs into the file.
    #[command(after_help = repair::EXIT_CODES)]
    Repair(repair::RepairArgs),
    /// Rewrite a record in its notation's canonical layout, as one JSON object of the whole game
    /// (docs/json.md) or as its last position's code, and read such JSON back (`--from json`).
    ///
    /// Every record of the file in turn, or the one --record names. Only a record that replays to
    /// its end is converted: one with a syntax error, an illegal move or a start that cannot be had
    /// is refused with its problems on standard error, exit code 1, and the others are converted.
    /// The canonical record claims what the input claims (its result and final diagram as written,
    /// refuted or not), so that it verifies as the input does; comments are not kept.
    #[command(after_help = convert::EXIT_CODES)]
    Convert(convert::ConvertArgs),
    /// Count the leaves of the move tree below a position given by its code (perft).
    ///
    /// To check a move generator against referee's: --divide counts them per first move, written
    /// as the notation writes it. A position counts 1 at depth 0; a finished game has no moves
    /// and counts 0 below it. Exit code 0, or 2 for a code that describes no position (where it
    /// goes wrong is on standard error) or a depth past 20.
    Perft(perft::PerftArgs),
    /// Print the legal moves of a position given by its code, one a line, as written.
    ///
    /// In the engine's order: the moves perft counts. A finished game prints none (standard error
    /// says so) and exits 0; a code that describes no position exits 2.
    Moves(perft::MovesArgs),
    /// Serve the Language Server Protocol on standard input and output, for an editor.
    ///
    /// Any text that holds records: diagnostics as it changes (every problem verify reports, with
    /// the rule it breaks and the legal moves there), hovers with the board before and after a
    /// move, the legal moves at the cursor as completions, an illegal move's alternatives as quick
    /// fixes, each record in its canonical layout as formatting, one symbol per record. Exit code
    /// 0 after the client's shutdown and exit.
    Lsp,
    /// Speak the referee game protocol on standard input and output, as an engine (docs/protocol.md).
    ///
    /// One command a line: rgp, isready, position start GAME [size N] [players N] [moves ...],
    /// position code CODE [moves ...], moves, perft N, divide N, go [movetime MS], result, quit;
    /// anything else is answered `error ...`. For any game of the run. `go` plays a legal move at
    /// random, or the search player's move (--player search). Exit code 0 after quit or the end of
    /// the input.
    Engine {
        /// The seed of the player's choices (random moves, or among equally good ones); default: a
        /// new one each run, so that two games from one position differ.
        #[arg(long)]
        seed: Option<u64>,
        /// How `go` picks its move: random, a legal move at random; search, a search of a few
        /// moves by the game's points (a third of `go movetime`, 100 ms without it), exact near the
        /// end by the claim search.
        #[arg(long, value_enum, default_value_t = PlayerArg::Random)]
        player: PlayerArg,
        /// With --player search: search this many moves deep whatever the time it takes, so that
        /// a seed plays the same moves every time (a match that can be played again). Default: as
        /// deep as a third of `go movetime` allows, up to 4.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8))]
        depth: Option<u32>,
    },
    /// Write the conformance suite of every game (or one): named positions with their legal moves
    /// and perft counts, for an engine to be checked against (docs/protocol.md).
    ///
    /// Each game's named positions (its rules' edge cases, named after their anchors in
    /// docs/rules/), the start of every board size and player count, and positions of random games
    /// up to their end. The same suite every time: the repository keeps it in conformance/.
    Suite(engines::SuiteArgs),
    /// Run the conformance suite against an engine over the protocol (docs/protocol.md).
    ///
    /// For each position: its legal moves, its perft counts and (at the end) its result, compared
    /// with referee's; where a count differs, the run descends (divide) to the first position
    /// where the legal moves differ and prints it, with the moves only one side has. An engine
    /// that crashes, hangs or answers nonsense fails that position and is started again.
    #[command(after_help = engines::CONFORMANCE_EXIT_CODES)]
    Conformance(engines::ConformanceArgs),
    /// Play games between engines over the protocol (docs/protocol.md), every move judged.
    ///
    /// Seats rotate so that each engine plays each seat of each board and player count equally
    /// often. An illegal move, a crash, an answer later than --movetime and --margin, or an answer
    /// that is no move loses that game by forfeit, the reason in its record, and the match goes on.
    /// A game ends by the rules, or is adjudicated once a search of every continuation finds one
    /// result. Each game is written as a record in its notation as it ends, with tags naming the
    /// engines, the time control and how it ended; then a crosstable: wins, draws, losses, score,
    /// and an Elo difference with its margin.
    #[command(name = "match", after_help = engines::MATCH_EXIT_CODES)]
    Match(engines::MatchArgs),
}

#[derive(Args, Debug)]
pub(crate) struct VerifyArgs {
    /// Files, folders or `-`.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Go on past illegal moves where the move can still be played as written, listing every violation
    /// with the board before it, and check the claims against the game as replayed.
    #[arg(long)]
    lenient: bool,
    /// human: a report per record; json: one JSON object per record per line; short: one line per
    /// problem, `file:line:col: status: message`; csv: a header, then one row per record with its
    /// verdict's columns (the first problem and the result claim standing for the lists).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Print only the records that are not valid (and the inputs that could not be read).
    #[arg(short, long)]
    quiet: bool,
    /// Colour the report: auto (when standard output is a terminal, unless NO_COLOR is set or
    /// CLICOLOR_FORCE asks for it), always or never. JSON is never coloured.
    #[arg(long, value_enum, default_value_t = out::ColorWhen::Auto)]
    color: out::ColorWhen,
    /// Extensions of the files read in folders, any case, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "txt,pgn", value_name = "EXT,...")]
    ext: Vec<String>,
    /// Read every record as this game, whatever its text suggests.
    #[arg(long, value_parser = GameParser)]
    game: Option<&'static About>,
    /// Most positions searched to judge a result claimed before the game is over; all the searches
    /// of a run share four times that, whatever the number of files.
    #[arg(long, default_value_t = DEFAULT_SEARCH_LIMIT)]
    search_limit: usize,
    /// Threads to verify with (1: one thread); default: one per core. Output is in input order
    /// whatever the number.
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

#[derive(Args, Debug)]
pub(crate) struct ShowArgs {
    /// The file holding the record (`-` reads standard input).
    file: PathBuf,
    /// Which record of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = record_number)]
    record: usize,
    /// The position after this many moves (stone moves, stays and announcements); default: the last.
    #[arg(long, conflicts_with = "numbers")]
    ply: Option<usize>,
    #[command(flatten)]
    numbers: picture::NumberArgs,
    /// Read the record as this game, whatever its text suggests.
    #[arg(long, value_parser = GameParser)]
    game: Option<&'static About>,
    /// ascii (a text diagram), svg, png, tex (a TikZ picture for LaTeX, see --tex) or code (the
    /// position code, on one line). Default: the -o file's extension, else ascii.
    #[arg(long, value_enum)]
    format: Option<picture::ShowFormat>,
    /// Write to this file rather than to standard output: whole or not at all, keeping its other
    /// names (hard links); a read-only file is refused.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    look: picture::Look,
}

#[derive(Args, Debug)]
pub(crate) struct RandomArgs {
    /// The game to play.
    #[arg(long, value_parser = GameParser)]
    game: &'static About,
    /// Board size: the side of a square board, or of a hex board (hexaphages: 4 or 5).
    #[arg(long)]
    size: Option<u8>,
    /// Number of players, for games of more than two (splinter: 2 to 4).
    #[arg(long)]
    players: Option<u8>,
    /// The first game's seed; the next games take the seeds after it. Default: a random seed,
    /// written into each record.
    #[arg(long)]
    seed: Option<u64>,
    /// How many games.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Write each game to its own file in this folder (created if missing), instead of to standard
    /// output: `<game>-<seed>.txt`, with `-size<N>` and `-players<N>` after the game when given
    /// (`splinter-players3-7.txt`). An existing file is never overwritten: the run stops there.
    #[arg(short, long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// `referee engine --player`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum PlayerArg {
    Random,
    Search,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    Human,
    Json,
    Short,
    Csv,
}

/// The games `--game` names and `random` plays: those [`run_with`] was given (the registry's for
/// [`run`] and for the manual page), set once before the arguments are read.
static GAMES: OnceLock<Vec<&'static About>> = OnceLock::new();

fn known_games() -> &'static [&'static About] {
    GAMES.get_or_init(|| GameKind::ALL.iter().map(|k| k.about()).collect())
}

/// Reads `--game` as `About::is_named` does (any case; `Splinter Quad` and `splinter-quad` too),
/// and offers the games' names to `--help` and to shell completion. The library knows nothing of
/// clap, so the games' list stays the games the command line was given.
#[derive(Clone, Copy, Debug)]
pub struct GameParser;

impl GameParser {
    fn values() -> impl Iterator<Item = PossibleValue> {
        known_games()
            .iter()
            .map(|about| PossibleValue::new(about.name).help(about.help).aliases(about.aliases.iter().copied()))
    }
}

impl TypedValueParser for GameParser {
    type Value = &'static About;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<&'static About, clap::Error> {
        let named = |name: &str| known_games().iter().copied().find(|a| a.is_named(&name.replace('-', " ")));
        if let Some(game) = value.to_str().and_then(named) {
            return Ok(game);
        }
        // Not a game: clap's own error, with the possible values and a suggestion.
        let name = PossibleValuesParser::new(Self::values()).parse_ref(cmd, arg, value)?;
        named(&name).ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Self::values()))
    }
}

/// `--record N`: 1 or more; 0 is a usage error, as any other value clap refuses (exit code 2).
pub(crate) fn record_number(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("records are numbered from 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// Prints generated text (a completion script, the manual page) to standard output.
fn print_bytes(bytes: &[u8]) -> ExitCode {
    match out::Out::new().finish(&String::from_utf8_lossy(bytes)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(closed) => closed.exit_code(),
    }
}

/// Runs the command line of the `referee` binary on the process's arguments, for the games of the
/// registry.
pub fn run() -> ExitCode {
    run_with(crate::judge::Registry)
}

/// Runs referee's command line on the process's arguments, reading records as records of
/// `games`: a crate that defines a game of its own ships the whole command line with it
/// (`run_with(Registry.and::<MyGame>())`; `examples/own_game.rs` in the repository): `--game`
/// names them and `random` plays them.
pub fn run_with<S: crate::judge::Games>(games: S) -> ExitCode {
    // The first call's games: a process runs one command line.
    let _ = GAMES.set(games.abouts());
    let cli = Cli::parse();
    match cli.command {
        Command::Verify(args) => verify::run(args, games),
        Command::Show(args) => show::run(args, games),
        Command::Render(args) => picture::render(args, games),
        Command::Book(args) => book::run(args, games),
        Command::Random(args) => generate::run(args, games),
        Command::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "referee", &mut text);
            print_bytes(&text)
        }
        Command::Man(args) => man::run(args),
        Command::Repair(args) => repair::run(args, games),
        Command::Convert(args) => convert::run(args, games),
        Command::Perft(args) => perft::perft(args, games),
        Command::Moves(args) => perft::moves(args, games),
        Command::Lsp => crate::lsp::stdio_with(games),
        Command::Suite(args) => engines::suite(args, games),
        Command::Conformance(args) => engines::conformance(args, games),
        Command::Match(args) => engines::play_match(args, games),
        Command::Engine { seed, player, depth } => {
            let stdin = std::io::stdin();
            let player = match player {
                PlayerArg::Random => crate::protocol::Player::Random,
                PlayerArg::Search => crate::protocol::Player::Search(depth),
            };
            let seed = seed.unwrap_or_else(|| fastrand::u64(1..));
            match crate::protocol::serve(games, seed, player, stdin.lock(), std::io::stdout().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                // A closed pipe ends the session as quit does.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("referee engine: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// clap's own consistency checks, and help for every flag and argument of every command: what
    /// `--help`, the man page and the completions show.
    #[test]
    fn every_argument_has_help_and_every_game_or_format_its_values() {
        let cli = Cli::command();
        cli.clone().debug_assert();
        for command in cli.get_subcommands() {
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                let name = format!("{} {id}", command.get_name());
                assert!(arg.get_help().is_some_and(|h| !h.to_string().trim().is_empty()), "{name} has no help");
                // `convert --to` is a format; `show --to` and `render --to` are move numbers.
                let format = id == "format" || (id == "to" && command.get_name() == "convert");
                if id == "game" || format {
                    assert!(!arg.get_possible_values().is_empty(), "{name} lists no possible values");
                }
            }
        }
    }
}
