"""The SDK's training-image tables, for generate.py (frameworks.json).

Reads, from a git directory of aws/sagemaker-python-sdk at one ref (a tag
such as v2.257.6), the files image_uris.retrieve() reads for a training
image:

  src/sagemaker/image_uri_config/{huggingface-training-compiler,
    pytorch-training-compiler,huggingface,pytorch,tensorflow}.json
                       (scope "training": versions, version_aliases,
                        py_versions, repository, registries, processors,
                        container_version)
  src/sagemaker/image_uris.py
                       (the literal table of container suffixes that
                        _get_image_tag() appends on ml.p4d and with
                        smdistributed; read with ast, never executed)

and turns them into flat rows the C loader reads (lib/catalog/catalog.c)
and lib/job/image_uri.c derives URIs from. The ECR host name of each
region comes from botocore's endpoint data (Debian python3-botocore), as
the SDK's utils._botocore_resolver() gets it. No SDK code is copied: only
the values of these data files end up in frameworks.json.
"""

import ast
import json
import subprocess

FILES = ("huggingface-training-compiler", "pytorch-training-compiler",
         "huggingface", "pytorch", "tensorflow")
# retrieve()'s framework name and whether the file is a compiler table
FRAMEWORK = {
    "huggingface-training-compiler": ("huggingface", True),
    "pytorch-training-compiler": ("pytorch", True),
    "huggingface": ("huggingface", False),
    "pytorch": ("pytorch", False),
    "tensorflow": ("tensorflow", False),
}
CONFIG_KEYS = {"py_versions", "registries", "repository", "container_version"}


class SdkError(Exception):
    pass


def _check(cond, msg):
    if not cond:
        raise SdkError(msg)


def _git(gitdir, *args):
    try:
        out = subprocess.run(["git", "--git-dir=" + gitdir] + list(args),
                             check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SdkError("git %s: %s" % (" ".join(args), e))
    return out.stdout.decode("utf-8")


def _graviton(source):
    """fw_utils.GRAVITON_ALLOWED_TARGET_INSTANCE_FAMILY: on these families
    retrieve() switches PyTorch and TensorFlow to the inference_graviton
    scope (and refuses the other frameworks)."""
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id
                == "GRAVITON_ALLOWED_TARGET_INSTANCE_FAMILY"):
            return list(ast.literal_eval(node.value))
    raise SdkError("fw_utils.py: no GRAVITON_ALLOWED_TARGET_INSTANCE_FAMILY")


