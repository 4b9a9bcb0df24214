// The timing behind `warpcrypt bench`: one cell = one backend, one suite, one direction, one
// message size, measured single-threaded with one message per call (no batching across
// messages), so the number includes every per-call cost a caller pays: argument checks in
// AeadKey, key-state loads, the tail handling of short messages.
//
// How a cell is timed: cli/bench_timing.hpp.
#pragma once

#include <cstddef>

#include "cli/bench_timing.hpp"
#include "engine/aead.hpp"
#include "engine/block_cipher.hpp"

namespace warp::cli {

// Seals (seal == true) or opens a `size`-byte message with a 12-byte nonce, no AAD and a
// 16-byte tag under a fixed `key_len`-byte key. Open reads one fixed valid ciphertext and writes
// elsewhere, so every call authenticates a real message; a failure to authenticate is a bug in
// the backend and throws std::logic_error.
BenchMeasurement measure_aead(const AeadImpl& impl, std::size_t key_len, bool seal,
                              std::size_t size, const BenchTiming& timing);

// Seals `chunks` messages of `chunk_size` bytes each in ONE AEAD call, each with its own nonce
// (as the chunk pipeline seals a batch), no AAD, 16-byte tags. bytes_per_call is
// chunks * chunk_size. For `bench --calibrate`, which fits per-call latency and throughput.
BenchMeasurement measure_aead_seal_batch(const AeadImpl& impl, std::size_t key_len,
                                         std::size_t chunks, std::size_t chunk_size,
                                         const BenchTiming& timing);

// Encrypts or decrypts the floor(size / 16) whole blocks of a `size`-byte buffer (ECB) from one
// buffer into another. size must be at least 16.
BenchMeasurement measure_ecb(const BlockCipherImpl& impl, std::size_t key_len, bool encrypt,
                             std::size_t size, const BenchTiming& timing);

}  // namespace warp::cli
