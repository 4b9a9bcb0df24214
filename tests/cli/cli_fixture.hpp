// What every CLI test file shares: a fresh temporary directory per test, file helpers, a
// deterministic data pattern, key generation through the binary, and the container layout
// (formats/warp/SPEC.md sections 3, 4 and 6) so tamper tests can aim at exact bytes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/cli/process.hpp"

namespace warp::clitest {

namespace fs = std::filesystem;

// Binary data is kept in std::string: it compares, slices and prints in failure messages.
std::string read_file(const fs::path& path);
void write_file(const fs::path& path, std::string_view bytes);
// Names of the entries of a directory, sorted.
std::vector<std::string> list_dir(const fs::path& dir);

// Byte `offset + i` of an endless deterministic stream (splitmix64 per 8-byte word), so that a
// multi-GiB stream can be produced and checked without storing it.
void fill_pattern(std::uint64_t offset, char* out, std::size_t len);
std::string pattern(std::size_t len, std::uint64_t offset = 0);

// The file a running warpcrypt (`pid`) fills with new output in `dir`, once it holds at least
// `min_size` bytes (0: as soon as it exists): its hidden temporary file
// (.NAME.warpcrypt-XXXXXX, WARPCRYPT_TEMPORARY_FILE=named), or the unnamed O_TMPFILE file it
// holds open, which /proc/PID/fd shows as "DIR/#INODE (deleted)" and which is returned as that
// /proc/PID/fd/N path. nullopt before either holds that much.
std::optional<fs::path> output_in_progress(pid_t pid, const fs::path& dir,
                                           std::uintmax_t min_size = 1);

// The two ways warpcrypt writes a new file (cli/output_file.hpp): the environment that picks
// each, for tests that must pass with both.
enum class TemporaryMethod { unnamed, named };

// Whether output_in_progress can see a new file written with `method`: a named temporary file
// always; an unnamed one only from root, since warpcrypt makes itself non-dumpable and its
// /proc/PID/fd is then root's alone. (The makepkg check() runs the tests unprivileged.)
bool output_watchable(TemporaryMethod method);

// Waits at most `seconds` for output_in_progress(pid, dir) and returns it; where `method`'s
// output cannot be watched, waits half a second (the run is under way by then) and returns
// nullopt.
std::optional<fs::path> wait_for_output(pid_t pid, const fs::path& dir, TemporaryMethod method,
                                        double seconds = 10, std::uintmax_t min_size = 1);
std::map<std::string, std::string> temporary_method_env(TemporaryMethod method);
const char* temporary_method_name(TemporaryMethod method);
// The name of a test instantiated with ::testing::Values of both methods.
std::string temporary_method_test_name(const ::testing::TestParamInfo<TemporaryMethod>& info);

#ifdef WARPCRYPT_FAULT_INJECT
// The environment that makes reads of `file` fail with EIO after `after` bytes, or, with
// `stall`, block there until a signal ends the process (tests/cli/fault_inject.c).
std::map<std::string, std::string> failing_reads(const fs::path& file, std::size_t after,
                                                 bool stall = false);
#endif

// Arguments that keep Argon2id fast in tests (8 MiB, 1 pass).
inline const std::vector<std::string> fast_kdf = {"--kdf-memory", "8", "--kdf-passes", "1"};

// Joins argument lists: args({"encrypt", in}, fast_kdf).
std::vector<std::string> args(std::initializer_list<std::vector<std::string>> parts);

// Readable failure context for an outcome.
std::string describe(const Outcome& outcome);

class CliTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

