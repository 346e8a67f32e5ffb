/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_stats.c - live stats files, per-process counts across fork, and
 * the FASTCRYPTO_STATS line made harmless.
 *
 * Each test loads fastcrypto (FC_TEST_CONF) into a library context of its
 * own with FASTCRYPTO_STATS_DIR pointing at a scratch directory, runs
 * AES-128-GCM messages (one "aes-gcm-enc" each), and reads the stats
 * files directly (fc/stats_file.h) and through fastcrypto-stats
 * (FC_TEST_STATS_TOOL, or the build tree's). Children do what servers do: count
 * after fork, leave through _exit(), run with RLIMIT_FSIZE = 0 (OpenSSH's
 * sandbox), or have stderr on a pipe nobody reads. A child reports failure
 * through its exit status; a signal that kills it fails the test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "fc/stats_file.h"
#include "libctx.h"
#include "runner.h"

static char g_root[64]; /* scratch directory for the whole run */
/* The test config for children that run as nobody: a copy, with a copy of
 * the module, under g_root (mode 0755), as the build tree may sit where
 * nobody cannot read (a clone under a 0700 home). */
static char g_nobody_conf[128];
static int g_ndir;

/* ---------------------------------------------------------------------- */
/* Helpers (usable in children: no cmocka there)                          */

/* A fresh directory under g_root. */
static void new_dir(char *out, size_t len)
{
    snprintf(out, len, "%s/d%d", g_root, g_ndir++);
    assert_int_equal(mkdir(out, 0700), 0);
}

/* |n| AES-128-GCM messages through fastcrypto; 1 on success. */
static int gcm_messages(OSSL_LIB_CTX *lib, int n)
{
    static const unsigned char key[16], iv[12];
    unsigned char in[64] = {1}, out[64 + 16];
    EVP_CIPHER *c = EVP_CIPHER_fetch(lib, "AES-128-GCM", "provider=" FC_NAME);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ok = c != NULL && x != NULL, l;

    for (int i = 0; ok && i < n; i++)
        ok = EVP_EncryptInit_ex2(x, c, key, iv, NULL) &&
             EVP_EncryptUpdate(x, out, &l, in, sizeof(in)) &&
             EVP_EncryptFinal_ex(x, out + l, &l);
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
    return ok;
}

/* Counter |name| in a "k=v k=v" string, or -1. */
static long long counter_in(const char *s, const char *name)
{
    size_t nl = strlen(name);

    for (const char *p = s; (p = strstr(p, name)) != NULL; p += nl)
        if ((p == s || p[-1] == ' ') && p[nl] == '=')
            return strtoll(p + nl + 1, NULL, 10);
    return -1;
}

static long long param_counter(OSSL_LIB_CTX *lib, const char *name)
{
    char buf[1024] = "";

    return fc_test_lib_get_str(lib, "fastcrypto-stats", buf, sizeof(buf))
               ? counter_in(buf, name)
               : -1;
}

/* Reads a stats file; 1 if it is one. */
static int read_stats(const char *path, fc_stats_file *f)
{
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, f, sizeof(*f)) : -1;

    if (fd >= 0)
        close(fd);
    return n == (ssize_t)sizeof(*f) &&
           memcmp(f->magic, FC_STATS_MAGIC, sizeof(FC_STATS_MAGIC)) == 0 &&
           f->version == FC_STATS_VERSION && f->ncounters <= FC_STATS_MAX;
}

/* Counter |name| of a stats file, by the names stored in it, or -1. */
static long long file_counter(const fc_stats_file *f, const char *name)
{
    for (uint32_t i = 0; i < f->ncounters; i++)
        if (strcmp(f->names[i], name) == 0)
            return (long long)f->counters[i];
    return -1;
}

/* How many stats files of process |pid| are in |dir| (any pid if 0); the
 * last one's path in |path| if not NULL. */
static int files_of(const char *dir, long pid, char *path, size_t len)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL) {
        char p[512];
        fc_stats_file f;

        if (strstr(e->d_name, FC_STATS_SUFFIX) == NULL)
            continue;
        snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        if (!read_stats(p, &f) || (pid != 0 && f.pid != pid))
            continue;
        n++;
        if (path != NULL)
            snprintf(path, len, "%s", p);
    }
    closedir(d);
    return n;
}

/* The fastcrypto-stats command: FC_TEST_STATS_TOOL (it may name an
 * emulator first), else tools/fastcrypto-stats beside the test config's
 * directory (the build tree, as test.sh's valgrind loop runs us). */
static char g_tool[1024];

static void find_tool(void)
{
    const char *tool = getenv("FC_TEST_STATS_TOOL");
    const char *conf = getenv("FC_TEST_CONF");
    const char *slash = conf != NULL ? strrchr(conf, '/') : NULL;

    if (tool != NULL && *tool != '\0')
        snprintf(g_tool, sizeof(g_tool), "%s", tool);
    else if (slash != NULL)
        snprintf(g_tool, sizeof(g_tool), "%.*s/../tools/fastcrypto-stats",
                 (int)(slash - conf), conf);
}

/* The line fastcrypto-stats -a -r prints for |pid| in |dir|, or "". */
static void tool_line(const char *dir, long pid, char *out, size_t len)
{
    char cmd[2048];
    FILE *p;

    out[0] = '\0';
    snprintf(cmd, sizeof(cmd), "%s -d '%s' -a -r -p %ld", g_tool, dir, pid);
    p = popen(cmd, "r");
    assert_non_null(p);
    if (fgets(out, (int)len, p) == NULL)
        out[0] = '\0';
    pclose(p);
}

/* Runs |fn| in a child, returns its wait status (its pid in |*pid_out|
 * if not NULL). */
static int in_child_pid(int (*fn)(void *), void *arg, pid_t *pid_out)
{
    int st = 0;
    pid_t pid;

    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(fn(arg));
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (pid_out != NULL)
        *pid_out = pid;
    return st;
}

static int in_child(int (*fn)(void *), void *arg)
{
    return in_child_pid(fn, arg, NULL);
}

#define assert_child_ok(st)                                                    \
    do {                                                                       \
        int st_ = (st);                                                        \
        if (WIFSIGNALED(st_))                                                  \
            fail_msg("child killed by signal %d (%s)", WTERMSIG(st_),          \
                     strsignal(WTERMSIG(st_)));                                \
        if (WEXITSTATUS(st_) != 0)                                             \
            fail_msg("child failed check %d", WEXITSTATUS(st_));               \
    } while (0)

