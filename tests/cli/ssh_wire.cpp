#include "tests/cli/ssh_wire.hpp"

#include "tests/cli/cli_fixture.hpp"
#include "tests/cli/text_encodings.hpp"

namespace warp::clitest {

std::string wire_string(std::string_view bytes) {
    std::string out;
    const auto n = static_cast<std::uint32_t>(bytes.size());
    for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((n >> shift) & 0xff);
    out += bytes;
    return out;
}

std::string mpint(std::string magnitude) {
    while (!magnitude.empty() && magnitude.front() == '\0') magnitude.erase(0, 1);
    if (!magnitude.empty() && (static_cast<unsigned char>(magnitude.front()) & 0x80) != 0)
        magnitude.insert(0, 1, '\0');
    return wire_string(magnitude);
}

std::string big_endian(std::uint64_t value) {
    std::string out;
    for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((value >> shift) & 0xff);
    return out;
}

std::string rsa_public_line(std::uint64_t e, std::size_t modulus_bytes, std::uint64_t seed) {
    std::string n = pattern(modulus_bytes, seed);
    n.front() = static_cast<char>(n.front() | 0x80);
    n.back() = static_cast<char>(n.back() | 1);
    return "ssh-rsa " + base64_padded(wire_string("ssh-rsa") + mpint(big_endian(e)) + mpint(n)) +
           " test@host";
}

}  // namespace warp::clitest
