// Running one AEAD vector case through a backend (declared in vectors.hpp): the rules of
// valid, invalid and acceptable from Wycheproof's schema, applied to CAVP and RFC cases too.
#include <algorithm>
#include <sstream>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "tests/support/vectors.hpp"

namespace warp::test {
namespace {

constexpr std::uint8_t kPoison = 0xa5;  // pre-fills outputs so that "zeroed" is visible

// Hex of at most the first 48 bytes: enough to see a difference, short enough to read.
std::string short_hex(const Bytes& bytes) {
    constexpr std::size_t kShown = 48;
    if (bytes.size() <= kShown) return to_hex(bytes);
    return to_hex(std::span(bytes).first(kShown)) + "...(" + std::to_string(bytes.size()) +
           " bytes)";
}

std::string differs(std::string_view what, const Bytes& expected, const Bytes& got) {
    return std::string(what) + " differs: expected " + short_hex(expected) + ", got " +
           short_hex(got);
}

AeadChunk chunk(const AeadCase& c, const std::uint8_t* in, std::uint8_t* out, std::size_t len,
                std::uint8_t* tag) {
    return AeadChunk{c.nonce.data(), c.nonce.size(), c.aad.data(), c.aad.size(), in, out, len, tag};
}

struct Sealed {
    Bytes ct;
    Bytes tag;
};

Sealed seal(const AeadKey& key, const AeadCase& c, const Bytes& pt) {
    Sealed s{Bytes(pt.size(), kPoison), Bytes(c.tag.size(), kPoison)};
    const AeadChunk one = chunk(c, pt.data(), s.ct.data(), pt.size(), s.tag.data());
    key.seal({&one, 1}, c.tag.size());
    return s;
}

struct Opened {
    std::size_t failures = 0;
    bool ok = false;
    Bytes pt;
};

Opened open(const AeadKey& key, const AeadCase& c) {
    Opened o;
    o.pt.assign(c.ct.size(), kPoison);
    Bytes tag = c.tag;  // the chunk's tag pointer is non-const; keep the case untouched
    bool ok = true;     // the backend must clear it on failure
    const AeadChunk one = chunk(c, c.ct.data(), o.pt.data(), c.ct.size(), tag.data());
    o.failures = key.open({&one, 1}, &ok, c.tag.size());
    o.ok = ok;
    return o;
}

bool parameters_allowed(Aead aead, const AeadCase& c) {
    return aead_key_len_ok(aead, c.key.size()) && aead_nonce_len_ok(aead, c.nonce.size()) &&
           aead_tag_len_ok(aead, c.tag.size());
}

CaseResult mismatch(std::string detail) { return {CaseVerdict::mismatch, std::move(detail)}; }

// An invalid case whose sizes the API forbids: constructing the key or opening must throw
// Error(invalid_argument) before any backend code runs.
CaseResult expect_refusal(const AeadImpl& impl, const AeadCase& c) {
    try {
        const AeadKey key(impl, c.key);
        open(key, c);
    } catch (const Error& e) {
        if (e.cause() == ErrorCause::invalid_argument) return {CaseVerdict::refused_by_api, {}};
        return mismatch(std::string("refused with the wrong cause: ") + e.what());
    }
    return mismatch("the API accepted a key of " + std::to_string(c.key.size()) +
                    " bytes, nonce of " + std::to_string(c.nonce.size()) + " bytes, tag of " +
                    std::to_string(c.tag.size()) + " bytes");
}

CaseResult check_valid(const AeadKey& key, const AeadCase& c) {
    const Sealed s = seal(key, c, *c.pt);
    if (s.ct != c.ct) return mismatch("seal: " + differs("ct", c.ct, s.ct));
    if (s.tag != c.tag) return mismatch("seal: " + differs("tag", c.tag, s.tag));
    const Opened o = open(key, c);
    if (o.failures != 0 || !o.ok) return mismatch("open: a valid case failed to authenticate");
    if (o.pt != *c.pt) return mismatch("open: " + differs("plaintext", *c.pt, o.pt));
    return {CaseVerdict::opened, {}};
}

CaseResult check_rejected(const AeadKey& key, const AeadCase& c) {
    const Opened o = open(key, c);
    if (o.failures != 1 || o.ok) return mismatch("open: an invalid case authenticated");
    if (std::any_of(o.pt.begin(), o.pt.end(), [](std::uint8_t b) { return b != 0; }))
        return mismatch("open: output of a failed case was not zeroed");
    if (c.pt && c.pt->size() == c.ct.size()) {
        const Sealed s = seal(key, c, *c.pt);
        if (s.ct == c.ct && s.tag == c.tag) return mismatch("seal: produced the invalid output");
    }
    return {CaseVerdict::rejected, {}};
}

CaseResult check_acceptable(const AeadKey& key, const AeadCase& c) {
    const Opened o = open(key, c);
    if (o.failures != 0) return check_rejected(key, c);
    return check_valid(key, c);
}

}  // namespace

CaseResult check_aead_case(const AeadImpl& impl, const AeadCase& c) {
    if (!parameters_allowed(impl.aead, c)) {
        if (c.expect == Expectation::valid)
            return mismatch("a valid case has sizes the API refuses (key " +
                            std::to_string(c.key.size()) + ", nonce " +
                            std::to_string(c.nonce.size()) + ", tag " +
                            std::to_string(c.tag.size()) + " bytes)");
        return expect_refusal(impl, c);
    }
    try {
        const AeadKey key(impl, c.key);
        switch (c.expect) {
            case Expectation::valid:
                if (!c.pt) return mismatch("a valid case without a plaintext");
                return check_valid(key, c);
            case Expectation::invalid:
                return check_rejected(key, c);
            case Expectation::acceptable:
                if (!c.pt) return check_rejected(key, c);
                return check_acceptable(key, c);
        }
    } catch (const Error& e) {
        return mismatch(std::string("unexpected error: ") + e.what());
    }
    return mismatch("unknown expectation");
}

void AeadFileTally::add(const AeadCase& c, const CaseResult& result) {
    ++cases;
    switch (result.verdict) {
        case CaseVerdict::opened: ++opened; break;
        case CaseVerdict::rejected: ++rejected; break;
        case CaseVerdict::refused_by_api:
            ++rejected;
            ++refused_by_api;
            break;
        case CaseVerdict::mismatch:
            ++mismatches;
            mismatch_details.push_back(c.file + " " + c.id + ": " + result.detail);
            break;
    }
}

std::string AeadFileTally::report_line(std::string_view backend, std::string_view file) const {
    std::ostringstream line;
    line << backend << "  " << file << "  " << cases << " cases: " << opened << " sealed and opened, "
         << rejected << " rejected as required";
    if (refused_by_api != 0) line << " (" << refused_by_api << " refused by the API)";
    line << ", " << mismatches << " mismatches";
    return line.str();
}

std::string test_name_part(std::string_view text) {
    std::string name(text);
    for (char& ch : name) {
        const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                          (ch >= '0' && ch <= '9');
        if (!keep) ch = '_';
    }
    return name;
}

std::string param_name(std::string_view backend, std::string_view file) {
    const std::size_t slash = file.find_last_of('/');
    return test_name_part(std::string(backend) + "_" +
                          std::string(slash == std::string_view::npos ? file : file.substr(slash + 1)));
}

}  // namespace warp::test
