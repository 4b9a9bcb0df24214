// ACVP-AES-ECB 1.0: AFT (multi-block) and the AESAVS Monte Carlo test, on the backend's raw
// AES block entry point (BlockCipherKey).
#include <array>
#include <cstring>

#include "engine/aead_key.hpp"
#include "engine/block_cipher.hpp"
#include "tests/acvp/acvp_algorithms.hpp"

namespace warp::acvp {
namespace {

using Block = std::array<std::uint8_t, kAesBlockSize>;

// AESAVS 6.4.1: 100 results, each the end of 1000 chained block operations.
constexpr int kMonteCarloOuter = 100;
constexpr int kMonteCarloInner = 1000;

void run_blocks(const BlockCipherKey& key, Direction direction, const std::uint8_t* in,
                std::uint8_t* out, std::size_t blocks) {
    if (direction == Direction::encrypt)
        key.encrypt(in, out, blocks);
    else
        key.decrypt(in, out, blocks);
}

// The field a test's input is in, and the field its answer goes to.
const char* input_name(Direction d) { return d == Direction::encrypt ? "pt" : "ct"; }
const char* output_name(Direction d) { return d == Direction::encrypt ? "ct" : "pt"; }

Json answer_functional(const Json& test, const BlockCipherImpl& aes, Direction direction,
                       std::int64_t key_bits) {
    const Bytes key = hex_field_bits(test, "key", key_bits);
    const Bytes in = hex_field(test, input_name(direction));
    if (in.size() % kAesBlockSize != 0)
        malformed(std::string("'") + input_name(direction) + "' is not a whole number of blocks");
    Bytes out(in.size());
    run_blocks(BlockCipherKey(aes, key), direction, in.data(), out.data(),
               in.size() / kAesBlockSize);
    Json answer = answer_for(test);
    answer[output_name(direction)] = hex_upper(out);
    return answer;
}

// AESAVS key update between Monte Carlo results: the key is XORed with the last key-length
// bytes of CT[998] || CT[999] (128: CT[999]; 192: the right half of CT[998] and CT[999];
// 256: both). For decryption the same rule applies to the plaintexts.
void update_key(Bytes& key, const Block& second_last, const Block& last) {
    std::array<std::uint8_t, 2 * kAesBlockSize> tail{};
    std::memcpy(tail.data(), second_last.data(), kAesBlockSize);
    std::memcpy(tail.data() + kAesBlockSize, last.data(), kAesBlockSize);
    const std::size_t skip = tail.size() - key.size();
    for (std::size_t i = 0; i < key.size(); ++i) key[i] ^= tail[skip + i];
}

Json answer_monte_carlo(const Json& test, const BlockCipherImpl& aes, Direction direction,
                        std::int64_t key_bits) {
    Bytes key = hex_field_bits(test, "key", key_bits);
    const Bytes seed = hex_field_bits(test, input_name(direction), 8 * kAesBlockSize);
    Block input{};
    std::memcpy(input.data(), seed.data(), kAesBlockSize);

    Json results = Json::array();
    for (int outer = 0; outer < kMonteCarloOuter; ++outer) {
        const BlockCipherKey cipher(aes, key);
        Block second_last{};
        Block last = input;
        for (int inner = 0; inner < kMonteCarloInner; ++inner) {
            second_last = last;
            run_blocks(cipher, direction, last.data(), last.data(), 1);
        }
        Json result = Json::object();
        result["key"] = hex_upper(key);
        result[input_name(direction)] = hex_upper(input);
        result[output_name(direction)] = hex_upper(last);
        results.push_back(std::move(result));
        update_key(key, second_last, last);
        input = last;
    }
    Json answer = answer_for(test);
    answer["resultsArray"] = std::move(results);
    return answer;
}

}  // namespace

Json answer_aes_ecb_group(const Json& group, const GroupContext& context) {
    const BlockCipherImpl& aes = *context.backend.aes;
    const Direction direction = direction_field(group);
    const std::int64_t key_bits = integer_field(group, "keyLen");
    const std::string type = string_field(group, "testType");
    if (type == "AFT")
        return answer_each_test(group, [&](const Json& test) {
            return answer_functional(test, aes, direction, key_bits);
        });
    if (type == "MCT")
        return answer_each_test(group, [&](const Json& test) {
            return answer_monte_carlo(test, aes, direction, key_bits);
        });
    malformed("testType '" + type + "' is not supported for AES-ECB (AFT, MCT)");
}

}  // namespace warp::acvp
