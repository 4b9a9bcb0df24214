"""Keys by text and back, kinds checked, key files read whole."""

from __future__ import annotations

import pytest

import warpcrypt
from support import plugin_identity, plugin_recipient, ssh_keypair, tag_recipient, tagpq_recipient
from warpcrypt import keyfile, passphrase, plugin, pq, ssh, tag, tagpq, x25519


@pytest.mark.parametrize("module, secret_prefix, public_prefix", [
    (x25519, "AGE-SECRET-KEY-1", "age1"),
    (pq, "AGE-SECRET-KEY-PQ-1", "age1pq1"),
])
def test_text_forms(module, secret_prefix, public_prefix):
    identity = module.Identity.generate()
    assert isinstance(identity, module.Identity)
    assert str(identity).startswith(secret_prefix)
    recipient = identity.to_public()
    assert isinstance(recipient, module.Recipient)
    assert str(recipient).startswith(public_prefix)
    again = module.Identity.from_str(str(identity))
    assert str(again) == str(identity)
    assert str(again.to_public()) == str(recipient)
    assert str(module.Recipient.from_str(str(recipient))) == str(recipient)
    assert str(recipient) in repr(recipient)
    assert str(identity) not in repr(identity)


def test_kinds_are_checked():
    classic, quantum = x25519.Identity.generate(), pq.Identity.generate()
    with pytest.raises(warpcrypt.RecipientError):
        x25519.Recipient.from_str(str(quantum.to_public()))
    with pytest.raises(warpcrypt.RecipientError):
        pq.Recipient.from_str(str(classic.to_public()))
    with pytest.raises(warpcrypt.IdentityError):
        x25519.Identity.from_str(str(quantum))
    with pytest.raises(warpcrypt.IdentityError):
        pq.Identity.from_str(str(classic))
    with pytest.raises(warpcrypt.RecipientError):
        x25519.Recipient.from_str(str(classic))  # an identity where a recipient goes
    with pytest.raises(warpcrypt.RecipientError):
        tag.Recipient.from_str(tagpq_recipient())
    with pytest.raises(warpcrypt.RecipientError):
        ssh.Recipient.from_str(str(classic.to_public()))


@pytest.mark.parametrize("parse, error", [
    (x25519.Identity.from_str, warpcrypt.IdentityError),
    (x25519.Recipient.from_str, warpcrypt.RecipientError),
    (pq.Identity.from_str, warpcrypt.IdentityError),
    (pq.Recipient.from_str, warpcrypt.RecipientError),
    (keyfile.Identity.from_str, warpcrypt.IdentityError),
    (ssh.Recipient.from_str, warpcrypt.RecipientError),
    (plugin.Identity.from_str, warpcrypt.IdentityError),
    (plugin.Recipient.from_str, warpcrypt.RecipientError),
    (tag.Recipient.from_str, warpcrypt.RecipientError),
    (tagpq.Recipient.from_str, warpcrypt.RecipientError),
])
@pytest.mark.parametrize("text", ["", "badprefix", "age1xyz", "AGE-SECRET-KEY-1XYZ",
                                  "invalid ssh pubkey", "invalid~~~"])
def test_malformed(parse, error, text):
    with pytest.raises(error):
        parse(text)


def test_wrong_argument_types():
    with pytest.raises(TypeError):
        x25519.Recipient.from_str(5)
    with pytest.raises(TypeError):
        x25519.Identity.from_str(b"AGE-SECRET-KEY-1")
    with pytest.raises(TypeError):
        ssh.Identity.from_buffer(5)
    with pytest.raises(TypeError):
        x25519.Identity()  # as pyrage: no constructor
    with pytest.raises(TypeError):
        x25519.Recipient()


def test_secret_is_not_quoted():
    secret = str(x25519.Identity.generate())
    with pytest.raises(warpcrypt.RecipientError) as caught:
        x25519.Recipient.from_str(secret)
    assert secret not in str(caught.value)
    assert secret[16:] not in caught.value.hint


def test_errors_carry_status_and_hint():
    with pytest.raises(warpcrypt.IdentityError) as caught:
        x25519.Identity.from_str("garbage")
    assert caught.value.status == 2  # WARPCRYPT_E_USAGE
    assert isinstance(caught.value.hint, str)
    assert isinstance(caught.value, warpcrypt.Error)


def test_keyfile():
    identity = keyfile.Identity.generate()
    text = str(identity)
    assert str(keyfile.Identity.from_str(text)) == text
    recipient = identity.to_public()
    assert isinstance(recipient, keyfile.Recipient)
    assert text not in repr(recipient)
    encrypted = warpcrypt.encrypt(b"k", [recipient], format="warp")
    assert warpcrypt.decrypt(encrypted, [keyfile.Identity.from_str(text)]) == b"k"
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt(encrypted, [keyfile.Identity.generate()])


