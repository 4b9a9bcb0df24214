// warpcrypt-gpu-bench: when does the GPU beat the CPU at AES, and by how much (docs/backends.md,
// "GPU (CUDA)")? Measures, on the machine it runs on, and writes a Markdown report:
//   (a) the device and driver; (b) pinned PCIe bandwidth; (c) the AES-256-GCM seal kernel
//   alone on device-resident batches; (d) sealing host memory to host memory through the cuda
//   backend, as the product does; (e) one 4 KiB chunk's round trip; (f) the table of the public
//   CPU-vs-GPU AES experiment (raw AES-128/192/256 at 4, 8 and 16 KB) beside every CPU backend;
//   (g) the three GPU goals (docs/backends.md, "GPU (CUDA)"), met or not.
// Sections run in order; one that fails is reported as failed and the next still runs.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "engine/aead_key.hpp"
#include "tests/gpu/bench_support.hpp"
#include "engine/cuda/cuda.hpp"
#include "engine/cuda/kernel_api.hpp"
#include "engine/registry.hpp"
#include "engine/secure_memory.hpp"
#include "tests/gpu/host_timing.hpp"
#include "tests/gpu/report.hpp"

namespace warp::gpubench {
namespace {

constexpr const char* kUsage =
    "usage: warpcrypt-gpu-bench [--out FILE] [--quick]\n"
    "  Measures the cuda backend against the PCIe link and the CPU backends and writes a\n"
    "  Markdown report to stdout, or to FILE. --quick: smaller sizes, fewer repeats.\n"
    "  Exit status: 0 every section measured; 1 a section failed (the report says which);\n"
    "  2 bad usage; 3 no usable CUDA device (the report has the reason and the CPU columns).\n";

constexpr std::size_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;
constexpr std::size_t kChunk = 64 * KiB;  // the format's default chunk size

struct Options {
    std::string out;
    bool quick = false;
};

// What the goals (g) need from the sections before.
struct Measured {
    bool gpu = false;
    std::optional<double> h2d_gbps, d2h_gbps;
    std::vector<std::pair<std::size_t, double>> kernel_gbps;  // (batch bytes, median GB/s)
    std::optional<double> best_e2e_gbps;                      // batches >= 256 MiB
    std::string best_e2e_how;
    std::optional<double> round_trip_us;
    std::size_t largest = 0;
};

std::vector<std::size_t> sizes(const Options& o) {
    if (o.quick) return {4 * KiB, 64 * KiB, 1 * MiB, 16 * MiB, 256 * MiB};
    return {4 * KiB, 64 * KiB, 1 * MiB, 16 * MiB, 256 * MiB, 1 * GiB};
}

std::vector<std::uint8_t> random_key(std::size_t n) {
    std::random_device rd;
    std::vector<std::uint8_t> key(n);
    for (auto& b : key) b = static_cast<std::uint8_t>(rd());
    return key;
}

std::string today() {
    char text[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    return text;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

std::string version_text(int v) {
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// ---- (a) ---------------------------------------------------------------------------------------

void device_section(Report& r, Measured& m) {
    r.line("# warpcrypt GPU benchmark").line();
    r.line("Measured " + today() + " by `warpcrypt-gpu-bench`. Host: " + cpu_model() + ", " +
           std::to_string(std::thread::hardware_concurrency()) + " logical CPUs.");
    r.heading("(a) Device and driver");
    const cuda::DeviceCheck device = cuda::open_device();
    if (!device.usable) {
        r.line("**cuda unusable: " + device.reason + "**").line();
        r.line("The GPU sections below are skipped; the CPU columns of (f) are still measured.");
        std::cerr << "warpcrypt-gpu-bench: cuda unusable: " << device.reason << std::endl;
        return;
    }
    m.gpu = true;
    const cuda::DeviceInfo& info = cuda::device_info();
    const cuda::bench::DriverFacts facts = cuda::bench::driver_facts();
    r.header({"what", "value"}, 2);
    r.row({"device", info.name + " (compute " + std::to_string(info.compute_major) + "." +
                         std::to_string(info.compute_minor) + ")"});
    r.row({"multiprocessors", std::to_string(info.multiprocessors)});
    r.row({"memory", size_label(info.global_memory / MiB * MiB) + ", " +
                         std::to_string(facts.memory_bus_bits) + "-bit bus, L2 " +
                         size_label(facts.l2_bytes)});
    r.row({"PCI bus id", facts.pci_bus_id});
    r.row({"copy engines", std::to_string(facts.copy_engines)});
    r.row({"driver (CUDA version it supports)", version_text(facts.driver_version)});
    r.row({"CUDA runtime (static)", version_text(facts.runtime_version)});
    r.row({"driver slices, streams",
           size_label(info.slice_bytes) + ", " + std::to_string(info.streams)});
}

// ---- (b) ---------------------------------------------------------------------------------------

void pcie_section(Report& r, Measured& m, const Options& o) {
    r.heading("(b) Pinned PCIe bandwidth");
    const std::size_t bytes = o.quick ? 64 * MiB : 256 * MiB;
    const unsigned repeats = o.quick ? 3 : 5;
    r.line("One synchronous `cudaMemcpy` of " + size_label(bytes) +
           " between pinned host memory and the device, best of " + std::to_string(repeats) + ".")
        .line();
    progress("(b) pinned copies");
    const double up =
        cuda::bench::pinned_copy_seconds(cuda::bench::Direction::host_to_device, bytes, repeats);
    const double down =
        cuda::bench::pinned_copy_seconds(cuda::bench::Direction::device_to_host, bytes, repeats);
    m.h2d_gbps = gb_per_s(bytes, up);
    m.d2h_gbps = gb_per_s(bytes, down);
    r.header({"direction", "GB/s", "ms"});
    r.row({"host to device", rate(*m.h2d_gbps), fixed(up * 1e3, 2)});
    r.row({"device to host", rate(*m.d2h_gbps), fixed(down * 1e3, 2)});
}

// ---- (c) ---------------------------------------------------------------------------------------

unsigned kernel_launches(std::size_t total) {
    return total <= 1 * MiB ? 200 : total <= 16 * MiB ? 50 : total <= 256 * MiB ? 10 : 5;
}

void kernel_section(Report& r, Measured& m, const Options& o, const cuda::GcmKeyTables& tables) {
    r.heading("(c) AES-256-GCM seal, kernel only");
    r.line(
        "`launch_gcm` on a batch already on the device: 64 KiB chunks (a 4 KiB batch is one "
        "4 KiB chunk), 12-byte nonces, random plaintext; device time from CUDA events around "
        "each launch, after one warm-up launch.")
        .line();
    r.header({"batch", "chunks", "launches", "median us", "median GB/s", "best GB/s"});
    for (std::size_t total : sizes(o)) {
        progress("(c) kernel " + size_label(total));
        const unsigned launches =
            o.quick ? std::max(3u, kernel_launches(total) / 4) : kernel_launches(total);
        const cuda::bench::KernelTimes t =
            cuda::bench::gcm_seal_kernel(tables, kChunk, total, launches);
        const double median_gbps = gb_per_s(total, t.median_s);
        m.kernel_gbps.emplace_back(total, median_gbps);
        r.row({size_label(total), std::to_string((total + kChunk - 1) / kChunk),
               std::to_string(t.launches), micros(t.median_s), rate(median_gbps),
               rate(gb_per_s(total, t.best_s))});
    }

    // Chunks of 1 and 16 MiB (the format allows up to 16 MiB): each is cut into pieces of
    // cuda::kGcmPiecePositions GHASH positions, one thread block each, joined by a second kernel,
    // so these should run near the 64 KiB rows' speed, not at one
    // multiprocessor's.
    const std::size_t batch = 256 * MiB;
    r.line().line("Large chunks, " + size_label(batch) + " batches: pieces of " +
                  size_label(16 * cuda::kGcmPiecePositions) + " per thread block, joined by a " +
                  "second kernel.")
        .line();
    r.header({"chunk", "chunks", "thread blocks", "launches", "median us", "median GB/s",
              "best GB/s"});
    for (std::size_t chunk : {1 * MiB, 16 * MiB}) {
        progress("(c) kernel, " + size_label(chunk) + " chunks");
        const unsigned launches = o.quick ? 3 : kernel_launches(batch);
        const cuda::bench::KernelTimes t =
            cuda::bench::gcm_seal_kernel(tables, chunk, batch, launches);
        const std::size_t chunks = batch / chunk;
        const std::size_t pieces = chunks * cuda::gcm_piece_count(cuda::gcm_positions(0, chunk));
        r.row({size_label(chunk), std::to_string(chunks), std::to_string(pieces),
               std::to_string(t.launches), micros(t.median_s), rate(gb_per_s(batch, t.median_s)),
               rate(gb_per_s(batch, t.best_s))});
    }
}

// ---- (d) ---------------------------------------------------------------------------------------

std::string share_of_pcie(double gbps, const Measured& m) {
    if (!m.h2d_gbps || !m.d2h_gbps) return rate(gbps);
    const double link = std::min(*m.h2d_gbps, *m.d2h_gbps);
    return rate(gbps) + " (" + fixed(100 * gbps / link, 0) + "%)";
}

void end_to_end_section(Report& r, Measured& m, const Options& o, const AeadKey& key) {
    r.heading("(d) AES-256-GCM seal, host memory to host memory");
    const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
    std::vector<unsigned> callers;
    for (unsigned n : {2u, 4u, 8u})
        if (n <= cpus) callers.push_back(n);
    r.line(
        "Through the cuda backend's `seal` (`AeadKey`): 64 KiB chunks, 16-byte tags. \"one "
        "call\": the whole batch in one `seal` call (median of the repeats). \"N callers\": " +
        size_label(cuda::kPreferredBatchBytes) +
        " calls taken in turn by N threads, as the pipeline's workers do (median). First from "
        "and to pageable memory (the backend copies through its pinned staging), then "
        "\"pinned\": the same buffers offered to the backend first, as the pipeline offers its "
        "batches (page-locked, so the data goes by DMA straight from and to them, no copy on "
        "the host). GB/s of plaintext, and in brackets its share of the slower direction of "
        "(b): a seal moves every byte both ways, over a link that carries both directions at "
        "once.")
        .line();
    std::vector<std::string> head = {"batch", "one call GB/s"};
    for (unsigned n : callers) head.push_back(std::to_string(n) + " callers GB/s");
    head.insert(head.end(), {"pinned, one call GB/s", "pinned, 2 callers GB/s"});
    r.header(head);
    m.largest = sizes(o).back();
    HostBatch batch(m.largest, kChunk);

    // Appends one cell per caller count (0: one call) for `total` bytes to `cells`.
    const auto measure = [&](std::size_t total, std::span<const unsigned> caller_counts,
                             const std::string& label, std::vector<std::string>& cells) {
        const unsigned repeats = total <= 1 * MiB    ? (o.quick ? 50 : 200)
                                 : total <= 16 * MiB ? 20
                                                     : 3;
        for (unsigned n : caller_counts) {
            if (n != 0 && total < 2 * cuda::kPreferredBatchBytes) {
                cells.push_back("-");
                continue;
            }
            const Spread s =
                n == 0 ? seal_in_one_call(key, batch, total, repeats)
                       : seal_by_callers(key, batch, total, cuda::kPreferredBatchBytes, n, repeats);
            const double gbps = gb_per_s(total, s.median_s);
            const std::string how = label + (n == 0 ? "one call" : std::to_string(n) + " callers");
            if (total >= 256 * MiB && (!m.best_e2e_gbps || gbps > *m.best_e2e_gbps)) {
                m.best_e2e_gbps = gbps;
                m.best_e2e_how = how + ", " + size_label(total);
            }
            cells.push_back(share_of_pcie(gbps, m));
        }
    };

    std::vector<unsigned> pageable_counts = {0};
    pageable_counts.insert(pageable_counts.end(), callers.begin(), callers.end());
    std::vector<std::vector<std::string>> rows;
    for (std::size_t total : sizes(o)) {
        progress("(d) end to end " + size_label(total));
        rows.push_back({size_label(total)});
        measure(total, pageable_counts, "", rows.back());
    }
    // The pinned columns after pinning once (page-locking a GiB takes a while).
    const auto pins = batch.pin(key);
    const bool pinned =
        std::all_of(pins.begin(), pins.end(), [](const auto& pin) { return pin->pinned(); });
    const std::vector<unsigned> pinned_counts = {0, 2};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::size_t total = sizes(o)[i];
        progress("(d) end to end, pinned " + size_label(total));
        if (pinned)
            measure(total, pinned_counts, "pinned, ", rows[i]);
        else
            rows[i].insert(rows[i].end(), {"could not pin", "could not pin"});
    }
    for (const auto& cells : rows) r.row(cells);
}

// ---- (e) ---------------------------------------------------------------------------------------

void latency_section(Report& r, Measured& m, const AeadKey& key, const cuda::GcmKeyTables& tables) {
    r.heading("(e) One 4 KiB chunk, round trip");
    constexpr unsigned kTrips = 1000;
    r.line("Host time of one AES-256-GCM seal of one 4 KiB chunk (copy in, seal, copy out), " +
           std::to_string(kTrips) +
           " times after a warm-up. \"cuda backend\": the real `seal` "
           "from pageable memory (packing, one copy each way, the kernel, unpacking). \"raw\": "
           "the same copies and kernel on pinned buffers already packed: the floor.")
        .line();
    progress("(e) 4 KiB round trips");
    std::vector<double> backend = seal_round_trips(key, 4 * KiB, kTrips);
    std::vector<double> raw = cuda::bench::raw_gcm_round_trips(tables, 4 * KiB, kTrips);
    auto pct = [](std::vector<double> v, double q) {
        std::sort(v.begin(), v.end());
        return v[static_cast<std::size_t>(q * double(v.size() - 1))];
    };
    r.header({"path", "median us", "10th pct us", "90th pct us"});
    r.row({"cuda backend", micros(pct(backend, 0.5)), micros(pct(backend, 0.1)),
           micros(pct(backend, 0.9))});
    r.row({"raw (pinned)", micros(pct(raw, 0.5)), micros(pct(raw, 0.1)), micros(pct(raw, 0.9))});
    m.round_trip_us = pct(backend, 0.5) * 1e6;
}

// ---- (f) ---------------------------------------------------------------------------------------

std::string cell(std::size_t bytes, double seconds) {
    return fixed(static_cast<double>(bytes) / seconds / 1e6, 0) + " MB/s, " + micros(seconds) +
           " us";
}

void aes_table_section(Report& r, const Measured& m, const Options& o) {
    r.heading("(f) Raw AES, GPU beside the CPU backends");
    std::vector<const Backend*> cpu;
    for (const Backend* b : usable_backends())
        if (b->aes != nullptr && b->aes != cuda::kAes) cpu.push_back(b);
    r.line(
        "The shape of the public CPU-vs-GPU AES experiment: AES-128/192/256 in ECB, encrypt and "
        "decrypt, one call on 4, 8 and 16 KB (KiB here). Each cell: throughput and time per "
        "call. \"GPU kernel\": `launch_ecb` on device-resident data (median of CUDA-event "
        "times). \"GPU end to end\": the cuda backend's raw AES (`BlockCipherKey`) from "
        "pageable memory: copy in, kernel, copy out. CPU backends: one thread, the mean of "
        "back-to-back calls for at least " +
        std::string(o.quick ? "10" : "30") + " ms.")
        .line();
    std::vector<std::string> head = {"AES", "direction", "size", "GPU kernel", "GPU end to end"};
    for (const Backend* b : cpu) head.push_back(std::string(b->name));
    r.header(head, 3);
    const double min_s = o.quick ? 0.01 : 0.03;
    for (std::size_t key_len : {16u, 24u, 32u}) {
        progress("(f) AES-" + std::to_string(key_len * 8));
        const std::vector<std::uint8_t> key = random_key(key_len);
        auto tables = std::make_unique<cuda::AesKeyTables>();
        cuda::build_aes_key_tables(key.data(), key.size(), *tables);
        std::optional<BlockCipherKey> gpu;
        if (m.gpu) gpu.emplace(*cuda::kAes, key);
        for (bool decrypt : {false, true}) {
            for (std::size_t bytes : {4 * KiB, 8 * KiB, 16 * KiB}) {
                std::vector<std::uint8_t> in(bytes, 0x3C), out(bytes);
                const std::size_t blocks = bytes / kAesBlockSize;
                std::vector<std::string> cells = {std::to_string(key_len * 8),
                                                  decrypt ? "decrypt" : "encrypt",
                                                  size_label(bytes)};
                if (m.gpu) {
                    const auto t =
                        cuda::bench::ecb_kernel(*tables, decrypt, bytes, o.quick ? 50 : 200);
                    cells.push_back(cell(bytes, t.median_s));
                    cells.push_back(
                        cell(bytes, seconds_per_call(
                                        [&] {
                                            decrypt ? gpu->decrypt(in.data(), out.data(), blocks)
                                                    : gpu->encrypt(in.data(), out.data(), blocks);
                                        },
                                        min_s, 20)));
                } else {
                    cells.insert(cells.end(), {"-", "-"});
                }
                for (const Backend* b : cpu) {
                    const BlockCipherKey k(*b->aes, key);
                    cells.push_back(
                        cell(bytes, seconds_per_call(
                                        [&] {
                                            decrypt ? k.decrypt(in.data(), out.data(), blocks)
                                                    : k.encrypt(in.data(), out.data(), blocks);
                                        },
                                        min_s, 20)));
                }
                r.row(cells);
            }
        }
        secure_wipe(tables.get(), sizeof *tables);
    }
}

// ---- (g) ---------------------------------------------------------------------------------------

std::string verdict(std::optional<bool> met) {
    if (!met) return "not measured";
    return *met ? "met" : "not met";
}

void goals_section(Report& r, const Measured& m) {
    r.heading("(g) The GPU throughput goals");
    r.header({"goal", "measured", "verdict"}, 3);

    std::optional<bool> kernel_met;
    std::string kernel_text = "-";
    for (const auto& [bytes, gbps] : m.kernel_gbps) {
        if (bytes < 256 * MiB) continue;
        kernel_text = (kernel_text == "-" ? "" : kernel_text + ", ") + rate(gbps) + " GB/s at " +
                      size_label(bytes);
        kernel_met = kernel_met.value_or(true) && gbps >= 150;
    }
    r.row({"kernel-only AES-256-GCM >= 150 GB/s on batches >= 256 MiB", kernel_text,
           verdict(kernel_met)});

    std::optional<bool> e2e_met;
    std::string e2e_text = "-";
    if (m.best_e2e_gbps && m.h2d_gbps && m.d2h_gbps) {
        const double link = std::min(*m.h2d_gbps, *m.d2h_gbps);
        const double share = *m.best_e2e_gbps / link;
        e2e_text = rate(*m.best_e2e_gbps) + " GB/s (" + m.best_e2e_how +
                   ") = " + fixed(100 * share, 0) + "% of " + rate(link) + " GB/s";
        e2e_met = share >= 0.70;
    }
    r.row({"end to end >= 70% of the pinned PCIe bandwidth (batches >= 256 MiB)", e2e_text,
           verdict(e2e_met)});

    std::optional<bool> rt_met;
    std::string rt_text = "-";
    if (m.round_trip_us) {
        rt_text = fixed(*m.round_trip_us, 1) + " us (median, cuda backend)";
        rt_met = *m.round_trip_us <= 30;
    }
    r.row({"one 4 KiB chunk round trip <= 30 us", rt_text, verdict(rt_met)});
}

// ---- main
// ----------------------------------------------------------------------------------------

int run(const Options& o) {
    Report r(o.out);
    Measured m;
    bool failed = false;
    auto section = [&](const char* name, const std::function<void()>& body) {
        try {
            body();
        } catch (const std::exception& e) {
            failed = true;
            r.line().line("**" + std::string(name) + " failed: " + e.what() + "**");
            std::cerr << "warpcrypt-gpu-bench: " << name << " failed: " << e.what() << std::endl;
        }
    };
    section("(a)", [&] { device_section(r, m); });
    std::unique_ptr<cuda::GcmKeyTables> tables;
    std::optional<AeadKey> key;
    if (m.gpu) {
        const std::vector<std::uint8_t> key_bytes = random_key(32);
        tables = std::make_unique<cuda::GcmKeyTables>();
        cuda::build_gcm_key_tables(key_bytes.data(), key_bytes.size(), *tables);
        key.emplace(*cuda::kAesGcm, key_bytes);
        section("(b)", [&] { pcie_section(r, m, o); });
        section("(c)", [&] { kernel_section(r, m, o, *tables); });
        section("(d)", [&] { end_to_end_section(r, m, o, *key); });
        section("(e)", [&] { latency_section(r, m, *key, *tables); });
    }
    section("(f)", [&] { aes_table_section(r, m, o); });
    section("(g)", [&] { goals_section(r, m); });
    if (tables) secure_wipe(tables.get(), sizeof *tables);
    if (!m.gpu) return 3;
    return failed ? 1 : 0;
}

}  // namespace
}  // namespace warp::gpubench

int main(int argc, char** argv) {
    warp::gpubench::Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--out" && i + 1 < argc) {
            options.out = argv[++i];
        } else if (arg == "--quick") {
            options.quick = true;
        } else if (arg == "--help" || arg == "-h") {
            std::cout << warp::gpubench::kUsage;
            return 0;
        } else {
            std::cerr << "warpcrypt-gpu-bench: unknown argument '" << arg << "'\n"
                      << warp::gpubench::kUsage;
            return 2;
        }
    }
    try {
        return warp::gpubench::run(options);
    } catch (const std::exception& e) {
        std::cerr << "warpcrypt-gpu-bench: error: " << e.what() << std::endl;
        return 1;
    }
}
