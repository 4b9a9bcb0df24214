"""An age plugin's questions, put to pyrage-style Callbacks objects.

One warpcrypt_plugin_ui serves a call: it tells the plugin by name and dispatches to the
callbacks given with that plugin's recipients or identities. The C callbacks are made once
(cffi closures are a scarce resource) and find the call's state through `user`.

A callback that raises makes the plugin's question fail; the exception is kept and raised
after the call, in place of the library's error (pyrage panics instead).
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Optional, Tuple

from ._native import NULL, ffi, lib, take_error, text
from ._options import new_options


class PluginUI:
    """A call's plugin callbacks, by plugin name, and the first exception one raised."""

    __slots__ = ("callbacks", "error", "handle")

    def __init__(self, callbacks: Dict[str, Any]) -> None:
        self.callbacks = callbacks
        self.error: Optional[BaseException] = None
        self.handle = ffi.new_handle(self)

    def target(self, plugin: Any) -> Any:
        return self.callbacks.get(text(plugin))

    def keep(self, error: BaseException) -> int:
        if self.error is None:
            self.error = error
        return 1

    def take_error(self) -> Optional[BaseException]:
        # Handed over once, which also breaks the cycle through the traceback.
        error, self.error = self.error, None
        return error


@ffi.callback("int(void *, const char *, const char *)", error=1)
def _on_message(user: Any, plugin: Any, message: Any) -> int:
    ui = ffi.from_handle(user)
    try:
        target = ui.target(plugin)
        if target is None:
            return 1
        target.display_message(text(message))
        return 0
    except BaseException as error:  # kept and raised after the call
        return ui.keep(error)


@ffi.callback("int(void *, const char *, const char *, int, char *, size_t, size_t *)",
              error=1)
def _on_request(user: Any, plugin: Any, prompt: Any, secret: int, buf: Any, cap: int,
                length: Any) -> int:
    ui = ffi.from_handle(user)
    try:
        target = ui.target(plugin)
        if target is None:
            return 1
        ask = target.request_passphrase if secret else target.request_public_string
        answer = ask(text(prompt))
        if answer is None:  # no answer: the plugin is told the request failed
            return 1
        data = answer.encode("utf-8") if isinstance(answer, str) else bytes(answer)
        if len(data) > cap:
            raise ValueError(f"the answer is {len(data)} bytes; the plugin takes {cap}")
        ffi.memmove(buf, data, len(data))
        length[0] = len(data)
        return 0
    except BaseException as error:
        return ui.keep(error)


@ffi.callback("int(void *, const char *, const char *, const char *, const char *, int *)",
              error=1)
def _on_confirm(user: Any, plugin: Any, prompt: Any, yes: Any, no: Any,
                chose_yes: Any) -> int:
    ui = ffi.from_handle(user)
    try:
        target = ui.target(plugin)
        if target is None:
            return 1
        answer = target.confirm(text(prompt), text(yes), None if no == NULL else text(no))
        if answer is None:
            return 1
        chose_yes[0] = 1 if answer else 0
        return 0
    except BaseException as error:
        return ui.keep(error)


def plugin_options(settings: Iterable[Tuple[int, int]], callbacks: Dict[str, Any],
                   error_class: type) -> Tuple[Any, PluginUI]:
    """Options for one call with `settings` and the plugins' callbacks. The PluginUI must
    outlive the call: the options point at its handle."""
    ui = PluginUI(callbacks)
    options = new_options(settings, error_class)
    table = ffi.new("warpcrypt_plugin_ui *")
    table.user = ui.handle
    table.message = _on_message
    table.request = _on_request
    table.confirm = _on_confirm
    status = lib.warpcrypt_options_set_plugin_ui(options, table)  # copied by the library
    if status:
        raise take_error(status, None, error_class)
    return options, ui
