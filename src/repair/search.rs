//! The repair search: the smallest sets of token edits after which a record replays further,
//! and the legal alternatives to an illegal move that `verify` shows (see the [module
//! above](super) for how it searches). It works on a token list and a judge of each replay, the
//! same way for every game, and knows nothing of files.

use std::cmp::Reverse;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use crate::alternatives::{run, text_distance, written_legal};
pub use crate::format::Judge;
use crate::game::SearchKey;
use crate::record::{Span, Token};
pub use crate::replay::Repairable;
use crate::replay::{replay, Replay, ReplayOptions, Violation};
use crate::search::{allocation, table_bytes, Stop};
use crate::verdict::{ClaimCheck, ClaimKind, ClaimStatus};

/// One change to a record's token list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `count` tokens from this one on are replaced by `texts`: a replacement, a deletion (no
    /// texts), an insertion before this token (no count).
    Splice {
        /// How many of the record's tokens are taken out.
        count: usize,
        /// The tokens put in their place, in order.
        texts: Vec<String>,
    },
    /// This token and the next change places.
    Swap,
}

impl Op {
    fn replace(text: String) -> Op {
        Op::Splice { count: 1, texts: vec![text] }
    }

    fn delete(count: usize) -> Op {
        Op::Splice { count, texts: Vec::new() }
    }

    fn insert(texts: Vec<String>) -> Op {
        Op::Splice { count: 0, texts }
    }

    /// How many of the record's tokens the edit takes.
    fn count(&self) -> usize {
        match self {
            Op::Splice { count, .. } => *count,
            Op::Swap => 2,
        }
    }

    /// How many of the record's tokens the edit takes away, beyond those it puts back.
    fn dropped(&self) -> usize {
        match self {
            Op::Splice { count, texts } => count.saturating_sub(texts.len()),
            Op::Swap => 0,
        }
    }
}

/// An edit of the record's token list at `at`, an index into the record's own tokens (an insertion
/// goes before that token; at the list's length, after the last one).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edit {
    /// The index of the token edited, in the record's own token list.
    pub at: usize,
    /// What is done there.
    pub op: Op,
    /// Whether the notation can write the edited record legally; when not, the repaired replay
    /// plays the edit's tokens as written anyway (see [`Repairable::skipped`]).
    pub expressible: bool,
}

/// An edit as a report shows it, in the record's own text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// What kind of edit it is.
    pub kind: ChangeKind,
    /// The record's tokens it touches: one for a replacement; each one deleted; the two swapped;
    /// for an insertion, the token it goes before (or, at the end, the record's last token).
    pub spans: Vec<Span>,
    /// The tokens as written (empty for an insertion) and as repaired (empty for a deletion),
    /// separated by spaces.
    pub from: String,
    /// See `from`.
    pub to: String,
    /// Whether the notation can write the repaired tokens legally (see [`Edit::expressible`]).
    pub expressible: bool,
    /// An insertion after the record's last token.
    pub at_end: bool,
}

/// What an edit does to the record's tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// One token replaced by another.
    Replace,
    /// Tokens taken out.
    Delete,
    /// Tokens put in.
    Insert,
    /// Two neighbouring tokens exchanged.
    Swap,
}

impl ChangeKind {
    /// `replace`, `delete`, `insert` or `swap`, as reports print it.
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::Replace => "replace",
            ChangeKind::Delete => "delete",
            ChangeKind::Insert => "insert",
            ChangeKind::Swap => "swap",
        }
    }
}

/// How far the search may go.
#[derive(Clone, Debug)]
pub struct RepairOptions {
    /// Most edits in one candidate.
    pub max_edits: usize,
    /// Candidates carried from one level of the search to the next, those that replay furthest.
    pub beam: usize,
    /// Most tokens replayed in all, over every candidate of one record.
    pub max_positions: u64,
    /// Most time spent on one record; `None`: no limit, and no clock is read (a target without
    /// one, such as WebAssembly in a browser, where reading `Instant` panics).
    pub time_limit: Option<Duration>,
    /// Candidates reported, best first.
    pub shown: usize,
    /// Most bytes the search of one record may hold, whatever the other bounds say (an estimate:
    /// see [`Search::bytes`]).
    pub max_bytes: usize,
    /// The signal that stops the search from outside, and the searches of the claims of the
    /// candidates it judges ([`Stop::never`] on the command line).
    pub stop: Stop,
}

/// The default of [`RepairOptions::max_edits`].
pub const DEFAULT_MAX_EDITS: usize = 12;
/// The default of [`RepairOptions::max_positions`].
pub const DEFAULT_MAX_POSITIONS: u64 = 5_000_000;
/// The default of [`RepairOptions::max_bytes`]: the default bounds of every published and broken
/// sample stay far below it (README, `referee repair`, has the figures), so it stops only
/// searches whose `--beam` or `--max-positions` were raised.
pub const DEFAULT_MAX_BYTES: usize = 256 << 20;

impl Default for RepairOptions {
    fn default() -> Self {
        RepairOptions {
            max_edits: DEFAULT_MAX_EDITS,
            beam: 64,
            max_positions: DEFAULT_MAX_POSITIONS,
            time_limit: Some(Duration::from_secs(10)),
            shown: 3,
            max_bytes: DEFAULT_MAX_BYTES,
            stop: Stop::never(),
        }
    }
}

