//! The reports of `referee repair`: per record, its first illegal move and its best repairs, each
//! with its edits in the record's own text, what is still wrong, the final diagram and the claims.

use serde::Serialize;

use super::json::{to_line, ClaimItem};
use super::{escaped, painted, reach_words, status_name, HumanStyle, Source};
use crate::repair::{Bound, Candidate, Change, ChangeKind, Left, RecordRepair, Search};
use crate::verdict::Reach;
use crate::verdict::{ClaimStatus, Problem, ProblemKind, Status};

/// Why a record is left as written rather than repaired, in words; `at` writes where a span is.
pub fn left_words(why: &Left, search: Option<&Search>, at: impl Fn(&crate::record::Span) -> String) -> String {
    let bound = match search.and_then(|s| s.stopped) {
        Some(_) => " (the search stopped at a bound: `referee repair` says which)",
        None => "",
    };
    match why {
            Left::Unjudged(ProblemKind::Syntax) => "it has a syntax error (see `referee verify`)".into(),
            Left::Unjudged(_) => "it cannot be judged (see `referee verify`)".into(),
            Left::NoIllegalMove => "it has no illegal move to repair, but a claim (its result or final diagram) that does not hold (see `referee verify`)".into(),
            Left::NoRepair => format!("no repair found{bound}"),
            Left::Short(span) => format!("no repair found replays to the end: the best stops at {}{bound}", at(span)),
            Left::Unwritable(span) => format!(
                "its best repair needs play the notation cannot write (at {}: a phase that did not happen, or a pass with a move on the board), and no other repair found makes it stand",
                at(span)
            ),
            Left::Diagram(n) => format!(
                "its best repair replays to the end, but {n} cell{} of the final diagram differ{}",
                if *n == 1 { "" } else { "s" },
                if *n == 1 { "s" } else { "" }
            ),
            Left::Claim(text) => format!("its best repair replays to the end, but its claim `{text}` does not hold"),
            Left::Unverified(why) => {
                format!("its repair, once written, does not verify ({why}): a fault of referee, please report it")
            }
        }
}

/// Violations left that a candidate lists by place; the others are counted.
const VIOLATIONS_LISTED: usize = 3;

fn at(source: &Source, offset: usize) -> String {
    let (line, column) = source.line_col(offset);
    format!("{line}:{column}")
}

/// An edit in words: `28:31 d2d5 → d8d5`, `30:4 insert ---- before i6i9`.
fn change_words(source: &Source, c: &Change) -> String {
    let place = at(source, c.spans[0].start);
    let mut words = match c.kind {
        ChangeKind::Replace if c.from == c.to => format!("{place} {} as written", c.from),
        ChangeKind::Replace => format!("{place} {} → {}", c.from, c.to),
        ChangeKind::Delete => format!("{place} delete {}", c.from),
        ChangeKind::Insert if c.at_end => format!("{} insert {} at the end", at(source, c.spans[0].end), c.to),
        ChangeKind::Insert => {
            let before = &source.text()[c.spans[0].clone()];
            format!("{place} insert {} before {before}", c.to)
        }
        ChangeKind::Swap => format!("{place} swap {} → {}", c.from, c.to),
    };
    if !c.expressible {
        words.push_str(" (play that did not happen: not legal as written, replayed anyway)");
    }
    words
}

fn claim_line(c: &crate::verdict::ClaimCheck) -> String {
    format!("claim `{}`: {}: {}", c.text, c.status.name(), c.detail)
}

fn first_illegal(problems: &[Problem]) -> Option<&Problem> {
    problems.iter().find(|p| p.kind == ProblemKind::Illegal)
}

/// What is still wrong with a candidate: nothing, or where its replay stops and what follows.
/// `line` is what was searched: `the record`, or `the variation` whose illegal move it repairs.
fn remaining_words(source: &Source, c: &Candidate, line: &str) -> String {
    let Some(first) = c.violations.first() else {
        return format!("{line} then replays to the end ({} moves): {}", c.moves, c.score);
    };
    let stop = reach_words(source, &Reach::StopsAt { span: first.span.clone(), token: first.token.clone() })
        .replace("the rest replays up to", &format!("{line} then replays up to"));
    let mut words = format!("{stop}: {}", first.message);
    let more = &c.violations[1..];
    if !more.is_empty() {
        let listed: Vec<String> = more
            .iter()
            .take(VIOLATIONS_LISTED)
            .map(|v| format!("`{}` at {}", v.token, at(source, v.span.start)))
            .collect();
        let rest = more.len().saturating_sub(VIOLATIONS_LISTED);
        let n = more.len();
        words.push_str(&format!(
            "; read leniently past it, {n} more violation{} follow{}: {}{}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            listed.join(", "),
            if rest > 0 { format!(" and {rest} more") } else { String::new() }
        ));
    }
    words
}

