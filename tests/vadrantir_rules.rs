//! One test per rule point of Vadrantir (RULINGS Vadrantir 1-6), each on a small position (a
//! side-5 board set up from a diagram), asserting the exact outcome of every move and
//! snapshotting a transcript of the moves with the diagram of the position they leave.
//!
//! Moves are written as in the records: `i5` places a stone of the colour to move, `swap` is the
//! pie rule. Setups are drawn as the diagrams show the hexagon, one row a line; only the order of
//! the glyphs counts.

use std::collections::HashSet;

use referee::game::Notation;
use referee::game::{BoardView, Game, Playable};
use referee::games::vadrantir::{
    Colour, Comparison, Formed, Illegal, Vadrantir, VadrantirMove, VadrantirScore, Written,
};
use referee::geometry::{Cell, Geometry};
use referee::random::random_game;
use referee::render::ascii::diagram;

#[path = "support/rules.rs"]
mod rules;
use rules::{label, sorted, Session, Transcribed};

/// Vadrantir as its tests read it: a token as a record reads it (syntax, then the board), written
/// back as read; the colour to move by name.
impl Transcribed for Vadrantir {
    type Played = ();

    fn who(&self) -> String {
        self.to_move().to_string()
    }

    fn read(&self, tok: &str) -> Result<VadrantirMove, Illegal> {
        let written = Vadrantir::parse_move(tok).unwrap_or_else(|e| panic!("{tok}: {e}"));
        self.resolve(written).inspect(|&m| assert_eq!(self.write_move(m), tok, "a move is written back as read"))
    }
}

/// A position from a diagram (61, 91 or 127 glyphs for sides 5, 6, 7), Black to move.
fn board(rows: &str) -> Vadrantir {
    let cells: Vec<&str> = rows.split_whitespace().collect();
    let side = match cells.len() {
        61 => 5,
        91 => 6,
        127 => 7,
        n => panic!("{n} glyphs are no hex board"),
    };
    let empty = Vadrantir::start(Some(side), None).expect("a hex board");
    empty.with_setup(&cells).unwrap_or_else(|e| panic!("bad setup: {e}"))
}

fn empty(side: u8) -> Vadrantir {
    Vadrantir::start(Some(side), None).expect("a hex board")
}

fn cell(pos: &Vadrantir, s: &str) -> Cell {
    pos.geometry().parse_label(label(s)).unwrap_or_else(|| panic!("{s} is not on the board"))
}

fn too_large(cell: &str, stones: u16, enemy_colour: Colour, enemy: u16) -> Illegal {
    Illegal::GroupTooLarge { cell: label(cell), stones, enemy_colour, enemy }
}

/// The board's full rows, one colour a row: Black on the odd rows, White on the even ones. Every
/// row is one group; a group of Black is never more than one larger than the White rows beside it.
const ROWS: &str = "
        B B B B B
       W W W W W W
      B B B B B B B
     W W W W W W W W
    B B B B B B B B B
     W W W W W W W W
      B B B B B B B
       W W W W W W
        B B B B B";

/// [`ROWS`] with the named cells emptied.
fn rows_without(holes: &[&str]) -> Vadrantir {
    let full = board(ROWS);
    let g = full.geometry();
    let holes: Vec<Cell> = holes.iter().map(|h| cell(&full, h)).collect();
    let glyphs: Vec<&str> = g.cells().map(|c| if holes.contains(&c) { "." } else { full.glyph(c) }).collect();
    full.with_setup(&glyphs).expect("a setup")
}

impl Session<Vadrantir> {
    /// The group a stone of `colour` on `at` would form, logged.
    fn formed(&mut self, at: &str, colour: Colour) -> Formed {
        let f = self.pos.formed(self.cell(at), colour).expect("on the board");
        let verdict = if f.allowed() { "allowed" } else { "too large" };
        let stones = if f.stones == 1 { "1 stone".to_string() } else { format!("{} stones", f.stones) };
        let enemy = match f.enemy {
            0 => format!("no adjacent {} group", colour.opponent()),
            n => format!("a largest adjacent {} group of {n}", colour.opponent()),
        };
        self.note(&format!("{colour} on {at} would form {stones} against {enemy}: {verdict}"));
        f
    }

    /// The legal moves as sorted tokens, logged.
    fn legal(&mut self) -> Vec<String> {
        let mut v: Vec<String> = self.pos.legal_moves().into_iter().map(|m| self.pos.write_move(m)).collect();
        v.sort();
        let shown = if v.is_empty() { "nothing".to_string() } else { v.join(" ") };
        self.note(&format!("{} may play: {shown}", self.pos.to_move()));
        v
    }

    /// Logs the territories with their adjacent groups and owners, the groups on the board and
    /// the score; returns each territory as (first cell, cells, owner).
    fn scoring(&mut self) -> Vec<(String, u16, Option<Colour>)> {
        let g = self.pos.geometry();
        let sizes = |v: &[u16]| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.iter().map(u16::to_string).collect::<Vec<_>>().join(",")
            }
        };
        let mut out = Vec::new();
        for t in self.pos.territories() {
            let owner = match t.comparison {
                Some(c) => format!("owned by {} ({c})", c.larger),
                None => "owned by nobody".to_string(),
            };
            self.note(&format!(
                "territory at {} ({} cell{}): groups Black {} White {}; {owner}",
                g.label(t.first),
                t.cells,
                if t.cells == 1 { "" } else { "s" },
                sizes(&t.groups[0]),
                sizes(&t.groups[1]),
            ));
            out.push((g.label(t.first).to_string(), t.cells, t.owner()));
        }
        let groups = self.pos.group_sizes();
        let half = match self.pos.score().groups {
            Some(c) => format!("{} takes the half point ({c})", c.larger),
            None => "nobody takes the half point".to_string(),
        };
        self.note(&format!("groups on the board: Black {} White {}; {half}", sizes(&groups[0]), sizes(&groups[1])));
        self.note(&format!("score: {}", self.pos.score()));
        out
    }
}

/// The empty cells where no stone of `colour` stands next door.
fn cells_touching_no(pos: &Vadrantir, colour: Colour) -> Vec<Cell> {
    let g = pos.geometry();
    g.cells().filter(|&c| pos.stone(c).is_none() && g.neighbours(c).all(|n| pos.stone(n) != Some(colour))).collect()
}

/// Checks that the colour to move may place on every empty cell touching none of its stones.
fn free_cells_are_accepted(s: &mut Session<Vadrantir>) {
    let colour = s.pos.to_move();
    let free = cells_touching_no(&s.pos, colour);
    assert!(free.len() > 30);
    for &c in &free {
        assert_eq!(s.pos.check(VadrantirMove::Place(c)), Ok(()), "{colour} on {}", s.pos.geometry().label(c));
    }
    s.note(&format!("{colour} may place on each of the {} empty cells that touch no {colour} stone", free.len()));
}

