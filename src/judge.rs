//! Judging a replayed record: the statuses, the problems, the claims checked against the replay
//! (its result, its final diagram, the published notation's claims), and the start a record gives.
//! Below the repair search, which judges every repaired replay the same way; `verify` runs it over
//! the records of a text.

use crate::game::{BoardView, CommonFormat, Game, WithCommonFormat};
use crate::games::phages::{self, Phages};
use crate::games::GameKind;
use crate::record::common::{CommonRecord, TextDiagram};
use crate::record::{self, Found, Record, Token, TokenKind};
use crate::replay::{replay, Repairable, Replay, ReplayOptions};
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

pub(crate) fn problem(kind: ProblemKind, span: record::Span, token: &str, message: String) -> Problem {
    Problem::new(kind, span, token, message)
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
pub(crate) fn status_of(problems: &[Problem]) -> Status {
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

/// A record's verdict as far as it can be taken on its own: all of it, or all but its claims that
/// draw on the search budget its file shares, and so are judged in file order.
pub enum Prepared<'r> {
    /// The verdict is whole.
    Done(Verdict),
    /// The verdict without the claims still to judge.
    Pending {
        /// The verdict so far.
        verdict: Verdict,
        /// The claims still to judge, and how.
        pending: PendingClaims<'r>,
    },
}

impl Prepared<'_> {
    /// The verdict, its claims judged with the file's `budget`.
    pub fn finish(self, budget: &mut SearchBudget) -> Verdict {
        match self {
            Prepared::Done(v) => v,
            Prepared::Pending { mut verdict, pending } => {
                pending.0.judge(&mut verdict, budget);
                verdict
            }
        }
    }

    /// The verdict so far, without judging what is pending.
    pub fn verdict(self) -> Verdict {
        match self {
            Prepared::Done(v) | Prepared::Pending { verdict: v, .. } => v,
        }
    }
}

/// A record's claims that wait for a search, with what judging them needs: a common-format
/// result claimed before the game is over, with the position where the record stops; or a
/// published record's claims, with its replay.
pub struct PendingClaims<'r>(Box<dyn JudgeLater + 'r>);

trait JudgeLater: Send {
    /// Judges the claims with `budget`, and settles what follows from them in `v`.
    fn judge(self: Box<Self>, v: &mut Verdict, budget: &mut SearchBudget);
}

/// A common-format result claimed before the game is over.
struct ResultToSearch<G> {
    position: G,
    /// The claim's place in the verdict's claims.
    claim: usize,
    winner: Option<u8>,
}

/// A published record's claims, to judge against its replay.
struct PublishedClaims<'r, 'a> {
    record: &'r Record<'a>,
    replay: Box<Replay<Phages>>,
}

impl JudgeLater for PublishedClaims<'_, '_> {
    fn judge(self: Box<Self>, v: &mut Verdict, budget: &mut SearchBudget) {
        finish_record(v, self.record, &self.replay, budget);
    }
}

/// The published record `record`'s claims against `replay`, judged later.
pub(crate) fn published_claims<'r>(record: &'r Record, replay: Replay<Phages>) -> PendingClaims<'r> {
    PendingClaims(Box::new(PublishedClaims { record, replay: Box::new(replay) }))
}

