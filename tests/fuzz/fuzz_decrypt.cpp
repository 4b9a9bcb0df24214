// fuzz-decrypt: the whole stream decryptor (formats::decrypt: header, key slots, header MAC,
// payload, trailer) and range decryption (decrypt_range), on an arbitrary file, opened with
// the fixed key-file secret of fuzz_support.hpp.
//
// What it reaches: the header parser, and for inputs whose header is a real one under that
// key (the seeds of tests/fuzz/corpus/fuzz-decrypt are real files), the whole payload path:
// chunk geometry, per-chunk authentication failures at every index, truncation diagnosis,
// trailing data, a damaged trailer. It cannot forge a chunk: a mutated header fails the slot
// AEAD or the header MAC, a mutated chunk fails its tag. fuzz-decrypt-mutate covers what only
// a key holder could produce.
//
// Invariants: a refusal is an Error with a format cause; decrypt and a range decryption of
// everything agree on the verdict and on the plaintext; what `info` reports agrees with both.
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "engine/stream/memory_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace warp::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

formats::DecryptOptions options() {
    formats::DecryptOptions o;
    o.identities.push_back(fixed_identity());
    o.threads = 1;  // inputs are far below one batch: no thread would start anyway
    return o;
}

// The plaintext, or nullopt when the file was refused (checked to be a format refusal).
std::optional<Bytes> decrypt_all(std::span<const std::uint8_t> file) {
    stream::SpanSource in(file);
    stream::VectorSink out;
    try {
        const formats::DecryptResult result = formats::decrypt(in, out, options());
        check(result.plaintext_bytes == out.bytes.size(), "decrypt miscounted its output");
        return std::move(out.bytes);
    } catch (const Error& e) {
        check(is_format_refusal(e.cause()), "decrypt refused a file with a non-format cause");
        return std::nullopt;
    }
}

std::optional<Bytes> decrypt_range_all(std::span<const std::uint8_t> file) {
    const stream::SpanRandomAccess in(file);
    stream::VectorSink out;
    try {
        formats::decrypt_range(in, out, options(), 0, std::numeric_limits<std::uint64_t>::max());
        return std::move(out.bytes);
    } catch (const Error& e) {
        check(is_format_refusal(e.cause()), "decrypt_range refused with a non-format cause");
        return std::nullopt;
    }
}

void check_info(std::span<const std::uint8_t> file, const Bytes& plaintext) {
    stream::SpanSource in(file);
    const formats::HeaderInfo info = formats::read_info(in, file.size());
    check(info.plaintext_bytes == plaintext.size(),
          "info's plaintext length differs from what decrypt wrote");
}

}  // namespace
}  // namespace warp::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace warp::fuzz;
    const std::span<const std::uint8_t> file(data, size);
    const std::optional<Bytes> whole = decrypt_all(file);
    const std::optional<Bytes> range = decrypt_range_all(file);
    // Only a key holder can make every chunk authenticate, so a file the fuzzer made is either
    // a real file (both succeed) or damaged (both fail): range decryption skips the plaintext
    // hash, but not the tag of any chunk it reads, and a whole range reads them all.
    check(whole.has_value() == range.has_value(), "decrypt and decrypt_range disagree");
    if (whole) {
        check(*whole == *range, "decrypt and decrypt_range wrote different plaintext");
        check_info(file, *whole);
    }
    return 0;
}
