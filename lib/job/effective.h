/*
 * effective.h - the effective job: what SageMaker will actually run.
 *
 * After a normalizer filled what the spec says, smp__job_resolve() turns
 * it, the same way for every dialect, into the effective training request
 * (what estimator.fit() would send, or what the CreateTrainingJob request
 * or ModelTrainer sends) and the facts several rules share. Rules read
 * these facts, never the dialect's spelling, so the same job gives the
 * same findings however it is written. Each fact keeps the node it came
 * from. The SageMaker Python SDK v2 behaviour followed, per fact:
 *
 *  image            given (image_uri, training_image, TrainingImage) is
 *                   used as is: Framework.training_image_uri ->
 *                   image_uris.get_training_image_uri returns it unchanged.
 *                   Else derived: image_uris.retrieve picks the
 *                   ...-trcomp-training repository for HuggingFace and
 *                   PyTorch with compiler_config, and the plain
 *                   tensorflow-training image for TensorFlow (the SDK
 *                   never changes a TensorFlow image). Versions known only
 *                   from an image tag fill the version facts in every
 *                   dialect, so version rules still run.
 *  hyperparameters  the user's plus what Framework.hyperparameters adds:
 *                   <framework>/estimator.py hyperparameters() updates
 *                   them with TrainingCompilerConfig._to_hyperparameter_
 *                   dict() (sagemaker_training_compiler_enabled/_debug_
 *                   mode) and Framework._distribution_configuration
 *                   (sagemaker_pytorch_xla_multi_worker_enabled); the
 *                   SDK's values win over the user's (dict.update).
 *  compiler         compiler_config given (not null), whatever its
 *                   'enabled' (Python 3 ignores the config's __nonzero__,
 *                   so the SDK validates and sends enabled: false too);
 *                   or a Training Compiler image with the
 *                   sagemaker_training_compiler_enabled hyperparameter;
 *                   or, for TensorFlow >= 2.9 on its GPU training image
 *                   (derived or given), that hyperparameter alone.
 *  debug            compiler_config.debug, else the _debug_mode
 *                   hyperparameter.
 *  pytorchxla       distribution.pytorchxla.enabled (default false), or
 *                   the sagemaker_pytorch_xla_multi_worker_enabled
 *                   hyperparameter (what the container's launcher reads).
 *  xla version      HuggingFace PyTorch >= 1.11, PyTorch >= 1.12
 *                   (<framework>/training_compiler/config.py validate()).
 *  launcher route   a 'training_script' hyperparameter (the entry point
 *                   starts torch_xla.distributed.sm_dist) in the
 *                   HuggingFace container; in the PyTorch one (>= 1.12,
 *                   with pytorchxla) it is a hyperparameter like any
 *                   other (AWS's find_max_batch_size.py wrapper on
 *                   PyTorch 1.13.1 runs one process), and multi-GPU
 *                   needs pytorchxla.
 *  GPUs             per instance from the instance data; GPU_NUM_DEVICES
 *                   from the environment, an n_gpus hyperparameter or the
 *                   script, and set by the container with pytorchxla on.
 *  Debugger         estimator: on unless debugger_hook_config is false
 *                   (None/null is the default: EstimatorBase._validate_
 *                   and_set_debugger_configs attaches a hook), off for
 *                   PyTorch/TensorFlow with checkpoint_s3_uri and
 *                   checkpoint_local_path on several instances or with a
 *                   distribution (Framework._validate_and_set_debugger_
 *                   configs). Other dialects: when DebugHookConfig is set.
 *  ranges           a tuning job definition's HyperParameterRanges: each
 *                   tuned hyperparameter is in the effective ones with
 *                   the upper end of its range as the value (MaxValue,
 *                   or the largest of a categorical range's Values), so
 *                   that a rule reading one value judges the largest a
 *                   launched job may get; smp__job_range() gives the
 *                   whole range to the rules that judge both ends.
 *  Profiler         estimator: on unless disable_profiler (or
 *                   profiler_config.disable_profiler) is true (EstimatorBase
 *                   ._prepare_profiler_for_training); other dialects: when
 *                   ProfilerConfig is set without DisableProfiler: true.
 *
 *  image, region   the image SageMaker pulls (the given URI, else the one
 *                   image_uris.retrieve derives) and the region it runs
 *                   in: the given image's ECR host, else where a Python
 *                   source creates the job (its session's or client's
 *                   region_name, AWS_DEFAULT_REGION as it sets it), else
 *                   the caller's (smp_options.region); its partition
 *                   from the region's prefix; whether the SDK's registry tables
 *                   (image_uris._registry_from_region) publish the
 *                   image's repository there. Unknown region: no image
 *                   is derived and nothing is said about regions. From
 *                   the pulled URI: its registry account and its tag's
 *                   Python and CUDA parts, with the account the SDK's
 *                   table gives that repository in the region (for
 *                   messages; an image in the user's own ECR registry
 *                   is legitimate, so the accounts are not compared).
 *
 * Deliberately not modelled: Debugger and Profiler by region,
 * PipelineVariables, the SDK's
 * sagemaker_program / sagemaker_submit_directory / sagemaker_region /
 * sagemaker_job_name hyperparameters (nothing here depends on them),
 * recipes (training_recipe), and local mode beyond its instance type.
 *
 * Frontends that feed this model (Python sources, notebooks, a
 * DescribeTrainingJob response) produce one of the three dialects' trees
 * and call the normalizer, then these two functions, in this order.
 */
#ifndef SMP_EFFECTIVE_H
#define SMP_EFFECTIVE_H

#include "catalog/catalog.h"
#include "job/job.h"

/*
 * Resolves every effective fact but the entry script's from what the
 * normalizer filled, with cat for instance GPUs and version limits.
 * Made-up nodes go to job->arena (job->oom on failure).
 */
void smp__job_resolve(struct smp_job *job, const struct smp_catalog *cat);

/* Adds what the entry script establishes (job->script, when scanned). */
void smp__job_resolve_script(struct smp_job *job);

/*
 * The value the container receives for hyperparameter name: the SDK's
 * when it adds that name, else the user's; NULL when neither.
 */
const struct smp_node *smp__job_hyperparameter(const struct smp_job *job,
					       const char *name);

/*
 * The image the job pulls and its region (image_region.c): the region
 * from the given image's ECR host, else job->region_default; the image
 * as given, else derived as image_uris.retrieve() does; and whether the
 * SDK's registry tables publish that image's repository in the region.
 * Called by smp__job_resolve().
 */
void smp__job_resolve_image_region(struct smp_job *job,
				   const struct smp_catalog *cat);

/*
 * The range a tuning job searches for the hyperparameter whose effective
 * value is value (its upper end), or NULL when value is not tuned.
 */
const struct smp_hp_range *smp__job_range(const struct smp_job *job,
					  const struct smp_node *value);

#endif
