// One answerer per algorithm (one source file each); acvp_dispatch.cpp picks one by the
// prompt's algorithm and revision. Each takes one prompt test group and returns the answers
// to its tests (the group's "tests" array of the response).
#pragma once

#include "engine/registry.hpp"
#include "tests/acvp/acvp.hpp"

namespace warp::acvp {

struct GroupContext {
    const Backend& backend;
    const TestIndex* expected;  // may be null; see respond()
    std::int64_t tg_id;
};

Json answer_aes_ecb_group(const Json& group, const GroupContext& context);
Json answer_aes_ctr_group(const Json& group, const GroupContext& context);
Json answer_aes_gcm_group(const Json& group, const GroupContext& context);
Json answer_chacha20_poly1305_group(const Json& group, const GroupContext& context);

}  // namespace warp::acvp
