//! Block identities: what makes two top-level blocks "the same" for duplicate
//! detection and for matching an override to its base (`merging.md` §2).

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ResourceMode {
    Managed,
    Data,
    Ephemeral,
}

impl ResourceMode {
    pub fn keyword(self) -> &'static str {
        match self {
            ResourceMode::Managed => "resource",
            ResourceMode::Data => "data",
            ResourceMode::Ephemeral => "ephemeral",
        }
    }
}

/// The identity of a top-level block that can be declared once and overridden.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BlockAddress {
    Variable(String),
    Output(String),
    Module(String),
    Resource {
        mode: ResourceMode,
        type_name: String,
        name: String,
    },
    /// A provider configuration: local name plus the value of its `alias` argument.
    Provider {
        name: String,
        alias: Option<String>,
    },
    Check(String),
}

impl BlockAddress {
    /// The block type keyword this address belongs to.
    pub fn keyword(&self) -> &'static str {
        match self {
            BlockAddress::Variable(_) => "variable",
            BlockAddress::Output(_) => "output",
            BlockAddress::Module(_) => "module",
            BlockAddress::Resource { mode, .. } => mode.keyword(),
            BlockAddress::Provider { .. } => "provider",
            BlockAddress::Check(_) => "check",
        }
    }

    /// Parses the addresses `show` accepts: `resource.T.N`, `T.N`, `data.T.N`,
    /// `ephemeral.T.N`, `variable.N`, `output.N`, `module.N`, `provider.P`,
    /// `provider.P.ALIAS`, `check.N`.
    pub fn parse(text: &str) -> Option<BlockAddress> {
        let parts: Vec<&str> = text.split('.').collect();
        let address = match parts.as_slice() {
            ["variable" | "var", name] => BlockAddress::Variable((*name).to_owned()),
            ["output", name] => BlockAddress::Output((*name).to_owned()),
            ["module", name] => BlockAddress::Module((*name).to_owned()),
            ["check", name] => BlockAddress::Check((*name).to_owned()),
            ["provider", name] => BlockAddress::Provider {
                name: (*name).to_owned(),
                alias: None,
            },
            ["provider", name, alias] => BlockAddress::Provider {
                name: (*name).to_owned(),
                alias: Some((*alias).to_owned()),
            },
            [keyword @ ("resource" | "data" | "ephemeral"), type_name, name] => {
                BlockAddress::Resource {
                    mode: match *keyword {
                        "data" => ResourceMode::Data,
                        "ephemeral" => ResourceMode::Ephemeral,
                        _ => ResourceMode::Managed,
                    },
                    type_name: (*type_name).to_owned(),
                    name: (*name).to_owned(),
                }
            }
            [type_name, name] => BlockAddress::Resource {
                mode: ResourceMode::Managed,
                type_name: (*type_name).to_owned(),
                name: (*name).to_owned(),
            },
            _ => return None,
        };
        Some(address)
    }
}

impl fmt::Display for BlockAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockAddress::Variable(name) => write!(f, "variable.{name}"),
            BlockAddress::Output(name) => write!(f, "output.{name}"),
            BlockAddress::Module(name) => write!(f, "module.{name}"),
            BlockAddress::Check(name) => write!(f, "check.{name}"),
            BlockAddress::Resource {
                mode,
                type_name,
                name,
            } => write!(f, "{}.{type_name}.{name}", mode.keyword()),
            BlockAddress::Provider { name, alias: None } => write!(f, "provider.{name}"),
            BlockAddress::Provider {
                name,
                alias: Some(alias),
            } => write!(f, "provider.{name}.{alias}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn show_addresses_round_trip() {
        for text in [
            "resource.aws_instance.web",
            "data.aws_ami.x",
            "ephemeral.x.y",
            "variable.region",
            "output.ip",
            "module.net",
            "provider.aws",
            "provider.aws.west",
            "check.health",
        ] {
            assert_eq!(BlockAddress::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(
            BlockAddress::parse("aws_instance.web").unwrap().to_string(),
            "resource.aws_instance.web"
        );
        assert_eq!(BlockAddress::parse("a.b.c.d"), None);
    }
}
