//! Repairing a record: the smallest sets of token edits after which it replays further, ideally to
//! its end, and what its final diagram and claims say of each repair (`referee repair`); and the
//! hint under an illegal move in `verify`, how far the rest replays with each legal alternative.
//!
//! The search works on a record's token list, the same way for every game: a candidate is a list
//! of edits (replace a token, delete one or a stretch of them, insert one or a stretch, swap two),
//! and the edited list is replayed strictly. Edits are tried only where a slip of the writer could
//! have caused the first violation still left: at it, or a few tokens before it (a slip may read
//! as legal for a while), and their texts are the engine's own legal moves there. So a candidate
//! grows one edit at a time, each edit at the violation the previous ones left, and one level of
//! the search costs "window x legal moves" replays. The levels are searched breadth first, each
//! cut to the candidates that replay furthest (a beam), so that a record with several mistakes
//! can be repaired to its end; the search stops at the first level whose best repair replays to
//! the end with its diagram and claims confirmed, since a longer repair cannot rank above it.
//!
//! Replays start from a position cached at the edit (less the tokens a notation reads ahead),
//! not from the record's start; every candidate that is reported is replayed again from the start.

pub mod search;

pub use search::*;

use std::ops::ControlFlow;

use crate::format::{OpenRecord, WithOpenRecord};
use crate::judge::with_found;
use crate::judge::Games;
use crate::record::{self, Found, Span};
use crate::search::{Scope, SearchBudget, Stop};
use crate::verdict::{ClaimStatus, ProblemKind, Verdict};
use crate::verify::{self, VerifyOptions};

/// The claims of every candidate judged share twice the bound of one claim, so that a record that
/// stops before the end costs a bounded time to repair.
fn candidates_budget<S: Games>(options: VerifyOptions<S>, stop: &Stop) -> SearchBudget {
    let total = options.search_limit.saturating_mul(2);
    SearchBudget { left: total, total, scope: Scope::Repairs, stop: stop.clone(), ..options.file_budget() }
}

/// One record of a file: `verify`'s verdict on it as written, and the repairs found when it has an
/// illegal move.
#[derive(Clone, Debug)]
pub struct RecordRepair {
    /// The verdict on the record as written.
    pub verdict: Verdict,
    /// `None` when nothing was searched: the record has no illegal move, or cannot be judged.
    pub search: Option<Search>,
}

impl RecordRepair {
    /// Whether the record stands once repaired: its best repair replays to the end with its
    /// claims holding and its diagram matching, or it needed none.
    pub fn stands(&self) -> bool {
        match &self.search {
            Some(s) => s.candidates.first().is_some_and(Candidate::is_perfect),
            None => self.verdict.status == crate::verdict::Status::Valid,
        }
    }
}

/// The records of `src`, or record `only` (1-based), each with its verdict and, when it has an
/// illegal move, its best repairs. `Err` when there is no record `only`.
pub fn repair_source<S: Games>(
    src: &str,
    options: VerifyOptions<S>,
    repair: RepairOptions,
    only: Option<usize>,
) -> Result<Vec<RecordRepair>, String> {
    let mut out = Vec::new();
    repair_each(src, options, repair, only, |r| {
        out.push(r);
        ControlFlow::Continue(())
    })?;
    Ok(out)
}

/// The same, each record handed to `each` as soon as it is repaired, in file order, so that a
/// caller can print it and drop it: a collection is repaired in the memory of one record. `each`
/// may stop the run (a closed output). `Err` when there is no record `only`.
pub fn repair_each<S: Games>(
    src: &str,
    options: VerifyOptions<S>,
    repair: RepairOptions,
    only: Option<usize>,
    mut each: impl FnMut(RecordRepair) -> ControlFlow<()>,
) -> Result<(), String> {
    repair_each_within(src, options, repair, only, &mut options.file_budget(), |r, _| each(r))
}

