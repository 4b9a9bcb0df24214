#include "cli/commands/opening.hpp"

#include <algorithm>
#include <utility>

#include "cli/commands/common.hpp"
#include "cli/plugin_ui.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

// Argon2id memory and work a reader may be asked for: up to what the warp format allows.
constexpr unsigned kMinKdfMaxMib = 1, kMaxKdfMaxMib = formats::kMaxKdfMemoryKib / 1024;
constexpr std::uint64_t kMinKdfMaxWorkMib = 8,
                        kMaxKdfMaxWorkMib = std::uint64_t{formats::kMaxKdfPasses} * kMaxKdfMaxMib;

}  // namespace

void add_open_options(CLI::App& command, OpenArgs& args) {
    add_opening_keys(command, args);
    add_backend(command, args.backend);
    add_threads(command, args.threads);
}

void add_opening_keys(CLI::App& command, OpenArgs& args) {
    add_key_options(command, args.keys, KeyPurpose::decrypt);
    command
        .add_option("--kdf-max-memory", args.kdf_max_memory_mib,
                    "Refuse any KDF (the file's, an identity file's, an SSH key's) asking for more "
                    "memory, in MiB (default " +
                        std::to_string(formats::kDefaultMaxKdfMemoryKib / 1024) + ")")
        ->type_name("MIB")
        ->check(CLI::Range(kMinKdfMaxMib, kMaxKdfMaxMib));
    command
        .add_option("--kdf-max-work", args.kdf_max_work_mib,
                    "Refuse KDF work over this, memory in MiB x passes summed over every KDF of "
                    "the run, 1 per bcrypt round (default " +
                        std::to_string(formats::kDefaultMaxKdfWorkKib / 1024) +
                        ": " +
                        std::to_string(formats::kDefaultMaxKdfWorkKib /
                                       (std::uint64_t{formats::kDefaultKdfPasses} *
                                        formats::kDefaultKdfMemoryKib)) +
                        "x the default cost of " +
                        formats::kib_text(formats::kDefaultKdfMemoryKib) + " x " +
                        std::to_string(formats::kDefaultKdfPasses) + " passes)")
        ->type_name("MIB")
        ->check(CLI::Range(kMinKdfMaxWorkMib, kMaxKdfMaxWorkMib));
}

BackendRequest check_open_args(const OpenArgs& args, bool input_is_stdin) {
    BackendRequest backend = resolve_backend(args.backend);
    check_key_options(args.keys, KeyPurpose::decrypt, input_is_stdin);
    return backend;
}

formats::Options decrypt_options(const OpenArgs& args, BackendRequest backend,
                                 const InputFile& input) {
    formats::Options options;
    // One set of limits for the run: the identity files and SSH keys opened now, and the file
    // after them, draw on the same tally.
    options.kdf_limits.max_memory_kib = args.kdf_max_memory_mib * 1024;
    options.kdf_limits.max_work_kib = args.kdf_max_work_mib * 1024;
    options.identities = gather_secrets(args.keys, KeyPurpose::decrypt, formats::KdfParams{},
                                        input, options.kdf_limits,
                                        &options.deferred_identities);
    options.backend = std::move(backend);
    options.threads = args.threads;
    options.plugin_ui = terminal_plugin_ui();
    return options;
}

formats::Result run_naming_errors(const std::string& input_name, const std::string& usage_hint,
                                  const std::function<formats::Result()>& call) {
    try {
        return call();
    } catch (const Error& error) {
        if (dynamic_cast<const CliError*>(&error) == nullptr) {
            refuse_over_kdf_limit(error, input_name);
            if (error.cause() == ErrorCause::usage)
                throw CliError(ErrorCause::usage, input_name + ": " + error.what(), usage_hint);
        }
        rethrow_naming(error, input_name);
    }
}

}  // namespace warp::cli
