// SSH private keys in PEM, as golang.org/x/crypto/ssh's ParseRawPrivateKey and
// ParseRawPrivateKeyWithPassphrase read them (so age does): PKCS#1 RSA ("BEGIN RSA PRIVATE
// KEY": what `ssh-keygen -m PEM` writes, and every OpenSSH before 7.8 by default), PKCS#8 RSA
// and Ed25519 ("BEGIN PRIVATE KEY": `ssh-keygen -m PKCS8`), and PKCS#1 under the legacy PEM
// encryption (Proc-Type: 4,ENCRYPTED; DEK-Info: AES-128-CBC, AES-192-CBC, AES-256-CBC or
// DES-EDE3-CBC). OpenSSL's libcrypto, which the program links for RSA already, parses them: no
// ASN.1 is read here. What comes out is what an OpenSSH key file gives (ssh.hpp, ParsedKey).
#pragma once

#include <string_view>

#include "engine/secure_memory.hpp"
#include "formats/keys/ssh.hpp"

namespace warp::formats::ssh {

// Whether the file starts as one of the PEM private keys above (or a kind named to refuse
// it: an encrypted PKCS#8 key, an EC or DSA key).
bool is_pem_private_key(std::string_view file);
// Whether it is under the legacy PEM encryption.
bool pem_needs_passphrase(std::string_view file);

// The key: a wrong passphrase (or a damaged encrypted key: the two look the same) is
// Error(wrong_key); Error(usage) saying what is wrong otherwise (no passphrase for an encrypted
// one, another cipher, an encrypted PKCS#8 key, an EC or DSA key, an RSA key under
// kMinRsaBits or with an exponent age refuses, a damaged file). The legacy encryption's key
// derivation is one MD5 (EVP_BytesToKey): nothing for the KDF limits to count.
ParsedKey parse_pem_identity(std::string_view file, const SecretBytes* passphrase = nullptr);

}  // namespace warp::formats::ssh
