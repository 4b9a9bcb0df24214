// Passphrase-protected identity files (protected_identity.hpp).
#include "formats/keys/protected_identity.hpp"

#include <algorithm>
#include <span>

#include "engine/error.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/file.hpp"

namespace warp::formats {
namespace {

// What the decrypted identity file may hold, into locked memory.
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

bool is_protected_identity(std::string_view text) {
    return text.starts_with("age-encryption.org/") ||
           text.starts_with("-----BEGIN AGE ENCRYPTED FILE-----");
}

SecretBytes open_protected_identity(std::string_view file, const SecretBytes& passphrase,
                                    const KdfLimits& kdf_limits, std::size_t max_bytes) {
    Options options;
    options.kdf_limits = kdf_limits;
    options.identities.push_back({KeyType::passphrase, SecretBytes(passphrase.span()), {}});
    options.threads = 1;
    stream::SpanSource in(
        std::span(reinterpret_cast<const std::uint8_t*>(file.data()), file.size()));
    LockedSink out(max_bytes);
    decrypt(in, out, options);
    return out.take();
}

}  // namespace warp::formats
