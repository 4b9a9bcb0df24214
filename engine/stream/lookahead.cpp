#include "engine/stream/lookahead.hpp"

#include <sodium.h>

#include <algorithm>
#include <cstring>

namespace warp::stream {

std::size_t lookahead_bytes(std::optional<Aead> cipher, const BackendRequest& request) {
    const std::vector<AutoRange> ranges = auto_ranges(cipher, request);
    if (ranges.size() < 2) return 0;
    return static_cast<std::size_t>(
        std::min<std::uint64_t>(ranges[1].from_bytes, kMaxLookaheadBytes));
}

// Left uninitialised (`new T[]`, not a vector): only the bytes read are ever looked at, and
// zeroing a 64 KiB look-ahead before reading a 1 KiB file into it, then wiping all of it, was
// a twentieth of that file's encryption (2026-12-06).
LookaheadSource::LookaheadSource(ByteSource& in, std::size_t limit)
    : in_(in), buffer_(new std::uint8_t[limit == 0 ? 1 : limit]) {
    size_ = read_fully(in_, buffer_.get(), limit);
    ended_ = size_ < limit;
}

LookaheadSource::~LookaheadSource() { sodium_memzero(buffer_.get(), size_); }

std::size_t LookaheadSource::read(std::uint8_t* buf, std::size_t len) {
    if (replayed_ < size_) {
        const std::size_t n = std::min(len, size_ - replayed_);
        std::memcpy(buf, buffer_.get() + replayed_, n);
        replayed_ += n;
        if (n == len || ended_) return n;
        return n + read_fully(in_, buf + n, len - n);  // callers expect full reads
    }
    return ended_ ? 0 : in_.read(buf, len);
}

StreamSelection select_for_stream(std::optional<Aead> cipher, const BackendRequest& request,
                                  std::optional<std::uint64_t> known_bytes, ByteSource& in,
                                  std::optional<LookaheadSource>& lookahead) {
    if (known_bytes) return {select(cipher, SizeHint::exactly(*known_bytes), request), &in};
    const std::size_t limit = lookahead_bytes(cipher, request);
    if (limit == 0) return {select(cipher, SizeHint::at_least(0), request), &in};
    lookahead.emplace(in, limit);
    const SizeHint size = lookahead->ended() ? SizeHint::exactly(lookahead->buffered())
                                             : SizeHint::at_least(limit);
    return {select(cipher, size, request), &*lookahead};
}

}  // namespace warp::stream
