// The cuda backend's tables (cuda.hpp: kAesGcm, kAes): a call's chunks or blocks go to the GPU
// in slices, each through one lane of a pooled context (staging.hpp), and come back.
//
// Per slice, on the lane's stream: pack into the lane's pinned "up" buffer (key tables,
// descriptors, AAD, input; one copy, so one DMA), copy it to the device, launch the kernel,
// copy the tags and output into the pinned "down" buffer, record the lane's event. When every
// chunk of the slice lies in memory the caller pinned (the pipeline's batches, pinned_host.hpp)
// the input and output skip the staging buffers: they are copied by DMA straight from the
// chunks' in and to their out, a copy per run of chunks that lie back to back, and the host
// touches no byte of them; only key tables, descriptors, AAD and tags are staged. Slices
// rotate over the lanes; before a lane takes slice k it finishes slice k - lanes (waits for its
// event, then unpacks it into the callers' buffers), so the host packs and unpacks while the
// other lanes' copies and kernels run. The key tables travel with every slice (4.6 KiB next to
// a slice of 2 MiB) so that a lane never depends on another stream's copy.
#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "engine/cuda/batch_layout.hpp"
#include "engine/cuda/cuda.hpp"
#include "engine/cuda/cuda_status.hpp"
#include "engine/cuda/kernel_api.hpp"
#include "engine/cuda/pinned_host.hpp"
#include "engine/cuda/staging.hpp"
#include "engine/error.hpp"
#include "engine/secure_memory.hpp"

namespace warp::cuda {
namespace {

// Offsets within a lane's buffers are multiples of this: what cudaMalloc guarantees for the
// start, so every region is as aligned as a fresh allocation.
constexpr std::size_t kRegionAlign = 256;

constexpr std::size_t align_up(std::size_t n) {
    return (n + kRegionAlign - 1) / kRegionAlign * kRegionAlign;
}

void require_device() {
    const DeviceCheck device = open_device();
    if (!device.usable)
        throw Error(ErrorCause::backend_unavailable,
                    "cuda: " + device.reason + " (run with --backend auto or a CPU backend)");
}

// The lanes of a context, each with what its slice in flight needs for unpacking.
template <typename Slice>
class Rotation {
public:
    explicit Rotation(Context& context)
        : context_(context), slices_(context.lanes.size()), used_(context.lanes.size(), false) {}

    // The next lane, idle: its previous slice (if any) finished by `finish(lane, slice)`.
    template <typename Finish>
    std::size_t next_lane(Finish&& finish) {
        const std::size_t lane = next_++ % slices_.size();
        drain(lane, finish);
        return lane;
    }
    void start(std::size_t lane, const Slice& slice) {
        slices_[lane] = slice;
        used_[lane] = true;
    }
    // Finishes every slice still in flight, oldest first.
    template <typename Finish>
    void drain_all(Finish&& finish) {
        for (std::size_t i = 0; i < slices_.size(); ++i)
            drain((next_ + i) % slices_.size(), finish);
    }
    // Whether this call used the lane (its key tables need wiping).
    bool used(std::size_t lane) const { return used_[lane]; }

private:
    template <typename Finish>
    void drain(std::size_t lane, Finish& finish) {
        if (!slices_[lane].active) return;
        context_.lanes[lane]->wait();
        slices_[lane].active = false;
        finish(*context_.lanes[lane], slices_[lane]);
    }