#define FC_STATS_DIR_ENV "FASTCRYPTO_STATS_DIR"

static void set_dir(const char *dir)
{
    if (dir != NULL)
        setenv(FC_STATS_DIR_ENV, dir, 1);
    else
        unsetenv(FC_STATS_DIR_ENV);
}

/* ---------------------------------------------------------------------- */

/* A live file: made at the first count, counts while the program runs,
 * marked exited at unload. */
FC_TEST("stats files", test_live_file)
{
    char dir[128], path[512] = "x", line[2048];
    fc_stats_file f;
    OSSL_LIB_CTX *lib;

    new_dir(dir, sizeof(dir));
    lib = fc_test_lib_load_env(NULL, FC_TEST_NEED_FC, FC_STATS_DIR_ENV, dir);
    assert_non_null(lib);
    /* Loaded, nothing counted: no file. */
    assert_true(
        fc_test_lib_get_str(lib, "fastcrypto-stats-file", path, sizeof(path)));
    assert_string_equal(path, "");
    assert_int_equal(files_of(dir, 0, NULL, 0), 0);
    assert_int_equal(param_counter(lib, "aes-gcm-enc"), 0);
    assert_true(gcm_messages(lib, 3));
    assert_true(
        fc_test_lib_get_str(lib, "fastcrypto-stats-file", path, sizeof(path)));
    assert_true(strncmp(path, dir, strlen(dir)) == 0);

    assert_true(read_stats(path, &f));
    assert_int_equal(f.pid, getpid());
    assert_int_equal(f.state, FC_STATS_RUNNING);
    assert_int_equal(file_counter(&f, "aes-gcm-enc"), 3);
    assert_int_equal(file_counter(&f, "aes-cbc-enc"), 0);
    assert_true(strncmp(f.buildinfo, "fastcrypto ", 11) == 0);
    assert_int_equal(param_counter(lib, "aes-gcm-enc"), 3);
    tool_line(dir, (long)getpid(), line, sizeof(line));
    assert_non_null(strstr(line, " state=running "));
    assert_non_null(strstr(line, " aes-gcm-enc=3 "));

    OSSL_LIB_CTX_free(lib);
    assert_true(read_stats(path, &f));
    assert_int_equal(f.state, FC_STATS_EXITED);
    assert_true(f.exited >= f.created && f.created > 0);
    assert_int_equal(file_counter(&f, "aes-gcm-enc"), 3);
    tool_line(dir, (long)getpid(), line, sizeof(line));
    assert_non_null(strstr(line, " state=exited "));
}

/* The config key works too, and the environment wins over it. */
FC_TEST("stats files", test_config_key)
{
    char dir_cfg[128], dir_env[128], conf[256], path[512] = "";
    FILE *in = fopen(getenv("FC_TEST_CONF"), "r"), *out;
    OSSL_LIB_CTX *lib;
    int c;

    new_dir(dir_cfg, sizeof(dir_cfg));
    new_dir(dir_env, sizeof(dir_env));
    snprintf(conf, sizeof(conf), "%s/stats.cnf", g_root);
    assert_non_null(in);
    out = fopen(conf, "w");
    assert_non_null(out);
    while ((c = fgetc(in)) != EOF)
        fputc(c, out);
    /* The test config ends with the fastcrypto section. */
    fprintf(out, "\nstats_dir = %s\n", dir_cfg);
    fclose(in);
    fclose(out);

    for (int env = 0; env < 2; env++) {
        lib = fc_test_lib_load_env(conf, 0, FC_STATS_DIR_ENV,
                                   env ? dir_env : NULL);
        assert_non_null(lib);
        assert_true(gcm_messages(lib, 1));
        assert_true(fc_test_lib_get_str(lib, "fastcrypto-stats-file", path,
                                        sizeof(path)));
        assert_true(strncmp(path, env ? dir_env : dir_cfg,
                            strlen(env ? dir_env : dir_cfg)) == 0);
        OSSL_LIB_CTX_free(lib);
    }
}

/* Forked children get files of their own at their first count and start
 * from zero; one that leaves through _exit() leaves its counts, and shows
 * as gone. */
struct fork_arg {
    OSSL_LIB_CTX *lib;
    int fd; /* the child writes its stats file path here */
};

static int child_count_and_exit(void *p)
{
    struct fork_arg *a = p;
    char path[512] = "";

    if (!gcm_messages(a->lib, 2))
        return 1;
    if (param_counter(a->lib, "aes-gcm-enc") != 2)
        return 2;
    if (!fc_test_lib_get_str(a->lib, "fastcrypto-stats-file", path,
                             sizeof(path)))
        return 3;
    if (write(a->fd, path, strlen(path) + 1) < 0)
        return 4;
    _exit(0); /* no unload: as sshd's children, or a crash */
}

FC_TEST("stats files", test_fork_own_file)
{
    char dir[128], ppath[512] = "", cpath[512] = "", line[2048];
    struct fork_arg a;
    fc_stats_file f;
    int fds[2];

    new_dir(dir, sizeof(dir));
    a.lib = fc_test_lib_load_env(NULL, FC_TEST_NEED_FC, FC_STATS_DIR_ENV, dir);
    assert_non_null(a.lib);
    assert_true(gcm_messages(a.lib, 1));
    assert_true(fc_test_lib_get_str(a.lib, "fastcrypto-stats-file", ppath,
                                    sizeof(ppath)));
    assert_int_equal(pipe(fds), 0);
    a.fd = fds[1];
    assert_child_ok(in_child(child_count_and_exit, &a));
    close(fds[1]);
    assert_true(read(fds[0], cpath, sizeof(cpath) - 1) > 0);
    close(fds[0]);

    assert_string_not_equal(cpath, ppath);
    assert_true(read_stats(cpath, &f));
    assert_int_equal(f.ppid, getpid());
    assert_int_equal(f.state, FC_STATS_RUNNING); /* never unloaded */
    assert_int_equal(file_counter(&f, "aes-gcm-enc"), 2);
    tool_line(dir, (long)f.pid, line, sizeof(line));
    assert_non_null(strstr(line, " state=gone "));
    assert_non_null(strstr(line, " aes-gcm-enc=2 "));

    /* The parent's count is its own. */
    assert_true(read_stats(ppath, &f));
    assert_int_equal(file_counter(&f, "aes-gcm-enc"), 1);
    assert_int_equal(f.inherited, 0);
    assert_int_equal(param_counter(a.lib, "aes-gcm-enc"), 1);
    OSSL_LIB_CTX_free(a.lib);
}

