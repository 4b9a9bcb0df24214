// The scalar AEADs through AeadKey, as formats/ uses them, and the engine's tag comparison.
//
// What is secret: the key (and so the key state AeadKey expands into locked memory, and every
// keystream and hash value derived from it) and the plaintext. What is public: nonces, AAD
// (the file's header), the ciphertext and the tags, which are all written to the file. Open
// computes the expected tag from the secret key, so its comparison with the received tag is
// secret until the verdict is known; warp::equal_in_constant_time declassifies that one bit,
// and only it (engine/secure_memory.cpp), because the caller must branch on it: decrypt, or
// zero the output.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "engine/aead_key.hpp"
#include "engine/cpu_features.hpp"
#include "engine/scalar/scalar.hpp"
#include "engine/secure_memory.hpp"
#if defined(__x86_64__)
#include "engine/x86/x86.hpp"
#endif
#include "tests/ct/ct_support.hpp"

namespace warp::ct {
namespace {

struct Message {
    Bytes nonce, aad, plaintext, sealed, tag, opened;
};

// One batch: a message of every length of kMessageLengths, with the nonce lengths given in
// turn and AAD on every other message.
std::vector<Message> make_batch(const std::vector<std::size_t>& nonce_lengths,
                                const std::vector<std::size_t>& lengths) {
    std::vector<Message> batch;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        const std::size_t len = lengths[i];
        const auto seed = static_cast<std::uint8_t>(i);
        Message m;
        m.nonce = filled(nonce_lengths[i % nonce_lengths.size()], seed);
        m.aad = filled(i % 2 == 0 ? 13 : 0, seed);
        m.plaintext = filled(len, static_cast<std::uint8_t>(seed + 100));
        m.sealed.resize(len);
        m.tag.resize(kMaxTagSize);
        m.opened.resize(len);
        batch.push_back(std::move(m));
    }
    return batch;
}

AeadChunk chunk(const Message& m, const Bytes& in, Bytes& out, Bytes& tag) {
    return AeadChunk{m.nonce.data(), m.nonce.size(), m.aad.data(), m.aad.size(),
                     in.data(),      out.data(),     in.size(),   tag.data()};
}

// Seals secret plaintexts under a secret key, opens the (public) result, then opens it again
// with every tag damaged: both branches after the tag check run.
void round_trip(const AeadImpl& impl, std::size_t key_len,
                const std::vector<std::size_t>& nonce_lengths, std::size_t tag_len,
                const std::vector<std::size_t>& lengths = kMessageLengths) {
    const std::string what = std::to_string(key_len) + "-byte key, tag " + std::to_string(tag_len);
    Bytes key = filled(key_len, 42);
    mark_secret(key);
    const AeadKey aead_key(impl, key);

    std::vector<Message> batch = make_batch(nonce_lengths, lengths);
    std::vector<Bytes> secret_plaintexts;
    std::vector<AeadChunk> seal_chunks;
    for (Message& m : batch) {
        secret_plaintexts.push_back(m.plaintext);
        mark_secret(secret_plaintexts.back());
    }
    for (std::size_t i = 0; i < batch.size(); ++i)
        seal_chunks.push_back(chunk(batch[i], secret_plaintexts[i], batch[i].sealed, batch[i].tag));
    aead_key.seal(seal_chunks, tag_len);

    std::vector<AeadChunk> open_chunks;
    for (Message& m : batch) {
        publish(m.sealed);  // the file holds them
        publish(m.tag);
        open_chunks.push_back(chunk(m, m.sealed, m.opened, m.tag));
    }
    const auto ok = std::make_unique<bool[]>(batch.size());
    std::size_t failed = aead_key.open(open_chunks, ok.get(), tag_len);
    expect(failed == 0, "open rejected a sealed message (" + what + ")");
    for (Message& m : batch) {
        publish(m.opened);  // the test's own check, after the code under test
        expect(m.opened == m.plaintext, "open did not return the plaintext (" + what + ")");
    }

    for (Message& m : batch) m.tag[tag_len - 1] ^= 0x01;
    failed = aead_key.open(open_chunks, ok.get(), tag_len);
    expect(failed == batch.size(), "open accepted a damaged tag (" + what + ")");
    for (Message& m : batch) {
        publish(m.opened);
        expect(std::all_of(m.opened.begin(), m.opened.end(), [](std::uint8_t b) { return b == 0; }),
               "a rejected message's output was not zeroed (" + what + ")");
    }
}

void aes128_gcm() { round_trip(scalar::kAesGcm, 16, {12}, 16); }
void aes256_gcm() { round_trip(scalar::kAesGcm, 32, {12}, 16); }
// J0 = GHASH(IV) under H when the IV is not 96 bits (SP 800-38D 7.1).
void aes256_gcm_other_ivs() { round_trip(scalar::kAesGcm, 32, {1, 8, 16, 60}, 16); }
void aes256_gcm_short_tags() {
    for (std::size_t tag_len : {4, 8, 12}) round_trip(scalar::kAesGcm, 32, {12}, tag_len);
}
void chacha20_poly1305() { round_trip(scalar::kChaCha20Poly1305, 32, {12}, 16); }

#if defined(__x86_64__)
// The AVX2 kernel too, as the one x86 exception to "backends are not checked" (README here):
// its MAC is integer multiplies in asm stitched into vector rounds, the kind of hand-written
// code where a secret-dependent branch could hide. Lengths that reach every step shape: the
// 192-byte head alone, a short last step, whole steps, a tail.
void chacha20_poly1305_avx2() {
    round_trip(*x86::kChaCha20Poly1305Avx2, 32, {12}, 16,
               {0, 17, 191, 192, 449, 704, 1000, 1216, 1500, 2239});
}
#endif

// The comparison itself, both sides secret, equal and different at each position.
void compare() {
    for (std::size_t len : {std::size_t{4}, std::size_t{16}, std::size_t{32}}) {
        const Bytes a = filled(len, 8);
        for (std::size_t differ = 0; differ <= len; ++differ) {
            Bytes x = a, y = a;
            if (differ < len) y[differ] ^= 0x80;
            mark_secret(x);
            mark_secret(y);
            const bool match = equal_in_constant_time(x.data(), y.data(), len);
            expect(match == (differ == len), "equal_in_constant_time gave the wrong verdict");
        }
    }
}

#if defined(__x86_64__)
void no_avx2() { std::fputs("  (this CPU has no AVX2: the x86-avx2 case did not run)\n", stderr); }
#endif

}  // namespace

std::vector<Case> aead_cases() {
    return {
        {"scalar AES-128-GCM seal and open", &aes128_gcm},
        {"scalar AES-256-GCM seal and open", &aes256_gcm},
        {"scalar AES-256-GCM seal and open, IVs of 1, 8, 16, 60 bytes", &aes256_gcm_other_ivs},
        {"scalar AES-256-GCM seal and open, tags of 4, 8, 12 bytes", &aes256_gcm_short_tags},
        {"scalar ChaCha20-Poly1305 seal and open", &chacha20_poly1305},
#if defined(__x86_64__)
        {"x86-avx2 ChaCha20-Poly1305 seal and open (stitched; skipped without AVX2)",
         cpu_features().avx2 ? &chacha20_poly1305_avx2 : &no_avx2},
#endif
        {"warp::equal_in_constant_time (the tag comparison)", &compare},
    };
}

}  // namespace warp::ct
