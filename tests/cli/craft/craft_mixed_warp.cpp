// A test's stand-in for another tool that writes warp files (security review 3, item 9): a
// file with one slot per recipient, in order, whatever their kinds, so X25519 and ML-KEM-768 +
// X25519 slots together, which warpcrypt's own writer refuses to make (SPEC 4.8) and its
// reader opens. The slots are made by the format's own code with one file key, as a rekey
// adds them (SPEC 4.7).
//
// Usage: warpcrypt-craft-mixed-warp RECIPIENTS_FILE OUTPUT < plaintext
// Test code only: never installed.
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "engine/selection.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/warp/header.hpp"
#include "formats/warp/key_slot.hpp"
#include "formats/warp/suite.hpp"
#include "formats/warp/unlock.hpp"
#include "formats/warp/warp.hpp"
#include "tests/cli/craft/author.hpp"

using namespace warp;
using namespace warp::formats;
using namespace warp::formats::warp_format;

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: " << argv[0] << " RECIPIENTS_FILE OUTPUT < plaintext\n";
        return 2;
    }
    const std::vector<Secret> recipients = craft::recipients_in(argv[1]);
    const std::string plaintext = craft::all_of_stdin();

    // The file to the first recipient, with a file key the author keeps (the first random
    // bytes the encryption draws, SPEC 9).
    std::array<std::uint8_t, kFileKeySize> file_key{};
    system_random(file_key.data(), file_key.size());
    Options options;
    options.recipients = {recipients.at(0)};
    options.aead = Aead::chacha20_poly1305;
    options.threads = 1;
    options.random = craft::drawing_first(file_key);
    stream::SpanSource in(std::span(reinterpret_cast<const std::uint8_t*>(plaintext.data()),
                                    plaintext.size()));
    stream::VectorSink sealed;
    encrypt(in, sealed, options);
    stream::SpanSource again{std::span<const std::uint8_t>(sealed.bytes)};
    const Header header = read_header(again);

    // Its slot, then one for each other recipient, under a MAC made with the file key.
    const Selection selection =
        select(Aead::chacha20_poly1305, SizeHint::exactly(kFileKeySize), {});
    std::vector<std::vector<std::uint8_t>> slots = {header.slots.at(0).stored};
    for (std::size_t i = 1; i < recipients.size(); ++i)
        slots.push_back(
            make_slot(recipients[i], file_key, *selection.impl, RandomFn(system_random)));
    std::vector<std::uint8_t> bytes =
        build_header(header.suite, header.chunk_log2, slots, header.payload_nonce);
    WipedKey header_key;
    derive_header_key(file_key, header_key);
    set_header_mac(bytes, header_key.span());
    std::ofstream out(argv[2], std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.write(reinterpret_cast<const char*>(sealed.bytes.data() + header.bytes.size()),
              static_cast<std::streamsize>(sealed.bytes.size() - header.bytes.size()));
    return out ? 0 : 1;
}
