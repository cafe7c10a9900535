//! The HTML replay page: what it contains, that it fetches nothing, that it is the same bytes for
//! the same input, and, in headless Chromium, that it opens and steps to the right positions.

use referee::render::html::{page, Frame, IllegalMove, Page, Variation};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A record with characters that mean something in HTML, and a `</script>` that must stay text.
const RECORD: &str = "[Event \"a<b & \"c\"\"]\n1. a1 b2 c3 </script><script>alert(1)</script> d4\n";

/// The byte range of the first `token` in the record after `from`.
fn token(token: &str, from: usize) -> Range<usize> {
    let at = from + RECORD[from..].find(token).expect("token in record");
    at..at + token.len()
}

/// The move tokens, in order: the illegal one, `c3`, is last.
fn moves() -> Vec<Range<usize>> {
    let start = RECORD.find("1.").unwrap();
    vec![token("a1", start), token("b2", start), token("c3", start)]
}

/// A tiny picture that names its frame in a class, so each frame can be found in the page.
fn svg(i: usize) -> String {
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><circle class=\"frame-mark-{i}\" r=\"3\" cx=\"5\" cy=\"5\"/></svg>"
    );
    // One frame comes as a whole document, prolog and all, as an SVG writer may produce it.
    if i == 1 {
        format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- frame 1 -->\n{svg}\n")
    } else {
        svg
    }
}

const WHY: &str = "the path is blocked by X's stone on <c7> & \"more\"";

/// Four frames: the start, two moves, and the error diagram for the third move.
fn sample() -> Page<'static> {
    let moves = moves();
    let mut frames = vec![Frame {
        svg: svg(0),
        caption: "Quarod · ply 0 · <X> to move".into(),
        token: None,
        illegal: false,
        ply: 0,
        ..Frame::default()
    }];
    for (k, range) in moves.iter().enumerate() {
        let ply = k + 1;
        frames.push(Frame {
            svg: svg(ply),
            caption: format!("Quarod · ply {ply} · score \"{ply}\" & more"),
            token: Some(range.clone()),
            illegal: ply == 3,
            // The error diagram shows the position before the illegal move.
            ply: if ply == 3 { 2 } else { ply },
            ..Frame::default()
        });
    }
    Page {
        title: "g<a>mes & \"x\".txt, record 2: Quarod".into(),
        record: RECORD,
        frames,
        illegal: Some(IllegalMove {
            token: moves[2].clone(),
            why: WHY.into(),
            legal: vec!["a1<b2".into(), "c3".into()],
            legal_count: Some(5),
        }),
        verdict: vec!["illegal move".into(), "claim \"1-0\": <refuted> & more".into()],
        variations: Vec::new(),
    }
}

/// The text between `open` and the next `close` after it, for every occurrence of `open`.
fn between<'a>(text: &'a str, open: &str, close: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(open) {
        rest = &rest[at + open.len()..];
        let end = rest.find(close).expect("closed");
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    out
}

/// The value of attribute `name` in a start tag's text.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    Some(&tag[at..at + tag[at..].find('"')?])
}

/// Every move span of a page or a dumped DOM: its classes, its frame and its text.
fn spans(html: &str) -> Vec<(String, Option<usize>, String)> {
    between(html, "<span ", "</span>")
        .into_iter()
        .map(|s| {
            let (tag, text) = s.split_once('>').unwrap();
            let class = attr(&format!(" {tag}"), "class").unwrap_or("").to_string();
            let ply = attr(&format!(" {tag}"), "data-ply").map(|p| p.parse().unwrap());
            (class, ply, text.to_string())
        })
        .collect()
}

/// The frames shown, by number: those whose figure is not hidden.
fn shown_frames(html: &str) -> Vec<usize> {
    between(html, "<figure ", ">")
        .into_iter()
        .filter(|tag| !tag.contains("hidden"))
        .map(|tag| attr(&format!(" {tag}"), "data-ply").unwrap().parse().unwrap())
        .collect()
}