/// What stopped a search before it was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The tokens replayed reached [`RepairOptions::max_positions`]; it holds that bound.
    Positions(u64),
    /// The time on the record reached [`RepairOptions::time_limit`]; it holds that limit.
    Time(Duration),
    /// The next step would have held more than [`RepairOptions::max_bytes`].
    Bytes {
        /// The ceiling.
        ceiling: usize,
        /// The bytes the next step would have held: past the ceiling (by more than a candidate's
        /// worth when it was the turn of the table of candidates tried to grow).
        needed: usize,
    },
    /// The signal to stop came ([`RepairOptions::stop`]).
    Stopped,
}

/// A repair found, and what the record says once repaired.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The edits, in token order.
    pub edits: Vec<Edit>,
    /// The edits as a report shows them, in the record's own text.
    pub changes: Vec<Change>,
    /// Whether the repaired record replays to its end with no violation.
    pub replays_to_end: bool,
    /// The violations left: the first is where the repaired record's strict replay stops; the
    /// others are found by a lenient replay past it (at most [`crate::replay::MAX_VIOLATIONS`]).
    pub violations: Vec<Violation>,
    /// How many cells of the record's final diagram differ from where the repaired replay ends
    /// (leniently past any violation left); `None` without a diagram.
    pub final_cells_differing: Option<usize>,
    /// The claims, as `verify` judges them on the repaired record.
    pub claims: Vec<ClaimCheck>,
    judged: bool,
    /// Moves the repaired replay played.
    pub moves: usize,
    /// The score where the repaired replay ended, in words.
    pub score: String,
    /// Where the strict replay stops, as an index into the record's own tokens (its length when
    /// it replays to the end): the key "replays further" ranks by.
    reach: usize,
    distance: usize,
}

impl Candidate {
    /// The final diagram's claim: confirmed when every cell matches, refuted when any differs,
    /// `None` without a diagram.
    pub fn final_position(&self) -> Option<ClaimStatus> {
        self.final_cells_differing.map(|n| if n == 0 { ClaimStatus::Confirmed } else { ClaimStatus::Refuted })
    }

    /// Whether every claimed result is confirmed (a record that claims none has nothing to fail).
    pub fn claims_hold(&self) -> bool {
        self.result_claims().all(|c| c.status == ClaimStatus::Confirmed)
    }

    /// The claimed results, but `*`, which claims none.
    pub(crate) fn result_claims(&self) -> impl Iterator<Item = &ClaimCheck> {
        let claims_one = |c: &&ClaimCheck| c.status != ClaimStatus::Unchecked(crate::verdict::Unchecked::NoResult);
        self.claims.iter().filter(|c| c.kind == ClaimKind::Result).filter(claims_one)
    }

    /// Replays to the end, the diagram matches and the claims hold: no repair can rank above it
    /// but one of fewer edits.
    pub(crate) fn is_perfect(&self) -> bool {
        self.replays_to_end && self.final_cells_differing.unwrap_or(0) == 0 && self.claims_hold()
    }

    /// Best first: replays to the end (else further); the final diagram matches (fewest cells
    /// differ); the claims hold; fewest edits; earliest first edit; then the fewest edits the
    /// notation cannot write, and the edits nearest the written text.
    fn rank(&self) -> RankKey {
        let refuted = self.result_claims().filter(|c| c.status == ClaimStatus::Refuted).count();
        let open = self.result_claims().filter(|c| c.status != ClaimStatus::Confirmed).count();
        RankKey { claims: (refuted, open), ..self.rank_before_claims() }
    }

    /// The same, every claim counting as holding: the claims of most candidates are never judged.
    fn rank_before_claims(&self) -> RankKey {
        RankKey {
            reach: Reverse(self.reach),
            differing: self.final_cells_differing.unwrap_or(0),
            claims: (0, 0),
            edits: self.edits.len(),
            first: self.edits.first().map_or(0, |e| e.at),
            unwritable: unwritable(&self.edits),
            distance: self.distance,
        }
    }
}

/// A candidate's place in the ranking, its keys in order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct RankKey {
    reach: Reverse<usize>,
    differing: usize,
    /// Claimed results refuted, and not confirmed.
    claims: (usize, usize),
    edits: usize,
    first: usize,
    unwritable: usize,
    distance: usize,
}

/// How many of the edits the notation cannot write legally.
fn unwritable(edits: &[Edit]) -> usize {
    edits.iter().filter(|e| !e.expressible).count()
}

/// The outcome of a search on one record.
#[derive(Clone, Debug)]
pub struct Search {
    /// The best candidates, best first.
    pub candidates: Vec<Candidate>,
    /// What stopped the search before it had tried every candidate it meant to, if anything.
    pub stopped: Option<Bound>,
    /// Tokens replayed, over all candidates.
    pub positions: u64,
    /// Candidates tried.
    pub tried: usize,
    /// Edits per candidate at the deepest level searched.
    pub depth: usize,
    /// The most bytes the search held at once, as it counts them: the candidates of the level
    /// searched and of the next, with their positions; the repairs found; the table of edited
    /// token lists tried; the positions before the tokens being edited. An estimate (allocator
    /// overhead as glibc's, hash tables as hashbrown lays them out); the claims' own searches
    /// are bounded apart ([`crate::search::DEFAULT_SEARCH_BYTES`]).
    pub bytes: usize,
}

