#!/usr/bin/env python3
"""gen.py N OUTDIR [SEED] - write N realistic job specs for `make bench`.

The specs mix the three dialects the way a repository of training jobs
would: SageMaker Python SDK estimator arguments (YAML, some JSON), ModelTrainer
fields (YAML) and CreateTrainingJob requests (JSON, some YAML). About 70 % are
valid Training Compiler jobs; the rest carry the mistakes the checker exists
for (a misspelled key, an unsupported or unknown instance type, a wrong
GPU_NUM_DEVICES, a missing pytorchxla, an unquoted version, a wrong type, a
broken document). Each file is 0.5-2 KB. The output is the same for the same
N and SEED, so runs compare.

Files go to OUTDIR/<dialect>/NNNNNN.<ext>, so that a JSON Schema validator
can be pointed at one folder per dialect schema; OUTDIR/broken.txt lists
the files that do not parse (about 2 %).

gen.py --sources N OUTDIR [SEED] writes the launcher and notebook corpora
instead: OUTDIR/launchers/NNNNNN.py (imports, constants, a hyperparameter
dict computed and mutated, one or two estimators, a boto3 request now and
then) and OUTDIR/notebooks/NNNNNN.ipynb (the same code over markdown and
code cells with outputs), plus OUTDIR/big/outputs.ipynb, a notebook of
about 1 MB of outputs, and OUTDIR/big/stripped.ipynb, the same without them.
"""
import json
import os
import random
import sys

ACCOUNT = "763104351884.dkr.ecr.us-east-1.amazonaws.com"

# (estimator, base framework key, framework version, transformers, python)
ESTIMATOR_STACKS = [
    ("HuggingFace", "pytorch_version", "1.11.0", "4.21.1", "py38"),
    ("HuggingFace", "pytorch_version", "1.10.2", "4.17.0", "py38"),
    ("HuggingFace", "pytorch_version", "1.9.0", "4.11.0", "py38"),
    ("PyTorch", "framework_version", "1.13.1", None, "py39"),
    ("PyTorch", "framework_version", "1.12.0", None, "py38"),
    ("TensorFlow", "framework_version", "2.11.0", None, "py39"),
]

# instance type -> GPUs
INSTANCES = {
    "ml.p3.2xlarge": 1,
    "ml.p3.8xlarge": 4,
    "ml.p3.16xlarge": 8,
    "ml.p3dn.24xlarge": 8,
    "ml.p4d.24xlarge": 8,
    "ml.g4dn.xlarge": 1,
    "ml.g4dn.12xlarge": 4,
    "ml.g5.2xlarge": 1,
    "ml.g5.12xlarge": 4,
    "ml.g5.48xlarge": 8,
}

MODELS = ["bert-base-uncased", "bert-large-uncased", "roberta-base",
          "roberta-large", "gpt2", "distilbert-base-uncased", "t5-small",
          "xlnet-base-cased", "albert-base-v2", "facebook/bart-base"]

TEAMS = ["nlp", "search", "ads", "speech", "vision", "platform"]


def ver(s):
    """"1.10.2" -> (1, 10, 2), for comparisons."""
    return tuple(int(x) for x in s.split("."))


