// The arithmetic of the CUDA kernels (engine/cuda/device/), phase by phase, on the CPU: the
// host's constant-time key schedule against FIPS-197 Appendix A (the decryption schedule is
// checked by decrypting); the generated tables against the textbook S-box; one T-table round
// and whole blocks (from the tables the kernels' load phases write) against a byte-wise round
// and the scalar backend; the tables' bank layout; GF(2^128) products three ways (bitwise,
// the positioned nibble tables of H^T, the scalar backend's GHASH).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/cuda/device/ecb_phases.hpp"
#include "engine/cuda/device/gcm_phases.hpp"
#include "engine/cuda/kernel_api.hpp"
#include "engine/scalar/aes/ghash.hpp"
#include "engine/scalar/scalar.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/random_bytes.hpp"

namespace warp::cuda {
namespace {

using device::Gf128;
using device::Words4;
using test::Bytes;
using test::random_bytes;
using test::from_hex;

Words4 words_of(const std::uint8_t* p) { return device::load_block_aligned(p); }

std::array<std::uint8_t, 16> bytes_of(const Words4& w) {
    std::array<std::uint8_t, 16> out{};
    device::store_block_aligned(out.data(), w);
    return out;
}

Gf128 random_element(std::mt19937_64& rng) {
    return {{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
             static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng())}};
}

bool same(const Gf128& a, const Gf128& b) {
    return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2] && a.w[3] == b.w[3];
}

std::string hex_of(const Gf128& x) {
    char text[40];
    std::snprintf(text, sizeof text, "%08x%08x%08x%08x", x.w[0], x.w[1], x.w[2], x.w[3]);
    return text;
}

// ---- Key schedule ---------------------------------------------------------------------------

struct ScheduleVector {
    const char* key;
    std::uint32_t rounds;
    std::uint32_t first_derived;                  // w[Nk]
    std::array<std::uint32_t, 4> last_round_key;  // w[4 Nr] .. w[4 Nr + 3]
};

// FIPS-197 Appendix A.1, A.2, A.3.
constexpr ScheduleVector kFips197Schedules[] = {
    {"2b7e151628aed2a6abf7158809cf4f3c", 10, 0xa0fafe17,
     {0xd014f9a8, 0xc9ee2589, 0xe13f0cc8, 0xb6630ca6}},
    {"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b", 12, 0xfe0c91f7,
     {0xe98ba06f, 0x448c773c, 0x8ecc7204, 0x01002202}},
    {"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", 14, 0x9ba35411,
     {0xfe4890d1, 0xe6188d0b, 0x046df344, 0x706c631e}},
};

TEST(CudaKeySchedule, MatchesFips197AppendixA) {
    for (const ScheduleVector& v : kFips197Schedules) {
        SCOPED_TRACE(v.key);
        const Bytes key = from_hex(v.key);
        AesKeyTables tables{};
        build_aes_key_tables(key.data(), key.size(), tables);
        ASSERT_EQ(tables.encrypt.rounds, v.rounds);
        ASSERT_EQ(tables.decrypt.rounds, v.rounds);
        const std::size_t nk = key.size() / 4;
        for (std::size_t i = 0; i < nk; ++i)  // the key itself, big-endian words
            EXPECT_EQ(tables.encrypt.words[i],
                      (std::uint32_t{key[4 * i]} << 24) | (std::uint32_t{key[4 * i + 1]} << 16) |
                          (std::uint32_t{key[4 * i + 2]} << 8) | key[4 * i + 3]);
        EXPECT_EQ(tables.encrypt.words[nk], v.first_derived);
        for (std::size_t c = 0; c < 4; ++c)
            EXPECT_EQ(tables.encrypt.words[4 * v.rounds + c], v.last_round_key[c]);
    }
}

// ---- Tables -----------------------------------------------------------------------------------

