//! The rules documents in `docs/rules/` and the engines agree: every reason an engine gives for
//! refusing a move names a rule whose anchor its game's document has, the documents' own links
//! lead somewhere, and a report of a broken record links to an anchor that exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use referee::format::{Recorded, WithGame};
use referee::game::{BreaksRule, Game, Rule};
use referee::games::GameKind;
use referee::geometry::{CellLabel, Geometry};
use referee::verdict::ProblemKind;
use referee::verify::{verify_source, VerifyOptions};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The explicit anchors (`<a id="...">`) of a Markdown file, in order.
fn explicit_anchors(text: &str) -> Vec<String> {
    text.split("<a id=\"").skip(1).filter_map(|rest| rest.split_once('"').map(|(id, _)| id.to_string())).collect()
}

/// The explicit anchors that stand alone on the line before a heading, as the rules pages give
/// each section one (docs/rules/README.md, "Anchors"): a link to one lands on the heading.
fn heading_explicit_anchors(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[1].starts_with('#'))
        .filter_map(|w| w[0].trim().strip_prefix("<a id=\"")?.strip_suffix("\"></a>").map(String::from))
        .collect()
}

/// The anchors GitHub gives a Markdown file's headings: lowercase, punctuation dropped, spaces as
/// hyphens (enough for this project's headings, which repeat none).
fn heading_anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut anchors = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if in_code || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim().to_lowercase();
        let slug: String = title
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        anchors.push(slug);
    }
    anchors
}

/// Every anchor of a Markdown file that a link may lead to: the explicit ones on the line before a
/// heading, and its headings' own.
fn anchors_of(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    heading_explicit_anchors(&text).into_iter().chain(heading_anchors(&text)).collect()
}

/// The rules documents, by file name, with their anchors.
fn documents() -> BTreeMap<String, BTreeSet<String>> {
    let dir = root().join("docs/rules");
    let mut docs = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("docs/rules") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            docs.insert(name, anchors_of(&path));
        }
    }
    docs
}

/// The anchors a link from the repository's root (`docs/rules/quarod.md#quarod-placement`)
/// must find, or why it finds none.
fn resolves(link: &str) -> Result<(), String> {
    let (path, anchor) = link.split_once('#').ok_or_else(|| format!("{link}: no anchor"))?;
    let file = root().join(path);
    if !file.is_file() {
        return Err(format!("{link}: no file {path}"));
    }
    match anchors_of(&file).contains(anchor) {
        true => Ok(()),
        false => Err(format!("{link}: {path} has no anchor {anchor}")),
    }
}

