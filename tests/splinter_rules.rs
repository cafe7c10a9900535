//! One test per rule point of Splinter Quad (RULINGS Splinter Quad 1-5), each on a small position
//! set up from a diagram, asserting the exact outcome of every move and snapshotting a transcript
//! of the moves, what each does, and the diagram of the position they leave.
//!
//! Moves are written as in the records: `d4e5` steps the piece on d4 to e5, pushing the line in
//! front of it; `d4e5/f7` also names a square of the group that stays when the move splits the
//! pieces into equal largest groups. Glyphs: the player's number, then K, R, B or P; `..` empty.

use std::collections::HashSet;

use proptest::prelude::*;

use referee::game::Notation;
use referee::game::{BoardView, Game, Outcome, Playable};
use referee::games::splinter::{
    default_block, default_size, Effects, Ending, Illegal, Kind, Piece, Player, Splinter, SplinterMove, Standing,
    Written, MAX_CHOICES, QUIET_MOVES,
};
use referee::geometry::{Cell, CellLabel, Geometry};
use referee::random::random_game;
use referee::render::ascii::diagram;

#[path = "support/rules.rs"]
mod rules;
use rules::{label, sorted, Session, Transcribed};

/// Splinter Quad as its tests read it: a token as a record reads it (syntax, then the board),
/// written back as read; a move played tells what it did (pushes, pieces off the board, groups
/// left); the transcript shows the score with each position.
impl Transcribed for Splinter {
    type Played = Effects;

    fn who(&self) -> String {
        self.to_move().to_string()
    }

    fn read(&self, tok: &str) -> Result<SplinterMove, Illegal> {
        let written = Splinter::parse_move(tok).unwrap_or_else(|e| panic!("{tok}: {e}"));
        self.resolve(written).inspect(|&m| assert_eq!(self.write_move(m), tok, "a move is written back as read"))
    }

    fn play_told(&mut self, m: SplinterMove) -> Result<(Effects, String), Illegal> {
        let effects = self.effects(m)?;
        assert_eq!(self.check(m), Ok(()));
        self.play(m).expect("a move with effects is legal");
        let told = format!(": {effects}");
        Ok((effects, told))
    }

    fn started(&self) -> String {
        format!("start, {}", self.shown())
    }

    fn shown(&self) -> String {
        format!("{} to move ({}):\n{}", self.to_move(), self.score(), diagram(self))
    }
}

/// A start for `players` drawn row by row (one row a line, glyphs separated by spaces); the board
/// is as many squares wide as there are rows. Red to move.
fn board(players: u8, rows: &str) -> Splinter {
    let cells: Vec<&str> = rows.split_whitespace().collect();
    let size = rows.lines().filter(|l| !l.trim().is_empty()).count() as u8;
    let empty = Splinter::start(Some(size), Some(players)).expect("a board");
    empty.with_setup(&cells).unwrap_or_else(|e| panic!("bad setup: {e}"))
}

fn piece(glyph: &str) -> Piece {
    Piece::from_glyph(glyph).unwrap_or_else(|| panic!("{glyph} is not a piece"))
}

impl Session<Splinter> {
    fn glyph(&self, s: &str) -> &'static str {
        self.pos.glyph(self.cell(s))
    }

    /// The legal moves of the piece on `from`, as sorted tokens, logged.
    fn moves_from(&mut self, from: &str) -> Vec<String> {
        let c = self.cell(from);
        let mut v: Vec<String> =
            self.pos.legal_moves().into_iter().filter(|m| m.from == c).map(|m| self.pos.write_move(m)).collect();
        v.sort();
        self.note(&format!("{}'s moves from {from}: {}", self.pos.to_move(), v.join(" ")));
        v
    }
}

/// The 8-neighbours of a cell on a square board (the geometry's own neighbours are orthogonal).
fn around(g: Geometry, c: Cell) -> impl Iterator<Item = Cell> {
    let (col, row) = (g.col(c) as i32, g.row(c) as i32);
    (-1..=1).flat_map(move |dr| (-1..=1).filter_map(move |dc| g.cell_at(col + dc, row + dr)))
}

/// The moves `check` is asked about: every pair of squares, with no choice; for every step of one
/// of the mover's pieces, choices of one square a piece could stand on after the move (all of them
/// on boards of up to 36 squares, else a sample: the first, and the squares the step leaves and
/// enters), and wherever `check` asks for a choice (a tie), every further choice, down to the
/// deepest tie; and every legal move with its last choice changed or one more added.
fn candidates(pos: &Splinter) -> Vec<SplinterMove> {
    let g = pos.geometry();
    let cells: Vec<Cell> = g.cells().collect();
    // The squares a piece can stand on after a step: those holding one or next to one.
    let near: Vec<Cell> = cells.iter().copied().filter(|&c| around(g, c).any(|n| pos.piece(n).is_some())).collect();
    let small = cells.len() <= 36;
    let mut all = Vec::new();
    for &from in &cells {
        let own = pos.piece(from).is_some_and(|p| p.player == pos.to_move());
        for &to in &cells {
            all.push(SplinterMove::step(from, to));
            if !(own && around(g, from).any(|n| n == to)) {
                continue;
            }
            let sample = [near[0], from, to];
            let mut prefixes = vec![Vec::new()];
            while let Some(made) = prefixes.pop() {
                let tie =
                    matches!(pos.check(SplinterMove::keeping(from, to, &made)), Err(Illegal::ChoiceNeeded { .. }));
                let choices: &[Cell] = if tie || small { &near } else { &sample };
                if made.is_empty() || tie {
                    for &c in choices {
                        let longer = [made.as_slice(), &[c]].concat();
                        all.push(SplinterMove::keeping(from, to, &longer));
                        if tie && longer.len() < MAX_CHOICES {
                            prefixes.push(longer);
                        }
                    }
                }
            }
        }
    }
    for m in pos.legal_moves() {
        let made: Vec<Cell> = m.choices().collect();
        for &c in &near {
            if made.len() < MAX_CHOICES {
                all.push(SplinterMove::keeping(m.from, m.to, &[made.as_slice(), &[c]].concat()));
            }
            if let Some((_, before)) = made.split_last() {
                all.push(SplinterMove::keeping(m.from, m.to, &[before, &[c]].concat()));
            }
        }
    }
    all
}

fn assert_legal_moves_match_check(pos: &Splinter) {
    let legal = pos.legal_moves();
    let set: HashSet<SplinterMove> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "legal_moves has duplicates\n{}", diagram(pos));
    let accepted: HashSet<SplinterMove> = candidates(pos).into_iter().filter(|&m| pos.check(m).is_ok()).collect();
    if set != accepted {
        let show = |v: &HashSet<SplinterMove>| v.iter().map(|&m| pos.write_move(m)).collect::<Vec<_>>().join(" ");
        panic!(
            "legal_moves and check disagree\nonly legal: {}\nonly accepted: {}\n{}",
            show(&set.difference(&accepted).copied().collect()),
            show(&accepted.difference(&set).copied().collect()),
            diagram(pos)
        );
    }
    assert_eq!(pos.is_over(), legal.is_empty(), "{}", diagram(pos));
    // A player still in always has a move: there is no passing.
    if !pos.is_over() {
        assert!(pos.is_in(pos.to_move()));
        assert!(legal.len() >= 2, "{}", diagram(pos));
    }
    assert_distinct_moves_name_each_move_once(pos, &legal);
}

/// `distinct_moves` names each legal move once for what it does: every legal move (a choice of
/// group written with any of the group's squares) leaves the position one distinct move leaves,
/// by the same step; distinct moves of one step leave different positions (but an empty board);
/// and each is written canonically, every choice the group's first square in reading order (no
/// other way to write it names a square before), in a token the notation reads back to the same
/// move.
fn assert_distinct_moves_name_each_move_once(pos: &Splinter, legal: &[SplinterMove]) {
    let after = |m: SplinterMove| {
        let mut p = pos.clone();
        p.play_unchecked(m);
        p
    };
    let distinct: Vec<(SplinterMove, Splinter)> = pos.distinct_moves().into_iter().map(|m| (m, after(m))).collect();
    for (i, (d, reached)) in distinct.iter().enumerate() {
        assert!(legal.contains(d), "{} is not legal\n{}", pos.write_move(*d), diagram(pos));
        let written = pos.write_move(*d);
        assert_eq!(pos.resolve(Splinter::parse_move(&written).unwrap()), Ok(*d), "{written}");
        // Keeping different groups leaves different pieces, unless no piece is left at all
        // (everybody goes out): those stay two moves, of one outcome.
        let same = |o: &(SplinterMove, Splinter)| (o.0.from, o.0.to, &o.1) == (d.from, d.to, reached);
        let empty = reached.geometry().cells().all(|c| reached.piece(c).is_none());
        assert!(empty || !distinct[i + 1..].iter().any(same), "{written} twice\n{}", diagram(pos));
    }
    for &m in legal {
        let reached = after(m);
        let Some((d, _)) = distinct.iter().find(|(d, p)| (d.from, d.to) == (m.from, m.to) && *p == reached) else {
            panic!("{} has no distinct move\n{}", pos.write_move(m), diagram(pos));
        };
        assert!(
            d.choices().zip(m.choices()).all(|(a, b)| a.0 <= b.0),
            "{} before {}",
            pos.write_move(m),
            pos.write_move(*d)
        );
    }
}

