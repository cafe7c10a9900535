//! One test per rule point of Quarod (RULINGS, Quarod 1-6), each on a small position, asserting the
//! exact outcome of every move and snapshotting a transcript with the diagram of the position.
//!
//! Moves are written as in the records: `d4e4` a placement (Black on d4, White on e4), `d4xe4` a
//! board swap, `pass`, and `swap` for the pie rule. Setups are diagrams of glyphs, one row a line.

use std::collections::HashSet;

use referee::game::Notation;
use referee::game::{BoardView, Game, Playable};
use referee::games::quarod::{Action, Colour, Illegal, Piece, Quarod, QuarodMove, Rod, WrittenMove};
use referee::geometry::Cell;
use referee::random::random_game;
use referee::render::ascii::diagram;
use referee::verdict::{ClaimStatus, Unchecked};
use referee::verify::{verify_source, VerifyOptions};

#[path = "support/rules.rs"]
mod rules;
use rules::{label, sorted, Session, Transcribed};

/// Quarod as its tests read it: a token as a record reads it (syntax, then the squares on this
/// board); the colour to move by name.
impl Transcribed for Quarod {
    type Played = ();

    fn who(&self) -> String {
        self.colour_to_move().to_string()
    }

    fn read(&self, tok: &str) -> Result<QuarodMove, Illegal> {
        read(self, tok)
    }
}

/// A start position drawn row by row: `B> W< ..`.
fn board(rows: &[&str]) -> Quarod {
    let cells: Vec<&str> = rows.iter().flat_map(|r| r.split_whitespace()).collect();
    let empty = Quarod::start(Some(rows.len() as u8), None).expect("board size");
    empty.with_setup(&cells).unwrap_or_else(|e| panic!("bad setup: {e}"))
}

fn empty(size: u8) -> Quarod {
    Quarod::start(Some(size), None).expect("board size")
}

fn cell(pos: &Quarod, s: &str) -> Cell {
    pos.geometry().parse_label(label(s)).unwrap_or_else(|| panic!("{s} is not on the board"))
}

/// Reads a token as a record does: syntax, then the squares on this board.
fn read(pos: &Quarod, tok: &str) -> Result<QuarodMove, Illegal> {
    let written = Quarod::parse_move(tok).unwrap_or_else(|e| panic!("{e}"));
    pos.resolve(written)
}

impl Session<Quarod> {
    fn glyph(&self, s: &str) -> &'static str {
        self.pos.glyph(self.cell(s))
    }

    /// The square the piece on `s` is engaged to, as a label.
    fn partner(&self, s: &str) -> Option<String> {
        self.pos.partner(self.cell(s)).map(|c| self.pos.geometry().label(c).to_string())
    }

    /// The legal moves as sorted tokens; logged in the transcript.
    fn legal(&mut self) -> Vec<String> {
        let v = tokens(&self.pos);
        self.note(&format!("legal: {}", v.join(" ")));
        v
    }

    /// Logs how the game ended.
    fn ending(&mut self) -> referee::game::Outcome {
        let o = self.pos.outcome().expect("the game is over");
        let score = self.pos.score();
        self.note(&format!("score: {score}"));
        self.note(&format!("outcome: winner {:?}, points {:?}: {}", o.winner, o.points, o.detail));
        o
    }
}

fn tokens(pos: &Quarod) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().into_iter().map(|m| pos.write_move(m)).collect();
    v.sort();
    v
}

