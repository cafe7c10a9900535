//! Booklets of records for print (`referee book`): for each record its tags, its verdict as the
//! report gives it, a numbered diagram every so many moves with those moves and their comments
//! beside it, and the board of its first illegal move; a contents page for a collection. This
//! module says what a booklet holds, knowing no page; [`pdf`] lays it out on pages.
//!
//! Everything drawn is the library's: the diagrams are [`Scene`]s numbered as `show --numbers`
//! numbers them ([`Pictures::numbered_moves`]), the report is [`report::human`]'s, the tags are
//! [`Found::tags`]. A booklet says what it could not draw (a record with no position to draw, a
//! file that could not be read) in the words a verdict gives, and leaves nothing out silently.

pub mod pdf;

use std::ops::Range;
use std::sync::Arc;

use crate::judge::Games;
use crate::picture::{pictures_of, Pictures};
use crate::record::{Found, Span};
use crate::render::model::Scene;
use crate::report::{self, HumanStyle, Source};
use crate::verdict::Verdict;
use crate::verify::{self, VerifyOptions};

/// What goes into a booklet besides its records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// A diagram after every this many move numbers (the record's own numbers: the published
    /// notation's move lines, the common format's rounds), each numbering the moves since the one
    /// before; 0 for one diagram of the whole game.
    pub every: u32,
    /// Diagrams after these plies too (moves played, from the start), besides those after the
    /// moves whose comments hold markup, which a writer wrote to be seen.
    pub at: Vec<usize>,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan { every: 20, at: Vec::new() }
    }
}

/// One written thing of a move list, in the record's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// A move number, as the record numbers its moves.
    Number(u32),
    /// A move as written, with its glyphs (`a7f7!?`).
    Move(String),
    /// A comment, as written, without the markup its diagram draws.
    Comment(String),
    /// A variation as written, `(` to `)`, with what it holds (its blanks run together).
    Variation(String),
}

/// A numbered diagram and the moves it numbers.
#[derive(Clone, Debug)]
pub struct Section {
    /// The position after the last of the moves, each cell a move was played at showing its
    /// number.
    pub scene: Scene,
    /// The moves, their comments and variations, in the record's order.
    pub moves: Vec<Written>,
}

/// One record of a booklet.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its file, as the report names it.
    pub file: String,
    /// Its place among the file's records (1-based).
    pub index: usize,
    /// The game it was read as, if any.
    pub game: Option<&'static str>,
    /// Its verdict's status, in words (`valid`, `illegal`, …).
    pub status: String,
    /// Its tags, as written.
    pub tags: Vec<(String, String)>,
    /// What was said before its first move.
    pub opening: Vec<String>,
    /// Its diagrams with their moves.
    pub sections: Vec<Section>,
    /// At its first illegal move: the board before it (the move in red, the legal moves faint, the
    /// reason under it) and the comments written after it.
    pub error: Option<(Scene, Vec<String>)>,
    /// Why no position of the record is drawn, when none is.
    pub undrawn: Option<String>,
    /// Its verdict as `referee verify` reports it, line by line (problems with their place in the
    /// file, the legal moves, the rule and the board, the claims).
    pub report: Vec<String>,
}

impl Entry {
    /// Its title, as the contents and the page give it: `file, record 2: quadraphages`.
    pub fn title(&self) -> String {
        format!("{}, record {}: {}", self.file, self.index, self.game.unwrap_or("unknown game"))
    }
}

/// The entries of the records of one file's text, in file order: each record read, verified and
/// drawn once, when it is taken (a caller stops taking when its booklet is full). `file` names it
/// as reports do.
pub fn entries<'a, S: Games + 'a>(
    file: &str,
    src: &'a str,
    options: VerifyOptions<S>,
    plan: &'a Plan,
) -> impl Iterator<Item = Entry> + 'a {
    let source = Source::new(file, Arc::new(src.to_string()));
    let mut budget = options.file_budget();
    crate::record::read(src, options.reading()).map(move |found| {
        let verdict = verify::prepare(src, &found, options).finish(&mut budget);
        entry(&source, src, &found, &verdict, options, plan)
    })
}

