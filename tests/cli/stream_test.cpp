// A multi-GiB stream through pipes: pattern -> `warpcrypt encrypt` -> `warpcrypt decrypt` ->
// compared with the regenerated pattern as it arrives, never stored. This is what shows that
// memory stays bounded and that nothing is lost or reordered at batch boundaries.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

// 2 GiB by default; WARPCRYPT_CLI_STREAM_MIB overrides it (e.g. for a quick local run).
std::uint64_t stream_bytes() {
    if (const char* mib = std::getenv("WARPCRYPT_CLI_STREAM_MIB"); mib != nullptr && *mib) {
        return std::strtoull(mib, nullptr, 10) << 20;
    }
    return std::uint64_t{2} << 30;
}

// An odd block size, so writes never line up with the 64 KiB chunks.
constexpr std::size_t writer_block = (1u << 20) + 12345;

int open_for_stderr(const fs::path& file) {
    return ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
}

TEST_F(CliTest, MultiGigabyteStreamThroughTwoPipes) {
    const auto key = make_key("stream.key");
    const std::uint64_t total = stream_bytes();
    const auto started = std::chrono::steady_clock::now();

    Pipe source;     // test -> encrypt
    Pipe sealed;     // encrypt -> decrypt
    Pipe recovered;  // decrypt -> test
    const int encrypt_err = open_for_stderr(path("encrypt.err"));
    const int decrypt_err = open_for_stderr(path("decrypt.err"));
    ASSERT_GE(encrypt_err, 0);
    ASSERT_GE(decrypt_err, 0);

    Child encrypt({"encrypt", "-k", key.string(), "--cipher", "chacha20-poly1305"},
                  source.read_end, sealed.write_end, encrypt_err);
    Child decrypt({"decrypt", "-k", key.string()}, sealed.read_end, recovered.write_end,
                  decrypt_err);
    source.close_read();
    sealed.close_read();
    sealed.close_write();
    recovered.close_write();
    ::close(encrypt_err);
    ::close(decrypt_err);

    std::thread writer([&] {
        std::string block(writer_block, '\0');
        for (std::uint64_t done = 0; done < total;) {
            const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(writer_block, total - done));
            fill_pattern(done, block.data(), len);
            if (!write_all(source.write_end, block.data(), len)) break;  // encrypt died: reported below
            done += len;
        }
        source.close_write();
    });

    std::uint64_t received = 0;
    std::uint64_t first_mismatch = UINT64_MAX;
    std::string got(1 << 20, '\0');
    std::string expected(1 << 20, '\0');
    for (;;) {
        const ssize_t n = ::read(recovered.read_end, got.data(), got.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        const auto len = static_cast<std::size_t>(n);
        if (first_mismatch == UINT64_MAX && received + len <= total) {
            fill_pattern(received, expected.data(), len);
            if (std::memcmp(got.data(), expected.data(), len) != 0) {
                std::size_t i = 0;
                while (got[i] == expected[i]) ++i;
                first_mismatch = received + i;
            }
        }
        received += len;
    }
    recovered.close_read();
    writer.join();
    const int encrypt_status = encrypt.wait();
    const int decrypt_status = decrypt.wait();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    EXPECT_EQ(encrypt_status, 0) << "encrypt stderr: " << read_file(path("encrypt.err"));
    EXPECT_EQ(decrypt_status, 0) << "decrypt stderr: " << read_file(path("decrypt.err"));
    EXPECT_EQ(received, total) << "bytes out of the pipeline";
    EXPECT_EQ(first_mismatch, UINT64_MAX) << "first differing byte at offset " << first_mismatch;
    RecordProperty("stream_bytes", std::to_string(total));
    RecordProperty("seconds", std::to_string(seconds));
    std::printf("streamed %.2f GiB through encrypt | decrypt in %.1f s (%.0f MB/s end to end)\n",
                static_cast<double>(total) / (1u << 30), seconds,
                static_cast<double>(total) / 1e6 / seconds);
}

}  // namespace
}  // namespace warp::clitest
