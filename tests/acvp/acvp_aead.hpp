// The part of an AEAD test both AEAD vector sets share (AES-GCM, ChaCha20-Poly1305): seal one
// message and answer ct + tag, or open one and answer pt or "testPassed": false.
#pragma once

#include <cstddef>

#include "engine/aead.hpp"
#include "tests/acvp/acvp_json.hpp"

namespace warp::acvp {

// One test's inputs, already checked against its group's lengths.
struct AeadTestInputs {
    Bytes key;
    Bytes nonce;
    Bytes aad;
    Bytes text;  // pt to seal or ct to open
    Bytes tag;   // the tag to verify (open only)
};

// Adds the outputs to `answer`: "ct" and "tag" (tag_len bytes) for encrypt; "pt" when the tag
// verifies, else "testPassed": false (and no plaintext) for decrypt.
void answer_aead(Json& answer, const AeadImpl& impl, Direction direction,
                 const AeadTestInputs& inputs, std::size_t tag_len);

}  // namespace warp::acvp
