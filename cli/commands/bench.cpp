// `warpcrypt bench`: in-process, single-thread throughput of every usable backend, per suite,
// direction and message size (the timing itself is in cli/bench_measure.cpp). Which backends
// exist and run here comes from engine/registry.hpp; this file only asks and reports.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/bench_measure.hpp"
#include "cli/commands/calibrate.hpp"
#include "cli/commands/common.hpp"
#include "cli/report.hpp"
#include "cli/sizes.hpp"
#include "cli/text_columns.hpp"

namespace warp::cli {
namespace {

enum class SuiteKind { aead, ecb };

struct BenchSuite {
    std::string_view name;  // as --cipher and the output spell it
    SuiteKind kind;
    Aead aead;  // for kind == aead
    std::size_t key_len;
    bool in_all;  // part of `--cipher all`
};

constexpr BenchSuite kBenchSuites[] = {
    {"aes-128-gcm", SuiteKind::aead, Aead::aes_gcm, 16, true},
    {"aes-192-gcm", SuiteKind::aead, Aead::aes_gcm, 24, false},
    {"aes-256-gcm", SuiteKind::aead, Aead::aes_gcm, 32, true},
    {"chacha20-poly1305", SuiteKind::aead, Aead::chacha20_poly1305, 32, true},
    {"aes-128-ecb", SuiteKind::ecb, Aead::aes_gcm, 16, true},
    {"aes-192-ecb", SuiteKind::ecb, Aead::aes_gcm, 24, true},
    {"aes-256-ecb", SuiteKind::ecb, Aead::aes_gcm, 32, true},
};

constexpr std::uint64_t kMinSize = 16;        // one AES block, so every suite has work
constexpr std::uint64_t kMaxSize = 1ull << 30;  // three buffers of it are allocated
constexpr double kMaxSeconds = 60;

struct BenchArgs {
    std::string backends = "all";
    std::string ciphers = "all";
    std::string sizes = "100,1K,4K,8K,16K,64K,1M";
    double seconds = 0.2;
    bool json = false;
    bool calibrate = false;  // --calibrate: commands/calibrate.cpp, none of the options above
};

// One row of the output: a backend, a suite and a direction, measured at every size.
struct Row {
    const Backend* backend;
    const BenchSuite* suite;
    bool forward;  // seal / encrypt
    std::vector<BenchMeasurement> cells;

    std::string_view direction() const {
        if (suite->kind == SuiteKind::aead) return forward ? "seal" : "open";
        return forward ? "encrypt" : "decrypt";
    }
};

std::vector<std::string> split_list(const std::string& text, const std::string& flag) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
        std::size_t comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
        if (item.empty())
            usage_error(flag + ": '" + text + "' has an empty item",
                        "give a comma-separated list without spaces");
        items.push_back(item);
        if (comma == std::string::npos) return items;
        start = comma + 1;
    }
}

