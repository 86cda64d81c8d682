//! `tofu-lens show`: the effective configuration of one module directory, as
//! HCL with provenance comments or as JSON.

use std::path::Path;

use serde::Serialize;
use tofu_diagnostics::{analyze, AnalysisCache, ModuleAnalysis};
use tofu_module::show::{render_block, render_locals, render_module, render_terraform, Provenance};
use tofu_module::{
    BlockAddress, Config, EffectiveAttribute, EffectiveBlock, EffectiveBody, Origin,
};

#[derive(Debug)]
pub enum ShowError {
    /// The path does not exist or the directory cannot be read (exit 2).
    Unusable(String),
    /// The address names nothing in the module (exit 1).
    NotFound(String),
}

/// Loads and analyses the module directory of `path` (a file stands for its
/// directory).
pub fn load(path: &Path, config: &Config) -> Result<ModuleAnalysis, ShowError> {
    let metadata = std::fs::metadata(path).map_err(|_| {
        ShowError::Unusable(format!("{}: no such file or directory", path.display()))
    })?;
    let dir = if metadata.is_dir() {
        path.to_path_buf()
    } else {
        match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => Path::new(".").to_path_buf(),
        }
    };
    let files = tofu_vfs::read_module_dir(&dir)
        .map_err(|error| ShowError::Unusable(format!("{}: {error}", dir.display())))?;
    let analysis = analyze(&files, config, &mut AnalysisCache::new());
    if analysis.primary.is_empty() && analysis.overrides.is_empty() {
        return Err(ShowError::Unusable(format!(
            "{}: no configuration files in this directory",
            dir.display()
        )));
    }
    Ok(analysis)
}

enum Selection<'a> {
    Module,
    Terraform,
    Locals,
    Block(&'a EffectiveBlock),
}

fn select<'a>(
    analysis: &'a ModuleAnalysis,
    address: Option<&str>,
) -> Result<Selection<'a>, ShowError> {
    match address {
        None => Ok(Selection::Module),
        Some("terraform") => Ok(Selection::Terraform),
        Some("locals") => Ok(Selection::Locals),
        Some(text) => BlockAddress::parse(text)
            .and_then(|address| analysis.effective.get(&address))
            .map(Selection::Block)
            .ok_or_else(|| ShowError::NotFound(format!("no block {text} in this module"))),
    }
}

/// The HCL text of `show`.
pub fn text(analysis: &ModuleAnalysis, address: Option<&str>) -> Result<String, ShowError> {
    Ok(match select(analysis, address)? {
        Selection::Module => render_module(analysis, Provenance::Full),
        Selection::Terraform => render_terraform(analysis, Provenance::Full),
        Selection::Locals => render_locals(
            analysis,
            analysis.effective.locals.iter().map(|local| &**local),
            Provenance::Full,
        ),
        Selection::Block(block) => render_block(analysis, block, Provenance::Full),
    })
}

#[derive(Serialize)]
struct PlaceOut {
    file: String,
    line: u32,
}

#[derive(Serialize)]
struct AttributeOut {
    name: String,
    value: String,
    from: PlaceOut,
    overrides: Vec<PlaceOut>,
}

#[derive(Serialize)]
struct BlockOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    address: Option<String>,
    kind: String,
    labels: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<PlaceOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    changed_by: Vec<PlaceOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    overrides: Vec<PlaceOut>,
    attributes: Vec<AttributeOut>,
    blocks: Vec<BlockOut>,
}

fn place(analysis: &ModuleAnalysis, origin: Origin) -> PlaceOut {
    match analysis.file(origin.file) {
        Some(file) => PlaceOut {
            file: file.name.clone(),
            line: file
                .line_index
                .line_col(&file.text, origin.range.start)
                .line,
        },
        None => PlaceOut {
            file: String::new(),
            line: 0,
        },
    }
}

