#include "cli/keys.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "cli/fd_io.hpp"
#include "cli/paths.hpp"
#include "cli/prompt.hpp"
#include "cli/protected_identity.hpp"
#include "cli/report.hpp"
#include "engine/secure_memory.hpp"
#include "formats/keys/plugin_keys.hpp"
#include "formats/keys/recipient_argument.hpp"
#include "formats/keys/ssh.hpp"

namespace warp::cli {
namespace {

std::string key_hint(KeyPurpose purpose) {
    return std::string("give a key with -k KEYFILE, ") +
           (purpose == KeyPurpose::encrypt ? "-r RECIPIENT, -R FILE" : "-i IDENTITY_FILE") +
           ", -p (prompt), --passphrase-file, --passphrase-fd or WARPCRYPT_PASSPHRASE";
}

// A key file is one short line of text; anything much larger is not a key file.
constexpr std::size_t kMaxKeyFileBytes = kMaxIdentityFileBytes;
// A recipients file is public text, a line per recipient: a few thousand lines at most, of
// up to 1959 characters (a post-quantum recipient): 1024 of those (age's most stanzas) are
// 2 MiB.
constexpr std::size_t kMaxRecipientsFileBytes = 4 * 1024 * 1024;

// -p, --passphrase-file and --passphrase-fd: how many passphrases the options name.
std::size_t passphrase_options(const KeyOptions& keys) {
    return (keys.prompt ? 1 : 0) + (keys.passphrase_file.empty() ? 0 : 1) +
           (keys.passphrase_fd ? 1 : 0);
}

bool any_key_option(const KeyOptions& keys) {
    return !keys.key_files.empty() || !keys.recipients.empty() ||
           !keys.recipients_files.empty() || !keys.identity_files.empty() ||
           !keys.plugin_names.empty() || passphrase_options(keys) > 0;
}

// WARPCRYPT_PASSPHRASE as take_environment_passphrase() found it at start-up.
std::optional<SecretBytes>& environment_passphrase_store() {
    static std::optional<SecretBytes> store;
    return store;
}

bool have_environment_passphrase() {
    const auto& store = environment_passphrase_store();
    return store.has_value() && !store->empty();
}

// The slots the options ask for, at least (a recipients file holds one recipient or more).
std::size_t secret_count(const KeyOptions& keys) {
    const std::size_t count = keys.key_files.size() + keys.recipients.size() +
                              keys.recipients_files.size() + keys.identity_files.size() +
                              keys.plugin_names.size() +
                              passphrase_options(keys);
    return count == 0 ? 1 : count;  // the environment or the prompt
}

// Whether `fd` is the same open file as the input (a passphrase file naming /dev/stdin while
// the data comes from stdin, say): reading a line from it would take the input's first line,
// which would become the passphrase or recipient and vanish from the data. Refused.
void refuse_the_input(int fd, const std::string& name, std::string_view what,
                      const InputFile& input) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw_io(name, "cannot stat " + std::string(what), errno);
    const struct stat& in = input.status();
    if (st.st_dev == in.st_dev && st.st_ino == in.st_ino)
        usage_error(name + " is the input (" + input.name() + ") too: reading the " +
                        std::string(what) + " from it would take the input's first line",
                    "give the " + std::string(what) + " in a file of its own, or name the input");
}

// A recipients file is public, but who wrote it decides whom a file is encrypted to. Opened
// with O_NONBLOCK, so that a FIFO without a writer is not waited on; a FIFO, device or socket
// of another user is refused (a stream of someone else's choosing, like a planted FIFO in
// /tmp); a regular file of another user (root aside) gets a warning naming that user.
void check_recipients_file(int fd, const std::string& path) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw_io(path, "cannot stat recipients file", errno);
    if (S_ISDIR(st.st_mode)) throw_io(path, "cannot read recipients file", EISDIR);
    if (!S_ISREG(st.st_mode) && !owned_by_user_or_root(st))
        usage_error(path + " is " + file_kind(st) + " that belongs to another user (" +
                        owner_text(st.st_uid) + "): refusing to take recipients from it",
                    "give a recipients file of your own with -R");
    if (S_ISREG(st.st_mode) && !owned_by_user_or_root(st))
        print_warning("recipients file " + path + " belongs to another user (" +
                      owner_text(st.st_uid) + "), who chose whom this file is encrypted to");
    // Blocking again for the read: a FIFO of the user's own (`-R <(...)`) is read to its end.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        throw_io(path, "cannot read recipients file", errno);
}

