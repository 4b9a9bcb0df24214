// The one decision of what runs: see selection.hpp for the rule.
#include "engine/selection.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "engine/error.hpp"

namespace warp {
namespace {

// One way to run the payload: a backend and one of its AEADs.
struct Candidate {
    const Backend* backend;
    Aead aead;
};

std::vector<Aead> aeads_of(std::optional<Aead> cipher) {
    if (cipher) return {*cipher};
    return {Aead::aes_gcm, Aead::chacha20_poly1305};  // a tie goes to AES-GCM, the old default
}

// The pairs the request allows, in order (table order, then AES-GCM first); may be empty.
std::vector<Candidate> candidates(std::optional<Aead> cipher, const BackendRequest& request,
                                  const CpuFeatures& cpu) {
    std::vector<const Backend*> backends;
    if (request.is_auto() && &cpu == &cpu_features()) {
        // The process's own CPU does not change while it runs: its backends are probed once
        // (each probe writes its reason in words, a microsecond a decision, 2026-12-06).
        static const std::vector<const Backend*> usable_here = [&cpu] {
            std::vector<const Backend*> usable;
            for (const Backend& b : all_backends())
                if (b.probe(cpu).usable) usable.push_back(&b);
            return usable;
        }();
        backends = usable_here;
    } else if (request.is_auto()) {  // a feature set of the tests' making
        for (const Backend& b : all_backends())
            if (b.probe(cpu).usable) backends.push_back(&b);
    } else {
        backends = request.allowed;  // checked when it was made (request_backend)
    }
    std::vector<Candidate> list;
    for (const Backend* b : backends)
        if (!failed_to_open(*b))
            for (Aead aead : aeads_of(cipher))
                if (b->aead(aead) != nullptr) list.push_back({b, aead});
    return list;
}

[[noreturn]] void none_implements(std::optional<Aead> cipher, const BackendRequest& request) {
    const std::string what(cipher ? aead_display_name(*cipher) : "an AEAD");
    if (request.is_auto())
        throw Error(ErrorCause::backend_unavailable, "no usable backend implements " + what);
    throw Error(ErrorCause::backend_unavailable,
                "backend '" + request.name + "' does not implement " + what +
                    (request.allowed.size() > 1 ? " (no usable variant does)" : ""));
}

// Each candidate's entry, or an empty list when any candidate lacks one (then table order
// decides).
std::vector<const CostEntry*> entries_of(const std::vector<Candidate>& list,
                                         const CostModel& model) {
    std::vector<const CostEntry*> entries;
    for (const Candidate& c : list) {
        const CostEntry* entry = model.find(c.backend->name, c.aead);
        if (entry == nullptr) return {};
        entries.push_back(entry);
    }
    return entries;
}

// The index of the candidate with the least predicted time (0 without a full model); a tie
// keeps the earlier one.
std::size_t predicted_best(const std::vector<const CostEntry*>& entries, std::uint64_t bytes) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < entries.size(); ++i)
        if (entries[i]->predict_ns(bytes) < entries[best]->predict_ns(bytes)) best = i;
    return best;
}

std::string size_phrase(SizeHint size) {
    if (size.exact) return "for " + std::to_string(size.bytes) + " bytes";
    std::string phrase = size.bytes == 0 ? "for a stream of unknown length"
                                         : "for a stream of at least " +
                                               std::to_string(size.bytes) + " bytes";
    if (size.planning_bytes() != size.bytes)
        phrase += " (planned as " + std::to_string(size.planning_bytes()) + " bytes)";
    return phrase;
}

// Why list[best] won: the reason's "why" part.
std::string why_it_won(const std::vector<Candidate>& list,
                       const std::vector<const CostEntry*>& entries, std::size_t best,
                       std::optional<Aead> cipher, SizeHint size) {
    if (list.size() == 1) return "the only candidate";
    if (entries.empty())
        return "first in table order (the cost model lacks an estimate for some candidate)";
    const std::uint64_t bytes = size.planning_bytes();
    std::string why = "predicted " + format_duration(entries[best]->predict_ns(bytes)) + " " +
                      size_phrase(size);
    // The best of the rest: of the other cipher when the cipher was open (that is the
    // question), else of the other backends.
    std::optional<std::size_t> rival;
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (i == best || (!cipher && list[i].aead == list[best].aead)) continue;
        if (!rival || entries[i]->predict_ns(bytes) < entries[*rival]->predict_ns(bytes))
            rival = i;
    }
    if (rival) {
        why += ", against " + format_duration(entries[*rival]->predict_ns(bytes)) + " for ";
        if (!cipher) why += std::string(aead_display_name(list[*rival].aead)) + " on ";
        why += std::string(list[*rival].backend->name);
    }
    return why;
}

