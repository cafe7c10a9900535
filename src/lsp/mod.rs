//! `referee lsp`: a language server (LSP 3.17, its types from lsp-types) for any text that holds
//! records, over any pair of byte streams ([`serve`]; standard input and output for the command).
//!
//! What it keeps, whatever a client sends:
//! - **Nothing ends it but `exit` or the end of its input.** Messages are framed and read by
//!   [`transport`]: one too long, not JSON, or no message at all is answered with JSON-RPC's error
//!   and passed over; the server goes on. An edit it cannot read leaves its text out of step with
//!   the editor's: the text is dropped, its diagnostics cleared, and the user told to open it again.
//! - **The request loop never waits for a search.** A text's records are judged on the loop but
//!   for the claims that need a search of every continuation: those are searched on a thread of
//!   their own, one at a time, within one budget per text ([`crate::judged`]), and stopped when
//!   their record changes. A record's best repair (a code action) and the layout of a whole text
//!   (formatting) are worked out on threads of their own too, and stopped, and answered
//!   `ContentModified`, when their text changes, or `RequestCancelled` when the client cancels.
//!   Hovers, completions, symbols and folding ranges are answered at once.
//! - **Edits cost what they touch.** A change judges again the records it touches
//!   ([`crate::judged`]) and moves the line index ([`lines`]); edits that arrive together are made
//!   together, and a text's diagnostics are published once after them, only when they changed, at
//!   most 1,000 of them (`answers::MAX_DIAGNOSTICS`).
//! - **Bounded.** A message holds at most [`transport::MAX_MESSAGE`] bytes and a text
//!   [`MAX_DOCUMENT`]: a larger one is refused with a message that says so.

mod answers;
mod document;
pub mod lines;
mod notes;
pub mod transport;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::sync::mpsc;

use lsp_types::notification::{
    DidChangeConfiguration, DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, FoldingRangeRequest, Formatting, HoverRequest, Request as _,
};
use lsp_types::{
    CodeActionOrCommand, CodeActionParams, CompletionParams, DidChangeConfigurationParams, DidChangeTextDocumentParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentFormattingParams, DocumentSymbolParams,
    DocumentSymbolResponse, FoldingRangeParams, HoverParams, InitializeParams, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri,
};
use serde_json::{json, Value};

use crate::judge::Games;
use crate::judged::{Search, Searched};
use crate::search::Stop;
use crate::verify::VerifyOptions;
use answers::Repaired;
use document::Document;
use transport::{Incoming, INVALID_REQUEST};

/// Most bytes of one open text: VS Code gives extensions no text over 50 MB, and `referee verify`
/// reads longer files as a stream, which an editor's text is not.
pub const MAX_DOCUMENT: usize = 64 << 20;

/// JSON-RPC's and LSP's error codes the server answers with.
mod code {
    pub const METHOD_NOT_FOUND: i32 = -32601;
    pub const INVALID_PARAMS: i32 = -32602;
    pub const SERVER_NOT_INITIALIZED: i32 = -32002;
    pub const REQUEST_CANCELLED: i32 = -32800;
    pub const CONTENT_MODIFIED: i32 = -32801;
}

/// Serves a client on standard input and output until it says `exit` or closes the input; the
/// exit code the protocol asks for (0 after `shutdown`, else 1).
pub fn stdio() -> std::process::ExitCode {
    stdio_with(crate::judge::Registry)
}

/// [`stdio`], the texts' records read as records of `games` (a game defined outside the crate
/// too: see `cli::run_with`).
pub fn stdio_with<S: Games>(games: S) -> std::process::ExitCode {
    std::process::ExitCode::from(serve(std::io::stdin(), std::io::stdout(), VerifyOptions::default().with_games(games)))
}

