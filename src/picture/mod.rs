//! From a record to the scenes a picture draws: every position of the game with the move that led
//! there, and at the first illegal move the error diagram. The renderers in [`crate::render`] draw
//! the scenes; nothing here draws but [`replay_page`], which lays the scenes drawn out with the
//! record's verdict as `referee render --format html` writes it (for the command line and the
//! Python package alike).

pub mod numbers;

use crate::format::Round;
use crate::game::About;
use crate::geometry::{Cell, CellLabel, Geometry};
use crate::judge::Games;
use crate::record::notes::{glyph_text, glyph_words, without_markup, Drawing, Notes, Place, NONE};
use crate::record::Found;
use crate::record::{MoveLine, Span, Token};
use crate::render::model::{Board, Drawn, Numbers, Scene, Sign, Tone};
use crate::render::svg::{self, SvgOptions};
use crate::render::{ascii, html};
use crate::replay::{replay, Event, Reader, ReplayOptions};
use crate::variations::{replay_lines, Lines};
use crate::verdict::Verdict;
use crate::verify::{with_found_start, with_record, VerifyOptions, WithStart};
use numbers::{moves_in, NumberRange, Numbering, RangeError};

/// The pictures of one record.
#[derive(Clone, Debug)]
pub struct Pictures {
    /// The game the record was read as.
    pub game: &'static About,
    /// The start, then the position after each move played, each with the move that led there.
    pub scenes: Vec<Scene>,
    /// The span of the token of each move played: `scenes[k]` follows the move of `moves[k - 1]`.
    pub moves: Vec<Span>,
    /// The record's own number of each move played, as [`Pictures::moves`]: in the published
    /// notation the number of the move line it is written on (a line holds a turn of each side),
    /// in the common format the number of its round (a move of each player, as
    /// [`Round`] numbers them and the canonical record writes them).
    pub turns: Vec<u32>,
    /// At the first illegal move: the board before it, that move in red, the legal moves faint
    /// and the reason; and the span of its token.
    pub error: Option<(Scene, Span)>,
    /// The main line's comments, each with the frame it speaks of ([`Said`]).
    pub comments: Vec<Said>,
    /// The record's variations (grammar.md, "Comments, glyphs and variations"), in the order they
    /// open: variation `k - 1` is line `k` of [`crate::record::notes::Place`].
    pub variations: Vec<Branch>,
    /// How many variations its line reaches are not drawn, past [`MAX_VARIATION_SCENES`].
    pub undrawn: usize,
    /// Where the record is in its file.
    pub span: Span,
}

/// The most positions the variations of one record are drawn with, in all: a real record's
/// variations have tens or hundreds of moves, and a picture of each position (a replay page holds
/// one for every frame) must stay in proportion to the record, whatever its text. A variation
/// that would take the variations drawn past it, by its moves, is not drawn, nor are those in it.
pub const MAX_VARIATION_SCENES: usize = 2_000;

/// A comment of a line of play, with the frame it speaks of: the scene after the move it follows
/// (0: the line's start, for a comment before its first move; the main line's last scene for one
/// after the result), or one past the line's last scene, its error diagram, for a comment after
/// its illegal move (or after the result, when the line stops at one).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Said {
    /// The frame: an index into the line's scenes, or their number for the error diagram.
    pub frame: usize,
    /// Its text as the reader reads it beside the picture: as written, without the markup the
    /// picture draws ([`without_markup`]). A comment of markup alone is not said.
    pub text: String,
    /// Where the whole comment is written.
    pub span: Span,
}

/// The pictures of a variation: moves that could have been played instead of one move of another
/// line, drawn from the position before that move.
#[derive(Clone, Debug)]
pub struct Branch {
    /// The line it branches from: 0 for the main line, `k` for variation `k - 1`.
    pub from: usize,
    /// The frame of that line it starts from: the position before the move it replaces.
    pub at: usize,
    /// Its name, as the verdict names it: its first move with its number (`1... a1a2`).
    pub name: String,
    /// Where it is written, `(` to `)`.
    pub span: Span,
    /// Whether it is drawn: not when its line stops before the move it replaces, nor when the
    /// variations drawn before it hold [`MAX_VARIATION_SCENES`] positions; it then has no scenes,
    /// nor have the variations in it.
    pub drawn: bool,
    /// Its start (the position it branches from, with the last move of its line drawn), then the
    /// position after each of its moves played; at its first illegal move it stops.
    pub scenes: Vec<Scene>,
    /// The position code of each scene (grammar.md, "Position codes").
    pub codes: Vec<String>,
    /// The span of the token of each move played, as [`Pictures::moves`].
    pub moves: Vec<Span>,
    /// At its first illegal move, its error diagram, as [`Pictures::error`].
    pub error: Option<(Scene, Span)>,
    /// Its comments, as [`Pictures::comments`].
    pub comments: Vec<Said>,
}

