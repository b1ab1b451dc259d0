#!/usr/bin/env python3
"""pyvalidate.py SCHEMAS_DIR SPECS_DIR - the structural check of `make bench`
done the usual Python way: PyYAML (its C loader when built with libyaml)
reads every spec of SPECS_DIR/<dialect>/ and python3-jsonschema validates
it against the project's schema for that dialect (draft 2020-12). Prints
"N files, E invalid, S unreadable". Exit 0 whatever the specs hold.
"""
import json
import os
import sys

import jsonschema
import yaml

SCHEMAS = {"estimator": "estimator.schema.json",
           "model-trainer": "model-trainer.schema.json",
           "create-training-job": "create-training-job.schema.json"}


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: pyvalidate.py SCHEMAS_DIR SPECS_DIR\n")
        return 2
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    files = invalid = unreadable = 0
    for folder, name in sorted(SCHEMAS.items()):
        with open(os.path.join(sys.argv[1], name)) as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        validator = cls(schema)
        root = os.path.join(sys.argv[2], folder)
        if not os.path.isdir(root):
            continue
        for entry in sorted(os.listdir(root)):
            if not entry.endswith((".yaml", ".yml", ".json")):
                continue
            files += 1
            try:
                with open(os.path.join(root, entry), "rb") as f:
                    doc = yaml.load(f, Loader=loader)
            except (OSError, yaml.YAMLError):
                unreadable += 1
                continue
            if any(True for _ in validator.iter_errors(doc)):
                invalid += 1
    print("%d files, %d invalid, %d unreadable" % (files, invalid, unreadable))
    return 0


if __name__ == "__main__":
    sys.exit(main())
