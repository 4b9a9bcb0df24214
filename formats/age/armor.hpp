// age.md, "ASCII armor": strict PEM (RFC 7468, section 3) with the label "AGE ENCRYPTED
// FILE", lines of 64 columns of padded, canonical base64. Both directions stream: a sink that
// armors what is written to it, and a source that dearmors what it reads, refusing everything
// but whitespace before and after the block, and accepting LF or CR LF line ends.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/io.hpp"

namespace warp::formats::age {

// Writes the BEGIN line at once, the body as it comes, and the last line and the END line in
// finish() (call it once, after the last write).
class ArmorSink final : public ByteSink {
public:
    explicit ArmorSink(ByteSink& out);
    void write(const std::uint8_t* buf, std::size_t len) override;
    void finish();

private:
    ByteSink& out_;
    std::vector<std::uint8_t> pending_;  // less than one line's 48 bytes
};

// Reads the armored file from `in` and serves the bytes it encodes. Throws
// Error(corrupted, "age armor: ...") for anything strict PEM or canonical base64 forbids.
class ArmorSource final : public ByteSource {
public:
    explicit ArmorSource(ByteSource& in) : in_(in) {}
    std::size_t read(std::uint8_t* buf, std::size_t len) override;

private:
    // The next line without its LF (or CR LF); false at the end of the input.
    bool next_line(std::string& line, bool& had_newline);
    void begin();
    void decode_next_line();
    void check_after_end(bool had_newline);

    ByteSource& in_;
    bool begun_ = false;
    bool ended_ = false;
    std::size_t line_number_ = 0;
    std::vector<std::uint8_t> decoded_;
    std::size_t served_ = 0;  // of decoded_
};

}  // namespace warp::formats::age
