"""The loader: the header as cffi reads it, and a clear ImportError without the library."""

from __future__ import annotations

import os
import subprocess
import sys

from warpcrypt._native import cdef_source

HEADER = """\
#ifndef X_H
#define X_H
#include <stdint.h>
#define X_API __attribute__((visibility("default")))
#ifdef __cplusplus
extern "C" {
#endif
#define LONG_MACRO(a) \\
    ((a) + 1)
WARPCRYPT_API int x_call(const uint8_t *in, size_t len); /* # not a directive */
#ifdef __cplusplus
}
#endif
#endif
"""


def test_cdef_source_keeps_declarations_only():
    source = cdef_source(HEADER)
    assert "int x_call(const uint8_t *in, size_t len);" in source
    for gone in ("#", "extern", "WARPCRYPT_API", "((a) + 1)"):
        assert gone not in source.replace("/* # not", "")


def test_missing_library_is_an_import_error(tmp_path):
    environment = dict(os.environ, WARPCRYPT_LIBRARY=str(tmp_path / "libnothing.so"))
    result = subprocess.run([sys.executable, "-c", "import warpcrypt"], env=environment,
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert "ImportError" in result.stderr and "libnothing.so" in result.stderr
