"""referee.Position against the conformance suites and the command line: legal moves, perft, codes,
play/push/pop, and the errors bad input raises."""

import random
from collections.abc import Sequence
import xml.etree.ElementTree as ET

import pytest

import referee

from conftest import suite_entries

ENTRIES = suite_entries()


def test_every_suite_is_read():
    assert len(ENTRIES) > 300
    assert {e["suite"] for e in ENTRIES} == set(referee.games())


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_suite_position(entry):
    p = referee.Position.from_code(entry["code"])
    # The code reads back as written.
    assert p.code == entry["code"]
    assert referee.Position.from_code(p.code) == p
    assert p.legal_moves() == entry["moves"]
    for depth, count in entry["perft"].items():
        if depth <= 2:
            assert p.perft(depth) == count, depth
    assert p.perft(0) == 1
    assert p.is_over() == ("result" in entry)
    assert p.outcome() == entry.get("result")
    assert p.game == entry["suite"]
    assert 0 <= p.to_move < len(p.players)
    assert list(p.score()) == p.players


@pytest.mark.parametrize("entry", [e for e in ENTRIES if "start" in e], ids=lambda e: e["id"])
def test_suite_start(entry):
    """`start GAME [size N] [players N] [moves ...]`: the same position from Position.start."""
    words = entry["start"].split()
    game, rest = words[0], words[1:]
    moves = []
    if "moves" in rest:
        k = rest.index("moves")
        rest, moves = rest[:k], rest[k + 1:]
    options = {rest[i]: int(rest[i + 1]) for i in range(0, len(rest), 2)}
    p = referee.Position.start(game, **options)
    for m in moves:
        p.push(m)
    assert p.code == entry["code"]
    assert p.move_stack == moves


def test_legal_moves_are_the_command_lines(cli):
    """As `referee moves CODE` lists them, in its order; where it writes a move twice (`----` for
    stones that cannot move), once."""
    for entry in ENTRIES:
        listed = cli("moves", entry["code"]).stdout.split()
        once = list(dict.fromkeys(listed))
        assert referee.Position.from_code(entry["code"]).legal_moves() == once, entry["id"]


def test_legal_moves_read_as_a_list(cli):
    """`legal_moves()` is a sequence made into strings as it is read: every way a list is read
    gives what the list of `referee moves CODE` gives, in every game."""
    for entry in ENTRIES[::7]:
        moves = referee.Position.from_code(entry["code"]).legal_moves()
        want = list(dict.fromkeys(cli("moves", entry["code"]).stdout.split()))
        assert isinstance(moves, referee.Moves) and isinstance(moves, Sequence) and not isinstance(moves, list)
        assert list(moves) == want and [m for m in moves] == want and tuple(moves) == tuple(want)
        assert len(moves) == len(want) and bool(moves) == bool(want)
        assert moves == want and want == moves and moves == tuple(want) and moves != want + ["x"]
        assert moves[1:3] == want[1:3] and moves[::-1] == want[::-1] and list(reversed(moves)) == want[::-1]
        for k in range(-len(want), len(want)):
            assert moves[k] == want[k]
            assert want[k] in moves and moves.index(want[k]) == want.index(want[k]) and moves.count(want[k]) == 1
        with pytest.raises(IndexError):
            moves[len(want)]
        assert "not a move" not in moves and 7 not in moves and moves.count("not a move") == 0
        with pytest.raises(ValueError):
            moves.index("not a move")
        assert sorted(moves) == sorted(want) and repr(moves) == f"Moves({want!r})"
        assert moves == referee.Position.from_code(entry["code"]).legal_moves()
    assert moves != "".join(want) and moves != 3


def test_perft_is_the_command_lines(cli):
    for entry in ENTRIES[::10]:
        depth = min(3, max(entry["perft"], default=0))
        assert referee.Position.from_code(entry["code"]).perft(depth) == int(cli("perft", entry["code"], depth).stdout)


def test_start_of_every_game():
    for game in referee.games():
        p = referee.Position.start(game)
        assert p.game == game
        assert not p.is_over() and p.outcome() is None
        assert p.to_move == 0
        assert len(p.legal_moves()) == p.perft(1) or game in ("quadraphages", "hexaphages")
    assert referee.Position.start("Splinter Quad", players=3).players == ["Red", "Blue", "Green"]
    assert referee.Position.start("quarod", size=8).code == "quarod_8/8/8/8/8/8/8/8_b_0_0_-_-"


