#!/usr/bin/env python3
"""Generate schemas/estimator.schema.json from the reference field lists.

    python3 schemas/generate.py [SPEC_FIELDS_JSON] [OUT]

SPEC_FIELDS_JSON defaults to ../shared/reference/spec-fields.json (relative
to the repository root), OUT to schemas/estimator.schema.json beside this
script.  Python 3 standard library only; the output is deterministic and
committed, CI never runs this.

The field lists (accepted kwargs, legacy names, nested shapes, distribution
keys) are taken from spec-fields.json, never re-typed here.  What this file
adds is the mapping from the reference's "yaml" type descriptions to JSON
Schema, a few types the descriptions leave implicit (FIELD_TYPES), and the
sm-preflight annotations (x-smp-rule, x-smp-message, x-smp-did-you-mean)
that lib/schema.c interprets.  Anything it cannot map is an error, so a new
SDK field cannot slip through untyped.
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


class GenError(Exception):
    pass


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
        return {
            "type": "object",
            "properties": {"GPU_NUM_DEVICES": GPU_NUM_DEVICES},
            "additionalProperties": {
                "type": "string",
                "x-smp-rule": "value-not-string",
            },
        }
    if yaml.startswith("mapping str -> scalar"):
        return {
            "type": "object",
            "additionalProperties": {"type": ["string", "number", "boolean"]},
        }
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


def estimator_def(title, est_names, props_order, kwarg_refs, legacy, dym, est_schema, dist_ref):
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
    }
    if dym:
        out["x-smp-did-you-mean"] = dym
    return out


def generate(ref):
    est = ref["estimator"]
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


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    src = argv[1] if len(argv) > 1 else os.path.join(
        root, "..", "shared", "reference", "spec-fields.json"
    )
    dst = argv[2] if len(argv) > 2 else os.path.join(here, "estimator.schema.json")
    try:
        with open(src, encoding="utf-8") as f:
            ref = json.load(f)
        schema = generate(ref)
    except (OSError, ValueError, GenError) as e:
        sys.stderr.write("generate.py: %s\n" % e)
        return 1
    text = json.dumps(schema, indent=1, ensure_ascii=False) + "\n"
    with open(dst + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(dst + ".tmp", dst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