/// The tokens of a candidate: the record's own, edited.
struct Edited<'a> {
    tokens: Vec<Token<'a>>,
    /// Tokens played as written, legal or not (see [`Edit::expressible`]).
    forced: Vec<bool>,
    /// For each token, the index of the record's token it stands at (an inserted one: the token it
    /// goes before), and whether it is that token, unchanged and in its place.
    origin: Vec<(usize, bool)>,
}

fn apply<'a, G: Repairable>(original: &[Token<'a>], edits: &'a [Edit]) -> Edited<'a> {
    let n = original.len() + edits.len() * 2;
    let mut out =
        Edited { tokens: Vec::with_capacity(n), forced: Vec::with_capacity(n), origin: Vec::with_capacity(n) };
    let push = |out: &mut Edited<'a>, t: Token<'a>, forced: bool, origin: usize, kept: bool| {
        out.tokens.push(t);
        out.forced.push(forced);
        out.origin.push((origin, kept));
    };
    let made = |text: &'a str, span: Span| Token { text, span, kind: G::token_kind(text) };
    let end = original.last().map_or(0..0, |t| t.span.end..t.span.end);
    let mut k = 0;
    for e in edits {
        while k < e.at {
            push(&mut out, original[k].clone(), false, k, true);
            k += 1;
        }
        match &e.op {
            Op::Splice { count, texts } => {
                // A new token is located at the token it replaces, or goes before.
                for (n, t) in texts.iter().enumerate() {
                    let span = match original.get(k + n.min(count.saturating_sub(1))) {
                        Some(o) if *count > 0 => o.span.clone(),
                        Some(o) => o.span.start..o.span.start,
                        None => end.clone(),
                    };
                    push(&mut out, made(t, span), !e.expressible, k, false);
                }
                k += count;
            }
            Op::Swap => {
                push(&mut out, original[k + 1].clone(), false, k, false);
                push(&mut out, original[k].clone(), false, k + 1, false);
                k += 2;
            }
        }
    }
    while k < original.len() {
        push(&mut out, original[k].clone(), false, k, true);
        k += 1;
    }
    out
}

fn edit_distance(original: &[Token], e: &Edit) -> usize {
    match &e.op {
        Op::Splice { count: 1, texts } if texts.len() == 1 => text_distance(original[e.at].text, &texts[0]),
        Op::Splice { count, texts } => {
            original[e.at..e.at + count].iter().map(|t| t.text.len()).sum::<usize>()
                + texts.iter().map(|t| t.len()).sum::<usize>()
        }
        Op::Swap => 2,
    }
}

/// Most sequences of moves tried when a stretch of play is inserted at one place.
const STRETCH_SEQUENCES: usize = 64;

/// Sequences of `n` legal moves from `position`, as written, at most [`STRETCH_SEQUENCES`].
fn sequences<G: Repairable>(position: &G, n: usize) -> Vec<Vec<String>> {
    fn go<G: Repairable>(p: &G, n: usize, seq: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        if seq.len() == n {
            out.push(seq.clone());
            return;
        }
        let mut seen = rustc_hash::FxHashSet::default();
        for m in p.legal_moves() {
            if out.len() >= STRETCH_SEQUENCES {
                return;
            }
            let w = p.write_move(m);
            if !seen.insert(w.clone()) {
                continue;
            }
            let mut q = p.clone();
            q.play_unchecked(m);
            seq.push(w);
            go(&q, n, seq, out);
            seq.pop();
        }
    }
    let mut out = Vec::new();
    go(position, n, &mut Vec::new(), &mut out);
    out
}

/// The edits tried at token `j` of a candidate (the record's token `at`), standing in `position`:
/// `violation` when `j` is the first violation itself; `end` is where the record's moves end (its
/// first claim, or its length), which no edit passes.
fn edits_at<G: Repairable>(position: &G, written: &str, at: usize, violation: bool, end: usize) -> Vec<Edit> {
    let edit = |op, expressible| Edit { at, op, expressible };
    let legal = written_legal(position);
    let skipped = position.skipped();
    let stretches: Vec<usize> = position.stretches().into_iter().filter(|&n| n > 1).collect();
    let mut out = Vec::new();
    // Another move where this one stands: another destination, another stone, a stay, a number.
    out.extend(legal.iter().filter(|t| *t != written).map(|t| edit(Op::replace(t.clone()), true)));
    if let Some(s) = skipped.as_ref().filter(|_| violation) {
        if s[0] != written {
            out.push(edit(Op::replace(s[0].clone()), false));
        }
    }
    // A token, a phase or a half-turn the writer added (a doubled move).
    out.push(edit(Op::delete(1), true));
    out.extend(stretches.iter().filter(|&&n| at + n <= end).map(|&n| edit(Op::delete(n), true)));
    // A move, a phase or a half-turn the writer left out.
    out.extend(legal.iter().map(|t| edit(Op::insert(vec![t.clone()]), true)));
    for &n in &stretches {
        out.extend(sequences(position, n).into_iter().map(|s| edit(Op::insert(s), true)));
    }
    if let Some(s) = skipped {
        // A phase that did not happen, written as if it had, or left out.
        if at + s.len() <= end {
            out.push(edit(Op::Splice { count: s.len(), texts: s.clone() }, false));
        }
        out.push(edit(Op::insert(s), false));
    }
    // Two tokens written in the wrong order.
    if at + 2 <= end {
        out.push(edit(Op::Swap, true));
    }
    out
}

