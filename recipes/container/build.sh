#!/usr/bin/env bash
# Installs what the hexcert image holds into PREFIX/bin: hexcert, built from
# this checkout, the VeriPB checker that `hexcert check` runs on every
# claim's statement -> CNF record, and recipes/pending.sh. The
# Containerfile's build stage runs this script, and CI runs it on the host
# and tests what it installed, so every build step of the image is
# exercised even where no image is built.
#   recipes/container/build.sh PREFIX
#   HEXCERT_BINARY=target/release/hexcert recipes/container/build.sh PREFIX
# Needs cargo and a C++ compiler (CaDiCaL is built by the cadical-sys crate).
set -euo pipefail
prefix=${1:?usage: build.sh PREFIX}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
# The checkout's own target directory: on a host that already built hexcert
# the install reuses that build instead of starting from scratch.
target=${CARGO_TARGET_DIR:-$repo/target}
if [ -n "${HEXCERT_BINARY:-}" ]; then
  # A hexcert its caller built from this checkout a moment ago (.ci/run:
  # the test build's, so hexcert is compiled once), installed as is.
  install -D -m 0755 "$HEXCERT_BINARY" "$prefix/bin/hexcert"
else
  cargo install --locked --quiet --force --path "$repo" --bin hexcert --root "$prefix" --target-dir "$target"
fi
# The version the committed records name; its own target directory (kept,
# so a second run finds it built), apart from hexcert's.
cargo install --locked --quiet veripb --version 3.0.2 --root "$prefix" --target-dir "$target/veripb-install"
# What a resumed Indexed Job needs beside hexcert: the job list of the
# cubes still without a record.
install -m 0755 "$repo/recipes/pending.sh" "$prefix/bin/pending.sh"
"$prefix/bin/hexcert" --version
"$prefix/bin/veripb" --version | tail -n 1