/// Serves a client that writes to `input` and reads `output` until it says `exit` or the input
/// ends: 0 when it had asked for `shutdown` first, else 1, as the protocol says. `options` are
/// the options texts are judged with (the client's `lenient` setting changes its own).
pub fn serve<S: Games, R, W>(input: R, output: W, options: VerifyOptions<S>) -> u8
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let (events, inbox) = mpsc::channel();
    let reader = {
        let events = events.clone();
        std::thread::Builder::new().name("lsp reader".into()).spawn(move || {
            let mut reader = transport::Reader::new(input);
            loop {
                let message = reader.read();
                let end = matches!(message, Incoming::End);
                if events.send(Event::Client(message)).is_err() || end {
                    return;
                }
            }
        })
    };
    let (out, outbox) = mpsc::sync_channel::<Vec<u8>>(64);
    let writer = {
        let events = events.clone();
        std::thread::Builder::new().name("lsp writer".into()).spawn(move || write_all(output, outbox, events))
    };
    let (searches, jobs) = mpsc::channel::<(u64, String, Search<S>)>();
    let searcher = {
        let events = events.clone();
        std::thread::Builder::new().name("lsp searcher".into()).spawn(move || {
            for (job, uri, search) in jobs {
                let searched = search.run();
                if events.send(Event::Searched { job, uri, searched }).is_err() {
                    return;
                }
            }
        })
    };
    let (Ok(reader), Ok(writer), Ok(searcher)) = (reader, writer, searcher) else {
        eprintln!("referee lsp: could not start its threads");
        return 1;
    };
    let mut server = Server::new(out, events, searches, options);
    let code = server.run(&inbox);
    server.stop_all();
    let ended = server.ended;
    drop(server);
    let _ = writer.join();
    let _ = searcher.join();
    // The reader waits on the input, which only its end releases: it is joined when it has ended.
    if ended {
        let _ = reader.join();
    }
    code
}

/// Writes the messages the server hands on, framed, until the server is done or the output
/// closes (the client went away): then it says so and reads no more.
fn write_all(output: impl Write, outbox: mpsc::Receiver<Vec<u8>>, events: mpsc::Sender<Event>) {
    let mut output = std::io::BufWriter::new(output);
    let mut closed = false;
    while let Ok(body) = outbox.recv() {
        if closed {
            continue;
        }
        let mut written = transport::write(&mut output, &body);
        // Messages written together are flushed together.
        while let (Ok(()), Ok(body)) = (&written, outbox.try_recv()) {
            written = transport::write(&mut output, &body);
        }
        if written.and_then(|()| output.flush()).is_err() {
            closed = true;
            let _ = events.send(Event::OutputClosed);
        }
    }
}

/// What reaches the server's loop.
enum Event {
    /// A message from the client.
    Client(Incoming),
    /// A search of a text's claims came back.
    Searched { job: u64, uri: String, searched: Searched },
    /// Work on a request came back.
    Worked { job: u64, work: Work },
    /// The client closed the server's output.
    OutputClosed,
}

/// What a request's work on another thread gives back.
enum Work {
    Repair(Option<Repaired>),
    Layout(Option<Vec<(crate::record::Span, String)>>),
}

/// A request being worked on, on another thread.
struct Working {
    job: u64,
    id: Value,
    uri: String,
    version: i32,
    stop: Stop,
    /// The quick fixes already found, for a code action.
    fixes: Vec<lsp_types::CodeAction>,
}

/// The search running, and for which text.
struct Running<S> {
    job: u64,
    uri: String,
    search: Search<S>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Uninitialized,
    Running,
    ShutDown,
}

struct Server<S: Games> {
    out: mpsc::SyncSender<Vec<u8>>,
    events: mpsc::Sender<Event>,
    searches: mpsc::Sender<(u64, String, Search<S>)>,
    state: State,
    options: VerifyOptions<S>,
    documents: BTreeMap<String, Document<S>>,
    /// Texts dropped because an edit of them could not be read: their edits are passed over until
    /// they are opened again.
    lost: BTreeSet<String>,
    /// Texts whose diagnostics may have changed.
    dirty: BTreeSet<String>,
    running: Option<Running<S>>,
    working: Vec<Working>,
    next_job: u64,
    /// The text searched last: the next search is of the text after it, in turn.
    searched_last: String,
    /// Whether the input ended.
    ended: bool,
}

