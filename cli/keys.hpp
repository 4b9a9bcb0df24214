// The key options shared by encrypt, decrypt and verify, and gathering the secrets they name.
//
// encrypt: every key option adds a key slot (1..16 in all, at most one passphrase: SPEC 4.3).
// decrypt/verify: every secret is
// tried against the file's slots. With no key option at all, WARPCRYPT_PASSPHRASE is used as a
// passphrase, else the terminal is asked; with neither, it is a usage error.
//
// Secrets read here live in locked memory (SecretBytes) and are wiped after use; so are the
// buffers they pass through (the key file's text, the prompt's line), and WARPCRYPT_PASSPHRASE
// is taken out of the environment at start-up, by every command, used or not. None is ever
// part of a message. A key file must be a regular file that belongs to the user or to root
// (else a usage error); one that other users can read or write gets a one-line warning (like
// ssh, which refuses instead).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "formats/container.hpp"
#include "formats/x25519_keys.hpp"

namespace warp::cli {

inline constexpr const char* kPassphraseEnv = "WARPCRYPT_PASSPHRASE";
inline constexpr std::size_t kMaxSlots = 16;

struct KeyOptions {
    std::vector<std::string> key_files;  // -k, repeatable
    bool prompt = false;                 // -p
    std::string passphrase_file;         // --passphrase-file ("" = none)
    std::optional<int> passphrase_fd;    // --passphrase-fd
};

// Moves WARPCRYPT_PASSPHRASE into locked memory, then wipes and unsets it, whether or not the
// command will use it: main() calls it first thing, so that no command, no error path and no
// child process ever sees it in the environment (/proc/PID/environ).
void take_environment_passphrase();

void add_key_options(CLI::App& command, KeyOptions& keys);

enum class KeyPurpose { encrypt, decrypt };

// Conflicts and impossibilities, checked before any file is opened: too many slots,
// --passphrase-fd 0 while the input is stdin, a descriptor that is not open, no key and no
// terminal. Throws a usage error with a hint.
void check_key_options(const KeyOptions& keys, KeyPurpose purpose, bool input_is_stdin);

// Whether the secrets will include a passphrase (so --kdf-* flags mean something).
bool uses_passphrase(const KeyOptions& keys);

// The identities of an age identity file (-i; `keygen -y`), with the checks of a key file
// (a regular file of the user's own or root's; a warning when others can read it); a
// malformed one is a usage error naming the file and line.
std::vector<formats::X25519Identity> read_identity_file(const std::string& path);

// Reads key files, passphrase files and descriptors, the environment, and prompts (twice for
// encrypt, refusing a mismatch or an empty passphrase). `kdf` goes into passphrase secrets.
std::vector<formats::Secret> gather_secrets(const KeyOptions& keys, KeyPurpose purpose,
                                           const formats::KdfParams& kdf);

}  // namespace warp::cli
