// age-plugin.md, "IPC protocol": one stanza from a plugin (plugin_stanza.hpp).
#include "formats/age/plugin_stanza.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "engine/error.hpp"
#include "engine/secure_memory.hpp"
#include "formats/age/base64.hpp"

namespace warp::formats::age {
namespace {

[[noreturn]] void malformed(const std::string& what) {
    // The plugin broke the protocol: its failure, not the file's (io, as every other).
    throw Error(ErrorCause::io, "sent a malformed stanza: " + what);
}

// Text read from a plugin, which may hold a secret (a file key's base64): wiped when done,
// and when it grows (the old buffer is wiped before it is let go).
class WipedText {
public:
    WipedText() { text_.reserve(kColumns + 1); }  // a body line never reallocates
    ~WipedText() { wipe(text_); }
    WipedText(const WipedText&) = delete;
    WipedText& operator=(const WipedText&) = delete;

    void append(std::string_view more) {
        if (text_.size() + more.size() > text_.capacity()) {
            std::string larger;
            larger.reserve(std::max(2 * text_.capacity(), text_.size() + more.size()));
            larger.append(text_);
            wipe(text_);
            text_.swap(larger);
        }
        text_.append(more);
    }
    void clear() { wipe(text_); }
    std::string_view view() const { return text_; }
    std::size_t size() const { return text_.size(); }

private:
    static void wipe(std::string& text) {
        text.resize(text.capacity());
        secure_wipe(text.data(), text.size());
        text.clear();
    }
    std::string text_;
};

// One line without its LF into `line` (cleared first); the end of input inside or before it
// is a truncation.
void read_line(ByteSource& in, WipedText& line) {
    line.clear();
    for (;;) {
        std::uint8_t c = 0;
        if (in.read(&c, 1) == 0)
            throw Error(ErrorCause::io, line.size() == 0
                                            ? "closed its output before saying \"done\""
                                            : "closed its output inside a stanza");
        if (c == '\n') return;
        if (line.size() == kMaxPluginLineBytes)
            malformed("a line longer than " + std::to_string(kMaxPluginLineBytes / 1024) + " KiB");
        const char ch = static_cast<char>(c);
        line.append(std::string_view(&ch, 1));
    }
}

}  // namespace

Stanza read_plugin_stanza(ByteSource& in) {
    std::string why;
    WipedText line;
    read_line(in, line);
    std::optional<Stanza> stanza = stanza_of_arg_line(line.view(), why);
    if (!stanza) malformed(why);
    WipedText body_text;
    for (;;) {
        read_line(in, line);
        if (line.size() > kColumns) malformed("a body line longer than 64 columns");
        if (body_text.size() + line.size() > kMaxPluginBodyBytes / 3 * 4)
            malformed("a body over " + std::to_string(kMaxPluginBodyBytes / 1024) + " KiB");
        body_text.append(line.view());
        if (line.size() < kColumns) break;  // the final, short line (maybe empty)
    }
    std::optional<std::vector<std::uint8_t>> body = base64_decode(body_text.view(), false);
    if (!body) malformed("a body that is not canonical unpadded base64");
    stanza->body = std::move(*body);
    return std::move(*stanza);
}

}  // namespace warp::formats::age
