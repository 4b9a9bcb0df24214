// The fuzz targets outside libFuzzer: runs LLVMFuzzerTestOneInput once on every file of the
// directories (or files) named on the command line, so that every build with tests (gcc, the
// asan preset, the AArch64 cross build) re-checks the seed corpus and every input that once
// crashed. A broken invariant aborts, which fails the CTest entry.
//
// Usage: fuzz-NAME-replay DIR_OR_FILE...   (names starting with '.' are skipped; a directory
// that does not exist counts as empty, so a target may have no regressions yet)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs_in(const fs::path& where) {
    std::vector<fs::path> files;
    if (fs::is_regular_file(where)) files.push_back(where);
    if (fs::is_directory(where))
        for (const fs::directory_entry& entry : fs::directory_iterator(where))
            if (entry.is_regular_file() && entry.path().filename().string().front() != '.')
                files.push_back(entry.path());
    std::sort(files.begin(), files.end());  // the same order every run
    return files;
}

std::vector<std::uint8_t> read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "fuzz-replay: cannot read %s\n", path.c_str());
        std::exit(2);
    }
    return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t total = 0;
    for (int i = 1; i < argc; ++i) {
        const std::vector<fs::path> files = inputs_in(argv[i]);
        for (const fs::path& file : files) {
            const std::vector<std::uint8_t> bytes = read_file(file);
            std::fprintf(stderr, "fuzz-replay: %s\n", file.c_str());
            LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
        }
        std::printf("fuzz-replay: %zu inputs from %s\n", files.size(), argv[i]);
        total += files.size();
    }
    if (total == 0) {
        std::fprintf(stderr, "fuzz-replay: no inputs (expected at least the seed corpus)\n");
        return 1;
    }
    return 0;
}
