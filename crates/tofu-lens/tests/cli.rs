//! The `tofu-lens` binary as a user runs it: exit codes, messages, and odd input
//! (binary junk, empty and BOM-only files, a 10 MB file, a 100,000-line
//! `locals` block, symlink loops, files and directories it may not read,
//! missing paths). UTF-16 and other non-UTF-8 files, dangling links and
//! directories named like files are fixtures (`tests/fixtures/syntax/not-utf8`,
//! `unreadable-files`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn tofu_lens(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn clean_module_exits_zero_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.tf"), "variable \"a\" {}\n").unwrap();
    let output = tofu_lens(&["check", "."], dir.path());
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "No problems found in 1 module directory.\n"
    );
}

#[test]
fn errors_exit_one_with_compiler_style_output() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.tf"), "variable \"a\" {}\n").unwrap();
    fs::write(dir.path().join("b.tf"), "\n  variable \"a\" {}\n").unwrap();
    let output = tofu_lens(&["check", "."], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.starts_with("./b.tf:2:3: error[duplicate-block]: Duplicate variable declaration\n  A variable named \"a\" was already declared at a.tf:1,1-13."),
        "{text}"
    );
    assert!(
        text.contains("  2 |   variable \"a\" {}\n    |   ^^^^^^^^^^^^\n"),
        "{text}"
    );
    assert!(
        text.contains("  = first declared here: ./a.tf:1:1\n"),
        "{text}"
    );
    assert!(
        text.ends_with("1 error, 0 warnings in 1 module directory.\n"),
        "{text}"
    );
}

#[test]
fn test_files_of_the_directory_and_of_tests_are_checked_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.tf"), "variable \"a\" {}\n").unwrap();
    fs::write(dir.path().join("main.tftest.hcl"), "run \"one\" {}\n").unwrap();
    fs::create_dir(dir.path().join("tests")).unwrap();
    // OpenTofu 1.12.6, `tofu validate`: "Unsupported argument" on line 2.
    fs::write(
        dir.path().join("tests/a.tftest.hcl"),
        "run \"two\" {\n  bogus = 1\n}\n",
    )
    .unwrap();
    let output = tofu_lens(&["check", "."], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.starts_with(
            "./tests/a.tftest.hcl:2:3: error[unsupported-argument]: Unsupported argument\n"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("1 error, 0 warnings in 1 module directory and 2 test files.\n"),
        "{text}"
    );
    fs::write(dir.path().join("tests/a.tftest.hcl"), "run \"two\" {}\n").unwrap();
    let output = tofu_lens(&["check", "."], dir.path());
    assert_eq!(
        stdout(&output),
        "No problems found in 1 module directory and 2 test files.\n"
    );
}

#[test]
fn json_format_follows_the_server_contract() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("a.tf"),
        "variable \"a\" {}\nvariable \"a\" {}\n",
    )
    .unwrap();
    let output = tofu_lens(&["check", "--format", "json", "a.tf"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let first = &value[0];
    assert_eq!(first["file"], "a.tf");
    assert_eq!(first["code"], "duplicate-block");
    assert_eq!(first["severity"], "error");
    assert_eq!(first["range"]["start"]["line"], 2);
    assert_eq!(first["range"]["start"]["byte"], 16);
    assert_eq!(first["range"]["end"]["column"], 13);
    assert_eq!(first["related"][0]["file"], "a.tf");
    assert_eq!(first["related"][0]["message"], "first declared here");
    assert!(first["fix"].is_null());
}

/// "Invalid value for input variable" is on the caller's argument and
/// relates the called module's variable, named from where `check` was run.
#[test]
fn an_invalid_module_argument_relates_the_childs_variable() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("modules/net")).unwrap();
    fs::create_dir_all(root.join("examples/simple")).unwrap();
    fs::write(
        root.join("modules/net/variables.tf"),
        "# Inputs.\nvariable \"cidr\" {\n  type = string\n}\n",
    )
    .unwrap();
    let call = |source: &str| {
        format!("module \"net\" {{\n  source = \"{source}\"\n  cidr   = [\"10.0.0.0/16\"]\n}}\n")
    };
    fs::write(root.join("main.tf"), call("./modules/net")).unwrap();
    fs::write(
        root.join("examples/simple/main.tf"),
        call("../../modules/net"),
    )
    .unwrap();
    for (arg, file, related) in [
        (".", "./main.tf", "./modules/net/variables.tf"),
        (
            "examples/simple",
            "examples/simple/main.tf",
            "modules/net/variables.tf",
        ),
    ] {
        let output = tofu_lens(&["check", "--format", "json", arg], root);
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let found: Vec<&serde_json::Value> = value
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "invalid-variable-value" && d["file"] == file)
            .collect();
        assert_eq!(found.len(), 1, "{arg}: {value}");
        assert_eq!(found[0]["range"]["start"]["line"], 3);
        let place = &found[0]["related"][0];
        assert_eq!(place["file"], related, "{arg}");
        assert_eq!(place["range"]["start"]["line"], 2);
        assert_eq!(place["range"]["start"]["column"], 1);
        assert_eq!(place["range"]["start"]["byte"], 10);
        assert_eq!(place["message"], "module.net.var.cidr is declared here");
    }
}

