//! The library's answers in the protocol's words: diagnostics from a text's verdicts, hovers from
//! a record's moves, claims and tags, completions from the legal moves of the position at the
//! cursor, quick fixes from a problem's alternatives and the record's best repair, one symbol per
//! record (its variations under it: [`notes`] answers about comments and variations).
//!
//! What may take long (a record's best repair, the layout of a whole text: [`crate::layout`]) is
//! worked out on another thread from a copy of the record or the text, in bytes ([`Repaired`]);
//! the server turns it into positions once it is back, if the text is still as it was.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionDisabled, CodeActionKind, CompletionItem, CompletionItemKind, CompletionResponse, Diagnostic,
    DiagnosticRelatedInformation, DiagnosticSeverity, DocumentSymbol, Hover, Location, Position, Range, TextEdit, Uri,
    WorkspaceEdit,
};

use super::document::{markdown, symbol, Document};
use super::lines::Positions;
use super::notes;
use crate::game::Engine;
use crate::judge::Games;
use crate::judged::RecordCopy;
use crate::perft::{moves_written, with_position, WithPosition};
use crate::record::{Found, Span};
use crate::repair::{self, Left, RepairOptions, Rewrite};
use crate::search::Stop;
use crate::verdict::{ClaimKind, ProblemKind, Verdict};

/// Most diagnostics published for one text: past them a last one says how many more there are.
/// An editor shows a few hundred at most, and a text of a hundred thousand broken records would
/// otherwise send tens of megabytes at each keystroke.
pub const MAX_DIAGNOSTICS: usize = 1000;

/// Most symbols given for one text, likewise.
pub const MAX_SYMBOLS: usize = 5000;

/// The diagnostics of a text's problems, the first [`MAX_DIAGNOSTICS`] in text order and a last one
/// that counts the others.
pub fn diagnostics<S: Games>(uri: &Uri, d: &Document<S>) -> Vec<Diagnostic> {
    let mut positions = d.positions();
    let mut found = Vec::new();
    let (mut more, mut first_left) = (0, None);
    for v in d.judged.verdicts() {
        if found.len() + v.problems.len() > MAX_DIAGNOSTICS {
            more += v.problems.len();
            first_left = first_left.or(v.problems.first().map(|p| p.span.start));
            continue;
        }
        found.extend(problems(uri, &mut positions, v));
    }
    if let Some(at) = first_left {
        let at = d.position(at);
        found.push(Diagnostic {
            range: Range { start: at, end: at },
            severity: Some(DiagnosticSeverity::INFORMATION),
            source: Some("referee".into()),
            message: format!(
                "{more} more problems from here on are not shown: the editor shows the first {MAX_DIAGNOSTICS}; `referee verify` lists them all"
            ),
            ..Diagnostic::default()
        });
    }
    found
}

/// The diagnostics of a record's problems: each at its range, with the rule it breaks and the
/// legal moves there as related information. In a lenient replay, the illegal moves after the
/// first are hints: the replay went on past the first as if it were legal.
fn problems(uri: &Uri, positions: &mut Positions, v: &Verdict) -> Vec<Diagnostic> {
    let first_illegal = v.problems.iter().position(|p| p.kind == ProblemKind::Illegal && p.variation.is_none());
    v.problems
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let range = Range { start: positions.position(p.span.start), end: positions.position(p.span.end) };
            let mut related = Vec::new();
            let here = |message: String| DiagnosticRelatedInformation {
                location: Location { uri: uri.clone(), range },
                message,
            };
            if let Some(rule) = &p.rule {
                related.push(here(format!("the rule: {rule}")));
            }
            if !p.legal.is_empty() {
                related.push(here(format!("legal here: {}", p.legal.join(" "))));
            }
            let severity = match p.kind {
                ProblemKind::Undecided => DiagnosticSeverity::WARNING,
                ProblemKind::Illegal if first_illegal.is_some_and(|f| f < k) => DiagnosticSeverity::HINT,
                _ => DiagnosticSeverity::ERROR,
            };
            Diagnostic {
                range,
                severity: Some(severity),
                source: Some("referee".into()),
                message: p.said().into_owned(),
                related_information: (!related.is_empty()).then_some(related),
                ..Diagnostic::default()
            }
        })
        .collect()
}

