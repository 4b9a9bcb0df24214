// FIPS 202 four at a time (keccak_x4.hpp): the portable permutation, one state after another
// through sha3.cpp's, and the SHAKE absorbing and squeezing over the interleaved layout. Every
// loop bound is a length (public); nothing indexes by a data value.
#include "formats/keys/pq/keccak_x4.hpp"

#include <bit>
#include <cstring>

#include "engine/secure_memory.hpp"
#include "formats/keys/pq/keccak_lanes.hpp"
#include "formats/keys/pq/sha3.hpp"

namespace warp::formats::pq {

KeccakX4::~KeccakX4() { secure_wipe(lanes.data(), sizeof(lanes)); }

void keccak_f1600_x4_portable(KeccakX4& state) noexcept {
    for (std::size_t s = 0; s < 4; ++s) {
        std::array<std::uint64_t, 25> one;
        for (std::size_t i = 0; i < 25; ++i) one[i] = state.lanes[4 * i + s];
        keccak_f1600(one);
        for (std::size_t i = 0; i < 25; ++i) state.lanes[4 * i + s] = one[i];
        secure_wipe(one.data(), sizeof(one));
    }
}

namespace {

void xor_byte(KeccakX4& state, std::size_t s, std::size_t offset, std::uint8_t byte) {
    state.lanes[4 * (offset / 8) + s] ^= std::uint64_t{byte} << (8 * (offset % 8));
}

}  // namespace

void shake_x4_absorb_short(KeccakX4& state, std::size_t rate, const FourMessages& messages) {
    state.lanes.fill(0);
    for (std::size_t s = 0; s < 4; ++s) {
        const std::span<const std::uint8_t> message = messages[s];
        const std::size_t whole_lanes = message.size() / 8;
        for (std::size_t i = 0; i < whole_lanes; ++i)
            state.lanes[4 * i + s] = load_lane(message.data() + 8 * i);
        for (std::size_t i = 8 * whole_lanes; i < message.size(); ++i)
            xor_byte(state, s, i, message[i]);
        xor_byte(state, s, message.size(), 0x1F);  // SHAKE's suffix, then pad10*1
        xor_byte(state, s, rate - 1, 0x80);
    }
}

void shake_x4_squeeze_block(KeccakX4& state, std::size_t out_bytes,
                            const std::array<std::uint8_t*, 4>& out) {
    keccak_f1600_x4(state);
    // Whole lanes, then the bytes of a last partial one (none for ML-KEM's 128 and 168).
    const std::size_t whole_lanes = out_bytes / 8;
    for (std::size_t s = 0; s < 4; ++s) {
        for (std::size_t i = 0; i < whole_lanes; ++i)
            store_lane(out[s] + 8 * i, state.lanes[4 * i + s]);
        for (std::size_t i = 8 * whole_lanes; i < out_bytes; ++i)
            out[s][i] = static_cast<std::uint8_t>(state.lanes[4 * (i / 8) + s] >> (8 * (i % 8)));
    }
}

}  // namespace warp::formats::pq
