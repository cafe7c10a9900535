//! The legal moves nearest an illegal token, and how far the rest of its record replays with
//! each: the hint `verify` shows under an illegal move. Its replay of edited tokens and its
//! distance between tokens are the repair search's too (`crate::repair`), which builds on them.

use std::cmp::Reverse;

use crate::record::Token;
use crate::replay::{Reading, Repairable};
use crate::verdict::{Alternative, Reach};

/// A strict replay from token `from` on, as [`replay`] does it, but playing the forced tokens as
/// written, legal or not.
pub(crate) struct Run<G> {
    /// Where the replay ended: before the token it stopped at, or at the end.
    pub(crate) position: G,
    /// The first token that could not be played.
    pub(crate) stop: Option<usize>,
    pub(crate) moves: usize,
    pub(crate) last_mover: Option<usize>,
    pub(crate) claim_at: Option<usize>,
}

/// `visit` sees the position before each token read; `spent` counts the tokens read.
pub(crate) fn run<G: Repairable>(
    mut position: G,
    tokens: &[Token],
    forced: &[bool],
    from: usize,
    spent: &mut u64,
    mut visit: impl FnMut(usize, &G),
) -> Run<G> {
    let (mut moves, mut last_mover, mut stop, mut claim_at) = (0, None, None, None);
    // Where a `----` may name several stones (RULINGS 5b), the reading `verify` would follow from
    // here: one that makes every token legal, else one that goes furthest. A forced token, which
    // no reading admits, ends the choices; the default reading goes on past it.
    let mut choices = crate::replay::reading_choices(&position, tokens, from).into_iter().peekable();
    for i in from..tokens.len() {
        if tokens[i].kind.is_claim() {
            claim_at = Some(i);
            break;
        }
        visit(i, &position);
        *spent += 1;
        let playable = !position.is_over() || !forced[i];
        let reading = match choices.next_if(|&(at, _)| at == i) {
            Some((_, m)) => Reading::Move(m),
            None => position.read(tokens, i),
        };
        let m = match reading {
            Reading::Nothing => continue,
            Reading::Move(m) if playable && (forced[i] || position.check(m).is_ok()) => m,
            Reading::Problem { apply: Some(m), .. } if playable && forced[i] => m,
            _ => {
                stop = Some(i);
                break;
            }
        };
        last_mover = Some(position.mover());
        if forced[i] && position.check(m).is_err() {
            position.play_forced(m);
        } else {
            position.play_unchecked(m);
        }
        moves += 1;
    }
    Run { position, stop, moves, last_mover, claim_at }
}

/// The distinct legal moves of a position, as written, in the engine's order.
pub(crate) fn written_legal<G: crate::game::Notation>(position: &G) -> Vec<String> {
    let written = position.legal_moves().into_iter().map(|m| position.write_move(m));
    if G::WRITES_APART {
        return written.collect();
    }
    let mut seen = rustc_hash::FxHashSet::default();
    written.filter(|w| seen.insert(w.clone())).collect()
}

/// Edits of characters between two tokens: how far a repair is from what was written, to break
/// ties between repairs that are otherwise as good (a mistyped destination is one character off).
pub(crate) fn text_distance(a: &str, b: &str) -> usize {
    match DistanceTo::new(b) {
        Some(to_b) => to_b.of(a),
        None => {
            let b: Vec<char> = b.chars().collect();
            levenshtein(a.chars(), &b, &mut vec![0; b.len() + 1])
        }
    }
}

/// [`text_distance`] to one text, for the thousands of moves of a large board compared with one
/// written token: Myers' bit-parallel algorithm, in Hyyrö's form for whole texts, a few operations
/// a character. The text is ASCII and shorter than 64 bytes, as tokens are.
pub(crate) struct DistanceTo<'t> {
    text: &'t str,
    /// For each byte, the places of the text that hold it, one bit each.
    places: [u64; 128],
    len: usize,
}