#[test]
fn every_frame_and_move_is_in_the_page_once() {
    let html = page(&sample());
    assert!(html.starts_with("<!DOCTYPE html>\n"));
    for i in 0..4 {
        assert_eq!(html.matches(&format!("class=\"frame-mark-{i}\"")).count(), 1, "frame {i}");
        assert_eq!(html.matches(&format!("id=\"frame-{i}\"")).count(), 1, "frame {i}");
    }
    assert!(!html.contains("<?xml") && !html.contains("<!-- frame 1 -->"), "the SVG prolog is dropped");
    // Without the script the last frame, the error diagram, is the one shown, and its move is current.
    assert_eq!(shown_frames(&html), [3]);
    assert!(html.contains("<body data-ply=\"3\" data-last=\"3\">"));

    let spans = spans(&html);
    let tokens: Vec<_> = spans.iter().map(|(_, ply, text)| (*ply, text.as_str())).collect();
    assert_eq!(tokens, [(Some(1), "a1"), (Some(2), "b2"), (Some(3), "c3")]);
    assert_eq!(spans[0].0, "move");
    assert_eq!(spans[2].0, "move illegal current");
    let illegal_tag = between(&html, "<span class=\"move illegal", ">")[0];
    assert_eq!(
        attr(illegal_tag, "title"),
        Some("Illegal: the path is blocked by X&#39;s stone on &lt;c7&gt; &amp; &quot;more&quot;")
    );
    // The reason also stands by the board.
    let reason = between(&html, "<p class=\"reason\"", "</p>");
    assert_eq!(reason.len(), 1);
    assert!(reason[0].contains("<code>c3</code>"), "{}", reason[0]);
    assert!(reason[0].contains("blocked by X&#39;s stone on &lt;c7&gt; &amp; &quot;more&quot;"), "{}", reason[0]);
    assert!(
        reason[0].starts_with(" id=\"reason\" data-always=\"false\">"),
        "shown with the error diagram: {}",
        reason[0]
    );

    // The controls, hidden until the script reveals them.
    for id in ["first", "prev", "play", "next", "last"] {
        assert!(html.contains(&format!("<button type=\"button\" id=\"{id}\"")), "{id}");
    }
    assert!(html.contains("<input type=\"range\" id=\"slider\" min=\"0\" max=\"3\" value=\"3\""));
    // The counter counts plies as the captions do: the error diagram shows the position after the
    // second move, as the frame before it does, and says that it is the error diagram.
    assert!(html.contains("<output id=\"where\" aria-live=\"polite\">ply 2 of 2 · illegal move</output>"));
    let counters: Vec<&str> = between(&html, "data-counter=\"", "\"");
    assert_eq!(counters, ["ply 0 of 2", "ply 1 of 2", "ply 2 of 2", "ply 2 of 2 · illegal move"]);
    // The moves legal at the illegal one, escaped, with how many more there were.
    let legal = between(&html, "<p class=\"legal\"", "</p>");
    assert_eq!(
        legal,
        [" id=\"legal\"><strong>Legal there (5):</strong> <code>a1&lt;b2</code> <code>c3</code> … and 3 more"]
    );
}

#[test]
fn a_page_not_told_the_legal_moves_lists_none() {
    let mut p = sample();
    p.illegal = p.illegal.map(|i| IllegalMove { legal: vec![], legal_count: None, ..i });
    assert!(!page(&p).contains("class=\"legal\""));
    p.illegal = p.illegal.map(|i| IllegalMove { legal_count: Some(0), ..i });
    assert!(page(&p).contains("No move was legal there."));
}