/// A module `tofu init` installed is named by its directory, as OpenTofu
/// names it in the detail (`tofu validate` 1.12.6 printed this detail), and
/// related there.
#[test]
fn an_invalid_argument_of_an_installed_module_names_its_directory() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/module-tree/installed-invalid-value");
    let output = tofu_lens(&["check", "--format", "json", "."], &case);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let found = &value[0];
    assert_eq!(found["code"], "invalid-variable-value", "{value}");
    assert_eq!(
        found["detail"],
        "The given value is not suitable for module.vpc.var.cidr declared at .terraform/modules/vpc/main.tf:5,1-16: string required, but have tuple."
    );
    assert_eq!(
        found["related"][0]["file"],
        "./.terraform/modules/vpc/main.tf"
    );
    assert_eq!(found["related"][0]["range"]["start"]["line"], 5);
}

/// Plan's findings in each instance of a resource repeated by known keys
/// carry the instance's values in their details, as `tofu plan -json`
/// 1.12.6 gave them on the fixture (one finding per distinct detail).
#[test]
fn plan_judges_each_instance_with_its_keys() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/plan/instances");
    let output = tofu_lens(&["check", "--format", "json", "."], &case);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let details: Vec<&str> = value
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|found| found["detail"].as_str())
        .collect();
    for expected in [
        "Size 1 is 20.",
        "Size 3 is 40.",
        "Zone west is ww.",
        "Too many sizes.",
        "Call to function \"cidrsubnet\" failed: prefix extension of 8 does not accommodate a subnet numbered 300.",
    ] {
        assert!(details.contains(&expected), "{expected} in {value}");
    }
    assert_eq!(details.len(), 5, "{value}");
}

/// A message that would show a sensitive value is not shown, in OpenTofu's
/// words (`tofu plan -json` 1.12.6 on the fixture).
#[test]
fn messages_showing_sensitive_values_are_hidden() {
    let case =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/plan/sensitive-messages");
    let output = tofu_lens(&["check", "--format", "json", "."], &case);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let text = value.to_string();
    assert!(
        !text.contains("abc") && !text.contains("short is"),
        "{value}"
    );
    let detail_of = |line: u64, code: &str| {
        value
            .as_array()
            .unwrap()
            .iter()
            .find(|found| found["range"]["start"]["line"] == line && found["code"] == code)
            .and_then(|found| found["detail"].as_str())
            .map(str::to_owned)
            .unwrap_or_default()
    };
    assert_eq!(
        detail_of(1, "plan-variable-validation"),
        "The error message included a sensitive value, so it will not be displayed.\n\nThis was checked by the validation rule at main.tf:4,3-13."
    );
    assert!(detail_of(6, "plan-sensitive-validation-message")
        .starts_with("The error expression used to explain this condition refers to sensitive values. OpenTofu will not display"));
    assert!(detail_of(24, "plan-sensitive-condition-message")
        .starts_with("The error expression used to explain this condition refers to sensitive values, so OpenTofu will not display"));
    assert_eq!(
        detail_of(33, "plan-condition-failed"),
        "This check failed, but has an invalid error message as described in the other accompanying messages."
    );
}

/// Ranges quoted in a detail (`locals.tf:2,3-15`) count columns as HCL does,
/// in grapheme clusters (OpenTofu 1.12.6 says `2,3-15` here); the range of
/// the diagnostic itself counts Unicode scalar values, as server.md says.
#[test]
fn ranges_in_details_count_grapheme_clusters_as_hcl_does() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/wording-and-ranges/grapheme-columns");
    let output = tofu_lens(&["check", "--format", "json", "."], &case);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let details: Vec<&str> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["detail"].as_str().unwrap())
        .collect();
    assert_eq!(details.len(), 2, "{details:?}");
    assert!(
        details[0].contains("at locals.tf:2,3-15."),
        "{}",
        details[0]
    );
    assert!(
        details[1].contains("at locals.tf:3,3-18."),
        "{}",
        details[1]
    );
    // `"🚣‍♀️",` ends at scalar-value column 19 (grapheme column 16).
    assert_eq!(value[0]["range"]["end"]["column"], 19);
}

