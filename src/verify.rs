//! From a file's text to one [`Verdict`] per record.

use std::marker::PhantomData;

pub use crate::format::common::common_start;
use crate::format::{status_of, OpenRecord, WithOpenRecord};
pub use crate::format::{PendingClaims, Prepared};
use crate::game::Playable;
use crate::judge::with_found;
use crate::judge::Games;
pub use crate::judge::{VerifyOptions, DEFAULT_SEARCH_LIMIT};
use crate::record::{self, Found};
use crate::render::ascii;
use crate::replay::{replay, Reader, Repairable, Replay, ReplayOptions, Violation};
use crate::verdict::{Problem, ProblemKind, Verdict};

/// Verifies every record in `src`, of either notation, in file order.
pub fn verify_source<S: Games>(src: &str, options: VerifyOptions<S>) -> Vec<Verdict> {
    verify_records(src, options).collect()
}

/// The verdicts on the records of `src`, one at a time as the reader finds them.
pub fn verify_records<S: Games>(src: &str, options: VerifyOptions<S>) -> impl Iterator<Item = Verdict> + '_ {
    let mut budget = options.file_budget();
    record::read(src, options.reading()).map(move |found| prepare(src, &found, options).finish(&mut budget))
}

/// Verifies a record found in `src` as far as it can be taken on its own (see [`Prepared`]).
pub fn prepare<'r, S: Games>(src: &str, found: &'r Found, options: VerifyOptions<S>) -> Prepared<'r> {
    struct Prepare<'r, S>(VerifyOptions<S>, PhantomData<&'r ()>);
    impl<'r, S: Games> WithOpenRecord<'r> for Prepare<'r, S> {
        type Output = Prepared<'r>;
        fn run<F: OpenRecord<'r>>(self, record: F) -> Prepared<'r> {
            prepare_format(&record, self.0)
        }
    }
    with_found(src, found, options, Prepare(options, PhantomData)).unwrap_or_else(|u| Prepared::Done(u.verdict))
}

/// A record verified in its format, all but its claims that need a search: the checks before
/// replay, the replay, the first illegal move's alternatives, the claims.
fn prepare_format<'r, S: Games, F: OpenRecord<'r>>(record: &F, options: VerifyOptions<S>) -> Prepared<'r> {
    let mut v = record.verdict();
    v.standing = options.standing;
    if !v.problems.is_empty() {
        return settled(v, None);
    }
    let start = match record.start() {
        Ok(start) => start,
        Err(p) => {
            v.problems.push(p);
            return settled(v, None);
        }
    };
    record.check(&start, &mut v);
    if !v.problems.is_empty() {
        return settled(v, None);
    }
    let tokens = record.tokens();
    let replay_options = ReplayOptions { lenient: options.lenient, max_moves: None };
    let lines = crate::variations::check(&start, tokens, record.variations(), replay_options);
    let mut rep = replay(start, tokens, replay_options);
    // Syntax errors stop a record before replay, but only a replay that met a fault can have passed
    // one: a replay to the end read every move token as the syntax check reads it.
    if !rep.violations.is_empty() || rep.stopped_at.is_some() || lines.faulted {
        record.check_moves(&mut v);
        if !v.problems.is_empty() {
            return settled(v, None);
        }
    }
    v.problems.extend(rep.violations.iter_mut().map(Violation::take_problem));
    v.problems.extend(lines.problems);
    v.notes.extend(lines.notes);
    with_alternatives(&mut v, || record.start().ok(), tokens, &rep, options);
    v.notes.extend(cap_note(&rep));
    let pending = record.judge(rep, &mut v);
    settled(v, pending)
}

/// A record's verdict, its problems in text order, and its claims still to judge if `pending`.
fn settled(mut v: Verdict, pending: Option<PendingClaims>) -> Prepared {
    v.problems.sort_by_key(|p| p.span.start);
    v.status = status_of(&v.problems);
    match pending {
        Some(pending) => Prepared::Pending { verdict: v, pending },
        None => Prepared::Done(v),
    }
}

fn cap_note<G>(rep: &Replay<G>) -> Option<String> {
    (rep.violations.len() >= crate::replay::MAX_VIOLATIONS && rep.stopped_at.is_some())
        .then(|| format!("lenient replay stopped after {} illegal moves", crate::replay::MAX_VIOLATIONS))
}

/// Gives the first illegal move its legal alternatives, each with how far the rest of the record
/// replays with it: a few replays, for illegal records only (which alone make the `start` again,
/// so that a valid record costs nothing more).
fn with_alternatives<S: Games, G: Repairable>(
    v: &mut Verdict,
    start: impl FnOnce() -> Option<G>,
    tokens: &[record::Token],
    rep: &Replay<G>,
    options: VerifyOptions<S>,
) {
    if !v.problems.iter().any(|p| p.kind == ProblemKind::Illegal && p.variation.is_none()) {
        return;
    }
    let Some(start) = start() else { return };
    // A lenient replay went on past the first violation: find where it was.
    let at = match (options.lenient, rep.stopped_at) {
        (false, at) => at,
        (true, _) => replay(start.clone(), tokens, ReplayOptions::default()).stopped_at,
    };
    if let Some(i) = at {
        v.alternatives = crate::alternatives::alternatives(&start, tokens, i);
    }
}

