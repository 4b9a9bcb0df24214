// Blowfish (Schneier, 1993) as bcrypt uses it: the state, the encipher function, and the
// key schedules of bcrypt's "eksblowfish" (expandstate, expand0state) that OpenBSD's
// bcrypt_pbkdf runs, which no kept library offers (OpenSSL's BF_set_key is the plain
// schedule). Only for bcrypt_pbkdf (formats/keys/bcrypt_pbkdf.hpp): never a cipher of files.
//
// Not constant time: Blowfish indexes its S-boxes with key-dependent bytes, as every
// implementation does (OpenSSH's included); what it protects is an SSH private key's
// passphrase while the key is opened (docs/security.md says so).
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace warp::formats::blowfish {

inline constexpr std::size_t kRounds = 16;
inline constexpr std::size_t kInitialWords = kRounds + 2 + 4 * 256;
// The hexadecimal digits of pi's fractional part (blowfish_pi.cpp, generated).
extern const std::array<std::uint32_t, kInitialWords> kPiWords;

struct State {
    std::array<std::uint32_t, kRounds + 2> p{};
    std::array<std::uint32_t, 4 * 256> s{};
    State();   // pi's digits
    ~State();  // wiped
    State(const State&) = delete;
    State& operator=(const State&) = delete;
};

void encipher(const State& state, std::uint32_t& left, std::uint32_t& right);
// eksblowfish's schedules: with `data` (the salt) mixed in, and without.
void expand_state(State& state, std::span<const std::uint8_t> data, std::span<const std::uint8_t> key);
void expand0_state(State& state, std::span<const std::uint8_t> key);

}  // namespace warp::formats::blowfish
