// What the subcommands share: how each is registered, and the options several of them take
// (input, output, --force, --backend, --progress/--quiet/-v) with their conflict checks.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/cost_model_store.hpp"
#include "cli/progress.hpp"
#include "engine/registry.hpp"
#include "engine/selection.hpp"
#include "formats/file.hpp"

namespace warp::cli {

// A registered subcommand and what runs when it was chosen (after parsing succeeded).
struct Command {
    CLI::App* app = nullptr;
    std::function<void()> run;
};

Command add_encrypt_command(CLI::App& parent);
Command add_decrypt_command(CLI::App& parent);
Command add_verify_command(CLI::App& parent);
Command add_info_command(CLI::App& parent);
Command add_keygen_command(CLI::App& parent);
Command add_rekey_command(CLI::App& parent);
Command add_backends_command(CLI::App& parent);
Command add_bench_command(CLI::App& parent);

// --progress / --quiet / -v
struct Verbosity {
    bool progress = false;
    bool quiet = false;
    bool verbose = false;

    ProgressMode progress_mode() const {
        return quiet ? ProgressMode::off : progress ? ProgressMode::forced : ProgressMode::automatic;
    }
    void check() const;  // --progress with --quiet, -v with --quiet
};

void add_input(CLI::App& command, std::string& input);
void add_output(CLI::App& command, std::optional<std::string>& output, bool& force);
void add_verbosity(CLI::App& command, Verbosity& verbosity);
void add_backend(CLI::App& command, std::string& backend);

// --threads N: threads that seal or open chunks (0, the default: one per CPU).
void add_threads(CLI::App& command, unsigned& threads);

// --backend NAME as the engine's request (engine/selection.hpp; "auto": empty); a usage error
// (exit 2) for an unknown or unusable backend.
BackendRequest resolve_backend(const std::string& name);

// The -v words on the engine's decision: "backend x86-vaes (auto: AES-GCM on x86-vaes, ...;
// cost model: built-in defaults)".
std::string selection_note(const Selection& selection);

// The -v words on what opened a file, in its format's words: "opened with key slot 2", "an
// age file, opened with stanza 1".
std::string opened_note(const formats::Result& result);

// The cost model behind `auto` (engine/cost_model.hpp). main() calls
// install_saved_cost_model() once, before running a command that selects backends: it reads
// the calibration file (cli/cost_model_store.hpp) and installs its model in the engine, or
// keeps the built-in defaults when there is none or it does not fit this machine. One small
// file read, no measurement; never fails.
void install_saved_cost_model();
// Installs `model` and records where it came from (`bench --calibrate` after measuring).
void install_cost_model_from(CostModel model, CostModelOrigin origin);
// Where the model in use came from: the built-in defaults until one of the two above ran.
const CostModelOrigin& installed_cost_model_origin();
// This build's version, as the cost-model file records it.
std::string_view warpcrypt_version();

}  // namespace warp::cli
