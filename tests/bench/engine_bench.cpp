// In-process throughput of every usable backend: AEAD seal/open and raw AES-ECB, single
// thread, one message per call. A measurement tool, never a pass/fail test (docs/design.md, "tests/
// and scripts/").
//
//   build/release/tests/bench/warpcrypt-engine-bench --benchmark_filter='/16384$'
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/registry.hpp"

namespace warp {

#if defined(__x86_64__)
void register_chacha_parts();  // chacha_parts_bench.cpp
#endif

namespace {

constexpr std::size_t kSizes[] = {100, 1024, 4096, 16384, 65536, 1 << 20};

struct AeadCase {
    const char* name;
    Aead aead;
    std::size_t key_len;
};
constexpr AeadCase kAeads[] = {
    {"aes-128-gcm", Aead::aes_gcm, 16},
    {"aes-256-gcm", Aead::aes_gcm, 32},
    {"chacha20-poly1305", Aead::chacha20_poly1305, 32},
};

void bench_aead(benchmark::State& state, const AeadImpl* impl, std::size_t key_len, bool seal) {
    const auto len = static_cast<std::size_t>(state.range(0));
    const std::vector<std::uint8_t> key(key_len, 0x42);
    const std::uint8_t nonce[kChunkNonceSize] = {1, 2, 3};
    std::vector<std::uint8_t> text(len, 0x5a), sealed(len), opened(len), tag(kMaxTagSize);
    const AeadKey aead_key(*impl, key);
    const AeadChunk seal_chunk{nonce, sizeof nonce, nullptr, 0, text.data(), sealed.data(), len,
                               tag.data()};
    // Open reads `sealed` and writes `opened`, so the same valid ciphertext opens every time.
    const AeadChunk open_chunk{nonce, sizeof nonce, nullptr, 0, sealed.data(), opened.data(), len,
                               tag.data()};
    aead_key.seal({&seal_chunk, 1});
    bool ok = false;
    for (auto _ : state) {
        if (seal)
            aead_key.seal({&seal_chunk, 1});
        else
            aead_key.open({&open_chunk, 1}, &ok);
        benchmark::DoNotOptimize(ok);
        benchmark::ClobberMemory();
    }
    if (!seal && !ok) state.SkipWithError("open failed to authenticate");
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * len));
}

void bench_ecb(benchmark::State& state, const BlockCipherImpl* impl, std::size_t key_len) {
    const auto len = static_cast<std::size_t>(state.range(0)) / kAesBlockSize * kAesBlockSize;
    const std::vector<std::uint8_t> key(key_len, 0x42);
    std::vector<std::uint8_t> buf(len, 0x5a);
    const BlockCipherKey block_key(*impl, key);
    for (auto _ : state) {
        block_key.encrypt(buf.data(), buf.data(), len / kAesBlockSize);
        benchmark::DoNotOptimize(buf.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * len));
}

void register_all() {
    for (const Backend* backend : usable_backends()) {
        const std::string prefix(backend->name);
        for (const AeadCase& c : kAeads) {
            const AeadImpl* impl = backend->aead(c.aead);
            if (impl == nullptr) continue;
            for (bool seal : {true, false}) {
                auto* b = benchmark::RegisterBenchmark(
                    (prefix + "/" + c.name + (seal ? "/seal" : "/open")).c_str(),
                    [impl, c, seal](benchmark::State& s) { bench_aead(s, impl, c.key_len, seal); });
                for (std::size_t size : kSizes) b->Arg(static_cast<std::int64_t>(size));
            }
        }
        if (backend->aes == nullptr) continue;
        for (std::size_t key_len : {16u, 24u, 32u}) {
            auto* b = benchmark::RegisterBenchmark(
                (prefix + "/aes-" + std::to_string(key_len * 8) + "-ecb/encrypt").c_str(),
                [impl = backend->aes, key_len](benchmark::State& s) { bench_ecb(s, impl, key_len); });
            for (std::size_t size : kSizes) b->Arg(static_cast<std::int64_t>(size));
        }
    }
}

}  // namespace
}  // namespace warp

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    warp::register_all();
#if defined(__x86_64__)
    warp::register_chacha_parts();
#endif
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