// The whole line: who decided, what, why.
std::string reason_line(const Candidate& winner, const std::string& why,
                        std::optional<Aead> cipher, const BackendRequest& request) {
    std::string line = request.is_auto() ? "auto" : "--backend " + request.name;
    if (request.allowed.size() == 1 && why == "the only candidate") return line;
    line += ": ";
    if (!cipher) line += std::string(aead_display_name(winner.aead)) + " on ";
    return line + std::string(winner.backend->name) + ", " + why;
}

}  // namespace

BackendRequest::BackendRequest(const Backend* only) {
    if (only == nullptr) return;
    allowed = {only};
    name = std::string(only->name);
}

BackendRequest request_backend(std::string_view name) {
    BackendRequest request;
    if (name.empty() || name == "auto") return request;
    request.name = std::string(name);
    request.allowed = family_members(name);
    if (request.allowed.empty()) request.allowed = {&find_backend(name)};
    return request;
}

Selection select(std::optional<Aead> cipher, SizeHint size, const BackendRequest& request,
                 const CpuFeatures& cpu, const CostModel& model) {
    std::vector<Candidate> list = candidates(cipher, request, cpu);
    std::string dropped;
    while (!list.empty()) {
        const std::vector<const CostEntry*> entries = entries_of(list, model);
        const std::size_t best =
            entries.empty() ? 0 : predicted_best(entries, size.planning_bytes());
        const Candidate winner = list[best];
        // Only now, with a device backend about to be used, is its device opened; one that
        // does not open is dropped with all its pairs (a CPU backend always remains: scalar).
        const Availability opened = open_device_once(*winner.backend);
        if (opened.usable) {
            const std::string why = why_it_won(list, entries, best, cipher, size) + dropped;
            return {winner.backend, winner.aead, winner.backend->aead(winner.aead),
                    reason_line(winner, why, cipher, request), why};
        }
        dropped += "; " + std::string(winner.backend->name) + " left out: " + opened.reason;
        std::erase_if(list, [&](const Candidate& c) { return c.backend == winner.backend; });
    }
    none_implements(cipher, request);
}

Selection select(std::optional<Aead> cipher, SizeHint size, const BackendRequest& request) {
    return select(cipher, size, request, cpu_features(), cost_model());
}

std::vector<Prediction> predictions(std::optional<Aead> cipher, SizeHint size,
                                    const BackendRequest& request) {
    std::vector<Prediction> list;
    for (const Candidate& c : candidates(cipher, request, cpu_features())) {
        const CostEntry* entry = cost_model().find(c.backend->name, c.aead);
        list.push_back({c.backend, c.aead,
                        entry ? std::optional<double>(entry->predict_ns(size.planning_bytes()))
                              : std::nullopt});
    }
    return list;
}

std::vector<AutoRange> auto_ranges(std::optional<Aead> cipher, const BackendRequest& request,
                                   const CpuFeatures& cpu, const CostModel& model) {
    const std::vector<Candidate> list = candidates(cipher, request, cpu);
    if (list.empty()) none_implements(cipher, request);
    const std::vector<const CostEntry*> entries = entries_of(list, model);
    std::size_t winner = entries.empty() ? 0 : predicted_best(entries, 0);
    std::vector<AutoRange> ranges{{0, list[winner].backend, list[winner].aead}};
    if (entries.empty()) return ranges;
    // Predicted times are lines in the size, so the winner changes only to a candidate that is
    // faster per byte, at most once per candidate: from the current winner, the next change is
    // the earliest size from which some other candidate is faster. A candidate earlier in the
    // list than the winner takes over on a tie already.
    for (std::size_t changes = 0; changes < list.size(); ++changes) {
        std::optional<std::uint64_t> next;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::optional<std::uint64_t> from =
                faster_from(*entries[i], *entries[winner], i < winner);
            if (from && *from > ranges.back().from_bytes && (!next || *from < *next)) next = from;
        }
        if (!next) break;
        winner = predicted_best(entries, *next);
        ranges.push_back({*next, list[winner].backend, list[winner].aead});
    }
    return ranges;
}

std::vector<AutoRange> auto_ranges(std::optional<Aead> cipher, const BackendRequest& request) {
    return auto_ranges(cipher, request, cpu_features(), cost_model());
}

const Backend& select_block_backend() {
    for (const Backend* b : usable_backends())
        if (b->aes != nullptr && open_device_once(*b).usable) return *b;
    throw Error(ErrorCause::backend_unavailable, "no usable backend has raw AES blocks");
}

std::string_view aead_display_name(Aead aead) {
    return aead == Aead::aes_gcm ? "AES-GCM" : "ChaCha20-Poly1305";
}

}  // namespace warp