/// [`repair_each`], the claims of the records as written searched within `budget`, in file order,
/// which `each` is lent too: a run's searches share one budget (`referee repair --write` verifies
/// the text it writes within it, [`rewrite_within`]). The claims of a record's repairs have a
/// budget of their own, a bound of the record's search.
pub fn repair_each_within<S: Games>(
    src: &str,
    options: VerifyOptions<S>,
    repair: RepairOptions,
    only: Option<usize>,
    budget: &mut SearchBudget,
    mut each: impl FnMut(RecordRepair, &mut SearchBudget) -> ControlFlow<()>,
) -> Result<(), String> {
    // Repairs are judged on strict replays, as `verify` judges records by default.
    let options = VerifyOptions { lenient: false, ..options };
    let (mut count, mut handed) = (0, false);
    for found in record::read(src, options.reading()) {
        count += 1;
        if only.is_some_and(|n| n != found.index()) {
            continue;
        }
        handed = true;
        let repaired = repair_record(src, &found, options, repair.clone(), budget);
        if each(repaired, budget).is_break() {
            return Ok(());
        }
    }
    match only {
        Some(n) if !handed => Err(format!("there is no record {n} (the file has {count})")),
        _ => Ok(()),
    }
}

/// A record found in `src`: its verdict as written (its claims searched within `budget`) and, when
/// it has an illegal move, its best repairs.
pub fn repair_record<S: Games>(
    src: &str,
    found: &Found,
    options: VerifyOptions<S>,
    repair: RepairOptions,
    budget: &mut SearchBudget,
) -> RecordRepair {
    // Repairs are judged on strict replays, as `verify` judges records by default.
    let options = VerifyOptions { lenient: false, ..options };
    let verdict = verify::prepare(src, found, options).finish(budget);
    let judged = !verdict.problems.iter().any(|p| matches!(p.kind, ProblemKind::Syntax | ProblemKind::Undecided));
    let illegal = verdict.problems.iter().any(|p| p.kind == ProblemKind::Illegal);
    // The first illegal move's line: the main line's, or a variation's, which is searched as a
    // line of its own (a variation claims nothing).
    let first = verdict.problems.iter().find(|p| p.kind == ProblemKind::Illegal);
    let in_variation = first.filter(|p| p.variation.is_some()).map(|p| p.span.clone());
    let search = (judged && illegal).then(|| search_record(src, found, options, repair, in_variation)).flatten();
    RecordRepair { verdict, search }
}

/// Why `repair --write` leaves a record as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Left {
    /// The record cannot be judged: a syntax error, or rules not known (`undecided`).
    Unjudged(ProblemKind),
    /// It has no illegal move, yet is not valid (a claim refuted): no edit of its moves is looked
    /// for.
    NoIllegalMove,
    /// The search found no repair that replays further.
    NoRepair,
    /// No repair found replays to the end: the best stops at this token.
    Short(Span),
    /// Every repair found that would make the record stand holds play the notation cannot write
    /// (a phase that did not happen): the best one, at this token.
    Unwritable(Span),
    /// The best repair replays to the end, but this many cells of the final diagram differ.
    Diagram(usize),
    /// The best repair replays to the end, but this claimed result is not confirmed.
    Claim(String),
    /// The repaired text did not verify as valid once written (never expected): what verify says.
    Unverified(String),
}

/// What `repair --write` writes in a record's place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rewrite {
    /// The record as written: it needs no repair.
    Unchanged,
    /// The record's text with its repair made, which verifies as valid.
    Repaired {
        /// The text in place of the record's (its span).
        text: String,
        /// The edits made.
        edits: usize,
    },
    /// The record as written, though it does not stand: why no repair is written.
    Left(Left),
}

/// What `repair --write` writes in place of record `r` of `src`: its best repair that makes it
/// stand (replays to the end, its diagram matching, its claims holding) and that the notation can
/// write, among those found, when its text verifies as valid; else the record as it is, and why.
pub fn rewrite<S: Games>(src: &str, r: &RecordRepair, options: VerifyOptions<S>) -> Rewrite {
    rewrite_within(src, r, options, &mut options.file_budget())
}

