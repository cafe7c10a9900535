"""referee.verify against `referee verify --format json`: every verdict of samples/ and of a
corpus of random games (small files side by side, and a file large enough to be read as a
stream), with one thread and with several; inputs that cannot be read or hold no record."""

import json
import os
import pickle
from collections.abc import Mapping

import pytest

import referee

from conftest import SAMPLES, json_lines

GAMES = ["quadraphages", "hexaphages", "quarod", "petrify", "vadrantir", "splinter"]


def command_line(cli, *args):
    return json_lines(cli("verify", "--format", "json", *args).stdout)


def test_a_verdict_reads_as_its_json_object(cli):
    """A Verdict is the mapping of its JSON line: every key, dict(), equality both ways, the
    attributes every run reads, pickling, and the object of a file without records."""
    printed = cli("verify", "--format", "json", SAMPLES).stdout.splitlines()
    verdicts = list(referee.verify([SAMPLES], jobs=2))
    assert [v.json for v in verdicts] == printed
    for v, line in zip(verdicts, printed):
        want = json.loads(line)
        assert isinstance(v, Mapping) and isinstance(v, referee.Verdict)
        assert (v.status, v.file, v.index, v.game) == (want["status"], want["file"], want.get("index"), want.get("game"))
        assert dict(v) == want and v.to_dict() == want and want == v and v == want
        assert list(v) == list(want) and len(v) == len(want) and set(v.keys()) == set(want)
        assert list(v.items()) == list(want.items()) and list(v.values()) == list(want.values())
        assert all(v[k] == want[k] and k in v for k in want)
        assert v.get("no such key", 7) == 7 and "no such key" not in v
        assert pickle.loads(pickle.dumps(v)) == v
    illegal = next(v for v in verdicts if v.status == "illegal")
    assert illegal["errors"][0]["kind"] == "illegal"
    assert repr(illegal) == f'Verdict(file="{illegal.file}", index={illegal.index}, status="illegal")'
    assert referee.Verdict(illegal.json) == illegal
    with pytest.raises(KeyError):
        illegal["no such key"]
    # The copy is the caller's: the verdict keeps its own.
    copy = illegal.to_dict()
    copy["status"] = "valid"
    assert illegal["status"] == "illegal" and illegal.to_dict()["status"] == "illegal"


def test_samples(cli):
    want = command_line(cli, SAMPLES)
    assert len(want) > 90
    assert list(referee.verify([SAMPLES])) == want
    assert list(referee.verify(str(SAMPLES), jobs=1)) == want
    assert list(referee.verify([SAMPLES], jobs=3)) == command_line(cli, "-j", "3", SAMPLES)


@pytest.fixture(scope="module")
def corpus(cli, tmp_path_factory):
    """Random games of every game, a file each, and one file of more than a megabyte (verified as a
    stream, its records side by side), in a folder with a subfolder and files verify passes over."""
    root = tmp_path_factory.mktemp("corpus")
    (root / "more").mkdir()
    for k, game in enumerate(GAMES):
        cli("random", "--game", game, "--count", 25, "--seed", 100 + k, "--out", root / "more", check=True)
    big = [cli("random", "--game", game, "--count", 300, "--seed", 7, check=True).stdout for game in GAMES]
    (root / "big.pgn").write_text("\n".join(big))
    assert (root / "big.pgn").stat().st_size > 1 << 20
    (root / ".hidden.txt").write_text((root / "big.pgn").read_text()[:1000])
    (root / "notes.md").write_text("not read")
    (root / "prose.txt").write_text("no record in here\n")
    (root / "latin1.txt").write_bytes(b"\n".join([big[2].split("\n\n[")[0].encode(), b"{caf\xe9}"]))
    return root


def test_corpus(cli, corpus):
    # As JSON lines, byte for byte what the command line prints.
    printed = cli("verify", "--format", "json", corpus).stdout.splitlines()
    assert list(referee.verify([corpus], as_json=True)) == printed
    want = command_line(cli, corpus)
    assert len(want) > 6 * 325
    statuses = {v["status"] for v in want}
    assert {"valid", "no_record", "unreadable"} <= statuses
    assert list(referee.verify([corpus], jobs=2)) == want
    assert list(referee.verify([corpus], jobs=1)) == command_line(cli, "-j", "1", corpus)


def test_files_and_folders_in_order(cli, corpus):
    paths = [corpus / "prose.txt", SAMPLES / "quarod", corpus / "big.pgn", corpus / "latin1.txt", corpus / "notes.md"]
    want = command_line(cli, *paths)
    assert list(referee.verify(paths)) == want
    # A folder with no file to read, as the command line says it.
    empty = corpus / "empty"
    empty.mkdir(exist_ok=True)
    [v] = list(referee.verify([empty]))
    assert v == command_line(cli, empty)[0]
    assert v["status"] == "no_record"
    assert list(referee.verify([corpus / "more"], ext=["md"])) == command_line(cli, "--ext", "md", corpus / "more")


def test_game_forced(cli, tmp_path):
    bare = tmp_path / "bare.txt"
    bare.write_text("1. c1d1 d3c3 2. b4a4 a3b3 *\n")
    want = command_line(cli, "--game", "quarod", bare)
    assert list(referee.verify([bare], game="quarod")) == want
    assert want[0]["status"] == "valid"


def test_missing_path(tmp_path):
    with pytest.raises(referee.ReadError) as e:
        referee.verify([SAMPLES, tmp_path / "missing"])
    assert e.value.filename == str(tmp_path / "missing")
    with pytest.raises(ValueError, match="no game is named"):
        referee.verify([SAMPLES], game="chess")


def test_stopping_early(corpus):
    verdicts = referee.verify([corpus], jobs=2)
    first = [next(verdicts) for _ in range(3)]
    assert all(v["index"] >= 1 for v in first)
    verdicts.close()
    assert list(verdicts) == []
    # Dropped half read: the run ends on its own.
    for _ in range(3):
        it = iter(referee.verify([corpus]))
        next(it)
        del it


def test_verdicts_are_read_without_the_gil(corpus):
    """Two threads iterate two runs at once, each waiting for its verdicts without the GIL."""
    import threading

    results = {}

    def run(k):
        results[k] = sum(1 for _ in referee.verify([corpus], jobs=1))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == results[1] > 0
