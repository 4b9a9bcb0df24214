// Each post-quantum identity's seed expanded once per run (hpke-pq.md, expandKey: SHAKE256 of
// the seed, then FIPS 203 Algorithm 16's ML-KEM key generation and an X25519 public key), not
// once per slot or stanza tried: a reader tries every identity on every hybrid slot or stanza
// of a file (nothing names the recipient), and the expansion costs as much as a
// decapsulation. With the expansion cached, a try is one decapsulation.
//
// The expanded keys are kept in locked memory (SecretBytes), at most kCachedHybridKeys of them,
// the oldest dropped (and wiped) first; they live until the process ends or
// forget_expanded_hybrid_keys(), as the identities they come from live for the whole run.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "formats/keys/pq/mlkem768x25519.hpp"

namespace warp::formats::pq {

inline constexpr std::size_t kCachedHybridKeys = 8;

// hybrid_expand(seed), from the cache when this seed was expanded before (found by a
// constant-time comparison of the seeds). Thread-safe.
std::shared_ptr<const HybridKeyPair> hybrid_expand_cached(
    std::span<const std::uint8_t, kHybridSeedSize> seed);

// Wipes every cached expansion (those still in use are wiped when their last user lets go).
void forget_expanded_hybrid_keys() noexcept;

}  // namespace warp::formats::pq
