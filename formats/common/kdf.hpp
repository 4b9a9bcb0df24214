// The key derivations both formats use (warp: SPEC 1, 4 and 5; age: HKDF and HMAC of age.md).
// HMAC-SHA256 and Argon2id come from libsodium; HKDF-SHA256 is written here from RFC 5869
// (libsodium 1.0.18 has none).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "engine/secure_memory.hpp"

namespace warp::formats {

// Every key derived here is 32 bytes; Argon2id salts are libsodium's 16.
inline constexpr std::size_t kKeySize = 32;
inline constexpr std::size_t kArgon2idSaltSize = 16;

using Key = std::array<std::uint8_t, kKeySize>;
using Mac = std::array<std::uint8_t, 32>;

// Calls sodium_init() once; every function here and the CSPRNG need it.
void ensure_sodium();

// libsodium's CSPRNG: what a RandomFn is unless a test fixes the randomness.
void system_random(std::uint8_t* out, std::size_t len);

// HMAC-SHA256 (RFC 2104) of the concatenation of `parts`.
Mac hmac_sha256(std::span<const std::uint8_t> key,
                std::initializer_list<std::span<const std::uint8_t>> parts);

// HKDF-SHA256 (RFC 5869) into `out` (at most 255 * 32 bytes). An empty salt is 32 zero bytes.
void hkdf_sha256(std::span<const std::uint8_t> ikm, std::span<const std::uint8_t> salt,
                 std::span<const std::uint8_t> info, std::span<std::uint8_t> out);

// Argon2id v1.3, p = 1, 32-byte output (warp's passphrase slots, SPEC 4). Throws Error(io) when
// the memory cannot be had.
void argon2id(std::span<const std::uint8_t> passphrase,
              std::span<const std::uint8_t, kArgon2idSaltSize> salt, std::uint32_t passes,
              std::uint32_t memory_kib, std::span<std::uint8_t, kKeySize> out);

// Labels as HKDF's info bytes.
inline std::span<const std::uint8_t> label_bytes(std::string_view label) {
    return {reinterpret_cast<const std::uint8_t*>(label.data()), label.size()};
}

// A Key that wipes itself: every derived key lives in one of these.
class WipedKey {
public:
    WipedKey() = default;
    ~WipedKey() { secure_wipe(bytes_.data(), bytes_.size()); }
    WipedKey(const WipedKey&) = delete;
    WipedKey& operator=(const WipedKey&) = delete;
    std::uint8_t* data() noexcept { return bytes_.data(); }
    const std::uint8_t* data() const noexcept { return bytes_.data(); }
    std::span<std::uint8_t, kKeySize> span() noexcept { return bytes_; }
    std::span<const std::uint8_t, kKeySize> span() const noexcept { return bytes_; }

private:
    Key bytes_{};
};

}  // namespace warp::formats