/// A candidate still to extend: its edits, and where its replay stops.
struct Node<G> {
    edits: Vec<Edit>,
    /// The record's token where the next edit may start: after this candidate's last edit.
    frontier: usize,
    /// A position of this candidate's replay, and the index in its edited tokens it stands before.
    checkpoint: (usize, G),
    /// The first violation, as an index in the edited tokens and in the record's own.
    stop: usize,
    stop_origin: usize,
    /// The record's tokens its edits take away, beyond those they put back.
    dropped: usize,
    distance: usize,
    /// What the node holds, as [`Search::bytes`] counts it.
    bytes: usize,
}

/// How a candidate still to extend ranks among those of its level: see [`Node::beam_key`].
type BeamKey = (Reverse<usize>, usize, usize, usize);

impl<G> Node<G> {
    /// Replays furthest first, counting only the record's tokens that replay (deleting the rest of
    /// a record is no progress); then the fewest edits the notation cannot write; then the edits
    /// nearest what was written.
    fn beam_key(&self) -> BeamKey {
        (
            Reverse(self.stop_origin.saturating_sub(self.dropped)),
            unwritable(&self.edits),
            self.distance,
            self.edits.first().map_or(0, |e| e.at),
        )
    }
}

/// The work of one search, and what it has spent.
struct Searcher<'t, 'a, 'j, G: Repairable> {
    start: G,
    tokens: &'t [Token<'a>],
    judge: &'j mut dyn Judge<G>,
    options: RepairOptions,
    /// Where the record's moves end: its first claim, or its length.
    end: usize,
    spent: u64,
    tried: usize,
    /// When the search began, if it has a time limit.
    began: Option<Instant>,
    stopped: Option<Bound>,
    /// Hashes of the edited token lists tried: the same list reached by other edits is not tried
    /// again.
    seen: rustc_hash::FxHashSet<u64>,
    /// The bytes held but the table `seen`, as [`Search::bytes`] counts them.
    held: usize,
    /// The most bytes held at once.
    peak: usize,
    /// The bytes of the candidates that replay furthest without reaching the end, kept over all
    /// levels.
    furthest_bytes: usize,
}

