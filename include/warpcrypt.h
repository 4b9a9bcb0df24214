/* warpcrypt's C API: file encryption in the warp and age formats, as a library.
 *
 * The same front the `warpcrypt` command uses (formats/file.hpp) behind a C99 interface, so
 * that every format, key kind and backend the command has is here too, through one path.
 * docs/library.md is the contract in prose; in short:
 *
 * Errors.   Every function that can fail returns a status: WARPCRYPT_OK (0) or one of the
 *           command's exit-code classes below (WARPCRYPT_E_*), the same number `warpcrypt`
 *           exits with for the same failure. Where a function takes `warpcrypt_error **err`,
 *           a failure also stores there (when `err` is not NULL) an error the caller frees
 *           with warpcrypt_error_free, holding a one-line message and, often, a hint. Nothing
 *           aborts the process or throws across this interface.
 * Ownership. Every input is borrowed for the call only. Every object a function makes is the
 *           caller's, freed by the matching _free function (each accepts NULL). Texts a
 *           function writes go into the caller's buffer (`buf`, `cap`), and `*need` says the
 *           size it needs, its terminating NUL included.
 * Secrets.  Passphrases and private keys are copied at once into locked memory (libsodium's
 *           guarded pages) and wiped when their object is freed; buffers of plaintext the
 *           library returns are wiped by warpcrypt_buffer_free. Nothing here prints, prompts,
 *           reads the environment's passphrase, or touches signals and core dumps.
 * Threads.  Recipients, identities and options are immutable once made (options: once passed
 *           to a call) and may be shared by threads calling at once. An error belongs to its
 *           caller. A call may run its work on threads of its own: the read and write callbacks
 *           are called one at a time, in order, but not always on the caller's thread; the
 *           plugin callbacks are called on the caller's thread.
 * Streams.  Decryption writes each chunk only after it authenticated; a later failure (a
 *           truncated file) is reported after the earlier chunks were written, so a caller
 *           that must not keep partial plaintext writes to a temporary place and commits it
 *           only on WARPCRYPT_OK.
 */
#ifndef WARPCRYPT_H
#define WARPCRYPT_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define WARPCRYPT_API
#else
#define WARPCRYPT_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Versions -------------------------------------------------------------------------- */

#define WARPCRYPT_VERSION_MAJOR 0
#define WARPCRYPT_VERSION_MINOR 1
#define WARPCRYPT_VERSION_PATCH 0

/* "0.1.0": the library's version (the command's with it). */
WARPCRYPT_API const char *warpcrypt_version(void);
/* MAJOR * 10000 + MINOR * 100 + PATCH, to compare with the WARPCRYPT_VERSION_* macros. */
WARPCRYPT_API uint32_t warpcrypt_version_number(void);
/* Optional, idempotent and thread-safe: initialises libsodium and detects the CPU's
 * features. Every other call does it on first use. */
WARPCRYPT_API int warpcrypt_init(void);

/* ---- Status codes: the command's exit codes ------------------------------------------ */

enum {
    WARPCRYPT_OK = 0,
    WARPCRYPT_E_INTERNAL = 1,    /* a bug in warpcrypt, or memory exhausted */
    WARPCRYPT_E_USAGE = 2,       /* a bad argument: a null pointer, a malformed key, a refusal */
    WARPCRYPT_E_WRONG_KEY = 3,   /* no identity or passphrase given opens the file */
    WARPCRYPT_E_CORRUPTED = 4,   /* damaged or tampered data */
    WARPCRYPT_E_TRUNCATED = 5,   /* the input ends too soon */
    WARPCRYPT_E_UNSUPPORTED = 6, /* a format version, cipher or key type this build lacks */
    WARPCRYPT_E_IO = 7,          /* reading or writing failed */
    WARPCRYPT_E_ABORTED = 130    /* a callback returned non-zero (the command's "interrupted") */
};

typedef struct warpcrypt_error warpcrypt_error;

/* The status, message (one line, no trailing newline) and hint ("" when none) of an error;
 * the texts live as long as the error. A NULL error gives WARPCRYPT_OK and "". */
