//! The protocol's framing on a byte stream (LSP's base protocol: headers, of which
//! `Content-Length` counts the bytes of a JSON body), read so that no input can end the server,
//! stall it or make it hold more than [`MAX_MESSAGE`] bytes of one message.
//!
//! Whatever arrives becomes one [`Incoming`]: a request, a notification, a response, or a broken
//! message with the error to answer it with (the JSON-RPC codes: -32700 for a body that is not
//! JSON, -32600 for JSON that is no message). After a broken message the reader finds the next
//! message by its `Content-Length` header, wherever it stands: a body shorter or longer than its
//! header said, or text where a header should be, costs the messages it garbles and no more.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read, Write};

use serde_json::{Map, Value};

/// Most bytes of one message's body: a message that says it is longer is skipped, read in pieces
/// and let go of, and answered with an error. A text of [`super::MAX_DOCUMENT`] bytes fits,
/// written as JSON, even one of line breaks only (each written `\n`, two bytes).
pub const MAX_MESSAGE: usize = 160 << 20;

/// Most bytes of one header line: a longer line is no header, and is skipped.
const MAX_HEADER_LINE: usize = 8 << 10;

/// Bytes of a broken message kept to tell which document it was about.
const HEAD: usize = 4 << 10;

/// A message from the client, as far as it could be read.
#[derive(Debug)]
pub enum Incoming {
    /// A request: it must be answered, with its id.
    Request {
        /// A number or a string, as the client wrote it.
        id: Value,
        /// What is asked.
        method: String,
        /// Its parameters (`null` when there are none).
        params: Value,
    },
    /// A notification: it is not answered.
    Notification {
        /// What it tells.
        method: String,
        /// Its parameters (`null` when there are none).
        params: Value,
    },
    /// A response to a request of the server's: the server asks nothing that waits for one.
    Response,
    /// A message that could not be read, and the error to answer it with.
    Broken {
        /// The id to answer with: the message's own when it could be read, else `null`.
        id: Value,
        /// The JSON-RPC error code.
        code: i32,
        /// What was wrong.
        message: String,
        /// The start of its body, to tell which document it was about.
        head: Vec<u8>,
    },
    /// The input ended (or could not be read any more).
    End,
}

/// JSON-RPC's code for a body that is not JSON.
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's code for JSON that is no message.
pub const INVALID_REQUEST: i32 = -32600;

fn broken(code: i32, message: String, head: &[u8]) -> Incoming {
    Incoming::Broken { id: Value::Null, code, message, head: head[..head.len().min(HEAD)].to_vec() }
}

/// Reads messages from a stream of bytes.
pub struct Reader<R> {
    input: io::BufReader<R>,
    /// Bytes read already that belong to the messages to come (a body that said it was longer
    /// than it was swallowed the start of the next message), read again first.
    again: VecDeque<u8>,
    /// Why the last message was refused by its headers: what is skipped next is its body.
    refused: Option<String>,
}

/// What the headers of a message said.
enum Headers {
    /// The body's length.
    Length(usize),
    /// A length past [`MAX_MESSAGE`], or one that is no number.
    Refused(String),
    /// No `Content-Length` among them.
    Missing,
    /// Lines that are no headers, up to the next `Content-Length` header or the end: how many
    /// bytes, and the first of them.
    Skipped(usize, Vec<u8>),
    End,
}

/// A line of input without its line end: its first [`MAX_HEADER_LINE`] bytes, and its last
/// [`TAIL`] when it is longer (where a header glued to a garbled body stands).
struct Line {
    head: Vec<u8>,
    tail: Vec<u8>,
    size: usize,
}

/// Bytes of a long line's end kept: enough for a `Content-Length` header.
const TAIL: usize = 64;

impl Line {
    fn push(&mut self, run: &[u8]) {
        let room = MAX_HEADER_LINE.saturating_sub(self.head.len());
        self.head.extend_from_slice(&run[..run.len().min(room)]);
        self.size += run.len();
        if self.size > self.head.len() {
            self.tail.extend_from_slice(&run[run.len().saturating_sub(TAIL)..]);
            let over = self.tail.len().saturating_sub(TAIL);
            self.tail.drain(..over);
        }
    }

