//! One test per rule point of Petrify (RULINGS Petrify 1-4), each on a small 6x6 position set up
//! from a diagram, asserting the exact outcome of every move and snapshotting a transcript of the
//! moves with the diagram of the position they leave.
//!
//! Moves are written as in the records: `d4` places a disk, `d4xg7` captures, `pass`, `swap`.

use std::collections::HashSet;

use referee::game::Notation;
use referee::game::{BoardView, Game, Playable};
use referee::games::petrify::{
    BoardPlay, Colour, Formation, Illegal, Obstacle, Petrify, PetrifyMove, Shape, Square, Written,
};
use referee::geometry::{Cell, CellLabel};
use referee::random::random_game;
use referee::render::ascii::diagram;
use referee::verdict::ClaimStatus;
use referee::verify::{verify_source, VerifyOptions};

#[path = "support/rules.rs"]
mod rules;
use rules::{label, sorted, Session, Transcribed};

/// Petrify as its tests read it: a token as a record reads it (syntax, then the board), written
/// back as read; the colour to move by name.
impl Transcribed for Petrify {
    type Played = ();

    fn who(&self) -> String {
        self.to_move().to_string()
    }

    fn read(&self, tok: &str) -> Result<PetrifyMove, Illegal> {
        let written = Petrify::parse_move(tok).unwrap_or_else(|e| panic!("{tok}: {e}"));
        self.resolve(written).inspect(|&m| assert_eq!(self.write_move(m), tok, "a move is written back as read"))
    }
}

fn labels(v: &[&str]) -> Vec<CellLabel> {
    v.iter().map(|s| label(s)).collect()
}

/// A 6x6 position from a diagram: one row per line, glyphs separated by spaces; Blue to move.
fn board(rows: &str) -> Petrify {
    let cells: Vec<&str> = rows.split_whitespace().collect();
    let empty = Petrify::start(Some(6), None).expect("a 6x6 board");
    empty.with_setup(&cells).unwrap_or_else(|e| panic!("bad setup: {e}"))
}

impl Session<Petrify> {
    /// The legal moves as sorted tokens, logged.
    fn legal(&mut self) -> Vec<String> {
        let mut v: Vec<String> = self.pos.legal_moves().into_iter().map(|m| self.pos.write_move(m)).collect();
        v.sort();
        self.note(&format!("{} may play: {}", self.pos.to_move(), v.join(" ")));
        v
    }

    /// The legal captures as sorted tokens, logged.
    fn captures(&mut self) -> Vec<String> {
        let mut v: Vec<String> = self
            .pos
            .legal_moves()
            .into_iter()
            .filter(|m| matches!(m, PetrifyMove::Capture { .. }))
            .map(|m| self.pos.write_move(m))
            .collect();
        v.sort();
        let shown = if v.is_empty() { "none".to_string() } else { v.join(" ") };
        self.note(&format!("{}'s captures: {shown}", self.pos.to_move()));
        v
    }

    /// Logs the patches, their groups and owners, and the score.
    fn scoring(&mut self) {
        let g = self.pos.geometry();
        for p in self.pos.patches() {
            let sizes = |v: &[u16]| {
                if v.is_empty() {
                    "-".to_string()
                } else {
                    v.iter().map(u16::to_string).collect::<Vec<_>>().join(",")
                }
            };
            let owner = p.owner.map_or("nobody".to_string(), |c| c.to_string());
            self.note(&format!(
                "patch at {} ({} squares): groups Blue {} Orange {}; left after cancelling Blue {} Orange {}; owned by {owner}",
                g.label(p.first),
                p.size,
                sizes(&p.groups[0]),
                sizes(&p.groups[1]),
                sizes(&p.remaining[0]),
                sizes(&p.remaining[1]),
            ));
        }
        self.note(&format!("score: {}", self.pos.score()));
    }
}

/// Every move `check` could be asked about on this board: all placements, all captures between
/// two squares, a pass and a swap.
fn every_move(pos: &Petrify) -> Vec<PetrifyMove> {
    let cells: Vec<Cell> = pos.geometry().cells().collect();
    let mut all: Vec<PetrifyMove> = cells.iter().map(|&c| PetrifyMove::Place(c)).collect();
    for &from in &cells {
        all.extend(cells.iter().map(|&to| PetrifyMove::Capture { from, to }));
    }
    all.extend([PetrifyMove::Pass, PetrifyMove::Swap]);
    all
}

fn assert_legal_moves_match_check(pos: &Petrify) {
    let legal = pos.legal_moves();
    let set: HashSet<PetrifyMove> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "legal_moves has duplicates\n{}", diagram(pos));
    let accepted: HashSet<PetrifyMove> = every_move(pos).into_iter().filter(|&m| pos.check(m).is_ok()).collect();
    assert_eq!(set, accepted, "legal_moves and check disagree\n{}", diagram(pos));
    assert_eq!(pos.is_over(), legal.is_empty());
    // No play ever leaves a mound or barricade: the position would be refused as a setup.
    let glyphs: Vec<&str> = pos.geometry().cells().map(|c| pos.glyph(c)).collect();
    assert!(pos.with_setup(&glyphs).is_ok(), "a formation on the board\n{}", diagram(pos));
}

