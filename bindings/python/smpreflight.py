"""Python binding of libsmpreflight: preflight checks for Amazon SageMaker
Training Compiler job specs, from Python, before the job is submitted.

    >>> import smpreflight
    >>> for f in smpreflight.check_file("job.yaml"):
    ...     print(f)
    job.yaml:16:20: error: GPU_NUM_DEVICES is "8" but 'ml.p3.8xlarge' has 4 GPUs [gpu-num-devices-mismatch]

ctypes and the standard library only. The shared library is looked for, in
this order, at the path in the SMPREFLIGHT_LIBRARY environment variable,
beside this file (the copy a wheel built by `pip install ./bindings/python`
bundles), and on the system's search path (LD_LIBRARY_PATH, then the ld.so
cache, e.g. after `make install`).

Text and paths are separate: check_text() takes YAML/JSON text (str or
bytes), check_file() a path, and check() text (str, bytes), a path only as
an os.PathLike (pathlib.Path), or a mapping (checked as JSON); a str is
never opened as a file.

A Context holds the options and the instance data; it is immutable and may
be used by many threads at once (the library releases the GIL while it
checks). The module-level check() and suggest() use a default Context.
"""

import ctypes
import ctypes.util
import difflib
import enum
import json
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import List, Optional, Sequence

__all__ = [
    "Context", "Error", "Finding", "Rule", "Severity", "Suggestion",
    "SuggestSide", "TestedRow", "check", "check_text", "check_file",
    "check_kwargs", "suggest", "rules", "version",
    "library_path", "has_errors", "Diagnosis", "diagnose", "__version__",
]

# The ABI this binding was written for (SMP_ABI_VERSION: the soname's major).
_ABI_MAJOR = 1
# The package's version: the library's it is built with (lib/smpreflight.h),
# written here by the wheel's build backend; version() is the loaded one.
__version__ = "0.0.0+source"
# The oldest library version with that ABI (smp_version()).
_MIN_VERSION = (0, 1)
# The smp_options layout version this binding fills (SMP_OPTIONS_VERSION).
_OPTIONS_VERSION = 5


# ---------------------------------------------------------------- loading

def _candidates():
    env = os.environ.get("SMPREFLIGHT_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("libsmpreflight.so.%d" % _ABI_MAJOR,):
        path = os.path.join(here, name)
        if os.path.exists(path):
            yield path
    # dlopen() with a bare name searches LD_LIBRARY_PATH and the ld.so cache
    yield "libsmpreflight.so.%d" % _ABI_MAJOR
    found = ctypes.util.find_library("smpreflight")
    if found:
        yield found


def _load():
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append("%s: %s" % (path, e))
    raise ImportError(
        "smpreflight: cannot load libsmpreflight (set SMPREFLIGHT_LIBRARY "
        "to the path of libsmpreflight.so.%d, put it beside smpreflight.py, "
        "or install it): %s" % (_ABI_MAJOR, "; ".join(errors)))


_lib, library_path = _load()


# ------------------------------------------------ the C structs (ABI 0)

_c_str = ctypes.c_char_p
_c_enum = ctypes.c_int


class _Error(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_int),
        ("source", ctypes.c_char * 256),
        ("line", ctypes.c_uint32),
        ("column", ctypes.c_uint32),
        ("offset", ctypes.c_size_t),
        ("message", ctypes.c_char * 512),
    ]


# the input limits: fields of smp_options (0 keeps a default)
_LIMITS = ("max_file_size", "max_depth", "max_nodes", "max_scalar_len",
           "max_documents")


class _RuleOverride(ctypes.Structure):
    _fields_ = [("rule", _c_str), ("severity", _c_enum)]


class _Names(ctypes.Structure):
    _fields_ = [("names", ctypes.POINTER(_c_str)), ("count", ctypes.c_size_t)]


class _MemoryDoc(ctypes.Structure):
    _fields_ = [("name", _c_str), ("buf", _c_str), ("len", ctypes.c_size_t)]


class _Options(ctypes.Structure):
    _fields_ = [
        # version 1
        ("version", ctypes.c_uint),
        ("allocator", ctypes.c_void_p),
        ("instance_data_dir", _c_str),
        ("max_file_size", ctypes.c_size_t),
        ("max_depth", ctypes.c_size_t),
        ("max_nodes", ctypes.c_size_t),
        ("max_scalar_len", ctypes.c_size_t),
        ("max_documents", ctypes.c_size_t),
        ("dialect", _c_enum),
        ("overrides", ctypes.POINTER(_RuleOverride)),
        ("override_count", ctypes.c_size_t),
        # version 2
        ("batch_size_names", _Names),
        ("learning_rate_names", _Names),
        ("model_names", _Names),
        ("global_batch_names", _Names),
        ("lr_scaling", _c_enum),
        ("short_run_steps", ctypes.c_long),
        ("no_script", ctypes.c_int),
        ("script_base_dir", _c_str),
        ("cache_dir", _c_str),
        ("offline", ctypes.c_int),
        ("instance_data", _MemoryDoc * 3),
        # version 3
        ("no_inline_ignores", ctypes.c_int),
        ("instance_overlay", _MemoryDoc),
        ("now", ctypes.c_int64),
        # version 4
        ("select", _Names),
        ("ignore", _Names),
        ("region", _c_str),
    ]


class _Finding(ctypes.Structure):
    _fields_ = [
        ("rule", _c_str),
        ("severity", _c_enum),
        ("message", _c_str),
        ("file", _c_str),
        ("line", ctypes.c_uint32),
        ("column", ctypes.c_uint32),
        ("end_line", ctypes.c_uint32),
        ("end_column", ctypes.c_uint32),
        ("pointer", _c_str),
        ("fix", _c_str),
        ("suggestion", _c_str),
        ("source_line", _c_str),
        ("suppressed", ctypes.c_int),
        ("suppression_reason", _c_str),
        ("cell", ctypes.c_uint32),
        ("cell_line", ctypes.c_uint32),
        ("cell_column", ctypes.c_uint32),
        ("cell_end_column", ctypes.c_uint32),
        ("suggestion_op", _c_enum),
        ("suggestion_type", _c_enum),
        ("suggestion_pointer", _c_str),
        ("suggestion_from", _c_str),
        ("edit_text", _c_str),
        ("edit_start", ctypes.c_size_t),
        ("edit_end", ctypes.c_size_t),
        ("edit_unsafe", ctypes.c_int),
    ]


