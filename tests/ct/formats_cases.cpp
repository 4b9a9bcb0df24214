// The Bech32 codec (formats/bech32.cpp) with secret data: an age identity's characters are its
// secret key, and its checksum is computed from them. Encoding a secret key and decoding a
// secret string (either case, valid or with a wrong checksum) must not branch on or index by
// them; only the verdicts are declassified (warp::public_verdict). The human-readable part and
// the lengths are public.
#include <string>

#include "formats/bech32.hpp"
#include "tests/ct/ct_support.hpp"

namespace warp::ct {
namespace {

void bech32_encode() {
    for (std::size_t n : {0, 1, 5, 31, 32, 33}) {
        Bytes key = filled(n, 7);
        mark_secret(key);
        for (formats::bech32::Case letters :
             {formats::bech32::Case::lower, formats::bech32::Case::upper}) {
            const std::string text = formats::bech32::encode("age-secret-key-", key, letters);
            publish(text.data(), text.size());
        }
    }
}

void bech32_decode() {
    const Bytes key = filled(32, 9);
    for (formats::bech32::Case letters :
         {formats::bech32::Case::lower, formats::bech32::Case::upper}) {
        for (bool damaged : {false, true}) {
            std::string text = formats::bech32::encode("age-secret-key-", key, letters);
            if (damaged) text[20] = text[20] == 'q' || text[20] == 'Q' ? text[20] + 1 : 'q';
            const std::size_t data = std::string("age-secret-key-1").size();
            mark_secret(text.data() + data, text.size() - data);
            std::string why;
            const auto decoded = formats::bech32::decode(text, why);
            expect(decoded.has_value() != damaged, "bech32 decode: " + why);
            if (decoded) {
                publish(decoded->bytes.data(), decoded->bytes.size());
                expect(Bytes(decoded->bytes.span().begin(), decoded->bytes.span().end()) == key,
                       "bech32 decode gave other bytes");
            }
        }
    }
}

}  // namespace

std::vector<Case> formats_cases() {
    return {{"bech32 encode of a secret key (lower and upper case)", &bech32_encode},
            {"bech32 decode of a secret string (valid, wrong checksum, both cases)",
             &bech32_decode}};
}

}  // namespace warp::ct
