#!/usr/bin/env bash
# Makes the seed corpus of the fuzz targets, tests/fuzz/corpus/TARGET/ (committed: CI and
# scripts/fuzz.sh use it as it is). Run it again after a change to the format or to the ACVP
# harness's input, and commit the result; the same sources give the same bytes.
#
#   fuzz-header, fuzz-decrypt, fuzz-decrypt-mutate: written by fuzz-make-seeds
#     (tests/fuzz/make_seeds.cpp): real files under the fixed key file, their headers, and one
#     recipe per edit kind; plus SPEC 9's worked example (formats/testdata/).
#   fuzz-acvp-json: small documents cut from the ACVP vectors (../shared/vectors, or
#     WARPCRYPT_VECTORS_DIR): for each algorithm, its prompt with the first test of each group,
#     and the same tests merged with their expected results (so that answers compare equal);
#     and a CHACHA20-POLY1305 prompt made from RFC 8439's AEAD vector. Needs jq.
#
# Usage: scripts/make-fuzz-corpus.sh [PRESET]   (the build that makes the seeds; default: default)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
vectors=${WARPCRYPT_VECTORS_DIR:-../shared/vectors}
corpus=tests/fuzz/corpus

command -v jq >/dev/null || { echo "make-fuzz-corpus: jq is needed (apt-get install jq)" >&2; exit 2; }
[ -d "$vectors/acvp" ] || { echo "make-fuzz-corpus: no ACVP vectors in $vectors" >&2; exit 2; }

scripts/build.sh "$preset" --target fuzz-make-seeds
rm -rf "$corpus"
"build/$preset/tests/fuzz/fuzz-make-seeds" "$corpus"
cp formats/testdata/worked_example.warp "$corpus/fuzz-decrypt/worked-example.warp"
cp formats/testdata/worked_example.warp "$corpus/fuzz-header/worked-example.warp"

acvp=$corpus/fuzz-acvp-json
mkdir -p "$acvp"
for dir in "$vectors"/acvp/ACVP-*; do
  name=$(basename "$dir")
  # The prompt, first test of each group (MCT groups included: 100 x 1000 block operations).
  jq -c '.testGroups |= map(.tests |= .[:1])' "$dir/prompt.json" >"$acvp/$name-prompt.json"
  # Functional groups only, each first test with its expected fields, as one document that is
  # both prompt and expected results (MCT results are 100 entries: too long for a seed).
  jq -c -s '.[0] as $prompt | .[1] as $expected | $prompt
      | .testGroups |= map(select(.testType == "AFT")
          | .tgId as $g | .tests |= (.[:1] | map(. as $t | $t + (
              $expected.testGroups[] | select(.tgId == $g) | .tests[]
              | select(.tcId == $t.tcId)))))' \
    "$dir/prompt.json" "$dir/expectedResults.json" >"$acvp/$name-merged.json"
done
# CHACHA20-POLY1305 (warpcrypt's ACVP-shaped set, tests/acvp/README.md) from RFC 8439 2.8.2.
jq -c '.aead_chacha20_poly1305[0] as $v
  | ($v.pt | length * 4) as $payload | ($v.aad | length * 4) as $aad
  | {vsId: 1, algorithm: "CHACHA20-POLY1305", revision: "1.0", isSample: true, testGroups: [
      {tgId: 1, testType: "AFT", direction: "encrypt", keyLen: 256, nonceLen: 96, tagLen: 128,
       payloadLen: $payload, aadLen: $aad,
       tests: [{tcId: 1, key: $v.key, nonce: $v.nonce, aad: $v.aad, pt: $v.pt, ct: $v.ct,
                tag: $v.tag}]},
      {tgId: 2, testType: "AFT", direction: "decrypt", keyLen: 256, nonceLen: 96, tagLen: 128,
       payloadLen: $payload, aadLen: $aad,
       tests: [{tcId: 1, key: $v.key, nonce: $v.nonce, aad: $v.aad, ct: $v.ct, tag: $v.tag,
                pt: $v.pt}]}]}' \
  "$vectors/rfc8439/rfc8439_test_vectors.json" >"$acvp/CHACHA20-POLY1305-rfc8439.json"

echo "make-fuzz-corpus: $(find "$corpus" -type f | wc -l) files, $(du -sk "$corpus" | cut -f1) KiB in $corpus"
find "$corpus" -type f -size +8k -printf 'make-fuzz-corpus: note: %p is %s bytes\n'
