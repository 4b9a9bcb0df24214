// Passphrase-protected identity files (protected_identity.hpp).
#include "cli/protected_identity.hpp"

#include "cli/keys.hpp"
#include "cli/prompt.hpp"
#include "cli/report.hpp"
#include "formats/keys/protected_identity.hpp"

namespace warp::cli {

SecretBytes identity_passphrase(const std::string& path, const std::string& passphrase_file,
                                std::string_view what) {
    if (!passphrase_file.empty()) return read_passphrase_file(passphrase_file);
    if (!terminal_available())
        usage_error(path + " is a passphrase-protected " + std::string(what) +
                        ", and there is no terminal to ask for its passphrase",
                    "give it with --identity-passphrase-file PATH");
    return prompt_passphrase("Passphrase for " + std::string(what) + " " + path + ": ");
}

SecretBytes open_protected_identity(std::string_view file, const std::string& path,
                                    const std::string& passphrase_file,
                                    const formats::KdfLimits& kdf_limits) {
    const SecretBytes passphrase = identity_passphrase(path, passphrase_file);
    try {
        // The run's limits and tally (--kdf-max-memory, -work).
        return formats::open_protected_identity(file, passphrase, kdf_limits,
                                                kMaxIdentityFileBytes);
    } catch (const Error& error) {
        refuse_over_kdf_limit(error, path);
        if (error.cause() == ErrorCause::wrong_key)
            throw CliError(ErrorCause::wrong_key,
                           path + ": wrong passphrase for this passphrase-protected identity file",
                           "the passphrase is the one the identity file was encrypted with "
                           "(age -p), not the data file's");
        throw CliError(error.cause(),
                       path + ": a passphrase-protected identity file that does not open: " +
                           error.what());
    }
}

}  // namespace warp::cli