template <typename T>
void add_unique(std::vector<T>& list, T item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

std::vector<const Backend*> chosen_backends(const std::string& text) {
    std::vector<const Backend*> chosen;
    for (const std::string& name : split_list(text, "--backend")) {
        if (name == "all") {
            for (const Backend* backend : usable_backends())
                if (availability_opened(*backend).usable) add_unique(chosen, backend);
        } else if (name == "auto") {
            usage_error("--backend: auto is not a backend to measure",
                        "give `all` or names from `warpcrypt backends`");
        } else {
            try {
                add_unique(chosen, &find_backend(name));
            } catch (const Error& error) {
                throw CliError(ErrorCause::backend_unavailable,
                               std::string("--backend: ") + error.what(),
                               "`warpcrypt backends` lists what runs here; --backend all "
                               "measures every one");
            }
        }
    }
    return chosen;
}

std::vector<const BenchSuite*> chosen_suites(const std::string& text) {
    std::vector<const BenchSuite*> chosen;
    for (const std::string& name : split_list(text, "--cipher")) {
        bool known = false;
        for (const BenchSuite& suite : kBenchSuites) {
            bool wanted = name == suite.name || (name == "all" && suite.in_all) ||
                          (name == "aes-ecb" && suite.kind == SuiteKind::ecb);
            if (wanted) add_unique(chosen, &suite);
            known = known || wanted;
        }
        if (!known) {
            std::string names = "all, aes-ecb";
            for (const BenchSuite& suite : kBenchSuites) names += ", " + std::string(suite.name);
            usage_error("--cipher: unknown cipher '" + name + "'", "choose from " + names);
        }
    }
    return chosen;
}

std::vector<std::size_t> chosen_sizes(const std::string& text) {
    std::vector<std::size_t> sizes;
    for (const std::string& item : split_list(text, "--sizes")) {
        std::uint64_t size = parse_size(item, "--sizes");
        if (size < kMinSize || size > kMaxSize)
            usage_error("--sizes: " + item + " is out of range",
                        "each size must be from 16 bytes (one AES block) to 1G");
        add_unique(sizes, static_cast<std::size_t>(size));
    }
    return sizes;
}

bool implements(const Backend& backend, const BenchSuite& suite) {
    return suite.kind == SuiteKind::aead ? backend.aead(suite.aead) != nullptr
                                         : backend.aes != nullptr;
}

std::vector<Row> plan_rows(const std::vector<const Backend*>& backends,
                           const std::vector<const BenchSuite*>& suites) {
    std::vector<Row> rows;
    for (const Backend* backend : backends)
        for (const BenchSuite* suite : suites)
            if (implements(*backend, *suite))
                for (bool forward : {true, false}) rows.push_back({backend, suite, forward, {}});
    if (rows.empty())
        usage_error("the backends chosen implement none of the ciphers chosen",
                    "`warpcrypt backends` says which backend implements what");
    return rows;
}

BenchMeasurement measure(const Row& row, std::size_t size, const BenchTiming& timing) {
    const BenchSuite& suite = *row.suite;
    if (suite.kind == SuiteKind::aead)
        return measure_aead(*row.backend->aead(suite.aead), suite.key_len, row.forward, size,
                            timing);
    return measure_ecb(*row.backend->aes, suite.key_len, row.forward, size, timing);
}

// --- text output ---------------------------------------------------------------------------

constexpr std::size_t kSizeColumnWidth = 10;

// 1048576 -> "1M", 4096 -> "4K", 100 -> "100"
std::string size_label(std::size_t size) {
    if (size % (1u << 20) == 0) return std::to_string(size >> 20) + "M";
    if (size % (1u << 10) == 0) return std::to_string(size >> 10) + "K";
    return std::to_string(size);
}

// Three significant digits or more: 12345, 123, 12.3, 1.23.
std::string format_number(double value) {
    const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

class TextTable {
public:
    TextTable(const std::vector<Row>& rows, const std::vector<std::size_t>& sizes) : sizes_(sizes) {
        for (const Row& row : rows)
            backend_width_ = std::max(backend_width_, row.backend->name.size() + 2);
    }

    std::string header(const std::string& title) const {
        std::string line = pad_right("backend", backend_width_) + pad_right("suite", kSuiteColumnWidth) +
                           pad_right("direction", kDirectionWidth);
        for (std::size_t size : sizes_) line += pad_left(size_label(size), kSizeColumnWidth);
        return title + "\n" + line + "\n";
    }

    template <typename Value>
    std::string row(const Row& row, Value&& value) const {
        std::string line = pad_right(std::string(row.backend->name), backend_width_) +
                           pad_right(std::string(row.suite->name), kSuiteColumnWidth) +
                           pad_right(std::string(row.direction()), kDirectionWidth);
        for (const BenchMeasurement& cell : row.cells)
            line += pad_left(format_number(value(cell)), kSizeColumnWidth);
        return line + "\n";
    }

private:
    static constexpr std::size_t kDirectionWidth = 9;
    const std::vector<std::size_t>& sizes_;
    std::size_t backend_width_ = 9;
};

void write_stdout(const std::string& text) {
    if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0)
        throw Error(ErrorCause::io, "stdout: write error");
}

double megabytes_per_second(const BenchMeasurement& cell) { return cell.bytes_per_second() / 1e6; }
double ns_per_call(const BenchMeasurement& cell) { return cell.ns_per_call(); }

// --- JSON output ---------------------------------------------------------------------------

nlohmann::ordered_json to_json(const std::vector<Row>& rows, const std::vector<std::size_t>& sizes) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Row& row : rows)
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            const BenchMeasurement& cell = row.cells[i];
            list.push_back({{"backend", row.backend->name},
                            {"suite", row.suite->name},
                            {"direction", row.direction()},
                            {"size", sizes[i]},
                            {"bytes_per_second", cell.bytes_per_second()},
                            {"ns_per_call", cell.ns_per_call()},
                            {"bytes_per_call", cell.bytes_per_call},
                            {"calls", cell.calls}});
        }
    return list;
}

