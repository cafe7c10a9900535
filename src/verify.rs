//! From a file's text to one [`Verdict`] per record.

use crate::game::{About, CommonFormat, Format, Game, WithCommonFormat};
use crate::games::phages;
use crate::games::GameKind;
use crate::judge::{
    common_kind, finish_record, judge_common, phages_start, problem, status_of, syntax_problem, with_found, Judge,
    Unstarted, WithFound,
};
pub use crate::judge::{common_start, replay_record, PendingClaims, Prepared, VerifyOptions, DEFAULT_SEARCH_LIMIT};
use crate::record::common::CommonRecord;
use crate::record::{self, Found, Record, TokenKind};
use crate::render::ascii;
use crate::replay::Repairable;
use crate::replay::{replay, Reader, Replay, ReplayOptions};
use crate::search::SearchBudget;
use crate::verdict::{Problem, ProblemKind, Verdict};

/// Verifies every record in `src`, of either notation, in file order.
pub fn verify_source(src: &str, options: VerifyOptions) -> Vec<Verdict> {
    verify_records(src, options).collect()
}

/// The verdicts on the records of `src`, one at a time as the reader finds them.
pub fn verify_records(src: &str, options: VerifyOptions) -> impl Iterator<Item = Verdict> + '_ {
    let mut budget = options.file_budget();
    record::read(src, options.game).map(move |found| prepare(src, &found, options).finish(&mut budget))
}

/// The stone tokens written per phase on a full line, when the movetext shows it.
/// The stone tokens written per phase, when every full line after the first (two turns, two
/// numbers) writes the same number of them; `None` when the lines disagree or there are none.
fn stones_written_per_phase(r: &Record) -> Option<usize> {
    let mut counts = r.lines.iter().skip(1).filter_map(|l| {
        let tokens = r.line_tokens(l);
        let mut numbers =
            tokens.iter().enumerate().filter(|(_, t)| matches!(t.kind, TokenKind::Number(_))).map(|(i, _)| i);
        // A full line with k stones a phase: k moves, a number, k moves, for each side.
        let k = numbers.next()?;
        (numbers.next() == Some(3 * k + 1) && numbers.next().is_none() && tokens.len() == 4 * k + 2).then_some(k)
    });
    let first = counts.next()?;
    counts.all(|c| c == first).then_some(first)
}

/// Verifies a record found in `src` as far as it can be taken on its own (see [`Prepared`]).
pub fn prepare<'r, 'a>(src: &str, found: &'r Found<'a>, options: VerifyOptions) -> Prepared<'r> {
    match found {
        Found::Published(r) => prepare_record(src, r, options),
        Found::Common(r) => prepare_common(src, r, options),
    }
}