// Public text read whole (a recipients file, or stdin), checked as above, with a size cap.
std::string read_public_text(const std::string& path, const InputFile& input) {
    const bool from_stdin = is_stdio(path);
    int fd = STDIN_FILENO;
    if (!from_stdin) {
        do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        while (fd < 0 && errno == EINTR);
        if (fd < 0) throw_io(path, "cannot open recipients file", errno);
    }
    std::string text(kMaxRecipientsFileBytes + 1, '\0');
    std::size_t size = 0;
    try {
        if (!from_stdin) {
            check_recipients_file(fd, path);
            refuse_the_input(fd, path, "recipients", input);
        }
        FdSource source(fd, display_name(path, false));
        size = source.read(reinterpret_cast<std::uint8_t*>(text.data()), text.size());
    } catch (...) {
        if (!from_stdin) ::close(fd);
        throw;
    }
    if (!from_stdin) ::close(fd);
    if (size > kMaxRecipientsFileBytes)
        usage_error(display_name(path, false) + ": not a recipients file (over " +
                    std::to_string(kMaxRecipientsFileBytes / (1024 * 1024)) + " MiB)");
    text.resize(size);
    return text;
}

// Like ssh with a private key, but a warning rather than a refusal: a key or identity file
// that other users can read (or replace) is no longer a secret of its owner. Printed even with
// --quiet, which silences notes, not this.
void warn_if_exposed(const struct stat& st, const std::string& path, std::string_view kind) {
    const mode_t others = st.st_mode & (S_IRWXG | S_IRWXO);
    const bool readable = (others & (S_IRGRP | S_IROTH)) != 0;
    const bool writable = (others & (S_IWGRP | S_IWOTH)) != 0;
    if (!readable && !writable) return;
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    print_warning(std::string(kind) + " " + path + " can be " +
                  (readable && writable ? "read and written" : readable ? "read" : "written") +
                  " by other users (mode " + mode + "); run `chmod 600 " + path + "`");
}

// What a file of secrets is called in messages, and what to do instead of a refused one.
struct SecretFileKind {
    std::string_view name;    // "key file", "identity file", "passphrase file"
    std::string_view a_name;  // with its article: "a key file", "an identity file"
    std::string_view make;    // "create one with `warpcrypt keygen -o FILE`"
    std::string_view remedy;  // for a file that is not a regular file of the user's own
};
constexpr SecretFileKind kKeyFile{
    "key file", "a key file", "create one with `warpcrypt keygen -o FILE`",
    "give the key file itself with -k (`warpcrypt keygen -o FILE` makes one), kept in a file "
    "of your own (mode 0600)"};
constexpr SecretFileKind kIdentityFile{
    "identity file", "an identity file", "create one with `warpcrypt keygen --identity -o FILE`",
    "give the identity file itself with -i (`warpcrypt keygen --identity -o FILE` makes one), "
    "kept in a file of your own (mode 0600)"};
constexpr SecretFileKind kPassphraseFile{
    "passphrase file", "a passphrase file", "",
    "keep the passphrase in a file of your own (mode 0600), or pass it through a pipe with "
    "--passphrase-fd N"};