/* A child that cannot make a file (here: the directory has moved) counts
 * into its parent's, and says so. */
static int child_count(void *p)
{
    struct fork_arg *a = p;
    char path[512] = "x";

    if (!gcm_messages(a->lib, 4))
        return 1;
    if (!fc_test_lib_get_str(a->lib, "fastcrypto-stats-file", path,
                             sizeof(path)))
        return 2;
    OSSL_LIB_CTX_free(a->lib); /* unload: must not mark the parent's file */
    return 0;
}

FC_TEST("stats files", test_fork_fallback)
{
    char dir[128], moved[160], ppath[512] = "", mpath[600];
    struct fork_arg a = {NULL, -1};
    fc_stats_file f;

    new_dir(dir, sizeof(dir));
    a.lib = fc_test_lib_load_env(NULL, FC_TEST_NEED_FC, FC_STATS_DIR_ENV, dir);
    assert_non_null(a.lib);
    assert_true(gcm_messages(a.lib, 1));
    assert_true(fc_test_lib_get_str(a.lib, "fastcrypto-stats-file", ppath,
                                    sizeof(ppath)));
    snprintf(moved, sizeof(moved), "%s.moved", dir);
    assert_int_equal(rename(dir, moved), 0);
    assert_child_ok(in_child(child_count, &a));
    assert_int_equal(rename(moved, dir), 0);
    assert_int_equal(files_of(dir, 0, NULL, 0), 1);
    snprintf(mpath, sizeof(mpath), "%s", ppath);
    assert_true(read_stats(mpath, &f));
    assert_int_equal(file_counter(&f, "aes-gcm-enc"), 1 + 4);
    assert_int_equal(f.inherited, 1);
    assert_int_equal(f.state, FC_STATS_RUNNING);
    OSSL_LIB_CTX_free(a.lib);
    assert_true(read_stats(mpath, &f));
    assert_int_equal(f.state, FC_STATS_EXITED);
}

/*
 * RLIMIT_FSIZE = 0 after fork, stderr on a regular file, FASTCRYPTO_STATS
 * set: the child cannot make a file at its first count and counts into its
 * parent's (made when the parent forked), a provider loaded under the
 * limit makes no file, and neither unload writes the line (it would raise
 * SIGXFSZ and kill the child, as it did sshd's pre-auth one).
 */
struct fsize_arg {
    OSSL_LIB_CTX *lib;
    const char *errfile;
};

static int child_fsize_zero(void *p)
{
    struct fsize_arg *a = p;
    struct rlimit zero = {0, 0};
    char path[512] = "x";
    OSSL_LIB_CTX *lib2;
    int nofile;
    int fd = open(a->errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);

    if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
        return 1;
    close(fd);
    setenv("FASTCRYPTO_STATS", "1", 1);
    if (setrlimit(RLIMIT_FSIZE, &zero) != 0)
        return 2;
    if (!gcm_messages(a->lib, 2))
        return 3;
    lib2 = fc_test_lib_load(NULL, FC_TEST_NEED_FC);
    if (lib2 == NULL || !gcm_messages(lib2, 1))
        return 4;
    nofile = fc_test_lib_get_str(lib2, "fastcrypto-stats-file", path,
                                 sizeof(path)) &&
             path[0] == '\0';
    /* Unload both (the lines must not be written) before reporting. */
    OSSL_LIB_CTX_free(lib2);
    OSSL_LIB_CTX_free(a->lib);
    return nofile ? 0 : 5;
}

FC_TEST("stats files", test_fsize_zero)
{
    char dir[128], errfile[200], path[512];
    struct fsize_arg a;
    fc_stats_file f;
    struct stat st;
    int st_child;
    pid_t pid;

    /* qemu-user serves /proc/self/... from temporary files it writes
     * itself, and under RLIMIT_FSIZE = 0 that write of the emulator's
     * raises SIGXFSZ before our code runs: native runs test this. */
    if (getenv("FC_TEST_EMULATED") != NULL) {
        print_message("skipped under a user-mode emulator\n");
        skip();
    }
    new_dir(dir, sizeof(dir));
    snprintf(errfile, sizeof(errfile), "%s/stderr", dir);
    a.errfile = errfile;
    set_dir(dir);
    a.lib = fc_test_lib_load(NULL, FC_TEST_NEED_FC);
    assert_non_null(a.lib);
    st_child = in_child_pid(child_fsize_zero, &a, &pid);
    set_dir(NULL);
    assert_child_ok(st_child);
    assert_int_equal(stat(errfile, &st), 0);
    assert_int_equal(st.st_size, 0);
    /* No file for the child; its counts are in the parent's. */
    assert_int_equal(files_of(dir, (long)pid, NULL, 0), 0);
    assert_int_equal(files_of(dir, (long)getpid(), path, sizeof(path)), 1);
    assert_true(read_stats(path, &f));
    assert_int_equal(file_counter(&f, "aes-gcm-enc"), 2);
    assert_int_equal(f.inherited, 1);
    assert_int_equal(f.state, FC_STATS_RUNNING);
    /* The parent's counters are that file's. */
    assert_int_equal(param_counter(a.lib, "aes-gcm-enc"), 2);
    OSSL_LIB_CTX_free(a.lib);
    assert_true(read_stats(path, &f));
    assert_int_equal(f.state, FC_STATS_EXITED);
}

/* The line still comes where it can be written. */
static int child_line_to_file(void *p)
{
    const char *errfile = p;
    OSSL_LIB_CTX *lib = fc_test_lib_load(NULL, FC_TEST_NEED_FC);
    int fd = open(errfile, O_WRONLY | O_CREAT | O_APPEND, 0600);

    if (lib == NULL || fd < 0 || dup2(fd, STDERR_FILENO) < 0 ||
        !gcm_messages(lib, 5))
        return 1;
    setenv("FASTCRYPTO_STATS", "1", 1);
    OSSL_LIB_CTX_free(lib);
    return 0;
}

