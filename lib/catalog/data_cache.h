/*
 * data_cache.h - the folder that holds refreshed instance data:
 *
 *   CACHE/lock             flock: shared while reading, exclusive while
 *                          starting a folder, switching folders, cleaning
 *                          up and writing checked.json
 *   CACHE/current          symlink to the data folder in use
 *   CACHE/data-XXXXXX/     instances.json, tested-models.json,
 *                          frameworks.json, [index.json], meta.json
 *   CACHE/.tmp-XXXXXX/     a folder being written (holds .busy, locked by
 *                          its writer while alive)
 *   CACHE/checked.json     time of the last successful update-data
 *
 * A new copy is written into a fresh folder, each file fsync'd, then the
 * `current` symlink is replaced by rename(2): readers see the old or the
 * new folder, never a mix. A .tmp- folder is created and its .busy
 * locked under the exclusive lock, so that a cleanup (which holds it too)
 * never finds a live writer's .busy unlocked and takes its folder for a
 * dead writer's.
 */
#ifndef SMP_DATA_CACHE_H
#define SMP_DATA_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "smpreflight.h"
#include "catalog/catalog.h"

/* The documents, in this order; index.json is optional. */
enum { SMP_DOC_INSTANCES, SMP_DOC_TESTED, SMP_DOC_FRAMEWORKS, SMP_DOC_INDEX };
#define SMP_DOC_COUNT 4
extern const char *const smp__doc_names[SMP_DOC_COUNT];

/* ------------------------------------- within the data_cache*.c files */

#define SMP_CACHE_META_NAME "meta.json"
#define SMP_CACHE_CHECKED_NAME "checked.json"
#define SMP_CACHE_META_MAX ((size_t)64 * 1024)

/* Fills err (may be NULL) and returns code. */
int smp__cache_fail(struct smp_error *err, int code, const char *source,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* snprintf for text that may be cut short (messages, known-short paths). */
void smp__cache_say(char *out, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* dir/name into out; SMP_EINVAL when it does not fit. */
int smp__cache_join(char *out, size_t size, const char *dir, const char *name,
		    struct smp_error *err);

/*
 * Opens CACHE/lock (never through a symlink, never a FIFO) and takes it
 * shared or exclusive. A reader that finds no usable lock file (nothing
 * was ever committed, or a read-only copy) reads without one: *fd is -1
 * then. SMP_EIO when an exclusive lock cannot be had.
 */
int smp__cache_lock(int *fd, const char *cache_dir, int exclusive,
		    struct smp_error *err);
void smp__cache_unlock(int fd);

/* ------------------------------------------------------------ */

/* meta.json: where a copy came from and how to ask for it again. */
struct smp_cache_meta {
	char *url; /* base URL, final '/' included */
	int64_t fetched;
	char *data_version;
	char *generated;
	/* how many days the source vouches for its data (index.json
	 * "max_age_days"); 0 when it declares no limit */
	int64_t max_age_days;
	char *etag[SMP_DOC_COUNT];          /* NULL when none */
	char *last_modified[SMP_DOC_COUNT]; /* NULL when none */
};

/* A copy read back from the cache; buffers are NUL-terminated. */
struct smp_cache_copy {
	char *buf[SMP_DOC_COUNT]; /* buf[SMP_DOC_INDEX] may be NULL */
	size_t len[SMP_DOC_COUNT];
	struct smp_cache_meta meta;
	char dir[1024]; /* CACHE/current */
};

/*
 * Reads CACHE/current under a shared lock. SMP_EIO when there is no copy
 * or a file is missing (err says which), SMP_EPARSE for a bad meta.json,
 * SMP_ELIMIT for a file over max bytes, SMP_ENOMEM.
 */
int smp__cache_read(struct smp_cache_copy *out, const struct smp_allocator *a,
		    const char *cache_dir, size_t max, struct smp_error *err);
void smp__cache_copy_release(struct smp_cache_copy *c,
			     const struct smp_allocator *a);

/*
 * File operations of a commit, replaceable so that tests can fail a
 * write or an fsync midway. NULL members use write(2) and fsync(2).
 * `at`, when set, is called at named points of a commit so that a test
 * can pause a writer there ("busy": the new folder's .busy file exists
 * and is about to be locked).
 */
struct smp_cache_io {
	ssize_t (*write)(void *ud, int fd, const void *buf, size_t len);
	int (*fsync)(void *ud, int fd);
	void *ud;
	void (*at)(void *ud, const char *point);
};

/*
 * Stores docs (buf[SMP_DOC_INDEX] may be NULL) and meta as the new
 * current copy, atomically; removes older copies and folders left by
 * writers that died. On any failure the current copy is untouched and
 * the new folder removed: SMP_EIO (err names the path), SMP_ENOMEM.
 */
int smp__cache_commit(const char *cache_dir, const char *const *buf,
		      const size_t *len, const struct smp_cache_meta *meta,
		      const struct smp_cache_io *io,
		      const struct smp_allocator *a, struct smp_error *err);

/* Records a successful update-data that changed nothing (checked.json). */
int smp__cache_mark_checked(const char *cache_dir, int64_t now,
			    const struct smp_cache_io *io,
			    struct smp_error *err);

/* Loads the embedded data into cat. */
int smp__catalog_load_embedded(struct smp_catalog *cat,
			       const struct smp_allocator *a,
			       struct smp_error *err);

/* The embedded data_version (parsing instances.json only). */
int smp__builtin_data_version(char out[32], const struct smp_allocator *a);

/* How a context without instance_data_dir chose its data. */
struct smp_data_choice {
	enum smp_data_origin origin; /* BUILTIN or CACHE */
	char *url;                   /* CACHE: the source URL */
	char *dir;                   /* CACHE: CACHE/current */
	int64_t fetched;
	int64_t max_age_days; /* CACHE: see struct smp_cache_meta */
	/* the cache was not used: why (empty when there was none) */
	char why_not[512];
	int older_than_builtin;
};

/*
 * Loads the cache when it is valid and not older than the embedded data,
 * else the embedded data. Only SMP_ENOMEM and a broken embedded table
 * fail; a bad cache is recorded in choice->why_not.
 */
int smp__data_load_default(struct smp_catalog *cat,
			   struct smp_data_choice *choice,
			   const struct smp_allocator *a, const char *cache_dir,
			   size_t max_size, struct smp_error *err);
void smp__data_choice_release(struct smp_data_choice *c,
			      const struct smp_allocator *a);

/*
 * Loads the cache in cache_dir into cat when it is valid and not older
 * than the embedded data (0, choice filled), else leaves cat alone (1);
 * SMP_ENOMEM. What the context uses (lib/context/data_origin.c).
 */
int smp__data_try_cache(struct smp_catalog *cat, struct smp_data_choice *choice,
			const struct smp_allocator *a, const char *cache_dir,
			size_t max_size);

/* Days since 1970-01-01 of a "YYYY-MM-DD" date; -1 when malformed. */
long smp__days_from_date(const char *date);

#endif
