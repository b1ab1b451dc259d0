/*
 * rule_table.c - the documentation of every rule, keyed by the enum that
 * rules.def generates. docs/rules.md, `sm-preflight rules` and `explain`
 * are all produced from this one table.
 */
#include <stdint.h>
#include <string.h>

#include "report/rule_table.h"
#include "util/text.h"

#define SEV(s) SMP_SEVERITY_##s

/*
 * One table: ids, severities and groups come from rules.def, the text
 * below fills summary, explanation and source of the same entries.
 */

/*
 * Where each rule comes from, as a reader can open it: AWS documentation
 * pages by title and URL, the SageMaker Python SDK by module and function
 * (v2.257.6, the last v2 release line with Training Compiler support).
 */
#define SRC_BEST                                                               \
	"AWS \"Best Practices and Considerations for Using SageMaker "         \
	"Training Compiler\", "                                                \
	"https://docs.aws.amazon.com/sagemaker/latest/dg/"                     \
	"training-compiler-tips-pitfalls.html"
#define SRC_TROUBLE                                                            \
	"AWS \"SageMaker Training Compiler Troubleshooting\", "                \
	"https://docs.aws.amazon.com/sagemaker/latest/dg/"                     \
	"training-compiler-troubleshooting.html"
#define SRC_SUPPORT                                                            \
	"AWS \"Supported Frameworks, AWS Regions, Instance Types, and Tested " \
	"Models\", "                                                           \
	"https://docs.aws.amazon.com/sagemaker/latest/dg/"                     \
	"training-compiler-support.html"
#define SRC_ENABLE_PT                                                          \
	"AWS \"Run PyTorch Training Jobs with SageMaker Training Compiler\", " \
	"https://docs.aws.amazon.com/sagemaker/latest/dg/"                     \
	"training-compiler-enable-pytorch.html"
#define SRC_ENABLE                                                             \
	"AWS \"Enable SageMaker Training Compiler\", "                         \
	"https://docs.aws.amazon.com/sagemaker/latest/dg/"                     \
	"training-compiler-enable.html"
#define SRC_CREATE_TJ                                                          \
	"Amazon SageMaker API Reference, \"CreateTrainingJob\", "              \
	"https://docs.aws.amazon.com/sagemaker/latest/APIReference/"           \
	"API_CreateTrainingJob.html"
#define SRC_SDK_BASE_VALIDATE                                                  \
	"SageMaker Python SDK v2.257.6 "                                       \
	"sagemaker.training_compiler.config.TrainingCompilerConfig.validate"

/*
 * Every rule id in one array of a fixed stride: a finding's rule, which
 * is one of these strings (smp__rule_id), gives its rule by its place
 * without a search (smp__rule_lookup, once per SARIF result).
 */
#define ID_SIZE 48
/* NOLINTBEGIN(bugprone-macro-parentheses): a string literal initializes
 * an array, and its size is asserted */
static const char ids[SMP_RULE_COUNT][ID_SIZE] = {
#define X(e, name, sev, grp, chk) [SMP_RULE_##e] = name,
#include "report/rules.def"
#undef X
};
#define X(e, name, sev, grp, chk)                                              \
	_Static_assert(sizeof(name) <= ID_SIZE, "a rule id is too long");
/* NOLINTEND(bugprone-macro-parentheses) */
#include "report/rules.def"
#undef X