impl<'t> DistanceTo<'t> {
    fn new(text: &'t str) -> Option<DistanceTo<'t>> {
        if !text.is_ascii() || text.len() >= 64 {
            return None;
        }
        let mut places = [0u64; 128];
        for (j, b) in text.bytes().enumerate() {
            places[usize::from(b)] |= 1 << j;
        }
        Some(DistanceTo { text, places, len: text.len() })
    }

    /// A lower bound of [`DistanceTo::of`]: the bag distance, the characters of the longer of the
    /// two texts left over once each character of `other` is matched with the same one of the
    /// text, where one is still free. An edit changes one character of a text, or puts one in or
    /// takes one out, so it can leave at most one more unmatched on either side. 0 (no bound) for
    /// an `other` that is not ASCII, whose characters are not its bytes.
    fn at_least(&self, other: &str) -> usize {
        let (mut taken, mut matched) = (0u64, 0);
        for b in other.bytes() {
            let Some(&places) = self.places.get(usize::from(b)) else { return 0 };
            let free = places & !taken;
            // The first free place of the byte, if any (counted here: a count of ones at the end
            // is a loop of its own on a processor without an instruction for it).
            taken |= free & free.wrapping_neg();
            matched += usize::from(free != 0);
        }
        self.len.max(other.len()) - matched
    }

    /// The edit distance from `other` to the text.
    fn of(&self, other: &str) -> usize {
        if !other.is_ascii() {
            // A character of several bytes is one edit, not several: counted by characters.
            let text: Vec<char> = self.text.chars().collect();
            return levenshtein(other.chars(), &text, &mut vec![0; text.len() + 1]);
        }
        if self.len == 0 {
            return other.len();
        }
        let last = 1u64 << (self.len - 1);
        // The vertical differences of the current column of the table, as bits for +1 and -1: the
        // first column counts 0, 1, 2... down the text.
        let (mut plus, mut minus) = (u64::MAX, 0u64);
        let mut score = self.len;
        for b in other.bytes() {
            let eq = self.places[usize::from(b)];
            let xv = eq | minus;
            let xh = ((eq & plus).wrapping_add(plus) ^ plus) | eq;
            let mut hp = minus | !(xh | plus);
            let mut hm = plus & xh;
            if hp & last != 0 {
                score += 1;
            } else if hm & last != 0 {
                score -= 1;
            }
            // The top row counts 0, 1, 2... along `other`: a +1 comes in at the top.
            hp = (hp << 1) | 1;
            hm <<= 1;
            plus = hm | !(xv | hp);
            minus = hp & xv;
        }
        score
    }
}

/// The edit distance between `a` and `b`, in the space of `row` (one more than `b` long).
pub(crate) fn levenshtein<T: PartialEq>(a: impl Iterator<Item = T>, b: &[T], row: &mut [usize]) -> usize {
    for (j, cell) in row.iter_mut().enumerate() {
        *cell = j;
    }
    for (i, ca) in a.enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = here;
        }
    }
    row[b.len()]
}

/// The [`ALTERNATIVES_TRIED`] legal moves of `position` written nearest to `written` (by
/// [`text_distance`]; among moves as near, in the order of [`Game::legal_moves`]), each written
/// once, none written as `written`. Each move is written into one buffer and only the nearest are
/// kept: a position may have thousands. Once that many are kept, a move is measured exactly only
/// when a bound of a few operations a character ([`DistanceTo::at_least`]) leaves it a chance of
/// being nearer than the last of them: most moves of a large board share few characters with the
/// written one.
pub(crate) fn nearest_legal<G: crate::game::Notation>(position: &G, written: &str) -> Vec<String> {
    let mut nearest: Vec<(usize, String)> = Vec::with_capacity(ALTERNATIVES_TRIED + 1);
    let mut text = String::new();
    let to_written = DistanceTo::new(written);
    for m in position.legal_moves() {
        // Only a move nearer than the last of those kept when they are all there can be kept:
        // none, when that one is 1 character off (0 is the written move itself).
        let limit = if nearest.len() == ALTERNATIVES_TRIED { nearest[ALTERNATIVES_TRIED - 1].0 } else { usize::MAX };
        if limit <= 1 {
            break;
        }
        text.clear();
        position.write_move_into(m, &mut text);
        let distance = match &to_written {
            Some(d) if d.at_least(&text) >= limit => continue,
            Some(d) => d.of(&text),
            None => text_distance(&text, written),
        };
        // The written move itself is no alternative.
        if text != written {
            keep_if_near(&mut nearest, distance, &text);
        }
    }
    nearest.into_iter().map(|(_, t)| t).collect()
}

/// Keeps `text`, at `distance` from the written move, among the [`ALTERNATIVES_TRIED`] `nearest`
/// if it is nearer than one of them.
pub(crate) fn keep_if_near(nearest: &mut Vec<(usize, String)>, distance: usize, text: &str) {
    // After the moves as near or nearer, so that among moves as near the first comes first.
    let at = nearest.partition_point(|(d, _)| *d <= distance);
    // A move written like one kept is as near and came later: the one kept stands for both.
    if at >= ALTERNATIVES_TRIED || nearest.iter().any(|(_, t)| t == text) {
        return;
    }
    nearest.insert(at, (distance, text.to_string()));
    nearest.truncate(ALTERNATIVES_TRIED);
}