impl<G: Repairable> Searcher<'_, '_, '_, G> {
    /// Whether a bound stops the search here: checked before each candidate is tried.
    fn out_of_bounds(&mut self) -> bool {
        self.peak = self.peak.max(self.bytes_held());
        if self.stopped.is_none() {
            if self.spent >= self.options.max_positions {
                self.stopped = Some(Bound::Positions(self.options.max_positions));
            } else if let Some(limit) =
                self.options.time_limit.filter(|&l| self.began.is_some_and(|b| b.elapsed() >= l))
            {
                self.stopped = Some(Bound::Time(limit));
            } else if self.options.stop.is_given() {
                self.stopped = Some(Bound::Stopped);
            } else {
                self.would_pass(0);
            }
        }
        self.stopped.is_some()
    }

    /// Whether holding `more` bytes would pass the ceiling, which then stops the search: the step
    /// that would pass it is not taken. The next candidate may grow the table of those tried, which
    /// holds its old buckets and its new ones while it grows.
    fn would_pass(&mut self, more: usize) -> bool {
        let growing = self.seen.len() == self.seen.capacity();
        let needed = self.held + more + table_bytes(self.seen.capacity(), std::mem::size_of::<u64>(), growing);
        if needed > self.options.max_bytes && self.stopped.is_none() {
            self.stopped = Some(Bound::Bytes { ceiling: self.options.max_bytes, needed });
        }
        needed > self.options.max_bytes
    }

    /// The bytes held now.
    fn bytes_held(&self) -> usize {
        self.held + table_bytes(self.seen.capacity(), std::mem::size_of::<u64>(), false)
    }

    /// Cuts the candidates of the next level to the beam, those that replay furthest, when they
    /// are twice as many: the same candidates as cutting them once at the level's end (the order
    /// is stable, so ties keep the order they came in), in the memory of twice the beam.
    fn cut(&mut self, next: &mut Vec<Node<G>>, at: usize) {
        if next.len() < at {
            return;
        }
        next.sort_by_key(|n| n.beam_key());
        let beam = self.options.beam.max(1);
        self.held -= next.iter().skip(beam).map(|n| n.bytes).sum::<usize>();
        next.truncate(beam);
    }

    /// Whether this edited list is new to the search.
    fn first_time(&mut self, edited: &Edited) -> bool {
        let mut h = rustc_hash::FxHasher::default();
        for (t, f) in edited.tokens.iter().zip(&edited.forced) {
            t.text.hash(&mut h);
            f.hash(&mut h);
        }
        self.seen.insert(h.finish())
    }

    /// Tries every edit at the node's first violation and in the window before it: the children
    /// that replay to the end go to `ends`, those that replay further than the node to `next`.
    fn expand(&mut self, node: &Node<G>, ends: &mut Vec<Vec<Edit>>, next: &mut Vec<Node<G>>) {
        let edited = apply::<G>(self.tokens, &node.edits);
        let v = node.stop;
        let window = (v.saturating_sub(self.start.window())..=v)
            .filter(|&j| edited.origin[j].1 && edited.origin[j].0 >= node.frontier)
            .collect::<Vec<_>>();
        let Some(&lowest) = window.first() else { return };
        // The positions before each token from the lowest checkpoint a child needs to the violation.
        let base = lowest.saturating_sub(G::READ_AHEAD).max(node.checkpoint.0);
        let mut positions = Vec::with_capacity(v + 1 - base);
        run(node.checkpoint.1.clone(), &edited.tokens, &edited.forced, node.checkpoint.0, &mut self.spent, |i, p| {
            if (base..=v).contains(&i) {
                positions.push(p.clone());
            }
        });
        if positions.len() != v + 1 - base {
            // The node's replay no longer stops where it did: nothing to build on (never expected).
            return;
        }
        let positions_bytes = positions.iter().map(position_bytes).sum::<usize>();
        self.held += positions_bytes;
        self.expand_at(node, &edited, &window, base, &positions, ends, next);
        self.held -= positions_bytes;
    }

    /// The children of `expand`, the edits at each token of the window tried in turn, standing in
    /// the positions from `base` on.
    #[allow(clippy::too_many_arguments)]
    fn expand_at(
        &mut self,
        node: &Node<G>,
        edited: &Edited,
        window: &[usize],
        base: usize,
        positions: &[G],
        ends: &mut Vec<Vec<Edit>>,
        next: &mut Vec<Node<G>>,
    ) {
        let v = node.stop;
        for &j in window.iter().rev() {
            let at = edited.origin[j].0;
            let edits = edits_at(&positions[j - base], edited.tokens[j].text, at, j == v, self.end);
            for e in edits {
                if self.out_of_bounds() {
                    return;
                }
                let frontier = at + e.op.count();
                let distance = node.distance + edit_distance(self.tokens, &e);
                let dropped = node.dropped + e.op.dropped();
                let mut edits = node.edits.clone();
                edits.push(e);
                let child = apply::<G>(self.tokens, &edits);
                if !self.first_time(&child) {
                    continue;
                }
                self.tried += 1;
                let from = j.saturating_sub(G::READ_AHEAD).max(base);
                let start = positions[from - base].clone();
                let r = run(start.clone(), &child.tokens, &child.forced, from, &mut self.spent, |_, _| {});
                let stop = r.stop.map(|s| (s, child.origin[s].0));
                drop(child);
                match stop {
                    None => {
                        let bytes = std::mem::size_of::<Vec<Edit>>() + edits_bytes(&edits);
                        if self.would_pass(bytes) {
                            return;
                        }
                        self.held += bytes;
                        ends.push(edits);
                    }
                    Some((stop, stop_origin)) if stop_origin > node.stop_origin => {
                        let bytes = std::mem::size_of::<Node<G>>() + edits_bytes(&edits) + position_bytes(&start);
                        if self.would_pass(bytes) {
                            return;
                        }
                        self.held += bytes;
                        next.push(Node {
                            edits,
                            frontier,
                            checkpoint: (from, start),
                            stop,
                            stop_origin,
                            dropped,
                            distance,
                            bytes,
                        });
                        self.cut(next, self.options.beam.max(1).saturating_mul(2));
                    }
                    Some(_) => {}
                }
            }
        }
    }

    /// The replay of a candidate's edited tokens from the start: strict up to its first violation
    /// (forced tokens played as written), lenient after it; and how far it replays, counting only
    /// the record's tokens (see [`Node::beam_key`]).
    fn replayed(&mut self, edited: &Edited, edits: &[Edit]) -> (Replay<G>, usize) {
        let r = run(self.start.clone(), &edited.tokens, &edited.forced, 0, &mut self.spent, |_, _| {});
        match r.stop {
            None => (
                Replay {
                    position: r.position,
                    violations: Vec::new(),
                    moves: r.moves,
                    stopped_at: None,
                    claim_at: r.claim_at,
                    last_mover: r.last_mover,
                    lenient: false,
                    // The claims are judged over every legal reading, as `verify` judges them; a
                    // forced token, which no reading admits, leaves the one reading played.
                    readings: if edited.forced.contains(&true) {
                        Vec::new()
                    } else {
                        crate::replay::other_reading_ends(&self.start, &edited.tokens)
                    },
                },
                self.tokens.len(),
            ),
            Some(s) => {
                // Every forced token comes before the first violation, so the rest is the
                // record's own reading: a lenient replay of it lists what is left.
                let rest = replay(r.position, &edited.tokens[s..], ReplayOptions { lenient: true, max_moves: None });
                let rep = Replay {
                    position: rest.position,
                    violations: rest.violations,
                    moves: r.moves + rest.moves,
                    stopped_at: rest.stopped_at.map(|i| i + s),
                    claim_at: rest.claim_at.map(|i| i + s),
                    last_mover: rest.last_mover.or(r.last_mover),
                    lenient: true,
                    readings: Vec::new(),
                };
                (rep, edited.origin[s].0.saturating_sub(edits.iter().map(|e| e.op.dropped()).sum()))
            }
        }
    }

    /// A candidate replayed again from the start, its final diagram compared; its claims are
    /// judged later, and only for the best candidates (see [`Searcher::judge`]), since a claimed
    /// result of a record that stops before the end is judged by a search of its own.
    fn finish(&mut self, edits: Vec<Edit>) -> Candidate {
        let edited = apply::<G>(self.tokens, &edits);
        let (rep, reach) = self.replayed(&edited, &edits);
        let distance = edits.iter().map(|e| edit_distance(self.tokens, e)).sum();
        drop(edited);
        Candidate {
            changes: edits.iter().map(|e| change(self.tokens, e)).collect(),
            replays_to_end: rep.violations.is_empty(),
            final_cells_differing: self.judge.cells_differing(&rep.position),
            claims: Vec::new(),
            judged: false,
            moves: rep.moves,
            score: rep.position.score().to_string(),
            violations: rep.violations,
            reach,
            distance,
            edits,
        }
    }

    /// Judges a candidate's claims, once.
    fn judge(&mut self, c: &mut Candidate) {
        if c.judged {
            return;
        }
        let edits = c.edits.clone();
        let edited = apply::<G>(self.tokens, &edits);
        let (rep, _) = self.replayed(&edited, &edits);
        c.claims = self.judge.claims(&edited.tokens, &rep);
        c.judged = true;
    }
}