#[test]
fn missing_path_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = tofu_lens(&["check", "does-not-exist"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("does-not-exist: no such file or directory"));
}

#[test]
fn directory_without_configuration_is_fine() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("README.md"), "hi").unwrap();
    let output = tofu_lens(&["check", "--format", "json"], dir.path());
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output).trim(), "[]");
}

#[test]
fn odd_files_get_clear_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let junk: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    fs::write(dir.path().join("junk.tf"), &junk).unwrap();
    fs::write(dir.path().join("junk.bin"), &junk).unwrap();
    fs::write(dir.path().join("empty.tf"), "").unwrap();
    fs::write(dir.path().join("bom.tf"), "\u{feff}").unwrap();
    fs::write(dir.path().join("bom.tf.json"), "\u{feff}").unwrap();
    let output = tofu_lens(&["check", "--format", "json", "."], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let summaries: Vec<(String, String)> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_owned(),
                d["summary"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        summaries,
        [
            (
                "./bom.tf.json".to_owned(),
                "Invalid start of value".to_owned()
            ),
            (
                "./junk.tf".to_owned(),
                "Invalid character encoding".to_owned()
            ),
        ]
    );
}

#[test]
fn ten_megabyte_file_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::with_capacity(10 << 20);
    let mut i = 0;
    while text.len() < 10 << 20 {
        text.push_str(&format!("variable \"v{i}\" {{\n  default = \"{i}\"\n}}\n"));
        i += 1;
    }
    text.push_str("variable \"v0\" {}\n");
    fs::write(dir.path().join("big.tf"), &text).unwrap();
    let output = tofu_lens(&["check", "--format", "json", "."], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value.as_array().unwrap().len(), 1);
    assert_eq!(value[0]["code"], "duplicate-block");
}

#[test]
fn hundred_thousand_line_locals_block_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("locals {\n");
    for i in 0..100_000 {
        text.push_str(&format!("  l{i} = \"{i}\"\n"));
    }
    text.push_str("}\nlocals {\n  l99999 = 1\n}\n");
    fs::write(dir.path().join("locals.tf"), &text).unwrap();
    let output = tofu_lens(&["check", "--format", "json", "."], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value.as_array().unwrap().len(), 1, "{value}");
    assert_eq!(value[0]["code"], "duplicate-local");
    assert_eq!(value[0]["range"]["start"]["line"], 100_004);
    assert_eq!(value[0]["related"][0]["range"]["start"]["line"], 100_001);
}

/// Links that lead back to themselves (`a.tf -> b.tf -> a.tf`, `self.tf ->
/// self.tf`) are files that cannot be read; a directory link back up the
/// tree is never walked, so the walk ends.
#[cfg(unix)]
#[test]
fn symlink_loops_are_unreadable_files_and_never_walked() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.tf"), "variable \"a\" {}\n").unwrap();
    symlink("b.tf", dir.path().join("a.tf")).unwrap();
    symlink("a.tf", dir.path().join("b.tf")).unwrap();
    symlink("self.tf", dir.path().join("self.tf")).unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    fs::write(dir.path().join("sub/main.tf"), "variable \"b\" {}\n").unwrap();
    symlink("..", dir.path().join("sub/up")).unwrap();
    symlink(".", dir.path().join("sub/here")).unwrap();
    let output = tofu_lens(&["check", "--format", "json", "."], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let found: Vec<(&str, &str)> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["file"].as_str().unwrap(), d["code"].as_str().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            ("./a.tf", "file-unreadable"),
            ("./b.tf", "file-unreadable"),
            ("./self.tf", "file-unreadable"),
        ]
    );
    let detail = value[0]["detail"].as_str().unwrap();
    assert!(detail.contains("symbolic links"), "{detail}");
    // Both directories were checked, each once.
    let text = tofu_lens(&["check", "."], dir.path());
    assert!(
        stdout(&text).ends_with("3 errors, 0 warnings in 2 module directories.\n"),
        "{}",
        stdout(&text)
    );
}

