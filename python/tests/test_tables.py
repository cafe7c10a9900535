"""referee.verify_table and referee.to_parquet against the command line: every row the line
`referee verify --format json` prints (read back from the typed columns, byte for byte) and the
cells `--format csv` writes; the rows of moves the documents `referee convert --to json` writes
and the records' positions; Parquet files read back; the package without pyarrow."""

import csv
import io
import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import referee
import referee.tables

from conftest import SAMPLES, json_lines

# Fields the JSON leaves out (null in the table) rather than writing null.
LEFT_OUT = {
    "verdict": ["score_with_stones"],
    "errors": ["variation", "alternatives"],
    "claims": ["violations_accepted"],
}

# Two records with an illegal move inside a variation (a problem with `variation`), the second
# with one on its main line after it too: the CSV's first problem is the main line's.
VARIATIONS = """[Game "Quarod"]
[Size "4"]

1. c1d1 (1. c1c9) d3c3 2. b4a4 a3b3 *

[Game "Quarod"]
[Size "4"]

1. c1d1 (1. c1c9) d3c3 2. b4a4 a3a9 *
"""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """samples/, a file of records with illegal moves in variations, a file that is not UTF-8 and
    one that holds no record: every kind of row."""
    root = tmp_path_factory.mktemp("inputs")
    (root / "variations.txt").write_text(VARIATIONS)
    (root / "latin1.txt").write_bytes(b"1. c1d1 d3c3 {caf\xe9}\n")
    (root / "prose.txt").write_text("no record in here\n")
    return [SAMPLES, root / "variations.txt", root / "latin1.txt", root / "prose.txt"]


def points(pairs):
    """A map column's value as the JSON's object: whole numbers as integers."""
    return {player: int(p) if p.is_integer() else p for player, p in pairs}


def as_verdict(row):
    """A table's row as the JSON object of its verdict: the flat columns dropped, the fields the
    JSON leaves out left out, the maps as objects."""
    v = {k: value for k, value in row.items() if k not in referee.tables.FLAT_COLUMNS}
    v["score"] = points(v["score"])
    if v["score_with_stones"] is None:
        del v["score_with_stones"]
    else:
        v["score_with_stones"] = points(v["score_with_stones"])
    for name in ("errors", "claims"):
        for item in v[name]:
            for field in LEFT_OUT[name]:
                if item[field] is None:
                    del item[field]
    return v


