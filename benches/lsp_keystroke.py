#!/usr/bin/env python3
"""How long `referee lsp` takes to publish diagnostics after a keystroke in a long collection.

Builds a text of 10,000 Quarod records (`referee random`): 9,999 games on the default 8x8 board
and, in the middle (record 5,001), one game of exactly 200 moves on a 16x16 board. Starts
`referee lsp`, opens the text, then types in the long record: each keystroke changes one
character of one of its moves (making it illegal), the next one puts it back. For each keystroke
it measures the time from sending `textDocument/didChange` to receiving the diagnostics, the way
an editor sends it: the range that changed (`--full`: the whole text, for a server or client
without incremental sync). Prints the time to open the text and the keystrokes' median, 90th
percentile and worst, in milliseconds.

    cargo build --release
    benches/lsp_keystroke.py                      # target/release/referee
    benches/lsp_keystroke.py --full --binary OLD  # another build, sending the whole text

Python 3.9+, standard library only.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


class Server:
    def __init__(self, binary):
        self.process = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self):
        length = 0
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("the server closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.process.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id:
                return message

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self):
        while True:
            message = self.receive()
            if message.get("method") == "textDocument/publishDiagnostics":
                return message["params"]["diagnostics"]

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait()


def random_records(binary, args):
    return subprocess.run([binary, "random", "--game", "quarod", *args], check=True, capture_output=True, text=True).stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(REPO / "target/release/referee"))
    parser.add_argument("--keystrokes", type=int, default=40)
    parser.add_argument("--full", action="store_true", help="send the whole text at each keystroke")
    args = parser.parse_args()

    before = random_records(args.binary, ["--seed", "1", "--count", "5000"])
    # Seed 6 on a 16x16 board is a game of exactly 200 moves.
    long = random_records(args.binary, ["--size", "16", "--seed", "6"])
    after = random_records(args.binary, ["--seed", "5001", "--count", "4999"])
    text = before.rstrip("\n") + "\n\n" + long.rstrip("\n") + "\n\n" + after
    start = len(before.rstrip("\n")) + 2
    # The long record's moves are on the lines after its tags: the 100th token of its movetext.
    movetext = text.index("\n1. ", start) + 1
    line = text.count("\n", 0, movetext)
    tokens = text[movetext : text.index("\n", movetext)].split()
    move = next(t for t in tokens if not t.endswith("."))
    column = text.index(move, movetext) - movetext

    server = Server(args.binary)
    server.request("initialize", {"capabilities": {}})
    server.notify("initialized", {})
    uri = "file:///collection.txt"
    clock = time.perf_counter()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "referee", "version": 1, "text": text}})
    found = server.diagnostics()
    opened = time.perf_counter() - clock
    assert not found, f"the collection has problems: {found[:3]}"

    # One character of the move typed over and back: a1 -> a2 (or any other digit) and back.
    digit = column + len(move) - 1
    original = move[-1]
    other = "2" if original != "2" else "3"
    times = []
    broken = 0
    current = text
    for k in range(args.keystrokes):
        char = other if k % 2 == 0 else original
        at = sum(len(l) + 1 for l in current.split("\n")[:line]) + digit
        current = current[:at] + char + current[at + 1 :]
        if args.full:
            change = {"text": current}
        else:
            position = {"line": line, "character": digit}
            end = {"line": line, "character": digit + 1}
            change = {"range": {"start": position, "end": end}, "text": char}
        clock = time.perf_counter()
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": k + 2}, "contentChanges": [change]})
        found = server.diagnostics()
        times.append(time.perf_counter() - clock)
        broken += bool(found)
        if k % 2 == 1:
            assert not found, f"keystroke {k} left {found[:3]}"
    server.stop()

    ms = sorted(t * 1000 for t in times)
    sync = "whole text" if args.full else "range"
    print(f"text: 10,000 records, {len(text.encode()) / (1 << 20):.1f} MiB; keystrokes in record 5,001 (200 moves) at {line + 1}:{digit + 1}, sent as the {sync}")
    print(f"open: {opened * 1000:.0f} ms")
    print(
        f"diagnostics after a keystroke, {len(ms)} keystrokes: median {statistics.median(ms):.1f} ms, "
        f"90th percentile {ms[int(len(ms) * 0.9) - 1]:.1f} ms, worst {ms[-1]:.1f} ms "
        f"({broken} of them left a diagnostic)"
    )


if __name__ == "__main__":
    main()
