// `--cipher auto` (the default) through the real binary: the cipher follows the hardware,
// AES-256-GCM where some backend runs AES in hardware and ChaCha20-Poly1305 where none does
// (WARPCRYPT_CPU_MASK plays the CPU without AES instructions); decrypt needs no flag; and -v
// names the backend that ran, the same one `backends` reports for that size.
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

using nlohmann::json;

// Every AES instruction set warpcrypt uses, and the GPU: what a Raspberry Pi 4 or an old Atom
// lacks (the GPU is masked so that a machine with one gives the same answer).
const std::string kNoAesMask = "aesni,vaes,vpclmulqdq,pclmulqdq,arm_aes,arm_pmull,cuda";

constexpr unsigned char kSuiteAesGcm = 1, kSuiteChaCha = 2;

class CipherChoiceTest : public CliTest {
protected:
    Outcome run_masked(std::vector<std::string> arguments, std::string input = {}) const {
        Command command;
        command.args = std::move(arguments);
        command.env["WARPCRYPT_CPU_MASK"] = kNoAesMask;
        command.stdin_bytes = std::move(input);
        return run(command);
    }

    json backends_json(const std::string& size, bool masked) const {
        Command command;
        command.args = {"backends", "--json", "--size", size};
        if (masked) command.env["WARPCRYPT_CPU_MASK"] = kNoAesMask;
        const Outcome outcome = run(command);
        EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
        return json::parse(outcome.out);
    }

    // Whether a backend that runs AES-GCM in hardware on the CPU is usable here.
    bool has_hardware_aes() const {
        const json doc = backends_json("1MiB", false);
        for (const json& b : doc.at("backends"))
            if (b.at("usable") == true && b.at("aes_256_gcm") == true && b.at("name") != "scalar" &&
                b.at("name") != "cuda")
                return true;
        return false;
    }

    static unsigned char suite_of(const std::string& file) {
        return static_cast<unsigned char>(file.at(layout::suite_offset));
    }
};

TEST_F(CipherChoiceTest, WithoutAesInstructionsTheDefaultIsChaCha) {
    const fs::path key = make_key("k");
    const fs::path sealed = path("masked.warp");
    const Outcome outcome =
        run_masked({"encrypt", "-k", key.string(), "-o", sealed.string()}, pattern(100000));
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(suite_of(read_file(sealed)), kSuiteChaCha);

    const Outcome info = run({"info", sealed.string()});
    ASSERT_EQ(info.exit_code, 0) << describe(info);
    EXPECT_NE(info.out.find("chacha20-poly1305"), std::string::npos) << info.out;
    // Decrypt needs no flag, masked or not: the file says.
    const Outcome opened = run({"decrypt", "-k", key.string(), sealed.string(), "-o", "-"});
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_TRUE(opened.out == pattern(100000));
    // An explicit cipher is unchanged.
    const fs::path forced = path("forced.warp");
    const Outcome aes = run_masked(
        {"encrypt", "--cipher", "aes-256-gcm", "-k", key.string(), "-o", forced.string()}, "x");
    ASSERT_EQ(aes.exit_code, 0) << describe(aes);
    EXPECT_EQ(suite_of(read_file(forced)), kSuiteAesGcm);
}

TEST_F(CipherChoiceTest, WithAesInstructionsTheDefaultIsAesGcm) {
    const fs::path key = make_key("k");
    Command command;
    command.args = {"encrypt", "-k", key.string()};
    command.stdin_bytes = pattern(5000);
    const Outcome sealed = run(command);
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    EXPECT_EQ(suite_of(sealed.out), has_hardware_aes() ? kSuiteAesGcm : kSuiteChaCha);
}

TEST_F(CipherChoiceTest, BackendsShowsTheCipherAutoPicksAndWhy) {
    const Outcome text = run_masked({"backends"});
    ASSERT_EQ(text.exit_code, 0) << describe(text);
    EXPECT_NE(text.out.find("auto picks cipher chacha20-poly1305"), std::string::npos) << text.out;
    const json doc = backends_json("1MiB", true);
    EXPECT_EQ(doc.at("auto").at("cipher").at("suite"), "chacha20-poly1305") << doc.dump(2);
    EXPECT_FALSE(doc.at("auto").at("cipher").at("reason").get<std::string>().empty());
}

// For a pipe the decision waits for the input (or plans for a large stream); -v then names
// what ran, which `backends` names too for the size it planned for.
TEST_F(CipherChoiceTest, VerboseNamesTheBackendThatRanForAPipe) {
    const fs::path key = make_key("k");
    const Outcome sealed = run_masked({"encrypt", "-v", "-k", key.string()}, pattern(3000));
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    const json doc = backends_json("1GiB", true);
    const std::string backend = doc.at("auto").at("cipher").at("backend");
    EXPECT_NE(sealed.err.find("chacha20-poly1305, 1 key slot(s), backend " + backend + " ("),
              std::string::npos)
        << sealed.err;

    Command open;
    open.args = {"decrypt", "-v", "-k", key.string()};
    open.env["WARPCRYPT_CPU_MASK"] = kNoAesMask;
    open.stdin_bytes = sealed.out;
    const Outcome opened = run(open);
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_NE(opened.err.find("backend " + backend + " ("), std::string::npos) << opened.err;
}

// Range decryption decides for the chunks it opens, and says so.
TEST_F(CipherChoiceTest, VerboseNamesTheBackendOfARangeDecryption) {
    const fs::path key = make_key("k");
    const fs::path sealed = path("range.warp");
    ASSERT_EQ(run_masked({"encrypt", "-k", key.string(), "-o", sealed.string()}, pattern(200000))
                  .exit_code,
              0);
    const Outcome range = run_masked({"decrypt", "-v", "-k", key.string(), "--offset", "70000",
                                      "--length", "10", sealed.string(), "-o", "-"});
    ASSERT_EQ(range.exit_code, 0) << describe(range);
    EXPECT_TRUE(range.out == pattern(10, 70000));
    // One 64 KiB chunk holds bytes 70000..70009.
    const json doc = backends_json("65536", true);
    const std::string backend = doc.at("auto").at("picks").at("chacha20-poly1305");
    EXPECT_NE(range.err.find("backend " + backend + " (auto: " + backend + ", "),
              std::string::npos)
        << range.err;
    EXPECT_NE(range.err.find("for 65536 bytes"), std::string::npos) << range.err;
}

}  // namespace
}  // namespace warp::clitest
