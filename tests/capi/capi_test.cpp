// The C API (include/warpcrypt.h) through the shared library, as a C program sees it: every
// entry point, with good input and bad (NULL pointers, a handle of the wrong kind, truncated
// and tampered files, callbacks that fail). The ASan preset runs it under ASan + UBSan.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

#include "warpcrypt.h"

namespace {

using Bytes = std::vector<uint8_t>;

Bytes pattern(std::size_t n) {
    Bytes bytes(n);
    for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 31 + 7);
    return bytes;
}

// An error taken from a call, freed when the test is done with it.
struct Err {
    warpcrypt_error* e = nullptr;
    ~Err() { warpcrypt_error_free(e); }
    warpcrypt_error** out() {
        warpcrypt_error_free(e);
        e = nullptr;
        return &e;
    }
    std::string message() const { return warpcrypt_error_message(e); }
};

struct Keys {
    warpcrypt_identity* identity = nullptr;
    warpcrypt_recipient* recipient = nullptr;
    explicit Keys(int kind) {
        EXPECT_EQ(warpcrypt_identity_generate(kind, &identity, nullptr), WARPCRYPT_OK);
        EXPECT_EQ(warpcrypt_identity_to_recipient(identity, &recipient, nullptr), WARPCRYPT_OK);
    }
    ~Keys() {
        warpcrypt_identity_free(identity);
        warpcrypt_recipient_free(recipient);
    }
};

struct Options {
    warpcrypt_options* o = nullptr;
    Options() { EXPECT_EQ(warpcrypt_options_new(&o), WARPCRYPT_OK); }
    ~Options() { warpcrypt_options_free(o); }
    Options& set(int option, int64_t value) {
        EXPECT_EQ(warpcrypt_options_set(o, option, value, nullptr), WARPCRYPT_OK);
        return *this;
    }
};

Bytes encrypt(const warpcrypt_options* o, const warpcrypt_recipient* r, const Bytes& in,
              int expect = WARPCRYPT_OK) {
    uint8_t* out = nullptr;
    size_t n = 0;
    Err err;
    EXPECT_EQ(
        warpcrypt_encrypt_buffer(o, &r, 1, in.data(), in.size(), &out, &n, nullptr, err.out()),
        expect)
        << err.message();
    Bytes bytes(out, out + n);
    warpcrypt_buffer_free(out, n);
    return bytes;
}

int decrypt(const warpcrypt_options* o, const warpcrypt_identity* id, const Bytes& in, Bytes& plain,
            std::string* message = nullptr) {
    uint8_t* out = nullptr;
    size_t n = 0;
    Err err;
    const int status =
        warpcrypt_decrypt_buffer(o, &id, 1, in.data(), in.size(), &out, &n, nullptr, err.out());
    if (message != nullptr) *message = err.message();
    if (status != WARPCRYPT_OK) {
        EXPECT_EQ(out, nullptr);
    }
    plain.assign(out, out + n);
    warpcrypt_buffer_free(out, n);
    return status;
}

TEST(CApi, VersionInitAndStatusMeanings) {
    EXPECT_STREQ(warpcrypt_version(), "0.1.0");
    EXPECT_EQ(warpcrypt_version_number(), 100u);
    EXPECT_EQ(warpcrypt_init(), WARPCRYPT_OK);
    EXPECT_EQ(warpcrypt_init(), WARPCRYPT_OK);  // idempotent
    EXPECT_STREQ(warpcrypt_status_meaning(WARPCRYPT_E_WRONG_KEY), "wrong key or passphrase");
    EXPECT_STREQ(warpcrypt_status_meaning(WARPCRYPT_E_ABORTED), "interrupted");
    EXPECT_STREQ(warpcrypt_status_meaning(99), "unknown status");
    EXPECT_EQ(warpcrypt_error_status(nullptr), WARPCRYPT_OK);
    EXPECT_STREQ(warpcrypt_error_message(nullptr), "");
    EXPECT_STREQ(warpcrypt_error_hint(nullptr), "");
    warpcrypt_error_free(nullptr);
}

TEST(CApi, RoundTripsEveryGeneratedKindInBothFormatsAndArmor) {
    const Bytes plain = pattern(200000);
    for (int kind : {WARPCRYPT_KEY_X25519, WARPCRYPT_KEY_MLKEM768X25519, WARPCRYPT_KEY_KEY_FILE})
        for (int format : {WARPCRYPT_FORMAT_WARP, WARPCRYPT_FORMAT_AGE})
            for (int armor : {0, 1}) {
                if ((armor && format == WARPCRYPT_FORMAT_WARP) ||
                    (kind == WARPCRYPT_KEY_KEY_FILE && format == WARPCRYPT_FORMAT_AGE))
                    continue;
                SCOPED_TRACE(std::to_string(kind) + " " + std::to_string(format) + " " +
                             std::to_string(armor));
                Keys keys(kind);
                Options options;
                options.set(WARPCRYPT_OPT_FORMAT, format).set(WARPCRYPT_OPT_ARMOR, armor);
                warpcrypt_result result{};
                uint8_t* out = nullptr;
                size_t n = 0;
                const warpcrypt_recipient* r = keys.recipient;
                ASSERT_EQ(warpcrypt_encrypt_buffer(options.o, &r, 1, plain.data(), plain.size(),
                                                   &out, &n, &result, nullptr),
                          WARPCRYPT_OK);
                EXPECT_EQ(result.format, format);
                EXPECT_EQ(result.armored, armor);
                EXPECT_EQ(result.plaintext_bytes, plain.size());
                EXPECT_STRNE(result.backend, "");
                const Bytes sealed(out, out + n);
                warpcrypt_buffer_free(out, n);
                Bytes opened;
                ASSERT_EQ(decrypt(nullptr, keys.identity, sealed, opened), WARPCRYPT_OK);
                EXPECT_EQ(opened, plain);
            }
}

