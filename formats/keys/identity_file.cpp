// identity_file.hpp: age-keygen's identity file.
#include "formats/keys/identity_file.hpp"

#include "engine/secure_memory.hpp"

namespace warp::formats {

std::string identity_file_text(std::string_view created, std::string_view recipient,
                               std::string& identity) {
    const std::string head = "# created: " + std::string(created) + "\n# public key: " +
                             std::string(recipient) + "\n";
    // Sized once: a string that grew would free its old buffer, secret and all, unwiped.
    std::string text;
    text.reserve(head.size() + identity.size() + 1);
    text.append(head);
    text.append(identity);
    text += '\n';
    secure_wipe(identity.data(), identity.size());
    return text;
}

}  // namespace warp::formats
