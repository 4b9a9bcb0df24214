// `warpcrypt verify`: authenticate a whole warp or age file, write nothing.
#include <memory>
#include <utility>

#include "cli/commands/common.hpp"
#include "cli/commands/opening.hpp"
#include "cli/fd_io.hpp"
#include "cli/paths.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

struct VerifyArgs {
    std::string input;
    OpenArgs open;
    Verbosity verbosity;
};

void run(const VerifyArgs& args) {
    args.verbosity.check();
    BackendRequest backend = check_open_args(args.open, is_stdio(args.input));
    InputFile input(args.input);
    formats::Options options = decrypt_options(args.open, std::move(backend), input);
    options.size_hint = input.size();
    Progress progress(args.verbosity.progress_mode(), input.size());
    options.progress = progress.callback();
    FdSource source(input.fd(), input.name());
    const formats::Result result = run_naming_errors(
        input.name(), "", [&] { return formats::verify(source, options); });
    progress.finish();
    if (args.verbosity.verbose)
        print_note(input.name() + ": " + opened_note(result) + ", " +
                   selection_note(result.selection));
    if (!args.verbosity.quiet)
        print_note(input.name() + ": authentic (" + std::to_string(result.plaintext_bytes) +
                   " bytes of plaintext)");
}

}  // namespace

Command add_verify_command(CLI::App& parent) {
    auto args = std::make_shared<VerifyArgs>();
    CLI::App* cmd =
        parent.add_subcommand("verify", "Check that a warp or age file is intact and opens; write nothing");
    add_input(*cmd, args->input);
    add_open_options(*cmd, args->open);
    add_verbosity(*cmd, args->verbosity);
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
