// fuzz-age: the age format's readers (formats/age/) on arbitrary bytes: the header parser and
// its stanza types, the ASCII armor decoder, the payload, through age::decrypt with the fixed
// X25519 and post-quantum identities (00 01 .. 1f, fuzz_support.hpp) and a passphrase, binary
// and armored; and
// the canonical base64 codec on its own. Binary files are also decrypted as a whole range.
//
// Invariants: a refusal is an Error with a format cause (or usage, for an scrypt work factor
// over the cap, kept tiny here so that a header cannot make a run slow); decrypt and a whole
// range agree; dearmored bytes armor back to a file that dearmors to them again;
// a base64 text that decodes is the encoding of what it decodes to.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/stream/memory_io.hpp"
#include "formats/age/age.hpp"
#include "formats/age/armor.hpp"
#include "formats/age/base64.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace warp::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

formats::Options age_options() {
    formats::Options options;
    options.identities.push_back(fixed_x25519_identity());
    options.identities.push_back(fixed_hybrid_identity());
    options.identities.push_back(fixed_ssh_identity());
    options.identities.push_back(
        formats::Secret{formats::KeyType::passphrase, SecretBytes(std::string_view("fuzz")), {}});
    options.kdf_limits.max_memory_kib = 1024;  // scrypt work factors up to 10: fast
    options.threads = 1;
    return options;
}

// The plaintext of a whole-range decryption of a binary file, or nullopt when refused.
std::optional<Bytes> decrypt_range_all(std::span<const std::uint8_t> file) {
    const stream::SpanRandomAccess in(file);
    stream::VectorSink out;
    try {
        formats::age::decrypt_range(in, out, age_options(), 0, file.size());
        return std::move(out.bytes);
    } catch (const Error& e) {
        check(is_format_refusal(e.cause()) || e.cause() == ErrorCause::usage,
              "age decrypt_range refused a file with a non-format cause");
        return std::nullopt;
    }
}

void decrypt_both_ways(std::span<const std::uint8_t> file) {
    for (const bool armored : {false, true}) {
        stream::SpanSource in(file);
        stream::VectorSink out;
        bool opened = true;
        try {
            formats::age::decrypt(in, out, age_options(), armored);
        } catch (const Error& e) {
            check(is_format_refusal(e.cause()) || e.cause() == ErrorCause::usage,
                  "age decrypt refused a file with a non-format cause");
            opened = false;
        }
        if (!armored) {
            // Only a key holder makes every chunk authenticate: a stream decryption and a
            // range over everything agree on the verdict and the plaintext.
            const std::optional<Bytes> range = decrypt_range_all(file);
            check(range.has_value() == opened, "age decrypt and decrypt_range disagree");
            if (range) check(*range == out.bytes, "age decrypt and decrypt_range differ");
        }
        stream::SpanSource again(file);
        try {
            const formats::FileInfo info = formats::age::read_info(again, armored, file.size());
            check(!info.entries.empty(), "info read a header without stanzas");
        } catch (const Error& e) {
            check(is_format_refusal(e.cause()), "age info refused with a non-format cause");
        }
    }
}

void armor_round_trip(std::span<const std::uint8_t> file) {
    stream::SpanSource in(file);
    formats::age::ArmorSource armored(in);
    Bytes decoded(file.size() + 64);
    std::size_t got = 0;
    try {
        got = read_fully(armored, decoded.data(), decoded.size());
    } catch (const Error& e) {
        check(e.cause() == ErrorCause::corrupted, "the armor decoder threw a non-format cause");
        return;
    }
    decoded.resize(got);
    stream::VectorSink sink;
    formats::age::ArmorSink rearmor(sink);
    rearmor.write(decoded.data(), decoded.size());
    rearmor.finish();
    stream::SpanSource back(sink.bytes);
    formats::age::ArmorSource dearmor(back);
    Bytes twice(decoded.size() + 64);
    twice.resize(read_fully(dearmor, twice.data(), twice.size()));
    check(twice == decoded, "armoring what the decoder gave does not decode to it");
}

void base64_canonical(std::span<const std::uint8_t> bytes) {
    const std::string text(reinterpret_cast<const char*>(bytes.data()),
                           std::min<std::size_t>(bytes.size(), 256));
    for (const bool padded : {false, true})
        if (const auto decoded = formats::age::base64_decode(text, padded))
            check(formats::age::base64_encode(*decoded, padded) == text,
                  "base64 accepted a text that is not the canonical encoding");
}

}  // namespace
}  // namespace warp::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    warp::fuzz::decrypt_both_ways(input);
    warp::fuzz::armor_round_trip(input);
    warp::fuzz::base64_canonical(input);
    return 0;
}
