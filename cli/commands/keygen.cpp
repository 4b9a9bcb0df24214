// `warpcrypt keygen`: a new random key file (SPEC section 8), or with --identity an age
// identity file as age-keygen 1.4 writes it, created 0600: post-quantum (ML-KEM-768 + X25519,
// AGE-SECRET-KEY-PQ-1...) by default, classic X25519 with --x25519; `keygen -y FILE` prints the
// recipients of an identity file, as `age-keygen -y` does.
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "cli/commands/common.hpp"
#include "cli/keys.hpp"
#include "cli/output_file.hpp"
#include "cli/paths.hpp"
#include "cli/report.hpp"
#include "engine/secure_memory.hpp"
#include "formats/keys/key_file.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/pq/hybrid_keys.hpp"
#include "formats/keys/x25519.hpp"

namespace warp::cli {
namespace {

struct KeygenArgs {
    std::optional<std::string> output;
    bool force = false;
    bool identity = false;
    bool x25519 = false;  // --x25519: a classic identity, not post-quantum
    std::optional<std::string> recipients_of;  // -y IDENTITY_FILE
};

// Now, in UTC, as RFC 3339: "2026-12-01T12:00:00Z" (age-keygen's "# created:" line).
std::string now_rfc3339() {
    const time_t now = ::time(nullptr);
    struct tm utc {};
    ::gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

// A new secret on stdout is the user's business, as with age-keygen, but stdout redirected to
// a file that others can read (`umask 022; warpcrypt keygen > key`) puts it where they can
// read it: a warning, printed before the key is written.
void warn_if_exposed(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
    if ((st.st_mode & (S_IRGRP | S_IROTH)) == 0) return;
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    print_warning(std::string("the new secret key goes to stdout, a file other users can "
                              "read (mode ") +
                  mode + "): run `chmod 600` on it, or let keygen create the file with -o FILE");
}

// Writes `text` to the output; a secret text is wiped afterwards, whatever happens.
void write_output(const KeygenArgs& args, std::string text, bool secret) {
    struct Wipe {
        std::string& s;
        ~Wipe() { secure_wipe(s.data(), s.size()); }
    } wipe{text};
    OutputTarget output = OutputTarget::named(args.output.value_or("-"));
    const OutputChecks output_checks{.force = args.force, .named = true, .secret = secret};
    check_output(output, nullptr, output_checks);
    if (secret && output.descriptor) warn_if_exposed(*output.descriptor);
    OutputFile out(std::move(output), output_checks);
    out.sink().write(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    out.commit();
}

void run(const KeygenArgs& args) {
    if (args.recipients_of) {
        std::string lines;
        for (const formats::Secret& identity : read_identity_file(*args.recipients_of))
            lines += formats::key_kind_of(identity.type).recipient_of(identity) + "\n";
        write_output(args, std::move(lines), false);
        return;
    }
    // As age-keygen: the recipient on stderr when the identity went to a file.
    const bool to_file = args.output && *args.output != "-";
    if (args.identity && args.x25519) {
        const formats::X25519Identity identity = formats::generate_x25519_identity();
        write_output(args, formats::identity_file_text(identity, now_rfc3339()), true);
        if (to_file) print_note("public key: " + formats::encode_recipient(identity.public_key));
        return;
    }
    if (args.identity) {
        const formats::pq::HybridIdentity identity = formats::pq::generate_hybrid_identity();
        write_output(args, formats::pq::hybrid_identity_file_text(identity, now_rfc3339()), true);
        if (to_file)
            print_note("public key: " + formats::pq::encode_hybrid_recipient(identity.public_key));
        return;
    }
    write_output(args, formats::encode_key_file(formats::generate_key_secret()), true);
}

}  // namespace

Command add_keygen_command(CLI::App& parent) {
    auto args = std::make_shared<KeygenArgs>();
    CLI::App* cmd = parent.add_subcommand(
        "keygen", "Create a key file or an age identity (printed to stdout without -o)");
    cmd->add_option("-o,--output", args->output, "File to create (mode 0600); - for stdout")
        ->type_name("PATH");
    cmd->add_flag("-f,--force", args->force, "Overwrite an existing file");
    CLI::Option* identity = cmd->add_flag(
        "--identity", args->identity,
        "Create an age identity file instead of a key file: post-quantum, ML-KEM-768 + X25519 "
        "(AGE-SECRET-KEY-PQ-1..., as age-keygen 1.4 does), for both formats");
    cmd->add_flag("--x25519", args->x25519,
                  "With --identity: a classic X25519 identity (AGE-SECRET-KEY-1...), which is not "
                  "post-quantum")
        ->needs(identity);
    cmd->add_option("-y", args->recipients_of,
                    "Print the recipients (age1pq1... or age1...) of the identities in IDENTITY_FILE")
        ->type_name("IDENTITY_FILE")
        ->excludes(identity);
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
