// The per-run cache of expanded post-quantum identities (formats/keys/pq/hybrid_key_cache.hpp):
// one expansion per seed within a scope, the same as hybrid_expand's, the oldest dropped past
// the bound, nothing kept outside a scope or after it, and the innermost of nested scopes used.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "formats/keys/pq/hybrid_key_cache.hpp"

namespace warp::formats::pq {
namespace {

std::array<std::uint8_t, kHybridSeedSize> seed_of(std::uint8_t fill) {
    std::array<std::uint8_t, kHybridSeedSize> seed{};
    seed.fill(fill);
    seed[0] = 0xC4;  // not any other test's seed
    return seed;
}

TEST(HybridKeyCache, ASeedIsExpandedOncePerScopeAndAsHybridExpandDoes) {
    const HybridKeyCacheScope scope;
    const auto seed = seed_of(1);
    const auto first = hybrid_expand_cached(seed);
    const auto again = hybrid_expand_cached(seed);
    EXPECT_EQ(first.get(), again.get());
    const HybridKeyPair direct = hybrid_expand(seed);
    EXPECT_EQ(first->public_key, direct.public_key);
    EXPECT_EQ(std::vector<std::uint8_t>(first->mlkem.decapsulation_key.span().begin(),
                                        first->mlkem.decapsulation_key.span().end()),
              std::vector<std::uint8_t>(direct.mlkem.decapsulation_key.span().begin(),
                                        direct.mlkem.decapsulation_key.span().end()));
    EXPECT_NE(hybrid_expand_cached(seed_of(2)).get(), first.get());
}

TEST(HybridKeyCache, TheOldestIsDroppedPastTheBound) {
    const HybridKeyCacheScope scope;
    const auto oldest = hybrid_expand_cached(seed_of(10));
    for (std::uint8_t i = 1; i < kCachedHybridKeys; ++i)
        hybrid_expand_cached(seed_of(static_cast<std::uint8_t>(10 + i)));
    EXPECT_EQ(hybrid_expand_cached(seed_of(10)).get(), oldest.get());  // still held
    hybrid_expand_cached(seed_of(100));  // one more than the bound: seed 10 goes
    EXPECT_NE(hybrid_expand_cached(seed_of(10)).get(), oldest.get());
}

TEST(HybridKeyCache, NothingIsKeptOutsideAScopeOrAfterIt) {
    const auto seed = seed_of(20);
    EXPECT_NE(hybrid_expand_cached(seed).get(), hybrid_expand_cached(seed).get());
    std::shared_ptr<const HybridKeyPair> from_scope;
    {
        const HybridKeyCacheScope scope;
        from_scope = hybrid_expand_cached(seed);
    }
    EXPECT_NE(hybrid_expand_cached(seed).get(), from_scope.get());
}

TEST(HybridKeyCache, NestedScopesUseTheInnermostAndRestoreTheOuter) {
    const HybridKeyCacheScope outer;
    const auto seed = seed_of(30);
    const auto in_outer = hybrid_expand_cached(seed);
    {
        const HybridKeyCacheScope inner;
        EXPECT_NE(hybrid_expand_cached(seed).get(), in_outer.get());
    }
    EXPECT_EQ(hybrid_expand_cached(seed).get(), in_outer.get());
}

}  // namespace
}  // namespace warp::formats::pq