/// A published record replayed, its claims still to judge; or its whole verdict when it cannot be
/// replayed.
fn prepare_record<'r, 'a>(src: &str, r: &'r Record<'a>, options: VerifyOptions) -> Prepared<'r> {
    let hint_kind = options.game.or(r.game_hint().map(|h| h.0)).unwrap_or(GameKind::Quadraphages);
    let mut v = Verdict::new(r.index, r.span.clone(), Some(hint_kind.about()));
    if !r.syntax_errors.is_empty() {
        v.problems = r
            .syntax_errors
            .iter()
            .map(|e| problem(ProblemKind::Syntax, e.span.clone(), &src[e.span.clone()], e.message.clone()))
            .collect();
        v.status = status_of(&v.problems);
        return Prepared::Done(v);
    }
    let start = match phages_start(r, options) {
        Ok(s) => s,
        Err(p) => {
            v.problems.push(Problem { token: src[p.span.clone()].to_string(), ..p });
            v.status = status_of(&v.problems);
            return Prepared::Done(v);
        }
    };
    v.game = Some(start.about());
    if r.header.is_none() {
        v.notes.push(format!("the record has no column header: {} is taken to move first", start.to_move()));
    }
    if r.startup.is_none() && r.startup_code.is_none() {
        let stones =
            |s| start.stones(s).iter().map(|&c| start.geometry().label(c).to_string()).collect::<Vec<_>>().join(" ");
        v.notes.push(format!(
            "start position: the default for this board (X {}, O {})",
            stones(phages::Side::X),
            stones(phages::Side::O)
        ));
    }
    let per_side = start.stones_per_side();
    if let Some(written) = stones_written_per_phase(r).filter(|&w| w != per_side) {
        let first = r.lines.iter().skip(1).find(|l| l.tokens.len() > 1).unwrap_or(&r.lines[0]);
        v.problems.push(problem(
            ProblemKind::Undecided,
            first.span.clone(),
            "",
            format!(
                "this record moves {written} stones per phase on a {} where each side has {per_side} stones; no published rules say how that is played, so its moves cannot be judged",
                phages::notation::board_name(start.geometry())
            ),
        ));
        v.status = status_of(&v.problems);
        return Prepared::Done(v);
    }
    let mut rep = replay(start, &r.tokens, ReplayOptions { lenient: options.lenient, max_moves: None });
    v.problems.extend(rep.violations.iter_mut().map(illegal_move));
    with_alternatives(&mut v, || phages_start(r, options).ok(), &r.tokens, &rep, options);
    v.notes.extend(cap_note(&rep));
    if !phages::claims::needs_search(&r.tokens, &rep) {
        // Judged here, where records are judged side by side: no budget is drawn on.
        finish_record(&mut v, r, &rep, &mut SearchBudget::for_file(0, 0));
        return Prepared::Done(v);
    }
    Prepared::Pending { verdict: v, pending: crate::judge::published_claims(r, rep) }
}

fn cap_note<G>(rep: &Replay<G>) -> Option<String> {
    (rep.violations.len() >= crate::replay::MAX_VIOLATIONS && rep.stopped_at.is_some())
        .then(|| format!("lenient replay stopped after {} illegal moves", crate::replay::MAX_VIOLATIONS))
}

/// Gives the first illegal move its legal alternatives, each with how far the rest of the record
/// replays with it: a few replays, for illegal records only (which alone make the `start` again,
/// so that a valid record costs nothing more).
fn with_alternatives<G: crate::repair::search::Repairable>(
    v: &mut Verdict,
    start: impl FnOnce() -> Option<G>,
    tokens: &[record::Token],
    rep: &Replay<G>,
    options: VerifyOptions,
) {
    if !v.problems.iter().any(|p| p.kind == ProblemKind::Illegal) {
        return;
    }
    let Some(start) = start() else { return };
    // A lenient replay went on past the first violation: find where it was.
    let at = match (options.lenient, rep.stopped_at) {
        (false, at) => at,
        (true, _) => replay(start.clone(), tokens, ReplayOptions::default()).stopped_at,
    };
    if let Some(i) = at {
        v.alternatives = crate::repair::search::alternatives(&start, tokens, i);
    }
}

/// The problem of a violation, which takes its board: the replay's claims do not need it.
fn illegal_move(viol: &mut crate::replay::Violation) -> Problem {
    Problem {
        kind: ProblemKind::Illegal,
        span: viol.span.clone(),
        token: viol.token.clone(),
        message: viol.message.clone(),
        rule: Some(viol.rule),
        legal: viol.legal.clone(),
        legal_count: viol.legal_count,
        board: viol.board.take(),
    }
}

