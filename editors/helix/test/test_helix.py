"""Helix: editors/helix/languages.toml checked against Helix's documented
schema, and the real `tofu-lens serve` driven the way Helix drives it.

Helix cannot be installed here (no registry ships it), so this replays it:

* The schema is the key tables of Helix's book, `book/src/languages.md`, at
  release 25.07.1 (commit a05c151bb6e8e9c65ec390b0ae2afe7a5efd619b), read from
  the helix-editor/helix repository; what the book does not say (which keys a
  new language needs, that `file-types` globs get a `*/` prefix) is read from
  `helix-core/src/syntax/config.rs` at that commit.
* The client capabilities in helix-*.capabilities.json are Helix's own
  `Client::initialize` (`helix-lsp/src/client.rs`) serialised with its own
  `helix-lsp-types`, for release 25.07.1 and for master at 079a789e
  (2026-07-23), which added pull diagnostics. Both offer positions in UTF-8,
  UTF-32, UTF-16 (in that order) and both accept dynamic registration of
  watched files, though Helix reports only the files it writes itself (so
  the server registers none for Helix and watches the disk itself).
  Master spells the refresh capability `workspace.diagnostic` (singular,
  a helix-lsp-types quirk), so a server reading the spec's
  `workspace.diagnostics` sees no refresh support.
* The session follows Helix's code: document versions start at 0,
  `initialized` is followed by `workspace/didChangeConfiguration` with the
  whole `config`, `workspace/configuration` is answered by walking `config`
  along the section's dotted path, and `:write` sends `didSave` and then
  `didChangeWatchedFiles` with type CHANGED (Helix never sends CREATED).

Run: python3 editors/helix/test/test_helix.py (TOFU_LENS: the binary,
default target/release/tofu-lens; TOFU_LENS_PROVIDER_PLUGINS: the plugin
directory with the real hashicorp/time provider, else the schema test is
skipped, saying so). Prints `helix: N passed, M failed` last.
"""

import copy
import fnmatch
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import unittest
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

HERE = Path(__file__).resolve().parent
HELIX_DIR = HERE.parent
REPO_ROOT = HELIX_DIR.parent.parent
LANGUAGES_TOML = HELIX_DIR / "languages.toml"
TIMEOUT = 20.0

# The root with the real hashicorp/time provider installed, shared by the
# three editors' tests (editors/test/time_provider_root.py).
sys.path.insert(0, str(HELIX_DIR.parent / "test"))
import fetch_registry  # noqa: E402
import time_provider_root  # noqa: E402

# --- Helix's languages.toml schema (book/src/languages.md, 25.07.1) ---------

# "Language configuration": the table of keys of a [[language]] section.
# `comment-token` is listed in the same row as the backwards-compatible
# spelling of `comment-tokens`.
LANGUAGE_KEYS = {
    "name", "language-id", "scope", "injection-regex", "file-types", "shebangs",
    "roots", "auto-format", "diagnostic-severity", "comment-tokens", "comment-token",
    "block-comment-tokens", "indent", "language-servers", "grammar", "formatter",
    "soft-wrap", "text-width", "rulers", "path-completion", "workspace-lsp-roots",
    "persistent-diagnostic-sources",
}
# `LanguageConfiguration` gives `scope` and `file-types` no serde default, so
# a language Helix does not define already must set them (with `name`).
NEW_LANGUAGE_REQUIRED_KEYS = {"name", "scope", "file-types"}
# "Language Server configuration": the options of a [language-server.NAME] table.
LANGUAGE_SERVER_KEYS = {"command", "args", "config", "timeout", "environment", "required-root-patterns"}
# "Configuring Language Servers for a language": the features list.
LANGUAGE_SERVER_FEATURES = {
    "format", "goto-definition", "goto-declaration", "goto-type-definition",
    "goto-reference", "goto-implementation", "signature-help", "hover",
    "document-highlight", "completion", "code-action", "workspace-command",
    "document-symbols", "workspace-symbols", "diagnostics", "rename-symbol", "inlay-hints",
}
# Top-level keys: [[language]], [language-server], [[grammar]], use-grammars.
TOP_LEVEL_KEYS = {"language", "language-server", "grammar", "use-grammars"}
# What Helix's own languages.toml (25.07.1) defines that this file refers to:
# the hcl language (file-types hcl, tf, nomad), the tfvars language
# (file-types tfvars, language-id terraform-vars, grammar hcl), the hcl and
# json grammars, and the terraform-ls and vscode-json-language-server servers.
HELIX_LANGUAGES = {
    "hcl": {"file-types": ["hcl", "tf", "nomad"], "language-servers": ["terraform-ls"]},
    "tfvars": {"file-types": ["tfvars"], "language-id": "terraform-vars", "grammar": "hcl",
               "language-servers": ["terraform-ls"]},
}
HELIX_GRAMMARS = {"hcl", "json"}
HELIX_LANGUAGE_SERVERS = {"terraform-ls", "vscode-json-language-server"}

