// The ACVP harness through the real binary (WARPCRYPT_ACVP_BIN), as a user or a CI job runs it:
// every backend under test (backends_under_test.hpp) answers every NIST ACVP suite under
// vectors/acvp, and a CHACHA20-POLY1305 suite built here from RFC 8439 and Wycheproof, checked
// with --expected. Each run writes the harness's verdict line to
// test-reports/acvp/<backend>__<suite>.txt. The same suites in-process too, through the library
// the binary is built on (respond() and compare()): the only way they reach a kernel on an
// emulated CPU, where a test cannot start a child process (tests/emulated). Then the exit codes
// (1: a wrong expected answer; 2: a bad backend or prompt), the shape of a response, and CTR's
// internal IV generation against OpenSSL.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/registry.hpp"
#include "tests/acvp/acvp.hpp"
#include "tests/support/backends_under_test.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/report.hpp"
#include "tests/support/vectors.hpp"

extern char** environ;

namespace warp::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr std::string_view kChaChaSuite = "CHACHA20-POLY1305-1.0";

// ---- Files and the binary -----------------------------------------------------------------

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
public:
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "warpcrypt-acvp-test-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    fs::path operator/(std::string_view name) const { return path_ / name; }

private:
    fs::path path_;
};

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

Json read_json(const fs::path& path) { return Json::parse(read_text(path)); }

void write_json(const fs::path& path, const Json& json) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << json.dump(2) << '\n';
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

struct RunResult {
    int exit_code = -1;  // -1: not started, or killed by a signal
    std::string out;     // stdout: the response
    std::string err;     // stderr: the verdict or the error

    // The last line of stderr, without its newline: the harness's verdict.
    std::string verdict() const {
        std::string line = err;
        while (!line.empty() && line.back() == '\n') line.pop_back();
        const std::size_t nl = line.rfind('\n');
        return nl == std::string::npos ? line : line.substr(nl + 1);
    }
};

// Runs warpcrypt-acvp with `args`, without a shell (arguments pass untouched); stdout and
// stderr go to files, so a large response cannot fill a pipe.
RunResult run_acvp(const std::vector<std::string>& args) {
    const TempDir dir;
    const std::string out_path = (dir / "stdout").string();
    const std::string err_path = (dir / "stderr").string();

    std::vector<std::string> argv_text;
#ifdef WARPCRYPT_TEST_EMULATOR
    // A cross build runs the harness under the tests' emulator (qemu-user cannot exec a
    // foreign binary by itself): its words, then the harness. posix_spawnp finds it on PATH.
    std::istringstream emulator(WARPCRYPT_TEST_EMULATOR);
    for (std::string word; emulator >> word;) argv_text.push_back(word);
#endif
    argv_text.push_back(WARPCRYPT_ACVP_BIN);
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);

    RunResult result;
    if (spawned != 0) {
        result.err = "cannot start " + argv_text[0] + ": " + std::strerror(spawned);
        return result;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return result;
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    result.out = read_text(out_path);
    result.err = read_text(err_path);
    return result;
}

fs::path nist_dir(std::string_view suite) { return vector_path("acvp") / suite; }

// ---- Which backend can answer which suite ---------------------------------------------------

bool backend_provides(const Backend& backend, std::string_view suite) {
    if (suite.starts_with("ACVP-AES-GCM")) return backend.aes_gcm != nullptr;
    if (suite.starts_with("ACVP-AES-")) return backend.aes != nullptr;  // ECB, CTR: raw AES
    if (suite == kChaChaSuite) return backend.chacha20_poly1305 != nullptr;
    return true;  // a suite the harness does not know: let the harness say so
}

// The NIST suites under vectors/acvp ("ACVP-AES-CTR-1.0", ...), sorted. Listed when the test
// program starts, so a new suite there becomes a new test without editing this file.
std::vector<std::string> nist_suites() {
    std::vector<std::string> suites;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(vector_path("acvp"), ec))
        if (entry.is_directory() && entry.path().filename().string().starts_with("ACVP-"))
            suites.push_back(entry.path().filename().string());
    std::sort(suites.begin(), suites.end());
    return suites;
}

struct SuiteParam {
    const Backend* backend;
    std::string suite;
};

