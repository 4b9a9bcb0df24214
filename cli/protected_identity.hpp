// age's passphrase-protected identity files, as age and rage read them: an identity file that
// is itself an age file encrypted with a passphrase (scrypt), binary or armored (`age -p -o
// key.age key.txt`, or `warpcrypt encrypt --format age -p key.txt`). `-i key.age` opens it
// with its passphrase, asked on the terminal or read from --identity-passphrase-file, and
// reads the identities inside as any identity file's.
#pragma once

#include <string>
#include <string_view>

#include "engine/secure_memory.hpp"
#include "formats/common/kdf_limits.hpp"
#include "formats/keys/protected_identity.hpp"

namespace warp::cli {

// The passphrase of a protected identity file (an age file, or an OpenSSH private key: `what`
// says which in the prompt): from `passphrase_file` when it is not empty, else the terminal;
// no terminal is a usage error that says to give --identity-passphrase-file.
SecretBytes identity_passphrase(const std::string& path, const std::string& passphrase_file,
                                std::string_view what = "identity file");

// Whether an identity file's text is an age file (its version line, or age's armor).
using formats::is_protected_identity;

// The identity file inside `file` (the text of the file at `path`), in locked memory. The
// passphrase comes from `passphrase_file` when it is not empty, else from the terminal. A
// wrong passphrase is Error(wrong_key) and a damaged file its format's error, each naming
// `path`; an age file not sealed with a passphrase is a usage error.
// Its scrypt draws on `kdf_limits`, the run's (a usage error naming the limit when over).
SecretBytes open_protected_identity(std::string_view file, const std::string& path,
                                    const std::string& passphrase_file,
                                    const formats::KdfLimits& kdf_limits);

}  // namespace warp::cli