TEST(CApi, PassphrasesWithTheirCostSetInTheOptions) {
    const char* pw = "correct horse battery staple";
    warpcrypt_recipient* r = nullptr;
    warpcrypt_identity* id = nullptr;
    ASSERT_EQ(warpcrypt_recipient_passphrase(reinterpret_cast<const uint8_t*>(pw), strlen(pw), &r,
                                             nullptr),
              WARPCRYPT_OK);
    ASSERT_EQ(warpcrypt_identity_passphrase(reinterpret_cast<const uint8_t*>(pw), strlen(pw), &id,
                                            nullptr),
              WARPCRYPT_OK);
    EXPECT_EQ(warpcrypt_recipient_kind(r), WARPCRYPT_KEY_PASSPHRASE);
    Options warp_options;
    warp_options.set(WARPCRYPT_OPT_PASSPHRASE_MEMORY_KIB, 8192)
        .set(WARPCRYPT_OPT_PASSPHRASE_PASSES, 1);
    Options age_options;
    age_options.set(WARPCRYPT_OPT_FORMAT, WARPCRYPT_FORMAT_AGE)
        .set(WARPCRYPT_OPT_PASSPHRASE_MEMORY_KIB, 8192);  // scrypt work factor 13
    for (const Options* options : {&warp_options, &age_options}) {
        const Bytes sealed = encrypt(options->o, r, pattern(1000));
        Bytes opened;
        EXPECT_EQ(decrypt(nullptr, id, sealed, opened), WARPCRYPT_OK);
        EXPECT_EQ(opened, pattern(1000));
        warpcrypt_info* info = nullptr;
        ASSERT_EQ(warpcrypt_info_buffer(sealed.data(), sealed.size(), &info, nullptr),
                  WARPCRYPT_OK);
        ASSERT_EQ(info->entry_count, 1u);
        if (info->format == WARPCRYPT_FORMAT_AGE)
            EXPECT_EQ(info->entries[0].scrypt_log2_n, 13u);
        else
            EXPECT_EQ(info->entries[0].argon2id_memory_kib, 8192u);
        warpcrypt_info_free(info);
    }
    warpcrypt_identity* wrong = nullptr;
    ASSERT_EQ(
        warpcrypt_identity_passphrase(reinterpret_cast<const uint8_t*>("no"), 2, &wrong, nullptr),
        WARPCRYPT_OK);
    Bytes opened;
    EXPECT_EQ(decrypt(nullptr, wrong, encrypt(warp_options.o, r, pattern(10)), opened),
              WARPCRYPT_E_WRONG_KEY);
    Err err;
    warpcrypt_recipient* empty = nullptr;
    EXPECT_EQ(
        warpcrypt_recipient_passphrase(reinterpret_cast<const uint8_t*>(""), 0, &empty, err.out()),
        WARPCRYPT_E_USAGE);
    EXPECT_EQ(empty, nullptr);
    warpcrypt_identity_free(wrong);
    warpcrypt_recipient_free(r);
    warpcrypt_identity_free(id);
}