WARPCRYPT_API int warpcrypt_error_status(const warpcrypt_error *err);
WARPCRYPT_API const char *warpcrypt_error_message(const warpcrypt_error *err);
WARPCRYPT_API const char *warpcrypt_error_hint(const warpcrypt_error *err);
WARPCRYPT_API void warpcrypt_error_free(warpcrypt_error *err);
/* What a status means in a few words: "wrong key or passphrase". */
WARPCRYPT_API const char *warpcrypt_status_meaning(int status);

/* ---- Keys ----------------------------------------------------------------------------- */

/* The kinds of key (docs/format-age.md, "Key kinds"). */
enum {
    WARPCRYPT_KEY_PASSPHRASE = 1,      /* warp: Argon2id; age: scrypt */
    WARPCRYPT_KEY_KEY_FILE = 2,        /* warp only: a 256-bit key (WARPCRYPT-KEY-...) */
    WARPCRYPT_KEY_X25519 = 3,          /* age1..., AGE-SECRET-KEY-1... */
    WARPCRYPT_KEY_MLKEM768X25519 = 4,  /* age1pq1..., AGE-SECRET-KEY-PQ-1...: post-quantum */
    WARPCRYPT_KEY_SSH_ED25519 = 5,     /* age files only */
    WARPCRYPT_KEY_SSH_RSA = 6,         /* age files only */
    WARPCRYPT_KEY_PLUGIN = 7,          /* age1NAME1..., AGE-PLUGIN-NAME-1...: age-plugin-NAME */
    WARPCRYPT_KEY_P256TAG = 8,         /* age1tag1...: recipients only (a hardware key) */
    WARPCRYPT_KEY_MLKEM768P256TAG = 9  /* age1tagpq1...: recipients only */
};

typedef struct warpcrypt_recipient warpcrypt_recipient; /* what a file is encrypted to */
typedef struct warpcrypt_options warpcrypt_options;     /* below */
typedef struct warpcrypt_identity warpcrypt_identity;   /* what opens it */

/* One recipient in its text form (age1..., age1pq1..., an SSH public key line, age1tag1...,
 * a plugin's age1NAME1...). An identity given by mistake is refused without being quoted. */
WARPCRYPT_API int warpcrypt_recipient_parse(const char *text, size_t len,
                                            warpcrypt_recipient **out, warpcrypt_error **err);
/* A passphrase to encrypt to (not empty; any bytes, UTF-8 by convention). Its KDF cost is
 * the options' (WARPCRYPT_OPT_PASSPHRASE_*) at the time of the encryption. */
WARPCRYPT_API int warpcrypt_recipient_passphrase(const uint8_t *passphrase, size_t len,
                                                 warpcrypt_recipient **out,
                                                 warpcrypt_error **err);
/* The recipients of a recipients file's text: one per line, "#" comments and blank lines
 * skipped, SSH keys of types age has no stanza for skipped as age does (`*skipped` counts
 * them; may be NULL). `*out` is an array of `*count` recipients, freed with
 * warpcrypt_recipients_free. */
WARPCRYPT_API int warpcrypt_recipients_parse_file(const char *text, size_t len,
                                                  warpcrypt_recipient ***out, size_t *count,
                                                  size_t *skipped, warpcrypt_error **err);
WARPCRYPT_API void warpcrypt_recipients_free(warpcrypt_recipient **recipients, size_t count);
/* WARPCRYPT_KEY_*, or 0 for NULL. */
WARPCRYPT_API int warpcrypt_recipient_kind(const warpcrypt_recipient *recipient);
/* The text form; a passphrase has none (WARPCRYPT_E_USAGE). */
WARPCRYPT_API int warpcrypt_recipient_encode(const warpcrypt_recipient *recipient, char *buf,
                                             size_t cap, size_t *need, warpcrypt_error **err);
WARPCRYPT_API void warpcrypt_recipient_free(warpcrypt_recipient *recipient);

/* A new identity of `kind`: WARPCRYPT_KEY_X25519, _MLKEM768X25519 or _KEY_FILE. */
WARPCRYPT_API int warpcrypt_identity_generate(int kind, warpcrypt_identity **out,
                                              warpcrypt_error **err);