    fn is_whole(&self) -> bool {
        self.size == self.head.len()
    }

    /// Where a `Content-Length` header starts in the line, and the header from there on.
    fn header(&self) -> Option<(usize, &[u8])> {
        if let Some(at) = find_ascii_lowercase(&self.head, b"content-length:") {
            return Some((at, &self.head[at..]));
        }
        let at = find_ascii_lowercase(&self.tail, b"content-length:")?;
        Some((self.size - self.tail.len() + at, &self.tail[at..]))
    }
}

impl<R: Read> Reader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> Reader<R> {
        Reader { input: io::BufReader::with_capacity(64 << 10, input), again: VecDeque::new(), refused: None }
    }

    /// The next message, or [`Incoming::End`] when the input ends.
    pub fn read(&mut self) -> Incoming {
        let refused = self.refused.take();
        match self.headers() {
            Headers::End => Incoming::End,
            Headers::Missing => broken(
                INVALID_REQUEST,
                "a message without a Content-Length header: skipped up to the next header".into(),
                &[],
            ),
            Headers::Refused(why) => {
                self.refused = Some(why.clone());
                broken(INVALID_REQUEST, why, &[])
            }
            // The body of a message refused by its headers: the refusal is said again, with what
            // the body held (which tells what it was about).
            Headers::Skipped(n, head) => match refused {
                Some(why) => broken(INVALID_REQUEST, format!("{why}; its body was skipped"), &head),
                None => broken(
                    PARSE_ERROR,
                    format!("{n} bytes that are no message (a Content-Length header was expected) were skipped"),
                    &head,
                ),
            },
            Headers::Length(length) => match self.body(length) {
                Some(body) => self.message(body),
                None => Incoming::End,
            },
        }
    }

    /// Puts `bytes` back before what is still to read.
    fn give_back(&mut self, bytes: &[u8]) {
        for &b in bytes.iter().rev() {
            self.again.push_front(b);
        }
    }

    /// The next line (see [`Line`]), `None` at the end of the input. A line ends at `\n`; a `\r`
    /// before it is no part of it.
    fn line(&mut self) -> Option<Line> {
        let mut line = Line { head: Vec::new(), tail: Vec::new(), size: 0 };
        loop {
            if let Some(b) = self.again.pop_front() {
                if b == b'\n' {
                    break;
                }
                line.push(&[b]);
                continue;
            }
            // Whole runs of the buffer at once: a gigabyte without a line break is read at the
            // speed of a search for one.
            let buffer = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if buffer.is_empty() {
                return (line.size > 0).then_some(line);
            }
            let end = memchr::memchr(b'\n', buffer);
            line.push(&buffer[..end.unwrap_or(buffer.len())]);
            let taken = end.map_or(buffer.len(), |e| e + 1);
            self.input.consume(taken);
            if end.is_some() {
                break;
            }
        }
        if line.is_whole() && line.head.last() == Some(&b'\r') {
            line.head.pop();
            line.size -= 1;
        }
        Some(line)
    }

    /// Reads a message's headers. A header line ends at `\r\n` as the protocol says, or at `\n`,
    /// as some clients write it; blank lines before the headers are passed over. Lines that are no
    /// headers are skipped up to the next `Content-Length` header, even one glued to their end.
    fn headers(&mut self) -> Headers {
        let mut length: Option<Result<usize, String>> = None;
        let mut any = false;
        let (mut skipped, mut head) = (0, Vec::new());
        loop {
            let Some(line) = self.line() else {
                return if skipped > 0 { Headers::Skipped(skipped, head) } else { Headers::End };
            };
            if line.size == 0 {
                if any {
                    return match length {
                        Some(Ok(n)) => Headers::Length(n),
                        Some(Err(why)) => Headers::Refused(why),
                        None => Headers::Missing,
                    };
                }
                skipped += usize::from(skipped > 0);
                continue;
            }
            if let Some((at, header)) = line.header().filter(|&(at, _)| at > 0 || skipped > 0) {
                // What came before the header is skipped; the header is read again, as the start
                // of the next message.
                let header = [header, b"\n"].concat();
                head.extend_from_slice(&line.head[..at.min(line.head.len())]);
                self.give_back(&header);
                return Headers::Skipped(skipped + at.max(1), head);
            }
            match split_header(&line.head).filter(|_| line.is_whole() && skipped == 0) {
                Some((name, value)) => {
                    any = true;
                    if name.eq_ignore_ascii_case("content-length") {
                        length = Some(parse_length(value));
                    }
                }
                None => {
                    skipped += line.size + 1;
                    if head.len() < HEAD {
                        head.extend_from_slice(&line.head);
                        head.push(b'\n');
                    }
                    if any {
                        return Headers::Skipped(skipped, head);
                    }
                }
            }
        }
    }

    /// The body of `length` bytes, read as it comes (a length the input never fills costs only
    /// what arrived); `None` when the input ends first.
    fn body(&mut self, length: usize) -> Option<Vec<u8>> {
        let again = self.again.len().min(length);
        let mut body: Vec<u8> = self.again.drain(..again).collect();
        (&mut self.input).take((length - again) as u64).read_to_end(&mut body).ok()?;
        (body.len() == length).then_some(body)
    }

    /// The message a body holds. A body that holds more than one JSON value said it was longer
    /// than it is: it swallowed the start of what follows, which is read again.
    fn message(&mut self, body: Vec<u8>) -> Incoming {
        match parse(&body) {
            Ok((value, end)) => {
                if !body[end..].trim_ascii().is_empty() {
                    self.give_back(&body[end..]);
                }
                classify(value, &body[..end])
            }
            Err(e) => broken(PARSE_ERROR, format!("the message is not JSON: {e}"), &body),
        }
    }
}

