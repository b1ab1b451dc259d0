#!/usr/bin/env python3
"""Generate the job-spec schemas of the three dialects from the reference.

    python3 schemas/generate.py [SPEC_FIELDS_JSON] [OUTDIR]

writes OUTDIR/estimator.schema.json, OUTDIR/model-trainer.schema.json and
OUTDIR/create-training-job.schema.json (requests, and DescribeTrainingJob
responses from schemas/botocore-sagemaker.json, see schemas/botocore.py),
and OUTDIR/create-hyper-parameter-tuning-job.schema.json (from
schemas/botocore-sagemaker-tuning.json, botocore.py --tuning).  SPEC_FIELDS_JSON defaults to
../shared/reference/spec-fields.json (relative to the repository root),
OUTDIR to the folder of this script.  Python 3 standard library only; the
output is deterministic and committed, CI never runs this.

The field lists (estimator kwargs and legacy names, the ModelTrainer
pydantic models of SDK v2 and v3, the CreateTrainingJob members with their
API limits) are taken from spec-fields.json, never re-typed here.  What
this file adds is the mapping from the reference's type descriptions to
JSON Schema, a few types the descriptions leave implicit (FIELD_TYPES), the
YAML form of what Python builds from objects (ModelTrainer's 'distributed'
names its runner class), and the sm-preflight annotations (x-smp-rule,
x-smp-message, x-smp-did-you-mean) that lib/schema.c interprets.  Anything
it cannot map is an error, so a new SDK field cannot slip through untyped.
"""

import json
import os
import re
import sys

ESTIMATORS = ("HuggingFace", "PyTorch", "TensorFlow")

# Nested fields whose description names them without a type.  Every other
# untyped nested field is a string ("every value ... must be a string").
FIELD_TYPES = {
    "instance_count": {"type": "integer", "minimum": 1},
    "system_monitor_interval_millis": {"type": "integer", "minimum": 1},
    "disable_profiler": {"type": "boolean"},
    # Profiler(cpu_profiling_duration="3600", file_rotation_interval="600")
    "cpu_profiling_duration": {"type": ["string", "integer"]},
    "file_rotation_interval": {"type": ["string", "integer"]},
}

# Types of the distribution strategies' sub-keys.
DISTRIBUTION_SUBKEY_TYPES = {
    "enabled": {"type": "boolean"},
    "processes_per_host": {"type": "integer", "minimum": 1},
    "custom_mpi_options": {"type": "string"},
    "parameters": {"type": "object"},
}

# Keys that belong to another estimator class and have an equivalent here.
ESTIMATOR_DID_YOU_MEAN = {
    "PyTorch": {"pytorch_version": "framework_version"},
    "TensorFlow": {"tensorflow_version": "framework_version"},
}

DISTRIBUTION_DID_YOU_MEAN = {"torchxla": "pytorchxla", "pytorch_xla": "pytorchxla"}

UNKNOWN_KWARG_MESSAGE = (
    "the SDK silently ignores unknown arguments, so this setting has no effect"
)

GPU_NUM_DEVICES = {
    "description": "Number of GPUs per instance that PyTorch/XLA uses; a "
    "positive whole number as a string, equal to the instance type's GPU "
    "count (SageMaker Training Compiler troubleshooting, 'Missing XLA "
    "configuration').",
    "type": "string",
    "pattern": "^[1-9][0-9]*$",
    "x-smp-rule": "gpu-num-devices-invalid",
    "x-smp-message": 'must be a positive whole number written as a string, e.g. "4"',
}


API_LIMIT = "(a CreateTrainingJob limit)"

# The hyperparameters that switch the compiler on in a request (SDK R31):
# the container reads the strings "true" and "false".
COMPILER_FLAGS = (
    "sagemaker_training_compiler_enabled",
    "sagemaker_training_compiler_debug_mode",
    "sagemaker_pytorch_xla_multi_worker_enabled",
)


class GenError(Exception):
    pass


def api_limit(**keywords):
    """A subschema holding only limits, reported as api-limits; kept in
    an allOf so that a value of the wrong type stays a wrong-type finding."""
    return dict(keywords, **{"x-smp-rule": "api-limits"})


def environment_schema(limits):
    """Environment variables: a string map with the API's limits, and
    GPU_NUM_DEVICES spelled out (every dialect sends it as Environment)."""
    key, value = limits["key"], limits["value"]
    return {
        "type": "object",
        "properties": {"GPU_NUM_DEVICES": GPU_NUM_DEVICES},
        "additionalProperties": {
            "type": "string",
            "x-smp-rule": "value-not-string",
            "allOf": [
                api_limit(
                    maxLength=value["max"],
                    **{
                        "x-smp-message": "must be at most %d characters long %s"
                        % (value["max"], API_LIMIT)
                    }
                )
            ],
        },
        "propertyNames": api_limit(
            pattern="^" + key["pattern"] + "$",
            maxLength=key["max"],
            **{
                "x-smp-message": "is not an environment variable name the API "
                "accepts: letters, digits and '_', not starting with a digit, "
                "at most %d characters" % key["max"]
            }
        ),
        "allOf": [
            api_limit(
                maxProperties=limits["max_entries"],
                **{
                    "x-smp-message": "must have at most %d entries %s"
                    % (limits["max_entries"], API_LIMIT)
                }
            )
        ],
    }


# every framework estimator adds these to the request's hyperparameters
# (SDK R31); the compiler and distribution settings may add more
SDK_HYPERPARAMETERS = (
    "sagemaker_program",
    "sagemaker_submit_directory",
    "sagemaker_container_log_level",
    "sagemaker_job_name",
    "sagemaker_region",
)


