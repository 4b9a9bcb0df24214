// What every constant-time case shares (README.md in this folder says what the check is).
//
// Secrets are marked UNDEFINED with memcheck's client requests. Memcheck then tracks every bit
// computed from them and reports, as an error, a conditional jump that depends on one ("Conditional
// jump or move depends on uninitialised value(s)") or an address computed from one ("Use of
// uninitialised value of size N": a table index). Arithmetic on them, however long, is silent.
// What leaves the machine anyway (ciphertext, tags) or what the test itself checks afterwards is
// marked DEFINED again: publish().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warp::ct {

using Bytes = std::vector<std::uint8_t>;

// Marks n bytes secret (memcheck: undefined). The bytes keep their values.
void mark_secret(const void* p, std::size_t n);
template <class T>
void mark_secret(const T& object) { mark_secret(&object, sizeof object); }
inline void mark_secret(const Bytes& bytes) { mark_secret(bytes.data(), bytes.size()); }

// Marks n bytes public (memcheck: defined) and folds them into a sink the optimiser must keep,
// so that no computation under test can be dropped as unused.
void publish(const void* p, std::size_t n);
template <class T>
void publish(const T& object) { publish(&object, sizeof object); }
inline void publish(const Bytes& bytes) { publish(bytes.data(), bytes.size()); }

// n bytes of a fixed pattern (reproducible runs), different for each seed.
Bytes filled(std::size_t n, std::uint8_t seed);

// Records a failed functional expectation (the code under test gave a wrong answer, so the run
// proves nothing about the paths it was meant to take). The runner fails if any was recorded.
void expect(bool condition, const std::string& what);
int failed_expectations();

// Message lengths every case runs through: empty, partial and whole blocks of 16 and 64 bytes,
// and more than one batch of the bitsliced AES (8 blocks).
inline const std::vector<std::size_t> kMessageLengths = {0,   1,   15,  16,  17,  63,  64,
                                                         65,  127, 128, 129, 255, 1000};

// One named check.
struct Case {
    const char* name;
    void (*run)();
};

std::vector<Case> aes_cases();     // aes_cases.cpp: AES, GHASH
std::vector<Case> aead_cases();    // aead_cases.cpp: AES-GCM, ChaCha20-Poly1305, the comparison
std::vector<Case> chacha_cases();  // chacha_cases.cpp: ChaCha20, Poly1305
std::vector<Case> cuda_host_cases();  // cuda_host_cases.cpp: the cuda backend's key tables
std::vector<Case> formats_cases();    // formats_cases.cpp: Bech32 (age identities)
std::vector<Case> pq_cases();         // pq_cases.cpp: ML-KEM-768, the hybrid KEM and slot

// The negative controls (leaky_controls.cpp): code that leaks on purpose, which memcheck must
// flag, or the check would prove nothing.
void leak_through_table_index();
void leak_through_branch();

}  // namespace warp::ct
