//! The published notation as a record format: how a Quadraphages or Hexaphages record gives its
//! start (a `Startup:` diagram or code, else the board's default; its column header for who moves
//! first), what it is checked for before replay (the stones written per phase), and how its claims
//! (a score, a resignation) and final diagram are judged (RULINGS 5b, 8, 9).

pub mod analysis;
pub mod claims;
pub mod notation;

use crate::document::*;
use crate::format::{
    problem, refuted_claims, status_of, syntax_problem, Judge, JudgeLater, OpenRecord, PendingClaims, Recorded,
    SetupBoard, WithOpenRecord,
};
use crate::game::code::Coded;
use crate::game::About;
use crate::game::{BoardView, Game};
use crate::games::phages::rules::{Phages, PhagesMove, Side};
use crate::games::GameKind;
use crate::geometry::{Cell, Geometry};
use crate::record::{Found, Record, Token, TokenKind};
use crate::replay::{replay, Replay, ReplayOptions};
use crate::search::SearchBudget;
use crate::verdict::{ClaimCheck, Problem, ProblemKind, Verdict};

/// The engine's side a side of the text names (its letter).
pub(crate) fn side(written: crate::record::Side) -> Side {
    match written {
        crate::record::Side::X => Side::X,
        crate::record::Side::O => Side::O,
    }
}

/// A record of the published notation, to judge as a record of `forced` (`--game`) or of the game
/// its text names or draws.
pub struct Published<'s, 'r, 'a> {
    /// The text the record is in.
    pub src: &'s str,
    /// The record.
    pub record: &'r Record<'a>,
    /// The game `--game` names, if any.
    pub forced: Option<GameKind>,
}

impl Recorded for Phages {
    fn open<'r, W: WithOpenRecord<'r>>(
        src: &str,
        found: &'r Found,
        about: &'static About,
        forced: Option<&'static About>,
        work: W,
    ) -> Result<W::Output, Problem> {
        match found {
            Found::Published(record) => {
                Ok(work.run(Published { src, record, forced: forced.and_then(|g| GameKind::from_name(g.name)) }))
            }
            Found::Common(r) => {
                let tag = r.tag("Game").map_or(r.span.start..r.span.start, |t| t.value_span.clone());
                let message = format!(
                    "{} records are written in their published notation (grammar.md), not in the common format",
                    about.name
                );
                Err(problem(ProblemKind::Syntax, tag.clone(), &src[tag], message))
            }
        }
    }

    fn write_document(about: &'static About, doc: &GameDocument) -> Result<String, ConvertError> {
        write_published(about, doc)
    }

    /// Its title, `Startup:` diagram when the start is not the board's default, and column header.
    fn new_record(about: &'static About, size: Option<u8>, players: Option<u8>) -> Result<String, String> {
        if players.is_some_and(|p| p != 2) {
            return Err(format!("{} is a game for two players", about.name));
        }
        let geometry = geometry(about, size.unwrap_or(about.sizes.smallest));
        let start = notation::default_start(geometry)
            .ok_or_else(|| format!("no start position is known for {} of size {}", about.name, size.unwrap_or(0)))?;
        Ok(unplayed_record(&start))
    }

    /// A start diagram shows stones only: `X`, `O`, and `.` for an empty cell; the board's default
    /// start to begin with.
    fn setup_board(about: &'static About, size: Option<u8>, players: Option<u8>) -> Result<SetupBoard, String> {
        Self::new_record(about, size, players)?;
        let g = geometry(about, size.unwrap_or(about.sizes.smallest));
        let start =
            notation::default_start(g).ok_or_else(|| format!("no start position is known for {}", about.name))?;
        let reading: Vec<Cell> = (0..g.height()).flat_map(|r| g.row_cells(r)).collect();
        let stone = |c: Cell| match start.glyph(c) {
            "X" | "O" => start.glyph(c),
            _ => ".",
        };
        Ok(SetupBoard {
            cells: reading.iter().map(|&c| g.label(c).to_string()).collect(),
            start: reading.iter().map(|&c| stone(c).to_string()).collect(),
            glyphs: [".", "X", "O"].map(String::from).to_vec(),
        })
    }

