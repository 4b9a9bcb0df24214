#include "cli/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace warp::cli {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr auto kUnknownSizeDelay = std::chrono::seconds(1);

std::string format_duration(double seconds) {
    auto total = static_cast<long long>(seconds + 0.5);
    char text[32];
    if (total >= 3600)
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", total / 3600, total / 60 % 60, total % 60);
    else
        std::snprintf(text, sizeof text, "%lld:%02lld", total / 60, total % 60);
    return text;
}

}  // namespace

std::string human_bytes(double bytes) {
    static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    std::size_t unit = 0;
    while (bytes >= 1024.0 && unit + 1 < std::size(kUnits)) {
        bytes /= 1024.0;
        ++unit;
    }
    char text[32];
    if (unit == 0)
        std::snprintf(text, sizeof text, "%.0f B", bytes);
    else
        std::snprintf(text, sizeof text, "%.2f %s", bytes, kUnits[unit]);
    return text;
}

Progress::Progress(ProgressMode mode, std::optional<std::uint64_t> total)
    : mode_(mode), total_(total), stderr_is_terminal_(::isatty(STDERR_FILENO) != 0),
      start_(Clock::now()), last_draw_(start_) {}

Progress::~Progress() {
    if (shown_) std::fputc('\n', stderr);
}

formats::ProgressFn Progress::callback() {
    if (mode_ == ProgressMode::off) return {};
    if (mode_ == ProgressMode::automatic && !stderr_is_terminal_) return {};
    if (mode_ == ProgressMode::automatic && total_ && *total_ < kProgressMinBytes) return {};
    return [this](std::uint64_t done) { update(done, false); };
}

bool Progress::wanted(Clock::duration elapsed) const {
    switch (mode_) {
    case ProgressMode::off:
        return false;
    case ProgressMode::forced:
        return true;
    case ProgressMode::automatic:
        if (!stderr_is_terminal_) return false;
        if (total_) return *total_ >= kProgressMinBytes;
        return elapsed > kUnknownSizeDelay;
    }
    return false;
}

void Progress::update(std::uint64_t done, bool final) {
    std::lock_guard lock(mutex_);
    done_ = std::max(done_, done);
    auto now = Clock::now();
    if (!final && (!wanted(now - start_) || (shown_ && now - last_draw_ < kRedrawInterval))) return;
    if (final && !shown_ && mode_ != ProgressMode::forced) return;
    last_draw_ = now;
    draw(done_, std::chrono::duration<double>(now - start_).count());
}

void Progress::draw(std::uint64_t done, double seconds) {
    double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
    std::string line = "warpcrypt: " + human_bytes(static_cast<double>(done));
    if (total_ && *total_ > 0) {
        double fraction = std::min(1.0, static_cast<double>(done) / static_cast<double>(*total_));
        char percent[16];
        std::snprintf(percent, sizeof percent, " %3.0f%%", fraction * 100.0);
        line += " / " + human_bytes(static_cast<double>(*total_)) + percent;
    }
    line += "  " + human_bytes(rate) + "/s";
    if (total_ && rate > 0 && done < *total_)
        line += "  ETA " + format_duration(static_cast<double>(*total_ - done) / rate);
    else
        line += "  " + format_duration(seconds);
    std::size_t width = line.size();
    if (width < last_width_) line.append(last_width_ - width, ' ');  // erase the longer old line
    last_width_ = width;
    std::fputs(("\r" + line).c_str(), stderr);
    std::fflush(stderr);
    shown_ = true;
}

void Progress::finish() {
    // A decrypt's total is the ciphertext size, an estimate: the end is 100% by definition.
    if (total_) total_ = done_;
    update(done_, true);
    std::lock_guard lock(mutex_);
    if (shown_) std::fputc('\n', stderr);
    shown_ = false;
}

}  // namespace warp::cli