class _RuleInfo(ctypes.Structure):
    _fields_ = [
        ("id", _c_str),
        ("default_severity", _c_enum),
        ("group", _c_str),
        ("summary", _c_str),
        ("explanation", _c_str),
        ("source", _c_str),
        ("once_per_run", ctypes.c_int),
    ]


class _SuggestOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("to_instance", _c_str)]


class _TestedRow(ctypes.Structure):
    _fields_ = [
        ("framework", _c_str),
        ("framework_version", _c_str),
        ("transformers_version", _c_str),
        ("model", _c_str),
        ("instance_type", _c_str),
        ("precision", _c_str),
        ("sequence_length", ctypes.c_int),
        ("instance_count", ctypes.c_int),
        ("native_batch_size", ctypes.c_int),
        ("compiler_batch_size", ctypes.c_int),
        ("batch_size_is_lower_bound", ctypes.c_int),
        ("batch_per_instance", ctypes.c_int),
        ("compiler_batch_per_gpu", ctypes.c_double),
    ]


class _SuggestSide(ctypes.Structure):
    _fields_ = [
        ("instance_type", _c_str),
        ("gpus", ctypes.c_int),
        ("instance_count", ctypes.c_longlong),
        ("gpu_model", _c_str),
        ("gpu_memory_gib", ctypes.c_double),
        ("batch_per_gpu", ctypes.c_double),
        ("global_batch", ctypes.c_double),
        ("learning_rate", ctypes.c_double),
    ]


class _Suggestion(ctypes.Structure):
    _fields_ = [
        ("outcome", _c_enum),
        ("file", _c_str),
        ("message", _c_str),
        ("model", _c_str),
        ("batch_name", _c_str),
        ("batch_is_global", ctypes.c_int),
        ("batch_reading", _c_str),
        ("lr_name", _c_str),
        ("lr_scaling", _c_enum),
        ("now", ctypes.POINTER(_SuggestSide)),
        ("next", ctypes.POINTER(_SuggestSide)),
        ("k", ctypes.c_double),
        ("relation", _c_enum),
        ("row", ctypes.POINTER(_TestedRow)),
        ("row_choice", _c_str),
        ("notes", _c_str),
        ("fragment", _c_str),
        ("report", ctypes.c_void_p),
        ("patched", _c_str),
        ("patched_len", ctypes.c_size_t),
    ]


def _proto(name, restype, *argtypes):
    try:
        fn = getattr(_lib, name)
    except AttributeError:
        raise ImportError("smpreflight: %s has no %s(): it is not ABI %d "
                          "(libsmpreflight.so.%d)" % (library_path, name,
                                                      _ABI_MAJOR, _ABI_MAJOR)
                          ) from None
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


_P = ctypes.c_void_p
_ERR = ctypes.POINTER(_Error)
_smp_version = _proto("smp_version", _c_str)
_smp_strerror = _proto("smp_strerror", _c_str, ctypes.c_int)
_smp_context_new = _proto("smp_context_new", ctypes.c_int,
                          ctypes.POINTER(_P), ctypes.POINTER(_Options), _ERR)
_smp_context_free = _proto("smp_context_free", None, _P)
_smp_context_data_version = _proto("smp_context_data_version", _c_str, _P)
_smp_context_data_date = _proto("smp_context_data_date", _c_str, _P)
_smp_context_data_source = _proto("smp_context_data_source", _c_str, _P)
_smp_check_buffer = _proto("smp_check_buffer", ctypes.c_int,
                           ctypes.POINTER(_P), _P, _c_str, _c_str,
                           ctypes.c_size_t, _ERR)
_smp_check_file = _proto("smp_check_file", ctypes.c_int, ctypes.POINTER(_P),
                         _P, _c_str, _ERR)


class _CheckOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("baseline", _P),
                ("script_dir", _c_str), ("format", _c_enum),
                ("flags", ctypes.c_uint)]


_SMP_CHECK_WALKED = 1
_SMP_CHECK_ALL_JOBS = 2
_smp_check = _proto("smp_check", ctypes.c_int, ctypes.POINTER(_P), _P,
                    _c_str, _c_str, ctypes.c_size_t,
                    ctypes.POINTER(_CheckOptions), _ERR)
_smp_report_jobs = _proto("smp_report_jobs", ctypes.c_size_t, _P)
_smp_report_jobs_skipped = _proto("smp_report_jobs_skipped", ctypes.c_size_t,
                                  _P)
_smp_report_free = _proto("smp_report_free", None, _P)
_smp_report_count = _proto("smp_report_count", ctypes.c_size_t, _P)
_smp_report_get = _proto("smp_report_get", ctypes.POINTER(_Finding), _P,
                         ctypes.c_size_t)
_smp_report_render_text = _proto(
    "smp_report_render_text", ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t,
    ctypes.POINTER(ctypes.c_size_t), _P, _c_enum, ctypes.c_uint)
_smp_rule_count = _proto("smp_rule_count", ctypes.c_size_t)
_smp_rule_at = _proto("smp_rule_at", ctypes.POINTER(_RuleInfo),
                      ctypes.c_size_t)
_smp_suggest = _proto(
    "smp_suggest", ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), _P,
    _c_str, _c_str, ctypes.c_size_t, ctypes.POINTER(_SuggestOptions), _ERR)
_smp_suggestion_free = _proto("smp_suggestion_free", None, _P)
_smp_suggestion_emit_text = _proto("smp_suggestion_emit_text", ctypes.c_int,
                                   _P, _P, _P)


class _DiagnoseOptions(ctypes.Structure):
    _fields_ = [
        ("version", ctypes.c_uint),
        ("baseline_name", _c_str),
        ("baseline", ctypes.c_void_p),
        ("baseline_len", ctypes.c_size_t),
        ("log_name", _c_str),
        ("log", ctypes.c_void_p),
        ("log_len", ctypes.c_size_t),
        ("source_dir", _c_str),
        ("log_read", ctypes.c_void_p),  # the log is passed whole: NULL
        ("log_ud", ctypes.c_void_p),
    ]


# SMP_DIAGNOSE_OPTIONS_VERSION and SMP_DIAGNOSIS_SCHEMA_VERSION
_DIAGNOSE_OPTIONS_VERSION = 2
_DIAGNOSIS_SCHEMA_VERSION = 1

