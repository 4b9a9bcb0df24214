// A source that holds back the last unit of its input: it serves `in` in whole units of
// `unit` bytes, only as long as at least one more byte follows, so that the last 1..unit
// bytes (none for an empty input) are left over, for the caller to handle apart once the read
// came back short: held(). A format whose final chunk is marked as final and holds data (age's
// STREAM) seals and opens everything before it through the chunk pipeline this way, and the
// final chunk itself on its own.
//
// Reads must ask for whole units (the pipeline reads whole batches); bytes pass straight
// through to the caller's buffer, except one byte of look-ahead and the held-back unit, both
// wiped when done (they may be plaintext).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/io.hpp"

namespace warp::stream {

class HoldLastUnit final : public ByteSource {
public:
    HoldLastUnit(ByteSource& in, std::size_t unit) : in_(in), unit_(unit) {}
    ~HoldLastUnit() override;
    HoldLastUnit(const HoldLastUnit&) = delete;
    HoldLastUnit& operator=(const HoldLastUnit&) = delete;

    // Throws Error(invalid_argument) for a length that is not a whole number of units.
    std::size_t read(std::uint8_t* buf, std::size_t len) override;

    // The held-back bytes, once a read came back short (the input ended): 1..unit bytes, or
    // none when the input was empty.
    std::span<const std::uint8_t> held() const noexcept { return held_; }
    // Whole units served so far.
    std::uint64_t units_served() const noexcept { return served_ / unit_; }
    // The byte of look-ahead, once read, is the next one served.
    std::uint64_t position() const noexcept override {
        return in_.position() - (have_lookahead_ ? 1 : 0);
    }

private:
    ByteSource& in_;
    std::size_t unit_;
    std::uint8_t lookahead_ = 0;
    bool have_lookahead_ = false;
    bool ended_ = false;
    std::uint64_t served_ = 0;
    std::vector<std::uint8_t> held_;
};

}  // namespace warp::stream