@pytest.mark.parametrize("kind", ["ed25519", "rsa"])
def test_ssh_keys(tmp_path, kind):
    public, private = ssh_keypair(tmp_path, kind)
    recipient = ssh.Recipient.from_str(public)
    assert str(recipient).split()[:2] == public.split()[:2]
    identity = ssh.Identity.from_buffer(private)
    assert isinstance(identity, ssh.Identity)
    assert str(identity.to_public()).split()[:2] == public.split()[:2]
    assert warpcrypt.decrypt(warpcrypt.encrypt(b"s", [recipient]), [identity]) == b"s"


def test_ssh_key_under_passphrase(tmp_path):
    public, private = ssh_keypair(tmp_path, "ed25519", passphrase="hunter2")
    with pytest.raises(warpcrypt.IdentityError):
        ssh.Identity.from_buffer(private)  # pyrage refuses it too
    with pytest.raises(warpcrypt.IdentityError):
        ssh.Identity.from_buffer(private, passphrase="wrong")
    identity = ssh.Identity.from_buffer(private, passphrase="hunter2")
    encrypted = warpcrypt.encrypt(b"s", [ssh.Recipient.from_str(public)])
    assert warpcrypt.decrypt(encrypted, [identity]) == b"s"


def test_ssh_from_buffer_takes_only_ssh_keys():
    with pytest.raises(warpcrypt.IdentityError):
        ssh.Identity.from_buffer(str(x25519.Identity.generate()).encode())
    with pytest.raises(warpcrypt.IdentityError):
        ssh.Identity.from_buffer(b"garbage")


def test_identities_from_file_text(tmp_path):
    classic, quantum, key = (x25519.Identity.generate(), pq.Identity.generate(),
                             keyfile.Identity.generate())
    text = f"# created: now\n{classic}\n\n{quantum}\n"
    identities = warpcrypt.identities_from_file_text(text)
    assert [type(i) for i in identities] == [x25519.Identity, pq.Identity]
    assert [str(i) for i in identities] == [str(classic), str(quantum)]
    assert str(warpcrypt.identities_from_file_text(str(key).encode())[0]) == str(key)
    _, private = ssh_keypair(tmp_path, "ed25519")
    assert type(warpcrypt.identities_from_file_text(private)[0]) is ssh.Identity
    with pytest.raises(warpcrypt.IdentityError):
        warpcrypt.identities_from_file_text("not a key\n")


def test_protected_identity_file():
    identity = x25519.Identity.generate()
    protected = passphrase.encrypt(f"{identity}\n".encode(), "pw", armored=True,
                                   work_factor=13)
    (opened,) = warpcrypt.identities_from_file_text(protected, passphrase="pw")
    assert str(opened) == str(identity)
    with pytest.raises(warpcrypt.IdentityError):
        warpcrypt.identities_from_file_text(protected)
    with pytest.raises(warpcrypt.IdentityError):
        warpcrypt.identities_from_file_text(protected, passphrase="wrong")


def test_recipients_from_file_text(tmp_path):
    classic, quantum = x25519.Identity.generate(), pq.Identity.generate()
    public, _ = ssh_keypair(tmp_path, "ed25519")
    text = f"# team\n{classic.to_public()}\n{quantum.to_public()}\n\n{public}\n"
    recipients = warpcrypt.recipients_from_file_text(text)
    assert [type(r) for r in recipients] == [x25519.Recipient, pq.Recipient, ssh.Recipient]
    with pytest.raises(warpcrypt.RecipientError):
        warpcrypt.recipients_from_file_text("age1nope\n")


def test_tag_recipients():
    for module, text in ((tag, tag_recipient()), (tagpq, tagpq_recipient())):
        recipient = module.Recipient.from_str(text)
        assert isinstance(recipient, module.Recipient)
        assert str(recipient) == text


def test_plugin_keys():
    identity = plugin.Identity.default_for_plugin("yubikey")
    assert str(identity) == "AGE-PLUGIN-YUBIKEY-18S3VSX"  # age -j yubikey's, as pyrage
    assert identity.plugin() == "yubikey"
    assert plugin.Identity.from_str(plugin_identity("fake")).plugin() == "fake"
    recipient = plugin.Recipient.from_str(plugin_recipient("fake"))
    assert recipient.plugin() == "fake"
    assert str(recipient) == plugin_recipient("fake")
    with pytest.raises(warpcrypt.IdentityError):
        plugin.Identity.default_for_plugin("invalid~~~name")
    with pytest.raises(warpcrypt.RecipientError):
        plugin.Recipient.from_str(str(x25519.Identity.generate().to_public()))


def test_handles_are_freed():
    # Many short-lived keys: each handle (in locked memory) goes with its object.
    for _ in range(2000):
        str(x25519.Identity.generate().to_public())
