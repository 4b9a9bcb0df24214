#include "tests/gpu/bench_support.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <span>

#include "engine/cuda/batch_layout.hpp"
#include "engine/cuda/cuda_status.hpp"
#include "engine/secure_memory.hpp"

namespace warp::cuda::bench {
namespace {

// Owners of the CUDA resources a measurement uses; freed on every path out.
class Pinned {
public:
    explicit Pinned(std::size_t bytes) : bytes_(bytes) {
        check(cudaHostAlloc(&p_, std::max<std::size_t>(bytes, 1), cudaHostAllocDefault),
              "cudaHostAlloc");
    }
    ~Pinned() { (void)cudaFreeHost(p_); }
    Pinned(const Pinned&) = delete;
    Pinned& operator=(const Pinned&) = delete;
    std::uint8_t* get() const { return static_cast<std::uint8_t*>(p_); }
    std::size_t size() const { return bytes_; }

private:
    void* p_ = nullptr;
    std::size_t bytes_;
};

class OnDevice {
public:
    explicit OnDevice(std::size_t bytes) {
        check(cudaMalloc(&p_, std::max<std::size_t>(bytes, 1)), "cudaMalloc");
    }
    ~OnDevice() { (void)cudaFree(p_); }
    OnDevice(const OnDevice&) = delete;
    OnDevice& operator=(const OnDevice&) = delete;
    std::uint8_t* get() const { return static_cast<std::uint8_t*>(p_); }

private:
    void* p_ = nullptr;
};

class Stream {
public:
    Stream() { check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate"); }
    ~Stream() { (void)cudaStreamDestroy(s_); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

class Event {
public:
    Event() { check(cudaEventCreate(&e_), "cudaEventCreate"); }
    ~Event() { (void)cudaEventDestroy(e_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

// splitmix64: fast, and random enough that table indices spread over every bank.
void fill_random(std::uint8_t* p, std::size_t n, std::uint64_t seed) {
    std::uint64_t x = seed;
    for (std::size_t i = 0; i < n; i += 8) {
        x += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        std::memcpy(p + i, &z, std::min<std::size_t>(8, n - i));
    }
}

// `bytes` of random data on the device, through a pinned buffer of at most 64 MiB.
void upload_random(std::uint8_t* device, std::size_t bytes, std::uint64_t seed) {
    const std::size_t step = std::min<std::size_t>(bytes, std::size_t{64} << 20);
    Pinned staging(step);
    fill_random(staging.get(), step, seed);
    for (std::size_t done = 0; done < bytes; done += step)
        check(cudaMemcpy(device + done, staging.get(), std::min(step, bytes - done),
                         cudaMemcpyHostToDevice),
              "cudaMemcpy (benchmark data)");
}

template <typename Launch>
KernelTimes time_launches(unsigned launches, Launch&& launch) {
    Stream stream;
    Event start;
    Event stop;
    launch(stream.get());  // warm-up: first-launch costs (module load, caches) are not timed
    check(cudaStreamSynchronize(stream.get()), "the warm-up launch");
    std::vector<double> seconds;
    seconds.reserve(launches);
    for (unsigned i = 0; i < launches; ++i) {
        check(cudaEventRecord(start.get(), stream.get()), "cudaEventRecord");
        launch(stream.get());
        check(cudaGetLastError(), "a benchmark kernel launch");
        check(cudaEventRecord(stop.get(), stream.get()), "cudaEventRecord");
        check(cudaEventSynchronize(stop.get()), "a benchmark kernel");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "cudaEventElapsedTime");
        seconds.push_back(double(ms) / 1e3);
    }
    std::sort(seconds.begin(), seconds.end());
    KernelTimes t;
    t.launches = launches;
    if (!seconds.empty()) {
        t.best_s = seconds.front();
        t.median_s = seconds[seconds.size() / 2];
    }
    return t;
}

// The descriptors of `total` bytes in chunks of `chunk_bytes`, packed back to back (each
// chunk starts at a multiple of 16, as batch_layout.hpp packs them), with 12-byte nonces
// (chunk index, big-endian) and so J0 = nonce || 0^31 || 1 (SP 800-38D 7.1, step 2).
std::vector<GcmChunkDesc> chunk_descs(std::size_t chunk_bytes, std::size_t total) {
    std::vector<GcmChunkDesc> descs;
    const std::size_t stride = (chunk_bytes + 15) / 16 * 16;
    for (std::size_t offset = 0, index = 0; offset < total; ++index) {
        GcmChunkDesc d{};
        d.data_offset = index * stride;
        d.len = std::min(chunk_bytes, total - offset);
        for (int b = 0; b < 8; ++b) d.j0[11 - b] = static_cast<std::uint8_t>(index >> (8 * b));
        d.j0[15] = 1;
        descs.push_back(d);
        offset += d.len;
    }
    return descs;
}

}  // namespace

DriverFacts driver_facts() {
    DriverFacts f;
    check(cudaDriverGetVersion(&f.driver_version), "cudaDriverGetVersion");
    check(cudaRuntimeGetVersion(&f.runtime_version), "cudaRuntimeGetVersion");
    char bus[32] = {};
    check(cudaDeviceGetPCIBusId(bus, sizeof bus, 0), "cudaDeviceGetPCIBusId");
    f.pci_bus_id = bus;
    check(cudaDeviceGetAttribute(&f.copy_engines, cudaDevAttrAsyncEngineCount, 0),
          "cudaDeviceGetAttribute");
    check(cudaDeviceGetAttribute(&f.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0),
          "cudaDeviceGetAttribute");
    int l2 = 0;
    check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), "cudaDeviceGetAttribute");
    f.l2_bytes = static_cast<std::size_t>(l2);
    return f;
}

double pinned_copy_seconds(Direction direction, std::size_t bytes, unsigned repeats) {
    Pinned host(bytes);
    OnDevice device(bytes);
    std::memset(host.get(), 0x5A, bytes);  // touched: no first-use page faults in the timing
    const bool up = direction == Direction::host_to_device;
    double best = 0;
    for (unsigned i = 0; i <= repeats; ++i) {  // the first copy is a warm-up
        const auto t0 = std::chrono::steady_clock::now();
        check(up ? cudaMemcpy(device.get(), host.get(), bytes, cudaMemcpyHostToDevice)
                 : cudaMemcpy(host.get(), device.get(), bytes, cudaMemcpyDeviceToHost),
              "cudaMemcpy (bandwidth)");
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (i > 0 && (best == 0 || s < best)) best = s;
    }
    return best;
}

KernelTimes gcm_seal_kernel(const GcmKeyTables& key, std::size_t chunk_bytes, std::size_t total,
                            unsigned launches) {
    std::vector<GcmChunkDesc> descs = chunk_descs(chunk_bytes, total);
    std::vector<GcmPieceDesc> pieces;
    for (std::size_t i = 0; i < descs.size(); ++i) {  // as pack_gcm_batch cuts them
        const auto first = static_cast<std::uint32_t>(pieces.size());
        pieces.resize(first + gcm_piece_count(gcm_positions(descs[i].aad_len, descs[i].len)));
        describe_pieces(descs[i], static_cast<std::uint32_t>(i), first, pieces.data());
    }
    const std::size_t data_bytes = descs.back().data_offset + (descs.back().len + 15) / 16 * 16;
    OnDevice key_dev(sizeof key);
    OnDevice descs_dev(descs.size() * sizeof(GcmChunkDesc));
    OnDevice pieces_dev(pieces.size() * sizeof(GcmPieceDesc));
    OnDevice sums(pieces.size() * 16);
    OnDevice in(data_bytes);
    OnDevice out(data_bytes);
    OnDevice tags(descs.size() * 16);
    OnDevice no_aad(16);  // a valid pointer, never read: every aad_len is 0
    check(cudaMemcpy(key_dev.get(), &key, sizeof key, cudaMemcpyHostToDevice), "cudaMemcpy (key)");
    check(cudaMemcpy(descs_dev.get(), descs.data(), descs.size() * sizeof(GcmChunkDesc),
                     cudaMemcpyHostToDevice),
          "cudaMemcpy (descriptors)");
    check(cudaMemcpy(pieces_dev.get(), pieces.data(), pieces.size() * sizeof(GcmPieceDesc),
                     cudaMemcpyHostToDevice),
          "cudaMemcpy (pieces)");
    upload_random(in.get(), data_bytes, 0x6763u + total);
    const GcmLaunch launch{reinterpret_cast<const GcmKeyTables*>(key_dev.get()),
                           reinterpret_cast<const GcmChunkDesc*>(descs_dev.get()),
                           static_cast<std::uint32_t>(descs.size()),
                           reinterpret_cast<const GcmPieceDesc*>(pieces_dev.get()),
                           static_cast<std::uint32_t>(pieces.size()),
                           sums.get(),
                           in.get(),
                           out.get(),
                           no_aad.get(),
                           tags.get(),
                           false};
    KernelTimes t = time_launches(launches, [&](cudaStream_t s) { launch_gcm(launch, s); });
    const cudaError_t wipe = cudaMemset(key_dev.get(), 0, sizeof key);
    check(wipe, "cudaMemset (key tables)");
    return t;
}

KernelTimes ecb_kernel(const AesKeyTables& key, bool decrypt, std::size_t bytes,
                       unsigned launches) {
    OnDevice key_dev(sizeof key);
    OnDevice data(bytes);
    check(cudaMemcpy(key_dev.get(), &key, sizeof key, cudaMemcpyHostToDevice), "cudaMemcpy (key)");
    upload_random(data.get(), bytes, 0xecbu + bytes);
    const EcbLaunch launch{reinterpret_cast<const AesKeyTables*>(key_dev.get()), data.get(),
                           data.get(), bytes / 16, decrypt};
    KernelTimes t = time_launches(launches, [&](cudaStream_t s) { launch_ecb(launch, s); });
    check(cudaMemset(key_dev.get(), 0, sizeof key), "cudaMemset (key tables)");
    return t;
}

std::vector<double> raw_gcm_round_trips(const GcmKeyTables& key, std::size_t chunk_bytes,
                                        unsigned count) {
    // One chunk packed by the driver's own packer: [key tables | descriptor | plaintext] up,
    // [tag | ciphertext] down, one copy each way, as a slice of the real driver travels.
    const std::size_t stride = (chunk_bytes + 15) / 16 * 16;
    const auto round256 = [](std::size_t n) { return (n + 255) / 256 * 256; };
    const std::size_t pieces = gcm_piece_count(gcm_positions(0, chunk_bytes));
    const std::size_t desc_at = round256(sizeof key);
    const std::size_t piece_at = desc_at + 256;
    const std::size_t data_at = piece_at + round256(pieces * sizeof(GcmPieceDesc));
    const std::size_t up_bytes = data_at + stride;
    const std::size_t sums_at = round256(up_bytes);  // device scratch, never copied
    const std::size_t down_bytes = 256 + stride;
    Pinned up(up_bytes);
    Pinned down(down_bytes);
    OnDevice up_dev(sums_at + pieces * 16);
    OnDevice down_dev(down_bytes);
    Stream stream;

    std::vector<std::uint8_t> plaintext(chunk_bytes);
    fill_random(plaintext.data(), plaintext.size(), 0x4b1du);
    std::uint8_t nonce[12] = {};
    std::uint8_t tag[16];
    std::uint8_t no_aad[16];  // a valid pointer, never read: the AAD is empty
    std::vector<std::uint8_t> ciphertext(chunk_bytes);
    const AeadChunk chunk{
        nonce, sizeof nonce, nullptr, 0, plaintext.data(), ciphertext.data(), chunk_bytes, tag};
    std::memcpy(up.get(), &key, sizeof key);
    pack_gcm_batch(std::span(&chunk, 1), key, reinterpret_cast<GcmChunkDesc*>(up.get() + desc_at),
                   reinterpret_cast<GcmPieceDesc*>(up.get() + piece_at), up.get() + data_at,
                   no_aad);
    const GcmLaunch launch{reinterpret_cast<const GcmKeyTables*>(up_dev.get()),
                           reinterpret_cast<const GcmChunkDesc*>(up_dev.get() + desc_at),
                           1,
                           reinterpret_cast<const GcmPieceDesc*>(up_dev.get() + piece_at),
                           static_cast<std::uint32_t>(pieces),
                           up_dev.get() + sums_at,
                           up_dev.get() + data_at,
                           down_dev.get() + 256,
                           up_dev.get() + data_at,  // never read: the AAD is empty
                           down_dev.get(),
                           false};

    std::vector<double> seconds;
    seconds.reserve(count);
    for (unsigned i = 0; i <= count; ++i) {  // the first trip is a warm-up
        const auto t0 = std::chrono::steady_clock::now();
        check(
            cudaMemcpyAsync(up_dev.get(), up.get(), up_bytes, cudaMemcpyHostToDevice, stream.get()),
            "cudaMemcpyAsync (round trip in)");
        launch_gcm(launch, stream.get());
        check(cudaGetLastError(), "a round-trip launch");
        check(cudaMemcpyAsync(down.get(), down_dev.get(), down_bytes, cudaMemcpyDeviceToHost,
                              stream.get()),
              "cudaMemcpyAsync (round trip out)");
        check(cudaStreamSynchronize(stream.get()), "a round trip");
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (i > 0) seconds.push_back(s);
    }
    secure_wipe(up.get(), up_bytes);  // key tables
    check(cudaMemset(up_dev.get(), 0, up_bytes), "cudaMemset (key tables)");
    return seconds;
}

}  // namespace warp::cuda::bench
