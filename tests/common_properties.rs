//! Random, mostly illegal, move tokens in records of every game of the common format: verification
//! never panics and locates every problem inside the text. (That random games of every game verify,
//! their claims confirmed, and that their moves are written and read back alike, is checked over the
//! registry, in every_game.rs.)

use referee::game::Format;
use referee::games::GameKind;
use referee::verify::{verify_source, VerifyOptions};

/// Random, mostly illegal, move tokens: verification (lenient or not) never panics and locates
/// every problem inside the text.
#[test]
fn random_tokens_never_panic_even_when_lenient() {
    let mut rng = fastrand::Rng::with_seed(11);
    let cell = |rng: &mut fastrand::Rng| format!("{}{}", (b'a' + rng.u8(0..11)) as char, rng.u8(0..12));
    for game in GameKind::ALL.iter().filter(|g| g.about().format == Format::Common).map(|g| g.title()) {
        for _ in 0..400 {
            let size = rng.u8(1..12);
            let mut text = format!("[Game \"{game}\"]\n[Size \"{size}\"]\n\n");
            for i in 0..rng.usize(0..60) {
                let token = match rng.u8(0..6) {
                    0 => "pass".to_string(),
                    1 => "swap".to_string(),
                    2 => format!("{}x{}", cell(&mut rng), cell(&mut rng)),
                    3 => format!("{}{}", cell(&mut rng), cell(&mut rng)),
                    _ => cell(&mut rng),
                };
                if i % 2 == 0 {
                    text.push_str(&format!("{}. ", i / 2 + 1));
                }
                text.push_str(&token);
                text.push(' ');
            }
            for lenient in [false, true] {
                for v in verify_source(&text, VerifyOptions { lenient, ..VerifyOptions::default() }) {
                    for p in &v.problems {
                        assert!(p.span.start <= p.span.end && p.span.end <= text.len(), "{text}");
                    }
                }
            }
        }
    }
}
