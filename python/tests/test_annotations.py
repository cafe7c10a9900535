"""Record.tags, Record.mainline() and referee.Move against the command line: every comment, glyph
and variation of the annotated records (tests/annotated/ and the annotated samples) as
`referee convert --to json` writes them, and each move's turn as `referee convert --to canonical`
numbers it."""

import json
import re

import pytest

import referee

from conftest import REPO, SAMPLES, sample_files

ANNOTATED = sorted((REPO / "tests" / "annotated").glob("*.txt")) + [
    SAMPLES / "quarod" / "annotated-lesson.txt",
    SAMPLES / "quadraphages" / "annotated-club-notes.txt",
]


def name(path):
    return str(path.relative_to(REPO))


def texts(notes):
    """The texts of the comments of a document's list of notes, in order."""
    return [n.get("comment", n.get("line_comment")) for n in notes if "variation" not in n]


def same_line(moves, entries, before, counts):
    """The moves of a line are the document's, with all that was written after each, and the
    variations' moves in turn."""
    assert len(moves) == len(entries)
    for k, (m, e) in enumerate(zip(moves, entries)):
        assert isinstance(m, referee.Move)
        assert (m.text, m.canonical, m.ply) == (e["token"], e["canonical"], e["ply"])
        assert m.mover == (e["mover"] or None)
        assert m.code == (e["code"] or None)
        assert m.glyphs == e.get("glyphs", [])
        after = e.get("after", [])
        assert m.comments == texts(after)
        assert m.comments_before == (texts(before) if k == 0 else [])
        variations = [n["variation"] for n in after if "variation" in n]
        assert len(m.variations) == len(variations)
        for line, v in zip(m.variations, variations):
            same_line(line, v["moves"], v.get("before", []), counts)
        position = m.position()
        if e["code"]:
            assert position.code == e["code"]
        else:
            assert position is None
        counts["comments"] += len(m.comments) + len(m.comments_before)
        counts["glyphs"] += len(m.glyphs)
        counts["variations"] += len(m.variations)


@pytest.mark.parametrize("path", ANNOTATED, ids=name)
def test_every_comment_glyph_and_variation_comes_through(cli, path):
    documents = []
    for r in referee.open(path):
        doc = json.loads(cli("convert", "--to", "json", "--record", r.index, path, check=True).stdout)
        counts = {"comments": 0, "glyphs": 0, "variations": 0}
        same_line(r.mainline(), doc["moves"], [], counts)
        assert r.comments_before() == texts(doc.get("before", []))
        assert r.comments_after() == texts(doc.get("after_result", []))
        counts["comments"] += len(r.comments_before()) + len(r.comments_after())
        documents.append(counts)
    # Every annotated record has all three.
    assert documents and all(min(c.values()) > 0 for c in documents)


def test_the_annotated_records_hold_what_their_text_writes():
    """Counted in the text itself: a `{` or a `;` opens each comment, a `(` each variation."""
    for path in ANNOTATED:
        for r in referee.open(path):
            comments = len(r.comments_before()) + len(r.comments_after())
            variations = 0
            lines = [r.mainline()]
            while lines:
                for m in lines.pop():
                    comments += len(m.comments) + len(m.comments_before)
                    variations += len(m.variations)
                    lines.extend(m.variations)
            assert variations == r.text.count("(")
            assert comments == r.text.count("{") + r.text.count(";")


def tags_written(text):
    return re.findall(r'\[(\w+)\s+"([^"]*)"\]', text)


@pytest.mark.parametrize("path", ANNOTATED + sample_files(), ids=name)
def test_tags_are_the_records_in_its_order(cli, path):
    for r in referee.open(path):
        tags = r.tags
        assert isinstance(tags, dict)
        if r.text.lstrip().startswith("["):
            assert list(tags.items()) == tags_written(r.text)
            converted = cli("convert", "--to", "json", "--record", r.index, path)
            if converted.returncode == 0:
                # The document keeps them but its own fields, in the canonical order.
                doc = json.loads(converted.stdout)
                own = {"game", "size", "players", "position"}
                assert sorted(map(tuple, doc["tags"])) == sorted((k, v) for k, v in tags.items() if k.lower() not in own)
        else:
            # The published notation: its title line and its column header.
            assert set(tags) <= {"Title", "Header"}
            if "Header" in tags:
                assert re.fullmatch(r"_[A-Za-z][xoXO]_ _[A-Za-z][xoXO]_", tags["Header"])
            if "Title" in tags:
                assert tags["Title"] in r.text