void run(const BenchArgs& args) {
    if (args.calibrate) {
        run_calibration(args.json);
        return;
    }
    if (!std::isfinite(args.seconds) || args.seconds <= 0 || args.seconds > kMaxSeconds)
        usage_error("--seconds: must be more than 0 and at most 60", "the default is 0.2");
    std::vector<Row> rows = plan_rows(chosen_backends(args.backends), chosen_suites(args.ciphers));
    const std::vector<std::size_t> sizes = chosen_sizes(args.sizes);
    const BenchTiming timing = BenchTiming::for_seconds(args.seconds);

    const TextTable table(rows, sizes);
    if (!args.json)
        write_stdout("Single thread, one message per call, " + format_number(args.seconds) +
                     " s per cell.\n\n" + table.header("Throughput, MB/s (10^6 bytes/s):"));
    // Rows print as they finish, so a long run shows progress.
    for (Row& row : rows) {
        for (std::size_t size : sizes) row.cells.push_back(measure(row, size, timing));
        if (!args.json) write_stdout(table.row(row, megabytes_per_second));
    }

    if (args.json) {
        write_stdout(to_json(rows, sizes).dump(2) + "\n");
        return;
    }
    std::string text = "\n" + table.header("Time per call, ns:");
    for (const Row& row : rows) text += table.row(row, ns_per_call);
    write_stdout(text);
}

constexpr const char* kBenchFooter =
    "Measures each backend in this process, on one thread, one message per call (as a caller "
    "sealing one chunk at a time would see it): for each backend, cipher, direction and size, a "
    "short warm-up, then repeated calls for --seconds of this thread's CPU time (as openssl speed "
    "counts user time, so other load on the machine disturbs the figures less); the figure is "
    "the mean over that time. "
    "AEADs use a 12-byte nonce, no AAD and a 16-byte tag; open authenticates the same valid "
    "ciphertext on every call. ECB runs on the whole 16-byte blocks of each size. "
    "MB/s means 10^6 bytes per second, the unit of `openssl speed`.\n"
    "JSON (--json): an array of {backend, suite, direction, size, bytes_per_second, "
    "ns_per_call, bytes_per_call, calls}.\n"
    "--calibrate instead measures the seal time of every usable backend at two sizes (64 bytes, "
    "and a pipeline batch of 64 KiB chunks in one call), fits a per-call latency and a throughput to each, and "
    "stores them as the cost model `auto` uses (see `warpcrypt backends`), in "
    "$XDG_CACHE_HOME/warpcrypt/cost-model.json or ~/.cache/warpcrypt/cost-model.json "
    "($WARPCRYPT_COST_MODEL overrides); delete the file to return to the built-in defaults.\n"
    "Example: warpcrypt bench --backend x86 --cipher aes-256-gcm --sizes 1K,16K --seconds 1";

}  // namespace

Command add_bench_command(CLI::App& parent) {
    auto args = std::make_shared<BenchArgs>();
    CLI::App* cmd = parent.add_subcommand(
        "bench", "Measure the throughput of each backend (MB/s and ns per call)");
    CLI::Option* backend = cmd->add_option("--backend", args->backends,
                    "Backends to measure: all usable ones (default), or names or families from "
                    "`warpcrypt backends`, comma-separated")
        ->type_name("NAME|all");
    CLI::Option* cipher = cmd->add_option("--cipher", args->ciphers,
                    "Ciphers: all (default: aes-128-gcm, aes-256-gcm, chacha20-poly1305, "
                    "aes-128/192/256-ecb), aes-ecb (the three ECB), or names, comma-separated; "
                    "aes-192-gcm only when named")
        ->type_name("NAME|all");
    CLI::Option* sizes = cmd->add_option("--sizes", args->sizes,
                    "Message sizes, comma-separated, 16 bytes to 1G, K/M = 1024-based "
                    "(default 100,1K,4K,8K,16K,64K,1M)")
        ->type_name("LIST");
    CLI::Option* seconds =
        cmd->add_option("--seconds", args->seconds, "Measured CPU time per cell (default 0.2)")
            ->type_name("S");
    cmd->add_flag("--json", args->json, "Print JSON instead of tables");
    // Calibration chooses its own backends (all usable), suites and sizes.
    cmd->add_flag("--calibrate", args->calibrate,
                  "Measure this machine for auto's cost model and store it (a second or two)")
        ->excludes(backend)
        ->excludes(cipher)
        ->excludes(sizes)
        ->excludes(seconds);
    cmd->footer(kBenchFooter);
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