std::uint32_t textbook_mul(std::uint32_t a, std::uint32_t b) {
    std::uint32_t product = 0;
    for (int i = 0; i < 8; ++i) {
        if ((b >> i) & 1) product ^= a;
        a = ((a << 1) ^ ((a & 0x80) ? 0x11b : 0)) & 0xff;
    }
    return product;
}

TEST(CudaTables, GeneratedTablesFollowTheTextbookSbox) {
    for (std::uint32_t x = 0; x < 256; ++x) {
        std::uint32_t inverse = 0;
        for (std::uint32_t y = 1; y < 256; ++y)
            if (textbook_mul(x, y) == 1) inverse = y;
        std::uint32_t s = 0x63;
        for (unsigned shift = 0; shift < 5; ++shift)
            s ^= ((inverse << shift) | (inverse >> ((8 - shift) % 8))) & 0xff;
        ASSERT_EQ(device::aes_sbox(x), s) << x;
        ASSERT_EQ(device::aes_inv_sbox(s), x) << x;
        const auto& source = device::kAesTableSourceHost;
        EXPECT_EQ(source.t0[x], textbook_mul(s, 2) | s << 8 | s << 16 | textbook_mul(s, 3) << 24);
        EXPECT_EQ((source.inv_sbox[s / 4] >> (8 * (s % 4))) & 0xff, x);
        EXPECT_EQ(source.inv_t0[s], textbook_mul(x, 14) | textbook_mul(x, 9) << 8 |
                                        textbook_mul(x, 13) << 16 | textbook_mul(x, 11) << 24);
    }
}

// ---- AES rounds, with the tables the load phases write ------------------------------------

// Shared memory of each kernel after its load phase, run for every thread as on the GPU.
struct LoadedKernels {
    AesKeyTables aes{};
    GcmKeyTables gcm{};
    std::unique_ptr<device::EcbEncryptShared> ecb_encrypt{new device::EcbEncryptShared};
    std::unique_ptr<device::EcbDecryptShared> ecb_decrypt{new device::EcbDecryptShared};
    std::unique_ptr<device::GcmShared> gcm_shared{new device::GcmShared};

    explicit LoadedKernels(const Bytes& key) {
        // Junk first, as the GPU's shared memory holds: every entry checked must be written.
        std::memset(static_cast<void*>(ecb_encrypt.get()), 0xa5, sizeof *ecb_encrypt);
        std::memset(static_cast<void*>(ecb_decrypt.get()), 0xa5, sizeof *ecb_decrypt);
        std::memset(static_cast<void*>(gcm_shared.get()), 0xa5, sizeof *gcm_shared);
        build_aes_key_tables(key.data(), key.size(), aes);
        build_gcm_key_tables(key.data(), key.size(), gcm);
        const EcbLaunch ecb{&aes, nullptr, nullptr, 0, false};
        GcmLaunch gcm_launch{};
        gcm_launch.key = &gcm;
        for (unsigned t = 0; t < kEcbThreads; ++t) {
            device::ecb_load(ecb, *ecb_encrypt, 0, t);
            device::ecb_load(ecb, *ecb_decrypt, 0, t);
        }
        for (unsigned t = 0; t < kGcmThreads; ++t) device::gcm_load(gcm_launch, *gcm_shared, 0, t);
    }
};

// One AES round on bytes, the FIPS-197 way (state[r + 4c]).
std::array<std::uint8_t, 16> textbook_round(const std::array<std::uint8_t, 16>& in,
                                            const std::array<std::uint8_t, 16>& round_key) {
    std::array<std::uint8_t, 16> shifted{}, out{};
    for (unsigned c = 0; c < 4; ++c)
        for (unsigned r = 0; r < 4; ++r)
            shifted[r + 4 * c] = static_cast<std::uint8_t>(device::aes_sbox(in[r + 4 * ((c + r) % 4)]));
    for (unsigned c = 0; c < 4; ++c)
        for (unsigned r = 0; r < 4; ++r) {
            const std::uint8_t* a = &shifted[4 * c];
            out[r + 4 * c] = static_cast<std::uint8_t>(
                textbook_mul(a[r], 2) ^ textbook_mul(a[(r + 1) % 4], 3) ^ a[(r + 2) % 4] ^
                a[(r + 3) % 4] ^ round_key[r + 4 * c]);
        }
    return out;
}

