// The post-quantum code with secret data (formats/keys/pq/, written here, so checked here):
// - ML-KEM-768 (FIPS 203): key generation from a secret seed d || z, encapsulation with a
//   secret m, decapsulation with a secret dk, of the right ciphertext and of a changed one (the
//   implicit rejection, which must pick J(z || c) without a branch). The encapsulation key and
//   the ciphertext are public (declassified where they are made, or here).
// - The MLKEM768-X25519 hybrid: the seed expanded with SHAKE256 and decapsulation, the X-Wing
//   combiner (SHA3-256). libsodium's X25519 is trusted, as elsewhere; only its all-zero verdict,
//   a fact about the peer's public point, is declassified.
// - ML-KEM's arithmetic on secret polynomials, the portable code and the AVX2 code each called
//   directly (NTT, inverse, MultiplyNTTs, sums, SamplePolyCBD_2, Compress, Keccak x4), so both
//   paths are checked whichever the dispatch picks; the cases above take the dispatch's path
//   (AVX2 on an AVX2 machine: valgrind runs AVX2 code).
// - The warp format's hybrid slot (SPEC 4.8), from the seed to the file key: derive, the
//   check compared in constant time, the wrapped key opened with the scalar AEADs, right and
//   wrong identity.
#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

#include "engine/scalar/scalar.hpp"
#include "engine/cpu_features.hpp"
#include "formats/keys/pq/keccak_x4.hpp"
#include "formats/keys/pq/mlkem768.hpp"
#include "formats/keys/pq/mlkem_polynomial.hpp"
#include "formats/keys/pq/mlkem_polynomial_avx2.hpp"
#include "formats/keys/pq/mlkem768x25519.hpp"
#include "formats/keys/pq/hpke.hpp"
#include "formats/keys/pq/hybrid_keys.hpp"
#include "formats/warp/key_slot.hpp"
#include "formats/warp/slot_kind.hpp"
#include "tests/ct/ct_support.hpp"