def hyperparameters_schema(limits, value, flags, sdk_adds=()):
    """Hyperparameters: value is the schema of one value (before the
    length limit); flags, when given, is the schema of the compiler
    switches; sdk_adds names the entries the SDK adds to the map."""
    key, vmax = limits["key"], limits["value"]["max"]
    entries = limits["max_entries"] - len(sdk_adds)
    count_message = "must have at most %d entries %s" % (entries, API_LIMIT)
    if sdk_adds:
        count_message = (
            "must have at most %d entries: the API allows %d and the SDK "
            "adds %d of its own (%s)"
            % (entries, limits["max_entries"], len(sdk_adds), ", ".join(sdk_adds))
        )
    out = {"type": "object"}
    if flags is not None:
        out["properties"] = {k: dict(flags) for k in COMPILER_FLAGS}
    out["additionalProperties"] = dict(
        value,
        allOf=[
            api_limit(
                maxLength=vmax,
                **{
                    "x-smp-message": "must be at most %d characters long %s"
                    % (vmax, API_LIMIT)
                }
            )
        ],
    )
    out["propertyNames"] = api_limit(
        maxLength=key["max"],
        **{
            "x-smp-message": "is longer than the %d characters the API allows "
            "for a hyperparameter name" % key["max"]
        }
    )
    out["allOf"] = [api_limit(maxProperties=entries, **{"x-smp-message": count_message})]
    return out


# --- the reference's shape notation: {name: type (note) = default, ...} ----

TOKEN = re.compile(r"\s*([A-Za-z0-9_]+|->|[{}\[\]:,()=|;<>.])")


def tokenize(text):
    pos, out = 0, []
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip() == "":
                break
            raise GenError("cannot read %r at %r" % (text, text[pos:]))
        out.append(m.group(1))
        pos = m.end()
    return out


class ShapeParser:
    """Reads '{a, b: str, c: {str: str}, d: [{e, f: int}]}' into a tree:
    ('shape', [(name, type or None, note)]), ('map', type), ('list', type),
    or a scalar type name ('str', 'int', 'bool')."""

    def __init__(self, text):
        self.toks = tokenize(text)
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want=None):
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise GenError("expected %r, got %r in %r" % (want, tok, self.toks))
        self.i += 1
        return tok

    def parse_type(self):
        tok = self.peek()
        if tok == "[":
            self.take("[")
            inner = self.parse_type()
            self.take("]")
            return ("list", inner)
        if tok == "{":
            # {str: T} is a map, {name, ...} a shape
            if self.toks[self.i + 1] == "str" and self.toks[self.i + 2] == ":":
                self.take("{")
                self.take("str")
                self.take(":")
                inner = self.parse_type()
                self.take("}")
                return ("map", inner)
            return self.parse_shape()
        if tok in ("str", "int", "bool"):
            return self.take()
        raise GenError("unknown type %r in %r" % (tok, self.toks))

    def parse_shape(self):
        self.take("{")
        fields = []
        while True:
            name = self.take()
            ftype, note = None, ""
            if self.peek() == ":":
                self.take(":")
                ftype = self.parse_type()
            if self.peek() == "(":
                depth, words = 0, []
                while True:
                    tok = self.take()
                    depth += tok == "("
                    depth -= tok == ")"
                    if depth == 0:
                        break
                    if tok != "(":
                        words.append(tok)
                note = " ".join(words)
                if note == "bool" and ftype is None:
                    ftype, note = "bool", ""
            if self.peek() == "=":
                self.take("=")
                self.take()
            fields.append((name, ftype, note))
            if self.peek() == ",":
                self.take(",")
                continue
            self.take("}")
            return ("shape", fields)


def balanced(text, start):
    """text[start:] up to the brace that closes text[start]."""
    depth = 0
    for i in range(start, len(text)):
        depth += text[i] in "{["
        depth -= text[i] in "}]"
        if depth == 0:
            return text[start : i + 1]
    raise GenError("unbalanced braces in %r" % text)


def schema_of(tree, path):
    """JSON Schema for a parsed shape tree; path names the location."""
    if tree == "str":
        return {"type": "string"}
    if tree == "int":
        return {"type": "integer"}
    if tree == "bool":
        return {"type": "boolean"}
    kind, inner = tree
    if kind == "list":
        return {"type": "array", "items": schema_of(inner, path + "[]")}
    if kind == "map":
        return {"type": "object", "additionalProperties": schema_of(inner, path)}
    props = {}
    for name, ftype, note in inner:
        if ftype is not None:
            sub = schema_of(ftype, path + "." + name)
        elif name in FIELD_TYPES:
            sub = dict(FIELD_TYPES[name])
        else:
            sub = {"type": "string"}
        if note:
            sub = dict(sub, description=note[0].upper() + note[1:] + ".")
        props[name] = sub
    return {"type": "object", "properties": props, "additionalProperties": False}


def shape_keys(tree):
    return [name for name, _, _ in tree[1]]


def check_keys(what, got, want):
    if list(got) != list(want):
        raise GenError("%s: description keys %s != field list %s" % (what, got, want))


# --- one kwarg -------------------------------------------------------------


