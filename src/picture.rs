//! From a record to the scenes a picture draws: every position of the game with the move that led
//! there, and at the first illegal move the error diagram. The renderers in [`crate::render`] draw
//! the scenes; nothing here draws.

use crate::game::About;
use crate::geometry::{Cell, CellLabel, Geometry};
use crate::record::notes::{glyph_text, Drawing, Notes};
use crate::record::Found;
use crate::record::{Span, Token};
use crate::render::model::{Board, Drawn, Scene, Sign, Tone};
use crate::replay::{replay_observed, Event, Reader, ReplayOptions};
use crate::verify::{with_record, VerifyOptions, WithStart};

/// The pictures of one record.
#[derive(Clone, Debug)]
pub struct Pictures {
    /// The game the record was read as.
    pub game: &'static About,
    /// The start, then the position after each move played, each with the move that led there.
    pub scenes: Vec<Scene>,
    /// The span of the token of each move played: `scenes[k]` follows the move of `moves[k - 1]`.
    pub moves: Vec<Span>,
    /// At the first illegal move: the board before it, that move in red, the legal moves faint
    /// and the reason; and the span of its token.
    pub error: Option<(Scene, Span)>,
    /// Where the record is in its file.
    pub span: Span,
}

impl Pictures {
    /// The scene `show` draws: the position after `ply` moves, or, with no ply, the error diagram
    /// when the record has an illegal move and its last position when it has none. A ply past the
    /// last move played gives the last position.
    pub fn scene(&self, ply: Option<usize>) -> &Scene {
        let last = self.scenes.last().expect("a record has its start position");
        match (ply, &self.error) {
            (None, Some((error, _))) => error,
            (None, None) => last,
            (Some(p), _) => self.scenes.get(p).unwrap_or(last),
        }
    }

    /// One scene per turn rather than per move: the start, then the position at the end of each
    /// turn (a turn ends where the player to move changes), with every move of that turn drawn.
    pub fn per_turn(&self) -> Vec<Scene> {
        let mut out = vec![self.scenes[0].clone()];
        let mut signs = Vec::new();
        for (k, scene) in self.scenes.iter().enumerate().skip(1) {
            signs.extend(scene.signs.iter().copied());
            let turn_ends = k + 1 == self.scenes.len() || scene.to_move != self.scenes[k - 1].to_move;
            if turn_ends {
                out.push(Scene { signs: std::mem::take(&mut signs), ..scene.clone() });
            }
        }
        out
    }
}

/// The pictures of record `index` (1-based) of `src`; `Err` says why it has none, and where.
pub fn pictures(src: &str, index: usize, options: VerifyOptions) -> Result<Pictures, (Span, String)> {
    struct Draw;
    impl WithStart for Draw {
        type Output = Pictures;
        fn run<G: Reader>(self, start: G, tokens: &[Token]) -> Pictures {
            draw(start, tokens)
        }
    }
    let (mut pictures, span) = with_record(src, index, options, Draw)?;
    pictures.span = span;
    let notes = match crate::record::read(src, options.game.map(crate::GameKind::about)).nth(index - 1) {
        Some(Found::Common(r)) => r.annotations,
        Some(Found::Published(r)) => r.annotations,
        None => None,
    };
    let notes = Notes::of(&notes);
    let stop = pictures.error.as_ref().map(|(_, span)| span.start);
    annotate(&mut pictures.scenes, &pictures.moves, stop, notes);
    Ok(pictures)
}

