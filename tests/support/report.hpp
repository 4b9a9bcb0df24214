// Per-file test reports, so that the test output names the counts of cases per file.
// Each vector test (and each ACVP run) writes one line to its own file,
//     <report dir>/<category>/<name>.txt
// and prints the same line to stdout. The report dir is $WARPCRYPT_REPORT_DIR when set, else
// "test-reports" in the current directory (ctest runs the tests in the build directory).
// One file per test, not one shared file, so that tests running in parallel never interleave.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace warp::test {

std::filesystem::path report_dir();

// The file name write_report uses for `name`: every character outside [A-Za-z0-9._-]
// becomes '_' ("scalar__cavp-gcm/gcmDecrypt128.rsp" -> "scalar__cavp-gcm_gcmDecrypt128.rsp").
std::string report_file_name(std::string_view name);

// Writes `line` (plus a newline) to <report_dir>/<category>/<report_file_name(name)>.txt,
// replacing an earlier report of the same test, and prints it to stdout. Throws
// warp::Error(io) if the file cannot be written, so a missing report is never silent.
// Categories in use: "vectors", "acvp".
void write_report(std::string_view category, std::string_view name, std::string_view line);

}  // namespace warp::test
