//! `referee lsp`: a language server over standard input and output (LSP 3.17, through lsp-server
//! and lsp-types) for any text that holds records. The library does the judging; this file turns
//! its answers into the protocol's: diagnostics from a text's verdicts kept current through its
//! edits ([`JudgedText`]), hovers from a record's moves, claims and tags, completions from the
//! legal moves of the position at the cursor, quick fixes from a problem's alternatives and the
//! record's best repair, one symbol per record.

use std::cell::RefCell;
use std::collections::HashMap;
use std::process::ExitCode;
use std::time::Duration;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeConfiguration, DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, HoverRequest, Request as _,
};
use lsp_types::{
    CodeAction, CodeActionDisabled, CodeActionKind, CodeActionOrCommand, CodeActionParams, CompletionItem,
    CompletionItemKind, CompletionParams, CompletionResponse, Diagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, DidChangeConfigurationParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DocumentFormattingParams, DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse,
    Hover, HoverContents, HoverParams, InitializeParams, Location, MarkupContent, MarkupKind, Position,
    PublishDiagnosticsParams, Range, ServerCapabilities, SymbolKind, TextDocumentContentChangeEvent,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri, WorkspaceEdit,
};
use referee::judged::{floor_boundary, JudgedText};
use referee::perft::{moves_written, with_position, WithPosition};
use referee::record::{Found, Span};
use referee::repair::{self, RepairOptions, Rewrite};
use referee::verdict::{ClaimKind, ProblemKind, Verdict};
use referee::verify::{verify_source, VerifyOptions};
use referee::Engine;

