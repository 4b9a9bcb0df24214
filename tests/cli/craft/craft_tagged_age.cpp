// A test's stand-in for the author of a hostile age file (security review 3, item 4): an age
// file to an SSH recipient whose header carries, before the recipient's real stanza, `junk`
// stanzas with the same public key tag and bodies of noise, under a header MAC that verifies,
// since the author knows the file key. A reader that tried every stanza with the tag opens the
// file after `junk` private-key operations; age, and warpcrypt now, stop at the first.
//
// Usage: warpcrypt-craft-tagged-age RECIPIENTS_FILE JUNK OUTPUT < plaintext
// The junk copies the first recipient's stanza (an ssh-rsa or ssh-ed25519 line); the others
// get their stanzas after it as usual. Test code only: never installed.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "engine/stream/memory_io.hpp"
#include "formats/age/age.hpp"
#include "formats/age/header.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/age/unlock.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/key_kind.hpp"
#include "tests/cli/craft/author.hpp"

using namespace warp;
using namespace warp::formats;

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: " << argv[0] << " RECIPIENTS_FILE JUNK OUTPUT < plaintext\n";
        return 2;
    }
    const std::vector<Secret> recipients = craft::recipients_in(argv[1]);
    const std::size_t junk = std::strtoul(argv[2], nullptr, 10);
    const std::string plaintext = craft::all_of_stdin();

    // The file as any writer makes it, with a file key the author keeps (the first random
    // bytes the encryption draws).
    age::FileKey file_key{};
    system_random(file_key.data(), file_key.size());
    Options options;
    options.format = Format::age;
    options.recipients = recipients;
    options.threads = 1;
    options.random = craft::drawing_first(file_key);
    stream::SpanSource in(std::span(reinterpret_cast<const std::uint8_t*>(plaintext.data()),
                                    plaintext.size()));
    stream::VectorSink sealed;
    age::encrypt(in, sealed, options);
    stream::SpanSource again{std::span<const std::uint8_t>(sealed.bytes)};
    const age::Header header = age::read_header(again);
    const std::string payload(reinterpret_cast<const char*>(sealed.bytes.data()) + header.size,
                              sealed.bytes.size() - header.size);

    // The junk, then the real stanzas, under a MAC made with the file key.
    std::vector<age::Stanza> stanzas;
    for (std::size_t i = 0; i < junk; ++i) {
        age::Stanza noise = header.stanzas.at(0);
        system_random(noise.body.data(), noise.body.size());
        stanzas.push_back(noise);
    }
    stanzas.insert(stanzas.end(), header.stanzas.begin(), header.stanzas.end());
    WipedKey mac_key;
    age::derive_key(file_key, {}, age::kHeaderLabel, mac_key);
    std::ofstream out(argv[3], std::ios::binary);
    out << age::write_header(stanzas, mac_key.span()) << payload;
    return out ? 0 : 1;
}
