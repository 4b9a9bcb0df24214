#include "tests/support/report.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <system_error>

#include "engine/error.hpp"

namespace warp::test {

std::filesystem::path report_dir() {
    const char* env = std::getenv("WARPCRYPT_REPORT_DIR");
    if (env != nullptr && *env != '\0') return std::filesystem::path(env);
    return std::filesystem::path("test-reports");
}

std::string report_file_name(std::string_view name) {
    std::string out(name);
    for (char& c : out) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
        if (!keep) c = '_';
    }
    return out;
}

void write_report(std::string_view category, std::string_view name, std::string_view line) {
    std::cout << line << std::endl;

    const std::filesystem::path dir = report_dir() / std::filesystem::path(category);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);  // concurrent creators race harmlessly
    const std::filesystem::path file = dir / (report_file_name(name) + ".txt");
    std::ofstream out(file, std::ios::trunc);
    out << line << '\n';
    out.close();
    if (!out)
        throw Error(ErrorCause::io, "cannot write test report " + file.string() +
                                        (ec ? " (" + ec.message() + ")" : std::string()));
}

}  // namespace warp::test