/// One line of play of a record's pictures, the main line or a variation, as frames: its scenes,
/// then its error diagram, if it has one.
#[derive(Clone, Copy, Debug)]
pub struct Line<'p> {
    /// Its positions: the start, then the position after each move played.
    pub scenes: &'p [Scene],
    /// The span of the token of each move played: `scenes[k]` follows the move of `moves[k - 1]`.
    pub moves: &'p [Span],
    /// Its error diagram and the span of its illegal move, if it stops at one.
    pub error: Option<&'p (Scene, Span)>,
    /// Its comments, each with its frame.
    pub comments: &'p [Said],
}

impl<'p> Line<'p> {
    /// How many frames it has: its scenes, and its error diagram.
    pub fn len(&self) -> usize {
        self.scenes.len() + usize::from(self.error.is_some())
    }

    /// Whether it has no frame (a line always has its start: never).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Frame `i`: scene `i`, or the error diagram one past the last scene.
    pub fn frame(&self, i: usize) -> Option<&'p Scene> {
        self.scenes.get(i).or_else(|| self.error.filter(|_| i == self.scenes.len()).map(|(s, _)| s))
    }

    /// The span of the token of the move that led to frame `i` (the illegal one, for the error
    /// diagram); none for the start.
    pub fn token(&self, i: usize) -> Option<&'p Span> {
        match self.error {
            Some((_, span)) if i == self.scenes.len() => Some(span),
            _ => i.checked_sub(1).and_then(|m| self.moves.get(m)),
        }
    }

    /// The comments of frames `frames` (those of one frame, or of the moves of one turn), in text
    /// order.
    pub fn said(&self, frames: std::ops::RangeInclusive<usize>) -> Vec<&'p str> {
        self.comments.iter().filter(|c| frames.contains(&c.frame)).map(|c| c.text.as_str()).collect()
    }
}

impl Pictures {
    /// What a picture of the record's lines says when some of its variations are not drawn (see
    /// [`MAX_VARIATION_SCENES`]).
    pub fn undrawn_note(&self) -> Option<String> {
        let n = self.undrawn;
        (n > 0).then(|| {
            format!(
                "{n} variation{} not drawn: the variations of a record are drawn with at most {MAX_VARIATION_SCENES} \
                 positions in all",
                if n == 1 { " is" } else { "s are" }
            )
        })
    }

