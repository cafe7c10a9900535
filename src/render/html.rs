//! A replay page: one self-contained HTML file with the record, a picture of every position, and
//! controls to step through them.
//!
//! The page fetches nothing: style, script and every picture are inline, so it works opened from
//! disk, mailed, or archived. Every frame is an inline `<figure>`; the script only toggles which one
//! is shown, so without JavaScript the page still shows the last position (the final one, or the
//! error diagram), the record with its moves marked, and the verdict.
//!
//! Beside the board, each position's comments and the glyphs of the move that led there (comments
//! are the writer's text, escaped as all text is), and the variations that branch there: a click
//! on one steps into it, its positions drawn as frames of its own, where the keys step through it,
//! and the way back to the line it left stays in view (Escape takes it too).
//!
//! At an illegal move the page gives the reason and the moves legal there. The step counter says
//! the ply each frame's caption says, which is not the frame's place when frames are turns, nor for
//! the error diagram, which shows the position before the illegal move.
//!
//! `#ply=N` in the address opens frame N, `#line=K&ply=N` frame N of variation K; stepping
//! rewrites the address (without adding history entries) so it can be shared. The script also
//! answers to `window.referee.go(n)` (`go(n, k)`: in variation K), `window.referee.step(d)` and
//! `window.referee.back()`.
//!
//! The output depends only on the input: the same page is the same bytes.

use std::fmt::Write as _;
use std::ops::Range;

/// One position of the game as the page shows it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Frame {
    /// The board as an SVG document: the `<svg ...>...</svg>` element, possibly preceded by an
    /// XML declaration, a doctype or comments, which are dropped. It is inserted as markup, not
    /// escaped: it must come from a trusted renderer.
    pub svg: String,
    /// A one-line caption (game, ply, side to move, score).
    pub caption: String,
    /// The byte range, in [`Page::record`], of the token of the move that led to this position
    /// (`None` for the start).
    pub token: Option<Range<usize>>,
    /// This frame is the error diagram: the board before the first illegal move, that move drawn
    /// in red.
    pub illegal: bool,
    /// The moves played to reach the position, as the caption counts them: the step counter says
    /// the same. (Frames need not be a move apart, and the error diagram shows the position of the
    /// frame before it.)
    pub ply: usize,
    /// The glyphs written after the move that led here, each with what it says (`("!?", "an
    /// interesting move")`; empty for a glyph whose meaning is the writer's).
    pub glyphs: Vec<(String, String)>,
    /// What the writer said of this position, as written: the comments after the move that led
    /// here (at the start, those before the first move).
    pub comments: Vec<String>,
}

/// A variation: moves that could have been played instead of one move of another line, shown as
/// a line of frames of its own.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Variation {
    /// The line it branches from: 0 for the main line ([`Page::frames`]), `k` for
    /// `Page::variations[k - 1]`.
    pub from: usize,
    /// The frame of that line it branches at: the position before the move it replaces, which
    /// its own frame 0 shows again.
    pub at: usize,
    /// Its name: its first move, with its number (`1... a1a2`).
    pub name: String,
    /// Its frames: its start, then one per move, its error diagram, if any, last. None when it
    /// is not drawn (its line stops before it branches): it is then not offered.
    pub frames: Vec<Frame>,
    /// Why its illegal move is illegal, if it has one (`d2d3: d2 is not empty`), said with its
    /// error diagram.
    pub illegal: Option<String>,
}

/// The first illegal move of a record, as the page explains it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IllegalMove {
    /// Its token's byte range in [`Page::record`].
    pub token: Range<usize>,
    /// Why it is illegal.
    pub why: String,
    /// Moves legal there instead, in the notation: the first of them, as the verdict lists them.
    pub legal: Vec<String>,
    /// How many moves were legal there in all; `None` when the page is not told (nothing is
    /// listed then).
    pub legal_count: Option<usize>,
}

/// Everything one replay page shows.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Page<'a> {
    /// The page's title, e.g. `games.txt, record 2: Quarod`.
    pub title: String,
    /// The record's text as written in the file.
    pub record: &'a str,
    /// Frame 0 is the start; frame k follows the k-th move; an illegal frame, if any, is last.
    pub frames: Vec<Frame>,
    /// The first illegal move, if any: where, why, and what was legal there.
    pub illegal: Option<IllegalMove>,
    /// The verdict as short lines: the status (`valid`, `illegal move`, ...), then one line per
    /// claim with its status and detail.
    pub verdict: Vec<String>,
    /// The record's variations, in the order they open.
    pub variations: Vec<Variation>,
}

/// The page as one HTML document.
pub fn page(p: &Page) -> String {
    let last = p.frames.len().saturating_sub(1);
    // Without JavaScript the last frame is the one shown: the final position, or the error
    // diagram, is what a reader of a verdict wants to see first.
    let shown = last;
    let frames = p.frames.iter().chain(p.variations.iter().flat_map(|v| &v.frames));
    let drawn: usize = frames.map(|f| f.svg.len() + 200 + f.comments.iter().map(|c| c.len() * 2).sum::<usize>()).sum();
    let mut out = String::with_capacity(4096 + p.record.len() * 2 + drawn);
    head_into(&mut out, p, shown, last);
    board_into(&mut out, p, shown, last);
    side_into(&mut out, p, shown);
    out.push_str("</main>\n<script>\n");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// The frames of line `line`: the main line's, or a variation's.
fn line_frames<'p>(p: &'p Page, line: usize) -> &'p [Frame] {
    match line {
        0 => &p.frames,
        k => p.variations.get(k - 1).map_or(&[], |v| &v.frames),
    }
}

