// Identities opened only when needed (deferred_identity.hpp).
#include "formats/keys/deferred_identity.hpp"

#include "formats/keys/key_kind.hpp"

namespace warp::formats {

DeferredIdentity::DeferredIdentity(std::optional<KeyType> ssh_type, std::string ssh_tag,
                                   std::function<std::vector<Secret>()> open)
    : ssh_type_(ssh_type), ssh_tag_(std::move(ssh_tag)),
      open_(std::move(open)), opened_(std::make_shared<std::optional<std::vector<Secret>>>()) {}

bool DeferredIdentity::may_open(std::optional<KeyType> type, std::string_view tag) const {
    if (ssh_type_) return type == ssh_type_ && (ssh_tag_.empty() || tag == ssh_tag_);
    // An identity file holds identities of the public-key kinds (or plugins'): never a
    // passphrase or a key file, whose entries it cannot open.
    return !type || key_kind_of(*type).public_key();
}

const std::vector<Secret>& DeferredIdentity::open() const {
    if (!*opened_) *opened_ = open_();
    return **opened_;
}

}  // namespace warp::formats
