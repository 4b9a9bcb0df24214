// fuzz-decrypt-mutate: what a key holder's file goes through when it is damaged or tampered
// with. The fuzz input is a recipe and a plaintext; the target encrypts the plaintext under the
// fixed key-file secret, applies the recipe's edits to the ciphertext, and decrypts.
//
// Why a second decrypt target: fuzz-decrypt mutates files as a stranger would, and a stranger's
// edit dies at the first MAC or tag it touches. Here the edits are made at the places a format
// must defend (any byte, a truncation, an insertion, whole records swapped, dropped, duplicated
// or taken from another file sealed with the same key) and the oracle is exact: the edited file
// decrypts back to the plaintext when it is still a whole real file (the original unchanged, or
// every byte replaced by the other file, itself a real encryption of the same plaintext), and
// is refused otherwise (SPEC 7: truncation, reordering, duplication, dropping and appending
// are all detected; a mix of two files' parts fails the header MAC or a tag), with no byte
// written that is not the plaintext's own, in place. Range decryption must either refuse or
// return exactly the asked slice of the plaintext.
//
// Input layout (RecipeReader: missing bytes read as 0):
//   settings   1 byte: bit 0 suite (AES-256-GCM, ChaCha20-Poly1305), bit 1 chunk 2^12 or 2^13,
//              bit 2 an X25519 slot for another recipient before ours (every decrypt tries
//              the fixed X25519 identity on it), bits 3-7 the backend that decrypts
//   range      2 x u16: offset and length of the range decryption
//   edit count 1 byte (0..4), then per edit: kind byte, u32 a, u32 b, u16 c
//   plaintext  the rest
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/registry.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/warp/constants.hpp"
#include "formats/warp/header.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace warp::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;
using formats::warp_format::Suite;

constexpr std::size_t kMaxEdits = 4;

struct Settings {
    Suite suite;
    unsigned chunk_log2;
    bool extra_slot;
    std::uint8_t backend_choice;
};

Settings read_settings(RecipeReader& recipe) {
    const std::uint8_t bits = recipe.byte();
    return {(bits & 1) ? Suite::chacha20_poly1305 : Suite::aes_256_gcm,
            formats::warp_format::kMinChunkLog2 + ((bits >> 1) & 1u), (bits & 4) != 0,
            static_cast<std::uint8_t>(bits >> 3)};
}

Bytes encrypt(std::span<const std::uint8_t> plaintext, const Settings& s, std::uint64_t seed) {
    formats::Options options;
    options.aead = formats::warp_format::aead_of(s.suite);
    options.chunk_log2 = s.chunk_log2;
    if (s.extra_slot) options.recipients.push_back(other_x25519_recipient());
    options.recipients.push_back(fixed_identity());
    options.random = seeded_random(seed);
    options.threads = 1;
    stream::SpanSource in(plaintext);
    stream::VectorSink out;
    formats::warp_format::encrypt(in, out, options);
    return std::move(out.bytes);
}

// nullptr (auto), or one of the usable backends that has the suite: files are often opened by
// another backend than the one that sealed them.
const Backend* decrypting_backend(const Settings& s) {
    std::vector<const Backend*> candidates{nullptr};
    const Aead aead = s.suite == Suite::aes_256_gcm ? Aead::aes_gcm : Aead::chacha20_poly1305;
    for (const Backend* b : usable_backends())
        if (b->aead(aead) != nullptr) candidates.push_back(b);
    return candidates[s.backend_choice % candidates.size()];
}

// The file as records, by SPEC 6's arithmetic: the header, then pieces of one record each
// (the last one holds whatever is left, the trailer included).
struct Records {
    std::size_t start;   // the header's size
    std::size_t record;  // chunk + tag
    std::size_t count(const Bytes& file) const {
        return file.size() <= start ? 0 : (file.size() - start + record - 1) / record;
    }
    std::size_t begin(std::size_t i) const { return start + i * record; }
    std::size_t length(const Bytes& file, std::size_t i) const {
        return std::min(record, file.size() - begin(i));
    }
};

// One edit: its kind and three numbers whose meaning depends on it (offsets and counts, taken
// modulo what fits, so that every value means something).
struct Edit {
    std::uint8_t kind;
    std::uint32_t a, b, c;
};

Edit read_edit(RecipeReader& recipe) {
    Edit e{};
    e.kind = recipe.byte();
    e.a = recipe.u32();
    e.b = recipe.u32();
    e.c = recipe.u16();
    return e;
}