_smp_diagnose_buffer = _proto(
    "smp_diagnose_buffer", ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), _P,
    _c_str, ctypes.c_char_p, ctypes.c_size_t,
    ctypes.POINTER(_DiagnoseOptions), _ERR)
_smp_diagnosis_free = _proto("smp_diagnosis_free", None, _P)
_smp_diagnosis_found = _proto("smp_diagnosis_found", ctypes.c_int, _P)
_smp_diagnosis_emit_text = _proto("smp_diagnosis_emit_text", ctypes.c_int,
                                  _P, ctypes.c_void_p, ctypes.c_void_p)
_smp_diagnosis_emit_json = _proto("smp_diagnosis_emit_json", ctypes.c_int,
                                  _P, ctypes.c_void_p, ctypes.c_void_p)


class _Membuf(ctypes.Structure):
    _fields_ = [("buf", ctypes.c_char_p), ("size", ctypes.c_size_t),
                ("len", ctypes.c_size_t)]


# the library's own fixed-buffer sink, passed back to it as an smp_write_fn
_membuf_write = ctypes.cast(_lib.smp_membuf_write_fn, ctypes.c_void_p)


# ------------------------------------------------------------ the values

class Severity(enum.IntEnum):
    """A finding's severity; compares as a number (ERROR > WARNING)."""
    OFF = 0
    INFO = 1
    WARNING = 2
    ERROR = 3

    def __str__(self):
        return self.name.lower()

    @classmethod
    def parse(cls, value):
        if isinstance(value, Severity):
            return value
        try:
            return cls[str(value).upper()]
        except KeyError:
            raise ValueError("unknown severity %r: error, warning, info or "
                             "off" % (value,)) from None


_STATUS = {0: "SMP_OK", -1: "SMP_ENOMEM", -2: "SMP_EIO", -3: "SMP_EPARSE",
           -4: "SMP_EINVAL", -5: "SMP_ELIMIT", -6: "SMP_EFETCH",
           -7: "SMP_EINTERNAL"}


class Error(Exception):
    """An operational error of the library (not a finding): a file that
    cannot be read, invalid options, bad instance data, out of memory.
    code is the negative SMP_E* status, name its symbol (e.g. "SMP_EIO");
    source, line and column say where (0 when unknown)."""

    def __init__(self, code, message, source="", line=0, column=0):
        self.code = code
        self.name = _STATUS.get(code, "SMP_E?")
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        where = source
        if source and line:
            where += ":%d" % line + (":%d" % column if column else "")
        super().__init__("%s: %s" % (where, message) if where else message)


def _s(value):
    return None if value is None else value.decode("utf-8", "replace")


def _raise(rc, err):
    raise Error(rc, _s(err.message) or _s(_smp_strerror(rc)),
                _s(err.source) or "", err.line, err.column)


# smp_suggestion_op and smp_value_type
_SUGGESTION_SET, _SUGGESTION_RENAME = 1, 2
_VALUE_STRING, _VALUE_NUMBER, _VALUE_BOOLEAN = 0, 1, 2


def _suggestion_of(f):
    """A finding's typed replacement, or None."""
    value, pointer = _s(f.suggestion), _s(f.suggestion_pointer)
    if value is None or pointer is None:
        return None
    if f.suggestion_op == _SUGGESTION_RENAME:
        return {"op": "rename", "from": _s(f.suggestion_from),
                "pointer": pointer}
    if f.suggestion_op != _SUGGESTION_SET:
        return None
    if f.suggestion_type == _VALUE_NUMBER:
        typed = json.loads(value)
    elif f.suggestion_type == _VALUE_BOOLEAN:
        typed = value == "true"
    else:
        typed = value
    return {"op": "set", "pointer": pointer, "value": typed}


@dataclass(frozen=True)
class Finding:
    """One finding; str() gives 'file:line:col: severity: message [rule]'."""
    rule: str
    severity: Severity
    message: str
    file: str
    line: int  # 1-based; 0 when the finding has no position
    column: int
    end_line: int
    end_column: int  # exclusive
    pointer: Optional[str]  # JSON Pointer, e.g. "/environment/GPU_NUM_DEVICES"
    fix: Optional[str]
    # the fix as a replacement, as in the JSON report: {"op": "set",
    # "pointer": P, "value": V} (V a str, int, float or bool: the field's
    # type) or {"op": "rename", "from": P0, "pointer": P}; None
    suggestion: Optional[dict]
    source_line: Optional[str]
    # an inline "# sm-preflight: ignore[rule] reason" comment hides it
    suppressed: bool = False
    suppression_reason: Optional[str] = None
    # in a Jupyter notebook: the 1-based cell and the place within it
    cell: int = 0
    cell_line: int = 0
    cell_column: int = 0

    def __str__(self):
        where = self.file
        if self.cell:
            where += ":cell %d:%d:%d" % (self.cell, self.cell_line,
                                         self.cell_column)
        elif self.line:
            where += ":%d:%d" % (self.line, self.column)
        return "%s: %s: %s [%s]" % (where, self.severity, self.message,
                                    self.rule)

    @classmethod
    def _from_c(cls, f):
        return cls(_s(f.rule), Severity(f.severity), _s(f.message),
                   _s(f.file), f.line, f.column, f.end_line, f.end_column,
                   _s(f.pointer), _s(f.fix), _suggestion_of(f),
                   _s(f.source_line), bool(f.suppressed),
                   _s(f.suppression_reason), f.cell, f.cell_line,
                   f.cell_column)


@dataclass(frozen=True)
class Rule:
    id: str
    default_severity: Severity
    group: str
    summary: str
    explanation: str
    source: str


@dataclass(frozen=True)
class TestedRow:
    """The tested-models row a suggestion used."""
    framework: str
    framework_version: str
    transformers_version: Optional[str]
    model: str
    instance_type: str
    precision: Optional[str]
    sequence_length: int
    instance_count: int
    native_batch_size: int
    compiler_batch_size: int
    batch_size_is_lower_bound: bool
    batch_per_instance: bool
    compiler_batch_per_gpu: float


@dataclass(frozen=True)
class SuggestSide:
    """The job on one instance type, before or after the suggestion."""
    instance_type: Optional[str]
    gpus: int
    instance_count: int
    gpu_model: Optional[str]
    gpu_memory_gib: float
    batch_per_gpu: float
    global_batch: float
    learning_rate: float