/// The rules each game's engine names, with the game's About.
fn rules_by_game() -> Vec<(GameKind, Vec<&'static str>)> {
    struct Rules;
    impl WithGame for Rules {
        type Output = Vec<&'static str>;
        fn run<G: Recorded>(self, _: &'static referee::game::About) -> Vec<&'static str> {
            <G as Game>::Illegal::RULES.to_vec()
        }
    }
    GameKind::ALL.into_iter().map(|g| (g, g.with_game(Rules))).collect()
}

#[test]
fn every_game_has_a_document_with_an_anchor_for_every_rule_its_engine_names() {
    let docs = documents();
    let mut checked = 0;
    for (game, rules) in rules_by_game() {
        let file = format!("{}.md", game.name());
        let anchors = docs.get(&file).unwrap_or_else(|| panic!("no docs/rules/{file} for {}", game.title()));
        for name in rules.iter().copied().chain([Rule::NOTATION]) {
            let rule = Rule::of(game.about(), name);
            assert!(anchors.contains(&rule.anchor()), "docs/rules/{file} has no anchor {}", rule.anchor());
            assert_eq!(rule.to_string(), format!("docs/rules/{file}#{}", rule.anchor()));
            resolves(&rule.to_string()).unwrap();
            checked += 1;
        }
    }
    // Six games, and each engine names several rules: the loop met them.
    assert!(checked >= 6 * 5, "{checked} anchors checked");
}

#[test]
fn the_index_lists_every_game_and_anchors_follow_the_convention() {
    let docs = documents();
    let index = std::fs::read_to_string(root().join("docs/rules/README.md")).unwrap();
    for game in GameKind::ALL {
        let file = format!("{}.md", game.name());
        assert!(index.contains(&format!("]({file})")), "docs/rules/README.md does not link {file}");
        // Every explicit anchor of a game's page starts with the game's name: unique across pages.
        let text = std::fs::read_to_string(root().join("docs/rules").join(&file)).unwrap();
        for anchor in explicit_anchors(&text) {
            assert!(anchor.starts_with(&format!("{}-", game.name())), "{file}: anchor {anchor}");
            assert!(anchor.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'), "{anchor}");
        }
        assert!(docs.contains_key(&file));
    }
}

/// Every explicit anchor of a rules page stands on the line before a heading, so that every link
/// to a rule (which the tests here resolve against those anchors) lands on the rule's heading.
#[test]
fn every_explicit_anchor_of_the_rules_pages_heads_a_section() {
    let mut anchors = 0;
    for (name, _) in documents() {
        let text = std::fs::read_to_string(root().join("docs/rules").join(&name)).unwrap();
        let on_headings = heading_explicit_anchors(&text);
        for anchor in explicit_anchors(&text) {
            assert!(on_headings.contains(&anchor), "{name}: <a id=\"{anchor}\"> is not on the line before a heading");
            anchors += 1;
        }
    }
    assert!(anchors >= 6 * 12, "{anchors} anchors");
}

/// The section of a rules page that an anchor heads: its text up to the next section's anchor.
fn section<'t>(text: &'t str, anchor: &str) -> &'t str {
    let start = text.find(&format!("<a id=\"{anchor}\">")).unwrap_or_else(|| panic!("no anchor {anchor}"));
    let rest = &text[start + 1..];
    &text[start..start + 1 + rest.find("<a id=\"").unwrap_or(rest.len())]
}

/// Whether a section cites ruling `n` (`ruling 5`, not `ruling 5b` nor `ruling 50`).
fn cites_ruling(section: &str, n: &str) -> bool {
    section
        .match_indices(&format!("ruling {n}"))
        .any(|(i, m)| !section[i + m.len()..].starts_with(|c: char| c.is_ascii_alphanumeric()))
}

/// The links of a Markdown text: `(text, target)`.
fn links(text: &str) -> Vec<(&str, &str)> {
    text.split("](")
        .zip(text.split("](").skip(1))
        .filter_map(|(before, after)| {
            let label = &before[before.rfind('[')? + 1..];
            Some((label, after.split_once(')')?.0))
        })
        .collect()
}

/// Where a link from `from` (a file of the repository) leads: the file and the section's text.
fn target_section(from: &Path, target: &str) -> (PathBuf, String) {
    let (path, anchor) = target.split_once('#').unwrap_or_else(|| panic!("{target}: no anchor"));
    let file = if path.is_empty() { from.to_path_buf() } else { from.parent().unwrap().join(path) };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{target}: {e}"));
    (file, section(&text, anchor).to_string())
}

