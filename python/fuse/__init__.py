"""fuse: compile a model with fuse and run it, NumPy arrays in and out.

    import fuse
    model = fuse.compile("model.onnx", target="cpu")    # or fuse.load("model.so")
    print(model.inputs)                                  # [TensorInfo('input', 'f32', (1, 3, 224, 224))]
    y = model(x)                                         # one array per output
    outs = model.run({"input": x})                       # {name: array}
    model.report                                         # the fusion report (dict), after compile

The runtime is libfuse_runtime's C API (include/fuse-c/Runtime.h) through
ctypes; fuse.compile runs the fuse-compile tool. Both are found next to the
package (a build tree or an installed prefix), or by $FUSE_RUNTIME_LIB and
$FUSE_COMPILE. Every runtime failure raises FuseError with the runtime's
message.
"""

import ctypes
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

__all__ = ["FuseError", "TensorInfo", "Model", "compile", "load", "bfloat16_bits", "bfloat16_values"]

_HERE = os.path.dirname(os.path.abspath(__file__))


class FuseError(RuntimeError):
    """A failure of the runtime or of fuse-compile, with its message."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


# --- the C API -------------------------------------------------------------

_DTYPES = {  # FuseDType -> (name, NumPy dtype); bf16 travels as its bits
    1: ("f16", np.float16), 2: ("bf16", np.uint16), 3: ("f32", np.float32),
    4: ("f64", np.float64), 5: ("bool", np.bool_), 6: ("i8", np.int8),
    7: ("i16", np.int16), 8: ("i32", np.int32), 9: ("i64", np.int64),
}


class _TensorInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_int32), ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("num_elements", ctypes.c_int64), ("bytes", ctypes.c_size_t)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_int32), ("dims", ctypes.POINTER(ctypes.c_int64))]


class _RunOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("memory", ctypes.c_int),
                ("stream", ctypes.c_void_p), ("workspace", ctypes.c_void_p),
                ("workspace_bytes", ctypes.c_size_t), ("kernel_ms", ctypes.POINTER(ctypes.c_double)),
                ("threads", ctypes.c_int32), ("cuda_graph", ctypes.c_int32)]


_DTYPE_CODES = {name: code for code, (name, _) in _DTYPES.items()}


def _tensor_array(entries):
    """A FuseTensor array of (address, dtype name, shape) entries; the dims
    arrays live as long as it does."""
    array = (_Tensor * max(len(entries), 1))()
    array.dims = []
    for k, (address, dtype, shape) in enumerate(entries):
        dims = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        array.dims.append(dims)
        array[k] = _Tensor(address, _DTYPE_CODES[dtype], len(shape), dims)
    return array


def _candidates(env, relative):
    if os.environ.get(env):
        yield os.environ[env]
    for path in relative:
        yield os.path.normpath(os.path.join(_HERE, path))


def _load_runtime():
    # build/python/fuse -> build/lib; PREFIX/lib/python3/dist-packages/fuse -> PREFIX/lib
    tried = []
    for path in _candidates("FUSE_RUNTIME_LIB", ["../../lib/libfuse_runtime.so.1",
                                                 "../../../libfuse_runtime.so.1",
                                                 "../../../../lib/libfuse_runtime.so.1"]):
        tried.append(path)
        if os.path.isfile(path):
            lib = ctypes.CDLL(path)
            break
    else:
        try:
            lib = ctypes.CDLL("libfuse_runtime.so.1")
        except OSError:
            raise FuseError("cannot find libfuse_runtime.so.1 (tried " + ", ".join(tried)
                            + "; set FUSE_RUNTIME_LIB)")
    status = ctypes.c_void_p
    signatures = {
        "fuseStatusCode": (ctypes.c_int, [status]),
        "fuseStatusMessage": (ctypes.c_char_p, [status]),
        "fuseStatusFree": (None, [status]),
        "fuseModelLoad": (status, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]),
        "fuseModelRelease": (None, [ctypes.c_void_p]),
        "fuseModelTarget": (ctypes.c_char_p, [ctypes.c_void_p]),
        "fuseModelNumInputs": (ctypes.c_int32, [ctypes.c_void_p]),
        "fuseModelNumOutputs": (ctypes.c_int32, [ctypes.c_void_p]),
        "fuseModelInput": (status, [ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(_TensorInfo)]),
        "fuseModelOutput": (status, [ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(_TensorInfo)]),
        "fuseModelWorkspaceSize": (ctypes.c_size_t, [ctypes.c_void_p]),
        "fuseModelIsParallel": (ctypes.c_int, [ctypes.c_void_p]),
        "fuseRuntimeDefaultThreads": (ctypes.c_int32, []),
        "fuseModelRun": (status, [ctypes.c_void_p, ctypes.POINTER(_Tensor), ctypes.c_int32,
                                  ctypes.POINTER(_Tensor), ctypes.c_int32, ctypes.c_void_p]),
    }
    for name, (result, args) in signatures.items():
        function = getattr(lib, name)
        function.restype = result
        function.argtypes = args
    return lib


_lib = None


def _runtime():
    global _lib
    if _lib is None:
        _lib = _load_runtime()
    return _lib


def _check(status):
    if status:
        lib = _runtime()
        message = lib.fuseStatusMessage(status).decode(errors="replace")
        code = lib.fuseStatusCode(status)
        lib.fuseStatusFree(status)
        raise FuseError(message, code)


# --- models ----------------------------------------------------------------

def bfloat16_bits(values):
    """Float values (any array-like) as bfloat16 bits (a uint16 array of the
    same shape), rounded to the nearest, ties to even; NaN stays a quiet
    NaN of its sign. A bf16 input is given to a model as such bits."""
    f = np.asarray(values, dtype=np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    nan = ((bits >> 16) | 0x0040).astype(np.uint16)
    return np.where(np.isnan(f), nan, rounded)


def bfloat16_values(bits):
    """bfloat16 bits (a uint16 array, as a bf16 output comes back) as
    float32 values, exactly."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