def q(v):
    """A YAML scalar, quoted when it is a string that needs it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    s = str(v)
    if s == "" or any(c in s for c in ":#{}[],&*!|>'\"%@`") or \
            s in ("true", "false", "null", "yes", "no", "on", "off") or \
            s.replace(".", "").replace("-", "").replace("e", "").isdigit():
        return json.dumps(s)
    return s


def to_yaml(obj, indent=0, out=None):
    """Block-style YAML for nested dicts/lists of scalars; short mappings
    of scalars inline, as people write them."""
    out = [] if out is None else out
    pad = "  " * indent
    for k, v in obj.items():
        if isinstance(v, dict) and v and all(
                not isinstance(x, (dict, list)) for x in v.values()) and \
                len(v) <= 3:
            inner = ", ".join("%s: %s" % (kk, q(vv)) for kk, vv in v.items())
            out.append("%s%s: {%s}" % (pad, k, inner))
        elif isinstance(v, dict):
            out.append("%s%s:" % (pad, k))
            to_yaml(v, indent + 1, out)
        elif isinstance(v, list):
            out.append("%s%s:" % (pad, k))
            for item in v:
                if isinstance(item, dict):
                    inner = ", ".join("%s: %s" % (kk, q(vv))
                                      for kk, vv in item.items())
                    out.append("%s  - {%s}" % (pad, inner))
                else:
                    out.append("%s  - %s" % (pad, q(item)))
        else:
            out.append("%s%s: %s" % (pad, k, q(v)))
    return out


def hyperparameters(rng, stack, as_strings=False):
    model = rng.choice(MODELS)
    hp = {
        "model_name_or_path": model,
        "per_device_train_batch_size": rng.choice([8, 12, 16, 24, 32, 48]),
        "learning_rate": rng.choice([1e-5, 2e-5, 3e-5, 5e-5, 6e-5]),
        "num_train_epochs": rng.choice([1, 2, 3, 5]),
        "max_seq_length": rng.choice([128, 256, 512]),
        "preprocessing_num_workers": rng.choice([8, 16, 32, 48]),
        "weight_decay": 0.01,
        "warmup_ratio": 0.1,
        "logging_steps": rng.choice([50, 100, 200]),
        "output_dir": "/opt/ml/model",
        "seed": 42,
    }
    if stack[0] == "TensorFlow":
        hp["batch_size"] = hp.pop("per_device_train_batch_size") * 4
    if rng.random() < 0.5:
        hp["dataset_name"] = rng.choice(["glue", "squad", "wikitext"])
        hp["dataset_config_name"] = rng.choice(["sst2", "mrpc", "v1"])
    if rng.random() < 0.3:
        hp["fp16"] = True
    if as_strings:
        hp = {k: json.dumps(v) if isinstance(v, bool) else str(v)
              for k, v in hp.items()}
        hp = {k: v.lower() if v in ("True", "False") else v
              for k, v in hp.items()}
    return hp


def header(rng, n, what):
    team = rng.choice(TEAMS)
    lines = ["# %s - %s team, bench spec %d" % (what, team, n),
             "# owner: %s-oncall@example.com; reviewed %04d-%02d-%02d" %
             (team, 2024 + rng.randrange(3), 1 + rng.randrange(12),
              1 + rng.randrange(28))]
    if rng.random() < 0.5:
        lines.append("# Training Compiler speeds the model up; keep the "
                     "batch size at the tested value")
    return lines, team


def estimator(rng, n):
    stack = rng.choice(ESTIMATOR_STACKS)
    itype = rng.choice(list(INSTANCES))
    count = rng.choice([1, 1, 1, 2, 4])
    spec = {"estimator": stack[0], "entry_point": "train.py",
            "source_dir": "scripts",
            "role": "arn:aws:iam::123456789012:role/SageMakerRole",
            "instance_type": itype, "instance_count": count}
    if stack[3]:
        spec["transformers_version"] = stack[3]
    spec[stack[1]] = stack[2]
    spec["py_version"] = stack[4]
    spec["compiler_config"] = {"enabled": True, "debug": False}
    pt = stack[0] != "TensorFlow"
    new_pt = ver(stack[2]) >= ((1, 11) if stack[0] == "HuggingFace"
                               else (1, 12))
    if pt and new_pt and (count > 1 or INSTANCES[itype] > 1):
        spec["distribution"] = {"pytorchxla": {"enabled": True}}
    elif pt and (count > 1 or INSTANCES[itype] > 1):
        spec["entry_point"] = "launch_sm_training_compiler.py"
    spec["debugger_hook_config"] = False
    spec["disable_profiler"] = True
    spec["max_run"] = rng.choice([3600, 43200, 86400])
    spec["volume_size"] = rng.choice([50, 100, 200])
    spec["base_job_name"] = "trcomp-%s-%d" % (stack[0].lower(), n)
    hp = hyperparameters(rng, stack)
    if spec["entry_point"].startswith("launch"):
        hp["training_script"] = "train.py"
        hp["n_gpus"] = INSTANCES[itype]
    spec["hyperparameters"] = hp
    spec["tags"] = [{"Key": "team", "Value": rng.choice(TEAMS)},
                    {"Key": "cost-center", "Value": "cc-%d" %
                     rng.randrange(100, 999)}]
    return spec


def model_trainer(rng, n):
    itype = rng.choice(list(INSTANCES))
    version = rng.choice(["1.13.1-gpu-py39", "1.12.0-gpu-py38"])
    spec = {
        "training_image": "%s/pytorch-trcomp-training:%s" % (ACCOUNT, version),
        "base_job_name": "mt-trcomp-%d" % n,
        "source_code": {"source_dir": "scripts", "entry_script": "train.py"},
        "compute": {"instance_type": itype,
                    "instance_count": rng.choice([1, 1, 2]),
                    "volume_size_in_gb": rng.choice([50, 100])},
        "stopping_condition": {"max_runtime_in_seconds":
                               rng.choice([3600, 86400])},
        "environment": {"NCCL_DEBUG": "WARN",
                        "GPU_NUM_DEVICES": str(INSTANCES[itype])},
    }
    hp = hyperparameters(rng, ESTIMATOR_STACKS[3], as_strings=True)
    hp["sagemaker_training_compiler_enabled"] = "true"
    spec["hyperparameters"] = hp
    return spec


def create_training_job(rng, n):
    itype = rng.choice(list(INSTANCES))
    stack = rng.choice(ESTIMATOR_STACKS[:3])
    image = "%s/huggingface-pytorch-trcomp-training:%s-transformers%s-gpu-" \
        "%s-cu113-ubuntu20.04" % (ACCOUNT, stack[2], stack[3], stack[4])
    hp = hyperparameters(rng, stack, as_strings=True)
    hp["sagemaker_training_compiler_enabled"] = "true"
    if INSTANCES[itype] > 1 and ver(stack[2]) >= (1, 11):
        hp["sagemaker_pytorch_xla_multi_worker_enabled"] = "true"
    return {
        "TrainingJobName": "ctj-trcomp-%d" % n,
        "AlgorithmSpecification": {"TrainingImage": image,
                                   "TrainingInputMode": "File"},
        "RoleArn": "arn:aws:iam::123456789012:role/SageMakerRole",
        "ResourceConfig": {"InstanceType": itype,
                           "InstanceCount": rng.choice([1, 1, 2]),
                           "VolumeSizeInGB": rng.choice([50, 100])},
        "StoppingCondition": {"MaxRuntimeInSeconds": 86400},
        "OutputDataConfig": {"S3OutputPath": "s3://bench-bucket/out/%d" % n},
        "HyperParameters": hp,
        "Environment": {"NCCL_DEBUG": "WARN"},
        "Tags": [{"Key": "team", "Value": rng.choice(TEAMS)}],
    }


def break_spec(rng, spec, dialect):
    """One of the mistakes the checker finds."""
    keys = list(spec)
    kind = rng.randrange(7)
    if kind == 0:  # a misspelled key
        k = rng.choice([k for k in keys if len(k) > 6])
        spec[k[:-2] + k[-1:]] = spec.pop(k)
    elif kind == 1:  # an instance type that is unknown or unsupported
        bad = rng.choice(["ml.p3.9xlarge", "ml.c5.2xlarge", "ml.p4de.24xlarge",
                          "ml.g6.12xlarge", "local_gpu"])
        if dialect == "estimator":
            spec["instance_type"] = bad
        elif dialect == "model_trainer":
            spec["compute"]["instance_type"] = bad
        else:
            spec["ResourceConfig"]["InstanceType"] = bad
    elif kind == 2:  # GPU_NUM_DEVICES wrong
        env = spec.setdefault("environment" if dialect != "create_training_job"
                              else "Environment", {})
        env["GPU_NUM_DEVICES"] = rng.choice(["16", "four", "3"])
    elif kind == 3 and dialect == "estimator":  # pytorchxla dropped
        spec.pop("distribution", None)
        spec["instance_count"] = 2
    elif kind == 4 and dialect == "estimator":  # unsupported version
        for k in ("pytorch_version", "framework_version"):
            if k in spec:
                spec[k] = rng.choice(["1.10.0", "2.0.1", "2.12.0"])
    elif kind == 5:  # a wrong type
        if dialect == "estimator":
            spec["instance_count"] = "two"
        elif dialect == "model_trainer":
            spec["compute"]["instance_count"] = "two"
        else:
            spec["ResourceConfig"]["InstanceCount"] = "2"
    else:  # the compiler debug flag and the profiler left on
        if dialect == "estimator":
            spec["compiler_config"]["debug"] = True
            spec.pop("disable_profiler", None)
        elif dialect == "model_trainer":
            spec["hyperparameters"]["sagemaker_training_compiler_debug_mode"] \
                = "true"
        else:
            spec["HyperParameters"]["sagemaker_training_compiler_debug_mode"] \
                = "true"
    return spec


def render(rng, n, dialect, spec, fmt, broken_syntax):
    if fmt == "json":
        text = json.dumps(spec, indent=2) + "\n"
        if broken_syntax:
            text = text.replace("}\n", "\n", 1)  # an unclosed object
        return text
    lines, _ = header(rng, n, {"estimator": "Estimator job",
                               "model_trainer": "ModelTrainer job",
                               "create_training_job":
                               "CreateTrainingJob request"}[dialect])
    lines += to_yaml(spec)
    text = "\n".join(lines) + "\n"
    if broken_syntax:
        text = text.replace("{", "[", 1)  # a flow mapping that never closes
    return text


LAUNCHER = """\
\"\"\"Launch {model} fine-tuning ({n}) with SageMaker Training Compiler.\"\"\"
import os