/// A link that names a ruling leads to the section of the page that applies it: every link of a
/// page's list of rulings (item N, or 5b) leads to a section that cites that ruling, and so does
/// every link whose text says "ruling N" in the rules pages, the README and grammar.md.
#[test]
fn links_to_a_ruling_lead_to_a_section_that_states_it() {
    let mut checked = 0;
    for game in GameKind::ALL {
        let page = root().join("docs/rules").join(format!("{}.md", game.name()));
        let text = std::fs::read_to_string(&page).unwrap();
        let rulings = format!("{}-rulings", game.name());
        if !text.contains(&format!("<a id=\"{rulings}\">")) {
            continue;
        }
        // The list's items: `N. ...` with its lines, and a sub-item `- 5b. ...` of its own.
        let mut items: Vec<(String, String)> = Vec::new();
        for line in section(&text, &rulings).lines() {
            let item = line.trim_start().trim_start_matches("- ");
            match item.split_once(". ").filter(|(n, _)| n.starts_with(|c: char| c.is_ascii_digit()) && n.len() <= 3) {
                Some((n, rest)) => items.push((n.to_string(), rest.to_string())),
                None => match items.last_mut() {
                    Some(last) if line.starts_with(' ') => last.1.push_str(line),
                    _ => {}
                },
            }
        }
        assert!(items.len() >= 4, "{}: {items:?}", page.display());
        for (n, item) in &items {
            for (label, target) in links(item) {
                let (file, cited) = target_section(&page, target);
                assert!(
                    cites_ruling(&cited, n),
                    "ruling {n} of {}: [{label}]({target}) leads to {} without citing it",
                    game.name(),
                    file.display()
                );
                checked += 1;
            }
        }
    }
    let mut named = 0;
    let sources = ["README.md", "grammar.md"].map(|f| root().join(f));
    let pages = documents().into_keys().map(|name| root().join("docs/rules").join(name));
    for file in sources.into_iter().chain(pages) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (label, target) in links(&text) {
            let Some(n) = label
                .to_lowercase()
                .split("ruling ")
                .nth(1)
                .map(|r| r.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap().to_string())
            else {
                continue;
            };
            let (to, cited) = target_section(&file, target);
            assert!(
                cites_ruling(&cited, &n),
                "{}: [{label}]({target}) leads to {} without citing ruling {n}",
                file.display(),
                to.display()
            );
            named += 1;
        }
    }
    // 11 Quadraphages rulings, 6 Quarod, 4 Petrify, 6 Vadrantir, 5 Splinter Quad, some with several
    // sections; the README cites ruling 5b and 9 by link, Vadrantir's page Hexaphages' ruling 11.
    assert!(checked >= 45 && named >= 8, "{checked} links of the rulings lists, {named} links naming a ruling");
}

/// Every link of the rules documents leads to a file of the repository, and to an anchor it has;
/// none leads out of the repository.
#[test]
fn the_documents_links_stay_in_the_repository_and_resolve() {
    let dir = root().join("docs/rules");
    let mut links = 0;
    for (name, _) in documents() {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        for target in text.split("](").skip(1).filter_map(|rest| rest.split_once(')').map(|(t, _)| t)) {
            assert!(!target.starts_with("http"), "{name}: {target} leads out of the repository");
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let file = if path.is_empty() { dir.join(&name) } else { dir.join(path) };
            let file = file.canonicalize().unwrap_or_else(|_| panic!("{name}: {target}: no such file"));
            assert!(file.starts_with(root().canonicalize().unwrap()), "{name}: {target} leaves the repository");
            if !anchor.is_empty() {
                assert!(anchors_of(&file).contains(anchor), "{name}: {target}: no anchor {anchor}");
            }
            links += 1;
        }
        for outside in ["../shared", "shared/", "RULINGS.md", "seeds/"] {
            assert!(!text.contains(outside), "{name} mentions {outside}");
        }
    }
    assert!(links > 50, "{links} links checked");
}

/// Each reason's variant, by its place in the enum: the match has no catch-all, so a new variant
/// does not compile until it is given an example below.
macro_rules! variants {
    ($name:ident, $ty:ty, [$($pat:pat),* $(,)?]) => {
        fn $name(i: &$ty) -> usize {
            #[allow(unused_imports)]
            use referee::game::BreaksRule as _;
            let mut k = 0;
            $(
                if matches!(i, $pat) {
                    return k;
                }
                k += 1;
            )*
            let _ = k;
            // Exhaustive: every pattern above, and nothing else.
            match i {
                $($pat => unreachable!(),)*
            }
        }
    };
}

/// Checks that `examples` give every variant (`variant` numbers them, `count` in all), and that
/// each names one of its type's rules.
fn names_its_rules<I: BreaksRule + std::fmt::Debug>(examples: &[I], variant: fn(&I) -> usize, count: usize) {
    let seen: BTreeSet<usize> = examples.iter().map(variant).collect();
    assert_eq!(seen, (0..count).collect(), "examples of every variant: {examples:?}");
    for e in examples {
        assert!(I::RULES.contains(&e.rule()), "{e:?} names {}, not in {:?}", e.rule(), I::RULES);
    }
}

