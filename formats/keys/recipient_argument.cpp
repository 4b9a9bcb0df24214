// Recipients as users hand them over (recipient_argument.hpp).
#include "formats/keys/recipient_argument.hpp"

#include <algorithm>
#include <string>

#include "engine/error.hpp"
#include "formats/keys/key_file.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/x25519.hpp"

namespace warp::formats {
namespace {

// ASCII only, whatever the locale: a library's host may set one (Python sets LC_CTYPE), in
// which std::tolower folds bytes that are not letters of any key's text.
char ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
bool ascii_alphanumeric(char c) {
    const char lower = ascii_lower(c);
    return (lower >= 'a' && lower <= 'z') || (c >= '0' && c <= '9');
}

std::string lower_case(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) c = ascii_lower(c);
    return lower;
}

// Whether `text` may be quoted in a message: it plausibly is a recipient, "age1" and letters
// and digits, no longer than a recipient of any kind age knows. Anything else (a secret key
// given by mistake, a key file's text, a line with a space in front) is described, not shown.
bool plausibly_a_recipient(std::string_view text) {
    // A post-quantum recipient, age1pq1 and Bech32 of 1216 bytes, is 1959 characters.
    constexpr std::size_t kLongestRecipient = 2048;
    const std::string hrp_and_one = std::string(kRecipientHrp) + "1";
    return text.size() <= kLongestRecipient && lower_case(text).starts_with(hrp_and_one) &&
           std::all_of(text.begin(), text.end(), ascii_alphanumeric);
}

}  // namespace

Secret parse_recipient_text(std::string_view text, std::string_view option) {
    // A secret given where a recipient belongs: never echo it, wherever in the argument the
    // secret starts (quotes, a space in front, a whole file's text).
    const std::string lower = lower_case(text);
    if (lower.find(kIdentityHrp) != std::string::npos)
        throw Error(ErrorCause::usage,
                    std::string(option) +
                        ": that holds an age identity (a secret key), not a recipient; it was "
                        "not used",
                    "give the recipient (age1pq1... or age1...) that `warpcrypt keygen -y "
                    "IDENTITY_FILE` prints, and keep the identity secret");
    if (lower.find(lower_case(kKeyFilePrefix)) != std::string::npos)
        throw Error(ErrorCause::usage,
                    std::string(option) +
                        ": that holds a warpcrypt key (a secret), not a recipient; it was not "
                        "used",
                    "a key file is a secret: encrypt with it as an identity (-k PATH), and keep "
                    "it secret");
    try {
        return decode_recipient_text(text);
    } catch (const Error& error) {
        const std::string shown = plausibly_a_recipient(text)
                                      ? " '" + std::string(text) + "'"
                                      : " (its " + std::to_string(text.size()) +
                                            " characters are not shown: that is not a recipient's "
                                            "form, and it might be a secret)";
        throw Error(ErrorCause::usage, std::string(option) + shown + ": " + error.what(),
                    "a recipient is age1pq1... or age1... as `age-keygen -y` or `warpcrypt "
                    "keygen -y` prints it");
    }
}

}  // namespace warp::formats