FC_TEST("stats files", test_line_written)
{
    char dir[128], errfile[200], buf[2048] = "", want[64];
    FILE *fp;
    pid_t pid;

    new_dir(dir, sizeof(dir));
    snprintf(errfile, sizeof(errfile), "%s/stderr", dir);
    assert_child_ok(in_child_pid(child_line_to_file, errfile, &pid));
    fp = fopen(errfile, "r");
    assert_non_null(fp);
    assert_non_null(fgets(buf, sizeof(buf), fp));
    fclose(fp);
    snprintf(want, sizeof(want), "fastcrypto: stats pid=%ld fastcrypto ",
             (long)pid);
    assert_true(strncmp(buf, want, strlen(want)) == 0);
    assert_int_equal(counter_in(buf, "aes-gcm-enc"), 5);
    assert_true(buf[strlen(buf) - 1] == '\n');
}

/* stderr on a pipe whose reader has gone (SIGPIPE), or one that is full
 * and never read (a write would block): the child must neither die nor
 * hang; alarm() turns a hang into a failure. */
static int child_pipe(void *p)
{
    int full = *(int *)p, fds[2];
    OSSL_LIB_CTX *lib = fc_test_lib_load(NULL, FC_TEST_NEED_FC);

    if (lib == NULL || !gcm_messages(lib, 1) || pipe(fds) != 0)
        return 1;
    if (full) {
        char junk[4096] = {0};
        int fl = fcntl(fds[1], F_GETFL);

        fcntl(fds[1], F_SETFL, fl | O_NONBLOCK);
        while (write(fds[1], junk, sizeof(junk)) > 0)
            ;
        fcntl(fds[1], F_SETFL, fl);
    } else {
        close(fds[0]);
    }
    if (dup2(fds[1], STDERR_FILENO) < 0)
        return 2;
    setenv("FASTCRYPTO_STATS", "1", 1);
    alarm(10);
    OSSL_LIB_CTX_free(lib);
    return 0;
}

FC_TEST("stats files", test_line_pipe)
{
    for (int full = 0; full < 2; full++) {
        print_message("stderr: a pipe %s\n",
                      full ? "that is full" : "without a reader");
        assert_child_ok(in_child(child_pipe, &full));
    }
}

/* A directory that cannot be used is ignored: the provider works, counts
 * privately, and makes no file. */
static int child_unwritable(void *p)
{
    const char *dir = p;
    char path[512] = "x";
    OSSL_LIB_CTX *lib;

    if (geteuid() == 0 && strstr(dir, "/ro") != NULL &&
        (setgid(65534) != 0 || setuid(65534) != 0))
        return 1;
    set_dir(dir);
    lib = fc_test_lib_load(g_nobody_conf, FC_TEST_NEED_FC);
    if (lib == NULL || !gcm_messages(lib, 3))
        return 2;
    if (!fc_test_lib_get_str(lib, "fastcrypto-stats-file", path,
                             sizeof(path)) ||
        path[0] != '\0')
        return 3;
    if (param_counter(lib, "aes-gcm-enc") != 3)
        return 4;
    OSSL_LIB_CTX_free(lib);
    return 0;
}

FC_TEST("stats files", test_unwritable_dir)
{
    char base[128], ro[160], notdir[160], missing[160];
    const char *dirs[3] = {ro, notdir, missing};
    int fd;

    new_dir(base, sizeof(base));
    /* Searchable but not writable for the child (root drops to nobody:
     * root itself writes anywhere). */
    snprintf(ro, sizeof(ro), "%s/ro", base);
    assert_int_equal(mkdir(ro, 0555), 0);
    assert_int_equal(chmod(base, 0755), 0);
    assert_int_equal(chmod(g_root, 0755), 0);
    snprintf(notdir, sizeof(notdir), "%s/file", base);
    fd = open(notdir, O_WRONLY | O_CREAT, 0644);
    assert_true(fd >= 0);
    close(fd);
    snprintf(missing, sizeof(missing), "%s/missing/dir", base);
    for (int i = 0; i < 3; i++) {
        print_message("stats dir %s\n", dirs[i]);
        assert_child_ok(in_child(child_unwritable, (void *)dirs[i]));
    }
    assert_int_equal(files_of(ro, 0, NULL, 0), 0);
}

/* ---------------------------------------------------------------------- */
/* The tool on files it must not trust, and the number of files forks make */

/* Runs fastcrypto-stats -d |dir| |args|; its standard output, NUL-terminated,
 * in a malloc'd |*out|. Returns the wait status; a sanitizer report makes
 * the tool exit 86. */
static int tool_run(const char *dir, const char *args, char **out)
{
    char cmd[2048];
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    FILE *p;

    assert_non_null(buf);
    snprintf(cmd, sizeof(cmd),
             "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86\" "
             "%s -d '%s' %s",
             g_tool, dir, args);
    p = popen(cmd, "r");
    assert_non_null(p);
    for (;;) {
        size_t n;

        if (cap - len < 4096) {
            buf = realloc(buf, cap *= 2);
            assert_non_null(buf);
        }
        n = fread(buf + len, 1, cap - len - 1, p);
        if (n == 0)
            break;
        len += n;
    }
    buf[len] = '\0';
    if (memchr(buf, '\0', len) != NULL)
        buf[0] = '\x01'; /* a NUL in the output fails the printable check */
    *out = buf;
    return pclose(p);
}

/* Fails unless |st| is a normal exit with status |want|. */
#define assert_exit(st, want)                                                  \
    do {                                                                       \
        int st_ = (st);                                                        \
        if (WIFSIGNALED(st_))                                                  \
            fail_msg("fastcrypto-stats killed by signal %d (%s)",              \
                     WTERMSIG(st_), strsignal(WTERMSIG(st_)));                 \
        assert_int_equal(WEXITSTATUS(st_), (want));                            \
    } while (0)

/* 1 if |s| holds only printable ASCII and newlines. */
static int printable(const char *s)
{
    for (; *s != '\0'; s++)
        if ((*s < 0x20 || *s > 0x7e) && *s != '\n')
            return 0;
    return 1;
}