/// The document's head, and the page's header: its title and the record's status.
fn head_into(out: &mut String, p: &Page, shown: usize, last: usize) {
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"generator\" content=\"referee\">\n<title>");
    escape_into(out, &p.title);
    out.push_str("</title>\n<style>\n");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n");
    let _ = writeln!(out, "<body data-ply=\"{shown}\" data-last=\"{last}\">");
    out.push_str("<header>\n<h1>");
    escape_into(out, &p.title);
    out.push_str("</h1>\n");
    if let Some(status) = p.verdict.first() {
        let _ = write!(out, "<p class=\"status {}\">", status_class(status));
        escape_into(out, status);
        out.push_str("</p>\n");
    }
    out.push_str("</header>\n<main>\n");
}

/// The board: every frame (the one `shown` visible, the variations' after the main line's), the
/// reason of an illegal move, the controls, which the script reveals, and beside them what the
/// writer said of each position and the variations that branch there.
fn board_into(out: &mut String, p: &Page, shown: usize, last: usize) {
    let has_illegal_frame = p.frames.iter().any(|f| f.illegal);
    out.push_str("<section class=\"card board\" aria-label=\"Board\">\n<div id=\"frames\">\n");
    for line in 0..=p.variations.len() {
        for i in 0..line_frames(p, line).len() {
            figure_into(out, p, line, i, line == 0 && i == shown);
        }
    }
    if p.frames.is_empty() {
        out.push_str("<p class=\"empty\">No position to show.</p>\n");
    }
    out.push_str("</div>\n");
    if let Some(IllegalMove { token: range, why, legal, legal_count }) = &p.illegal {
        // With an error diagram the reason goes with it; without one it stays in view.
        let hidden = has_illegal_frame && !p.frames.get(shown).is_some_and(|f| f.illegal);
        let _ = write!(
            out,
            "<p class=\"reason\" id=\"reason\" data-always=\"{}\"{}><strong>Illegal move",
            !has_illegal_frame,
            if hidden { " hidden" } else { "" }
        );
        token_into(out, p, Some(range));
        out.push_str(":</strong> ");
        escape_into(out, why);
        out.push_str("</p>\n");
        if let Some(count) = *legal_count {
            legal_into(out, legal, count, hidden);
        }
    }
    // The controls do nothing without the script, which reveals them.
    let shown_counter = p.frames.get(shown).map(|f| counter(&p.frames, f)).unwrap_or_default();
    let leave = if p.variations.is_empty() { "" } else { " · Esc leaves a variation" };
    let _ = write!(
        out,
        "<div class=\"controls\" id=\"controls\" hidden>\n\
         <div class=\"buttons\">\n\
         <button type=\"button\" id=\"first\" title=\"First position (Home)\" aria-label=\"First position\">{ICON_FIRST}</button>\n\
         <button type=\"button\" id=\"prev\" title=\"Previous move (Left arrow)\" aria-label=\"Previous move\">{ICON_PREV}</button>\n\
         <button type=\"button\" id=\"play\" class=\"play\" title=\"Play / pause\" aria-label=\"Play\" aria-pressed=\"false\">{ICON_PLAY}{ICON_PAUSE}</button>\n\
         <button type=\"button\" id=\"next\" title=\"Next move (Right arrow)\" aria-label=\"Next move\">{ICON_NEXT}</button>\n\
         <button type=\"button\" id=\"last\" title=\"Last position (End)\" aria-label=\"Last position\">{ICON_LAST}</button>\n\
         <output id=\"where\" aria-live=\"polite\">{shown_counter}</output>\n\
         </div>\n\
         <input type=\"range\" id=\"slider\" min=\"0\" max=\"{last}\" value=\"{shown}\" step=\"1\" aria-label=\"Ply\">\n\
         <p class=\"hint\">← → step · Home / End · click a move in the record{leave}</p>\n\
         </div>\n"
    );
    // Which variation is shown, and the way back, under the controls so that they stay in place:
    // the script fills it in.
    out.push_str("<nav class=\"path\" id=\"path\" aria-label=\"Variation shown\" hidden></nav>\n");
    asides_into(out, p, shown);
    out.push_str("<noscript><p class=\"hint\">The last position is shown; with JavaScript on, the page steps through every move.</p></noscript>\n");
    out.push_str("</section>\n");
}

/// One frame of line `line` (0: the main line), the `i`-th, as a figure: its picture, its ids
/// kept apart from every other frame's, and its caption.
fn figure_into(out: &mut String, p: &Page, line: usize, i: usize, shown: bool) {
    let frames = line_frames(p, line);
    let frame = &frames[i];
    let (id, prefix, data_line) = match line {
        0 => (format!("frame-{i}"), format!("f{i}-"), String::new()),
        k => (format!("frame-{k}-{i}"), format!("v{k}f{i}-"), format!(" data-line=\"{k}\"")),
    };
    let _ = writeln!(
        out,
        "<figure class=\"frame{}\" id=\"{id}\"{data_line} data-ply=\"{i}\" data-counter=\"{}\"{}>",
        if frame.illegal { " illegal" } else { "" },
        counter(frames, frame),
        if shown { "" } else { " hidden" },
    );
    out.push_str(&inline_svg(&frame.svg, &prefix));
    out.push_str("\n<figcaption>");
    escape_into(out, &frame.caption);
    out.push_str("</figcaption>\n</figure>\n");
}

