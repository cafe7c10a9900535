//! One test per rule point of Quadraphages / Hexaphages (RULINGS, Quadraphages 1-11), each on a
//! small position, asserting the exact outcome of every move and snapshotting a transcript of the
//! moves with the diagram of the position they leave.
//!
//! Moves are written as in the records: a number is an announcement, `a7a8` a step, and `----c3`
//! the stone on c3 staying (the stone is named, so that a test never depends on which one is meant).

use std::collections::HashSet;

use referee::game::Game;
use referee::games::phages::{Content, Illegal, Phages, PhagesMove, Phase, Side};
use referee::geometry::{Cell, Geometry};
use referee::render::ascii::diagram;

#[path = "support/rules.rs"]
mod rules;
use rules::{label, sorted, Session, Transcribed};

/// Quadraphages and Hexaphages as their tests read them: `3`, `a7a8` or `----a7` (a stay names its
/// stone); the transcript names who plays in which phase, with the number in force: `X (c, 2)`.
impl Transcribed for Phages {
    type Played = ();

    fn who(&self) -> String {
        match self.phase() {
            Phase::Announce => format!("{} (b)", self.to_move()),
            phase => format!("{} ({}, {})", self.to_move(), phase.letter(), self.number()),
        }
    }

    fn read(&self, tok: &str) -> Result<PhagesMove, Illegal> {
        Ok(parse(self.geometry(), tok))
    }

    fn started(&self) -> String {
        format!("start, {} to move:\n{}", self.to_move(), diagram(self))
    }
}

const SQUARE_5: Geometry = Geometry::Square { size: 5 };

fn cell(g: Geometry, s: &str) -> Cell {
    g.parse_label(label(s)).unwrap_or_else(|| panic!("{s} is not on the board"))
}

fn setup(g: Geometry, x: &[&str], o: &[&str]) -> Phages {
    Phages::from_labels(g, x, o, Side::X).expect("valid setup")
}

/// Reads one token: `3`, `a7a8` or `----a7`.
fn parse(g: Geometry, token: &str) -> PhagesMove {
    if let Ok(n) = token.parse() {
        return PhagesMove::Announce(n);
    }
    if let Some(stone) = token.strip_prefix("----") {
        return PhagesMove::Stay { stone: cell(g, stone) };
    }
    let split = token[1..].find(|c: char| c.is_ascii_lowercase()).expect("a step names two cells") + 1;
    PhagesMove::Step { from: cell(g, &token[..split]), to: cell(g, &token[split..]) }
}

/// Writes a move back as a token (the inverse of [`parse`]).
fn token(g: Geometry, m: PhagesMove) -> String {
    match m {
        PhagesMove::Announce(n) => n.to_string(),
        PhagesMove::Step { from, to } => format!("{}{}", g.label(from), g.label(to)),
        PhagesMove::Stay { stone } => format!("----{}", g.label(stone)),
    }
}

impl Session<Phages> {
    /// The legal moves as sorted tokens.
    fn legal(&self) -> Vec<String> {
        let mut v: Vec<String> = self.pos.legal_moves().into_iter().map(|m| token(self.pos.geometry(), m)).collect();
        v.sort();
        v
    }

    /// Where the stone on `from` may go with the number in force, sorted; logged in the transcript.
    fn destinations(&mut self, from: &str) -> Vec<String> {
        let g = self.pos.geometry();
        let mut v: Vec<String> =
            self.pos.destinations(self.cell(from), self.pos.number()).map(|c| g.label(c).to_string()).collect();
        v.sort();
        let shown = if v.is_empty() { "nowhere".to_string() } else { v.join(" ") };
        self.note(&format!("{from} moving {} reaches: {shown}", self.pos.number()));
        v
    }
}

