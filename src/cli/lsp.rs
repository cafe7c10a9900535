//! `referee lsp`: a language server over standard input and output (LSP 3.17, through lsp-server
//! and lsp-types) for any text that holds records. The library does the judging; this file turns
//! its answers into the protocol's: diagnostics from `verify`, hovers from `record_moves`,
//! completions from the legal moves of the position at the cursor, quick fixes from a problem's
//! alternatives, one symbol per record.

use std::collections::HashMap;
use std::process::ExitCode;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, HoverRequest, Request as _,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CompletionItem, CompletionItemKind,
    CompletionParams, CompletionResponse, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentFormattingParams,
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, Hover, HoverContents, HoverParams, InitializeParams,
    Location, MarkupContent, MarkupKind, Position, PublishDiagnosticsParams, Range, ServerCapabilities, SymbolKind,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri, WorkspaceEdit,
};
use referee::perft::{moves_written, with_position, WithPosition};
use referee::verdict::{ProblemKind, Verdict};
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
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
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
    let _: InitializeParams = serde_json::from_value(params)?;
    let mut server = Server { documents: HashMap::new() };
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

/// A text the editor has open, and its verdicts.
struct Document {
    text: String,
    verdicts: Vec<Verdict>,
}

struct Server {
    documents: HashMap<String, Document>,
}

impl Server {
    /// The notifications a client's notification calls for: diagnostics of a text opened or changed.
    fn notice(&mut self, n: Notification) -> Vec<Notification> {
        let (uri, text) = match n.method.as_str() {
            DidOpenTextDocument::METHOD => match n.extract::<DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD) {
                Ok(p) => (p.text_document.uri, Some(p.text_document.text)),
                Err(_) => return Vec::new(),
            },
            DidChangeTextDocument::METHOD => {
                match n.extract::<DidChangeTextDocumentParams>(DidChangeTextDocument::METHOD) {
                    // Full sync: the last change is the whole text.
                    Ok(p) => (p.text_document.uri, p.content_changes.into_iter().last().map(|c| c.text)),
                    Err(_) => return Vec::new(),
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = n.extract::<DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD) {
                    self.documents.remove(p.text_document.uri.as_str());
                    return vec![diagnostics(p.text_document.uri, Vec::new())];
                }
                return Vec::new();
            }
            _ => return Vec::new(),
        };
        let Some(text) = text else { return Vec::new() };
        let verdicts = verify_source(&text, VerifyOptions::default());
        let found = verdicts.iter().flat_map(|v| problems(&uri, &text, v)).collect();
        self.documents.insert(uri.as_str().to_string(), Document { text, verdicts });
        vec![diagnostics(uri, found)]
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

fn diagnostics(uri: Uri, diagnostics: Vec<Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams { uri, diagnostics, version: None },
    )
}

/// The diagnostics of a record's problems: each at its range, with the rule it breaks and the
/// legal moves there as related information.
fn problems(uri: &Uri, text: &str, v: &Verdict) -> Vec<Diagnostic> {
    v.problems
        .iter()
        .map(|p| {
            let range = range(text, p.span.clone());
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
            Diagnostic {
                range,
                severity: Some(match p.kind {
                    ProblemKind::Undecided => DiagnosticSeverity::WARNING,
                    _ => DiagnosticSeverity::ERROR,
                }),
                source: Some("referee".into()),
                message: p.message.clone(),
                related_information: (!related.is_empty()).then_some(related),
                ..Diagnostic::default()
            }
        })
        .collect()
}

/// The position of byte `at` of `text`: its line, and its column in UTF-16 code units (the
/// protocol's default encoding).
fn position(text: &str, at: usize) -> Position {
    let at = floor_boundary(text, at);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..line_start].matches('\n').count();
    let character = text[line_start..at].encode_utf16().count();
    Position { line: line as u32, character: character as u32 }
}

fn range(text: &str, span: std::ops::Range<usize>) -> Range {
    Range { start: position(text, span.start), end: position(text, span.end) }
}