def kwarg_schema(name, detail, ref):
    """Maps a kwarg's 'yaml' description to JSON Schema."""
    yaml = detail["yaml"]
    head = yaml.split(" (")[0]

    if yaml.startswith("PYTHON OBJECT"):
        return {"description": "No YAML form: " + yaml}
    if name == "distribution":
        return None  # per estimator, see distribution_schema
    if name == "environment" and yaml == "mapping str -> str":
        return environment_schema(ref["_api_env"])
    if yaml.startswith("mapping str -> scalar"):
        # a mapping or list value is sent too: Framework.set_hyperparameters
        # json.dumps() every value (EstimatorBase._json_encode_
        # hyperparameters), and the generic Estimator json.dumps() them
        # with a source_dir, else _Job._get_train_args str()s them
        return hyperparameters_schema(
            ref["_api_hp"],
            {"type": ["string", "number", "boolean", "object", "array"]},
            flags=None,
            sdk_adds=SDK_HYPERPARAMETERS,
        )
    if yaml.startswith("mapping str -> str"):
        return {"type": "object", "additionalProperties": {"type": "string"}}
    if yaml.startswith("mapping (") or yaml == "mapping":
        return {"type": "object"}

    m = re.match(r"^str: ([A-Za-z]+(?: \| [A-Za-z]+)+)$", yaml)
    if m:
        return {"type": "string", "enum": m.group(1).split(" | ")}
    if re.match(r"^str \([^)]*\) or false\b", yaml):
        return {"anyOf": [{"type": "string"}, {"const": False}]}
    if head == "str" or yaml == "str":
        return {"type": "string"}
    if head == "int" or yaml == "int":
        out = {"type": "integer"}
        m = re.match(r"^int \((\d+)-(\d+) per API\)$", yaml)
        if m:
            out["minimum"] = int(m.group(1))
            out["maximum"] = int(m.group(2))
        if name == "instance_count":
            out["minimum"] = 1
        return out
    if yaml == "bool":
        return {"type": "boolean"}
    if head.startswith("list of str"):
        return {"type": "array", "items": {"type": "string"}}

    brace = yaml.find("{")
    if brace < 0:
        raise GenError("%s: cannot map yaml form %r" % (name, yaml))
    parser = ShapeParser(balanced(yaml, brace))
    tree = parser.parse_shape()
    out = schema_of(tree, name)

    if yaml.startswith("list of {"):
        out = {"type": "array", "items": out}
        if "a plain mapping {key: value} is also accepted" in yaml:
            out["type"] = ["array", "object"]
            out["additionalProperties"] = {"type": "string"}
    elif yaml.startswith("false | true | mapping {"):
        out["type"] = ["boolean", "object"]
    elif not yaml.startswith("mapping"):
        raise GenError("%s: cannot map yaml form %r" % (name, yaml))

    # the keys the description spells must be the reference's field lists
    lists = {
        "compiler_config": "compiler_config",
        "debugger_hook_config": "debugger_hook_config",
        "tensorboard_output_config": "tensorboard_output_config",
        "profiler_config": "profiler_config",
        "instance_groups": "instance_group",
        "git_config": "git_config",
        "tags": "tag",
        "metric_definitions": "metric_definition",
        "instance_placement_config": "instance_placement_config",
    }
    if name not in lists:
        raise GenError("%s: no field list for the shape %r" % (name, yaml))
    check_keys(name, shape_keys(tree), ref[lists[name]])
    obj = out["items"] if "items" in out else out
    if name == "debugger_hook_config":
        coll = obj["properties"]["collection_configs"]["items"]
        check_keys("collection_config", list(coll["properties"]), ref["collection_config"])
    if name == "profiler_config":
        pp = obj["properties"]["profile_params"]
        check_keys("profile_params", list(pp["properties"]), ref["profiler_profile_params"])
        obj["properties"]["framework_profile_params"] = {
            "description": "Deprecated FrameworkProfile settings.",
            "type": "object",
            "properties": {k: {} for k in ref["framework_profile_params"]},
            "additionalProperties": False,
        }
    if name == "instance_placement_config":
        ps = obj["properties"]["PlacementSpecifications"]["items"]
        check_keys(
            "placement_specification", list(ps["properties"]), ref["placement_specification"]
        )
    return out


def allow_null(sch):
    """null is the SDK's None: the default of an optional argument (AWS's
    own notebooks pass debugger_hook_config=None), never a wrong type."""
    sch = dict(sch)
    t = sch.get("type")
    if isinstance(t, str):
        sch["type"] = [t, "null"]
    elif isinstance(t, list) and "null" not in t:
        sch["type"] = t + ["null"]
    elif "anyOf" in sch:
        sch["anyOf"] = sch["anyOf"] + [{"type": "null"}]
    return sch


def describe(name, details):
    """The property description: YAML form, SDK type, default, required."""
    first = details[0][1]
    parts = ["YAML: " + first["yaml"] + "."]

    def per_estimator(field, skip):
        values = [(e, d[field]) for e, d in details if d[field] not in skip]
        if not values:
            return None
        if len({v for _, v in values}) == 1 and len(values) == len(details):
            return str(values[0][1])
        return "; ".join("%s: %s" % (e, v) for e, v in values)

    sdk_type = per_estimator("type", ())
    parts.append("SDK type: " + sdk_type + ".")
    default = per_estimator("default", ("(none)",))
    if default:
        parts.append("Default: " + default + ".")
    required = per_estimator("required", (False, None, ""))
    if required:
        parts.append("Required: " + required + ".")
    if len(details) < len(ESTIMATORS):
        parts.append("Accepted by " + ", ".join(e for e, _ in details) + " only.")
    return " ".join(parts)


# --- distribution ----------------------------------------------------------


def strategy_schema(key, sub):
    """Schema of one distribution strategy such as pytorchxla."""
    if isinstance(sub[key], str):
        # instance_groups: a list of the estimator's instance groups
        return {"description": sub[key][0].upper() + sub[key][1:] + ".", "type": "array"}
    props = {}
    for k in sub[key]:
        nested = key + "." + k
        if nested in sub:
            props[k] = strategy_schema(nested, sub)
        elif k in DISTRIBUTION_SUBKEY_TYPES:
            props[k] = dict(DISTRIBUTION_SUBKEY_TYPES[k])
        else:
            raise GenError("distribution %s: no type for sub-key %r" % (key, k))
    return {"type": "object", "properties": props, "additionalProperties": False}


def distribution_schema(keys):
    quoted = ", ".join("'%s'" % k for k in keys)
    return {
        "description": "Distributed training strategy: a mapping strategy -> "
        "settings. Known keys: " + ", ".join(keys) + ".",
        "type": "object",
        # the key check sits one level down so that a non-mapping value
        # stays a wrong-type finding
        "allOf": [
            {
                "properties": {k: {"$ref": "#/$defs/distribution." + k} for k in keys},
                "additionalProperties": False,
                "x-smp-rule": "distribution-unknown-key",
                "x-smp-message": "the SDK acts only on "
                + quoted
                + " and silently ignores any other key",
                "x-smp-did-you-mean": DISTRIBUTION_DID_YOU_MEAN,
            }
        ],
    }


# --- the whole schema ------------------------------------------------------


