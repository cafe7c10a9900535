"""referee.read, referee.open and referee.Record against the command line on samples/: each record's
verdict is the line `referee verify --format json` prints, its document and canonical layout what
`referee convert` writes, its moves and positions those of the document."""

import errno
import json

import pytest

import referee

from conftest import SAMPLES, json_lines, sample_files

FILES = sample_files()


def name(path):
    return str(path.relative_to(SAMPLES.parent))


@pytest.mark.parametrize("path", FILES, ids=name)
def test_verdicts_are_the_command_lines(cli, path, monkeypatch):
    # Relative paths, so that the verdicts' "file" is the same text on both sides.
    monkeypatch.chdir(SAMPLES.parent)
    want = json_lines(cli("verify", "--format", "json", name(path)).stdout)
    records = list(referee.open(name(path)))
    assert [r.verdict for r in records] == want
    assert [json.loads(r.verdict_json()) for r in records] == want
    # The same text read from a string, named alike.
    text = path.read_bytes().decode("utf-8")
    assert [r.verdict for r in referee.read(text, name=name(path))] == want
    for r, v in zip(records, want):
        assert (r.index, r.game, r.status, r.file) == (v["index"], v["game"], v["status"], v["file"])
        assert r.text.strip() and r.text in text
        assert repr(r).startswith(f"<Record {r.index} of ")


@pytest.mark.parametrize("path", FILES, ids=name)
def test_conversions_are_the_command_lines(cli, path):
    for r in referee.open(path):
        as_json = cli("convert", "--to", "json", "--record", r.index, path)
        canonical = cli("convert", "--to", "canonical", "--record", r.index, path)
        if as_json.returncode == 0:
            assert r.to_json() == as_json.stdout
            assert r.canonical() == canonical.stdout
            doc = json.loads(as_json.stdout)
            # The moves and positions of the replay: the document's.
            assert r.moves == [m["canonical"] for m in doc["moves"]]
            codes = [p.code for p in r.positions()]
            assert codes == [doc["start_code"]] + [m["code"] for m in doc["moves"]]
            assert r.position(0).code == doc["start_code"]
            assert r.position().code == codes[-1]
            if doc["moves"]:
                assert r.position(len(doc["moves"])).code == doc["moves"][-1]["code"]
            with pytest.raises(IndexError):
                r.position(len(doc["moves"]) + 1)
        else:
            # Refused: a ConvertError, saying where, as the command line says why.
            assert as_json.returncode == 1 and canonical.returncode == 1
            with pytest.raises(referee.ConvertError) as e:
                r.to_json()
            with pytest.raises(referee.ConvertError):
                r.canonical()
            assert isinstance(e.value, ValueError)
            # The command line says it as `FILE:LINE:COLUMN: KIND: MESSAGE`.
            assert e.value.line is not None
            said = f"{path}:{e.value.line}:{e.value.column}: "
            assert said in as_json.stderr
            message = str(e.value).rsplit(" (line ", 1)[0]
            assert message in as_json.stderr.split(said, 1)[1].splitlines()[0]


def test_moves_replay_as_positions():
    """A record's moves, played on its start, reach its positions: the moves a Record gives are
    moves a Position takes."""
    for path in FILES:
        for r in referee.open(path):
            try:
                positions = r.positions()
            except referee.ConvertError:
                assert r.moves == []
                continue
            p = positions[0]
            for m, after in zip(r.moves, positions[1:]):
                p = p.play(m)
                assert p == after


def test_a_record_with_no_start():
    text = '[Game "Quarod"]\n[Size "1"]\n\n1. a1b1 *\n'
    [r] = referee.read(text)
    assert r.status == "undecided" or r.status == "syntax_error"
    assert r.moves == []
    with pytest.raises(referee.ConvertError) as e:
        r.position()
    assert e.value.line == 2 or e.value.line is None
    with pytest.raises(referee.ConvertError):
        r.canonical()


def test_read_finds_records_in_prose():
    text = "Some prose.\n\n[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n\nMore prose, then\n" \
           "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 c1d1 *\n"
    a, b = referee.read(text)
    assert (a.index, a.status, a.game, a.moves) == (1, "valid", "quarod", ["c1d1", "d3c3", "b4a4", "a3b3"])
    assert (b.index, b.status, b.moves) == (2, "illegal", ["c1d1"])
    error = b.verdict["errors"][0]
    assert (error["line"], error["column"], error["token"]) == (12, 9, "c1d1")
    assert b.verdict["file"] == "<string>"
    assert a.position().code == a.verdict["position"]
    assert referee.read("nothing here") == []
    # --game: bare movetext read as that game.
    [c] = referee.read("1. c1d1 d3c3 *\n", game="quarod")
    assert c.game == "quarod" and c.status == "valid"
    with pytest.raises(ValueError, match="no game is named"):
        referee.read("", game="chess")


def test_open_errors(tmp_path):
    with pytest.raises(referee.ReadError) as e:
        referee.open(tmp_path / "missing.txt")
    assert isinstance(e.value, OSError)
    assert e.value.filename == str(tmp_path / "missing.txt")
    assert e.value.errno == 2
    assert str(e.value) == f"[Errno 2] cannot open: No such file or directory: '{tmp_path / 'missing.txt'}'"
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b'[Game "Quarod"]\n[Size "4"]\n\n1. c1d1 *\n{caf\xe9}\n')
    with pytest.raises(referee.ReadError) as e:
        list(referee.open(bad))
    assert (e.value.line, e.value.column, e.value.errno) == (5, 5, errno.EILSEQ)
    assert e.value.strerror == "not valid UTF-8: byte 0xE9 at line 5, column 5"
    assert e.value.filename == str(bad)
    with pytest.raises(referee.ReadError) as e:
        list(referee.open(tmp_path))
    assert e.value.errno == errno.EISDIR