/* One identity in its text form (AGE-SECRET-KEY-1..., AGE-SECRET-KEY-PQ-1...,
 * AGE-PLUGIN-NAME-1..., WARPCRYPT-KEY-...). Never quoted in an error. */
WARPCRYPT_API int warpcrypt_identity_parse(const char *text, size_t len,
                                           warpcrypt_identity **out, warpcrypt_error **err);
/* A passphrase to open files with (not empty). */
WARPCRYPT_API int warpcrypt_identity_passphrase(const uint8_t *passphrase, size_t len,
                                                warpcrypt_identity **out,
                                                warpcrypt_error **err);
/* A plugin's default identity (as `age -j NAME`): age-plugin-NAME with no data. */
WARPCRYPT_API int warpcrypt_identity_plugin(const char *name, warpcrypt_identity **out,
                                            warpcrypt_error **err);
/* The identities of an identity file's text, whatever the command's -i takes: an age
 * identity file (any kinds, "#" comments), a warp key file, an OpenSSH or PEM SSH private
 * key, or a passphrase-protected identity file (`age -p`). `passphrase` (may be NULL) opens an
 * SSH key under a passphrase or a protected file; without one they are WARPCRYPT_E_USAGE, a
 * wrong one WARPCRYPT_E_WRONG_KEY. A protected file's scrypt is bounded by `options`' KDF
 * limits (may be NULL: the defaults). Freed with warpcrypt_identities_free. */
WARPCRYPT_API int warpcrypt_identities_parse_file(const char *text, size_t len,
                                                  const uint8_t *passphrase,
                                                  size_t passphrase_len,
                                                  const warpcrypt_options *options,
                                                  warpcrypt_identity ***out, size_t *count,
                                                  warpcrypt_error **err);
WARPCRYPT_API void warpcrypt_identities_free(warpcrypt_identity **identities, size_t count);
WARPCRYPT_API int warpcrypt_identity_kind(const warpcrypt_identity *identity);
/* The recipient of an identity (`warpcrypt keygen -y`); passphrases and plugin identities
 * have none (WARPCRYPT_E_USAGE). */
WARPCRYPT_API int warpcrypt_identity_to_recipient(const warpcrypt_identity *identity,
                                                  warpcrypt_recipient **out,
                                                  warpcrypt_error **err);
/* The secret text form (for X25519, post-quantum, key-file and plugin identities), into the
 * caller's buffer: the caller wipes it. */
WARPCRYPT_API int warpcrypt_identity_encode(const warpcrypt_identity *identity, char *buf,
                                            size_t cap, size_t *need, warpcrypt_error **err);
WARPCRYPT_API void warpcrypt_identity_free(warpcrypt_identity *identity); /* wipes */

/* ---- Options ---------------------------------------------------------------------------- */

enum {
    WARPCRYPT_FORMAT_WARP = 0,
    WARPCRYPT_FORMAT_AGE = 1
};
enum {
    WARPCRYPT_CIPHER_AUTO = 0, /* the engine's choice by hardware and size (warp files) */
    WARPCRYPT_CIPHER_AES_256_GCM = 1,
    WARPCRYPT_CIPHER_CHACHA20_POLY1305 = 2
};

/* Settings by number (new ones keep the ABI); each value is checked where it is set. */
enum {
    WARPCRYPT_OPT_FORMAT = 1,         /* encrypt: WARPCRYPT_FORMAT_* (default: warp) */
    WARPCRYPT_OPT_ARMOR = 2,          /* encrypt, age: 1 for ASCII armor (default 0) */
    WARPCRYPT_OPT_CIPHER = 3,         /* encrypt, warp: WARPCRYPT_CIPHER_* (default auto) */
    WARPCRYPT_OPT_THREADS = 4,        /* threads that seal or open; 0: one per CPU (default) */
    WARPCRYPT_OPT_CHUNK_LOG2 = 5,     /* encrypt, warp: 12..24 (default 16: 64 KiB chunks) */
    WARPCRYPT_OPT_KDF_MAX_MEMORY_KIB = 6, /* decrypt: the most one KDF may use (1 GiB) */
    WARPCRYPT_OPT_KDF_MAX_WORK_KIB = 7,   /* decrypt: KiB x passes summed over a call */
    WARPCRYPT_OPT_PASSPHRASE_MEMORY_KIB = 8, /* encrypt: Argon2id memory, or age's scrypt N
                                              * as memory (a power of two); default 256 MiB */
    WARPCRYPT_OPT_PASSPHRASE_PASSES = 9,  /* encrypt, warp: Argon2id passes (default 3) */
    WARPCRYPT_OPT_PLUGIN_TIMEOUT_MS = 10  /* the longest a plugin may stay silent (60 s) */
};

