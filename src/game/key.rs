//! The key a search stores a position under: one impl per game, beside its engine.

use std::borrow::Cow;
use std::hash::{BuildHasher, Hash, Hasher};

use rustc_hash::{FxBuildHasher, FxHasher};

/// A position the search (`crate::search`) can store in its table.
///
/// The table is keyed by the key itself, found by its hash ([`SearchKey::key_hash`]): keys are
/// compared in full, so two positions share an entry only when they are the same position. A hash
/// collision costs a comparison, never a wrong verdict, which a 64-bit Zobrist key alone could not
/// promise.
pub trait SearchKey: crate::game::Game {
    /// Everything the position's continuations and results depend on: two positions with equal
    /// keys must have the same legal moves and the same results. A key may tell apart more than
    /// that (a move counter, a cache that depends on the path): that only costs transpositions.
    type Key: Hash + Eq + Clone;
    /// The position's key: the position itself where it is plain data (borrowed, not copied, to
    /// look it up), or a smaller summary where the position holds derived tables.
    fn key(&self) -> Cow<'_, Self::Key>;
    /// The key of a position no longer needed, without a copy where the key is the position.
    fn into_key(self) -> Self::Key;
    /// Bytes a stored key holds on the heap, allocator overhead included (see [`allocation`]), for
    /// the byte budget.
    fn key_heap_bytes(key: &Self::Key) -> usize;
    /// The key's hash: equal keys must hash equal. By default its `Hash` through FxHash; a board
    /// does better through [`board_hash`], since a derived `Hash` writes each field of each cell
    /// on its own, and that was most of the search's time on a large board.
    fn key_hash(key: &Self::Key) -> u64 {
        FxBuildHasher.hash_one(key)
    }
}

/// A position of plain data (a board and the turn's state, nothing derived): equal positions have
/// the same continuations, so the search stores the position whole as its own key. Implementing it
/// gives [`SearchKey`].
pub trait PlainData: crate::game::Game + Hash + Eq {
    /// Bytes the position holds on the heap, allocator overhead included (see [`allocation`]).
    fn heap_bytes(&self) -> usize;
    /// The position's hash: by default its `Hash` through FxHash; a board does better through
    /// [`board_hash`].
    fn plain_hash(&self) -> u64 {
        FxBuildHasher.hash_one(self)
    }
}

impl<G: PlainData> SearchKey for G {
    type Key = G;

    fn key(&self) -> Cow<'_, G> {
        Cow::Borrowed(self)
    }

    fn into_key(self) -> G {
        self
    }

    fn key_heap_bytes(key: &G) -> usize {
        key.heap_bytes()
    }

    fn key_hash(key: &G) -> u64 {
        key.plain_hash()
    }
}

/// A hash of a board and the rest of a position, for [`SearchKey::key_hash`]: `code` gives each
/// cell's content as a small number, and the cells go eight to a word.
pub fn board_hash<T>(cells: &[T], code: impl Fn(&T) -> u8, rest: impl Hash) -> u64 {
    let word = |cells: &[T]| cells.iter().fold(0u64, |w, c| w << 8 | u64::from(code(c)));
    let mut h = FxHasher::default();
    let mut words = cells.chunks_exact(8);
    for eight in &mut words {
        h.write_u64(word(eight));
    }
    h.write_u64(word(words.remainder()));
    rest.hash(&mut h);
    h.finish()
}

/// The bytes an allocation of `requested` bytes takes from the allocator: glibc's malloc adds an
/// 8-byte header and rounds to 16, 32 bytes at least.
pub fn allocation(requested: usize) -> usize {
    if requested == 0 {
        0
    } else {
        (requested + 8).next_multiple_of(16).max(32)
    }
}
