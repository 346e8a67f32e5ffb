/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abi_check.c - the C half of the calling-convention checker (see
 * abi_check.h); the register work is in abi_tramp_<arch>.S.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "abi_check.h"
#include "impls.h"

#if FC_ABI_CHECK_AVAILABLE

static void fc_abi_append(fc_abi_report *rep, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void fc_abi_append(fc_abi_report *rep, const char *fmt, ...)
{
    size_t used = strlen(rep->msg);
    va_list ap;

    if (used + 3 >= sizeof(rep->msg))
        return;
    if (used > 0) {
        memcpy(rep->msg + used, "; ", 3);
        used += 2;
    }
    va_start(ap, fmt);
    vsnprintf(rep->msg + used, sizeof(rep->msg) - used, fmt, ap);
    va_end(ap);
    rep->ok = 0;
}

/* fc_abi_self_test's cases: a callee and what the report must say. */
typedef struct fc_abi_case {
    void (*fn)(void);
    const char *expect; /* substring of the report, NULL: must pass */
} fc_abi_case;

#define FC_ABI_LOCAL __attribute__((visibility("hidden")))

#if defined(__x86_64__)

/*
 * What the trampoline reads and writes. The offsets are repeated as
 * .set constants in abi_tramp_x86_64.S and pinned here.
 */
typedef struct fc_abi_state {
    uint64_t fn;           /* 0: function to call */
    uint64_t args[6];      /* 8: rdi rsi rdx rcx r8 r9 */
    uint64_t junk[3];      /* 56: rax r10 r11 on entry */
    uint64_t in[6];        /* 80: rbx rbp r12 r13 r14 r15 before */
    uint64_t out[6];       /* 128: the same registers after */
    uint64_t rsp_before;   /* 176: rsp at the call instruction */
    uint64_t rsp_after;    /* 184: rsp after the return */
    uint64_t rflags_after; /* 192 */
    uint64_t ret;          /* 200: rax after */
    uint32_t mxcsr_before; /* 208 */
    uint32_t mxcsr_after;  /* 212 */
    uint16_t fcw_before;   /* 216: x87 control word */
    uint16_t fcw_after;    /* 218 */
    uint32_t pad;          /* 220 */
    uint8_t xmm[16][16];   /* 224: xmm0-xmm15 on entry */
} fc_abi_state;

_Static_assert(offsetof(fc_abi_state, args) == 8, "args");
_Static_assert(offsetof(fc_abi_state, junk) == 56, "junk");
_Static_assert(offsetof(fc_abi_state, in) == 80, "in");
_Static_assert(offsetof(fc_abi_state, out) == 128, "out");
_Static_assert(offsetof(fc_abi_state, rsp_before) == 176, "rsp_before");
_Static_assert(offsetof(fc_abi_state, rsp_after) == 184, "rsp_after");
_Static_assert(offsetof(fc_abi_state, rflags_after) == 192, "rflags");
_Static_assert(offsetof(fc_abi_state, ret) == 200, "ret");
_Static_assert(offsetof(fc_abi_state, mxcsr_before) == 208, "mxcsr");
_Static_assert(offsetof(fc_abi_state, fcw_before) == 216, "fcw");
_Static_assert(offsetof(fc_abi_state, xmm) == 224, "xmm");

/* abi_tramp_x86_64.S; not thread-safe (static bookkeeping). */
void fc_abi_tramp(fc_abi_state *st);

static const char *const fc_abi_reg_names[6] = {"rbx", "r12", "r13",
                                                "r14", "r15", "rbp"};
/* Index into fc_abi_state.in/out for each name above: the trampoline's
 * order is rbx rbp r12 r13 r14 r15. */
static const int fc_abi_reg_slot[6] = {0, 2, 3, 4, 5, 1};

#define FC_RFLAGS_DF (1u << 10)
/* MXCSR bits 0-5 are sticky exception flags a callee may set; the masks,
 * rounding control, DAZ and FZ (bits 6-15) are callee-saved. */
#define FC_MXCSR_CONTROL 0xffc0u

/* see abi_check.h */
int fc_abi_check(const void *fn, const uint64_t *args, size_t nargs,
                 fc_abi_report *rep)
{
    fc_abi_state st;

    memset(rep, 0, sizeof(*rep));
    rep->ok = 1;
    assert_true(nargs <= FC_ABI_MAX_ARGS);
    memset(&st, 0, sizeof(st));
    st.fn = (uint64_t)(uintptr_t)fn;
    /* Fresh values each call: a callee that saved and restored a register
     * through a fixed location, or that "restores" a constant, is caught. */
    fc_test_rand_bytes(st.args, sizeof(st.args));
    fc_test_rand_bytes(st.junk, sizeof(st.junk));
    fc_test_rand_bytes(st.in, sizeof(st.in));
    fc_test_rand_bytes(st.xmm, sizeof(st.xmm));
    for (size_t i = 0; i < nargs; i++)
        st.args[i] = args[i];

    fc_abi_tramp(&st);
    rep->ret = st.ret;

    for (size_t i = 0; i < 6; i++) {
        int s = fc_abi_reg_slot[i];
        if (st.out[s] != st.in[s])
            fc_abi_append(rep, "%s clobbered: 0x%016llx -> 0x%016llx",
                          fc_abi_reg_names[i], (unsigned long long)st.in[s],
                          (unsigned long long)st.out[s]);
    }
    if (st.rsp_after != st.rsp_before)
        fc_abi_append(rep, "rsp moved by %lld bytes",
                      (long long)(st.rsp_after - st.rsp_before));
    if (st.rflags_after & FC_RFLAGS_DF)
        fc_abi_append(rep, "direction flag left set");
    if ((st.mxcsr_after ^ st.mxcsr_before) & FC_MXCSR_CONTROL)
        fc_abi_append(rep, "MXCSR control bits changed: 0x%04x -> 0x%04x",
                      st.mxcsr_before, st.mxcsr_after);
    if (st.fcw_after != st.fcw_before)
        fc_abi_append(rep, "x87 control word changed: 0x%04x -> 0x%04x",
                      st.fcw_before, st.fcw_after);
    return rep->ok;
}

/*
 * Deliberately broken callees for fc_abi_self_test. Local symbols: they
 * exist only in this object.
 */
__asm__(".text\n"
        ".p2align 4\n"
        "fc_abi_bad_rbx:\n"
        "    notq %rbx\n"
        "    ret\n"
        "fc_abi_bad_rbp:\n"
        "    notq %rbp\n"
        "    ret\n"
        "fc_abi_bad_r12:\n"
        "    notq %r12\n"
        "    ret\n"
        "fc_abi_bad_r15:\n"
        "    xorq %r15, %r15\n"
        "    ret\n"
        "fc_abi_bad_rsp:\n"
        "    popq %rcx\n" /* return address */
        "    subq $16, %rsp\n"
        "    jmp *%rcx\n"
        "fc_abi_bad_df:\n"
        "    std\n"
        "    ret\n"
        "fc_abi_bad_mxcsr:\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    orl $0x6000, (%rsp)\n" /* round toward zero */
        "    ldmxcsr (%rsp)\n"
        "    addq $8, %rsp\n"
        "    ret\n"
        "fc_abi_good:\n" /* sum of args[i] << i, saving rbx properly */
        "    pushq %rbx\n"
        "    movq %rdi, %rax\n"
        "    leaq (%rax,%rsi,2), %rax\n"
        "    leaq (%rax,%rdx,4), %rax\n"
        "    leaq (%rax,%rcx,8), %rax\n"
        "    movq %r8, %rbx\n"
        "    shlq $4, %rbx\n"
        "    addq %rbx, %rax\n"
        "    movq %r9, %rbx\n"
        "    shlq $5, %rbx\n"
        "    addq %rbx, %rax\n"
        "    popq %rbx\n"
        "    ret\n");

FC_ABI_LOCAL void fc_abi_bad_rbx(void);
FC_ABI_LOCAL void fc_abi_bad_rbp(void);
FC_ABI_LOCAL void fc_abi_bad_r12(void);
FC_ABI_LOCAL void fc_abi_bad_r15(void);
FC_ABI_LOCAL void fc_abi_bad_rsp(void);
FC_ABI_LOCAL void fc_abi_bad_df(void);
FC_ABI_LOCAL void fc_abi_bad_mxcsr(void);
FC_ABI_LOCAL void fc_abi_good(void);

static const fc_abi_case fc_abi_cases[] = {
    {fc_abi_bad_rbx, "rbx clobbered"},
    {fc_abi_bad_rbp, "rbp clobbered"},
    {fc_abi_bad_r12, "r12 clobbered"},
    {fc_abi_bad_r15, "r15 clobbered"},
    {fc_abi_bad_rsp, "rsp moved by -16 bytes"},
    {fc_abi_bad_df, "direction flag"},
    {fc_abi_bad_mxcsr, "MXCSR control bits changed"},
    {fc_abi_good, NULL},
};

#elif defined(__aarch64__)

/*
 * What the trampoline reads and writes. The offsets are repeated as
 * .set constants in abi_tramp_aarch64.S and pinned here.
 */
typedef struct fc_abi_state {
    uint64_t fn;          /* 0: function to call */
    uint64_t args[6];     /* 8: x0-x5 */
    uint64_t junk[12];    /* 56: x6-x15, x17 on entry (11 used) */
    uint64_t in[11];      /* 152: x19-x28, x29 before */
    uint64_t out[11];     /* 240: the same registers after */
    uint64_t d_in[8];     /* 328: d8-d15 before */
    uint64_t d_out[8];    /* 392: d8-d15 after */
    uint64_t sp_before;   /* 456: sp at the call instruction */
    uint64_t sp_after;    /* 464: sp after the return */
    uint64_t ret;         /* 472: x0 after */
    uint64_t x18_before;  /* 480: platform register, not set by us */
    uint64_t x18_after;   /* 488 */
    uint64_t fpcr_before; /* 496 */
    uint64_t fpcr_after;  /* 504 */
    uint8_t v[24][16];    /* 512: v0-v7, v16-v31 on entry */
} fc_abi_state;

_Static_assert(offsetof(fc_abi_state, args) == 8, "args");
_Static_assert(offsetof(fc_abi_state, junk) == 56, "junk");
_Static_assert(offsetof(fc_abi_state, in) == 152, "in");
_Static_assert(offsetof(fc_abi_state, out) == 240, "out");
_Static_assert(offsetof(fc_abi_state, d_in) == 328, "d_in");
_Static_assert(offsetof(fc_abi_state, d_out) == 392, "d_out");
_Static_assert(offsetof(fc_abi_state, sp_before) == 456, "sp_before");
_Static_assert(offsetof(fc_abi_state, sp_after) == 464, "sp_after");
_Static_assert(offsetof(fc_abi_state, ret) == 472, "ret");
_Static_assert(offsetof(fc_abi_state, x18_before) == 480, "x18");
_Static_assert(offsetof(fc_abi_state, fpcr_before) == 496, "fpcr");
_Static_assert(offsetof(fc_abi_state, v) == 512, "v");

/* abi_tramp_aarch64.S; not thread-safe (static bookkeeping). */
void fc_abi_tramp(fc_abi_state *st);

/* see abi_check.h */
int fc_abi_check(const void *fn, const uint64_t *args, size_t nargs,
                 fc_abi_report *rep)
{
    fc_abi_state st;

    memset(rep, 0, sizeof(*rep));
    rep->ok = 1;
    assert_true(nargs <= FC_ABI_MAX_ARGS);
    memset(&st, 0, sizeof(st));
    st.fn = (uint64_t)(uintptr_t)fn;
    /* Fresh values each call, as on x86-64. */
    fc_test_rand_bytes(st.args, sizeof(st.args));
    fc_test_rand_bytes(st.junk, sizeof(st.junk));
    fc_test_rand_bytes(st.in, sizeof(st.in));
    fc_test_rand_bytes(st.d_in, sizeof(st.d_in));
    fc_test_rand_bytes(st.v, sizeof(st.v));
    for (size_t i = 0; i < nargs; i++)
        st.args[i] = args[i];

    fc_abi_tramp(&st);
    rep->ret = st.ret;

    for (size_t i = 0; i < 11; i++) {
        if (st.out[i] != st.in[i])
            fc_abi_append(rep, "x%zu%s clobbered: 0x%016llx -> 0x%016llx",
                          19 + i, i == 10 ? " (frame pointer)" : "",
                          (unsigned long long)st.in[i],
                          (unsigned long long)st.out[i]);
    }
    for (size_t i = 0; i < 8; i++) {
        if (st.d_out[i] != st.d_in[i])
            fc_abi_append(rep, "d%zu clobbered: 0x%016llx -> 0x%016llx", 8 + i,
                          (unsigned long long)st.d_in[i],
                          (unsigned long long)st.d_out[i]);
    }
    if (st.sp_after != st.sp_before)
        fc_abi_append(rep, "sp moved by %lld bytes",
                      (long long)(st.sp_after - st.sp_before));
    if (st.x18_after != st.x18_before)
        fc_abi_append(rep, "x18 (platform register) changed");
    /* FPCR holds only controls (rounding, FZ, DN, ...), all callee-saved;
     * the cumulative exception flags live in FPSR. */
    if (st.fpcr_after != st.fpcr_before)
        fc_abi_append(rep, "FPCR changed: 0x%08llx -> 0x%08llx",
                      (unsigned long long)st.fpcr_before,
                      (unsigned long long)st.fpcr_after);
    return rep->ok;
}

/*
 * Deliberately broken callees for fc_abi_self_test, each with a BTI
 * landing pad (they are reached by blr). Local symbols: they exist only in
 * this object.
 */
__asm__(".text\n"
        ".p2align 4\n"
        "fc_abi_bad_x19:\n"
        "    hint #34\n"
        "    mvn x19, x19\n"
        "    ret\n"
        "fc_abi_bad_x28:\n"
        "    hint #34\n"
        "    eor x28, x28, #1\n"
        "    ret\n"
        "fc_abi_bad_x29:\n"
        "    hint #34\n"
        "    mvn x29, x29\n"
        "    ret\n"
        "fc_abi_bad_d8:\n"
        "    hint #34\n"
        "    mvn v8.8b, v8.8b\n"
        "    ret\n"
        "fc_abi_bad_d15:\n"
        "    hint #34\n"
        "    movi d15, #0\n"
        "    ret\n"
        "fc_abi_bad_sp:\n"
        "    hint #34\n"
        "    sub sp, sp, #16\n"
        "    ret\n"
        "fc_abi_bad_x18:\n"
        "    hint #34\n"
        "    mvn x18, x18\n"
        "    ret\n"
        "fc_abi_bad_fpcr:\n" /* round toward zero */
        "    hint #34\n"
        "    mrs x9, fpcr\n"
        "    orr x9, x9, #0xc00000\n"
        "    msr fpcr, x9\n"
        "    ret\n"
        "fc_abi_good_vhigh:\n" /* upper halves of v8-v15 are caller-saved */
        "    hint #34\n"
        "    mov v8.d[1], xzr\n"
        "    mov v15.d[1], xzr\n"
        "    b fc_abi_good\n"
        "fc_abi_good:\n" /* sum of args[i] << i, saving x19, x20, d8 */
        "    hint #34\n"
        "    stp x19, x20, [sp, #-32]!\n"
        "    str d8, [sp, #16]\n"
        "    add x0, x0, x1, lsl #1\n"
        "    add x0, x0, x2, lsl #2\n"
        "    add x0, x0, x3, lsl #3\n"
        "    lsl x19, x4, #4\n"
        "    add x0, x0, x19\n"
        "    fmov d8, x5\n"
        "    fmov x20, d8\n"
        "    add x0, x0, x20, lsl #5\n"
        "    ldr d8, [sp, #16]\n"
        "    ldp x19, x20, [sp], #32\n"
        "    ret\n");

FC_ABI_LOCAL void fc_abi_bad_x19(void);
FC_ABI_LOCAL void fc_abi_bad_x28(void);
FC_ABI_LOCAL void fc_abi_bad_x29(void);
FC_ABI_LOCAL void fc_abi_bad_d8(void);
FC_ABI_LOCAL void fc_abi_bad_d15(void);
FC_ABI_LOCAL void fc_abi_bad_sp(void);
FC_ABI_LOCAL void fc_abi_bad_x18(void);
FC_ABI_LOCAL void fc_abi_bad_fpcr(void);
FC_ABI_LOCAL void fc_abi_good_vhigh(void);
FC_ABI_LOCAL void fc_abi_good(void);

static const fc_abi_case fc_abi_cases[] = {
    {fc_abi_bad_x19, "x19 clobbered"},
    {fc_abi_bad_x28, "x28 clobbered"},
    {fc_abi_bad_x29, "x29 (frame pointer) clobbered"},
    {fc_abi_bad_d8, "d8 clobbered"},
    {fc_abi_bad_d15, "d15 clobbered"},
    {fc_abi_bad_sp, "sp moved by -16 bytes"},
    {fc_abi_bad_x18, "x18 (platform register) changed"},
    {fc_abi_bad_fpcr, "FPCR changed"},
    {fc_abi_good_vhigh, NULL},
    {fc_abi_good, NULL},
};

#endif /* __x86_64__ / __aarch64__ */

/* see abi_check.h */
int fc_abi_self_test(void)
{
    const fc_abi_case *cases = fc_abi_cases;
    static const uint64_t args[6] = {1, 1, 1, 1, 1, 1};
    int ok = 1;

    for (size_t i = 0; i < sizeof(fc_abi_cases) / sizeof(fc_abi_cases[0]);
         i++) {
        fc_abi_report rep;
        int got = fc_abi_check((const void *)cases[i].fn, args, 6, &rep);
        if (cases[i].expect == NULL) {
            /* 1 + 2 + 4 + 8 + 16 + 32: each argument reached its register. */
            if (!got || rep.ret != 63) {
                print_message("abi self test: good callee judged bad: %s "
                              "(ret %llu)\n",
                              rep.msg, (unsigned long long)rep.ret);
                ok = 0;
            }
        } else if (got || strstr(rep.msg, cases[i].expect) == NULL) {
            print_message("abi self test: expected \"%s\", got \"%s\"\n",
                          cases[i].expect, got ? "(passed)" : rep.msg);
            ok = 0;
        }
    }
    return ok;
}

#else /* !FC_ABI_CHECK_AVAILABLE */

/* see abi_check.h */
int fc_abi_check(const void *fn, const uint64_t *args, size_t nargs,
                 fc_abi_report *rep)
{
    typedef uint64_t fc_abi_fn6(uint64_t, uint64_t, uint64_t, uint64_t,
                                uint64_t, uint64_t);
    uint64_t a[FC_ABI_MAX_ARGS] = {0};

    memset(rep, 0, sizeof(*rep));
    assert_true(nargs <= FC_ABI_MAX_ARGS);
    memcpy(a, args, nargs * sizeof(uint64_t));
    /* Calling through a wider prototype is what every C ABI we target
     * tolerates for integer arguments; there is nothing to check here. */
    rep->ret =
        ((fc_abi_fn6 *)(uintptr_t)fn)(a[0], a[1], a[2], a[3], a[4], a[5]);
    rep->ok = 1;
    return 1;
}

/* see abi_check.h */
int fc_abi_self_test(void)
{
    return 1;
}

#endif /* FC_ABI_CHECK_AVAILABLE */

/* see abi_check.h */
uint64_t fc_abi_call(const char *what, const void *fn, const uint64_t *args,
                     size_t nargs)
{
    fc_abi_report rep;

    if (!fc_abi_check(fn, args, nargs, &rep))
        fail_msg("ABI violation in %s: %s", what, rep.msg);
    return rep.ret;
}

/* see abi_check.h */
void fc_abi_test_checker(void **state)
{
    (void)state;
    if (!FC_ABI_CHECK_AVAILABLE) {
        print_message("[  SKIPPED ] no ABI trampoline on this build\n");
        skip();
        return;
    }
    assert_true(fc_abi_self_test());
}