/// What is under the cursor: a problem (its message, the board before it, the legal moves), a
/// claim (its status and why), a tag (what it means) or a move (who played it, the boards before
/// and after, the score once the game is over).
pub fn hover<S: Games>(d: &Document<S>, p: Position) -> Option<Hover> {
    let at = d.offset(p);
    let v = d.judged.record_at(at)?;
    let holds = |span: &Span| span.start <= at && at < span.end.max(span.start + 1);
    if let Some(problem) = v.problems.iter().find(|q| holds(&q.span)) {
        let mut text = format!("**{}**: {}", crate::report::problem_name(problem.kind), problem.said());
        if let Some(rule) = &problem.rule {
            text.push_str(&format!("\n\nthe rule: {rule}"));
        }
        if let Some(board) = &problem.board {
            text.push_str(&format!("\n\nthe board before it:\n```\n{}```", board.diagram()));
        }
        if !problem.legal.is_empty() {
            let all = problem.legal_count as usize;
            let count = if all > problem.legal.len() {
                format!(" ({all} in all, the first {})", problem.legal.len())
            } else {
                String::new()
            };
            text.push_str(&format!("\n\nlegal here{count}: {}", problem.legal.join(" ")));
        }
        return Some(markdown(text, d.range(&problem.span)));
    }
    if let Some(claim) = v.claims.iter().find(|c| holds(&c.span)) {
        let what = match claim.kind {
            ClaimKind::Result => format!("**claimed result** `{}`", claim.text),
            ClaimKind::FinalPosition => "**final position diagram**".to_string(),
        };
        let detail = if d.judged.waits(v.index) {
            "the record stops before the game is over: its continuations are being searched".to_string()
        } else {
            format!("{}: {}", claim.status.name(), claim.detail)
        };
        return Some(markdown(format!("{what}: {detail}"), d.range(&claim.span)));
    }
    if let Some(Found::Common(record)) = d.judged.found(v.index) {
        if let Some(tag) = record.tags.iter().find(|t| holds(&t.span)) {
            let meaning = crate::format::common::tag_meaning(tag.name, v.game);
            let text = format!("**{}**: {meaning}", &d.text()[tag.span.clone()]);
            return Some(markdown(text, d.range(&tag.span)));
        }
        if let Some(hover) = notes::hover(d, v, &record, at) {
            return Some(hover);
        }
    }
    let replayed = d.judged.moves(v.index).ok()?;
    let k = replayed.moves.iter().position(|m| holds(&m.token))?;
    let played = &replayed.moves[k];
    let before = if k == 0 { &replayed.start } else { &replayed.moves[k - 1].board };
    let mut text = format!(
        "**{}** plays `{}` · move {} · {}\n\nbefore:\n```\n{before}```\nafter:\n```\n{}```",
        played.player, played.written, played.ply, replayed.game.title, played.board
    );
    if replayed.over && k + 1 == replayed.moves.len() {
        let score = v.score_text.as_ref().filter(|_| v.game_over).unwrap_or(&replayed.score);
        text.push_str(&format!("\n\nthe game is over: {score}"));
    }
    Some(markdown(text, d.range(&played.token)))
}

/// The legal moves of the position at the cursor, as the game writes them: the position after
/// the moves that end before the cursor.
pub fn completion<S: Games>(d: &Document<S>, p: Position) -> Option<CompletionResponse> {
    let at = d.offset(p);
    // Past a record's last token, on its line, is where its next move is typed.
    let v = d.judged.last_record_from(at).filter(|v| {
        at <= v.span.end || d.text().get(v.span.end..at).is_some_and(|gap| gap.trim_matches([' ', '\t']).is_empty())
    })?;
    let replayed = d.judged.moves(v.index).ok()?;
    // A token the cursor is in or just after is the one being typed: the position is before it.
    let before = replayed.moves.iter().take_while(|m| m.token.end < at);
    let code = before.last().map_or(replayed.start_code.clone(), |m| m.code.clone());
    struct Legal;
    impl WithPosition for Legal {
        type Output = Vec<String>;
        fn run<G: Engine>(self, position: G) -> Vec<String> {
            moves_written(&position)
        }
    }
    let moves = with_position(&code, Legal).ok()?;
    let items = moves
        .into_iter()
        .enumerate()
        .map(|(i, m)| CompletionItem {
            label: m,
            kind: Some(CompletionItemKind::VALUE),
            sort_text: Some(format!("{i:05}")),
            ..CompletionItem::default()
        })
        .collect();
    Some(CompletionResponse::Array(items))
}

