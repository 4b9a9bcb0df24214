// What the subcommands share: how each is registered, and the options several of them take
// (input, output, --force, --backend, --progress/--quiet/-v) with their conflict checks.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/progress.hpp"
#include "engine/registry.hpp"
#include "formats/container.hpp"

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

// nullptr for "auto"; a usage error (exit 2) for an unknown or unusable backend.
const Backend* resolve_backend(const std::string& name);

// The engine's AEAD for a file suite (for the verbose note on auto's choice).
Aead aead_of(format::Suite suite);

// The backend that will run: the one asked for, or auto's choice for this size.
std::string backend_note(const Backend* chosen, format::Suite suite, std::uint64_t bytes);

}  // namespace warp::cli
