#include "tests/acvp/acvp_aead.hpp"

#include "engine/aead_key.hpp"

namespace warp::acvp {

void answer_aead(Json& answer, const AeadImpl& impl, Direction direction,
                 const AeadTestInputs& inputs, std::size_t tag_len) {
    const AeadKey aead(impl, inputs.key);
    Bytes out(inputs.text.size());

    if (direction == Direction::encrypt) {
        Bytes tag(tag_len);
        const AeadChunk chunk{inputs.nonce.data(), inputs.nonce.size(), inputs.aad.data(),
                              inputs.aad.size(),   inputs.text.data(),  out.data(),
                              out.size(),          tag.data()};
        aead.seal({&chunk, 1}, tag_len);
        answer["ct"] = hex_upper(out);
        answer["tag"] = hex_upper(tag);
        return;
    }

    Bytes tag = inputs.tag;  // AeadChunk::tag is writable; open only reads it
    const AeadChunk chunk{inputs.nonce.data(), inputs.nonce.size(), inputs.aad.data(),
                          inputs.aad.size(),   inputs.text.data(),  out.data(),
                          out.size(),          tag.data()};
    bool authentic = false;
    aead.open({&chunk, 1}, &authentic, tag_len);
    if (authentic)
        answer["pt"] = hex_upper(out);
    else
        answer["testPassed"] = false;
}

}  // namespace warp::acvp
