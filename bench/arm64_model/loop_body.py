# SPDX-License-Identifier: Apache-2.0
# loop_body.py BASE DISASSEMBLY KERNEL - scripts/arm64_model.sh's loop body:
# from the PC traces BASE.3840.pc and BASE.7680.pc, the smallest period of
# the long trace's middle third (one main-loop iteration; Montgomery: the
# whole short trace), written as BASE.s between llvm-mca region markers
# with the disassembly's text of each PC, and "bytes instructions" to
# BASE.bytes.
import re, sys
base, dis, kern = sys.argv[1:4]
t1 = open(base + ".3840.pc").read().split()
t2 = open(base + ".7680.pc").read().split()
if kern.startswith("mont"):
    body, nbytes = t1, 0
else:
    a, win = len(t2) // 3, len(t2) // 3
    p = next(p for p in range(4, win // 2) if t2[a:a + win - p] == t2[a + p:a + win])
    body = t2[a:a + p]
    nbytes = round(3840 * p / (len(t2) - len(t1)) / 16) * 16
text = {}
for line in open(dis):
    m = re.match(r"\s*([0-9a-f]+):\s+(\S.*)", line)
    if m:
        ins = re.sub(r"\s*(//|<|;).*", "", m.group(2)).strip()
        if re.match(r"(b|bl|b\.\w+|cbn?z|tbn?z|adrp?)\s", ins):
            ins = re.sub(r"0x[0-9a-f]+$", ".", ins)
        text[int(m.group(1), 16)] = ins
with open(base + ".s", "w") as f:
    f.write("# LLVM-MCA-BEGIN %s\n" % base.rsplit("/", 1)[1])
    for pc in body:
        f.write("\t%s\n" % text[int(pc, 16)])
    f.write("# LLVM-MCA-END\n")
open(base + ".bytes", "w").write("%d %d\n" % (nbytes, len(body)))
