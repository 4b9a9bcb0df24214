"""Options objects: one per combination of settings, made once and shared.

The library treats options as immutable once passed to a call, and safe to share between
threads, so the per-call cost of a small encryption is a dictionary look-up. Options that
carry a call's plugin callbacks are the exception: made per call (_plugin_ui.py).
"""

from __future__ import annotations

import threading
from typing import Any, Dict, Iterable, Optional, Tuple

from ._native import ffi, lib, new_error_box, raise_error, take_error

FORMATS = {"age": lib.WARPCRYPT_FORMAT_AGE, "warp": lib.WARPCRYPT_FORMAT_WARP}

Settings = Tuple[Tuple[int, int], ...]  # (WARPCRYPT_OPT_*, value) pairs, in order

_cache: Dict[Settings, Any] = {}
_cache_lock = threading.Lock()


def format_code(fmt: Any) -> int:
    try:
        return FORMATS[fmt]
    except (KeyError, TypeError):
        raise ValueError(f"format must be 'age' or 'warp', not {fmt!r}") from None


def check_armored(armored: Any) -> None:
    # pyrage takes a bool and nothing else for armor.
    if armored is not True and armored is not False:
        raise TypeError(f"argument 'armored': '{type(armored).__name__}' object cannot be "
                        "converted to 'PyBool'")


def new_options(settings: Iterable[Tuple[int, int]], error_class: type) -> Any:
    """Fresh options with `settings` applied; `error_class` for a value the library refuses."""
    out = ffi.new("warpcrypt_options **")
    status = lib.warpcrypt_options_new(out)
    if status:
        raise take_error(status, None, error_class)
    options = ffi.gc(out[0], lib.warpcrypt_options_free)
    for option, value in settings:
        err = new_error_box()
        status = lib.warpcrypt_options_set(options, option, value, err)
        if status:
            raise_error(status, err, error_class)
    return options


def cached_options(settings: Settings, error_class: type) -> Any:
    options = _cache.get(settings)
    if options is None:
        made = new_options(settings, error_class)
        with _cache_lock:
            options = _cache.setdefault(settings, made)
    return options


def encrypt_settings(fmt: Any, armored: bool, work_factor: Optional[int] = None) -> Settings:
    """The settings of an encryption. `work_factor` is log2 of the passphrase KDF's memory in
    KiB: age's scrypt work factor (N = 2**work_factor), Argon2id's memory for warp files."""
    settings: Tuple[Tuple[int, int], ...] = ((lib.WARPCRYPT_OPT_FORMAT, format_code(fmt)),)
    if armored:
        settings += ((lib.WARPCRYPT_OPT_ARMOR, 1),)
    if work_factor is not None:
        if type(work_factor) is not int or not 1 <= work_factor <= 40:
            raise ValueError(f"work_factor must be an int from 1 to 40, not {work_factor!r}")
        settings += ((lib.WARPCRYPT_OPT_PASSPHRASE_MEMORY_KIB, 1 << work_factor),)
    return settings


_encrypt_cache: Dict[Tuple[Any, bool], Any] = {}


def encrypt_options(fmt: Any, armored: Any, error_class: type) -> Any:
    """The shared options of an encryption to keys, by format name and armor."""
    if armored is not True and armored is not False:
        check_armored(armored)  # before the look-up, where 1 would pass for True
    try:
        return _encrypt_cache[fmt, armored]
    except (KeyError, TypeError):
        pass
    options = cached_options(encrypt_settings(fmt, armored), error_class)
    _encrypt_cache[fmt, armored] = options
    return options
