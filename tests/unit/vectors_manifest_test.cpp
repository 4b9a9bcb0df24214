// The committed test vectors are what their manifests say (tests/vectors/MANIFEST.md): every
// file in tests/vectors has a row, in MANIFEST.md or in its set's README.md, and its size and
// sha256 equal that row. An accidental edit (an editor that "fixes" CRLF line ends, say), a
// truncated checkout, or a file added without its provenance fails here, before any vector
// test can read fewer or different cases.
//
// This checks the project's own copy, where the sources are, whatever WARPCRYPT_VECTORS_DIR
// points the vector tests at.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/support/hex.hpp"

namespace warp::test {
namespace {

namespace fs = std::filesystem;

const fs::path kCommittedVectors = WARPCRYPT_COMMITTED_VECTORS_DIR;
// The sets, each a folder with its README.md (provenance, licence, table) and a licence file.
constexpr std::array<const char*, 8> kSets = {"acvp",     "cavp-gcm", "rfc8439", "wycheproof",
                                              "age-cctv", "mlkem",    "hpke",    "sha3"};

struct Row {
    std::uintmax_t bytes = 0;
    std::string sha256;
    std::string manifest;  // which file gave the row, for messages
};

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string sha256_hex(const std::string& data) {
    std::array<std::uint8_t, 32> digest{};
    unsigned int length = 0;
    if (EVP_Digest(data.data(), data.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1 ||
        length != digest.size()) {
        throw std::runtime_error("EVP_Digest(sha256) failed");
    }
    return to_hex(digest);
}

std::vector<std::string> table_cells(const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream in(line.substr(1));
    std::string cell;
    while (std::getline(in, cell, '|')) {
        const auto first = cell.find_first_not_of(' ');
        const auto last = cell.find_last_not_of(' ');
        cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    return cells;
}

// The rows of every "| file | bytes | sha256 |" table in `manifest`, keyed by the path
// relative to kCommittedVectors (rows name files relative to the manifest's folder).
void read_manifest(const fs::path& manifest, std::map<std::string, Row>& rows) {
    const std::string name = manifest.lexically_relative(kCommittedVectors).generic_string();
    const fs::path folder = manifest.parent_path().lexically_relative(kCommittedVectors);
    std::stringstream text(read_file(manifest));
    std::string line;
    bool in_table = false;
    std::size_t tables = 0;
    while (std::getline(text, line)) {
        if (line.rfind('|', 0) != 0) {
            in_table = false;
            continue;
        }
        const auto cells = table_cells(line);
        if (cells.size() >= 3 && cells[0] == "file" && cells[1] == "bytes" && cells[2] == "sha256") {
            in_table = true;
            ++tables;
            continue;
        }
        if (!in_table || cells.size() < 3 || cells[0].rfind("---", 0) == 0) continue;
        const std::string path = (folder / cells[0]).lexically_normal().generic_string();
        ASSERT_EQ(cells[2].size(), 64u) << name << ": the sha256 of " << cells[0];
        ASSERT_TRUE(rows.count(path) == 0) << path << " has rows in " << rows[path].manifest
                                           << " and " << name;
        rows[path] = Row{std::stoull(cells[1]), cells[2], name};
    }
    EXPECT_EQ(tables, 1u) << name << " must hold one \"| file | bytes | sha256 |\" table";
}

std::vector<fs::path> manifests() {
    std::vector<fs::path> found{kCommittedVectors / "MANIFEST.md"};
    for (const char* set : kSets) found.push_back(kCommittedVectors / set / "README.md");
    return found;
}

bool is_manifest(const fs::path& path) {
    for (const fs::path& manifest : manifests()) {
        if (path == manifest) return true;
    }
    return false;
}

std::map<std::string, Row> all_rows() {
    std::map<std::string, Row> rows;
    for (const fs::path& manifest : manifests()) {
        read_manifest(manifest, rows);
        if (testing::Test::HasFatalFailure()) break;
    }
    return rows;
}

TEST(VectorsManifest, EverySetHasItsReadmeAndLicence) {
    for (const char* set : kSets) {
        SCOPED_TRACE(set);
        EXPECT_TRUE(fs::is_regular_file(kCommittedVectors / set / "README.md"));
        EXPECT_TRUE(fs::is_regular_file(kCommittedVectors / set / "LICENSE"));
    }
    EXPECT_TRUE(fs::is_regular_file(kCommittedVectors / "MANIFEST.md"));
}

TEST(VectorsManifest, EveryListedFileHasItsRecordedSizeAndSha256) {
    const auto rows = all_rows();
    ASSERT_FALSE(HasFatalFailure());
    // 178 files came from the shared folder, 5 (sha3/) from NIST's vectors through narimiran/sha3;
    // 4 licence notices were written for this copy.
    EXPECT_EQ(rows.size(), 187u);
    for (const auto& [path, row] : rows) {
        SCOPED_TRACE(path + " (row in " + row.manifest + ")");
        const fs::path file = kCommittedVectors / path;
        ASSERT_TRUE(fs::is_regular_file(file)) << "listed but missing";
        const std::string data = read_file(file);
        EXPECT_EQ(data.size(), row.bytes);
        EXPECT_EQ(sha256_hex(data), row.sha256);
    }
}

TEST(VectorsManifest, EveryFileHasARow) {
    const auto rows = all_rows();
    ASSERT_FALSE(HasFatalFailure());
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(kCommittedVectors)) {
        if (entry.is_directory()) continue;
        const fs::path path = entry.path();
        if (is_manifest(path)) continue;
        ++files;
        const std::string relative = path.lexically_relative(kCommittedVectors).generic_string();
        EXPECT_TRUE(entry.is_regular_file()) << relative << " is not a regular file";
        EXPECT_EQ(rows.count(relative), 1u)
            << relative << " has no row in MANIFEST.md or its set's README.md";
    }
    EXPECT_EQ(files, rows.size());
}

}  // namespace
}  // namespace warp::test
