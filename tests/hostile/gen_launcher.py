#!/usr/bin/env python3
"""gen_launcher.py KIND FILE - a generated hostile Python launcher.

KIND is one of
  dict       one dict literal of 200,000 keys (3.5 MB)
  subscript  200,000 lines of hp["k"]=i (4 MB)
  collide    100,000 names of one bucket of a 4,096-bucket djb2 table,
             each looked up again (1.5 MB)
  calls      3.8 MB of estimator calls (12,000 of them)
  budget     a list doubled 18 times before the job (the evaluation
             budget runs out)
Used by tests/hostile/run.sh and by the hostile set of `make bench`.
"""
import sys
kind, path = sys.argv[1], sys.argv[2]
head = ("from sagemaker.pytorch import PyTorch\n"
        "from sagemaker.training_compiler.config import TrainingCompilerConfig\n")
call = ('est = PyTorch(entry_point="train.py", instance_type="ml.p3.2xlarge", '
        'instance_count=1, framework_version="1.13.1", py_version="py39", '
        'hyperparameters=hp, compiler_config=TrainingCompilerConfig())\n')
out = [head]
if kind == "dict":        # one dict literal of 200,000 keys
    out.append("hp = {" + ", ".join('"k%d": %d' % (i, i)
                                    for i in range(200000)) + "}\n")
elif kind == "subscript": # 200,000 lines of hp["k"] = i
    out.append("hp = {}\n")
    out += ['hp["k%d"]=%d\n' % (i, i) for i in range(200000)]
elif kind == "collide":   # names of one bucket of a 4,096-bucket djb2
    def djb(s):
        h = 5381
        for c in s:
            h = (h * 33 + ord(c)) & 0xffffffffffffffff
        return h
    al = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
    tab = {}
    for a in al:
        for b in al:
            for c in al:
                tab.setdefault((ord(a) * 1089 + ord(b) * 33 + ord(c)) % 4096,
                               a + b + c)
    names, i = [], 0
    while len(names) < 100000:
        s = "v%d" % i
        i += 1
        need = (7 - djb(s) * 35937) % 4096
        if need in tab:
            names.append(s + tab[need])
    out.append("hp = {}\n%s = 1\n" % names[0])
    out += ["%s = %s\n" % (n, names[0]) for n in names[1:]]
elif kind == "budget":    # 8 * 2**18 items: past the value budget
    out.append("hp = {}\nl = [1, 2, 3, 4, 5, 6, 7, 8]\n" + "l = l + l\n" * 18)
elif kind == "calls":     # 3.8 MB of job calls
    one = ('e%d = PyTorch(entry_point="train.py", instance_type="ml.p3.2xlarge", '
           'instance_count=1, framework_version="1.13.1", py_version="py39", '
           'hyperparameters={"epochs": 1, "lr": 0.1, "x": "' + "a" * 60 +
           '"}, compiler_config=TrainingCompilerConfig())\n')
    n, size = 0, 0
    while size < 3800000:
        out.append(one % n)
        size += len(out[-1])
        n += 1
    call = ""
out.append("hp = {}\n" if kind == "calls" else "")
out.append(call)
open(path, "w").write("".join(out))
