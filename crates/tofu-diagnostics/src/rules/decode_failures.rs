//! Where OpenTofu's decoding of a file's blocks failed, handed as data
//! from the decoding rules (`FileCheck::Decoding`) to the rules after them,
//! so that no rule reads another's diagnostics and the order of the rules in
//! the table never matters.

use tofu_syntax::{Diagnostic, TextRange};

use tofu_module::loaded::FileView;

/// Where OpenTofu's decoding of a file's blocks failed: the errors the
/// decoding rules reported, and the duplicate JSON properties the parser
/// reported (OpenTofu counts them as errors of the body holding them).
#[derive(Debug, Default)]
pub(crate) struct DecodeFailures {
    /// The code and range of each error, in the order reported.
    errors: Vec<(tofu_syntax::Code, TextRange)>,
}

impl DecodeFailures {
    pub(crate) fn of(view: FileView<'_>, decoding: &[Diagnostic]) -> DecodeFailures {
        let reported = decoding
            .iter()
            .filter(|diagnostic| diagnostic.is_error() && diagnostic.subject.file == view.id)
            .filter_map(|diagnostic| Some((diagnostic.code, diagnostic.subject.range?)));
        let json_duplicates = view
            .file
            .source
            .iter()
            .filter(|_| view.file.is_json())
            .flat_map(|source| &source.errors)
            .filter(|error| error.duplicate_argument)
            .map(|error| (crate::codes::DUPLICATE_ARGUMENT, error.range));
        DecodeFailures {
            errors: reported.chain(json_duplicates).collect(),
        }
    }

    /// The decoding errors inside `span`, with their codes.
    pub(crate) fn within(
        &self,
        span: TextRange,
    ) -> impl Iterator<Item = (tofu_syntax::Code, TextRange)> + '_ {
        self.errors
            .iter()
            .copied()
            .filter(move |(_, range)| range.start >= span.start && range.end <= span.end)
    }
}