class TensorInfo:
    """An input or output of a model: its name, element type and shape."""

    def __init__(self, name, dtype, shape):
        self.name, self.dtype, self.shape = name, dtype, tuple(shape)

    @property
    def numpy_dtype(self):
        return _DTYPES[_DTYPE_CODES[self.dtype]][1]

    def __repr__(self):
        return f"TensorInfo({self.name!r}, {self.dtype!r}, {self.shape})"


class Model:
    """A loaded compiled model. Call it with arrays (in input order, or by
    name), or run() a dict; outputs are new NumPy arrays."""

    def __init__(self, path, report=None):
        lib = _runtime()
        handle = ctypes.c_void_p()
        _check(lib.fuseModelLoad(os.fsencode(path), ctypes.byref(handle)))
        self._handle = handle
        self.path = path
        self.report = report
        self.target = lib.fuseModelTarget(handle).decode()
        self.workspace_size = lib.fuseModelWorkspaceSize(handle)
        # Loops a CPU model's calls spread over threads (run(threads=...)).
        self.parallel = bool(lib.fuseModelIsParallel(handle))
        self.inputs = [self._info(lib.fuseModelInput, k) for k in range(lib.fuseModelNumInputs(handle))]
        self.outputs = [self._info(lib.fuseModelOutput, k) for k in range(lib.fuseModelNumOutputs(handle))]

    def _info(self, query, index):
        info = _TensorInfo()
        _check(query(self._handle, index, ctypes.byref(info)))
        return TensorInfo(info.name.decode(errors="replace"), _DTYPES[info.dtype][0],
                          [info.dims[d] for d in range(info.rank)])

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle and _lib is not None:
            _lib.fuseModelRelease(handle)
            self._handle = None

    def run(self, feeds, threads=None):
        """Runs on `feeds` ({input name: array}); returns {output name: array}.
        `threads`: the threads a CPU model's call may use (None: the
        runtime's default, FUSE_NUM_THREADS or the CPUs this process may use).
        A GPU model takes the same host arrays: the runtime copies them to
        the device and the outputs back (run_pointers takes device memory)."""
        if threads is not None and (not isinstance(threads, int) or not 1 <= threads <= 1024):
            raise FuseError(f"threads must be an int from 1 to 1024, got {threads!r}")
        names = [info.name for info in self.inputs]
        unknown = sorted(set(feeds) - set(names))
        if unknown:
            raise FuseError(f"the model has no input {unknown[0]!r} (inputs: {', '.join(names)})")
        missing = [name for name in names if name not in feeds]
        if missing:
            raise FuseError(f"input {missing[0]!r} is not given")
        arrays = []
        for info in self.inputs:
            value = np.asarray(feeds[info.name])
            if value.dtype != info.numpy_dtype:
                if info.dtype == "bf16" or not np.can_cast(value.dtype, info.numpy_dtype, "same_kind"):
                    raise FuseError(f"input {info.name!r} is {info.dtype}; got a {value.dtype} array")
                value = value.astype(info.numpy_dtype)
            # (np.ascontiguousarray would make a 0-d array 1-d.)
            arrays.append(value if value.flags.c_contiguous else value.copy(order="C"))
        results = [np.empty(info.shape, info.numpy_dtype) for info in self.outputs]
        # Each array as it is (its own shape: the runtime says what differs).
        ins = _tensor_array([(a.ctypes.data, info.dtype, a.shape) for a, info in zip(arrays, self.inputs)])
        outs = _tensor_array([(a.ctypes.data, info.dtype, a.shape) for a, info in zip(results, self.outputs)])
        options = None
        if threads is not None:
            options = _RunOptions(ctypes.sizeof(_RunOptions), 0, None, None, 0, None, threads, 0)
            options = ctypes.byref(options)
        _check(_runtime().fuseModelRun(self._handle, ins, len(arrays), outs, len(results), options))
        return {info.name: value for info, value in zip(self.outputs, results)}

    def run_pointers(self, inputs, outputs, stream=None, memory="device", workspace=None,
                     workspace_bytes=0, cuda_graph=False):
        """Runs on buffers given as addresses (ints), in the model's input and
        output order, each as the model describes it: device memory of a GPU
        model (a CUDA array's address, e.g. torch's tensor.data_ptr()) on the
        CUstream `stream` (an int; None: the call's own), or host memory
        (memory="host"). `cuda_graph`: the call's launches as one CUDA graph,
        captured from `stream` on the first call and replayed by the next ones
        with the same addresses. Nothing is checked but what the C API checks."""
        if len(inputs) != len(self.inputs) or len(outputs) != len(self.outputs):
            raise FuseError(f"{len(inputs)} inputs and {len(outputs)} outputs given, the model has "
                            f"{len(self.inputs)} and {len(self.outputs)}")
        if memory not in ("device", "host"):
            raise FuseError(f"memory must be 'device' or 'host', got {memory!r}")
        ins = _tensor_array([(int(a), info.dtype, info.shape) for a, info in zip(inputs, self.inputs)])
        outs = _tensor_array([(int(a), info.dtype, info.shape) for a, info in zip(outputs, self.outputs)])
        options = _RunOptions(ctypes.sizeof(_RunOptions), 1 if memory == "device" else 0,
                              stream or None, workspace or None, workspace_bytes, None, 0,
                              1 if cuda_graph else 0)
        _check(_runtime().fuseModelRun(self._handle, ins, len(inputs), outs, len(outputs),
                                       ctypes.byref(options)))

    def __call__(self, *args, **kwargs):
        feeds = dict(kwargs)
        if len(args) > len(self.inputs):
            raise FuseError(f"{len(args)} inputs given, the model has {len(self.inputs)}")
        for info, value in zip(self.inputs, args):
            if info.name in feeds:
                raise FuseError(f"input {info.name!r} given twice")
            feeds[info.name] = value
        outputs = self.run(feeds)
        values = [outputs[info.name] for info in self.outputs]
        return values[0] if len(values) == 1 else tuple(values)

    def __repr__(self):
        return f"Model({self.path!r}, target={self.target!r}, inputs={self.inputs}, outputs={self.outputs})"


