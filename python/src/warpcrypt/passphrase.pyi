from typing import Optional, Union

def encrypt(plaintext: Union[bytes, bytearray, memoryview], passphrase: Union[str, bytes],
            armored: bool = False, *, format: str = "age",
            work_factor: Optional[int] = None) -> bytes: ...
def decrypt(ciphertext: Union[bytes, bytearray, memoryview],
            passphrase: Union[str, bytes]) -> bytes: ...