# server.md, "Languages served", and "Settings" with their defaults.
SERVED_SUFFIXES = [".tf", ".tofu", ".tf.json", ".tofu.json", ".tfvars", ".tfvars.json",
                   ".tftest.hcl", ".tofutest.hcl", ".tftest.json", ".tofutest.json"]
SERVER_SETTINGS = {"tofuVersion": "1.12.6", "diagnostics": {"scope": "workspace"}, "exclude": [".terraform/**"]}


def load_languages():
    with open(LANGUAGES_TOML, "rb") as file:
        return tomllib.load(file)


def helix_language_for(path, languages):
    """Which language Helix gives `path` (book: "File-type detection"): a glob
    matching the full path wins (a relative glob gets a `*/` prefix), else a
    string equal to the file's extension (`Path::extension`, the last one)."""
    merged = {name: dict(config) for name, config in HELIX_LANGUAGES.items()}
    for language in languages:
        merged.setdefault(language["name"], {}).update(language)
    for name, language in merged.items():
        for file_type in language.get("file-types", []):
            if isinstance(file_type, dict):
                glob = file_type["glob"]
                if not glob.startswith(("/", "*")):
                    glob = "*/" + glob
                if fnmatch.fnmatchcase(path, glob):
                    return name, language
    extension = Path(path).suffix.lstrip(".")
    for name, language in merged.items():
        if extension in [t for t in language.get("file-types", []) if isinstance(t, str)]:
            return name, language
    return None, None


class LanguagesTomlSchema(unittest.TestCase):
    def setUp(self):
        self.toml = load_languages()
        self.servers = self.toml.get("language-server", {})
        self.languages = self.toml.get("language", [])

    def test_top_level_keys(self):
        self.assertLessEqual(set(self.toml), TOP_LEVEL_KEYS)

    def test_language_server_entry(self):
        self.assertEqual(set(self.servers), {"tofu-lens"})
        server = self.servers["tofu-lens"]
        self.assertLessEqual(set(server), LANGUAGE_SERVER_KEYS)
        self.assertEqual(server["command"], "tofu-lens")
        self.assertEqual(server["args"], ["serve"])

    def test_config_is_the_server_settings(self):
        # Sent as initializationOptions ({"tofuLens": {...}} is accepted) and
        # walked along "tofuLens" to answer workspace/configuration.
        self.assertEqual(self.servers["tofu-lens"]["config"], {"tofuLens": SERVER_SETTINGS})

    def test_language_keys(self):
        for language in self.languages:
            with self.subTest(language=language.get("name")):
                self.assertLessEqual(set(language), LANGUAGE_KEYS)
                if language["name"] not in HELIX_LANGUAGES:
                    self.assertLessEqual(NEW_LANGUAGE_REQUIRED_KEYS, set(language))
                    self.assertIn(language.get("grammar", language["name"]), HELIX_GRAMMARS)
                for file_type in language.get("file-types", []):
                    if isinstance(file_type, dict):
                        self.assertEqual(set(file_type), {"glob"})
                    else:
                        self.assertIsInstance(file_type, str)
                        self.assertNotIn(".", file_type, "a plain file type is one extension")
                if "indent" in language:
                    self.assertEqual(set(language["indent"]), {"tab-width", "unit"})
                if "block-comment-tokens" in language:
                    self.assertEqual(set(language["block-comment-tokens"]), {"start", "end"})
                for entry in language.get("language-servers", []):
                    if isinstance(entry, dict):
                        self.assertLessEqual(set(entry), {"name", "only-features", "except-features"})
                        for feature in entry.get("only-features", []) + entry.get("except-features", []):
                            self.assertIn(feature, LANGUAGE_SERVER_FEATURES)
                        entry = entry["name"]
                    self.assertIn(entry, set(self.servers) | HELIX_LANGUAGE_SERVERS)

    def test_every_served_file_gets_tofu_lens(self):
        for suffix in SERVED_SUFFIXES:
            path = f"/work/module/main{suffix}"
            with self.subTest(path=path):
                name, language = helix_language_for(path, self.languages)
                self.assertIsNotNone(name, path)
                servers = [s if isinstance(s, str) else s["name"] for s in language["language-servers"]]
                self.assertEqual(servers[0], "tofu-lens", f"{path} is {name}")
        self.assertEqual(helix_language_for("/work/module/package.json", self.languages), (None, None))
        self.assertEqual(helix_language_for("/work/module/x.tofu", self.languages)[0], "opentofu")
        self.assertEqual(helix_language_for("/work/module/terraform.tfvars", self.languages)[0], "tfvars")
        self.assertEqual(helix_language_for("/work/module/prod.auto.tfvars.json", self.languages)[0], "opentofu-json")
        self.assertEqual(helix_language_for("/work/module/tests/a.tftest.hcl", self.languages)[0], "hcl")
        self.assertEqual(helix_language_for("/work/module/tests/a.tofutest.json", self.languages)[0], "opentofu-json")

    def test_hcl_and_tfvars_keep_terraform_ls(self):
        for name in ("hcl", "tfvars"):
            language = next(language for language in self.languages if language["name"] == name)
            self.assertEqual(language["language-servers"], ["tofu-lens", "terraform-ls"], name)

    def test_new_languages_have_queries(self):
        # Helix reads queries by language name: runtime/queries/<name>/.
        for language in self.languages:
            if language["name"] in HELIX_LANGUAGES:
                continue
            with self.subTest(language=language["name"]):
                queries = HELIX_DIR / "runtime" / "queries" / language["name"]
                highlights = queries / "highlights.scm"
                self.assertTrue(highlights.is_file(), highlights)
                for query in queries.iterdir():
                    self.assertEqual(query.read_text(), f"; inherits: {language['grammar']}\n")