_OUTCOMES = {0: "ok", 1: "no_row", 2: "unavailable", 3: "errors"}
_RELATIONS = {0: None, 1: "exact", 2: "same_gpu"}


@dataclass(frozen=True)
class Suggestion:
    """A batch-size and learning-rate suggestion (`sm-preflight suggest`).

    outcome is "ok" (a batch from a tested row), "no_row" (no tested row
    applies), "unavailable" (something the arithmetic needs is missing) or
    "errors" (the spec has error-level findings); str() is the full text.
    """
    outcome: str
    file: str
    message: str
    model: Optional[str]
    batch_name: Optional[str]
    batch_is_global: bool
    batch_reading: Optional[str]
    lr_name: Optional[str]
    lr_scaling: str
    now: SuggestSide
    next: Optional[SuggestSide]  # None when no batch was worked out
    k: float
    relation: Optional[str]  # "exact", "same_gpu" or None
    row: Optional[TestedRow]
    row_choice: Optional[str]
    notes: Optional[str]
    fragment: Optional[str]  # the changed spec, ready to paste
    findings: List[Finding]
    text: str

    def __str__(self):
        return self.text


@dataclass(frozen=True)
class Diagnosis:
    """The troubleshooting guide run against a job that already ran
    (`sm-preflight diagnose`). Each part is as `diagnose --format json`
    writes it (schemas/diagnosis.schema.json): job, situations (id,
    verdict "yes"/"no"/"cannot-tell", detail, section), causes (id,
    summary, advice, page, section, source, line, evidence, count),
    checklist (id, title, state "problem"/"looks-right"/"cannot-tell",
    detail, rule, file, line, column, needs) and hyperparameters (name,
    value, baseline_value, differs). text is the report the CLI prints."""
    file: str
    job: dict
    baseline: Optional[str]
    log: Optional[str]
    situations: list
    causes: list
    hyperparameters: list
    checklist: list
    found: bool  # a cause or a checklist problem: diagnose exits 1
    text: str

    def __str__(self):
        return self.text

    def situation(self, id):
        """The verdict of one situation: "failed", "not-converging" or
        "not-faster"."""
        for s in self.situations:
            if s["id"] == id:
                return s["verdict"]
        raise KeyError(id)

    @property
    def problems(self):
        """The checklist items that found a problem."""
        return [i for i in self.checklist if i["state"] == "problem"]


def _side(s):
    return SuggestSide(_s(s.instance_type), s.gpus, s.instance_count,
                       _s(s.gpu_model), s.gpu_memory_gib, s.batch_per_gpu,
                       s.global_batch, s.learning_rate)


def _row(r):
    return TestedRow(_s(r.framework), _s(r.framework_version),
                     _s(r.transformers_version), _s(r.model),
                     _s(r.instance_type), _s(r.precision), r.sequence_length,
                     r.instance_count, r.native_batch_size,
                     r.compiler_batch_size, bool(r.batch_size_is_lower_bound),
                     bool(r.batch_per_instance), r.compiler_batch_per_gpu)


def _findings(report, include_suppressed=False):
    out = []
    for i in range(_smp_report_count(report)):
        f = Finding._from_c(_smp_report_get(report, i).contents)
        if include_suppressed or not f.suppressed:
            out.append(f)
    return out


def _to_bytes(value):
    if isinstance(value, str):
        return value.encode("utf-8")
    return bytes(value)


def _source(source, name):
    """(name, bytes) for a spec given as text, or (path, None) for a file.

    str and bytes are always text, mappings are written as JSON, and only
    an os.PathLike is a file: a one-line str is never opened."""
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        return path, None
    if isinstance(source, (bytes, bytearray, memoryview)):
        return name or "<string>", bytes(source)
    if isinstance(source, str):
        return name or "<string>", source.encode("utf-8")
    if isinstance(source, Mapping):
        return name or "<dict>", json.dumps(source, indent=2).encode("utf-8")
    raise TypeError("a spec is YAML/JSON text (str or bytes), a mapping, or "
                    "an os.PathLike path, not %s" % type(source).__name__)


