// OpenSSL's AEADs timed one message per call, the way `warpcrypt bench` times warpcrypt's: a
// reference for scripts/bench-kernels.sh that `openssl speed` cannot give. In OpenSSL 3.0.22,
// `openssl speed -evp chacha20-poly1305`, with or without `-aead`, calls EVP_EncryptUpdate on
// one endless stream (counted 2026-12-03 with an LD_PRELOAD shim: 1.8 million updates, no
// init, one final in a second at 1 KiB): no nonce, no key block, no tag per message, which is
// half the work of a 1 KiB message.
//
// Per call, as `warpcrypt bench` does: a fresh message under the same 12-byte nonce (a
// benchmark, not a use), no AAD, a 16-byte tag; open authenticates the same valid ciphertext
// every call and the program fails if it does not. Timed by `warpcrypt bench`'s own loop
// (cli/bench_timing.hpp): this thread's CPU time, the same warm-up and batches.
//
// Usage: warpcrypt-openssl-aead-bench SECONDS SIZE...
// Prints one line per suite, direction and size: "SUITE DIRECTION SIZE MBPS" (10^6 bytes/s),
// the suites aes-256-gcm and chacha20-poly1305, the directions encrypt and decrypt.
#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/bench_timing.hpp"

namespace {

using warp::cli::BenchTiming;
using warp::cli::time_calls;

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "warpcrypt-openssl-aead-bench: %s\n", what.c_str());
    std::exit(1);
}

struct Message {
    const EVP_CIPHER* cipher;
    EVP_CIPHER_CTX* ctx;
    std::vector<unsigned char> plaintext, ciphertext, opened;
    unsigned char key[32] = {0x42};
    unsigned char nonce[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    unsigned char tag[16] = {};

    Message(const EVP_CIPHER* c, std::size_t size)
        : cipher(c), ctx(EVP_CIPHER_CTX_new()), plaintext(size, 0x5a), ciphertext(size),
          opened(size) {
        if (ctx == nullptr || EVP_CipherInit_ex(ctx, cipher, nullptr, key, nonce, 1) != 1)
            fail("cannot set up the cipher");
    }
    ~Message() { EVP_CIPHER_CTX_free(ctx); }

    void seal() {
        int n = 0, last = 0;
        if (EVP_CipherInit_ex(ctx, nullptr, nullptr, nullptr, nonce, 1) != 1 ||
            EVP_CipherUpdate(ctx, ciphertext.data(), &n, plaintext.data(),
                             static_cast<int>(plaintext.size())) != 1 ||
            EVP_CipherFinal_ex(ctx, ciphertext.data() + n, &last) != 1 ||
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, sizeof tag, tag) != 1)
            fail("seal failed");
    }
    void open() {
        int n = 0, last = 0;
        if (EVP_CipherInit_ex(ctx, nullptr, nullptr, nullptr, nonce, 0) != 1 ||
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, sizeof tag, tag) != 1 ||
            EVP_CipherUpdate(ctx, opened.data(), &n, ciphertext.data(),
                             static_cast<int>(ciphertext.size())) != 1 ||
            EVP_CipherFinal_ex(ctx, opened.data() + n, &last) != 1)
            fail("open failed: the tag did not verify");
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) fail("usage: warpcrypt-openssl-aead-bench SECONDS SIZE...");
    const double seconds = std::atof(argv[1]);
    if (!(seconds > 0)) fail("SECONDS must be positive");
    const BenchTiming timing = BenchTiming::for_seconds(seconds);
    const struct {
        const char* name;
        const EVP_CIPHER* cipher;
    } suites[] = {{"aes-256-gcm", EVP_aes_256_gcm()},
                  {"chacha20-poly1305", EVP_chacha20_poly1305()}};
    for (const auto& suite : suites) {
        for (int i = 2; i < argc; ++i) {
            const long size = std::atol(argv[i]);
            if (size <= 0 || size > (1L << 30)) fail(std::string("bad size ") + argv[i]);
            const auto bytes = static_cast<std::size_t>(size);
            Message message(suite.cipher, bytes);
            message.seal();  // the ciphertext and tag that open checks
            const auto seal = [&] { message.seal(); };
            const auto open = [&] { message.open(); };
            const double sealing =
                time_calls(bytes, timing, seal, [&] { return message.tag[0]; }).bytes_per_second();
            const double opening = time_calls(bytes, timing, open, [&] {
                                        return message.opened[0];
                                    }).bytes_per_second();
            std::printf("%s encrypt %ld %.1f\n%s decrypt %ld %.1f\n", suite.name, size,
                        sealing / 1e6, suite.name, size, opening / 1e6);
        }
    }
    return 0;
}
