// A small data disk for the full-disk tests: a 48 MB tmpfs (a real file system that fills up; needs
// root to mount), and filling it to the last byte.
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Mounts a fresh 48 MB tmpfs; answers its path. */
export function mountSmallDisk(): string {
  const mountPoint = mkdtempSync(path.join(os.tmpdir(), "chatcrypt-small-disk-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=48m", "tmpfs", mountPoint]);
  return mountPoint;
}

/** Unmounts and removes what mountSmallDisk made (nothing when it is not mounted). */
export function unmountSmallDisk(mountPoint: string | undefined) {
  if (!mountPoint) return;
  try {
    execFileSync("umount", ["-l", mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  } catch {
    // not mounted
  }
}

/** Fills the file system of `dir` up to the last byte; returns the filler's path. */
export function fillDisk(dir: string): string {
  const filler = path.join(dir, "filler.bin");
  const fd = openSync(filler, "w");
  for (const size of [1024 * 1024, 512]) {
    const chunk = Buffer.alloc(size, 7);
    try {
      for (;;) writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    }
  }
  closeSync(fd);
  return filler;
}
