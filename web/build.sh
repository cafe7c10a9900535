#!/usr/bin/env bash
# Builds the web page into web/dist/: referee compiled to WebAssembly (web/src/lib.rs), its
# JavaScript glue (wasm-bindgen --target web), the page, the samples and the rules pages.
# Installs what it needs: the wasm32-unknown-unknown target, and wasm-bindgen-cli at the exact
# version of the wasm-bindgen crate in web/Cargo.lock (the two must agree). Needs node for the
# samples and rules pages, and npm for the editor (web/editor/). Serve web/dist/ with any static server, e.g.
#   python3 -m http.server -d web/dist
# The rules pages (docs/rules/*.md, if any) and grammar.md are written as HTML beside the page.
#
# `web/build.sh CRATE` builds the page of another crate instead, into CRATE/dist/: a crate that
# defines a game of its own and exports the page's functions with `referee_web::page!` (see
# web/own_game/, the page with In a Row added). The page itself (web/index.html, app.js, ...) is
# the same.
set -euo pipefail
web="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$web")"
crate="$(cd "${1:-$web}" && pwd)"
dist="$crate/dist"
# The crate's library name, as cargo names its .wasm file.
library="$(awk -F'"' '/^name = / { gsub(/-/, "_", $2); print $2; exit }' "$crate/Cargo.toml")"
cd "$crate"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "== rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# The version of the wasm-bindgen crate that the lock file holds.
version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
if [ -z "$version" ]; then
  echo "build.sh: no wasm-bindgen in $crate/Cargo.lock" >&2
  exit 2
fi
installed="$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)"
if [ "$installed" != "$version" ]; then
  echo "== cargo install wasm-bindgen-cli --version $version (found: ${installed:-none})"
  # Not --locked: the CLI's own lock file may name versions a registry mirror lacks.
  cargo install wasm-bindgen-cli --version "$version"
fi

echo "== cargo build --release --target wasm32-unknown-unknown (${crate#"$root"/})"
# Not --locked: a dependency the library gains is added to web/Cargo.lock rather than failing the
# build; every version already there (wasm-bindgen's, which the CLI must match) stays as it is.
cargo build --release --target wasm32-unknown-unknown

rm -rf "$dist"
mkdir -p "$dist/pkg"
echo "== wasm-bindgen --target web"
# Named referee_web whatever the crate, as the page loads it.
wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section --out-dir "$dist/pkg" \
  --out-name referee_web "target/wasm32-unknown-unknown/release/$library.wasm"
wasm="$dist/pkg/referee_web_bg.wasm"
if command -v wasm-opt >/dev/null 2>&1; then
  echo "== wasm-opt -Oz"
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    "$wasm" -o "$wasm.opt" && mv "$wasm.opt" "$wasm"
fi

(cd "$web" && cp index.html app.js worker.js embed.js style.css manifest.webmanifest icon.svg "$dist/")
# The editor: CodeMirror (web/editor/package-lock.json), bundled with the page's glue into one file.
editor="$web/editor"
if [ ! -x "$editor/node_modules/.bin/esbuild" ] || [ "$editor/package-lock.json" -nt "$editor/node_modules/.package-lock.json" ]; then
  echo "== npm ci (web/editor)"
  (cd "$editor" && npm ci --no-audit --no-fund)
fi
echo "== esbuild web/editor/editor.mjs"
"$editor/node_modules/.bin/esbuild" "$editor/editor.mjs" --bundle --format=esm --minify --target=es2020 \
  --log-level=warning --outfile="$dist/editor.js"
node "$web/tools/site.mjs" "$root" "$dist"
# Last: the service worker lists every file of the build, to keep the page working offline.
node "$web/tools/offline.mjs" "$dist"

raw=$(wc -c <"$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
total_gz=$(cd "$dist" && cat index.html app.js editor.js worker.js style.css samples.js rules.js pkg/referee_web.js pkg/referee_web_bg.wasm | gzip -9 | wc -c)
echo "== ${dist#"$root"/} ready: referee_web_bg.wasm $raw bytes ($gz gzip -9); the whole page $total_gz bytes gzipped"