/// A quick fix that writes `new_text` over `range` of the text.
fn fix(uri: &Uri, title: String, range: Range, new_text: String) -> CodeAction {
    CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), vec![TextEdit { range, new_text }])])),
            ..WorkspaceEdit::default()
        }),
        ..CodeAction::default()
    }
}

/// The quick fixes for the illegal moves in bytes `from..=to`: each move replaced by each
/// alternative, those with which the rest replays furthest first; and the first record there with
/// an illegal move, whose best repair may be added.
pub fn quick_fixes<S: Games>(uri: &Uri, d: &Document<S>, from: usize, to: usize) -> (Vec<CodeAction>, Option<usize>) {
    let mut actions = Vec::new();
    let mut to_repair = None;
    for v in d.judged.verdicts() {
        if v.span.start > to {
            break;
        }
        let Some(problem) =
            v.problems.iter().find(|p| p.kind == ProblemKind::Illegal && p.span.start <= to && from <= p.span.end)
        else {
            continue;
        };
        let range = d.range(&problem.span);
        for (k, alternative) in v.alternatives.iter().enumerate() {
            let title = format!("play {} instead of {}", alternative.text, problem.token);
            let action = CodeAction { is_preferred: Some(k == 0), ..fix(uri, title, range, alternative.text.clone()) };
            actions.push(action);
        }
        to_repair = to_repair.or(Some(v.index));
    }
    (actions, to_repair)
}

/// A record's best repair, worked out on another thread: in the record's bytes, for the server to
/// write as a code action ([`repair_action`]).
#[derive(Clone, Debug)]
pub struct Repaired {
    index: usize,
    span: Span,
    rewrite: Rewrite,
    search: Option<repair::Search>,
}

impl Repaired {
    /// The record's number (1-based).
    pub fn index(&self) -> usize {
        self.index
    }
}

/// The best repair of a record, as `referee repair --write` would write it, or why there is none;
/// `None` when the record needs none. An editor waits for its code actions: the search gets two
/// seconds, not `repair`'s ten, and holds at most 64 MiB, as the server reads any text in; `stop`
/// ends it sooner, when the text changes.
pub fn best_repair<S: Games>(record: &RecordCopy<S>, stop: &Stop) -> Option<Repaired> {
    let found = record.found()?;
    let options = record.options();
    let repair = RepairOptions {
        time_limit: Some(std::time::Duration::from_secs(2)),
        max_bytes: 64 << 20,
        stop: stop.clone(),
        ..RepairOptions::default()
    };
    let mut budget = options.file_budget();
    budget.stop = stop.clone();
    let repaired = repair::repair_record(record.text(), &found, options, repair, &mut budget);
    let rewrite = repair::rewrite_within(record.text(), &repaired, options, &mut budget);
    Some(Repaired { index: record.index(), span: repaired.verdict.span.clone(), rewrite, search: repaired.search })
}

/// The code action of a record's best repair: one that rewrites the record, as `referee repair
/// --write` does; when no repair makes it stand, one shown disabled with the reason.
pub fn repair_action<S: Games>(uri: &Uri, d: &Document<S>, r: &Repaired) -> Option<CodeAction> {
    Some(match &r.rewrite {
        Rewrite::Repaired { text, edits } => {
            let s = if *edits == 1 { "" } else { "s" };
            let title = format!("apply the best repair of record {} ({edits} edit{s})", r.index);
            fix(uri, title, d.range(&r.span), text.clone())
        }
        Rewrite::Unchanged => return None,
        Rewrite::Left(why) => CodeAction {
            title: format!("apply the best repair of record {}", r.index),
            kind: Some(CodeActionKind::QUICKFIX),
            disabled: Some(CodeActionDisabled { reason: left_reason(d, why, r.search.as_ref()) }),
            ..CodeAction::default()
        },
    })
}