    /// Line `k` of the record (0: the main line, `k`: variation `k - 1`), if it is drawn.
    pub fn line(&self, k: usize) -> Option<Line<'_>> {
        match k {
            0 => Some(Line {
                scenes: &self.scenes,
                moves: &self.moves,
                error: self.error.as_ref(),
                comments: &self.comments,
            }),
            k => self.variations.get(k - 1).filter(|b| b.drawn).map(|b| Line {
                scenes: &b.scenes,
                moves: &b.moves,
                error: b.error.as_ref(),
                comments: &b.comments,
            }),
        }
    }

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
        per_turn(&self.scenes)
    }

    /// The numbered diagram of the moves `range` numbers, by the record's own numbers
    /// ([`Pictures::turns`]): the position after the last of them (or the error diagram, when the
    /// range reaches the record's illegal move), each cell a move of the range was played at
    /// showing that move's number, and the moves no cell shows any more in its notes
    /// ([`numbers`]).
    pub fn numbered(&self, range: NumberRange) -> Result<Scene, RangeError> {
        let moves = moves_in(&self.turns, range)?;
        Ok(match self.error_reached(&moves) {
            Some(error) => Scene { numbers: self.numbered_moves(moves).numbers, ..error.clone() },
            None => self.numbered_moves(moves),
        })
    }

    /// The numbered diagram of the moves played `moves` (indices into [`Pictures::moves`], not
    /// empty, within them): the position after the last of them, each cell one of them was played
    /// at showing that move's number, as [`Pictures::numbered`] draws them.
    pub fn numbered_moves(&self, moves: std::ops::Range<usize>) -> Scene {
        let mut numbering = Numbering::new(&self.scenes, &self.turns);
        for k in moves.clone() {
            numbering.play(k);
        }
        Scene { signs: Vec::new(), numbers: Some(numbering.numbers()), ..self.scenes[moves.end].clone() }
    }

    /// The scenes of the moves `range` numbers, each numbered up to it as [`Pictures::numbered`]
    /// numbers the last: the position before the first of them, then the position after each;
    /// and the error diagram, numbered as the last position, when the range reaches the record's
    /// illegal move.
    pub fn numbered_scenes(&self, range: NumberRange) -> Result<(Vec<Scene>, Option<Scene>), RangeError> {
        let moves = moves_in(&self.turns, range)?;
        let mut numbering = Numbering::new(&self.scenes, &self.turns);
        let mut scenes = vec![Scene { signs: Vec::new(), ..self.scenes[moves.start].clone() }];
        for k in moves.clone() {
            numbering.play(k);
            scenes.push(Scene { signs: Vec::new(), numbers: Some(numbering.numbers()), ..self.scenes[k + 1].clone() });
        }
        let error = self.error_reached(&moves).map(|e| Scene { numbers: Some(numbering.numbers()), ..e.clone() });
        Ok((scenes, error))
    }

    /// The error diagram, if the record has one and the moves numbered (`moves`) reach it: they
    /// end with the last move played, the move before it.
    fn error_reached(&self, moves: &std::ops::Range<usize>) -> Option<&Scene> {
        self.error.as_ref().filter(|_| moves.end == self.turns.len()).map(|(error, _)| error)
    }
}

/// One scene per turn of `scenes` rather than per move: the first, then the position at the end
/// of each turn (a turn ends where the player to move changes), with every move of that turn drawn.
pub fn per_turn(scenes: &[Scene]) -> Vec<Scene> {
    let Some(first) = scenes.first() else { return Vec::new() };
    let mut out = vec![first.clone()];
    let mut signs = Vec::new();
    for (k, scene) in scenes.iter().enumerate().skip(1) {
        signs.extend(scene.signs.iter().copied());
        let turn_ends = k + 1 == scenes.len() || scene.to_move != scenes[k - 1].to_move;
        if turn_ends {
            out.push(Scene { signs: std::mem::take(&mut signs), ..scene.clone() });
        }
    }
    out
}

/// The pictures of record `index` (1-based) of `src`, with its variations'; `Err` says why it has
/// none, and where.
pub fn pictures<S: Games>(src: &str, index: usize, options: VerifyOptions<S>) -> Result<Pictures, (Span, String)> {
    match crate::record::read(src, options.game).nth(index.wrapping_sub(1)) {
        Some(found) => pictures_of(src, &found, options),
        // For its error, which says how many records there are.
        None => with_record(src, index, options, Draw(&NONE, None)).map(|(pictures, _)| pictures),
    }
}

/// The pictures of a record found in `src`, as [`pictures`] gives them, for a caller that has
/// found the record already (one pass over a file of many records, rather than one per record).
pub fn pictures_of<S: Games>(src: &str, found: &Found, options: VerifyOptions<S>) -> Result<Pictures, (Span, String)> {
    let (notes, lines) = match found {
        Found::Common(r) => (r.notes(), None),
        Found::Published(r) => (r.notes(), Some(&r.lines[..])),
    };
    let (mut pictures, span) = with_found_start(src, found, options, Draw(notes, lines))?;
    pictures.span = span;
    Ok(pictures)
}