/// RULINGS Quarod 2: two adjacent pieces of different colours are engaged when their rods point
/// at each other; same-coloured pieces, rods pointing one way, and rods off the board are not.
#[test]
fn engagement_is_rods_pointing_at_each_other() {
    let mut s = Session::new(board(&["B> W< Bv", "W< B> W^", "B> B< W<"]));
    let mut lines = Vec::new();
    for c in s.pos.geometry().cells() {
        let l = s.pos.geometry().label(c).to_string();
        let p = s.partner(&l).map_or("not engaged".to_string(), |p| format!("engaged to {p}"));
        lines.push(format!("{l} {}: {p}", s.pos.glyph(c)));
    }
    // Side by side, rods facing each other.
    assert_eq!((s.partner("a1"), s.partner("b1")), (Some("b1".into()), Some("a1".into())));
    // One above the other.
    assert_eq!((s.partner("c1"), s.partner("c2")), (Some("c2".into()), Some("c1".into())));
    // a2's rod points off the board; b2 points at c2, whose rod points away.
    assert_eq!((s.partner("a2"), s.partner("b2")), (None, None));
    // a3 and b3 point at each other but are both Black.
    assert_eq!((s.partner("a3"), s.partner("b3")), (None, None));
    // c3 points at b3, which points the other way.
    assert_eq!(s.partner("c3"), None);
    s.note(&lines.join("\n-- "));
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Quarod 4: a placement puts Black on the first square and White on the second, two
/// adjacent empty squares, rods towards each other; either colour's player may place.
#[test]
fn a_placement_goes_on_two_adjacent_empty_squares_rods_towards_each_other() {
    let mut s = Session::new(board(&[".. .. ..", ".. W^ ..", ".. .. .."]));
    s.refused("a1c1", Illegal::NotAdjacent { a: label("a1"), b: label("c1") });
    s.refused("a1b2", Illegal::NotAdjacent { a: label("a1"), b: label("b2") });
    s.refused("b2b3", Illegal::NotEmpty { cell: label("b2") });
    s.refused("b3b2", Illegal::NotEmpty { cell: label("b2") });
    s.refused("a1a1", Illegal::SameSquare { cell: label("a1") });
    s.refused("c1d1", Illegal::OffBoard { cell: label("d1"), size: 3 });
    s.ok("a1b1");
    assert_eq!((s.glyph("a1"), s.glyph("b1")), ("B>", "W<"));
    assert_eq!(s.partner("a1"), Some("b1".into()));
    s.note("White places too, and still puts Black on the first square");
    s.ok("c3c2");
    assert_eq!((s.glyph("c3"), s.glyph("c2")), ("B^", "Wv"));
    assert_eq!(s.partner("c2"), Some("c3".into()));
    s.refused("b1c1", Illegal::NotEmpty { cell: label("b1") });
    s.refused("c1c2", Illegal::NotEmpty { cell: label("c2") });
    s.ok("a3a2");
    assert_eq!((s.glyph("a3"), s.glyph("a2")), ("B^", "Wv"));
    assert_eq!(Playable::to_move(&s.pos), 1);
    insta::assert_snapshot!(s.transcript());
}

/// Board swaps: a1-b1, c1-d1 and b2-b3 and c3-c4 are engaged pairs; c2 is not engaged.
const SWAPS: [&str; 4] = ["B> W< W> B<", ".. Bv W^ ..", ".. W^ Bv ..", ".. .. W^ .."];

/// RULINGS Quarod 4: a board swap takes two adjacent pieces of different colours, each engaged to
/// some piece but not to each other. One refused case per condition, then one that is allowed.
#[test]
fn a_board_swap_needs_adjacent_pieces_of_different_colours_each_engaged_but_not_to_each_other() {
    let mut s = Session::new(board(&SWAPS));
    s.note("a1 and c1: different colours, both engaged, but not adjacent");
    s.refused("a1xc1", Illegal::NotAdjacent { a: label("a1"), b: label("c1") });
    s.note("b1 and c1: adjacent and both engaged, but both White");
    s.refused("b1xc1", Illegal::SameColour { a: label("b1"), b: label("c1") });
    s.note("a1 and b1: engaged to each other");
    s.refused("a1xb1", Illegal::EngagedToEachOther { a: label("a1"), b: label("b1") });
    s.refused("b3xb2", Illegal::EngagedToEachOther { a: label("b3"), b: label("b2") });
    s.note("c2 and b2: different colours, adjacent, b2 engaged, but c2 is not");
    s.refused("c2xb2", Illegal::NotEngaged { cell: label("c2") });
    s.refused("b2xc2", Illegal::NotEngaged { cell: label("c2") });
    s.refused("d1xd2", Illegal::NoPiece { cell: label("d2") });
    s.refused("a2xb2", Illegal::NoPiece { cell: label("a2") });
    s.refused("b1xb1", Illegal::SameSquare { cell: label("b1") });
    s.refused("d1xe1", Illegal::OffBoard { cell: label("e1"), size: 4 });
    let swaps: Vec<String> = s.legal().into_iter().filter(|t| t.contains('x')).collect();
    assert_eq!(swaps, sorted(&["b1xb2", "b2xb1", "b3xc3", "c3xb3"]));
    s.note("b1 (White, engaged to a1) and b2 (Black, engaged to b3)");
    s.ok("b1xb2");
    assert_eq!((s.glyph("b1"), s.glyph("b2")), ("Bv", "W^"));
    assert_eq!((s.partner("b1"), s.partner("b2")), (Some("b2".into()), Some("b1".into())));
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Quarod 4: after a board swap the former partners keep their rods and are engaged to
/// nothing, so they can no longer take part in a board swap.
#[test]
fn after_a_board_swap_the_old_partners_are_left_unengaged() {
    let mut s = Session::new(board(&SWAPS));
    assert_eq!((s.partner("a1"), s.partner("b3")), (Some("b1".into()), Some("b2".into())));
    assert_eq!(s.pos.check(read(&s.pos, "b3xc3").unwrap()), Ok(()));
    s.ok("b1xb2");
    assert_eq!((s.glyph("a1"), s.glyph("b3")), ("B>", "W^"), "the former partners' rods do not move");
    assert_eq!((s.partner("a1"), s.partner("b3")), (None, None));
    s.note("b3 was engaged to b2 before the swap; now it is engaged to nothing");
    s.refused("b3xc3", Illegal::NotEngaged { cell: label("b3") });
    s.refused("c3xb3", Illegal::NotEngaged { cell: label("b3") });
    // The other engagements stand: c1-d1, c3-c4 and the new b1-b2.
    assert_eq!(s.partner("c1"), Some("d1".into()));
    assert_eq!(s.partner("c3"), Some("c4".into()));
    let swaps: Vec<String> = s.legal().into_iter().filter(|t| t.contains('x')).collect();
    assert_eq!(swaps, sorted(&["b1xc1", "c1xb1"]));
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Quarod 3: Black moves first; White may swap sides on its first turn only; the board
/// stays, the players exchange colours, and the colour to move is White again.
#[test]
fn the_pie_swap_is_only_on_whites_first_turn_and_white_moves_again() {
    let mut s = Session::new(empty(3));
    assert_eq!(s.pos.colour_to_move(), Colour::Black);
    assert!(!s.pos.legal_moves().contains(&QuarodMove::SwapSides));
    s.refused("swap", Illegal::SwapSidesNotNow);
    s.ok("a1b1");
    assert!(s.pos.may_swap_sides());
    assert!(s.pos.legal_moves().contains(&QuarodMove::SwapSides));
    let board_before: Vec<&str> = s.pos.geometry().cells().map(|c| s.pos.glyph(c)).collect();
    s.ok("swap");
    let board_after: Vec<&str> = s.pos.geometry().cells().map(|c| s.pos.glyph(c)).collect();
    assert_eq!(board_before, board_after, "the pie swap leaves the board as it is");
    assert!(s.pos.sides_swapped());
    assert_eq!((s.pos.colour_to_move(), Playable::to_move(&s.pos)), (Colour::White, 1));
    s.note("the first player now plays White and moves");
    s.refused("swap", Illegal::SwapSidesNotNow);
    assert!(!s.pos.legal_moves().contains(&QuarodMove::SwapSides));
    s.ok("a3b3");
    assert_eq!(s.pos.colour_to_move(), Colour::Black);
    s.refused("swap", Illegal::SwapSidesNotNow);
    s.ok("c1c2");
    s.refused("swap", Illegal::SwapSidesNotNow);

    let mut declined = Session::new(empty(3));
    declined.ok("a1b1 a2b2");
    declined.note("White placed on its first turn: the chance to swap sides is gone");
    declined.refused("swap", Illegal::SwapSidesNotNow);
    declined.ok("a3b3");
    declined.refused("swap", Illegal::SwapSidesNotNow);
    assert!(!declined.pos.sides_swapped());
    insta::assert_snapshot!(format!("{}\n-- White places instead:\n{}", s.transcript(), declined.transcript()));
}

/// RULINGS Quarod 5: a player passes only when there is neither a placement nor a board swap.
#[test]
fn a_player_passes_only_when_no_placement_and_no_board_swap_exists() {
    let mut s = Session::new(empty(2));
    s.refused(
        "pass",
        Illegal::MayNotPass {
            colour: Colour::Black,
            possible: Action::Place { black: label("a1"), white: label("b1") },
        },
    );

    s.ok("a1b1 b2a2");
    s.show();
    s.note("the board is full, but a1 and a2 (engaged to b1 and b2) may swap");
    s.refused(
        "pass",
        Illegal::MayNotPass { colour: Colour::Black, possible: Action::BoardSwap { a: label("a1"), b: label("a2") } },
    );
    assert_eq!(s.legal(), sorted(&["a1xa2", "a2xa1", "b1xb2", "b2xb1"]));
    s.ok("a1xa2");
    s.note("now nothing can be placed or swapped: White must pass");
    assert_eq!(s.legal(), ["pass"]);
    s.refused("b1xb2", Illegal::NotEngaged { cell: label("b1") });
    s.refused("a1a2", Illegal::NotEmpty { cell: label("a1") });
    s.ok("pass");

    // With nothing to do on White's first turn, White may pass or swap sides.
    let mut stuck = Session::new(board(&["B^ W^", "W^ B^"]));
    assert_eq!(stuck.legal(), ["pass"]);
    stuck.ok("pass");
    assert_eq!(stuck.legal(), sorted(&["pass", "swap"]));
    insta::assert_snapshot!(format!("{}\n{}", s.transcript(), stuck.transcript()));
}

/// RULINGS Quarod 5: two passes in a row end the game, and no move of any kind may follow. A pass,
/// a pie swap and a pass are not two passes in a row.
#[test]
fn two_passes_in_a_row_end_the_game_and_nothing_may_follow() {
    let mut s = Session::new(empty(2));
    s.ok("a1b1 b2a2 a1xa2 pass");
    assert!(!s.pos.is_over());
    assert_eq!(s.pos.outcome(), None);
    s.ok("pass");
    assert!(s.pos.is_over());
    assert_eq!(s.pos.legal_moves(), Vec::new());
    for tok in ["pass", "swap", "a1xa2", "b1xb2", "a1b1"] {
        s.refused(tok, Illegal::GameOver);
    }
    s.ending();

    let mut pie = Session::new(board(&["B^ W^", "W^ B^"]));
    pie.ok("pass swap");
    pie.note("Black passed, then White swapped sides: one pass so far");
    assert!(!pie.pos.is_over());
    pie.ok("pass");
    assert!(!pie.pos.is_over());
    pie.ok("pass");
    assert!(pie.pos.is_over());
    pie.refused("pass", Illegal::GameOver);
    pie.ending();
    insta::assert_snapshot!(format!("{}\n{}", s.transcript(), pie.transcript()));
}

/// RULINGS Quarod 5 in lenient play: a pass written by a player who had a placement or a board
/// swap stands for that move. It does not count toward the two passes in a row that end the game,
/// so two such passes leave the game going, and it ends by two real passes.
#[test]
fn a_pass_by_a_player_who_had_a_move_does_not_count_toward_the_end() {
    let mut s = Session::new(empty(2));
    let place =
        |colour| Illegal::MayNotPass { colour, possible: Action::Place { black: label("a1"), white: label("b1") } };
    s.lenient("pass", place(Colour::Black));
    s.lenient("pass", place(Colour::White));
    s.note("two passes in a row, but both players could place: not over");
    assert!(!s.pos.is_over());
    assert_eq!(s.pos.colour_to_move(), Colour::Black);
    s.ok("a1b1 b2a2 a1xa2 pass");
    assert!(!s.pos.is_over());
    s.ok("pass");
    assert!(s.pos.is_over());
    s.ending();

    // A record that goes on after two such passes is replayed to its end, and its claims are
    // judged on the game as replayed; strict replay stops at the first pass.
    let src = std::fs::read_to_string("samples/quarod/broken/illegal-passes-then-play-on.txt").unwrap();
    let lenient = &verify_source(&src, VerifyOptions { lenient: true, ..VerifyOptions::default() })[0];
    assert_eq!(lenient.problems.len(), 2, "{:?}", lenient.problems);
    assert!(lenient.game_over);
    let claims: Vec<_> = lenient.claims.iter().map(|c| (c.status, c.violations_accepted)).collect();
    assert_eq!(claims, [(ClaimStatus::Confirmed, 2), (ClaimStatus::Confirmed, 2)]);
    let strict = &verify_source(&src, VerifyOptions::default())[0];
    assert_eq!(strict.problems.len(), 1);
    assert!(strict.claims.iter().all(|c| c.status == ClaimStatus::Unchecked(Unchecked::IllegalMoves)));
    insta::assert_snapshot!(s.transcript());
}

/// Ends a game with no moves left by two passes.
fn passed_out(rows: &[&str]) -> Session<Quarod> {
    let mut s = Session::new(board(rows));
    assert_eq!(tokens(&s.pos), ["pass"], "the setup leaves a move");
    s.ok("pass pass");
    s
}

/// RULINGS Quarod 6: the score is the largest group size at which a colour has more groups.
#[test]
fn the_score_is_the_largest_size_at_which_a_colour_has_more_groups() {
    // Black: one group of 4 and one of 1; White: two of 3 and one of 1.
    let mut s = passed_out(&["B^ B^ B^ B^", "W^ W^ W^ ..", ".. B^ .. W^", "W^ .. W^ W^"]);
    let counts = s.pos.group_counts();
    assert_eq!((counts[4], counts[3], counts[1]), ([1, 0], [0, 2], [1, 1]));
    let score = s.pos.score();
    assert_eq!(score.points, [4, 3]);
    assert_eq!(score.groups, [[1, 0], [2, 0]]);
    let o = s.ending();
    assert_eq!(o.winner, Some(Colour::Black.index()));
    assert_eq!(o.points, [4.0, 3.0]);
    assert_eq!(o.detail, "Black has more groups of size 4 (1 to 0)");
    assert_eq!(score.to_string(), "Black 4 (1 to 0 groups of size 4), White 3 (2 to 0 groups of size 3)");
    insta::assert_snapshot!(s.transcript());
}

/// RULINGS Quarod 6: sizes where both have as many groups do not count; a smaller size decides.
#[test]
fn a_smaller_size_decides_when_the_larger_sizes_are_equal() {
    // Both have one group of 3; Black has a group of 2 and White none; White has more singles.
    let mut s = passed_out(&["B^ B^ B^ ..", ".. W^ .. W^", "B^ .. W^ W^", "W^ B^ B^ .."]);
    let counts = s.pos.group_counts();
    assert_eq!((counts[3], counts[2], counts[1]), ([1, 1], [1, 0], [1, 2]));
    assert_eq!(s.pos.score().points, [2, 1]);
    let o = s.ending();
    assert_eq!(o.winner, Some(Colour::Black.index()));
    assert_eq!(o.detail, "Black has more groups of size 2 (1 to 0)");

    // All sizes equal except the singles: White's extra single decides.
    let mut singles = passed_out(&["B^ W^ B^", "B^ .. W^", "W^ W^ .."]);
    let counts = singles.pos.group_counts();
    assert_eq!((counts[2], counts[1]), ([1, 1], [1, 2]));
    assert_eq!(singles.pos.score().points, [0, 1]);
    let o = singles.ending();
    assert_eq!((o.winner, o.detail.as_str()), (Some(1), "White has more groups of size 1 (2 to 1)"));
    insta::assert_snapshot!(format!("{}\n{}", s.transcript(), singles.transcript()));
}

/// RULINGS Quarod 6: when both score 0, whoever made the last placement or board swap loses; the
/// pie swap is neither, and the loser is the colour that player holds at the end.
#[test]
fn when_both_score_zero_the_last_placer_or_swapper_loses() {
    // The last placement is White's: a1-a2 Black, b1-b2 White, two groups of 2 each.
    let mut placed = Session::new(empty(2));
    placed.ok("a1b1 a2b2 pass pass");
    assert_eq!(placed.pos.score().points, [0, 0]);
    assert_eq!(placed.pos.last_actor(), Some(Colour::White));
    let o = placed.ending();
    assert_eq!(o.winner, Some(Colour::Black.index()));
    assert_eq!(o.points, [0.0, 0.0]);
    assert_eq!(o.detail, "both players score 0, and White made the last placement or board swap and loses");

    // The last board swap is Black's.
    let mut swapped = Session::new(empty(2));
    swapped.ok("a1b1 b2a2 a1xa2 pass pass");
    assert_eq!(swapped.pos.score().points, [0, 0]);
    let o = swapped.ending();
    assert_eq!(o.winner, Some(Colour::White.index()));
    assert_eq!(o.detail, "both players score 0, and Black made the last placement or board swap and loses");

    // The first player places as Black, then the sides are swapped: that player now holds White
    // and loses as White.
    let mut pie = Session::new(board(&["B^ W^", ".. .."]));
    pie.ok("a2b2 swap pass pass");
    assert!(pie.pos.sides_swapped());
    assert_eq!(pie.pos.score().points, [0, 0]);
    assert_eq!(pie.pos.last_actor(), Some(Colour::White));
    let o = pie.ending();
    assert_eq!(o.winner, Some(Colour::Black.index()));
    assert_eq!(
        o.detail,
        "both players score 0, and the player now playing White made the last placement or board swap and loses"
    );

    // Nobody placed or swapped: a draw.
    let mut nobody = passed_out(&["B^ W^", "W^ B^"]);
    let o = nobody.ending();
    assert_eq!(o.winner, None);
    assert_eq!(o.detail, "both players score 0 and nobody made a placement or board swap: a draw");
    insta::assert_snapshot!(format!(
        "{}\n{}\n{}\n{}",
        placed.transcript(),
        swapped.transcript(),
        pie.transcript(),
        nobody.transcript()
    ));
}

/// Every move `check` accepts in `pos`: every ordered pair of squares (and one square off the
/// board) as a placement and as a board swap, a pass and a swap of sides.
fn accepted(pos: &Quarod) -> HashSet<QuarodMove> {
    let g = pos.geometry();
    let off = Cell(g.slots() as u16);
    let squares: Vec<Cell> = g.cells().chain([off]).collect();
    let mut moves = vec![QuarodMove::Pass, QuarodMove::SwapSides];
    for &a in &squares {
        for &b in &squares {
            moves.push(QuarodMove::Place { black: a, white: b });
            moves.push(QuarodMove::BoardSwap { a, b });
        }
    }
    moves.into_iter().filter(|&m| pos.check(m).is_ok()).collect()
}

/// Checks that `legal_moves` is exactly what `check` accepts, without repeats; returns a summary.
fn compare(pos: &Quarod) -> String {
    let listed = pos.legal_moves();
    let set: HashSet<QuarodMove> = listed.iter().copied().collect();
    assert_eq!(set.len(), listed.len(), "legal_moves repeats a move");
    assert_eq!(set, accepted(pos), "legal_moves and check disagree in\n{}", diagram(pos));
    let who = if pos.is_over() { "over".to_string() } else { pos.colour_to_move().to_string() };
    let toks = tokens(pos);
    format!("{who} ({}): {}", toks.len(), if toks.is_empty() { "(none)".to_string() } else { toks.join(" ") })
}

/// `legal_moves` is exactly the set of moves `check` accepts, along whole games.
#[test]
fn legal_moves_are_exactly_the_moves_check_accepts() {
    let mut lines = Vec::new();
    let games: [(&str, Quarod, &str); 4] = [
        ("2x2, placements, a board swap and passes", empty(2), "a1b1 b2a2 a1xa2 pass pass"),
        ("2x2, the pie swap", empty(2), "a1b1 swap a2b2 pass pass"),
        ("2x2 with nothing to do", board(&["B^ W^", "W^ B^"]), "pass swap pass pass"),
        ("4x4 board swaps, then the first legal move until the end", board(&SWAPS), "b1xb2 c1xb1 a2a3"),
    ];
    for (name, start, play) in games {
        lines.push(format!("{name}:"));
        let mut game = start;
        lines.push(compare(&game));
        for tok in play.split_whitespace() {
            game.play(read(&game, tok).unwrap()).unwrap_or_else(|e| panic!("{name}: {tok}: {e}"));
            lines.push(format!("{tok} -> {}", compare(&game)));
        }
        while let Some(&m) = game.legal_moves().first() {
            let tok = game.write_move(m);
            game.play(m).unwrap();
            lines.push(format!("{tok} -> {}", compare(&game)));
        }
        lines.push(diagram(&game));
    }

    // Random games to the end (not snapshotted: only the agreement is asserted).
    let starts = [empty(2), empty(3), empty(4), board(&SWAPS), empty(5)];
    for (i, start) in starts.iter().enumerate() {
        for seed in 0..8 {
            let moves = random_game(start, 100 * i as u64 + seed, 1000);
            let mut game = start.clone();
            compare(&game);
            for m in moves {
                game.play(m).unwrap();
                compare(&game);
            }
            assert!(game.is_over());
        }
    }
    let start = empty(8);
    let mut game = start.clone();
    for m in random_game(&start, 7, 1000) {
        compare(&game);
        game.play(m).unwrap();
    }
    compare(&game);
    insta::assert_snapshot!(lines.join("\n"));
}

/// Every placement adds an engagement and every board swap removes one, so a game from an empty
/// board ends within one move a square plus the pie swap and two passes; every move is legal and
/// its written token reads back as the same move.
#[test]
fn random_games_end_within_one_move_per_square_and_read_back() {
    let mut longest = [0usize; 27];
    for size in [2u8, 3, 4, 5, 6, 8, 13, 26] {
        let start = empty(size);
        let squares = size as usize * size as usize;
        for seed in 0..if size > 8 { 3 } else { 40 } {
            let moves = random_game(&start, seed, 100_000);
            assert!(moves.len() <= squares + 3, "{size}x{size}, seed {seed}: {} moves", moves.len());
            let mut game = start.clone();
            for m in &moves {
                let tok = game.write_move(*m);
                let back = game.resolve(Quarod::parse_move(&tok).unwrap()).unwrap();
                assert_eq!(back, *m, "{tok} reads back as another move");
                game.play(*m).unwrap_or_else(|e| panic!("{tok}: {e}"));
            }
            assert!(game.is_over(), "{size}x{size}, seed {seed}: not over after {} moves", moves.len());
            assert!(game.outcome().is_some());
            longest[size as usize] = longest[size as usize].max(moves.len());
        }
    }
    assert!(longest[8] > 30, "8x8 games are long enough to mean something");
}

/// The notation: syntax alone in `parse_move`, squares on the board in `resolve`, tokens written
/// by `write_move` read back.
#[test]
fn notation_reads_placements_board_swaps_pass_and_swap() {
    let p = |t: &str| Quarod::parse_move(t);
    assert_eq!(p("d4e4"), Ok(WrittenMove::Place { black: label("d4"), white: label("e4") }));
    assert_eq!(p("d4xe4"), Ok(WrittenMove::BoardSwap { a: label("d4"), b: label("e4") }));
    assert_eq!(p("z26y26"), Ok(WrittenMove::Place { black: label("z26"), white: label("y26") }));
    // `x` is also a file: `d4x5` is a placement on d4 and x5; `x4xx5` a board swap.
    assert_eq!(p("d4x5"), Ok(WrittenMove::Place { black: label("d4"), white: label("x5") }));
    assert_eq!(p("x4xx5"), Ok(WrittenMove::BoardSwap { a: label("x4"), b: label("x5") }));
    assert_eq!(p("pass"), Ok(WrittenMove::Pass));
    assert_eq!(p("swap"), Ok(WrittenMove::SwapSides));
    let mut errors = Vec::new();
    for bad in ["", "d4", "d4e", "D4e4", "d0e4", "d4xe", "d4-e4", "Pass", "resign", "d4e4x", "d4xxe4"] {
        let e = p(bad).expect_err(bad);
        errors.push(format!("{bad:?}: {e}"));
    }

    let pos = empty(8);
    let off = pos.resolve(p("z9a1").unwrap()).unwrap_err();
    assert_eq!(off, Illegal::OffBoard { cell: label("z9"), size: 8 });
    assert_eq!(off.to_string(), "z9 is not on the 8x8 board");
    assert_eq!(pos.resolve(p("h8xh9").unwrap()), Err(Illegal::OffBoard { cell: label("h9"), size: 8 }));
    let m = pos.resolve(p("d4e4").unwrap()).unwrap();
    assert_eq!(m, QuarodMove::Place { black: cell(&pos, "d4"), white: cell(&pos, "e4") });
    for tok in ["d4e4", "e4d4", "d4xe4", "e4xd4", "pass", "swap"] {
        assert_eq!(pos.write_move(pos.resolve(p(tok).unwrap()).unwrap()), tok);
    }
    insta::assert_snapshot!(errors.join("\n"));
}

/// The common record format: tag, colours, board sizes, players, setup diagrams and glyphs.
#[test]
fn record_format_start_positions_and_setup_diagrams() {
    assert_eq!(Quarod::ABOUT.title, "Quarod");
    let start = Quarod::start(None, None).unwrap();
    assert_eq!(start.size(), 8);
    assert_eq!(start.player_names(), ["Black", "White"]);
    assert_eq!(Playable::to_move(&start), 0);
    assert!(Quarod::start(Some(26), Some(2)).is_ok());
    let mut errors = vec![
        Quarod::start(Some(1), None).unwrap_err().to_string(),
        Quarod::start(Some(27), None).unwrap_err().to_string(),
        Quarod::start(None, Some(3)).unwrap_err().to_string(),
    ];

    // Every glyph reads back as the piece that writes it.
    for colour in Colour::BOTH {
        for rod in Rod::ALL {
            let piece = Piece { colour, rod };
            assert_eq!(Piece::from_glyph(piece.glyph()), Some(piece));
            assert_eq!(piece.glyph().len(), 2);
        }
    }
    let small = empty(2);
    let set = small.with_setup(&["B^", "W>", "Bv", "W<"]).unwrap();
    assert_eq!(set.geometry().cells().map(|c| set.glyph(c)).collect::<Vec<_>>(), ["B^", "W>", "Bv", "W<"]);
    assert_eq!(set.glyph(Cell(0)), "B^");
    assert_eq!(small.glyph(Cell(3)), "..");
    errors.push(small.with_setup(&["..", "..", "Bx", ".."]).unwrap_err().to_string());
    errors.push(small.with_setup(&["..", "..", "..", "b^"]).unwrap_err().to_string());
    errors.push(small.with_setup(&["..", "..", ".."]).unwrap_err().to_string());
    assert!(errors[3].starts_with("a2:"), "{}", errors[3]);
    assert!(errors[4].starts_with("b2:"), "{}", errors[4]);
    insta::assert_snapshot!(format!("{}\n{}", errors.join("\n"), diagram(&set)));
}

/// The engine as it was before its move generator worked by square index (issue 8), written from
/// the public accessors: the differential test below holds the fast engine to it, move order and
/// messages included (random games, and so the snapshots, depend on the order).
mod reference {
    use referee::game::{BoardView, Game};
    use referee::games::quarod::{Action, Colour, Illegal, Quarod, QuarodMove, Rod, WrittenMove};
    use referee::geometry::Cell;

    pub fn partner(pos: &Quarod, c: Cell) -> Option<Cell> {
        let piece = pos.piece(c)?;
        let other = pos.geometry().step(c, piece.rod.direction())?;
        let p = pos.piece(other)?;
        (p.colour != piece.colour && p.rod == piece.rod.opposite()).then_some(other)
    }

    fn pair(pos: &Quarod, a: Cell, b: Cell) -> Result<Rod, Illegal> {
        let g = pos.geometry();
        for c in [a, b] {
            if !g.contains(c) {
                return Err(Illegal::OffBoard { cell: g.label(c), size: pos.size() });
            }
        }
        if a == b {
            return Err(Illegal::SameSquare { cell: g.label(a) });
        }
        Rod::towards(g, a, b).ok_or(Illegal::NotAdjacent { a: g.label(a), b: g.label(b) })
    }

    fn check_place(pos: &Quarod, black: Cell, white: Cell) -> Result<(), Illegal> {
        pair(pos, black, white)?;
        for c in [black, white] {
            if pos.piece(c).is_some() {
                return Err(Illegal::NotEmpty { cell: pos.geometry().label(c) });
            }
        }
        Ok(())
    }

    fn check_board_swap(pos: &Quarod, a: Cell, b: Cell) -> Result<(), Illegal> {
        pair(pos, a, b)?;
        let l = |c| pos.geometry().label(c);
        let (pa, pb) = match (pos.piece(a), pos.piece(b)) {
            (Some(pa), Some(pb)) => (pa, pb),
            (None, _) => return Err(Illegal::NoPiece { cell: l(a) }),
            (_, None) => return Err(Illegal::NoPiece { cell: l(b) }),
        };
        if pa.colour == pb.colour {
            return Err(Illegal::SameColour { a: l(a), b: l(b) });
        }
        match (partner(pos, a), partner(pos, b)) {
            (Some(p), _) if p == b => Err(Illegal::EngagedToEachOther { a: l(a), b: l(b) }),
            (None, _) => Err(Illegal::NotEngaged { cell: l(a) }),
            (_, None) => Err(Illegal::NotEngaged { cell: l(b) }),
            _ => Ok(()),
        }
    }

    /// The placements, then the board swaps, in reading order of their first square.
    fn actions(pos: &Quarod) -> Vec<QuarodMove> {
        let g = pos.geometry();
        let mut moves = Vec::new();
        for a in g.cells() {
            for b in g.neighbours(a).filter(|&b| check_place(pos, a, b).is_ok()) {
                moves.push(QuarodMove::Place { black: a, white: b });
            }
        }
        for a in g.cells().filter(|&a| partner(pos, a).is_some()) {
            for b in g.neighbours(a).filter(|&b| check_board_swap(pos, a, b).is_ok()) {
                moves.push(QuarodMove::BoardSwap { a, b });
            }
        }
        moves
    }

    pub fn legal_moves(pos: &Quarod) -> Vec<QuarodMove> {
        if pos.is_over() {
            return Vec::new();
        }
        let mut moves = actions(pos);
        if moves.is_empty() {
            moves.push(QuarodMove::Pass);
        }
        if pos.may_swap_sides() {
            moves.push(QuarodMove::SwapSides);
        }
        moves
    }

    pub fn check(pos: &Quarod, m: QuarodMove) -> Result<(), Illegal> {
        if pos.is_over() {
            return Err(Illegal::GameOver);
        }
        match m {
            QuarodMove::Place { black, white } => check_place(pos, black, white),
            QuarodMove::BoardSwap { a, b } => check_board_swap(pos, a, b),
            QuarodMove::Pass => match actions(pos).first() {
                Some(&possible) => {
                    let possible = match pos.written(possible) {
                        WrittenMove::Place { black, white } => Action::Place { black, white },
                        WrittenMove::BoardSwap { a, b } => Action::BoardSwap { a, b },
                        other => panic!("{other} is no placement or board swap"),
                    };
                    Err(Illegal::MayNotPass { colour: pos.colour_to_move(), possible })
                }
                None => Ok(()),
            },
            QuarodMove::SwapSides if pos.may_swap_sides() => Ok(()),
            QuarodMove::SwapSides => Err(Illegal::SwapSidesNotNow),
        }
    }

    /// Each colour's score (RULINGS, Quarod 6), by a flood fill of its own.
    pub fn points(pos: &Quarod) -> [u16; 2] {
        let g = pos.geometry();
        let mut counts = vec![[0u16; 2]; g.slots() + 1];
        let mut seen = vec![false; g.slots()];
        for start in g.cells() {
            let Some(piece) = pos.piece(start) else { continue };
            if std::mem::replace(&mut seen[start.0 as usize], true) {
                continue;
            }
            let (mut stack, mut size) = (vec![start], 0);
            while let Some(c) = stack.pop() {
                size += 1;
                for d in g.neighbours(c) {
                    if !seen[d.0 as usize] && pos.piece(d).is_some_and(|p| p.colour == piece.colour) {
                        seen[d.0 as usize] = true;
                        stack.push(d);
                    }
                }
            }
            counts[size][piece.colour.index()] += 1;
        }
        Colour::BOTH.map(|c| {
            let (own, other) = (c.index(), c.opponent().index());
            (1..counts.len()).rev().find(|&s| counts[s][own] > counts[s][other]).unwrap_or(0) as u16
        })
    }
}

/// The candidate moves tried on `pos`: every square and the row of squares after the board, each
/// with its neighbours, itself, the squares two apart and diagonal and across the row's end, as a
/// placement and a board swap; a pass and a swap of sides.
fn candidates(pos: &Quarod) -> Vec<QuarodMove> {
    let w = pos.size() as i32;
    let slots = w * w;
    let mut moves = vec![QuarodMove::Pass, QuarodMove::SwapSides];
    for a in 0..slots + w {
        for d in [-w - 1, -w, -w + 1, -1, 0, 1, 2, w - 1, w, w + 1, 2 * w] {
            let b = a + d;
            if b < 0 {
                continue;
            }
            let (a, b) = (Cell(a as u16), Cell(b as u16));
            moves.push(QuarodMove::Place { black: a, white: b });
            moves.push(QuarodMove::BoardSwap { a, b });
        }
    }
    moves
}

/// The index-arithmetic move generator against the reference engine above, at every position of
/// random games on boards of size 2 to 9: the same legal moves in the same order, the same verdict
/// and message for every candidate move, the same score, outcome and end.
#[test]
fn the_fast_move_generator_agrees_with_the_reference_engine() {
    let mut positions = 0;
    for size in 2u8..=9 {
        let start = empty(size);
        for seed in 0..if size <= 5 { 12 } else { 4 } {
            let mut game = start.clone();
            let moves = random_game(&start, 1000 * size as u64 + seed, 100_000);
            for m in moves.iter().copied().map(Some).chain([None]) {
                positions += 1;
                let at = || format!("{size}x{size}, seed {seed}, move {}:\n{}", positions, diagram(&game));
                assert_eq!(game.legal_moves(), reference::legal_moves(&game), "legal moves, {}", at());
                for c in candidates(&game) {
                    assert_eq!(game.check(c), reference::check(&game, c), "check {c:?}, {}", at());
                }
                for c in game.geometry().cells() {
                    assert_eq!(game.partner(c), reference::partner(&game, c), "partner {c:?}, {}", at());
                }
                assert_eq!(game.score().points, reference::points(&game), "score, {}", at());
                assert_eq!(game.is_over(), m.is_none(), "the game ends with its last move, {}", at());
                let winner = game.is_over().then(|| {
                    let [black, white] = reference::points(&game);
                    match black.cmp(&white) {
                        std::cmp::Ordering::Greater => Some(Colour::Black.index()),
                        std::cmp::Ordering::Less => Some(Colour::White.index()),
                        std::cmp::Ordering::Equal => game.last_actor().map(|c| c.opponent().index()),
                    }
                });
                assert_eq!(game.outcome().map(|o| o.winner), winner, "outcome, {}", at());
                if let Some(m) = m {
                    game.play(m).unwrap_or_else(|e| panic!("{e}, {size}x{size}, seed {seed}"));
                }
            }
        }
    }
    assert!(positions > 1000, "{positions} positions");
}