// A file of secrets (a key, identity or passphrase file) is a regular file of the user's own
// (or root's): a FIFO or device could be anyone's stream (another user's FIFO in /tmp hands
// over a key or passphrase of their choosing, and waits for the victim to read it), and a
// file another user owns is a secret that user knows and can replace. Judged on what was
// opened; O_NONBLOCK so that opening a FIFO does not wait for a writer before it is refused.
// Warns about a file others can read or write (warn_if_exposed).
void check_secret_file(int fd, const std::string& path, const SecretFileKind& kind) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw_io(path, "cannot stat " + std::string(kind.name), errno);
    const std::string a_name(kind.a_name);
    if (!S_ISREG(st.st_mode))
        usage_error(path + " is " + file_kind(st) + ", not a regular file: refusing it as " +
                        a_name,
                    std::string(kind.remedy));
    if (!owned_by_user_or_root(st))
        usage_error(path + " belongs to another user (uid " + std::to_string(st.st_uid) +
                        "): refusing " + a_name + " that someone else can replace",
                    std::string(kind.remedy));
    warn_if_exposed(st, path, kind.name);
}

// Opens a file of secrets for reading, checked as above; the descriptor is the caller's.
int open_secret_file(const std::string& path, const SecretFileKind& kind) {
    int fd;
    do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) throw_io(path, "cannot open " + std::string(kind.name), errno);
    try {
        check_secret_file(fd, path, kind);
    } catch (...) {
        ::close(fd);
        throw;
    }
    return fd;
}

