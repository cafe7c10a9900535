//! The common record format (grammar.md) as a record format: how a record gives its game (its
//! `[Game]` tag) and its start (a `[Position]` code, its size and players tags, a `Setup:`
//! diagram), what it is checked for before replay, how its claims (its result, its final diagram)
//! are judged, and how a game document is written back as a record. The published notation's
//! counterpart is [`super::published`].

use std::marker::PhantomData;

use crate::document::*;
use crate::format::{
    problem, refuted_claims, setup_problem, status_of, syntax_problem, Judge, JudgeLater, OpenRecord, PendingClaims,
    Recorded, SetupBoard, WithOpenRecord, WithPlayable,
};
use crate::game::{About, BoardView, Outcome, Playable};
use crate::record::common::{CommonRecord, TextDiagram};
use crate::record::{self, Found, Token, TokenKind};
use crate::replay::Replay;
use crate::search::SearchBudget;
use crate::verdict::{
    compare_final_position, ClaimCheck, ClaimKind, ClaimStatus, Problem, ProblemKind, Unchecked, Verdict,
};
use crate::write;

/// A tag's value as a number, or a syntax problem at the value; `too_large` says why a number past
/// 255 can be none (the game then says which numbers it takes).
pub(crate) fn number_tag(src: &str, r: &CommonRecord, name: &str, too_large: &str) -> Result<Option<u8>, Problem> {
    let Some(t) = r.tag(name) else { return Ok(None) };
    let value = t.value.trim();
    let message = match crate::game::code::read_number(value, u64::from(u8::MAX)) {
        // At most 255.
        Ok(n) => return Ok(Some(n as u8)),
        Err(crate::game::code::NumberError::NotDigits) => {
            format!("the {name} tag must be a whole number, not `{}`", t.value)
        }
        Err(crate::game::code::NumberError::TooLarge) => {
            format!("the {name} tag is {}: {too_large}", crate::game::code::shown_number(value))
        }
    };
    Err(problem(ProblemKind::Syntax, t.value_span.clone(), &src[t.value_span.clone()], message))
}

/// The start position of a common-format record: its `[Position]` tag, else its size and players
/// tags and its setup diagram.
pub fn common_start<G: Playable>(src: &str, r: &CommonRecord) -> Result<G, Problem> {
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
    let empty = G::start(size, players).map_err(|e| setup_problem(e, at.clone(), &src[at]))?;
    match &r.setup {
        None => Ok(empty),
        Some(d) => {
            let glyphs = d.glyphs();
            empty.with_setup(&glyphs).map_err(|e| setup_problem(e, d.span.clone(), ""))
        }
    }
}

