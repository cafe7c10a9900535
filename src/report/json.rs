//! JSON lines: one object per record, its fields in the documented order (the README's table).

use serde::Serialize;

use super::{status_name, FileProblem, Source};
use crate::verdict::{ClaimCheck, ClaimKind, Problem, ProblemKind, Unchecked, Verdict};

/// The version of the objects' layout: raised when a field changes meaning or goes away, or a
/// field gains a value (2: the status `refuted`).
pub const SCHEMA: u32 = 3;

#[derive(Serialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum ErrorKind {
    Syntax,
    Illegal,
    Claim,
    Undecided,
    /// The file could not be read, or holds no record.
    Input,
}

impl ErrorKind {
    /// The kind as the line writes it (serde's name for it: `tests::names_are_serde_names`).
    fn name(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Illegal => "illegal",
            ErrorKind::Claim => "claim",
            ErrorKind::Undecided => "undecided",
            ErrorKind::Input => "input",
        }
    }
}

impl From<ProblemKind> for ErrorKind {
    fn from(k: ProblemKind) -> Self {
        match k {
            ProblemKind::Syntax => ErrorKind::Syntax,
            ProblemKind::Illegal => ErrorKind::Illegal,
            ProblemKind::Claim => ErrorKind::Claim,
            ProblemKind::Undecided => ErrorKind::Undecided,
        }
    }
}

#[derive(Serialize)]
pub(super) struct ClaimItem<'a> {
    kind: ClaimKind,
    text: &'a str,
    status: &'static str,
    reason: Option<Unchecked>,
    line: usize,
    column: usize,
    detail: &'a str,
    /// Only for a claim judged against a lenient replay past violations: how many.
    #[serde(skip_serializing_if = "is_zero")]
    violations_accepted: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

pub(super) fn to_line<T: Serialize>(value: &T) -> String {
    // A record's line is most often under a kilobyte: growing an empty buffer to that size a few
    // bytes at a time cost more than writing it (issue 20's profile).
    let mut line = Vec::with_capacity(LINE_CAPACITY);
    // Our types have string keys and no failing Serialize impl: this cannot fail, but a report
    // never panics.
    match value.serialize(&mut serde_json::Serializer::with_formatter(&mut line, Escaping)) {
        Ok(()) => String::from_utf8(line).unwrap_or_default(),
        Err(e) => format!("{{\"schema\":{SCHEMA},\"error\":\"{e}\"}}"),
    }
}

/// The bytes a line's buffer starts with.
const LINE_CAPACITY: usize = 1024;

/// serde_json's compact layout, with every [hidden](super::is_hidden) character of a string
/// written as a `\uXXXX` escape, as serde_json writes the control characters below U+0020: the
/// value a program reads is the same, and a line shown on a terminal shows them.
struct Escaping;

