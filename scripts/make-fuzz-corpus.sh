#!/usr/bin/env bash
# Makes the committed seed corpus of the fuzz targets, tests/fuzz/corpus/TARGET/ (CI and
# scripts/fuzz.sh use it as it is). Run it again after a change to the format or to the seeds'
# maker, and commit the result; the same sources give the same bytes.
#
#   fuzz-header, fuzz-decrypt, fuzz-decrypt-mutate: written by fuzz-make-seeds
#     (tests/fuzz/make_seeds.cpp): real files under the fixed key file, their headers, and one
#     recipe per edit kind; plus SPEC 9's worked example, SPEC 9.1's X25519 one and SPEC 10's
#     version 1 one (formats/warp/testdata/), so that both header versions and every slot type are
#     fuzzed; and SPEC 9.2's post-quantum one.
#   fuzz-age: age files to the fixed X25519 and post-quantum identities and to a passphrase,
#     also made by fuzz-make-seeds.
#   fuzz-age-keys: written by hand, kept as they are.
#   fuzz-acvp-json: none committed. Its seeds are cut from the committed vectors
#     (tests/vectors) by every build (tests/fuzz/acvp_seeds.cpp).
#
# Usage: scripts/make-fuzz-corpus.sh [PRESET]   (the build that makes the seeds; default: default)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
corpus=tests/fuzz/corpus

scripts/build.sh "$preset" --target fuzz-make-seeds
# Only the folders made here: fuzz-age-keys' seeds are written by hand (identity files).
rm -rf "$corpus"/fuzz-header "$corpus"/fuzz-decrypt "$corpus"/fuzz-decrypt-mutate "$corpus"/fuzz-age
"build/$preset/tests/fuzz/fuzz-make-seeds" "$corpus"
cp formats/warp/testdata/worked_example.warp "$corpus/fuzz-decrypt/worked-example.warp"
cp formats/warp/testdata/worked_example.warp "$corpus/fuzz-header/worked-example.warp"
cp formats/warp/testdata/v1/worked_example.warp "$corpus/fuzz-decrypt/v1-worked-example.warp"
cp formats/warp/testdata/v1/worked_example.warp "$corpus/fuzz-header/v1-worked-example.warp"
cp formats/warp/testdata/x25519_example.warp "$corpus/fuzz-decrypt/x25519-example.warp"
cp formats/warp/testdata/x25519_example.warp "$corpus/fuzz-header/x25519-example.warp"
cp formats/warp/testdata/hybrid_example.warp "$corpus/fuzz-decrypt/hybrid-example.warp"
cp formats/warp/testdata/hybrid_example.warp "$corpus/fuzz-header/hybrid-example.warp"

echo "make-fuzz-corpus: $(find "$corpus" -type f | wc -l) files, $(du -sk "$corpus" | cut -f1) KiB in $corpus"
find "$corpus" -type f -size +8k -printf 'make-fuzz-corpus: note: %p is %s bytes\n'
