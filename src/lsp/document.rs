//! A text the editor has open: its records judged ([`JudgedText`]), where its lines start
//! ([`Lines`]), and what the server last told the editor of it.

use lsp_types::{
    CodeAction, Diagnostic, DocumentSymbol, Hover, HoverContents, MarkupContent, MarkupKind, Position, Range,
    SymbolKind, TextDocumentContentChangeEvent,
};

use super::lines::{Lines, Positions};
use crate::judge::{Games, Registry};
use crate::judged::JudgedText;
use crate::record::Span;
use crate::verify::VerifyOptions;

/// An open text.
pub struct Document<S = Registry> {
    /// Its records and their verdicts, kept through its edits.
    pub judged: JudgedText<S>,
    /// Where its lines start.
    pub lines: Lines,
    /// The editor's version of the text.
    pub version: i32,
    /// The diagnostics last published: they are published again only when they change.
    pub published: Option<Vec<Diagnostic>>,
    /// The best repair of a record (by number) at a version, as a code action computed it: a
    /// client asks for code actions at every move of the cursor.
    pub repair: Option<(i32, usize, Option<CodeAction>)>,
}

impl<S: Games> Document<S> {
    /// A text opened at `version`.
    pub fn new(text: String, options: VerifyOptions<S>, version: i32) -> Document<S> {
        let lines = Lines::of(&text);
        Document { judged: JudgedText::new(text, options), lines, version, published: None, repair: None }
    }

    /// The text as it stands.
    pub fn text(&self) -> &str {
        self.judged.text()
    }

    /// The position of byte `at`.
    pub fn position(&self, at: usize) -> Position {
        self.lines.position(self.text(), at)
    }

    /// The range of a span.
    pub fn range(&self, span: &Span) -> Range {
        let mut positions = self.positions();
        Range { start: positions.position(span.start), end: positions.position(span.end) }
    }

    /// Positions of many bytes, asked in increasing order.
    pub fn positions(&self) -> Positions<'_> {
        Positions::new(&self.lines, self.text())
    }

    /// The byte at a protocol position.
    pub fn offset(&self, p: Position) -> usize {
        self.lines.offset(self.text(), p)
    }

    /// Makes one of the editor's changes, judging again the records it touches.
    pub fn change(&mut self, change: TextDocumentContentChangeEvent) {
        match change.range {
            Some(range) => {
                let (start, end) = (self.offset(range.start), self.offset(range.end));
                let (start, end) = (start.min(end), start.max(end));
                self.judged.replace(start..end, &change.text);
                // `replace` takes both ends to character boundaries, which offsets are already.
                let text = self.judged.text();
                self.lines.edit(text, start, end - start, change.text.len());
            }
            None => {
                self.judged.set_text(change.text);
                self.lines = Lines::of(self.judged.text());
            }
        }
        self.repair = None;
    }
}

/// A hover of Markdown `value` over `range`.
pub(super) fn markdown(value: String, range: Range) -> Hover {
    Hover { contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }), range: Some(range) }
}

/// A symbol of the outline: `name`, with `detail`, over `range`.
pub(super) fn symbol(name: String, detail: String, range: Range) -> DocumentSymbol {
    #[allow(deprecated)]
    DocumentSymbol {
        name,
        detail: Some(detail),
        kind: SymbolKind::OBJECT,
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: None,
    }
}
