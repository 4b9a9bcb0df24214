// `warpcrypt encrypt`: plaintext in, a warp file (or with --format age an age file) out
// (formats::encrypt).
#include <memory>
#include <utility>

#include "cli/commands/common.hpp"
#include "cli/fd_io.hpp"
#include "cli/keys.hpp"
#include "cli/output_file.hpp"
#include "cli/paths.hpp"
#include "cli/place.hpp"
#include "cli/plugin_ui.hpp"
#include "cli/report.hpp"
#include "formats/file.hpp"

namespace warp::cli {
namespace {

struct EncryptArgs {
    std::string input;
    std::optional<std::string> output;
    bool force = false;
    KeyOptions keys;
    std::string cipher = "auto";
    std::string format = "warp";  // or "age"
    bool armor = false;           // age's ASCII armor
    NewPassphraseKdf kdf;
    std::string backend = "auto";
    unsigned threads = 0;  // 0: one per CPU
    Verbosity verbosity;
};

// nullopt for auto: the engine picks the cipher with the backend (engine/selection.hpp).
std::optional<Aead> parse_cipher(const std::string& name) {
    if (name == "auto") return std::nullopt;
    std::optional<Aead> cipher = formats::parse_cipher_name(name);
    if (!cipher)
        usage_error("--cipher: unknown cipher '" + name + "'",
                    "use auto, aes-256-gcm or chacha20-poly1305");
    return cipher;
}

// --format age: the refusals of what an age file cannot hold, before any file or prompt.
void check_age_args(const EncryptArgs& args, const std::optional<Aead>& cipher) {
    if (cipher && *cipher != Aead::chacha20_poly1305)
        usage_error("age files are ChaCha20-Poly1305 only, and --cipher asks for " + args.cipher,
                    "drop --cipher, or write a warp file (--format warp)");
    // The kinds of key the options name (a recipients file: one recipient at least).
    std::vector<formats::KeyType> kinds(args.keys.key_files.size(), formats::KeyType::key_file);
    // A -r recipient's kind is its text's; a recipients file's is known once it is read.
    for (const std::string& text : args.keys.recipients) {
        const formats::KeyKind* kind = formats::recipient_kind_of(text);
        kinds.push_back(kind ? kind->type : formats::KeyType::x25519);
    }
    kinds.insert(kinds.end(), args.keys.plugin_names.size(), formats::KeyType::plugin);
    if (args.keys.prompt || !args.keys.passphrase_file.empty() || args.keys.passphrase_fd)
        kinds.push_back(formats::KeyType::passphrase);
    refuse_mixed_recipients(kinds);  // its own hint: a warp file would refuse the mix too
    if (std::string why = formats::recipient_kinds_problem(formats::Format::age, kinds,
                                                           args.keys.recipients_files.size());
        !why.empty())
        usage_error(why, "encrypt to age recipients (-r age1..., -R FILE) or to one passphrase, "
                         "or write a warp file");
    if (args.kdf.passes)
        usage_error("--kdf-passes does not apply to age's scrypt, whose cost is its memory",
                    "use --kdf-memory (a power of two, in MiB; 256 by default: work factor 18)");
}

void run(const EncryptArgs& args) {
    // Every refusal that needs no file comes first, each with its hint.
    args.verbosity.check();
    const std::optional<Aead> cipher = parse_cipher(args.cipher);
    if (args.format != "warp" && args.format != "age")
        usage_error("--format: unknown format '" + args.format + "'", "use warp or age");
    const bool age = args.format == "age";
    if (args.armor && !age)
        usage_error("--armor writes age's ASCII armor, and the format is warp",
                    "add --format age");
    if (age) check_age_args(args, cipher);
    if (args.kdf.given() && !uses_passphrase(args.keys))
        usage_error(
            "--kdf-memory and --kdf-passes apply to passphrases, and no passphrase is given",
            "drop them, or add -p / --passphrase-file / --passphrase-fd");
    BackendRequest backend = resolve_backend(args.backend);
    check_key_options(args.keys, KeyPurpose::encrypt, is_stdio(args.input),
                      age ? formats::Format::age : formats::Format::warp);

    // Without -o the ciphertext goes beside the input: its directory is resolved once, the input
    // opened in it and the output placed there.
    std::optional<Place> beside;
    if (!args.output && !is_stdio(args.input))
        beside.emplace(Place::resolve(args.input, Place::LastLink::keep));
    InputFile input = beside ? InputFile(*beside, 0) : InputFile(args.input);
    const std::string_view extension = age ? kAgeExtension : kWarpExtension;
    OutputTarget output =
        args.output ? OutputTarget::named(*args.output)
        : beside    ? OutputTarget::beside(*beside, encrypted_name(beside->name(), extension),
                                           encrypted_name(args.input, extension))
                    : OutputTarget::named("-");
    // Armored text may go to a terminal (as with age -a); binary ciphertext may not.
    const OutputChecks output_checks{
        .force = args.force, .refuse_terminal = !args.armor, .named = args.output.has_value()};
    check_output(output, &input, output_checks);
    // Opened before any passphrase is asked for: a device or FIFO named with -o is judged on
    // what was opened (a terminal is refused), and nobody types a passphrase for nothing.
    OutputFile out(std::move(output), output_checks);

    formats::Options options;
    options.format = age ? formats::Format::age : formats::Format::warp;
    options.armor = args.armor;
    options.aead = cipher;
    options.recipients = gather_secrets(args.keys, KeyPurpose::encrypt, args.kdf.params(), input);
    refuse_mixed_recipients(options.recipients);
    warn_of_classic_recipients(args.keys, options.recipients);
    options.backend = std::move(backend);
    options.size_hint = input.size();
    options.threads = args.threads;
    options.plugin_ui = terminal_plugin_ui();

    Progress progress(args.verbosity.progress_mode(), input.size());
    options.progress = progress.callback();
    FdSource source(input.fd(), input.name());
    formats::Result result;
    try {
        result = formats::encrypt(source, out.sink(), options);
    } catch (const Error& error) {
        rethrow_naming(error, input.name());
    }
    const std::size_t slots = result.entries_after;
    out.commit();
    progress.finish();
    if (args.verbosity.verbose)
        print_note((age ? std::string("age file (") + (args.armor ? "armored, " : "") +
                              "chacha20-poly1305), " + std::to_string(slots) + " stanza(s), "
                        : std::string(formats::cipher_name(result.selection.aead)) + ", " +
                              std::to_string(slots) + " key slot(s), ") +
                   selection_note(result.selection) + "; wrote " + out.name());
}

}  // namespace

Command add_encrypt_command(CLI::App& parent) {
    auto args = std::make_shared<EncryptArgs>();
    CLI::App* cmd = parent.add_subcommand("encrypt", "Encrypt a file (or stdin) to a warp file, or an age file");
    add_input(*cmd, args->input);
    add_output(*cmd, args->output, args->force);
    add_key_options(*cmd, args->keys, KeyPurpose::encrypt);
    cmd->add_option("--cipher", args->cipher,
                    "auto (default: AES-256-GCM where the hardware accelerates AES, "
                    "ChaCha20-Poly1305 where it does not), aes-256-gcm or chacha20-poly1305")
        ->type_name("NAME");
    add_new_passphrase_kdf(*cmd, args->kdf);
    cmd->add_option("--format", args->format,
                    "warp (default) or age: an age v1 file (C2SP age.md), to -r/-R recipients or "
                    "one passphrase (scrypt), ChaCha20-Poly1305")
        ->type_name("FORMAT");
    cmd->add_flag("-a,--armor", args->armor, "With --format age: write age's ASCII armor (PEM)");
    add_backend(*cmd, args->backend);
    add_threads(*cmd, args->threads);
    add_verbosity(*cmd, args->verbosity);
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
