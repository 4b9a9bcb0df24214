// ML-KEM-768's AVX2 code against its portable code (formats/keys/pq/mlkem_polynomial_avx2.hpp,
// keccak_x4.hpp), called directly side by side on many random inputs and on the extremes of
// the coefficient range: the NTT, its inverse, MultiplyNTTs, the sums, SamplePolyCBD_2,
// Compress_d (every value), ByteDecode12, SampleNTT's rejection loop, Keccak-f[1600] x4 and
// four-way SampleNTT. The vector tests (mlkem768_test.cpp) run the whole
// scheme on whichever path the probe picks, and again with WARPCRYPT_CPU_MASK=avx2
// (tests/CMakeLists.txt); this file checks the pieces, and which path each run really took.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "engine/cpu_features.hpp"
#include "formats/keys/pq/keccak_x4.hpp"
#include "formats/keys/pq/mlkem_polynomial.hpp"
#include "formats/keys/pq/mlkem_polynomial_avx2.hpp"
#include "formats/keys/pq/sha3.hpp"

namespace warp::formats::pq::mlkem768 {
namespace {

constexpr int kRandomCases = 2000;

bool avx2_masked_off() {
    const char* mask = std::getenv("WARPCRYPT_CPU_MASK");
    return mask != nullptr && std::string(mask).find("avx2") != std::string::npos;
}

TEST(MlKem768Paths, ActiveImplementationFollowsTheCpuProbe) {
    const std::string active = active_implementation();
#if defined(__x86_64__)
    EXPECT_EQ(active, cpu_features().avx2 ? "avx2" : "portable");
    if (avx2_masked_off()) {
        EXPECT_EQ(active, "portable");
    }
#else
    EXPECT_EQ(active, "portable");
#endif
}

#if defined(__x86_64__)

class MlKem768Avx2 : public ::testing::Test {
protected:
    void SetUp() override {
        if (!detect_cpu_features("").avx2) GTEST_SKIP() << "this CPU has no AVX2";
    }

    Poly random_poly() {
        Poly f;
        for (auto& x : f.c) x = static_cast<std::uint16_t>(coefficient_(random_));
        return f;
    }

    // Random polynomials, then the extremes: all zero, all q - 1, alternating 0 and q - 1.
    Poly test_poly(int i) {
        Poly f = random_poly();
        if (i < 3) {
            for (std::size_t k = 0; k < kN; ++k) {
                const bool top = i == 1 || (i == 2 && k % 2 == 1);
                f.c[k] = static_cast<std::uint16_t>(top ? kQ - 1 : 0);
            }
        }
        return f;
    }

