#include "cli/commands/common.hpp"

#include "cli/report.hpp"
#include "engine/error.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "formats/file.hpp"

namespace warp::cli {

void Verbosity::check() const {
    if (progress && quiet)
        usage_error("--progress and --quiet contradict each other", "choose one");
    if (verbose && quiet) usage_error("-v and --quiet contradict each other", "choose one");
}

void add_input(CLI::App& command, std::string& input) {
    command.add_option("INPUT", input, "Input file; - or absent for stdin")->type_name("PATH");
}

void add_output(CLI::App& command, std::optional<std::string>& output, bool& force) {
    command.add_option("-o,--output", output, "Output file; - for stdout")->type_name("PATH");
    command.add_flag("-f,--force", force, "Overwrite an existing output file");
}

void add_verbosity(CLI::App& command, Verbosity& verbosity) {
    command.add_flag("--progress", verbosity.progress, "Always show the progress bar");
    command.add_flag("-q,--quiet", verbosity.quiet, "Print nothing but errors");
    command.add_flag("-v,--verbose", verbosity.verbose, "Say what is done (backend, key slot)");
}

void add_backend(CLI::App& command, std::string& backend) {
    command.add_option("--backend", backend, "Backend: auto (default) or a name from `warpcrypt backends`")
        ->type_name("NAME");
}

std::string opened_note(const formats::Result& result) {
    if (!result.opened_by_plugin.empty())
        return "an age file, opened by the " + result.opened_by_plugin + " plugin";
    return std::string(result.format == formats::Format::warp ? "" : "an age file, ") +
           "opened with " + std::string(formats::entry_word(result.format)) + " " +
           std::to_string(result.opened_with + 1);
}

void add_threads(CLI::App& command, unsigned& threads) {
    // The pipeline starts no more than its memory budget allows (engine/stream/
    // chunk_pipeline.hpp; said in the help at the default chunk size); this only refuses
    // absurd requests.
    constexpr unsigned kMaxThreads = 1024;
    constexpr stream::ChunkLayout kDefaultLayout =
        stream::layout_for(formats::chunk_size_of(formats::kDefaultChunkLog2));
    constexpr unsigned kMostThreads = stream::threads_within(
        kDefaultLayout.batch_plaintext_bytes() + kDefaultLayout.batch_record_bytes());
    command
        .add_option("--threads", threads,
                    "Threads that seal or open chunks (default: one per CPU, at most " +
                        std::to_string(kMostThreads) +
                        "); 1 runs everything on one thread; the output is the same whatever "
                        "the count")
        ->type_name("N")
        ->check(CLI::Range(1u, kMaxThreads));
}

BackendRequest resolve_backend(const std::string& name) {
    try {
        return request_backend(name);
    } catch (const Error& error) {
        throw CliError(ErrorCause::backend_unavailable, std::string("--backend: ") + error.what(),
                       "`warpcrypt backends` lists what runs here; --backend auto picks one");
    }
}

std::string selection_note(const Selection& selection) {
    return "backend " + std::string(selection.backend->name) + " (" + selection.reason +
           "; cost model: " + installed_cost_model_origin().describe() + ")";
}

namespace {
CostModelOrigin& origin_in_use() {
    static CostModelOrigin origin{{}, false, {}, "not loaded"};
    return origin;
}
}  // namespace

void install_saved_cost_model() {
    LoadedCostModel loaded = load_cost_model(cost_model_path(), this_cpu, warpcrypt_version());
    install_cost_model_from(std::move(loaded.model), std::move(loaded.origin));
}

void install_cost_model_from(CostModel model, CostModelOrigin origin) {
    install_cost_model(std::move(model));
    origin_in_use() = std::move(origin);
}

const CostModelOrigin& installed_cost_model_origin() { return origin_in_use(); }

std::string_view warpcrypt_version() { return WARPCRYPT_VERSION; }

}  // namespace warp::cli