void PrintTo(const SuiteParam& p, std::ostream* os) { *os << p.backend->name << " " << p.suite; }

std::string suite_test_name(const ::testing::TestParamInfo<SuiteParam>& p) {
    return param_name(p.param.backend->name, p.param.suite);
}

// Runs `suite` on `backend` with --expected: every case must match, and stdout must hold the
// response to the same suite.
void expect_suite_matches(const Backend& backend, std::string_view suite, const fs::path& prompt,
                          const fs::path& expected) {
    const RunResult run = run_acvp(
        {"--backend", std::string(backend.name), "--expected", expected.string(), prompt.string()});
    if (run.exit_code == 0 || run.exit_code == 1)
        write_report("acvp", std::string(backend.name) + "__" + std::string(suite), run.verdict());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.verdict().find(" cases match"), std::string::npos) << run.err;

    const Json response = Json::parse(run.out);
    EXPECT_EQ(response["algorithm"].get<std::string>() + "-" +
                  response["revision"].get<std::string>(),
              suite);
    EXPECT_EQ(response["testGroups"].size(), read_json(expected)["testGroups"].size());
}

// ---- The NIST suites --------------------------------------------------------------------------

TEST(AcvpFiles, TheThreeNistSuitesArePresent) {
    const std::vector<std::string> suites = nist_suites();
    const std::set<std::string> found(suites.begin(), suites.end());
    for (const char* suite : {"ACVP-AES-CTR-1.0", "ACVP-AES-ECB-1.0", "ACVP-AES-GCM-1.0"})
        EXPECT_TRUE(found.count(suite)) << suite << " missing under " << vector_path("acvp");
}

std::vector<SuiteParam> nist_params() {
    std::vector<SuiteParam> params;
    for (const Backend* backend : backends_under_test())
        for (const std::string& suite : nist_suites())
            if (backend_provides(*backend, suite)) params.push_back({backend, suite});
    return params;
}

class NistSuite : public ::testing::TestWithParam<SuiteParam> {};

TEST_P(NistSuite, EveryCaseMatchesTheExpectedResults) {
    const Backend& backend = *GetParam().backend;
    const std::string& suite = GetParam().suite;
    expect_suite_matches(backend, suite, nist_dir(suite) / "prompt.json",
                         nist_dir(suite) / "expectedResults.json");
}

INSTANTIATE_TEST_SUITE_P(Acvp, NistSuite, ::testing::ValuesIn(nist_params()), suite_test_name);

// The suite's answers from the library in this process, compared with its expected results.
void expect_matches_in_process(const Backend& backend, const Json& prompt, const Json& expected) {
    const acvp::TestIndex expected_index(expected);
    const Json response = acvp::respond(prompt, backend, &expected_index);
    const acvp::Verdict verdict = acvp::compare(response, expected);
    EXPECT_TRUE(verdict.all_match()) << acvp::verdict_line(verdict, backend.name);
    EXPECT_GT(verdict.cases, 0u);
}

class NistSuiteInProcess : public ::testing::TestWithParam<SuiteParam> {};

TEST_P(NistSuiteInProcess, EveryCaseMatchesTheExpectedResults) {
    const std::string& suite = GetParam().suite;
    expect_matches_in_process(*GetParam().backend, read_json(nist_dir(suite) / "prompt.json"),
                              read_json(nist_dir(suite) / "expectedResults.json"));
}

INSTANTIATE_TEST_SUITE_P(Acvp, NistSuiteInProcess, ::testing::ValuesIn(nist_params()),
                         suite_test_name);

// ---- CHACHA20-POLY1305: a suite in the ACVP shape (tests/acvp/README.md) ----------------------

// The RFC 8439 AEAD vectors and Wycheproof's 12-byte-nonce cases (the only size the suite
// allows), as a prompt and its expected results. Encrypt groups take the valid cases; decrypt
// groups take all of them, the invalid ones answered "testPassed": false. Groups are keyed
// by (direction, payloadLen, aadLen), as ACVP groups share their lengths.
struct ChaChaSuite {
    Json prompt;
    Json expected;
    std::size_t encrypt_cases = 0;
    std::size_t decrypt_cases = 0;
    std::size_t rejections = 0;
};