/// RULINGS 1: phase (a) moves the number the opponent announced last; phase (c) one's own.
#[test]
fn phase_a_uses_the_opponents_last_number_and_phase_c_ones_own() {
    let mut s = Session::new(setup(SQUARE_5, &["a1", "e5"], &["a5", "e1"]));
    s.ok("2 a1c1 e5c5");

    assert_eq!((s.pos.to_move(), s.pos.phase(), s.pos.number()), (Side::O, Phase::Move, 2));
    s.refused("e1e2", Illegal::WrongDistance { cells: 1, number: 2, announced_by: Side::X });
    s.ok("e1e3 a5a3 1");

    assert_eq!((s.pos.to_move(), s.pos.phase(), s.pos.number()), (Side::O, Phase::MoveAgain, 1));
    s.refused("a3a1", Illegal::WrongDistance { cells: 2, number: 1, announced_by: Side::O });
    s.ok("a3b3 e3d3");

    // X's phase (a) moves O's 1, not X's own earlier 2.
    assert_eq!((s.pos.to_move(), s.pos.phase(), s.pos.number()), (Side::X, Phase::Move, 1));
    s.refused("c1c3", Illegal::WrongDistance { cells: 2, number: 1, announced_by: Side::O });
    s.ok("c1d1 c5c4 2");
    assert_eq!((s.pos.to_move(), s.pos.phase(), s.pos.number()), (Side::X, Phase::MoveAgain, 2));
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS 2: only the cell a stone leaves is marked; the cells it passes over stay empty.
#[test]
fn only_the_cell_left_is_marked() {
    let mut s = Session::new(Phages::quadraphages());
    s.ok("5 a7a2 i3d3");
    let g = s.pos.geometry();
    let at = |c: &str| s.pos.content(cell(g, c));
    assert_eq!(at("a7"), Content::Mark(Side::X));
    assert_eq!(at("i3"), Content::Mark(Side::X));
    for passed in ["a6", "a5", "a4", "a3", "h3", "g3", "f3", "e3"] {
        assert_eq!(at(passed), Content::Empty, "{passed} was passed over");
    }
    assert_eq!(at("a2"), Content::Stone(Side::X));
    assert_eq!(at("d3"), Content::Stone(Side::X));
    assert_eq!(s.pos.score().marks, [2, 0]);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS 3: exactly N cells in one of the 4 rook directions.
#[test]
fn moves_are_exactly_n_cells_in_a_straight_line() {
    let mut s = Session::new(setup(SQUARE_5, &["c3", "a5"], &["a1", "e5"]));
    s.ok("2");
    assert_eq!(s.destinations("c3"), sorted(&["a3", "e3", "c1", "c5"]));
    let (c3, e5, d5) = (label("c3"), label("e5"), label("d5"));
    s.refused("c3e5", Illegal::NotStraight { from: c3, to: e5 });
    s.refused("c3d5", Illegal::NotStraight { from: c3, to: d5 });
    s.refused("c3c4", Illegal::WrongDistance { cells: 1, number: 2, announced_by: Side::X });
    s.refused("a5a2", Illegal::WrongDistance { cells: 3, number: 2, announced_by: Side::X });
    s.ok("c3c1 a5a3");
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS 3: no destination beyond the edge; a stone with no move on the board stays.
#[test]
fn a_stone_may_not_leave_the_board() {
    let mut s = Session::new(setup(Geometry::Square { size: 9 }, &["e5", "b1"], &["a9", "i9"]));
    let mut five = Session::new(s.pos.clone());
    five.ok("5");
    // From the centre of the 9x9 board every 5-cell line ends beyond the edge.
    assert_eq!(five.destinations("e5"), Vec::<String>::new());
    assert_eq!(five.destinations("b1"), sorted(&["b6", "g1"]));

    s.ok("8");
    // b1 is next to the left edge and on the top one: of its four lines only the downward one is
    // 8 cells long (the right one would end on j1, off the board).
    assert_eq!(s.destinations("b1"), sorted(&["b9"]));
    assert_eq!(s.legal(), sorted(&["b1b9", "----e5"]));
    s.refused("----b1", Illegal::CouldMove { side: Side::X, cell: label("b1"), to: label("b9"), number: 8 });
    s.ok("----e5 b1b9");
    insta::assert_snapshot!(format!("{}\n-- with 5 instead:\n{}", s.transcript(), five.transcript()));
}

/// RULINGS 3: no landing on a mark of either colour, nor on a stone of either side.
#[test]
fn a_stone_may_not_land_on_a_mark_or_a_stone() {
    let mut s = Session::new(setup(SQUARE_5, &["a1", "e5"], &["a5", "e1"]));
    s.ok("2 a1c1 e5c5 a5a3 e1e3 2");
    s.refused("a3a1", Illegal::LandsOnMark { cell: label("a1"), mark: Side::X });
    s.refused("a3a5", Illegal::LandsOnMark { cell: label("a5"), mark: Side::O });
    s.ok("a3c3");
    s.refused("e3c3", Illegal::LandsOnStone { cell: label("c3"), stone: Side::O });
    s.refused("e3e5", Illegal::LandsOnMark { cell: label("e5"), mark: Side::X });
    s.refused("e3e1", Illegal::LandsOnMark { cell: label("e1"), mark: Side::O });
    s.ok("----e3");
    s.refused("c1c3", Illegal::LandsOnStone { cell: label("c3"), stone: Side::O });
    s.refused("c5c3", Illegal::LandsOnStone { cell: label("c3"), stone: Side::O });
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS 3: opponent stones on the way block; own stones and marks of either colour do not.
#[test]
fn opponent_stones_block_own_stones_and_marks_do_not() {
    let mut stones = Session::new(setup(SQUARE_5, &["a1", "a3"], &["c1", "e5"]));
    stones.ok("4");
    stones.refused("a1e1", Illegal::Blocked { by: Side::O, cell: label("c1") });
    stones.note("a1a5 passes over X's own stone on a3");
    stones.ok("a1a5 a3e3");
    stones.refused("e5e1", Illegal::Blocked { by: Side::X, cell: label("e3") });
    stones.ok("c1c5 ----e5");

    let mut marks = Session::new(setup(SQUARE_5, &["c3", "a5"], &["b3", "e1"]));
    marks.ok("1 c3d3 a5a4 b3b2 e1e2 1 b2b1 e2d2 a4a3 d3d4 4");
    marks.show();
    assert_eq!(marks.pos.content(marks.cell("b3")), Content::Mark(Side::O));
    assert_eq!(marks.pos.content(marks.cell("c3")), Content::Mark(Side::X));
    assert_eq!(marks.pos.content(marks.cell("d3")), Content::Mark(Side::X));
    marks.note("a3e3 passes over O's mark on b3 and X's marks on c3 and d3");
    marks.ok("a3e3 ----d4");
    insta::assert_snapshot!(format!("{}\n{}", stones.transcript(), marks.transcript()));
}

/// RULINGS 4: the stones of a phase move one after the other, each on the position the previous
/// one left: here both X stones want b1, and whichever goes first takes it.
#[test]
fn stones_move_in_order_each_on_the_position_the_previous_left() {
    let start = setup(Geometry::Square { size: 3 }, &["a1", "c1"], &["a2", "c2"]);
    let mut s = Session::new(start.clone());
    s.ok("1");
    assert_eq!(s.destinations("a1"), sorted(&["b1"]));
    assert_eq!(s.destinations("c1"), sorted(&["b1"]));
    s.refused("----c1", Illegal::CouldMove { side: Side::X, cell: label("c1"), to: label("b1"), number: 1 });
    s.ok("a1b1");
    s.refused("c1b1", Illegal::LandsOnStone { cell: label("b1"), stone: Side::X });
    s.note("c1 cannot move any more, so it stays");
    s.ok("----c1");

    let mut other = Session::new(start);
    other.ok("1 c1b1");
    other.refused("a1b1", Illegal::LandsOnStone { cell: label("b1"), stone: Side::X });
    other.ok("----a1");
    insta::assert_snapshot!(format!("{}\n-- the other order:\n{}", s.transcript(), other.transcript()));
}

/// RULINGS 5: `----` only for a stone that cannot move; each stone acts once a phase; only the
/// mover's own stones move.
#[test]
fn stay_only_when_stuck_and_each_stone_acts_once() {
    let mut s = Session::new(setup(Geometry::Square { size: 3 }, &["a1", "c1"], &["a2", "c2"]));
    s.ok("1");
    s.refused("----a1", Illegal::CouldMove { side: Side::X, cell: label("a1"), to: label("b1"), number: 1 });
    s.refused("a2a3", Illegal::OpponentStone { side: Side::X, cell: label("a2") });
    s.refused("b2b3", Illegal::NoStone { side: Side::X, cell: label("b2") });
    s.refused("----b2", Illegal::NoStone { side: Side::X, cell: label("b2") });
    s.ok("a1b1");
    s.refused("b1b2", Illegal::AlreadyMoved { side: Side::X, cell: label("b1") });
    s.refused("----b1", Illegal::AlreadyMoved { side: Side::X, cell: label("b1") });
    s.note("a1 is now a mark, not a stone");
    s.refused("a1b1", Illegal::NoStone { side: Side::X, cell: label("a1") });
    s.ok("----c1");
    assert_eq!((s.pos.to_move(), s.pos.phase()), (Side::O, Phase::Move));
    insta::assert_snapshot!(s.transcript());
}

/// A 4x4 game where X is walled in for a while and O is not (found by search, checked by hand):
/// after the first line, X's stones on b1 and c4 cannot move any number. The game ends after the
/// last line: O's stones on d2 and a3 cannot move X's 3, so their stays are forced.
const WALLED_IN: [&str; 4] = [
    "1 d4c4 a1b1 a4b4 d1c1 2 b4b2 c1c3",
    "----b1 ----c4 1 ----c4 ----b1 b2c2 c3d3 1 d3d2 ----c2",
    "----b1 ----c4 2 ----c4 b1b3 c2a2 ----d2 1 a2a3 ----d2",
    "----b3 ----c4 3 ----b3 ----c4",
];

fn walled_in_start() -> Phages {
    setup(Geometry::Square { size: 4 }, &["a1", "d4"], &["d1", "a4"])
}

/// RULINGS 6: the number must let a stone move if any number would; range 1..8 on 9x9 and
/// 1..2(s-1) on hex; when no number works, any number in range may be announced.
#[test]
fn the_number_must_let_a_stone_move_if_any_would() {
    let out_of_range = |board: &str, pos: Phages, n: u8, max: u8| {
        let mut s = Session::new(pos);
        s.refused(&n.to_string(), Illegal::NumberOutOfRange { number: n, max });
        format!("{board}: {}", s.log.lines().last().unwrap())
    };
    let range = [
        out_of_range("9x9", Phages::quadraphages(), 0, 8),
        out_of_range("9x9", Phages::quadraphages(), 9, 8),
        out_of_range("hex side 4", Phages::hexaphages(4).unwrap(), 7, 6),
        out_of_range("hex side 3", setup(Geometry::Hex { side: 3 }, &["e3"], &["c1"]), 5, 4),
    ];
    assert_eq!(Phages::quadraphages().max_number(), 8);
    assert_eq!(Phages::hexaphages(4).unwrap().max_number(), 6);
    assert_eq!(setup(Geometry::Hex { side: 3 }, &["e3"], &["c1"]).max_number(), 4);

    let mut s = Session::new(walled_in_start());
    s.ok(WALLED_IN[0]);
    s.ok("----b1 ----c4");
    s.show();
    s.note("no number lets X move: every number in range may be announced");
    assert_eq!(s.pos.useful_numbers().count(), 0);
    assert_eq!(s.legal(), sorted(&["1", "2", "3"]));
    s.refused("4", Illegal::NumberOutOfRange { number: 4, max: 3 });
    for n in 1..=3 {
        assert_eq!(s.pos.check(PhagesMove::Announce(n)), Ok(()));
    }
    s.ok("1 ----c4 ----b1 b2c2 c3d3 1 d3d2 ----c2 ----b1 ----c4");
    s.show();
    s.note("O's stone has left b2: b1 can now move 2 (over the mark), and only 2");
    assert_eq!(s.pos.useful_numbers().collect::<Vec<_>>(), [2]);
    assert_eq!(s.legal(), sorted(&["2"]));
    s.refused("1", Illegal::NumberLetsNoMove { number: 1, would: 2 });
    s.refused("3", Illegal::NumberLetsNoMove { number: 3, would: 2 });
    s.ok("2");
    insta::assert_snapshot!(format!("{}\n{}", range.join("\n"), s.transcript()));
}

/// RULINGS 7: the first turn is phases (b) and (c) only.
#[test]
fn the_first_turn_has_phases_b_and_c_only() {
    let mut s = Session::new(Phages::quadraphages());
    assert!(s.pos.is_first_turn());
    assert_eq!((s.pos.to_move(), s.pos.phase(), s.pos.number()), (Side::X, Phase::Announce, 0));
    assert_eq!(s.pos.legal_moves(), (1..=8).map(PhagesMove::Announce).collect::<Vec<_>>());
    s.refused("a7a8", Illegal::NumberExpected { side: Side::X });
    s.refused("----a7", Illegal::NumberExpected { side: Side::X });
    s.ok("1");
    assert_eq!((s.pos.phase(), s.pos.number()), (Phase::MoveAgain, 1));
    s.refused("2", Illegal::StoneMoveExpected { side: Side::X, phase: Phase::MoveAgain });
    s.ok("a7a8 i3i2");
    // O's first turn is a whole turn: phase (a) with X's number first.
    assert!(!s.pos.is_first_turn());
    assert_eq!((s.pos.to_move(), s.pos.phase(), s.pos.number()), (Side::O, Phase::Move, 1));
    s.refused("3", Illegal::StoneMoveExpected { side: Side::O, phase: Phase::Move });
    s.ok("c1c2 g9g8 3 c2f2 g8d8");
    assert_eq!((s.pos.to_move(), s.pos.phase(), s.pos.number()), (Side::X, Phase::Move, 3));

    let o_first = Phages::from_labels(Geometry::Square { size: 9 }, &["a7", "i3"], &["c1", "g9"], Side::O).unwrap();
    assert_eq!((o_first.to_move(), o_first.phase()), (Side::O, Phase::Announce));
    assert!(o_first.legal_moves().iter().all(|m| matches!(m, PhagesMove::Announce(_))));
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS 8: the game ends when all four stones fail in succession; one side failing while the
/// other still moves does not end it, and a run broken by a move starts again.
#[test]
fn the_game_ends_when_all_four_stones_fail_in_succession() {
    let mut s = Session::new(walled_in_start());
    s.ok(WALLED_IN[0]);
    s.show();

    s.note("X fails four times in a row (both stones, phases a and c) while O can still move: not over");
    s.ok("----b1 ----c4 1 ----c4 ----b1");
    assert!(!s.pos.is_over());
    s.ok("b2c2 c3d3 1 d3d2");

    s.note("O's c2, then X's b1 and c4 fail: three stones, not four");
    s.ok("----c2 ----b1 ----c4");
    assert!(!s.pos.is_over());
    s.note("the run is broken by b1b3, and by O's moves after it");
    s.ok("2 ----c4 b1b3 c2a2 ----d2 1 a2a3");
    assert!(!s.pos.is_over());
    s.show();

    s.note("O's d2, then X's b3 and c4 fail: three stones, not four");
    s.ok("----d2 ----b3 ----c4 3 ----b3");
    assert!(!s.pos.is_over());
    s.note("X's c4 stays; O's d2 and a3 cannot move 3, so the run must now include all four stones");
    s.ok("----c4");
    assert!(s.pos.is_over());
    assert_eq!((s.pos.to_move(), s.pos.phase(), s.pos.number()), (Side::O, Phase::Move, 3));
    for stuck in ["d2", "a3"] {
        assert_eq!(s.pos.destinations(s.cell(stuck), 3).count(), 0, "{stuck} could move");
    }
    assert_eq!(s.pos.legal_moves(), Vec::new());
    // The game is over: O's forced stays are not played, and nothing else may be.
    s.refused("----a3", Illegal::GameOver);
    s.refused("----d2", Illegal::GameOver);
    s.refused("1", Illegal::GameOver);
    s.refused("a3a4", Illegal::GameOver);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS 5 and 8 in lenient play: a `----` for a stone that could move is no failure to move.
/// The stone stays and its turn in the phase is used, but like the move it should have made, it
/// breaks the run of failures. Here X is walled in and fails four times, then O writes two stays
/// for stones that could move: the game is not over, and it goes on.
#[test]
fn a_stay_for_a_stone_that_could_move_does_not_count_toward_the_end() {
    let mut s = Session::new(walled_in_start());
    s.ok(WALLED_IN[0]);
    s.ok("----b1 ----c4 1 ----c4 ----b1");
    let could_move = |cell: &str| Illegal::CouldMove { side: Side::O, cell: label(cell), to: label("c2"), number: 1 };
    s.lenient("----b2", could_move("b2"));
    s.lenient("----c3", could_move("c3"));
    s.note("four stays in a row, but O's two could have moved: not over");
    assert!(!s.pos.is_over());
    assert_eq!((s.pos.to_move(), s.pos.phase()), (Side::O, Phase::Announce));
    assert_eq!(s.pos.score().marks, [2, 4], "a stay marks nothing");
    s.ok("1 b2c2 c3d3 ----b1 ----c4 2 ----c4 b1b3");
    s.show();

    // A step lenient replay cannot play (onto a stone) leaves the stone where it stands: it is
    // that stone's stay, a failure only if the stone cannot move.
    let stay_of = |pos: &Phages, step: &str, stay: &str| {
        let [by_step, by_stay] = [step, stay].map(|tok| {
            let (mut after, m) = (pos.clone(), parse(pos.geometry(), tok));
            match pos.check(m) {
                Ok(()) => after.play_unchecked(m),
                Err(why) => after.play_refused(m, &why),
            }
            after
        });
        assert_eq!(by_step, by_stay, "{step} and {stay} differ");
    };
    stay_of(&s.pos, "c2c4", "----c2");
    s.lenient("c2c4", Illegal::LandsOnStone { cell: label("c4"), stone: Side::X });
    s.note("c2 could move 2 (to a2): its stay broke the run; d3 cannot, so its stay is a failure");
    assert!(s.pos.check(parse(s.pos.geometry(), "----d3")).is_ok());
    stay_of(&s.pos, "d3b3", "----d3");
    s.lenient("d3b3", Illegal::LandsOnStone { cell: label("b3"), stone: Side::X });
    s.ok("2 ----d3 c2a2 ----b3 ----c4 1 ----c4 b3a3 ----a2 d3d2 2 ----a2");
    assert!(!s.pos.is_over());
    s.note("O's a2 and d2 fail, and X's a3 and c4 cannot move 2: the run must include all four stones");
    s.ok("----d2");
    assert!(s.pos.is_over());
    assert_eq!(s.pos.score().marks, [4, 8]);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS 8: the winner has the most marked cells; both counts are reported.
#[test]
fn scoring_counts_marks_and_reports_both_conventions() {
    let mut s = Session::new(Phages::quadraphages());
    let start = s.pos.score();
    assert_eq!((start.marks, start.stones, start.winner()), ([0, 0], [2, 2], None));

    s.ok("1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8");
    let score = s.pos.score();
    assert_eq!(score.marks, [2, 4]);
    assert_eq!(score.stones, [2, 2]);
    assert_eq!(score.winner(), Some(Side::O));
    assert_eq!((score.count(Side::X, false), score.count(Side::O, false)), (2, 4));
    assert_eq!((score.count(Side::X, true), score.count(Side::O, true)), (4, 6));
    let shown = score.to_string();
    assert_eq!(shown, "X 2 O 4 marked cells (X 4 O 6 counting the cells under their own stones)");
    let marks_on_board = |side| s.pos.geometry().cells().filter(|&c| s.pos.content(c) == Content::Mark(side)).count();
    assert_eq!((marks_on_board(Side::X), marks_on_board(Side::O)), (2, 4));

    let mut end = Session::new(walled_in_start());
    for line in WALLED_IN {
        end.ok(line);
    }
    let final_score = end.pos.score();
    assert_eq!(final_score.marks, [3, 9]);
    assert_eq!(final_score.winner(), Some(Side::O));
    insta::assert_snapshot!(format!("{}{}\n\n{}{}", s.transcript(), shown, diagram(&end.pos), final_score));
}

/// RULINGS 11 and 3: the hex board of side 4, its default start, and moves in 6 directions.
#[test]
fn hex_side_4_default_start_and_six_directions() {
    let start = Phages::hexaphages(4).unwrap();
    let g = start.geometry();
    assert_eq!(g, Geometry::Hex { side: 4 });
    assert_eq!(g.cell_count(), 37);
    assert_eq!(start.max_number(), 6);
    let labels = |cells: &[Cell]| cells.iter().map(|&c| g.label(c).to_string()).collect::<Vec<_>>();
    assert_eq!(labels(start.stones(Side::X)), ["d3", "j5"]);
    assert_eq!(labels(start.stones(Side::O)), ["g2", "g6"]);
    assert_eq!(start.to_move(), Side::X);
    // 5 and 6 are in range, but no stone of the start has a line that long.
    assert_eq!(start.legal_moves(), (1..=4).map(PhagesMove::Announce).collect::<Vec<_>>());
    assert_eq!(start.check(PhagesMove::Announce(5)), Err(Illegal::NumberLetsNoMove { number: 5, would: 1 }));
    assert_eq!(start.check(PhagesMove::Announce(7)), Err(Illegal::NumberOutOfRange { number: 7, max: 6 }));

    let mut one = Session::new(start.clone());
    one.ok("1");
    assert_eq!(one.destinations("d3"), sorted(&["b3", "f3", "c2", "e2", "c4", "e4"]));

    let mut two = Session::new(start.clone());
    two.ok("2");
    // West (b3 - 2 letters = off) and north-west (b1 is not a cell) leave the board.
    assert_eq!(two.destinations("d3"), sorted(&["h3", "f1", "b5", "f5"]));
    two.refused("d3f3", Illegal::WrongDistance { cells: 1, number: 2, announced_by: Side::X });
    two.refused("d3d5", Illegal::NotStraight { from: label("d3"), to: label("d5") });
    two.refused("d3h5", Illegal::NotStraight { from: label("d3"), to: label("h5") });

    // The first two lines of the published Hexaphages game (X first, O's `....` skipped).
    let mut s = Session::new(start);
    s.ok("1 j5h5 d3e4");
    s.ok("g2f3 g6f5 1 f5d5 f3g4 h5i4 e4c4 3 c4f1 i4f7");
    assert_eq!((s.pos.to_move(), s.pos.phase(), s.pos.number()), (Side::O, Phase::Move, 3));
    insta::assert_snapshot!(format!("{}\n{}\n{}", one.transcript(), two.transcript(), s.transcript()));
}

/// Every move `check` accepts in `pos`, over every pair of cells, every cell and numbers 0..=max+1.
fn accepted(pos: &Phages) -> HashSet<PhagesMove> {
    let g = pos.geometry();
    let mut moves: Vec<PhagesMove> = (0..=pos.max_number() + 1).map(PhagesMove::Announce).collect();
    for from in g.cells() {
        moves.push(PhagesMove::Stay { stone: from });
        moves.extend(g.cells().map(|to| PhagesMove::Step { from, to }));
    }
    moves.into_iter().filter(|&m| pos.check(m).is_ok()).collect()
}

/// Checks that `legal_moves` is exactly what `check` accepts, without repeats; returns a summary line.
fn compare(pos: &Phages) -> String {
    let listed = pos.legal_moves();
    let set: HashSet<PhagesMove> = listed.iter().copied().collect();
    assert_eq!(set.len(), listed.len(), "legal_moves repeats a move");
    assert_eq!(set, accepted(pos), "legal_moves and check disagree in\n{}", diagram(pos));
    let g = pos.geometry();
    let mut toks: Vec<String> = listed.into_iter().map(|m| token(g, m)).collect();
    toks.sort();
    let phase =
        if pos.is_over() { "over".to_string() } else { format!("{} ({})", pos.to_move(), pos.phase().letter()) };
    format!("{phase}: {}", if toks.is_empty() { "(none)".to_string() } else { toks.join(" ") })
}

/// `legal_moves` is exactly the set of moves `check` accepts.
#[test]
fn legal_moves_are_exactly_the_moves_check_accepts() {
    let mut lines = Vec::new();

    let mut game = walled_in_start();
    lines.push("4x4 walled-in game:".to_string());
    lines.push(compare(&game));
    for tok in WALLED_IN.iter().flat_map(|l| l.split_whitespace()) {
        game.play(parse(game.geometry(), tok)).unwrap();
        lines.push(compare(&game));
    }
    assert!(game.is_over());

    let mut game = Phages::quadraphages();
    lines.push("9x9 published game, line 1:".to_string());
    for tok in "1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8".split_whitespace() {
        game.play(parse(game.geometry(), tok)).unwrap();
        lines.push(compare(&game));
    }

    let mut game = Phages::hexaphages(4).unwrap();
    lines.push("hex side 4 published game, lines 1-2:".to_string());
    for tok in "1 j5h5 d3e4 g2f3 g6f5 1 f5d5 f3g4 h5i4 e4c4 3 c4f1 i4f7".split_whitespace() {
        game.play(parse(game.geometry(), tok)).unwrap();
        lines.push(compare(&game));
    }

    // Random games to the end (not snapshotted: only the agreement is asserted).
    let mut rng = fastrand::Rng::with_seed(2024);
    let starts = [
        setup(SQUARE_5, &["a1", "e5"], &["e1", "a5"]),
        setup(Geometry::Square { size: 6 }, &["a1", "f6", "c3"], &["f1", "a6", "d4"]),
        setup(Geometry::Hex { side: 3 }, &["c1", "g5"], &["g1", "c5"]),
        Phages::hexaphages(4).unwrap(),
    ];
    for start in starts {
        for _ in 0..3 {
            let mut game = start.clone();
            while !game.is_over() {
                compare(&game);
                let moves = game.legal_moves();
                game.play(moves[rng.usize(..moves.len())]).unwrap();
            }
            compare(&game);
        }
    }
    insta::assert_snapshot!(lines.join("\n"));
}
