//! From a file's text to one [`Verdict`] per record.

use crate::game::{BoardView, Game, Recorded, WithRecorded};
use crate::games::phages::{self, Phages};
use crate::games::GameKind;
use crate::record::common::{CommonRecord, TextDiagram};
use crate::record::{self, Found, Record, TokenKind};
use crate::render::ascii;
use crate::replay::{replay, Reader, Reading, Replay, ReplayOptions};
use crate::search::{SearchBudget, DEFAULT_SEARCH_BYTES};
use crate::verdict::{
    compare_final_position, ClaimCheck, ClaimKind, ClaimStatus, Problem, ProblemKind, Status, Unchecked, Verdict,
};

/// How to verify.
#[derive(Clone, Copy, Debug)]
pub struct VerifyOptions {
    /// Replay past illegal moves where the move can still be played as written, listing all of them
    /// (at most [`MAX_VIOLATIONS`](crate::replay::MAX_VIOLATIONS)), rather than stopping at the first.
    pub lenient: bool,
    /// The game to read records as, overriding what their text suggests.
    pub game: Option<GameKind>,
    /// Most positions searched to judge a claim made before the game is over.
    pub search_limit: usize,
    /// Most bytes one such search may hold, whatever `search_limit` says.
    pub search_bytes: usize,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            lenient: false,
            game: None,
            search_limit: DEFAULT_SEARCH_LIMIT,
            search_bytes: DEFAULT_SEARCH_BYTES,
        }
    }
}

impl VerifyOptions {
    /// What the searches of one file may spend: `search_limit` positions a claim, four times that
    /// in all, `search_bytes` a search.
    pub fn file_budget(&self) -> SearchBudget {
        SearchBudget::for_file(self.search_limit, self.search_bytes)
    }
}

/// Enough for real endgames (thousands of positions) while a hopeless search stops in about a
/// second (README, "Claims before the end", has the figures per game).
pub const DEFAULT_SEARCH_LIMIT: usize = 250_000;

impl Reader for Phages {
    fn read(&self, tokens: &[record::Token], i: usize) -> Reading<Self::Move> {
        phages::notation::read(self, tokens, i)
    }

    fn mover(&self) -> usize {
        self.to_move().index()
    }

    fn other_readings(&self, tokens: &[record::Token], i: usize) -> Vec<Self::Move> {
        phages::notation::other_stays(self, tokens, i)
    }

    fn readings_may_differ(&self) -> bool {
        self.stones_per_side() > 2
    }

    fn same_position(&self, other: &Self) -> bool {
        self == other
    }
}

/// Every game in the common record format reads its tokens the same way: syntax, then position.
impl<G: Recorded> Reader for G {
    fn read(&self, tokens: &[record::Token], i: usize) -> Reading<Self::Move> {
        match G::parse_move(tokens[i].text) {
            Err(message) => Reading::Problem { message, apply: None },
            Ok(written) => match self.resolve(written) {
                Ok(m) => Reading::Move(m),
                Err(why) => Reading::Problem { message: why.to_string(), apply: None },
            },
        }
    }

    fn mover(&self) -> usize {
        self.to_move()
    }
}

/// Verifies every record in `src`, of either notation, in file order.
pub fn verify_source(src: &str, options: VerifyOptions) -> Vec<Verdict> {
    verify_records(src, options).collect()
}

/// The verdicts on the records of `src`, one at a time as the reader finds them.
pub fn verify_records(src: &str, options: VerifyOptions) -> impl Iterator<Item = Verdict> + '_ {
    let mut budget = options.file_budget();
    record::read(src, options.game).map(move |found| prepare(src, &found, options).finish(&mut budget))
}

