// The progress bar: one line on stderr, redrawn with \r: bytes done, total and percentage when
// known, rate, ETA. Shown when stderr is a terminal and the input is large (>= 64 MiB) or of
// unknown size and the command has run for over a second; --progress forces it, --quiet hides
// it. No colour, no escape sequences, so NO_COLOR has nothing to turn off.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "formats/options.hpp"

namespace warp::cli {

enum class ProgressMode { automatic, forced, off };

inline constexpr std::uint64_t kProgressMinBytes = std::uint64_t{64} << 20;

class Progress {
public:
    Progress(ProgressMode mode, std::optional<std::uint64_t> total);
    ~Progress();  // ends a bar left mid-line (an error follows on a line of its own)
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // The callback for formats' options; it refers to this object, which must outlive it.
    formats::ProgressFn callback();
    // Draws the final state and ends the line, if the bar was ever shown.
    void finish();

private:
    void update(std::uint64_t done, bool final);
    bool wanted(std::chrono::steady_clock::duration elapsed) const;
    void draw(std::uint64_t done, double seconds);

    ProgressMode mode_;
    std::optional<std::uint64_t> total_;
    bool stderr_is_terminal_;
    std::chrono::steady_clock::time_point start_, last_draw_;
    std::uint64_t done_ = 0;
    bool shown_ = false;
    std::size_t last_width_ = 0;
    std::mutex mutex_;
};

// "1.50 GiB", "512 B": binary units, as the sizes users see in ls -h.
std::string human_bytes(double bytes);

}  // namespace warp::cli
