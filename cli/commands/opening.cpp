#include "cli/commands/opening.hpp"

#include <algorithm>
#include <utility>

#include "cli/commands/common.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

// Argon2id memory and work a reader may be asked for: up to what SPEC section 4 allows.
constexpr unsigned kMinKdfMaxMib = 1, kMaxKdfMaxMib = formats::kMaxKdfMemoryKib / 1024;
constexpr std::uint64_t kMinKdfMaxWorkMib = 8,
                        kMaxKdfMaxWorkMib = std::uint64_t{formats::kMaxKdfPasses} * kMaxKdfMaxMib;

}  // namespace

void add_open_options(CLI::App& command, OpenArgs& args) {
    add_opening_keys(command, args);
    add_backend(command, args.backend);
    add_threads(command, args.threads);
}

void add_opening_keys(CLI::App& command, OpenArgs& args) {
    add_key_options(command, args.keys, KeyPurpose::decrypt);
    command
        .add_option("--kdf-max-memory", args.kdf_max_memory_mib,
                    "Refuse passphrase slots asking for more KDF memory, in MiB (default " +
                        std::to_string(formats::kDefaultMaxKdfMemoryKib / 1024) + ")")
        ->type_name("MIB")
        ->check(CLI::Range(kMinKdfMaxMib, kMaxKdfMaxMib));
    command
        .add_option("--kdf-max-work", args.kdf_max_work_mib,
                    "Refuse passphrase KDF work over this, memory in MiB x passes summed over "
                    "the attempt (default " +
                        std::to_string(formats::kDefaultMaxKdfWorkKib / 1024) +
                        ": " +
                        std::to_string(formats::kDefaultMaxKdfWorkKib /
                                       (std::uint64_t{formats::kDefaultKdfPasses} *
                                        formats::kDefaultKdfMemoryKib)) +
                        "x the default cost of " +
                        formats::kib_text(formats::kDefaultKdfMemoryKib) + " x " +
                        std::to_string(formats::kDefaultKdfPasses) + " passes)")
        ->type_name("MIB")
        ->check(CLI::Range(kMinKdfMaxWorkMib, kMaxKdfMaxWorkMib));
}

BackendRequest check_open_args(const OpenArgs& args, bool input_is_stdin) {
    BackendRequest backend = resolve_backend(args.backend);
    check_key_options(args.keys, KeyPurpose::decrypt, input_is_stdin);
    return backend;
}

formats::DecryptOptions decrypt_options(const OpenArgs& args, BackendRequest backend,
                                        const InputFile& input) {
    formats::DecryptOptions options;
    options.identities =
        gather_secrets(args.keys, KeyPurpose::decrypt, formats::KdfParams{}, input);
    options.max_kdf_memory_kib = args.kdf_max_memory_mib * 1024;
    options.max_kdf_work_kib = args.kdf_max_work_mib * 1024;
    options.backend = std::move(backend);
    options.threads = args.threads;
    return options;
}

DetectedInput::DetectedInput(ByteSource& in) : in_(in) {
    have_ = read_fully(in_, first_.data(), first_.size());
    format_ = formats::age::detect({first_.data(), have_});
}

std::size_t DetectedInput::read(std::uint8_t* buf, std::size_t len) {
    std::size_t n = 0;
    if (served_ < have_) {
        n = std::min(len, have_ - served_);
        std::copy_n(first_.data() + served_, n, buf);
        served_ += n;
    }
    return n == len ? n : n + in_.read(buf + n, len - n);
}

formats::DecryptResult decrypt_detected(DetectedInput& input, ByteSink& out,
                                        const formats::DecryptOptions& options) {
    if (!input.is_age()) return formats::decrypt(input, out, options);
    return as_decrypt_result(formats::age::decrypt(
        input, out, options, input.format() == formats::age::Format::age_armored));
}

formats::DecryptResult as_decrypt_result(const formats::age::Result& age) {
    formats::DecryptResult result;
    result.plaintext_bytes = age.plaintext_bytes;
    result.slot_used = age.stanza_used;
    result.selection = age.selection;
    return result;
}

formats::DecryptResult run_decrypt(const std::string& input_name,
                                  const std::function<formats::DecryptResult()>& decrypt) {
    try {
        return decrypt();
    } catch (const Error& error) {
        // formats/ refuses a KDF cost over a cap as a usage error naming the cap's flag.
        if (error.cause() == ErrorCause::usage && dynamic_cast<const CliError*>(&error) == nullptr)
            throw CliError(ErrorCause::usage, input_name + ": " + error.what(),
                           "if you trust this file, raise the limit named above");
        rethrow_naming(error, input_name);
    }
}

}  // namespace warp::cli
