"""Record.repair() against `referee repair --format json` (and `--write`), and Record.html() and
_repr_html_() against `referee render --format html` on samples/."""

import html
import re
import shutil

import pytest

import referee

from conftest import REPO, SAMPLES, json_lines, sample_files

FILES = sample_files()


def name(path):
    return str(path.relative_to(REPO))


def without_ours(candidate):
    return {k: v for k, v in candidate.items() if k not in ("text", "verifies")}


@pytest.mark.parametrize("path", FILES, ids=name)
def test_repairs_are_the_command_lines(cli, path, monkeypatch):
    monkeypatch.chdir(REPO)
    searched = 0
    for r in referee.open(name(path)):
        [want] = json_lines(cli("repair", "--format", "json", "--record", r.index, name(path)).stdout)
        repairs = r.repair()
        assert [without_ours(c) for c in repairs] == want["candidates"]
        assert (r.status == "illegal") >= bool(repairs)
        for c in repairs:
            searched += 1
            # The text with the repair made: the record's text with each edit's `to` in place, where
            # the notation can write it (it has no word for a phase that did not happen).
            if all(e["expressible"] for e in c["edits"]):
                assert c["text"] != r.text
                assert all(" ".join(e["to"].split()) in " ".join(c["text"].split()) for e in c["edits"])
            [again] = referee.read(c["text"])
            assert c["verifies"] == (again.status == "valid")
    if "broken" in path.parts and path.name.startswith("illegal-"):
        assert searched > 0


def test_a_repair_is_what_repair_write_writes(cli, tmp_path):
    written = 0
    for path in SAMPLES.glob("*/broken/illegal-*.txt"):
        copy = tmp_path / path.name
        shutil.copy(path, copy)
        if cli("repair", "--write", copy).returncode != 0:
            continue
        [r] = referee.open(path)
        # The best repair that makes the record stand and that the notation can write.
        best = next(c for c in r.repair() if c["verifies"] and all(e["expressible"] for e in c["edits"]))
        text = path.read_text()
        assert copy.read_text() == text.replace(r.text, best["text"], 1)
        written += 1
    assert written >= 10


def test_repair_options():
    [r] = referee.open(SAMPLES / "quarod" / "broken" / "illegal-same-square.txt")
    assert len(r.repair()) == 3
    [one] = r.repair(1)
    assert one == r.repair()[0] and one["verifies"] and one["replays_to_end"]
    assert len(r.repair(limit=5, max_edits=1, time_limit=5)) == 5
    for bad in ({"limit": 0}, {"max_edits": 0}, {"time_limit": 0}, {"time_limit": float("nan")}):
        with pytest.raises(ValueError):
            r.repair(**bad)
    [valid] = referee.open(SAMPLES / "quarod" / "random-size-4.txt")
    assert valid.repair() == []


PAGES = [
    SAMPLES / "quarod" / "annotated-lesson.txt",
    SAMPLES / "quadraphages" / "annotated-club-notes.txt",
    SAMPLES / "quarod" / "broken" / "illegal-same-square.txt",
    SAMPLES / "quarod" / "broken" / "claim-refuted.txt",
    SAMPLES / "splinter" / "random-3-players.txt",
    REPO / "tests" / "annotated" / "hexaphages-errata.txt",
    REPO / "tests" / "annotated" / "vadrantir-seven-errata.txt",
]


@pytest.mark.parametrize("path", PAGES, ids=name)
def test_the_page_is_the_command_lines(cli, path, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    for r in referee.open(name(path)):
        out = tmp_path / str(r.index)
        cli("render", "--format", "html", "--record", r.index, "--out", out, name(path))
        page = (out / f"{path.stem}-{r.index}.html").read_text()
        assert r.html() == page


def test_a_notebook_shows_the_page_in_a_frame_of_its_own():
    [r] = referee.open(SAMPLES / "quarod" / "broken" / "illegal-same-square.txt")
    shown = r._repr_html_()
    frame = re.fullmatch(r'<iframe srcdoc="([^"]*)" title="([^"]*)" style="([^"]*)" loading="lazy"></iframe>', shown)
    assert frame, shown[:200]
    # Nothing of the page is markup of the notebook's: its style and script are inside the frame.
    assert "<style" not in shown and "<script" not in shown
    page = html.unescape(frame.group(1))
    assert page == r.html()
    assert page.count("<svg") >= len(r.moves) + 1
    assert "illegal: Quarod, 3 moves replayed" in page
    assert "height: 720px" in frame.group(3)


def test_a_record_that_cannot_be_drawn_says_why():
    [r] = referee.read('[Game "Quarod"]\n[Size "4"]\n\n1. c1d1 zz99 <b> *\n')
    assert r.status == "syntax_error"
    page = r.html()
    assert "<svg" not in page and "syntax error" in page and "&lt;b&gt;" in page
    assert r.verdict["errors"][0]["message"] in html.unescape(page)
    assert r._repr_html_().startswith("<iframe srcdoc=")