/// Runs the server until the client asks it to exit.
pub fn run() -> ExitCode {
    let (connection, io) = Connection::stdio();
    let served = serve(&connection);
    drop(connection);
    match (served, io.join()) {
        (Ok(()), Ok(())) => ExitCode::SUCCESS,
        (Err(e), _) => {
            eprintln!("referee lsp: {e}");
            ExitCode::from(1)
        }
        (_, Err(e)) => {
            eprintln!("referee lsp: {e}");
            ExitCode::from(1)
        }
    }
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp_types::CompletionOptions::default()),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
        document_formatting_provider: Some(lsp_types::OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

fn serve(connection: &Connection) -> Result<(), Box<dyn std::error::Error>> {
    let params = connection.initialize(serde_json::to_value(capabilities())?)?;
    let params: InitializeParams = serde_json::from_value(params)?;
    let options = VerifyOptions {
        lenient: lenient_setting(params.initialization_options.as_ref()).unwrap_or(false),
        ..VerifyOptions::default()
    };
    let mut server = Server { documents: HashMap::new(), options };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                connection.sender.send(Message::Response(server.answer(request)))?;
            }
            Message::Notification(n) => {
                for out in server.notice(n) {
                    connection.sender.send(Message::Notification(out))?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// The `lenient` setting in a client's settings: `{"lenient": true}`, or under `referee` as an
/// editor sends its settings (`{"referee": {"lenient": true}}`).
fn lenient_setting(settings: Option<&serde_json::Value>) -> Option<bool> {
    let settings = settings?;
    settings.get("referee").unwrap_or(settings).get("lenient")?.as_bool()
}

/// A text the editor has open: its records judged, where its lines start, and the best repair of
/// the record last asked for.
struct Document {
    judged: JudgedText,
    lines: LineStarts,
    version: Option<i32>,
    /// The record (by index) whose best repair a code action last computed, and that repair: a
    /// client asks for code actions at every move of the cursor.
    repair: RefCell<Option<(usize, Option<CodeAction>)>>,
}

impl Document {
    fn new(text: String, options: VerifyOptions, version: i32) -> Document {
        let lines = LineStarts::of(&text);
        Document { judged: JudgedText::new(text, options), lines, version: Some(version), repair: RefCell::new(None) }
    }

    fn text(&self) -> &str {
        self.judged.text()
    }

    fn position(&self, at: usize) -> Position {
        self.lines.position(self.text(), at)
    }

    fn range(&self, span: &Span) -> Range {
        Range { start: self.position(span.start), end: self.position(span.end) }
    }

    fn offset(&self, p: Position) -> usize {
        self.lines.offset(self.text(), p)
    }

    /// Makes the editor's changes, in order, judging again the records each touches.
    fn change(&mut self, changes: Vec<TextDocumentContentChangeEvent>, version: i32) {
        for change in changes {
            match change.range {
                Some(range) => {
                    let span = self.offset(range.start)..self.offset(range.end);
                    self.judged.replace(span, &change.text);
                }
                None => {
                    self.judged.set_text(change.text);
                }
            }
            self.lines = LineStarts::of(self.text());
        }
        self.version = Some(version);
        self.repair.replace(None);
    }

    fn diagnostics(&self, uri: &Uri) -> Notification {
        let found = self.judged.verdicts().flat_map(|v| problems(uri, self, v)).collect();
        publish(uri.clone(), found, self.version)
    }
}

/// The notification that gives a text's diagnostics, all of them.
fn publish(uri: Uri, diagnostics: Vec<Diagnostic>, version: Option<i32>) -> Notification {
    Notification::new(PublishDiagnostics::METHOD.to_string(), PublishDiagnosticsParams { uri, diagnostics, version })
}

struct Server {
    documents: HashMap<String, Document>,
    /// The options every text is judged with: lenient replay is a setting.
    options: VerifyOptions,
}

impl Server {
    /// The notifications a client's notification calls for: diagnostics of a text opened or
    /// changed, or of every text when a setting changed.
    fn notice(&mut self, n: Notification) -> Vec<Notification> {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = n.extract::<DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD) else {
                    return Vec::new();
                };
                let d = Document::new(p.text_document.text, self.options, p.text_document.version);
                let out = d.diagnostics(&p.text_document.uri);
                self.documents.insert(p.text_document.uri.as_str().to_string(), d);
                vec![out]
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = n.extract::<DidChangeTextDocumentParams>(DidChangeTextDocument::METHOD) else {
                    return Vec::new();
                };
                let Some(d) = self.documents.get_mut(p.text_document.uri.as_str()) else { return Vec::new() };
                d.change(p.content_changes, p.text_document.version);
                vec![d.diagnostics(&p.text_document.uri)]
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = n.extract::<DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD) else {
                    return Vec::new();
                };
                self.documents.remove(p.text_document.uri.as_str());
                vec![publish(p.text_document.uri, Vec::new(), None)]
            }
            DidChangeConfiguration::METHOD => {
                let Ok(p) = n.extract::<DidChangeConfigurationParams>(DidChangeConfiguration::METHOD) else {
                    return Vec::new();
                };
                let Some(lenient) = lenient_setting(Some(&p.settings)) else { return Vec::new() };
                if lenient == self.options.lenient {
                    return Vec::new();
                }
                self.options.lenient = lenient;
                let mut out = Vec::new();
                for (uri, d) in &mut self.documents {
                    d.judged.set_options(self.options);
                    d.repair.replace(None);
                    if let Ok(uri) = uri.parse::<Uri>() {
                        out.push(d.diagnostics(&uri));
                    }
                }
                out
            }
            _ => Vec::new(),
        }
    }

    /// The response to a request: an error for a document the server does not have open.
    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            HoverRequest::METHOD => self.with_params(request, |p: HoverParams, d| {
                let at = &p.text_document_position_params;
                serde_json::to_value(hover(d, at.position))
            }),
            Completion::METHOD => self.with_params(request, |p: CompletionParams, d| {
                serde_json::to_value(completion(d, p.text_document_position.position))
            }),
            CodeActionRequest::METHOD => self.with_params(request, |p: CodeActionParams, d| {
                serde_json::to_value(code_actions(&p.text_document.uri, d, p.range))
            }),
            DocumentSymbolRequest::METHOD => self.with_params(request, |_: DocumentSymbolParams, d| {
                serde_json::to_value(DocumentSymbolResponse::Nested(symbols(d)))
            }),
            Formatting::METHOD => {
                self.with_params(request, |_: DocumentFormattingParams, d| serde_json::to_value(formatting(d)))
            }
            method => Err((ErrorCode::MethodNotFound, format!("referee lsp does not answer {method}"))),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    /// Reads a request's parameters and finds its document, then answers with `work`.
    fn with_params<P: serde::de::DeserializeOwned + HasDocument>(
        &self,
        request: Request,
        work: impl FnOnce(P, &Document) -> serde_json::Result<serde_json::Value>,
    ) -> Result<serde_json::Value, (ErrorCode, String)> {
        let params: P =
            serde_json::from_value(request.params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))?;
        let uri = params.uri().as_str().to_string();
        let Some(document) = self.documents.get(&uri) else {
            return Err((ErrorCode::InvalidParams, format!("{uri} is not open")));
        };
        work(params, document).map_err(|e| (ErrorCode::InternalError, e.to_string()))
    }
}

