// age.md, "Header" and its ABNF definition:
//   header = v1-line 1*stanza end; end = "--- " 43base64char LF;
//   stanza = arg-line *full-line final-line; arg-line = "-> " argument *(SP argument) LF;
//   argument = 1*VCHAR; full-line = 64base64char LF; final-line = *63base64char LF.
#include "formats/age/header.hpp"

#include <algorithm>
#include <optional>

#include "engine/error.hpp"
#include "formats/age/base64.hpp"
#include "formats/common/kdf.hpp"

namespace warp::formats::age {
namespace {

[[noreturn]] void malformed(const std::string& what) {
    throw Error(ErrorCause::corrupted, "age header: " + what);
}

bool is_vchar(char c) { return c >= 0x21 && c <= 0x7e; }

// Reads the header a line at a time, never past its end; counts what it read.
class LineReader {
public:
    explicit LineReader(ByteSource& in) : in_(in) {}

    // The next line without its LF; nullopt at the end of the input before any byte. A line
    // cut by the end of the input is a truncated header.
    std::optional<std::string> next() {
        std::string line;
        for (;;) {
            std::uint8_t c = 0;
            if (in_.read(&c, 1) == 0) {
                if (line.empty()) return std::nullopt;
                throw Error(ErrorCause::truncated,
                            "truncated: input ends inside the age header (line " +
                                std::to_string(number_ + 1) + ")");
            }
            if (++size_ > kMaxHeaderBytes)
                malformed("longer than " + std::to_string(kMaxHeaderBytes / (1024 * 1024)) +
                          " MiB: not a header this reader accepts (nor does age)");
            if (c == '\n') break;
            if (c == '\r') malformed("line " + std::to_string(number_ + 1) +
                                     " ends with CR LF; age headers use LF alone");
            line += static_cast<char>(c);
        }
        ++number_;
        text_ += line;
        text_ += '\n';
        return line;
    }
    std::string need(const char* what) {
        std::optional<std::string> line = next();
        if (!line)
            throw Error(ErrorCause::truncated,
                        std::string("truncated: input ends inside the age header, before ") + what);
        return *line;
    }
    std::size_t number() const { return number_; }
    std::size_t size() const { return size_; }
    const std::string& text() const { return text_; }

private:
    ByteSource& in_;
    std::size_t number_ = 0;
    std::size_t size_ = 0;
    std::string text_;
};

std::string where(const LineReader& lines) { return "line " + std::to_string(lines.number()); }

Stanza parse_arg_line(const std::string& line, const LineReader& lines) {
    std::string why;
    std::optional<Stanza> stanza = stanza_of_arg_line(line, why);
    if (!stanza) malformed(where(lines) + ": " + why);
    return std::move(*stanza);
}

}  // namespace

std::optional<Stanza> stanza_of_arg_line(std::string_view line, std::string& why) {
    if (!line.starts_with(kStanzaPrefix)) {
        why = "a line that does not start with \"-> \"";
        return std::nullopt;
    }
    Stanza stanza;
    std::size_t at = kStanzaPrefix.size();
    while (at <= line.size()) {
        const std::size_t end = std::min(line.find(' ', at), line.size());
        if (end == at) {
            why = "an empty stanza argument";
            return std::nullopt;
        }
        const std::string_view arg = line.substr(at, end - at);
        if (!std::all_of(arg.begin(), arg.end(), is_vchar)) {
            why = "a stanza argument holds a character that is not VCHAR";
            return std::nullopt;
        }
        stanza.args.emplace_back(arg);
        at = end + 1;
    }
    if (stanza.args.empty()) {
        why = "a stanza without arguments";
        return std::nullopt;
    }
    return stanza;
}

std::string stanza_text(const Stanza& stanza) {
    std::string text(kStanzaPrefix);
    for (std::size_t i = 0; i < stanza.args.size(); ++i)
        text += (i == 0 ? "" : " ") + stanza.args[i];
    text += '\n';
    const std::string body = base64_encode(stanza.body, false);
    // Full lines of 64, then a final shorter one, empty when the body fills its lines.
    std::size_t at = 0;
    for (; at + kColumns <= body.size(); at += kColumns) text += body.substr(at, kColumns) + '\n';
    text += body.substr(at) + '\n';
    return text;
}

Header read_header(ByteSource& in) {
    LineReader lines(in);
    const std::optional<std::string> first = lines.next();
    if (!first) throw Error(ErrorCause::truncated, "truncated: the input is empty");
    if (*first != kVersionLine) {
        if (first->starts_with(kIntro))
            throw Error(ErrorCause::unsupported,
                        "unsupported age version \"" + first->substr(kIntro.size()) +
                            "\" (this build reads age-encryption.org/v1)");
        malformed("the first line is not \"" + std::string(kVersionLine) + "\"");
    }
    Header header;
    std::string line = lines.need("the first stanza");
    while (line.starts_with(kStanzaPrefix)) {
        if (header.stanzas.size() == kMaxStanzas)
            malformed(where(lines) + ": more than " + std::to_string(kMaxStanzas) +
                      " stanzas: not a header this reader accepts (nor does age)");
        Stanza stanza = parse_arg_line(line, lines);
        std::string body_text;
        for (;;) {
            const std::string body_line = lines.need("the end of a stanza's body");
            if (body_line.size() > kColumns)
                malformed(where(lines) + ": a stanza body line longer than 64 columns");
            body_text += body_line;
            if (body_line.size() < kColumns) break;  // the final, short line (maybe empty)
        }
        std::optional<std::vector<std::uint8_t>> body = base64_decode(body_text, false);
        if (!body) malformed(where(lines) + ": a stanza body is not canonical unpadded base64");
        stanza.body = std::move(*body);
        header.stanzas.push_back(std::move(stanza));
        line = lines.need("the MAC line");
    }
    if (header.stanzas.empty()) malformed(where(lines) + ": no recipient stanza");
    if (!line.starts_with(kMacPrefix))
        malformed(where(lines) + ": a line that is neither a stanza nor the MAC line");
    const std::string encoded = line.substr(kMacPrefix.size());
    if (encoded.size() != 1 + kMacBase64Size || encoded[0] != ' ')
        malformed(where(lines) + ": the MAC line is not \"--- \" and 43 base64 characters");
    std::optional<std::vector<std::uint8_t>> mac = base64_decode(encoded.substr(1), false);
    if (!mac || mac->size() != kMacSize)
        malformed(where(lines) + ": the MAC is not canonical base64 of 32 bytes");
    std::copy(mac->begin(), mac->end(), header.mac.begin());
    header.size = lines.size();
    header.mac_input = lines.text().substr(0, lines.text().size() - line.size() - 1 +
                                                  kMacPrefix.size());
    return header;
}

std::array<std::uint8_t, kMacSize> header_mac(std::string_view mac_input,
                                              std::span<const std::uint8_t, 32> mac_key) {
    const Mac mac = hmac_sha256(
        mac_key, {std::span<const std::uint8_t>(
                     reinterpret_cast<const std::uint8_t*>(mac_input.data()), mac_input.size())});
    std::array<std::uint8_t, kMacSize> out{};
    std::copy(mac.begin(), mac.end(), out.begin());
    return out;
}

std::string write_header(std::span<const Stanza> stanzas,
                         std::span<const std::uint8_t, 32> mac_key) {
    // The reader's limits (constants.hpp) bind the writer too: a header no reader opens is not
    // written, whoever chose the recipients.
    if (stanzas.size() > kMaxStanzas)
        throw Error(ErrorCause::usage, "an age header holds at most " +
                                           std::to_string(kMaxStanzas) + " stanzas, and this one "
                                           "would have " + std::to_string(stanzas.size()));
    std::string text(kVersionLine);
    text += '\n';
    for (const Stanza& stanza : stanzas) text += stanza_text(stanza);
    text += kMacPrefix;
    const std::array<std::uint8_t, kMacSize> mac = header_mac(text, mac_key);
    text += ' ' + base64_encode(mac, false) + '\n';
    if (text.size() > kMaxHeaderBytes)
        throw Error(ErrorCause::usage,
                    "the age header would be " + std::to_string(text.size()) + " bytes (" +
                        std::to_string(stanzas.size()) + " stanzas), over the " +
                        std::to_string(kMaxHeaderBytes / (1024 * 1024)) +
                        " MiB that readers accept (age's limit too): a file nobody could open "
                        "is not written; use fewer recipients, or smaller RSA keys");
    return text;
}

}  // namespace warp::formats::age
