// The one test-vector loader (docs/design.md, "tests/ and scripts/"): plain structs and one reader
// per format. tests/vectors/README.md describes every file these readers accept.
//
// Every reader takes a path and returns all the cases in the file, in file order; each case
// carries the file's name and its own id, so a failure can be traced to one line of one file.
// A malformed file (bad hex, a missing field, a length that contradicts its header, a case in
// the wrong place) throws warp::Error(ErrorCause::bad_input) naming the file and the line or
// case: a broken file must never read as "fewer cases".
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/aead.hpp"
#include "tests/support/hex.hpp"

namespace warp::test {

// The vectors folder: the WARPCRYPT_VECTORS_DIR environment variable when it is set and not
// empty, else the WARPCRYPT_VECTORS_DIR compile definition (by default the project's own copy,
// tests/vectors).
std::filesystem::path vectors_dir();
// `relative` (e.g. "cavp-gcm/gcmDecrypt128.rsp") inside vectors_dir().
std::filesystem::path vector_path(std::string_view relative);
// How cases name their file: the path relative to vectors_dir() when it lies inside it
// ("cavp-gcm/gcmDecrypt128.rsp"), else the path as given.
std::string vector_file_name(const std::filesystem::path& path);

// What a case demands (Wycheproof's `result`; CAVP: a PT line is valid, FAIL invalid).
enum class Expectation {
    valid,       // seal gives ct || tag, open gives the plaintext
    invalid,     // open must fail and release nothing (or the API must refuse the parameters)
    acceptable,  // either is fine, but success must give the right plaintext
};

// One AEAD case: CAVP GCM, Wycheproof AEAD and the RFC 8439 AEAD array all read into this.
struct AeadCase {
    std::string file;  // vector_file_name() of the file it came from
    std::string id;    // "line 17, Count = 0" (CAVP), "tcId 12" (Wycheproof), "RFC8439 2.8.2"
    Bytes key;
    Bytes nonce;
    Bytes aad;
    std::optional<Bytes> pt;  // absent where the file does not give it (CAVP FAIL cases)
    Bytes ct;                 // without the tag
    Bytes tag;                // as long as the file says: CAVP tags may be truncated
    Expectation expect = Expectation::valid;
    std::vector<std::string> flags;  // Wycheproof flags, empty elsewhere
    std::string comment;             // Wycheproof comment, empty elsewhere
};

// NIST CAVP GCMVS .rsp (cavp-gcm/gcmEncryptExtIV*.rsp, gcmDecrypt*.rsp): sections headed by
// [Keylen] [IVlen] [PTlen] [AADlen] [Taglen] (bits), cases Count/Key/IV/PT/AAD/CT/Tag in the
// encrypt files, Count/Key/IV/CT/AAD/Tag then PT or a bare FAIL in the decrypt files. CRLF or
// LF. Every field's length is checked against its section header.
std::vector<AeadCase> read_cavp_gcm(const std::filesystem::path& path);

// Project Wycheproof AEAD JSON (aead_test_schema_v1: aes_gcm_test.json,
// chacha20_poly1305_test.json). Sizes in the groups are bits; `ct` excludes the tag. The
// number of cases must equal the file's numberOfTests.
struct WycheproofAeadFile {
    std::string algorithm;  // "AES-GCM", "CHACHA20-POLY1305"
    std::vector<AeadCase> cases;
};
WycheproofAeadFile read_wycheproof_aead(const std::filesystem::path& path);

// RFC 8439 (rfc8439/rfc8439_test_vectors.json), one struct per array.
struct ChaCha20BlockCase {
    std::string file, id;
    Bytes key;    // 32 bytes
    Bytes nonce;  // 12 bytes
    std::uint32_t counter = 0;
    Bytes keystream;  // the 64-byte block
};
struct ChaCha20EncryptCase {
    std::string file, id;
    Bytes key, nonce;
    std::uint32_t counter = 0;  // initial block counter
    Bytes pt, ct;
};
struct Poly1305Case {
    std::string file, id;
    Bytes key;  // 32-byte one-time key r || s
    Bytes msg;
    Bytes tag;  // 16 bytes
};
struct Poly1305KeyGenCase {
    std::string file, id;
    Bytes key, nonce;
    Bytes otk;  // 32 bytes: the start of the ChaCha20 block with counter 0
};
struct Rfc8439Vectors {
    std::vector<ChaCha20BlockCase> chacha20_block;
    std::vector<ChaCha20EncryptCase> chacha20_encrypt;
    std::vector<Poly1305Case> poly1305;
    std::vector<Poly1305KeyGenCase> poly1305_key_gen;
    std::vector<AeadCase> aead_chacha20_poly1305;  // all valid
};
Rfc8439Vectors read_rfc8439(const std::filesystem::path& path);

// FIPS-197 Appendix C (and B) single-block AES cases (acvp/fips197_appendix_c.json).
struct AesBlockCase {
    std::string file, id;
    Bytes key;  // 16, 24 or 32 bytes, matching keyLen
    Bytes pt;   // 16 bytes
    Bytes ct;   // 16 bytes
};
std::vector<AesBlockCase> read_fips197(const std::filesystem::path& path);

// ---- Running AEAD cases (vectors_check.cpp), shared by the vector tests and the ACVP harness.

enum class CaseVerdict {
    opened,          // valid (or acceptable): sealed to ct || tag and opened to the plaintext
    rejected,        // invalid (or acceptable): open failed, output zeroed
    refused_by_api,  // invalid: parameters the API forbids (e.g. 0-byte GCM IV), and AeadKey
                     // threw Error(invalid_argument) as its contract says
    mismatch,        // anything else; `detail` says what
};
struct CaseResult {
    CaseVerdict verdict = CaseVerdict::mismatch;
    std::string detail;  // empty unless mismatch
};

// Runs one case through `impl` via AeadKey, with the tag length the case gives:
// - valid: seal(pt) must give ct and tag; open(ct, tag) must succeed and give pt.
// - invalid: open must fail, return 1, clear ok and zero the output (pre-filled with a
//   non-zero pattern to see it); where the file gives the plaintext, seal(pt) must not give
//   ct || tag either. If the key, nonce or tag length is one the API forbids, the API must
//   throw Error(invalid_argument) instead.
// - acceptable: open may fail; if it succeeds the plaintext must be right.
// warp::Error from the backend is a mismatch; any other exception propagates.
CaseResult check_aead_case(const AeadImpl& impl, const AeadCase& c);

// Counts per file, for the report line and the test's assertions.
struct AeadFileTally {
    std::size_t cases = 0;
    std::size_t opened = 0;
    std::size_t rejected = 0;  // includes refused_by_api
    std::size_t refused_by_api = 0;
    std::size_t mismatches = 0;
    std::vector<std::string> mismatch_details;  // "<id>: <detail>", one per mismatch

    void add(const AeadCase& c, const CaseResult& result);
    // "scalar  cavp-gcm/gcmDecrypt128.rsp  1875 cases: 896 sealed and opened, 979 rejected as
    // required, 0 mismatches".
    std::string report_line(std::string_view backend, std::string_view file) const;
};

// A GoogleTest parameter name from a backend and a file: "scalar_gcmDecrypt128_rsp".
std::string param_name(std::string_view backend, std::string_view file);
// `text` with every character GoogleTest does not allow in a test name replaced by '_'
// (backend names such as "x86-vaes" have dashes).
std::string test_name_part(std::string_view text);

}  // namespace warp::test
