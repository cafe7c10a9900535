#!/usr/bin/env python3
"""How long an editor waits on `referee lsp` in the cases issue 31 found stalling it, and how much
the server holds. Prints one line per case:

- claims: ten Quarod 26x26 records that claim a result after two moves (each claim a search of
  seconds). For 20 s a hover every 100 ms (on a claim, then on a move) and a keystroke every
  second (breaking, then mending, a move of record 5): the slowest hover, and the slowest wait
  for a keystroke's diagnostics, while the searches run.
- repair: a code action on a 3-move, 3-player Splinter Quad record (its repair's claims are
  searched), and a hover on another text sent right after it: the hover's wait, and the code
  action's.
- broken: 113,636 broken 4x4 Quarod records (5 MB): open, then keystrokes that break and mend one
  record: the wait for the diagnostics and their size.
- blank: 50 MB of blank lines: open, then keystrokes (a character typed, then deleted), each
  followed by a request: the wait for its answer.
- each case's peak memory (VmHWM) of the server process.

    cargo build --release
    benches/lsp_latency.py                  # target/release/referee
    benches/lsp_latency.py --binary OLD     # another build

Python 3.9+, standard library only.
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_keystroke import REPO, Server  # noqa: E402

URI = "file:///case.txt"


class Client(Server):
    """The keystroke bench's server, with the published diagnostics kept and timed."""

    def __init__(self, binary):
        super().__init__(binary)
        self.published = {}
        self.request("initialize", {"capabilities": {}})
        self.notify("initialized", {})

    def receive(self):
        message = super().receive()
        if message.get("method") == "textDocument/publishDiagnostics":
            self.published[message["params"]["uri"]] = message["params"]["diagnostics"]
        return message

    def open(self, text, uri=URI):
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "referee", "version": 1, "text": text}})

    def barrier(self):
        """Waits until the server has read everything sent: it answers an unknown request at once,
        after publishing what the edits before it changed."""
        self.request("referee/nothing", None)

    def edit(self, version, line, start, end, text, uri=URI):
        change = {"range": {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}, "text": text}
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})

    def hover(self, line, character, uri=URI):
        return self.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})

    def peak_kib(self):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return 0


def ms(seconds):
    return seconds * 1000


def place(text, at):
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


def claims(binary):
    record = '[Game "Quarod"]\n[Size "26"]\n\n1. c16d16 h9h10 1-0\n\n'
    text = record * 10
    client = Client(binary)
    began = time.perf_counter()
    client.open(text)
    client.barrier()
    opened = time.perf_counter() - began
    claim = place(text, text.rfind("1-0"))
    move = place(text, text.rfind("c16d16"))
    broken = place(text, 4 * len(record) + record.index("h9h10"))
    hovers, keystrokes = [], []
    version, searching = 1, 0
    end = time.perf_counter() + 20
    k = 0
    while time.perf_counter() < end:
        at = claim if k % 2 == 0 else move
        t = time.perf_counter()
        answer = client.hover(*at)
        hovers.append(time.perf_counter() - t)
        if k % 2 == 0 and "being searched" in json.dumps(answer):
            searching += 1
        if k % 10 == 9:
            version += 1
            # Break record 5's second move (onto the first's square), then mend it.
            new = "c16d16" if version % 2 == 0 else "h9h10"
            old = len("h9h10") if version % 2 == 0 else len("c16d16")
            t = time.perf_counter()
            client.edit(version, broken[0], broken[1], broken[1] + old, new)
            while True:
                message = client.receive()
                if message.get("method") == "textDocument/publishDiagnostics":
                    break
            keystrokes.append(time.perf_counter() - t)
        k += 1
        time.sleep(0.1)
    peak = client.peak_kib()
    client.stop()
    print(
        f"claims: opened in {ms(opened):.0f} ms; {len(hovers)} hovers in 20 s, median {ms(statistics.median(hovers)):.1f} ms, "
        f"slowest {ms(max(hovers)):.1f} ms ({searching} of {len(hovers) // 2} on the claim while it was still searched); "
        f"{len(keystrokes)} keystrokes' diagnostics: median {ms(statistics.median(keystrokes)):.1f} ms, slowest {ms(max(keystrokes)):.1f} ms; "
        f"peak {peak // 1024} MiB"
    )