#[test]
fn every_inserted_text_is_escaped() {
    let html = page(&sample());
    let title = "g&lt;a&gt;mes &amp; &quot;x&quot;.txt, record 2: Quarod";
    assert!(html.contains(&format!("<title>{title}</title>")));
    assert!(html.contains(&format!("<h1>{title}</h1>")));
    assert!(!html.contains("g<a>mes"));

    assert!(html.contains("[Event &quot;a&lt;b &amp; &quot;c&quot;&quot;]\n1. "));
    assert!(html.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; d4\n"));
    // The page's own script is the only one, and it is closed once.
    assert_eq!(html.matches("<script").count(), 1);
    assert_eq!(html.matches("</script").count(), 1);
    assert!(!html.contains("alert(1)</script>"));

    assert!(html.contains("<li class=\"bad\">illegal move</li>"));
    assert!(html.contains("<li class=\"claim\">claim &quot;1-0&quot;: &lt;refuted&gt; &amp; more</li>"));
    assert!(html.contains("<p class=\"status bad\">illegal move</p>"));
    assert!(html.contains("<figcaption>Quarod · ply 0 · &lt;X&gt; to move</figcaption>"));
    assert!(html.contains("<figcaption>Quarod · ply 2 · score &quot;2&quot; &amp; more</figcaption>"));
}

#[test]
fn the_page_refers_to_nothing_outside_itself() {
    let html = page(&sample());
    for external in ["src=\"http", "href=\"http", "url(http", "@import", "src=\"//", "href=\"//", "<link", "<iframe"] {
        assert!(!html.contains(external), "{external}");
    }
    // The only address left is the SVG namespace, which names and fetches nothing.
    let without_namespaces = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(!without_namespaces.contains("http:") && !without_namespaces.contains("https:"));
    assert!(!html.contains(" src="), "nothing is loaded");
}

#[test]
fn the_same_page_is_the_same_bytes() {
    let first = page(&sample());
    assert_eq!(first, page(&sample()));
    assert_eq!(first, page(&sample().clone()));
}

#[test]
fn ids_in_pictures_are_kept_apart_per_frame() {
    // Two frames with the same marker id: each must keep pointing at its own.
    let picture = |colour: &str| {
        format!("<svg width=\"4\" height=\"4\"><defs><marker id=\"head\"><path fill=\"{colour}\"/></marker></defs><line marker-end=\"url(#head)\"/></svg>")
    };
    let frames = vec![
        Frame {
            svg: picture("blue"),
            caption: "start".into(),
            token: None,
            illegal: false,
            ply: 0,
            ..Frame::default()
        },
        Frame {
            svg: picture("red"),
            caption: "a1".into(),
            token: Some(0..2),
            illegal: true,
            ply: 0,
            ..Frame::default()
        },
    ];
    let illegal = IllegalMove { token: 0..2, why: "no".into(), legal: vec![], legal_count: None };
    let html = page(&Page { title: "t".into(), record: "a1", frames, illegal: Some(illegal), ..Page::default() });
    assert!(html
        .contains("<marker id=\"f0-head\"><path fill=\"blue\"/></marker></defs><line marker-end=\"url(#f0-head)\"/>"));
    assert!(html
        .contains("<marker id=\"f1-head\"><path fill=\"red\"/></marker></defs><line marker-end=\"url(#f1-head)\"/>"));
    // Sized pictures without a viewBox get one, so they scale with the page.
    assert_eq!(html.matches("<svg viewBox=\"0 0 4 4\" width=\"4\" height=\"4\">").count(), 2);
}

#[test]
fn ranges_that_do_not_fit_the_record_are_left_unmarked() {
    let record = "1. é5 b2";
    let frames = vec![
        Frame { svg: svg(0), caption: "start".into(), token: None, illegal: false, ply: 0, ..Frame::default() },
        // Inside the two bytes of `é`: not a place to cut.
        Frame { svg: svg(1), caption: "bad".into(), token: Some(4..6), illegal: false, ply: 1, ..Frame::default() },
        Frame { svg: svg(2), caption: "b2".into(), token: Some(7..9), illegal: false, ply: 2, ..Frame::default() },
        Frame {
            svg: svg(3),
            caption: "past the end".into(),
            token: Some(9..20),
            illegal: false,
            ply: 3,
            ..Frame::default()
        },
    ];
    let html = page(&Page {
        title: "t".into(),
        record,
        frames,
        illegal: Some(IllegalMove { token: 100..104, why: "nowhere".into(), legal: vec![], legal_count: None }),
        verdict: vec!["valid".into()],
        variations: Vec::new(),
    });
    assert!(html.contains("<pre id=\"record\">\n1. é5 <span class=\"move\" data-ply=\"2\">b2</span></pre>"));
    assert!(html.contains("<strong>Illegal move:</strong> nowhere"), "the reason is still given");
    assert!(html.contains("<p class=\"status ok\">valid</p>"));
}

/// Chromium, if it is installed where Debian puts it. In CI the browser tests must run, so a
/// missing browser fails there; elsewhere they are skipped with a note.
fn chromium() -> Option<PathBuf> {
    let path = PathBuf::from("/usr/bin/chromium");
    if path.exists() {
        return Some(path);
    }
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
    assert!(!ci, "CI is set but /usr/bin/chromium is missing: .ci/run installs it with apt-get (package `chromium`)");
    eprintln!("note: /usr/bin/chromium not found, skipping the browser test (apt-get install chromium to run it)");
    None
}

/// The DOM of `html` after Chromium opened it at `fragment` and ran its scripts.
fn dump_dom(browser: &Path, html: &str, fragment: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("page.html");
    std::fs::write(&file, html).unwrap();
    let profile = dir.path().join("profile");
    let out_path = dir.path().join("dom.html");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=2000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}{fragment}", file.display()))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    // A browser that hangs must not hang the test suite.
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "chromium failed: {status}");
    let dom = std::fs::read_to_string(&out_path).unwrap();
    assert!(dom.contains("<body"), "no DOM dumped: {dom}");
    dom
}