fn attribute_out(analysis: &ModuleAnalysis, attr: &EffectiveAttribute) -> AttributeOut {
    let value = analysis
        .file(attr.origin.file)
        .map(|file| attr.value.slice(&file.text).to_owned())
        .unwrap_or_default();
    AttributeOut {
        name: attr.name.clone(),
        value,
        from: place(analysis, attr.origin),
        overrides: attr
            .superseded
            .iter()
            .map(|o| place(analysis, *o))
            .collect(),
    }
}

fn body_out(analysis: &ModuleAnalysis, body: &EffectiveBody) -> (Vec<AttributeOut>, Vec<BlockOut>) {
    let attributes = body
        .attributes
        .iter()
        .map(|a| attribute_out(analysis, a))
        .collect();
    let blocks = body
        .blocks
        .iter()
        .map(|nested| {
            let (attributes, blocks) = body_out(analysis, &nested.body);
            BlockOut {
                address: None,
                kind: nested.kind.clone(),
                labels: nested.labels.clone(),
                from: Some(place(analysis, nested.origin)),
                changed_by: Vec::new(),
                overrides: nested
                    .superseded
                    .iter()
                    .map(|o| place(analysis, *o))
                    .collect(),
                attributes,
                blocks,
            }
        })
        .collect();
    (attributes, blocks)
}

fn block_out(analysis: &ModuleAnalysis, block: &EffectiveBlock) -> BlockOut {
    let header_place = |block_ref: tofu_module::BlockRef| {
        let range = analysis
            .block(block_ref)
            .map(|b| b.header)
            .unwrap_or_default();
        place(
            analysis,
            Origin {
                file: block_ref.file,
                range,
            },
        )
    };
    let (attributes, blocks) = body_out(analysis, &block.body);
    BlockOut {
        address: Some(block.address.to_string()),
        kind: block.kind.clone(),
        labels: block.labels.clone(),
        from: block.base.map(header_place),
        changed_by: block.overrides.iter().map(|o| header_place(*o)).collect(),
        overrides: Vec::new(),
        attributes,
        blocks,
    }
}

/// The JSON of `show --format json`: one block, or an array of blocks.
pub fn json(analysis: &ModuleAnalysis, address: Option<&str>) -> Result<String, ShowError> {
    let locals_out = || BlockOut {
        address: Some("locals".to_owned()),
        kind: "locals".to_owned(),
        labels: Vec::new(),
        from: None,
        changed_by: Vec::new(),
        overrides: Vec::new(),
        attributes: analysis
            .effective
            .locals
            .iter()
            .map(|l| attribute_out(analysis, &l.attribute))
            .collect(),
        blocks: Vec::new(),
    };
    let terraform_out = || {
        let view = &analysis.effective.terraform;
        let mut attributes: Vec<AttributeOut> = view
            .required_versions
            .iter()
            .filter(|r| r.checked)
            .map(|r| attribute_out(analysis, &r.attribute))
            .collect();
        attributes.extend(
            view.required_providers
                .iter()
                .map(|a| attribute_out(analysis, a)),
        );
        let nested = EffectiveBody {
            attributes: Vec::new(),
            blocks: view
                .backend
                .iter()
                .chain(view.encryption.iter())
                .chain(view.provider_meta.iter())
                .cloned()
                .collect(),
        };
        BlockOut {
            address: Some("terraform".to_owned()),
            kind: "terraform".to_owned(),
            labels: Vec::new(),
            from: None,
            changed_by: Vec::new(),
            overrides: Vec::new(),
            attributes,
            blocks: body_out(analysis, &nested).1,
        }
    };
    let value = match select(analysis, address)? {
        Selection::Module => {
            let mut all = vec![terraform_out(), locals_out()];
            all.extend(
                analysis
                    .effective
                    .blocks
                    .iter()
                    .map(|b| block_out(analysis, b)),
            );
            serde_json::to_value(all)
        }
        Selection::Terraform => serde_json::to_value(terraform_out()),
        Selection::Locals => serde_json::to_value(locals_out()),
        Selection::Block(block) => serde_json::to_value(block_out(analysis, block)),
    };
    Ok(value
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or_else(|_| "null".to_owned()))
}