fn l(s: &str) -> CellLabel {
    CellLabel::parse(s).unwrap()
}

#[test]
fn every_reason_of_every_engine_names_one_of_its_documented_rules() {
    use referee::games::{petrify, phages, quarod, splinter, vadrantir};

    {
        use phages::{Illegal::*, Phase, Side};
        variants!(
            v,
            phages::Illegal,
            [
                GameOver,
                OffBoard { .. },
                NotACell { .. },
                NumberExpected { .. },
                StoneMoveExpected { .. },
                NoStone { .. },
                OpponentStone { .. },
                AlreadyMoved { .. },
                NotStraight { .. },
                WrongDistance { .. },
                Blocked { .. },
                LandsOnMark { .. },
                LandsOnStone { .. },
                CouldMove { .. },
                NumberOutOfRange { .. },
                NumberLetsNoMove { .. },
            ]
        );
        let (side, cell) = (Side::X, l("a1"));
        let examples = [
            GameOver,
            OffBoard { cell: 99 },
            NotACell { cell, geometry: Geometry::Square { size: 9 } },
            NumberExpected { side },
            StoneMoveExpected { side, phase: Phase::Move },
            NoStone { side, cell },
            OpponentStone { side, cell },
            AlreadyMoved { side, cell },
            NotStraight { from: cell, to: l("b2") },
            WrongDistance { cells: 2, number: 3, announced_by: side },
            Blocked { by: Side::O, cell },
            LandsOnMark { cell, mark: side },
            LandsOnStone { cell, stone: side },
            CouldMove { side, cell, to: l("a2"), number: 1 },
            NumberOutOfRange { number: 9, max: 8 },
            NumberLetsNoMove { number: 8, would: 1 },
        ];
        names_its_rules(&examples, v, 16);
    }
    {
        use quarod::{Action, Colour, Illegal::*};
        variants!(
            v,
            quarod::Illegal,
            [
                GameOver,
                OffBoard { .. },
                SameSquare { .. },
                NotAdjacent { .. },
                NotEmpty { .. },
                NoPiece { .. },
                SameColour { .. },
                EngagedToEachOther { .. },
                NotEngaged { .. },
                SwapSidesNotNow,
                MayNotPass { .. },
            ]
        );
        let (a, b) = (l("a1"), l("b1"));
        let examples = [
            GameOver,
            OffBoard { cell: l("i1"), size: 8 },
            SameSquare { cell: a },
            NotAdjacent { a, b: l("c1") },
            NotEmpty { cell: a },
            NoPiece { cell: a },
            SameColour { a, b },
            EngagedToEachOther { a, b },
            NotEngaged { cell: a },
            SwapSidesNotNow,
            MayNotPass { colour: Colour::Black, possible: Action::Place { black: a, white: b } },
        ];
        names_its_rules(&examples, v, 11);
    }
    {
        // The struct as `Blocks`: `Formation` is also the variant.
        use petrify::{BoardPlay, Colour, Formation as Blocks, Illegal::*, Obstacle, Shape};
        variants!(
            v,
            petrify::Illegal,
            [
                GameOver,
                OffBoard { .. },
                NotEmpty { .. },
                NoDisk { .. },
                NothingToCapture { .. },
                NotStraight { .. },
                Blocked { .. },
                Formation { .. },
                SwapNotAllowed,
                MayNotPass { .. },
            ]
        );
        let (from, to) = (l("d4"), l("d6"));
        let examples = [
            GameOver,
            OffBoard { cell: l("i1"), size: 8 },
            NotEmpty { cell: from },
            NoDisk { colour: Colour::Blue, cell: from },
            NothingToCapture { enemy: Colour::Orange, cell: to },
            NotStraight { from, to: l("e6") },
            Blocked { from, to, by: Obstacle::Block(l("d5")) },
            Formation {
                block: from,
                formation: Blocks { shape: Shape::Barricade, with: vec![l("b2"), l("c3")], edge: false },
            },
            SwapNotAllowed,
            MayNotPass { colour: Colour::Blue, play: BoardPlay::Placement },
        ];
        names_its_rules(&examples, v, 10);
    }
    {
        use vadrantir::{Colour, Illegal::*};
        variants!(
            v,
            vadrantir::Illegal,
            [GameOver { .. }, OffBoard { .. }, NotEmpty { .. }, GroupTooLarge { .. }, SwapNotAllowed,]
        );
        let cell = l("k6");
        let examples = [
            GameOver { colour: Colour::White },
            OffBoard { cell: l("a1"), side: 6 },
            NotEmpty { cell },
            GroupTooLarge { cell, stones: 4, enemy_colour: Colour::White, enemy: 2 },
            SwapNotAllowed,
        ];
        names_its_rules(&examples, v, 5);
    }
    {
        use splinter::{Ending, Illegal::*, Kind, Piece, Player};
        variants!(
            v,
            splinter::Illegal,
            [
                GameOver(Ending::NoStart { .. }),
                GameOver(Ending::LastStanding(_)),
                GameOver(Ending::AllOut(_)),
                GameOver(Ending::Quiet),
                OffBoard { .. },
                NoPiece { .. },
                StepsOff { .. },
                NotAStep { .. },
                Returns { .. },
                ChoiceNeeded { .. },
                NotInLargest { .. },
                NoChoice { .. },
            ]
        );
        let (from, to) = (l("d4"), l("e5"));
        let examples = [
            GameOver(Ending::NoStart { size: 4, players: 2 }),
            GameOver(Ending::LastStanding(Player::Blue)),
            GameOver(Ending::AllOut(vec![Player::Red, Player::Blue])),
            GameOver(Ending::Quiet),
            OffBoard { cell: l("k1"), size: 10 },
            NoPiece { player: Player::Red, cell: from },
            StepsOff { from: l("j5"), to: l("k5"), size: 10 },
            NotAStep { from, to: l("f6") },
            Returns { piece: Piece { player: Player::Blue, kind: Kind::Pawn }, at: from, back_to: to },
            ChoiceNeeded { after: vec![], groups: 2, size: 9, like: "d4e5/f7".into() },
            NotInLargest { cell: from },
            NoChoice { cell: from, ties: 0 },
        ];
        names_its_rules(&examples, v, 12);
    }
}

