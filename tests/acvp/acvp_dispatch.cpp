// Which algorithms the harness answers, which backend entry point each needs, and the walk
// over a prompt's test groups.
#include <array>

#include "engine/error.hpp"
#include "engine/selection.hpp"
#include "tests/acvp/acvp.hpp"
#include "tests/acvp/acvp_algorithms.hpp"

namespace warp::acvp {
namespace {

enum class EntryPoint { aes_block, aes_gcm, chacha20_poly1305 };

struct Algorithm {
    std::string_view name;
    std::string_view revision;
    EntryPoint needs;
    Json (*answer_group)(const Json& group, const GroupContext& context);
};

constexpr std::array kAlgorithms = {
    Algorithm{"ACVP-AES-ECB", "1.0", EntryPoint::aes_block, &answer_aes_ecb_group},
    Algorithm{"ACVP-AES-CTR", "1.0", EntryPoint::aes_block, &answer_aes_ctr_group},
    Algorithm{"ACVP-AES-GCM", "1.0", EntryPoint::aes_gcm, &answer_aes_gcm_group},
    Algorithm{"CHACHA20-POLY1305", "1.0", EntryPoint::chacha20_poly1305,
              &answer_chacha20_poly1305_group},
};

const Algorithm& algorithm_of(const Json& prompt) {
    if (!prompt.is_object())
        malformed("not an ACVP vector set (a JSON object with algorithm, revision, testGroups)");
    const std::string name = string_field(prompt, "algorithm");
    const std::string revision = string_field(prompt, "revision");
    for (const Algorithm& a : kAlgorithms)
        if (a.name == name && a.revision == revision) return a;
    std::string supported;
    for (const Algorithm& a : kAlgorithms)
        supported += (supported.empty() ? "" : ", ") + std::string(a.name) + " " +
                     std::string(a.revision);
    malformed("algorithm '" + name + "' revision '" + revision + "' is not supported (" +
              supported + ")");
}

bool provides(const Backend& backend, EntryPoint entry) {
    switch (entry) {
        case EntryPoint::aes_block: return backend.aes != nullptr;
        case EntryPoint::aes_gcm: return backend.aes_gcm != nullptr;
        case EntryPoint::chacha20_poly1305: return backend.chacha20_poly1305 != nullptr;
    }
    return false;
}

std::string_view describe(EntryPoint entry) {
    switch (entry) {
        case EntryPoint::aes_block: return "raw AES block entry point";
        case EntryPoint::aes_gcm: return "AES-GCM";
        case EntryPoint::chacha20_poly1305: return "ChaCha20-Poly1305";
    }
    return "?";
}

}  // namespace

TestIndex::TestIndex(const Json& document) {
    for (const Json& group : array_field(document, "testGroups")) {
        const std::int64_t tg_id = integer_field(group, "tgId");
        try {
            for (const Json& test : array_field(group, "tests")) {
                const std::int64_t tc_id = integer_field(test, "tcId");
                if (!tests_.emplace(std::pair{tg_id, tc_id}, &test).second)
                    malformed("tcId " + std::to_string(tc_id) + " occurs twice");
            }
        } catch (...) {
            rethrow_with_context("tgId " + std::to_string(tg_id));
        }
    }
}

const Json* TestIndex::find(std::int64_t tg_id, std::int64_t tc_id) const {
    const auto it = tests_.find({tg_id, tc_id});
    return it == tests_.end() ? nullptr : it->second;
}

const Backend& default_backend(const Json& prompt) {
    // Messages in ACVP files are small, hence the size 0 given to the cost model.
    switch (algorithm_of(prompt).needs) {
        case EntryPoint::aes_gcm: return *select(Aead::aes_gcm, SizeHint::exactly(0)).backend;
        case EntryPoint::chacha20_poly1305:
            return *select(Aead::chacha20_poly1305, SizeHint::exactly(0)).backend;
        case EntryPoint::aes_block: return select_block_backend();
    }
    throw Error(ErrorCause::bad_input, "unknown entry point");
}

Json respond(const Json& prompt, const Backend& backend, const TestIndex* expected) {
    const Algorithm& algorithm = algorithm_of(prompt);
    if (!provides(backend, algorithm.needs))
        throw Error(ErrorCause::backend_unavailable,
                    "backend '" + std::string(backend.name) + "' has no " +
                        std::string(describe(algorithm.needs)) + ", which " +
                        std::string(algorithm.name) + " needs");

    Json response = Json::object();
    response["vsId"] = integer_field(prompt, "vsId");
    response["algorithm"] = algorithm.name;
    if (has_member(prompt, "mode")) response["mode"] = member(prompt, "mode");
    response["revision"] = algorithm.revision;
    if (has_member(prompt, "isSample")) response["isSample"] = member(prompt, "isSample");

    Json groups = Json::array();
    for (const Json& group : array_field(prompt, "testGroups")) {
        const std::int64_t tg_id = integer_field(group, "tgId");
        try {
            Json answer = Json::object();
            answer["tgId"] = tg_id;
            answer["tests"] = algorithm.answer_group(group, GroupContext{backend, expected, tg_id});
            groups.push_back(std::move(answer));
        } catch (...) {
            rethrow_with_context("tgId " + std::to_string(tg_id));
        }
    }
    response["testGroups"] = std::move(groups);
    return response;
}

}  // namespace warp::acvp
