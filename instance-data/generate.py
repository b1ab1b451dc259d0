#!/usr/bin/env python3
"""Builds instances.json, tested-models.json and frameworks.json.

Usage: python3 generate.py [REFERENCE_DIR] --sdk GIT_DIR [--sdk-ref REF]
                           [--out DIR]
       python3 generate.py [REFERENCE_DIR] --sdk-tables FRAMEWORKS_JSON
                           [--out DIR]

REFERENCE_DIR defaults to ../shared/reference (relative to the current
directory); --out defaults to the folder holding this script. The output is
deterministic: the same reference folder always gives byte-identical files
(2-space indent, sorted rows, UTF-8, final newline). Only the Python 3
standard library is used, plus Debian's python3-botocore for the ECR host
names of the image table (sdk_images.py). GIT_DIR is a git directory of
aws/sagemaker-python-sdk; REF defaults to SDK_REF. --sdk-tables instead
carries the SDK tables over from an existing frameworks.json (what
make test's staleness check does: it has no SDK). The generated files
are committed; CI never runs this script (see README.md in this folder).

Every value comes from a file of the reference folder; the script
cross-checks the files against each other and stops with a message when
they disagree, rather than writing data it cannot source.
"""

import csv
import json
import os
import re
import sys

import sdk_images

SCHEMA_VERSION = 1
# The snapshot date of the reference folder this data was built from. Bump
# both when regenerating from a newer reference.
DATA_VERSION = "2026.11.30"
GENERATED = "2026-11-30"
# The SDK release whose image tables frameworks.json carries.
SDK_REF = "v2.257.6"


