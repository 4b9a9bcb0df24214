#include "cli/bench_measure.hpp"

#include <stdexcept>
#include <vector>

#include "engine/aead_key.hpp"

namespace warp::cli {
namespace {

// The key is not secret (benchmark only); a fixed pattern keeps runs repeatable.
std::vector<std::uint8_t> bench_key(std::size_t key_len) {
    std::vector<std::uint8_t> key(key_len);
    for (std::size_t i = 0; i < key_len; ++i) key[i] = static_cast<std::uint8_t>(0x42 + 7 * i);
    return key;
}

}  // namespace

BenchMeasurement measure_aead(const AeadImpl& impl, std::size_t key_len, bool seal,
                              std::size_t size, const BenchTiming& timing) {
    const std::vector<std::uint8_t> key = bench_key(key_len);
    const std::uint8_t nonce[kChunkNonceSize] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    std::vector<std::uint8_t> plaintext(size, 0x5a), sealed(size), opened(size);
    std::uint8_t tag[kMaxTagSize] = {};
    const AeadKey aead_key(impl, key);

    const AeadChunk seal_chunk{nonce, sizeof nonce, nullptr, 0, plaintext.data(), sealed.data(),
                               size,  tag};
    // Sealed once here; open reads it (and the tag) and writes `opened`, so the same valid
    // ciphertext authenticates on every call.
    const AeadChunk open_chunk{nonce, sizeof nonce, nullptr, 0, sealed.data(), opened.data(),
                               size,  tag};
    aead_key.seal({&seal_chunk, 1});

    if (seal) {
        return time_calls(
            size, timing, [&] { aead_key.seal({&seal_chunk, 1}); },
            [&] { return static_cast<std::uint8_t>(tag[0] ^ (size != 0 ? sealed[0] : 0)); });
    }
    std::uint64_t failures = 0;
    bool ok = false;
    BenchMeasurement result = time_calls(
        size, timing, [&] { failures += aead_key.open({&open_chunk, 1}, &ok); },
        [&] { return size != 0 ? opened[0] : std::uint8_t{0}; });
    if (failures != 0 || !ok)
        throw std::logic_error("the backend failed to open a message it sealed");
    return result;
}

BenchMeasurement measure_aead_seal_batch(const AeadImpl& impl, std::size_t key_len,
                                         std::size_t chunks, std::size_t chunk_size,
                                         const BenchTiming& timing) {
    const std::vector<std::uint8_t> key = bench_key(key_len);
    const std::vector<std::uint8_t> plaintext(chunks * chunk_size, 0x5a);
    std::vector<std::uint8_t> sealed(plaintext.size());
    std::vector<std::uint8_t> nonces(chunks * kChunkNonceSize);
    std::vector<std::uint8_t> tags(chunks * kMaxTagSize);
    std::vector<AeadChunk> batch(chunks);
    for (std::size_t i = 0; i < chunks; ++i) {
        std::uint8_t* nonce = nonces.data() + i * kChunkNonceSize;
        nonce[kChunkNonceSize - 2] = static_cast<std::uint8_t>(i >> 8);  // distinct nonces
        nonce[kChunkNonceSize - 1] = static_cast<std::uint8_t>(i);
        batch[i] = AeadChunk{nonce,
                             kChunkNonceSize,
                             nullptr,
                             0,
                             plaintext.data() + i * chunk_size,
                             sealed.data() + i * chunk_size,
                             chunk_size,
                             tags.data() + i * kMaxTagSize};
    }
    const AeadKey aead_key(impl, key);
    return time_calls(
        plaintext.size(), timing, [&] { aead_key.seal(batch); },
        [&] { return static_cast<std::uint8_t>(tags[0] ^ (sealed.empty() ? 0 : sealed[0])); });
}

BenchMeasurement measure_ecb(const BlockCipherImpl& impl, std::size_t key_len, bool encrypt,
                             std::size_t size, const BenchTiming& timing) {
    if (size < kAesBlockSize) throw std::logic_error("ECB benchmark needs at least one block");
    const std::size_t blocks = size / kAesBlockSize;
    const std::vector<std::uint8_t> key = bench_key(key_len);
    const std::vector<std::uint8_t> input(blocks * kAesBlockSize, 0x5a);
    std::vector<std::uint8_t> output(input.size());
    const BlockCipherKey block_key(impl, key);

    auto observe = [&] { return output[0]; };
    if (encrypt)
        return time_calls(
            input.size(), timing,
            [&] { block_key.encrypt(input.data(), output.data(), blocks); }, observe);
    return time_calls(
        input.size(), timing, [&] { block_key.decrypt(input.data(), output.data(), blocks); },
        observe);
}

}  // namespace warp::cli