/// Candidates whose claims are judged to rank them: the best by every other key. A claimed result
/// of a record that stops before the end takes a search of its own for each candidate.
const JUDGED: usize = 32;

fn change(tokens: &[Token], e: &Edit) -> Change {
    let joined = |ts: &[Token]| ts.iter().map(|t| t.text).collect::<Vec<_>>().join(" ");
    let make = |kind, spans: Vec<Span>, from: String, to: String| Change {
        kind,
        spans,
        from,
        to,
        expressible: e.expressible,
        at_end: false,
    };
    match &e.op {
        Op::Splice { count: 0, texts } => {
            let (span, at_end) = match tokens.get(e.at) {
                Some(t) => (t.span.clone(), false),
                None => (tokens.last().map_or(0..0, |t| t.span.clone()), true),
            };
            Change { at_end, ..make(ChangeKind::Insert, vec![span], String::new(), texts.join(" ")) }
        }
        Op::Splice { count, texts } => {
            let gone = &tokens[e.at..e.at + count];
            let kind = if texts.is_empty() { ChangeKind::Delete } else { ChangeKind::Replace };
            make(kind, gone.iter().map(|t| t.span.clone()).collect(), joined(gone), texts.join(" "))
        }
        Op::Swap => {
            let pair = &tokens[e.at..e.at + 2];
            let spans = pair.iter().map(|t| t.span.clone()).collect();
            make(ChangeKind::Swap, spans, joined(pair), format!("{} {}", pair[1].text, pair[0].text))
        }
    }
}

/// Searches for the best repairs of a record that starts at `start` and has `tokens`; a record that
/// replays without violation gets none.
pub fn search<G: Repairable>(start: G, tokens: &[Token], judge: &mut dyn Judge<G>, options: RepairOptions) -> Search {
    let end = tokens.iter().position(|t| t.kind.is_claim()).unwrap_or(tokens.len());
    let (kept, max_edits) = (JUDGED.max(options.shown), options.max_edits);
    let mut s = Searcher {
        start,
        tokens,
        judge,
        began: options.time_limit.map(|_| Instant::now()),
        options,
        end,
        spent: 0,
        tried: 0,
        stopped: None,
        seen: Default::default(),
        held: 0,
        peak: 0,
        furthest_bytes: 0,
    };
    let none = vec![false; tokens.len()];
    let root = run(s.start.clone(), tokens, &none, 0, &mut s.spent, |_, _| {});
    let Some(stop) = root.stop else {
        return Search { candidates: Vec::new(), stopped: None, positions: s.spent, tried: 0, depth: 0, bytes: 0 };
    };
    let bytes = std::mem::size_of::<Node<G>>() + position_bytes(&s.start);
    s.held += bytes;
    let mut level = vec![Node {
        edits: Vec::new(),
        frontier: 0,
        checkpoint: (0, s.start.clone()),
        stop,
        stop_origin: stop,
        dropped: 0,
        distance: 0,
        bytes,
    }];
    // The repairs found, at most `kept` (as many as the end can still use): those ranked best but
    // for their claims, which are judged only for these.
    let mut finished: Vec<Candidate> = Vec::new();
    // The candidates that replay furthest without reaching the end, over all levels.
    let mut furthest: Vec<(BeamKey, Vec<Edit>)> = Vec::new();
    let mut depth = 0;
    while depth < max_edits && !level.is_empty() && !s.out_of_bounds() {
        depth += 1;
        let (mut ends, mut next) = (Vec::new(), Vec::new());
        for node in &level {
            s.expand(node, &mut ends, &mut next);
            if s.stopped.is_some() {
                break;
            }
        }
        s.held -= level.iter().map(|n| n.bytes).sum::<usize>();
        drop(level);
        let perfect = finish_level(&mut s, ends, &mut finished, kept);
        s.cut(&mut next, 0);
        keep_furthest(&mut s, &next, &mut furthest);
        if perfect {
            s.held -= next.iter().map(|n| n.bytes).sum::<usize>();
            break;
        }
        level = next;
    }
    let candidates = ranked(&mut s, finished, furthest, kept);
    let bytes = s.peak.max(s.bytes_held());
    Search { candidates, stopped: s.stopped, positions: s.spent, tried: s.tried, depth, bytes }
}