/// The first JSON value of a body, and where it ends. A lone UTF-16 surrogate escape
/// (`"\ud83d"`, half of a character an editor cut in two) is no character, and JSON readers refuse
/// it: it is read as U+FFFD, one code unit as it was, so that the text's positions stay those of
/// the editor.
fn parse(body: &[u8]) -> serde_json::Result<(Value, usize)> {
    let first = |body: &[u8]| {
        let mut values = serde_json::Deserializer::from_slice(body).into_iter::<Value>();
        match values.next() {
            Some(Ok(value)) => Ok((value, values.byte_offset())),
            Some(Err(e)) => Err(e),
            None => serde_json::from_slice::<Value>(body).map(|v| (v, body.len())),
        }
    };
    match first(body) {
        Err(e) => {
            let replaced = replace_lone_surrogates(body);
            if replaced == body {
                return Err(e);
            }
            first(&replaced).or(Err(e))
        }
        read => read,
    }
}

/// `body` with every `\uD800`–`\uDFFF` escape that is not half of a pair replaced by `\uFFFD`
/// (six bytes each, as before).
fn replace_lone_surrogates(body: &[u8]) -> Vec<u8> {
    let mut out = body.to_vec();
    let hex = |at: usize| -> Option<u16> {
        let digits = std::str::from_utf8(body.get(at..at + 4)?).ok()?;
        u16::from_str_radix(digits, 16).ok()
    };
    let escape_at = |at: usize| body.get(at) == Some(&b'\\') && body.get(at + 1) == Some(&b'u');
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'\\' {
            i += 1;
            continue;
        }
        if body.get(i + 1) != Some(&b'u') {
            i += 2;
            continue;
        }
        let Some(unit) = hex(i + 2) else {
            i += 2;
            continue;
        };
        let low = |at: usize| escape_at(at) && hex(at + 2).is_some_and(|u| (0xDC00..0xE000).contains(&u));
        match unit {
            0xD800..0xDC00 if low(i + 6) => i += 12,
            0xD800..0xE000 => {
                out[i + 2..i + 6].copy_from_slice(b"FFFD");
                i += 6;
            }
            _ => i += 6,
        }
    }
    out
}

