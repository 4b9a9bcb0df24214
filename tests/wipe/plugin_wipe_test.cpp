// What a plugin sends is wiped after use (security review 3, item 8): the pipe's read buffer
// and the stanza reader's text held a file key's base64 when they were let go. This program
// replaces the global operator delete so that, while a test arms it, every block freed is
// searched for the secret before it goes back to the allocator; the file key then travels for
// real: from the project's test plugin (tests/plugin/age-plugin-wptest, a process on PATH)
// through the pipe, the stanza reader and the client (formats/age/plugin_client.hpp).
//
// Not built with the sanitizers (tests/CMakeLists.txt): they bring their own operator delete.
#include <gtest/gtest.h>
#include <malloc.h>
#include <string.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "formats/age/base64.hpp"
#include "formats/age/plugin_client.hpp"
#include "formats/keys/key_kind.hpp"

namespace {

// What the armed search looks for, and how often it was found in a freed block.
std::atomic<bool> g_armed{false};
std::vector<std::string>* g_needles = nullptr;
std::atomic<int> g_found{0};

void search_freed(void* block) noexcept {
    if (block == nullptr || !g_armed.load()) return;
    const std::size_t size = malloc_usable_size(block);
    for (const std::string& needle : *g_needles)
        if (::memmem(block, size, needle.data(), needle.size()) != nullptr) ++g_found;
}

}  // namespace

// operator new as the library's, on malloc, so that each delete below frees what malloc gave.
void* operator new(std::size_t size) {
    if (void* block = std::malloc(size == 0 ? 1 : size)) return block;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }

void operator delete(void* block) noexcept {
    search_freed(block);
    std::free(block);
}
void operator delete[](void* block) noexcept {
    search_freed(block);
    std::free(block);
}
void operator delete(void* block, std::size_t) noexcept {
    search_freed(block);
    std::free(block);
}
void operator delete[](void* block, std::size_t) noexcept {
    search_freed(block);
    std::free(block);
}

namespace warp::formats::age {
namespace {

// The test plugin's output for `argument` (--generate: a recipient line and an identity).
std::vector<std::string> plugin_says(const std::string& argument) {
    std::vector<std::string> lines;
    FILE* out = ::popen(("age-plugin-wptest " + argument).c_str(), "r");
    if (out == nullptr) return lines;
    char line[512];
    while (std::fgets(line, sizeof line, out) != nullptr) {
        std::string text(line);
        if (!text.empty() && text.back() == '\n') text.pop_back();
        lines.push_back(text);
    }
    ::pclose(out);
    return lines;
}

TEST(PluginWipe, NothingFreedHoldsTheFileKeyAPluginSent) {
    const std::string path = std::string(WARPCRYPT_PLUGIN_DIR) + ":" +
                             (std::getenv("PATH") != nullptr ? std::getenv("PATH") : "/usr/bin");
    ::setenv("PATH", path.c_str(), 1);
    const std::vector<std::string> generated = plugin_says("--generate");
    ASSERT_EQ(generated.size(), 2u) << "the test plugin did not run (python3 on PATH?)";
    const Secret recipient = decode_recipient_text(
        generated[0].substr(generated[0].find("age1")));
    const std::vector<Secret> identities = decode_identity_file_text(generated[1] + "\n");
    ASSERT_EQ(identities.size(), 1u);

    FileKey sent{};
    for (std::size_t i = 0; i < sent.size(); ++i)
        sent[i] = static_cast<std::uint8_t>(0xa5 ^ (i * 29));
    const PluginWrap wrapped = plugin_wrap(recipient, sent, PluginUi{});
    ASSERT_EQ(wrapped.stanzas.size(), 1u);

    std::vector<std::string> needles = {
        base64_encode(sent, false),  // as the plugin writes it on the pipe
        std::string(sent.begin(), sent.end()),  // decoded
    };
    g_needles = &needles;
    g_found = 0;
    FileKey received{};
    g_armed = true;
    const bool opened = plugin_unwrap(identities[0], wrapped.stanzas, PluginUi{}, received);
    g_armed = false;
    g_needles = nullptr;
    EXPECT_TRUE(opened);
    EXPECT_EQ(received, sent);
    EXPECT_EQ(g_found.load(), 0) << "a freed block held the file key the plugin sent";
}

}  // namespace
}  // namespace warp::formats::age