/// The repairs shown, best first: those that reach the end (`finished`) and those that replay
/// furthest short of it, ranked first by every key but the claims, then the best `kept` judged and
/// ranked again; of two that read alike, the better.
fn ranked<G: Repairable>(
    s: &mut Searcher<G>,
    mut finished: Vec<Candidate>,
    furthest: Vec<(BeamKey, Vec<Edit>)>,
    kept: usize,
) -> Vec<Candidate> {
    s.held -= s.furthest_bytes;
    for (_, edits) in furthest {
        let c = s.finish(edits);
        s.held += candidate_bytes(&c);
        finished.push(c);
    }
    cut_finished(s, &mut finished, 0, kept);
    for c in &mut finished {
        s.judge(c);
    }
    finished.sort_by_key(|c| c.rank());
    // Two repairs that differ only in which of their tokens are played as written, legal or not,
    // read alike: the better one is shown.
    let mut shown = rustc_hash::FxHashSet::default();
    finished.retain(|c| {
        let edited = apply::<G>(s.tokens, &c.edits);
        shown.insert(edited.tokens.iter().map(|t| t.text.to_string()).collect::<Vec<_>>())
    });
    finished.truncate(s.options.shown);
    finished
}

/// Makes the repairs that replay to the end found at one level (`ends`) candidates among
/// `finished`, the best `kept` of them kept, and judges the claims of those whose diagram matches;
/// whether one of them stands (replays to the end, its diagram and claims holding), which ends the
/// search: a repair of more edits cannot rank above it.
fn finish_level<G: Repairable>(
    s: &mut Searcher<G>,
    ends: Vec<Vec<Edit>>,
    finished: &mut Vec<Candidate>,
    kept: usize,
) -> bool {
    let found = finished.len();
    for edits in ends {
        s.held -= std::mem::size_of::<Vec<Edit>>() + edits_bytes(&edits);
        let c = s.finish(edits);
        s.held += candidate_bytes(&c);
        finished.push(c);
        if finished.len() - found >= kept.saturating_mul(2) {
            cut_finished(s, finished, found, kept);
        }
    }
    // Every new repair replays to the end: the best of them by every key but the claims come
    // first, those whose diagram matches first of all, and only they are judged.
    cut_finished(s, finished, found, kept);
    let mut perfect = false;
    for c in finished[found..].iter_mut().filter(|c| c.final_cells_differing.unwrap_or(0) == 0).take(JUDGED) {
        s.held -= candidate_bytes(c);
        s.judge(c);
        s.held += candidate_bytes(c);
        perfect |= c.is_perfect();
    }
    // Only the best `kept` of every level's repairs can be shown: the same as cutting them at
    // the end, since the order is stable.
    cut_finished(s, finished, 0, kept);
    perfect
}

/// Keeps in `furthest` the edits of the candidates that replay furthest without reaching the end,
/// over all levels so far, as many as are shown: the best of this level's `next` join them.
fn keep_furthest<G: Repairable>(s: &mut Searcher<G>, next: &[Node<G>], furthest: &mut Vec<(BeamKey, Vec<Edit>)>) {
    let shown = s.options.shown;
    furthest.extend(next.iter().take(shown).map(|n| (n.beam_key(), n.edits.clone())));
    furthest.sort_by_key(|(key, _)| *key);
    furthest.truncate(shown);
    s.held -= s.furthest_bytes;
    s.furthest_bytes = furthest.iter().map(|(_, e)| std::mem::size_of::<(BeamKey, Vec<Edit>)>() + edits_bytes(e)).sum();
    s.held += s.furthest_bytes;
}

/// Sorts the repairs from `from` on by every key but the claims, and keeps the best `kept` of them.
fn cut_finished<G: Repairable>(s: &mut Searcher<G>, finished: &mut Vec<Candidate>, from: usize, kept: usize) {
    finished[from..].sort_by_key(|c| c.rank_before_claims());
    let gone = finished.iter().skip(from.saturating_add(kept)).map(candidate_bytes).sum::<usize>();
    s.held -= gone;
    finished.truncate(from.saturating_add(kept));
    s.peak = s.peak.max(s.bytes_held() + gone);
}

/// Bytes a position held by the search takes: itself, and its board on the heap as the claim
/// search counts a stored key (the key is the position itself, but for Vadrantir, whose key and
/// position hold nothing on the heap).
fn position_bytes<G: SearchKey>(p: &G) -> usize {
    std::mem::size_of::<G>() + G::key_heap_bytes(&p.key())
}

