// The checks every tampered, truncated or wrongly keyed input must pass, whichever way it is
// read: the documented exit code, a one-line error naming the file, no output file, no temporary
// file, an existing target untouched, nothing unauthenticated on stdout, and `verify` agreeing.
#pragma once

#include <string>
#include <vector>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {

class TamperTest : public CliTest {
protected:
    void SetUp() override;

    // Seals `plaintext` under key_ (ChaCha20-Poly1305, one key-file slot) and remembers both.
    void seal(std::string plaintext);

    // Runs decrypt (to a new file, over an existing file with -f, stdin to stdout) and verify on
    // `bytes` and checks each fails with `exit_code`. `message_words`: the error must contain
    // at least one of them (case-insensitive). `max_released`: how many leading plaintext
    // bytes a streaming decrypt to stdout may have written before the failure (chunks that
    // authenticated). `key_args`: the key options (default: -k key_).
    void expect_rejected(const std::string& bytes, int exit_code,
                         const std::vector<std::string>& message_words = {},
                         std::size_t max_released = 0,
                         const std::vector<std::string>& key_args = {}) const;

    fs::path key_;
    std::string plaintext_;
    std::string sealed_;
};

}  // namespace warp::clitest
