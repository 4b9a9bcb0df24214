// `warpcrypt encrypt`: plaintext in, a .warp container out (formats::encrypt).
#include <memory>

#include "cli/commands/common.hpp"
#include "cli/fd_io.hpp"
#include "cli/keys.hpp"
#include "cli/output_file.hpp"
#include "cli/paths.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

// Passphrase KDF bounds on the command line (SPEC section 4 allows more; these are sane).
constexpr unsigned kMinKdfMib = 8, kMaxKdfMib = 4096, kDefaultKdfMib = 256;
constexpr unsigned kMinKdfPasses = 1, kMaxKdfPasses = 16, kDefaultKdfPasses = 3;
constexpr std::uint64_t kDefaultSizeHint = std::uint64_t{1} << 20;

struct EncryptArgs {
    std::string input;
    std::optional<std::string> output;
    bool force = false;
    KeyOptions keys;
    std::string cipher = "aes-256-gcm";
    std::optional<unsigned> kdf_memory_mib;
    std::optional<unsigned> kdf_passes;
    std::string backend = "auto";
    unsigned threads = 0;  // 0: one per CPU
    Verbosity verbosity;
};

formats::Suite parse_cipher(const std::string& name) {
    std::optional<formats::Suite> suite = formats::parse_suite_name(name);
    if (!suite)
        usage_error("--cipher: unknown cipher '" + name + "'",
                    "use aes-256-gcm or chacha20-poly1305");
    return *suite;
}

void run(const EncryptArgs& args) {
    // Every refusal that needs no file comes first, each with its hint.
    args.verbosity.check();
    formats::Suite suite = parse_cipher(args.cipher);
    if ((args.kdf_memory_mib || args.kdf_passes) && !uses_passphrase(args.keys))
        usage_error(
            "--kdf-memory and --kdf-passes apply to passphrases, and no passphrase is given",
            "drop them, or add -p / --passphrase-file / --passphrase-fd");
    const Backend* backend = resolve_backend(args.backend);
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
    kdf.passes = args.kdf_passes.value_or(kDefaultKdfPasses);
    formats::EncryptOptions options;
    options.suite = suite;
    options.recipients = gather_secrets(args.keys, KeyPurpose::encrypt, kdf);
    options.backend = backend;
    options.size_hint = input.size();
    options.threads = args.threads;
    if (args.verbosity.verbose)
        print_note(backend_note(backend, suite, input.size().value_or(kDefaultSizeHint)) + ", " +
                   std::string(formats::suite_name(suite)) + ", " +
                   std::to_string(options.recipients.size()) + " key slot(s)");

    Progress progress(args.verbosity.progress_mode(), input.size());
    options.progress = progress.callback();
    FdSource source(input.fd(), input.name());
    try {
        formats::encrypt(source, out.sink(), options);
    } catch (const Error& error) {
        rethrow_naming(error, input.name());
    }
    out.commit();
    progress.finish();
    if (args.verbosity.verbose) print_note("wrote " + out.name());
}

}  // namespace

Command add_encrypt_command(CLI::App& parent) {
    auto args = std::make_shared<EncryptArgs>();
    CLI::App* cmd = parent.add_subcommand("encrypt", "Encrypt a file (or stdin) to a .warp file");
    add_input(*cmd, args->input);
    add_output(*cmd, args->output, args->force);
    add_key_options(*cmd, args->keys);
    cmd->add_option("--cipher", args->cipher, "aes-256-gcm (default) or chacha20-poly1305")
        ->type_name("NAME");
    cmd->add_option("--kdf-memory", args->kdf_memory_mib,
                    "Passphrase KDF memory in MiB (default 256)")
        ->type_name("MIB")
        ->check(CLI::Range(kMinKdfMib, kMaxKdfMib));
    cmd->add_option("--kdf-passes", args->kdf_passes, "Passphrase KDF passes (default 3)")
        ->type_name("N")
        ->check(CLI::Range(kMinKdfPasses, kMaxKdfPasses));
    add_backend(*cmd, args->backend);
    add_threads(*cmd, args->threads);
    add_verbosity(*cmd, args->verbosity);
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
