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

// Passphrase KDF bounds on the command line: the format's (formats/constants.hpp), except the
// least memory, which SPEC section 4 allows down to 8 KiB; below 8 MiB is not a sane choice.
constexpr unsigned kMinKdfMib = 8;
constexpr unsigned kMaxKdfMib = formats::kMaxKdfMemoryKib / 1024;
constexpr unsigned kDefaultKdfMib = formats::kDefaultKdfMemoryKib / 1024;

struct EncryptArgs {
    std::string input;
    std::optional<std::string> output;
    bool force = false;
    KeyOptions keys;
    std::string cipher = "auto";
    std::optional<unsigned> kdf_memory_mib;
    std::optional<unsigned> kdf_passes;
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
    if ((args.kdf_memory_mib || args.kdf_passes) && !uses_passphrase(args.keys))
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

    formats::KdfParams kdf;
    kdf.memory_kib = args.kdf_memory_mib.value_or(kDefaultKdfMib) * 1024;
    kdf.passes = args.kdf_passes.value_or(formats::kDefaultKdfPasses);
    formats::EncryptOptions options;
    options.suite = suite;
    options.recipients = gather_secrets(args.keys, KeyPurpose::encrypt, kdf);
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
    add_key_options(*cmd, args->keys);
    cmd->add_option("--cipher", args->cipher,
                    "auto (default: AES-256-GCM where the hardware accelerates AES, "
                    "ChaCha20-Poly1305 where it does not), aes-256-gcm or chacha20-poly1305")
        ->type_name("NAME");
    cmd->add_option("--kdf-memory", args->kdf_memory_mib,
                    "Passphrase KDF memory in MiB (default " + std::to_string(kDefaultKdfMib) + ")")
        ->type_name("MIB")
        ->check(CLI::Range(kMinKdfMib, kMaxKdfMib));
    cmd->add_option("--kdf-passes", args->kdf_passes,
                    "Passphrase KDF passes (default " + std::to_string(formats::kDefaultKdfPasses) +
                        ")")
        ->type_name("N")
        ->check(CLI::Range(formats::kMinKdfPasses, formats::kMaxKdfPasses));
    add_backend(*cmd, args->backend);
    add_threads(*cmd, args->threads);
    add_verbosity(*cmd, args->verbosity);
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
