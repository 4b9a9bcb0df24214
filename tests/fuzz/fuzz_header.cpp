// fuzz-header: the header parser (formats/header.cpp, read_header: SPEC 7 items 1 to 4, no key)
// and read_info (`warpcrypt info`), on arbitrary bytes.
//
// The keyless checksum (XXH3-64, SPEC 3) would stop almost every mutation at item 4, before
// any field is judged. So each input is parsed twice: as it is (magic, version, slot count,
// truncation and the checksum itself), and with the checksum recomputed for the layout the
// input declares (slot count, and version 2's slot lengths), which lets mutations reach the
// checks the checksum guards: suite, chunk size, slot types and lengths, KDF parameters.
//
// Invariants: a refusal is an Error with a format cause (corrupted, truncated, unsupported);
// an accepted header is exactly the size its layout declares, the parser read no byte past it, and
// read_info reaches the same verdict and the same fields.
#include <xxhash.h>

#include <optional>
#include <vector>

#include "engine/stream/memory_io.hpp"
#include "formats/common/big_endian.hpp"
#include "formats/warp/header.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace warp::fuzz {
namespace {

using formats::warp_format::Header;
using formats::FileInfo;

bool is_header_refusal(ErrorCause cause) {
    return cause == ErrorCause::corrupted || cause == ErrorCause::truncated ||
           cause == ErrorCause::unsupported;
}

// The header, or the cause it was refused for.
struct Outcome {
    std::optional<Header> header;
    std::optional<ErrorCause> refused;
};

Outcome parse(std::span<const std::uint8_t> bytes) {
    stream::SpanSource in(bytes);
    try {
        Header header = formats::warp_format::read_header(in);
        check(header.bytes.size() == formats::warp_format::declared_header_size(bytes),
              "an accepted header's size does not follow from its layout");
        check(in.position() == header.bytes.size(), "the parser read past the header");
        check(std::equal(header.bytes.begin(), header.bytes.end(), bytes.begin()),
              "the header's bytes are not the input's");
        return {std::move(header), std::nullopt};
    } catch (const Error& e) {
        check(is_header_refusal(e.cause()), "a header was refused with a non-format cause");
        return {std::nullopt, e.cause()};
    }
}

void check_info_agrees(std::span<const std::uint8_t> bytes, const Outcome& outcome) {
    stream::SpanSource in(bytes);
    try {
        const FileInfo info = formats::warp_format::read_info(in, bytes.size());
        check(outcome.header.has_value(), "read_info accepted a header read_header refused");
        const Header& header = *outcome.header;
        check(info.header_bytes == header.bytes.size() &&
                  info.aead == formats::warp_format::aead_of(header.suite) &&
                  info.chunk_log2 == header.chunk_log2 &&
                  info.entries.size() == header.slots.size(),
              "read_info and read_header disagree on the fields");
        if (info.plaintext_bytes)
            check(*info.plaintext_bytes <= bytes.size() - header.bytes.size(),
                  "read_info reports more plaintext than the payload could hold");
    } catch (const Error& e) {
        check(outcome.refused == e.cause(), "read_info and read_header disagree on the verdict");
    }
}

void run(std::span<const std::uint8_t> bytes) { check_info_agrees(bytes, parse(bytes)); }

// The input with a valid checksum for the slot count it declares; nullopt when the input is
// too short for that count, or the count is out of range (nothing to fix then).
std::optional<std::vector<std::uint8_t>> with_checksum_fixed(std::span<const std::uint8_t> in) {
    const std::optional<std::size_t> declared = formats::warp_format::declared_header_size(in);
    if (!declared || in.size() < *declared) return std::nullopt;
    const std::size_t size = *declared;
    std::vector<std::uint8_t> fixed(in.begin(), in.end());
    const std::size_t covered = size - formats::warp_format::kChecksumSize - formats::warp_format::kHeaderMacSize;
    formats::store_be<std::uint64_t>(fixed.data() + covered, XXH3_64bits(fixed.data(), covered));
    return fixed;
}

}  // namespace
}  // namespace warp::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    warp::fuzz::run(input);
    if (const auto fixed = warp::fuzz::with_checksum_fixed(input)) warp::fuzz::run(*fixed);
    return 0;
}
