#include "tests/support/poly1305_reference.hpp"

#include <sodium.h>

#include <cstdint>
#include <stdexcept>

namespace warp::test {

std::string libsodium_poly1305_hex(const Bytes& key, const Bytes& msg) {
    // libsodium works uninitialised, but picks its fastest code only after sodium_init().
    if (sodium_init() < 0) throw std::runtime_error("sodium_init failed");
    std::uint8_t tag[crypto_onetimeauth_poly1305_BYTES];
    crypto_onetimeauth_poly1305(tag, msg.data(), msg.size(), key.data());
    return to_hex(tag);
}

std::vector<Bytes> extreme_poly1305_keys() {
    const Bytes r_values[] = {Bytes(16, 0x00), from_hex("01000000000000000000000000000000"),
                              from_hex("ffffff0ffcffff0ffcffff0ffcffff0f"), Bytes(16, 0xff)};
    const Bytes s_values[] = {Bytes(16, 0x00), Bytes(16, 0xff)};
    std::vector<Bytes> keys;
    for (const Bytes& r : r_values)
        for (const Bytes& s : s_values) {
            Bytes key = r;
            key.insert(key.end(), s.begin(), s.end());
            keys.push_back(key);
        }
    return keys;
}

}  // namespace warp::test