TEST(CudaAesRounds, PairedTableRoundEqualsTheTextbookRoundOnEveryLane) {
    std::mt19937_64 rng(2);
    const LoadedKernels k(random_bytes(rng, 16));
    for (int trial = 0; trial < 200; ++trial) {
        const Bytes state = random_bytes(rng, 16), round_key = random_bytes(rng, 16);
        std::array<std::uint8_t, 16> s{}, rk{};
        std::copy(state.begin(), state.end(), s.begin());
        std::copy(round_key.begin(), round_key.end(), rk.begin());
        const std::uint32_t lane = static_cast<std::uint32_t>(trial) % device::kLanes;
        Words4 kernel_key = words_of(rk.data());  // as AesSharedKey keeps a middle round's key
        for (std::uint32_t& w : kernel_key.w) w = device::kernel_round_key(w);
        const Words4 got = device::encrypt_round(k.ecb_encrypt->t0_t2, device::pair_selects(lane),
                                                 words_of(s.data()), kernel_key);
        EXPECT_EQ(bytes_of(got), textbook_round(s, rk)) << "lane " << lane;
    }
}

TEST(CudaAesRounds, WholeBlocksEqualTheScalarBackendForEveryKeySizeAndLane) {
    std::mt19937_64 rng(3);
    for (std::size_t key_len : {16u, 24u, 32u}) {
        SCOPED_TRACE(key_len);
        const Bytes key = random_bytes(rng, key_len);
        const LoadedKernels k(key);
        const BlockCipherKey scalar(scalar::kAes, key);
        for (std::uint32_t lane = 0; lane < device::kLanes; ++lane) {
            const Bytes block = random_bytes(rng, 16);
            Bytes want(16);
            scalar.encrypt(block.data(), want.data(), 1);
            const Words4 in = words_of(block.data());
            const auto enc = bytes_of(
                device::aes_encrypt_block(k.ecb_encrypt->t0_t2, k.ecb_encrypt->key, lane, in));
            EXPECT_EQ(Bytes(enc.begin(), enc.end()), want) << "ECB kernel tables, lane " << lane;
            const auto gcm = bytes_of(
                device::aes_encrypt_block(k.gcm_shared->t0_t2, k.gcm_shared->key, lane, in));
            EXPECT_EQ(Bytes(gcm.begin(), gcm.end()), want) << "GCM kernel tables, lane " << lane;
            const auto back = bytes_of(device::aes_decrypt_block(
                k.ecb_decrypt->inv_t0_t2, k.ecb_decrypt->inv_sbox, k.ecb_decrypt->key, lane,
                words_of(want.data())));
            EXPECT_EQ(Bytes(back.begin(), back.end()), block) << "decryption, lane " << lane;
        }
    }
}

