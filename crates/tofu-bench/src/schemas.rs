//! The provider-schema cases of issue 34, each against a baseline measured
//! in the same run: `schema-cold-openstack` (tofu-lens reading
//! terraform-provider-openstack 3.4.0's schema by hashing its package and
//! starting it, into an empty cache) against `tofu-providers-schema-openstack`
//! (OpenTofu's `tofu providers schema -json` on the same install),
//! `schema-cache` (the same schema from the on-disk cache), and
//! `schema-memory` (the heap the loaded schemas of the fixtures keep, counted
//! by `tofu-bench-heap`'s allocator, against their `tofu providers schema
//! -json` text). The
//! keystroke cases with the schemas loaded are `serve::lsp_keystroke_schemas`.
//!
//! The package comes from a directory laid out as `tofu init -plugin-dir`
//! expects (`TOFU_LENS_PROVIDER_PLUGINS`, else the `plugins/` of
//! `TOFU_LENS_PROVIDER_ORACLE`) and is installed in a temporary module as
//! `tofu init` installs it from there: a link under
//! `.terraform/providers/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH` and a lock
//! file with the package's `h1:` hash. OpenTofu's binary comes from
//! `TOFU_LENS_ORACLE_DIR`. Without them the cases that need them are skipped.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tofu_module::InputFile;
use tofu_schema::install::{
    package_hash_v1, parse_lock_file, LockedProvider, Platform, SearchDirs,
};
use tofu_schema::plugin::Timeouts;
use tofu_schema::{read_provider_schema, SchemaCache, SchemaOrigin, SchemaRequest};

use crate::lsp::Result;
use crate::sample::Sample;
use crate::serve::TempDir;

/// The provider whose schema is read: hundreds of resource types, plugin
/// protocol 5 (SDK v2).
const OPENSTACK_HOST_PATH: &str = "registry.opentofu.org/terraform-provider-openstack/openstack";
const OPENSTACK_VERSION: &str = "3.4.0";

/// A module requiring openstack, so that `tofu providers schema` reads it.
pub const OPENSTACK_REQUIREMENT: &str = "terraform {\n  required_providers {\n    openstack = {\n      source  = \"terraform-provider-openstack/openstack\"\n      version = \"3.4.0\"\n    }\n  }\n}\n";

/// The file the keystroke cases add to the synthetic module: openstack
/// required, and an instance with an argument openstack does not define
/// (the error shows that the schema is loaded).
pub const COMPUTE_FILE: &str = "compute.tf";

/// The synthetic module plus [`COMPUTE_FILE`].
pub fn module_with_compute(mut module: Vec<InputFile>) -> Vec<InputFile> {
    module.push(InputFile::text(
        COMPUTE_FILE.to_owned(),
        format!(
            "{OPENSTACK_REQUIREMENT}\nresource \"openstack_compute_instance_v2\" \"web\" {{\n  name           = \"web\"\n  bogus_argument = \"nope\"\n}}\n"
        ),
    ));
    module
}

/// The case names this module measures, for `--only`.
pub const READ_CASES: [&str; 3] = [
    "schema-cold-openstack",
    "tofu-providers-schema-openstack",
    "schema-cache",
];

/// The plugin directory holding the providers, if one is named.
pub fn plugins_dir() -> Option<PathBuf> {
    match std::env::var_os("TOFU_LENS_PROVIDER_PLUGINS") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => Some(PathBuf::from(std::env::var_os("TOFU_LENS_PROVIDER_ORACLE")?).join("plugins")),
    }
}

