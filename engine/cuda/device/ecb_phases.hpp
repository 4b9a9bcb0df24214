// The raw AES (ECB) kernels as phases, in the manner of gcm_phases.hpp: load the replicated
// tables and the round keys into shared memory, barrier, then a grid-stride loop in which
// thread t of block b encrypts or decrypts blocks b·T + t, b·T + t + G·T, ... (G blocks of T
// threads). One kernel per direction, so each declares only the tables it reads:
//   encrypt: T0 and T2 paired (64 KiB) + round keys;
//   decrypt: InvT0 and InvT2 paired (64 KiB) + the packed inverse S-box replicated (8 KiB)
//            + round keys.
#pragma once

#include <cstdint>

#include "engine/cuda/device/aes_rounds.hpp"
#include "engine/cuda/device/aes_tables.hpp"
#include "engine/cuda/device/portability.hpp"
#include "engine/cuda/kernel_api.hpp"

namespace warp::cuda::device {

static_assert(kEcbThreads == kAesTableEntries, "ecb_load gives each thread one table entry");

struct EcbEncryptShared {
    AesSharedKey key;
    std::uint32_t t0_t2[kAesPairWords];
};

struct EcbDecryptShared {
    std::uint32_t inv_t0_t2[kAesPairWords];
    std::uint32_t inv_sbox[kInvSboxTableWords];
    AesSharedKey key;
};
// Three thread blocks per multiprocessor (kernels.cu) must fit in an H100/H200's 228 KiB,
// 1 KiB of which each thread block's system use takes.
static_assert(3 * (sizeof(EcbDecryptShared) + 1024) <= 228 * 1024, "three per multiprocessor");

// Thread blocks of an ECB launch over `blocks` AES blocks: enough for one block per thread, at
// most kEcbMaxGrid, what an H200 holds at once (132 multiprocessors, 3 of these thread blocks
// each: kernels.cu's launch bounds); beyond that the grid-stride loop does the rest and each
// thread block's table load is paid once. The kernels and the emulator both size the grid with
// this function.
inline constexpr std::uint32_t kEcbMaxGrid = 132 * 3;

WARP_HD WARP_INLINE std::uint32_t ecb_grid_blocks(std::uint64_t blocks) {
    const std::uint64_t wanted = (blocks + kEcbThreads - 1) / kEcbThreads;
    return wanted < kEcbMaxGrid ? static_cast<std::uint32_t>(wanted) : kEcbMaxGrid;
}

// Phase 1, load: thread t fills table entry t in all 32 copies, and round key word t.
WARP_HD inline void ecb_load(const EcbLaunch& launch, EcbEncryptShared& sh, unsigned, unsigned t) {
    const std::uint32_t t0 = aes_table_source().t0[t];
    replicate_pair_entry(sh.t0_t2, t, t0, rotl32(t0, 16), t % kLanes);
    load_round_key_word(sh.key, launch.key->encrypt.words, launch.key->encrypt.rounds, false, t);
}

WARP_HD inline void ecb_load(const EcbLaunch& launch, EcbDecryptShared& sh, unsigned, unsigned t) {
    const std::uint32_t lane = t % kLanes;
    const std::uint32_t inv_t0 = aes_table_source().inv_t0[t];
    replicate_pair_entry(sh.inv_t0_t2, t, inv_t0, rotl32(inv_t0, 16), lane);
    if (t < kInvSboxWords) replicate_entry(sh.inv_sbox, t, aes_table_source().inv_sbox[t], lane);
    load_round_key_word(sh.key, launch.key->decrypt.words, launch.key->decrypt.rounds, true, t);
}

// Phase 2, the blocks (in place allowed: each block is read before it is written, by the one
// thread that owns it), with the loop instantiated per key length (aes_rounds.hpp says why).
template <unsigned Rounds>
WARP_HD WARP_INLINE Words4 ecb_block(const EcbEncryptShared& sh, std::uint32_t lane,
                                     const Words4& in) {
    return aes_encrypt_block<Rounds>(sh.t0_t2, sh.key, lane, in);
}
template <unsigned Rounds>
WARP_HD WARP_INLINE Words4 ecb_block(const EcbDecryptShared& sh, std::uint32_t lane,
                                     const Words4& in) {
    return aes_decrypt_block<Rounds>(sh.inv_t0_t2, sh.inv_sbox, sh.key, lane, in);
}

template <unsigned Rounds, class Shared>
WARP_HD inline void ecb_crypt_loop(const EcbLaunch& launch, const Shared& sh, std::uint64_t first,
                                   std::uint32_t lane) {
    const std::uint64_t stride = std::uint64_t{ecb_grid_blocks(launch.blocks)} * kEcbThreads;
    for (std::uint64_t i = first; i < launch.blocks; i += stride)
        store_block_aligned(launch.out + 16 * i,
                            ecb_block<Rounds>(sh, lane, load_block_aligned(launch.in + 16 * i)));
}

template <class Shared>
WARP_HD inline void ecb_crypt_from(const EcbLaunch& launch, const Shared& sh, std::uint64_t first,
                                   std::uint32_t lane) {
    with_rounds(sh.key.rounds,
                [&](auto r) { ecb_crypt_loop<decltype(r)::value>(launch, sh, first, lane); });
}

// The idle threads of a short launch leave before the loop (in the emulator, without paying
// for a call into it: a one-block launch, as the ACVP Monte Carlo test makes by the
// hundred thousand, has 255 of them).
template <class Shared>
WARP_HD WARP_INLINE void ecb_crypt(const EcbLaunch& launch, const Shared& sh, unsigned block,
                                   unsigned t) {
    const std::uint64_t first = std::uint64_t{block} * kEcbThreads + t;
    if (first < launch.blocks) ecb_crypt_from(launch, sh, first, t % kLanes);
}

struct EcbLoadPhase {
    template <class Shared>
    WARP_HD void operator()(const EcbLaunch& l, Shared& sh, unsigned b, unsigned t) const {
        ecb_load(l, sh, b, t);
    }
};
struct EcbCryptPhase {
    template <class Shared>
    WARP_HD void operator()(const EcbLaunch& l, Shared& sh, unsigned b, unsigned t) const {
        ecb_crypt(l, sh, b, t);
    }
};

// As gcm_phases: run(phase) runs the phase in every thread, then a barrier (load -> crypt:
// the tables are complete before the first lookup).
template <class Run>
WARP_HD void ecb_phases(Run&& run) {
    run(EcbLoadPhase{});
    run(EcbCryptPhase{});
}

}  // namespace warp::cuda::device