/// RULINGS Splinter Quad 1: the default starts for two, three and four players: one block of
/// pieces in the middle of the board, checkerboard-style (no two pieces of one player side by
/// side), each player with 1 king, 2 rooks, 2 bishops and 4 pawns, fair by a symmetry of the
/// board as far as one exists.
#[test]
fn the_default_starts_for_two_three_and_four_players() {
    let mut log = String::new();
    assert_eq!(Splinter::ABOUT.title, "Splinter Quad");
    let four = Splinter::start(None, None).unwrap();
    assert_eq!(four, Splinter::start(Some(10), Some(4)).unwrap(), "four players on 10x10 by default");
    assert_eq!(four.player_names(), ["Red", "Blue", "Green", "Yellow"]);
    assert_eq!(Splinter::start(None, Some(2)).unwrap().player_names(), ["Red", "Blue"]);
    assert_eq!(Splinter::start(None, Some(3)).unwrap().player_names(), ["Red", "Blue", "Green"]);
    assert_eq!((default_size(2), default_size(3), default_size(4)), (Some(10), Some(13), Some(10)));
    for players in 2..=4u8 {
        let pos = Splinter::start(None, Some(players)).unwrap();
        let g = pos.geometry();
        let n = pos.size() as i32;
        assert_eq!(Playable::to_move(&pos), 0, "Red moves first");
        assert_eq!(pos.groups().len(), 1, "one block");
        assert_eq!(pos.players_in().len(), players as usize);
        for &p in pos.player_list() {
            assert_eq!(pos.army(p), [1, 2, 2, 4], "{p}'s army");
            assert_eq!((pos.pieces(p), pos.knockouts(p)), (9, 0));
        }
        // No two pieces of one player side by side.
        for c in g.cells() {
            for nb in g.neighbours(c) {
                if let (Some(a), Some(b)) = (pos.piece(c), pos.piece(nb)) {
                    assert_ne!(a.player, b.player, "{} and {}", g.label(c), g.label(nb));
                }
            }
        }
        // The symmetry: a quarter turn (4), the half turn (3: Red and Blue, Green to itself) or the
        // mirror between the two middle files (2) carries each player's pieces onto the next's.
        let image = |col: i32, row: i32| match players {
            4 => (n - 1 - row, col),
            3 => (n - 1 - col, n - 1 - row),
            _ => (n - 1 - col, row),
        };
        let next = |p: Player| match players {
            4 => Player::ALL[(p.index() + 1) % 4],
            3 => [Player::Blue, Player::Red, Player::Green][p.index()],
            _ => [Player::Blue, Player::Red][p.index()],
        };
        for c in g.cells() {
            let (col, row) = image(g.col(c) as i32, g.row(c) as i32);
            let there = pos.piece(g.cell_at(col, row).unwrap());
            let expected = pos.piece(c).map(|p| Piece { player: next(p.player), kind: p.kind });
            assert_eq!(there, expected, "{players} players: {}", g.label(c));
        }
        log.push_str(&format!(
            "{players} players, {}x{} board, block of {} ranks:\n{}",
            pos.size(),
            pos.size(),
            default_block(players).unwrap().len(),
            diagram(&pos)
        ));
    }
    // Another size: the same block, centred (a half line up and left when it cannot be exactly).
    let eight = Splinter::start(Some(8), Some(4)).unwrap();
    let nine = Splinter::start(Some(9), Some(4)).unwrap();
    assert_eq!((eight.glyph(Cell(9)), eight.glyph(Cell(8 * 6 + 6))), ("1B", "3B"));
    assert_eq!((nine.glyph(Cell(10)), nine.glyph(Cell(9 * 6 + 6))), ("1B", "3B"));
    assert_eq!(nine.glyph(Cell(9 * 7 + 7)), "..");
    log.push_str(&format!("4 players on 8x8:\n{}4 players on 9x9:\n{}", diagram(&eight), diagram(&nine)));
    // Too small for the block: no default start, and no game without a setup.
    let small = Splinter::start(Some(5), Some(4)).unwrap();
    assert!(small.is_over());
    assert_eq!(small.legal_moves(), []);
    let no_start = Ending::NoStart { size: 5, players: 4 };
    assert_eq!(small.ending(), Some(&no_start));
    let tried = small.check(SplinterMove::step(Cell(0), Cell(1)));
    assert_eq!(tried, Err(Illegal::GameOver(no_start)));
    let message = tried.unwrap_err().to_string();
    assert_eq!(
        message,
        "there is no game: the 5x5 board is too small for the default start of 4 players (a 6x6 block), \
         and no setup diagram was given"
    );
    let o = small.outcome().unwrap();
    assert_eq!((o.winner, o.points), (None, vec![0.0; 4]));
    log.push_str(&format!("4 players on 5x5: {message}\n"));
    let refusals = [
        Splinter::start(None, Some(1)).unwrap_err().to_string(),
        Splinter::start(Some(10), Some(5)).unwrap_err().to_string(),
        Splinter::start(Some(1), Some(2)).unwrap_err().to_string(),
        Splinter::start(Some(27), None).unwrap_err().to_string(),
    ];
    assert_eq!(refusals[0], "Splinter Quad is a game for two to four players, not 1");
    assert_eq!(refusals[1], "Splinter Quad is a game for two to four players, not 5");
    assert_eq!(refusals[2], "Splinter Quad is played on square boards from 2x2 to 26x26, not 1x1");
    assert_eq!(refusals[3], "Splinter Quad is played on square boards from 2x2 to 26x26, not 27x27");
    for e in refusals {
        log.push_str(&format!("refused: {e}\n"));
    }
    insta::assert_snapshot!(log);
}

