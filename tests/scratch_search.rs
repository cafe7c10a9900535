use referee::game::Game;
use referee::games::phages::{Phages, PhagesMove, Phase};
use referee::geometry::{CellLabel, Geometry};

fn tok(p: &Phages, m: PhagesMove) -> String {
    let g = p.geometry();
    match m {
        PhagesMove::Stay { stone } => format!("----{}", g.label(stone)),
        _ => p.write_move(m),
    }
}

fn search(size: u8, x: &[&str], o: &[&str]) {
    let geo = Geometry::Square { size };
    let start = Phages::from_labels(geo, x, o, referee::games::phages::Side::X).unwrap();
    let mut best: [Option<Vec<String>>; 4] = Default::default();
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..200000 {
        let mut p = start.clone();
        let mut toks = Vec::new();
        let mut run_stones: u8 = 0;
        let mut broken3 = false;
        while !p.is_over() && toks.len() < 60 {
            if p.phase() == Phase::Announce {
                let u: Vec<u8> = p.useful_numbers().collect();
                let found = if u.is_empty() {
                    Some(1)
                } else if u[0] >= 2 {
                    Some(0)
                } else {
                    None
                };
                if let Some(k) = found {
                    if best[k].as_ref().map_or(true, |b| b.len() > toks.len()) {
                        best[k] = Some(toks.clone());
                    }
                }
            }
            let ms = p.legal_moves();
            let m = ms[rng.usize(..ms.len())];
            match m {
                PhagesMove::Stay { stone } => {
                    run_stones |= 1 << (stone.0 % 8);
                    let _ = run_stones;
                }
                PhagesMove::Step { .. } => {
                    if toks
                        .iter()
                        .rev()
                        .take_while(|t: &&String| {
                            t.starts_with("----") || !t.chars().next().unwrap().is_ascii_lowercase()
                        })
                        .filter(|t| t.starts_with("----"))
                        .count()
                        >= 3
                    {
                        broken3 = true;
                    }
                }
                _ => {}
            }
            toks.push(tok(&p, m));
            p.play(m).unwrap();
        }
        if p.is_over() && best[2].as_ref().map_or(true, |b| b.len() > toks.len()) {
            best[2] = Some(toks.clone());
        }
        if p.is_over() && broken3 && best[3].as_ref().map_or(true, |b| b.len() > toks.len()) {
            best[3] = Some(toks.clone());
        }
    }
    let _ = CellLabel::parse("a1");
    for (i, b) in best.iter().enumerate() {
        println!("{size} {i}: {:?}", b.as_ref().map(|b| b.join(" ")));
    }
}

#[test]
fn find() {
    search(3, &["a1", "c3"], &["c1", "a3"]);
    search(4, &["a1", "d4"], &["d1", "a4"]);
    search(5, &["a1", "e5"], &["e1", "a5"]);
}