/// The moves marked current in a dumped DOM.
fn current(dom: &str) -> Vec<(Option<usize>, String)> {
    spans(dom)
        .into_iter()
        .filter(|(class, _, _)| class.split(' ').any(|c| c == "current"))
        .map(|(_, p, t)| (p, t))
        .collect()
}

fn body_ply(dom: &str) -> usize {
    attr(between(dom, "<body", ">")[0], "data-ply").unwrap().parse().unwrap()
}

#[test]
fn in_a_browser_the_address_opens_that_position() {
    let Some(browser) = chromium() else { return };
    let html = page(&sample());
    let dom = dump_dom(&browser, &html, "#ply=2");
    assert_eq!(body_ply(&dom), 2);
    assert_eq!(shown_frames(&dom), [2]);
    // The highlighted token is the second move.
    assert_eq!(current(&dom), [(Some(2), "b2".to_string())]);
    assert!(dom.contains("<output id=\"where\" aria-live=\"polite\">ply 2 of 2</output>"));
    // The controls are revealed; the reason and the legal moves wait for the error diagram.
    assert!(!between(&dom, "<div class=\"controls\"", ">")[0].contains("hidden"));
    assert!(between(&dom, "<p class=\"reason\"", ">")[0].contains("hidden"));
    assert!(between(&dom, "<p class=\"legal\"", ">")[0].contains("hidden"));
}

#[test]
fn in_a_browser_addresses_out_of_range_are_clamped_and_nonsense_opens_the_start() {
    let Some(browser) = chromium() else { return };
    let html = page(&sample());
    let dom = dump_dom(&browser, &html, "#ply=99");
    assert_eq!((body_ply(&dom), shown_frames(&dom)), (3, vec![3]));
    assert_eq!(current(&dom), [(Some(3), "c3".to_string())]);
    assert!(
        !between(&dom, "<p class=\"reason\"", ">")[0].contains("hidden"),
        "the reason shows with the error diagram"
    );
    let dom = dump_dom(&browser, &html, "#ply=two");
    assert_eq!((body_ply(&dom), shown_frames(&dom)), (0, vec![0]));
    assert_eq!(current(&dom), []);
}

