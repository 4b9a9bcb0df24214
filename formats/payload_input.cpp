#include "formats/payload_input.hpp"

#include <sodium.h>

#include <algorithm>
#include <cstring>

#include "formats/suite.hpp"

namespace warp::formats {

std::size_t lookahead_bytes(Aead aead) {
    const std::vector<AutoRange> ranges = auto_ranges(aead);
    if (ranges.size() < 2) return 0;
    return static_cast<std::size_t>(
        std::min<std::uint64_t>(ranges[1].from_bytes, kMaxLookaheadBytes));
}

LookaheadSource::LookaheadSource(ByteSource& in, std::size_t limit) : in_(in) {
    buffer_.resize(limit);
    const std::size_t got = read_fully(in_, buffer_.data(), limit);
    buffer_.resize(got);  // shrinking keeps the capacity: the destructor wipes all of it
    ended_ = got < limit;
}

LookaheadSource::~LookaheadSource() { sodium_memzero(buffer_.data(), buffer_.capacity()); }

std::size_t LookaheadSource::read(std::uint8_t* buf, std::size_t len) {
    if (replayed_ < buffer_.size()) {
        const std::size_t n = std::min(len, buffer_.size() - replayed_);
        std::memcpy(buf, buffer_.data() + replayed_, n);
        replayed_ += n;
        if (n == len || ended_) return n;
        return n + read_fully(in_, buf + n, len - n);  // callers expect full reads
    }
    return ended_ ? 0 : in_.read(buf, len);
}

PayloadInput choose_payload_input(const Backend* backend, Suite suite,
                                  std::optional<std::uint64_t> size_hint, ByteSource& in,
                                  std::optional<LookaheadSource>& lookahead) {
    if (backend != nullptr || size_hint.has_value())
        return {&resolve_aead(backend, suite, size_hint.value_or(0)), &in};
    const std::size_t limit = lookahead_bytes(aead_of(suite));
    if (limit == 0) return {&resolve_aead(nullptr, suite, kUnknownSizeHint), &in};
    lookahead.emplace(in, limit);
    const std::uint64_t size = lookahead->ended() ? lookahead->buffered() : kUnknownSizeHint;
    return {&resolve_aead(nullptr, suite, size), &*lookahead};
}

}  // namespace warp::formats
