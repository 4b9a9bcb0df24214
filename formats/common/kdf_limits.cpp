#include "formats/common/kdf_limits.hpp"

#include "formats/common/units_text.hpp"

namespace warp::formats {

std::string KdfLimits::draw(std::string_view what, std::string_view kdf, std::uint64_t memory_kib,
                            std::uint64_t work_kib, std::string_view work_text) const {
    if (memory_kib > max_memory_kib)
        return std::string(what) + " needs " + std::to_string(mib_rounded_up(memory_kib)) +
               " MiB for its passphrase KDF (" + std::string(kdf) +
               "), over the --kdf-max-memory limit of " + std::to_string(max_memory_kib / 1024) +
               " MiB";
    const std::uint64_t spent = tally->spent_kib;
    if (spent <= max_work_kib && work_kib <= max_work_kib - spent) {
        tally->spent_kib += work_kib;
        return "";
    }
    // The limit is on the run's total (SPEC 4.5): name the total, and what it adds up.
    return std::string(what) + " asks for " + std::string(kdf) + " work of " +
           std::string(work_text) + " = " + std::to_string(mib_rounded_up(work_kib)) +
           " MiB-passes" +
           (spent == 0 ? std::string()
                       : ", which would bring this run's total to " +
                             std::to_string(mib_rounded_up(spent + work_kib)) +
                             " MiB-passes (" + std::to_string(mib_rounded_up(spent)) +
                             " of them spent before: passphrases tried, identity files, SSH "
                             "keys)") +
           ", over the --kdf-max-work limit of " + std::to_string(max_work_kib / 1024) +
           " MiB-passes";
}

}  // namespace warp::formats