# --- the replay ---------------------------------------------------------------


def uri_of(path):
    return "file://" + quote(str(path))


def path_of(uri):
    return Path(unquote(urlparse(uri).path))


def server_binary():
    binary = Path(os.environ.get("TOFU_LENS", REPO_ROOT / "target" / "release" / "tofu-lens"))
    if not binary.is_file():
        raise AssertionError(f"no tofu-lens binary at {binary}: cargo build --release -p tofu-lens, or set TOFU_LENS")
    return binary


class ServerExited(AssertionError):
    """The server closed its output."""


class HelixSession:
    """One language server as Helix runs it: `command` and `args` from
    languages.toml, started in the workspace root, with `config` as
    initializationOptions."""

    def __init__(self, root, capabilities_file, version, config, cache, environment=None):
        self.root = root
        self.config = config
        self.capabilities = json.loads((HERE / capabilities_file).read_text())
        self.version = version
        server = load_languages()["language-server"]["tofu-lens"]
        self.process = subprocess.Popen(
            [str(server_binary()), *server["args"]],
            cwd=root,
            # A schema cache of its own: a provider that runs stores its schema there.
            # `environment` is what languages.toml's `environment` key adds.
            env={**os.environ, "XDG_CACHE_HOME": str(cache), **(environment or {})},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.incoming = queue.Queue()
        self.next_id = 0
        self.responses = {}
        self.published = {}
        self.registrations = []
        self.refreshes = 0
        self.progress = []
        self.versions = {}
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()

    # JSON-RPC framing
    def _send(self, message):
        body = json.dumps(message).encode()
        try:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()
        except BrokenPipeError:
            pass  # the server has gone; the reader reports it

    def _read(self):
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.incoming.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.incoming.put(json.loads(stream.read(length)))

    def _pump(self, deadline):
        """Handles one incoming message; False on timeout."""
        try:
            message = self.incoming.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return False
        if message is None:
            raise ServerExited("the server exited:\n" + b"".join(self.stderr).decode(errors="replace"))
        if "method" in message and "id" in message:
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": self._answer(message["method"], message.get("params"))})
        elif "method" in message:
            if message["method"] == "textDocument/publishDiagnostics":
                self.published[message["params"]["uri"]] = message["params"]
            elif message["method"] == "$/progress":
                self.progress.append(message["params"])
        else:
            self.responses[message["id"]] = message
        return True

    def _answer(self, method, params):
        if method == "client/registerCapability":
            self.registrations.extend(params["registrations"])
            return None
        if method == "workspace/configuration":
            results = []
            for item in params["items"]:
                value = self.config
                for part in (item.get("section") or "").split("."):
                    if part:
                        value = value.get(part) if isinstance(value, dict) else None
                results.append(value)
            return results
        if method == "workspace/diagnostic/refresh":
            self.refreshes += 1
        return None

    def wait_for(self, what, predicate, timeout=TIMEOUT, poll=None):
        """Until `predicate()` holds, handling what the server sends. A
        predicate that asks the server something (a hover) needs `poll`:
        it is asked again that many seconds after the last message, since
        the server may have nothing to send meanwhile (a clean file it
        picked up from the disk is not published)."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            until = deadline if poll is None else min(deadline, time.monotonic() + poll)
            if not self._pump(until) and until >= deadline:
                raise AssertionError(f"timed out waiting for {what}\n" + b"".join(self.stderr).decode(errors="replace"))

    def request(self, method, params):
        self.next_id += 1
        request_id = self.next_id
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        response = self.wait_for(method, lambda: self.responses.pop(request_id, None))
        if "error" in response:
            raise AssertionError(f"{method}: {response['error']}")
        return response["result"]

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    # What Helix does
    def initialize(self):
        root_uri = uri_of(self.root)
        result = self.request("initialize", {
            "processId": os.getpid(),
            "workspaceFolders": [{"uri": root_uri, "name": self.root.name}],
            "rootPath": str(self.root),
            "rootUri": root_uri,
            "initializationOptions": self.config,
            "capabilities": self.capabilities,
            "clientInfo": {"name": "helix", "version": self.version},
        })
        self.server_capabilities = result["capabilities"]
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": self.config})
        return result

    @property
    def pulls(self):
        return "diagnostic" in self.capabilities["textDocument"] and "diagnosticProvider" in self.server_capabilities

    def open(self, path, language_id):
        self.versions[path] = 0
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri_of(path), "languageId": language_id, "version": 0, "text": path.read_text()}})

    def change(self, path, start, end, text):
        self.versions[path] += 1
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri_of(path), "version": self.versions[path]},
            "contentChanges": [{"range": {"start": {"line": start[0], "character": start[1]},
                                          "end": {"line": end[0], "character": end[1]}}, "text": text}]})

    def write(self, path, text):
        """`:write` of a buffer: the file lands on disk, then didSave (for an
        open document) and a CHANGED event for every registered glob it matches."""
        path.write_text(text)
        if path in self.versions:
            self.notify("textDocument/didSave", {"textDocument": {"uri": uri_of(path)}})
        globs = [w["globPattern"] for r in self.registrations if r["method"] == "workspace/didChangeWatchedFiles"
                 for w in r["registerOptions"]["watchers"]]
        if any(globset_match(glob, str(path)) for glob in globs):
            self.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri_of(path), "type": 2}]})

    def complete(self, path, line, character):
        """Completion as Helix asks for it when typing stops (trigger kind 1)."""
        result = self.request("textDocument/completion", {
            "textDocument": {"uri": uri_of(path)}, "position": {"line": line, "character": character},
            "context": {"triggerKind": 1}})
        return result["items"] if isinstance(result, dict) else result

    def hover(self, path, line, character):
        return self.request("textDocument/hover", {
            "textDocument": {"uri": uri_of(path)}, "position": {"line": line, "character": character}})

    def diagnostics(self, path):
        """What Helix shows for an open document: a pull (on open and after
        changes) with master, the published list for its version with 25.07."""
        if self.pulls:
            identifier = self.server_capabilities["diagnosticProvider"].get("identifier")
            report = self.request("textDocument/diagnostic", {"textDocument": {"uri": uri_of(path)}, "identifier": identifier})
            self.assertion(report["kind"] == "full", report)
            return report["items"]
        version = self.versions.get(path)
        return self.wait_for(f"diagnostics of {path.name} version {version}", lambda: (
            (p := self.published.get(uri_of(path))) and p.get("version") == version and p))["diagnostics"]

    def published_files(self, what, predicate):
        """Push only: the files with published diagnostics, once `predicate` holds."""
        def current():
            by_file = {path_of(uri).name: p["diagnostics"] for uri, p in self.published.items()}
            return predicate(by_file) and by_file
        return self.wait_for(what, current)

    @staticmethod
    def assertion(condition, detail):
        if not condition:
            raise AssertionError(detail)

    def indexed(self):
        """Waits for the workspace scan to end (its progress `end`)."""
        self.wait_for("indexing to end", lambda: any(p["value"]["kind"] == "end" for p in self.progress))

    def shutdown(self):
        """shutdown, exit, and the exit code. First the server's startup
        requests are let finish (they end with the indexing progress):
        tofu-lens 0.1.0 never exits if `exit` arrives while one of its own
        requests is unanswered (tower-lsp-server stops reading at `exit` and
        waits for every handler)."""
        self.indexed()
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            self.wait_for("the server to exit", lambda: self.process.poll() is not None, timeout=5)
        except ServerExited:
            pass
        finally:
            if self.process.poll() is None:
                self.process.kill()
        return self.process.wait()


def globset_match(glob, path):
    """globset as Helix builds it (GlobBuilder defaults): `{a,b}` alternates,
    `*` may cross `/`."""
    start = glob.find("{")
    if start == -1:
        return fnmatch.fnmatchcase(path, glob)
    end = glob.index("}", start)
    return any(globset_match(glob[:start] + choice + glob[end + 1:], path) for choice in glob[start + 1:end].split(","))


def language_named(name):
    return next(language for language in load_languages()["language"] if language["name"] == name)


def apply_edits(text, edits):
    """`text` with LSP edits applied, positions in UTF-8 (Helix's encoding)."""
    lines = text.encode().split(b"\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    data = text.encode()

    def offset(position):
        return starts[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        data = data[:start] + edit["newText"].encode() + data[end:]
    return data.decode()


def codes(diagnostics):
    return sorted(d["code"] for d in diagnostics)


def first_code_block(hover):
    assert hover is not None, "hover returned null"
    value = hover["contents"]["value"]
    assert value.startswith("```hcl\n"), value
    return value.split("```hcl\n", 1)[1].split("```", 1)[0]


class Replay:
    """The same session for each Helix version (subclasses set them)."""

    capabilities_file = None
    helix_version = None

    def setUp(self):
        self.workspace = Path(tempfile.mkdtemp(prefix="tofu-lens-helix-"))
        (self.workspace / ".git").mkdir()
        self.module = self.workspace / "overrides"
        shutil.copytree(REPO_ROOT / "examples" / "overrides", self.module)
        self.config = copy.deepcopy(load_languages()["language-server"]["tofu-lens"]["config"])
        self.cache = Path(tempfile.mkdtemp(prefix="tofu-lens-helix-cache-"))

    def tearDown(self):
        shutil.rmtree(self.workspace, ignore_errors=True)
        shutil.rmtree(self.cache, ignore_errors=True)

    def start(self, environment=None):
        helix = HelixSession(
            self.workspace, self.capabilities_file, self.helix_version, self.config, self.cache, environment
        )
        self.addCleanup(helix.process.kill)
        helix.initialize()
        return helix

    def test_session(self):
        helix = self.start()
        # Helix offers UTF-8 first; server.md: UTF-8 when offered.
        self.assertEqual(helix.server_capabilities["positionEncoding"], "utf-8")
        self.assertEqual(helix.server_capabilities["textDocumentSync"]["change"], 2)
        # Helix would accept a watcher registration but report only what it
        # writes itself: the server registers none and watches the disk.

        main = self.module / "main.tf"
        helix.open(main, "terraform")  # the hcl language's language-id
        self.assertEqual(helix.diagnostics(main), [])
        if not helix.pulls:
            # Pushed for every file of the module, open or not.
            expected = {"network.tf", "versions.tf", "override.tf", "dev_override.tf"}
            by_file = helix.published_files("diagnostics of the files not open", lambda f: expected <= set(f))
            self.assertEqual(codes(by_file["network.tf"]), ["duplicate-block", "duplicate-local"])
            self.assertEqual(codes(by_file["versions.tf"]), ["file-shadowed"])

        block = first_code_block(helix.hover(main, 0, 10))
        self.assertRegex(block, r'instance_type = "t3\.large" +# override\.tf:3')
        self.assertNotIn("var.instance_type", block)

        tofu = self.module / "versions.tofu"
        helix.open(tofu, "opentofu")
        self.assertEqual(helix.diagnostics(tofu), [])
        self.assertIn('provider "aws" {', first_code_block(helix.hover(tofu, 13, 4)))

        # An edit at version 1 (Helix counts from 0): a second `ami`.
        helix.change(main, (2, 0), (2, 0), '  ami = "ami-2"\n')
        diagnostics = helix.diagnostics(main)
        self.assertEqual(codes(diagnostics), ["duplicate-argument"])
        self.assertEqual(diagnostics[0]["range"]["start"]["line"], 2)
        helix.change(main, (2, 0), (3, 0), "")
        self.assertEqual(helix.diagnostics(main), [])

        # Columns count UTF-8 bytes: "/* é */ " is 8 characters, 9 bytes.
        utf8 = self.module / "zz_utf8.tf"
        utf8.write_text('/* é */ resource "aws_instance" "web" {}\n')
        helix.open(utf8, "terraform")
        diagnostics = helix.diagnostics(utf8)
        self.assertEqual(codes(diagnostics), ["duplicate-block"])
        self.assertEqual(diagnostics[0]["range"]["start"], {"line": 0, "character": 9})

        self.assertEqual(
            [r for r in helix.registrations if r["method"] == "workspace/didChangeWatchedFiles"], [])
        # Another program (a `git checkout`) writes a file: the server sees it.
        checked_out = self.module / "zz_checked_out.tf"
        checked_out.write_text('variable "region" {}\n')
        by_file = helix.published_files(
            "diagnostics of a file written by another program",
            lambda f: codes(f.get("zz_checked_out.tf", [])) == ["duplicate-block"])
        self.assertEqual(codes(by_file["zz_checked_out.tf"]), ["duplicate-block"])
        checked_out.unlink()

        # `:write` of a new override file: the server's own watcher sees it.
        helix.write(self.module / "zz_override.tf", 'resource "aws_instance" "web" {\n  ami = "ami-from-helix"\n}\n')
        block = helix.wait_for("hover to show zz_override.tf", lambda: (
            b := first_code_block(helix.hover(main, 0, 10))) and "# zz_override.tf:2" in b and b, poll=0.05)
        self.assertIn("ami-from-helix", block)
        self.assertEqual(helix.shutdown(), 0)

    def test_format_on_save_and_symbol_references(self):
        """`:write` with `auto-format` (Helix's default for hcl, set for
        opentofu here) sends textDocument/formatting with Helix's options and
        applies the edits before saving; `space h` selects the ranges of
        textDocument/documentHighlight."""
        self.assertIs(language_named("opentofu").get("auto-format"), True)
        helix = self.start()
        self.assertIs(helix.server_capabilities["documentFormattingProvider"], True)
        self.assertIs(helix.server_capabilities["documentHighlightProvider"], True)
        messy = self.module / "zz_fmt.tofu"
        messy.write_text('variable "x" {\n    default="a"\n  type   = string\n}\n')
        helix.open(messy, "opentofu")
        # helix-view's Document::format: tab width and spaces from the language's indent.
        edits = helix.request("textDocument/formatting", {
            "textDocument": {"uri": uri_of(messy)},
            "options": {"tabSize": 2, "insertSpaces": True}})
        self.assertEqual(apply_edits(messy.read_text(), edits),
                         'variable "x" {\n  default = "a"\n  type    = string\n}\n')

        main = self.module / "main.tf"
        helix.open(main, "terraform")
        # `space h` on `name` of `Name = local.name` (line 10).
        line = main.read_text().splitlines()[10]
        references = helix.request("textDocument/documentHighlight", {
            "textDocument": {"uri": uri_of(main)},
            "position": {"line": 10, "character": line.index("local.name") + 6}})
        self.assertEqual([(r["range"]["start"]["line"], r["kind"]) for r in references],
                         [(10, 2), (15, 2), (19, 3)])
        self.assertEqual(helix.shutdown(), 0)

    def test_tfvars_and_a_called_module(self):
        """A .tfvars file (Helix's tfvars language, language-id
        terraform-vars): its diagnostics, hover and `gd` to the variable; and
        `gd` on an argument of a module block opens the called module."""
        (self.module / "zz.auto.tfvars").write_text('instance_type = "t3.small"\nzone          = "a"\n')
        (self.module / "modules" / "net").mkdir(parents=True)
        (self.module / "modules" / "net" / "inputs.tf").write_text('variable "cidr" {\n  type = string\n}\n')
        (self.module / "zz_calls.tf").write_text('module "net" {\n  source = "./modules/net"\n  cidr   = "10.0.0.0/16"\n}\n')
        helix = self.start()
        values = self.module / "zz.auto.tfvars"
        helix.open(values, HELIX_LANGUAGES["tfvars"]["language-id"])
        self.assertEqual(codes(helix.diagnostics(values)), ["undeclared-value"])
        self.assertIn('variable "instance_type" {', first_code_block(helix.hover(values, 0, 2)))

        def definition(path, line, character):
            locations = helix.request("textDocument/definition", {
                "textDocument": {"uri": uri_of(path)}, "position": {"line": line, "character": character}})
            return [(path_of(l["uri"]).relative_to(self.module).as_posix(), l["range"]["start"]["line"])
                    for l in locations or []]

        self.assertEqual(definition(values, 0, 2), [("variables.tf", 5)])
        calls = self.module / "zz_calls.tf"
        helix.open(calls, "terraform")
        self.assertEqual(definition(calls, 2, 3), [("modules/net/inputs.tf", 0)])
        self.assertEqual(helix.shutdown(), 0)

    def test_rename_writes_moved_and_an_extraction_leaves_check_clean(self):
        """`space r` on a resource's name: the WorkspaceEdit also writes its
        `moved` block. `space a` on a resource: Helix shows refactorings
        (it declares the refactor kinds, disabled actions and file
        creation); the extraction's documentChanges create the new module's
        files, and `tofu-lens check` on the result finds nothing."""
        demo = self.workspace / "extract"
        demo.mkdir()
        main = demo / "main.tf"
        main.write_text('resource "terraform_data" "base" {\n  input = "base"\n}\n\n'
                        'resource "terraform_data" "web" {\n  input = terraform_data.base.output\n}\n\n'
                        'output "web" {\n  value = terraform_data.web.id\n}\n')
        helix = self.start()
        helix.open(main, "terraform")
        renamed = helix.request("textDocument/rename", {
            "textDocument": {"uri": uri_of(main)}, "position": {"line": 0, "character": 28},
            "newName": "origin"})
        self.assertIn("moved {\n  from = terraform_data.base\n  to   = terraform_data.origin\n}",
                      apply_edits(main.read_text(), renamed["changes"][uri_of(main)]))
        # helix-term's code_action: the range of the selection, the
        # diagnostics there, no `only`.
        actions = helix.request("textDocument/codeAction", {
            "textDocument": {"uri": uri_of(main)},
            "range": {"start": {"line": 4, "character": 28}, "end": {"line": 4, "character": 29}},
            "context": {"diagnostics": [], "triggerKind": 1}})
        extract = next(a for a in actions if a["title"] == "Extract into module `modules/web`")
        self.assertEqual(extract["kind"], "refactor.extract")
        for change in extract["edit"]["documentChanges"]:
            path = path_of(change["uri"] if change.get("kind") else change["textDocument"]["uri"])
            if change.get("kind") == "create":
                self.assertFalse(path.exists())
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("")
            else:
                path.write_text(apply_edits(path.read_text(), change["edits"]))
        self.assertIn('module "web" {', main.read_text())
        self.assertIn("input = var.base.output", (demo / "modules" / "web" / "main.tf").read_text())
        self.assertEqual(helix.shutdown(), 0)
        checked = subprocess.run([str(server_binary()), "check", str(demo)], capture_output=True, text=True)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)

    def test_plan_time_checks_read_the_var_files_setting(self):
        """Helix has no code lenses: `varFiles` in `config` names the values
        files plan's checks read. prod.tfvars's value fails the variable's
        validation (plan's "Invalid value for variable" on its header), and
        hover on a use shows the value and the file it came from."""
        planned = self.module / "planned"
        planned.mkdir()
        main = planned / "main.tf"
        main.write_text(
            'variable "replicas" {\n  type = number\n  validation {\n    condition     = var.replicas <= 3\n'
            '    error_message = "At most three replicas."\n  }\n}\n\noutput "replicas" {\n  value = var.replicas\n}\n')
        (planned / "terraform.tfvars").write_text("replicas = 2\n")
        (planned / "prod.tfvars").write_text("replicas = 5\n")
        self.config.setdefault("tofuLens", {})["varFiles"] = {"overrides/planned": ["prod.tfvars"]}
        helix = self.start()
        helix.open(main, "terraform")
        diagnostics = helix.wait_for("the plan-time diagnostic", lambda: (
            d := helix.diagnostics(main)) and d, poll=0.1)
        self.assertEqual(codes(diagnostics), ["plan-variable-validation"])
        self.assertEqual(diagnostics[0]["range"]["start"], {"line": 0, "character": 0})
        self.assertIn("Invalid value for variable", diagnostics[0]["message"])
        hover = helix.hover(main, 9, 16)["contents"]["value"]
        self.assertIn("set in `prod.tfvars`", hover)
        self.assertIn("\n5\n", hover)
        self.assertEqual(helix.shutdown(), 0)

    def test_completion_hover_and_diagnostics_from_the_time_provider_s_schema(self):
        """A root where `tofu init` installed hashicorp/time: the server runs
        the provider for its schema, then a `time_rotating` body completes
        `rotation_days` with its type and description (Helix's menu and its
        documentation popup), hover (`space k`) shows the description, and a
        misspelt `rotation_dayz` is an Unsupported argument with "Did you
        mean", as `tofu validate` says (recorded from OpenTofu 1.12.6:
        rotation.tf line 11, column 3)."""
        schedule = self.workspace / "schedule"
        try:
            time_provider_root.lay_out(schedule)
        except time_provider_root.NotSet as not_set:
            self.skipTest(str(not_set))
        helix = self.start()
        rotation = schedule / "rotation.tf"
        helix.open(rotation, "terraform")
        description = "Number of days to add to the base timestamp to configure the rotation timestamp."
        # The provider runs once the workspace is scanned; until its schema
        # is read, hover shows the effective block.
        hover = helix.wait_for("hover from the time provider's schema", lambda: (
            h := helix.hover(rotation, 10, 4)["contents"]["value"]).startswith("**") and h, timeout=60, poll=0.1)
        self.assertTrue(hover.startswith("**rotation_days** `number` (optional)\n\n"), hover)
        self.assertIn(description, hover)
        self.assertEqual(helix.diagnostics(rotation), [])

        # `rotation_days` becomes `rotation_dayz`.
        helix.change(rotation, (10, 14), (10, 15), "z")
        [unsupported] = helix.diagnostics(rotation)
        self.assertEqual(unsupported["code"], "unsupported-argument")
        self.assertEqual(unsupported["range"]["start"], {"line": 10, "character": 2})
        self.assertEqual(unsupported["message"].split("\n")[0], "Unsupported argument")
        self.assertIn('An argument named "rotation_dayz" is not expected here. Did you mean "rotation_days"?',
                      unsupported["message"])

        # The line retyped as `rot`: completion offers `rotation_days`.
        helix.change(rotation, (10, 2), (10, 20), "rot")
        items = {item["label"]: item for item in helix.complete(rotation, 10, 5)}
        self.assertIn("rotation_days", items, sorted(items))
        days = items["rotation_days"]
        self.assertEqual(days.get("detail"), "number, optional")
        self.assertIn(description, days.get("documentation", {}).get("value", ""), days)
        self.assertEqual(helix.shutdown(), 0)

    def test_completion_from_a_provider_fetched_for_a_module_with_nothing_installed(self):
        """A module nothing was installed for, `schemas = { fetchProviders =
        true }` in the config: the server fetches hashicorp/time from the test
        registry (editors/test/fetch_registry.py: HTTPS on loopback, found
        through a CLI configuration the server's `environment` names, its CA
        trusted through SSL_CERT_FILE), verifies it, reads its schema, and a
        `time_rotating` body completes `rotation_days`; hover says the schema
        was fetched; the module's directory is never written to."""
        try:
            registry = fetch_registry.start(self.workspace / "fetch")
        except fetch_registry.time_provider_root.NotSet as not_set:
            self.skipTest(str(not_set))
        self.addCleanup(os.kill, registry["pid"], signal.SIGTERM)
        self.config["tofuLens"]["schemas"] = {"fetchProviders": True}
        helix = self.start(registry["env"])
        rotation = Path(registry["module"]) / "rotation.tf"
        helix.open(rotation, "terraform")
        hover = helix.wait_for("hover from the fetched provider's schema", lambda: (
            h := helix.hover(rotation, 10, 4)["contents"]["value"]).startswith("**") and h, timeout=60, poll=0.1)
        self.assertTrue(hover.startswith("**rotation_days** `number` (optional)\n\n"), hover)
        self.assertIn("fetched and verified by tofu-lens", hover)
        helix.change(rotation, (10, 2), (10, 20), "rot")
        items = {item["label"]: item for item in helix.complete(rotation, 10, 5)}
        self.assertIn("rotation_days", items, sorted(items))
        self.assertEqual(items["rotation_days"].get("detail"), "number, optional")
        self.assertFalse((Path(registry["module"]) / ".terraform").exists())
        self.assertEqual(helix.shutdown(), 0)

    def test_settings_from_config(self):
        # versions.tofu wants >= 1.10.
        self.config["tofuLens"]["tofuVersion"] = "1.9.0"
        helix = self.start()
        tofu = self.module / "versions.tofu"
        helix.open(tofu, "opentofu")
        diagnostics = helix.diagnostics(tofu)
        self.assertEqual(codes(diagnostics), ["incompatible-tofu-version"])
        self.assertIn("1.9.0", diagnostics[0]["message"])
        self.assertEqual(helix.shutdown(), 0)


class Helix25_07(Replay, unittest.TestCase):
    """Helix 25.07.1, the latest release: push diagnostics."""

    capabilities_file = "helix-25.07.1.capabilities.json"
    helix_version = "25.07.1 (a05c151b)"


class HelixMaster(Replay, unittest.TestCase):
    """Helix master at 079a789e: offers pull diagnostics, but spells its refresh
    capability `workspace.diagnostic`, so the server pushes."""

    capabilities_file = "helix-master-079a789e.capabilities.json"
    helix_version = "25.7.1 (079a789e)"


if __name__ == "__main__":
    runner = unittest.TextTestRunner(verbosity=2, stream=sys.stdout)
    result = runner.run(unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__]))
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    if skipped:
        print(f"helix: {skipped} skipped")
    print(f"helix: {result.testsRun - failed - skipped} passed, {failed} failed")
    sys.exit(1 if failed or result.testsRun == 0 else 0)
