// warp::arm::kAesCrypto: raw AES-128/192/256 ECB with the ARMv8 crypto extensions, eight
// blocks in flight: engine/aes128/ecb.hpp built from AesPrimitives.
#include "engine/arm/crypto/aes_rounds.hpp"
#include "engine/aes128/ecb.hpp"
#include "engine/arm/arm.hpp"

namespace warp::arm {

const BlockCipherImpl* const kAesCrypto = &aes128::Ecb<crypto::AesPrimitives>::kTable;

}  // namespace warp::arm
