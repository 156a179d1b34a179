#!/usr/bin/env python3
"""Build the initramfs of the Linux side of `make compare` (a gzipped newc cpio):
busybox-static as /bin/busybox, scripts/compare/init as /init, the modules the disk and
ext2 need (virtio_pci, virtio_blk, ext4) with their dependencies in load order, and the
workloads under /workloads/, and the helper scripts given after OUT under /compare/
(trace-start.sh and trace-dump.sh, which a traced run sources).

  mkinitramfs.py KERNEL_TREE BUSYBOX INIT WORKLOAD_DIR OUT [HELPER...]
KERNEL_TREE is the extracted linux-image package (it holds lib/modules/VERSION/).
"""
import glob
import gzip
import os
import re
import sys

WANTED = ["virtio_pci", "virtio_blk", "crc32c_generic", "ext4"]


def module_paths(tree):
    paths = {}
    for p in glob.glob(os.path.join(tree, "lib/modules/*/kernel/**/*.ko"), recursive=True):
        paths[os.path.basename(p)[:-3].replace("-", "_")] = p
    return paths


def depends(path):
    """The depends= field of a module's .modinfo section."""
    m = re.search(rb"depends=([^\0]*)\0", open(path, "rb").read())
    return [d for d in (m.group(1).decode().split(",") if m else []) if d]


def load_order(paths):
    """The wanted modules after everything they depend on (a module missing from the
    package is built in, or absent: the kernel says which when the disk does not appear)."""
    order, seen = [], set()

    def visit(name):
        if name in seen or name not in paths:
            return
        seen.add(name)
        for dep in depends(paths[name]):
            visit(dep.replace("-", "_"))
        order.append(name)

    for name in WANTED:
        visit(name)
    return order


class Cpio:
    def __init__(self):
        self.data = bytearray()
        self.ino = 1

    def _entry(self, name, mode, body=b""):
        hdr = "070701" + "".join("%08X" % v for v in (
            self.ino, mode, 0, 0, 1, 0, len(body), 0, 0, 0, 0, len(name) + 1, 0))
        self.ino += 1
        self.data += hdr.encode() + name.encode() + b"\0"
        self.data += b"\0" * (-len(self.data) % 4)
        self.data += body
        self.data += b"\0" * (-len(self.data) % 4)

    def dir(self, name):
        self._entry(name, 0o40755)

    def file(self, name, body, mode=0o644):
        self._entry(name, 0o100000 | mode, body)

    def finish(self):
        self._entry("TRAILER!!!", 0)
        return bytes(self.data)


def main():
    tree, busybox, init, workloads, out = sys.argv[1:6]
    helpers = sys.argv[6:]
    paths = module_paths(tree)
    order = load_order(paths)
    c = Cpio()
    for d in ("bin", "dev", "proc", "sys", "mnt", "tmp", "lib", "lib/modules", "workloads",
              "compare"):
        c.dir(d)
    c.file("init", open(init, "rb").read(), 0o755)
    c.file("bin/busybox", open(busybox, "rb").read(), 0o755)
    for name in order:
        c.file("lib/modules/%s.ko" % name, open(paths[name], "rb").read())
    c.file("lib/modules/order", ("\n".join(order) + "\n").encode())
    for w in sorted(glob.glob(os.path.join(workloads, "*.sh"))):
        c.file("workloads/" + os.path.basename(w), open(w, "rb").read())
    for h in helpers:
        c.file("compare/" + os.path.basename(h), open(h, "rb").read())
    with open(out, "wb") as f:
        f.write(gzip.compress(c.finish()))
    print("initramfs: %s (modules: %s)" % (out, " ".join(order)))


if __name__ == "__main__":
    main()