/// Heap bytes of a candidate's edits.
fn edits_bytes(edits: &Vec<Edit>) -> usize {
    let texts = |e: &Edit| match &e.op {
        Op::Splice { texts, .. } => {
            allocation(texts.capacity() * std::mem::size_of::<String>())
                + texts.iter().map(|t| allocation(t.capacity())).sum::<usize>()
        }
        Op::Swap => 0,
    };
    allocation(edits.capacity() * std::mem::size_of::<Edit>()) + edits.iter().map(texts).sum::<usize>()
}

/// Bytes a repair found holds: its edits, their changes, the violations left and the claims.
fn candidate_bytes(c: &Candidate) -> usize {
    let string = |s: &String| allocation(s.capacity());
    let vec = |cap: usize, each: usize| allocation(cap * each);
    let change =
        |ch: &Change| vec(ch.spans.capacity(), std::mem::size_of::<Span>()) + string(&ch.from) + string(&ch.to);
    let violation = |v: &Violation| {
        string(&v.token)
            + string(&v.message)
            + vec(v.legal.capacity(), std::mem::size_of::<String>())
            + v.legal.iter().map(string).sum::<usize>()
            + v.board.as_ref().map_or(0, |b| allocation(b.heap_bytes()))
    };
    let claim = |k: &ClaimCheck| string(&k.text) + string(&k.detail);
    std::mem::size_of::<Candidate>()
        + edits_bytes(&c.edits)
        + vec(c.changes.capacity(), std::mem::size_of::<Change>())
        + c.changes.iter().map(change).sum::<usize>()
        + vec(c.violations.capacity(), std::mem::size_of::<Violation>())
        + c.violations.iter().map(violation).sum::<usize>()
        + vec(c.claims.capacity(), std::mem::size_of::<ClaimCheck>())
        + c.claims.iter().map(claim).sum::<usize>()
        + string(&c.score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alternatives::run;
    use crate::format::published::Published;
    use crate::format::OpenRecord;
    use crate::games::phages::Phages;
    use crate::record::{self, Found};

    /// The records of the samples that replay: every one in the folders given.
    fn each_record(folders: &[&str], mut work: impl FnMut(&str, usize, &str)) {
        for folder in folders {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(folder);
            let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
            paths.sort();
            for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
                let src = std::fs::read_to_string(path).unwrap();
                for index in 1..=record::read(&src, None).count() {
                    work(&src, index, &path.display().to_string());
                }
            }
        }
    }

    /// The search's replay reads tokens as `verify`'s strict replay does: it stops at the same
    /// token, after the same moves.
    #[test]
    fn the_search_replays_records_as_verify_does() {
        let mut compared = 0;
        each_record(&["quadraphages", "quadraphages/broken", "hexaphages"], |src, index, name| {
            let Some(Found::Published(r)) = record::read(src, None).nth(index - 1) else { return };
            if !r.syntax_errors.is_empty() {
                return;
            }
            let Ok(start) = (Published { src, record: &r, forced: None }).start() else { return };
            let strict = replay(start.clone(), &r.tokens, ReplayOptions::default());
            let ours = run(start, &r.tokens, &vec![false; r.tokens.len()], 0, &mut 0, |_, _| {});
            assert_eq!((ours.stop, ours.moves), (strict.stopped_at, strict.moves), "{name} #{index}");
            compared += 1;
        });
        assert!(compared > 10, "{compared} records compared");
    }

    /// A candidate replayed from the position its edit leaves alone (the edit's place less what the
    /// notation reads ahead) stops where its replay from the start stops: so the search may start
    /// there. Every legal move in place of every token of the published records, and before it.
    #[test]
    fn a_replay_from_before_an_edit_stops_where_one_from_the_start_does() {
        let mut compared = 0;
        each_record(&["quadraphages", "hexaphages"], |src, index, name| {
            let Some(Found::Published(r)) = record::read(src, None).nth(index - 1) else { return };
            let Ok(start) = (Published { src, record: &r, forced: None }).start() else { return };
            let tokens = &r.tokens;
            let mut positions = Vec::new();
            let root =
                run(start.clone(), tokens, &vec![false; tokens.len()], 0, &mut 0, |_, p| positions.push(p.clone()));
            let stop = root.stop.unwrap_or(positions.len());
            for j in 0..stop.min(positions.len()) {
                for text in written_legal(&positions[j]) {
                    for op in [Op::replace(text.clone()), Op::insert(vec![text])] {
                        let edits = [Edit { at: j, op, expressible: true }];
                        let edited = apply::<Phages>(tokens, &edits);
                        let from = j.saturating_sub(Phages::READ_AHEAD);
                        let whole = run(start.clone(), &edited.tokens, &edited.forced, 0, &mut 0, |_, _| {});
                        let part =
                            run(positions[from].clone(), &edited.tokens, &edited.forced, from, &mut 0, |_, _| {});
                        assert_eq!(whole.stop, part.stop, "{name} #{index}: {edits:?}");
                        compared += 1;
                    }
                }
            }
        });
        assert!(compared > 1000, "{compared} candidates compared");
    }
}
