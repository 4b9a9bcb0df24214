// What post-quantum keys cost, operation by operation (Google Benchmark): ML-KEM-768's key
// generation, encapsulation and decapsulation (FIPS 203, formats/keys/pq/mlkem768.cpp), the
// MLKEM768-X25519 hybrid's (a reader's first try of an identity expands its seed, later
// tries find it in the per-run cache), and X25519 alone, the classic recipient's whole cost,
// measured in the same run. scripts/bench.sh measures what that means for a whole 4 KiB file.
//
//   build/release/tests/bench/warpcrypt-pq-bench [--benchmark_min_time=0.2]
#include <benchmark/benchmark.h>

#include <array>

#include "formats/keys/pq/hybrid_key_cache.hpp"
#include "formats/keys/pq/hybrid_keys.hpp"
#include "formats/keys/pq/mlkem768.hpp"
#include "formats/keys/pq/mlkem768x25519.hpp"
#include "formats/keys/x25519.hpp"
#include "formats/keys/x25519_exchange.hpp"

namespace {

using namespace warp::formats;
namespace mlkem = pq::mlkem768;

template <std::size_t N>
std::array<std::uint8_t, N> bytes_from(std::uint8_t start) {
    std::array<std::uint8_t, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = static_cast<std::uint8_t>(start + i);
    return out;
}

void BM_MlKem768KeyGen(benchmark::State& state) {
    const auto seed = bytes_from<mlkem::kSeedSize>(1);
    for (auto _ : state) benchmark::DoNotOptimize(mlkem::generate_key_pair(seed));
}
BENCHMARK(BM_MlKem768KeyGen);

void BM_MlKem768Encaps(benchmark::State& state) {
    const mlkem::KeyPair pair = mlkem::generate_key_pair(bytes_from<mlkem::kSeedSize>(1));
    const auto m = bytes_from<mlkem::kMessageSize>(2);
    mlkem::Ciphertext c{};
    mlkem::SharedKey key;
    for (auto _ : state) {
        benchmark::DoNotOptimize(mlkem::encapsulate(pair.encapsulation_key, m, c, key));
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_MlKem768Encaps);

void BM_MlKem768Decaps(benchmark::State& state) {
    const mlkem::KeyPair pair = mlkem::generate_key_pair(bytes_from<mlkem::kSeedSize>(1));
    mlkem::Ciphertext c{};
    mlkem::SharedKey sent, key;
    mlkem::encapsulate(pair.encapsulation_key, bytes_from<mlkem::kMessageSize>(2), c, sent);
    for (auto _ : state) {
        benchmark::DoNotOptimize(mlkem::decapsulate(pair.decapsulation_key.span(), c, key));
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_MlKem768Decaps);

// Decapsulation with a dk checked once (FIPS 203 section 7.3's hash of ek not redone), as the
// hybrid KEM decapsulates with the key it expanded.
void BM_MlKem768DecapsCheckedKey(benchmark::State& state) {
    const mlkem::KeyPair pair = mlkem::generate_key_pair(bytes_from<mlkem::kSeedSize>(1));
    mlkem::Ciphertext c{};
    mlkem::SharedKey sent, key;
    mlkem::encapsulate(pair.encapsulation_key, bytes_from<mlkem::kMessageSize>(2), c, sent);
    for (auto _ : state) {
        benchmark::DoNotOptimize(
            mlkem::decapsulate_checked_key(pair.decapsulation_key.span(), c, key));
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_MlKem768DecapsCheckedKey);

void BM_HybridKeyGen(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(pq::generate_hybrid_identity());
}
BENCHMARK(BM_HybridKeyGen);

void BM_HybridEncaps(benchmark::State& state) {
    const pq::HybridIdentity identity = pq::generate_hybrid_identity();
    const auto randomness = bytes_from<pq::kHybridRandomSize>(3);
    pq::HybridEnc enc{};
    pq::HybridShared shared;
    for (auto _ : state) {
        benchmark::DoNotOptimize(pq::hybrid_encapsulate(identity.public_key, randomness, enc, shared));
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_HybridEncaps);

// What a reader's first try of an identity costs: expand the seed, then decapsulate.
void BM_HybridDecapsFromSeed(benchmark::State& state) {
    const pq::HybridIdentity identity = pq::generate_hybrid_identity();
    pq::HybridEnc enc{};
    pq::HybridShared sent, shared;
    pq::hybrid_encapsulate(identity.public_key, bytes_from<pq::kHybridRandomSize>(3), enc, sent);
    for (auto _ : state) {
        const pq::HybridKeyPair key = pq::hybrid_expand(identity.seed.span().first<pq::kHybridSeedSize>());
        benchmark::DoNotOptimize(pq::hybrid_decapsulate(key, enc, shared));
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_HybridDecapsFromSeed);

// Every later try in the run: the expansion from the cache (hybrid_key_cache.hpp), then one
// decapsulation.
void BM_HybridDecapsCachedIdentity(benchmark::State& state) {
    const pq::HybridIdentity identity = pq::generate_hybrid_identity();
    pq::HybridEnc enc{};
    pq::HybridShared sent, shared;
    pq::hybrid_encapsulate(identity.public_key, bytes_from<pq::kHybridRandomSize>(3), enc, sent);
    const auto seed = identity.seed.span().first<pq::kHybridSeedSize>();
    for (auto _ : state) {
        const auto key = pq::hybrid_expand_cached(seed);
        benchmark::DoNotOptimize(pq::hybrid_decapsulate(*key, enc, shared));
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_HybridDecapsCachedIdentity);

// The classic recipient: one X25519 each way (libsodium), the reference of this run.
void BM_X25519Exchange(benchmark::State& state) {
    const X25519Identity identity = generate_x25519_identity();
    const auto scalar = bytes_from<kX25519KeySize>(4);
    std::array<std::uint8_t, kX25519KeySize> shared{};
    for (auto _ : state) {
        benchmark::DoNotOptimize(x25519_shared_secret(scalar, identity.public_key, shared));
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_X25519Exchange);

}  // namespace

BENCHMARK_MAIN();