impl<S: Games> Server<S> {
    fn new(
        out: mpsc::SyncSender<Vec<u8>>,
        events: mpsc::Sender<Event>,
        searches: mpsc::Sender<(u64, String, Search<S>)>,
        options: VerifyOptions<S>,
    ) -> Server<S> {
        Server {
            out,
            events,
            searches,
            state: State::Uninitialized,
            options,
            documents: BTreeMap::new(),
            lost: BTreeSet::new(),
            dirty: BTreeSet::new(),
            running: None,
            working: Vec::new(),
            next_job: 0,
            searched_last: String::new(),
            ended: false,
        }
    }

    /// Serves until `exit`, the end of the input or a closed output: the exit code.
    fn run(&mut self, inbox: &mpsc::Receiver<Event>) -> u8 {
        let exit = |state| if state == State::ShutDown { 0 } else { 1 };
        loop {
            let Ok(first) = inbox.recv() else { return 1 };
            // What arrived together is handled together; then each text's diagnostics once.
            for event in std::iter::once(first).chain(std::iter::from_fn(|| inbox.try_recv().ok())) {
                match event {
                    Event::Client(Incoming::End) => {
                        self.ended = true;
                        return exit(self.state);
                    }
                    Event::Client(Incoming::Notification { method, .. }) if method == "exit" => {
                        return exit(self.state);
                    }
                    Event::Client(message) => self.handle(message),
                    Event::Searched { job, uri, searched } => self.searched(job, &uri, searched),
                    Event::Worked { job, work } => self.worked(job, work),
                    Event::OutputClosed => {
                        eprintln!("referee lsp: the client closed the server's output");
                        return 1;
                    }
                }
            }
            self.publish();
            self.search_next();
        }
    }

    fn send(&self, message: Value) {
        // A closed output is told by the writer (`Event::OutputClosed`).
        let _ = self.out.send(serde_json::to_vec(&message).unwrap_or_default());
    }

    fn respond(&self, id: Value, result: Result<Value, (i32, String)>) {
        self.send(match result {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err((code, message)) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
        });
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Says something in the editor's log (`kind` 1 error, 2 warning, 3 information) and, for an
    /// error or a warning, to the user.
    fn tell(&self, kind: u8, message: &str) {
        self.notify("window/logMessage", json!({"type": kind, "message": message}));
        if kind <= 2 {
            self.notify("window/showMessage", json!({"type": kind, "message": message}));
        }
    }

    fn handle(&mut self, message: Incoming) {
        match message {
            Incoming::Request { id, method, params } => {
                // What the edits before a request changed is told before its answer.
                self.publish();
                self.request(id, &method, params)
            }
            Incoming::Notification { method, params } => self.notification(&method, params),
            Incoming::Response | Incoming::End => {}
            Incoming::Broken { id, code, message, head } => {
                self.respond(id, Err((code, message.clone())));
                self.notify("window/logMessage", json!({"type": 1, "message": format!("referee: {message}")}));
                self.broken(&message, &head);
            }
        }
    }

    /// A message that could not be read may have been an edit, or a text opened: the text it was
    /// about is out of step with the editor's.
    fn broken(&mut self, why: &str, head: &[u8]) {
        let head = String::from_utf8_lossy(head);
        if head.contains(DidChangeTextDocument::METHOD) {
            let named: Vec<String> = self.documents.keys().filter(|uri| head.contains(uri.as_str())).cloned().collect();
            for uri in named {
                self.lose(&uri, why);
            }
        } else if head.contains(DidOpenTextDocument::METHOD) {
            let uri = uri_in(&head).unwrap_or("a text");
            self.tell(1, &format!("referee could not open {uri}: {why}"));
        }
    }

    /// Drops a text the server can no longer keep in step with the editor, and says so.
    fn lose(&mut self, uri: &str, why: &str) {
        if self.documents.remove(uri).is_none() {
            return;
        }
        self.stop_text(uri);
        self.lost.insert(uri.to_string());
        self.dirty.remove(uri);
        self.notify("textDocument/publishDiagnostics", json!({"uri": uri, "diagnostics": []}));
        self.tell(
            2,
            &format!(
                "referee lost track of {uri} ({why}): its problems are no longer shown; close it and open it again"
            ),
        );
    }

    fn request(&mut self, id: Value, method: &str, params: Value) {
        match (self.state, method) {
            (State::Uninitialized, "initialize") => {
                let result = self.initialize(params);
                self.state = State::Running;
                self.respond(id, Ok(result));
            }
            (State::Uninitialized, _) => {
                self.respond(id, Err((code::SERVER_NOT_INITIALIZED, "the server is not initialized yet".into())))
            }
            (State::ShutDown, _) => self.respond(id, Err((INVALID_REQUEST, "the server is shut down".into()))),
            (State::Running, "initialize") => {
                self.respond(id, Err((INVALID_REQUEST, "the server is initialized already".into())))
            }
            (State::Running, "shutdown") => {
                self.stop_all();
                self.state = State::ShutDown;
                self.respond(id, Ok(Value::Null));
            }
            (State::Running, _) => {
                if let Some(result) = self.answer(id.clone(), method, params) {
                    self.respond(id, result);
                }
            }
        }
    }

    fn initialize(&mut self, params: Value) -> Value {
        if let Ok(params) = serde_json::from_value::<InitializeParams>(params) {
            if let Some(lenient) = lenient_setting(params.initialization_options.as_ref()) {
                self.options.lenient = lenient;
            }
        }
        let capabilities = ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
            hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
            completion_provider: Some(lsp_types::CompletionOptions::default()),
            code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
            document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
            document_formatting_provider: Some(lsp_types::OneOf::Left(true)),
            folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
            ..ServerCapabilities::default()
        };
        json!({"capabilities": capabilities, "serverInfo": {"name": "referee", "version": env!("CARGO_PKG_VERSION")}})
    }