TEST(CApi, KeysAsTextBothWays) {
    Keys keys(WARPCRYPT_KEY_X25519);
    char text[256];
    size_t need = 0;
    ASSERT_EQ(warpcrypt_identity_encode(keys.identity, nullptr, 0, &need, nullptr), WARPCRYPT_OK);
    EXPECT_EQ(need, 75u);  // AGE-SECRET-KEY-1 and 58 more, and the NUL
    ASSERT_EQ(warpcrypt_identity_encode(keys.identity, text, sizeof text, &need, nullptr),
              WARPCRYPT_OK);
    EXPECT_EQ(std::string(text).rfind("AGE-SECRET-KEY-1", 0), 0u);
    warpcrypt_identity* parsed = nullptr;
    ASSERT_EQ(warpcrypt_identity_parse(text, strlen(text), &parsed, nullptr), WARPCRYPT_OK);
    EXPECT_EQ(warpcrypt_identity_kind(parsed), WARPCRYPT_KEY_X25519);
    char recipient_text[128];
    ASSERT_EQ(warpcrypt_recipient_encode(keys.recipient, recipient_text, sizeof recipient_text,
                                         nullptr, nullptr),
              WARPCRYPT_OK);
    warpcrypt_recipient* r = nullptr;
    const std::string with_newline = std::string(recipient_text) + "\n";
    ASSERT_EQ(warpcrypt_recipient_parse(with_newline.data(), with_newline.size(), &r, nullptr),
              WARPCRYPT_OK);
    EXPECT_EQ(warpcrypt_recipient_kind(r), WARPCRYPT_KEY_X25519);
    Bytes opened;
    EXPECT_EQ(decrypt(nullptr, parsed, encrypt(nullptr, r, pattern(5)), opened), WARPCRYPT_OK);
    // Too small a buffer: nothing written, the size needed said.
    Err err;
    char small[8] = "keep";
    EXPECT_EQ(warpcrypt_recipient_encode(r, small, sizeof small, &need, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_STREQ(small, "keep");
    EXPECT_EQ(need, strlen(recipient_text) + 1);
    warpcrypt_recipient_free(r);
    // A secret given as a recipient is refused, and not quoted.
    EXPECT_EQ(warpcrypt_recipient_parse(text, strlen(text), &r, err.out()), WARPCRYPT_E_USAGE);
    EXPECT_EQ(err.message().find(text + 20), std::string::npos) << err.message();
    EXPECT_EQ(r, nullptr);
    const char* junk = "AGE-SECRET-KEY-1NOTAKEY";
    warpcrypt_identity* bad = nullptr;
    EXPECT_EQ(warpcrypt_identity_parse(junk, strlen(junk), &bad, err.out()), WARPCRYPT_E_USAGE);
    EXPECT_EQ(err.message().find("NOTAKEY"), std::string::npos) << err.message();
    warpcrypt_identity_free(parsed);
    // Post-quantum, plugin and key-file identities have text too.
    Keys pq(WARPCRYPT_KEY_MLKEM768X25519);
    ASSERT_EQ(warpcrypt_identity_encode(pq.identity, nullptr, 0, &need, nullptr), WARPCRYPT_OK);
    std::vector<char> pq_text(need);
    ASSERT_EQ(warpcrypt_identity_encode(pq.identity, pq_text.data(), need, nullptr, nullptr),
              WARPCRYPT_OK);
    EXPECT_EQ(std::string(pq_text.data()).rfind("AGE-SECRET-KEY-PQ-1", 0), 0u);
    warpcrypt_identity* plugin = nullptr;
    ASSERT_EQ(warpcrypt_identity_plugin("yubikey", &plugin, nullptr), WARPCRYPT_OK);
    EXPECT_EQ(warpcrypt_identity_kind(plugin), WARPCRYPT_KEY_PLUGIN);
    EXPECT_EQ(warpcrypt_identity_plugin("Not A Name", &bad, err.out()), WARPCRYPT_E_USAGE);
    warpcrypt_recipient* none = nullptr;
    EXPECT_EQ(warpcrypt_identity_to_recipient(plugin, &none, err.out()), WARPCRYPT_E_USAGE);
    warpcrypt_identity_free(plugin);
    Keys key_file(WARPCRYPT_KEY_KEY_FILE);
    ASSERT_EQ(warpcrypt_identity_encode(key_file.identity, text, sizeof text, nullptr, nullptr),
              WARPCRYPT_OK);
    ASSERT_EQ(warpcrypt_identity_parse(text, strlen(text), &parsed, nullptr), WARPCRYPT_OK);
    EXPECT_EQ(warpcrypt_identity_kind(parsed), WARPCRYPT_KEY_KEY_FILE);
    EXPECT_EQ(warpcrypt_recipient_encode(key_file.recipient, text, sizeof text, nullptr, err.out()),
              WARPCRYPT_E_USAGE);  // a secret has no public text
    warpcrypt_identity_free(parsed);
    warpcrypt_recipient_free(r);
}

TEST(CApi, RecipientAndIdentityFiles) {
    Keys a(WARPCRYPT_KEY_X25519);
    Keys b(WARPCRYPT_KEY_X25519);
    char ta[128], tb[128], ia[128], ib[128];
    warpcrypt_recipient_encode(a.recipient, ta, sizeof ta, nullptr, nullptr);
    warpcrypt_recipient_encode(b.recipient, tb, sizeof tb, nullptr, nullptr);
    warpcrypt_identity_encode(a.identity, ia, sizeof ia, nullptr, nullptr);
    warpcrypt_identity_encode(b.identity, ib, sizeof ib, nullptr, nullptr);
    const std::string recipients =
        std::string("# team\n") + ta + "\n\n" +
        "ecdsa-sha2-nistp256 "
        "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMj"
        "NuG5N87uRgg6CLrbo5wAdT/y6v0mKV0U2w0WZ2YB/++Tpockg= host\n" +
        tb + "\n";
    warpcrypt_recipient** list = nullptr;
    size_t count = 0, skipped = 0;
    ASSERT_EQ(warpcrypt_recipients_parse_file(recipients.data(), recipients.size(), &list, &count,
                                              &skipped, nullptr),
              WARPCRYPT_OK);
    ASSERT_EQ(count, 2u);
    EXPECT_EQ(skipped, 1u);
    char back[128];
    ASSERT_EQ(warpcrypt_recipient_encode(list[1], back, sizeof back, nullptr, nullptr),
              WARPCRYPT_OK);
    EXPECT_STREQ(back, tb);
    uint8_t* out = nullptr;
    size_t n = 0;
    ASSERT_EQ(warpcrypt_encrypt_buffer(nullptr, list, count, pattern(99).data(), 99, &out, &n,
                                       nullptr, nullptr),
              WARPCRYPT_OK);
    const Bytes sealed(out, out + n);
    warpcrypt_buffer_free(out, n);
    warpcrypt_recipients_free(list, count);
    const std::string identities = std::string("# created: now\n") + ia + "\n" + ib + "\n";
    warpcrypt_identity** ids = nullptr;
    ASSERT_EQ(warpcrypt_identities_parse_file(identities.data(), identities.size(), nullptr, 0,
                                              nullptr, &ids, &count, nullptr),
              WARPCRYPT_OK);
    ASSERT_EQ(count, 2u);
    Bytes opened;
    EXPECT_EQ(decrypt(nullptr, ids[1], sealed, opened), WARPCRYPT_OK);
    warpcrypt_identities_free(ids, count);
    Err err;
    const std::string broken = std::string(ta) + "\nnot a key\n";
    EXPECT_EQ(warpcrypt_recipients_parse_file(broken.data(), broken.size(), &list, &count, nullptr,
                                              err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_NE(err.message().find("line 2"), std::string::npos) << err.message();
    EXPECT_EQ(list, nullptr);
}

TEST(CApi, AProtectedIdentityFileOpensWithItsPassphrase) {
    Keys keys(WARPCRYPT_KEY_X25519);
    char identity[128];
    warpcrypt_identity_encode(keys.identity, identity, sizeof identity, nullptr, nullptr);
    const std::string file = std::string(identity) + "\n";
    warpcrypt_recipient* pw = nullptr;
    ASSERT_EQ(
        warpcrypt_recipient_passphrase(reinterpret_cast<const uint8_t*>("pw"), 2, &pw, nullptr),
        WARPCRYPT_OK);
    Options age;
    age.set(WARPCRYPT_OPT_FORMAT, WARPCRYPT_FORMAT_AGE)
        .set(WARPCRYPT_OPT_ARMOR, 1)
        .set(WARPCRYPT_OPT_PASSPHRASE_MEMORY_KIB, 8192);
    const Bytes protected_file = encrypt(age.o, pw, Bytes(file.begin(), file.end()));
    warpcrypt_recipient_free(pw);
    const char* text = reinterpret_cast<const char*>(protected_file.data());
    warpcrypt_identity** ids = nullptr;
    size_t count = 0;
    Err err;
    EXPECT_EQ(warpcrypt_identities_parse_file(text, protected_file.size(), nullptr, 0, nullptr,
                                              &ids, &count, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_identities_parse_file(text, protected_file.size(),
                                              reinterpret_cast<const uint8_t*>("px"), 2, nullptr,
                                              &ids, &count, err.out()),
              WARPCRYPT_E_WRONG_KEY);
    Options tight;
    tight.set(WARPCRYPT_OPT_KDF_MAX_MEMORY_KIB, 4096);
    EXPECT_EQ(warpcrypt_identities_parse_file(text, protected_file.size(),
                                              reinterpret_cast<const uint8_t*>("pw"), 2, tight.o,
                                              &ids, &count, err.out()),
              WARPCRYPT_E_USAGE);  // scrypt's 8 MiB is over the limit
    ASSERT_EQ(warpcrypt_identities_parse_file(text, protected_file.size(),
                                              reinterpret_cast<const uint8_t*>("pw"), 2, nullptr,
                                              &ids, &count, nullptr),
              WARPCRYPT_OK);
    ASSERT_EQ(count, 1u);
    Bytes opened;
    EXPECT_EQ(decrypt(nullptr, ids[0], encrypt(nullptr, keys.recipient, pattern(3)), opened),
              WARPCRYPT_OK);
    warpcrypt_identities_free(ids, count);
}

// Callbacks over a vector, failing on request.
struct Stream {
    Bytes data;
    std::size_t at = 0;
    std::size_t max_read = 1000;  // short reads, as a pipe gives
    int fail_with = 0;
};
int read_cb(void* user, uint8_t* buf, size_t cap, size_t* len) {
    auto* s = static_cast<Stream*>(user);
    if (s->fail_with != 0) return s->fail_with;
    *len = std::min({cap, s->max_read, s->data.size() - s->at});
    std::memcpy(buf, s->data.data() + s->at, *len);
    s->at += *len;
    return 0;
}
int write_cb(void* user, const uint8_t* buf, size_t len) {
    auto* s = static_cast<Stream*>(user);
    if (s->fail_with != 0) return s->fail_with;
    s->data.insert(s->data.end(), buf, buf + len);
    return 0;
}
int read_at_cb(void* user, uint64_t offset, uint8_t* buf, size_t len) {
    auto* s = static_cast<Stream*>(user);
    std::memcpy(buf, s->data.data() + offset, len);
    return 0;
}

TEST(CApi, StreamsThroughCallbacksVerifyAndRanges) {
    Keys keys(WARPCRYPT_KEY_MLKEM768X25519);
    for (int format : {WARPCRYPT_FORMAT_WARP, WARPCRYPT_FORMAT_AGE}) {
        Options options;
        options.set(WARPCRYPT_OPT_FORMAT, format).set(WARPCRYPT_OPT_THREADS, 2);
        Stream in{pattern(3 << 20)}, sealed;
        const warpcrypt_recipient* r = keys.recipient;
        ASSERT_EQ(
            warpcrypt_encrypt(options.o, &r, 1, read_cb, &in, write_cb, &sealed, nullptr, nullptr),
            WARPCRYPT_OK);
        const warpcrypt_identity* id = keys.identity;
        Stream opened;
        warpcrypt_result result{};
        ASSERT_EQ(warpcrypt_decrypt(nullptr, &id, 1, read_cb, &sealed, write_cb, &opened, &result,
                                    nullptr),
                  WARPCRYPT_OK);
        EXPECT_EQ(opened.data, in.data);
        EXPECT_EQ(result.opened_with, 0u);
        sealed.at = 0;
        EXPECT_EQ(warpcrypt_verify(nullptr, &id, 1, read_cb, &sealed, nullptr, nullptr),
                  WARPCRYPT_OK);
        Stream part;
        ASSERT_EQ(warpcrypt_decrypt_range(nullptr, &id, 1, read_at_cb, &sealed, sealed.data.size(),
                                          100000, 70000, write_cb, &part, nullptr, nullptr),
                  WARPCRYPT_OK);
        EXPECT_EQ(part.data, Bytes(in.data.begin() + 100000, in.data.begin() + 170000));
        uint8_t* out = nullptr;
        size_t n = 0;
        ASSERT_EQ(
            warpcrypt_decrypt_range_buffer(nullptr, &id, 1, sealed.data.data(), sealed.data.size(),
                                           3000000, 1000000, &out, &n, nullptr, nullptr),
            WARPCRYPT_OK);
        EXPECT_EQ(Bytes(out, out + n), Bytes(in.data.begin() + 3000000, in.data.end()));
        warpcrypt_buffer_free(out, n);
        // A callback that fails stops the call: WARPCRYPT_E_ABORTED, as the command's 130.
        Stream failing{pattern(10)};
        failing.fail_with = 42;
        Stream sink;
        Err err;
        EXPECT_EQ(warpcrypt_encrypt(options.o, &r, 1, read_cb, &failing, write_cb, &sink, nullptr,
                                    err.out()),
                  WARPCRYPT_E_ABORTED);
        EXPECT_NE(err.message().find("42"), std::string::npos) << err.message();
        sealed.at = 0;
        sink.fail_with = 7;
        EXPECT_EQ(warpcrypt_decrypt(nullptr, &id, 1, read_cb, &sealed, write_cb, &sink, nullptr,
                                    err.out()),
                  WARPCRYPT_E_ABORTED);
    }
}

int stop_at_first_batch(void*, uint64_t) {
    return 1;
}
int count_progress(void* user, uint64_t done) {
    *static_cast<uint64_t*>(user) = done;
    return 0;
}

TEST(CApi, ProgressAndItsAbort) {
    Keys keys(WARPCRYPT_KEY_X25519);
    Options options;
    uint64_t done = 0;
    ASSERT_EQ(warpcrypt_options_set_progress(options.o, count_progress, &done), WARPCRYPT_OK);
    encrypt(options.o, keys.recipient, pattern(5 << 20));
    EXPECT_EQ(done, 5u << 20);
    ASSERT_EQ(warpcrypt_options_set_progress(options.o, stop_at_first_batch, nullptr),
              WARPCRYPT_OK);
    encrypt(options.o, keys.recipient, pattern(5 << 20), WARPCRYPT_E_ABORTED);
}

TEST(CApi, FileDescriptors) {
    Keys keys(WARPCRYPT_KEY_X25519);
    char plain_path[] = "/tmp/warpcrypt-capi-XXXXXX";
    char sealed_path[] = "/tmp/warpcrypt-capi-XXXXXX";
    char opened_path[] = "/tmp/warpcrypt-capi-XXXXXX";
    const int plain = mkstemp(plain_path), sealed = mkstemp(sealed_path),
              opened = mkstemp(opened_path);
    ASSERT_TRUE(plain >= 0 && sealed >= 0 && opened >= 0);
    const Bytes data = pattern(1 << 20);
    ASSERT_EQ(write(plain, data.data(), data.size()), static_cast<ssize_t>(data.size()));
    lseek(plain, 0, SEEK_SET);
    const warpcrypt_recipient* r = keys.recipient;
    const warpcrypt_identity* id = keys.identity;
    ASSERT_EQ(warpcrypt_encrypt_fd(nullptr, &r, 1, plain, sealed, nullptr, nullptr), WARPCRYPT_OK);
    lseek(sealed, 0, SEEK_SET);
    ASSERT_EQ(warpcrypt_decrypt_fd(nullptr, &id, 1, sealed, opened, nullptr, nullptr),
              WARPCRYPT_OK);
    Bytes back(data.size());
    ASSERT_EQ(pread(opened, back.data(), back.size(), 0), static_cast<ssize_t>(back.size()));
    EXPECT_EQ(back, data);
    ASSERT_EQ(ftruncate(opened, 0), 0);
    lseek(opened, 0, SEEK_SET);
    ASSERT_EQ(
        warpcrypt_decrypt_range_fd(nullptr, &id, 1, sealed, 65530, 20, opened, nullptr, nullptr),
        WARPCRYPT_OK);
    Bytes slice(20);
    ASSERT_EQ(pread(opened, slice.data(), slice.size(), 0), 20);
    EXPECT_EQ(slice, Bytes(data.begin() + 65530, data.begin() + 65550));
    Err err;
    EXPECT_EQ(warpcrypt_encrypt_fd(nullptr, &r, 1, -1, sealed, nullptr, err.out()), WARPCRYPT_E_IO);
    int pipe_fds[2];
    ASSERT_EQ(pipe(pipe_fds), 0);
    EXPECT_EQ(
        warpcrypt_decrypt_range_fd(nullptr, &id, 1, pipe_fds[0], 0, 1, opened, nullptr, err.out()),
        WARPCRYPT_E_USAGE);
    for (int fd : {plain, sealed, opened, pipe_fds[0], pipe_fds[1]}) close(fd);
    for (const char* path : {plain_path, sealed_path, opened_path}) unlink(path);
}

TEST(CApi, DamagedFilesGiveTheirStatusAndNoPlaintext) {
    Keys keys(WARPCRYPT_KEY_X25519);
    Keys stranger(WARPCRYPT_KEY_X25519);
    for (int format : {WARPCRYPT_FORMAT_WARP, WARPCRYPT_FORMAT_AGE}) {
        Options options;
        options.set(WARPCRYPT_OPT_FORMAT, format);
        const Bytes sealed = encrypt(options.o, keys.recipient, pattern(300000));
        Bytes opened;
        std::string message;
        // Cut inside the final chunk: that chunk no longer authenticates. Cut after a whole
        // chunk: the file ends too soon. Either way nothing is returned.
        const Bytes cut_in_chunk(sealed.begin(), sealed.end() - 100);
        EXPECT_EQ(decrypt(nullptr, keys.identity, cut_in_chunk, opened, &message),
                  WARPCRYPT_E_CORRUPTED)
            << message;
        EXPECT_TRUE(opened.empty());
        const Bytes cut_in_header(sealed.begin(), sealed.begin() + 30);
        EXPECT_EQ(decrypt(nullptr, keys.identity, cut_in_header, opened, &message),
                  WARPCRYPT_E_TRUNCATED)
            << message;
        Bytes tampered = sealed;
        tampered[tampered.size() / 2] ^= 1;
        EXPECT_EQ(decrypt(nullptr, keys.identity, tampered, opened, &message),
                  WARPCRYPT_E_CORRUPTED)
            << message;
        EXPECT_EQ(decrypt(nullptr, stranger.identity, sealed, opened, &message),
                  WARPCRYPT_E_WRONG_KEY)
            << message;
        EXPECT_EQ(decrypt(nullptr, keys.identity, Bytes{}, opened, &message), WARPCRYPT_E_TRUNCATED)
            << message;
        const Bytes junk = pattern(100);
        EXPECT_NE(decrypt(nullptr, keys.identity, junk, opened, &message), WARPCRYPT_OK);
    }
}

// Memory handed out by the caller for a _to call: a vector it owns, and how often it was asked.
struct CallerMemory {
    Bytes bytes;
    int calls = 0;
};
uint8_t* give_memory(void* user, size_t size) {
    auto* memory = static_cast<CallerMemory*>(user);
    ++memory->calls;
    memory->bytes.assign(size, 0xAA);
    return memory->bytes.data();
}
uint8_t* no_memory(void*, size_t) { return nullptr; }

TEST(CApi, OutputsMadeInTheCallersMemoryAskForItOnce) {
    Keys keys(WARPCRYPT_KEY_X25519);
    Keys stranger(WARPCRYPT_KEY_X25519);
    const warpcrypt_recipient* r = keys.recipient;
    const warpcrypt_identity* id = keys.identity;
    for (int format : {WARPCRYPT_FORMAT_WARP, WARPCRYPT_FORMAT_AGE})
        for (int armor : {0, 1})
            for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{65536},
                                     std::size_t{65537}, std::size_t{3000000}}) {
                if (armor && format == WARPCRYPT_FORMAT_WARP) continue;
                SCOPED_TRACE(std::to_string(format) + " " + std::to_string(armor) + " " +
                             std::to_string(size));
                Options options;
                options.set(WARPCRYPT_OPT_FORMAT, format).set(WARPCRYPT_OPT_ARMOR, armor);
                const Bytes plain = pattern(size);
                CallerMemory sealed;
                size_t n = 0;
                Err err;
                ASSERT_EQ(warpcrypt_encrypt_to(options.o, &r, 1, plain.data(), plain.size(),
                                               give_memory, &sealed, &n, nullptr, err.out()),
                          WARPCRYPT_OK)
                    << err.message();
                EXPECT_EQ(sealed.calls, 1);
                EXPECT_EQ(n, sealed.bytes.size());
                Bytes opened;
                ASSERT_EQ(decrypt(nullptr, id, sealed.bytes, opened), WARPCRYPT_OK);
                EXPECT_EQ(opened, plain);
                CallerMemory back;
                ASSERT_EQ(warpcrypt_decrypt_to(nullptr, &id, 1, sealed.bytes.data(),
                                               sealed.bytes.size(), give_memory, &back, &n,
                                               nullptr, err.out()),
                          WARPCRYPT_OK)
                    << err.message();
                EXPECT_EQ(back.calls, 1);
                EXPECT_EQ(back.bytes, plain);
                EXPECT_EQ(n, plain.size());
                // A failure after the memory was given: what was written there is wiped.
                if (size > 65536 && !armor) {
                    Bytes cut = sealed.bytes;
                    cut[cut.size() - 10] ^= 1;  // the last chunk fails; the first ones open
                    CallerMemory partial;
                    EXPECT_EQ(warpcrypt_decrypt_to(nullptr, &id, 1, cut.data(), cut.size(),
                                                   give_memory, &partial, &n, nullptr,
                                                   err.out()),
                              WARPCRYPT_E_CORRUPTED);
                    ASSERT_EQ(partial.calls, 1);
                    EXPECT_EQ(std::count(partial.bytes.begin(), partial.bytes.begin() + 65536, 0),
                              65536);
                }
            }
    size_t n = 0;
    Err err;
    const Bytes plain = pattern(10);
    EXPECT_EQ(warpcrypt_encrypt_to(nullptr, &r, 1, plain.data(), plain.size(), no_memory,
                                   nullptr, &n, nullptr, err.out()),
              WARPCRYPT_E_INTERNAL);
    EXPECT_EQ(warpcrypt_encrypt_to(nullptr, &r, 1, plain.data(), plain.size(), nullptr, nullptr,
                                   &n, nullptr, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_decrypt_to(nullptr, &id, 1, plain.data(), plain.size(), give_memory,
                                   nullptr, nullptr, nullptr, err.out()),
              WARPCRYPT_E_USAGE);
    const warpcrypt_identity* other = stranger.identity;
    const Bytes sealed = encrypt(nullptr, r, plain);
    CallerMemory never;
    EXPECT_EQ(warpcrypt_decrypt_to(nullptr, &other, 1, sealed.data(), sealed.size(), give_memory,
                                   &never, &n, nullptr, err.out()),
              WARPCRYPT_E_WRONG_KEY);
    EXPECT_EQ(never.calls, 0);  // the key failed before the size mattered
}

TEST(CApi, InfoReadsAHeaderWithoutAKey) {
    Keys a(WARPCRYPT_KEY_MLKEM768X25519);
    Options options;
    options.set(WARPCRYPT_OPT_CIPHER, WARPCRYPT_CIPHER_CHACHA20_POLY1305)
        .set(WARPCRYPT_OPT_CHUNK_LOG2, 14);
    const Bytes sealed = encrypt(options.o, a.recipient, pattern(50000));
    warpcrypt_info* info = nullptr;
    ASSERT_EQ(warpcrypt_info_buffer(sealed.data(), sealed.size(), &info, nullptr), WARPCRYPT_OK);
    EXPECT_EQ(info->format, WARPCRYPT_FORMAT_WARP);
    EXPECT_EQ(info->cipher, WARPCRYPT_CIPHER_CHACHA20_POLY1305);
    EXPECT_EQ(info->chunk_size, 16384u);
    ASSERT_EQ(info->plaintext_bytes_known, 1);
    EXPECT_EQ(info->plaintext_bytes, 50000u);
    ASSERT_EQ(info->entry_count, 1u);
    EXPECT_EQ(info->entries[0].post_quantum, 1);
    EXPECT_EQ(info->entries[0].public_key, 1);
    warpcrypt_info_free(info);
    Stream in{sealed};
    ASSERT_EQ(warpcrypt_info_read(read_cb, &in, -1, &info, nullptr), WARPCRYPT_OK);
    EXPECT_EQ(info->plaintext_bytes_known, 0);
    warpcrypt_info_free(info);
    Err err;
    const Bytes junk = pattern(64);
    EXPECT_NE(warpcrypt_info_buffer(junk.data(), junk.size(), &info, err.out()), WARPCRYPT_OK);
    EXPECT_EQ(info, nullptr);
    warpcrypt_info_free(nullptr);
}

TEST(CApi, OptionsAreChecked) {
    Options options;
    Err err;
    EXPECT_EQ(warpcrypt_options_set(options.o, WARPCRYPT_OPT_CHUNK_LOG2, 30, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_NE(err.message().find("out of range"), std::string::npos);
    EXPECT_EQ(warpcrypt_options_set(options.o, 999, 1, err.out()), WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_options_set(options.o, WARPCRYPT_OPT_FORMAT, 5, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_options_set_backend(options.o, "no-such-backend", err.out()),
              WARPCRYPT_E_USAGE);
    ASSERT_EQ(warpcrypt_options_set_backend(options.o, "scalar", nullptr), WARPCRYPT_OK);
    Keys keys(WARPCRYPT_KEY_X25519);
    const warpcrypt_recipient* r = keys.recipient;
    warpcrypt_result result{};
    uint8_t* out = nullptr;
    size_t n = 0;
    ASSERT_EQ(warpcrypt_encrypt_buffer(options.o, &r, 1, pattern(10).data(), 10, &out, &n, &result,
                                       nullptr),
              WARPCRYPT_OK);
    EXPECT_STREQ(result.backend, "scalar");
    warpcrypt_buffer_free(out, n);
    ASSERT_EQ(warpcrypt_options_set_backend(options.o, nullptr, nullptr), WARPCRYPT_OK);
    // age files are ChaCha20-Poly1305 only, and warp files have no armor: refused when used.
    options.set(WARPCRYPT_OPT_ARMOR, 1);
    encrypt(options.o, keys.recipient, pattern(1), WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_options_set_plugin_ui(options.o, nullptr), WARPCRYPT_OK);
    EXPECT_EQ(warpcrypt_options_set_progress(options.o, nullptr, nullptr), WARPCRYPT_OK);
}

TEST(CApi, NullPointersAndHandlesOfTheWrongKindAreUsageErrors) {
    Keys keys(WARPCRYPT_KEY_X25519);
    Err err;
    warpcrypt_recipient* r = nullptr;
    EXPECT_EQ(warpcrypt_recipient_parse(nullptr, 5, &r, err.out()), WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_recipient_parse("age1", 4, nullptr, err.out()), WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_identity_generate(WARPCRYPT_KEY_SSH_RSA, nullptr, err.out()),
              WARPCRYPT_E_USAGE);
    warpcrypt_identity* id = nullptr;
    EXPECT_EQ(warpcrypt_identity_generate(WARPCRYPT_KEY_SSH_RSA, &id, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_options_new(nullptr), WARPCRYPT_E_USAGE);
    // An identity passed where a recipient belongs (a C cast): refused, not misread.
    const auto* wrong = reinterpret_cast<const warpcrypt_recipient*>(keys.identity);
    EXPECT_EQ(warpcrypt_recipient_encode(wrong, nullptr, 0, nullptr, err.out()), WARPCRYPT_E_USAGE);
    EXPECT_NE(err.message().find("not a recipient handle"), std::string::npos) << err.message();
    EXPECT_EQ(warpcrypt_recipient_kind(wrong), 0);
    uint8_t* out = nullptr;
    size_t n = 0;
    EXPECT_EQ(warpcrypt_encrypt_buffer(nullptr, &wrong, 1, pattern(1).data(), 1, &out, &n, nullptr,
                                       err.out()),
              WARPCRYPT_E_USAGE);
    const auto* wrong_id = reinterpret_cast<const warpcrypt_identity*>(keys.recipient);
    EXPECT_EQ(warpcrypt_identity_kind(wrong_id), 0);
    Bytes opened;
    EXPECT_EQ(decrypt(nullptr, wrong_id, encrypt(nullptr, keys.recipient, pattern(1)), opened),
              WARPCRYPT_E_USAGE);
    const auto* wrong_options = reinterpret_cast<const warpcrypt_options*>(keys.recipient);
    EXPECT_EQ(
        decrypt(wrong_options, keys.identity, encrypt(nullptr, keys.recipient, pattern(1)), opened),
        WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_options_set(reinterpret_cast<warpcrypt_options*>(keys.identity),
                                    WARPCRYPT_OPT_THREADS, 1, err.out()),
              WARPCRYPT_E_USAGE);
    // NULL lists, outputs and callbacks.
    const warpcrypt_recipient* rs = keys.recipient;
    EXPECT_EQ(warpcrypt_encrypt_buffer(nullptr, nullptr, 1, pattern(1).data(), 1, &out, &n, nullptr,
                                       err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_encrypt_buffer(nullptr, &rs, 0, pattern(1).data(), 1, &out, &n, nullptr,
                                       err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_encrypt_buffer(nullptr, &rs, 1, nullptr, 1, &out, &n, nullptr, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(
        warpcrypt_encrypt_buffer(nullptr, &rs, 1, nullptr, 0, nullptr, &n, nullptr, err.out()),
        WARPCRYPT_E_USAGE);
    EXPECT_EQ(
        warpcrypt_encrypt(nullptr, &rs, 1, nullptr, nullptr, write_cb, nullptr, nullptr, err.out()),
        WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_decrypt(nullptr, &keys.identity, 1, read_cb, nullptr, nullptr, nullptr,
                                nullptr, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_verify(nullptr, &keys.identity, 1, nullptr, nullptr, nullptr, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_decrypt_range(nullptr, &keys.identity, 1, nullptr, nullptr, 0, 0, 0,
                                      write_cb, nullptr, nullptr, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_info_read(nullptr, nullptr, 0, nullptr, err.out()), WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_identities_parse_file("x", 1, nullptr, 0, nullptr, nullptr, &n, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_recipients_parse_file("x", 1, nullptr, &n, nullptr, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_identity_to_recipient(nullptr, &r, err.out()), WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_identity_encode(nullptr, nullptr, 0, nullptr, err.out()),
              WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_options_set_plugin_ui(nullptr, nullptr), WARPCRYPT_E_USAGE);
    EXPECT_EQ(warpcrypt_options_set_backend(nullptr, "auto", err.out()), WARPCRYPT_E_USAGE);
    // Every free accepts NULL.
    warpcrypt_recipient_free(nullptr);
    warpcrypt_identity_free(nullptr);
    warpcrypt_options_free(nullptr);
    warpcrypt_recipients_free(nullptr, 3);
    warpcrypt_identities_free(nullptr, 3);
    warpcrypt_buffer_free(nullptr, 5);
    // An error pointer is optional.
    EXPECT_EQ(warpcrypt_recipient_parse("junk", 4, &r, nullptr), WARPCRYPT_E_USAGE);
}

std::string run_command(const std::string& command) {
    std::string output;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return output;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) output.append(buf, n);
    pclose(pipe);
    return output;
}

std::string line_starting(const std::string& text, const std::string& prefix) {
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        if (text.compare(at, prefix.size(), prefix) == 0) return text.substr(at, end - at);
        at = end + 1;
    }
    return "";
}

TEST(CApi, SshKeysWithAndWithoutAPassphrase) {
    char dir[] = "/tmp/warpcrypt-capi-ssh-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string d = dir;
    for (const char* type : {"ed25519", "rsa"}) {
        SCOPED_TRACE(type);
        const std::string key = d + "/" + type;
        run_command("ssh-keygen -q -t " + std::string(type) + " -N 'open sesame' -C '' -f " + key +
                    " < /dev/null");
        const std::string public_line = run_command("cat " + key + ".pub");
        const std::string private_file = run_command("cat " + key);
        ASSERT_FALSE(public_line.empty());
        warpcrypt_recipient* r = nullptr;
        ASSERT_EQ(warpcrypt_recipient_parse(public_line.data(), public_line.size(), &r, nullptr),
                  WARPCRYPT_OK);
        EXPECT_EQ(warpcrypt_recipient_kind(r),
                  type[0] == 'e' ? WARPCRYPT_KEY_SSH_ED25519 : WARPCRYPT_KEY_SSH_RSA);
        Options age;
        age.set(WARPCRYPT_OPT_FORMAT, WARPCRYPT_FORMAT_AGE);
        const Bytes sealed = encrypt(age.o, r, pattern(4000));
        Options warp;
        encrypt(warp.o, r, pattern(1), WARPCRYPT_E_USAGE);  // no warp slot for SSH keys
        warpcrypt_identity** ids = nullptr;
        size_t count = 0;
        Err err;
        EXPECT_EQ(warpcrypt_identities_parse_file(private_file.data(), private_file.size(), nullptr,
                                                  0, nullptr, &ids, &count, err.out()),
                  WARPCRYPT_E_USAGE);
        const uint8_t* pw = reinterpret_cast<const uint8_t*>("open sesame");
        ASSERT_EQ(warpcrypt_identities_parse_file(private_file.data(), private_file.size(), pw, 11,
                                                  nullptr, &ids, &count, err.out()),
                  WARPCRYPT_OK)
            << err.message();
        Bytes opened;
        EXPECT_EQ(decrypt(nullptr, ids[0], sealed, opened), WARPCRYPT_OK);
        EXPECT_EQ(opened, pattern(4000));
        char text[16];
        EXPECT_EQ(warpcrypt_identity_encode(ids[0], text, sizeof text, nullptr, err.out()),
                  WARPCRYPT_E_USAGE);  // keep the key's file: no text form here
        warpcrypt_identities_free(ids, count);
        warpcrypt_recipient_free(r);
    }
    run_command("rm -rf " + d);
}

TEST(CApi, TagRecipientsAreRecipientsOnly) {
    // age's tagtest recipient (tag/tag_test.go), as in tests/formats/tag_recipient_test.cpp.
    const std::string tag = "age1tag1qwe0kafsjrar4txm6heqnhpfuggzr0gvznz7fvygxrlq90u5mq2pysxtw6h";
    warpcrypt_recipient* r = nullptr;
    ASSERT_EQ(warpcrypt_recipient_parse(tag.data(), tag.size(), &r, nullptr), WARPCRYPT_OK);
    EXPECT_EQ(warpcrypt_recipient_kind(r), WARPCRYPT_KEY_P256TAG);
    Options age;
    age.set(WARPCRYPT_OPT_FORMAT, WARPCRYPT_FORMAT_AGE);
    const Bytes sealed = encrypt(age.o, r, pattern(100));
    warpcrypt_info* info = nullptr;
    ASSERT_EQ(warpcrypt_info_buffer(sealed.data(), sealed.size(), &info, nullptr), WARPCRYPT_OK);
    ASSERT_EQ(info->entry_count, 1u);
    EXPECT_STREQ(info->entries[0].type, "p256tag");
    warpcrypt_info_free(info);
    warpcrypt_recipient_free(r);
}

// A plugin's PIN asked through the callbacks the caller gave: tests/plugin/age-plugin-wptest.
struct Asked {
    std::string prompt;
    int messages = 0;
};
int answer_pin(void* user, const char*, const char* prompt, int secret, char* buf, size_t cap,
               size_t* len) {
    static_cast<Asked*>(user)->prompt = prompt;
    if (!secret || cap < 4) return 1;
    std::memcpy(buf, "1234", 4);
    *len = 4;
    return 0;
}

TEST(CApi, APluginAsksThroughTheCallbacks) {
    const std::string path = std::string(WARPCRYPT_PLUGIN_DIR) + ":" + getenv("PATH");
    setenv("PATH", path.c_str(), 1);
    const std::string generated = run_command("age-plugin-wptest --generate");
    const std::string identity_text = line_starting(generated, "AGE-PLUGIN-WPTEST-1");
    std::string recipient_text = line_starting(generated, "# recipient: ");
    recipient_text.erase(0, std::strlen("# recipient: "));
    ASSERT_FALSE(identity_text.empty()) << generated;
    ASSERT_FALSE(recipient_text.empty()) << generated;
    warpcrypt_recipient* r = nullptr;
    ASSERT_EQ(warpcrypt_recipient_parse(recipient_text.data(), recipient_text.size(), &r, nullptr),
              WARPCRYPT_OK);
    EXPECT_EQ(warpcrypt_recipient_kind(r), WARPCRYPT_KEY_PLUGIN);
    warpcrypt_identity* id = nullptr;
    ASSERT_EQ(warpcrypt_identity_parse(identity_text.data(), identity_text.size(), &id, nullptr),
              WARPCRYPT_OK);
    Options age;
    age.set(WARPCRYPT_OPT_FORMAT, WARPCRYPT_FORMAT_AGE);
    const Bytes sealed = encrypt(age.o, r, pattern(70000));
    setenv("WPTEST_PIN", "1234", 1);
    Bytes opened;
    std::string message;
    // Without callbacks the plugin's question fails, and so does the plugin.
    EXPECT_NE(decrypt(nullptr, id, sealed, opened, &message), WARPCRYPT_OK);
    EXPECT_NE(message.find("wptest"), std::string::npos) << message;
    Options asking;
    Asked asked;
    warpcrypt_plugin_ui ui{};
    ui.user = &asked;
    ui.request = answer_pin;
    ASSERT_EQ(warpcrypt_options_set_plugin_ui(asking.o, &ui), WARPCRYPT_OK);
    uint8_t* out = nullptr;
    size_t n = 0;
    warpcrypt_result result{};
    const warpcrypt_identity* ids = id;
    ASSERT_EQ(warpcrypt_decrypt_buffer(asking.o, &ids, 1, sealed.data(), sealed.size(), &out, &n,
                                       &result, nullptr),
              WARPCRYPT_OK);
    EXPECT_EQ(Bytes(out, out + n), pattern(70000));
    EXPECT_STREQ(result.plugin, "wptest");
    EXPECT_NE(asked.prompt.find("PIN"), std::string::npos) << asked.prompt;
    warpcrypt_buffer_free(out, n);
    unsetenv("WPTEST_PIN");
    warpcrypt_identity_free(id);
    warpcrypt_recipient_free(r);
}

}  // namespace
