// age-plugin.md, "IPC protocol": one stanza from a plugin (plugin_stanza.hpp).
#include "formats/age/plugin_stanza.hpp"

#include <optional>
#include <string>

#include "engine/error.hpp"
#include "formats/age/base64.hpp"

namespace warp::formats::age {
namespace {

[[noreturn]] void malformed(const std::string& what) {
    // The plugin broke the protocol: its failure, not the file's (io, as every other).
    throw Error(ErrorCause::io, "sent a malformed stanza: " + what);
}

// One line without its LF; the end of input inside or before it is a truncation.
std::string read_line(ByteSource& in) {
    std::string line;
    for (;;) {
        std::uint8_t c = 0;
        if (in.read(&c, 1) == 0)
            throw Error(ErrorCause::io, line.empty()
                                                   ? "closed its output before saying \"done\""
                                                   : "closed its output inside a stanza");
        if (c == '\n') return line;
        if (line.size() == kMaxPluginLineBytes)
            malformed("a line longer than " + std::to_string(kMaxPluginLineBytes / 1024) + " KiB");
        line += static_cast<char>(c);
    }
}

}  // namespace

Stanza read_plugin_stanza(ByteSource& in) {
    std::string why;
    std::optional<Stanza> stanza = stanza_of_arg_line(read_line(in), why);
    if (!stanza) malformed(why);
    std::string body_text;
    for (;;) {
        const std::string line = read_line(in);
        if (line.size() > kColumns) malformed("a body line longer than 64 columns");
        if (body_text.size() + line.size() > kMaxPluginBodyBytes / 3 * 4)
            malformed("a body over " + std::to_string(kMaxPluginBodyBytes / 1024) + " KiB");
        body_text += line;
        if (line.size() < kColumns) break;  // the final, short line (maybe empty)
    }
    std::optional<std::vector<std::uint8_t>> body = base64_decode(body_text, false);
    if (!body) malformed("a body that is not canonical unpadded base64");
    stanza->body = std::move(*body);
    return std::move(*stanza);
}

}  // namespace warp::formats::age
