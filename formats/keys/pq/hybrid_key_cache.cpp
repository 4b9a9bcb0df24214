// The per-run cache of expanded post-quantum identities (hybrid_key_cache.hpp). Seeds are
// compared in constant time, every entry every time; that a seed was seen before is public (a
// cached expansion is visibly faster anyway), the seed is not.
#include "formats/keys/pq/hybrid_key_cache.hpp"

#include <deque>
#include <mutex>

#include "engine/secure_memory.hpp"

namespace warp::formats::pq {
namespace {

struct CachedKey {
    SecretBytes seed;
    std::shared_ptr<const HybridKeyPair> key;
};

struct Cache {
    std::mutex mutex;
    std::deque<CachedKey> entries;  // oldest first
};

Cache& cache() {
    static Cache instance;  // destroyed at exit, which wipes what it still holds
    return instance;
}

}  // namespace

std::shared_ptr<const HybridKeyPair> hybrid_expand_cached(
    std::span<const std::uint8_t, kHybridSeedSize> seed) {
    Cache& c = cache();
    {
        const std::lock_guard lock(c.mutex);
        std::shared_ptr<const HybridKeyPair> found;
        for (const CachedKey& entry : c.entries)
            if (equal_in_constant_time(entry.seed.data(), seed.data(), kHybridSeedSize))
                found = entry.key;
        if (found) return found;
    }
    // Expanded outside the lock: two threads with one new seed may both expand it, harmlessly.
    auto key = std::make_shared<const HybridKeyPair>(hybrid_expand(seed));
    const std::lock_guard lock(c.mutex);
    if (c.entries.size() == kCachedHybridKeys) c.entries.pop_front();
    c.entries.push_back(CachedKey{SecretBytes(seed), key});
    return key;
}

void forget_expanded_hybrid_keys() noexcept {
    Cache& c = cache();
    const std::lock_guard lock(c.mutex);
    c.entries.clear();
}

}  // namespace warp::formats::pq
