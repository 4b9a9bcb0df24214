// SSH's wire form (RFC 4251), written from its definition for the tests that make keys no tool
// would (an RSA exponent age refuses, a 16384-bit modulus nobody holds): strings, mpints, and
// an authorized_keys line of an RSA public key. The tests make these; warpcrypt's own parser
// (formats/keys/ssh.cpp) is the one under test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace warp::clitest {

// A u32 length, then the bytes.
std::string wire_string(std::string_view bytes);
// An mpint of a non-negative big-endian magnitude (leading zeros dropped, a zero byte before a
// set top bit).
std::string mpint(std::string magnitude);
// `value` as 8 big-endian bytes.
std::string big_endian(std::uint64_t value);

// "ssh-rsa BASE64 test@host" for exponent `e` and an odd modulus of `modulus_bytes` bytes with
// its top bit set, drawn from the test pattern at `seed`: no key anyone holds the private half
// of, but one OpenSSL encrypts to all the same.
std::string rsa_public_line(std::uint64_t e, std::size_t modulus_bytes = 256,
                            std::uint64_t seed = 7);

}  // namespace warp::clitest