def dumps(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def test_rows_are_the_json_lines(cli, inputs):
    printed = cli("verify", "--format", "json", *inputs).stdout.splitlines()
    table = referee.verify_table(inputs)
    assert table.schema == referee.tables.schema()
    assert table.num_rows == len(printed) > 90
    rows = table.to_pylist()
    for row, line in zip(rows, printed):
        assert dumps(as_verdict(row)) == line
    statuses = {row["status"] for row in rows}
    assert {"valid", "illegal", "refuted", "unreadable", "no_record"} <= statuses
    assert any(e.get("variation") for row in rows for e in row["errors"])
    assert any(row["score_with_stones"] for row in rows)
    # The flat columns come after the JSON line's fields, in the CSV's order.
    fields = list(json.loads(printed[0]))
    assert table.column_names == fields + referee.tables.FLAT_COLUMNS
    # Several threads, one, and batches of a few rows: the same table.
    assert referee.verify_table(inputs, jobs=1).equals(table)


def test_batches_make_one_table(inputs, monkeypatch):
    table = referee.verify_table(inputs)
    monkeypatch.setattr(referee.tables, "_BATCH_ROWS", 7)
    small = referee.verify_table(inputs, jobs=2)
    assert small.column("file").num_chunks == -(-table.num_rows // 7)
    assert small.equals(table)


def test_types(inputs):
    table = referee.verify_table(inputs)
    types = {f.name: f.type for f in table.schema}
    for name in ("schema", "index", "line", "moves", "problems", "problem_line", "problem_column"):
        assert types[name] == pa.int64()
    for name in ("file", "game", "status", "winner", "position", "problem_kind", "problem_message", "claim"):
        assert types[name] == pa.string()
    assert types["game_over"] == pa.bool_()
    assert types["score"] == pa.map_(pa.string(), pa.float64())
    errors = types["errors"].value_type
    assert errors.field("legal").type == pa.list_(pa.string())
    assert errors.field("alternatives").type.value_type.field("stops_at").type.field("line").type == pa.int64()
    assert types["claims"].value_type.field("reason").type == pa.string()
    assert types["notes"] == pa.list_(pa.string())
    nullable = {f.name for f in table.schema if f.nullable}
    assert {"line", "game", "winner", "position", "score_with_stones", "problem_kind", "claim"} <= nullable
    assert not {"file", "index", "status", "moves", "errors", "claims", "notes", "problems"} & nullable
    for f in table.schema:
        if not f.nullable:
            assert table.column(f.name).null_count == 0, f.name
    # Typed columns compute: the valid records have no problem, flat or listed.
    valid = table.filter(pc.equal(table["status"], "valid"))
    assert valid.num_rows > 20
    assert pc.max(valid["problems"]).as_py() == 0 and valid["problem_kind"].null_count == valid.num_rows
    assert pc.sum(pc.list_value_length(valid["errors"])).as_py() == 0


def cell(value):
    """A table's value as the CSV writes it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ";".join(f"{player}={p}" for player, p in points(value).items())
    return str(value)


def test_flat_columns_are_the_csv(cli, inputs):
    rows = list(csv.DictReader(io.StringIO(cli("verify", "--format", "csv", *inputs).stdout)))
    table = referee.verify_table(inputs).to_pylist()
    assert len(rows) == len(table) > 90
    assert referee.tables.FLAT_COLUMNS == list(rows[0])[-len(referee.tables.FLAT_COLUMNS) :]
    for want, row in zip(rows, table):
        assert {name: cell(row[name]) for name in want} == want
    # The second record of variations.txt: its first problem is its main line's, not the variation's.
    [second] = [r for r in table if r["file"].endswith("variations.txt") and r["index"] == 2]
    assert (second["problems"], second["problem_token"]) == (2, "a3a9")


def converted(cli, path, index):
    """The game document `referee convert --to json` writes for record `index` of the file."""
    out = cli("convert", "--to", "json", "--record", index, path)
    return json.loads(out.stdout) if out.returncode == 0 else None


def test_plies_are_the_documents_moves(cli):
    table = referee.verify_table([SAMPLES], plies=True)
    assert table.schema == referee.tables.schema(plies=True)
    rows = table.to_pylist()
    verdicts = json_lines(cli("verify", "--format", "json", SAMPLES).stdout)
    by_record = {}
    for row in rows:
        by_record.setdefault((row["file"], row["index"]), []).append(row)
    # A row per move each record's replay played, in order.
    assert list(by_record) == [(v["file"], v["index"]) for v in verdicts if v["moves"]]
    documents = 0
    for v in verdicts:
        plies = by_record.get((v["file"], v["index"]), [])
        assert [p["ply"] for p in plies] == list(range(1, v["moves"] + 1))
        if not plies:
            continue
        assert {p["game"] for p in plies} == {v["game"]}
        # The last position is where the verdict says the replay ended.
        assert plies[-1]["position"] == v["position"]
        assert [p["position_before"] for p in plies[1:]] == [p["position"] for p in plies[:-1]]
        document = converted(cli, v["file"], v["index"])
        if document is None:
            # It does not replay to its end (an illegal move): its moves up to there are the
            # record's, as the package replays it.
            record = list(referee.open(v["file"]))[v["index"] - 1]
            assert [p["move"] for p in plies] == record.moves
            assert [p["position"] for p in plies] == [q.code for q in record.positions()[1:]]
            continue
        documents += 1
        assert plies[0]["position_before"] == document["start_code"]
        want = [(m["ply"], m["mover"], m["canonical"], m["code"]) for m in document["moves"]]
        assert [(p["ply"], p["player"], p["move"], p["position"]) for p in plies] == want
    assert documents > 30


def test_plies_of_many_files(cli, tmp_path, monkeypatch):
    """The moves of many files in the verdicts' order, in batches of a few rows too."""
    for k, game in enumerate(["quadraphages", "hexaphages", "quarod", "petrify", "vadrantir", "splinter"]):
        cli("random", "--game", game, "--count", 4, "--seed", 10 + k, "--out", tmp_path, check=True)
    verdicts = json_lines(cli("verify", "--format", "json", tmp_path).stdout)
    assert len(verdicts) == 24
    table = referee.verify_table(tmp_path, plies=True, jobs=2)
    assert table.num_rows == sum(v["moves"] for v in verdicts)
    starts = [(r["file"], r["index"]) for r in table.to_pylist() if r["ply"] == 1]
    assert starts == [(v["file"], v["index"]) for v in verdicts]
    monkeypatch.setattr(referee.tables, "_BATCH_ROWS", 50)
    assert referee.verify_table(tmp_path, plies=True, jobs=1).equals(table)
    # A position and its move, as Position plays it.
    for row in table.slice(0, 200).to_pylist():
        assert referee.Position.from_code(row["position_before"]).play(row["move"]).code == row["position"]


def test_plies_of_a_file_not_utf8_to_its_end(cli, tmp_path):
    """A record, then a byte that is not UTF-8: the record's moves are rows (as `referee.open`
    gives the records before such a byte), the rest of the file none."""
    record = cli("random", "--game", "quarod", "--seed", 12, check=True).stdout
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes(record.encode() + b"\n{caf\xe9}\n" + record.encode())
    verdicts = json_lines(cli("verify", "--format", "json", latin1).stdout)
    assert [v["status"] for v in verdicts] == ["valid", "unreadable"]
    table = referee.verify_table([latin1], plies=True)
    assert table.column("ply").to_pylist() == list(range(1, verdicts[0]["moves"] + 1))
    assert table.column("position").to_pylist()[-1] == verdicts[0]["position"]


def test_parquet(inputs, tmp_path):
    table = referee.verify_table(inputs)
    out = tmp_path / "verdicts.parquet"
    assert referee.to_parquet(inputs, out) == table.num_rows
    back = pq.read_table(out)
    assert back.schema == table.schema
    assert back.equals(table)
    # What pyarrow's own writer makes of the table reads back the same.
    pq.write_table(table, tmp_path / "written.parquet")
    assert pq.read_table(tmp_path / "written.parquet").equals(table)
    # The moves, into a file object.
    plies = referee.verify_table([SAMPLES / "quarod"], plies=True)
    with open(tmp_path / "plies.parquet", "wb") as f:
        assert referee.to_parquet([SAMPLES / "quarod"], f, plies=True) == plies.num_rows > 100
    assert pq.read_table(tmp_path / "plies.parquet").equals(plies)


def test_options_and_errors(cli, tmp_path):
    bare = tmp_path / "bare.txt"
    bare.write_text("1. c1d1 d3c3 2. b4a4 a3b3 *\n")
    [row] = referee.verify_table([bare], game="quarod").to_pylist()
    assert dumps(as_verdict(row)) == cli("verify", "--format", "json", "--game", "quarod", bare).stdout.strip()
    assert row["status"] == "valid"
    assert referee.verify_table([bare], game="quarod", plies=True).column("move").to_pylist() == [
        "c1d1",
        "d3c3",
        "b4a4",
        "a3b3",
    ]
    (tmp_path / "notes.md").write_text("no record\n")
    assert referee.verify_table([tmp_path], ext=["md"]).column("file").to_pylist() == [str(tmp_path / "notes.md")]
    # Nothing to verify: an empty table of the same columns.
    empty = referee.verify_table([])
    assert empty.num_rows == 0 and empty.schema == referee.tables.schema()
    with pytest.raises(referee.ReadError):
        referee.verify_table([tmp_path / "missing.txt"])
    # A path that does not exist is raised before the Parquet file is made.
    with pytest.raises(referee.ReadError):
        referee.to_parquet([tmp_path / "missing.txt"], tmp_path / "out.parquet")
    assert not (tmp_path / "out.parquet").exists()


def test_without_pyarrow():
    """Without pyarrow the package imports and verifies; the tables say what to install."""
    script = """
import sys
sys.modules["pyarrow"] = None  # as if it were not installed: `import pyarrow` raises ImportError
import referee
assert referee.verify([]) is not None
try:
    referee.verify_table(["samples"])
except ImportError as e:
    print(e)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=SAMPLES.parent)
    assert out.returncode == 0, out.stderr
    assert "pip install 'referee[arrow]'" in out.stdout