/// The entry of a record found in `src`, with its verdict.
fn entry<S: Games>(
    source: &Source,
    src: &str,
    found: &Found,
    verdict: &Verdict,
    options: VerifyOptions<S>,
    plan: &Plan,
) -> Entry {
    let report = report::human(source, verdict, HumanStyle { color: false, width: 100 });
    let mut entry = Entry {
        file: source.name().to_string(),
        index: verdict.index,
        game: verdict.game.map(|g| g.name),
        status: crate::report::status_name(verdict.status).replace('_', " "),
        tags: found.tags(src),
        opening: Vec::new(),
        sections: Vec::new(),
        error: None,
        undrawn: None,
        report: report.trim_end().lines().map(str::to_string).collect(),
    };
    match pictures_of(src, found, options) {
        Ok(pictures) => {
            let main = pictures.line(0).expect("a record's main line is drawn");
            entry.opening = main.said(0..=0).into_iter().map(str::to_string).collect();
            let ends = diagram_ends(&pictures, plan);
            let mut from = 0;
            for end in ends {
                entry.sections.push(section(src, &pictures, from..end));
                from = end;
            }
            // Variations of moves past the last one played (the record stops at an illegal move
            // before them): written after the moves, not left out.
            let later = pictures.variations.iter().filter(|b| b.from == 0 && b.at >= pictures.moves.len());
            let later: Vec<String> = later.map(|b| written(src, &b.span)).collect();
            match entry.sections.last_mut() {
                Some(last) => last.moves.extend(later.into_iter().map(Written::Variation)),
                None => entry.opening.extend(later),
            }
            // The board before the illegal move is the last diagram's position: its numbers
            // are there already.
            entry.error = pictures.error.as_ref().map(|(scene, _)| {
                let after = main.said(main.scenes.len()..=main.scenes.len());
                (scene.clone(), after.into_iter().map(str::to_string).collect())
            });
        }
        Err((_, why)) => entry.undrawn = Some(why),
    }
    entry
}

/// The plies after which the record's diagrams stand, in order: after every `plan.every` move
/// numbers, at the plies `plan.at` names and after the moves whose comments hold markup (the
/// start, for a comment before the first move), and after the last move played (the start, when
/// the record plays none and stops at no illegal move).
fn diagram_ends(pictures: &Pictures, plan: &Plan) -> Vec<usize> {
    let played = pictures.moves.len();
    let turns = &pictures.turns;
    // Every 0: one group, one diagram.
    let group = |t: u32| t.saturating_sub(1).checked_div(plan.every).unwrap_or(0);
    // The start (ply 0) only where asked or drawn on by a comment before the first move.
    let mut ends: Vec<usize> = (0..played)
        .filter(|&p| {
            (p > 0 && group(turns[p - 1]) != group(turns[p]))
                || plan.at.contains(&p)
                || pictures.scenes.get(p).is_some_and(|s| !s.markup.is_empty())
        })
        .collect();
    if played > 0 || pictures.error.is_none() {
        ends.push(played);
    }
    // A ply asked for twice, or the last one marked, is one diagram.
    ends.dedup();
    ends
}

/// The diagram after the moves `moves` (indices into the record's moves played) numbered, and
/// those moves as written, with their comments and the variations written after them.
fn section(src: &str, pictures: &Pictures, moves: Range<usize>) -> Section {
    let scene = match moves.is_empty() {
        // The start of a record that plays no move.
        true => Scene { signs: Vec::new(), ..pictures.scenes[moves.end].clone() },
        false => pictures.numbered_moves(moves.clone()),
    };
    let main = pictures.line(0).expect("a record's main line is drawn");
    let written = |span: &Span| written(src, span);
    let mut out = Vec::new();
    for k in moves {
        if k == 0 || pictures.turns[k] != pictures.turns[k - 1] {
            out.push(Written::Number(pictures.turns[k]));
        }
        let after = &pictures.scenes[k + 1];
        // A `$14` stands apart from its move, as PGN writes it; `!?` is glued to it.
        let glue = if after.glyphs.starts_with('$') { " " } else { "" };
        out.push(Written::Move(format!("{}{glue}{}", written(&pictures.moves[k]), after.glyphs)));
        out.extend(main.said(k + 1..=k + 1).into_iter().map(|c| Written::Comment(c.to_string())));
        // The variations of the main line that replace this move: written after it.
        out.extend(
            pictures
                .variations
                .iter()
                .filter(|b| b.from == 0 && b.at == k)
                .map(|b| Written::Variation(written(&b.span))),
        );
    }
    Section { scene, moves: out }
}

/// The text of `span` of `src` as a move list gives it: its blanks and line breaks run together.
fn written(src: &str, span: &Span) -> String {
    src.get(span.clone()).unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" ")
}
