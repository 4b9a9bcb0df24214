// OpenSSL's AEADs timed one message per call, the way `warpcrypt bench` times warpcrypt's: a
// reference for scripts/bench-kernels.sh that `openssl speed` cannot give. In OpenSSL 3.0.22,
// `openssl speed -evp chacha20-poly1305`, with or without `-aead`, calls EVP_EncryptUpdate on
// one endless stream (counted 2026-12-03 with an LD_PRELOAD shim: 1.8 million updates, no
// init, one final in a second at 1 KiB): no nonce, no key block, no tag per message, which is
// half the work of a 1 KiB message.
//
// Per call, as `warpcrypt bench` does: a fresh message under the same 12-byte nonce (a
// benchmark, not a use), no AAD, a 16-byte tag; open authenticates the same valid ciphertext
// every call and the program fails if it does not. Timed by this thread's CPU time, like
// `warpcrypt bench` and `openssl speed`.
//
// Usage: warpcrypt-openssl-aead-bench SECONDS SIZE...
// Prints one line per suite, direction and size: "SUITE DIRECTION SIZE MBPS" (10^6 bytes/s),
// the suites aes-256-gcm and chacha20-poly1305, the directions encrypt and decrypt.
#include <openssl/evp.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

double thread_cpu_seconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

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

// Calls `call` for a warm-up, then in batches of about a millisecond until `seconds` of CPU
// time have passed; returns MB/s.
template <typename Call>
double measure(std::size_t size, double seconds, Call&& call) {
    std::uint64_t warmup = 0;
    const double warmup_start = thread_cpu_seconds();
    for (std::uint64_t n = 1; thread_cpu_seconds() - warmup_start < seconds / 4; n *= 2) {
        for (std::uint64_t i = 0; i < n; ++i) call();
        warmup += n;
    }
    const double per_call = (thread_cpu_seconds() - warmup_start) / static_cast<double>(warmup);
    const auto batch = static_cast<std::uint64_t>(1e-3 / (per_call > 1e-12 ? per_call : 1e-12)) + 1;
    std::uint64_t calls = 0;
    const double start = thread_cpu_seconds();
    double elapsed = 0;
    do {
        for (std::uint64_t i = 0; i < batch; ++i) call();
        calls += batch;
        elapsed = thread_cpu_seconds() - start;
    } while (elapsed < seconds);
    return static_cast<double>(calls) * static_cast<double>(size) / elapsed / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) fail("usage: warpcrypt-openssl-aead-bench SECONDS SIZE...");
    const double seconds = std::atof(argv[1]);
    if (!(seconds > 0)) fail("SECONDS must be positive");
    const struct {
        const char* name;
        const EVP_CIPHER* cipher;
    } suites[] = {{"aes-256-gcm", EVP_aes_256_gcm()}, {"chacha20-poly1305", EVP_chacha20_poly1305()}};
    for (const auto& suite : suites) {
        for (int i = 2; i < argc; ++i) {
            const long size = std::atol(argv[i]);
            if (size <= 0 || size > (1L << 30)) fail(std::string("bad size ") + argv[i]);
            Message message(suite.cipher, static_cast<std::size_t>(size));
            message.seal();  // the ciphertext and tag that open checks
            const double sealing = measure(size, seconds, [&] { message.seal(); });
            const double opening = measure(size, seconds, [&] { message.open(); });
            std::printf("%s encrypt %ld %.1f\n%s decrypt %ld %.1f\n", suite.name, size, sealing,
                        suite.name, size, opening);
        }
    }
    return 0;
}
