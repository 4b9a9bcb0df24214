/* A C99 program that uses warpcrypt as any program would: the installed header, and the flags
 * pkg-config gives (tests/capi/installed_consumer_test.sh). It makes a post-quantum identity,
 * encrypts to it in both formats, decrypts, and checks a wrong key's status. */
#include <stdio.h>
#include <string.h>

#include <warpcrypt.h>

static int fail(const char *what, warpcrypt_error *err) {
    fprintf(stderr, "consumer: %s: %s\n", what, warpcrypt_error_message(err));
    warpcrypt_error_free(err);
    return 1;
}

int main(void) {
    warpcrypt_error *err = NULL;
    warpcrypt_identity *identity = NULL, *stranger = NULL;
    warpcrypt_recipient *recipient = NULL;
    warpcrypt_options *options = NULL;
    const char *message = "hello from C";
    int format;

    if (warpcrypt_version_number() != 100) return fail("version", NULL);
    if (warpcrypt_identity_generate(WARPCRYPT_KEY_MLKEM768X25519, &identity, &err) ||
        warpcrypt_identity_generate(WARPCRYPT_KEY_X25519, &stranger, &err) ||
        warpcrypt_identity_to_recipient(identity, &recipient, &err) ||
        warpcrypt_options_new(&options))
        return fail("keys", err);
    for (format = WARPCRYPT_FORMAT_WARP; format <= WARPCRYPT_FORMAT_AGE; ++format) {
        const warpcrypt_recipient *recipients[1];
        const warpcrypt_identity *identities[1];
        uint8_t *sealed = NULL, *opened = NULL;
        size_t sealed_len = 0, opened_len = 0;
        recipients[0] = recipient;
        if (warpcrypt_options_set(options, WARPCRYPT_OPT_FORMAT, format, &err) ||
            warpcrypt_encrypt_buffer(options, recipients, 1, (const uint8_t *)message,
                                     strlen(message), &sealed, &sealed_len, NULL, &err))
            return fail("encrypt", err);
        identities[0] = stranger;
        if (warpcrypt_decrypt_buffer(NULL, identities, 1, sealed, sealed_len, &opened,
                                     &opened_len, NULL, &err) != WARPCRYPT_E_WRONG_KEY)
            return fail("a stranger's key opened it", err);
        warpcrypt_error_free(err);
        err = NULL;
        identities[0] = identity;
        if (warpcrypt_decrypt_buffer(NULL, identities, 1, sealed, sealed_len, &opened,
                                     &opened_len, NULL, &err))
            return fail("decrypt", err);
        if (opened_len != strlen(message) || memcmp(opened, message, opened_len) != 0)
            return fail("the plaintext differs", NULL);
        warpcrypt_buffer_free(sealed, sealed_len);
        warpcrypt_buffer_free(opened, opened_len);
    }
    warpcrypt_options_free(options);
    warpcrypt_recipient_free(recipient);
    warpcrypt_identity_free(identity);
    warpcrypt_identity_free(stranger);
    printf("consumer: warpcrypt %s works from C\n", warpcrypt_version());
    return 0;
}
