// `warpcrypt keygen`: a new random key file (SPEC section 8), created 0600.
#include <memory>

#include "cli/commands/common.hpp"
#include "cli/output_file.hpp"
#include "cli/paths.hpp"
#include "cli/report.hpp"
#include "engine/secure_memory.hpp"

namespace warp::cli {
namespace {

struct KeygenArgs {
    std::optional<std::string> output;
    bool force = false;
};

void run(const KeygenArgs& args) {
    std::string output = args.output.value_or("-");
    const OutputChecks output_checks{.force = args.force, .named = true, .secret = true};
    check_output(output, nullptr, output_checks);
    std::string text = formats::encode_key_file(formats::generate_key_secret());
    struct Wipe {
        std::string& s;
        ~Wipe() { secure_wipe(s.data(), s.size()); }
    } wipe{text};
    OutputFile out(output, output_checks);
    out.sink().write(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    out.commit();
}

}  // namespace

Command add_keygen_command(CLI::App& parent) {
    auto args = std::make_shared<KeygenArgs>();
    CLI::App* cmd =
        parent.add_subcommand("keygen", "Create a key file (printed to stdout without -o)");
    cmd->add_option("-o,--output", args->output, "Key file to create (mode 0600); - for stdout")
        ->type_name("KEYFILE");
    cmd->add_flag("-f,--force", args->force, "Overwrite an existing file");
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
