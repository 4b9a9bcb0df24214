// Each post-quantum identity's seed expanded once per run (hpke-pq.md, expandKey: SHAKE256 of
// the seed, then FIPS 203 Algorithm 16's ML-KEM key generation and an X25519 public key), not
// once per slot or stanza tried: a reader tries every identity on every hybrid slot or stanza
// of a file (nothing names the recipient), and the expansion costs as much as a
// decapsulation. With the expansion cached, a try is one decapsulation.
//
// A run is a scope: while a HybridKeyCacheScope lives on a thread, hybrid_expand_cached on that
// thread keeps what it expands there (locked memory, at most kCachedHybridKeys keys, the oldest
// wiped first), and the scope wipes them all when it ends. formats/file.cpp opens one for each
// decryption, verification, range and rekey, so a long-lived process (the C library, the
// Python package) keeps no expanded secret beyond the call that needed it. Without a scope,
// every call expands afresh. Scopes nest; the innermost is used.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "formats/keys/pq/mlkem768x25519.hpp"

namespace warp::formats::pq {

inline constexpr std::size_t kCachedHybridKeys = 8;

class HybridKeyCacheScope {
public:
    HybridKeyCacheScope();
    ~HybridKeyCacheScope();
    HybridKeyCacheScope(const HybridKeyCacheScope&) = delete;
    HybridKeyCacheScope& operator=(const HybridKeyCacheScope&) = delete;

    struct Entries;  // hybrid_key_cache.cpp

private:
    std::unique_ptr<Entries> entries_;
    HybridKeyCacheScope* outer_;
    friend std::shared_ptr<const HybridKeyPair> hybrid_expand_cached(
        std::span<const std::uint8_t, kHybridSeedSize> seed);
};

// hybrid_expand(seed), from this thread's innermost scope when this seed was expanded in it
// before (found by a constant-time comparison of the seeds).
std::shared_ptr<const HybridKeyPair> hybrid_expand_cached(
    std::span<const std::uint8_t, kHybridSeedSize> seed);

}  // namespace warp::formats::pq