/// The message a JSON value is, by JSON-RPC 2.0's shapes.
fn classify(value: Value, body: &[u8]) -> Incoming {
    let mut object: Map<String, Value> = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return broken(
                INVALID_REQUEST,
                "a batch of messages: the Language Server Protocol sends them one at a time".into(),
                body,
            )
        }
        _ => return broken(INVALID_REQUEST, "the message is no JSON object".into(), body),
    };
    let id = object.remove("id");
    let params = object.remove("params").unwrap_or(Value::Null);
    let refuse = |id: Option<Value>, why: &str| {
        let id = id.filter(|i| i.is_number() || i.is_string()).unwrap_or(Value::Null);
        Incoming::Broken { id, code: INVALID_REQUEST, message: why.into(), head: body[..body.len().min(HEAD)].to_vec() }
    };
    match (object.remove("method"), id) {
        (Some(Value::String(method)), None) => Incoming::Notification { method, params },
        (Some(Value::String(method)), Some(id)) if id.is_number() || id.is_string() => {
            Incoming::Request { id, method, params }
        }
        (Some(Value::String(_)), Some(_)) => refuse(None, "a request's id must be a number or a string"),
        (Some(_), id) => refuse(id, "a message's method must be a string"),
        (None, Some(id)) if object.contains_key("result") || object.contains_key("error") => {
            let _ = id;
            Incoming::Response
        }
        (None, id) => refuse(id, "a message with no method is neither a request nor a notification"),
    }
}

/// A header line's name and value (`Name: value`, spaces around the value trimmed).
fn split_header(line: &[u8]) -> Option<(&str, &str)> {
    let line = std::str::from_utf8(line).ok()?;
    let (name, value) = line.split_once(':')?;
    let token = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    token.then_some((name, value.trim()))
}

/// A `Content-Length` value: a number of bytes up to [`MAX_MESSAGE`].
fn parse_length(value: &str) -> Result<usize, String> {
    match value.parse::<u64>() {
        Ok(n) if n <= MAX_MESSAGE as u64 => Ok(n as usize),
        Ok(n) => Err(format!("a message of {n} bytes: referee reads messages of at most {} MiB", MAX_MESSAGE >> 20)),
        Err(_) => Err(format!("Content-Length `{value}` is no number of bytes")),
    }
}