def _ranged(what, value, lo, hi):
    """value as an int in [lo, hi], or ValueError (ctypes would wrap it)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be an int, not %s"
                        % (what, type(value).__name__))
    if not lo <= value <= hi:
        raise ValueError("%s must be between %d and %d, not %d"
                         % (what, lo, hi, value))
    return value


_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1
_LONG_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_long) - 1) - 1
_INT64_MAX = 2 ** 63 - 1


def _names(values, keep):
    n = _Names()
    if values:
        arr = (_c_str * len(values))(*[_to_bytes(v) for v in values])
        keep.append(arr)
        n.names = arr
        n.count = len(values)
    return n


def _selectors(value):
    """select/ignore: a list, or one comma-separated str."""
    if isinstance(value, (str, bytes)):
        sep = "," if isinstance(value, str) else b","
        return [v.strip() for v in value.split(sep) if v.strip()]
    return list(value) if value else []


_DIALECTS = {None: 0, "auto": 0, "estimator": 1, "model_trainer": 2,
             "create_training_job": 3}
_SCALINGS = {None: 0, "linear": 0, "sqrt": 1}


class Context:
    """Options and instance data for checking; immutable once made and safe
    to share between threads. Every argument is optional:

    instance_data_dir  a folder holding instances.json, tested-models.json
                       and frameworks.json (default: the data built in)
    instance_data      the same three documents as (instances,
                       tested_models, frameworks) str/bytes, or a mapping
                       from those file names
    dialect            "estimator", "model_trainer" or
                       "create_training_job" instead of detecting it
    select, ignore     which rules run: rule ids, group names ("instance",
                       "script", ...) and "ALL", as a list or one
                       comma-separated str; the most specific name wins
                       (a rule id over its group over "ALL"), ignore a tie
    severities         {rule id: "error" | "warning" | "info" | "off"} for
                       the rules that run
    disable            rule ids to turn off
    batch_size_names, learning_rate_names, model_names, global_batch_names
                       hyperparameter names (lists) instead of the defaults
    lr_scaling         "linear" (default) or "sqrt"
    short_run_steps    short-run threshold (default 100)
    script_checks      False skips the entry-script rules
    script_base_dir    where a spec given as text finds its entry script
    limits             {"max_file_size": bytes, "max_depth": n, ...}
    cache_dir          the folder of refreshed instance data
    instance_overlay   JSON text {"schema_version": 1, "instances": [...]}
                       adding or replacing instance types
    inline_ignores     False ignores "# sm-preflight: ignore[rule]" comments
    now                the time (seconds since the epoch) suppression
                       comments' until= dates are compared with (0: now)
    region             the AWS region the jobs run in where a spec names
                       none ("us-west-2"); None: unknown (the binding
                       reads no environment either)
    """

    def __init__(self, *, instance_data_dir=None, instance_data=None,
                 dialect=None, severities=None, disable=(),
                 batch_size_names=None, learning_rate_names=None,
                 model_names=None, global_batch_names=None, lr_scaling=None,
                 short_run_steps=0, script_checks=True, script_base_dir=None,
                 limits=None, cache_dir=None, instance_overlay=None,
                 inline_ignores=True, now=0, select=None, ignore=None,
                 region=None):
        keep = []  # Python objects the C struct points into
        o = _Options()
        o.version = _OPTIONS_VERSION
        if instance_data_dir is not None:
            o.instance_data_dir = _to_bytes(os.fspath(instance_data_dir))
        if instance_data is not None:
            if isinstance(instance_data, Mapping):
                instance_data = [instance_data[k] for k in (
                    "instances.json", "tested-models.json",
                    "frameworks.json")]
            docs = [_to_bytes(d) for d in instance_data]
            if len(docs) != 3:
                raise ValueError("instance_data: three documents")
            keep.append(docs)
            for i, d in enumerate(docs):
                o.instance_data[i].buf = d
                o.instance_data[i].len = len(d)
        try:
            o.dialect = _DIALECTS[dialect]
            o.lr_scaling = _SCALINGS[lr_scaling]
        except KeyError as e:
            raise ValueError("unknown value %s" % e) from None
        overrides = [(r, Severity.OFF) for r in disable]
        overrides += [(r, Severity.parse(v))
                      for r, v in (severities or {}).items()]
        if overrides:
            arr = (_RuleOverride * len(overrides))(
                *[_RuleOverride(_to_bytes(r), int(v)) for r, v in overrides])
            keep.append(arr)
            o.overrides = arr
            o.override_count = len(overrides)
        o.batch_size_names = _names(batch_size_names, keep)
        o.learning_rate_names = _names(learning_rate_names, keep)
        o.model_names = _names(model_names, keep)
        o.global_batch_names = _names(global_batch_names, keep)
        o.short_run_steps = _ranged("short_run_steps", short_run_steps, 0,
                                    _LONG_MAX)
        o.no_script = 0 if script_checks else 1
        if script_base_dir is not None:
            o.script_base_dir = _to_bytes(os.fspath(script_base_dir))
        if cache_dir is not None:
            o.cache_dir = _to_bytes(os.fspath(cache_dir))
        if instance_overlay is not None:
            overlay = _to_bytes(instance_overlay)
            keep.append(overlay)
            o.instance_overlay.buf = overlay
            o.instance_overlay.len = len(overlay)
        o.no_inline_ignores = 0 if inline_ignores else 1
        o.select = _names(_selectors(select), keep)
        o.ignore = _names(_selectors(ignore), keep)
        if region is not None:
            o.region = _to_bytes(region)
        o.now = _ranged("now", now, 0, _INT64_MAX)
        for k, v in (limits or {}).items():
            if k not in _LIMITS:
                raise ValueError("unknown limit %r" % k)
            # 0 keeps the default; -1 would wrap to "unlimited"
            setattr(o, k, _ranged("limits[%r]" % k, v, 0, _SIZE_MAX))
        ctx = _P()
        err = _Error()
        rc = _smp_context_new(ctypes.byref(ctx), ctypes.byref(o),
                              ctypes.byref(err))
        if rc:
            _raise(rc, err)
        self._ctx = ctx

    def close(self):
        """Frees the context; using it afterwards raises ValueError."""
        ctx, self._ctx = getattr(self, "_ctx", None), None
        if ctx and _smp_context_free is not None:  # None at shutdown
            _smp_context_free(ctx)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _handle(self):
        if not self._ctx:
            raise ValueError("the context is closed")
        return self._ctx

    @property
    def data_version(self):
        """The instance data's data_version."""
        return _s(_smp_context_data_version(self._handle()))

    @property
    def data_date(self):
        """The instance data's generated date (YYYY-MM-DD)."""
        return _s(_smp_context_data_date(self._handle()))

    @property
    def data_source(self):
        """Where the data came from: "built-in", a folder, a URL, "memory"."""
        return _s(_smp_context_data_source(self._handle()))

    def _report(self, source, name):
        ctx = self._handle()
        label, buf = _source(source, name)
        rep = _P()
        err = _Error()
        if buf is None:
            rc = _smp_check_file(ctypes.byref(rep), ctx, _to_bytes(label),
                                 ctypes.byref(err))
        else:
            rc = _smp_check_buffer(ctypes.byref(rep), ctx, _to_bytes(label),
                                   buf, len(buf), ctypes.byref(err))
        if rc:
            _raise(rc, err)
        return rep

    def check(self, source, *, name=None,
              include_suppressed=False) -> List[Finding]:
        """Checks one spec: YAML/JSON text (str or bytes), a mapping
        (checked as JSON), or a file given as an os.PathLike
        (pathlib.Path); a str is always text, never a path (check_file()
        takes a str path). name labels text in findings. Returns the
        findings in source order, without those an inline ignore comment
        suppresses unless include_suppressed; raises Error when a file
        cannot be read."""
        rep = self._report(source, name)
        try:
            return _findings(rep, include_suppressed)
        finally:
            _smp_report_free(rep)

    def check_kwargs(self, cls, kwargs, *, name="<kwargs>",
                     include_suppressed=False) -> List[Finding]:
        """Checks the keyword arguments a job is about to be created with:
        cls is "HuggingFace", "PyTorch", "TensorFlow", "Estimator",
        "ModelTrainer" or "create_training_job", kwargs the mapping the
        call receives, SDK objects included (right before
        estimator.fit()). Objects are read by duck typing: anything with
        .enabled and .debug is a TrainingCompilerConfig, a model with
        .model_dump() (Compute, SourceCode ...) its fields; anything else
        (a Session, a PipelineVariable) is unknown, and no rule guesses
        about it. Line N of a finding is the Nth keyword argument, and its
        pointer starts with the argument's name."""
        _check_kwargs_args(cls, kwargs)
        return self.check(_kwargs_text(cls, kwargs, name), name=name,
                          include_suppressed=include_suppressed)

    def check_text(self, text, name="<string>", *,
                   include_suppressed=False) -> List[Finding]:
        """check() for YAML/JSON text (str or bytes) labelled name."""
        if not isinstance(text, (str, bytes, bytearray, memoryview)):
            raise TypeError("check_text() takes str or bytes, not %s"
                            % type(text).__name__)
        return self.check(_to_bytes(text), name=name,
                          include_suppressed=include_suppressed)

    def check_file(self, path, *, include_suppressed=False) -> List[Finding]:
        """check() for the file at path (str or os.PathLike)."""
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError("check_file() takes a path, not %s"
                            % type(path).__name__)
        return self.check(_PathStr(os.fspath(path)),
                          include_suppressed=include_suppressed)

    def check_walked(self, path, *, all_jobs=False, include_suppressed=False):
        """check_file() for a file a walk found, as `sm-preflight check DIR`
        reads it: a file whose content shows no training job gets no
        finding, and only jobs that use or mean to use Training Compiler
        are judged (all jobs with all_jobs). Returns (findings, jobs
        judged, jobs not judged); (no findings, 0, 0) is a file without a
        training job."""
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError("check_walked() takes a path, not %s"
                            % type(path).__name__)
        opts = _CheckOptions()
        opts.version = 2
        opts.flags = _SMP_CHECK_WALKED | (_SMP_CHECK_ALL_JOBS if all_jobs
                                          else 0)
        rep = _P()
        err = _Error()
        rc = _smp_check(ctypes.byref(rep), self._handle(),
                        _to_bytes(os.fspath(path)), None, 0,
                        ctypes.byref(opts), ctypes.byref(err))
        if rc:
            _raise(rc, err)
        try:
            return (_findings(rep, include_suppressed),
                    _smp_report_jobs(rep), _smp_report_jobs_skipped(rep))
        finally:
            _smp_report_free(rep)

    def render_text(self, source, *, name=None, min_severity="info",
                    color=False) -> str:
        """The findings of one spec as the CLI prints them: each finding's
        line, the source excerpt with a caret and the fix."""
        rep = self._report(source, name)
        try:
            need = ctypes.c_size_t()
            sev = int(Severity.parse(min_severity))
            flags = 1 if color else 0
            rc = _smp_report_render_text(None, 0, ctypes.byref(need), rep,
                                         sev, flags)
            if rc:
                raise Error(rc, _s(_smp_strerror(rc)))
            buf = ctypes.create_string_buffer(need.value + 1)
            rc = _smp_report_render_text(buf, len(buf), None, rep, sev,
                                         flags)
            if rc:
                raise Error(rc, _s(_smp_strerror(rc)))
            return buf.value.decode("utf-8", "replace")
        finally:
            _smp_report_free(rep)

    def suggest(self, source, *, to=None, name=None) -> Suggestion:
        """A batch size and learning rate for the spec's job from the
        tested-models table (`sm-preflight suggest`); to= moves the job to
        another instance type. The spec is given as for check()."""
        ctx = self._handle()
        label, buf = _source(source, name)
        so = _SuggestOptions(1, None if to is None else _to_bytes(to))
        out = _P()
        err = _Error()
        rc = _smp_suggest(ctypes.byref(out), ctx, _to_bytes(label), buf,
                          0 if buf is None else len(buf), ctypes.byref(so),
                          ctypes.byref(err))
        if rc:
            _raise(rc, err)
        try:
            s = ctypes.cast(out, ctypes.POINTER(_Suggestion)).contents
            # next is filled when a batch is suggested, and k with it
            now, nxt = s.now.contents, s.next.contents
            has_next = s.k != 0 or nxt.batch_per_gpu != 0
            return Suggestion(
                _OUTCOMES.get(s.outcome, str(s.outcome)), _s(s.file),
                _s(s.message), _s(s.model), _s(s.batch_name),
                bool(s.batch_is_global), _s(s.batch_reading), _s(s.lr_name),
                "sqrt" if s.lr_scaling == 1 else "linear", _side(now),
                _side(nxt) if has_next else None, s.k,
                _RELATIONS.get(s.relation), _row(s.row.contents)
                if s.row else None, _s(s.row_choice), _s(s.notes),
                _s(s.fragment),
                _findings(s.report) if s.report else [],
                _suggestion_text(out))
        finally:
            _smp_suggestion_free(out)

    def diagnose(self, describe, *, baseline=None, log=None,
                 source_dir=None, name=None) -> "Diagnosis":
        """Runs the Training Compiler troubleshooting guide against a job
        that already ran (`sm-preflight diagnose`). describe is its
        DescribeTrainingJob response and baseline (optional) that of the
        same job run without the compiler, each given as for check(): an
        os.PathLike path, JSON/YAML text (str or bytes), or the dict
        boto3's describe_training_job() returns (datetimes as ISO 8601
        text). log is the job's CloudWatch log (an os.PathLike path, or
        text as str or bytes); source_dir a local copy of its code. Raises Error
        (SMP_EPARSE) when describe or baseline is not a readable job."""
        return _diagnose(self._handle(), describe, baseline, log,
                         source_dir, name)


