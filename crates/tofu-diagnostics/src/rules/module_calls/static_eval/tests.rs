//! Unit tests of reference reading for static evaluation (`diagnostics.md`
//! §4.7): what counts as a reference, its subject and its range.

use super::*;

fn references(text: &str) -> Vec<(ReferenceKind, String)> {
    let file = tofu_syntax::parse("main.tf", &format!("x = {text}\n"));
    let attribute = file.body.attribute("x").expect("attribute");
    let full = format!("x = {text}\n");
    references_in(&full, &attribute.expr, false)
        .into_iter()
        .map(|reference| {
            let written = reference.range.slice(&full).to_owned();
            (reference.kind, written)
        })
        .collect()
}

fn dynamic(name: &str) -> ReferenceKind {
    ReferenceKind::Dynamic(name.to_owned())
}

#[test]
fn references_are_read_as_opentofu_parses_them() {
    assert_eq!(
        references("aws_instance.web[0].id"),
        [(
            dynamic("aws_instance.web[0]"),
            "aws_instance.web[0]".to_owned()
        )]
    );
    assert_eq!(
        references("data.aws_ami.x.id"),
        [(dynamic("data.aws_ami.x"), "data.aws_ami.x".to_owned())]
    );
    assert_eq!(
        references("module.net[\"a\"].vpc_id"),
        [(
            ReferenceKind::ModuleOutput("module.net[\"a\"].vpc_id".to_owned()),
            "module.net[\"a\"].vpc_id".to_owned()
        )]
    );
    assert_eq!(
        references("module.net"),
        [(dynamic("module.net"), "module.net".to_owned())]
    );
    assert_eq!(
        references("provider::aws::arn_parse(local.a)"),
        [
            (
                ReferenceKind::ProviderFunction("provider::aws::arn_parse".to_owned()),
                "provider::aws::arn_parse".to_owned()
            ),
            (ReferenceKind::Local("a".to_owned()), "local.a".to_owned())
        ]
    );
    assert_eq!(
        references("\"${count.index}-${each.key}-${path.module}\""),
        [
            (dynamic("count.index"), "count.index".to_owned()),
            (dynamic("each.key"), "each.key".to_owned()),
            (ReferenceKind::Path, "path.module".to_owned())
        ]
    );
    assert_eq!(
        references("aws_instance.web[var.i].id"),
        [
            (dynamic("aws_instance.web"), "aws_instance.web".to_owned()),
            (ReferenceKind::Variable("i".to_owned()), "var.i".to_owned())
        ]
    );
    assert_eq!(references("self"), [(dynamic("self"), "self".to_owned())]);
    assert_eq!(
        references("var"),
        [(ReferenceKind::Invalid, "var".to_owned())]
    );
}

#[test]
fn bound_symbols_and_object_keys_are_not_references() {
    assert_eq!(
        references("[for k, v in local.m : \"${k}${v.x}\" if v != null]"),
        [(ReferenceKind::Local("m".to_owned()), "local.m".to_owned())]
    );
    assert_eq!(
        references("{ key = tofu.workspace }"),
        [(
            ReferenceKind::TerraformAttribute("workspace".to_owned()),
            "tofu.workspace".to_owned()
        )]
    );
    assert_eq!(
        references("\"%{ for s in var.list }${s.a}%{ endfor }\""),
        [(
            ReferenceKind::Variable("list".to_owned()),
            "var.list".to_owned()
        )]
    );
}