def _suffixes(source):
    """The container_versions literal inside _get_image_tag()."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "container_versions"
                and isinstance(node.value, ast.Dict)):
            table = ast.literal_eval(node.value)
            return [{"tag": k, "suffix": v} for k, v in table.items()]
    raise SdkError("image_uris.py: no container_versions table")


class _Registries:
    """Distinct region -> account maps, named r1, r2... in first-seen
    order (the tables repeat a handful of maps hundreds of times)."""

    def __init__(self):
        self.names = {}
        self.rows = []

    def key(self, registries):
        _check(isinstance(registries, dict) and registries,
               "empty registries")
        frozen = json.dumps(registries, sort_keys=True)
        if frozen not in self.names:
            name = "r%d" % (len(self.names) + 1)
            self.names[frozen] = name
            for region in sorted(registries):
                self.rows.append({"set": name, "region": region,
                                  "account": registries[region]})
        return self.names[frozen]


def _config_rows(fname, scope, regs):
    framework, compiler = FRAMEWORK[fname]
    processors = scope.get("processors")
    _check(isinstance(processors, list) and processors,
           "%s: no processors" % fname)
    aliases = scope.get("version_aliases", {})
    rows = []

    def row(version, base, base_aliases, py_versions, py_keyed, cfg):
        extra = set(cfg) - CONFIG_KEYS
        _check(not extra, "%s %s: unexpected keys %s (tag_prefix, "
               "processors per version... are not modelled)"
               % (fname, version, sorted(extra)))
        cv = cfg.get("container_version") or {}
        _check(set(cv) <= {"cpu", "gpu"},
               "%s %s: container_version for %s" % (fname, version,
                                                    sorted(cv)))
        rows.append({
            "framework": framework,
            "compiler": compiler,
            "version": version,
            "version_aliases": sorted(a for a, v in aliases.items()
                                      if v == version),
            "base_framework": base,
            "base_framework_aliases": base_aliases,
            "py_versions": py_versions,
            "py_keyed": py_keyed,
            "repository": cfg["repository"],
            "registries": regs.key(cfg["registries"]),
            "processors": processors,
            "container_version_cpu": cv.get("cpu"),
            "container_version_gpu": cv.get("gpu"),
        })

    def leaf(version, base, base_aliases, cfg):
        if "repository" in cfg:
            py = cfg.get("py_versions", [])
            _check(isinstance(py, list), "%s %s: py_versions" % (fname,
                                                                 version))
            row(version, base, base_aliases, py, False, cfg)
            return
        # keyed by Python version (TensorFlow 1.13.1: py2, py3)
        for py, sub in cfg.items():
            _check(isinstance(sub, dict) and "repository" in sub,
                   "%s %s: unexpected %r" % (fname, version, py))
            row(version, base, base_aliases, [py], True, sub)

    for version, vcfg in scope["versions"].items():
        if framework == "huggingface":
            base_al = vcfg.get("version_aliases", {})
            for base, cfg in vcfg.items():
                if base == "version_aliases":
                    continue
                leaf(version, base,
                     sorted(a for a, b in base_al.items() if b == base), cfg)
        else:
            leaf(version, None, [], vcfg)
    for a, v in aliases.items():
        _check(v in scope["versions"], "%s: alias %s -> unknown %s"
               % (fname, a, v))
    return rows


def _hostnames(regions):
    try:
        import botocore
        import botocore.loaders
        import botocore.regions
    except ImportError:
        raise SdkError("python3-botocore is needed for the ECR host names "
                       "(apt-get install python3-botocore)")
    data = botocore.loaders.create_loader().load_data("endpoints")
    resolver = botocore.regions.EndpointResolver(data)
    out, unknown = [], []
    for region in sorted(regions):
        ep = resolver.construct_endpoint("ecr", region)
        # image_uris.retrieve()'s own fallback
        if region == "il-central-1" and not ep:
            ep = {"hostname": "ecr.%s.amazonaws.com" % region}
        if not ep or not ep.get("hostname"):
            # no partition of this botocore matches: the SDK would fail
            # here too, so the region has no URI (never guessed)
            unknown.append(region)
            continue
        out.append({"region": region, "hostname": ep["hostname"]})
    note = botocore.__version__
    if unknown:
        note += " (which has no ECR endpoint for " + ", ".join(unknown) + ")"
    return out, note


def read_sdk(gitdir, ref):
    """Everything frameworks.json takes from the SDK, plus a description
    of where it came from (repository, ref, version, commit)."""
    commit = _git(gitdir, "rev-parse", ref + "^{commit}").strip()
    version = _git(gitdir, "show", ref + ":VERSION").strip()
    regs = _Registries()
    configs = []
    for fname in FILES:
        path = "src/sagemaker/image_uri_config/%s.json" % fname
        doc = json.loads(_git(gitdir, "show", "%s:%s" % (ref, path)))
        _check("training" in doc, "%s: no training scope" % path)
        configs.extend(_config_rows(fname, doc["training"], regs))
    suffixes = _suffixes(_git(gitdir, "show",
                              ref + ":src/sagemaker/image_uris.py"))
    graviton = _graviton(_git(gitdir, "show",
                              ref + ":src/sagemaker/fw_utils.py"))
    hosts, botocore_version = _hostnames({r["region"] for r in regs.rows})
    where = ("aws/sagemaker-python-sdk %s (version %s, commit %s): "
             "src/sagemaker/image_uri_config/{%s}.json, scope training; "
             "the container suffix table of image_uris._get_image_tag(); "
             "fw_utils.GRAVITON_ALLOWED_TARGET_INSTANCE_FAMILY; "
             "ECR host names from botocore %s endpoint data, as "
             "utils._botocore_resolver()"
             % (ref, version, commit, ",".join(FILES), botocore_version))
    return {
        "where": where,
        "image_configs": configs,
        "image_registries": regs.rows,
        "ecr_hostnames": hosts,
        "image_tag_suffixes": suffixes,
        "sdk_graviton_families": graviton,
    }


TABLE_KEYS = ("image_configs", "image_registries", "ecr_hostnames",
              "image_tag_suffixes", "sdk_graviton_families")
SOURCE_KEY = "SDK-IMAGE-URIS"
SOURCE_TAIL = (": image_configs, image_registries, ecr_hostnames, "
               "image_tag_suffixes, sdk_graviton_families")


def carry_over(path):
    """The SDK tables of an existing frameworks.json, for regenerating the
    reference-derived parts without the SDK at hand (make test's staleness
    check): the same dict read_sdk() returns."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise SdkError("cannot read %s: %s" % (path, e))
    src = [s for s in doc.get("sources", []) if s.get("key") == SOURCE_KEY]
    _check(len(src) == 1 and src[0]["description"].endswith(SOURCE_TAIL),
           "%s: no %s source to carry over" % (path, SOURCE_KEY))
    out = {"where": src[0]["description"][:-len(SOURCE_TAIL)]}
    for k in TABLE_KEYS:
        _check(k in doc, "%s: no %r to carry over" % (path, k))
        out[k] = doc[k]
    return out


def cross_check(images, sdk):
    """Every Training Compiler image configuration of frameworks.json
    'images' (from the reference folder) must be one the SDK tables
    resolve, with the same Python versions and repository."""
    for im in images:
        fw = im["estimator"]
        compiler = fw != "tensorflow"
        found = False
        for c in sdk["image_configs"]:
            if c["framework"] != fw or c["compiler"] != compiler:
                continue
            if fw == "huggingface":
                if (c["version"] != im["transformers_version"]
                        or c["base_framework"] != im["framework"]
                        + im["framework_version"]):
                    continue
            elif c["version"] != im["framework_version"]:
                continue
            found = (c["py_versions"] == im["py_versions"]
                     and c["repository"] == im["repository"])
            break
        _check(found, "image %s %s %s disagrees with the SDK tables"
               % (fw, im["framework_version"], im["repository"]))