/* Counter |name| summed over the lines of |out| that contain |filter|. */
static long long sum_lines(const char *out, const char *name,
                           const char *filter)
{
    long long sum = 0;
    char key[64];

    snprintf(key, sizeof(key), " %s=", name);
    for (const char *l = out; *l != '\0';) {
        const char *e = strchr(l, '\n'), *k;
        size_t len = e != NULL ? (size_t)(e - l) : strlen(l);
        char line[4096];

        snprintf(line, sizeof(line), "%.*s", (int)len, l);
        if (strstr(line, filter) != NULL && (k = strstr(line, key)) != NULL)
            sum += strtoll(k + strlen(key), NULL, 10);
        l += len + (e != NULL);
    }
    return sum;
}

/* Counter |name| on the total line of program |comm| in the output |out|
 * of fastcrypto-stats ("<comm>   total ...": the vouched-for files), or -1. */
static long long total_of(const char *out, const char *comm, const char *name)
{
    size_t cl = strlen(comm);

    for (const char *l = out; *l != '\0';) {
        const char *e = strchr(l, '\n'), *p = l + cl;
        size_t len = e != NULL ? (size_t)(e - l) : strlen(l);
        char line[4096];

        if (strncmp(l, comm, cl) == 0 && *p == ' ') {
            while (*p == ' ')
                p++;
            if (strncmp(p, "total ", 6) == 0) {
                snprintf(line, sizeof(line), "%.*s", (int)len, l);
                return sum_lines(line, name, "");
            }
        }
        l += len + (e != NULL);
    }
    return -1;
}

/* The number of *.fcstats entries in |dir|. */
static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name), sl = strlen(FC_STATS_SUFFIX);
        n += l > sl && strcmp(e->d_name + l - sl, FC_STATS_SUFFIX) == 0;
    }
    closedir(d);
    return n;
}

static char g_comm[16]; /* this program's name, as stats files carry it */

static int self_comm(void)
{
    FILE *fp = fopen("/proc/self/comm", "r");
    int ok = fp != NULL && fgets(g_comm, sizeof(g_comm), fp) != NULL;

    if (fp != NULL)
        fclose(fp);
    g_comm[strcspn(g_comm, "\n")] = '\0';
    return ok;
}

/* One AES-128-GCM message through EVP with |c|; 1 on success. */
static int gcm_one(const EVP_CIPHER *c)
{
    static const unsigned char key[16], iv[12];
    unsigned char in[32] = {2}, out[32 + 16];
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int l, ok = x != NULL && EVP_EncryptInit_ex2(x, c, key, iv, NULL) &&
                EVP_EncryptUpdate(x, out, &l, in, sizeof(in)) &&
                EVP_EncryptFinal_ex(x, out + l, &l);

    EVP_CIPHER_CTX_free(x);
    return ok;
}

/*
 * Forked children that do nothing leave no file; 10,000 (FC_TEST_FORKS)
 * children, four at a time, each doing one AES-GCM message and leaving
 * through _exit(), leave at most a few files beyond the running ones, and
 * fastcrypto-stats -a still reports every message. The ASan build, about
 * seven times slower at this, checks memory with 2,000: the same paths.
 */
#define FORK_INFLIGHT 4
/* Files allowed beyond running processes. A process folds at most 16
 * ended files after making its own, and skips the fold while another
 * holds the lock (it never waits): on a loaded machine (ctest -j2 beside
 * other jobs) a few folders in a row can find it held, and up to a
 * sample's worth per in-flight child may wait for the next fold. Seen:
 * at most 7 on a quiet 2-core machine, 28 under a load of 8. */
#define FORK_SLACK (16 * FORK_INFLIGHT)
#if defined(__SANITIZE_ADDRESS__)
#define FORK_N 2000
#else
#define FORK_N 10000
#endif

FC_TEST("stats files", test_fork_bound)
{
    const char *env = getenv("FC_TEST_FORKS");
    const char *quick = getenv("FC_TEST_QUICK");
    /* FC_TEST_QUICK (valgrind, qemu): the same paths, 500 children. */
    int n = env != NULL                                            ? atoi(env)
            : quick != NULL && quick[0] != '\0' && quick[0] != '0' ? 500
                                                                   : FORK_N;
    int started = 0, reaped = 0, bad = 0;
    int running = 0, most = 0;
    char dir[128], filter[64], *out;
    EVP_CIPHER *c;
    OSSL_LIB_CTX *lib;

    new_dir(dir, sizeof(dir));
    lib = fc_test_lib_load_env(NULL, FC_TEST_NEED_FC, FC_STATS_DIR_ENV, dir);
    assert_non_null(lib);
    c = EVP_CIPHER_fetch(lib, "AES-128-GCM", "provider=" FC_NAME);
    assert_non_null(c);

    for (int i = 0; i < 100; i++) {
        pid_t pid = fork();
        int st;

        assert_true(pid >= 0);
        if (pid == 0)
            _exit(0);
        assert_int_equal(waitpid(pid, &st, 0), pid);
    }
    /* At most the parent's own (made at its first fork). */
    assert_in_range(count_files(dir), 0, 1);

    fflush(NULL);
    while (reaped < n) {
        int st, files;

        if (started < n && running < FORK_INFLIGHT) {
            pid_t pid = fork();

            assert_true(pid >= 0);
            if (pid == 0)
                _exit(gcm_one(c) ? 0 : 1);
            started++;
            running++;
            continue;
        }
        assert_true(wait(&st) > 0);
        running--;
        reaped++;
        bad += !WIFEXITED(st) || WEXITSTATUS(st) != 0;
        if (reaped % 250 == 0) {
            files = count_files(dir);
            if (files > most)
                most = files;
            if (files > running + 2 + FORK_SLACK)
                fail_msg("%d files after %d children (%d running)", files,
                         reaped, running);
        }
    }
    assert_int_equal(bad, 0);
    print_message("%d children, at most %d files seen, %d left\n", n, most,
                  count_files(dir));
    assert_in_range(count_files(dir), 1, 2 + FORK_SLACK);

    snprintf(filter, sizeof(filter), "program=%s ", g_comm);
    assert_exit(tool_run(dir, "-a -z -r", &out), 0);
    if (sum_lines(out, "aes-gcm-enc", filter) != n)
        print_message("%s", out);
    assert_int_equal(sum_lines(out, "aes-gcm-enc", filter), n);
    free(out);
    assert_exit(tool_run(dir, "-a -s", &out), 0);
    print_message("%s", out);
    assert_int_equal(total_of(out, g_comm, "aes-gcm-enc"), n);
    free(out);
    EVP_CIPHER_free(c);
    OSSL_LIB_CTX_free(lib);
}

