"""pyrage's public names all exist here, with signatures a pyrage caller can keep using."""

from __future__ import annotations

import inspect
import types

import pytest

import warpcrypt

SUBMODULES = ["x25519", "ssh", "passphrase", "plugin", "tag", "tagpq"]


def _public(namespace):
    return sorted(n for n in dir(namespace) if not n.startswith("_") and n != "pyrage")


def _signature(obj):
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None  # a builtin without __text_signature__


def _compatible(theirs, ours):
    """Every call valid for `theirs` is valid for `ours`: the same parameters in the same
    order and kinds, with the same defaults; anything more has a default."""
    mine = list(ours.parameters.values())
    positional = inspect.Parameter.POSITIONAL_ONLY
    for index, param in enumerate(theirs.parameters.values()):
        assert index < len(mine), f"missing parameter {param.name}"
        if param.kind == positional:  # passed by place only: a name of ours takes it too
            assert mine[index].kind in (positional, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        else:
            assert (mine[index].name, mine[index].kind) == (param.name, param.kind)
        assert mine[index].default == param.default
    for param in mine[len(theirs.parameters):]:
        assert param.default is not inspect.Parameter.empty or param.kind in (
            inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD), param.name


def _pairs(pyrage):
    yield "", pyrage, warpcrypt
    for name in SUBMODULES:
        yield name + ".", getattr(pyrage, name), getattr(warpcrypt, name)


def test_names(pyrage):
    for prefix, theirs, ours in _pairs(pyrage):
        missing = [prefix + n for n in _public(theirs) if not hasattr(ours, n)]
        assert not missing
        for name in _public(theirs):
            their_obj, our_obj = getattr(theirs, name), getattr(ours, name)
            if isinstance(their_obj, type) and not issubclass(their_obj, BaseException):
                missing = [f"{prefix}{name}.{m}" for m in _public(their_obj)
                           if not hasattr(our_obj, m)]
                assert not missing
    assert set(pyrage.__all__) <= set(warpcrypt.__all__)


def test_exception_bases(pyrage):
    for name in ("EncryptError", "DecryptError", "IdentityError", "RecipientError"):
        assert issubclass(getattr(warpcrypt, name), Exception)


def test_signatures(pyrage):
    checked = 0
    for prefix, theirs, ours in _pairs(pyrage):
        for name in _public(theirs):
            their_obj, our_obj = getattr(theirs, name), getattr(ours, name)
            if isinstance(their_obj, types.ModuleType):
                continue
            targets = [(name, their_obj, our_obj)]
            if isinstance(their_obj, type) and not issubclass(their_obj, BaseException):
                targets += [(f"{name}.{m}", getattr(their_obj, m), getattr(our_obj, m))
                            for m in _public(their_obj)]
            for label, their_target, our_target in targets:
                theirs_sig = _signature(their_target)
                if theirs_sig is None:
                    continue
                ours_sig = _signature(our_target)
                assert ours_sig is not None, prefix + label
                try:
                    _compatible(theirs_sig, ours_sig)
                except AssertionError as error:
                    pytest.fail(f"{prefix}{label}: {theirs_sig} vs {ours_sig}: {error}")
                checked += 1
    assert checked >= 20
