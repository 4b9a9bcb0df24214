// The front (file.hpp): detect once, then hand the file to its format.
#include "formats/file.hpp"

#include <algorithm>
#include <vector>

#include "engine/error.hpp"
#include "engine/stream/lookahead.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/age/age.hpp"
#include "formats/age/constants.hpp"
#include "formats/age/stanza_plan.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/pq/hybrid_key_cache.hpp"
#include "formats/warp/warp.hpp"

namespace warp::formats {
namespace {

bool is_age(Format format) { return format == Format::age || format == Format::age_armored; }

// The input's first bytes, read once to tell the format and replayed to its reader.
struct Detected {
    explicit Detected(ByteSource& in) : source(in, kDetectBytes), format(detect(source.bytes())) {}
    stream::LookaheadSource source;
    Format format;
};

}  // namespace

std::size_t max_recipients(Format format) {
    return is_age(format) ? age::kMaxStanzas : warp_format::kMaxSlots;
}

std::string recipient_kinds_problem(Format format, std::span<const KeyType> kinds,
                                    std::size_t unknown) {
    return is_age(format) ? age::kinds_problem(kinds, unknown) : post_quantum_mix_problem(kinds);
}

Result encrypt(ByteSource& in, ByteSink& out, const Options& options) {
    if (is_age(options.format)) return age::encrypt(in, out, options);
    if (options.armor)
        throw Error(ErrorCause::usage, "ASCII armor is age's, and the format is warp");
    return warp_format::encrypt(in, out, options);
}

Result decrypt(ByteSource& in, ByteSink& out, const Options& options) {
    const pq::HybridKeyCacheScope run;  // post-quantum identities expanded once in this call
    Detected file(in);
    if (is_age(file.format))
        return age::decrypt(file.source, out, options, file.format == Format::age_armored);
    return warp_format::decrypt(file.source, out, options);
}

Result verify(ByteSource& in, const Options& options) {
    stream::DiscardSink discard;
    return decrypt(in, discard, options);
}

Result decrypt_range(const RandomAccessSource& in, ByteSink& out, const Options& options,
                     std::uint64_t offset, std::uint64_t length) {
    const pq::HybridKeyCacheScope run;
    const std::vector<std::uint8_t> first = stream::read_bytes_at(
        in, 0, static_cast<std::size_t>(std::min<std::uint64_t>(kDetectBytes, in.size())));
    switch (detect(first)) {
        case Format::age: return age::decrypt_range(in, out, options, offset, length);
        case Format::age_armored:
            throw Error(ErrorCause::usage,
                        "an armored age file cannot be decrypted in part: its bytes are base64 "
                        "lines, not chunks at offsets; decrypt it whole, or keep binary age "
                        "files for ranges");
        case Format::warp:
        case Format::unknown: break;
    }
    return warp_format::decrypt_range(in, out, options, offset, length);
}

Result rekey(ByteSource& in, ByteSink& out, const Options& options) {
    const pq::HybridKeyCacheScope run;
    Detected file(in);
    if (is_age(file.format))
        return age::rekey(file.source, out, options, file.format == Format::age_armored);
    return warp_format::rekey(file.source, out, options);
}

FileInfo read_info(ByteSource& in, std::optional<std::uint64_t> file_size) {
    Detected file(in);
    if (is_age(file.format))
        return age::read_info(file.source, file.format == Format::age_armored, file_size);
    return warp_format::read_info(file.source, file_size);
}

}  // namespace warp::formats