    /// Its title, the `Startup:` diagram of the stones (or none, for the board's default start) and
    /// its column header, X first.
    fn setup_record(
        about: &'static About,
        size: Option<u8>,
        players: Option<u8>,
        cells: &[&str],
    ) -> Result<String, String> {
        Self::new_record(about, size, players)?;
        let g = geometry(about, size.unwrap_or(about.sizes.smallest));
        let board: Vec<Cell> = (0..g.height()).flat_map(|r| g.row_cells(r)).collect();
        if cells.len() != board.len() {
            return Err(format!("the board has {} cells, not {}", board.len(), cells.len()));
        }
        let mut stones = [Vec::new(), Vec::new()];
        for (&c, &glyph) in board.iter().zip(cells) {
            match glyph {
                "X" => stones[0].push(c),
                "O" => stones[1].push(c),
                "." => {}
                other => {
                    return Err(format!(
                        "{} shows `{other}`: a start diagram shows only stones (X, O) and empty cells (.)",
                        g.label(c)
                    ))
                }
            }
        }
        let start = Phages::new(g, &stones[0], &stones[1], Side::X).map_err(|e| e.to_string())?;
        Ok(unplayed_record(&start))
    }

    /// The side with more marked cells wins, once the game is over.
    fn ended(position: &Self) -> Option<Option<usize>> {
        position.is_over().then(|| position.score().winner().map(Side::index))
    }

    fn positions(about: &'static About) -> &'static str {
        if about == &crate::games::phages::HEXAPHAGES {
            crate::games::phages::HEXAPHAGES_POSITIONS
        } else {
            crate::games::phages::QUADRAPHAGES_POSITIONS
        }
    }

    /// The marked cells, which decide the game.
    fn points(position: &Self) -> Vec<f64> {
        position.score().marks.iter().map(|&m| f64::from(m)).collect()
    }

    /// Its title, the start as a `Startup:` diagram or code, and its column header, the side to
    /// move first.
    fn code_record(about: &'static About, code: &str) -> Result<(String, Vec<String>), String> {
        let start = Phages::from_code(code.trim()).map_err(|e| e.to_string())?;
        if start.about() != about {
            return Err(format!("this position code is of {}, not of {}", start.about().name, about.name));
        }
        let cells = crate::render::ascii::diagram_cells(&start);
        let record = unplayed_record(&start);
        // A record is a run of numbered move lines: one with no move yet has the first turn's
        // `....` line, which only the game's first turn has.
        if !record.contains("\n1.") {
            return Err(format!(
                "a {} record with no move yet starts at the game's first turn: this position is of a game under way, \
                 which a record writes with the moves that lead to it",
                about.title
            ));
        }
        Ok((record, cells))
    }

    /// The published notation has no tags: a line of prose before the record (which the reader
    /// passes over) says the seed.
    fn random_record(
        about: &'static About,
        size: Option<u8>,
        players: Option<u8>,
        seed: u64,
    ) -> Result<String, String> {
        if players.is_some_and(|p| p != 2) {
            return Err(format!("{} is a game for two players", about.name));
        }
        let geometry = geometry(about, size.unwrap_or(about.sizes.smallest));
        let start = notation::default_start(geometry)
            .ok_or_else(|| format!("no start position is known for {} of size {}", about.name, size.unwrap_or(0)))?;
        let moves = random_game(&start, seed, 1_000_000);
        Ok(format!("Seed: {seed}\n{}", notation::write_record(&start, &moves)))
    }
}

/// The board of `about` (Quadraphages' square, Hexaphages' hexagon) of side `size`.
fn geometry(about: &About, size: u8) -> Geometry {
    if *about == crate::games::phages::QUADRAPHAGES {
        Geometry::Square { size }
    } else {
        Geometry::Hex { side: size }
    }
}

/// The record of a game of no moves yet from `start`: [`notation::write_layout`] without a final
/// diagram. Without a diagram the reader takes the board to be 9x9 or the hex board of side 4, so
/// the default start of any other board is given too, as a `Startup:` diagram (or its code, when
/// a diagram would read its stones in another order).
fn unplayed_record(start: &Phages) -> String {
    let layout = notation::write_layout(start, &[], None, "");
    let mut record = format!("{}\n", layout.trim_end_matches("\nFinal Position:").trim_end());
    let g = start.geometry();
    let assumed = matches!(g, Geometry::Square { size: 9 } | Geometry::Hex { side: 4 });
    if !assumed && !record.contains("Startup:") {
        let reading: Vec<Cell> = (0..g.height()).flat_map(|r| g.row_cells(r)).collect();
        let stones = |glyph: &str| reading.iter().copied().filter(|&c| start.glyph(c) == glyph).collect::<Vec<_>>();
        let drawn = Phages::new(g, &stones("X"), &stones("O"), start.to_move()).map(|p| p.code());
        let given = match drawn {
            Ok(code) if code == start.code() => format!("Startup:{}", crate::render::ascii::diagram(start)),
            _ => format!("Startup: {}\n", start.code()),
        };
        let title = record.find('\n').map_or(record.len(), |n| n + 1);
        record.insert_str(title, &given);
    }
    record
}

/// A random Quadraphages or Hexaphages game ([`crate::game::random::random_game`]) whose record reads one way only:
/// in each phase the stones that can move do so first, in random order, and the stuck stones
/// stay last. A stuck stone stays stuck for the rest of its phase (the cells its side's moves
/// leave are marked), so this is still any stone's play; but a `----` written between two moves
/// of a phase, with three stones a side, may stand for either stuck stone, and the choice can
/// decide when the game ends (RULINGS 5b): a record with its stays last has no such choice,
/// so its claimed result holds in its only reading.
pub fn random_game(start: &Phages, seed: u64, max_moves: usize) -> Vec<PhagesMove> {
    crate::game::random::random_game_preferring(start, seed, max_moves, |m| !matches!(m, PhagesMove::Stay { .. }))
}

impl<'r> OpenRecord<'r> for Published<'_, 'r, '_> {
    type Game = Phages;
    type Judge = PublishedJudge<'r>;

