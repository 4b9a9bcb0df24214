// Blowfish and eksblowfish's schedules (blowfish.hpp), after OpenBSD's blf.c.
#include "formats/keys/blowfish.hpp"

#include <algorithm>

#include "engine/secure_memory.hpp"

namespace warp::formats::blowfish {
namespace {

std::uint32_t f(const State& state, std::uint32_t x) {
    const auto& s = state.s;
    return ((s[x >> 24] + s[0x100 + ((x >> 16) & 0xff)]) ^ s[0x200 + ((x >> 8) & 0xff)]) +
           s[0x300 + (x & 0xff)];
}

// The next 4 bytes of `data`, big-endian, cycling through it (blf.c's stream2word).
std::uint32_t stream_word(std::span<const std::uint8_t> data, std::size_t& at) {
    std::uint32_t word = 0;
    for (int i = 0; i < 4; ++i) {
        if (at >= data.size()) at = 0;
        word = (word << 8) | data[at++];
    }
    return word;
}

void mix_key(State& state, std::span<const std::uint8_t> key) {
    std::size_t at = 0;
    for (std::uint32_t& word : state.p) word ^= stream_word(key, at);
}

// Re-fills P then the S-boxes with the running encryption, XOR-ing `data` in (when not empty).
void refill(State& state, std::span<const std::uint8_t> data) {
    std::size_t at = 0;
    std::uint32_t left = 0, right = 0;
    auto next = [&](std::uint32_t& a, std::uint32_t& b) {
        if (!data.empty()) {
            left ^= stream_word(data, at);
            right ^= stream_word(data, at);
        }
        encipher(state, left, right);
        a = left;
        b = right;
    };
    for (std::size_t i = 0; i < state.p.size(); i += 2) next(state.p[i], state.p[i + 1]);
    for (std::size_t i = 0; i < state.s.size(); i += 2) next(state.s[i], state.s[i + 1]);
}

}  // namespace

State::State() {
    std::copy_n(kPiWords.begin(), p.size(), p.begin());
    std::copy(kPiWords.begin() + static_cast<std::ptrdiff_t>(p.size()), kPiWords.end(), s.begin());
}

State::~State() {
    secure_wipe(p.data(), sizeof p);
    secure_wipe(s.data(), sizeof s);
}

void encipher(const State& state, std::uint32_t& left, std::uint32_t& right) {
    std::uint32_t l = left ^ state.p[0], r = right;
    for (std::size_t round = 1; round <= kRounds; round += 2) {
        r ^= f(state, l) ^ state.p[round];
        l ^= f(state, r) ^ state.p[round + 1];
    }
    left = r ^ state.p[kRounds + 1];
    right = l;
}

void expand_state(State& state, std::span<const std::uint8_t> data, std::span<const std::uint8_t> key) {
    mix_key(state, key);
    refill(state, data);
}

void expand0_state(State& state, std::span<const std::uint8_t> key) {
    mix_key(state, key);
    refill(state, {});
}

}  // namespace warp::formats::blowfish