/// The byte of `text` at a protocol position: past the end of its line, the line's end.
fn offset(text: &str, p: Position) -> usize {
    let mut start = 0;
    for _ in 0..p.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line = &text[start..text[start..].find('\n').map_or(text.len(), |i| start + i)];
    let mut units = 0;
    for (i, c) in line.char_indices() {
        if units >= p.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    start + line.len()
}

fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The record of `d` that holds byte `at`.
fn record_at(d: &Document, at: usize) -> Option<&Verdict> {
    d.verdicts.iter().find(|v| v.span.start <= at && at <= v.span.end)
}

/// A move under the cursor: who played it, the board before and after; on a problem, its message.
fn hover(d: &Document, p: Position) -> Option<Hover> {
    let at = offset(&d.text, p);
    let v = record_at(d, at)?;
    if let Some(problem) = v.problems.iter().find(|q| q.span.start <= at && at < q.span.end.max(q.span.start + 1)) {
        let mut text = format!("**{}**: {}", problem_word(problem.kind), problem.message);
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
        return Some(markdown(text, range(&d.text, problem.span.clone())));
    }
    let replayed = referee::record_moves(&d.text, v.index, VerifyOptions::default()).ok()?;
    let k = replayed.moves.iter().position(|m| m.token.start <= at && at < m.token.end)?;
    let played = &replayed.moves[k];
    let before = if k == 0 { &replayed.start } else { &replayed.moves[k - 1].board };
    let text = format!(
        "**{}** plays `{}` · move {} · {}\n\nbefore:\n```\n{before}```\nafter:\n```\n{}```",
        played.player, played.written, played.ply, replayed.game.title, played.board
    );
    Some(markdown(text, range(&d.text, played.token.clone())))
}

fn problem_word(kind: ProblemKind) -> &'static str {
    match kind {
        ProblemKind::Syntax => "syntax error",
        ProblemKind::Illegal => "illegal move",
        ProblemKind::Claim => "refuted claim",
        ProblemKind::Undecided => "undecided",
    }
}

fn markdown(value: String, range: Range) -> Hover {
    Hover { contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }), range: Some(range) }
}

/// The legal moves of the position at the cursor, as the game writes them: the position after
/// the moves that end before the cursor.
fn completion(d: &Document, p: Position) -> Option<CompletionResponse> {
    let at = offset(&d.text, p);
    let v = record_at(d, at)?;
    let replayed = referee::record_moves(&d.text, v.index, VerifyOptions::default()).ok()?;
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
/// with which the rest replays furthest first.
fn code_actions(uri: &Uri, d: &Document, range: Range) -> Vec<CodeActionOrCommand> {
    let (from, to) = (offset(&d.text, range.start), offset(&d.text, range.end));
    let mut actions = Vec::new();
    for v in &d.verdicts {
        let Some(problem) =
            v.problems.iter().find(|p| p.kind == ProblemKind::Illegal && p.span.start <= to && from <= p.span.end)
        else {
            continue;
        };
        for (k, alternative) in v.alternatives.iter().enumerate() {
            let edit =
                TextEdit { range: self::range(&d.text, problem.span.clone()), new_text: alternative.text.clone() };
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("play {} instead of {}", alternative.text, problem.token),
                kind: Some(CodeActionKind::QUICKFIX),
                is_preferred: Some(k == 0),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                ..CodeAction::default()
            }));
        }
    }
    actions
}

/// One symbol per record: its game, its status and where it is.
fn symbols(d: &Document) -> Vec<DocumentSymbol> {
    d.verdicts
        .iter()
        .map(|v| {
            let range = range(&d.text, v.span.clone());
            let game = v.game.map_or("unknown game", |g| g.title);
            #[allow(deprecated)]
            DocumentSymbol {
                name: format!("record {}: {game}", v.index),
                detail: Some(format!("{} · {} moves", referee::report::status_name(v.status), v.moves)),
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

/// Each record in its canonical layout (`referee convert --to canonical`), where that keeps its
/// verdict: a record that does not replay to its end, or whose verdict the layout would change, is
/// left as written. The text between records stays.
fn formatting(d: &Document) -> Vec<TextEdit> {
    let verdict = |text: &str| {
        verify_source(text, VerifyOptions::default())
            .first()
            .map(|v| (v.status, v.moves, v.game_over, v.winner.clone()))
    };
    // One reading of the text for every record's document, in the verdicts' (file) order.
    let documents = referee::convert::documents(&d.text, VerifyOptions::default());
    d.verdicts
        .iter()
        .zip(documents)
        .filter_map(|(v, document)| {
            let canonical = referee::convert::canonical_of(&document.ok()?).ok()?;
            let written = &d.text[v.span.clone()];
            let same = verdict(&canonical) == Some((v.status, v.moves, v.game_over, v.winner.clone()));
            (same && canonical.trim_end() != written.trim_end())
                .then(|| TextEdit { range: range(&d.text, v.span.clone()), new_text: canonical.trim_end().to_string() })
        })
        .collect()
}