/// Where `needle` (lower case) first stands in `haystack`, whatever the case of its letters.
fn find_ascii_lowercase(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// Writes one message, framed.
pub fn write(out: &mut impl Write, body: &[u8]) -> io::Result<()> {
    write!(out, "Content-Length: {}\r\n\r\n", body.len())?;
    out.write_all(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8]) -> Vec<Incoming> {
        let mut reader = Reader::new(input);
        let mut all = Vec::new();
        loop {
            match reader.read() {
                Incoming::End => return all,
                m => all.push(m),
            }
        }
    }

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const HOVER: &str = r#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{}}"#;

    fn is_hover(m: &Incoming) -> bool {
        matches!(m, Incoming::Request { id, method, .. } if *id == 7 && method == "textDocument/hover")
    }

    fn codes(all: &[Incoming]) -> Vec<i32> {
        all.iter().filter_map(|m| if let Incoming::Broken { code, .. } = m { Some(*code) } else { None }).collect()
    }

    /// Each kind of broken message is one error, and the message after it reads.
    #[test]
    fn after_any_broken_message_the_next_one_reads() {
        let cases: Vec<(&str, String, Vec<i32>)> = vec![
            ("truncated JSON", framed(r#"{"jsonrpc":"2.0","id":1,"#), vec![PARSE_ERROR]),
            ("a batch", framed(&format!("[{HOVER}]")), vec![INVALID_REQUEST]),
            ("no Content-Length", format!("Content-Type: x\r\n\r\n{HOVER}"), vec![INVALID_REQUEST, PARSE_ERROR]),
            ("a length too short", format!("Content-Length: 10\r\n\r\n{HOVER}"), vec![PARSE_ERROR, PARSE_ERROR]),
            (
                "a huge length",
                format!("Content-Length: 18446744073709551615\r\n\r\n{HOVER}"),
                vec![INVALID_REQUEST, INVALID_REQUEST],
            ),
            (
                "a length past any number",
                "Content-Length: 99999999999999999999999\r\n\r\n{}".into(),
                vec![INVALID_REQUEST, INVALID_REQUEST],
            ),
            ("noise", "GET / HTTP/1.1\r\nHost: x\r\n\r\n".into(), vec![PARSE_ERROR]),
            ("an id of null", framed(r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#), vec![INVALID_REQUEST]),
            ("a method that is no string", framed(r#"{"id":3,"method":4}"#), vec![INVALID_REQUEST]),
            ("a number", framed("12"), vec![INVALID_REQUEST]),
            ("deep nesting", framed(&format!("{}{}", "[".repeat(5000), "]".repeat(5000))), vec![PARSE_ERROR]),
        ];
        let not_utf8 = [b"Content-Length: 9\r\n\r\n\"\xff\xfe\xfd\"\xc3".as_slice(), b"  \r\n"].concat();
        let cases = cases.into_iter().map(|(what, input, codes)| (what, input.into_bytes(), codes));
        for (what, broken, expected) in cases.chain([("not UTF-8", not_utf8, vec![PARSE_ERROR])]) {
            let input = [broken, framed(HOVER).into_bytes()].concat();
            let all = read_all(&input);
            assert_eq!(codes(&all), expected, "{what}: {all:?}");
            assert!(all.last().is_some_and(is_hover), "{what}: {all:?}");
        }
    }

    /// A length too long takes the start of the next message into the body: the message reads,
    /// and so does the next.
    #[test]
    fn a_body_longer_than_its_message_gives_the_rest_back() {
        for more in [1, 9, 20, 40] {
            let input = format!("Content-Length: {}\r\n\r\n{HOVER}{}", HOVER.len() + more, framed(HOVER));
            let all = read_all(input.as_bytes());
            assert!(all.len() == 2 && all.iter().all(is_hover), "{more}: {all:?}");
        }
    }

    #[test]
    fn lf_only_headers_and_blank_lines_before_them_read() {
        let input =
            format!("\r\n\nContent-Length: {}\n\n{HOVER}content-length:{}\r\n\r\n{HOVER}", HOVER.len(), HOVER.len());
        let all = read_all(input.as_bytes());
        assert!(all.len() == 2 && all.iter().all(is_hover), "{all:?}");
    }

    #[test]
    fn a_lone_surrogate_reads_as_a_replacement_character_of_one_code_unit() {
        let body = r#"{"method":"m","params":{"text":"a\ud83db\\ud83d\ud83d\ude00\udc00"}}"#;
        let all = read_all(framed(body).as_bytes());
        let [Incoming::Notification { params, .. }] = all.as_slice() else { panic!("{all:?}") };
        assert_eq!(params["text"], "a\u{fffd}b\\ud83d😀\u{fffd}");
    }

    /// A header that says 2 GB, with no body after it: nothing is held for it.
    #[test]
    fn a_length_with_no_body_ends_with_the_input() {
        let all = read_all(b"Content-Length: 2000000000\r\n\r\n");
        assert_eq!(codes(&all), [INVALID_REQUEST]);
        let all = read_all(b"Content-Length: 200000\r\n\r\n{\"id\":1");
        assert!(all.is_empty(), "{all:?}");
    }

    #[test]
    fn responses_and_notifications_read_as_such() {
        let input = format!("{}{}", framed(r#"{"id":"a","result":null}"#), framed(r#"{"method":"exit"}"#));
        let all = read_all(input.as_bytes());
        assert!(
            matches!(all.as_slice(), [Incoming::Response, Incoming::Notification { method, .. }] if method == "exit")
        );
    }
}
