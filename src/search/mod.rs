//! One bounded search of every continuation of a position, over the [`Game`] trait: what play can
//! still reach when a record stops before the game is over (RULINGS 9), for every game.
//!
//! The search is exhaustive and memoised: a transposition table maps each position solved to the
//! set of final results reachable from it (and the result of best play, where that is defined).
//! Every game ends (each engine says why: its moves fill the board, take pieces off, or count
//! towards a limit), so no position can come back after it was left, the positions form a DAG,
//! and a position's results are exactly the union of its children's: memoising them is exact.
//!
//! Two bounds stop it, whichever comes first, and the answer says which: a number of distinct
//! positions (the time a search may take, `--search-limit`) and a number of bytes (the memory it
//! may hold, whatever the position bound says). Either way nothing is concluded from a search that
//! did not finish: callers get [`Stopped`] instead of a partial answer.

pub mod claims;

use std::fmt;
use std::hash::Hash;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use hashbrown::HashTable;
use rustc_hash::FxHashMap;

use crate::game::{Game, SearchKey};

/// What a search looks for: the result of a finished game, and (for two players) which result the
/// player to move would rather have.
pub trait Goal<G> {
    /// A final result, as fine as claims need it: the winner for the common format, the two marks
    /// counts for Quadraphages (whose claims name a score).
    type Result: Copy + Ord + Hash + fmt::Debug;
    /// The result of a position where play has ended.
    fn result(&self, end: &G) -> Self::Result;
    /// Whether best play is defined: with two players, each choosing the result of best play they
    /// like best. With three or more, a player who cannot win has no reason to prefer one winner to
    /// another, so there is no single result of best play, only the set of reachable results.
    fn best_play(&self) -> bool;
    /// Whether the player to move in `at` would rather have `a` than `b` (with [`Goal::best_play`]).
    fn prefers(&self, at: &G, a: Self::Result, b: Self::Result) -> bool;
}

/// The bounds of one search: whichever is reached first stops it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most distinct positions solved (stored in the table): the time a search may take.
    pub positions: usize,
    /// Most bytes held at once, as [`Searched::bytes`] counts them: the memory a search may take.
    pub bytes: usize,
    /// A signal from outside the search to stop it: an editor's text changed under it.
    pub stop: Stop,
}

impl Limits {
    /// Bounds of `positions` positions and `bytes` bytes, with no signal to stop.
    pub fn new(positions: usize, bytes: usize) -> Limits {
        Limits { positions, bytes, stop: Stop::never() }
    }
}

/// A signal to stop searching, given from outside the search: by whoever holds a clone of it (an
/// editor whose text changed, a client that cancelled its request), or by the clock, past a
/// deadline. A search looks at it every [`Stop::EVERY`] positions, so it stops within
/// milliseconds; a search that stopped so concludes nothing, like one stopped by its bounds.
///
/// The command line never stops a search so: its verdicts depend on the text and the options
/// alone.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    flag: Option<Arc<AtomicBool>>,
    /// Never read where there is no clock (WebAssembly in a browser, where reading `Instant`
    /// panics): only a caller that sets a deadline has one.
    deadline: Option<std::time::Instant>,
}

impl Stop {
    /// How many positions a search solves between two looks at its signal.
    pub const EVERY: usize = 1024;

    /// A signal nobody gives: the search runs to its bounds.
    pub fn never() -> Stop {
        Stop::default()
    }

    /// A signal that [`Stop::stop`] on any of its clones gives.
    pub fn new() -> Stop {
        Stop { flag: Some(Arc::new(AtomicBool::new(false))), deadline: None }
    }

    /// The same signal, given also at `deadline`.
    pub fn at(self, deadline: std::time::Instant) -> Stop {
        Stop { deadline: Some(deadline), ..self }
    }

