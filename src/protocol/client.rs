//! The driver's side of the protocol: an engine started as a process and asked questions, each
//! answer awaited at most a given time. Whatever the engine does (ends, hangs, writes lines that are
//! no answer, floods its output), the driver gets a [`Fault`] saying so and nothing waits for
//! ever: the engine's output is read on a thread of its own, a line at a time and at most
//! [`MAX_ANSWER`] bytes of it, and the engine is killed when its client is dropped.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest answer line read: the legal moves of the largest board fit many times over.
pub const MAX_ANSWER: usize = 4 << 20;

/// The lines of the engine's standard error kept, the last ones, to say why it failed.
const ERROR_LINES: usize = 8;

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It could not be started.
    Start(String),
    /// It did not answer within the time allowed.
    Timeout {
        /// What it was asked.
        asked: String,
        /// The time allowed.
        after: Duration,
    },
    /// It ended (crashed, or quit) while an answer was due.
    Ended {
        /// What it was asked.
        asked: String,
        /// How it ended: `exit status 1`, `signal 11`, or `still running` when only its output
        /// was closed.
        status: String,
        /// The last lines it wrote on standard error.
        stderr: Vec<String>,
    },
    /// It answered something that is no answer to the question.
    Garbage {
        /// What it was asked.
        asked: String,
        /// What it answered (cut to 200 characters).
        answer: String,
        /// What the answer should look like.
        expected: String,
    },
    /// It answered `error …` to a command it must do.
    Refused {
        /// What it was asked.
        asked: String,
        /// Its `error` line, without the word `error`.
        why: String,
    },
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Start(why) => write!(f, "the engine could not be started: {why}"),
            Fault::Timeout { asked, after } => {
                write!(f, "the engine did not answer `{asked}` within {}", seconds(*after))
            }
            Fault::Ended { asked, status, stderr } => {
                write!(f, "the engine ended ({status}) before it answered `{asked}`")?;
                if !stderr.is_empty() {
                    write!(f, "; the last lines of its standard error: {}", stderr.join(" | "))?;
                }
                Ok(())
            }
            Fault::Garbage { asked, answer, expected } => {
                write!(f, "the engine answered `{asked}` with `{answer}`, which is not {expected}")
            }
            Fault::Refused { asked, why } => write!(f, "the engine refused `{asked}`: error {why}"),
        }
    }
}

/// `1.5 s`, `200 ms`.
pub fn seconds(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// A line of the engine's output, or why there is none.
enum Line {
    Text(String),
    /// A line longer than [`MAX_ANSWER`], or not UTF-8: its start.
    Unreadable(String),
}

/// An engine process and its answers.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The name it gave (`id name …`), if any.
    pub name: Option<String>,
    /// The author it gave (`id author …`), if any.
    pub author: Option<String>,
}

impl Client {
    /// Starts `argv` (the program and its arguments) and greets it: `rgp`, answered by any `id`
    /// lines and `rgpok` within `wait`.
    pub fn start(argv: &[String], wait: Duration) -> Result<Client, Fault> {
        let (program, args) = argv.split_first().ok_or_else(|| Fault::Start("no command given".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Fault::Start(format!("{program}: {e}")))?;
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || read_lines(stdout, send));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let kept = Arc::clone(&stderr);
        std::thread::spawn(move || keep_last_lines(stderr_pipe, kept));
        let mut client = Client { stdin: child.stdin.take(), child, lines, stderr, name: None, author: None };
        client.send("rgp")?;
        let deadline = Instant::now() + wait;
        loop {
            let line = client.line("rgp", deadline, wait)?;
            if line == "rgpok" {
                return Ok(client);
            } else if let Some(name) = line.strip_prefix("id name ") {
                client.name = Some(name.trim().to_string());
            } else if let Some(author) = line.strip_prefix("id author ") {
                client.author = Some(author.trim().to_string());
            } else if line.starts_with("id ") {
                // Other `id` lines are allowed, and passed over.
            } else {
                return Err(client.garbage("rgp", &line, "`id …` or `rgpok`"));
            }
        }
    }