/// A common-format record verified, all but a claimed result that needs a search.
fn prepare_common<'r>(src: &str, r: &CommonRecord, options: VerifyOptions) -> Prepared<'r> {
    let kind = common_kind(src, r, options.game);
    let mut v = common_verdict(src, r, kind.as_ref().ok().map(|k| k.about()));
    struct Verify<'s, 'r, 'a> {
        src: &'s str,
        record: &'r CommonRecord<'a>,
        options: VerifyOptions,
        verdict: &'r mut Verdict,
    }
    impl WithCommonFormat for Verify<'_, '_, '_> {
        type Output = Option<PendingClaims<'static>>;
        fn run<G: CommonFormat>(self) -> Option<PendingClaims<'static>> {
            verify_common::<G>(self.src, self.record, self.options, self.verdict)
        }
    }
    let mut pending = None;
    match kind {
        Err(p) => v.problems.push(p),
        // Syntax errors stop a record before replay: its claims are not judged.
        Ok(_) if !v.problems.is_empty() => {}
        Ok(k) => {
            let verify = Verify { src, record: r, options, verdict: &mut v };
            if let Some(p) = k.with_common_format(verify) {
                pending = p;
            } else {
                let tag = r.tag("Game").map_or(r.span.start..r.span.start, |t| t.value_span.clone());
                v.problems.push(problem(
                    ProblemKind::Syntax,
                    tag.clone(),
                    &src[tag],
                    format!(
                        "{k} records are written in their published notation (grammar.md), not in the common format"
                    ),
                ));
            }
        }
    }
    common_prepared(v, pending)
}

/// The verdict on a common-format record before it is replayed: its game, if known, and its syntax
/// errors (a record with no moves and no result is one).
fn common_verdict(src: &str, r: &CommonRecord, game: Option<&'static About>) -> Verdict {
    let mut v = Verdict::new(r.index, r.span.clone(), game);
    v.problems = r.syntax_errors.iter().map(|e| syntax_problem(src, e)).collect();
    if r.tokens.is_empty() {
        let at = r.tags.first().map_or(r.span.start..r.span.start, |t| t.span.clone());
        v.problems.push(problem(
            ProblemKind::Syntax,
            at.clone(),
            &src[at],
            "the record has no moves and no result, so there is nothing to verify: write its moves, or `*` for a game not yet begun".into(),
        ));
    }
    v
}

/// A common-format record's verdict, its problems in text order, and its claimed result still to
/// search if it is `pending`.
fn common_prepared<'r>(mut v: Verdict, pending: Option<PendingClaims<'static>>) -> Prepared<'r> {
    v.problems.sort_by_key(|p| p.span.start);
    v.status = status_of(&v.problems);
    match pending {
        Some(pending) => Prepared::Pending { verdict: v, pending },
        None => Prepared::Done(v),
    }
}

/// The verdicts on the records of `src` as records of the game `G`, which need not be one of
/// referee's (a game defined outside the crate, through the same traits): each record is read as a
/// record of `G` in the common format (a numbered move line outside any record opens one; a
/// `[Game]` tag that names another game is a syntax error), and judged as `verify` judges the
/// games it knows.
pub fn verify_records_of<G: CommonFormat>(src: &str, options: VerifyOptions) -> impl Iterator<Item = Verdict> + '_ {
    let mut budget = options.file_budget();
    record::read_format(src, Some(Format::Common)).map(move |found| {
        let about = const { &G::ABOUT };
        let prepared = match &found {
            Found::Common(r) => {
                let mut v = common_verdict(src, r, Some(about));
                if let Some(t) = r.tag("Game").filter(|t| !about.is_named(t.value)) {
                    let message =
                        format!("the [Game] tag names `{}`, but these records are read as {}", t.value, about.title);
                    v.problems.push(problem(ProblemKind::Syntax, t.value_span.clone(), t.value, message));
                }
                let pending = if v.problems.is_empty() { verify_common::<G>(src, r, options, &mut v) } else { None };
                common_prepared(v, pending)
            }
            Found::Published(r) => {
                let mut v = Verdict::new(r.index, r.span.clone(), Some(about));
                let message = format!(
                    "this record is in the published notation; {} records are in the common format",
                    about.title
                );
                v.problems.push(problem(ProblemKind::Syntax, r.span.start..r.span.start, "", message));
                v.status = status_of(&v.problems);
                Prepared::Done(v)
            }
        };
        prepared.finish(&mut budget)
    })
}