/// A file and a directory without read permission. Root (as in CI
/// containers) reads them anyway: then the test checks they are simply
/// read, and the unreadable path is covered by the dangling link and the
/// directory named like a file of `tests/fixtures/syntax/unreadable-files`,
/// which reach the same `file-unreadable` code.
#[cfg(unix)]
#[test]
fn files_and_directories_without_permission_are_reported() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.tf"), "variable \"a\" {}\n").unwrap();
    let secret = dir.path().join("secret.tf");
    fs::write(&secret, "variable \"b\" {}\n").unwrap();
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o000)).unwrap();
    let locked = dir.path().join("locked");
    fs::create_dir(&locked).unwrap();
    fs::write(locked.join("main.tf"), "variable \"c\" {}\n").unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    let privileged = fs::read(&secret).is_ok();
    let output = tofu_lens(&["check", "--format", "json", "."], dir.path());
    // Let the temporary directory be removed.
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let found: Vec<(&str, &str)> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["file"].as_str().unwrap(), d["detail"].as_str().unwrap()))
        .collect();
    if privileged {
        assert_eq!(output.status.code(), Some(0), "{value}");
        assert!(found.is_empty(), "{found:?}");
    } else {
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].0, "./locked");
        assert!(found[0].1.contains("Permission denied"), "{found:?}");
        assert_eq!(found[1].0, "./secret.tf");
        assert!(found[1].1.contains("Permission denied"), "{found:?}");
    }
}

/// One framed LSP message for `serve`'s stdin.
fn lsp_frame(message: &serde_json::Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// Reads one framed message from `serve`'s stdout.
fn read_lsp_frame(reader: &mut impl std::io::BufRead) -> serde_json::Value {
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

#[test]
fn serve_answers_initialize_and_exits_cleanly_on_exit() {
    use std::io::{BufReader, Write};
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
        .args(["serve", "--stdio"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let initialize = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": null, "rootUri": null, "capabilities": {
            "general": {"positionEncodings": ["utf-8", "utf-16"]}}}});
    stdin.write_all(&lsp_frame(&initialize)).unwrap();
    stdin.flush().unwrap();
    let response = read_lsp_frame(&mut stdout);
    assert_eq!(response["id"], 1);
    let capabilities = &response["result"]["capabilities"];
    assert_eq!(capabilities["positionEncoding"], "utf-8");
    assert_eq!(capabilities["textDocumentSync"]["change"], 2);
    assert_eq!(capabilities["hoverProvider"], true);
    assert_eq!(response["result"]["serverInfo"]["name"], "tofu-lens");
    let shutdown = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"});
    stdin.write_all(&lsp_frame(&shutdown)).unwrap();
    stdin.flush().unwrap();
    let response = read_lsp_frame(&mut stdout);
    assert_eq!(response["id"], 2);
    assert!(response["result"].is_null(), "{response}");
    stdin
        .write_all(&lsp_frame(
            &serde_json::json!({"jsonrpc": "2.0", "method": "exit"}),
        ))
        .unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stdout.is_empty(),
        "nothing but protocol messages on stdout"
    );
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
}

fn override_module() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("main.tf"),
        "resource \"aws_instance\" \"web\" {\n  ami = \"a\"\n}\nprovider \"aws\" {\n  alias = \"west\"\n}\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("override.tf"),
        "resource \"aws_instance\" \"web\" {\n  ami = \"b\"\n}\n",
    )
    .unwrap();
    dir
}

#[test]
fn show_prints_one_block_with_provenance() {
    let dir = override_module();
    for address in ["resource.aws_instance.web", "aws_instance.web"] {
        let output = tofu_lens(&["show", ".", address], dir.path());
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            stdout(&output),
            "resource \"aws_instance\" \"web\" {  # main.tf:1, changed by override.tf:1\n  ami = \"b\"                      # override.tf:2\n                                 # overrides main.tf:2\n}\n"
        );
    }
    let output = tofu_lens(&["show", "main.tf", "provider.aws.west"], dir.path());
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).starts_with("provider \"aws\" {"));
}