    /// Writes one command line.
    pub fn send(&mut self, command: &str) -> Result<(), Fault> {
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{command}").and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|_| self.ended(command))
    }

    /// The next line the engine writes, awaited until `deadline`.
    pub fn line(&mut self, asked: &str, deadline: Instant, wait: Duration) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Line::Text(text)) => Ok(text),
            Ok(Line::Unreadable(start)) => Err(self.garbage(asked, &start, "a line of UTF-8 text of at most 4 MiB")),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout { asked: asked.to_string(), after: wait }),
            Err(RecvTimeoutError::Disconnected) => Err(self.ended(asked)),
        }
    }

    /// Asks `command` and reads its one-line answer within `wait`: an `error` line is
    /// [`Fault::Refused`].
    pub fn ask(&mut self, command: &str, wait: Duration) -> Result<String, Fault> {
        self.send(command)?;
        let line = self.line(command, Instant::now() + wait, wait)?;
        match line.strip_prefix("error") {
            Some(why) if why.is_empty() || why.starts_with(' ') => {
                Err(Fault::Refused { asked: command.to_string(), why: why.trim().to_string() })
            }
            _ => Ok(line),
        }
    }

    /// Sets the position (`position …`, which has no answer) and waits for `readyok`: the
    /// engine's `error` line comes before it when the position is refused.
    pub fn position(&mut self, position: &str, wait: Duration) -> Result<(), Fault> {
        let command = format!("position {position}");
        self.send(&command)?;
        let answer = self.ask("isready", wait).map_err(|f| match f {
            Fault::Refused { why, .. } => Fault::Refused { asked: command.clone(), why },
            other => other,
        })?;
        if answer == "readyok" {
            Ok(())
        } else {
            Err(self.garbage(&command, &answer, "no answer (then `readyok` to `isready`)"))
        }
    }

    /// The engine's legal moves of the position set, as answered: `moves M1 M2 …`.
    pub fn moves(&mut self, wait: Duration) -> Result<Vec<String>, Fault> {
        let answer = self.ask("moves", wait)?;
        match answer.strip_prefix("moves") {
            Some(rest) if rest.is_empty() || rest.starts_with(' ') => {
                Ok(rest.split_whitespace().map(str::to_string).collect())
            }
            _ => Err(self.garbage("moves", &answer, "`moves …`")),
        }
    }

    /// The engine's perft count at `depth`.
    pub fn perft(&mut self, depth: u32, wait: Duration) -> Result<u64, Fault> {
        let asked = format!("perft {depth}");
        let answer = self.ask(&asked, wait)?;
        let count = answer.strip_prefix(&format!("perft {depth} ")).and_then(|n| n.trim().parse::<u64>().ok());
        count.ok_or_else(|| self.garbage(&asked, &answer, &format!("`perft {depth} COUNT`")))
    }

    /// The engine's divide at `depth`: each move with its count, until `divideok`.
    pub fn divide(&mut self, depth: u32, wait: Duration) -> Result<Vec<(String, u64)>, Fault> {
        let asked = format!("divide {depth}");
        self.send(&asked)?;
        let deadline = Instant::now() + wait;
        let mut split = Vec::new();
        loop {
            let line = self.line(&asked, deadline, wait)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["divide", m, n] if n.parse::<u64>().is_ok() => split.push((m.to_string(), n.parse().unwrap_or(0))),
                ["divideok", d, _] if *d == depth.to_string() => return Ok(split),
                ["error", ..] if split.is_empty() => {
                    return Err(Fault::Refused { asked, why: line["error".len()..].trim().to_string() })
                }
                _ => return Err(self.garbage(&asked, &line, "`divide MOVE COUNT` or `divideok DEPTH TOTAL`")),
            }
        }
    }

    /// The move the engine plays (`go movetime MS` answered `bestmove M`), within `wait`.
    pub fn go(&mut self, movetime: Duration, wait: Duration) -> Result<String, Fault> {
        let asked = format!("go movetime {}", movetime.as_millis());
        let answer = self.ask(&asked, wait)?;
        let words: Vec<&str> = answer.split_whitespace().collect();
        match words.as_slice() {
            ["bestmove", m] => Ok(m.to_string()),
            _ => Err(self.garbage(&asked, &answer, "`bestmove MOVE`")),
        }
    }

    /// The engine's result of the position set: `result R`.
    pub fn result(&mut self, wait: Duration) -> Result<String, Fault> {
        let answer = self.ask("result", wait)?;
        let words: Vec<&str> = answer.split_whitespace().collect();
        match words.as_slice() {
            ["result", r] => Ok(r.to_string()),
            _ => Err(self.garbage("result", &answer, "`result R`")),
        }
    }

    fn garbage(&self, asked: &str, answer: &str, expected: &str) -> Fault {
        let mut shown: String = answer.chars().take(200).collect();
        if shown.len() < answer.len() {
            shown.push('…');
        }
        Fault::Garbage { asked: asked.to_string(), answer: shown, expected: expected.to_string() }
    }

    /// Why the engine's pipes closed: how it ended, and its last words on standard error.
    fn ended(&mut self, asked: &str) -> Fault {
        // Its output closed: it has ended or is about to; a moment for it to go.
        let mut status = None;
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let status = status.map_or_else(|| "still running, its output closed".to_string(), exit_words);
        // The thread that reads its standard error takes the last lines as the pipe closes.
        std::thread::sleep(Duration::from_millis(20));
        let stderr = self.stderr.lock().map(|l| l.iter().cloned().collect()).unwrap_or_default();
        Fault::Ended { asked: asked.to_string(), status, stderr }
    }
}