/// The work of [`pictures_of`] on a record's start: its notes, and its move lines in the published
/// notation.
struct Draw<'n, 'a>(&'n Notes<'a>, Option<&'n [MoveLine]>);

impl WithStart for Draw<'_, '_> {
    type Output = Pictures;
    fn run<G: Reader>(self, start: G, tokens: &[Token]) -> Pictures {
        draw(&start, tokens, self.0, self.1)
    }
}

/// What a text diagram of record `index` of `src` after `ply` moves of its main line cannot draw,
/// in words: the glyphs written after that move and its markup (`glyphs: !?`, `markup: arrow a1 ->
/// d4 red, mark b2 green, label c3 "A"`), one line each, or nothing. Past the last move, the last
/// move's.
pub fn markup_words<S: Games>(src: &str, index: usize, ply: usize, options: VerifyOptions<S>) -> Vec<String> {
    let Ok(pictures) = pictures(src, index, options) else { return Vec::new() };
    scene_words(pictures.scene(Some(ply)))
}

/// What a text diagram of `scene` cannot draw, in words, as [`markup_words`] gives it.
pub fn scene_words(scene: &Scene) -> Vec<String> {
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

/// The text of the numbered diagram `scene` of record `index` of `src` ([`Pictures::numbered`]):
/// the position it shows, each cell with the number it carries, then its notes and trails
/// ([`ascii::numbered`]); `Err` says why the record has no position, and where.
pub fn numbered_text<S: Games>(
    src: &str,
    index: usize,
    scene: &Scene,
    options: VerifyOptions<S>,
) -> Result<String, (Span, String)> {
    struct Text<'s>(&'s Scene);
    impl WithStart for Text<'_> {
        type Output = String;
        fn run<G: Reader>(self, start: G, tokens: &[Token]) -> String {
            let played = replay(start, tokens, ReplayOptions { lenient: false, max_moves: Some(self.0.ply) });
            ascii::numbered(&played.position, self.0.numbers.as_ref().unwrap_or(&Numbers::default()))
        }
    }
    with_record(src, index, options, Text(scene)).map(|(text, _)| text)
}

/// Gives the scenes of every line drawn the markup and glyphs written after the move that led to
/// each (the start: those before its first move; after the main line's result, its last scene),
/// and sorts their comments to their frames ([`Said`]): each note once, whatever the number of
/// lines. Scenes past an illegal move are not drawn, nor is their markup.
fn annotate(lines: &mut [Option<Sketch>], notes: &Notes) {
    for m in &notes.markup {
        let Some((line, s)) = Sketch::at(lines, m.at) else { continue };
        let cell = |label| line.scenes[0].board.geometry.parse_label(label);
        let drawn = match m.drawing {
            Drawing::Arrow { from, to, colour } => {
                cell(from).zip(cell(to)).map(|(from, to)| Drawn::Arrow { from, to, colour })
            }
            Drawing::Mark { cell: c, colour } => cell(c).map(|cell| Drawn::Mark { cell, colour }),
            Drawing::Label { cell: c, text } => cell(c).map(|cell| Drawn::Label { cell, text: text.to_string() }),
            Drawing::Other { .. } => None,
        };
        line.scenes[s].markup.extend(drawn);
    }
    for g in &notes.glyphs {
        let Some((line, s)) = Sketch::at(lines, g.at) else { continue };
        let scene = &mut line.scenes[s];
        if !scene.glyphs.is_empty() {
            scene.glyphs.push(' ');
        }
        scene.glyphs.push_str(&glyph_text(g.nag));
    }
    for c in &notes.comments {
        let Some(line) = lines.get_mut(c.at.line).and_then(Option::as_mut) else { continue };
        let text = without_markup(c.text);
        if let Some(frame) = line.frame_of(c.at.after).filter(|_| !text.is_empty()) {
            line.comments.push(Said { frame, text, span: c.span.clone() });
        }
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
        syntax: false,
        markup: Vec::new(),
        glyphs: String::new(),
        numbers: None,
    }
}

/// The pictures of a record whose main line is `tokens` from `start`, and of its variations;
/// `lines` are the move lines of a record of the published notation, which number its moves.
fn draw<G: Reader>(start: &G, tokens: &[Token], notes: &Notes, move_lines: Option<&[MoveLine]>) -> Pictures {
    let variations = &notes.variations;
    let mut painter = Painter {
        main: tokens,
        notes,
        lines: vec![None; variations.len() + 1],
        left: MAX_VARIATION_SCENES,
        undrawn: 0,
    };
    replay_lines(start, tokens, variations, ReplayOptions::default(), &mut painter);
    let mut lines = painter.lines;
    annotate(&mut lines, notes);
    let names = crate::variations::line_names(variations, start.player_names().len());
    let branches = variations
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let line = lines[i + 1].take();
            let drawn = line.is_some();
            let line = line.unwrap_or_default();
            Branch {
                from: v.at.line,
                at: v.at.after.saturating_sub(1),
                name: names[i + 1].clone(),
                span: v.span.clone(),
                drawn,
                scenes: line.scenes,
                codes: line.codes,
                moves: line.moves,
                error: line.error,
                comments: line.comments,
            }
        })
        .collect();
    let main = lines[0].take().unwrap_or_default();
    Pictures {
        game: start.about(),
        turns: turn_numbers(move_lines, &main.played, &main.scenes),
        scenes: main.scenes,
        moves: main.moves,
        error: main.error,
        comments: main.comments,
        variations: branches,
        undrawn: painter.undrawn,
        span: 0..0,
    }
}