TEST(CudaAesRounds, TheLoadPhasesFillEveryCopyOfEveryEntry) {
    const LoadedKernels k(Bytes(32, 7));
    const auto& source = device::kAesTableSourceHost;
    using device::PairHalf;
    for (std::uint32_t i = 0; i < device::kAesTableEntries; ++i)
        for (std::uint32_t lane = 0; lane < device::kLanes; ++lane) {
            const std::uint32_t t2 = device::rotl32(source.t0[i], 16);
            const std::uint32_t inv_t2 = device::rotl32(source.inv_t0[i], 16);
            ASSERT_EQ(device::pair_load(k.gcm_shared->t0_t2, i, PairHalf::a, lane), source.t0[i]);
            ASSERT_EQ(device::pair_load(k.gcm_shared->t0_t2, i, PairHalf::b, lane), t2);
            ASSERT_EQ(device::pair_load(k.ecb_encrypt->t0_t2, i, PairHalf::a, lane), source.t0[i]);
            ASSERT_EQ(device::pair_load(k.ecb_encrypt->t0_t2, i, PairHalf::b, lane), t2);
            ASSERT_EQ(device::pair_load(k.ecb_decrypt->inv_t0_t2, i, PairHalf::a, lane),
                      source.inv_t0[i]);
            ASSERT_EQ(device::pair_load(k.ecb_decrypt->inv_t0_t2, i, PairHalf::b, lane), inv_t2);
            if (i < device::kInvSboxWords) {
                ASSERT_EQ(device::replicated_load(k.ecb_decrypt->inv_sbox, i, lane),
                          source.inv_sbox[i]);
            }
            if (i < device::kNibbleEntries) {
                for (std::uint32_t position = 0; position < device::kNibblePositions; ++position) {
                    const Gf128 m =
                        device::nibble_lookup(k.gcm_shared->h_t_positions, position, i, lane);
                    for (unsigned w = 0; w < 4; ++w)
                        ASSERT_EQ(m.w[w], k.gcm.h_t_positions[position][i][w]);
                }
            }
        }
}

// The bank layout behind the constant-time claim (aes_tables.hpp): lane L's copy of every
// table word, in every table of both kernels, lies in bank L (bits 2..6 of its byte offset
// from a 128-byte-aligned table start), and a lane's 16-byte GHASH entry in banks 4L % 32 ..
// 4L % 32 + 3.
TEST(CudaAesRounds, EveryLaneReadsOnlyItsOwnBank) {
    const LoadedKernels k(Bytes(16, 3));
    const auto bank = [](const void* table, const void* word) {
        return static_cast<std::uint32_t>((static_cast<const unsigned char*>(word) -
                                           static_cast<const unsigned char*>(table)) / 4 % 32);
    };
    using device::PairHalf;
    const std::uint32_t* pair = k.ecb_encrypt->t0_t2;
    for (std::uint32_t i = 0; i < device::kAesTableEntries; ++i)
        for (std::uint32_t lane = 0; lane < device::kLanes; ++lane)
            for (PairHalf half : {PairHalf::a, PairHalf::b}) {
                const std::uint32_t offset =
                    device::pair_offset(i << 8, 1, device::pair_select(lane, half));
                ASSERT_EQ(offset / 4 % 32, lane);
                ASSERT_EQ(pair[offset / 4], device::pair_load(pair, i, half, lane));
                ASSERT_EQ(bank(pair, &pair[offset / 4]), lane);
            }
    const std::uint32_t* positions = k.gcm_shared->h_t_positions;
    for (std::uint32_t p = 0; p < device::kNibblePositions; ++p)
        for (std::uint32_t v = 0; v < device::kNibbleEntries; ++v)
            for (std::uint32_t lane = 0; lane < device::kLanes; ++lane)
                ASSERT_EQ(bank(positions, positions + device::nibble_slot(p, v, lane)),
                          4 * lane % 32);
}

