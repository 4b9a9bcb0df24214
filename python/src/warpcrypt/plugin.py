"""age plugins (as pyrage.plugin): keys that an age-plugin-NAME program on the PATH handles,
age1NAME1... and AGE-PLUGIN-NAME-1..., and the Callbacks through which it asks the user.

RecipientPluginV1 and IdentityPluginV1 bind a plugin's keys to the callbacks; they go in the
recipients or identities of encrypt* and decrypt*. The callbacks run on the calling thread,
while the call is in progress.
"""

from __future__ import annotations

import os
import shutil
from typing import Any, List, Optional, Protocol, Sequence

from . import _keys
from ._errors import DecryptError, EncryptError, IdentityError, make_error
from ._native import ffi, lib, new_error_box, raise_error

__all__ = ["Callbacks", "Identity", "IdentityPluginV1", "Recipient", "RecipientPluginV1"]

_PLUGIN = frozenset({lib.WARPCRYPT_KEY_PLUGIN})


class Callbacks(Protocol):
    """What a plugin may ask. None from a request or confirm means "no answer": the plugin is
    told the request failed. An exception is raised again from the encrypt or decrypt call."""

    def display_message(self, message: str) -> None: ...

    def confirm(self, message: str, yes_string: str, no_string: Optional[str]) -> Optional[bool]:
        ...

    def request_public_string(self, description: str) -> Optional[str]: ...

    def request_passphrase(self, description: str) -> Optional[str]: ...


def _bech32_prefix(encoded: str) -> str:
    return encoded.rsplit("1", 1)[0]  # the data part never holds a "1"


class Recipient(_keys.Recipient):
    """A plugin's recipient, age1NAME1..."""

    __slots__ = ()
    _KINDS = _PLUGIN
    _WHAT = "a plugin recipient (age1NAME1...)"

    @classmethod
    def from_str(cls, v: str) -> Recipient:
        return cls._parse(v)

    def plugin(self) -> str:
        """NAME, of the age-plugin-NAME program that handles this recipient."""
        return _bech32_prefix(str(self))[len("age1"):]


class Identity(_keys.Identity):
    """A plugin's identity, AGE-PLUGIN-NAME-1... (what the plugin keeps of a key, often a
    reference to a token)."""

    __slots__ = ()
    _KINDS = _PLUGIN
    _WHAT = "a plugin identity (AGE-PLUGIN-NAME-1...)"

    @classmethod
    def from_str(cls, v: str) -> Identity:
        return cls._parse(v)

    @classmethod
    def default_for_plugin(cls, plugin: str) -> Identity:
        """The plugin's identity without data, as `age -j NAME`."""
        name = _keys.text_argument(plugin, "plugin")
        out = ffi.new("warpcrypt_identity **")
        err = new_error_box()
        status = lib.warpcrypt_identity_plugin(name, out, err)
        if status:
            raise_error(status, err, IdentityError)
        return cls._adopt(out[0])

    def plugin(self) -> str:
        """NAME, of the age-plugin-NAME program that handles this identity."""
        return _bech32_prefix(self._secret_text())[len("AGE-PLUGIN-"):-1].lower()

    __str__ = _keys.Identity._secret_text


def _check_name(plugin_name: Any, error_class: type) -> str:
    if not isinstance(plugin_name, str):
        raise TypeError(f"argument 'plugin_name': '{type(plugin_name).__name__}' object "
                        "cannot be converted to 'PyString'")
    binary = f"age-plugin-{plugin_name}"
    # As rage: the program must be on the PATH when the keys are bound to it.
    if os.sep in plugin_name or shutil.which(binary) is None:
        raise make_error(error_class, f"Could not find '{binary}' on the PATH. "
                         "Have you installed the plugin?")
    return plugin_name


def _keys_of(values: Any, cls: type, name: str) -> List[Any]:
    _keys.check_sequence(values, name)
    for value in values:
        if not isinstance(value, cls):
            raise TypeError(f"argument '{name}': '{type(value).__name__}' object cannot be "
                            f"converted to '{cls.__name__}'")
    return list(values)


class RecipientPluginV1:
    """A plugin's recipients, with the callbacks for its questions while it encrypts. Those of
    `recipients` that belong to another plugin are left out, as in rage."""

    __slots__ = ("_wc_plugin_name", "_wc_plugin_recipients", "_wc_callbacks", "__weakref__")

    def __init__(self, plugin_name: str, recipients: Sequence[Recipient],
                 identities: Sequence[Identity], callbacks: Callbacks) -> None:
        name = _check_name(plugin_name, EncryptError)
        mine = [r for r in _keys_of(recipients, Recipient, "recipients") if r.plugin() == name]
        if any(i.plugin() == name for i in _keys_of(identities, Identity, "identities")):
            # libwarpcrypt encrypts to recipients only; age's "add-identity" has no call.
            raise make_error(EncryptError, "encrypting to a plugin identity is not supported; "
                             "give the plugin's recipient (age1NAME1...)")
        self._wc_plugin_name = name
        self._wc_plugin_recipients = [r._wc_recipient for r in mine]
        self._wc_callbacks = callbacks


class IdentityPluginV1:
    """A plugin's identities, with the callbacks for its questions while it decrypts."""

    __slots__ = ("_wc_plugin_name", "_wc_plugin_identities", "_wc_callbacks", "__weakref__")

    def __init__(self, plugin_name: str, identities: Sequence[Identity],
                 callbacks: Callbacks) -> None:
        name = _check_name(plugin_name, DecryptError)
        mine = [i for i in _keys_of(identities, Identity, "identities") if i.plugin() == name]
        self._wc_plugin_name = name
        self._wc_plugin_identities = [i._wc_identity for i in mine]
        self._wc_callbacks = callbacks


_keys.register(lib.WARPCRYPT_KEY_PLUGIN, Identity, Recipient)