def _iso(value):
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError("%s is not JSON serializable" % type(value).__name__)


def _input(source, name, what):
    """bytes of a DescribeTrainingJob response or log given as for
    check(): an os.PathLike path, text (str or bytes) or (responses) a
    mapping."""
    if isinstance(source, Mapping):
        # boto3's dict: datetimes as ISO 8601, as the AWS CLI prints them
        source = json.dumps(source, indent=2, default=_iso).encode("utf-8")
        name = name or "<dict>"
    label, buf = _source(source, name)
    if buf is None:
        try:
            with open(label, "rb") as f:
                buf = f.read()
        except OSError as e:
            raise Error(-2, "cannot read %s '%s': %s"
                        % (what, label, e.strerror), label) from None
    return label, buf


def _emit(fn, handle):
    """The output of an emitter (fn(handle, write, ud)) as a str, by the
    two-call membuf protocol: measure, then write."""
    m = _Membuf(None, 0, 0)
    rc = fn(handle, _membuf_write, ctypes.byref(m))
    if rc:
        raise Error(rc, _s(_smp_strerror(rc)))
    buf = ctypes.create_string_buffer(m.len + 1)
    m = _Membuf(ctypes.cast(buf, ctypes.c_char_p), len(buf), 0)
    rc = fn(handle, _membuf_write, ctypes.byref(m))
    if rc:
        raise Error(rc, _s(_smp_strerror(rc)))
    return buf.value.decode("utf-8", "replace")


