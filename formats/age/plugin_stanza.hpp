// age-plugin.md, "IPC protocol": the client and the plugin talk in age stanzas, serialized as
// in the v1 header (header.hpp: the same argument line, the same body lines of 64 base64
// columns and a final shorter one). What the plugin sends is read here with the header's
// grammar and with limits, since a plugin is another program: a broken or hostile one gets a
// one-line error, never an unbounded read.
#pragma once

#include <cstddef>

#include "engine/io.hpp"
#include "formats/age/header.hpp"

namespace warp::formats::age {

// Longer than any stanza a plugin has reason to send (an ML-KEM stanza's line is 1.5 KB).
inline constexpr std::size_t kMaxPluginLineBytes = 64 * 1024;
inline constexpr std::size_t kMaxPluginBodyBytes = 1024 * 1024;

// The next stanza from `in`. Throws Error(io, what is wrong), the plugin's failure, for a
// stanza the grammar does not allow or over the limits, and when the input ends before or
// inside one (the plugin closed its output or exited). `in` may throw too (a timeout).
Stanza read_plugin_stanza(ByteSource& in);

}  // namespace warp::formats::age
