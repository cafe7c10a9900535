//! The answers about what a writer added to the moves of a record of the common format
//! ([`crate::record::notes`]): its comments and variations folded, its variations in the outline,
//! and hovers on a comment (its text, and the move it follows) and on a variation's `(` (its path,
//! and whether it replays).

use lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, Hover, Position, Range};

use super::document::{markdown, symbol, Document};
use crate::judge::Games;
use crate::record::common::CommonRecord;
use crate::record::notes::Place;
use crate::record::{Found, Span};
use crate::variations::{first_plies, line_names, move_name, path_name};
use crate::verdict::Verdict;

/// Most folding ranges given for one text: an editor folds a few hundred at most, and a text of
/// a hundred thousand records would otherwise send megabytes at each request.
pub const MAX_FOLDS: usize = 5000;

/// Most places looked at for folding ranges: the records, comments and variations of a text, of
/// which those on one line fold nothing.
const MAX_FOLD_PLACES: usize = 10 * MAX_FOLDS;

/// Most levels of variations the outline nests: deeper ones are listed beside the variations at
/// the deepest level (an editor's outline is no place for a hundred levels).
pub const MAX_OUTLINE_DEPTH: usize = 12;

/// Most variations a variation's path names in full: past them, its first, its parent's and its
/// own (`1. a1 > … > 9... c3 > 10. d4`).
const PATH_NAMES: usize = 6;

/// One folding range per record, per comment and per variation that spans lines, in text order:
/// the first [`MAX_FOLDS`].
pub fn folding_ranges<S: Games>(d: &Document<S>) -> Vec<FoldingRange> {
    let mut places: Vec<(Span, FoldingRangeKind)> = Vec::new();
    for v in d.judged.verdicts() {
        if places.len() >= MAX_FOLD_PLACES {
            break;
        }
        places.push((v.span.clone(), FoldingRangeKind::Region));
        if let Some(Found::Common(r)) = d.judged.found(v.index) {
            let comments = r.notes().comments.iter().map(|c| (c.span.clone(), FoldingRangeKind::Comment));
            let variations = r.notes().variations.iter().map(|v| (v.span.clone(), FoldingRangeKind::Region));
            let mut notes: Vec<_> = comments.chain(variations).collect();
            notes.sort_by_key(|n| n.0.start);
            places.extend(notes.into_iter().take(MAX_FOLD_PLACES.saturating_sub(places.len())));
        }
    }
    let spans: Vec<Span> = places.iter().map(|p| p.0.clone()).collect();
    ranges_of(d, &spans)
        .into_iter()
        .zip(places)
        .filter(|(range, _)| range.start.line < range.end.line)
        .take(MAX_FOLDS)
        .map(|(range, (_, kind))| FoldingRange {
            start_line: range.start.line,
            end_line: range.end.line,
            kind: Some(kind),
            ..FoldingRange::default()
        })
        .collect()
}

/// The ranges of many spans of a text: their ends placed in increasing order, so that the text
/// is read about once ([`super::lines::Positions`]).
pub(super) fn ranges_of<S: Games>(d: &Document<S>, spans: &[Span]) -> Vec<Range> {
    let mut ends: Vec<usize> = spans.iter().flat_map(|s| [s.start, s.end]).collect();
    ends.sort_unstable();
    ends.dedup();
    let mut positions = d.positions();
    let placed: Vec<Position> = ends.iter().map(|&at| positions.position(at)).collect();
    let at = |byte: usize| placed[ends.partition_point(|&e| e < byte)];
    spans.iter().map(|s| Range { start: at(s.start), end: at(s.end) }).collect()
}

/// A variation as the outline lists it.
pub(super) struct Branch {
    /// Where it is, `(` to `)`.
    pub(super) span: Span,
    /// The outline's entry it is listed under: 0 for its record, `k` for variation `k - 1`.
    under: usize,
    /// Its first move, numbered (`12... c3`).
    name: String,
    /// The variations from the main line to it.
    path: String,
}

/// The first `most` variations of a record of `src` whose game has `players` players, as the
/// outline lists them, in the order they open.
pub(super) fn branches(r: &CommonRecord, players: usize, most: usize) -> Vec<Branch> {
    let variations = &r.notes().variations[..r.notes().variations.len().min(most)];
    let names = line_names(variations, players);
    // Each line's depth, the entry it is listed under, the first variation of its path, and its
    // path: a variation opens after the line it branches from, so all are known for its line.
    let mut depth = vec![0; variations.len() + 1];
    let mut under = vec![0; variations.len() + 1];
    let mut first = vec![0; variations.len() + 1];
    let mut paths = vec![String::new(); variations.len() + 1];
    for (k, v) in variations.iter().enumerate().map(|(i, v)| (i + 1, v)) {
        let line = v.at.line;
        depth[k] = depth[line] + 1;
        under[k] = if depth[line] < MAX_OUTLINE_DEPTH { line } else { under[line] };
        first[k] = if line == 0 { k } else { first[line] };
        paths[k] = match line {
            0 => names[k].clone(),
            _ if depth[k] <= PATH_NAMES => format!("{} > {}", paths[line], names[k]),
            _ => format!("{} > … > {} > {}", names[first[k]], names[line], names[k]),
        };
    }
    variations
        .iter()
        .enumerate()
        .map(|(i, v)| Branch {
            span: v.span.clone(),
            under: under[i + 1],
            name: names[i + 1].clone(),
            path: std::mem::take(&mut paths[i + 1]),
        })
        .collect()
}

