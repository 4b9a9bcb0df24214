from typing import Optional, Union

class Recipient:
    @classmethod
    def from_str(cls, v: str) -> Recipient: ...

class Identity:
    @classmethod
    def from_buffer(cls, buf: Union[bytes, bytearray, memoryview, str],
                    passphrase: Optional[Union[str, bytes]] = None) -> Identity: ...
    def to_public(self) -> Recipient: ...