/// RULINGS Vadrantir 1 (and Quadraphages 11): hexagons of side 5, 6 (the default) or 7 in
/// doubled-column coordinates, rows numbered from the top; cells off the hexagon are illegal in
/// the position, not a syntax error.
#[test]
fn hex_boards_of_side_5_to_7_default_6_and_cells_off_the_hexagon_refused() {
    let mut log = String::new();
    let default = Vadrantir::start(None, None).unwrap();
    assert_eq!(default.side(), 6);
    assert_eq!(default.geometry(), Geometry::Hex { side: 6 });
    assert_eq!(Vadrantir::ABOUT.title, "Vadrantir");
    assert_eq!(default.player_names(), ["Black", "White"]);
    assert_eq!(Playable::to_move(&default), 0);
    assert_eq!(default.to_move(), Colour::Black);
    for (side, cells) in [(5, 61), (6, 91), (7, 127)] {
        let pos = Vadrantir::start(Some(side), Some(2)).unwrap();
        assert_eq!(pos.side(), side);
        assert_eq!(pos.geometry().cell_count(), cells);
        assert_eq!(pos.legal_moves().len(), cells, "every cell of the empty board is a placement");
        let g = pos.geometry();
        let row = |r: u16| g.row_cells(r - 1).map(|c| g.label(c).to_string()).collect::<Vec<_>>().join(" ");
        log.push_str(&format!(
            "side {side}: {cells} cells; row 1: {}; row {side}: {}; row {}: {}\n",
            row(1),
            row(side as u16),
            2 * side - 1,
            row(2 * side as u16 - 1)
        ));
    }
    let refusals = [
        Vadrantir::start(Some(4), None).unwrap_err().to_string(),
        Vadrantir::start(Some(8), None).unwrap_err().to_string(),
        Vadrantir::start(None, Some(3)).unwrap_err().to_string(),
    ];
    assert_eq!(refusals[0], "Vadrantir is played on hex boards of side 5 to 7, not 4");
    assert_eq!(refusals[1], "Vadrantir is played on hex boards of side 5 to 7, not 8");
    assert_eq!(refusals[2], "Vadrantir is a game for two players, not 3");
    let five = empty(5);
    let mut cells = vec!["."; 61];
    cells[7] = "X";
    let bad_glyph = five.with_setup(&cells).unwrap_err().to_string();
    assert_eq!(bad_glyph, "h2: `X` is not a Vadrantir glyph: expected B, W or .");
    let short = five.with_setup(&cells[..60]).unwrap_err().to_string();
    assert_eq!(short, "the setup has 60 cells; the hex board of side 5 has 61");
    for e in refusals.iter().chain([&bad_glyph, &short]) {
        log.push_str(&format!("refused: {e}\n"));
    }

    // Neighbours differ by two letters in the same row, or by one letter and one row.
    let g = five.geometry();
    let neighbours = |s: &str| {
        let mut v: Vec<String> = g.neighbours(cell(&five, s)).map(|c| g.label(c).to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(neighbours("i5"), sorted(&["g5", "h4", "h6", "j4", "j6", "k5"]));
    assert_eq!(neighbours("e1"), sorted(&["d2", "f2", "g1"]));
    assert_eq!(neighbours("a5"), sorted(&["b4", "b6", "c5"]));
    log.push_str(&format!("neighbours of i5 on side 5: {}\n", neighbours("i5").join(" ")));

    // The corners of each board, then cells off the hexagon: a letter the row skips, a row or a
    // letter past the edge.
    for (side, tokens) in [(5, "e1 m1 q5 m9 e9 a5"), (6, "f1 p1 u6 p11 f11 a6"), (7, "g1 s1 y7 s13 g13 a7")] {
        let mut s = Session::new(empty(side));
        for (i, tok) in tokens.split_whitespace().enumerate() {
            assert_eq!(s.pos.to_move(), if i % 2 == 0 { Colour::Black } else { Colour::White });
            s.ok(tok);
        }
        let off: &[&str] = match side {
            5 => &["a1", "f5", "e10", "r5", "d1"],
            6 => &["a1", "f6", "f12", "v6", "e1"],
            _ => &["a1", "h7", "g14", "z7", "f1"],
        };
        for tok in off {
            s.refused(tok, Illegal::OffBoard { cell: label(tok), side });
        }
        log.push_str(&s.transcript());
    }
    // Every slot of the grid off the hexagon is refused, on each board.
    for side in 5..=7 {
        let pos = empty(side);
        let g = pos.geometry();
        let off: Vec<VadrantirMove> =
            every_slot(&pos).into_iter().filter(|&m| matches!(m, VadrantirMove::Place(c) if !g.contains(c))).collect();
        assert_eq!(off.len() + g.cell_count(), g.slots() + 4);
        for m in off {
            assert!(matches!(pos.check(m), Err(Illegal::OffBoard { side: s, .. }) if s == side), "{m:?}");
        }
    }
    let off = default.resolve(Vadrantir::parse_move("a1").unwrap()).unwrap_err();
    assert_eq!(off.to_string(), "a1 is not a cell of the side-6 board");
    // Cells off the hexagon reaching `check` through the library API are refused, not played.
    assert_eq!(five.check(VadrantirMove::Place(Cell(0))), Err(Illegal::OffBoard { cell: label("a1"), side: 5 }));
    assert_eq!(
        five.check(VadrantirMove::Place(Cell(9999))).unwrap_err().to_string(),
        "d589 is not a cell of the side-5 board"
    );
    insta::assert_snapshot!(log);
}

/// RULINGS Vadrantir 3: a stone that touches no friendly stone may go on any empty cell, next to
/// enemy stones only, inside an enemy ring, or alone.
#[test]
fn a_stone_touching_no_friendly_stone_is_always_legal() {
    let mut s = Session::new(board(
        "    . . . . .
            . . B B . .
           . . B B B . .
          . . . W W . . .
         . . . W . W . . .
          . . . W W . . .
           . . . . . . .
            B B . . . .
             W . . . .",
    ));
    free_cells_are_accepted(&mut s);
    s.ok("i5");
    s.note("i5 lies in a ring of six White stones and touches no Black stone");
    free_cells_are_accepted(&mut s);
    s.ok("h8");
    s.note("h8 touches Black's f8 and no White stone");
    s.formed("c7", Colour::Black);
    s.refused("c7", too_large("c7", 3, Colour::White, 1));
    assert_eq!(s.formed("e1", Colour::Black), Formed { stones: 1, enemy: 0 });
    s.ok("e1");
    s.note("e1 touches nothing at all");
    assert_eq!(s.pos.stone(s.cell("i5")), Some(Colour::Black));
    assert_eq!(s.pos.stone(s.cell("h8")), Some(Colour::White));
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Vadrantir 3: the group a stone forms may be one stone larger than the largest enemy
/// group adjacent to it, not two; the enemy group counts when it touches any stone of the group,
/// not only the new one.
#[test]
fn a_group_may_be_one_stone_larger_than_the_largest_adjacent_enemy_group_not_two() {
    let mut s = Session::new(board(
        "    . . . . .
            . . . . . .
           . . . . . . .
          . . . W W W . .
         . . W B B B . . .
          . . . . . . . .
           . . . . . . .
            . . . . . .
             . . . . .",
    ));
    // h6 touches only Black stones; the group it joins touches the White group of 3 above it.
    assert_eq!(s.formed("h6", Colour::Black), Formed { stones: 4, enemy: 3 });
    s.ok("h6");
    s.ok("e1");
    // m5 touches the White group of 3 itself, and the group of 1 on e5 touches g5: the largest
    // counts.
    assert_eq!(s.formed("m5", Colour::Black), Formed { stones: 5, enemy: 3 });
    s.refused("m5", too_large("m5", 5, Colour::White, 3));
    s.refused("j6", too_large("j6", 5, Colour::White, 3));
    s.ok("m9");
    // White's group may grow to 4: the Black group beside it holds 4.
    assert_eq!(s.formed("n4", Colour::White), Formed { stones: 4, enemy: 4 });
    s.ok("n4");
    assert_eq!(s.formed("m5", Colour::Black), Formed { stones: 5, enemy: 4 });
    s.ok("m5");
    // White may now go to 6, one stone at a time: 5 against 5, then 6 against 5, but not 7.
    assert_eq!(s.formed("p4", Colour::White), Formed { stones: 5, enemy: 5 });
    s.ok("p4");
    s.ok("a5");
    assert_eq!(s.formed("k3", Colour::White), Formed { stones: 6, enemy: 5 });
    s.ok("k3");
    s.show();
    s.ok("e9");
    assert_eq!(s.formed("o3", Colour::White), Formed { stones: 7, enemy: 5 });
    s.refused("o3", too_large("o3", 7, Colour::Black, 5));
    assert_eq!(
        too_large("o3", 7, Colour::Black, 5).to_string(),
        "the group this stone would form (7 stones) is more than one larger than the largest adjacent Black group (5)"
    );
    assert_eq!(s.pos.group_sizes(), [vec![5, 1, 1, 1], vec![6, 1, 1]]);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Vadrantir 3: with no enemy group adjacent, the largest enemy group counts as 0, so a
/// group may hold only its first stone until an enemy stone touches it.
#[test]
fn with_no_adjacent_enemy_group_a_group_may_hold_only_one_stone() {
    let mut s = Session::new(board(
        "    W . . . .
            . . . . . .
           . . . . . . .
          . . . . . . . .
         . . . B . . . . .
          . . . . . . . .
           . . . . . . .
            . . . . . .
             . . . . .",
    ));
    assert_eq!(s.formed("i5", Colour::Black), Formed { stones: 2, enemy: 0 });
    s.refused("i5", too_large("i5", 2, Colour::White, 0));
    assert_eq!(
        too_large("i5", 2, Colour::White, 0).to_string(),
        "the group this stone would form (2 stones) touches no White group, so it may hold only 1 stone"
    );
    s.ok("k5");
    s.refused("g1", too_large("g1", 2, Colour::Black, 0));
    s.refused("f2", too_large("f2", 2, Colour::Black, 0));
    s.ok("i5");
    s.note("White's i5 touches Black's g5 and k5: now each may grow by one");
    assert_eq!(s.formed("h4", Colour::Black), Formed { stones: 2, enemy: 1 });
    s.ok("h4");
    assert_eq!(s.formed("j4", Colour::White), Formed { stones: 2, enemy: 2 });
    s.ok("j4");
    assert_eq!(s.pos.group_sizes(), [vec![2, 1], vec![2, 1]]);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Vadrantir 3: a stone that joins two friendly groups forms one group of all their
/// stones, and that size is what must stay within one of the largest adjacent enemy group.
#[test]
fn merging_friendly_groups_counts_the_merged_size() {
    let mut s = Session::new(board(
        "    . . . . .
            . . . . . .
           . . . . . . .
          . . W . . . . .
         . B . B . . . . .
          . . . . . . . .
           . . . . . . .
            . . . . . .
             . . . . .",
    ));
    s.note("e5 joins c5 and g5: with either one alone it would make 2 stones, allowed against White's 1");
    assert_eq!(s.formed("e5", Colour::Black), Formed { stones: 3, enemy: 1 });
    s.refused("e5", too_large("e5", 3, Colour::White, 1));
    s.ok("m9");
    assert_eq!(s.formed("d4", Colour::White), Formed { stones: 2, enemy: 1 });
    s.ok("d4");
    assert_eq!(s.formed("e5", Colour::Black), Formed { stones: 3, enemy: 2 });
    s.ok("e5");
    assert_eq!(s.pos.group_sizes(), [vec![3, 1], vec![2]]);
    s.show();
    // White's f6 joins its lone stones on d6 and h6 into a group of 3, beside Black's group of 3.
    s.ok("d6");
    s.ok("l4");
    s.ok("h6");
    s.ok("i1");
    assert_eq!(s.formed("f6", Colour::White), Formed { stones: 3, enemy: 3 });
    s.ok("f6");
    assert_eq!(s.pos.group_sizes(), [vec![3, 1, 1, 1], vec![3, 2]]);
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Vadrantir 4: there is no passing; the game ends as soon as the player to move has no
/// legal placement, even with empty cells left and the other player still able to place.
#[test]
fn the_game_ends_when_the_player_to_move_has_no_legal_placement() {
    // In the full rows, h2 and h8 would join two Black rows (5 and 7 stones and the new one)
    // against White rows of 8: Black may only fill a5, the end of its row of 9.
    let mut s = Session::new(rows_without(&["h2", "a5", "h8"]));
    assert_eq!(s.legal(), sorted(&["a5"]));
    assert_eq!(s.formed("h2", Colour::Black), Formed { stones: 13, enemy: 8 });
    s.refused("h2", too_large("h2", 13, Colour::White, 8));
    assert!(!s.pos.is_over());
    assert_eq!(s.outcome(), None);
    s.ok("a5");
    assert_eq!(s.legal(), sorted(&["h2", "h8", "swap"]));
    s.ok("h2");
    assert!(s.pos.is_over());
    assert_eq!(s.legal(), Vec::<String>::new());
    assert_eq!(s.formed("h8", Colour::White), Formed { stones: 6, enemy: 7 });
    s.note("White could still fill h8, but Black is to move and cannot place: the game is over");
    s.refused("h8", Illegal::GameOver { colour: Colour::Black });
    s.refused("e1", Illegal::GameOver { colour: Colour::Black });
    s.refused("swap", Illegal::GameOver { colour: Colour::Black });
    assert_eq!(
        Illegal::GameOver { colour: Colour::Black }.to_string(),
        "the game is over: Black has no legal placement"
    );
    s.scoring();
    let o = s.outcome().expect("over");
    assert_eq!((o.winner, o.points.clone()), (Some(0), vec![1.5, 0.0]));
    assert_eq!(o.detail, "Black owns territories worth 1 to White's 0 and has the larger groups (9 to 8)");
    let mut log = s.transcript();

    // A start where Black cannot place is over before any move.
    let mut s = Session::new(rows_without(&["h2"]));
    assert!(s.pos.is_over());
    assert_eq!(s.legal(), Vec::<String>::new());
    s.refused("h2", Illegal::GameOver { colour: Colour::Black });
    s.outcome().expect("over");
    log.push_str(&s.transcript());

    // A full board: nobody can place anywhere.
    let mut s = Session::new(board(ROWS));
    assert!(s.pos.is_over());
    s.refused("i5", Illegal::GameOver { colour: Colour::Black });
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Vadrantir 5: a territory's adjacent groups are compared largest first, a missing group
/// counting 0; the first difference gives the owner, and a full tie gives nobody the territory.
/// Rows 2, 4, 6 and 8 are walls, so each group is a run of one colour in its row and each odd row
/// is a territory.
#[test]
fn a_territory_goes_to_the_larger_adjacent_groups_compared_largest_first() {
    let mut s = Session::new(board(
        "    . . . . .
            B B W W B W
           . . . . . . .
          B B B B W W W B
         . . . . . . . . .
          W W W W B W B W
           . . . . . . .
            B B W W B B
             . . . . .",
    ));
    let t = s.scoring();
    let owners: Vec<(&str, u16, Option<Colour>)> = t.iter().map(|(c, n, o)| (c.as_str(), *n, *o)).collect();
    assert_eq!(
        owners,
        [
            // Black 2,1 against White 2,1: a full tie.
            ("e1", 5, None),
            // Black 4,2,1,1 against White 3,2,1: the largest decides.
            ("c3", 7, Some(Colour::Black)),
            // Black 4,1,1,1 against White 4,3,1,1: the largest are equal, the second largest decide.
            ("a5", 9, Some(Colour::White)),
            ("c7", 7, Some(Colour::White)),
            // Black 2,2 against White 2: White's missing second group counts 0.
            ("e9", 5, Some(Colour::Black)),
        ]
    );
    let territories = s.pos.territories();
    assert_eq!(territories[0].groups, [vec![2, 1], vec![2, 1]]);
    assert_eq!(territories[0].comparison, None);
    assert_eq!(territories[2].comparison, Some(Comparison { larger: Colour::White, rank: 1, sizes: [1, 3] }));
    assert_eq!(territories[2].comparison.unwrap().to_string(), "3 to 1 in the 2nd largest groups");
    assert_eq!(territories[4].comparison, Some(Comparison { larger: Colour::Black, rank: 1, sizes: [2, 0] }));
    assert_eq!(territories[4].comparison.unwrap().to_string(), "2 to none in the 2nd largest groups");
    assert_eq!(s.pos.score().territory, [12, 16]);
    let mut log = s.transcript();

    // A territory's value is its number of cells; a territory with no group beside it (the empty
    // board) is nobody's.
    let mut s = Session::new(empty(5));
    assert_eq!(s.scoring(), [("e1".to_string(), 61, None)]);
    s.ok("i5");
    assert_eq!(s.scoring(), [("e1".to_string(), 60, Some(Colour::Black))]);
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Vadrantir 6: the half point goes to the colour whose groups on the whole board are
/// larger, compared largest first; the highest total wins, and only identical group lists with
/// territories of the same worth leave nobody winning.
#[test]
fn the_half_point_goes_to_the_larger_groups_on_the_board() {
    let mut log = String::new();
    // The full rows: no territory; Black's row of 9 beats White's rows of 8.
    let mut s = Session::new(board(ROWS));
    s.scoring();
    let o = s.outcome().expect("over");
    assert_eq!((o.winner, o.points.clone()), (Some(0), vec![0.5, 0.0]));
    assert_eq!(
        o.detail,
        "Black and White own territories worth 0 each; Black has the larger groups (9 to 8) and wins by the half \
         point"
    );
    assert_eq!(s.pos.score().to_string(), "Black 0.5, White 0");
    log.push_str(&s.log);

    // The walls of the territory test: the largest groups are equal (4), White's second (3)
    // beats Black's (2).
    let mut s = Session::new(board(
        "    . . . . .
            B B W W B W
           . . . . . . .
          B B B B W W W B
         . . . . . . . . .
          W W W W B W B W
           . . . . . . .
            B B W W B B
             . . . . .",
    ));
    s.scoring();
    let score = s.pos.score();
    assert_eq!(score.groups, Some(Comparison { larger: Colour::White, rank: 1, sizes: [2, 3] }));
    assert_eq!(score.half_point(), Some(Colour::White));
    assert_eq!(score.points(), [12.0, 16.5]);
    assert_eq!(score.to_string(), "Black 12, White 16.5");
    assert_eq!(s.outcome(), None);
    log.push_str(&s.log);

    // The end of a random game: Black's territories outweigh White's half point (the 4th largest
    // groups, 4 to 3).
    let mut s = Session::new(board(
        "    B B . W W
            W W W B B B
           W B B . W W W
          B B W W B B . B
         W . B W B B W W B
          B W W B W . W B
           B B . . B B W
            W W B B W W
             W W W B B",
    ));
    s.scoring();
    let o = s.outcome().expect("over");
    assert_eq!((o.winner, o.points.clone()), (Some(0), vec![5.0, 2.5]));
    assert_eq!(
        o.detail,
        "Black owns territories worth 5 to White's 2; White has the larger groups (4 to 3 in the 4th largest \
         groups), and the half point does not make up the difference"
    );
    log.push_str(&s.log);

    // Identical group lists: nobody takes the half point; the end of another random game, where
    // Black's territories decide alone.
    let mut s = Session::new(board(
        "    B B W W W
            W B B W B B
           B W B W B W W
          W B W B . W B W
         W B B W W B W B B
          B W . W B W B B
           W B B B . B W
            W B W W W W
             B W B B W",
    ));
    s.scoring();
    assert_eq!(s.pos.score(), VadrantirScore { territory: [2, 0], groups: None });
    let o = s.outcome().expect("over");
    assert_eq!((o.winner, o.points.clone()), (Some(0), vec![2.0, 0.0]));
    assert_eq!(
        o.detail,
        "Black owns territories worth 2 to White's 0; the groups are the same sizes on both sides, so nobody \
         takes the half point"
    );
    log.push_str(&s.log);

    // Identical group lists and equal territories: the only tie, and nobody wins. The board is
    // the same turned half round with the colours exchanged; i5 would join three groups of its
    // colour (8, 7 and 4 stones) against a largest enemy group of 8.
    let mut s = Session::new(board(
        "    B B B B B
            W W W W W W
           B B B B B B B
          W W W W B W W W
         B B B B . W W W W
          B B B W B B B B
           W W W W W W W
            B B B B B B
             W W W W W",
    ));
    assert_eq!(s.formed("i5", Colour::Black), Formed { stones: 20, enemy: 8 });
    s.scoring();
    assert_eq!(s.pos.group_sizes(), [vec![8, 7, 6, 5, 4], vec![8, 7, 6, 5, 4]]);
    let o = s.outcome().expect("over");
    assert_eq!((o.winner, o.points.clone()), (None, vec![0.0, 0.0]));
    assert_eq!(
        o.detail,
        "Black and White own territories worth 0 each and their groups are the same sizes: nobody takes the half \
         point, and nobody wins"
    );
    assert_eq!(s.pos.score().to_string(), "Black 0, White 0");
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Vadrantir 2: on White's first turn only, White may swap sides: the board stays, the
/// players exchange colours, and White (now the first player) moves again. Results go by colour,
/// and the outcome says the players swapped.
#[test]
fn the_pie_swap_only_on_whites_first_turn_and_white_moves_again() {
    let mut s = Session::new(empty(5));
    assert!(!s.pos.may_swap());
    s.refused("swap", Illegal::SwapNotAllowed);
    s.ok("i5");
    assert!(s.pos.may_swap());
    assert_eq!(s.legal().len(), 61, "60 placements and the swap");
    let before = s.pos.clone();
    s.ok("swap");
    assert!(s.pos.swapped());
    assert_eq!(s.pos.to_move(), Colour::White, "White moves again after the swap");
    assert_eq!(Playable::to_move(&s.pos), 1);
    assert!(before.geometry().cells().all(|c| before.stone(c) == s.pos.stone(c)), "the board does not change");
    assert_eq!(s.pos.score().territory, [60, 0], "scores go by colour: the stone on i5 is still Black's");
    s.refused("swap", Illegal::SwapNotAllowed);
    s.ok("g5");
    s.refused("swap", Illegal::SwapNotAllowed);
    s.ok("k5");
    assert_eq!(s.pos.to_move(), Colour::White);
    s.refused("swap", Illegal::SwapNotAllowed);
    assert_eq!(Illegal::SwapNotAllowed.to_string(), "a swap of sides is only allowed on White's first turn");
    let mut log = s.transcript();

    // White places on its first turn: too late to swap on its second.
    let mut s = Session::new(empty(5));
    s.ok("i5 g5 k5");
    s.refused("swap", Illegal::SwapNotAllowed);
    assert!(!s.pos.swapped());
    log.push_str(&s.transcript());

    // A whole game with the swap: the outcome goes by colour and says the players swapped.
    let mut s = Session::new(rows_without(&["h2", "a5", "h8"]));
    s.ok("a5 swap h2");
    assert!(s.pos.is_over());
    let o = s.outcome().expect("over");
    assert_eq!((o.winner, o.points.clone()), (Some(0), vec![1.5, 0.0]));
    assert_eq!(
        o.detail,
        "Black owns territories worth 1 to White's 0 and has the larger groups (9 to 8) (the players swapped \
         sides: the first player holds White)"
    );
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// RULINGS Vadrantir 2 and 4: the swap is no placement. When White has no placement on its first
/// turn the game is over and the swap goes with it (only a setup can do this: on a real board,
/// White has no stone yet, so every empty cell touches no White stone).
#[test]
fn a_swap_does_not_keep_a_finished_game_going() {
    // e5 and m5 would join White's rows 4 and 6 (8 + 8 + 1 stones) for White; Black may fill
    // either, joining parts of its row of 9.
    let mut s = Session::new(rows_without(&["e5", "m5"]));
    assert_eq!(s.legal(), sorted(&["e5", "m5"]));
    s.ok("e5");
    assert_eq!(s.formed("m5", Colour::White), Formed { stones: 17, enemy: 7 });
    assert!(s.pos.is_over());
    assert!(!s.pos.may_swap());
    assert_eq!(s.legal(), Vec::<String>::new());
    s.refused("swap", Illegal::GameOver { colour: Colour::White });
    s.refused("m5", Illegal::GameOver { colour: Colour::White });
    s.scoring();
    let o = s.outcome().expect("over");
    assert_eq!((o.winner, o.points.clone()), (Some(1), vec![0.0, 1.5]));
    assert_eq!(o.detail, "White owns territories worth 1 to Black's 0 and has the larger groups (8 to 7)");
    insta::assert_snapshot!(s.transcript());
}

/// Notation: a placement is the cell's label, `swap` the pie rule; there is no `pass`. Syntax
/// first, then the board (cells off the hexagon are illegal in the position).
#[test]
fn notation_reads_cells_and_swap_and_there_is_no_pass() {
    let six = empty(6);
    assert_eq!(Vadrantir::parse_move("f7"), Ok(Written::Place(label("f7"))));
    assert_eq!(Vadrantir::parse_move("swap"), Ok(Written::Swap));
    let mut log = String::new();
    for bad in ["pass", "F7", "f7f8", "resign", ""] {
        let e = Vadrantir::parse_move(bad).unwrap_err();
        log.push_str(&format!("`{bad}`: {e}\n"));
    }
    assert_eq!(
        Vadrantir::parse_move("pass").unwrap_err(),
        "`pass` is not a Vadrantir move: there is no passing; the game ends when the player to move has no legal \
         placement"
    );
    for tok in ["a6", "u6", "f1", "p11", "k6", "swap"] {
        let m = six.resolve(Vadrantir::parse_move(tok).unwrap()).unwrap();
        assert_eq!(six.write_move(m), tok);
    }
    for tok in ["a1", "f6", "k12"] {
        let e = six.resolve(Vadrantir::parse_move(tok).unwrap()).unwrap_err();
        assert_eq!(e, Illegal::OffBoard { cell: label(tok), side: 6 });
        log.push_str(&format!("{tok}: {e}\n"));
    }
    // Every move of every position writes and reads back to itself.
    let pos = board(
        "    . . . . .
            . . B B . .
           . . B B B . .
          . . . W W . . .
         . . . W . W . . .
          . . . W W . . .
           . . . . . . .
            B B . . . .
             W . . . .",
    );
    let moves = pos.geometry().cells().map(VadrantirMove::Place).chain([VadrantirMove::Swap]);
    for m in moves {
        let tok = pos.write_move(m);
        assert_eq!(pos.resolve(Vadrantir::parse_move(&tok).unwrap()), Ok(m), "{tok}");
    }
    insta::assert_snapshot!(log);
}

/// Every move `check` could be asked about: a placement on every cell of the hexagon and on a few
/// cells off it (an unused slot of the grid, the first slot past it, the last cell index), and the
/// swap. [`every_slot`] gives all the unused slots.
fn every_move(pos: &Vadrantir) -> Vec<VadrantirMove> {
    let slots = pos.geometry().slots() as u16;
    let mut all: Vec<VadrantirMove> = pos.geometry().cells().map(VadrantirMove::Place).collect();
    all.extend([Cell(0), Cell(slots), Cell(u16::MAX)].map(VadrantirMove::Place));
    all.push(VadrantirMove::Swap);
    all
}

/// A placement on every grid slot, the unused ones included, and a few past the grid.
fn every_slot(pos: &Vadrantir) -> Vec<VadrantirMove> {
    let slots = pos.geometry().slots() as u16;
    (0..slots + 3).chain([u16::MAX]).map(|i| VadrantirMove::Place(Cell(i))).collect()
}

fn assert_legal_moves_match_check(pos: &Vadrantir) {
    let legal = pos.legal_moves();
    let set: HashSet<VadrantirMove> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "legal_moves has duplicates\n{}", diagram(pos));
    let accepted: HashSet<VadrantirMove> = every_move(pos).into_iter().filter(|&m| pos.check(m).is_ok()).collect();
    assert_eq!(set, accepted, "legal_moves and check disagree\n{}", diagram(pos));
    assert_eq!(pos.is_over(), legal.is_empty());
    assert_eq!(pos.is_over(), !legal.iter().any(|m| matches!(m, VadrantirMove::Place(_))));
    assert_eq!(pos.outcome().is_some(), pos.is_over());
}

/// Every group no larger than one more than its largest adjacent enemy group: what legal play
/// keeps true (placements only ever grow the enemy groups a group is measured against).
fn groups_within_bounds(pos: &Vadrantir) -> bool {
    let g = pos.geometry();
    g.cells().filter(|&c| pos.stone(c).is_some()).all(|c| {
        // Lift the stone and measure the group it forms when placed back: its whole group.
        let colour = pos.stone(c).unwrap();
        let without: Vec<&str> = g.cells().map(|x| if x == c { "." } else { pos.glyph(x) }).collect();
        pos.with_setup(&without).unwrap().formed(c, colour).unwrap().allowed()
    })
}

/// `legal_moves` returns exactly the moves `check` accepts: on the positions of this file's tests
/// and along random games to their end, on every board side.
#[test]
fn legal_moves_are_exactly_the_moves_check_accepts() {
    let mut log = String::new();
    let starts = [
        empty(5),
        board(
            "    . . . . .
                . . B B . .
               . . B B B . .
              . . . W W . . .
             . . . W . W . . .
              . . . W W . . .
               . . . . . . .
                B B . . . .
                 W . . . .",
        ),
        board(
            "    . . . . .
                . . . . . .
               . . . . . . .
              . . . W W W . .
             . . W B B B . . .
              . . . . . . . .
               . . . . . . .
                . . . . . .
                 . . . . .",
        ),
        board(
            "    . . . . .
                B B W W B W
               . . . . . . .
              B B B B W W W B
             . . . . . . . . .
              W W W W B W B W
               . . . . . . .
                B B W W B B
                 . . . . .",
        ),
        rows_without(&["h2", "a5", "h8"]),
        rows_without(&["e5", "m5"]),
    ];
    for (i, start) in starts.iter().enumerate() {
        for seed in 0..3u64 {
            let moves = random_game(start, seed, 10_000);
            let mut pos = start.clone();
            assert_legal_moves_match_check(&pos);
            for &m in &moves {
                assert_eq!(pos.check(m), Ok(()));
                pos.play_unchecked(m);
                assert_legal_moves_match_check(&pos);
            }
            assert!(pos.is_over(), "start {i} seed {seed}: the game did not end");
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
    // The larger boards, checked along one game each, which keeps every group within bounds.
    for side in [6, 7] {
        let start = empty(side);
        let moves = random_game(&start, 11, 10_000);
        let mut pos = start.clone();
        for &m in &moves {
            pos.play(m).expect("random moves are legal");
            assert_legal_moves_match_check(&pos);
        }
        assert!(pos.is_over());
        assert!(groups_within_bounds(&pos));
        log.push_str(&format!("side {side} seed 11: {} moves, {}\n{}", moves.len(), pos.score(), diagram(&pos)));
    }
    insta::assert_snapshot!(log);
}

/// Every random game ends, within one move per cell and the swap (each placement fills a cell),
/// with the colour to move unable to place.
#[test]
fn every_random_game_ends_within_one_move_per_cell_and_the_swap() {
    for side in 5..=7u8 {
        let start = empty(side);
        let cells = start.geometry().cell_count();
        for seed in 0..40u64 {
            let moves = random_game(&start, seed, 10_000);
            let mut pos = start.clone();
            for &m in &moves {
                pos.play_unchecked(m);
            }
            assert!(pos.is_over(), "side {side} seed {seed}: the game did not end");
            assert!(pos.placements().is_empty());
            assert!(moves.len() <= cells + 1, "side {side} seed {seed}: {} moves", moves.len());
            assert!(moves.iter().filter(|&&m| m == VadrantirMove::Swap).count() <= 1);
            let o = pos.outcome().expect("over");
            assert_eq!(o.points, pos.score().points().to_vec());
            // A tie needs identical group lists.
            if o.winner.is_none() {
                assert_eq!(pos.score().groups, None);
            }
        }
    }
}

/// RULINGS Vadrantir 4 in lenient play: a violation can end the game, since the end is no count
/// a violation adds to but a fact of the board and the turn. Here White writes a placement on a
/// full cell: nothing is placed, the turn passes to Black, who has no legal placement, so the game
/// as replayed is over (had White filled h2 or h8 instead, Black would be as stuck).
#[test]
fn a_violation_ends_the_game_only_by_the_board_and_turn_it_leaves() {
    let mut s = Session::new(rows_without(&["h2", "a5", "h8"]));
    s.ok("a5");
    assert_eq!(s.legal(), sorted(&["h2", "h8", "swap"]));
    s.lenient("e1", Illegal::NotEmpty { cell: label("e1") });
    assert_eq!(s.pos.to_move(), Colour::Black);
    assert!(s.pos.is_over());
    for hole in ["h2", "h8"] {
        assert!(!s.formed(hole, Colour::Black).allowed(), "{hole}");
    }
    s.note("Black cannot place: the game is over");
    for after in ["h2", "h8"] {
        let mut legal = rows_without(&["h2", "a5", "h8"]);
        legal.play(VadrantirMove::Place(cell(&legal, "a5"))).unwrap();
        legal.play(VadrantirMove::Place(cell(&legal, after))).unwrap();
        assert!(legal.is_over(), "after White's {after}");
    }
    insta::assert_snapshot!(s.transcript());
}

/// Lenient replay: `play_unchecked` never panics. A placement on an empty cell is played as
/// written even when its group would be too large; one on a full cell or off the board changes
/// nothing but passes the turn; a swap exchanges the players' colours whenever it comes.
#[test]
fn lenient_play_plays_refused_moves_as_written_and_never_panics() {
    let mut log = String::new();
    let positions = [
        empty(5),
        board(
            "    W . . . .
                . . . . . .
               . . . . . . .
              . . . . . . . .
             . . . B . . . . .
              . . . . . . . .
               . . . . . . .
                . . . . . .
                 . . . . .",
        ),
        rows_without(&["h2"]),
        board(ROWS),
    ];
    for pos in &positions {
        for m in every_slot(pos).into_iter().chain([VadrantirMove::Swap]) {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let g = pos.geometry();
            match m {
                VadrantirMove::Place(c) if g.contains(c) && pos.stone(c).is_none() => {
                    assert_eq!(after.stone(c), Some(pos.to_move()));
                    assert_eq!(after.to_move(), pos.to_move().opponent());
                }
                VadrantirMove::Place(c) => {
                    assert!(g.cells().all(|x| after.stone(x) == pos.stone(x)), "{c:?} changed the board");
                    assert_eq!(after.to_move(), pos.to_move().opponent());
                }
                VadrantirMove::Swap => {
                    assert!(g.cells().all(|x| after.stone(x) == pos.stone(x)));
                    assert_eq!(after.to_move(), pos.to_move());
                    assert_eq!(after.swapped(), !pos.swapped());
                }
            }
            let _ = (after.legal_moves(), after.score(), after.outcome());
        }
    }
    // Refused moves played as written.
    let mut s = Session::new(positions[1].clone());
    let i5 = VadrantirMove::Place(s.cell("i5"));
    assert_eq!(s.pos.check(i5), Err(too_large("i5", 2, Colour::White, 0)));
    s.pos.play_unchecked(i5);
    s.note("Black i5 played leniently: the group of 2 with no White group beside it stands");
    let g5 = VadrantirMove::Place(s.cell("g5"));
    s.pos.play_unchecked(g5);
    s.note("White g5 played leniently: g5 holds a Black stone, nothing changes, Black is to move");
    assert_eq!(s.pos.stone(s.cell("g5")), Some(Colour::Black));
    assert_eq!(s.pos.to_move(), Colour::Black);
    s.pos.play_unchecked(VadrantirMove::Swap);
    s.note("Black swap played leniently on Black's second turn: the players exchange colours");
    assert!(s.pos.swapped());
    assert_eq!(s.pos.group_sizes(), [vec![2], vec![1]]);
    log.push_str(&s.transcript());
    insta::assert_snapshot!(log);
}

/// The engine's first algorithm, kept as the reference the incremental engine is checked against:
/// at every position the groups are found afresh by a flood fill over the whole board, as the
/// engine did before it kept them up to date move by move, and every rule is computed from them.
/// It reads the position only through the board (`stone`, `to_move`); the caller counts the moves
/// played, since White's first turn (the pie swap) is the second move.
mod reference {
    use referee::games::vadrantir::{
        Colour, Comparison, Formed, Illegal, Territory, Vadrantir, VadrantirMove, VadrantirScore,
    };
    use referee::geometry::{Cell, Geometry};

    /// A position with its groups: per grid slot the group of its stone, and per group its size,
    /// colour and the size of its largest adjacent enemy group.
    pub struct Reference<'a> {
        pos: &'a Vadrantir,
        g: Geometry,
        of: Vec<Option<usize>>,
        size: Vec<u16>,
        colour: Vec<Colour>,
        enemy: Vec<u16>,
        /// The placements of the colour to move, in reading order.
        pub placements: Vec<Cell>,
        whites_first_turn: bool,
    }

    impl Reference<'_> {
        pub fn of(pos: &Vadrantir, plies: usize) -> Reference<'_> {
            let g = pos.geometry();
            let mut r = Reference {
                pos,
                g,
                of: vec![None; g.slots()],
                size: Vec::new(),
                colour: Vec::new(),
                enemy: Vec::new(),
                placements: Vec::new(),
                whites_first_turn: plies == 1 && pos.to_move() == Colour::White,
            };
            for start in g.cells() {
                let Some(colour) = pos.stone(start) else { continue };
                if r.of[start.0 as usize].is_some() {
                    continue;
                }
                let id = r.size.len();
                r.of[start.0 as usize] = Some(id);
                let mut stack = vec![start];
                let mut size = 0;
                while let Some(c) = stack.pop() {
                    size += 1;
                    for nb in g.neighbours(c) {
                        if pos.stone(nb) == Some(colour) && r.of[nb.0 as usize].is_none() {
                            r.of[nb.0 as usize] = Some(id);
                            stack.push(nb);
                        }
                    }
                }
                r.size.push(size);
                r.colour.push(colour);
            }
            r.enemy = vec![0; r.size.len()];
            for c in g.cells() {
                let Some(id) = r.at(c) else { continue };
                for nb in g.neighbours(c) {
                    if let Some(other) = r.at(nb).filter(|&o| r.colour[o] != r.colour[id]) {
                        r.enemy[id] = r.enemy[id].max(r.size[other]);
                    }
                }
            }
            let colour = pos.to_move();
            r.placements = g.cells().filter(|&c| pos.stone(c).is_none() && r.formed(c, colour).allowed()).collect();
            r
        }

        fn at(&self, c: Cell) -> Option<usize> {
            self.of[c.0 as usize]
        }

        /// Each colour's sizes of these groups, largest first.
        fn sizes(&self, ids: impl IntoIterator<Item = usize>) -> [Vec<u16>; 2] {
            let mut sizes = [Vec::new(), Vec::new()];
            for id in ids {
                sizes[self.colour[id].index()].push(self.size[id]);
            }
            for v in &mut sizes {
                v.sort_unstable_by(|a, b| b.cmp(a));
            }
            sizes
        }

        pub fn group_sizes(&self) -> [Vec<u16>; 2] {
            self.sizes(0..self.size.len())
        }

        /// The group a `colour` stone on `cell` would form with the groups as they stand.
        pub fn formed(&self, cell: Cell, colour: Colour) -> Formed {
            let mut merged = Vec::new();
            let mut formed = Formed { stones: 1, enemy: 0 };
            for nb in self.g.neighbours(cell) {
                let Some(id) = self.at(nb) else { continue };
                if self.colour[id] != colour {
                    formed.enemy = formed.enemy.max(self.size[id]);
                } else if !merged.contains(&id) {
                    merged.push(id);
                    formed.stones += self.size[id];
                    formed.enemy = formed.enemy.max(self.enemy[id]);
                }
            }
            formed
        }

        pub fn is_over(&self) -> bool {
            self.placements.is_empty()
        }

        pub fn legal_moves(&self) -> Vec<VadrantirMove> {
            let mut moves: Vec<VadrantirMove> = self.placements.iter().copied().map(VadrantirMove::Place).collect();
            if !self.is_over() && self.whites_first_turn {
                moves.push(VadrantirMove::Swap);
            }
            moves
        }

        pub fn check(&self, m: VadrantirMove) -> Result<(), Illegal> {
            let (g, pos) = (self.g, self.pos);
            let verdict = match m {
                VadrantirMove::Place(c) if !g.contains(c) => {
                    Err(Illegal::OffBoard { cell: g.label(c), side: g.size() })
                }
                VadrantirMove::Place(c) if pos.stone(c).is_some() => Err(Illegal::NotEmpty { cell: g.label(c) }),
                VadrantirMove::Place(c) => {
                    let formed = self.formed(c, pos.to_move());
                    match formed.allowed() {
                        true => Ok(()),
                        false => Err(Illegal::GroupTooLarge {
                            cell: g.label(c),
                            stones: formed.stones,
                            enemy_colour: pos.to_move().opponent(),
                            enemy: formed.enemy,
                        }),
                    }
                }
                VadrantirMove::Swap if self.whites_first_turn => Ok(()),
                VadrantirMove::Swap => Err(Illegal::SwapNotAllowed),
            };
            // After the end every move is refused as such, the swap with the rest.
            match self.is_over() {
                true => Err(Illegal::GameOver { colour: pos.to_move() }),
                false => verdict,
            }
        }

        pub fn territories(&self) -> Vec<Territory> {
            let (g, pos) = (self.g, self.pos);
            let mut seen = vec![false; g.slots()];
            let mut territories = Vec::new();
            for first in g.cells() {
                if pos.stone(first).is_some() || seen[first.0 as usize] {
                    continue;
                }
                seen[first.0 as usize] = true;
                let mut stack = vec![first];
                let mut cells = 0;
                let mut adjacent: Vec<usize> = Vec::new();
                while let Some(c) = stack.pop() {
                    cells += 1;
                    for nb in g.neighbours(c) {
                        match self.at(nb) {
                            Some(id) if !adjacent.contains(&id) => adjacent.push(id),
                            Some(_) => {}
                            None if !seen[nb.0 as usize] => {
                                seen[nb.0 as usize] = true;
                                stack.push(nb);
                            }
                            None => {}
                        }
                    }
                }
                let groups = self.sizes(adjacent);
                let comparison = Comparison::of(&groups);
                territories.push(Territory { first, cells, groups, comparison });
            }
            territories
        }

        pub fn score(&self) -> VadrantirScore {
            let mut territory = [0, 0];
            for t in self.territories() {
                if let Some(owner) = t.owner() {
                    territory[owner.index()] += t.cells;
                }
            }
            VadrantirScore { territory, groups: Comparison::of(&self.group_sizes()) }
        }
    }
}

/// Asserts that the engine and the whole-board [`reference`] agree on everything the rules say
/// about `pos`, reached after `plies` moves from an empty board.
fn assert_agrees_with_reference(pos: &Vadrantir, plies: usize) {
    let r = reference::Reference::of(pos, plies);
    let board: String = pos.geometry().cells().map(|c| pos.glyph(c)).collect();
    assert_eq!(pos.legal_moves(), r.legal_moves(), "legal moves on {board}");
    assert_eq!(pos.placements(), r.placements, "placements on {board}");
    for m in every_slot(pos).into_iter().chain([VadrantirMove::Swap]) {
        assert_eq!(pos.check(m), r.check(m), "check {m:?} on {board}");
    }
    for c in pos.geometry().cells() {
        for colour in Colour::BOTH {
            assert_eq!(pos.formed(c, colour), Some(r.formed(c, colour)), "{colour} on {c:?} on {board}");
        }
    }
    assert_eq!(pos.is_over(), r.is_over(), "is_over on {board}");
    assert_eq!(pos.may_swap(), r.legal_moves().contains(&VadrantirMove::Swap));
    assert_eq!(pos.group_sizes(), r.group_sizes(), "group sizes on {board}");
    assert_eq!(pos.territories(), r.territories(), "territories on {board}");
    let score = r.score();
    assert_eq!(pos.score(), score, "score on {board}");
    let outcome = pos.outcome().map(|o| (o.winner, o.points));
    let expected = r.is_over().then(|| (score.leader().map(Colour::index), score.points().to_vec()));
    assert_eq!(outcome, expected, "outcome on {board}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

    /// Along random legal games on every side, the engine that keeps its groups move by move
    /// agrees with the whole-board reference at every position.
    #[test]
    fn the_incremental_engine_agrees_with_the_whole_board_reference(side in 5u8..=7, seed: u64) {
        let start = empty(side);
        let mut pos = start.clone();
        assert_agrees_with_reference(&pos, 0);
        for (plies, m) in random_game(&start, seed, 10_000).into_iter().enumerate() {
            pos.play(m).expect("random moves are legal");
            assert_agrees_with_reference(&pos, plies + 1);
        }
    }

    /// Lenient play reaches boards no legal game reaches (groups too large, stones anywhere, swaps
    /// at any time, placements off the board or on full cells that only pass the turn): the engine
    /// still agrees with the reference there, and so does a setup of the same board.
    #[test]
    fn lenient_play_agrees_with_the_whole_board_reference(
        side in 5u8..=7,
        slots in proptest::collection::vec(0u16..360, 0..200),
    ) {
        let mut pos = empty(side);
        for (plies, &slot) in slots.iter().enumerate() {
            // Past the largest grid (325 slots), a few values stand for the swap.
            let m = if slot >= 340 { VadrantirMove::Swap } else { VadrantirMove::Place(Cell(slot)) };
            pos.play_unchecked(m);
            assert_agrees_with_reference(&pos, plies + 1);
        }
        let glyphs: Vec<&str> = pos.geometry().cells().map(|c| pos.glyph(c)).collect();
        let setup = pos.with_setup(&glyphs).expect("a board's own glyphs");
        assert_agrees_with_reference(&setup, 0);
    }
}
