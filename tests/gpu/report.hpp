// The GPU benchmark's output: Markdown written as each section is measured (flushed, so a
// run cut short by a timeout still leaves what it measured), and the number formats the
// tables share. Decimal units for rates (GB/s = 10^9 bytes per second, as PCIe and the GPU goals
// count), binary units for sizes (KiB, MiB, GiB: the buffers are powers of 2).
#pragma once

#include <cstddef>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace warp::gpubench {

inline std::string size_label(std::size_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB"};
    int unit = 0;
    while (unit < 3 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        ++unit;
    }
    return std::to_string(bytes) + " " + units[unit];
}

inline std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

inline double gb_per_s(std::size_t bytes, double seconds) {
    return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0;
}

// A rate with enough digits to compare: 3 significant figures or more.
inline std::string rate(double gbps) { return fixed(gbps, gbps >= 100 ? 0 : gbps >= 10 ? 1 : 2); }

inline std::string micros(double seconds) { return fixed(seconds * 1e6, seconds < 1e-4 ? 1 : 0); }

class Report {
public:
    // Writes to `path`, or to stdout when it is empty. Throws std::runtime_error when the
    // file cannot be opened.
    explicit Report(const std::string& path) {
        if (!path.empty()) {
            file_.open(path, std::ios::out | std::ios::trunc);
            if (!file_) throw std::runtime_error("cannot write " + path);
        }
    }

    Report& line(const std::string& text = "") {
        out() << text << '\n';
        out().flush();
        return *this;
    }
    Report& heading(const std::string& text) { return line().line("## " + text).line(); }
    Report& row(const std::vector<std::string>& cells) {
        std::string text = "|";
        for (const std::string& c : cells) text += " " + c + " |";
        return line(text);
    }
    // A header row and its separator; `right` columns are right-aligned (numbers).
    Report& header(const std::vector<std::string>& cells, std::size_t left_columns = 1) {
        row(cells);
        std::vector<std::string> rule;
        for (std::size_t i = 0; i < cells.size(); ++i)
            rule.push_back(i < left_columns ? "---" : "---:");
        return row(rule);
    }

private:
    std::ostream& out() { return file_.is_open() ? static_cast<std::ostream&>(file_) : std::cout; }
    std::ofstream file_;
};

// Progress on stderr, so the log of a long run shows where it is.
inline void progress(const std::string& what) {
    std::cerr << "warpcrypt-gpu-bench: " << what << std::endl;
}

}  // namespace warp::gpubench