    /// Gives the signal: every search that holds a clone stops at its next look.
    pub fn stop(&self) {
        if let Some(flag) = &self.flag {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the signal was given, or the deadline passed.
    pub fn is_given(&self) -> bool {
        self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| std::time::Instant::now() >= d)
    }
}

/// Two signals are the same signal when they share their flag and deadline.
impl PartialEq for Stop {
    fn eq(&self, other: &Stop) -> bool {
        let flags = match (&self.flag, &other.flag) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        flags && self.deadline == other.deadline
    }
}

impl Eq for Stop {}

/// The byte budget of one search: a hopeless search stops here whatever `--search-limit` says.
/// Every game's default board reaches the default position bound first (Splinter Quad's 10x10, the
/// largest position, needs 155 MiB at its last table growth), so the ceiling only stops searches
/// on large boards and searches whose position bound was raised (README, "Claims before the end",
/// has the measured figures).
pub const DEFAULT_SEARCH_BYTES: usize = 192 << 20;

/// What a finished search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched<R> {
    /// Every reachable final result, sorted, without duplicates.
    pub results: Vec<R>,
    /// The result of best play, where the goal defines it.
    pub best: Option<R>,
    /// Distinct positions solved.
    pub positions: usize,
    /// The most bytes the search held at once (an estimate: see [`Limits::bytes`]).
    pub bytes: usize,
}

/// The answer of a finished search, as far as budgets care: how many positions it solved.
pub trait Solved {
    /// Distinct positions the search solved.
    fn positions(&self) -> usize;
}

impl<R> Solved for Searched<R> {
    fn positions(&self) -> usize {
        self.positions
    }
}

/// Which bound stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The number of positions solved ([`Limits::positions`]).
    Positions,
    /// The bytes held ([`Limits::bytes`]).
    Bytes,
    /// The signal to stop ([`Limits::stop`]).
    Stopped,
}

/// A search stopped by one of its bounds, before it could say anything about the position asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// Which bound stopped it.
    pub bound: Bound,
    /// Distinct positions solved when it stopped.
    pub positions: usize,
    /// Bytes held when it stopped.
    pub bytes: usize,
    /// Bytes the next step would have held: past the ceiling when the bytes stopped the search
    /// (more than one position's worth when it was the table's turn to grow).
    pub needed: usize,
    /// The limits it ran under.
    pub limits: Limits,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the search stopped at {} positions / {}, {}", self.positions, mib(self.bytes), self.bound_words())
    }
}

impl std::error::Error for Stopped {}

impl Stopped {
    /// The bound that stopped the search, and how to raise it.
    fn bound_words(&self) -> String {
        match self.bound {
            Bound::Positions => {
                format!("its bound of {} positions (raise it with --search-limit)", self.limits.positions)
            }
            // The table grows by doubling: the step that stops a search may need much more than the
            // search holds, and the report says so rather than seem to stop short of its ceiling.
            Bound::Bytes if self.needed - self.bytes > 1 << 20 => format!(
                "as its table would grow to {}, past its memory ceiling of {}, whatever --search-limit says",
                mib(self.needed),
                mib(self.limits.bytes)
            ),
            Bound::Bytes => {
                format!("its memory ceiling of {}, whatever --search-limit says", mib(self.limits.bytes))
            }
            Bound::Stopped => "as it was told to stop (the text changed, or its time was up)".to_string(),
        }
    }
}

/// Bytes in MiB, as reports write them: `0.4 MiB`, `128 MiB`.
pub fn mib(bytes: usize) -> String {
    let m = bytes as f64 / f64::from(1 << 20);
    if m < 10.0 && m.fract() != 0.0 {
        format!("{m:.1} MiB")
    } else {
        format!("{m:.0} MiB")
    }
}

pub use crate::game::key::allocation;

/// Whether play has ended at `p`. A position with no legal move that is not over cannot arise from
/// a valid start; taking it as final keeps the search total instead of panicking.
fn is_final<G: Game>(p: &G, moves: &[G::Move]) -> bool {
    p.is_over() || moves.is_empty()
}