def random_walk(game, seed, **start):
    rng = random.Random(seed)
    p = referee.Position.start(game, **start)
    while not p.is_over():
        legal = p.legal_moves()
        yield p, legal
        p = p.play(rng.choice(legal))
    yield p, p.legal_moves()


@pytest.mark.parametrize("game", ["quadraphages", "hexaphages", "quarod", "petrify", "vadrantir", "splinter"])
def test_play_push_pop_agree(game):
    for seed in range(3):
        walk = list(random_walk(game, seed))
        pushed = referee.Position.start(game)
        for k, (p, legal) in enumerate(walk):
            # The walk plays with play(); the same moves pushed on one position give the same.
            assert pushed == p and hash(pushed) == hash(p) and pushed.code == p.code
            if not legal:
                assert k == len(walk) - 1
                assert p.is_over() and p.outcome() is not None
                assert set(p.outcome().split("-")) <= {"0", "1"}
                break
            assert not p.is_over() and p.outcome() is None
            # Any legal move plays, leaving the position played from as it was; push and pop agree.
            before = p.code
            for m in legal[:4] + legal[-4:]:
                after = p.play(m)
                assert p.code == before
                pushed.push(m)
                assert pushed.code == after.code
                assert pushed.pop() == m and pushed.code == before
            # The move the walk took.
            pushed.push(next(m for m in legal if p.play(m) == walk[k + 1][0]))
        assert len(pushed.move_stack) == len(walk) - 1
        # Popped back to the start, through every position of the walk.
        for p, _ in reversed(walk):
            assert pushed == p
            if pushed.move_stack:
                pushed.pop()


def test_illegal_move():
    p = referee.Position.start("quarod", size=4)
    with pytest.raises(referee.IllegalMoveError) as e:
        p.play("z9z9")
    assert isinstance(e.value, ValueError)
    assert e.value.move == "z9z9"
    assert e.value.legal == p.legal_moves()
    assert e.value.code == p.code
    assert "c1d1" in str(e.value)
    with pytest.raises(referee.IllegalMoveError):
        p.push("c1d1 ")
    assert p.move_stack == [] and p.code == "quarod_4/4/4/4_b_0_0_-_-"
    with pytest.raises(IndexError):
        p.pop()
    # A game over has no legal move.
    over = [e for e in ENTRIES if "result" in e][0]
    q = referee.Position.from_code(over["code"])
    with pytest.raises(referee.IllegalMoveError, match="game is over"):
        q.play("pass")


def test_bad_code():
    with pytest.raises(referee.CodeError) as e:
        referee.Position.from_code("quarod_4/4/4/4_x_0_0_-_-")
    assert isinstance(e.value, ValueError)
    assert e.value.code == "quarod_4/4/4/4_x_0_0_-_-"
    assert e.value.column == e.value.offset + 1
    assert e.value.offset == len("quarod_4/4/4/4_")
    with pytest.raises(referee.CodeError, match="starts with its game's name") as e:
        referee.Position.from_code("chess_rnbqkbnr")
    assert e.value.column == 1
    with pytest.raises(referee.CodeError):
        referee.Position.from_code("")


def test_bad_start():
    with pytest.raises(ValueError, match="no game is named chess"):
        referee.Position.start("chess")
    with pytest.raises(ValueError):
        referee.Position.start("petrify", size=3)
    with pytest.raises(ValueError):
        referee.Position.start("quarod", players=3)
    with pytest.raises(OverflowError):
        referee.Position.start("quarod", size=1000)


def test_picture_and_text():
    p = referee.Position.start("vadrantir").play(referee.Position.start("vadrantir").legal_moves()[0])
    svg = p._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "ply 1" in svg
    assert ET.fromstring(p.svg(width=300, style="print", coordinates=False, caption=False)) is not None
    with pytest.raises(ValueError, match="no style"):
        p.svg(style="neon")
    assert str(p).startswith("abc")
    assert repr(p) == f"Position.from_code('{p.code}')"
    assert eval(repr(p), {"Position": referee.Position}) == p


def test_positions_are_values():
    a = referee.Position.start("petrify")
    b = referee.Position.from_code(a.code)
    assert a == b and a is not b and len({a, b}) == 1
    assert a != a.play("a1") and a != "petrify"
    c = a.copy()
    c.push("a1")
    assert a.move_stack == [] and c.move_stack == ["a1"]


def test_pickled_as_its_code():
    import pickle

    p = referee.Position.start("splinter", players=4)
    p.push(p.legal_moves()[0])
    q = pickle.loads(pickle.dumps(p))
    assert q == p and q.move_stack == []
