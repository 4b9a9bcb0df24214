"""age plugins, with a fake one on the PATH: the Callbacks are asked and their answers count."""

from __future__ import annotations

import pytest

import warpcrypt
from support import install_fake_plugin, plugin_identity, plugin_recipient, with_path
from warpcrypt import plugin


class Callbacks:
    def __init__(self, secret="hunter2", yes=True):
        self.log = []
        self.secret, self.yes = secret, yes

    def display_message(self, message):
        self.log.append(("message", message))

    def confirm(self, message, yes_string, no_string):
        self.log.append(("confirm", message, yes_string, no_string))
        return self.yes

    def request_public_string(self, description):
        self.log.append(("public", description))
        return "public"

    def request_passphrase(self, description):
        self.log.append(("secret", description))
        return self.secret


@pytest.fixture
def fake_plugin(tmp_path, monkeypatch):
    install_fake_plugin(tmp_path)
    with_path(tmp_path, monkeypatch)
    return (plugin.Recipient.from_str(plugin_recipient("fake")),
            plugin.Identity.from_str(plugin_identity("fake")))


def test_round_trip(fake_plugin):
    recipient, identity = fake_plugin
    callbacks = Callbacks()
    encrypted = warpcrypt.encrypt(
        b"plugged", [plugin.RecipientPluginV1("fake", [recipient], [], callbacks)])
    assert callbacks.log == [("message", "wrapping")]
    assert [e.type for e in warpcrypt.info(encrypted).entries] == ["fake"]
    callbacks = Callbacks()
    opener = plugin.IdentityPluginV1("fake", [identity], callbacks)
    assert warpcrypt.decrypt(encrypted, [opener]) == b"plugged"
    assert callbacks.log == [("message", "unwrapping"), ("secret", "the PIN?"),
                             ("confirm", "proceed?", "go", "stop")]


@pytest.mark.parametrize("callbacks", [Callbacks(secret="wrong"), Callbacks(yes=False),
                                       Callbacks(secret=None), Callbacks(yes=None)])
def test_answers_count(fake_plugin, callbacks):
    recipient, identity = fake_plugin
    encrypted = warpcrypt.encrypt(
        b"plugged", [plugin.RecipientPluginV1("fake", [recipient], [], Callbacks())])
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt(encrypted, [plugin.IdentityPluginV1("fake", [identity], callbacks)])


def test_callback_exception_comes_through(fake_plugin):
    recipient, identity = fake_plugin

    class Raising(Callbacks):
        def request_passphrase(self, description):
            raise RuntimeError("no PIN here")

    encrypted = warpcrypt.encrypt(
        b"plugged", [plugin.RecipientPluginV1("fake", [recipient], [], Callbacks())])
    with pytest.raises(RuntimeError, match="no PIN here"):
        warpcrypt.decrypt(encrypted, [plugin.IdentityPluginV1("fake", [identity], Raising())])


def test_with_other_recipients(fake_plugin, x25519_pair):
    recipient, identity = fake_plugin
    encrypted = warpcrypt.encrypt(
        b"both", [x25519_pair[0], plugin.RecipientPluginV1("fake", [recipient], [],
                                                          Callbacks())])
    assert warpcrypt.decrypt(encrypted, [x25519_pair[1]]) == b"both"
    assert warpcrypt.decrypt(
        encrypted, [plugin.IdentityPluginV1("fake", [identity], Callbacks())]) == b"both"


def test_missing_plugin(fake_plugin):
    recipient, identity = fake_plugin
    with pytest.raises(warpcrypt.EncryptError):
        plugin.RecipientPluginV1("absent", [recipient], [], Callbacks())
    with pytest.raises(warpcrypt.DecryptError):
        plugin.IdentityPluginV1("absent", [identity], Callbacks())
    with pytest.raises(TypeError):
        plugin.IdentityPluginV1("fake", [recipient], Callbacks())
