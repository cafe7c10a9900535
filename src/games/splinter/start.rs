//! The default starts of Splinter Quad (RULINGS Splinter Quad 1).
//!
//! The seed text says only that play begins "with the pieces arranged in a checkerboard pattern at
//! the center of the board"; its picture is lost. These are the project's starts. Each player has
//! 1 king, 2 rooks, 2 bishops and 4 pawns (glyphs: the player's number, then `K`, `R`, `B`, `P`).
//! All pieces stand in one solid rectangular block in the middle of the board, no two pieces of one
//! player side by side (orthogonally), and a symmetry of the board carries each player's pieces
//! onto another's, as far as a square board allows:
//!
//! - **Four players** (Red 1, Blue 2, Green 3, Yellow 4): a 6x6 block on a 10x10 board, two empty
//!   lines all round. Every 2x2 square of the block holds one piece of each player, so no two
//!   pieces of one player even touch at a corner. A quarter turn clockwise about the centre of the
//!   board carries Red's pieces onto Blue's, Blue's onto Green's, Green's onto Yellow's and
//!   Yellow's onto Red's, type for type: the start is the same for everybody, seen from their
//!   side. The four kings hold the four central squares.
//!
//!   ```text
//!   a  b  c  d  e  f  g  h  i  j
//!   .. .. .. .. .. .. .. .. .. .. 1.
//!   .. .. .. .. .. .. .. .. .. .. 2.
//!   .. .. 1B 2P 1P 2P 1P 2B .. .. 3.
//!   .. .. 4P 3B 4R 3R 4B 3P .. .. 4.
//!   .. .. 1P 2R 1K 2K 1R 2P .. .. 5.
//!   .. .. 4P 3R 4K 3K 4R 3P .. .. 6.
//!   .. .. 1P 2B 1R 2R 1B 2P .. .. 7.
//!   .. .. 4B 3P 4P 3P 4P 3B .. .. 8.
//!   .. .. .. .. .. .. .. .. .. .. 9.
//!   .. .. .. .. .. .. .. .. .. .. 10.
//!   ```
//!
//! - **Two players** (Red 1, Blue 2): 18 pieces make a 6x3 block, a true checkerboard, on a 10x10
//!   board, two empty files on either side. The mirror between files e and f carries Red's pieces
//!   onto Blue's, type for type, and the board's edges with them. (No 18-square block can be
//!   centred on a square board both ways and keep that mirror: a 6-wide block centres only on an
//!   even board and a 3-deep one only on an odd board, so the block stands half a line above the
//!   middle, which changes nothing between the players.)
//!
//!   ```text
//!   a  b  c  d  e  f  g  h  i  j
//!   .. .. .. .. .. .. .. .. .. .. 1.
//!   .. .. .. .. .. .. .. .. .. .. 2.
//!   .. .. .. .. .. .. .. .. .. .. 3.
//!   .. .. 1P 2B 1R 2R 1B 2P .. .. 4.
//!   .. .. 2P 1P 2K 1K 2P 1P .. .. 5.
//!   .. .. 1P 2B 1R 2R 1B 2P .. .. 6.
//!   .. .. .. .. .. .. .. .. .. .. 7.
//!   .. .. .. .. .. .. .. .. .. .. 8.
//!   .. .. .. .. .. .. .. .. .. .. 9.
//!   .. .. .. .. .. .. .. .. .. .. 10.
//!   ```
//!
//! - **Three players** (Red 1, Blue 2, Green 3): 27 pieces make a 9x3 block on a 13x13 board, two
//!   empty files on either side, exactly centred. Each player holds every third square of a row,
//!   the pattern moving one square on from row to row, so no two pieces of one player are side
//!   by side. No symmetry of a square board cycles three players (its symmetries come in twos and
//!   fours), so full fairness is out of reach: the half turn about the centre carries Red's pieces
//!   onto Blue's and Green's onto Green's own, type for type. Green, who moves last, holds the
//!   centre square and one more square inside the block (3 of the 7 inner squares, Red and Blue 2
//!   each); the three kings stand side by side in the middle.
//!
//!   ```text
//!   a  b  c  d  e  f  g  h  i  j  k  l  m
//!   .. .. .. .. .. .. .. .. .. .. .. .. .. 1.
//!   .. .. .. .. .. .. .. .. .. .. .. .. .. 2.
//!   .. .. .. .. .. .. .. .. .. .. .. .. .. 3.
//!   .. .. .. .. .. .. .. .. .. .. .. .. .. 4.
//!   .. .. .. .. .. .. .. .. .. .. .. .. .. 5.
//!   .. .. 1P 2R 3P 1B 2B 3B 1P 2R 3P .. .. 6.
//!   .. .. 2P 3R 1P 2K 3K 1K 2P 3R 1P .. .. 7.
//!   .. .. 3P 1R 2P 3B 1B 2B 3P 1R 2P .. .. 8.
//!   .. .. .. .. .. .. .. .. .. .. .. .. .. 9.
//!   .. .. .. .. .. .. .. .. .. .. .. .. .. 10.
//!   .. .. .. .. .. .. .. .. .. .. .. .. .. 11.
//!   .. .. .. .. .. .. .. .. .. .. .. .. .. 12.
//!   .. .. .. .. .. .. .. .. .. .. .. .. .. 13.
//!   ```
//!
//! A record may name another board size (`[Size "n"]`): the same block is then centred on that
//! board, a half line up and to the left where it cannot be centred exactly. A board too small for
//! the block has no default start: the record must draw its own in a setup diagram
//! ([`Splinter::setup`](super::Splinter::setup)), and without one there is no game.

/// The default block for 2 players: 6 files by 3 ranks.
const TWO: [&str; 3] = ["1P 2B 1R 2R 1B 2P", "2P 1P 2K 1K 2P 1P", "1P 2B 1R 2R 1B 2P"];

/// The default block for 3 players: 9 files by 3 ranks.
const THREE: [&str; 3] = ["1P 2R 3P 1B 2B 3B 1P 2R 3P", "2P 3R 1P 2K 3K 1K 2P 3R 1P", "3P 1R 2P 3B 1B 2B 3P 1R 2P"];

/// The default block for 4 players: 6 files by 6 ranks.
const FOUR: [&str; 6] = [
    "1B 2P 1P 2P 1P 2B",
    "4P 3B 4R 3R 4B 3P",
    "1P 2R 1K 2K 1R 2P",
    "4P 3R 4K 3K 4R 3P",
    "1P 2B 1R 2R 1B 2P",
    "4B 3P 4P 3P 4P 3B",
];

/// The block of the default start for `players` (2 to 4), one string a rank, glyphs separated by
/// spaces; `None` for another number of players.
pub fn default_block(players: u8) -> Option<&'static [&'static str]> {
    match players {
        2 => Some(&TWO),
        3 => Some(&THREE),
        4 => Some(&FOUR),
        _ => None,
    }
}

/// The default board edge for `players` (2 to 4): the block's longer side and two empty lines on
/// either side of it.
pub fn default_size(players: u8) -> Option<u8> {
    let (width, height) = block_size(default_block(players)?);
    Some(width.max(height) + 4)
}

/// Files and ranks of a block.
pub(crate) fn block_size(block: &[&str]) -> (u8, u8) {
    (block[0].split_whitespace().count() as u8, block.len() as u8)
}