/// Searches every continuation of `root` to the end, within `limits`.
///
/// A root where play has ended needs no search and is answered whatever the limits (one position).
pub fn search<G: SearchKey, J: Goal<G>>(root: &G, goal: &J, limits: Limits) -> Result<Searched<J::Result>, Stopped> {
    let moves = root.legal_moves();
    if is_final(root, &moves) {
        let r = goal.result(root);
        return Ok(Searched { results: vec![r], best: goal.best_play().then_some(r), positions: 1, bytes: 0 });
    }
    let mut s = Search::<G, J> {
        goal,
        limits,
        table: HashTable::new(),
        sets: Vec::new(),
        ids: FxHashMap::default(),
        held: 0,
        stack: 0,
        peak: 0,
    };
    let root_hash = G::key_hash(&root.key());
    let mut stack = vec![s.frame(root.clone(), root_hash, moves)];
    loop {
        let Some(top) = stack.last_mut() else { unreachable!("the root's frame is popped last") };
        if let Some(&m) = top.moves.get(top.next) {
            top.next += 1;
            let mut child = top.position.clone();
            child.play_unchecked(m);
            let hash = {
                let key = child.key();
                let hash = G::key_hash(&key);
                if let Some(slot) = s.table.find(hash, |slot| slot.hash == hash && slot.key == *key) {
                    let e = slot.entry;
                    s.fold(top, e);
                    continue;
                }
                hash
            };
            let moves = child.legal_moves();
            if is_final(&child, &moves) {
                let r = goal.result(&child);
                let set = s.intern(vec![r]);
                let e = s.insert(hash, child.into_key(), Entry { set, best: r })?;
                s.fold(top, e);
                continue;
            }
            let frame = s.frame(child, hash, moves);
            stack.push(frame);
        } else {
            let Some(done) = stack.pop() else { unreachable!("the stack is not empty here") };
            s.stack -= done.bytes;
            let set = match done.children {
                Children::Same(id) => id,
                Children::Mixed(union) => s.intern(union),
                Children::None => unreachable!("a position that is not final has a move"),
            };
            let best = done.best.unwrap_or_else(|| s.sets[set as usize][0]);
            let e = s.insert(done.hash, done.position.into_key(), Entry { set, best })?;
            match stack.last_mut() {
                Some(parent) => s.fold(parent, e),
                None => {
                    return Ok(Searched {
                        results: s.sets[e.set as usize].to_vec(),
                        best: goal.best_play().then_some(e.best),
                        positions: s.table.len(),
                        bytes: s.peak,
                    })
                }
            }
        }
    }
}

/// A solved position: its set of reachable results (an index into the interned sets) and the
/// result of best play (any reachable result when the goal has no best play).
#[derive(Clone, Copy)]
struct Entry<R> {
    set: u32,
    best: R,
}

/// What the children of a position searched so far reach.
enum Children<R> {
    None,
    /// All of them the same set: the common case (forced moves, moves that transpose), kept
    /// without building a union.
    Same(u32),
    /// Their union, sorted, without duplicates.
    Mixed(Vec<R>),
}

/// A solved position in the table, with its key's hash (kept: the table moves entries by it when it
/// grows, and a board's hash is worth keeping).
struct Slot<K, R> {
    hash: u64,
    key: K,
    entry: Entry<R>,
}

/// A position being searched: its moves, the next one to try, and what its children reach.
struct Frame<G: Game, R> {
    position: G,
    hash: u64,
    moves: Vec<G::Move>,
    next: usize,
    children: Children<R>,
    best: Option<R>,
    /// What the frame holds, as counted in [`Search::stack`].
    bytes: usize,
}

struct Search<'g, G: SearchKey, J: Goal<G>> {
    goal: &'g J,
    limits: Limits,
    table: HashTable<Slot<G::Key, J::Result>>,
    /// Every distinct set of results met, once: a board has far fewer distinct sets than
    /// positions (a few dozen for winners), so entries name them by index.
    sets: Vec<Rc<[J::Result]>>,
    ids: FxHashMap<Rc<[J::Result]>, u32>,
    /// Heap bytes of the stored keys and sets.
    held: usize,
    /// Bytes of the frames on the stack (deep games, such as Splinter Quad's, hold thousands).
    stack: usize,
    peak: usize,
}