impl serde_json::ser::Formatter for Escaping {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        if !super::has_hidden(fragment) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut rest = fragment;
        while let Some(at) = rest.find(super::is_hidden) {
            writer.write_all(&rest.as_bytes()[..at])?;
            let c = rest[at..].chars().next().unwrap_or_default();
            // Every hidden character is in the Basic Multilingual Plane: one escape each.
            write!(writer, "\\u{:04x}", u32::from(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

impl<'a> ClaimItem<'a> {
    pub(super) fn of(c: &'a ClaimCheck, (line, column): (usize, usize)) -> Self {
        let (text, detail) = (&c.text, &c.detail);
        ClaimItem {
            kind: c.kind,
            text,
            status: c.status.name(),
            reason: c.status.reason(),
            line,
            column,
            detail,
            violations_accepted: c.violations_accepted,
        }
    }
}

/// One JSON object for a record, on one line.
///
/// Written by hand, field after field, into one buffer: every record of a file has its line, and
/// serde's writer scanned each string twice (for its escapes and for hidden characters) and grew
/// its buffer as it went. `tests::lines_are_written_as_serde_writes_them` holds the two alike.
pub fn json_line(source: &Source, v: &Verdict) -> String {
    let mut out = String::with_capacity(LINE_CAPACITY);
    let illegal = v.problems.iter().position(|p| p.kind == ProblemKind::Illegal && p.variation.is_none());
    let mut line = Obj::open(&mut out);
    line.head(source.name(), v.index, Some(source.line_col(v.span.start).0), v.game.map(|g| g.name));
    line.key("status").str(status_name(v.status));
    line.key("moves").num(v.moves);
    line.key("game_over").bool(v.game_over);
    line.key("winner").opt_str(v.winner.as_deref());
    line.key("score").points(&v.score);
    if let Some(s) = &v.score_with_stones {
        line.key("score_with_stones").points(s);
    }
    line.key("position").opt_str(v.position.as_deref());
    line.key("errors").list(v.problems.iter().enumerate(), |out, (i, p)| {
        let alternatives = if Some(i) == illegal { &v.alternatives[..] } else { &[] };
        error_item(out, p, source, alternatives)
    });
    line.key("claims").list(v.claims.iter(), |out, c| claim_item(out, c, source.line_col(c.span.start)));
    line.key("notes").list(v.notes.iter(), |out, n| Val(out).str(n));
    line.close();
    out
}

/// One JSON object for a file that could not be read or holds no record: index 0, one error of
/// kind `input`.
pub fn file_json_line(p: &FileProblem) -> String {
    let mut out = String::with_capacity(LINE_CAPACITY);
    let (line, column) = p.at.unzip();
    let mut o = Obj::open(&mut out);
    o.head(&p.file, 0, line, None);
    o.key("status").str(p.status.name());
    o.key("moves").num(0);
    o.key("game_over").bool(false);
    o.key("winner").null();
    o.key("score").points(&[]);
    o.key("position").null();
    o.key("errors").list(std::iter::once(()), |out, ()| {
        let mut e = Obj::open(out);
        e.key("kind").str(ErrorKind::Input.name());
        e.key("line").opt_num(line);
        e.key("column").opt_num(column);
        e.key("token").str("");
        e.key("message").str(&p.message);
        e.key("rule").null();
        e.key("legal").list(std::iter::empty::<&str>(), |out, s| Val(out).str(s));
        e.key("legal_count").num(0);
        e.close();
    });
    o.key("claims").list(std::iter::empty::<()>(), |_, ()| {});
    o.key("notes").list(std::iter::empty::<()>(), |_, ()| {});
    o.close();
    out
}

fn error_item(out: &mut String, p: &Problem, source: &Source, alternatives: &[crate::verdict::Alternative]) {
    let (line, column) = source.line_col(p.span.start);
    let mut e = Obj::open(out);
    e.key("kind").str(ErrorKind::from(p.kind).name());
    e.key("line").num(line);
    e.key("column").num(column);
    e.key("token").str(&p.token);
    e.key("message").str(&p.message);
    if let Some(path) = &p.variation {
        e.key("variation").str(path);
    }
    match p.rule {
        Some(rule) => e.key("rule").str(&rule.to_string()),
        None => e.key("rule").null(),
    }
    e.key("legal").list(p.legal.iter(), |out, m| Val(out).str(m));
    e.key("legal_count").num(p.legal_count as usize);
    if p.kind == ProblemKind::Illegal {
        e.key("alternatives").list(alternatives.iter(), |out, a| {
            let mut o = Obj::open(out);
            o.key("move").str(&a.text);
            match &a.reach {
                crate::verdict::Reach::End => {
                    o.key("replays_to_end").bool(true);
                    o.key("stops_at").null();
                }
                crate::verdict::Reach::StopsAt { span, token } => {
                    let (line, column) = source.line_col(span.start);
                    o.key("replays_to_end").bool(false);
                    let mut at = Obj::open(o.key("stops_at").0);
                    at.key("line").num(line);
                    at.key("column").num(column);
                    at.key("token").str(token);
                    at.close();
                }
            }
            o.close();
        });
    }
    e.close();
}

fn claim_item(out: &mut String, c: &ClaimCheck, (line, column): (usize, usize)) {
    let mut o = Obj::open(out);
    o.key("kind").str(c.kind.name());
    o.key("text").str(&c.text);
    o.key("status").str(c.status.name());
    o.key("reason").opt_str(c.status.reason().map(Unchecked::name));
    o.key("line").num(line);
    o.key("column").num(column);
    o.key("detail").str(&c.detail);
    if c.violations_accepted != 0 {
        o.key("violations_accepted").num(c.violations_accepted);
    }
    o.close();
}

/// An object being written: its fields go in with [`Obj::key`], each followed by its value.
struct Obj<'o> {
    out: &'o mut String,
    empty: bool,
}

impl<'o> Obj<'o> {
    fn open(out: &'o mut String) -> Obj<'o> {
        out.push('{');
        Obj { out, empty: true }
    }

    /// The fields every line opens with.
    fn head(&mut self, file: &str, index: usize, line: Option<usize>, game: Option<&str>) {
        self.key("schema").num(SCHEMA as usize);
        self.key("file").str(file);
        self.key("index").num(index);
        self.key("line").opt_num(line);
        self.key("game").opt_str(game);
    }

    /// Writes the name of one of the line's own fields, which needs no escape: its value is next.
    fn key(&mut self, name: &'static str) -> Val<'_> {
        debug_assert!(plain(name), "{name}");
        self.separate();
        self.out.push('"');
        self.out.push_str(name);
        self.out.push_str("\":");
        Val(self.out)
    }

    /// Writes a name from the record (a player's, as a key of the scores), escaped as any string:
    /// its value is next.
    fn named(&mut self, name: &str) -> Val<'_> {
        self.separate();
        push_json_str(self.out, name);
        self.out.push(':');
        Val(self.out)
    }

    /// The comma before every field but the first.
    fn separate(&mut self) {
        if !self.empty {
            self.out.push(',');
        }
        self.empty = false;
    }

    fn close(self) {
        self.out.push('}');
    }
}

/// Where one value is written.
struct Val<'o>(&'o mut String);

impl Val<'_> {
    fn str(self, s: &str) {
        push_json_str(self.0, s);
    }

    fn opt_str(self, s: Option<&str>) {
        match s {
            Some(s) => self.str(s),
            None => self.null(),
        }
    }

    fn num(self, n: usize) {
        // Digits by hand, not through the formatter: a line has a dozen numbers.
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut rest = n;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        for &d in &digits[at..] {
            self.0.push(char::from(d));
        }
    }

    fn opt_num(self, n: Option<usize>) {
        match n {
            Some(n) => self.num(n),
            None => self.null(),
        }
    }

    fn bool(self, b: bool) {
        self.0.push_str(if b { "true" } else { "false" });
    }

    fn null(self) {
        self.0.push_str("null");
    }

    /// Points per player, as an object in turn order: whole numbers as integers, half points as
    /// decimals (as serde_json writes an `f64`).
    fn points(self, points: &[(String, f64)]) {
        let mut o = Obj::open(self.0);
        for (player, p) in points {
            let v = o.named(player);
            if p.fract() == 0.0 && p.abs() < 1e15 {
                // A whole number as an integer (`-0` as `0`), in digits by hand as `num` writes them.
                if *p < 0.0 {
                    v.0.push('-');
                }
                v.num(p.abs() as usize);
            } else {
                v.0.push_str(&serde_json::to_string(p).unwrap_or_else(|_| "null".into()));
            }
        }
        o.close();
    }

    /// A list of `items`, each written by `item`.
    fn list<T>(self, items: impl Iterator<Item = T>, mut item: impl FnMut(&mut String, T)) {
        self.0.push('[');
        for (k, x) in items.enumerate() {
            if k > 0 {
                self.0.push(',');
            }
            item(self.0, x);
        }
        self.0.push(']');
    }
}

/// The bytes a JSON string holds as they are: printable ASCII but `"` and `\`.
const PLAIN: [bool; 256] = {
    let mut plain = [false; 256];
    let mut b = b' ';
    while b <= b'~' {
        plain[b as usize] = b != b'"' && b != b'\\';
        b += 1;
    }
    plain
};

/// Whether a JSON string holds `s` as it is.
fn plain(s: &str) -> bool {
    // Eight bytes at a time (a line is mostly its strings): a byte below a space, above `~`, or
    // `"` or `\` sets its top bit in `escaped` (the byte tricks of "Bit Twiddling Hacks").
    const ONES: u64 = u64::MAX / 255;
    const TOPS: u64 = ONES * 0x80;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & TOPS;
    let escaped = |v: u64| {
        let below = v.wrapping_sub(ONES * 0x20) & !v & TOPS;
        // A byte past `~` (0x7e) plus one reaches 0x80, the top bit; a byte from 0x80 on has it.
        let above = (v.wrapping_add(ONES) | v) & TOPS;
        below | above | has_zero(v ^ (ONES * u64::from(b'"'))) | has_zero(v ^ (ONES * u64::from(b'\\')))
    };
    let mut words = s.as_bytes().chunks_exact(8);
    let whole =
        words.by_ref().all(|w| escaped(u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]])) == 0);
    whole && words.remainder().iter().all(|&b| PLAIN[usize::from(b)])
}

