// fuzz-decrypt: the whole stream decryptor (formats::warp_format::decrypt: header, key slots, header MAC,
// payload, trailer), range decryption (decrypt_range) and rekey, on an arbitrary file, opened
// with the fixed key-file secret and X25519 identity of fuzz_support.hpp.
//
// What it reaches: the header parser, and for inputs whose header is a real one under that
// key (the seeds of tests/fuzz/corpus/fuzz-decrypt are real files), the whole payload path:
// chunk geometry, per-chunk authentication failures at every index, truncation diagnosis,
// trailing data, a damaged trailer. It cannot forge a chunk: a mutated header fails the slot
// AEAD or the header MAC, a mutated chunk fails its tag. fuzz-decrypt-mutate covers what only
// a key holder could produce.
//
// Invariants: a refusal is an Error with a format cause; decrypt and a range decryption of
// everything agree on the verdict and on the plaintext; what `info` reports agrees with both;
// a file rekeyed with one more key-file slot gets the same verdict and plaintext, and the new
// key opens it.
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "engine/stream/memory_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace warp::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

formats::Options options() { return fixed_decrypt_options(); }

// The plaintext, or nullopt when the file was refused (checked to be a format refusal).
std::optional<Bytes> decrypt_all(std::span<const std::uint8_t> file) {
    stream::SpanSource in(file);
    stream::VectorSink out;
    try {
        const formats::Result result = formats::warp_format::decrypt(in, out, options());
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
        formats::warp_format::decrypt_range(in, out, options(), 0, std::numeric_limits<std::uint64_t>::max());
        return std::move(out.bytes);
    } catch (const Error& e) {
        check(is_format_refusal(e.cause()), "decrypt_range refused with a non-format cause");
        return std::nullopt;
    }
}

// rekey (SPEC 4.7) of the same file: a key-file slot added, nothing removed. It opens the
// header as decrypt does and copies the payload unchanged, so the rekeyed file must get the
// verdict and the plaintext the original got, under the old keys and under the new one.
void check_rekey(std::span<const std::uint8_t> file, const std::optional<Bytes>& whole) {
    formats::Secret added = fixed_identity();
    added.bytes.data()[31] ^= 0x5a;
    formats::Options rekey_options = options();
    rekey_options.recipients.push_back(formats::Secret{formats::KeyType::key_file,
                                                SecretBytes(added.bytes.span()), {}});
    rekey_options.random = seeded_random(size_t{7});
    stream::SpanSource in(file);
    stream::VectorSink out;
    try {
        formats::warp_format::rekey(in, out, rekey_options);
    } catch (const Error& e) {
        // A file with 16 slots has no room for one more: refused as usage, not a format error.
        check(is_format_refusal(e.cause()) || e.cause() == ErrorCause::usage,
              "rekey refused a file with a non-format cause");
        check(!whole || e.cause() == ErrorCause::usage || e.cause() == ErrorCause::unsupported,
              "rekey refused a file that decrypts");
        return;
    }
    const std::optional<Bytes> again = decrypt_all(out.bytes);
    check(again.has_value() == whole.has_value(), "a rekeyed file got another verdict");
    if (!again) return;
    check(*again == *whole, "a rekeyed file decrypts to other plaintext");
    formats::Options by_added = options();
    by_added.identities = {};
    by_added.identities.push_back(std::move(added));
    stream::SpanSource rekeyed(out.bytes);
    stream::VectorSink plain;
    formats::warp_format::decrypt(rekeyed, plain, by_added);
    check(plain.bytes == *whole, "the added key does not open the rekeyed file");
}

void check_info(std::span<const std::uint8_t> file, const Bytes& plaintext) {
    stream::SpanSource in(file);
    const formats::FileInfo info = formats::warp_format::read_info(in, file.size());
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
    check_rekey(file, whole);
    return 0;
}