impl<G: SearchKey, J: Goal<G>> Search<'_, G, J> {
    fn frame(&mut self, position: G, hash: u64, moves: Vec<G::Move>) -> Frame<G, J::Result> {
        let bytes = std::mem::size_of::<Frame<G, J::Result>>()
            + G::key_heap_bytes(&position.key())
            + allocation(moves.capacity() * std::mem::size_of::<G::Move>());
        self.stack += bytes;
        Frame { position, hash, moves, next: 0, children: Children::None, best: None, bytes }
    }

    /// Adds a child's entry to what its parent's children reach.
    fn fold(&mut self, frame: &mut Frame<G, J::Result>, e: Entry<J::Result>) {
        match &mut frame.children {
            Children::None => frame.children = Children::Same(e.set),
            Children::Same(id) if *id == e.set => {}
            Children::Same(id) => {
                let union = union(&self.sets[*id as usize], &self.sets[e.set as usize]);
                self.resize(frame, union.capacity());
                frame.children = Children::Mixed(union);
            }
            Children::Mixed(so_far) => {
                let set = &self.sets[e.set as usize];
                if !set.iter().all(|r| so_far.binary_search(r).is_ok()) {
                    let union = union(so_far, set);
                    self.resize(frame, union.capacity());
                    frame.children = Children::Mixed(union);
                }
            }
        }
        if self.goal.best_play() && frame.best.is_none_or(|b| self.goal.prefers(&frame.position, e.best, b)) {
            frame.best = Some(e.best);
        }
    }

    /// Counts a frame's union at its new size.
    fn resize(&mut self, frame: &mut Frame<G, J::Result>, capacity: usize) {
        let was = match &frame.children {
            Children::Mixed(u) => allocation(u.capacity() * std::mem::size_of::<J::Result>()),
            _ => 0,
        };
        let now = allocation(capacity * std::mem::size_of::<J::Result>());
        self.stack = self.stack + now - was;
        frame.bytes = frame.bytes + now - was;
    }

    /// The index of a set of results, stored once.
    fn intern(&mut self, set: Vec<J::Result>) -> u32 {
        if let Some(&id) = self.ids.get(&set[..]) {
            return id;
        }
        let id = self.sets.len() as u32;
        let set: Rc<[J::Result]> = Rc::from(set);
        // The reference counts, the slice, and its pointer in `sets`.
        self.held += allocation(2 * std::mem::size_of::<usize>() + std::mem::size_of_val(&*set))
            + std::mem::size_of::<Rc<[J::Result]>>();
        self.sets.push(set.clone());
        self.ids.insert(set, id);
        id
    }

    /// Stores a solved position, unless that would pass a bound.
    fn insert(&mut self, hash: u64, key: G::Key, e: Entry<J::Result>) -> Result<Entry<J::Result>, Stopped> {
        let key_bytes = G::key_heap_bytes(&key);
        let bytes = self.bytes(true) + key_bytes;
        let stopped = |bound| Stopped {
            bound,
            positions: self.table.len(),
            bytes: self.bytes(false),
            needed: bytes,
            limits: self.limits.clone(),
        };
        if self.table.len() >= self.limits.positions {
            return Err(stopped(Bound::Positions));
        }
        if self.table.len() % Stop::EVERY == Stop::EVERY - 1 && self.limits.stop.is_given() {
            return Err(stopped(Bound::Stopped));
        }
        if bytes > self.limits.bytes {
            return Err(stopped(Bound::Bytes));
        }
        self.peak = self.peak.max(bytes);
        self.held += key_bytes;
        self.table.insert_unique(hash, Slot { hash, key, entry: e }, |slot| slot.hash);
        Ok(e)
    }

    /// The bytes held; `inserting`: as the next insertion into the table leaves them, with the
    /// moment a table grows counted in full (its old and new buckets are both held while entries
    /// move, and that is the peak a budget must cover).
    fn bytes(&self, inserting: bool) -> usize {
        let growing = |len: usize, capacity: usize| inserting && len == capacity;
        let sets = &self.ids;
        self.held
            + self.stack
            + self.sets.capacity() * std::mem::size_of::<Rc<[J::Result]>>()
            + table_bytes(
                self.table.capacity(),
                std::mem::size_of::<Slot<G::Key, J::Result>>(),
                growing(self.table.len(), self.table.capacity()),
            )
            + table_bytes(sets.capacity(), std::mem::size_of::<(Rc<[J::Result]>, u32)>(), false)
    }
}

/// The union of two sorted sets without duplicates.
fn union<R: Ord + Copy>(a: &[R], b: &[R]) -> Vec<R> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out.shrink_to_fit();
    out
}

/// The bytes of a hash table (std's hashbrown) with room for `capacity` entries of `entry` bytes:
/// a power of two of buckets, at most 7/8 of them full, a control byte each. `growing`: the next
/// insertion doubles the buckets, and the old ones are held until the entries have moved.
pub(crate) fn table_bytes(capacity: usize, entry: usize, growing: bool) -> usize {
    let buckets = match capacity {
        0 => 0,
        1..=7 => (capacity + 1).next_power_of_two(),
        _ => (capacity * 8 / 7).next_power_of_two(),
    };
    let now = buckets * (entry + 1);
    if growing {
        now + (2 * buckets).max(4) * (entry + 1)
    } else {
        now
    }
}