    fn verdict(&self) -> Verdict {
        let r = self.record;
        let hint = self.forced.or(notation::game_hint(r).map(|h| h.0)).unwrap_or(GameKind::Quadraphages);
        let mut v = Verdict::new(r.index, r.span.clone(), Some(hint.about()));
        v.problems = r.syntax_errors.iter().map(|e| syntax_problem(self.src, e)).collect();
        v
    }

    fn tokens(&self) -> &[Token<'_>] {
        &self.record.tokens
    }

    fn variations(&self) -> &[crate::record::notes::Variation<'_>] {
        &self.record.notes().variations
    }

    fn start(&self) -> Result<Phages, Problem> {
        if let Some(e) = self.record.syntax_errors.first() {
            return Err(syntax_problem(self.src, e));
        }
        start(self.record, self.forced).map_err(|p| Problem { token: self.src[p.span.clone()].to_string(), ..p })
    }

    fn check(&self, start: &Phages, v: &mut Verdict) {
        let r = self.record;
        v.game = Some(start.about());
        crate::format::check_markup(self.src, r.notes(), start.geometry(), v);
        if r.header.is_none() {
            v.notes.push(format!("the record has no column header: {} is taken to move first", start.to_move()));
        }
        if r.startup.is_none() && r.startup_code.is_none() {
            // Written into one string: nearly every record starts so, and has this note.
            let mut note = String::with_capacity(80);
            note.push_str("start position: the default for this board (");
            for (side, name) in [(Side::X, "X"), (Side::O, ", O")] {
                note.push_str(name);
                for &c in start.stones(side) {
                    note.push(' ');
                    start.geometry().label(c).push_to(&mut note);
                }
            }
            note.push(')');
            v.notes.push(note);
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
                    notation::board_name(start.geometry())
                ),
            ));
        }
    }

    fn judge(&self, replay: Replay<Phages>, v: &mut Verdict) -> Option<PendingClaims<'r>> {
        if claims::needs_search(&self.record.tokens, &replay) {
            return Some(PendingClaims::new(PublishedClaims { record: self.record, replay: Box::new(replay) }));
        }
        // Judged here, where records are judged side by side: no budget is drawn on.
        finish_record(v, self.record, &replay, &mut SearchBudget::for_file(0, 0));
        None
    }

    fn judge_repairs(&self, budget: SearchBudget) -> PublishedJudge<'r> {
        PublishedJudge { record: self.record, budget }
    }

    fn document(&self, start: Phages) -> Result<GameDocument, ConvertError> {
        published_document(self.record, start)
    }

    /// A comment stays on its move line.
    fn comment_into(&self, k: usize, comment: &str) -> Result<(String, crate::record::Span), String> {
        crate::write::insert_comment(self.src, &self.record.tokens, self.record.notes(), k, comment, true)
    }

    fn play_into(&self, position: &Phages, replaced: Option<usize>, written: &str) -> (String, crate::record::Span) {
        notation::insert_move(self.src, self.record, position, replaced, written)
    }
}