/* A valid stats page for |comm| and |pid| with two counters. */
static void make_page(fc_stats_file *f, const char *comm, int64_t pid,
                      uint64_t gcm)
{
    memset(f, 0, FC_STATS_FILE_SIZE);
    memcpy(f->magic, FC_STATS_MAGIC, sizeof(FC_STATS_MAGIC));
    f->version = FC_STATS_VERSION;
    f->size = FC_STATS_FILE_SIZE;
    f->ncounters = 2;
    f->state = FC_STATS_RUNNING;
    f->pid = pid;
    f->ppid = 1;
    f->created = (int64_t)time(NULL);
    snprintf(f->comm, sizeof(f->comm), "%s", comm);
    snprintf(f->names[0], sizeof(f->names[0]), "aes-gcm-enc");
    snprintf(f->names[1], sizeof(f->names[1]), "rsa-sign");
    f->counters[0] = gcm;
}

/* Writes |len| bytes of |data| to |dir|/|name|, owned by |uid|. */
static void plant(const char *dir, const char *name, const void *data,
                  size_t len, uid_t uid)
{
    char path[512];
    int fd;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    if (uid != geteuid())
        assert_int_equal(fchown(fd, uid, (gid_t)-1), 0);
    close(fd);
}

/* A pid that no process has now. */
static pid_t dead_pid(void)
{
    pid_t pid = fork();

    assert_true(pid >= 0);
    if (pid == 0)
        _exit(0);
    assert_int_equal(waitpid(pid, NULL, 0), pid);
    return pid;
}

#define NOBODY 65534

/* A child running as nobody that counts two messages, then waits. */
static int child_nobody(void *p)
{
    int *fds = p;
    char c = 0;
    OSSL_LIB_CTX *lib;

    if (setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
        return 1;
    lib = fc_test_lib_load(g_nobody_conf, FC_TEST_NEED_FC);
    if (lib == NULL || !gcm_messages(lib, 2))
        return 2;
    if (write(fds[1], "r", 1) != 1 || read(fds[0], &c, 1) != 1)
        return 3;
    _exit(0);
}

/*
 * Files planted in a shared (mode 1777) directory, read by root: a file of
 * another user that claims this program's running process, or a process
 * that has ended, is flagged and kept out of the program's total; names
 * with terminal escapes are printed escaped; times out of range print.
 * A genuine file of a process running as nobody counts while it runs.
 */
FC_TEST("stats files", test_planted)
{
    union {
        fc_stats_file f;
        unsigned char b[FC_STATS_FILE_SIZE];
    } pg;
    char dir[128], *out;
    int up[2], down[2], fds[2], st;
    OSSL_LIB_CTX *lib;
    pid_t child;

    if (geteuid() != 0) {
        print_message("skipped: needs root (files owned by nobody)\n");
        skip();
    }
    new_dir(dir, sizeof(dir));
    assert_int_equal(chmod(dir, 01777), 0);
    assert_int_equal(chmod(g_root, 0755), 0);
    set_dir(dir);
    lib = fc_test_lib_load(NULL, FC_TEST_NEED_FC);
    assert_non_null(lib);
    assert_true(gcm_messages(lib, 3)); /* root's own file: 3 */

    /* nobody claims this process, and a process that has ended. */
    make_page(&pg.f, g_comm, getpid(), 1000000);
    plant(dir, "claim-live.fcstats", pg.b, sizeof(pg.b), NOBODY);
    make_page(&pg.f, g_comm, dead_pid(), 2000000);
    plant(dir, "claim-dead.fcstats", pg.b, sizeof(pg.b), NOBODY);
    /* Terminal escapes in every string, root's own (trusted) file. */
    make_page(&pg.f, "\x1b]0;owned\x07", dead_pid(), 5);
    memcpy(pg.f.names[1], "\x1b[2J\x1b[31mred\x9b", 13);
    pg.f.counters[1] = 7;
    plant(dir, "esc\x1b[1m.fcstats", pg.b, sizeof(pg.b), 0);
    /* Times no calendar holds. */
    make_page(&pg.f, "badtime", getpid(), 4);
    pg.f.created = INT64_MAX;
    pg.f.exited = INT64_MIN;
    plant(dir, "time-max.fcstats", pg.b, sizeof(pg.b), 0);
    pg.f.created = INT64_MIN;
    pg.f.state = FC_STATS_EXITED;
    plant(dir, "time-min.fcstats", pg.b, sizeof(pg.b), 0);

    /* A process of nobody's: genuine while it runs. */
    assert_int_equal(pipe(up), 0);
    assert_int_equal(pipe(down), 0);
    fds[0] = down[0];
    fds[1] = up[1];
    fflush(NULL);
    child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(up[0]);
        close(down[1]);
        _exit(child_nobody(fds));
    }
    close(up[1]);
    close(down[0]);
    set_dir(NULL);
    {
        char r = 0;
        assert_int_equal(read(up[0], &r, 1), 1);
    }

    const char *modes[] = {"", "-a", "-a -z", "-a -s", "-a -r -z", "-s"};
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        assert_exit(tool_run(dir, modes[i], &out), 0);
        if (!printable(out))
            fail_msg("unescaped bytes in the output of %s", modes[i]);
        printf("-- fastcrypto-stats %s\n%s", modes[i], out);
        free(out);
    }
    /* The total of this program: root's 3 and nobody's running 2. */
    assert_exit(tool_run(dir, "-a -s", &out), 0);
    assert_non_null(strstr(out, "\\x1b]0;owned\\x07"));
    assert_non_null(strstr(out, "\\x1b[2J\\x1b[31mred\\x9b=7"));
    assert_int_equal(total_of(out, g_comm, "aes-gcm-enc"), 5);
    free(out);
    assert_exit(tool_run(dir, "-a -r -z", &out), 0);
    assert_non_null(strstr(out, "claim-live.fcstats"));
    assert_int_equal(sum_lines(out, "aes-gcm-enc", "trusted=no "), 3000000);
    assert_int_equal(sum_lines(out, "aes-gcm-enc", "trusted=yes "),
                     3 + 2 + 5 + 4 + 4);
    free(out);

    /* nobody's process ends: its file is no longer vouched for (-u is). */
    assert_int_equal(write(down[1], "x", 1), 1);
    assert_int_equal(waitpid(child, &st, 0), child);
    assert_child_ok(st);
    assert_exit(tool_run(dir, "-a -s", &out), 0);
    assert_int_equal(total_of(out, g_comm, "aes-gcm-enc"), 3);
    free(out);
    assert_exit(tool_run(dir, "-a -s -u nobody", &out), 0);
    assert_int_equal(total_of(out, g_comm, "aes-gcm-enc"), 3 + 2 + 3000000);
    free(out);

    /* --clean (root, as from cron) removes what no running process owns. */
    assert_exit(tool_run(dir, "--clean", &out), 0);
    assert_true(printable(out));
    free(out);
    assert_int_equal(count_files(dir), 1);
    OSSL_LIB_CTX_free(lib);
    close(up[0]);
    close(down[1]);
}

