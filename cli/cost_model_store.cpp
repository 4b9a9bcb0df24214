#include "cli/cost_model_store.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <system_error>

#include <nlohmann/json.hpp>

#include "cli/random_name.hpp"
#include "engine/cpu_features.hpp"
#include "engine/error.hpp"
#include "engine/registry.hpp"

namespace warp::cli {
namespace {

using nlohmann::json;

// A real file is well under a kilobyte per backend; anything much larger is not ours.
constexpr std::size_t kMaxFileBytes = 1 << 20;
// /proc/cpuinfo repeats a block per CPU; the first "model name" is in the first block.
constexpr int kMaxCpuinfoLines = 64;
constexpr mode_t kFileMode = 0644;

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
}

[[noreturn]] void malformed(const std::string& what) {
    throw Error(ErrorCause::bad_input, "malformed cost model: " + what);
}

const json& field(const json& object, const char* name, json::value_t type, const char* type_name) {
    const auto found = object.find(name);
    if (found == object.end()) malformed(std::string("no \"") + name + "\"");
    // Integers are numbers too where a double is expected.
    const bool number_wanted = type == json::value_t::number_float;
    if (found->type() != type && !(number_wanted && found->is_number()))
        malformed(std::string("\"") + name + "\" is not " + type_name);
    return *found;
}

std::string string_field(const json& object, const char* name) {
    return field(object, name, json::value_t::string, "a string").get<std::string>();
}

double number_field(const json& object, const char* name) {
    return field(object, name, json::value_t::number_float, "a number").get<double>();
}

CostEntry parse_entry(const json& item) {
    if (!item.is_object()) malformed("an entry is not an object");
    CostEntry entry;
    entry.backend = string_field(item, "backend");
    const std::string aead = string_field(item, "aead");
    const std::optional<Aead> parsed = parse_aead_name(aead);
    if (!parsed) malformed("unknown aead \"" + aead + "\"");
    entry.aead = *parsed;
    entry.latency_ns = number_field(item, "latency_ns");
    entry.bytes_per_ns = number_field(item, "bytes_per_ns");
    entry.source = CostSource::calibrated;
    if (!entry.valid())
        malformed("entry " + entry.backend + " " + aead +
                  " needs a backend name, latency_ns >= 0 and bytes_per_ns > 0");
    return entry;
}

// Why a well-formed file does not describe this build on this machine; empty when it does.
std::string staleness(const StoredCostModel& stored, const CpuIdentity& cpu,
                      std::string_view version) {
    if (stored.warpcrypt_version != version)
        return "stale: written by warpcrypt " + stored.warpcrypt_version + ", this is " +
               std::string(version);
    if (stored.cpu.features != cpu.features)
        return "stale: measured with CPU features \"" + stored.cpu.features +
               "\", this CPU has \"" + cpu.features + "\"";
    // A model name is compared only when both sides have one (not every platform names it).
    if (!stored.cpu.model.empty() && !cpu.model.empty() && stored.cpu.model != cpu.model)
        return "stale: measured on \"" + stored.cpu.model + "\", this CPU is \"" + cpu.model + "\"";
    return {};
}

// The file's bytes, or an explanation of why there are none.
struct FileText {
    bool read = false;
    std::string text;
    std::string why_not;
};

FileText read_small_file(const std::filesystem::path& path) {
    FileText result;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        result.why_not = errno == ENOENT || errno == ENOTDIR
                             ? "no calibration yet"
                             : std::string("cannot read it: ") + std::strerror(errno);
        return result;
    }
    char buffer[4096];
    while (true) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            result.why_not = std::string("cannot read it: ") + std::strerror(errno);
            break;
        }
        if (got == 0) {
            result.read = true;
            break;
        }
        result.text.append(buffer, static_cast<std::size_t>(got));
        if (result.text.size() > kMaxFileBytes) {
            result.why_not = "malformed cost model: larger than any this version writes";
            break;
        }
    }
    ::close(fd);
    return result;
}

[[noreturn]] void io_error(const std::filesystem::path& path, const std::string& what) {
    throw Error(ErrorCause::io, path.string() + ": " + what);
}

// Gives up on a temporary file: closes and removes it (by its name in the folder open at
// `folder`), closes the folder, then reports errno's reason.
[[noreturn]] void abandon(int fd, int folder, const std::string& temporary,
                          const std::filesystem::path& path, const std::string& what) {
    const int saved = errno;
    if (fd >= 0) ::close(fd);
    ::unlinkat(folder, temporary.c_str(), 0);
    ::close(folder);
    io_error(path, what + ": " + std::strerror(saved));
}

}  // namespace

CpuIdentity this_cpu() {
    CpuIdentity cpu{cpu_features().describe(), {}};
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    for (int i = 0; i < kMaxCpuinfoLines && std::getline(cpuinfo, line); ++i) {
        if (!line.starts_with("model name")) continue;
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) break;
        const std::size_t start = line.find_first_not_of(" \t", colon + 1);
        if (start != std::string::npos) cpu.model = line.substr(start);
        break;
    }
    return cpu;
}

std::filesystem::path cost_model_path() {
    const std::string override_path = environment("WARPCRYPT_COST_MODEL");
    if (!override_path.empty()) return override_path;
    const std::filesystem::path file = std::filesystem::path("warpcrypt") / "cost-model.json";
    // The XDG base-directory spec: a relative XDG_CACHE_HOME is invalid and ignored.
    const std::string cache = environment("XDG_CACHE_HOME");
    if (!cache.empty() && cache.front() == '/') return cache / file;
    const std::string home = environment("HOME");
    if (!home.empty()) return std::filesystem::path(home) / ".cache" / file;
    return {};
}