fn problem(kind: ProblemKind, span: record::Span, token: &str, message: String) -> Problem {
    Problem { kind, span, token: token.to_string(), message, legal: Vec::new(), legal_count: 0, board: None }
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

/// The start position and replay of a record, as far as `max_moves` (for diagrams).
pub fn replay_record(
    r: &Record,
    options: VerifyOptions,
    max_moves: Option<usize>,
) -> Result<(Phages, Replay<Phages>), Problem> {
    if let Some(e) = r.syntax_errors.first() {
        return Err(problem(ProblemKind::Syntax, e.span.clone(), "", e.message.clone()));
    }
    let start = phages_start(r, options)?;
    let rep = replay(start.clone(), &r.tokens, ReplayOptions { lenient: options.lenient, max_moves });
    Ok((start, rep))
}

/// The start of a record in the published notation: a fault of its own start diagram is a
/// syntax error; a board with no known start cannot be judged.
pub(crate) fn phages_start(r: &Record, options: VerifyOptions) -> Result<Phages, Problem> {
    phages::notation::setup(r, options.game).map_err(|p| {
        let kind = if p.in_diagram { ProblemKind::Syntax } else { ProblemKind::Undecided };
        problem(kind, p.span, "", p.message)
    })
}

/// A record's status: its worst problem.
fn status_of(problems: &[Problem]) -> Status {
    let has = |kind| problems.iter().any(|p| p.kind == kind);
    if has(ProblemKind::Syntax) {
        Status::SyntaxError
    } else if has(ProblemKind::Undecided) {
        Status::Undecided
    } else if has(ProblemKind::Illegal) {
        Status::Illegal
    } else if problems.is_empty() {
        Status::Valid
    } else {
        Status::Refuted
    }
}

/// A record's verdict as far as it can be taken on its own: all of it, or all but its claims,
/// which draw on the search budget its file shares and so are judged in file order.
pub enum Prepared<'r, 'a> {
    /// The verdict is whole.
    Done(Verdict),
    /// A published record: its claims are still to judge.
    Claims {
        /// The verdict without its claims.
        verdict: Verdict,
        /// The record the claims are in.
        record: &'r Record<'a>,
        /// The replay the claims are judged against.
        replay: Box<Replay<Phages>>,
    },
    /// A common-format record: its claimed result is still to search.
    Search {
        /// The verdict without its claimed result.
        verdict: Verdict,
        /// The search that judges it.
        pending: PendingSearch,
    },
}

impl Prepared<'_, '_> {
    /// The verdict, its claims judged with the file's `budget`.
    pub fn finish(self, budget: &mut SearchBudget) -> Verdict {
        match self {
            Prepared::Done(v) => v,
            Prepared::Claims { mut verdict, record, replay } => {
                finish_record(&mut verdict, record, &replay, budget);
                verdict
            }
            Prepared::Search { mut verdict, pending } => {
                pending.judge(&mut verdict, budget);
                verdict
            }
        }
    }
}

/// A result claimed before a common-format game is over, with the position where the record stops,
/// waiting for its search.
pub struct PendingSearch(Box<dyn JudgeLater>);

impl PendingSearch {
    /// Searches now, with `budget`, and settles the claim in `v`.
    pub fn judge(self, v: &mut Verdict, budget: &mut SearchBudget) {
        self.0.judge(v, budget);
    }
}

trait JudgeLater: Send {
    /// Searches, and settles the claim and what follows from it in `v`.
    fn judge(self: Box<Self>, v: &mut Verdict, budget: &mut SearchBudget);
}

struct PendingClaim<G> {
    position: G,
    /// The claim's place in the verdict's claims.
    claim: usize,
    winner: Option<u8>,
}

impl<G: Recorded> JudgeLater for PendingClaim<G> {
    fn judge(self: Box<Self>, v: &mut Verdict, budget: &mut SearchBudget) {
        let (status, detail) = crate::search::claims::judge(&self.position, self.winner, budget);
        let claim = &mut v.claims[self.claim];
        // A lenient replay's claim holds or fails as replayed: its detail says so again.
        let past = claim.violations_accepted;
        *claim = ClaimCheck { status, detail, violations_accepted: 0, ..claim.clone() }.as_replayed(past);
        v.problems.extend(refuted_claims(std::slice::from_ref(claim)));
        v.problems.sort_by_key(|p| p.span.start);
        v.status = status_of(&v.problems);
    }
}

/// Verifies a record found in `src` as far as it can be taken on its own (see [`Prepared`]).
pub fn prepare<'r, 'a>(src: &str, found: &'r Found<'a>, options: VerifyOptions) -> Prepared<'r, 'a> {
    match found {
        Found::Published(r) => prepare_record(src, r, options),
        Found::Common(r) => prepare_common(src, r, options),
    }
}

/// A published record replayed, its claims still to judge; or its whole verdict when it cannot be
/// replayed.
fn prepare_record<'r, 'a>(src: &str, r: &'r Record<'a>, options: VerifyOptions) -> Prepared<'r, 'a> {
    let hint_kind = options.game.or(r.game_hint().map(|h| h.0)).unwrap_or(GameKind::Quadraphages);
    let mut v = Verdict::new(r.index, r.span.clone(), Some(hint_kind));
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
    v.game = Some(GameKind::of(start.about()));
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
    Prepared::Claims { verdict: v, record: r, replay: Box::new(rep) }
}

/// Judges a replayed published record's claims, and what follows from them.
fn finish_record(v: &mut Verdict, r: &Record, rep: &Replay<Phages>, budget: &mut SearchBudget) {
    v.claims = phages::claims::check(r, &r.tokens, rep, budget);
    v.problems.extend(refuted_claims(&v.claims));
    v.status = status_of(&v.problems);
    let score = rep.position.score();
    v.moves = rep.moves;
    v.notes.extend(phages::claims::readings_note(rep));
    // Over only when every reading of the record ends the game (RULINGS 5b).
    v.game_over = rep.position.is_over() && rep.readings.iter().all(Game::is_over);
    v.score_text = Some(score.to_string());
    v.position = Some(crate::code::Coded::code(&rep.position));
    let sides = [phages::Side::X, phages::Side::O];
    v.score = sides.iter().map(|&s| (s.to_string(), score.count(s, false) as f64)).collect();
    v.score_with_stones = Some(sides.iter().map(|&s| (s.to_string(), score.count(s, true) as f64)).collect());
    if v.game_over {
        v.winner = score.winner().map(|s| s.to_string());
    }
}

fn cap_note<G>(rep: &Replay<G>) -> Option<String> {
    (rep.violations.len() >= crate::replay::MAX_VIOLATIONS && rep.stopped_at.is_some())
        .then(|| format!("lenient replay stopped after {} illegal moves", crate::replay::MAX_VIOLATIONS))
}

/// Gives the first illegal move its legal alternatives, each with how far the rest of the record
/// replays with it: a few replays, for illegal records only (which alone make the `start` again,
/// so that a valid record costs nothing more).
fn with_alternatives<G: crate::repair::Repairable>(
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
        v.alternatives = crate::repair::alternatives(&start, tokens, i);
    }
}