/// What a text diagram of record `index` of `src` after `ply` moves of its main line cannot draw,
/// in words: the glyphs written after that move and its markup (`glyphs: !?`, `markup: arrow a1 ->
/// d4 red, mark b2 green, label c3 "A"`), one line each, or nothing. Past the last move, the last
/// move's.
pub fn markup_words(src: &str, index: usize, ply: usize, options: VerifyOptions) -> Vec<String> {
    let Ok(pictures) = pictures(src, index, options) else { return Vec::new() };
    let scene = pictures.scene(Some(ply));
    let label = |c: Cell| scene.board.geometry.label(c);
    let drawn: Vec<String> = scene
        .markup
        .iter()
        .map(|d| match d {
            Drawn::Arrow { from, to, colour } => format!("arrow {} -> {} {}", label(*from), label(*to), colour.name()),
            Drawn::Mark { cell, colour } => format!("mark {} {}", label(*cell), colour.name()),
            Drawn::Label { cell, text } => format!("label {} \"{text}\"", label(*cell)),
        })
        .collect();
    let mut lines = Vec::new();
    if !scene.glyphs.is_empty() {
        lines.push(format!("glyphs: {}", scene.glyphs));
    }
    if !drawn.is_empty() {
        lines.push(format!("markup: {}", drawn.join(", ")));
    }
    lines
}

/// Gives each scene of the main line the markup and glyphs written after the move that led to it:
/// the notes of the main line that stand after `k` of its moves (`moves`, the spans of the tokens of
/// the moves played) go to scene `k`; the start's are those before the first move, the last
/// scene's those after the last (and after the result). The notes past the illegal move the
/// replay stopped at (at offset `stop`) have no scene.
fn annotate(scenes: &mut [Scene], moves: &[Span], stop: Option<usize>, notes: &Notes) {
    let geometry = scenes[0].board.geometry;
    let cell = |label| geometry.parse_label(label);
    let count = scenes.len();
    let scene_of = |at: usize| {
        let k = moves.partition_point(|m| m.start < at);
        (stop.is_none_or(|s| at < s) && k < count).then_some(k)
    };
    for m in notes.markup.iter().filter(|m| m.at.line == 0) {
        let Some(k) = scene_of(m.span.start) else { continue };
        let drawn = match m.drawing {
            Drawing::Arrow { from, to, colour } => {
                cell(from).zip(cell(to)).map(|(from, to)| Drawn::Arrow { from, to, colour })
            }
            Drawing::Mark { cell: c, colour } => cell(c).map(|cell| Drawn::Mark { cell, colour }),
            Drawing::Label { cell: c, text } => cell(c).map(|cell| Drawn::Label { cell, text: text.to_string() }),
            Drawing::Other { .. } => None,
        };
        scenes[k].markup.extend(drawn);
    }
    for g in notes.glyphs.iter().filter(|g| g.at.line == 0) {
        let Some(k) = scene_of(g.span.start) else { continue };
        let glyphs = &mut scenes[k].glyphs;
        if !glyphs.is_empty() {
            glyphs.push(' ');
        }
        glyphs.push_str(&glyph_text(g.nag));
    }
}

/// The scene of a bare position, reached after `ply` moves, with nothing drawn over the board: what
/// [`svg`](crate::render::svg::svg) draws for a position a program holds.
pub fn position_scene<G: Reader>(position: &G, ply: usize) -> Scene {
    scene(position, ply, Vec::new())
}

fn scene<G: Reader>(position: &G, ply: usize, signs: Vec<(Sign, Tone)>) -> Scene {
    Scene {
        game: position.about(),
        board: Board::of(position),
        signs,
        ply,
        to_move: (!position.is_over()).then(|| position.mover()),
        score: position.score().to_string(),
        // What scored is drawn once it has: before the end, the caption's score says "if the game
        // ended now", and the board is left as it is.
        provisional: !position.is_over() && position.counted_at_end(),
        scoring: if position.is_over() { position.scoring() } else { Vec::new() },
        illegal: None,
        markup: Vec::new(),
        glyphs: String::new(),
    }
}

