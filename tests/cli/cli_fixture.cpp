#include "tests/cli/cli_fixture.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "tests/support/splitmix64.hpp"

namespace warp::clitest {

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::vector<std::string> list_dir(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
}

using test::splitmix64;

void fill_pattern(std::uint64_t offset, char* out, std::size_t len) {
    std::size_t i = 0;
    // Unaligned head and tail byte by byte; whole words in between.
    while (i < len && (offset + i) % 8 != 0) {
        const std::uint64_t word = splitmix64((offset + i) / 8);
        out[i] = static_cast<char>(word >> (8 * ((offset + i) % 8)));
        ++i;
    }
    for (; i + 8 <= len; i += 8) {
        const std::uint64_t word = splitmix64((offset + i) / 8);
        std::memcpy(out + i, &word, 8);  // host byte order: fine, both sides use this function
    }
    for (; i < len; ++i) {
        const std::uint64_t word = splitmix64((offset + i) / 8);
        out[i] = static_cast<char>(word >> (8 * ((offset + i) % 8)));
    }
}

std::string pattern(std::size_t len, std::uint64_t offset) {
    std::string bytes(len, '\0');
    fill_pattern(offset, bytes.data(), len);
    return bytes;
}

std::optional<fs::path> output_in_progress(pid_t pid, const fs::path& dir,
                                           std::uintmax_t min_size) {
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(dir, ignored)) {
        const auto name = entry.path().filename().string();
        if (name.starts_with(".") && name.find(".warpcrypt-") != std::string::npos &&
            entry.file_size(ignored) >= min_size &&
            entry.file_size(ignored) != static_cast<std::uintmax_t>(-1))
            return entry.path();
    }
    const fs::path fds = "/proc/" + std::to_string(pid) + "/fd";
    const std::string unnamed_prefix = (fs::weakly_canonical(dir, ignored) / "#").string();
    for (const auto& entry : fs::directory_iterator(fds, ignored)) {
        const auto target = fs::read_symlink(entry.path(), ignored);
        if (target.string().starts_with(unnamed_prefix) &&
            target.string().ends_with(" (deleted)") &&
            fs::file_size(entry.path(), ignored) >= min_size &&
            fs::file_size(entry.path(), ignored) != static_cast<std::uintmax_t>(-1))
            return entry.path();
    }
    return std::nullopt;
}

bool output_watchable(TemporaryMethod method) {
    return method == TemporaryMethod::named || ::geteuid() == 0;
}

std::optional<fs::path> wait_for_output(pid_t pid, const fs::path& dir, TemporaryMethod method,
                                        double seconds, std::uintmax_t min_size) {
    if (!output_watchable(method)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        return std::nullopt;
    }
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::optional<fs::path> found;
    while (!(found = output_in_progress(pid, dir, min_size)) &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return found;
}

std::map<std::string, std::string> temporary_method_env(TemporaryMethod method) {
    if (method == TemporaryMethod::named) return {{"WARPCRYPT_TEMPORARY_FILE", "named"}};
    return {};
}

const char* temporary_method_name(TemporaryMethod method) {
    return method == TemporaryMethod::named ? "named_temporary" : "unnamed_file";
}

std::string temporary_method_test_name(const ::testing::TestParamInfo<TemporaryMethod>& info) {
    return temporary_method_name(info.param);
}

#ifdef WARPCRYPT_FAULT_INJECT
// A sanitizer build's runtime insists on being the first library loaded; the shim comes
// first, harmlessly.
std::map<std::string, std::string> failing_reads(const fs::path& file, std::size_t after,
                                                 bool stall) {
    const char* asan = std::getenv("ASAN_OPTIONS");
    std::map<std::string, std::string> env = {
        {"LD_PRELOAD", WARPCRYPT_FAULT_INJECT},
        {"FAULT_INJECT_READ_FILE", file.string()},
        {"FAULT_INJECT_READ_AFTER", std::to_string(after)},
        {"ASAN_OPTIONS", std::string(asan != nullptr ? asan : "") + ":verify_asan_link_order=0"}};
    if (stall) env["FAULT_INJECT_READ_STALL"] = "1";
    return env;
}
#endif

std::vector<std::string> args(std::initializer_list<std::vector<std::string>> parts) {
    std::vector<std::string> joined;
    for (const auto& part : parts) joined.insert(joined.end(), part.begin(), part.end());
    return joined;
}

std::string describe(const Outcome& outcome) {
    std::ostringstream text;
    text << "exit " << outcome.exit_code;
    if (outcome.term_signal != 0) text << " (killed by signal " << outcome.term_signal << ")";
    text << ", stderr: [" << outcome.err << "]";
    if (outcome.out.size() <= 400 && outcome.out.find('\0') == std::string::npos) {
        text << ", stdout: [" << outcome.out << "]";
    } else {
        text << ", stdout: " << outcome.out.size() << " bytes";
    }
    return text.str();
}

void CliTest::SetUp() {
    const char* base = std::getenv("TMPDIR");
    std::string templ = std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
                        "/warpcrypt-cli-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = fs::canonical(templ);
}

void CliTest::TearDown() {
    std::error_code ignored;
    // Tests make files unreadable or read-only; give them back so removal works.
    for (const auto& entry : fs::recursive_directory_iterator(dir_, ignored)) {
        fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add, ignored);
    }
    fs::remove_all(dir_, ignored);
}

