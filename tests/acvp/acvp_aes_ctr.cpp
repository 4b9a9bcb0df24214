// ACVP-AES-CTR 1.0, AFT. The keystream is the backend's raw AES encrypting the counter blocks
// of a whole message in one call; the counter is the full 16-byte block, incremented as a
// 128-bit big-endian integer (SP 800-38A B.1).
//
// Lengths are in bits: only the first payloadLen bits of the last byte count, and the unused
// low bits of our output are zero, as in NIST's expected results.
//
// IVs of encrypt tests ("ivGenMode": "internal", the IUT picks the IV): the prompt's `iv` if
// the test has one; otherwise, when an expected file was given, the IV the server recorded
// there (so that answers compare byte for byte); otherwise a fresh random RFC 3686 counter
// block, nonce and IV (12 random bytes) || 00000001.
#include <sodium.h>

#include <array>
#include <cstring>
#include <optional>
#include <utility>

#include "engine/aead_key.hpp"
#include "engine/block_cipher.hpp"
#include "engine/error.hpp"
#include "tests/acvp/acvp_algorithms.hpp"

namespace warp::acvp {
namespace {

constexpr std::size_t kRandomIvPrefix = 12;  // RFC 3686: 4-byte nonce || 8-byte IV

void increment_big_endian(std::uint8_t* block) {
    for (std::size_t i = kAesBlockSize; i-- > 0;)
        if (++block[i] != 0) return;
}

Bytes random_counter_block() {
    if (sodium_init() < 0) throw Error(ErrorCause::io, "libsodium failed to initialise");
    Bytes iv(kAesBlockSize, 0);
    randombytes_buf(iv.data(), kRandomIvPrefix);
    iv[kAesBlockSize - 1] = 1;
    return iv;
}

// The IV the expected file recorded for this test, if it has a usable one. One that is not
// a 16-byte hex string is ignored here: the comparison will then report it as a mismatch.
std::optional<Bytes> recorded_iv(const Json& test, const GroupContext& context) {
    if (context.expected == nullptr) return std::nullopt;
    const Json* recorded = context.expected->find(context.tg_id, integer_field(test, "tcId"));
    if (recorded == nullptr || !has_member(*recorded, "iv")) return std::nullopt;
    try {
        return hex_field_bits(*recorded, "iv", 8 * kAesBlockSize);
    } catch (const Error&) {
        return std::nullopt;
    }
}

Bytes encrypt_iv(const Json& test, const GroupContext& context) {
    if (has_member(test, "iv")) return hex_field_bits(test, "iv", 8 * kAesBlockSize);
    if (std::optional<Bytes> iv = recorded_iv(test, context)) return *std::move(iv);
    return random_counter_block();
}

// out = in XOR keystream(counter from iv), with the bits past `bit_len` cleared.
Bytes ctr_xor(const BlockCipherImpl& aes, const Bytes& key, const Bytes& iv, const Bytes& in,
              std::int64_t bit_len) {
    const std::size_t blocks = (in.size() + kAesBlockSize - 1) / kAesBlockSize;
    Bytes keystream(blocks * kAesBlockSize);
    std::array<std::uint8_t, kAesBlockSize> counter{};
    std::memcpy(counter.data(), iv.data(), kAesBlockSize);
    for (std::size_t b = 0; b < blocks; ++b) {
        std::memcpy(keystream.data() + b * kAesBlockSize, counter.data(), kAesBlockSize);
        increment_big_endian(counter.data());
    }
    BlockCipherKey(aes, key).encrypt(keystream.data(), keystream.data(), blocks);

    Bytes out(in.size());
    for (std::size_t i = 0; i < in.size(); ++i)
        out[i] = static_cast<std::uint8_t>(in[i] ^ keystream[i]);
    if (const auto spare_bits = static_cast<unsigned>(bit_len % 8); spare_bits != 0)
        out.back() &= static_cast<std::uint8_t>(0xFFu << (8 - spare_bits));
    return out;
}

Json answer_test(const Json& test, const GroupContext& context, Direction direction,
                 std::int64_t key_bits) {
    const Bytes key = hex_field_bits(test, "key", key_bits);
    const std::int64_t bit_len = integer_field(test, "payloadLen");
    if (bit_len < 0) malformed("payloadLen is negative");
    const char* in_name = direction == Direction::encrypt ? "pt" : "ct";
    // The bytes that hold payloadLen bits, the last one in part: counted in bytes, because
    // rounding a length near 2^63 up to a multiple of 8 bits would overflow.
    const Bytes in = hex_field(test, in_name);
    if (in.size() != static_cast<std::uint64_t>(bit_len / 8 + (bit_len % 8 != 0 ? 1 : 0)))
        malformed("field '" + std::string(in_name) + "' holds " + std::to_string(in.size() * 8) +
                  " bits, too few or too many for payloadLen " + std::to_string(bit_len));
    const Bytes iv = direction == Direction::encrypt
                         ? encrypt_iv(test, context)
                         : hex_field_bits(test, "iv", 8 * kAesBlockSize);
    const Bytes out = ctr_xor(*context.backend.aes, key, iv, in, bit_len);

    Json answer = answer_for(test);
    if (direction == Direction::encrypt) {
        answer["ct"] = hex_upper(out);
        answer["iv"] = hex_upper(iv);
    } else {
        answer["pt"] = hex_upper(out);
    }
    return answer;
}

}  // namespace

Json answer_aes_ctr_group(const Json& group, const GroupContext& context) {
    const std::string type = string_field(group, "testType");
    if (type != "AFT") malformed("testType '" + type + "' is not supported for AES-CTR (AFT)");
    const Direction direction = direction_field(group);
    const std::int64_t key_bits = integer_field(group, "keyLen");
    return answer_each_test(group, [&](const Json& test) {
        return answer_test(test, context, direction, key_bits);
    });
}

}  // namespace warp::acvp
