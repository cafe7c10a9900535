//! The position code of Splinter Quad (grammar.md, "Position codes"):
//! `splinter_BOARD_PLAYERS_MOVER_ARMIES_JUSTMOVED_QUIET_MOVES_ENDING`.

use super::{Ending, Groups, Kind, Piece, Player, Splinter, Standing};
use crate::game::code::{items, read_board, read_cell, write_board, BoardShape, CodeError, Coded, Field, Fields};

/// A piece as two letters: the player's initial, then the type in lower case (`Rk`, `Yp`).
const GLYPHS: [[&str; 4]; 4] =
    [["Rk", "Rr", "Rb", "Rp"], ["Bk", "Br", "Bb", "Bp"], ["Gk", "Gr", "Gb", "Gp"], ["Yk", "Yr", "Yb", "Yp"]];

/// A player as the code names them: the initial in lower case.
const PLAYERS: [&str; 4] = ["r", "b", "g", "y"];

/// `n` in decimal, without the formatter: an army is four small counts.
fn push_digits(out: &mut String, n: u8) {
    if n >= 10 {
        push_digits(out, n / 10);
    }
    out.push(char::from(b'0' + n % 10));
}

impl Coded for Splinter {
    fn code(&self) -> String {
        use std::fmt::Write as _;
        let g = self.geometry();
        let board = write_board(g, |c| self.piece(c).map(|p| GLYPHS[p.player.index()][p.kind.index()]));
        // One string, written in place: `verify --format json` writes a code for every record.
        let mut out = String::with_capacity(board.len() + 64);
        out.push_str("splinter_");
        out.push_str(&board);
        let _ = write!(out, "_{}_{}_", self.players, PLAYERS[self.to_move.index()]);
        for (k, p) in self.player_list().iter().enumerate() {
            if k > 0 {
                out.push('.');
            }
            for &n in &self.army[p.index()] {
                push_digits(&mut out, n);
            }
            if let Standing::Out { knockouts, pieces } = self.standing[p.index()] {
                let _ = write!(out, "-{knockouts}-{pieces}");
            }
        }
        out.push('_');
        if self.just_moved.is_empty() {
            out.push('-');
        }
        for (k, &(now, left)) in self.just_moved.iter().enumerate() {
            if k > 0 {
                out.push('.');
            }
            let _ = write!(out, "{}{}", g.label(left), g.label(now));
        }
        let _ = write!(out, "_{}_{}_", self.quiet, self.moves);
        match &self.ending {
            None => out.push('-'),
            Some(Ending::LastStanding(p)) => {
                out.push('l');
                out.push_str(PLAYERS[p.index()]);
            }
            Some(Ending::AllOut(players)) => {
                out.push('a');
                players.iter().for_each(|p| out.push_str(PLAYERS[p.index()]));
            }
            Some(Ending::Quiet) => out.push('q'),
            Some(Ending::NoStart { .. }) => out.push('n'),
        }
        out
    }

    fn from_code(code: &str) -> Result<Splinter, CodeError> {
        let (_, mut fields) = Fields::of(code, &[super::super::ABOUT.name])?;
        let board = fields.next("board")?;
        let glyph = |g: &str| {
            (0..4).find_map(|p| {
                let kind = GLYPHS[p].iter().position(|&l| l == g)?;
                Some(Piece { player: Player::ALL[p], kind: Kind::ALL[kind] })
            })
        };
        let glyphs = "a player's initial `R` `B` `G` or `Y` and a type `k` `r` `b` or `p`, like `Rk` or `Yp`";
        let (geo, cells) = read_board(board, BoardShape::Square, 2, glyph, glyphs)?;
        let players_field = fields.next("number of players")?;
        let players: u8 = players_field.number("the number of players", u8::MAX)?;
        let mut p = Splinter::new(geo.size(), players).map_err(|e| players_field.error(0, e.to_string()))?;
        p.squares.fill(None);
        p.counts = [[0; 4]; 4];
        for (c, (piece, at)) in geo.cells().zip(&cells) {
            let Some(piece) = *piece else { continue };
            if piece.player.index() >= players as usize {
                let message = format!("a piece of {}, but the game has {players} players", piece.player);
                return Err(CodeError::new(*at, message));
            }
            let have = &mut p.counts[piece.player.index()][piece.kind.index()];
            *have += 1;
            // No player has more of a type than a full army: the engine's lists of pieces are
            // sized by that (a code of sixty pawns would overrun them).
            if *have > piece.kind.full_army() {
                let why = super::Forbidden::TooMany { cell: geo.label(c), piece, nth: *have };
                return Err(CodeError::new(*at, why.to_string()));
            }
            p.squares[c.0 as usize] = Some(piece);
        }
        let choices: Vec<(&str, Player)> = PLAYERS.iter().copied().zip(Player::ALL).take(players as usize).collect();
        p.to_move = fields.next("player to move")?.choice("the player to move", &choices)?;
        read_armies(fields.next("armies")?, &mut p)?;
        let just_moved = fields.next("pieces just moved")?;
        // A move moves no more pieces than the board holds: a list longer than that is refused at
        // its first item too many, not held.
        let squares = geo.cell_count();
        p.just_moved = items(just_moved)
            .enumerate()
            .map(|(k, m)| {
                if k == squares {
                    return Err(m.error(0, format!("more pieces just moved than the {squares} squares of the board")));
                }
                // The second square starts at the next letter after the first square's letter; an
                // empty or non-ASCII item has none, and its first square is then what is wrong.
                let rest = m.text.get(1..).unwrap_or("");
                let split = rest.find(|c: char| c.is_ascii_lowercase()).map_or(m.text.len(), |k| k + 1);
                let left = read_cell(m, &m.text[..split], 0, geo)?;
                let now = read_cell(m, &m.text[split..], split, geo)?;
                if p.squares[now.0 as usize].is_none() {
                    return Err(m.error(split, format!("{} is empty: no piece moved there", geo.label(now))));
                }
                Ok((now, left))
            })
            .collect::<Result<_, _>>()?;
        p.quiet =
            fields.next("quiet moves")?.number("the moves in a row without a piece leaving the board", u16::MAX)?;
        p.moves = fields.next("moves played")?.number("the moves played", u32::MAX)?;
        let ending = fields.next("ending")?;
        fields.end()?;
        p.ending = read_ending(ending, &p)?;
        p.one_group = Groups::find(p.grid(), &p.squares).count <= 1;
        Ok(p)
    }
}