WARPCRYPT_API int warpcrypt_options_new(warpcrypt_options **out);
WARPCRYPT_API int warpcrypt_options_set(warpcrypt_options *options, int option, int64_t value,
                                        warpcrypt_error **err);
/* "auto" (or NULL), a backend's name or a family ("x86"), as `warpcrypt backends` lists them;
 * WARPCRYPT_E_USAGE when unknown or unable to run here. */
WARPCRYPT_API int warpcrypt_options_set_backend(warpcrypt_options *options, const char *name,
                                                warpcrypt_error **err);

/* What an age plugin may ask while it wraps or unwraps a file key (C2SP age-plugin.md), on
 * the caller's thread. Texts are NUL-terminated and as the plugin sent them: escape them
 * before showing them. Any callback may be NULL; a callback that returns non-zero tells the
 * plugin "fail" (no user, or the user declined), and the plugin decides what follows. */
typedef struct warpcrypt_plugin_ui {
    void *user;
    /* Show `message` from `plugin`. */
    int (*message)(void *user, const char *plugin, const char *message);
    /* Ask for a value (echo off when `secret`): write up to `cap` bytes to `buf` and their
     * number to `*len`. The library wipes `buf` after use. */
    int (*request)(void *user, const char *plugin, const char *prompt, int secret, char *buf,
                   size_t cap, size_t *len);
    /* Ask to choose `yes` or `no` (`no` NULL: only `yes`); `*chose_yes` 1 or 0. */
    int (*confirm)(void *user, const char *plugin, const char *prompt, const char *yes,
                   const char *no, int *chose_yes);
    /* Once per plugin run, after 5 s of silence (waiting for a touch). */
    void (*waiting)(void *user, const char *plugin);
} warpcrypt_plugin_ui;

/* Copied; NULL removes it (plugin questions then fail). */
WARPCRYPT_API int warpcrypt_options_set_plugin_ui(warpcrypt_options *options,
                                                  const warpcrypt_plugin_ui *ui);
/* Called after each batch with the plaintext bytes done so far; non-zero aborts the call
 * (WARPCRYPT_E_ABORTED). NULL removes it. */
typedef int (*warpcrypt_progress_fn)(void *user, uint64_t bytes_done);
WARPCRYPT_API int warpcrypt_options_set_progress(warpcrypt_options *options,
                                                 warpcrypt_progress_fn progress, void *user);
WARPCRYPT_API void warpcrypt_options_free(warpcrypt_options *options);

/* ---- Results ---------------------------------------------------------------------------- */

/* What a call did; optional (pass NULL). */
typedef struct warpcrypt_result {
    int format;               /* WARPCRYPT_FORMAT_* */
    int armored;              /* an age file in ASCII armor */
    int cipher;               /* WARPCRYPT_CIPHER_* that sealed or opened the payload */
    char backend[48];         /* the backend that ran it ("x86-vaes-avx512", "scalar") */
    uint64_t plaintext_bytes; /* sealed, or written out */
    uint32_t opened_with;     /* decrypt, verify: the slot or stanza that opened, from 0 */
    char plugin[64];          /* the plugin that opened it, or "" */
} warpcrypt_result;

/* ---- Encrypting and decrypting ----------------------------------------------------------- */

/* Fill `buf` with up to `cap` bytes and set `*len` (0 only at the end of input); non-zero
 * aborts the call (WARPCRYPT_E_ABORTED). */