    /// The answer to a request, or `None` when it is worked on elsewhere and answered later.
    fn answer(&mut self, id: Value, method: &str, params: Value) -> Option<Result<Value, (i32, String)>> {
        let value = |v: serde_json::Result<Value>| v.map_err(|e| (code::INVALID_PARAMS, e.to_string()));
        Some(match method {
            HoverRequest::METHOD => self.with_text(params, |p: HoverParams, d, _| {
                value(serde_json::to_value(answers::hover(d, p.text_document_position_params.position)))
            }),
            Completion::METHOD => self.with_text(params, |p: CompletionParams, d, _| {
                value(serde_json::to_value(answers::completion(d, p.text_document_position.position)))
            }),
            DocumentSymbolRequest::METHOD => self.with_text(params, |_: DocumentSymbolParams, d, _| {
                value(serde_json::to_value(DocumentSymbolResponse::Nested(answers::symbols(d))))
            }),
            FoldingRangeRequest::METHOD => self
                .with_text(params, |_: FoldingRangeParams, d, _| value(serde_json::to_value(notes::folding_ranges(d)))),
            CodeActionRequest::METHOD => return self.code_actions(id, params),
            Formatting::METHOD => return self.formatting(id, params),
            method => Err((code::METHOD_NOT_FOUND, format!("referee lsp does not answer {method}"))),
        })
    }

    /// Reads a request's parameters and finds its text, then answers with `work`.
    fn with_text<P: serde::de::DeserializeOwned + HasDocument>(
        &self,
        params: Value,
        work: impl FnOnce(P, &Document<S>, &Uri) -> Result<Value, (i32, String)>,
    ) -> Result<Value, (i32, String)> {
        let params: P = serde_json::from_value(params).map_err(|e| (code::INVALID_PARAMS, e.to_string()))?;
        let uri = params.uri().clone();
        match self.documents.get(uri.as_str()) {
            Some(d) => work(params, d, &uri),
            None => Err((code::INVALID_PARAMS, self.not_open(uri.as_str()))),
        }
    }