/// [`rewrite`], the repaired text's claims searched within `budget`.
pub fn rewrite_within<S: Games>(
    src: &str,
    r: &RecordRepair,
    options: VerifyOptions<S>,
    budget: &mut SearchBudget,
) -> Rewrite {
    let Some(search) = &r.search else {
        return match r.verdict.problems.iter().find(|p| matches!(p.kind, ProblemKind::Syntax | ProblemKind::Undecided))
        {
            Some(p) => Rewrite::Left(Left::Unjudged(p.kind)),
            None if r.verdict.status == crate::verdict::Status::Valid => Rewrite::Unchanged,
            None => Rewrite::Left(Left::NoIllegalMove),
        };
    };
    let writable = |c: &&Candidate| c.edits.iter().all(|e| e.expressible);
    let Some(best) = search.candidates.iter().filter(|c| c.is_perfect()).find(writable) else {
        let Some(best) = search.candidates.first() else { return Rewrite::Left(Left::NoRepair) };
        let why = if let Some(v) = best.violations.first() {
            Left::Short(v.span.clone())
        } else if best.is_perfect() {
            let e = best.edits.iter().position(|e| !e.expressible).unwrap_or(0);
            Left::Unwritable(best.changes.get(e).and_then(|c| c.spans.first().cloned()).unwrap_or_default())
        } else if let Some(n) = best.final_cells_differing.filter(|&n| n > 0) {
            Left::Diagram(n)
        } else {
            let claim = best.result_claims().find(|c| c.status != ClaimStatus::Confirmed);
            Left::Claim(claim.map_or_else(String::new, |c| c.text.clone()))
        };
        return Rewrite::Left(why);
    };
    let text = repaired_text(src, &r.verdict.span, &best.changes);
    // The search replays tokens, the file holds text: the text written is read and verified
    // again, so that a record is never replaced by one that does not stand.
    let verdicts: Vec<Verdict> = record::read(&text, options.reading())
        .map(|found| verify::prepare(&text, &found, options).finish(budget))
        .collect();
    match verdicts.as_slice() {
        [v] if v.status == crate::verdict::Status::Valid => Rewrite::Repaired { text, edits: best.edits.len() },
        [v] => Rewrite::Left(Left::Unverified(
            v.problems.first().map_or_else(|| format!("{:?}", v.status), |p| p.message.clone()),
        )),
        vs => Rewrite::Left(Left::Unverified(format!("it reads as {} records", vs.len()))),
    }
}

/// The search for repairs of a record's main line, or, when its first illegal move is the token at
/// `in_variation`, of that variation, from the position it starts from.
fn search_record<S: Games>(
    src: &str,
    found: &Found,
    options: VerifyOptions<S>,
    repair: RepairOptions,
    in_variation: Option<Span>,
) -> Option<Search> {
    struct Work(RepairOptions, SearchBudget, Option<Span>);
    impl<'r> WithOpenRecord<'r> for Work {
        type Output = Option<Search>;
        fn run<F: OpenRecord<'r>>(self, record: F) -> Option<Search> {
            let start = record.start().ok()?;
            let Some(span) = self.2 else {
                return Some(search(start, record.tokens(), &mut record.judge_repairs(self.1), self.0));
            };
            let variations = record.variations();
            let k = crate::variations::line_of(variations, &span)?;
            let from = crate::variations::start_of(&start, record.tokens(), variations, k)?;
            Some(search(from, &variations[k - 1].tokens, &mut ClaimsNothing, self.0))
        }
    }
    // The claims of every candidate judged share twice the bound of one claim, so that a record
    // that stops before the end costs a bounded time to repair.
    let budget = candidates_budget(options, &repair.stop);
    with_found(src, found, options, Work(repair, budget, in_variation)).ok().flatten()
}

/// The judge of a variation's repairs: a variation claims nothing and draws no final diagram.
struct ClaimsNothing;

impl<G> crate::format::Judge<G> for ClaimsNothing {
    fn claims(&mut self, _: &[record::Token], _: &crate::replay::Replay<G>) -> Vec<crate::verdict::ClaimCheck> {
        Vec::new()
    }

    fn cells_differing(&self, _: &G) -> Option<usize> {
        None
    }
}