/*
 * fastcrypto-stats on thousands of mutated and random files, in every
 * mode: it must exit normally (0), print only printable bytes, and
 * processes creating their files among them (which fold files of ended
 * processes) must not fail either. Run under the ASan build too.
 */
static uint64_t fuzz_state = 0x9e3779b97f4a7c15u;

static uint64_t fuzz_rand(void)
{
    fuzz_state ^= fuzz_state << 13;
    fuzz_state ^= fuzz_state >> 7;
    fuzz_state ^= fuzz_state << 17;
    return fuzz_state;
}

static int child_count_in(void *p)
{
    OSSL_LIB_CTX *lib;

    set_dir(p);
    lib = fc_test_lib_load(NULL, FC_TEST_NEED_FC);
    if (lib == NULL || !gcm_messages(lib, 1))
        return 1;
    _exit(0);
}

FC_TEST("stats files", test_tool_fuzz)
{
    static const int64_t odd[] = {
        0,          1,         -1,        2,         3,
        32,         33,        4096,      INT32_MAX, INT32_MIN,
        UINT32_MAX, INT64_MAX, INT64_MIN, 1 << 22,   (int64_t)1 << 40};
    union {
        fc_stats_file f;
        unsigned char b[2 * FC_STATS_FILE_SIZE];
    } pg;
    const int nfiles = 3000;
    char dir[128], name[256], path[600], *out;
    pid_t live[3] = {getpid(), getppid(), 1}, dead = dead_pid();

    new_dir(dir, sizeof(dir));
    /* FC_TEST_SEED=N explores other files; the default is fixed. */
    if (getenv("FC_TEST_SEED") != NULL)
        fuzz_state = strtoull(getenv("FC_TEST_SEED"), NULL, 0) | 1;
    print_message("seed %#llx\n", (unsigned long long)fuzz_state);
    for (int i = 0; i < nfiles; i++) {
        size_t len = FC_STATS_FILE_SIZE;
        int kind = (int)(fuzz_rand() % 6);
        pid_t pid = fuzz_rand() % 2 ? live[fuzz_rand() % 3] : dead;

        make_page(&pg.f, fuzz_rand() % 2 ? "fuzz" : g_comm, pid,
                  fuzz_rand() % 1000);
        pg.f.start_ticks = fuzz_rand() % 4 == 0 ? fuzz_rand() : 0;
        pg.f.state = (uint32_t)(1 + fuzz_rand() % 3);
        memset(pg.b + FC_STATS_FILE_SIZE, 0, FC_STATS_FILE_SIZE);
        switch (kind) {
        case 0: /* bytes flipped anywhere */
            for (int k = 1 + (int)(fuzz_rand() % 20); k > 0; k--)
                pg.b[fuzz_rand() % FC_STATS_FILE_SIZE] ^=
                    (unsigned char)(1 + fuzz_rand() % 255);
            break;
        case 1: { /* a header field at an odd value */
            int64_t v = odd[fuzz_rand() % (sizeof(odd) / sizeof(odd[0]))];
            switch (fuzz_rand() % 9) {
            case 0:
                pg.f.ncounters = (uint32_t)v;
                break;
            case 1:
                pg.f.state = (uint32_t)v;
                break;
            case 2:
                pg.f.pid = v;
                break;
            case 3:
                pg.f.created = v;
                break;
            case 4:
                pg.f.exited = v;
                break;
            case 5:
                pg.f.start_ticks = (uint64_t)v;
                break;
            case 6:
                pg.f.inherited = (uint32_t)v;
                break;
            case 7:
                pg.f.counters[fuzz_rand() % FC_STATS_MAX] = (uint64_t)v;
                break;
            default:
                pg.f.ppid = v;
                break;
            }
            break;
        }
        case 2: /* strings without a NUL, any bytes */
            for (size_t k = 0; k < sizeof(pg.f.comm); k++)
                pg.f.comm[k] = (char)(fuzz_rand() % 256);
            for (size_t k = 0; k < sizeof(pg.f.names); k++)
                ((char *)pg.f.names)[k] = (char)(fuzz_rand() % 256);
            for (size_t k = 0; k < sizeof(pg.f.buildinfo); k++)
                pg.f.buildinfo[k] = (char)(fuzz_rand() % 256);
            pg.f.ncounters = (uint32_t)(fuzz_rand() % (FC_STATS_MAX + 1));
            break;
        case 3: /* random after the magic */
            for (size_t k = 8; k < FC_STATS_FILE_SIZE; k++)
                pg.b[k] = (unsigned char)fuzz_rand();
            break;
        case 4: /* a size other than one page */
            len = fuzz_rand() % 2 ? fuzz_rand() % FC_STATS_FILE_SIZE
                                  : FC_STATS_FILE_SIZE + 1 +
                                        fuzz_rand() % FC_STATS_FILE_SIZE;
            break;
        default: /* accumulator-like pages, pid 0 */
            pg.f.pid = 0;
            pg.f.state = (uint32_t)(fuzz_rand() % 5);
            for (size_t k = sizeof(fc_stats_file) - 128; k < FC_STATS_FILE_SIZE;
                 k++)
                pg.b[k] = (unsigned char)fuzz_rand();
            break;
        }
        /* Names as the provider makes them (so that processes fold these)
         * and any others. */
        if (fuzz_rand() % 2)
            snprintf(name, sizeof(name), "%s.%d.%llu.%d" FC_STATS_SUFFIX,
                     fuzz_rand() % 2 ? "fuzz" : g_comm, (int)pid,
                     (unsigned long long)pg.f.start_ticks, i);
        else if (fuzz_rand() % 8 == 0)
            snprintf(name, sizeof(name), "%s.ended.%u" FC_STATS_SUFFIX,
                     fuzz_rand() % 2 ? "fuzz" : g_comm, (unsigned)geteuid());
        else
            snprintf(name, sizeof(name), "f%d\x1b\n" FC_STATS_SUFFIX, i);
        snprintf(path, sizeof(path), "%s/%s", dir, name);
        {
            int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            assert_true(fd >= 0);
            assert_int_equal(write(fd, pg.b, len), (ssize_t)len);
            close(fd);
        }
    }
    /* Entries that are not regular files. */
    snprintf(path, sizeof(path), "%s/dir" FC_STATS_SUFFIX, dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/fifo" FC_STATS_SUFFIX, dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(path, sizeof(path), "%s/zero" FC_STATS_SUFFIX, dir);
    assert_int_equal(symlink("/dev/zero", path), 0);

    const char *modes[] = {"",      "-a",           "-a -z",
                           "-a -s", "-a -r -z",     "-a -z -n fuzz",
                           "-s -z", "-a -u nobody", "-a -p 1"};
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        assert_exit(tool_run(dir, modes[i], &out), 0);
        if (!printable(out))
            fail_msg("unescaped bytes in the output of %s", modes[i]);
        free(out);
    }
    /* Processes making their files here read (and fold) these. */
    for (int i = 0; i < 8; i++)
        assert_child_ok(in_child(child_count_in, dir));
    assert_exit(tool_run(dir, "-a -z", &out), 0);
    assert_true(printable(out));
    free(out);
    assert_exit(tool_run(dir, "--clean", &out), 0);
    assert_true(printable(out));
    free(out);
}

