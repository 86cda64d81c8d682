//! Unit tests of the registry-address parser (`diagnostics.md` §4.8) and the
//! remote-address detectors (§4.10), with OpenTofu's wording.

use super::*;

fn registry_reason(source: &str) -> String {
    match parse_registry(source) {
        RegistryVerdict::Invalid(reason) => reason,
        other => panic!("{source}: expected an invalid registry address, got {other:?}"),
    }
}

#[test]
fn registry_addresses_that_parse() {
    for source in [
        "hashicorp/consul/aws",
        "cloudposse/label/null",
        "cloudposse/stack-config/yaml//modules/remote-state",
        "app.terraform.io/example-corp/k8s-cluster/azurerm",
        "registry.opentofu.org/a_b/c-d/x1",
        "example.com:8443/ns/name/aws",
        "example.com:443/ns/name/aws",
        "Example.COM/ns/name/aws",
        "modules/net/aws",
        "a/b/c//../x/..",
    ] {
        assert_eq!(parse_registry(source), RegistryVerdict::Valid, "{source}");
    }
    let max = "a".repeat(64);
    assert_eq!(
        parse_registry(&format!("{max}/{max}/{max}")),
        RegistryVerdict::Valid
    );
}

#[test]
fn registry_errors_use_opentofu_wording() {
    assert_eq!(
        registry_reason("./modules/x"),
        r#"can't use local directory "./modules/x" as a module registry address"#
    );
    assert_eq!(
        registry_reason("..\\x"),
        r#"can't use local directory "..\\x" as a module registry address"#
    );
    assert_eq!(
        registry_reason("stage"),
        "a module registry source address must have either three or four slash-separated components"
    );
    assert_eq!(
        registry_reason("a/b/c/d/e"),
        "a module registry source address must have either three or four slash-separated components"
    );
    assert_eq!(
        registry_reason("---.com/HashiCorp/Consul/aws"),
        r#"invalid module registry hostname "---.com"; internationalized domain names must be given as direct unicode characters, not in punycode"#
    );
    assert_eq!(
        registry_reason("my_host.com/a/b/c"),
        r#"invalid module registry hostname "my_host.com""#
    );
    assert_eq!(
        registry_reason("example.com:99999/a/b/c"),
        r#"invalid module registry hostname "example.com:99999""#
    );
    assert_eq!(
        registry_reason("modules/net/aws/vpc"),
        "invalid module registry hostname: must contain at least one dot"
    );
    assert_eq!(
        registry_reason("GitHub.com/org/repo/aws"),
        r#"can't use "github.com" as a module registry host, because it's reserved for installing directly from version control repositories"#
    );
    assert_eq!(
        registry_reason("bitbucket.org:443/org/repo/aws"),
        r#"can't use "bitbucket.org" as a module registry host, because it's reserved for installing directly from version control repositories"#
    );
    assert_eq!(
        registry_reason("github.com/org/repo"),
        "source address must have three more components after the hostname: the namespace, the name, and the target system"
    );
    assert_eq!(
        registry_reason("-ns/name/aws"),
        r#"invalid namespace "-ns": must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix"#
    );
    assert_eq!(
        registry_reason("ns/name_/aws"),
        r#"invalid module name "name_": must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix"#
    );
    assert_eq!(
        registry_reason("ns/name/AWS"),
        r#"invalid target system "AWS": must be between one and 64 ASCII letters or digits"#
    );
    assert_eq!(
        registry_reason("ns/name/aws?ref=v1"),
        "module registry addresses may not include a query string portion"
    );
    assert_eq!(
        registry_reason("ns/name/aws//../up"),
        r#"subdirectory path "../up" leads outside of the module package"#
    );
    assert_eq!(
        registry_reason("git::https://example.com/x.git?ref=v1"),
        r#"invalid module registry hostname "git::https:""#
    );
    assert_eq!(
        registry_reason(&format!("ns/{}/aws", "a".repeat(65))),
        format!(
            "invalid module name \"{}\": must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix",
            "a".repeat(65)
        )
    );
}

#[test]
fn registry_hosts_that_cannot_be_judged_stay_unknown() {
    for source in [
        "exämple.com/a/b/c",
        "example.com./a/b/c",
        "example.com:+80/a/b/c",
        "XN--nxasmq6b.com/a/b/c",
        "bad\nline/b/c",
    ] {
        assert_eq!(parse_registry(source), RegistryVerdict::Unknown, "{source}");
    }
}