/// The record's own number of each move played, the moves of tokens `played` leading from each
/// of `scenes` to the next ([`Pictures::turns`]): the number of the move line each token is on, or,
/// where the record has no move lines (`lines` is `None`: the common format), of its round.
fn turn_numbers(lines: Option<&[MoveLine]>, played: &[usize], scenes: &[Scene]) -> Vec<u32> {
    match lines {
        Some(lines) => {
            let mut number = 1;
            played
                .iter()
                .map(|token| {
                    // Every token is on a line; were one not, it would go with the one before.
                    if let Some(line) = lines.iter().find(|l| l.tokens.contains(token)) {
                        number = line.number;
                    }
                    number
                })
                .collect()
        }
        None => {
            let players = scenes.first().map_or(2, |s| s.board.players.len());
            let mut round = Round::default();
            (0..played.len())
                .map(|k| {
                    round.step(players, k + 1, scenes.get(k).and_then(|s| s.to_move));
                    u32::try_from(round.number().max(1)).unwrap_or(u32::MAX)
                })
                .collect()
        }
    }
}

/// A line of play being drawn.
#[derive(Clone, Default)]
struct Sketch {
    scenes: Vec<Scene>,
    codes: Vec<String>,
    moves: Vec<Span>,
    error: Option<(Scene, Span)>,
    comments: Vec<Said>,
    /// The ply of its start.
    ply: usize,
    /// How many tokens it writes (its result token none).
    written: usize,
    /// The index of the token of each move played: a published record's `....` is no move.
    played: Vec<usize>,
    /// The index of the token it stopped at, illegal.
    stopped: Option<usize>,
    /// The signs of the move being played.
    last: Vec<Sign>,
}

/// Draws every line of a record as it is replayed, a scene per position.
struct Painter<'t, 'n, 'a> {
    main: &'t [Token<'t>],
    notes: &'n Notes<'a>,
    lines: Vec<Option<Sketch>>,
    /// How many more positions the variations may be drawn with.
    left: usize,
    /// How many variations are reached but not drawn.
    undrawn: usize,
}

impl<G: Reader> Lines<G> for Painter<'_, '_, '_> {
    fn begin(&mut self, line: usize, from: &G, ply: usize) {
        let mut start = (Vec::new(), Vec::new());
        if let Some(v) = line.checked_sub(1).map(|k| &self.notes.variations[k]) {
            // Its start, a scene a move, an error diagram at most; and the line it leaves drawn.
            let most = v.tokens.len() + 2;
            let Some(left) = self.lines[v.at.line].as_ref().and_then(|_| self.left.checked_sub(most)) else {
                self.undrawn += 1;
                return;
            };
            self.left = left;
            // A variation starts where its line stood before the move it replaces: that line's
            // last move is drawn, as there.
            let before = self.lines[v.at.line].as_ref().and_then(|l| l.scenes.get(v.at.after.saturating_sub(1)));
            start = (before.map(|s| s.signs.clone()).unwrap_or_default(), vec![from.code()]);
        }
        let (signs, codes) = start;
        let written = self.notes.line(self.main, line).iter().filter(|t| !t.kind.is_claim()).count();
        self.lines[line] =
            Some(Sketch { scenes: vec![scene(from, ply, signs)], codes, ply, written, ..Sketch::default() });
    }

    fn event(&mut self, line: usize, event: Event<G>) {
        let tokens = self.notes.line(self.main, line);
        if let Some(sketch) = self.lines[line].as_mut() {
            sketch.event(tokens, event, line > 0);
        }
    }
}