/// Replays `tokens` from `start` up to the first illegal move, keeping a scene per position.
fn draw<G: Reader>(start: G, tokens: &[Token]) -> Pictures {
    let mut scenes = vec![scene(&start, 0, Vec::new())];
    let mut moves = Vec::new();
    let mut error = None;
    let mut last = Vec::new();
    let geometry = start.geometry();
    let on_board = |signs: Vec<Sign>| signs.into_iter().filter(|s| cells_on(geometry, s)).collect::<Vec<_>>();
    replay_observed(start.clone(), tokens, ReplayOptions::default(), |event| match event {
        Event::Playing { token, position, m } => {
            last = on_board(position.signs(m));
            moves.push(tokens[token].span.clone());
        }
        Event::Played { position } => {
            let signs = std::mem::take(&mut last).into_iter().map(|s| (s, Tone::Last)).collect();
            scenes.push(scene(position, scenes.len(), signs));
        }
        Event::Illegal { token, position, attempted, why } => {
            let written = match attempted {
                Some(m) => on_board(position.signs(m)),
                None => named_cells(geometry, tokens[token].text),
            };
            let mut alternatives: Vec<Sign> = Vec::new();
            for m in position.legal_moves() {
                for sign in on_board(position.signs(m)) {
                    // What a move the record did not play would push off is no alternative.
                    let leaving = matches!(sign, Sign::Leaving { .. });
                    if !leaving && !cells(&sign).is_empty() && !alternatives.contains(&sign) {
                        alternatives.push(sign);
                    }
                }
            }
            // The moves that meet the written one at a cell (another step of the same stone,
            // another stone to the same cell) say what the writer may have meant; only when none
            // does is every legal move drawn.
            let named: Vec<_> = written.iter().flat_map(cells).collect();
            if alternatives.iter().any(|a| cells(a).iter().any(|c| named.contains(c))) {
                alternatives.retain(|a| cells(a).iter().any(|c| named.contains(c)));
            }
            let mut signs: Vec<(Sign, Tone)> = alternatives.into_iter().map(|s| (s, Tone::Alternative)).collect();
            signs.extend(written.into_iter().map(|s| (s, Tone::Illegal)));
            let mut s = scene(position, scenes.len() - 1, signs);
            s.illegal = Some(format!("{}: {why}", tokens[token].text));
            error = Some((s, tokens[token].span.clone()));
        }
    });
    Pictures { game: start.about(), scenes, moves, error, span: 0..0 }
}

/// The cells a sign names.
fn cells(sign: &Sign) -> Vec<Cell> {
    match *sign {
        Sign::Arrow { from, to } => vec![from, to],
        Sign::Ring(c) | Sign::Stay(c) | Sign::Leaving { from: c, .. } => vec![c],
        Sign::Number(_) | Sign::Pass | Sign::Swap => Vec::new(),
    }
}

/// Whether every cell a sign names is on the board.
fn cells_on(g: Geometry, sign: &Sign) -> bool {
    cells(sign).into_iter().all(|c| g.contains(c))
}

/// The signs of a token no move could be read from: the cells it names (`e5`-style labels) that
/// are on the board, an arrow from the first to the last when it names two or more, else a ring.
/// Every notation of referee's games names cells so, whatever else a token holds.
fn named_cells(g: Geometry, text: &str) -> Vec<Sign> {
    let b = text.as_bytes();
    let mut cells = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            let end = (i + 1..b.len()).find(|&j| !b[j].is_ascii_digit()).unwrap_or(b.len());
            if let Some(c) = CellLabel::parse(&text[i..end]).and_then(|l| g.parse_label(l)) {
                cells.push(c);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    match cells[..] {
        [] => Vec::new(),
        [c] => vec![Sign::Ring(c)],
        [from, .., to] => vec![Sign::Arrow { from, to }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_names_its_cells() {
        let g = Geometry::Square { size: 9 };
        let cell = |s: &str| g.parse_label(CellLabel::parse(s).unwrap()).unwrap();
        assert_eq!(named_cells(g, "b3xc3"), vec![Sign::Arrow { from: cell("b3"), to: cell("c3") }]);
        assert_eq!(named_cells(g, "e5"), vec![Sign::Ring(cell("e5"))]);
        assert_eq!(named_cells(g, "a7a8"), vec![Sign::Arrow { from: cell("a7"), to: cell("a8") }]);
        // Off the board, or no label at all: nothing to draw.
        assert_eq!(named_cells(g, "z9"), Vec::<Sign>::new());
        assert_eq!(named_cells(g, "pass"), Vec::<Sign>::new());
        assert_eq!(named_cells(g, "----"), Vec::<Sign>::new());
    }
}
