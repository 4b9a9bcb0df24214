// The key options shared by encrypt, decrypt, verify and rekey, and gathering the secrets
// they name.
//
// encrypt: every key option adds a key slot (1..16 in all, at most one passphrase: SPEC 4.3):
// -k key files, -r/-R age recipients (X25519), one passphrase. decrypt/verify/rekey: every
// secret (-k key files, -i age identity files, one passphrase) is tried against the file's
// slots. With no key option at all, WARPCRYPT_PASSPHRASE is used as a passphrase, else the
// terminal is asked; with neither, it is a usage error.
//
// Secrets read here live in locked memory (SecretBytes) and are wiped after use; so are the
// buffers they pass through (the key file's text, the prompt's line), and WARPCRYPT_PASSPHRASE
// is taken out of the environment at start-up, by every command, used or not. None is ever
// part of a message. A key, identity or passphrase file must be a regular file that belongs to
// the user or to root (else a usage error); one that other users can read or write gets a
// one-line warning (like ssh, which refuses instead). Recipients are public, but whoever
// writes them chooses who can read the file: a recipients file may be stdin, a regular file
// (another user's gets a warning naming them), or a FIFO or device of the user's own or
// root's. No passphrase or recipients source may be the input itself (--passphrase-file
// /dev/stdin while the data comes from stdin): that is refused too.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/fd_io.hpp"
#include "engine/error.hpp"
#include "formats/file.hpp"
#include "formats/keys/deferred_identity.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/key_file.hpp"
#include "formats/keys/x25519.hpp"

