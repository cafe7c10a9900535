"""An engine that greets and takes positions as the protocol says, then fails at `go` (and at
every other question) in the way its first argument names, for the tests of `referee match` and
`referee conformance`:

    crash    writes a line on standard error and exits with status 3
    illegal  answers `bestmove a1a1`, a move of no game here
    slow     answers nothing, and waits for ever
    garbage  answers a line that is no answer
"""

import sys
import time

mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "rgp":
        print("id name misbehaving (" + mode + ")\nrgpok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "position":
        pass
    elif command == "quit":
        break
    elif mode == "crash":
        print("misbehaving: a deliberate crash", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "illegal":
        print("bestmove a1a1" if command == "go" else "moves a1a1", flush=True)
    elif mode == "slow":
        time.sleep(3600)
    elif mode == "garbage":
        print("hello, I am not an answer", flush=True)