fn left_reason<S: Games>(d: &Document<S>, why: &Left, search: Option<&repair::Search>) -> String {
    crate::report::left_words(why, search, |span| {
        let p = d.position(span.start);
        format!("{}:{}", p.line + 1, p.character + 1)
    })
}

/// One symbol per record: its game, its players, its result, its verdict, and where it is, with
/// one child per variation (its first move, numbered; its path), nested as the variations nest
/// ([`notes::MAX_OUTLINE_DEPTH`] deep at most); the first [`MAX_SYMBOLS`] symbols, and one that
/// counts the records left out.
pub fn symbols<S: Games>(d: &Document<S>) -> Vec<DocumentSymbol> {
    let mut left = MAX_SYMBOLS;
    let mut listed = Vec::new();
    let mut spans = Vec::new();
    for v in d.judged.verdicts() {
        if left == 0 {
            break;
        }
        left -= 1;
        let found = d.judged.found(v.index);
        let record = match &found {
            Some(Found::Common(r)) => Some(r),
            _ => None,
        };
        let branches = match record.filter(|r| !r.notes().variations.is_empty()) {
            Some(r) => {
                let players = crate::judge::common_players(d.text(), r, d.judged.options()).unwrap_or(2);
                notes::branches(r, players, left)
            }
            None => Vec::new(),
        };
        left -= branches.len();
        let all = record.map_or(0, |r| r.notes().variations.len());
        spans.push(v.span.clone());
        spans.extend(branches.iter().map(|b| b.span.clone()));
        listed.push((v, players(v, record), branches, all));
    }
    let mut ranges = notes::ranges_of(d, &spans).into_iter();
    let count = listed.len();
    let mut symbols: Vec<DocumentSymbol> = listed
        .into_iter()
        .map(|(v, players, branches, all)| {
            let range = ranges.next().expect("a range a span");
            let game = v.game.map_or("unknown game", |g| g.title);
            let result = v.claims.iter().find(|c| c.kind == ClaimKind::Result).map(|c| format!(" · {}", c.text));
            let shown = if branches.len() < all {
                format!(" · {all} variations, the first {} listed", branches.len())
            } else {
                String::new()
            };
            let detail = format!(
                "{} · {} moves{}{shown}",
                crate::report::status_name(v.status),
                v.moves,
                result.unwrap_or_default()
            );
            let branches: Vec<_> = branches.into_iter().map(|b| (b, ranges.next().expect("a range a span"))).collect();
            let children = notes::nest(branches);
            DocumentSymbol {
                children: (!children.is_empty()).then_some(children),
                ..symbol(format!("record {}: {game}{players}", v.index), detail, range)
            }
        })
        .collect();
    let all = d.judged.verdicts().len();
    if let Some(v) = d.judged.verdicts().nth(count) {
        let range = d.range(&(v.span.start..d.text().len()));
        let name = format!("records {} to {all}", v.index);
        symbols.push(symbol(name, format!("not listed: the outline lists the first {MAX_SYMBOLS} symbols"), range));
    }
    symbols
}

/// The players a record of the common format names by the tags of their colours (`[Black "Ann"]`,
/// the colours the replay's score names): ` (Ann – Bo)`, or nothing.
fn players(v: &Verdict, record: Option<&crate::record::common::CommonRecord>) -> String {
    let Some(record) = record.filter(|_| !v.score.is_empty()) else { return String::new() };
    let names: Vec<&str> = v
        .score
        .iter()
        .filter_map(|(colour, _)| record.tag(colour).map(|t| t.value.trim()).filter(|n| !n.is_empty()))
        .collect();
    if names.is_empty() {
        String::new()
    } else {
        format!(" ({})", names.join(" – "))
    }
}