def estimator_def(title, est_names, props_order, kwarg_refs, legacy, dym, est_schema, dist_ref, ignored=()):
    props = {"estimator": est_schema}
    for name in props_order:
        props[name] = {"$ref": kwarg_refs[name]} if name != "distribution" else {"$ref": dist_ref}
    for old, new in legacy:
        props[old] = {
            "$ref": kwarg_refs[new] if new != "distribution" else dist_ref,
            "description": "Legacy name of '%s' (renamed in sagemaker>=2); the "
            "SDK still maps it and logs a DeprecationWarning." % new,
            "deprecated": True,
        }
    out = {
        "title": title,
        "description": "Keyword arguments of the SageMaker Python SDK v2 "
        + " / ".join(est_names)
        + " estimator, plus 'estimator' naming the class.",
        "properties": props,
        "additionalProperties": False,
        "x-smp-message": UNKNOWN_KWARG_MESSAGE,
        # EstimatorBase.__init__(**kwargs) swallows what it does not know:
        # a key of another estimator class, or one that misspells none of
        # this class's arguments, leaves a job that runs (a warning); a
        # misspelling of a real argument loses that setting (an error)
        "x-smp-unknown-severity": "warning",
    }
    if ignored:
        out["x-smp-ignored-keys"] = sorted(ignored)
    if dym:
        out["x-smp-did-you-mean"] = dym
    return out


def generate_estimator(ref):
    est = dict(ref["estimator"])
    api = ref["create_training_job"]
    est["_api_env"] = api["Environment_limits"]
    est["_api_hp"] = api["HyperParameters_limits"]
    dist = est["distribution_keys"]
    defs = {}

    # one $defs entry per kwarg, shared by the estimators
    union = []
    for e in ESTIMATORS:
        for name in est[e]:
            if name not in union:
                union.append(name)
    by_name = {}
    for e in ESTIMATORS:
        detail = {d["name"]: d for d in est["details"][e]}
        if sorted(detail) != sorted(est[e]):
            raise GenError("%s: details do not match the kwarg list" % e)
        for name in est[e]:
            by_name.setdefault(name, []).append((e, detail[name]))
    kwarg_refs = {}
    for name in union:
        details = by_name[name]
        forms = {d["yaml"] for _, d in details}
        if len(forms) != 1:
            raise GenError("%s: estimators disagree on the yaml form %s" % (name, forms))
        sch = kwarg_schema(name, details[0][1], est)
        if sch is None:
            continue
        sch = dict({"description": describe(name, details)}, **sch) if "description" not in sch else sch
        if all(d["default"] == "None" for _, d in details):
            sch = allow_null(sch)
        defs["kwarg." + name] = sch
        kwarg_refs[name] = "#/$defs/kwarg." + name

    # distribution strategies and the per-estimator key sets
    sub = dist["sub_keys"]
    all_keys = []
    for e in ESTIMATORS:
        for k in dist[e]:
            if k not in all_keys:
                all_keys.append(k)
    for k in all_keys:
        defs["distribution." + k] = strategy_schema(k, sub)
    for e in ESTIMATORS:
        defs["distribution@" + e] = distribution_schema(dist[e])
    defs["distribution@any"] = distribution_schema(all_keys)

    legacy_all = list(est["renamed"].items())
    for e in ESTIMATORS:
        legacy = [
            (old, new)
            for old, new in est["renamed_by_estimator"][e].items()
        ]
        defs[e] = estimator_def(
            "a %s estimator" % e,
            [e],
            est[e],
            kwarg_refs,
            legacy,
            ESTIMATOR_DID_YOU_MEAN.get(e),
            {
                "description": "The estimator class: sagemaker.%s." % e.lower()
                + "."
                + e,
                "const": e,
            },
            "#/$defs/distribution@" + e,
            [k for k in union if k not in est[e]],
        )
    legacy_union = list(legacy_all)
    for e in ESTIMATORS:
        for old, new in est["renamed_by_estimator"][e].items():
            if (old, new) not in legacy_union:
                legacy_union.append((old, new))
    defs["AnyEstimator"] = estimator_def(
        "an estimator",
        list(ESTIMATORS),
        union,
        kwarg_refs,
        legacy_union,
        None,
        {
            "description": "The estimator class (HuggingFace, PyTorch or "
            "TensorFlow); decides which keyword arguments are accepted.",
            "enum": list(ESTIMATORS),
        },
        "#/$defs/distribution@any",
    )

    # if estimator == HuggingFace then ... else if PyTorch ... else union
    chain = {"$ref": "#/$defs/AnyEstimator"}
    for e in reversed(ESTIMATORS):
        chain = {
            "if": {
                "properties": {"estimator": {"const": e}},
                "required": ["estimator"],
            },
            "then": {"$ref": "#/$defs/" + e},
            "else": chain,
        }
    meta = ref.get("_meta", {}).get("sdk_v2", "")
    out = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:sm-preflight:schema:estimator:1",
        "$comment": "generated by schemas/generate.py from "
        "reference/spec-fields.json; do not edit",
        "title": "sm-preflight estimator job spec",
        "description": "A SageMaker Training Compiler job written as the "
        "keyword arguments of a SageMaker Python SDK v2 estimator (" + meta + "), "
        "plus 'estimator' naming the class: HuggingFace, PyTorch or TensorFlow.",
        "type": "object",
    }
    out.update(chain)
    out["$defs"] = defs
    return out


# --- ModelTrainer ----------------------------------------------------------

MT_ROOT = "ModelTrainer"

# Python objects without a YAML form: any value passes, the description says so
MT_PYTHON_OBJECTS = {
    "sagemaker_session": "a sagemaker_core Session object",
    "config_mgr": "a SageMakerConfig object (SDK v3)",
}

MT_UNKNOWN_MESSAGE = (
    "ModelTrainer rejects unknown fields (pydantic extra='forbid'), so the "
    "job would not even be created"
)

# ModelTrainer.distributed is the abstract DistributedConfig: a YAML spec
# names the concrete class, lower case, as the key of a one-entry mapping
MT_RUNNERS = {"torchrun": "Torchrun", "mpi": "MPI"}