/// Every illegal move of the published and broken sample records names a rule, and the link the
/// reports print leads to an anchor that exists: end to end, from the engine to the document.
#[test]
fn the_samples_illegal_moves_link_to_anchors_that_exist() {
    let mut files = Vec::new();
    let mut dirs = vec![root().join("samples")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "txt") {
                files.push(path);
            }
        }
    }
    let mut linked = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for v in verify_source(&text, VerifyOptions::default()) {
            for p in &v.problems {
                match (p.kind, p.rule) {
                    (ProblemKind::Illegal, Some(rule)) => {
                        assert_eq!(Some(rule.game), v.game, "{}: {rule}", file.display());
                        resolves(&rule.to_string()).unwrap();
                        linked.insert(rule.to_string());
                    }
                    (ProblemKind::Illegal, None) => panic!("{}: {} names no rule", file.display(), p.message),
                    (_, rule) => assert_eq!(rule, None, "{}: {}", file.display(), p.message),
                }
            }
        }
    }
    // The broken samples break one rule each, across every game.
    assert!(linked.len() >= 20, "{linked:?}");
}

/// The human report prints the link under the problem and the JSON report has it as `rule`; a
/// problem that is no illegal move has `rule: null`.
#[test]
fn reports_print_the_rule_of_an_illegal_move() {
    use std::sync::Arc;

    use referee::report::{human, json_line, HumanStyle, Source};

    let text = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. a1b1 a1c1 *\n";
    let verdicts = verify_source(text, VerifyOptions::default());
    let source = Source::new("t.txt", Arc::new(text.to_string()));
    let report = human(&source, &verdicts[0], HumanStyle::default());
    assert!(report.contains("\n  rule: docs/rules/quarod.md#quarod-pairs\n"), "{report}");
    let line = json_line(&source, &verdicts[0]);
    assert!(
        line.contains(r##""message":"a1 and c1 are not adjacent","rule":"docs/rules/quarod.md#quarod-pairs","##),
        "{line}"
    );

    let text = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. a1b1 zz *\n";
    let verdicts = verify_source(text, VerifyOptions::default());
    let source = Source::new("t.txt", Arc::new(text.to_string()));
    let line = json_line(&source, &verdicts[0]);
    assert!(line.contains(r#""kind":"syntax""#) && line.contains(r#""rule":null"#), "{line}");
    assert!(!human(&source, &verdicts[0], HumanStyle::default()).contains("rule:"));
}

/// A token the published notation reads as no move where it stands names the notation's section;
/// a cell off the board, which the reader refuses before the engine sees a move, names the
/// board's rule, as the engine would.
#[test]
fn tokens_the_reader_refuses_name_the_notation_or_the_engines_rule() {
    let rule_of = |text: &str| {
        let verdicts = verify_source(text, VerifyOptions::default());
        let p = verdicts[0].problems.iter().find(|p| p.kind == ProblemKind::Illegal).expect("an illegal move");
        p.rule.map(|r| r.to_string())
    };
    let filler = "_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 .... g9g8 3 c2f2 g8d8\n";
    assert_eq!(rule_of(filler).as_deref(), Some("docs/rules/quadraphages.md#quadraphages-notation"));
    let off = "_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8\n2. a8a5 i2i5 3 a5a2 i5i8 f2f5 z5d5\n";
    assert_eq!(rule_of(off).as_deref(), Some("docs/rules/quadraphages.md#quadraphages-board"));
    let stone = "_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8\n2. a8a5 i2i5 3 a5a2 i5i8 f2f5 d2d5\n";
    assert_eq!(rule_of(stone).as_deref(), Some("docs/rules/quadraphages.md#quadraphages-stones"));
    let hex_off = "HEXAPHAGE\n_oo_ _xx_\n1. .... .... .... .... .... .... 1 j5h5 e5e4\n";
    assert_eq!(rule_of(hex_off).as_deref(), Some("docs/rules/hexaphages.md#hexaphages-board"));
}

/// README and grammar.md point into docs/rules/, never outside the repository, and their links
/// into it resolve.
#[test]
fn readme_and_grammar_point_into_docs_rules_and_not_outside() {
    for name in ["README.md", "grammar.md"] {
        let text = std::fs::read_to_string(root().join(name)).unwrap();
        assert!(!text.contains("../shared") && !text.contains("RULINGS.md"), "{name} points outside");
        let links: Vec<&str> = text
            .split("](")
            .skip(1)
            .filter_map(|rest| rest.split_once(')').map(|(t, _)| t))
            .filter(|t| t.starts_with("docs/rules/"))
            .collect();
        assert!(links.len() >= 2, "{name} links into docs/rules/: {links:?}");
        for link in links {
            match link.split_once('#') {
                Some(_) => resolves(link).unwrap(),
                None => assert!(root().join(link).is_file(), "{name}: {link}"),
            }
        }
    }
}

/// A repair that leaves a violation says which rule that violation breaks, as verify does.
#[test]
fn a_repairs_remaining_violation_names_its_rule() {
    use std::sync::Arc;

    use referee::repair::{repair_source, RepairOptions};
    use referee::report::{repair_json, Source};

    // Two slips; one edit fixes the first only, and the replay then stops at `d3d3`.
    let text = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. a1b1 a1c1 2. c1d1 c3c4 3. d3d3 *\n";
    let repair = RepairOptions { max_edits: 1, time_limit: None, ..RepairOptions::default() };
    let records = repair_source(text, VerifyOptions::default(), repair, None).unwrap();
    let line = repair_json(&Source::new("t.txt", Arc::new(text.to_string())), &records[0]);
    let expected = r#""token":"d3d3","message":"d3 is named twice: a move takes two adjacent squares","rule":"docs/rules/quarod.md#quarod-pairs"}"#;
    assert!(line.contains(expected), "{line}");
}