/// The start position a `[Position "CODE"]` tag gives (grammar.md, "Position codes"). The code
/// must be of the record's game and agree with its `[Size]` and `[Players]` tags and with its setup
/// diagram, if it has them: a record that says two things about its start says nothing sure.
pub(crate) fn coded_start<G: Playable>(
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
    let located = |e: crate::game::code::CodeError| {
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

/// A record of the common format, of the game `G`.
pub struct Common<'s, 'r, 'a, G> {
    src: &'s str,
    record: &'r CommonRecord<'a>,
    /// The game the record is read as, for its verdict.
    about: &'static About,
    /// Whether a `[Game]` tag must name `about`: when the records are read as `G`'s whatever they
    /// say (a game outside the registry), not when the tag chose `G`.
    tag_must_agree: bool,
    game: PhantomData<G>,
}

impl<'s, 'r, 'a, G: Playable> Common<'s, 'r, 'a, G> {
    /// Record `record` of `src`, whose `[Game]` tag (or `--game`) named `about`, the game `G`.
    pub(crate) fn named(src: &'s str, record: &'r CommonRecord<'a>, about: &'static About) -> Self {
        Common { src, record, about, tag_must_agree: false, game: PhantomData }
    }

    /// Record `record` of `src` read as a record of `G`, whatever its `[Game]` tag says: one that
    /// names another game is a syntax error.
    pub fn of(src: &'s str, record: &'r CommonRecord<'a>) -> Self {
        Common { src, record, about: const { &G::ABOUT }, tag_must_agree: true, game: PhantomData }
    }
}

impl<'r, G: Playable> OpenRecord<'r> for Common<'_, 'r, '_, G> {
    type Game = G;
    type Judge = CommonJudge<'r>;

    fn verdict(&self) -> Verdict {
        let (src, r) = (self.src, self.record);
        let mut v = common_verdict(src, r, Some(self.about));
        if let Some(t) = r.tag("Game").filter(|t| self.tag_must_agree && !self.about.is_named(t.value)) {
            let message =
                format!("the [Game] tag names `{}`, but these records are read as {}", t.value, self.about.title);
            v.problems.push(problem(ProblemKind::Syntax, t.value_span.clone(), t.value, message));
        }
        v
    }

    fn tokens(&self) -> &[Token<'_>] {
        &self.record.tokens
    }

    fn variations(&self) -> &[crate::record::notes::Variation<'_>] {
        &self.record.notes().variations
    }

    fn start(&self) -> Result<G, Problem> {
        if let Some(e) = self.record.syntax_errors.first() {
            return Err(syntax_problem(self.src, e));
        }
        common_start::<G>(self.src, self.record)
    }

    fn check(&self, start: &G, v: &mut Verdict) {
        let (src, r) = (self.src, self.record);
        crate::format::check_markup(src, r.notes(), start.geometry(), v);
        if r.setup.is_none() && r.tag("Position").is_none() {
            if let Some(why) = start.no_game() {
                let at =
                    r.tag("Size").or(r.tag("Players")).map_or(r.span.start..r.span.start, |t| t.value_span.clone());
                v.problems.push(problem(ProblemKind::Undecided, at.clone(), &src[at], why));
            }
        }
    }

    fn check_moves(&self, v: &mut Verdict) {
        let r = self.record;
        // The main line's tokens, then each variation's.
        let tokens = r.tokens.iter().chain(r.notes().variations.iter().flat_map(|v| &v.tokens));
        let mut errors = tokens.filter(|t| t.kind == TokenKind::Written).filter_map(|t| {
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
    }

    fn judge(&self, replay: Replay<G>, v: &mut Verdict) -> Option<PendingClaims<'r>> {
        judge_common(self.record, &replay, v)
    }

    fn judge_repairs(&self, budget: SearchBudget) -> CommonJudge<'r> {
        CommonJudge { record: self.record, budget }
    }

    fn document(&self, start: G) -> Result<GameDocument, ConvertError> {
        common_document(self.record, start)
    }

    fn comment_into(&self, k: usize, comment: &str) -> Result<(String, record::Span), String> {
        write::insert_comment(self.src, &self.record.tokens, self.record.notes(), k, comment, false)
    }

    /// The common format numbers its turns (`write::insert_move`, `write::insert_variation`): the
    /// position is not needed.
    fn play_into(&self, _: &G, replaced: Option<usize>, written: &str) -> (String, record::Span) {
        // `replaced` is one of the record's moves, so a variation is written for it.
        replaced
            .and_then(|k| write::insert_variation(self.src, self.record, k, written))
            .unwrap_or_else(|| write::insert_move(self.src, self.record, written))
    }
}

