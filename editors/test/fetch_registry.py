"""Starts tofu-fetch's test registry for the fetch step of the real-editor
tests (VS Code, Neovim, Helix): a module with nothing installed, whose
provider the server fetches (`schemas.fetchProviders`) from an HTTPS
registry on loopback serving the real hashicorp/time provider.

    python3 editors/test/fetch_registry.py DIR

copies schema-root/ (rotation.tf, nothing installed) into DIR/module,
starts the registry (`TOFU_LENS_TEST_REGISTRY`, else the repository's
target/debug/examples/test_registry, which `cargo test` builds) serving
the package of `$TOFU_LENS_PROVIDER_PLUGINS`, in a session of its own so
that it outlives this script, writes DIR/tofurc (a `host` block sending
registry.opentofu.org there), and prints one JSON line: `pid` (the
caller stops it), `base`, `module`, and `env`, the variables the server
must run with (`TF_CLI_CONFIG_FILE`, `SSL_CERT_FILE` naming the test CA,
`XDG_CACHE_HOME` empty, so the package is really fetched).

Exit status: 0 when started; 77 when TOFU_LENS_PROVIDER_PLUGINS is not set
or no registry program is built (the caller says so and skips the step);
1 on any other failure.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import time_provider_root  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CA = REPO / "crates" / "tofu-fetch" / "tests" / "data" / "ca.pem"
EXIT_SKIP = 77


def start(directory):
    """Starts the registry and lays out DIR; returns what main prints."""
    package = time_provider_root.time_package()
    executable = package / f"terraform-provider-time_v{time_provider_root.VERSION}"
    registry = os.environ.get("TOFU_LENS_TEST_REGISTRY") or str(
        REPO / "target" / "debug" / "examples" / "test_registry"
    )
    if not os.access(registry, os.X_OK):
        raise time_provider_root.NotSet(
            f"no test registry program at {registry}: build it with cargo build -p tofu-fetch --examples"
        )
    directory = Path(directory)
    module = directory / "module"
    shutil.copytree(time_provider_root.MODULE, module, dirs_exist_ok=True)
    process = subprocess.Popen(
        [registry, "--release", f"time={time_provider_root.VERSION}:{executable}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    base = process.stdout.readline().strip()
    if not base.startswith("https://"):
        process.kill()
        raise RuntimeError(f"the test registry did not start: {base!r}")
    rc = directory / "tofurc"
    rc.write_text(
        f'host "registry.opentofu.org" {{\n  services = {{\n    "providers.v1" = "{base}/v1/providers/"\n  }}\n}}\n'
    )
    return {
        "pid": process.pid,
        "base": base,
        "module": str(module),
        "env": {
            "TF_CLI_CONFIG_FILE": str(rc),
            "SSL_CERT_FILE": str(CA),
            "XDG_CACHE_HOME": str(directory / "cache"),
        },
    }


def main(arguments):
    if len(arguments) != 1:
        print("usage: fetch_registry.py DIR", file=sys.stderr)
        return 2
    try:
        started = start(arguments[0])
    except time_provider_root.NotSet as error:
        print(error, file=sys.stderr)
        return EXIT_SKIP
    except (OSError, RuntimeError) as error:
        print(error, file=sys.stderr)
        return 1
    print(json.dumps(started), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