/// The page `html` opened at `fragment` in Chromium, driven by a script after the page's own as a
/// reader would drive it: `actions` (JavaScript) act, calling `note()` after each step, which logs
/// where the page stands as the JavaScript expression `state` says (`shown(selector)` gives the
/// elements of `selector` not hidden), and end with `done(extra)`. The log, each entry apart.
fn drive(browser: &Path, html: &str, fragment: &str, state: &str, actions: &str) -> Vec<String> {
    let driver = format!(
        r##"<script>
(function () {{
  var log = [];
  function shown(selector) {{ return Array.prototype.filter.call(document.querySelectorAll(selector), function (e) {{ return !e.hidden; }}); }}
  function note() {{ log.push({state}); }}
  function key(k) {{ document.dispatchEvent(new KeyboardEvent("keydown", {{ key: k, bubbles: true, cancelable: true }})); note(); }}
  function done(extra) {{
    var out = document.createElement("pre");
    out.id = "test-log";
    out.textContent = log.concat(extra || []).join(" ");
    document.body.appendChild(out);
  }}
{actions}
}})();
</script>
"##
    );
    let dom = dump_dom(browser, &html.replacen("</body>", &format!("{driver}</body>"), 1), fragment);
    let log = between(&dom, "<pre id=\"test-log\">", "</pre>");
    assert_eq!(log.len(), 1, "the driver ran: {dom}");
    log[0].replace("&amp;", "&").split(' ').map(String::from).collect()
}

#[test]
fn in_a_browser_keys_buttons_clicks_and_the_address_step_through_the_moves() {
    let Some(browser) = chromium() else { return };
    // Where the page stands: frame shown, address, reason shown.
    let state = r#"document.body.getAttribute("data-ply") + "/" + shown("figure.frame").map(function (f) { return f.id; }).join(",") +
      location.hash + (document.getElementById("reason").hidden ? "" : "!")"#;
    let actions = r##"  note();
  key("ArrowRight"); key("ArrowRight"); key("ArrowRight"); key("ArrowLeft"); key("Home"); key("ArrowLeft"); key("End");
  document.getElementById("prev").click(); note();
  document.getElementById("first").click(); note();
  document.querySelector('#record .move[data-ply="2"]').click(); note();
  var slider = document.getElementById("slider"); slider.value = "1"; slider.dispatchEvent(new Event("input")); note();
  window.referee.step(1); note();
  window.referee.go(-5); note();
  location.hash = "#ply=3";
  setTimeout(function () {
    note();
    document.getElementById("first").click();
    document.getElementById("play").click();
    setTimeout(function () {
      note();
      done([document.getElementById("play").getAttribute("aria-pressed")]);
    }, 1000);
  }, 50);"##;
    let log = drive(&browser, &page(&sample()), "#ply=1", state, actions);
    let expected = [
        "1/frame-1#ply=1",  // opened at the address
        "2/frame-2#ply=2",  // Right
        "3/frame-3#ply=3!", // Right, to the error diagram: the reason shows
        "3/frame-3#ply=3!", // Right at the end stays
        "2/frame-2#ply=2",  // Left
        "0/frame-0#ply=0",  // Home
        "0/frame-0#ply=0",  // Left at the start stays
        "3/frame-3#ply=3!", // End
        "2/frame-2#ply=2",  // previous button
        "0/frame-0#ply=0",  // first button
        "2/frame-2#ply=2",  // a click on the second move in the record
        "1/frame-1#ply=1",  // the slider
        "2/frame-2#ply=2",  // referee.step(1)
        "0/frame-0#ply=0",  // referee.go(-5), clamped
        "3/frame-3#ply=3!", // the address changed by hand
        "1/frame-1#ply=1",  // playing from the start: one step in 0.8 s
        "true",             // and still playing
    ];
    assert_eq!(log, expected);
}

/// A record with comments (one trying to break out of the page), glyphs and variations: `1... c3`
/// with `2. e5` in it, and `1... g7`, which stops at an illegal move.
const NOTED: &str =
    "1. a1!? {<b>x</b> </script><script>alert(1)</script>} b2 (1... c3 {in <i>it</i>} d4 (2. e5) 2... f6) (1... g7 h8) i9\n";

/// A frame of [`NOTED`] after its move `token` (the first after byte `from`), if any.
fn noted_frame(i: usize, token: Option<(&str, usize)>, ply: usize) -> Frame {
    let token = token.map(|(t, from)| {
        let at = from + NOTED[from..].find(t).expect("token in record");
        at..at + t.len()
    });
    Frame { svg: svg(i), caption: format!("ply {ply}"), token, ply, ..Frame::default() }
}

