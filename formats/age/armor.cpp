// age.md, "ASCII armor", after RFC 7468, section 3 (strict): the BEGIN line, base64 lines of
// exactly 64 columns but the last (1..64), no empty line, no header, no checksum, padding only
// at the end, then the END line; whitespace only before and after.
#include "formats/age/armor.hpp"

#include <algorithm>

#include "engine/error.hpp"
#include "formats/age/base64.hpp"
#include "formats/age/constants.hpp"

namespace warp::formats::age {
namespace {

constexpr std::size_t kLineBytes = kArmorColumns / 4 * 3;  // 48 bytes per full line
// Longer than any line of an armored file: what a line may hold before it is refused.
constexpr std::size_t kMaxLine = 256;

[[noreturn]] void bad_armor(const std::string& what) {
    throw Error(ErrorCause::corrupted, "age armor: " + what);
}

bool is_space(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

void write_line(ByteSink& out, const std::string& line) {
    out.write(reinterpret_cast<const std::uint8_t*>(line.data()), line.size());
    const std::uint8_t lf = '\n';
    out.write(&lf, 1);
}

}  // namespace

ArmorSink::ArmorSink(ByteSink& out) : out_(out) { write_line(out_, std::string(kArmorBegin)); }

void ArmorSink::write(const std::uint8_t* buf, std::size_t len) {
    while (len != 0) {
        const std::size_t take = std::min(len, kLineBytes - pending_.size());
        pending_.insert(pending_.end(), buf, buf + take);
        buf += take;
        len -= take;
        if (pending_.size() == kLineBytes) {
            write_line(out_, base64_encode(pending_, true));
            pending_.clear();
        }
    }
}

void ArmorSink::finish() {
    if (!pending_.empty()) write_line(out_, base64_encode(pending_, true));
    pending_.clear();
    write_line(out_, std::string(kArmorEnd));
}

bool ArmorSource::next_line(std::string& line, bool& had_newline) {
    line.clear();
    had_newline = false;
    for (;;) {
        std::uint8_t c = 0;
        if (in_.read(&c, 1) == 0) return !line.empty();
        if (c == '\n') {
            had_newline = true;
            break;
        }
        if (line.size() == kMaxLine) bad_armor("line " + std::to_string(line_number_ + 1) +
                                                " is too long");
        line += static_cast<char>(c);
    }
    ++line_number_;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CR LF is allowed
    return true;
}

void ArmorSource::begin() {
    begun_ = true;
    // Whitespace before the block is allowed; the first other byte starts the BEGIN line.
    std::uint8_t c = 0;
    do {
        if (in_.read(&c, 1) == 0) bad_armor("no BEGIN line");
        if (c == '\n') ++line_number_;
    } while (is_space(c));
    std::string line(1, static_cast<char>(c));
    std::string rest;
    bool had_newline = false;
    if (!next_line(rest, had_newline) || !had_newline) bad_armor("no line after the BEGIN line");
    line += rest;
    if (line != kArmorBegin)
        bad_armor("the first line is not \"" + std::string(kArmorBegin) + "\"");
}

void ArmorSource::check_after_end(bool had_newline) {
    ended_ = true;
    if (!had_newline) return;  // the file ends with the END line
    std::uint8_t c = 0;
    while (in_.read(&c, 1) == 1)
        if (!is_space(c)) bad_armor("data after the END line");
}

void ArmorSource::decode_next_line() {
    std::string line;
    bool had_newline = false;
    if (!next_line(line, had_newline)) bad_armor("no END line");
    const std::string where = "line " + std::to_string(line_number_);
    if (line == kArmorEnd) return check_after_end(had_newline);
    if (line.empty()) bad_armor(where + " is empty");
    if (line.size() > kArmorColumns) bad_armor(where + " is longer than 64 columns");
    const bool last = line.size() < kArmorColumns || line.back() == '=';
    const std::optional<std::vector<std::uint8_t>> bytes = base64_decode(line, true);
    if (!bytes) bad_armor(where + " is not canonical padded base64");
    decoded_ = *bytes;
    served_ = 0;
    if (last) {
        // A short or padded line is the last: the END line must follow at once.
        std::string end;
        if (!had_newline || !next_line(end, had_newline)) bad_armor("no END line");
        if (end != kArmorEnd)
            bad_armor("line " + std::to_string(line_number_) +
                      (line.size() < kArmorColumns ? ": a short line before the end of the data"
                                                   : ": data after padding"));
        check_after_end(had_newline);
    }
}

std::size_t ArmorSource::read(std::uint8_t* buf, std::size_t len) {
    if (!begun_) begin();
    std::size_t n = 0;
    while (n < len) {
        if (served_ == decoded_.size()) {
            if (ended_) break;
            decode_next_line();
            continue;
        }
        const std::size_t take = std::min(len - n, decoded_.size() - served_);
        std::copy_n(decoded_.begin() + static_cast<std::ptrdiff_t>(served_), take, buf + n);
        served_ += take;
        n += take;
    }
    return n;
}

}  // namespace warp::formats::age
