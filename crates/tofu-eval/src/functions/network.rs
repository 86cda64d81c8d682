//! The IP network functions (`cidrhost`, `cidrnetmask`, `cidrsubnet`,
//! `cidrsubnets`, `cidrcontains`). Not implemented yet: their results are
//! unknown (see `registry`).

use super::Implementation;

pub(super) fn implementation(_name: &str) -> Option<Implementation> {
    None
}