def _diagnose(ctx, describe, baseline, log, source_dir, name):
    label, buf = _input(describe, name, "the response")
    o = _DiagnoseOptions(_DIAGNOSE_OPTIONS_VERSION)
    keep = []
    if baseline is not None:
        bl, bb = _input(baseline, None, "the baseline")
        keep.append(bb)
        o.baseline_name = _to_bytes(bl)
        o.baseline = ctypes.cast(ctypes.c_char_p(bb), ctypes.c_void_p)
        o.baseline_len = len(bb)
    if log is not None:
        ll, lb = _input(log, "log", "the log")
        o.log_name = _to_bytes(ll)
        o.log = ctypes.cast(ctypes.c_char_p(lb), ctypes.c_void_p)
        o.log_len = len(lb)
        keep.append(lb)
    if source_dir is not None:
        o.source_dir = _to_bytes(os.fspath(source_dir))
    out = _P()
    err = _Error()
    rc = _smp_diagnose_buffer(ctypes.byref(out), ctx, _to_bytes(label), buf,
                              len(buf), ctypes.byref(o), ctypes.byref(err))
    if rc:
        _raise(rc, err)
    try:
        data = json.loads(_emit(_smp_diagnosis_emit_json, out))
        if data["schema_version"] != _DIAGNOSIS_SCHEMA_VERSION:
            raise Error(-4, "unexpected diagnosis schema_version %r"
                        % data["schema_version"])
        return Diagnosis(data["file"], data["job"], data["baseline"],
                         data["log"], data["situations"], data["causes"],
                         data["hyperparameters"], data["checklist"],
                         bool(_smp_diagnosis_found(out)),
                         _emit(_smp_diagnosis_emit_text, out))
    finally:
        _smp_diagnosis_free(out)


class _PathStr(str):
    """A str that _source() takes as a path whatever it holds."""

    def __fspath__(self):
        return str(self)



def _suggestion_text(s):
    return _emit(_smp_suggestion_emit_text, s)


# -------------------------------------------------- module-level helpers

# the library's tags for a value it cannot know and for a Python tuple
_UNKNOWN = "!<tag:sm-preflight,2026:unknown> "
_TUPLE = "!<tag:sm-preflight,2026:tuple> "


# bounds of check_kwargs(): nesting, and values in all (a structure that
# shares one list many times is as big as it reads)
_KWARGS_DEPTH = 32
_KWARGS_NODES = 100000


class _KwargsText:
    """The keyword arguments of one job as YAML flow text, in bounded
    time: a container inside itself is a value not known, sharing counts
    every visit against one budget of values, and an exception raised
    while reading a value (a property, a __str__, an int too long to
    print) becomes an Error naming the argument, never escapes raw."""

    def __init__(self, name):
        self.name = name
        self.nodes = 0
        self.open = set()  # ids of the containers being written
        self.line = 0
        self.arg = ""

    def fail(self, code, what):
        raise Error(code, "keyword argument '%s': %s" % (self.arg, what),
                    self.name, self.line)

    def value(self, value, depth=0):
        """One value as YAML flow text; SDK objects by duck typing."""
        self.nodes += 1
        if self.nodes > _KWARGS_NODES:
            self.fail(-5, "more than %d values in all (a structure that "
                      "repeats itself?)" % _KWARGS_NODES)
        if depth > _KWARGS_DEPTH:
            return _UNKNOWN + json.dumps("...")
        if value is None or isinstance(value, (bool, str)):
            return json.dumps(value)
        if isinstance(value, int):
            if value.bit_length() > 256:
                self.fail(-4, "an integer of %d bits is too large to "
                          "check; pass it as a string"
                          % value.bit_length())
            return str(int(value))
        if isinstance(value, float):
            if value != value:
                return ".nan"
            if value in (float("inf"), float("-inf")):
                return ".inf" if value > 0 else "-.inf"
            return repr(value)
        if isinstance(value, (Mapping, list, tuple)):
            if id(value) in self.open:
                # d['a'] = d: what it holds is itself, not a value
                return _UNKNOWN + json.dumps("<a container inside itself>")
            self.open.add(id(value))
            try:
                return self.container(value, depth)
            finally:
                self.open.discard(id(value))
        if hasattr(value, "enabled") and hasattr(value, "debug"):
            # sagemaker.*.TrainingCompilerConfig
            return self.value({"enabled": value.enabled,
                               "debug": value.debug}, depth + 1)
        dump = getattr(value, "model_dump", None)
        if callable(dump):
            # the pydantic configs of ModelTrainer (Compute, SourceCode ...)
            try:
                dumped = dump(exclude_none=True)
            except Exception:  # noqa: BLE001 - any failure: not known
                dumped = None
            if dumped is not None:
                return self.value(dumped, depth + 1)
        return _UNKNOWN + json.dumps(repr(value)[:200])

    def container(self, value, depth):
        if isinstance(value, Mapping):
            return "{" + ", ".join(
                json.dumps(str(k)) + ": " + self.value(v, depth + 1)
                for k, v in value.items()) + "}"
        items = "[" + ", ".join(self.value(v, depth + 1)
                                for v in value) + "]"
        return _TUPLE + items if isinstance(value, tuple) else items

    def argument(self, key, value):
        """One line: the keyword argument key and its value."""
        self.line += 1
        self.arg = str(key)
        try:
            return json.dumps(self.arg) + ": " + self.value(value)
        except Error:
            raise
        except RecursionError:
            self.fail(-5, "nested too deeply to read")
        except Exception as e:  # noqa: BLE001 - the caller's code raised
            try:
                why = str(e)[:200]
            except Exception:  # noqa: BLE001 - even its message raises
                why = ""
            self.fail(-4, "reading it raised %s%s" % (
                type(e).__name__, ": " + why if why else ""))


_JOB_CLASSES = ("HuggingFace", "PyTorch", "TensorFlow", "Estimator",
                "ModelTrainer", "create_training_job")


