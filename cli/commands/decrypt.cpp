// `warpcrypt decrypt`: a warp or age file in, plaintext out (formats::decrypt, or
// formats::decrypt_range for --offset/--length; formats/file.hpp tells the format).
#include <limits>
#include <memory>
#include <utility>

#include "cli/commands/common.hpp"
#include "cli/commands/opening.hpp"
#include "cli/fd_io.hpp"
#include "cli/output_file.hpp"
#include "cli/paths.hpp"
#include "cli/place.hpp"
#include "cli/unsafe_directory.hpp"
#include "cli/report.hpp"
#include "cli/sizes.hpp"

namespace warp::cli {
namespace {

struct DecryptArgs {
    std::string input;
    std::optional<std::string> output;
    bool force = false;
    OpenArgs open;
    std::optional<std::string> offset;
    std::optional<std::string> length;
    Verbosity verbosity;

    bool range() const { return offset.has_value() || length.has_value(); }
};

void run(const DecryptArgs& args) {
    args.verbosity.check();
    std::uint64_t offset = args.offset ? parse_size(*args.offset, "--offset") : 0;
    std::uint64_t length = args.length ? parse_size(*args.length, "--length")
                                       : std::numeric_limits<std::uint64_t>::max();
    if (args.range() && is_stdio(args.input))
        usage_error("--offset/--length need a seekable file, and the input is stdin",
                    "name the file as INPUT");
    BackendRequest backend = check_open_args(args.open, is_stdio(args.input));

    // Without -o the plaintext goes beside the input: its directory is resolved once, the input
    // opened in it and the output placed there, and only where no one else can change it.
    std::optional<Place> beside;
    if (!args.output && !is_stdio(args.input)) {
        beside.emplace(Place::resolve(args.input, Place::LastLink::keep));
        refuse_unsafe_directory(*beside);
    }
    InputFile input = beside ? InputFile(*beside, 0) : InputFile(args.input);
    if (args.range() && !input.is_regular())
        usage_error("--offset/--length need a seekable file, and " + input.name() + " is not one",
                    "save the stream to a file first, or decrypt it whole");
    OutputTarget output =
        args.output ? OutputTarget::named(*args.output)
        : beside    ? OutputTarget::beside(*beside, decrypted_name(beside->name()),
                                           decrypted_name(args.input))
                    : OutputTarget::named("-");
    const OutputChecks output_checks{.force = args.force, .named = args.output.has_value()};
    check_output(output, &input, output_checks);

    formats::Options options = decrypt_options(args.open, std::move(backend), input);
    options.size_hint = input.size();
    OutputFile out(std::move(output), output_checks);
    Progress progress(args.range() ? ProgressMode::off : args.verbosity.progress_mode(),
                      input.size());
    options.progress = progress.callback();
    const formats::Result result = run_naming_errors(input.name(), "", [&] {
        if (args.range()) {
            FdRandomAccess source(input.fd(), *input.size(), input.name());
            return formats::decrypt_range(source, out.sink(), options, offset, length);
        }
        FdSource source(input.fd(), input.name());
        return formats::decrypt(source, out.sink(), options);
    });
    // Only now has every chunk and the trailer authenticated: the output may appear.
    out.commit();
    progress.finish();
    if (args.verbosity.verbose)
        print_note(input.name() + ": " + opened_note(result) +
                   ", " + selection_note(result.selection) + "; wrote " + out.name() + " (" +
                   std::to_string(result.plaintext_bytes) + " bytes)");
}

}  // namespace

Command add_decrypt_command(CLI::App& parent) {
    auto args = std::make_shared<DecryptArgs>();
    CLI::App* cmd = parent.add_subcommand("decrypt", "Decrypt a warp or age file (or stdin)");
    add_input(*cmd, args->input);
    add_output(*cmd, args->output, args->force);
    add_open_options(*cmd, args->open);
    cmd->add_option("--offset", args->offset, "Decrypt from this plaintext byte (seekable input)")
        ->type_name("BYTES");
    cmd->add_option("--length", args->length, "Decrypt this many plaintext bytes (seekable input)")
        ->type_name("BYTES");
    add_verbosity(*cmd, args->verbosity);
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
