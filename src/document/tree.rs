//! The moves of a record of the common format as a document's tree: each line of play a list of
//! moves, each move with its glyphs and the comments and variations written after it, in the order
//! written (grammar.md, "Comments, glyphs and variations"). Built from the record alone, with no
//! game: the moves are as written, and the movetext module replays them.

use super::{invalid, ConvertError, LineEntry, MoveEntry, NoteEntry};
use crate::record::notes::Notes;
use crate::record::Token;

/// Where a note goes in its line.
enum Slot {
    Before,
    Move(usize),
    AfterResult,
}

/// Most variations nested in one another that a document holds: JSON read back nests five levels
/// a variation, and serde_json reads at most 128 levels. Real records nest two or three.
pub const MAX_NESTING: usize = 20;

/// A record's moves as a document holds them.
pub(crate) struct Tree {
    /// The comments before the first move.
    pub(crate) before: Vec<NoteEntry>,
    /// The main line's moves (the result token is none).
    pub(crate) moves: Vec<MoveEntry>,
    /// The comments after the result token.
    pub(crate) after_result: Vec<NoteEntry>,
}

/// The tree of a record's moves, glyphs, comments and variations: its main line's `tokens` and its
/// `notes`; `moves_at` are the indices of the main line's tokens that are moves (the published
/// notation's `....` is none), all of them but the result token when `None`. A note after a token
/// that is no move goes with the move before it. `Err` for variations nested deeper than
/// [`MAX_NESTING`].
pub(crate) fn tree_of(tokens: &[Token], notes: &Notes, moves_at: Option<&[usize]>) -> Result<Tree, ConvertError> {
    let lines = notes.variations.len() + 1;
    let mut depth = vec![0; lines];
    for (k, v) in notes.variations.iter().enumerate() {
        depth[k + 1] = depth[v.at.line] + 1;
        if depth[k + 1] > MAX_NESTING {
            return Err(invalid(format!(
                "the variation at byte {} lies {} variations deep: a document holds variations nested at most \
                 {MAX_NESTING} deep",
                v.span.start,
                depth[k + 1]
            )));
        }
    }
    let all: Vec<usize>;
    let moves_at = match moves_at {
        Some(at) => at,
        None => {
            all = (0..tokens.len()).filter(|&i| !tokens[i].kind.is_claim()).collect();
            &all
        }
    };
    let mut built: Vec<LineEntry> = (0..lines)
        .map(|k| LineEntry {
            before: Vec::new(),
            moves: match k {
                0 => moves_at.iter().map(|&i| MoveEntry::written(tokens[i].text)).collect(),
                k => notes.variations[k - 1].tokens.iter().map(|t| MoveEntry::written(t.text)).collect(),
            },
        })
        .collect();
    // Where a note after `after` tokens of its line goes: after which move (`None`: before the
    // first), or after the main line's result.
    let claim_at = tokens.iter().position(|t| t.kind.is_claim());
    let slot = |line: usize, after: usize| -> Slot {
        if line != 0 {
            return after.checked_sub(1).map_or(Slot::Before, Slot::Move);
        }
        if claim_at.is_some_and(|c| after > c) {
            return Slot::AfterResult;
        }
        moves_at.partition_point(|&i| i < after).checked_sub(1).map_or(Slot::Before, Slot::Move)
    };
    for g in &notes.glyphs {
        if let Slot::Move(i) = slot(g.at.line, g.at.after) {
            if let Some(m) = built[g.at.line].moves.get_mut(i) {
                m.glyphs.push(g.nag);
            }
        }
    }
    // Comments and variations in text order within each line, the lines deepest-numbered first: a
    // variation opens after the line it branches from, so its own notes are in place before it is
    // moved into that line.
    enum Item {
        Comment(usize),
        Variation(usize),
    }
    let mut items: Vec<(usize, usize, usize, Item)> = notes
        .comments
        .iter()
        .enumerate()
        .map(|(i, c)| (c.at.line, c.at.after, c.span.start, Item::Comment(i)))
        .chain(
            notes
                .variations
                .iter()
                .enumerate()
                .map(|(k, v)| (v.at.line, v.at.after, v.span.start, Item::Variation(k + 1))),
        )
        .collect();
    items.sort_by_key(|&(line, _, start, _)| (std::cmp::Reverse(line), start));
    let mut after_result = Vec::new();
    for (line, after, _, item) in items {
        let note = match item {
            Item::Comment(i) => {
                let c = &notes.comments[i];
                if c.to_line_end {
                    NoteEntry::LineComment(c.text.to_string())
                } else {
                    NoteEntry::Comment(c.text.to_string())
                }
            }
            Item::Variation(k) => NoteEntry::Variation(std::mem::replace(
                &mut built[k],
                LineEntry { before: Vec::new(), moves: Vec::new() },
            )),
        };
        let target = &mut built[line];
        match slot(line, after) {
            Slot::Before => target.before.push(note),
            Slot::Move(i) if i < target.moves.len() => target.moves[i].after.push(note),
            // Past the main line's moves: after its result token.
            _ => after_result.push(note),
        }
    }
    let main = built.swap_remove(0);
    Ok(Tree { before: main.before, moves: main.moves, after_result })
}