/// Where each line of a text starts, for the protocol's positions: a line ends at `\n`, `\r\n`
/// or `\r`, as the protocol counts lines.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn of(text: &str) -> LineStarts {
        LineStarts(referee::report::line_starts(text).collect())
    }

    /// The position of byte `at` of `text`: its line, and its column in UTF-16 code units (the
    /// protocol's default encoding).
    fn position(&self, text: &str, at: usize) -> Position {
        let at = floor_boundary(text, at);
        let line = self.0.partition_point(|&s| s <= at).saturating_sub(1);
        let start = self.0[line].min(at);
        let character = text[start..at].encode_utf16().count();
        Position { line: line as u32, character: character as u32 }
    }

    /// The byte of `text` at a protocol position: past the end of its line, the line's end; past
    /// the last line, the text's end.
    fn offset(&self, text: &str, p: Position) -> usize {
        let Some(&start) = self.0.get(p.line as usize) else { return text.len() };
        let next = self.0.get(p.line as usize + 1).copied().unwrap_or(text.len());
        let line = text[start..next].trim_end_matches(['\n', '\r']);
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= p.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }
}

/// The document a request is about.
trait HasDocument {
    fn uri(&self) -> &Uri;
}

impl HasDocument for HoverParams {
    fn uri(&self) -> &Uri {
        &self.text_document_position_params.text_document.uri
    }
}

impl HasDocument for CompletionParams {
    fn uri(&self) -> &Uri {
        &self.text_document_position.text_document.uri
    }
}

impl HasDocument for CodeActionParams {
    fn uri(&self) -> &Uri {
        &self.text_document.uri
    }
}

impl HasDocument for DocumentFormattingParams {
    fn uri(&self) -> &Uri {
        &self.text_document.uri
    }
}

impl HasDocument for DocumentSymbolParams {
    fn uri(&self) -> &Uri {
        &self.text_document.uri
    }
}

/// The diagnostics of a record's problems: each at its range, with the rule it breaks and the
/// legal moves there as related information. In a lenient replay, the illegal moves after the
/// first are hints: the replay went on past the first as if it were legal.
fn problems(uri: &Uri, d: &Document, v: &Verdict) -> Vec<Diagnostic> {
    let first_illegal = v.problems.iter().position(|p| p.kind == ProblemKind::Illegal);
    v.problems
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let range = d.range(&p.span);
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
                message: p.message.clone(),
                related_information: (!related.is_empty()).then_some(related),
                ..Diagnostic::default()
            }
        })
        .collect()
}

/// What is under the cursor: a problem (its message, the board before it, the legal moves), a
/// claim (its status and why), a tag (what it means) or a move (who played it, the boards before
/// and after, the score once the game is over).
fn hover(d: &Document, p: Position) -> Option<Hover> {
    let at = d.offset(p);
    let v = d.judged.record_at(at)?;
    let holds = |span: &Span| span.start <= at && at < span.end.max(span.start + 1);
    if let Some(problem) = v.problems.iter().find(|q| holds(&q.span)) {
        let mut text = format!("**{}**: {}", referee::report::problem_name(problem.kind), problem.message);
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
        let text = format!("{what}: {}: {}", claim.status.name(), claim.detail);
        return Some(markdown(text, d.range(&claim.span)));
    }
    if let Some(Found::Common(record)) = d.judged.found(v.index) {
        if let Some(tag) = record.tags.iter().find(|t| holds(&t.span)) {
            let meaning = referee::common::tag_meaning(tag.name, v.game);
            let text = format!("**{}**: {meaning}", &d.text()[tag.span.clone()]);
            return Some(markdown(text, d.range(&tag.span)));
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

fn markdown(value: String, range: Range) -> Hover {
    Hover { contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }), range: Some(range) }
}

/// The legal moves of the position at the cursor, as the game writes them: the position after
/// the moves that end before the cursor.
fn completion(d: &Document, p: Position) -> Option<CompletionResponse> {
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

/// Quick fixes for the illegal moves in `range`: the move replaced by each alternative, those
/// with which the rest replays furthest first; then the record's best repair, as `referee repair
/// --write` would write it (or why there is none).
fn code_actions(uri: &Uri, d: &Document, range: Range) -> Vec<CodeActionOrCommand> {
    let (from, to) = (d.offset(range.start), d.offset(range.end));
    let mut actions = Vec::new();
    let fix = |title: String, span: &Span, new_text: String| CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), vec![TextEdit { range: d.range(span), new_text }])])),
            ..WorkspaceEdit::default()
        }),
        ..CodeAction::default()
    };
    for v in d.judged.verdicts() {
        if v.span.start > to {
            break;
        }
        let Some(problem) =
            v.problems.iter().find(|p| p.kind == ProblemKind::Illegal && p.span.start <= to && from <= p.span.end)
        else {
            continue;
        };
        for (k, alternative) in v.alternatives.iter().enumerate() {
            let title = format!("play {} instead of {}", alternative.text, problem.token);
            let action =
                CodeAction { is_preferred: Some(k == 0), ..fix(title, &problem.span, alternative.text.clone()) };
            actions.push(CodeActionOrCommand::CodeAction(action));
        }
        let mut cached = d.repair.borrow_mut();
        if cached.as_ref().is_none_or(|(index, _)| *index != v.index) {
            *cached = Some((v.index, best_repair(d, v, &fix)));
        }
        if let Some((_, Some(action))) = cached.as_ref() {
            actions.push(CodeActionOrCommand::CodeAction(action.clone()));
        }
    }
    actions
}

