#!/usr/bin/env python3
"""Extract the training-job shapes from botocore's SageMaker service model.

    python3 schemas/botocore.py [SERVICE_2_JSON] [OUT]
    python3 schemas/botocore.py --tuning SERVICE_2_JSON[.gz] [OUT]

writes OUT (default schemas/botocore-sagemaker.json beside this script):
the members of CreateTrainingJobRequest and DescribeTrainingJobResponse,
the member lists of every structure the request reaches, and the members
only a response has (with the shapes they reach), in the member-detail
form of spec-fields.json that generate.py already maps to JSON Schema.

SERVICE_2_JSON defaults to Debian's python3-botocore copy,
/usr/lib/python3/dist-packages/botocore/data/sagemaker/2017-07-24/
service-2.json (apt-get install python3-botocore); the botocore version is
read from the package's __init__.py beside it and written into OUT. This
runs at development time only; OUT is committed, and generate.py reads it
to add DescribeTrainingJob responses to create-training-job.schema.json.
Python 3 standard library only; the output is deterministic.

With --tuning, OUT (default schemas/botocore-sagemaker-tuning.json) holds
CreateHyperParameterTuningJobRequest instead: its members and every
structure they reach in member-detail form, except what a training job
definition shares with CreateTrainingJobRequest (StaticHyperParameters is
its HyperParameters): those members are only named, because each
definition is checked as the CreateTrainingJob request it becomes; and the
names of the members only a DescribeHyperParameterTuningJob response has.
The committed file was made from pip's botocore (service-2.json.gz): the
Debian package's 1.29.27 predates members a tuning request may use today
(Autotune, a definition's Environment), which would be false errors.
"""

import gzip
import json
import os
import re
import subprocess
import sys

DEFAULT = (
    "/usr/lib/python3/dist-packages/botocore/data/sagemaker/2017-07-24/service-2.json"
)
REQUEST = "CreateTrainingJobRequest"
RESPONSE = "DescribeTrainingJobResponse"

# botocore adds this to every response it parses (boto3's dict has it; the
# AWS CLI drops it); not part of the service model
RESPONSE_METADATA = "ResponseMetadata"


class GenError(Exception):
    pass


def botocore_version(service_path):
    """botocore.__version__ from the package holding service_path."""
    pkg = os.path.dirname(os.path.abspath(service_path))
    for _ in range(3):  # 2017-07-24 -> sagemaker -> data -> botocore
        pkg = os.path.dirname(pkg)
    init = os.path.join(pkg, "__init__.py")
    try:
        with open(init, encoding="utf-8") as f:
            m = re.search(r"^__version__ = '([^']+)'", f.read(), re.M)
    except OSError:
        m = None
    if not m:
        raise GenError("no botocore __version__ in %s" % init)
    return m.group(1)


def debian_version():
    """The Debian package version, when dpkg knows it (else None)."""
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", "python3-botocore"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    return out.stdout.strip() or None


def detail(shapes, ref):
    """One member as spec-fields.json's members_detail spells it."""
    name = ref["shape"]
    sh = shapes[name]
    out = {"shape": name, "type": sh["type"]}
    for k in ("min", "max", "enum"):
        if k in sh:
            out[k] = sh[k]
    if sh["type"] == "list":
        out["member"] = sh["member"]["shape"]
        out["member_info"] = detail(shapes, sh["member"])
    elif sh["type"] == "map":
        out["key"] = detail(shapes, sh["key"])
        out["value"] = detail(shapes, sh["value"])
    return out


def structures(shapes, start):
    """Names of the structures reachable from the shapes in start."""
    seen, todo = [], list(start)
    while todo:
        name = todo.pop(0)
        sh = shapes[name]
        if sh["type"] == "structure":
            if name in seen:
                continue
            seen.append(name)
            todo.extend(m["shape"] for m in sh["members"].values())
        elif sh["type"] == "list":
            todo.append(sh["member"]["shape"])
        elif sh["type"] == "map":
            todo.append(sh["value"]["shape"])
    return seen


