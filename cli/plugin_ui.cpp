// An age plugin's questions on the terminal (plugin_ui.hpp), worded as age's CLI words them.
#include "cli/plugin_ui.hpp"

#include <charconv>
#include <cstdlib>
#include <string>

#include "cli/prompt.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

constexpr unsigned kMaxTimeoutSeconds = 86400;

std::chrono::milliseconds silence_limit() {
    const char* text = std::getenv(kPluginTimeoutEnv);
    if (text == nullptr || *text == '\0') return std::chrono::seconds(60);
    unsigned seconds = 0;
    const std::string_view view(text);
    const auto [end, ec] = std::from_chars(view.data(), view.data() + view.size(), seconds);
    if (ec != std::errc() || end != view.data() + view.size() || seconds == 0 ||
        seconds > kMaxTimeoutSeconds)
        usage_error(std::string(kPluginTimeoutEnv) + " is not a number of seconds from 1 to " +
                        std::to_string(kMaxTimeoutSeconds),
                    "unset it for the default of 60");
    return std::chrono::seconds(seconds);
}

std::string about(std::string_view plugin, std::string_view text) {
    return std::string(plugin) + " plugin: " + std::string(text);
}

// A question on the terminal (prompt_line escapes it, as print_note does the messages).
std::optional<SecretBytes> ask(const std::string& question, bool echo) {
    return prompt_line(question + " ", echo);
}

}  // namespace

formats::PluginUi terminal_plugin_ui() {
    formats::PluginUi ui;
    ui.message = [](std::string_view plugin, std::string_view message) {
        print_note(about(plugin, message));  // print_note escapes control characters
        return true;
    };
    ui.request = [](std::string_view plugin, std::string_view prompt, bool secret) {
        return ask(about(plugin, prompt), !secret);
    };
    ui.confirm = [](std::string_view plugin, std::string_view prompt, std::string_view yes,
                    std::string_view no) -> std::optional<bool> {
        if (no.empty()) {
            // One choice: Enter takes it; the end of input (Ctrl-D) is a "fail".
            if (!ask(about(plugin, prompt) + " (press Enter for \"" + std::string(yes) + "\")",
                     true))
                return std::nullopt;
            return true;
        }
        const std::string question = about(plugin, prompt) + " ([1] \"" + std::string(yes) +
                                     "\", [2] \"" + std::string(no) + "\")";
        for (;;) {
            const std::optional<SecretBytes> line = ask(question, true);
            if (!line) return std::nullopt;
            const std::string_view answer(reinterpret_cast<const char*>(line->data()),
                                          line->size());
            if (answer == "1") return true;
            if (answer == "2") return false;
        }
    };
    ui.waiting = [](std::string_view plugin) {
        print_note("waiting on the " + std::string(plugin) + " plugin...");
    };
    ui.silence_limit = silence_limit();
    return ui;
}

}  // namespace warp::cli