/// RULINGS Splinter Quad 1: a record gives its own size and start diagram: one glyph per square in
/// reading order, at most 1 king, 2 rooks, 2 bishops and 4 pawns a player, at least one piece for
/// every player; errors name the square.
#[test]
fn a_record_gives_its_own_size_and_start() {
    let mut log = String::new();
    let three = Splinter::start(Some(4), Some(3)).unwrap();
    assert!(three.is_over(), "a 4x4 board is too small for the three-player block");
    let cells = |glyphs: &[(usize, &'static str)]| {
        let mut v = vec![".."; 16];
        for &(i, g) in glyphs {
            v[i] = g;
        }
        v
    };
    let ok = cells(&[(5, "1K"), (6, "2P"), (9, "3B"), (10, "1P")]);
    let pos = three.with_setup(&ok).unwrap();
    assert!(!pos.is_over());
    assert_eq!((pos.size(), pos.player_count(), pos.to_move()), (4, 3, Player::Red));
    assert_eq!(pos.piece(Cell(6)), Some(piece("2P")));
    assert_eq!(pos.army(Player::Red), [1, 0, 0, 1]);
    assert_eq!(pos.knockouts(Player::Red), 0, "types a setup does not give are no knockouts");
    log.push_str(&format!("a 3-player setup on 4x4 ({}):\n{}", pos.score(), diagram(&pos)));
    let errors = [
        three.with_setup(&ok[..15]).unwrap_err().to_string(),
        three.with_setup(&cells(&[(5, "1K"), (6, "2P"), (9, "3B"), (14, "5K")])).unwrap_err().to_string(),
        three.with_setup(&cells(&[(5, "1K"), (6, "2p"), (9, "3B")])).unwrap_err().to_string(),
        three.with_setup(&cells(&[(5, "1K"), (6, "2P"), (9, "3B"), (15, "4P")])).unwrap_err().to_string(),
        three.with_setup(&cells(&[(0, "1K"), (6, "2P"), (9, "3B"), (3, "1K")])).unwrap_err().to_string(),
        three.with_setup(&cells(&[(0, "1R"), (1, "1R"), (6, "2P"), (9, "3B"), (12, "1R")])).unwrap_err().to_string(),
        three.with_setup(&cells(&[(5, "1K"), (6, "2P")])).unwrap_err().to_string(),
    ];
    assert_eq!(errors[0], "the setup has 15 cells; the 4x4 board has 16");
    assert_eq!(
        errors[1],
        "c4: `5K` is not a Splinter Quad glyph: expected `..`, or a player's number 1-4 and K, R, B or P, like 1K or 3P"
    );
    assert_eq!(
        errors[2],
        "c2: `2p` is not a Splinter Quad glyph: expected `..`, or a player's number 1-4 and K, R, B or P, like 1K or 3P"
    );
    assert_eq!(errors[3], "d4: `4P` is a piece of player 4, but the game has 3 players");
    assert_eq!(errors[4], "d1: a second Red king: each player has at most 1 king, 2 rooks, 2 bishops and 4 pawns");
    assert_eq!(errors[5], "a4: a third Red rook: each player has at most 1 king, 2 rooks, 2 bishops and 4 pawns");
    assert_eq!(errors[6], "the setup gives Green no piece: every player needs at least one");
    for e in &errors {
        log.push_str(&format!("refused: {e}\n"));
    }
    // A setup on a board the default start fits replaces the default pieces; the record's size
    // and player count come from its tags (start), its pieces from the diagram.
    let six = Splinter::start(Some(6), Some(2)).unwrap();
    assert!(!six.is_over());
    log.push_str(&format!("the default 2-player start on 6x6:\n{}", diagram(&six)));
    let mut cells = vec![".."; 36];
    cells[14] = "2K";
    cells[21] = "1K";
    let replaced = six.with_setup(&cells).unwrap();
    assert_eq!(replaced.groups().len(), 1);
    assert_eq!((replaced.pieces(Player::Red), replaced.pieces(Player::Blue)), (1, 1));
    log.push_str(&format!("replaced by a setup:\n{}", diagram(&replaced)));
    // Several groups in a setup: they stand until the first move settles them.
    let mut s = Session::new(board(
        2,
        "1K 2K .. .. ..
         .. .. .. .. ..
         .. .. .. 1P 2P
         .. .. .. 1B 2R
         .. .. .. .. ..",
    ));
    assert_eq!(s.pos.groups().len(), 2);
    let e = s.ok("a1a2");
    assert_eq!(e.splintered, [(label("b1"), piece("2K")), (label("a2"), piece("1K"))]);
    assert_eq!(s.pos.groups().len(), 1);
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Splinter Quad 1: the players move in a fixed order, Red, Blue, Green, Yellow, as many
/// as play.
#[test]
fn turn_order_among_two_three_and_four_players() {
    let mut log = String::new();
    let mut s = Session::new(board(
        4,
        ".. .. .. .. .. ..
         .. 1K 2K 3K 4K ..
         .. 3P 4P 1P 2P ..
         .. .. .. .. .. ..
         .. .. .. .. .. ..
         .. .. .. .. .. ..",
    ));
    for (tok, next) in [
        ("b2a2", Player::Blue),
        ("c2b2", Player::Green),
        ("d2c2", Player::Yellow),
        ("e2d2", Player::Red),
        ("d3d4", Player::Blue),
    ] {
        let e = s.ok(tok);
        assert_eq!(e.pieces_gone(), 0);
        assert_eq!(s.pos.to_move(), next);
        assert_eq!(Playable::to_move(&s.pos), next.index());
    }
    log.push_str(&s.transcript());
    // Three players: the same, without Yellow.
    let mut s = Session::new(board(
        3,
        ".. .. .. .. ..
         .. 1K 2K 3K ..
         .. 3P 1P 2P ..
         .. .. .. .. ..
         .. .. .. .. ..",
    ));
    for (tok, next) in [("b2a2", Player::Blue), ("c2b2", Player::Green), ("d2c2", Player::Red), ("c3c4", Player::Blue)]
    {
        s.ok(tok);
        assert_eq!(s.pos.to_move(), next);
    }
    log.push_str(&s.transcript());
    // Two players alternate.
    let mut s = Session::new(board(
        2,
        ".. .. .. ..
         .. 1K 2K ..
         .. 2P 1P ..
         .. .. .. ..",
    ));
    for (tok, next) in [("b2a2", Player::Blue), ("c2b2", Player::Red), ("c3c4", Player::Blue)] {
        s.ok(tok);
        assert_eq!(s.pos.to_move(), next);
    }
    s.refused("c4d4", Illegal::NoPiece { player: Player::Blue, cell: label("c4") });
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Splinter Quad 5: a player who is out is skipped in the turn order, and the game goes
/// on while two players or more are in.
#[test]
fn eliminated_players_are_skipped_in_the_turn_order() {
    let mut s = Session::new(board(
        3,
        "1K 3K 1P .. ..
         3P .. .. 2K ..
         .. .. .. 2P ..
         .. .. .. .. ..
         .. .. .. .. ..",
    ));
    s.note("c1 holds Blue's king and pawn to the rest: when it steps away they splinter off");
    let e = s.ok("c1b2");
    assert_eq!(e.splintered, [(label("d2"), piece("2K")), (label("d3"), piece("2P"))]);
    assert_eq!(e.knockouts, [(Player::Blue, Kind::King), (Player::Blue, Kind::Pawn)]);
    assert_eq!(e.out, [(Player::Blue, 2, 0)]);
    assert_eq!(s.pos.standing(Player::Blue), Standing::Out { knockouts: 2, pieces: 0 });
    assert_eq!(s.pos.to_move(), Player::Green, "Blue is skipped");
    assert_eq!(s.pos.players_in(), [Player::Red, Player::Green]);
    assert!(!s.pos.is_over());
    s.show();
    for (tok, next) in [("b1c1", Player::Red), ("a1b1", Player::Green), ("a2a3", Player::Red)] {
        s.ok(tok);
        assert_eq!(s.pos.to_move(), next);
    }
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Splinter Quad 2: a piece steps one square in any of 8 directions, and the unbroken line
/// of pieces in front of it, anybody's, moves one square along too; the moved piece itself must
/// land on a square of the board.
#[test]
fn a_move_pushes_the_whole_line_in_front_of_it() {
    let mut s = Session::new(board(
        3,
        ".. .. .. .. ..
         1K 2P 3B 2R ..
         .. 1P .. .. ..
         .. .. 3K .. ..
         .. .. .. 2K ..",
    ));
    s.refused("a2c2", Illegal::NotAStep { from: label("a2"), to: label("c2") });
    s.refused("a2a2", Illegal::NotAStep { from: label("a2"), to: label("a2") });
    s.refused("b2c2", Illegal::NoPiece { player: Player::Red, cell: label("b2") });
    s.refused("a3b3", Illegal::NoPiece { player: Player::Red, cell: label("a3") });
    s.refused("a2f2", Illegal::NotAStep { from: label("a2"), to: label("f2") });
    s.note("a2 is on the edge: its piece steps to the five squares around it, never off the board");
    assert_eq!(s.moves_from("a2"), sorted(&["a2a1", "a2a3", "a2b1", "a2b2", "a2b3"]));
    let e = s.ok("a2b2");
    assert_eq!(e.pieces_gone(), 0);
    assert_eq!(
        ["a2", "b2", "c2", "d2", "e2"].map(|c| s.glyph(c)),
        ["..", "1K", "2P", "3B", "2R"],
        "the whole line moved one square east"
    );
    s.show();
    s.note("a diagonal push: the line starts on the square stepped to and ends at the first gap");
    let e = s.ok("d5c4");
    assert_eq!(e.pieces_gone(), 0);
    assert_eq!(["d5", "c4", "b3", "a2"].map(|c| s.glyph(c)), ["..", "2K", "3K", "1P"]);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Splinter Quad 2: a player steps their own piece only onto the board; a piece leaves it
/// only pushed. A step off is refused as the step's rule (docs/rules/splinter.md#splinter-step),
/// checked as a step onto the board would be: the mover's piece first, then a neighbouring square.
#[test]
fn a_player_may_not_step_their_own_piece_off_the_board() {
    use referee::game::BreaksRule;

    let mut s = Session::new(board(
        2,
        ".. .. .. ..
         .. .. 2P 1R
         .. .. 2K 1K
         .. 1P 1B 2R",
    ));
    let steps_off = |from, to| Illegal::StepsOff { from: label(from), to: label(to), size: 4 };
    s.refused("d2e2", steps_off("d2", "e2"));
    s.refused("d3e4", steps_off("d3", "e4"));
    s.refused("c4c5", steps_off("c4", "c5"));
    assert_eq!(steps_off("d2", "e2").rule(), "step");
    s.refused("d2f2", Illegal::NotAStep { from: label("d2"), to: label("f2") });
    s.refused("d4e4", Illegal::NoPiece { player: Player::Red, cell: label("d4") });
    s.note("a square off the board where no step is at stake breaks the board's rule");
    s.refused("e2d2", Illegal::OffBoard { cell: label("e2"), size: 4 });
    assert_eq!(Illegal::OffBoard { cell: label("e2"), size: 4 }.rule(), "board");
    s.note("pushed, a piece leaves the board: Red's bishop steps east and pushes Blue's rook off");
    let e = s.ok("c4d4");
    assert_eq!(e.pushed_off, [(label("d4"), piece("2R"))]);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Splinter Quad 2: a piece pushed off the board is eliminated, whoever's it is (the
/// mover's own too), off any edge.
#[test]
fn a_piece_pushed_off_the_board_is_eliminated() {
    let mut s = Session::new(board(
        2,
        "1K 2P 2R 1B
         1P 2K .. ..
         .. .. .. ..
         .. .. .. ..",
    ));
    let e = s.ok("a1b1");
    assert_eq!(e.pushed_off, [(label("d1"), piece("1B"))]);
    assert_eq!(e.knockouts, [(Player::Red, Kind::Bishop)]);
    assert_eq!(["a1", "b1", "c1", "d1"].map(|c| s.glyph(c)), ["..", "1K", "2P", "2R"]);
    s.note("Blue's king steps north onto b1 and pushes Red's king off the top edge");
    let e = s.ok("b2b1");
    assert_eq!(e.pushed_off, [(label("b1"), piece("1K"))]);
    assert_eq!(e.knockouts, [(Player::Red, Kind::King)]);
    assert_eq!(e.out, [(Player::Red, 2, 1)]);
    assert_eq!(e.removed, [(label("a2"), piece("1P"))]);
    assert_eq!(s.pos.ending(), Some(&Ending::LastStanding(Player::Blue)));
    log_outcome(&mut s, Some(Player::Blue), vec![0.0, 3.0], "Blue is the last player standing");
    s.refused("a2a3", Illegal::GameOver(Ending::LastStanding(Player::Blue)));
    let mut log = s.transcript();

    // Diagonally, off a corner.
    let mut s = Session::new(board(
        2,
        "1K .. .. ..
         .. 2P .. ..
         .. .. 1B ..
         .. .. .. 2K",
    ));
    let e = s.ok("a1b2");
    assert_eq!(e.pushed_off, [(label("d4"), piece("2K"))]);
    assert_eq!(["b2", "c3", "d4"].map(|c| s.glyph(c)), ["1K", "2P", "1B"]);
    assert_eq!((s.pos.knockouts(Player::Blue), s.pos.is_in(Player::Blue)), (1, true));
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// Logs the outcome and checks it.
fn log_outcome(s: &mut Session<Splinter>, winner: Option<Player>, points: Vec<f64>, detail: &str) {
    let o = s.outcome().expect("the game is over");
    assert_eq!(o, Outcome { winner: winner.map(Player::index), points, detail: detail.to_string() });
    assert!(s.pos.legal_moves().is_empty());
}

/// RULINGS Splinter Quad 3: the moved piece may not end a move on the square it left on the
/// previous move; it may two moves later.
#[test]
fn a_moved_piece_may_not_return_to_the_square_it_just_left() {
    let mut s = Session::new(board(
        2,
        ".. .. .. .. ..
         2R .. 1K .. ..
         .. 1P 2P .. ..
         .. .. .. .. ..
         .. .. .. .. ..",
    ));
    s.ok("c2b2");
    assert_eq!(s.pos.left_from(s.cell("b2")), Some(s.cell("c2")));
    s.note("Blue's rook would push Red's king back to c2, which it has just left");
    s.refused("a2b2", Illegal::Returns { piece: piece("1K"), at: label("b2"), back_to: label("c2") });
    assert!(!s.moves_from("a2").contains(&"a2b2".to_string()));
    s.ok("a2a3");
    s.note("the king left c2 two moves ago: it may go back");
    s.ok("b2c2");
    assert_eq!(s.glyph("c2"), "1K");
    s.note("the rook left a2 on Blue's own last move, not on the previous move: it may go back too");
    s.ok("a3a2");
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Splinter Quad 3: a pushed piece may not end the next move on the square it was pushed
/// from, whether its owner moves it back or another piece pushes it back.
#[test]
fn a_pushed_piece_may_not_return_to_the_square_it_just_left() {
    let mut s = Session::new(board(
        2,
        ".. .. .. .. ..
         .. 1K 2R .. 2B
         .. 1P 2P 2P ..
         .. .. .. .. ..
         .. .. .. .. ..",
    ));
    s.ok("b2c2");
    assert_eq!((s.glyph("c2"), s.glyph("d2")), ("1K", "2R"));
    s.refused("d2c2", Illegal::Returns { piece: piece("2R"), at: label("d2"), back_to: label("c2") });
    s.note("the bishop pushes the rook back: the rook would return");
    s.refused("e2d2", Illegal::Returns { piece: piece("2R"), at: label("d2"), back_to: label("c2") });
    let from_d2 = s.moves_from("d2");
    assert_eq!(from_d2.len(), 7, "every step but the one back");
    assert!(!from_d2.contains(&"d2c2".to_string()));
    s.ok("c3c4");
    s.ok("b3b2");
    s.note("two moves on, the rook goes back to c2, pushing the king and the pawn west");
    let e = s.ok("d2c2");
    assert_eq!(e.pieces_gone(), 0);
    assert_eq!(["a2", "b2", "c2"].map(|c| s.glyph(c)), ["1P", "1K", "2R"]);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Splinter Quad 4: pieces form groups through sides and corners: a corner contact keeps
/// a group together; a gap of one square does not.
#[test]
fn groups_connect_through_sides_and_corners() {
    let mut s = Session::new(board(
        2,
        ".. .. .. ..
         1K 2K .. ..
         .. .. 1P ..
         .. .. .. 2P",
    ));
    assert_eq!(s.pos.groups().len(), 1, "b2, c3 and d4 touch at corners only");
    s.note("a1 touches b2 at a corner only: nothing splinters");
    let e = s.ok("a2a1");
    assert_eq!(e, Effects::default());
    assert_eq!(s.pos.groups().len(), 1);
    let mut log = s.transcript();
    // Two squares apart (a knight's move), pieces do not touch.
    let apart = board(
        2,
        "1K .. .. ..
         .. .. 2K ..
         .. .. .. ..
         .. .. .. ..",
    );
    assert_eq!(apart.groups().len(), 2);
    log.push_str(&format!("{}-- a1 and c2 make {} groups\n", diagram(&apart), apart.groups().len()));
    insta::assert_snapshot!(log);
}

/// RULINGS Splinter Quad 4: after a move, if the pieces form several groups, only the largest
/// stays: the others' pieces are eliminated, the mover's own included.
#[test]
fn only_the_largest_group_survives_a_splinter() {
    let mut s = Session::new(board(
        2,
        "2R 2P 1K 2P 1B
         1P .. .. .. ..
         .. .. .. .. ..
         .. .. .. .. ..
         .. .. .. .. ..",
    ));
    s.note("c1 bridges the two ends of the row; stepping to b2 it leaves d1 and e1 behind");
    let e = s.ok("c1b2");
    assert_eq!(e.splintered, [(label("d1"), piece("2P")), (label("e1"), piece("1B"))]);
    assert_eq!(e.knockouts, [(Player::Red, Kind::Bishop)], "Blue still has a pawn");
    assert_eq!(s.pos.groups(), [vec![s.cell("a1"), s.cell("b1"), s.cell("a2"), s.cell("b2")]]);
    let mut log = s.transcript();
    // Three groups at once: c3 is the only contact between three arms; stepping to d2 it stays
    // with the northern one, the largest, and the other two splinter off.
    let mut t = Session::new(board(
        2,
        ".. 1P 2P 1R ..
         .. .. 2R .. ..
         .. .. 1K .. ..
         .. 2B .. 1B ..
         1B .. .. .. 1P",
    ));
    let e = t.ok("c3d2");
    assert_eq!(
        e.splintered,
        [
            (label("b4"), piece("2B")),
            (label("d4"), piece("1B")),
            (label("a5"), piece("1B")),
            (label("e5"), piece("1P"))
        ]
    );
    assert_eq!(e.knockouts, [(Player::Red, Kind::Bishop), (Player::Blue, Kind::Bishop)]);
    assert_eq!(t.pos.groups().len(), 1);
    log.push_str(&t.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Splinter Quad 4: among equal largest groups the mover chooses, and the record says
/// which with `/` and a square of the group that stays: required exactly when there is a choice,
/// and the square must be in one of the largest groups. The mover may keep the other player's.
#[test]
fn the_mover_chooses_among_equal_largest_groups() {
    let rows = "1P 2P 1K 2P 1B
                .. .. .. .. 2R
                .. .. .. .. ..
                .. .. .. .. ..
                .. .. .. .. ..";
    let mut s = Session::new(board(2, rows));
    s.note("c1 to b2 leaves a1 b1 b2 and d1 e1 e2: two groups of 3");
    s.refused("c1b2", Illegal::ChoiceNeeded { after: vec![], groups: 2, size: 3, like: "c1b2/a1".to_string() });
    s.refused("c1b2/c1", Illegal::NotInLargest { cell: label("c1") });
    s.refused("c1b2/c3", Illegal::NotInLargest { cell: label("c3") });
    s.refused("c1b2/a1/d1", Illegal::NoChoice { cell: label("d1"), ties: 1 });
    s.note("c1 to c2 touches both ends: no choice to make");
    s.refused("c1c2/a1", Illegal::NoChoice { cell: label("a1"), ties: 0 });
    assert_eq!(
        s.moves_from("c1"),
        sorted(&["c1b1", "c1b2/a1", "c1b2/b1", "c1b2/b2", "c1b2/d1", "c1b2/e1", "c1b2/e2", "c1c2", "c1d1", "c1d2"])
    );
    let e = s.ok("c1b2/b1");
    assert_eq!(e.splintered, [(label("d1"), piece("2P")), (label("e1"), piece("1B")), (label("e2"), piece("2R"))]);
    assert_eq!(e.knockouts, [(Player::Red, Kind::Bishop), (Player::Blue, Kind::Rook)]);
    let mut log = s.transcript();
    // The same move keeping the other group: Red gives up its king and pawn, and is out.
    let mut s = Session::new(board(2, rows));
    let e = s.ok("c1b2/e2");
    assert_eq!(e.splintered, [(label("a1"), piece("1P")), (label("b1"), piece("2P")), (label("b2"), piece("1K"))]);
    assert_eq!(e.out, [(Player::Red, 2, 1)]);
    log_outcome(&mut s, Some(Player::Blue), vec![0.0, 2.0], "Blue is the last player standing");
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Splinter Quad 5: a player takes a knockout for each type of piece they run out of:
/// losing one of two rooks is none, losing the last is one. Types a start does not give are none.
#[test]
fn a_knockout_for_each_piece_type_run_out() {
    let mut s = Session::new(board(
        2,
        "1K 2R 2R
         1P 2K 2P
         1B .. ..",
    ));
    assert_eq!((s.pos.knockouts(Player::Red), s.pos.army(Player::Red)), (0, [1, 0, 1, 1]));
    let e = s.ok("a1b1");
    assert_eq!(e.pushed_off, [(label("c1"), piece("2R"))]);
    assert_eq!(e.knockouts, [], "Blue has another rook");
    assert_eq!((s.pos.knockouts(Player::Blue), s.pos.quiet_moves()), (0, 0));
    s.ok("c2c3");
    assert_eq!(s.pos.quiet_moves(), 1);
    let e = s.ok("b1c1");
    assert_eq!(e.pushed_off, [(label("c1"), piece("2R"))]);
    assert_eq!(e.knockouts, [(Player::Blue, Kind::Rook)]);
    assert_eq!((s.pos.knockouts(Player::Blue), s.pos.pieces(Player::Blue), s.pos.quiet_moves()), (1, 2, 0));
    assert!(s.pos.is_in(Player::Blue), "one knockout is not out");
    assert_eq!(s.pos.score().to_string(), "Red 3 pieces, 0 knockouts; Blue 2 pieces, 1 knockout");
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Splinter Quad 5: at two knockouts a player is out and their pieces leave the board;
/// the groups are then checked again, and the mover chooses again among equal largest groups.
/// The last player standing wins.
#[test]
fn two_knockouts_put_a_player_out_and_their_pieces_leave() {
    let rows = "2R 2K .. .. .. ..
                .. .. 1K .. .. ..
                .. .. 1P 2P 3K 3B
                .. .. 1B .. 3P ..
                .. .. .. .. .. ..
                .. .. .. .. .. ..";
    let mut s = Session::new(board(3, rows));
    s.note("c2 to b3 splinters off a1 and b1: Blue runs out of rooks and kings and is out;");
    s.note("its pawn on d3 leaves too, and the rest splits into two groups of 3");
    s.refused(
        "c2b3",
        Illegal::ChoiceNeeded { after: vec![Player::Blue], groups: 2, size: 3, like: "c2b3/b3".to_string() },
    );
    s.refused("c2b3/d3", Illegal::NotInLargest { cell: label("d3") });
    s.refused("c2b3/b1", Illegal::NotInLargest { cell: label("b1") });
    let e = s.ok("c2b3/c4");
    assert_eq!(
        e.splintered,
        [
            (label("a1"), piece("2R")),
            (label("b1"), piece("2K")),
            (label("e3"), piece("3K")),
            (label("f3"), piece("3B")),
            (label("e4"), piece("3P")),
        ]
    );
    assert_eq!(
        e.knockouts,
        [
            (Player::Blue, Kind::King),
            (Player::Blue, Kind::Rook),
            (Player::Green, Kind::King),
            (Player::Green, Kind::Bishop),
            (Player::Green, Kind::Pawn),
        ]
    );
    assert_eq!(e.out, [(Player::Blue, 2, 1), (Player::Green, 3, 0)]);
    assert_eq!(e.removed, [(label("d3"), piece("2P"))]);
    assert_eq!(s.pos.standing(Player::Blue), Standing::Out { knockouts: 2, pieces: 1 });
    log_outcome(&mut s, Some(Player::Red), vec![3.0, 0.0, 0.0], "Red is the last player standing");
    s.refused("b3b4", Illegal::GameOver(Ending::LastStanding(Player::Red)));
    assert_eq!(
        Illegal::GameOver(Ending::LastStanding(Player::Red)).to_string(),
        "the game is over: Red is the last player standing"
    );
    let mut log = s.transcript();
    // Keeping Green's group instead puts Red out as well: Green is the last player standing.
    let mut s = Session::new(board(3, rows));
    let e = s.ok("c2b3/f3");
    assert_eq!(e.out, [(Player::Blue, 2, 1), (Player::Red, 3, 0)]);
    log_outcome(&mut s, Some(Player::Green), vec![0.0, 0.0, 3.0], "Green is the last player standing");
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// The rows of a position where one move meets two ties: d3 to e3 splits the pieces into two
/// groups of 5; keeping the western one puts Blue out, and the pieces left split again, 2 and 2.
const TWO_TIES: &str = "1P 2P 3K .. .. ..
                        1K .. 3P .. .. ..
                        .. .. .. 1B .. ..
                        .. .. .. .. 2K 2R
                        .. .. .. .. 2B 2P
                        .. .. .. .. .. ..";

/// The legal moves a report lists where a move is illegal: each move once, its choices of group
/// named canonically by the group's first square in reading order, and counted once. From
/// [`TWO_TIES`], d3's steps east and south meet ties between groups of 5 (and, after Blue goes
/// out, of 2): written with every square of each group they were 73 tokens for 23 moves.
#[test]
fn a_report_lists_and_counts_each_legal_move_once() {
    let start = board(3, TWO_TIES);
    let setup: Vec<String> = TWO_TIES
        .lines()
        .enumerate()
        .map(|(i, row)| format!("{} {}.", row.split_whitespace().collect::<Vec<_>>().join(" "), i + 1))
        .collect();
    let text = format!(
        "[Game \"Splinter Quad\"]\n[Size \"6\"]\n[Players \"3\"]\n\nSetup:\na  b  c  d  e  f\n{}\n\n1. f6f5 *\n",
        setup.join("\n")
    );
    let v = &referee::verify::verify_source(&text, Default::default())[0];
    let p = &v.problems[0];
    let distinct = start.distinct_moves();
    assert_eq!((p.legal_count as usize, distinct.len(), start.legal_moves().len()), (23, 23, 73));
    let written: Vec<String> = distinct.iter().map(|&m| start.write_move(m)).collect();
    assert_eq!(p.legal, written);
    assert_eq!(written.iter().collect::<HashSet<_>>().len(), written.len(), "{written:?}");
    let source = referee::report::Source::new("two-ties.txt", std::sync::Arc::new(text.clone()));
    insta::assert_snapshot!(referee::report::human(&source, v, Default::default()));
}

/// RULINGS Splinter Quad 4 and 5: when the pieces of a player who goes out leave the board and
/// the rest splits into equal largest groups again, the mover chooses again: a second `/square`,
/// in the order the ties come, required exactly when the second tie comes.
#[test]
fn a_second_tie_after_an_elimination_is_the_movers_choice_too() {
    let mut s = Session::new(board(3, TWO_TIES));
    s.refused("d3e3", Illegal::ChoiceNeeded { after: vec![], groups: 2, size: 5, like: "d3e3/a1".to_string() });
    s.refused(
        "d3e3/a1",
        Illegal::ChoiceNeeded { after: vec![Player::Blue], groups: 2, size: 2, like: "d3e3/a1/a1".to_string() },
    );
    s.refused("d3e3/a1/b1", Illegal::NotInLargest { cell: label("b1") });
    s.refused("d3e3/a1/a2/c1", Illegal::NoChoice { cell: label("c1"), ties: 2 });
    s.note("keeping the eastern group puts Red and Green out at once: no second tie to decide");
    s.refused("d3e3/e4/a1", Illegal::NoChoice { cell: label("a1"), ties: 1 });
    let mut tokens = s.moves_from("d3");
    tokens.retain(|t| t.starts_with("d3e3"));
    assert_eq!(tokens.len(), 5 * 4 + 5, "5 squares of the west group times 4 of the pieces left, or 5 in the east");
    let e = s.ok("d3e3/b1/c2");
    assert_eq!(e.out, [(Player::Blue, 3, 1), (Player::Red, 3, 0)]);
    assert_eq!(e.removed, [(label("b1"), piece("2P"))]);
    log_outcome(&mut s, Some(Player::Green), vec![0.0, 0.0, 2.0], "Green is the last player standing");
    let mut log = s.transcript();
    let mut s = Session::new(board(3, TWO_TIES));
    let e = s.ok("d3e3/e5");
    assert_eq!(e.out, [(Player::Red, 2, 1), (Player::Green, 2, 0)]);
    log_outcome(&mut s, Some(Player::Blue), vec![0.0, 4.0, 0.0], "Blue is the last player standing");
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Splinter Quad 5 and the seed text: a move that puts out every player still in ends
/// the game; the fewest knockouts wins, then the most pieces, else the game is a tie. Knockouts
/// and pieces are counted as each player had them when they went out.
#[test]
fn simultaneous_eliminations_go_to_fewest_knockouts_then_most_pieces_then_a_tie() {
    let mut log = String::new();
    // c2 to d2 leaves both kings and rooks behind in the corner: both players are out.
    let cases = [
        (
            "fewest knockouts: Blue also loses its bishop",
            "1K 2K .. .. .. ..
             1R 2R 1P .. .. ..
             2B .. .. 2P 1P 2P
             .. .. .. 1P 2P 2P
             .. .. .. .. .. ..
             .. .. .. .. .. ..",
            Some(Player::Red),
            vec![3.0, 4.0],
            "Red and Blue went out on the same move: Red wins with the fewest knockouts (Red 2, Blue 3)",
        ),
        (
            "equal knockouts, most pieces",
            "1K 2K .. .. .. ..
             1R 2R 1P .. .. ..
             .. .. .. 2P 1P 2P
             .. .. .. 1P .. ..
             .. .. .. .. .. ..
             .. .. .. .. .. ..",
            Some(Player::Red),
            vec![3.0, 2.0],
            "Red and Blue went out on the same move: Red and Blue both have 2 knockouts, and Red wins with the \
             most pieces (Red 3, Blue 2)",
        ),
        (
            "equal knockouts and pieces: a tie",
            "1K 2K .. .. .. ..
             1R 2R 1P .. .. ..
             .. .. .. 2P 1P 2P
             .. .. .. 1P 2P ..
             .. .. .. .. .. ..
             .. .. .. .. .. ..",
            None,
            vec![3.0, 3.0],
            "Red and Blue went out on the same move: Red and Blue both have 2 knockouts and 3 pieces: the game \
             ends in a tie",
        ),
    ];
    for (title, rows, winner, points, detail) in cases {
        let mut s = Session::new(board(2, rows));
        s.note(title);
        let e = s.ok("c2d2");
        assert_eq!(e.out.len(), 2);
        assert_eq!(s.pos.ending(), Some(&Ending::AllOut(vec![Player::Red, Player::Blue])));
        log_outcome(&mut s, winner, points, detail);
        s.refused("d2d3", Illegal::GameOver(Ending::AllOut(vec![Player::Red, Player::Blue])));
        log.push_str(&s.transcript());
    }
    insta::assert_snapshot!(log);
}

/// The quiet-move rule (ours, so that every game ends): after 100 moves in a row in which no piece
/// leaves the board the game ends, and the players still in are ranked as in a simultaneous
/// elimination.
#[test]
fn a_hundred_quiet_moves_end_the_game() {
    let mut s = Session::new(board(
        2,
        ".. .. .. .. .. ..
         .. .. .. .. .. ..
         .. .. 1K 2K .. ..
         .. .. 1P 2P .. ..
         .. .. .. 2B .. ..
         .. .. .. .. .. ..",
    ));
    s.note("the kings step to and fro: nothing ever leaves the board");
    s.ok("c3b3 d3e3 b3c3 e3d3");
    assert_eq!(s.pos.quiet_moves(), 4);
    let cycle = ["c3b3", "d3e3", "b3c3", "e3d3"];
    let mut played = 4;
    while played < QUIET_MOVES as usize - 1 {
        let tok = cycle[played % 4];
        let m = s.pos.resolve(Splinter::parse_move(tok).unwrap()).unwrap();
        s.pos.play(m).unwrap_or_else(|e| panic!("{tok}: {e}"));
        played += 1;
    }
    assert_eq!((s.pos.quiet_moves(), s.pos.is_over()), (QUIET_MOVES - 1, false));
    s.note(&format!("... {} moves later, {} quiet moves in a row:", played - 4, s.pos.quiet_moves()));
    s.show();
    s.ok(cycle[played % 4]);
    assert_eq!(s.pos.ending(), Some(&Ending::Quiet));
    log_outcome(
        &mut s,
        Some(Player::Blue),
        vec![2.0, 3.0],
        "100 moves in a row went by without a piece leaving the board: Red and Blue both have 0 knockouts, \
         and Blue wins with the most pieces (Red 2, Blue 3)",
    );
    s.refused("c3b3", Illegal::GameOver(Ending::Quiet));
    insta::assert_snapshot!(s.transcript());
}

/// The quiet-move rule in lenient play: a move that cannot be played at all (here not a step)
/// passes the turn but is no quiet move. It stands for a move the player should have made, which
/// might have put a piece off the board, so it must not be the hundredth quiet move that ends the
/// game; the next real quiet move is.
#[test]
fn a_move_that_cannot_be_played_is_no_quiet_move() {
    let mut s = Session::new(board(
        2,
        ".. .. .. .. .. ..
         .. .. .. .. .. ..
         .. .. 1K 2K .. ..
         .. .. 1P 2P .. ..
         .. .. .. 2B .. ..
         .. .. .. .. .. ..",
    ));
    let cycle = ["c3b3", "d3e3", "b3c3", "e3d3"];
    for tok in cycle.iter().cycle().take(QUIET_MOVES as usize - 1) {
        let m = s.pos.resolve(Splinter::parse_move(tok).unwrap()).unwrap();
        s.pos.play(m).unwrap_or_else(|e| panic!("{tok}: {e}"));
    }
    assert_eq!((s.pos.quiet_moves(), s.pos.to_move()), (QUIET_MOVES - 1, Player::Blue));
    s.note(&format!("the kings stepped to and fro: {} quiet moves in a row", s.pos.quiet_moves()));
    s.show();
    s.lenient("e3e5", Illegal::NotAStep { from: label("e3"), to: label("e5") });
    assert_eq!((s.pos.quiet_moves(), s.pos.is_over(), s.pos.to_move()), (QUIET_MOVES - 1, false, Player::Red));
    s.ok("c3b3");
    assert_eq!(s.pos.ending(), Some(&Ending::Quiet));
    insta::assert_snapshot!(s.transcript());
}

/// Notation: `d4e5`, `d4e5/f7`, one `/square` per tie; syntax first, then the board (a square off
/// the board is illegal in the position, not a syntax error). Moves are written back as read.
#[test]
fn notation_reads_and_writes_moves() {
    let mut log = String::new();
    let some = |s: &str| Some(label(s));
    assert_eq!(
        Splinter::parse_move("d4e5"),
        Ok(Written { from: label("d4"), to: label("e5"), keep: [None; MAX_CHOICES] })
    );
    assert_eq!(
        Splinter::parse_move("d4e5/f7"),
        Ok(Written { from: label("d4"), to: label("e5"), keep: [some("f7"), None, None] })
    );
    assert_eq!(
        Splinter::parse_move("j10i9/a1/b2"),
        Ok(Written { from: label("j10"), to: label("i9"), keep: [some("a1"), some("b2"), None] })
    );
    for bad in ["pass", "d4", "D4e5", "d4-e5", "d4e5/", "d4e5/f", "d4e5/a1/a2/a3/a4", "e0f1"] {
        let e = Splinter::parse_move(bad).unwrap_err();
        log.push_str(&format!("{bad}: {e}\n"));
    }
    assert_eq!(
        Splinter::parse_move("pass").unwrap_err(),
        "`pass` is not a Splinter Quad move: there is no passing, since a player always has a step to make"
    );
    let pos = Splinter::start(None, None).unwrap();
    for (tok, off) in [("c3c2/k1", "k1"), ("a11a10", "a11")] {
        let e = pos.resolve(Splinter::parse_move(tok).unwrap()).unwrap_err();
        assert_eq!(e, Illegal::OffBoard { cell: label(off), size: 10 });
        log.push_str(&format!("{tok}: {e}\n"));
    }
    // A step to a square off the board is read as a step: j10 holds no piece of Red's.
    let e = pos.resolve(Splinter::parse_move("j10k10").unwrap()).unwrap_err();
    assert_eq!(e, Illegal::NoPiece { player: Player::Red, cell: label("j10") });
    log.push_str(&format!("j10k10: {e}\n"));
    for tok in ["c3c2", "c3b2", "j10i9/a1", "a1b2/c3/d4/e5"] {
        let m = pos.resolve(Splinter::parse_move(tok).unwrap()).unwrap();
        assert_eq!(pos.write_move(m), tok);
        assert_eq!(Splinter::parse_move(tok).unwrap().to_string(), tok);
    }
    // Off-board cells reaching check through the library API are refused, not played.
    let off = SplinterMove::step(Cell(100), Cell(0));
    assert_eq!(pos.check(off), Err(Illegal::OffBoard { cell: CellLabel { col: 0, row: 11 }, size: 10 }));
    let mut after = pos.clone();
    after.play_unchecked(off);
    assert_eq!(after.to_move(), Player::Blue, "lenient play: nothing moves, the turn passes");
    insta::assert_snapshot!(log);
}

/// Small positions the exhaustive comparison runs on, with the number of players.
fn small_positions() -> Vec<Splinter> {
    let two = |rows| board(2, rows);
    let three = |rows| board(3, rows);
    let four = |rows| board(4, rows);
    vec![
        two("1P 2P 1K 2P 1B
             .. .. .. .. 2R
             .. .. .. .. ..
             .. .. .. .. ..
             .. .. .. .. .."),
        two("1K 2R 2R
             1P 2K 2P
             1B .. .."),
        two("1K 2P 2R 1B
             1P 2K .. ..
             .. .. .. ..
             .. .. .. .."),
        two(".. 1P 2P 1R ..
             .. .. 2R .. ..
             .. .. 1K .. ..
             .. 2B .. 1B ..
             1B .. .. .. 1P"),
        three(
            "2R 2K .. .. .. ..
               .. .. 1K .. .. ..
               .. .. 1P 2P 3K 3B
               .. .. 1B .. 3P ..
               .. .. .. .. .. ..
               .. .. .. .. .. ..",
        ),
        three(
            "1K 3K 1P .. ..
               3P .. .. 2K ..
               .. .. .. 2P ..
               .. .. .. .. ..
               .. .. .. .. ..",
        ),
        three(
            "2K 1P 2B
               3P 1K 3K
               3B 2P 1B",
        ),
        four(
            ".. .. .. ..
              .. 1K 2K ..
              .. 4K 3K ..
              .. .. .. ..",
        ),
        four(
            "1K 2K 3K 4K
              4P 3P 2P 1P
              1B 2B 3B 4B
              .. .. .. ..",
        ),
    ]
}

/// `legal_moves` returns exactly the moves `check` accepts: on small positions (every move, and
/// every choice of squares down to the deepest tie) all along random games to their end, and on the
/// default starts for two, three and four players along random games (the first of each checked
/// at every position, the others move by move). Every game ends, within the bound
/// the quiet-move rule gives: `(pieces + 1) * 100` moves.
#[test]
fn legal_moves_are_exactly_the_moves_check_accepts() {
    const GAMES: u64 = 12;
    let mut log = String::new();
    let bound = |start: &Splinter| (start.geometry().cells().filter(|&c| start.piece(c).is_some()).count() + 1) * 100;
    for (i, start) in small_positions().iter().enumerate() {
        for seed in 0..4u64 {
            let moves = random_game(start, seed, 100_000);
            let mut pos = start.clone();
            assert_legal_moves_match_check(&pos);
            for &m in &moves {
                assert_eq!(pos.check(m), Ok(()));
                pos.play_unchecked(m);
                assert_legal_moves_match_check(&pos);
            }
            assert!(pos.is_over(), "small {i} seed {seed}: the game did not end");
            assert!(moves.len() <= bound(start));
            let o = pos.outcome().unwrap();
            let tokens: Vec<String> = {
                let mut p = start.clone();
                moves
                    .iter()
                    .take(6)
                    .map(|&m| {
                        let w = p.write_move(m);
                        p.play_unchecked(m);
                        w
                    })
                    .collect()
            };
            log.push_str(&format!(
                "small {i} seed {seed}: {} moves ({} ...), {}: {}\n",
                moves.len(),
                tokens.join(" "),
                pos.score(),
                o.detail
            ));
        }
    }
    for players in 2..=4u8 {
        let start = Splinter::start(None, Some(players)).unwrap();
        let mut lengths = Vec::new();
        let mut choices = 0;
        for seed in 0..GAMES {
            let moves = random_game(&start, seed, 100_000);
            let mut pos = start.clone();
            for &m in &moves {
                if seed == 0 {
                    assert_legal_moves_match_check(&pos);
                } else {
                    assert_eq!(pos.check(m), Ok(()));
                }
                choices += m.choices().count();
                pos.play_unchecked(m);
            }
            assert!(pos.is_over(), "{players} players seed {seed}: the game did not end");
            assert!(moves.len() <= bound(&start));
            lengths.push(moves.len());
            if seed < 2 {
                let o = pos.outcome().unwrap();
                log.push_str(&format!(
                    "{players} players seed {seed}: {} moves, {}: winner {:?}: {}\n{}",
                    moves.len(),
                    pos.score(),
                    o.winner.map(|w| pos.player_names()[w]),
                    o.detail,
                    diagram(&pos)
                ));
            }
        }
        log.push_str(&format!(
            "{players} players, {GAMES} games: {} to {} moves, {choices} choices of group written\n",
            lengths.iter().min().unwrap(),
            lengths.iter().max().unwrap()
        ));
    }
    insta::assert_snapshot!(log);
}

/// `play_unchecked` never panics, whatever it is given, and plays a legal move as `play` does.
#[test]
fn play_unchecked_never_panics() {
    let mut rng = fastrand::Rng::with_seed(5);
    for start in small_positions().into_iter().chain((2..=4).map(|n| Splinter::start(None, Some(n)).unwrap())) {
        let mut pos = start.clone();
        let slots = (pos.size() as u16) * (pos.size() as u16);
        for _ in 0..300 {
            let legal = pos.legal_moves();
            if !legal.is_empty() && rng.bool() {
                let m = legal[rng.usize(..legal.len())];
                let mut checked = pos.clone();
                checked.play(m).unwrap();
                pos.play_unchecked(m);
                assert_eq!(pos, checked);
                continue;
            }
            let cell = |rng: &mut fastrand::Rng| Cell(rng.u16(..slots + 3));
            let cells: Vec<Cell> = (0..rng.usize(..=MAX_CHOICES)).map(|_| cell(&mut rng)).collect();
            let m = SplinterMove::keeping(cell(&mut rng), cell(&mut rng), &cells);
            let _ = pos.check(m);
            pos.play_unchecked(m);
            let _ = pos.outcome();
        }
    }
}

/// Games written in the common record format (tags, a setup diagram when the start is not the
/// default, movetext) read back: the start from the Size and Players tags and the diagram, the
/// tokens `d4e5` and `d4e5/f7` through `parse_move` and `resolve`, to the same final position.
///
/// A Splinter Quad record without a Players tag has four players: `write_common_record` writes the
/// tag of a game of two or three.
#[test]
fn games_written_as_records_read_back() {
    use referee::record::{common, TokenKind};
    use referee::write::write_common_record;
    let mut log = String::new();
    let starts = [
        Splinter::start(None, Some(2)).unwrap(),
        Splinter::start(None, Some(3)).unwrap(),
        Splinter::start(None, None).unwrap(),
        board(3, TWO_TIES),
    ];
    for (i, start) in starts.iter().enumerate() {
        for seed in 0..3u64 {
            let moves = random_game(start, seed, 100_000);
            let text = write_common_record(start, &moves, &[]);
            let records = common::parse(&text);
            assert_eq!(records.len(), 1);
            let r = &records[0];
            assert!(r.syntax_errors.is_empty(), "{:?}\n{text}", r.syntax_errors);
            assert_eq!(r.setup.is_some(), i == 3, "a setup diagram only for a start that is not the default");
            let read: Splinter =
                referee::verify::common_start(&text, r).unwrap_or_else(|p| panic!("{}\n{text}", p.message));
            assert_eq!(&read, start);
            let mut pos = read;
            for t in r.tokens.iter().filter(|t| t.kind == TokenKind::Written) {
                let m = pos.resolve(Splinter::parse_move(t.text).unwrap()).unwrap();
                pos.play(m).unwrap_or_else(|e| panic!("{}: {e}\n{text}", t.text));
            }
            assert!(pos.is_over());
            assert_eq!(
                diagram(&pos),
                diagram(&{
                    let mut p = start.clone();
                    moves.iter().for_each(|&m| p.play_unchecked(m));
                    p
                })
            );
            if seed == 0 && i == 3 {
                log.push_str(&text);
            }
        }
    }
    insta::assert_snapshot!(log);
}

/// A random start: `players` players on a `size` board, each with part of a full army (one piece
/// at least) on random squares, so that the pieces often form several groups, ties and
/// eliminations come early, and games are short.
fn random_setup(players: u8, size: u8, seed: u64) -> Splinter {
    let mut rng = fastrand::Rng::with_seed(seed);
    let n = size as usize * size as usize;
    let mut cells = vec![".."; n];
    let mut free: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut free);
    for (i, &player) in Player::ALL[..players as usize].iter().enumerate() {
        let mut army: Vec<&str> = Kind::ALL
            .into_iter()
            .flat_map(|kind| std::iter::repeat_n(Piece { player, kind }.glyph(), kind.full_army() as usize))
            .collect();
        rng.shuffle(&mut army);
        // Room is left for one piece of each player after this one.
        let most = army.len().min(free.len() - (players as usize - 1 - i));
        for glyph in army.into_iter().take(rng.usize(1..=most)) {
            cells[free.pop().expect("room for every player")] = glyph;
        }
    }
    let empty = Splinter::start(Some(size), Some(players)).expect("a board");
    empty.with_setup(&cells).unwrap_or_else(|e| panic!("bad setup: {e}"))
}

/// The moves the engine and the reference are compared on: every step of the mover's pieces to
/// each neighbour, and of the first empty square and the first piece of another player, also with
/// a choice of group (the square stepped to), and moves from them that are no steps; every legal
/// move, and each one that decides a tie with its last choice changed to, or one more choice of,
/// each square a piece may stand on after it (on boards of more than 36 squares, every fifth).
fn differential_candidates(pos: &Splinter, legal: &[SplinterMove]) -> Vec<SplinterMove> {
    let g = pos.geometry();
    let cells: Vec<Cell> = g.cells().collect();
    let near: Vec<Cell> = cells.iter().copied().filter(|&c| around(g, c).any(|n| pos.piece(n).is_some())).collect();
    let sample: Vec<Cell> = near.iter().copied().step_by(if cells.len() <= 36 { 1 } else { 5 }).collect();
    let owner = |c: Cell| pos.piece(c).map(|p| p.player);
    let own = cells.iter().copied().filter(|&c| owner(c) == Some(pos.to_move()));
    let empty = cells.iter().copied().find(|&c| owner(c).is_none());
    let other = cells.iter().copied().find(|&c| owner(c).is_some_and(|p| p != pos.to_move()));
    let mut all = Vec::new();
    for from in own.chain(empty).chain(other) {
        for to in around(g, from).filter(|&to| to != from) {
            all.push(SplinterMove::step(from, to));
            all.push(SplinterMove::keeping(from, to, &[to]));
        }
        all.push(SplinterMove::step(from, from));
        all.push(SplinterMove::step(from, Cell(cells.len() as u16 + 1)));
        if let Some(far) = g.cell_at(g.col(from) as i32 + 2, g.row(from) as i32) {
            all.push(SplinterMove::step(from, far));
        }
    }
    for m in legal {
        all.push(*m);
        let made: Vec<Cell> = m.choices().collect();
        for &c in sample.iter().filter(|_| !made.is_empty()) {
            if made.len() < MAX_CHOICES {
                all.push(SplinterMove::keeping(m.from, m.to, &[made.as_slice(), &[c]].concat()));
            }
            if let Some((_, before)) = made.split_last() {
                all.push(SplinterMove::keeping(m.from, m.to, &[before, &[c]].concat()));
            }
        }
    }
    all
}

/// The engine agrees with the reference algorithm it replaced in `pos`: the legal moves, in
/// order; for every candidate move, `check` and `effects`, the position `play_unchecked` leaves
/// (lenient play included), with its score, outcome and end, and what `play_checked` does.
fn assert_agrees_with_reference(pos: &Splinter) -> Result<(), TestCaseError> {
    let legal = pos.legal_moves();
    prop_assert_eq!(&legal, &pos.reference_legal_moves(), "legal moves\n{}", diagram(pos));
    for m in differential_candidates(pos, &legal) {
        let reference = pos.reference_effects(m);
        let legal = reference.clone().map(|_| ());
        prop_assert_eq!(pos.check(m), legal.clone(), "check {:?}\n{}", m, diagram(pos));
        prop_assert_eq!(pos.effects(m), reference, "effects of {:?}\n{}", m, diagram(pos));
        let (mut new, mut old) = (pos.clone(), pos.clone());
        new.play_unchecked(m);
        old.reference_play_unchecked(m);
        prop_assert_eq!(&new, &old, "position after {:?}\n{}", m, diagram(pos));
        prop_assert_eq!(new.score(), old.score());
        prop_assert_eq!(new.outcome(), old.outcome());
        prop_assert_eq!(new.is_over(), old.is_over());
        // Checked and played at once: the reference's verdict; a legal move shows the position
        // before it once and leaves the reference's position, a refused one shows nothing and
        // leaves the position as it was.
        let mut played = pos.clone();
        let mut shown = Vec::new();
        let verdict = played.play_checked(m, |before| shown.push(before.clone()));
        prop_assert_eq!(&verdict, &legal, "play_checked {:?}\n{}", m, diagram(pos));
        match verdict {
            Ok(()) => {
                prop_assert_eq!(shown.as_slice(), std::slice::from_ref(pos));
                prop_assert_eq!(&played, &old, "position after play_checked {:?}\n{}", m, diagram(pos));
            }
            Err(_) => {
                prop_assert!(shown.is_empty());
                prop_assert_eq!(&played, pos);
            }
        }
    }
    Ok(())
}

/// Plays a random game from `start` (`random_game`, with the engine's legal moves) and compares
/// the engine with the reference at every position, the last one included.
fn game_agrees_with_reference(start: &Splinter, seed: u64) -> Result<(), TestCaseError> {
    let mut pos = start.clone();
    assert_agrees_with_reference(&pos)?;
    for m in random_game(start, seed, 100_000) {
        pos.play_unchecked(m);
        assert_agrees_with_reference(&pos)?;
    }
    prop_assert!(pos.is_over());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Differential test of the fast engine (moves settled at once from one group, groups found
    /// in fixed buffers, `check` settling on a copy only when it must) against the reference
    /// algorithm it replaced, along random games from the default starts for 2, 3 and 4 players.
    #[test]
    fn the_engine_agrees_with_the_reference_from_the_default_starts(players in 2u8..=4, seed in any::<u64>()) {
        game_agrees_with_reference(&Splinter::start(None, Some(players)).unwrap(), seed)?;
    }

    /// The same from random setups on small boards: several groups at the start, ties after ties,
    /// players going out together.
    #[test]
    fn the_engine_agrees_with_the_reference_from_random_setups(
        players in 2u8..=4,
        size in 2u8..=9,
        setup in any::<u64>(),
        seed in any::<u64>(),
    ) {
        game_agrees_with_reference(&random_setup(players, size, setup), seed)?;
    }
}

/// The differential test on the hand-made positions of the other tests, ties and setups of
/// several groups among them.
#[test]
fn the_engine_agrees_with_the_reference_on_the_small_positions() {
    for start in small_positions().into_iter().chain([board(3, TWO_TIES)]) {
        for seed in 0..3 {
            game_agrees_with_reference(&start, seed).unwrap();
        }
    }
}
