//! The layering of docs/architecture.md, held against the code: every `crate::` path of `src/`
//! (in `use` items, grouped or not, and inline) names a module on a lower line of the document's
//! `layers` block; no module is left out of the block; no path names an item through the crate
//! root; the files of a folder import each other in no circle. Test modules may reach any layer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The layers of the document's `layers` block, from the bottom: each a list of module names, where
/// `games/*` stands for every folder of `src/games/`.
fn layers(doc: &str) -> Vec<Vec<String>> {
    let block = doc.split("```layers\n").nth(1).expect("docs/architecture.md has a ```layers block");
    let block = &block[..block.find("```").expect("the layers block ends")];
    block
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            // The names, then two spaces or more, then what the layer is.
            let names = l.split("  ").next().unwrap();
            names.split(',').map(|n| n.trim().to_string()).collect()
        })
        .collect()
}

/// `text` with its comments, strings and character literals blanked (lines kept), and its test
/// modules (`#[cfg(test)] mod name { ... }`) cut.
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank =
        |out: &mut Vec<u8>, bytes: &[u8]| out.extend(bytes.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }));
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            let end = text[i + 2..].find("*/").map_or(rest.len(), |e| e + 4);
            blank(&mut out, &rest[..end]);
            i += end;
        } else if let Some(hashes) = raw_string_start(rest) {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = hashes + 2;
            let end = text[i + body..].find(&close).map_or(rest.len(), |e| body + e + close.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'"' {
            let mut k = 1;
            while k < rest.len() && rest[k] != b'"' {
                k += if rest[k] == b'\\' { 2 } else { 1 };
            }
            let end = (k + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'\'' && char_literal(rest).is_some() {
            let end = char_literal(rest).unwrap();
            blank(&mut out, &rest[..end]);
            i += end;
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    let mut code = String::from_utf8(out).unwrap();
    while let Some(at) = test_module(&code) {
        let open = at + code[at..].find('{').unwrap();
        let close = matching(&code, open);
        let cut: String = code[at..=close].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        code.replace_range(at..=close, &cut);
    }
    code
}

/// How many `#` a raw string starting here has (`r"`, `r#"`, `br"`), if one starts here.
fn raw_string_start(b: &[u8]) -> Option<usize> {
    let b = b.strip_prefix(b"b").unwrap_or(b);
    let b = b.strip_prefix(b"r")?;
    let hashes = b.iter().take_while(|&&c| c == b'#').count();
    (b.get(hashes) == Some(&b'"')).then_some(hashes)
}

/// The length of a character literal starting here (`'a'`, `'\''`, `'\u{1F600}'`), not a lifetime.
fn char_literal(b: &[u8]) -> Option<usize> {
    if b.get(1) == Some(&b'\\') {
        let close = b[2..].iter().position(|&c| c == b'\'')?;
        return (close < 10).then_some(close + 3);
    }
    let s =
        std::str::from_utf8(&b[1..b.len().min(6)]).ok().or_else(|| std::str::from_utf8(&b[1..b.len().min(5)]).ok())?;
    let c = s.chars().next()?;
    (b.get(1 + c.len_utf8()) == Some(&b'\'')).then_some(2 + c.len_utf8())
}

/// Where the first test module starts: `#[cfg(test)]`, then `mod name {`.
fn test_module(code: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(k) = code[from..].find("#[cfg(test)]") {
        let at = from + k;
        let after = code[at + 12..].trim_start();
        if after.starts_with("mod ")
            && after.split_once(['{', ';']).is_some_and(|(_, _)| {
                let head = &after[..after.find(['{', ';']).unwrap()];
                !head.contains(';') && after.as_bytes()[head.len()] == b'{'
            })
        {
            return Some(at);
        }
        from = at + 12;
    }
    None
}

/// The closing brace of the one at `open`.
fn matching(code: &str, open: usize) -> usize {
    let mut depth = 0;
    for (k, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + k;
                }
            }
            _ => {}
        }
    }
    code.len() - 1
}

/// The paths a use tree names, from `code[at..]`: `a::b`, `{a::b, c::{d, e}}`, `a::*`.
fn use_tree(code: &str, at: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let b = code.as_bytes();
    let skip = |mut k: usize| {
        while k < b.len() && b[k].is_ascii_whitespace() {
            k += 1;
        }
        k
    };
    let mut k = skip(at);
    if k < b.len() && b[k] == b'{' {
        k += 1;
        loop {
            k = skip(k);
            if k >= b.len() || b[k] == b'}' {
                return k + 1;
            }
            k = use_tree(code, k, prefix, out);
            k = skip(k);
            if k < b.len() && b[k] == b',' {
                k += 1;
            }
        }
    }
    let start = k;
    while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
        k += 1;
    }
    let name = &code[start..k];
    let mut path = prefix.to_vec();
    if !name.is_empty() && name != "self" {
        path.push(name.to_string());
    }
    let next = skip(k);
    if code[next..].starts_with("::") && !name.is_empty() {
        return use_tree(code, next + 2, &path, out);
    }
    if k == start && k < b.len() && b[k] == b'*' {
        k += 1;
    }
    out.push(path);
    k
}