/// The problem of a violation, which takes its board: the replay's claims do not need it.
fn illegal_move(viol: &mut crate::replay::Violation) -> Problem {
    Problem {
        kind: ProblemKind::Illegal,
        span: viol.span.clone(),
        token: viol.token.clone(),
        message: viol.message.clone(),
        legal: viol.legal.clone(),
        legal_count: viol.legal_count,
        board: viol.board.take(),
    }
}

/// A refuted claim is a problem of the record: it states something false.
fn refuted_claims(claims: &[ClaimCheck]) -> Vec<Problem> {
    claims
        .iter()
        .filter(|c| c.status == ClaimStatus::Refuted)
        .map(|c| {
            let what = match c.kind {
                ClaimKind::Result => "the claimed result does not hold",
                ClaimKind::FinalPosition => "the final-position diagram does not match the replay",
            };
            problem(ProblemKind::Claim, c.span.clone(), &c.text, format!("{what}: {}", c.detail))
        })
        .collect()
}

/// The game a common-format record is of: `--game`, else its `[Game]` tag.
pub(crate) fn common_kind(src: &str, r: &CommonRecord, forced: Option<GameKind>) -> Result<GameKind, Problem> {
    if let Some(kind) = forced {
        return Ok(kind);
    }
    let Some(tag) = r.tag("Game") else {
        let at = r.tags.first().map_or(r.span.start..r.span.start, |t| t.span.clone());
        return Err(problem(
            ProblemKind::Syntax,
            at.clone(),
            &src[at],
            "the record has no [Game \"...\"] tag: add one, such as [Game \"Quarod\"], or name the game with --game"
                .into(),
        ));
    };
    GameKind::from_name(tag.value).ok_or_else(|| {
        let known = GameKind::ALL.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ");
        problem(
            ProblemKind::Syntax,
            tag.value_span.clone(),
            &src[tag.value_span.clone()],
            format!("unknown game `{}`: referee knows {known}", tag.value),
        )
    })
}