typedef int (*warpcrypt_read_fn)(void *user, uint8_t *buf, size_t cap, size_t *len);
/* Take all `len` bytes; non-zero aborts the call (WARPCRYPT_E_ABORTED). */
typedef int (*warpcrypt_write_fn)(void *user, const uint8_t *buf, size_t len);
/* Read exactly `len` bytes at `offset` (range decryption); non-zero aborts. */
typedef int (*warpcrypt_read_at_fn)(void *user, uint64_t offset, uint8_t *buf, size_t len);

/* Streaming, in bounded memory, through callbacks. `options` may be NULL (the defaults). */
WARPCRYPT_API int warpcrypt_encrypt(const warpcrypt_options *options,
                                    const warpcrypt_recipient *const *recipients, size_t count,
                                    warpcrypt_read_fn read, void *read_user,
                                    warpcrypt_write_fn write, void *write_user,
                                    warpcrypt_result *result, warpcrypt_error **err);
/* Either format, told by the file's first bytes; armor is detected. */
WARPCRYPT_API int warpcrypt_decrypt(const warpcrypt_options *options,
                                    const warpcrypt_identity *const *identities, size_t count,
                                    warpcrypt_read_fn read, void *read_user,
                                    warpcrypt_write_fn write, void *write_user,
                                    warpcrypt_result *result, warpcrypt_error **err);
/* Decrypts, writing nothing: WARPCRYPT_OK when the whole file authenticates. */
WARPCRYPT_API int warpcrypt_verify(const warpcrypt_options *options,
                                   const warpcrypt_identity *const *identities, size_t count,
                                   warpcrypt_read_fn read, void *read_user,
                                   warpcrypt_result *result, warpcrypt_error **err);
/* Plaintext bytes [offset, offset + length), clamped to the plaintext, of a file of `size`
 * bytes read at offsets: only the chunks that hold them are read and authenticated. Armored
 * age files are refused (WARPCRYPT_E_USAGE). */
WARPCRYPT_API int warpcrypt_decrypt_range(const warpcrypt_options *options,
                                          const warpcrypt_identity *const *identities,
                                          size_t count, warpcrypt_read_at_fn read_at,
                                          void *read_user, uint64_t size, uint64_t offset,
                                          uint64_t length, warpcrypt_write_fn write,
                                          void *write_user, warpcrypt_result *result,
                                          warpcrypt_error **err);

/* From memory to memory: `*out` is allocated by the library, `*out_len` bytes long, freed (and
 * wiped) with warpcrypt_buffer_free; on failure it is NULL and nothing partial is returned. */
WARPCRYPT_API int warpcrypt_encrypt_buffer(const warpcrypt_options *options,
                                           const warpcrypt_recipient *const *recipients,
                                           size_t count, const uint8_t *in, size_t in_len,
                                           uint8_t **out, size_t *out_len,
                                           warpcrypt_result *result, warpcrypt_error **err);
WARPCRYPT_API int warpcrypt_decrypt_buffer(const warpcrypt_options *options,
                                           const warpcrypt_identity *const *identities,
                                           size_t count, const uint8_t *in, size_t in_len,
                                           uint8_t **out, size_t *out_len,
                                           warpcrypt_result *result, warpcrypt_error **err);
WARPCRYPT_API int warpcrypt_decrypt_range_buffer(const warpcrypt_options *options,
                                                 const warpcrypt_identity *const *identities,
                                                 size_t count, const uint8_t *in,
                                                 size_t in_len, uint64_t offset,
                                                 uint64_t length, uint8_t **out,
                                                 size_t *out_len, warpcrypt_result *result,
                                                 warpcrypt_error **err);
WARPCRYPT_API void warpcrypt_buffer_free(uint8_t *buffer, size_t len);

/* Memory for a _to call's output: exactly `size` bytes the library fills, or NULL when there is
 * none (the call then fails, WARPCRYPT_E_INTERNAL). */
