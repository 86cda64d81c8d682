//! The module-tree cases (issue 27), through the real server: a root module
//! calling 20 local children of 50 files each (1,001 files).
//!
//! - `tree-interface-edit`: each keystroke in a child's `variables.tf`
//!   renames the variable the root passes (`name` ↔ `namex`), so the root's
//!   call gains or loses its two errors; timed from the didChange to the
//!   publication of the root's `main.tf` with the new count.
//! - `tree-child-keystroke`: a keystroke in another file of that child that
//!   keeps its interface (inside a string), timed to the child's own
//!   publication of that version: what any keystroke costs, the callers
//!   untouched.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::lsp::{file_uri, Client, Result};
use crate::serve::TempDir;

const N_CHILDREN: usize = 20;
const FILES_PER_CHILD: usize = 50;

/// What both cases measured.
pub struct TreeEdits {
    pub interface: Result<Vec<Duration>>,
    pub keystroke: Vec<Duration>,
    pub n_files: usize,
}

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|error| format!("{}: {error}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|error| format!("{}: {error}", path.display()))
}

/// Writes the tree: `main.tf` calling `modules/c00` … `modules/c19`, each
/// child a `variables.tf` and 49 files of `terraform_data` resources reading
/// its variable.
fn write_tree(root: &Path) -> Result<usize> {
    let mut main = String::new();
    for child in 0..N_CHILDREN {
        main.push_str(&format!(
            "module \"c{child:02}\" {{\n  source = \"./modules/c{child:02}\"\n  name   = \"n{child}\"\n}}\n\n"
        ));
    }
    write(&root.join("main.tf"), &main)?;
    for child in 0..N_CHILDREN {
        let dir = root.join(format!("modules/c{child:02}"));
        write(
            &dir.join("variables.tf"),
            "variable \"name\" {\n  type = string\n}\n",
        )?;
        for file in 1..FILES_PER_CHILD {
            let mut text = String::new();
            for block in 0..4 {
                text.push_str(&format!(
                    "resource \"terraform_data\" \"r{file}_{block}\" {{\n  input = \"${{var.name}}-{file}-{block}\"\n}}\n\n"
                ));
            }
            write(&dir.join(format!("f{file:02}.tf")), &text)?;
        }
    }
    Ok(1 + N_CHILDREN * FILES_PER_CHILD)
}

/// Waits for a publication for `uri` holding `count` diagnostics.
fn wait_for_count(client: &mut Client, uri: &str, count: usize, timeout: Duration) -> Result<()> {
    let deadline = Instant::now() + timeout;
    while let Some(message) = client.next_notification(deadline)? {
        if message.get("method").and_then(Value::as_str) != Some("textDocument/publishDiagnostics")
        {
            continue;
        }
        let params = message.get("params").unwrap_or(&Value::Null);
        let n = params
            .get("diagnostics")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if params.get("uri").and_then(Value::as_str) == Some(uri) && n == count {
            return Ok(());
        }
    }
    Err(format!(
        "no publication of {count} diagnostics for {uri} within {timeout:?}"
    ))
}

fn open(client: &mut Client, path: &Path) -> Result<String> {
    let text = std::fs::read_to_string(path).map_err(|error| error.to_string())?;
    let uri = file_uri(path);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "opentofu", "version": 1, "text": text}}),
    )?;
    Ok(uri)
}

fn change(
    client: &mut Client,
    uri: &str,
    version: i64,
    line: u32,
    column: u32,
    delete: bool,
    text: &str,
) -> Result<()> {
    let start = json!({"line": line, "character": column});
    let end = json!({"line": line, "character": column + u32::from(delete)});
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": start, "end": end}, "text": text}]
        }),
    )
}

/// Runs both cases, `n` keystrokes each.
pub fn tree_edits(binary: &Path, n: usize) -> Result<TreeEdits> {
    let temp = TempDir::new("tree")?;
    let root = temp.path().join("root");
    let n_files = write_tree(&root)?;
    let mut client = Client::spawn(binary, "info")?;
    client.initialize(&root)?;
    client.wait_indexed(Duration::from_secs(120))?;
    let root_uri = file_uri(&root.join("main.tf"));
    let child = root.join("modules/c00");
    let variables = open(&mut client, &child.join("variables.tf"))?;
    let other = open(&mut client, &child.join("f01.tf"))?;
    client
        .wait_for_publication(&other, 1, Duration::from_secs(30))
        .ok();

    let mut keystroke_times = Vec::with_capacity(n);
    for keystroke in 0..n {
        let version = i64::try_from(keystroke).unwrap_or(i64::MAX - 2) + 2;
        // Inside `"${var.name}-1-0"` on line 2, after `"`.
        let column = 11 + u32::try_from(keystroke).unwrap_or(0);
        let started = Instant::now();
        change(&mut client, &other, version, 1, column, false, "a")?;
        client.wait_for_publication(&other, version, Duration::from_secs(30))?;
        keystroke_times.push(started.elapsed());
    }
    // A server without the module tree never reports the call: the case
    // is skipped, the keystrokes above still count.
    let interface = interface_edits(&mut client, &variables, &root_uri, n);
    client.shutdown();
    Ok(TreeEdits {
        interface,
        keystroke: keystroke_times,
        n_files,
    })
}

fn interface_edits(
    client: &mut Client,
    variables: &str,
    root_uri: &str,
    n: usize,
) -> Result<Vec<Duration>> {
    let mut interface = Vec::with_capacity(n);
    let mut version = 1;
    for keystroke in 0..n {
        version += 1;
        // `variable "name` ends at column 14: type an `x`, then take it away.
        let renamed = keystroke % 2 == 0;
        let started = Instant::now();
        if renamed {
            change(client, variables, version, 0, 14, false, "x")?;
        } else {
            change(client, variables, version, 0, 14, true, "")?;
        }
        // Renamed: "Unsupported argument" and "Missing required argument".
        wait_for_count(
            client,
            root_uri,
            if renamed { 2 } else { 0 },
            Duration::from_secs(30),
        )?;
        interface.push(started.elapsed());
    }
    if n % 2 == 1 {
        version += 1;
        change(client, variables, version, 0, 14, true, "")?;
        wait_for_count(client, root_uri, 0, Duration::from_secs(30))?;
    }

    Ok(interface)
}
