"""Lays out a root module with the real hashicorp/time provider installed, as
`tofu init -plugin-dir` leaves it, for the schema step of the real-editor
tests (VS Code, Neovim, Helix): one helper, so the lock file's hash is
computed in one place.

    python3 editors/test/time_provider_root.py [--install-only] DIR

copies schema-root/ (rotation.tf: a `time_rotating` resource) into DIR
(unless --install-only: the caller writes its own module), links the package
`$TOFU_LENS_PROVIDER_PLUGINS/registry.opentofu.org/hashicorp/time/0.14.2/OS_ARCH`
at `DIR/.terraform/providers/registry.opentofu.org/hashicorp/time/0.14.2/OS_ARCH`
and writes `DIR/.terraform.lock.hcl` with the package's `h1:` hash (tofu-lens
runs only a package whose hash the lock file records). The test gives the
server a schema cache of its own (`XDG_CACHE_HOME`), so the provider really runs.

Exit status: 0 when laid out; 77 when TOFU_LENS_PROVIDER_PLUGINS is not set
(the caller says so and skips the step, as the Rust tests do; CI builds the
provider and sets it, `.ci/run`); 1 when it is set but names no time
package for this platform.
"""

import base64
import hashlib
import os
import platform
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULE = HERE / "schema-root"
SOURCE = "registry.opentofu.org/hashicorp/time"
VERSION = "0.14.2"
NOT_SET = "TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run"
EXIT_NOT_SET = 77


class NotSet(Exception):
    """TOFU_LENS_PROVIDER_PLUGINS is not set."""


def platform_dir():
    """OpenTofu's name for this platform, as in the package path: linux_amd64."""
    machine = platform.machine().lower()
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    return f"{sys.platform}_{arch}"


def time_package():
    """The time provider's package directory under TOFU_LENS_PROVIDER_PLUGINS."""
    plugins = os.environ.get("TOFU_LENS_PROVIDER_PLUGINS")
    if not plugins:
        raise NotSet(NOT_SET)
    package = Path(plugins) / SOURCE / VERSION / platform_dir()
    if not package.is_dir():
        raise FileNotFoundError(f"TOFU_LENS_PROVIDER_PLUGINS names no time package: {package} is not there")
    return package


def package_hash(package):
    """The package's `h1:` hash as the lock file records it (Go's
    dirhash.Hash1): the SHA-256 of the lines `SHA256HEX  NAME`, one per file,
    sorted by their slash-separated path inside the package."""
    names = sorted(path.relative_to(package).as_posix() for path in package.rglob("*") if path.is_file())
    summary = "".join(f"{hashlib.sha256((package / name).read_bytes()).hexdigest()}  {name}\n" for name in names)
    return "h1:" + base64.b64encode(hashlib.sha256(summary.encode()).digest()).decode()


def lay_out(root, with_module=True):
    """Lays out `root` (created if missing), with rotation.tf unless not
    `with_module`; raises NotSet or FileNotFoundError."""
    package = time_package()
    root = Path(root)
    if with_module:
        shutil.copytree(MODULE, root, dirs_exist_ok=True)
    installed = root / ".terraform" / "providers" / SOURCE / VERSION
    installed.mkdir(parents=True, exist_ok=True)
    (installed / platform_dir()).symlink_to(package, target_is_directory=True)
    (root / ".terraform.lock.hcl").write_text(
        f'provider "{SOURCE}" {{\n  version     = "{VERSION}"\n  constraints = "{VERSION}"\n'
        f'  hashes = [\n    "{package_hash(package)}",\n  ]\n}}\n'
    )


def main(arguments):
    with_module = arguments[:1] != ["--install-only"]
    directories = arguments if with_module else arguments[1:]
    if len(directories) != 1:
        print("usage: time_provider_root.py [--install-only] DIR", file=sys.stderr)
        return 2
    try:
        lay_out(directories[0], with_module)
    except NotSet as error:
        print(error, file=sys.stderr)
        return EXIT_NOT_SET
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
