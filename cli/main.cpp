// warpcrypt: parse the command line, run the chosen subcommand, turn errors into one line on
// stderr and an exit code (engine/exit_codes.cpp). The subcommands live in commands/.
#include <new>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands/common.hpp"
#include "cli/core_dumps.hpp"
#include "engine/exit_codes.hpp"
#include "cli/interrupt.hpp"
#include "cli/keys.hpp"
#include "cli/report.hpp"
#include "cli/version.hpp"

namespace {

// The subcommands whose `auto` choice of backend uses the cost model: each gets the calibrated
// model (or the defaults) installed before it runs. The others (info, keygen) skip the read.
constexpr std::string_view kCommandsThatSelectBackends[] = {"encrypt", "decrypt", "verify",
                                                           "backends", "bench"};

bool selects_backends(const CLI::App& command) {
    for (std::string_view name : kCommandsThatSelectBackends)
        if (command.get_name() == name) return true;
    return false;
}

// "see `warpcrypt encrypt --help`" for the subcommand being parsed, if any.
std::string help_hint(const CLI::App& app) {
    for (const CLI::App* sub : app.get_subcommands())
        return "see `warpcrypt " + sub->get_name() + " --help`";
    return "see `warpcrypt --help`";
}

int run(int argc, char** argv) {
    using namespace warp;
    using namespace warp::cli;
    CLI::App app{"warpcrypt: fast authenticated file encryption", "warpcrypt"};
    app.set_version_flag("--version", std::function<std::string()>(version_text));
    app.require_subcommand(1);
    app.footer(warp::exit_codes_footer());
    std::vector<Command> commands = {
        add_encrypt_command(app), add_decrypt_command(app),  add_verify_command(app),
        add_info_command(app),    add_rekey_command(app),    add_keygen_command(app),
        add_backends_command(app), add_bench_command(app),
    };

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        // --help and --version arrive as "errors" with exit code 0; CLI11 prints them.
        if (error.get_exit_code() == 0) return app.exit(error);
        print_error(error.what(), help_hint(app));
        return kExitUsage;
    }

    try {
        for (const Command& command : commands) {
            if (!command.app->parsed()) continue;
            if (selects_backends(*command.app)) install_saved_cost_model();
            command.run();
        }
        return kExitSuccess;
    } catch (const warp::Error& error) {
        print_error(error);
        return exit_code(error.cause());
    } catch (const std::bad_alloc&) {
        print_error("out of memory");
        return kExitInternal;
    } catch (const std::exception& error) {
        print_error(std::string("internal error: ") + error.what(),
                    "this is a bug; please report it");
        return kExitInternal;
    }
}

}  // namespace

int main(int argc, char** argv) {
    warp::cli::disable_core_dumps();  // before any secret is read
    warp::cli::take_environment_passphrase();
    warp::cli::install_interrupt_handlers();
    return run(argc, argv);
}