/// How many positions the searches may visit: per claim, and over all the claims that share the
/// budget (a file's, or a run's over all its files: see [`Scope`]), so that many records that each
/// stop early cannot take unbounded time; and how many bytes one search may hold (searches that
/// share a budget run one at a time, each freeing its table).
#[derive(Clone, Debug)]
pub struct SearchBudget {
    /// Most positions one claim's search may solve.
    pub per_claim: usize,
    /// Positions the searches that share the budget may still solve, all claims together (the
    /// file's, in the budget of a file; the run's, in the budget of a run).
    pub left: usize,
    /// Positions they may solve in all: what a claim past the budget says it was.
    pub total: usize,
    /// Whose searches share the budget, as a claim past it says.
    pub scope: Scope,
    /// Most bytes one search may hold.
    pub bytes: usize,
    /// The signal that stops the searches from outside ([`Stop::never`] on the command line).
    pub stop: Stop,
}

/// Whose searches share a budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The searches of one text: a file verified by the library ([`crate::verify::verify_source`]),
    /// an editor's text.
    File,
    /// The searches of one run of the command line, all its files together, spent in input order.
    Run,
    /// The searches that judge the claims of one record's repairs, as they are searched
    /// ([`crate::repair`]).
    Repairs,
}

impl Scope {
    /// The searches that share the budget, as a claim past it names them.
    fn searches(self) -> &'static str {
        match self {
            Scope::File => "this file's searches",
            Scope::Run => "this run's searches",
            Scope::Repairs => "the searches of this record's repairs",
        }
    }
}

/// Why a claim was not searched to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsearched {
    /// The searches that share the budget had used it up, before the claim's search or during it.
    Spent {
        /// The budget, in positions, of all the searches that share it.
        total: usize,
        /// Whose searches share it.
        scope: Scope,
        /// The claim's search, stopped where the budget ran out: `None` when none was left for it.
        during: Option<Stopped>,
    },
    /// The claim's own search stopped at a bound.
    Stopped(Stopped),
}

impl fmt::Display for Unsearched {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsearched::Spent { total, scope, during: None } => write!(
                f,
                "the record stops before the game is over, and {} have used up their budget of {total} positions (raise it with --search-limit)",
                scope.searches()
            ),
            // Not "its bound": the bound was what the searches before it had left.
            Unsearched::Spent { total, scope, during: Some(s) } => write!(
                f,
                "the record stops before the game is over, and {} used up their budget of {total} positions during the search of every continuation, which stopped at {} positions / {} (raise it with --search-limit)",
                scope.searches(),
                s.positions,
                mib(s.bytes)
            ),
            Unsearched::Stopped(s) => write!(
                f,
                "the record stops before the game is over; the search of every continuation stopped at {} positions / {}, {}",
                s.positions,
                mib(s.bytes),
                s.bound_words()
            ),
        }
    }
}

impl SearchBudget {
    /// A file's searches, or a run's, may search as much as this many claims at their full bound.
    pub const CLAIMS_PER_BUDGET: usize = 4;

    /// The budget of a file: `per_claim` positions a claim, [`Self::CLAIMS_PER_BUDGET`] times that
    /// in all, and `bytes` for each search.
    pub fn for_file(per_claim: usize, bytes: usize) -> SearchBudget {
        SearchBudget::shared(Scope::File, per_claim, bytes)
    }

    /// The budget of a run of the command line, all its files together: as much as a file's, so
    /// that a run's searches take bounded time whatever the number of files, and a run of one file
    /// judges it as [`SearchBudget::for_file`] does.
    pub fn for_run(per_claim: usize, bytes: usize) -> SearchBudget {
        SearchBudget::shared(Scope::Run, per_claim, bytes)
    }

    /// [`Self::CLAIMS_PER_BUDGET`] claims' worth, shared by the searches of `scope`.
    fn shared(scope: Scope, per_claim: usize, bytes: usize) -> SearchBudget {
        let total = per_claim.saturating_mul(Self::CLAIMS_PER_BUDGET);
        SearchBudget { per_claim, left: total, total, scope, bytes, stop: Stop::never() }
    }

