// build_aes_key_tables and build_gcm_key_tables (kernel_api.hpp): the per-key state of the
// cuda backends, computed on the host in constant time.
//
// No table is indexed by a secret here (the CPU's caches would reveal the index): the S-box of
// the key expansion and of E(K, 0^128) is computed as inversion in GF(2^8) plus the affine map
// (device/gf256.hpp, masks instead of branches), MixColumns with a masked xtime, and GF(2^128)
// products with the masked bitwise multiplication (device/gf128.hpp). That costs a few hundred
// microseconds per key (H^1..H^256 and the nibble table: about 270 products), once per key.
#include <cstring>

#include "engine/cuda/device/gf128.hpp"
#include "engine/cuda/device/gf256.hpp"
#include "engine/cuda/kernel_api.hpp"
#include "engine/secure_memory.hpp"

namespace warp::cuda {
namespace {

using device::aes_sbox;
using device::gf256_mul;
using device::gf256_xtime;
using device::Gf128;

std::uint32_t load_be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           std::uint32_t{p[3]};
}

std::uint32_t byte_of(std::uint32_t word, unsigned i) { return (word >> (24 - 8 * i)) & 0xffu; }

std::uint32_t sub_word(std::uint32_t w) {
    return (aes_sbox(byte_of(w, 0)) << 24) | (aes_sbox(byte_of(w, 1)) << 16) |
           (aes_sbox(byte_of(w, 2)) << 8) | aes_sbox(byte_of(w, 3));
}

// FIPS-197 5.2 KeyExpansion. The branches depend on the word index and the key length only.
void expand_key(const std::uint8_t* key, std::size_t key_len, AesRoundKeys& out) {
    const std::size_t nk = key_len / 4;
    const std::size_t rounds = nk + 6;
    const std::size_t total = 4 * (rounds + 1);
    std::memset(&out, 0, sizeof out);
    out.rounds = static_cast<std::uint32_t>(rounds);
    for (std::size_t i = 0; i < nk; ++i) out.words[i] = load_be32(key + 4 * i);
    std::uint32_t rcon = 1;
    for (std::size_t i = nk; i < total; ++i) {
        std::uint32_t temp = out.words[i - 1];
        if (i % nk == 0) {
            temp = sub_word((temp << 8) | (temp >> 24)) ^ (rcon << 24);
            rcon = gf256_xtime(rcon);
        } else if (nk > 6 && i % nk == 4) {
            temp = sub_word(temp);
        }
        out.words[i] = out.words[i - nk] ^ temp;
        secure_wipe(&temp, sizeof temp);
    }
}

// InvMixColumns of one column (big-endian word: row 0 in the top byte).
std::uint32_t inv_mix_column(std::uint32_t w) {
    const std::uint32_t a[4] = {byte_of(w, 0), byte_of(w, 1), byte_of(w, 2), byte_of(w, 3)};
    constexpr std::uint32_t kRow[4] = {14, 11, 13, 9};  // circulant: row r starts r places on
    std::uint32_t out = 0;
    for (unsigned r = 0; r < 4; ++r) {
        std::uint32_t b = 0;
        for (unsigned c = 0; c < 4; ++c) b ^= gf256_mul(a[c], kRow[(c + 4 - r) % 4]);
        out |= b << (24 - 8 * r);
    }
    return out;
}

// FIPS-197 5.3.5: the equivalent inverse cipher's schedule dw, same indexing as w.
void inverse_schedule(const AesRoundKeys& enc, AesRoundKeys& dec) {
    dec = enc;
    for (std::uint32_t i = 4; i < 4 * enc.rounds; ++i) dec.words[i] = inv_mix_column(enc.words[i]);
}

// One AES encryption on bytes (FIPS-197 5.1), for H = E(K, 0^128): state[r + 4c] is row r of
// column c, as the block's bytes are laid out.
void encrypt_block(const AesRoundKeys& keys, const std::uint8_t in[16], std::uint8_t out[16]) {
    std::uint32_t s[16];
    std::uint32_t t[16];
    for (unsigned i = 0; i < 16; ++i) s[i] = in[i] ^ byte_of(keys.words[i / 4], i % 4);
    for (std::uint32_t round = 1; round <= keys.rounds; ++round) {
        for (unsigned c = 0; c < 4; ++c)  // SubBytes and ShiftRows
            for (unsigned r = 0; r < 4; ++r) t[r + 4 * c] = aes_sbox(s[r + 4 * ((c + r) % 4)]);
        for (unsigned c = 0; c < 4; ++c) {
            const std::uint32_t* a = t + 4 * c;
            for (unsigned r = 0; r < 4; ++r) {
                const std::uint32_t mixed = round == keys.rounds
                                                ? a[r]
                                                : gf256_xtime(a[r]) ^ gf256_xtime(a[(r + 1) % 4]) ^
                                                      a[(r + 1) % 4] ^ a[(r + 2) % 4] ^ a[(r + 3) % 4];
                s[r + 4 * c] = mixed ^ byte_of(keys.words[4 * round + c], r);
            }
        }
    }
    for (unsigned i = 0; i < 16; ++i) out[i] = static_cast<std::uint8_t>(s[i]);
    secure_wipe(s, sizeof s);
    secure_wipe(t, sizeof t);
}

Gf128 element(const std::uint32_t w[4]) { return {{w[0], w[1], w[2], w[3]}}; }

void store(std::uint32_t w[4], const Gf128& x) {
    for (unsigned i = 0; i < 4; ++i) w[i] = x.w[i];
}

}  // namespace

void build_aes_key_tables(const std::uint8_t* key, std::size_t key_len, AesKeyTables& out) {
    expand_key(key, key_len, out.encrypt);
    inverse_schedule(out.encrypt, out.decrypt);
}

void build_gcm_key_tables(const std::uint8_t* key, std::size_t key_len, GcmKeyTables& out) {
    expand_key(key, key_len, out.aes);
    std::uint8_t h_bytes[16] = {};
    encrypt_block(out.aes, h_bytes, h_bytes);
    for (unsigned i = 0; i < 4; ++i) out.h[i] = load_be32(h_bytes + 4 * i);
    secure_wipe(h_bytes, sizeof h_bytes);

    Gf128 power = element(out.h);
    Gf128 h = power;
    store(out.h_powers[0], power);
    for (unsigned i = 1; i < kGcmThreads; ++i) {
        power = device::gf128_mul_bitwise(power, h);
        store(out.h_powers[i], power);
    }
    // power is now H^T: its multiples by the 4-bit polynomials at each nibble position of a
    // halfword.
    for (unsigned i = 0; i < device::kNibblePositions; ++i)
        for (std::uint32_t v = 0; v < device::kNibbleEntries; ++v)
            store(out.h_t_positions[i][v],
                  device::gf128_mul_bitwise(device::gf128_nibble(v, i), power));
    // H^P for joining the pieces of a split chunk: H^T raised to P / T by squaring.
    constexpr std::uint64_t kRatio = kGcmPiecePositions / kGcmThreads;
    static_assert(kGcmPiecePositions % kGcmThreads == 0 && (kRatio & (kRatio - 1)) == 0,
                  "H^P is H^T squared log2(P / T) times");
    for (std::uint64_t e = kGcmThreads; e < kGcmPiecePositions; e *= 2)
        power = device::gf128_mul_bitwise(power, power);
    store(out.h_piece, power);
    secure_wipe(&power, sizeof power);
    secure_wipe(&h, sizeof h);
}

}  // namespace warp::cuda