/// The page of [`NOTED`]: its main line, and its three variations.
fn noted() -> Page<'static> {
    let (c3, g7) = (NOTED.find("(1... c3").unwrap(), NOTED.find("(1... g7").unwrap());
    let mut frames = vec![noted_frame(0, None, 0), noted_frame(1, Some(("a1", 0)), 1)];
    frames[1].glyphs = vec![("!?".into(), "an interesting move".into())];
    frames[1].comments = vec!["<b>x</b> </script><script>alert(1)</script>".into()];
    frames.extend([noted_frame(2, Some(("b2", 0)), 2), noted_frame(3, Some(("i9", 0)), 3)]);
    let mut first = vec![noted_frame(10, None, 1), noted_frame(11, Some(("c3", c3)), 2)];
    first[1].comments = vec!["in <i>it</i>".into()];
    first.extend([noted_frame(12, Some(("d4", c3)), 3), noted_frame(13, Some(("f6", c3)), 4)]);
    let nested = vec![noted_frame(20, None, 2), noted_frame(21, Some(("e5", c3)), 3)];
    let mut stopped = vec![noted_frame(30, None, 1), noted_frame(31, Some(("g7", g7)), 2)];
    stopped.push(Frame { illegal: true, ..noted_frame(32, Some(("h8", g7)), 2) });
    let variation = |from, at, name: &str, frames, illegal: Option<&str>| Variation {
        from,
        at,
        name: name.into(),
        frames,
        illegal: illegal.map(Into::into),
    };
    Page {
        title: "noted".into(),
        record: NOTED,
        frames,
        verdict: vec!["illegal move".into()],
        variations: vec![
            variation(0, 1, "1... c3", first, None),
            variation(1, 1, "2. e5", nested, None),
            variation(0, 1, "1... <g7>", stopped, Some("h8 is <taken> & \"gone\"")),
        ],
        ..Page::default()
    }
}

#[test]
fn comments_and_glyphs_stand_beside_the_board_escaped() {
    let html = page(&noted());
    let asides = between(&html, "<div class=\"aside\"", "\n</div>\n");
    // The last frame, shown without the script, has nothing said: every aside waits.
    assert!(asides.iter().all(|a| a.contains(" hidden>")), "{asides:#?}");
    let after_a1 = asides.iter().find(|a| a.starts_with(" data-line=\"0\" data-ply=\"1\"")).expect("a1's aside");
    assert!(after_a1.contains("<p class=\"glyph\"><b>!?</b> an interesting move</p>"), "{after_a1}");
    assert!(
        after_a1.contains(
            "<div class=\"comment\">&lt;b&gt;x&lt;/b&gt; &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</div>"
        ),
        "{after_a1}"
    );
    // The page's own script is still the only one; no tag of the writer's is markup.
    assert_eq!(html.matches("<script").count(), 1);
    assert_eq!(html.matches("</script").count(), 1);
    for tag in ["<b>x", "<i>it", "<g7>", "<taken>"] {
        assert!(!html.contains(tag), "{tag}");
    }
    // The variations that branch after a1 are offered there, as alternatives to b2, by name.
    assert!(after_a1.contains(
        "<div class=\"branches\"><span>Instead of <code>b2</code>:</span> <button type=\"button\" class=\"branch\" \
         data-go=\"1\">1... c3</button> <button type=\"button\" class=\"branch\" data-go=\"3\">1... &lt;g7&gt;</button></div>"
    ));
    let in_it = asides.iter().find(|a| a.starts_with(" data-line=\"1\" data-ply=\"1\"")).expect("c3's aside");
    assert!(in_it.contains("<div class=\"comment\">in &lt;i&gt;it&lt;/i&gt;</div>"), "{in_it}");
    assert!(in_it.contains("data-go=\"2\">2. e5</button>"), "{in_it}");
    // A variation's illegal move is said with its error diagram, escaped.
    let stop = asides.iter().find(|a| a.starts_with(" data-line=\"3\" data-ply=\"2\"")).expect("h8's aside");
    assert!(stop.contains(
        "<p class=\"reason\"><strong>Illegal move <code>h8</code>:</strong> h8 is &lt;taken&gt; &amp; &quot;gone&quot;. \
         The variation stops here.</p>"
    ));
}

