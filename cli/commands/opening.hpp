// What decrypt, verify and rekey share: the options that open a file (keys, --kdf-max-memory,
// --backend) and running a call into formats/ with the errors named after the input.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/keys.hpp"
#include "formats/file.hpp"

namespace warp::cli {

struct OpenArgs {
    KeyOptions keys;
    unsigned kdf_max_memory_mib = formats::kDefaultMaxKdfMemoryKib / 1024;
    std::uint64_t kdf_max_work_mib = formats::kDefaultMaxKdfWorkKib / 1024;  // MiB x passes
    std::string backend = "auto";
    unsigned threads = 0;  // 0: one per CPU
};

// The keys and the KDF caps, then --backend and --threads.
void add_open_options(CLI::App& command, OpenArgs& args);
// The keys and the KDF caps alone (rekey, which runs no payload).
void add_opening_keys(CLI::App& command, OpenArgs& args);

// The checks that need no file (backend, key options); returns the backend request.
BackendRequest check_open_args(const OpenArgs& args, bool input_is_stdin);

// Gathers the secrets (may prompt) into the options that open a file; `input` is the file.
formats::Options decrypt_options(const OpenArgs& args, BackendRequest backend,
                                        const InputFile& input);

// Runs `call` (into formats/file.hpp), rethrowing its errors with `input_name` in front and
// the hints the CLI knows: a KDF cost over a cap names the flag that moves it; other usage
// errors get `usage_hint` (empty: none).
formats::Result run_naming_errors(const std::string& input_name, const std::string& usage_hint,
                                  const std::function<formats::Result()>& call);

}  // namespace warp::cli