#[test]
fn show_json_and_missing_addresses() {
    let dir = override_module();
    let output = tofu_lens(
        &["show", "--format", "json", ".", "aws_instance.web"],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["address"], "resource.aws_instance.web");
    assert_eq!(value["attributes"][0]["value"], "\"b\"");
    assert_eq!(value["attributes"][0]["from"]["file"], "override.tf");
    assert_eq!(value["attributes"][0]["overrides"][0]["line"], 2);
    assert_eq!(value["changed_by"][0]["file"], "override.tf");

    let output = tofu_lens(&["show", ".", "aws_instance.nope"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no block aws_instance.nope"));
    let output = tofu_lens(&["show", "missing-dir"], dir.path());
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn fix_applies_safe_fixes_and_reports_what_remains() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("main.tf"),
        "resource \"a\" \"b\" {}\nlanguage {\n  edition = TF2021\n}\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("override.tf"),
        "resource \"a\" \"b\" {\n  x          = 1\n  depends_on = [a.c]\n}\nmoved {\n  from = a.b\n  to   = a.c\n}\n",
    )
    .unwrap();
    let output = tofu_lens(&["check", "--fix", "."], dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("fixed: ./override.tf:3: Remove depends_on from the override"),
        "{stderr}"
    );
    assert!(
        stderr.contains("fixed: ./main.tf:3: Use edition tofu2024"),
        "{stderr}"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("override.tf")).unwrap(),
        "resource \"a\" \"b\" {\n  x          = 1\n}\nmoved {\n  from = a.b\n  to   = a.c\n}\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("main.tf")).unwrap(),
        "resource \"a\" \"b\" {}\nlanguage {\n  edition = tofu2024\n}\n"
    );
    // Removing a forbidden block loses the user's code: offered, not applied.
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("error[override-forbidden-block]"));
}

/// Runs tofu-lens with stdout piped, reads a few bytes, then closes the read
/// end while the program still has far more than a pipe buffer to write.
fn run_with_reader_gone(args: &[&str], cwd: &Path) -> std::process::ExitStatus {
    use std::io::Read as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
        .args(args)
        .current_dir(cwd)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = child.stdout.take().unwrap();
    let mut first_bytes = [0u8; 16];
    reader.read_exact(&mut first_bytes).unwrap();
    drop(reader);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
    output.status
}

#[test]
fn a_closed_stdout_ends_show_and_check_quietly() {
    let dir = tempfile::tempdir().unwrap();
    // Several megabytes of output from `show`, and from `check` (every repeat
    // of `variable "twin"` is a duplicate-block error with an excerpt), far
    // past any pipe buffer.
    let mut text = String::new();
    for i in 0..6000 {
        text.push_str(&format!(
            "variable \"v{i}\" {{\n  default = \"a value long enough to make the output big\"\n}}\n"
        ));
        text.push_str("variable \"twin\" {}\n");
    }
    fs::write(dir.path().join("main.tf"), text).unwrap();
    for args in [
        &["show", "."][..],
        &["check", "."][..],
        &["check", "--format", "json", "."][..],
    ] {
        let status = run_with_reader_gone(args, dir.path());
        assert!(status.success(), "{args:?} exited with {status}");
    }
}

fn tofu_lens_with_stdin(args: &[&str], cwd: &Path, stdin: &str) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
        .args(args)
        .current_dir(cwd)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A tree for `fmt`: two files to format (one in a subdirectory), one
/// formatted, and files `fmt` never touches (JSON, hidden, other names).
fn fmt_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("sub")).unwrap();
    fs::create_dir_all(root.join(".hidden")).unwrap();
    fs::write(root.join("a.tf"), "a=1\nbb = 2\n").unwrap();
    fs::write(root.join("b.tofu"), "b = 1\n").unwrap();
    fs::write(root.join("c.tf.json"), "{\"x\":1}").unwrap();
    fs::write(root.join(".d.tf"), "d=1\n").unwrap();
    fs::write(root.join("e.hcl"), "e=1\n").unwrap();
    fs::write(root.join("sub/f.tfvars"), "f=1\n").unwrap();
    fs::write(root.join(".hidden/g.tf"), "g=1\n").unwrap();
    dir
}

#[test]
fn fmt_check_lists_what_would_change_and_exits_three() {
    let dir = fmt_tree();
    let output = tofu_lens(&["fmt", "--check"], dir.path());
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(stdout(&output), "a.tf\n");
    assert_eq!(
        fs::read_to_string(dir.path().join("a.tf")).unwrap(),
        "a=1\nbb = 2\n"
    );

    let output = tofu_lens(
        &["fmt", "--check", "--recursive", "--list=false"],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(stdout(&output), "");

    let output = tofu_lens(&["fmt", "--check", "b.tofu"], dir.path());
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn fmt_writes_lists_and_then_has_nothing_to_do() {
    let dir = fmt_tree();
    let output = tofu_lens(&["fmt", "--recursive"], dir.path());
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "a.tf\nsub/f.tfvars\n");
    assert_eq!(
        fs::read_to_string(dir.path().join("a.tf")).unwrap(),
        "a  = 1\nbb = 2\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("sub/f.tfvars")).unwrap(),
        "f = 1\n"
    );
    // Never touched: JSON, hidden files and directories, other extensions.
    assert_eq!(
        fs::read_to_string(dir.path().join(".d.tf")).unwrap(),
        "d=1\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join(".hidden/g.tf")).unwrap(),
        "g=1\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("e.hcl")).unwrap(),
        "e=1\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("c.tf.json")).unwrap(),
        "{\"x\":1}"
    );
    let again = tofu_lens(&["fmt", "--recursive", "--check"], dir.path());
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(stdout(&again), "");
}

#[test]
fn fmt_diff_without_writing() {
    let dir = fmt_tree();
    let output = tofu_lens(&["fmt", "--diff", "--write=false", "a.tf"], dir.path());
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "a.tf\n--- old/a.tf\n+++ new/a.tf\n@@ -1,2 +1,2 @@\n-a=1\n+a  = 1\n bb = 2\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("a.tf")).unwrap(),
        "a=1\nbb = 2\n"
    );
}