/// One source file: its module path from the crate root (`["games", "phages", "rules"]`), whether
/// it is a folder's `mod.rs`, and its code.
struct File {
    name: String,
    module: Vec<String>,
    is_mod: bool,
    code: String,
}

impl File {
    fn new(relative: &str, text: &str) -> File {
        let mut module: Vec<String> = relative.trim_end_matches(".rs").split('/').map(str::to_string).collect();
        let is_mod = module.last().is_some_and(|m| m == "mod");
        if is_mod {
            module.pop();
        }
        File { name: relative.to_string(), module, is_mod, code: code_of(text) }
    }

    /// Every absolute path the file names, with the line it is named on: `crate::`, `$crate::`,
    /// and `super::` resolved from the file's module.
    fn paths(&self) -> Vec<(usize, Vec<String>)> {
        let mut found = Vec::new();
        let code = &self.code;
        for (at, _) in code.match_indices("crate::") {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let line = code[..at].matches('\n').count() + 1;
            let mut paths = Vec::new();
            use_tree(code, at + 7, &[], &mut paths);
            found.extend(paths.into_iter().map(|p| (line, p)));
        }
        for (at, _) in code.match_indices("super::") {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let line = code[..at].matches('\n').count() + 1;
            let parent = &self.module[..self.module.len().saturating_sub(1)];
            let mut paths = Vec::new();
            use_tree(code, at + 7, parent, &mut paths);
            found.extend(paths.into_iter().map(|p| (line, p)));
        }
        found
    }
}

/// The layer unit a module path is in: its first name, but `games/<folder>` for a game's folder.
fn unit(path: &[String], game_folders: &BTreeSet<String>) -> Option<String> {
    let first = path.first()?;
    match path.get(1) {
        Some(second) if first == "games" && game_folders.contains(second) => Some(format!("games/{second}")),
        _ => Some(first.clone()),
    }
}

/// Everything wrong with `files` against the document `doc`: each a line saying where and why.
fn check(files: &[File], doc: &str) -> Vec<String> {
    let game_folders: BTreeSet<String> =
        files.iter().filter(|f| f.module.len() >= 2 && f.module[0] == "games").map(|f| f.module[1].clone()).collect();
    let units: BTreeSet<String> =
        files.iter().filter(|f| !f.module.is_empty()).filter_map(|f| unit(&f.module, &game_folders)).collect();
    let mut level: BTreeMap<String, usize> = BTreeMap::new();
    let mut wrong = Vec::new();
    for (i, line) in layers(doc).iter().enumerate() {
        for name in line {
            let names: Vec<String> = if name == "games/*" {
                game_folders.iter().map(|g| format!("games/{g}")).collect()
            } else {
                vec![name.clone()]
            };
            for n in names {
                if level.insert(n.clone(), i).is_some() {
                    wrong.push(format!("docs/architecture.md names `{n}` twice"));
                }
                if !units.contains(&n) {
                    wrong.push(format!("docs/architecture.md names `{n}`, which is no module of src/"));
                }
            }
        }
    }
    for u in &units {
        if !level.contains_key(u) {
            wrong.push(format!("the module `{u}` is not in the layers of docs/architecture.md: put it on its line"));
        }
    }
    let is_file = |m: &[String]| files.iter().any(|f| f.module == m);
    let mut sibling_edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files.iter().filter(|f| !f.module.is_empty()) {
        let from = unit(&f.module, &game_folders).unwrap();
        for (line, path) in f.paths() {
            let Some(to) = unit(&path, &game_folders) else { continue };
            if to == from {
                // Within one module: which of its files, for the circles between files.
                let target = (1..=path.len()).rev().map(|n| &path[..n]).find(|m| is_file(m));
                if let Some(target) = target {
                    let target = files.iter().find(|g| g.module == target).unwrap();
                    if !f.is_mod && !target.is_mod && target.name != f.name {
                        sibling_edges.entry(f.name.clone()).or_default().insert(target.name.clone());
                    }
                }
                continue;
            }
            match (level.get(&from), level.get(&to)) {
                (_, None) if !units.contains(&to) => wrong.push(format!(
                    "src/{}:{line}: `crate::{}` names an item through the crate root: name its module",
                    f.name,
                    path.join("::")
                )),
                (Some(&a), Some(&b)) if b >= a => wrong.push(format!(
                    "src/{}:{line}: `{from}` imports `{to}` (`crate::{}`), which is {} in docs/architecture.md",
                    f.name,
                    path.join("::"),
                    if a == b { "on its own line" } else { "above it" }
                )),
                _ => {}
            }
        }
    }
    wrong.extend(circles(&sibling_edges));
    wrong
}