void apply_edit(Bytes& file, const Edit& edit, const Bytes& other, const Records& r) {
    const auto [kind, a, b, c] = edit;
    const std::size_t size = file.size();
    const std::size_t records = r.count(file);
    const auto at = [&](std::size_t offset) {
        return file.begin() + static_cast<std::ptrdiff_t>(offset);
    };
    switch (kind % 9) {
        case 0:  // flip bits of one byte
            if (size != 0) file[a % size] ^= static_cast<std::uint8_t>(b | 1);
            break;
        case 1:  // truncate
            file.resize(a % (size + 1));
            break;
        case 2:  // insert 1..64 bytes of one value
            file.insert(at(a % (size + 1)), 1 + c % 64, static_cast<std::uint8_t>(b));
            break;
        case 3: {  // erase 1..64 bytes
            if (size == 0) break;
            const std::size_t from = a % size;
            file.erase(at(from), at(std::min(size, from + 1 + c % 64)));
            break;
        }
        case 4: {  // overwrite bytes with the other file's, from any offset to any offset
            if (size == 0 || other.empty()) break;
            const std::size_t from = a % other.size();
            const std::size_t to = b % size;
            const std::size_t n = std::min({std::size_t{1} + c, other.size() - from, size - to});
            std::copy_n(other.begin() + static_cast<std::ptrdiff_t>(from), n, at(to));
            break;
        }
        case 5: {  // swap two records (their common length)
            if (records == 0) break;
            const std::size_t i = a % records, j = b % records;
            const std::size_t n = std::min(r.length(file, i), r.length(file, j));
            if (i != j) std::swap_ranges(at(r.begin(i)), at(r.begin(i) + n), at(r.begin(j)));
            break;
        }
        case 6: {  // duplicate a record before another one
            if (records == 0) break;
            const std::size_t i = a % records, j = b % (records + 1);
            const Bytes copy(at(r.begin(i)), at(r.begin(i) + r.length(file, i)));
            file.insert(at(std::min(size, r.begin(j))), copy.begin(), copy.end());
            break;
        }
        case 7: {  // drop a record
            if (records == 0) break;
            const std::size_t i = a % records;
            file.erase(at(r.begin(i)), at(r.begin(i) + r.length(file, i)));
            break;
        }
        case 8: {  // the same record of the other file (same index, same key file, other file key)
            const std::size_t i = records == 0 ? 0 : a % records;
            if (records == 0 || r.begin(i) >= other.size()) break;
            const std::size_t n = std::min(r.length(file, i), other.size() - r.begin(i));
            std::copy_n(other.begin() + static_cast<std::ptrdiff_t>(r.begin(i)), n, at(r.begin(i)));
            break;
        }
    }
}

formats::Options decrypt_options(const Backend* backend) {
    formats::Options o = fixed_decrypt_options();
    o.backend = backend;
    return o;
}

bool is_prefix(const Bytes& part, std::span<const std::uint8_t> whole) {
    return part.size() <= whole.size() && std::equal(part.begin(), part.end(), whole.begin());
}

// `real`: the file is one of the two encryptions, whole.
void check_decrypt(const Bytes& file, bool real, std::span<const std::uint8_t> plaintext,
                   const Backend* backend) {
    stream::SpanSource in(file);
    stream::VectorSink out;
    try {
        formats::warp_format::decrypt(in, out, decrypt_options(backend));
        check(real, "an edited file decrypted");
        check(std::equal(out.bytes.begin(), out.bytes.end(), plaintext.begin(), plaintext.end()),
              "a real file decrypted to other bytes");
    } catch (const Error& e) {
        check(!real, "a real file was refused");
        check(is_format_refusal(e.cause()), "an edited file was refused with a non-format cause");
        check(is_prefix(out.bytes, plaintext), "decrypt wrote bytes that are not the plaintext's");
    }
}

void check_range(const Bytes& file, bool real, std::span<const std::uint8_t> plaintext,
                 const Backend* backend, std::uint64_t offset, std::uint64_t length) {
    const stream::SpanRandomAccess in(file);
    stream::VectorSink out;
    const std::size_t begin =
        static_cast<std::size_t>(std::min<std::uint64_t>(offset, plaintext.size()));
    const std::size_t end = begin + static_cast<std::size_t>(
                                        std::min<std::uint64_t>(length, plaintext.size() - begin));
    const std::span<const std::uint8_t> slice = plaintext.subspan(begin, end - begin);
    try {
        const formats::Result result =
            formats::warp_format::decrypt_range(in, out, decrypt_options(backend), offset, length);
        check(result.plaintext_bytes == out.bytes.size(), "decrypt_range miscounted its output");
        // An edit outside the chunks read may go unseen: range decryption authenticates only the
        // trailer and those chunks. What it returns must still be the original slice.
        check(std::equal(out.bytes.begin(), out.bytes.end(), slice.begin(), slice.end()),
              "decrypt_range returned bytes that are not the asked slice");
    } catch (const Error& e) {
        check(!real, "decrypt_range refused a real file");
        check(is_format_refusal(e.cause()), "decrypt_range refused with a non-format cause");
        check(is_prefix(out.bytes, slice), "decrypt_range wrote bytes outside the slice");
    }
}

}  // namespace
}  // namespace warp::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace warp::fuzz;
    RecipeReader recipe({data, size});
    const Settings settings = read_settings(recipe);
    const std::uint32_t range_offset = recipe.u16();
    const std::uint32_t range_length = recipe.u16();
    std::vector<Edit> edits(recipe.byte() % (kMaxEdits + 1));
    for (Edit& edit : edits) edit = read_edit(recipe);
    const std::span<const std::uint8_t> plaintext = recipe.rest();

    const Bytes original = encrypt(plaintext, settings, 1);
    const Bytes other = encrypt(plaintext, settings, 2);
    const Records records{*warp::formats::warp_format::declared_header_size(original),
                          warp::formats::warp_format::record_size_of(settings.chunk_log2)};
    Bytes file = original;
    for (const Edit& edit : edits) apply_edit(file, edit, other, records);
    // Edits that copy all of the other file make it whole: a real file too.
    const bool real = file == original || file == other;

    const warp::Backend* backend = decrypting_backend(settings);
    check_decrypt(file, real, plaintext, backend);
    check_range(file, real, plaintext, backend, range_offset, range_length);
    return 0;
}
