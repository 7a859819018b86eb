"""Finding and loading the CANN libraries, their C functions through ctypes, and the runtime state per thread.

Only CANN's own API is on the compute path (``libascendcl.so``: runtime; ``libnnopbase.so``: aclTensor and
friends; ``libopapi.so``: the operator), each function looked up in the library where CANN has it, so a real CANN
toolkit's ``lib64`` runs the same calls. The ``aclnnCpu*`` extensions of ``aclnn_cpu/ext.h`` are optional.
"""

from __future__ import annotations

import ctypes
import os
import threading
from contextlib import contextmanager
from ctypes import POINTER, c_bool, c_char_p, c_int, c_int8, c_int32, c_int64, c_size_t, c_uint64, c_void_p
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ._errors import AclnnError, ExtensionUnavailableError, LibraryNotFoundError

ENV_LIB_DIR = "ACLNN_CPU_LIB_DIR"
LIBRARIES = ("libascendcl.so", "libnnopbase.so", "libopapi.so")
PACKAGE_LIB_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib64")

ACL_SUCCESS = 0
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2

# name: (library index in LIBRARIES, restype, argtypes)
_Signature = Tuple[int, object, Sequence[object]]
_FUNCTIONS: Dict[str, _Signature] = {
    "aclInit": (0, c_int, [c_char_p]),
    "aclrtSetDevice": (0, c_int, [c_int32]),
    "aclrtCreateStream": (0, c_int, [POINTER(c_void_p)]),
    "aclrtSynchronizeStream": (0, c_int, [c_void_p]),
    "aclrtMalloc": (0, c_int, [POINTER(c_void_p), c_size_t, c_int]),
    "aclrtFree": (0, c_int, [c_void_p]),
    "aclrtMemcpy": (0, c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_int]),
    "aclrtGetSocName": (0, c_char_p, []),
    "aclGetRecentErrMsg": (0, c_char_p, []),
    "aclCreateTensor": (1, c_void_p, [POINTER(c_int64), c_uint64, c_int, POINTER(c_int64), c_int64, c_int,
                                      POINTER(c_int64), c_uint64, c_void_p]),
    "aclDestroyTensor": (1, c_int, [c_void_p]),
    "aclCreateIntArray": (1, c_void_p, [POINTER(c_int64), c_uint64]),
    "aclDestroyIntArray": (1, c_int, [c_void_p]),
    "aclCreateBoolArray": (1, c_void_p, [POINTER(c_bool), c_uint64]),
    "aclDestroyBoolArray": (1, c_int, [c_void_p]),
    "aclDestroyAclOpExecutor": (1, c_int, [c_void_p]),
    "aclnnConvolutionBackwardGetWorkspaceSize": (2, c_int, [
        c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_bool, c_void_p, c_int, c_void_p,
        c_int8, c_void_p, c_void_p, c_void_p, POINTER(c_uint64), POINTER(c_void_p)]),
    "aclnnConvolutionBackward": (2, c_int, [c_void_p, c_uint64, c_void_p, c_void_p]),
}
_EXTENSIONS: Dict[str, _Signature] = {
    "aclnnCpuSetThreadSoc": (0, c_int, [c_char_p]),
    "aclnnCpuSetThreadNumThreads": (0, c_int, [c_int32]),
    "aclnnCpuGetSoc": (0, c_char_p, []),
    "aclnnCpuGetNumThreads": (0, c_int32, []),
    "aclnnCpuGetVersion": (0, c_char_p, []),
    "aclnnCpuGetLiveObjects": (0, c_char_p, []),
}


def _recorded_lib_dir() -> Optional[str]:
    """The lib64 directory of the prefix ``cmake --install`` installed this package into, if it did."""
    try:
        from . import _install_prefix  # written by cmake --install, absent from the source tree
    except ImportError:
        return None
    return str(_install_prefix.LIB_DIR)


def _holds_libraries(directory: str) -> bool:
    return all(os.path.isfile(os.path.join(directory, name)) for name in LIBRARIES)


def _load(directory: Optional[str]) -> List[ctypes.CDLL]:
    """The three libraries from ``directory``, or by name from the dynamic loader's search path (None)."""
    return [ctypes.CDLL(name if directory is None else os.path.join(directory, name)) for name in LIBRARIES]


def _find() -> Tuple[List[ctypes.CDLL], str, str]:
    """Loads the libraries from the first place that has them: (handles, directory or "", how it was found)."""
    names = ", ".join(LIBRARIES)
    env_dir = os.environ.get(ENV_LIB_DIR)
    if env_dir:
        if not _holds_libraries(env_dir):
            raise LibraryNotFoundError(f"{ENV_LIB_DIR}={env_dir} does not hold {names}")
        try:
            return _load(env_dir), env_dir, ENV_LIB_DIR
        except OSError as e:
            raise LibraryNotFoundError(f"{ENV_LIB_DIR}={env_dir}: cannot load the libraries: {e}") from e
    tried = [f"{ENV_LIB_DIR} (not set)"]
    recorded = _recorded_lib_dir()
    for directory, origin in ((PACKAGE_LIB_DIR, "the package's copy"), (recorded, "the install prefix")):
        if directory is None:
            tried.append(f"{origin} (none recorded: the package was not installed by cmake --install)")
            continue
        if not _holds_libraries(directory):
            tried.append(f"{origin} {directory} (does not hold them)")
            continue
        try:
            return _load(directory), directory, origin
        except OSError as e:
            tried.append(f"{origin} {directory} ({e})")
    try:
        return _load(None), "", "the dynamic loader's search path"
    except OSError as e:
        tried.append(f"the dynamic loader's search path ({e})")
    raise LibraryNotFoundError(f"cannot find {names}; tried: " + "; ".join(tried) +
                               f". Set {ENV_LIB_DIR} to the lib64 directory of an aclnn-cpu install.")


