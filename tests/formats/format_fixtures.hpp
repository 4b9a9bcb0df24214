// Shared by tests/formats/format_*_test.cpp: in-memory encrypt/decrypt and error expectations.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <functional>
#include <string>
#include <vector>

#include "engine/aead.hpp"
#include "engine/error.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/warp/constants.hpp"
#include "formats/warp/warp.hpp"
#include "formats/warp/header.hpp"
#include "formats/warp/suite.hpp"
#include "formats/file.hpp"
#include "formats/keys/key_file.hpp"

namespace warp::formats::warp_format::test {

using Bytes = std::vector<std::uint8_t>;

// Cheap Argon2id for tests (the default 256 MiB takes about a second).
inline constexpr KdfParams kTestKdf{1, 8 * 1024};

inline Bytes pattern(std::size_t size, std::uint32_t seed = 1) {
    Bytes bytes(size);
    std::uint32_t x = seed * 2654435761u + 1;
    for (auto& b : bytes) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b = static_cast<std::uint8_t>(x);
    }
    return bytes;
}

// A nonce function for the chunk pipeline's own tests: the big-endian chunk index.
inline void counter_nonce(std::uint64_t index, std::uint8_t* nonce) {
    std::fill_n(nonce, kChunkNonceSize, 0);
    for (int i = 0; i < 8; ++i) nonce[11 - i] = static_cast<std::uint8_t>(index >> (8 * i));
}

inline Secret key_file_secret(std::uint8_t fill) {
    Bytes raw(32, fill);
    return Secret{KeyType::key_file, SecretBytes(std::span<const std::uint8_t>(raw)), {}};
}

inline Secret passphrase(std::string_view text, KdfParams kdf = kTestKdf) {
    return Secret{KeyType::passphrase, SecretBytes(text), kdf};
}

inline Options options_for(std::vector<Secret> recipients,
                                  Suite suite = Suite::aes_256_gcm, unsigned chunk_log2 = 12) {
    Options options;
    options.aead = aead_of(suite);
    options.chunk_log2 = chunk_log2;
    options.recipients = std::move(recipients);
    return options;
}

inline Bytes encrypt_bytes(const Bytes& plaintext, const Options& options) {
    stream::SpanSource in(plaintext);
    stream::VectorSink out;
    warp_format::encrypt(in, out, options);
    return out.bytes;
}

inline Bytes decrypt_bytes(const Bytes& file, std::vector<Secret> identities,
                           Result* result = nullptr) {
    Options options;
    options.identities = std::move(identities);
    stream::SpanSource in(file);
    stream::VectorSink out;
    const Result r = warp_format::decrypt(in, out, options);
    if (result) *result = r;
    return out.bytes;
}

// A file of formats/warp/testdata/ (SPEC's worked examples, files of the version 1 writer).
inline std::filesystem::path testdata(const std::string& name) {
    // This file lives in tests/unit/; the data lives with the format it illustrates.
    return std::filesystem::path(__FILE__).parent_path() / "../../formats/warp/testdata" / name;
}

inline Bytes read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return {std::istreambuf_iterator<char>(in), {}};
}

inline std::string read_text(const std::filesystem::path& path) {
    const Bytes bytes = read_bytes(path);
    return {bytes.begin(), bytes.end()};
}

// Checks that `made` is what formats/warp/testdata/`name` holds: files a test makes and commits,
// for the CLI tests to run the binary on. WARPCRYPT_REGENERATE_TESTDATA=1 writes them anew.
inline void expect_committed(const Bytes& made, const std::string& name) {
    const std::filesystem::path path = testdata(name);
    if (std::getenv("WARPCRYPT_REGENERATE_TESTDATA") != nullptr)
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(made.data()),
                   static_cast<std::streamsize>(made.size()));
    EXPECT_TRUE(made == read_bytes(path)) << path << " is not what this test makes";
}

// The randomness of SPEC's worked examples: a counter from `start` (file key, then each slot's
// salt, then the payload nonce, in the order encrypt draws them).
inline RandomFn counter_from(std::uint8_t start) {
    return [next = start](std::uint8_t* out, std::size_t len) mutable {
        for (std::size_t i = 0; i < len; ++i) out[i] = next++;
    };
}

// The size of the header at the front of `file`, from its layout (SPEC 3; version 1 or 2),
// without judging it: for tests that edit headers.
inline std::size_t header_size_in(const Bytes& file) {
    const std::optional<std::size_t> size = declared_header_size(file);
    if (!size) throw std::runtime_error("no header layout at the front of the file");
    return *size;
}

// `file` with its one slot replaced by `slot` and its checksum made to match (the MAC is left
// as it was, so no slot can open): for tests of what a reader makes of a crafted slot.
inline Bytes with_slot(const Bytes& file, const Bytes& slot) {
    const std::size_t size = header_size_in(file);
    std::array<std::uint8_t, kPayloadNonceSize> nonce{};
    std::copy_n(file.begin() + static_cast<std::ptrdiff_t>(size - kHeaderEndSize),
                kPayloadNonceSize, nonce.begin());
    Bytes crafted = build_header(static_cast<Suite>(file[kSuiteOffset]), file[kChunkLog2Offset],
                                 std::vector<Bytes>{slot}, nonce);
    crafted.insert(crafted.end(), file.begin() + static_cast<std::ptrdiff_t>(size), file.end());
    return crafted;
}

// Runs `f`, expecting warp::Error with `cause` whose message contains `text`.
inline void expect_error(const std::function<void()>& f, ErrorCause cause,
                         const std::string& text = "") {
    try {
        f();
        ADD_FAILURE() << "expected an error (" << static_cast<int>(cause) << ") containing \""
                      << text << "\"";
    } catch (const Error& e) {
        EXPECT_EQ(static_cast<int>(e.cause()), static_cast<int>(cause)) << e.what();
        EXPECT_NE(std::string(e.what()).find(text), std::string::npos)
            << "message \"" << e.what() << "\" lacks \"" << text << "\"";
    }
}

}  // namespace warp::formats::warp_format::test