    std::mt19937_64 random_{20261207};
    std::uniform_int_distribution<std::uint32_t> coefficient_{0, kQ - 1};
};

TEST_F(MlKem768Avx2, NttAndInverseMatchThePortableCode) {
    for (int i = 0; i < kRandomCases; ++i) {
        const Poly f = test_poly(i);
        Poly portable_f = f, avx2_f = f;
        portable::ntt(portable_f);
        avx2::ntt(avx2_f);
        ASSERT_EQ(avx2_f.c, portable_f.c) << "ntt, case " << i;
        portable_f = f;
        avx2_f = f;
        portable::inverse_ntt(portable_f);
        avx2::inverse_ntt(avx2_f);
        ASSERT_EQ(avx2_f.c, portable_f.c) << "inverse_ntt, case " << i;
    }
}

TEST_F(MlKem768Avx2, MultiplicationAndSumsMatchThePortableCode) {
    for (int i = 0; i < kRandomCases; ++i) {
        const Poly f = test_poly(i), g = test_poly((i + 1) % kRandomCases), acc = test_poly(i + 7);
        Poly portable_out, avx2_out;
        portable::multiply_ntt(f, g, portable_out);
        avx2::multiply_ntt(f, g, avx2_out);
        ASSERT_EQ(avx2_out.c, portable_out.c) << "multiply_ntt, case " << i;
        portable_out = acc;
        avx2_out = acc;
        portable::multiply_add_ntt(f, g, portable_out);
        avx2::multiply_add_ntt(f, g, avx2_out);
        ASSERT_EQ(avx2_out.c, portable_out.c) << "multiply_add_ntt, case " << i;
        portable_out = f;
        avx2_out = f;
        portable::add(portable_out, g);
        avx2::add(avx2_out, g);
        ASSERT_EQ(avx2_out.c, portable_out.c) << "add, case " << i;
        portable_out = f;
        avx2_out = f;
        portable::subtract(portable_out, g);
        avx2::subtract(avx2_out, g);
        ASSERT_EQ(avx2_out.c, portable_out.c) << "subtract, case " << i;
    }
}

TEST_F(MlKem768Avx2, NoiseSamplingMatchesThePortableCode) {
    for (int i = 0; i < kRandomCases; ++i) {
        std::array<std::uint8_t, 128> bytes{};
        for (auto& b : bytes) b = static_cast<std::uint8_t>(random_());
        if (i == 0) bytes.fill(0xFF);
        if (i == 1) bytes.fill(0x00);
        Poly portable_f, avx2_f;
        portable::sample_cbd2(bytes, portable_f);
        avx2::sample_cbd2(bytes, avx2_f);
        ASSERT_EQ(avx2_f.c, portable_f.c) << "case " << i;
    }
}

TEST_F(MlKem768Avx2, CompressionMatchesThePortableCodeForEveryValue) {
    for (unsigned d : {1u, 4u, 10u, 11u}) {
        for (std::uint32_t first = 0; first < kQ; first += kN) {
            Poly f;
            for (std::size_t k = 0; k < kN; ++k)
                f.c[k] = static_cast<std::uint16_t>((first + k) % kQ);
            Poly portable_f = f, avx2_f = f;
            portable::compress(portable_f, d);
            avx2::compress(avx2_f, d);
            ASSERT_EQ(avx2_f.c, portable_f.c) << "d = " << d << ", from " << first;
        }
    }
}

TEST_F(MlKem768Avx2, TwelveBitDecodingMatchesThePortableCode) {
    for (int i = 0; i < kRandomCases; ++i) {
        std::array<std::uint8_t, kPolyBytes> bytes{};
        for (auto& b : bytes) b = static_cast<std::uint8_t>(random_());
        if (i % 2 == 0) {  // canonical half the time: values below q, encoded
            const Poly f = test_poly(i);
            byte_encode(f, 12, bytes);
        }
        if (i == 1) bytes.fill(0xFF);
        Poly portable_f, avx2_f;
        const bool portable_ok = portable::byte_decode_12_checked(bytes, portable_f);
        const bool avx2_ok = avx2::byte_decode_12_checked(bytes, avx2_f);
        ASSERT_EQ(avx2_ok, portable_ok) << "case " << i;
        ASSERT_EQ(avx2_f.c, portable_f.c) << "case " << i;
        if (i % 2 == 0) {
            ASSERT_TRUE(avx2_ok) << "case " << i;
        }
        Poly generic;
        portable::byte_decode(bytes, 12, generic);
        ASSERT_EQ(avx2_f.c, generic.c) << "case " << i;
    }
}

// Rejection sampling over blocks of every length ML-KEM uses and less, from every count, and
// over blocks of mostly rejected values.
TEST_F(MlKem768Avx2, RejectionSamplingMatchesThePortableCode) {
    for (int i = 0; i < kRandomCases; ++i) {
        std::array<std::uint8_t, kShake128Rate> block{};
        for (auto& b : block) b = static_cast<std::uint8_t>(random_());
        if (i % 3 == 1)
            for (auto& b : block) b |= 0xC0;  // most values at or above q
        const std::size_t length = 3 * (random_() % 57);
        const std::size_t count = i < 256 ? static_cast<std::size_t>(i) : random_() % (kN + 1);
        const Poly start = random_poly();
        Poly portable_f = start, avx2_f = start;
        const auto portable_count = portable::accept_below_q(
            std::span(block).first(length), portable_f, count);
        const auto avx2_count = avx2::accept_below_q(std::span(block).first(length), avx2_f,
                                                     count);
        ASSERT_EQ(avx2_count, portable_count) << "case " << i;
        // Past the count, both may have written scratch values; the next block overwrites them.
        for (std::size_t k = 0; k < avx2_count; ++k)
            ASSERT_EQ(avx2_f.c[k], portable_f.c[k]) << "case " << i << ", value " << k;
    }
}

TEST_F(MlKem768Avx2, KeccakX4MatchesThePortableCode) {
    for (int i = 0; i < kRandomCases; ++i) {
        KeccakX4 portable_state, avx2_state;
        for (std::size_t k = 0; k < 100; ++k) portable_state.lanes[k] = random_();
        avx2_state.lanes = portable_state.lanes;
        keccak_f1600_x4_portable(portable_state);
        keccak_f1600_x4_avx2(avx2_state);
        ASSERT_EQ(avx2_state.lanes, portable_state.lanes) << "case " << i;
    }
}

// Whichever path the probe picked, four-way SampleNTT is four one-way SampleNTTs (sha3.cpp's
// sponge, no AVX2).
TEST_F(MlKem768Avx2, FourWayMatrixSamplingMatchesOneAtATime) {
    for (int i = 0; i < 200; ++i) {
        std::array<std::uint8_t, 32> rho{};
        for (auto& b : rho) b = static_cast<std::uint8_t>(random_());
        std::array<std::array<std::uint8_t, 2>, 4> indices{};
        for (auto& pair : indices) {
            pair[0] = static_cast<std::uint8_t>(random_() % 3);
            pair[1] = static_cast<std::uint8_t>(random_() % 3);
        }
        std::array<Poly, 4> four;
        sample_ntt_x4(rho, indices, {&four[0], &four[1], &four[2], &four[3]});
        for (std::size_t s = 0; s < 4; ++s) {
            Poly one;
            sample_ntt(rho, indices[s][0], indices[s][1], one);
            ASSERT_EQ(four[s].c, one.c) << "case " << i << ", state " << s;
        }
    }
}

// Four-way SHAKE256 (ML-KEM's PRF) is four one-way SHAKE256s.
TEST_F(MlKem768Avx2, FourWayShake256MatchesOneAtATime) {
    for (int i = 0; i < 200; ++i) {
        std::array<std::array<std::uint8_t, 33>, 4> inputs{};
        FourMessages messages;
        for (std::size_t s = 0; s < 4; ++s) {
            for (auto& b : inputs[s]) b = static_cast<std::uint8_t>(random_());
            messages[s] = std::span<const std::uint8_t>(inputs[s]).first(33 - s);  // 33..30 bytes
        }
        KeccakX4 state;
        shake_x4_absorb_short(state, kShake256Rate, messages);
        std::array<std::array<std::uint8_t, 136>, 4> four{};
        shake_x4_squeeze_block(state, 136, {four[0].data(), four[1].data(), four[2].data(),
                                            four[3].data()});
        for (std::size_t s = 0; s < 4; ++s) {
            std::array<std::uint8_t, 136> one{};
            shake256({messages[s]}, one);
            ASSERT_EQ(four[s], one) << "case " << i << ", state " << s;
        }
    }
}

#endif  // __x86_64__

}  // namespace
}  // namespace warp::formats::pq::mlkem768