    /// Runs one search within what is left of the budget's positions and its bytes, and takes the
    /// positions it solved off what is left.
    pub fn spend<T: Solved>(&mut self, run: impl FnOnce(Limits) -> Result<T, Stopped>) -> Result<T, Unsearched> {
        let spent = |during| Unsearched::Spent { total: self.total, scope: self.scope, during };
        if self.left == 0 {
            return Err(spent(None));
        }
        let cut = self.left < self.per_claim;
        let found =
            run(Limits { positions: self.per_claim.min(self.left), bytes: self.bytes, stop: self.stop.clone() });
        let used = match &found {
            Ok(s) => s.positions(),
            Err(s) => s.positions,
        };
        self.left -= used.min(self.left);
        found.map_err(|s| match s.bound {
            Bound::Positions if cut => spent(Some(s)),
            _ => Unsearched::Stopped(s),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_mib_read_as_reports_write_them() {
        assert_eq!(mib(128 << 20), "128 MiB");
        assert_eq!(mib(3 << 19), "1.5 MiB");
        assert_eq!(mib(0), "0 MiB");
        assert_eq!(mib((10 << 20) + 1), "10 MiB");
    }

    #[test]
    fn table_bytes_follow_hashbrown_buckets() {
        // 3 entries fit 4 buckets, 7 fit 8, 14 fit 16 (7/8 full).
        assert_eq!(table_bytes(3, 7, false), 4 * 8);
        assert_eq!(table_bytes(7, 7, false), 8 * 8);
        assert_eq!(table_bytes(14, 7, false), 16 * 8);
        assert_eq!(table_bytes(14, 7, true), (16 + 32) * 8);
        assert_eq!(table_bytes(0, 7, true), 4 * 8);
        // Every capacity the table reports as it grows is 7/8 of a power of two of buckets.
        let mut t: HashTable<u64> = HashTable::new();
        let mut seen = Vec::new();
        for i in 0..5000u64 {
            t.insert_unique(i, i, |&v| v);
            if seen.last() != Some(&t.capacity()) {
                seen.push(t.capacity());
            }
        }
        let buckets: Vec<usize> = seen.iter().map(|&c| table_bytes(c, 8, false) / 9).collect();
        assert_eq!(buckets, [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]);
        assert_eq!(seen[4..], [56, 112, 224, 448, 896, 1792, 3584, 7168]);
    }

    #[test]
    fn a_shared_budget_cuts_the_search_that_uses_it_up_and_refuses_the_rest() {
        // Searches that need 70 positions each, at 100 a claim: a budget of 400 holds five, cuts
        // the sixth at the 50 left, and has nothing for the seventh.
        let needs_70 = |limits: Limits| -> Result<Searched<u8>, Stopped> {
            if limits.positions >= 70 {
                return Ok(Searched { results: vec![0], best: None, positions: 70, bytes: 0 });
            }
            let positions = limits.positions;
            Err(Stopped { bound: Bound::Positions, positions, bytes: 1 << 19, needed: 0, limits })
        };
        let mut budget = SearchBudget::for_run(100, 1 << 20);
        for _ in 0..5 {
            assert_eq!(budget.spend(needs_70).map(|s| s.positions), Ok(70));
        }
        let cut = budget.spend(needs_70).unwrap_err();
        assert!(
            matches!(&cut, Unsearched::Spent { total: 400, scope: Scope::Run, during: Some(s) } if s.positions == 50)
        );
        assert!(cut.to_string().ends_with(
            "this run's searches used up their budget of 400 positions during the search of every continuation, \
             which stopped at 50 positions / 0.5 MiB (raise it with --search-limit)"
        ));
        let spent = budget.spend(needs_70).unwrap_err();
        assert_eq!(spent, Unsearched::Spent { total: 400, scope: Scope::Run, during: None });
        assert!(spent.to_string().ends_with(
            "this run's searches have used up their budget of 400 positions (raise it with --search-limit)"
        ));
        // A claim's own bound, with the budget's positions still to spare, is its own.
        let stopped = SearchBudget::for_file(50, 1 << 20).spend(needs_70).unwrap_err();
        assert!(stopped.to_string().ends_with("its bound of 50 positions (raise it with --search-limit)"), "{stopped}");
    }

    #[test]
    fn unions_are_sorted_without_duplicates() {
        assert_eq!(union(&[1, 3, 5], &[2, 3, 6, 7]), vec![1, 2, 3, 5, 6, 7]);
        assert_eq!(union::<u8>(&[], &[4]), vec![4]);
    }
}