typedef uint8_t *(*warpcrypt_alloc_fn)(void *user, size_t size);
/* From memory to memory the caller allocates, so that the output is made where the caller
 * wants it (a Python bytes object, say) rather than copied there. `alloc` is called once per
 * call, on the caller's thread, as soon as the output's size is known: before the payload is
 * made for an encryption or a binary file's decryption, at the end for an armored file (whose
 * output is then copied once). It may have been called when the call fails: the memory stays
 * the caller's to free, and what the library wrote in it was wiped. `*out_len` is the size
 * written on success. */
WARPCRYPT_API int warpcrypt_encrypt_to(const warpcrypt_options *options,
                                       const warpcrypt_recipient *const *recipients,
                                       size_t count, const uint8_t *in, size_t in_len,
                                       warpcrypt_alloc_fn alloc, void *alloc_user,
                                       size_t *out_len, warpcrypt_result *result,
                                       warpcrypt_error **err);
WARPCRYPT_API int warpcrypt_decrypt_to(const warpcrypt_options *options,
                                       const warpcrypt_identity *const *identities,
                                       size_t count, const uint8_t *in, size_t in_len,
                                       warpcrypt_alloc_fn alloc, void *alloc_user,
                                       size_t *out_len, warpcrypt_result *result,
                                       warpcrypt_error **err);

/* Between file descriptors the caller opened (a pipe, a socket, a file): read from `in_fd`
 * from its offset to its end, written to `out_fd` at its offset. Neither is closed. */
WARPCRYPT_API int warpcrypt_encrypt_fd(const warpcrypt_options *options,
                                       const warpcrypt_recipient *const *recipients,
                                       size_t count, int in_fd, int out_fd,
                                       warpcrypt_result *result, warpcrypt_error **err);
WARPCRYPT_API int warpcrypt_decrypt_fd(const warpcrypt_options *options,
                                       const warpcrypt_identity *const *identities,
                                       size_t count, int in_fd, int out_fd,
                                       warpcrypt_result *result, warpcrypt_error **err);
/* `in_fd` must be a regular file (read with pread, its offset untouched). */
WARPCRYPT_API int warpcrypt_decrypt_range_fd(const warpcrypt_options *options,
                                             const warpcrypt_identity *const *identities,
                                             size_t count, int in_fd, uint64_t offset,
                                             uint64_t length, int out_fd,
                                             warpcrypt_result *result, warpcrypt_error **err);

/* ---- What a file's header says, read without a key -------------------------------------- */

typedef struct warpcrypt_entry_info {
    const char *type;     /* warp: "x25519", "passphrase", ...; age: the stanza's tag */
    int known;            /* a type this library opens */
    int post_quantum;     /* 1, 0, or -1 when unknown */
    int public_key;       /* an X25519, post-quantum or SSH key rather than a secret */
    uint32_t argon2id_passes, argon2id_memory_kib; /* warp passphrase slots; else 0 */
    uint32_t scrypt_log2_n; /* age scrypt stanzas; else 0 */
    const char *note;     /* what else the entry says of itself, or "" */
} warpcrypt_entry_info;

typedef struct warpcrypt_info {
    int format;                /* WARPCRYPT_FORMAT_* */
    int armored;
    uint32_t version;          /* warp: the header's version; age: 1 */
    int cipher;                /* WARPCRYPT_CIPHER_* */
    uint32_t chunk_size;       /* bytes of plaintext per chunk */
    int header_bytes_known;    /* 0 for armored age files */
    uint64_t header_bytes;
    int plaintext_bytes_known; /* when the file's size was given and tells it */
    uint64_t plaintext_bytes;
    size_t entry_count;        /* key slots (warp) or stanzas (age) */
    const warpcrypt_entry_info *entries;
} warpcrypt_info;

/* `file_size`: the whole file's size, or -1 when unknown (then the plaintext's is too). */
WARPCRYPT_API int warpcrypt_info_read(warpcrypt_read_fn read, void *read_user,
                                      int64_t file_size, warpcrypt_info **out,
                                      warpcrypt_error **err);
WARPCRYPT_API int warpcrypt_info_buffer(const uint8_t *in, size_t len, warpcrypt_info **out,
                                        warpcrypt_error **err);
WARPCRYPT_API void warpcrypt_info_free(warpcrypt_info *info);

#ifdef __cplusplus
}
#endif

#endif /* WARPCRYPT_H */