impl Drop for Client {
    /// `quit`, then the process is killed if it is still there: a client dropped leaves no
    /// process behind.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `exit status 1`, `signal 11`.
fn exit_words(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => "no exit status".to_string(),
    }
}

/// Reads the engine's output a line at a time, each line at most [`MAX_ANSWER`] bytes (the rest of
/// a longer line read and dropped), until it closes or nobody listens.
fn read_lines(stdout: impl Read, send: mpsc::Sender<Line>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        let Ok(read) = reader.by_ref().take(MAX_ANSWER as u64).read_until(b'\n', &mut line) else { return };
        if read == 0 {
            return;
        }
        let answer = if line.last() != Some(&b'\n') && read == MAX_ANSWER {
            let start = String::from_utf8_lossy(&line[..200]).into_owned();
            let mut rest = Vec::new();
            while matches!(reader.by_ref().take(MAX_ANSWER as u64).read_until(b'\n', &mut rest), Ok(n) if n > 0)
                && rest.last() != Some(&b'\n')
            {
                rest.clear();
            }
            Line::Unreadable(start + "…")
        } else {
            while matches!(line.last(), Some(b'\n' | b'\r')) {
                line.pop();
            }
            match String::from_utf8(std::mem::take(&mut line)) {
                Ok(text) => Line::Text(text),
                Err(e) => Line::Unreadable(String::from_utf8_lossy(e.as_bytes()).chars().take(200).collect()),
            }
        };
        if send.send(answer).is_err() {
            return;
        }
    }
}

/// Keeps the last [`ERROR_LINES`] lines of the engine's standard error (each cut to 300 bytes).
fn keep_last_lines(stderr: impl Read, kept: Arc<Mutex<VecDeque<String>>>) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.by_ref().take(64 << 10).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let text: String = String::from_utf8_lossy(&line).trim_end().chars().take(300).collect();
        if text.is_empty() {
            continue;
        }
        if let Ok(mut kept) = kept.lock() {
            if kept.len() == ERROR_LINES {
                kept.pop_front();
            }
            kept.push_back(text);
        }
    }
}
