/*
 * yaml_block.h - the block subset of YAML that specs are written in,
 * scanned without libyaml into the events libyaml would send for it.
 * libyaml costs about 150 instructions a byte; a spec of plain keys,
 * block mappings and sequences and one-line scalars costs this scanner a
 * tenth of that. Anything outside the subset, or anything libyaml would
 * refuse, is declined and goes to libyaml, which stays the parser of
 * record: tests/unit/test_yaml_block.c compares the two event streams.
 */
#ifndef SMP_YAML_BLOCK_H
#define SMP_YAML_BLOCK_H

#include <stddef.h>

#include <yaml.h>

#include "util/alloc.h"

/*
 * The events of the one document of buf[0..len) when it is in the
 * subset: document start, the nodes, document end (no stream events).
 * Scalar values point into buf (not NUL-terminated: their length says);
 * no event owns memory, so none is given to yaml_event_delete(). The
 * subset: printable ASCII and line feeds only; a block mapping at column
 * 0 as the root; block mappings and sequences (indentless ones too);
 * plain keys and one-line plain, single- and double-quoted scalars
 * without escapes; comments. Returns 1 with *events (from a, the
 * caller's to free) and *count, 0 when declined, or SMP_ENOMEM.
 */
int smp__yaml_block_scan(const char *buf, size_t len,
			 const struct smp_allocator *a, yaml_event_t **events,
			 size_t *count);

#endif
