// What decrypt, verify and rekey share: the options that open a file (keys, --kdf-max-memory,
// --backend) and running formats::decrypt with the errors named after the input.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/keys.hpp"
#include "formats/age/age.hpp"
#include "formats/container.hpp"

namespace warp::cli {

struct OpenArgs {
    KeyOptions keys;
    unsigned kdf_max_memory_mib = formats::kDefaultMaxKdfMemoryKib / 1024;
    std::uint64_t kdf_max_work_mib = formats::kDefaultMaxKdfWorkKib / 1024;  // MiB x passes
    std::string backend = "auto";
    unsigned threads = 0;  // 0: one per CPU
};

// The keys and the KDF caps, then --backend and --threads.
void add_open_options(CLI::App& command, OpenArgs& args);
// The keys and the KDF caps alone (rekey, which runs no payload).
void add_opening_keys(CLI::App& command, OpenArgs& args);

// The checks that need no file (backend, key options); returns the backend request.
BackendRequest check_open_args(const OpenArgs& args, bool input_is_stdin);

// Gathers the secrets (may prompt) into decrypt options; `input` is the file to open.
formats::DecryptOptions decrypt_options(const OpenArgs& args, BackendRequest backend,
                                        const InputFile& input);

// The input's first bytes, read to tell a warp file from an age file (formats/age/age.hpp:
// detect, as age tells by its first line), served again before the rest.
class DetectedInput final : public ByteSource {
public:
    explicit DetectedInput(ByteSource& in);
    formats::age::Format format() const noexcept { return format_; }
    bool is_age() const noexcept {
        return format_ == formats::age::Format::age || format_ == formats::age::Format::age_armored;
    }
    std::size_t read(std::uint8_t* buf, std::size_t len) override;
    std::uint64_t position() const noexcept override {
        return in_.position() - (have_ - served_);
    }

private:
    ByteSource& in_;
    std::array<std::uint8_t, formats::age::kDetectBytes> first_{};
    std::size_t have_ = 0, served_ = 0;
    formats::age::Format format_;
};

// Decrypts a warp file or an age file, as `input` says it is (age: the stanza that opened is
// the result's slot_used).
formats::DecryptResult decrypt_detected(DetectedInput& input, ByteSink& out,
                                        const formats::DecryptOptions& options);

// An age decryption's result as a warp one's (the stanza that opened as slot_used).
formats::DecryptResult as_decrypt_result(const formats::age::Result& age);

// Runs `decrypt` (a call into formats), rethrowing its errors with `input_name` in front and
// the hints the CLI knows (a KDF cost over a cap: the message names the flag that moves it).
formats::DecryptResult run_decrypt(const std::string& input_name,
                                  const std::function<formats::DecryptResult()>& decrypt);

}  // namespace warp::cli
