"""mgsim - the mobile-GPU timing model in-process, through libmgsim (ctypes).

Pure Python over the installed shared library and its public C API
(include/mgsim.h); no compiled extension, nothing beyond the standard
library.  For a compiler's cost model (a TVM/Ansor measure callback, a
search loop) that wants a prediction without running a process:

    import mgsim
    dev = mgsim.Device("adreno640")          # a name or a path
    st = dev.run("conv2d H=56 W=56 Cin=64 Cout=64 tile=4x4")
    print(st["seconds"] * 1e6, "us", st["binding"])
    report = dev.run_json("matmul M=256 N=256 K=256")   # `mgsim run --json`
    best = dev.sweep("configs/spaces/conv1x1-14x14x128x128.json", threads=2)

The library is found, in order, at $MGSIM_LIB, next to this file as the
install lays it out (LIBDIR/python3/dist-packages/../../libmgsim.so.0),
in the source tree's build/ (python/../build/libmgsim.so.VERSION), then by
the system's loader (libmgsim.so.0).  Errors raise mgsim.Error with the
one-line message the command-line tool prints.
"""
import ctypes
import glob
import json
import os

__all__ = ["Device", "Error", "version", "API_VERSION"]

API_VERSION = 1


class Error(Exception):
    """An mgsim error: a config, schedule, trace or space it refused."""


class _Stats(ctypes.Structure):
    _fields_ = [
        ("cycles", ctypes.c_double), ("seconds", ctypes.c_double),
        ("flops", ctypes.c_double), ("gflops", ctypes.c_double),
        ("bound_gflops", ctypes.c_double), ("binding", ctypes.c_char * 16),
        ("warp_instrs", ctypes.c_uint64), ("work_groups", ctypes.c_uint64),
        ("warps", ctypes.c_uint64), ("resident_warps_mean", ctypes.c_double),
        ("resident_warps_max", ctypes.c_uint32), ("registers_per_item", ctypes.c_uint32),
    ]


class _SweepSummary(ctypes.Structure):
    _fields_ = [
        ("candidates", ctypes.c_uint64), ("kept", ctypes.c_uint64),
        ("simulated", ctypes.c_uint64), ("failed", ctypes.c_uint64),
        ("best_index", ctypes.c_uint64), ("best_seconds", ctypes.c_double),
        ("best_schedule", ctypes.c_char * 1024),
    ]


def _candidates():
    env = os.environ.get("MGSIM_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "libmgsim.so.0")
    for p in sorted(glob.glob(os.path.join(here, "..", "build", "libmgsim.so.*"))):
        yield p
    yield "libmgsim.so.0"


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return _declare(ctypes.CDLL(path))
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("mgsim: libmgsim not found (set MGSIM_LIB); tried: " + ", ".join(tried))


def _declare(lib):
    c, p, sz = ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t
    pp = ctypes.POINTER(ctypes.c_void_p)
    sigs = {
        "mgsim_version": (c, []),
        "mgsim_api_version": (ctypes.c_int, []),
        "mgsim_device_load": (p, [c, c, sz]),
        "mgsim_device_free": (None, [p]),
        "mgsim_device_name": (c, [p]),
        "mgsim_run_schedule": (ctypes.c_int, [p, c, ctypes.POINTER(_Stats), pp, c, sz]),
        "mgsim_run_trace": (ctypes.c_int, [p, c, ctypes.POINTER(_Stats), pp, c, sz]),
        "mgsim_sweep": (ctypes.c_int, [p, c, c, ctypes.c_int, ctypes.POINTER(_SweepSummary),
                                       pp, c, sz]),
        "mgsim_free": (None, [p]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    if lib.mgsim_api_version() < API_VERSION:
        raise ImportError("mgsim: libmgsim's API %d is older than this module's %d"
                          % (lib.mgsim_api_version(), API_VERSION))
    return lib


_lib = _load()


def version():
    """The library's version string ("0.1.0")."""
    return _lib.mgsim_version().decode()


def _enc(s):
    return None if s is None else os.fsencode(s)


def _take_json(ptr):
    """The JSON text the library returned, parsed; the string freed."""
    try:
        return json.loads(ctypes.string_at(ptr.value).decode())
    finally:
        _lib.mgsim_free(ptr)


def _stats_dict(st):
    d = {name: getattr(st, name) for name, _ in _Stats._fields_}
    d["binding"] = st.binding.decode()
    return d


class Device:
    """A loaded, checked device config (a name such as "adreno640", found
    through the config search path, or a path to a JSON file)."""

    def __init__(self, config):
        err = ctypes.create_string_buffer(1024)
        self._h = _lib.mgsim_device_load(_enc(config), err, len(err))
        if not self._h:
            raise Error(err.value.decode())

    def close(self):
        """Free the library's copy (also done when the object goes away)."""
        if getattr(self, "_h", None):
            _lib.mgsim_device_free(self._h)
            self._h = None

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def name(self):
        return _lib.mgsim_device_name(self._h).decode()

    def _run(self, fn, what, want_json):
        st, err = _Stats(), ctypes.create_string_buffer(1024)
        js = ctypes.c_void_p()
        rc = fn(self._h, _enc(what), ctypes.byref(st), ctypes.byref(js) if want_json else None,
                err, len(err))
        if rc != 0:
            raise Error(err.value.decode())
        return _take_json(js) if want_json else _stats_dict(st)

    def run(self, schedule):
        """Simulate "OP key=value ..." (the words of `mgsim run`): a dict of
        cycles, seconds, flops, gflops, bound_gflops, binding, warp_instrs,
        work_groups, warps, resident_warps_mean/max, registers_per_item."""
        return self._run(_lib.mgsim_run_schedule, schedule, False)

    def run_json(self, schedule):
        """The whole `mgsim run --json` report of a schedule, as a dict."""
        return self._run(_lib.mgsim_run_schedule, schedule, True)

    def run_trace(self, path):
        """Simulate a trace file (.mgt); the same dict as run()."""
        return self._run(_lib.mgsim_run_trace, path, False)

    def sweep(self, space, rules=None, threads=1):
        """Sweep a space file (only the candidates the rules keep, with
        rules): the `mgsim sweep --json` summary as a dict."""
        sm, err = _SweepSummary(), ctypes.create_string_buffer(1024)
        js = ctypes.c_void_p()
        rc = _lib.mgsim_sweep(self._h, _enc(space), _enc(rules), int(threads), ctypes.byref(sm),
                              ctypes.byref(js), err, len(err))
        if rc != 0:
            raise Error(err.value.decode())
        return _take_json(js)