// The cheaper address arithmetic (aes_tables.hpp's pair_lookup, gf128.hpp's nibble_lookup_of,
// portability.hpp's byte_perm and mul_high) reads exactly the word the plain accessors read,
// for every row or nibble position, every index value and every lane.
TEST(CudaAesRounds, ShortcutLookupsReadTheSameWordsAsThePlainAccessors) {
    const LoadedKernels k(Bytes(32, 9));
    std::mt19937_64 rng(11);
    using device::PairHalf;
    for (int trial = 0; trial < 4096; ++trial) {
        const auto column = static_cast<std::uint32_t>(rng());
        const std::uint32_t lane = static_cast<std::uint32_t>(trial) % device::kLanes;
        for (unsigned row = 0; row < 4; ++row)
            for (PairHalf half : {PairHalf::a, PairHalf::b}) {
                ASSERT_EQ(device::pair_lookup(k.ecb_encrypt->t0_t2, column, row,
                                              device::pair_select(lane, half)),
                          device::pair_load(k.ecb_encrypt->t0_t2, device::row_byte(column, row),
                                            half, lane))
                    << "row " << row << " lane " << lane;
            }
        for (std::uint32_t position = 0; position < device::kNibblePositions; ++position)
            for (int pos = 0; pos <= 28; pos += 4) {
                const Gf128 got = device::nibble_lookup_of(k.gcm_shared->h_t_positions, position,
                                                           column, pos, lane * 16);
                const Gf128 want = device::nibble_lookup(k.gcm_shared->h_t_positions, position,
                                                         (column >> pos) & 0xfu, lane);
                for (unsigned w = 0; w < 4; ++w)
                    ASSERT_EQ(got.w[w], want.w[w]) << "nibble at " << pos;
            }
        for (unsigned shift = 1; shift < 32; ++shift)
            ASSERT_EQ(device::mul_high(column, 1u << (32 - shift)), column >> shift);
    }
}

// byte_perm's host version against PTX prmt's definition, byte by byte.
TEST(CudaAesRounds, BytePermPicksTheSelectedBytes) {
    std::mt19937_64 rng(12);
    for (int trial = 0; trial < 2000; ++trial) {
        const auto a = static_cast<std::uint32_t>(rng()), b = static_cast<std::uint32_t>(rng());
        const auto selector = static_cast<std::uint32_t>(rng()) & 0x7777u;
        const std::uint8_t bytes[8] = {
            static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(a >> 8),
            static_cast<std::uint8_t>(a >> 16), static_cast<std::uint8_t>(a >> 24),
            static_cast<std::uint8_t>(b), static_cast<std::uint8_t>(b >> 8),
            static_cast<std::uint8_t>(b >> 16), static_cast<std::uint8_t>(b >> 24)};
        std::uint32_t want = 0;
        for (unsigned n = 0; n < 4; ++n)
            want |= std::uint32_t{bytes[(selector >> (4 * n)) & 7]} << (8 * n);
        ASSERT_EQ(device::byte_perm(a, b, selector), want);
    }
}

// ---- GF(2^128) --------------------------------------------------------------------------------

// The scalar backend's GHASH as the reference: (0 ^ x) * h.
Gf128 reference_mul(const Gf128& x, const Gf128& h) {
    std::uint8_t h_bytes[16];
    for (unsigned b = 0; b < 16; ++b)
        h_bytes[b] = static_cast<std::uint8_t>(h.w[b / 4] >> (24 - 8 * (b % 4)));
    scalar::aes::GhashKey key{};
    scalar::aes::ghash_init(key, h_bytes);
    scalar::aes::Block128 y{};
    scalar::aes::ghash_block(key, y, {(std::uint64_t{x.w[0]} << 32) | x.w[1],
                                      (std::uint64_t{x.w[2]} << 32) | x.w[3]});
    return {{static_cast<std::uint32_t>(y.hi >> 32), static_cast<std::uint32_t>(y.hi),
             static_cast<std::uint32_t>(y.lo >> 32), static_cast<std::uint32_t>(y.lo)}};
}

TEST(CudaGf128, BitwiseMultiplicationEqualsTheScalarGhash) {
    std::mt19937_64 rng(4);
    const Gf128 one{{0x80000000u, 0, 0, 0}};
    for (int trial = 0; trial < 500; ++trial) {
        const Gf128 x = random_element(rng), h = random_element(rng);
        const Gf128 got = device::gf128_mul_bitwise(x, h);
        ASSERT_TRUE(same(got, reference_mul(x, h))) << hex_of(x) << " * " << hex_of(h);
        ASSERT_TRUE(same(device::gf128_mul_bitwise(x, one), x));
        ASSERT_TRUE(same(device::gf128_mul_bitwise(h, x), got)) << "commutes";
    }
}