/// RULINGS Petrify 1: square boards from 6x6 to 10x10 (8x8 by default), two players, setups in
/// the glyphs the diagrams use, and no mound or barricade in a setup.
#[test]
fn boards_from_6x6_to_10x10_and_setups_without_formations() {
    let mut log = String::new();
    let default = Petrify::start(None, None).unwrap();
    assert_eq!(default.size(), 8);
    assert_eq!(Petrify::ABOUT.title, "Petrify");
    assert_eq!(default.player_names(), ["Blue", "Orange"]);
    assert_eq!(Playable::to_move(&default), 0);
    for n in 6..=10 {
        assert_eq!(Petrify::start(Some(n), Some(2)).unwrap().size(), n);
    }
    let refusals = [
        Petrify::start(Some(5), None).unwrap_err().to_string(),
        Petrify::start(Some(11), None).unwrap_err().to_string(),
        Petrify::start(None, Some(3)).unwrap_err().to_string(),
    ];
    assert_eq!(refusals[0], "Petrify is played on square boards from 6x6 to 10x10, not 5x5");
    assert_eq!(refusals[1], "Petrify is played on square boards from 6x6 to 10x10, not 11x11");
    assert_eq!(refusals[2], "Petrify is a game for two players, not 3");

    let six = Petrify::start(Some(6), None).unwrap();
    let mut cells = vec!["."; 36];
    cells[14] = "X";
    let bad_glyph = six.with_setup(&cells).unwrap_err().to_string();
    assert_eq!(bad_glyph, "c3: `X` is not a Petrify glyph: expected B, O, # or .");
    let short = six.with_setup(&cells[..35]).unwrap_err().to_string();
    assert_eq!(short, "the setup has 35 cells; the 6x6 board has 36");
    let with_blocks = |blocks: &[usize]| {
        let mut cells = vec!["."; 36];
        for &i in blocks {
            cells[i] = "#";
        }
        six.with_setup(&cells).map_err(|e| e.to_string())
    };
    // c3 d3 c4 d4; b2 c3 d4; a1 alone (a corner); b1 with c2 (and the edge).
    let mound = with_blocks(&[14, 15, 20, 21]).unwrap_err();
    let barricade = with_blocks(&[7, 14, 21]).unwrap_err();
    let corner = with_blocks(&[0]).unwrap_err();
    let edge = with_blocks(&[1, 8]).unwrap_err();
    assert_eq!(
        mound,
        "the block on c3 makes a mound with c4, d3 and d4: a start position may hold no mound or barricade"
    );
    assert_eq!(
        barricade,
        "the block on b2 makes a barricade with c3 and d4: a start position may hold no mound or barricade"
    );
    assert_eq!(corner, "the block on a1 makes a mound with the edge: a start position may hold no mound or barricade");
    assert_eq!(
        edge,
        "the block on b1 makes a barricade with c2 and the edge: a start position may hold no mound or barricade"
    );
    assert!(with_blocks(&[14, 15, 20]).is_ok(), "three blocks of a 2x2 are not a mound");
    for e in refusals.iter().chain([&bad_glyph, &short, &mound, &barricade, &corner, &edge]) {
        log.push_str(&format!("refused: {e}\n"));
    }
    let pos = board(
        "B . . . . O
         . # . . . .
         . . . . # .
         . . O . . .
         . . . . . .
         O . . . . B",
    );
    assert_eq!(pos.square(pos.geometry().parse_label(label("b2")).unwrap()), Square::Block);
    log.push_str(&format!("a setup on the 6x6 board, {} to move:\n{}", pos.to_move(), diagram(&pos)));
    insta::assert_snapshot!(log);
}