/// The circles of imports between files: one line each.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    fn walk(
        at: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        found: &mut Vec<String>,
    ) {
        if let Some(k) = stack.iter().position(|s| s == at) {
            let mut circle: Vec<String> = stack[k..].iter().map(|s| format!("src/{s}")).collect();
            circle.push(format!("src/{at}"));
            found.push(format!("the files {} import each other in a circle", circle.join(" -> ")));
            return;
        }
        if !done.insert(at.to_string()) {
            return;
        }
        stack.push(at.to_string());
        for next in edges.get(at).into_iter().flatten() {
            walk(next, edges, stack, done, found);
        }
        stack.pop();
    }
    for start in edges.keys() {
        walk(start, edges, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

/// The library's source files: every `.rs` under `src/` but the binary's (`main.rs`) and the crate
/// root.
fn library_files() -> Vec<File> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let src = Path::new(ROOT).join("src");
    let mut paths = Vec::new();
    walk(&src, &mut paths);
    paths.sort();
    paths
        .iter()
        .map(|p| p.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/"))
        .filter(|rel| rel != "lib.rs" && rel != "main.rs")
        .map(|rel| {
            let text = std::fs::read_to_string(src.join(&rel)).unwrap();
            File::new(&rel, &text)
        })
        .collect()
}

#[test]
fn every_import_runs_down_the_layers_of_docs_architecture() {
    let doc = std::fs::read_to_string(Path::new(ROOT).join("docs/architecture.md")).unwrap();
    let files = library_files();
    assert!(files.len() > 50, "the library's files are found: {}", files.len());
    let wrong = check(&files, &doc);
    assert!(wrong.is_empty(), "the modules break the layering of docs/architecture.md:\n{}", wrong.join("\n"));
}

/// The check finds what it is for, on a small made-up crate: an import up a layer, one on the
/// same line, one through the crate root, a module left out, a circle of files, and none in test
/// modules, comments or strings.
#[test]
fn the_check_finds_upward_imports_circles_and_modules_left_out() {
    let doc =
        "```layers\ngeometry      cells\ngame, record  two peers\ngames/*       folders\nverify        top\n```\n";
    let files = [
        File::new("geometry/mod.rs", "use crate::game::Game; // up a layer\n"),
        File::new(
            "game/mod.rs",
            "use crate::{geometry::Cell, record::Token};\nfn f() { let s = \"crate::verify\"; }\n",
        ),
        File::new("record/mod.rs", "pub use crate::Verdict;\n#[cfg(test)]\nmod tests { use crate::verify::x; }\n"),
        File::new("games/mod.rs", "pub mod go;\n"),
        File::new("games/go/rules.rs", "use super::notation::Written;\nuse crate::game::Game;\n"),
        File::new("games/go/notation.rs", "use crate::games::go::rules::Go;\nuse crate::geometry::{self, Cell};\n"),
        File::new("verify.rs", "use crate::games::{go::Go, GameKind};\n// use crate::lost::x;\n"),
        File::new("lost.rs", "use crate::verify::Verdict;\n"),
    ];
    let wrong = check(&files, doc);
    let expected = [
        "src/geometry/mod.rs:1: `geometry` imports `game` (`crate::game::Game`), which is above it in docs/architecture.md",
        "src/game/mod.rs:1: `game` imports `record` (`crate::record::Token`), which is on its own line in docs/architecture.md",
        "src/record/mod.rs:1: `crate::Verdict` names an item through the crate root: name its module",
        "the module `games` is not in the layers of docs/architecture.md: put it on its line",
        "the module `lost` is not in the layers of docs/architecture.md: put it on its line",
        "the files src/games/go/notation.rs -> src/games/go/rules.rs -> src/games/go/notation.rs import each other in a circle",
    ];
    for e in expected {
        assert!(wrong.iter().any(|w| w == e), "expected {e:?} among:\n{}", wrong.join("\n"));
    }
    assert_eq!(wrong.len(), expected.len(), "nothing else is found:\n{}", wrong.join("\n"));
}
