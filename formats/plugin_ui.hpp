// What an age plugin may ask of the user while it wraps or unwraps a file key (C2SP
// age-plugin.md, phase 2: msg, confirm, request-public, request-secret), answered by the CLI
// on the terminal (cli/plugin_ui.cpp). A missing callback, or one that returns nullopt or
// false, is the protocol's "fail" (no terminal, the user declined): the plugin decides what
// that means. `plugin` is the plugin's name; a text from a plugin is as it sent it, cut to 300
// bytes: whatever shows it escapes it first (cli/report.hpp, escape_controls), as the CLI
// does with every text from outside.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "engine/secure_memory.hpp"

namespace warp::formats {

struct PluginUi {
    // Shows `message`; false when it cannot.
    std::function<bool(std::string_view plugin, std::string_view message)> message;
    // Asks for a value (echo off when `secret`); nullopt when it cannot.
    std::function<std::optional<SecretBytes>(std::string_view plugin, std::string_view prompt,
                                             bool secret)>
        request;
    // Asks to choose `yes` or `no` (`no` empty: only `yes`, or cancel); true for yes, false for
    // no, nullopt when it cannot.
    std::function<std::optional<bool>(std::string_view plugin, std::string_view prompt,
                                      std::string_view yes, std::string_view no)>
        confirm;
    // Once per plugin run, when it has been silent for 5 s (waiting for a touch, say).
    std::function<void(std::string_view plugin)> waiting;
    // The longest a plugin may stay silent (or not read) before it is a failure.
    std::chrono::milliseconds silence_limit{std::chrono::seconds(60)};
};

}  // namespace warp::formats
