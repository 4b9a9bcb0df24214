// The age v1 format's community test vectors (C2SP/CCTV age/testdata, in tests/vectors/
// age-cctv; their layout in tests/vectors/README.md): every file through formats::age::decrypt,
// with its identities and passphrases. Each expected class maps to the causes warpcrypt gives
// it, and so to its exit codes (README, "age files"):
//   success          the plaintext's SHA-256 is `payload`
//   no match         wrong_key (exit 3); unsupported (exit 6) when no stanza is of a type
//                    warpcrypt knows, the rule both formats share (SPEC 4.4)
//   HMAC failure     wrong_key (exit 3): one outcome with "no match" (SPEC 4.3's reason)
//   header failure   corrupted, truncated or unsupported (exit 4, 5, 6); usage (exit 2) for
//                    an scrypt work factor over --kdf-max-memory
//   payload failure  corrupted or truncated (exit 4, 5), and what was released before the
//                    error hashes to `payload`: nothing unauthenticated, nothing held back
//   armor failure    corrupted (exit 4), an "age armor:" message
// The mlkem768x25519 (post-quantum) vectors are judged like every other: none is counted
// apart. The counts per class go to the test reports.
//
// Every vector runs twice: through the library (formats::age::decrypt into memory) and
// through the real binary (`warpcrypt decrypt -i ID -o -`, at one thread and at several),
// where stdout must carry exactly what the library released: CCTV's "all the plaintext that
// would have been released to the application" is what a user of the command gets.
#include <gtest/gtest.h>
#include <sodium.h>
#include <zlib.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "engine/error.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/age/age.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/x25519.hpp"
#include "tests/cli/process.hpp"
#include "tests/support/report.hpp"