namespace warp::cli {

inline constexpr const char* kPassphraseEnv = "WARPCRYPT_PASSPHRASE";

struct KeyOptions {
    std::vector<std::string> key_files;  // -k, repeatable
    std::vector<std::string> recipients;        // -r (encrypt), repeatable
    std::string_view recipient_option = "-r";   // what messages call it (rekey: --add-recipient)
    std::vector<std::string> recipients_files;  // -R (encrypt), repeatable; "-" for stdin
    std::vector<std::string> identity_files;    // -i (decrypt), repeatable
    std::vector<std::string> plugin_names;      // -j: a plugin's default identity (both ways)
    bool prompt = false;                 // -p
    std::string passphrase_file;         // --passphrase-file ("" = none)
    std::optional<int> passphrase_fd;    // --passphrase-fd
    bool no_pq_warning = false;          // --no-pq-warning: no warning for X25519 recipients
    std::string identity_passphrase_file;  // --identity-passphrase-file ("" = the terminal)
};

// Moves WARPCRYPT_PASSPHRASE into locked memory, then wipes and unsets it, whether or not the
// command will use it: main() calls it first thing, so that no command, no error path and no
// child process ever sees it in the environment (/proc/PID/environ).
void take_environment_passphrase();

enum class KeyPurpose { encrypt, decrypt };

// -k and the passphrase options, with -r/-R for encrypt and -i for decrypt.
void add_key_options(CLI::App& command, KeyOptions& keys, KeyPurpose purpose);

// Conflicts and impossibilities, checked before any file is opened: too many slots,
// --passphrase-fd 0 or -R - while the input is stdin, a descriptor that is not open, no key
// and no terminal. Throws a usage error with a hint.
// `format`: the one being written (encrypt), whose count of recipients it checks; unknown
// for rekey and decrypt (the file's format then checks what it holds).
void check_key_options(const KeyOptions& keys, KeyPurpose purpose, bool input_is_stdin,
                       formats::Format format = formats::Format::unknown);

// --kdf-memory and --kdf-passes: the Argon2id cost of a new passphrase slot.
struct NewPassphraseKdf {
    std::optional<unsigned> memory_mib;
    std::optional<unsigned> passes;
    bool given() const { return memory_mib.has_value() || passes.has_value(); }
    formats::KdfParams params() const;  // the defaults where not given
};
void add_new_passphrase_kdf(CLI::App& command, NewPassphraseKdf& kdf);

// Whether the secrets will include a passphrase (so --kdf-* flags mean something).
bool uses_passphrase(const KeyOptions& keys);

// An identity file given with -i, with the checks of a key file (a regular file of the user's
// own or root's; a warning when others can read it); a malformed one is a usage error naming
// the file and line. Its identities go to `ready`; a file that needs a passphrase (an SSH key
// under one, or an age file encrypted with one, as `age -p` makes it) goes to `deferred`,
// opened only when needed (formats/keys/deferred_identity.hpp), with the passphrase from
// `passphrase_file` or, when that is empty, the terminal (cli/protected_identity.hpp); its KDF
// draws on `kdf_limits`, the run's.
void read_identity_entries(const std::string& path, const std::string& passphrase_file,
                           const formats::KdfLimits& kdf_limits,
                           std::vector<formats::Secret>& ready,
                           std::vector<formats::DeferredIdentity>& deferred);
// For `keygen -y`: every identity of the file, one that needs a passphrase opened at once
// (under the default KDF limits).
std::vector<formats::Secret> read_identity_file(const std::string& path,
                                               const std::string& passphrase_file = "");

// Rethrows `error` as a usage error naming `path`, with the hint to raise the limit, when it is
// a KDF refused for the run's limits (formats/ names the --kdf-max-... flag); returns
// otherwise. The one place that tells such an error, for the identity files, SSH keys and the
// file a command opens.
void refuse_over_kdf_limit(const Error& error, const std::string& path);

// The first line of a passphrase file, checked as key files are (a regular file of the user's
// own, a warning when others can read it).
SecretBytes read_passphrase_file(const std::string& path);

// The most a key file or identity file holds (a protected identity file, once opened, too).
inline constexpr std::size_t kMaxIdentityFileBytes = 64 * 1024;

// The X25519 recipient of one -r argument (`option` names it in messages); a malformed one is
// a usage error that says what is wrong, and an identity given by mistake is not echoed.
formats::Secret parse_recipient(const std::string& text, std::string_view option);
// The recipients of a recipients file (-R; "-" for stdin), a usage error naming the line.
// `input` is what the command reads its data from.
std::vector<formats::Secret> read_recipients_file(const std::string& path,
                                                 const InputFile& input);

// Refuses (usage error, with a hint) classic X25519 recipients beside post-quantum ones
// (formats::post_quantum_mix_problem), before anything is written or warned about.
void refuse_mixed_recipients(std::span<const formats::KeyType> kinds);
void refuse_mixed_recipients(std::span<const formats::Secret> recipients);

// The environment variable that, set to anything but "" or "0", silences the warning below.
inline constexpr const char* kNoPqWarningEnv = "WARPCRYPT_NO_PQ_WARNING";
// As age 1.4 does: a warning, once, when `recipients` include classic X25519 ones, which a
// quantum computer could later open a recorded file through; unless silenced (--no-pq-warning,
// kNoPqWarningEnv).
void warn_of_classic_recipients(const KeyOptions& keys,
                                std::span<const formats::Secret> recipients);

// Reads key files, identity files, recipients, passphrase files and descriptors, the
// environment, and prompts (twice for encrypt, refusing a mismatch or an empty passphrase).
// `kdf` goes into passphrase secrets. `input` is the file the command reads its data from,
// which no passphrase or recipients source may be. `kdf_limits`: the run's, which opening a
// protected identity file or SSH key draws on (the defaults where the command has none).
// Identity files (-i, decrypt only) are read into the result and, those that need a passphrase,
// into `deferred`, unopened (read_identity_entries); decrypt gives it.
std::vector<formats::Secret> gather_secrets(const KeyOptions& keys, KeyPurpose purpose,
                                           const formats::KdfParams& kdf,
                                           const InputFile& input,
                                           const formats::KdfLimits& kdf_limits = {},
                                           std::vector<formats::DeferredIdentity>* deferred = nullptr);

}  // namespace warp::cli
