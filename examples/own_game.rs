//! A game defined outside the crate, judged by referee through its public traits alone.
//!
//! In a Row (gomoku on a small board): Black and White in turn place a stone of their colour on an
//! empty cell of a square board (5x5 unless a `[Size]` tag says otherwise, 4 to 26); the first to
//! have four of their stones in a row, across, down or diagonally, wins; a full board with no such
//! row is a draw.
//!
//! The game implements `Game`, `BoardView`, `Notation`, `Coded`, `PlainData` (its search key) and
//! `CommonFormat` here, with nothing changed inside the crate. Run with arguments, this program is
//! referee's own command line with the game added to referee's six (`referee::cli::run_with`):
//!
//! `cargo run --example own_game -- verify games.txt` (or `convert`, `repair`, `render`, `show`,
//! `perft`, `lsp`)
//!
//! Run without, it checks (with `assert!`, so that CI fails on a regression) that the library gives
//! the game what it gives its own games, through the options `VerifyOptions::of::<InRow>()`: a
//! verdict that locates an illegal move and lists the legal ones and alternatives, with its human
//! report; claims made before the end judged by the search; a result confirmed at the end; position
//! codes that read back; conversion, repair, pictures, streams and perft; and then runs itself as
//! the command line on a file of the game's records, and as the language server over the
//! protocol, as a user and an editor would.
//!
//! `cargo run --example own_game`

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;

use referee::format::common::common_start;
use referee::game::code::{read_board, write_board, BoardShape, CodeError, Coded, Fields};
use referee::game::key::allocation;
use referee::game::{board_hash, About, BreaksRule, Figure, Format, Outcome, PlainData, Shape, Sign};
use referee::geometry::{Cell, CellLabel, Geometry, MAX_SQUARE};
use referee::judge::{Games, Registry};
use referee::record::Found;
use referee::render::svg::{svg, SvgOptions};
use referee::repair::RepairOptions;
use referee::replay::{Event, ReplayOptions};
use referee::report::{HumanStyle, Source};
use referee::stream::StreamOptions;
use referee::verdict::{ClaimStatus, Reach};
use referee::{BoardView, CommonFormat, Game, Notation, Status, VerifyOptions};

// ---------------------------------------------------------------------------------------------
// The game

/// Stones in a row that win.
const K: usize = 4;
/// The board's side when a record gives none.
const DEFAULT_SIZE: u8 = 5;
const NAMES: [&str; 2] = ["Black", "White"];
const GLYPHS: [&str; 2] = ["B", "W"];
const EMPTY: &str = ".";

const ABOUT: About = About {
    name: "inrow",
    title: "In a Row",
    aliases: &["gomoku"],
    help: "In a Row: the common format, a square board of 4 to 26 (5 by default), four in a row wins",
    format: Format::Common,
    sizes: referee::game::Sizes::from(4, 26),
    players: (2, 2),
};

/// A position: the plain data is the whole state, so it is its own search key and its own code.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct InRow {
    size: u8,
    /// Whose stone stands on each cell (0 Black, 1 White), in reading order.
    board: Vec<Option<u8>>,
    to_move: u8,
    /// Kept rather than found again from the board: a lenient replay may place stones after the
    /// end, and the first row made is the one that won.
    winner: Option<u8>,
}

/// Why a move is illegal.
#[derive(Clone, Debug)]
enum Illegal {
    OffBoard { cell: CellLabel, size: u8 },
    Occupied { cell: CellLabel, by: u8 },
    GameOver,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::OffBoard { cell, size } => write!(f, "{cell} is not on the {size}x{size} board"),
            Illegal::Occupied { cell, by } => write!(f, "{cell} already holds a {} stone", NAMES[*by as usize]),
            Illegal::GameOver => write!(f, "the game is over: somebody has {K} in a row, or the board is full"),
        }
    }
}

/// The rule each reason breaks, as the game's rules document (`docs/rules/inrow.md` of the
/// repository that holds the game) names its sections: `inrow-board`, `inrow-placement`, `inrow-end`.
impl BreaksRule for Illegal {
    const RULES: &'static [&'static str] = &["board", "placement", "end"];

    fn rule(&self) -> &'static str {
        match self {
            Illegal::OffBoard { .. } => "board",
            Illegal::Occupied { .. } => "placement",
            Illegal::GameOver => "end",
        }
    }
}

