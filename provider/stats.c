/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stats.c - where the operation counters live, and how they are shown.
 *
 * Counting (the only part on the hot path)
 * - fc_stat_add (fc_prov.h) loads |prov->stats| and makes one relaxed
 *   atomic add through it. NULL there means "no file yet": the first count
 *   of an instance, and the first after a fork, goes to
 *   fc_stats_first_count, which makes the file (or picks a fallback) and
 *   sets the pointer. Nothing below runs on a later count.
 *
 * Live files (fc/stats_file.h)
 * - Made in the stats directory (config key `stats_dir`, or
 *   FASTCRYPTO_STATS_DIR, which wins) at an instance's first counted
 *   operation, or at its process's first fork (below); a process that
 *   counts nothing and forks nothing leaves no file. Mode 0600,
 *   O_EXCL|O_NOFOLLOW, named <program>.<pid>.<start>.<seq>.fcstats (start:
 *   the process's start time in clock ticks); the page is written with
 *   write(2), then mapped MAP_SHARED, so a store into it can neither raise
 *   SIGXFSZ nor SIGBUS. Anything that fails (no such directory, no
 *   permission, full, a file-size limit below one page, a sandbox or
 *   chroot that refuses open) leaves the instance on its private counters,
 *   or its parent's file (below); nothing is reported, and the attempt is
 *   not repeated in that process.
 * - Fork: counts are per process. The pthread_atfork child handler only
 *   marks each instance "no file yet" and zeroes its private counters; the
 *   child's first count makes its file, so a child that never uses
 *   fastcrypto (a CGI, a shell) leaves nothing. The prepare handler first
 *   gives the forking process its file if it has none: a child whose
 *   first count comes where it cannot make one (OpenSSH's pre-auth child,
 *   chrooted and under seccomp, where open(2) fails with EACCES) counts
 *   into that file, bumping its |inherited|, so its work stays visible.
 *   Until it forks, nothing is made for a process that does not count.
 *   (Counts such a child adds after its parent has ended and the parent's
 *   file was folded are lost: the fold has read that file already.)
 *
 * Ended processes: the bound on the number of files
 * - A process cannot remove its file when it leaves through _exit() or is
 *   killed, so each process, right after making its file, folds the files
 *   of ended processes into per-program sums, <program>.ended.<uid>.fcstats
 *   (state FC_STATS_ENDED), and removes them. It looks at most at
 *   FC_STATS_FOLD_SCAN files of the directory (all of them when there are
 *   no more, else a uniform sample) and folds those that (1) its effective
 *   uid owns (the directory may be shared: a file of another user is
 *   neither read nor removed), (2) have one link and one page, (3) are
 *   dead: marked exited, or their pid is gone, a zombie, or a later
 *   process (start time). Every process that makes a file removes the dead
 *   ones it samples: dead files stay a small fraction of the live ones
 *   (with at most FC_STATS_FOLD_SCAN files, none survive the next new
 *   process), and `fastcrypto-stats -a` still sees every count.
 * - One fold, under flock(LOCK_EX) on the ended file: read the dead file
 *   again (a read before its process was seen dead may miss its last
 *   counts), read the ended file (a new or partly written one starts from
 *   zero), add the dead file's counters by name, record its name in
 *   |last_folded|, write the page back with one pwrite(2), then unlink the
 *   dead file if that name still is the file read. A folder that finds the
 *   file already unlinked (st_nlink 0 on the descriptor it opened before
 *   taking the lock) skips it; one that finds the name in |last_folded|
 *   only unlinks it (the last folder died between the two steps). Only
 *   regular files of this user are written, opened with O_NOFOLLOW. The
 *   lock is never waited for (LOCK_NB): when it is busy the file is left
 *   for a later process, so that a folder that is stopped or traced
 *   cannot stall the first count of every other process of its user.
 * - Cost: once per process, at its first count: making and mapping the
 *   file, one directory read, and about ten system calls per dead file
 *   folded. Measured on tmpfs (2-core VM, first AES-GCM message of a forked
 *   child): ~0.08 ms without a stats directory, ~0.25 ms with one, ~0.35 ms
 *   when 16 dead files are folded. Never on a later count.
 *
 * The directory
 * - May be shared by several users: owned by root, sticky, writable only by
 *   the users whose programs are counted (mode 1770 and a group of them;
 *   docs/operations.md). Files are 0600 and owned by the user that
 *   made them, so a daemon that drops privileges needs that user to be
 *   able to write there. Nothing of another user's is read, written or
 *   removed here: live files are made with O_EXCL|O_NOFOLLOW (a name
 *   taken by someone else makes us try the next sequence number), and an
 *   ended file is used only if this user owns it (one planted under its
 *   name stops folding for that program and user until `--clean` removes
 *   it: the bound suffers, no count does). What to believe of the files is
 *   `fastcrypto-stats`'s decision (tools/fastcrypto_stats.c).
 *
 * Unload
 * - The FASTCRYPTO_STATS line (unchanged format) goes to stderr only when
 *   writing it cannot hurt: never when fstat(2) fails (stderr closed, or
 *   OpenSSH's sandbox, which denies fstat but would kill the process for
 *   the calls below), never past RLIMIT_FSIZE (that write raises SIGXFSZ),
 *   never into a pipe or socket that would block or raise SIGPIPE. The
 *   file is then marked exited and unmapped; the next process to make a
 *   file folds it. Unload makes no other system call: in a sandbox
 *   anything else may be fatal.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <openssl/crypto.h>

#include "fc/stats_file.h"
#include "fc_prov.h"

_Static_assert(FC_STAT_COUNT <= FC_STATS_MAX, "stats file has room");

/* Files looked at per new file, for ended processes to fold. */
#define FC_STATS_FOLD_SCAN 16
/* The longest file name folded (a live file's name is at most 83). */
#define FC_STATS_NAME_MAX sizeof(((fc_stats_file *)0)->last_folded)

/* Live instances, for the fork handlers; also serializes file making. */
static pthread_mutex_t fc_stats_lock = PTHREAD_MUTEX_INITIALIZER;
static fc_prov_ctx *fc_stats_list;
static pthread_once_t fc_stats_once = PTHREAD_ONCE_INIT;
static unsigned int fc_stats_seq; /* file sequence number in this process */

typedef union {
    fc_stats_file f;
    unsigned char b[FC_STATS_FILE_SIZE];
} fc_stats_page;

/* A bounded string builder that needs no allocation. */
typedef struct {
    char *p;
    size_t left; /* room including the NUL */
    int ok;
} fc_sbuf;

static void fc_sbuf_put(fc_sbuf *b, const char *s)
{
    for (; *s != '\0'; s++) {
        if (b->left <= 1) {
            b->ok = 0;
            return;
        }
        *b->p++ = *s;
        b->left--;
    }
    *b->p = '\0';
}

static void fc_sbuf_put_u64(fc_sbuf *b, uint64_t v)
{
    char d[24];
    int i = (int)sizeof(d) - 1;

    d[i] = '\0';
    do {
        d[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    fc_sbuf_put(b, d + i);
}

/* fc_read_small reads up to |len| - 1 bytes of |path| into |buf|. */
static size_t fc_read_small(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n;

    buf[0] = '\0';
    if (fd < 0)
        return 0;
    do
        n = read(fd, buf, len - 1);
    while (n < 0 && errno == EINTR);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    return (size_t)n;
}

/* The characters a program name keeps in a file name. */
static int fc_comm_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '+';
}

/* The program name, made safe for a file name: /proc/self/comm (stable
 * across setproctitle, unlike argv[0]). */
static void fc_self_comm(char out[16])
{
    char buf[64];
    size_t n = fc_read_small("/proc/self/comm", buf, sizeof(buf)), i, j;

    memset(out, 0, 16);
    for (i = j = 0; i < n && j < 15 && buf[i] != '\n'; i++)
        out[j++] = fc_comm_char(buf[i]) ? buf[i] : '_';
    if (j == 0)
        memcpy(out, "unknown", (j = 7));
    out[j] = '\0';
}

/* This process's start time; see fc/stats_file.h. */
static uint64_t fc_self_start_ticks(void)
{
    char buf[1024];

    if (fc_read_small("/proc/self/stat", buf, sizeof(buf)) == 0)
        return 0;
    return fc_stats_start_ticks(buf);
}

/* ---------------------------------------------------------------------- */
/* Folding the files of ended processes                                   */

/*
 * fc_stats_parse_name reads a live file's name,
 * <comm>.<pid>.<start>.<seq>.fcstats, with <comm> as fc_self_comm makes it
 * and numbers of at most 19 digits. Returns 1 and sets |comm|, |pid| and
 * |start|, or 0 for any other name (ended files included).
 */
static int fc_stats_parse_name(const char *name, char comm[16], uint64_t *pid,
                               uint64_t *start)
{
    size_t len = strlen(name), sl = sizeof(FC_STATS_SUFFIX) - 1, i;
    uint64_t v[3];

    if (len <= sl || strcmp(name + len - sl, FC_STATS_SUFFIX) != 0)
        return 0;
    for (i = 0; i < 15 && fc_comm_char(name[i]); i++)
        comm[i] = name[i];
    if (i == 0)
        return 0;
    comm[i] = '\0';
    for (int k = 0; k < 3; k++) {
        size_t digits = 0;

        if (name[i] != '.')
            return 0;
        for (v[k] = 0, i++; name[i] >= '0' && name[i] <= '9'; i++) {
            if (++digits > 19)
                return 0;
            v[k] = v[k] * 10 + (uint64_t)(name[i] - '0');
        }
        if (digits == 0)
            return 0;
    }
    if (i != len - sl)
        return 0;
    *pid = v[0];
    *start = v[1];
    return 1;
}

/*
 * fc_pid_ended is 1 if the process |pid| of program |comm| that started at
 * |start| (clock ticks, 0 if unknown) can count no more: there is no such
 * process, it is a zombie, or a later process of another program has its
 * pid. 0 if it may still run, or if that cannot be told: a process of the
 * same program with another start time is taken for the same one (a pid
 * reused by the same program keeps the file until it ends; a start time
 * read differently, as under qemu-user, whose /proc/self/stat is its own,
 * must never fold a live process's file).
 */
static int fc_pid_ended(uint64_t pid, uint64_t start, const char *comm)
{
    char path[48], buf[1024], now[16];
    fc_sbuf b = {path, sizeof(path), 1};
    const char *p, *o;
    size_t j = 0;

    if (pid == 0 || pid > INT32_MAX)
        return 0;
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return 1;
    fc_sbuf_put(&b, "/proc/");
    fc_sbuf_put_u64(&b, pid);
    fc_sbuf_put(&b, "/stat");
    if (fc_read_small(path, buf, sizeof(buf)) == 0 ||
        (p = strrchr(buf, ')')) == NULL)
        return 0;
    if (p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
        return 1;
    if (start == 0 || fc_stats_start_ticks(buf) == start ||
        (o = strchr(buf, '(')) == NULL || o > p)
        return 0;
    /* The running process's name, as fc_self_comm spells it. */
    for (o++; o < p && j < 15; o++)
        now[j++] = fc_comm_char(*o) ? *o : '_';
    now[j] = '\0';
    return strcmp(now, comm) != 0;
}

/* A page this code reads at all (any other field may still be anything). */
static int fc_stats_page_ok(const fc_stats_file *f)
{
    return memcmp(f->magic, FC_STATS_MAGIC, sizeof(FC_STATS_MAGIC)) == 0 &&
           f->version == FC_STATS_VERSION && f->size == FC_STATS_FILE_SIZE &&
           f->ncounters <= FC_STATS_MAX;
}

/* fc_stats_sum adds the counters of |d| to the ended file |acc| by name
 * (a name |acc| has no room for is dropped). */
static void fc_stats_sum(fc_stats_file *acc, const fc_stats_file *d)
{
    for (uint32_t i = 0; i < d->ncounters; i++) {
        char name[FC_STATS_NAME_LEN];
        uint32_t j;

        memcpy(name, d->names[i], sizeof(name));
        name[sizeof(name) - 1] = '\0';
        if (name[0] == '\0')
            continue;
        for (j = 0; j < acc->ncounters; j++)
            if (strncmp(acc->names[j], name, sizeof(name)) == 0)
                break;
        if (j == acc->ncounters) {
            if (j == FC_STATS_MAX)
                continue;
            memcpy(acc->names[j], name, sizeof(name));
            acc->ncounters++;
        }
        acc->counters[j] += d->counters[i];
    }
    acc->inherited += d->inherited;
    acc->merged++;
}

/*
 * fc_stats_fold_file folds the file |name| of the directory |dfd| into its
 * program's ended file and removes it, if it is a dead live file of user
 * |uid|'s; see the top of this file. Leaves anything else as it is.
 */
static void fc_stats_fold_file(int dfd, const char *name, uid_t uid)
{
    char comm[16], ename[64];
    fc_sbuf b = {ename, sizeof(ename), 1};
    uint64_t pid, start;
    fc_stats_page d, a;
    struct stat ds, as, ns;
    int fd, afd = -1;
    ssize_t n;

    if (strlen(name) >= FC_STATS_NAME_MAX ||
        !fc_stats_parse_name(name, comm, &pid, &start))
        return;
    fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return;
    if (fstat(fd, &ds) != 0 || !S_ISREG(ds.st_mode) || ds.st_uid != uid ||
        ds.st_nlink != 1 || ds.st_size != FC_STATS_FILE_SIZE ||
        pread(fd, d.b, sizeof(d.b), 0) != (ssize_t)sizeof(d.b) ||
        !fc_stats_page_ok(&d.f) || (uint64_t)d.f.pid != pid ||
        d.f.start_ticks != start)
        goto done;
    if (d.f.state != FC_STATS_EXITED &&
        (d.f.state != FC_STATS_RUNNING || !fc_pid_ended(pid, start, comm)))
        goto done;

    fc_sbuf_put(&b, comm);
    fc_sbuf_put(&b, "." FC_STATS_ENDED_TAG ".");
    fc_sbuf_put_u64(&b, uid);
    fc_sbuf_put(&b, FC_STATS_SUFFIX);
    if (!b.ok)
        goto done;
    afd = openat(dfd, ename, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (afd < 0 || fstat(afd, &as) != 0 || !S_ISREG(as.st_mode) ||
        as.st_uid != uid || as.st_nlink != 1 ||
        flock(afd, LOCK_EX | LOCK_NB) != 0)
        goto done; /* busy: another folder's, or a later process's */
    /* Folded by another process since it was opened above? Else read it
     * again: the first read may predate its process's last counts. */
    if (fstat(fd, &ds) != 0 || ds.st_nlink != 1 ||
        pread(fd, d.b, sizeof(d.b), 0) != (ssize_t)sizeof(d.b) ||
        !fc_stats_page_ok(&d.f))
        goto unlock;
    n = pread(afd, a.b, sizeof(a.b), 0);
    if (n == (ssize_t)sizeof(a.b)) {
        if (!fc_stats_page_ok(&a.f) || a.f.state != FC_STATS_ENDED)
            goto unlock; /* not one we know: leave both alone */
        if (strncmp(a.f.last_folded, name, sizeof(a.f.last_folded)) == 0)
            goto unlink; /* summed; its folder died before the unlink */
    } else if (n >= 0) {
        /* New, or its first write failed part way (a full file system:
         * later writes rewrite allocated blocks and cannot): nothing was
         * summed into it yet. */
        memset(&a, 0, sizeof(a));
        memcpy(a.f.magic, FC_STATS_MAGIC, sizeof(FC_STATS_MAGIC));
        a.f.version = FC_STATS_VERSION;
        a.f.size = FC_STATS_FILE_SIZE;
        a.f.state = FC_STATS_ENDED;
        a.f.created = (int64_t)time(NULL);
        memcpy(a.f.comm, comm, sizeof(comm));
        memcpy(a.f.buildinfo, d.f.buildinfo, sizeof(a.f.buildinfo));
        a.f.buildinfo[sizeof(a.f.buildinfo) - 1] = '\0';
    } else {
        goto unlock;
    }
    fc_stats_sum(&a.f, &d.f);
    a.f.exited = (int64_t)time(NULL);
    memset(a.f.last_folded, 0, sizeof(a.f.last_folded));
    memcpy(a.f.last_folded, name, strlen(name));
    if (pwrite(afd, a.b, sizeof(a.b), 0) != (ssize_t)sizeof(a.b))
        goto unlock;
unlink:
    if (fstatat(dfd, name, &ns, AT_SYMLINK_NOFOLLOW) == 0 &&
        ns.st_ino == ds.st_ino && ns.st_dev == ds.st_dev)
        unlinkat(dfd, name, 0);
unlock:
    flock(afd, LOCK_UN);
done:
    if (afd >= 0)
        close(afd);
    close(fd);
}

/*
 * fc_stats_fold folds the dead files among at most FC_STATS_FOLD_SCAN
 * live files of |dir| (a uniform sample, by reservoir, when there are
 * more), leaving |self| (the file just made) alone.
 */
static void fc_stats_fold(const char *dir, const char *self)
{
    char names[FC_STATS_FOLD_SCAN][FC_STATS_NAME_MAX];
    uint64_t r = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL) ^
                 (uint64_t)(uintptr_t)&r;
    unsigned int seen = 0, kept = 0;
    uid_t uid = geteuid();
    struct dirent *e;
    DIR *d = opendir(dir);

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        char comm[16];
        uint64_t pid, start;
        unsigned int slot;

        if (strlen(e->d_name) >= FC_STATS_NAME_MAX ||
            strcmp(e->d_name, self) == 0 ||
            !fc_stats_parse_name(e->d_name, comm, &pid, &start))
            continue;
        seen++;
        if (kept < FC_STATS_FOLD_SCAN) {
            slot = kept++;
        } else {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            if ((slot = (unsigned int)(r % seen)) >= FC_STATS_FOLD_SCAN)
                continue;
        }
        memcpy(names[slot], e->d_name, strlen(e->d_name) + 1);
    }
    for (unsigned int i = 0; i < kept; i++)
        fc_stats_fold_file(dirfd(d), names[i], uid);
    closedir(d);
}

/* ---------------------------------------------------------------------- */
/* Making a live file                                                     */

/*
 * fc_stats_create makes a stats file in |dir| for this process and maps
 * it, writing the path to |path|. Returns NULL, having left nothing
 * behind, on any failure. Until the open of the new file succeeds it
 * makes no system call but open, read, close and getpid: inside OpenSSH's
 * seccomp sandbox (which answers open with EACCES and kills the process
 * for most other calls) it fails harmlessly.
 */
static fc_stats_file *fc_stats_create(const char *dir, const char *buildinfo,
                                      char *path, size_t pathlen)
{
    fc_stats_page pg;
    char comm[16];
    struct rlimit rl;
    fc_stats_file *m;
    size_t done = 0;
    int fd = -1;

    uint64_t start = fc_self_start_ticks();

    fc_self_comm(comm);
    /* The start time keeps a later process with the same pid from
     * meeting this one's files; the sequence number separates instances
     * and a process that execs the same program. */
    for (int tries = 0; tries < 8 && fd < 0; tries++) {
        fc_sbuf b = {path, pathlen, 1};

        fc_sbuf_put(&b, dir);
        fc_sbuf_put(&b, "/");
        fc_sbuf_put(&b, comm);
        fc_sbuf_put(&b, ".");
        fc_sbuf_put_u64(&b, (uint64_t)getpid());
        fc_sbuf_put(&b, ".");
        fc_sbuf_put_u64(&b, start);
        fc_sbuf_put(&b, ".");
        fc_sbuf_put_u64(&b,
                        __atomic_fetch_add(&fc_stats_seq, 1, __ATOMIC_RELAXED));
        fc_sbuf_put(&b, FC_STATS_SUFFIX);
        if (!b.ok)
            return NULL;
        /* Open first: in OpenSSH's sandbox this fails harmlessly (EACCES)
         * and nothing below, which the sandbox would punish, runs. */
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0600);
        if (fd < 0 && errno != EEXIST)
            return NULL;
    }
    if (fd < 0)
        return NULL;
    /* A write past the file-size limit raises SIGXFSZ. */
    if (getrlimit(RLIMIT_FSIZE, &rl) != 0 ||
        (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < FC_STATS_FILE_SIZE))
        goto fail;

    memset(&pg, 0, sizeof(pg));
    memcpy(pg.f.magic, FC_STATS_MAGIC, sizeof(FC_STATS_MAGIC));
    pg.f.version = FC_STATS_VERSION;
    pg.f.size = FC_STATS_FILE_SIZE;
    pg.f.ncounters = FC_STAT_COUNT;
    pg.f.state = FC_STATS_RUNNING;
    pg.f.pid = getpid();
    pg.f.ppid = getppid();
    pg.f.start_ticks = start;
    pg.f.created = (int64_t)time(NULL);
    memcpy(pg.f.comm, comm, sizeof(comm));
    /* Cut to fit (the page was zeroed: the NUL is there). */
    memcpy(pg.f.buildinfo, buildinfo,
           strnlen(buildinfo, sizeof(pg.f.buildinfo) - 1));
    for (int i = 0; i < FC_STAT_COUNT; i++)
        strncpy(pg.f.names[i], fc_stat_names[i], FC_STATS_NAME_LEN - 1);

    /* Real data, not ftruncate: the page is then allocated, and stores
     * through the mapping never meet a full file system (SIGBUS). */
    while (done < sizeof(pg.b)) {
        ssize_t n = write(fd, pg.b + done, sizeof(pg.b) - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            goto fail;
        done += (size_t)n;
    }
    m = mmap(NULL, FC_STATS_FILE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
             0);
    if (m == MAP_FAILED)
        goto fail;
    close(fd);
    return m;
fail:
    unlink(path);
    close(fd);
    return NULL;
}

/*
 * fc_stats_make points |p|'s counters at a new file of its own, or when
 * none can be made at the file it inherited from its parent (marking it
 * |inherited|), or else at its private array; then folds ended processes'
 * files. Called with fc_stats_lock held, once per instance and process.
 */
static void fc_stats_make(fc_prov_ctx *p)
{
    char path[sizeof(p->stats_path)];
    fc_stats_file *f = NULL;

    if (p->stats_dir != NULL)
        f = fc_stats_create(p->stats_dir, p->buildinfo, path, sizeof(path));
    if (f != NULL) {
        if (p->stats_file != NULL)
            munmap(p->stats_file, FC_STATS_FILE_SIZE);
        p->stats_file = f;
        p->stats_owner = 1;
        memcpy(p->stats_path, path, sizeof(path));
        __atomic_store_n(&p->stats, f->counters, __ATOMIC_RELEASE);
        fc_stats_fold(p->stats_dir, strrchr(path, '/') + 1);
    } else if (p->stats_file != NULL) {
        __atomic_fetch_add(&p->stats_file->inherited, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&p->stats, p->stats_file->counters, __ATOMIC_RELEASE);
    } else {
        __atomic_store_n(&p->stats, p->stats_local, __ATOMIC_RELEASE);
    }
}

/* see fc_prov.h */
uint64_t *fc_stats_first_count(fc_prov_ctx *prov)
{
    uint64_t *c;

    pthread_mutex_lock(&fc_stats_lock);
    if (prov->stats == NULL)
        fc_stats_make(prov);
    c = prov->stats;
    pthread_mutex_unlock(&fc_stats_lock);
    return c;
}

/* Before fork: this process gets its files (once), for its children to
 * fall back on; the lock is held across the fork. */
static void fc_stats_prepare(void)
{
    pthread_mutex_lock(&fc_stats_lock);
    for (fc_prov_ctx *p = fc_stats_list; p != NULL; p = p->stats_next)
        if (p->stats == NULL)
            fc_stats_make(p);
}

static void fc_stats_parent(void)
{
    pthread_mutex_unlock(&fc_stats_lock);
}

/* In the child, single-threaded, holding the lock taken in prepare: no
 * file yet; the parent's, if any, stays mapped as the fallback. */
static void fc_stats_child(void)
{
    for (fc_prov_ctx *p = fc_stats_list; p != NULL; p = p->stats_next) {
        memset(p->stats_local, 0, sizeof(p->stats_local));
        if (p->stats_dir != NULL) {
            p->stats_owner = 0;
            p->stats = NULL;
        }
    }
    pthread_mutex_unlock(&fc_stats_lock);
}

static void fc_stats_register_atfork(void)
{
    /* The module is linked -z nodelete: these stay valid after unload. */
    pthread_atfork(fc_stats_prepare, fc_stats_parent, fc_stats_child);
}

/* see fc_prov.h */
void fc_stats_attach(fc_prov_ctx *prov, const char *dir)
{
    prov->stats = prov->stats_local;
    prov->stats_path[0] = '\0';
    pthread_once(&fc_stats_once, fc_stats_register_atfork);
    if (dir != NULL && *dir != '\0')
        prov->stats_dir = OPENSSL_strdup(dir);
    pthread_mutex_lock(&fc_stats_lock);
    if (prov->stats_dir != NULL)
        prov->stats = NULL; /* the file comes with the first count */
    prov->stats_next = fc_stats_list;
    fc_stats_list = prov;
    pthread_mutex_unlock(&fc_stats_lock);
}

/* see fc_prov.h */
void fc_stats_format(const fc_prov_ctx *prov, char *buf, size_t len)
{
    const uint64_t *c = __atomic_load_n(&prov->stats, __ATOMIC_ACQUIRE);
    size_t used = 0;

    buf[0] = '\0';
    for (int i = 0; i < FC_STAT_COUNT && used < len; i++) {
        uint64_t v = c != NULL ? __atomic_load_n(&c[i], __ATOMIC_RELAXED) : 0;
        fc_sbuf b = {buf + used, len - used, 1};

        if (i != 0)
            fc_sbuf_put(&b, " ");
        fc_sbuf_put(&b, fc_stat_names[i]);
        fc_sbuf_put(&b, "=");
        fc_sbuf_put_u64(&b, v);
        if (!b.ok)
            break;
        used = len - b.left;
    }
}

/* see fc_prov.h */
const char *fc_stats_path(const fc_prov_ctx *prov)
{
    return __atomic_load_n(&prov->stats, __ATOMIC_ACQUIRE) != NULL &&
                   prov->stats_file != NULL
               ? prov->stats_path
               : "";
}

/*
 * fc_write_harmless writes |buf| to |fd| in one call only if that can
 * neither raise a signal nor block, and not at all otherwise.
 */
static void fc_write_harmless(int fd, const char *buf, size_t len)
{
    struct pollfd pfd = {.fd = fd, .events = POLLOUT};
    struct stat st;

    /* Also the sandbox test: OpenSSH's denies fstat with EACCES and kills
     * the process for getrlimit, lseek or sigtimedwait. */
    if (fstat(fd, &st) != 0)
        return;
    if (S_ISREG(st.st_mode)) {
        struct rlimit rl;
        off_t pos;

        if (getrlimit(RLIMIT_FSIZE, &rl) != 0)
            return;
        if (rl.rlim_cur != RLIM_INFINITY) {
            /* Writing at or past the limit raises SIGXFSZ, across it
             * writes a partial line: write only what fits whole. An
             * O_APPEND descriptor writes at the end of the file. */
            pos = lseek(fd, 0, SEEK_CUR);
            if (pos < 0)
                return;
            if (pos < st.st_size)
                pos = st.st_size;
            if ((uint64_t)pos + len > (uint64_t)rl.rlim_cur)
                return;
        }
        (void)!write(fd, buf, len);
        return;
    }
    /* A pipe, socket or terminal: only if there is room now (a line is
     * shorter than PIPE_BUF, so a writable pipe takes it whole), and not
     * when the reader has gone (POLLERR), which means SIGPIPE. */
    if (poll(&pfd, 1, 0) != 1 || pfd.revents != POLLOUT)
        return;
    if (S_ISSOCK(st.st_mode)) {
        (void)!send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    } else if (S_ISFIFO(st.st_mode)) {
        /* The reader may still close after poll: hold SIGPIPE back and
         * take away one this write raised. */
        sigset_t pipe_set, old, pending;
        int was_pending;

        sigemptyset(&pipe_set);
        sigaddset(&pipe_set, SIGPIPE);
        if (pthread_sigmask(SIG_BLOCK, &pipe_set, &old) != 0)
            return;
        was_pending =
            sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
        if (write(fd, buf, len) < 0 && errno == EPIPE && !was_pending) {
            const struct timespec zero = {0, 0};
            (void)sigtimedwait(&pipe_set, NULL, &zero);
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    } else {
        (void)!write(fd, buf, len);
    }
}

/* see fc_prov.h */
void fc_stats_detach(fc_prov_ctx *prov)
{
    const char *want = getenv("FASTCRYPTO_STATS");
    fc_prov_ctx **pp;

    pthread_mutex_lock(&fc_stats_lock);
    for (pp = &fc_stats_list; *pp != NULL; pp = &(*pp)->stats_next) {
        if (*pp == prov) {
            *pp = prov->stats_next;
            break;
        }
    }
    pthread_mutex_unlock(&fc_stats_lock);

    /* FASTCRYPTO_STATS: one line per provider instance, at unload. */
    if (want != NULL && *want != '\0' && strcmp(want, "0") != 0) {
        char line[2048], stats[512];
        fc_sbuf b = {line, sizeof(line), 1};

        fc_stats_format(prov, stats, sizeof(stats));
        fc_sbuf_put(&b, "fastcrypto: stats pid=");
        fc_sbuf_put_u64(&b, (uint64_t)getpid());
        fc_sbuf_put(&b, " ");
        fc_sbuf_put(&b, prov->buildinfo);
        fc_sbuf_put(&b, " ");
        fc_sbuf_put(&b, stats);
        fc_sbuf_put(&b, "\n");
        if (b.ok)
            fc_write_harmless(STDERR_FILENO, line, strlen(line));
    }
    if (prov->stats_file != NULL) {
        if (prov->stats_owner) {
            prov->stats_file->exited = (int64_t)time(NULL);
            __atomic_store_n(&prov->stats_file->state, FC_STATS_EXITED,
                             __ATOMIC_RELEASE);
        }
        munmap(prov->stats_file, FC_STATS_FILE_SIZE);
        prov->stats_file = NULL;
    }
    prov->stats = prov->stats_local;
    OPENSSL_free(prov->stats_dir);
    prov->stats_dir = NULL;
}
