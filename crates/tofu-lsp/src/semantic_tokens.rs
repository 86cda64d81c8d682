//! Semantic tokens: the engine's highlights (`tofu_ide::Highlight`, byte
//! ranges with a kind) as LSP semantic tokens, for the `semanticTokens/full`
//! and `/range` requests.
//!
//! This module owns the legend (standard token types and modifiers only, so
//! every theme colours them without the client knowing tofu-lens) and the
//! encoding: each highlight is cut at line breaks (clients need not support
//! multi-line tokens), measured in the negotiated position encoding by
//! `position.rs`, and delta-encoded. What a piece of text is, the engine
//! decides; nothing here reads HCL.

use tofu_ide::{Highlight, HighlightKind, NameKind};
use tower_lsp_server::ls_types::{
    Position, SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokensFullOptions,
    SemanticTokensLegend, SemanticTokensOptions, SemanticTokensServerCapabilities,
    WorkDoneProgressOptions,
};

use crate::position::LineMap;

/// The token types, in legend order (a token's type is its index here).
const TOKEN_TYPES: [SemanticTokenType; 13] = [
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::TYPE,
    SemanticTokenType::CLASS,
    SemanticTokenType::STRUCT,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::KEYWORD,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::COMMENT,
    SemanticTokenType::OPERATOR,
];

/// The token modifiers, in legend order (bit `1 << i`).
const TOKEN_MODIFIERS: [SemanticTokenModifier; 3] = [
    SemanticTokenModifier::DECLARATION,
    SemanticTokenModifier::READONLY,
    SemanticTokenModifier::DEFAULT_LIBRARY,
];

const DECLARATION: u32 = 1;
const READONLY: u32 = 1 << 1;
const DEFAULT_LIBRARY: u32 = 1 << 2;

/// What the server advertises.
pub fn capability() -> SemanticTokensServerCapabilities {
    SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
        work_done_progress_options: WorkDoneProgressOptions::default(),
        legend: SemanticTokensLegend {
            token_types: TOKEN_TYPES.to_vec(),
            token_modifiers: TOKEN_MODIFIERS.to_vec(),
        },
        range: Some(true),
        full: Some(SemanticTokensFullOptions::Bool(true)),
    })
}

/// The legend index of `token_type`.
fn type_index(token_type: &SemanticTokenType) -> u32 {
    TOKEN_TYPES
        .iter()
        .position(|known| known == token_type)
        .and_then(|index| u32::try_from(index).ok())
        .unwrap_or(0)
}

/// The token type and modifiers an engine highlight is shown as.
fn token_of(kind: HighlightKind) -> (SemanticTokenType, u32) {
    let name = |kind: NameKind| match kind {
        NameKind::Variable => (SemanticTokenType::PARAMETER, 0),
        NameKind::Local => (SemanticTokenType::VARIABLE, READONLY),
        NameKind::Resource => (SemanticTokenType::CLASS, 0),
        NameKind::DataSource => (SemanticTokenType::STRUCT, 0),
        NameKind::ModuleCall => (SemanticTokenType::NAMESPACE, 0),
        NameKind::Output => (SemanticTokenType::PROPERTY, 0),
    };
    match kind {
        HighlightKind::Keyword | HighlightKind::BlockType => (SemanticTokenType::KEYWORD, 0),
        HighlightKind::TypeLabel | HighlightKind::TypeName => (SemanticTokenType::TYPE, 0),
        HighlightKind::Declaration(kind) => {
            let (token_type, modifiers) = name(kind);
            (token_type, modifiers | DECLARATION)
        }
        HighlightKind::Reference(kind) => name(kind),
        HighlightKind::Argument | HighlightKind::ObjectKey | HighlightKind::Property => {
            (SemanticTokenType::PROPERTY, 0)
        }
        HighlightKind::BuiltinObject => (SemanticTokenType::VARIABLE, DEFAULT_LIBRARY),
        HighlightKind::IteratorName => (SemanticTokenType::VARIABLE, 0),
        HighlightKind::Function => (SemanticTokenType::FUNCTION, 0),
        HighlightKind::String => (SemanticTokenType::STRING, 0),
        HighlightKind::HeredocMarker => (SemanticTokenType::OPERATOR, 0),
        HighlightKind::Number => (SemanticTokenType::NUMBER, 0),
        HighlightKind::Comment => (SemanticTokenType::COMMENT, 0),
    }
}

/// Highlights (sorted, not overlapping) as delta-encoded tokens, one per
/// line a highlight touches.
pub fn encode(highlights: &[Highlight], map: &LineMap) -> Vec<SemanticToken> {
    let mut tokens = Vec::with_capacity(highlights.len());
    let mut previous = Position::new(0, 0);
    for highlight in highlights {
        let (token_type, token_modifiers_bitset) = token_of(highlight.kind);
        let token_type = type_index(&token_type);
        for (start, length) in map.line_parts(highlight.range) {
            let delta_line = start.line.saturating_sub(previous.line);
            let delta_start = if delta_line == 0 {
                start.character.saturating_sub(previous.character)
            } else {
                start.character
            };
            tokens.push(SemanticToken {
                delta_line,
                delta_start,
                length,
                token_type,
                token_modifiers_bitset,
            });
            previous = start;
        }
    }
    tokens
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use crate::position::PositionEncoding;
    use tofu_syntax::TextRange;

    #[test]
    fn every_token_type_is_in_the_legend() {
        for (index, token_type) in TOKEN_TYPES.iter().enumerate() {
            assert_eq!(type_index(token_type) as usize, index);
        }
    }

    #[test]
    fn tokens_are_delta_encoded_and_cut_at_line_breaks() {
        let text = "/* a\nbc */ x = \"é\"";
        let map = LineMap::new(text, PositionEncoding::Utf16);
        let highlights = [
            Highlight {
                range: TextRange::new(0, 10),
                kind: HighlightKind::Comment,
            },
            Highlight {
                range: TextRange::new(11, 12),
                kind: HighlightKind::Argument,
            },
            Highlight {
                range: TextRange::new(15, 19),
                kind: HighlightKind::String,
            },
        ];
        let comment = type_index(&SemanticTokenType::COMMENT);
        let property = type_index(&SemanticTokenType::PROPERTY);
        let string = type_index(&SemanticTokenType::STRING);
        let encoded: Vec<[u32; 5]> = encode(&highlights, &map)
            .iter()
            .map(|t| {
                [
                    t.delta_line,
                    t.delta_start,
                    t.length,
                    t.token_type,
                    t.token_modifiers_bitset,
                ]
            })
            .collect();
        assert_eq!(
            encoded,
            [
                [0, 0, 4, comment, 0],
                [1, 0, 5, comment, 0],
                [0, 6, 1, property, 0],
                [0, 4, 3, string, 0],
            ]
        );
    }
}
