// FIPS 203: K-PKE (Algorithms 13-15) and ML-KEM's internal algorithms (16-18) for the
// parameter set ML-KEM-768, on the ring arithmetic of mlkem_polynomial.cpp. Names follow the
// standard (rho, sigma, t_hat, s_hat, ...). Every intermediate that depends on a secret lives
// in a Scrubbed value, wiped when it goes out of scope.
#include "formats/keys/pq/mlkem768.hpp"

#include <algorithm>

#include "formats/keys/pq/keccak_x4.hpp"
#include "formats/keys/pq/mlkem_polynomial.hpp"
#include "formats/keys/pq/sha3.hpp"

namespace warp::formats::pq::mlkem768 {
namespace {

constexpr std::size_t kPkeKeySize = kK * kPolyBytes;             // 1152: ByteEncode12(s_hat)
constexpr std::size_t kU = kK * 32 * kDu;                        // 960: c1
static_assert(kEncapsulationKeySize == kPkeKeySize + 32);
static_assert(kCiphertextSize == kU + 32 * kDv);
static_assert(kDecapsulationKeySize == kPkeKeySize + kEncapsulationKeySize + 32 + 32);

template <class T>
struct Scrubbed {
    T value{};
    Scrubbed() = default;
    Scrubbed(const Scrubbed&) = delete;
    Scrubbed& operator=(const Scrubbed&) = delete;
    ~Scrubbed() { secure_wipe(&value, sizeof(T)); }
};

using Bytes32 = std::array<std::uint8_t, 32>;
using Matrix = std::array<PolyVec, kK>;

std::span<const std::uint8_t> one_byte(const std::uint8_t& b) { return {&b, 1}; }

// PRF_eta(s, b) = SHAKE256(s || b, 64 * eta), eta = 2, then SamplePolyCBD_2, for the nonces
// first_nonce, first_nonce + 1, ... of the polynomials in `out` (at most four): four PRF calls
// share one four-way permutation (keccak_x4.hpp).
void sample_noise(std::span<const std::uint8_t, 32> seed, std::uint8_t first_nonce,
                  std::span<Poly* const> out) {
    Scrubbed<std::array<std::array<std::uint8_t, 33>, 4>> inputs;
    FourMessages messages;
    for (std::size_t s = 0; s < 4; ++s) {
        std::copy(seed.begin(), seed.end(), inputs.value[s].begin());
        inputs.value[s][32] = static_cast<std::uint8_t>(first_nonce + s);
        messages[s] = inputs.value[s];
    }
    KeccakX4 prf;
    shake_x4_absorb_short(prf, kShake256Rate, messages);
    Scrubbed<std::array<std::array<std::uint8_t, 128>, 4>> bytes;
    auto& b = bytes.value;
    shake_x4_squeeze_block(prf, 128, {b[0].data(), b[1].data(), b[2].data(), b[3].data()});
    for (std::size_t s = 0; s < out.size(); ++s) sample_cbd2(b[s], *out[s]);
}

// A_hat[i][j] = SampleNTT(rho || j || i); `transposed` gives A_hat^T (K-PKE.Encrypt's). Four
// entries at a time on the four-way SHAKE128, the ninth alone.
void expand_matrix(std::span<const std::uint8_t, 32> rho, bool transposed, Matrix& a) {
    using Indices = std::array<std::uint8_t, 2>;
    const auto indices = [transposed](std::size_t entry) {
        const auto i = static_cast<std::uint8_t>(entry / kK);
        const auto j = static_cast<std::uint8_t>(entry % kK);
        return transposed ? Indices{i, j} : Indices{j, i};
    };
    const auto entry_poly = [&a](std::size_t entry) { return &a[entry / kK][entry % kK]; };
    for (std::size_t e = 0; e + 4 <= kK * kK; e += 4)
        sample_ntt_x4(rho, {indices(e), indices(e + 1), indices(e + 2), indices(e + 3)},
                      {entry_poly(e), entry_poly(e + 1), entry_poly(e + 2), entry_poly(e + 3)});
    const std::size_t last = kK * kK - 1;
    sample_ntt(rho, indices(last)[0], indices(last)[1], *entry_poly(last));
}

// out[i] = sum_j a[i][j] * v[j], in the NTT domain.
void matrix_vector(const Matrix& a, const PolyVec& v, PolyVec& out) {
    for (std::size_t i = 0; i < kK; ++i) {
        out[i] = Poly{};
        for (std::size_t j = 0; j < kK; ++j) multiply_add_ntt(a[i][j], v[j], out[i]);
    }
}

void inner_product(const PolyVec& a, const PolyVec& b, Poly& out) {
    out = Poly{};
    for (std::size_t j = 0; j < kK; ++j) multiply_add_ntt(a[j], b[j], out);
}

void encode_vector(const PolyVec& v, unsigned d, std::span<std::uint8_t> out) {
    for (std::size_t i = 0; i < kK; ++i) byte_encode(v[i], d, out.subspan(i * 32 * d, 32 * d));
}

void decode_vector(std::span<const std::uint8_t> in, unsigned d, PolyVec& v) {
    for (std::size_t i = 0; i < kK; ++i) byte_decode(in.subspan(i * 32 * d, 32 * d), d, v[i]);
}

// Algorithm 14, K-PKE.Encrypt(ek_PKE, m, r), with ek_PKE's t_hat already decoded (by
// encapsulation with its modulus check, by decapsulation from a dk that holds a checked ek).
void pke_encrypt(const PolyVec& t_hat, std::span<const std::uint8_t, 32> rho,
                 std::span<const std::uint8_t, 32> m, std::span<const std::uint8_t, 32> r,
                 Ciphertext& c) {
    Matrix a_transposed;
    expand_matrix(rho, true, a_transposed);

    Scrubbed<PolyVec> y, e1, u;
    Scrubbed<Poly> e2, mu, v;
    // Nonces 0..2: y, 3..5: e1, 6: e2.
    const std::array<Poly*, 4> first = {&y.value[0], &y.value[1], &y.value[2], &e1.value[0]};
    const std::array<Poly*, 3> second = {&e1.value[1], &e1.value[2], &e2.value};
    sample_noise(r, 0, first);
    sample_noise(r, 4, second);
    for (Poly& p : y.value) ntt(p);

    matrix_vector(a_transposed, y.value, u.value);
    for (std::size_t i = 0; i < kK; ++i) {
        inverse_ntt(u.value[i]);
        add(u.value[i], e1.value[i]);
    }
    byte_decode(m, 1, mu.value);
    decompress(mu.value, 1);
    inner_product(t_hat, y.value, v.value);
    inverse_ntt(v.value);
    add(v.value, e2.value);
    add(v.value, mu.value);

    for (Poly& p : u.value) compress(p, kDu);
    compress(v.value, kDv);
    encode_vector(u.value, kDu, std::span(c).first(kU));
    byte_encode(v.value, kDv, std::span(c).subspan(kU));
}

// Algorithm 15, K-PKE.Decrypt(dk_PKE, c).
void pke_decrypt(std::span<const std::uint8_t, kPkeKeySize> dk_pke,
                 std::span<const std::uint8_t, kCiphertextSize> c,
                 std::span<std::uint8_t, 32> m) {
    Scrubbed<PolyVec> u, s_hat;
    Scrubbed<Poly> v, w;
    decode_vector(c.first(kU), kDu, u.value);
    for (Poly& p : u.value) {
        decompress(p, kDu);
        ntt(p);
    }
    byte_decode(c.subspan(kU), kDv, v.value);
    decompress(v.value, kDv);
    decode_vector(dk_pke, 12, s_hat.value);
    inner_product(s_hat.value, u.value, w.value);
    inverse_ntt(w.value);
    Poly& difference = v.value;  // w = v - NTT^-1(s_hat^T o NTT(u))
    subtract(difference, w.value);
    compress(difference, 1);
    byte_encode(difference, 1, m);
}

}  // namespace

KeyPair generate_key_pair(std::span<const std::uint8_t, kSeedSize> seed) {
    // Algorithm 13, K-PKE.KeyGen(d): (rho, sigma) = G(d || k).
    const std::uint8_t k = kK;
    Scrubbed<std::array<std::uint8_t, 64>> rho_sigma;
    rho_sigma.value = sha3_512({seed.first<32>(), one_byte(k)});
    return generate_key_pair_expanded(rho_sigma.value, seed.last<32>());
}

KeyPair generate_key_pair_expanded(std::span<const std::uint8_t, 64> rho_sigma,
                                   std::span<const std::uint8_t, 32> z) {
    KeyPair pair;
    pair.decapsulation_key = SecretBytes(kDecapsulationKeySize);
    std::uint8_t* dk = pair.decapsulation_key.data();
    Scrubbed<std::array<std::uint8_t, 32>> rho_copy;  // declassified below; sigma stays secret
    std::copy_n(rho_sigma.begin(), 32, rho_copy.value.begin());
    const std::span<const std::uint8_t, 32> rho = rho_copy.value;
    const std::span<const std::uint8_t, 32> sigma = rho_sigma.last<32>();
    // rho and t_hat make the encapsulation key, public by definition: the matrix sampling may
    // branch on rho (tests/ct would see these as secret, being computed from the seed).
    declassify(rho_copy.value.data(), 32);
    Matrix a;
    expand_matrix(rho, false, a);
    Scrubbed<PolyVec> s, e, t;
    // Nonces 0..2: s, 3..5: e.
    const std::array<Poly*, 4> first = {&s.value[0], &s.value[1], &s.value[2], &e.value[0]};
    const std::array<Poly*, 2> second = {&e.value[1], &e.value[2]};
    sample_noise(sigma, 0, first);
    sample_noise(sigma, 4, second);
    for (Poly& p : s.value) ntt(p);
    for (Poly& p : e.value) ntt(p);
    matrix_vector(a, s.value, t.value);
    for (std::size_t i = 0; i < kK; ++i) add(t.value[i], e.value[i]);

    encode_vector(t.value, 12, std::span(pair.encapsulation_key).first(kPkeKeySize));
    std::copy(rho.begin(), rho.end(), pair.encapsulation_key.begin() + kPkeKeySize);
    declassify(pair.encapsulation_key.data(), pair.encapsulation_key.size());
    // Algorithm 16: dk = dk_PKE || ek || H(ek) || z.
    encode_vector(s.value, 12, std::span(dk, kPkeKeySize));
    std::copy(pair.encapsulation_key.begin(), pair.encapsulation_key.end(), dk + kPkeKeySize);
    const Bytes32 h = sha3_256({pair.encapsulation_key});
    std::copy(h.begin(), h.end(), dk + kPkeKeySize + kEncapsulationKeySize);
    std::copy(z.begin(), z.end(), dk + kPkeKeySize + kEncapsulationKeySize + 32);
    return pair;
}

bool encapsulation_key_valid(std::span<const std::uint8_t> ek) {
    if (ek.size() != kEncapsulationKeySize) return false;
    for (std::size_t i = 0; i < kK; ++i)
        if (!decode_12_canonical(ek.subspan(i * kPolyBytes).first<kPolyBytes>())) return false;
    return true;
}

bool decapsulation_key_valid(std::span<const std::uint8_t> dk) {
    if (dk.size() != kDecapsulationKeySize) return false;
    const Bytes32 h = sha3_256({dk.subspan(kPkeKeySize, kEncapsulationKeySize)});
    return std::equal(h.begin(), h.end(), dk.begin() + kPkeKeySize + kEncapsulationKeySize);
}

bool encapsulate(std::span<const std::uint8_t> ek_bytes,
                 std::span<const std::uint8_t, kMessageSize> m, Ciphertext& c, SharedKey& key) {
    if (ek_bytes.size() != kEncapsulationKeySize) return false;
    const std::span<const std::uint8_t, kEncapsulationKeySize> ek =
        ek_bytes.first<kEncapsulationKeySize>();
    // The modulus check (encapsulation_key_valid) while decoding t_hat, in one pass.
    PolyVec t_hat;
    bool canonical = true;
    for (std::size_t i = 0; i < kK; ++i)
        canonical &= byte_decode_12_checked(ek.subspan(i * kPolyBytes).first<kPolyBytes>(),
                                            t_hat[i]);
    if (!canonical) return false;
    // (K, r) = G(m || H(ek)).
    const Bytes32 h = sha3_256({ek});
    Scrubbed<std::array<std::uint8_t, 64>> k_r;
    k_r.value = sha3_512({m, h});
    pke_encrypt(t_hat, ek.subspan<kPkeKeySize, 32>(), m, std::span(k_r.value).last<32>(), c);
    std::copy_n(k_r.value.begin(), kSharedKeySize, key.bytes.begin());
    return true;
}

bool decapsulate(std::span<const std::uint8_t> dk, std::span<const std::uint8_t> c,
                 SharedKey& key) {
    return decapsulation_key_valid(dk) && decapsulate_checked_key(dk, c, key);
}

bool decapsulate_checked_key(std::span<const std::uint8_t> dk,
                             std::span<const std::uint8_t> c_bytes, SharedKey& key) {
    if (dk.size() != kDecapsulationKeySize || c_bytes.size() != kCiphertextSize) return false;
    const std::span<const std::uint8_t, kCiphertextSize> c = c_bytes.first<kCiphertextSize>();
    const std::span<const std::uint8_t, kPkeKeySize> dk_pke = dk.first<kPkeKeySize>();
    const std::span<const std::uint8_t, kEncapsulationKeySize> ek =
        dk.subspan<kPkeKeySize, kEncapsulationKeySize>();
    const std::span<const std::uint8_t, 32> h = dk.subspan<kPkeKeySize + kEncapsulationKeySize, 32>();
    const std::span<const std::uint8_t, 32> z =
        dk.subspan<kPkeKeySize + kEncapsulationKeySize + 32, 32>();

    Scrubbed<Bytes32> m_prime;
    pke_decrypt(dk_pke, c, m_prime.value);
    Scrubbed<std::array<std::uint8_t, 64>> k_r;  // (K', r') = G(m' || h)
    k_r.value = sha3_512({m_prime.value, h});
    Scrubbed<Bytes32> k_bar;  // J(z || c)
    shake256({z, c}, k_bar.value);
    Scrubbed<Ciphertext> c_prime;
    PolyVec t_hat;
    decode_vector(ek.first(kPkeKeySize), 12, t_hat);
    pke_encrypt(t_hat, ek.subspan<kPkeKeySize, 32>(), m_prime.value,
                std::span(k_r.value).last<32>(), c_prime.value);

    // c != c' selects K_bar, by a mask over the whole comparison: no early exit, no branch.
    std::uint8_t difference = 0;
    for (std::size_t i = 0; i < kCiphertextSize; ++i) difference = static_cast<std::uint8_t>(difference | (c[i] ^ c_prime.value[i]));
    // keep_k: 0xFF when difference == 0, else 0x00.
    const auto keep_k = static_cast<std::uint8_t>(((std::uint32_t{difference} + 0xFF) >> 8) - 1);
    for (std::size_t i = 0; i < kSharedKeySize; ++i)
        key.bytes[i] = static_cast<std::uint8_t>((k_r.value[i] & keep_k) | (k_bar.value[i] & ~keep_k));
    return true;
}

}  // namespace warp::formats::pq::mlkem768