/// The outline's entries of a record's variations, each with its range, nested as listed: the
/// entries under the record.
pub(super) fn nest(branches: Vec<(Branch, Range)>) -> Vec<DocumentSymbol> {
    let mut children: Vec<Vec<DocumentSymbol>> = (0..=branches.len()).map(|_| Vec::new()).collect();
    // Last first: a variation's own entries are made before it is.
    for (k, (b, range)) in branches.into_iter().enumerate().rev() {
        let mut own = std::mem::take(&mut children[k + 1]);
        own.reverse();
        let entry = DocumentSymbol { children: (!own.is_empty()).then_some(own), ..symbol(b.name, b.path, range) };
        children[b.under].push(entry);
    }
    let mut top = std::mem::take(&mut children[0]);
    top.reverse();
    top
}

/// A hover on a comment of a record (its text, and the move it follows) or on the `(` of one of
/// its variations (its path, and whether it replays); `None` elsewhere.
pub(super) fn hover<S: Games>(d: &Document<S>, v: &Verdict, r: &CommonRecord, at: usize) -> Option<Hover> {
    let notes = r.notes();
    let comment = notes.comments.iter().find(|c| c.span.start <= at && at < c.span.end);
    let opened = notes.variations.iter().position(|v| v.span.start == at);
    if comment.is_none() && opened.is_none() {
        return None;
    }
    let players = crate::judge::common_players(d.text(), r, d.judged.options()).unwrap_or(2);
    let names = line_names(&notes.variations, players);
    if let Some(c) = comment {
        let quoted: Vec<String> = c.text.lines().map(|l| format!("> {l}")).collect();
        let mut text = format!("**comment** {}\n\n{}", place_words(r, c.at, players, &names), quoted.join("\n"));
        // The markup it holds, in words: what the pictures of that position draw.
        let drawn: Vec<String> = notes
            .markup
            .iter()
            .filter(|m| c.span.start <= m.span.start && m.span.end <= c.span.end)
            .map(|m| format!("- {}", drawing_words(&m.drawing)))
            .collect();
        if !drawn.is_empty() {
            text.push_str(&format!("\n\n**markup**, drawn on the position after that move:\n{}", drawn.join("\n")));
        }
        return Some(markdown(text, d.range(&c.span)));
    }
    let k = opened? + 1;
    let span = notes.variations[k - 1].span.clone();
    let path = path_name(&notes.variations, &names, k);
    let text = format!("**variation** at {path}: {}", replays(r, v, k, &path));
    Some(markdown(text, d.range(&(span.start..span.start + 1))))
}

/// A markup command in words: `an arrow from a1 to d4, red`.
fn drawing_words(d: &crate::record::notes::Drawing) -> String {
    use crate::record::notes::Drawing;
    match d {
        Drawing::Arrow { from, to, colour } => format!("an arrow from {from} to {to}, {}", colour.name()),
        Drawing::Mark { cell, colour } => format!("{cell} coloured {}", colour.name()),
        Drawing::Label { cell, text } => format!("`{text}` written on {cell}"),
        Drawing::Other { command } => format!("`[%{command} ...]`, kept as written and not drawn"),
    }
}

/// Where a place among a record's moves is, in words: `after 12... c3`, `before the first move`,
/// `after the result`, and in which variation.
fn place_words(r: &CommonRecord, at: Place, players: usize, names: &[String]) -> String {
    let notes = r.notes();
    let tokens = notes.line(&r.tokens, at.line);
    let here = match at.after.checked_sub(1).and_then(|i| tokens.get(i)) {
        None if at.line == 0 => return "before the first move".into(),
        None => "before its first move".to_string(),
        Some(t) if t.kind.is_claim() => format!("after the result `{}`", t.text),
        Some(t) => {
            format!("after {}", move_name(first_plies(&notes.variations)[at.line] + at.after - 1, t.text, players))
        }
    };
    match at.line {
        0 => here,
        k => format!("{here}, in the variation at {}", path_name(&notes.variations, names, k)),
    }
}

/// Whether variation `k - 1` of a record replays, in words: its first illegal move's problem, or
/// why it was not checked.
fn replays(r: &CommonRecord, v: &Verdict, k: usize, path: &str) -> String {
    if v.position.is_none() {
        let why = v.problems.first().map_or(String::new(), |p| format!(": {}", p.said()));
        return format!("not checked: the record is not replayed{why}");
    }
    let variations = &r.notes().variations;
    let span = &variations[k - 1].span;
    let inside = |s: &Span, outer: &Span| outer.start <= s.start && s.start < outer.end;
    // Its problems are inside it, and not inside a variation of its own.
    let own = v.problems.iter().find(|p| {
        p.variation.is_some()
            && inside(&p.span, span)
            && !variations.iter().skip(k).any(|w| w.at.line == k && inside(&p.span, &w.span))
    });
    if let Some(p) = own {
        return format!("it does not replay: {}", p.message);
    }
    let unchecked = format!("the variation at {path} is not checked");
    match v.notes.iter().find(|n| n.starts_with(&unchecked)) {
        Some(note) => note.clone(),
        None => "it replays: each of its moves is legal".into(),
    }
}
