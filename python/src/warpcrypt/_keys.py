"""What every key class shares: a library handle freed with its object, parsing by text with a
check of the kind, the text form, and the lists of handles a call takes.

Each key module (x25519, pq, ssh, ...) subclasses Identity and Recipient and registers its
classes by kind, so that a handle of any kind (from a key file, say) becomes an object of the
right class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable, ClassVar, Dict, FrozenSet, List, Optional, Tuple

from ._errors import IdentityError, RecipientError, make_error
from ._native import NULL, discard_error, ffi, lib, new_error_box, raise_error

KIND_NAMES = {
    lib.WARPCRYPT_KEY_PASSPHRASE: "passphrase",
    lib.WARPCRYPT_KEY_KEY_FILE: "key file",
    lib.WARPCRYPT_KEY_X25519: "X25519",
    lib.WARPCRYPT_KEY_MLKEM768X25519: "post-quantum (ML-KEM-768 + X25519)",
    lib.WARPCRYPT_KEY_SSH_ED25519: "SSH Ed25519",
    lib.WARPCRYPT_KEY_SSH_RSA: "SSH RSA",
    lib.WARPCRYPT_KEY_PLUGIN: "plugin",
    lib.WARPCRYPT_KEY_P256TAG: "P-256 tag",
    lib.WARPCRYPT_KEY_MLKEM768P256TAG: "post-quantum tag",
}

RECIPIENT_CLASSES: Dict[int, type] = {}
IDENTITY_CLASSES: Dict[int, type] = {}


def register(kind: int, identity: Optional[type] = None, recipient: Optional[type] = None):
    if identity is not None:
        IDENTITY_CLASSES[kind] = identity
    if recipient is not None:
        RECIPIENT_CLASSES[kind] = recipient


def text_argument(value: Any, name: str) -> bytes:
    """UTF-8 of a `str` argument; pyrage's words for anything else."""
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(
        f"argument '{name}': '{type(value).__name__}' object cannot be converted to 'PyString'"
    )


def secret_argument(value: Any, name: str) -> bytes:
    """A passphrase: `str` (as UTF-8) or bytes, since the library takes any bytes."""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"argument '{name}': expected str or bytes, not {type(value).__name__}")


def read_text(call: Callable[..., int], handle: Any, error_class: type, secret: bool) -> str:
    """A text the library writes into the caller's buffer, asked again when it needs more.
    A secret's buffer is wiped once the text is out (the `str` itself cannot be)."""
    cap = 256
    while True:
        buf = ffi.new("char[]", cap)
        need = ffi.new("size_t *")
        err = new_error_box()
        try:
            status = call(handle, buf, cap, need, err)
            if need[0] > cap:
                discard_error(err)
                cap = need[0]
                continue
            if status:
                raise_error(status, err, error_class)
            return ffi.string(buf, cap).decode("utf-8")
        finally:
            if secret:
                ffi.memmove(buf, bytes(cap), cap)


def _no_constructor(self: Any, *args: Any, **kwargs: Any) -> None:
    # As pyrage: keys come from generate(), from_str() and friends, never from the class.
    raise TypeError(f"No constructor defined for {type(self).__name__}")


class Recipient:
    """A recipient (what a file is encrypted to). Subclasses name the kinds they hold."""

    __slots__ = ("_wc_recipient", "__weakref__")
    _wc_recipient: Any  # the library's handle, freed by cffi when the object goes
    _KINDS: ClassVar[FrozenSet[int]] = frozenset()
    _WHAT: ClassVar[str] = "recipient"

    __init__ = _no_constructor

    @classmethod
    def _adopt(cls, pointer: Any) -> Any:
        """The object owning `pointer`, freed when the object goes."""
        self = object.__new__(cls)
        self._wc_recipient = ffi.gc(pointer, lib.warpcrypt_recipient_free)
        return self

    @classmethod
    def _parse(cls, v: Any, name: str = "v") -> Any:
        data = text_argument(v, name)
        out = ffi.new("warpcrypt_recipient **")
        err = new_error_box()
        status = lib.warpcrypt_recipient_parse(data, len(data), out, err)
        if status:
            raise_error(status, err, RecipientError)
        recipient = adopt_recipient(out[0])
        if cls._KINDS and recipient._kind not in cls._KINDS:
            found = KIND_NAMES.get(recipient._kind, "unknown")
            raise make_error(RecipientError, f"expected {cls._WHAT}, got one of kind {found}")
        return recipient

    @property
    def _kind(self) -> int:
        """WARPCRYPT_KEY_*: what the handle holds."""
        return lib.warpcrypt_recipient_kind(self._wc_recipient)

    def __str__(self) -> str:
        return read_text(lib.warpcrypt_recipient_encode, self._wc_recipient, RecipientError,
                         secret=False)

    def __repr__(self) -> str:
        try:
            shown = str(self)
        except RecipientError:
            return object.__repr__(self)
        return f"<{type(self).__module__}.{type(self).__qualname__} {shown}>"