impl Sketch {
    /// The line drawn that `place` is in, and its scene there: the one after the move the place
    /// follows (after the main line's result, its last), if it is drawn.
    fn at(lines: &mut [Option<Sketch>], place: Place) -> Option<(&mut Sketch, usize)> {
        let line = lines.get_mut(place.line)?.as_mut()?;
        let scene = line.scene_of(place.after)?;
        Some((line, scene))
    }

    /// The scene after `after` of its tokens (after the moves played among them), if it is drawn:
    /// none past its illegal move.
    fn scene_of(&self, after: usize) -> Option<usize> {
        if self.stopped.is_some_and(|s| after > s) {
            return None;
        }
        Some(self.played.partition_point(|&t| t < after)).filter(|&k| k < self.scenes.len())
    }

    /// The frame of what is written after `after` of its tokens: its scene, or its error diagram
    /// for what follows its illegal move, or its result when it stops at one; none for what
    /// follows the moves after its illegal move, which were never played.
    fn frame_of(&self, after: usize) -> Option<usize> {
        let error = self.error.is_some().then_some(self.scenes.len());
        let follows_illegal = self.stopped.is_some_and(|s| after == s + 1);
        self.scene_of(after).or(error.filter(|_| follows_illegal || after > self.written))
    }

    /// Draws what a replay event shows: the position after each move, with that move's signs,
    /// the position code too if `codes`; at an illegal move, the error diagram.
    fn event<G: Reader>(&mut self, tokens: &[Token], event: Event<G>, codes: bool) {
        match event {
            Event::Playing { token, position, m } => {
                self.last = on_board(position.geometry(), position.signs(m));
                self.moves.push(tokens[token].span.clone());
                self.played.push(token);
            }
            Event::Played { position } => {
                let signs = std::mem::take(&mut self.last).into_iter().map(|s| (s, Tone::Last)).collect();
                self.scenes.push(scene(position, self.ply + self.scenes.len(), signs));
                if codes {
                    self.codes.push(position.code());
                }
            }
            Event::Illegal { token, position, attempted, why } => {
                let mut s = error_scene(position, attempted, tokens[token].text, self.ply + self.scenes.len() - 1);
                s.illegal = Some(format!("{}: {why}", tokens[token].text));
                s.syntax = !G::writes_a_move(tokens[token].text);
                self.error = Some((s, tokens[token].span.clone()));
                self.stopped = Some(token);
            }
        }
    }
}

/// The signs among `signs` whose cells are all on the board.
fn on_board(geometry: Geometry, signs: Vec<Sign>) -> Vec<Sign> {
    signs.into_iter().filter(|s| cells_on(geometry, s)).collect()
}

