"""The scratch copy mutants are built in: the user's checkout is only ever read.

`<work>/src` holds the working tree's files (tracked and untracked, minus what git ignores) and a
copy of the checkout's `.build` without its module cache (the cache holds absolute paths; without
it the first build takes about a minute and a half instead of four). A mutated file is written
back from memory after every mutant, so an interruption leaves at most one mutated file in the
scratch copy, which the next run overwrites.
"""

import os
import shutil
import subprocess

_SKIP_DIRS = {".git", ".venv", "Reports", "Captures", "__pycache__"}


def _project_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard", "-z"],
                             check=True, capture_output=True).stdout
        return [name for name in out.decode("utf-8").split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.startswith(".build")]
            files += [os.path.relpath(os.path.join(folder, name), root) for name in names]
        return files


def _same(a, b):
    try:
        if os.path.getsize(a) != os.path.getsize(b):
            return False
        with open(a, "rb") as x, open(b, "rb") as y:
            return x.read() == y.read()
    except OSError:
        return False


class Scratch:
    def __init__(self, root, work, log):
        self.root = root
        self.src = os.path.join(work, "src")
        self.log = log
        self.saved = {}  # repository path -> original bytes, while a mutant is applied

    def prepare(self):
        """Copies (or refreshes) the sources and, the first time, the checkout's `.build`."""
        fresh = not os.path.isdir(self.src)
        os.makedirs(self.src, exist_ok=True)
        copied = 0
        names = _project_files(self.root)
        if not fresh:
            self._remove_stale(set(names))
        for name in names:
            source = os.path.join(self.root, name)
            target = os.path.join(self.src, name)
            if not os.path.isfile(source) or os.path.islink(source):
                continue
            if not fresh and _same(source, target):
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(source, target)
            copied += 1
        venv = os.path.join(self.root, ".venv")
        link = os.path.join(self.src, ".venv")
        if os.path.isdir(venv) and not os.path.lexists(link):
            os.symlink(venv, link)
        build = os.path.join(self.root, ".build")
        target = os.path.join(self.src, ".build")
        if os.path.isdir(build) and not os.path.exists(target):
            self.log(f"copying {build} (without its module cache) to the scratch copy")
            cache = os.path.realpath(os.path.join(build, "debug", "ModuleCache"))

            def ignore(folder, names):
                skipped = {".lock"} if os.path.realpath(folder) == os.path.realpath(build) else set()
                return skipped | {n for n in names if os.path.realpath(os.path.join(folder, n)) == cache}

            partial = target + ".partial"  # renamed when complete: an interruption leaves no half copy
            shutil.rmtree(partial, ignore_errors=True)
            shutil.copytree(build, partial, symlinks=True, ignore=ignore)
            os.rename(partial, target)
        return copied

    def _remove_stale(self, names):
        """Removes the scratch copy's files that the checkout no longer has (a deleted source
        would otherwise still be compiled)."""
        for folder, dirs, files in os.walk(self.src):
            dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.startswith(".build")]
            for file in files:
                name = os.path.relpath(os.path.join(folder, file), self.src).replace(os.sep, "/")
                if name not in names:
                    os.remove(os.path.join(folder, file))

    def read(self, path):
        with open(os.path.join(self.src, path), "rb") as handle:
            return handle.read()

    def write(self, path, data):
        """Replaces `path` in the scratch copy, keeping the original for `restore`."""
        if path not in self.saved:
            self.saved[path] = self.read(path)
        with open(os.path.join(self.src, path), "wb") as handle:
            handle.write(data)

    def restore(self):
        for path, data in self.saved.items():
            with open(os.path.join(self.src, path), "wb") as handle:
                handle.write(data)
        self.saved.clear()

    def remove(self):
        shutil.rmtree(self.src, ignore_errors=True)