/// The verdict on a common-format record before it is replayed: its game, if known, and its syntax
/// errors (a record with no moves and no result is one).
pub(crate) fn common_verdict(src: &str, r: &CommonRecord, game: Option<&'static About>) -> Verdict {
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

/// Judges the claims of a replayed common-format record (its result, its final diagram) and
/// gives the verdict its score; a result claimed before the game is over comes back as a search
/// still to make. `repair` judges a repaired replay with it too.
pub(crate) fn judge_common<G: Playable>(
    r: &CommonRecord,
    rep: &Replay<G>,
    v: &mut Verdict,
) -> Option<PendingClaims<'static>> {
    let outcome = rep.position.outcome();
    // The claim's detail and the verdict's score both tell it: described once.
    let described = outcome.as_ref().map(|o| (o, describe_outcome(rep.position.player_names(), o)));
    let mut pending = None;
    if let Some((kind, span, text)) = claimed_result(r, v) {
        let claim = v.claims.len();
        let (status, detail, past) = judge_result(kind, &text, rep, described.as_ref(), |winner| {
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
    score_common(v, rep, described);
    pending.map(PendingClaims::new)
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
/// waits for its search, in input order, since the searches of a file (or a run) share one budget.
fn judge_result<G: Playable>(
    kind: Option<TokenKind>,
    text: &str,
    rep: &Replay<G>,
    outcome: Option<&(&crate::game::Outcome, String)>,
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
                (None, Some((o, real))) => {
                    let said = winner.map_or("nobody wins".to_string(), |w| format!("{} wins", names[w as usize]));
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
fn score_common<G: Playable>(v: &mut Verdict, rep: &Replay<G>, described: Option<(&Outcome, String)>) {
    let position = &rep.position;
    let names = position.player_names();
    v.moves = rep.moves;
    v.game_over = position.is_over();
    let outcome = described.as_ref().map(|d| d.0);
    if v.standing {
        v.score_text = Some(match described {
            Some((_, text)) => text,
            None => position.score().to_string(),
        });
        v.position = Some(position.code());
    }
    let points = outcome.map_or_else(|| position.points(), |o| o.points.clone());
    v.score = names.iter().map(|n| n.to_string()).zip(points).collect();
    v.winner = outcome.and_then(|o| o.winner).map(|w| names[w].to_string());
}

/// `Blue wins 20-16: ...` in the game's words.
pub(crate) fn describe_outcome(names: &[&str], o: &crate::game::Outcome) -> String {
    // Written into one string, not through a list of formatted parts: every finished record
    // of a file has its outcome told (issue 20's profile).
    let mut out = String::with_capacity(64 + o.detail.len());
    match o.winner {
        Some(w) => out.push_str(names[w]),
        None => out.push_str("nobody"),
    }
    out.push_str(" wins: ");
    for (k, (n, &p)) in names.iter().zip(&o.points).enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        out.push_str(n);
        out.push(' ');
        push_points(&mut out, p);
    }
    out.push_str(" (");
    out.push_str(&o.detail);
    out.push(')');
    out
}

/// Writes points as `f64`'s `Display` does (`7`, `12.5`), whole numbers without the float
/// formatter.
fn push_points(out: &mut String, p: f64) {
    use std::fmt::Write as _;
    // `-0.0` shows as `-0`, which an integer would not: the float formatter keeps it.
    if p.fract() == 0.0 && p.abs() < 1e15 && !(p == 0.0 && p.is_sign_negative()) {
        let _ = write!(out, "{}", p as i64);
    } else {
        let _ = write!(out, "{p}");
    }
}

/// A final diagram against the position, cell by cell, once its shape is the board's.
pub(crate) fn compare_diagram<G: BoardView>(position: &G, d: &TextDiagram) -> (ClaimStatus, String) {
    let g = position.geometry();
    let (cells, glyphs) = (g.cell_count(), d.rows.iter().map(Vec::len).sum::<usize>());
    if glyphs != cells || d.rows.len() != g.height() as usize {
        let rows = g.height();
        let message =
            format!("the diagram has {glyphs} cells in {} rows; the board has {cells} in {rows}", d.rows.len());
        return (ClaimStatus::Refuted, message);
    }
    compare_final_position(position, g.cells().zip(d.rows.iter().flatten().map(|glyph| glyph.0)))
}

/// A common-format result claimed before the game is over.
struct ResultToSearch<G> {
    position: G,
    /// The claim's place in the verdict's claims.
    claim: usize,
    winner: Option<u8>,
}

impl<G: Playable> JudgeLater for ResultToSearch<G> {
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

/// The claims of a common-format record, on repaired replays.
pub struct CommonJudge<'r> {
    record: &'r CommonRecord<'r>,
    budget: SearchBudget,
}

impl<G: Playable> Judge<G> for CommonJudge<'_> {
    fn claims(&mut self, _: &[Token], replay: &Replay<G>) -> Vec<ClaimCheck> {
        let mut v = Verdict::new(self.record.index, self.record.span.clone(), None);
        if let Some(pending) = judge_common(self.record, replay, &mut v) {
            pending.judge(&mut v, &mut self.budget);
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

/// Every game of the common format writes its records the same way.
impl<G: Playable> Recorded for G {
    fn open<'r, W: WithOpenRecord<'r>>(
        src: &str,
        found: &'r Found,
        about: &'static About,
        _: Option<&'static About>,
        work: W,
    ) -> Result<W::Output, Problem> {
        match found {
            Found::Common(r) => Ok(work.run(Common::<G>::named(src, r, about))),
            Found::Published(r) => {
                let message = format!(
                    "this record is in the published notation; {} records are in the common format",
                    about.title
                );
                Err(problem(ProblemKind::Syntax, r.span.start..r.span.start, "", message))
            }
        }
    }

    fn with_playable<W: WithPlayable>(work: W) -> Option<W::Output> {
        Some(work.run::<G>())
    }

    fn write_document(_: &'static About, doc: &GameDocument) -> Result<String, ConvertError> {
        write_common::<G>(doc)
    }

    /// Its tags and `*`: no result claimed yet.
    fn new_record(_: &'static About, size: Option<u8>, players: Option<u8>) -> Result<String, String> {
        let start = G::start(size, players).map_err(|e| e.to_string())?;
        if let Some(why) = start.no_game() {
            return Err(format!("{why}: choose a larger size"));
        }
        Ok(format!("{}*\n", write::record_head(&start, [])))
    }

    /// The glyphs are those the game's diagrams show in its start and in a few random games from
    /// it: every figure a game of this size and players has, as its diagrams write it.
    fn setup_board(_: &'static About, size: Option<u8>, players: Option<u8>) -> Result<SetupBoard, String> {
        let start = G::start(size, players).map_err(|e| e.to_string())?;
        let g = start.geometry();
        let reading: Vec<_> = (0..g.height()).flat_map(|r| g.row_cells(r)).collect();
        let empty = reading.iter().find(|&&c| start.figure(c).is_none()).map_or(".", |&c| start.glyph(c));
        let mut glyphs = vec![empty];
        let mut seen = |p: &G| {
            for &c in &reading {
                if !glyphs.contains(&p.glyph(c)) {
                    glyphs.push(p.glyph(c));
                }
            }
        };
        seen(&start);
        for seed in 0..4 {
            let mut p = start.clone();
            for m in crate::game::random::random_game(&start, seed, 400) {
                p.play_unchecked(m);
                seen(&p);
            }
        }
        Ok(SetupBoard {
            cells: reading.iter().map(|&c| g.label(c).to_string()).collect(),
            start: crate::render::ascii::diagram_cells(&start),
            glyphs: glyphs.into_iter().map(String::from).collect(),
        })
    }

    fn setup_record(
        _: &'static About,
        size: Option<u8>,
        players: Option<u8>,
        cells: &[&str],
    ) -> Result<String, String> {
        let start = G::start(size, players).map_err(|e| e.to_string())?;
        let set = start.with_setup(cells).map_err(|e| e.to_string())?;
        Ok(format!("{}*\n", write::record_head(&set, [])))
    }

    fn ended(position: &Self) -> Option<Option<usize>> {
        position.outcome().map(|o| o.winner)
    }

    fn points(position: &Self) -> Vec<f64> {
        Playable::points(position)
    }

    fn positions(_: &'static About) -> &'static str {
        G::POSITIONS
    }

    fn code_record(about: &'static About, code: &str) -> Result<(String, Vec<String>), String> {
        let start = G::from_code(code.trim()).map_err(|e| e.to_string())?;
        if start.about() != about {
            return Err(format!("this position code is of {}, not of {}", start.about().name, about.name));
        }
        let cells = crate::render::ascii::diagram_cells(&start);
        Ok((format!("{}*\n", write::record_head(&start, [])), cells))
    }

    /// The record keeps its seed in a `[Seed]` tag.
    fn random_record(_: &'static About, size: Option<u8>, players: Option<u8>, seed: u64) -> Result<String, String> {
        let start = G::start(size, players).map_err(|e| e.to_string())?;
        if let Some(why) = start.no_game() {
            return Err(format!("{why}: choose a larger --size"));
        }
        let moves = crate::game::random::random_game(&start, seed, 1_000_000);
        Ok(write::write_common_record(&start, &moves, &[("Seed", seed.to_string())]))
    }
}

// Documents.

// The common format.

fn common_document<G: Playable>(r: &CommonRecord, start: G) -> Result<GameDocument, ConvertError> {
    let mut tree = tree::tree_of(&r.tokens, r.notes(), None)?;
    let end = crate::format::movetext::fill(&start, &mut tree.moves)?;
    let names = start.player_names();
    let result = r.tokens.iter().find(|t| t.kind.is_claim()).map(|t| t.text).or(r.tag("Result").map(|t| t.value));
    Ok(GameDocument {
        game: start.about().name.to_string(),
        size: start.geometry().size(),
        players: names.iter().map(|n| n.to_string()).collect(),
        first: names[start.to_move()].to_string(),
        tags: ordered_tags(r.tags.iter().map(|t| (t.name, t.value)), names)
            .into_iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        setup: (write::start_form(&start) != write::StartForm::Empty).then(|| rows_of(&start)),
        start_code: Some(start.code()),
        before: tree.before,
        moves: tree.moves,
        after_result: tree.after_result,
        result: result.map(str::to_string),
        final_position: match &r.final_position {
            Some(d) => d.rows.iter().map(|row| row.iter().map(|g| g.0).collect::<Vec<_>>().join(" ")).collect(),
            None => rows_of(&end),
        },
        outcome: end.outcome().map(|o| OutcomeEntry {
            winner: o.winner.map(|w| names[w].to_string()),
            points: o.points,
            detail: o.detail,
        }),
    })
}

fn write_common<G: Playable>(doc: &GameDocument) -> Result<String, ConvertError> {
    let empty = G::start(Some(doc.size), Some(doc.players.len() as u8)).map_err(|e| invalid(e.to_string()))?;
    let names = empty.player_names();
    check_players(doc, names)?;
    check_tags(doc)?;
    let start = match (&doc.start_code, &doc.setup) {
        (Some(code), _) => document_start::<G>(code, doc, &empty)?,
        (None, None) => empty.clone(),
        (None, Some(rows)) => {
            empty.with_setup(&glyphs_on(rows, empty.geometry(), "setup")?).map_err(|e| invalid(e.to_string()))?
        }
    };
    if doc.first != names[start.to_move()] {
        return Err(invalid(format!("{} moves first here, not {}", names[start.to_move()], doc.first)));
    }
    // A claim that is no result token can only be a `[Result]` tag's value, which the tag keeps.
    if let Some(r) = doc.result.as_deref().filter(|r| record::common::result_kind(r).is_none()) {
        if !doc.tags.iter().any(|(n, v)| n.eq_ignore_ascii_case("Result") && v == r) {
            return Err(invalid(format!(
                "`{r}` is not a result: write 1-0, 0-1 (one place per player, 1 for the winner) or *"
            )));
        }
    }
    // The limit of a record's tokens holds for a document's moves.
    tokens_of(doc, |_| Some(TokenKind::Written))?;
    let mut moves = doc.moves.clone();
    let end = crate::format::movetext::fill(&start, &mut moves)?;

    let tags = ordered_tags(doc.tags.iter().map(|(n, v)| (n.as_str(), v.as_str())), names);
    let mut out = write::record_head(&start, tags);
    let result = doc.result.as_deref().filter(|r| record::common::result_kind(r).is_some());
    let spelling = crate::format::movetext::Spelling::Canonical;
    out.push_str(&crate::format::movetext::write(&start, &doc.before, &moves, result, &doc.after_result, spelling)?);
    out.push_str("\n\nFinal Position:\n");
    out.push_str(&layout(&final_rows(doc, &end), end.geometry()));
    Ok(out)
}

/// The start a document's `start_code` gives, checked against the rest of the document: its game,
/// its board (`empty` is the document's empty board) and, if the document draws one, its setup.
pub(crate) fn document_start<G: Playable>(code: &str, doc: &GameDocument, empty: &G) -> Result<G, ConvertError> {
    // The game reads its own codes: it need not be in the registry (a game defined outside the crate).
    let start = G::from_code(code.trim()).map_err(|e| invalid(format!("start_code: {e}")))?;
    if start.about() != empty.about() {
        return Err(invalid(format!(
            "the start_code is of {}, but the document is of {}",
            start.about().name,
            doc.game
        )));
    }
    if start.geometry() != empty.geometry() || start.player_names() != empty.player_names() {
        return Err(invalid(format!(
            "the start_code is of another board or players than the document's size {} and {} players",
            doc.size,
            doc.players.len()
        )));
    }
    same_setup(&start, doc)?;
    Ok(start)
}

/// What a tag of a record of the common format means (grammar.md, Part II), for `game` when the
/// record names one: the tags referee reads, and the others it keeps without checking.
pub fn tag_meaning(name: &str, game: Option<&About>) -> String {
    let sizes = game.map_or_else(String::new, |g| format!(" ({}: {})", g.title, g.sizes));
    let players = game.map_or_else(String::new, |g| format!(" ({}: {} to {})", g.title, g.players.0, g.players.1));
    match name.to_ascii_lowercase().as_str() {
        "game" => match game {
            Some(g) => format!("the game the record is of: {}", g.help),
            None => "the game the record is of; every record of the common format names it".into(),
        },
        "size" => format!("the board's side{sizes}; without it, the game's default size"),
        "players" => format!("how many players take part{players}; without it, the game's default"),
        "position" => "the position code the record starts from (grammar.md, Part V): the board, whose \
            turn it is and all the game remembers, checked against the size and players tags and a setup \
            diagram"
            .into(),
        "result" => "the result the record claims: one place per player in turn order, 1 for the winner \
            (`1-0`, `0-1-0`), all 0 when nobody won, `*` for none; referee checks it against the replay"
            .into(),
        "seed" => "the seed `referee random` made the game from: kept, not checked".into(),
        _ => "kept with the record but not checked (the players' names by colour, the date, the event)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points are written as `f64`'s `Display` writes them, whole or not, signed or not.
    #[test]
    fn points_read_as_the_float_formatter_writes_them() {
        let mut rng = fastrand::Rng::with_seed(20);
        let mut values = vec![0.0, -0.0, 1.0, -1.0, 0.5, -12.5, 1e15, -1e15, 1e16, 123456.75, f64::MAX, f64::NAN];
        values.extend((0..2000).map(|_| f64::from(rng.i32(-400..400)) / 2.0));
        for p in values {
            let mut out = String::new();
            push_points(&mut out, p);
            assert_eq!(out, p.to_string(), "{p:?}");
        }
    }

    #[test]
    fn an_outcome_names_the_winner_each_score_and_why() {
        let o = Outcome { winner: Some(1), points: vec![7.0, 11.5], detail: "more groups".into() };
        assert_eq!(describe_outcome(&["Black", "White"], &o), "White wins: Black 7, White 11.5 (more groups)");
        let draw = Outcome { winner: None, points: vec![0.0, 0.0, 0.0], detail: "a draw".into() };
        assert_eq!(describe_outcome(&["A", "B", "C"], &draw), "nobody wins: A 0, B 0, C 0 (a draw)");
    }
}