/// Legal alternatives tried for one illegal move: those nearest the written token.
pub const ALTERNATIVES_TRIED: usize = 4;
/// Alternatives shown: those with which the rest replays furthest.
pub const ALTERNATIVES_SHOWN: usize = 3;

/// The legal moves in place of token `i` of a record that starts at `start`, each with how far the
/// rest of the record replays with it: of the [`ALTERNATIVES_TRIED`] nearest the written token,
/// the [`ALTERNATIVES_SHOWN`] that replay furthest. One replay of the rest each.
pub fn alternatives<G: Repairable>(start: &G, tokens: &[Token], i: usize) -> Vec<Alternative> {
    let none = vec![false; tokens.len()];
    let from = i.saturating_sub(G::READ_AHEAD);
    let (mut before, mut here) = (None, None);
    let mut spent = 0;
    run(start.clone(), tokens, &none, 0, &mut spent, |k, p| {
        if k == from {
            before = Some(p.clone());
        }
        if k == i {
            here = Some(p.clone());
        }
    });
    let (Some(before), Some(here)) = (before, here) else { return Vec::new() };
    let written = tokens[i].text;
    let legal = nearest_legal(&here, written);
    let mut found: Vec<(usize, Alternative)> = Vec::new();
    for text in legal {
        let mut edited = tokens.to_vec();
        edited[i] = Token { text: &text, span: tokens[i].span.clone(), kind: G::token_kind(&text) };
        let r = run(before.clone(), &edited, &none, from, &mut spent, |_, _| {});
        let (reach, key) = match r.stop {
            None => (Reach::End, usize::MAX),
            // Read in its context, the move is no alternative after all.
            Some(s) if s <= i => continue,
            Some(s) => (Reach::StopsAt { span: tokens[s].span.clone(), token: tokens[s].text.to_string() }, s),
        };
        found.push((key, Alternative { text: text.clone(), reach }));
    }
    found.sort_by_key(|(key, _)| Reverse(*key));
    found.into_iter().take(ALTERNATIVES_SHOWN).map(|(_, a)| a).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::OpenRecord;
    use crate::record;

    /// [`nearest_legal`] as it was before its bound: each move measured exactly. The
    /// [`ALTERNATIVES_TRIED`] legal moves of `position` written nearest to `written` (by
    /// [`text_distance`]; among moves as near, in the order of [`Game::legal_moves`]), each written
    /// once, none written as `written`. Each move is written into one buffer and only the nearest are
    /// kept: a position may have thousands.
    fn nearest_legal_reference<G: crate::game::Notation>(position: &G, written: &str) -> Vec<String> {
        let mut nearest: Vec<(usize, String)> = Vec::with_capacity(ALTERNATIVES_TRIED + 1);
        let mut text = String::new();
        let to_written = DistanceTo::new(written);
        for m in position.legal_moves() {
            text.clear();
            position.write_move_into(m, &mut text);
            if text == written {
                continue;
            }
            // Only a move nearer than the last of those kept when they are all there can be kept:
            // none, when that one is 1 character off (0 is the written move itself).
            let limit =
                if nearest.len() == ALTERNATIVES_TRIED { nearest[ALTERNATIVES_TRIED - 1].0 } else { usize::MAX };
            if limit <= 1 {
                break;
            }
            let distance = to_written.as_ref().map_or_else(|| text_distance(&text, written), |d| d.of(&text));
            keep_if_near(&mut nearest, distance, &text);
        }
        nearest.into_iter().map(|(_, t)| t).collect()
    }

    /// Random words of letters, digits, `x`, `-` and `é`, some no longer than a move.
    fn random_word(rng: &mut fastrand::Rng) -> String {
        let n = rng.usize(0..9);
        (0..n).map(|_| ['a', 'b', 'd', '1', '2', '4', 'x', '-', 'é'][rng.usize(..9)]).collect()
    }

    /// `word` with a few characters changed, put in or taken out: words near a move.
    fn mistyped(rng: &mut fastrand::Rng, word: &str) -> String {
        let mut chars: Vec<char> = word.chars().collect();
        for _ in 0..rng.usize(1..4) {
            let c = ['a', 'c', 'd', '1', '3', '0', 'x', 'é'][rng.usize(..8)];
            match rng.usize(..3) {
                0 if !chars.is_empty() => {
                    let at = rng.usize(..chars.len());
                    chars[at] = c;
                }
                1 if !chars.is_empty() => {
                    chars.remove(rng.usize(..chars.len()));
                }
                _ => chars.insert(rng.usize(..=chars.len()), c),
            }
        }
        chars.into_iter().collect()
    }

    #[test]
    fn the_bag_distance_is_never_more_than_the_distance() {
        let mut rng = fastrand::Rng::with_seed(21);
        let mut bounded = 0;
        for _ in 0..20_000 {
            let (a, b) = (random_word(&mut rng), random_word(&mut rng));
            let Some(to_b) = DistanceTo::new(&b) else { continue };
            let (bound, exact) = (to_b.at_least(&a), to_b.of(&a));
            assert!(bound <= exact, "{a:?} {b:?}: {bound} > {exact}");
            bounded += usize::from(bound > 0);
        }
        assert!(bounded > 5_000, "{bounded}");
        let to = DistanceTo::new("c3d4").unwrap();
        assert_eq!((to.at_least("c4d3"), to.of("c4d3")), (0, 2));
        assert_eq!((to.at_least("a1b2"), to.of("a1b2")), (4, 4));
        assert_eq!((to.at_least("c3d14"), to.of("c3d14")), (1, 1));
        assert_eq!(to.at_least("c3dé"), 0);
        assert_eq!(DistanceTo::new("").unwrap().at_least("ab"), 2);
    }

    /// The nearest legal moves are those measuring every move exactly finds, in the same order:
    /// in positions of random games of every game (its smallest and largest board), for the moves
    /// played, legal moves mistyped, random words, the empty word and a long one.
    #[test]
    fn the_nearest_legal_moves_are_the_reference_s() {
        struct Compare(u64);
        impl<'r> crate::format::WithOpenRecord<'r> for Compare {
            type Output = usize;
            fn run<F: OpenRecord<'r>>(self, record: F) -> usize {
                let mut rng = fastrand::Rng::with_seed(self.0);
                let Ok(start) = record.start() else { return 0 };
                let tokens = record.tokens();
                let mut positions = Vec::new();
                run(start, tokens, &vec![false; tokens.len()], 0, &mut 0, |i, p| positions.push((i, p.clone())));
                let step = positions.len() / 10 + 1;
                let mut compared = 0;
                for (i, p) in positions.iter().step_by(step) {
                    let legal = written_legal(p);
                    let mut words = vec![tokens[*i].text.to_string(), String::new(), "d".repeat(70)];
                    for _ in 0..4 {
                        words.push(random_word(&mut rng));
                        if !legal.is_empty() {
                            let near = &legal[rng.usize(..legal.len())];
                            words.push(mistyped(&mut rng, near));
                        }
                    }
                    for w in &words {
                        assert_eq!(nearest_legal(p, w), nearest_legal_reference(p, w), "{w:?} at token {i}");
                        compared += 1;
                    }
                }
                compared
            }
        }
        let mut compared = 0;
        for game in crate::games::GameKind::ALL {
            let sizes = game.about().sizes;
            for (size, seed) in [(sizes.smallest, 1), (sizes.largest, 2)] {
                let src = crate::random::random_record(game, Some(size), None, seed).unwrap();
                let options = crate::judge::VerifyOptions { game: Some(game.about()), ..Default::default() };
                let found = record::read(&src, None).next().unwrap();
                let n = crate::judge::with_found(&src, &found, options, Compare(seed)).unwrap();
                assert!(n > 20, "{game:?} size {size}: {n} words compared");
                compared += n;
            }
        }
        assert!(compared > 500, "{compared}");
    }

    #[test]
    fn the_bit_parallel_distance_is_the_table_s() {
        let mut rng = fastrand::Rng::with_seed(20);
        let word = |rng: &mut fastrand::Rng| {
            let n = rng.usize(0..9);
            (0..n).map(|_| ['a', 'b', '1', 'x', 'é'][rng.usize(..5)]).collect::<String>()
        };
        for _ in 0..20_000 {
            let (a, b) = (word(&mut rng), word(&mut rng));
            let bc: Vec<char> = b.chars().collect();
            let table = levenshtein(a.chars(), &bc, &mut vec![0; bc.len() + 1]);
            assert_eq!(text_distance(&a, &b), table, "{a:?} {b:?}");
            if let Some(to_b) = DistanceTo::new(&b) {
                assert_eq!(to_b.of(&a), table, "{a:?} {b:?}");
            }
        }
        let long = "a".repeat(70);
        assert_eq!(text_distance(&long, "b"), 70);
        assert_eq!(text_distance("b", &long), 70);
    }

    #[test]
    fn text_distance_counts_character_edits() {
        assert_eq!(text_distance("d2d5", "d8d5"), 1);
        assert_eq!(text_distance("g7g5", "g3g5"), 1);
        assert_eq!(text_distance("", "abc"), 3);
        assert_eq!(text_distance("a7a8", "a8a7"), 2);
    }
}