/// The error diagram of a move written `text` that is illegal in `position` (the move it stands
/// for, `attempted`, if it stands for one), after `ply` moves: that move in red, and the legal
/// moves that meet it faint (every legal move when none does).
fn error_scene<G: Reader>(position: &G, attempted: Option<G::Move>, text: &str, ply: usize) -> Scene {
    let geometry = position.geometry();
    let written = match attempted {
        Some(m) => on_board(geometry, position.signs(m)),
        None => named_cells(geometry, text),
    };
    let mut alternatives: Vec<Sign> = Vec::new();
    for m in position.legal_moves() {
        for sign in on_board(geometry, position.signs(m)) {
            // What a move the record did not play would push off is no alternative.
            let leaving = matches!(sign, Sign::Leaving { .. });
            if !leaving && !cells(&sign).is_empty() && !alternatives.contains(&sign) {
                alternatives.push(sign);
            }
        }
    }
    // The moves that meet the written one at a cell (another step of the same stone, another
    // stone to the same cell) say what the writer may have meant; only when none does is every
    // legal move drawn.
    let named: Vec<_> = written.iter().flat_map(cells).collect();
    if alternatives.iter().any(|a| cells(a).iter().any(|c| named.contains(c))) {
        alternatives.retain(|a| cells(a).iter().any(|c| named.contains(c)));
    }
    let mut signs: Vec<(Sign, Tone)> = alternatives.into_iter().map(|s| (s, Tone::Alternative)).collect();
    signs.extend(written.into_iter().map(|s| (s, Tone::Illegal)));
    scene(position, ply, signs)
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

/// The replay page of a record (`referee render --format html`): its text, a frame per scene of
/// `scenes` (the pictures' scenes, or [`Pictures::per_turn`]) and the error diagram last, the
/// verdict and its claims, each position's comments and glyphs, and its variations. `pictures` are
/// of a record of `src`, `verdict` is its verdict, and `name` names its file in the page's title.
pub fn replay_page(
    name: &str,
    src: &str,
    pictures: &Pictures,
    scenes: &[&Scene],
    verdict: &Verdict,
    options: &SvgOptions,
) -> String {
    // The page writes each caption under the board itself.
    let options = &SvgOptions { caption: false, ..*options };
    let start = pictures.span.start;
    let record = &src[pictures.span.clone()];
    let within = |s: &std::ops::Range<usize>| s.start - start..s.end - start;
    let main = pictures.line(0).expect("a record's main line is drawn");
    // A frame a turn says what was said of every move of its turn.
    let mut said_from = 0;
    let mut frames: Vec<html::Frame> = scenes
        .iter()
        .map(|scene| {
            let said = main.said(said_from..=scene.ply);
            said_from = scene.ply + 1;
            html_frame(scene, scene.ply.checked_sub(1).and_then(|k| pictures.moves.get(k)).map(within), &said, options)
        })
        .collect();
    // The page names the token itself: the reason alone, as the verdict words it, and the moves
    // the verdict lists as legal there.
    let problem = |span: &std::ops::Range<usize>| verdict.problems.iter().find(|p| p.span == *span);
    let why = |scene: &Scene, span| {
        problem(span).map_or_else(|| scene.illegal.clone().unwrap_or_default(), |p| p.message.clone())
    };
    let illegal = pictures.error.as_ref().map(|(scene, span)| {
        let said = main.said(main.scenes.len()..=main.scenes.len());
        frames.push(html::Frame { illegal: true, ..html_frame(scene, Some(within(span)), &said, options) });
        let at = problem(span);
        html::IllegalMove {
            token: within(span),
            why: why(scene, span),
            legal: at.map(|p| p.legal.clone()).unwrap_or_default(),
            legal_count: at.map(|p| p.legal_count as usize),
        }
    });
    let variations = (1..=pictures.variations.len())
        .map(|k| {
            let b = &pictures.variations[k - 1];
            let frames = pictures.line(k).map_or_else(Vec::new, |line| {
                (0..line.len())
                    .filter_map(|f| {
                        let scene = line.frame(f)?;
                        let frame = html_frame(scene, line.token(f).map(within), &line.said(f..=f), options);
                        Some(html::Frame { illegal: f == line.scenes.len(), ..frame })
                    })
                    .collect()
            });
            let illegal = b.error.as_ref().map(|(scene, span)| why(scene, span));
            html::Variation { from: b.from, at: b.at, name: b.name.clone(), frames, illegal }
        })
        .collect();
    let status = verdict.status.name().replace('_', " ");
    let played = if verdict.moves == 1 { "1 move".to_string() } else { format!("{} moves", verdict.moves) };
    let mut lines = vec![format!("{status}: {}, {played} replayed", pictures.game.title)];
    lines.extend(verdict.problems.iter().map(|p| p.said().into_owned()));
    lines.extend(verdict.claims.iter().map(|c| format!("claim `{}`: {}, {}", c.text, c.status.name(), c.detail)));
    lines.extend(pictures.undrawn_note());
    html::page(&html::Page {
        title: format!("{name}, record {}: {}", verdict.index, pictures.game.title),
        record,
        frames,
        illegal,
        verdict: lines,
        variations,
    })
}

/// A frame of the replay page: `scene` drawn, the move that led there (`token`, in the record's
/// text), its glyphs with what they say, and the comments `said` of it.
fn html_frame(
    scene: &Scene,
    token: Option<std::ops::Range<usize>>,
    said: &[&str],
    options: &SvgOptions,
) -> html::Frame {
    let glyphs =
        glyph_words(&scene.glyphs).into_iter().map(|(g, meaning)| (g.to_string(), meaning.to_string())).collect();
    html::Frame {
        svg: svg::svg(scene, options),
        caption: scene.caption()[0].clone(),
        token,
        illegal: false,
        ply: scene.ply,
        glyphs,
        comments: said.iter().map(|c| c.to_string()).collect(),
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