/// The start of a record in the published notation: a fault of its own start diagram is a
/// syntax error; a board with no known start cannot be judged.
fn start(r: &Record, forced: Option<GameKind>) -> Result<Phages, Problem> {
    notation::setup(r, forced).map_err(|p| {
        let kind = if p.in_diagram { ProblemKind::Syntax } else { ProblemKind::Undecided };
        problem(kind, p.span, "", p.message)
    })
}

/// The start position and replay of a record of `src`, as far as `max_moves` (for diagrams);
/// `Err` is its first syntax error, or why its start cannot be had.
pub fn replay_record(
    src: &str,
    r: &Record,
    forced: Option<GameKind>,
    max_moves: Option<usize>,
) -> Result<(Phages, Replay<Phages>), Problem> {
    let start = Published { src, record: r, forced }.start()?;
    let rep = replay(start.clone(), &r.tokens, ReplayOptions { lenient: false, max_moves });
    Ok((start, rep))
}

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

/// Judges a replayed published record's claims, and what follows from them.
fn finish_record(v: &mut Verdict, r: &Record, rep: &Replay<Phages>, budget: &mut SearchBudget) {
    v.claims = claims::check(r, &r.tokens, rep, budget);
    v.problems.extend(refuted_claims(&v.claims));
    v.status = status_of(&v.problems);
    let score = rep.position.score();
    v.moves = rep.moves;
    v.notes.extend(claims::readings_note(rep));
    // Over only when every reading of the record ends the game (RULINGS 5b).
    v.game_over = rep.position.is_over() && rep.readings.iter().all(Game::is_over);
    if v.standing {
        v.score_text = Some(score.to_string());
        v.position = Some(crate::game::code::Coded::code(&rep.position));
    }
    // The sides' names from their letters, not through the formatter: every record is scored.
    let name = |s: Side| String::from(s.letter());
    let sides = [Side::X, Side::O];
    v.score = sides.iter().map(|&s| (name(s), score.count(s, false) as f64)).collect();
    v.score_with_stones = Some(sides.iter().map(|&s| (name(s), score.count(s, true) as f64)).collect());
    if v.game_over {
        v.winner = score.winner().map(name);
    }
}

/// The claims of a published record, on repaired replays.
pub struct PublishedJudge<'r> {
    record: &'r Record<'r>,
    budget: SearchBudget,
}

