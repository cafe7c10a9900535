//! A client of the real `referee lsp` process, as an editor drives it: JSON-RPC over its pipes.
//! Shared by the language server's tests.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

pub struct Client {
    pub stdin: ChildStdin,
    pub stdout: BufReader<ChildStdout>,
    pub next_id: i64,
    /// The diagnostics last published for each text.
    pub published: HashMap<String, Vec<Value>>,
}

impl Client {
    pub fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the server closed its output");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).unwrap();
        let message: Value = serde_json::from_slice(&body).unwrap();
        if message["method"] == "textDocument/publishDiagnostics" {
            let uri = message["params"]["uri"].as_str().unwrap().to_string();
            self.published.insert(uri, message["params"]["diagnostics"].as_array().unwrap().clone());
        }
        message
    }

    /// Sends a request and returns its response (notifications on the way are passed over).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Opens a text as an editor does, and gives the diagnostics the server publishes for it.
    pub fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "referee", "version": 1, "text": text}}),
        );
        self.diagnostics(uri)
    }

    /// The diagnostics of a text once the server has read all that was sent: it publishes a text's
    /// diagnostics when they change, before it answers the next request (here one it does not
    /// know, answered at once).
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let answer = self.request("referee/nothing", Value::Null);
        assert_eq!(answer["error"]["code"], -32601, "{answer}");
        self.published.get(uri).cloned().unwrap_or_default()
    }
}

/// A client of a new `referee lsp` process, initialized.
pub fn start() -> (Child, Client) {
    start_with(Value::Null)
}

/// A new `referee lsp` process, its input and output piped, its standard error to `stderr`.
pub fn server(stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap()
}

/// The same, the server given `options` as the client's initialization options (its settings).
pub fn start_with(options: Value) -> (Child, Client) {
    let mut child = server(Stdio::null());
    let mut client = Client {
        stdin: child.stdin.take().unwrap(),
        stdout: BufReader::new(child.stdout.take().unwrap()),
        next_id: 0,
        published: HashMap::new(),
    };
    let init = client.request("initialize", json!({"capabilities": {}, "initializationOptions": options}));
    assert_eq!(init["result"]["capabilities"]["hoverProvider"], json!(true), "{init}");
    client.notify("initialized", json!({}));
    (child, client)
}

/// The protocol position of byte `at` of an ASCII text: line and column from 0.
pub fn place(text: &str, at: usize) -> Value {
    let line = text[..at].matches('\n').count();
    let character = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": character})
}

/// Shuts the server down as an editor does: it answers, then exits with 0.
pub fn stop(mut child: Child, mut client: Client) {
    let shutdown = client.request("shutdown", Value::Null);
    assert!(shutdown.get("error").is_none(), "{shutdown}");
    client.notify("exit", Value::Null);
    drop(client);
    assert!(child.wait().unwrap().success());
}

impl Client {
    /// Sends bytes as they are: a message framed wrong, or no message at all.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next message `wanted` picks (the others on the way are passed over).
    pub fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.receive();
            if wanted(&message) {
                return message;
            }
        }
    }
}

/// A message framed as the protocol says.
pub fn framed(body: &[u8]) -> Vec<u8> {
    [format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes(), body].concat()
}