fn diagram_words(c: &Candidate) -> Option<String> {
    let claim = c.claims.iter().find(|k| k.kind == crate::verdict::ClaimKind::FinalPosition)?;
    let status = c.final_position()?;
    let n = c.final_cells_differing?;
    let detail = if c.replays_to_end {
        claim.detail.clone()
    } else {
        // The claim itself is unchecked; the cells are compared where the lenient replay ends.
        match n {
            0 => "every cell matches where a lenient replay past the violations left ends".to_string(),
            1 => "1 cell differs from where a lenient replay past the violations left ends".to_string(),
            n => format!("{n} cells differ from where a lenient replay past the violations left ends"),
        }
    };
    Some(format!("final diagram: {}: {detail}", status.name()))
}

fn search_words(s: &Search) -> String {
    let mut words = format!(
        "searched {} candidate{} of up to {} edit{} ({} tokens replayed)",
        s.tried,
        if s.tried == 1 { "" } else { "s" },
        s.depth,
        if s.depth == 1 { "" } else { "s" },
        s.positions
    );
    match s.stopped {
        None => {}
        Some(Bound::Positions(n)) => words.push_str(&format!(
            "; the search stopped at its bound of {n} tokens replayed (raise it with --max-positions): a better repair may exist"
        )),
        Some(Bound::Time(t)) => words.push_str(&format!(
            "; the search stopped at its time limit of {} s (raise it with --time-limit): a better repair may exist",
            t.as_secs_f64()
        )),
        Some(Bound::Bytes { ceiling, needed }) => {
            let mib = crate::search::mib;
            // The table of the candidates tried grows by doubling: the step that stops a search may
            // need much more than it holds, and the report says so rather than seem to stop short.
            let at = if needed - s.bytes.min(needed) > 1 << 20 {
                format!("at {}, as its next step would hold {}, past", mib(s.bytes), mib(needed))
            } else {
                "at".to_string()
            };
            words.push_str(&format!(
                "; the search stopped {at} its memory ceiling of {}, whatever --beam and --max-positions say (raise it with --max-memory): a better repair may exist",
                mib(ceiling)
            ));
        }
        Some(Bound::Stopped) => words.push_str("; the search was stopped (the text changed): a better repair may exist"),
    }
    words
}

/// The human report of one record: its first illegal move and its best repairs, or why it has none.
pub fn repair_human(source: &Source, r: &RecordRepair, style: HumanStyle) -> String {
    let v = &r.verdict;
    let (line, _) = source.line_col(v.span.start);
    let game = v.game.map_or("unknown game", |g| g.name);
    let mut out = format!("{}: record {} ({game}, line {line}): ", escaped(source.name()), v.index);
    let status = painted(&status_name(v.status).replace('_', " "), v.status.into(), style.color);
    let first = v.problems.first();
    match (&r.search, v.status) {
        (_, Status::Valid) => out.push_str(&format!("{status}: nothing to repair\n")),
        (None, Status::Undecided | Status::SyntaxError) => {
            let p = first.expect("a record that is not valid has a problem");
            out.push_str(&format!(
                "{status} at {}: {}\n  referee repairs the moves of records it can read and judge, so this one is left as it is\n",
                at(source, p.span.start),
                escaped(&p.said())
            ));
        }
        (None, _) => {
            out.push_str(&format!("{status}\n"));
            match first_illegal(&v.problems) {
                Some(p) => {
                    out.push_str(&escaped(&format!("  illegal move at {}: {}\n", at(source, p.span.start), p.said())))
                }
                None => out.push_str("  every move is legal: repair edits moves, and only where one is illegal\n"),
            }
            for c in &v.claims {
                out.push_str(&escaped(&format!("  {}\n", claim_line(c))));
            }
        }
        (Some(s), _) => {
            match first_illegal(&v.problems) {
                Some(p) => {
                    let said = p.said();
                    let (token, message) = (escaped(&p.token), escaped(&said));
                    out.push_str(&format!("{status} at {} `{token}`: {message}\n", at(source, p.span.start)))
                }
                None => out.push_str(&format!("{status}\n")),
            }
            // A variation whose illegal move comes first is searched as a line of its own.
            let in_variation = first_illegal(&v.problems).is_some_and(|p| p.variation.is_some());
            let line = if in_variation { "the variation" } else { "the record" };
            if s.candidates.is_empty() {
                out.push_str("  no repair found\n");
            }
            for (n, c) in s.candidates.iter().enumerate() {
                out.push_str(&format!("  repair {}:\n", n + 1));
                for ch in &c.changes {
                    out.push_str(&escaped(&format!("    {}\n", change_words(source, ch))));
                }
                out.push_str(&escaped(&format!("    {}\n", remaining_words(source, c, line))));
                if let Some(d) = diagram_words(c) {
                    out.push_str(&escaped(&format!("    {d}\n")));
                }
                for claim in c.claims.iter().filter(|k| k.kind == crate::verdict::ClaimKind::Result) {
                    out.push_str(&escaped(&format!("    {}\n", claim_line(claim))));
                }
            }
            out.push_str(&format!("  {}\n", search_words(s)));
        }
    }
    out
}

