// `warpcrypt backends`: what the registry knows, what runs here and why, what `auto` picks
// and why (the cost model's predicted time of each candidate, and where the pick changes with
// the size). Everything comes from the engine (registry.hpp: what exists and runs here;
// selection.hpp: the one decision, the same function encrypt and decrypt ask): this file
// decides nothing.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/auto_report.hpp"
#include "cli/commands/common.hpp"
#include "cli/report.hpp"
#include "cli/sizes.hpp"
#include "cli/text_columns.hpp"
#include "formats/file.hpp"

namespace warp::cli {
namespace {

struct BackendsArgs {
    bool json = false;
    std::string size = "1MiB";
};

std::string algorithms(const Backend& backend) {
    std::string list;
    auto add = [&](bool present, const char* name) {
        if (present) list += (list.empty() ? "" : ", ") + std::string(name);
    };
    add(backend.aes_gcm != nullptr, "aes-256-gcm");
    add(backend.chacha20_poly1305 != nullptr, "chacha20-poly1305");
    add(backend.aes != nullptr, "aes blocks");
    return list.empty() ? "none" : list;
}


// The decision's candidates for one cipher (or any: nullopt) and their predicted times, from
// the engine, as one line: "x86-vaes 175 us, x86-aesni 300 us, scalar 8.07 ms".
std::string predicted_line(std::optional<Aead> cipher, std::uint64_t size) {
    std::string line;
    for (const Prediction& p : predictions(cipher, SizeHint::exactly(size))) {
        line += (line.empty() ? "" : ", ") + std::string(p.backend->name);
        if (!cipher) line += " " + std::string(formats::cipher_name(p.aead));
        line += " " + (p.ns ? format_duration(*p.ns) : std::string("no estimate"));
    }
    return line;
}

// "auto picks cipher aes-256-gcm on x86-vaes: predicted ..., against ... for ..."
std::string cipher_line(std::uint64_t size) {
    const Selection pick = select(std::nullopt, SizeHint::exactly(size));
    return "auto picks cipher " + std::string(formats::cipher_name(pick.aead)) +
           " on " + std::string(pick.backend->name) + ": " + pick.why;
}

std::string to_text(std::uint64_t size) {
    std::size_t name_width = std::string_view("backend").size();
    for (const Backend& backend : all_backends()) name_width = std::max(name_width, backend.name.size());
    name_width += 2;
    std::string text = "CPU features: " + cpu_features().describe() + "\n\n";
    text += pad_right("backend", name_width) + "usable  why\n";
    for (const Backend& backend : all_backends()) {
        Availability a = availability_opened(backend);  // opens a GPU: the user asked
        text += pad_right(std::string(backend.name), name_width) + pad_right(a.usable ? "yes" : "no", 8) +
                a.reason + "\n";
        text += pad_right("", name_width + 8) + std::string(backend.summary) + "; implements " +
                algorithms(backend) + "\n";
    }
    text += "\nauto picks, for " + std::to_string(size) + " bytes:\n";
    for (Aead cipher : formats::kCiphers)
        text += "  " + pad_right(std::string(formats::cipher_name(cipher)), kSuiteColumnWidth) +
                std::string(select(cipher, SizeHint::exactly(size)).backend->name) + "\n";
    text += cipher_line(size) + "\n";

    text += "\nCost model: " + installed_cost_model_origin().describe() + "\n";
    text += "Predicted time of one call of " + std::to_string(size) +
            " bytes (latency + bytes / throughput):\n";
    for (Aead cipher : formats::kCiphers)
        text += "  " + pad_right(std::string(formats::cipher_name(cipher)), kSuiteColumnWidth) +
                predicted_line(cipher, size) + "\n";
    text += "By message size:\n";
    for (Aead cipher : formats::kCiphers)
        text += "  " + pad_right(std::string(formats::cipher_name(cipher)), kSuiteColumnWidth) +
                describe_ranges(auto_ranges(cipher)) + "\n";
    text += "  " + pad_right("cipher auto", kSuiteColumnWidth) +
            describe_ranges(auto_ranges(std::nullopt), true) + "\n";
    if (!installed_cost_model_origin().calibrated)
        text += "`warpcrypt bench --calibrate` measures this machine and stores its cost model.\n";
    return text;
}

nlohmann::ordered_json cost_model_json() {
    const CostModelOrigin& origin = installed_cost_model_origin();
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const CostEntry& entry : cost_model().entries())
        entries.push_back({{"backend", entry.backend},
                           {"aead", aead_name(entry.aead)},
                           {"latency_ns", entry.latency_ns},
                           {"bytes_per_ns", entry.bytes_per_ns},
                           {"source", cost_source_name(entry.source)}});
    nlohmann::ordered_json doc = {{"source", origin.calibrated ? "calibrated" : "built-in"},
                                  {"path", origin.path.string()},
                                  {"description", origin.describe()}};
    if (origin.calibrated) doc["date"] = origin.date;
    else doc["why_defaults"] = origin.why_defaults;
    doc["entries"] = entries;
    return doc;
}

nlohmann::ordered_json to_json(std::uint64_t size) {
    nlohmann::ordered_json backends = nlohmann::ordered_json::array();
    for (const Backend& backend : all_backends()) {
        Availability a = availability_opened(backend);  // opens a GPU: the user asked
        backends.push_back({{"name", backend.name},
                            {"summary", backend.summary},
                            {"usable", a.usable},
                            {"reason", a.reason},
                            {"aes_256_gcm", backend.aes_gcm != nullptr},
                            {"chacha20_poly1305", backend.chacha20_poly1305 != nullptr},
                            {"aes_blocks", backend.aes != nullptr}});
    }
    nlohmann::ordered_json picks = nlohmann::ordered_json::object();
    nlohmann::ordered_json predicted = nlohmann::ordered_json::object();
    nlohmann::ordered_json by_size = nlohmann::ordered_json::object();
    for (Aead cipher : formats::kCiphers) {
        const std::string name(formats::cipher_name(cipher));
        picks[name] = select(cipher, SizeHint::exactly(size)).backend->name;
        nlohmann::ordered_json times = nlohmann::ordered_json::object();
        for (const Prediction& p : predictions(cipher, SizeHint::exactly(size)))
            times[std::string(p.backend->name)] = p.ns ? nlohmann::ordered_json(*p.ns) : nullptr;
        predicted[name] = times;
        by_size[name] = ranges_json(auto_ranges(cipher));
    }
    // --cipher auto: the same decision with the cipher open (what `encrypt` does by default).
    const Selection pick = select(std::nullopt, SizeHint::exactly(size));
    const nlohmann::ordered_json cipher = {
        {"suite", formats::cipher_name(pick.aead)},
        {"backend", pick.backend->name},
        {"reason", pick.reason},
        {"by_size", ranges_json(auto_ranges(std::nullopt))}};
    return {{"cpu_features", cpu_features().describe()},
            {"backends", backends},
            {"auto",
             {{"size", size},
              {"picks", picks},
              {"cipher", cipher},
              {"predicted_ns", predicted},
              {"by_size", by_size}}},
            {"cost_model", cost_model_json()}};
}

void run(const BackendsArgs& args) {
    std::uint64_t size = parse_size(args.size, "--size");
    // The cost model's description holds a cache file's words and an environment's path:
    // escaped as every text from outside is.
    std::string text = args.json ? json_text(to_json(size)) : escape_lines(to_text(size));
    if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0)
        throw Error(ErrorCause::io, "stdout: write error");
}

}  // namespace

Command add_backends_command(CLI::App& parent) {
    auto args = std::make_shared<BackendsArgs>();
    CLI::App* cmd = parent.add_subcommand(
        "backends", "List the cipher backends, what auto picks and why (its cost model)");
    cmd->add_flag("--json", args->json, "Print JSON");
    cmd->add_option("--size", args->size, "Message size for auto's choice (default 1MiB)")
        ->type_name("BYTES");
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