/// The longest row each colour has, for reports.
#[derive(Clone, Debug)]
struct Longest([usize; 2]);

impl fmt::Display for Longest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "longest rows: Black {}, White {}", self.0[0], self.0[1])
    }
}

impl InRow {
    fn new(size: u8) -> Result<InRow, String> {
        if !(K as u8..=MAX_SQUARE).contains(&size) {
            return Err(format!("In a Row is played on a board of {K} to {MAX_SQUARE} cells a side, not {size}"));
        }
        Ok(InRow { size, board: vec![None; usize::from(size) * usize::from(size)], to_move: 0, winner: None })
    }

    fn at(&self, cell: Cell) -> Option<u8> {
        self.board.get(usize::from(cell.0)).copied().flatten()
    }

    /// The longest row of one colour through `cell` (on one of the four lines), in line order.
    fn row_through(&self, cell: Cell) -> Vec<Cell> {
        let Some(stone) = self.at(cell) else { return Vec::new() };
        let g = self.geometry();
        let same = |c: &Cell| self.at(*c) == Some(stone);
        let rows = g.lines().iter().map(|&d| {
            let mut row: Vec<Cell> = g.ray(cell, d.opposite()).take_while(same).collect();
            row.reverse();
            row.push(cell);
            row.extend(g.ray(cell, d).take_while(same));
            row
        });
        rows.max_by_key(Vec::len).unwrap_or_default()
    }

    /// A winning row of `colour` anywhere on the board (for setups, codes and the outcome's words;
    /// play looks only through the stone placed).
    fn winning_row(&self, colour: u8) -> Option<Vec<Cell>> {
        let g = self.geometry();
        g.cells().filter(|&c| self.at(c) == Some(colour)).map(|c| self.row_through(c)).find(|r| r.len() >= K)
    }

    /// The position drawn by one glyph (or `None`, empty) per cell: the colour to move follows from
    /// the counts, the winner from the rows, since a setup diagram says neither.
    fn from_cells(size: u8, cells: &[Option<u8>]) -> Result<InRow, String> {
        let mut p = InRow::new(size)?;
        if cells.len() != p.board.len() {
            return Err(format!("the diagram has {} cells; a {size}x{size} board has {}", cells.len(), p.board.len()));
        }
        p.board.copy_from_slice(cells);
        let count = |c: u8| cells.iter().filter(|&&s| s == Some(c)).count();
        p.to_move = match count(0).checked_sub(count(1)) {
            Some(0) => 0,
            Some(1) => 1,
            _ => return Err(format!("Black moves first: Black has {} stones and White {}", count(0), count(1))),
        };
        p.winner = match (p.winning_row(0), p.winning_row(1)) {
            (Some(_), Some(_)) => return Err(format!("both colours have {K} in a row: the game ended before")),
            (a, b) => a.map(|_| 0).or(b.map(|_| 1)),
        };
        Ok(p)
    }
}

impl BoardView for InRow {
    fn geometry(&self) -> Geometry {
        Geometry::Square { size: self.size }
    }

    fn glyph(&self, cell: Cell) -> &'static str {
        self.at(cell).map_or(EMPTY, |c| GLYPHS[usize::from(c)])
    }

    fn figure(&self, cell: Cell) -> Option<Figure> {
        self.at(cell).map(|owner| Figure { owner: Some(owner), shape: Shape::Disc, name: "stone" })
    }

    fn player_names(&self) -> &'static [&'static str] {
        &NAMES
    }
}

impl Game for InRow {
    type Move = Cell;
    type Illegal = Illegal;
    type Score = Longest;

    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn legal_moves(&self) -> Vec<Cell> {
        if self.is_over() {
            return Vec::new();
        }
        self.geometry().cells().filter(|&c| self.at(c).is_none()).collect()
    }

    fn check(&self, m: Cell) -> Result<(), Illegal> {
        let g = self.geometry();
        if !g.contains(m) {
            return Err(Illegal::OffBoard { cell: g.label(m), size: self.size });
        }
        if let Some(by) = self.at(m) {
            return Err(Illegal::Occupied { cell: g.label(m), by });
        }
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        Ok(())
    }