def split_top(text):
    """'A, B[C, D], E' -> ['A', 'B[C, D]', 'E']."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        depth += ch == "["
        depth -= ch == "]"
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def inner(text, head):
    if not (text.startswith(head + "[") and text.endswith("]")):
        return None
    return text[len(head) + 1 : -1]


SCALARS = {"str": "string", "int": "integer", "bool": "boolean", "float": "number"}


def py_schema(t, classes, path):
    """JSON Schema for a pydantic field type such as Optional[List[Tag]].
    None is not accepted: a YAML null means 'leave it out'."""
    t = t.strip()
    for head in ("Optional",):
        arg = inner(t, head)
        if arg is not None:
            return py_schema(arg, classes, path)
    arg = inner(t, "Union")
    if arg is not None:
        alts = [
            a
            for a in split_top(arg)
            if a != "NoneType" and not a.endswith("PipelineVariable")
        ]
        if len(alts) == 1:
            return py_schema(alts[0], classes, path)
        subs = [py_schema(a, classes, path) for a in alts]
        if all(set(x) == {"type"} and isinstance(x["type"], str) for x in subs):
            return {"type": [x["type"] for x in subs]}
        return {"anyOf": subs}
    arg = inner(t, "List")
    if arg is not None:
        return {"type": "array", "items": py_schema(arg, classes, path + "[]")}
    arg = inner(t, "Dict")
    if arg is not None:
        k, v = split_top(arg)
        if k != "str":
            raise GenError("%s: map keys of type %s" % (path, k))
        return {
            "type": "object",
            "additionalProperties": {} if v == "Any" else py_schema(v, classes, path),
        }
    if t in SCALARS:
        return {"type": SCALARS[t]}
    if t == "Any":
        return {}
    if t.startswith("<enum 'Mode"):
        return {"type": "string", "enum": ["SAGEMAKER_TRAINING_JOB", "LOCAL_CONTAINER"]}
    name = t.split(".")[-1]
    if name in classes:
        return {"$ref": "#/$defs/" + name}
    raise GenError("%s: cannot map the type %r" % (path, t))


def mt_classes(mt):
    """Every config class, SDK v2 fields then what v3 adds, by name."""
    classes = {}
    for version, details in (("v2", mt["details"]), ("v3", mt["v3"]["details"])):
        for cls, det in details.items():
            if "(api-shape)" in cls:
                continue  # same field names as the SDK's own class
            got = classes.setdefault(cls, {"fields": [], "names": set()})
            for f in det["fields"]:
                if f["name"] in got["names"]:
                    continue
                got["names"].add(f["name"])
                got["fields"].append(dict(f, since=version))
    # the lists in spec-fields.json are the reference: the details agree
    for cls in mt["ModelTrainer"] and [MT_ROOT, "Compute", "SourceCode"]:
        want = set(mt[cls]) | set(mt["v3"].get(cls, []))
        if set(classes[cls]["names"]) != want:
            raise GenError("%s: details %s != list %s" % (cls, classes[cls]["names"], want))
    return classes


def mt_field_description(f):
    parts = ["Type: %s." % f["type"]]
    if f["default"] not in ("None", "REQUIRED") and not f["default"].startswith("<"):
        parts.append("Default: %s." % f["default"])
    if f["required"]:
        parts.append("Required.")
    if f["since"] == "v3":
        parts.append("SDK v3 only.")
    return " ".join(parts)


def mt_merged_input(classes):
    """input_data_config items: a Channel shape or the SDK's InputData,
    one mapping with the fields of both (a typo then gets did-you-mean
    instead of an anyOf of two mappings)."""
    props = {}
    for cls in ("InputData", "Channel"):
        for f in classes[cls]["fields"]:
            if f["name"] == "data_source":
                continue
            props.setdefault(f["name"], dict(py_schema(f["type"], classes, cls), description=mt_field_description(f)))
    source = {}
    for cls in ("DataSource", "S3DataSource", "FileSystemDataSource", "DatasetSource"):
        for f in classes[cls]["fields"]:
            source.setdefault(f["name"], dict(py_schema(f["type"], classes, cls), description="%s. %s" % (cls, mt_field_description(f))))
    props["data_source"] = {
        "description": "An S3 URI or local path (InputData), or a data "
        "source mapping: DataSource {s3_data_source, file_system_data_source, "
        "dataset_source} for a Channel, S3DataSource or FileSystemDataSource "
        "fields for InputData.",
        "type": ["string", "object"],
        "properties": source,
        "additionalProperties": False,
    }
    return {
        "description": "One input channel: a Channel shape or an InputData "
        "(channel_name, data_source).",
        "type": "object",
        "properties": props,
        "additionalProperties": False,
    }


def generate_model_trainer(ref):
    mt = ref["model_trainer"]
    api = ref["create_training_job"]
    classes = mt_classes(mt)
    defs = {}

    def class_schema(cls, title=None):
        props = {}
        for f in classes[cls]["fields"]:
            name = f["name"]
            desc = mt_field_description(f)
            if name in MT_PYTHON_OBJECTS and cls == MT_ROOT:
                props[name] = {"description": "No YAML form: %s. %s" % (MT_PYTHON_OBJECTS[name], desc)}
                continue
            if cls == MT_ROOT and name == "distributed":
                sch = {"$ref": "#/$defs/distributed"}
            elif cls == MT_ROOT and name == "environment":
                sch = environment_schema(api["Environment_limits"])
            elif cls == MT_ROOT and name == "hyperparameters":
                sch = hyperparameters_schema(
                    api["HyperParameters_limits"],
                    {},
                    {
                        "enum": ["true", "false", True, False],
                        "x-smp-message": "must be true or false; the "
                        "container reads the string \"true\"",
                    },
                )
                sch["type"] = ["object", "string"]
                desc += " A string is the path of a JSON or YAML file."
            elif cls == MT_ROOT and name == "input_data_config":
                sch = {"type": "array", "items": {"$ref": "#/$defs/input_channel"}}
            elif name == "instance_count" and cls in ("Compute", "InstanceGroup"):
                sch = {"type": "integer", "minimum": 1}
            else:
                sch = py_schema(f["type"], classes, cls + "." + name)
            props[name] = dict({"description": desc}, **sch)
        out = {
            "description": "ModelTrainer config class %s (pydantic, extra "
            "fields forbidden)." % cls,
            "type": "object",
            "properties": props,
            "additionalProperties": False,
        }
        if title:
            out["title"] = title
            out["x-smp-message"] = MT_UNKNOWN_MESSAGE
        return out

    # the classes reachable from ModelTrainer, found by following $refs
    todo, seen = [MT_ROOT], set()
    while todo:
        cls = todo.pop()
        if cls in seen or cls not in classes:
            continue  # distributed and input_channel are made below
        seen.add(cls)
        if cls == "DistributedConfig":
            continue
        sch = class_schema(cls, "a ModelTrainer" if cls == MT_ROOT else None)
        if cls != MT_ROOT:
            defs[cls] = sch
        text = json.dumps(sch)
        todo.extend(re.findall(r'"#/\$defs/([A-Za-z0-9]+)"', text))
        if cls == MT_ROOT:
            root = sch
            todo.extend(MT_RUNNERS.values())
            todo.extend(["InputData", "Channel", "DataSource", "S3DataSource",
                         "FileSystemDataSource", "DatasetSource"])
    for cls in ("InputData", "Channel"):
        defs.pop(cls, None)
    defs["input_channel"] = mt_merged_input(classes)
    defs["distributed"] = {
        "description": "How ModelTrainer launches the script on each node: "
        "the runner class named by its key, torchrun (Torchrun) or mpi (MPI). "
        "There is no PyTorch/XLA runner.",
        "type": "object",
        # the key check sits one level down so that a non-mapping value
        # stays a wrong-type finding
        "allOf": [
            {
                "properties": {
                    k: {"$ref": "#/$defs/" + v} for k, v in MT_RUNNERS.items()
                },
                "additionalProperties": False,
                "x-smp-rule": "distribution-unknown-key",
                "x-smp-message": "ModelTrainer's runners are 'torchrun' and "
                "'mpi'; there is no PyTorch/XLA runner (Training Compiler "
                "reads hyperparameter "
                "'sagemaker_pytorch_xla_multi_worker_enabled')",
                "x-smp-did-you-mean": {"torch_distributed": "torchrun"},
            },
            {
                "maxProperties": 1,
                "x-smp-message": "must name one runner, 'torchrun' or 'mpi'",
            },
        ],
    }
    prune(defs, root)
    defs = dict(sorted(defs.items()))
    out = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:sm-preflight:schema:model-trainer:1",
        "$comment": "generated by schemas/generate.py from "
        "reference/spec-fields.json; do not edit",
        "description": "A SageMaker training job written as the fields of "
        "ModelTrainer (SDK v2 sagemaker.modules, SDK v3 sagemaker.train): "
        + mt["_version"]
        + ". ModelTrainer has no Training Compiler integration; a Training "
        "Compiler image and sagemaker_training_compiler_* hyperparameters are "
        "reported by sm-preflight.",
    }
    out["title"] = "sm-preflight ModelTrainer job spec"
    out["$ref"] = "#/$defs/ModelTrainer"
    defs["ModelTrainer"] = root
    out["$defs"] = dict(sorted(defs.items()))
    return out


def prune(defs, root):
    """Drops the $defs that nothing reaches from root."""
    reach, todo = set(), [root]
    while todo:
        for name in re.findall(r'"#/\$defs/([A-Za-z0-9_]+)"', json.dumps(todo.pop())):
            if name not in reach:
                if name not in defs:
                    raise GenError("$ref to a missing $defs entry %s" % name)
                reach.add(name)
                todo.append(defs[name])
    for name in set(defs) - reach:
        del defs[name]


# --- CreateTrainingJob -----------------------------------------------------

API_UNKNOWN_MESSAGE = "the API rejects unknown members (botocore: Unknown parameter)"

# members whose enum the instance rules check with better messages
API_NO_ENUM = {"InstanceType"}


def api_limits(m, word, limit=API_LIMIT):
    """minLength/maxLength, minimum/maximum or minItems/maxItems from the
    API model, as an api-limits allOf whose message names the limit."""
    kw = {}
    lo, hi = m.get("min"), m.get("max")
    names, unit = {
        "string": (("minLength", "maxLength"), " characters long"),
        "integer": (("minimum", "maximum"), ""),
        "long": (("minimum", "maximum"), ""),
        "list": (("minItems", "maxItems"), " items"),
        "map": (("minProperties", "maxProperties"), " entries"),
    }[word]
    # a minimum of 0 is a limit too (TrainingInstanceCount: -1 is refused
    # by the API); for sizes and lengths it says nothing
    if lo is not None and (lo or word in ("integer", "long")):
        kw[names[0]] = lo
    else:
        lo = None
    if hi is not None:
        kw[names[1]] = hi
    if not kw:
        return []
    verb = "have " if unit in (" items", " entries") else "be "
    if lo is not None and hi is not None:
        what = "%d to %d" % (lo, hi)
    elif lo is not None:
        what = "at least %d" % lo
    else:
        what = "at most %d" % hi
    kw["x-smp-message"] = "must %s%s%s %s" % (verb, what, unit, limit)
    return [api_limit(**kw)]


def api_value(m, where, limit=API_LIMIT):
    """Schema of one member (or list member / map value) of the API model;
    limit names the request in the limits' messages."""
    t = m["type"]
    if t == "structure":
        return {"$ref": "#/$defs/" + m["shape"]}
    if t == "string":
        out = {"type": "string"}
        if "enum" in m and where.split(".")[-1] not in API_NO_ENUM:
            out["enum"] = m["enum"]
        lim = api_limits(m, "string", limit)
    elif t in ("integer", "long"):
        out = {"type": "integer"}
        lim = api_limits(m, t, limit)
    elif t == "boolean":
        return {"type": "boolean"}
    elif t in ("float", "double"):
        return {"type": "number"}
    elif t == "list":
        out = {"type": "array", "items": api_value(m["member_info"], where + "[]", limit)}
        lim = api_limits(m, "list", limit)
    elif t == "map":
        out = {
            "type": "object",
            "additionalProperties": api_value(m["value"], where + ".value", limit),
            "propertyNames": api_value(m["key"], where + ".key", limit),
        }
        out["propertyNames"].pop("type")
        if not out["propertyNames"]:
            del out["propertyNames"]
        elif "allOf" in out["propertyNames"]:
            out["propertyNames"] = out["propertyNames"]["allOf"][0]
        lim = api_limits(m, "map", limit)
    else:
        raise GenError("%s: API type %r" % (where, t))
    if lim:
        out["allOf"] = lim
    return out