namespace warp::formats::age::test {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

struct Vector {
    std::string name;
    std::string expect;
    std::optional<std::string> payload;  // SHA-256 hex
    std::vector<std::string> identities, passphrases;
    bool armored = false;
    bool compressed = false;
    Bytes file;
};

Bytes inflate_all(const Bytes& in) {
    Bytes out(in.size() * 4 + 1024);
    for (;;) {
        uLongf size = static_cast<uLongf>(out.size());
        const int rc = ::uncompress(out.data(), &size, in.data(), static_cast<uLong>(in.size()));
        if (rc == Z_OK) {
            out.resize(size);
            return out;
        }
        if (rc != Z_BUF_ERROR) throw std::runtime_error("zlib: cannot inflate");
        out.resize(out.size() * 2);
    }
}

Vector load(const fs::path& path) {
    std::ifstream stream(path, std::ios::binary);
    const std::string all{std::istreambuf_iterator<char>(stream), {}};
    const std::size_t split = all.find("\n\n");
    if (split == std::string::npos) throw std::runtime_error(path.string() + ": no blank line");
    Vector v;
    v.name = path.filename().string();
    std::istringstream header(all.substr(0, split));
    for (std::string line; std::getline(header, line);) {
        const std::size_t colon = line.find(": ");
        const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
        if (key == "expect") v.expect = value;
        if (key == "payload") v.payload = value;
        if (key == "identity") v.identities.push_back(value);
        if (key == "passphrase") v.passphrases.push_back(value);
        if (key == "armored") v.armored = value == "yes";
        if (key == "compressed") v.compressed = value == "zlib";
    }
    v.file.assign(all.begin() + static_cast<std::ptrdiff_t>(split + 2), all.end());
    if (v.compressed) v.file = inflate_all(v.file);
    return v;
}

std::string sha256_hex(std::span<const std::uint8_t> bytes) {
    std::array<std::uint8_t, crypto_hash_sha256_BYTES> digest{};
    crypto_hash_sha256(digest.data(), bytes.data(), bytes.size());
    static const char* hex = "0123456789abcdef";
    std::string text;
    for (std::uint8_t b : digest) {
        text += hex[b >> 4];
        text += hex[b & 15];
    }
    return text;
}

// How a file without a stanza of a known type is refused (formats/age/unlock.cpp).
constexpr std::string_view kNoKnownStanza = "unsupported stanzas: none of the file's";

struct Outcome {
    std::optional<ErrorCause> cause;  // nullopt: it decrypted
    std::string message;
    Bytes released;
};

Outcome run(const Vector& v) {
    Options options;
    options.threads = 1;
    // Read as the CLI reads an identity file: every kind, X25519 and post-quantum.
    std::string identities;
    for (const std::string& text : v.identities) identities += text + "\n";
    if (!identities.empty())
        for (Secret& identity : decode_identity_file_text(identities))
            options.identities.push_back(std::move(identity));
    for (const std::string& text : v.passphrases)
        options.identities.push_back(Secret{KeyType::passphrase, SecretBytes(text), {}});
    Outcome outcome;
    stream::SpanSource in(v.file);
    stream::VectorSink out;
    try {
        decrypt(in, out, options, v.armored);
    } catch (const Error& error) {
        outcome.cause = error.cause();
        outcome.message = error.what();
    }
    outcome.released = std::move(out.bytes);
    return outcome;
}

// Whether `outcome` is what the class `expect` allows (the mapping at the top).
std::string judge(const Vector& v, const Outcome& o) {
    auto is = [&](std::initializer_list<ErrorCause> causes) {
        return o.cause && std::find(causes.begin(), causes.end(), *o.cause) != causes.end();
    };
    if (v.expect == "success") {
        if (o.cause) return "failed: " + o.message;
        if (v.payload && sha256_hex(o.released) != *v.payload) return "wrong plaintext";
        return "";
    }
    if (v.expect == "no match" && is({ErrorCause::unsupported}) &&
        o.message.starts_with(kNoKnownStanza))
        return "";
    if (v.expect == "no match" || v.expect == "HMAC failure")
        return is({ErrorCause::wrong_key}) ? "" : "not wrong_key: " + o.message;
    if (v.expect == "header failure") {
        if (is({ErrorCause::corrupted, ErrorCause::truncated, ErrorCause::unsupported})) return "";
        if (is({ErrorCause::usage}) && o.message.find("--kdf-max-memory") != std::string::npos)
            return "";
        return "not a header failure: " + (o.cause ? o.message : "it decrypted");
    }
    if (v.expect == "payload failure") {
        if (!is({ErrorCause::corrupted, ErrorCause::truncated}))
            return "not a payload failure: " + (o.cause ? o.message : "it decrypted");
        if (v.payload && sha256_hex(o.released) != *v.payload)
            return "released " + std::to_string(o.released.size()) +
                   " bytes that are not the authenticated prefix (" + o.message + ")";
        return "";
    }
    if (v.expect == "armor failure")
        return is({ErrorCause::corrupted}) && o.message.find("age armor:") != std::string::npos
                   ? ""
                   : "not an armor failure: " + (o.cause ? o.message : "it decrypted");
    return "unknown class " + v.expect;
}

std::vector<std::string> vector_names() {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(WARPCRYPT_AGE_CCTV_DIR)) {
        const std::string name = entry.path().filename().string();
        if (name != "LICENSE" && name != "README.md") names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

// Every vector in one test, so that the counts per class are one run's: each class's line
// goes to the test reports (tests/support/report.hpp), which scripts/test.sh prints.
TEST(AgeCctv, EveryVectorAsSpecified) {
    struct Count {
        int vectors = 0, passed = 0;
    };
    std::map<std::string, Count> counts;
    int hybrid_vectors = 0;
    for (const std::string& name : vector_names()) {
        SCOPED_TRACE(name);
        const Vector v = load(fs::path(WARPCRYPT_AGE_CCTV_DIR) / name);
        const Outcome outcome = run(v);
        const std::string verdict = judge(v, outcome);
        Count& count = counts[v.expect];
        ++count.vectors;
        if (name.find("hybrid") != std::string::npos) ++hybrid_vectors;
        // A post-quantum file is no longer unsupported: a stanza type this build knows.
        EXPECT_FALSE(outcome.cause == ErrorCause::unsupported &&
                     outcome.message.find("mlkem768x25519") != std::string::npos)
            << name;
        EXPECT_EQ(verdict, "") << name << " (" << v.expect << ")";
        if (verdict.empty()) ++count.passed;
    }
    int total = 0;
    for (const auto& [klass, count] : counts) {
        total += count.vectors;
        warp::test::write_report(
            "vectors", "age-cctv " + klass,
            "formats/age  age-cctv (" + klass + ")  " + std::to_string(count.vectors) +
                " vectors: " + std::to_string(count.passed) + " passed, " +
                std::to_string(count.vectors - count.passed) + " failed");
    }
    EXPECT_EQ(total, 143) << "the CCTV set has 143 vectors";
    EXPECT_EQ(hybrid_vectors, 19) << "19 of them are post-quantum (hybrid)";
}

// ---- Through the binary -----------------------------------------------------------------

// Exit codes (README, "Exit codes") of the classes, as the library test maps causes.
constexpr int kExitUsage = 2, kExitWrongKey = 3, kExitCorrupted = 4, kExitTruncated = 5,
              kExitUnsupported = 6;

// Whether the binary's outcome is what the class `expect` allows; "" when it is.
std::string judge_binary(const Vector& v, const clitest::Outcome& o) {
    const int code = o.exit_code;
    const auto released = std::span(reinterpret_cast<const std::uint8_t*>(o.out.data()), o.out.size());
    const std::string what = "exit " + std::to_string(code) + ": " + o.err;
    if (v.expect == "success") {
        if (code != 0) return "failed, " + what;
        if (v.payload && sha256_hex(released) != *v.payload) return "wrong plaintext";
        return "";
    }
    if (v.expect == "no match" && code == kExitUnsupported &&
        o.err.find(kNoKnownStanza) != std::string::npos)
        return "";
    if (v.expect == "no match" || v.expect == "HMAC failure")
        return code == kExitWrongKey ? "" : "not exit 3, " + what;
    if (v.expect == "header failure") {
        if (code == kExitCorrupted || code == kExitTruncated || code == kExitUnsupported)
            return "";
        if (code == kExitUsage && o.err.find("--kdf-max-memory") != std::string::npos) return "";
        return "not a header failure, " + what;
    }
    if (v.expect == "payload failure") {
        if (code != kExitCorrupted && code != kExitTruncated)
            return "not a payload failure, " + what;
        if (v.payload && sha256_hex(released) != *v.payload)
            return "released " + std::to_string(o.out.size()) +
                   " bytes on stdout that are not the authenticated prefix (" + what + ")";
        return "";
    }
    if (v.expect == "armor failure")
        return code == kExitCorrupted && o.err.find("age armor:") != std::string::npos
                   ? ""
                   : "not an armor failure, " + what;
    return "unknown class " + v.expect;
}

// A private folder for one vector's files (the binary refuses identity files others can read).
class Scratch {
public:
    Scratch() {
        std::string pattern = (fs::temp_directory_path() / "warpcrypt-cctv-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
        dir_ = pattern;
    }
    ~Scratch() { fs::remove_all(dir_); }
    fs::path write(const std::string& name, std::span<const std::uint8_t> bytes) const {
        const fs::path path = dir_ / name;
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()),
                   static_cast<std::streamsize>(bytes.size()));
        fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
        return path;
    }

private:
    fs::path dir_;
};

TEST(AgeCctv, EveryVectorThroughTheBinary) {
    int passed = 0, vectors = 0;
    const Scratch scratch;
    for (const std::string& name : vector_names()) {
        SCOPED_TRACE(name);
        const Vector v = load(fs::path(WARPCRYPT_AGE_CCTV_DIR) / name);
        ++vectors;
        std::string identities;
        for (const std::string& text : v.identities) identities += text + "\n";
        // A vector without an identity or passphrase runs with an unrelated identity: the
        // command needs a key to start.
        if (identities.empty() && v.passphrases.empty()) {
            X25519Identity unrelated = generate_x25519_identity();
            std::string text = encode_identity(unrelated.secret);
            identities = text + "\n";
            sodium_memzero(text.data(), text.size());
        }
        const fs::path file = scratch.write("file", v.file);
        std::vector<std::string> args = {"decrypt", file.string(), "-o", "-"};
        clitest::Command command;
        if (!identities.empty()) {
            const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(identities.data()),
                                         identities.size());
            args.insert(args.end(), {"-i", scratch.write("identity", bytes).string()});
        }
        if (!v.passphrases.empty()) {
            args.insert(args.end(), {"--passphrase-fd", "3"});
            command.fd_bytes[3] = v.passphrases.front() + "\n";
        }
        std::string verdict;
        clitest::Outcome outcome;
        for (const char* threads : {"1", "3"}) {
            command.args = args;
            command.args.insert(command.args.end(), {"--threads", threads});
            outcome = clitest::run(command);
            verdict = judge_binary(v, outcome);
            if (!verdict.empty()) {
                verdict += std::string(" (--threads ") + threads + ")";
                break;
            }
        }
        EXPECT_EQ(verdict, "") << name << " (" << v.expect << ")";
        if (verdict.empty()) ++passed;
    }
    warp::test::write_report(
        "vectors", "age-cctv through the binary",
        "cli/warpcrypt  age-cctv (every class, `decrypt -o -` at 1 and 3 threads)  " +
            std::to_string(vectors) + " vectors: " + std::to_string(passed) + " passed, " +
            std::to_string(vectors - passed) + " failed");
    EXPECT_EQ(vectors, 143) << "the CCTV set has 143 vectors";
}

}  // namespace
}  // namespace warp::formats::age::test