def load(path):
    """Loads a compiled model (a .so from fuse-compile)."""
    return Model(path)


def _fuse_compile():
    for path in _candidates("FUSE_COMPILE", ["../../bin/fuse-compile", "../../../../bin/fuse-compile"]):
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    found = shutil.which("fuse-compile")
    if not found:
        raise FuseError("cannot find fuse-compile (set FUSE_COMPILE)")
    return found


def compile(model, target="cpu", output=None, fusion_options="", unfused=False, extra_args=()):
    """Compiles `model` (.onnx or .mlir) with fuse-compile into `output` (a
    .so; default: a temporary file) and loads it; the returned model's
    `report` is the fusion report."""
    workdir = tempfile.mkdtemp(prefix="fuse-")
    temporary = output is None
    if temporary:
        output = os.path.join(workdir, os.path.splitext(os.path.basename(model))[0] + ".so")
    report = os.path.join(workdir, "report.json")
    command = [_fuse_compile(), os.fspath(model), f"--target={target}", "-o", os.fspath(output),
               "--report", report, "-q"]
    if fusion_options:
        command.append(f"--fusion-options={fusion_options}")
    if unfused:
        command.append("--unfused")
    command.extend(extra_args)
    try:
        proc = subprocess.run(command, capture_output=True, text=True, errors="replace")
        if proc.returncode != 0:
            raise FuseError(proc.stderr.strip() or f"fuse-compile failed with status {proc.returncode}")
        data = None
        if os.path.exists(report):
            with open(report) as f:
                data = json.load(f)
        # A temporary library is mapped once loaded; its file can go.
        return Model(output, report=data)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