#[test]
fn detectors_claim_remote_addresses() {
    for source in [
        "git::https://github.com/cloudposse/terraform-aws-kms-key.git?ref=tags/0.1.3",
        "git::ssh://git@example.com/x.git",
        "hg::http://example.com/repo",
        "s3::https://s3.amazonaws.com/bucket/x.zip",
        "gcs::https://www.googleapis.com/storage/v1/b/x.zip",
        "https://example.com/module.zip",
        "http://example.com/module.zip",
        "s3://bucket/x",
        "gs://bucket/x",
        "git+ssh://example.com/x",
        "github.com/hashicorp/example",
        "github.com/hashicorp/example//sub?ref=v1",
        "bitbucket.org/org/repo",
        "git@github.com:org/repo.git",
        "git@example.com:/x",
        "bucket.s3.amazonaws.com/x.zip",
        "www.googleapis.com/storage/v1/bucket/x.zip",
        "/absolute/path",
        "./local",
        "../up",
        ".\\win",
        "..\\win",
        "hashicorp/consul/aws",
        "example.com/ns/name/aws",
    ] {
        assert_eq!(classify_source(source), SourceVerdict::Accepted, "{source}");
    }
}

#[test]
fn unclaimed_relative_paths_are_refused() {
    for (source, package) in [
        ("stage", "stage"),
        ("ns", "ns"),
        ("modules/net", "modules/net"),
        ("modules/net/aws/vpc", "modules/net/aws/vpc"),
        ("modules/net//sub", "modules/net"),
        ("example.com/foo/bar", "example.com/foo/bar"),
        ("gitlab.com/org/repo", "gitlab.com/org/repo"),
        ("user@example.com:repo", "user@example.com:repo"),
        ("1abc:path", "1abc:path"),
        ("stage?ref=v1", "stage?ref=v1"),
        ("modules//sub?ref=1", "modules?ref=1"),
        ("{{source}}", "{{source}}"),
    ] {
        assert_eq!(
            classify_source(source),
            SourceVerdict::RelativePath {
                package: package.to_owned()
            },
            "{source}"
        );
    }
}

#[test]
fn other_certain_failures() {
    assert_eq!(
        classify_source(""),
        SourceVerdict::Invalid {
            reason: "invalid source string: ".to_owned()
        }
    );
    assert_eq!(
        classify_source("github.com/org"),
        SourceVerdict::Invalid {
            reason: "GitHub URLs should be github.com/username/repo".to_owned()
        }
    );
    assert_eq!(
        classify_source("example.com/x//a/../../y"),
        SourceVerdict::Invalid {
            reason: r#"subdirectory path "../y" leads outside of the module package"#.to_owned()
        }
    );
}

#[test]
fn uncertain_sources_are_not_judged() {
    for source in ["\\\\server\\share", "stage\n", "exämple.com/a/b/c"] {
        assert_eq!(classify_source(source), SourceVerdict::Unknown, "{source}");
    }
}

#[test]
fn helpers_match_go() {
    assert_eq!(path_clean("a/../../b"), "../b");
    assert_eq!(path_clean("./x//y/"), "x/y");
    assert_eq!(path_clean(".."), "..");
    assert_eq!(path_clean("/../a"), "/a");
    assert_eq!(path_clean("a/.."), ".");
    assert_eq!(
        source_dir_subdir("https://example.com/x//sub?ref=1"),
        ("https://example.com/x?ref=1".to_owned(), "sub".to_owned())
    );
    assert_eq!(
        source_dir_subdir("a?b//c"),
        ("a?b//c".to_owned(), String::new())
    );
    assert_eq!(ssh_user("git@github.com:a/b"), Some("git"));
    assert_eq!(ssh_user("git@:a"), Some(""));
    assert_eq!(ssh_user("host:path"), Some(""));
    assert_eq!(ssh_user("stage"), None);
    assert!(has_url_scheme("git+ssh://x"));
    assert!(!has_url_scheme("1a:b"));
    assert!(!has_url_scheme("git@github.com:a"));
    assert!(has_forced_getter("git::x"));
    assert!(!has_forced_getter("::x"));
    assert!(!has_forced_getter("git-x::y"));
    assert_eq!(go_quote("a\"b\\c"), r#""a\"b\\c""#);
}
