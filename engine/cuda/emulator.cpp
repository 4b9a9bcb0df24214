// The CPU emulator of the CUDA kernels (kernel_api.hpp: emulate_gcm, emulate_ecb) and the two
// backend tables built on it, kAesGcmEmulated and kAesEmulated (cuda.hpp), through which the
// tests run the GPU algorithm against every vector file, the ACVP sets and the other backends.
//
// How a launch is emulated: for each thread block, each phase of the kernel (device/
// gcm_phases.hpp, device/ecb_phases.hpp) runs for thread 0, 1, ..., T-1, and only then the
// next phase starts: exactly the guarantee __syncthreads() gives, and nothing more, since no
// value survives in a "register" from one phase to the next. Thread blocks share nothing on
// the GPU, so they run here one after the other, each to its end, in one shared-memory block
// on the heap (as a multiprocessor reuses its shared memory for the next thread block). That
// block is filled with a junk pattern when allocated, as the GPU's shared memory is not
// initialised either, and its secret parts are zeroed after every launch: a phase that read
// an entry the load phase forgot would go wrong here.
#include <cstring>
#include <memory>
#include <vector>

#include "engine/cuda/batch_layout.hpp"
#include "engine/cuda/cuda.hpp"
#include "engine/cuda/device/ecb_phases.hpp"
#include "engine/cuda/device/gcm_phases.hpp"
#include "engine/cuda/kernel_api.hpp"
#include "engine/secure_memory.hpp"

namespace warp::cuda {
namespace {

// run(phase) for gcm_phases / ecb_phases: the phase in every thread of `block`, in turn.
template <class Launch, class Shared>
struct CpuBlockRun {
    const Launch& launch;
    Shared& shared;
    unsigned block;
    unsigned threads;

    template <class Phase>
    void operator()(const Phase& phase) const {
        for (unsigned t = 0; t < threads; ++t) phase(launch, shared, block, t);
    }
};

// This thread's shared-memory block for kernels of type Shared: allocated and filled with junk
// at first use, then reused by every launch on this thread (a launch rewrites all of it before
// reading it, and wipes its secret parts when it ends). Reuse matters for the many one-block
// calls of the ACVP Monte Carlo tests: allocating and filling 64-100 KiB each time would double
// their run time.
template <class Shared>
Shared& shared_memory() {
    thread_local const std::unique_ptr<Shared> shared = [] {
        std::unique_ptr<Shared> fresh(new Shared);
        std::memset(static_cast<void*>(fresh.get()), 0xa5, sizeof(Shared));
        return fresh;
    }();
    return *shared;
}

template <class Shared>
void emulate_ecb_kernel(const EcbLaunch& launch) {
    if (launch.blocks == 0) return;
    Shared& shared = shared_memory<Shared>();
    const unsigned grid = device::ecb_grid_blocks(launch.blocks);
    for (unsigned block = 0; block < grid; ++block)
        device::ecb_phases(CpuBlockRun<EcbLaunch, Shared>{launch, shared, block, kEcbThreads});
    secure_wipe(&shared.key, sizeof shared.key);  // the tables are public; the keys are not
}

// ---- The backends -----------------------------------------------------------------------

const GcmKeyTables& gcm_key(const void* state) { return *static_cast<const GcmKeyTables*>(state); }

// One packed batch on the heap, wiped when dropped: `in` holds plaintext when sealing and
// `out` when opening (also that of chunks that then fail), the descriptors hold J0.
class PackedBatch {
public:
    PackedBatch(std::span<const AeadChunk> chunks, const GcmKeyTables& key)
        : sizes_(gcm_batch_sizes(chunks)),
          descs_(sizes_.chunk_count),
          pieces_(sizes_.piece_count),
          in_(sizes_.data_bytes),
          out_(sizes_.data_bytes),
          aad_(sizes_.aad_bytes),
          tags_(sizes_.tag_bytes()),
          sums_(sizes_.sum_bytes()) {
        pack_gcm_batch(chunks, key, descs_.data(), pieces_.data(), in_.data(), aad_.data());
    }
    ~PackedBatch() { secure_wipe(descs_.data(), sizes_.desc_bytes()); }
    PackedBatch(const PackedBatch&) = delete;
    PackedBatch& operator=(const PackedBatch&) = delete;