/// `1224.1224-2-5`: for each player, how many kings, rooks, bishops and pawns they started with,
/// and for a player who is out, `-` their knockouts and `-` their pieces when they went out.
fn read_armies(field: Field, p: &mut Splinter) -> Result<(), CodeError> {
    let expected = "expected each player's army at the start, four digits (kings, rooks, bishops, pawns) like \
                    `1224`, followed for a player who is out by `-knockouts-pieces`, like `1224-2-5`";
    // Counted before any is read, so that a field of a million `.` is not held as a million armies.
    let count = field.text.bytes().filter(|&b| b == b'.').count() + 1;
    if count != p.players as usize {
        let message = format!("{count} armies for {} players: {expected}", p.players);
        return Err(field.error(0, message));
    }
    for (i, army) in field.split('.').enumerate() {
        let mut parts = army.split('-');
        let start = parts.next().expect("split gives one part at least");
        let digits: Vec<u8> = start.text.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
        if digits.len() != 4 || start.text.len() != 4 {
            return Err(army.error(0, expected));
        }
        for (k, &n) in Kind::ALL.iter().zip(&digits) {
            if n > k.full_army() {
                let message = format!("{n} {}s: a player has at most {}", k.name(), k.full_army());
                return Err(army.error(k.index(), message));
            }
            p.army[i][k.index()] = n;
        }
        p.standing[i] = match (parts.next(), parts.next(), parts.next()) {
            (None, _, _) => Standing::In,
            (Some(k), Some(n), None) => Standing::Out {
                knockouts: k.number("the knockouts the player had when they went out", u8::MAX)?,
                pieces: n.number("the pieces the player had when they went out", u8::MAX)?,
            },
            _ => return Err(army.error(0, expected)),
        };
    }
    Ok(())
}

/// `-` while the game goes on; `q` (100 quiet moves), `n` (no start), `l` and the last player
/// standing, or `a` and the players who all went out on the last move.
fn read_ending(field: Field, p: &Splinter) -> Result<Option<Ending>, CodeError> {
    let expected = "expected how the game ended: `-` (it goes on), `q` (quiet moves), `n` (no start), `l` and the \
                    last player standing (`lr`), or `a` and the players who went out together (`agy`)";
    let player = |k: usize| {
        let initial = field.text.get(k..k + 1).unwrap_or("");
        PLAYERS.iter().take(p.players as usize).position(|&l| l == initial).map(|i| Player::ALL[i]).ok_or_else(|| {
            let names = PLAYERS[..p.players as usize].join(", ");
            field.error(k, format!("expected a player of the game ({names}), not `{initial}`"))
        })
    };
    Ok(match field.text.as_bytes().first() {
        Some(b'-') if field.text.len() == 1 => None,
        Some(b'q') if field.text.len() == 1 => Some(Ending::Quiet),
        Some(b'n') if field.text.len() == 1 => Some(Ending::NoStart { size: p.size, players: p.players }),
        Some(b'l') if field.text.len() == 2 => Some(Ending::LastStanding(player(1)?)),
        Some(b'a') if field.text.len() >= 2 => {
            Some(Ending::AllOut((1..field.text.len()).map(player).collect::<Result<_, _>>()?))
        }
        _ => return Err(field.error(0, expected)),
    })
}
