//! Samples mutated as fuzzers and editing hands do, shared by the fuzz smoke tests of the library
//! (`tests/fuzz_smoke.rs`) and of the web page's crate (`web/tests/fuzz_smoke.rs`), which include
//! this file by its path.

/// Characters that mean something to one notation or the other, and a few that mean nothing.
const INTERESTING: &[char] = &[
    '\n',
    '\r',
    ' ',
    '\t',
    '[',
    ']',
    '"',
    '{',
    '}',
    ';',
    '.',
    '-',
    '*',
    '/',
    '0',
    '1',
    '2',
    '9',
    'a',
    'x',
    'X',
    'o',
    'O',
    'B',
    'W',
    '#',
    '^',
    '<',
    '_',
    '\u{feff}',
    'é',
    '\u{1F600}',
];

pub fn mutate(text: &str, rng: &mut fastrand::Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.usize(1..8) {
        let at = rng.usize(0..=chars.len());
        match rng.u8(0..5) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => chars[at] = INTERESTING[rng.usize(0..INTERESTING.len())],
            2 => chars.insert(at, INTERESTING[rng.usize(0..INTERESTING.len())]),
            3 if at < chars.len() => {
                // Duplicate or drop a whole stretch, as copying and pasting does.
                let end = (at + rng.usize(1..200)).min(chars.len());
                if rng.bool() {
                    let piece: Vec<char> = chars[at..end].to_vec();
                    chars.splice(at..at, piece);
                } else {
                    chars.drain(at..end);
                }
            }
            _ => chars.truncate(at),
        }
    }
    chars.into_iter().collect()
}

/// The text of every file under `dir` (the repository's `samples/`), in path order.
pub fn samples(dir: &std::path::Path) -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).expect("samples").flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if let Ok(text) = std::fs::read_to_string(&p) {
                out.push(text);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out
}

/// What a fuzz body counts over `n` mutations of the samples, taken in turn, the same on every
/// run.
pub fn over_mutated_samples(samples: &[String], n: usize, seed: u64, body: impl Fn(&[u8]) -> usize) -> usize {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n).map(|round| body(mutate(&samples[round % samples.len()], &mut rng).as_bytes())).sum()
}