#[derive(Serialize)]
struct RecordLine<'a> {
    file: &'a str,
    index: usize,
    line: usize,
    game: Option<&'static str>,
    /// `verify`'s status of the record as written.
    status: Status,
    candidates: Vec<CandidateItem<'a>>,
    /// `null` when nothing was searched.
    search: Option<SearchItem>,
    /// Why nothing was searched, when nothing was.
    note: Option<String>,
}

#[derive(Serialize)]
struct EditItem<'a> {
    line: usize,
    column: usize,
    from: &'a str,
    to: &'a str,
    kind: &'static str,
    expressible: bool,
}

#[derive(Serialize)]
struct ViolationItem<'a> {
    line: usize,
    column: usize,
    token: &'a str,
    message: &'a str,
    /// The rule it breaks, as verify's `rule` links it into `docs/rules/`.
    rule: String,
}

#[derive(Serialize)]
struct CandidateItem<'a> {
    edits: Vec<EditItem<'a>>,
    replays_to_end: bool,
    violations_remaining: usize,
    /// Where the repaired record's replay stops, when it does.
    first_violation: Option<ViolationItem<'a>>,
    final_position: Option<&'static str>,
    final_cells_differing: Option<usize>,
    claims: Vec<ClaimItem<'a>>,
}

#[derive(Serialize)]
struct SearchItem {
    tried: usize,
    positions: u64,
    edits: usize,
    /// `positions`, `time` or `memory` when a bound stopped the search; `null` when it was done.
    stopped_by: Option<&'static str>,
    /// The most bytes the search held at once, as it counts them.
    bytes: usize,
}

fn candidate_item<'a>(source: &Source, c: &'a Candidate) -> CandidateItem<'a> {
    let edits = c
        .changes
        .iter()
        .map(|ch| {
            let offset = if ch.at_end { ch.spans[0].end } else { ch.spans[0].start };
            let (line, column) = source.line_col(offset);
            EditItem { line, column, from: &ch.from, to: &ch.to, kind: ch.kind.name(), expressible: ch.expressible }
        })
        .collect();
    let first_violation = c.violations.first().map(|v| {
        let (line, column) = source.line_col(v.span.start);
        ViolationItem { line, column, token: &v.token, message: &v.message, rule: v.rule.to_string() }
    });
    CandidateItem {
        edits,
        replays_to_end: c.replays_to_end,
        violations_remaining: c.violations.len(),
        first_violation,
        final_position: c.final_position().map(ClaimStatus::name),
        final_cells_differing: c.final_cells_differing,
        claims: c.claims.iter().map(|k| ClaimItem::of(k, source.line_col(k.span.start))).collect(),
    }
}

/// One JSON object for a record, on one line: its repairs, best first.
pub fn repair_json(source: &Source, r: &RecordRepair) -> String {
    let v = &r.verdict;
    let note = match (&r.search, v.status) {
        (Some(_), _) => None,
        (None, Status::Valid) => Some("nothing to repair".to_string()),
        (None, _) => Some(v.problems.first().map_or_else(
            || "every move is legal: repair edits moves, and only where one is illegal".to_string(),
            |p| match p.kind {
                ProblemKind::Illegal => format!("no repair was searched: {}", p.message),
                ProblemKind::Claim => "every move is legal: repair edits moves, and only where one is illegal".into(),
                _ => format!("not repaired: {}", p.message),
            },
        )),
    };
    to_line(&RecordLine {
        file: source.name(),
        index: v.index,
        line: source.line_col(v.span.start).0,
        game: v.game.map(|g| g.name),
        status: v.status,
        candidates: r.search.iter().flat_map(|s| s.candidates.iter().map(|c| candidate_item(source, c))).collect(),
        search: r.search.as_ref().map(|s| SearchItem {
            tried: s.tried,
            positions: s.positions,
            edits: s.depth,
            stopped_by: s.stopped.map(|b| match b {
                Bound::Positions(_) => "positions",
                Bound::Time(_) => "time",
                Bound::Bytes { .. } => "memory",
                Bound::Stopped => "stopped",
            }),
            bytes: s.bytes,
        }),
        note,
    })
}
