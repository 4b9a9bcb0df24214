// ChaCha20-Poly1305 (RFC 8439 2.8) on AVX2 behind the AeadImpl table of engine/aead.hpp: the
// shared driver (chacha20_poly1305_driver.hpp) around 512-byte steps, the eight-block rounds
// with the scalar Poly1305 of the same bytes interleaved (chacha20_poly1305_stitched.cpp).
#include "engine/x86/avx2/chacha20_poly1305_driver.hpp"
#include "engine/x86/avx2/chacha20_poly1305_stitched.hpp"
#include "engine/x86/x86.hpp"

namespace warp::x86 {
namespace {

const AeadImpl kTable = chacha_driver::aead_table<avx2::StitchedStep>();

}  // namespace

const AeadImpl* const kChaCha20Poly1305Avx2 = &kTable;

}  // namespace warp::x86