def extract(model, version, debian):
    shapes = model["shapes"]
    req, resp = shapes[REQUEST], shapes[RESPONSE]
    if req["type"] != "structure" or resp["type"] != "structure":
        raise GenError("%s or %s is not a structure" % (REQUEST, RESPONSE))
    only = [m for m in resp["members"] if m not in req["members"]]
    request_structs = structures(shapes, [m["shape"] for m in req["members"].values()])
    response_structs = structures(shapes, [resp["members"][m]["shape"] for m in only])
    response_structs = [s for s in response_structs if s not in request_structs]
    source = "botocore %s" % version
    if debian:
        source += " (Debian python3-botocore %s)" % debian
    return {
        "$comment": "generated by schemas/botocore.py from %s, "
        "botocore/data/sagemaker/2017-07-24/service-2.json; do not edit" % source,
        "botocore_version": version,
        "debian_package": debian,
        "api_version": model["metadata"]["apiVersion"],
        REQUEST: {"members": list(req["members"]), "required": req.get("required", [])},
        RESPONSE: {"members": list(resp["members"]), "required": resp.get("required", [])},
        "request_structures": {
            s: list(shapes[s]["members"]) for s in sorted(request_structs)
        },
        "response_only": {m: detail(shapes, resp["members"][m]) for m in only},
        "response_metadata": RESPONSE_METADATA,
        "response_structures": {
            s: {m: detail(shapes, r) for m, r in shapes[s]["members"].items()}
            for s in sorted(response_structs)
        },
    }


TUNING_REQUEST = "CreateHyperParameterTuningJobRequest"
TUNING_RESPONSE = "DescribeHyperParameterTuningJobResponse"
DEFINITION = "HyperParameterTrainingJobDefinition"
# a definition's name for a CreateTrainingJobRequest member
DEFINITION_RENAMED = {"StaticHyperParameters": "HyperParameters"}


def extract_tuning(model, version, debian):
    shapes = model["shapes"]
    req, resp = shapes[TUNING_REQUEST], shapes[TUNING_RESPONSE]
    training = shapes[REQUEST]["members"]
    definition = shapes[DEFINITION]["members"]
    shared = {
        m: DEFINITION_RENAMED.get(m, m)
        for m in definition
        if DEFINITION_RENAMED.get(m, m) in training
    }
    # the definition reaches only its own members' shapes
    walk = dict(shapes)
    walk[DEFINITION] = dict(shapes[DEFINITION], members={
        m: r for m, r in definition.items() if m not in shared})
    seen = structures(walk, [m["shape"] for m in req["members"].values()])
    structs = {}
    for s in sorted(set(seen) | {DEFINITION}):
        members = shapes[s]["members"]
        structs[s] = {
            "members": {
                m: detail(shapes, r)
                for m, r in members.items()
                if not (s == DEFINITION and m in shared)
            },
            "required": shapes[s].get("required", []),
        }
    source = "botocore %s" % version
    if debian:
        source += " (Debian python3-botocore %s)" % debian
    return {
        "$comment": "generated by schemas/botocore.py --tuning from %s, "
        "botocore/data/sagemaker/2017-07-24/service-2.json; do not edit" % source,
        "botocore_version": version,
        "api_version": model["metadata"]["apiVersion"],
        TUNING_REQUEST: {
            "members": {m: detail(shapes, r) for m, r in req["members"].items()},
            "required": req.get("required", []),
        },
        "definition_shared": shared,
        "definition_order": list(definition),
        "structures": structs,
        "response_only": [m for m in resp["members"] if m not in req["members"]],
        "response_metadata": RESPONSE_METADATA,
    }


def load_model(src):
    if src.endswith(".gz"):
        with gzip.open(src, "rt", encoding="utf-8") as f:
            return json.load(f)
    with open(src, encoding="utf-8") as f:
        return json.load(f)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    tuning = len(argv) > 1 and argv[1] == "--tuning"
    if tuning:
        argv = argv[1:]
        if len(argv) < 2:
            sys.stderr.write("botocore.py: --tuning needs the service model\n")
            return 2
    src = argv[1] if len(argv) > 1 else DEFAULT
    dst = argv[2] if len(argv) > 2 else os.path.join(
        here, "botocore-sagemaker-tuning.json" if tuning else "botocore-sagemaker.json")
    try:
        model = load_model(src)
        debian = debian_version() if src.startswith("/usr/lib/python3/") else None
        out = (extract_tuning if tuning else extract)(
            model, botocore_version(src), debian)
    except (OSError, ValueError, KeyError, GenError) as e:
        sys.stderr.write("botocore.py: %s\n" % e)
        return 1
    with open(dst + ".tmp", "w", encoding="utf-8") as f:
        f.write(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    os.replace(dst + ".tmp", dst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