/// What the page says beside the board at each frame that has something to say: the glyphs of
/// the move that led there with their meaning, the comments, a variation's illegal move, and the
/// variations that branch there, each a button into it. Then where each variation branches from
/// and its name, for the script.
fn asides_into(out: &mut String, p: &Page, shown: usize) {
    // Each line's variations that are drawn, by the frame they branch at.
    let mut branches: Vec<Vec<(usize, usize)>> = vec![Vec::new(); p.variations.len() + 1];
    for (k, v) in p.variations.iter().enumerate() {
        if !v.frames.is_empty() && v.from <= p.variations.len() {
            branches[v.from].push((v.at, k + 1));
        }
    }
    out.push_str("<div id=\"asides\">\n");
    for (line, branching) in branches.iter_mut().enumerate() {
        branching.sort_by_key(|&(at, _)| at);
        let frames = line_frames(p, line);
        let mut next = 0;
        for (i, frame) in frames.iter().enumerate() {
            let first = next;
            while branching.get(next).is_some_and(|&(at, _)| at <= i) {
                next += 1;
            }
            let here: Vec<usize> = branching[first..next].iter().filter(|(at, _)| *at == i).map(|(_, k)| *k).collect();
            let why =
                p.variations.get(line.wrapping_sub(1)).and_then(|v| v.illegal.as_deref()).filter(|_| frame.illegal);
            if frame.glyphs.is_empty() && frame.comments.is_empty() && here.is_empty() && why.is_none() {
                continue;
            }
            let hidden = if line == 0 && i == shown { "" } else { " hidden" };
            let _ = writeln!(out, "<div class=\"aside\" data-line=\"{line}\" data-ply=\"{i}\"{hidden}>");
            for (glyph, meaning) in &frame.glyphs {
                out.push_str("<p class=\"glyph\"><b>");
                escape_into(out, glyph);
                out.push_str("</b> ");
                escape_into(out, meaning);
                out.push_str("</p>\n");
            }
            for comment in &frame.comments {
                out.push_str("<div class=\"comment\">");
                escape_into(out, comment.trim());
                out.push_str("</div>\n");
            }
            if let Some(why) = why {
                out.push_str("<p class=\"reason\"><strong>Illegal move");
                token_into(out, p, frame.token.as_ref());
                out.push_str(":</strong> ");
                escape_into(out, why);
                out.push_str(". The variation stops here.</p>\n");
            }
            if !here.is_empty() {
                out.push_str("<div class=\"branches\"><span>Instead of");
                token_into(out, p, frames.get(i + 1).and_then(|f| f.token.as_ref()));
                out.push_str(":</span>");
                for k in here {
                    let _ = write!(out, " <button type=\"button\" class=\"branch\" data-go=\"{k}\">");
                    escape_into(out, &p.variations[k - 1].name);
                    out.push_str("</button>");
                }
                out.push_str("</div>\n");
            }
            out.push_str("</div>\n");
        }
    }
    out.push_str("</div>\n<div id=\"lines\" hidden>");
    for (k, v) in p.variations.iter().enumerate().filter(|(_, v)| !v.frames.is_empty()) {
        let _ = write!(out, "<span data-line=\"{}\" data-from=\"{}\" data-at=\"{}\">", k + 1, v.from, v.at);
        escape_into(out, &v.name);
        out.push_str("</span>");
    }
    out.push_str("</div>\n");
}

/// ` <code>token</code>`, the token of the record at `range`, if there is one.
fn token_into(out: &mut String, p: &Page, range: Option<&Range<usize>>) {
    if let Some(token) = range.and_then(|r| p.record.get(r.clone())) {
        out.push_str(" <code>");
        escape_into(out, token);
        out.push_str("</code>");
    }
}

/// The moves that were legal where the record's move is illegal, under the reason and shown with
/// it: the ones the verdict lists, and how many more there were.
fn legal_into(out: &mut String, legal: &[String], count: usize, hidden: bool) {
    let _ = write!(out, "<p class=\"legal\" id=\"legal\"{}>", if hidden { " hidden" } else { "" });
    if legal.is_empty() && count == 0 {
        out.push_str("No move was legal there.</p>\n");
        return;
    }
    let _ = write!(out, "<strong>Legal there ({count}):</strong>");
    for m in legal {
        out.push_str(" <code>");
        escape_into(out, m);
        out.push_str("</code>");
    }
    if count > legal.len() {
        let _ = write!(out, " … and {} more", count - legal.len());
    }
    out.push_str("</p>\n");
}

/// What the step counter says at a frame of a line of `frames`: the ply its caption gives, of the
/// line's last position's, and for the error diagram that it is one.
fn counter(frames: &[Frame], frame: &Frame) -> String {
    let last = frames.iter().filter(|f| !f.illegal).map(|f| f.ply).max().unwrap_or(0);
    if frame.illegal {
        format!("ply {} of {last} · illegal move", frame.ply)
    } else {
        format!("ply {} of {last}", frame.ply)
    }
}