def api_description(struct, name, m):
    where = "CreateTrainingJobRequest" if struct == "top" else struct
    parts = ["%s.%s: API shape %s (%s)." % (where, name, m["shape"], m["type"])]
    if m.get("required"):
        parts.append("Required by the API.")
    return " ".join(parts)


def generate_create_training_job(ref, boto=None):
    api = ref["create_training_job"]
    detail = api["members_detail"]
    defs = {}

    def struct_schema(struct):
        members = api["top"] if struct == "top" else api[struct]
        if list(detail[struct]) != list(members):
            raise GenError("%s: members_detail %s != list %s" % (struct, list(detail[struct]), members))
        props = {}
        for name in members:
            m = detail[struct][name]
            where = struct + "." + name
            if struct == "top" and name == "HyperParameters":
                sch = hyperparameters_schema(
                    api["HyperParameters_limits"],
                    {"type": "string", "x-smp-rule": "value-not-string"},
                    {
                        "type": "string",
                        "enum": ["true", "false"],
                        "x-smp-message": "must be \"true\" or \"false\"",
                    },
                )
            elif struct == "top" and name == "Environment":
                sch = environment_schema(api["Environment_limits"])
            else:
                sch = api_value(m, where)
            props[name] = dict({"description": api_description(struct, name, m)}, **sch)
        return {
            "type": "object",
            "properties": props,
            "additionalProperties": False,
        }

    for struct in detail:
        if struct != "top":
            defs[struct] = dict(
                {"description": "CreateTrainingJob shape %s." % struct}, **struct_schema(struct)
            )
    prune(defs, struct_schema("top"))
    out = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:sm-preflight:schema:create-training-job:1",
        "$comment": "generated by schemas/generate.py from "
        "reference/spec-fields.json"
        + ("" if boto is None else " and schemas/botocore-sagemaker.json (botocore %s)"
           % boto["botocore_version"])
        + "; do not edit",
        "title": "sm-preflight CreateTrainingJob request",
        "description": "A SageMaker training job as the CreateTrainingJob "
        "request (boto3 create_training_job, AWS CLI --cli-input-json), from "
        + api["_source"]
        + ". Members, types, enums and the API's length and count limits are "
        "checked; members the API requires are not, so that a partial request "
        "can be checked too.",
    }
    top = dict({"description": "The request's members."}, **struct_schema("top"))
    top["title"] = "a CreateTrainingJob request"
    top["x-smp-message"] = API_UNKNOWN_MESSAGE
    defs["CreateTrainingJobRequest"] = top
    if boto is None:
        out["$ref"] = "#/$defs/CreateTrainingJobRequest"
    else:
        describe_response(out, defs, struct_schema("top"), boto)
    out["$defs"] = dict(sorted(defs.items()))
    return out