/// The text of a record (`span` of `src`) with a repair's changes made: what `--write` writes in
/// the record's place.
pub fn repaired_text(src: &str, span: &Span, changes: &[Change]) -> String {
    // A span past the text, or not on a character boundary, cannot come from the reader; it is
    // taken as the text it names at most, so that no input makes a slice fail.
    let within = |at: usize| (at.min(src.len())..=src.len()).find(|&i| src.is_char_boundary(i)).unwrap_or(src.len());
    let record = within(span.start)..within(span.end).max(within(span.start));
    let mut splices: Vec<(Span, String)> = Vec::new();
    let mut gone: Vec<Span> = Vec::new();
    for c in changes {
        match c.kind {
            ChangeKind::Replace | ChangeKind::Delete => {
                // Token by token where the counts agree; else the first token takes every new one,
                // and the others go.
                let new: Vec<&str> = c.to.split_whitespace().collect();
                let one_each = new.len() == c.spans.len();
                for (n, s) in c.spans.iter().enumerate() {
                    match (one_each, n) {
                        (true, n) => splices.push((s.clone(), new[n].to_string())),
                        (false, 0) if !new.is_empty() => splices.push((s.clone(), c.to.clone())),
                        _ => gone.push(s.clone()),
                    }
                }
            }
            // A change of the search has the spans its kind needs; one without them changes nothing.
            ChangeKind::Insert => {
                let Some(s) = c.spans.first() else { continue };
                let at = within(if c.at_end { s.end } else { s.start });
                let text = if c.at_end { format!(" {}", c.to) } else { format!("{} ", c.to) };
                splices.push((at..at, text));
            }
            ChangeKind::Swap => {
                let [a, b] = c.spans.as_slice() else { continue };
                let (a, b) = (within(a.start)..within(a.end), within(b.start)..within(b.end));
                if a.end <= b.start {
                    let swapped = format!("{}{}{}", &src[b.clone()], &src[a.end..b.start], &src[a.clone()]);
                    splices.push((a.start..b.end, swapped));
                }
            }
        }
    }
    splices.extend(deleted_stretches(src, &record, gone).into_iter().map(|s| (s, String::new())));
    splices.sort_by_key(|(s, _)| (s.start, s.end));
    let mut out = String::new();
    let mut at = record.start;
    for (s, text) in splices {
        // Every splice lies inside the record, in order; one that does not is left out rather
        // than cut the text anywhere else.
        let (start, end) = (within(s.start), within(s.end));
        if start < at || end > record.end || start > end {
            continue;
        }
        out.push_str(&src[at..start]);
        out.push_str(&text);
        at = end;
    }
    out.push_str(&src[at..record.end]);
    out
}

/// The text that goes with deleted tokens (`gone`, spans of `src` inside `record`), so that their
/// line reads as if they had never been written: tokens deleted with only blanks between them go
/// as one stretch, with the blanks after it; a stretch that ends its line (nothing but blanks
/// follows it on the line, or in the record) goes with the blanks before it instead, back to the
/// previous token, so that no blanks are left dangling at the line's end. Move numbers and line
/// ends between tokens are never taken, and nothing outside the record is.
fn deleted_stretches(src: &str, record: &Span, mut gone: Vec<Span>) -> Vec<Span> {
    let bytes = src.as_bytes();
    let blank = |b: &u8| matches!(b, b' ' | b'\t');
    gone.retain(|s| record.start <= s.start && s.start <= s.end && s.end <= record.end);
    gone.sort_by_key(|s| s.start);
    let mut runs: Vec<Span> = Vec::new();
    for s in gone {
        match runs.last_mut() {
            Some(r) if r.end <= s.start && bytes[r.end..s.start].iter().all(blank) => r.end = s.end,
            Some(r) if s.start < r.end => r.end = r.end.max(s.end),
            _ => runs.push(s),
        }
    }
    runs.into_iter()
        .map(|r| {
            let after = bytes[r.end..record.end].iter().take_while(|b| blank(b)).count();
            let ends_line =
                matches!(bytes.get(r.end + after), None | Some(b'\n' | b'\r')) || r.end + after == record.end;
            if ends_line {
                let before = bytes[record.start..r.start].iter().rev().take_while(|b| blank(b)).count();
                r.start - before..r.end + after
            } else {
                r.start..r.end + after
            }
        })
        .collect()
}
