// Choosing the payload's backend when the input's length is not known (a pipe): `auto`
// compares backends by the input's size (engine/registry.hpp), and a backend with a large
// per-call cost (a GPU) wins only on large inputs. For a stream, the choice waits until enough
// data has arrived: the input is read ahead up to the size from which auto's choice changes
// (capped at kMaxLookaheadBytes); if it ends before, its size is known exactly; if not, it is
// at least that large. The bytes read ahead are then replayed to the pipeline, so nothing is
// read twice. Where auto's choice is the same at every size (any machine without a GPU, with
// the built-in model), nothing is read ahead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/aead.hpp"
#include "engine/io.hpp"
#include "engine/registry.hpp"
#include "formats/container.hpp"

namespace warp::formats {

// The most a stream is read ahead to choose a backend; a stream longer than this counts as
// "large" (kUnknownSizeHint).
inline constexpr std::size_t kMaxLookaheadBytes = std::size_t{16} << 20;
// The size auto assumes for a stream that did not end within the look-ahead.
inline constexpr std::uint64_t kUnknownSizeHint = std::uint64_t{1} << 30;

// How far to read ahead before choosing for `aead`: the first size from which auto's choice
// differs from its choice for an empty input, at most kMaxLookaheadBytes; 0 when the choice is
// the same at every size.
std::size_t lookahead_bytes(Aead aead);

// A source that first replays what was read ahead, then reads on from the underlying source.
class LookaheadSource final : public ByteSource {
public:
    // Reads up to `limit` bytes of `in` now.
    LookaheadSource(ByteSource& in, std::size_t limit);
    ~LookaheadSource() override;  // wipes the buffered bytes (plaintext, when encrypting)

    // Whether the whole input was read ahead; then buffered() is its size.
    bool ended() const noexcept { return ended_; }
    std::size_t buffered() const noexcept { return buffer_.size(); }

    std::size_t read(std::uint8_t* buf, std::size_t len) override;

private:
    ByteSource& in_;
    std::vector<std::uint8_t> buffer_;
    std::size_t replayed_ = 0;
    bool ended_ = false;
};

// The payload's AEAD implementation and the source to read the payload from: `backend` when
// given; else auto's choice for `size_hint` when known; else auto's choice after reading
// ahead (then `source` is `lookahead`, constructed here).
struct PayloadInput {
    const AeadImpl* aead = nullptr;
    ByteSource* source = nullptr;
};
PayloadInput choose_payload_input(const Backend* backend, Suite suite,
                                  std::optional<std::uint64_t> size_hint, ByteSource& in,
                                  std::optional<LookaheadSource>& lookahead);

}  // namespace warp::formats