/// The side panel: the verdict, and the record itself.
fn side_into(out: &mut String, p: &Page, shown: usize) {
    out.push_str("<div class=\"side\">\n");
    if !p.verdict.is_empty() {
        out.push_str("<section class=\"card verdict\" aria-label=\"Verdict\">\n<h2>Verdict</h2>\n<ul>\n");
        for (i, line) in p.verdict.iter().enumerate() {
            let class = if i == 0 { status_class(line) } else { "claim" };
            let _ = write!(out, "<li class=\"{class}\">");
            escape_into(out, line);
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n</section>\n");
    }
    // HTML drops one newline right after `<pre>`: this one, so that a record's own first line,
    // blank or not, is kept.
    out.push_str("<section class=\"card\" aria-label=\"Record\">\n<h2>Record</h2>\n<pre id=\"record\">\n");
    record_into(out, p, shown);
    out.push_str("</pre>\n</section>\n</div>\n");
}

/// The class that colours a status: green when valid, red when illegal or wrong, amber otherwise.
fn status_class(status: &str) -> &'static str {
    let s = status.trim().to_ascii_lowercase();
    if s == "valid" || s.starts_with("valid ") || s.starts_with("valid,") || s.starts_with("valid:") {
        "ok"
    } else if ["illegal", "syntax", "error", "false", "refuted", "invalid"].iter().any(|w| s.starts_with(w)) {
        "bad"
    } else {
        "warn"
    }
}

/// Writes `s` with the five characters that mean something in HTML text or a quoted attribute
/// replaced by entities.
fn escape_into(out: &mut String, s: &str) {
    let mut rest = s;
    while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
        out.push_str(&rest[..at]);
        out.push_str(match rest.as_bytes()[at] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#39;",
        });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// A marked token of the record: the line and frame it leads to, if any, and why it is illegal
/// when it is.
struct Mark<'p> {
    range: Range<usize>,
    line: usize,
    ply: Option<usize>,
    illegal: Option<&'p str>,
}

/// Writes the record escaped, each move token in a span that names its line and frame.
fn record_into(out: &mut String, p: &Page, shown: usize) {
    let record = p.record;
    let usable = |r: &Range<usize>| {
        r.start < r.end && r.end <= record.len() && record.is_char_boundary(r.start) && record.is_char_boundary(r.end)
    };
    let illegal_range = p.illegal.as_ref().map(|i| i.token.clone());
    let why = p.illegal.as_ref().map_or("", |i| i.why.as_str());
    let mut marks: Vec<Mark> = Vec::new();
    let mut marked = std::collections::HashSet::new();
    for line in 0..=p.variations.len() {
        // A variation's illegal move is its own: its reason is the variation's.
        let (why, illegal_range) = match line {
            0 => (why, illegal_range.as_ref()),
            k => (p.variations[k - 1].illegal.as_deref().unwrap_or(""), None),
        };
        for (i, frame) in line_frames(p, line).iter().enumerate() {
            if let Some(r) = frame.token.clone().filter(usable) {
                if marked.insert((r.start, r.end)) {
                    let illegal = (frame.illegal || illegal_range == Some(&r)).then_some(why);
                    marks.push(Mark { range: r, line, ply: Some(i), illegal });
                }
            }
        }
    }
    if let Some(r) = illegal_range.filter(usable) {
        if marked.insert((r.start, r.end)) {
            marks.push(Mark { range: r, line: 0, ply: None, illegal: Some(why) });
        }
    }
    marks.sort_by_key(|m| (m.range.start, m.range.end));

    // Ranges that overlap an earlier one are left unmarked rather than nesting spans.
    let mut at = 0;
    for m in &marks {
        if m.range.start < at {
            continue;
        }
        escape_into(out, &record[at..m.range.start]);
        out.push_str("<span class=\"move");
        if m.illegal.is_some() {
            out.push_str(" illegal");
        }
        if m.line == 0 && m.ply == Some(shown) {
            out.push_str(" current");
        } else if m.line > 0 {
            // Not played on the way to the position shown.
            out.push_str(" after");
        }
        out.push('"');
        if m.line > 0 {
            let _ = write!(out, " data-line=\"{}\"", m.line);
        }
        if let Some(ply) = m.ply {
            let _ = write!(out, " data-ply=\"{ply}\"");
        }
        if let Some(why) = m.illegal {
            out.push_str(" title=\"Illegal: ");
            escape_into(out, why);
            out.push('"');
        }
        out.push('>');
        escape_into(out, &record[m.range.clone()]);
        out.push_str("</span>");
        at = m.range.end;
    }
    escape_into(out, &record[at..]);
}

/// The `<svg>` element of an SVG document, ready to sit inline in the page: the prolog dropped,
/// every `id` and reference to it prefixed so that frames cannot take each other's markers or
/// gradients (a reference resolves to the first element with that id in the whole page, and that
/// one may be in a hidden frame), and a `viewBox` added when missing so the picture scales with
/// the page.
fn inline_svg(svg: &str, prefix: &str) -> String {
    let body = strip_prolog(svg).trim_end();
    let scoped = scope_ids(body, prefix);
    add_view_box(&scoped)
}

/// The document without what may precede its root element: whitespace, a byte order mark, the
/// XML declaration, processing instructions, a doctype, comments.
fn strip_prolog(svg: &str) -> &str {
    let mut s = svg.trim_start_matches('\u{feff}');
    loop {
        s = s.trim_start();
        let end = if s.starts_with("<?") {
            s.find("?>").map(|e| e + 2)
        } else if s.starts_with("<!--") {
            s.find("-->").map(|e| e + 3)
        } else if s.starts_with("<!") {
            // A doctype may carry an internal subset in brackets, with `>` inside it.
            match (s.find('['), s.find('>')) {
                (Some(open), Some(close)) if open < close => s.find("]>").map(|e| e + 2),
                (_, close) => close.map(|e| e + 1),
            }
        } else {
            return s;
        };
        match end {
            Some(end) => s = &s[end..],
            None => return s,
        }
    }
}