static const struct smp_rule_info rules[SMP_RULE_COUNT] = {
/* NOLINTBEGIN(bugprone-macro-parentheses): designators cannot be wrapped */
#define X(e, name, sev, grp, chk)                                              \
	[SMP_RULE_##e].id = ids[SMP_RULE_##e],                                 \
	[SMP_RULE_##e].default_severity = SEV(sev),                            \
	[SMP_RULE_##e].group = grp,
/* NOLINTEND(bugprone-macro-parentheses) */
#include "report/rules.def"
#undef X

	[SMP_RULE_SYNTAX].summary = "the spec is not valid YAML or JSON",
	"The file could not be parsed. Nothing else in the document "
	"is checked until the syntax error is fixed. JSON is read "
	"strictly (RFC 8259): no comments, trailing commas or "
	"leading zeros.",
	"YAML 1.2 (https://yaml.org/spec/1.2.2/); RFC 8259 "
	"(https://www.rfc-editor.org/rfc/rfc8259)",
	[SMP_RULE_DUPLICATE_KEY].summary =
		"the same key appears twice in one mapping",
	"YAML and JSON parsers keep the last value of a repeated key "
	"without a word, so the first one is silently ignored. The "
	"SageMaker SDK would receive only the last value.",
	"YAML 1.2 section 3.2.1.1 (keys are unique); RFC 8259 section 4 (names "
	"SHOULD be unique)",
	[SMP_RULE_INPUT_LIMIT].summary =
		"the input exceeds a size, depth, node or encoding limit",
	"Specs are small. A file over 4 MiB, nesting deeper than 64, "
	"more than 100,000 nodes (aliases counted as expanded, so a "
	"'billion laughs' document stops early), a scalar over 64 KiB, "
	"more than 1,000 documents or invalid UTF-8 is refused at "
	"the offending position instead of exhausting memory.",
	"sm-preflight README, \"Bad input\" (the library takes other limits "
	"per call: the max_* fields of struct smp_options)",
	[SMP_RULE_UNKNOWN_KEY].summary = "a key the dialect does not have",
	"The SageMaker Python SDK estimators take **kwargs and silently "
	"ignore unknown keyword arguments, so a typo such as "
	"'compiler_confg' turns the compiler off without any error: an "
	"estimator key that misspells one of its class's arguments is an "
	"error. A key that is a valid argument of another estimator class "
	"(transformers_version on a PyTorch estimator) or that matches no "
	"argument at all is ignored by the SDK and the job runs: a "
	"warning. In a CreateTrainingJob request or ModelTrainer fields "
	"an unknown key is always an error (botocore and pydantic reject "
	"it).",
	"SageMaker Python SDK v2.257.6 "
	"sagemaker.estimator.EstimatorBase.__init__ (takes "
	"**kwargs); " SRC_CREATE_TJ,
	[SMP_RULE_WRONG_TYPE].summary = "a value has the wrong type",
	"For example 'instance_count: \"two\"', 'compiler_config: true' "
	"or 'pytorchxla: true' (the SDK crashes with AttributeError "
	"on a non-mapping), or an unquoted version such as 1.10 that "
	"YAML reads as the number 1.1.",
	"SageMaker Python SDK v2.257.6 "
	"sagemaker.{huggingface,pytorch,tensorflow}.estimator (compiler_config "
	"must be a TrainingCompilerConfig); SageMaker Python SDK v2.257.6 "
	"sagemaker.fw_utils.validate_distribution",
	[SMP_RULE_VALUE_NOT_STRING].summary =
		"an environment value or API hyperparameter is not a string",
	"Environment variables (and hyperparameters in a "
	"CreateTrainingJob request) are string-to-string maps. A "
	"number or boolean there is rejected by the API or converted "
	"in a way the script does not expect. Quote the value.",
	SRC_CREATE_TJ " (Environment, HyperParameters: string to string maps)",
	[SMP_RULE_API_LIMITS].summary =
		"a CreateTrainingJob map exceeds the API's limits",
	"HyperParameters hold at most 100 entries with keys up to 256 "
	"and values up to 2,500 characters; Environment at most 100 "
	"entries, keys matching [a-zA-Z_][a-zA-Z0-9_]* up to 512 "
	"characters and values up to 512. The API rejects the request "
	"otherwise.",
	SRC_CREATE_TJ " (HyperParameters and Environment limits)",
	[SMP_RULE_DIALECT_UNKNOWN].summary =
		"the document matches none of the three ways a job is written",
	"A spec is SageMaker Python SDK estimator kwargs, ModelTrainer "
	"kwargs or a CreateTrainingJob request; the dialect is detected "
	"from the keys. When no key points to any of them nothing else "
	"can be checked: use --dialect to force one.",
	"sm-preflight README, \"Usage\"; " SRC_CREATE_TJ,
	[SMP_RULE_NO_TRAINING_JOB].summary =
		"a Python source or notebook creates no training job",
	"A launcher or notebook is read for the SageMaker jobs it creates: "
	"HuggingFace, PyTorch, TensorFlow and Estimator from the sagemaker "
	"modules, ModelTrainer, and a SageMaker client's "
	"create_training_job. None was found through the imports, so "
	"nothing was checked. A job built by a function the file imports "
	"from elsewhere cannot be seen: check that function's file.",
	"SageMaker Python SDK v2.257.6 (sagemaker.huggingface.HuggingFace, "
	"sagemaker.modules.train.ModelTrainer); boto3 "
	"SageMaker.Client.create_training_job",
	[SMP_RULE_ANNOTATION_NOT_ASSIGNMENT].summary =
		"a subscript annotated where an assignment was meant",
	"A statement 'target[key]: value' is an annotated assignment "
	"without a value: Python evaluates the target and the annotation "
	"and stores nothing, so the dictionary keeps no such key and the "
	"job runs with the training script's default. A launcher means "
	"'target[key] = value'.",
	"Python Language Reference, \"Annotated assignment statements\" "
	"(https://docs.python.org/3/reference/"
	"simple_stmts.html#annotated-assignment-statements)",
	[SMP_RULE_IMPORTS_ASSUMED].summary =
		"SDK class names used without their imports",
	"A snippet as the documentation writes it (PyTorch(..., "
	"compiler_config=TrainingCompilerConfig()) without imports) is "
	"read as the SageMaker Python SDK's classes when the names can "
	"mean nothing else: they are only called, never defined, "
	"assigned or imported, and nothing is imported with '*'. The "
	"finding says which names were taken for the SDK's; add the "
	"imports to run the file.",
	"SageMaker Python SDK v2.257.6 (sagemaker.pytorch.PyTorch, "
	"sagemaker.huggingface.HuggingFace, "
	"sagemaker.tensorflow.TensorFlow, "
	"sagemaker.training_compiler.config.TrainingCompilerConfig);"
	" " SRC_ENABLE_PT,
	[SMP_RULE_ENTRY_POINT_MISSING].summary =
		"a framework estimator without entry_point",
	"The HuggingFace, PyTorch and TensorFlow estimators run a "
	"training script: Framework.__init__ takes entry_point as a "
	"required argument (TypeError without it), and the PyTorch "
	"estimator raises ValueError when neither entry_point nor "
	"training_recipe is given.",
	"SageMaker Python SDK v2.257.6 sagemaker.estimator.Framework, "
	"sagemaker.pytorch.estimator.PyTorch",
	[SMP_RULE_INSTANCE_UNKNOWN].summary =
		"the instance type is malformed or not in the instance data",
	"An instance type is written 'ml.<class>.<size>'. A value not "
	"shaped like that is an error; a well-formed type that the "
	"bundled instance data does not know is a warning (the data "
	"may be older than the type: run 'sm-preflight update-data').",
	SRC_SUPPORT "; Amazon SageMaker pricing, instance types "
		    "(https://aws.amazon.com/sagemaker/pricing/)",
	[SMP_RULE_INSTANCE_UNSUPPORTED].summary =
		"Training Compiler does not support this instance class",
	"The SDK accepts only the classes p3, p3dn, g4dn, p4d and g5, "
	"compared exactly: p4de, p5, g6, trn1 and CPU classes are "
	"rejected when the estimator is created.",
	SRC_SUPPORT "; " SRC_SDK_BASE_VALIDATE,
	[SMP_RULE_LOCAL_MODE].summary =
		"Training Compiler does not run in local mode",
	"The SDK rejects instance_type 'local' but lets 'local_gpu' "
	"through although its own message says local mode is not "
	"supported; the job then fails in the container.",
	SRC_SDK_BASE_VALIDATE " (rejects local; local_gpu is let through)",
	[SMP_RULE_INSTANCE_GROUPS].summary =
		"heterogeneous clusters are not supported with the compiler",
	"Training Compiler supports only homogeneous clusters: use "
	"instance_type and instance_count instead of instance_groups.",
	SRC_SDK_BASE_VALIDATE,
	[SMP_RULE_EFA_RECOMMENDED].summary =
		"multi-node training on an instance type without EFA",
	"Distributed training across instances is bound by the "
	"network. The best-practice guide asks for EFA instances such "
	"as ml.p3dn.24xlarge and ml.p4d.24xlarge, which shorten "
	"training time.",
	SRC_BEST " (Best Practices for PyTorch); SageMaker Python SDK v2.257.6 "
		 "sagemaker.{huggingface,pytorch}.training_compiler.config."
		 "TrainingCompilerConfig.validate",
	[SMP_RULE_PREFER_MULTI_GPU_INSTANCE].summary =
		"several single-GPU instances where one multi-GPU instance "
		"fits",
	"One ml.p3dn.24xlarge trains faster than 8 x ml.p3.2xlarge: "
	"GPUs in one instance talk over NVLink instead of the network. "
	"The finding names an instance with the same GPU count.",
	SRC_BEST " (Best Practices for PyTorch)",
	[SMP_RULE_DATA_STALE].summary = "the refreshed instance data is older "
					"than its source vouches for",
	"Data that is older than its source vouches for may miss "
	"instance types or tested models published since. AWS has "
	"announced no new releases of SageMaker Training Compiler: the "
	"built-in data describes a frozen catalog and never goes stale "
	"by age alone. A refreshed copy is stale when its 'generated' "
	"date lies further back than the 'max_age_days' the index.json "
	"it was downloaded with declares (no limit when it declares "
	"none). --stale-days N or SM_PREFLIGHT_STALE_DAYS sets a limit "
	"for any data, 0 turns the check off. The check runs once per "
	"run and reports at no position in a file named after the data. "
	"'sm-preflight update-data' refreshes the data and "
	"'sm-preflight data' shows which data is in use, its age and "
	"the limit in force.",
	"sm-preflight README, \"Refreshing instance data\"",
	[SMP_RULE_DISTRIBUTION_UNKNOWN_KEY].summary =
		"a distribution key the SDK does not know",
	"The SDK knows exactly 'pytorchxla'. The troubleshooting page "
	"prints 'torchxla' and the enable page says 'pytorch_xla': "
	"both are ignored on HuggingFace PyTorch < 1.11 and without a "
	"compiler, so workers silently train alone.",
	SRC_TROUBLE
	" (Training job fails due to missing PyTorch/XLA configuration); "
	"SageMaker Python SDK v2.257.6 "
	"sagemaker.{huggingface,pytorch}.estimator (the key is pytorchxla)",
	[SMP_RULE_DISTRIBUTION_INCOMPATIBLE].summary =
		"a distribution mechanism that cannot run with the compiler",
	"SageMaker distributed (smdistributed, and pytorchddp which "
	"the PyTorch estimator rewrites into it) and TensorFlow's "
	"multi_worker_mirrored_strategy are incompatible with Training "
	"Compiler; from HuggingFace PyTorch 1.11 / PyTorch 1.12 on, "
	"'pytorchxla' is the only mechanism allowed.",
	SRC_SDK_BASE_VALIDATE
	"; SageMaker Python SDK v2.257.6 "
	"sagemaker.{huggingface,pytorch,tensorflow}.training_compiler.config."
	"TrainingCompilerConfig.validate",
	[SMP_RULE_PYTORCHXLA_MISSING].summary =
		"a multi-GPU PyTorch compiler job without 'pytorchxla'",
	"Without the pytorchxla distribution each process trains its "
	"own copy of the model (several instances) or only one GPU is "
	"used (one multi-GPU instance). On versions before HuggingFace "
	"PyTorch 1.11 / PyTorch 1.12 the documented route is a "
	"launcher entry point with the real script in a "
	"'training_script' hyperparameter.",
	SRC_ENABLE_PT " (distributed training); " SRC_TROUBLE
		      " (Convergence issue in distributed training); SageMaker "
		      "Python SDK v2.257.6 "
		      "sagemaker.{huggingface,pytorch}.training_compiler."
		      "config.TrainingCompilerConfig.validate",
	[SMP_RULE_PYTORCHXLA_VERSION].summary =
		"'pytorchxla' on a framework version that does not have it",
	"The pytorchxla distribution exists for HuggingFace PyTorch "
	">= 1.11 and PyTorch >= 1.12 only (TensorFlow jobs get "
	"pytorchxla-tensorflow).",
	"SageMaker Python SDK v2.257.6 "
	"sagemaker.{huggingface,pytorch}.training_compiler.config."
	"TrainingCompilerConfig.validate",
	[SMP_RULE_PYTORCHXLA_WITHOUT_COMPILER].summary =
		"'pytorchxla' without compiler_config",
	"Distributed training through PyTorch/XLA is only supported "
	"when Training Compiler is enabled.",
	"SageMaker Python SDK v2.257.6 "
	"sagemaker.huggingface.estimator.HuggingFace.__init__, "
	"sagemaker.pytorch.estimator.PyTorch.__init__",
	[SMP_RULE_PYTORCHXLA_TENSORFLOW].summary =
		"'pytorchxla' on a TensorFlow job",
	"pytorchxla starts one PyTorch/XLA process per GPU; it is a "
	"PyTorch mechanism. The HuggingFace estimator refuses it with "
	"tensorflow_version when the compiler is on, and a TensorFlow "
	"container ignores it. TensorFlow jobs spread over GPUs with "
	"their own strategies.",
	"SageMaker Python SDK v2.257.6 sagemaker.huggingface.training_compiler."
	"config.TrainingCompilerConfig.validate",
	[SMP_RULE_COMPILER_NOT_ENABLED].summary =
		"the spec does not enable Training Compiler",
	"No compiler_config, Training Compiler image or "
	"sagemaker_training_compiler_enabled hyperparameter: only the "
	"generic checks apply. Add compiler_config to compile.",
	SRC_ENABLE,
	[SMP_RULE_COMPILER_DEBUG].summary = "the compiler's debug mode is on",
	"debug: true dumps detailed compilation logs, which adds "
	"overhead. Use it for debugging runs only.",
	SRC_BEST " (General Best Practices); SageMaker Python SDK v2.257.6 "
		 "sagemaker.training_compiler.config.TrainingCompilerConfig."
		 "disclaimers_and_warnings",
	[SMP_RULE_DEBUGGER_PROFILER_OVERHEAD].summary =
		"Debugger or Profiler left on in a compiler job",
	"The SDK attaches a default Debugger hook at fit() and the "
	"profiler runs unless disabled; both can trigger "
	"recompilation and slow training. Set debugger_hook_config: "
	"false and disable_profiler: true (in a CreateTrainingJob "
	"request: no DebugHookConfig, ProfilerConfig.DisableProfiler "
	"true).",
	SRC_BEST " (General Best Practices); " SRC_SDK_BASE_VALIDATE,
	[SMP_RULE_IMAGE_URI_OVERRIDE].summary =
		"image_uri cannot be combined with the compiler",
	"HuggingFace and PyTorch estimators with compiler_config must let "
	"the SDK pick the Training Compiler container from the framework "
	"versions: TrainingCompilerConfig.validate() raises ValueError "
	"for an image_uri. TensorFlow takes an image_uri as is.",
	"SageMaker Python SDK v2.257.6 "
	"sagemaker.{huggingface,pytorch}.training_compiler.config."
	"TrainingCompilerConfig.validate",
	[SMP_RULE_COMPILER_UNCHECKED].summary =
		"a hand-picked Training Compiler image without compiler_config",
	"With image_uri the SDK uses the image as is "
	"(image_uris.get_training_image_uri returns it unchanged). A "
	"Training Compiler image switched on by the "
	"sagemaker_training_compiler_enabled hyperparameter does compile, "
	"but none of TrainingCompilerConfig.validate()'s checks (versions, "
	"instance class, distribution) run: the job can fail or idle "
	"after it started. sm-preflight still applies its own compiler "
	"checks.",
	"SageMaker Python SDK v2.257.6 sagemaker.image_uris."
	"get_training_image_uri, sagemaker.training_compiler.config",
	[SMP_RULE_COMPILER_DISABLED].summary =
		"compiler_config with enabled: false still changes the job",
	"The SDK treats any compiler_config as a compiler job: it still "
	"selects the Training Compiler container and sends the "
	"compiler hyperparameters with enabled=false. Remove "
	"compiler_config entirely for a native run.",
	"SageMaker Python SDK v2.257.6 "
	"sagemaker.{huggingface,pytorch,tensorflow}.estimator (compiler_config "
	"is validated and sent whenever given)",
	[SMP_RULE_COMPILER_END_OF_SUPPORT].summary =
		"Training Compiler gets no new releases and no more patches",
	"AWS announced no new releases or versions of SageMaker Training "
	"Compiler. Its Deep Learning Containers stay usable for SageMaker "
	"Training but receive no more patches or updates, under the AWS "
	"Deep Learning Containers Framework Support Policy, and the "
	"SageMaker Python SDK v3 removed TrainingCompilerConfig. Said once "
	"per run: 'check' over many files says it at the first compiler "
	"job in output order (the library, once per report). To keep "
	"getting patches, train "
	"on a container the policy still supports without the compiler: "
	"PyTorch 2.x with torch.compile (the Hugging Face Trainer's "
	"torch_compile=True), or TensorFlow with XLA turned on in the "
	"script (jit_compile=True). Turn it off with --ignore "
	"compiler-end-of-support. Where the instance data has the end of "
	"patch of the job's framework version (PyTorch 1.13), the message "
	"gives the date.",
	SRC_TROUBLE
	" (the notice at the top of the page); AWS \"Framework "
	"Support Policy\" (Deep Learning Containers), "
	"https://docs.aws.amazon.com/deep-learning-containers/"
	"latest/devguide/support-policy.html, and its table of end "
	"of patch dates, https://aws.github.io/"
	"deep-learning-containers/reference/support_policy (PyTorch "
	"1.13: 2024-10-28; the other Training Compiler versions are "
	"not listed); SageMaker Python SDK "
	"v3 migration guide (migration.md: Training Compiler, "
	"TrainingCompilerConfig, removed); PyTorch torch.compile, "
	"https://pytorch.org/docs/stable/generated/"
	"torch.compile.html; TensorFlow \"XLA: Optimizing "
	"Compiler for Machine Learning\", "
	"https://www.tensorflow.org/xla",
	[SMP_RULE_COMPILER_REGION_UNAVAILABLE].summary =
		"no Training Compiler container in the job's region",
	"The SageMaker Python SDK's image tables publish each Training "
	"Compiler container in a fixed set of regions, none of them in "
	"the China, GovCloud or ISO partitions; a job in another region "
	"cannot pull its container. The region is the image URI's ECR "
	"host; else, in a Python launcher or notebook, the region_name of "
	"the boto3 session behind the estimator's sagemaker_session or "
	"of the client that sends the request, or AWS_DEFAULT_REGION as "
	"the source sets it (os.environ, %env), which boto3 reads; else "
	"--region, else AWS_REGION or AWS_DEFAULT_REGION; "
	"with none of them, the partition of the role ARN "
	"(arn:aws-cn:...) when it is not aws. When nothing says, the "
	"rule is quiet; so it is for an image URI in a registry account "
	"that is none of the SDK's tables' (a copy in the user's own ECR "
	"registry). The message lists the regions that have the "
	"container.",
	"SageMaker Python SDK v2.257.6 sagemaker.image_uris."
	"_registry_from_region and src/sagemaker/image_uri_config/"
	"{huggingface-training-compiler,pytorch-training-compiler,"
	"tensorflow}.json (the registries of each version); " SRC_SUPPORT
	" (AWS Regions)",
	[SMP_RULE_COMPILER_FLAGS_WITHOUT_CONFIG].summary =
		"sagemaker_training_compiler_* hyperparameters do nothing here",
	"Enabling the compiler needs both a Training Compiler container "
	"and the flags. Flags alone (what HuggingFace.attach() gives "
	"back from a compiled job) run on the plain framework image "
	"without compiling anything.",
	SRC_ENABLE_PT " (Using the SageMaker API); " SRC_CREATE_TJ,
	[SMP_RULE_MODEL_TRAINER_COMPILER].summary =
		"ModelTrainer has no Training Compiler support",
	"ModelTrainer (SDK v2 modules, SDK v3) validates nothing about "
	"the compiler: a Training Compiler image plus "
	"sagemaker_training_compiler_* hyperparameters is unsupported, "
	"and its own entry-point driver likely hides the flags from the "
	"container. Use an estimator (SDK v2) or a CreateTrainingJob "
	"request.",
	"SageMaker Python SDK v2.257.6 "
	"sagemaker.modules.train.model_trainer.ModelTrainer (no "
	"compiler_config); SageMaker Python SDK v3 migration guide (Training "
	"Compiler removed)",
	[SMP_RULE_FRAMEWORK_VERSION].summary =
		"no Training Compiler container for this framework version",
	"Supported: HuggingFace transformers 4.11/4.17/4.21 with their "
	"PyTorch 1.9/1.10/1.11 or TensorFlow 2.5/2.6 bases, PyTorch "
	"1.12/1.13, TensorFlow 2.9-2.11 (the SDK misses TF > 2.11, "
	"which then trains without the compiler). Every spelling a "
	"supported SDK release resolves is accepted.",
	SRC_SUPPORT
	"; SageMaker Python SDK v2.257.6 sagemaker.image_uris.retrieve "
	"(image_uri_config tables); SageMaker Python SDK v2.257.6 "
	"sagemaker.{huggingface,pytorch,tensorflow}.training_compiler.config."
	"TrainingCompilerConfig.validate",
	[SMP_RULE_PY_VERSION].summary =
		"py_version is not the container's Python",
	"Each Training Compiler container has one Python version "
	"(py37, py38 or py39); any other value, including 'py3' used "
	"in some AWS examples, fails at fit().",
	"SageMaker Python SDK v2.257.6 sagemaker.image_uris.retrieve "
	"(py_versions of image_uri_config)",
	[SMP_RULE_FRAMEWORK_VERSION_MISSING].summary =
		"a required framework or Python version is missing",
	"HuggingFace needs transformers_version and exactly one of "
	"pytorch_version / tensorflow_version; PyTorch and TensorFlow "
	"need framework_version and py_version (unless image_uri is "
	"given).",
	"SageMaker Python SDK v2.257.6 "
	"sagemaker.huggingface.estimator.HuggingFace._validate_args; SageMaker "
	"Python SDK v2.257.6 sagemaker.fw_utils.validate_version_or_image_args",
	[SMP_RULE_VERSION_SHAPE].summary =
		"transformers and base framework versions differ in shape",
	"The SDK requires transformers_version and the base framework "
	"version to have the same number of parts: '4.21' with "
	"'1.11', or '4.21.1' with '1.11.0'.",
	"SageMaker Python SDK v2.257.6 "
	"sagemaker.huggingface.estimator.HuggingFace._validate_args",
	[SMP_RULE_GPU_NUM_DEVICES_MISMATCH].summary =
		"GPU_NUM_DEVICES differs from the instance's GPU count",
	"GPU_NUM_DEVICES must equal the number of GPUs per instance, "
	"whether set in environment or through an n_gpus "
	"hyperparameter. With pytorchxla the container overwrites it, "
	"so a wrong value is only ignored (warning).",
	SRC_TROUBLE
	" (Training job fails due to missing PyTorch/XLA configuration)",
	[SMP_RULE_GPU_NUM_DEVICES_MISSING].summary =
		"a multi-GPU PyTorch job that never sets GPU_NUM_DEVICES",
	"PyTorch/XLA needs GPU_NUM_DEVICES equal to the number of GPUs "
	"per instance; without pytorchxla or the launcher route, the "
	"troubleshooting guide says a multi-GPU job without it fails "
	"with 'Missing XLA configuration'. Set it in environment, "
	"through an n_gpus hyperparameter that the script reads into "
	"it, or in the script itself (the guide's three ways).",
	SRC_TROUBLE
	" (Training job fails due to missing PyTorch/XLA configuration)",
	[SMP_RULE_GPU_NUM_DEVICES_INVALID].summary =
		"GPU_NUM_DEVICES is not a positive whole number as a string",
	"Environment values must be strings; a count written as "
	"\"four\" or as the number 4 is rejected or misread.",
	SRC_TROUBLE " (Training job fails due to missing PyTorch/XLA "
		    "configuration); " SRC_CREATE_TJ
		    " (Environment values are strings)",
	[SMP_RULE_PADDING_DYNAMIC].summary =
		"dynamic padding recompiles the graph for every new shape",
	"padding='longest' (or True) or pad_to_max_length false gives "
	"each batch its own tensor shape, and every new shape "
	"triggers a recompilation. Pad to a fixed max_length.",
	SRC_BEST " (General Best Practices: padding)",
	[SMP_RULE_BATCH_SIZE_BELOW_TESTED].summary =
		"the batch size is well below what the compiler fits",
	"Training Compiler shrinks the memory footprint, so a larger "
	"batch usually fits and trains faster. Fires when the per-GPU "
	"batch is below 75% of the tested compiler batch for this "
	"model, framework version and instance type, or, when the "
	"table has no such row, for the same model on an instance "
	"with the same GPU model and memory (the message names the "
	"row: framework version, instance, sequence length, "
	"precision). Of several rows it prefers the job's sequence "
	"length (max_seq_length, max_length, block_size), then the "
	"exact instance and versions, then the nearest versions, "
	"then the smallest batch; without a length, when the rows "
	"differ in length, the smallest batch (conservative). Batch "
	"names per_device_*/per_gpu_* and most others "
	"are per GPU; names configured as global, and a TensorFlow "
	"job's plain batch_size (Keras MirroredStrategy splits it "
	"across the GPUs), are the global batch = per-GPU batch x "
	"GPUs x instances. The table's sizes are per GPU, except "
	"the TensorFlow vision rows, which are per instance "
	"(ResNet152: 160 on ml.p3.2xlarge, 1280 on ml.p3.16xlarge) "
	"and are divided by its GPUs. The fix gives the tested "
	"batch and the learning rate scaled by k (linear) or sqrt(k) "
	"(--lr-scaling sqrt). Only for jobs with the compiler on; "
	"'sm-preflight suggest' shows the arithmetic.",
	SRC_BEST
	" (General Best Practices: batch size and learning rate); " SRC_SUPPORT
	" (tested models)",
	[SMP_RULE_BATCH_SIZE_ABOVE_TESTED].summary =
		"the batch size is above the largest tested compiler batch",
	"AWS tested this very job up to a smaller per-GPU batch: "
	"only a row with the same model, framework family (Hugging "
	"Face on PyTorch, PyTorch, Hugging Face on TensorFlow, "
	"TensorFlow) and framework version, on the same GPU model "
	"and memory, and, when the row has a sequence length, the "
	"same length stated in the spec counts; without such a row "
	"the rule is quiet, because another version, family or "
	"length says little about this job's memory. A spec that "
	"states no sequence length is only reported above 1.5x the "
	"largest tested batch of this job at any length (AWS's own "
	"BERT notebooks ran 24 where the 512-token row says 20). "
	"Larger batches "
	"risk running out of GPU memory, and some models fit less "
	"with the compiler than without. A tested size marked as a "
	"lower bound (the instance may fit more) is never reported.",
	SRC_SUPPORT " (tested models)",
	[SMP_RULE_MODEL_UNTESTED].summary =
		"the model is not in the tested-models table",
	"AWS publishes tested batch sizes per model, framework and "
	"instance. The model comes from the model hyperparameters "
	"(model_name_or_path, model_name, model_id, model_type, "
	"model; case, '/' and '_' do not matter) and is looked up "
	"for the job's framework, PyTorch or TensorFlow, any "
	"version (for any framework when the spec does not show "
	"it); local paths and URIs are not. An untested model "
	"may still work; measure GPU memory to find the largest "
	"batch.",
	SRC_BEST " (General Best Practices); " SRC_SUPPORT " (tested models)",
	[SMP_RULE_PREPROCESSING_WORKERS].summary =
		"preprocessing_num_workers is unset or far below the vCPUs",
	"Slow dataset preprocessing delays training. Set "
	"preprocessing_num_workers near the instance's vCPU count. "
	"SageMaker passes each hyperparameter to the entry script as "
	"--key value, and argparse's parse_args() exits on an option "
	"the script does not define, so an unset "
	"preprocessing_num_workers is only reported when the entry "
	"script was read and takes it (an argparse add_argument of "
	"--preprocessing_num_workers, or a field of that name in a "
	"dataclass parsed by HfArgumentParser); a value set far below "
	"the vCPUs is reported either way.",
	SRC_BEST " (Best Practices for PyTorch)",
	[SMP_RULE_SHORT_RUN].summary =
		"the run is too short to amortize compilation",
	"The first steps compile the graph and are slow; a run of a "
	"few steps pays the compilation cost without the speed-up.",
	SRC_BEST " (General Best Practices); " SRC_TROUBLE
		 " (SageMaker Training Compiler does not reduce the total "
		 "training time)",
	[SMP_RULE_LOGGING_TOO_FREQUENT].summary =
		"logging or evaluation every few steps breaks fused graphs",
	"Each log or evaluation forces an explicit evaluation of "
	"tensors, which breaks the compiler's fused operations. Log "
	"and evaluate less often (every 10 steps or more).",
	SRC_BEST " (General Best Practices)",
	[SMP_RULE_SCRIPT_MISSING].summary =
		"the entry script the job names could not be read",
	"The script rules read the Python file the spec names: "
	"entry_point (source_code.entry_script for ModelTrainer), or "
	"the 'training_script' hyperparameter of a launcher job, "
	"relative to the spec's folder and source_dir (for "
	"smp_check_buffer, the script_base_dir option). When it is "
	"missing, unreadable, not a regular file, larger than the "
	"file size limit, or an absolute path (never read), this "
	"information says so: the spec may be checked before the code "
	"exists. Remote code (an s3:// source_dir, git_config) is not "
	"looked for. --no-script turns all script checks off.",
	"sm-preflight README, \"Entry-script checks\"",
	[SMP_RULE_SCRIPT_PADDING_LONGEST].summary =
		"the script pads to the longest sequence of each batch",
	"padding='longest' or padding=True (in any call but a layer's) "
	"gives every batch its own tensor shape, and every new shape "
	"recompiles the graph. So does DataCollatorWithPadding with "
	"its default padding when nothing in the script pads to a "
	"fixed length. Use padding='max_length' with a fixed "
	"max_length.",
	SRC_BEST " (General Best Practices: padding)",
	[SMP_RULE_SCRIPT_ITEM_CALL].summary =
		"a tensor read on the host inside the training loop forces "
		"an evaluation",
	"tensor.item(), .cpu(), .numpy(), .tolist(), float(loss) or "
	"int(loss) copy a value to the host, and print() or logging of "
	"the loss before xm.mark_step() evaluates it: each ends the "
	"lazily built graph early and breaks fused operations. Found "
	"in a loop that calls backward() or steps the optimizer (or "
	"in a loop inside it), unless an `if` with a '%' test makes it "
	"periodic or it runs in xm.add_step_closure(). The loss is the "
	"receiver of the script's '.backward()' call. Log every N "
	"steps, after xm.mark_step().",
	SRC_BEST " (General Best Practices: explicit evaluation); " SRC_TROUBLE
		 " (logging tensors before xm.mark_step())",
	[SMP_RULE_SCRIPT_TORCH_SAVE].summary =
		"checkpoints saved with torch.save instead of xm.save",
	"PyTorch/XLA tensors must be moved to the CPU and written once "
	"across processes: use torch_xla.core.xla_model.save.",
	SRC_BEST " (Best Practices for PyTorch)",
	[SMP_RULE_SCRIPT_CUDA_DEVICE].summary =
		"the script uses CUDA devices instead of the XLA device",
	"A compiled PyTorch job must put the model and tensors on "
	"xm.xla_device(); CUDA devices, or a mix of CUDA and XLA, are "
	"among the most common causes of compilation failures. Found: "
	".cuda(), torch.device(\"cuda...\"), .to(\"cuda...\"), "
	"device=\"cuda...\" and torch.cuda.set_device(); "
	"torch.cuda.amp and torch.cuda queries are fine.",
	SRC_BEST " (Best Practices for PyTorch)",
	[SMP_RULE_SCRIPT_MARK_STEP_MISSING].summary =
		"the training loop steps the optimizer without xm.mark_step()",
	"torch_xla builds a graph lazily and runs it only at "
	"mark_step(). Without it after each update, steps pile up "
	"and printed or logged values are stale. MpDeviceLoader, "
	"xm.optimizer_step(..., barrier=True) and the Hugging Face "
	"Trainer mark the step themselves.",
	SRC_TROUBLE " (Convergence issue in single-GPU training)",
	[SMP_RULE_SCRIPT_MP_FN_MISSING].summary =
		"pytorchxla is enabled but the script has no _mp_fn(index)",
	"The launcher of the pytorchxla distribution imports the "
	"script and calls _mp_fn(index) at module level in each worker "
	"process; without it (or with no index parameter) distributed "
	"training does not start as intended. The Trainer needs it "
	"too: def _mp_fn(index): main().",
	SRC_ENABLE_PT " (distributed training); " SRC_TROUBLE
		      " (Convergence issue in distributed training)",
	[SMP_RULE_SCRIPT_DEVICE_LOADER_MISSING].summary =
		"distributed training without MpDeviceLoader and "
		"DistributedSampler",
	"Each worker needs its own shard of the data "
	"(DistributedSampler, or dataset sharding) fed through "
	"torch_xla.distributed.parallel_loader.MpDeviceLoader; "
	"otherwise workers train on the same data. Checked when the "
	"job is distributed and the script holds its training loop "
	"(not the Trainer, Accelerate or Lightning).",
	SRC_TROUBLE " (Convergence issue in distributed training)",
	[SMP_RULE_SCRIPT_SEED_MISSING].summary =
		"distributed training without a constant seed",
	"Workers must start from the same initial weights: set one "
	"constant seed (torch.manual_seed, transformers.set_seed) on "
	"every worker before building the model. A seed made from the "
	"worker's index, rank or ordinal differs per worker. The "
	"Trainer seeds the workers itself (TrainingArguments.seed).",
	SRC_TROUBLE " (Convergence issue in distributed training)",
	[SMP_RULE_SCRIPT_GPU_NUM_DEVICES].summary =
		"the script sets GPU_NUM_DEVICES wrongly",
	"os.environ values must be strings: the guide's own approach 3 "
	"assigns an int, which raises TypeError, and so does an "
	"n_gpus option parsed with type=int (approach 2). A hard-coded "
	"count must also match the instance's GPUs. A script that sets "
	"GPU_NUM_DEVICES (or reads an n_gpus hyperparameter into it) "
	"counts as setting it for gpu-num-devices-missing.",
	SRC_TROUBLE
	" (Training job fails due to missing PyTorch/XLA configuration)",
	[SMP_RULE_SCRIPT_AMP_ORDER].summary =
		"gradient clipping and reduction in the wrong order under AMP",
	"With a GradScaler the order is: scale and backward, reduce "
	"the gradients across workers (distributed), unscale_, clip, "
	"step, update, then xm.mark_step(). Clipping before unscale_ "
	"clips scaled gradients; reducing after unscale_ or the step "
	"applies each worker's own gradients.",
	SRC_TROUBLE " (Convergence issue in single-GPU training; Convergence "
		    "issue in distributed training)",
	[SMP_RULE_SCRIPT_GRADIENT_SYNC_MISSING].summary =
		"distributed training with a plain optimizer.step()",
	"Without xm.optimizer_step (or xm.reduce_gradients, an "
	"all_reduce of the gradients, or DistributedDataParallel) each "
	"worker updates its own model and training diverges.",
	SRC_BEST " (Best Practices for PyTorch); " SRC_TROUBLE
		 " (Convergence issue in distributed training)",
	[SMP_RULE_LEARNING_RATE_NOT_SCALED].summary =
		"the batch size changed but the learning rate did not follow",
	"Compared with the native baseline (--baseline), the global "
	"batch (per-GPU batch x GPUs x instances) changed by a factor "
	"k but the learning rate by neither k nor sqrt(k) (within "
	"5%), which often hurts convergence. Also reported when the "
	"compiled job drops a learning rate the baseline sets, and "
	"when neither sets one although k is not 1 (both then use "
	"the script's default).",
	SRC_BEST
	" (General Best Practices: batch size and learning rate); " SRC_TROUBLE
	" (Training job is not converging as expected)",
	[SMP_RULE_BASELINE_DRIFT].summary =
		"the compiled job differs from its native baseline elsewhere",
	"To tell compiler problems from hyperparameter problems, "
	"compare the native and compiled jobs with everything equal "
	"except the compiler, the batch size and the learning rate "
	"(--baseline). Compared: every hyperparameter except the "
	"batch-size and learning-rate names, sagemaker_* flags, "
	"training_script, n_gpus and what does not change what is "
	"learned: the data-loader workers (preprocessing_num_workers, "
	"dataloader_num_workers), evaluation, logging and checkpoint "
	"settings (per_device_eval_batch_size, logging_steps, "
	"eval_steps, save_steps, their strategies) and output paths "
	"(output_dir, logging_dir); numbers compare by value, "
	"booleans by truth. "
	"Also the instance type and count; the estimator and the "
	"framework and transformers versions. Not compared: entry "
	"point, source dir, environment, distribution, debugger, "
	"profiler and compiler settings, which a compiled job "
	"changes for good reasons.",
	SRC_TROUBLE " (Training job is not converging as expected when "
		    "compared to the native framework training job)",
	[SMP_RULE_SUPPRESSION_INVALID].summary =
		"an inline suppression comment that does not work",
	"A comment '# sm-preflight: ignore[rule-id,...] reason' on a "
	"finding's line, or on the line above it, suppresses that "
	"finding: it stays in JSON and SARIF output marked suppressed, "
	"but is hidden from text output and counts neither for the "
	"summary nor for the exit status. The reason is required, so "
	"that the next reader knows why. Reported here: a comment "
	"without a reason, without '[...]' or with an empty list, a "
	"rule id that does not exist (with a did-you-mean), a bad "
	"'until=YYYY-MM-DD' date, and a suppression whose until date "
	"has passed: it then stops working and the finding it "
	"suppressed is reported again. Such a comment suppresses "
	"nothing. JSON has no comments; --no-inline-ignores turns "
	"every inline suppression off.",
	"sm-preflight README, \"Suppressing a finding\"",
	[SMP_RULE_SUPPRESSION_UNUSED].summary =
		"an inline suppression that suppresses nothing",
	"A suppression names a rule that reports nothing on the "
	"comment's line (or, for a comment on a line of its own, on "
	"the next line that is not a comment): the problem was fixed, "
	"the rule was turned off, or the comment sits on the wrong "
	"line. Remove the rule id from the comment (or the whole "
	"comment) so that suppressions do not outlive their reason.",
	"sm-preflight README, \"Suppressing a finding\"",
/* NOLINTBEGIN(bugprone-macro-parentheses): designators cannot be wrapped */
#define R(a) [SMP_RULE_##a].once_per_run = 1,
/* NOLINTEND(bugprone-macro-parentheses) */
#include "report/rules.def"
#undef R
};

const char *
smp__rule_id(enum smp_rule_id rule)
{
	return rules[rule].id;
}

enum smp_severity
smp__rule_default_severity(enum smp_rule_id rule)
{
	return rules[rule].default_severity;
}

int
smp__rule_once(enum smp_rule_id rule)
{
	static const enum smp_rule_id once[] = {
#define O(a) SMP_RULE_##a,
#include "report/rules.def"
#undef O
	};
	size_t i;

	for (i = 0; i < sizeof(once) / sizeof(once[0]); i++)
		if (once[i] == rule)
			return 1;
	return 0;
}

int
smp__rule_unreadable(enum smp_rule_id rule)
{
	static const unsigned char unreadable[SMP_RULE_COUNT] = {
#define U(a) [SMP_RULE_##a] = 1,
#include "report/rules.def"
#undef U
	};

	return (unsigned)rule < SMP_RULE_COUNT && unreadable[rule];
}

int
smp__rule_lookup(enum smp_rule_id *out, const char *id)
{
	size_t i;

	uintptr_t at = (uintptr_t)id - (uintptr_t)ids;

	/* a finding's rule is the table's own string (smp__rule_id): its
	 * place in ids says which, without comparing text */
	if (at < sizeof(ids) && at % ID_SIZE == 0) {
		*out = (enum smp_rule_id)(at / ID_SIZE);
		return 0;
	}
	for (i = 0; i < SMP_RULE_COUNT; i++) {
		if (strcmp(rules[i].id, id) == 0) {
			*out = (enum smp_rule_id)i;
			return 0;
		}
	}
	return -1;
}

size_t
smp_rule_count(void)
{
	return SMP_RULE_COUNT;
}

const struct smp_rule_info *
smp_rule_at(size_t i)
{
	return i < SMP_RULE_COUNT ? &rules[i] : NULL;
}

const struct smp_rule_info *
smp_rule_find(const char *id)
{
	enum smp_rule_id r;

	return id && smp__rule_lookup(&r, id) == 0 ? &rules[r] : NULL;
}

int
smp__rule_selector_match(const char *selector, enum smp_rule_id rule)
{
	if (!selector || (unsigned)rule >= SMP_RULE_COUNT)
		return 0;
	if (strcmp(selector, rules[rule].id) == 0)
		return 3;
	if (strcmp(selector, rules[rule].group) == 0)
		return 2;
	return strcmp(selector, "ALL") == 0;
}

int
smp__rule_selector_known(const char *selector)
{
	size_t i;

	for (i = 0; i < SMP_RULE_COUNT; i++)
		if (smp__rule_selector_match(selector, (enum smp_rule_id)i))
			return 1;
	return 0;
}

/* The most specific entry of list naming rule (0: none). */
static int
best_match(const char *const *list, size_t count, enum smp_rule_id rule)
{
	int best = 0, m;
	size_t i;

	for (i = 0; i < count; i++) {
		m = smp__rule_selector_match(list[i], rule);
		if (m > best)
			best = m;
	}
	return best;
}

int
smp__rules_select(unsigned char on[SMP_RULE_COUNT], const char *const *select,
		  size_t select_count, const char *const *ignore,
		  size_t ignore_count, const char **bad)
{
	size_t i;
	int s;

	*bad = NULL;
	for (i = 0; i < select_count; i++)
		if (!smp__rule_selector_known(select[i])) {
			*bad = select[i] ? select[i] : "(null)";
			return -1;
		}
	for (i = 0; i < ignore_count; i++)
		if (!smp__rule_selector_known(ignore[i])) {
			*bad = ignore[i] ? ignore[i] : "(null)";
			return -1;
		}
	for (i = 0; i < SMP_RULE_COUNT; i++) {
		s = select_count ? best_match(select, select_count,
					      (enum smp_rule_id)i)
				 : 1;
		on[i] = s > 0 && s > best_match(ignore, ignore_count,
						(enum smp_rule_id)i);
	}
	return 0;
}

size_t
smp__rule_groups(const char *out[SMP_RULE_COUNT])
{
	size_t i, j, n = 0;

	for (i = 0; i < SMP_RULE_COUNT; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(out[j], rules[i].group) == 0)
				break;
		if (j == n)
			out[n++] = rules[i].group;
	}
	return n;
}

const char *
smp__rule_selector_closest(const char *selector)
{
	const char *cand[2 * SMP_RULE_COUNT + 1] = {NULL};
	size_t i, n = smp__rule_groups(cand);

	for (i = 0; i < SMP_RULE_COUNT; i++)
		cand[n++] = rules[i].id;
	cand[n++] = "ALL";
	return selector ? smp__did_you_mean(selector, cand, n) : NULL;
}
