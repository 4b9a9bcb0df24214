// age-plugin.md, "Mapping recipients and identities to plugin binaries": starting
// age-plugin-NAME for a state machine and talking to it over its standard input and output,
// with limits in time, so that a plugin that crashes, hangs or never reads fails cleanly.
//
// Found on PATH only: every absolute PATH directory in order, never the current directory (an
// empty or relative PATH entry is skipped, where execvp would take it as one), never a path in
// NAME (plugin_keys.hpp's rule). The plugin runs in "/" (age-plugin.md: plugins assume nothing
// of their working directory) with no descriptor but its pipes and its standard error, which is
// ours (what it says on failure reaches the user); the rest of the environment is warpcrypt's
// (WARPCRYPT_PASSPHRASE is gone from it since start-up).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/io.hpp"
#include "engine/secure_memory.hpp"

namespace warp::formats::age {

// What the state machines talk through (plugin_client.hpp): the process below, or bytes in
// memory in the fuzz target and the unit tests.
class PluginChannel {
public:
    virtual ~PluginChannel() = default;
    virtual ByteSource& output() = 0;                // what the plugin writes
    virtual void send(std::string_view text) = 0;    // to the plugin; Error(io) if it can't
};

// The absolute path of age-plugin-`name` on `path_variable` (PATH's value), or "" when no
// directory has an executable regular file of that name.
std::string find_plugin(std::string_view name, const char* path_variable);

class PluginProcess final : public PluginChannel {
public:
    // Starts age-plugin-`name` with "--age-plugin=`state_machine`". Throws Error(usage) when it
    // is not on PATH, Error(io) when it cannot be started. `silence_limit`: the longest wait
    // for the plugin to say or read something, after which it is a failure (Error(io));
    // `waiting` is called once when a wait passes 5 seconds (a touch on a hardware key).
    PluginProcess(std::string_view name, std::string_view state_machine,
                  std::chrono::milliseconds silence_limit, std::function<void()> waiting);
    ~PluginProcess() override;  // closes its input and output, then waits for it (kills it late)
    PluginProcess(const PluginProcess&) = delete;
    PluginProcess& operator=(const PluginProcess&) = delete;

    ByteSource& output() override { return output_; }
    void send(std::string_view text) override;

private:
    class Output final : public ByteSource {
    public:
        explicit Output(PluginProcess& process) : process_(process) {}
        std::size_t read(std::uint8_t* buf, std::size_t len) override;

    private:
        PluginProcess& process_;
        // What read(2) got: locked, and wiped when the process object goes (it held a file
        // key's base64 text, or a PIN's echo).
        SecretBytes buffer_{4096};
        std::size_t size_ = 0, at_ = 0;
    };

    // Waits until `fd` is ready for `events` (poll's), within the silence limit.
    void await(int fd, short events, const char* doing);

    std::chrono::milliseconds silence_limit_;
    std::function<void()> waiting_;
    bool waited_ = false;
    int pid_ = -1;
    int to_plugin_ = -1;    // its standard input
    int from_plugin_ = -1;  // its standard output
    Output output_{*this};
};

}  // namespace warp::formats::age