# --- DescribeTrainingJob responses ---------------------------------------

RESPONSE_UNKNOWN_MESSAGE = (
    "it is not a DescribeTrainingJob member in the service model of "
    "botocore %s; a newer API may return it"
)


def response_value(m, version):
    """Schema of a response-only member: its type, nothing more. A
    response is what the service returned, and botocore does not validate
    output against the model, so its limits and enums (which grow with
    new API versions) are descriptions here, never checks."""
    t = m["type"]
    if t == "structure":
        return {"$ref": "#/$defs/response." + m["shape"]}
    notes = []
    if "enum" in m:
        notes.append("values in botocore %s: %s" % (version, ", ".join(m["enum"])))
    for k in ("min", "max"):
        if k in m:
            notes.append("%s %s in the model" % (k, m[k]))
    if t == "string":
        out = {"type": "string"}
    elif t == "timestamp":
        # ISO 8601 text (AWS CLI v2, json.dumps(default=str)) or epoch
        # seconds (AWS CLI v1's default cli_timestamp_format)
        out = {"type": ["string", "number"]}
    elif t in ("integer", "long"):
        out = {"type": "integer"}
    elif t in ("float", "double"):
        # NaN is printed as the string "NaN" by some tools
        out = {"type": ["number", "string"]}
    elif t == "boolean":
        out = {"type": "boolean"}
    elif t == "list":
        out = {"type": "array", "items": response_value(m["member_info"], version)}
    elif t == "map":
        out = {"type": "object", "additionalProperties": response_value(m["value"], version)}
    else:
        raise GenError("response member %s: API type %r" % (m["shape"], t))
    if notes:
        out["description"] = "API shape %s (%s); %s." % (m["shape"], t, "; ".join(notes))
    return out


