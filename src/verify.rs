//! From a file's text to one [`Verdict`] per record.

use crate::game::{Game, GameKind};
use crate::games::phages::{self, Phages};
use crate::record::{self, Record, TokenKind};
use crate::render::ascii;
use crate::replay::{replay, Notation, Reading, Replay, ReplayOptions};
use crate::verdict::{ClaimKind, ClaimStatus, Problem, ProblemKind, Status, Verdict};

/// How to verify.
#[derive(Clone, Copy, Debug)]
pub struct VerifyOptions {
    pub lenient: bool,
    /// The game to read records as, overriding what their text suggests.
    pub game: Option<GameKind>,
    /// Most positions searched to judge a claim made before the game is over.
    pub search_limit: usize,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions { lenient: false, game: None, search_limit: DEFAULT_SEARCH_LIMIT }
    }
}

/// Enough for real endgames (thousands of positions) while a hopeless search stops in about a
/// second and 100 MB.
pub const DEFAULT_SEARCH_LIMIT: usize = 250_000;

impl Notation for Phages {
    fn read(&self, tokens: &[record::Token], i: usize) -> Reading<Self::Move> {
        phages::notation::read(self, tokens, i)
    }
}

/// Verifies every record in `src`.
pub fn verify_source(src: &str, options: VerifyOptions) -> Vec<Verdict> {
    record::parse(src).iter().map(|r| verify_record(src, r, options)).collect()
}

fn problem(kind: ProblemKind, span: record::Span, token: &str, message: String) -> Problem {
    Problem { kind, span, token: token.to_string(), message, legal: Vec::new(), board: None }
}

/// The stone tokens written per phase on a full line, when the movetext shows it.
/// The stone tokens written per phase, when every full line after the first (two turns, two
/// numbers) writes the same number of them; `None` when the lines disagree or there are none.
fn stones_written_per_phase(r: &Record) -> Option<usize> {
    let mut counts = r.lines.iter().skip(1).filter_map(|l| {
        let numbers: Vec<usize> = l
            .tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| matches!(t.kind, TokenKind::Number(_)))
            .map(|(i, _)| i)
            .collect();
        // A full line with k stones a phase: k moves, a number, k moves, for each side.
        let k = *numbers.first()?;
        (numbers == [k, 3 * k + 1] && l.tokens.len() == 4 * k + 2).then_some(k)
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
    let start = phages::notation::setup(r, options.game)
        .map_err(|p| problem(ProblemKind::Undecided, p.span.clone(), "", p.message))?;
    let tokens: Vec<_> = r.tokens().cloned().collect();
    let rep = replay(start.clone(), &tokens, ReplayOptions { lenient: options.lenient, max_moves });
    Ok((start, rep))
}

fn verify_record(src: &str, r: &Record, options: VerifyOptions) -> Verdict {
    let hint_kind = options.game.or(r.game_hint().map(|h| h.0)).unwrap_or(GameKind::Quadraphages);
    let mut v = Verdict {
        index: r.index,
        span: r.span.clone(),
        game: hint_kind,
        status: Status::Valid,
        problems: Vec::new(),
        claims: Vec::new(),
        moves: 0,
        game_over: false,
        score_text: None,
        score: serde_json::Value::Null,
        board: None,
        notes: Vec::new(),
    };
    if !r.syntax_errors.is_empty() {
        v.status = Status::SyntaxError;
        v.problems = r
            .syntax_errors
            .iter()
            .map(|e| problem(ProblemKind::Syntax, e.span.clone(), &src[e.span.clone()], e.message.clone()))
            .collect();
        return v;
    }
    let start = match phages::notation::setup(r, options.game) {
        Ok(s) => s,
        Err(p) => {
            let (status, kind) = if p.in_diagram {
                (Status::SyntaxError, ProblemKind::Syntax)
            } else {
                (Status::Undecided, ProblemKind::Undecided)
            };
            v.status = status;
            v.problems.push(problem(kind, p.span.clone(), &src[p.span], p.message));
            return v;
        }
    };
    v.game = start.kind();
    if r.header.is_none() {
        v.notes.push(format!("the record has no column header: {} is taken to move first", start.to_move()));
    }
    if r.startup.is_none() {
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
        v.status = Status::Undecided;
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
        v.board = Some(ascii::diagram(&start));
        return v;
    }
    let tokens: Vec<_> = r.tokens().cloned().collect();
    let rep = replay(start, &tokens, ReplayOptions { lenient: options.lenient, max_moves: None });
    for viol in &rep.violations {
        v.problems.push(Problem {
            kind: ProblemKind::Illegal,
            span: viol.span.clone(),
            token: viol.token.clone(),
            message: viol.message.clone(),
            legal: viol.legal.clone(),
            board: Some(viol.board.clone()),
        });
    }
    v.claims = phages::claims::check(r, &tokens, &rep, options.search_limit);
    for c in v.claims.iter().filter(|c| c.status == ClaimStatus::Refuted) {
        let what = match c.kind {
            ClaimKind::Result => "the claimed result does not hold",
            ClaimKind::FinalPosition => "the final-position diagram does not match the replay",
        };
        v.problems.push(problem(ProblemKind::Claim, c.span.clone(), &c.text, format!("{what}: {}", c.detail)));
    }
    v.status = if v.problems.is_empty() { Status::Valid } else { Status::Illegal };
    let score = rep.position.score();
    v.moves = rep.moves;
    v.game_over = rep.position.is_over();
    v.score_text = Some(score.to_string());
    v.score = serde_json::json!({
        "x": { "marks": score.marks[0], "with_stones": score.count(phages::Side::X, true) },
        "o": { "marks": score.marks[1], "with_stones": score.count(phages::Side::O, true) },
    });
    v.board = Some(ascii::diagram(&rep.position));
    v
}