/// Installs openstack from `plugins` into module directory `dir` as `tofu
/// init -plugin-dir` does (a link to the package, a lock file with its
/// hash); returns the lock file's entry.
pub fn install_openstack(dir: &Path, plugins: &Path) -> Result<LockedProvider> {
    let platform = Platform::current().dir_name();
    let package = plugins
        .join(OPENSTACK_HOST_PATH)
        .join(OPENSTACK_VERSION)
        .join(&platform);
    if !package.is_dir() {
        return Err(format!("{} is not there", package.display()));
    }
    let installed = dir
        .join(".terraform/providers")
        .join(OPENSTACK_HOST_PATH)
        .join(OPENSTACK_VERSION);
    std::fs::create_dir_all(&installed).map_err(|error| error.to_string())?;
    std::os::unix::fs::symlink(&package, installed.join(&platform))
        .map_err(|error| format!("cannot link the package: {error}"))?;
    let hash = package_hash_v1(&package)
        .map_err(|error| format!("cannot hash {}: {error}", package.display()))?;
    let lock = format!(
        "provider \"{OPENSTACK_HOST_PATH}\" {{\n  version = \"{OPENSTACK_VERSION}\"\n  hashes = [\n    \"{hash}\",\n  ]\n}}\n"
    );
    std::fs::write(dir.join(".terraform.lock.hcl"), &lock).map_err(|error| error.to_string())?;
    parse_lock_file(&lock)
        .into_iter()
        .next()
        .ok_or_else(|| "the lock file written has no entry".to_owned())
}

fn accept_any(_: &str) -> bool {
    true
}

/// Reads openstack's schema for the module whose lock entry is `locked`,
/// from `cache`; fails unless it came from `expected`.
fn read_openstack(
    locked: &LockedProvider,
    search: &SearchDirs,
    cache: &SchemaCache,
    expected: SchemaOrigin,
) -> Result<()> {
    let platform = Platform::current();
    let loaded = read_provider_schema(&SchemaRequest {
        address: &locked.address,
        search,
        platform: &platform,
        locked: Some(locked),
        accepts: &accept_any,
        cache: Some(cache),
        run_providers: true,
        socket_dir: None,
        timeouts: Timeouts::default(),
    })
    .map_err(|error| error.to_string())?;
    if loaded.origin != expected {
        return Err(format!(
            "the schema came from {:?}, not {expected:?}",
            loaded.origin
        ));
    }
    std::hint::black_box(loaded.schema);
    Ok(())
}

/// `schema-cold-openstack`, `schema-cache` and, with OpenTofu's binary,
/// `tofu-providers-schema-openstack`, `runs` times each, interleaved.
pub fn read_cases(
    runs: usize,
    tofu: Option<&Path>,
    samples: &mut Vec<Sample>,
    skipped: &mut Vec<String>,
) {
    let Some(plugins) = plugins_dir() else {
        skipped.push(
            "schema-cold-openstack, schema-cache: neither TOFU_LENS_PROVIDER_PLUGINS nor \
             TOFU_LENS_PROVIDER_ORACLE names the providers"
                .to_owned(),
        );
        return;
    };
    if let Err(error) = measure_reads(runs, &plugins, tofu, samples, skipped) {
        skipped.push(format!("schema-cold-openstack, schema-cache: {error}"));
    }
}