    // A path inside this test's directory.
    fs::path path(std::string_view name) const { return dir_ / name; }
    // Writes `bytes` to a file in this test's directory and returns its path.
    fs::path make_file(std::string_view name, std::string_view bytes) const;
    // The same, mode 0600: a passphrase file as its owner keeps it (others can read a file
    // make_file writes, and warpcrypt warns about that).
    fs::path make_secret_file(std::string_view name, std::string_view bytes) const;
    // Runs `warpcrypt keygen -o NAME` and checks it succeeded.
    fs::path make_key(std::string_view name) const;
    // An age identity file made by `warpcrypt keygen --identity -o NAME`, and its recipient as
    // `keygen -y` prints it.
    struct Identity {
        fs::path file;
        std::string recipient;
    };
    Identity make_identity(std::string_view name) const;
    // Encrypts `plaintext` to a file under key file `key` and returns the ciphertext bytes.
    std::string encrypt_with_key(const fs::path& key, std::string_view plaintext,
                                 std::string_view cipher = "chacha20-poly1305") const;

    fs::path dir_;
};

// The layout of a container (formats/warp/SPEC.md, version 2), read from its bytes.
namespace layout {
inline constexpr std::size_t magic_size = 8;
inline constexpr std::size_t version_offset = 8;
inline constexpr std::size_t suite_offset = 9;
inline constexpr std::size_t chunk_log2_offset = 10;
inline constexpr std::size_t slot_count_offset = 11;
inline constexpr std::size_t slots_offset = 12;
// A slot: type (1), length (2, big-endian), then its body of that length.
inline constexpr std::size_t slot_type_size = 1;
inline constexpr std::size_t slot_length_size = 2;
inline constexpr std::size_t slot_salt_size = 16;
inline constexpr std::size_t slot_params_size = 8;   // passphrase slots only
inline constexpr std::size_t slot_check_size = 32;
inline constexpr std::size_t wrapped_key_size = 48;
inline constexpr std::size_t key_file_slot_size =
    slot_type_size + slot_length_size + slot_salt_size + slot_check_size + wrapped_key_size;
inline constexpr std::size_t passphrase_slot_size = key_file_slot_size + slot_params_size;
inline constexpr std::size_t payload_nonce_size = 32;
inline constexpr std::size_t checksum_size = 8;
inline constexpr std::size_t mac_size = 32;
inline constexpr std::size_t tag_size = 16;
inline constexpr std::size_t trailer_plaintext_size = 24;
inline constexpr std::size_t trailer_chunk_size = trailer_plaintext_size + tag_size;
static_assert(key_file_slot_size == 99 && passphrase_slot_size == 107);
static_assert(trailer_chunk_size == 40);

// A header with this many key-file and passphrase slots.
inline constexpr std::size_t header_size(std::size_t key_file_slots,
                                         std::size_t passphrase_slots = 0) {
    return slots_offset + key_file_slots * key_file_slot_size +
           passphrase_slots * passphrase_slot_size + payload_nonce_size + checksum_size + mac_size;
}
}  // namespace layout

struct Container {
    std::size_t header_size = 0;
    std::size_t slot_count = 0;
    std::vector<std::size_t> slot_offsets;  // where each slot starts (its type byte)
    std::size_t chunk_size = 0;  // C, plaintext bytes per full data chunk
    std::size_t data_chunks = 0;  // n
    std::size_t file_size = 0;

    std::size_t checksum_offset() const { return header_size - layout::mac_size - layout::checksum_size; }
    std::size_t mac_offset() const { return header_size - layout::mac_size; }
    std::size_t payload_nonce_offset() const { return checksum_offset() - layout::payload_nonce_size; }
    std::size_t slot_offset(std::size_t slot) const { return slot_offsets.at(slot); }
    // Where slot `slot`'s body starts: its salt.
    std::size_t slot_body_offset(std::size_t slot) const {
        return slot_offset(slot) + layout::slot_type_size + layout::slot_length_size;
    }
    // Data chunk i (i < n) or, for i == n, the trailer chunk.
    std::size_t chunk_offset(std::size_t i) const {
        return i == data_chunks ? trailer_offset() : header_size + i * (chunk_size + layout::tag_size);
    }
    std::size_t chunk_disk_size(std::size_t i) const;
    std::size_t trailer_offset() const { return file_size - layout::trailer_chunk_size; }
};

// Parses the header fields the layout depends on (fails the test on a short file).
Container parse_container(std::string_view file);

}  // namespace warp::clitest
