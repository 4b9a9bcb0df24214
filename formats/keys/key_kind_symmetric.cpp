// The two symmetric key kinds: a passphrase (warp: Argon2id slots; age: the scrypt stanza)
// and a key file (warp only, formats/keys/key_file.hpp). Neither has a text form among
// recipients and identities: the CLI reads them from their own options.
#include "formats/keys/key_kind.hpp"

namespace warp::formats {
namespace {

std::string no_problem(const Secret&) { return ""; }

}  // namespace

const KeyKind kPassphraseKey{
    .type = KeyType::passphrase,
    .name = "passphrase",
    .secret = "passphrase",
    .post_quantum = true,
    .recipient_hrp = "",
    .identity_hrp = "",
    .decode_recipient = nullptr,
    .decode_identity = nullptr,
    .recipient_of = nullptr,
    .recipient_problem = no_problem,
};

const KeyKind kKeyFileKey{
    .type = KeyType::key_file,
    .name = "key-file",
    .secret = "key file",
    .post_quantum = true,
    .recipient_hrp = "",
    .identity_hrp = "",
    .decode_recipient = nullptr,
    .decode_identity = nullptr,
    .recipient_of = nullptr,
    .recipient_problem = no_problem,
};

}  // namespace warp::formats