def test_published_tags():
    [r] = referee.open(SAMPLES / "quadraphages" / "annotated-club-notes.txt")
    assert r.tags == {"Title": "QUADRAPHAGES", "Header": "_xx_ _oo_"}
    [r] = referee.open(SAMPLES / "quadraphages" / "designers-game-1.txt")
    assert r.tags == {"Header": "_Bo_ _Jx_"}


def canonical_lines(text):
    """The lines of play of a canonical record: each a list of (move number, move, variations),
    read from its movetext (comments, glyphs and the result left out)."""
    body = text.split("\n\n", 1)[1].split("\n\nFinal Position:", 1)[0]
    body = re.sub(r"\{[^}]*\}", " ", body)
    body = re.sub(r";[^\n]*", " ", body)
    words = body.replace("(", " ( ").replace(")", " ) ").split()
    at = 0

    def line(number):
        nonlocal at
        moves = []
        while at < len(words):
            w = words[at]
            at += 1
            if w == "(":
                moves[-1][2].append(line(number))
            elif w == ")":
                return moves
            elif re.fullmatch(r"\d+\.(\.\.)?", w):
                number = int(w.rstrip("."))
            elif re.fullmatch(r"\$\d+", w) or re.fullmatch(r"[01](-[01])+|\*", w):
                continue
            else:
                moves.append((number, re.sub(r"[!?]+$", "", w), []))
        return moves

    return line(None)


def turns_of(moves):
    return [(m.turn, m.text, [turns_of(v) for v in m.variations]) for m in moves]


@pytest.mark.parametrize("path", ANNOTATED + sample_files(), ids=name)
def test_turns_are_numbered_as_the_canonical_layout_numbers_them(path):
    for r in referee.open(path):
        if r.game in ("quadraphages", "hexaphages") or r.status not in ("valid", "refuted"):
            continue
        lines = canonical_lines(r.canonical())
        assert turns_of(r.mainline()) == [(n, w, v) for n, w, v in lines]


def test_turns_of_the_published_notation_are_its_move_lines():
    for path in sample_files() + ANNOTATED:
        for r in referee.open(path):
            if r.game not in ("quadraphages", "hexaphages") or r.status not in ("valid", "refuted"):
                continue
            turns = [m.turn for m in r.mainline()]
            # Lines end in any way (samples/mixed/ has a file of old Mac line ends).
            numbered = [int(n.group(1)) for n in map(re.compile(r"\s*(\d+)\.\s").match, r.text.splitlines()) if n]
            assert turns == sorted(turns) and set(turns) == set(numbered)
            for m in r.mainline():
                for v in m.variations:
                    assert {w.turn for w in v} == {m.turn}


def test_a_move_says_what_it_is():
    [r] = referee.open(REPO / "tests" / "annotated" / "quarod-club-night.txt")
    first, second = r.mainline()[:2]
    assert (first.text, first.ply, first.turn, first.mover) == ("c1d1", 1, 1, "Black")
    assert first.comments == ["Bo answers at once [%arrow c1d1 red]"]
    assert second.glyphs == [5] and second.mover == "White"
    assert repr(first) == '<Move "c1d1": ply=1, turn=1>'
    assert first.position() == r.position(1)
    assert first.position().svg().count("<svg") == 1
    # A move not played: the misprint kept in a variation of the errata.
    [h] = referee.open(REPO / "tests" / "annotated" / "hexaphages-errata.txt")
    unplayed = [v[0] for m in h.mainline() for v in m.variations if v[0].code is None]
    assert [(m.text, m.mover, m.position()) for m in unplayed] == [("e4j1", None, None)]


def test_annotations_of_a_record_that_does_not_replay_to_its_end():
    [r] = referee.open(SAMPLES / "quarod" / "broken" / "illegal-same-square.txt")
    with pytest.raises(referee.ConvertError) as e:
        r.mainline()
    assert e.value.line == 6
    with pytest.raises(referee.ConvertError):
        r.comments_before()
    # Its tags are read all the same.
    assert r.tags["Game"] == "Quarod"
