// warp::arm::kAesCrypto: raw AES-128/192/256 ECB with the ARMv8 crypto extensions, eight
// blocks in flight: engine/aes_128bit_vector/ecb.hpp built from AesPrimitives.
#include "engine/arm/crypto/aes_rounds.hpp"
#include "engine/aes_128bit_vector/ecb.hpp"
#include "engine/arm/arm.hpp"

namespace warp::arm {

const BlockCipherImpl* const kAesCrypto = &aes_128bit_vector::Ecb<crypto::AesPrimitives>::kTable;

}  // namespace warp::arm