def repair(binary):
    splinter = '[Game "Splinter Quad"]\n[Size "13"]\n[Players "3"]\n\n1. d8c9 g6f5 a1a2 0-0-1\n'
    other = '[Game "Quarod"]\n[Size "4"]\n\n1. c1d1 d3c3 *\n'
    client = Client(binary)
    client.open(splinter, "file:///splinter.txt")
    client.open(other)
    client.barrier()
    at = place(splinter, splinter.index("a1a2"))
    position = {"line": at[0], "character": at[1]}
    client.next_id += 1
    action = client.next_id
    t = time.perf_counter()
    client.send({"jsonrpc": "2.0", "id": action, "method": "textDocument/codeAction", "params": {
        "textDocument": {"uri": "file:///splinter.txt"}, "range": {"start": position, "end": position}, "context": {"diagnostics": []}}})
    hover = client.hover(*place(other, other.index("d3c3")))
    hovered = time.perf_counter() - t
    while True:
        message = client.receive()
        if message.get("id") == action:
            break
    acted = time.perf_counter() - t
    titles = [a["title"] for a in message.get("result") or []]
    peak = client.peak_kib()
    client.stop()
    assert "plays" in json.dumps(hover), hover
    print(f"repair: a hover sent after the code action answered in {ms(hovered):.1f} ms; the code action in {ms(acted):.0f} ms "
          f"({len(titles)} actions, the last: {titles[-1] if titles else None!r}); peak {peak // 1024} MiB")


def broken(binary):
    record = '[Game "Quarod"]\n[Size "4"]\n\n1. zz *\n\n'
    count = 113_636
    text = record * count
    client = Client(binary)
    t = time.perf_counter()
    client.open(text)
    client.barrier()
    opened = time.perf_counter() - t
    line = (count // 2) * 5 + 3
    waits, sizes = [], []
    for k in range(20):
        # Mend the middle record's move (`zz` to `c1d1`), then break it again.
        new, old = ("c1d1", 2) if k % 2 == 0 else ("zz", 4)
        t = time.perf_counter()
        client.edit(k + 2, line, 3, 3 + old, new)
        while True:
            message = client.receive()
            if message.get("method") == "textDocument/publishDiagnostics":
                break
        waits.append(time.perf_counter() - t)
        sizes.append(len(json.dumps(message)))
    peak = client.peak_kib()
    client.stop()
    print(f"broken: {count} records, {len(text) / 1e6:.1f} MB, opened in {ms(opened):.0f} ms; keystrokes' diagnostics: "
          f"median {ms(statistics.median(waits)):.1f} ms, slowest {ms(max(waits)):.1f} ms, {max(sizes) / 1024:.0f} KiB a notification "
          f"({len(message['params']['diagnostics'])} diagnostics); peak {peak // 1024} MiB")


def blank(binary):
    text = "\n" * (50 << 20)
    client = Client(binary)
    t = time.perf_counter()
    client.open(text)
    client.barrier()
    opened = time.perf_counter() - t
    waits = []
    for k in range(20):
        line = 25_000_000 + k
        t = time.perf_counter()
        client.edit(2 * k + 2, line, 0, 0, "x")
        client.edit(2 * k + 3, line, 0, 1, "")
        client.barrier()
        waits.append((time.perf_counter() - t) / 2)
    peak = client.peak_kib()
    client.stop()
    print(f"blank: 50 MiB of blank lines opened in {ms(opened):.0f} ms; a keystroke and a request after it: "
          f"median {ms(statistics.median(waits)):.1f} ms, slowest {ms(max(waits)):.1f} ms; peak {peak // 1024} MiB")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(REPO / "target/release/referee"))
    parser.add_argument("cases", nargs="*", default=["claims", "repair", "broken", "blank"])
    args = parser.parse_args()
    for case in args.cases:
        {"claims": claims, "repair": repair, "broken": broken, "blank": blank}[case](args.binary)


if __name__ == "__main__":
    main()
