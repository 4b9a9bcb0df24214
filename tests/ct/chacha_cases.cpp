// ChaCha20 and Poly1305 (engine/scalar/chacha/) with secret keys and secret messages.
#include <algorithm>

#include "engine/scalar/chacha/chacha20.hpp"
#include "engine/scalar/chacha/poly1305.hpp"
#include "tests/ct/ct_support.hpp"

namespace warp::ct {
namespace {

using namespace warp::scalar;

// Block counters: the AEAD's 0 and 1, and the last one before the 32-bit counter wraps.
constexpr std::uint32_t kCounters[] = {0, 1, 0xfffffffeu};

void chacha20() {
    Bytes key = filled(kChaCha20KeySize, 1);
    mark_secret(key);
    const Bytes nonce = filled(kChaCha20NonceSize, 2);  // public: it is in the file
    for (std::uint32_t counter : kCounters) {
        std::uint8_t block[kChaCha20BlockSize];
        chacha20_block(key.data(), counter, nonce.data(), block);
        publish(block);
        for (std::size_t len : kMessageLengths) {
            Bytes text = filled(len, 3);
            mark_secret(text);
            chacha20_xor(key.data(), counter, nonce.data(), text.data(), text.data(), text.size());
            publish(text);
        }
    }
}

// A fresh Poly1305 state under a secret one-time key, its key-derived parts secret again.
void init_secret(Poly1305State& state) {
    Bytes key = filled(kPoly1305KeySize, 4);
    mark_secret(key);
    poly1305_init(state, key.data());
    mark_secret(state.r);
    mark_secret(state.r_squared);
    mark_secret(state.s);
}

void poly1305() {
    for (std::size_t len : kMessageLengths) {
        Bytes message = filled(len, 5);
        mark_secret(message);
        // One update, then the same message in uneven pieces (the partial-block buffer).
        Poly1305State state;
        init_secret(state);
        poly1305_update(state, message.data(), message.size());
        std::uint8_t whole[kPoly1305TagSize];
        poly1305_finish(state, whole);
        init_secret(state);
        for (std::size_t done = 0, piece = 1; done < len; done += piece, piece = piece * 2 + 1) {
            if (piece > len - done) piece = len - done;
            poly1305_update(state, message.data() + done, piece);
        }
        std::uint8_t pieces[kPoly1305TagSize];
        poly1305_finish(state, pieces);
        publish(whole);
        publish(pieces);
        expect(std::equal(whole, whole + kPoly1305TagSize, pieces),
               "Poly1305 tag depends on how a " + std::to_string(len) + "-byte message is split");
    }
}

}  // namespace

std::vector<Case> chacha_cases() {
    return {
        {"scalar ChaCha20 block and stream", &chacha20},
        {"scalar Poly1305 (one shot and incremental)", &poly1305},
    };
}

}  // namespace warp::ct
