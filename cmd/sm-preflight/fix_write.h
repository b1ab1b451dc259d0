/*
 * fix_write.h - how `check --fix` writes a fixed file back: in place, to
 * the inode that was read, as an editor that respects the file does
 * (vim's 'backupcopy=yes'). The owner, group, mode, ACLs, hard links and
 * symbolic links all stay what they were because the file itself is never
 * replaced; a file the user may not write, one marked read-only, or one
 * that changed after it was read is refused and left as it is.
 */
#ifndef CLI_FIX_WRITE_H
#define CLI_FIX_WRITE_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* What a file was just before it was read, compared before it is written. */
struct cli_stamp {
	int taken; /* 0: stat() failed; the content alone is compared */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

/* Stats path (following symbolic links, as reading it does) into *s.
 * Called before the file is read: a change between the two shows as a
 * different time at writing, so that it is refused, never missed. */
void cli_stamp_take(struct cli_stamp *s, const char *path);

enum cli_write_rc {
	CLI_WRITE_OK = 0,  /* written */
	CLI_WRITE_SAME,    /* held the fixed text already (another name of
			    * the same file was fixed first): not written */
	CLI_WRITE_REFUSED, /* may not be written, or changed since it was
			    * read: untouched */
	CLI_WRITE_FAILED,  /* writing failed; the original bytes are back */
	CLI_WRITE_DAMAGED  /* writing failed and so did putting the
			    * original bytes back */
};

/*
 * Writes text[0..len) over path, which held orig[0..orig_len) when it was
 * read (stamp taken before that): only if it still holds exactly those
 * bytes, under a POSIX write lock, with the same inode, size and
 * modification time. Returns an enum cli_write_rc; for the last three,
 * why (whysz bytes) says what happened, in words for "cannot write
 * 'NAME': WHY".
 */
int cli_fix_write(const char *path, const struct cli_stamp *stamp,
		  const char *orig, size_t orig_len, const char *text,
		  size_t len, char *why, size_t whysz);

#endif
