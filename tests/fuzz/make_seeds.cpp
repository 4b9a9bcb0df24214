// fuzz-make-seeds: writes the seed corpus of the format targets (scripts/make-fuzz-corpus.sh
// runs it): real files encrypted under the fixed key-file secret, with the corner cases of
// SPEC 6 in a few KiB (small chunks, so that a file of 9 KB has three), their headers alone,
// and one recipe per edit kind of fuzz-decrypt-mutate. Randomness is seeded, so the corpus is
// the same bytes every time it is made.
//
// Usage: fuzz-make-seeds CORPUS_DIR   (writes CORPUS_DIR/fuzz-{header,decrypt,decrypt-mutate}/)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/stream/memory_io.hpp"
#include "formats/warp/constants.hpp"
#include "formats/warp/header.hpp"
#include "formats/age/age.hpp"
#include "formats/age/constants.hpp"
#include "formats/keys/pq/hybrid_keys.hpp"
#include "formats/keys/ssh.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;
using warp::formats::warp_format::Suite;

void write_file(const fs::path& path, const Bytes& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

// Readable, so that a seed's plaintext is recognisable in a hex dump.
Bytes text(std::size_t size) {
    const std::string line = "warpcrypt fuzz seed plaintext, line ";
    Bytes bytes;
    for (std::size_t n = 0; bytes.size() < size; ++n) {
        const std::string l = line + std::to_string(n) + "\n";
        bytes.insert(bytes.end(), l.begin(), l.end());
    }
    bytes.resize(size);
    return bytes;
}

struct FileSeed {
    const char* name;
    Suite suite;
    unsigned chunk_log2;
    std::size_t plaintext_bytes;
    std::size_t other_key_slots;  // key-file slots of other secrets, before ours
    bool passphrase_slot;         // a cheap passphrase slot first (skipped by a key-file identity)
};

Bytes encrypt(const FileSeed& seed, std::uint64_t random_seed) {
    warp::formats::Options options;
    options.aead = warp::formats::warp_format::aead_of(seed.suite);
    options.chunk_log2 = seed.chunk_log2;
    if (seed.passphrase_slot)
        options.recipients.push_back({warp::formats::KeyType::passphrase,
                                      warp::SecretBytes(std::string_view("correct horse")),
                                      {1, warp::formats::warp_format::kMinKdfMemoryKib}});
    for (std::size_t i = 0; i < seed.other_key_slots; ++i) {
        warp::formats::Secret other = warp::fuzz::fixed_identity();
        other.bytes.data()[0] = static_cast<std::uint8_t>(0x80 + i);
        options.recipients.push_back(std::move(other));
    }
    options.recipients.push_back(warp::fuzz::fixed_identity());
    options.random = warp::fuzz::seeded_random(random_seed);
    const Bytes plaintext = text(seed.plaintext_bytes);
    warp::stream::SpanSource in(plaintext);
    warp::stream::VectorSink out;
    warp::formats::warp_format::encrypt(in, out, options);
    return std::move(out.bytes);
}

// fuzz_decrypt_mutate.cpp's input layout.
struct Recipe {
    std::uint8_t settings = 0;
    std::uint16_t range_offset = 0, range_length = 0;
    struct Edit {
        std::uint8_t kind;
        std::uint32_t a, b;
        std::uint16_t c;
    };
    std::vector<Edit> edits;
    std::size_t plaintext_bytes = 0;

    Bytes bytes() const {
        Bytes out{settings};
        const auto put = [&](std::uint64_t v, int n) {
            for (int i = n - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
        };
        put(range_offset, 2);
        put(range_length, 2);
        out.push_back(static_cast<std::uint8_t>(edits.size()));
        for (const Edit& e : edits) {
            out.push_back(e.kind);
            put(e.a, 4);
            put(e.b, 4);
            put(e.c, 2);
        }
        const Bytes plaintext = text(plaintext_bytes);
        out.insert(out.end(), plaintext.begin(), plaintext.end());
        return out;
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: fuzz-make-seeds CORPUS_DIR\n");
        return 2;
    }
    const fs::path corpus = argv[1];
    const std::vector<FileSeed> files = {
        {"aes-empty", Suite::aes_256_gcm, 12, 0, 0, false},
        {"aes-1", Suite::aes_256_gcm, 12, 1, 0, false},
        {"aes-one-chunk", Suite::aes_256_gcm, 12, 4096, 0, false},
        {"aes-chunk-and-1", Suite::aes_256_gcm, 12, 4097, 0, false},
        {"chacha-three-chunks", Suite::chacha20_poly1305, 12, 9000, 0, false},
        {"chacha-8k-chunks", Suite::chacha20_poly1305, 13, 5000, 0, false},
        {"aes-passphrase-and-key", Suite::aes_256_gcm, 12, 100, 0, true},
        {"aes-16-slots", Suite::aes_256_gcm, 12, 10, 15, false},
    };
    std::uint64_t random_seed = 1;
    for (const FileSeed& seed : files) {
        const Bytes file = encrypt(seed, random_seed++);
        write_file(corpus / "fuzz-decrypt" / (std::string(seed.name) + ".warp"), file);
        const std::size_t header = *warp::formats::warp_format::declared_header_size(file);
        write_file(corpus / "fuzz-header" / (std::string(seed.name) + ".header"),
                   Bytes(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(header)));
    }

    // One recipe per edit kind (fuzz_decrypt_mutate.cpp's apply_edit), and one without edits,
    // over two chunks and a bit of plaintext; settings vary the suite, chunk size and slots.
    Recipe plain;
    plain.range_offset = 4000;
    plain.range_length = 200;
    plain.plaintext_bytes = 4200;
    write_file(corpus / "fuzz-decrypt-mutate" / "no-edit", plain.bytes());
    const char* kinds[] = {"flip", "truncate", "insert", "erase", "splice-bytes",
                           "swap-records", "duplicate-record", "drop-record", "splice-record"};
    for (std::uint8_t kind = 0; kind < 9; ++kind) {
        Recipe r = plain;
        r.settings = static_cast<std::uint8_t>(kind & 7);  // suite, chunk 2^12/2^13, extra slot
        r.edits.push_back({kind, 200 + kind * 37u, 1, 16});
        write_file(corpus / "fuzz-decrypt-mutate" / kinds[kind], r.bytes());
    }
    // fuzz-age: age files to the fixed X25519 identity, binary and armored, and one to a
    // passphrase (work factor 13, over that target's cap: its header is what gets fuzzed).
    const std::string hello = "Hello, age\n";
    const Bytes hello_bytes(hello.begin(), hello.end());
    struct AgeSeed {
        const char* name;
        bool armor;
        bool passphrase;
        bool hybrid = false;  // to the fixed post-quantum identity
        bool ssh = false;     // to the fixed ssh-ed25519 identity
    };
    for (const AgeSeed& seed : {AgeSeed{"x25519.age", false, false},
                                AgeSeed{"x25519-armored.age", true, false},
                                AgeSeed{"scrypt.age", false, true},
                                AgeSeed{"hybrid.age", false, false, true},
                                AgeSeed{"hybrid-armored.age", true, false, true},
                                AgeSeed{"ssh-ed25519.age", false, false, false, true}}) {
        warp::formats::Options options;
        options.format = warp::formats::Format::age;
        warp::formats::Secret recipient = warp::fuzz::fixed_x25519_identity();
        if (seed.passphrase) {
            recipient = {warp::formats::KeyType::passphrase,
                         warp::SecretBytes(std::string_view("fuzz")),
                         {1, static_cast<std::uint32_t>(warp::formats::age::scrypt_memory_kib(13))}};
        } else if (seed.ssh) {
            recipient = warp::fuzz::fixed_ssh_identity();
            const warp::formats::ssh::Ed25519PublicKey key =
                warp::formats::ssh::ed25519_public_key(recipient.bytes);
            recipient.bytes = warp::SecretBytes(std::span<const std::uint8_t>(key));
        } else if (seed.hybrid) {
            recipient = warp::fuzz::fixed_hybrid_identity();
            const warp::formats::pq::HybridPublicKey key =
                warp::formats::pq::hybrid_public_key(recipient.bytes);
            recipient.bytes = warp::SecretBytes(std::span<const std::uint8_t>(key));
        } else {
            const warp::formats::X25519PublicKey key = warp::formats::x25519_public_key(recipient.bytes);
            recipient.bytes = warp::SecretBytes(std::span<const std::uint8_t>(key));
        }
        options.recipients.push_back(std::move(recipient));
        options.armor = seed.armor;
        options.threads = 1;
        options.random = warp::fuzz::seeded_random(random_seed++);
        warp::stream::SpanSource in(hello_bytes);
        warp::stream::VectorSink out;
        warp::formats::age::encrypt(in, out, options);
        write_file(corpus / "fuzz-age" / seed.name, out.bytes);
    }
    std::printf("fuzz-make-seeds: wrote %zu files and %zu headers, 10 recipes and 6 age files "
                "under %s\n",
                files.size(), files.size(), corpus.c_str());
    return 0;
}