std::string hex(const Bytes& bytes) { return to_hex(bytes, true); }

ChaChaSuite chacha_suite() {
    std::vector<AeadCase> cases =
        read_rfc8439(vector_path("rfc8439/rfc8439_test_vectors.json")).aead_chacha20_poly1305;
    for (AeadCase& c :
         read_wycheproof_aead(vector_path("wycheproof/chacha20_poly1305_test.json")).cases)
        if (c.nonce.size() == kChunkNonceSize) cases.push_back(std::move(c));

    enum Direction { encrypt, decrypt };  // encrypt groups first, as NIST orders them
    std::map<std::tuple<Direction, std::size_t, std::size_t>, std::vector<const AeadCase*>> groups;
    for (const AeadCase& c : cases) {
        if (c.expect == Expectation::valid && c.pt)
            groups[{encrypt, c.pt->size(), c.aad.size()}].push_back(&c);
        if (c.expect != Expectation::acceptable)  // "either is fine" has no single answer
            groups[{decrypt, c.ct.size(), c.aad.size()}].push_back(&c);
    }

    ChaChaSuite suite;
    for (Json* file : {&suite.prompt, &suite.expected}) {
        (*file)["vsId"] = 0;
        (*file)["algorithm"] = "CHACHA20-POLY1305";
        (*file)["revision"] = "1.0";
        (*file)["isSample"] = true;
        (*file)["testGroups"] = Json::array();
    }
    int tg_id = 0;
    int tc_id = 0;
    for (const auto& [key, members] : groups) {
        const auto& [direction, payload_bytes, aad_bytes] = key;
        Json group{{"tgId", ++tg_id},      {"testType", "AFT"},
                   {"direction", direction == encrypt ? "encrypt" : "decrypt"},
                   {"keyLen", 256},         {"nonceLen", 96},
                   {"tagLen", 128},         {"payloadLen", 8 * payload_bytes},
                   {"aadLen", 8 * aad_bytes}, {"tests", Json::array()}};
        Json answers{{"tgId", tg_id}, {"tests", Json::array()}};
        for (const AeadCase* c : members) {
            Json test{{"tcId", ++tc_id}, {"key", hex(c->key)}, {"nonce", hex(c->nonce)},
                      {"aad", hex(c->aad)}};
            Json answer{{"tcId", tc_id}};
            if (direction == encrypt) {
                test["pt"] = hex(*c->pt);
                answer["ct"] = hex(c->ct);
                answer["tag"] = hex(c->tag);
                ++suite.encrypt_cases;
            } else {
                test["ct"] = hex(c->ct);
                test["tag"] = hex(c->tag);
                if (c->expect == Expectation::valid) {
                    answer["pt"] = hex(*c->pt);
                } else {
                    answer["testPassed"] = false;
                    ++suite.rejections;
                }
                ++suite.decrypt_cases;
            }
            group["tests"].push_back(std::move(test));
            answers["tests"].push_back(std::move(answer));
        }
        suite.prompt["testGroups"].push_back(std::move(group));
        suite.expected["testGroups"].push_back(std::move(answers));
    }
    return suite;
}

TEST(AcvpChaCha, SuiteHoldsEveryRfcAndWycheproofCase) {
    // RFC 8439: 2 valid; Wycheproof: 316 cases with a 12-byte nonce, 256 valid, 60 invalid
    // (vectors README, section 4). A loader that reads nothing must not pass as "all match".
    const ChaChaSuite suite = chacha_suite();
    EXPECT_EQ(suite.encrypt_cases, 2u + 256u);
    EXPECT_EQ(suite.decrypt_cases, 2u + 316u);
    EXPECT_EQ(suite.rejections, 60u);
}

std::vector<SuiteParam> chacha_params() {
    std::vector<SuiteParam> params;
    for (const Backend* backend : backends_under_test())
        if (backend_provides(*backend, kChaChaSuite))
            params.push_back({backend, std::string(kChaChaSuite)});
    return params;
}

class ChaChaOnBackend : public ::testing::TestWithParam<SuiteParam> {};