#[test]
fn fmt_stdin_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let output = tofu_lens_with_stdin(&["fmt", "-"], dir.path(), "x=\"${y}\"\n");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "x = y\n");
    let output = tofu_lens_with_stdin(&["fmt", "--check", "-"], dir.path(), "x=1\n");
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(stdout(&output), "");
    let output = tofu_lens_with_stdin(&["fmt", "--diff", "-"], dir.path(), "x=1\n");
    assert_eq!(
        stdout(&output),
        "--- old/<stdin>\n+++ new/<stdin>\n@@ -1 +1 @@\n-x=1\n+x = 1\n"
    );
    let output = tofu_lens_with_stdin(&["fmt", "-"], dir.path(), "x = {\n");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert!(String::from_utf8_lossy(&output.stderr).contains("<stdin>:"));
}

#[test]
fn fmt_syntax_errors_bad_names_and_missing_paths_exit_two() {
    let dir = fmt_tree();
    fs::write(dir.path().join("broken.tf"), "x = {\n").unwrap();
    let output = tofu_lens(&["fmt", "--check"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    // As tofu fmt: under --check nothing is listed once a file is refused.
    assert_eq!(stdout(&output), "");
    assert!(String::from_utf8_lossy(&output.stderr).contains("broken.tf:"));
    // Without --check the other files are still formatted.
    let output = tofu_lens(&["fmt"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "a.tf\n");
    assert_eq!(
        fs::read_to_string(dir.path().join("broken.tf")).unwrap(),
        "x = {\n"
    );

    assert_eq!(
        tofu_lens(&["fmt", "e.hcl"], dir.path()).status.code(),
        Some(2)
    );
    assert_eq!(
        tofu_lens(&["fmt", "missing.tf"], dir.path()).status.code(),
        Some(2)
    );
}

/// With `TOFU_LENS_ORACLE_DIR` naming OpenTofu's binary: the same listing,
/// diff and exit code as `tofu fmt` on the same tree. Skipped without it.
#[test]
fn fmt_agrees_with_tofu_fmt_when_the_oracle_is_present() {
    let Some(oracle) = std::env::var_os("TOFU_LENS_ORACLE_DIR")
        .map(|dir| Path::new(&dir).join("tofu"))
        .filter(|tofu| tofu.is_file())
    else {
        return;
    };
    for args in [
        &["-check"][..],
        &["-check", "-recursive"][..],
        &["-diff", "-write=false", "-recursive"][..],
        &["-recursive"][..],
    ] {
        let ours_dir = fmt_tree();
        let theirs_dir = fmt_tree();
        let ours_args: Vec<String> = std::iter::once("fmt".to_owned())
            .chain(args.iter().map(|arg| format!("-{arg}")))
            .collect();
        let ours = Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
            .args(&ours_args)
            .current_dir(ours_dir.path())
            .output()
            .unwrap();
        let theirs = Command::new(&oracle)
            .arg("fmt")
            .args(args)
            .env("TF_CLI_CONFIG_FILE", "/dev/null")
            .current_dir(theirs_dir.path())
            .output()
            .unwrap();
        assert_eq!(ours.status.code(), theirs.status.code(), "{args:?}");
        assert_eq!(stdout(&ours), stdout(&theirs), "{args:?}");
        for file in ["a.tf", "sub/f.tfvars"] {
            assert_eq!(
                fs::read(ours_dir.path().join(file)).unwrap(),
                fs::read(theirs_dir.path().join(file)).unwrap(),
                "{args:?} {file}"
            );
        }
    }
}

/// `console` in the shipped example: variables from `.tfvars` files and
/// defaults, local values, and the first error ending the session, each line
/// as `tofu console -no-color` (OpenTofu 1.12.6) printed it for the same
/// input in a copy of the directory.
#[test]
fn console_prints_values_and_stops_at_the_first_error_as_tofu_console() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/console");
    let input = "var.project\nvar.environment\nlocal.bucket\nlocal.zone_count\nlocal.tags\n\
                 [for z in var.zones : upper(z)]\ncidrsubnet(\"10.0.0.0/16\", 8, 2)\n\
                 jsondecode(var.settings_json)\nregex(var.settings_json, \"abc\")\n\
                 tonumber(\"abc\")\nupper(\"never read\")\n";
    let output = console(&[example.to_str().unwrap()], input);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output),
        "\"demo\"\n\"staging\"\n\"demo-staging-assets\"\n2\n{\n  \"project\" = \"demo\"\n  \"zones\" = \"a,b\"\n}\n[\n  \"A\",\n  \"B\",\n]\n\"10.0.2.0/24\"\n\
         (known after apply)\n(known after apply)\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "\nError: Invalid function argument\n\n  on <console-input> line 1:\n  (source code not available)\n\n\
         Invalid value for \"v\" parameter: cannot convert \"abc\" to number; given string\n\
         must be a decimal representation of a number.\n\n"
    );
}