fn measure_reads(
    runs: usize,
    plugins: &Path,
    tofu: Option<&Path>,
    samples: &mut Vec<Sample>,
    skipped: &mut Vec<String>,
) -> Result<()> {
    let temp = TempDir::new("schemas")?;
    let module = temp.path().join("module");
    std::fs::create_dir_all(&module).map_err(|error| error.to_string())?;
    std::fs::write(module.join("main.tf"), OPENSTACK_REQUIREMENT)
        .map_err(|error| error.to_string())?;
    let locked = install_openstack(&module, plugins)?;
    let search = SearchDirs {
        init_dirs: vec![module.join(".terraform/providers")],
        ..SearchDirs::default()
    };
    let warm_cache = SchemaCache::new(temp.path().join("warm-cache"));
    read_openstack(&locked, &search, &warm_cache, SchemaOrigin::Provider)?;
    let mut tofu_json_bytes = None;
    let mut run_tofu = |times: &mut Vec<Duration>| -> Result<()> {
        let Some(tofu) = tofu else {
            return Ok(());
        };
        let start = Instant::now();
        let output = Command::new(tofu)
            .args(["providers", "schema", "-json"])
            .current_dir(&module)
            .env("TF_CLI_CONFIG_FILE", "/dev/null")
            .env("CHECKPOINT_DISABLE", "1")
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .map_err(|error| format!("cannot run {}: {error}", tofu.display()))?;
        times.push(start.elapsed());
        if !output.status.success() {
            return Err(format!("tofu providers schema -json: {}", output.status));
        }
        tofu_json_bytes = Some(output.stdout.len());
        Ok(())
    };
    let mut tofu_times = Vec::new();
    run_tofu(&mut Vec::new())?; // warm-up: the page cache, as for the others
    let (mut cold, mut cached) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let cold_cache_dir = temp.path().join(format!("cold-cache-{run}"));
        let cold_cache = SchemaCache::new(&cold_cache_dir);
        let start = Instant::now();
        read_openstack(&locked, &search, &cold_cache, SchemaOrigin::Provider)?;
        cold.push(start.elapsed());
        let _ = std::fs::remove_dir_all(&cold_cache_dir);

        let start = Instant::now();
        read_openstack(&locked, &search, &warm_cache, SchemaOrigin::Cache)?;
        cached.push(start.elapsed());

        run_tofu(&mut tofu_times)?;
    }
    let input = format!("terraform-provider-openstack {OPENSTACK_VERSION}");
    samples.push(Sample {
        name: "schema-cold-openstack",
        input: format!(
            "{input}: the package hashed and checked against the lock file, the provider \
             started, GetProviderSchema, stopped, the schema stored in an empty cache"
        ),
        times: cold,
    });
    match tofu_json_bytes {
        Some(bytes) => samples.push(Sample {
            name: "tofu-providers-schema-openstack",
            input: format!(
                "{input}: OpenTofu 1.12's `tofu providers schema -json` on the same install, \
                 as a process ({:.0} kB of JSON)",
                bytes as f64 / 1e3
            ),
            times: tofu_times,
        }),
        None => skipped.push(
            "tofu-providers-schema-openstack: TOFU_LENS_ORACLE_DIR holds no tofu binary".to_owned(),
        ),
    }
    samples.push(Sample {
        name: "schema-cache",
        input: format!(
            "{input}: from the schema cache (the package's hash remembered, the entry decoded)"
        ),
        times: cached,
    });
    Ok(())
}

/// What a loaded schema keeps on the heap.
pub struct SchemaMemory {
    /// The `tofu providers schema -json` text it was decoded from.
    pub json_bytes: usize,
    /// Bytes asked of the allocator and still held by the decoded schemas.
    pub heap_bytes: usize,
    /// Allocations still held (each costs the allocator a header and
    /// rounding besides its bytes: about 16 bytes with glibc's malloc).
    pub n_allocations: usize,
}

/// glibc's malloc on 64-bit Linux: an 8-byte header, the size rounded up to
/// 16 bytes; 16 bytes on average per allocation.
pub const MALLOC_OVERHEAD_PER_ALLOCATION: usize = 16;

impl SchemaMemory {
    /// The heap held, with the allocator's overhead, over the JSON size.
    pub fn ratio(&self) -> f64 {
        (self.heap_bytes + self.n_allocations * MALLOC_OVERHEAD_PER_ALLOCATION) as f64
            / self.json_bytes.max(1) as f64
    }
}

/// `schema-memory`: the heap the schemas decoded from the `tofu providers
/// schema -json` document at `path` keep, counted by `tofu-bench-heap` (the
/// binary beside this one, whose allocator counts).
pub fn memory(path: &Path) -> Result<SchemaMemory> {
    let heap = std::env::current_exe()
        .map_err(|e| e.to_string())?
        .with_file_name(format!("tofu-bench-heap{}", std::env::consts::EXE_SUFFIX));
    let output = Command::new(&heap)
        .arg(path)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            format!(
                "{}: {e} (build it with cargo build -p tofu-bench)",
                heap.display()
            )
        })?;
    if !output.status.success() {
        return Err(format!(
            "{} failed: {}",
            heap.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let numbers: Vec<usize> = text
        .split_whitespace()
        .filter_map(|word| word.parse().ok())
        .collect();
    let [json_bytes, heap_bytes, n_allocations] = numbers.as_slice() else {
        return Err(format!("{} printed {text:?}", heap.display()));
    };
    Ok(SchemaMemory {
        json_bytes: *json_bytes,
        heap_bytes: *heap_bytes,
        n_allocations: *n_allocations,
    })
}
