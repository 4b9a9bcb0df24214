// Passphrase-protected identity files (protected_identity.hpp).
#include "cli/protected_identity.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

#include "cli/keys.hpp"
#include "cli/prompt.hpp"
#include "cli/report.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/file.hpp"

namespace warp::cli {
namespace {

// What the decrypted identity file may hold: a key or identity file's cap, into locked memory.
class LockedSink final : public ByteSink {
public:
    explicit LockedSink(std::size_t cap) : bytes_(cap) {}
    void write(const std::uint8_t* buf, std::size_t len) override {
        if (len > bytes_.size() - size_)
            throw Error(ErrorCause::usage, "the identity file inside is too large");
        std::copy_n(buf, len, bytes_.data() + size_);
        size_ += len;
    }
    SecretBytes take() { return SecretBytes(bytes_.span().first(size_)); }

private:
    SecretBytes bytes_;
    std::size_t size_ = 0;
};

}  // namespace

SecretBytes identity_passphrase(const std::string& path, const std::string& passphrase_file,
                                std::string_view what) {
    if (!passphrase_file.empty()) return read_passphrase_file(passphrase_file);
    if (!terminal_available())
        usage_error(path + " is a passphrase-protected " + std::string(what) +
                        ", and there is no terminal to ask for its passphrase",
                    "give it with --identity-passphrase-file PATH");
    return prompt_passphrase("Passphrase for " + std::string(what) + " " + path + ": ");
}

bool is_protected_identity(std::string_view text) {
    return text.starts_with("age-encryption.org/") ||
           text.starts_with("-----BEGIN AGE ENCRYPTED FILE-----");
}

SecretBytes open_protected_identity(std::string_view file, const std::string& path,
                                    const std::string& passphrase_file,
                                    const formats::KdfLimits& kdf_limits) {
    formats::Options options;
    options.kdf_limits = kdf_limits;  // the run's limits and tally (--kdf-max-memory, -work)
    options.identities.push_back({formats::KeyType::passphrase,
                                  identity_passphrase(path, passphrase_file), {}});
    options.threads = 1;
    stream::SpanSource in(std::span(reinterpret_cast<const std::uint8_t*>(file.data()), file.size()));
    LockedSink out(kMaxIdentityFileBytes);
    try {
        formats::decrypt(in, out, options);
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
    return out.take();
}

}  // namespace warp::cli