/// `svg` with every `id="v"` made `id="{prefix}v"`, and every reference to such an id (`url(#v)`,
/// `href="#v"`, `xlink:href="#v"`) made to match.
fn scope_ids(svg: &str, prefix: &str) -> String {
    let bytes = svg.as_bytes();
    let mut ids: Vec<&str> = Vec::new();
    let mut i = 0;
    while let Some(found) = svg[i..].find("id=") {
        let at = i + found;
        i = at + 3;
        let before_ok = at > 0 && bytes[at - 1].is_ascii_whitespace();
        if let (true, Some(&q)) = (before_ok, bytes.get(at + 3)) {
            if q == b'"' || q == b'\'' {
                if let Some(len) = svg[at + 4..].find(q as char) {
                    ids.push(&svg[at + 4..at + 4 + len]);
                }
            }
        }
    }
    ids.retain(|id| !id.is_empty());
    if ids.is_empty() {
        return svg.to_string();
    }

    let mut out = String::with_capacity(svg.len() + ids.len() * 8 * prefix.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        // An id's definition: whitespace, `id=`, a quote.
        let definition = bytes[i] == b'i'
            && svg[i..].starts_with("id=")
            && i > 0
            && bytes[i - 1].is_ascii_whitespace()
            && matches!(bytes.get(i + 3), Some(b'"' | b'\''));
        // A reference: `#` after `url(` or after a quote, the id, then `)` or the same quote.
        let reference =
            bytes[i] == b'#' && (svg[..i].ends_with("url(") || (i > 0 && matches!(bytes[i - 1], b'"' | b'\'')));
        let (name_at, closers): (usize, &[u8]) = if definition {
            (i + 4, b"\"'")
        } else if reference {
            (i + 1, b")\"'")
        } else {
            i += 1;
            continue;
        };
        let name_len = svg[name_at..].find(|c: char| c.is_ascii() && closers.contains(&(c as u8)));
        match name_len {
            Some(len) if ids.contains(&&svg[name_at..name_at + len]) => {
                out.push_str(&svg[copied..name_at]);
                out.push_str(prefix);
                copied = name_at;
                i = name_at + len;
            }
            _ => i += 1,
        }
    }
    out.push_str(&svg[copied..]);
    out
}

/// `svg` with `viewBox="0 0 w h"` added to its root element when it has none but has numeric
/// `width` and `height`: without a viewBox, CSS can resize the element but not its drawing.
fn add_view_box(svg: &str) -> String {
    let Some(tag_end) = root_tag_end(svg) else { return svg.to_string() };
    if !svg.starts_with("<svg") {
        return svg.to_string();
    }
    let tag = &svg[..tag_end];
    if attribute(tag, "viewBox").is_some() {
        return svg.to_string();
    }
    let number = |name: &str| {
        let v = attribute(tag, name)?;
        let v = v.trim().trim_end_matches("px").trim();
        v.parse::<f64>().ok().filter(|n| n.is_finite() && *n > 0.0).map(|_| v.to_string())
    };
    match (number("width"), number("height")) {
        (Some(w), Some(h)) => format!("<svg viewBox=\"0 0 {w} {h}\"{}", &svg[4..]),
        _ => svg.to_string(),
    }
}

/// Where the root element's start tag ends (the index of its `>`), quotes respected.
fn root_tag_end(svg: &str) -> Option<usize> {
    let mut quote = None;
    for (i, b) in svg.bytes().enumerate() {
        match (quote, b) {
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), _) if b == q => quote = None,
            (None, b'>') => return Some(i),
            _ => {}
        }
    }
    None
}

/// The value of attribute `name` in a start tag, if present.
fn attribute<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let bytes = tag.as_bytes();
    let mut from = 0;
    while let Some(found) = tag[from..].find(name) {
        let at = from + found;
        from = at + name.len();
        if at == 0 || !bytes[at - 1].is_ascii_whitespace() {
            continue;
        }
        let rest = tag[from..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else { continue };
        let rest = rest.trim_start();
        let q = rest.chars().next()?;
        if q != '"' && q != '\'' {
            continue;
        }
        return rest[1..].find(q).map(|end| &rest[1..1 + end]);
    }
    None
}

const ICON_FIRST: &str =
    "<svg viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M3 3h2v10H3zM13 3v10L6 8z\"/></svg>";
const ICON_PREV: &str = "<svg viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M11 3v10L4 8z\"/></svg>";
const ICON_PLAY: &str =
    "<svg class=\"i-play\" viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M5 3v10l8-5z\"/></svg>";
const ICON_PAUSE: &str =
    "<svg class=\"i-pause\" viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M4 3h3v10H4zM9 3h3v10H9z\"/></svg>";
const ICON_NEXT: &str = "<svg viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M5 3v10l7-5z\"/></svg>";
const ICON_LAST: &str =
    "<svg viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"M11 3h2v10h-2zM3 3v10l7-5z\"/></svg>";

/// The page's style: light, system fonts only (nothing to fetch), one column on a phone.
const STYLE: &str = r#":root {
  --ink: #1f2933; --muted: #616e7c; --line: #d9dee4; --bg: #f4f5f7; --card: #ffffff;
  --accent: #2563c9; --accent-soft: #e3ecfb; --now: #ffe9a8; --now-edge: #d9a400;
  --bad: #c62828; --bad-soft: #fdecea; --ok: #2e7d32; --ok-soft: #e7f4e8; --warn: #8a5a00; --warn-soft: #fff4dc;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { max-width: 1240px; margin: 0 auto; padding: 18px 20px 6px; display: flex; flex-wrap: wrap;
  align-items: baseline; gap: 6px 14px; }
