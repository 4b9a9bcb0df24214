// `warpcrypt backends`: what the registry knows, what runs here and why, and what `auto`
// picks. Everything comes from engine/registry.hpp: this file decides nothing.
#include <algorithm>
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands/common.hpp"
#include "cli/report.hpp"
#include "cli/sizes.hpp"

namespace warp::cli {
namespace {

constexpr format::Suite kSuites[] = {format::Suite::aes_256_gcm, format::Suite::chacha20_poly1305};

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

std::string pad(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

std::string to_text(std::uint64_t size) {
    std::size_t name_width = std::string_view("backend").size();
    for (const Backend& backend : all_backends()) name_width = std::max(name_width, backend.name.size());
    name_width += 2;
    std::string text = "CPU features: " + cpu_features().describe() + "\n\n";
    text += pad("backend", name_width) + "usable  why\n";
    for (const Backend& backend : all_backends()) {
        Availability a = availability(backend);
        text += pad(std::string(backend.name), name_width) + pad(a.usable ? "yes" : "no", 8) +
                a.reason + "\n";
        text += pad("", name_width + 8) + std::string(backend.summary) + "; implements " +
                algorithms(backend) + "\n";
    }
    text += "\nauto picks, for " + std::to_string(size) + " bytes:\n";
    for (format::Suite suite : kSuites)
        text += "  " + pad(std::string(format::suite_name(suite)), 19) +
                std::string(select_backend(aead_of(suite), size).name) + "\n";
    return text;
}

nlohmann::ordered_json to_json(std::uint64_t size) {
    nlohmann::ordered_json backends = nlohmann::ordered_json::array();
    for (const Backend& backend : all_backends()) {
        Availability a = availability(backend);
        backends.push_back({{"name", backend.name},
                            {"summary", backend.summary},
                            {"usable", a.usable},
                            {"reason", a.reason},
                            {"aes_256_gcm", backend.aes_gcm != nullptr},
                            {"chacha20_poly1305", backend.chacha20_poly1305 != nullptr},
                            {"aes_blocks", backend.aes != nullptr}});
    }
    nlohmann::ordered_json picks = nlohmann::ordered_json::object();
    for (format::Suite suite : kSuites)
        picks[std::string(format::suite_name(suite))] = select_backend(aead_of(suite), size).name;
    return {{"cpu_features", cpu_features().describe()},
            {"backends", backends},
            {"auto", {{"size", size}, {"picks", picks}}}};
}

void run(const BackendsArgs& args) {
    std::uint64_t size = parse_size(args.size, "--size");
    std::string text = args.json ? to_json(size).dump(2) + "\n" : to_text(size);
    if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0)
        throw Error(ErrorCause::io, "stdout: write error");
}

}  // namespace

Command add_backends_command(CLI::App& parent) {
    auto args = std::make_shared<BackendsArgs>();
    CLI::App* cmd = parent.add_subcommand("backends", "List the cipher backends and what auto picks");
    cmd->add_flag("--json", args->json, "Print JSON");
    cmd->add_option("--size", args->size, "Message size for auto's choice (default 1MiB)")
        ->type_name("BYTES");
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
