// What a decryption to stdout releases when a later chunk fails: exactly the chunks before it,
// which authenticated, whatever the batch the failure falls in, the thread count, or the
// format (CCTV's rule for age, SPEC 7 for warp). Once, the binary buffered them and dropped
// them with the error: 0 bytes for 13 of CCTV's payload-failure vectors (tests/conformance
// runs all of them through the binary too). To a named file: nothing at all.
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

constexpr std::size_t kChunk = 64 * 1024;          // both formats' default
constexpr std::size_t kWarpTag = 16, kAgeTag = 16;  // per chunk on disk
constexpr std::size_t kAgeNonce = 16;               // between age's header and payload

class ReleasedPrefix : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        key_ = make_key("k.key");
        const Identity identity = make_identity("id.txt");
        identity_ = identity.file;
        recipient_ = identity.recipient;
        plaintext_ = pattern(40 * kChunk + 1000);  // 41 chunks: over two 1 MiB batches
    }

    std::string seal(const std::vector<std::string>& format_args) const {
        Command command;
        command.args = args({{"encrypt", "-o", "-"}, format_args});
        command.stdin_bytes = plaintext_;
        const Outcome outcome = run(command);
        EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
        return outcome.out;
    }

    fs::path key_, identity_;
    std::string recipient_, plaintext_;
};

TEST_F(ReleasedPrefix, StdoutGetsEveryChunkBeforeTheFailingOneInBothFormats) {
    const std::string warp = seal({"-k", key_.string(), "--cipher", "chacha20-poly1305"});
    const std::string age = seal({"--format", "age", "-r", recipient_});
    // Where the payload starts: the warp header has one key-file slot; age's header ends with
    // its MAC line, then a 16-byte nonce.
    const std::size_t warp_payload = layout::header_size(1);
    const std::size_t age_mac_line = age.find("\n---") + 1;
    const std::size_t age_payload = age.find('\n', age_mac_line) + 1 + kAgeNonce;
    struct Case {
        const char* format;
        const std::string* file;
        std::size_t payload;
        std::size_t record;
        std::vector<std::string> keys;
    };
    const std::vector<Case> cases = {
        {"warp", &warp, warp_payload, kChunk + kWarpTag, {"-k", key_.string()}},
        {"age", &age, age_payload, kChunk + kAgeTag, {"-i", identity_.string()}},
    };
    for (const Case& c : cases) {
        // The first chunk, one inside the first batch, the first and another of the second.
        for (const std::size_t failing : {std::size_t{0}, std::size_t{5}, std::size_t{16},
                                          std::size_t{20}, std::size_t{33}}) {
            std::string damaged = *c.file;
            damaged[c.payload + failing * c.record + 100] ^= 1;
            for (const char* threads : {"1", "3"}) {
                SCOPED_TRACE(std::string(c.format) + ": chunk " + std::to_string(failing) +
                             " damaged, --threads " + threads);
                Command open;
                open.args = args({{"decrypt", "-o", "-", "--threads", threads}, c.keys});
                open.stdin_bytes = damaged;
                const Outcome outcome = run(open);
                EXPECT_EQ(outcome.exit_code, 4) << describe(outcome);
                EXPECT_EQ(outcome.out.size(), failing * kChunk);
                EXPECT_TRUE(outcome.out == plaintext_.substr(0, failing * kChunk))
                    << "not the authenticated prefix";
            }
            // To a file: nothing appears.
            const fs::path in = make_file(std::string("damaged.") + c.format, damaged);
            const fs::path target = path("out.txt");
            const Outcome to_file =
                run(args({{"decrypt", in.string(), "-o", target.string()}, c.keys}));
            EXPECT_EQ(to_file.exit_code, 4) << describe(to_file);
            EXPECT_FALSE(fs::exists(target));
        }
    }
}

}  // namespace
}  // namespace warp::clitest