TEST_P(ChaChaOnBackend, EveryCaseMatchesTheExpectedResults) {
    const Backend& backend = *GetParam().backend;
    const ChaChaSuite suite = chacha_suite();
    const TempDir dir;
    write_json(dir / "prompt.json", suite.prompt);
    write_json(dir / "expectedResults.json", suite.expected);
    expect_suite_matches(backend, kChaChaSuite, dir / "prompt.json",
                         dir / "expectedResults.json");
}

INSTANTIATE_TEST_SUITE_P(Acvp, ChaChaOnBackend, ::testing::ValuesIn(chacha_params()),
                         suite_test_name);

class ChaChaInProcess : public ::testing::TestWithParam<SuiteParam> {};

TEST_P(ChaChaInProcess, EveryCaseMatchesTheExpectedResults) {
    const ChaChaSuite suite = chacha_suite();
    expect_matches_in_process(*GetParam().backend, suite.prompt, suite.expected);
}

INSTANTIATE_TEST_SUITE_P(Acvp, ChaChaInProcess, ::testing::ValuesIn(chacha_params()),
                         suite_test_name);

// ---- Exit codes --------------------------------------------------------------------------------

// GCM's expected results with one answer changed by `edit`, compared with the harness's
// answers on the default backend.
RunResult run_gcm_with_edited_expected(void (*edit)(Json& expected)) {
    Json expected = read_json(nist_dir("ACVP-AES-GCM-1.0") / "expectedResults.json");
    edit(expected);
    const TempDir dir;
    write_json(dir / "expected.json", expected);
    return run_acvp({"--expected", (dir / "expected.json").string(),
                     (nist_dir("ACVP-AES-GCM-1.0") / "prompt.json").string()});
}

TEST(AcvpExitCodes, AWrongTagInTheExpectedFileExitsOne) {
    const RunResult run = run_gcm_with_edited_expected([](Json& expected) {
        std::string& tag = expected["testGroups"][0]["tests"][0]["tag"].get_ref<std::string&>();
        tag[0] = tag[0] == '0' ? '1' : '0';
    });
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.verdict().find("1 mismatch"), std::string::npos) << run.err;
    EXPECT_NE(run.verdict().find("tgId 1 tcId 1: tag"), std::string::npos) << run.err;
}

TEST(AcvpExitCodes, ExpectingAcceptanceOfARejectedTagExitsOne) {
    // tcId 33 (tgId 3) must be rejected; an expected file that wants its (empty) plaintext
    // instead is wrong, and the harness must say so rather than release anything.
    const RunResult run = run_gcm_with_edited_expected([](Json& expected) {
        for (Json& test : expected["testGroups"][2]["tests"])
            if (test["tcId"] == 33) test = Json{{"tcId", 33}, {"pt", ""}};
    });
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.verdict().find("tcId 33: rejected"), std::string::npos) << run.err;
}

TEST(AcvpExitCodes, AnUnknownBackendExitsTwo) {
    const RunResult run = run_acvp(
        {"--backend", "nonesuch", (nist_dir("ACVP-AES-GCM-1.0") / "prompt.json").string()});
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_TRUE(run.err.starts_with("warpcrypt-acvp: error: ")) << run.err;
    EXPECT_NE(run.err.find("nonesuch"), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty());
}

TEST(AcvpExitCodes, AMissingPromptArgumentExitsTwo) {
    const RunResult run = run_acvp({});
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_TRUE(run.err.starts_with("warpcrypt-acvp: error: ")) << run.err;
}

TEST(AcvpExitCodes, AMalformedPromptExitsTwoNamingFileAndTest) {
    Json prompt = read_json(nist_dir("ACVP-AES-GCM-1.0") / "prompt.json");
    prompt["testGroups"][1]["tests"][2].erase("key");
    const TempDir dir;
    write_json(dir / "prompt.json", prompt);
    const RunResult run = run_acvp({(dir / "prompt.json").string()});
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_EQ(run.err, "warpcrypt-acvp: error: " + (dir / "prompt.json").string() +
                           ": tgId 2: tcId 18: missing field 'key'\n");
}