// Reads a key or identity file, checked as above, into locked memory (the text holds the
// secret; wiped when done).
SecretBytes read_secret_file(const std::string& path, const SecretFileKind& kind) {
    const int fd = open_secret_file(path, kind);
    SecretBytes text(kMaxKeyFileBytes + 1);
    std::size_t size = 0;
    try {
        FdSource source(fd, path);  // reads this much straight into text, not via its buffer
        size = source.read(text.data(), text.size());
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
    if (size > kMaxKeyFileBytes)
        usage_error(path + ": not " + std::string(kind.a_name) + " (too large)",
                    std::string(kind.make));
    return SecretBytes(text.span().first(size));
}

std::string_view text_of(const SecretBytes& bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Decodes a key or identity file's text with `decode`: a malformed file is a usage error that
// names it.
template <typename Decode>
auto decode_secret_text(const std::string& path, const SecretFileKind& kind,
                        std::string_view text, Decode&& decode) {
    try {
        return decode(text);
    } catch (const Error& error) {
        throw CliError(ErrorCause::usage,
                       path + ": not a valid " + std::string(kind.name) + ": " + error.what(),
                       std::string(kind.make));
    }
}

template <typename Decode>
auto decode_secret_file(const std::string& path, const SecretFileKind& kind, Decode&& decode) {
    const SecretBytes text = read_secret_file(path, kind);
    return decode_secret_text(path, kind, text_of(text), decode);
}

SecretBytes read_key_file(const std::string& path) {
    return decode_secret_file(path, kKeyFile, formats::decode_key_file);
}

formats::Secret passphrase_secret(SecretBytes bytes, const formats::KdfParams& kdf) {
    formats::Secret secret;
    secret.type = formats::KeyType::passphrase;
    secret.bytes = std::move(bytes);
    secret.kdf = kdf;
    return secret;
}

// The lengths may differ in time; the bytes may not.
bool equal(const SecretBytes& a, const SecretBytes& b) {
    return a.size() == b.size() && equal_in_constant_time(a.data(), b.data(), a.size());
}

SecretBytes prompt(KeyPurpose purpose) {
    if (purpose == KeyPurpose::decrypt) return prompt_passphrase("Passphrase: ");
    SecretBytes first = prompt_passphrase("Passphrase for the new file: ");
    SecretBytes second = prompt_passphrase("Passphrase again: ");
    if (!equal(first, second))
        usage_error("the passphrases do not match", "run the command again");
    return first;
}

// A new file must not be sealed with nothing.
void refuse_empty(const SecretBytes& passphrase, KeyPurpose purpose, const std::string& source) {
    if (purpose == KeyPurpose::encrypt && passphrase.empty())
        usage_error("empty passphrase from " + source, "choose a passphrase, or use -k KEYFILE");
}

// The first line of a passphrase file, which follows the key-file rules (check_secret_file)
// and, when the command reads an input, is not that input.
SecretBytes first_line_of_passphrase_file(const std::string& path, const InputFile* input) {
    const int fd = open_secret_file(path, kPassphraseFile);
    try {
        if (input != nullptr) refuse_the_input(fd, path, "passphrase", *input);
        SecretBytes line = read_first_line(fd, path);
        ::close(fd);
        return line;
    } catch (...) {
        ::close(fd);
        throw;
    }
}

SecretBytes passphrase_from_file(const std::string& path, const InputFile& input) {
    return first_line_of_passphrase_file(path, &input);
}

}  // namespace

void refuse_over_kdf_limit(const Error& error, const std::string& path) {
    // formats/ refuses a KDF over the run's limits as a usage error naming the flag.
    const std::string what = error.what();
    if (error.cause() == ErrorCause::usage && what.find("--kdf-max") != std::string::npos)
        throw CliError(ErrorCause::usage, path + ": " + what,
                       "if you trust this file, raise the limit named above");
}

namespace {

// The public key beside an SSH private key, FILE.pub as ssh-keygen writes it, when there is
// one: a PEM key under a passphrase does not carry its own, and its tag (which stanzas name
// it by) is needed before the passphrase is asked. A regular file only (not a FIFO that would
// block), up to a size no public key reaches; a malformed one is a usage error naming it.
std::optional<formats::ssh::StatedPublicKey> public_key_beside(const std::string& path) {
    constexpr std::size_t kMaxPublicKeyFileBytes = 64 * 1024;
    const std::string pub = path + ".pub";
    int fd = -1;
    do fd = ::open(pub.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    while (fd < 0 && errno == EINTR);
    if (fd < 0 && errno == ENOENT) return std::nullopt;
    if (fd < 0) throw_io(pub, "cannot open the SSH public key", errno);
    std::string text(kMaxPublicKeyFileBytes + 1, '\0');
    std::size_t size = 0;
    try {
        struct stat st {};
        if (::fstat(fd, &st) != 0) throw_io(pub, "cannot stat the SSH public key", errno);
        if (!S_ISREG(st.st_mode)) usage_error(pub + ": not a regular file");
        FdSource source(fd, pub);
        size = source.read(reinterpret_cast<std::uint8_t*>(text.data()), text.size());
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
    text.resize(std::min(size, kMaxPublicKeyFileBytes));
    text = text.substr(0, text.find('\n'));
    if (!text.empty() && text.back() == '\r') text.pop_back();
    try {
        // An RSA key's bytes are its wire form already; an Ed25519 key's are the key alone.
        const formats::ssh::ParsedKey key = formats::ssh::parse_recipient(text);
        if (key.type == formats::ssh::kRsaType)
            return formats::ssh::StatedPublicKey{key.type, {key.bytes.span().begin(),
                                                            key.bytes.span().end()}};
        formats::ssh::Ed25519PublicKey ed25519{};
        std::copy_n(key.bytes.data(), ed25519.size(), ed25519.begin());
        return formats::ssh::StatedPublicKey{key.type, formats::ssh::ed25519_wire(ed25519)};
    } catch (const Error& error) {
        usage_error(pub + ": not an SSH public key: " + error.what(),
                    "it is the public key of " + path + " (ssh-keygen -y -f " + path + ")");
    }
}

// An SSH private key under a passphrase, opened: the passphrase asked now. `expected`: the
// public key its tag was taken from (the file's own, or FILE.pub's), which it must be.
std::vector<formats::Secret> open_ssh_key(const SecretBytes& text, const std::string& path,
                                          const std::string& passphrase_file,
                                          const formats::KdfLimits& kdf_limits,
                                          const std::vector<std::uint8_t>& expected) {
    const SecretBytes passphrase = identity_passphrase(path, passphrase_file, "SSH key");
    formats::Secret key;
    try {
        key = formats::decode_identity_with_passphrase(text_of(text), passphrase, kdf_limits);
    } catch (const Error& error) {
        refuse_over_kdf_limit(error, path);
        if (error.cause() != ErrorCause::wrong_key)
            throw CliError(ErrorCause::usage, path + ": not a valid identity file: " + error.what(),
                           std::string(kIdentityFile.make));
        throw CliError(ErrorCause::wrong_key, path + ": wrong passphrase for this SSH key",
                       "the passphrase is the SSH key's (ssh-keygen -p changes it)");
    }
    const std::string_view type =
        key.type == formats::KeyType::ssh_rsa ? formats::ssh::kRsaType : formats::ssh::kEd25519Type;
    if (!expected.empty() && formats::ssh::public_wire_of_identity(type, key.bytes) != expected)
        usage_error(path + ".pub is not the public key of " + path,
                    "write the right one with ssh-keygen -y -f " + path + " > " + path + ".pub");
    std::vector<formats::Secret> keys;
    keys.push_back(std::move(key));
    return keys;
}

// An SSH key under a passphrase, deferred: its type and tag from the public key the file
// states (OpenSSH) or FILE.pub gives (PEM); a PEM key without FILE.pub is RSA (the legacy PEM
// encryption is PKCS#1's) and may open any ssh-rsa stanza.
formats::DeferredIdentity deferred_ssh_key(SecretBytes text, const std::string& path,
                                           const std::string& passphrase_file,
                                           const formats::KdfLimits& kdf_limits) {
    std::optional<formats::ssh::StatedPublicKey> stated =
        formats::ssh::stated_public_key(text_of(text));
    if (!stated) stated = public_key_beside(path);
    const std::vector<std::uint8_t> wire = stated ? stated->wire : std::vector<std::uint8_t>{};
    const formats::KeyType type = stated && stated->type == formats::ssh::kEd25519Type
                                      ? formats::KeyType::ssh_ed25519
                                      : formats::KeyType::ssh_rsa;
    const std::string tag = wire.empty() ? "" : formats::ssh::key_tag(wire);
    auto shared = std::make_shared<SecretBytes>(std::move(text));
    return formats::DeferredIdentity(
        type, tag, [shared, path, passphrase_file, kdf_limits, wire] {
            return open_ssh_key(*shared, path, passphrase_file, kdf_limits, wire);
        });
}

}  // namespace

void read_identity_entries(const std::string& path, const std::string& passphrase_file,
                           const formats::KdfLimits& kdf_limits,
                           std::vector<formats::Secret>& ready,
                           std::vector<formats::DeferredIdentity>& deferred) {
    SecretBytes text = read_secret_file(path, kIdentityFile);
    if (formats::identity_needs_passphrase(text_of(text))) {  // an SSH key with one
        deferred.push_back(deferred_ssh_key(std::move(text), path, passphrase_file, kdf_limits));
        return;
    }
    if (is_protected_identity(text_of(text))) {
        auto shared = std::make_shared<SecretBytes>(std::move(text));
        deferred.emplace_back(std::nullopt, "", [shared, path, passphrase_file, kdf_limits] {
            const SecretBytes inside =
                open_protected_identity(text_of(*shared), path, passphrase_file, kdf_limits);
            return decode_secret_text(path, kIdentityFile, text_of(inside),
                                      formats::decode_identity_file_text);
        });
        return;
    }
    for (formats::Secret& identity : decode_secret_text(path, kIdentityFile, text_of(text),
                                                        formats::decode_identity_file_text))
        ready.push_back(std::move(identity));
}

std::vector<formats::Secret> read_identity_file(const std::string& path,
                                               const std::string& passphrase_file) {
    std::vector<formats::Secret> identities;
    std::vector<formats::DeferredIdentity> deferred;
    read_identity_entries(path, passphrase_file, formats::KdfLimits{}, identities, deferred);
    for (const formats::DeferredIdentity& identity : deferred)
        for (const formats::Secret& secret : identity.open())
            identities.push_back(formats::Secret{secret.type, SecretBytes(secret.bytes.span()),
                                                 secret.kdf});
    return identities;
}

SecretBytes read_passphrase_file(const std::string& path) {
    return first_line_of_passphrase_file(path, nullptr);
}

formats::Secret parse_recipient(const std::string& text, std::string_view option) {
    return formats::parse_recipient_text(text, option);
}

std::vector<formats::Secret> read_recipients_file(const std::string& path,
                                                 const InputFile& input) {
    const std::string text = read_public_text(path, input);
    std::vector<formats::Secret> secrets;
    std::vector<formats::SkippedLine> skipped;
    try {
        secrets = formats::decode_recipients_file_text(text, &skipped);
    } catch (const Error& error) {
        throw CliError(ErrorCause::usage,
                       display_name(path, false) + ": not a valid recipients file: " + error.what(),
                       "one recipient (age1pq1..., age1... or an SSH public key) per line; lines "
                       "starting with # are comments");
    }
    // As age: the keys a forge serves may include some of types age files cannot be encrypted
    // to; the file goes to the others, and the user is told which were left out.
    for (const formats::SkippedLine& line : skipped)
        print_warning("recipients file " + display_name(path, false) + ", line " +
                      std::to_string(line.number) + ": skipped an SSH key of type " + line.type +
                      ", which age files cannot be encrypted to");
    return secrets;
}

void refuse_mixed_recipients(std::span<const formats::KeyType> kinds) {
    if (std::string why = formats::post_quantum_mix_problem(kinds); !why.empty())
        usage_error(why, "ask the classic recipient's owner for a post-quantum one (`warpcrypt "
                         "keygen --identity`, or age-keygen 1.4), or send them a separate file");
}

void refuse_mixed_recipients(std::span<const formats::Secret> recipients) {
    std::vector<formats::KeyType> kinds;
    for (const formats::Secret& r : recipients) kinds.push_back(r.type);
    refuse_mixed_recipients(kinds);
}

void warn_of_classic_recipients(const KeyOptions& keys,
                                std::span<const formats::Secret> recipients) {
    const char* silenced = std::getenv(kNoPqWarningEnv);
    if (keys.no_pq_warning || (silenced && *silenced && std::string_view(silenced) != "0"))
        return;
    const auto classic = std::count_if(recipients.begin(), recipients.end(), [](const auto& r) {
        return formats::key_kind_of(r.type).classic_public_key();
    });
    if (classic == 0) return;
    print_warning(
        (classic == 1 ? std::string("a recipient is a classic key (X25519 age1..., SSH or "
                                    "P-256 age1tag1...)")
                      : std::to_string(classic) + " recipients are classic keys (X25519 "
                                                  "age1..., SSH or P-256 age1tag1...)") +
        ": a copy of this file kept today can be opened once quantum computers break them. "
        "Move to post-quantum keys (age1pq1..., from `warpcrypt keygen --identity` or "
        "age-keygen 1.4) and re-encrypt; --no-pq-warning or " + kNoPqWarningEnv +
        "=1 silences this");
}

void take_environment_passphrase() {
    char* value = std::getenv(kPassphraseEnv);
    if (value == nullptr) return;
    environment_passphrase_store().emplace(std::string_view(value));
    secure_wipe(value, std::strlen(value));
    ::unsetenv(kPassphraseEnv);
}

void add_key_options(CLI::App& command, KeyOptions& keys, KeyPurpose purpose) {
    const char* group = "Keys";
    // One value per option, so `-k KEY INPUT` leaves INPUT to the positional argument;
    // repeated options accumulate.
    command
        .add_option("-k,--key-file", keys.key_files,
                    "Key file (from `warpcrypt keygen`); repeatable")
        ->type_name("PATH")
        ->allow_extra_args(false)
        ->group(group);
    if (purpose == KeyPurpose::encrypt) {
        command
            .add_option("-r,--recipient", keys.recipients,
                        "Encrypt to an age recipient: post-quantum (age1pq1...) or classic X25519 "
                        "(age1..., with a warning); repeatable")
            ->type_name("RECIPIENT")
            ->allow_extra_args(false)
            ->group(group);
        command
            .add_option("-R,--recipients-file", keys.recipients_files,
                        "Encrypt to the recipients in PATH, one per line (- for stdin); "
                        "repeatable")
            ->type_name("PATH")
            ->allow_extra_args(false)
            ->group(group);
        command
            .add_option("-j", keys.plugin_names,
                        "Encrypt to the age plugin NAME's default identity (age-plugin-NAME on "
                        "PATH makes its stanza, as `age -e -j`); repeatable")
            ->type_name("NAME")
            ->allow_extra_args(false)
            ->group(group);
        command
            .add_flag("--no-pq-warning", keys.no_pq_warning,
                      std::string("No warning for classic X25519 recipients (also: ") +
                          kNoPqWarningEnv + "=1)")
            ->group(group);
    } else {
        command
            .add_option("-i,--identity", keys.identity_files,
                        "Identity file (from `warpcrypt keygen --identity` or age-keygen; one "
                        "encrypted with a passphrase, as `age -p` makes it, asks for it); "
                        "repeatable")
            ->type_name("PATH")
            ->allow_extra_args(false)
            ->group(group);
        command
            .add_option("-j", keys.plugin_names,
                        "Open with the age plugin NAME's default identity (age-plugin-NAME on "
                        "PATH; as -i with an identity of no data); repeatable")
            ->type_name("NAME")
            ->allow_extra_args(false)
            ->group(group);
        command
            .add_option("--identity-passphrase-file", keys.identity_passphrase_file,
                        "The passphrase of passphrase-protected identity files, from the first "
                        "line of PATH, instead of the terminal")
            ->type_name("PATH")
            ->group(group);
    }
    command.add_flag("-p,--passphrase", keys.prompt, "Ask for a passphrase on the terminal")
        ->group(group);
    command.add_option("--passphrase-file", keys.passphrase_file,
                       "Read the passphrase from the first line of PATH")
        ->type_name("PATH")
        ->group(group);
    command.add_option("--passphrase-fd", keys.passphrase_fd,
                       "Read the passphrase from the first line of descriptor N")
        ->type_name("N")
        ->check(CLI::NonNegativeNumber)
        ->group(group);
}

namespace {
// Passphrase KDF bounds on the command line: the format's (formats/constants.hpp), except the
// least memory, which SPEC section 4 allows down to 8 KiB; below 8 MiB is not a sane choice.
constexpr unsigned kMinKdfMib = 8;
constexpr unsigned kMaxKdfMib = formats::kMaxKdfMemoryKib / 1024;
constexpr unsigned kDefaultKdfMib = formats::kDefaultKdfMemoryKib / 1024;
}  // namespace

formats::KdfParams NewPassphraseKdf::params() const {
    formats::KdfParams kdf;
    kdf.memory_kib = memory_mib.value_or(kDefaultKdfMib) * 1024;
    kdf.passes = passes.value_or(formats::kDefaultKdfPasses);
    return kdf;
}

void add_new_passphrase_kdf(CLI::App& command, NewPassphraseKdf& kdf) {
    command
        .add_option("--kdf-memory", kdf.memory_mib,
                    "Passphrase KDF memory in MiB (default " + std::to_string(kDefaultKdfMib) + ")")
        ->type_name("MIB")
        ->check(CLI::Range(kMinKdfMib, kMaxKdfMib));
    command
        .add_option("--kdf-passes", kdf.passes,
                    "Passphrase KDF passes (default " +
                        std::to_string(formats::kDefaultKdfPasses) + ")")
        ->type_name("N")
        ->check(CLI::Range(formats::kMinKdfPasses, formats::kMaxKdfPasses));
}

bool uses_passphrase(const KeyOptions& keys) {
    return passphrase_options(keys) > 0 || !any_key_option(keys);
}

void check_key_options(const KeyOptions& keys, KeyPurpose purpose, bool input_is_stdin,
                       formats::Format format) {
    if (purpose == KeyPurpose::encrypt && format != formats::Format::unknown &&
        secret_count(keys) > formats::max_recipients(format))
        usage_error("too many keys: a" + std::string(format == formats::Format::warp ? " warp" : "n age") +
                    " file has at most " + std::to_string(formats::max_recipients(format)) + " " +
                    std::string(formats::entry_word(format)) + "s");
    const std::size_t passphrases = passphrase_options(keys);
    if (purpose == KeyPurpose::encrypt && passphrases > 1)
        usage_error("a file holds at most one passphrase slot, and " +
                        std::to_string(passphrases) + " passphrases were given",
                    "choose one of -p, --passphrase-file and --passphrase-fd; add key files "
                    "with -k for other holders");
    const auto from_stdin = std::count_if(keys.recipients_files.begin(),
                                          keys.recipients_files.end(), is_stdio);
    if (from_stdin > 1) usage_error("-R - is given twice, and stdin can be read once");
    if (from_stdin > 0 && input_is_stdin)
        usage_error("-R - reads the recipients from stdin, which is also the input",
                    "name the input file, or the recipients file");
    if (from_stdin > 0 && keys.passphrase_fd == STDIN_FILENO)
        usage_error("-R - and --passphrase-fd 0 both read stdin", "give one of them a file");
    if (keys.passphrase_fd) {
        int fd = *keys.passphrase_fd;
        if (fd == STDIN_FILENO && input_is_stdin)
            usage_error("--passphrase-fd 0 reads stdin, which is also the input",
                        "name the input file, or pass the passphrase on another descriptor");
        if (::fcntl(fd, F_GETFD) < 0)
            usage_error("--passphrase-fd " + std::to_string(fd) + ": not an open descriptor");
    }
    if (!any_key_option(keys) && !have_environment_passphrase() && !terminal_available())
        usage_error("no key given and no terminal to ask for a passphrase", key_hint(purpose));
}

std::vector<formats::Secret> gather_secrets(const KeyOptions& keys, KeyPurpose purpose,
                                           const formats::KdfParams& kdf,
                                           const InputFile& input,
                                           const formats::KdfLimits& kdf_limits,
                                           std::vector<formats::DeferredIdentity>* deferred) {
    std::vector<formats::Secret> secrets;
    for (const std::string& path : keys.key_files) {
        formats::Secret secret;
        secret.type = formats::KeyType::key_file;
        secret.bytes = read_key_file(path);
        secrets.push_back(std::move(secret));
    }
    for (const std::string& text : keys.recipients)
        secrets.push_back(parse_recipient(text, keys.recipient_option));
    for (const std::string& path : keys.recipients_files)
        for (formats::Secret& secret : read_recipients_file(path, input))
            secrets.push_back(std::move(secret));
    // -i is decrypt's (add_key_options), whose caller always takes the deferred identities.
    if (!keys.identity_files.empty() && deferred == nullptr)
        throw Error(ErrorCause::invalid_argument, "identity files are read for decrypt only");
    for (const std::string& path : keys.identity_files)
        read_identity_entries(path, keys.identity_passphrase_file, kdf_limits, secrets, *deferred);
    for (const std::string& name : keys.plugin_names)
        secrets.push_back(formats::plugin_identity_without_data(name));
    if (!keys.passphrase_file.empty()) {
        SecretBytes line = passphrase_from_file(keys.passphrase_file, input);
        refuse_empty(line, purpose, keys.passphrase_file);
        secrets.push_back(passphrase_secret(std::move(line), kdf));
    }
    if (keys.passphrase_fd) {
        std::string name = "descriptor " + std::to_string(*keys.passphrase_fd);
        refuse_the_input(*keys.passphrase_fd, name, "passphrase", input);
        SecretBytes line = read_first_line(*keys.passphrase_fd, name);
        refuse_empty(line, purpose, name);
        secrets.push_back(passphrase_secret(std::move(line), kdf));
    }
    if (keys.prompt) secrets.push_back(passphrase_secret(prompt(purpose), kdf));
    if (!any_key_option(keys)) {
        if (have_environment_passphrase())
            secrets.push_back(passphrase_secret(std::move(*environment_passphrase_store()), kdf));
        else
            secrets.push_back(passphrase_secret(prompt(purpose), kdf));
        refuse_empty(secrets.back().bytes, purpose, "the terminal");
    }
    return secrets;
}

}  // namespace warp::cli