impl<G: CommonFormat> JudgeLater for ResultToSearch<G> {
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

/// Judges a replayed published record's claims, and what follows from them.
pub(crate) fn finish_record(v: &mut Verdict, r: &Record, rep: &Replay<Phages>, budget: &mut SearchBudget) {
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

/// A refuted claim is a problem of the record: it states something false.
pub(crate) fn refuted_claims(claims: &[ClaimCheck]) -> Vec<Problem> {
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

pub(crate) fn syntax_problem(src: &str, e: &record::SyntaxError) -> Problem {
    problem(ProblemKind::Syntax, e.span.clone(), &src[e.span.clone()], e.message.clone())
}

/// A tag's value as a number, or a syntax problem at the value; `too_large` says why a number past
/// 255 can be none (the game then says which numbers it takes).
pub(crate) fn number_tag(src: &str, r: &CommonRecord, name: &str, too_large: &str) -> Result<Option<u8>, Problem> {
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
pub fn common_start<G: CommonFormat>(src: &str, r: &CommonRecord) -> Result<G, Problem> {
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
pub(crate) fn coded_start<G: CommonFormat>(
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
    let located = |e: crate::code::CodeError| {
        let at = (value.start + e.at).min(value.end);
        let end = src[at..value.end].chars().next().map_or(at, |c| at + c.len_utf8());
        problem(ProblemKind::Syntax, at..end, &src[at..end], e.message)
    };
    // A code of another game is refused here: of a game referee knows, as such; of none, with the
    // games it knows. `G` reads a code of its own name, whether the registry holds it or not.
    let game = G::ABOUT.name;
    if code.split('_').next() != Some(game) {
        return Err(match crate::games::game_of(code) {
            Ok(of) => whole(format!("this position code is of {of}, but the record is of {game}")),
            Err(e) => located(e),
        });
    }
    let start = G::from_code(code).map_err(located)?;
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

/// Judges the claims of a replayed common-format record (its result, its final diagram) and
/// gives the verdict its score; a result claimed before the game is over comes back as a search
/// still to make. `repair` judges a repaired replay with it too.
pub(crate) fn judge_common<G: CommonFormat>(
    r: &CommonRecord,
    rep: &Replay<G>,
    v: &mut Verdict,
) -> Option<PendingClaims<'static>> {
    let outcome = rep.position.outcome();
    let mut pending = None;
    if let Some((kind, span, text)) = claimed_result(r, v) {
        let claim = v.claims.len();
        let (status, detail, past) = judge_result(kind, &text, rep, outcome.as_ref(), |winner| {
            pending = Some(ResultToSearch { position: rep.position.clone(), claim, winner })
        });
        let claim = ClaimCheck { kind: ClaimKind::Result, span, text, status, detail, violations_accepted: 0 };
        v.claims.push(claim.as_replayed(past));
    }
    if let Some(d) = &r.final_position {
        let (status, detail) = match rep.incomplete() {
            Some(g) => (ClaimStatus::Unchecked(Unchecked::IllegalMoves), g),
            None => compare_diagram(&rep.position, d),
        };
        v.claims.push(ClaimCheck::final_position(d.span.clone(), (status, detail), rep.violations_accepted()));
    }
    v.problems.extend(refuted_claims(&v.claims));
    score_common(v, rep, outcome.as_ref());
    pending.map(|p| PendingClaims(Box::new(p)))
}

/// The result a common-format record claims: its movetext's result token, else its `[Result]` tag
/// (`None` for a tag that is no result token), with where and as written. A tag that says other
/// than the token is a problem of the record.
fn claimed_result(r: &CommonRecord, v: &mut Verdict) -> Option<(Option<TokenKind>, record::Span, String)> {
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
    token.map(|(k, s, t)| (Some(k), s, t)).or(tag)
}

/// A claimed result (`kind`, written `text`) against the replay: its status, its detail, and how
/// many violations a lenient replay went past to judge it. A result claimed before the game is
/// over is settled here where the rules say so; else `search_later` is called with the winner
/// claimed, and the claim
/// waits for its search, in file order, since the file's searches share one budget.
fn judge_result<G: CommonFormat>(
    kind: Option<TokenKind>,
    text: &str,
    rep: &Replay<G>,
    outcome: Option<&crate::game::Outcome>,
    search_later: impl FnOnce(Option<u8>),
) -> (ClaimStatus, String, usize) {
    let names = rep.position.player_names();
    let (status, detail) = match kind {
        None => (ClaimStatus::Refuted, format!("`{text}` is not a result: {}", record::common::RESULT_SYNTAX)),
        Some(TokenKind::Result { winner: None, players: 0 }) => {
            (ClaimStatus::Unchecked(Unchecked::NoResult), "the record claims no result (`*`)".to_string())
        }
        Some(TokenKind::Result { players, .. }) if players as usize != names.len() => {
            (ClaimStatus::Refuted, format!("`{text}` has {players} places but the game has {} players", names.len()))
        }
        Some(TokenKind::Result { winner, .. }) => {
            let judged = match (rep.incomplete(), outcome) {
                (Some(g), _) => (ClaimStatus::Unchecked(Unchecked::IllegalMoves), g),
                (None, None) => crate::search::claims::settled(&rep.position, winner).unwrap_or_else(|| {
                    search_later(winner);
                    (
                        ClaimStatus::Unchecked(Unchecked::NotSearched),
                        "the record stops before the game is over; its continuations are still to search".to_string(),
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
            };
            return (judged.0, judged.1, rep.violations_accepted());
        }
        Some(_) => (ClaimStatus::Unchecked(Unchecked::NotSearched), String::new()),
    };
    (status, detail, 0)
}

/// The verdict's account of where a common-format game stands: moves, whether it is over, its
/// score in the game's words and by player, its position code, its winner.
fn score_common<G: CommonFormat>(v: &mut Verdict, rep: &Replay<G>, outcome: Option<&crate::game::Outcome>) {
    let position = &rep.position;
    let names = position.player_names();
    v.moves = rep.moves;
    v.game_over = position.is_over();
    v.score_text = Some(match outcome {
        Some(o) => describe_outcome(names, o),
        None => position.score().to_string(),
    });
    v.position = Some(position.code());
    let points = outcome.map_or_else(|| position.points(), |o| o.points.clone());
    v.score = names.iter().map(|n| n.to_string()).zip(points).collect();
    v.winner = outcome.and_then(|o| o.winner).map(|w| names[w].to_string());
}

/// `Blue wins 20-16: ...` in the game's words.
pub(crate) fn describe_outcome(names: &[&str], o: &crate::game::Outcome) -> String {
    let points = names.iter().zip(&o.points).map(|(n, p)| format!("{n} {p}")).collect::<Vec<_>>().join(", ");
    match o.winner {
        Some(w) => format!("{} wins: {points} ({})", names[w], o.detail),
        None => format!("nobody wins: {points} ({})", o.detail),
    }
}

/// A final diagram against the position, cell by cell, once its shape is the board's.
pub(crate) fn compare_diagram<G: BoardView>(position: &G, d: &TextDiagram) -> (ClaimStatus, String) {
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

/// A record's claims and final diagram, judged on a replay of (edited) tokens.
pub trait Judge<G> {
    /// The checks of the record's claims (result, resignation) against `replay` of `tokens`.
    fn claims(&mut self, tokens: &[Token], replay: &Replay<G>) -> Vec<ClaimCheck>;
    /// How many cells of the record's final diagram differ from `position`; `None` without one.
    fn cells_differing(&self, position: &G) -> Option<usize>;
}

/// The claims of a published record.
pub struct PublishedJudge<'r, 'a> {
    record: &'r Record<'a>,
    budget: SearchBudget,
}

impl Judge<Phages> for PublishedJudge<'_, '_> {
    fn claims(&mut self, tokens: &[Token], replay: &Replay<Phages>) -> Vec<ClaimCheck> {
        phages::claims::check(self.record, tokens, replay, &mut self.budget)
    }

    fn cells_differing(&self, position: &Phages) -> Option<usize> {
        let d = self.record.final_position.as_ref()?;
        let g = position.geometry();
        if d.geometry != g {
            return Some(d.cells.len().max(g.cells().count()));
        }
        let differs = |label, glyph: char| {
            g.parse_label(label).is_none_or(|cell| position.glyph(cell) != glyph.encode_utf8(&mut [0; 4]))
        };
        Some(d.cells.iter().filter(|c| differs(c.0, c.1)).count())
    }
}

/// The claims of a common-format record.
pub struct CommonJudge<'r, 'a> {
    record: &'r CommonRecord<'a>,
    budget: SearchBudget,
}

impl<G: CommonFormat> Judge<G> for CommonJudge<'_, '_> {
    fn claims(&mut self, _: &[Token], replay: &Replay<G>) -> Vec<ClaimCheck> {
        let mut v = Verdict::new(self.record.index, self.record.span.clone(), None);
        if let Some(pending) = judge_common(self.record, replay, &mut v) {
            pending.0.judge(&mut v, &mut self.budget);
        }
        v.claims
    }

    fn cells_differing(&self, position: &G) -> Option<usize> {
        let d = self.record.final_position.as_ref()?;
        let g = position.geometry();
        let cells: Vec<_> = g.cells().collect();
        let glyphs = d.glyphs();
        if glyphs.len() != cells.len() || d.rows.len() != g.height() as usize {
            return Some(cells.len());
        }
        Some(cells.iter().zip(glyphs).filter(|(&c, glyph)| position.glyph(c) != *glyph).count())
    }
}

/// Why a record found in a text cannot be replayed.
#[derive(Clone, Debug)]
pub enum Unstarted {
    /// Its first syntax error, its game that cannot be told, or its start that cannot be had.
    Problem(Problem),
    /// A common-format record of a game written in the published notation.
    NotCommon(GameKind),
}

/// Work on a record's start and tokens, whatever its notation, written once for both: [`with_found`]
/// calls `run` with the start in its game's engine, and the judge of the record's claims and final
/// diagram in its notation's way.
pub trait WithFound {
    /// What `run` gives back.
    type Output;
    /// The work.
    fn run<G: Repairable>(self, start: G, tokens: &[Token], judge: &mut dyn Judge<G>) -> Self::Output;
}

/// Runs `work` on record `found` of `src`: its start, its tokens, and its judge, which spends
/// `budget` on claims made before the end. `Err` says why the record cannot be replayed: its first
/// syntax error, its game, its start.
pub fn with_found<W: WithFound>(
    src: &str,
    found: &Found,
    options: VerifyOptions,
    budget: SearchBudget,
    work: W,
) -> Result<W::Output, Unstarted> {
    let syntax = |e: &record::SyntaxError| Unstarted::Problem(syntax_problem(src, e));
    match found {
        Found::Published(r) => {
            if let Some(e) = r.syntax_errors.first() {
                return Err(syntax(e));
            }
            let start = phages_start(r, options).map_err(Unstarted::Problem)?;
            Ok(work.run(start, &r.tokens, &mut PublishedJudge { record: r, budget }))
        }
        Found::Common(r) => {
            if let Some(e) = r.syntax_errors.first() {
                return Err(syntax(e));
            }
            struct Start<'s, 'r, 'a, W> {
                src: &'s str,
                record: &'r CommonRecord<'a>,
                budget: SearchBudget,
                work: W,
            }
            impl<W: WithFound> WithCommonFormat for Start<'_, '_, '_, W> {
                type Output = Result<W::Output, Unstarted>;
                fn run<G: CommonFormat>(self) -> Self::Output {
                    let start = common_start::<G>(self.src, self.record).map_err(Unstarted::Problem)?;
                    let mut judge = CommonJudge { record: self.record, budget: self.budget };
                    Ok(self.work.run(start, &self.record.tokens, &mut judge))
                }
            }
            let kind = common_kind(src, r, options.game).map_err(Unstarted::Problem)?;
            kind.with_common_format(Start { src, record: r, budget, work }).unwrap_or(Err(Unstarted::NotCommon(kind)))
        }
    }
}