/// Verifies a common-format record of game `G` into `v`; a result claimed before the game is over
/// is left to search later, in file order, and returned as pending.
fn verify_common<G: CommonFormat>(
    src: &str,
    r: &CommonRecord,
    options: VerifyOptions,
    v: &mut Verdict,
) -> Option<PendingClaims<'static>> {
    let start = match common_start::<G>(src, r) {
        Ok(s) => s,
        Err(p) => {
            v.problems.push(p);
            return None;
        }
    };
    if r.setup.is_none() && r.tag("Position").is_none() {
        if let Some(why) = start.no_game() {
            let at = r.tag("Size").or(r.tag("Players")).map_or(r.span.start..r.span.start, |t| t.value_span.clone());
            v.problems.push(problem(ProblemKind::Undecided, at.clone(), &src[at], why));
            return None;
        }
    }
    let mut errors = r.tokens.iter().filter(|t| t.kind == TokenKind::Written).filter_map(|t| {
        G::parse_move(t.text).err().map(|message| problem(ProblemKind::Syntax, t.span.clone(), t.text, message))
    });
    v.problems.extend(errors.by_ref().take(record::MAX_SYNTAX_ERRORS));
    if let Some(more) = errors.next() {
        v.problems.push(Problem {
            message: format!(
                "more syntax errors follow: referee lists the first {} of a record",
                record::MAX_SYNTAX_ERRORS
            ),
            ..more
        });
    }
    if !v.problems.is_empty() {
        return None;
    }
    let mut rep = replay(start, &r.tokens, ReplayOptions { lenient: options.lenient, max_moves: None });
    v.problems.extend(rep.violations.iter_mut().map(illegal_move));
    with_alternatives(v, || common_start::<G>(src, r).ok(), &r.tokens, &rep, options);
    v.notes.extend(cap_note(&rep));
    judge_common(r, &rep, v)
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
pub fn with_record<W: WithStart>(
    src: &str,
    index: usize,
    options: VerifyOptions,
    work: W,
) -> Result<(W::Output, record::Span), (record::Span, String)> {
    let no_record = |n: usize| (0..0, format!("there is no record {index} (the file has {n})"));
    let Some(found) = record::read(src, options.game).nth(index.wrapping_sub(1)) else {
        return Err(no_record(record::read(src, options.game).count()));
    };
    struct Start<W>(W);
    impl<W: WithStart> WithFound for Start<W> {
        type Output = W::Output;
        fn run<G: Repairable>(self, start: G, tokens: &[record::Token], _: &mut dyn Judge<G>) -> W::Output {
            self.0.run(start, tokens)
        }
    }
    let span = found.span();
    match with_found(src, &found, options, SearchBudget::for_file(0, 0), Start(work)) {
        Ok(out) => Ok((out, span)),
        Err(Unstarted::Problem(p)) => Err((p.span, p.message)),
        Err(Unstarted::NotCommon(kind)) => Err((span, format!("{kind} records are not written in the common format"))),
    }
}

/// The diagram of record `index` (1-based) of `src` after `ply` moves (all if `None`), and a note
/// when that position could not be reached; `Err` says why there is no position, and where.
pub fn position_diagram(
    src: &str,
    index: usize,
    ply: Option<usize>,
    options: VerifyOptions,
) -> Result<(String, Option<ShowNote>), (record::Span, String)> {
    position_text(src, index, ply, options, false)
}

/// The position code of record `index` (1-based) of `src` after `ply` moves (all if `None`), on one
/// line, as [`position_diagram`] draws it.
pub fn position_code(
    src: &str,
    index: usize,
    ply: Option<usize>,
    options: VerifyOptions,
) -> Result<(String, Option<ShowNote>), (record::Span, String)> {
    position_text(src, index, ply, options, true)
}

/// A position's diagram, or its code (`code`), for [`position_diagram`] and [`position_code`].
fn position_text(
    src: &str,
    index: usize,
    ply: Option<usize>,
    options: VerifyOptions,
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