fs::path CliTest::make_file(std::string_view name, std::string_view bytes) const {
    const auto file = path(name);
    write_file(file, bytes);
    return file;
}

fs::path CliTest::make_secret_file(std::string_view name, std::string_view bytes) const {
    const auto file = make_file(name, bytes);
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    return file;
}

CliTest::Identity CliTest::make_identity(std::string_view name) const {
    Identity identity{path(name), ""};
    const auto made = run({"keygen", "--identity", "--x25519", "-o", identity.file.string()});
    EXPECT_EQ(made.exit_code, 0) << describe(made);
    const auto printed = run({"keygen", "-y", identity.file.string()});
    EXPECT_EQ(printed.exit_code, 0) << describe(printed);
    identity.recipient = printed.out.substr(0, printed.out.find('\n'));
    return identity;
}

fs::path CliTest::make_key(std::string_view name) const {
    const auto key = path(name);
    const auto outcome = run({"keygen", "-o", key.string()});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(fs::exists(key)) << "keygen -o did not create " << key;
    return key;
}

std::string CliTest::encrypt_with_key(const fs::path& key, std::string_view plaintext,
                                      std::string_view cipher) const {
    Command command;
    command.args = {"encrypt", "-k", key.string(), "--cipher", std::string(cipher)};
    command.stdin_bytes = std::string(plaintext);
    const auto outcome = run(command);
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    return outcome.out;
}

std::size_t Container::chunk_disk_size(std::size_t i) const {
    if (i == data_chunks) return layout::trailer_chunk_size;
    if (i + 1 < data_chunks) return chunk_size + layout::tag_size;
    return trailer_offset() - chunk_offset(i);  // the last data chunk: 17..C+16 bytes
}

Container parse_container(std::string_view file) {
    Container c;
    if (file.size() < layout::slots_offset) {
        ADD_FAILURE() << "container shorter than its preamble: " << file.size() << " bytes";
        return c;
    }
    c.file_size = file.size();
    c.slot_count = static_cast<std::uint8_t>(file[layout::slot_count_offset]);
    c.chunk_size = std::size_t{1} << static_cast<std::uint8_t>(file[layout::chunk_log2_offset]);
    std::size_t at = layout::slots_offset;
    for (std::size_t i = 0; i < c.slot_count && at + 3 <= file.size(); ++i) {
        c.slot_offsets.push_back(at);
        const std::size_t length = std::size_t{static_cast<std::uint8_t>(file[at + 1])} << 8 |
                                   static_cast<std::uint8_t>(file[at + 2]);
        at += layout::slot_type_size + layout::slot_length_size + length;
    }
    c.header_size = at + layout::payload_nonce_size + layout::checksum_size + layout::mac_size;
    if (file.size() < c.header_size + layout::trailer_chunk_size) {
        ADD_FAILURE() << "container shorter than header + trailer: " << file.size() << " bytes";
        return c;
    }
    // SPEC section 6: R = S - H - 40; n = ceil(R / (C + 16)).
    const std::size_t r = file.size() - c.header_size - layout::trailer_chunk_size;
    c.data_chunks = (r + c.chunk_size + layout::tag_size - 1) / (c.chunk_size + layout::tag_size);
    return c;
}

}  // namespace warp::clitest
