//! The verdict on one record, independent of the game: what the reports print.

use serde::Serialize;

use crate::game::{About, BoardView, Rule};
use crate::geometry::{Cell, Geometry};
use crate::record::Span;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
/// How a record fares: its worst problem decides.
pub enum Status {
    /// Every move is legal and no claim is refuted.
    Valid,
    /// An illegal move.
    Illegal,
    /// Every move is legal, but a claim (a result, a resignation, a final diagram) is false: the
    /// replay, or the search of every continuation, refutes it.
    Refuted,
    /// The record does not follow the notation.
    SyntaxError,
    /// The record cannot be judged: the rules it was played under are not known.
    Undecided,
}

impl Status {
    /// `valid`, `illegal`, `refuted`, `syntax_error` or `undecided`, as JSON lines write it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Valid => "valid",
            Status::Illegal => "illegal",
            Status::Refuted => "refuted",
            Status::SyntaxError => "syntax_error",
            Status::Undecided => "undecided",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
/// What kind of problem: which [`Status`] it gives the record.
pub enum ProblemKind {
    /// The record does not follow its notation (gives [`Status::SyntaxError`]).
    Syntax,
    /// A move the position does not allow (gives [`Status::Illegal`]).
    Illegal,
    /// A claim (result, resignation, final diagram) the replay refutes (gives [`Status::Refuted`]
    /// when the record has no illegal move).
    Claim,
    /// The record cannot be judged, as a board with no known start (gives [`Status::Undecided`]).
    Undecided,
}

/// One thing wrong with a record, at a span of the file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Problem {
    /// What kind of problem, which decides the record's [`Status`].
    pub kind: ProblemKind,
    /// Where the problem is in the text: the token, the line or the record.
    pub span: Span,
    /// The token at fault as written (empty when the problem is not one token's).
    pub token: String,
    /// What is wrong, in the game's words.
    pub message: String,
    /// The rule an illegal move breaks, in the game's document in `docs/rules/`; `None` for other
    /// problems.
    pub rule: Option<Rule>,
    /// Legal moves at that point, in the notation: the first [`LEGAL_LISTED`](crate::replay::LEGAL_LISTED) of them.
    pub legal: Vec<String>,
    /// How many distinct legal moves there were in all.
    pub legal_count: u32,
    /// The board before an illegal move, which the report draws under the problem; `None` for
    /// other problems.
    pub board: Option<BoardGlyphs>,
    /// The variation the problem is in, as the variations from the main line to it, each named by
    /// its first move (`12... c3`, `10. d4 > 12... c3`); `None` in the main line.
    pub variation: Option<String>,
}

/// A board as data, not as a drawing: its shape and what each cell shows, as the game's diagrams
/// write it (`X`, `o`, `B^`, `1K`, `.`). A report draws it ([`BoardGlyphs::diagram`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BoardGlyphs {
    /// The board's shape.
    pub geometry: Geometry,
    /// Each cell's glyph, in cell order, one space after each: one allocation for the board.
    glyphs: String,
}

impl BoardGlyphs {
    /// The board of a position.
    pub fn of(view: &impl BoardView) -> BoardGlyphs {
        let geometry = view.geometry();
        // Room for glyphs of two bytes (every game's but a few), in one pass over the board (an
        // illegal record's verdict holds its board, 676 cells on the largest).
        let mut glyphs = String::with_capacity(3 * geometry.slots());
        for c in geometry.cells() {
            crate::game::view::push_glyph(&mut glyphs, view.glyph(c));
            glyphs.push(' ');
        }
        // Sized exactly: a repair search holds many of these, and counts their bytes.
        glyphs.shrink_to_fit();
        BoardGlyphs { geometry, glyphs }
    }

    /// Each cell's glyph, in cell order.
    pub fn glyphs(&self) -> impl Iterator<Item = &str> {
        self.glyphs.split_terminator(' ')
    }

    /// The board drawn in the published style: column letters, then one row per line.
    pub fn diagram(&self) -> String {
        let mut glyph = vec![""; self.geometry.slots()];
        for (c, g) in self.geometry.cells().zip(self.glyphs()) {
            glyph[c.0 as usize] = g;
        }
        crate::render::ascii::diagram_of(self.geometry, |c: Cell| glyph[c.0 as usize])
    }

    /// The bytes the board holds beyond its own size.
    pub fn heap_bytes(&self) -> usize {
        self.glyphs.capacity()
    }
}

