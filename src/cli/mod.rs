//! The command line: clap types, and the wiring of library pieces. The library never sees clap.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use referee::game::GameKind;
use referee::verify::DEFAULT_SEARCH_LIMIT;

mod generate;
mod inputs;
mod out;
mod picture;
mod repair;
mod show;
mod verify;

const EXIT_CODES: &str = "\
Exit codes:
  0  every record is valid
  1  some record is not valid (illegal, syntax error, undecided, refuted claim), or a file holds no record
  2  the run could not do its job: an input could not be read (missing, not permitted, not UTF-8),
     or a usage error";

#[derive(Parser, Debug)]
#[command(
    name = "referee",
    version,
    about = "Replays published records of abstract board games: finds the first illegal move or confirms the claimed result, and draws any position.",
    after_help = EXIT_CODES
)]
pub struct Cli {
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
    /// Draw a position of a record: a text diagram in the published style, or an SVG or PNG picture.
    ///
    /// Without --ply, the last position; when the record has an illegal move, the position before
    /// it (pictures draw that move in red, the legal moves faint and the reason under the board).
    Show(ShowArgs),
    /// Draw every position of a record into a folder: SVG or PNG pictures, an animated GIF, or a
    /// self-contained HTML replay page.
    Render(picture::RenderArgs),
    /// Play random legal games and write their records, with the computed results.
    Random(RandomArgs),
    /// Print a shell completion script: `referee completions bash > ~/.local/share/bash-completion/completions/referee`.
    Completions {
        /// The shell: bash, zsh, fish, powershell or elvish.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `referee man > referee.1; man ./referee.1`.
    Man,
    /// Search for the smallest sets of token edits after which a record replays further, ideally
    /// to its end, and check its claims and final diagram against each repair.
    ///
    /// Edits: another legal move in place of one, a token or a stretch of play (a phase, a
    /// half-turn) deleted or inserted, two tokens swapped. Repairs rank by: replays to the end,
    /// final diagram matches, claims hold, fewest edits, earliest first edit. Exit code 0 when the
    /// best repair of every record replays to the end with its diagram and claims confirmed.
    #[command(after_help = EXIT_CODES)]
    Repair(repair::RepairArgs),
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Files, folders or `-`.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Go on past illegal moves where the move can still be played as written, listing every violation
    /// with the board before it, and check the claims against the game as replayed.
    #[arg(long)]
    lenient: bool,
    /// human: a report per record; json: one JSON object per record per line; short: one line per
    /// problem, `file:line:col: status: message`.
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
    /// Read every record as this game, whatever its text suggests: quadraphages, hexaphages,
    /// quarod, petrify, vadrantir or splinter.
    #[arg(long, value_parser = game_arg)]
    game: Option<GameKind>,
    /// Most positions searched to judge a result claimed before the game is over.
    #[arg(long, default_value_t = DEFAULT_SEARCH_LIMIT)]
    search_limit: usize,
    /// Threads to verify with (1: one thread); default: one per core. Output is in input order
    /// whatever the number.
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The file holding the record (`-` reads standard input).
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
    /// ascii (a text diagram), svg, png or code (the position code, on one line). Default: the -o
    /// file's extension, else ascii.
    #[arg(long, value_enum)]
    format: Option<picture::ShowFormat>,
    /// Write to this file rather than to standard output.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    look: picture::Look,
}

#[derive(Args, Debug)]
pub struct RandomArgs {
    /// quadraphages, hexaphages, quarod, petrify, vadrantir or splinter.
    #[arg(long, value_parser = game_arg)]
    game: GameKind,
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
    /// Write each game to its own file in this folder, `<game>-<seed>.txt` (the folder is created),
    /// instead of to standard output.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    Human,
    Json,
    Short,
}

/// Reads `--game`: a game's name, as `GameKind` spells it (the library knows nothing of clap).
fn game_arg(name: &str) -> Result<GameKind, String> {
    GameKind::from_name(name).ok_or_else(|| {
        let known: Vec<_> = GameKind::ALL.iter().map(|g| g.name()).collect();
        format!("unknown game `{name}`: one of {}", known.join(", "))
    })
}

/// Prints generated text (a completion script, the manual page) to standard output.
fn print_bytes(bytes: &[u8]) -> ExitCode {
    match out::Out::new().finish(&String::from_utf8_lossy(bytes)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(closed) => closed.exit_code(),
    }
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Verify(args) => verify::run(args),
        Command::Show(args) => show::run(args),
        Command::Render(args) => picture::render(args),
        Command::Random(args) => generate::run(args),
        Command::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "referee", &mut text);
            print_bytes(&text)
        }
        Command::Man => {
            let mut text = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut text) {
                Ok(()) => print_bytes(&text),
                Err(e) => {
                    out::note(&format!("cannot write the manual page: {e}"));
                    ExitCode::from(2)
                }
            }
        }
        Command::Repair(args) => repair::run(args),
    }
}
