// warp::scalar::kAesGcm: AES-GCM (NIST SP 800-38D) on the bitsliced AES and the table-free
// GHASH, under the contract of engine/aead.hpp.
#include <cstring>

#include "engine/open_each.hpp"
#include "engine/scalar/aes/aes_bitsliced.hpp"
#include "engine/scalar/aes/ghash.hpp"
#include "engine/scalar/scalar.hpp"
#include "engine/secure_memory.hpp"

namespace warp::scalar {
namespace {

using aes::Block128;

struct GcmState {
    aes::KeySchedule cipher;
    aes::GhashKey ghash;  // from H = E_K(0^128)
};

const GcmState& gcm_state(const void* state) { return *static_cast<const GcmState*>(state); }

void init(void* state, const std::uint8_t* key, std::size_t key_len) {
    GcmState& st = *static_cast<GcmState*>(state);
    aes::expand_key(st.cipher, key, key_len);
    std::uint8_t h[16] = {};
    aes::encrypt_blocks(st.cipher, h, h, 1);
    aes::ghash_init(st.ghash, h);
    secure_wipe(h, sizeof h);
}

// The pre-counter block J0 (SP 800-38D, 7.1 step 2): IV || 0^31 || 1 for a 96-bit IV,
// otherwise GHASH(IV || 0-padding || [0]_64 || [len(IV) in bits]_64).
void pre_counter_block(const GcmState& st, const AeadChunk& c, std::uint8_t j0[16]) {
    if (c.nonce_len == kChunkNonceSize) {
        std::memcpy(j0, c.nonce, kChunkNonceSize);
        j0[12] = j0[13] = j0[14] = 0;
        j0[15] = 1;
        return;
    }
    Block128 y;
    aes::ghash_update(st.ghash, y, c.nonce, c.nonce_len);
    aes::ghash_block(st.ghash, y, Block128{0, std::uint64_t{c.nonce_len} * 8});
    aes::store_block128(j0, y);
}

// inc32: the last four bytes, big-endian, plus one modulo 2^32. Without a branch on the
// carry: for IVs other than 96 bits, J0 is a hash under H and must not leak through timing.
void increment32(std::uint8_t block[16]) {
    std::uint32_t counter = 0;
    for (int i = 12; i < 16; ++i) counter = (counter << 8) | block[i];
    counter += 1;
    for (int i = 12; i < 16; ++i) block[i] = static_cast<std::uint8_t>(counter >> (8 * (15 - i)));
}

// The full 16-byte tag: E_K(J0) ^ GHASH(A || pad || C || pad || [len(A)]_64 || [len(C)]_64),
// lengths in bits.
void full_tag(const GcmState& st, const AeadChunk& c, const std::uint8_t* ciphertext,
              const std::uint8_t j0[16], std::uint8_t tag[16]) {
    Block128 s;
    aes::ghash_update(st.ghash, s, c.aad, c.aad_len);
    aes::ghash_update(st.ghash, s, ciphertext, c.len);
    aes::ghash_block(st.ghash, s, Block128{std::uint64_t{c.aad_len} * 8, std::uint64_t{c.len} * 8});
    std::uint8_t mask[16];
    aes::encrypt_blocks(st.cipher, j0, mask, 1);
    aes::store_block128(tag, s);
    for (int i = 0; i < 16; ++i) tag[i] ^= mask[i];
    secure_wipe(mask, sizeof mask);
}

void seal(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len) {
    const GcmState& st = gcm_state(state);
    for (const AeadChunk& c : chunks) {
        std::uint8_t j0[16], counter[16], tag[16];
        pre_counter_block(st, c, j0);
        std::memcpy(counter, j0, 16);
        increment32(counter);
        aes::ctr32_xor(st.cipher, counter, c.in, c.out, c.len);
        full_tag(st, c, c.out, j0, tag);
        std::memcpy(c.tag, tag, tag_len);
        secure_wipe(tag, sizeof tag);
    }
}

// Authenticates first (GHASH runs over the ciphertext), and decrypts only a chunk whose tag
// matched, so no plaintext of a forged chunk is ever written.
std::size_t open(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                 bool* ok) {
    const GcmState& st = gcm_state(state);
    return open_each(chunks, ok, [&](const AeadChunk& c) {
        std::uint8_t j0[16], expected[16];
        pre_counter_block(st, c, j0);
        full_tag(st, c, c.in, j0, expected);
        const bool authentic = equal_in_constant_time(expected, c.tag, tag_len);
        secure_wipe(expected, sizeof expected);
        if (authentic) {
            increment32(j0);
            aes::ctr32_xor(st.cipher, j0, c.in, c.out, c.len);
        }
        return authentic;
    });
}

}  // namespace

const AeadImpl kAesGcm{Aead::aes_gcm, sizeof(GcmState), &init, &seal, &open};

}  // namespace warp::scalar