import sagemaker
from sagemaker.{module} import {cls}, TrainingCompilerConfig

role = sagemaker.get_execution_role()
INSTANCE_TYPE = "{itype}"
INSTANCE_COUNT = {count}
BATCH = {batch}

hyperparameters = {{
    "model_name_or_path": "{model}",
    "{batch_name}": BATCH,
    "learning_rate": 5e-5,
    "num_train_epochs": 3,
    "preprocessing_num_workers": 8,
    "output_dir": "/opt/ml/model",
}}
native = {cls}(
    entry_point="train.py",
    source_dir="scripts",
    instance_type=INSTANCE_TYPE,
    instance_count=INSTANCE_COUNT,
    role=role,
    {versions}
    hyperparameters=hyperparameters,
    base_job_name=f"{{hyperparameters['model_name_or_path'].split('/')[-1]}}-native",
)

hyperparameters["{batch_name}"] = BATCH * 2
hyperparameters["learning_rate"] = float("5e-5") * 2
compiled = {cls}(
    entry_point="train.py",
    source_dir="scripts",
    instance_type=INSTANCE_TYPE,
    instance_count=INSTANCE_COUNT,
    role=role,
    {versions}
    hyperparameters=hyperparameters,
    compiler_config=TrainingCompilerConfig(debug={debug}),
    {distribution}debugger_hook_config=False,
    disable_profiler=True,
    output_path=os.environ.get("OUTPUT_PATH", "s3://bucket/out"),
)
compiled.fit(wait=False)
"""


def launcher(rng, n):
    stack = rng.choice(ESTIMATOR_STACKS)
    itype = rng.choice(list(INSTANCES))
    count = rng.choice([1, 1, 2])
    module = {"HuggingFace": "huggingface", "PyTorch": "pytorch",
              "TensorFlow": "tensorflow"}[stack[0]]
    versions = ('transformers_version="%s",\n    ' % stack[3]
                if stack[3] else "")
    versions += '%s="%s",\n    py_version="%s",' % (stack[1], stack[2],
                                                    stack[4])
    multi = count > 1 or INSTANCES[itype] > 1
    distribution = ('distribution={"pytorchxla": {"enabled": True}},\n    '
                    if multi and stack[0] != "TensorFlow" and
                    rng.random() < 0.8 else "")
    return LAUNCHER.format(
        n=n, model=rng.choice(MODELS), module=module, cls=stack[0],
        itype=itype, count=count, batch=rng.choice([8, 12, 16, 24]),
        batch_name="per_device_train_batch_size"
        if stack[0] != "TensorFlow" else "batch_size",
        versions=versions, debug=rng.choice(["False"] * 9 + ["True"]),
        distribution=distribution)


def notebook(code, outputs_bytes):
    """The launcher's code as notebook cells, markdown between them."""
    chunks = code.split("\n\n")
    cells = []
    for i, chunk in enumerate(chunks):
        cells.append({"cell_type": "markdown", "metadata": {},
                      "source": ["## Step %d\n" % (i + 1)]})
        lines = chunk.split("\n")
        src = [ln + "\n" for ln in lines[:-1]] + [lines[-1]]
        outs = []
        if outputs_bytes:
            outs = [{"output_type": "display_data", "metadata": {},
                     "data": {"image/png": "iVBORw0KGgo" +
                              "A" * (outputs_bytes // len(chunks)),
                              "text/plain": ["<Figure>"]}}]
        cells.append({"cell_type": "code", "execution_count": i + 1,
                      "metadata": {}, "outputs": outs, "source": src})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                       "nbformat_minor": 5}, indent=1) + "\n"