impl Judge<Phages> for PublishedJudge<'_> {
    fn claims(&mut self, tokens: &[Token], replay: &Replay<Phages>) -> Vec<ClaimCheck> {
        claims::check(self.record, tokens, replay, &mut self.budget)
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

// Documents.

// The published notation.

fn published_document(r: &Record, start: Phages) -> Result<GameDocument, ConvertError> {
    let tokens: Vec<Token> = r.tokens.iter().take_while(|t| !t.kind.is_claim()).cloned().collect();
    let game =
        replay_all(&start, &tokens).map_err(|(ply, message)| ConvertError::Document { ply: Some(ply), message })?;
    // The moves with their glyphs, comments and variations; each variation played from the
    // position before the move it follows.
    let mut tree = crate::document::tree::tree_of(&r.tokens, r.notes(), Some(&game.tokens))?;
    let kind = |t: &str| crate::record::token_kind(t).unwrap_or(TokenKind::Written);
    let mut position = start.clone();
    for ((entry, derived), (m, _)) in tree.moves.iter_mut().zip(move_entries(&start, &game)).zip(&game.moves) {
        let notes = std::mem::take(&mut entry.after);
        let glyphs = std::mem::take(&mut entry.glyphs);
        *entry = MoveEntry { after: notes, glyphs, ..derived };
        if entry.after.iter().any(|n| matches!(n, NoteEntry::Variation(_))) {
            for note in &mut entry.after {
                if let NoteEntry::Variation(v) = note {
                    crate::format::movetext::fill_read(Some(&position), entry.ply - 1, &mut v.moves, &kind, 1)?;
                }
            }
        }
        position.play_unchecked(*m);
    }
    let names = start.player_names();
    let end = &game.end;
    let outcome = end.is_over().then(|| {
        let score = end.score();
        OutcomeEntry {
            winner: score.winner().map(|s| s.to_string()),
            points: score.marks.iter().map(|&m| f64::from(m)).collect(),
            detail: format!("on marked cells: {score}"),
        }
    });
    Ok(GameDocument {
        game: start.about().name.to_string(),
        size: start.geometry().size(),
        players: names.iter().map(|n| n.to_string()).collect(),
        first: start.to_move().to_string(),
        tags: Vec::new(),
        setup: (notation::start_form(&start) != notation::StartForm::Default).then(|| rows_of(&start)),
        start_code: Some(start.code()),
        before: tree.before,
        moves: tree.moves,
        after_result: tree.after_result,
        result: r.tokens.iter().find(|t| t.kind.is_claim()).map(|t| t.text.to_string()),
        final_position: match &r.final_position {
            Some(d) => {
                let g = d.geometry;
                let mut glyphs = d.cells.iter().map(|c| c.1.to_string());
                (0..g.height())
                    .map(|row| glyphs.by_ref().take(g.row_cells(row).count()).collect::<Vec<_>>().join(" "))
                    .collect()
            }
            None => rows_of(end),
        },
        outcome,
    })
}

fn write_published(about: &'static About, doc: &GameDocument) -> Result<String, ConvertError> {
    let geometry = geometry(about, doc.size);
    let kind = about.name;
    check_players(doc, &["X", "O"])?;
    if !doc.tags.is_empty() {
        return Err(invalid(format!("{kind} records have no tags")));
    }
    let first = match doc.first.as_str() {
        "X" => Side::X,
        "O" => Side::O,
        other => return Err(invalid(format!("the first mover is X or O, not `{other}`"))),
    };
    if !plausible(geometry) {
        return Err(invalid(format!("no {kind} board has size {}", doc.size)));
    }
    let mut start = match (&doc.start_code, &doc.setup) {
        (Some(code), _) => {
            let start = crate::games::game_of(code.trim())
                .and_then(|_| Phages::from_code(code.trim()))
                .map_err(|e| invalid(format!("start_code: {e}")))?;
            if start.about() != about || start.geometry() != geometry {
                return Err(invalid(format!(
                    "the start_code is of {} on another board than the document's {kind} of size {}",
                    start.about().name,
                    doc.size
                )));
            }
            same_setup(&start, doc)?;
            start
        }
        (None, None) => notation::default_start(geometry).ok_or_else(|| {
            invalid(format!("no start position is known for {kind} of size {}: give a setup", doc.size))
        })?,
        (None, Some(rows)) => {
            let glyphs = glyphs_on(rows, geometry, "setup")?;
            let cells: Vec<Cell> = (0..geometry.height()).flat_map(|r| geometry.row_cells(r)).collect();
            let stones = |side: &str| {
                cells.iter().zip(&glyphs).filter(|(_, g)| **g == side).map(|(c, _)| *c).collect::<Vec<_>>()
            };
            if let Some(g) = glyphs.iter().find(|g| !matches!(**g, "X" | "O" | ".")) {
                return Err(invalid(format!("a start position holds only X, O and `.`, not `{g}`")));
            }
            Phages::new(geometry, &stones("X"), &stones("O"), Side::X).map_err(|e| invalid(e.to_string()))?
        }
    };
    if doc.start_code.is_some() && start.to_move() != first {
        return Err(invalid(format!("the start_code has {} to move, not {first}", start.to_move())));
    }
    start.set_first_mover(first);
    let tokens = tokens_of(doc, |t| crate::record::token_kind(t).filter(|k| !k.is_claim() && *k != TokenKind::Filler))?;
    let game =
        replay_all(&start, &tokens).map_err(|(ply, message)| ConvertError::Document { ply: Some(ply), message })?;
    let moves: Vec<_> = game.moves.iter().map(|(m, _)| *m).collect();
    let claim = doc.result.as_deref().map(str::trim);
    let text = |glyphs: &[u8], notes: &[NoteEntry]| notation::notes_text(glyphs, notes).map_err(invalid);
    if doc.before.iter().any(|n| matches!(n, NoteEntry::Variation(_))) {
        return Err(invalid("a variation is an alternative to a move, so it follows one".into()));
    }
    let written = notation::Annotations {
        before: text(&[], &doc.before)?,
        after: doc.moves.iter().map(|e| text(&e.glyphs, &e.after)).collect::<Result<_, _>>()?,
        after_result: text(&[], &doc.after_result)?,
    };
    if claim.is_none() && !written.after_result.is_empty() {
        return Err(invalid("comments after the result need a result to follow".into()));
    }
    Ok(notation::write_annotated(&start, &moves, &written, claim, &layout(&final_rows(doc, &game.end), geometry)))
}
