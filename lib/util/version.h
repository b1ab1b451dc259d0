/* version.h - dotted version numbers such as "1.11.0" */
#ifndef SMP_VERSION_H
#define SMP_VERSION_H

/* A dotted version such as "1.11.0"; parts beyond 4 are ignored. */
struct smp_version {
	int part[4];
	int count; /* number of parts given; 0 when unparsable */
};

/* Parses "1.11.0" / "1.11"; returns 0 or -1 when not dotted digits. */
int smp__version_parse(struct smp_version *out, const char *s);

/* Compares a and b part by part, missing parts as 0 (1.11 == 1.11.0). */
int smp__version_cmp(const struct smp_version *a, const struct smp_version *b);

#endif