    fn not_open(&self, uri: &str) -> String {
        if self.lost.contains(uri) {
            format!("{uri} is out of step with the editor: close it and open it again")
        } else {
            format!("{uri} is not open")
        }
    }

    /// Quick fixes at once; a record's best repair from its cache, or worked out on another thread.
    fn code_actions(&mut self, id: Value, params: Value) -> Option<Result<Value, (i32, String)>> {
        let mut to_repair = None;
        let answered = self.with_text(params, |p: CodeActionParams, d, uri| {
            let (from, to) = (d.offset(p.range.start), d.offset(p.range.end));
            let (fixes, record) = answers::quick_fixes(uri, d, from.min(to), from.max(to));
            let cached = |index| d.repair.as_ref().filter(|(v, i, _)| *v == d.version && *i == index);
            match record {
                Some(index) if cached(index).is_none() => {
                    to_repair = Some((uri.as_str().to_string(), index, fixes));
                    Ok(Value::Null)
                }
                _ => {
                    let repair = record.and_then(|index| cached(index)?.2.clone());
                    Ok(code_action_list(fixes, repair))
                }
            }
        });
        let Some((uri, index, fixes)) = to_repair.filter(|_| answered.is_ok()) else { return Some(answered) };
        let d = &self.documents[&uri];
        let record = d.judged.copy_of(index)?;
        self.work(id, uri, fixes, move |stop| Work::Repair(answers::best_repair(&record, stop)));
        None
    }

    fn formatting(&mut self, id: Value, params: Value) -> Option<Result<Value, (i32, String)>> {
        let mut text = None;
        let answered = self.with_text(params, |_: DocumentFormattingParams, d, uri| {
            text = Some((uri.as_str().to_string(), d.judged.shared_text(), d.judged.options()));
            Ok(Value::Null)
        });
        let Some((uri, text, options)) = text.filter(|_| answered.is_ok()) else { return Some(answered) };
        self.work(id, uri, Vec::new(), move |stop| Work::Layout(crate::layout::layout(&text, options, stop)));
        None
    }

    /// Works on a request on a thread of its own; its answer comes back as [`Event::Worked`].
    fn work(
        &mut self,
        id: Value,
        uri: String,
        fixes: Vec<lsp_types::CodeAction>,
        work: impl FnOnce(&Stop) -> Work + Send + 'static,
    ) {
        let (job, stop) = (self.next_job, Stop::new());
        self.next_job += 1;
        let version = self.documents.get(&uri).map_or(0, |d| d.version);
        let events = self.events.clone();
        let signal = stop.clone();
        let started = std::thread::Builder::new().name("lsp request".into()).spawn(move || {
            let work = work(&signal);
            let _ = events.send(Event::Worked { job, work });
        });
        match started {
            Ok(_) => self.working.push(Working { job, id, uri, version, stop, fixes }),
            Err(e) => self.respond(id, Err((-32603, format!("could not start work on the request: {e}")))),
        }
    }

    /// A request's work came back: answered, if its text is still as it was.
    fn worked(&mut self, job: u64, work: Work) {
        let Some(k) = self.working.iter().position(|w| w.job == job) else { return };
        let w = self.working.remove(k);
        let modified = Err((code::CONTENT_MODIFIED, "the text changed".to_string()));
        let result = match (self.documents.get_mut(&w.uri).filter(|d| d.version == w.version), w.uri.parse::<Uri>()) {
            (Some(d), Ok(uri)) => match work {
                Work::Repair(repaired) => {
                    let action = repaired.as_ref().and_then(|r| answers::repair_action(&uri, d, r));
                    if let Some(r) = &repaired {
                        d.repair = Some((d.version, r.index(), action.clone()));
                    }
                    Ok(code_action_list(w.fixes, action))
                }
                Work::Layout(Some(edits)) => {
                    let edits: Vec<TextEdit> = edits
                        .into_iter()
                        .map(|(span, new_text)| TextEdit { range: d.range(&span), new_text })
                        .collect();
                    Ok(json!(edits))
                }
                Work::Layout(None) => modified,
            },
            _ => modified,
        };
        self.respond(w.id, result);
    }

