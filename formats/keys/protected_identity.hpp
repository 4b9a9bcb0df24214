// age's passphrase-protected identity files, as age and rage read them: an identity file that
// is itself an age file encrypted with a passphrase (scrypt), binary or armored (`age -p -o
// key.age key.txt`). Opening one is the same for the command (cli/protected_identity.hpp,
// which asks for the passphrase) and the C API (which is given it).
#pragma once

#include <cstddef>
#include <string_view>

#include "engine/secure_memory.hpp"
#include "formats/common/kdf_limits.hpp"

namespace warp::formats {

// Whether an identity file's text is an age file (its version line, or age's armor).
bool is_protected_identity(std::string_view text);

// The identity file inside `file`, opened with `passphrase`, in locked memory: at most
// `max_bytes` (Error(usage) beyond). A wrong passphrase is Error(wrong_key), a damaged file its
// format's error; its scrypt draws on `kdf_limits`, the run's.
SecretBytes open_protected_identity(std::string_view file, const SecretBytes& passphrase,
                                    const KdfLimits& kdf_limits, std::size_t max_bytes);

}  // namespace warp::formats
