"""referee.open as a stream (records found and judged as the file is read, one at a time), and the
options read and open share with `referee verify`: --search-limit and --lenient."""

import errno
import json
import os
import threading

import pytest

import referee

from conftest import SAMPLES, json_lines, sample_files

BROKEN = sorted(p for p in sample_files() if "broken" in p.parts)
CLAIMS = sorted(SAMPLES.glob("quadraphages/claim-before-the-end-*.txt")) + sorted(
    SAMPLES.glob("quadraphages/broken/claim-before-the-end-*.txt")
)

RECORD = '[Game "Quarod"]\n[Size "4"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n\n'


def test_open_gives_the_records_one_at_a_time(tmp_path):
    path = tmp_path / "games.txt"
    path.write_text(RECORD * 3)
    records = referee.open(path)
    assert isinstance(records, referee.Records) and not isinstance(records, list)
    assert iter(records) is records
    first = next(records)
    assert (first.index, first.status, first.text) == (1, "valid", RECORD.strip())
    assert [r.index for r in records] == [2, 3]
    with pytest.raises(StopIteration):
        next(records)
    assert repr(records) == f"<Records of {str(path)!r}>".replace("'", '"')


def test_open_is_a_context_manager_that_stops_reading(tmp_path):
    path = tmp_path / "games.txt"
    path.write_text(RECORD * 50)
    with referee.open(path) as records:
        first = next(records)
    assert list(records) == []
    # The records taken stay whole.
    assert first.moves == ["c1d1", "d3c3", "b4a4", "a3b3"] and first.canonical()
    records = referee.open(path)
    next(records)
    records.close()
    records.close()
    assert list(records) == []


def test_list_of_open_is_read(tmp_path):
    """`list(referee.open(path))` is what `read` finds in the file's text, verdict for verdict."""
    for path in sample_files():
        text = path.read_bytes().decode("utf-8")
        opened, read = list(referee.open(path)), referee.read(text, name=str(path))
        assert [r.verdict_json() for r in opened] == [r.verdict_json() for r in read]
        assert [r.text for r in opened] == [r.text for r in read]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_open_judges_a_record_before_the_rest_of_the_file_is_written(tmp_path):
    """From a named pipe: the first record is given while its writer still holds the rest back, so
    the file is not read whole before the records come."""
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    go_on = threading.Event()

    def write():
        with open(fifo, "w") as pipe:
            pipe.write(RECORD)
            pipe.flush()
            go_on.wait(60)
            pipe.write(RECORD.replace("a3b3", "a3a3"))

    writer = threading.Thread(target=write)
    writer.start()
    try:
        records = referee.open(fifo)
        first = next(records)
        assert not go_on.is_set() and (first.index, first.status) == (1, "valid")
    finally:
        go_on.set()
    rest = list(records)
    writer.join()
    assert [(r.index, r.status) for r in rest] == [(2, "illegal")]


def test_the_records_before_a_byte_that_is_not_utf8_come_first(tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes((RECORD * 3).encode() + b"{caf\xe9}\n" + RECORD.encode())
    records = referee.open(bad)
    # The third record may yet have a final diagram, which the lines after it would hold: it is
    # not judged, as `referee verify` does not judge it.
    assert [next(records).index, next(records).index] == [1, 2]
    with pytest.raises(referee.ReadError) as e:
        next(records)
    assert (e.value.line, e.value.column, e.value.errno) == (16, 5, errno.EILSEQ)
    assert list(records) == []


def test_records_keep_the_files_places(tmp_path):
    """A record keeps its own lines only, and gives the file's lines and columns all the same."""
    path = tmp_path / "games.txt"
    path.write_text("prose\n" * 1000 + RECORD + RECORD.replace("a3b3", "a3a3"))
    ok, illegal = referee.open(path)
    assert (ok.verdict["line"], illegal.verdict["line"]) == (1001, 1006)
    assert illegal.verdict["errors"][0]["line"] == 1009
    with pytest.raises(referee.ConvertError) as e:
        illegal.to_json()
    assert (e.value.line, e.value.column) == (1009, 22)
    assert illegal.repair()[0]["edits"][0]["line"] == 1009


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_lenient_is_the_command_lines(cli, path, monkeypatch):
    monkeypatch.chdir(SAMPLES.parent)
    name = str(path.relative_to(SAMPLES.parent))
    want = json_lines(cli("verify", "--format", "json", "--lenient", name).stdout)
    assert [r.verdict for r in referee.open(name, lenient=True)] == want
    text = path.read_bytes().decode("utf-8")
    assert [r.verdict for r in referee.read(text, name=name, lenient=True)] == want


def test_lenient_goes_on_past_an_illegal_move():
    text = RECORD.replace("d3c3", "c1d1")
    [strict], [lenient] = referee.read(text), referee.read(text, lenient=True)
    assert len(strict.verdict["errors"]) == 1
    assert lenient.verdict["moves"] > strict.verdict["moves"]


@pytest.mark.parametrize("limit", [1, 50, 250000])
def test_search_limit_is_the_command_lines(cli, limit, monkeypatch):
    monkeypatch.chdir(SAMPLES.parent)
    said = set()
    for path in CLAIMS:
        name = str(path.relative_to(SAMPLES.parent))
        want = json_lines(cli("verify", "--format", "json", "--search-limit", limit, name).stdout)
        got = [r.verdict for r in referee.open(name, search_limit=limit)]
        assert got == want
        said.update(c["reason"] for v in got for c in v["claims"] if c.get("reason"))
    # A small budget stops a search: the option is heard.
    assert ("search_limit" in said) == (limit < 250000)


def test_options_are_checked():
    with pytest.raises(ValueError, match="no game is named"):
        referee.open(SAMPLES / "quarod" / "random-size-4.txt", game="chess")
    with pytest.raises(OverflowError):
        referee.read(RECORD, search_limit=-1)
    assert json.loads(referee.read(RECORD, search_limit=0)[0].verdict_json())["status"] == "valid"