impl Problem {
    /// What is wrong, with the variation it is in when it is in one: `... (in the variation at
    /// 12... c3)`. What reports print; the JSON report gives the two apart.
    pub fn said(&self) -> std::borrow::Cow<'_, str> {
        match &self.variation {
            None => self.message.as_str().into(),
            Some(path) => format!("{} (in the variation at {path})", self.message).into(),
        }
    }

    /// A problem that is no illegal move, at `span` of the text: no rule broken, no legal moves
    /// listed, no board.
    pub fn new(kind: ProblemKind, span: Span, token: &str, message: String) -> Problem {
        Problem {
            kind,
            span,
            token: token.to_string(),
            message,
            rule: None,
            legal: Vec::new(),
            legal_count: 0,
            board: None,
            variation: None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
/// What a record claims.
pub enum ClaimKind {
    /// A result: a result token, `X wins 38-37`, a resignation.
    Result,
    /// A final-position diagram, which must match the position the replay reached.
    FinalPosition,
}

impl ClaimKind {
    /// `result` or `final_position`, as JSON lines write it.
    pub fn name(self) -> &'static str {
        match self {
            ClaimKind::Result => "result",
            ClaimKind::FinalPosition => "final_position",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
/// What the replay says of a claim.
pub enum ClaimStatus {
    /// The replay (or the search of every continuation) gives the claim.
    Confirmed,
    /// The replay (or the search of every continuation) gives something else.
    Refuted,
    /// Neither, and why.
    Unchecked(Unchecked),
}

impl ClaimStatus {
    /// `confirmed`, `refuted` or `unchecked`, as reports print it.
    pub fn name(self) -> &'static str {
        match self {
            ClaimStatus::Confirmed => "confirmed",
            ClaimStatus::Refuted => "refuted",
            ClaimStatus::Unchecked(_) => "unchecked",
        }
    }

    /// Why the claim is unchecked, if it is.
    pub fn reason(self) -> Option<Unchecked> {
        match self {
            ClaimStatus::Unchecked(r) => Some(r),
            _ => None,
        }
    }
}

/// A claim the record makes (a result, a resignation, a final diagram) and what the replay says of it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ClaimCheck {
    /// What is claimed.
    pub kind: ClaimKind,
    /// Where the claim is in the text.
    pub span: Span,
    /// The claim as written, or a description of it (`final position diagram`).
    pub text: String,
    /// Whether it holds.
    pub status: ClaimStatus,
    /// Why, in words: the score or the cells that differ.
    pub detail: String,
    /// How many violations the lenient replay this claim was judged against went past (0 when it
    /// was judged against a replay without any, or not against the replay at all).
    pub violations_accepted: usize,
}

impl ClaimCheck {
    /// The check of a record's final-position diagram (at `span`), judged against a replay that
    /// went past `violations` violations (0 for a strict one).
    pub fn final_position(span: Span, (status, detail): (ClaimStatus, String), violations: usize) -> ClaimCheck {
        let check = ClaimCheck {
            kind: ClaimKind::FinalPosition,
            span,
            text: "final position diagram".into(),
            status,
            detail,
            violations_accepted: 0,
        };
        check.as_replayed(violations)
    }

    /// The claim judged against a lenient replay that went past `violations` violations: its
    /// detail says so, since it holds or fails for the game as replayed, not for the record's.
    pub fn as_replayed(mut self, violations: usize) -> ClaimCheck {
        if violations > 0 {
            let s = if violations == 1 { "" } else { "s" };
            self.detail = format!("as replayed, past {violations} violation{s}: {}", self.detail);
            self.violations_accepted = violations;
        }
        self
    }
}

/// Why a claim is left unchecked.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unchecked {
    /// The replay met illegal moves (or stopped short), so it is not the game the record claims about.
    IllegalMoves,
    /// The record stops before the end and the search of its continuations hit its bound.
    SearchLimit,
    /// The record stops before the end and some continuations give the claim, others not.
    Open,
    /// The record stops before the end and referee does not search this game's continuations.
    NotSearched,
    /// The record claims no result (`*`).
    NoResult,
}

impl Unchecked {
    /// The reason's name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Unchecked::IllegalMoves => "illegal_moves",
            Unchecked::SearchLimit => "search_limit",
            Unchecked::Open => "open",
            Unchecked::NotSearched => "not_searched",
            Unchecked::NoResult => "no_result",
        }
    }
}