std::string to_json_text(const StoredCostModel& stored) {
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const CostEntry& entry : stored.model.entries())
        entries.push_back({{"backend", entry.backend},
                           {"aead", aead_name(entry.aead)},
                           {"latency_ns", entry.latency_ns},
                           {"bytes_per_ns", entry.bytes_per_ns}});
    const nlohmann::ordered_json doc = {
        {"format", kCostModelFormat},
        {"warpcrypt_version", stored.warpcrypt_version},
        {"cpu", {{"features", stored.cpu.features}, {"model", stored.cpu.model}}},
        {"date", stored.date},
        {"entries", entries}};
    return doc.dump(2) + "\n";
}

StoredCostModel parse_cost_model_text(std::string_view text) {
    const json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) malformed("not JSON");
    if (!doc.is_object()) malformed("not a JSON object");
    const json& format = field(doc, "format", json::value_t::number_unsigned, "a format number");
    if (format.get<std::uint64_t>() != kCostModelFormat)
        malformed("format " + format.dump() + ", this warpcrypt reads format " +
                  std::to_string(kCostModelFormat));
    StoredCostModel stored;
    stored.warpcrypt_version = string_field(doc, "warpcrypt_version");
    const json& cpu = field(doc, "cpu", json::value_t::object, "an object");
    stored.cpu.features = string_field(cpu, "features");
    stored.cpu.model = string_field(cpu, "model");
    stored.date = string_field(doc, "date");
    for (const json& item : field(doc, "entries", json::value_t::array, "an array"))
        stored.model.set(parse_entry(item));
    if (stored.model.entries().empty()) malformed("no entries");
    return stored;
}

std::string CostModelOrigin::describe() const {
    if (calibrated) return "calibrated " + date + " (" + path.string() + ")";
    if (path.empty()) return "built-in defaults (" + why_defaults + ")";
    return "built-in defaults (" + path.string() + ": " + why_defaults + ")";
}

LoadedCostModel load_cost_model(const std::filesystem::path& path,
                                const std::function<CpuIdentity()>& identify_cpu,
                                std::string_view warpcrypt_version) {
    LoadedCostModel loaded{builtin_cost_model(), {path, false, {}, {}}};
    if (path.empty()) {
        loaded.origin.why_defaults = "no cache directory: neither HOME nor XDG_CACHE_HOME is set";
        return loaded;
    }
    try {
        const FileText file = read_small_file(path);
        if (!file.read) {
            loaded.origin.why_defaults = file.why_not;
            return loaded;
        }
        StoredCostModel stored = parse_cost_model_text(file.text);
        const std::string stale = staleness(stored, identify_cpu(), warpcrypt_version);
        if (!stale.empty()) {
            loaded.origin.why_defaults = stale;
            return loaded;
        }
        loaded.model = std::move(stored.model);
        loaded.origin.calibrated = true;
        loaded.origin.date = stored.date;
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& error) {
        loaded.origin.why_defaults = error.what();
    }
    return loaded;
}

void create_cost_model_directory(const std::filesystem::path& path) {
    if (path.empty())
        throw Error(ErrorCause::io,
                    "nowhere to store the cost model: set HOME, XDG_CACHE_HOME or "
                    "WARPCRYPT_COST_MODEL");
    if (!path.has_parent_path()) return;
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    if (error) io_error(path.parent_path(), "cannot create the directory: " + error.message());
}

void save_cost_model(const std::filesystem::path& path, const StoredCostModel& stored) {
    create_cost_model_directory(path);
    const std::string text = to_json_text(stored);
    // In the same folder, so that the rename is atomic: a reader sees the old file or the
    // new one, never half of one. The folder is opened once, and the temporary file created,
    // written and renamed through that descriptor: no path is looked up twice (docs/design.md,
    // "Atomic output").
    const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
    const std::string name = path.filename().string();
    const int dir = ::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) io_error(folder, std::string("cannot open the folder: ") + std::strerror(errno));
    // A hidden name beside it, ".NAME.tmp-" and random characters, until one is free.
    std::string temporary;
    int fd = -1;
    while (fd < 0) {
        temporary = "." + name + ".tmp-" + random_name_chars(path.string());
        fd = ::openat(dir, temporary.c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kFileMode);
        if (fd < 0 && errno != EEXIST) {
            // Nothing was created, so nothing is removed: the name may be another file's.
            const int err = errno;
            ::close(dir);
            io_error(path, std::string("cannot create a temporary file: ") + std::strerror(err));
        }
    }
    // The model is not secret, and 0644 is what a cache file usually is, whatever the umask.
    if (::fchmod(fd, kFileMode) != 0) abandon(fd, dir, temporary, path, "cannot set the file mode");
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t put = ::write(fd, text.data() + done, text.size() - done);
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) abandon(fd, dir, temporary, path, "cannot write");
        done += static_cast<std::size_t>(put);
    }
    if (::fsync(fd) != 0) abandon(fd, dir, temporary, path, "cannot sync");
    if (::close(fd) != 0) abandon(-1, dir, temporary, path, "cannot write");
    if (::renameat(dir, temporary.c_str(), dir, name.c_str()) != 0)
        abandon(-1, dir, temporary, path, "cannot rename the temporary file over it");
    ::close(dir);
}

}  // namespace warp::cli