    void run(const GcmKeyTables& key, bool open) {
        emulate_gcm(GcmLaunch{&key, descs_.data(), static_cast<std::uint32_t>(sizes_.chunk_count),
                              pieces_.data(), static_cast<std::uint32_t>(sizes_.piece_count),
                              sums_.data(), in_.data(), out_.data(), aad_.data(), tags_.data(),
                              open});
    }
    const GcmChunkDesc* descs() const { return descs_.data(); }
    const std::uint8_t* out() const { return out_.data(); }
    const std::uint8_t* tags() const { return tags_.data(); }

private:
    GcmBatchSizes sizes_;
    std::vector<GcmChunkDesc> descs_;
    std::vector<GcmPieceDesc> pieces_;
    SecretBytes in_, out_;
    std::vector<std::uint8_t> aad_;
    SecretBytes tags_, sums_;
};

void gcm_init(void* state, const std::uint8_t* key, std::size_t key_len) {
    build_gcm_key_tables(key, key_len, *static_cast<GcmKeyTables*>(state));
}

void gcm_seal(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len) {
    PackedBatch batch(chunks, gcm_key(state));
    batch.run(gcm_key(state), false);
    finish_gcm_seal(chunks, batch.descs(), batch.out(), batch.tags(), tag_len);
}

std::size_t gcm_open(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                     bool* ok) {
    PackedBatch batch(chunks, gcm_key(state));
    batch.run(gcm_key(state), true);
    return finish_gcm_open(chunks, batch.descs(), batch.out(), batch.tags(), tag_len, ok);
}

void aes_init(void* state, const std::uint8_t* key, std::size_t key_len) {
    build_aes_key_tables(key, key_len, *static_cast<AesKeyTables*>(state));
}

void aes_encrypt(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    emulate_ecb(EcbLaunch{static_cast<const AesKeyTables*>(state), in, out, blocks, false});
}

void aes_decrypt(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    emulate_ecb(EcbLaunch{static_cast<const AesKeyTables*>(state), in, out, blocks, true});
}

}  // namespace

void emulate_gcm(const GcmLaunch& launch) {
    if (launch.chunk_count == 0) return;
    device::GcmShared& shared = shared_memory<device::GcmShared>();
    for (unsigned block = 0; block < launch.piece_count; ++block)
        device::gcm_phases(
            CpuBlockRun<GcmLaunch, device::GcmShared>{launch, shared, block, kGcmThreads});
    // The join kernel, when some chunk was split: one thread per chunk, after every piece.
    if (launch.piece_count != launch.chunk_count)
        for (std::uint32_t c = 0; c < launch.chunk_count; ++c) device::gcm_join_pieces(launch, c);
    // The tables of H^T, the partial sums and the round keys are secret; T0 and T2 are public.
    secure_wipe(shared.h_t_positions, sizeof shared.h_t_positions);
    secure_wipe(shared.partial, sizeof shared.partial);
    secure_wipe(&shared.key, sizeof shared.key);
}

void emulate_ecb(const EcbLaunch& launch) {
    if (launch.decrypt)
        emulate_ecb_kernel<device::EcbDecryptShared>(launch);
    else
        emulate_ecb_kernel<device::EcbEncryptShared>(launch);
}

const AeadImpl kAesGcmEmulated{Aead::aes_gcm, sizeof(GcmKeyTables), &gcm_init, &gcm_seal,
                               &gcm_open};
const BlockCipherImpl kAesEmulated{sizeof(AesKeyTables), &aes_init, &aes_encrypt, &aes_decrypt};

}  // namespace warp::cuda
