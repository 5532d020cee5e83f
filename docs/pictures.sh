#!/usr/bin/env bash
# Regenerates the pictures of the README (and the table printed with the sweep) by running the
# commands the README shows. The sweep times transforms: its picture and table describe the
# machine this runs on, so update the README's description of that machine with them.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
run() {
    echo "nimcount $*" >&2
    target/release/nimcount "$@"
}
run bench --ring u32 --ring f32 --modulus 998244353 --sweep 10..=26 --threads 1 --plot docs/bench-sweep.svg \
    > docs/bench-sweep.txt
run grundy --game octal:0.16 --plot docs/grundy-octal-0.16.svg > /dev/null
run grundy --game allbut:2,3 --first 80 --plot docs/grundy-allbut-2-3.svg > /dev/null
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) CPUs" >&2
