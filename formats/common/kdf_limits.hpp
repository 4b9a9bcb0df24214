// What one run may spend on key derivation (SPEC 7; docs/security.md, "What a crafted file or
// key can cost"): no KDF asking for more memory than max_memory_kib, and at most max_work_kib of
// work summed over every KDF the run performs, whoever asks for it: the file's own Argon2id or
// scrypt, a passphrase-protected identity file's scrypt, an SSH key's bcrypt_pbkdf. The CLI
// makes one per run from --kdf-max-memory and --kdf-max-work and hands it to each of them;
// copies share the tally of what was spent, so the user's limits bind the sum.
//
// Work is counted in KiB x passes ("MiB-passes" in messages): Argon2id's memory times its
// passes; scrypt's memory, once (its cost is its memory: work factor 18 is 256 MiB-passes);
// bcrypt_pbkdf 1 MiB-pass per round (its 4 KiB of state are no memory cost, its rounds are
// what it costs: ssh-keygen's default of 16 rounds is 16 MiB-passes, the most warpcrypt runs,
// 1000, is 1000).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "formats/keys/key.hpp"

namespace warp::formats {

inline constexpr std::uint32_t kDefaultMaxKdfMemoryKib = 1024 * 1024;  // 1 GiB
inline constexpr std::uint64_t kDefaultMaxKdfWorkKib =
    std::uint64_t{4} * kDefaultKdfPasses * kDefaultKdfMemoryKib;  // 4x the default cost
inline constexpr std::uint64_t kBcryptRoundWorkKib = 1024;

inline std::uint64_t argon2id_work_kib(std::uint64_t memory_kib, std::uint64_t passes) {
    return memory_kib * passes;
}
inline std::uint64_t scrypt_work_kib(std::uint64_t memory_kib) { return memory_kib; }

// The KDF work one run has done so far.
struct KdfTally {
    std::uint64_t spent_kib = 0;
};

struct KdfLimits {
    std::uint32_t max_memory_kib = kDefaultMaxKdfMemoryKib;
    std::uint64_t max_work_kib = kDefaultMaxKdfWorkKib;
    std::shared_ptr<KdfTally> tally = std::make_shared<KdfTally>();

    // Asked before a KDF runs: why it may not, naming the flag to raise (and nothing is
    // counted), or "" when it may, its work then counted in the run's tally. `what` asks for it
    // ("key slot 2", "stanza 1", "the SSH key"), `kdf` names it ("Argon2id", "scrypt",
    // "bcrypt"), with `memory_kib` and `work_kib`, the work described as `work_text`
    // ("16 passes x 8 MiB").
    std::string draw(std::string_view what, std::string_view kdf, std::uint64_t memory_kib,
                     std::uint64_t work_kib, std::string_view work_text) const;
};

}  // namespace warp::formats