/// A common-format record verified, all but a claimed result that needs a search.
fn prepare_common<'r, 'a>(src: &str, r: &CommonRecord, options: VerifyOptions) -> Prepared<'r, 'a> {
    let kind = common_kind(src, r, options.game);
    let mut v = Verdict::new(r.index, r.span.clone(), kind.as_ref().ok().copied());
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
    struct Verify<'s, 'r, 'a> {
        src: &'s str,
        record: &'r CommonRecord<'a>,
        options: VerifyOptions,
        verdict: &'r mut Verdict,
    }
    impl WithRecorded for Verify<'_, '_, '_> {
        type Output = Option<PendingSearch>;
        fn run<G: Recorded>(self) -> Option<PendingSearch> {
            verify_recorded::<G>(self.src, self.record, self.options, self.verdict)
        }
    }
    let mut pending = None;
    match kind {
        Err(p) => v.problems.push(p),
        // Syntax errors stop a record before replay: its claims are not judged.
        Ok(_) if !v.problems.is_empty() => {}
        Ok(k) => {
            let verify = Verify { src, record: r, options, verdict: &mut v };
            if let Some(p) = k.with_recorded(verify) {
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
    v.problems.sort_by_key(|p| p.span.start);
    v.status = status_of(&v.problems);
    match pending {
        Some(pending) => Prepared::Search { verdict: v, pending },
        None => Prepared::Done(v),
    }
}

fn syntax_problem(src: &str, e: &record::SyntaxError) -> Problem {
    problem(ProblemKind::Syntax, e.span.clone(), &src[e.span.clone()], e.message.clone())
}

/// A tag's value as a number, or a syntax problem at the value; `too_large` says why a number past
/// 255 can be none (the game then says which numbers it takes).
fn number_tag(src: &str, r: &CommonRecord, name: &str, too_large: &str) -> Result<Option<u8>, Problem> {
    let Some(t) = r.tag(name) else { return Ok(None) };
    let value = t.value.trim();
    let message = match crate::code::read_number(value, u64::from(u8::MAX)) {
        // At most 255.
        Ok(n) => return Ok(Some(n as u8)),
        Err(crate::code::NumberError::NotDigits) => format!("the {name} tag must be a whole number, not `{}`", t.value),
        Err(crate::code::NumberError::TooLarge) => {
            format!("the {name} tag is {}: {too_large}", crate::code::shown_number(value))
        }
    };
    Err(problem(ProblemKind::Syntax, t.value_span.clone(), &src[t.value_span.clone()], message))
}

/// The start position of a common-format record: its `[Position]` tag, else its size and players
/// tags and its setup diagram.
pub fn common_start<G: Recorded>(src: &str, r: &CommonRecord) -> Result<G, Problem> {
    let size = number_tag(src, r, "Size", "no board is that large")?;
    let players = number_tag(src, r, "Players", "no game has that many players")?;
    if let Some(tag) = r.tag("Position") {
        return coded_start(src, r, tag, size, players);
    }
    let at = r
        .tag("Size")
        .or(r.tag("Players"))
        .or(r.tag("Game"))
        .map_or(r.span.start..r.span.start, |t| t.value_span.clone());
    let empty = G::start(size, players).map_err(|m| problem(ProblemKind::Syntax, at.clone(), &src[at], m))?;
    match &r.setup {
        None => Ok(empty),
        Some(d) => {
            let glyphs = d.glyphs();
            empty.with_setup(&glyphs).map_err(|m| problem(ProblemKind::Syntax, d.span.clone(), "", m))
        }
    }
}

/// The start position a `[Position "CODE"]` tag gives (grammar.md, "Position codes"). The code
/// must be of the record's game and agree with its `[Size]` and `[Players]` tags and with its setup
/// diagram, if it has them: a record that says two things about its start says nothing sure.
fn coded_start<G: Recorded>(
    src: &str,
    r: &CommonRecord,
    tag: &record::common::Tag,
    size: Option<u8>,
    players: Option<u8>,
) -> Result<G, Problem> {
    // Spaces around the code inside the quotes are no part of it.
    let raw = &src[tag.value_span.clone()];
    let code = raw.trim();
    let begin = tag.value_span.start + (raw.len() - raw.trim_start().len());
    let value = begin..begin + code.len();
    let whole = |message: String| problem(ProblemKind::Syntax, value.clone(), code, message);
    if let (Ok(of), Some(game)) = (crate::games::game_of(code), GameKind::from_name(G::ABOUT.title)) {
        if of != game {
            return Err(whole(format!("this position code is of {of}, but the record is of {game}")));
        }
    }
    let start = crate::games::game_of(code).and_then(|_| G::from_code(code)).map_err(|e| {
        let at = (value.start + e.at).min(value.end);
        let end = src[at..value.end].chars().next().map_or(at, |c| at + c.len_utf8());
        problem(ProblemKind::Syntax, at..end, &src[at..end], e.message)
    })?;
    let tag_fault = |name: &str, message: String| {
        let at = r.tag(name).map_or(value.clone(), |t| t.value_span.clone());
        problem(ProblemKind::Syntax, at.clone(), &src[at], message)
    };
    let g = start.geometry();
    if let Some(size) = size.filter(|&s| s != g.size()) {
        let board = match g {
            crate::geometry::Geometry::Square { size: n } => format!("a {n}x{n} board"),
            crate::geometry::Geometry::Hex { side } => format!("a hex board of side {side}"),
        };
        return Err(tag_fault("Size", format!("the [Size] tag says {size}, but the [Position] code draws {board}")));
    }
    let count = start.player_names().len();
    if let Some(players) = players.filter(|&p| p as usize != count) {
        return Err(tag_fault(
            "Players",
            format!("the [Players] tag says {players}, but the [Position] code is of a game of {count} players"),
        ));
    }
    if let Some(d) = &r.setup {
        let glyphs = d.glyphs();
        let drawn: Vec<&str> = g.cells().map(|c| start.glyph(c)).collect();
        let differ: Vec<String> = g
            .cells()
            .zip(&glyphs)
            .zip(&drawn)
            .filter(|((_, a), b)| a != b)
            .map(|((c, a), b)| format!("{} shows {a}, the code has {b}", g.label(c)))
            .collect();
        if glyphs.len() != drawn.len() || !differ.is_empty() {
            let how = if glyphs.len() != drawn.len() {
                format!("the diagram has {} cells, the code's board {}", glyphs.len(), drawn.len())
            } else {
                let shown = differ.iter().take(6).cloned().collect::<Vec<_>>().join("; ");
                format!("{} cells differ: {shown}", differ.len())
            };
            let message = format!("the setup diagram does not match the [Position] code: {how}");
            return Err(problem(ProblemKind::Syntax, d.span.clone(), "", message));
        }
    }
    Ok(start)
}

/// Verifies a common-format record of game `G` into `v`; a result claimed before the game is over
/// is left to search later, in file order, and returned as pending.
fn verify_recorded<G: Recorded>(
    src: &str,
    r: &CommonRecord,
    options: VerifyOptions,
    v: &mut Verdict,
) -> Option<PendingSearch> {
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
    judge_recorded(r, &rep, v)
}

/// Judges the claims of a replayed common-format record (its result, its final diagram) and
/// gives the verdict its score; a result claimed before the game is over comes back as a search
/// still to make. `repair` judges a repaired replay with it too.
pub(crate) fn judge_recorded<G: Recorded>(r: &CommonRecord, rep: &Replay<G>, v: &mut Verdict) -> Option<PendingSearch> {
    let gap = rep.incomplete();
    let accepted = rep.violations_accepted();
    let position = &rep.position;
    let names = position.player_names();
    let outcome = position.outcome();
    // The result: the movetext's result token, else the Result tag.
    let token = r.tokens.iter().find(|t| t.kind.is_claim()).map(|t| (t.kind, t.span.clone(), t.text.to_string()));
    let tag =
        r.tag("Result").map(|t| (record::common::result_kind(t.value), t.value_span.clone(), t.value.to_string()));
    if let (Some((a, _, at)), Some((Some(b), span, bt))) = (&token, &tag) {
        if *a != *b {
            v.problems.push(problem(
                ProblemKind::Claim,
                span.clone(),
                bt,
                format!("the Result tag says {bt} but the movetext ends with {at}"),
            ));
        }
    }
    let claimed = token.map(|(k, s, t)| (Some(k), s, t)).or(tag);
    let mut pending = None;
    if let Some((kind, span, text)) = claimed {
        // The violations past which the claim was judged: none unless judged against the replay.
        let mut past = 0;
        let (status, detail) = match kind {
            None => (ClaimStatus::Refuted, format!("`{text}` is not a result: {}", record::common::RESULT_SYNTAX)),
            Some(TokenKind::Result { winner: None, players: 0 }) => {
                (ClaimStatus::Unchecked(Unchecked::NoResult), "the record claims no result (`*`)".to_string())
            }
            Some(TokenKind::Result { players, .. }) if players as usize != names.len() => (
                ClaimStatus::Refuted,
                format!("`{text}` has {players} places but the game has {} players", names.len()),
            ),
            Some(TokenKind::Result { winner, .. }) => {
                past = accepted;
                match (&gap, &outcome) {
                    (Some(g), _) => (ClaimStatus::Unchecked(Unchecked::IllegalMoves), g.clone()),
                    // Settled at once where the rules say so, else searched later, in file order,
                    // since the file's searches share one budget.
                    (None, None) => crate::search::claims::settled(position, winner).unwrap_or_else(|| {
                        pending = Some(PendingClaim { position: position.clone(), claim: v.claims.len(), winner });
                        (
                            ClaimStatus::Unchecked(Unchecked::NotSearched),
                            "the record stops before the game is over; its continuations are still to search"
                                .to_string(),
                        )
                    }),
                    (None, Some(o)) => {
                        let said = winner.map_or("nobody wins".to_string(), |w| format!("{} wins", names[w as usize]));
                        let real = describe_outcome(names, o);
                        if o.winner == winner.map(usize::from) {
                            (ClaimStatus::Confirmed, format!("the game is over: {real}"))
                        } else {
                            (ClaimStatus::Refuted, format!("the record says {said}, but the game is over: {real}"))
                        }
                    }
                }
            }
            Some(_) => (ClaimStatus::Unchecked(Unchecked::NotSearched), String::new()),
        };
        let claim = ClaimCheck { kind: ClaimKind::Result, span, text, status, detail, violations_accepted: 0 };
        v.claims.push(claim.as_replayed(past));
    }
    if let Some(d) = &r.final_position {
        let (status, detail) = match &gap {
            Some(g) => (ClaimStatus::Unchecked(Unchecked::IllegalMoves), g.clone()),
            None => compare_diagram(position, d),
        };
        v.claims.push(ClaimCheck::final_position(d.span.clone(), (status, detail), accepted));
    }
    v.problems.extend(refuted_claims(&v.claims));
    v.moves = rep.moves;
    v.game_over = position.is_over();
    v.score_text = Some(match &outcome {
        Some(o) => describe_outcome(names, o),
        None => position.score().to_string(),
    });
    v.position = Some(position.code());
    let points = outcome.as_ref().map_or_else(|| position.points(), |o| o.points.clone());
    v.score = names.iter().map(|n| n.to_string()).zip(points).collect();
    v.winner = outcome.as_ref().and_then(|o| o.winner).map(|w| names[w].to_string());
    pending.map(|p| PendingSearch(Box::new(p)))
}

/// `Blue wins 20-16: ...` in the game's words.
fn describe_outcome(names: &[&str], o: &crate::game::Outcome) -> String {
    let points = names.iter().zip(&o.points).map(|(n, p)| format!("{n} {p}")).collect::<Vec<_>>().join(", ");
    match o.winner {
        Some(w) => format!("{} wins: {points} ({})", names[w], o.detail),
        None => format!("nobody wins: {points} ({})", o.detail),
    }
}

/// A final diagram against the position, cell by cell, once its shape is the board's.
fn compare_diagram<G: BoardView>(position: &G, d: &TextDiagram) -> (ClaimStatus, String) {
    let g = position.geometry();
    let cells: Vec<_> = g.cells().collect();
    let glyphs = d.glyphs();
    if glyphs.len() != cells.len() || d.rows.len() != g.height() as usize {
        let (n, rows) = (cells.len(), g.height());
        let message =
            format!("the diagram has {} cells in {} rows; the board has {n} in {rows}", glyphs.len(), d.rows.len());
        return (ClaimStatus::Refuted, message);
    }
    let shown: Vec<_> = cells.into_iter().zip(glyphs).collect();
    compare_final_position(position, &shown)
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
    let found = record::read(src, options.game).nth(index.wrapping_sub(1));
    let r = match found {
        None => return Err(no_record(record::read(src, options.game).count())),
        Some(Found::Published(r)) => r,
        Some(Found::Common(r)) => {
            if let Some(e) = r.syntax_errors.first() {
                return Err((e.span.clone(), e.message.clone()));
            }
            struct Start<'s, 'r, 'a, W> {
                src: &'s str,
                record: &'r CommonRecord<'a>,
                work: W,
            }
            impl<W: WithStart> WithRecorded for Start<'_, '_, '_, W> {
                type Output = Result<W::Output, (record::Span, String)>;
                fn run<G: Recorded>(self) -> Self::Output {
                    let start = common_start::<G>(self.src, self.record).map_err(|p| (p.span, p.message))?;
                    Ok(self.work.run(start, &self.record.tokens))
                }
            }
            let kind = common_kind(src, &r, options.game).map_err(|p| (p.span, p.message))?;
            let out = kind.with_recorded(Start { src, record: &r, work }).unwrap_or_else(|| {
                Err((r.span.clone(), format!("{kind} records are not written in the common format")))
            })?;
            return Ok((out, r.span.clone()));
        }
    };
    if let Some(e) = r.syntax_errors.first() {
        return Err((e.span.clone(), e.message.clone()));
    }
    let start = phages_start(&r, options).map_err(|p| (p.span, p.message))?;
    Ok((work.run(start, &r.tokens), r.span.clone()))
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