/// What differs per run, computed as `tofu console` computes it: `uuid()`
/// 16 fresh random bytes in hexadecimal (8-4-4-4-12), `timestamp()` the UTC
/// time as `2026-11-27T11:56:56Z`, `bcrypt()` a `$2a$` hash (cost 10 by
/// default) that verifies against its password, sensitive when the
/// password is.
#[test]
fn console_computes_what_differs_per_run_as_tofu_console() {
    let output = console(
        &[],
        "uuid()\nuuid()\ntimestamp()\nbcrypt(\"secret\")\nbcrypt(\"secret\", 4)\n\
         bcrypt(sensitive(\"secret\"), 4)\n",
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(output.status.code(), Some(0));
    let printed = stdout(&output);
    let lines: Vec<&str> = printed.lines().map(|line| line.trim_matches('"')).collect();
    let [uuid, other_uuid, timestamp, hash, cheap_hash, sensitive] = lines.as_slice() else {
        panic!("{printed}");
    };
    for id in [uuid, other_uuid] {
        let groups: Vec<usize> = id.split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12], "{id}");
        assert!(id
            .chars()
            .all(|c| c == '-' || (c.is_ascii_hexdigit() && !c.is_ascii_uppercase())));
    }
    assert_ne!(uuid, other_uuid);
    let shape: String = timestamp
        .chars()
        .map(|c| if c.is_ascii_digit() { '0' } else { c })
        .collect();
    assert_eq!(shape, "0000-00-00T00:00:00Z", "{timestamp}");
    assert!(hash.starts_with("$2a$10$") && hash.len() == 60, "{hash}");
    assert!(bcrypt::verify("secret", hash).unwrap());
    assert!(cheap_hash.starts_with("$2a$04$"), "{cheap_hash}");
    assert!(bcrypt::verify("secret", cheap_hash).unwrap());
    assert!(!bcrypt::verify("Secret", cheap_hash).unwrap());
    assert_eq!(*sensitive, "(sensitive value)");
}

/// A Go panic in a function: OpenTofu's message up to its stack trace,
/// whose frames differ on every run (`tofu console -no-color` printed the
/// same lines, then the frames).
#[test]
fn console_prints_a_go_panic_up_to_its_stack_trace() {
    let output = console(
        &[],
        "log(-1, 2)
",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "\nError: Error in function call\n\n  on <console-input> line 1:\n  (source code not available)\n\n\
         Call to function \"log\" failed: panic in function implementation:\n\
         Float.SetFloat64(NaN)\ngoroutine 1 [running]:\n.\n\n"
    );
}

/// Without a directory, names are the empty module's: recorded from `tofu
/// console -no-color` in an empty directory.
#[test]
fn console_without_a_module_reports_undeclared_variables() {
    let output = console(&[], "upper(\"a\")\nvar.x\n");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "\"A\"\n");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "\nError: Reference to undeclared input variable\n\n  on <console-input> line 1:\n  (source code not available)\n\n\
         An input variable with the name \"x\" has not been declared. This variable can\n\
         be declared with a variable \"x\" {} block.\n\n"
    );
}

