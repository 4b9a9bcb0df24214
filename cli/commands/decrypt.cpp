// `warpcrypt decrypt`: a .warp container in, plaintext out (formats::decrypt, or
// formats::decrypt_range for --offset/--length).
#include <limits>
#include <memory>
#include <utility>

#include "cli/commands/common.hpp"
#include "cli/commands/opening.hpp"
#include "cli/fd_io.hpp"
#include "cli/output_file.hpp"
#include "cli/paths.hpp"
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
                    "name the .warp file as INPUT");
    BackendRequest backend = check_open_args(args.open, is_stdio(args.input));

    InputFile input(args.input);
    if (args.range() && !input.is_regular())
        usage_error("--offset/--length need a seekable file, and " + input.name() + " is not one",
                    "save the stream to a file first, or decrypt it whole");
    std::string output = args.output ? *args.output : default_decrypt_output(input, args.input);
    const OutputChecks output_checks{.force = args.force, .named = args.output.has_value()};
    check_output(output, &input, output_checks);

    formats::DecryptOptions options = decrypt_options(args.open, std::move(backend), input);
    options.size_hint = input.size();
    OutputFile out(output, output_checks);
    Progress progress(args.range() ? ProgressMode::off : args.verbosity.progress_mode(),
                      input.size());
    options.progress = progress.callback();
    bool age = false;
    formats::DecryptResult result = run_decrypt(input.name(), [&] {
        if (args.range()) {
            FdRandomAccess source(input.fd(), *input.size(), input.name());
            std::array<std::uint8_t, formats::age::kDetectBytes> first{};
            const std::size_t n =
                static_cast<std::size_t>(std::min<std::uint64_t>(first.size(), *input.size()));
            source.read_at(0, first.data(), n);
            const formats::age::Format format = formats::age::detect({first.data(), n});
            if (format == formats::age::Format::age_armored)
                usage_error("--offset/--length need a binary file, and " + input.name() +
                                " is an armored age file (its bytes are base64 lines)",
                            "decrypt it whole, or keep binary age files for ranges");
            age = format == formats::age::Format::age;
            if (age)
                return as_decrypt_result(
                    formats::age::decrypt_range(source, out.sink(), options, offset, length));
            return formats::decrypt_range(source, out.sink(), options, offset, length);
        }
        FdSource source(input.fd(), input.name());
        DetectedInput detected(source);
        age = detected.is_age();
        return decrypt_detected(detected, out.sink(), options);
    });
    // Only now has every chunk and the trailer authenticated: the output may appear.
    out.commit();
    progress.finish();
    if (args.verbosity.verbose)
        print_note(input.name() + (age ? ": an age file, opened with stanza " : ": opened with key slot ") +
                   std::to_string(result.slot_used + 1) +
                   ", " + selection_note(result.selection) + "; wrote " + out.name() + " (" +
                   std::to_string(result.plaintext_bytes) + " bytes)");
}

}  // namespace

Command add_decrypt_command(CLI::App& parent) {
    auto args = std::make_shared<DecryptArgs>();
    CLI::App* cmd = parent.add_subcommand("decrypt", "Decrypt a .warp file (or stdin)");
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