// Regression (tests/fuzz/regressions/fuzz-acvp-json/ctr-payload-len-near-2-63): rounding
// payloadLen up to whole bytes overflowed a signed integer (undefined behaviour; UBSan stops
// the asan suite there). It must be refused as malformed, naming payloadLen.
TEST(AcvpExitCodes, ACtrPayloadLenNear2To63ExitsTwoNamingIt) {
    const Json prompt = {
        {"vsId", 1}, {"algorithm", "ACVP-AES-CTR"}, {"revision", "1.0"},
        {"testGroups",
         {{{"tgId", 1}, {"testType", "AFT"}, {"direction", "encrypt"}, {"keyLen", 128},
           {"tests",
            {{{"tcId", 1}, {"key", "000102030405060708090a0b0c0d0e0f"},
              {"payloadLen", std::numeric_limits<std::int64_t>::max()}, {"pt", ""}}}}}}}};
    const TempDir dir;
    write_json(dir / "prompt.json", prompt);
    const RunResult run = run_acvp({(dir / "prompt.json").string()});
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_EQ(run.err, "warpcrypt-acvp: error: " + (dir / "prompt.json").string() +
                           ": tgId 1: tcId 1: field 'pt' holds 0 bits, too few or too many for "
                           "payloadLen 9223372036854775807\n");
}

// ---- The response itself ----------------------------------------------------------------------

TEST(AcvpResponse, IsShapedExactlyLikeNistsExpectedResults) {
    const fs::path dir = nist_dir("ACVP-AES-GCM-1.0");
    const RunResult run = run_acvp({(dir / "prompt.json").string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_TRUE(run.err.empty()) << run.err;
    EXPECT_EQ(Json::parse(run.out), read_json(dir / "expectedResults.json"));
}

Bytes openssl_aes_ctr(const Bytes& key, const Bytes& counter_block, const Bytes& in) {
    const EVP_CIPHER* cipher = key.size() == 16   ? EVP_aes_128_ctr()
                               : key.size() == 24 ? EVP_aes_192_ctr()
                                                  : EVP_aes_256_ctr();
    const std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(
        EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    Bytes out(in.size());
    int written = 0;
    if (EVP_EncryptInit_ex(ctx.get(), cipher, nullptr, key.data(), counter_block.data()) != 1 ||
        EVP_EncryptUpdate(ctx.get(), out.data(), &written, in.data(),
                          static_cast<int>(in.size())) != 1)
        throw std::runtime_error("OpenSSL AES-CTR failed");
    return out;
}

TEST(AcvpResponse, CtrEncryptPicksFreshRfc3686IvsWithoutAnExpectedFile) {
    const fs::path dir = nist_dir("ACVP-AES-CTR-1.0");
    const RunResult run = run_acvp({(dir / "prompt.json").string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const Json response = Json::parse(run.out);
    const Json prompt = read_json(dir / "prompt.json");

    std::set<std::string> ivs;
    std::size_t checked = 0;
    for (std::size_t g = 0; g < prompt["testGroups"].size(); ++g) {
        const Json& group = prompt["testGroups"][g];
        if (group["direction"] != "encrypt") continue;
        for (std::size_t t = 0; t < group["tests"].size(); ++t) {
            const Json& test = group["tests"][t];
            const Json& answer = response["testGroups"][g]["tests"][t];
            ASSERT_EQ(answer["tcId"], test["tcId"]);
            const Bytes iv = from_hex(answer["iv"].get<std::string>());
            ASSERT_EQ(iv.size(), 16u);
            EXPECT_EQ(to_hex({iv.data() + 12, 4}), "00000001") << "RFC 3686 counter block";
            ivs.insert(to_hex(iv));

            // The answer must be AES-CTR under the IV it reports, with the bits past
            // payloadLen cleared.
            Bytes want = openssl_aes_ctr(from_hex(test["key"].get<std::string>()), iv,
                                         from_hex(test["pt"].get<std::string>()));
            if (const int spare = test["payloadLen"].get<int>() % 8; spare != 0)
                want.back() &= static_cast<std::uint8_t>(0xFF << (8 - spare));
            EXPECT_EQ(answer["ct"].get<std::string>(), to_hex(want, true))
                << "tcId " << test["tcId"];
            ++checked;
        }
    }
    EXPECT_EQ(checked, 75u);
    EXPECT_EQ(ivs.size(), checked) << "IVs repeat";
}

}  // namespace
}  // namespace warp::test
