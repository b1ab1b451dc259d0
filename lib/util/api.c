/* api.c - small public helpers: version, error and enum names */
#include <string.h>

#include "smpreflight.h"

const char *
smp_version(void)
{
	return SMP_VERSION_STRING;
}

const char *
smp_strerror(int code)
{
	switch (code) {
	case SMP_OK:
		return "success";
	case SMP_ENOMEM:
		return "out of memory";
	case SMP_EIO:
		return "input/output error";
	case SMP_EPARSE:
		return "malformed data";
	case SMP_EINVAL:
		return "invalid argument";
	case SMP_ELIMIT:
		return "input limit exceeded";
	case SMP_EFETCH:
		return "download failed";
	case SMP_EINTERNAL:
		return "internal error";
	default:
		return "unknown error";
	}
}

static const char *const severity_names[] = {"off", "info", "warning", "error"};

const char *
smp_severity_name(enum smp_severity severity)
{
	if ((unsigned)severity > SMP_SEVERITY_ERROR)
		return "off";
	return severity_names[severity];
}

int
smp_severity_parse(enum smp_severity *out, const char *name)
{
	unsigned i;

	if (!out || !name)
		return SMP_EINVAL;
	for (i = 0; i <= SMP_SEVERITY_ERROR; i++) {
		if (strcmp(name, severity_names[i]) == 0) {
			*out = (enum smp_severity)i;
			return 0;
		}
	}
	return SMP_EINVAL;
}

const char *
smp_lr_scaling_name(enum smp_lr_scaling scaling)
{
	return scaling == SMP_LR_SCALING_SQRT ? "sqrt" : "linear";
}

int
smp_lr_scaling_parse(enum smp_lr_scaling *out, const char *name)
{
	if (!out || !name)
		return SMP_EINVAL;
	if (strcmp(name, "linear") == 0)
		*out = SMP_LR_SCALING_LINEAR;
	else if (strcmp(name, "sqrt") == 0)
		*out = SMP_LR_SCALING_SQRT;
	else
		return SMP_EINVAL;
	return 0;
}

static const char *const dialect_names[] = {
	"auto", "estimator", "model_trainer", "create_training_job"};

const char *
smp_dialect_name(enum smp_dialect dialect)
{
	if ((unsigned)dialect > SMP_DIALECT_CREATE_TRAINING_JOB)
		return "auto";
	return dialect_names[dialect];
}

int
smp_dialect_parse(enum smp_dialect *out, const char *name)
{
	unsigned i;

	if (!out || !name)
		return SMP_EINVAL;
	for (i = 0; i <= SMP_DIALECT_CREATE_TRAINING_JOB; i++) {
		if (strcmp(name, dialect_names[i]) == 0) {
			*out = (enum smp_dialect)i;
			return 0;
		}
	}
	return SMP_EINVAL;
}