/* A child that counts once in the directory |p|, within 10 s. */
static int child_count_alarm(void *p)
{
    alarm(10);
    return child_count_in(p);
}

/*
 * A process holding the lock of an ended file (a folder stopped or traced
 * mid-fold) must not stall the first count of another process, which
 * leaves the fold to a later one; nothing is lost.
 */
FC_TEST("stats files", test_fold_lock_held)
{
    char dir[128], ended[256], *out;
    int fd;

    new_dir(dir, sizeof(dir));
    assert_child_ok(in_child(child_count_in, dir));
    assert_int_equal(count_files(dir), 1);
    snprintf(ended, sizeof(ended), "%s/%s.ended.%u" FC_STATS_SUFFIX, dir,
             g_comm, (unsigned)geteuid());
    fd = open(ended, O_RDWR | O_CREAT, 0600);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX), 0);
    assert_child_ok(in_child(child_count_alarm, dir));
    assert_int_equal(count_files(dir), 3); /* two dead, the ended one */
    assert_int_equal(flock(fd, LOCK_UN), 0);
    close(fd);
    assert_child_ok(in_child(child_count_alarm, dir));
    assert_int_equal(count_files(dir), 2); /* the last one, the ended one */
    assert_exit(tool_run(dir, "-a -z -r", &out), 0);
    assert_int_equal(sum_lines(out, "aes-gcm-enc", ""), 3);
    free(out);
}

/* ---------------------------------------------------------------------- */

/* Copies |from| to |to| (mode 0644), replacing a line that starts with
 * "module = " by "module = |module|" when |module| is not NULL. */
static int copy_file(const char *from, const char *to, const char *module)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char line[1024];
    size_t n;
    int ok = in != NULL && out != NULL;

    if (ok && module != NULL) {
        while (fgets(line, sizeof(line), in) != NULL)
            if (strncmp(line, "module = ", 9) == 0)
                fprintf(out, "module = %s\n", module);
            else
                fputs(line, out);
    } else if (ok) {
        char buf[65536];

        while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
            ok &= fwrite(buf, 1, n, out) == n;
    }
    ok &= in != NULL && !ferror(in);
    if (in != NULL)
        fclose(in);
    if (out != NULL)
        ok &= fclose(out) == 0;
    return ok && chmod(to, 0644) == 0;
}

/* g_nobody_conf: the test config and the module it names, copied under
 * g_root. */
static int nobody_conf_make(void)
{
    const char *conf = getenv("FC_TEST_CONF");
    char module[1024] = "", copy[128], line[1024];
    FILE *f = fopen(conf, "r");

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL)
        if (strncmp(line, "module = ", 9) == 0) {
            snprintf(module, sizeof(module), "%s", line + 9);
            module[strcspn(module, "\r\n")] = '\0';
        }
    fclose(f);
    snprintf(copy, sizeof(copy), "%s/fastcrypto.so", g_root);
    snprintf(g_nobody_conf, sizeof(g_nobody_conf), "%s/nobody.cnf", g_root);
    return module[0] != '\0' && copy_file(module, copy, NULL) &&
           copy_file(conf, g_nobody_conf, copy);
}

static int group_setup(void **state)
{
    if (getenv("FC_TEST_CONF") == NULL) {
        print_error("FC_TEST_CONF is not set (run through ctest)\n");
        return -1;
    }
    find_tool();
    if (!self_comm())
        return -1;
    snprintf(g_root, sizeof(g_root), "/tmp/fc-test-stats.XXXXXX");
    if (mkdtemp(g_root) == NULL || !nobody_conf_make())
        return -1;
    unsetenv("FASTCRYPTO_STATS");
    unsetenv("FASTCRYPTO_STATS_DIR");
    return 0;
}

static int group_teardown(void **state)
{
    return fc_test_remove_tree(g_root) ? 0 : -1;
}

int main(void)
{
    /* FC_TEST_FILTER=test_fork_bound runs one test (test/e2e/stats.sh;
     * fc_test_main reads it). */
    static const fc_test_fixture fixtures[] = {
        {"stats files", group_setup, group_teardown},
    };

    return fc_test_main(fixtures, sizeof(fixtures) / sizeof(fixtures[0]));
}
