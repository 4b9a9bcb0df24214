// The per-run cache of expanded post-quantum identities (hybrid_key_cache.hpp). Seeds are
// compared in constant time, every entry every time; that a seed was seen before is public (a
// cached expansion is visibly faster anyway), the seed is not.
#include "formats/keys/pq/hybrid_key_cache.hpp"

#include <deque>

#include "engine/secure_memory.hpp"

namespace warp::formats::pq {
namespace {

struct CachedKey {
    SecretBytes seed;
    std::shared_ptr<const HybridKeyPair> key;  // wiped when its last holder lets go
};

thread_local HybridKeyCacheScope* innermost = nullptr;

}  // namespace

struct HybridKeyCacheScope::Entries {
    std::deque<CachedKey> keys;  // oldest first
};

HybridKeyCacheScope::HybridKeyCacheScope()
    : entries_(std::make_unique<Entries>()), outer_(innermost) {
    innermost = this;
}

HybridKeyCacheScope::~HybridKeyCacheScope() { innermost = outer_; }

std::shared_ptr<const HybridKeyPair> hybrid_expand_cached(
    std::span<const std::uint8_t, kHybridSeedSize> seed) {
    HybridKeyCacheScope* scope = innermost;
    if (scope == nullptr) return std::make_shared<const HybridKeyPair>(hybrid_expand(seed));
    std::deque<CachedKey>& keys = scope->entries_->keys;
    std::shared_ptr<const HybridKeyPair> found;
    for (const CachedKey& entry : keys)
        if (equal_in_constant_time(entry.seed.data(), seed.data(), kHybridSeedSize))
            found = entry.key;
    if (found) return found;
    auto key = std::make_shared<const HybridKeyPair>(hybrid_expand(seed));
    if (keys.size() == kCachedHybridKeys) keys.pop_front();
    keys.push_back(CachedKey{SecretBytes(seed), key});
    return key;
}

}  // namespace warp::formats::pq
