// What the fuzz targets share: the fixed key they decrypt with, the verdicts a damaged file may
// get, a way to fail that libFuzzer records as a crash, and a reader of recipe bytes.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "engine/error.hpp"
#include "formats/warp/constants.hpp"
#include "formats/warp/warp.hpp"
#include "formats/keys/key_file.hpp"
#include "formats/keys/x25519.hpp"
#include "tests/support/splitmix64.hpp"

// libFuzzer's entry point; replay_main.cpp calls it too, outside libFuzzer.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace warp::fuzz {

// The key-file secret 00 01 .. 1f of formats/warp/testdata/worked_example.key (SPEC 9), so that the
// worked example, and every seed that scripts/make-fuzz-corpus.sh makes with that key file,
// decrypts: mutations of real files then reach as far as a key holder's would.
inline formats::Secret fixed_identity() {
    std::array<std::uint8_t, formats::kKeyFileSecretSize> secret{};
    for (std::size_t i = 0; i < secret.size(); ++i) secret[i] = static_cast<std::uint8_t>(i);
    return formats::Secret{formats::KeyType::key_file,
                          SecretBytes(std::span<const std::uint8_t>(secret)), {}};
}

// The X25519 identity 00 01 .. 1f of formats/warp/testdata/x25519_example.identity (SPEC 9.1),
// so that mutations of that example reach the X25519 slot's opening too.
inline formats::Secret fixed_x25519_identity() {
    formats::Secret identity = fixed_identity();
    identity.type = formats::KeyType::x25519;
    return identity;
}

// The post-quantum identity of the seed 00 01 .. 1f, formats/warp/testdata/
// hybrid_example.identity (SPEC 9.2): mutations of that example and of the age seeds made to
// it reach the hybrid slot's and stanza's opening (ML-KEM decapsulation, HPKE).
inline formats::Secret fixed_hybrid_identity() {
    formats::Secret identity = fixed_identity();
    identity.type = formats::KeyType::mlkem768x25519;
    return identity;
}

// The ssh-ed25519 identity of the seed 00 01 .. 1f: mutations of the age seed made to it reach
// the ssh-ed25519 stanza's opening.
inline formats::Secret fixed_ssh_identity() {
    formats::Secret identity = fixed_identity();
    identity.type = formats::KeyType::ssh_ed25519;
    return identity;
}

// Another recipient, whose slot the fixed identities do not open: the X25519 public key of the
// scalar 1f 1e .. 00 (a valid point; its secret is in no file).
inline formats::Secret other_x25519_recipient() {
    std::array<std::uint8_t, formats::kX25519KeySize> scalar{};
    for (std::size_t i = 0; i < scalar.size(); ++i)
        scalar[i] = static_cast<std::uint8_t>(scalar.size() - 1 - i);
    const formats::X25519PublicKey key =
        formats::x25519_public_key(SecretBytes(std::span<const std::uint8_t>(scalar)));
    return formats::Secret{formats::KeyType::x25519,
                           SecretBytes(std::span<const std::uint8_t>(key)), {}};
}

// What every decrypting target opens with: the fixed key-file secret, X25519 identity and
// post-quantum identity.
inline formats::Options fixed_decrypt_options() {
    formats::Options options;
    options.identities.push_back(fixed_identity());
    options.identities.push_back(fixed_x25519_identity());
    options.identities.push_back(fixed_hybrid_identity());
    options.threads = 1;  // inputs are far below one batch: no thread would start anyway
    return options;
}

// Reproducible randomness for encrypt (file key, salts, payload nonce): splitmix64 from `seed`.
// Two seeds make two files under the same key-file secret with different file keys, as two
// real encryptions would; one seed makes the same bytes every run.
inline formats::RandomFn seeded_random(std::uint64_t seed) {
    return [state = seed](std::uint8_t* out, std::size_t len) mutable {
        for (std::size_t i = 0; i < len; ++i) {
            out[i] = static_cast<std::uint8_t>(warp::test::splitmix64(state));
            state += 0x9e3779b97f4a7c15u;  // the generator's step: splitmix64 adds it first
        }
    };
}

// An invariant broke: print why and abort, which libFuzzer saves as a crash artifact and the
// replay program turns into a failed test.
[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "fuzz: invariant broken: %s\n", what);
    std::fflush(stderr);
    std::abort();
}

inline void check(bool ok, const char* what) {
    if (!ok) fail(what);
}

// The causes formats/ may give a file it refuses (formats/options.hpp). Any other cause for
// hostile bytes is a bug: invalid_argument is a broken contract inside warpcrypt, io and usage
// cannot come from memory streams and a key file.
inline bool is_format_refusal(ErrorCause cause) {
    return cause == ErrorCause::corrupted || cause == ErrorCause::truncated ||
           cause == ErrorCause::unsupported || cause == ErrorCause::wrong_key;
}

// Reads a fuzz input front to back as small numbers; past its end every number is 0, so any
// input is a valid recipe and shortening an input only simplifies it.
class RecipeReader {
public:
    explicit RecipeReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

    std::uint8_t byte() { return position_ < bytes_.size() ? bytes_[position_++] : 0; }
    // Big-endian; the reads are sequenced statements (the operands of | are not sequenced).
    std::uint32_t u16() {
        const std::uint32_t high = byte();
        return high << 8 | byte();
    }
    std::uint32_t u32() {
        const std::uint32_t high = u16();
        return high << 16 | u16();
    }
    // Everything not read yet.
    std::span<const std::uint8_t> rest() const {
        return bytes_.subspan(std::min(position_, bytes_.size()));
    }

private:
    std::span<const std::uint8_t> bytes_;
    std::size_t position_ = 0;
};

}  // namespace warp::fuzz