/// A variable's value is converted to its type and marked as declared,
/// in a `.tfvars` file OpenTofu loads by itself (not `other.tfvars`) and in
/// a default, and a local value reads the converted value: each line as
/// `tofu console` (OpenTofu 1.12.6) printed it in a copy of the directory.
#[test]
fn console_converts_variables_to_their_types_as_tofu_console() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("main.tf"),
        "variable \"x\" {\n  type    = string\n  default = 1\n}\n\
         variable \"n\" {\n  type = number\n}\n\
         variable \"l\" {\n  type    = list(string)\n  default = [1, true]\n}\n\
         variable \"s\" {\n  type      = string\n  default   = \"hidden\"\n  sensitive = true\n}\n\
         locals {\n  joined = \"${var.x}-${var.n}\"\n  both   = [var.x, var.l]\n}\n",
    )
    .unwrap();
    fs::write(dir.path().join("terraform.tfvars"), "n = \"7\"\n").unwrap();
    fs::write(dir.path().join("other.tfvars"), "n = \"8\"\n").unwrap();
    let output = console(
        &[dir.path().to_str().unwrap()],
        "var.x\nvar.n\nvar.l\nlocal.joined\nlocal.both\nvar.s\n",
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(
        stdout(&output),
        "\"1\"\n7\ntolist([\n  \"1\",\n  \"true\",\n])\n\"1-7\"\n\
         [\n  \"1\",\n  tolist([\n    \"1\",\n    \"true\",\n  ]),\n]\n(sensitive value)\n"
    );
    assert_eq!(output.status.code(), Some(0));
}

/// The defaults of `optional(T, DEFAULT)` attributes are filled in before
/// the conversion, in a default, nested, and in a `.tfvars` value, not in a
/// null: each value as `tofu console` (OpenTofu 1.12.6) printed it in a
/// copy of the directory.
#[test]
fn console_fills_in_optional_attribute_defaults_as_tofu_console() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("main.tf"),
        "variable \"settings\" {\n  type = object({\n    name = optional(string, \"web\")\n    size = optional(number, 2)\n    tags = optional(map(string), {})\n    disks = optional(list(object({\n      kind = optional(string, \"ssd\")\n      gb   = number\n    })), [])\n  })\n  default = {\n    disks = [{ gb = 10 }, { gb = 20, kind = \"hdd\" }]\n  }\n}\n\nvariable \"nothing\" {\n  type    = object({ a = optional(string, \"x\") })\n  default = null\n}\n\nvariable \"secret\" {\n  type      = object({ a = optional(string, \"x\") })\n  default   = {}\n  sensitive = true\n}\n\nvariable \"fromfile\" {\n  type = list(object({\n    a = optional(number, 1)\n    b = string\n  }))\n}\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("terraform.tfvars"),
        "fromfile = [{ b = \"x\" }, { a = 5, b = \"y\" }]\n",
    )
    .unwrap();
    let output = console(
        &[dir.path().to_str().unwrap()],
        "var.settings\nvar.nothing\nvar.secret\nvar.fromfile\n",
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(
        stdout(&output),
        "{\n  \"disks\" = tolist([\n    {\n      \"gb\" = 10\n      \"kind\" = \"ssd\"\n    },\n    {\n      \"gb\" = 20\n      \"kind\" = \"hdd\"\n    },\n  ])\n  \"name\" = \"web\"\n  \"size\" = 2\n  \"tags\" = tomap({})\n}\nnull /* object */\n(sensitive value)\ntolist([\n  {\n    \"a\" = 1\n    \"b\" = \"x\"\n  },\n  {\n    \"a\" = 5\n    \"b\" = \"y\"\n  },\n])\n"
    );
    assert_eq!(output.status.code(), Some(0));
}

fn console(args: &[&str], input: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["console"];
    all.extend_from_slice(args);
    tofu_lens_with_stdin(&all, dir.path(), input)
}

/// An example that calls its module from below (`source = "../../"`),
/// checked as a user types it, from the module's directory and from the
/// example's: the module's error is reported once, in its own file, named
/// as the path typed leads to it.
#[test]
fn a_module_called_from_below_is_checked_with_its_example() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/module-tree/called-from-below");
    let errors = |args: &[&str], cwd: &Path| -> Vec<String> {
        let output = tofu_lens(args, cwd);
        assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
        let found: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        found
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{}:{} {}",
                    d["file"].as_str().unwrap(),
                    d["range"]["start"]["line"],
                    d["code"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(
        errors(&["check", "--format", "json", "examples/simple"], &case),
        ["main.tf:6 undeclared-reference"]
    );
    assert_eq!(
        errors(
            &["check", "--format", "json", "."],
            &case.join("examples/simple")
        ),
        ["../../main.tf:6 undeclared-reference"]
    );
    assert_eq!(
        errors(
            &["check", "--format", "json", ".", "examples/simple"],
            &case
        ),
        ["./main.tf:6 undeclared-reference"]
    );
}