#[test]
fn each_variation_is_a_line_of_frames_of_its_own() {
    let html = page(&noted());
    // Every frame once, the variations' hidden, each with ids of its own.
    for i in [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 30, 31, 32] {
        assert_eq!(html.matches(&format!("class=\"frame-mark-{i}\"")).count(), 1, "frame {i}");
    }
    assert_eq!(shown_frames(&html), [3]);
    for (k, n) in [(1, 4), (2, 2), (3, 3)] {
        for i in 0..n {
            let id = format!("id=\"frame-{k}-{i}\" data-line=\"{k}\" data-ply=\"{i}\"");
            assert_eq!(html.matches(&id).count(), 1, "{id}");
        }
    }
    assert!(html.contains(
        "<figure class=\"frame illegal\" id=\"frame-3-2\" data-line=\"3\" data-ply=\"2\" \
         data-counter=\"ply 2 of 2 · illegal move\" hidden>"
    ));
    assert!(html.contains("data-counter=\"ply 4 of 4\" hidden>"), "a variation's counter counts its own plies");
    // Where each branches from, for the script, names escaped.
    assert!(html.contains(
        "<div id=\"lines\" hidden><span data-line=\"1\" data-from=\"0\" data-at=\"1\">1... c3</span><span \
         data-line=\"2\" data-from=\"1\" data-at=\"1\">2. e5</span><span data-line=\"3\" data-from=\"0\" \
         data-at=\"1\">1... &lt;g7&gt;</span></div>"
    ));
    // Their moves are marked in the record with their line, and not played on the way to the
    // position shown; the illegal one says why.
    let spans = spans(&html);
    let moves: Vec<(&str, Option<usize>, &str)> =
        spans.iter().filter(|(c, _, _)| c.starts_with("move")).map(|(c, p, t)| (c.as_str(), *p, t.as_str())).collect();
    assert_eq!(
        moves,
        [
            ("move", Some(1), "a1"),
            ("move", Some(2), "b2"),
            ("move after", Some(1), "c3"),
            ("move after", Some(2), "d4"),
            ("move after", Some(1), "e5"),
            ("move after", Some(3), "f6"),
            ("move after", Some(1), "g7"),
            ("move illegal after", Some(2), "h8"),
            ("move current", Some(3), "i9"),
        ]
    );
    assert!(html.contains("<span class=\"move after\" data-line=\"2\" data-ply=\"1\">e5</span>"));
    assert!(html.contains(
        "<span class=\"move illegal after\" data-line=\"3\" data-ply=\"2\" title=\"Illegal: h8 is &lt;taken&gt; \
         &amp; &quot;gone&quot;\">h8</span>"
    ));
    assert!(html.contains("Esc leaves a variation"));
    assert_eq!(page(&noted()), html, "the same bytes");
}

/// The asides shown in a dumped DOM, by line and frame.
fn shown_asides(dom: &str) -> Vec<String> {
    between(dom, "<div class=\"aside\" ", ">")
        .into_iter()
        .filter(|tag| !tag.contains("hidden"))
        .map(|tag| {
            format!(
                "{}:{}",
                attr(&format!(" {tag}"), "data-line").unwrap(),
                attr(&format!(" {tag}"), "data-ply").unwrap()
            )
        })
        .collect()
}