/// Placements: a disk of the mover's colour on an empty square, and nowhere else.
#[test]
fn a_placement_goes_on_an_empty_square() {
    let mut s = Session::new(board(
        ". . . . . .
         . # . . . .
         . . O . . .
         . . . . . .
         . . . . . .
         . . . . . .",
    ));
    s.refused("b2", Illegal::NotEmpty { cell: label("b2") });
    s.refused("c3", Illegal::NotEmpty { cell: label("c3") });
    s.ok("d4");
    s.refused("d4", Illegal::NotEmpty { cell: label("d4") });
    s.ok("e5");
    assert_eq!(s.pos.square(s.cell("d4")), Square::Disk(Colour::Blue));
    assert_eq!(s.pos.square(s.cell("e5")), Square::Disk(Colour::Orange));
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Petrify 2: a capturing disk slides over empty squares and friendly disks only; a block
/// or an enemy disk on the way stops it.
#[test]
fn a_disk_slides_over_empty_squares_and_friendly_disks_only() {
    let mut s = Session::new(board(
        ". . . . . .
         . B . # O .
         . . . . O .
         . B B . O .
         . . B . O .
         . B . O . O",
    ));
    assert_eq!(
        s.captures(),
        sorted(&["b2xe5", "b4xd6", "b4xe4", "b6xd6", "b6xe3", "c4xe2", "c4xe4", "c5xd6", "c5xe3", "c5xe5"])
    );
    s.refused("b2xe2", Illegal::Blocked { from: label("b2"), to: label("e2"), by: Obstacle::Block(label("d2")) });
    s.refused(
        "b6xf6",
        Illegal::Blocked { from: label("b6"), to: label("f6"), by: Obstacle::Disk(Colour::Orange, label("d6")) },
    );
    s.refused("b2xd2", Illegal::NothingToCapture { enemy: Colour::Orange, cell: label("d2") });
    s.refused("b2xb4", Illegal::NothingToCapture { enemy: Colour::Orange, cell: label("b4") });
    s.refused("b4xe5", Illegal::NotStraight { from: label("b4"), to: label("e5") });
    s.refused("e4xb4", Illegal::NoDisk { colour: Colour::Blue, cell: label("e4") });
    s.refused("d4xe4", Illegal::NoDisk { colour: Colour::Blue, cell: label("d4") });
    // b6 to e3 runs over the friendly disk on c5 (diagonally); b4 to e4 over c4 (orthogonally).
    assert_eq!(s.pos.check(PetrifyMove::Capture { from: s.cell("b6"), to: s.cell("e3") }), Ok(()));
    s.ok("b4xe4");
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Petrify 2: the capturing disk takes the enemy disk's square, the enemy disk is
/// removed, and a block goes on the square the capturing disk left.
#[test]
fn a_capture_leaves_a_block_and_removes_the_enemy_disk() {
    let mut s = Session::new(board(
        ". . . . . .
         . B . . . .
         . . . . . .
         . . . O . .
         . . . . O .
         . . . . . .",
    ));
    s.ok("b2xd4");
    assert_eq!(s.pos.square(s.cell("b2")), Square::Block);
    assert_eq!(s.pos.square(s.cell("d4")), Square::Disk(Colour::Blue));
    assert_eq!(s.pos.square(s.cell("c3")), Square::Empty, "the square passed over stays empty");
    s.show();
    s.ok("e5xd4");
    assert_eq!(s.pos.square(s.cell("e5")), Square::Block);
    assert_eq!(s.pos.square(s.cell("d4")), Square::Disk(Colour::Orange));
    let disks = |p: &Petrify, c| p.geometry().cells().filter(|&x| p.square(x) == Square::Disk(c)).count();
    assert_eq!((disks(&s.pos, Colour::Blue), disks(&s.pos, Colour::Orange)), (0, 1));
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Petrify 2: no capture may leave a mound (2x2 blocks), counting the ring of virtual
/// blocks around the board: inside the board, against the edge, and in a corner (always).
#[test]
fn a_capture_may_not_make_a_mound() {
    let mut s = Session::new(board(
        "B B # . . .
         O . . . . .
         . O # # . .
         . . # B . O
         . . . . . .
         . . . . . .",
    ));
    let mound = |with: &[&str], edge| Formation { shape: Shape::Mound, with: labels(with), edge };
    s.refused("d4xf4", Illegal::Formation { block: label("d4"), formation: mound(&["c3", "c4", "d3"], false) });
    s.refused("b1xb3", Illegal::Formation { block: label("b1"), formation: mound(&["c1"], true) });
    s.refused("b1xa2", Illegal::Formation { block: label("b1"), formation: mound(&["c1"], true) });
    s.refused("a1xa2", Illegal::Formation { block: label("a1"), formation: mound(&[], true) });
    assert_eq!(s.captures(), Vec::<String>::new());
    // A block on any corner makes a mound with three virtual blocks.
    for corner in ["a1", "f1", "a6", "f6"] {
        assert_eq!(s.pos.formation_through(s.cell(corner)), Some(mound(&[], true)), "{corner}");
    }
    // Three blocks of a 2x2 are no mound: the capture from b3 (leaving b3 next to c3) is fine.
    s.ok("e6 b3xb1");
    assert_eq!(s.pos.square(s.cell("b3")), Square::Block);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Petrify 2: no capture may leave a barricade (three blocks in a diagonal line), in
/// either diagonal direction, the virtual ring counting: a block on an edge square with one
/// diagonally inwards from it, or on the second line with an edge block diagonally outwards.
#[test]
fn a_capture_may_not_make_a_barricade() {
    let barricade = |with: &[&str], edge| Formation { shape: Shape::Barricade, with: labels(with), edge };
    // Down to the right: b2, c3 and the block d4 would leave.
    let mut s = Session::new(board(
        ". . . . . .
         . # . . . .
         . . # . . .
         . . . B . O
         . . . . . .
         . . . . . .",
    ));
    s.refused("d4xf4", Illegal::Formation { block: label("d4"), formation: barricade(&["b2", "c3"], false) });
    let mut log = s.transcript();

    // Up to the right: e2, d3 and the block c4 would leave.
    let mut s = Session::new(board(
        ". . . . . .
         . . . . # .
         . . . # . .
         . . B . . .
         . . . . . .
         . . O . . .",
    ));
    s.refused("c4xc6", Illegal::Formation { block: label("c4"), formation: barricade(&["d3", "e2"], false) });
    log.push_str(&s.transcript());

    // Through the ring: the virtual a0, b1 and c2; then the virtual a3, a2 and b1.
    let mut s = Session::new(board(
        ". B . . . .
         . . # . . .
         . O . . . .
         . . . . . .
         . . . . . .
         . . . . . .",
    ));
    s.refused("b1xb3", Illegal::Formation { block: label("b1"), formation: barricade(&["c2"], true) });
    log.push_str(&s.transcript());
    let mut s = Session::new(board(
        ". # . . . .
         B . . . . .
         . . . . . .
         O . . . . .
         . . . . . .
         . . . . . .",
    ));
    s.refused("a2xa4", Illegal::Formation { block: label("a2"), formation: barricade(&["b1"], true) });
    log.push_str(&s.transcript());

    // On the second line: b2, the edge block a3 and the virtual square beyond it (left of a4).
    let mut s = Session::new(board(
        ". . . . . .
         . B . . . .
         # . . . . .
         . . . . . .
         . O . . . .
         . . . . . .",
    ));
    s.refused("b2xb5", Illegal::Formation { block: label("b2"), formation: barricade(&["a3"], true) });
    log.push_str(&s.transcript());

    // But b2 with c3 is no barricade: a1 is a real square, and a corner never holds a block.
    let mut s = Session::new(board(
        ". . . . . .
         . B . . . .
         . . # . . .
         . . . . . .
         . O . . . .
         . . . . . .",
    ));
    s.ok("b2xb5");
    assert_eq!(s.pos.square(s.cell("b2")), Square::Block);
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Petrify 4: in each patch, equal-sized opposite groups cancel in pairs before the
/// largest group left decides the owner. On the left, Blue's 3 and Orange's 3 cancel and Orange's
/// 2 beats Blue's 1 (without cancelling the largest groups would tie); top right, one of Blue's 2s
/// cancels Orange's 2 and Blue keeps the other; bottom right everything cancels.
#[test]
fn equal_groups_cancel_in_each_patch_before_ownership() {
    let mut s = Session::new(board(
        "B O # B O B
         B O # B O B
         B O # # # #
         . . # B B .
         B O # . . .
         . O # O O .",
    ));
    s.scoring();
    let patches = s.pos.patches();
    let owners: Vec<(String, u16, Option<Colour>)> =
        patches.iter().map(|p| (s.pos.geometry().label(p.first).to_string(), p.size, p.owner)).collect();
    assert_eq!(
        owners,
        [
            ("a1".to_string(), 12, Some(Colour::Orange)),
            ("d1".to_string(), 6, Some(Colour::Blue)),
            ("d4".to_string(), 9, None)
        ]
    );
    assert_eq!(patches[0].groups, [vec![3, 1], vec![3, 2]]);
    assert_eq!(patches[0].remaining, [vec![1], vec![2]]);
    assert_eq!(patches[1].remaining, [vec![2], Vec::<u16>::new()]);
    assert_eq!(patches[2].remaining, [Vec::<u16>::new(), vec![]]);
    assert_eq!(s.pos.score().points, [6, 12]);
    assert_eq!(s.pos.score().to_string(), "Blue 6, Orange 12");
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Petrify 4: a patch without disks is owned by nobody; a patch counts all its squares,
/// empty ones included.
#[test]
fn empty_patches_are_owned_by_nobody() {
    let mut s = Session::new(board(
        ". . # . . .
         . . # . . .
         . . # . B .
         . . # . . .
         . . # . . .
         . . # . . .",
    ));
    s.scoring();
    let owners: Vec<(u16, Option<Colour>)> = s.pos.patches().iter().map(|p| (p.size, p.owner)).collect();
    assert_eq!(owners, [(12, None), (18, Some(Colour::Blue))]);
    assert_eq!(s.pos.score().points, [18, 0]);
    let empty = Petrify::start(Some(6), None).unwrap();
    assert_eq!(empty.patches().len(), 1);
    assert_eq!(empty.patches()[0].owner, None);
    assert_eq!(empty.score().points, [0, 0]);
    insta::assert_snapshot!(s.transcript());
}

/// The tie boards: walls on b and e keep every disk from reaching an enemy; Blue holds a and f
/// (6 + 6 squares), Orange c and d (12).
const TIE_ONE_EMPTY: &str = "B # O O # B
                             B # O O # B
                             B # O O # B
                             B # O O # B
                             B # O O # B
                             . # O O # B";

/// RULINGS Petrify 4: a tie is lost by whoever made the last board play. The swap is no board
/// play, but it gives that player the other colour; with no board play at all, a tie is a draw.
#[test]
fn a_tie_is_lost_by_the_last_board_play() {
    let mut s = Session::new(board(TIE_ONE_EMPTY));
    s.ok("a6");
    assert_eq!(s.legal(), sorted(&["pass", "swap"]));
    s.ok("pass pass");
    s.scoring();
    let o = s.outcome().expect("over");
    assert_eq!(o.winner, Some(1));
    assert_eq!(o.points, [12.0, 12.0]);
    assert_eq!(o.detail, "Blue and Orange both own 12 squares: Blue made the last board play and loses the tie");
    let mut log = s.transcript();

    // The same game with a swap: the player who placed on a6 now holds Orange, and loses the tie.
    let mut s = Session::new(board(TIE_ONE_EMPTY));
    s.ok("a6 swap");
    assert_eq!(s.pos.last_board_play(), Some(Colour::Orange));
    s.ok("pass pass");
    let o = s.outcome().expect("over");
    assert_eq!(o.winner, Some(0));
    assert_eq!(
        o.detail,
        "Blue and Orange both own 12 squares: Orange made the last board play and loses the tie \
         (the players swapped sides: the first player holds Orange)"
    );
    log.push_str(&s.transcript());

    // A full board where nobody can play: nobody made a board play, and the tie is a draw.
    let mut s = Session::new(board(&TIE_ONE_EMPTY.replacen('.', "B", 1)));
    s.ok("pass pass");
    let o = s.outcome().expect("over");
    assert_eq!(o.winner, None);
    assert_eq!(o.detail, "Blue and Orange both own 12 squares and nobody made a board play: a draw");
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Petrify 3 in lenient play: a pass written by a player who had a board play stands for
/// it. It does not count toward the two passes in a row that end the game, so two such passes
/// leave the game going; a record that goes on after them is replayed to its end, and its claims
/// are judged on the game as replayed.
#[test]
fn a_pass_by_a_player_with_a_board_play_does_not_count_toward_the_end() {
    let mut s = Session::new(Petrify::start(Some(6), None).unwrap());
    s.lenient("pass", Illegal::MayNotPass { colour: Colour::Blue, play: BoardPlay::Placement });
    s.lenient("pass", Illegal::MayNotPass { colour: Colour::Orange, play: BoardPlay::Placement });
    s.note("two passes in a row, but both players could place: not over");
    assert!(!s.pos.is_over());
    assert_eq!(s.pos.to_move(), Colour::Blue);
    s.ok("a1 b2");
    assert!(!s.pos.is_over());

    let src = std::fs::read_to_string("samples/petrify/broken/illegal-passes-then-play-on.txt").unwrap();
    let lenient = &verify_source(&src, VerifyOptions { lenient: true, ..VerifyOptions::default() })[0];
    assert_eq!(lenient.problems.len(), 2, "{:?}", lenient.problems);
    assert!(lenient.game_over);
    let claims: Vec<_> = lenient.claims.iter().map(|c| (c.status, c.violations_accepted)).collect();
    assert_eq!(claims, [(ClaimStatus::Confirmed, 2), (ClaimStatus::Confirmed, 2)]);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Petrify 3: a pass is allowed only when the mover has no board play (a capture that
/// would make a mound or barricade is no board play); the swap does not count.
#[test]
fn a_pass_only_with_no_board_play() {
    let mut s = Session::new(Petrify::start(Some(6), None).unwrap());
    s.refused("pass", Illegal::MayNotPass { colour: Colour::Blue, play: BoardPlay::Placement });
    let mut log = s.transcript();

    // A full board where Blue's d3 can capture: Blue must.
    let mut s = Session::new(board(
        "B # O O # O
         B # O O # O
         B # O B # O
         B # O O # O
         B # O O # O
         B # O O # O",
    ));
    s.refused(
        "pass",
        Illegal::MayNotPass { colour: Colour::Blue, play: BoardPlay::Capture { from: label("d3"), to: label("d2") } },
    );
    assert_eq!(s.legal(), sorted(&["d3xc2", "d3xc3", "d3xc4", "d3xd2", "d3xd4"]));
    s.ok("d3xd4");
    log.push_str(&s.transcript());

    // Every capture Blue's disks reach would leave a barricade with the wall on b (through the
    // ring), and Orange's a1 would leave a block in the corner: both must pass.
    let mut s = Session::new(board(
        "O # O O # B
         B # O O # B
         B # O O # B
         B # O O # B
         B # O O # B
         B # O O # B",
    ));
    s.refused(
        "a2xa1",
        Illegal::Formation {
            block: label("a2"),
            formation: Formation { shape: Shape::Barricade, with: labels(&["b3"]), edge: true },
        },
    );
    assert_eq!(s.legal(), sorted(&["pass"]));
    s.ok("pass");
    assert_eq!(s.legal(), sorted(&["pass", "swap"]));
    s.ok("pass");
    assert!(s.pos.is_over());
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Petrify 3: two passes in a row end the game; a pass, a board play and a pass do not.
#[test]
fn two_passes_in_a_row_end_the_game() {
    // Blue's c1 can capture nothing without a mound (with b1 and the edge); Orange can take it.
    let mut s = Session::new(board(
        "B # B O # O
         B # O O # O
         B # O O # O
         B # O O # O
         B # O O # O
         B # O O # O",
    ));
    assert_eq!(s.legal(), sorted(&["pass"]));
    s.ok("pass");
    assert_eq!(s.captures(), sorted(&["c3xc1", "c4xc1"]));
    s.ok("c3xc1");
    s.show();
    s.ok("pass");
    assert!(!s.pos.is_over(), "a pass, a board play and a pass do not end the game");
    assert_eq!(s.outcome(), None);
    s.ok("pass");
    assert!(s.pos.is_over());
    assert_eq!(s.pos.legal_moves(), []);
    s.refused("pass", Illegal::GameOver);
    s.refused("a1", Illegal::GameOver);
    s.refused("swap", Illegal::GameOver);
    let o = s.outcome().expect("over");
    assert_eq!((o.winner, o.points.clone()), (Some(1), vec![6.0, 17.0]));
    assert_eq!(o.detail, "Orange owns 17 squares to Blue's 6 and wins");
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Petrify 1: on Orange's first turn only, Orange may swap sides: the board stays, the
/// players exchange colours, and Orange (now the first player) moves again.
#[test]
fn the_pie_swap_only_on_oranges_first_turn() {
    let mut s = Session::new(Petrify::start(Some(6), None).unwrap());
    s.refused("swap", Illegal::SwapNotAllowed);
    s.ok("c3");
    let before = s.pos.clone();
    s.ok("swap");
    assert!(s.pos.swapped());
    assert_eq!(s.pos.to_move(), Colour::Orange, "Orange moves again after the swap");
    assert!(before.geometry().cells().all(|c| before.square(c) == s.pos.square(c)), "the board does not change");
    assert_eq!(s.pos.score().points, [36, 0], "scores go by colour: the disk on c3 is still Blue's");
    s.refused("swap", Illegal::SwapNotAllowed);
    s.ok("d4");
    s.refused("swap", Illegal::SwapNotAllowed);
    s.ok("e5");
    assert_eq!(s.pos.to_move(), Colour::Orange);
    let mut log = s.transcript();

    // Orange places on its first turn: too late to swap on its second.
    let mut s = Session::new(Petrify::start(Some(6), None).unwrap());
    s.ok("c3 d4 e5");
    s.refused("swap", Illegal::SwapNotAllowed);
    assert!(!s.pos.swapped());
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// Notation: `d4`, `d4xg7`, `pass`, `swap`; syntax first, then the board (off-board cells are
/// illegal in the position, not a syntax error).
#[test]
fn notation_reads_places_and_writes_moves() {
    let eight = Petrify::start(None, None).unwrap();
    assert_eq!(Petrify::parse_move("d4"), Ok(Written::Place(label("d4"))));
    assert_eq!(Petrify::parse_move("d4xg7"), Ok(Written::Capture { from: label("d4"), to: label("g7") }));
    assert_eq!(Petrify::parse_move("pass"), Ok(Written::Pass));
    assert_eq!(Petrify::parse_move("swap"), Ok(Written::Swap));
    let mut log = String::new();
    for bad in ["D4", "d4-g7", "d4x", "resign"] {
        let e = Petrify::parse_move(bad).unwrap_err();
        log.push_str(&format!("{bad}: {e}\n"));
    }
    let off = eight.resolve(Petrify::parse_move("k3").unwrap()).unwrap_err();
    assert_eq!(off, Illegal::OffBoard { cell: label("k3"), size: 8 });
    assert_eq!(off.to_string(), "k3 is not on the 8x8 board");
    let off = eight.resolve(Petrify::parse_move("h8xh9").unwrap()).unwrap_err();
    assert_eq!(off.to_string(), "h9 is not on the 8x8 board");
    log.push_str(&format!("k3: {}\nh8xh9: {off}\n", Illegal::OffBoard { cell: label("k3"), size: 8 }));
    for tok in ["a1", "h8", "d4xg7", "pass", "swap"] {
        let m = eight.resolve(Petrify::parse_move(tok).unwrap()).unwrap();
        assert_eq!(eight.write_move(m), tok);
    }
    // Off-board cells reaching check through the library API are refused, not played.
    assert_eq!(
        eight.check(PetrifyMove::Place(Cell(64))),
        Err(Illegal::OffBoard { cell: CellLabel { col: 0, row: 9 }, size: 8 })
    );
    insta::assert_snapshot!(log);
}

/// `legal_moves` returns exactly the moves `check` accepts: on every position of this file's
/// tests and along random games to their end, which always comes (each board play lowers
/// `2 * empty squares + disks`).
#[test]
fn legal_moves_are_exactly_the_moves_check_accepts() {
    let mut log = String::new();
    let starts = [
        Petrify::start(Some(6), None).unwrap(),
        board(TIE_ONE_EMPTY),
        board(
            ". . . . . .
             . B . # O .
             . . . . O .
             . B B . O .
             . . B . O .
             . B . O . O",
        ),
        board(
            "B B # . . .
             O . . . . .
             . O # # . .
             . . # B . O
             . . . . . .
             . . . . . .",
        ),
        board(
            "B O # B O B
             B O # B O B
             B O # # # #
             . . # B B .
             B O # . . .
             . O # O O .",
        ),
    ];
    for (i, start) in starts.iter().enumerate() {
        for seed in 0..6u64 {
            let moves = random_game(start, seed, 10_000);
            let mut pos = start.clone();
            assert_legal_moves_match_check(&pos);
            for &m in &moves {
                assert_eq!(pos.check(m), Ok(()));
                pos.play_unchecked(m);
                assert_legal_moves_match_check(&pos);
            }
            assert!(pos.is_over(), "start {i} seed {seed}: the game did not end");
            let board_plays = moves.iter().filter(|m| matches!(m, PetrifyMove::Place(_) | PetrifyMove::Capture { .. }));
            assert!(board_plays.count() <= 2 * 36);
            let o = pos.outcome().unwrap();
            let tokens: Vec<String> = moves.iter().take(8).map(|&m| start.write_move(m)).collect();
            log.push_str(&format!(
                "start {i} seed {seed}: {} moves ({} ...), {}, winner {:?}: {}\n",
                moves.len(),
                tokens.join(" "),
                pos.score(),
                o.winner.map(|w| pos.player_names()[w]),
                o.detail
            ));
        }
    }
    // A larger board, checked on the start and along one game.
    let ten = Petrify::start(Some(10), None).unwrap();
    let moves = random_game(&ten, 7, 10_000);
    let mut pos = ten.clone();
    for &m in &moves {
        pos.play(m).expect("random moves are legal");
        assert_legal_moves_match_check(&pos);
    }
    assert!(pos.is_over());
    log.push_str(&format!("10x10 seed 7: {} moves, {}\n{}", moves.len(), pos.score(), diagram(&pos)));
    insta::assert_snapshot!(log);
}

/// The move generation as it was before it was made fast (issue 8), written from the public
/// accessors: every formation looked for from scratch, every slide walked through `Option`s.
mod reference {
    use super::*;

    const QUEEN: [(i32, i32); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];

    fn at(pos: &Petrify, col: i32, row: i32) -> Option<Cell> {
        let n = pos.size() as i32;
        ((0..n).contains(&col) && (0..n).contains(&row)).then(|| Cell((row * n + col) as u16))
    }

    fn coords(pos: &Petrify, c: Cell) -> (i32, i32) {
        let n = pos.size() as u16;
        ((c.0 % n) as i32, (c.0 / n) as i32)
    }

    /// The mound or barricade a block on `block` would make, with the ring of virtual blocks.
    pub fn formation_through(pos: &Petrify, block: Cell) -> Option<Formation> {
        let (bc, br) = coords(pos, block);
        let n = pos.size() as i32;
        let blocked = |col: i32, row: i32| match at(pos, col, row) {
            Some(c) => c == block || pos.square(c) == Square::Block,
            None => (-1..=n).contains(&col) && (-1..=n).contains(&row),
        };
        let formation = |shape, squares: &[(i32, i32)]| {
            let mut with: Vec<Cell> =
                squares.iter().filter_map(|&(c, r)| at(pos, c, r)).filter(|&c| c != block).collect();
            with.sort_by_key(|&c| coords(pos, c));
            let edge = squares.iter().any(|&(c, r)| at(pos, c, r).is_none());
            Formation { shape, with: with.into_iter().map(|c| pos.geometry().label(c)).collect(), edge }
        };
        for (c0, r0) in [(bc - 1, br - 1), (bc, br - 1), (bc - 1, br), (bc, br)] {
            let squares = [(c0, r0), (c0 + 1, r0), (c0, r0 + 1), (c0 + 1, r0 + 1)];
            if squares.iter().all(|&(c, r)| blocked(c, r)) {
                return Some(formation(Shape::Mound, &squares));
            }
        }
        for (dc, dr) in [(1, 1), (1, -1)] {
            for k in -2..=0 {
                let squares: [(i32, i32); 3] =
                    std::array::from_fn(|i| (bc + (k + i as i32) * dc, br + (k + i as i32) * dr));
                if squares.iter().all(|&(c, r)| blocked(c, r)) {
                    return Some(formation(Shape::Barricade, &squares));
                }
            }
        }
        None
    }

    /// Every capture of the mover, in reading order of the capturing disk, then by direction.
    pub fn captures(pos: &Petrify) -> Vec<(Cell, Cell)> {
        let mover = pos.to_move();
        let mut out = Vec::new();
        for from in pos.geometry().cells() {
            if pos.square(from) != Square::Disk(mover) || formation_through(pos, from).is_some() {
                continue;
            }
            let (fc, fr) = coords(pos, from);
            for (dc, dr) in QUEEN {
                let hit = (1..)
                    .map(|k| at(pos, fc + k * dc, fr + k * dr))
                    .take_while(Option::is_some)
                    .flatten()
                    .find_map(|c| match pos.square(c) {
                        Square::Empty => None,
                        Square::Disk(colour) if colour == mover => None,
                        Square::Disk(_) => Some(Some(c)),
                        Square::Block => Some(None),
                    })
                    .flatten();
                out.extend(hit.map(|to| (from, to)));
            }
        }
        out
    }

    /// The legal moves, `plies` moves into the game, `over` once two passes came in a row.
    pub fn legal_moves(pos: &Petrify, plies: usize, over: bool) -> Vec<PetrifyMove> {
        if over {
            return Vec::new();
        }
        let mut moves: Vec<PetrifyMove> =
            pos.geometry().cells().filter(|&c| pos.square(c) == Square::Empty).map(PetrifyMove::Place).collect();
        moves.extend(captures(pos).into_iter().map(|(from, to)| PetrifyMove::Capture { from, to }));
        if moves.is_empty() {
            moves.push(PetrifyMove::Pass);
        }
        if plies == 1 {
            moves.push(PetrifyMove::Swap);
        }
        moves
    }

    /// The score by patches: equal opposite groups cancel, the largest group left owns the patch.
    pub fn score(pos: &Petrify) -> [u16; 2] {
        let g = pos.geometry();
        let mut patch_of = vec![usize::MAX; pos.size() as usize * pos.size() as usize];
        let mut points = [0u16; 2];
        for first in g.cells() {
            if pos.square(first) == Square::Block || patch_of[first.0 as usize] != usize::MAX {
                continue;
            }
            let mut squares = vec![first];
            patch_of[first.0 as usize] = first.0 as usize;
            let mut i = 0;
            while i < squares.len() {
                for nb in g.neighbours(squares[i]) {
                    if pos.square(nb) != Square::Block && patch_of[nb.0 as usize] == usize::MAX {
                        patch_of[nb.0 as usize] = first.0 as usize;
                        squares.push(nb);
                    }
                }
                i += 1;
            }
            // Group sizes per colour, counted by size.
            let mut seen: HashSet<Cell> = HashSet::new();
            let mut counts = [std::collections::BTreeMap::<usize, i64>::new(), Default::default()];
            for &s in &squares {
                let Square::Disk(colour) = pos.square(s) else { continue };
                if !seen.insert(s) {
                    continue;
                }
                let mut group = vec![s];
                let mut j = 0;
                while j < group.len() {
                    for nb in g.neighbours(group[j]) {
                        if pos.square(nb) == Square::Disk(colour) && seen.insert(nb) {
                            group.push(nb);
                        }
                    }
                    j += 1;
                }
                *counts[colour.index()].entry(group.len()).or_default() += 1;
            }
            let sizes: std::collections::BTreeSet<usize> = counts.iter().flat_map(|m| m.keys().copied()).collect();
            let owner = sizes.iter().rev().find_map(|s| {
                let (b, o) = (counts[0].get(s).copied().unwrap_or(0), counts[1].get(s).copied().unwrap_or(0));
                match b.cmp(&o) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                }
            });
            if let Some(owner) = owner {
                points[owner] += squares.len() as u16;
            }
        }
        points
    }
}

/// Candidate moves for `check` at a position: every placement, every capture from a square to a
/// square on one of its lines (and a few that are not), a pass and a swap.
fn candidate_moves(pos: &Petrify) -> Vec<PetrifyMove> {
    let cells: Vec<Cell> = pos.geometry().cells().collect();
    let mut all: Vec<PetrifyMove> = cells.iter().map(|&c| PetrifyMove::Place(c)).collect();
    let n = pos.size() as u16;
    for &from in &cells {
        let (fc, fr) = ((from.0 % n) as i32, (from.0 / n) as i32);
        all.extend(cells.iter().filter_map(|&to| {
            let (tc, tr) = ((to.0 % n) as i32, (to.0 / n) as i32);
            let (dc, dr) = ((tc - fc).abs(), (tr - fr).abs());
            (dc == 0 || dr == 0 || dc == dr || (dc + dr) % 7 == 0).then_some(PetrifyMove::Capture { from, to })
        }));
    }
    all.extend([PetrifyMove::Pass, PetrifyMove::Swap]);
    all
}

/// Issue 8: the fast move generation gives the moves of the reference above, in the same order,
/// and `check`, the score, the outcome and the end of the game agree with it at every position
/// of random games on every board size.
#[test]
fn fast_move_generation_matches_the_reference() {
    for size in Petrify::SIZES {
        for seed in 0..4u64 {
            let start = Petrify::start(Some(size), None).unwrap();
            let moves = random_game(&start, seed * 31 + size as u64, 10_000);
            let mut pos = start.clone();
            let mut passes = 0;
            for plies in 0..=moves.len() {
                let over = passes >= 2;
                let context = || format!("size {size} seed {seed} ply {plies}\n{}", diagram(&pos));
                assert_eq!(pos.is_over(), over, "{}", context());
                let legal = reference::legal_moves(&pos, plies, over);
                assert_eq!(pos.legal_moves(), legal, "{}", context());
                let legal: HashSet<PetrifyMove> = legal.into_iter().collect();
                for m in candidate_moves(&pos) {
                    let verdict = pos.check(m);
                    assert_eq!(verdict.is_ok(), legal.contains(&m), "{m:?}: {verdict:?}\n{}", context());
                    if let Err(Illegal::Formation { formation, .. }) = &verdict {
                        let PetrifyMove::Capture { from, .. } = m else { panic!("{m:?}") };
                        assert_eq!(Some(formation), reference::formation_through(&pos, from).as_ref());
                    }
                }
                assert_eq!(pos.score().points, reference::score(&pos), "{}", context());
                match pos.outcome() {
                    None => assert!(!over),
                    Some(o) => {
                        let points = reference::score(&pos);
                        assert!(over);
                        assert_eq!(o.points, vec![points[0] as f64, points[1] as f64]);
                        let expected = match points[0].cmp(&points[1]) {
                            std::cmp::Ordering::Greater => Some(Colour::Blue),
                            std::cmp::Ordering::Less => Some(Colour::Orange),
                            std::cmp::Ordering::Equal => pos.last_board_play().map(Colour::opponent),
                        };
                        assert_eq!(o.winner, expected.map(Colour::index), "{}", context());
                    }
                }
                let Some(&m) = moves.get(plies) else { break };
                pos.play_unchecked(m);
                passes = if m == PetrifyMove::Pass { passes + 1 } else { 0 };
            }
            assert!(pos.is_over(), "size {size} seed {seed}: the game did not end");
        }
    }
}