    /// A stone on a full cell or off the board changes nothing, but the turn passes all the same,
    /// so that a lenient replay keeps the colours in step with the record.
    fn play_unchecked(&mut self, m: Cell) {
        let mover = self.to_move;
        if let Some(cell @ None) = self.board.get_mut(usize::from(m.0)) {
            *cell = Some(mover);
            if self.winner.is_none() && self.row_through(m).len() >= K {
                self.winner = Some(mover);
            }
        }
        self.to_move = 1 - mover;
    }

    fn is_over(&self) -> bool {
        self.winner.is_some() || self.board.iter().all(Option::is_some)
    }

    fn score(&self) -> Longest {
        let mut longest = [0, 0];
        for c in self.geometry().cells() {
            if let Some(colour) = self.at(c) {
                let l = &mut longest[usize::from(colour)];
                *l = (*l).max(self.row_through(c).len());
            }
        }
        Longest(longest)
    }

    fn signs(&self, m: Cell) -> Vec<Sign> {
        vec![Sign::Ring(m)]
    }
}

impl Notation for InRow {
    type Written = CellLabel;

    fn parse_move(text: &str) -> Result<CellLabel, String> {
        CellLabel::parse(text).ok_or_else(|| {
            format!("`{text}` is not an In a Row move: expected a cell, a letter and a row number as in c3")
        })
    }

    fn resolve(&self, written: CellLabel) -> Result<Cell, Illegal> {
        self.geometry().parse_label(written).ok_or(Illegal::OffBoard { cell: written, size: self.size })
    }

    fn write_move(&self, m: Cell) -> String {
        self.geometry().label(m).to_string()
    }
}

/// The search stores the position itself: a board of a byte a cell and three bytes more.
impl PlainData for InRow {
    fn heap_bytes(&self) -> usize {
        allocation(self.board.len())
    }

    fn plain_hash(&self) -> u64 {
        board_hash(&self.board, |c| c.map_or(0, |c| c + 1), (self.to_move, self.winner))
    }
}

/// `inrow_BOARD_MOVER_WINNER`: the board's rows from the top separated by `/`, `B` and `W` for
/// stones and a number for a run of empty cells (the crate's own board field); `b` or `w` to move;
/// the winner, `b`, `w` or `-`.
impl Coded for InRow {
    fn code(&self) -> String {
        let board = write_board(self.geometry(), |c| self.at(c).map(|s| GLYPHS[usize::from(s)]));
        let winner = self.winner.map_or("-", |w| ["b", "w"][usize::from(w)]);
        format!("inrow_{board}_{}_{winner}", ["b", "w"][usize::from(self.to_move)])
    }

    fn from_code(code: &str) -> Result<InRow, CodeError> {
        let (_, mut fields) = Fields::of(code, &[ABOUT.name])?;
        let board = fields.next("board")?;
        let glyph = |g: &str| GLYPHS.iter().position(|&s| s == g).map(|c| c as u8);
        let (geometry, cells) = read_board(board, BoardShape::Square, 1, glyph, "B or W")?;
        let mut p = InRow::new(geometry.size()).map_err(|m| board.error(0, m))?;
        p.board = cells.into_iter().map(|(stone, _)| stone).collect();
        p.to_move = fields.next("colour to move")?.choice("the colour to move", &[("b", 0), ("w", 1)])?;
        let winner = fields.next("winner")?;
        p.winner = winner.choice("the winner", &[("b", Some(0)), ("w", Some(1)), ("-", None)])?;
        fields.end()?;
        // The winner must have a row, and with no winner nobody may have one.
        let rows = [p.winning_row(0).is_some(), p.winning_row(1).is_some()];
        if rows != [p.winner == Some(0), p.winner == Some(1)] {
            return Err(winner.error(0, format!("the winner field does not match the rows of {K} on the board")));
        }
        Ok(p)
    }
}

impl CommonFormat for InRow {
    const ABOUT: About = ABOUT;

    fn to_move(&self) -> usize {
        usize::from(self.to_move)
    }

    fn start(size: Option<u8>, players: Option<u8>) -> Result<InRow, String> {
        if let Some(n) = players.filter(|&n| n != 2) {
            return Err(format!("In a Row is a game of two players, not {n}"));
        }
        InRow::new(size.unwrap_or(DEFAULT_SIZE))
    }

