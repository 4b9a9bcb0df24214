// `warpcrypt encrypt`: plaintext in, a .warp container out (formats::encrypt).
#include <memory>
#include <utility>

#include "cli/commands/common.hpp"
#include "cli/fd_io.hpp"
#include "cli/keys.hpp"
#include "cli/output_file.hpp"
#include "cli/paths.hpp"
#include "cli/report.hpp"
#include "formats/suite.hpp"

namespace warp::cli {
namespace {

struct EncryptArgs {
    std::string input;
    std::optional<std::string> output;
    bool force = false;
    KeyOptions keys;
    std::string cipher = "auto";
    NewPassphraseKdf kdf;
    std::string backend = "auto";
    unsigned threads = 0;  // 0: one per CPU
    Verbosity verbosity;
};

// nullopt for auto: the engine picks the cipher with the backend (engine/selection.hpp).
std::optional<formats::Suite> parse_cipher(const std::string& name) {
    if (name == "auto") return std::nullopt;
    std::optional<formats::Suite> suite = formats::parse_suite_name(name);
    if (!suite)
        usage_error("--cipher: unknown cipher '" + name + "'",
                    "use auto, aes-256-gcm or chacha20-poly1305");
    return suite;
}

void run(const EncryptArgs& args) {
    // Every refusal that needs no file comes first, each with its hint.
    args.verbosity.check();
    const std::optional<formats::Suite> suite = parse_cipher(args.cipher);
    if (args.kdf.given() && !uses_passphrase(args.keys))
        usage_error(
            "--kdf-memory and --kdf-passes apply to passphrases, and no passphrase is given",
            "drop them, or add -p / --passphrase-file / --passphrase-fd");
    BackendRequest backend = resolve_backend(args.backend);
    check_key_options(args.keys, KeyPurpose::encrypt, is_stdio(args.input));

    InputFile input(args.input);
    std::string output = args.output ? *args.output : default_encrypt_output(input, args.input);
    const OutputChecks output_checks{
        .force = args.force, .refuse_terminal = true, .named = args.output.has_value()};
    check_output(output, &input, output_checks);
    // Opened before any passphrase is asked for: a device or FIFO named with -o is judged on
    // what was opened (a terminal is refused), and nobody types a passphrase for nothing.
    OutputFile out(output, output_checks);

    formats::EncryptOptions options;
    options.suite = suite;
    options.recipients = gather_secrets(args.keys, KeyPurpose::encrypt, args.kdf.params());
    options.backend = std::move(backend);
    options.size_hint = input.size();
    options.threads = args.threads;

    Progress progress(args.verbosity.progress_mode(), input.size());
    options.progress = progress.callback();
    FdSource source(input.fd(), input.name());
    formats::EncryptResult result;
    try {
        result = formats::encrypt(source, out.sink(), options);
    } catch (const Error& error) {
        rethrow_naming(error, input.name());
    }
    out.commit();
    progress.finish();
    if (args.verbosity.verbose)
        print_note(std::string(formats::suite_name_of(result.selection.aead)) + ", " +
                   std::to_string(options.recipients.size()) + " key slot(s), " +
                   selection_note(result.selection) + "; wrote " + out.name());
}

}  // namespace

Command add_encrypt_command(CLI::App& parent) {
    auto args = std::make_shared<EncryptArgs>();
    CLI::App* cmd = parent.add_subcommand("encrypt", "Encrypt a file (or stdin) to a .warp file");
    add_input(*cmd, args->input);
    add_output(*cmd, args->output, args->force);
    add_key_options(*cmd, args->keys, KeyPurpose::encrypt);
    cmd->add_option("--cipher", args->cipher,
                    "auto (default: AES-256-GCM where the hardware accelerates AES, "
                    "ChaCha20-Poly1305 where it does not), aes-256-gcm or chacha20-poly1305")
        ->type_name("NAME");
    add_new_passphrase_kdf(*cmd, args->kdf);
    add_backend(*cmd, args->backend);
    add_threads(*cmd, args->threads);
    add_verbosity(*cmd, args->verbosity);
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
