// Deciding for a payload whose length is not known (a pipe): the decision (engine/selection.hpp)
// compares backends by the payload's size, and a backend with a large per-call cost (a GPU)
// wins only on large inputs. For a stream, the decision waits until enough data has arrived:
// the input is read ahead up to the size from which the decision changes (capped at
// kMaxLookaheadBytes); if it ends before, its size is known exactly; if not, it is at least
// that large. The bytes read ahead are then replayed to the pipeline, so nothing is read
// twice. Where the decision is the same at every size (any machine without a GPU, with the
// built-in model), nothing is read ahead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "engine/io.hpp"
#include "engine/selection.hpp"

namespace warp::stream {

// The most a stream is read ahead before deciding; a stream that has not ended by then is
// "at least this large" (SizeHint::at_least).
inline constexpr std::size_t kMaxLookaheadBytes = std::size_t{16} << 20;

// How far to read ahead before deciding: the first size from which the decision differs from
// its decision for an empty input, at most kMaxLookaheadBytes; 0 when it is the same at every
// size.
std::size_t lookahead_bytes(std::optional<Aead> cipher, const BackendRequest& request);

// A source that first replays what was read ahead, then reads on from the underlying source:
// for the decision below, and for telling a file's format by its first bytes (formats/file.cpp).
class LookaheadSource final : public ByteSource {
public:
    // Reads up to `limit` bytes of `in` now.
    LookaheadSource(ByteSource& in, std::size_t limit);
    ~LookaheadSource() override;  // wipes the buffered bytes (plaintext, when encrypting)
    LookaheadSource(const LookaheadSource&) = delete;
    LookaheadSource& operator=(const LookaheadSource&) = delete;

    // Whether the whole input was read ahead; then buffered() is its size.
    bool ended() const noexcept { return ended_; }
    std::size_t buffered() const noexcept { return size_; }
    // The bytes read ahead (a format's first bytes, to tell which it is), valid while alive.
    std::span<const std::uint8_t> bytes() const noexcept { return {buffer_.get(), size_}; }

    std::size_t read(std::uint8_t* buf, std::size_t len) override;
    std::uint64_t position() const noexcept override {
        return in_.position() - (size_ - replayed_);
    }

private:
    ByteSource& in_;
    std::unique_ptr<std::uint8_t[]> buffer_;  // `limit` bytes, the first size_ read
    std::size_t size_ = 0;
    std::size_t replayed_ = 0;
    bool ended_ = false;
};

// The decision for a payload read from `in`, and the source to read it from: decided for
// `known_bytes` when given; else after reading ahead (then `source` is `lookahead`,
// constructed here, which must outlive the reading).
struct StreamSelection {
    Selection selection;
    ByteSource* source = nullptr;
};
StreamSelection select_for_stream(std::optional<Aead> cipher, const BackendRequest& request,
                                  std::optional<std::uint64_t> known_bytes, ByteSource& in,
                                  std::optional<LookaheadSource>& lookahead);

}  // namespace warp::stream