/// Everything referee has to say about one record.
#[derive(Clone, PartialEq, Debug)]
pub struct Verdict {
    /// 1-based position among the file's records.
    pub index: usize,
    /// Where the record is in the text, from its first line to its last.
    pub span: Span,
    /// The game the record was read as; `None` when its `[Game]` tag names no known game.
    pub game: Option<&'static About>,
    /// The record's worst problem: valid when there is none.
    pub status: Status,
    /// Everything wrong with the record, in text order (strict replay stops at the first illegal move).
    pub problems: Vec<Problem>,
    /// The record's claims and what the replay says of each.
    pub claims: Vec<ClaimCheck>,
    /// Moves played by the replay.
    pub moves: usize,
    /// Whether the game was over where the replay ended.
    pub game_over: bool,
    /// The winner's name as the record names the players (`X`, `Black`), once the game is over
    /// and somebody won.
    pub winner: Option<String>,
    /// Each player's points where the replay ended, in turn order, under the game's own counting
    /// (Quadraphages: marked cells); empty when nothing was replayed.
    pub score: Vec<(String, f64)>,
    /// Quadraphages and Hexaphages only: the points counting also the cells under each side's own
    /// stones, the other convention a claim may use.
    pub score_with_stones: Option<Vec<(String, f64)>>,
    /// The score where the replay ended, in words.
    pub score_text: Option<String>,
    /// The position code (grammar.md, Part V) where the replay ended: after the last move, or
    /// before the first illegal move (a lenient replay: after the last move played); `None` when
    /// nothing was replayed (a syntax error, no start position).
    pub position: Option<String>,
    /// What the reader should know beyond the problems (conventions used, defaults assumed).
    pub notes: Vec<String>,
    /// Whether the verdict tells where the game stands in words and as a code (`score_text`,
    /// `position`), as [`VerifyOptions::standing`](crate::judge::VerifyOptions::standing) asks.
    pub standing: bool,
    /// A few legal moves in place of the first illegal move, each with how far the rest of the
    /// record replays with it (see [`crate::alternatives`]); reports give them with that
    /// problem.
    pub alternatives: Vec<Alternative>,
}

/// Checks a final-position diagram, one glyph per cell, against the position the replay reached.
pub fn compare_final_position<'s, G: BoardView>(
    position: &G,
    shown: impl Iterator<Item = (Cell, &'s str)> + Clone,
) -> (ClaimStatus, String) {
    // Nearly every diagram matches: it is counted in one pass, and its differences listed only when
    // it has some.
    // A glyph is a few bytes: compared in place rather than through a call to `memcmp`.
    let same_glyph = |a: &str, b: &str| a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y);
    let (count, same) =
        shown.clone().fold((0, true), |(n, same), (c, glyph)| (n + 1, same && same_glyph(position.glyph(c), glyph)));
    if same {
        return (ClaimStatus::Confirmed, format!("all {count} cells match the replay"));
    }
    let g = position.geometry();
    let diffs: Vec<String> = shown
        .filter(|(c, glyph)| position.glyph(*c) != *glyph)
        .map(|(c, glyph)| format!("{} shows {glyph}, the replay has {}", g.label(c), position.glyph(c)))
        .collect();
    const LISTED: usize = 6;
    let more = if diffs.len() > LISTED { format!(" and {} more", diffs.len() - LISTED) } else { String::new() };
    (
        ClaimStatus::Refuted,
        format!("{} cells differ: {}{more}", diffs.len(), diffs[..diffs.len().min(LISTED)].join("; ")),
    )
}

impl Verdict {
    /// A verdict with nothing found yet.
    pub fn new(index: usize, span: Span, game: Option<&'static About>) -> Verdict {
        Verdict {
            index,
            span,
            game,
            status: Status::Valid,
            problems: Vec::new(),
            claims: Vec::new(),
            moves: 0,
            game_over: false,
            winner: None,
            score: Vec::new(),
            score_with_stones: None,
            score_text: None,
            position: None,
            notes: Vec::new(),
            standing: true,
            alternatives: Vec::new(),
        }
    }
}

impl Verdict {
    /// The verdict on the same record moved `bytes` further into its text, with `records` more
    /// records before it: what an edit before a record changes of its verdict (see
    /// [`crate::judged`]). Every span it holds moves.
    pub fn move_by(&mut self, bytes: isize, records: isize) {
        let moved = |s: &mut Span| *s = s.start.saturating_add_signed(bytes)..s.end.saturating_add_signed(bytes);
        self.index = self.index.saturating_add_signed(records);
        moved(&mut self.span);
        self.problems.iter_mut().for_each(|p| moved(&mut p.span));
        self.claims.iter_mut().for_each(|c| moved(&mut c.span));
        for a in &mut self.alternatives {
            if let Reach::StopsAt { span, .. } = &mut a.reach {
                moved(span);
            }
        }
    }
}

/// A legal move in place of an illegal one, and how far the rest of the record replays with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternative {
    /// The legal move, as the notation writes it.
    pub text: String,
    /// How far the rest of the record replays after it.
    pub reach: Reach,
}

/// How far the rest of a record replays after an alternative move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The rest replays to the end with no violation.
    End,
    /// The rest replays up to this token, which is illegal.
    StopsAt {
        /// Where the illegal token is in the text.
        span: Span,
        /// The token as written.
        token: String,
    },
}
