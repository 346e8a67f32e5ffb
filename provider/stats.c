/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stats.c - where the operation counters live, and how they are shown.
 *
 * Behaviour:
 * - Counters (enum fc_stat) are one relaxed atomic add through
 *   |prov->stats| on the hot path. That pointer is set once per process
 *   and instance: to the counters of a live stats file when a stats
 *   directory is configured and the file could be made, otherwise to the
 *   private array in the provider context.
 * - Stats file (fc/stats_file.h): created at provider init in the stats
 *   directory (config key `stats_dir`, or FASTCRYPTO_STATS_DIR, which wins),
 *   mode 0600, O_EXCL|O_NOFOLLOW, named <program>.<pid>.<start>.<seq>.fcstats
 *   (start: the process's start time in clock ticks); the
 *   page is written with write(2), then mapped MAP_SHARED. Anything that
 *   fails (no such directory, no permission, full, a file-size limit below
 *   one page, a seccomp sandbox that refuses open) leaves the instance on
 *   its private counters; nothing is reported and nothing else changes.
 *   Files are created before any sandbox a program enters later (OpenSSH
 *   loads its providers first), and a store into an already written page
 *   can neither raise SIGXFSZ nor SIGBUS.
 * - Fork: counts are per process. A pthread_atfork child handler, run in
 *   the child before it can enter a sandbox or lower its limits, gives each
 *   instance a file of its own (the child's counters start at zero). When
 *   that fails, the child keeps counting into the parent's file and bumps
 *   its |inherited| field, so its work stays visible; instances without a
 *   file zero their private counters instead.
 * - Unload: the FASTCRYPTO_STATS line (unchanged format) goes to stderr
 *   only when writing it cannot hurt: never when fstat(2) fails (stderr
 *   closed, or OpenSSH's sandbox, which denies fstat but would kill the
 *   process for the calls below), never past RLIMIT_FSIZE (that write
 *   raises SIGXFSZ), never into a pipe or socket that would block or
 *   raise SIGPIPE. The file is then marked exited and unmapped; it stays
 *   for `fastcrypto-stats` (which lists, sums and cleans such files).
 *   Unload makes no other system call: in a sandbox anything else may be
 *   fatal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <openssl/crypto.h>

#include "fc/stats_file.h"
#include "fc_prov.h"

_Static_assert(FC_STAT_COUNT <= FC_STATS_MAX, "stats file has room");

/* Live instances, for the fork handler. */
static pthread_mutex_t fc_stats_lock = PTHREAD_MUTEX_INITIALIZER;
static fc_prov_ctx *fc_stats_list;
static pthread_once_t fc_stats_once = PTHREAD_ONCE_INIT;
static unsigned int fc_stats_seq; /* file sequence number in this process */

/* A bounded string builder that needs no allocation (fork child). */
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

/* The program name, made safe for a file name: /proc/self/comm (stable
 * across setproctitle, unlike argv[0]). */
static void fc_self_comm(char out[16])
{
    char buf[64];
    size_t n = fc_read_small("/proc/self/comm", buf, sizeof(buf)), i, j;

    memset(out, 0, 16);
    for (i = j = 0; i < n && j < 15 && buf[i] != '\n'; i++) {
        char c = buf[i];
        int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                   (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '+';
        out[j++] = keep ? c : '_';
    }
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

/*
 * fc_stats_create makes a stats file in |dir| for this process and maps
 * it, writing the path to |path|. Returns NULL, having left nothing
 * behind, on any failure. Async-signal-safe in practice (system calls and
 * stack buffers only): it runs in the fork child handler.
 */
static fc_stats_file *fc_stats_create(const char *dir, const char *buildinfo,
                                      char *path, size_t pathlen)
{
    union {
        fc_stats_file f;
        unsigned char page[FC_STATS_FILE_SIZE];
    } pg;
    char comm[16];
    struct rlimit rl;
    fc_stats_file *m;
    size_t done = 0;
    int fd = -1;

    uint64_t start = fc_self_start_ticks();

    fc_self_comm(comm);
    /* The start time keeps a later process with the same pid from
     * meeting this one's files; the sequence number separates instances
     * and a fork child that execs the same program. */
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
    strncpy(pg.f.buildinfo, buildinfo, sizeof(pg.f.buildinfo) - 1);
    for (int i = 0; i < FC_STAT_COUNT; i++)
        strncpy(pg.f.names[i], fc_stat_names[i], FC_STATS_NAME_LEN - 1);

    /* Real data, not ftruncate: the page is then allocated, and stores
     * through the mapping never meet a full file system (SIGBUS). */
    while (done < sizeof(pg.page)) {
        ssize_t n = write(fd, pg.page + done, sizeof(pg.page) - done);
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

static void fc_stats_prepare(void)
{
    pthread_mutex_lock(&fc_stats_lock);
}

static void fc_stats_parent(void)
{
    pthread_mutex_unlock(&fc_stats_lock);
}

/* In the child, single-threaded, holding the lock taken in prepare. */
static void fc_stats_child(void)
{
    for (fc_prov_ctx *p = fc_stats_list; p != NULL; p = p->stats_next) {
        char path[sizeof(p->stats_path)];
        fc_stats_file *f = NULL;

        if (p->stats_dir != NULL)
            f = fc_stats_create(p->stats_dir, p->buildinfo, path, sizeof(path));
        if (f != NULL) {
            if (p->stats_file != NULL)
                munmap(p->stats_file, FC_STATS_FILE_SIZE);
            p->stats_file = f;
            p->stats = f->counters;
            p->stats_owner = 1;
            memcpy(p->stats_path, path, sizeof(path));
        } else if (p->stats_file != NULL) {
            /* Keep counting where the parent does, and say so. */
            __atomic_fetch_add(&p->stats_file->inherited, 1, __ATOMIC_RELAXED);
            p->stats_owner = 0;
        } else {
            memset(p->stats_local, 0, sizeof(p->stats_local));
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
    pthread_once(&fc_stats_once, fc_stats_register_atfork);
    if (dir != NULL && *dir != '\0')
        prov->stats_dir = OPENSSL_strdup(dir);
    if (prov->stats_dir != NULL) {
        fc_stats_file *f =
            fc_stats_create(prov->stats_dir, prov->buildinfo, prov->stats_path,
                            sizeof(prov->stats_path));
        if (f != NULL) {
            prov->stats_file = f;
            prov->stats = f->counters;
            prov->stats_owner = 1;
        } else {
            prov->stats_path[0] = '\0';
        }
    }
    pthread_mutex_lock(&fc_stats_lock);
    prov->stats_next = fc_stats_list;
    fc_stats_list = prov;
    pthread_mutex_unlock(&fc_stats_lock);
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
