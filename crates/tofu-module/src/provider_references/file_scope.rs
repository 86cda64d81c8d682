//! The file a provider check reads, and what every check of the family
//! shares: places, descriptions and expression starts in the file, and the
//! `invalid-provider-local-name` diagnostic with its quick fix. The dispatch
//! over block types is the parent module's.

use tofu_syntax::{Diagnostic, Expr, FileId, Fix, Location, TextRange};

use crate::loaded::{FileRole, ModuleFile};
use crate::names::{local_name_detail, local_name_problem, LocalNameProblem};

/// One loaded file and the helpers every check of this module shares.
pub struct FileScope<'a> {
    pub id: FileId,
    pub file: &'a ModuleFile,
}

impl FileScope<'_> {
    pub fn json(&self) -> bool {
        self.file.is_json()
    }

    pub fn primary(&self) -> bool {
        self.file.role == FileRole::Primary
    }

    pub fn text(&self) -> &str {
        &self.file.text
    }

    pub fn at(&self, range: TextRange) -> Location {
        Location::new(self.id, range)
    }

    /// `main.tf:3,5-20`, as HCL writes a range in a detail.
    pub fn describe(&self, range: TextRange) -> String {
        self.file.describe(range)
    }

    /// HCL's start range of an expression: the value itself in JSON.
    pub fn expr_start(&self, expr: &Expr) -> TextRange {
        crate::expr::start::expr_start(self.text(), expr, self.json())
    }

    /// `invalid-provider-local-name` for `name` when it is invalid or not
    /// normalised (§4.11), on `subject`. `name_range` is where the name is
    /// written, for the quick fix; `None` when it cannot be edited exactly.
    pub fn local_name_diagnostic(
        &self,
        name: &str,
        summary: &str,
        subject: TextRange,
        name_range: Option<TextRange>,
    ) -> Option<Diagnostic> {
        let problem = local_name_problem(name)?;
        let mut diagnostic = Diagnostic::new(
            crate::codes::INVALID_PROVIDER_LOCAL_NAME,
            summary,
            self.at(subject),
        )
        .with_detail(local_name_detail(name, &problem));
        if let (LocalNameProblem::NotNormalized(normalized), Some(name_range)) =
            (&problem, name_range)
        {
            let written = name_range.slice(self.text());
            let replacement = if written.starts_with('"') {
                format!("\"{normalized}\"")
            } else {
                normalized.clone()
            };
            diagnostic = diagnostic.with_fix(
                Fix::new(format!("Replace \"{name}\" with \"{normalized}\"")).with_edit(
                    self.id,
                    name_range,
                    replacement,
                ),
            );
        }
        Some(diagnostic)
    }
}