class Identity:
    """An identity (what opens a file). Subclasses name the kinds they hold; those with a text
    form set `__str__ = Identity._secret_text`. The default repr never shows the secret."""

    __slots__ = ("_wc_identity", "__weakref__")
    _wc_identity: Any
    _KINDS: ClassVar[FrozenSet[int]] = frozenset()
    _WHAT: ClassVar[str] = "identity"

    __init__ = _no_constructor

    @classmethod
    def _adopt(cls, pointer: Any) -> Any:
        self = object.__new__(cls)
        self._wc_identity = ffi.gc(pointer, lib.warpcrypt_identity_free)
        return self

    @classmethod
    def _parse(cls, v: Any, name: str = "v") -> Any:
        data = text_argument(v, name)
        out = ffi.new("warpcrypt_identity **")
        err = new_error_box()
        status = lib.warpcrypt_identity_parse(data, len(data), out, err)
        if status:
            raise_error(status, err, IdentityError)
        identity = adopt_identity(out[0])
        if cls._KINDS and identity._kind not in cls._KINDS:
            found = KIND_NAMES.get(identity._kind, "unknown")
            raise make_error(IdentityError, f"expected {cls._WHAT}, got one of kind {found}")
        return identity

    @classmethod
    def _generate(cls, kind: int) -> Any:
        out = ffi.new("warpcrypt_identity **")
        err = new_error_box()
        status = lib.warpcrypt_identity_generate(kind, out, err)
        if status:
            raise_error(status, err, IdentityError)
        return cls._adopt(out[0])

    @property
    def _kind(self) -> int:
        """WARPCRYPT_KEY_*: what the handle holds."""
        return lib.warpcrypt_identity_kind(self._wc_identity)

    def to_public(self) -> Any:
        """The recipient that files for this identity are encrypted to."""
        out = ffi.new("warpcrypt_recipient **")
        err = new_error_box()
        status = lib.warpcrypt_identity_to_recipient(self._wc_identity, out, err)
        if status:
            raise_error(status, err, IdentityError)
        return adopt_recipient(out[0])

    def _secret_text(self) -> str:
        return read_text(lib.warpcrypt_identity_encode, self._wc_identity, IdentityError,
                         secret=True)


def adopt_recipient(pointer: Any) -> Any:
    """An object of the class registered for the handle's kind, owning the handle."""
    return RECIPIENT_CLASSES.get(lib.warpcrypt_recipient_kind(pointer), Recipient)._adopt(
        pointer)


def adopt_identity(pointer: Any) -> Any:
    return IDENTITY_CLASSES.get(lib.warpcrypt_identity_kind(pointer), Identity)._adopt(pointer)


def adopt_array(array: Any, count: int, adopt: Callable[[Any], Any],
                free_array: Callable[[Any, int], None]) -> List[Any]:
    """The objects of an array of handles the library made, each owning its handle. The array
    goes in any case, with whatever handle no object took (should an adoption fail)."""
    try:
        objects = []
        for index in range(count):
            objects.append(adopt(array[index]))
            array[index] = NULL  # the object's now
        return objects
    finally:
        free_array(array, count)


def check_sequence(value: Any, name: str) -> None:
    """pyrage takes a list of keys as a sequence, never a string or an iterator."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"argument '{name}': Can't extract `{type(value).__name__}` to `Vec`")
    if not isinstance(value, Sequence):
        raise TypeError(
            f"argument '{name}': '{type(value).__name__}' object cannot be converted to "
            "'Sequence'")


PluginCallbacks = Dict[str, Any]  # plugin name -> its Callbacks object


def recipient_handles(recipients: Any) -> Tuple[List[Any], Optional[PluginCallbacks]]:
    """The handles to pass for `recipients`, and the plugins' callbacks when any came with
    plugin recipients. The list holds the handles' owners alive through the call."""
    if type(recipients) is not list and type(recipients) is not tuple:
        check_sequence(recipients, "recipients")
    try:
        return [r._wc_recipient for r in recipients], None
    except AttributeError:
        pass
    handles: List[Any] = []
    callbacks: PluginCallbacks = {}
    for recipient in recipients:
        if hasattr(recipient, "_wc_recipient"):
            handles.append(recipient._wc_recipient)
        elif hasattr(recipient, "_wc_plugin_recipients"):
            handles.extend(recipient._wc_plugin_recipients)
            callbacks[recipient._wc_plugin_name] = recipient._wc_callbacks
        else:
            raise TypeError("argument 'recipients': invalid type (expected a recipient type)")
    return handles, callbacks


def identity_handles(identities: Any) -> Tuple[List[Any], Optional[PluginCallbacks]]:
    """As recipient_handles, for identities."""
    if type(identities) is not list and type(identities) is not tuple:
        check_sequence(identities, "identities")
    try:
        return [i._wc_identity for i in identities], None
    except AttributeError:
        pass
    handles: List[Any] = []
    callbacks: PluginCallbacks = {}
    for identity in identities:
        if hasattr(identity, "_wc_identity"):
            handles.append(identity._wc_identity)
        elif hasattr(identity, "_wc_plugin_identities"):
            handles.extend(identity._wc_plugin_identities)
            callbacks[identity._wc_plugin_name] = identity._wc_callbacks
        else:
            raise TypeError("argument 'identities': invalid type (expected an identity type)")
    return handles, callbacks