TEST(CudaGf128, GcmKeyTablesHoldHAndItsPowers) {
    std::mt19937_64 rng(5);
    const Bytes key = random_bytes(rng, 32);
    GcmKeyTables tables{};
    build_gcm_key_tables(key.data(), key.size(), tables);
    Bytes h(16, 0);
    BlockCipherKey(scalar::kAes, key).encrypt(h.data(), h.data(), 1);
    const Gf128 h_element{{(std::uint32_t{h[0]} << 24) | (std::uint32_t{h[1]} << 16) |
                               (std::uint32_t{h[2]} << 8) | h[3],
                           (std::uint32_t{h[4]} << 24) | (std::uint32_t{h[5]} << 16) |
                               (std::uint32_t{h[6]} << 8) | h[7],
                           (std::uint32_t{h[8]} << 24) | (std::uint32_t{h[9]} << 16) |
                               (std::uint32_t{h[10]} << 8) | h[11],
                           (std::uint32_t{h[12]} << 24) | (std::uint32_t{h[13]} << 16) |
                               (std::uint32_t{h[14]} << 8) | h[15]}};
    EXPECT_TRUE(same(Gf128{{tables.h[0], tables.h[1], tables.h[2], tables.h[3]}}, h_element));
    Gf128 power = h_element;
    for (unsigned i = 0; i < kGcmThreads; ++i) {
        const auto& p = tables.h_powers[i];
        ASSERT_TRUE(same(Gf128{{p[0], p[1], p[2], p[3]}}, power)) << "H^" << i + 1;
        power = reference_mul(power, h_element);
    }
}

// x^16 of gf128_times_x16, by the bitwise multiplication.
TEST(CudaGf128, TimesX16ShiftsAndReducesAsMultiplication) {
    std::mt19937_64 rng(7);
    const Gf128 x16{{0x00008000u, 0, 0, 0}};  // x^16: bit 31 - 16 of w[0]
    std::vector<Gf128> inputs = {Gf128{{0, 0, 0, 0xffffu}}, Gf128{{~0u, ~0u, ~0u, ~0u}}};
    for (int i = 0; i < 300; ++i) inputs.push_back(random_element(rng));
    for (const Gf128& z : inputs)
        ASSERT_TRUE(same(device::gf128_times_x16(z), device::gf128_mul_bitwise(z, x16))) << hex_of(z);
}

TEST(CudaGf128, PositionedTableMultiplicationByHtEqualsBitwiseAndScalarOnEveryLane) {
    std::mt19937_64 rng(6);
    const LoadedKernels k(random_bytes(rng, 16));
    const auto& ht = k.gcm.h_powers[kGcmThreads - 1];
    const Gf128 h_t{{ht[0], ht[1], ht[2], ht[3]}};
    std::vector<Gf128> inputs = {Gf128{}, Gf128{{0x80000000u, 0, 0, 0}}, Gf128{{0, 0, 0, 1}},
                                 Gf128{{~0u, ~0u, ~0u, ~0u}}};
    for (unsigned bit = 0; bit < 128; ++bit) {  // every single coefficient
        Gf128 x{};
        x.w[bit / 32] = 0x80000000u >> (bit % 32);
        inputs.push_back(x);
    }
    for (int i = 0; i < 300; ++i) inputs.push_back(random_element(rng));
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const Gf128& x = inputs[i];
        const std::uint32_t lane = static_cast<std::uint32_t>(i) % device::kLanes;
        const Gf128 table = device::gf128_mul_fixed(x, k.gcm_shared->h_t_positions, lane);
        ASSERT_TRUE(same(table, device::gf128_mul_bitwise(x, h_t))) << hex_of(x);
        ASSERT_TRUE(same(table, reference_mul(x, h_t))) << hex_of(x);
    }
}

}  // namespace
}  // namespace warp::cuda
