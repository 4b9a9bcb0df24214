#include "engine/stream/hold_last.hpp"

#include <algorithm>

#include "engine/error.hpp"
#include "engine/secure_memory.hpp"

namespace warp::stream {

HoldLastUnit::~HoldLastUnit() {
    secure_wipe(&lookahead_, 1);
    secure_wipe(held_.data(), held_.size());
}

std::size_t HoldLastUnit::read(std::uint8_t* buf, std::size_t len) {
    if (len % unit_ != 0)
        throw Error(ErrorCause::invalid_argument, "HoldLastUnit reads whole units");
    if (ended_ || len == 0) return 0;
    std::size_t n = 0;
    if (have_lookahead_) {
        buf[0] = lookahead_;
        have_lookahead_ = false;
        n = 1;
    }
    n += read_fully(in_, buf + n, len - n);
    if (n == len && read_fully(in_, &lookahead_, 1) == 1) {
        have_lookahead_ = true;  // more follows: all of these are whole units before the last
        served_ += len;
        return len;
    }
    // The input ended within these n bytes: keep its last 1..unit bytes back.
    ended_ = true;
    const std::size_t last = n == 0 ? 0 : (n - 1) % unit_ + 1;
    const std::size_t whole = n - last;
    held_.assign(buf + whole, buf + n);
    secure_wipe(buf + whole, last);
    served_ += whole;
    return whole;
}

}  // namespace warp::stream