    fn notification(&mut self, method: &str, params: Value) {
        if self.state != State::Running {
            return;
        }
        match method {
            DidOpenTextDocument::METHOD => match serde_json::from_value::<DidOpenTextDocumentParams>(params) {
                Ok(p) => self.open(p),
                Err(e) => self.tell(1, &format!("referee could not read a text opened: {e}")),
            },
            DidChangeTextDocument::METHOD => {
                let uri = params["textDocument"]["uri"].as_str().map(str::to_string);
                match serde_json::from_value::<DidChangeTextDocumentParams>(params) {
                    Ok(p) => self.change(p),
                    Err(e) => match uri {
                        Some(uri) => self.lose(&uri, &format!("an edit could not be read: {e}")),
                        None => self.tell(1, &format!("referee could not read an edit: {e}")),
                    },
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(params) {
                    let uri = p.text_document.uri.as_str();
                    self.lost.remove(uri);
                    if let Some(d) = self.documents.remove(uri) {
                        self.stop_text(uri);
                        self.dirty.remove(uri);
                        if d.published.is_some_and(|p| !p.is_empty()) {
                            self.notify("textDocument/publishDiagnostics", json!({"uri": uri, "diagnostics": []}));
                        }
                    }
                }
            }
            DidChangeConfiguration::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeConfigurationParams>(params) {
                    self.configure(&p.settings);
                }
            }
            "$/cancelRequest" => {
                let id = &params["id"];
                if let Some(k) = self.working.iter().position(|w| w.id == *id) {
                    let w = self.working.remove(k);
                    w.stop.stop();
                    self.respond(w.id, Err((code::REQUEST_CANCELLED, "cancelled".into())));
                }
            }
            _ => {}
        }
    }

    fn open(&mut self, p: DidOpenTextDocumentParams) {
        let uri = p.text_document.uri.as_str().to_string();
        let text = p.text_document.text;
        self.lost.remove(&uri);
        if text.len() > MAX_DOCUMENT {
            self.documents.remove(&uri);
            self.stop_text(&uri);
            let mib = |n: usize| n as f64 / f64::from(1 << 20);
            self.tell(
                2,
                &format!(
                    "{uri} is {:.0} MiB: referee checks texts of at most {:.0} MiB in the editor; `referee verify` reads any size",
                    mib(text.len()),
                    mib(MAX_DOCUMENT)
                ),
            );
            return;
        }
        self.stop_text(&uri);
        self.documents.insert(uri.clone(), Document::new(text, self.options, p.text_document.version));
        self.dirty.insert(uri);
    }

    fn change(&mut self, p: DidChangeTextDocumentParams) {
        let uri = p.text_document.uri.as_str().to_string();
        let Some(d) = self.documents.get_mut(&uri) else { return };
        for change in p.content_changes {
            let grows = change.text.len().saturating_sub(change.range.map_or(d.text().len(), |_| 0));
            if d.text().len() + grows > MAX_DOCUMENT {
                let why = format!("it grew past {} MiB, the most referee checks in the editor", MAX_DOCUMENT >> 20);
                return self.lose(&uri, &why);
            }
            d.change(change);
        }
        d.version = p.text_document.version;
        self.dirty.insert(uri.clone());
        self.stop_text_work(&uri);
        if self.running.as_ref().is_some_and(|r| r.uri == uri && !self.documents[&uri].judged.wants(&r.search)) {
            self.stop_search();
        }
    }

    fn configure(&mut self, settings: &Value) {
        let Some(lenient) = lenient_setting(Some(settings)) else { return };
        if lenient == self.options.lenient {
            return;
        }
        self.options.lenient = lenient;
        self.stop_all();
        for (uri, d) in &mut self.documents {
            d.judged.set_options(self.options);
            d.repair = None;
            self.dirty.insert(uri.clone());
        }
    }