    fn with_setup(&self, cells: &[&str]) -> Result<InRow, String> {
        let read = cells.iter().map(|&g| match g {
            EMPTY => Ok(None),
            _ => GLYPHS.iter().position(|&s| s == g).map(|c| Some(c as u8)).ok_or(format!("`{g}` is not B, W or .")),
        });
        InRow::from_cells(self.size, &read.collect::<Result<Vec<_>, _>>()?)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.winner {
            Some(w) => {
                let g = self.geometry();
                let row = self.winning_row(w).unwrap_or_default();
                let cells = row.iter().map(|&c| g.label(c).to_string()).collect::<Vec<_>>().join(" ");
                let mut points = vec![0.0, 0.0];
                points[usize::from(w)] = 1.0;
                Outcome { winner: Some(usize::from(w)), points, detail: format!("{} in a row: {cells}", row.len()) }
            }
            None => Outcome {
                winner: None,
                points: vec![0.5, 0.5],
                detail: format!("the board is full with no {K} in a row"),
            },
        })
    }

    fn points(&self) -> Vec<f64> {
        self.outcome().map_or(vec![0.0, 0.0], |o| o.points)
    }
}

// ---------------------------------------------------------------------------------------------
// What the library does with it

/// A record with an illegal move: Black's second `c3` is on Black's own stone.
const ILLEGAL: &str = "[Game \"In a Row\"]\n[Size \"5\"]\n\n1. c3 d3 2. c3 d4 3. b2 e5 *\n";

/// A full game with no row of four: the stones of each colour in the pattern
/// `BBWWB/WWBBW/BBWWB/WWBBW/BBWWB`, Black's and White's in reading order.
const DRAWN: &str = "1. a1 c1 2. b1 d1 3. e1 a2 4. c2 b2 5. d2 e2 6. a3 c3 7. b3 d3 8. e3 a4 9. c4 b4 10. d4 e4 \
                     11. a5 c5 12. b5 d5 13. e5";

/// A record from a setup: Black, to move, makes four across at once.
const SETUP: &str = "[Game \"In a Row\"]\n\nSetup:\na b c d e\nB B B . . 1\nW W W . . 2\n. . . . . 3\n. . . . . 4\n\
                     . . . . . 5\n\n1. d1 1-0\n\nFinal Position:\na b c d e\nB B B B . 1\nW W W . . 2\n. . . . . 3\n\
                     . . . . . 4\n. . . . . 5\n";

fn record(movetext: &str, result: &str) -> String {
    format!("[Game \"In a Row\"]\n[Size \"5\"]\n\n{movetext} {result}\n")
}

fn main() -> ExitCode {
    // With arguments, this program is referee's own command line with In a Row added to the
    // registry's games: `cargo run --example own_game -- verify games.txt`.
    if std::env::args_os().len() > 1 {
        return referee::cli::run_with(Registry.and::<InRow>());
    }
    library();
    command_line();
    ExitCode::SUCCESS
}