def describe_response(out, defs, request_top, boto):
    """A DescribeTrainingJob response is the request plus response-only
    members (botocore's DescribeTrainingJobResponse): the root picks the
    response when any response-only member is present."""
    version = boto["botocore_version"]
    only = boto["response_only"]
    props = dict(request_top["properties"])
    for name, m in only.items():
        sch = response_value(m, version)
        desc = "DescribeTrainingJobResponse.%s: API shape %s (%s), response only." % (
            name, m["shape"], m["type"])
        if "description" in sch:
            desc += " " + sch.pop("description")
        props[name] = dict({"description": desc}, **sch)
    props[boto["response_metadata"]] = {
        "description": "Added by botocore to every parsed response (boto3); "
        "the AWS CLI does not print it.",
        "type": "object",
    }
    for shape, members in boto["response_structures"].items():
        defs["response." + shape] = {
            "description": "DescribeTrainingJob response shape %s (botocore %s); "
            "members a newer API adds are accepted." % (shape, version),
            "type": "object",
            "properties": {k: response_value(v, version) for k, v in members.items()},
        }
    defs["DescribeTrainingJobResponse"] = {
        "title": "a DescribeTrainingJob response",
        "description": "The response's members: the request's and those only "
        "a response has (botocore %s, API %s)." % (version, boto["api_version"]),
        "type": "object",
        "properties": props,
        "additionalProperties": False,
        "x-smp-message": RESPONSE_UNKNOWN_MESSAGE % version,
    }
    out["description"] += (
        " A DescribeTrainingJob response (aws sagemaker describe-training-job, "
        "boto3 describe_training_job) is recognised by any member only a "
        "response has, from botocore %s's service model; its request part is "
        "checked the same way." % version
    )
    out["if"] = {"anyOf": [{"required": [m]} for m in only]}
    out["then"] = {"$ref": "#/$defs/DescribeTrainingJobResponse"}
    out["else"] = {"$ref": "#/$defs/CreateTrainingJobRequest"}


# --- CreateHyperParameterTuningJob --------------------------------------

TUNING = "CreateHyperParameterTuningJobRequest"
TUNING_DEFINITION = "HyperParameterTrainingJobDefinition"
TUNING_LIMIT = "(a CreateHyperParameterTuningJob limit)"
# the tuning shapes of botocore's service model, extracted by
# schemas/botocore.py --tuning (committed)
BOTOCORE_TUNING = "botocore-sagemaker-tuning.json"


def generate_tuning(tuning):
    """A tuning request: its own members typed from the service model; a
    training job definition's members that CreateTrainingJob has too are
    accepted as they are here, since each definition is checked as the
    CreateTrainingJob request SageMaker sends for it (schema
    create-training-job), which would otherwise report them twice."""
    version = tuning["botocore_version"]
    shared = tuning["definition_shared"]
    defs = {}

    def members(where, struct):
        props = {}
        for name, m in struct["members"].items():
            sch = api_value(m, where + "." + name, TUNING_LIMIT)
            desc = "%s.%s: API shape %s (%s)." % (where, name, m["shape"], m["type"])
            if name in struct["required"]:
                desc += " Required by the API."
            props[name] = dict({"description": desc}, **sch)
        return props

    for name, struct in tuning["structures"].items():
        props = members(name, struct)
        if name == TUNING_DEFINITION:
            for m, as_training in shared.items():
                props[m] = {
                    "description": "%s.%s: checked as the CreateTrainingJob "
                    "request's %s, the request SageMaker sends for each "
                    "training job it launches." % (name, m, as_training)
                }
            props = {m: props[m] for m in tuning["definition_order"]}
        defs[name] = {
            "description": "CreateHyperParameterTuningJob shape %s (botocore %s)." % (name, version),
            "type": "object",
            "properties": props,
            "additionalProperties": False,
        }
    top = members(TUNING, tuning[TUNING])
    for name in tuning["response_only"]:
        top[name] = {
            "description": "DescribeHyperParameterTuningJobResponse.%s: "
            "a response member (botocore %s), accepted so that a response "
            "can be checked as the request it repeats." % (name, version)
        }
    top[tuning["response_metadata"]] = {
        "description": "Added by botocore to every parsed response (boto3); "
        "the AWS CLI does not print it.",
        "type": "object",
    }
    root = {
        "title": "a CreateHyperParameterTuningJob request",
        "description": "The request's members, and those a "
        "DescribeHyperParameterTuningJob response adds.",
        "type": "object",
        "properties": top,
        "additionalProperties": False,
        "x-smp-message": API_UNKNOWN_MESSAGE,
    }
    prune(defs, root)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:sm-preflight:schema:create-hyper-parameter-tuning-job:1",
        "$comment": "generated by schemas/generate.py from "
        "schemas/botocore-sagemaker-tuning.json (botocore %s); do not edit" % version,
        "title": "sm-preflight CreateHyperParameterTuningJob request",
        "description": "A SageMaker hyperparameter tuning job as the "
        "CreateHyperParameterTuningJob request (boto3 "
        "create_hyper_parameter_tuning_job, AWS CLI --cli-input-json), from "
        "botocore %s's service model. Members, types, enums and the API's "
        "length and count limits are checked, but not the members the API "
        "requires; the members a training job definition shares with "
        "CreateTrainingJob are checked by the create-training-job schema, "
        "definition by definition." % version,
        "$ref": "#/$defs/" + TUNING,
        "$defs": dict(sorted(dict(defs, **{TUNING: root}).items())),
    }


OUTPUTS = (
    ("estimator.schema.json", lambda ref, boto: generate_estimator(ref)),
    ("model-trainer.schema.json", lambda ref, boto: generate_model_trainer(ref)),
    ("create-training-job.schema.json", generate_create_training_job),
    ("create-hyper-parameter-tuning-job.schema.json",
     lambda ref, boto: generate_tuning(boto["tuning"])),
)

# the training-job shapes of botocore's service model, extracted by
# schemas/botocore.py (committed: generating needs no botocore)
BOTOCORE = "botocore-sagemaker.json"


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    src = argv[1] if len(argv) > 1 else os.path.join(
        root, "..", "shared", "reference", "spec-fields.json"
    )
    outdir = argv[2] if len(argv) > 2 else here
    try:
        with open(src, encoding="utf-8") as f:
            ref = json.load(f)
        with open(os.path.join(here, BOTOCORE), encoding="utf-8") as f:
            boto = json.load(f)
        with open(os.path.join(here, BOTOCORE_TUNING), encoding="utf-8") as f:
            boto["tuning"] = json.load(f)
        texts = [
            (name, json.dumps(fn(ref, boto), indent=1, ensure_ascii=False) + "\n")
            for name, fn in OUTPUTS
        ]
    except (OSError, ValueError, KeyError, GenError) as e:
        sys.stderr.write("generate.py: %s\n" % e)
        return 1
    for name, text in texts:
        dst = os.path.join(outdir, name)
        with open(dst + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(dst + ".tmp", dst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