def _check_kwargs_args(cls, kwargs):
    """check_kwargs()'s arguments: a known job class (with the nearest
    spelling when it is not one) and a mapping of keyword arguments."""
    if not isinstance(cls, str):
        raise TypeError("check_kwargs() takes the job class as a str "
                        "(e.g. 'HuggingFace'), not %s" % type(cls).__name__)
    if cls not in _JOB_CLASSES:
        near = difflib.get_close_matches(cls, _JOB_CLASSES, n=1, cutoff=0.6)
        lower = [c for c in _JOB_CLASSES if c.lower() == cls.lower()]
        hint = lower or near
        raise ValueError("unknown job class %r%s (one of %s)"
                         % (cls, "; did you mean %r?" % hint[0] if hint
                            else "", ", ".join(_JOB_CLASSES)))
    if not isinstance(kwargs, Mapping):
        raise TypeError("check_kwargs() takes the keyword arguments as a "
                        "mapping (a dict), not %s" % type(kwargs).__name__)


def _kwargs_text(cls, kwargs, name="<kwargs>"):
    """The job as a spec, one keyword argument per line, then the class."""
    if cls in ("HuggingFace", "PyTorch", "TensorFlow"):
        tail = ["estimator: " + cls]
    elif cls in ("Estimator", "ModelTrainer", "create_training_job"):
        tail = []
    else:
        raise ValueError("unknown job class %r" % (cls,))
    w = _KwargsText(name)
    lines = [w.argument(k, v) for k, v in kwargs.items()]
    return ("\n".join(lines + tail) + "\n").encode("utf-8")


_default = None
_default_lock = threading.Lock()


def _default_context():
    global _default
    with _default_lock:
        if _default is None:
            _default = Context()
        return _default


def check(source, *, name=None, include_suppressed=False) -> List[Finding]:
    """Context().check() with the default options and the built-in data."""
    return _default_context().check(source, name=name,
                                    include_suppressed=include_suppressed)


def check_text(text, name="<string>", *,
               include_suppressed=False) -> List[Finding]:
    """Context().check_text() with the default options."""
    return _default_context().check_text(
        text, name, include_suppressed=include_suppressed)


def check_file(path, *, include_suppressed=False) -> List[Finding]:
    """Context().check_file() with the default options."""
    return _default_context().check_file(
        path, include_suppressed=include_suppressed)


def check_kwargs(cls, kwargs, *, name="<kwargs>",
                 include_suppressed=False) -> List[Finding]:
    """Context().check_kwargs() with the default options and data."""
    return _default_context().check_kwargs(
        cls, kwargs, name=name, include_suppressed=include_suppressed)


def suggest(source, *, to=None, name=None) -> Suggestion:
    """Context().suggest() with the default options and built-in data."""
    return _default_context().suggest(source, to=to, name=name)


def diagnose(describe, *, baseline=None, log=None, source_dir=None,
             name=None) -> Diagnosis:
    """Context().diagnose() with the default options and built-in data."""
    return _default_context().diagnose(describe, baseline=baseline, log=log,
                                       source_dir=source_dir, name=name)


def rules() -> List[Rule]:
    """Every rule, in table order."""
    out = []
    for i in range(_smp_rule_count()):
        r = _smp_rule_at(i).contents
        out.append(Rule(_s(r.id), Severity(r.default_severity), _s(r.group),
                        _s(r.summary), _s(r.explanation), _s(r.source)))
    return out


def version() -> str:
    """The library's version, e.g. "0.1.0"."""
    return _s(_smp_version())


def has_errors(findings: Sequence[Finding]) -> bool:
    """True when a finding is an error that no inline comment suppresses:
    the job should not be submitted."""
    return any(f.severity >= Severity.ERROR and not f.suppressed
               for f in findings)


# ---------------------------------------------------------------- fixes

class _FixOptions(ctypes.Structure):
    _fields_ = [
        ("version", ctypes.c_uint),
        ("unsafe_fixes", ctypes.c_int),
        ("max_passes", ctypes.c_uint),
        ("script_dir", _c_str),
        ("format", _c_enum),
        ("baseline", ctypes.c_void_p),
        ("flags", ctypes.c_uint),
    ]


class _FixResult(ctypes.Structure):
    _fields_ = [
        ("text", ctypes.c_void_p),
        ("len", ctypes.c_size_t),
        ("changed", ctypes.c_int),
        ("applied", ctypes.c_void_p),
        ("applied_count", ctypes.c_size_t),
        ("passes", ctypes.c_uint),
        ("converged", ctypes.c_int),
        ("unsafe_skipped", ctypes.c_size_t),
        ("report", ctypes.c_void_p),
    ]


_smp_fix = _proto("smp_fix", ctypes.c_int, ctypes.POINTER(_P), _P, _c_str,
                  _c_str, ctypes.c_size_t, ctypes.POINTER(_FixOptions), _ERR)
_smp_fix_result_free = _proto("smp_fix_result_free", None, _P)


def fix(source, *, name=None, unsafe_fixes=False, context=None):
    """The spec with its fixes applied (`sm-preflight check --fix`): text
    (str or bytes, labelled name) or a file given as an os.PathLike, which
    is read, not written. Only the edited spans change. unsafe_fixes also
    applies the fixes that change what is trained (batch size, learning
    rate, instance type, versions). Returns str for str input and for a
    file, bytes for bytes."""
    ctx = (context or _default_context())._handle()
    label, buf = _source(source, name)
    if buf is None:
        with open(label, "rb") as f:
            buf = f.read()
    opts = _FixOptions(2, 1 if unsafe_fixes else 0, 0, None, 0, None, 0)
    out = _P()
    err = _Error()
    rc = _smp_fix(ctypes.byref(out), ctx, _to_bytes(label), buf, len(buf),
                  ctypes.byref(opts), ctypes.byref(err))
    if rc:
        _raise(rc, err)
    try:
        r = ctypes.cast(out, ctypes.POINTER(_FixResult)).contents
        text = ctypes.string_at(r.text, r.len)
    finally:
        _smp_fix_result_free(out)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return text
    return text.decode("utf-8")


__all__.append("fix")

if tuple(int(x) for x in version().split(".")[:2]) < _MIN_VERSION:
    raise ImportError("smpreflight: %s is version %s; this binding needs "
                      "%d.%d or later (ABI %d)"
                      % ((library_path, version()) + _MIN_VERSION
                         + (_ABI_MAJOR,)))


# from a source tree (no wheel wrote the version above): the library's
if __version__ == "0.0.0+source":
    __version__ = version()