/// The verdicts on the records of `src` as records of the game `G`, which need not be one of
/// referee's (a game defined outside the crate, through the same traits): each record is read as a
/// record of `G` in the common format (a numbered move line outside any record opens one; a
/// `[Game]` tag that names another game is a syntax error), and judged as `verify` judges the
/// games it knows.
pub fn verify_records_of<G: Playable>(src: &str, options: VerifyOptions) -> impl Iterator<Item = Verdict> + '_ {
    verify_records(src, options.with_games(crate::judge::Only::<G>::new()))
}

/// Why a diagram from [`position_diagram`] is not of the position asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShowNote {
    /// Replay stopped at an illegal move, at `span`; the diagram is the position before it.
    StoppedAt {
        /// The illegal move's token.
        span: record::Span,
        /// Why it is illegal.
        message: String,
    },
    /// The record has only `moves` moves; the diagram is its last position.
    Short {
        /// How many moves the record has.
        moves: usize,
    },
}

/// Work to do with the start position and the tokens of one record, whatever its game: see
/// [`with_record`].
pub trait WithStart {
    /// What `run` gives back.
    type Output;
    /// The work, with the record's start position (of the game's engine type `G`) and its tokens.
    fn run<G: Reader>(self, start: G, tokens: &[record::Token]) -> Self::Output;
}

/// Finds record `index` (1-based) of `src` and runs `work` with its start position and tokens, and
/// gives the record's span; `Err` says why the record cannot be replayed (there is none, its syntax,
/// its start), and where.
pub fn with_record<S: Games, W: WithStart>(
    src: &str,
    index: usize,
    options: VerifyOptions<S>,
    work: W,
) -> Result<(W::Output, record::Span), (record::Span, String)> {
    let no_record = |n: usize| (0..0, format!("there is no record {index} (the file has {n})"));
    let Some(found) = record::read(src, options.reading()).nth(index.wrapping_sub(1)) else {
        return Err(no_record(record::read(src, options.reading()).count()));
    };
    with_found_start(src, &found, options, work)
}

/// Runs `work` with the start position and tokens of a record found in `src`, and gives the
/// record's span: [`with_record`] for a caller that has found the record already.
pub fn with_found_start<S: Games, W: WithStart>(
    src: &str,
    found: &Found,
    options: VerifyOptions<S>,
    work: W,
) -> Result<(W::Output, record::Span), (record::Span, String)> {
    struct Start<W>(W);
    impl<'r, W: WithStart> WithOpenRecord<'r> for Start<W> {
        type Output = Result<W::Output, Problem>;
        fn run<F: OpenRecord<'r>>(self, record: F) -> Self::Output {
            Ok(self.0.run(record.start()?, record.tokens()))
        }
    }
    match with_found(src, found, options, Start(work)) {
        Ok(Ok(out)) => Ok((out, found.span())),
        Ok(Err(p)) => Err((p.span, p.message)),
        Err(u) => Err((u.why.span, u.why.message)),
    }
}

/// The diagram of record `index` (1-based) of `src` after `ply` moves (all if `None`), and a note
/// when that position could not be reached; `Err` says why there is no position, and where.
pub fn position_diagram<S: Games>(
    src: &str,
    index: usize,
    ply: Option<usize>,
    options: VerifyOptions<S>,
) -> Result<(String, Option<ShowNote>), (record::Span, String)> {
    position_text(src, index, ply, options, false)
}

/// The position code of record `index` (1-based) of `src` after `ply` moves (all if `None`), on one
/// line, as [`position_diagram`] draws it.
pub fn position_code<S: Games>(
    src: &str,
    index: usize,
    ply: Option<usize>,
    options: VerifyOptions<S>,
) -> Result<(String, Option<ShowNote>), (record::Span, String)> {
    position_text(src, index, ply, options, true)
}

/// A position's diagram, or its code (`code`), for [`position_diagram`] and [`position_code`].
fn position_text<S: Games>(
    src: &str,
    index: usize,
    ply: Option<usize>,
    options: VerifyOptions<S>,
    code: bool,
) -> Result<(String, Option<ShowNote>), (record::Span, String)> {
    struct Show {
        ply: Option<usize>,
        code: bool,
    }
    impl WithStart for Show {
        type Output = (String, Option<ShowNote>);
        fn run<G: Reader>(self, start: G, tokens: &[record::Token]) -> Self::Output {
            let rep = replay(start, tokens, ReplayOptions { lenient: false, max_moves: self.ply });
            let note = if let Some(v) = rep.violations.first() {
                Some(ShowNote::StoppedAt { span: v.span.clone(), message: v.message.clone() })
            } else if self.ply.is_some_and(|p| p > rep.moves) {
                Some(ShowNote::Short { moves: rep.moves })
            } else {
                None
            };
            let text = if self.code { format!("{}\n", rep.position.code()) } else { ascii::diagram(&rep.position) };
            (text, note)
        }
    }
    with_record(src, index, options, Show { ply, code }).map(|(shown, _)| shown)
}