/// What the library does with the game.
fn library() {
    // Every entry point that takes options serves the game: `VerifyOptions::of` reads every
    // record as one of In a Row.
    let options = VerifyOptions::of::<InRow>();
    let verdicts = |text: &str| referee::verify::verify_records(text, options).collect::<Vec<_>>();

    // An illegal move, located, with the legal moves, the alternatives and the human report.
    let v = &verdicts(ILLEGAL)[0];
    let p = &v.problems[0];
    let second_c3 = ILLEGAL.match_indices("c3").nth(1).map(|(at, _)| at).unwrap_or_default();
    println!("illegal: {:?}: `{}` at bytes {:?}: {}", v.status, p.token, p.span, p.message);
    println!("  {} legal moves, listed: {}", p.legal_count, p.legal.join(" "));
    assert_eq!(v.status, Status::Illegal);
    assert_eq!((p.span.clone(), p.token.as_str()), (second_c3..second_c3 + 2, "c3"));
    assert!(p.message.contains("c3 already holds a Black stone"));
    assert_eq!(p.legal_count, 23);
    assert!(p.legal.iter().any(|m| m == "a1") && !p.legal.iter().any(|m| m == "c3" || m == "d3"));
    let alternatives: Vec<String> = v
        .alternatives
        .iter()
        .map(|a| match &a.reach {
            Reach::End => format!("{} (the rest replays)", a.text),
            Reach::StopsAt { token, .. } => format!("{} (stops at {token})", a.text),
        })
        .collect();
    println!("  alternatives: {}", alternatives.join(", "));
    assert!(!v.alternatives.is_empty());
    let source = Source::new("illegal.txt", Arc::new(ILLEGAL.to_string()));
    let report = referee::report::human(&source, v, HumanStyle::default());
    println!("{report}");
    assert!(report.contains("c3 already holds a Black stone") && report.contains("legal here: a1 b1"));
    assert!(report.contains("rule: docs/rules/inrow.md#inrow-placement"), "{report}");

    // Results claimed before the end, judged by searching every continuation: three cells are
    // left after White's 11th move, and no row of four can be made with them.
    let stop = DRAWN.find(" 12.").unwrap_or(DRAWN.len());
    for (claim, expected) in [("0-1", ClaimStatus::Refuted), ("0-0", ClaimStatus::Confirmed)] {
        let v = &verdicts(&record(&DRAWN[..stop], claim))[0];
        let c = &v.claims[0];
        println!("claim before the end: {claim} after {} moves: {}: {}", v.moves, c.status.name(), c.detail);
        assert_eq!(c.status, expected);
        assert!(!v.game_over && c.detail.contains("positions searched"));
    }

    // Results at the end: a win, a draw, and a game from a setup diagram (`CommonFormat::with_setup`)
    // with a final diagram; every claim confirmed.
    for (text, winner) in [
        (record("1. a1 a2 2. b2 b1 3. c3 c1 4. d4", "1-0"), Some("Black")),
        (record(DRAWN, "0-0"), None),
        (SETUP.to_string(), Some("Black")),
    ] {
        let v = &verdicts(&text)[0];
        let claims: Vec<String> = v.claims.iter().map(|c| format!("{}: {}", c.status.name(), c.detail)).collect();
        println!("result: {:?} after {} move(s): {}", v.status, v.moves, claims.join("; "));
        assert_eq!((v.status, v.winner.as_deref()), (Status::Valid, winner));
        assert!(!v.claims.is_empty() && v.claims.iter().all(|c| c.status == ClaimStatus::Confirmed));
    }

    // Random games (`random::random_game`), written as records (`write::write_common_record`) and
    // verified; each replayed (`replay::replay_observed`) to read every position back from its code.
    let start = InRow::start(None, None).unwrap_or_else(|e| panic!("{e}"));
    let mut positions = 0;
    for seed in 1..=20 {
        let moves = referee::random::random_game(&start, seed, 100);
        let text = referee::write::write_common_record(&start, &moves, &[]);
        let v = &verdicts(&text)[0];
        assert_eq!(
            (v.status, v.moves, v.claims[0].status),
            (Status::Valid, moves.len(), ClaimStatus::Confirmed),
            "{text}"
        );
        let Some(Found::Common(r)) = referee::record::read_format(&text, None).next() else { panic!("{text}") };
        let start = common_start::<InRow>(&text, &r).unwrap_or_else(|p| panic!("{}", p.message));
        referee::replay::replay_observed(start, &r.tokens, ReplayOptions::default(), |event| {
            if let Event::Played { position } = event {
                let code = position.code();
                assert_eq!(InRow::from_code(&code).as_ref(), Ok(position), "{code}");
                positions += 1;
            }
        });
    }
    println!("codes: 20 random games verified, {positions} positions read back from their codes");
    assert!(positions > 20 * K);
    let bad = [
        "inrow_4/4/4/4",
        "inrow_3/3/3_b_-",
        "inrow_05/5/5/5/5_b_-",
        "inrow_BWBWBW/5/5/5/5_b_-",
        "inrow_5/5/5/5/4é_b_-",
        "inrow_BBBB1/WWW2/5/5/5_w_-",
        "inrow_4/4/4/4_b_-_x",
    ];
    for bad in bad {
        let e = InRow::from_code(bad).err();
        println!("  {bad}: {}", e.as_ref().map_or("read".to_string(), |e| e.to_string()));
        assert!(e.is_some());
    }

    // A picture of the drawn game's last position.
    let mut position = start;
    for token in DRAWN.split_whitespace().filter(|t| !t.ends_with('.')) {
        let m = InRow::parse_move(token).and_then(|w| position.resolve(w).map_err(|e| e.to_string()));
        position.play(m.unwrap_or_else(|e| panic!("{token}: {e}"))).unwrap_or_else(|e| panic!("{token}: {e}"));
    }
    let scene = referee::picture::position_scene(&position, 25);
    let picture = svg(&scene, &SvgOptions::default());
    println!("picture: an SVG of {} bytes of:\n{}", picture.len(), referee::render::ascii::diagram(&position));
    assert!(picture.starts_with("<svg") && picture.contains("In a Row"));

    // A record may start from the game's own position code, in a `[Position]` tag.
    let start = InRow::start(None, None).expect("the default board");
    let coded = format!("[Game \"In a Row\"]\n[Position \"{}\"]\n\n1. c3 *\n", start.code());
    let v = &verdicts(&coded)[0];
    println!("from a code: {:?} after {} move(s)", v.status, v.moves);
    assert_eq!((v.status, v.moves), (Status::Valid, 1), "{:?}", v.problems);

    // Converted: the canonical layout, a JSON document read back and replayed again.
    let text = record(DRAWN, "0-0");
    let canonical = referee::convert::canonical(&text, 1, options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(verdicts(&canonical)[0].status, Status::Valid, "{canonical}");
    let doc = referee::convert::document(&text, 1, options).unwrap_or_else(|e| panic!("{e}"));
    let json = referee::convert::to_json(&doc);
    let back = referee::convert::read_json(&json).unwrap_or_else(|e| panic!("{e}"));
    let reread = referee::convert::reread_in(&back[0], options.games).unwrap_or_else(|e| panic!("{e}"));
    println!("converted: {} moves, {} bytes of JSON, read back: {}", doc.moves.len(), json.len(), reread == doc);
    assert_eq!(reread, doc);

    // Repaired: the second `c3` is one character from a legal move that lets the rest replay.
    let repaired = referee::repair::repair_source(ILLEGAL, options, RepairOptions::default(), None)
        .unwrap_or_else(|e| panic!("{e}"));
    let best = repaired[0].search.as_ref().and_then(|s| s.candidates.first()).expect("a repair");
    let changes: Vec<String> =
        best.changes.iter().map(|c| format!("{} `{}` -> `{}`", c.kind.name(), c.from, c.to)).collect();
    println!("repaired: {}", changes.join(", "));
    assert!(repaired[0].stands(), "{changes:?}");

    // Replayed move by move, drawn position by position, and read in chunks.
    let replayed = referee::moves::record_moves(&text, 1, options).unwrap_or_else(|(_, e)| panic!("{e}"));
    let pictures = referee::picture::pictures(&text, 1, options).unwrap_or_else(|(_, e)| panic!("{e}"));
    assert_eq!((replayed.moves.len(), pictures.scenes.len()), (25, 26));
    let collection = [ILLEGAL, &text, SETUP].join("\n");
    let stream = StreamOptions { chunk: 64, ..StreamOptions::default() };
    let mut streamed = Vec::new();
    referee::stream::verify_stream(collection.as_bytes(), options, stream, |_, v| {
        streamed.extend(v.into_iter().map(|v| v.status));
        Ok::<(), ()>(())
    })
    .unwrap_or_else(|_| panic!("the collection streams"));
    println!("streamed in 64-byte chunks: {streamed:?}");
    assert_eq!(streamed, [Status::Illegal, Status::Valid, Status::Valid]);

    // Perft from a position code, as `referee perft` counts it.
    struct Perft;
    impl referee::perft::WithPosition for Perft {
        type Output = u64;
        fn run<G: referee::Engine>(self, position: G) -> u64 {
            referee::perft::perft(&position, 2)
        }
    }
    let empty = InRow::start(None, None).expect("the default board").code();
    let leaves = referee::perft::with_position_in(options.games, &empty, Perft).unwrap_or_else(|e| panic!("{e}"));
    println!("perft 2 from {empty}: {leaves}");
    assert_eq!(leaves, 25 * 24);
}

/// The command line on the game: this program run again with arguments, as a user runs it.
fn command_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let games = dir.path().join("games.txt");
    let quarod = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n";
    std::fs::write(&games, format!("{ILLEGAL}\n{}\n{quarod}", record(DRAWN, "0-0"))).expect("the file is written");
    let file = games.to_str().expect("a UTF-8 path");
    let run = |args: &[&str]| {
        let out = Command::new(std::env::current_exe().expect("this program")).args(args).output().expect("it runs");
        let said = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
        println!("$ own_game {}: exit {}", args.join(" "), out.status.code().unwrap_or(-1));
        (out.status.code(), String::from_utf8_lossy(&out.stdout).to_string(), said)
    };
    let (code, _, said) = run(&["verify", file]);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("c3 already holds a Black stone") && said.contains("3 records in 1 file: 2 valid, 1 illegal"),
        "{said}"
    );
    let (code, canonical, said) = run(&["convert", "--to", "canonical", "--record", "2", file]);
    assert_eq!(code, Some(0), "{said}");
    assert!(canonical.starts_with("[Game \"In a Row\"]") && canonical.contains("13. e5 0-0"), "{canonical}");
    let (code, json, said) = run(&["convert", "--to", "json", "--record", "2", file]);
    assert_eq!(code, Some(0), "{said}");
    let json_file = dir.path().join("game.json");
    std::fs::write(&json_file, json).expect("the JSON is written");
    let (code, again, said) =
        run(&["convert", "--from", "json", "--to", "canonical", json_file.to_str().expect("UTF-8")]);
    assert_eq!((code, again.as_str()), (Some(0), canonical.as_str()), "{said}");
    // The record stands once repaired: exit code 0.
    let (code, repaired, said) = run(&["repair", "--record", "1", file]);
    assert_eq!(code, Some(0), "{said}");
    assert!(repaired.contains("c1"), "{repaired}");
    let pictures = dir.path().join("pictures");
    let (code, _, said) =
        run(&["render", "--format", "svg", "--record", "2", "--out", pictures.to_str().expect("UTF-8"), file]);
    assert_eq!(code, Some(0), "{said}");
    let drawn = std::fs::read_dir(&pictures).map_or(0, |d| d.count());
    assert_eq!(drawn, 26, "the start and a picture a move");
    let (code, counted, said) = run(&["perft", "inrow_5/5/5/5/5_b_-", "2"]);
    assert_eq!((code, counted.trim()), (Some(0), "600"), "{said}");
    let (code, shown, said) = run(&["show", "--record", "2", "--ply", "4", file]);
    assert_eq!(code, Some(0), "{said}");
    println!("{shown}");
    assert_eq!(shown.matches('B').count() + shown.matches('W').count(), 4, "{shown}");

    // The language server, through the protocol alone: a text opened, its diagnostics published.
    let mut server = Command::new(std::env::current_exe().expect("this program"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut to_server = server.stdin.take().expect("its input");
    let mut from_server = BufReader::new(server.stdout.take().expect("its output"));
    let mut send = |message: serde_json::Value| {
        let body = message.to_string();
        write!(to_server, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("the server reads");
        to_server.flush().expect("the server reads");
    };
    send(serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}));
    send(serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let uri = "file:///games.txt";
    let document = serde_json::json!({"uri": uri, "languageId": "referee", "version": 1, "text": ILLEGAL});
    send(serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}}));
    let diagnostics = loop {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(from_server.read_line(&mut line).expect("the server writes") > 0, "the server ended");
            match line.trim_end().strip_prefix("Content-Length: ") {
                Some(n) => length = n.parse().expect("a length"),
                None if line.trim_end().is_empty() => break,
                None => {}
            }
        }
        let mut body = vec![0; length];
        from_server.read_exact(&mut body).expect("the server writes");
        let message: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
        if message["method"] == "textDocument/publishDiagnostics" && message["params"]["uri"] == uri {
            break message["params"]["diagnostics"].clone();
        }
    };
    send(serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    send(serde_json::json!({"jsonrpc": "2.0", "method": "exit"}));
    let ended = server.wait().expect("the server ends");
    let first = &diagnostics[0];
    println!(
        "$ own_game lsp: {} ({}:{}), exit {}",
        first["message"],
        first["range"]["start"]["line"],
        first["range"]["start"]["character"],
        ended.code().unwrap_or(-1)
    );
    assert!(first["message"].as_str().is_some_and(|m| m.contains("c3 already holds a Black stone")), "{diagnostics}");
    assert_eq!(
        (first["range"]["start"]["line"].as_u64(), first["range"]["start"]["character"].as_u64()),
        (Some(3), Some(12))
    );
    assert_eq!(ended.code(), Some(0));
}