    Context& context_;
    std::vector<Slice> slices_;
    std::vector<bool> used_;
    std::size_t next_ = 0;
};

// Wipes the host copies of the key tables the lanes carried in this call (all their work has
// completed: every slice was drained). key_bytes at offset 0 of each up buffer.
template <typename Slice>
void wipe_key_copies(Context& context, const Rotation<Slice>& rotation, std::size_t key_bytes) {
    for (std::size_t lane = 0; lane < context.lanes.size(); ++lane)
        if (rotation.used(lane)) secure_wipe(context.lanes[lane]->up().host, key_bytes);
}

// ---- AES-GCM -----------------------------------------------------------------------------

// Where a GCM slice's parts sit in the lane's buffers. The up buffer's first up_bytes go to
// the device; its device side also holds the pieces' sums (GcmLaunch::piece_sums), scratch
// that never travels, at sums_offset.
struct GcmSliceLayout {
    std::size_t desc_offset = 0, piece_offset = 0, aad_offset = 0, data_offset = 0;  // key at 0
    std::size_t up_bytes = 0, sums_offset = 0, up_reserve = 0;
    std::size_t out_offset = 0, down_bytes = 0;  // tags at 0
    std::uint32_t piece_count = 0;               // thread blocks of the launch
};

GcmSliceLayout gcm_slice_layout(const GcmBatchSizes& sizes) {
    GcmSliceLayout at;
    at.desc_offset = align_up(sizeof(GcmKeyTables));
    at.piece_offset = at.desc_offset + align_up(sizes.desc_bytes());
    at.aad_offset = at.piece_offset + align_up(sizes.piece_bytes());
    at.data_offset = at.aad_offset + align_up(sizes.aad_bytes);
    at.up_bytes = at.data_offset + sizes.data_bytes;
    at.sums_offset = align_up(at.up_bytes);
    at.up_reserve = at.sums_offset + sizes.sum_bytes();
    at.out_offset = align_up(sizes.tag_bytes());
    at.down_bytes = at.out_offset + sizes.data_bytes;
    at.piece_count = static_cast<std::uint32_t>(sizes.piece_count);
    return at;
}

// What a chunk adds to a slice's buffers (batch_layout.hpp: data starts at multiples of 16):
// its data, AAD, descriptor and tag, and per piece a descriptor and a sum.
std::size_t gcm_chunk_cost(const AeadChunk& c) {
    const std::size_t pieces = gcm_piece_count(gcm_positions(c.aad_len, c.len));
    return (c.len + 15) / 16 * 16 + c.aad_len + sizeof(GcmChunkDesc) + 16 +
           pieces * (sizeof(GcmPieceDesc) + 16);
}

// The end of the slice that starts at `first`: chunks while they fit in `slice_bytes`, at
// least one (a chunk larger than a slice goes alone, and its lane grows for it).
std::size_t gcm_slice_end(std::span<const AeadChunk> chunks, std::size_t first,
                          std::size_t slice_bytes) {
    std::size_t end = first;
    std::size_t bytes = 0;
    while (end < chunks.size()) {
        const std::size_t cost = gcm_chunk_cost(chunks[end]);
        if (end > first && bytes + cost > slice_bytes) break;
        bytes += cost;
        ++end;
    }
    return end;
}

// Buffer sizes that every slice of at most slice_bytes fits in: its descriptors, pieces,
// sums, AAD, data and tags add up to at most slice_bytes (gcm_chunk_cost), and each region is
// padded to kRegionAlign. Lanes are allocated once at this size and grow only for a lone chunk
// larger than a slice.
std::size_t typical_up_bytes(std::size_t slice_bytes) {
    return align_up(sizeof(GcmKeyTables)) + slice_bytes + 5 * kRegionAlign;
}
std::size_t typical_down_bytes(std::size_t slice_bytes) { return slice_bytes + kRegionAlign; }

struct GcmSlice {
    bool active = false;
    std::size_t first = 0;  // index of the slice's first chunk in the call
    std::span<const AeadChunk> chunks;
    GcmSliceLayout layout;
    bool direct = false;  // the chunks' bytes go straight from in and to out (pinned)
};

// Whether every chunk's input and output lie in pinned caller memory.
bool all_pinned(std::span<const AeadChunk> chunks) {
    for (const AeadChunk& c : chunks)
        if (!is_pinned_host(c.in, c.len) || !is_pinned_host(c.out, c.len)) return false;
    return true;
}

// Enqueues the copies of the chunks' bytes between their own memory and the device's data
// region (at each descriptor's data_offset): from in to the device, or from the device to out.
// Chunks that lie back to back on both sides (a whole number of blocks apart) share one copy.
void copy_chunk_data(std::span<const AeadChunk> chunks, const GcmChunkDesc* descs,
                     std::uint8_t* device_data, bool to_device, cudaStream_t stream) {
    const auto host_of = [&](std::size_t i) -> const std::uint8_t* {
        return to_device ? chunks[i].in : chunks[i].out;
    };
    for (std::size_t i = 0; i < chunks.size();) {
        std::size_t bytes = chunks[i].len;
        std::size_t next = i + 1;
        while (next < chunks.size() && host_of(next) == host_of(i) + bytes &&
               descs[next].data_offset == descs[i].data_offset + bytes) {
            bytes += chunks[next].len;
            ++next;
        }
        if (bytes != 0) {
            std::uint8_t* device = device_data + descs[i].data_offset;
            if (to_device)
                check(cudaMemcpyAsync(device, chunks[i].in, bytes, cudaMemcpyHostToDevice, stream),
                      "cudaMemcpyAsync (chunks to the device)");
            else
                check(cudaMemcpyAsync(chunks[i].out, device, bytes, cudaMemcpyDeviceToHost, stream),
                      "cudaMemcpyAsync (chunks to the host)");
        }
        i = next;
    }
}

void enqueue_gcm(Lane& lane, const GcmKeyTables& key, const GcmSlice& slice, bool open) {
    const GcmSliceLayout& at = slice.layout;
    const std::size_t slice_bytes = device_info().slice_bytes;
    lane.reserve(std::max(at.up_reserve, typical_up_bytes(slice_bytes)),
                 std::max(at.down_bytes, typical_down_bytes(slice_bytes)));

    std::uint8_t* up = lane.up().host;
    std::memcpy(up, &key, sizeof key);
    auto* descs = reinterpret_cast<GcmChunkDesc*>(up + at.desc_offset);
    auto* pieces = reinterpret_cast<GcmPieceDesc*>(up + at.piece_offset);
    pack_gcm_batch(slice.chunks, key, descs, pieces, slice.direct ? nullptr : up + at.data_offset,
                   up + at.aad_offset);

    std::uint8_t* up_dev = lane.up().device;
    std::uint8_t* down_dev = lane.down().device;
    check(cudaMemcpyAsync(up_dev, up, slice.direct ? at.data_offset : at.up_bytes,
                          cudaMemcpyHostToDevice, lane.stream()),
          "cudaMemcpyAsync (batch to the device)");
    if (slice.direct)
        copy_chunk_data(slice.chunks, descs, up_dev + at.data_offset, true, lane.stream());
    const GcmLaunch launch{reinterpret_cast<const GcmKeyTables*>(up_dev),
                           reinterpret_cast<const GcmChunkDesc*>(up_dev + at.desc_offset),
                           static_cast<std::uint32_t>(slice.chunks.size()),
                           reinterpret_cast<const GcmPieceDesc*>(up_dev + at.piece_offset),
                           at.piece_count,
                           up_dev + at.sums_offset,
                           up_dev + at.data_offset,
                           down_dev + at.out_offset,
                           up_dev + at.aad_offset,
                           down_dev,
                           open};
    launch_gcm(launch, lane.stream());
    check(cudaGetLastError(), "launching the AES-GCM kernel");
    check(cudaMemcpyAsync(lane.down().host, down_dev, slice.direct ? at.out_offset : at.down_bytes,
                          cudaMemcpyDeviceToHost, lane.stream()),
          "cudaMemcpyAsync (results to the host)");
    if (slice.direct)
        copy_chunk_data(slice.chunks, descs, down_dev + at.out_offset, false, lane.stream());
    lane.mark_done();
}

// One seal (ok == nullptr) or open call; returns the failures (open).
std::size_t run_gcm(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                    bool* ok) {
    require_device();
    if (chunks.empty()) return 0;
    const auto& key = *static_cast<const GcmKeyTables*>(state);
    const bool open = ok != nullptr;
    const std::size_t slice_bytes = device_info().slice_bytes;

    ContextPool::Lease context = context_pool().checkout();
    Rotation<GcmSlice> rotation(*context);
    std::size_t failures = 0;
    auto finish = [&](Lane& lane, const GcmSlice& s) {
        const auto* descs =
            reinterpret_cast<const GcmChunkDesc*>(lane.up().host + s.layout.desc_offset);
        const std::uint8_t* tags = lane.down().host;
        const std::uint8_t* out = s.direct ? nullptr : lane.down().host + s.layout.out_offset;
        if (open)
            failures += finish_gcm_open(s.chunks, descs, out, tags, tag_len, ok + s.first);
        else
            finish_gcm_seal(s.chunks, descs, out, tags, tag_len);
    };
    try {
        for (std::size_t first = 0; first < chunks.size();) {
            const std::size_t end = gcm_slice_end(chunks, first, slice_bytes);
            GcmSlice slice;
            slice.active = true;
            slice.first = first;
            slice.chunks = chunks.subspan(first, end - first);
            slice.layout = gcm_slice_layout(gcm_batch_sizes(slice.chunks));
            slice.direct = all_pinned(slice.chunks);
            const std::size_t lane = rotation.next_lane(finish);
            enqueue_gcm(*context->lanes[lane], key, slice, open);
            rotation.start(lane, slice);
            first = end;
        }
        rotation.drain_all(finish);
    } catch (...) {
        context.discard();  // its lanes are wiped as it is destroyed
        throw;
    }
    wipe_key_copies(*context, rotation, sizeof(GcmKeyTables));
    return failures;
}

void gcm_init(void* state, const std::uint8_t* key, std::size_t key_len) {
    build_gcm_key_tables(key, key_len, *static_cast<GcmKeyTables*>(state));
}

void gcm_seal(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len) {
    run_gcm(state, chunks, tag_len, nullptr);
}

std::size_t gcm_open(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                     bool* ok) {
    return run_gcm(state, chunks, tag_len, ok);
}

// ---- Raw AES (ECB) -------------------------------------------------------------------------

struct EcbSlice {
    bool active = false;
    std::uint8_t* out = nullptr;  // where the slice's blocks go in the caller's buffer
    std::size_t bytes = 0;
};

// Up buffer: key tables at 0, then the blocks, which the kernel encrypts in place on the
// device; the down buffer receives them.
constexpr std::size_t kEcbDataOffset = align_up(sizeof(AesKeyTables));

void run_ecb(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks,
             bool decrypt) {
    require_device();
    if (blocks == 0) return;
    const auto& key = *static_cast<const AesKeyTables*>(state);
    const std::size_t slice_blocks =
        std::max<std::size_t>(device_info().slice_bytes / kAesBlockSize, 1);

    ContextPool::Lease context = context_pool().checkout();
    Rotation<EcbSlice> rotation(*context);
    auto finish = [](Lane& lane, const EcbSlice& s) {
        std::memcpy(s.out, lane.down().host, s.bytes);
    };
    try {
        for (std::size_t done = 0; done < blocks;) {
            const std::size_t n = std::min(slice_blocks, blocks - done);
            const std::size_t bytes = n * kAesBlockSize;
            const std::size_t lane_index = rotation.next_lane(finish);
            Lane& lane = *context->lanes[lane_index];
            lane.reserve(kEcbDataOffset + slice_blocks * kAesBlockSize,
                         slice_blocks * kAesBlockSize);

            std::memcpy(lane.up().host, &key, sizeof key);
            std::memcpy(lane.up().host + kEcbDataOffset, in + done * kAesBlockSize, bytes);
            std::uint8_t* data_dev = lane.up().device + kEcbDataOffset;
            check(cudaMemcpyAsync(lane.up().device, lane.up().host, kEcbDataOffset + bytes,
                                  cudaMemcpyHostToDevice, lane.stream()),
                  "cudaMemcpyAsync (blocks to the device)");
            const EcbLaunch launch{reinterpret_cast<const AesKeyTables*>(lane.up().device),
                                   data_dev, data_dev, n, decrypt};
            launch_ecb(launch, lane.stream());
            check(cudaGetLastError(), "launching the AES-ECB kernel");
            check(cudaMemcpyAsync(lane.down().host, data_dev, bytes, cudaMemcpyDeviceToHost,
                                  lane.stream()),
                  "cudaMemcpyAsync (blocks to the host)");
            lane.mark_done();
            rotation.start(lane_index, EcbSlice{true, out + done * kAesBlockSize, bytes});
            done += n;
        }
        rotation.drain_all(finish);
    } catch (...) {
        context.discard();
        throw;
    }
    wipe_key_copies(*context, rotation, sizeof(AesKeyTables));
}

void aes_init(void* state, const std::uint8_t* key, std::size_t key_len) {
    build_aes_key_tables(key, key_len, *static_cast<AesKeyTables*>(state));
}

void aes_encrypt(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    run_ecb(state, in, out, blocks, false);
}

void aes_decrypt(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    run_ecb(state, in, out, blocks, true);
}

const AeadImpl kGcmTable{Aead::aes_gcm,        sizeof(GcmKeyTables), &gcm_init,
                         &gcm_seal,             &gcm_open,
                         /*batch_bytes=*/kPreferredBatchBytes,
                         &pin_host_buffer,      &unpin_host_buffer};
const BlockCipherImpl kAesTable{sizeof(AesKeyTables), &aes_init, &aes_encrypt, &aes_decrypt};

}  // namespace

const AeadImpl* const kAesGcm = &kGcmTable;
const BlockCipherImpl* const kAes = &kAesTable;

}  // namespace warp::cuda