/// A JSON string as serde_json writes it (`"` and `\` escaped, the control characters below
/// U+0020 as `\n`, `\t`, ... or `\u00XX`), with every [hidden](super::is_hidden) character as a
/// `\uXXXX` escape besides ([`Escaping`]). Plain ASCII, nearly every string, is copied whole.
fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    if plain(s) {
        out.push_str(s);
    } else {
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                c if c < ' ' || super::is_hidden(c) => {
                    use std::fmt::Write as _;
                    let _ = write!(out, "\\u{:04x}", u32::from(c));
                }
                c => out.push(c),
            }
        }
    }
    out.push('"');
}

/// The lines as serde wrote them before they were written by hand: the layout the hand-written
/// lines are held to.
#[cfg(test)]
mod reference {
    use super::*;
    use crate::report::FileStatus;
    use crate::verdict::Status;
    use serde::ser::{SerializeMap, Serializer};

    #[derive(Serialize)]
    struct RecordLine<'a> {
        schema: u32,
        file: &'a str,
        index: usize,
        /// The record's first line; for a problem with the whole file, the problem's line if known.
        line: Option<usize>,
        game: Option<&'static str>,
        status: LineStatus,
        moves: usize,
        game_over: bool,
        winner: Option<&'a str>,
        score: Points<'a>,
        #[serde(skip_serializing_if = "Option::is_none")]
        score_with_stones: Option<Points<'a>>,
        /// The position code where the replay ended (grammar.md, Part V).
        position: Option<&'a str>,
        errors: Vec<ErrorItem<'a>>,
        claims: Vec<ClaimItem<'a>>,
        notes: &'a [String],
    }

    /// A record's status, or what went wrong with the whole file.
    #[derive(Serialize)]
    #[serde(untagged)]
    enum LineStatus {
        Record(Status),
        File(FileStatus),
    }

    #[derive(Serialize)]
    struct ErrorItem<'a> {
        kind: ErrorKind,
        line: Option<usize>,
        column: Option<usize>,
        token: &'a str,
        message: &'a str,
        /// The variation the problem is in (`12... c3`), when it is in one.
        #[serde(skip_serializing_if = "Option::is_none")]
        variation: Option<&'a str>,
        /// An illegal move's rule, as a link from the repository's root into `docs/rules/`
        /// (`docs/rules/quarod.md#quarod-placement`); `null` for other problems.
        rule: Option<String>,
        legal: &'a [String],
        legal_count: u32,
        /// Illegal moves only: legal moves in its place, and how far the rest replays with each.
        #[serde(skip_serializing_if = "Option::is_none")]
        alternatives: Option<Vec<AlternativeItem<'a>>>,
    }

    #[derive(Serialize)]
    struct AlternativeItem<'a> {
        #[serde(rename = "move")]
        text: &'a str,
        replays_to_end: bool,
        /// The token where the rest stops replaying, when it does.
        stops_at: Option<StopItem<'a>>,
    }

    #[derive(Serialize)]
    struct StopItem<'a> {
        line: usize,
        column: usize,
        token: &'a str,
    }

    /// Points per player, as an object in turn order: whole numbers as integers, half points as
    /// decimals.
    struct Points<'a>(&'a [(String, f64)]);

    impl Serialize for Points<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(Some(self.0.len()))?;
            for (player, points) in self.0 {
                if points.fract() == 0.0 && points.abs() < 1e15 {
                    map.serialize_entry(player, &(*points as i64))?;
                } else {
                    map.serialize_entry(player, points)?;
                }
            }
            map.end()
        }
    }

    impl<'a> ErrorItem<'a> {
        /// `alternatives`: those of the record's first illegal move, when `p` is that move.
        fn of(p: &'a Problem, source: &Source, alternatives: &'a [crate::verdict::Alternative]) -> Self {
            let (line, column) = source.line_col(p.span.start);
            let alternative = |a: &'a crate::verdict::Alternative| {
                let stops_at = match &a.reach {
                    crate::verdict::Reach::End => None,
                    crate::verdict::Reach::StopsAt { span, token } => {
                        let (line, column) = source.line_col(span.start);
                        Some(StopItem { line, column, token })
                    }
                };
                AlternativeItem { text: &a.text, replays_to_end: stops_at.is_none(), stops_at }
            };
            ErrorItem {
                kind: p.kind.into(),
                line: Some(line),
                column: Some(column),
                token: &p.token,
                message: &p.message,
                variation: p.variation.as_deref(),
                rule: p.rule.map(|r| r.to_string()),
                legal: &p.legal,
                legal_count: p.legal_count,
                alternatives: (p.kind == ProblemKind::Illegal).then(|| alternatives.iter().map(alternative).collect()),
            }
        }
    }

    /// One JSON object for a record, on one line.
    pub(super) fn json_line(source: &Source, v: &Verdict) -> String {
        let illegal = v.problems.iter().position(|p| p.kind == ProblemKind::Illegal && p.variation.is_none());
        let errors = v
            .problems
            .iter()
            .enumerate()
            .map(|(i, p)| ErrorItem::of(p, source, if Some(i) == illegal { &v.alternatives } else { &[] }))
            .collect();
        let claims = v.claims.iter().map(|c| ClaimItem::of(c, source.line_col(c.span.start))).collect();
        to_line(&RecordLine {
            schema: SCHEMA,
            file: source.name(),
            index: v.index,
            line: Some(source.line_col(v.span.start).0),
            game: v.game.map(|g| g.name),
            status: LineStatus::Record(v.status),
            moves: v.moves,
            game_over: v.game_over,
            winner: v.winner.as_deref(),
            score: Points(&v.score),
            score_with_stones: v.score_with_stones.as_deref().map(Points),
            position: v.position.as_deref(),
            errors,
            claims,
            notes: &v.notes,
        })
    }

    /// One JSON object for a file that could not be read or holds no record: index 0, one error of
    /// kind `input`.
    pub(super) fn file_json_line(p: &FileProblem) -> String {
        let (line, column) = p.at.unzip();
        to_line(&RecordLine {
            schema: SCHEMA,
            file: &p.file,
            index: 0,
            line,
            game: None,
            status: LineStatus::File(p.status),
            moves: 0,
            game_over: false,
            winner: None,
            score: Points(&[]),
            score_with_stones: None,
            position: None,
            errors: vec![ErrorItem {
                kind: ErrorKind::Input,
                line,
                column,
                token: "",
                message: &p.message,
                variation: None,
                rule: None,
                legal: &[],
                legal_count: 0,
                alternatives: None,
            }],
            claims: vec![],
            notes: &[],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::report::FileStatus;
    use crate::verdict::{Alternative, ClaimStatus, Reach, Status};

    #[test]
    fn whole_points_are_integers_and_half_points_decimals() {
        let score = vec![("Black".to_string(), 13.0), ("White".to_string(), 12.5)];
        let mut out = String::new();
        Val(&mut out).points(&score);
        assert_eq!(out, r#"{"Black":13,"White":12.5}"#);
    }

    /// The names the lines write are those serde gives the same values (the types keep their
    /// `Serialize` for the other JSON that referee writes).
    #[test]
    fn names_are_serde_names() {
        fn serde_name(v: impl Serialize) -> String {
            serde_json::to_string(&v).unwrap().trim_matches('"').to_string()
        }
        let statuses = [Status::Valid, Status::Illegal, Status::Refuted, Status::SyntaxError, Status::Undecided];
        for s in statuses {
            assert_eq!(status_name(s), serde_name(s));
        }
        let kinds = [ErrorKind::Syntax, ErrorKind::Illegal, ErrorKind::Claim, ErrorKind::Undecided, ErrorKind::Input];
        for k in kinds {
            assert_eq!(k.name(), serde_name(k));
        }
        for k in [ClaimKind::Result, ClaimKind::FinalPosition] {
            assert_eq!(k.name(), serde_name(k));
        }
        let reasons = [
            Unchecked::IllegalMoves,
            Unchecked::SearchLimit,
            Unchecked::Open,
            Unchecked::NotSearched,
            Unchecked::NoResult,
        ];
        for r in reasons {
            assert_eq!(r.name(), serde_name(r));
        }
        for f in [FileStatus::Unreadable, FileStatus::NoRecord] {
            assert_eq!(f.name(), serde_name(f));
        }
    }

    /// Every string a line holds, with quotes, backslashes, control characters, hidden ones and
    /// other text beyond ASCII.
    const AWKWARD: [&str; 8] = [
        "plain",
        "",
        "a \"quoted\" \\ path",
        "tab\there\nnew\r\u{8}\u{c}\u{1}\u{1f}",
        "del \u{7f} c1 \u{85} bidi \u{202e} iso \u{2066} lsep \u{2028}",
        "é ü 漢字 🂡",
        "zero \u{0} width \u{200b} bom \u{feff}",
        "\u{61c}\u{200e}\u{200f}\u{2029}",
    ];

    #[test]
    fn plain_strings_are_those_of_printable_ascii_but_quote_and_backslash() {
        let mut rng = fastrand::Rng::with_seed(20);
        for _ in 0..100_000 {
            let n = rng.usize(0..40);
            // Mostly printable ASCII, some of every byte value, at every place of a word.
            let bytes: Vec<u8> =
                (0..n).map(|_| if rng.u8(..) < 230 { rng.u8(0x20..0x7f) } else { rng.u8(..) }).collect();
            let Ok(s) = std::str::from_utf8(&bytes) else { continue };
            assert_eq!(plain(s), s.bytes().all(|b| PLAIN[usize::from(b)]), "{s:?}");
        }
        for b in 0..=127u8 {
            let s = format!("{}{}", "a".repeat(usize::from(b % 16)), char::from(b));
            assert_eq!(plain(&s), PLAIN[usize::from(b)], "{b}");
        }
    }

    /// The hand-written lines are the lines serde wrote: on every sample's verdicts, and on
    /// verdicts holding every awkward string in every field.
    #[test]
    fn lines_are_written_as_serde_writes_them() {
        let mut checked = 0;
        for entry in walkdir::WalkDir::new(concat!(env!("CARGO_MANIFEST_DIR"), "/samples")) {
            let entry = entry.unwrap();
            if !entry.file_type().is_file() {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(entry.path()) else { continue };
            let source = Source::new("samples/\"x\".txt", std::sync::Arc::new(text.clone()));
            // Lenient, so that a record lists each of its illegal moves; a small search limit: the
            // layout is the point here, not what the searches find.
            let options = crate::verify::VerifyOptions { lenient: true, search_limit: 2_000, ..Default::default() };
            for v in crate::verify::verify_source(&text, options) {
                assert_eq!(json_line(&source, &v), reference::json_line(&source, &v));
                checked += 1;
            }
        }
        assert!(checked > 90, "{checked} verdicts");
        let text = std::sync::Arc::new("1. a\n2. b\n".to_string());
        let source = Source::new(AWKWARD[2], text.clone());
        let base = crate::verify::verify_source("[Game \"Quarod\"]\n1. a1b1 a2b2 0-1\n", Default::default());
        for (k, s) in AWKWARD.iter().enumerate() {
            let mut v = base[0].clone();
            v.winner = Some(s.to_string());
            v.position = (k % 2 == 0).then(|| s.to_string());
            v.score = vec![
                (s.to_string(), 1.5),
                ("B".into(), -0.0),
                ("C".into(), 1e16),
                ("D".into(), 7.0),
                ("E".into(), -12.0),
                ("F".into(), -999_999_999_999_999.0),
            ];
            v.score_with_stones = (k % 2 == 1).then(|| v.score.clone());
            v.notes = vec![s.to_string(), "n".into()];
            let mut p = v
                .problems
                .first()
                .cloned()
                .unwrap_or_else(|| crate::format::problem(ProblemKind::Illegal, 0..1, "t", "m".into()));
            p.kind = [ProblemKind::Illegal, ProblemKind::Syntax, ProblemKind::Claim, ProblemKind::Undecided][k % 4];
            p.token = s.to_string();
            p.message = s.to_string();
            p.legal = vec![s.to_string(), "a1b2".into()];
            p.span = 3..4;
            v.problems = vec![p.clone(), p];
            v.alternatives = vec![
                Alternative { text: s.to_string(), reach: Reach::End },
                Alternative { text: "a1".into(), reach: Reach::StopsAt { span: 5..6, token: s.to_string() } },
            ];
            for c in &mut v.claims {
                c.text = s.to_string();
                c.detail = s.to_string();
                c.violations_accepted = k;
                c.status =
                    [ClaimStatus::Confirmed, ClaimStatus::Refuted, ClaimStatus::Unchecked(Unchecked::Open)][k % 3];
            }
            assert_eq!(json_line(&source, &v), reference::json_line(&source, &v), "{s:?}");
            serde_json::from_str::<serde_json::Value>(&json_line(&source, &v)).expect("valid JSON");
        }
        for s in AWKWARD {
            for at in [None, Some((3, 4))] {
                let p = FileProblem { file: s.into(), status: FileStatus::NoRecord, message: s.into(), at };
                assert_eq!(file_json_line(&p), reference::file_json_line(&p));
            }
        }
    }

    #[test]
    fn a_file_problem_is_one_object_with_an_input_error() {
        let p = FileProblem {
            file: "a.txt".into(),
            status: FileStatus::Unreadable,
            message: "not valid UTF-8".into(),
            at: Some((2, 21)),
        };
        assert_eq!(
            file_json_line(&p),
            r#"{"schema":3,"file":"a.txt","index":0,"line":2,"game":null,"status":"unreadable","moves":0,"game_over":false,"winner":null,"score":{},"position":null,"errors":[{"kind":"input","line":2,"column":21,"token":"","message":"not valid UTF-8","rule":null,"legal":[],"legal_count":0}],"claims":[],"notes":[]}"#
        );
    }
}
