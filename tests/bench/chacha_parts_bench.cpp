// The parts of x86-avx512's ChaCha20-Poly1305 step, each alone, for the bound issue 48 asks
// about (docs/performance.md, "ChaCha20-Poly1305 on AVX-512"): sixteen ChaCha20 blocks with no
// MAC beside them, Poly1305 on IFMA with no ChaCha20 beside it, and the two stitched as the
// AEAD runs them, each over a whole buffer, one thread. If the stitched step took as long as
// its parts summed, the two would share their ports entirely; if as long as the longer part,
// not at all. Registered by engine_bench.cpp where the CPU has AVX-512 F/BW/VL and IFMA.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/cpu_features.hpp"
#include "engine/scalar/chacha/chacha_input.hpp"
#include "engine/x86/avx512/chacha20_poly1305_stitched.hpp"

namespace warp {
namespace {

namespace avx512 = x86::avx512;

enum class Part { chacha20, poly1305, stitched };

void bench_part(benchmark::State& state, Part part) {
    const auto len = static_cast<std::size_t>(state.range(0));
    const std::vector<std::uint8_t> key(32, 0x42), nonce(12, 0x24);
    std::vector<std::uint8_t> text(len, 0x5a), out(len);
    const scalar::ChaChaInput input = scalar::chacha_input(key.data(), nonce.data());
    constexpr std::size_t kStep = avx512::kStitchedStep;
    constexpr std::size_t kMacBlocks = kStep / 16;
    for (auto _ : state) {
        x86::avx2::PolyState mac{};
        x86::avx2::poly_init(mac, key.data());
        avx512::IfmaPowers powers{};
        if (part == Part::poly1305) {
            avx512::poly_absorb_ifma(mac, powers, text.data(), len);
        } else {
            const std::size_t blocks = part == Part::stitched ? kMacBlocks : 0;
            for (std::size_t at = 0; at + kStep <= len; at += kStep)
                avx512::xor16_stitched(input, static_cast<std::uint32_t>(1 + at / 64),
                                       text.data() + at, out.data() + at, mac, powers,
                                       text.data() + at, blocks);
        }
        benchmark::DoNotOptimize(mac);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * len));
}

}  // namespace

void register_chacha_parts() {
    const CpuFeatures& cpu = cpu_features();
    if (!(cpu.avx512f && cpu.avx512bw && cpu.avx512vl && cpu.avx512ifma)) return;
    const std::pair<const char*, Part> parts[] = {{"chacha20-alone", Part::chacha20},
                                                  {"poly1305-ifma-alone", Part::poly1305},
                                                  {"chacha20+poly1305-stitched", Part::stitched}};
    for (const auto& [name, part] : parts) {
        auto* b = benchmark::RegisterBenchmark(
            (std::string("x86-avx512-parts/") + name).c_str(),
            [part = part](benchmark::State& s) { bench_part(s, part); });
        for (std::int64_t size : {16384, 65536}) b->Arg(size);
    }
}

}  // namespace warp