class _ThreadState:
    """A Python thread's device and stream; the stream goes back to the pool when the thread ends."""

    def __init__(self, stream: int, pool: List[int]) -> None:
        self.stream = stream
        self._pool = pool

    def __del__(self) -> None:
        self._pool.append(self.stream)


class Library:
    """The loaded CANN libraries: their functions as attributes, plus the per-process and per-thread set-up."""

    def __init__(self) -> None:
        handles, self.directory, self.origin = _find()
        self.path = handles[0]._name
        for name, (index, restype, argtypes) in _FUNCTIONS.items():
            try:
                function = getattr(handles[index], name)
            except AttributeError:
                raise LibraryNotFoundError(f"{LIBRARIES[index]} from {self.origin} has no {name}: not CANN's "
                                           "library, or too old") from None
            function.restype, function.argtypes = restype, argtypes
            setattr(self, name, function)
        self._extensions: Dict[str, Callable[..., object]] = {}
        for name, (index, restype, argtypes) in _EXTENSIONS.items():
            function = getattr(handles[index], name, None)
            if function is not None:
                function.restype, function.argtypes = restype, argtypes
                self._extensions[name] = function
        self._init_lock = threading.Lock()
        self._initialised = False
        self._local = threading.local()
        self._free_streams: List[int] = []  # list.append/pop are atomic

    # --- errors ---------------------------------------------------------------------------------------------------
    def recent_error(self) -> str:
        """``aclGetRecentErrMsg()`` of this thread ("" when there is none); reading it clears it."""
        text = self.aclGetRecentErrMsg()
        return text.decode("utf-8", "replace").strip() if text else ""

    def check(self, status: int, api: str) -> None:
        """Raises AclnnError with the recent error message when ``status`` is not 0."""
        if status != ACL_SUCCESS:
            raise AclnnError(status, api, self.recent_error())

    # --- extensions -----------------------------------------------------------------------------------------------
    def extension(self, name: str, purpose: str) -> Callable[..., object]:
        """The ``aclnnCpu*`` function ``name``; ExtensionUnavailableError saying what needed it when missing."""
        function = self._extensions.get(name)
        if function is None:
            raise ExtensionUnavailableError(
                f"{purpose} needs {name} of aclnn_cpu/ext.h, which {self.path} (from {self.origin}) does not "
                "export: it is not aclnn-cpu, or an older one")
        return function

    def has_extensions(self) -> bool:
        return len(self._extensions) == len(_EXTENSIONS)

    @contextmanager
    def thread_overrides(self, soc: Optional[str], threads: Optional[int]) -> Iterator[None]:
        """This thread's product and thread count for the duration of the block (None: leave it alone)."""
        done: List[Tuple[Callable[..., object], object]] = []
        try:
            if soc is not None:
                set_soc = self.extension("aclnnCpuSetThreadSoc", "soc=")
                if set_soc(soc.encode()) != ACL_SUCCESS:
                    raise ValueError(f"soc: {self.recent_error()}")
                done.append((set_soc, None))
            if threads is not None:
                set_threads = self.extension("aclnnCpuSetThreadNumThreads", "threads=")
                if set_threads(threads) != ACL_SUCCESS:
                    raise ValueError(f"threads: {self.recent_error()}")
                done.append((set_threads, -1))
            yield
        finally:
            for clear, value in done:
                clear(value)

    # --- runtime --------------------------------------------------------------------------------------------------
    def stream(self) -> int:
        """This thread's stream, after aclInit (once per process) and aclrtSetDevice(0) (once per thread)."""
        state: Optional[_ThreadState] = getattr(self._local, "state", None)
        if state is not None:
            return state.stream
        with self._init_lock:
            if not self._initialised:
                status = self.aclInit(None)
                if status not in (ACL_SUCCESS, ACL_ERROR_REPEAT_INITIALIZE):
                    self.check(status, "aclInit")
                self._initialised = True
        self.check(self.aclrtSetDevice(0), "aclrtSetDevice")
        try:
            stream = self._free_streams.pop()
        except IndexError:
            handle = c_void_p()
            self.check(self.aclrtCreateStream(ctypes.byref(handle)), "aclrtCreateStream")
            stream = handle.value or 0
        self._local.state = _ThreadState(stream, self._free_streams)
        return stream

    def soc_name(self) -> str:
        """The product this thread's calls emulate (or run on): ``aclrtGetSocName()``."""
        self.stream()
        name = self.aclrtGetSocName()
        return name.decode() if name else ""

    def live_objects(self) -> Dict[str, int]:
        """What is alive in the library (``aclnnCpuGetLiveObjects``) as {"aclTensor": 2, "memory blocks": 1, ...}."""
        text = self.extension("aclnnCpuGetLiveObjects", "live_objects()")().decode()
        if text == "nothing":
            return {}
        counts: Dict[str, int] = {}
        for part in text.split(", "):
            kind, _, count = part.rpartition(" ")
            counts[kind] = int(count)
        return counts


_library: Optional[Library] = None
_library_lock = threading.Lock()


def library() -> Library:
    """The loaded libraries (found and loaded on first use)."""
    global _library
    if _library is None:
        with _library_lock:
            if _library is None:
                _library = Library()
    return _library