def sources(count, out, rng):
    for d in ("launchers", "notebooks", "big"):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    for n in range(count):
        code = launcher(rng, n)
        with open(os.path.join(out, "launchers", "%06d.py" % n), "w") as f:
            f.write(code)
        with open(os.path.join(out, "notebooks", "%06d.ipynb" % n),
                  "w") as f:
            f.write(notebook(code, rng.choice([0, 200, 2000])))
    code = launcher(rng, count)
    with open(os.path.join(out, "big", "outputs.ipynb"), "w") as f:
        f.write(notebook(code, 1 << 20))
    with open(os.path.join(out, "big", "stripped.ipynb"), "w") as f:
        f.write(notebook(code, 0))
    return 0


def main():
    if len(sys.argv) > 3 and sys.argv[1] == "--sources":
        return sources(int(sys.argv[2]), sys.argv[3],
                       random.Random(int(sys.argv[4])
                                     if len(sys.argv) > 4 else 2026))
    if len(sys.argv) < 3:
        sys.stderr.write("usage: gen.py N OUTDIR [SEED]\n")
        return 2
    count = int(sys.argv[1])
    out = sys.argv[2]
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    folders = {"estimator": "estimator", "model_trainer": "model-trainer",
               "create_training_job": "create-training-job"}
    for d in folders.values():
        os.makedirs(os.path.join(out, d), exist_ok=True)
    makers = {"estimator": estimator, "model_trainer": model_trainer,
              "create_training_job": create_training_job}
    sizes = []
    broken_paths = []
    for n in range(count):
        r = rng.random()
        dialect = "estimator" if r < 0.5 else \
            "model_trainer" if r < 0.7 else "create_training_job"
        spec = makers[dialect](rng, n)
        if rng.random() < 0.3:
            spec = break_spec(rng, spec, dialect)
        broken = rng.random() < 0.02
        if dialect == "create_training_job":
            fmt = "json" if rng.random() < 0.8 else "yaml"
        else:
            fmt = "yaml" if rng.random() < 0.9 else "json"
        text = render(rng, n, dialect, spec, fmt, broken)
        rel = os.path.join(folders[dialect], "%06d.%s" % (n, fmt))
        path = os.path.join(out, rel)
        if broken:
            broken_paths.append(rel)
        with open(path, "w") as f:
            f.write(text)
        sizes.append(len(text))
    # the files that do not parse: JSON Schema validators stop at the
    # first one, so the harness leaves them out of their input
    with open(os.path.join(out, "broken.txt"), "w") as f:
        f.write("".join(p + "\n" for p in broken_paths))
    if sizes:
        sizes.sort()
        sys.stderr.write("gen.py: %d specs in %s, %d-%d bytes (median %d)\n"
                         % (count, out, sizes[0], sizes[-1],
                            sizes[len(sizes) // 2]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
