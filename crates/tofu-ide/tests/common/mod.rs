//! What the corpus rename tests share: the module directories of a tree and
//! the variables a module declares, read from the files as written.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use tofu_module::discovery::has_config_extension;

/// Module directories below `root` (hidden ones skipped), in path order,
/// with their configuration files (name to text).
pub fn module_dirs(root: &Path, out: &mut BTreeMap<PathBuf, BTreeMap<String, String>>) {
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    let mut files = BTreeMap::new();
    for path in &entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_file() && has_config_extension(&name) {
            if let Ok(text) = fs::read_to_string(path) {
                files.insert(name, text);
            }
        }
    }
    if !files.is_empty() {
        out.insert(root.to_path_buf(), files);
    }
    for path in entries {
        let hidden = path
            .file_name()
            .is_some_and(|name| name.to_string_lossy().starts_with('.'));
        if path.is_dir() && !hidden {
            module_dirs(&path, out);
        }
    }
}

/// The name of every variable of `files` as written, with the file and the
/// offset of a character inside its label.
pub fn variables(files: &BTreeMap<String, String>) -> Vec<(String, String, u32)> {
    let mut found = Vec::new();
    for (name, text) in files {
        let parsed = tofu_syntax::parse(name, text);
        for block in &parsed.body.blocks {
            if block.kind == "variable" {
                if let Some(label) = block.labels.first() {
                    found.push((name.clone(), label.value.clone(), label.range.start + 1));
                }
            }
        }
    }
    found
}
