// Reader for the RFC 8439 vectors (rfc8439/rfc8439_test_vectors.json; README section 3):
// five arrays, one per kind of example in the RFC. Every fixed-size field is checked.
#include <limits>

#include "engine/aead.hpp"
#include "tests/support/vectors.hpp"
#include "tests/support/vectors_internal.hpp"

namespace warp::test {
namespace {

using vectors_internal::array_member;
using vectors_internal::expect_size;
using vectors_internal::hex_member;
using vectors_internal::JsonContext;
using vectors_internal::malformed;
using vectors_internal::string_member;
using vectors_internal::uint_member;

constexpr std::size_t kKeySize = 32;
constexpr std::size_t kBlockSize = 64;
constexpr std::size_t kPolyTagSize = 16;

// Calls read(entry, context) for each entry of doc[array], the context naming array, index
// and the entry's id.
template <typename Case, typename Read>
std::vector<Case> read_array(const nlohmann::json& doc, std::string_view array,
                             const std::string& file, Read read) {
    std::vector<Case> cases;
    const nlohmann::json& entries = array_member(doc, array, JsonContext{file, "top level"});
    for (std::size_t i = 0; i < entries.size(); ++i) {
        JsonContext at{file, std::string(array) + "[" + std::to_string(i) + "]"};
        const std::string id = string_member(entries[i], "id", at);
        at.where += " (" + id + ")";
        Case c = read(entries[i], at);
        c.file = file;
        c.id = id;
        cases.push_back(std::move(c));
    }
    return cases;
}

std::uint32_t counter_member(const nlohmann::json& entry, const JsonContext& at) {
    const std::uint64_t counter = uint_member(entry, "counter", at);
    if (counter > std::numeric_limits<std::uint32_t>::max())
        malformed(at.file, at.where, "counter does not fit in 32 bits");
    return static_cast<std::uint32_t>(counter);
}

Bytes key_member(const nlohmann::json& entry, const JsonContext& at) {
    Bytes key = hex_member(entry, "key", at);
    expect_size(key, kKeySize, "key", at);
    return key;
}

Bytes nonce_member(const nlohmann::json& entry, const JsonContext& at) {
    Bytes nonce = hex_member(entry, "nonce", at);
    expect_size(nonce, kChunkNonceSize, "nonce", at);
    return nonce;
}

}  // namespace

Rfc8439Vectors read_rfc8439(const std::filesystem::path& path) {
    const nlohmann::json doc = vectors_internal::parse_json(path);
    const std::string file = vector_file_name(path);
    Rfc8439Vectors v;

    v.chacha20_block = read_array<ChaCha20BlockCase>(
        doc, "chacha20_block", file, [](const nlohmann::json& e, const JsonContext& at) {
            ChaCha20BlockCase c;
            c.key = key_member(e, at);
            c.nonce = nonce_member(e, at);
            c.counter = counter_member(e, at);
            c.keystream = hex_member(e, "keystream", at);
            expect_size(c.keystream, kBlockSize, "keystream", at);
            return c;
        });

    v.chacha20_encrypt = read_array<ChaCha20EncryptCase>(
        doc, "chacha20_encrypt", file, [](const nlohmann::json& e, const JsonContext& at) {
            ChaCha20EncryptCase c;
            c.key = key_member(e, at);
            c.nonce = nonce_member(e, at);
            c.counter = counter_member(e, at);
            c.pt = hex_member(e, "pt", at);
            c.ct = hex_member(e, "ct", at);
            expect_size(c.ct, c.pt.size(), "ct", at);
            return c;
        });

    v.poly1305 = read_array<Poly1305Case>(
        doc, "poly1305", file, [](const nlohmann::json& e, const JsonContext& at) {
            Poly1305Case c;
            c.key = key_member(e, at);
            c.msg = hex_member(e, "msg", at);
            c.tag = hex_member(e, "tag", at);
            expect_size(c.tag, kPolyTagSize, "tag", at);
            return c;
        });

    v.poly1305_key_gen = read_array<Poly1305KeyGenCase>(
        doc, "poly1305_key_gen", file, [](const nlohmann::json& e, const JsonContext& at) {
            Poly1305KeyGenCase c;
            c.key = key_member(e, at);
            c.nonce = nonce_member(e, at);
            c.otk = hex_member(e, "otk", at);
            expect_size(c.otk, kKeySize, "otk", at);
            return c;
        });

    v.aead_chacha20_poly1305 = read_array<AeadCase>(
        doc, "aead_chacha20_poly1305", file, [](const nlohmann::json& e, const JsonContext& at) {
            AeadCase c;
            c.key = key_member(e, at);
            c.nonce = nonce_member(e, at);
            c.aad = hex_member(e, "aad", at);
            c.pt = hex_member(e, "pt", at);
            c.ct = hex_member(e, "ct", at);
            expect_size(c.ct, c.pt->size(), "ct", at);
            c.tag = hex_member(e, "tag", at);
            expect_size(c.tag, kPolyTagSize, "tag", at);
            c.expect = Expectation::valid;
            return c;
        });
    return v;
}

}  // namespace warp::test