def die(msg):
    sys.stderr.write("generate.py: %s\n" % msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        die(msg)


def read(ref, name):
    path = os.path.join(ref, name)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        die("cannot read %s: %s" % (path, e))


def read_csv(ref, name):
    text = read(ref, name)
    return list(csv.DictReader(text.splitlines()))


def md_table(text, header_prefix):
    """Rows of the Markdown table whose header line starts with prefix."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(header_prefix):
            break
    else:
        die("no table starting with %r in README.md" % header_prefix)
    header = [c.strip() for c in lines[i].strip().strip("|").split("|")]
    rows = []
    for line in lines[i + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        check(len(cells) == len(header), "ragged table row: %r" % line)
        rows.append(dict(zip(header, cells)))
    return rows


def version_key(v):
    return tuple(int(p) for p in v.split("."))


def opt_int(s):
    return int(s) if s != "" else None


def number(s):
    """A CSV number as an int when integral, else a float; None if empty."""
    if s == "":
        return None
    f = float(s)
    return int(f) if f.is_integer() else f


def boolean(s):
    check(s in ("true", "false"), "not a boolean: %r" % s)
    return s == "true"


# The public documents the transcription was made from, as source
# descriptions (instances.json, frameworks.json, tested-models.json).
TC_DG = ("AWS \"Supported Frameworks, AWS Regions, Instance Types, and "
         "Tested Models\", https://docs.aws.amazon.com/sagemaker/latest/dg/"
         "training-compiler-support.html")
DG_REPO = "https://github.com/awsdocs/amazon-sagemaker-developer-guide"
DG_FILE = "doc_source/training-compiler-support.md"
SDK_TRCOMP = ("aws/sagemaker-python-sdk v2.257.6 (commit "
              "fc582aaa46faf7b7e16ab1e13840869712174cd0) "
              "src/sagemaker/{,huggingface/,pytorch/,tensorflow/}"
              "training_compiler/config.py")
INSTANCE_SOURCES = {
    "BATCH-G6": "AWS Batch user guide \"Run GPU jobs\", newer edition, "
                "https://docs.aws.amazon.com/batch/latest/userguide/"
                "gpu-jobs.html, read in its Korean and Portuguese editions "
                "(.../ko_kr/batch/... and .../pt_br/batch/...): rows "
                "g6.xlarge to g6.16xlarge, the excerpt cut at g6.12xlarge",
    "EC2-P5EFA": "EC2 user guide, EFA for accelerated instance types, "
                 "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/"
                 "efa-acc-inst-types.html, read in its Portuguese and "
                 "Spanish editions: \"P5 and P5e instances support up to "
                 "32 network cards and can provide up to 3,200 Gbps\"",
    "SDK-TRCOMP": SDK_TRCOMP + ": TrainingCompilerConfig."
                  "SUPPORTED_INSTANCE_CLASS_PREFIXES and "
                  "SUPPORTED_INSTANCE_TYPES_WITH_EFA",
    "TC-DG": TC_DG + ": the supported instance families of each edition",
}


# The sources of instances-added.csv (types the reference folder lacks).
ADDED_SOURCES = [{
    "key": "KARP-2026",
    "description": "aws/karpenter-provider-aws @ 1d927085d (2026-08-21) "
                   "`website/content/en/docs/reference/instance-types.md`, "
                   "generated from EC2 DescribeInstanceTypes: vCPU, memory "
                   "MiB, GPU or accelerator count, GPU name and memory MiB, "
                   "EFA count and network bandwidth (the baseline, in Mbps). "
                   "**Third-party tooling over the official API**; used for "
                   "trn1.2xlarge, trn1n, p5e, p5en and g6e, and the network "
                   "of p5.4xlarge",
}]


def opt_str(s):
    return s if s != "" else None


def source_keys(source):
    return [k.strip() for k in source.split(";")]


def public_source(source, public):
    """A tested-model source with each id replaced by its edition's key."""
    parts = []
    for part in source.split(" ; "):
        m = re.match(r"^([^\[]+) \[(.*)\]$", part)
        check(m is not None, "unexpected tested-model source: %r" % part)
        parts.append("%s [%s]" % (",".join(public[i] for i in
                                           m.group(1).split(",")),
                                  m.group(2)))
    return " ; ".join(parts)


def tested_source_ids(source):
    """The transcription's page ids of a tested-model source."""
    ids = []
    for part in source.split(" ; "):
        m = re.match(r"^([^\[]+) \[(.*)\]$", part)
        check(m is not None, "unexpected tested-model source: %r" % part)
        ids.extend(m.group(1).split(","))
    return ids


# ---------------------------------------------------------------- frameworks


def sdk_lists(rules):
    """Section D of sdk-rules.md: classes, EFA list, pytorchxla minimums."""
    m = re.search(r"^\* Supported instance classes \(R1\): "
                  r"((?:.*\n)(?:  .*\n)*)", rules, re.M)
    check(m is not None, "sdk-rules.md: no supported instance classes")
    classes = re.findall(r"`([^`]+)`", m.group(1))
    m = re.search(r"^\* EFA list for R11/R16, exact strings: "
                  r"((?:.*\n)(?:  .*\n)*)", rules, re.M)
    check(m is not None, "sdk-rules.md: no EFA list")
    efa = re.findall(r"`([^`]+)`", m.group(1))
    m = re.search(r"HF PyTorch allowed [\d.]+ to [\d.]+; pytorchxla needs "
                  r">= (\d+(?:\.\d+)*)", rules)
    check(m is not None, "sdk-rules.md: no HF pytorchxla minimum")
    hf_min = m.group(1)
    m = re.search(r"PyTorch pytorchxla needs >= (\d+(?:\.\d+)*)", rules)
    check(m is not None, "sdk-rules.md: no PyTorch pytorchxla minimum")
    pt_min = m.group(1)
    m = re.search(r'MIN_SUPPORTED_VERSION = "([\d.]+)"` and '
                  r'`MAX_SUPPORTED_VERSION = "([\d.]+)"', rules)
    check(m is not None, "sdk-rules.md: no TF version bounds")
    tf_range = (m.group(1), m.group(2))
    check(len(classes) == 5 and len(efa) == 5,
          "sdk-rules.md: expected 5 classes and 5 EFA types")
    return classes, efa, hf_min, pt_min, tf_range


def dg_frameworks(readme):
    """The README's section 2 table (dev guide + SDK), by estimator."""
    rows = md_table(readme, "| estimator / DLC | framework version |")
    out = []
    for r in rows:
        out.append({
            "estimator": r["estimator / DLC"],
            "version": r["framework version"],
            "transformers": None if r["Transformers"] in ("–", "-", "")
            else r["Transformers"],
            "py": r["Python"],
        })
    return out


def images(spec, dg, tf_range):
    imgs = spec["images"]
    out = []

    hf = imgs["huggingface-training-compiler"]
    for tv, entry in hf["versions"].items():
        t_aliases = sorted((a for a, t in hf["version_aliases"].items()
                            if t == tv), key=version_key)
        for key, conf in entry.items():
            if key == "version_aliases":
                continue
            m = re.match(r"^(pytorch|tensorflow)([\d.]+)$", key)
            check(m is not None, "spec-fields.json: odd HF key %r" % key)
            fw, fv = m.group(1), m.group(2)
            f_aliases = sorted((a[len(fw):] for a, t in
                                entry["version_aliases"].items()
                                if t == key), key=version_key)
            out.append({
                "estimator": "huggingface",
                "framework": fw,
                "framework_version": fv,
                "framework_aliases": f_aliases,
                "transformers_version": tv,
                "transformers_aliases": t_aliases,
                "py_versions": list(conf["py_versions"]),
                "repository": conf["repository"],
                "source": "SDK-IMAGES; TC-DG",
            })

    pt = imgs["pytorch-training-compiler"]
    for fv, conf in pt["versions"].items():
        out.append({
            "estimator": "pytorch",
            "framework": "pytorch",
            "framework_version": fv,
            "framework_aliases": sorted((a for a, t in
                                         pt["version_aliases"].items()
                                         if t == fv), key=version_key),
            "transformers_version": None,
            "transformers_aliases": [],
            "py_versions": list(conf["py_versions"]),
            "repository": conf["repository"],
            "source": "SDK-IMAGES; TC-DG",
        })

    # TensorFlow: the compiler is built into the plain training DLC from
    # 2.9 to 2.11 (SDK MIN/MAX_SUPPORTED_VERSION); the dev guide names
    # other patch versions, which the estimator must accept as well.
    tf = imgs["tensorflow-training"]
    lo, hi = version_key(tf_range[0]), version_key(tf_range[1])
    dg_tf = [d for d in dg if d["estimator"] == "TensorFlow"]
    for alias, fv in tf["version_aliases"].items():
        if not lo <= version_key(alias) <= hi:
            continue
        conf = tf["versions"][fv]
        extra = [d["version"] for d in dg_tf
                 if d["version"].startswith(alias + ".")
                 and d["version"] != fv]
        for d in dg_tf:
            if d["version"].startswith(alias + "."):
                check(d["py"] in conf["py_versions"],
                      "TF %s: dev guide py %s not in SDK %r"
                      % (d["version"], d["py"], conf["py_versions"]))
        out.append({
            "estimator": "tensorflow",
            "framework": "tensorflow",
            "framework_version": fv,
            "framework_aliases": sorted([alias] + extra, key=version_key),
            "transformers_version": None,
            "transformers_aliases": [],
            "py_versions": list(conf["py_versions"]),
            "repository": conf["repository"],
            "source": "SDK-IMAGES; TC-DG",
        })

    # Cross-check HF and PyTorch against the dev guide table (which follows
    # the image tags, not the swapped URIs of the page: README section 2).
    for img in out:
        if img["estimator"] == "tensorflow":
            continue
        name = {"huggingface": "HF " + ("PyTorch" if img["framework"] ==
                                        "pytorch" else "TensorFlow"),
                "pytorch": "PyTorch"}[img["estimator"]]
        match = [d for d in dg if d["estimator"] == name
                 and d["version"] == img["framework_version"]]
        check(len(match) == 1, "no dev guide row for %r" % img)
        check(match[0]["transformers"] == img["transformers_version"],
              "transformers mismatch for %r" % img)
        check(match[0]["py"] in img["py_versions"],
              "py mismatch for %r" % img)

    order = {"huggingface": 0, "pytorch": 1, "tensorflow": 2}
    out.sort(key=lambda i: (order[i["estimator"]],
                            version_key(i["transformers_version"] or "0"),
                            i["framework"],
                            version_key(i["framework_version"])))
    return out


# The source of end-of-patch.csv beside this script: the end of patch
# of each framework major.minor version in the AWS Deep Learning
# Containers Framework Support Policy (the reference folder has none).
EOP_SOURCE = {
    "key": "DLC-EOP",
    "description": "AWS Deep Learning Containers \"Framework Support "
                   "Policy\", https://aws.github.io/deep-learning-"
                   "containers/reference/support_policy (linked from "
                   "https://docs.aws.amazon.com/deep-learning-containers/"
                   "latest/devguide/support-policy.html), its "
                   "\"Unsupported Frameworks\" table, generated from "
                   "aws/deep-learning-containers @ e0ecedea6a1c "
                   "(2026-08-21) `docs/src/legacy/legacy_support.yml`: the "
                   "GA and EOP (end of patch) dates of each framework "
                   "major.minor version; PyTorch 1.13 is the only Training "
                   "Compiler version it lists",
}


def end_of_patch(imgs):
    """Sets end_of_patch on the images whose framework major.minor has a
    row in end-of-patch.csv; every row must be used."""
    rows = read_csv(os.path.dirname(os.path.abspath(__file__)),
                    "end-of-patch.csv")
    for r in rows:
        check(re.match(r"^\d{4}-\d{2}-\d{2}$", r["end_of_patch"]) is not None,
              "end-of-patch.csv: odd date %r" % r["end_of_patch"])
        check(source_keys(r["source"]) == [EOP_SOURCE["key"]],
              "end-of-patch.csv: unknown source %r" % r["source"])
        used = False
        for img in imgs:
            mm = ".".join(img["framework_version"].split(".")[:2])
            if img["framework"] == r["framework"] and mm == r["version"]:
                img["end_of_patch"] = r["end_of_patch"]
                img["source"] += "; " + EOP_SOURCE["key"]
                used = True
        check(used, "end-of-patch.csv: no image for %s %s"
              % (r["framework"], r["version"]))


def frameworks(ref, sdk):
    rules = read(ref, "sdk-rules.md")
    readme = read(ref, "README.md")
    spec = json.loads(read(ref, "spec-fields.json"))
    classes, efa, hf_min, pt_min, tf_range = sdk_lists(rules)
    imgs = images(spec, dg_frameworks(readme), tf_range)
    check(len(imgs) == 10, "expected 10 image configurations, got %d"
          % len(imgs))
    try:
        sdk_images.cross_check(imgs, sdk)
    except sdk_images.SdkError as e:
        die(str(e))
    end_of_patch(imgs)
    sources = [
        {"key": "SDK-IMAGES",
         "description": "aws/sagemaker-python-sdk " + spec["images"]["_source"]
         + ": image configurations, version aliases, py_versions, "
         "repositories"},
        {"key": "SDK-TRCOMP",
         "description": SDK_TRCOMP + ": TrainingCompilerConfig."
         "SUPPORTED_INSTANCE_CLASS_PREFIXES, "
         "SUPPORTED_INSTANCE_TYPES_WITH_EFA, the pytorchxla minimum "
         "versions of TrainingCompilerConfig.validate (HuggingFace PyTorch "
         "1.11, PyTorch 1.12), TensorFlow MIN_SUPPORTED_VERSION and "
         "MAX_SUPPORTED_VERSION"},
        {"key": "TC-DG",
         "description": TC_DG + ", current edition: TensorFlow versions "
         "2.9.1, 2.10.0, 2.11.0 and the framework matrix used to "
         "cross-check the SDK"},
        {"key": sdk_images.SOURCE_KEY,
         "description": sdk["where"] + sdk_images.SOURCE_TAIL},
        EOP_SOURCE,
    ]
    return {
        "schema_version": SCHEMA_VERSION,
        "data_version": DATA_VERSION,
        "generated": GENERATED,
        "sources": sources,
        "supported_instance_classes": classes,
        "sdk_efa_instance_types": efa,
        "pytorchxla_min_version": {"huggingface": hf_min,
                                   "pytorch": pt_min},
        "images": imgs,
        "image_configs": sdk["image_configs"],
        "image_registries": sdk["image_registries"],
        "ecr_hostnames": sdk["ecr_hostnames"],
        "image_tag_suffixes": sdk["image_tag_suffixes"],
        "sdk_graviton_families": sdk["sdk_graviton_families"],
    }, classes, efa


# ----------------------------------------------------------------- instances


def instances(ref, classes, efa_list):
    readme = read(ref, "README.md")
    keys = md_table(readme, "| key | what |")
    # the transcription's own notes give way to the public documents
    sources = [{"key": k["key"],
                "description": INSTANCE_SOURCES.get(k["key"], k["what"])}
               for k in keys]
    for s in sources:
        check(not re.search(r"§|corpus|read_file", s["description"]),
              "%s: the description cites the transcription, not a public "
              "document; add it to INSTANCE_SOURCES" % s["key"])
    sources += ADDED_SOURCES
    known = {s["key"] for s in sources}
    rows = read_csv(ref, "instances.csv")
    # types the reference folder lacks, and the one row it left short
    # (instances-added.csv beside this script, its sources ADDED_SOURCES)
    added = read_csv(os.path.dirname(os.path.abspath(__file__)),
                     "instances-added.csv")
    replaced = {r["instance_type"]: r for r in added}
    rows = [replaced.pop(r["instance_type"], r) for r in rows]
    rows += [r for r in added if r["instance_type"] in replaced]
    for r in rows:
        r.setdefault("sdk_trcomp_efa_list", "false")
    out = []
    for r in rows:
        for k in source_keys(r["source"]):
            check(k in known, "%s: unknown source key %r"
                  % (r["instance_type"], k))
        m = re.match(r"^ml\.([a-z0-9-]+)\.[a-z0-9]+$", r["instance_type"])
        check(m is not None and m.group(1) == r["family"],
              "%s: family %r" % (r["instance_type"], r["family"]))
        supported = boolean(r["training_compiler_supported"])
        # the data must agree with the SDK's exact class match (R1) and
        # its EFA list (R11/R16), which frameworks.json carries
        check(supported == (r["family"] in classes),
              "%s: compiler support disagrees with R1" % r["instance_type"])
        check(boolean(r["sdk_trcomp_efa_list"]) ==
              (r["instance_type"] in efa_list),
              "%s: SDK EFA list disagrees" % r["instance_type"])
        gpus = int(r["gpu_count"])
        out.append({
            "type": r["instance_type"],
            "family": r["family"],
            "vcpus": int(r["vcpus"]),
            "memory_gib": number(r["memory_gib"]),
            "gpus": gpus,
            "gpu_model": opt_str(r["gpu_model"]),
            "gpu_memory_gib": number(r["gpu_memory_gib"]),
            "efa": boolean(r["efa"]),
            "network_gbps": number(r["network_gbps"]),
            "compiler_supported": supported,
            "source": r["source"],
        })
    check(len(out) == 33 + len(added) - 1,
          "expected %d instance types, got %d"
          % (33 + len(added) - 1, len(out)))
    out.sort(key=lambda i: (i["family"], i["vcpus"], i["type"]))
    return {
        "schema_version": SCHEMA_VERSION,
        "data_version": DATA_VERSION,
        "generated": GENERATED,
        "sources": sources,
        "instances": out,
    }


# ------------------------------------------------------------- tested models


def tested(ref):
    readme = read(ref, "README.md")
    versions = md_table(readme, "| date | commit | read_file id |")
    page = ("awsdocs/amazon-sagemaker-developer-guide "
            "doc_source/training-compiler-support.md")
    sources = []
    public = {}  # the transcription's ids -> keys that name the edition
    for v in versions:
        if v["commit"] != "?":
            key = "git:" + v["commit"]
            where = "%s @ %s (%s/blob/%s/%s)" % (
                page, v["commit"], DG_REPO, v["commit"], DG_FILE)
        else:
            key = "aws-docs:current"
            where = (TC_DG + ", current edition (HTML tables and the "
                     "notice that no new versions will be released)")
        public[v["read_file id"]] = key
        public[key] = key
        sources.append({
            "key": key,
            "description": "%s; edition dated %s, %s tables, %s rows" % (
                where, v["date"], v["tables"], v["rows"]),
        })
    rows = read_csv(ref, "tested-models.csv")
    out = []
    for r in rows:
        for k in tested_source_ids(r["source"]):
            check(k in public, "%s: unknown source id %r" % (r["model"], k))
        check(r["framework"] in ("pytorch", "tensorflow"),
              "unexpected framework %r" % r["framework"])
        out.append({
            "framework": r["framework"],
            "framework_version": r["framework_version"],
            "transformers_version": opt_str(r["transformers_version"]),
            "model": r["model"],
            "dataset": opt_str(r["dataset"]),
            "instance_type": r["instance_type"],
            "precision": opt_str(r["precision"]),
            "sequence_length": opt_int(r["sequence_length"]),
            "scope": opt_str(r["scope"]),
            "native_batch_size": opt_int(r["native_batch_size"]),
            "compiler_batch_size": int(r["compiler_batch_size"]),
            "batch_size_is_lower_bound":
                boolean(r["batch_size_is_lower_bound"]),
            "instance_count": opt_int(r["instance_count"]),
            "source": public_source(r["source"], public),
        })
    check(len(out) == 318, "expected 318 tested rows, got %d" % len(out))

    def key(t):
        return (t["framework"], version_key(t["framework_version"]),
                t["transformers_version"] or "", t["model"].lower(),
                t["model"], t["dataset"] or "", t["instance_type"],
                t["precision"] or "", t["sequence_length"] or 0,
                t["scope"] or "", t["instance_count"] or 0)
    out.sort(key=key)
    return {
        "schema_version": SCHEMA_VERSION,
        "data_version": DATA_VERSION,
        "generated": GENERATED,
        "sources": sources,
        "models": out,
    }


def write(path, obj):
    text = json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main(argv):
    args = argv[1:]
    out_dir = os.path.dirname(os.path.abspath(__file__))
    ref = os.path.join("..", "shared", "reference")
    opts = {"--sdk": None, "--sdk-ref": SDK_REF, "--sdk-tables": None}
    for opt in opts:
        if opt in args:
            i = args.index(opt)
            check(i + 1 < len(args), "%s needs a value" % opt)
            opts[opt] = args[i + 1]
            del args[i:i + 2]
    if "--out" in args:
        i = args.index("--out")
        check(i + 1 < len(args), "--out needs a folder")
        out_dir = args[i + 1]
        del args[i:i + 2]
    if len(args) > 1 or (args and args[0].startswith("-")):
        die("usage: generate.py [REFERENCE_DIR] (--sdk GIT_DIR "
            "[--sdk-ref REF] | --sdk-tables FRAMEWORKS_JSON) [--out DIR]")
    if bool(opts["--sdk"]) == bool(opts["--sdk-tables"]):
        die("give --sdk GIT_DIR (aws/sagemaker-python-sdk) or "
            "--sdk-tables FRAMEWORKS_JSON")
    if args:
        ref = args[0]
    try:
        if opts["--sdk"]:
            sdk = sdk_images.read_sdk(opts["--sdk"], opts["--sdk-ref"])
        else:
            sdk = sdk_images.carry_over(opts["--sdk-tables"])
    except sdk_images.SdkError as e:
        die(str(e))
    fw, classes, efa = frameworks(ref, sdk)
    inst = instances(ref, classes, efa)
    tm = tested(ref)
    write(os.path.join(out_dir, "instances.json"), inst)
    write(os.path.join(out_dir, "tested-models.json"), tm)
    write(os.path.join(out_dir, "frameworks.json"), fw)
    print("wrote %d instance types, %d tested rows, %d images, %d SDK image "
          "configurations to %s"
          % (len(inst["instances"]), len(tm["models"]), len(fw["images"]),
             len(fw["image_configs"]), out_dir))


if __name__ == "__main__":
    main(sys.argv)