    /// Stops the work on requests about a text, and answers them `ContentModified`.
    fn stop_text_work(&mut self, uri: &str) {
        let (stopped, going): (Vec<Working>, Vec<Working>) =
            std::mem::take(&mut self.working).into_iter().partition(|w| w.uri == uri);
        self.working = going;
        for w in stopped {
            w.stop.stop();
            self.respond(w.id, Err((code::CONTENT_MODIFIED, "the text changed".into())));
        }
    }

    /// Stops everything under way about a text.
    fn stop_text(&mut self, uri: &str) {
        self.stop_text_work(uri);
        if self.running.as_ref().is_some_and(|r| r.uri == uri) {
            self.stop_search();
        }
    }

    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.search.stop().stop();
        }
    }

    /// Stops every search and every request's work (their answers are not wanted any more).
    fn stop_all(&mut self) {
        self.stop_search();
        for w in std::mem::take(&mut self.working) {
            w.stop.stop();
            self.respond(w.id, Err((code::CONTENT_MODIFIED, "the server stopped the work".into())));
        }
    }

    /// A search came back: its verdict goes in where its record still is as it was.
    fn searched(&mut self, job: u64, uri: &str, searched: Searched) {
        if self.running.as_ref().is_some_and(|r| r.job == job) {
            self.running = None;
        }
        if let Some(d) = self.documents.get_mut(uri) {
            if d.judged.settle(searched) {
                self.dirty.insert(uri.to_string());
            }
        }
    }

    /// Starts the next search, if none runs: of the texts in turn, after the one searched last.
    fn search_next(&mut self) {
        if self.running.is_some() || self.state != State::Running {
            return;
        }
        let after = self
            .documents
            .range::<str, _>((std::ops::Bound::Excluded(self.searched_last.as_str()), std::ops::Bound::Unbounded));
        let mut texts = after.chain(self.documents.iter());
        let Some((uri, search)) = texts.find_map(|(uri, d)| Some((uri.clone(), d.judged.next_search()?))) else {
            return;
        };
        let job = self.next_job;
        self.next_job += 1;
        if self.searches.send((job, uri.clone(), search.clone())).is_ok() {
            self.searched_last = uri.clone();
            self.running = Some(Running { job, uri, search });
        }
    }

    /// Publishes the diagnostics of each text that changed, where they differ from those published.
    fn publish(&mut self) {
        for uri in std::mem::take(&mut self.dirty) {
            let Some(d) = self.documents.get_mut(&uri) else { continue };
            let Ok(parsed) = uri.parse::<Uri>() else { continue };
            let found = answers::diagnostics(&parsed, d);
            if d.published.as_ref() == Some(&found) {
                continue;
            }
            let message = json!({
                "jsonrpc": "2.0",
                "method": "textDocument/publishDiagnostics",
                "params": {"uri": uri, "diagnostics": found, "version": d.version},
            });
            d.published = Some(found);
            self.send(message);
        }
    }
}

/// A code action list: the quick fixes, then the best repair.
fn code_action_list(fixes: Vec<lsp_types::CodeAction>, repair: Option<lsp_types::CodeAction>) -> Value {
    let all: Vec<CodeActionOrCommand> = fixes.into_iter().chain(repair).map(CodeActionOrCommand::CodeAction).collect();
    json!(all)
}

/// The first `"uri": "..."` of a message's text.
fn uri_in(text: &str) -> Option<&str> {
    let at = text.find("\"uri\"")?;
    let rest = text[at + 5..].trim_start().strip_prefix(':')?.trim_start().strip_prefix('"')?;
    Some(&rest[..rest.find('"')?])
}

/// The `lenient` setting in a client's settings: `{"lenient": true}`, or under `referee` as an
/// editor sends its settings (`{"referee": {"lenient": true}}`).
fn lenient_setting(settings: Option<&Value>) -> Option<bool> {
    let settings = settings?;
    settings.get("referee").unwrap_or(settings).get("lenient")?.as_bool()
}

/// The text a request is about.
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

impl HasDocument for FoldingRangeParams {
    fn uri(&self) -> &Uri {
        &self.text_document.uri
    }
}
