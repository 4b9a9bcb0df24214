// Reader for NIST CAVP GCMVS .rsp files (README section 5, "cavp-gcm/").
//
// The format is line based: `#` comments, bracketed section headers giving every case's sizes
// in bits, then cases of `Name = hex` lines separated by blank lines, each starting at
// `Count = n`. Decrypt files end a case with `PT = ...` or a bare `FAIL`. NIST writes CRLF;
// LF is accepted too.
#include <array>
#include <charconv>
#include <optional>
#include <utility>

#include "tests/support/vectors.hpp"
#include "tests/support/vectors_internal.hpp"

namespace warp::test {
namespace {

using vectors_internal::hex_or_throw;
using vectors_internal::malformed;

std::string_view trim(std::string_view s) {
    const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// The five sizes a section header gives, in bits, in header order.
enum SectionField : std::size_t { keylen, ivlen, ptlen, aadlen, taglen, section_field_count };
constexpr std::array<std::string_view, section_field_count> kSectionFieldNames = {
    "Keylen", "IVlen", "PTlen", "AADlen", "Taglen"};

// The fields of one case, as read so far.
enum CaseField : std::size_t { key, iv, pt, aad, ct, tag, case_field_count };
constexpr std::array<std::string_view, case_field_count> kCaseFieldNames = {"Key", "IV",  "PT",
                                                                             "AAD", "CT", "Tag"};

class RspReader {
public:
    explicit RspReader(std::string file) : file_(std::move(file)) {}

    void line(std::string_view raw, std::size_t number) {
        line_number_ = number;
        const std::string_view text = trim(raw);
        if (text.empty()) return finish_case();
        if (text.front() == '#') return;
        if (text.front() == '[') return section_header(text);
        if (text == "FAIL") return fail_marker();
        const std::size_t eq = text.find('=');
        if (eq == std::string_view::npos) error("unexpected line '" + std::string(text) + "'");
        const std::string_view name = trim(text.substr(0, eq));
        const std::string_view value = trim(text.substr(eq + 1));
        if (name == "Count") return start_case(value);
        field(name, value);
    }

    std::vector<AeadCase> finish() {
        finish_case();
        return std::move(cases_);
    }

private:
    [[noreturn]] void error(const std::string& what) const {
        malformed(file_, "line " + std::to_string(line_number_), what);
    }

    static std::optional<std::uint64_t> parse_decimal(std::string_view text) {
        std::uint64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
        return value;
    }

    void section_header(std::string_view text) {
        finish_case();
        if (text.back() != ']') error("unterminated section header");
        const std::string_view inside = text.substr(1, text.size() - 2);
        const std::size_t eq = inside.find('=');
        if (eq == std::string_view::npos) error("section header without '='");
        const std::string_view name = trim(inside.substr(0, eq));
        const auto bits = parse_decimal(trim(inside.substr(eq + 1)));
        if (!bits) error("section header '" + std::string(name) + "' is not a number");
        for (std::size_t i = 0; i < section_field_count; ++i) {
            if (kSectionFieldNames[i] != name) continue;
            if (*bits % 8 != 0) error(std::string(name) + " is not a whole number of bytes");
            section_[i] = *bits / 8;
            return;
        }
        error("unknown section header '" + std::string(name) + "'");
    }

    void start_case(std::string_view count) {
        finish_case();
        if (!parse_decimal(count)) error("Count is not a number");
        for (std::size_t i = 0; i < section_field_count; ++i)
            if (!section_[i])
                error("case before a [" + std::string(kSectionFieldNames[i]) + "] header");
        current_.emplace();
        current_->file = file_;
        current_->id = "line " + std::to_string(line_number_) + ", Count = " + std::string(count);
        fields_ = {};
        failed_ = false;
    }

    void field(std::string_view name, std::string_view value) {
        if (!current_) error("field '" + std::string(name) + "' outside a case");
        for (std::size_t i = 0; i < case_field_count; ++i) {
            if (kCaseFieldNames[i] != name) continue;
            if (fields_[i]) error("field '" + std::string(name) + "' given twice");
            fields_[i] = hex_or_throw(value, file_, "line " + std::to_string(line_number_), name);
            return;
        }
        error("unknown field '" + std::string(name) + "'");
    }

    void fail_marker() {
        if (!current_) error("FAIL outside a case");
        if (failed_) error("FAIL given twice");
        failed_ = true;
    }

    void require_size(CaseField f, SectionField s) const {
        const std::size_t expected = *section_[s];
        if (fields_[f]->size() != expected)
            error(std::string(kCaseFieldNames[f]) + " of case '" + current_->id + "' has " +
                  std::to_string(fields_[f]->size()) + " bytes, [" +
                  std::string(kSectionFieldNames[s]) + "] says " + std::to_string(expected));
    }

    // Called at every blank line, header, new case and the end of the file: completes the
    // case being read, if any, checking it against its section.
    void finish_case() {
        if (!current_) return;
        for (CaseField f : {key, iv, aad, ct, tag})
            if (!fields_[f])
                error("case '" + current_->id + "' has no " + std::string(kCaseFieldNames[f]));
        if (failed_ == fields_[pt].has_value())
            error("case '" + current_->id + "' needs exactly one of PT and FAIL");
        require_size(key, keylen);
        require_size(iv, ivlen);
        require_size(aad, aadlen);
        require_size(ct, ptlen);
        require_size(tag, taglen);
        if (fields_[pt]) require_size(pt, ptlen);

        AeadCase& c = *current_;
        c.key = std::move(*fields_[key]);
        c.nonce = std::move(*fields_[iv]);
        c.aad = std::move(*fields_[aad]);
        c.ct = std::move(*fields_[ct]);
        c.tag = std::move(*fields_[tag]);
        c.pt = std::move(fields_[pt]);
        c.expect = failed_ ? Expectation::invalid : Expectation::valid;
        cases_.push_back(std::move(c));
        current_.reset();
    }

    std::string file_;
    std::size_t line_number_ = 0;
    std::array<std::optional<std::size_t>, section_field_count> section_{};  // bytes
    std::optional<AeadCase> current_;
    std::array<std::optional<Bytes>, case_field_count> fields_{};
    bool failed_ = false;
    std::vector<AeadCase> cases_;
};

}  // namespace

std::vector<AeadCase> read_cavp_gcm(const std::filesystem::path& path) {
    const std::string text = vectors_internal::read_text(path);
    RspReader reader(vector_file_name(path));
    std::size_t number = 1;
    for (std::size_t start = 0; start < text.size(); ++number) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        reader.line(std::string_view(text).substr(start, end - start), number);
        start = end + 1;
    }
    return reader.finish();
}

}  // namespace warp::test
