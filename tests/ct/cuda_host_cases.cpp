// The cuda backend's host side: the per-key tables the kernels read (engine/cuda/
// key_tables.cpp) are built on the CPU of every machine that runs that backend, from the
// secret key, and kernel_api.hpp promises that in constant time. Built in every build (no GPU
// needed), so checked here. The kernels themselves are not: they run on the GPU (with T-tables
// in shared memory; README.md in this folder), and their CPU emulator is a test device only.
#include <memory>

#include "engine/cuda/kernel_api.hpp"
#include "tests/ct/ct_support.hpp"

namespace warp::ct {
namespace {

void key_tables() {
    for (std::size_t key_len : {16, 24, 32}) {
        Bytes key = filled(key_len, 3);
        mark_secret(key);
        auto aes = std::make_unique<cuda::AesKeyTables>();
        cuda::build_aes_key_tables(key.data(), key_len, *aes);
        publish(*aes);
        auto gcm = std::make_unique<cuda::GcmKeyTables>();
        cuda::build_gcm_key_tables(key.data(), key_len, *gcm);
        publish(*gcm);
    }
}

}  // namespace

std::vector<Case> cuda_host_cases() {
    return {{"cuda host key tables (AES, AES-GCM: H powers, 4-bit table)", &key_tables}};
}

}  // namespace warp::ct