/// The record's best repair as an action that rewrites the record, as `referee repair --write`
/// does; when no repair makes it stand, an action shown disabled with the reason.
fn best_repair(d: &Document, v: &Verdict, fix: &dyn Fn(String, &Span, String) -> CodeAction) -> Option<CodeAction> {
    let found = d.judged.found(v.index)?;
    // An editor waits for its code actions: the search gets two seconds, not `repair`'s ten, and
    // holds at most 64 MiB, as the server reads any text in.
    let options =
        RepairOptions { time_limit: Some(Duration::from_secs(2)), max_bytes: 64 << 20, ..RepairOptions::default() };
    let mut budget = d.judged.options().file_budget();
    let repaired = repair::repair_record(d.text(), &found, d.judged.options(), options, &mut budget);
    Some(match repair::rewrite(d.text(), &repaired, d.judged.options()) {
        Rewrite::Repaired { text, edits } => {
            let s = if edits == 1 { "" } else { "s" };
            fix(format!("apply the best repair of record {} ({edits} edit{s})", v.index), &v.span, text)
        }
        Rewrite::Unchanged => return None,
        Rewrite::Left(why) => CodeAction {
            title: format!("apply the best repair of record {}", v.index),
            kind: Some(CodeActionKind::QUICKFIX),
            disabled: Some(CodeActionDisabled {
                reason: super::repair::left_words(&why, repaired.search.as_ref(), |span| {
                    let p = d.position(span.start);
                    format!("{}:{}", p.line + 1, p.character + 1)
                }),
            }),
            ..CodeAction::default()
        },
    })
}

/// One symbol per record: its game, its players, its result, its verdict, and where it is.
fn symbols(d: &Document) -> Vec<DocumentSymbol> {
    d.judged
        .verdicts()
        .map(|v| {
            let range = d.range(&v.span);
            let game = v.game.map_or("unknown game", |g| g.title);
            let result = v.claims.iter().find(|c| c.kind == ClaimKind::Result).map(|c| format!(" · {}", c.text));
            #[allow(deprecated)]
            DocumentSymbol {
                name: format!("record {}: {game}{}", v.index, players(d, v)),
                detail: Some(format!(
                    "{} · {} moves{}",
                    referee::report::status_name(v.status),
                    v.moves,
                    result.unwrap_or_default()
                )),
                kind: SymbolKind::OBJECT,
                tags: None,
                deprecated: None,
                range,
                selection_range: range,
                children: None,
            }
        })
        .collect()
}

/// The players a record of the common format names by the tags of their colours (`[Black "Ann"]`,
/// the colours the replay's score names): ` (Ann – Bo)`, or nothing.
fn players(d: &Document, v: &Verdict) -> String {
    let Some(Found::Common(record)) = d.judged.found(v.index) else { return String::new() };
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

/// Each record in its canonical layout (`referee convert --to canonical`), where that keeps its
/// verdict: a record that does not replay to its end, or whose verdict the layout would change, is
/// left as written. The text between records stays.
fn formatting(d: &Document) -> Vec<TextEdit> {
    let options = d.judged.options();
    let verdict =
        |text: &str| verify_source(text, options).first().map(|v| (v.status, v.moves, v.game_over, v.winner.clone()));
    // One reading of the text for every record's document, in the verdicts' (file) order.
    let documents = referee::convert::documents(d.text(), options);
    d.judged
        .verdicts()
        .zip(documents)
        .filter_map(|(v, document)| {
            let canonical = referee::convert::canonical_of(&document.ok()?).ok()?;
            let written = &d.text()[v.span.clone()];
            let same = verdict(&canonical) == Some((v.status, v.moves, v.game_over, v.winner.clone()));
            (same && canonical.trim_end() != written.trim_end())
                .then(|| TextEdit { range: d.range(&v.span), new_text: canonical.trim_end().to_string() })
        })
        .collect()
}
