// warp::x86::kAesAesni: raw AES-128/192/256 ECB with AES-NI, eight blocks in flight:
// engine/aes_128bit_vector/ecb.hpp built from AesPrimitives.
#include "engine/x86/aesni/aes_rounds.hpp"
#include "engine/aes_128bit_vector/ecb.hpp"
#include "engine/x86/x86.hpp"

namespace warp::x86 {

const BlockCipherImpl* const kAesAesni = &aes_128bit_vector::Ecb<aesni::AesPrimitives>::kTable;

}  // namespace warp::x86