#[test]
fn in_a_browser_the_address_opens_a_variation_and_its_comment() {
    let Some(browser) = chromium() else { return };
    let html = page(&noted());
    let dom = dump_dom(&browser, &html, "#line=1&ply=1");
    assert_eq!(body_ply(&dom), 1);
    assert!(between(&dom, "<body", ">")[0].contains("data-line=\"1\""));
    assert_eq!(between(&dom, "<figure ", ">").iter().filter(|t| !t.contains("hidden")).count(), 1);
    assert!(dom.contains("id=\"frame-1-1\" data-line=\"1\" data-ply=\"1\" data-counter=\"ply 2 of 4\">"));
    assert_eq!(shown_asides(&dom), ["1:1"]);
    assert_eq!(current(&dom), [(Some(1), "c3".to_string())]);
    // The moves played on the way: a1 of the main line, then c3; b2 and the rest were not.
    let played: Vec<String> = spans(&dom)
        .into_iter()
        .filter(|(c, _, _)| c.starts_with("move") && !c.split(' ').any(|c| c == "after"))
        .map(|(_, _, t)| t)
        .collect();
    assert_eq!(played, ["a1", "c3"]);
    // The way back names the line left.
    let path = between(&dom, "<nav class=\"path\" id=\"path\"", "</nav>")[0];
    assert!(!path.starts_with(" aria-label=\"Variation shown\" hidden"), "{path}");
    assert!(path.contains(">Main line</button> › <strong>1... c3</strong>"), "{path}");
    assert!(path.contains("↩ Back to the main line</button>"), "{path}");
    // A line that does not exist opens the main line.
    let dom = dump_dom(&browser, &html, "#line=9&ply=2");
    assert_eq!((body_ply(&dom), shown_frames(&dom)), (2, vec![2]));
}

#[test]
fn in_a_browser_variations_are_stepped_into_through_and_out_of() {
    let Some(browser) = chromium() else { return };
    // Where the page stands: line:frame/figure shown, the address, the asides shown and whether
    // the way back is shown.
    let state = r#"document.body.getAttribute("data-line") + ":" + document.body.getAttribute("data-ply") + "/" +
      shown("figure.frame").map(function (f) { return f.id; }).join(",") + location.hash + "/" + shown(".aside").length +
      (document.getElementById("path").hidden ? "" : "^")"#;
    let actions = r##"  function click(selector) { document.querySelector(selector).click(); note(); }
  note();
  click('#asides button[data-go="1"]');
  key("ArrowRight"); key("ArrowRight"); key("ArrowRight"); key("Home"); key("ArrowRight");
  click('#asides .aside:not([hidden]) button[data-go="2"]');
  key("End"); key("ArrowLeft"); key("Escape");
  click("#path button.crumb");
  key("Escape");
  click('#record .move[data-line="3"][data-ply="2"]');
  document.getElementById("prev").click(); note();
  click("#back");
  window.referee.go(1, 2); note();
  window.referee.back(); note();
  location.hash = "#line=3&ply=1";
  setTimeout(function () { note(); done(); }, 50);"##;
    let log = drive(&browser, &page(&noted()), "#ply=1", state, actions);
    let expected = [
        "0:1/frame-1#ply=1/1",           // opened after a1: its comment, and the variations there
        "1:1/frame-1-1#line=1&ply=1/1^", // into 1... c3, at its first move: its comment
        "1:2/frame-1-2#line=1&ply=2/0^", // Right, in the variation
        "1:3/frame-1-3#line=1&ply=3/0^", // Right
        "1:3/frame-1-3#line=1&ply=3/0^", // Right at its end stays
        "1:0/frame-1-0#line=1&ply=0/0^", // Home: where it branches
        "1:1/frame-1-1#line=1&ply=1/1^", // Right
        "2:1/frame-2-1#line=2&ply=1/0^", // into 2. e5, from within 1... c3
        "2:1/frame-2-1#line=2&ply=1/0^", // End
        "2:0/frame-2-0#line=2&ply=0/0^", // Left
        "1:1/frame-1-1#line=1&ply=1/1^", // Escape: back where it left 1... c3
        "0:1/frame-1#ply=1/1",           // the way back's first step: the main line
        "0:1/frame-1#ply=1/1",           // Escape on the main line does nothing
        "3:2/frame-3-2#line=3&ply=2/1^", // a click on h8 in the record: its error diagram
        "3:1/frame-3-1#line=3&ply=1/0^", // previous
        "0:1/frame-1#ply=1/1",           // the back button
        "2:1/frame-2-1#line=2&ply=1/0^", // referee.go(1, 2)
        "1:1/frame-1-1#line=1&ply=1/1^", // referee.back()
        "3:1/frame-3-1#line=3&ply=1/0^", // the address changed by hand
    ];
    assert_eq!(log, expected);
}