namespace warp::ct {
namespace {

namespace mlkem = formats::pq::mlkem768;

mlkem::KeyPair key_pair(std::uint8_t seed_fill) {
    const Bytes seed = filled(mlkem::kSeedSize, seed_fill);
    return mlkem::generate_key_pair(std::span<const std::uint8_t, mlkem::kSeedSize>(seed.data(), seed.size()));
}

// dk = dk_PKE (1152) || ek (1184) || H(ek) (32) || z (32): ek and its hash are public (the
// matrix is sampled from ek's rho, a branch on public data); dk_PKE and z are the secrets.
void mark_dk_secret(const SecretBytes& dk) {
    constexpr std::size_t kDkPke = 1152;
    mark_secret(dk.data(), kDkPke);
    mark_secret(dk.data() + dk.size() - 32, 32);
}

void mlkem_keygen() {
    Bytes seed = filled(mlkem::kSeedSize, 31);
    mark_secret(seed);
    mlkem::KeyPair pair =
        mlkem::generate_key_pair(std::span<const std::uint8_t, mlkem::kSeedSize>(seed.data(), seed.size()));
    publish(pair.encapsulation_key);  // declassified inside already: public by definition
    publish(pair.decapsulation_key.data(), pair.decapsulation_key.size());
    expect(mlkem::encapsulation_key_valid(pair.encapsulation_key), "ML-KEM keygen: a bad ek");
}

void mlkem_encaps() {
    const mlkem::KeyPair pair = key_pair(32);
    Bytes m = filled(mlkem::kMessageSize, 33);
    mark_secret(m);
    mlkem::Ciphertext c{};
    mlkem::SharedKey key;
    expect(mlkem::encapsulate(pair.encapsulation_key,
                              std::span<const std::uint8_t, mlkem::kMessageSize>(m.data(), m.size()), c, key),
           "ML-KEM encapsulate refused a valid ek");
    publish(c);
    publish(key.bytes);
}

void mlkem_decaps() {
    mlkem::KeyPair pair = key_pair(34);
    const Bytes m = filled(mlkem::kMessageSize, 35);
    mlkem::Ciphertext c{};
    mlkem::SharedKey sent;
    expect(mlkem::encapsulate(pair.encapsulation_key,
                              std::span<const std::uint8_t, mlkem::kMessageSize>(m.data(), m.size()), c, sent),
           "ML-KEM encapsulate refused a valid ek");
    for (bool changed : {false, true}) {
        mlkem::Ciphertext received = c;
        if (changed) received[17] ^= 0x04;  // re-encryption differs: the rejection key
        mark_dk_secret(pair.decapsulation_key);
        mlkem::SharedKey key;
        expect(mlkem::decapsulate(pair.decapsulation_key.span(), received, key),
               "ML-KEM decapsulate refused a valid dk");
        publish(key.bytes);
        publish(pair.decapsulation_key.data(), pair.decapsulation_key.size());
        expect((key.bytes == sent.bytes) != changed,
               changed ? "ML-KEM: a changed ciphertext gave the sender's key"
                       : "ML-KEM: decapsulation gave another key");
    }
}

void hybrid_decaps() {
    const formats::pq::HybridIdentity identity = formats::pq::generate_hybrid_identity();
    Bytes randomness = filled(formats::pq::kHybridRandomSize, 36);
    formats::pq::HybridEnc enc{};
    formats::pq::HybridShared sent;
    expect(formats::pq::hybrid_encapsulate(
               identity.public_key,
               std::span<const std::uint8_t, formats::pq::kHybridRandomSize>(randomness.data(), randomness.size()),
               enc, sent),
           "hybrid encapsulate failed");
    SecretBytes seed(identity.seed.span());
    mark_secret(seed.data(), seed.size());
    const formats::pq::HybridKeyPair key =
        formats::pq::hybrid_expand(seed.span().first<formats::pq::kHybridSeedSize>());
    formats::pq::HybridShared shared;
    expect(formats::pq::hybrid_decapsulate(key, enc, shared), "hybrid decapsulate failed");
    publish(shared.bytes);
    expect(shared.bytes == sent.bytes, "hybrid: decapsulation gave another key");
}

// age's stanza (HPKE base mode, hpke.hpp): the receiver's key schedule and the open of a
// 16-byte file key with ChaCha20-Poly1305, right and wrong identity.
void hpke_open() {
    const formats::pq::HybridIdentity identity = formats::pq::generate_hybrid_identity();
    const std::string info = "age-encryption.org/mlkem768x25519";
    const auto label = std::span(reinterpret_cast<const std::uint8_t*>(info.data()), info.size());
    const Bytes randomness = filled(formats::pq::kHybridRandomSize, 38);
    const Bytes file_key = filled(16, 39);
    formats::pq::HybridEnc enc{};
    formats::pq::HpkeContext sender;
    expect(formats::pq::hpke_setup_sender(
               identity.public_key, label,
               std::span<const std::uint8_t, formats::pq::kHybridRandomSize>(randomness.data(), randomness.size()),
               enc, sender),
           "HPKE sender setup failed");
    Bytes body(32);
    sender.seal({}, file_key, body);
    for (bool right_identity : {true, false}) {
        const formats::pq::HybridIdentity other = formats::pq::generate_hybrid_identity();
        SecretBytes seed((right_identity ? identity : other).seed.span());
        mark_secret(seed.data(), seed.size());
        const formats::pq::HybridKeyPair key =
            formats::pq::hybrid_expand(seed.span().first<formats::pq::kHybridSeedSize>());
        formats::pq::HpkeContext receiver;
        expect(formats::pq::hpke_setup_receiver(key, enc, label, receiver), "HPKE receiver setup failed");
        Bytes opened(16);
        const bool ok = public_verdict(receiver.open({}, body, opened));
        publish(opened);
        expect(ok == right_identity, "HPKE: opened with the wrong identity, or not with the right one");
        if (right_identity) expect(opened == file_key, "HPKE gave another file key");
    }
}

void hybrid_slot_open() {
    using namespace formats::warp_format;
    for (const AeadImpl* aead : {&scalar::kAesGcm, &scalar::kChaCha20Poly1305}) {
        const formats::pq::HybridIdentity identity = formats::pq::generate_hybrid_identity();
        const Bytes file_key = filled(kFileKeySize, 37);
        const formats::Secret recipient{formats::KeyType::mlkem768x25519,
                                        SecretBytes(std::span<const std::uint8_t>(identity.public_key)), {}};
        const std::vector<std::uint8_t> bytes = make_slot(
            recipient, std::span<const std::uint8_t, kFileKeySize>(file_key.data(), file_key.size()),
            *aead, formats::system_random);
        const SlotFields slot = decode_slot(
            bytes[0], {bytes.data() + kSlotTypeAndLengthSize, bytes.size() - kSlotTypeAndLengthSize});
        for (bool right_identity : {true, false}) {
            formats::pq::HybridIdentity other = formats::pq::generate_hybrid_identity();
            formats::Secret who{formats::KeyType::mlkem768x25519,
                                SecretBytes((right_identity ? identity : other).seed.span()), {}};
            mark_secret(who.bytes.data(), who.bytes.size());
            std::array<std::uint8_t, kFileKeySize> opened{};
            const bool ok = open_slot(slot, who, *aead, opened);
            expect(ok == right_identity, "hybrid slot: opened with the wrong identity, or not "
                                         "with the right one");
            publish(opened.data(), opened.size());
            if (right_identity)
                expect(Bytes(opened.begin(), opened.end()) == file_key,
                       "hybrid slot gave another file key");
        }
    }
}

// Secret polynomials through one implementation's arithmetic; the results are published
// (compared) only at the end.
struct PolyArithmetic {
    void (*ntt)(mlkem::Poly&) noexcept;
    void (*inverse_ntt)(mlkem::Poly&) noexcept;
    void (*multiply_add_ntt)(const mlkem::Poly&, const mlkem::Poly&, mlkem::Poly&) noexcept;
    void (*add)(mlkem::Poly&, const mlkem::Poly&) noexcept;
    void (*subtract)(mlkem::Poly&, const mlkem::Poly&) noexcept;
    void (*sample_cbd2)(std::span<const std::uint8_t, 128>, mlkem::Poly&) noexcept;
    void (*keccak_x4)(formats::pq::KeccakX4&) noexcept;
    void (*compress)(mlkem::Poly&, unsigned) noexcept;
};

std::array<mlkem::Poly, 3> run_arithmetic(const PolyArithmetic& code) {
    const Bytes noise = filled(128, 41);
    mark_secret(noise);
    std::array<mlkem::Poly, 3> out{};
    mlkem::Poly s, e;
    code.sample_cbd2(std::span<const std::uint8_t, 128>(noise.data(), noise.size()), s);
    code.sample_cbd2(std::span<const std::uint8_t, 128>(noise.data(), noise.size()), e);
    code.ntt(s);
    code.multiply_add_ntt(s, s, out[0]);
    code.inverse_ntt(out[0]);
    code.add(out[0], e);
    code.subtract(out[0], s);
    code.compress(e, 1);
    code.compress(out[0], 10);
    code.add(out[0], e);
    formats::pq::KeccakX4 state;
    for (std::size_t i = 0; i < 16; ++i) state.lanes[i] = noise[i];
    code.keccak_x4(state);
    for (std::size_t i = 0; i < mlkem::kN; ++i)
        out[1].c[i] = static_cast<std::uint16_t>(state.lanes[i % 100]);
    out[2] = s;
    for (auto& p : out) publish(p);
    return out;
}

constexpr PolyArithmetic kPortable = {
    &mlkem::portable::ntt,      &mlkem::portable::inverse_ntt, &mlkem::portable::multiply_add_ntt,
    &mlkem::portable::add,      &mlkem::portable::subtract,    &mlkem::portable::sample_cbd2,
    &formats::pq::keccak_f1600_x4_portable, &mlkem::portable::compress};

void mlkem_portable_arithmetic() { run_arithmetic(kPortable); }

#if defined(__x86_64__)
void mlkem_avx2_arithmetic() {
    constexpr PolyArithmetic kAvx2 = {
        &mlkem::avx2::ntt,  &mlkem::avx2::inverse_ntt, &mlkem::avx2::multiply_add_ntt,
        &mlkem::avx2::add,  &mlkem::avx2::subtract,    &mlkem::avx2::sample_cbd2,
        &formats::pq::keccak_f1600_x4_avx2, &mlkem::avx2::compress};
    const auto avx2 = run_arithmetic(kAvx2);
    const auto portable = run_arithmetic(kPortable);
    for (std::size_t i = 0; i < avx2.size(); ++i)
        expect(avx2[i].c == portable[i].c, "ML-KEM: the AVX2 arithmetic differs from the portable");
}

void no_avx2() { std::fputs("  (this CPU has no AVX2: the x86-avx2 case did not run)\n", stderr); }
#endif

}  // namespace

std::vector<Case> pq_cases() {
    return {{"ML-KEM-768 arithmetic, portable (NTT, MultiplyNTTs, CBD, Compress, Keccak x4)",
             &mlkem_portable_arithmetic},
#if defined(__x86_64__)
            {"ML-KEM-768 arithmetic, x86-avx2 (skipped without AVX2)",
             cpu_features().avx2 ? &mlkem_avx2_arithmetic : &no_avx2},
#endif
            {"ML-KEM-768 key generation from a secret seed", &mlkem_keygen},
            {"ML-KEM-768 encapsulation with a secret message", &mlkem_encaps},
            {"ML-KEM-768 decapsulation (right and changed ciphertext)", &mlkem_decaps},
            {"ML-KEM-768 + X25519: seed expansion and decapsulation", &hybrid_decaps},
            {"HPKE (age's stanza): key schedule and open (right and wrong identity)", &hpke_open},
            {"hybrid slot: from the seed to the file key (AES-GCM, ChaCha20-Poly1305; right and "
             "wrong identity)",
             &hybrid_slot_open}};
}

}  // namespace warp::ct
