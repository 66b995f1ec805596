"""Arrow arrays to and from numpy without loading pandas (issue 37).

pyarrow imports pandas, when it is installed, at the first ``pa.array(...)``, ``pa.scalar(...)`` or
``.to_numpy()``: its conversions serve pandas too, and look pandas' types up first (``pandas-shim.pxi``,
and ``ConvertArrayToPandas`` underneath every ``to_numpy``). That import is more than half of the start-up
of ``ndcg score`` on a small file, so the scoring path converts through these functions instead: they build
and read Arrow buffers directly, which is what pyarrow does for these types anyway (zero-copy where pyarrow
is zero-copy, a copy where it copies). Anything else (nulls, nested or temporal types, Python objects) is
handed to pyarrow's own conversion, so results never differ.

>>> import numpy as np
>>> to_arrow(np.array([3, 1, 2])).to_pylist()
[3, 1, 2]
>>> to_numpy(strings(["b", "a", "b"]).dictionary_encode().indices).tolist()
[0, 1, 0]
>>> to_numpy(to_arrow(np.array([True, False, True])).slice(1)).tolist()
[False, True]
>>> scalar(7, to_arrow(np.array([1])).type).as_py()
7
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

_NUMBERS = frozenset("iuf")  # numpy kinds whose Arrow layout is one plain buffer of the same values


def to_arrow(values: np.ndarray | Sequence[int] | Sequence[float], type: pa.DataType | None = None) -> pa.Array:
    """``pa.array(values, type)`` for a one-dimensional numpy array (or list) of numbers or booleans.

    Contiguous numbers are shared, not copied (as ``pa.array`` shares them); ``type`` may widen them.
    """
    if not isinstance(values, np.ndarray) and not len(values):
        return pa.array(values, type)  # an empty list: pyarrow gives it the null type
    array = np.asarray(values)
    if array.ndim != 1 or (array.dtype.kind not in _NUMBERS and array.dtype != np.bool_):
        return pa.array(values, type)
    if type is not None and array.dtype != _numpy_dtype(type):
        target = _numpy_dtype(type)
        if target is None or not np.can_cast(array.dtype, target, "safe"):
            return pa.array(values, type)  # pyarrow's checked conversion (it refuses what would overflow)
        array = array.astype(target)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    if array.dtype == np.bool_:
        bits = np.packbits(array, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(array), [None, pa.py_buffer(bits)])
    array = np.ascontiguousarray(array)
    return pa.Array.from_buffers(pa.from_numpy_dtype(array.dtype), len(array), [None, pa.py_buffer(array)])


def _numpy_dtype(type: pa.DataType) -> np.dtype | None:
    if pa.types.is_integer(type) or pa.types.is_floating(type) or pa.types.is_boolean(type):
        dtype: np.dtype = np.dtype(type.to_pandas_dtype())
        return dtype
    return None


def to_numpy(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """``values.to_numpy(zero_copy_only=False)`` for numbers and booleans without nulls (dictionary indices too).

    Read-only where pyarrow's is (one chunk of numbers, shared), writable where pyarrow copies.
    """
    if isinstance(values, pa.ChunkedArray):
        if values.num_chunks == 1:
            return to_numpy(values.chunk(0))
        dtype = _numpy_dtype(values.type)
        if dtype is None or values.null_count:
            converted: np.ndarray = values.to_numpy()
            return converted
        if values.num_chunks == 0:
            return np.zeros(0, dtype)
        return np.concatenate([to_numpy(chunk) for chunk in values.chunks])
    dtype = _numpy_dtype(values.type)
    if dtype is None or values.null_count:
        result: np.ndarray = values.to_numpy(zero_copy_only=False)
        return result
    n, offset = len(values), values.offset
    data = values.buffers()[1]
    if pa.types.is_boolean(values.type):
        if n == 0:
            return np.zeros(0, np.bool_)
        packed = np.frombuffer(data, np.uint8, count=(offset + n + 7) // 8)
        return np.unpackbits(packed, bitorder="little", count=offset + n)[offset:].view(np.bool_)
    if n == 0:
        return np.zeros(0, dtype)
    shared = np.frombuffer(data, dtype, count=n, offset=offset * dtype.itemsize)
    shared.flags.writeable = False  # as pyarrow's zero-copy view: the buffer is the array's
    return shared


def strings(values: Sequence[str]) -> pa.Array:
    """``pa.array(values, pa.string())`` for a list of Python strings (a string that is no UTF-8 raises as there)."""
    encoded = [value.encode("utf-8") for value in values]
    ends = np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)), dtype=np.int64)
    if len(ends) and ends[-1] > np.iinfo(np.int32).max:
        return pa.array(values, pa.string())
    offsets = np.zeros(len(encoded) + 1, np.int32)
    offsets[1:] = ends
    return pa.Array.from_buffers(
        pa.string(), len(encoded), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))]
    )


def scalar(value: int | float | bool, type: pa.DataType) -> pa.Scalar:
    """``pa.scalar(value, type)`` for a number or a boolean."""
    return to_arrow(np.array([value], dtype=_numpy_dtype(type)))[0]
