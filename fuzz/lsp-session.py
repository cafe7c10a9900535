#!/usr/bin/env python3
"""Writes a language server session on a record file, as the `lsp` fuzz target reads one
(`referee::fuzz_bodies::lsp`): each message's JSON body, apart by a zero byte. The text is opened,
asked about in its middle (hover, completion, code actions, symbols, formatting, folding ranges),
edited there,
and asked about again: the shape of `referee::fuzz_bodies::lsp_session`, which the smoke test uses.

    fuzz/lsp-session.py samples/quarod/random-size-4.txt > corpus/lsp/quarod
"""

import json
import sys

text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
lines = text.splitlines()
here = {"line": len(lines) // 2, "character": 4}
document = {"uri": "file:///fuzz.txt"}


def requests(first):
    return [
        {"jsonrpc": "2.0", "id": first, "method": "textDocument/hover", "params": {"textDocument": document, "position": here}},
        {"jsonrpc": "2.0", "id": first + 1, "method": "textDocument/completion", "params": {"textDocument": document, "position": here}},
        {"jsonrpc": "2.0", "id": first + 2, "method": "textDocument/codeAction",
         "params": {"textDocument": document, "range": {"start": here, "end": here}, "context": {"diagnostics": []}}},
        {"jsonrpc": "2.0", "id": first + 3, "method": "textDocument/documentSymbol", "params": {"textDocument": document}},
        {"jsonrpc": "2.0", "id": first + 4, "method": "textDocument/formatting",
         "params": {"textDocument": document, "options": {"tabSize": 4, "insertSpaces": True}}},
        {"jsonrpc": "2.0", "id": first + 5, "method": "textDocument/foldingRange", "params": {"textDocument": document}},
    ]


messages = [{"jsonrpc": "2.0", "method": "textDocument/didOpen",
             "params": {"textDocument": {**document, "languageId": "referee", "version": 1, "text": text}}}]
messages += requests(1)
messages.append({"jsonrpc": "2.0", "method": "textDocument/didChange",
                 "params": {"textDocument": {**document, "version": 2},
                            "contentChanges": [{"range": {"start": here, "end": here}, "text": "x\n"}]}})
messages += requests(10)
sys.stdout.buffer.write(b"\0".join(json.dumps(m).encode() for m in messages))
