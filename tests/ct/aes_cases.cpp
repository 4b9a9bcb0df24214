// The bitsliced AES (engine/scalar/aes/aes_bitsliced.hpp) and the table-free GHASH
// (ghash.hpp) with their keys, their inputs and their expanded key state secret.
#include "engine/scalar/aes/aes_bitsliced.hpp"
#include "engine/scalar/aes/ghash.hpp"
#include "tests/ct/ct_support.hpp"

namespace warp::ct {
namespace {

namespace aes = warp::scalar::aes;

// Block counts around the eight blocks the bitsliced cipher takes at once.
constexpr std::size_t kBlockCounts[] = {1, 3, 8, 9, 17};

// A key schedule from a secret key, its round keys marked secret again after the expansion
// (the round count is public: it follows from the key length).
void expand_secret_key(aes::KeySchedule& ks, std::size_t key_len) {
    const Bytes key = filled(key_len, static_cast<std::uint8_t>(key_len));
    mark_secret(key);
    aes::expand_key(ks, key.data(), key.size());
    mark_secret(ks.round_keys);
}

// Encrypts and decrypts secret blocks; the decryption must give them back.
void block_cipher(std::size_t key_len) {
    aes::KeySchedule ks;
    expand_secret_key(ks, key_len);
    for (std::size_t blocks : kBlockCounts) {
        const Bytes plaintext = filled(16 * blocks, 7);
        Bytes buffer = plaintext;
        mark_secret(buffer);
        aes::encrypt_blocks(ks, buffer.data(), buffer.data(), blocks);
        aes::decrypt_blocks(ks, buffer.data(), buffer.data(), blocks);
        publish(buffer);
        expect(buffer == plaintext, "AES-" + std::to_string(8 * key_len) +
                                        " decrypt(encrypt(x)) != x for " +
                                        std::to_string(blocks) + " blocks");
    }
}

// GCM's counter mode. The counter block is secret too: for IVs other than 96 bits it is
// GHASH(IV) under H, so even its increment must not branch on a carry.
void counter_mode(std::size_t key_len) {
    aes::KeySchedule ks;
    expand_secret_key(ks, key_len);
    // Ends in ff ff ff fe: the 32-bit counter wraps inside the first batch.
    Bytes counter = filled(16, 3);
    counter[12] = counter[13] = counter[14] = 0xff;
    counter[15] = 0xfe;
    mark_secret(counter);
    for (std::size_t len : kMessageLengths) {
        Bytes text = filled(len, 9);
        mark_secret(text);
        aes::ctr32_xor(ks, counter.data(), text.data(), text.data(), text.size());
        publish(text);
    }
}

void aes128() { block_cipher(16); }
void aes192() { block_cipher(24); }
void aes256() { block_cipher(32); }
void aes128_ctr() { counter_mode(16); }
void aes256_ctr() { counter_mode(32); }

// GHASH under a secret H, its prepared powers secret, over secret data of every length.
void ghash() {
    Bytes h = filled(16, 5);
    mark_secret(h);
    aes::GhashKey key;
    aes::ghash_init(key, h.data());
    mark_secret(key);
    for (std::size_t len : kMessageLengths) {
        Bytes data = filled(len, 11);
        mark_secret(data);
        aes::Block128 y;
        aes::ghash_update(key, y, data.data(), data.size());
        aes::Block128 lengths{len * 8, len * 16};
        mark_secret(lengths);
        aes::ghash_block(key, y, lengths);
        publish(y);
    }
}

}  // namespace

std::vector<Case> aes_cases() {
    return {
        {"scalar AES-128 encrypt/decrypt (bitsliced)", &aes128},
        {"scalar AES-192 encrypt/decrypt (bitsliced)", &aes192},
        {"scalar AES-256 encrypt/decrypt (bitsliced)", &aes256},
        {"scalar AES-128 CTR32, secret counter block", &aes128_ctr},
        {"scalar AES-256 CTR32, secret counter block", &aes256_ctr},
        {"scalar GHASH", &ghash},
    };
}

}  // namespace warp::ct