h1 { font-size: 1.3rem; margin: 0; font-weight: 650; overflow-wrap: anywhere; }
h2 { font-size: .8rem; margin: 0 0 8px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); font-weight: 600; }
.status { margin: 0; padding: 2px 10px; border-radius: 999px; font-size: .85rem; font-weight: 600; }
.status.ok { background: var(--ok-soft); color: var(--ok); }
.status.bad { background: var(--bad-soft); color: var(--bad); }
.status.warn { background: var(--warn-soft); color: var(--warn); }
main { max-width: 1240px; margin: 0 auto; padding: 10px 20px 28px; display: grid; gap: 18px;
  grid-template-columns: minmax(0, 7fr) minmax(0, 5fr); align-items: start; }
.side { display: grid; gap: 18px; min-width: 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 16px;
  box-shadow: 0 1px 2px rgba(16, 24, 40, .04); min-width: 0; }
figure.frame { margin: 0; }
figure.frame > svg { display: block; width: 100%; height: auto; max-width: 680px; max-height: 66vh; margin: 0 auto; }
figcaption { margin-top: 10px; text-align: center; color: var(--muted); font-size: .95rem; overflow-wrap: anywhere; }
figure.frame.illegal figcaption { color: var(--bad); }
.reason { margin: 12px 0 0; padding: 8px 12px; border-left: 4px solid var(--bad); background: var(--bad-soft);
  color: #7f1d1d; border-radius: 4px; overflow-wrap: anywhere; }
.legal { margin: 8px 0 0; color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
.legal strong { color: var(--ink); font-weight: 600; }
.legal code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace;
  background: var(--accent-soft); border-radius: 4px; padding: 0 4px; margin: 0 1px; color: var(--ink); }
.reason code { font: inherit; font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-weight: 700; }
.controls { margin-top: 14px; }
.buttons { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
button { display: inline-flex; align-items: center; justify-content: center; width: 42px; height: 36px; padding: 0;
  border: 1px solid var(--line); border-radius: 8px; background: #fff; color: var(--ink); cursor: pointer; }
button:hover:not(:disabled) { background: var(--accent-soft); border-color: #b7c9ee; }
button:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
button:disabled { opacity: .4; cursor: default; }
button svg { width: 16px; height: 16px; fill: currentColor; }
button.play { width: 52px; background: var(--accent); border-color: var(--accent); color: #fff; }
button.play:hover:not(:disabled) { background: #1d4fa3; border-color: #1d4fa3; }
button.play .i-pause, button.play[aria-pressed="true"] .i-play { display: none; }
button.play[aria-pressed="true"] .i-pause { display: block; }
#where { margin-left: auto; color: var(--muted); font-variant-numeric: tabular-nums; white-space: nowrap; }
input[type=range] { width: 100%; margin: 14px 0 4px; accent-color: var(--accent); }
.hint { margin: 4px 0 0; color: var(--muted); font-size: .8rem; }
.verdict ul { list-style: none; margin: 0; padding: 0; }
.verdict li { padding: 6px 0 6px 12px; border-left: 3px solid var(--line); margin: 4px 0; overflow-wrap: anywhere; }
.verdict li.ok { border-color: var(--ok); color: var(--ok); font-weight: 600; }
.verdict li.bad { border-color: var(--bad); color: var(--bad); font-weight: 600; }
.verdict li.warn { border-color: #d9a400; color: var(--warn); font-weight: 600; }
.verdict li.claim { font-size: .92rem; }
pre#record { position: relative; margin: 0; max-height: 60vh; overflow: auto; padding: 2px;
  white-space: pre-wrap; overflow-wrap: break-word;
  font: 14px/1.65 ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
  tab-size: 4; }
.move { border-radius: 4px; cursor: pointer; padding: 1px 1px; }
.move.after { color: #8d98a5; }
.move:hover { background: var(--accent-soft); }
.move.current { background: var(--now); box-shadow: 0 0 0 1px var(--now-edge); color: var(--ink); }
.move.illegal { color: var(--bad); font-weight: 700; text-decoration: underline wavy var(--bad); text-underline-offset: 3px; }
.move.illegal.current { background: var(--bad-soft); box-shadow: 0 0 0 1px var(--bad); }
.empty { color: var(--muted); text-align: center; padding: 40px 0; }
.path { margin: 12px 0 0; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 6px; padding: 6px 10px;
  background: var(--accent-soft); border-radius: 8px; font-size: .9rem; overflow-wrap: anywhere; }
.path button, .branches button { width: auto; height: auto; padding: 2px 10px; font: inherit; }
.path .back { margin-left: auto; }
.aside { margin: 12px 0 0; padding: 4px 0 4px 12px; border-left: 3px solid var(--accent); }
.aside p { margin: 0 0 6px; }
.glyph { color: var(--muted); }
.glyph b { color: var(--ink); font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
.comment { margin: 0 0 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.branches { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; color: var(--muted); font-size: .9rem; }
.branches button { color: var(--accent); font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
body:not(.js) .branches { display: none; }
@media (max-width: 820px) {
  main { grid-template-columns: minmax(0, 1fr); padding: 8px 10px 20px; gap: 12px; }
  header { padding: 14px 12px 4px; }
  .side { gap: 12px; }
  .card { padding: 12px; border-radius: 10px; }
  figure.frame > svg { max-height: none; }
  pre#record { max-height: 45vh; font-size: 13px; }
  button { width: 38px; }
  button.play { width: 46px; }
}
"#;

/// The page's behaviour: show one frame at a time, of the main line or of a variation, and keep
/// the record, slider, buttons, what is said beside the board and the address in step with it.
/// It reads everything from the page's elements; no data lives in the script, and it writes the
/// record's text (a variation's name) only as text.
const SCRIPT: &str = r##"(function () {
  "use strict";
  var body = document.body;
  var each = function (list, f) { Array.prototype.forEach.call(list, f); };
  var all = Array.prototype.slice.call(document.querySelectorAll("#frames > figure.frame"));
  if (!all.length) return;
  body.classList.add("js");
  var lineOf = function (el) { return Number(el.getAttribute("data-line") || 0); };
  // Each line's frames: 0 the main line, k the k-th variation.
  var lines = [];
  all.forEach(function (f) { (lines[lineOf(f)] = lines[lineOf(f)] || [])[Number(f.getAttribute("data-ply"))] = f; });
  // Where each variation branches from (its line and that line's frame), and its name.
  var info = [{ name: "Main line", from: 0, at: 0 }];
  each(document.querySelectorAll("#lines > span"), function (l) {
    info[lineOf(l)] = { name: l.textContent, from: Number(l.getAttribute("data-from")), at: Number(l.getAttribute("data-at")) };
  });
  var asides = Array.prototype.slice.call(document.querySelectorAll("#asides > .aside"));
  var record = document.getElementById("record");
  var moves = Array.prototype.slice.call(record.querySelectorAll(".move[data-ply]"));
  var byKey = {};
  moves.forEach(function (m) { byKey[lineOf(m) + ":" + m.getAttribute("data-ply")] = m; });
  var slider = document.getElementById("slider");
  var where = document.getElementById("where");
  var reason = document.getElementById("reason");
  var legal = document.getElementById("legal");
  var path = document.getElementById("path");
  var play = document.getElementById("play");
  var buttons = {
    first: document.getElementById("first"), prev: document.getElementById("prev"),
    next: document.getElementById("next"), last: document.getElementById("last")
  };
  var line = 0, current = -1, shownKey = null, pathLine = -1, timer = null;
  function last() { return lines[line].length - 1; }

  // Keeps the current move in view inside the record box, without scrolling the page itself.
  function reveal(el) {
    var top = el.offsetTop, bottom = top + el.offsetHeight, left = el.offsetLeft, right = left + el.offsetWidth;
    if (top < record.scrollTop) record.scrollTop = top - 8;
    else if (bottom > record.scrollTop + record.clientHeight) record.scrollTop = bottom - record.clientHeight + 8;
    if (left < record.scrollLeft) record.scrollLeft = left - 8;
    else if (right > record.scrollLeft + record.clientWidth) record.scrollLeft = right - record.clientWidth + 8;
  }

  // The variation shown, the lines it lies in, each a step back to where it left them, and the
  // way back to the line it left.
  function showPath() {
    if (pathLine === line) return;
    pathLine = line;
    path.textContent = "";
    path.hidden = line === 0;
    if (line === 0) return;
    var chain = [];
    for (var k = line; k !== 0; k = info[k].from) chain.unshift(k);
    path.appendChild(document.createTextNode("Variation: "));
    var crumb = function (k, at) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "crumb";
      b.textContent = info[k].name;
      b.title = "Back to " + (k === 0 ? "the main line" : info[k].name);
      b.addEventListener("click", function () { go(at, k); });
      return b;
    };
    path.appendChild(crumb(0, info[chain[0]].at));
    chain.forEach(function (k, i) {
      path.appendChild(document.createTextNode(" › "));
      if (i === chain.length - 1) {
        var b = document.createElement("strong");
        b.textContent = info[k].name;
        path.appendChild(b);
      } else {
        path.appendChild(crumb(k, info[chain[i + 1]].at));
      }
    });
    var back = document.createElement("button");
    back.type = "button";
    back.className = "back";
    back.id = "back";
    back.textContent = "↩ Back to " + (info[line].from === 0 ? "the main line" : info[info[line].from].name);
    back.title = "Back to the line this variation leaves (Esc)";
    back.addEventListener("click", leave);
    path.appendChild(back);
  }

  function show(n, k) {
    if (k === undefined) k = line;
    if (!lines[k]) k = 0;
    n = Math.max(0, Math.min(lines[k].length - 1, Math.floor(Number(n)) || 0));
    var key = k + ":" + n;
    if (key !== shownKey) {
      var frame = lines[k][n];
      all.forEach(function (f) { f.hidden = f !== frame; });
      asides.forEach(function (a) { a.hidden = lineOf(a) !== k || Number(a.getAttribute("data-ply")) !== n; });
      // The moves played on the way here: those of each line up to where the way leaves it.
      var upto = {};
      for (var l = k, p = n; ; p = info[l].at, l = info[l].from) {
        upto[l] = p;
        if (l === 0) break;
      }
      moves.forEach(function (m) {
        var ml = lineOf(m), mp = Number(m.getAttribute("data-ply"));
        m.classList.toggle("current", ml === k && mp === n);
        m.classList.toggle("after", !(ml in upto) || mp > upto[ml]);
      });
      if (byKey[key]) reveal(byKey[key]);
      line = k;
      current = n;
      shownKey = key;
    }
    body.setAttribute("data-ply", String(n));
    body.setAttribute("data-line", String(k));
    slider.max = String(last());
    slider.value = String(n);
    // The counter counts as the caption does: the frame says what.
    where.textContent = lines[k][n].getAttribute("data-counter");
    var quiet = reason && reason.getAttribute("data-always") !== "true" && !(k === 0 && lines[k][n].classList.contains("illegal"));
    if (reason) reason.hidden = quiet;
    if (legal) legal.hidden = quiet;
    buttons.first.disabled = buttons.prev.disabled = n === 0;
    buttons.next.disabled = buttons.last.disabled = n === last();
    showPath();
    var hash = (k ? "#line=" + k + "&" : "#") + "ply=" + n;
    if (location.hash !== hash) {
      try { history.replaceState(null, "", hash); } catch (e) { /* some file:// setups refuse; the page still works */ }
    }
  }

  // `#ply=N` opens frame N, `#line=K&ply=N` frame N of variation K; a hash that names no number
  // opens the start.
  function fromHash() {
    var p = /(?:^#|&)ply=(-?\d+)(?:&|$)/.exec(location.hash);
    var l = /(?:^#|&)line=(\d+)(?:&|$)/.exec(location.hash);
    return { ply: p ? Number(p[1]) : 0, line: l ? Number(l[1]) : 0 };
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    play.setAttribute("aria-pressed", "false");
    play.setAttribute("aria-label", "Play");
  }
  function start() {
    if (current >= last()) show(0);
    play.setAttribute("aria-pressed", "true");
    play.setAttribute("aria-label", "Pause");
    timer = setInterval(function () {
      if (current >= last()) stop(); else show(current + 1);
    }, 800);
  }
  function go(n, k) { stop(); show(n, k); }
  function step(d) { go(current + d); }
  // Back to the line the variation shown leaves, where it leaves it.
  function leave() { if (line !== 0) go(info[line].at, info[line].from); }

  buttons.first.addEventListener("click", function () { go(0); });
  buttons.prev.addEventListener("click", function () { step(-1); });
  buttons.next.addEventListener("click", function () { step(1); });
  buttons.last.addEventListener("click", function () { go(last()); });
  play.addEventListener("click", function () { if (timer === null) start(); else stop(); });
  slider.addEventListener("input", function () { go(slider.value); });
  record.addEventListener("click", function (e) {
    var m = e.target.closest ? e.target.closest(".move[data-ply]") : null;
    if (m) go(m.getAttribute("data-ply"), lineOf(m));
  });
  // A variation is stepped into at its first move.
  document.getElementById("asides").addEventListener("click", function (e) {
    var b = e.target.closest ? e.target.closest("button[data-go]") : null;
    if (b) go(1, Number(b.getAttribute("data-go")));
  });
  window.addEventListener("hashchange", function () { var h = fromHash(); go(h.ply, h.line); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    // The slider steps itself with the arrow keys; text fields keep theirs.
    var t = e.target;
    if (t && (t === slider || t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var to = null;
    if (e.key === "ArrowRight") to = current + 1;
    else if (e.key === "ArrowLeft") to = current - 1;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = last();
    else if (e.key === "Escape" && line !== 0) { e.preventDefault(); leave(); return; }
    if (to === null) return;
    e.preventDefault();
    go(to);
  });

  window.referee = {
    go: go,
    step: step,
    back: leave,
    get ply() { return current; },
    get line() { return line; },
    get last() { return last(); }
  };
  document.getElementById("controls").hidden = false;
  // With no hash the page opens where it stands without the script: the last position.
  var opened = fromHash();
  show(location.hash ? opened.ply : lines[0].length - 1, opened.line);
})();
"##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prolog_is_dropped() {
        let svg = "\u{feff}<?xml version=\"1.0\"?>\n<!DOCTYPE svg [ <!ENTITY a \"b\"> ]>\n<!-- c -->\n<svg/>\n";
        assert_eq!(strip_prolog(svg).trim_end(), "<svg/>");
        assert_eq!(strip_prolog("<!DOCTYPE svg PUBLIC \"x\" \"y\"><svg></svg>"), "<svg></svg>");
    }

    #[test]
    fn ids_and_their_references_are_scoped() {
        let svg = r##"<svg><defs><marker id="arrow"/><linearGradient id='g'/></defs><path marker-end="url(#arrow)" data-id="arrow" fill="url(#g)"/><use href="#arrow" xlink:href='#g'/><a href="#other"/></svg>"##;
        let out = scope_ids(svg, "f3-");
        assert_eq!(
            out,
            r##"<svg><defs><marker id="f3-arrow"/><linearGradient id='f3-g'/></defs><path marker-end="url(#f3-arrow)" data-id="arrow" fill="url(#f3-g)"/><use href="#f3-arrow" xlink:href='#f3-g'/><a href="#other"/></svg>"##
        );
        assert_eq!(scope_ids("<svg><circle r=\"1\"/></svg>", "f0-"), "<svg><circle r=\"1\"/></svg>");
    }

    #[test]
    fn a_view_box_is_added_only_when_missing() {
        assert_eq!(
            add_view_box("<svg width=\"10\" height=\"20px\"></svg>"),
            "<svg viewBox=\"0 0 10 20\" width=\"10\" height=\"20px\"></svg>"
        );
        let kept = "<svg viewBox=\"0 0 5 5\" width=\"10\" height=\"10\"></svg>";
        assert_eq!(add_view_box(kept), kept);
        let relative = "<svg width=\"100%\" height=\"10\"></svg>";
        assert_eq!(add_view_box(relative), relative);
        // `stroke-width` is not `width`.
        assert_eq!(attribute("<svg stroke-width=\"3\" width='4'", "width"), Some("4"));
    }

    #[test]
    fn status_colours() {
        assert_eq!(status_class("valid"), "ok");
        assert_eq!(status_class("illegal move"), "bad");
        assert_eq!(status_class("undecided"), "warn");
    }
}
