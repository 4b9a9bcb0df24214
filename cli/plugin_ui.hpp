// How an age plugin's questions reach the user (formats/plugin_ui.hpp): messages on stderr,
// requests and confirmations on the terminal (a secret with echo off), and without a terminal
// the protocol's "fail", which the plugin then decides about (a hardware key's plugin may
// have its own non-interactive setting). No other non-interactive path is offered: a PIN
// read from a file would be a secret handed to whichever plugin asks.
#pragma once

#include "formats/plugin_ui.hpp"

namespace warp::cli {

// Seconds a plugin may stay silent before it is a failure (60 when unset).
inline constexpr const char* kPluginTimeoutEnv = "WARPCRYPT_PLUGIN_TIMEOUT";

// The terminal's answers, and the silence limit from kPluginTimeoutEnv (a usage error when it
// is not a whole number of seconds from 1 to 86400).
formats::PluginUi terminal_plugin_ui();

}  // namespace warp::cli
